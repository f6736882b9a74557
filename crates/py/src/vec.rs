//! `VecEnv`: n games stepped in one call, without the GIL, into preallocated numpy
//! arrays. Finished games reset on the step after the one that ended them (Gymnasium's
//! "next step" auto-reset), each from the seed after its last one.

use nestris_env::frame::{EnvConfig, Episode};
use nestris_env::{vector, ObsKind};
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::IntoPyObjectExt;

use crate::batch::{self, not_contiguous, Arrays};
use crate::errors::invalid_argument;
use crate::options::{env_config, int_in, Common};
use crate::outputs::{OutputSets, ResetPair, StepTuple};

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
/// back from every call (in a new dict each time): copy what you keep, or pass
/// ``fresh=True`` for arrays no later call writes (those of a call whose results were all
/// let go are used again: a loop that keeps only the last step's results neither
/// allocates nor copies).
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
    /// The output arrays (more than one set for `fresh` calls).
    out: OutputSets<Arrays>,
    threads: usize,
}

impl PyVecEnv {
    fn n(&self) -> usize {
        self.eps.len()
    }

    fn run_reset(
        &mut self,
        py: Python<'_>,
        seed: Option<&Bound<'_, PyAny>>,
        fresh: bool,
    ) -> PyResult<()> {
        let n = self.n();
        let seeds = batch::reset_seeds(seed, n, self.eps.iter().map(Episode::following_seed))?;
        self.out.start(py, fresh);
        let mut guards = self.out.current().lend(py)?;
        let rows = guards.rows(&mut self.eps, &mut self.needs_reset, ())?;
        vector::reset_all(&self.cfg, rows, &mut [()], &seeds);
        drop(guards);
        self.out.finish(py)
    }

    fn run_step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        fresh: bool,
    ) -> PyResult<()> {
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
        self.out.start(py, fresh);
        let mut workers = [(); 256];
        let workers = &mut workers[..self.threads];
        let cfg = &self.cfg;
        let mut guards = self.out.current().lend(py)?;
        let rows = guards.rows(&mut self.eps, &mut self.needs_reset, ())?;
        let Ok(()) = py.detach(|| vector::step_all(cfg, rows, workers, acts));
        drop(guards);
        self.out.finish(py)
    }

    /// The step tuple of the current set; with `gym` in the Gymnasium wrapper's layout
    /// ([`OutputSets::board_dict`]) and with its `"_key"` masks.
    fn step_tuple<'py>(&self, py: Python<'py>, gym: bool) -> PyResult<StepTuple<'py>> {
        let obs = match self.out.board_dict(py, gym)? {
            Some(d) => d.into_any(),
            None => self.out.current().pixels.bind(py).clone().into_any(),
        };
        self.out.step_tuple(py, obs, gym, [])
    }

    /// `(observation, info)` of the step tuple, for a reset.
    fn reset_pair<'py>(&self, py: Python<'py>, gym: bool) -> PyResult<ResetPair<'py>> {
        let (obs, _, _, _, info) = self.step_tuple(py, gym)?;
        Ok((obs, info))
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
        let eps = (0..n as u64).map(|i| Episode::new(&cfg, Some(i))).collect();
        let out = OutputSets::new(py, n, cfg.obs)?;
        Ok(PyVecEnv {
            cfg,
            eps,
            needs_reset: vec![false; n],
            out,
            threads,
        })
    }

    /// Starts every game anew and returns ``(observation, info)``.
    ///
    /// ``seed``: an int s (game i gets s + i), a sequence of n ints, or None (each game
    /// gets the seed after its last one). ``fresh``: as for :meth:`step`.
    #[pyo3(signature = (seed=None, fresh=false))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        fresh: bool,
    ) -> PyResult<ResetPair<'py>> {
        self.run_reset(py, seed, fresh)?;
        self.reset_pair(py, false)
    }

    /// Steps every game with its action (an int array of length n) and returns
    /// ``(observation, rewards, terminated, truncated, info)``. ``info`` holds ``score``,
    /// ``lines`` (int64), ``events`` (uint32 flags), ``lag`` (uint32: the step's lag
    /// frames) and ``crashed`` (bool: the game has crashed, ``Game.crashed``) per game.
    ///
    /// The arrays are those of the last call, overwritten; with ``fresh=True`` they are
    /// arrays nothing else holds (no reference to them or a view of them is left from an
    /// earlier call: those are never written again), so that what an earlier call
    /// returned stays as it was. A fresh call reuses arrays whose every reference is gone
    /// and allocates only when there are none: in a loop that keeps only the last
    /// step's results, nothing is allocated or copied.
    #[pyo3(signature = (actions, fresh=false))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        fresh: bool,
    ) -> PyResult<StepTuple<'py>> {
        self.run_step(py, actions, fresh)?;
        self.step_tuple(py, false)
    }

    /// :meth:`reset` for ``NesTetrisVectorEnv``: the observation in the layout of its
    /// batched space (the board and one ``(n,)`` int64 row per feature), the info with
    /// Gymnasium's ``"_key"`` masks.
    fn _gym_reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        fresh: bool,
    ) -> PyResult<ResetPair<'py>> {
        self.out.want_columns();
        self.run_reset(py, seed, fresh)?;
        self.reset_pair(py, true)
    }

    /// :meth:`step` for ``NesTetrisVectorEnv``, in the layout of :meth:`_gym_reset`.
    fn _gym_step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        fresh: bool,
    ) -> PyResult<StepTuple<'py>> {
        self.out.want_columns();
        self.run_step(py, actions, fresh)?;
        self.step_tuple(py, true)
    }

    /// The features again as one ``(K, n)`` ``int64`` array (row k is feature
    /// ``FEATURE_NAMES[k]`` of every game, contiguous: the layout of Gymnasium's batched
    /// ``Dict`` of ``Discrete``), of the arrays the last call returned, holding the
    /// current features; from then on every ``reset`` and ``step`` also writes it.
    /// ``InvalidArgument`` for pixel observations.
    fn feature_columns<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        if self.cfg.obs != ObsKind::Board {
            return Err(invalid_argument(
                "feature_columns: this VecEnv observes pixels, it has no features",
            ));
        }
        self.out.columns(py)
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
