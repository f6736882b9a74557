//! The numpy side of the vector environments: the output arrays every one of them
//! writes, lent to `nestris_env::vector` as the rows it steps (the stepping itself, its
//! auto-reset and its threads are that crate's), the seeds of a reset and the actions
//! of a step as Python passes them.

use nestris_env::{Rows, Task};
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArray4, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1,
    PyReadwriteArray2, PyReadwriteArray3, PyReadwriteArray4, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyInt, PyList, PyTuple};

use crate::errors::invalid_argument;
use crate::outputs::InfoEntry;
use nestris_env::obs::{COLS, HEIGHT, NUM_FEATURES, ROWS, WIDTH};
use nestris_env::ObsKind;

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

    /// Every array borrowed for writing, until the guards are dropped.
    pub fn lend<'py>(&self, py: Python<'py>) -> PyResult<Guards<'py>> {
        Ok(Guards {
            boards: self.boards.bind(py).try_readwrite()?,
            features: self.features.bind(py).try_readwrite()?,
            pixels: self.pixels.bind(py).try_readwrite()?,
            rewards: self.rewards.bind(py).try_readwrite()?,
            terminated: self.terminated.bind(py).try_readwrite()?,
            truncated: self.truncated.bind(py).try_readwrite()?,
            scores: self.scores.bind(py).try_readwrite()?,
            lines: self.lines.bind(py).try_readwrite()?,
            events: self.events.bind(py).try_readwrite()?,
            lag: self.lag.bind(py).try_readwrite()?,
            crashed: self.crashed.bind(py).try_readwrite()?,
        })
    }

    /// `info`'s entries every vectorized environment has (`score`, `lines`, `events`,
    /// `lag`: the step's lag frames, and `crashed`) as (key, Gymnasium's `"_key"` mask
    /// name, array).
    pub fn info_entries<'a, 'py>(&'a self, py: Python<'py>) -> [InfoEntry<'a, 'py>; 5]
    where
        'py: 'a,
    {
        [
            (
                intern!(py, "score"),
                intern!(py, "_score"),
                self.scores.bind(py).as_any(),
            ),
            (
                intern!(py, "lines"),
                intern!(py, "_lines"),
                self.lines.bind(py).as_any(),
            ),
            (
                intern!(py, "events"),
                intern!(py, "_events"),
                self.events.bind(py).as_any(),
            ),
            (
                intern!(py, "lag"),
                intern!(py, "_lag"),
                self.lag.bind(py).as_any(),
            ),
            (
                intern!(py, "crashed"),
                intern!(py, "_crashed"),
                self.crashed.bind(py).as_any(),
            ),
        ]
    }

    /// Whether this value holds the only reference to each of its arrays: no caller
    /// holds one, nor a view of one (a view holds the array it was made of).
    pub fn unshared(&self, py: Python<'_>) -> bool {
        refcount(py, &self.boards) == 1
            && refcount(py, &self.features) == 1
            && refcount(py, &self.pixels) == 1
            && refcount(py, &self.rewards) == 1
            && refcount(py, &self.terminated) == 1
            && refcount(py, &self.truncated) == 1
            && refcount(py, &self.scores) == 1
            && refcount(py, &self.lines) == 1
            && refcount(py, &self.events) == 1
            && refcount(py, &self.lag) == 1
            && refcount(py, &self.crashed) == 1
    }
}

/// An object's reference count.
#[expect(
    deprecated,
    reason = "its replacement, ffi::Py_REFCNT, is unsafe, and the workspace forbids unsafe code"
)]
pub fn refcount<T>(py: Python<'_>, obj: &Py<T>) -> isize {
    obj.get_refcnt(py)
}

/// The arrays of [`Arrays`] borrowed for writing.
#[derive(Debug)]
pub struct Guards<'py> {
    boards: PyReadwriteArray3<'py, u8>,
    features: PyReadwriteArray2<'py, i32>,
    pixels: PyReadwriteArray4<'py, u8>,
    rewards: PyReadwriteArray1<'py, f32>,
    terminated: PyReadwriteArray1<'py, bool>,
    truncated: PyReadwriteArray1<'py, bool>,
    scores: PyReadwriteArray1<'py, i64>,
    lines: PyReadwriteArray1<'py, i64>,
    events: PyReadwriteArray1<'py, u32>,
    lag: PyReadwriteArray1<'py, u32>,
    crashed: PyReadwriteArray1<'py, bool>,
}

impl Guards<'_> {
    /// The rows of all the games, with `eps`, their reset flags and the task's own rows.
    pub fn rows<'x, T: Task>(
        &'x mut self,
        eps: &'x mut [T::Episode],
        needs_reset: &'x mut [bool],
        extra: T::Extra<'x>,
    ) -> PyResult<Rows<'x, T>> {
        Ok(Rows {
            offset: 0,
            eps,
            needs_reset,
            boards: self.boards.as_slice_mut().map_err(not_contiguous)?,
            features: self.features.as_slice_mut().map_err(not_contiguous)?,
            pixels: self.pixels.as_slice_mut().map_err(not_contiguous)?,
            rewards: self.rewards.as_slice_mut().map_err(not_contiguous)?,
            terminated: self.terminated.as_slice_mut().map_err(not_contiguous)?,
            truncated: self.truncated.as_slice_mut().map_err(not_contiguous)?,
            scores: self.scores.as_slice_mut().map_err(not_contiguous)?,
            lines: self.lines.as_slice_mut().map_err(not_contiguous)?,
            events: self.events.as_slice_mut().map_err(not_contiguous)?,
            lag: self.lag.as_slice_mut().map_err(not_contiguous)?,
            crashed: self.crashed.as_slice_mut().map_err(not_contiguous)?,
            extra,
        })
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

