//! The learned risk of a field: how likely the game is to top out within the next 40
//! pieces, as a sum of table entries over the field's patterns.
//!
//! The hand-made features of [`crate::eval`] price holes and height one by one; from level
//! 29, where each piece is placed before the preview is seen, what ends games is their
//! mix (a tall column beside a well, a stack of rows with holes near the top), and a set
//! that makes tetrises there tops out. The table is a linear model over one-hot patterns
//! of the field (each column's height, the steps between neighbours and between three
//! columns, the highest column, the holes, the rows with holes, the rows ready for a
//! tetris, the well's depth, and the highest column against the holes), fitted offline by
//! least squares to whether each position of the format's own games topped out within 40
//! pieces (`crates/ai/examples/risk_data.rs` plays them and writes the patterns,
//! `crates/ai/examples/fit_risk.py` fits the table). There are two built-in tables, one
//! per gravity the format plays them at: `crates/ai/weights/risk29.txt` (one row a frame,
//! levels 29-38) and `crates/ai/weights/risk39.txt` (a variant's double killscreen, two
//! rows a frame, from level 39, where what ends games is another mix: the columns at the
//! edges left too low to be filled once their neighbours stand above what a piece can
//! pass over). Their headers say how each was made.
//!
//! [`crate::Weights::risk`] weighs the table of the searched position's gravity in the
//! evaluation (0, the default, leaves it out). The patterns are read from a field's
//! [`Measures`], which the evaluation's features of every field already hold: weighing
//! the table costs the search the entries' sum, not another look at the rows.

use crate::board::{Board, TOP};
use std::sync::OnceLock;

/// Entries of the table: the patterns' one-hot blocks, in the order [`features`] writes
/// them.
pub const FEATURES: usize =
    HEIGHTS + STEPS + TRIPLES + HIGHEST + HOLES + HOLE_ROWS + READY + WELL + HIGH_HOLES + 1;
/// Each column's height, 0-20.
const HEIGHTS: usize = 10 * 21;
/// The step between neighbours, -4..=4 (clamped), for each of the nine pairs.
const STEPS: usize = 9 * 9;
/// Two steps at once, each -2..=2 (clamped), for each of the eight triples of columns.
const TRIPLES: usize = 8 * 25;
/// The highest of columns 0-8, 0-20.
const HIGHEST: usize = 21;
/// Holes (empty cells below their column's top), 0-15 (clamped).
const HOLES: usize = 16;
/// Rows with a hole, 0-10 (clamped).
const HOLE_ROWS: usize = 11;
/// Rows ready for a tetris (full but for the well, from the well's top down), 0-8.
const READY: usize = 9;
/// The lowest of columns 0-8 less the well's height, -2..=8 (clamped).
const WELL: usize = 11;
/// The highest of columns 0-8 in pairs of rows (0-10) against the holes (0-4, clamped).
const HIGH_HOLES: usize = 11 * 5;

/// How many entries a field has active (one per pattern; the last is the constant).
pub const ACTIVE: usize = 10 + 9 + 8 + 6 + 1;

/// What the table's patterns are read from: the column heights, the holes (empty cells
/// below their column's top), the rows with a hole and the rows ready for a tetris (full
/// but for the well, from the well's top up). The evaluation measures all four of every
/// field it weighs ([`Measures::of_features`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measures {
    /// Each column's height, 0-20.
    pub heights: [u8; 10],
    /// Empty cells below their column's top.
    pub holes: u32,
    /// Rows with a hole.
    pub hole_rows: u32,
    /// Rows ready for a tetris.
    pub ready: u32,
}

