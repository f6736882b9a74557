//! Gravity (`CARTRIDGE.md` 5.3, 5.4, 19, 20.2): frames per row by level on both builds,
//! level 29 and above at one frame per row, and the first piece of a game hanging at the
//! top until frame 96 (PAL 76) unless Down is newly pressed.

mod common;

use common::*;
use nestris_core::{Buttons, FrameEvents, Game, Region};
use proptest::prelude::*;

/// Frames per row for levels 0..=28, NTSC (`CARTRIDGE.md` 20.2).
const NTSC: [usize; 29] = [
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
];
/// Frames per row for levels 0..=18, PAL; 1 from level 19 on.
const PAL: [usize; 19] = [
    36, 32, 29, 25, 22, 18, 15, 11, 7, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2,
];

fn expected_speed(region: Region, level: u8) -> usize {
    let level = level as usize;
    match region {
        Region::Ntsc if level < 29 => NTSC[level],
        Region::Pal if level < 19 => PAL[level],
        _ => 1,
    }
}

/// The frames in which a piece dropped a row, with no buttons, over `n` frames.
fn drop_frames(mut g: Game, n: usize) -> Vec<usize> {
    frames_with(&mut g, n, |_| Buttons::NONE, FrameEvents::DROPPED)
}

fn check_speed(region: Region, level: u8) {
    let speed = expected_speed(region, level);
    let g = game(playing_in(region, level, T, 5, 0));
    // fallTimer is incremented before the drop test and the step needs fallTimer >= speed,
    // so with the timer at 0 the k-th drop comes at frame k*speed - 1.
    let expected: Vec<usize> = (1..=3).map(|k| k * speed - 1).collect();
    assert_eq!(
        drop_frames(g, 3 * speed),
        expected,
        "{region:?} level {level}: {speed} frames per row"
    );
}

#[test]
fn ntsc_frames_per_row_by_level() {
    for level in 0..=40 {
        check_speed(Region::Ntsc, level);
    }
}

#[test]
fn pal_frames_per_row_by_level() {
    for level in 0..=40 {
        check_speed(Region::Pal, level);
    }
}

proptest! {
    /// The table is not read from level 29 on: every higher level, up to 255, is 1.
    #[test]
    fn every_level_from_29_is_one_frame_per_row(level in 29u8..=255, pal in any::<bool>()) {
        let region = if pal { Region::Pal } else { Region::Ntsc };
        let g = game(playing_in(region, level, T, 5, 0));
        prop_assert_eq!(drop_frames(g, 5), vec![0, 1, 2, 3, 4]);
    }

    /// A drop resets the timer: the gap between drops is the level's speed whatever the
    /// timer held when the piece appeared (within the speed).
    #[test]
    fn drops_follow_the_timer(level in 0u8..=28, start in 0u8..48) {
        let speed = NTSC[level as usize];
        let start = start % speed as u8;
        let mut s = playing(level, T, 5, 0);
        s.fall_timer = start;
        let first = speed - 1 - start as usize;
        prop_assert_eq!(
            drop_frames(game(s), first + 2 * speed + 1),
            vec![first, first + speed, first + 2 * speed]
        );
    }
}

#[test]
fn first_piece_hangs_96_frames_then_drops_on_frame_96() {
    for level in [0, 5, 9, 18, 19, 29] {
        let speed = expected_speed(Region::Ntsc, level);
        let g = game(fresh(level));
        let drops = drop_frames(g, 96 + 2 * speed + 1);
        // The timer kept counting during the countdown, so the first step is due at once.
        assert_eq!(drops[0], 96, "level {level}");
        assert_eq!(drops[1], 96 + speed, "level {level}");
    }
}

#[test]
fn pal_first_piece_hangs_76_frames() {
    for level in [0, 9, 19] {
        let speed = expected_speed(Region::Pal, level);
        let g = Game::new(setup(Region::Pal, level));
        let drops = drop_frames(g, 76 + 2 * speed + 1);
        assert_eq!(drops[0], 76, "PAL level {level}");
        assert_eq!(drops[1], 76 + speed, "PAL level {level}");
    }
}

#[test]
fn first_piece_countdown_is_a_signed_byte() {
    let mut g = game(fresh(0));
    assert_eq!(g.state().autorepeat_y, 0xA0, "-96");
    run(&mut g, Buttons::NONE, 95);
    assert_eq!(g.state().autorepeat_y, 0xFF);
    assert_eq!(g.state().y, 0);
    // Frame 95 counts the byte up to 0 and still applies no gravity; frame 96 drops.
    g.step(Buttons::NONE);
    assert_eq!((g.state().autorepeat_y, g.state().y), (0, 0));
    g.step(Buttons::NONE);
    assert_eq!(g.state().y, 1);
}

#[test]
fn down_press_ends_the_first_piece_countdown() {
    for press in [0, 10, 40] {
        let mut g = game(fresh(0));
        let drops = frames_with(
            &mut g,
            press + 5,
            |f| {
                if f >= press {
                    Buttons::DOWN
                } else {
                    Buttons::NONE
                }
            },
            FrameEvents::DROPPED,
        );
        // The press starts a soft drop: first row two frames after the press, then every 2.
        assert_eq!(
            drops,
            vec![press + 2, press + 4],
            "Down pressed on frame {press}"
        );
    }
}

#[test]
fn down_held_from_before_the_game_does_not_end_the_countdown() {
    // Only a new press cancels the countdown: Down already held before frame 0 is never
    // newly pressed, so the piece hangs its full 96 frames.
    let mut s = fresh(0);
    s.held = Buttons::DOWN.bits();
    let mut g = game(s);
    let drops = frames_with(&mut g, 97, |_| Buttons::DOWN, FrameEvents::DROPPED);
    assert_eq!(drops, vec![96]);
}

#[test]
fn shift_and_rotate_work_during_the_countdown() {
    let mut s = fresh(0);
    s.piece = T;
    let mut g = game(s);
    g.step(Buttons::LEFT);
    g.step(Buttons::NONE);
    g.step(Buttons::A);
    assert_eq!((g.state().x, g.state().y, g.state().piece), (4, 0, 3));
}
