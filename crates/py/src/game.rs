//! `nestris.Game`: one engine game with its board as a numpy view, `Events` (what a
//! frame did) and `State` (every variable of the game as plain attributes).

use nestris_core::bcd::{bcd_value, lines_value, score_value};
use nestris_core::encode::ENCODED_LEN;
use nestris_core::{Buttons, FrameEvents, Game, Region, Snapshot};
use numpy::{PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyMemoryView};

use crate::errors::{invalid_argument, invalid_snapshot};
use crate::options::{parse_region, seed_arg};
use nestris_env::obs::{self, CELLS, COLS, HEIGHT, ROWS, WIDTH};

/// The event flags and their Python names, in bit order.
pub const EVENT_NAMES: [(&str, u32); 32] = [
    ("SHIFTED", FrameEvents::SHIFTED),
    ("ROTATED", FrameEvents::ROTATED),
    ("DROPPED", FrameEvents::DROPPED),
    ("SOFT_DROPPED", FrameEvents::SOFT_DROPPED),
    ("LANDED", FrameEvents::LANDED),
    ("LOCKED", FrameEvents::LOCKED),
    ("ROW_COMPLETED", FrameEvents::ROW_COMPLETED),
    ("LINES_CLEARED", FrameEvents::LINES_CLEARED),
    ("TETRIS", FrameEvents::TETRIS),
    ("LEVEL_UP", FrameEvents::LEVEL_UP),
    ("SCORE_CHANGED", FrameEvents::SCORE_CHANGED),
    ("SPAWNED", FrameEvents::SPAWNED),
    ("TOPPED_OUT", FrameEvents::TOPPED_OUT),
    ("CURTAIN_ROW", FrameEvents::CURTAIN_ROW),
    ("LINE_CLEAR_STEP", FrameEvents::LINE_CLEAR_STEP),
    ("NEXT_TOGGLED", FrameEvents::NEXT_TOGGLED),
    ("PAUSED", FrameEvents::PAUSED),
    ("RESUMED", FrameEvents::RESUMED),
    ("GAME_ENDED", FrameEvents::GAME_ENDED),
    ("B_TYPE_WON", FrameEvents::B_TYPE_WON),
    ("MUSIC_TEMPO", FrameEvents::MUSIC_TEMPO),
    ("MENU_BEEP", FrameEvents::MENU_BEEP),
    ("SCREEN_CHANGED", FrameEvents::SCREEN_CHANGED),
    ("DEMO", FrameEvents::DEMO),
    ("LAG", FrameEvents::LAG),
    ("DISPATCH_BROKEN", FrameEvents::DISPATCH_BROKEN),
    ("CRASHED", FrameEvents::CRASHED),
    ("SPRITES_GARBLED", FrameEvents::SPRITES_GARBLED),
    ("PICTURE_FILLED", FrameEvents::PICTURE_FILLED),
    ("CLEAR_STARTED", FrameEvents::CLEAR_STARTED),
    ("CAPPED", FrameEvents::CAPPED),
    ("DIGITS_STALE", FrameEvents::DIGITS_STALE),
];

/// What one frame (or several, combined) did: event flags and lines cleared.
///
/// Flags are the `nestris.Event` values; ``events.has(nestris.Event.LOCKED)`` or the
/// boolean properties tell them apart.
///
/// >>> import nestris
/// >>> ev = nestris.Game(level=18).step(0)
/// >>> ev.has(nestris.Event.TOPPED_OUT), ev.topped_out, ev.lines_cleared
/// (False, False, 0)
#[pyclass(frozen, module = "nestris._nestris", name = "Events")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyEvents {
    /// The event flags (an OR of `nestris.Event` values).
    #[pyo3(get)]
    pub flags: u32,
    /// Rows cleared by the frame's scoring step (0 when none).
    #[pyo3(get)]
    pub lines_cleared: u32,
}

impl PyEvents {
    fn flag(&self, f: u32) -> bool {
        self.flags & f != 0
    }
}

