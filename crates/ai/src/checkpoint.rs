//! A benchmark's checkpoint: the games of a run as they end, one JSON line each, so that a
//! run stopped part-way resumes where it stopped (`nestris ai bench --checkpoint FILE`,
//! `nestris.ai.bench(checkpoint=...)`). [`read`] reads the text, [`CheckpointFile`] keeps
//! the file: read back at the start, then each game appended, whole, as it ends.
//!
//! The first line names the configuration (every setting that decides the games; not the
//! threads or the number of games): a checkpoint is only read back by the same
//! configuration. Each line after it is `{"game": i, "seconds": s, "record": {...}}`. A last
//! line without its newline was cut short while written and is not read; any other damage
//! is an error.

use crate::benchmark::{BenchConfig, GameRecord};
use serde_json::{json, Value};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The largest checkpoint read (a million games' lines are about 400 MB).
pub const MAX_BYTES: u64 = 1 << 30;

/// The first line's key, and the format of the lines after it.
const VERSION: u64 = 1;

/// Why a checkpoint's text was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// No line at all.
    #[error("it is empty (remove it to start a new one)")]
    Empty,
    /// The first line is not a checkpoint's.
    #[error("it is not a checkpoint of `nestris ai bench`")]
    NotACheckpoint,
    /// Made by other settings: the top-level ones that differ.
    #[error(
        "it is of another configuration (differs in: {0}); give the same settings, or another file"
    )]
    OtherConfiguration(String),
    /// A line (counted from 1) that is not a game's.
    #[error("line {0}: not a game's line")]
    BadLine(usize),
    /// A game on two lines.
    #[error("line {line}: game {game} twice")]
    Twice {
        /// The second line.
        line: usize,
        /// The game.
        game: u64,
    },
    /// Neither a checkpoint nor a report of `ai bench --json`.
    #[error("it is neither a checkpoint nor a report of `nestris ai bench --json`")]
    NotAReport,
    /// A game whose seeds are not those the configuration gives it.
    #[error("line {line}: game {game} was played from other seeds")]
    OtherSeeds {
        /// The line.
        line: usize,
        /// The game.
        game: u64,
    },
}

/// The games a checkpoint holds for a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Resumed {
    /// By game index, as long as the run's games: the game the text holds, if any.
    pub done: Vec<Option<GameRecord>>,
    /// The seconds those games took to play, added up.
    pub seconds: f64,
    /// The bytes of the text read: the rest is a line cut short, to be dropped from the
    /// file before games are appended to it.
    pub whole: usize,
}

impl Resumed {
    /// Games read.
    pub fn count(&self) -> usize {
        self.done.iter().filter(|g| g.is_some()).count()
    }
}

/// The configuration as the first line names it: what decides the games.
fn identity(config: &BenchConfig) -> String {
    let mut c = config.clone();
    c.threads = 0;
    c.games = 0;
    let mut v = serde_json::to_value(&c).unwrap_or(Value::Null);
    // The ROM's music is not serialized with the configuration, and decides the timing.
    v["rom_music"] = Value::Bool(config.cartridge.as_ref().is_some_and(|c| c.music.is_some()));
    v.to_string()
}

/// The first line of a new checkpoint for `config`, without its newline.
pub fn header(config: &BenchConfig) -> String {
    json!({ "nestris_bench_checkpoint": VERSION, "config": identity(config) }).to_string()
}

/// The line of game `game`, without its newline.
pub fn line(game: usize, record: &GameRecord, seconds: f64) -> String {
    json!({ "game": game, "seconds": seconds, "record": record }).to_string()
}

/// The top-level settings whose values differ between two configurations' identities.
pub(crate) fn differences(a: &str, b: &str) -> String {
    let (Ok(Value::Object(a)), Ok(Value::Object(b))) = (
        serde_json::from_str::<Value>(a),
        serde_json::from_str::<Value>(b),
    ) else {
        return "the file's settings cannot be read".into();
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let differ: Vec<&str> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| k.as_str())
        .collect();
    differ.join(", ")
}

