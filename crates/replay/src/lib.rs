//! Replays, FCEUX movies and the cartridge's demo tables.
//!
//! A [`Replay`] is a game's starting state plus one joypad byte per frame; playing it
//! through [`nestris_core::Game::step`] reproduces the game exactly, and the stored hash
//! of the final state lets a replay verify itself. The byte format is documented in
//! `docs/REPLAY_FORMAT.md`. [`fm2`] reads and writes FCEUX movies (which start at
//! power-on), and [`rom`] finds the demo tables in a user's own cartridge image.
//!
//! ```
//! use nestris_core::{Buttons, GameSetup};
//! use nestris_replay::{Replay, Start};
//!
//! let mut replay = Replay::new(Start::Setup(GameSetup::default()));
//! replay.inputs.extend([Buttons::LEFT; 30]);
//! replay.seal();
//! let bytes = replay.to_bytes();
//! let back = Replay::from_bytes(&bytes).unwrap();
//! assert!(back.verify().is_ok());
//! ```

#![deny(missing_docs)]

pub mod fm2;
mod format;
mod load;
pub mod position;
pub mod proof;
mod recorder;
pub mod rom;
pub mod session;

pub use format::{ReplayError, FORMAT_VERSION, MAGIC, MAX_FRAMES};
pub use load::{LoadError, MAX_FILE_BYTES};
pub use proof::{Mismatch, Proof, Verdict};
pub use recorder::{remove_stale_temps, write_atomically, write_atomically_with, Recorder};

use proof::Checker;

use nestris_core::{
    Buttons, CrashMode, DemoData, FrameEvents, Game, GameSetup, Region, Snapshot, Variant,
};

/// Where a replay starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The console's power-on: the replay runs through the legal screen and the menus.
    PowerOn(Region),
    /// A game started directly from its setup (`Game::new`).
    Setup(GameSetup),
    /// Any state, as a snapshot.
    Snapshot(Box<Snapshot>),
}

impl Start {
    /// The region the game runs in.
    pub fn region(&self) -> Region {
        match self {
            Start::PowerOn(r) => *r,
            Start::Setup(s) => s.region,
            Start::Snapshot(s) => s.region,
        }
    }

    /// The rules the game is played under (`None` for a power-on start: the menus start
    /// the cartridge's game).
    pub fn variant(&self) -> Option<Variant> {
        match self {
            Start::PowerOn(_) => None,
            Start::Setup(s) => Some(s.variant),
            Start::Snapshot(s) => Some(s.variant),
        }
    }

    /// The game at the replay's first frame, in the start's own crash mode (a setup's, else
    /// `Cartridge`); [`Replay::game`] applies the replay's.
    pub fn game(&self) -> Game {
        match self {
            Start::PowerOn(r) => Game::power_on(*r),
            Start::Setup(s) => Game::new(*s),
            // Snapshots in a replay were validated when read.
            Start::Snapshot(s) => {
                Game::from_snapshot((**s).clone()).unwrap_or_else(|_| Game::power_on(s.region))
            }
        }
    }
}

/// Which demo tables a replay was recorded with (they matter only if it shows the demo).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DemoSource {
    /// The project's own demo.
    Builtin,
    /// The cartridge's demo, read from the user's ROM image.
    Cartridge,
}

/// A recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Where it starts.
    pub start: Start,
    /// Which demo tables it needs.
    pub demo: DemoSource,
    /// The joypad byte of every frame.
    pub inputs: Vec<Buttons>,
    /// The hash of the state after the last frame ([`Snapshot::state_hash`]), if known.
    pub final_hash: Option<u64>,
    /// The hashes of the input log and of the state at checkpoints (format 2; `None` in
    /// older files and before [`Replay::seal`]).
    pub proof: Option<Proof>,
    /// Free text: who played, when, with which program.
    pub metadata: String,
    /// What the engine did when the cartridge would crash. It decides the game, so it is
    /// recorded; for a [`Start::Setup`] it overrides the setup's own field (reading a file
    /// sets both). Files written before crash modes existed read as [`CrashMode::Off`].
    pub crash_mode: CrashMode,
}

