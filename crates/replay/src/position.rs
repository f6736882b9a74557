//! Position files: a [`Position`] (the board editor's) as a small text file a person can
//! read and write by hand.
//!
//! ```text
//! # nestris position: the field's rows top first (. empty, # or 1-3 a block)
//! current T
//! next I
//! level 18
//! lines 0
//! ..........
//! ##.#######
//! ```
//!
//! - `key value` lines: `current` and `next` (a piece letter, T J Z O S L I), `level`
//!   (0-29), `lines` (0-999), `seed` (six hex digits, a TetrisGYM seed, or `none`). Each
//!   at most once; one left out keeps its default (T, I, 18, 0, none).
//! - Rows: ten characters each, `.` an empty cell, `#` (or `1`) a block, `2` and `3` a
//!   block of the level's other two colours. Up to 20; fewer are the bottom of the field.
//! - Lines starting with `# ` (or a lone `#`) are comments; blank lines are skipped.
//!
//! Reading is bounded ([`MAX_POSITION_BYTES`]) and an error is one line naming the file
//! line; writing is atomic ([`save_position`]).

use std::io::Read as _;
use std::path::{Path, PathBuf};

use nestris_core::position::{Piece, Position, COLS, MAX_LEVEL, MAX_LINES, ROWS};
use nestris_core::{GymSeed, SeedRule};

/// The largest position file read: a full one is about 300 bytes; comments are allowed
/// generously, anything larger is not a position.
pub const MAX_POSITION_BYTES: u64 = 16 * 1024;

/// Why a position file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PositionError {
    /// The file could not be opened or read.
    #[error("cannot read {}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file is larger than [`MAX_POSITION_BYTES`].
    #[error("{}: larger than {} KiB, not a position file", path.display(), MAX_POSITION_BYTES >> 10)]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The text is not a position.
    #[error("{}: {error}", path.display())]
    Text {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: TextError,
    },
}

/// What is wrong with a position's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Not UTF-8.
    #[error("not text (not UTF-8)")]
    NotText,
    /// A line that says something the format does not.
    #[error("line {line}: {what}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong, in a few words.
        what: String,
    },
}

/// The glyphs of a cell's colour 0-3 when written.
const GLYPHS: [char; 4] = ['.', '#', '2', '3'];

/// Reads a position from its text.
pub fn parse_position(text: &str) -> Result<Position, TextError> {
    let mut p = Position::default();
    let mut rows: Vec<[u8; COLS]> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let bad = |what: String| TextError::Line { line, what };
        let l = raw.trim();
        if l.is_empty() || l == "#" || l.starts_with("# ") {
            continue;
        }
        if let Some(row) = parse_row(l) {
            if rows.len() == ROWS {
                return Err(bad(format!("more than {ROWS} rows")));
            }
            rows.push(row);
            continue;
        }
        let (key, value) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
        let value = value.trim();
        let key = key.to_ascii_lowercase();
        let key = match ["current", "next", "level", "lines", "seed"]
            .into_iter()
            .find(|k| *k == key)
        {
            Some(k) => k,
            None if l.chars().count() == COLS => {
                return Err(bad(
                    "a row takes . (empty), # or 1-3 (a block) only".to_string()
                ))
            }
            None => {
                return Err(bad(format!(
                    "{:?} is neither a row of ten cells nor current, next, level, lines or seed",
                    cut(l)
                )))
            }
        };
        if seen.contains(&key) {
            return Err(bad(format!("{key} is given twice")));
        }
        seen.push(key);
        match key {
            "current" | "next" => {
                let mut chars = value.chars();
                let piece = match (chars.next().and_then(Piece::from_letter), chars.next()) {
                    (Some(piece), None) => piece,
                    _ => {
                        return Err(bad(format!(
                            "{key} {:?}: a piece letter, T J Z O S L or I",
                            cut(value)
                        )))
                    }
                };
                if key == "current" {
                    p.current = piece;
                } else {
                    p.next = piece;
                }
            }
            "level" => {
                p.level = match value.parse::<u8>() {
                    Ok(n) if n <= MAX_LEVEL => n,
                    _ => return Err(bad(format!("level {:?}: 0 to {MAX_LEVEL}", cut(value)))),
                };
            }
            "lines" => {
                p.lines = match value.parse::<u16>() {
                    Ok(n) if n <= MAX_LINES => n,
                    _ => return Err(bad(format!("lines {:?}: 0 to {MAX_LINES}", cut(value)))),
                };
            }
            _ => {
                p.seed = if value.eq_ignore_ascii_case("none") {
                    None
                } else {
                    let n = (value.len() == 6)
                        .then(|| u32::from_str_radix(value, 16).ok())
                        .flatten();
                    match n.and_then(|n| GymSeed::new(n, SeedRule::V5)) {
                        Some(seed) => Some(seed),
                        None => {
                            return Err(bad(format!(
                                "seed {:?}: six hex digits (or none)",
                                cut(value)
                            )))
                        }
                    }
                };
            }
        }
    }
    // The rows given are the bottom of the field.
    let top = ROWS - rows.len();
    for (i, row) in rows.into_iter().enumerate() {
        p.cells[top + i] = row;
    }
    Ok(p)
}

