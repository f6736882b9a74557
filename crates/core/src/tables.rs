//! The cartridge's constant tables: piece shapes, rotation, gravity, spawn, points.
//!
//! Values are carried over from the cartridge (see `CARTRIDGE.md` section 20); the
//! layout is ours. Orientation ids 0..=18 are the cartridge's `currentPiece` values,
//! 19 is the hidden piece used during line clears and the curtain.

/// Orientation id of the hidden piece (no sprite; used while rows clear and on game over).
pub const HIDDEN: u8 = 19;

/// Number of real orientations (ids `0..ORIENTATION_COUNT`).
pub const ORIENTATION_COUNT: u8 = 19;

/// Cell offsets `(row, column)` from the pivot for each orientation id (19 = hidden).
pub const ORIENTATION_CELLS: [[(i8, i8); 4]; 20] = [
    [(0, -1), (0, 0), (0, 1), (-1, 0)],  // 0 T up
    [(-1, 0), (0, 0), (0, 1), (1, 0)],   // 1 T right
    [(0, -1), (0, 0), (0, 1), (1, 0)],   // 2 T down (spawn)
    [(-1, 0), (0, -1), (0, 0), (1, 0)],  // 3 T left
    [(-1, 0), (0, 0), (1, -1), (1, 0)],  // 4 J left
    [(-1, -1), (0, -1), (0, 0), (0, 1)], // 5 J up
    [(-1, 0), (-1, 1), (0, 0), (1, 0)],  // 6 J right
    [(0, -1), (0, 0), (0, 1), (1, 1)],   // 7 J down (spawn)
    [(0, -1), (0, 0), (1, 0), (1, 1)],   // 8 Z horizontal (spawn)
    [(-1, 1), (0, 0), (0, 1), (1, 0)],   // 9 Z vertical
    [(0, -1), (0, 0), (1, -1), (1, 0)],  // 10 O (spawn)
    [(0, 0), (0, 1), (1, -1), (1, 0)],   // 11 S horizontal (spawn)
    [(-1, 0), (0, 0), (0, 1), (1, 1)],   // 12 S vertical
    [(-1, 0), (0, 0), (1, 0), (1, 1)],   // 13 L right
    [(0, -1), (0, 0), (0, 1), (1, -1)],  // 14 L down (spawn)
    [(-1, -1), (-1, 0), (0, 0), (1, 0)], // 15 L left
    [(-1, 1), (0, -1), (0, 0), (0, 1)],  // 16 L up
    [(-2, 0), (-1, 0), (0, 0), (1, 0)],  // 17 I vertical
    [(0, -2), (0, -1), (0, 0), (0, 1)],  // 18 I horizontal (spawn)
    [(0, 0), (0, 0), (0, 0), (0, 0)],    // 19 hidden
];

/// Playfield tile written for each orientation id when the piece locks.
pub const ORIENTATION_TILE: [u8; 20] = [
    0x7B, 0x7B, 0x7B, 0x7B, 0x7D, 0x7D, 0x7D, 0x7D, 0x7C, 0x7C, 0x7B, 0x7D, 0x7D, 0x7C, 0x7C, 0x7C,
    0x7C, 0x7B, 0x7B, 0xFF,
];

/// Orientation after A (clockwise) for each orientation id.
pub const ROTATE_A: [u8; 19] = [
    1, 2, 3, 0, 5, 6, 7, 4, 9, 8, 10, 12, 11, 14, 15, 16, 13, 18, 17,
];

/// Orientation after B (counter-clockwise) for each orientation id.
pub const ROTATE_B: [u8; 19] = [
    3, 0, 1, 2, 7, 4, 5, 6, 9, 8, 10, 12, 11, 16, 13, 14, 15, 18, 17,
];

/// Piece type (T J Z O S L I = 0..6) of each orientation id.
pub const ORIENTATION_TYPE: [u8; 20] = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4, 4, 5, 5, 5, 5, 6, 6, 0];

/// `spawnTable`: spawn orientation id per piece type, plus the 8th entry the demo can read.
pub const SPAWN_TABLE: [u8; 8] = [2, 7, 8, 10, 11, 14, 18, 2];

