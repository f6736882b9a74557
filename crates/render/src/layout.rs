//! Building blocks shared by the screens: the tile grid, framed boxes, the backdrop,
//! blocks and whole pieces, text placed on the grid.
//!
//! The screen is 32 x 30 cells of 8x8 pixels, as the NES background is; positions here
//! are in cells unless a name says pixels.

use nestris_core::tables::{ORIENTATION_CELLS, ORIENTATION_TILE, TILE_CURTAIN, TILE_EMPTY};

use crate::font;
use crate::frame::Frame;
use crate::palette::{self, Colours, SubPalette};
use crate::tiles::{self, Tile};

/// Pixels per cell.
pub const CELL: i32 = 8;
/// Cells across the screen.
pub const COLS: i32 = 32;
/// Cells down the screen.
pub const ROWS: i32 = 30;

/// The playfield's left edge in pixels: the cartridge draws the falling piece's column
/// 0 at sprite x $60.
pub const FIELD_X: i32 = 96;
/// The playfield's top edge in pixels: the cartridge's piece sprites for row 0 sit at
/// sprite y $2F, which the PPU shows one line lower, on line 48 (cell row 6).
pub const FIELD_Y: i32 = 48;

// The field sits on the cell grid, and its frame fits on the screen.
const _: () = assert!(FIELD_X % CELL == 0 && FIELD_Y % CELL == 0);
const _: () = assert!(FIELD_Y + 21 * CELL <= ROWS * CELL);

/// Covers the whole screen with the backdrop pattern.
pub fn backdrop(f: &mut Frame) {
    let c = palette::resolve(palette::BACKDROP);
    for row in 0..ROWS {
        for col in 0..COLS {
            tiles::BACKDROP.draw_opaque(f, col * CELL, row * CELL, &c);
        }
    }
}

/// A framed box covering cells `col..col + w` x `row..row + h` (frame included), black
/// inside.
pub fn framed_box(f: &mut Frame, col: i32, row: i32, w: i32, h: i32) {
    framed_box_with(f, col, row, w, h, palette::FRAME);
}

/// [`framed_box`] with the frame in another sub-palette.
pub fn framed_box_with(f: &mut Frame, col: i32, row: i32, w: i32, h: i32, p: SubPalette) {
    let c = palette::resolve(p);
    let (x0, y0) = (col * CELL, row * CELL);
    let (x1, y1) = ((col + w - 1) * CELL, (row + h - 1) * CELL);
    f.fill_rect(x0, y0, w * CELL, h * CELL, c[0]);
    for i in 1..w - 1 {
        tiles::FRAME_H.draw(f, x0 + i * CELL, y0, &c);
        tiles::FRAME_H.draw(f, x0 + i * CELL, y1, &c);
    }
    for j in 1..h - 1 {
        tiles::FRAME_V.draw(f, x0, y0 + j * CELL, &c);
        tiles::FRAME_V.draw(f, x1, y0 + j * CELL, &c);
    }
    tiles::FRAME_TL.draw(f, x0, y0, &c);
    tiles::FRAME_TR.draw(f, x1, y0, &c);
    tiles::FRAME_BL.draw(f, x0, y1, &c);
    tiles::FRAME_BR.draw(f, x1, y1, &c);
}

/// Text at cell (col, row) in colour 1 of `p`, on opaque black paper.
pub fn text(f: &mut Frame, col: i32, row: i32, s: &str, p: SubPalette) {
    let c = palette::resolve(p);
    font::draw_text_on(f, col * CELL, row * CELL, s, c[1], c[0]);
}

/// Text centred between pixel columns `x0` and `x0 + width` at pixel row `y`, on a
/// black plate a few pixels larger than the text, so that it reads over the backdrop.
pub fn label_plate(f: &mut Frame, x0: i32, width: i32, y: i32, s: &str, ink: u32) {
    let w = font::text_width(s);
    let x = x0 + (width - w) / 2;
    f.fill_rect(x - 4, y - 3, w + 7, 13, palette::rgb(palette::BLACK));
    font::draw_text(f, x, y, s, ink);
}

/// Text centred between pixel columns `x0` and `x0 + width`, at pixel row `y`; the
/// paper is see-through.
pub fn text_centred(f: &mut Frame, x0: i32, width: i32, y: i32, s: &str, ink: u32) {
    let x = x0 + (width - font::text_width(s)) / 2;
    font::draw_text(f, x, y, s, ink);
}

/// The picture of a playfield byte, if it is a block or the curtain.
pub fn cell_tile(byte: u8) -> Option<&'static Tile> {
    match byte {
        0x7B => Some(&tiles::BLOCK_RINGED),
        0x7C => Some(&tiles::BLOCK_SOLID_B),
        0x7D => Some(&tiles::BLOCK_SOLID_A),
        TILE_CURTAIN => Some(&tiles::CURTAIN),
        _ => None,
    }
}

