//! Line-clear points (`CARTRIDGE.md` 10, 11, 20.3): 40 / 100 / 300 / 1200 times
//! (level + 1), at the level reached by this very clear, capped at 999,999, with
//! soft-drop points added first; and the singles/doubles/triples/tetrises counters.

mod common;

use common::*;
use nestris_core::{Buttons, FrameEvents, Snapshot};
use proptest::prelude::*;

const POINTS: [u32; 5] = [0, 40, 100, 300, 1200];

fn at(level: u8, lines: u32, score: u32) -> Snapshot {
    let mut s = playing(level, T, 5, 0);
    s.lines = lines_bytes(lines);
    s.score = score_bytes(score);
    s
}

#[test]
fn points_per_clear_size_and_level() {
    for level in 0..=40u8 {
        for (count, &points) in POINTS.iter().enumerate().skip(1) {
            let g = clear_bottom_rows(at(level, 0, 0), count);
            assert_eq!(
                score(g.state()),
                points * (level as u32 + 1),
                "{count} lines at level {level}"
            );
            assert_eq!(g.state().level, level, "no level-up from 0 lines");
        }
    }
}

#[test]
fn clear_counters_by_size() {
    let mut s = at(0, 0, 0);
    s.clears = [0x09, 0x19, 0x98, 0x99];
    let g = clear_bottom_rows(s.clone(), 1);
    assert_eq!(g.state().clears, [0x10, 0x19, 0x98, 0x99]);
    let g = clear_bottom_rows(s.clone(), 3);
    assert_eq!(g.state().clears, [0x09, 0x19, 0x99, 0x99]);
    // No carry past 99: the low nibble fix only, the byte wraps to $9A + 6 = $A0.
    let g = clear_bottom_rows(s, 4);
    assert_eq!(g.state().clears, [0x09, 0x19, 0x98, 0xA0]);
}

#[test]
fn the_clear_that_levels_up_scores_at_the_new_level() {
    // Level 0, 9 lines: the single makes 10 lines, level 1, and pays 40 * 2.
    let g = clear_bottom_rows(at(0, 9, 0), 1);
    assert_eq!((g.state().level, score(g.state())), (1, 80));
    // A tetris from 8 lines: 12 lines, level 1, 1200 * 2.
    let g = clear_bottom_rows(at(0, 8, 0), 4);
    assert_eq!((g.state().level, score(g.state())), (1, 2400));
    // Level 18 start at 129 lines: a double reaches 131, level 19, 100 * 20.
    let g = clear_bottom_rows(at(18, 129, 0), 2);
    assert_eq!((g.state().level, score(g.state())), (19, 2000));
}

#[test]
fn score_caps_at_999999() {
    let g = clear_bottom_rows(at(9, 0, 999_000), 4);
    assert_eq!(g.state().score, [0x99, 0x99, 0x99]);
    // Already capped: stays.
    let g = clear_bottom_rows(at(29, 0, 999_999), 1);
    assert_eq!(g.state().score, [0x99, 0x99, 0x99]);
}

#[test]
fn level_255_pays_256_times() {
    // The repeat count is levelNumber + 1 in 8 bits, run as 256 passes at level 255.
    let g = clear_bottom_rows(at(255, 0, 0), 1);
    assert_eq!(score(g.state()), 40 * 256);
}

#[test]
fn soft_drop_points_come_before_the_clear_points() {
    // A vertical I soft-dropped from row 2 to the floor: 16 steps + the failed one.
    // h = 17: $FF + $11 = $10 -> 10 points (not 16: h >= 16 is broken), then 40.
    let mut s = at(0, 0, 0);
    fill_row(&mut s, 19, &[0]);
    s.piece = I_VERTICAL;
    s.x = 0;
    s.y = 2;
    let mut g = game(s);
    run_until(
        &mut g,
        100,
        |_| Buttons::DOWN,
        |ev, _| ev.has(FrameEvents::SPAWNED),
    );
    assert_eq!(g.state().score, [0x50, 0, 0]);
    // From row 10 instead: h = 9, 8 points, and the sum is exact.
    let mut s = at(0, 0, 0);
    fill_row(&mut s, 19, &[0]);
    s.piece = I_VERTICAL;
    s.x = 0;
    s.y = 10;
    let mut g = game(s);
    run_until(
        &mut g,
        100,
        |_| Buttons::DOWN,
        |ev, _| ev.has(FrameEvents::SPAWNED),
    );
    assert_eq!(score(g.state()), 48);
}

#[test]
fn a_lock_without_lines_scores_nothing() {
    let mut s = at(5, 0, 1234);
    s.fall_timer = 100;
    s.y = 18;
    let mut g = game(s);
    let changed = frames_with(&mut g, 12, |_| Buttons::NONE, FrameEvents::SCORE_CHANGED);
    assert!(changed.is_empty());
    assert_eq!(score(g.state()), 1234);
}

proptest! {
    /// From any decimal score, a clear adds exactly points * (level + 1), capped.
    #[test]
    fn clear_points_are_decimal(
        start in 0u32..=999_999,
        level in 0u8..=30,
        count in 1usize..=4,
    ) {
        let g = clear_bottom_rows(at(level, 0, start), count);
        let expected = (start + POINTS[count] * (level as u32 + 1)).min(999_999);
        prop_assert_eq!(score(g.state()), expected);
    }
}
