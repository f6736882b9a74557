//! What the front ends keep between runs, in the data folder: the high-score table and the
//! settings changed while playing (mute, fullscreen).
//!
//! Both are small JSON files written atomically (a temporary file, then a rename). A
//! missing file means the defaults; a file that cannot be read or understood gives one
//! warning on stderr and the defaults too — a damaged file never stops the game.

use std::path::{Path, PathBuf};

use nestris_core::flow::HighScores;
use serde::{Deserialize, Serialize};

/// The high-score file's name in the data folder.
pub const HIGH_SCORES_FILE: &str = "highscores.json";
/// The settings file's name in the data folder.
pub const SETTINGS_FILE: &str = "settings.json";

/// How reading a kept file went.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Loaded<T> {
    /// Read and understood.
    Found(T),
    /// No file yet.
    Missing,
    /// A file that could not be used; the message says why (defaults apply).
    Corrupt(String),
}

impl<T: Default> Loaded<T> {
    /// The value, or the defaults with one warning on stderr for a corrupt file.
    pub fn or_warn(self, what: &str, path: &Path) -> T {
        match self {
            Loaded::Found(v) => v,
            Loaded::Missing => T::default(),
            Loaded::Corrupt(why) => {
                eprintln!(
                    "nestris: warning: ignoring {what} in {}: {why}; using the defaults",
                    path.display()
                );
                T::default()
            }
        }
    }
}

/// One table entry as stored.
#[derive(Serialize, Deserialize, Clone, PartialEq, Eq, Debug)]
#[serde(deny_unknown_fields)]
struct Entry {
    /// The six letters as the cartridge's codes (0 blank, 1-26 A-Z, 27-36 0-9, ...).
    name: [u8; 6],
    /// The score's three BCD bytes as hex digits, high byte first ("010000" = 10,000).
    score: String,
    level: u8,
}

/// The high-score file.
#[derive(Serialize, Deserialize, Clone, PartialEq, Eq, Debug)]
#[serde(deny_unknown_fields)]
struct TableFile {
    version: u32,
    /// A-type entries, best first.
    a: [Entry; 3],
    /// B-type entries, best first.
    b: [Entry; 3],
}

const SLOTS_A: [usize; 3] = [0, 1, 2];
const SLOTS_B: [usize; 3] = [4, 5, 6];
/// Name codes run 0..=0x2B on the cartridge's entry screen.
const MAX_NAME_CODE: u8 = 0x2B;

fn to_file(hs: &HighScores) -> TableFile {
    let entry = |i: usize| Entry {
        name: hs.names[i],
        score: hs.scores[i].iter().map(|b| format!("{b:02X}")).collect(),
        level: hs.levels[i],
    };
    TableFile {
        version: 1,
        a: SLOTS_A.map(entry),
        b: SLOTS_B.map(entry),
    }
}

fn from_file(f: &TableFile) -> Result<HighScores, String> {
    if f.version != 1 {
        return Err(format!("unknown version {}", f.version));
    }
    let mut hs = HighScores {
        names: [[0; 6]; 8],
        scores: [[0; 3]; 8],
        levels: [0; 8],
    };
    for (slots, entries) in [(SLOTS_A, &f.a), (SLOTS_B, &f.b)] {
        for (slot, e) in slots.into_iter().zip(entries.iter()) {
            if let Some(&c) = e.name.iter().find(|&&c| c > MAX_NAME_CODE) {
                return Err(format!("name code {c} is not a letter the cartridge has"));
            }
            let s = e.score.as_bytes();
            if s.len() != 6 || !s.iter().all(u8::is_ascii_hexdigit) {
                return Err(format!("score {:?} is not six hex digits", e.score));
            }
            for (k, byte) in hs.scores[slot].iter_mut().enumerate() {
                *byte = u8::from_str_radix(&e.score[2 * k..2 * k + 2], 16)
                    .map_err(|e| e.to_string())?;
            }
            hs.names[slot] = e.name;
            hs.levels[slot] = e.level;
        }
    }
    Ok(hs)
}

/// Reads a high-score table.
pub fn load_high_scores(path: &Path) -> Loaded<HighScores> {
    load_json(path, parse_high_scores)
}

/// Writes a high-score table atomically.
pub fn save_high_scores(path: &Path, hs: &HighScores) -> std::io::Result<()> {
    save_json(path, &to_file(hs))
}

/// Settings the player changes while playing.
#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Sound off.
    pub muted: bool,
    /// Borderless fullscreen.
    pub fullscreen: bool,
}

