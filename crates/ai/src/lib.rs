//! A player for NES Tetris (USA, 1989) on the frame-exact engine of `nestris-core`.
//!
//! The player works in four layers, each its own module:
//!
//! * [`inputs`]: the [`InputModel`], what a player's hands can do (a [`TapPattern`] of
//!   when taps may come, DAS, reaction time, soft drop), defined on whole frames.
//! * [`movegen`]: every place the current piece can lock under that model, found by
//!   simulating the cartridge's piece control frame by frame on a [`Board`] bitboard,
//!   each with the exact per-frame buttons that put it there (tucks and spins included).
//! * [`eval`] and [`search`]: a weighted board evaluation ([`Weights`], loadable from
//!   TOML or JSON) and a search over the current piece, the preview and the piece after
//!   it (which the generator has fixed by the time the current piece lands).
//! * [`player`]: [`Ai`], which turns a [`Game`](nestris_core::Game) into the buttons
//!   of the next piece, and [`play_game`], which plays a whole game through
//!   [`Game::step`](nestris_core::Game::step), so its inputs are a valid replay.
//!
//! [`coach`] answers a position given as JSON (StackRabbit's request shape) with the
//! best placements, their values and their inputs (`nestris ai suggest`).
//!
//! Around them, [`benchmark`] plays many games in parallel on a fixed, published seed
//! list and reports score and line statistics (the score also without the cartridge's
//! 999,999 cap), and [`tune`] searches the weights by the cross-entropy method.
//!
//! ```
//! use nestris_ai::{play_game, Ai, InputModel, Weights};
//! use nestris_core::GameSetup;
//!
//! let mut setup = GameSetup::from_seed(7);
//! setup.level = 18;
//! let mut ai = Ai::new(Weights::default(), InputModel::hz30());
//! let result = play_game(setup, &mut ai, 3_000);
//! assert_eq!(result.inputs.len() as u64, result.frames);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bench;
pub mod benchmark;
pub mod board;
pub mod checkpoint;
pub mod coach;
pub mod eval;
pub mod format;
pub mod inputs;
pub mod movegen;
pub mod player;
pub mod risk;
pub mod search;
pub mod taps;
pub mod tune;

pub use board::Board;
pub use eval::{Bracket, HighStack, WeightSet, Weights};
pub use inputs::InputModel;
pub use movegen::{MoveGen, Placement, Start, Trace};
pub use player::{play, play_from, play_from_until, play_game, Ai, End, GameResult, Limits};
pub use search::{Dodge, Lookahead, Plan, Ranked, Search, SearchOptions};
pub use taps::{TapClock, TapPattern, TapPatternError};
