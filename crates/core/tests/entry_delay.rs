//! Locking and entry delay (`CARTRIDGE.md` 5.3, 6.2, 7.1, 7.5): no lock delay (a piece
//! that cannot fall lands at its next gravity step whatever the player does), the lock,
//! row check and spawn waiting on the screen-copy cursor, giving `S - L = 8 + 2N` frames
//! without lines (10 at the bottom, 18 at the top) and `2N + 25 + d` with lines, `d` in
//! 0..=3 set by the frame counter's phase.

mod common;

use common::*;
use nestris_core::{Buttons, FrameEvents, Game, Snapshot};
use proptest::prelude::*;

/// A T pointing down that lands at row `y` on its first frame: its lowest cell (y+1, 5)
/// rests on a block, and the timer is due.
fn landing_t(y: u8) -> Snapshot {
    let mut s = playing(0, T, 5, y);
    if y < 18 {
        set(&mut s, y as usize + 2, 5, BLOCK);
    }
    s.fall_timer = 47;
    s
}

/// Frames (landing L, lock, spawn S) measured from frame 0, with no buttons.
fn timeline(g: &mut Game) -> (usize, usize, usize) {
    let mut landed = None;
    let mut locked = None;
    for frame in 0..100 {
        let ev = g.step(Buttons::NONE);
        if ev.has(FrameEvents::LANDED) {
            landed.get_or_insert(frame);
        }
        if ev.has(FrameEvents::LOCKED) {
            locked.get_or_insert(frame);
        }
        if ev.has(FrameEvents::SPAWNED) {
            return (landed.unwrap(), locked.unwrap(), frame);
        }
    }
    panic!("no spawn within 100 frames");
}

#[test]
fn a_piece_that_cannot_fall_lands_at_its_next_gravity_step() {
    for (level, speed) in [(0u8, 48), (8, 8), (18, 3), (29, 1)] {
        let mut g = game(playing(level, T, 5, 18));
        // Moving and turning in the meantime buys no time (T down and T left both reach
        // row 19, so the piece stays on the floor).
        let landed = run_until(
            &mut g,
            60,
            |f| match f % 8 {
                0 => Buttons::LEFT,
                2 => Buttons::A,
                4 => Buttons::RIGHT,
                6 => Buttons::B,
                _ => Buttons::NONE,
            },
            |ev, _| ev.has(FrameEvents::LANDED),
        );
        assert_eq!(landed, speed - 1, "level {level}");
        assert_eq!(g.state().play_state, 2);
        // Nothing moves it any more: the next frame writes it into the field.
        let ev = g.step(Buttons::RIGHT | Buttons::A);
        assert!(ev.has(FrameEvents::LOCKED) && !ev.has(FrameEvents::SHIFTED));
    }
}

#[test]
fn entry_delay_without_lines_is_8_plus_2n() {
    for y in 0..=18u8 {
        let mut g = game(landing_t(y));
        let (landed, locked, spawn) = timeline(&mut g);
        let n = copy_frames(y);
        assert_eq!(landed, 0, "y {y}");
        // The lock waits for the copy cursor, which restarts at max(0, y - 2).
        assert_eq!(locked, n, "lock frame, y {y}");
        assert_eq!(spawn - landed, 8 + 2 * n, "y {y}");
    }
}

#[test]
fn entry_delay_is_10_at_the_bottom_and_18_at_the_top() {
    let mut g = game(landing_t(18));
    let (l, _, s) = timeline(&mut g);
    assert_eq!(s - l, 10);
    let mut g = game(landing_t(0));
    let (l, _, s) = timeline(&mut g);
    assert_eq!(s - l, 18);
}

#[test]
fn the_new_piece_is_controllable_the_frame_after_it_spawns() {
    let mut s = landing_t(18);
    s.next_piece = T;
    let mut g = game(s);
    let spawn = run_until(
        &mut g,
        40,
        |_| Buttons::LEFT,
        |ev, _| ev.has(FrameEvents::SPAWNED),
    );
    assert_eq!(spawn, 10);
    // Left was held through the spawn frame without moving the new piece.
    assert_eq!(g.state().x, 5);
    assert!(g.step(Buttons::RIGHT).has(FrameEvents::SHIFTED));
}

/// A T at row `y` that completes row `y + 1` (filled but for the T's stem).
fn clearing_t(y: u8, frame_counter: u16) -> Snapshot {
    let mut s = playing(0, T, 5, y);
    fill_row(&mut s, y as usize + 1, &[5]);
    s.fall_timer = 47;
    s.frame_counter = frame_counter;
    s
}

#[test]
fn entry_delay_with_lines_is_2n_plus_25_plus_phase() {
    for y in 0..=18u8 {
        for fc in [0u16, 1, 2, 3, 0x1234, 0xFFFE] {
            let mut g = game(clearing_t(y, fc));
            let (landed, _, spawn) = timeline(&mut g);
            assert_eq!(g.state().lines, [1, 0]);
            let n = copy_frames(y);
            // Frame k's interrupt tests the counter before its increment: fc + k.
            let first = fc as usize + landed + 2 * n + 4;
            let d = (4 - first % 4) % 4;
            assert_eq!(spawn - landed, 2 * n + 25 + d, "y {y}, frame counter {fc}");
        }
    }
}

#[test]
fn phase_takes_every_value() {
    let delays: Vec<usize> = (0..4)
        .map(|fc| {
            let mut g = game(clearing_t(18, fc));
            let (l, _, s) = timeline(&mut g);
            s - l
        })
        .collect();
    let mut sorted = delays.clone();
    sorted.sort_unstable();
    // N = 1 at the bottom: 27 plus 0..=3.
    assert_eq!(sorted, vec![27, 28, 29, 30], "{delays:?}");
}

#[test]
fn line_clear_states_in_order() {
    let mut g = game(clearing_t(18, 0));
    let mut states = Vec::new();
    for _ in 0..40 {
        g.step(Buttons::NONE);
        let st = g.state().play_state;
        if states.last() != Some(&st) {
            states.push(st);
        }
    }
    // 4 (animation) is followed directly by 6: the interrupt ends the animation and the
    // main loop scores (5) in the same frame.
    assert_eq!(states, vec![2, 3, 4, 6, 7, 8, 1]);
}

proptest! {
    /// The no-lines delay holds wherever a piece lands, whatever the piece.
    #[test]
    fn no_line_delay_any_piece(kind in 0usize..7, column in 2u8..=7, height in 0usize..=18) {
        let mut s = playing(19, SPAWN[kind], column, 0);
        // A flat floor `height` rows high with column 9 open, so no row completes.
        for row in 20 - height..20 {
            fill_row(&mut s, row, &[9]);
        }
        let mut g = game(s);
        let mut landing = None;
        for frame in 0..200 {
            let ev = g.step(Buttons::NONE);
            if ev.has(FrameEvents::LANDED) {
                landing = Some((frame, g.state().y));
            }
            if ev.has(FrameEvents::SPAWNED) {
                let (landed, y) = landing.expect("the piece landed first");
                prop_assert_eq!(frame - landed, 8 + 2 * copy_frames(y), "landed at row {}", y);
                return Ok(());
            }
        }
        prop_assert!(false, "no spawn within 200 frames");
    }
}
