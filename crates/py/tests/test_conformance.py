"""The engine driven from Python against the cartridge's conformance traces.

Each game trace's header builds the game (``Game.from_trace_header``); then every
frame's buttons are stepped from Python and every recorded field -- score, lines,
piece, position, the board (as text and as the numpy view), counters, generator --
is compared with the trace. The power-on traces start from ``Game.power_on``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nestris
from conftest import conformance_dir, read_trace

GAME_TRACES = sorted(p.name for p in conformance_dir().glob("*.jsonl.gz"))
POWER_ON_TRACES = sorted(p.name for p in (conformance_dir() / "power-on").glob("*.jsonl.gz"))

# Trace key -> State attribute, for the numeric fields.
FIELDS = {
    "gameMode": "game_mode",
    "gameModeState": "game_mode_state",
    "playState": "play_state",
    "x": "x",
    "y": "y",
    "piece": "piece",
    "next": "next_piece",
    "level": "level",
    "lines": "lines",
    "score": "score",
    "fallTimer": "fall_timer",
    "autorepeatX": "autorepeat_x",
    "autorepeatY": "autorepeat_y",
    "holdDownPoints": "hold_down_points",
    "vramRow": "vram_row",
    "completedLines": "completed_lines",
    "completedRow": "completed_row",
    "lineIndex": "line_index",
    "rowY": "row_y",
    "curtainRow": "curtain_row",
    "rng": "rng",
    "spawnID": "spawn_id",
    "spawnCount": "spawn_count",
    "frameCounter": "frame_counter",
    "held": "held",
    "pressed": "pressed",
    "renderMode": "render_mode",
    "showNext": "display_next_piece",
    "gameType": "game_type",
    "musicType": "music_type",
    "startLevel": "start_level",
    "startHeight": "start_height",
    "stats": "stats",
    "clears": "clears",
}

BOARD_VALUE = {".": 0, "1": 1, "2": 2, "3": 3, "#": 4}


def observed(game: nestris.Game) -> dict[str, Any]:
    """The game in the trace's vocabulary."""
    s = game.state
    out: dict[str, Any] = {key: getattr(s, attr) for key, attr in FIELDS.items()}
    out["nmi"] = not s.nmi_off_this_frame
    out["selecting"] = s.selecting
    lo, hi = s.lines_bcd
    out["lines_bcd"] = f"{hi:02X}{lo:02X}"
    s0, s1, s2 = s.score_bcd
    out["score_bcd"] = f"{s2:02X}{s1:02X}{s0:02X}"
    out["pf"] = game.board_rows()
    page = game.playfield_bytes()
    off = {f"{0x400 + i:X}": page[i] for i in range(200, 256) if page[i] != 0xEF}
    if off:
        out["offfield"] = off
    return out


def compare(game: nestris.Game, frame: dict[str, Any], name: str) -> None:
    got = observed(game)
    for key, expected in frame.items():
        if key in ("f", "in", "lag"):
            continue
        # `selecting` is a scratch byte outside the level menu (see the traces' README).
        if key == "selecting" and frame.get("gameMode") != 3:
            continue
        actual = got.get(key)
        assert actual == expected, (
            f"{name} frame {frame['f']}: {key} expected {expected!r}, got {actual!r}"
        )
    if "offfield" not in frame:
        assert "offfield" not in got, f"{name} frame {frame['f']}: offfield {got.get('offfield')}"
    # The numpy board is the same picture as the trace's text.
    expected_board = np.array(
        [[BOARD_VALUE[c] for c in row] for row in frame["pf"]], dtype=np.uint8
    )
    np.testing.assert_array_equal(game.board, expected_board, err_msg=f"{name} frame {frame['f']}")


@pytest.mark.parametrize("name", GAME_TRACES)
def test_game_trace(traces_dir: Path, name: str) -> None:
    header, frames = read_trace(traces_dir / name)
    game = nestris.Game.from_trace_header(header)
    board = game.board
    count = 0
    for frame in frames:
        buttons = nestris.parse_buttons(frame["in"])
        game.step(buttons)
        # Game traces count frame interrupts: frames without one are not recorded.
        while game.state.nmi_off_this_frame:
            game.step(buttons)
        compare(game, frame, name)
        count += 1
    assert count > 0
    # The board array stayed the same object, updated in place all along.
    assert game.board is board


@pytest.mark.parametrize("name", POWER_ON_TRACES)
def test_power_on_trace(traces_dir: Path, name: str) -> None:
    header, frames = read_trace(traces_dir / "power-on" / name)
    region = "pal" if '"region": "pal"' in header else "ntsc"
    game = nestris.Game.power_on(region)
    count = 0
    for frame in frames:
        game.step(nestris.parse_buttons(frame["in"]))
        # Frames 0-2 show the emulator's uninitialised RAM.
        if frame["f"] >= 3:
            compare(game, frame, name)
        count += 1
    assert count > 0


def test_trace_header_errors() -> None:
    with pytest.raises(nestris.InvalidArgument, match="not a trace header"):
        nestris.Game.from_trace_header('{"type": "frame"}')
    with pytest.raises(nestris.InvalidArgument, match="not a trace header"):
        nestris.Game.from_trace_header("not json")
    with pytest.raises(nestris.InvalidArgument, match="not a trace header"):
        nestris.Game.from_trace_header('{"type": "header", "ram": ""}')
