"""Gymnasium environments of NES Tetris, registered when :mod:`nestris` is imported.

``gymnasium.make("nestris/NES-Tetris-v0", **options)`` builds :class:`NesTetrisEnv`:
one step is one NES frame (or ``frame_skip`` frames with the same buttons), the
action one of the joypad combinations below, the episode ends (``terminated``) when
the game tops out (or a B-type game is won); ``max_episode_steps=`` (Gymnasium's
``TimeLimit``) truncates.

Actions (``nestris.ACTIONS``, ``nestris.ACTION_NAMES``), ``Discrete(12)``:

====  =======  ===========
 id   buttons  joypad byte
====  =======  ===========
 0    none     0x00
 1    L        0x02
 2    R        0x01
 3    D        0x04
 4    A        0x80
 5    B        0x40
 6    L+A      0x82
 7    R+A      0x81
 8    L+B      0x42
 9    R+B      0x41
 10   D+A      0x84
 11   D+B      0x44
====  =======  ===========

(A rotates clockwise, B counter-clockwise, D soft-drops.) ``actions=[...]`` replaces
the table with any joypad bytes, Start and Select included.

Options (keywords of ``gymnasium.make`` and of :class:`NesTetrisEnv`):

* ``start_level`` (``None``: the format's, else 0): the level the game starts at (0-255;
  the menu offers 0-19).
* ``format`` (``"cartridge"``): the rules and the pieces. ``"betatetris"`` is the format
  the community compares bots on (BetaTetris's): a variant of the cartridge's rules that
  deals the pieces of a TetrisGYM v5 seed, doubles the gravity from level 39 (double
  killscreen) and ends the game at level 49, from level 18 unless ``start_level`` says
  otherwise. The episode seed is the TetrisGYM seed when it is from 512 to 2**24-1 (so
  ``reset(seed=s)`` with a seed of ``nestris ai bench --format betatetris`` replays that
  game), other seeds are folded into that range.
* ``region`` (``"ntsc"``) or ``"pal"``; ``game_type`` (``"A"``) or ``"B"`` with
  ``height`` 0-5.
* ``reward``: ``"score"`` (points gained in the step), ``"lines"`` (lines cleared in
  the step) or ``"survival"`` (1 for every step that does not end the game, 0 for
  the one that does).
* ``observation``: ``"board"`` -- a ``Dict`` of ``board`` (20x10 ``uint8``: 0 empty,
  1-3 the three block tiles, 4 other; the falling piece is not on it) and the
  features of ``nestris.FEATURE_NAMES`` as ints (``piece`` and ``next_piece``
  orientation ids, ``x``/``y`` the piece's pivot, ``level``, ``lines``,
  ``play_state`` (1 = piece under control), ``fall_timer``, ``autorepeat_x`` (DAS)) --
  or ``"pixels"``: a 240x256x3 ``uint8`` picture of the play screen.
* ``frame_skip`` (1): frames per step, the buttons held through them.
* ``render_mode``: ``"rgb_array"`` (the 240x256x3 picture) or ``"ansi"`` (text).
* ``crash_mode`` (``"cartridge"``): what happens where the cartridge would crash (a score
  frame at level ~155 and up running into the jump-table dispatch): ``"cartridge"`` ends
  the episode (the console halts), ``"show"`` plays on, ``"topout"`` ends it as a top-out,
  ``"off"`` models no lag frames or crashes (and counts no CPU cycles: a frame step at
  level 18 runs fewer instructions; the placement environment counts them only from
  level 130, below the first lag, so there ``"off"`` saves little, see
  ``docs/PERFORMANCE.md``).
  ``info["lag"]`` counts the step's lag frames,
  ``info["crashed"]`` says whether the game has crashed.
* ``music_type`` (3): the music, 0-2, or 3 for none. The lag frames and crashes depend on
  the sound engine's cycles, which with music on need the cartridge's music scripts (a
  ROM, which the Python package cannot take): with music on they are not modelled (the
  sub-frame timing is lost in the first frames) and a ``UserWarning`` says so, once.
  Music off is exact.

Seeding: ``reset(seed=s)`` starts the game from ``GameSetup::from_seed(s)``, so the
same seed and actions give the same episode. ``reset()`` without a seed continues
deterministically with ``nestris.next_seed`` of the last episode's seed (the first
one, if never seeded, comes from the environment's ``np_random``).

``gymnasium.make("nestris/NES-Tetris-Placement-v0", **options)`` builds
:class:`NesTetrisPlacementEnv`: one step is one placement of the falling piece, action i
being the i-th of the places it can lock (``info["placements"]``, ``info["action_mask"]``)
as found by the frame-exact move generator of ``nestris-ai`` for the input model
``tap_hz`` (30, 20, 15 or 12; ``None``: 30) or ``taps``, a tap pattern (``"X.X.."``: a
press on each ``X`` frame, repeated, as BetaTetris's tap tables; not with ``tap_hz``),
``reaction`` (frames), ``das`` and ``soft_drop``. The
placement's buttons run frame by frame through the engine, then the game runs with no
input until the next piece is under control. Its options are the frame-level ones but
``frame_skip`` and ``actions``, plus the input model.

>>> import gymnasium, nestris
>>> env = gymnasium.make("nestris/NES-Tetris-v0", start_level=18)
>>> obs, info = env.reset(seed=3)
>>> sorted(obs)[:3], obs["board"].shape
(['autorepeat_x', 'board', 'fall_timer'], (20, 10))
>>> obs, reward, terminated, truncated, info = env.step(1)
>>> obs["x"], reward, terminated
(4, 0.0, False)
"""

