//! The desktop game: nestris in a window.
//!
//! [`run`] opens a window (winit + softbuffer), switches the console on
//! ([`nestris_core::Game::power_on`]) and plays the cartridge's whole flow — legal
//! screen, title, menus, play, endings, high-score entry — one
//! [`nestris_core::Game::step`] per NES video frame at 60.0988 Hz (PAL 50.007 Hz), with
//! the buttons sampled once per frame from the keyboard and any gamepad. The picture is
//! the `nestris-render` screen, scaled by whole multiples so the pixels stay square.
//!
//! Around the game: NES-style sound effects synthesized in code, high scores and
//! settings kept in the data folder, every session recorded as a replay, an optional
//! HUD (tetris rate, drought, DAS charge, input display) and a TOML config file for
//! the keys. See [`WindowOptions`] for what a caller chooses.
//!
//! Keys by default: arrows = D-pad, X = A, Z = B, Enter = Start, Right Shift or
//! Tab = Select, Esc = quit (asks "QUIT? Y/N" during a game), M = mute, F11 = fullscreen.

mod app;
mod audio;
mod canvas;
pub mod config;
mod font;
mod gamepad;
pub mod hud;
pub mod input;
mod options;
pub mod pacing;
mod recording;
mod session;
mod sfx;
mod status;
pub mod storage;

pub use app::run;
pub use options::{Autopilot, WindowOptions, USAGE};
