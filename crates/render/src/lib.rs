//! The nestris screen as pixels: 256x240 like the NES picture, drawn with this project's
//! own tiles and lettering.
//!
//! [`Renderer::draw`] turns a [`Game`] into a [`Frame`]: the play screen (playfield,
//! LINES, statistics, TOP and SCORE, NEXT, LEVEL, pause, the line-clear animation and the
//! game-over curtain), the power-on screen, the title, both menus, high-score name
//! entry and both endings. Which screen shows follows the cartridge's `gameMode` and
//! `renderMode`. The look is NES-like on purpose — 8x8 tiles of four colours, the
//! 2C02's master palette, ten playfield palettes cycling with the level — but every
//! tile, letter and layout is drawn for this project; nothing comes from the cartridge.
//!
//! The renderer keeps one thing between frames: the playfield as it was when the row
//! check began, because the engine removes completed rows before the screen's
//! animation has blanked them. Call [`Renderer::observe`] after every
//! [`Game::step`], then draw whenever a picture is wanted.
//!
//! ```
//! use nestris_core::{Buttons, Game, GameSetup};
//! use nestris_render::{Frame, Renderer};
//!
//! let mut game = Game::new(GameSetup::default());
//! let mut renderer = Renderer::new();
//! let mut frame = Frame::new();
//! for _ in 0..10 {
//!     game.step(Buttons::NONE);
//!     renderer.observe(&game);
//! }
//! renderer.draw(&game, &mut frame);
//! // The field's top-left corner: empty (black) on a new game.
//! assert_eq!(frame.pixel(96, 48), 0x000000);
//! let png = nestris_render::encode_png(&frame);
//! assert!(png.starts_with(b"\x89PNG"));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod board;
mod font;
mod frame;
mod layout;
pub mod palette;
mod png_io;
mod screens;
mod tiles;

use nestris_core::Game;

pub use frame::{scale_into, Frame, HEIGHT, WIDTH};
pub use layout::{FIELD_X, FIELD_Y};
pub use png_io::{decode_png, encode_png, DecodeError};

/// Draws games into frames, keeping what the screen needs to remember between frames.
#[derive(Clone, Debug, Default)]
pub struct Renderer {
    clear: board::ClearCopy,
}

impl Renderer {
    /// A renderer with nothing remembered yet.
    pub fn new() -> Renderer {
        Renderer::default()
    }

    /// Looks at the game after a step: call it after every [`Game::step`] (and after
    /// loading a state), so that the line-clear animation has the rows to blank.
    pub fn observe(&mut self, game: &Game) {
        self.clear.observe(game.state());
    }

    /// Draws the screen the game shows now into `frame` (every pixel is written).
    pub fn draw(&self, game: &Game, frame: &mut Frame) {
        screens::draw(game.state(), &self.clear, frame);
    }
}
