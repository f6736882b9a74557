//! Reinforcement-learning environments over the engine, in plain Rust, for the Python
//! package (`crates/py`) and anyone who wants them without Python.
//!
//! An environment is a [`Task`]: how an episode starts and what one step of it does.
//! Two are here: [`frame::EnvConfig`] (one action = buttons held for `frame_skip`
//! frames) and [`placement::PlacementConfig`] (one action = one of the places the piece
//! can lock, from `nestris-ai`'s move generator). [`vector`] steps n episodes of any
//! task together, with Gymnasium's truncation and next-step auto-reset, on the
//! engine's thread pool. [`obs`] writes the observations (the board, the features and
//! a picture of the play screen, read from the core's view).
//!
//! Nothing here knows Python: the single and vector environments of `nestris` are thin
//! wrappers that parse arguments and hand numpy arrays to these functions.

#![deny(missing_docs)]

pub mod config;
pub mod evaluate;
pub mod frame;
pub mod obs;
pub mod placement;
pub mod vector;

pub use config::{GameOptions, ObsKind, Reward};
pub use vector::{Outcome, Rows, Task};
