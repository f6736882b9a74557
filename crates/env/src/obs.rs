//! What the Python side observes of a game: the board as tile kinds, the piece
//! features, and a simple picture of the play screen. The picture shows what the core's
//! view says the screen shows (the board as shown during a line clear, the piece's
//! sprite, the next box); the board observation is the board in RAM, the one the game's
//! logic plays on.

use nestris_core::bcd::lines_value;
use nestris_core::tables::{ORIENTATION_CELLS, ORIENTATION_COUNT};
use nestris_core::Snapshot;

/// Board rows.
pub const ROWS: usize = 20;
/// Board columns.
pub const COLS: usize = 10;
/// Cells on the board.
pub const CELLS: usize = ROWS * COLS;

/// Picture height in pixels.
pub const HEIGHT: usize = 240;
/// Picture width in pixels.
pub const WIDTH: usize = 256;
/// Bytes of one RGB picture.
pub const PIXEL_BYTES: usize = HEIGHT * WIDTH * 3;

/// Board value of an empty cell.
pub const EMPTY: u8 = 0;
/// Board value of any tile that is not one of the three block tiles (the curtain).
pub const OTHER: u8 = 4;

/// Board value of each playfield byte: 0 empty, 1-3 the block tiles $7B $7C $7D, 4 other.
pub const KIND: [u8; 256] = {
    let mut t = [OTHER; 256];
    t[0xEF] = EMPTY;
    t[0x7B] = 1;
    t[0x7C] = 2;
    t[0x7D] = 3;
    t
};

/// Names of the features, in the order [`features`] writes them.
pub const FEATURE_NAMES: [&str; 9] = [
    "piece",
    "next_piece",
    "x",
    "y",
    "level",
    "lines",
    "play_state",
    "fall_timer",
    "autorepeat_x",
];

/// Number of features.
pub const NUM_FEATURES: usize = FEATURE_NAMES.len();

/// One more than the largest value each feature can take (the size of its `Discrete`
/// space): orientation ids 0-19 (19 hidden), preview 0-18, columns 0-9, rows 0-19,
/// level bytes, lines (two BCD bytes read as decimal, 165 per byte at most), play
/// states 0-11, and the two counters as bytes.
pub const FEATURE_SIZES: [u32; NUM_FEATURES] = [
    ORIENTATION_COUNT as u32 + 1,
    ORIENTATION_COUNT as u32,
    10,
    20,
    256,
    165 * 100 + 165 + 1,
    12,
    256,
    256,
];

/// The visible playfield as board values, row by row (`out.len() == 200`).
#[inline]
pub fn board(s: &Snapshot, out: &mut [u8]) {
    for (o, t) in out[..CELLS].iter_mut().zip(&s.playfield.0[..CELLS]) {
        *o = kind(*t);
    }
}

/// [`KIND`] of one tile as arithmetic: without a table lookup per byte the board loop
/// compiles to vector compares and selects, 16 cells at a time (the table's loads were
/// half of a vector environment's step).
#[inline(always)]
pub const fn kind(tile: u8) -> u8 {
    // 1, 2, 3 for the block tiles $7B $7C $7D.
    let block = tile.wrapping_sub(0x7A);
    if tile == 0xEF {
        EMPTY
    } else if block.wrapping_sub(1) < 3 {
        block
    } else {
        OTHER
    }
}

/// The features of [`FEATURE_NAMES`] (`out.len() == NUM_FEATURES`).
#[inline]
pub fn features(s: &Snapshot, out: &mut [i32]) {
    let v = feature_values(s);
    for (o, x) in out.iter_mut().zip(v) {
        *o = x as i32;
    }
}

/// The features of [`FEATURE_NAMES`] as numbers.
#[inline]
pub fn feature_values(s: &Snapshot) -> [u32; NUM_FEATURES] {
    [
        u32::from(s.piece),
        u32::from(s.next_piece),
        u32::from(s.x),
        u32::from(s.y),
        u32::from(s.level),
        lines_value(s.lines),
        u32::from(s.play_state),
        u32::from(s.fall_timer),
        u32::from(s.autorepeat_x),
    ]
}

/// Left edge of the playfield on the NES screen, in pixels.
const FIELD_X: usize = 96;
/// Top edge of the playfield on the NES screen, in pixels.
const FIELD_Y: usize = 48;
/// Top-left pixel of the next-piece box's inside.
const NEXT_X: usize = 192;
/// Top of the next-piece box's inside.
const NEXT_Y: usize = 112;
/// Width and height of the next-piece box's inside, in cells.
const NEXT_CELLS: usize = 4;

