//! Level 29 (`CARTRIDGE.md` 5.1, 5.3, 8, 20.2): one row per frame, so a piece on an
//! empty board is under control for 19 frames (20 for the flat I), and how far it can
//! be moved in that time: 2 columns when the direction is pressed as it appears, 4
//! with DAS already charged, 9 or 10 tapping every other frame.
//!
//! "Under control" is counted precisely as: the frames after the spawn frame in which
//! the piece update runs in play state 1 for this piece (so shift and rotate are tried),
//! up to and including the frame whose failed step down sets play state 2. The spawn
//! frame itself does not count: the spawn happens in that frame's piece update.

mod common;

use common::*;
use nestris_core::{Buttons, FrameEvents, Game};

/// Frame 0 spawns `piece` at level 29 on an empty board (frame 0 is the spawn frame S).
fn spawning(piece: u8) -> Game {
    game(about_to_spawn(29, piece))
}

/// Runs from the spawn until the piece lands; returns (frames under control, shifts).
fn control(mut g: Game, input: impl Fn(usize) -> Buttons) -> (usize, usize) {
    assert!(g.step(input(0)).has(FrameEvents::SPAWNED));
    let (mut frames, mut shifts) = (0, 0);
    for f in 1..100 {
        assert_eq!(g.state().play_state, 1);
        frames += 1;
        let ev = g.step(input(f));
        shifts += usize::from(ev.has(FrameEvents::SHIFTED));
        if ev.has(FrameEvents::LANDED) {
            return (frames, shifts);
        }
    }
    panic!("no landing");
}

#[test]
fn under_control_for_19_frames_20_for_the_flat_i() {
    for kind in 0..7 {
        let (frames, _) = control(spawning(SPAWN[kind]), |_| Buttons::NONE);
        // Every spawn orientation but the flat I reaches one row below its pivot, so
        // its pivot stops at row 18 after 18 one-row drops; the I stops at row 19.
        let expected = if SPAWN[kind] == I { 20 } else { 19 };
        assert_eq!(frames, expected, "{}", NAMES[kind]);
    }
}

#[test]
fn pressed_as_it_appears_shifts_2_columns() {
    // New press on the first controlled frame (S+1): moves at once, then DAS needs 16
    // more frames (S+17); the next repeat (S+23) is too late.
    for kind in 0..7 {
        let (_, shifts) = control(spawning(SPAWN[kind]), |f| {
            if f >= 1 {
                Buttons::LEFT
            } else {
                Buttons::NONE
            }
        });
        assert_eq!(shifts, 2, "{}", NAMES[kind]);
    }
}

#[test]
fn held_through_the_spawn_with_no_charge_shifts_1_column() {
    // Held since before the spawn with the counter at 0: not a new press, so the
    // first move waits for the counter to reach 16 (S+16).
    let mut s = about_to_spawn(29, T);
    s.autorepeat_x = 0;
    s.held = Buttons::LEFT.bits();
    let (_, shifts) = control(game(s), |_| Buttons::LEFT);
    assert_eq!(shifts, 1);
}

#[test]
fn with_das_charged_shifts_4_columns() {
    // autorepeatX = 15 carried in and the direction held: moves on S+1, S+7, S+13, S+19.
    // Moving left: a T (like J, Z, O, S, L) has room for exactly 4 from column 5.
    for charge in [15, 16] {
        let mut s = about_to_spawn(29, T);
        s.autorepeat_x = charge;
        s.held = Buttons::LEFT.bits();
        let mut g = game(s);
        let (frames, shifts) = control(g.clone(), |_| Buttons::LEFT);
        assert_eq!((frames, shifts), (19, 4), "charge {charge}");
        g.step(Buttons::LEFT);
        let moves = frames_with(&mut g, 19, |_| Buttons::LEFT, FrameEvents::SHIFTED);
        assert_eq!(moves, vec![0, 6, 12, 18], "frames after S+1");
    }
}

#[test]
fn tapping_every_other_frame_shifts_9_or_10_times() {
    // Taps alternate Left and Right so that every tap can move on an empty board; each
    // is a new press and moves at once. 19 controlled frames hold 10 taps when the
    // first lands on S+1, 9 when it lands on S+2.
    let tap = |phase: usize| {
        move |f: usize| {
            if f >= 1 && (f - 1) % 2 == phase {
                if (f - 1) / 2 % 2 == 0 {
                    Buttons::LEFT
                } else {
                    Buttons::RIGHT
                }
            } else {
                Buttons::NONE
            }
        }
    };
    assert_eq!(control(spawning(T), tap(0)), (19, 10));
    assert_eq!(control(spawning(T), tap(1)), (19, 9));
    // The flat I's 20 frames hold 10 taps either way.
    assert_eq!(control(spawning(I), tap(0)), (20, 10));
    assert_eq!(control(spawning(I), tap(1)), (20, 10));
}

#[test]
fn tapping_one_way_reaches_the_wall() {
    // Tapping Left every other frame from S+1 moves a T to column 1 in 4 taps: the
    // rest of its 10 taps are spent against the wall.
    let (_, shifts) = control(spawning(T), |f| {
        if f % 2 == 1 {
            Buttons::LEFT
        } else {
            Buttons::NONE
        }
    });
    assert_eq!(shifts, 4);
}
