//! Lag frames: a score frame at a very high level runs past the next frame interrupt. With
//! the music off the sound engine's cycles are exact without a cartridge image, so these
//! frames are placed from the engine alone (the recordings with music need the user's ROM:
//! see `crates/trace/tests/high_level.rs`).

use nestris_core::{Buttons, Cut, FrameEvents, Game, GameSetup, Playfield, Resume, Snapshot};

/// A game at `level` with the score capped, music off, a single just counted (the score
/// frame comes next) and the field empty but for one row.
fn score_frame_at(level: u8) -> Game {
    let mut g = Game::new(GameSetup {
        level: 18,
        music_type: 3,
        ..GameSetup::default()
    });
    // Frame 0 of the game: its music choice (off) and the clock start.
    g.step(Buttons::NONE);
    let mut s: Snapshot = g.snapshot();
    s.level = level;
    s.score = [0x99, 0x99, 0x99];
    s.lines = [0x50, 0x14];
    s.playfield = Playfield::empty();
    s.play_state = 5;
    s.completed_lines = 1;
    s.vram_row = 32;
    Game::from_snapshot(s).unwrap()
}

/// The first level from 120 whose score frame lags, with that frame's events.
fn first_lagging_level() -> (u8, Game, FrameEvents) {
    for level in 120..=200u8 {
        let mut g = score_frame_at(level);
        let ev = g.step(Buttons::NONE);
        if ev.has(FrameEvents::LAG) {
            return (level, g, ev);
        }
        assert!(
            g.state().clock.known,
            "level {level}: the timing stays known"
        );
    }
    panic!("no score frame lagged up to level 200");
}

#[test]
fn a_capped_score_frame_lags_from_a_high_level() {
    let (level, g, ev) = first_lagging_level();
    // The cartridge's first lag frames were recorded at level 140 (with music).
    assert!((125..=160).contains(&level), "first lag at level {level}");
    // The interrupt was placed in the work it cut, past the frame's budget.
    assert!(ev.cycles.landed as u32 > 29_700, "{:?}", ev.cycles);
    assert!(ev.cycles.known);
    assert!(matches!(g.state().resume, Resume::Interrupted(_)));
    assert_ne!(g.state().clock.pending, 0);
}

#[test]
fn the_frame_after_a_lag_frame_runs_no_game_logic() {
    let (_, mut g, _) = first_lagging_level();
    let before = g.snapshot();
    let ev = g.step(Buttons::NONE);
    let after = g.state();
    // The interrupt ran (counter, generator) ...
    assert_eq!(after.frame_counter, before.frame_counter.wrapping_add(1));
    assert_ne!(after.rng, before.rng);
    // ... but not the play logic: no fall timer, no state handler.
    assert_eq!(after.fall_timer, before.fall_timer);
    assert_eq!(after.play_state, before.play_state);
    assert!(!ev.has(FrameEvents::LAG));
    assert_eq!(after.resume, Resume::MainLoop);
    assert_eq!(after.clock.pending, 0);
    // The next frame plays again.
    let fall = after.fall_timer;
    g.step(Buttons::NONE);
    assert_eq!(g.state().fall_timer, fall.wrapping_add(1));
}

#[test]
fn a_press_in_the_lost_frame_is_lost() {
    // The frame after the lag frame reads the pad, but its logic is lost: a Left pressed
    // only then never moves the piece (the next frame sees it held, not newly pressed).
    let (_, mut g, _) = first_lagging_level();
    let mut s = g.snapshot();
    s.play_state = 6;
    g = Game::from_snapshot(s).unwrap();
    let ev = g.step(Buttons::LEFT);
    assert!(!ev.has(FrameEvents::SHIFTED));
    assert_eq!(g.state().held, Buttons::LEFT.bits());
}

#[test]
fn the_cut_survives_a_snapshot() {
    let (_, g, _) = first_lagging_level();
    let mut copy = Game::from_snapshot(g.snapshot()).unwrap();
    let mut g = g;
    for i in 0..40u32 {
        let b = if i % 7 == 3 {
            Buttons::LEFT
        } else {
            Buttons::NONE
        };
        assert_eq!(g.step(b), copy.step(b), "frame {i}");
        assert_eq!(g.state(), copy.state());
    }
    // A lag frame cut where its logic was done: only the waiting work remained.
    let (_, g, _) = first_lagging_level();
    assert!(matches!(
        g.state().resume,
        Resume::Interrupted(Cut::Audio | Cut::Passes)
    ));
}
