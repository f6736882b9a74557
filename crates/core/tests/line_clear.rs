//! Line clears (`CARTRIDGE.md` 6.3, 7.2, 7.3): only rows y-2..=y+1 of the locked piece
//! are checked, everything above a cleared row moves down whole, completing row 0
//! counts an extra line and deletes the bottom row, and cells locked above row 0 stay
//! behind as invisible blockers.

mod common;

use common::*;
use nestris_core::{Buttons, FrameEvents, Game, Playfield, Snapshot};
use proptest::prelude::*;

/// Runs until the next spawn and returns the lines scored on the way.
fn settle(g: &mut Game) -> u8 {
    let mut cleared = 0;
    run_until(
        g,
        200,
        |_| Buttons::NONE,
        |ev, _| {
            if ev.has(FrameEvents::LINES_CLEARED) {
                cleared = ev.lines_cleared;
            }
            ev.has(FrameEvents::SPAWNED)
        },
    );
    cleared
}

/// A T pointing down at row `y`, resting on a block under its stem, due to land now.
fn t_landing_at(y: u8) -> Snapshot {
    let mut s = playing(0, T, 5, y);
    set(&mut s, y as usize + 2, 5, BLOCK);
    s.fall_timer = 47;
    s
}

#[test]
fn a_complete_row_two_above_the_piece_is_cleared() {
    // Nothing of the T is in row 8, but rows 8..=11 are the ones checked for y = 10.
    let mut s = t_landing_at(10);
    fill_row(&mut s, 8, &[]);
    let mut g = game(s);
    assert_eq!(settle(&mut g), 1);
    assert!((0..20).all(|r| row_picture(g.state(), r) != "##########"));
}

#[test]
fn complete_rows_outside_the_checked_rows_stay() {
    // Rows 7 (y - 3) and 12 (y + 2) are complete but never checked.
    let mut s = t_landing_at(10);
    fill_row(&mut s, 7, &[]);
    fill_row(&mut s, 12, &[]);
    let mut g = game(s);
    assert_eq!(settle(&mut g), 0);
    assert_eq!(row_picture(g.state(), 7), "##########");
    assert_eq!(row_picture(g.state(), 12), "##########");
}

#[test]
fn rows_above_move_down_whole_rows_below_stay() {
    let mut s = playing(0, I_VERTICAL, 0, 18);
    s.fall_timer = 47;
    // Rows 16..=19: 17 and 19 will be complete, 16 and 18 not.
    stack(
        &mut s,
        &[
            "..#...#...", // 12
            ".#.#.#.#.#", // 13
            "#.........", // 14
            "...##.....", // 15
            ".#...#....", // 16
            ".#########", // 17
            "..#.....#.", // 18
            ".#########", // 19
        ],
    );
    let mut g = game(s);
    assert_eq!(settle(&mut g), 2);
    let after: Vec<String> = (10..20).map(|r| row_picture(g.state(), r)).collect();
    assert_eq!(
        after,
        [
            "..........",
            "..........",
            "..........",
            "..........",
            "..#...#...",
            ".#.#.#.#.#",
            "#.........",
            "...##.....",
            "##...#....", // 16 with the I's top cell, down 2
            "#.#.....#.", // 18 with the I's cell, down 1
        ]
    );
}

#[test]
fn tetris_with_a_vertical_i() {
    let mut s = playing(0, I_VERTICAL, 0, 0);
    for row in 16..20 {
        fill_row(&mut s, row, &[0]);
    }
    set(&mut s, 15, 3, BLOCK);
    let mut g = game(s);
    let mut tetris = false;
    run_until(
        &mut g,
        2000,
        |_| Buttons::NONE,
        |ev, _| {
            tetris |= ev.has(FrameEvents::TETRIS) && ev.lines_cleared == 4;
            ev.has(FrameEvents::SPAWNED)
        },
    );
    assert!(tetris);
    assert_eq!(lines(g.state()), 4);
    assert_eq!(row_picture(g.state(), 19), "...#......");
    assert_eq!(g.state().clears, [0, 0, 0, 1]);
}

#[test]
fn completed_rows_are_recorded_per_checked_row() {
    // I vertical landing at 18 checks rows 16..=19; 17 and 19 complete.
    let mut s = playing(0, I_VERTICAL, 0, 18);
    s.fall_timer = 47;
    fill_row(&mut s, 17, &[0]);
    fill_row(&mut s, 19, &[0]);
    let mut g = game(s);
    run_until(&mut g, 40, |_| Buttons::NONE, |_, st| st.play_state == 4);
    assert_eq!(g.state().completed_row, [0, 17, 0, 19]);
    assert_eq!(g.state().completed_lines, 2);
}

#[test]
fn completing_row_0_counts_an_extra_line_and_deletes_the_bottom_row() {
    // A horizontal I fills row 0 (columns 3..=6) resting on (1, 4).
    let mut s = playing(0, I, 5, 0);
    s.fall_timer = 47;
    fill_row(&mut s, 0, &[3, 4, 5, 6]);
    for row in 1..20 {
        // A distinct, incomplete pattern per row.
        set(&mut s, row, row % 10, 0x7C);
        set(&mut s, row, 4, BLOCK);
    }
    let before = s.playfield.clone();
    let mut g = game(s);
    assert_eq!(settle(&mut g), 2, "a double is counted for one row");
    let after = &g.state().playfield;
    // Rows 1..=18 moved down by one; the old row 19 was pushed below the field.
    for row in 1..19 {
        assert_eq!(
            after.0[(row + 1) * 10..(row + 2) * 10],
            before.0[row * 10..(row + 1) * 10],
            "old row {row}"
        );
    }
    assert_eq!(after.0[200..210], before.0[190..200]);
    assert!(after.0[..20].iter().all(|&t| t == EMPTY));
    assert_eq!(g.state().score, score_bytes(100));
}

