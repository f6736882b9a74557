//! The desktop game: nestris in a window.
//!
//! [`run`] opens a window (winit + softbuffer), switches the console on
//! ([`nestris_core::Game::power_on`]) and plays the cartridge's whole flow — legal
//! screen, title, menus, play, endings, high-score entry — one
//! [`nestris_core::Game::step`] per NES video frame at 60.0988 Hz (PAL 50.007 Hz), with
//! the buttons sampled once per frame from the keyboard and any gamepad. The picture is
//! the `nestris-render` screen, scaled by whole multiples so the pixels stay square.
//!
//! Around the game: NES-style sound effects and music synthesized in code (the music
//! menu's MUSIC 1 is our arrangement of the folk tune Korobeiniki, MUSIC 2 and 3 and the
//! other screens' tunes are our own: see [`tunes`]), high scores and
//! settings kept in the data folder, every session recorded as a replay, an optional
//! HUD (the render crate's panel: tetris rate, burn, efficiency, drought, pace, DAS, tap
//! speed, input display) and a TOML config file for the keys. See [`WindowOptions`] for what a caller chooses.
//!
//! Keys by default: arrows = D-pad, X = A, Z = B, Enter = Start, Right Shift or
//! Tab = Select, Esc = quit (asks "QUIT THIS GAME?" during a game), M = mute (effects and
//! music), J = music on/off, F11 = fullscreen, C = the coach, V on the title screen = the
//! versus setup screen in the same window (Esc goes back to the title).
//! Practice: F1-F4 save a savestate, F5-F8 load one, Backspace (held) rewinds, F9 stops
//! the clock and F10 then advances one frame; on the level menu S (or Select) enters a
//! TetrisGYM seed.
//!
//! [`play_versus_replay`] shows a versus match (`.nestrisvs`) in the same viewer, both
//! fields and the scoreboard side by side.
//!
//! [`run_tap_test`] is the tap-speed test: a screen of its own that measures the player's
//! taps (taps a second and the best, frames between taps, frames from a spawn to the first
//! tap), from the core's `TapTest`.
//!
//! [`play_replay`] is the replay viewer: a [`nestris_replay::Replay`] played back in the
//! window with the same picture, HUD and sound, paused, stepped frame by frame (back
//! too), sped up or slowed down and seeked from a progress bar under the picture; at the
//! end it shows whether the final state is the recorded one. The controller behind it,
//! [`playback::Playback`], needs no window.

#![deny(missing_docs)]

mod app;
mod audio;
mod canvas;
mod coach;
pub mod config;
pub mod editor;
mod error;
mod font;
mod gamepad;
pub mod hud;
pub mod input;
pub mod music;
pub mod network;
mod options;
pub mod playback;
pub mod practice;
pub mod progress;
mod screen;
pub mod seed;
mod session;
mod sfx;
mod status;
mod tap_test;
pub mod tunes;
pub mod versus;
pub mod versus_setup;
pub mod viewer;

pub use app::run;
pub use error::WindowError;
pub use options::{Autopilot, WindowOptions, USAGE};
pub use sfx::Sfx;
pub use tap_test::{run_tap_test, TapTestOptions};
pub use versus::{run_versus, AiMaker, Opponent, VersusOptions};
pub use viewer::{play_replay, play_versus_replay, ReplayViewerOptions};
