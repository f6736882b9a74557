//! The cartridge's own demo, read from the user's Tetris (USA) image, and FCEUX's
//! checksum of that image (written into exported movies): needs `NESTRIS_ROM` to name one
//! (no ROM is part of this project), so it is ignored unless asked for
//! (`cargo test -- --include-ignored`).
//!
//! The figures were measured on the cartridge itself, in the nes-py emulator, by
//! reading RAM every frame from power-on with no input: the demo (its buttons and
//! pieces from the image) gave the same board, piece, position, preview, score and lines
//! on every one of its 4,759 frames as this engine does. nes-py samples RAM one
//! interrupt later in the frame than the conformance traces (its frame counter and
//! generator are one step ahead, and the demo's buttons show a frame early), so the
//! frame numbers below are the traces' (frame 0 is the console's first video frame).

use base64::Engine;
use md5::{Digest, Md5};
use nestris_core::GameMode;
use nestris_core::{bcd, Buttons, Game, Region};
use nestris_replay::{fm2, rom};

#[test]
#[ignore = "needs NESTRIS_ROM"]
fn the_cartridge_demo_plays_as_on_the_cartridge_and_the_movie_checksum_is_its() {
    let path = std::env::var_os("NESTRIS_ROM").expect("NESTRIS_ROM names a ROM image");
    let image = std::fs::read(&path).expect("NESTRIS_ROM names a readable file");
    let demo = rom::demo_tables(&image).expect("NESTRIS_ROM is a Tetris (USA) image");
    // FCEUX's checksum covers the image without its 16-byte header.
    let body = &image[image.len() - 0xC000..];
    let md5 = base64::engine::general_purpose::STANDARD.encode(Md5::digest(body));
    assert_eq!(format!("base64:{md5}"), fm2::TETRIS_USA_FM2_CHECKSUM);
    let mut game = Game::power_on(Region::Ntsc);
    let mut changes = Vec::new();
    let mut mode = game.state().mode();
    let mut at_end = (0, 0);
    for f in 0..8000u32 {
        game.step_with_demo(Buttons::NONE, &demo);
        let s = game.state();
        if s.mode() != mode {
            if mode == GameMode::Demo {
                at_end = (bcd::score_value(s.score), bcd::lines_value(s.lines));
            }
            mode = s.mode();
            changes.push((f, mode));
        }
    }
    // Legal screen, title, demo, title again when the demo's buttons run out, the demo
    // again.
    use GameMode::{Demo, Title};
    assert_eq!(
        changes,
        [(522, Title), (1796, Demo), (6555, Title), (7684, Demo)]
    );
    assert_eq!(at_end, (4290, 14));
}
