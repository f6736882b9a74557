//! Terminal front end for nestris: the NES in text cells, from power-on.
//!
//! [`run`] takes over the terminal, switches the console on ([`nestris_core::Game::power_on`])
//! and runs the cartridge's whole flow at the console's frame rate — legal screen, title,
//! demo, game-type and level menus, play, curtain, endings, high-score name entry, and
//! back to the level menu — with one [`nestris_core::Game::step`] per frame and the
//! buttons sampled once per frame, so frame counts and pieces are the cartridge's. It
//! restores the terminal when it returns or panics. Drawing is a pure function of the
//! game and a little front-end state ([`draw::render`]); what the screen shows is the
//! core's view of the game ([`nestris_core::Snapshot::screen`]), so it is tested without a
//! terminal.
//!
//! Keys: arrows = D-pad, X = A, Z = B, Enter = Start, Tab or Right Shift = Select,
//! Esc or Q = quit (asks while a game is under way), Ctrl-C = quit at once.
//!
//! DAS and soft drop need to know how long a key is held. Where the terminal speaks the
//! kitty keyboard protocol it reports releases; elsewhere holding is estimated from the
//! terminal's key repeat (see the `input` module) and the screen says so.

#![deny(missing_docs)]

mod app;
pub mod draw;
mod error;
mod input;
mod options;
mod term;

pub use app::{run, run_with_pilot, Pilot};
pub use error::TuiError;
pub use options::{TuiOptions, USAGE};