#[pymethods]
impl PyEvents {
    #[new]
    #[pyo3(
        signature = (flags=0, lines_cleared=0))]
    fn py_new(flags: u32, lines_cleared: u32) -> Self {
        PyEvents {
            flags,
            lines_cleared,
        }
    }

    /// True if every bit of `flag` is set.
    fn has(&self, flag: u32) -> bool {
        self.flags & flag == flag
    }

    /// The names of the flags that are set, in bit order.
    fn names(&self) -> Vec<&'static str> {
        EVENT_NAMES
            .iter()
            .filter(|(_, f)| self.flags & f != 0)
            .map(|(n, _)| *n)
            .collect()
    }

    /// A new piece spawned.
    #[getter]
    fn spawned(&self) -> bool {
        self.flag(FrameEvents::SPAWNED)
    }
    /// The piece was written into the playfield.
    #[getter]
    fn locked(&self) -> bool {
        self.flag(FrameEvents::LOCKED)
    }
    /// Lines were counted and scored.
    #[getter]
    fn cleared(&self) -> bool {
        self.flag(FrameEvents::LINES_CLEARED)
    }
    /// Four lines at once.
    #[getter]
    fn tetris(&self) -> bool {
        self.flag(FrameEvents::TETRIS)
    }
    /// The level went up.
    #[getter]
    fn level_up(&self) -> bool {
        self.flag(FrameEvents::LEVEL_UP)
    }
    /// The score changed.
    #[getter]
    fn score_changed(&self) -> bool {
        self.flag(FrameEvents::SCORE_CHANGED)
    }
    /// The piece locked overlapping the stack: the game is over.
    #[getter]
    fn topped_out(&self) -> bool {
        self.flag(FrameEvents::TOPPED_OUT)
    }
    /// The game ended (play state 0).
    #[getter]
    fn game_ended(&self) -> bool {
        self.flag(FrameEvents::GAME_ENDED)
    }

    /// ``{"flags": ..., "lines_cleared": ..., "names": [...]}``.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("flags", self.flags)?;
        d.set_item("lines_cleared", self.lines_cleared)?;
        d.set_item("names", self.names())?;
        Ok(d)
    }

    fn __bool__(&self) -> bool {
        self.flags != 0
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyEvents>()
            .map(|o| *o.get() == *self)
            .unwrap_or(false)
    }

    fn __hash__(&self) -> u64 {
        u64::from(self.flags) << 8 | u64::from(self.lines_cleared)
    }

    fn __repr__(&self) -> String {
        format!(
            "Events({}, lines_cleared={})",
            if self.flags == 0 {
                "none".to_string()
            } else {
                self.names().join("|")
            },
            self.lines_cleared
        )
    }
}

