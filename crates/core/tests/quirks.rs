//! Main-loop quirks and game flow inside play (`CARTRIDGE.md` 2.3, 6.2, 8, 13, 14):
//! Select toggling the preview, exactly Down+Left+Right running play every other frame,
//! pause freezing the game (resume needs exactly Start), and top-out happening only
//! when an overlapping spawned piece tries to lock.

mod common;

use common::*;
use nestris_core::lfsr::lfsr_step;
use nestris_core::{Buttons, FrameEvents, Game, Snapshot};

const DLR: Buttons = Buttons(0x07);

#[test]
fn select_toggles_the_preview_on_each_new_press() {
    let mut g = game(playing(0, T, 5, 5));
    assert_eq!(g.state().display_next_piece, 0);
    assert!(g.step(Buttons::SELECT).has(FrameEvents::NEXT_TOGGLED));
    assert_eq!(g.state().display_next_piece, 1);
    // Held: no toggle.
    run(&mut g, Buttons::SELECT, 5);
    assert_eq!(g.state().display_next_piece, 1);
    g.step(Buttons::NONE);
    g.step(Buttons::SELECT | Buttons::LEFT);
    assert_eq!(g.state().display_next_piece, 0);
}

#[test]
fn select_changes_nothing_else() {
    let inputs = |f: usize| match f % 7 {
        0 => Buttons::LEFT,
        3 => Buttons::A,
        _ => Buttons::DOWN,
    };
    let mut plain = game(playing(9, T, 5, 0));
    let mut with_select = plain.clone();
    for f in 0..300 {
        plain.step(inputs(f));
        let extra = if f % 2 == 0 {
            Buttons::SELECT
        } else {
            Buttons::NONE
        };
        with_select.step(inputs(f) | extra);
        let mut a = plain.snapshot();
        let mut b = with_select.snapshot();
        a.display_next_piece = 0;
        b.display_next_piece = 0;
        a.held = 0;
        b.held = 0;
        a.pressed = 0;
        b.pressed = 0;
        // Select does cost the cartridge 7 cycles: only the sub-frame clock may differ.
        a.clock = b.clock;
        assert_eq!(a, b, "frame {f}");
    }
}

#[test]
fn down_left_right_runs_play_every_other_frame() {
    let mut g = game(playing(0, T, 5, 0));
    let mut timers = Vec::new();
    for _ in 0..6 {
        g.step(DLR);
        timers.push(g.state().fall_timer);
    }
    assert_eq!(timers, vec![1, 1, 2, 2, 3, 3]);
}

#[test]
fn down_left_right_halves_gravity() {
    // Level 0: 48 play frames per row, so 96 real frames; frame 94 is the 48th play frame.
    let mut g = game(playing(0, T, 5, 0));
    let drops = frames_with(&mut g, 200, |_| DLR, FrameEvents::DROPPED);
    assert_eq!(drops, vec![94, 190]);
}

#[test]
fn down_left_right_still_counts_frames_and_steps_the_generator() {
    let mut s = playing(0, T, 5, 0);
    s.frame_counter = 100;
    let rng = s.rng;
    let mut g = game(s);
    run(&mut g, DLR, 10);
    let mut expected = rng;
    for _ in 0..10 {
        expected = lfsr_step(expected);
    }
    assert_eq!((g.state().frame_counter, g.state().rng), (110, expected));
}

#[test]
fn only_exactly_down_left_right_slows_the_game() {
    for buttons in [
        DLR | Buttons::A,
        DLR | Buttons::UP,
        Buttons::LEFT | Buttons::RIGHT,
        Buttons::DOWN | Buttons::LEFT,
    ] {
        let mut g = game(playing(0, T, 5, 0));
        run(&mut g, buttons, 6);
        assert_eq!(g.state().fall_timer, 6, "{buttons:?}");
    }
}

fn paused_game() -> Game {
    let mut g = game(playing(0, T, 5, 5));
    run(&mut g, Buttons::NONE, 3);
    let ev = g.step(Buttons::START);
    assert!(ev.has(FrameEvents::PAUSED));
    g
}

/// The parts of the state that pause does not freeze.
fn frozen_part(s: &Snapshot) -> Snapshot {
    let mut s = s.clone();
    s.frame_counter = 0;
    s.rng = 0;
    s.held = 0;
    s.pressed = 0;
    s.sleep_counter = 0;
    // The CPU's time goes on too: the sub-frame clock and the sound engine (the pause tune).
    s.clock = Default::default();
    s.audio = nestris_core::timing::recorded_audio();
    s
}

