//! The crash dodge: at levels ~155 and up a clear's score frame can run into the next
//! frame's interrupt and crash the cartridge; the player sees it on its play-outs and takes
//! another placement, or the same one with pushdown.

use nestris_ai::benchmark::BenchConfig;
use nestris_ai::{play_from, Ai, Dodge, End, Limits};
use nestris_core::{Buttons, CrashMode, FrameEvents, Game, GameSetup};

/// A game at `level` with the score capped and six rows full but for one cell each (a
/// clear for most pieces), the music off (so that the timing is exact without a ROM), one
/// frame after game init.
fn deep(level: u8, seed: u64) -> Game {
    let mut g = Game::new(GameSetup {
        level: 18,
        music_type: 3,
        ..GameSetup::from_seed(seed)
    });
    g.step(Buttons::NONE);
    let mut s = g.snapshot();
    s.level = level;
    s.score = [0x99; 3];
    s.lines = [0x50, 0x14];
    for r in 14..20 {
        for c in 0..10 {
            if c != (r * 3) % 10 {
                s.playfield.0[r * 10 + c] = 0x7B;
            }
        }
    }
    Game::from_snapshot(s).unwrap()
}

fn ai(dodge: bool) -> Ai {
    let mut config = BenchConfig::default();
    config.search.crash_dodge = dodge;
    config.ai()
}

#[test]
fn the_blind_player_crashes_where_the_dodging_one_does_not() {
    let limits = Limits::frames(3_000);
    let blind = play_from(deep(157, 0), &mut ai(false), &limits, false);
    assert_eq!(blind.end, End::Crash);
    assert!(blind.crash_frame.is_some() && blind.game.halted());
    assert_eq!(blind.crash_dodges, 0);
    let dodging = play_from(deep(157, 0), &mut ai(true), &limits, false);
    // It may still top out at this speed (which game it plays depends on the inputs the
    // move generator keeps for each placement), but never by a crash.
    assert!(
        matches!(dodging.end, End::Frames | End::TopOut),
        "{:?} {:?}",
        dodging.end,
        dodging.crash_frame
    );
    assert_eq!(dodging.crash_frame, None);
    assert!(dodging.crash_dodges >= 1);
    assert!(dodging.lag_frames > 0, "the clears still lag");
    assert!(dodging.pieces > blind.pieces);
}

/// With the community's reaction model the plan made before the preview is seen places
/// the piece at these speeds (it has landed by the time the preview is seen): that plan
/// dodges too.
#[test]
fn the_plan_made_before_the_preview_is_seen_dodges_crashes() {
    let limits = Limits::frames(3_000);
    let with_adjust = |dodge: bool| {
        let mut config = BenchConfig::default();
        config.search.crash_dodge = dodge;
        config.adjust_after = Some(18);
        config.ai()
    };
    let blind = play_from(deep(157, 0), &mut with_adjust(false), &limits, false);
    assert_eq!(blind.end, End::Crash);
    let dodging = play_from(deep(157, 0), &mut with_adjust(true), &limits, false);
    assert_eq!(dodging.crash_frame, None, "{:?}", dodging.end);
    assert!(dodging.crash_dodges >= 1);
    assert!(dodging.pieces > blind.pieces);
}

#[test]
fn nothing_is_dodged_when_crashes_are_not_modelled() {
    let limits = Limits::frames(3_000);
    let mut off = deep(157, 0);
    off.set_crash_mode(CrashMode::Off);
    let r = play_from(off, &mut ai(true), &limits, false);
    assert_eq!((r.crash_dodges, r.lag_frames, r.crash_frame), (0, 0, None));
}

#[test]
fn a_pushdown_dodge_puts_the_piece_where_it_was_planned_without_crashing() {
    // Level 155, seed 1: dodges made with pushdown (which game is played, and so which
    // dodges, depends on the inputs the move generator keeps and its placements' order).
    let mut game = deep(155, 1);
    let mut ai = ai(true);
    let mut pushdowns = 0;
    for _ in 0..3_000 {
        if game.state().phase() == nestris_core::PlayState::Control {
            let Some(plan) = ai.plan_piece(&game) else {
                break;
            };
            if plan.dodge == Dodge::Pushdown {
                pushdowns += 1;
                assert!(plan.inputs.contains(&Buttons::DOWN));
            }
            let mut crashed = false;
            for &b in &plan.inputs {
                crashed |= game.step(b).has(FrameEvents::CRASHED);
            }
            let s = game.state();
            let p = plan.placement;
            assert_eq!(
                (s.phase(), s.piece, s.x, s.y),
                (nestris_core::PlayState::Lock, p.o, p.x, p.y)
            );
            // To the next piece.
            while game.state().phase() != nestris_core::PlayState::Control && !game.halted() {
                let ev = game.step(Buttons::NONE);
                crashed |= ev.has(FrameEvents::CRASHED);
                if ev.has(FrameEvents::TOPPED_OUT) {
                    break;
                }
            }
            assert!(!crashed || plan.dodge == Dodge::Unavoidable);
            if game.halted() || game.state().phase() == nestris_core::PlayState::Curtain {
                break;
            }
        } else {
            game.step(Buttons::NONE);
        }
    }
    assert!(pushdowns >= 1);
    assert_eq!(ai.search().stats.pushdown_dodges, pushdowns);
}
