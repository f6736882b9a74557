//! Headless nestris at full speed.
//!
//! [`run`] plays many games on many threads with an input [`Policy`] and summarises
//! them; [`inputs`] reads per-frame input files; [`rng`] is the randomizer analysis,
//! exhaustive over every generator state and pick count. Nothing here changes the
//! rules: every frame is one [`nestris_core::Game::step`].

#![deny(missing_docs)]

pub mod inputs;
mod policy;
pub mod pool;
pub mod rng;
mod runner;

pub use policy::{Policy, PolicyError};
pub use runner::{play_from, play_one, run, GameOutcome, SimConfig, Summary};
