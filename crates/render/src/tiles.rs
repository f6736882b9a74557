//! The project's own pixel art: blocks, frames, backdrop, curtain and ending props.
//!
//! Every picture is drawn here, by hand, as rows of characters: `.` is colour 0 (the
//! backdrop, or see-through), `1` `2` `3` are the three colours of whatever sub-palette
//! the picture is drawn with. Nothing here comes from the cartridge: the blocks, frames
//! and props are this project's designs, only kept to the console's rules (8x8 tiles,
//! four colours each) so that the screen reads as an NES screen.

use crate::frame::Frame;
use crate::palette::Colours;

/// A W x H picture of 2-bit colour indices.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pattern<const W: usize, const H: usize>(pub [[u8; W]; H]);

/// One 8x8 tile.
pub type Tile = Pattern<8, 8>;

/// Parses rows of `.123` into a pattern (at compile time: a bad row fails the build).
pub const fn pattern<const W: usize, const H: usize>(rows: [&str; H]) -> Pattern<W, H> {
    let mut px = [[0u8; W]; H];
    let mut y = 0;
    while y < H {
        let r = rows[y].as_bytes();
        assert!(r.len() == W, "a pattern row has the wrong width");
        let mut x = 0;
        while x < W {
            px[y][x] = match r[x] {
                b'.' => 0,
                b'1' => 1,
                b'2' => 2,
                b'3' => 3,
                _ => panic!("pattern pixels are . 1 2 3"),
            };
            x += 1;
        }
        y += 1;
    }
    Pattern(px)
}

impl<const W: usize, const H: usize> Pattern<W, H> {
    /// Draws the pattern with its top-left corner at (x, y); colour 0 is see-through,
    /// as for sprites.
    pub fn draw(&self, f: &mut Frame, x: i32, y: i32, c: &Colours) {
        for (dy, row) in self.0.iter().enumerate() {
            for (dx, &i) in row.iter().enumerate() {
                if i != 0 {
                    f.set(x + dx as i32, y + dy as i32, c[i as usize]);
                }
            }
        }
    }

    /// Draws the pattern `k` times as large (each pixel a k x k square), see-through.
    pub fn draw_scaled(&self, f: &mut Frame, x: i32, y: i32, c: &Colours, k: i32) {
        for (dy, row) in self.0.iter().enumerate() {
            for (dx, &i) in row.iter().enumerate() {
                if i != 0 {
                    f.fill_rect(x + k * dx as i32, y + k * dy as i32, k, k, c[i as usize]);
                }
            }
        }
    }

    /// Draws the pattern with colour 0 painted too, as for background tiles.
    pub fn draw_opaque(&self, f: &mut Frame, x: i32, y: i32, c: &Colours) {
        for (dy, row) in self.0.iter().enumerate() {
            for (dx, &i) in row.iter().enumerate() {
                f.set(x + dx as i32, y + dy as i32, c[i as usize]);
            }
        }
    }
}

// --- Blocks ------------------------------------------------------------------------------
// Seven pixels of block and one of gap, so that neighbouring cells read as separate
// blocks. Drawn with the level palette: 1 white, 2 colour a, 3 colour b.

/// Playfield tile $7B (T, O, I): a white "target" ringed in colour a.
pub const BLOCK_RINGED: Tile = pattern([
    "2222222.", //
    "2111112.", //
    "2122212.", //
    "2121212.", //
    "2122212.", //
    "2111112.", //
    "2222222.", //
    "........", //
]);

/// Playfield tile $7D (J, S): solid colour a with a glint in the top-right corner.
pub const BLOCK_SOLID_A: Tile = pattern([
    "2222222.", //
    "2222212.", //
    "2222122.", //
    "2222222.", //
    "2222222.", //
    "2222222.", //
    "2222222.", //
    "........", //
]);

/// Playfield tile $7C (Z, L): the solid block in colour b.
pub const BLOCK_SOLID_B: Tile = pattern([
    "3333333.", //
    "3333313.", //
    "3333133.", //
    "3333333.", //
    "3333333.", //
    "3333333.", //
    "3333333.", //
    "........", //
]);

/// The statistics' small blocks, 5 pixels and a gap, in the same three styles.
pub const MINI_RINGED: Pattern<6, 6> = pattern([
    "22222.", //
    "21112.", //
    "21212.", //
    "21112.", //
    "22222.", //
    "......", //
]);

/// Small solid block in colour a.
pub const MINI_SOLID_A: Pattern<6, 6> = pattern([
    "22222.", //
    "22212.", //
    "22122.", //
    "22222.", //
    "22222.", //
    "......", //
]);

/// Small solid block in colour b.
pub const MINI_SOLID_B: Pattern<6, 6> = pattern([
    "33333.", //
    "33313.", //
    "33133.", //
    "33333.", //
    "33333.", //
    "......", //
]);

/// The game-over curtain: two shutter slats per cell, lit from above.
pub const CURTAIN: Tile = pattern([
    "11111111", //
    "22222222", //
    "22222222", //
    "33333333", //
    "11111111", //
    "22222222", //
    "22222222", //
    "33333333", //
]);

/// A playfield byte the screen has no picture for (only odd saved states hold one).
pub const ODD: Tile = pattern([
    "2.2.2.2.", //
    ".......2", //
    "2.......", //
    ".......2", //
    "2.......", //
    ".......2", //
    "2.......", //
    ".2.2.2.2", //
]);

// --- Frames ------------------------------------------------------------------------------
// A rounded tube, dark-light-white-white-light-dark across, drawn with `palette::FRAME`.

/// Horizontal frame edge.
pub const FRAME_H: Tile = pattern([
    "........", //
    "33333333", //
    "22222222", //
    "11111111", //
    "11111111", //
    "22222222", //
    "33333333", //
    "........", //
]);

