//! The sets of output arrays a vectorized environment writes, and the "fresh" call: a
//! call that writes a set nothing outside holds, so that what an earlier call returned
//! is never changed. A set is reused once every reference to it (and every view of one
//! of its arrays: a numpy view holds the array it was made of) is gone, and allocated
//! only when none is free; a loop that keeps only the last step's results alternates
//! between two sets and neither allocates nor copies.

use nestris_env::obs::NUM_FEATURES;
use nestris_env::ObsKind;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::batch::{not_contiguous, refcount, Arrays};
use crate::env::feature_key;

/// What a vectorized `step` returns: `(observation, rewards, terminated, truncated,
/// info)`.
pub type StepTuple<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyDict>,
);

/// What a vectorized `reset` returns: `(observation, info)`.
pub type ResetPair<'py> = (Bound<'py, PyAny>, Bound<'py, PyDict>);

/// An info entry: (key, Gymnasium's `"_key"` mask name, array).
pub type InfoEntry<'a, 'py> = (
    &'a Bound<'py, PyString>,
    &'a Bound<'py, PyString>,
    &'a Bound<'py, PyAny>,
);

/// Sets kept at most: enough for a loop that holds the last step's results while it
/// makes the next step (and one more), few enough that pixel observations (184 kB a
/// game) do not pile up.
const MAX_SETS: usize = 3;

