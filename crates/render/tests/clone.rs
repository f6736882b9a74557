//! Drawing keeps nothing between frames: a game cloned (or saved and restored) in the
//! middle of a line clear draws exactly as the original, frame after frame.

use nestris_core::tables::TILE_EMPTY;
use nestris_core::{Buttons, Game, GameSetup, PlayState, Snapshot};
use nestris_render::Frame;

fn picture(g: &Game) -> Vec<u32> {
    let mut f = Frame::new();
    nestris_render::draw(g, &mut f);
    f.pixels.to_vec()
}

/// A level-9 game whose vertical I, one row above its landing, completes the bottom two
/// rows (the hole in column 0).
fn about_to_clear() -> Game {
    let mut g = Game::new(GameSetup {
        level: 9,
        ..GameSetup::default()
    });
    for _ in 0..3 {
        g.step(Buttons::NONE);
    }
    let mut s = g.snapshot();
    s.playfield.0[..200].fill(TILE_EMPTY);
    for i in 181..200 {
        if i != 190 {
            s.playfield.0[i] = if i < 190 { 0x7C } else { 0x7D };
        }
    }
    s.piece = 17;
    s.x = 0;
    s.y = 16;
    s.play_state = 1;
    s.fall_timer = 100;
    s.vram_row = 0x20;
    Game::from_snapshot(s).unwrap()
}

#[test]
fn a_game_cloned_mid_clear_draws_as_the_original() {
    let mut g = about_to_clear();
    while g.state().phase() != PlayState::ClearAnimation || g.state().row_y < 1 {
        g.step(Buttons::NONE);
    }
    // The picture still shows the two rows RAM has lost: a redraw from RAM would differ.
    let mut ram_only = g.snapshot();
    ram_only.cleared = Default::default();
    assert_ne!(
        picture(&Game::from_snapshot(ram_only).unwrap()),
        picture(&g)
    );

    let mut clone = g.clone();
    let s = g.snapshot();
    let mut restored: Snapshot = Snapshot::decode(&s.encode()).unwrap();
    restored.decode_timing(&s.encode_timing()).unwrap();
    let mut restored = Game::from_snapshot(restored).unwrap();
    for frame in 0..30 {
        let want = picture(&g);
        assert!(picture(&clone) == want, "clone, frame {frame}");
        assert!(picture(&restored) == want, "restored, frame {frame}");
        g.step(Buttons::NONE);
        clone.step(Buttons::NONE);
        restored.step(Buttons::NONE);
    }
}