impl Measures {
    /// The measures of the field whose rows are `rows` (row 0 the top, bit `c` column `c`).
    pub fn of_rows(rows: &[u16; 20]) -> Measures {
        let mut m = Measures::default();
        let mut covered = 0u16;
        for (y, &r) in rows.iter().enumerate() {
            let r = r & 0x3FF;
            let gap = !r & 0x3FF & covered;
            m.holes += gap.count_ones();
            m.hole_rows += u32::from(gap != 0);
            let mut tops = r & !covered;
            while tops != 0 {
                m.heights[tops.trailing_zeros() as usize] = (20 - y) as u8;
                tops &= tops - 1;
            }
            covered |= r;
        }
        let mut y = 19 - i32::from(m.heights[9]);
        while y >= 0 && rows[y as usize] & 0x3FF == 0x1FF {
            m.ready += 1;
            y -= 1;
        }
        m
    }

    /// The same measures from the evaluation's features of the field (its ready rows are
    /// the four it weighs and those beyond).
    #[inline(always)]
    pub fn of_features(f: &crate::eval::Features) -> Measures {
        Measures {
            heights: f.heights,
            holes: f.holes,
            hole_rows: f.hole_rows,
            ready: f.ready_rows + f.excess_ready,
        }
    }
}

/// The table entries the field whose rows are `rows` (row 0 the top, bit `c` column `c`)
/// has active, in `out`.
pub fn features(rows: &[u16; 20], out: &mut [u16; ACTIVE]) {
    let mut n = 0;
    patterns(&Measures::of_rows(rows), |i| {
        out[n] = i as u16;
        n += 1;
    });
}

/// Calls `entry` with each active entry of the field measured `m`, in the table's order.
#[inline(always)]
fn patterns(m: &Measures, mut entry: impl FnMut(usize)) {
    let h = m.heights.map(i32::from);
    let mut base = 0;
    let mut put = |block: usize, i: i32| {
        entry(base + i as usize);
        base += block;
    };
    // One block per column, pair and triple, each its own range of the table.
    for &hc in &h {
        put(21, hc);
    }
    let steps: [i32; 9] = std::array::from_fn(|c| h[c + 1] - h[c]);
    for &d in &steps {
        put(9, d.clamp(-4, 4) + 4);
    }
    let small = steps.map(|d| d.clamp(-2, 2) + 2);
    for pair in small.windows(2) {
        put(25, pair[0] * 5 + pair[1]);
    }
    let highest = h[..9].iter().copied().max().unwrap_or(0);
    let lowest = h[..9].iter().copied().min().unwrap_or(0);
    let holes = m.holes.min(HOLES as u32 - 1) as i32;
    put(HIGHEST, highest);
    put(HOLES, holes);
    put(HOLE_ROWS, m.hole_rows.min(HOLE_ROWS as u32 - 1) as i32);
    put(READY, m.ready.min(READY as u32 - 1) as i32);
    put(WELL, (lowest - h[9]).clamp(-2, 8) + 2);
    put(HIGH_HOLES, (highest / 2).min(10) * 5 + holes.min(4));
    put(1, 0);
    debug_assert_eq!(base, FEATURES);
}

/// A fitted table: the risk of a field is the sum of its active entries.
#[derive(Clone, Debug, PartialEq)]
pub struct RiskTable {
    entries: Box<[f32; FEATURES]>,
}

impl RiskTable {
    /// The table written as [`FEATURES`] numbers separated by white space; lines starting
    /// with `#` are comments.
    pub fn parse(text: &str) -> Result<RiskTable, String> {
        let entries = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .map(|t| {
                t.parse::<f32>()
                    .map_err(|e| format!("risk table: {t:?}: {e}"))
            })
            .collect::<Result<Vec<f32>, String>>()?;
        if entries.len() != FEATURES || entries.iter().any(|v| !v.is_finite()) {
            return Err(format!(
                "risk table: {} finite numbers expected, {} found",
                FEATURES,
                entries.len()
            ));
        }
        let entries = entries
            .into_boxed_slice()
            .try_into()
            .expect("FEATURES entries");
        Ok(RiskTable { entries })
    }

