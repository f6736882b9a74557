//! Running a batch of games on several threads (the engine's pool), shared by `VecEnv` and
//! `VecPlacementEnv`: the games, with their rows of every output array, are cut into a
//! few groups per thread, which the threads take in turn, so that a thread whose games
//! happened to be quick helps with the rest. Also the output arrays both write and
//! their rows.

use numpy::{
    PyArray1, PyArray2, PyArray3, PyArray4, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::invalid_argument;
use crate::obs::{COLS, HEIGHT, NUM_FEATURES, ROWS, WIDTH};
use crate::options::ObsKind;

/// Groups per thread: enough to even out the work, few enough to keep each a batch.
const GROUPS_PER_THREAD: usize = 4;

/// Splits off the first `n` items of `s`.
pub fn take<'a, T>(s: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (a, b) = std::mem::take(s).split_at_mut(n);
    *s = b;
    a
}

/// A group of consecutive games and their rows of the output arrays.
pub trait Group: Sized + Send {
    /// Number of games.
    fn len(&self) -> usize;

    /// Splits off the first `k` games (`k` at most [`Group::len`]).
    fn split_first(&mut self, k: usize) -> Self;
}

/// Runs `f` on groups of `rows` with the engine's one thread pool
/// ([`nestris_sim::pool::run_on`]): one thread per worker (each with its own state, such
/// as a move generator), the calling thread one of them. Returns the first error; a
/// panic in a thread is raised again here.
pub fn run_groups<G: Group, W: Send, E: Send>(
    mut rows: G,
    workers: &mut [W],
    f: impl Fn(G, &mut W) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let threads = workers.len().min(rows.len()).max(1);
    if threads == 1 {
        return f(rows, &mut workers[0]);
    }
    let chunk = rows.len().div_ceil(threads * GROUPS_PER_THREAD);
    let mut groups = Vec::with_capacity(threads * GROUPS_PER_THREAD);
    while rows.len() > 0 {
        let k = chunk.min(rows.len());
        groups.push(rows.split_first(k));
    }
    nestris_sim::pool::run_on(groups.into_iter(), &mut workers[..threads], f)
}

/// The rows every vectorized environment writes, for a group of consecutive games of
/// episode type `E` (indices in the arrays are from the group's first game).
pub struct Rows<'a, E> {
    /// Index of the group's first game in the whole environment.
    pub offset: usize,
    pub eps: &'a mut [E],
    pub needs_reset: &'a mut [bool],
    pub boards: &'a mut [u8],
    pub features: &'a mut [i32],
    pub pixels: &'a mut [u8],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub scores: &'a mut [i64],
    pub lines: &'a mut [i64],
    pub events: &'a mut [u32],
    /// Lag frames of the game's last step.
    pub lag: &'a mut [u32],
    /// The game has crashed (`Game::crashed`).
    pub crashed: &'a mut [bool],
}

impl<'a, E: Send> Group for Rows<'a, E> {
    fn len(&self) -> usize {
        self.eps.len()
    }

    fn split_first(&mut self, k: usize) -> Rows<'a, E> {
        // Observation rows are as long as the observation kind makes them (or empty).
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
            rewards: take(&mut self.rewards, k),
            terminated: take(&mut self.terminated, k),
            truncated: take(&mut self.truncated, k),
            scores: take(&mut self.scores, k),
            lines: take(&mut self.lines, k),
            events: take(&mut self.events, k),
            lag: take(&mut self.lag, k),
            crashed: take(&mut self.crashed, k),
        };
        self.offset += k;
        out
    }
}

impl<E> Rows<'_, E> {
    /// Game `i` was reset: its step outputs are those of a first observation.
    pub fn clear_step(&mut self, i: usize) {
        self.needs_reset[i] = false;
        self.rewards[i] = 0.0;
        self.terminated[i] = false;
        self.truncated[i] = false;
        self.events[i] = 0;
        self.lag[i] = 0;
        self.crashed[i] = false;
    }
}

/// The arrays every vectorized environment writes, one row per game, owned by Python.
#[derive(Debug)]
pub struct Arrays {
    pub boards: Py<PyArray3<u8>>,
    pub features: Py<PyArray2<i32>>,
    pub pixels: Py<PyArray4<u8>>,
    pub rewards: Py<PyArray1<f32>>,
    pub terminated: Py<PyArray1<bool>>,
    pub truncated: Py<PyArray1<bool>>,
    pub scores: Py<PyArray1<i64>>,
    pub lines: Py<PyArray1<i64>>,
    pub events: Py<PyArray1<u32>>,
    pub lag: Py<PyArray1<u32>>,
    pub crashed: Py<PyArray1<bool>>,
}

impl Arrays {
    /// Zeroed arrays for `n` games; those of the other observation kind are empty.
    pub fn new(py: Python<'_>, n: usize, obs: ObsKind) -> Arrays {
        let (nb, np) = match obs {
            ObsKind::Board => (n, 0),
            ObsKind::Pixels => (0, n),
        };
        Arrays {
            boards: PyArray3::<u8>::zeros(py, [nb, ROWS, COLS], false).unbind(),
            features: PyArray2::<i32>::zeros(py, [nb, NUM_FEATURES], false).unbind(),
            pixels: PyArray4::<u8>::zeros(py, [np, HEIGHT, WIDTH, 3], false).unbind(),
            rewards: PyArray1::<f32>::zeros(py, n, false).unbind(),
            terminated: PyArray1::<bool>::zeros(py, n, false).unbind(),
            truncated: PyArray1::<bool>::zeros(py, n, false).unbind(),
            scores: PyArray1::<i64>::zeros(py, n, false).unbind(),
            lines: PyArray1::<i64>::zeros(py, n, false).unbind(),
            events: PyArray1::<u32>::zeros(py, n, false).unbind(),
            lag: PyArray1::<u32>::zeros(py, n, false).unbind(),
            crashed: PyArray1::<bool>::zeros(py, n, false).unbind(),
        }
    }