/// Every variable of the game at one moment, as plain attributes (a copy: it does not
/// change when the game steps). Counters are numbers; ``score_bcd`` and ``lines_bcd``
/// keep the cartridge's raw bytes (low byte first).
///
/// >>> import nestris
/// >>> s = nestris.Game(level=5).state
/// >>> (s.level, s.play_state, s.x, s.y)
/// (5, 1, 5, 0)
#[pyclass(frozen, get_all, module = "nestris._nestris", name = "State")]
#[derive(Clone, Debug)]
pub struct PyState {
    /// ``"ntsc"`` or ``"pal"``.
    pub region: &'static str,
    /// ``gameMode``: 0 legal, 1 title, 2 game-type menu, 3 level menu, 4 play, 5 demo.
    pub game_mode: u8,
    /// ``gameModeState`` (2 = the normal play frame).
    pub game_mode_state: u8,
    /// ``playState``: 1 piece under control, 2-8 lock to spawn, 10 curtain, 0 ended.
    pub play_state: u8,
    /// ``renderMode``: 3 playing, 0 paused.
    pub render_mode: u8,
    /// Pivot column of the piece.
    pub x: u8,
    /// Pivot row of the piece.
    pub y: u8,
    /// Orientation id of the piece (0-18, 19 hidden).
    pub piece: u8,
    /// Orientation id of the next piece.
    pub next_piece: u8,
    /// Level number.
    pub level: u8,
    /// Start level (+10 applied).
    pub start_level: u8,
    /// B-type garbage height.
    pub start_height: u8,
    /// Frames since the last drop.
    pub fall_timer: u8,
    /// DAS counter.
    pub autorepeat_x: u8,
    /// Soft-drop counter (a byte; 160 = -96 for the first piece).
    pub autorepeat_y: u8,
    /// Soft-drop rows counted for points.
    pub hold_down_points: u8,
    /// Next playfield row copied to the screen (32 = done).
    pub vram_row: u8,
    /// Rows completed by the last lock.
    pub completed_lines: u8,
    /// Rows found complete per checked row.
    pub completed_row: [u32; 4],
    /// Row-check index.
    pub line_index: u8,
    /// Line-clear animation step.
    pub row_y: u8,
    /// Curtain progress.
    pub curtain_row: u8,
    /// Lines as a number.
    pub lines: u32,
    /// The two BCD bytes of the lines, low byte first.
    pub lines_bcd: [u32; 2],
    /// Score as a number.
    pub score: u32,
    /// The three BCD bytes of the score, low byte first.
    pub score_bcd: [u32; 3],
    /// 16-bit generator value.
    pub rng: u16,
    /// Last random pick.
    pub spawn_id: u8,
    /// Random picks so far.
    pub spawn_count: u8,
    /// 16-bit frame counter.
    pub frame_counter: u16,
    /// Buttons held this frame.
    pub held: u8,
    /// Buttons newly pressed this frame.
    pub pressed: u8,
    /// 0 A-type, 1 B-type.
    pub game_type: u8,
    /// Music choice 0-3.
    pub music_type: u8,
    /// 0 while the next piece is shown.
    pub display_next_piece: u8,
    /// On the level menu, the field with the cursor (0 level, 1 height); elsewhere a
    /// scratch byte.
    pub selecting: u8,
    /// Singles, doubles, triples, tetrises.
    pub clears: [u32; 4],
    /// Pieces dealt per type T J Z O S L I.
    pub stats: [u32; 7],
    /// The frame interrupt was off in the last frame (a screen redraw: nothing counted).
    pub nmi_off_this_frame: bool,
    /// The game is no longer in play (topped out, ended, or won).
    pub game_over: bool,
}

impl PyState {
    /// The state of `game`.
    pub fn of(game: &Game) -> PyState {
        let s = game.state();
        PyState {
            region: s.region.name(),
            game_mode: s.game_mode,
            game_mode_state: s.game_mode_state,
            play_state: s.play_state,
            render_mode: s.render_mode,
            x: s.x,
            y: s.y,
            piece: s.piece,
            next_piece: s.next_piece,
            level: s.level,
            start_level: s.start_level,
            start_height: s.start_height,
            fall_timer: s.fall_timer,
            autorepeat_x: s.autorepeat_x,
            autorepeat_y: s.autorepeat_y,
            hold_down_points: s.hold_down_points,
            vram_row: s.vram_row,
            completed_lines: s.completed_lines,
            completed_row: s.completed_row.map(u32::from),
            line_index: s.line_index,
            row_y: s.row_y,
            curtain_row: s.curtain_row,
            lines: lines_value(s.lines),
            lines_bcd: s.lines.map(u32::from),
            score: score_value(s.score),
            score_bcd: s.score.map(u32::from),
            rng: s.rng,
            spawn_id: s.spawn_id,
            spawn_count: s.spawn_count,
            frame_counter: s.frame_counter,
            held: s.held,
            pressed: s.pressed,
            game_type: s.game_type,
            music_type: s.music_type,
            display_next_piece: s.display_next_piece,
            selecting: s.selecting,
            clears: s.clears.map(bcd_value),
            stats: s.stats.map(|c| bcd_value(c[1]) * 100 + bcd_value(c[0])),
            nmi_off_this_frame: s.flow.nmi_off_this_frame,
            game_over: game.is_over(),
        }
    }
}

