//! The coach: the best placements for a position given as JSON, with their inputs.
//!
//! A [`Request`] is a position the way an overlay or a trainer knows it: the field, the
//! current and next piece, level, lines, the player's tap pattern and reaction, and
//! optionally the score. Its fields and their names follow StackRabbit's request
//! (`board`, `currentPiece`, `nextPiece`, `level`, `lines`, `reactionTime`,
//! `inputFrameTimeline`), so a client written for StackRabbit can send the same
//! values; `docs/AI.md` ("The coach") lists what matches and what differs.
//!
//! [`suggest`] builds the [`Game`] of that position (the current piece just spawned on
//! the field), ranks the current piece's placements with [`Search::rank`] (the preview
//! exactly, then every piece the generator may deal after it: the generator's state is
//! not part of a position, so the piece after the preview is weighed, not known), and
//! plays each of the best through [`Game::step`] with the move generator's inputs, so the
//! field, lines, level and score it reports after each placement are the engine's.
//!
//! ```
//! use nestris_ai::coach::{suggest, Request};
//! use nestris_ai::WeightSet;
//!
//! let well = "0".repeat(160) + &"1111111110".repeat(4);
//! let text = format!(r#"{{"board": "{well}", "currentPiece": "I", "nextPiece": "T",
//!                        "level": 18, "lines": 0}}"#);
//! let request = Request::parse(&text).unwrap();
//! let answer = suggest(&request, &WeightSet::default()).unwrap();
//! let best = answer.best.unwrap();
//! assert_eq!((best.cleared, best.x), (4, 9)); // the tetris
//! ```

use crate::board::Board;
use crate::eval::WeightSet;
use crate::inputs::{InputModel, TapPattern};
use crate::movegen::{Placement, Start};
use crate::search::{Progress, Search};
use nestris_core::tables::{ORIENTATION_CELLS, ORIENTATION_TYPE, ROTATE_A, SPAWN_TABLE};
use nestris_core::{bcd, Buttons, CrashMode, FrameEvents, Game, GameSetup, PlayState, Resume};
use serde::Serialize;
use serde_json::{Map, Value};

/// The longest request read, in bytes (a request with every field is under 1 KiB; a
/// board as rows of arrays with spaces a few KiB).
pub const MAX_REQUEST_BYTES: usize = 64 * 1024;

/// Letters of the piece types in the cartridge's order (T J Z O S L I).
pub const PIECE_LETTERS: [char; 7] = ['T', 'J', 'Z', 'O', 'S', 'L', 'I'];

/// StackRabbit's letters for one frame's presses: a direction, a rotation, or both
/// (`E` Left+B, `F` Left+A, `I` Right+B, `G` Right+A); `.` nothing.
const FRAME_LETTERS: [(u8, char); 8] = [
    (Buttons::LEFT.bits(), 'L'),
    (Buttons::RIGHT.bits(), 'R'),
    (Buttons::A.bits(), 'A'),
    (Buttons::B.bits(), 'B'),
    (Buttons::LEFT.bits() | Buttons::B.bits(), 'E'),
    (Buttons::LEFT.bits() | Buttons::A.bits(), 'F'),
    (Buttons::RIGHT.bits() | Buttons::B.bits(), 'I'),
    (Buttons::RIGHT.bits() | Buttons::A.bits(), 'G'),
];

/// Request fields of StackRabbit's that the coach accepts and ignores (search settings
/// of its own engine).
const IGNORED_FIELDS: [&str; 4] = [
    "lookaheadDepth",
    "playoutCount",
    "playoutLength",
    "arrWasReset",
];

/// StackRabbit's fields for a piece already moved; only their spawn values (0) are
/// accepted, since a position here starts at the spawn.
const SPAWN_ONLY_FIELDS: [&str; 4] = [
    "existingXOffset",
    "existingYOffset",
    "existingRotation",
    "existingFramesElapsed",
];

/// StackRabbit's compressed rows: five cells per letter, `a` = 00000 to `F` = 11111.
const BOARD_LETTERS: &str = "abcdefghijklmnopqrstuvwxyzABCDEF";

/// What is wrong with a request, in one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoachError {
    /// Longer than [`MAX_REQUEST_BYTES`].
    #[error("the request is over {MAX_REQUEST_BYTES} bytes")]
    TooLong,
    /// Not JSON, or not one JSON object.
    #[error("the request is not a JSON object: {0}")]
    Json(String),
    /// A field that the request does not have.
    #[error("unknown field {0:?}")]
    UnknownField(String),
    /// A required field is absent.
    #[error("missing field {0:?}")]
    Missing(&'static str),
    /// A field's value is not one the request accepts.
    #[error("{field}: {reason}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// What is wrong, and what is accepted.
        reason: String,
    },
    /// The engine did not put a piece where the move generator said it would (a bug).
    #[error("internal: the inputs of {0} did not lock the piece there")]
    Mismatch(String),
}

fn invalid(field: &'static str, reason: impl Into<String>) -> CoachError {
    CoachError::Invalid {
        field,
        reason: reason.into(),
    }
}

