//! [`WindowError`]: why the desktop game or the replay viewer could not run, each one
//! line (the binary prints it and exits non-zero).

use crate::config::ConfigError;

/// Why the window could not be shown or kept up.
#[derive(Debug, thiserror::Error)]
pub enum WindowError {
    /// No display to open a window on (no X server or Wayland compositor, or it refused).
    #[error("no display available: {0} (nestris play --tui plays in the terminal)")]
    NoDisplay(String),
    /// The window is open but its picture cannot be drawn.
    #[error("cannot {0}")]
    Draw(String),
    /// The config file cannot be used (its line is named).
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The replay to watch cannot be read.
    #[error(transparent)]
    Replay(#[from] nestris_replay::LoadError),
    /// The versus match to watch cannot be read.
    #[error("{0}")]
    Versus(String),
    /// The board editor's position file cannot be read.
    #[error(transparent)]
    Position(#[from] nestris_replay::position::PositionError),
    /// `NESTRIS_PACING_LOG` names a file that cannot be created.
    #[error("cannot create the pacing log: {0}")]
    PacingLog(std::io::Error),
    /// The session's replay could not be written whole on exit.
    #[error("{0}")]
    NotSaved(std::io::Error),
    /// The window system's event loop stopped with an error.
    #[error("the window's event loop failed: {0}")]
    EventLoop(String),
}

/// A result with a [`WindowError`].
pub type Result<T> = std::result::Result<T, WindowError>;
