//! Lag frames: a score frame at a very high level runs past the next frame interrupt. With
//! the music off the sound engine's cycles are exact without a cartridge image, so these
//! frames are placed from the engine alone (the recordings with music need the user's ROM:
//! see `crates/trace/tests/high_level.rs`).

mod common;

use nestris_core::{Buttons, CrashMode, Cut, FrameEvents, Game, PlayerCut, Resume, Snapshot, Then};

/// A game at `level` with the score capped, music off, a single just counted (the score
/// frame comes next) and the field empty.
fn score_frame_at(level: u8) -> Game {
    common::capped_score_frame(level, CrashMode::Cartridge)
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

/// The lag frame of a score frame at `level` whose interrupt lands inside the player update.
fn landed_in_player_update(level: u8) -> (Game, PlayerCut) {
    let mut g = score_frame_at(level);
    let ev = g.step(Buttons::NONE);
    assert!(ev.has(FrameEvents::LAG) && ev.cycles.known, "level {level}");
    match g.state().resume {
        Resume::Interrupted(Cut::Player(cut)) => (g, cut),
        r => panic!("level {level}: {r:?}"),
    }
}

#[test]
fn an_interrupt_in_the_score_loop_shows_the_mirror_and_redraws_the_loop_count() {
    // Level 175: 176 passes of the capped score, the interrupt comes during them.
    let (mut g, cut) = landed_in_player_update(175);
    let s = g.state();
    // Sampled at the interrupt: the update's mirror still holds the block from before it.
    assert_eq!((s.game_mode_state, s.play_state), (4, 5));
    assert_eq!((s.lines, s.completed_lines), ([0x50, 0x14], 1));
    // The work's own block has the line counted.
    assert_eq!(cut.active.lines, [0x51, 0x14]);
    assert_eq!(cut.active.play_state, 5);
    // The interrupt drew the lines ($50 low byte) through the loop's counter: the loop now
    // counts down from there, whatever it had left.
    assert_eq!(cut.then, Then::Score { left: 0x50 - 1 });
    // The next frame finishes those passes, the update and the frame, on time.
    let ev = g.step(Buttons::NONE);
    assert!(!ev.has(FrameEvents::LAG));
    let s = g.state();
    assert!(s.clock.known && ev.cycles.known);
    assert_eq!(s.resume, Resume::MainLoop);
    assert_eq!(
        (s.game_mode_state, s.play_state, s.completed_lines),
        (2, 6, 0)
    );
    assert_eq!((s.lines, s.score), ([0x51, 0x14], [0x99, 0x99, 0x99]));
    // 79 capped passes (136 cycles each) ran after the interrupt.
    assert!(ev.cycles.work as u32 > 79 * 136, "{:?}", ev.cycles);
    // Then the game goes on: the goal check, the next piece.
    g.step(Buttons::NONE);
    assert_eq!(g.state().play_state, 7);
}

#[test]
fn an_interrupt_in_the_preview_list_stalls_until_the_frame_counter_reads_ff() {
    // Level 163: the interrupt lands while the preview's four sprites are staged. It draws
    // the score, whose low byte ($99) becomes the list's low byte, and reads the pad (0)
    // into its high byte: the list is read through the zero page, where the frame counter's
    // low byte ($B1) is the only byte that can become $FF.
    let (mut g, cut) = landed_in_player_update(163);
    assert!(
        matches!(cut.then, Then::Sprites { ptr: 0x99, .. }),
        "{cut:?}"
    );
    let fc = g.state().frame_counter as u8;
    let mut run = 1u32;
    loop {
        let ev = g.step(Buttons::NONE);
        // Every frame of it shows the sprite page the garbage list filled.
        assert!(ev.has(FrameEvents::SPRITES_GARBLED), "stall frame {run}");
        if !ev.has(FrameEvents::LAG) {
            break;
        }
        run += 1;
        let s = g.state();
        // Past the copy to the mirror: the sample shows the finished score state.
        assert_eq!((s.game_mode_state, s.play_state), (4, 6));
        assert!(s.clock.known);
    }
    assert_eq!(run, 255 - fc as u32);
    assert_eq!(g.state().frame_counter as u8, 0xFF);
    assert_eq!(g.state().game_mode_state, 2);
    let ev = g.step(Buttons::NONE);
    assert!(!ev.has(FrameEvents::SPRITES_GARBLED));
    assert_eq!(g.state().play_state, 7);
}

#[test]
fn a_cut_in_the_player_update_survives_encoding() {
    let (g, _) = landed_in_player_update(175);
    let s = g.snapshot();
    let mut back = Snapshot::decode(&s.encode()).unwrap();
    back.decode_timing(&s.encode_timing()).unwrap();
    assert_eq!(back, s);
    let mut copy = Game::from_snapshot(back).unwrap();
    let mut g = g;
    for i in 0..30 {
        assert_eq!(g.step(Buttons::NONE), copy.step(Buttons::NONE), "frame {i}");
        assert_eq!(g.state(), copy.state());
    }
    // A cut whose index no copy reaches is refused.
    let mut bad = s.clone();
    if let Resume::Interrupted(Cut::Player(ref mut cut)) = bad.resume {
        cut.then = Then::Save { x: 0x40 };
    }
    assert!(Game::from_snapshot(bad).is_err());
}