/// A position to answer, validated.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Request {
    /// The field: `cells[row]` bit `c` for column `c`, row 0 at the top.
    pub cells: [u16; 20],
    /// The current piece's type (0..7, T J Z O S L I).
    pub current: u8,
    /// The next piece's type, if known.
    pub next: Option<u8>,
    /// Level (0..=255).
    pub level: u8,
    /// Lines cleared (0..=9999).
    pub lines: u16,
    /// Score before the placement (0..=999,999).
    pub score: u32,
    /// The player's hands: tap pattern and reaction.
    pub model: InputModel,
    /// How many placements to answer (1..=[`Request::MAX_TOP`]).
    pub top: usize,
}

impl Request {
    /// The most placements a request may ask for.
    pub const MAX_TOP: usize = 20;

    /// Reads a request from JSON text (see the module's documentation and `docs/AI.md`).
    pub fn parse(text: &str) -> Result<Request, CoachError> {
        if text.len() > MAX_REQUEST_BYTES {
            return Err(CoachError::TooLong);
        }
        // serde_json limits nesting depth itself, so deep input cannot overflow the stack.
        let value: Value =
            serde_json::from_str(text).map_err(|e| CoachError::Json(e.to_string()))?;
        let Value::Object(map) = value else {
            return Err(CoachError::Json("expected an object {...}".into()));
        };
        Request::from_map(&map)
    }

    fn from_map(map: &Map<String, Value>) -> Result<Request, CoachError> {
        const KNOWN: [&str; 10] = [
            "board",
            "currentPiece",
            "nextPiece",
            "level",
            "lines",
            "score",
            "reactionTime",
            "inputFrameTimeline",
            "tapHz",
            "top",
        ];
        for key in map.keys() {
            let k = key.as_str();
            if !KNOWN.contains(&k)
                && !IGNORED_FIELDS.contains(&k)
                && !SPAWN_ONLY_FIELDS.contains(&k)
            {
                return Err(CoachError::UnknownField(key.chars().take(40).collect()));
            }
        }
        for field in SPAWN_ONLY_FIELDS {
            if let Some(v) = map.get(field) {
                if int(field, v, 0, 0).is_err() {
                    return Err(invalid(
                        field,
                        "only 0 is supported: a position starts at the current piece's spawn",
                    ));
                }
            }
        }
        let cells = board(map.get("board").ok_or(CoachError::Missing("board"))?)?;
        let current = piece(
            "currentPiece",
            map.get("currentPiece")
                .ok_or(CoachError::Missing("currentPiece"))?,
        )?;
        let next = match map.get("nextPiece") {
            None | Some(Value::Null) => None,
            Some(v) => Some(piece("nextPiece", v)?),
        };
        let level = int(
            "level",
            map.get("level").ok_or(CoachError::Missing("level"))?,
            0,
            255,
        )? as u8;
        let lines = int(
            "lines",
            map.get("lines").ok_or(CoachError::Missing("lines"))?,
            0,
            9999,
        )? as u16;
        let score = match map.get("score") {
            None | Some(Value::Null) => 0,
            Some(v) => int("score", v, 0, 999_999)? as u32,
        };
        let reaction = match map.get("reactionTime") {
            None | Some(Value::Null) => 0,
            Some(v) => int("reactionTime", v, 0, 60)? as u8,
        };
        let taps = match (map.get("inputFrameTimeline"), map.get("tapHz")) {
            (Some(_), Some(_)) => {
                return Err(invalid(
                    "tapHz",
                    "give either tapHz or inputFrameTimeline, not both",
                ))
            }
            (Some(t), None) => timeline(t)?,
            (None, Some(hz)) => {
                let n = int("tapHz", hz, 0, 60)?;
                TapPattern::from_hz(n as u32)
                    .ok_or_else(|| invalid("tapHz", format!("{n}: use 30, 20, 15 or 12")))?
            }
            (None, None) => TapPattern::HZ30,
        };
        let top = match map.get("top") {
            None | Some(Value::Null) => 5,
            Some(v) => int("top", v, 1, Request::MAX_TOP as i64)? as usize,
        };
        Ok(Request {
            cells,
            current,
            next,
            level,
            lines,
            score,
            model: InputModel {
                reaction,
                ..InputModel::with_taps(taps)
            },
            top,
        })
    }

    /// The field as a [`Board`].
    pub fn board(&self) -> Board {
        let mut b = Board::empty();
        for (r, &row) in self.cells.iter().enumerate() {
            for c in 0..10 {
                if row & (1 << c) != 0 {
                    b.set(r, c);
                }
            }
        }
        b
    }