/// Reads a checkpoint's text for a run of `config`. Games past the run's number are
/// skipped (kept in the file, not reported).
pub fn read(text: &str, config: &BenchConfig) -> Result<Resumed, CheckpointError> {
    let whole = text.rfind('\n').map_or(0, |n| n + 1);
    let mut lines = text[..whole].lines().enumerate();
    let Some((_, first)) = lines.next() else {
        return Err(CheckpointError::Empty);
    };
    let head: Value = serde_json::from_str(first).unwrap_or(Value::Null);
    if head["nestris_bench_checkpoint"].as_u64() != Some(VERSION) {
        return Err(CheckpointError::NotACheckpoint);
    }
    let theirs = head["config"].as_str().unwrap_or_default();
    let ours = identity(config);
    if theirs != ours {
        return Err(CheckpointError::OtherConfiguration(differences(
            theirs, &ours,
        )));
    }
    let mut done = vec![None; config.games];
    let mut seconds = 0.0;
    let gym_seeds = config.gym_seeds();
    for (n, text) in lines {
        let line = n + 1;
        let v: Value = serde_json::from_str(text).map_err(|_| CheckpointError::BadLine(line))?;
        let (Some(game), Some(secs)) = (v["game"].as_u64(), v["seconds"].as_f64()) else {
            return Err(CheckpointError::BadLine(line));
        };
        let record: GameRecord = serde_json::from_value(v["record"].clone())
            .map_err(|_| CheckpointError::BadLine(line))?;
        let Some(slot) = usize::try_from(game).ok().and_then(|g| done.get_mut(g)) else {
            continue;
        };
        if slot.is_some() {
            return Err(CheckpointError::Twice { line, game });
        }
        if (record.seed, record.gym_seed) != config.seed_of(game as usize, gym_seeds.as_deref()) {
            return Err(CheckpointError::OtherSeeds { line, game });
        }
        *slot = Some(record);
        seconds += secs;
    }
    Ok(Resumed {
        done,
        seconds,
        whole,
    })
}

/// The games of a benchmark's output, by index: a report (`ai bench --json`, its
/// `results` in the order of the games) or a checkpoint (whatever its settings). For
/// comparing two runs ([`Paired`]).
pub fn games_of(text: &str) -> Result<Vec<(usize, GameRecord)>, CheckpointError> {
    let first = text.lines().next().unwrap_or_default();
    let head: Value = serde_json::from_str(first).unwrap_or(Value::Null);
    if head["nestris_bench_checkpoint"].as_u64() == Some(VERSION) {
        let whole = text.rfind('\n').map_or(text.len(), |n| n + 1);
        let mut games = std::collections::BTreeMap::new();
        for (n, text) in text[..whole].lines().enumerate().skip(1) {
            let line = n + 1;
            let v: Value =
                serde_json::from_str(text).map_err(|_| CheckpointError::BadLine(line))?;
            let game = v["game"].as_u64().ok_or(CheckpointError::BadLine(line))?;
            let record: GameRecord = serde_json::from_value(v["record"].clone())
                .map_err(|_| CheckpointError::BadLine(line))?;
            if games.insert(game as usize, record).is_some() {
                return Err(CheckpointError::Twice { line, game });
            }
        }
        return Ok(games.into_iter().collect());
    }
    let report: Value = serde_json::from_str(text).map_err(|_| CheckpointError::NotAReport)?;
    let results = report["results"]
        .as_array()
        .ok_or(CheckpointError::NotAReport)?;
    results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            serde_json::from_value(r.clone())
                .map(|r| (i, r))
                .map_err(|_| CheckpointError::NotAReport)
        })
        .collect()
}

/// Two runs' games paired by index (the games both played, from the same seeds): the mean
/// of each and of their differences, with its standard error.
#[derive(Debug, Clone, PartialEq)]
pub struct Paired {
    /// Games in both.
    pub games: usize,
    /// Uncapped score: the first run's mean, the second's, the mean difference and its
    /// standard error.
    pub score: [f64; 4],
    /// Lines, the same way.
    pub lines: [f64; 4],
    /// Games of each run that reached levels 19, 29 and 39.
    pub reached: [[usize; 3]; 2],
}

