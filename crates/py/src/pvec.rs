//! `VecPlacementEnv`: n placement-level games stepped in one call, without the GIL,
//! into preallocated numpy arrays, with `VecEnv`'s auto-reset. One move generator per
//! thread serves all the games of that thread (its tables are large; each game keeps
//! only its placements and their buttons).

use nestris_ai::MoveGen;
use nestris_env::placement::{ChoiceRows, PlacementConfig, PlacementEpisode, PLACEMENT_COLS};
use nestris_env::{vector, ObsKind};
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadwriteArray1, PyReadwriteArray2,
    PyReadwriteArray3,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::IntoPyObjectExt;

use crate::batch::{self, not_contiguous};
use crate::errors::invalid_argument;
use crate::options::{int_in, Common};
use crate::penv::model_dict;
use crate::placement::{
    check_action, desync_err_in, parse_model, placement_config, MAX_PLACEMENTS,
};

/// The arrays a `VecPlacementEnv` writes, owned by Python: every vectorized
/// environment's, and the placements.
#[derive(Debug)]
struct Arrays {
    base: batch::Arrays,
    masks: Py<PyArray2<i8>>,
    placements: Py<PyArray3<u8>>,
    num_placements: Py<PyArray1<i64>>,
    frames: Py<PyArray1<u32>>,
}

impl Arrays {
    fn new(py: Python<'_>, n: usize, obs: ObsKind) -> Arrays {
        let m = MAX_PLACEMENTS;
        Arrays {
            base: batch::Arrays::new(py, n, obs),
            masks: PyArray2::<i8>::zeros(py, [n, m], false).unbind(),
            placements: PyArray3::<u8>::zeros(py, [n, m, PLACEMENT_COLS], false).unbind(),
            num_placements: PyArray1::<i64>::zeros(py, n, false).unbind(),
            frames: PyArray1::<u32>::zeros(py, n, false).unbind(),
        }
    }

    /// The task's own arrays borrowed for writing, until the guards are dropped.
    fn lend<'py>(&self, py: Python<'py>) -> PyResult<ChoiceGuards<'py>> {
        Ok(ChoiceGuards {
            masks: self.masks.bind(py).try_readwrite()?,
            placements: self.placements.bind(py).try_readwrite()?,
            num_placements: self.num_placements.bind(py).try_readwrite()?,
            frames: self.frames.bind(py).try_readwrite()?,
        })
    }
}

/// The placement arrays borrowed for writing.
#[derive(Debug)]
struct ChoiceGuards<'py> {
    masks: PyReadwriteArray2<'py, i8>,
    placements: PyReadwriteArray3<'py, u8>,
    num_placements: PyReadwriteArray1<'py, i64>,
    frames: PyReadwriteArray1<'py, u32>,
}

impl ChoiceGuards<'_> {
    fn rows(&mut self) -> PyResult<ChoiceRows<'_>> {
        Ok(ChoiceRows {
            masks: self.masks.as_slice_mut().map_err(not_contiguous)?,
            placements: self.placements.as_slice_mut().map_err(not_contiguous)?,
            num_placements: self.num_placements.as_slice_mut().map_err(not_contiguous)?,
            frames: self.frames.as_slice_mut().map_err(not_contiguous)?,
        })
    }
}

/// n placement-level games stepped together in Rust.
///
/// ``VecPlacementEnv(n, start_level=None, region="ntsc", game_type="A", height=0,
/// tap_hz=None, reaction=0, das=False, soft_drop=False, reward="score",
/// observation="board", max_episode_steps=None, num_threads=1, crash_mode="cartridge",
/// music_type=3, format="cartridge", taps=None)``.
///
/// :meth:`step` takes n placement indices (one per game; each must be allowed by that
/// game's mask) and runs every game without the GIL, writing into arrays allocated
/// once: ``observation`` is ``{"board": (n, 20, 10) uint8, "features": (n, K) int32,
/// "action_mask": (n, MAX_PLACEMENTS) int8, "placements": (n, MAX_PLACEMENTS, 3)
/// uint8}`` or, with ``observation="pixels"``, one ``(n, 240, 256, 3) uint8`` array;
/// ``info`` has ``action_mask``, ``placements`` and ``num_placements`` in both cases.
/// The same arrays come back from every call: copy what you keep.
///
/// Auto-reset as :class:`VecEnv`: a game that ended or was truncated in one step is
/// reset at the next, whose action for it is ignored (any index below
/// ``MAX_PLACEMENTS`` is accepted) and which returns the new game's first observation
/// with reward 0 and both flags false, from seed ``nestris.next_seed(previous seed)``.
///
/// >>> import numpy as np, nestris
/// >>> v = nestris.VecPlacementEnv(4, start_level=18)
/// >>> obs, info = v.reset(seed=1)
/// >>> obs["action_mask"].shape, obs["placements"].shape
/// ((4, 200), (4, 200, 3))
/// >>> obs, rew, term, trunc, info = v.step(np.zeros(4, dtype=np.int64))
/// >>> info["num_placements"].shape, bool((info["num_placements"] > 0).all())
/// ((4,), True)
#[pyclass(module = "nestris._nestris", name = "VecPlacementEnv")]
#[derive(Debug)]
pub struct PyVecPlacementEnv {
    cfg: PlacementConfig,
    eps: Vec<PlacementEpisode>,
    needs_reset: Vec<bool>,
    arrays: Arrays,
    movegens: Vec<MoveGen>,
    /// Checked actions of the last step (kept to not allocate each step).
    checked: Vec<usize>,
}

