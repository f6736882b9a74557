"""Evaluating a policy over many games, on this machine or on a Ray cluster.

:func:`evaluate` plays ``games`` games -- game k from seed ``seed + k`` -- with a
policy and returns a summary. The policy is ``"random"`` (a uniformly random action
every step, from a generator seeded by the game's seed), ``"idle"`` (no buttons), both
run entirely in Rust, or any Python callable ``policy(observation) -> action`` taking
the observation of ``nestris/NES-Tetris-v0`` (see :mod:`nestris.env`).

With ``env="placement"`` the games are those of ``nestris/NES-Tetris-Placement-v0``
(one step per placement): the policy is a :class:`nestris.Ai` (the games then use its
input model; played entirely in Rust), ``"random"`` (a uniformly random available
placement), an object with ``choose(env) -> action`` (given the placement
environment), or a callable ``policy(observation) -> action`` taking that
environment's observation (with ``action_mask`` and ``placements``). ``env`` defaults
to ``"placement"`` for an :class:`nestris.Ai` and anything with ``choose``, else
``"frame"``.

Games are independent and deterministic, so the summary depends only on the policy,
the seeds and the options: ``backend="ray"`` (games split over ``ray.remote`` tasks)
returns exactly what ``backend="local"`` does.

>>> import nestris
>>> result = nestris.evaluate("idle", games=2, level=18, seed=1)
>>> result["games"], [g["seed"] for g in result["per_game"]]
(2, [1, 2])
>>> result["mean_score"], result["mean_lines"]
(0.0, 0.0)
>>> ai = nestris.evaluate(nestris.Ai(), games=2, level=9, max_steps=100)
>>> ai["mean_lines"] > 0, ai["per_game"][0]["steps"]
(True, 100)
"""

from __future__ import annotations

import math
from typing import Any
from collections.abc import Callable, Sequence

from . import _nestris
from ._nestris import Ai, FrameEnv, InvalidArgument, PlacementEnv

#: Steps after which a game is stopped when ``max_steps`` is not given.
DEFAULT_MAX_STEPS = 100_000

Policy = Callable[[Any], int] | str | Ai

#: The placement environment's input model options (None: the Ai's, else the default).
_MODEL_DEFAULTS = {"taps": "X.", "reaction": 0, "das": False, "soft_drop": False}


def play_games(
    policy: Policy,
    seeds: Sequence[int],
    options: dict[str, Any],
    max_steps: int,
    env: str = "frame",
) -> list[dict[str, Any]]:
    """Plays one game per seed and returns one result dict per game: ``seed``,
    ``score``, ``lines``, ``level``, ``steps``, ``frames``, ``total_reward`` and
    ``terminated`` (False when ``max_steps`` stopped the game). ``options`` are those of
    the environment ``env`` (``"frame"`` or ``"placement"``). This is what each Ray
    task runs."""
    if env == "placement":
        return _play_placement_games(policy, seeds, options, max_steps)
    if isinstance(policy, str):
        env_options = {k: v for k, v in options.items() if k != "observation"}
        return _nestris.play_builtin(policy, list(seeds), max_steps=max_steps, **env_options)
    results = []
    env = FrameEnv(**options)
    for seed in seeds:
        obs, _ = env.reset(seed)
        total = 0.0
        terminated = False
        steps = 0
        while not terminated and steps < max_steps:
            obs, reward, terminated, _ = env.step(policy(obs))
            total += reward
            steps += 1
        results.append(
            {
                "seed": seed,
                "score": env.score,
                "lines": env.lines,
                "level": env.game.level,
                "steps": env.episode_steps,
                "frames": env.episode_frames,
                "total_reward": total,
                "terminated": env.ended,
            }
        )
    return results


def _play_placement_games(
    policy: Policy,
    seeds: Sequence[int],
    options: dict[str, Any],
    max_steps: int,
) -> list[dict[str, Any]]:
    if isinstance(policy, (str, Ai)):
        rust_options = {k: v for k, v in options.items() if k != "observation"}
        return _nestris.play_placements(policy, list(seeds), max_steps=max_steps, **rust_options)
    choose = getattr(policy, "choose", None)
    results = []
    env = PlacementEnv(**options)
    for seed in seeds:
        obs, _ = env.reset(seed)
        total = 0.0
        terminated = env.ended
        steps = 0
        while not terminated and steps < max_steps:
            action = choose(env) if choose is not None else policy(obs)  # type: ignore[operator]
            obs, reward, terminated, _ = env.step(action)
            total += reward
            steps += 1
        results.append(
            {
                "seed": seed,
                "score": env.score,
                "lines": env.lines,
                "level": env.game.level,
                "steps": env.episode_steps,
                "frames": env.episode_frames,
                "total_reward": total,
                "terminated": env.ended,
            }
        )
    return results