/// What playing a replay found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Frames played.
    pub frames: u64,
    /// Score at the end (or the best score of the games it contains).
    pub score: u32,
    /// Lines at the end.
    pub lines: u32,
    /// Level at the end.
    pub level: u8,
    /// Pieces spawned.
    pub pieces: u64,
    /// Games that ended (top-out or B-type win) within the replay.
    pub games_ended: u32,
    /// A-type or B-type, of the last game.
    pub game_type: u8,
    /// The final state's hash.
    pub final_hash: u64,
    /// Lag frames played (`FrameEvents::LAG`).
    pub lag_frames: u64,
    /// The frame (from 0) in which the cartridge would have crashed, if it did.
    pub crash_frame: Option<u64>,
    /// How the game played compares with what the file records of it.
    pub verdict: Verdict,
}

impl Replay {
    /// An empty replay from `start`, recorded with the built-in demo, in the setup's crash
    /// mode (the default, `Cartridge`, for other starts).
    pub fn new(start: Start) -> Replay {
        let crash_mode = match &start {
            Start::Setup(s) => s.crash_mode,
            _ => CrashMode::default(),
        };
        Replay {
            crash_mode,
            start,
            demo: DemoSource::Builtin,
            inputs: Vec::new(),
            final_hash: None,
            proof: None,
            metadata: format!("nestris {}", env!("CARGO_PKG_VERSION")),
        }
    }

    /// Plays the replay and records what it played: the final state's hash and the proof
    /// (input hash and checkpoints), replacing any recorded before.
    pub fn seal(&mut self) {
        self.seal_with_demo(&DemoData::BUILTIN);
    }

    /// [`Replay::seal`] with the given demo tables.
    pub fn seal_with_demo(&mut self, demo: &DemoData) {
        let mut checker = Checker::build();
        let (game, _) = self.play_checked(self.inputs.len(), demo, &mut checker);
        self.final_hash = Some(game.state().state_hash());
        self.proof = Some(checker.proof());
    }

    /// The game at the replay's first frame, in the replay's crash mode.
    pub fn game(&self) -> Game {
        let mut game = self.start.game();
        game.set_crash_mode(self.crash_mode);
        game
    }

    /// Plays the first `frames` frames; returns the game and what happened, with how it
    /// compares with what the file records ([`Summary::verdict`]).
    pub fn play_with_demo(&self, frames: usize, demo: &DemoData) -> (Game, Summary) {
        let mut checker = match &self.proof {
            Some(p) => Checker::check(p),
            None => Checker::build(),
        };
        self.play_checked(frames, demo, &mut checker)
    }

    fn play_checked(
        &self,
        frames: usize,
        demo: &DemoData,
        checker: &mut Checker<'_>,
    ) -> (Game, Summary) {
        let mut game = self.game();
        let mut pieces = 0u64;
        let mut ended = 0u32;
        let mut lag_frames = 0u64;
        let mut crash_frame = None;
        let n = frames.min(self.inputs.len());
        for (i, &b) in self.inputs[..n].iter().enumerate() {
            let ev = game.step_with_demo(b, demo);
            let state = checker.wants_state().then(|| game.state().state_hash());
            checker.frame(b.bits(), state);
            lag_frames += ev.has(FrameEvents::LAG) as u64;
            if ev.has(FrameEvents::CRASHED) && crash_frame.is_none() {
                crash_frame = Some(i as u64);
            }
            if ev.has(FrameEvents::SPAWNED) {
                pieces += 1;
            }
            if ev.has(FrameEvents::GAME_ENDED) {
                ended += 1;
            }
        }
        let s = game.state();
        let final_hash = s.state_hash();
        let whole = n == self.inputs.len();
        let summary = Summary {
            frames: n as u64,
            score: nestris_core::bcd::score_value(s.score),
            lines: nestris_core::bcd::lines_value(s.lines),
            level: s.level,
            pieces,
            games_ended: ended,
            game_type: s.game_type,
            final_hash,
            lag_frames,
            crash_frame,
            verdict: checker.verdict(whole, self.final_hash, final_hash),
        };
        (game, summary)
    }

    /// Plays the whole replay with the built-in demo and checks it against what the file
    /// records: an error if they differ. A file that records nothing, or only its final
    /// state, plays without error; its [`Summary::verdict`] says how little it proved.
    pub fn verify(&self) -> Result<Summary, ReplayError> {
        self.verify_with_demo(&DemoData::BUILTIN)
    }

    /// [`Replay::verify`] with the given demo tables.
    pub fn verify_with_demo(&self, demo: &DemoData) -> Result<Summary, ReplayError> {
        let (_, summary) = self.play_with_demo(self.inputs.len(), demo);
        match summary.verdict {
            Verdict::Differs(m) => Err(ReplayError::Differs(m)),
            _ => Ok(summary),
        }
    }
}
