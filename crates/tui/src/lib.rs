//! Terminal front end for nestris: the NES play screen drawn in text cells.
//!
//! [`run`] takes over the terminal, plays one game after another at the console's frame
//! rate (one [`nestris_core::Game::step`] per frame, buttons sampled once per frame) and
//! restores the terminal when it returns or panics. Drawing is a pure function of the game
//! and a little front-end state ([`draw::render`]), so it is tested without a terminal.
//!
//! Keys: arrows = D-pad, X = A (rotate clockwise), Z = B, Enter = Start (pause),
//! Tab or Right Shift = Select (preview on/off), Esc = quit (asks during a game),
//! Q = quit from the game-over screen, Ctrl-C = quit at once.
//!
//! DAS and soft drop need to know how long a key is held. Where the terminal speaks the
//! kitty keyboard protocol it reports releases; elsewhere holding is estimated from the
//! terminal's key repeat (see the `input` module) and the screen says so.

mod anim;
mod app;
pub mod draw;
mod input;
mod options;
mod pacing;
mod term;

pub use anim::ClearAnimation;
pub use app::run;
pub use options::TuiOptions;