    /// The game of the position: an A-type game at the request's level, lines and score
    /// with the field, the current piece just spawned (column 5, row 0, the gravity timer
    /// at 0, nothing held) and the next piece in the preview; music off and no crash model,
    /// so its timing needs no ROM.
    pub fn game(&self) -> Game {
        let mut s = Game::new(GameSetup {
            level: self.level,
            music_type: 3,
            crash_mode: CrashMode::Off,
            ..GameSetup::default()
        })
        .snapshot();
        for r in 0..20 {
            for c in 0..10 {
                // Any tile below the empty one blocks; 0x7B is the T/O/I block's.
                s.playfield.0[r * 10 + c] = if self.cells[r] & (1 << c) != 0 {
                    0x7B
                } else {
                    nestris_core::tables::TILE_EMPTY
                };
            }
        }
        s.piece = SPAWN_TABLE[self.current as usize];
        // With the preview unknown, a stand-in: the search does not read it.
        s.next_piece = SPAWN_TABLE[self.next.unwrap_or(self.current) as usize];
        s.x = 5;
        s.y = 0;
        s.fall_timer = 0;
        s.autorepeat_x = 0;
        s.autorepeat_y = 0;
        s.held = 0;
        s.pressed = 0;
        s.level = self.level;
        s.lines = lines_bcd(self.lines);
        s.score = score_bcd(self.score);
        s.game_mode_state = 2;
        s.resume = Resume::MainLoop;
        Game::from_snapshot(s).expect("a spawn position from a fresh game's state is valid")
    }
}

/// An integer field within `lo..=hi`.
fn int(field: &'static str, v: &Value, lo: i64, hi: i64) -> Result<i64, CoachError> {
    let n = match v {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                .map(|f| f as i64)
        }),
        // StackRabbit's requests are URL parameters: numbers as text are accepted too.
        Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    match n {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        Some(n) => Err(invalid(field, format!("{n} is out of range {lo}..={hi}"))),
        None => Err(invalid(field, format!("expected an integer {lo}..={hi}"))),
    }
}

/// A piece letter (T J Z O S L I, either case) as its type.
fn piece(field: &'static str, v: &Value) -> Result<u8, CoachError> {
    let bad = || invalid(field, "expected one of the letters T J Z O S L I");
    let Value::String(s) = v else {
        return Err(bad());
    };
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => PIECE_LETTERS
            .iter()
            .position(|&p| p == c.to_ascii_uppercase())
            .map(|i| i as u8)
            .ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// A StackRabbit input frame timeline (`X` a frame that may press, `.` or `-` one that
/// may not, repeating) as a [`TapPattern`], or its Hz shorthand (`"30hz"`).
fn timeline(v: &Value) -> Result<TapPattern, CoachError> {
    const FIELD: &str = "inputFrameTimeline";
    let Value::String(s) = v else {
        return Err(invalid(
            FIELD,
            "expected a string such as \"X.\" or \"X.X..\"",
        ));
    };
    TapPattern::parse(s).map_err(|e| invalid(FIELD, e.to_string()))
}

/// The board in one of its three forms: 200 characters `0`/`1` (rows top to bottom),
/// StackRabbit's compressed string (`empty rows,letters,full right-well rows`), or an
/// array of 20 rows, each 10 characters `0`/`1` or an array of 10 numbers 0/1.
fn board(v: &Value) -> Result<[u16; 20], CoachError> {
    const FIELD: &str = "board";
    let mut cells = [0u16; 20];
    match v {
        Value::String(s) if s.contains(',') => return compressed(s),
        Value::String(s) => {
            if s.len() != 200 {
                return Err(invalid(
                    FIELD,
                    format!(
                        "a board string has 200 characters 0/1 (20 rows of 10, top to \
                         bottom), got {}",
                        s.chars().count()
                    ),
                ));
            }
            for (i, ch) in s.bytes().enumerate() {
                cells[i / 10] |= cell(ch)? << (i % 10);
            }
        }
        Value::Array(rows) => {
            if rows.len() != 20 {
                return Err(invalid(
                    FIELD,
                    format!("a board array has 20 rows, got {}", rows.len()),
                ));
            }
            for (r, row) in rows.iter().enumerate() {
                let bits: Vec<u16> = match row {
                    Value::String(s) => s.bytes().map(cell).collect::<Result<_, _>>()?,
                    Value::Array(a) => a
                        .iter()
                        .map(|c| match c.as_u64() {
                            Some(0) => Ok(0),
                            Some(1) => Ok(1),
                            _ => Err(invalid(FIELD, format!("row {r}: cells are 0 or 1"))),
                        })
                        .collect::<Result<_, _>>()?,
                    _ => {
                        return Err(invalid(
                            FIELD,
                            format!("row {r}: a string of 10 characters 0/1 or 10 numbers 0/1"),
                        ))
                    }
                };
                if bits.len() != 10 {
                    return Err(invalid(
                        FIELD,
                        format!("row {r} has {} cells, not 10", bits.len()),
                    ));
                }
                for (c, b) in bits.into_iter().enumerate() {
                    cells[r] |= b << c;
                }
            }
        }
        _ => {
            return Err(invalid(
                FIELD,
                "expected a string of 200 characters 0/1 or an array of 20 rows",
            ))
        }
    }
    Ok(cells)
}

fn cell(ch: u8) -> Result<u16, CoachError> {
    match ch {
        b'0' => Ok(0),
        b'1' => Ok(1),
        _ => Err(invalid("board", "cells are the characters 0 and 1")),
    }
}

/// StackRabbit's compressed board: `E,LETTERS,W` with E empty rows on top, two letters per
/// row (five cells each, the left half first) and W rows full but for column 9 at the bottom.
fn compressed(s: &str) -> Result<[u16; 20], CoachError> {
    let bad = |why: String| invalid("board", format!("compressed board {why}"));
    let parts: Vec<&str> = s.split(',').collect();
    let [empty, letters, wells] = parts[..] else {
        return Err(bad("has three parts: empty rows,letters,well rows".into()));
    };
    let count = |t: &str| t.trim().parse::<usize>().ok().filter(|&n| n <= 20);
    let (Some(empty), Some(wells)) = (count(empty), count(wells)) else {
        return Err(bad("row counts are numbers 0..=20".into()));
    };
    if letters.len() % 2 != 0 || !letters.bytes().all(|b| BOARD_LETTERS.contains(b as char)) {
        return Err(bad("rows are pairs of letters a-z A-F".into()));
    }
    let rows = empty + letters.len() / 2 + wells;
    if rows != 20 {
        return Err(bad(format!("has {rows} rows, not 20")));
    }
    let mut cells = [0u16; 20];
    for (i, pair) in letters.as_bytes().chunks(2).enumerate() {
        let half = |b: u8| BOARD_LETTERS.find(b as char).unwrap_or(0) as u16;
        // Five bits each, the highest bit the leftmost column.
        let bits = (half(pair[0]) << 5) | half(pair[1]);
        let mut row = 0;
        for c in 0..10 {
            if bits & (1 << (9 - c)) != 0 {
                row |= 1 << c;
            }
        }
        cells[empty + i] = row;
    }
    for row in cells.iter_mut().skip(20 - wells) {
        *row = 0x1FF;
    }
    Ok(cells)
}

fn lines_bcd(lines: u16) -> [u8; 2] {
    let byte = |n: u16| (((n / 10) << 4) | (n % 10)) as u8;
    [byte(lines % 100), byte(lines / 100)]
}

fn score_bcd(score: u32) -> [u8; 3] {
    let byte = |n: u32| (((n / 10) << 4) | (n % 10)) as u8;
    [
        byte(score % 100),
        byte(score / 100 % 100),
        byte(score / 10_000),
    ]
}

/// The answer to a request.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    /// The best placement (`moves[0]`), or `None` when the piece has none.
    pub best: Option<Move>,
    /// The best placements, best first (at most the request's `top`).
    pub moves: Vec<Move>,
    /// Why there is no placement, when there is none.
    pub no_placement: Option<String>,
    /// Pieces the values weigh: 3 with the preview known (current, preview, and every piece
    /// that may follow), 2 without.
    pub depth: u8,
}

