"""The placement-level environment: check_env, determinism, placements landing where
they say, VecPlacementEnv against single environments, bad actions, the AI policy."""

from __future__ import annotations

import pickle
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import nestris
from nestris.env import _CELLS

ENV_ID = "nestris/NES-Tetris-Placement-v0"
MAX = nestris.MAX_PLACEMENTS


def random_action(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniformly random action allowed by ``mask``."""
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"start_level": 18, "reward": "lines"},
        {"observation": "pixels", "render_mode": "rgb_array"},
        {"render_mode": "ansi", "reward": "survival", "region": "pal", "start_level": 9},
        {"game_type": "B", "height": 3, "start_level": 5},
        {"tap_hz": 12, "start_level": 19},
        {"tap_hz": 15, "das": True, "soft_drop": True, "reaction": 10, "start_level": 12},
    ],
)
def test_check_env(kwargs: dict) -> None:
    env = gymnasium.make(ENV_ID, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_registered_with_its_vector_entry_point() -> None:
    assert ENV_ID in gymnasium.registry
    spec = gymnasium.registry[ENV_ID]
    assert spec.vector_entry_point == "nestris.vec:NesTetrisPlacementVectorEnv"


def test_spaces_and_observation() -> None:
    env = nestris.NesTetrisPlacementEnv(start_level=18)
    assert env.action_space == gymnasium.spaces.Discrete(MAX)
    assert list(env.observation_space.keys()) == [
        "board",
        *nestris.FEATURE_NAMES,
        "action_mask",
        "placements",
    ]
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    n = info["num_placements"]
    assert 0 < n <= MAX
    assert info["placements"].dtype == np.uint8 and info["placements"].shape == (MAX, 3)
    np.testing.assert_array_equal(env.placements, info["placements"][:n])
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (MAX,)
    assert list(info["action_mask"]) == [1] * n + [0] * (MAX - n)
    np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
    np.testing.assert_array_equal(obs["placements"], info["placements"])
    assert obs["placements"] is not info["placements"]
    assert not obs["placements"][n:].any()
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))
    # Ordered by orientation, then column, then row; no position twice.
    rows = [tuple(r) for r in info["placements"][:n]]
    assert rows == sorted(rows) and len(set(rows)) == n
    # The piece is under control, at its spawn position.
    assert obs["play_state"] == 1 and (obs["x"], obs["y"]) == (5, 0)
    assert {r[0] for r in rows} <= {obs["piece"], *range(19)}
    # The action space samples among the available placements.
    env.action_space.seed(0)
    assert all(env.action_space.sample() < n for _ in range(50))
    assert env.observation_space["placements"].contains(obs["placements"])


def rollout(env: gymnasium.Env, seed: int, steps: int, action_seed: int) -> list:
    rng = np.random.default_rng(action_seed)
    obs, info = env.reset(seed=seed)
    out = [(obs["board"].copy(), info["placements"].copy(), info["score"])]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(random_action(rng, info["action_mask"]))
        out.append(
            (
                obs["board"].copy(),
                info["placements"].copy(),
                reward,
                terminated,
                info["frames"],
                info["events"],
            )
        )
        if terminated or truncated:
            break
    return out


def assert_same(a: list, b: list) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        for u, v in zip(x, y, strict=True):
            if isinstance(u, np.ndarray):
                np.testing.assert_array_equal(u, v)
            else:
                assert u == v


def test_deterministic() -> None:
    kwargs = {"start_level": 15, "tap_hz": 20, "das": True}
    a = rollout(gymnasium.make(ENV_ID, **kwargs), 42, 60, 1)
    env = gymnasium.make(ENV_ID, **kwargs)
    assert_same(rollout(env, 42, 60, 1), a)
    assert_same(rollout(env, 42, 60, 1), a)  # the same env again
    assert len(a) > 10
    # Another seed is another game.
    other = rollout(env, 43, 60, 1)
    assert not all(np.array_equal(x[1], y[1]) for x, y in zip(a, other, strict=False))
    # The reset game is Game(seed=...) run to its first piece.
    env.reset(seed=42)
    g = nestris.Game(level=15, seed=42)
    assert g.play_state == 1 and env.unwrapped.game == g


def place(board: np.ndarray, o: int, x: int, y: int) -> tuple[np.ndarray, int]:
    """``board`` (bool) with piece ``o`` locked at (``x``, ``y``) and full rows cleared,
    and the number of rows cleared. A cell above the field (a piece locked at row 0
    with a block on row -1) is not kept, as on the cartridge."""
    b = board.copy()
    for dr, dc in _CELLS[o]:
        r, c = y + dr, x + dc
        assert r < 20 and 0 <= c < 10, "the placement is off the field"
        if r >= 0:
            assert not b[r, c], "the placement overlaps"
            b[r, c] = True
    full = b.all(axis=1)
    kept = b[~full]
    cleared = int(full.sum())
    return np.vstack([np.zeros((cleared, 10), dtype=bool), kept]), cleared


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start_level": 9},
        {"start_level": 18, "tap_hz": 12},
        {"start_level": 5, "das": True, "soft_drop": True, "tap_hz": 15},
        {"start_level": 13, "reaction": 18, "region": "pal"},
        {"start_level": 19, "game_type": "B", "height": 4},
    ],
)
def test_placements_land_where_they_say(kwargs: dict) -> None:
    env = nestris.NesTetrisPlacementEnv(**kwargs)
    core = env.core
    rng = np.random.default_rng(7)
    checked = cleared_total = 0
    for seed in range(10):
        if checked >= 60:
            break
        obs, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            board = obs["board"] != 0
            a = random_action(rng, info["action_mask"])
            o, x, y = (int(v) for v in info["placements"][a])
            # The buttons, replayed on a copy of the game, land the piece there.
            game = core.game
            inputs = core.placement_inputs(a)
            frames, tops_out = core.placement_info(a)
            assert len(inputs) == frames
            game.run(inputs)
            assert (game.play_state, game.piece, game.x, game.y) == (2, o, x, y)
            obs, reward, terminated, _, info = env.step(a)
            assert info["events"] & (nestris.Event.LOCKED | nestris.Event.TOPPED_OUT)
            if terminated:
                assert tops_out or info["events"] & (
                    nestris.Event.TOPPED_OUT | nestris.Event.B_TYPE_WON
                )
                break
            expected, cleared = place(board, o, x, y)
            np.testing.assert_array_equal(obs["board"] != 0, expected)
            assert info["lines_cleared"] == cleared
            cleared_total += cleared
            checked += 1
    assert checked >= 60


def test_rewards_and_termination() -> None:
    for reward in ("score", "lines", "survival"):
        env = nestris.NesTetrisPlacementEnv(start_level=18, reward=reward)
        obs, info = env.reset(seed=3)
        total, steps, terminated = 0.0, 0, False
        rewards = []
        while not terminated:
            # The left-most placement every time: a quick top-out.
            obs, r, terminated, truncated, info = env.step(0)
            rewards.append(r)
            total += r
            steps += 1
            assert not truncated and steps < 500
        assert info["events"] & nestris.Event.TOPPED_OUT
        assert not info["action_mask"].any() and info["num_placements"] == 0
        if reward == "survival":
            assert rewards == [1.0] * (steps - 1) + [0.0]
        elif reward == "score":
            assert total == info["score"]
        else:
            assert total == info["lines"]
        assert env.unwrapped.game.game_over
        # An ended game does not move.
        _, r, terminated, _, _ = env.step(0)
        assert r == 0.0 and terminated
    limited = gymnasium.make(ENV_ID, start_level=9, max_episode_steps=5)
    obs, info = limited.reset(seed=0)
    for _ in range(5):
        _, _, terminated, truncated, info = limited.step(info["num_placements"] // 2)
    assert truncated and not terminated


def test_bad_actions_raise_invalid_argument() -> None:
    env = gymnasium.make(ENV_ID, start_level=18)
    _, info = env.reset(seed=1)
    n = info["num_placements"]
    before = env.unwrapped.game
    for bad in (n, MAX - 1, MAX, -1, 10**20):
        with pytest.raises(nestris.InvalidArgument):
            env.step(bad)
    with pytest.raises(nestris.InvalidArgument, match=f"this piece has {n} placements"):
        env.step(n)
    with pytest.raises(nestris.InvalidArgument, match="action must be from 0 to 199"):
        env.step(MAX)
    with pytest.raises(TypeError):
        env.step("left")
    # Nothing was stepped.
    assert env.unwrapped.game == before and env.unwrapped.core.episode_steps == 0
    vec = nestris.VecPlacementEnv(3, start_level=18)
    _, vinfo = vec.reset(seed=0)
    bad = vinfo["num_placements"].copy()
    bad[:2] = 0
    with pytest.raises(nestris.InvalidArgument, match="game 2: action"):
        vec.step(bad)
    assert vec.episode_steps == [0, 0, 0]
    for kwargs, message in (
        ({"tap_hz": 25}, "tap_hz must be 30, 20, 15 or 12"),
        ({"reaction": -1}, "reaction must be from 0 to 255"),
        ({"start_level": 300}, "start_level must be from 0 to 255"),
        ({"reward": "tetrises"}, "reward must be"),
        ({"observation": "ram"}, "observation must be"),
    ):
        with pytest.raises(nestris.InvalidArgument, match=message):
            nestris.NesTetrisPlacementEnv(**kwargs)
        with pytest.raises(nestris.InvalidArgument, match=message):
            nestris.VecPlacementEnv(2, **kwargs)


def single_env_rollout(kwargs: dict, seed: int, actions: list[int], max_steps: int | None):
    """One game of the batch, emulated with a single env and NEXT_STEP auto-reset."""
    env: gymnasium.Env = nestris.NesTetrisPlacementEnv(**kwargs)
    if max_steps is not None:
        env = gymnasium.wrappers.TimeLimit(env, max_episode_steps=max_steps)
    obs, info = env.reset(seed=seed)
    out = []
    done = False
    for a in actions:
        if done:
            obs, info = env.reset()
            r, term, trunc = 0.0, False, False
        else:
            obs, r, term, trunc, info = env.step(a)
        done = term or trunc
        out.append((obs, info, r, term, trunc))
    return out


@pytest.mark.parametrize(
    ("kwargs", "max_steps", "threads"),
    [
        ({"start_level": 18, "reward": "score"}, None, 1),
        ({"start_level": 9, "reward": "score", "tap_hz": 20}, None, 2),
        ({"start_level": 19, "reward": "survival", "tap_hz": 15}, 25, 1),
        ({"start_level": 16, "reward": "lines", "das": True}, 40, 3),
    ],
)
def test_vec_matches_single_envs(kwargs: dict, max_steps: int | None, threads: int) -> None:
    n, steps, seed = 5, 120, 30
    rng = np.random.default_rng(3)
    vec = nestris.VecPlacementEnv(n, max_episode_steps=max_steps, num_threads=threads, **kwargs)
    obs, info = vec.reset(seed=seed)
    assert vec.seeds == [seed + i for i in range(n)]
    history = []
    taken = []
    ended = False
    for _ in range(steps):
        # A random available action per game (any action for a game about to reset).
        acts = np.array(
            [
                random_action(rng, m) if m.any() else int(rng.integers(MAX))
                for m in info["action_mask"]
            ],
            dtype=np.int64,
        )
        taken.append(acts)
        obs, r, term, trunc, info = vec.step(acts)
        ended |= bool(term.any() or trunc.any())
        history.append(
            (
                obs["board"].copy(),
                obs["features"].copy(),
                obs["action_mask"].copy(),
                obs["placements"].copy(),
                r.copy(),
                term.copy(),
                trunc.copy(),
                info["num_placements"].copy(),
                info["events"].copy(),
            )
        )
    assert ended
    for i in range(n):
        single = single_env_rollout(kwargs, seed + i, [int(a[i]) for a in taken], max_steps)
        for t, (sobs, sinfo, sr, sterm, strunc) in enumerate(single):
            board, features, mask, places, r, term, trunc, num, events = history[t]
            np.testing.assert_array_equal(board[i], sobs["board"], err_msg=f"game {i} step {t}")
            assert list(features[i]) == [sobs[k] for k in nestris.FEATURE_NAMES]
            np.testing.assert_array_equal(mask[i], sobs["action_mask"])
            np.testing.assert_array_equal(places[i], sobs["placements"])
            assert num[i] == sinfo["num_placements"]
            np.testing.assert_array_equal(places[i], sinfo["placements"])
            assert (r[i], term[i], trunc[i]) == (np.float32(sr), sterm, strunc)
            assert events[i] == sinfo.get("events", 0)


def test_gymnasium_vector_env_equals_sync_vector_env() -> None:
    n, steps = 3, 80
    kwargs = {"start_level": 19, "max_episode_steps": 30}
    ours = gymnasium.make_vec(ENV_ID, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    sync = gymnasium.make_vec(ENV_ID, num_envs=n, vectorization_mode="sync", **kwargs)
    assert isinstance(ours.unwrapped, nestris.NesTetrisPlacementVectorEnv)
    assert ours.observation_space == sync.observation_space
    assert ours.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"]
    o1, i1 = ours.reset(seed=11)
    o2, _ = sync.reset(seed=11)
    ended = False
    ours.action_space.seed(5)
    for _ in range(steps):
        for key in o1:
            np.testing.assert_array_equal(o1[key], o2[key], err_msg=key)
        assert ours.observation_space.contains(o1)
        a = ours.action_space.sample()  # within each game's mask
        assert all(i1["action_mask"][k, a[k]] or not i1["action_mask"][k].any() for k in range(n))
        o1, r1, te1, tr1, i1 = ours.step(a)
        o2, r2, te2, tr2, _ = sync.step(a)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(te1, te2)
        np.testing.assert_array_equal(tr1, tr2)
        ended |= bool(te1.any() or tr1.any())
    assert ended
    ours.close()
    sync.close()


def test_ai_plan_and_choose() -> None:
    ai = nestris.Ai()
    assert ai.input_model == {
        "tap_hz": 30,
        "tap_interval": 2,
        "taps": "X.",
        "reaction": 0,
        "das": False,
        "soft_drop": False,
    }
    g = nestris.Game(level=18, seed=9)
    buttons = ai.plan(g)
    assert buttons and all(0 <= b < 256 for b in buttons)
    g.run(buttons)
    assert g.play_state == 2
    # choose() is the plan's placement, through any layer of the environment.
    env = gymnasium.make(ENV_ID, start_level=18)
    _, info = env.reset(seed=9)
    a = ai.choose(env)
    assert ai.choose(env.unwrapped) == ai.choose(env.unwrapped.core) == a
    assert tuple(info["placements"][a]) == (g.piece, g.x, g.y)
    assert env.unwrapped.core.placement_inputs(a) == buttons
    # Another input model: its placement may not be the environment's.
    slow = gymnasium.make(ENV_ID, start_level=29, tap_hz=12)
    slow.reset(seed=9)
    with pytest.raises(nestris.InvalidArgument, match="input model"):
        for _ in range(20):
            slow.step(ai.choose(slow))
    with pytest.raises(TypeError, match="placement environment"):
        ai.choose(gymnasium.make("nestris/NES-Tetris-v0"))
    # Picklable (for Ray), weights included.
    tuned = nestris.Ai(tap_hz=20, das=True, weights={"holes": -9.0})
    back = pickle.loads(pickle.dumps(tuned))
    assert back.input_model == tuned.input_model and back.weights["holes"] == -9.0
    assert repr(back) == "Ai(tap_hz=20, reaction=0, das=True, soft_drop=False)"
    with pytest.raises(nestris.InvalidArgument, match="unknown weight"):
        nestris.Ai(weights={"holez": 1.0})
    # A bracket's table survives the round trip; the betatetris set has its own tables.
    staged = nestris.Ai(weights={"holes": -7.0, "level29": {"holes": -3.0}})
    assert pickle.loads(pickle.dumps(staged)).weights["level29"]["holes"] == -3.0
    assert staged.weights["level29"]["tetris"] == staged.weights["tetris"]
    assert "double_killscreen" in nestris.Ai(weights="betatetris").weights
    # The high-stack set: its threshold in rows, kept through the round trip.
    high = nestris.Ai(weights={"high_stack": {"from_height": 12, "holes": -9.0}})
    kept = pickle.loads(pickle.dumps(high)).weights["high_stack"]
    assert kept["from_height"] == 12 and kept["holes"] == -9.0
    assert kept["tetris"] == high.weights["tetris"]
    assert nestris.Ai(weights="betatetris").weights["high_stack"]["from_height"] == 10
    for bad in ({"holes": -9.0}, {"from_height": 0}, {"from_height": 2.5}):
        with pytest.raises((nestris.InvalidArgument, TypeError), match="from_height"):
            nestris.Ai(weights={"high_stack": bad})
    with pytest.raises(nestris.InvalidArgument, match="tap_hz"):
        nestris.Ai(tap_hz=60)


def test_ai_clears_lines_at_level_9() -> None:
    result = nestris.evaluate(nestris.Ai(), games=3, level=9, seed=0, max_steps=120)
    assert result["policy"] == "Ai(tap_hz=30, reaction=0, das=False, soft_drop=False)"
    assert all(g["lines"] >= 20 for g in result["per_game"]), result["per_game"]
    assert result["topped_out"] == 0
    # The Rust loop is the Python one with choose(); each placement, line clears
    # included, leaves the board it says.
    ai = nestris.Ai()
    env = gymnasium.make(ENV_ID, start_level=9)
    cleared = 0
    for g in result["per_game"]:
        obs, info = env.reset(seed=g["seed"])
        total = 0.0
        for _ in range(120):
            a = ai.choose(env)
            expected, n = place(obs["board"] != 0, *(int(v) for v in info["placements"][a]))
            obs, r, terminated, _, info = env.step(a)
            np.testing.assert_array_equal(obs["board"] != 0, expected)
            assert info["lines_cleared"] == n
            cleared += n
            total += r
        assert (info["score"], info["lines"], info["frames"], total) == (
            g["score"],
            g["lines"],
            g["frames"],
            g["total_reward"],
        )
    assert cleared == sum(g["lines"] for g in result["per_game"])


def test_evaluate_placement_policies() -> None:
    rand = nestris.evaluate("random", env="placement", games=3, level=15, seed=4)
    assert rand == nestris.evaluate("random", env="placement", games=3, level=15, seed=4)
    assert rand["topped_out"] == 3
    assert all(g["steps"] > 5 for g in rand["per_game"])

    def first(obs: dict) -> int:
        assert obs["action_mask"][0] == 1
        return 0

    firsts = nestris.evaluate(first, env="placement", games=2, level=15, tap_hz=20)
    assert firsts["topped_out"] == 2
    with pytest.raises(nestris.InvalidArgument, match="differs from the Ai's"):
        nestris.evaluate(nestris.Ai(), games=1, tap_hz=15)
    with pytest.raises(nestris.InvalidArgument, match='"random" for env="placement"'):
        nestris.evaluate("idle", env="placement", games=1)
    with pytest.raises(nestris.InvalidArgument, match='env="placement" only'):
        nestris.evaluate("idle", games=1, tap_hz=15)
    with pytest.raises(nestris.InvalidArgument, match='env must be "frame" or "placement"'):
        nestris.evaluate("random", env="piece", games=1)


def test_no_piece_overflows_the_action_space() -> None:
    # The action space's size holds every piece's placements (see MAX_PLACEMENTS in
    # src/placement.rs and `bench.py --survey`: at most 72 over 3,589 random games).
    most = 0
    rng = np.random.default_rng(0)
    for kwargs in ({"start_level": 5, "das": True, "soft_drop": True}, {"start_level": 12}):
        vec = nestris.VecPlacementEnv(8, **kwargs)
        _, info = vec.reset(seed=0)
        for _ in range(60):
            n = info["num_placements"]
            acts = (rng.random(8) * np.maximum(n, 1)).astype(np.int64)
            _, _, _, _, info = vec.step(acts)
            most = max(most, int(info["num_placements"].max()))
    assert 20 < most < MAX
