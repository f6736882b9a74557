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
use pyo3::{intern, IntoPyObjectExt};

use crate::batch::{self, not_contiguous};
use crate::errors::invalid_argument;
use crate::options::{int_in, Common};
use crate::outputs::{OutputArrays, OutputSets, ResetPair, StepTuple};
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

impl OutputArrays for Arrays {
    fn make(py: Python<'_>, n: usize, obs: ObsKind) -> Self {
        Arrays::new(py, n, obs)
    }

    fn unshared(&self, py: Python<'_>) -> bool {
        self.base.unshared(py)
            && batch::refcount(py, &self.masks) == 1
            && batch::refcount(py, &self.placements) == 1
            && batch::refcount(py, &self.num_placements) == 1
            && batch::refcount(py, &self.frames) == 1
    }

    fn base(&self) -> &batch::Arrays {
        &self.base
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
/// The same arrays come back from every call: copy what you keep, or pass
/// ``fresh=True`` (as :class:`VecEnv`).
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
    /// The output arrays (more than one set for `fresh` calls).
    out: OutputSets<Arrays>,
    movegens: Vec<MoveGen>,
    /// Checked actions of the last step (kept to not allocate each step).
    checked: Vec<usize>,
}

impl PyVecPlacementEnv {
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
        let seeds = batch::reset_seeds(
            seed,
            n,
            self.eps.iter().map(PlacementEpisode::following_seed),
        )?;
        self.out.start(py, fresh);
        let arrays = self.out.current();
        let mut base = arrays.base.lend(py)?;
        let mut own = arrays.lend(py)?;
        let rows = base.rows(&mut self.eps, &mut self.needs_reset, own.rows()?)?;
        let (cfg, movegens) = (&self.cfg, &mut self.movegens);
        py.detach(|| vector::reset_all(cfg, rows, movegens, &seeds));
        drop((base, own));
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
        self.out.start(py, fresh);
        let arrays = self.out.current();
        let mut base = arrays.base.lend(py)?;
        let mut own = arrays.lend(py)?;
        let rows = base.rows(&mut self.eps, &mut self.needs_reset, own.rows()?)?;
        let (cfg, movegens, checked) = (&self.cfg, &mut self.movegens, &self.checked);
        let result = py.detach(|| vector::step_all(cfg, rows, movegens, checked));
        drop((base, own));
        if let Err((i, d)) = result {
            // Nothing was written to the set chosen: the call that failed wrote no set.
            return Err(desync_err_in(d, i));
        }
        self.out.finish(py)
    }

    /// The step tuple of the current set; with `gym` in the Gymnasium wrapper's layout
    /// ([`OutputSets::board_dict`]) and with its `"_key"` masks. The placements are in the
    /// observation and in the info.
    fn step_tuple<'py>(&self, py: Python<'py>, gym: bool) -> PyResult<StepTuple<'py>> {
        let a = self.out.current();
        let obs = match self.out.board_dict(py, gym)? {
            Some(d) => {
                d.set_item(intern!(py, "action_mask"), a.masks.bind(py))?;
                d.set_item(intern!(py, "placements"), a.placements.bind(py))?;
                d.into_any()
            }
            None => a.base.pixels.bind(py).clone().into_any(),
        };
        let (frames, masks, placements, counts) = (
            a.frames.bind(py),
            a.masks.bind(py),
            a.placements.bind(py),
            a.num_placements.bind(py),
        );
        let own = [
            (
                intern!(py, "step_frames"),
                intern!(py, "_step_frames"),
                frames.as_any(),
            ),
            (
                intern!(py, "action_mask"),
                intern!(py, "_action_mask"),
                masks.as_any(),
            ),
            (
                intern!(py, "placements"),
                intern!(py, "_placements"),
                placements.as_any(),
            ),
            (
                intern!(py, "num_placements"),
                intern!(py, "_num_placements"),
                counts.as_any(),
            ),
        ];
        self.out.step_tuple(py, obs, gym, own)
    }

    /// `(observation, info)` of the step tuple, for a reset.
    fn reset_pair<'py>(&self, py: Python<'py>, gym: bool) -> PyResult<ResetPair<'py>> {
        let (obs, _, _, _, info) = self.step_tuple(py, gym)?;
        Ok((obs, info))
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
        let out = OutputSets::new(py, n, cfg.obs)?;
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
            out,
            movegens,
            checked: vec![0; n],
        };
        let arrays = env.out.current();
        let mut base = arrays.base.lend(py)?;
        let mut own = arrays.lend(py)?;
        let mut rows = base.rows(&mut env.eps, &mut env.needs_reset, own.rows()?)?;
        vector::observe_all(&env.cfg, &mut rows);
        drop((base, own));
        Ok(env)
    }

    /// Starts every game anew (each run to its first piece) and returns
    /// ``(observation, info)``.
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

    /// Makes one placement in every game (an int array of n placement indices) and
    /// returns ``(observation, rewards, terminated, truncated, info)``. ``info`` holds
    /// ``score``, ``lines`` (int64), ``events`` (uint32 flags), ``lag``, ``crashed``,
    /// ``step_frames`` (uint32), ``action_mask``, ``placements`` and ``num_placements``
    /// per game. ``InvalidArgument`` (and nothing stepped) if an action is not allowed by
    /// its game's mask. The arrays are those of the last call, overwritten; with
    /// ``fresh=True``, arrays nothing else holds, as :meth:`VecEnv.step`'s.
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

    /// :meth:`reset` for ``NesTetrisPlacementVectorEnv``: the observation in the layout
    /// of its batched space (one ``(n,)`` int64 row per feature), the info with
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

    /// :meth:`step` for ``NesTetrisPlacementVectorEnv``, in the layout of
    /// :meth:`_gym_reset`.
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

    /// The input model: ``{"tap_hz", "tap_interval", "taps", "reaction", "das", "soft_drop"}``.
    #[getter]
    fn input_model<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        model_dict(py, &self.cfg.model)
    }
}

crate::common::vector_getters!(PyVecPlacementEnv);
