//! Crash modes: a score frame whose lag frame's interrupt breaks a jump-table dispatch, and
//! what each [`CrashMode`] makes of it. With the music off the model needs no cartridge
//! image (the level-159 single over 2,050 lines breaks a dispatch in the frame after its lag
//! frame; see `docs/LAG.md`).

mod common;

use nestris_core::encode::TIMING_LEN;
use nestris_core::{
    Buttons, Crash, CrashMode, FrameEvents, Game, GameSetup, Region, Resume, Snapshot,
};

/// The score frame of a single at level 159 with the score capped and music off: its frame
/// lags (frame 0), and the interrupt lands in a dispatch (broken in frame 1).
fn crashing_score_frame(mode: CrashMode) -> Game {
    common::capped_score_frame(159, mode)
}

/// Steps the lag frame; returns the next frame's events (the broken dispatch's).
fn to_the_broken_dispatch(g: &mut Game) -> FrameEvents {
    let lag = g.step(Buttons::NONE);
    assert!(lag.has(FrameEvents::LAG), "{lag:?}");
    assert!(g.crashed().is_none(), "no crash in the lag frame itself");
    g.step(Buttons::NONE)
}

#[test]
fn cartridge_mode_halts_the_game_in_the_frame_after_the_lag_frame() {
    let mut g = crashing_score_frame(CrashMode::Cartridge);
    let before = g.state().frame_counter;
    let ev = to_the_broken_dispatch(&mut g);
    assert!(ev.has(FrameEvents::DISPATCH_BROKEN | FrameEvents::CRASHED));
    assert!(g.halted());
    assert_eq!(g.crashed(), Some(Crash::Halted));
    assert_eq!(g.state().resume, Resume::Halted);
    // The crash frame's interrupt ran (it counted the frame), then the jump halted the CPU.
    assert_eq!(g.state().frame_counter, before.wrapping_add(2));
    // From here nothing changes: no interrupt, no pad read; every frame says so.
    let halted = g.clone();
    for i in 0..300u32 {
        let ev = g.step(Buttons((i * 37) as u8));
        assert_eq!(ev.flags, FrameEvents::CRASHED, "frame {i}");
        assert_eq!(ev.lines_cleared, 0);
    }
    assert_eq!(g, halted);
    // The halt survives the save state, both encodings.
    let s = g.snapshot();
    let mut back = Snapshot::decode(&s.encode()).unwrap();
    back.decode_timing(&s.encode_timing()).unwrap();
    assert_eq!(back, s);
    let mut again = Game::from_snapshot(back).unwrap();
    assert_eq!(again.step(Buttons::START).flags, FrameEvents::CRASHED);
}

#[test]
fn show_mode_reports_the_crash_and_plays_on() {
    let mut g = crashing_score_frame(CrashMode::Show);
    let ev = to_the_broken_dispatch(&mut g);
    assert!(ev.has(FrameEvents::DISPATCH_BROKEN | FrameEvents::CRASHED));
    assert!(!g.halted());
    assert_eq!(g.crashed(), Some(Crash::Halted));
    // The game goes on, its timing unknown: no more lag frames or crash events.
    assert!(!g.state().clock.known);
    let mut spawned = false;
    for _ in 0..200 {
        let ev = g.step(Buttons::NONE);
        assert!(!ev.has(FrameEvents::CRASHED));
        assert!(!ev.has(FrameEvents::LAG));
        spawned |= ev.has(FrameEvents::SPAWNED);
    }
    assert!(spawned, "the next piece came");
    assert_eq!(
        g.crashed(),
        Some(Crash::Halted),
        "the crash stays on record"
    );
}