def summarize(policy: Policy, per_game: list[dict[str, Any]]) -> dict[str, Any]:
    """The summary of per-game results (what :func:`evaluate` returns)."""
    n = len(per_game)
    scores = [g["score"] for g in per_game]
    lines = [g["lines"] for g in per_game]
    mean_score = sum(scores) / n
    return {
        "policy": policy if isinstance(policy, str) else getattr(policy, "__name__", repr(policy)),
        "games": n,
        "mean_score": mean_score,
        "std_score": math.sqrt(sum((s - mean_score) ** 2 for s in scores) / n),
        "max_score": max(scores),
        "min_score": min(scores),
        "mean_lines": sum(lines) / n,
        "max_lines": max(lines),
        "mean_frames": sum(g["frames"] for g in per_game) / n,
        "total_frames": sum(g["frames"] for g in per_game),
        "topped_out": sum(1 for g in per_game if g["terminated"]),
        "per_game": per_game,
    }


def _chunks(seeds: list[int], parts: int) -> list[list[int]]:
    size = max(1, math.ceil(len(seeds) / max(1, parts)))
    return [seeds[i : i + size] for i in range(0, len(seeds), size)]


def evaluate(
    policy: Policy = "random",
    games: int = 10,
    *,
    env: str | None = None,
    backend: str = "local",
    level: int | None = None,
    format: str = "cartridge",
    seed: int = 0,
    region: str = "ntsc",
    game_type: str = "A",
    height: int = 0,
    frame_skip: int = 1,
    actions: Sequence[int] | None = None,
    tap_hz: int | None = None,
    taps: str | None = None,
    reaction: int | None = None,
    das: bool | None = None,
    soft_drop: bool | None = None,
    reward: str = "score",
    observation: str = "board",
    max_steps: int | None = None,
    num_tasks: int | None = None,
    ray_init: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Plays ``games`` games (game k from seed ``seed + k``) with ``policy`` and returns
    a summary: ``games``, ``mean_score``, ``std_score``, ``max_score``, ``min_score``,
    ``mean_lines``, ``max_lines``, ``mean_frames``, ``total_frames``, ``topped_out``
    (games that ended by topping out) and ``per_game`` (one dict per game, in seed
    order; see :func:`play_games`).

    ``policy``: ``"random"``, ``"idle"`` or a callable ``policy(observation) -> action``;
    for ``env="placement"`` also a :class:`nestris.Ai` or an object with
    ``choose(env) -> action`` (``"idle"`` is frame-level only).
    ``env``: ``"frame"`` (``nestris/NES-Tetris-v0``) or ``"placement"``
    (``nestris/NES-Tetris-Placement-v0``); by default ``"placement"`` for a policy with
    ``choose`` (an :class:`nestris.Ai`), else ``"frame"``.
    ``backend``: ``"local"`` (this process) or ``"ray"`` (``num_tasks`` ``ray.remote``
    tasks, by default two per CPU of the cluster; Ray is started with ``ray.init(**ray_init)``
    if it is not running). A callable policy is sent to the Ray workers with
    cloudpickle: it must be importable there or picklable by value.
    ``max_steps`` (default 100,000) stops a game that has not ended.
    ``level`` is the start level (by default the format's, else 0); ``format``
    (``"cartridge"`` or ``"betatetris"``) the rules and pieces, as the environments take
    it. The other options are those of the environment: ``frame_skip`` and ``actions``
    for ``"frame"``, the input model ``tap_hz`` or ``taps`` (a tap pattern), ``reaction``,
    ``das``, ``soft_drop`` for ``"placement"`` (by default an :class:`nestris.Ai`'s own,
    else 30 Hz tapping with no reaction delay, DAS or soft drop; an :class:`nestris.Ai`
    must be given its own).
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidArgument(f"games must be a positive int, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64 - games:
        raise InvalidArgument(f"seed must be an int from 0 to 2**64-1-games, got {seed!r}")
    if env is None:
        env = "placement" if hasattr(policy, "choose") else "frame"
    if env not in ("frame", "placement"):
        raise InvalidArgument(f'env must be "frame" or "placement", got {env!r}')
    if isinstance(policy, str):
        if env == "frame" and policy not in ("random", "idle"):
            raise InvalidArgument(f'policy must be a callable, "random" or "idle", got {policy!r}')
        if env == "placement" and policy != "random":
            raise InvalidArgument(
                "policy must be a nestris.Ai, an object with choose(env), a callable or "
                f'"random" for env="placement", got {policy!r}'
            )
    elif isinstance(policy, Ai) and env != "placement":
        raise InvalidArgument('an Ai plays the placement environment: use env="placement"')
    elif not callable(policy) and not hasattr(policy, "choose"):
        raise InvalidArgument(
            f'policy must be a callable, "random" or "idle", got {type(policy).__name__}'
        )
    if max_steps is None:
        max_steps = DEFAULT_MAX_STEPS
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise InvalidArgument(f"max_steps must be a positive int, got {max_steps!r}")
    options: dict[str, Any] = {
        "start_level": level,
        "format": format,
        "region": region,
        "game_type": game_type,
        "height": height,
        "reward": reward,
        "observation": observation,
    }
    model = {
        "tap_hz": tap_hz,
        "taps": taps,
        "reaction": reaction,
        "das": das,
        "soft_drop": soft_drop,
    }
    if env == "frame":
        unused = [k for k, v in model.items() if v is not None]
        if unused:
            raise InvalidArgument(f'{", ".join(unused)}: options of env="placement" only')
        options["actions"] = list(actions) if actions is not None else None
        options["frame_skip"] = frame_skip
        # Checks every option here, with the extension's messages, before any game runs.
        FrameEnv(**options)
    else:
        if actions is not None or frame_skip != 1:
            raise InvalidArgument('actions and frame_skip are options of env="frame" only')
        own = policy.input_model if isinstance(policy, Ai) else _MODEL_DEFAULTS
        if tap_hz is not None or taps is not None:
            # One spelling of the hands' taps: the pattern, as the engine writes it.
            model["taps"] = PlacementEnv(tap_hz=tap_hz, taps=taps).input_model["taps"]
            shown = f"tap_hz={tap_hz!r}" if tap_hz is not None else f"taps={taps!r}"
            if isinstance(policy, Ai) and model["taps"] != own["taps"]:
                raise InvalidArgument(
                    f"{shown} differs from the Ai's taps {own['taps']!r}: the games are "
                    "played with the Ai's input model"
                )
        del model["tap_hz"]
        for key, value in model.items():
            if value is None:
                options[key] = own[key]
            elif isinstance(policy, Ai) and value != own[key]:
                raise InvalidArgument(
                    f"{key}={value!r} differs from the Ai's {own[key]!r}: the games are "
                    "played with the Ai's input model"
                )
            else:
                options[key] = value
        PlacementEnv(**options)
    seeds = [seed + k for k in range(games)]
    if backend == "local":
        per_game = play_games(policy, seeds, options, max_steps, env)
    elif backend == "ray":
        per_game = _evaluate_ray(policy, seeds, options, max_steps, num_tasks, ray_init, env)
    else:
        raise InvalidArgument(f'backend must be "local" or "ray", got {backend!r}')
    return summarize(policy, per_game)


def _evaluate_ray(
    policy: Policy,
    seeds: list[int],
    options: dict[str, Any],
    max_steps: int,
    num_tasks: int | None,
    ray_init: dict[str, Any] | None,
    env: str = "frame",
) -> list[dict[str, Any]]:
    try:
        import ray
    except ImportError as e:
        raise ImportError(
            'backend="ray" needs the ray package, which is not installed: '
            "pip install ray (or pip install 'nestris[ray]')"
        ) from e
    if not ray.is_initialized():
        ray.init(**(ray_init or {}))
    if num_tasks is None:
        resources = ray.available_resources()  # type: ignore[no-untyped-call,unused-ignore]
        cpus = int(resources.get("CPU", 1) or 1)
        num_tasks = 2 * max(1, cpus)
    if isinstance(num_tasks, bool) or not isinstance(num_tasks, int) or num_tasks < 1:
        raise InvalidArgument(f"num_tasks must be a positive int, got {num_tasks!r}")
    task = ray.remote(play_games)
    refs = [
        task.remote(policy, chunk, options, max_steps, env) for chunk in _chunks(seeds, num_tasks)
    ]
    return [game for chunk in ray.get(refs) for game in chunk]
