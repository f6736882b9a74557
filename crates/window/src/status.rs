//! A status file for scripts and tests (`NESTRIS_STATUS_FILE=path`): one line with the
//! game's mode, rewritten atomically whenever it changes. The replay viewer adds the
//! shown frame, the replay's length, the speed, pause and the verdict to that line.

use std::path::PathBuf;

use nestris_core::bcd::{lines_value, score_value};
use nestris_core::Snapshot;

/// The environment variable naming the status file.
pub const STATUS_FILE_VAR: &str = "NESTRIS_STATUS_FILE";

/// Writes `game_mode=4 play_state=1 level=0 lines=0 score=0 frames=1234` lines.
#[derive(Debug)]
pub struct StatusFile {
    path: PathBuf,
    last: Option<[u32; 5]>,
    last_text: Option<String>,
}

impl StatusFile {
    /// The file named by `NESTRIS_STATUS_FILE`, if set.
    pub fn from_env() -> Option<StatusFile> {
        let p = std::env::var_os(STATUS_FILE_VAR).filter(|p| !p.is_empty())?;
        Some(StatusFile::at(PathBuf::from(p)))
    }

    /// A status file at `path`.
    pub fn at(path: PathBuf) -> StatusFile {
        StatusFile {
            path,
            last: None,
            last_text: None,
        }
    }

    /// The status line of a state.
    pub fn line(s: &Snapshot, frames: u64) -> String {
        format!(
            "game_mode={} play_state={} level={} lines={} score={} frames={frames}\n",
            s.game_mode,
            s.play_state,
            s.level,
            lines_value(s.lines),
            score_value(s.score)
        )
    }

    /// Rewrites the file if the mode, play state, level, lines or score changed.
    pub fn update(&mut self, s: &Snapshot, frames: u64) {
        let key = [
            u32::from(s.game_mode),
            u32::from(s.play_state),
            u32::from(s.level),
            lines_value(s.lines),
            score_value(s.score),
        ];
        if self.last == Some(key) {
            return;
        }
        self.last = Some(key);
        self.write(&StatusFile::line(s, frames));
    }

    /// Rewrites the file with `text` unless that is what it holds already.
    pub fn set(&mut self, text: &str) {
        if self.last_text.as_deref() == Some(text) {
            return;
        }
        self.last_text = Some(text.to_string());
        self.write(text);
    }

    /// Notes that the game has ended.
    pub fn exited(&mut self, s: &Snapshot, frames: u64) {
        self.write(&format!("{}exited\n", StatusFile::line(s, frames)));
    }

    fn write(&self, text: &str) {
        // A status file that cannot be written is not worth stopping the game for.
        let _ = nestris_replay::write_atomically(&self.path, text.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::{Game, Region};

    #[test]
    fn writes_on_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("status");
        let mut f = StatusFile::at(path.clone());
        let g = Game::power_on(Region::Ntsc);
        f.update(g.state(), 0);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("game_mode=0 play_state=0"), "{text}");
        std::fs::remove_file(&path).unwrap();
        f.update(g.state(), 1);
        assert!(!path.exists(), "unchanged: not rewritten");
        f.exited(g.state(), 2);
        assert!(std::fs::read_to_string(&path)
            .unwrap()
            .ends_with("exited\n"));
        f.set("a\n");
        std::fs::remove_file(&path).unwrap();
        f.set("a\n");
        assert!(!path.exists(), "the same text: not rewritten");
        f.set("b\n");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "b\n");
    }
}