from __future__ import annotations

import weakref
from typing import Any
from collections.abc import Callable, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _nestris
from ._nestris import (
    FEATURE_NAMES,
    FEATURE_SIZES,
    MAX_PLACEMENTS,
    FrameEnv,
    InvalidArgument,
    PlacementEnv,
)

#: Id of the frame-level environment.
FRAME_ENV_ID = "nestris/NES-Tetris-v0"
#: Id of the placement-level environment.
PLACEMENT_ENV_ID = "nestris/NES-Tetris-Placement-v0"

_FPS = {"ntsc": 60.0988, "pal": 50.007}


def observation_space(observation: str = "board") -> spaces.Space[Any]:
    """The observation space of one game for ``observation="board"`` or ``"pixels"``.

    >>> observation_space("pixels").shape
    (240, 256, 3)
    """
    if observation == "board":
        items: dict[str, spaces.Space[Any]] = {
            "board": spaces.Box(0, 4, shape=_nestris.BOARD_SHAPE, dtype=np.uint8)
        }
        for name, size in zip(FEATURE_NAMES, FEATURE_SIZES, strict=True):
            items[name] = spaces.Discrete(size)
        return spaces.Dict(items, sort_keys=False)
    if observation == "pixels":
        return spaces.Box(0, 255, shape=_nestris.PIXELS_SHAPE, dtype=np.uint8)
    raise InvalidArgument(f'observation must be "board" or "pixels", got {observation!r}')


