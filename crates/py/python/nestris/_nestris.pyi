"""Type stubs of the extension module ``nestris._nestris`` (written by hand; keep in
step with crates/py/src)."""

import os
from typing import Any, Final, Literal, final
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

# Evaluation weights: a built-in set's name, or the base set's floats with optional
# nested dicts per bracket ("level19", "level29", "double_killscreen") and for high stacks
# ("high_stack", with its "from_height" in rows).
Weights = str | dict[str, float | dict[str, float]]

__all__ = [
    "NestrisError",
    "InvalidArgument",
    "InvalidSnapshot",
    "Game",
    "Events",
    "State",
    "FrameEnv",
    "VecEnv",
    "PlacementEnv",
    "VecPlacementEnv",
    "Ai",
    "play_placements",
    "MAX_PLACEMENTS",
    "ORIENTATION_CELLS",
    "ORIENTATION_TYPE",
    "TAP_RATES",
    "next_seed",
    "seed_setup",
    "parse_buttons",
    "format_buttons",
    "play_builtin",
    "__version__",
    "SNAPSHOT_LEN",
    "BOARD_SHAPE",
    "PIXELS_SHAPE",
    "FEATURE_NAMES",
    "FEATURE_SIZES",
    "ACTIONS",
    "ACTION_NAMES",
    "EVENT_FLAGS",
]

__version__: Final[str]
SNAPSHOT_LEN: Final[int]
BOARD_SHAPE: Final[tuple[int, int]]
PIXELS_SHAPE: Final[tuple[int, int, int]]
FEATURE_NAMES: Final[list[str]]
FEATURE_SIZES: Final[list[int]]
ACTIONS: Final[list[int]]
ACTION_NAMES: Final[list[str]]
EVENT_FLAGS: Final[dict[str, int]]

class NestrisError(Exception):
    """Base class of every error the nestris package raises."""

class InvalidArgument(NestrisError, ValueError):
    """An argument is outside what the game accepts."""

class InvalidSnapshot(NestrisError, ValueError):
    """Bytes given as a snapshot are not a valid encoded game state."""

def next_seed(seed: int) -> int: ...
def seed_setup(seed: int) -> dict[str, int]: ...
def parse_buttons(text: str) -> int: ...
def format_buttons(buttons: int) -> str: ...
def suggest_json(request: str, weights: Weights | None = None) -> str: ...
def bench_json(
    games: int | None = None,
    format: str = "cartridge",
    start_level: int | None = None,
    tap_hz: int | None = None,
    taps: str | None = None,
    reaction: int | None = None,
    adjust: int | None = None,
    weights: Weights | None = None,
    lookahead: str | None = None,
    blind_depth: int | None = None,
    blind_depth_29: int | None = None,
    depth: int | None = None,
    blind_beam_29: int | None = None,
    crash_mode: str = "cartridge",
    crash_dodge: bool = True,
    uncapped: bool = False,
    max_frames: int | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], object] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> str: ...
def play_builtin(
    policy: str,
    seeds: Sequence[int],
    start_level: int | None = None,
    region: str = "ntsc",
    game_type: str = "A",
    height: int = 0,
    actions: Sequence[int] | None = None,
    frame_skip: int = 1,
    reward: str = "score",
    max_steps: int | None = None,
    format: str = "cartridge",
) -> list[dict[str, Any]]: ...

@final
class Events:
    """What one frame (or several, combined) did."""

    flags: Final[int]
    lines_cleared: Final[int]
    def __new__(cls, flags: int = 0, lines_cleared: int = 0) -> Events: ...
    def has(self, flag: int) -> bool: ...
    def names(self) -> list[str]: ...
    @property
    def spawned(self) -> bool: ...
    @property
    def locked(self) -> bool: ...
    @property
    def cleared(self) -> bool: ...
    @property
    def tetris(self) -> bool: ...
    @property
    def level_up(self) -> bool: ...
    @property
    def score_changed(self) -> bool: ...
    @property
    def topped_out(self) -> bool: ...
    @property
    def game_ended(self) -> bool: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __bool__(self) -> bool: ...
    def __hash__(self) -> int: ...

