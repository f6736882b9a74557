//! `VecEnv`: n games stepped in one call, without the GIL, into preallocated numpy
//! arrays. Finished games reset on the step after the one that ended them (Gymnasium's
//! "next step" auto-reset), each from the seed after its last one.

use nestris_env::frame::{EnvConfig, Episode};
use nestris_env::obs::NUM_FEATURES;
use nestris_env::{vector, ObsKind};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::IntoPyObjectExt;

use crate::batch::{self, not_contiguous, Arrays};
use crate::errors::invalid_argument;
use crate::options::{env_config, int_in, Common};

/// n frame-level games stepped together in Rust.
///
/// ``VecEnv(n, start_level=None, region="ntsc", game_type="A", height=0, actions=None,
/// frame_skip=1, reward="score", observation="board", max_episode_steps=None,
/// num_threads=1, crash_mode="cartridge", music_type=3, format="cartridge")``.
///
/// :meth:`step` takes an array of n actions and runs every game without the GIL, writing
/// into arrays allocated once: ``observation`` is ``{"board": (n, 20, 10) uint8,
/// "features": (n, K) int32}`` (columns in ``nestris.FEATURE_NAMES`` order) or, with
/// ``observation="pixels"``, one ``(n, 240, 256, 3) uint8`` array. The same arrays come
/// back from every call (in a new dict each time): copy what you keep.
///
/// Auto-reset: a game that terminated (topped out) or was truncated (after
/// ``max_episode_steps`` steps) in one step is reset at the next step, whose action
/// for it is ignored; that step returns the new game's first observation with reward 0
/// and both flags false. The new game's seed is ``nestris.next_seed(previous seed)``,
/// as a single environment reset without a seed does.
///
/// >>> import numpy as np, nestris
/// >>> v = nestris.VecEnv(4, start_level=9)
/// >>> obs, info = v.reset(seed=1)
/// >>> obs["board"].shape, obs["features"].shape
/// ((4, 20, 10), (4, 9))
/// >>> obs, rew, term, trunc, info = v.step(np.zeros(4, dtype=np.int64))
/// >>> rew.dtype.name, term.dtype.name, info["score"].shape
/// ('float32', 'bool', (4,))
#[pyclass(module = "nestris._nestris", name = "VecEnv")]
#[derive(Debug)]
pub struct PyVecEnv {
    cfg: EnvConfig,
    eps: Vec<Episode>,
    needs_reset: Vec<bool>,
    arrays: Arrays,
    threads: usize,
    /// The observation dict (board and features) built once; each call returns a copy.
    obs: Option<Py<PyDict>>,
    /// The info dict built once; each call returns a copy.
    info: Py<PyDict>,
    /// The features as `(K, n)` int64, once asked for (see `feature_columns`).
    columns: Option<Py<PyArray2<i64>>>,
}

impl PyVecEnv {
    fn n(&self) -> usize {
        self.eps.len()
    }

