//! Crash modes: a score frame whose lag frame's interrupt breaks a jump-table dispatch, and
//! what each [`CrashMode`] makes of it. With the music off the model needs no cartridge
//! image (the level-160 single over 2,050 lines breaks a dispatch into the zero page in the
//! frame after its lag frame, the level-159 one into the legal screen's tail; see
//! `docs/LAG.md`).

mod common;

use nestris_core::encode::TIMING_LEN;
use nestris_core::{
    Buttons, Crash, CrashMode, Cut, FrameEvents, Game, GameSetup, Jump, Region, Resume, Snapshot,
};

/// The score frame of a single at level 160 with the score capped and music off: its frame
/// lags (frame 0), and the interrupt lands in a dispatch (broken in frame 1, a halt).
fn crashing_score_frame(mode: CrashMode) -> Game {
    common::capped_score_frame(160, mode)
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
        assert_eq!(back.crash.is_some(), mode != CrashMode::Off);
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
    assert!(back.crash.is_none());
}

#[test]
fn the_legal_screen_tail_freezes_the_game_then_hands_it_to_the_demo() {
    // Level 159: the interrupt lands in the game mode's dispatch after `sta tmp1`, and the
    // jump goes through the word at $8109 into the legal screen's tail.
    let mut g = common::capped_score_frame(159, CrashMode::Cartridge);
    let ev = to_the_broken_dispatch(&mut g);
    assert!(ev.has(FrameEvents::DISPATCH_BROKEN | FrameEvents::CRASHED));
    assert_eq!(g.crashed(), Some(Crash::LegalScreen));
    assert!(!g.halted());
    let frozen = g.state().clone();
    // Three waits, the 255-frame sleep, 255 frames waiting for Start: the game's variables
    // stand still while the interrupt goes on counting frames.
    for _ in 0..400 {
        g.step(Buttons::NONE);
    }
    assert_eq!(
        (g.state().game_mode, g.state().play_state),
        (4, frozen.play_state)
    );
    assert_eq!(
        (g.state().y, g.state().fall_timer),
        (frozen.y, frozen.fall_timer)
    );
    assert_ne!(g.state().frame_counter, frozen.frame_counter);
    for _ in 0..200 {
        g.step(Buttons::NONE);
    }
    // Then `inc gameMode`: the demo's mode, steered by the demo's buttons.
    assert_eq!(g.state().game_mode, 5);
    // Under `Show` the crash is reported and the game plays on at once.
    let mut g = common::capped_score_frame(159, CrashMode::Show);
    to_the_broken_dispatch(&mut g);
    assert_eq!(g.crashed(), Some(Crash::LegalScreen));
    assert_eq!(g.state().resume, Resume::MainLoop);
}

#[test]
fn broken_jumps_and_crash_kinds_ride_in_the_timing_block() {
    let s = crashing_score_frame(CrashMode::Cartridge).snapshot();
    for (jump, crash) in [
        (Jump::ZeroPage, Some(Crash::Halted)),
        (Jump::Page(9), Some(Crash::LegalScreen)),
        (Jump::Page(15), None),
    ] {
        let mut t = s.clone();
        t.resume = Resume::Interrupted(Cut::Dispatch(jump));
        t.crash = crash;
        let mut back = Snapshot::decode(&t.encode()).unwrap();
        back.decode_timing(&t.encode_timing()).unwrap();
        assert_eq!(back, t);
    }
    // A version 2 block (no board, no crash byte) with its crash bit set: a halt.
    let mut t = s.clone();
    t.crash = Some(Crash::LegalScreen);
    let mut block = t.encode_timing().to_vec();
    block.truncate(nestris_core::encode::timing_len(2).unwrap());
    block[0] = 2;
    let mut back = t.clone();
    back.decode_timing(&block).unwrap();
    assert_eq!(back.crash, Some(Crash::Halted));
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

/// From power-on through the menus into an A-type game at level 0, choosing music `music`
/// (0-3) in the game type menu: the game after its init's last wait.
fn game_from_the_menus(music: u8, mode: CrashMode) -> Game {
    let mut g = Game::power_on(Region::Ntsc);
    g.set_crash_mode(mode);
    for frame in 0..5_000u32 {
        let s = g.state();
        if s.game_mode == 4 && s.resume == (Resume::GameInit { rows_left: 0 }) {
            return g;
        }
        // Taps on even frames, nothing on odd ones.
        let tap = if frame % 2 == 1 {
            Buttons::NONE
        } else if s.game_mode == 2 && s.music_type != music {
            Buttons::DOWN
        } else {
            Buttons::START
        };
        g.step(tap);
    }
    panic!("no game after 5,000 frames");
}

#[test]
fn a_game_from_the_menus_is_counted_from_its_start() {
    // The menus are not counted; the game starts from the recordings' timing.
    let g = game_from_the_menus(3, CrashMode::Cartridge);
    assert_eq!(g.state().music_type, 3);
    assert!(g.state().clock.known);
    let mut quiet = g.clone();
    for _ in 0..2_000 {
        quiet.step(Buttons::NONE);
    }
    assert!(
        quiet.state().clock.known,
        "music off: counted without a ROM"
    );
    // With music and no ROM the sound engine's cycles are soon unknown.
    let mut loud = game_from_the_menus(0, CrashMode::Cartridge);
    assert!(loud.state().clock.known);
    for _ in 0..2_000 {
        loud.step(Buttons::NONE);
    }
    assert!(!loud.state().clock.known);
    // `Off` counts nothing.
    assert!(!game_from_the_menus(3, CrashMode::Off).state().clock.known);
}

#[test]
fn a_dispatch_broken_into_the_picture_fill_is_flagged_and_survived() {
    // A capped single at level 158 whose next interrupt comes 250 dots into the line: the
    // interrupt lands in the dispatch of handler 7, whose word in the wrong page is `$AA82`,
    // the picture-memory fill; it returns and the game goes on.
    let mut g = common::capped_score_frame(158, CrashMode::Cartridge);
    let mut s = g.snapshot();
    s.clock.nmi_dots = 250;
    g = Game::from_snapshot(s).unwrap();
    let ev = to_the_broken_dispatch(&mut g);
    assert!(ev.has(FrameEvents::DISPATCH_BROKEN | FrameEvents::PICTURE_FILLED));
    assert!(!ev.has(FrameEvents::CRASHED));
    let mut spawned = false;
    for _ in 0..60 {
        let ev = g.step(Buttons::NONE);
        assert!(!ev.has(FrameEvents::PICTURE_FILLED | FrameEvents::CRASHED));
        spawned |= ev.has(FrameEvents::SPAWNED);
    }
    assert!(spawned && g.crashed().is_none() && !g.halted());
}

#[test]
fn a_pal_game_counts_no_cycles() {
    // PAL's budget is not modelled: the score frame that lags and crashes on NTSC plays on.
    let pal = Game::new(GameSetup {
        region: Region::Pal,
        ..GameSetup::default()
    });
    assert!(!pal.state().clock.known);
    let mut s = common::capped_score_frame(160, CrashMode::Cartridge).snapshot();
    s.region = Region::Pal;
    let mut g = Game::from_snapshot(s.clone()).unwrap();
    assert!(!g.state().clock.known);
    for _ in 0..10 {
        let ev = g.step(Buttons::NONE);
        assert_eq!(ev.flags & (FrameEvents::LAG | FrameEvents::CRASHED), 0);
    }
    assert!(g.crashed().is_none());
    let mut back = Snapshot::decode(&s.encode()).unwrap();
    back.decode_timing(&s.encode_timing()).unwrap();
    assert!(!back.clock.known);
}
