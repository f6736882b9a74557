//! A front end's session replay: every frame's buttons from power-on, saved as one
//! `nestris-YYYYMMDD-HHMMSS.nestris` file (UTC) in the replay folder, every few seconds
//! in the background and once more on exit, so a crash keeps what was played.

use std::io;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::{DemoSource, Replay, Start};
use nestris_core::{Buttons, CrashMode, DemoData, Game, Region};

/// How often the replay is saved while playing.
pub const SAVE_EVERY: Duration = Duration::from_secs(5);

/// The session's inputs and where they go.
#[derive(Debug)]
pub struct Recording {
    path: PathBuf,
    start: Start,
    demo: Option<DemoData>,
    crash_mode: CrashMode,
    inputs: Vec<Buttons>,
    saved_frames: usize,
    last_save: Instant,
    worker: Option<JoinHandle<io::Result<()>>>,
    /// The last save failed (a notice was given; the next success clears it).
    failing: bool,
    notice: Option<String>,
    /// What [`Recording::observe`] saw: `None` if it was never called.
    seen: Option<Seen>,
}

/// What a session has played so far, for the replay's name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Seen {
    /// The best game's type (`A`/`B`), level and score, if a game was played.
    best: Option<(char, u8, u32)>,
}

/// A point of the recorded line of play, to come back to with [`Recording::rewind_to`]
/// (a rewind: the frames after it are taken back). Cheap to keep one per frame.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    frames: usize,
    seen: Option<Seen>,
}

impl Position {
    /// Frames recorded up to this point.
    pub fn frames(&self) -> usize {
        self.frames
    }
}

/// The whole recorded line of play at one moment (a savestate's replay):
/// [`Recording::restore`] makes it the recording's line again, whatever was played since.
#[derive(Clone, PartialEq, Debug)]
pub struct Mark {
    start: Start,
    inputs: Vec<Buttons>,
    seen: Option<Seen>,
}

impl Mark {
    /// Frames recorded up to this point.
    pub fn frames(&self) -> usize {
        self.inputs.len()
    }
}

