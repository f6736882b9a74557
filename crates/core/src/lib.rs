//! Frame-exact rules and state of NES Tetris (USA, 1989).
//!
//! One [`Game`] value holds everything the cartridge remembers between frames; one call
//! to [`Game::step`] runs one NES frame with the buttons held on controller 1 and returns
//! what happened as [`FrameEvents`]. Cloning a `Game` is a save state.
//!
//! The engine follows the cartridge's own frame: the frame interrupt (screen-copy cursor
//! or line-clear animation, frame counter, one generator step, controller read) and then
//! the main loop's handlers (gravity timer, piece update, pause), with every quirk the
//! cartridge has. It is `no_std`, allocation-free and has no source of randomness but
//! the game's LFSR.
//!
//! ```
//! use nestris_core::{Buttons, Game, GameSetup};
//!
//! let mut game = Game::new(GameSetup { level: 18, ..GameSetup::default() });
//! // Hold Left: the piece moves at once, then after 16 frames, then every 6.
//! for _ in 0..30 {
//!     game.step(Buttons::LEFT);
//! }
//! assert!(game.state().x < 5);
//! ```
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod audio;
pub mod bcd;
mod builtin_demo;
mod buttons;
mod crash;
pub mod cycles;
mod cycles_play;
pub mod das_only;
mod demo;
pub mod encode;
mod events;
pub mod flow;
mod game;
mod idle;
mod landing;
pub mod lfsr;
mod menus;
mod music;
mod overrun;
mod play;
mod playfield;
pub mod position;
mod postgame;
pub mod quick;
mod region;
mod snapshot;
pub mod tables;
pub mod tally;
pub mod tap_test;
pub mod timing;
pub mod trainer;
mod variant;
pub mod view;

pub use buttons::Buttons;
pub use crash::{Crash, CrashMode};
pub use das_only::DasOnly;
pub use demo::{DemoData, DemoRecorder, DEMO_BUTTON_BYTES};
pub use events::{Cycles, FrameEvents};
pub use flow::{Block, Cut, Jump, PlayerCut, Resume, Then};
pub use game::{Cartridge, Game, GameSetup, GameType};
pub use idle::IdleRun;
pub use music::{Music, Track};
pub use playfield::Playfield;
pub use region::Region;
pub use snapshot::{Snapshot, SnapshotError};
pub use variant::{
    cap_lines, drought_repicks, CapAt, CapRule, GymSeed, Label, LineCap, SeedRule, Variant,
    VariantBytes, DROUGHT_MAX, DROUGHT_MAX_REPICKS, VARIANT_LEN, VARIANT_V1_LEN,
};
pub use view::{Board, GameMode, PlayState, Screen};
