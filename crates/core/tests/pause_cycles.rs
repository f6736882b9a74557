//! The pause keeps the sub-frame timing: its frames' CPU cycles are counted (the pause loop,
//! its sprite, the sound engine's pause tune), so a game paused and resumed still places
//! its later lag frames. Figures measured on the cartridge in the recordings' emulator
//! (`bot-lv154-mixed-quirks`, frames 759-772).

use nestris_core::{Buttons, FrameEvents, Game, GameSetup, Resume};

/// The main-loop cycles of a pause frame besides the sound update and the wait's exit.
fn pause_work(g: &mut Game, buttons: Buttons) -> (u32, FrameEvents) {
    let exit = if g.state().clock.after_load { 8 } else { 5 };
    let ev = g.step(buttons);
    (ev.cycles.work as u32 - ev.cycles.audio as u32 - exit, ev)
}

#[test]
fn pause_frames_are_counted_and_the_timing_survives() {
    let mut g = Game::new(GameSetup {
        level: 18,
        music_type: 3,
        ..GameSetup::default()
    });
    for _ in 0..30 {
        g.step(Buttons::NONE);
    }
    assert!(g.state().clock.known);
    let ev = g.step(Buttons::START);
    assert!(ev.has(FrameEvents::PAUSED));
    assert!(ev.cycles.known && g.state().clock.known);
    assert_eq!(g.state().resume, Resume::Paused);
    // The first frame returns through `updateAudioAndWaitForNmi` (3443 cycles in all on the
    // cartridge, with a 58-cycle sound update and a 5-cycle exit).
    let (first, ev) = pause_work(&mut g, Buttons::NONE);
    assert!(ev.cycles.known);
    assert_eq!(first, 3443 - 58 - 5);
    // Later frames loop in `@pauseLoop` (3440).
    let (again, _) = pause_work(&mut g, Buttons::NONE);
    assert_eq!(again, 3440 - 58 - 5);
    // The interrupt shows render mode 0 while paused: 1676 or 1677 cycles on the cartridge
    // (the OAM copy's alignment), one less when the generator's feedback test does not
    // branch, four less while the sleep counter runs.
    let ev = g.step(Buttons::NONE);
    assert!((1671..=1677).contains(&ev.cycles.nmi), "{}", ev.cycles.nmi);
    g.step(Buttons::NONE);
    let ev = g.step(Buttons::START);
    assert!(ev.has(FrameEvents::RESUMED));
    assert!(ev.cycles.known && g.state().clock.known);
    assert_eq!(g.state().resume, Resume::MainLoop);
    assert!(g.state().clock.known);
}

#[test]
fn the_pause_entry_survives_a_save_state() {
    let mut g = Game::new(GameSetup {
        music_type: 3,
        ..GameSetup::default()
    });
    g.step(Buttons::NONE);
    g.step(Buttons::NONE);
    g.step(Buttons::START);
    assert!(g.state().clock.pause_entry);
    let s = g.snapshot();
    let mut back = nestris_core::Snapshot::decode(&s.encode()).unwrap();
    back.decode_timing(&s.encode_timing()).unwrap();
    assert_eq!(back, s);
}