/// The arrays one call writes.
pub trait OutputArrays: Sized {
    /// Zeroed arrays for `n` games.
    fn make(py: Python<'_>, n: usize, obs: ObsKind) -> Self;
    /// Whether this value holds the only reference to each of its arrays.
    fn unshared(&self, py: Python<'_>) -> bool;
    /// The arrays every vectorized environment has.
    fn base(&self) -> &Arrays;
}

impl OutputArrays for Arrays {
    fn make(py: Python<'_>, n: usize, obs: ObsKind) -> Self {
        Arrays::new(py, n, obs)
    }

    fn unshared(&self, py: Python<'_>) -> bool {
        Arrays::unshared(self, py)
    }

    fn base(&self) -> &Arrays {
        self
    }
}

/// One set of arrays.
#[derive(Debug)]
struct Set<A> {
    arrays: A,
    /// The features again as `(K, n)` int64, and its K rows (views), once wanted.
    columns: Option<Columns>,
    /// The call that last wrote this set.
    used: u64,
}

#[derive(Debug)]
struct Columns {
    all: Py<PyArray2<i64>>,
    rows: Vec<Py<PyAny>>,
}

impl<A: OutputArrays> Set<A> {
    /// Whether nothing outside this set holds any of its arrays (or a view of one).
    fn unshared(&self, py: Python<'_>) -> bool {
        self.arrays.unshared(py)
            && self.columns.as_ref().is_none_or(|c| {
                // Each row view holds the whole array; a view made of a row holds it too.
                refcount(py, &c.all) == 1 + c.rows.len() as isize
                    && c.rows.iter().all(|r| refcount(py, r) == 1)
            })
    }
}

/// The sets of an environment of `n` games: `current` is the one the last call wrote,
/// which a call without `fresh` writes again.
#[derive(Debug)]
pub struct OutputSets<A> {
    sets: Vec<Set<A>>,
    current: usize,
    /// Calls made, to find the set written longest ago.
    calls: u64,
    /// The features are wanted as `(K, n)` columns: every set has them from then on.
    want_columns: bool,
    n: usize,
    obs: ObsKind,
    /// The read-only all-true `(n,)` array of the Gymnasium info's `"_key"` entries.
    mask: Py<PyArray1<bool>>,
}

impl<A: OutputArrays> OutputSets<A> {
    /// One set for `n` games.
    pub fn new(py: Python<'_>, n: usize, obs: ObsKind) -> PyResult<Self> {
        let mask = PyArray1::<bool>::from_vec(py, vec![true; n]);
        mask.getattr(intern!(py, "flags"))?
            .setattr(intern!(py, "writeable"), false)?;
        Ok(OutputSets {
            sets: vec![Set {
                arrays: A::make(py, n, obs),
                columns: None,
                used: 0,
            }],
            current: 0,
            calls: 0,
            want_columns: false,
            n,
            obs,
            mask: mask.unbind(),
        })
    }

    /// The arrays the last call wrote (and a call without `fresh` writes next).
    pub fn current(&self) -> &A {
        &self.sets[self.current].arrays
    }

    /// A new dict of the current set's board and features, or the pixel array (`None`).
    /// The features are the `(n, K)` array, or with `gym` (the columns wanted) one
    /// `(n,)` int64 row per feature name: the layout of Gymnasium's batched `Dict` of
    /// `Discrete`.
    pub fn board_dict<'py>(
        &self,
        py: Python<'py>,
        gym: bool,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let set = &self.sets[self.current];
        let a = set.arrays.base();
        if self.obs == ObsKind::Pixels {
            return Ok(None);
        }
        let d = PyDict::new(py);
        d.set_item(intern!(py, "board"), a.boards.bind(py))?;
        match set.columns.as_ref().filter(|_| gym) {
            Some(c) => {
                for (k, row) in c.rows.iter().enumerate() {
                    d.set_item(feature_key(py, k), row.bind(py))?;
                }
            }
            None => d.set_item(intern!(py, "features"), a.features.bind(py))?,
        }
        Ok(Some(d))
    }

    /// The step tuple of the current set: `observation`, its rewards and flags, and its
    /// info: the entries every environment has, then `extra`; with `gym`, each key's
    /// `"_key"` mask beside it (every game has every key, always).
    pub fn step_tuple<'a, 'py: 'a>(
        &'a self,
        py: Python<'py>,
        observation: Bound<'py, PyAny>,
        gym: bool,
        extra: impl IntoIterator<Item = InfoEntry<'a, 'py>>,
    ) -> PyResult<StepTuple<'py>> {
        let a = self.current().base();
        let info = PyDict::new(py);
        for (key, mask, value) in a.info_entries(py).into_iter().chain(extra) {
            info.set_item(key, value)?;
            if gym {
                info.set_item(mask, self.mask.bind(py))?;
            }
        }
        Ok((
            observation,
            a.rewards.bind(py).clone(),
            a.terminated.bind(py).clone(),
            a.truncated.bind(py).clone(),
            info,
        ))
    }

    /// Before a call's writes: with `fresh`, makes `current` a set nothing outside holds
    /// (the first such one from the current set on, else a new one, replacing the set
    /// written longest ago when `MAX_SETS` are kept: whoever holds that one keeps it,
    /// never written again).
    pub fn start(&mut self, py: Python<'_>, fresh: bool) {
        if !fresh {
            return;
        }
        let k = self.sets.len();
        if let Some(i) = (0..k)
            .map(|j| (self.current + j) % k)
            .find(|&i| self.sets[i].unshared(py))
        {
            self.current = i;
            return;
        }
        let new = Set {
            arrays: A::make(py, self.n, self.obs),
            columns: None,
            used: 0,
        };
        if k < MAX_SETS {
            self.sets.push(new);
            self.current = k;
        } else {
            let oldest = (0..k)
                .min_by_key(|&i| self.sets[i].used)
                .expect("sets kept");
            self.sets[oldest] = new;
            self.current = oldest;
        }
    }

    /// After a call's writes: marks the current set written and fills its columns when
    /// they are wanted.
    pub fn finish(&mut self, py: Python<'_>) -> PyResult<()> {
        self.calls += 1;
        self.sets[self.current].used = self.calls;
        if self.want_columns {
            self.write_columns(py)?;
        }
        Ok(())
    }

    /// Wants the columns from now on (board observations only), and returns the current
    /// set's, filled.
    pub fn columns<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        if !self.want_columns || self.sets[self.current].columns.is_none() {
            self.want_columns = true;
            self.write_columns(py)?;
        }
        let c = self.sets[self.current].columns.as_ref().expect("written");
        Ok(c.all.bind(py).clone())
    }

    /// Wants the columns from now on, from the next call's writes.
    pub fn want_columns(&mut self) {
        self.want_columns |= self.obs == ObsKind::Board;
    }

    /// Fills the current set's columns (made if need be): game i's feature k goes to
    /// row k, column i.
    fn write_columns(&mut self, py: Python<'_>) -> PyResult<()> {
        let n = self.n;
        let set = &mut self.sets[self.current];
        if set.columns.is_none() {
            let all = PyArray2::<i64>::zeros(py, [NUM_FEATURES, n], false);
            let rows = (0..NUM_FEATURES)
                .map(|k| all.get_item(k).map(Bound::unbind))
                .collect::<PyResult<_>>()?;
            set.columns = Some(Columns {
                all: all.unbind(),
                rows,
            });
        }
        let all = &set.columns.as_ref().expect("made above").all;
        let features = set.arrays.base().features.bind(py).try_readonly()?;
        let features = features.as_slice().map_err(not_contiguous)?;
        let mut columns = all.bind(py).try_readwrite()?;
        let columns = columns.as_slice_mut().map_err(not_contiguous)?;
        // Row by row: the writes run straight through memory.
        for (k, row) in columns.chunks_exact_mut(n).enumerate() {
            for (out, game) in row.iter_mut().zip(features.chunks_exact(NUM_FEATURES)) {
                *out = i64::from(game[k]);
            }
        }
        Ok(())
    }
}
