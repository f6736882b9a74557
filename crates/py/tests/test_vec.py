"""VecEnv(n) agrees with n single environments, auto-reset included."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import nestris

ENV_ID = "nestris/NES-Tetris-v0"


def single_env_rollout(kwargs: dict, seed: int, actions: np.ndarray, max_steps: int | None):
    """One game of the batch, emulated with a single env and NEXT_STEP auto-reset."""
    env = nestris.NesTetrisEnv(**kwargs)
    if max_steps is not None:
        env = gymnasium.wrappers.TimeLimit(env, max_episode_steps=max_steps)
    obs, _ = env.reset(seed=seed)
    boards, features, rewards, terms, truncs = [], [], [], [], []
    done = False
    for a in actions:
        if done:
            obs, _ = env.reset()
            r, term, trunc = 0.0, False, False
        else:
            obs, r, term, trunc, _ = env.step(int(a))
        done = term or trunc
        boards.append(obs["board"])
        features.append([obs[name] for name in nestris.FEATURE_NAMES])
        rewards.append(r)
        terms.append(term)
        truncs.append(trunc)
    return (
        np.array(boards),
        np.array(features, dtype=np.int32),
        np.array(rewards, dtype=np.float32),
        np.array(terms),
        np.array(truncs),
    )


@pytest.mark.parametrize(
    ("kwargs", "max_steps", "threads"),
    [
        ({"start_level": 19, "reward": "score"}, None, 1),
        ({"start_level": 19, "reward": "survival", "frame_skip": 2}, 240, 1),
        ({"start_level": 19, "reward": "lines"}, 610, 3),
    ],
)
def test_vec_env_matches_single_envs(kwargs: dict, max_steps: int | None, threads: int) -> None:
    n, steps, seed = 5, 1500, 100
    rng = np.random.default_rng(1)
    actions = rng.integers(0, 12, size=(steps, n))
    vec = nestris.VecEnv(n, max_episode_steps=max_steps, num_threads=threads, **kwargs)
    obs, info = vec.reset(seed=seed)
    assert vec.seeds == [seed + i for i in range(n)]
    boards, features, rewards, terms, truncs = [], [], [], [], []
    for t in range(steps):
        obs, r, term, trunc, info = vec.step(actions[t])
        boards.append(obs["board"].copy())
        features.append(obs["features"].copy())
        rewards.append(r.copy())
        terms.append(term.copy())
        truncs.append(trunc.copy())
    boards, features = np.stack(boards, 1), np.stack(features, 1)
    rewards, terms, truncs = np.stack(rewards, 1), np.stack(terms, 1), np.stack(truncs, 1)
    # Both ways of ending happened, so auto-reset is covered.
    assert terms.any(), "no game topped out"
    if max_steps is not None:
        assert truncs.any(), "no game was truncated"
    for i in range(n):
        b, f, r, te, tr = single_env_rollout(kwargs, seed + i, actions[:, i], max_steps)
        np.testing.assert_array_equal(boards[i], b)
        np.testing.assert_array_equal(features[i], f)
        np.testing.assert_array_equal(rewards[i], r)
        np.testing.assert_array_equal(terms[i], te)
        np.testing.assert_array_equal(truncs[i], tr)


def test_preallocated_arrays_are_reused() -> None:
    vec = nestris.VecEnv(4)
    obs0, info0 = vec.reset(seed=0)
    obs1, r1, t1, u1, info1 = vec.step(np.zeros(4, dtype=np.int64))
    obs2, r2, t2, u2, info2 = vec.step(np.zeros(4, dtype=np.int64))
    assert obs0["board"] is obs1["board"] is obs2["board"]
    assert obs1["features"] is obs2["features"]
    assert r1 is r2 and t1 is t2 and u1 is u2 and info1["score"] is info2["score"]
    assert obs1["board"].shape == (4, 20, 10) and obs1["board"].dtype == np.uint8
    assert obs1["features"].shape == (4, len(nestris.FEATURE_NAMES))
    assert obs1["features"].dtype == np.int32
    assert r1.dtype == np.float32 and t1.dtype == np.bool_


def test_actions_of_any_integer_type() -> None:
    a = nestris.VecEnv(3, start_level=12)
    b = nestris.VecEnv(3, start_level=12)
    a.reset(seed=4)
    b.reset(seed=4)
    for t in range(50):
        acts = [t % 12, (t * 5) % 12, 3]
        oa, *_ = a.step(np.array(acts, dtype=np.int64))
        ob, *_ = b.step(acts if t % 2 else np.array(acts, dtype=np.uint8))
        np.testing.assert_array_equal(oa["board"], ob["board"])
        np.testing.assert_array_equal(oa["features"], ob["features"])
    with pytest.raises(nestris.InvalidArgument, match="1-dimensional array of 3 ints"):
        a.step(np.zeros((3, 1), dtype=np.int64))
    with pytest.raises(TypeError, match="actions must be ints: game 0 has 'x'"):
        a.step(["x", "y", "z"])


def test_reset_seed_forms() -> None:
    vec = nestris.VecEnv(3, start_level=9)
    vec.reset(seed=[7, 8, 9])
    assert vec.seeds == [7, 8, 9]
    vec.reset()
    assert vec.seeds == [nestris.next_seed(s) for s in (7, 8, 9)]
    vec.reset(seed=7)
    assert vec.seeds == [7, 8, 9]
    assert vec.game(1) == nestris.Game(level=9, seed=8)
    assert len(vec) == vec.num_envs == 3


def test_pixels_vec() -> None:
    vec = nestris.VecEnv(2, observation="pixels", num_threads=2)
    obs, _ = vec.reset(seed=0)
    assert obs.shape == (2, 240, 256, 3) and obs.dtype == np.uint8
    obs, *_ = vec.step(np.zeros(2, dtype=np.int64))
    single = nestris.NesTetrisEnv(observation="pixels")
    single.reset(seed=1)
    expected, *_ = single.step(0)
    np.testing.assert_array_equal(obs[1], expected)


def test_gymnasium_vector_env_equals_sync_vector_env() -> None:
    n, steps = 4, 1200
    kwargs = {"start_level": 19, "max_episode_steps": 400}
    ours = gymnasium.make_vec(ENV_ID, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    sync = gymnasium.make_vec(ENV_ID, num_envs=n, vectorization_mode="sync", **kwargs)
    assert isinstance(ours.unwrapped, nestris.NesTetrisVectorEnv)
    assert ours.observation_space == sync.observation_space
    assert ours.action_space == sync.action_space
    assert ours.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"]
    o1, _ = ours.reset(seed=11)
    o2, _ = sync.reset(seed=11)
    rng = np.random.default_rng(2)
    ended = False
    for _ in range(steps):
        for key in o1:
            np.testing.assert_array_equal(o1[key], o2[key], err_msg=key)
        assert ours.observation_space.contains(o1)
        a = rng.integers(0, 12, size=n)
        o1, r1, te1, tr1, _ = ours.step(a)
        o2, r2, te2, tr2, _ = sync.step(a)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(te1, te2)
        np.testing.assert_array_equal(tr1, tr2)
        ended |= bool(te1.any() or tr1.any())
    assert ended
    ours.close()
    sync.close()


def test_vector_env_copy_false_returns_views() -> None:
    envs = nestris.NesTetrisVectorEnv(2, copy=False)
    o1, _ = envs.reset(seed=0)
    o2, *_ = envs.step(np.zeros(2, dtype=np.int64))
    assert np.shares_memory(o1["board"], o2["board"])
    envs_copy = nestris.NesTetrisVectorEnv(2)
    c1, _ = envs_copy.reset(seed=0)
    c2, *_ = envs_copy.step(np.zeros(2, dtype=np.int64))
    assert not np.shares_memory(c1["board"], c2["board"])
    frames = nestris.NesTetrisVectorEnv(2, render_mode="rgb_array")
    frames.reset(seed=0)
    assert len(frames.render()) == 2


def test_each_call_returns_new_dicts_of_the_same_arrays() -> None:
    # The dicts are the caller's: changing one does not change what the next step returns.
    vec = nestris.VecEnv(3)
    obs0, info0 = vec.reset(seed=0)
    obs0.pop("board")
    info0["mine"] = 1
    del info0["score"]
    obs1, _, _, _, info1 = vec.step(np.zeros(3, dtype=np.int64))
    assert obs1 is not obs0 and info1 is not info0
    assert list(obs1) == ["board", "features"]
    assert list(info1) == ["score", "lines", "events", "lag", "crashed"]
    obs2, _, _, _, info2 = vec.step(np.zeros(3, dtype=np.int64))
    assert obs2 is not obs1 and info2 is not info1
    assert obs2["board"] is obs1["board"] and info2["lag"] is info1["lag"]


@pytest.mark.parametrize("copy", [True, False])
def test_the_vector_wrapper_returns_the_raw_values(copy: bool) -> None:
    # copy=False: views of the VecEnv's arrays, made once; copy=True: new arrays each step.
    envs = nestris.NesTetrisVectorEnv(5, start_level=15, copy=copy)
    rng = np.random.default_rng(3)
    obs, info = envs.reset(seed=2)
    previous = None
    for _ in range(40):
        obs, rewards, terminated, truncated, info = envs.step(rng.integers(0, 12, size=5))
        assert list(obs) == ["board", *nestris.FEATURE_NAMES]
        assert obs in envs.observation_space
        assert sorted(info) == sorted(
            [k for key in ("score", "lines", "events", "lag", "crashed") for k in (key, "_" + key)]
        )
        assert info["_score"].all()
        if previous is not None:
            same = obs["board"] is previous[0]["board"]
            assert same == (not copy)
            assert (obs["piece"].base is previous[0]["piece"].base) == (not copy)
            assert (info["score"] is previous[1]["score"]) == (not copy)
        previous = (obs, info)
    # The values are the VecEnv's, whichever the mode.
    raw = envs.raw
    scores = np.array([raw.game(i).score for i in range(5)])
    np.testing.assert_array_equal(info["score"], scores)
    for i in range(5):
        state = raw.game(i).state
        assert obs["piece"][i] == state.piece and obs["x"][i] == state.x
        assert obs["fall_timer"][i] == state.fall_timer
    assert all(obs[name].dtype == np.int64 for name in nestris.FEATURE_NAMES)
    assert all(obs[name].flags.c_contiguous for name in nestris.FEATURE_NAMES)


def test_a_copy_is_not_changed_by_the_next_step() -> None:
    envs = nestris.NesTetrisVectorEnv(4, start_level=18, copy=True)
    obs, info = envs.reset(seed=5)
    kept = {k: v.copy() for k, v in obs.items()}
    kept_score = info["score"].copy()
    for _ in range(30):
        envs.step(np.full(4, 3))
    for k, v in kept.items():
        np.testing.assert_array_equal(obs[k], v)
    np.testing.assert_array_equal(info["score"], kept_score)


def test_the_native_anchor_runs_apart_from_the_games() -> None:
    # A benchmark helper: it times its own games and leaves these alone.
    vec = nestris.VecEnv(8, start_level=9)
    vec.reset(seed=1)
    vec.step(np.ones(8, dtype=np.int64))
    before = (vec.seeds, vec.episode_steps, vec.game(3).score)
    game_ns, vector_ns = vec._native_anchor(10)
    assert game_ns > 0 and vector_ns > 0
    assert (vec.seeds, vec.episode_steps, vec.game(3).score) == before


def test_feature_columns_follow_the_features() -> None:
    vec = nestris.VecEnv(6, start_level=12)
    obs, _ = vec.reset(seed=7)
    before = obs["features"].copy()
    columns = vec.feature_columns()
    assert columns.shape == (len(nestris.FEATURE_NAMES), 6) and columns.dtype == np.int64
    np.testing.assert_array_equal(columns, before.T)
    rng = np.random.default_rng(0)
    for _ in range(200):
        obs, *_ = vec.step(rng.integers(0, 12, size=6))
        assert vec.feature_columns() is columns
        np.testing.assert_array_equal(columns, obs["features"].T)
    vec.reset()
    np.testing.assert_array_equal(columns, obs["features"].T)
    with pytest.raises(nestris.InvalidArgument):
        nestris.VecEnv(2, observation="pixels").feature_columns()


def test_fresh_arrays_are_written_again_only_once_let_go() -> None:
    # fresh=True: arrays nothing else holds. Results dropped are reused (no allocation);
    # results kept, whole or as a view of one array, are never written again.
    vec = nestris.VecEnv(4, start_level=18)
    rng = np.random.default_rng(1)
    vec.reset(seed=3, fresh=True)
    board = vec.step(rng.integers(0, 12, size=4), fresh=True)[0]["board"]
    address = board.__array_interface__["data"][0]
    del board
    obs = vec.step(rng.integers(0, 12, size=4), fresh=True)[0]
    assert obs["board"].__array_interface__["data"][0] == address
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for t in range(40):
        obs, rewards, terminated, _, info = vec.step(rng.integers(0, 12, size=4), fresh=True)
        outputs = [obs["board"], obs["features"], rewards, terminated, *info.values()]
        for view, _ in kept:
            assert not any(np.shares_memory(view, out) for out in outputs)
        # One array (or a view of one) is all that is kept of a step.
        one = [obs["board"][1:3], obs["features"][:, 0], info["score"], rewards, terminated]
        if t % 8 < len(one):
            kept.append((one[t % 8], one[t % 8].copy()))
        del obs, rewards, terminated, info, one, outputs
    for view, then in kept:
        np.testing.assert_array_equal(view, then)
    # Without fresh, the last call's arrays are written again, whoever holds them.
    a = vec.step(rng.integers(0, 12, size=4))[0]["board"]
    b = vec.step(rng.integers(0, 12, size=4))[0]["board"]
    assert a is b


@pytest.mark.parametrize("observation", ["board", "pixels"])
def test_fresh_calls_play_the_same_games(observation: str) -> None:
    # The set of arrays a call writes changes nothing of the games: every output of
    # every game is written by every call (episodes truncated, so resets happen too).
    n = 5 if observation == "board" else 2
    kwargs = dict(start_level=18, max_episode_steps=60, observation=observation)
    fresh, plain = nestris.VecEnv(n, **kwargs), nestris.VecEnv(n, **kwargs)
    rng = np.random.default_rng(2)

    def equal(x: object, y: object) -> None:
        if isinstance(x, dict):
            assert isinstance(y, dict) and list(x) == list(y)
            for key in x:
                np.testing.assert_array_equal(x[key], y[key])
        else:
            np.testing.assert_array_equal(x, y)

    equal(fresh.reset(seed=9, fresh=True)[0], plain.reset(seed=9)[0])
    held = []
    for t in range(150 if observation == "board" else 40):
        actions = rng.integers(0, 12, size=n)
        a = fresh.step(actions, fresh=True)
        b = plain.step(actions)
        for x, y in zip(a, b):
            equal(x, y)
        if t % 3 == 0:
            held.append(a)  # keeps some sets busy, so that new ones are made
        if len(held) > 4:
            held.pop(0)


def test_the_wrapper_info_masks_are_read_only() -> None:
    envs = nestris.NesTetrisVectorEnv(3)
    _, info = envs.reset(seed=0)
    assert info["_score"].all() and not info["_score"].flags.writeable
    with pytest.raises(ValueError):
        info["_lines"][0] = False


def test_a_view_of_a_feature_row_keeps_its_values() -> None:
    # copy=True: a slice of one feature row is all that is kept of a step.
    envs = nestris.NesTetrisVectorEnv(6, start_level=18, copy=True)
    envs.reset(seed=4)
    rng = np.random.default_rng(4)
    kept = []
    for t in range(60):
        obs, *_ = envs.step(rng.integers(0, 12, size=6))
        if t % 6 == 0:
            kept.append((obs["x"][2:5], obs["x"][2:5].copy()))
        del obs
    for view, then in kept:
        np.testing.assert_array_equal(view, then)


def test_fresh_placement_arrays() -> None:
    # VecPlacementEnv's fresh calls as VecEnv's: what was kept (a slice of the masks,
    # the placements, a feature row of the wrapper) is never returned again, and the
    # games are those of plain calls.
    n = 4
    fresh = nestris.VecPlacementEnv(n, start_level=18, max_episode_steps=30)
    plain = nestris.VecPlacementEnv(n, start_level=18, max_episode_steps=30)
    fresh.reset(seed=6, fresh=True)
    _, info = plain.reset(seed=6)
    rng = np.random.default_rng(6)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for t in range(60):
        actions = np.array([rng.integers(0, max(1, k)) for k in info["num_placements"]])
        a = fresh.step(actions, fresh=True)
        b = plain.step(actions)
        info = b[4]
        for x, y in zip(a, b):
            if isinstance(x, dict):
                assert list(x) == list(y)
                for key in x:
                    np.testing.assert_array_equal(x[key], y[key])
            else:
                np.testing.assert_array_equal(x, y)
        outputs = [*a[0].values(), a[1], a[2], a[3], *a[4].values()]
        for view, _ in kept:
            assert not any(np.shares_memory(view, out) for out in outputs)
        one = [a[0]["action_mask"][1:3], a[4]["placements"][0], a[4]["step_frames"]]
        if t % 5 < len(one):
            kept.append((one[t % 5], one[t % 5].copy()))
        del a, outputs, one
    for view, then in kept:
        np.testing.assert_array_equal(view, then)
    envs = nestris.NesTetrisPlacementVectorEnv(n, start_level=18, copy=True)
    obs, info = envs.reset(seed=1)
    assert list(obs) == ["board", *nestris.FEATURE_NAMES, "action_mask", "placements"]
    assert obs in envs.observation_space and not info["_score"].flags.writeable
    row = obs["x"][1:3]
    then = row.copy()
    del obs, info
    for _ in range(10):
        envs.step(envs.action_space.sample())
    np.testing.assert_array_equal(row, then)