def check_seed(seed: Any) -> int | None:
    """``seed`` if it is None or an int from 0 to 2**64-1, else ``InvalidArgument``."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise InvalidArgument(f"seed must be None or an int, got {type(seed).__name__}")
    if not 0 <= int(seed) < 2**64:
        raise InvalidArgument(f"seed must be from 0 to 2**64-1, got {seed}")
    return int(seed)


def text_board(game: _nestris.Game) -> str:
    """The board as text, the falling piece drawn as ``@`` (for ``render_mode="ansi"``)."""
    rows = [list(r) for r in game.board_rows()]
    state = game.state
    if state.play_state == 1 and state.piece < 19:
        for dr, dc in _CELLS[state.piece]:
            r, c = state.y + dr, state.x + dc
            if 0 <= r < 20 and 0 <= c < 10:
                rows[r][c] = "@"
    lines = ["|" + "".join(r) + "|" for r in rows]
    lines.append("+" + "-" * 10 + "+")
    lines.append(f"score {game.score}  lines {game.lines}  level {game.level}")
    return "\n".join(lines) + "\n"


# Cell offsets (row, column) from the pivot per orientation id (the cartridge's table).
_CELLS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, -1), (0, 0), (0, 1), (-1, 0)),
    ((-1, 0), (0, 0), (0, 1), (1, 0)),
    ((0, -1), (0, 0), (0, 1), (1, 0)),
    ((-1, 0), (0, -1), (0, 0), (1, 0)),
    ((-1, 0), (0, 0), (1, -1), (1, 0)),
    ((-1, -1), (0, -1), (0, 0), (0, 1)),
    ((-1, 0), (-1, 1), (0, 0), (1, 0)),
    ((0, -1), (0, 0), (0, 1), (1, 1)),
    ((0, -1), (0, 0), (1, 0), (1, 1)),
    ((-1, 1), (0, 0), (0, 1), (1, 0)),
    ((0, -1), (0, 0), (1, -1), (1, 0)),
    ((0, 0), (0, 1), (1, -1), (1, 0)),
    ((-1, 0), (0, 0), (0, 1), (1, 1)),
    ((-1, 0), (0, 0), (1, 0), (1, 1)),
    ((0, -1), (0, 0), (0, 1), (1, -1)),
    ((-1, -1), (-1, 0), (0, 0), (1, 0)),
    ((-1, 1), (0, -1), (0, 0), (0, 1)),
    ((-2, 0), (-1, 0), (0, 0), (1, 0)),
    ((0, -2), (0, -1), (0, 0), (0, 1)),
)


class NesTetrisEnv(gymnasium.Env[Any, Any]):
    """Frame-level NES Tetris: one step is ``frame_skip`` NES frames (see :mod:`nestris.env`)."""

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 60}

    def __init__(
        self,
        start_level: int | None = None,
        region: str = "ntsc",
        game_type: str = "A",
        height: int = 0,
        reward: str = "score",
        observation: str = "board",
        frame_skip: int = 1,
        actions: Sequence[int] | None = None,
        render_mode: str | None = None,
        crash_mode: str = "cartridge",
        music_type: int = 3,
        format: str = "cartridge",
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgument(
                f'render_mode must be None, "rgb_array" or "ansi", got {render_mode!r}'
            )
        self._core = FrameEnv(
            start_level=start_level,
            region=region,
            game_type=game_type,
            height=height,
            actions=actions,
            frame_skip=frame_skip,
            reward=reward,
            observation=observation,
            crash_mode=crash_mode,
            music_type=music_type,
            format=format,
        )
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(len(self._core.actions))
        self.observation_space = observation_space(observation)
        self.metadata = dict(self.metadata)
        self.metadata["render_fps"] = _FPS[region.lower()] / self._core.frame_skip
        self._started = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Starts a new game; ``seed`` as described in :mod:`nestris.env`. ``options``
        are not used."""
        seed = check_seed(seed)
        super().reset(seed=seed)
        if seed is not None:
            game_seed = seed
        elif not self._started:
            game_seed = int(self.np_random.integers(0, 2**63 - 1))
        else:
            game_seed = self._core.following_seed
        self._started = True
        return self._core.reset(game_seed)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """One step: ``(observation, reward, terminated, truncated, info)``; ``info``
        holds ``score``, ``lines``, ``level``, ``frames`` (in the episode), ``events``
        (``nestris.Event`` flags of the step), ``lines_cleared``, ``lag`` (lag frames in
        the step) and ``crashed`` (the cartridge would have crashed in this game; under
        ``crash_mode="cartridge"`` that ends the episode)."""
        return self._core.gym_step(action)

    def render(self) -> Any:
        """The play screen: a 240x256x3 array (``rgb_array``) or text (``ansi``)."""
        if self.render_mode == "rgb_array":
            return self._core.render()
        if self.render_mode == "ansi":
            return text_board(self._core.game)
        return None

    @property
    def game(self) -> _nestris.Game:
        """A copy of the running game (for inspection)."""
        return self._core.game


#: Upper bounds of a placement's description: orientation id, pivot column, pivot row.
PLACEMENT_HIGH = (18, 9, 19)


def placement_observation_space(observation: str = "board") -> spaces.Space[Any]:
    """The observation space of the placement environment: the frame-level one plus,
    for ``"board"``, ``action_mask`` (``MultiBinary(MAX_PLACEMENTS)``, int8) and
    ``placements`` (``MAX_PLACEMENTS`` x 3 ``uint8``: orientation, x, y; zeros past the
    last available placement).

    >>> space = placement_observation_space()
    >>> space["action_mask"].shape, space["placements"].shape
    ((200,), (200, 3))
    """
    base = observation_space(observation)
    if not isinstance(base, spaces.Dict):
        return base
    items = dict(base.spaces)
    items["action_mask"] = spaces.MultiBinary(MAX_PLACEMENTS)
    high = np.tile(np.array(PLACEMENT_HIGH, dtype=np.uint8), (MAX_PLACEMENTS, 1))
    items["placements"] = spaces.Box(0, high, shape=(MAX_PLACEMENTS, 3), dtype=np.uint8)
    return spaces.Dict(items, sort_keys=False)


