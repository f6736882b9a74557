//! `VecPlacementEnv`: n placement-level games stepped in one call, without the GIL,
//! into preallocated numpy arrays, with `VecEnv`'s auto-reset. One move generator per
//! thread serves all the games of that thread (its tables are large; each game keeps
//! only its placements and their buttons).

use std::convert::Infallible;

use nestris_ai::MoveGen;
use numpy::{PyArray1, PyArray2, PyArray3, PyArray4, PyArrayMethods};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::IntoPyObjectExt;

use crate::batch::{run_groups, take, Group};
use crate::errors::invalid_argument;
use crate::game::PyGame;
use crate::obs::{CELLS, COLS, HEIGHT, NUM_FEATURES, PIXEL_BYTES, ROWS, WIDTH};
use crate::options::{int_in, ObsKind};
use crate::penv::model_dict;
use crate::placement::{
    check_action, Desync, PlacementConfig, PlacementEpisode, MAX_PLACEMENTS, PLACEMENT_COLS,
};
use crate::vec::actions_array;

/// Mutable views of a group of games and their rows of every output array.
struct Rows<'a> {
    /// Index of the first game in the whole environment.
    offset: usize,
    eps: &'a mut [PlacementEpisode],
    needs_reset: &'a mut [bool],
    boards: &'a mut [u8],
    features: &'a mut [i32],
    pixels: &'a mut [u8],
    masks: &'a mut [i8],
    placements: &'a mut [u8],
    num_placements: &'a mut [i64],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    scores: &'a mut [i64],
    lines: &'a mut [i64],
    events: &'a mut [u32],
    frames: &'a mut [u32],
}

impl<'a> Group for Rows<'a> {
    fn len(&self) -> usize {
        self.eps.len()
    }

    fn split_first(&mut self, k: usize) -> Rows<'a> {
        let n = self.eps.len().max(1);
        let (nb, nf, np) = (
            self.boards.len() / n * k,
            self.features.len() / n * k,
            self.pixels.len() / n * k,
        );
        let out = Rows {
            offset: self.offset,
            eps: take(&mut self.eps, k),
            needs_reset: take(&mut self.needs_reset, k),
            boards: take(&mut self.boards, nb),
            features: take(&mut self.features, nf),
            pixels: take(&mut self.pixels, np),
            masks: take(&mut self.masks, k * MAX_PLACEMENTS),
            placements: take(&mut self.placements, k * MAX_PLACEMENTS * PLACEMENT_COLS),
            num_placements: take(&mut self.num_placements, k),
            rewards: take(&mut self.rewards, k),
            terminated: take(&mut self.terminated, k),
            truncated: take(&mut self.truncated, k),
            scores: take(&mut self.scores, k),
            lines: take(&mut self.lines, k),
            events: take(&mut self.events, k),
            frames: take(&mut self.frames, k),
        };
        self.offset += k;
        out
    }
}

