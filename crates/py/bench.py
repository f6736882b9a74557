"""Throughput of the Python bindings (not a test): steps per second on one core.

Run after installing the package (``pip install ./crates/py``)::

    python crates/py/bench.py            # about 20 seconds
    python crates/py/bench.py --quick    # about 5 seconds

First the frame-level Python boundary, each figure against an anchor measured in the
same run (rounds interleaved, best round of each kept, so that a busy machine's drift
touches all alike):

* the native anchor, ``VecEnv._native_anchor``: ``Game::step`` alone and the same
  vector step done in Rust without Python (``nestris_env::frame::native_anchor``: the
  games of ``VecEnv(n)``'s configuration, random actions, the observation writes), in
  ns per game step;
* ``VecEnv(256)`` and ``VecEnv(64)`` in ns per env step and as a ratio to both
  anchors (target: at most 2x the engine's own cost, the native vector step);
* the Gymnasium vector wrapper ``NesTetrisVectorEnv`` (``copy=True``, the default, and
  ``copy=False``) as its overhead over the bare ``VecEnv`` (target: at most 20%);
* the single environment ``NesTetrisEnv.step`` (unwrapped) in µs per step (target:
  at most 1 µs), ``gymnasium.make``'s (with its checker wrappers) and ``Game.step``
  called from Python.

Games that top out are reset (environments) or restarted (``Game``), so the figures
include resets. ``--frame-only`` stops there.

Then the placement-level environment (one step = one placement, random available
placements): ``NesTetrisPlacementEnv`` and ``VecPlacementEnv(64)`` at levels 9 and 18
(target 400,000 steps/s per core, masks and observations included), and ``nestris.Ai``
decisions. A placement step is the engine's frames of the placement and of the entry
delay, and the move generator of ``nestris-ai`` (all placements of the next piece).
``--placement-only`` runs only these; ``--threads N`` instead times
``VecPlacementEnv(64, num_threads=N)`` without pinning (N cores).

``--anchor PYTHON`` also times the placement figures with another interpreter's
``nestris`` (e.g. a virtualenv with the previous build installed), alternating with this
one on the same core, and prints each ratio: the machine is shared and noisy, so a
figure is compared only with one measured in the same run.

``python crates/py/bench.py --survey`` instead plays random placement games over
levels 0-19, every tap rate, with and without DAS and soft drop (about 3,600 games,
about 15 minutes, most of it at level 0) and prints the most placements any piece had:
the measurement behind ``nestris.MAX_PLACEMENTS`` (72 when it was set to 200).
"""

from __future__ import annotations

import argparse
import itertools
import os
import subprocess
import time
from collections.abc import Callable

# numpy's BLAS threads would otherwise wait spinning on the cores being measured (the
# benchmark does no linear algebra); set before numpy is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import nestris  # noqa: E402

TARGET_PLACEMENT_VEC = 400_000
# The targets for the frame-level Python boundary.
TARGET_VEC_RATIO = 2.0  # VecEnv(>= 256) against the native vector step
TARGET_WRAPPER = 0.20  # the Gymnasium vector wrapper's overhead over VecEnv
TARGET_SINGLE_US = 1.0  # NesTetrisEnv.step


def cpu_name() -> str:
    """The CPU's model name and family (``/proc/cpuinfo``), to name beside the figures."""
    try:
        with open("/proc/cpuinfo") as f:
            fields = dict(
                (k.strip(), v.strip()) for k, _, v in (line.partition(":") for line in f) if v
            )
        return f"{fields.get('model name', '?')} (family {fields.get('cpu family', '?')})"
    except OSError:
        return "CPU unknown"


def pin_to_one_core() -> str:
    """Runs this process on one CPU, so the figures are per core."""
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity)"


def measure(run: Callable[[int], int], seconds: float, chunk: int = 20_000) -> float:
    """Steps per second of ``run(k)`` (which does some steps and returns how many),
    best of three rounds of about ``seconds / 3`` each."""
    run(min(1000, chunk))  # warm up
    best = 0.0
    for _ in range(3):
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds / 3
        while time.perf_counter() < deadline:
            steps += run(chunk)
        best = max(best, steps / (time.perf_counter() - start))
    return best