class PlacementSpace(spaces.Discrete):
    """``Discrete(MAX_PLACEMENTS)`` whose :meth:`sample` without a mask draws among the
    placements available now in its environment (with a mask it is ``Discrete``'s).

    An action outside the mask makes the environment raise ``InvalidArgument``, so a
    plain ``Discrete`` sample would mostly be refused; with this,
    ``env.step(env.action_space.sample())`` is always a legal move.
    """

    def __init__(
        self,
        n: int = MAX_PLACEMENTS,
        mask_source: Callable[[], np.ndarray | None] | None = None,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        super().__init__(n, seed=seed)
        self._mask_source = mask_source

    def sample(
        self, mask: np.ndarray | None = None, probability: np.ndarray | None = None
    ) -> np.int64:
        if mask is None and probability is None and self._mask_source is not None:
            current = self._mask_source()
            if current is not None and current.any():
                mask = current
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_mask_source"] = None
        return state

    def __repr__(self) -> str:
        return f"PlacementSpace({self.n})"


def _mask_of(ref: weakref.ReferenceType[Any]) -> Callable[[], np.ndarray | None]:
    def current() -> np.ndarray | None:
        env = ref()
        return None if env is None else env.action_masks().astype(np.int8)

    return current


class NesTetrisPlacementEnv(gymnasium.Env[Any, Any]):
    """Placement-level NES Tetris: one step places one piece (see :mod:`nestris.env`).

    Each step the agent picks one of the places the falling piece can lock, as found by
    the move generator of ``nestris-ai`` for the input model (``tap_hz``, ``reaction``,
    ``das``, ``soft_drop``): action i is row i of ``info["placements"]`` (orientation
    id, pivot column, pivot row; ordered by orientation, then column, then row), for i
    below ``info["num_placements"]``, which ``info["action_mask"]`` marks. The placement's buttons are then
    pressed frame by frame through the engine, and the game runs with no input through
    the entry delay (lock, line clears, spawn) to the next piece under control.

    >>> import gymnasium, nestris
    >>> env = gymnasium.make("nestris/NES-Tetris-Placement-v0", start_level=18)
    >>> obs, info = env.reset(seed=3)
    >>> n = info["num_placements"]
    >>> int(info["action_mask"].sum()) == n, info["placements"].shape
    (True, (200, 3))
    >>> obs, reward, terminated, truncated, info = env.step(n - 1)
    >>> info["events"] & nestris.Event.LOCKED != 0
    True
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}

    def __init__(
        self,
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
        render_mode: str | None = None,
        crash_mode: str = "cartridge",
        music_type: int = 3,
        format: str = "cartridge",
        taps: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgument(
                f'render_mode must be None, "rgb_array" or "ansi", got {render_mode!r}'
            )
        self._core = PlacementEnv(
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
            crash_mode=crash_mode,
            music_type=music_type,
            format=format,
            taps=taps,
        )
        self.render_mode = render_mode
        self.action_space = PlacementSpace(MAX_PLACEMENTS, _mask_of(weakref.ref(self)))
        self.observation_space = placement_observation_space(observation)
        self._started = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Starts a new game and runs it to its first piece; ``seed`` as for
        ``nestris/NES-Tetris-v0``. ``options`` are not used."""
        seed = check_seed(seed)
        super().reset(seed=seed)
        if seed is not None:
            game_seed = seed
        elif not self._started:
            game_seed = int(self.np_random.integers(0, 2**63 - 1))
        else:
            game_seed = self._core.following_seed
        self._started = True
        return self._core.reset(game_seed)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Makes placement ``action`` and returns ``(observation, reward, terminated,
        truncated, info)``; ``info`` holds ``score``, ``lines``, ``level``, ``frames``
        (in the episode), ``step_frames``, ``events`` (``nestris.Event`` flags of the
        step's frames), ``lines_cleared``, and the next piece's ``action_mask``,
        ``placements`` (``MAX_PLACEMENTS`` x 3, zeros past the last) and
        ``num_placements``. ``InvalidArgument`` if the mask does not allow ``action``."""
        obs, reward, terminated, info = self._core.step(action)
        return obs, reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """The actions available now, as a ``(MAX_PLACEMENTS,)`` bool array (the name
        ``sb3_contrib``'s ``MaskablePPO`` looks for)."""
        return self._core.action_mask()

    @property
    def placements(self) -> np.ndarray:
        """The placements available now: ``(n, 3)`` ``uint8`` (orientation, x, y)."""
        return self._core.placements()

    def render(self) -> Any:
        """The play screen: a 240x256x3 array (``rgb_array``) or text (``ansi``)."""
        if self.render_mode == "rgb_array":
            return self._core.render()
        if self.render_mode == "ansi":
            return text_board(self._core.game)
        return None

    @property
    def core(self) -> PlacementEnv:
        """The engine side (``nestris.PlacementEnv``), e.g. for ``nestris.Ai.choose``."""
        return self._core

    @property
    def game(self) -> _nestris.Game:
        """A copy of the running game (for inspection)."""
        return self._core.game


def register_envs() -> None:
    """Registers the environments with Gymnasium (done on ``import nestris``)."""
    if FRAME_ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=FRAME_ENV_ID,
            entry_point="nestris.env:NesTetrisEnv",
            vector_entry_point="nestris.vec:NesTetrisVectorEnv",
        )
    if PLACEMENT_ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=PLACEMENT_ENV_ID,
            entry_point="nestris.env:NesTetrisPlacementEnv",
            vector_entry_point="nestris.vec:NesTetrisPlacementVectorEnv",
        )
