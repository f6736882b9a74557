"""Crash modes from Python: the keyword on ``Game`` and the environments, the ``lag`` and
``crashed`` entries of ``info``, and the mode carried through a pickle. (A crash itself
needs a capped score frame at level ~159 with the music off or the cartridge's music: the
engine's Rust tests cover it, `crates/core/tests/crash.rs`.)"""

from __future__ import annotations

import pickle

import gymnasium
import pytest

import nestris
from nestris import Event

MODES = ["cartridge", "show", "topout", "off"]


def test_the_crash_events_are_the_engines() -> None:
    assert Event.LAG == 1 << 24
    assert Event.DISPATCH_BROKEN == 1 << 25
    assert Event.CRASHED == 1 << 26
    assert nestris.Events(int(Event.CRASHED)).names() == ["CRASHED"]


@pytest.mark.parametrize("mode", MODES)
def test_a_game_keeps_its_crash_mode_through_a_pickle(mode: str) -> None:
    g = nestris.Game(level=18, seed=4, crash_mode=mode)
    assert g.crash_mode == mode
    assert g.crashed is None
    for _ in range(200):
        g.step(0)
    copy = pickle.loads(pickle.dumps(g))
    assert copy.crash_mode == mode
    assert copy.state_hash() == g.state_hash()


def test_the_default_is_the_cartridges_and_a_bad_mode_is_refused() -> None:
    assert nestris.Game().crash_mode == "cartridge"
    with pytest.raises(nestris.InvalidArgument, match="crash_mode must be"):
        nestris.Game(crash_mode="sometimes")
    with pytest.raises(nestris.InvalidArgument, match="crash_mode must be"):
        gymnasium.make("nestris/NES-Tetris-v0", crash_mode="Cartridge").reset(seed=1)
    with pytest.raises(nestris.InvalidArgument, match="crash_mode must be"):
        nestris.PlacementEnv(crash_mode="never")


@pytest.mark.parametrize("mode", MODES)
def test_frame_env_info_reports_lag_and_crash(mode: str) -> None:
    env = gymnasium.make("nestris/NES-Tetris-v0", start_level=18, crash_mode=mode)
    env.reset(seed=2)
    assert env.unwrapped.game.crash_mode == mode
    total_lag = 0
    for _ in range(300):
        _, _, terminated, truncated, info = env.step(0)
        assert isinstance(info["lag"], int)
        assert info["crashed"] is False
        total_lag += info["lag"]
        if terminated or truncated:
            break
    # Level 18 never comes near the CPU's budget.
    assert total_lag == 0


@pytest.mark.parametrize("mode", MODES)
def test_placement_env_info_reports_lag_and_crash(mode: str) -> None:
    env = gymnasium.make("nestris/NES-Tetris-Placement-v0", start_level=18, crash_mode=mode)
    _, info = env.reset(seed=5)
    for _ in range(5):
        _, _, terminated, _, info = env.step(int(info["action_mask"].argmax()))
        assert info["lag"] == 0
        assert info["crashed"] is False
        if terminated:
            break