/// One placement of the current piece, its inputs and what it leaves.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Move {
    /// StackRabbit's `[rotation, xOffset, yOffset]`: clockwise (A) turns from the spawn
    /// orientation, columns and rows moved from the spawn.
    pub placement: [i32; 3],
    /// The preview piece's placement in the line this value comes from, in the same form.
    pub second_placement: Option<[i32; 3]>,
    /// The piece's letter.
    pub piece: char,
    /// The cartridge's orientation id (0..19) at the lock.
    pub orientation: u8,
    /// Pivot column (`tetriminoX`).
    pub x: u8,
    /// Pivot row (`tetriminoY`).
    pub y: u8,
    /// The four cells it fills, `[row, column]`, row 0 at the top.
    pub cells: [[u8; 2]; 4],
    /// The value of the best line from it (higher is better; only comparable within one
    /// answer); `None` when every line tops out.
    pub value: Option<f64>,
    /// The joypad byte of every frame from the spawn until the frame it locks in.
    pub inputs: Vec<u8>,
    /// The same frames in StackRabbit's letters (`.` nothing, `L` `R` `A` `B`, `E` L+B,
    /// `F` L+A, `I` R+B, `G` R+A, `D` Down).
    pub input_sequence: String,
    /// The presses for a person: each tap's buttons and its frame, e.g. `L+A@0 L@2`.
    pub inputs_text: String,
    /// Frames from the spawn to the lock (the length of `inputs`).
    pub frames: usize,
    /// Rows it clears.
    pub cleared: u8,
    /// The field after it, 200 characters `0`/`1` (rows cleared), as StackRabbit's
    /// `get-move` gives it.
    pub resulting_board: String,
    /// Lines after it.
    pub lines: u32,
    /// Level after it.
    pub level: u8,
    /// Score after it.
    pub score: u32,
}