impl Paired {
    /// Pairs `a` and `b` ([`games_of`]). `None` when no game is in both; an error (the
    /// first such game) when a game of both was played from other seeds.
    pub fn of(
        a: &[(usize, GameRecord)],
        b: &[(usize, GameRecord)],
    ) -> Result<Option<Paired>, usize> {
        let b: std::collections::HashMap<usize, &GameRecord> =
            b.iter().map(|(j, r)| (*j, r)).collect();
        let mut pairs = Vec::new();
        for (i, ra) in a {
            if let Some(&rb) = b.get(i) {
                if (ra.seed, ra.gym_seed) != (rb.seed, rb.gym_seed) {
                    return Err(*i);
                }
                pairs.push((ra, rb));
            }
        }
        if pairs.is_empty() {
            return Ok(None);
        }
        let stats = |f: &dyn Fn(&GameRecord) -> f64| {
            let n = pairs.len() as f64;
            let (ma, mb) = (
                pairs.iter().map(|p| f(p.0)).sum::<f64>() / n,
                pairs.iter().map(|p| f(p.1)).sum::<f64>() / n,
            );
            let d = ma - mb;
            let var = if pairs.len() > 1 {
                pairs
                    .iter()
                    .map(|p| (f(p.0) - f(p.1) - d).powi(2))
                    .sum::<f64>()
                    / (n - 1.0)
            } else {
                f64::NAN
            };
            [ma, mb, d, (var / n).sqrt()]
        };
        let reached = |r: &GameRecord| [19, 29, 39].map(|l| r.max_level >= l);
        let count = |side: usize| {
            let mut c = [0; 3];
            for p in &pairs {
                let r = reached(if side == 0 { p.0 } else { p.1 });
                for k in 0..3 {
                    c[k] += usize::from(r[k]);
                }
            }
            c
        };
        Ok(Some(Paired {
            games: pairs.len(),
            score: stats(&|r| r.uncapped_score as f64),
            lines: stats(&|r| f64::from(r.lines)),
            reached: [count(0), count(1)],
        }))
    }
}

/// Why a checkpoint file (or a report, for [`read_file`]) was not read or written.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointFileError {
    /// The file could not be read, repaired or written. (Its reason is in the message, not
    /// a `source`: printed as a chain it would be said twice.)
    #[error("cannot read or write {path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// Larger than [`MAX_BYTES`].
    #[error("{0}: larger than {MAX_BYTES} bytes")]
    TooLarge(PathBuf),
    /// Its text is not this run's checkpoint.
    #[error("checkpoint {path}: {error}")]
    Text {
        /// The file.
        path: PathBuf,
        /// Why.
        error: CheckpointError,
    },
}

/// The text of a checkpoint or a report at `path`, at most [`MAX_BYTES`] of it.
pub fn read_file(path: &Path) -> Result<String, CheckpointFileError> {
    let mut text = String::new();
    File::open(path)
        .and_then(|f| f.take(MAX_BYTES + 1).read_to_string(&mut text))
        .map_err(|error| CheckpointFileError::Io {
            path: path.to_owned(),
            error,
        })?;
    if text.len() as u64 > MAX_BYTES {
        return Err(CheckpointFileError::TooLarge(path.to_owned()));
    }
    Ok(text)
}

/// An open checkpoint file: the games it held, and the file that takes the next ones.
#[derive(Debug)]
pub struct CheckpointFile {
    path: PathBuf,
    file: Mutex<File>,
    /// What the file held for this run.
    pub resumed: Resumed,
    /// The first write that failed, kept for [`CheckpointFile::finish`].
    failed: Mutex<Option<std::io::Error>>,
}

impl CheckpointFile {
    /// Opens the checkpoint at `path` for `config` and reads the games it holds, or starts
    /// one there. A last line cut short (a kill while it was written) is cut off the file.
    pub fn open(path: &Path, config: &BenchConfig) -> Result<CheckpointFile, CheckpointFileError> {
        let io = |error| CheckpointFileError::Io {
            path: path.to_owned(),
            error,
        };
        let exists = path.exists();
        let resumed = if exists {
            let text = read_file(path)?;
            let r = read(&text, config).map_err(|error| CheckpointFileError::Text {
                path: path.to_owned(),
                error,
            })?;
            if r.whole < text.len() {
                OpenOptions::new()
                    .write(true)
                    .open(path)
                    .and_then(|f| f.set_len(r.whole as u64))
                    .map_err(io)?;
            }
            r
        } else {
            Resumed {
                done: vec![None; config.games],
                seconds: 0.0,
                whole: 0,
            }
        };
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        if !exists {
            writeln!(file, "{}", header(config)).map_err(io)?;
        }
        Ok(CheckpointFile {
            path: path.to_owned(),
            file: Mutex::new(file),
            resumed,
            failed: Mutex::new(None),
        })
    }

