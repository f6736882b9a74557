"""Bad arguments raise the package's typed exceptions with clear messages."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import nestris


def test_exception_hierarchy() -> None:
    assert issubclass(nestris.InvalidArgument, nestris.NestrisError)
    assert issubclass(nestris.InvalidArgument, ValueError)
    assert issubclass(nestris.InvalidSnapshot, nestris.NestrisError)
    assert issubclass(nestris.InvalidSnapshot, ValueError)
    assert issubclass(nestris.NestrisError, Exception)
    assert nestris.InvalidArgument.__module__ == "nestris"
    assert "Subclass of NestrisError" in (nestris.InvalidSnapshot.__doc__ or "")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"level": 256}, "level must be from 0 to 255, got 256"),
        ({"level": -1}, "level must be from 0 to 255, got -1"),
        ({"level": 10**30}, "level must be from 0 to 255"),
        ({"height": 6}, "height must be from 0 to 5, got 6"),
        ({"region": "secam"}, 'region must be "ntsc" or "pal", got "secam"'),
        ({"game_type": "C"}, 'game_type must be "A" or "B", got "C"'),
        ({"seed": -5}, "seed must be None or an int from 0 to 2\\*\\*64-1, got -5"),
        ({"seed": 2**64}, "seed must be None or an int from 0 to 2\\*\\*64-1"),
    ],
)
def test_game_arguments(kwargs: dict, message: str) -> None:
    with pytest.raises(nestris.InvalidArgument, match=message):
        nestris.Game(**kwargs)


def test_type_errors_name_the_argument() -> None:
    with pytest.raises(TypeError, match="level must be an int, got str"):
        nestris.Game(level="9")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be None or an int, got float"):
        nestris.Game(seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        nestris.Game(region=3)  # type: ignore[arg-type]


def test_step_buttons_range() -> None:
    g = nestris.Game()
    with pytest.raises(nestris.InvalidArgument, match="buttons must be a joypad byte from 0 to"):
        g.step(256)
    with pytest.raises(nestris.InvalidArgument, match="got -1"):
        g.step(-1)
    with pytest.raises(nestris.InvalidArgument):
        g.run([1, 2, 300])
    # Nothing stepped by the failed calls.
    assert g == nestris.Game()


def test_snapshot_errors() -> None:
    g = nestris.Game()
    with pytest.raises(nestris.InvalidSnapshot, match="a snapshot is 421 bytes .* got 3"):
        g.restore(b"abc")
    good = bytearray(g.snapshot())
    bad = bytearray(good)
    bad[0] = 99  # layout version
    with pytest.raises(nestris.InvalidSnapshot, match="encoding version"):
        g.restore(bytes(bad))
    with pytest.raises(nestris.InvalidSnapshot, match="not a valid"):
        nestris.Game.from_snapshot(b"\x00" * 421)
    with pytest.raises(TypeError, match="a snapshot must be bytes, got int"):
        g.restore(5)  # type: ignore[arg-type]
    # The failed restores left the game alone.
    assert g.snapshot() == bytes(good)
    # The error is also a ValueError for callers that catch that.
    with pytest.raises(ValueError):
        g.restore(b"")


def test_button_strings() -> None:
    with pytest.raises(nestris.InvalidArgument, match="not a button string"):
        nestris.parse_buttons("XYZ")
    with pytest.raises(nestris.InvalidArgument, match="joypad byte"):
        nestris.format_buttons(999)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"reward": "money"}, 'reward must be "score", "lines" or "survival", got "money"'),
        ({"observation": "ram"}, 'observation must be "board" or "pixels", got "ram"'),
        ({"frame_skip": 0}, "frame_skip must be from 1"),
        ({"start_level": 300}, "start_level must be from 0 to 255, got 300"),
        ({"actions": []}, "actions must not be empty"),
        ({"actions": [1, 256]}, "each action's joypad byte must be from 0 to 255, got 256"),
    ],
)
def test_env_options(kwargs: dict, message: str) -> None:
    with pytest.raises(nestris.InvalidArgument, match=message):
        nestris.NesTetrisEnv(**kwargs)
    with pytest.raises(nestris.InvalidArgument, match=message):
        nestris.VecEnv(2, **kwargs)


def test_env_actions_and_seeds() -> None:
    env = nestris.NesTetrisEnv()
    env.reset(seed=1)
    with pytest.raises(nestris.InvalidArgument, match="action must be from 0 to 11, got 12"):
        env.step(12)
    with pytest.raises(nestris.InvalidArgument, match="seed must be from 0 to 2\\*\\*64-1, got -1"):
        env.reset(seed=-1)
    with pytest.raises(nestris.InvalidArgument, match="render_mode"):
        nestris.NesTetrisEnv(render_mode="human")


def test_vec_errors() -> None:
    with pytest.raises(nestris.InvalidArgument, match="n must be from 1"):
        nestris.VecEnv(0)
    v = nestris.VecEnv(3)
    v.reset(seed=0)
    with pytest.raises(nestris.InvalidArgument, match="actions must hold 3 actions .* got 2"):
        v.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(nestris.InvalidArgument, match="action 12 of game 1 is out of range"):
        v.step(np.array([0, 12, 0], dtype=np.int64))
    with pytest.raises(nestris.InvalidArgument, match="seed must be one int or 3 ints, got 2 ints"):
        v.reset(seed=[1, 2])
    with pytest.raises(nestris.InvalidArgument, match="game index"):
        v.game(3)
    with pytest.raises(nestris.InvalidArgument, match="num_threads"):
        nestris.VecEnv(2, num_threads=0)


def test_evaluate_errors() -> None:
    with pytest.raises(nestris.InvalidArgument, match='must be a callable, "random" or "idle"'):
        nestris.evaluate("smart", games=1)
    with pytest.raises(nestris.InvalidArgument, match="policy must be a callable"):
        nestris.evaluate(42, games=1)  # type: ignore[arg-type]
    with pytest.raises(nestris.InvalidArgument, match="games must be a positive int"):
        nestris.evaluate("idle", games=0)
    with pytest.raises(nestris.InvalidArgument, match='backend must be "local" or "ray"'):
        nestris.evaluate("idle", games=1, backend="dask")
    with pytest.raises(nestris.InvalidArgument, match="start_level must be from 0 to 255"):
        nestris.evaluate("idle", games=1, level=1000)
    with pytest.raises(nestris.InvalidArgument, match="max_steps"):
        nestris.evaluate("idle", games=1, max_steps=0)


@pytest.mark.parametrize(
    "bad, game, shown",
    [
        ([0, 1.9, 0], 1, "1.9"),
        (np.array([1.0, 2.0, 3.0]), 0, "1.0"),
        (["5", "5", "5"], 0, "'5'"),
        ([0, 0, float("nan")], 2, "nan"),
        (np.array([True, False, True]), 0, "True"),
        ([0, None, 0], 1, "None"),
    ],
)
def test_one_action_rule_for_every_env(bad: object, game: int, shown: str) -> None:
    """Ints only, for the single and the vector envs alike: never rounded or parsed."""
    import re

    for make in (
        lambda: nestris.VecEnv(3),
        lambda: nestris.VecPlacementEnv(3, start_level=18),
        lambda: gymnasium.make_vec("nestris/NES-Tetris-v0", num_envs=3, vectorization_mode="vector_entry_point"),
    ):
        v = make()
        v.reset(seed=0)
        with pytest.raises(TypeError, match=f"actions must be ints: game {game} has {re.escape(shown)}"):
            v.step(bad)
    single = (nestris.NesTetrisEnv(), nestris.NesTetrisPlacementEnv(start_level=18))
    for env in single:
        env.reset(seed=0)
        value = bad[game] if isinstance(bad, list) else bad[game].item()
        with pytest.raises(TypeError, match="action must be an int"):
            env.step(value)
    # Integers of any width pass, and a range error names the game.
    v = nestris.VecEnv(3)
    v.reset(seed=0)
    for ok in ([1, 2, 3], np.array([1, 2, 3], dtype=np.int32), np.array([1, 2, 3], dtype=np.uint64)):
        v.step(ok)
    with pytest.raises(nestris.InvalidArgument, match="action 18446744073709551615 of game 1 is out of range"):
        v.step(np.array([0, 2**64 - 1, 0], dtype=np.uint64))
    with pytest.raises(nestris.InvalidArgument, match="action -1 of game 2 is out of range"):
        v.step([0, 0, -1])
    with pytest.raises(nestris.InvalidArgument, match="1-dimensional"):
        v.step(np.zeros((3, 1), dtype=np.int64))
    env = nestris.NesTetrisEnv()
    env.reset(seed=0)
    env.step(np.int16(3))