    /// The built-in table for one row a frame (`crates/ai/weights/risk29.txt`).
    pub fn builtin() -> &'static RiskTable {
        static TABLE: OnceLock<RiskTable> = OnceLock::new();
        built_in(&TABLE, include_str!("../weights/risk29.txt"))
    }

    /// The built-in table for a variant's double killscreen
    /// (`crates/ai/weights/risk39.txt`).
    pub fn double_killscreen() -> &'static RiskTable {
        static TABLE: OnceLock<RiskTable> = OnceLock::new();
        built_in(&TABLE, include_str!("../weights/risk39.txt"))
    }

    /// The built-in table for a piece falling at the double killscreen's gravity
    /// (`double`) or not.
    pub fn for_gravity(double: bool) -> &'static RiskTable {
        if double {
            RiskTable::double_killscreen()
        } else {
            RiskTable::builtin()
        }
    }

    /// The risk of the field `rows` (as [`features`] reads them).
    pub fn of_rows(&self, rows: &[u16; 20]) -> f32 {
        self.of(&Measures::of_rows(rows))
    }

    /// The risk of the field measured `m`: its active entries summed in the table's order.
    #[inline]
    pub fn of(&self, m: &Measures) -> f32 {
        let mut active = [0f32; ACTIVE];
        let mut n = 0;
        patterns(m, |i| {
            active[n] = self.entries[i];
            n += 1;
        });
        active.iter().sum()
    }

    /// The risk of `board`'s field.
    pub fn of_board(&self, board: &Board) -> f32 {
        self.of_rows(&field_rows(board))
    }
}

