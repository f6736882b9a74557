"""Throughput of the Python bindings (not a test): steps per second on one core.

Run after installing the package (``pip install ./crates/py``)::

    python crates/py/bench.py            # about 20 seconds
    python crates/py/bench.py --quick    # about 5 seconds

Prints steps/s for ``Game.step`` called from Python, the frame-level environment
(unwrapped and through ``gymnasium.make``), ``VecEnv(64)`` (environment steps: 64 per
call) and the Gymnasium vector env around it. Targets: a single environment at
200,000 steps/s or more, ``VecEnv(64)`` at 1,000,000 or more. Games that top out are
reset (environments) or restarted (``Game``), so the figures include resets.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import gymnasium
import numpy as np

import nestris

TARGET_SINGLE = 200_000
TARGET_VEC = 1_000_000


def pin_to_one_core() -> str:
    """Runs this process on one CPU, so the figures are per core."""
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity)"


def measure(run: Callable[[int], int], seconds: float) -> float:
    """Steps per second of ``run(k)`` (which does some steps and returns how many),
    best of three rounds of about ``seconds / 3`` each."""
    run(1000)  # warm up
    best = 0.0
    for _ in range(3):
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds / 3
        while time.perf_counter() < deadline:
            steps += run(20_000)
        best = max(best, steps / (time.perf_counter() - start))
    return best


def bench_game(seconds: float) -> float:
    rng = np.random.default_rng(0)
    inputs = [int(a) for a in rng.choice(np.array(nestris.ACTIONS), size=20_000)]
    game = nestris.Game(level=9, seed=1)

    def run(k: int) -> int:
        nonlocal game
        step = game.step
        for b in inputs[:k]:
            if step(b).topped_out:
                game = nestris.Game(level=9, seed=1)
                step = game.step
        return k

    return measure(run, seconds)


def bench_env(env: gymnasium.Env, seconds: float) -> float:
    rng = np.random.default_rng(0)
    actions = [int(a) for a in rng.integers(0, 12, size=20_000)]
    env.reset(seed=0)

    def run(k: int) -> int:
        step = env.step
        for a in actions[:k]:
            _, _, terminated, truncated, _ = step(a)
            if terminated or truncated:
                env.reset()
        return k

    return measure(run, seconds)


def bench_vec(n: int, seconds: float, gym_wrapper: bool) -> float:
    rng = np.random.default_rng(0)
    batches = [rng.integers(0, 12, size=n, dtype=np.int64) for _ in range(64)]
    if gym_wrapper:
        env = nestris.NesTetrisVectorEnv(n, start_level=9)
    else:
        env = nestris.VecEnv(n, start_level=9)
    env.reset(seed=0)

    def run(k: int) -> int:
        step = env.step
        calls = max(1, k // n)
        for i in range(calls):
            step(batches[i & 63])
        return calls * n

    return measure(run, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter rounds")
    args = parser.parse_args()
    seconds = 1.5 if args.quick else 5.0
    print(f"nestris {nestris.__version__}; {pin_to_one_core()}")
    rows = [
        ("Game.step from Python", bench_game(seconds), None),
        (
            "NesTetrisEnv.step (unwrapped)",
            bench_env(nestris.NesTetrisEnv(start_level=9), seconds),
            TARGET_SINGLE,
        ),
        (
            'gymnasium.make("nestris/NES-Tetris-v0").step',
            bench_env(gymnasium.make("nestris/NES-Tetris-v0", start_level=9), seconds),
            None,
        ),
        ("VecEnv(64).step, per env step", bench_vec(64, seconds, False), TARGET_VEC),
        ("NesTetrisVectorEnv(64).step (copy=True)", bench_vec(64, seconds, True), None),
    ]
    width = max(len(name) for name, _, _ in rows)
    for name, rate, target in rows:
        note = ""
        if target is not None:
            note = f"  (target {target:,}: {'met' if rate >= target else 'NOT met'})"
        print(f"{name:<{width}}  {rate:>12,.0f} steps/s{note}")


if __name__ == "__main__":
    main()
