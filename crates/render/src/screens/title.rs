//! The title screen: NESTRIS spelled in big letters made of playfield blocks, a little
//! pile of pieces, and PUSH START.

use nestris_core::Snapshot;

use crate::frame::Frame;
use crate::layout::{self, big, CELL};
use crate::palette;
use crate::tiles::{self, Tile};

/// The pile under the title, as playfield bytes row by row ('.' empty, 1 2 3 = $7B,
/// $7C, $7D), resting on the box's floor: one of each piece and a few more.
const PILE: [&str; 4] = [
    ".................1..",
    ".33..........2..111.",
    "33..113...1.22.21111",
    "11111133311122221111",
];

/// Draws the title screen.
pub(super) fn draw(f: &mut Frame, s: &Snapshot, colours: palette::LevelColours) {
    layout::backdrop(f);
    layout::framed_box(f, 1, 3, 30, 11);
    spell(f, "NESTRIS", 6 * CELL, colours);

    let white = palette::rgb(palette::WHITE);
    layout::framed_box(f, 9, 16, 14, 3);
    layout::text_centred(f, 80, 96, 17 * CELL, "PUSH START", white);

    layout::framed_box(f, 5, 21, 22, 7);
    let c = palette::resolve(palette::level_palette(s.start_level, colours));
    for (r, line) in PILE.iter().enumerate() {
        for (col, ch) in line.bytes().enumerate() {
            let byte = match ch {
                b'1' => 0x7B,
                b'2' => 0x7C,
                b'3' => 0x7D,
                _ => continue,
            };
            let x = 6 * CELL + col as i32 * CELL;
            let y = 22 * CELL + r as i32 * CELL + CELL;
            layout::draw_cell(f, x, y, byte, &c);
        }
    }
}

/// Spells `word` in big block letters centred on the screen with their top at pixel
/// row `y`; each letter takes the colours of a different level.
pub(super) fn spell(f: &mut Frame, word: &str, y: i32, colours: palette::LevelColours) {
    let styles: [&Tile; 3] = [
        &tiles::BLOCK_SOLID_A,
        &tiles::BLOCK_RINGED,
        &tiles::BLOCK_SOLID_B,
    ];
    let mut x = (256 - big::width(word) * CELL) / 2;
    for (i, ch) in word.chars().enumerate() {
        let Some(letter) = big::letter(ch) else {
            continue;
        };
        let c = palette::resolve(palette::level_palette(i as u8, colours));
        let tile = styles[i % 3];
        for (r, row) in letter.rows.iter().enumerate() {
            for (k, b) in row.bytes().enumerate() {
                if b == b'#' {
                    tile.draw(f, x + k as i32 * CELL, y + r as i32 * CELL, &c);
                }
            }
        }
        x += (letter.rows[0].len() as i32 + 1) * CELL;
    }
}
