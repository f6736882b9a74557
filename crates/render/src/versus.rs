//! The versus picture, laid out as tournaments broadcast it: both players' screens side
//! by side and a scoreboard between them (games won as hearts, the score difference
//! pointing at the leader, tetris rates, the game and the seed).
//!
//! Like the rest of this crate it keeps nothing between frames: the two games and the
//! match's counts ([`Scoreboard`]) say everything it shows. The setup screen before a
//! match ([`draw_setup`]) is drawn the same way, from the rows a front end's menu says.

use nestris_core::bcd::score_value;
use nestris_core::Game;

use crate::font;
use crate::frame::{Frame, HEIGHT, WIDTH};
use crate::layout::{self, CELL};
use crate::palette::{self, LevelColours};

/// The scoreboard's width in pixels.
pub const SCOREBOARD_WIDTH: usize = 96;
/// The whole versus picture's width: two screens and the scoreboard.
pub const VERSUS_WIDTH: usize = 2 * WIDTH + SCOREBOARD_WIDTH;

/// What the match says beside the two games.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Scoreboard<'a> {
    /// The match is the best of this many games.
    pub best_of: u8,
    /// Games won by each player.
    pub wins: [u8; 2],
    /// The game being played (from 0).
    pub game: u16,
    /// Each player's tetris rate this game, in percent.
    pub tetris_rates: [u32; 2],
    /// The game's seed (`None`: the cartridge's generator, whose pieces follow timing).
    pub seed: Option<u32>,
    /// The players' names (up to 10 letters show).
    pub names: [&'a str; 2],
    /// A line across the bottom (who won, "OPPONENT LEFT", what to press).
    pub message: Option<&'a str>,
}

/// Draws the versus picture into `out` ([`VERSUS_WIDTH`] x [`HEIGHT`] pixels, every one
/// written), with `scratch` as the work frame.
pub fn draw_versus(
    games: [&Game; 2],
    board: &Scoreboard<'_>,
    colours: LevelColours,
    scratch: &mut Frame,
    out: &mut [u32],
) {
    assert_eq!(out.len(), VERSUS_WIDTH * HEIGHT, "a versus picture's size");
    let x_of = [0, WIDTH + SCOREBOARD_WIDTH];
    for (game, x0) in games.iter().zip(x_of) {
        crate::draw_with(game, scratch, colours);
        for y in 0..HEIGHT {
            let row = &scratch.pixels[y * WIDTH..(y + 1) * WIDTH];
            out[y * VERSUS_WIDTH + x0..y * VERSUS_WIDTH + x0 + WIDTH].copy_from_slice(row);
        }
    }
    draw_board(games, board, scratch);
    for y in 0..HEIGHT {
        let row = &scratch.pixels[y * WIDTH..y * WIDTH + SCOREBOARD_WIDTH];
        out[y * VERSUS_WIDTH + WIDTH..y * VERSUS_WIDTH + WIDTH + SCOREBOARD_WIDTH]
            .copy_from_slice(row);
    }
}

/// The heart of a game won (8x7; 1 = ink).
const HEART: [u8; 7] = [
    0b0110_0110,
    0b1111_1111,
    0b1111_1111,
    0b1111_1111,
    0b0111_1110,
    0b0011_1100,
    0b0001_1000,
];

fn heart(f: &mut Frame, x: i32, y: i32, ink: u32) {
    for (dy, bits) in HEART.iter().enumerate() {
        for dx in 0..8 {
            if bits & (0x80 >> dx) != 0 {
                f.set(x + dx, y + dy as i32, ink);
            }
        }
    }
}

