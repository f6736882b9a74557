//! `FrameEnv`: the Rust half of the frame-level Gymnasium environment. One call per
//! step runs the frames, computes the reward and builds the observation and info, so
//! the Python class around it (`nestris.env.NesTetrisEnv`) only forwards.

use numpy::{PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyRuntimeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString};

use nestris_env::frame::{EnvConfig, Episode};
use nestris_env::obs::{self, CELLS, COLS, FEATURE_NAMES, HEIGHT, ROWS, WIDTH};
use nestris_env::{ObsKind, Outcome};

use crate::errors::invalid_argument;
use crate::options::{env_config, Common};

/// The observation of `ep` as the Gymnasium environment returns it: a dict of a new
/// board array and the features as ints, or a new picture.
pub fn observation<'py>(
    py: Python<'py>,
    cfg: &EnvConfig,
    ep: &Episode,
) -> PyResult<Bound<'py, PyAny>> {
    let s = ep.game.state();
    match cfg.obs {
        ObsKind::Board => {
            // Written on the stack and copied into a new array: no borrow of the array
            // to track (rust-numpy's borrow checking cost more than the copy).
            let mut cells = [0u8; CELLS];
            obs::board(s, &mut cells);
            let arr = PyArray2::from_array(
                py,
                &numpy::ndarray::ArrayView2::from_shape([ROWS, COLS], &cells)
                    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?,
            );
            let d = keyed(py, &OBS_KEYS, |py| {
                let mut keys = vec![intern!(py, "board")];
                keys.extend((0..FEATURE_NAMES.len()).map(|i| feature_key(py, i)));
                keys
            })?;
            d.set_item(intern!(py, "board"), arr)?;
            let values = obs::feature_values(s);
            for (i, v) in values.iter().enumerate() {
                d.set_item(feature_key(py, i), *v)?;
            }
            Ok(d.into_any())
        }
        ObsKind::Pixels => {
            let arr = PyArray3::<u8>::zeros(py, [HEIGHT, WIDTH, 3], false);
            {
                let mut rw = arr.try_readwrite()?;
                let out = rw
                    .as_slice_mut()
                    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
                obs::render(s, out);
            }
            Ok(arr.into_any())
        }
    }
}

/// The interned name of feature `i`.
pub fn feature_key(py: Python<'_>, i: usize) -> &Bound<'_, pyo3::types::PyString> {
    match i {
        0 => intern!(py, "piece"),
        1 => intern!(py, "next_piece"),
        2 => intern!(py, "x"),
        3 => intern!(py, "y"),
        4 => intern!(py, "level"),
        5 => intern!(py, "lines"),
        6 => intern!(py, "play_state"),
        7 => intern!(py, "fall_timer"),
        _ => intern!(py, "autorepeat_x"),
    }
}

const _: () = assert!(FEATURE_NAMES.len() == 9);

/// The keys of the observation dict, in their order, with `None` values.
static OBS_KEYS: PyOnceLock<Py<PyDict>> = PyOnceLock::new();
/// The keys of a step's info dict, in their order, with `None` values.
static INFO_KEYS: PyOnceLock<Py<PyDict>> = PyOnceLock::new();

/// A new dict holding `keys` (made once into `cell`), each to be set: a copy of a
/// small dict is one copy of its table and setting a key it has replaces a value, where
/// a dict built key by key grew twice (dict building was most of a step's cost).
fn keyed<'py>(
    py: Python<'py>,
    cell: &PyOnceLock<Py<PyDict>>,
    keys: impl FnOnce(Python<'py>) -> Vec<&'py Bound<'py, PyString>>,
) -> PyResult<Bound<'py, PyDict>> {
    let template = cell.get_or_try_init(py, || {
        let d = PyDict::new(py);
        for k in keys(py) {
            d.set_item(k, py.None())?;
        }
        Ok::<_, PyErr>(d.unbind())
    })?;
    template.bind(py).copy()
}

/// The info dict of a step (or of a reset, with `res` empty).
fn info<'py>(py: Python<'py>, ep: &Episode, res: &Outcome) -> PyResult<Bound<'py, PyDict>> {
    let d = keyed(py, &INFO_KEYS, |py| {
        vec![
            intern!(py, "score"),
            intern!(py, "lines"),
            intern!(py, "level"),
            intern!(py, "frames"),
            intern!(py, "events"),
            intern!(py, "lines_cleared"),
            intern!(py, "lag"),
            intern!(py, "crashed"),
        ]
    })?;
    d.set_item(intern!(py, "score"), ep.score())?;
    d.set_item(intern!(py, "lines"), ep.lines())?;
    d.set_item(intern!(py, "level"), ep.game.state().level)?;
    d.set_item(intern!(py, "frames"), ep.frames)?;
    d.set_item(intern!(py, "events"), res.flags)?;
    d.set_item(intern!(py, "lines_cleared"), res.lines_cleared)?;
    d.set_item(intern!(py, "lag"), res.lag)?;
    d.set_item(intern!(py, "crashed"), ep.game.crashed().is_some())?;
    Ok(d)
}

