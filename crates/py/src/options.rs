//! Reading and checking the arguments Python passes: levels, regions, game types, seeds,
//! and the options shared by the environments (the values themselves are
//! `nestris_env::config`'s).

use std::sync::atomic::{AtomicBool, Ordering};

use nestris_core::{CrashMode, GameType, Region};
use nestris_env::config::MUSIC_OFF;
pub use nestris_env::config::{Format, GameOptions, ObsKind, Reward};
pub use nestris_env::frame::EnvConfig;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyUserWarning};
use pyo3::prelude::*;

use crate::errors::invalid_argument;

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

/// The options of a `Game` as Python passed them: level (`None`: the format's, else 0),
/// region, game type, height (`None`: 0), format.
pub fn game_options(
    level: Option<&Bound<'_, PyAny>>,
    region: &str,
    game_type: &str,
    height: Option<&Bound<'_, PyAny>>,
    format: &str,
) -> PyResult<GameOptions> {
    let format = parse_format(format)?;
    Ok(GameOptions {
        region: parse_region(region)?,
        game_type: parse_game_type(game_type)?,
        level: start_level_of("level", level, format)?,
        height: match height {
            Some(h) if !h.is_none() => int_in("height", h, 0, 5)? as u8,
            _ => 0,
        },
        crash_mode: CrashMode::Cartridge,
        music_type: MUSIC_OFF,
        format,
    })
}

/// `"cartridge"` or `"betatetris"` (see `nestris_env::config::Format`).
pub fn parse_format(text: &str) -> PyResult<Format> {
    Format::from_name(text).ok_or_else(|| {
        invalid_argument(format!(
            "format must be \"cartridge\" or \"betatetris\", got {text:?}"
        ))
    })
}

/// The start level (the argument `name`): as given, else the format's (18 for
/// BetaTetris's), else 0.
pub fn start_level_of(name: &str, obj: Option<&Bound<'_, PyAny>>, format: Format) -> PyResult<u8> {
    match obj {
        Some(o) if !o.is_none() => Ok(int_in(name, o, 0, 255)? as u8),
        _ => Ok(format.start_level().unwrap_or(0)),
    }
}

/// The keyword arguments every environment's constructor takes, as Python passed them
/// (`None` where the caller left one out): one definition for the four environments.
#[derive(Debug)]
pub struct Common<'a, 'py> {
    /// `start_level=None` (the format's, else 0).
    pub start_level: Option<&'a Bound<'py, PyAny>>,
    /// `region="ntsc"`.
    pub region: &'a str,
    /// `game_type="A"`.
    pub game_type: &'a str,
    /// `height=0`.
    pub height: Option<&'a Bound<'py, PyAny>>,
    /// `reward="score"`.
    pub reward: &'a str,
    /// `observation="board"`.
    pub observation: &'a str,
    /// `max_episode_steps=None` (the vector environments only).
    pub max_episode_steps: Option<&'a Bound<'py, PyAny>>,
    /// `crash_mode="cartridge"`.
    pub crash_mode: &'a str,
    /// `music_type=3`.
    pub music_type: Option<&'a Bound<'py, PyAny>>,
    /// `format="cartridge"`.
    pub format: &'a str,
}

/// What [`Common`] decides.
#[derive(Clone, Copy, Debug)]
pub struct CommonOptions {
    /// How games start.
    pub game: GameOptions,
    /// What the reward counts.
    pub reward: Reward,
    /// What is observed.
    pub obs: ObsKind,
    /// Steps after which an episode is truncated.
    pub max_episode_steps: Option<u64>,
}

impl Common<'_, '_> {
    /// Checks the arguments.
    pub fn parse(&self, py: Python<'_>) -> PyResult<CommonOptions> {
        let int = |name: &str, obj: Option<&Bound<'_, PyAny>>, hi: i64| -> PyResult<u8> {
            Ok(match obj {
                Some(o) if !o.is_none() => int_in(name, o, 0, hi)? as u8,
                _ => 0,
            })
        };
        let format = parse_format(self.format)?;
        let game = GameOptions {
            region: parse_region(self.region)?,
            game_type: parse_game_type(self.game_type)?,
            level: start_level_of("start_level", self.start_level, format)?,
            height: int("height", self.height, 5)?,
            crash_mode: parse_crash_mode(self.crash_mode)?,
            music_type: parse_music_type(py, self.music_type)?,
            format,
        };
        let max_episode_steps = match self.max_episode_steps {
            Some(m) if !m.is_none() => Some(int_in("max_episode_steps", m, 1, i64::MAX)? as u64),
            _ => None,
        };
        Ok(CommonOptions {
            game,
            reward: parse_reward(self.reward)?,
            obs: parse_obs(self.observation)?,
            max_episode_steps,
        })
    }
}

/// `"score"`, `"lines"` or `"survival"`.
pub fn parse_reward(text: &str) -> PyResult<Reward> {
    Reward::from_name(text).ok_or_else(|| {
        invalid_argument(format!(
            "reward must be \"score\", \"lines\" or \"survival\", got {text:?}"
        ))
    })
}

/// `"board"` or `"pixels"`.
pub fn parse_obs(text: &str) -> PyResult<ObsKind> {
    ObsKind::from_name(text).ok_or_else(|| {
        invalid_argument(format!(
            "observation must be \"board\" or \"pixels\", got {text:?}"
        ))
    })
}

/// The frame-level environments' options: the common ones, `actions` (None: the
/// default table) and `frame_skip` (None: 1).
pub fn env_config(
    py: Python<'_>,
    common: &Common<'_, '_>,
    actions: Option<&Bound<'_, PyAny>>,
    frame_skip: Option<&Bound<'_, PyAny>>,
) -> PyResult<EnvConfig> {
    let c = common.parse(py)?;
    let actions = match actions {
        Some(a) if !a.is_none() => {
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
        _ => nestris_env::config::DEFAULT_ACTIONS.to_vec(),
    };
    let frame_skip = match frame_skip {
        Some(f) if !f.is_none() => int_in("frame_skip", f, 1, 1 << 20)? as u32,
        _ => 1,
    };
    Ok(EnvConfig {
        game: c.game,
        actions,
        frame_skip,
        reward: c.reward,
        obs: c.obs,
        max_episode_steps: c.max_episode_steps,
    })
}