const WHITE: [u8; 3] = [0xFC, 0xFC, 0xFC];
const GREY: [u8; 3] = [0x7C, 0x7C, 0x7C];
const FRAME: [u8; 3] = [0xBC, 0xBC, 0xBC];

/// The colour of a board value at `level`: the cartridge's level colours
/// ([`nestris_render::palette::level_palette`], classic), as the renderer draws them.
fn colour(kind: u8, level: u8) -> [u8; 3] {
    use nestris_render::palette::{level_palette, rgb, LevelColours};
    let [_, _, a, b] = level_palette(level, LevelColours::Classic);
    let rgb3 = |entry: u8| {
        let c = rgb(entry);
        [(c >> 16) as u8, (c >> 8) as u8, c as u8]
    };
    match kind {
        1 => WHITE,
        2 => rgb3(b),
        3 => rgb3(a),
        _ => GREY,
    }
}

/// Fills a `w` x `h` rectangle at pixel (`x`, `y`).
fn fill(out: &mut [u8], x: usize, y: usize, w: usize, h: usize, c: [u8; 3]) {
    for row in y..(y + h).min(HEIGHT) {
        let start = (row * WIDTH + x) * 3;
        let end = (row * WIDTH + (x + w).min(WIDTH)) * 3;
        for px in out[start..end].chunks_exact_mut(3) {
            px.copy_from_slice(&c);
        }
    }
}

/// One block: a 7x7 square in an 8x8 cell at pixel (`x`, `y`).
fn block(out: &mut [u8], x: usize, y: usize, c: [u8; 3]) {
    fill(out, x, y, 7, 7, c);
}

/// A one-pixel frame around the rectangle at (`x`, `y`) of `w` x `h` pixels.
fn frame(out: &mut [u8], x: usize, y: usize, w: usize, h: usize) {
    fill(out, x - 2, y - 2, w + 4, 1, FRAME);
    fill(out, x - 2, y + h + 1, w + 4, 1, FRAME);
    fill(out, x - 2, y - 2, 1, h + 4, FRAME);
    fill(out, x + w + 1, y - 2, 1, h + 4, FRAME);
}

/// Draws the play screen into `out` (240 x 256 x 3 bytes, RGB, row by row): the locked
/// cells and the falling piece as coloured 8x8 squares where the NES shows the
/// playfield, framed, and the next piece in a box to its right. No text.
pub fn render(s: &Snapshot, out: &mut [u8]) {
    debug_assert_eq!(out.len(), PIXEL_BYTES);
    out.fill(0);
    frame(out, FIELD_X, FIELD_Y, COLS * 8, ROWS * 8);
    let level = s.level;
    for (i, t) in s.shown_board().0.iter().enumerate() {
        let kind = KIND[*t as usize];
        if kind != EMPTY {
            let (row, col) = (i / COLS, i % COLS);
            block(
                out,
                FIELD_X + col * 8,
                FIELD_Y + row * 8,
                colour(kind, level),
            );
        }
    }
    if let Some(piece) = s.piece_sprite() {
        let kind = KIND[nestris_core::tables::ORIENTATION_TILE[piece as usize] as usize];
        for (dr, dc) in ORIENTATION_CELLS[piece as usize] {
            let row = i32::from(s.y) + i32::from(dr);
            let col = i32::from(s.x) + i32::from(dc);
            if (0..ROWS as i32).contains(&row) && (0..COLS as i32).contains(&col) {
                let (row, col) = (row as usize, col as usize);
                block(
                    out,
                    FIELD_X + col * 8,
                    FIELD_Y + row * 8,
                    colour(kind, level),
                );
            }
        }
    }
    frame(out, NEXT_X, NEXT_Y, NEXT_CELLS * 8, NEXT_CELLS * 8);
    if let Some(next) = s.next_shown() {
        let kind = KIND[nestris_core::tables::ORIENTATION_TILE[next as usize] as usize];
        for (dr, dc) in ORIENTATION_CELLS[next as usize] {
            // Pivot at cell (1, 2) of the 4x4 box: every spawn orientation fits.
            let row = 1 + i32::from(dr);
            let col = 2 + i32::from(dc);
            if (0..NEXT_CELLS as i32).contains(&row) && (0..NEXT_CELLS as i32).contains(&col) {
                let (row, col) = (row as usize, col as usize);
                block(out, NEXT_X + col * 8, NEXT_Y + row * 8, colour(kind, level));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arithmetic_kind_is_the_table() {
        for tile in 0..=255u8 {
            assert_eq!(kind(tile), KIND[tile as usize], "tile {tile:#04x}");
        }
    }
}
