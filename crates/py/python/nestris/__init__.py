"""Frame-exact NES Tetris (USA, 1989) for Python.

The engine is the Rust crate ``nestris-core``; this package wraps it:

* :class:`Game` -- one game, stepped one NES frame at a time with a joypad byte
  (:class:`Buttons` flags), with its board as a numpy view, save states
  (:meth:`Game.snapshot` / :meth:`Game.restore`), :meth:`Game.clone` and
  :meth:`Game.state_hash`.
* Gymnasium environments, registered on import: ``gymnasium.make("nestris/NES-Tetris-v0")``
  (one step per frame) and ``gymnasium.make("nestris/NES-Tetris-Placement-v0")`` (one
  step per placement of a piece, among those the move generator of ``nestris-ai``
  finds; see :mod:`nestris.env`).
* :class:`VecEnv` and :class:`VecPlacementEnv` -- n games stepped in Rust in one call
  without the GIL, into preallocated numpy arrays, and :class:`NesTetrisVectorEnv` and
  :class:`NesTetrisPlacementVectorEnv`, the ``gymnasium.vector.VectorEnv`` around them
  (see :mod:`nestris.vec`).
* :class:`Ai` -- the AI player of ``nestris-ai`` as a policy (``plan(game)``,
  ``choose(env)``).
* :func:`nestris.ai.suggest` -- the coach: the best placements of a position given as a
  dict (StackRabbit's request shape), with their values and inputs (see :mod:`nestris.ai`).
* :func:`evaluate` -- many games with a policy, locally or on Ray
  (see :mod:`nestris.evaluate`).

>>> import nestris
>>> g = nestris.Game(level=9, seed=42)
>>> events = g.step(nestris.Buttons.RIGHT)
>>> g.x, g.score, g.lines, g.level
(6, 0, 0, 9)
>>> int(g.board.sum())
0
"""

from __future__ import annotations

import enum

from . import _nestris
from ._nestris import (
    ACTION_NAMES,
    ACTIONS,
    BOARD_SHAPE,
    FEATURE_NAMES,
    FEATURE_SIZES,
    MAX_PLACEMENTS,
    ORIENTATION_CELLS,
    ORIENTATION_TYPE,
    PIXELS_SHAPE,
    SNAPSHOT_LEN,
    Events,
    Ai,
    FrameEnv,
    Game,
    InvalidArgument,
    InvalidSnapshot,
    NestrisError,
    PlacementEnv,
    State,
    TAP_RATES,
    VecEnv,
    VecPlacementEnv,
    __version__,
    format_buttons,
    next_seed,
    parse_buttons,
    seed_setup,
)


class Buttons(enum.IntFlag):
    """The NES joypad byte as the cartridge reads it; combine with ``|``.

    >>> int(Buttons.LEFT | Buttons.A)
    130
    """

    NONE = 0
    RIGHT = 0x01
    LEFT = 0x02
    DOWN = 0x04
    UP = 0x08
    START = 0x10
    SELECT = 0x20
    B = 0x40
    A = 0x80


class Event(enum.IntFlag):
    """Event flags of :class:`Events` (what a frame did).

    >>> Game().step(0).has(Event.SPAWNED)
    False
    """

    NONE = 0
    SHIFTED = 1 << 0
    ROTATED = 1 << 1
    DROPPED = 1 << 2
    SOFT_DROPPED = 1 << 3
    LANDED = 1 << 4
    LOCKED = 1 << 5
    ROW_COMPLETED = 1 << 6
    LINES_CLEARED = 1 << 7
    TETRIS = 1 << 8
    LEVEL_UP = 1 << 9
    SCORE_CHANGED = 1 << 10
    SPAWNED = 1 << 11
    TOPPED_OUT = 1 << 12
    CURTAIN_ROW = 1 << 13
    LINE_CLEAR_STEP = 1 << 14
    NEXT_TOGGLED = 1 << 15
    PAUSED = 1 << 16
    RESUMED = 1 << 17
    GAME_ENDED = 1 << 18
    B_TYPE_WON = 1 << 19
    MUSIC_TEMPO = 1 << 20
    MENU_BEEP = 1 << 21
    SCREEN_CHANGED = 1 << 22
    DEMO = 1 << 23
    LAG = 1 << 24
    DISPATCH_BROKEN = 1 << 25
    CRASHED = 1 << 26
    SPRITES_GARBLED = 1 << 27
    PICTURE_FILLED = 1 << 28
    CLEAR_STARTED = 1 << 29
    CAPPED = 1 << 30
    DIGITS_STALE = 1 << 31


# The Python flags must be the engine's.
assert {e.name: e.value for e in Event if e.value} == dict(_nestris.EVENT_FLAGS)

from . import ai  # noqa: E402
from .evaluate import evaluate  # noqa: E402
from .vec import NesTetrisPlacementVectorEnv, NesTetrisVectorEnv  # noqa: E402
from .env import NesTetrisEnv, NesTetrisPlacementEnv, PlacementSpace, register_envs  # noqa: E402

register_envs()

__all__ = [
    "ACTIONS",
    "ACTION_NAMES",
    "Ai",
    "BOARD_SHAPE",
    "Buttons",
    "Event",
    "Events",
    "FEATURE_NAMES",
    "FEATURE_SIZES",
    "FrameEnv",
    "Game",
    "InvalidArgument",
    "InvalidSnapshot",
    "MAX_PLACEMENTS",
    "NesTetrisEnv",
    "NesTetrisPlacementEnv",
    "NesTetrisPlacementVectorEnv",
    "NesTetrisVectorEnv",
    "NestrisError",
    "ORIENTATION_CELLS",
    "ORIENTATION_TYPE",
    "PIXELS_SHAPE",
    "PlacementEnv",
    "PlacementSpace",
    "SNAPSHOT_LEN",
    "State",
    "TAP_RATES",
    "VecEnv",
    "VecPlacementEnv",
    "__version__",
    "ai",
    "evaluate",
    "format_buttons",
    "next_seed",
    "parse_buttons",
    "seed_setup",
]
