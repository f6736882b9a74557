//! Soft drop (`CARTRIDGE.md` 5.3, 11): it starts only on a fresh Down press with no
//! Left/Right held, steps on the 3rd frame and then every 2nd, ends when the D-pad is not
//! exactly Down, does not carry over a spawn, counts its steps (the failed last one
//! included) in holdDownPoints, and pays `h - 1` points with the cartridge's broken BCD add.

mod common;

use common::*;
use nestris_core::{Buttons, FrameEvents, Game};
use proptest::prelude::*;

fn soft_steps(g: &mut Game, n: usize, input: impl FnMut(usize) -> Buttons) -> Vec<usize> {
    frames_with(g, n, input, FrameEvents::SOFT_DROPPED)
}

#[test]
fn steps_on_the_third_frame_then_every_second() {
    let mut g = game(playing(0, T, 5, 0));
    let steps = soft_steps(&mut g, 12, |_| Buttons::DOWN);
    assert_eq!(steps, vec![2, 4, 6, 8, 10]);
    assert_eq!(g.state().y, 5);
}

#[test]
fn other_buttons_do_not_stop_it() {
    // Only the D-pad has to be exactly Down; A, B, Select and Start may be held.
    let mut g = game(playing(0, T, 5, 0));
    g.step(Buttons::DOWN);
    let steps = soft_steps(&mut g, 6, |_| Buttons::DOWN | Buttons::B | Buttons::SELECT);
    assert_eq!(steps, vec![1, 3, 5]);
}

#[test]
fn no_start_with_left_or_right_held() {
    for side in [Buttons::LEFT, Buttons::RIGHT] {
        let mut g = game(playing(0, T, 5, 0));
        // Down newly pressed together with a direction, then the direction released:
        // Down is no longer new, so it never starts.
        g.step(Buttons::DOWN | side);
        let steps = soft_steps(&mut g, 20, |_| Buttons::DOWN);
        assert!(steps.is_empty(), "{side:?}");
        assert_eq!(g.state().autorepeat_y, 0);
    }
}

#[test]
fn no_start_with_another_direction_newly_pressed() {
    let mut g = game(playing(0, T, 5, 0));
    g.step(Buttons::DOWN | Buttons::UP);
    assert!(soft_steps(&mut g, 20, |_| Buttons::DOWN).is_empty());
}

#[test]
fn held_down_that_is_not_new_does_not_start() {
    let mut s = playing(0, T, 5, 0);
    s.held = Buttons::DOWN.bits();
    let mut g = game(s);
    assert!(soft_steps(&mut g, 20, |_| Buttons::DOWN).is_empty());
}

#[test]
fn adding_a_direction_ends_it_and_resets_the_points() {
    let mut g = game(playing(0, T, 5, 0));
    run(&mut g, Buttons::DOWN, 5);
    assert_eq!(g.state().hold_down_points, 2);
    g.step(Buttons::DOWN | Buttons::LEFT);
    assert_eq!((g.state().autorepeat_y, g.state().hold_down_points), (0, 0));
    assert!(soft_steps(&mut g, 10, |_| Buttons::DOWN).is_empty());
}

#[test]
fn releasing_and_pressing_again_restarts_the_count() {
    let mut g = game(playing(0, T, 5, 0));
    let input = |f: usize| match f {
        0..=4 => Buttons::DOWN,
        5 => Buttons::NONE,
        _ => Buttons::DOWN,
    };
    // Steps on 2 and 4; the new press on frame 6 steps on 8 and 10.
    assert_eq!(soft_steps(&mut g, 11, input), vec![2, 4, 8, 10]);
    assert_eq!(g.state().hold_down_points, 2);
}

#[test]
fn hold_down_points_count_the_failed_last_step() {
    // T at row 10 on an empty field: 8 rows to the floor (row 18), then the failed step.
    let mut g = game(playing(0, T, 5, 10));
    let landing = run_until(
        &mut g,
        40,
        |_| Buttons::DOWN,
        |ev, _| ev.has(FrameEvents::LANDED),
    );
    assert_eq!(landing, 18);
    assert_eq!((g.state().y, g.state().hold_down_points), (18, 9));
    run_until(
        &mut g,
        40,
        |_| Buttons::DOWN,
        |ev, _| ev.has(FrameEvents::SPAWNED),
    );
    // h - 1 = 8 points, and the counter is cleared by the scoring.
    assert_eq!(score(g.state()), 8);
    assert_eq!(g.state().hold_down_points, 0);
}

