//! What the cycle model predicts on screen: counters left behind by an interrupt inside
//! the player update (display lag), and the confetti of a stall.

use nestris_core::{Buttons, CrashMode, FrameEvents, Game};
use nestris_render::Frame;

fn picture(g: &Game) -> Vec<u32> {
    let mut f = Frame::new();
    nestris_render::draw(g, &mut f);
    f.pixels.to_vec()
}

#[test]
fn the_picture_shows_the_counters_the_interrupt_drew() {
    // A single completing a ten at level 166: the interrupt lands in the score loop and
    // draws the lines and level from before the clear.
    let mut s = Game::capped_score_frame(166, CrashMode::Show).snapshot();
    s.lines = [0x09, 0x00];
    let mut g = Game::from_snapshot(s).unwrap();
    let lag = g.step(Buttons::NONE);
    let next = g.step(Buttons::NONE);
    assert!(lag.has(FrameEvents::LAG) && next.has(FrameEvents::DIGITS_STALE));
    let s = g.snapshot();
    assert!(s.display_lag());
    // The same picture as a game whose counters are the ones shown...
    let mut as_shown = s.clone();
    as_shown.lines = s.shown_lines();
    as_shown.level = s.shown_level();
    as_shown.score = s.shown_score();
    as_shown.stale = Default::default();
    assert_eq!(
        picture(&g),
        picture(&Game::from_snapshot(as_shown).unwrap())
    );
    // ... and not the picture of the counters the game has.
    let mut current = s;
    current.stale = Default::default();
    assert_ne!(picture(&g), picture(&Game::from_snapshot(current).unwrap()));
}

#[test]
fn a_stall_shows_confetti_that_changes_every_frame() {
    // A level-162 single: the frame after the lag frame stalls in the preview's staging.
    let mut g = Game::capped_score_frame(162, CrashMode::Show);
    let mut pictures = Vec::new();
    for _ in 0..6 {
        let ev = g.step(Buttons::NONE);
        if ev.has(FrameEvents::SPRITES_GARBLED) {
            assert!(g.state().sprites_garbled());
            // Drawn from the state alone: the same state, the same confetti.
            assert_eq!(picture(&g), picture(&g.clone()));
            pictures.push(picture(&g));
        }
    }
    assert!(pictures.len() >= 3, "{} stall frames", pictures.len());
    // Nothing else moves during a stall: the pictures differ by the confetti.
    assert!(pictures.windows(2).all(|w| w[0] != w[1]));
}
