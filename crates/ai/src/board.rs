//! A bitboard of the playfield for collision tests, placement and line clears.
//!
//! One `u16` per row, bit `c + 3` for column `c`. The three bits on each side are set
//! as walls, so a piece mask shifted by its column can be tested against a row with one
//! AND and no bounds check. Rows -2 and -1 (the bytes after the field that the
//! cartridge's collision test reads, `CARTRIDGE.md` 6.1) are kept, and two full rows
//! below row 19 act as the floor.

use nestris_core::tables::{ORIENTATION_CELLS, TILE_EMPTY};
use nestris_core::Playfield;

/// Bits of the ten columns in a row.
pub const COLS: u16 = 0x3FF << 3;
/// Bits of the walls on both sides of a row.
pub const WALLS: u16 = !COLS;
/// Rows stored: -2..=19 and two floor rows.
const ROWS: usize = 24;
/// Index of row 0 in [`Board::rows`].
pub const TOP: usize = 2;

/// A bit per byte of `w` (byte i at bit i) among the bytes `valid` covers that block: the
/// bytes below `TILE_EMPTY`, eight at a time. A byte is at least $EF when its top bit is
/// set and its low seven bits plus $11 reach $80 (no carry leaves a byte).
#[inline(always)]
fn blocking(w: u64, valid: u64) -> u64 {
    const _: () = assert!(TILE_EMPTY == 0xEF);
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const TOP: u64 = 0x8080_8080_8080_8080;
    let empty = ((w & LOW7) + 0x1111_1111_1111_1111) & w & TOP;
    let blocks = !empty & TOP & valid;
    // Gathers the eight top bits into the top byte, byte i's at bit 56 + i.
    ((blocks >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The occupied cells of the field as row bitmasks (walls included).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// `rows[r + 2]` for rows -2..=21; rows 20 and 21 are the floor.
    pub rows: [u16; ROWS],
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    /// An empty field.
    pub const fn empty() -> Board {
        let mut rows = [WALLS; ROWS];
        rows[ROWS - 2] = u16::MAX;
        rows[ROWS - 1] = u16::MAX;
        Board { rows }
    }

    /// The field as the cartridge's collision test sees it: a byte below `$EF` blocks.
    ///
    /// Rows -2 and -1 come from the page's bytes `$EC..=$FF`, where cells locked above
    /// the field stay for the rest of the game.
    pub fn from_playfield(p: &Playfield) -> Board {
        let mut b = Board::empty();
        // Rows -2 and -1 are the page's bytes 236..256, rows 0..20 its first 200: ten
        // bytes a row either way, so two rows are 20 bytes in a row, read as 8 + 8 + 4.
        for (pair, out) in b.rows[..22].chunks_exact_mut(2).enumerate() {
            let base = if pair == 0 { 236 } else { 20 * (pair - 1) };
            let cells: &[u8; 20] = p.0[base..base + 20].try_into().expect("twenty bytes");
            let word = |k: usize| u64::from_le_bytes(cells[k..k + 8].try_into().expect("eight"));
            let last = u64::from(u32::from_le_bytes(cells[16..].try_into().expect("four")));
            // Two rows of empty tiles (the rows above the stack): the walls alone.
            const EMPTY: u64 = u64::from_le_bytes([TILE_EMPTY; 8]);
            if word(0) == EMPTY && word(8) == EMPTY && last == EMPTY >> 32 {
                continue;
            }
            let bits = blocking(word(0), !0)
                | blocking(word(8), !0) << 8
                | blocking(last, 0xFFFF_FFFF) << 16;
            out[0] = WALLS | ((bits & 0x3FF) as u16) << 3;
            out[1] = WALLS | ((bits >> 10) as u16) << 3;
        }
        b
    }

    /// Builds a board from text rows, top to bottom, aligned to the bottom row 19
    /// (`#` or any non-space, non-`.` character is a block).
    pub fn from_text(rows: &[&str]) -> Board {
        let mut b = Board::empty();
        let first = 20 - rows.len();
        for (i, line) in rows.iter().enumerate() {
            for (c, ch) in line.chars().take(10).enumerate() {
                if ch != '.' && ch != ' ' {
                    b.set(first + i, c);
                }
            }
        }
        b
    }

    /// The bits of visible row `r` (0..20), without walls.
    #[inline]
    pub fn row(&self, r: usize) -> u16 {
        self.rows[r + TOP] & COLS
    }

    /// True if the visible cell is occupied.
    #[inline]
    pub fn filled(&self, r: usize, c: usize) -> bool {
        self.rows[r + TOP] & (1 << (c + 3)) != 0
    }

    /// Occupies a visible cell.
    #[inline]
    pub fn set(&mut self, r: usize, c: usize) {
        self.rows[r + TOP] |= 1 << (c + 3);
    }

    /// The four rows `y-2..=y+1` packed for [`Board::fits`], one 16-bit lane each.
    #[inline]
    pub(crate) fn window(&self, y: u8) -> u64 {
        let i = y as usize;
        (self.rows[i] as u64)
            | (self.rows[i + 1] as u64) << 16
            | (self.rows[i + 2] as u64) << 32
            | (self.rows[i + 3] as u64) << 48
    }

    /// The cartridge's `isPositionValid` for orientation `o` with its pivot at (x, y).
    ///
    /// `y` may be 20 (one below the last row a pivot can hold), which always collides.
    #[inline]
    pub fn fits(&self, o: u8, x: u8, y: u8) -> bool {
        // Every orientation has a cell at its pivot, so a pivot outside the columns
        // (including x wrapped to 255) is invalid whatever else the test reads.
        x < 10 && y <= 20 && self.window(y) & (PIECE_MASKS[o as usize] << x) == 0
    }

    /// Writes orientation `o` at (x, y) and removes completed rows; returns how many.
    ///
    /// Rows are removed the ordinary way; the cartridge's row-0 quirk (`CARTRIDGE.md`
    /// 7.3) is not reproduced here: the engine is, and this board only guides the search.
    pub fn place(&mut self, o: u8, x: u8, y: u8) -> u32 {
        let mut lo = usize::MAX;
        let mut hi = 0;
        for &(dr, dc) in &ORIENTATION_CELLS[o as usize] {
            let i = (y as i32 + dr as i32 + TOP as i32) as usize;
            self.rows[i] |= 1 << (x as i32 + dc as i32 + 3);
            lo = lo.min(i);
            hi = hi.max(i);
        }
        let mut cleared = 0;
        let lo = lo.max(TOP);
        for i in lo..=hi.min(TOP + 19) {
            if self.rows[i] & COLS == COLS {
                // Shift rows -2..i-1 down by one; the rows above the field move like
                // the rest (a simplification, see above).
                self.rows.copy_within(0..i, 1);
                self.rows[0] = WALLS;
                cleared += 1;
            }
        }
        cleared
    }

    /// Height of every column: 20 minus the row of its highest block (0 = empty).
    #[inline]
    pub fn heights(&self) -> [u8; 10] {
        let mut h = [0u8; 10];
        let mut seen: u16 = 0;
        for r in 0..20 {
            let row = self.row(r) & !seen;
            if row != 0 {
                let mut bits = row >> 3;
                while bits != 0 {
                    let c = bits.trailing_zeros() as usize;
                    h[c] = (20 - r) as u8;
                    bits &= bits - 1;
                }
                seen |= row;
                if seen == COLS {
                    break;
                }
            }
        }
        h
    }

    /// Number of occupied visible cells.
    pub fn count(&self) -> u32 {
        (0..20).map(|r| self.row(r).count_ones()).sum()
    }
}

/// A board prepared for many collision tests: the four-row window of every pivot row,
/// so a test is one load, one shift and one AND.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Collision {
    win: [u64; 21],
}

impl Collision {
    /// Precomputes the windows of `board`.
    pub fn new(board: &Board) -> Collision {
        let mut win = [0u64; 21];
        for (y, w) in win.iter_mut().enumerate() {
            *w = board.window(y as u8);
        }
        Collision { win }
    }

    /// Same as [`Board::fits`].
    #[inline(always)]
    pub fn fits(&self, o: u8, x: u8, y: u8) -> bool {
        x < 10 && (y as usize) < 21 && self.win[y as usize] & (PIECE_MASKS[o as usize] << x) == 0
    }
}

impl core::fmt::Debug for Board {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(f, "Board [")?;
        for r in 0..20 {
            for c in 0..10 {
                f.write_str(if self.filled(r, c) { "#" } else { "." })?;
            }
            writeln!(f)?;
        }
        write!(f, "]")
    }
}