/// `nestris-YYYYMMDD-HHMMSS.nestris` for a moment (UTC).
pub fn file_name(at: SystemTime) -> String {
    let secs = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "nestris-{y:04}{m:02}{d:02}-{:02}{:02}{:02}.nestris",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A free path in `dir` for a session started at `at` (a suffix if two share a second).
pub fn session_path(dir: &Path, at: SystemTime) -> PathBuf {
    let name = file_name(at);
    let first = dir.join(&name);
    if !first.exists() {
        return first;
    }
    let stem = name.trim_end_matches(".nestris");
    (2..)
        .map(|i| dir.join(format!("{stem}-{i}.nestris")))
        .find(|p| !p.exists())
        .unwrap_or(first)
}

/// The replay file's bytes for these inputs.
fn replay_bytes(
    start: Start,
    demo: Option<&DemoData>,
    crash_mode: CrashMode,
    inputs: Vec<Buttons>,
) -> Vec<u8> {
    let mut r = Replay::new(start);
    r.crash_mode = crash_mode;
    r.inputs = inputs;
    match demo {
        None => r.seal(),
        Some(demo) => {
            r.demo = DemoSource::Cartridge;
            r.seal_with_demo(demo);
        }
    }
    r.to_bytes()
}

impl Recording {
    /// A recording of a session from power-on, to be saved at `path`.
    pub fn new(path: PathBuf, region: Region, demo: Option<DemoData>) -> Recording {
        Recording {
            path,
            start: Start::PowerOn(region),
            demo,
            crash_mode: CrashMode::default(),
            inputs: Vec::new(),
            saved_frames: 0,
            last_save: Instant::now(),
            worker: None,
            failing: false,
            notice: None,
            seen: None,
        }
    }

    /// Notes the game after a frame was pushed. A front end that calls this gets replays
    /// named for what was played (`nestris-DATE-TIME-A-L18-123456.nestris`: type, level
    /// and score of the session's best game) and no replay at all for a session that never
    /// reached a game (the menus alone prove nothing worth keeping).
    pub fn observe(&mut self, game: &Game) {
        let seen = self.seen.get_or_insert_with(Seen::default);
        let s = game.state();
        if s.in_game() {
            let score = nestris_core::bcd::score_value(s.score);
            let kind = if s.game_type == 0 { 'A' } else { 'B' };
            if seen.best.is_none_or(|(_, _, best)| score >= best) {
                seen.best = Some((kind, s.level, score));
            }
        }
    }

    /// A message for the screen, once per run of failures: the replay could not be
    /// saved (the reason went to stderr).
    pub fn take_notice(&mut self) -> Option<String> {
        self.notice.take()
    }

    /// Notes how a save went.
    fn saved(&mut self, result: io::Result<()>) -> io::Result<()> {
        match &result {
            Ok(()) => self.failing = false,
            Err(e) => {
                if !self.failing {
                    eprintln!(
                        "nestris: warning: could not save the replay {}: {e}",
                        self.path.display()
                    );
                    self.notice = Some("COULD NOT SAVE THE REPLAY".to_string());
                }
                self.failing = true;
            }
        }
        result
    }

    /// The recording of a session whose game runs in crash mode `mode` (set on the game
    /// at power-on; the default is the cartridge's).
    pub fn with_crash_mode(mut self, mode: CrashMode) -> Recording {
        self.crash_mode = mode;
        self
    }

    /// The recording of a session whose first frame is stepped from `game`: a plain
    /// power-on is stored as one, anything else (a power-on with a kept high-score table in
    /// its memory) as the whole state, so that the replay plays the session's game and not
    /// one from another table.
    pub fn starting_from(mut self, game: &Game) -> Recording {
        let region = game.state().region;
        self.start = if *game == Game::power_on(region) {
            Start::PowerOn(region)
        } else {
            Start::Snapshot(Box::new(game.snapshot()))
        };
        self
    }

    /// Where the replay goes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Frames recorded.
    pub fn frames(&self) -> usize {
        self.inputs.len()
    }

    /// Where the recording stands now.
    pub fn position(&self) -> Position {
        Position {
            frames: self.inputs.len(),
            seen: self.seen,
        }
    }

    /// Takes back the frames recorded after `p` (a rewind to a point of this line). The
    /// replay is then the line played up to `p` and whatever is pushed after; the next
    /// save writes it whole. A position ahead of the recording changes nothing.
    pub fn rewind_to(&mut self, p: Position) {
        if p.frames > self.inputs.len() {
            return;
        }
        self.inputs.truncate(p.frames);
        self.seen = p.seen;
        self.saved_frames = usize::MAX;
    }

    /// The whole line recorded so far (for a savestate).
    pub fn mark(&self) -> Mark {
        Mark {
            start: self.start.clone(),
            inputs: self.inputs.clone(),
            seen: self.seen,
        }
    }

    /// Makes `m` the recorded line again (a savestate loaded): the replay is that line and
    /// whatever is pushed after it; what was played since the mark is taken back.
    pub fn restore(&mut self, m: &Mark) {
        self.start = m.start.clone();
        self.inputs.clone_from(&m.inputs);
        self.seen = m.seen;
        self.saved_frames = usize::MAX;
    }

    /// A new recording in the same folder, starting from `game` as it stands (a new
    /// session file: the rules changed between two frames, as when a seed is entered,
    /// which no button press records). Save this one first with [`Recording::finish`].
    pub fn successor(&self, game: &Game, at: SystemTime) -> Recording {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let mut next = Recording::new(
            session_path(dir, at),
            game.state().region,
            self.demo.clone(),
        )
        .with_crash_mode(self.crash_mode);
        next.start = Start::Snapshot(Box::new(game.snapshot()));
        next
    }

    /// Adds one stepped frame's buttons.
    pub fn push(&mut self, b: Buttons) {
        self.inputs.push(b);
    }

    /// Saves in the background if [`SAVE_EVERY`] has passed and there is something new.
    pub fn tick(&mut self, now: Instant) {
        if now.duration_since(self.last_save) < SAVE_EVERY {
            return;
        }
        if self.worker.as_ref().is_some_and(|w| !w.is_finished()) {
            return;
        }
        self.reap();
        self.last_save = now;
        if self.inputs.len() == self.saved_frames {
            return;
        }
        self.saved_frames = self.inputs.len();
        let (path, start, demo) = (self.path.clone(), self.start.clone(), self.demo.clone());
        let (mode, inputs) = (self.crash_mode, self.inputs.clone());
        self.worker = Some(std::thread::spawn(move || {
            crate::write_atomically(&path, &replay_bytes(start, demo.as_ref(), mode, inputs))
        }));
    }

    /// Waits for a background save and reports its failure.
    fn reap(&mut self) {
        if let Some(w) = self.worker.take() {
            let result = w
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("the replay saver failed")));
            // Reported by `saved`; a later save may still succeed.
            let _ = self.saved(result);
        }
    }

    /// Saves now, in this thread, after any background save (on exit). An error means
    /// the file on disk does not hold the whole session.
    pub fn finish(&mut self) -> io::Result<()> {
        self.reap();
        if let Some(Seen { best: None }) = self.seen {
            // Observed, and no game was ever played: nothing is kept (a periodic save is
            // taken back).
            match std::fs::remove_file(&self.path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
            self.saved_frames = self.inputs.len();
            return Ok(());
        }
        self.write_whole()?;
        if let Some(Seen {
            best: Some((kind, level, score)),
        }) = self.seen
        {
            let stem = self
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let suffix = format!("-{kind}-L{level}-{score:06}");
            if !stem.ends_with(&suffix) && self.path.exists() {
                let dir = self.path.parent().unwrap_or(Path::new("."));
                let named = (1..)
                    .map(|i| {
                        let extra = if i == 1 {
                            String::new()
                        } else {
                            format!("-{i}")
                        };
                        dir.join(format!("{stem}{suffix}{extra}.nestris"))
                    })
                    .find(|p| !p.exists())
                    .expect("a free name");
                std::fs::rename(&self.path, &named)?;
                self.path = named;
            }
        }
        Ok(())
    }

    /// Writes the whole session unless the file already holds it.
    fn write_whole(&mut self) -> io::Result<()> {
        if self.inputs.is_empty() || (self.inputs.len() == self.saved_frames && !self.failing) {
            return Ok(());
        }
        self.saved_frames = self.inputs.len();
        let bytes = replay_bytes(
            self.start.clone(),
            self.demo.as_ref(),
            self.crash_mode,
            self.inputs.clone(),
        );
        let result = crate::write_atomically(&self.path, &bytes);
        self.saved(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::Game;

    #[test]
    fn names_follow_the_utc_clock() {
        assert_eq!(file_name(UNIX_EPOCH), "nestris-19700101-000000.nestris");
        // 2024-02-29 13:45:07 UTC.
        let t = UNIX_EPOCH + Duration::from_secs(1_709_214_307);
        assert_eq!(file_name(t), "nestris-20240229-134507.nestris");
        let t = UNIX_EPOCH + Duration::from_secs(4_102_444_799);
        assert_eq!(file_name(t), "nestris-20991231-235959.nestris");
    }

    #[test]
    fn a_second_session_in_the_same_second_gets_a_suffix() {
        let dir = tempfile::tempdir().unwrap();
        let first = session_path(dir.path(), UNIX_EPOCH);
        std::fs::write(&first, b"x").unwrap();
        let second = session_path(dir.path(), UNIX_EPOCH);
        assert_eq!(
            second.file_name().unwrap(),
            "nestris-19700101-000000-2.nestris"
        );
    }

    #[test]
    fn saves_replay_the_session() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("replays").join("s.nestris");
        let mut rec = Recording::new(path.clone(), Region::Ntsc, None);
        let mut game = Game::power_on(Region::Ntsc);
        for i in 0..600u32 {
            let b = if i % 50 == 0 {
                Buttons::START
            } else {
                Buttons::NONE
            };
            game.step(b);
            rec.push(b);
        }
        // Not yet due.
        rec.tick(Instant::now());
        assert!(!path.exists());
        rec.tick(Instant::now() + SAVE_EVERY);
        rec.reap();
        let r = Replay::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(r.inputs.len(), 600);
        assert_eq!(r.start, Start::PowerOn(Region::Ntsc));
        let summary = r.verify().unwrap();
        assert_eq!(summary.final_hash, game.state().state_hash());
        // More frames, then exit: the file holds them all.
        for _ in 0..10 {
            rec.push(Buttons::LEFT);
        }
        rec.finish().unwrap();
        let r = Replay::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(r.inputs.len(), 610);
        assert_eq!(rec.frames(), 610);
    }

    #[test]
    fn an_observed_session_is_named_for_its_best_game_or_not_kept() {
        use nestris_core::GameSetup;
        let dir = tempfile::tempdir().unwrap();
        // Menus only: a periodic save is taken back at the end.
        let path = dir.path().join("menus.nestris");
        let mut rec = Recording::new(path.clone(), Region::Ntsc, None);
        let mut game = Game::power_on(Region::Ntsc);
        let t0 = Instant::now();
        for i in 0..100 {
            game.step(Buttons::NONE);
            rec.push(Buttons::NONE);
            rec.observe(&game);
            rec.tick(t0 + Duration::from_secs(i / 10 + 6));
        }
        rec.finish().unwrap();
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        // A game: the name says its type, level and score.
        let path = dir.path().join("s.nestris");
        let mut rec = Recording::new(path.clone(), Region::Ntsc, None);
        let mut game = Game::new(GameSetup {
            level: 18,
            ..GameSetup::from_seed(1)
        });
        rec = rec.starting_from(&game);
        for _ in 0..50 {
            game.step(Buttons::DOWN);
            rec.push(Buttons::DOWN);
            rec.observe(&game);
        }
        let score = nestris_core::bcd::score_value(game.state().score);
        assert!(score > 0);
        rec.finish().unwrap();
        let named = dir.path().join(format!("s-A-L18-{score:06}.nestris"));
        assert_eq!(rec.path(), named);
        assert!(named.exists() && !path.exists());
        rec.finish().unwrap();
        assert_eq!(rec.path(), named, "a second finish keeps the name");
    }

    #[test]
    fn a_session_with_a_kept_table_replays_from_that_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.nestris");
        let mut snap = Game::power_on(Region::Ntsc).snapshot();
        snap.flow.high_scores.scores[2] = [0x00, 0x01, 0x00]; // the lowest A-type entry: 100
        let start = Game::from_snapshot(snap.clone()).unwrap();
        let mut rec = Recording::new(path.clone(), Region::Ntsc, None).starting_from(&start);
        let mut game = start.clone();
        for i in 0..900u32 {
            let b = if i % 40 == 0 {
                Buttons::START
            } else {
                Buttons::NONE
            };
            game.step(b);
            rec.push(b);
        }
        rec.finish().unwrap();
        let r = Replay::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(r.start, Start::Snapshot(Box::new(snap)));
        let (replayed, _) = r.play_with_demo(r.inputs.len(), &DemoData::BUILTIN);
        assert_eq!(replayed, game, "the replay is the session's game");
        assert!(r.verify().is_ok());
        // A plain power-on stays one (small files, as before).
        let plain =
            Recording::new(path, Region::Pal, None).starting_from(&Game::power_on(Region::Pal));
        assert_eq!(plain.start, Start::PowerOn(Region::Pal));
    }

    #[test]
    fn a_cartridge_demo_is_noted_and_sealed_with() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.nestris");
        let mut rec = Recording::new(path.clone(), Region::Pal, Some(DemoData::BUILTIN));
        rec.push(Buttons::NONE);
        rec.finish().unwrap();
        let r = Replay::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(r.demo, DemoSource::Cartridge);
        assert!(r.verify_with_demo(&DemoData::BUILTIN).is_ok());
        // Nothing recorded: nothing written.
        let empty = dir.path().join("empty.nestris");
        Recording::new(empty.clone(), Region::Ntsc, None)
            .finish()
            .unwrap();
        assert!(!empty.exists());
    }
}
