//! Rotation (`CARTRIDGE.md` 5.2, 20.1): A turns clockwise and B counter-clockwise by the
//! cartridge's tables, A wins when both are newly pressed, only new presses count, and a
//! blocked rotation is simply not done: no kicks, the position never changes.

mod common;

use common::*;
use nestris_core::{Buttons, FrameEvents, Snapshot};
use proptest::prelude::*;

/// Orientation after A (clockwise), `CARTRIDGE.md` 20.1.
const ROT_A: [u8; 19] = [
    1, 2, 3, 0, 5, 6, 7, 4, 9, 8, 10, 12, 11, 14, 15, 16, 13, 18, 17,
];
/// Orientation after B (counter-clockwise).
const ROT_B: [u8; 19] = [
    3, 0, 1, 2, 7, 4, 5, 6, 9, 8, 10, 12, 11, 16, 13, 14, 15, 18, 17,
];

/// The state after one frame with `buttons`, from `s`. Level 0 with the fall timer at 0
/// keeps gravity out of that frame.
fn after(s: Snapshot, buttons: Buttons) -> (Snapshot, FrameEvents) {
    let mut g = game(s);
    let ev = g.step(buttons);
    (g.snapshot(), ev)
}

#[test]
fn a_and_b_follow_the_tables_in_free_space() {
    for piece in 0..19u8 {
        let (s, ev) = after(playing(0, piece, 5, 10), Buttons::A);
        assert_eq!(s.piece, ROT_A[piece as usize], "A from {piece}");
        // The O "turns" into itself, and like the cartridge's rotate sound it still counts.
        assert!(ev.has(FrameEvents::ROTATED));
        let (s, _) = after(playing(0, piece, 5, 10), Buttons::B);
        assert_eq!(s.piece, ROT_B[piece as usize], "B from {piece}");
        assert_eq!((s.x, s.y), (5, 10));
    }
}

#[test]
fn four_turns_come_back_and_b_undoes_a() {
    for piece in 0..19usize {
        let mut p = piece;
        for _ in 0..4 {
            p = ROT_A[p] as usize;
        }
        assert_eq!(p, piece);
        assert_eq!(ROT_B[ROT_A[piece] as usize] as usize, piece);
    }
}

#[test]
fn a_and_b_newly_pressed_together_rotate_clockwise_only() {
    for piece in 0..19u8 {
        let (s, _) = after(playing(0, piece, 5, 10), Buttons::A | Buttons::B);
        assert_eq!(s.piece, ROT_A[piece as usize], "A+B from {piece}");
    }
}

#[test]
fn b_newly_pressed_while_a_is_held_rotates_counter_clockwise() {
    let mut s = playing(0, T, 5, 10);
    s.held = Buttons::A.bits();
    let (s, _) = after(s, Buttons::A | Buttons::B);
    assert_eq!(s.piece, ROT_B[T as usize]);
}

#[test]
fn holding_a_rotates_once() {
    let mut g = game(playing(0, T, 5, 10));
    let turns = frames_with(&mut g, 30, |_| Buttons::A, FrameEvents::ROTATED);
    assert_eq!(turns, vec![0]);
    // Tapping rotates on every press.
    let turns = frames_with(
        &mut g,
        8,
        |f| {
            if f % 2 == 1 {
                Buttons::A
            } else {
                Buttons::NONE
            }
        },
        FrameEvents::ROTATED,
    );
    assert_eq!(turns, vec![1, 3, 5, 7]);
}

#[test]
fn no_kick_against_the_wall() {
    // A vertical I against the left wall would need column -2 to lie down.
    let (s, ev) = after(playing(0, I_VERTICAL, 0, 10), Buttons::A);
    assert_eq!((s.piece, s.x, s.y), (I_VERTICAL, 0, 10));
    assert!(!ev.has(FrameEvents::ROTATED));
    // A horizontal I in row 19 would need row 20 to stand up.
    let (s, _) = after(playing(0, I, 5, 19), Buttons::B);
    assert_eq!((s.piece, s.x, s.y), (I, 5, 19));
}

#[test]
fn no_kick_against_the_stack() {
    // A T pointing down at (5, 10): both turns need the cell (9, 5), which is filled.
    let mut s = playing(0, T, 5, 10);
    set(&mut s, 9, 5, BLOCK);
    for buttons in [Buttons::A, Buttons::B] {
        let (after, ev) = after(s.clone(), buttons);
        assert_eq!((after.piece, after.x, after.y), (T, 5, 10), "{buttons:?}");
        assert!(!ev.has(FrameEvents::ROTATED));
    }
}

#[test]
fn rotation_may_reach_rows_above_the_field() {
    // A horizontal I in row 0 stands up into rows -2 and -1.
    let (s, _) = after(playing(0, I, 5, 0), Buttons::A);
    assert_eq!((s.piece, s.x, s.y), (I_VERTICAL, 5, 0));
}

proptest! {
    /// On any board, a pressed rotation happens exactly when the spec says the new
    /// orientation fits at the same (x, y); the position never changes.
    #[test]
    fn rotation_is_done_iff_the_target_fits(
        piece in 0u8..19,
        x in 0u8..10,
        y in 0u8..20,
        cells in proptest::collection::vec(0u32..8, 256),
        density in 0u32..8,
        button in 0usize..3,
    ) {
        let mut s = playing(0, piece, x, y);
        // density/8 of the page filled, rows -2 and -1 included.
        for (i, &cell) in cells.iter().enumerate() {
            if cell < density {
                s.playfield.0[i] = BLOCK;
            }
        }
        let (buttons, target) = match button {
            0 => (Buttons::A, ROT_A[piece as usize]),
            1 => (Buttons::B, ROT_B[piece as usize]),
            _ => (Buttons::A | Buttons::B, ROT_A[piece as usize]),
        };
        let fits = spec_valid(&s, target, x, y);
        let (after, _) = after(s, buttons);
        prop_assert_eq!(after.piece, if fits { target } else { piece });
        prop_assert_eq!((after.x, after.y), (x, y));
    }
}