#[test]
fn topout_mode_ends_the_game_with_the_curtain() {
    let mut g = crashing_score_frame(CrashMode::TopOut);
    let ev = to_the_broken_dispatch(&mut g);
    assert!(ev.has(FrameEvents::CRASHED | FrameEvents::TOPPED_OUT));
    assert!(!g.halted());
    assert_eq!(g.state().play_state, 10);
    assert_eq!(g.crashed(), Some(Crash::Halted));
    let mut rows = 0;
    for _ in 0..200 {
        let ev = g.step(Buttons::NONE);
        assert!(!ev.has(FrameEvents::SPAWNED), "no piece after the crash");
        rows += ev.has(FrameEvents::CURTAIN_ROW) as u32;
    }
    assert_eq!(rows, 20, "the curtain covers the field");
    // Then the usual flow: the ending for a score of 30,000 or more.
    assert!(
        matches!(g.state().resume, Resume::Ending(_)),
        "{:?}",
        g.state().resume
    );
}

#[test]
fn off_mode_counts_no_cycles_so_nothing_lags_or_crashes() {
    let g = Game::new(GameSetup {
        crash_mode: CrashMode::Off,
        ..GameSetup::default()
    });
    assert!(!g.state().clock.known);
    let mut g = crashing_score_frame(CrashMode::Off);
    assert!(!g.state().clock.known);
    for i in 0..200 {
        let ev = g.step(Buttons::NONE);
        assert!(
            !ev.has(FrameEvents::LAG)
                && !ev.has(FrameEvents::DISPATCH_BROKEN)
                && !ev.has(FrameEvents::CRASHED),
            "frame {i}: {ev:?}"
        );
    }
    assert_eq!(g.crashed(), None);
    assert!(!g.halted());
}

#[test]
fn the_mode_and_the_crash_ride_in_the_timing_block() {
    for mode in CrashMode::ALL {
        let mut g = crashing_score_frame(mode);
        g.step(Buttons::NONE);
        g.step(Buttons::NONE);
        let s = g.snapshot();
        let mut back = Snapshot::decode(&s.encode()).unwrap();
        // Layout 1 has no place for it: a start's default.
        assert_eq!(back.crash_mode, CrashMode::Cartridge);
        back.decode_timing(&s.encode_timing()).unwrap();
        assert_eq!(back.crash_mode, mode);
        assert_eq!(back.crashed, mode != CrashMode::Off);
        assert_eq!(back, s);
    }
    // A block written before crash modes (bits 4-6 of byte 4 clear) reads as `Cartridge`,
    // no crash (bit 7 is the pause's entry).
    let s = crashing_score_frame(CrashMode::Show).snapshot();
    let mut block = s.encode_timing();
    assert_eq!(block.len(), TIMING_LEN);
    block[4] &= 0x8F;
    let mut back = s.clone();
    back.decode_timing(&block).unwrap();
    assert_eq!(back.crash_mode, CrashMode::Cartridge);
    assert!(!back.crashed);
}

#[test]
fn the_mode_leaves_layout_1_and_its_hash_alone() {
    let a = Game::new(GameSetup::default());
    for mode in [CrashMode::Show, CrashMode::TopOut] {
        let b = Game::new(GameSetup {
            crash_mode: mode,
            ..GameSetup::default()
        });
        assert_eq!(a.state().state_hash(), b.state().state_hash());
        assert_ne!(a.state(), b.state());
    }
}

#[test]
fn a_power_on_game_takes_a_mode_and_off_drops_the_timing_for_good() {
    let mut g = Game::power_on(Region::Ntsc);
    assert_eq!(g.crash_mode(), CrashMode::Cartridge);
    g.set_crash_mode(CrashMode::Off);
    assert_eq!(g.crash_mode(), CrashMode::Off);
    assert!(!g.state().clock.known);
    g.set_crash_mode(CrashMode::Show);
    assert!(!g.state().clock.known);
}

#[test]
fn names_and_codes_round_trip() {
    for (i, mode) in CrashMode::ALL.into_iter().enumerate() {
        assert_eq!(mode.code() as usize, i);
        assert_eq!(CrashMode::from_code(mode.code()), Some(mode));
        assert_eq!(CrashMode::from_name(mode.name()), Some(mode));
    }
    assert_eq!(CrashMode::from_name("Cartridge"), None);
    assert_eq!(CrashMode::from_code(4), None);
    assert_eq!(CrashMode::default(), CrashMode::Cartridge);
}
