//! Horizontal shifting and DAS (`CARTRIDGE.md` 5.1, 19): the 16/6 (PAL 12/4) repeat,
//! a blocked shift charging the counter to 16 and retrying every frame, the charge
//! carried over a spawn, new presses, tapping, Right over Left, and Down blocking shifts.

mod common;

use common::*;
use nestris_core::{Buttons, FrameEvents, Game, Region};
use proptest::prelude::*;

fn shift_frames(g: &mut Game, n: usize, input: impl FnMut(usize) -> Buttons) -> Vec<usize> {
    frames_with(g, n, input, FrameEvents::SHIFTED)
}

#[test]
fn holding_from_frame_0_moves_on_0_16_22_28() {
    let mut s = fresh(0);
    s.piece = T;
    let mut g = game(s);
    // A T at column 5 can move left four times before the wall.
    let moves = shift_frames(&mut g, 60, |_| Buttons::LEFT);
    assert_eq!(moves, vec![0, 16, 22, 28]);
    assert_eq!(g.state().x, 1);
}

#[test]
fn pal_holding_from_frame_0_moves_on_0_12_16_20() {
    let mut s = Game::new(setup(Region::Pal, 0)).snapshot();
    s.piece = T;
    let mut g = game(s);
    let moves = shift_frames(&mut g, 60, |_| Buttons::LEFT);
    assert_eq!(moves, vec![0, 12, 16, 20]);
}

#[test]
fn das_counter_values_while_held() {
    let mut g = game(playing(0, T, 5, 5));
    let mut counts = Vec::new();
    for _ in 0..24 {
        g.step(Buttons::RIGHT);
        counts.push(g.state().autorepeat_x);
    }
    // New press: 0; then +1 per frame; at 16 it moves and restarts from 10.
    let mut expected: Vec<u8> = (0..16).collect();
    expected.extend([10, 11, 12, 13, 14, 15, 10, 11]);
    assert_eq!(counts, expected);
}

#[test]
fn blocked_shift_charges_16_and_retries_every_frame() {
    // The T at row 5 has a block to its left; after falling one row it is free.
    let mut s = playing(19, T, 5, 5);
    set(&mut s, 5, 3, BLOCK);
    let mut g = game(s);
    let ev = g.step(Buttons::LEFT);
    assert!(!ev.has(FrameEvents::SHIFTED));
    assert_eq!((g.state().x, g.state().autorepeat_x), (5, 16));
    // Frame 1: 16 + 1 reaches the limit, the retry fails again (recharging 16), then
    // gravity (2 frames per row at level 19) moves the piece below the block.
    let ev = g.step(Buttons::LEFT);
    assert!(!ev.has(FrameEvents::SHIFTED) && ev.has(FrameEvents::DROPPED));
    assert_eq!(
        (g.state().x, g.state().y, g.state().autorepeat_x),
        (5, 6, 16)
    );
    // Frame 2: the retry succeeds at once, leaving the counter at the repeat start.
    let ev = g.step(Buttons::LEFT);
    assert!(ev.has(FrameEvents::SHIFTED));
    assert_eq!((g.state().x, g.state().autorepeat_x), (4, 10));
}

#[test]
fn held_against_the_wall_stays_charged() {
    let mut g = game(playing(0, T, 1, 5));
    for _ in 0..30 {
        g.step(Buttons::LEFT);
        assert_eq!((g.state().x, g.state().autorepeat_x), (1, 16));
    }
}

#[test]
fn charge_survives_a_spawn() {
    // A T against the left wall on the floor, about to take its last gravity step.
    let mut s = playing(0, T, 1, 18);
    s.fall_timer = 47;
    s.next_piece = T;
    let mut g = game(s);
    let spawn = run_until(
        &mut g,
        40,
        |_| Buttons::LEFT,
        |ev, _| ev.has(FrameEvents::SPAWNED),
    );
    assert!(spawn > 0);
    // Neither the entry delay nor the spawn touched the counter.
    assert_eq!((g.state().x, g.state().autorepeat_x), (5, 16));
    // The first frame under control: 17 >= 16, the new piece moves at once.
    assert!(g.step(Buttons::LEFT).has(FrameEvents::SHIFTED));
    assert_eq!((g.state().x, g.state().autorepeat_x), (4, 10));
}

#[test]
fn counter_frozen_while_no_piece_is_controlled() {
    let mut s = playing(0, T, 5, 18);
    s.fall_timer = 47;
    s.autorepeat_x = 7;
    // Right already held: no new press to reset the counter.
    s.held = Buttons::RIGHT.bits();
    let mut g = game(s);
    // Landing frame: still play state 1, so Right counts once (7 -> 8) before the drop fails.
    g.step(Buttons::RIGHT);
    assert_eq!((g.state().play_state, g.state().autorepeat_x), (2, 8));
    run_until(
        &mut g,
        40,
        |_| Buttons::RIGHT,
        |ev, _| ev.has(FrameEvents::SPAWNED),
    );
    assert_eq!(g.state().autorepeat_x, 8);
}