impl Rows<'_> {
    /// Writes game `i`'s observation, mask, placements and counters.
    #[inline]
    fn observe(&mut self, cfg: &PlacementConfig, i: usize) {
        let ep = &self.eps[i];
        let (b, f, p) = match cfg.obs {
            ObsKind::Board => (
                &mut self.boards[i * CELLS..(i + 1) * CELLS],
                &mut self.features[i * NUM_FEATURES..(i + 1) * NUM_FEATURES],
                &mut [][..],
            ),
            ObsKind::Pixels => (
                &mut [][..],
                &mut [][..],
                &mut self.pixels[i * PIXEL_BYTES..(i + 1) * PIXEL_BYTES],
            ),
        };
        ep.write_obs(cfg.obs, b, f, p);
        let m = MAX_PLACEMENTS;
        ep.write_choices(
            &mut self.masks[i * m..(i + 1) * m],
            &mut self.placements[i * m * PLACEMENT_COLS..(i + 1) * m * PLACEMENT_COLS],
        );
        self.num_placements[i] = ep.num_choices() as i64;
        self.scores[i] = i64::from(ep.score());
        self.lines[i] = i64::from(ep.lines());
    }

    /// One step of every game of the group; `actions` holds every game's placement
    /// index (already checked), indexed from the whole environment's first game.
    fn step(
        &mut self,
        cfg: &PlacementConfig,
        actions: &[usize],
        mg: &mut MoveGen,
    ) -> Result<(), (usize, Desync)> {
        let actions = &actions[self.offset..self.offset + self.eps.len()];
        for (i, &action) in actions.iter().enumerate() {
            if self.needs_reset[i] {
                let seed = self.eps[i].following_seed();
                self.eps[i] = PlacementEpisode::new(cfg, Some(seed), mg);
                self.needs_reset[i] = false;
                self.rewards[i] = 0.0;
                self.terminated[i] = false;
                self.truncated[i] = false;
                self.events[i] = 0;
                self.frames[i] = 0;
            } else {
                let ep = &mut self.eps[i];
                let r = ep.step(cfg, action, mg).map_err(|d| (self.offset + i, d))?;
                // As Gymnasium's `TimeLimit`: truncated at the limit, terminated or not.
                let truncated = cfg.max_episode_steps.is_some_and(|m| ep.steps >= m);
                self.rewards[i] = r.reward as f32;
                self.terminated[i] = r.terminated;
                self.truncated[i] = truncated;
                self.events[i] = r.flags;
                self.frames[i] = r.frames;
                self.needs_reset[i] = r.terminated || truncated;
            }
            self.observe(cfg, i);
        }
        Ok(())
    }
}

/// The arrays a `VecPlacementEnv` writes, owned by Python.
#[derive(Debug)]
struct Arrays {
    boards: Py<PyArray3<u8>>,
    features: Py<PyArray2<i32>>,
    pixels: Py<PyArray4<u8>>,
    masks: Py<PyArray2<i8>>,
    placements: Py<PyArray3<u8>>,
    num_placements: Py<PyArray1<i64>>,
    rewards: Py<PyArray1<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    scores: Py<PyArray1<i64>>,
    lines: Py<PyArray1<i64>>,
    events: Py<PyArray1<u32>>,
    frames: Py<PyArray1<u32>>,
}

/// n placement-level games stepped together in Rust.
///
/// ``VecPlacementEnv(n, start_level=0, region="ntsc", game_type="A", height=0,
/// tap_hz=30, reaction=0, das=False, soft_drop=False, reward="score",
/// observation="board", max_episode_steps=None, num_threads=1)``.
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

