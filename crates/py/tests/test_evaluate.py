"""nestris.evaluate: built-in and Python policies, locally and on Ray (same results)."""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

import nestris
from nestris.evaluate import play_games


def drift_left(observation: dict[str, Any]) -> int:
    """A deterministic Python policy: move left, rotate on the way, drop at the wall."""
    if observation["x"] > 0:
        return 6 if observation["fall_timer"] % 7 == 0 else 1
    return 3


def test_local_builtin_policies() -> None:
    idle = nestris.evaluate("idle", games=3, level=18, seed=10)
    assert idle["games"] == 3 and len(idle["per_game"]) == 3
    assert [g["seed"] for g in idle["per_game"]] == [10, 11, 12]
    assert idle["topped_out"] == 3 and idle["mean_score"] == 0.0
    rand = nestris.evaluate("random", games=4, level=9, seed=0)
    assert rand == nestris.evaluate("random", games=4, level=9, seed=0)
    assert rand["total_frames"] == sum(g["frames"] for g in rand["per_game"])
    assert set(rand) >= {"mean_score", "mean_lines", "max_score", "per_game", "std_score"}


def test_python_policy_matches_the_environment() -> None:
    result = nestris.evaluate(drift_left, games=2, level=15, seed=3, reward="score")
    assert result["policy"] == "drift_left"
    for g in result["per_game"]:
        env = nestris.NesTetrisEnv(start_level=15)
        obs, _ = env.reset(seed=g["seed"])
        total, steps, done = 0.0, 0, False
        while not done:
            obs, r, done, _, info = env.step(drift_left(obs))
            total += r
            steps += 1
        assert (g["score"], g["lines"], g["steps"], g["total_reward"]) == (
            info["score"],
            info["lines"],
            steps,
            total,
        )


def test_builtin_idle_equals_python_idle() -> None:
    rust = play_games("idle", [1, 2], {"start_level": 12}, 10_000)
    python = play_games(lambda obs: 0, [1, 2], {"start_level": 12}, 10_000)
    assert rust == python


def test_max_steps_stops_games() -> None:
    result = nestris.evaluate("idle", games=2, level=0, max_steps=50)
    assert all(g["steps"] == 50 and not g["terminated"] for g in result["per_game"])
    assert result["topped_out"] == 0


def test_ray_missing_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match="pip install ray"):
        nestris.evaluate("idle", games=1, backend="ray")


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip(
        "ray", reason="Ray is not installed here (pip install ray); the Ray backend test is skipped"
    )
    # Send this module's policy to the workers by value: they cannot import test files.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no network here
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_equals_local(ray_cluster: Any) -> None:
    cases: tuple[tuple[Any, dict[str, Any]], ...] = (
        ("random", {"level": 9}),
        (drift_left, {"level": 18, "frame_skip": 2}),
        (nestris.Ai(), {"level": 9, "max_steps": 40}),
        ("random", {"level": 12, "env": "placement", "tap_hz": 15}),
    )
    for policy, kwargs in cases:
        local = nestris.evaluate(policy, games=6, seed=20, backend="local", **kwargs)
        remote = nestris.evaluate(policy, games=6, seed=20, backend="ray", num_tasks=3, **kwargs)
        assert remote == local
    # The default split (two tasks per CPU) too.
    assert nestris.evaluate("idle", games=5, backend="ray", level=19) == nestris.evaluate(
        "idle", games=5, level=19
    )