def ns_per_step(run: Callable[[], int]) -> float:
    """Nanoseconds per step of one ``run()`` (which returns how many steps it did)."""
    start = time.perf_counter_ns()
    steps = run()
    return (time.perf_counter_ns() - start) / steps


def vec_runner(env: object, n: int, seconds: float) -> Callable[[], int]:
    """A round of ``env.step`` calls (a VecEnv or the wrapper) of about ``seconds``."""
    rng = np.random.default_rng(0)
    batches = [rng.integers(0, 12, size=n, dtype=np.int64) for _ in range(64)]
    env.reset(seed=0)  # type: ignore[attr-defined]
    step = env.step  # type: ignore[attr-defined]
    calls = max(8, int(seconds * 5e9 / 150 / n) // 5)  # about 150 ns a step, 5 rounds

    def run() -> int:
        # Each step's results are kept until the next step returns, as a training loop
        # keeps its observation: with copy=True the wrapper may not write them again.
        last = None
        for i in range(calls):
            last = step(batches[i & 63])
        del last
        return calls * n

    return run


def single_runner(env: object, count: int) -> Callable[[], int]:
    """A round of ``count`` single-environment steps, reset when a game ends."""
    actions = [int(a) for a in np.random.default_rng(0).integers(0, 12, size=count)]
    env.reset(seed=0)  # type: ignore[attr-defined]

    def run() -> int:
        step = env.step  # type: ignore[attr-defined]
        for a in actions:
            _, _, terminated, truncated, _ = step(a)
            if terminated or truncated:
                env.reset()  # type: ignore[attr-defined]
        return count

    return run


def game_runner(count: int) -> Callable[[], int]:
    """A round of ``count`` ``Game.step`` calls from Python, restarted at top-out."""
    inputs = [int(a) for a in np.random.default_rng(0).choice(np.array(nestris.ACTIONS), count)]
    box = [nestris.Game(level=9, seed=1)]

    def run() -> int:
        step = box[0].step
        for b in inputs:
            if step(b).topped_out:
                box[0] = nestris.Game(level=9, seed=1)
                step = box[0].step
        return count

    return run


def frame_boundary(seconds: float, rounds: int = 5) -> None:
    """The frame-level Python boundary against its anchors (see the module doc)."""
    per_round = seconds / rounds
    best: dict[str, float] = {}

    def keep(name: str, ns: float) -> None:
        best[name] = min(best.get(name, float("inf")), ns)

    single_count = max(2000, int(per_round * 1e6 / 3))  # about 1 µs a step
    runners: dict[str, Callable[[], int]] = {}
    anchors: dict[int, object] = {}
    for n in (256, 64):
        raw = nestris.VecEnv(n, start_level=9)
        anchors[n] = raw
        runners[f"VecEnv({n})"] = vec_runner(raw, n, per_round)
        for copy in (True, False):
            wrapper = nestris.NesTetrisVectorEnv(n, start_level=9, copy=copy)
            runners[f"NesTetrisVectorEnv({n}, copy={copy})"] = vec_runner(wrapper, n, per_round)
    runners["NesTetrisEnv.step"] = single_runner(nestris.NesTetrisEnv(start_level=9), single_count)
    made = gymnasium.make("nestris/NES-Tetris-v0", start_level=9)
    runners["gymnasium.make(...).step"] = single_runner(made, single_count)
    runners["Game.step from Python"] = game_runner(single_count)
    for name, run in runners.items():
        run()  # warm up
    for _ in range(rounds):
        for n, raw in anchors.items():
            calls = max(4, int(per_round * 1e9 / 300 / n / 6))  # two loops, best of three
            game_ns, vector_ns = raw._native_anchor(calls)  # type: ignore[attr-defined]
            keep(f"native Game::step ({n} games)", game_ns)
            keep(f"native vector step ({n} games)", vector_ns)
        for name, run in runners.items():
            keep(name, ns_per_step(run))

    def line(name: str, note: str = "", label: str = "") -> None:
        print(f"  {label or name:<40} {best[name]:9.1f} ns{note}")

    print("frame level, ns per game step (best of rounds):")
    for n in (256, 64):
        game, native = best[f"native Game::step ({n} games)"], best[f"native vector step ({n} games)"]
        vec = best[f"VecEnv({n})"]
        line(f"native Game::step ({n} games)")
        line(f"native vector step ({n} games)")
        verdict = "met" if vec / native <= TARGET_VEC_RATIO else "NOT met"
        target = f" (target <= {TARGET_VEC_RATIO:g}x: {verdict})" if n >= 256 else ""
        line(
            f"VecEnv({n})",
            f"  = {vec / native:.2f}x the native vector step{target},"
            f" {vec / game:.2f}x Game::step",
            f"VecEnv({n}).step, per env step",
        )
        for copy in (True, False):
            name = f"NesTetrisVectorEnv({n}, copy={copy})"
            over = best[name] / vec - 1
            verdict = "met" if over <= TARGET_WRAPPER else "NOT met"
            line(name, f"  = VecEnv + {100 * over:.0f}% (target <= {100 * TARGET_WRAPPER:.0f}%: {verdict})")
    single = best["NesTetrisEnv.step"]
    verdict = "met" if single / 1000 <= TARGET_SINGLE_US else "NOT met"
    line(
        "NesTetrisEnv.step",
        f"  = {single / 1000:.2f} µs (target <= {TARGET_SINGLE_US:g} µs: {verdict}),"
        f" {single / best['Game.step from Python']:.1f}x Game.step from Python",
        "NesTetrisEnv.step (unwrapped)",
    )
    line("gymnasium.make(...).step")
    line("Game.step from Python")


def bench_placement_env(level: int, seconds: float) -> float:
    env = nestris.NesTetrisPlacementEnv(start_level=level)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)

    def run(k: int) -> int:
        nonlocal info
        step = env.step
        for _ in range(k):
            _, _, terminated, _, info = step(int(rng.integers(info["num_placements"])))
            if terminated:
                _, info = env.reset()
        return k

    return measure(run, seconds, chunk=200)