/// A row of ten cells, if `l` is one.
fn parse_row(l: &str) -> Option<[u8; COLS]> {
    let bytes = l.as_bytes();
    if bytes.len() != COLS {
        return None;
    }
    let mut row = [0; COLS];
    for (cell, &b) in row.iter_mut().zip(bytes) {
        *cell = match b {
            b'.' => 0,
            b'#' | b'1' => 1,
            b'2' => 2,
            b'3' => 3,
            _ => return None,
        };
    }
    Some(row)
}

/// At most 20 characters of what a user wrote, for a message.
fn cut(s: &str) -> String {
    s.chars().take(20).collect()
}

/// The text of a position, as [`parse_position`] reads it back.
pub fn position_text(p: &Position) -> String {
    let mut out = String::from(
        "# nestris position: the field's rows top first (. empty, # or 1-3 a block)\n",
    );
    out += &format!(
        "current {}\nnext {}\nlevel {}\nlines {}\n",
        p.current.letter(),
        p.next.letter(),
        p.level,
        p.lines
    );
    if let Some(seed) = p.seed {
        out += &format!("seed {:06X}\n", seed.value());
    }
    for row in &p.cells {
        out.extend(row.iter().map(|&c| GLYPHS[usize::from(c.min(3))]));
        out.push('\n');
    }
    out
}

