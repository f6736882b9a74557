//! Level progression in A-type (`CARTRIDGE.md` 10, 15): the first level-up at
//! 10 x (start + 1) lines for starts 0-9, 100 lines for 10-15, 110/120/130/140 for
//! 16-19, then one level every 10 lines; the 8-bit level wrapping; A+Start adding 10.

mod common;

use common::*;
use nestris_core::{Game, GameSetup};

/// Plays single-line clears from 0 lines at `start` and returns the level after each.
fn levels_by_singles(start: u8, total: u32) -> Vec<u8> {
    let mut s = playing(start, T, 5, 0);
    let mut out = Vec::new();
    for _ in 0..total {
        let g = clear_bottom_rows(s, 1);
        out.push(g.state().level);
        s = g.snapshot();
    }
    out
}

/// First level-up line count from `CARTRIDGE.md` 10 (consequences).
fn first_level_up(start: u8) -> u32 {
    match start {
        0..=9 => 10 * (start as u32 + 1),
        10..=15 => 100,
        16..=19 => 110 + 10 * (start as u32 - 16),
        _ => unreachable!(),
    }
}

#[test]
fn first_level_up_then_every_10_lines() {
    for start in 0..=19u8 {
        let first = first_level_up(start);
        let total = first + 35;
        let levels = levels_by_singles(start, total);
        for (i, &level) in levels.iter().enumerate() {
            let lines = i as u32 + 1;
            let expected = if lines < first {
                start
            } else {
                start + 1 + ((lines - first) / 10) as u8
            };
            assert_eq!(level, expected, "start {start}, {lines} lines");
        }
    }
}

#[test]
fn tetrises_level_up_at_most_once_and_on_the_tens() {
    // Start 0 with tetrises: 4, 8, 12 (level 1), 16, 20 (level 2), ...
    let mut s = playing(0, T, 5, 0);
    let mut seen = Vec::new();
    for _ in 0..10 {
        let g = clear_bottom_rows(s, 4);
        seen.push((lines(g.state()), g.state().level));
        s = g.snapshot();
    }
    assert_eq!(
        seen,
        [
            (4, 0),
            (8, 0),
            (12, 1),
            (16, 1),
            (20, 2),
            (24, 2),
            (28, 2),
            (32, 3),
            (36, 3),
            (40, 4)
        ]
    );
}

#[test]
fn lines_count_in_bcd_into_the_hundreds() {
    let mut s = playing(20, T, 5, 0);
    s.lines = [0x98, 0x01];
    let g = clear_bottom_rows(s, 4);
    assert_eq!(g.state().lines, [0x02, 0x02]);
    assert_eq!(lines(g.state()), 202);
}

#[test]
fn level_28_to_29_to_30() {
    // A poked level 28 at 280 lines climbs every 10 lines like any other.
    let mut s = playing(28, T, 5, 0);
    s.lines = lines_bytes(289);
    let g = clear_bottom_rows(s, 1);
    assert_eq!(g.state().level, 29);
    let mut s = g.snapshot();
    s.lines = lines_bytes(299);
    let g = clear_bottom_rows(s, 1);
    assert_eq!(g.state().level, 30);
}

#[test]
fn level_wraps_from_255_to_0() {
    // (255 - 1) is negative as a signed byte, so the tenth line raises the level, which
    // wraps to 0; the single is then worth 40 * 1.
    let mut s = playing(255, T, 5, 0);
    s.lines = lines_bytes(9);
    let g = clear_bottom_rows(s, 1);
    assert_eq!(g.state().level, 0);
    assert_eq!(score(g.state()), 40);
}

#[test]
fn levels_from_128_up_rise_on_every_tenth_line() {
    // The compare is signed: levels 129..=255 are "below" any line count.
    for level in [129u8, 160, 200, 254] {
        let mut s = playing(level, T, 5, 0);
        s.lines = lines_bytes(9);
        let g = clear_bottom_rows(s, 1);
        assert_eq!(g.state().level, level + 1, "level {level}");
    }
    // 128 - 1 = 127 is positive: no rise at 10 lines.
    let mut s = playing(128, T, 5, 0);
    s.lines = lines_bytes(9);
    assert_eq!(clear_bottom_rows(s, 1).state().level, 128);
}

#[test]
fn a_held_on_start_adds_10() {
    for level in 0..=9u8 {
        let g = Game::new(GameSetup {
            level,
            a_held_on_start: true,
            ..GameSetup::default()
        });
        assert_eq!(
            (g.state().level, g.state().start_level),
            (level + 10, level + 10)
        );
    }
}

#[test]
fn a_plus_start_level_15_first_rises_at_100_lines() {
    let mut s = started(GameSetup {
        level: 5,
        a_held_on_start: true,
        ..GameSetup::default()
    });
    s.piece = T;
    s.autorepeat_y = 0;
    s.lines = lines_bytes(99);
    let g = clear_bottom_rows(s.clone(), 1);
    assert_eq!(g.state().level, 16);
    s.lines = lines_bytes(89);
    assert_eq!(clear_bottom_rows(s, 1).state().level, 15);
}

#[test]
fn b_type_never_levels_up() {
    let mut s = b_type(playing(5, T, 5, 0));
    s.lines = [0x21, 0];
    let g = clear_bottom_rows(s, 1);
    assert_eq!((g.state().level, g.state().lines), (5, [0x20, 0]));
}