/// Answers `request` with `weights` (see the module's documentation): the set of the
/// request's bracket (its level: base before 19, `level19`, `level29` from 29), as a game
/// played with the same file weighs that position.
pub fn suggest(request: &Request, weights: &WeightSet) -> Result<Answer, CoachError> {
    let game = request.game();
    let start = Start::from_game(&game).expect("a spawn position is under control");
    let spawn = SPAWN_TABLE[request.current as usize];
    let depth = if request.next.is_some() { 3 } else { 2 };
    let none = |why: &str| Answer {
        best: None,
        moves: Vec::new(),
        no_placement: Some(why.into()),
        depth,
    };
    if !start.board.fits(spawn, 5, 0) {
        return Ok(none(
            "the current piece cannot spawn: the field blocks it (the game is over)",
        ));
    }
    let mut search = Search::new(*weights, request.model);
    let progress = Progress {
        level: request.level,
        lines: game.state().lines,
    };
    let next = request.next.map(|n| SPAWN_TABLE[n as usize]);
    // The answer's moves all get the deeper search, so that their values compare.
    let deep = DEEP.max(request.top);
    let ranked = search.rank(&start, next, progress, deep);
    if ranked.is_empty() {
        return Ok(none("every placement of the current piece tops out"));
    }
    let mut moves = Vec::new();
    for r in ranked.iter().take(request.top) {
        let inputs = without_idle_presses(
            &game,
            &request.model,
            r.placement,
            search.movegen().inputs(&r.placement),
        );
        moves.push(play(&game, r.placement, r.value, r.next, &inputs)?);
    }
    Ok(Answer {
        best: moves.first().cloned(),
        moves,
        no_placement: None,
        depth,
    })
}

/// How many placements get the three-piece search at least ([`Search::rank`]'s `deep`).
const DEEP: usize = 8;

/// [`suggest`] from request text to answer text (one line of JSON): what the command line
/// and Python call.
pub fn suggest_json(text: &str, weights: &WeightSet) -> Result<String, CoachError> {
    let answer = suggest(&Request::parse(text)?, weights)?;
    Ok(serde_json::to_string(&answer).expect("an answer serializes"))
}

/// Plays `inputs` on `game` and the frames up to the next spawn, and describes the move.
fn play(
    game: &Game,
    p: Placement,
    value: f32,
    second: Option<Placement>,
    inputs: &[Buttons],
) -> Result<Move, CoachError> {
    let mut g = game.clone();
    let mut cleared = 0;
    for &b in inputs {
        g.step(b);
    }
    let s = g.state();
    let placed = format!("orientation {} at ({}, {})", p.o, p.x, p.y);
    if s.phase() != PlayState::Lock || (s.piece, s.x, s.y) != (p.o, p.x, p.y) {
        return Err(CoachError::Mismatch(placed));
    }
    // Up to the next spawn, to read the field after the clear and the new lines, level
    // and score (the entry delay is at most a few dozen frames).
    for _ in 0..400 {
        let ev = g.step(Buttons::NONE);
        cleared = cleared.max(ev.lines_cleared);
        if ev.has(FrameEvents::SPAWNED) || ev.has(FrameEvents::TOPPED_OUT) {
            break;
        }
    }
    let s = g.state();
    let mut resulting_board = String::with_capacity(200);
    for i in 0..200 {
        let blocked = s.playfield.0[i] < nestris_core::tables::TILE_EMPTY;
        resulting_board.push(if blocked { '1' } else { '0' });
    }
    let cells = ORIENTATION_CELLS[p.o as usize]
        .map(|(dr, dc)| [(p.y as i8 + dr) as u8, (p.x as i8 + dc) as u8]);
    let kind = ORIENTATION_TYPE[p.o as usize];
    let lines = s.lines;
    Ok(Move {
        placement: stackrabbit_placement(p),
        second_placement: second.map(stackrabbit_placement),
        piece: PIECE_LETTERS[kind as usize],
        orientation: p.o,
        x: p.x,
        y: p.y,
        cells,
        value: value.is_finite().then_some(round2(value)),
        inputs: inputs.iter().map(|b| b.bits()).collect(),
        input_sequence: inputs.iter().map(|b| frame_letter(b.bits())).collect(),
        inputs_text: taps_text(inputs),
        frames: inputs.len(),
        cleared,
        resulting_board,
        lines: bcd::bcd_value(lines[1]) * 100 + bcd::bcd_value(lines[0]),
        level: s.level,
        score: bcd::score_value(s.score),
    })
}