@final
class State:
    """Every variable of the game at one moment (a copy)."""

    region: Final[str]
    game_mode: Final[int]
    game_mode_state: Final[int]
    play_state: Final[int]
    render_mode: Final[int]
    x: Final[int]
    y: Final[int]
    piece: Final[int]
    next_piece: Final[int]
    level: Final[int]
    start_level: Final[int]
    start_height: Final[int]
    fall_timer: Final[int]
    autorepeat_x: Final[int]
    autorepeat_y: Final[int]
    hold_down_points: Final[int]
    vram_row: Final[int]
    completed_lines: Final[int]
    completed_row: Final[list[int]]
    line_index: Final[int]
    row_y: Final[int]
    curtain_row: Final[int]
    lines: Final[int]
    lines_bcd: Final[list[int]]
    score: Final[int]
    score_bcd: Final[list[int]]
    rng: Final[int]
    spawn_id: Final[int]
    spawn_count: Final[int]
    frame_counter: Final[int]
    held: Final[int]
    pressed: Final[int]
    game_type: Final[int]
    music_type: Final[int]
    display_next_piece: Final[int]
    selecting: Final[int]
    clears: Final[list[int]]
    stats: Final[list[int]]
    nmi_off_this_frame: Final[bool]
    game_over: Final[bool]
    @property
    def piece_type(self) -> int: ...
    @property
    def gravity(self) -> int: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class Game:
    """One game of NES Tetris (USA, 1989), frame-exact."""

    SNAPSHOT_LEN: Final[int]
    def __new__(
        cls,
        level: int | None = None,
        seed: int | None = None,
        region: str = "ntsc",
        game_type: str = "A",
        height: int = 0,
        crash_mode: str = "cartridge",
        music_type: int = 3,
        format: str = "cartridge",
    ) -> Game: ...
    @staticmethod
    def power_on(region: str = "ntsc") -> Game: ...
    @staticmethod
    def from_snapshot(data: bytes | bytearray | memoryview) -> Game: ...
    @staticmethod
    def from_trace_header(header: str) -> Game: ...
    def step(self, buttons: int) -> Events: ...
    def run(self, inputs: bytes | Sequence[int]) -> Events: ...
    @property
    def board(self) -> npt.NDArray[np.uint8]: ...
    def render(self) -> npt.NDArray[np.uint8]: ...
    @property
    def state(self) -> State: ...
    def snapshot(self) -> bytes: ...
    def restore(self, data: bytes | bytearray | memoryview) -> None: ...
    def clone(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def state_hash(self) -> int: ...
    @property
    def score(self) -> int: ...
    @property
    def lines(self) -> int: ...
    @property
    def level(self) -> int: ...
    @property
    def piece(self) -> int: ...
    @property
    def next_piece(self) -> int: ...
    @property
    def x(self) -> int: ...
    @property
    def y(self) -> int: ...
    @property
    def play_state(self) -> int: ...
    @property
    def game_over(self) -> bool: ...
    @property
    def crashed(self) -> str | None: ...
    @property
    def crash_mode(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def region(self) -> str: ...
    def playfield_bytes(self) -> bytes: ...
    def board_rows(self) -> list[str]: ...

@final
class FrameEnv:
    """The frame-level environment's engine side."""

    def __new__(
        cls,
        start_level: int | None = None,
        region: str = "ntsc",
        game_type: str = "A",
        height: int = 0,
        actions: Sequence[int] | None = None,
        frame_skip: int = 1,
        reward: str = "score",
        observation: str = "board",
        crash_mode: str = "cartridge",
        music_type: int = 3,
        format: str = "cartridge",
    ) -> FrameEnv: ...
    def reset(self, seed: int) -> tuple[Any, dict[str, Any]]: ...
    def step(self, action: int) -> tuple[Any, float, bool, dict[str, Any]]: ...
    def gym_step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]: ...
    def observe(self) -> Any: ...
    def render(self) -> npt.NDArray[np.uint8]: ...
    @property
    def game(self) -> Game: ...
    @property
    def actions(self) -> list[int]: ...
    @property
    def frame_skip(self) -> int: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def following_seed(self) -> int: ...
    @property
    def episode_steps(self) -> int: ...
    @property
    def episode_frames(self) -> int: ...
    @property
    def ended(self) -> bool: ...
    @property
    def score(self) -> int: ...
    @property
    def lines(self) -> int: ...

# What a vector step returns: (observation, rewards, terminated, truncated, info).
_VecStep = tuple[
    Any,
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    dict[str, npt.NDArray[Any]],
]

@final
class VecEnv:
    """n frame-level games stepped together in Rust."""

    def __new__(
        cls,
        n: int,
        start_level: int | None = None,
        region: str = "ntsc",
        game_type: str = "A",
        height: int = 0,
        actions: Sequence[int] | None = None,
        frame_skip: int = 1,
        reward: str = "score",
        observation: str = "board",
        max_episode_steps: int | None = None,
        num_threads: int = 1,
        crash_mode: str = "cartridge",
        music_type: int = 3,
        format: str = "cartridge",
    ) -> VecEnv: ...
    def reset(
        self, seed: int | Sequence[int] | None = None, fresh: bool = False
    ) -> tuple[Any, dict[str, npt.NDArray[Any]]]: ...
    def step(
        self, actions: npt.NDArray[np.int64], fresh: bool = False
    ) -> _VecStep: ...
    def _gym_reset(
        self, seed: int | Sequence[int] | None, fresh: bool
    ) -> tuple[Any, dict[str, npt.NDArray[Any]]]: ...
    def _gym_step(
        self, actions: Any, fresh: bool
    ) -> _VecStep: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def actions(self) -> list[int]: ...
    @property
    def seeds(self) -> list[int | None]: ...
    @property
    def episode_steps(self) -> list[int]: ...
    def game(self, i: int) -> Game: ...
    def feature_columns(self) -> npt.NDArray[np.int64]: ...
    def _native_anchor(self, calls: int) -> tuple[float, float]: ...
    def __len__(self) -> int: ...

MAX_PLACEMENTS: Final[int]
ORIENTATION_CELLS: Final[list[list[tuple[int, int]]]]
ORIENTATION_TYPE: Final[list[int]]
TAP_RATES: Final[list[int]]

def play_placements(
    policy: Ai | str,
    seeds: Sequence[int],
    start_level: int | None = None,
    region: str = "ntsc",
    game_type: str = "A",
    height: int = 0,
    tap_hz: int | None = None,
    reaction: int = 0,
    das: bool = False,
    soft_drop: bool = False,
    reward: str = "score",
    max_steps: int | None = None,
    format: str = "cartridge",
    taps: str | None = None,
) -> list[dict[str, Any]]: ...

@final
class PlacementEnv:
    """The placement-level environment's engine side."""

    def __new__(
        cls,
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
        crash_mode: str = "cartridge",
        music_type: int = 3,
        format: str = "cartridge",
        taps: str | None = None,
    ) -> PlacementEnv: ...
    def reset(self, seed: int) -> tuple[Any, dict[str, Any]]: ...
    def step(self, action: int) -> tuple[Any, float, bool, dict[str, Any]]: ...
    def gym_step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]: ...
    def observe(self) -> Any: ...
    def placements(self) -> npt.NDArray[np.uint8]: ...
    def action_mask(self) -> npt.NDArray[np.bool_]: ...
    def placement_inputs(self, action: int) -> list[int]: ...
    def placement_info(self, action: int) -> tuple[int, bool]: ...
    def render(self) -> npt.NDArray[np.uint8]: ...
    @property
    def game(self) -> Game: ...
    @property
    def num_placements(self) -> int: ...
    @property
    def overflowed(self) -> bool: ...
    @property
    def input_model(self) -> dict[str, Any]: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def following_seed(self) -> int: ...
    @property
    def episode_steps(self) -> int: ...
    @property
    def episode_frames(self) -> int: ...
    @property
    def ended(self) -> bool: ...
    @property
    def score(self) -> int: ...
    @property
    def lines(self) -> int: ...

