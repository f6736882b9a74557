//! Which music plays (`Snapshot::music`): the menus, a game's tempo, pause, top out, the
//! B-type goal, the ending and name entry, each read from the state after the frame.

mod common;

use common::*;
use nestris_core::{Buttons, FrameEvents, Game, GameMode, Music, Region, Track};

fn game_music(music: u8, fast: bool) -> Music {
    Music::Playing(Track::Game { music, fast })
}

/// Taps `button` every other frame while `mode` is up, until `done`.
fn tap_until(
    g: &mut Game,
    button: Buttons,
    mode: &[GameMode],
    mut done: impl FnMut(&Game) -> bool,
) {
    for i in 0..2_000 {
        if done(g) {
            return;
        }
        let tap = i % 2 == 0 && mode.contains(&g.state().mode());
        g.step(if tap { button } else { Buttons::NONE });
    }
    panic!("not reached");
}

#[test]
fn the_menus_play_the_chosen_music_and_the_game_starts_it_again() {
    let mut g = Game::power_on(Region::Ntsc);
    let mut heard = Vec::new();
    // Legal screen and title: silence, until the game-type menu is set up.
    let before = [GameMode::Legal, GameMode::Title];
    tap_until(&mut g, Buttons::START, &before, |g| {
        heard.push(g.state().music());
        g.state().music() != Music::Silent
    });
    assert!(heard[..heard.len() - 1].iter().all(|&m| m == Music::Silent));
    assert_eq!(g.state().mode(), GameMode::TypeMenu);
    assert_eq!(g.state().music(), game_music(0, false));
    // Down: MUSIC 2, MUSIC 3, OFF; Up back to MUSIC 3.
    for want in [game_music(1, false), game_music(2, false), Music::Silent] {
        g.step(Buttons::DOWN);
        assert_eq!(g.state().music(), want);
        g.step(Buttons::NONE);
    }
    g.step(Buttons::UP);
    assert_eq!(g.state().music(), game_music(2, false));
    // Start: the level menu is silent.
    g.step(Buttons::NONE);
    g.step(Buttons::START);
    g.step(Buttons::NONE);
    assert_eq!(g.state().mode(), GameMode::LevelMenu);
    assert_eq!(g.state().music(), Music::Silent);
    // Start: silent through the game's setup, then MUSIC 3 from the frame init ends.
    tap_until(&mut g, Buttons::START, &[GameMode::LevelMenu], |g| {
        g.state().mode() == GameMode::Play
    });
    let mut silent = 0;
    while g.state().music() == Music::Silent {
        silent += 1;
        assert!(silent < 100, "the music never starts");
        g.step(Buttons::NONE);
    }
    assert!(silent > 0, "not during the screen's setup");
    assert_eq!(g.state().music(), game_music(2, false));
}

#[test]
fn the_music_runs_fast_from_the_frame_the_engine_reports() {
    // Rows 6-19 full but for column 0: the pieces land on row 5.
    let mut s = playing(0, O, 5, 0);
    for row in 6..20 {
        fill_row(&mut s, row, &[0]);
    }
    s.music_type = 1;
    let mut g = game(s);
    assert_eq!(g.state().music(), game_music(1, false));
    let mut switched = None;
    for f in 0..400 {
        let before = g.state().music();
        let ev = g.step(Buttons::DOWN);
        let after = g.state().music();
        assert_eq!(
            ev.has(FrameEvents::MUSIC_TEMPO),
            before != after && g.state().music() != Music::Silent,
            "frame {f}: {before:?} -> {after:?}"
        );
        if ev.has(FrameEvents::MUSIC_TEMPO) {
            switched = Some(f);
            break;
        }
    }
    assert!(switched.is_some());
    assert_eq!(g.state().music(), game_music(1, true));
}

#[test]
fn random_play_changes_tempo_only_when_the_engine_says_and_the_top_out_silences() {
    for seed in 1..6u32 {
        let mut s = playing(5, T, 5, 0);
        s.music_type = (seed % 3) as u8;
        let mut g = game(s);
        let mut rng = seed.wrapping_mul(2_654_435_761);
        let mut tempo_changes = 0;
        for _ in 0..20_000 {
            rng ^= rng << 13;
            rng ^= rng >> 17;
            rng ^= rng << 5;
            let b = [Buttons::LEFT, Buttons::RIGHT, Buttons::A, Buttons::NONE][rng as usize % 4];
            let before = g.state().music();
            let ev = g.step(b);
            let after = g.state().music();
            if ev.has(FrameEvents::TOPPED_OUT) {
                assert_eq!(after, Music::Silent);
                break;
            }
            if let (
                Music::Playing(Track::Game { fast: a, .. }),
                Music::Playing(Track::Game { fast: b, .. }),
            ) = (before, after)
            {
                assert_eq!(a != b, ev.has(FrameEvents::MUSIC_TEMPO));
                tempo_changes += usize::from(a != b);
            }
        }
        assert!(
            tempo_changes > 0,
            "seed {seed}: the stack never reached row 5"
        );
        assert!(g.state().topped_out(), "seed {seed}");
    }
}