/// The names of [`PyState`]'s attributes and derived properties, for `to_dict`.
const STATE_FIELDS: [&str; 42] = [
    "region",
    "game_mode",
    "game_mode_state",
    "play_state",
    "render_mode",
    "x",
    "y",
    "piece",
    "next_piece",
    "level",
    "start_level",
    "start_height",
    "fall_timer",
    "autorepeat_x",
    "autorepeat_y",
    "hold_down_points",
    "vram_row",
    "completed_lines",
    "completed_row",
    "line_index",
    "row_y",
    "curtain_row",
    "lines",
    "lines_bcd",
    "score",
    "score_bcd",
    "rng",
    "spawn_id",
    "spawn_count",
    "frame_counter",
    "held",
    "pressed",
    "game_type",
    "music_type",
    "display_next_piece",
    "selecting",
    "clears",
    "stats",
    "nmi_off_this_frame",
    "game_over",
    "piece_type",
    "gravity",
];

#[pymethods]
impl PyState {
    /// Piece type of the current piece: 0-6 for T J Z O S L I, 7 for the hidden piece.
    #[getter]
    fn piece_type(&self) -> u8 {
        if self.piece >= nestris_core::tables::ORIENTATION_COUNT {
            7
        } else {
            nestris_core::tables::ORIENTATION_TYPE[self.piece as usize]
        }
    }

    /// Frames per row of gravity at the current level.
    #[getter]
    fn gravity(&self) -> u8 {
        let region = if self.region == "pal" {
            Region::Pal
        } else {
            Region::Ntsc
        };
        region.gravity(self.level)
    }

    /// Every attribute in a dict.
    fn to_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(slf.py());
        for name in STATE_FIELDS {
            d.set_item(name, slf.getattr(name)?)?;
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "State(play_state={}, piece={}, x={}, y={}, next_piece={}, level={}, lines={}, score={})",
            self.play_state,
            self.piece,
            self.x,
            self.y,
            self.next_piece,
            self.level,
            self.lines,
            self.score
        )
    }
}

/// One game of NES Tetris (USA, 1989), frame-exact.
///
/// ``Game(level=0, seed=None, region="ntsc", game_type="A", height=0)`` starts a game
/// as the cartridge does when Start is pressed on the level menu; the next
/// :meth:`step` is frame 0. ``seed`` picks the generator state (``None``: the
/// cartridge's power-on state); the same seed and buttons give the same game.
/// ``format="betatetris"`` plays BetaTetris's format instead (a variant of the rules:
/// the pieces of TetrisGYM v5 seed ``seed`` when it is from 512 to 2**24-1, other seeds
/// folded into that range; double killscreen from level 39, halted at 49; ``level``
/// 18 unless given).
///
/// ``board`` is a 20x10 ``uint8`` numpy array owned by the game and kept current by
/// every step (0 empty, 1-3 the three block tiles, 4 anything else): a view, not a
/// copy. Take ``game.board.copy()`` to keep a board.
///
/// >>> import nestris
/// >>> g = nestris.Game(level=18, seed=7)
/// >>> ev = g.step(nestris.Buttons.LEFT)
/// >>> g.x
/// 4
/// >>> g.board.shape, g.board.dtype.name
/// ((20, 10), 'uint8')
/// >>> g.board is g.board
/// True
/// >>> saved = g.snapshot()
/// >>> len(saved)
/// 421
/// >>> for _ in range(100):
/// ...     _ = g.step(0)
/// >>> g.restore(saved)
/// >>> g.x
/// 4
#[pyclass(module = "nestris._nestris", name = "Game")]
#[derive(Debug)]
pub struct PyGame {
    game: Game,
    board: Py<PyArray2<u8>>,
    /// The playfield bytes `board` was last converted from.
    board_src: [u8; CELLS],
}

impl PyGame {
    /// Wraps `game`, with a fresh board array.
    pub fn wrap(py: Python<'_>, game: Game) -> PyGame {
        let board = PyArray2::<u8>::zeros(py, [ROWS, COLS], false);
        let mut g = PyGame {
            game,
            board: board.unbind(),
            board_src: [0; CELLS],
        };
        g.refresh_board(py, true);
        g
    }

