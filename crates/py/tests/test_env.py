"""The frame-level Gymnasium environment: check_env, seeding, rewards, termination."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import nestris

ENV_ID = "nestris/NES-Tetris-v0"


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"start_level": 18, "reward": "lines", "frame_skip": 3},
        {"observation": "pixels", "render_mode": "rgb_array"},
        {"render_mode": "ansi", "reward": "survival", "region": "pal"},
        {"game_type": "B", "height": 3, "start_level": 5},
        {"actions": [0, 0x02, 0x01, 0x80, 0x10, 0x20]},
    ],
)
def test_check_env(kwargs: dict) -> None:
    env = gymnasium.make(ENV_ID, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_registered_on_import() -> None:
    assert ENV_ID in gymnasium.registry
    assert gymnasium.registry[ENV_ID].vector_entry_point == "nestris.vec:NesTetrisVectorEnv"
    # The placement env appears only when the extension provides its core.
    placement = "nestris/NES-Tetris-Placement-v0"
    assert (placement in gymnasium.registry) == hasattr(nestris._nestris, "PlacementEnv")


def test_spaces() -> None:
    env = nestris.NesTetrisEnv()
    assert env.action_space == gymnasium.spaces.Discrete(12)
    obs_space = env.observation_space
    assert isinstance(obs_space, gymnasium.spaces.Dict)
    assert list(obs_space.keys()) == ["board", *nestris.FEATURE_NAMES]
    assert obs_space["board"].shape == (20, 10) and obs_space["board"].dtype == np.uint8
    pixels = nestris.NesTetrisEnv(observation="pixels").observation_space
    assert pixels.shape == (240, 256, 3)


def rollout(env: gymnasium.Env, seed: int, actions: list[int]) -> list:
    obs, info = env.reset(seed=seed)
    out = [(obs["board"].copy(), {k: v for k, v in obs.items() if k != "board"}, info)]
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        out.append((obs["board"].copy(), reward, terminated, truncated, info))
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


def test_reset_seed_is_deterministic() -> None:
    rng = np.random.default_rng(0)
    actions = [int(a) for a in rng.integers(0, 12, size=4000)]
    env1 = gymnasium.make(ENV_ID, start_level=15)
    env2 = gymnasium.make(ENV_ID, start_level=15)
    a = rollout(env1, 42, actions)
    b = rollout(env2, 42, actions)
    assert_same(a, b)
    # Same env, same seed again.
    assert_same(rollout(env1, 42, actions), a)
    # The game itself is the one Game(seed=...) starts.
    assert env1.reset(seed=42)[1]["seed"] == 42
    assert env1.unwrapped.game == nestris.Game(level=15, seed=42)


def test_reset_without_seed_continues_the_seed_chain() -> None:
    env = nestris.NesTetrisEnv(start_level=18)
    _, info = env.reset(seed=5)
    assert info["seed"] == 5
    _, info = env.reset()
    assert info["seed"] == nestris.next_seed(5)
    _, info = env.reset()
    assert info["seed"] == nestris.next_seed(nestris.next_seed(5))
    # A never-seeded env draws its first seed from np_random.
    fresh = nestris.NesTetrisEnv()
    _, info = fresh.reset()
    assert isinstance(info["seed"], int)


def test_terminates_on_top_out_and_rewards() -> None:
    env = gymnasium.make(ENV_ID, start_level=19)
    env.reset(seed=1)
    total = 0.0
    steps = 0
    terminated = False
    while not terminated:
        _, reward, terminated, truncated, info = env.step(3)  # hold Down
        total += reward
        steps += 1
        assert not truncated
        assert steps < 20_000
    assert info["events"] & nestris.Event.TOPPED_OUT
    # Soft-drop points were scored.
    assert total == info["score"] > 0
    assert env.unwrapped.game.game_over


def test_survival_and_lines_rewards() -> None:
    env = nestris.NesTetrisEnv(start_level=19, reward="survival")
    env.reset(seed=2)
    rewards = []
    terminated = False
    while not terminated:
        _, r, terminated, _, _ = env.step(0)
        rewards.append(r)
    assert rewards[:-1] == [1.0] * (len(rewards) - 1) and rewards[-1] == 0.0
    env = nestris.NesTetrisEnv(start_level=19, reward="lines")
    env.reset(seed=2)
    _, r, _, _, info = env.step(0)
    assert r == 0.0 and info["lines_cleared"] == 0


def test_frame_skip_runs_several_frames() -> None:
    env1 = nestris.NesTetrisEnv(start_level=10, frame_skip=1)
    env4 = nestris.NesTetrisEnv(start_level=10, frame_skip=4)
    env1.reset(seed=3)
    env4.reset(seed=3)
    for _ in range(10):
        for _ in range(4):
            obs1, *_ = env1.step(0)
        obs4, _, _, _, info = env4.step(0)
    assert info["frames"] == 40
    np.testing.assert_array_equal(obs1["board"], obs4["board"])
    assert env1.game == env4.game


def test_time_limit_truncates() -> None:
    env = gymnasium.make(ENV_ID, max_episode_steps=10)
    env.reset(seed=0)
    for _ in range(10):
        _, _, terminated, truncated, _ = env.step(0)
    assert truncated and not terminated


def test_render_modes() -> None:
    env = gymnasium.make(ENV_ID, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (240, 256, 3) and frame.dtype == np.uint8
    # The falling piece is drawn in the field.
    assert frame[48:208, 96:176].any()
    text = gymnasium.make(ENV_ID, render_mode="ansi")
    text.reset(seed=0)
    out = text.render()
    assert isinstance(out, str) and out.count("@") == 4 and "score 0" in out


def test_observations_are_fresh_arrays() -> None:
    env = nestris.NesTetrisEnv(start_level=18)
    obs0, _ = env.reset(seed=9)
    obs1, *_ = env.step(3)
    assert obs0["board"] is not obs1["board"]


def test_step_is_the_cores_step_with_truncated_false() -> None:
    # NesTetrisEnv.step is FrameEnv.gym_step: FrameEnv.step's values plus truncated.
    env = nestris.NesTetrisEnv(start_level=18, frame_skip=2)
    twin = nestris.FrameEnv(start_level=18, frame_skip=2)
    env.reset(seed=4)
    twin.reset(4)
    rng = np.random.default_rng(1)
    for a in rng.integers(0, 12, size=300):
        obs, reward, terminated, truncated, info = env.step(int(a))
        obs2, reward2, terminated2, info2 = twin.step(int(a))
        assert truncated is False
        assert (reward, terminated) == (reward2, terminated2) and info == info2
        np.testing.assert_array_equal(obs["board"], obs2["board"])
        assert {k: v for k, v in obs.items() if k != "board"} == {
            k: v for k, v in obs2.items() if k != "board"
        }
        if terminated:
            break


def test_observation_and_info_keys_keep_their_order_and_are_the_callers() -> None:
    env = nestris.NesTetrisEnv(start_level=9)
    obs, info = env.reset(seed=2)
    assert list(obs) == list(env.observation_space.spaces)
    assert list(info) == [
        "score", "lines", "level", "frames", "events", "lines_cleared", "lag", "crashed", "seed"
    ]
    # The dicts are new each step: changing one changes no later one.
    obs["piece"] = -1
    info["score"] = -1
    del info["lag"]
    obs1, _, _, _, info1 = env.step(0)
    assert obs1["piece"] != -1 and info1["score"] >= 0 and "lag" in info1
    assert list(obs1) == list(env.observation_space.spaces)
    assert list(info1) == [
        "score", "lines", "level", "frames", "events", "lines_cleared", "lag", "crashed"
    ]
    obs1["x"] = 99
    obs2, _, _, _, _ = env.step(0)
    assert obs2["x"] != 99 and obs2 is not obs1