#[test]
fn pause_holds_the_music_and_resume_goes_on() {
    let mut s = playing(0, T, 5, 0);
    s.allegro = 0xFF;
    s.music_type = 2;
    let mut g = game(s);
    g.step(Buttons::START);
    let fast3 = Track::Game {
        music: 2,
        fast: true,
    };
    assert_eq!(g.state().music(), Music::Held(fast3));
    run(&mut g, Buttons::NONE, 30);
    assert_eq!(g.state().music(), Music::Held(fast3));
    g.step(Buttons::START);
    assert_eq!(g.state().music(), Music::Playing(fast3));
}

#[test]
fn music_off_and_the_demo_are_silent() {
    let mut s = playing(0, T, 5, 0);
    s.music_type = 3;
    let mut g = game(s);
    assert_eq!(g.state().music(), Music::Silent);
    g.step(Buttons::START);
    assert_eq!(
        g.state().music(),
        Music::Silent,
        "paused with the music off"
    );
    let mut g = Game::power_on(Region::Ntsc);
    let mut demo = false;
    for _ in 0..3_000 {
        g.step(Buttons::NONE);
        demo |= g.state().mode() == GameMode::Demo;
        if g.state().mode() == GameMode::Demo {
            assert_eq!(g.state().music(), Music::Silent);
        }
    }
    assert!(demo, "the title's timeout reaches the demo");
}

#[test]
fn a_top_out_with_a_high_score_plays_the_name_entry_tune_until_the_level_menu() {
    let mut s = playing(18, T, 5, 0);
    for row in 0..20 {
        fill_row(&mut s, row, &[row % 10]);
    }
    s.score = [0x00, 0x50, 0x02]; // 25,000: on the table, short of the ending
    let mut g = game(s);
    assert_eq!(g.state().music(), game_music(0, false));
    run_until(
        &mut g,
        10,
        |_| Buttons::NONE,
        |ev, _| ev.has(FrameEvents::TOPPED_OUT),
    );
    assert_eq!(g.state().music(), Music::Silent);
    run_until(&mut g, 300, |_| Buttons::NONE, |_, s| s.curtain_down());
    assert_eq!(g.state().music(), Music::Silent);
    let mut i = 0;
    run_until(
        &mut g,
        100,
        |_| {
            i += 1;
            if i % 2 == 0 {
                Buttons::START
            } else {
                Buttons::NONE
            }
        },
        |_, s| s.music() != Music::Silent,
    );
    assert_eq!(g.state().music(), Music::Playing(Track::HighScore));
    // Through the name entry, then silence once the level menu is up.
    run_until(
        &mut g,
        300,
        |f| {
            if f % 2 == 0 && f > 20 {
                Buttons::START
            } else {
                Buttons::NONE
            }
        },
        |_, s| {
            if s.mode() == GameMode::Play {
                assert_eq!(s.music(), Music::Playing(Track::HighScore));
            }
            s.mode() == GameMode::LevelMenu
        },
    );
    assert_eq!(g.state().music(), Music::Silent);
}

#[test]
fn a_b_type_goal_plays_its_tune_then_the_ending_s() {
    // B-type, one line to go, a vertical I about to complete row 19.
    let mut s = b_type(playing(0, I_VERTICAL, 0, 15));
    s.lines = [0x01, 0];
    fill_row(&mut s, 19, &[0]);
    s.music_type = 1;
    let mut g = game(s);
    run_until(
        &mut g,
        200,
        |_| Buttons::DOWN,
        |ev, _| ev.has(FrameEvents::B_TYPE_WON),
    );
    assert_eq!(g.state().music(), Music::Playing(Track::Goal));
    let mut seen = vec![Music::Playing(Track::Goal)];
    run_until(
        &mut g,
        2_000,
        |_| Buttons::NONE,
        |_, s| {
            if seen.last() != Some(&s.music()) {
                seen.push(s.music());
            }
            s.music() == Music::Playing(Track::Ending)
        },
    );
    assert_eq!(
        seen,
        vec![Music::Playing(Track::Goal), Music::Playing(Track::Ending)],
        "the goal's tune runs until the ending's"
    );
    assert_eq!(g.state().render_mode, 4);
}