/// `inputs` without the presses that change nothing: the move generator's path to a
/// placement may press a rotation that fails, a direction into a wall, or a direction and
/// then its opposite (the search keeps the first path it finds, not the one with the
/// fewest presses), which a person should not be told to do. A press, one button of it,
/// or two presses together are dropped when the piece still locks in the same place on
/// the same frame, played on the engine, and the taps left still follow the tap pattern
/// (a dropped tap moves the later ones up the pattern's table).
fn without_idle_presses(
    game: &Game,
    model: &InputModel,
    p: Placement,
    mut inputs: Vec<Buttons>,
) -> Vec<Buttons> {
    let locks_there = |inputs: &[Buttons]| {
        let bits: Vec<u8> = inputs.iter().map(|b| b.bits()).collect();
        if crate::taps::TapClock::check(model.taps, model.reaction, game.state().held, &bits)
            .is_err()
        {
            return false;
        }
        let mut g = game.clone();
        for (f, &b) in inputs.iter().enumerate() {
            g.step(b);
            let s = g.state();
            if s.phase() != PlayState::Control {
                return f + 1 == inputs.len()
                    && s.phase() == PlayState::Lock
                    && (s.piece, s.x, s.y) == (p.o, p.x, p.y);
            }
        }
        false
    };
    // Each try clears some buttons in some frames; kept when the piece still locks there.
    let attempt = |inputs: &mut Vec<Buttons>, clear: &[(usize, u8)]| {
        let before = inputs.clone();
        for &(f, bits) in clear {
            inputs[f] = Buttons(inputs[f].bits() & !bits);
        }
        let kept = locks_there(inputs);
        if !kept {
            *inputs = before;
        }
        kept
    };
    let taps = |inputs: &[Buttons]| -> Vec<usize> {
        (0..inputs.len())
            .filter(|&f| inputs[f].bits() != 0)
            .collect()
    };
    for f in taps(&inputs).into_iter().rev() {
        let bits = inputs[f].bits();
        if !attempt(&mut inputs, &[(f, bits)]) {
            for b in (0..8)
                .map(|i| 1u8 << i)
                .filter(|b| bits & b != 0 && *b != bits)
            {
                attempt(&mut inputs, &[(f, b)]);
            }
        }
    }
    // Pairs: a shift and its undoing (also when a turn shares a frame with either), two
    // turns that cancel.
    const DIRECTIONS: u8 = Buttons::LEFT.bits() | Buttons::RIGHT.bits();
    'pairs: loop {
        let t = taps(&inputs);
        for (i, &a) in t.iter().enumerate() {
            for &b in &t[i + 1..] {
                let (x, y) = (inputs[a].bits(), inputs[b].bits());
                let clear = [(a, x), (b, y)];
                if attempt(&mut inputs, &clear) {
                    continue 'pairs;
                }
                let shifts = [(a, x & DIRECTIONS), (b, y & DIRECTIONS)];
                if x & DIRECTIONS != 0
                    && y & DIRECTIONS != 0
                    && (x != x & DIRECTIONS || y != y & DIRECTIONS)
                    && attempt(&mut inputs, &shifts)
                {
                    continue 'pairs;
                }
            }
        }
        break;
    }
    inputs
}

/// A value rounded to two decimals (StackRabbit prints its own with two).
fn round2(v: f32) -> f64 {
    (v as f64 * 100.0).round() / 100.0
}

/// `[rotation, xOffset, yOffset]` as StackRabbit gives a placement: its rotation index
/// counts clockwise turns from the spawn orientation, and its offsets are the pivot's
/// moves from the spawn (column 5, row 0).
pub fn stackrabbit_placement(p: Placement) -> [i32; 3] {
    let spawn = SPAWN_TABLE[ORIENTATION_TYPE[p.o as usize] as usize];
    let mut o = spawn;
    let mut turns = 0;
    while o != p.o && turns < 4 {
        o = ROTATE_A[o as usize];
        turns += 1;
    }
    [turns, p.x as i32 - 5, p.y as i32]
}

fn frame_letter(bits: u8) -> char {
    if bits == 0 {
        return '.';
    }
    if bits & Buttons::DOWN.bits() != 0 {
        return 'D';
    }
    FRAME_LETTERS
        .iter()
        .find(|(b, _)| *b == bits)
        .map_or('?', |(_, c)| *c)
}

