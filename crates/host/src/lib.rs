//! What the front ends (the window and the terminal) take from the machine they run on,
//! said once for both: where the config, data and replay folders are ([`Dirs`]), the
//! files kept between runs ([`store`]: the high-score table and the settings), and the
//! real-time frame schedule ([`pacing`]).
//!
//! Headless code (the simulator, the AI, replay checking) never needs this crate: it has
//! no clock and no user folders.

#![deny(missing_docs)]

pub mod pacing;
pub mod store;

use std::path::PathBuf;

/// The user's folders for nestris.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dirs {
    /// The key-binding file (TOML).
    pub config_path: PathBuf,
    /// Where the high scores and settings are kept.
    pub data_dir: PathBuf,
    /// Where each session's replay is written (`replays` in the data folder).
    pub replay_dir: PathBuf,
}

impl Dirs {
    /// The system's folders for "nestris" (`~/.config/nestris` and
    /// `~/.local/share/nestris` on Linux), or the current folder if it names none.
    pub fn user() -> Dirs {
        let (config_dir, data_dir) = match directories::ProjectDirs::from("", "", "nestris") {
            Some(dirs) => (
                dirs.config_dir().to_path_buf(),
                dirs.data_dir().to_path_buf(),
            ),
            None => (PathBuf::from("."), PathBuf::from(".")),
        };
        Dirs::with_data_dir(config_dir.join("config.toml"), data_dir)
    }

    /// The folders with `data_dir` as the data folder, replays inside it.
    pub fn with_data_dir(config_path: PathBuf, data_dir: PathBuf) -> Dirs {
        Dirs {
            config_path,
            replay_dir: data_dir.join("replays"),
            data_dir,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_live_in_the_data_folder() {
        let d = Dirs::user();
        assert_eq!(d.replay_dir, d.data_dir.join("replays"));
        assert!(d.config_path.ends_with("config.toml"));
        let o = Dirs::with_data_dir("c.toml".into(), "/x".into());
        assert_eq!(o.replay_dir, PathBuf::from("/x/replays"));
    }
}