/// NTSC `framesPerDropTable`: frames per row for levels 0..=28 (29+ is 1, not read).
pub const GRAVITY_NTSC: [u8; 29] = [
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
];

/// PAL `framesPerDropTable`: frames per row for levels 0..=28 (29+ is 1, not read).
pub const GRAVITY_PAL: [u8; 29] = [
    36, 32, 29, 25, 22, 18, 15, 11, 7, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
];

/// `pointsTable`: BCD points (low byte, high byte) for clearing 0..=4 lines, per (level + 1).
pub const POINTS: [(u8, u8); 5] = [
    (0x00, 0x00),
    (0x40, 0x00),
    (0x00, 0x01),
    (0x00, 0x03),
    (0x00, 0x12),
];

/// `rngTable`: B-type garbage tile by the generator's high byte AND 7 (half are empty).
pub const GARBAGE_TILES: [u8; 8] = [0xEF, 0x7B, 0xEF, 0x7C, 0x7D, 0x7D, 0xEF, 0xEF];

/// `typeBBlankInitCountByHeightTable`: last page-4 index emptied for each B-type height.
pub const GARBAGE_BLANK_END: [u8; 6] = [200, 170, 150, 120, 100, 80];

/// Playfield byte of an empty cell.
pub const TILE_EMPTY: u8 = 0xEF;

/// Playfield byte of a game-over curtain cell.
pub const TILE_CURTAIN: u8 = 0x4F;

/// `colorTable`: the playfield's palette for each last digit of the level (backdrop,
/// white, colour 3, colour 4) as master-palette entries. Colour 4 is the solid block of
/// J and S and the rim of T, O and I; colour 3 the solid block of Z and L.
pub const COLOR_TABLE: [[u8; 4]; 10] = [
    [0x0F, 0x30, 0x21, 0x12],
    [0x0F, 0x30, 0x29, 0x1A],
    [0x0F, 0x30, 0x24, 0x14],
    [0x0F, 0x30, 0x2A, 0x12],
    [0x0F, 0x30, 0x2B, 0x15],
    [0x0F, 0x30, 0x22, 0x2B],
    [0x0F, 0x30, 0x00, 0x16],
    [0x0F, 0x30, 0x05, 0x13],
    [0x0F, 0x30, 0x16, 0x12],
    [0x0F, 0x30, 0x27, 0x16],
];

/// The entry of [`COLOR_TABLE`] the cartridge shows at `level`, or `None` where it reads
/// past the table. Its reduction by ten (`updatePaletteForLevel`) subtracts while the
/// level minus 10 is positive as a signed byte, so from level 138 it stops at once and
/// indexes the table by `4 x level mod 256`: levels 192-201 land on entries 0-9 again,
/// the others on the code after the table, which only the cartridge holds.
pub const fn color_table_entry(level: u8) -> Option<usize> {
    if level < 138 {
        return Some((level % 10) as usize);
    }
    let entry = (level % 64) as usize;
    if entry < COLOR_TABLE.len() {
        Some(entry)
    } else {
        None
    }
}

/// Level display digits (BCD) for levels 0..=29; the cartridge reads past it above 29.
pub const fn level_display_bcd(level: u8) -> u8 {
    (level / 10) << 4 | (level % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_palette_cycles_by_ten_then_reads_past_its_table() {
        assert_eq!(color_table_entry(0), Some(0));
        assert_eq!(color_table_entry(18), Some(8));
        assert_eq!(color_table_entry(137), Some(7));
        // From 138 the table is indexed by 4 x level mod 256.
        assert_eq!(color_table_entry(138), None);
        assert_eq!(color_table_entry(191), None);
        assert_eq!(color_table_entry(192), Some(0));
        assert_eq!(color_table_entry(201), Some(9));
        assert_eq!(color_table_entry(202), None);
        assert_eq!(color_table_entry(255), None);
        // Level 18 is red and blue, level 19 orange and red (colours 3 and 4).
        assert_eq!(COLOR_TABLE[8][2..], [0x16, 0x12]);
        assert_eq!(COLOR_TABLE[9][2..], [0x27, 0x16]);
    }
}