#[test]
fn pause_freezes_play_but_not_the_interrupt() {
    let mut g = paused_game();
    let at_pause = g.snapshot();
    assert_eq!(at_pause.render_mode, 0);
    // The pause frame itself ran the piece update first (fall timer 4 after 4 frames).
    assert_eq!(at_pause.fall_timer, 4);
    let inputs = [
        Buttons::START,
        Buttons::NONE,
        Buttons::LEFT,
        Buttons::DOWN,
        Buttons::A,
        Buttons::SELECT,
        DLR,
        Buttons::START | Buttons::A,
    ];
    let mut rng = at_pause.rng;
    for (i, &b) in inputs.iter().cycle().take(200).enumerate() {
        let ev = g.step(b);
        assert!(!ev.has(FrameEvents::RESUMED), "frame {i}: {b:?}");
        rng = lfsr_step(rng);
        assert_eq!(frozen_part(g.state()), frozen_part(&at_pause), "frame {i}");
        assert_eq!(g.state().rng, rng);
        assert_eq!(
            g.state().frame_counter,
            at_pause.frame_counter + i as u16 + 1
        );
    }
}

#[test]
fn resume_needs_exactly_start_and_runs_no_play_that_frame() {
    let mut g = paused_game();
    g.step(Buttons::NONE);
    // Start with another button newly pressed too: still paused.
    assert!(!g
        .step(Buttons::START | Buttons::B)
        .has(FrameEvents::RESUMED));
    g.step(Buttons::NONE);
    // Start newly pressed while B is held from before: the new byte is exactly Start.
    g.step(Buttons::B);
    let timer = g.state().fall_timer;
    let ev = g.step(Buttons::START | Buttons::B);
    assert!(ev.has(FrameEvents::RESUMED));
    let st = g.state();
    assert_eq!((st.render_mode, st.vram_row, st.fall_timer), (3, 0, timer));
    // The next frame is a normal one.
    g.step(Buttons::NONE);
    assert_eq!(g.state().fall_timer, timer + 1);
}

#[test]
fn start_held_from_the_pause_frame_does_not_resume() {
    let mut g = paused_game();
    for _ in 0..30 {
        assert!(!g.step(Buttons::START).has(FrameEvents::RESUMED));
    }
}

#[test]
fn no_pause_during_the_curtain() {
    let mut s = playing(0, T, 5, 5);
    s.play_state = 10;
    s.curtain_row = 0xF0;
    let mut g = game(s);
    assert!(!g.step(Buttons::START).has(FrameEvents::PAUSED));
    assert_eq!(g.state().render_mode, 3);
}

/// A state whose next spawned piece (a T at row 0, columns 4-6 and the stem (1, 5))
/// overlaps a block at `block`, right after the current piece locked at the bottom.
fn spawn_into(block: (usize, usize)) -> Game {
    let mut s = about_to_spawn(0, T);
    set(&mut s, block.0, block.1, BLOCK);
    let mut g = game(s);
    assert!(g.step(Buttons::NONE).has(FrameEvents::SPAWNED));
    g
}

#[test]
fn spawning_into_the_stack_is_not_yet_game_over() {
    let mut g = spawn_into((1, 5));
    assert_eq!(g.state().play_state, 1);
    assert!(!spec_valid(g.state(), T, 5, 0));
    // It stays in play until its first gravity step (level 0: 48 frames) fails.
    for f in 0..47 {
        let ev = g.step(Buttons::NONE);
        assert!(!ev.has(FrameEvents::LANDED), "frame {f}");
        assert_eq!(g.state().play_state, 1);
    }
    assert!(g.step(Buttons::NONE).has(FrameEvents::LANDED));
    assert_eq!(g.state().play_state, 2);
    // The lock finds the piece overlapping: game over, curtain at -16.
    let ev = g.step(Buttons::NONE);
    assert!(ev.has(FrameEvents::TOPPED_OUT) && !ev.has(FrameEvents::LOCKED));
    assert_eq!((g.state().play_state, g.state().curtain_row), (10, 0xF0));
}

#[test]
fn an_overlapping_piece_can_escape_before_it_locks() {
    // Only the T's right cell (0, 6) overlaps; one shift left frees it.
    let mut g = spawn_into((0, 6));
    assert!(g.step(Buttons::LEFT).has(FrameEvents::SHIFTED));
    let mut topped = false;
    run_until(
        &mut g,
        2000,
        |_| Buttons::NONE,
        |ev, _| {
            topped |= ev.has(FrameEvents::TOPPED_OUT);
            ev.has(FrameEvents::SPAWNED)
        },
    );
    assert!(!topped);
    assert_eq!(g.state().play_state, 1);
}

#[test]
fn an_overlapping_piece_falls_out_of_the_overlap_if_the_row_below_is_free() {
    // Spawn runs no check and the gravity step only tests the new position: a T whose
    // left cell overlaps (0, 4) simply drops to row 1 and play goes on.
    let mut g = spawn_into((0, 4));
    let landed = frames_with(&mut g, 48, |_| Buttons::NONE, FrameEvents::LANDED);
    assert!(landed.is_empty());
    assert_eq!((g.state().y, g.state().play_state), (1, 1));
    assert_eq!(g.state().playfield.cell(0, 4), BLOCK);
}