/// Each orientation's cells as four 16-bit lanes (rows -2..=+1 from the pivot), bit
/// `dc + 3` in each; shifting left by x places it at column x.
pub const PIECE_MASKS: [u64; 20] = piece_masks();

const fn piece_masks() -> [u64; 20] {
    let mut out = [0u64; 20];
    let mut o = 0;
    while o < 20 {
        let mut k = 0;
        while k < 4 {
            let (dr, dc) = ORIENTATION_CELLS[o][k];
            let lane = (dr + 2) as u64;
            out[o] |= 1u64 << (lane * 16 + (dc + 3) as u64);
            k += 1;
        }
        o += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cartridge's test, written out from `CARTRIDGE.md` 6.1 on a page of bytes.
    fn slow_valid(p: &Playfield, o: u8, x: u8, y: u8) -> bool {
        for &(dr, dc) in &ORIENTATION_CELLS[o as usize] {
            let r = (dr as u8).wrapping_add(y);
            if r.wrapping_add(2) >= 22 {
                return false;
            }
            let i = y
                .wrapping_mul(10)
                .wrapping_add(x)
                .wrapping_add((dr as u8).wrapping_mul(10))
                .wrapping_add(dc as u8);
            if p.0[i as usize] < TILE_EMPTY {
                return false;
            }
            if (dc as u8).wrapping_add(x) >= 10 {
                return false;
            }
        }
        true
    }

    #[test]
    fn fits_matches_the_cartridge_rule_on_random_pages() {
        let mut seed = 0x1234_5678_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for _ in 0..200 {
            let mut p = Playfield::empty();
            for b in p.0.iter_mut() {
                if next() % 5 == 0 {
                    *b = [0x7B, 0x7C, 0x7D, 0xFF, 0x4F][(next() % 5) as usize];
                }
            }
            let board = Board::from_playfield(&p);
            for o in 0..19u8 {
                for x in 0..=255u8 {
                    for y in 0..=20u8 {
                        if y <= 19 || x < 10 {
                            assert_eq!(
                                board.fits(o, x, y),
                                slow_valid(&p, o, x, y),
                                "o={o} x={x} y={y}"
                            );
                        }
                    }
                }
            }
        }
    }

    proptest::proptest! {
        /// Each row's bits are the bytes below `TILE_EMPTY`, whatever the page holds.
        #[test]
        fn from_playfield_marks_every_blocking_byte(
            page in proptest::collection::vec(
                proptest::prop_oneof![0u8..=255, 0xEDu8..=0xF0],
                256,
            ),
        ) {
            let mut p = Playfield::empty();
            p.0.copy_from_slice(&page);
            let b = Board::from_playfield(&p);
            for (r, row) in b.rows.iter().take(22).enumerate() {
                let base = if r < 2 { 236 + 10 * r } else { 10 * (r - 2) };
                let mut want = WALLS;
                for c in 0..10 {
                    want |= u16::from(page[base + c] < TILE_EMPTY) << (c + 3);
                }
                proptest::prop_assert_eq!(*row, want, "row {}", r as i32 - 2);
            }
        }
    }

    #[test]
    fn place_clears_full_rows() {
        let mut b = Board::from_text(&["#########.", "#########.", "##.######."]);
        // Vertical I in column 9, cells rows 16..=19.
        assert_eq!(b.place(17, 9, 18), 2);
        assert_eq!(b.row(19), COLS & !(1 << (2 + 3)));
        assert_eq!(b.row(18), 1 << (9 + 3));
        assert_eq!(b.heights(), [1, 1, 0, 1, 1, 1, 1, 1, 1, 2]);
    }
}