/// A built-in table, parsed on first use (its tests parse every one).
fn built_in(cell: &'static OnceLock<RiskTable>, text: &str) -> &'static RiskTable {
    cell.get_or_init(|| RiskTable::parse(text).expect("a built-in risk table parses"))
}

/// `board`'s 20 field rows, bit `c` column `c`.
pub fn field_rows(board: &Board) -> [u16; 20] {
    std::array::from_fn(|y| (board.rows[y + TOP] >> 3) & 0x3FF)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `t` puts `riskier` clearly above `safer`.
    fn assert_riskier(t: &RiskTable, riskier: &[u16; 20], safer: &[u16; 20]) {
        let (a, b) = (t.of_rows(riskier), t.of_rows(safer));
        assert!(a > b + 0.05, "{a} {b}");
    }

    fn rows_of(picture: &[&str]) -> [u16; 20] {
        let mut rows = [0u16; 20];
        for (k, line) in picture.iter().enumerate() {
            let y = 20 - picture.len() + k;
            for (c, ch) in line.chars().enumerate() {
                if ch == '#' {
                    rows[y] |= 1 << c;
                }
            }
        }
        rows
    }

    #[test]
    fn an_empty_field_has_its_blocks_first_entries() {
        let mut out = [0u16; ACTIVE];
        features(&[0; 20], &mut out);
        let heights: Vec<u16> = (0..10).map(|c| c * 21).collect();
        assert_eq!(out[..10], heights[..]);
        // Every step 0, the well level with the rest, no holes.
        assert_eq!(out[10], HEIGHTS as u16 + 4);
        assert_eq!(out[19], (HEIGHTS + STEPS) as u16 + 12);
        let tail = (HEIGHTS + STEPS + TRIPLES) as u16;
        assert_eq!(
            out[27..],
            [
                tail,
                tail + 21,
                tail + 37,
                tail + 48,
                tail + 57 + 2,
                tail + 68,
                tail + 123
            ]
        );
    }

    #[test]
    fn a_field_reads_its_heights_holes_and_ready_rows() {
        let rows = rows_of(&[
            "#.........", //
            "##.######.",
            "#########.",
            "#########.",
        ]);
        let mut out = [0u16; ACTIVE];
        features(&rows, &mut out);
        assert_eq!(out[0], 4); // column 0: 4 rows
        assert_eq!(out[2], 2 * 21 + 2); // column 2: 2 rows
        assert_eq!(out[9], 9 * 21); // the well: empty
        let tail = HEIGHTS + STEPS + TRIPLES;
        assert_eq!(out[27] as usize, tail + 4); // the highest
        assert_eq!(out[28] as usize, tail + 21); // no holes
        assert_eq!(out[30] as usize, tail + 21 + 16 + 11 + 2); // two ready rows
        assert_eq!(out[31] as usize, tail + 21 + 16 + 11 + 9 + 2 + 2); // well 2 deep
    }

    #[test]
    fn holes_are_counted_under_their_columns_tops() {
        let rows = rows_of(&["##########", "#.#.#.....", "##########"]);
        let mut out = [0u16; ACTIVE];
        features(&rows, &mut out);
        let tail = HEIGHTS + STEPS + TRIPLES + HIGHEST;
        assert_eq!(out[28] as usize, tail + 7);
        assert_eq!(out[29] as usize, tail + HOLES + 1);
    }

    #[test]
    fn at_the_double_killscreen_an_edge_column_left_low_is_riskier() {
        // Two rows a frame: a piece reaches column 0 in five taps only over a low stack.
        let t = RiskTable::for_gravity(true);
        assert_ne!(t, RiskTable::for_gravity(false));
        // The same stack, column 0 filled: four cells more, and far less risky.
        let flat = rows_of(&["#########."; 6]);
        let edge = rows_of(&[
            ".########.",
            ".########.",
            ".########.",
            ".########.",
            "#########.",
            "#########.",
        ]);
        assert_riskier(t, &edge, &flat);
    }

    #[test]
    fn the_builtin_table_parses_and_a_taller_stack_is_riskier() {
        let t = RiskTable::builtin();
        let low = rows_of(&["#########.", "#########."]);
        let high = rows_of(&[
            "#.........",
            "##........",
            "###.......",
            "####......",
            "#####.....",
            "######....",
            "#######...",
            "########..",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
        ]);
        assert_riskier(t, &high, &low);
        assert_eq!(t.of_board(&Board::empty()), t.of_rows(&[0; 20]));
    }

    proptest::proptest! {
        /// The evaluation's features of a field hold the measures its rows give, and the
        /// table reads the same entries from either, in the same order.
        #[test]
        fn the_features_hold_the_measures_of_the_rows(
            rows in proptest::collection::vec(0u16..0x400, 20),
            empty_above in 0usize..20,
            ready in 0usize..10,
        ) {
            let mut rows: [u16; 20] = rows.try_into().unwrap();
            // Empty rows above the stack, and rows ready for a tetris under the well's top.
            rows[..empty_above].fill(0);
            for r in rows.iter_mut().skip(20 - ready.min(20 - empty_above)) {
                *r = 0x1FF;
            }
            let mut board = Board::empty();
            for (y, &r) in rows.iter().enumerate() {
                for c in 0..10 {
                    if r >> c & 1 != 0 {
                        board.set(y, c);
                    }
                }
            }
            let ctx = crate::eval::Context::new(
                nestris_core::Region::Ntsc,
                29,
                &crate::InputModel::hz30(),
            );
            let m = Measures::of_rows(&rows);
            proptest::prop_assert_eq!(
                Measures::of_features(&crate::eval::Features::of(&board, &ctx)),
                m
            );
            for t in [RiskTable::builtin(), RiskTable::double_killscreen()] {
                let mut active = [0u16; ACTIVE];
                features(&rows, &mut active);
                let summed: f32 = active.iter().map(|&i| t.entries[i as usize]).sum();
                proptest::prop_assert_eq!(t.of(&m).to_bits(), summed.to_bits());
                proptest::prop_assert_eq!(t.of_board(&board).to_bits(), summed.to_bits());
            }
        }
    }

    #[test]
    fn a_table_of_the_wrong_size_is_refused() {
        assert!(RiskTable::parse("1 2 3").is_err());
        assert!(RiskTable::parse(&"0 ".repeat(FEATURES)).is_ok());
        assert!(RiskTable::parse(&format!("# a comment\n{}", "0.5 ".repeat(FEATURES))).is_ok());
        assert!(RiskTable::parse(&format!("{}NaN", "0 ".repeat(FEATURES - 1))).is_err());
    }
}