    /// Appends game `game` (from a worker thread). A failed write is kept for
    /// [`CheckpointFile::finish`]: the run goes on.
    pub fn add(&self, game: usize, record: &GameRecord, seconds: f64) {
        let text = line(game, record, seconds) + "\n";
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        // One write of the whole line, so that a kill leaves at most its tail missing.
        if let Err(e) = file.write_all(text.as_bytes()) {
            self.failed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        }
    }

    /// The first write that failed during the run, if one did.
    pub fn finish(self) -> Result<(), CheckpointFileError> {
        match self.failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(error) => Err(CheckpointFileError::Io {
                path: self.path,
                error,
            }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmark::run_resuming;
    use crate::format::Format;
    use crate::Limits;
    use std::sync::atomic::AtomicBool;
    use std::sync::Mutex;

    fn config(games: usize) -> BenchConfig {
        BenchConfig {
            games,
            threads: 1,
            limits: Limits::frames(600),
            format: Format::Betatetris,
            ..BenchConfig::default()
        }
    }

    /// Plays `config`, the games `done` holds taken from it; the checkpoint's text after.
    /// Runs `config` resuming from checkpoint `text`: the text with the games played
    /// added, the games, and how many the report says it read.
    fn play(config: &BenchConfig, text: &str) -> (String, Vec<GameRecord>, usize) {
        let resumed = if text.is_empty() {
            None
        } else {
            Some(read(text, config).unwrap())
        };
        let mut text = match &resumed {
            Some(r) => text[..r.whole].to_owned(),
            None => header(config) + "\n",
        };
        let done = resumed.map(|r| r.done).unwrap_or_default();
        let added = Mutex::new(String::new());
        let report = run_resuming(
            config,
            &|_| {},
            &AtomicBool::new(false),
            &done,
            &|i, r, s| *added.lock().unwrap() += &(line(i, r, s) + "\n"),
        )
        .unwrap();
        text += &added.into_inner().unwrap();
        (text, report.results, report.resumed)
    }

    #[test]
    fn a_resumed_run_reports_what_one_run_does() {
        let (text, two, _) = play(&config(2), "");
        assert_eq!(read(&text, &config(2)).unwrap().count(), 2);
        let (text, four, resumed) = play(&config(4), &text);
        assert_eq!(resumed, 2, "the report counts the games read");
        assert_eq!(text.lines().count(), 5);
        let (_, whole, resumed) = play(&config(4), "");
        assert_eq!(resumed, 0);
        assert_eq!(four, whole);
        assert_eq!(two[..], whole[..2]);
        // Fewer games than the text holds: the rest are skipped.
        assert_eq!(read(&text, &config(1)).unwrap().count(), 1);
        // A line cut short is not read; its game is played again.
        let cut = &text[..text.len() - 10];
        let r = read(cut, &config(4)).unwrap();
        assert_eq!(
            (r.count(), r.whole),
            (3, text[..text.len() - 1].rfind('\n').unwrap() + 1)
        );
        let (again, results, resumed) = play(&config(4), cut);
        assert_eq!(resumed, 3);
        assert_eq!(results, whole);
        assert_eq!(again.lines().count(), 5);
    }

    #[test]
    fn the_file_takes_the_games_and_drops_a_cut_line() {
        let dir = std::env::temp_dir().join(format!("nestris-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.jsonl");
        let _ = std::fs::remove_file(&path);
        let (_, results, _) = play(&config(2), "");
        let f = CheckpointFile::open(&path, &config(2)).unwrap();
        assert_eq!(f.resumed.count(), 0);
        for (i, r) in results.iter().enumerate() {
            f.add(i, r, 1.5);
        }
        f.finish().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() - 3]).unwrap();
        let f = CheckpointFile::open(&path, &config(2)).unwrap();
        assert_eq!((f.resumed.count(), f.resumed.seconds), (1, 1.5));
        assert_eq!(f.resumed.done[0], Some(results[0]));
        f.add(1, &results[1], 2.0);
        f.finish().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 3);
        let f = CheckpointFile::open(&path, &config(2)).unwrap();
        assert_eq!(f.resumed.count(), 2);
        let mut other = config(2);
        other.start_level = 19;
        let e = CheckpointFile::open(&path, &other).unwrap_err().to_string();
        assert!(
            e.starts_with("checkpoint ") && e.contains("differs in: start_level"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn runs_pair_by_game_from_reports_and_checkpoints() {
        let (text, results, _) = play(&config(3), "");
        let from_checkpoint = games_of(&text).unwrap();
        let report = serde_json::json!({ "results": results }).to_string();
        let from_report = games_of(&report).unwrap();
        assert_eq!(from_checkpoint, from_report);
        assert_eq!(from_report.len(), 3);
        // A run paired with itself: no difference, every figure its own.
        let p = Paired::of(&from_report, &from_checkpoint).unwrap().unwrap();
        assert_eq!((p.games, p.score[2], p.score[3]), (3, 0.0, 0.0));
        let mean = results.iter().map(|r| r.uncapped_score as f64).sum::<f64>() / 3.0;
        assert_eq!(p.score[0], mean);
        // Two games against one: one pair; 1 more point in a game is +1 on the mean.
        let mut other = vec![from_report[1]];
        other[0].1.uncapped_score += 1;
        let p = Paired::of(&other, &from_report).unwrap().unwrap();
        assert_eq!((p.games, p.score[2]), (1, 1.0));
        assert!(p.score[3].is_nan(), "no standard error from one pair");
        // Other seeds for the same game, and no common game.
        other[0].1.gym_seed = Some(1);
        assert_eq!(Paired::of(&other, &from_report), Err(1));
        assert_eq!(Paired::of(&from_report[..1], &from_report[1..]), Ok(None));
        assert_eq!(games_of("{}"), Err(CheckpointError::NotAReport));
        assert_eq!(games_of("not json"), Err(CheckpointError::NotAReport));
        let lines: Vec<&str> = text.lines().collect();
        let twice = format!("{}\n{}\n{}\n", lines[0], lines[1], lines[1]);
        assert!(matches!(
            games_of(&twice),
            Err(CheckpointError::Twice { line: 3, .. })
        ));
    }

    #[test]
    fn damage_and_other_settings_are_refused() {
        let (text, _, _) = play(&config(2), "");
        assert_eq!(read("", &config(2)), Err(CheckpointError::Empty));
        assert_eq!(
            read("{}\n", &config(2)),
            Err(CheckpointError::NotACheckpoint)
        );
        let mut other = config(2);
        other.start_level = 19;
        assert_eq!(
            read(&text, &other),
            Err(CheckpointError::OtherConfiguration("start_level".into()))
        );
        // The threads and the number of games are not the configuration's.
        let mut threads = config(3);
        threads.threads = 2;
        assert!(read(&text, &threads).is_ok());
        let bad = text.replacen("\"game\":1,", "\"game\":\"x\",", 1);
        assert_eq!(read(&bad, &config(2)), Err(CheckpointError::BadLine(3)));
        let lines: Vec<&str> = text.lines().collect();
        let twice = format!("{}\n{}\n{}\n", lines[0], lines[1], lines[1]);
        let game = serde_json::from_str::<Value>(lines[1]).unwrap()["game"]
            .as_u64()
            .unwrap();
        assert_eq!(
            read(&twice, &config(2)),
            Err(CheckpointError::Twice { line: 3, game })
        );
        let moved = format!(
            "{}\n{}\n",
            lines[0],
            lines[1].replacen(
                &format!("\"game\":{game},"),
                &format!("\"game\":{},", 1 - game),
                1,
            )
        );
        assert_eq!(
            read(&moved, &config(2)),
            Err(CheckpointError::OtherSeeds {
                line: 2,
                game: 1 - game
            })
        );
    }
}
