//! Display lag: an interrupt inside the player update draws lines, level and score from
//! the mirror, the values from before the update, and clears their render flags, so the
//! picture keeps them until they next change (`nestris_core::view::StaleDigits`).

mod common;

use nestris_core::encode::timing_len;
use nestris_core::{Buttons, CrashMode, FrameEvents, Game, Snapshot};

/// The score frame of a single that completes a ten (9 lines before it, so the level goes
/// up) at `level`, the score capped, music off.
fn level_up_frame(level: u8) -> Game {
    let mut s = common::capped_score_frame(level, CrashMode::Show).snapshot();
    s.lines = [0x09, 0x00];
    Game::from_snapshot(s).unwrap()
}

/// Steps the score frame's lag frame and the frame that finishes it; the events of both.
fn through_the_update(g: &mut Game) -> FrameEvents {
    let lag = g.step(Buttons::NONE);
    assert!(lag.has(FrameEvents::LAG), "{lag:?}");
    let next = g.step(Buttons::NONE);
    FrameEvents {
        flags: lag.flags | next.flags,
        ..next
    }
}

#[test]
fn an_interrupt_before_the_copy_back_leaves_the_old_lines_and_level_on_the_picture() {
    // At level 166 the interrupt lands in the score loop, after the lines and level
    // changed in the active copy and before the copy back.
    let mut g = level_up_frame(166);
    let ev = through_the_update(&mut g);
    assert!(ev.has(FrameEvents::DIGITS_STALE));
    let s = g.state();
    assert_eq!((s.lines, s.level), ([0x10, 0x00], 167));
    assert_eq!((s.shown_lines(), s.shown_level()), ([0x09, 0x00], 166));
    assert!(s.display_lag());
    // The flags are cleared: the picture keeps the old counters while the game goes on
    // (the next piece falls, locks, and the lock's score frame redraws only the score).
    for _ in 0..300 {
        let ev = g.step(Buttons::NONE);
        if ev.has(FrameEvents::TOPPED_OUT) {
            break;
        }
        assert!(!ev.has(FrameEvents::LINES_CLEARED));
    }
    let s = g.state();
    assert_eq!((s.shown_lines(), s.shown_level()), ([0x09, 0x00], 166));
}

#[test]
fn the_level_alone_can_lag() {
    // Two levels lower the interrupt lands after the lines were copied back but not the
    // level (the copy runs from the block's last byte down).
    let mut g = level_up_frame(164);
    assert!(through_the_update(&mut g).has(FrameEvents::DIGITS_STALE));
    let s = g.state();
    assert_eq!(s.shown_lines(), s.lines);
    assert_eq!((s.shown_level(), s.level), (164, 165));
}

#[test]
fn an_interrupt_after_the_copy_back_draws_the_new_counters() {
    for level in [152, 160] {
        let mut g = level_up_frame(level);
        let ev = through_the_update(&mut g);
        assert!(!ev.has(FrameEvents::DIGITS_STALE), "level {level}");
        assert!(!g.state().display_lag(), "level {level}");
    }
}

#[test]
fn the_stale_counters_ride_in_the_timing_block() {
    let mut g = level_up_frame(166);
    through_the_update(&mut g);
    let s = g.snapshot();
    let block = s.encode_timing();
    let mut back = Snapshot::decode(&s.encode()).unwrap();
    back.decode_timing(&block).unwrap();
    assert_eq!(back, s);
    assert!(back.display_lag());
    // A version-4 block (before they were kept) reads: the picture shows the variables.
    let mut v4 = block[..timing_len(4).unwrap()].to_vec();
    v4[0] = 4;
    let mut old = Snapshot::decode(&s.encode()).unwrap();
    old.decode_timing(&v4).unwrap();
    assert!(!old.display_lag());
    // Bytes of a counter marked unset are damage (one encoding per state).
    let mut bad = block;
    let last = bad.len() - 1;
    bad[last - 6] &= !4;
    assert!(Snapshot::decode(&s.encode())
        .unwrap()
        .decode_timing(&bad)
        .is_err());
}