/// The frame-level environment's engine side (see ``nestris.env.NesTetrisEnv``).
///
/// ``FrameEnv(start_level=None, region="ntsc", game_type="A", height=0, actions=None,
/// frame_skip=1, reward="score", observation="board", crash_mode="cartridge",
/// music_type=3, format="cartridge")``; ``reset(seed)`` then
/// ``step(action) -> (observation, reward, terminated, info)``.
#[pyclass(module = "nestris._nestris", name = "FrameEnv")]
#[derive(Debug)]
pub struct FrameEnv {
    cfg: EnvConfig,
    ep: Episode,
}

#[pymethods]
impl FrameEnv {
    #[new]
    #[pyo3(
        signature = (start_level=None, region="ntsc", game_type="A", height=None, actions=None, frame_skip=None, reward="score", observation="board", crash_mode="cartridge", music_type=None, format="cartridge"),
        text_signature = "(start_level=None, region=\"ntsc\", game_type=\"A\", height=0, actions=None, frame_skip=1, reward=\"score\", observation=\"board\", crash_mode=\"cartridge\", music_type=3, format=\"cartridge\")"
    )]
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per keyword of the Python constructor"
    )]
    fn py_new(
        py: Python<'_>,
        start_level: Option<&Bound<'_, PyAny>>,
        region: &str,
        game_type: &str,
        height: Option<&Bound<'_, PyAny>>,
        actions: Option<&Bound<'_, PyAny>>,
        frame_skip: Option<&Bound<'_, PyAny>>,
        reward: &str,
        observation: &str,
        crash_mode: &str,
        music_type: Option<&Bound<'_, PyAny>>,
        format: &str,
    ) -> PyResult<Self> {
        let common = Common {
            start_level,
            region,
            game_type,
            height,
            reward,
            observation,
            max_episode_steps: None,
            crash_mode,
            music_type,
            format,
        };
        let cfg = env_config(py, &common, actions, frame_skip)?;
        let ep = Episode::new(&cfg, Some(0));
        Ok(FrameEnv { cfg, ep })
    }

    /// Starts a new game from ``seed`` and returns ``(observation, info)``; ``info``
    /// holds ``seed``.
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: u64,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        self.ep = Episode::new(&self.cfg, Some(seed));
        let inf = info(py, &self.ep, &Outcome::default())?;
        inf.set_item(intern!(py, "seed"), seed)?;
        Ok((observation(py, &self.cfg, &self.ep)?, inf))
    }

    /// Holds action ``action``'s buttons for ``frame_skip`` frames (fewer if the game
    /// ends) and returns ``(observation, reward, terminated, info)``.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, f64, bool, Bound<'py, PyDict>)> {
        let action = crate::batch::action_int(action)?;
        let n = self.cfg.actions.len();
        if !(0..n as i64).contains(&action) {
            return Err(invalid_argument(format!(
                "action must be from 0 to {}, got {action}",
                n - 1
            )));
        }
        let res = self.ep.step(&self.cfg, self.cfg.actions[action as usize]);
        Ok((
            observation(py, &self.cfg, &self.ep)?,
            res.reward,
            res.terminated,
            info(py, &self.ep, &res)?,
        ))
    }

    /// :meth:`step` as Gymnasium's ``Env.step`` returns it: ``(observation, reward,
    /// terminated, truncated, info)``, ``truncated`` always False (a single environment
    /// has no step limit of its own). ``nestris.env.NesTetrisEnv.step`` is this.
    #[expect(clippy::type_complexity, reason = "the Gymnasium step tuple")]
    fn gym_step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, f64, bool, bool, Bound<'py, PyDict>)> {
        let (obs, reward, terminated, info) = self.step(py, action)?;
        Ok((obs, reward, terminated, false, info))
    }

    /// The current observation (a new one).
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        observation(py, &self.cfg, &self.ep)
    }

    /// The play screen as a new 240x256x3 ``uint8`` array.
    fn render<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let arr = PyArray3::<u8>::zeros(py, [HEIGHT, WIDTH, 3], false);
        {
            let mut rw = arr.try_readwrite()?;
            let out = rw
                .as_slice_mut()
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            obs::render(self.ep.game.state(), out);
        }
        Ok(arr)
    }

    /// The joypad byte of each action.
    #[getter]
    fn actions(&self) -> Vec<u32> {
        self.cfg.actions.iter().map(|a| u32::from(*a)).collect()
    }

    /// Frames per step.
    #[getter]
    fn frame_skip(&self) -> u32 {
        self.cfg.frame_skip
    }
}

crate::common::episode_getters!(FrameEnv);