    /// The observation object: a new dict of the board and features arrays (a shallow
    /// copy of the one built with the arrays: the caller may change its dict, not ours),
    /// or the pixel array.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.obs {
            Some(d) => Ok(d.bind(py).copy()?.into_any()),
            None => Ok(self.arrays.pixels.bind(py).clone().into_any()),
        }
    }

    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.info.bind(py).copy()
    }

    /// Copies the features into `columns` when it was asked for: game i's feature k
    /// goes to row k, column i.
    fn write_columns(&self, py: Python<'_>) -> PyResult<()> {
        let Some(columns) = &self.columns else {
            return Ok(());
        };
        let features = self.arrays.features.bind(py).try_readonly()?;
        let features = features.as_slice().map_err(not_contiguous)?;
        let mut columns = columns.bind(py).try_readwrite()?;
        let columns = columns.as_slice_mut().map_err(not_contiguous)?;
        // Row by row: the writes run straight through memory.
        for (k, row) in columns.chunks_exact_mut(self.n()).enumerate() {
            for (out, game) in row.iter_mut().zip(features.chunks_exact(NUM_FEATURES)) {
                *out = i64::from(game[k]);
            }
        }
        Ok(())
    }
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(
        signature = (n, start_level=None, region="ntsc", game_type="A", height=None, actions=None, frame_skip=None, reward="score", observation="board", max_episode_steps=None, num_threads=None, crash_mode="cartridge", music_type=None, format="cartridge"),
        text_signature = "(n, start_level=None, region=\"ntsc\", game_type=\"A\", height=0, actions=None, frame_skip=1, reward=\"score\", observation=\"board\", max_episode_steps=None, num_threads=1, crash_mode=\"cartridge\", music_type=3, format=\"cartridge\")"
    )]
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per keyword of the Python constructor"
    )]
    fn py_new(
        py: Python<'_>,
        n: &Bound<'_, PyAny>,
        start_level: Option<&Bound<'_, PyAny>>,
        region: &str,
        game_type: &str,
        height: Option<&Bound<'_, PyAny>>,
        actions: Option<&Bound<'_, PyAny>>,
        frame_skip: Option<&Bound<'_, PyAny>>,
        reward: &str,
        observation: &str,
        max_episode_steps: Option<&Bound<'_, PyAny>>,
        num_threads: Option<&Bound<'_, PyAny>>,
        crash_mode: &str,
        music_type: Option<&Bound<'_, PyAny>>,
        format: &str,
    ) -> PyResult<Self> {
        let n = int_in("n", n, 1, 1 << 20)? as usize;
        let one = 1i32.into_bound_py_any(py)?;
        let common = Common {
            start_level,
            region,
            game_type,
            height,
            reward,
            observation,
            max_episode_steps,
            crash_mode,
            music_type,
            format,
        };
        let cfg = env_config(py, &common, actions, frame_skip)?;
        let threads = int_in("num_threads", num_threads.unwrap_or(&one), 1, 256)? as usize;
        let arrays = Arrays::new(py, n, cfg.obs);
        let eps = (0..n as u64).map(|i| Episode::new(&cfg, Some(i))).collect();
        let obs = match cfg.obs {
            ObsKind::Board => {
                let d = PyDict::new(py);
                d.set_item("board", arrays.boards.bind(py))?;
                d.set_item("features", arrays.features.bind(py))?;
                Some(d.unbind())
            }
            ObsKind::Pixels => None,
        };
        let info = arrays.info(py)?.unbind();
        Ok(PyVecEnv {
            cfg,
            eps,
            needs_reset: vec![false; n],
            arrays,
            threads,
            obs,
            info,
            columns: None,
        })
    }

    /// Starts every game anew and returns ``(observation, info)``.
    ///
    /// ``seed``: an int s (game i gets s + i), a sequence of n ints, or None (each game
    /// gets the seed after its last one).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let n = self.n();
        let seeds = batch::reset_seeds(seed, n, self.eps.iter().map(Episode::following_seed))?;
        let mut guards = self.arrays.lend(py)?;
        let rows = guards.rows(&mut self.eps, &mut self.needs_reset, ())?;
        vector::reset_all(&self.cfg, rows, &mut [()], &seeds);
        drop(guards);
        self.write_columns(py)?;
        Ok((self.observation(py)?, self.info(py)?))
    }

    /// Steps every game with its action (an int array of length n) and returns
    /// ``(observation, rewards, terminated, truncated, info)``, all arrays reused by the
    /// next call. ``info`` holds ``score``, ``lines`` (int64), ``events`` (uint32
    /// flags), ``lag`` (uint32: the step's lag frames) and ``crashed`` (bool: the game has
    /// crashed, ``Game.crashed``) per game.
    #[expect(clippy::type_complexity, reason = "the Gymnasium step tuple")]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyDict>,
    )> {
        let n = self.n();
        let actions = batch::actions_array(actions, n)?;
        let acts = actions.as_slice().map_err(not_contiguous)?;
        let k = self.cfg.actions.len() as i64;
        if let Some((i, a)) = acts.iter().enumerate().find(|(_, a)| !(0..k).contains(*a)) {
            return Err(invalid_argument(format!(
                "action {a} of game {i} is out of range: actions are 0 to {}",
                k - 1
            )));
        }
        let mut workers = [(); 256];
        let workers = &mut workers[..self.threads];
        let cfg = &self.cfg;
        let mut guards = self.arrays.lend(py)?;
        let rows = guards.rows(&mut self.eps, &mut self.needs_reset, ())?;
        let Ok(()) = py.detach(|| vector::step_all(cfg, rows, workers, acts));
        drop(guards);
        self.write_columns(py)?;
        let a = &self.arrays;
        Ok((
            self.observation(py)?,
            a.rewards.bind(py).clone(),
            a.terminated.bind(py).clone(),
            a.truncated.bind(py).clone(),
            self.info(py)?,
        ))
    }

    /// The features again as one ``(K, n)`` ``int64`` array (row k is feature
    /// ``FEATURE_NAMES[k]`` of every game, contiguous: the layout of Gymnasium's batched
    /// ``Dict`` of ``Discrete``). Made on the first call, holding the current features;
    /// from then on every ``reset`` and ``step`` also writes it (the same array each
    /// time, as the others). ``InvalidArgument`` for pixel observations.
    fn feature_columns<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        if self.cfg.obs != ObsKind::Board {
            return Err(invalid_argument(
                "feature_columns: this VecEnv observes pixels, it has no features",
            ));
        }
        if let Some(columns) = &self.columns {
            return Ok(columns.bind(py).clone());
        }
        let columns = PyArray2::<i64>::zeros(py, [NUM_FEATURES, self.n()], false);
        self.columns = Some(columns.clone().unbind());
        self.write_columns(py)?;
        Ok(columns)
    }

    /// The native anchor of ``crates/py/bench.py``: ``(game_step_ns, vector_step_ns)``,
    /// nanoseconds per game step of ``Game::step`` alone and of this environment's step
    /// done in Rust without Python (``n`` games of this configuration, one thread, random
    /// actions, ``calls`` steps, best of three). A benchmark helper; the games of this
    /// environment are not touched.
    fn _native_anchor(&self, py: Python<'_>, calls: usize) -> (f64, f64) {
        let (cfg, n) = (&self.cfg, self.n());
        let t = py.detach(|| nestris_env::frame::native_anchor(cfg, n, calls.max(1), 0));
        (t.game_step_ns, t.vector_step_ns)
    }

    /// The joypad byte of each action.
    #[getter]
    fn actions(&self) -> Vec<u32> {
        self.cfg.actions.iter().map(|a| u32::from(*a)).collect()
    }
}

crate::common::vector_getters!(PyVecEnv);
