"""Vectorized NES Tetris: many games stepped in Rust in one call.

(:class:`nestris.VecPlacementEnv` and :class:`NesTetrisPlacementVectorEnv` are the same
for the placement-level environment: one action per game is a placement index, the
masks and placements of every game come back in ``(n, MAX_PLACEMENTS)`` and
``(n, MAX_PLACEMENTS, 3)`` arrays.)

:class:`nestris.VecEnv` (from the extension) holds n games and steps them all in one
call with the GIL released, writing observations, rewards and flags into numpy arrays
it allocated once (the same arrays come back every call, unless ``fresh=True``: then
arrays no later call writes). :class:`NesTetrisVectorEnv`
is the ``gymnasium.vector.VectorEnv`` around it, with the batched spaces of
``nestris/NES-Tetris-v0``; ``gymnasium.make_vec("nestris/NES-Tetris-v0", num_envs=n)``
builds it.

Auto-reset is Gymnasium's ``NEXT_STEP`` mode: when game i terminates (tops out) or is
truncated (``max_episode_steps``) in a step, the *next* step ignores its action and
resets it, returning the new game's first observation with reward 0 and
``terminated``/``truncated`` false. The new game's seed is ``nestris.next_seed`` of
the old one -- exactly what a single environment does on ``reset()`` without a seed,
so game i of a ``VecEnv`` reset with seed s plays the same episodes as a single
environment reset with seed s + i.

>>> import numpy as np, nestris
>>> envs = nestris.NesTetrisVectorEnv(8, start_level=18)
>>> obs, info = envs.reset(seed=0)
>>> obs["board"].shape, obs["piece"].shape
((8, 20, 10), (8,))
>>> obs, rewards, terminated, truncated, info = envs.step(np.full(8, 3))
>>> rewards.shape, bool(terminated.any())
((8,), False)
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import _nestris
from ._nestris import MAX_PLACEMENTS, InvalidArgument
from .env import _FPS, PlacementSpace, check_seed, observation_space, placement_observation_space


class _RustVectorEnv(VectorEnv[Any, Any, Any]):
    """What both vector environments share around their extension object ``_vec``:
    seeding, stepping, rendering.

    The extension writes the observation in the batched space's layout (the board, one
    int64 row per feature) and the info with Gymnasium's ``"_key"`` masks (one read-only
    array). copy=True asks it for arrays nothing else holds ("fresh"): those of a step
    whose results were all let go are written again, so a loop that keeps only the last
    step's results allocates and copies nothing, and what a caller keeps never changes."""

    _vec: Any
    _copy: bool
    _started: bool

    def _seen(self, info: dict[str, Any]) -> None:
        """Called with the info of every reset and step."""

    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Resets every game: game i gets ``seed + i`` (or ``seed[i]`` for a list);
        without a seed each continues with ``nestris.next_seed`` of its last seed.
        Placement-level games are run to their first piece."""
        if isinstance(seed, (list, tuple, np.ndarray)):
            checked = [check_seed(s) for s in seed]
            seeds = [s for s in checked if s is not None]
            if len(seeds) != self.num_envs:
                raise InvalidArgument(f"seed must be one int or {self.num_envs} ints, got {seed!r}")
            super().reset(seed=None)
            self._started = True
            return self._reset_vec(seeds)
        s = check_seed(seed)
        super().reset(seed=s)
        if s is None and not self._started:
            s = int(self.np_random.integers(0, 2**63 - 1))
        self._started = True
        return self._reset_vec(s)

    def _reset_vec(self, seed: int | list[int] | None) -> tuple[Any, dict[str, Any]]:
        obs, info = self._vec._gym_reset(seed, self._copy)
        self._seen(info)
        return obs, info

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Steps every game (one action each: a frame's buttons or a placement);
        auto-resets as described in :mod:`nestris.vec`."""
        # Passed as given: the core checks them (ints only, one per game) and names the
        # game of a bad one; converting here would round floats and parse strings.
        out = self._vec._gym_step(actions, self._copy)
        self._seen(out[4])
        return out  # type: ignore[no-any-return]

    def render(self) -> tuple[np.ndarray, ...] | None:
        """A 240x256x3 picture per game (``render_mode="rgb_array"``)."""
        if self.render_mode != "rgb_array":
            return None
        return tuple(self._vec.game(i).render() for i in range(self.num_envs))

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in the extension object."""


class NesTetrisVectorEnv(_RustVectorEnv):
    """``num_envs`` frame-level games as one ``gymnasium.vector.VectorEnv``.

    Takes the options of :class:`nestris.env.NesTetrisEnv` and:

    * ``max_episode_steps``: truncate episodes after this many steps (None: never).
    * ``num_threads`` (1): split the games over this many threads in each step.
    * ``copy`` (True): every call returns arrays that no later call writes (those of a
      step whose results were all let go are reused, so a loop that keeps only the
      last step's results copies nothing); with False every call returns the same
      arrays, overwritten.

    ``crash_mode`` and ``music_type`` are those of the single environment; ``info["lag"]``
    (``uint32``) holds each game's lag frames in the step and ``info["crashed"]`` (bool)
    whether it has crashed.
    """

    metadata = {
        "render_modes": ["rgb_array"],
        "render_fps": 60,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int,
        start_level: int | None = None,
        region: str = "ntsc",
        game_type: str = "A",
        height: int = 0,
        reward: str = "score",
        observation: str = "board",
        frame_skip: int = 1,
        actions: Sequence[int] | None = None,
        max_episode_steps: int | None = None,
        num_threads: int = 1,
        copy: bool = True,
        render_mode: str | None = None,
        crash_mode: str = "cartridge",
        music_type: int = 3,
        format: str = "cartridge",
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgument(f'render_mode must be None or "rgb_array", got {render_mode!r}')
        self._vec = _nestris.VecEnv(
            num_envs,
            start_level=start_level,
            region=region,
            game_type=game_type,
            height=height,
            actions=actions,
            frame_skip=frame_skip,
            reward=reward,
            observation=observation,
            max_episode_steps=max_episode_steps,
            num_threads=num_threads,
            crash_mode=crash_mode,
            music_type=music_type,
            format=format,
        )
        self.num_envs = int(num_envs)
        self.render_mode = render_mode
        self._copy = bool(copy)
        self.single_observation_space = observation_space(observation)
        self.single_action_space = spaces.Discrete(len(self._vec.actions))
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = dict(self.metadata)
        self.metadata["render_fps"] = _FPS[region.lower()] / int(frame_skip)
        self._started = False

    @property
    def raw(self) -> _nestris.VecEnv:
        """The :class:`nestris.VecEnv` underneath."""
        return self._vec


class PlacementBatchSpace(spaces.MultiDiscrete):
    """The batched action space of :class:`NesTetrisPlacementVectorEnv`:
    ``MultiDiscrete([MAX_PLACEMENTS] * n)`` whose :meth:`sample` without a mask draws,
    for each game, among the placements its mask allows now."""

    def __init__(
        self,
        num_envs: int,
        mask_source: Callable[[], np.ndarray | None] | None = None,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        super().__init__(np.full(num_envs, MAX_PLACEMENTS, dtype=np.int64), seed=seed)
        self._mask_source = mask_source

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        if mask is None and probability is None and self._mask_source is not None:
            current = self._mask_source()
            if current is not None:
                mask = tuple(np.ascontiguousarray(row, dtype=np.int8) for row in current)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_mask_source"] = None
        return state


class NesTetrisPlacementVectorEnv(_RustVectorEnv):
    """``num_envs`` placement-level games as one ``gymnasium.vector.VectorEnv`` over
    :class:`nestris.VecPlacementEnv` (auto-reset as :class:`NesTetrisVectorEnv`).

    Takes the options of :class:`nestris.env.NesTetrisPlacementEnv` and
    ``max_episode_steps``, ``num_threads`` and ``copy`` as :class:`NesTetrisVectorEnv`.
    ``info["action_mask"]`` is ``(num_envs, MAX_PLACEMENTS)`` ``int8``,
    ``info["placements"]`` ``(num_envs, MAX_PLACEMENTS, 3)`` ``uint8`` (zeros past each
    game's ``info["num_placements"]``).

    >>> import nestris
    >>> envs = nestris.NesTetrisPlacementVectorEnv(4, start_level=18)
    >>> obs, info = envs.reset(seed=0)
    >>> obs["action_mask"].shape, info["num_placements"].shape
    ((4, 200), (4,))
    >>> obs, rewards, terminated, truncated, info = envs.step(envs.action_space.sample())
    >>> bool((info["events"] & nestris.Event.LOCKED != 0).all())
    True
    """

    metadata = {
        "render_modes": ["rgb_array"],
        "render_fps": 4,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int,
        start_level: int | None = None,
        region: str = "ntsc",
        game_type: str = "A",
        height: int = 0,
        tap_hz: int | None = None,
        reaction: int = 0,
        das: bool = False,
        soft_drop: bool = False,
        reward: str = "score",
        observation: str = "board",
        max_episode_steps: int | None = None,
        num_threads: int = 1,
        copy: bool = True,
        render_mode: str | None = None,
        crash_mode: str = "cartridge",
        music_type: int = 3,
        format: str = "cartridge",
        taps: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgument(f'render_mode must be None or "rgb_array", got {render_mode!r}')
        self._vec = _nestris.VecPlacementEnv(
            num_envs,
            start_level=start_level,
            region=region,
            game_type=game_type,
            height=height,
            tap_hz=tap_hz,
            reaction=reaction,
            das=bool(das),
            soft_drop=bool(soft_drop),
            reward=reward,
            observation=observation,
            max_episode_steps=max_episode_steps,
            num_threads=num_threads,
            crash_mode=crash_mode,
            music_type=music_type,
            format=format,
            taps=taps,
        )
        self.num_envs = int(num_envs)
        self.render_mode = render_mode
        self._copy = bool(copy)
        self._masks: np.ndarray | None = None
        self.single_observation_space = placement_observation_space(observation)
        self.single_action_space = PlacementSpace(MAX_PLACEMENTS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = PlacementBatchSpace(self.num_envs, self._current_masks)
        self.metadata = dict(self.metadata)
        self._started = False

    def _current_masks(self) -> np.ndarray | None:
        return self._masks

    @property
    def raw(self) -> _nestris.VecPlacementEnv:
        """The :class:`nestris.VecPlacementEnv` underneath."""
        return self._vec

    def action_masks(self) -> np.ndarray:
        """The actions each game allows now: ``(num_envs, MAX_PLACEMENTS)`` bool."""
        if self._masks is None:
            return np.zeros((self.num_envs, MAX_PLACEMENTS), dtype=bool)
        return self._masks.astype(bool)

    def _seen(self, info: dict[str, Any]) -> None:
        # The masks the action space samples with.
        self._masks = info["action_mask"]