/// Reads the settings.
pub fn load_settings(path: &Path) -> Loaded<Settings> {
    load_json(path, parse_settings)
}

/// Writes the settings atomically.
pub fn save_settings(path: &Path, s: &Settings) -> std::io::Result<()> {
    save_json(path, s)
}

/// The paths of the kept files in `data_dir`.
pub fn paths(data_dir: &Path) -> (PathBuf, PathBuf) {
    (
        data_dir.join(HIGH_SCORES_FILE),
        data_dir.join(SETTINGS_FILE),
    )
}

/// The largest kept file read (a table is under 1 KiB): a larger one is not ours.
pub const MAX_KEPT_BYTES: u64 = 1 << 20;

/// A high-score table from its file's text, or why it is not one.
pub fn parse_high_scores(text: &str) -> Result<HighScores, String> {
    parse_json(text, |f: TableFile| from_file(&f))
}

/// The settings from their file's text, or why they are not.
pub fn parse_settings(text: &str) -> Result<Settings, String> {
    parse_json(text, Ok)
}

/// A high-score table as its file's text (what [`save_high_scores`] writes).
pub fn high_scores_text(hs: &HighScores) -> String {
    json_text(&to_file(hs)).expect("a table always serializes")
}

fn parse_json<F, T>(text: &str, convert: impl FnOnce(F) -> Result<T, String>) -> Result<T, String>
where
    F: for<'de> Deserialize<'de>,
{
    convert(serde_json::from_str::<F>(text).map_err(|e| e.to_string())?)
}

fn load_json<T>(path: &Path, parse: impl FnOnce(&str) -> Result<T, String>) -> Loaded<T> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let read =
        std::fs::File::open(path).and_then(|f| f.take(MAX_KEPT_BYTES + 1).read_to_end(&mut bytes));
    match read {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Loaded::Missing,
        Err(e) => return Loaded::Corrupt(e.to_string()),
    }
    if bytes.len() as u64 > MAX_KEPT_BYTES {
        return Loaded::Corrupt(format!("larger than {} KiB", MAX_KEPT_BYTES >> 10));
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return Loaded::Corrupt("not UTF-8 text".into());
    };
    match parse(&text) {
        Ok(v) => Loaded::Found(v),
        Err(why) => Loaded::Corrupt(why),
    }
}

fn json_text<T: Serialize>(value: &T) -> serde_json::Result<String> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    Ok(text)
}

fn save_json<T: Serialize>(path: &Path, value: &T) -> std::io::Result<()> {
    let text = json_text(value).map_err(std::io::Error::other)?;
    nestris_replay::write_atomically(path, text.as_bytes())
}

/// The console switched on in `region` with `table` in its memory (the kept high scores
/// a front end loaded).
pub fn power_on_with(region: nestris_core::Region, table: HighScores) -> nestris_core::Game {
    let mut snapshot = nestris_core::Game::power_on(region).snapshot();
    snapshot.flow.high_scores = table;
    // The table is not validated, so this cannot fail; a power-on game is the fallback.
    nestris_core::Game::from_snapshot(snapshot)
        .unwrap_or_else(|_| nestris_core::Game::power_on(region))
}

/// The least time between two saves of a changing table (name entry changes it letter by
/// letter); the last change is always saved.
pub const SCORE_SAVE_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

/// The one keeper of the high-score table for both front ends: it writes the engine's
/// table when it changed (name entry), at most every [`SCORE_SAVE_INTERVAL`] unless
/// forced, and warns once if it cannot. A keeper without a file keeps nothing (games the
/// AI plays stay out of the player's table).
#[derive(Clone, Debug)]
pub struct ScoreKeeper {
    path: Option<PathBuf>,
    saved: HighScores,
    pending: bool,
    last_save: Option<std::time::Instant>,
    warned: bool,
    notice: Option<String>,
}