/// Each frame in which a button goes down, as `BUTTONS@FRAME`, e.g. `L+A@0 L@2 L@4`.
fn taps_text(inputs: &[Buttons]) -> String {
    const NAMES: [(u8, &str); 5] = [
        (0x02, "L"), // Left
        (0x01, "R"), // Right
        (0x04, "D"), // Down
        (0x80, "A"),
        (0x40, "B"),
    ];
    let mut held = 0u8;
    let mut taps = Vec::new();
    for (f, b) in inputs.iter().enumerate() {
        let pressed = b.bits() & !held;
        held = b.bits();
        if pressed != 0 {
            let names: Vec<&str> = NAMES
                .iter()
                .filter(|(bit, _)| pressed & bit != 0)
                .map(|(_, n)| *n)
                .collect();
            taps.push(format!("{}@{f}", names.join("+")));
        }
    }
    if taps.is_empty() {
        "no input: it falls in place".into()
    } else {
        taps.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::Region;

    fn request(extra: &str) -> String {
        let well = "0".repeat(160) + &"1111111110".repeat(4);
        format!(
            r#"{{"board": "{well}", "currentPiece": "I", "nextPiece": "T", "level": 18, "lines": 0{extra}}}"#
        )
    }

    #[test]
    fn the_i_piece_takes_the_tetris_and_its_inputs_put_it_there() {
        let r = Request::parse(&request("")).unwrap();
        let a = suggest(&r, &WeightSet::default()).unwrap();
        let best = a.best.unwrap();
        assert_eq!(
            (best.orientation, best.x, best.y, best.cleared),
            (17, 9, 18, 4)
        );
        assert_eq!(best.placement, [1, 4, 18]);
        assert_eq!(best.cells, [[16, 9], [17, 9], [18, 9], [19, 9]]);
        assert_eq!(best.resulting_board, "0".repeat(200));
        assert_eq!((best.lines, best.level, best.score), (4, 18, 1200 * 19));
        // Four taps right and one A.
        let seq = &best.input_sequence;
        let count = |set: &str| seq.chars().filter(|c| set.contains(*c)).count();
        assert_eq!((count("RGI"), count("AGF")), (4, 1), "{seq}");
        assert_eq!(
            best.inputs_text.matches('R').count(),
            4,
            "{}",
            best.inputs_text
        );
        assert_eq!(best.frames, best.inputs.len());
        assert_eq!(a.moves.len(), 5);
        assert!(a.moves.windows(2).all(|w| w[0].value >= w[1].value));
        assert_eq!(a.depth, 3);
    }

    #[test]
    fn every_answered_move_locks_where_it_says_under_each_tap_rate_and_reaction() {
        let field = "0".repeat(140)
            + "0000000000"
            + "1000000100"
            + "1100011100"
            + "1110111110"
            + "1111111010"
            + "1111111110";
        for (timeline, reaction) in [
            ("X.", 0),
            ("X..", 12),
            ("X...", 18),
            ("X....", 0),
            ("X.X..", 0),
            (".X..X.", 6),
        ] {
            for piece in PIECE_LETTERS {
                let text = format!(
                    r#"{{"board": "{field}", "currentPiece": "{piece}", "level": 19, "lines": 137,
                        "inputFrameTimeline": "{timeline}", "reactionTime": {reaction}, "top": 20}}"#
                );
                let r = Request::parse(&text).unwrap();
                // `play` checks each move on the engine and fails with `Mismatch` otherwise.
                let a = suggest(&r, &WeightSet::default()).unwrap();
                assert!(!a.moves.is_empty());
                for m in &a.moves {
                    // Taps only where the pattern allows them (the answer's inputs never
                    // hold a button, so each press is a tap).
                    let pattern = TapPattern::parse(timeline).unwrap();
                    assert_eq!(
                        crate::taps::TapClock::check(pattern, reaction as u8, 0, &m.inputs),
                        Ok(()),
                        "{timeline} {}",
                        m.inputs_text
                    );
                }
            }
        }
    }

    #[test]
    fn a_placement_reached_without_moving_is_answered_without_presses() {
        let well = "0".repeat(160) + &"1111111110".repeat(4);
        let text = format!(
            r#"{{"board": "{well}", "currentPiece": "S", "level": 29, "lines": 230,
                "inputFrameTimeline": "X...", "top": 20}}"#
        );
        let a = suggest(&Request::parse(&text).unwrap(), &WeightSet::default()).unwrap();
        let straight = a
            .moves
            .iter()
            .find(|m| (m.orientation, m.x) == (11, 5))
            .unwrap();
        assert!(
            straight.inputs.iter().all(|&b| b == 0),
            "{}",
            straight.inputs_text
        );
        assert_eq!(straight.inputs_text, "no input: it falls in place");
        assert_eq!(straight.placement, [0, 0, 14]);
    }

    #[test]
    fn the_game_is_the_position_at_the_spawn() {
        let r = Request::parse(&request(r#", "score": 123456"#)).unwrap();
        let g = r.game();
        let start = Start::from_game(&g).unwrap();
        assert_eq!(start, Start::spawn(r.board(), 18, 18, Region::Ntsc));
        let s = g.state();
        assert_eq!(
            (s.next_piece, s.level, s.lines, s.score),
            (2, 18, [0, 0], [0x56, 0x34, 0x12])
        );
    }

    #[test]
    fn boards_read_in_all_three_forms_alike() {
        let flat = "0".repeat(180) + "1000000001" + "1111111110";
        let rows: Vec<String> = (0..20)
            .map(|r| format!("\"{}\"", &flat[r * 10..r * 10 + 10]))
            .collect();
        let arrays: Vec<String> = (0..20)
            .map(|r| {
                let cells: Vec<&str> = flat[r * 10..r * 10 + 10]
                    .chars()
                    .map(|c| if c == '1' { "1" } else { "0" })
                    .collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        // Row 18: 10000 00001 = letters q, b; one right-well row.
        let forms = [
            format!("\"{flat}\""),
            format!("[{}]", rows.join(",")),
            format!("[{}]", arrays.join(",")),
            "\"18,qb,1\"".to_string(),
        ];
        let read = |b: &str| {
            Request::parse(&format!(
                r#"{{"board": {b}, "currentPiece": "t", "level": 18, "lines": 0}}"#
            ))
            .map(|r| r.cells)
        };
        let first = read(&forms[0]).unwrap();
        assert_eq!(first[19], 0x1FF);
        assert_eq!(first[18], 0x201);
        for f in &forms[1..] {
            assert_eq!(read(f).unwrap(), first, "{f}");
        }
    }

    #[test]
    fn bad_requests_say_what_is_wrong_in_one_line() {
        let cases = [
            ("[1, 2]".to_string(), "not a JSON object"),
            ("{".to_string(), "not a JSON object"),
            (r#"{"board": "0101"}"#.to_string(), "200 characters"),
            (
                request(r#", "level": 256"#).replace(r#""level": 18, "#, ""),
                "out of range",
            ),
            (request("").replace(r#""I""#, r#""X""#), "T J Z O S L I"),
            (
                request(r#", "inputFrameTimeline": "X.X""#),
                "one frame apart",
            ),
            (request(r#", "inputFrameTimeline": 2"#), "expected a string"),
            (request(r#", "tapHz": 17"#), "use 30, 20, 15 or 12"),
            (request(r#", "existingXOffset": 2"#), "only 0"),
            (request(r#", "frobnicate": 1"#), "unknown field"),
            (request(r#", "reactionTime": 300"#), "out of range"),
            (
                request("").replace(r#""lines": 0"#, r#""lines": -1"#),
                "out of range",
            ),
            (
                r#"{"currentPiece": "T", "level": 18, "lines": 0}"#.to_string(),
                "missing field \"board\"",
            ),
            ("\"18,qb,2\"".to_string(), "not a JSON object"),
            (" ".repeat(MAX_REQUEST_BYTES + 1), "over"),
        ];
        for (text, needle) in cases {
            let e = Request::parse(&text).unwrap_err().to_string();
            assert!(e.contains(needle), "{text:.80}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let e =
            Request::parse(r#"{"board": "18,qb,2", "currentPiece": "T", "level": 18, "lines": 0}"#)
                .unwrap_err();
        assert!(e.to_string().contains("21 rows"), "{e}");
    }

    #[test]
    fn the_request_level_picks_the_weights_bracket() {
        let well = "0".repeat(160) + &"1111111110".repeat(4);
        let at = |level: u8, lines: u16, set: &WeightSet| {
            let text = format!(
                r#"{{"board": "{well}", "currentPiece": "I", "nextPiece": "T",
                    "level": {level}, "lines": {lines}}}"#
            );
            suggest(&Request::parse(&text).unwrap(), set)
                .unwrap()
                .best
                .unwrap()
                .value
        };
        let plain = WeightSet::default();
        let mut killscreen = plain;
        let mut richer = plain.base;
        richer.tetris += 1000.0;
        killscreen.set(crate::Bracket::Level29, richer);
        // Level 18 is weighed with the base set alone; level 29 with its own table.
        assert_eq!(at(18, 0, &plain), at(18, 0, &killscreen));
        let (before, after) = (
            at(29, 230, &plain).unwrap(),
            at(29, 230, &killscreen).unwrap(),
        );
        assert!(after > before + 500.0, "{before} -> {after}");
    }

    #[test]
    fn a_piece_that_cannot_spawn_has_no_placement() {
        let blocked = "1111111110".repeat(20);
        let text =
            format!(r#"{{"board": "{blocked}", "currentPiece": "T", "level": 18, "lines": 0}}"#);
        let a = suggest(&Request::parse(&text).unwrap(), &WeightSet::default()).unwrap();
        assert!(a.best.is_none() && a.moves.is_empty());
        assert!(a.no_placement.unwrap().contains("cannot spawn"));
        let json = suggest_json(&text, &WeightSet::default()).unwrap();
        assert!(json.contains(r#""best":null"#), "{json}");
    }

    #[test]
    fn placements_read_as_stackrabbit_writes_them() {
        let at = |o: u8, x: u8, y: u8| {
            let mut gen = crate::MoveGen::new();
            let start = Start::spawn(Board::empty(), o, 18, Region::Ntsc);
            let p = *gen
                .generate(&start, &InputModel::hz30())
                .iter()
                .find(|p| (p.o, p.x) == (o, x))
                .unwrap();
            assert_eq!(p.y, y);
            stackrabbit_placement(p)
        };
        // The spawn orientations, dropped straight: T down, I flat.
        assert_eq!(at(2, 5, 18), [0, 0, 18]);
        assert_eq!(at(18, 5, 19), [0, 0, 19]);
        // T: one A from the spawn is T left (id 3), three are T right (id 1).
        let mut gen = crate::MoveGen::new();
        let start = Start::spawn(Board::empty(), 2, 18, Region::Ntsc);
        let ps = gen.generate(&start, &InputModel::hz30()).to_vec();
        let left = ps.iter().find(|p| p.o == 3 && p.x == 1).unwrap();
        assert_eq!(stackrabbit_placement(*left), [1, -4, 18]);
        let right = ps.iter().find(|p| p.o == 1 && p.x == 8).unwrap();
        assert_eq!(stackrabbit_placement(*right), [3, 3, 18]);
    }
}
