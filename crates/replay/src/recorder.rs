//! Recording a game as it is played, and saving files so a crash never leaves half a file.

use crate::{Replay, Start};
use nestris_core::Buttons;
use std::io::Write;
use std::path::Path;

/// Collects a game's inputs and saves them as a replay, atomically, as often as asked.
#[derive(Debug)]
pub struct Recorder {
    replay: Replay,
}

impl Recorder {
    /// Starts recording a game that begins at `start`.
    pub fn new(start: Start) -> Recorder {
        Recorder {
            replay: Replay::new(start),
        }
    }

    /// Adds one frame's buttons.
    pub fn push(&mut self, buttons: Buttons) {
        self.replay.inputs.push(buttons);
    }

    /// Frames recorded.
    pub fn frames(&self) -> usize {
        self.replay.inputs.len()
    }

    /// The replay so far, sealed with the hash of its current final state.
    pub fn replay(&self) -> Replay {
        let mut r = self.replay.clone();
        r.seal();
        r
    }

    /// Writes the replay so far to `path` (temporary file, then rename).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        write_atomically(path, &self.replay().to_bytes())
    }
}

/// Writes `bytes` to a temporary file next to `path`, syncs it, then renames it over
/// `path`, so that readers see either the old file or the new one, never a torn one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "replay".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