def bench_placement_vec(
    n: int, level: int, seconds: float, threads: int = 1, crash_mode: str = "cartridge"
) -> float:
    env = nestris.VecPlacementEnv(
        n, start_level=level, num_threads=threads, crash_mode=crash_mode
    )
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)

    def run(k: int) -> int:
        nonlocal info
        step = env.step
        calls = max(1, k // n)
        for _ in range(calls):
            # A random available placement per game (0 for a game about to reset).
            acts = (rng.random(n) * info["num_placements"]).astype(np.int64)
            _, _, _, _, info = step(acts)
        return calls * n

    return measure(run, seconds, chunk=10 * n)


def bench_ai(level: int, seconds: float) -> float:
    ai = nestris.Ai()
    env = nestris.NesTetrisPlacementEnv(start_level=level)
    env.reset(seed=0)

    def run(k: int) -> int:
        for _ in range(k):
            _, _, terminated, _, _ = env.step(ai.choose(env))
            if terminated:
                env.reset()
        return k

    return measure(run, seconds, chunk=20)


def survey() -> None:
    """The most placements any piece had over random placement games in many settings."""
    rng = np.random.default_rng(0)
    overall, total_games, positions = 0, 0, 0
    start = time.perf_counter()
    for level, hz, das, soft in itertools.product(
        (0, 5, 9, 13, 15, 18, 19), (30, 20, 15, 12), (False, True), (False, True)
    ):
        env = nestris.VecPlacementEnv(16, start_level=level, tap_hz=hz, das=das, soft_drop=soft)
        _, info = env.reset(seed=level * 1000 + hz)
        most, games, steps = int(info["num_placements"].max()), 0, 0
        while games < 32 and steps < 4000:
            acts = (rng.random(16) * info["num_placements"]).astype(np.int64)
            _, _, terminated, _, info = env.step(acts)
            games += int(terminated.sum())
            steps += 16
            most = max(most, int(info["num_placements"].max()))
        total_games += games
        positions += steps
        overall = max(overall, most)
        print(
            f"level {level:2} {hz} Hz das={das!s:5} soft_drop={soft!s:5}: most {most:3}"
            f" ({games} games; {time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    print(
        f"most placements of a piece: {overall} over {total_games} games, {positions} pieces"
        f" (MAX_PLACEMENTS = {nestris.MAX_PLACEMENTS})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter rounds")
    parser.add_argument(
        "--placement-only", action="store_true", help="only the placement-level figures"
    )
    parser.add_argument(
        "--survey", action="store_true", help="measure the most placements a piece has"
    )
    parser.add_argument(
        "--frame-only", action="store_true", help="only the frame-level figures"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=0,
        metavar="N",
        help="instead time VecPlacementEnv(64, num_threads=N) on N cores (not pinned)",
    )
    parser.add_argument(
        "--anchor",
        metavar="PYTHON",
        help="also time the placement figures with this Python's nestris and print ratios",
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        # A child of --anchor: one figure, as a bare number.
        pin_to_one_core()
        print(PLACEMENT_ROWS[args.one](args.seconds or 5.0))
        return
    if args.survey:
        survey()
        return
    seconds = 1.5 if args.quick else 5.0
    if args.threads:
        # Several cores: not pinned.
        print(f"nestris {nestris.__version__}; {args.threads} threads, not pinned")
        report(
            [
                (
                    f"VecPlacementEnv(64, num_threads={args.threads}), level {level}, per env step",
                    bench_placement_vec(64, level, seconds, args.threads),
                    None,
                )
                for level in (9, 18)
            ]
        )
        return
    print(f"nestris {nestris.__version__}; {pin_to_one_core()}; {cpu_name()}")
    if not args.placement_only:
        frame_boundary(2 * seconds)
        if args.frame_only:
            return
    if args.anchor:
        report_against(args.anchor, seconds)
        return
    rows = [(name, PLACEMENT_ROWS[name](seconds), target) for name, target in PLACEMENT_TARGETS]
    report(rows)


#: The placement figures by name, each timed by a function of the seconds to spend.
PLACEMENT_ROWS: dict[str, Callable[[float], float]] = {
    "NesTetrisPlacementEnv.step, level 9": lambda s: bench_placement_env(9, s),
    "NesTetrisPlacementEnv.step, level 18": lambda s: bench_placement_env(18, s),
    "VecPlacementEnv(64).step, level 9, per env step": lambda s: bench_placement_vec(64, 9, s),
    "VecPlacementEnv(64).step, level 18, per env step": lambda s: bench_placement_vec(64, 18, s),
    "VecPlacementEnv(64, crash_mode='off').step, level 18, per env step": lambda s: (
        bench_placement_vec(64, 18, s, crash_mode="off")
    ),
    "Ai.choose + step (decisions/s), level 18": lambda s: bench_ai(18, s),
}
PLACEMENT_TARGETS: list[tuple[str, int | None]] = [
    ("NesTetrisPlacementEnv.step, level 9", None),
    ("NesTetrisPlacementEnv.step, level 18", None),
    ("VecPlacementEnv(64).step, level 9, per env step", TARGET_PLACEMENT_VEC),
    ("VecPlacementEnv(64).step, level 18, per env step", TARGET_PLACEMENT_VEC),
    ("VecPlacementEnv(64, crash_mode='off').step, level 18, per env step", None),
    ("Ai.choose + step (decisions/s), level 18", None),
]


def report_against(anchor: str, seconds: float) -> None:
    """The placement figures of this ``nestris`` and of ``anchor``'s (another Python),
    alternating two rounds of each on the same core; the best of each and the ratio."""
    print(f"anchor: {anchor} (its nestris timed in a child process, alternating)")
    width = max(len(name) for name in PLACEMENT_ROWS)
    for name, target in PLACEMENT_TARGETS:
        ours, theirs = 0.0, 0.0
        for _ in range(2):
            out = subprocess.run(
                [anchor, os.path.abspath(__file__), "--one", name, "--seconds", str(seconds)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            theirs = max(theirs, float(out.strip().splitlines()[-1]))
            ours = max(ours, PLACEMENT_ROWS[name](seconds))
        note = ""
        if target is not None:
            note = f"  (target {target:,}: {'met' if ours >= target else 'NOT met'})"
        print(
            f"{name:<{width}}  {ours:>12,.0f} steps/s, anchor {theirs:>10,.0f}:"
            f" {ours / theirs:5.2f}x{note}",
            flush=True,
        )


def report(rows: list[tuple[str, float, int | None]]) -> None:
    """Prints one line per measurement, with its target when it has one."""
    width = max(len(name) for name, _, _ in rows)
    for name, rate, target in rows:
        note = ""
        if target is not None:
            note = f"  (target {target:,}: {'met' if rate >= target else 'NOT met'})"
        print(f"{name:<{width}}  {rate:>12,.0f} steps/s{note}")


if __name__ == "__main__":
    main()