#[test]
fn completing_rows_0_and_1_with_an_i_counts_a_triple() {
    let mut s = playing(0, I_VERTICAL, 0, 1);
    s.fall_timer = 47;
    // The I fills column 0 of rows -1..=2; rows 0 and 1 are otherwise full.
    fill_row(&mut s, 0, &[0]);
    fill_row(&mut s, 1, &[0]);
    set(&mut s, 3, 0, BLOCK);
    for row in 2..20 {
        set(&mut s, row, 5, BLOCK);
    }
    let mut g = game(s);
    assert_eq!(settle(&mut g), 3);
    assert_eq!(g.state().clears, [0, 0, 1, 0]);
}

#[test]
fn cells_locked_above_the_field_keep_blocking() {
    // A vertical I stopped at y = 0 by a block at (2, 5) locks cells in rows -2..=1.
    let mut s = playing(0, I_VERTICAL, 5, 0);
    s.fall_timer = 47;
    s.next_piece = I;
    set(&mut s, 2, 5, BLOCK);
    let mut g = game(s);
    settle(&mut g);
    let page = &g.state().playfield;
    assert_eq!(page.0[Playfield::ABOVE_FIELD + 5], 0x7B, "row -2");
    assert_eq!(page.0[Playfield::ABOVE_FIELD + 10 + 5], 0x7B, "row -1");
    // The new horizontal I (row 0, columns 3..=6) cannot stand up in column 5: the cells
    // above the field are taken. Without them it would.
    let mut blocked = g.snapshot();
    for c in 0..10 {
        set(&mut blocked, 0, c, EMPTY);
        set(&mut blocked, 1, c, EMPTY);
    }
    let mut free = blocked.clone();
    free.playfield.0[Playfield::ABOVE_FIELD..].fill(EMPTY);
    let mut g1 = game(blocked);
    let mut g2 = game(free);
    g1.step(Buttons::A);
    g2.step(Buttons::A);
    assert_eq!(g1.state().piece, I);
    assert_eq!(g2.state().piece, I_VERTICAL);
}

#[test]
fn cells_above_the_field_survive_ordinary_line_clears() {
    let mut s = playing(0, I_VERTICAL, 0, 18);
    s.fall_timer = 47;
    fill_row(&mut s, 19, &[0]);
    s.playfield.0[Playfield::ABOVE_FIELD + 3] = 0x7C;
    s.playfield.0[Playfield::ABOVE_FIELD + 14] = 0x7D;
    let mut g = game(s);
    assert_eq!(settle(&mut g), 1);
    let page = &g.state().playfield;
    assert_eq!(page.0[Playfield::ABOVE_FIELD + 3], 0x7C);
    assert_eq!(page.0[Playfield::ABOVE_FIELD + 14], 0x7D);
    assert!(page.0[..10].iter().all(|&t| t == EMPTY));
}

#[test]
fn an_ff_byte_counts_as_filled_for_the_row_check() {
    // Collision treats $FF as free, the row check as filled (only $EF is empty).
    let mut s = t_landing_at(10);
    fill_row(&mut s, 11, &[5]);
    set(&mut s, 11, 0, 0xFF);
    let mut g = game(s);
    assert_eq!(settle(&mut g), 1);
}

proptest! {
    /// Any set of complete rows among y-2..=y+1 is cleared and only those; the rest of
    /// the field keeps its order.
    #[test]
    fn clears_exactly_the_complete_checked_rows(
        // From row 3 down, so that row 0 (the quirk below) is never among the checked rows.
        y in 4u8..=17,
        complete in proptest::collection::vec(any::<bool>(), 4),
        noise in proptest::collection::vec(0u8..10, 20),
    ) {
        // An O (cells (y, 4..=5), (y+1, 4..=5)) landing on a block at (y + 2, 4).
        let mut s = playing(0, O, 5, y);
        s.fall_timer = 47;
        // One block per row in a random column, so that misplaced rows show; the
        // checked rows are rewritten below.
        for (row, &col) in noise.iter().enumerate() {
            set(&mut s, row, col as usize, BLOCK);
        }
        set(&mut s, y as usize + 2, 4, BLOCK);
        let top = y as usize - 2;
        for (i, &full) in complete.iter().enumerate() {
            let row = top + i;
            let o_row = row == y as usize || row == y as usize + 1;
            if full {
                // Complete once the O is in: O rows leave 4 and 5 to the O.
                fill_row(&mut s, row, if o_row { &[4, 5] } else { &[] });
            } else {
                fill_row(&mut s, row, if o_row { &[4, 5, 8] } else { &[8] });
            }
        }
        let mut expected_rows: Vec<String> = Vec::new();
        let mut with_piece = s.clone();
        for r in [y as usize, y as usize + 1] {
            set(&mut with_piece, r, 4, 0x7B);
            set(&mut with_piece, r, 5, 0x7B);
        }
        for row in 0..20 {
            let picture = row_picture(&with_piece, row);
            let checked = (top..top + 4).contains(&row);
            if !(checked && picture == "##########") {
                expected_rows.push(picture);
            }
        }
        let cleared = 20 - expected_rows.len();
        let mut expected = vec![".........."; cleared].into_iter().map(String::from).collect::<Vec<_>>();
        expected.extend(expected_rows);
        let mut g = game(s);
        let got = settle(&mut g) as usize;
        prop_assert_eq!(got, complete.iter().filter(|&&c| c).count());
        let after: Vec<String> = (0..20).map(|r| row_picture(g.state(), r)).collect();
        prop_assert_eq!(after, expected);
    }
}