#[test]
fn down_held_across_a_spawn_does_not_continue() {
    let mut s = playing(0, T, 5, 16);
    s.next_piece = T;
    let mut g = game(s);
    run_until(
        &mut g,
        60,
        |_| Buttons::DOWN,
        |ev, _| ev.has(FrameEvents::SPAWNED),
    );
    assert_eq!((g.state().y, g.state().autorepeat_y), (0, 0));
    // Gravity alone: level 0, one row after 48 frames.
    let drops = frames_with(&mut g, 50, |_| Buttons::DOWN, FrameEvents::DROPPED);
    assert_eq!(drops, vec![47]);
    // A fresh press starts it again.
    g.step(Buttons::NONE);
    assert_eq!(soft_steps(&mut g, 3, |_| Buttons::DOWN), vec![2]);
}

#[test]
fn broken_bcd_add_09_plus_15() {
    // 14 rows from row 4 to the floor plus the failed step: h = 15, worth 14 points;
    // the cartridge turns $09 into $17 instead of $23.
    let mut s = playing(0, T, 5, 4);
    s.score = [0x09, 0, 0];
    let mut g = game(s);
    run_until(
        &mut g,
        80,
        |_| Buttons::DOWN,
        |ev, _| ev.has(FrameEvents::LANDED),
    );
    assert_eq!(g.state().hold_down_points, 15);
    run_until(
        &mut g,
        80,
        |_| Buttons::DOWN,
        |ev, _| ev.has(FrameEvents::SPAWNED),
    );
    assert_eq!(g.state().score, [0x17, 0, 0]);
}

#[test]
fn broken_bcd_add_drops_the_ones_digit_on_a_tens_overflow() {
    // s0 = $98, h = 12 (11 rows from row 7, plus the failed step): s0 = $00, s1 + 1.
    let mut s = playing(0, T, 5, 7);
    s.score = [0x98, 0x00, 0];
    let mut g = game(s);
    run_until(
        &mut g,
        80,
        |_| Buttons::DOWN,
        |ev, _| ev.has(FrameEvents::SPAWNED),
    );
    assert_eq!(g.state().score, [0x00, 0x01, 0]);
}

/// `CARTRIDGE.md` 11, hold-down points, on the low score byte; returns (s0, carry).
fn spec_hold_down(s0: u8, h: u8) -> (u8, u8) {
    if (h.wrapping_sub(2) as i8) < 0 {
        return (s0, 0);
    }
    let mut a = s0.wrapping_sub(1).wrapping_add(h);
    if a & 0x0F >= 0x0A {
        a = a.wrapping_add(6);
    }
    if a & 0xF0 >= 0xA0 {
        return ((a & 0xF0).wrapping_add(0x60), 1);
    }
    (a, 0)
}

proptest! {
    /// Soft-dropping a T from row `y` to the floor of an empty field gives h = 19 - y,
    /// paid by the spec's broken add; exactly `h - 1` whenever no digit overflows.
    #[test]
    fn soft_drop_points(y in 0u8..=17, s0 in 0u32..100) {
        let mut s = playing(0, T, 5, y);
        s.score = [bcd(s0), 0, 0];
        let mut g = game(s);
        let mut h = 0;
        run_until(&mut g, 100, |_| Buttons::DOWN, |ev, st| {
            if ev.has(FrameEvents::LANDED) {
                h = st.hold_down_points;
            }
            ev.has(FrameEvents::SPAWNED)
        });
        prop_assert_eq!(h, 19 - y);
        let (lo, carry) = spec_hold_down(bcd(s0), h);
        prop_assert_eq!(g.state().score, [lo, carry, 0]);
        if s0 % 10 + h as u32 - 1 < 16 && s0 + h as u32 - 1 < 100 {
            prop_assert_eq!(score(g.state()), s0 + h as u32 - 1);
        }
    }
}