/// Vertical frame edge.
pub const FRAME_V: Tile = pattern([
    ".321123.", //
    ".321123.", //
    ".321123.", //
    ".321123.", //
    ".321123.", //
    ".321123.", //
    ".321123.", //
    ".321123.", //
]);

/// Top-left frame corner.
pub const FRAME_TL: Tile = pattern([
    "........", //
    ".....333", //
    "....3322", //
    "...32211", //
    "..321111", //
    ".3321122", //
    ".3211223", //
    ".321123.", //
]);

/// Top-right frame corner.
pub const FRAME_TR: Tile = pattern([
    "........", //
    "333.....", //
    "2233....", //
    "11223...", //
    "111123..", //
    "2211233.", //
    "3221123.", //
    ".321123.", //
]);

/// Bottom-left frame corner.
pub const FRAME_BL: Tile = pattern([
    ".321123.", //
    ".3211223", //
    ".3321122", //
    "..321111", //
    "...32211", //
    "....3322", //
    ".....333", //
    "........", //
]);

/// Bottom-right frame corner.
pub const FRAME_BR: Tile = pattern([
    ".321123.", //
    "3221123.", //
    "2211233.", //
    "111123..", //
    "11223...", //
    "2233....", //
    "333.....", //
    "........", //
]);

/// The backdrop behind the boxes: a lattice of small diamonds with a bright centre.
pub const BACKDROP: Tile = pattern([
    "...1....", //
    "..1.1...", //
    ".1...1..", //
    "1..2..1.", //
    ".1...1..", //
    "..1.1...", //
    "...1....", //
    "........", //
]);

// --- Menu cursors ------------------------------------------------------------------------

/// A cursor pointing right.
pub const ARROW_RIGHT: Tile = pattern([
    "1.......", //
    "11......", //
    "121.....", //
    "1221....", //
    "121.....", //
    "11......", //
    "1.......", //
    "........", //
]);

/// A cursor pointing left.
pub const ARROW_LEFT: Tile = pattern([
    "...1....", //
    "..11....", //
    ".121....", //
    "1221....", //
    ".121....", //
    "..11....", //
    "...1....", //
    "........", //
]);

/// The name-entry cursor: a bar under the letter.
pub const UNDERLINE: Tile = pattern([
    "........", //
    "........", //
    "........", //
    "........", //
    "........", //
    "........", //
    "1111111.", //
    "2222222.", //
]);

// --- The A-type ending ---------------------------------------------------------------------
// Drawn with `palette::ROCKET` (1 white, 2 red, 3 grey) unless said otherwise.

/// The rocket's nose cone, on top of the body.
pub const ROCKET_NOSE: Pattern<16, 12> = pattern([
    ".......22.......", //
    "......2222......", //
    "......2222......", //
    ".....222222.....", //
    ".....221222.....", //
    "....22212222....", //
    "....22122222....", //
    "...2222222222...", //
    "...2222222222...", //
    "...3333333333...", //
    "...3111111113...", //
    "...3111111113...", //
]);

/// One body section with a porthole; bigger endings stack more of them.
pub const ROCKET_BODY: Pattern<16, 12> = pattern([
    "...3111111113...", //
    "...3111331113...", //
    "...3113..3113...", //
    "...313....313...", //
    "...313....313...", //
    "...3113..3113...", //
    "...3111331113...", //
    "...3111111113...", //
    "...3222222223...", //
    "...3111111113...", //
    "...3111111113...", //
    "...3111111113...", //
]);

/// The tail with its fins and nozzle.
pub const ROCKET_TAIL: Pattern<16, 12> = pattern([
    "...3111111113...", //
    "..231111111132..", //
    ".22311111111322.", //
    "2223111111113222", //
    "2223222222223222", //
    "2223111111113222", //
    "22.3111111113.22", //
    "2..3333333333..2", //
    "....33333333....", //
    ".....333333.....", //
    "....33333333....", //
    "................", //
]);

/// The exhaust, two shapes shown in turn (with `palette::FLAME`).
pub const FLAME: [Pattern<16, 10>; 2] = [
    pattern([
        "....11111111....", //
        "....12222221....", //
        ".....122221.....", //
        ".....123321.....", //
        "......2332......", //
        "......2332......", //
        ".......33.......", //
        ".......33.......", //
        "................", //
        "................", //
    ]),
    pattern([
        "....11111111....", //
        "...1122222211...", //
        "....12233221....", //
        ".....123321.....", //
        ".....233332.....", //
        "......2332......", //
        "......2332......", //
        ".......33.......", //
        ".......3........", //
        "........3.......", //
    ]),
];

/// The launch tower's lattice, one tile per storey (with `palette::GROUND`).
pub const TOWER: Tile = pattern([
    "33....33", //
    "3.3..3.3", //
    "3..33..3", //
    "3..33..3", //
    "3.3..3.3", //
    "33....33", //
    "3......3", //
    "33333333", //
]);

/// Grass over soil (with `palette::GROUND`).
pub const GROUND_TOP: Tile = pattern([
    "1...1...", //
    "11.111.1", //
    "11111111", //
    "21112111", //
    "22222222", //
    "2.22.222", //
    "22222.22", //
    ".222222.", //
]);

/// Soil under the grass (with `palette::GROUND`).
pub const GROUND: Tile = pattern([
    "22.22222", //
    "22222.22", //
    "2222222.", //
    ".222222.", //
    "222.2222", //
    "22222222", //
    "2.222222", //
    "22222.22", //
]);

/// A bright star (with `palette::NIGHT`).
pub const STAR: Pattern<3, 3> = pattern([
    ".2.", //
    "212", //
    ".2.", //
]);