impl ScoreKeeper {
    /// Reads the table at `path` and keeps it there; returns the keeper and the table to
    /// start the console with. A file that cannot be understood is never written over: it
    /// is moved aside to `NAME.bad-<unix time>` (and if even that fails, this session keeps
    /// no table), the defaults apply, and [`ScoreKeeper::take_notice`] says so.
    pub fn open(path: PathBuf) -> (ScoreKeeper, HighScores) {
        let (table, notice, keep) = match load_high_scores(&path) {
            Loaded::Found(t) => (t, None, true),
            Loaded::Missing => (HighScores::default(), None, true),
            Loaded::Corrupt(why) => {
                let aside = bad_name(&path, std::time::SystemTime::now());
                match std::fs::rename(&path, &aside) {
                    Ok(()) => {
                        eprintln!(
                            "nestris: warning: the high-score table {} cannot be read ({why}); \
                             it was moved to {} and a new table begun",
                            path.display(),
                            aside.display()
                        );
                        (
                            HighScores::default(),
                            Some("HIGH SCORES UNREADABLE: KEPT AS .BAD".to_string()),
                            true,
                        )
                    }
                    Err(e) => {
                        eprintln!(
                            "nestris: warning: the high-score table {} cannot be read ({why}) \
                             nor moved aside ({e}); no high scores are kept this session",
                            path.display()
                        );
                        (
                            HighScores::default(),
                            Some("HIGH SCORES UNREADABLE: NOT KEPT".to_string()),
                            false,
                        )
                    }
                }
            }
        };
        let mut keeper = ScoreKeeper::new(keep.then_some(path), table.clone());
        keeper.notice = notice;
        (keeper, table)
    }

    /// A keeper of `table` (the one the console starts with) in `path`, or nowhere.
    pub fn new(path: Option<PathBuf>, table: HighScores) -> ScoreKeeper {
        ScoreKeeper {
            path,
            saved: table,
            pending: false,
            last_save: None,
            warned: false,
            notice: None,
        }
    }

    /// A message for the screen, once: the table file was damaged, or could not be
    /// saved. Front ends show it where the player looks, not only on stderr.
    pub fn take_notice(&mut self) -> Option<String> {
        self.notice.take()
    }

    /// Notes the engine's table as it is at `now`, and writes it if it changed and a write
    /// is due (or `force`, on exit).
    pub fn keep(&mut self, table: &HighScores, now: std::time::Instant, force: bool) {
        let Some(path) = &self.path else { return };
        if *table != self.saved {
            self.pending = true;
        }
        if !self.pending {
            return;
        }
        let due = self
            .last_save
            .is_none_or(|t| now.duration_since(t) >= SCORE_SAVE_INTERVAL);
        if !(due || force) {
            return;
        }
        self.last_save = Some(now);
        self.pending = false;
        self.saved = table.clone();
        match save_high_scores(path, table) {
            Ok(()) => self.warned = false,
            // Once per run of failures: a full disk would otherwise warn every second.
            Err(e) if !self.warned => {
                self.warned = true;
                self.notice = Some("COULD NOT SAVE THE HIGH SCORES".to_string());
                eprintln!(
                    "nestris: warning: could not save the high scores to {}: {e}",
                    path.display()
                );
            }
            Err(_) => {}
        }
    }
}