/// Reads the position file at `path` (at most [`MAX_POSITION_BYTES`]).
pub fn load_position(path: &Path) -> Result<Position, PositionError> {
    let io = |error| PositionError::Io {
        path: path.to_path_buf(),
        error,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_POSITION_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_POSITION_BYTES {
        return Err(PositionError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    let text = |error| PositionError::Text {
        path: path.to_path_buf(),
        error,
    };
    let s = std::str::from_utf8(&bytes).map_err(|_| text(TextError::NotText))?;
    parse_position(s).map_err(text)
}

/// Writes `p` to `path` atomically (a crash leaves the old file or the new one whole).
pub fn save_position(path: &Path, p: &Position) -> std::io::Result<()> {
    crate::write_atomically(path, position_text(p).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Position {
        let mut p = Position {
            current: Piece::S,
            next: Piece::L,
            level: 29,
            lines: 230,
            seed: GymSeed::new(0x0ABC12, SeedRule::V5),
            ..Position::default()
        };
        for row in 12..20 {
            p.fill_row(row, 9, 1 + (row % 3) as u8);
        }
        p.set(0, 0, 3);
        p
    }

    #[test]
    fn a_position_round_trips_through_its_text_and_its_file() {
        let p = sample();
        let text = position_text(&p);
        assert!(text.contains("current S\nnext L\nlevel 29\nlines 230\nseed 0ABC12\n"));
        assert!(text.contains("\n3.........\n"), "{text}");
        assert!(text.contains("\n#########.\n222222222.\n"), "{text}");
        assert_eq!(parse_position(&text), Ok(p));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        save_position(&path, &p).unwrap();
        assert_eq!(load_position(&path).unwrap(), p);
        let d = Position::default();
        assert_eq!(parse_position(&position_text(&d)), Ok(d));
    }

    #[test]
    fn a_hand_written_file_gives_the_bottom_rows_and_keeps_defaults() {
        let text = "# a tetris ready stack\r\n\nLEVEL 19\ncurrent i\n\n##.#######\r\n#########.\n";
        let p = parse_position(text).unwrap();
        assert_eq!(
            (p.current, p.next, p.level, p.lines),
            (Piece::I, Piece::I, 19, 0)
        );
        assert_eq!(p.cells[18], [1, 1, 0, 1, 1, 1, 1, 1, 1, 1]);
        assert_eq!(p.cells[19][9], 0);
        assert!(p.cells[..18].iter().flatten().all(|&c| c == 0));
        assert_eq!(parse_position(""), Ok(Position::default()));
    }

    #[test]
    fn bad_text_is_one_line_naming_the_line() {
        let cases = [
            ("current Q", "line 1: current \"Q\": a piece letter"),
            ("next TT", "line 1: next \"TT\""),
            ("level 30", "line 1: level \"30\": 0 to 29"),
            ("\nlines -1", "line 2: lines \"-1\": 0 to 999"),
            ("lines 1000", "0 to 999"),
            ("seed 12345", "six hex digits"),
            ("seed GGGGGG", "six hex digits"),
            ("level 1\nlevel 2", "line 2: level is given twice"),
            ("..x.......", "line 1: a row takes"),
            ("colour blue", "neither a row"),
            ("..........#", "neither a row"),
        ];
        for (text, want) in cases {
            let e = parse_position(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let many = "..........\n".repeat(21);
        let e = parse_position(&many).unwrap_err().to_string();
        assert!(e.contains("line 21: more than 20 rows"), "{e}");
    }

    #[test]
    fn the_reader_has_a_limit_and_says_which_file() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.txt");
        std::fs::write(&big, "# ".repeat(MAX_POSITION_BYTES as usize)).unwrap();
        let e = load_position(&big).unwrap_err().to_string();
        assert!(e.contains("big.txt: larger than 16 KiB"), "{e}");
        #[cfg(unix)]
        {
            let e = load_position(Path::new("/dev/zero"))
                .unwrap_err()
                .to_string();
            assert!(e.contains("larger than"), "{e}");
        }
        let bin = dir.path().join("bin.txt");
        std::fs::write(&bin, [0xFF, 0xFE]).unwrap();
        let e = load_position(&bin).unwrap_err().to_string();
        assert!(e.ends_with("bin.txt: not text (not UTF-8)"), "{e}");
        let e = load_position(&dir.path().join("none.txt"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("cannot read "), "{e}");
    }

    #[test]
    fn a_game_from_an_edited_position_replays_to_its_final_state() {
        use nestris_core::{Buttons, Region};
        let p = parse_position(&position_text(&sample())).unwrap();
        let mut game = p.game_in(Region::Ntsc);
        let mut replay = crate::Replay::new(crate::Start::Snapshot(Box::new(game.snapshot())));
        for i in 0..1500usize {
            let b = match i % 19 {
                0 | 1 => Buttons::LEFT,
                4 => Buttons::A,
                7..=9 => Buttons::RIGHT,
                12..=16 => Buttons::DOWN,
                _ => Buttons::NONE,
            };
            game.step(b);
            replay.inputs.push(b);
        }
        replay.seal();
        let back = crate::Replay::from_bytes(&replay.to_bytes()).unwrap();
        let summary = back.verify().unwrap();
        assert_eq!(summary.final_hash, game.state().state_hash());
        assert!(
            nestris_core::bcd::lines_value(game.state().lines) > 230 || game.is_over(),
            "the game was played"
        );
    }

    proptest::proptest! {
        /// What the fuzz target checks, on text made of the format's own words.
        #[test]
        fn any_text_reads_back_the_same_or_says_why_in_one_line(
            text in "((current|next|level|lines|seed|#|[TJZOSLI]|[0-9]{1,4}|[.#123]{10}|[A-F0-9]{6}| |\n)){0,40}"
        ) {
            match parse_position(&text) {
                Ok(p) => {
                    proptest::prop_assert_eq!(parse_position(&position_text(&p)), Ok(p));
                    let _ = p.game_in(nestris_core::Region::Ntsc);
                }
                Err(e) => proptest::prop_assert!(!e.to_string().contains('\n')),
            }
        }

        #[test]
        fn any_position_round_trips(
            cells in proptest::collection::vec(0u8..4, 200),
            pieces in (0usize..7, 0usize..7),
            level in 0u8..=29,
            lines in 0u16..=999,
            seed in proptest::option::of(0u32..=0xFF_FFFF),
        ) {
            let mut p = Position {
                current: Piece::ALL[pieces.0],
                next: Piece::ALL[pieces.1],
                level,
                lines,
                seed: seed.and_then(|s| GymSeed::new(s, SeedRule::V5)),
                ..Position::default()
            };
            for (i, &c) in cells.iter().enumerate() {
                p.set(i / COLS, i % COLS, c);
            }
            proptest::prop_assert_eq!(parse_position(&position_text(&p)), Ok(p));
        }
    }
}