/// Draws one playfield byte at pixel (x, y) with the level's colours; empty cells
/// leave what is there.
pub fn draw_cell(f: &mut Frame, x: i32, y: i32, byte: u8, c: &Colours) {
    if byte == TILE_EMPTY {
        return;
    }
    cell_tile(byte).unwrap_or(&tiles::ODD).draw(f, x, y, c);
}

/// The bounding box of an orientation's cells: (top row, left column, rows, columns).
fn extent(orientation: u8) -> (i32, i32, i32, i32) {
    let cells = &ORIENTATION_CELLS[orientation as usize % 20];
    let rows = cells.iter().map(|c| i32::from(c.0));
    let cols = cells.iter().map(|c| i32::from(c.1));
    let (top, bottom) = (rows.clone().min().unwrap_or(0), rows.max().unwrap_or(0));
    let (left, right) = (cols.clone().min().unwrap_or(0), cols.max().unwrap_or(0));
    (top, left, bottom - top + 1, right - left + 1)
}

/// Draws a whole piece in full-size blocks, centred on pixel (cx, cy).
pub fn draw_piece_centred(f: &mut Frame, orientation: u8, cx: i32, cy: i32, c: &Colours) {
    let (top, left, rows, cols) = extent(orientation);
    // Blocks are 7 pixels and a gap: centre the 7-pixel ink, not the 8-pixel cell.
    let x0 = cx - (cols * CELL - 1) / 2;
    let y0 = cy - (rows * CELL - 1) / 2;
    let tile = ORIENTATION_TILE[orientation as usize % 20];
    for &(dr, dc) in &ORIENTATION_CELLS[orientation as usize % 20] {
        let x = x0 + (i32::from(dc) - left) * CELL;
        let y = y0 + (i32::from(dr) - top) * CELL;
        draw_cell(f, x, y, tile, c);
    }
}

/// Draws a piece in the statistics' small blocks, centred on pixel (cx, cy).
pub fn draw_mini_piece(f: &mut Frame, orientation: u8, cx: i32, cy: i32, c: &Colours) {
    const STEP: i32 = 6;
    let (top, left, rows, cols) = extent(orientation);
    let x0 = cx - (cols * STEP - 1) / 2;
    let y0 = cy - (rows * STEP - 1) / 2;
    let mini = match ORIENTATION_TILE[orientation as usize % 20] {
        0x7C => &tiles::MINI_SOLID_B,
        0x7D => &tiles::MINI_SOLID_A,
        _ => &tiles::MINI_RINGED,
    };
    for &(dr, dc) in &ORIENTATION_CELLS[orientation as usize % 20] {
        let x = x0 + (i32::from(dc) - left) * STEP;
        let y = y0 + (i32::from(dr) - top) * STEP;
        mini.draw(f, x, y, c);
    }
}

/// The big lettering of the title and the B-type ending: letters five blocks tall.
pub mod big {
    /// A big letter: up to four blocks wide, five tall (`#` a block).
    pub struct Letter {
        /// The character it draws.
        pub ch: char,
        /// Its rows, all of one width.
        pub rows: [&'static str; 5],
    }

    /// The letters the screens spell with.
    pub const LETTERS: [Letter; 8] = [
        Letter {
            ch: 'N',
            rows: ["#..#", "##.#", "#.##", "#..#", "#..#"],
        },
        Letter {
            ch: 'E',
            rows: ["###", "#..", "##.", "#..", "###"],
        },
        Letter {
            ch: 'S',
            rows: ["###", "#..", "###", "..#", "###"],
        },
        Letter {
            ch: 'T',
            rows: ["###", ".#.", ".#.", ".#.", ".#."],
        },
        Letter {
            ch: 'R',
            rows: ["##.", "#.#", "##.", "#.#", "#.#"],
        },
        Letter {
            ch: 'I',
            rows: ["#", "#", "#", "#", "#"],
        },
        Letter {
            ch: 'U',
            rows: ["#.#", "#.#", "#.#", "#.#", "###"],
        },
        Letter {
            ch: 'C',
            rows: [".##", "#..", "#..", "#..", ".##"],
        },
    ];

    /// The big letter for `ch`, if there is one.
    pub fn letter(ch: char) -> Option<&'static Letter> {
        LETTERS.iter().find(|l| l.ch == ch)
    }

    /// Width in blocks of `word` with one blank column between letters.
    pub fn width(word: &str) -> i32 {
        let w: i32 = word
            .chars()
            .filter_map(letter)
            .map(|l| l.rows[0].len() as i32)
            .sum();
        w + word.chars().count().saturating_sub(1) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_letters_are_rectangular() {
        for l in &big::LETTERS {
            let w = l.rows[0].len();
            assert!(l.rows.iter().all(|r| r.len() == w), "{}", l.ch);
        }
        assert_eq!(big::width("NESTRIS"), 4 + 3 * 5 + 1 + 6);
        assert!(big::width("SUCCESS") <= 28);
    }
}
