//! The file of `nestris ai bench --checkpoint FILE`: read back at the start (its format:
//! [`nestris_ai::checkpoint`]), then each game appended, whole and flushed, as it ends.

use anyhow::{bail, Context, Result};
use nestris_ai::benchmark::{BenchConfig, GameRecord};
use nestris_ai::checkpoint;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The largest checkpoint read (a million games' lines are about 400 MB).
const MAX_BYTES: u64 = 1 << 30;

/// An open checkpoint: the games it holds, and the file that takes the next ones.
pub struct Checkpoint {
    path: PathBuf,
    file: Mutex<File>,
    /// By game index: the game the file holds, if any (as long as the run's games).
    pub done: Vec<Option<GameRecord>>,
    /// The seconds the games read took to play, added up.
    pub seconds: f64,
    /// A write that failed, kept to be reported once the run ends.
    failed: Mutex<Option<String>>,
}

impl Checkpoint {
    /// Opens (or starts) the checkpoint at `path` for `config`, reading the games it holds.
    pub fn open(path: &Path, config: &BenchConfig) -> Result<Checkpoint> {
        let shown = path.display();
        let exists = path.exists();
        let (mut done, mut seconds) = (Vec::new(), 0.0);
        if exists {
            let mut text = String::new();
            File::open(path)
                .and_then(|f| f.take(MAX_BYTES + 1).read_to_string(&mut text))
                .with_context(|| format!("cannot read checkpoint {shown}"))?;
            if text.len() as u64 > MAX_BYTES {
                bail!("checkpoint {shown} is larger than {MAX_BYTES} bytes");
            }
            let r =
                checkpoint::read(&text, config).with_context(|| format!("checkpoint {shown}"))?;
            if r.whole < text.len() {
                // A line cut short by a kill: dropped before the next game is appended.
                OpenOptions::new()
                    .write(true)
                    .open(path)
                    .and_then(|f| f.set_len(r.whole as u64))
                    .with_context(|| format!("cannot repair checkpoint {shown}"))?;
            }
            (done, seconds) = (r.done, r.seconds);
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot write checkpoint {shown}"))?;
        if !exists {
            writeln!(file, "{}", checkpoint::header(config))
                .with_context(|| format!("cannot write checkpoint {shown}"))?;
        }
        Ok(Checkpoint {
            path: path.to_owned(),
            file: Mutex::new(file),
            done,
            seconds,
            failed: Mutex::new(None),
        })
    }

    /// Games the file held for this run.
    pub fn read(&self) -> usize {
        self.done.iter().filter(|g| g.is_some()).count()
    }

    /// Appends game `game` (from a worker thread). A failed write is kept for
    /// [`Checkpoint::finish`]: the run goes on, its report is still printed.
    pub fn add(&self, game: usize, record: &GameRecord, seconds: f64) {
        let line = checkpoint::line(game, record, seconds) + "\n";
        let mut file = self.file.lock().expect("no writer panicked");
        // One write of the whole line, so that a kill leaves at most its tail missing.
        if let Err(e) = file.write_all(line.as_bytes()) {
            self.failed
                .lock()
                .expect("no writer panicked")
                .get_or_insert(e.to_string());
        }
    }

    /// Reports a write that failed during the run.
    pub fn finish(self) -> Result<()> {
        if let Some(e) = self.failed.into_inner().expect("no writer panicked") {
            bail!(
                "checkpoint {}: a game could not be written: {e}",
                self.path.display()
            );
        }
        Ok(())
    }
}
