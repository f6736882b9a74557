//! Reading and checking the arguments Python passes: levels, regions, game types, seeds,
//! and the options shared by the environments.

use std::sync::atomic::{AtomicBool, Ordering};

use nestris_core::{CrashMode, GameSetup, GameType, Region};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyUserWarning};
use pyo3::prelude::*;

use crate::errors::invalid_argument;

/// The joypad bits, as the cartridge reads them.
pub const A: u8 = 0x80;
/// B.
pub const B: u8 = 0x40;
/// Down.
pub const DOWN: u8 = 0x04;
/// Left.
pub const LEFT: u8 = 0x02;
/// Right.
pub const RIGHT: u8 = 0x01;

/// The default action table of the frame-level environments: 12 joypad bytes.
///
/// 0 none, 1 Left, 2 Right, 3 Down, 4 A, 5 B, 6 Left+A, 7 Right+A, 8 Left+B, 9 Right+B,
/// 10 Down+A, 11 Down+B.
pub const DEFAULT_ACTIONS: [u8; 12] = [
    0,
    LEFT,
    RIGHT,
    DOWN,
    A,
    B,
    LEFT | A,
    RIGHT | A,
    LEFT | B,
    RIGHT | B,
    DOWN | A,
    DOWN | B,
];

/// Names of [`DEFAULT_ACTIONS`], in order.
pub const DEFAULT_ACTION_NAMES: [&str; 12] = [
    "none", "L", "R", "D", "A", "B", "L+A", "R+A", "L+B", "R+B", "D+A", "D+B",
];

/// An integer argument in `lo..=hi`, with errors that name it.
pub fn int_in(name: &str, obj: &Bound<'_, PyAny>, lo: i64, hi: i64) -> PyResult<i64> {
    match obj.extract::<i64>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        Ok(v) => Err(invalid_argument(format!(
            "{name} must be from {lo} to {hi}, got {v}"
        ))),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(invalid_argument(format!(
            "{name} must be from {lo} to {hi}, got {obj}"
        ))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} must be an int, got {}",
            type_name(obj)
        ))),
    }
}

/// The name of an object's type, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A seed: `None`, or an int from 0 to 2**64-1.
pub fn seed_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    match obj.extract::<u64>() {
        Ok(v) => Ok(Some(v)),
        Err(_) if obj.hasattr("__index__")? => Err(invalid_argument(format!(
            "seed must be None or an int from 0 to 2**64-1, got {obj}"
        ))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "seed must be None or an int, got {}",
            type_name(obj)
        ))),
    }
}

/// `"ntsc"` or `"pal"`, any case.
pub fn parse_region(text: &str) -> PyResult<Region> {
    match text.to_ascii_lowercase().as_str() {
        "ntsc" => Ok(Region::Ntsc),
        "pal" => Ok(Region::Pal),
        _ => Err(invalid_argument(format!(
            "region must be \"ntsc\" or \"pal\", got {text:?}"
        ))),
    }
}

/// `"A"` or `"B"`, any case.
pub fn parse_game_type(text: &str) -> PyResult<GameType> {
    match text {
        "A" | "a" => Ok(GameType::A),
        "B" | "b" => Ok(GameType::B),
        _ => Err(invalid_argument(format!(
            "game_type must be \"A\" or \"B\", got {text:?}"
        ))),
    }
}

/// `"cartridge"`, `"show"`, `"topout"` or `"off"` (see `nestris_core::CrashMode`).
pub fn parse_crash_mode(text: &str) -> PyResult<CrashMode> {
    CrashMode::from_name(text).ok_or_else(|| {
        invalid_argument(format!(
            "crash_mode must be \"cartridge\", \"show\", \"topout\" or \"off\", got {text:?}"
        ))
    })
}

/// Music off: the default of every game made from Python.
pub const MUSIC_OFF: u8 = 3;

/// Set once the music warning has been given (it is given once per process).
static MUSIC_WARNED: AtomicBool = AtomicBool::new(false);

/// `music_type`: `None` (music off, 3) or an int from 0 to 3. Music on (0-2) warns once per
/// process: without the cartridge's music scripts, which Python has no way to pass, the
/// sound engine's cycles are unknown, the timing is lost in the first frames, and no lag
/// frame or crash is modelled.
pub fn parse_music_type(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>) -> PyResult<u8> {
    let music = match obj {
        Some(o) if !o.is_none() => int_in("music_type", o, 0, 3)? as u8,
        _ => MUSIC_OFF,
    };
    if music != MUSIC_OFF && !MUSIC_WARNED.swap(true, Ordering::Relaxed) {
        PyErr::warn(
            py,
            py.get_type::<PyUserWarning>().as_any(),
            c"music_type 0-2 (music on): without the cartridge's music (no ROM can be given here) lag frames and crashes are not modelled; music_type=3 (the default) is exact",
            1,
        )?;
    }
    Ok(music)
}

/// What every game of an environment or a `Game` starts from, but the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOptions {
    /// NTSC or PAL.
    pub region: Region,
    /// A-type or B-type.
    pub game_type: GameType,
    /// Start level (any byte; the menu offers 0-19).
    pub level: u8,
    /// B-type garbage height 0..=5.
    pub height: u8,
    /// What happens when the cartridge would crash (`Cartridge` unless set after parsing).
    pub crash_mode: CrashMode,
    /// The music choice, 0..=3 ([`MUSIC_OFF`] unless set after parsing).
    pub music_type: u8,
}