/// The scoreboard, drawn at the left of `f` (its first [`SCOREBOARD_WIDTH`] columns).
fn draw_board(games: [&Game; 2], b: &Scoreboard<'_>, f: &mut Frame) {
    layout::backdrop(f);
    let w = SCOREBOARD_WIDTH as i32 / CELL;
    let white = palette::rgb(palette::WHITE);
    let label = palette::rgb(palette::LABEL[1]);
    let red = palette::rgb(0x16);
    let grey = palette::rgb(0x00);
    let player = [palette::rgb(palette::CURSOR[1]), palette::rgb(0x21)];
    let centre = |f: &mut Frame, y: i32, s: &str, ink: u32| {
        layout::text_centred(f, 0, SCOREBOARD_WIDTH as i32, y, s, ink);
    };

    layout::framed_box(f, 0, 1, w, 4);
    centre(f, 16, "VERSUS", white);
    centre(f, 24, &format!("BEST OF {}", b.best_of), label);

    // Names and hearts: a red heart per game won, a grey one per game still to win.
    layout::framed_box(f, 0, 6, w, 8);
    let to_win = b.best_of / 2 + 1;
    for (p, ink) in player.into_iter().enumerate() {
        let y = 56 + 24 * p as i32;
        let name: String = b.names[p]
            .chars()
            .take(10)
            .collect::<String>()
            .to_uppercase();
        centre(f, y, &name, ink);
        let n = i32::from(to_win);
        let x0 = (SCOREBOARD_WIDTH as i32 - (10 * n - 2)) / 2;
        for i in 0..n {
            let won = i < i32::from(b.wins[p]);
            heart(f, x0 + 10 * i, y + 9, if won { red } else { grey });
        }
    }

    // The difference, with an arrow towards the player ahead.
    layout::framed_box(f, 0, 15, w, 5);
    centre(f, 128, "DIFF", label);
    let scores = games.map(|g| i64::from(score_value(g.state().score)));
    let diff = scores[0] - scores[1];
    let text = match diff.cmp(&0) {
        std::cmp::Ordering::Greater => format!("<{:06}", diff.min(999_999)),
        std::cmp::Ordering::Less => format!("{:06}>", (-diff).min(999_999)),
        std::cmp::Ordering::Equal => "EVEN".to_string(),
    };
    let ink = match diff.cmp(&0) {
        std::cmp::Ordering::Greater => player[0],
        std::cmp::Ordering::Less => player[1],
        std::cmp::Ordering::Equal => white,
    };
    centre(f, 140, &text, ink);

    layout::framed_box(f, 0, 20, w, 4);
    centre(f, 168, "TRT", label);
    let rates = format!(
        "{:>3}% {:>3}%",
        b.tetris_rates[0].min(100),
        b.tetris_rates[1].min(100)
    );
    font::draw_text(
        f,
        (SCOREBOARD_WIDTH as i32 - font::text_width(&rates)) / 2,
        176,
        &rates,
        white,
    );

    centre(f, 200, &format!("GAME {}", u32::from(b.game) + 1), label);
    let seed = match b.seed {
        Some(s) => format!("SEED {:06X}", s & 0xFF_FFFF),
        None => "NO SEED".to_string(),
    };
    centre(f, 210, &seed, white);
    if let Some(m) = b.message {
        let m: String = m.chars().take(11).collect();
        f.fill_rect(
            0,
            222,
            SCOREBOARD_WIDTH as i32,
            12,
            palette::rgb(palette::BLACK),
        );
        centre(f, 224, &m, palette::rgb(palette::CURSOR[1]));
    }
}

/// One line of the versus setup screen: what is chosen and its value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SetupRow<'a> {
    /// The setting's name ("OPPONENT", "LEVEL").
    pub label: &'a str,
    /// Its value as shown; empty for a line that is an action ("START").
    pub value: &'a str,
    /// False for a setting that does not apply to the chosen opponent (drawn dim).
    pub active: bool,
}

/// What the versus setup screen shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SetupScreen<'a> {
    /// The settings, top to bottom.
    pub rows: &'a [SetupRow<'a>],
    /// The chosen row.
    pub cursor: usize,
    /// Lines under the settings (the keys, a warning).
    pub notes: &'a [&'a str],
    /// A dialog over the screen (the seed entry's lines), if one is open.
    pub dialog: Option<&'a [String]>,
}