/// Borrows every array for writing and runs `body` on the rows.
macro_rules! with_rows {
    ($self:ident, $py:ident, |$rows:ident| $body:expr) => {{
        let a = &$self.arrays;
        let mut boards = a.boards.bind($py).try_readwrite()?;
        let mut features = a.features.bind($py).try_readwrite()?;
        let mut pixels = a.pixels.bind($py).try_readwrite()?;
        let mut masks = a.masks.bind($py).try_readwrite()?;
        let mut placements = a.placements.bind($py).try_readwrite()?;
        let mut num_placements = a.num_placements.bind($py).try_readwrite()?;
        let mut rewards = a.rewards.bind($py).try_readwrite()?;
        let mut terminated = a.terminated.bind($py).try_readwrite()?;
        let mut truncated = a.truncated.bind($py).try_readwrite()?;
        let mut scores = a.scores.bind($py).try_readwrite()?;
        let mut lines = a.lines.bind($py).try_readwrite()?;
        let mut events = a.events.bind($py).try_readwrite()?;
        let mut frames = a.frames.bind($py).try_readwrite()?;
        let slice = |e: numpy::AsSliceError| PyRuntimeError::new_err(e.to_string());
        #[allow(unused_mut)]
        let mut $rows = Rows {
            offset: 0,
            eps: &mut $self.eps,
            needs_reset: &mut $self.needs_reset,
            boards: boards.as_slice_mut().map_err(slice)?,
            features: features.as_slice_mut().map_err(slice)?,
            pixels: pixels.as_slice_mut().map_err(slice)?,
            masks: masks.as_slice_mut().map_err(slice)?,
            placements: placements.as_slice_mut().map_err(slice)?,
            num_placements: num_placements.as_slice_mut().map_err(slice)?,
            rewards: rewards.as_slice_mut().map_err(slice)?,
            terminated: terminated.as_slice_mut().map_err(slice)?,
            truncated: truncated.as_slice_mut().map_err(slice)?,
            scores: scores.as_slice_mut().map_err(slice)?,
            lines: lines.as_slice_mut().map_err(slice)?,
            events: events.as_slice_mut().map_err(slice)?,
            frames: frames.as_slice_mut().map_err(slice)?,
        };
        $body
    }};
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
                d.set_item("board", a.boards.bind(py))?;
                d.set_item("features", a.features.bind(py))?;
                d.set_item("action_mask", a.masks.bind(py))?;
                d.set_item("placements", a.placements.bind(py))?;
                Ok(d.into_any())
            }
            ObsKind::Pixels => Ok(a.pixels.bind(py).clone().into_any()),
        }
    }

    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let a = &self.arrays;
        let d = PyDict::new(py);
        d.set_item("score", a.scores.bind(py))?;
        d.set_item("lines", a.lines.bind(py))?;
        d.set_item("events", a.events.bind(py))?;
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
        signature = (n, start_level=None, region="ntsc", game_type="A", height=None, tap_hz=None, reaction=None, das=false, soft_drop=false, reward="score", observation="board", max_episode_steps=None, num_threads=None),
        text_signature = "(n, start_level=0, region=\"ntsc\", game_type=\"A\", height=0, tap_hz=30, reaction=0, das=False, soft_drop=False, reward=\"score\", observation=\"board\", max_episode_steps=None, num_threads=1)"
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
    ) -> PyResult<Self> {
        let n = int_in("n", n, 1, 1 << 20)? as usize;
        let zero = 0i32.into_bound_py_any(py)?;
        let one = 1i32.into_bound_py_any(py)?;
        let thirty = 30i32.into_bound_py_any(py)?;
        let cfg = PlacementConfig::parse(
            start_level.unwrap_or(&zero),
            region,
            game_type,
            height.unwrap_or(&zero),
            tap_hz.unwrap_or(&thirty),
            reaction.unwrap_or(&zero),
            das,
            soft_drop,
            reward,
            observation,
            max_episode_steps,
        )?;
        let threads = int_in("num_threads", num_threads.unwrap_or(&one), 1, 256)? as usize;
        let (nb, np) = match cfg.obs {
            ObsKind::Board => (n, 0),
            ObsKind::Pixels => (0, n),
        };
        let m = MAX_PLACEMENTS;
        let arrays = Arrays {
            boards: PyArray3::<u8>::zeros(py, [nb, ROWS, COLS], false).unbind(),
            features: PyArray2::<i32>::zeros(py, [nb, NUM_FEATURES], false).unbind(),
            pixels: PyArray4::<u8>::zeros(py, [np, HEIGHT, WIDTH, 3], false).unbind(),
            masks: PyArray2::<i8>::zeros(py, [n, m], false).unbind(),
            placements: PyArray3::<u8>::zeros(py, [n, m, PLACEMENT_COLS], false).unbind(),
            num_placements: PyArray1::<i64>::zeros(py, n, false).unbind(),
            rewards: PyArray1::<f32>::zeros(py, n, false).unbind(),
            terminated: PyArray1::<bool>::zeros(py, n, false).unbind(),
            truncated: PyArray1::<bool>::zeros(py, n, false).unbind(),
            scores: PyArray1::<i64>::zeros(py, n, false).unbind(),
            lines: PyArray1::<i64>::zeros(py, n, false).unbind(),
            events: PyArray1::<u32>::zeros(py, n, false).unbind(),
            frames: PyArray1::<u32>::zeros(py, n, false).unbind(),
        };
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
        let cfg = env.cfg.clone();
        with_rows!(env, py, |rows| {
            for i in 0..n {
                rows.observe(&cfg, i);
            }
        });
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
        let seeds: Vec<u64> = match seed {
            Some(s) if !s.is_none() => {
                if let Ok(base) = s.extract::<u64>() {
                    (0..n as u64).map(|i| base.wrapping_add(i)).collect()
                } else if let Ok(list) = s.extract::<Vec<u64>>() {
                    if list.len() != n {
                        return Err(invalid_argument(format!(
                            "seed must be one int or {n} ints, got {} ints",
                            list.len()
                        )));
                    }
                    list
                } else {
                    return Err(invalid_argument(format!(
                        "seed must be None, an int from 0 to 2**64-1 or a sequence of {n} such ints, got {s}"
                    )));
                }
            }
            _ => self
                .eps
                .iter()
                .map(PlacementEpisode::following_seed)
                .collect(),
        };
        let cfg = &self.cfg;
        let threads = self.movegens.len();
        with_rows!(self, py, |rows| {
            py.detach(|| {
                let seeds = &seeds;
                let Ok(()) = run_groups(rows, &mut self.movegens[..threads], |mut g, mg| {
                    for i in 0..g.eps.len() {
                        g.eps[i] = PlacementEpisode::new(cfg, Some(seeds[g.offset + i]), mg);
                        g.needs_reset[i] = false;
                        g.rewards[i] = 0.0;
                        g.terminated[i] = false;
                        g.truncated[i] = false;
                        g.events[i] = 0;
                        g.frames[i] = 0;
                        g.observe(cfg, i);
                    }
                    Ok::<(), Infallible>(())
                });
            })
        });
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
        let actions = actions_array(actions, n)?;
        let acts = actions
            .as_slice()
            .map_err(|_| invalid_argument("actions must be a contiguous int64 array"))?;
        if acts.len() != n {
            return Err(invalid_argument(format!(
                "actions must hold {n} actions (one per game), got {}",
                acts.len()
            )));
        }
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
        let cfg = &self.cfg;
        let checked = std::mem::take(&mut self.checked);
        let threads = self.movegens.len();
        let result = with_rows!(self, py, |rows| {
            py.detach(|| {
                run_groups(rows, &mut self.movegens[..threads], |mut g, mg| {
                    g.step(cfg, &checked, mg)
                })
            })
        });
        self.checked = checked;
        if let Err((i, d)) = result {
            return Err(d.to_err_in(i));
        }
        let a = &self.arrays;
        Ok((
            self.observation(py)?,
            a.rewards.bind(py).clone(),
            a.terminated.bind(py).clone(),
            a.truncated.bind(py).clone(),
            self.info(py)?,
        ))
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.n()
    }

    /// The input model: ``{"tap_hz", "tap_interval", "reaction", "das", "soft_drop"}``.
    #[getter]
    fn input_model<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        model_dict(py, &self.cfg.model)
    }

    /// The seed of each running game.
    #[getter]
    fn seeds(&self) -> Vec<Option<u64>> {
        self.eps.iter().map(|e| e.seed).collect()
    }

    /// Placements made in each running episode.
    #[getter]
    fn episode_steps(&self) -> Vec<u64> {
        self.eps.iter().map(|e| e.steps).collect()
    }

    /// A copy of game ``i``.
    fn game(&self, py: Python<'_>, i: usize) -> PyResult<PyGame> {
        let ep = self.eps.get(i).ok_or_else(|| {
            invalid_argument(format!(
                "game index must be from 0 to {}, got {i}",
                self.n() - 1
            ))
        })?;
        Ok(PyGame::wrap(py, ep.game.clone()))
    }

    fn __len__(&self) -> usize {
        self.n()
    }
}