impl GameOptions {
    /// Checks the four arguments as Python passed them.
    pub fn parse(
        level: &Bound<'_, PyAny>,
        region: &str,
        game_type: &str,
        height: &Bound<'_, PyAny>,
    ) -> PyResult<GameOptions> {
        Ok(GameOptions {
            region: parse_region(region)?,
            game_type: parse_game_type(game_type)?,
            level: int_in("level", level, 0, 255)? as u8,
            height: int_in("height", height, 0, 5)? as u8,
            crash_mode: CrashMode::Cartridge,
            music_type: MUSIC_OFF,
        })
    }

    /// The setup of a game: from `seed` (see [`GameSetup::from_seed`]) or, with no seed,
    /// the cartridge's power-on generator state.
    pub fn setup(&self, seed: Option<u64>) -> GameSetup {
        let base = match seed {
            Some(s) => GameSetup::from_seed(s),
            None => GameSetup::default(),
        };
        GameSetup {
            region: self.region,
            game_type: self.game_type,
            level: self.level,
            height: self.height,
            crash_mode: self.crash_mode,
            music_type: self.music_type,
            ..base
        }
    }
}

/// The seed of the episode after one seeded `seed`, when an environment resets without
/// a new seed: a Weyl sequence modulo 2^63 ([`GameSetup::from_seed`] mixes it), so that
/// the seeds stay within int64 (numpy's default integer, where Gymnasium puts infos).
pub const fn next_seed(seed: u64) -> u64 {
    seed.wrapping_add(0x9E37_79B9_7F4A_7C15) & (u64::MAX >> 1)
}

/// What an environment's reward counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// Points scored in the step.
    Score,
    /// Lines cleared in the step.
    Lines,
    /// 1 for every step that does not top out.
    Survival,
}

impl Reward {
    /// `"score"`, `"lines"` or `"survival"`.
    pub fn parse(text: &str) -> PyResult<Reward> {
        match text {
            "score" => Ok(Reward::Score),
            "lines" => Ok(Reward::Lines),
            "survival" => Ok(Reward::Survival),
            _ => Err(invalid_argument(format!(
                "reward must be \"score\", \"lines\" or \"survival\", got {text:?}"
            ))),
        }
    }
}

/// What an environment observes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObsKind {
    /// The 20x10 board and the piece features.
    Board,
    /// A 240x256x3 picture.
    Pixels,
}

impl ObsKind {
    /// `"board"` or `"pixels"`.
    pub fn parse(text: &str) -> PyResult<ObsKind> {
        match text {
            "board" => Ok(ObsKind::Board),
            "pixels" => Ok(ObsKind::Pixels),
            _ => Err(invalid_argument(format!(
                "observation must be \"board\" or \"pixels\", got {text:?}"
            ))),
        }
    }
}

/// Everything an environment needs to run episodes.
#[derive(Clone, Debug)]
pub struct EnvConfig {
    /// How games start.
    pub game: GameOptions,
    /// Joypad byte of each action.
    pub actions: Vec<u8>,
    /// Frames per step (the same buttons held).
    pub frame_skip: u32,
    /// What the reward counts.
    pub reward: Reward,
    /// What is observed.
    pub obs: ObsKind,
    /// Steps after which an episode is truncated (the vectorized environment only).
    pub max_episode_steps: Option<u64>,
}

impl EnvConfig {
    /// Checks the options as Python passed them.
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per keyword of the Python constructor"
    )]
    pub fn parse(
        start_level: &Bound<'_, PyAny>,
        region: &str,
        game_type: &str,
        height: &Bound<'_, PyAny>,
        actions: Option<&Bound<'_, PyAny>>,
        frame_skip: &Bound<'_, PyAny>,
        reward: &str,
        observation: &str,
        max_episode_steps: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<EnvConfig> {
        let game = GameOptions {
            region: parse_region(region)?,
            game_type: parse_game_type(game_type)?,
            level: int_in("start_level", start_level, 0, 255)? as u8,
            height: int_in("height", height, 0, 5)? as u8,
            crash_mode: CrashMode::Cartridge,
            music_type: MUSIC_OFF,
        };
        let actions = match actions {
            None => DEFAULT_ACTIONS.to_vec(),
            Some(a) if a.is_none() => DEFAULT_ACTIONS.to_vec(),
            Some(a) => {
                let mut out = Vec::new();
                for item in a.try_iter().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "actions must be a sequence of joypad bytes (ints 0-255), got {}",
                        type_name(a)
                    ))
                })? {
                    out.push(int_in("each action's joypad byte", &item?, 0, 255)? as u8);
                }
                if out.is_empty() {
                    return Err(invalid_argument("actions must not be empty"));
                }
                out
            }
        };
        let frame_skip = int_in("frame_skip", frame_skip, 1, 1 << 20)? as u32;
        let max_episode_steps = match max_episode_steps {
            Some(m) if !m.is_none() => Some(int_in("max_episode_steps", m, 1, i64::MAX)? as u64),
            _ => None,
        };
        Ok(EnvConfig {
            game,
            actions,
            frame_skip,
            reward: Reward::parse(reward)?,
            obs: ObsKind::parse(observation)?,
            max_episode_steps,
        })
    }
}