    /// Brings `board` up to date with the playfield (only when the playfield changed,
    /// unless `force`).
    #[inline]
    fn refresh_board(&mut self, py: Python<'_>, force: bool) {
        let src = &self.game.state().playfield.0[..CELLS];
        if !force && src == self.board_src {
            return;
        }
        self.board_src.copy_from_slice(src);
        let arr = self.board.bind(py);
        let written = match arr.try_readwrite() {
            Ok(mut rw) => match rw.as_slice_mut() {
                Ok(out) => {
                    obs::board(self.game.state(), out);
                    true
                }
                Err(_) => false,
            },
            Err(_) => false,
        };
        if !written {
            // The caller made the array read-only or kept a Rust borrow: replace it.
            let fresh = PyArray2::<u8>::zeros(py, [ROWS, COLS], false);
            if let Ok(mut rw) = fresh.try_readwrite() {
                if let Ok(out) = rw.as_slice_mut() {
                    obs::board(self.game.state(), out);
                }
            }
            self.board = fresh.unbind();
        }
    }

    /// The game.
    pub fn inner(&self) -> &Game {
        &self.game
    }

    fn set_game(&mut self, py: Python<'_>, game: Game) {
        self.game = game;
        self.refresh_board(py, true);
    }
}

/// Decodes snapshot bytes into a game, with `InvalidSnapshot` errors.
pub fn game_from_bytes(data: &[u8]) -> PyResult<Game> {
    if data.len() != ENCODED_LEN {
        return Err(invalid_snapshot(format!(
            "a snapshot is {ENCODED_LEN} bytes (from Game.snapshot()), got {}",
            data.len()
        )));
    }
    let snap = Snapshot::decode(data)
        .map_err(|e| invalid_snapshot(format!("not a valid snapshot: {e}")))?;
    Game::from_snapshot(snap).map_err(|e| invalid_snapshot(format!("not a valid game state: {e}")))
}

/// Reads snapshot bytes from `bytes`, `bytearray` or `memoryview`.
fn snapshot_bytes(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if data.is_instance_of::<PyByteArray>() || data.is_instance_of::<PyMemoryView>() {
        let b = data.py().get_type::<PyBytes>().call1((data,))?;
        return Ok(b.cast_into::<PyBytes>()?.as_bytes().to_vec());
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "a snapshot must be bytes, got {}",
        crate::options::type_name(data)
    )))
}

