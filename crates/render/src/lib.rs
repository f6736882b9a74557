//! The nestris screen as pixels: 256x240 like the NES picture, drawn with this project's
//! own tiles and lettering.
//!
//! [`draw`] turns a [`Game`] into a [`Frame`]: the play screen (playfield,
//! LINES, statistics, TOP and SCORE, NEXT, LEVEL, pause, the line-clear animation and the
//! game-over curtain), the power-on screen, the title, both menus, high-score name
//! entry and both endings. Which screen shows follows the cartridge's `gameMode` and
//! `renderMode`. The look is NES-like on purpose — 8x8 tiles of four colours, the
//! 2C02's master palette, ten playfield palettes cycling with the level — but every
//! tile, letter and layout is drawn for this project; nothing comes from the cartridge.
//!
//! Beside the screen, [`hud`] draws the stats panel players know (tetris rate, burn,
//! drought, pace, DAS, taps, the controller) from a [`hud::Tally`] of the game's frames.
//! [`tap_test`] draws the tap-speed test's screen from the core's `TapTest`.
//!
//! Drawing keeps nothing between frames: what the screen shows (the board during a line
//! clear included) is the core's view of the game ([`nestris_core::Snapshot::screen`],
//! [`nestris_core::Snapshot::shown_board`]), so any `Game`, cloned or loaded, draws as
//! the original.
//!
//! ```
//! use nestris_core::{Buttons, Game, GameSetup};
//! use nestris_render::Frame;
//!
//! let mut game = Game::new(GameSetup::default());
//! let mut frame = Frame::new();
//! for _ in 0..10 {
//!     game.step(Buttons::NONE);
//! }
//! nestris_render::draw(&game, &mut frame);
//! // The field's top-left corner: empty (black) on a new game.
//! assert_eq!(frame.pixel(96, 48), 0x000000);
//! let png = nestris_render::encode_png(&frame);
//! assert!(png.starts_with(b"\x89PNG"));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod editor;
mod font;
mod frame;
pub mod hud;
mod layout;
pub mod palette;
mod png_io;
mod screens;
pub mod tap_test;
mod tiles;
pub mod versus;

use nestris_core::Game;

pub use frame::{scale_into, Frame, HEIGHT, WIDTH};
pub use layout::{FIELD_X, FIELD_Y};
pub use palette::LevelColours;
pub use png_io::{decode_png, encode_png, encode_png_pixels, DecodeError, MAX_SIDE};

/// Draws the screen the game shows now into `frame` (every pixel is written), in the
/// cartridge's level colours.
pub fn draw(game: &Game, frame: &mut Frame) {
    draw_with(game, frame, LevelColours::Classic);
}

/// A dialog over the picture in the game's own frame and lettering: `lines` centred in a
/// framed box in the middle of the screen (the window's "quit this game?", say). Lines
/// longer than 28 characters are cut.
pub fn draw_dialog(frame: &mut Frame, lines: &[&str]) {
    const MAX: usize = 28;
    let longest = lines.iter().map(|l| l.len().min(MAX)).max().unwrap_or(0) as i32;
    let (w, h) = (longest + 4, lines.len() as i32 + 4);
    let (col, row) = ((32 - w) / 2, (30 - h) / 2);
    layout::framed_box(frame, col, row, w, h);
    let white = palette::rgb(palette::WHITE);
    for (i, line) in lines.iter().enumerate() {
        let line = &line[..line.len().min(MAX)];
        let y = (row + 2 + i as i32) * layout::CELL;
        layout::text_centred(frame, col * layout::CELL, w * layout::CELL, y, line, white);
    }
}

/// [`draw`] with the blocks in `colours`. The screen fills the frame's top-left 256x240
/// (a wider frame keeps room for [`hud::draw_panel`]).
pub fn draw_with(game: &Game, frame: &mut Frame, colours: LevelColours) {
    screens::draw(game.state(), frame, colours);
}