#[test]
fn a_new_press_moves_at_once_whatever_the_charge() {
    for charge in [0, 5, 10, 15, 16] {
        let mut s = playing(0, T, 5, 5);
        s.autorepeat_x = charge;
        let mut g = game(s);
        assert!(g.step(Buttons::RIGHT).has(FrameEvents::SHIFTED));
        assert_eq!(
            (g.state().x, g.state().autorepeat_x),
            (6, 0),
            "charge {charge}"
        );
    }
}

#[test]
fn switching_direction_is_a_new_press() {
    let mut g = game(playing(0, T, 5, 5));
    g.step(Buttons::LEFT);
    assert_eq!(g.state().x, 4);
    // Right newly pressed while Left stays held: a new press, and Right wins.
    g.step(Buttons::LEFT | Buttons::RIGHT);
    assert_eq!(g.state().x, 5);
    // Releasing Right: Left is held but not new, so it only counts.
    g.step(Buttons::LEFT);
    assert_eq!((g.state().x, g.state().autorepeat_x), (5, 1));
}

#[test]
fn tapping_every_other_frame_moves_every_two_frames() {
    let mut g = game(playing(0, T, 5, 5));
    let tap = |f: usize| {
        if f % 2 == 0 {
            Buttons::RIGHT
        } else {
            Buttons::NONE
        }
    };
    // Columns 6, 7, 8; the fourth tap hits the wall.
    assert_eq!(shift_frames(&mut g, 12, tap), vec![0, 2, 4]);
    assert_eq!(g.state().x, 8);
}

#[test]
fn right_wins_over_left() {
    let mut g = game(playing(0, T, 5, 5));
    assert!(g
        .step(Buttons::LEFT | Buttons::RIGHT)
        .has(FrameEvents::SHIFTED));
    assert_eq!(g.state().x, 6);
    // And it keeps winning when both repeat.
    let moves = shift_frames(&mut g, 20, |_| Buttons::LEFT | Buttons::RIGHT);
    assert_eq!(moves, vec![15]);
    assert_eq!(g.state().x, 7);
}

#[test]
fn down_held_blocks_shifting_and_freezes_the_counter() {
    for extra in [Buttons::NONE, Buttons::A, Buttons::LEFT] {
        let mut s = playing(0, T, 5, 5);
        s.autorepeat_x = 7;
        let mut g = game(s);
        let buttons = Buttons::DOWN | Buttons::RIGHT | extra;
        assert!(shift_frames(&mut g, 20, |_| buttons).is_empty());
        assert_eq!((g.state().x, g.state().autorepeat_x), (5, 7));
    }
}

#[test]
fn shifting_resumes_after_down_is_released() {
    let mut g = game(playing(0, T, 5, 5));
    g.step(Buttons::DOWN | Buttons::RIGHT);
    // Right is held but no longer new: it charges from the untouched counter (0).
    let moves = shift_frames(&mut g, 20, |_| Buttons::RIGHT);
    assert_eq!(moves, vec![15]);
}

proptest! {
    /// Held from a new press on an empty board, every piece moves on frames 0, 16, 22,
    /// 28, ... (PAL 0, 12, 16, 20, ...) until the wall, then stays charged at the limit.
    #[test]
    fn held_moves_follow_das_until_the_wall(
        kind in 0usize..7,
        rotations in 0usize..4,
        right in any::<bool>(),
        pal in any::<bool>(),
    ) {
        let region = if pal { Region::Pal } else { Region::Ntsc };
        let (limit, repeat) = if pal { (12, 4) } else { (16, 6) };
        let mut g = game(playing_in(region, 0, SPAWN[kind], 5, 5));
        for _ in 0..rotations {
            g.step(Buttons::A);
            g.step(Buttons::NONE);
        }
        let s = g.state();
        let (piece, x) = (s.piece, s.x);
        let dir = if right { Buttons::RIGHT } else { Buttons::LEFT };
        // How far the piece can go, from the spec's shapes.
        let cols = SPEC_CELLS[piece as usize].iter().map(|&(_, dc)| x as i32 + dc as i32);
        let room = if right { 9 - cols.max().unwrap() } else { cols.min().unwrap() } as usize;
        let expected: Vec<usize> = (0..room)
            .map(|k| if k == 0 { 0 } else { limit + (k - 1) * repeat })
            .collect();
        let span = expected.last().copied().unwrap_or(0) + limit;
        prop_assert_eq!(shift_frames(&mut g, span, |_| dir), expected);
        prop_assert_eq!(g.state().autorepeat_x, limit as u8);
    }
}