impl PyVecPlacementEnv {
    fn n(&self) -> usize {
        self.eps.len()
    }

    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let a = &self.arrays;
        match self.cfg.obs {
            ObsKind::Board => {
                let d = PyDict::new(py);
                d.set_item("board", a.base.boards.bind(py))?;
                d.set_item("features", a.base.features.bind(py))?;
                d.set_item("action_mask", a.masks.bind(py))?;
                d.set_item("placements", a.placements.bind(py))?;
                Ok(d.into_any())
            }
            ObsKind::Pixels => Ok(a.base.pixels.bind(py).clone().into_any()),
        }
    }

    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let a = &self.arrays;
        let d = a.base.info(py)?;
        d.set_item("step_frames", a.frames.bind(py))?;
        d.set_item("action_mask", a.masks.bind(py))?;
        d.set_item("placements", a.placements.bind(py))?;
        d.set_item("num_placements", a.num_placements.bind(py))?;
        Ok(d)
    }
}

#[pymethods]
impl PyVecPlacementEnv {
    #[new]
    #[pyo3(
        signature = (n, start_level=None, region="ntsc", game_type="A", height=None, tap_hz=None, reaction=None, das=false, soft_drop=false, reward="score", observation="board", max_episode_steps=None, num_threads=None, crash_mode="cartridge", music_type=None, format="cartridge", taps=None),
        text_signature = "(n, start_level=None, region=\"ntsc\", game_type=\"A\", height=0, tap_hz=None, reaction=0, das=False, soft_drop=False, reward=\"score\", observation=\"board\", max_episode_steps=None, num_threads=1, crash_mode=\"cartridge\", music_type=3, format=\"cartridge\", taps=None)"
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
        tap_hz: Option<&Bound<'_, PyAny>>,
        reaction: Option<&Bound<'_, PyAny>>,
        das: bool,
        soft_drop: bool,
        reward: &str,
        observation: &str,
        max_episode_steps: Option<&Bound<'_, PyAny>>,
        num_threads: Option<&Bound<'_, PyAny>>,
        crash_mode: &str,
        music_type: Option<&Bound<'_, PyAny>>,
        format: &str,
        taps: Option<&str>,
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
        let model = parse_model(tap_hz, taps, reaction, das, soft_drop)?;
        let cfg = placement_config(py, &common, model)?;
        let threads = int_in("num_threads", num_threads.unwrap_or(&one), 1, 256)? as usize;
        let arrays = Arrays::new(py, n, cfg.obs);
        let mut movegens: Vec<MoveGen> = (0..threads.min(n)).map(|_| MoveGen::new()).collect();
        let eps = py.detach(|| {
            (0..n as u64)
                .map(|i| PlacementEpisode::new(&cfg, Some(i), &mut movegens[0]))
                .collect()
        });
        let mut env = PyVecPlacementEnv {
            cfg,
            eps,
            needs_reset: vec![false; n],
            arrays,
            movegens,
            checked: vec![0; n],
        };
        let mut base = env.arrays.base.lend(py)?;
        let mut own = env.arrays.lend(py)?;
        let mut rows = base.rows(&mut env.eps, &mut env.needs_reset, own.rows()?)?;
        vector::observe_all(&env.cfg, &mut rows);
        drop((base, own));
        Ok(env)
    }

    /// Starts every game anew (each run to its first piece) and returns
    /// ``(observation, info)``.
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
        let seeds = batch::reset_seeds(
            seed,
            n,
            self.eps.iter().map(PlacementEpisode::following_seed),
        )?;
        let mut base = self.arrays.base.lend(py)?;
        let mut own = self.arrays.lend(py)?;
        let rows = base.rows(&mut self.eps, &mut self.needs_reset, own.rows()?)?;
        let (cfg, movegens) = (&self.cfg, &mut self.movegens);
        py.detach(|| vector::reset_all(cfg, rows, movegens, &seeds));
        drop((base, own));
        Ok((self.observation(py)?, self.info(py)?))
    }

    /// Makes one placement in every game (an int array of n placement indices) and
    /// returns ``(observation, rewards, terminated, truncated, info)``, all arrays reused
    /// by the next call. ``info`` holds ``score``, ``lines`` (int64), ``events``
    /// (uint32 flags), ``step_frames`` (uint32), ``action_mask``, ``placements`` and
    /// ``num_placements`` per game. ``InvalidArgument`` (and nothing stepped) if an
    /// action is not allowed by its game's mask.
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
        for (i, (&a, ep)) in acts.iter().zip(&self.eps).enumerate() {
            self.checked[i] = if self.needs_reset[i] {
                if !(0..MAX_PLACEMENTS as i64).contains(&a) {
                    return Err(invalid_argument(format!(
                        "action {a} of game {i} is out of range: actions are 0 to {}",
                        MAX_PLACEMENTS - 1
                    )));
                }
                0
            } else {
                check_action(ep, a)
                    .map_err(|e| invalid_argument(format!("game {i}: {}", e.value(py))))?
            };
        }
        let mut base = self.arrays.base.lend(py)?;
        let mut own = self.arrays.lend(py)?;
        let rows = base.rows(&mut self.eps, &mut self.needs_reset, own.rows()?)?;
        let (cfg, movegens, checked) = (&self.cfg, &mut self.movegens, &self.checked);
        let result = py.detach(|| vector::step_all(cfg, rows, movegens, checked));
        drop((base, own));
        if let Err((i, d)) = result {
            return Err(desync_err_in(d, i));
        }
        let a = &self.arrays.base;
        Ok((
            self.observation(py)?,
            a.rewards.bind(py).clone(),
            a.terminated.bind(py).clone(),
            a.truncated.bind(py).clone(),
            self.info(py)?,
        ))
    }

    /// The input model: ``{"tap_hz", "tap_interval", "taps", "reaction", "das", "soft_drop"}``.
    #[getter]
    fn input_model<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        model_dict(py, &self.cfg.model)
    }
}

crate::common::vector_getters!(PyVecPlacementEnv);