    /// Borrows every array for writing and runs `f` on the rows of all the games.
    pub fn with_rows<E, R>(
        &self,
        py: Python<'_>,
        eps: &mut [E],
        needs_reset: &mut [bool],
        f: impl FnOnce(Rows<'_, E>) -> PyResult<R>,
    ) -> PyResult<R> {
        let mut boards = self.boards.bind(py).try_readwrite()?;
        let mut features = self.features.bind(py).try_readwrite()?;
        let mut pixels = self.pixels.bind(py).try_readwrite()?;
        let mut rewards = self.rewards.bind(py).try_readwrite()?;
        let mut terminated = self.terminated.bind(py).try_readwrite()?;
        let mut truncated = self.truncated.bind(py).try_readwrite()?;
        let mut scores = self.scores.bind(py).try_readwrite()?;
        let mut lines = self.lines.bind(py).try_readwrite()?;
        let mut events = self.events.bind(py).try_readwrite()?;
        let mut lag = self.lag.bind(py).try_readwrite()?;
        let mut crashed = self.crashed.bind(py).try_readwrite()?;
        f(Rows {
            offset: 0,
            eps,
            needs_reset,
            boards: boards.as_slice_mut().map_err(not_contiguous)?,
            features: features.as_slice_mut().map_err(not_contiguous)?,
            pixels: pixels.as_slice_mut().map_err(not_contiguous)?,
            rewards: rewards.as_slice_mut().map_err(not_contiguous)?,
            terminated: terminated.as_slice_mut().map_err(not_contiguous)?,
            truncated: truncated.as_slice_mut().map_err(not_contiguous)?,
            scores: scores.as_slice_mut().map_err(not_contiguous)?,
            lines: lines.as_slice_mut().map_err(not_contiguous)?,
            events: events.as_slice_mut().map_err(not_contiguous)?,
            lag: lag.as_slice_mut().map_err(not_contiguous)?,
            crashed: crashed.as_slice_mut().map_err(not_contiguous)?,
        })
    }

    /// `info`'s entries every vectorized environment has: `score`, `lines`, `events`,
    /// `lag` (the step's lag frames) and `crashed`.
    pub fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("score", self.scores.bind(py))?;
        d.set_item("lines", self.lines.bind(py))?;
        d.set_item("events", self.events.bind(py))?;
        d.set_item("lag", self.lag.bind(py))?;
        d.set_item("crashed", self.crashed.bind(py))?;
        Ok(d)
    }
}

/// The arrays are allocated here, contiguous; this is only reached if that changed.
pub fn not_contiguous(e: numpy::AsSliceError) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

/// The seeds of a vectorized `reset(seed)`: an int s gives game i the seed s + i, a
/// sequence gives one per game, and None gives each game `following` (the seed after
/// its last one).
pub fn reset_seeds(
    seed: Option<&Bound<'_, PyAny>>,
    n: usize,
    following: impl Iterator<Item = u64>,
) -> PyResult<Vec<u64>> {
    let Some(s) = seed.filter(|s| !s.is_none()) else {
        return Ok(following.collect());
    };
    if let Ok(base) = s.extract::<u64>() {
        return Ok((0..n as u64).map(|i| base.wrapping_add(i)).collect());
    }
    match s.extract::<Vec<u64>>() {
        Ok(list) if list.len() == n => Ok(list),
        Ok(list) => Err(invalid_argument(format!(
            "seed must be one int or {n} ints, got {} ints",
            list.len()
        ))),
        Err(_) => Err(invalid_argument(format!(
            "seed must be None, an int from 0 to 2**64-1 or a sequence of {n} such ints, got {s}"
        ))),
    }
}

/// The actions of a vectorized `step` as a contiguous int64 array of `n`: taken as is
/// when they are one, converted with `numpy.ascontiguousarray` otherwise (lists, other
/// integer types).
pub fn actions_array<'py>(
    actions: &Bound<'py, PyAny>,
    n: usize,
) -> PyResult<PyReadonlyArray1<'py, i64>> {
    if let Ok(a) = actions.cast::<PyArray1<i64>>() {
        if a.is_c_contiguous() {
            return of_length(a.readonly(), n);
        }
    }
    let py = actions.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", "int64")?;
    let converted = py
        .import("numpy")?
        .getattr("ascontiguousarray")?
        .call((actions,), Some(&kwargs))
        .map_err(|e| invalid_argument(format!("actions must be {n} ints (one per game): {e}")))?;
    let a = converted.cast_into::<PyArray1<i64>>().map_err(|_| {
        invalid_argument(format!(
            "actions must be a 1-dimensional array of {n} ints (one per game)"
        ))
    })?;
    of_length(a.readonly(), n)
}

fn of_length(a: PyReadonlyArray1<'_, i64>, n: usize) -> PyResult<PyReadonlyArray1<'_, i64>> {
    if a.len() != n {
        return Err(invalid_argument(format!(
            "actions must hold {n} actions (one per game), got {}",
            a.len()
        )));
    }
    Ok(a)
}