/// Where a damaged file at `path` is kept: beside it, named for the time it was found.
fn bad_name(path: &Path, at: std::time::SystemTime) -> PathBuf {
    let secs = at
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let base = format!("{name}.bad-{secs}");
    // Two damaged files in one second: never move one over the other.
    std::iter::once(base.clone())
        .chain((1..1000).map(|i| format!("{base}-{i}")))
        .map(|n| path.with_file_name(n))
        .find(|p| !p.exists())
        .unwrap_or_else(|| path.with_file_name(format!("{base}-last")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> HighScores {
        let mut hs = HighScores::default();
        hs.names[0] = [2, 15, 2, 0x2B, 27, 36];
        hs.scores[0] = [0x99, 0x99, 0x99];
        hs.levels[0] = 29;
        hs.scores[6] = [0x00, 0x01, 0x23];
        hs
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_file_is_refused_at_the_limit() {
        let Loaded::Corrupt(why) = load_high_scores(Path::new("/dev/zero")) else {
            panic!("read /dev/zero as a table")
        };
        assert_eq!(why, "larger than 1024 KiB");
        assert_eq!(parse_high_scores(&high_scores_text(&table())), Ok(table()));
    }

    #[test]
    fn the_table_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep").join(HIGH_SCORES_FILE);
        assert_eq!(load_high_scores(&path), Loaded::Missing);
        save_high_scores(&path, &table()).unwrap();
        assert_eq!(load_high_scores(&path), Loaded::Found(table()));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"999999\""), "{text}");
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn an_atomic_write_replaces_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(HIGH_SCORES_FILE);
        std::fs::write(&path, "x".repeat(10_000)).unwrap();
        save_high_scores(&path, &HighScores::default()).unwrap();
        assert_eq!(
            load_high_scores(&path),
            Loaded::Found(HighScores::default())
        );
    }

    #[test]
    fn corrupt_files_are_tolerated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(HIGH_SCORES_FILE);
        for bad in [
            "",
            "{",
            "not json at all",
            "{\"version\":1}",
            "[1,2,3]",
            &serde_json::to_string(&to_file(&table()))
                .unwrap()
                .replace("999999", "99999Z"),
            &serde_json::to_string(&to_file(&table()))
                .unwrap()
                .replace("\"version\":1", "\"version\":7"),
            &serde_json::to_string(&to_file(&table()))
                .unwrap()
                .replace("[2,15,2,43,27,36]", "[2,15,2,43,27,99]"),
        ] {
            std::fs::write(&path, bad).unwrap();
            let got = load_high_scores(&path);
            assert!(matches!(got, Loaded::Corrupt(_)), "{bad:?}: {got:?}");
            assert_eq!(got.or_warn("high scores", &path), HighScores::default());
        }
        // A directory where the file should be is corrupt too, not a panic.
        let d = dir.path().join("dir.json");
        std::fs::create_dir(&d).unwrap();
        assert!(matches!(load_high_scores(&d), Loaded::Corrupt(_)));
    }

    #[test]
    fn a_damaged_table_is_kept_aside_and_said_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(HIGH_SCORES_FILE);
        // One stray comma: three entries a player would not want replaced by the defaults.
        let damaged = serde_json::to_string(&to_file(&table()))
            .unwrap()
            .replacen(',', ",,", 1);
        std::fs::write(&path, &damaged).unwrap();
        let (mut k, start) = ScoreKeeper::open(path.clone());
        assert_eq!(start, HighScores::default());
        let notice = k.take_notice().expect("a notice for the screen");
        assert!(notice.contains("UNREADABLE"), "{notice}");
        assert_eq!(k.take_notice(), None, "once");
        let aside: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(aside.len(), 1, "{aside:?}");
        assert!(aside[0].starts_with("highscores.json.bad-"), "{aside:?}");
        // The next high score writes a new table beside the old file, which is untouched.
        let mut new = HighScores::default();
        new.scores[0] = [0x00, 0x10, 0x00];
        k.keep(&new, std::time::Instant::now(), true);
        assert_eq!(load_high_scores(&path), Loaded::Found(new));
        let kept = std::fs::read_to_string(dir.path().join(&aside[0])).unwrap();
        assert_eq!(kept, damaged);
        // A second damaged file in the same second gets a name of its own.
        let at = std::time::SystemTime::now();
        std::fs::write(bad_name(&path, at), "x").unwrap();
        assert_ne!(bad_name(&path, at), dir.path().join(&aside[0]));
    }

    #[test]
    fn a_failed_save_is_a_notice_once() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the folder should be: every save fails.
        let blocker = dir.path().join("data");
        std::fs::write(&blocker, "").unwrap();
        let mut k = ScoreKeeper::new(Some(blocker.join(HIGH_SCORES_FILE)), HighScores::default());
        let t = std::time::Instant::now();
        k.keep(&table(), t, true);
        assert_eq!(
            k.take_notice().as_deref(),
            Some("COULD NOT SAVE THE HIGH SCORES")
        );
        k.keep(&HighScores::default(), t, true);
        assert_eq!(k.take_notice(), None, "not again while it keeps failing");
    }

    #[test]
    fn the_keeper_writes_a_changed_table_and_a_keeper_without_a_file_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(HIGH_SCORES_FILE);
        let (mut k, start) = ScoreKeeper::open(path.clone());
        assert_eq!(start, HighScores::default());
        let t = std::time::Instant::now();
        k.keep(&start, t, false);
        assert!(!path.exists(), "unchanged: not written");
        k.keep(&table(), t, false);
        assert_eq!(load_high_scores(&path), Loaded::Found(table()));
        let (_, again) = ScoreKeeper::open(path.clone());
        assert_eq!(again, table());
        let mut none = ScoreKeeper::new(None, HighScores::default());
        none.keep(&table(), t, true);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn settings_round_trip_and_default() {
        let dir = tempfile::tempdir().unwrap();
        let (_, path) = paths(dir.path());
        assert_eq!(load_settings(&path), Loaded::Missing);
        let s = Settings {
            muted: true,
            fullscreen: false,
        };
        save_settings(&path, &s).unwrap();
        assert_eq!(load_settings(&path), Loaded::Found(s));
        std::fs::write(&path, "{\"muted\": true}").unwrap();
        assert_eq!(load_settings(&path), Loaded::Found(s));
        std::fs::write(&path, "{\"muted\": 3}").unwrap();
        assert!(matches!(load_settings(&path), Loaded::Corrupt(_)));
    }
}