/// A joypad byte from a Python int, with a clear error.
#[inline]
fn buttons_arg(buttons: i64) -> PyResult<Buttons> {
    if (0..=255).contains(&buttons) {
        Ok(Buttons(buttons as u8))
    } else {
        Err(invalid_argument(format!(
            "buttons must be a joypad byte from 0 to 255 (nestris.Buttons flags), got {buttons}"
        )))
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (level=None, seed=None, region="ntsc", game_type="A", height=None, crash_mode="cartridge", music_type=None, format="cartridge"),
        text_signature = "(level=None, seed=None, region=\"ntsc\", game_type=\"A\", height=0, crash_mode=\"cartridge\", music_type=3, format=\"cartridge\")"
    )]
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per keyword of the Python constructor"
    )]
    fn py_new(
        py: Python<'_>,
        level: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        region: &str,
        game_type: &str,
        height: Option<&Bound<'_, PyAny>>,
        crash_mode: &str,
        music_type: Option<&Bound<'_, PyAny>>,
        format: &str,
    ) -> PyResult<Self> {
        let mut opts = crate::options::game_options(level, region, game_type, height, format)?;
        opts.crash_mode = crate::options::parse_crash_mode(crash_mode)?;
        opts.music_type = crate::options::parse_music_type(py, music_type)?;
        let seed = seed_arg(seed)?;
        Ok(PyGame::wrap(py, Game::new(opts.setup(seed))))
    }

    /// The console at power-on (legal screen first), for the menus and the demo.
    #[staticmethod]
    #[pyo3(signature = (region="ntsc"))]
    fn power_on(py: Python<'_>, region: &str) -> PyResult<PyGame> {
        Ok(PyGame::wrap(py, Game::power_on(parse_region(region)?)))
    }

    /// A game from :meth:`snapshot` bytes. Raises ``InvalidSnapshot``.
    #[staticmethod]
    fn from_snapshot(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        Ok(PyGame::wrap(py, game_from_bytes(&snapshot_bytes(data)?)?))
    }

    /// The game pickled by ``__reduce__``: :meth:`snapshot` bytes and the timing block the
    /// snapshot leaves out (sub-frame clock, sound engine), so the copy runs on exactly
    /// as the original, lag frames included.
    #[staticmethod]
    fn _from_state(py: Python<'_>, data: &Bound<'_, PyAny>, timing: &[u8]) -> PyResult<PyGame> {
        let mut s = game_from_bytes(&snapshot_bytes(data)?)?.snapshot();
        s.decode_timing(timing)
            .map_err(|e| invalid_snapshot(format!("not a valid timing block: {e}")))?;
        let game = Game::from_snapshot(s)
            .map_err(|e| invalid_snapshot(format!("not a valid game state: {e}")))?;
        Ok(PyGame::wrap(py, game))
    }

    /// The game a conformance trace starts from, given the trace's header line (JSON
    /// text with ``start`` and ``ram``; see tests/conformance/README.md).
    /// Raises ``InvalidArgument`` for a header that is not one.
    #[staticmethod]
    fn from_trace_header(py: Python<'_>, header: &str) -> PyResult<PyGame> {
        let line = header.lines().next().unwrap_or("");
        let trace = nestris_trace::load_reader("header", line.as_bytes())
            .map_err(|e| invalid_argument(format!("not a trace header: {e}")))?;
        let game = nestris_trace::game_from_header(&trace.header)
            .map_err(|e| invalid_argument(format!("not a trace header: {e}")))?;
        Ok(PyGame::wrap(py, game))
    }

    /// Runs one NES frame with ``buttons`` (a joypad byte, ``nestris.Buttons`` flags)
    /// held, and returns what happened as :class:`Events`.
    #[inline]
    fn step(&mut self, py: Python<'_>, buttons: i64) -> PyResult<PyEvents> {
        let ev = self.game.step(buttons_arg(buttons)?);
        self.refresh_board(py, false);
        Ok(PyEvents {
            flags: ev.flags,
            lines_cleared: u32::from(ev.lines_cleared),
        })
    }

    /// Runs one frame per item of ``inputs`` (joypad bytes: ``bytes`` or a sequence of
    /// ints) and returns the events of all of them combined (flags ORed, lines added).
    /// Runs without the GIL.
    fn run(&mut self, py: Python<'_>, inputs: Vec<i64>) -> PyResult<PyEvents> {
        let bytes = inputs
            .into_iter()
            .map(buttons_arg)
            .collect::<PyResult<Vec<Buttons>>>()?;
        let game = &mut self.game;
        let (flags, lines) = py.detach(|| game.run(&bytes));
        self.refresh_board(py, false);
        Ok(PyEvents {
            flags,
            lines_cleared: lines,
        })
    }

    /// The board: a 20x10 ``uint8`` array owned by the game, updated in place by every
    /// step (0 empty, 1-3 block tiles, 4 other). Copy it to keep it.
    #[getter]
    fn board(&self, py: Python<'_>) -> Py<PyArray2<u8>> {
        self.board.clone_ref(py)
    }

    /// The play screen as a new 240x256x3 ``uint8`` RGB array: the board and the
    /// falling piece as 8x8 squares where the NES shows them, and the next piece.
    fn render<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let arr = PyArray3::<u8>::zeros(py, [HEIGHT, WIDTH, 3], false);
        {
            let mut rw = arr.try_readwrite()?;
            let out = rw
                .as_slice_mut()
                .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
            obs::render(self.game.state(), out);
        }
        Ok(arr)
    }

    /// Every variable of the game, as a :class:`State` (a copy).
    #[getter]
    fn state(&self) -> PyState {
        PyState::of(&self.game)
    }

    /// The encoded state: 421 bytes, stable across versions of the layout.
    fn snapshot<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.game.state().encode())
    }

    /// Puts the game back to a state from :meth:`snapshot`. Raises ``InvalidSnapshot``.
    fn restore(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let game = game_from_bytes(&snapshot_bytes(data)?)?;
        self.set_game(py, game);
        Ok(())
    }

    /// An independent copy of the game (with its own board array).
    fn clone(&self, py: Python<'_>) -> PyGame {
        PyGame::wrap(py, self.game.clone())
    }

    fn __copy__(&self, py: Python<'_>) -> PyGame {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone(py)
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (Bound<'py, PyBytes>, Bound<'py, PyBytes>),
    )> {
        let py = slf.py();
        let ctor = py.get_type::<PyGame>().getattr("_from_state")?;
        let timing = PyBytes::new(py, &slf.borrow().game.state().encode_timing());
        Ok((ctor, (slf.borrow().snapshot(py), timing)))
    }

    /// FNV-1a hash of the encoded state (what replays store).
    fn state_hash(&self) -> u64 {
        self.game.state().state_hash()
    }

    /// The score as a number.
    #[getter]
    fn score(&self) -> u32 {
        score_value(self.game.state().score)
    }

    /// The line count as a number.
    #[getter]
    fn lines(&self) -> u32 {
        lines_value(self.game.state().lines)
    }

    /// The level number.
    #[getter]
    fn level(&self) -> u8 {
        self.game.state().level
    }

    /// Orientation id of the falling piece (0-18; 19 hidden).
    #[getter]
    fn piece(&self) -> u8 {
        self.game.state().piece
    }

    /// Orientation id of the next piece.
    #[getter]
    fn next_piece(&self) -> u8 {
        self.game.state().next_piece
    }

    /// Pivot column of the falling piece.
    #[getter]
    fn x(&self) -> u8 {
        self.game.state().x
    }

    /// Pivot row of the falling piece.
    #[getter]
    fn y(&self) -> u8 {
        self.game.state().y
    }

    /// ``playState``: 1 piece under control, 10 topped out (the curtain), 0 ended.
    #[getter]
    fn play_state(&self) -> u8 {
        self.game.state().play_state
    }

    /// True once the game is no longer in play (topped out, ended, or a B-type win).
    #[getter]
    fn game_over(&self) -> bool {
        self.game.is_over()
    }

    /// How the cartridge crashed, once it would have: ``"halted"`` (its CPU halts at the
    /// broken jump; under ``crash_mode="cartridge"`` the game is then over) or
    /// ``"legal_screen"`` (the jump went into the legal screen's code: the game freezes, then
    /// the demo's buttons play it); else ``None``.
    #[getter]
    fn crashed(&self) -> Option<&'static str> {
        self.game.crashed().map(nestris_core::Crash::name)
    }

    /// The crash mode: ``"cartridge"``, ``"show"``, ``"topout"`` or ``"off"``.
    #[getter]
    fn crash_mode(&self) -> &'static str {
        self.game.crash_mode().name()
    }

    /// The rules, as a label: ``"cartridge"``, or the variant's parts
    /// (``"gym-v5 seed 0A1B2C, ksx2@39, halt@49"``).
    #[getter]
    fn rules(&self) -> String {
        self.game.state().variant.label().as_str().to_owned()
    }

    /// ``"ntsc"`` or ``"pal"``.
    #[getter]
    fn region(&self) -> &'static str {
        self.game.state().region.name()
    }

    /// The playfield page as raw cartridge bytes (256: the 200 cells row by row, then
    /// the rest of page 4; 0xEF is empty).
    fn playfield_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.game.state().playfield.0)
    }

    /// The visible board as 20 strings of 10 characters, top row first, in the trace
    /// notation: ``.`` empty, ``1`` ``2`` ``3`` the block tiles, ``#`` anything else.
    fn board_rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let rows: Vec<String> = self
            .game
            .state()
            .playfield
            .rows()
            .map(|r| {
                r.iter()
                    .map(|t| match obs::KIND[*t as usize] {
                        0 => '.',
                        1 => '1',
                        2 => '2',
                        3 => '3',
                        _ => '#',
                    })
                    .collect()
            })
            .collect();
        PyList::new(py, rows)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGame>()
            .map(|o| o.borrow().game == self.game)
            .unwrap_or(false)
    }

    fn __repr__(&self) -> String {
        let s = self.game.state();
        format!(
            "Game(region={:?}, level={}, score={}, lines={}, piece={}, x={}, y={}, play_state={})",
            s.region.name(),
            s.level,
            score_value(s.score),
            lines_value(s.lines),
            s.piece,
            s.x,
            s.y,
            s.play_state
        )
    }

    #[classattr]
    const SNAPSHOT_LEN: usize = ENCODED_LEN;
}