/// One action given alone (the single environments' `step`): a Python or numpy int
/// (not a bool, a float or a string, which other envs would round or parse), else a
/// `TypeError`; its range is the caller's to check.
pub fn action_int(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    if !is_int(obj)? {
        return Err(PyTypeError::new_err(format!(
            "action must be an int, got {} ({})",
            repr(obj),
            crate::options::type_name(obj)
        )));
    }
    obj.extract::<i64>()
        .map_err(|_| invalid_argument(format!("action {} is out of range", repr(obj))))
}

/// The actions of a vectorized `step` as a contiguous int64 array of `n`: taken as is
/// when they are one; any other integer array or sequence of ints is converted. The one
/// rule of every environment: integers only (a float, a bool or a string is a
/// `TypeError` naming the game and the value, never rounded or parsed), exactly `n` of
/// them in one dimension (else `InvalidArgument`); their range is the caller's to check.
pub fn actions_array<'py>(
    actions: &Bound<'py, PyAny>,
    n: usize,
) -> PyResult<PyReadonlyArray1<'py, i64>> {
    if let Ok(a) = actions.cast::<PyArray1<i64>>() {
        if a.is_c_contiguous() {
            return of_length(a.readonly(), n);
        }
    }
    // A list or a tuple is checked as given: numpy would make [0, 1.9] all floats.
    if actions.is_instance_of::<PyList>() || actions.is_instance_of::<PyTuple>() {
        for (i, item) in actions.try_iter()?.enumerate() {
            let item = item?;
            if !is_int(&item)? {
                return Err(not_an_int(i, &item));
            }
        }
    }
    let py = actions.py();
    let np = py.import("numpy")?;
    let a = np.getattr("asarray")?.call1((actions,)).map_err(|e| {
        PyTypeError::new_err(format!("actions must be {n} ints (one per game): {e}"))
    })?;
    let shape: Vec<usize> = a.getattr("shape")?.extract()?;
    if shape.len() != 1 {
        return Err(invalid_argument(format!(
            "actions must be a 1-dimensional array of {n} ints (one per game), got shape {shape:?}"
        )));
    }
    if shape[0] != n {
        return Err(invalid_argument(format!(
            "actions must hold {n} actions (one per game), got {}",
            shape[0]
        )));
    }
    let dtype = a.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    let item_size: usize = dtype.getattr("itemsize")?.extract()?;
    let converted = if kind == "i" || (kind == "u" && item_size < 8) {
        // Every value fits in an int64.
        np.getattr("ascontiguousarray")?
            .call1((a.call_method1("astype", ("int64",))?,))?
    } else {
        // One value at a time: a uint64 may not fit, an object array may mix types, any
        // other dtype is not ints at all. The first bad value is named.
        let ints = (0..n)
            .map(|i| {
                let item = a.get_item(i)?;
                let value = if item.hasattr("item")? {
                    item.call_method0("item")?
                } else {
                    item
                };
                if !is_int(&value)? {
                    return Err(not_an_int(i, &value));
                }
                value.extract::<i64>().map_err(|_| {
                    invalid_argument(format!(
                        "action {} of game {i} is out of range",
                        repr(&value)
                    ))
                })
            })
            .collect::<PyResult<Vec<i64>>>()?;
        PyArray1::from_vec(py, ints).into_any()
    };
    let a = converted.cast_into::<PyArray1<i64>>().map_err(|_| {
        invalid_argument(format!(
            "actions must be a 1-dimensional array of {n} ints (one per game)"
        ))
    })?;
    of_length(a.readonly(), n)
}

/// An int and not a bool (Python's `bool` is an `int`; numpy's integer scalars are ints
/// here, as `operator.index` takes them).
fn is_int(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    if obj.is_exact_instance_of::<PyInt>() {
        return Ok(true); // the common case, before any lookup
    }
    if obj.is_instance_of::<PyBool>() {
        return Ok(false);
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(true);
    }
    static NUMPY_INTEGER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let py = obj.py();
    let integer = NUMPY_INTEGER.get_or_try_init(py, || {
        py.import("numpy")?.getattr("integer").map(Bound::unbind)
    })?;
    obj.is_instance(integer.bind(py))
}

/// The error for game `i`'s action `value`, which is not an int.
fn not_an_int(i: usize, value: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "actions must be ints: game {i} has {} ({})",
        repr(value),
        crate::options::type_name(value)
    ))
}

/// `repr(obj)` for a message.
fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into())
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
