"""Crash modes from Python: the keyword on ``Game`` and the environments, the ``lag`` and
``crashed`` entries of ``info``, and the mode carried through a pickle. (A crash itself
needs a capped score frame at level ~159 with the music off or the cartridge's music: the
engine's Rust tests cover it, `crates/core/tests/crash.rs`.)"""

from __future__ import annotations

import pickle
import subprocess
import sys

import gymnasium
import numpy as np
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


def test_games_and_environments_default_to_the_music_off() -> None:
    # Music off needs no ROM: the sub-frame timing stays known, lag frames and crashes are
    # modelled.
    assert nestris.Game(level=18).state.music_type == 3
    env = gymnasium.make("nestris/NES-Tetris-v0", start_level=18)
    env.reset(seed=1)
    assert env.unwrapped.game.state.music_type == 3
    penv = nestris.NesTetrisPlacementEnv(start_level=18)
    penv.reset(seed=1)
    assert penv.game.state.music_type == 3
    vec = nestris.NesTetrisVectorEnv(2, start_level=18)
    vec.reset(seed=1)
    assert vec.raw.game(1).state.music_type == 3
    assert nestris.Game(level=18, music_type=3).state.music_type == 3
    with pytest.raises(nestris.InvalidArgument, match="music_type must be"):
        nestris.Game(music_type=4)


def test_music_on_warns_once_that_lag_and_crashes_are_not_modelled() -> None:
    # In a fresh interpreter: the warning is given once per process.
    code = (
        "import warnings, nestris\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    nestris.Game(level=18)\n"
        "    assert not w, w\n"
        "    nestris.Game(level=18, music_type=0)\n"
        "    nestris.VecEnv(2, music_type=1)\n"
        "    nestris.NesTetrisPlacementEnv(music_type=2)\n"
        "assert len(w) == 1, [str(x.message) for x in w]\n"
        "assert issubclass(w[0].category, UserWarning)\n"
        "assert 'not modelled' in str(w[0].message), w[0].message\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd="/")


@pytest.mark.parametrize("mode", MODES)
def test_vector_envs_take_a_crash_mode_and_report_lag_and_crashes(mode: str) -> None:
    envs = nestris.NesTetrisVectorEnv(3, start_level=18, crash_mode=mode)
    _, info = envs.reset(seed=1)
    assert info["lag"].dtype == np.uint32 and info["lag"].shape == (3,)
    assert info["crashed"].dtype == np.bool_ and not info["crashed"].any()
    assert all(envs.raw.game(i).crash_mode == mode for i in range(3))
    for _ in range(50):
        _, _, _, _, info = envs.step(np.zeros(3, dtype=np.int64))
        assert (info["lag"] == 0).all() and not info["crashed"].any()
    penvs = nestris.NesTetrisPlacementVectorEnv(2, start_level=18, crash_mode=mode)
    _, info = penvs.reset(seed=1)
    assert penvs.raw.game(0).crash_mode == mode
    _, _, _, _, info = penvs.step(np.zeros(2, dtype=np.int64))
    assert info["lag"].shape == (2,) and not info["crashed"].any()
    with pytest.raises(nestris.InvalidArgument, match="crash_mode must be"):
        nestris.VecEnv(2, crash_mode="later")
    with pytest.raises(nestris.InvalidArgument, match="crash_mode must be"):
        nestris.VecPlacementEnv(2, crash_mode="later")


def test_the_ai_takes_crash_dodge_and_plays_the_same_where_nothing_crashes() -> None:
    # Level 18 never comes near the CPU's budget: the dodge changes nothing there.
    plans = []
    for dodge in (True, False):
        ai = nestris.Ai(crash_dodge=dodge)
        g = nestris.Game(level=18, seed=5)
        out = []
        for _ in range(20):
            buttons = ai.plan(g)
            out.append(buttons)
            g.run(buttons)
            while g.play_state != 1 and g.play_state != 10:
                g.step(0)
        plans.append(out)
    assert plans[0] == plans[1] and any(plans[0])
