"""nestris.Game: construction, stepping, the board view, save states, determinism."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

import nestris
from nestris import Buttons, Event


def play(game: nestris.Game, inputs: list[int]) -> list[tuple[int, int, int, int, int, int]]:
    """Steps ``inputs`` and records (flags, score, lines, piece, x, y) per frame."""
    out = []
    for b in inputs:
        ev = game.step(b)
        out.append((ev.flags, game.score, game.lines, game.piece, game.x, game.y))
    return out


def random_inputs(seed: int, n: int) -> list[int]:
    r = random.Random(seed)
    return [r.choice(nestris.ACTIONS) for _ in range(n)]


def test_new_game_defaults() -> None:
    g = nestris.Game()
    s = g.state
    assert (s.game_mode, s.play_state, s.level, s.x, s.y) == (4, 1, 0, 5, 0)
    assert (g.score, g.lines, g.level) == (0, 0, 0)
    assert g.region == "ntsc"
    assert not g.game_over
    assert s.region == "ntsc" and s.game_type == 0
    assert nestris.Game(level=19, region="PAL", game_type="b", height=5).state.start_height == 5


def test_board_is_a_live_view() -> None:
    g = nestris.Game(level=18, seed=5)
    board = g.board
    assert board.shape == (20, 10) and board.dtype == np.uint8
    assert g.board is board
    assert board.sum() == 0
    # Drop pieces until one locks: the same array now shows it.
    for _ in range(200):
        if g.step(Buttons.DOWN).locked:
            break
    else:
        pytest.fail("no piece locked")
    assert g.board is board
    assert int((board > 0).sum()) == 4
    rows = g.board_rows()
    assert [[{".": 0, "1": 1, "2": 2, "3": 3}[c] for c in r] for r in rows] == board.tolist()


def test_events() -> None:
    g = nestris.Game(level=18, seed=1)
    ev = g.step(Buttons.LEFT)
    assert ev.has(Event.SHIFTED) and "SHIFTED" in ev.names()
    assert ev.flags & Event.SHIFTED
    assert not ev.topped_out and not ev.locked
    assert repr(ev) == "Events(SHIFTED, lines_cleared=0)"
    assert ev.to_dict() == {"flags": int(Event.SHIFTED), "lines_cleared": 0, "names": ["SHIFTED"]}
    assert ev == nestris.Events(int(Event.SHIFTED), 0)
    assert not nestris.Events()
    flags = 0
    while not g.game_over:
        flags |= g.step(Buttons.DOWN).flags
    assert flags & Event.TOPPED_OUT and flags & Event.SPAWNED and flags & Event.LOCKED


def test_determinism_same_seed_same_game() -> None:
    inputs = random_inputs(1, 3000)
    a = play(nestris.Game(level=9, seed=123), inputs)
    b = play(nestris.Game(level=9, seed=123), inputs)
    assert a == b
    c = play(nestris.Game(level=9, seed=124), inputs)
    assert a != c


def test_seed_none_is_power_on_generator() -> None:
    assert nestris.Game().state.rng == nestris.Game(seed=None).state.rng
    setup = nestris.seed_setup(99)
    assert set(setup) == {"rng", "spawn_count", "frame_counter"}


def test_snapshot_restore_and_clone() -> None:
    g = nestris.Game(level=12, seed=77)
    play(g, random_inputs(2, 500))
    saved = g.snapshot()
    assert isinstance(saved, bytes) and len(saved) == nestris.SNAPSHOT_LEN == 421
    h = g.state_hash()
    twin = g.clone()
    assert twin == g and twin is not g and twin.board is not g.board
    future = random_inputs(3, 800)
    after = play(g, future)
    assert g.state_hash() != h
    # The clone did not move.
    assert twin.state_hash() == h
    # Restoring replays the same future, into the same board array.
    board = g.board
    g.restore(saved)
    assert g.state_hash() == h and g.board is board
    assert play(g, future) == after
    # From bytes, bytearray and memoryview.
    for data in (saved, bytearray(saved), memoryview(saved)):
        assert nestris.Game.from_snapshot(data).state_hash() == h
    assert play(twin, future) == after


def test_copy_and_pickle() -> None:
    g = nestris.Game(level=3, seed=8)
    play(g, random_inputs(4, 300))
    for other in (copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert other == g
        assert other.state_hash() == g.state_hash()
        np.testing.assert_array_equal(other.board, g.board)


def test_run_many_frames_matches_step() -> None:
    inputs = random_inputs(5, 2000)
    a = nestris.Game(level=15, seed=3)
    b = nestris.Game(level=15, seed=3)
    flags = 0
    lines = 0
    for x in inputs:
        ev = a.step(x)
        flags |= ev.flags
        lines += ev.lines_cleared
    ev = b.run(bytes(inputs))
    assert a == b
    assert (ev.flags, ev.lines_cleared) == (flags, lines)
    np.testing.assert_array_equal(a.board, b.board)


def test_render() -> None:
    g = nestris.Game(level=18, seed=2)
    while not g.step(Buttons.DOWN).locked:
        pass
    img = g.render()
    assert img.shape == (240, 256, 3) and img.dtype == np.uint8
    # The locked cells are drawn inside the playfield at x 96..176, y 48..208.
    field = img[48:208, 96:176]
    assert field.any()
    assert not img[:40].any()


def test_state_snapshot_fields() -> None:
    g = nestris.Game(level=7, seed=9)
    s = g.state
    d = s.to_dict()
    assert d["level"] == 7 and d["piece"] == s.piece
    assert d["gravity"] == 13  # NTSC level 7
    assert 0 <= d["piece_type"] <= 6
    g.step(Buttons.RIGHT)
    assert s.x == 5 and g.state.x == 6  # a State is a copy


def test_power_on_reaches_the_legal_screen() -> None:
    g = nestris.Game.power_on()
    for _ in range(10):
        g.step(0)
    assert g.state.game_mode == 0


def test_buttons_helpers() -> None:
    assert nestris.parse_buttons(".") == 0
    assert nestris.parse_buttons("DLR") == 7
    assert nestris.format_buttons(Buttons.A | Buttons.DOWN) == "DA"
    assert nestris.ACTION_NAMES[6] == "L+A" and nestris.ACTIONS[6] == Buttons.LEFT | Buttons.A
    assert len(nestris.ACTIONS) == 12
    assert isinstance(nestris.ACTIONS, list) and all(isinstance(a, int) for a in nestris.ACTIONS)
    assert nestris.FrameEnv().actions == nestris.ACTIONS == nestris.VecEnv(1).actions
    assert nestris.FrameEnv(actions=[0x10]).actions == [0x10]
