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

/// Writes `bytes` to a temporary file next to `path`, syncs it, renames it over `path` and
/// syncs the folder, so that readers see either the old file or the new one, never a torn
/// one, and the new one survives a power cut once this returns. The first write into a
/// folder also removes the temporary files a killed run of ours left there.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    write_atomically_with(path, |f| f.write_all(bytes))
}

/// [`write_atomically`] with the bytes streamed by `fill`, into a folder that must exist
/// already (a path the user named: a missing folder is their typo, not ours to create).
pub fn write_atomically_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "replay".into());
    clean_once(dir);
    let tmp = dir.join(format!(".{name}.{}{TMP_SUFFIX}", std::process::id()));
    let result = (|| {
        let mut f = std::io::BufWriter::with_capacity(1 << 16, std::fs::File::create(&tmp)?);
        fill(&mut f)?;
        let f = f.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        sync_dir(dir)
    })();
    if result.is_err() && tmp.exists() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// What ends our temporary files' names (`.NAME.PID.tmp`).
const TMP_SUFFIX: &str = ".tmp";

/// A temporary file of ours whose writer may still be alive is left alone this long.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

/// Syncs the folder's entry list, which makes a rename durable.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Runs [`remove_stale_temps`] on `dir` the first time this process writes there.
fn clean_once(dir: &Path) {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static CLEANED: OnceLock<Mutex<HashSet<std::path::PathBuf>>> = OnceLock::new();
    let cleaned = CLEANED.get_or_init(Default::default);
    let first = cleaned
        .lock()
        .map(|mut set| set.insert(dir.to_path_buf()))
        .unwrap_or(false);
    if first {
        remove_stale_temps(dir);
    }
}

/// Removes `dir`'s temporary files of ours (`.NAME.PID.tmp`) left by a run that was
/// killed mid-write: those of another process that is gone (where that can be told) or
/// older than [`STALE_AFTER`]. Returns how many were removed. Other files are never
/// touched.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let me = std::process::id();
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = temp_owner(&name.to_string_lossy()) else {
            continue;
        };
        if pid == me {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_AFTER);
        if (old || !process_alive(pid)) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The process id in a temporary file name of ours: `.NAME.PID.tmp`.
fn temp_owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(TMP_SUFFIX)?;
    let (stem, pid) = rest.rsplit_once('.')?;
    if stem.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// True unless the process is known to be gone (Linux's /proc tells; elsewhere the age
/// alone decides).
fn process_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names_of_ours_are_told_apart() {
        assert_eq!(temp_owner(".highscores.json.1234.tmp"), Some(1234));
        assert_eq!(temp_owner(".a.nestris.7.tmp"), Some(7));
        for other in [
            "highscores.json",
            ".x.tmp",
            "..1.tmp",
            ".a.12b.tmp",
            ".a.1.tmpx",
        ] {
            assert_eq!(temp_owner(other), None, "{other}");
        }
    }

    #[test]
    fn a_killed_writers_leftovers_go_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        // A process id above Linux's limit (2^22) is never alive.
        let dead = dir.path().join(".highscores.json.99999999.tmp");
        let mine = dir.path().join(format!(".x.{}.tmp", std::process::id()));
        let theirs = dir.path().join("notes.tmp");
        for p in [&dead, &mine, &theirs] {
            std::fs::write(p, b"half").unwrap();
        }
        let target = dir.path().join("highscores.json");
        write_atomically(&target, b"{}").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"{}");
        if Path::new("/proc/self").exists() {
            assert!(!dead.exists(), "a dead writer's file is removed");
        }
        assert!(mine.exists() && theirs.exists());
        // Once per folder per run: a later leftover stays until the next run.
        std::fs::write(&dead, b"half").unwrap();
        write_atomically(&target, b"{}").unwrap();
        assert!(dead.exists());
        assert_eq!(
            remove_stale_temps(dir.path()),
            usize::from(Path::new("/proc/self").exists())
        );
    }
}
