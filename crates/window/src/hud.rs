//! The HUD in the window: the render crate's panel ([`nestris_render::hud`]) beside the
//! NES picture, and the crash marker over the picture.

use nestris_core::{Game, Snapshot};
use nestris_render::{Frame, HEIGHT, WIDTH};

use crate::canvas::Canvas;

pub use nestris_render::hud::{Tally, PANEL_WIDTH};

/// A frame for the picture: wide enough for the panel beside it when the HUD is on.
pub fn frame(hud: bool) -> Frame {
    if hud {
        Frame::with_size(nestris_render::hud::WIDTH, HEIGHT)
    } else {
        Frame::new()
    }
}

/// Draws the panel beside the picture in `frame` (from [`frame`] with the HUD on).
pub fn draw(frame: &mut Frame, tally: &Tally, s: &Snapshot) {
    nestris_render::hud::draw_panel(frame, WIDTH as i32, tally, s);
}

/// The crash marker over the NES picture, once the cartridge would have crashed in this
/// game (`Game::crashed`): "CRASHED" on red at the picture's bottom left, "CPU HALTED"
/// added when the console stopped there (crash mode `cartridge`), and the game's lag
/// frames when known. Nothing otherwise.
pub fn draw_crash_marker(c: &mut Canvas, game: &Game, lag_frames: Option<u64>) {
    if game.crashed().is_none() {
        return;
    }
    let mut text = String::from("CRASHED");
    if game.halted() {
        text.push_str(" - CPU HALTED");
    }
    if let Some(n) = lag_frames {
        text.push_str(&format!("  LAG {n}"));
    }
    let (x, y) = CRASH_MARKER_AT;
    let w = crate::font::width(&text, 1);
    c.fill_rect(x, y, w + 6, crate::font::H + 6, CRASH_MARKER_RED);
    c.text(x + 3, y + 3, &text, WHITE, 1);
}

/// Where the crash marker's box starts on the NES picture (left, top).
pub const CRASH_MARKER_AT: (i32, i32) = (4, 240 - crate::font::H - 10);

/// The crash marker's background.
pub const CRASH_MARKER_RED: u32 = 0xA80020;

/// The crash marker's text.
const WHITE: u32 = 0xFCFCFC;

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::GameSetup;

    #[test]
    fn the_panel_is_drawn_beside_the_picture() {
        let game = Game::new(GameSetup::default());
        let mut f = frame(true);
        assert_eq!(f.width(), WIDTH + PANEL_WIDTH);
        nestris_render::draw(&game, &mut f);
        let picture = f.clone();
        draw(&mut f, &Tally::default(), game.state());
        assert!(
            (0..HEIGHT).all(|y| (0..WIDTH).all(|x| f.pixel(x, y) == picture.pixel(x, y))),
            "the picture is left as it was"
        );
        let mut panel = Frame::with_size(WIDTH + PANEL_WIDTH, HEIGHT);
        nestris_render::hud::draw(&game, &Tally::default(), &mut panel, Default::default());
        assert!(panel == f, "the render crate's panel");
        assert_eq!(frame(false).width(), WIDTH);
    }
}