@final
class VecPlacementEnv:
    """n placement-level games stepped together in Rust."""

    def __new__(
        cls,
        n: int,
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
        crash_mode: str = "cartridge",
        music_type: int = 3,
        format: str = "cartridge",
        taps: str | None = None,
    ) -> VecPlacementEnv: ...
    def reset(
        self, seed: int | Sequence[int] | None = None, fresh: bool = False
    ) -> tuple[Any, dict[str, npt.NDArray[Any]]]: ...
    def step(self, actions: npt.NDArray[np.int64], fresh: bool = False) -> _VecStep: ...
    def _gym_reset(
        self, seed: int | Sequence[int] | None, fresh: bool
    ) -> tuple[Any, dict[str, npt.NDArray[Any]]]: ...
    def _gym_step(self, actions: Any, fresh: bool) -> _VecStep: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def input_model(self) -> dict[str, Any]: ...
    @property
    def seeds(self) -> list[int | None]: ...
    @property
    def episode_steps(self) -> list[int]: ...
    def game(self, i: int) -> Game: ...
    def __len__(self) -> int: ...

@final
class Ai:
    """The AI player of nestris-ai as a policy."""

    def __new__(
        cls,
        tap_hz: int | None = None,
        reaction: int = 0,
        das: bool = False,
        soft_drop: bool = False,
        weights: Weights | None = None,
        crash_dodge: bool = True,
        taps: str | None = None,
        lookahead: Literal["generator", "screen"] = "generator",
        depth: int = 3,
        blind_depth: int = 3,
        blind_depth_29: int = 3,
        blind_beam_29: int = 0,
    ) -> Ai: ...
    def plan(self, game: Game) -> list[int]: ...
    def plan_blind(self, game: Game) -> list[int]: ...
    def choose(self, env: Any) -> int: ...
    @property
    def weights(self) -> dict[str, Any]: ...
    @property
    def input_model(self) -> dict[str, Any]: ...
    @property
    def tap_hz(self) -> int: ...
    @property
    def reaction(self) -> int: ...
    @property
    def das(self) -> bool: ...
    @property
    def soft_drop(self) -> bool: ...
    @property
    def lookahead(self) -> Literal["generator", "screen"]: ...
    @property
    def depth(self) -> int: ...
    @property
    def blind_depth(self) -> int: ...
    @property
    def blind_depth_29(self) -> int: ...
    @property
    def blind_beam_29(self) -> int: ...
