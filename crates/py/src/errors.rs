//! The package's exception classes: `NestrisError`, and under it `InvalidArgument` and
//! `InvalidSnapshot`, which are also `ValueError`s.
//!
//! The two subclasses have two bases each (`NestrisError` and `ValueError`), which
//! `create_exception!` cannot express, so they are made once with Python's `type()` and
//! kept in a `PyOnceLock`.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

create_exception!(
    nestris,
    NestrisError,
    PyException,
    "Base class of every error the nestris package raises."
);

static INVALID_ARGUMENT: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static INVALID_SNAPSHOT: PyOnceLock<Py<PyType>> = PyOnceLock::new();

const INVALID_ARGUMENT_DOC: &str = "An argument is outside what the game accepts \
(a level, region, game type, height, seed, button byte, action or option).\n\n\
Subclass of NestrisError and ValueError.";

const INVALID_SNAPSHOT_DOC: &str = "Bytes given as a snapshot are not a valid encoded \
game state (wrong length, unknown layout version, or a field the cartridge cannot hold).\n\n\
Subclass of NestrisError and ValueError.";

/// Makes `class name(NestrisError, ValueError)` in module `nestris`.
fn make_subclass(py: Python<'_>, name: &str, doc: &str) -> PyResult<Py<PyType>> {
    let bases = PyTuple::new(
        py,
        [
            py.get_type::<NestrisError>().into_any(),
            py.get_type::<PyValueError>().into_any(),
        ],
    )?;
    let dict = PyDict::new(py);
    dict.set_item("__module__", "nestris")?;
    dict.set_item("__doc__", doc)?;
    let ty = py
        .get_type::<PyType>()
        .call1((name, bases, dict))?
        .cast_into::<PyType>()?;
    Ok(ty.unbind())
}

/// The `InvalidArgument` class.
pub fn invalid_argument_type(py: Python<'_>) -> PyResult<&Py<PyType>> {
    INVALID_ARGUMENT.get_or_try_init(py, || {
        make_subclass(py, "InvalidArgument", INVALID_ARGUMENT_DOC)
    })
}

/// The `InvalidSnapshot` class.
pub fn invalid_snapshot_type(py: Python<'_>) -> PyResult<&Py<PyType>> {
    INVALID_SNAPSHOT.get_or_try_init(py, || {
        make_subclass(py, "InvalidSnapshot", INVALID_SNAPSHOT_DOC)
    })
}

/// An `InvalidArgument` error with `message`.
pub fn invalid_argument(message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| match invalid_argument_type(py) {
        Ok(ty) => PyErr::from_type(ty.bind(py).clone(), message),
        Err(e) => e,
    })
}

/// An `InvalidSnapshot` error with `message`.
pub fn invalid_snapshot(message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| match invalid_snapshot_type(py) {
        Ok(ty) => PyErr::from_type(ty.bind(py).clone(), message),
        Err(e) => e,
    })
}

/// Adds the three classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("NestrisError", py.get_type::<NestrisError>())?;
    m.add("InvalidArgument", invalid_argument_type(py)?.bind(py))?;
    m.add("InvalidSnapshot", invalid_snapshot_type(py)?.bind(py))?;
    Ok(())
}