/// Rows the setup screen has room for.
pub const SETUP_ROWS: usize = 10;

/// Draws the versus setup screen into `out` ([`VERSUS_WIDTH`] x [`HEIGHT`] pixels, every
/// one written): the backdrop, a title, the settings in a framed box with the chosen one
/// highlighted, the notes under it and any dialog over it. Rows past [`SETUP_ROWS`] and
/// values past 24 characters are cut.
pub fn draw_setup(s: &SetupScreen<'_>, out: &mut Frame) {
    assert_eq!(
        (out.width(), out.height()),
        (VERSUS_WIDTH, HEIGHT),
        "a versus picture's size"
    );
    let c = palette::resolve(palette::BACKDROP);
    for row in 0..HEIGHT as i32 / CELL {
        for col in 0..VERSUS_WIDTH as i32 / CELL {
            crate::tiles::BACKDROP.draw_opaque(out, col * CELL, row * CELL, &c);
        }
    }
    let white = palette::rgb(palette::WHITE);
    let label = palette::rgb(palette::LABEL[1]);
    let dim = palette::rgb(0x00);
    let cols = VERSUS_WIDTH as i32 / CELL;
    // Title: centred, as the level menu's game type.
    layout::framed_box(out, cols / 2 - 8, 1, 16, 3);
    layout::text_centred(out, 0, VERSUS_WIDTH as i32, 16, "VERSUS SETUP", label);

    // The settings: labels on the left half of the box, values on the right.
    let (box_col, box_w) = (cols / 2 - 24, 48);
    let rows = s.rows.len().min(SETUP_ROWS) as i32;
    layout::framed_box(out, box_col, 5, box_w, 2 * rows + 3);
    let x_label = (box_col + 2) * CELL;
    let x_value = (box_col + 22) * CELL;
    for (i, r) in s.rows.iter().take(SETUP_ROWS).enumerate() {
        let y = (7 + 2 * i as i32) * CELL;
        let chosen = i == s.cursor;
        if chosen {
            out.fill_rect(
                (box_col + 1) * CELL,
                y - 3,
                (box_w - 2) * CELL,
                13,
                palette::rgb(palette::CURSOR[3]),
            );
        }
        let ink = match (r.active, chosen) {
            (false, _) => dim,
            (true, true) => white,
            (true, false) => label,
        };
        let name: String = r.label.chars().take(16).collect();
        font::draw_text(out, x_label, y, &name, ink);
        let value: String = r.value.chars().take(24).collect();
        let value = if chosen && r.active && !value.is_empty() {
            format!("<{value}>")
        } else {
            format!(" {value}")
        };
        font::draw_text(
            out,
            x_value - CELL,
            y,
            &value,
            if r.active { white } else { dim },
        );
    }
    let mut y = (5 + 2 * rows + 3 + 1) * CELL;
    for note in s.notes.iter().take(3) {
        let note: String = note.chars().take(cols as usize - 2).collect();
        layout::label_plate(out, 0, VERSUS_WIDTH as i32, y, &note, white);
        y += 12;
    }
    if let Some(lines) = s.dialog {
        let longest = lines.iter().map(|l| l.len().min(28)).max().unwrap_or(0) as i32;
        let (w, h) = (longest + 4, lines.len() as i32 + 4);
        let (col, row) = ((cols - w) / 2, (HEIGHT as i32 / CELL - h) / 2);
        layout::framed_box(out, col, row, w, h);
        for (i, line) in lines.iter().enumerate() {
            let line: String = line.chars().take(28).collect();
            let y = (row + 2 + i as i32) * CELL;
            layout::text_centred(out, col * CELL, w * CELL, y, &line, white);
        }
    }
}
