//! `nestris._nestris`: the Python extension module over the `nestris-core` engine.
//!
//! The engine stays free of Python: this crate wraps it in PyO3 classes —
//! `game::PyGame` (`nestris.Game`), the frame-level environment's engine side
//! `env::FrameEnv`, the vectorized `vec::PyVecEnv` (`nestris.VecEnv`) that steps n
//! games without the GIL into preallocated numpy arrays, their placement-level
//! counterparts over `nestris-ai`'s move generator (`penv::PlacementEnv`,
//! `pvec::PyVecPlacementEnv`), the AI player as a policy (`ai::PyAi`, `nestris.Ai`) and
//! its coach on JSON text (`ai::suggest_json`) — plus the package's exception classes and
//! constants. The Python package around it (`python/nestris`) adds the Gymnasium
//! environments, `evaluate` and `nestris.ai.suggest`.
//!
//! Built by maturin (`pip install ./crates/py`); see `crates/py/README.md`.

#![deny(missing_docs)]

mod ai;
mod batch;
mod common;
mod env;
mod errors;
mod eval;
mod game;
mod options;
mod outputs;
mod penv;
mod placement;
mod pvec;
mod vec;

use nestris_core::encode::ENCODED_LEN;
use nestris_core::Buttons;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::invalid_argument;
use nestris_env::obs;

/// The seed an environment's next episode gets when it is reset without one.
///
/// >>> import nestris
/// >>> nestris.next_seed(0) != 0
/// True
#[pyfunction]
fn next_seed(seed: u64) -> u64 {
    nestris_env::config::next_seed(seed)
}

/// The generator state a seed maps to: ``{"rng": ..., "spawn_count": ...,
/// "frame_counter": ...}`` (what ``Game(seed=...)`` starts from).
#[pyfunction]
fn seed_setup(py: Python<'_>, seed: u64) -> PyResult<Bound<'_, PyDict>> {
    let s = nestris_core::GameSetup::from_seed(seed);
    let d = PyDict::new(py);
    d.set_item("rng", s.rng)?;
    d.set_item("spawn_count", s.spawn_count)?;
    d.set_item("frame_counter", s.frame_counter)?;
    Ok(d)
}

/// A joypad byte from the trace notation: letters ``L R U D A B S T`` (S Select,
/// T Start) in any order, or ``.`` for none.
///
/// >>> import nestris
/// >>> nestris.parse_buttons("LA") == nestris.Buttons.LEFT | nestris.Buttons.A
/// True
#[pyfunction]
fn parse_buttons(text: &str) -> PyResult<u8> {
    Buttons::parse(text).map(Buttons::bits).ok_or_else(|| {
        invalid_argument(format!(
            "{text:?} is not a button string: use the letters L R U D A B S T, or . for none"
        ))
    })
}

/// The trace notation of a joypad byte (``LRUDABST`` order, ``.`` for none).
///
/// >>> import nestris
/// >>> nestris.format_buttons(0x82)
/// 'LA'
#[pyfunction]
fn format_buttons(buttons: i64) -> PyResult<String> {
    if !(0..=255).contains(&buttons) {
        return Err(invalid_argument(format!(
            "buttons must be a joypad byte from 0 to 255, got {buttons}"
        )));
    }
    Ok(Buttons(buttons as u8).to_string())
}

#[pymodule]
fn _nestris(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PyEvents>()?;
    m.add_class::<game::PyState>()?;
    m.add_class::<env::FrameEnv>()?;
    m.add_class::<vec::PyVecEnv>()?;
    m.add_class::<penv::PlacementEnv>()?;
    m.add_class::<pvec::PyVecPlacementEnv>()?;
    m.add_class::<ai::PyAi>()?;
    m.add_function(wrap_pyfunction!(next_seed, m)?)?;
    m.add_function(wrap_pyfunction!(seed_setup, m)?)?;
    m.add_function(wrap_pyfunction!(parse_buttons, m)?)?;
    m.add_function(wrap_pyfunction!(format_buttons, m)?)?;
    m.add_function(wrap_pyfunction!(eval::play_builtin, m)?)?;
    m.add_function(wrap_pyfunction!(ai::play_placements, m)?)?;
    m.add_function(wrap_pyfunction!(ai::suggest_json, m)?)?;
    m.add_function(wrap_pyfunction!(ai::bench_json, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SNAPSHOT_LEN", ENCODED_LEN)?;
    m.add("BOARD_SHAPE", (obs::ROWS, obs::COLS))?;
    m.add("PIXELS_SHAPE", (obs::HEIGHT, obs::WIDTH, 3))?;
    m.add("FEATURE_NAMES", obs::FEATURE_NAMES.to_vec())?;
    m.add("FEATURE_SIZES", obs::FEATURE_SIZES.to_vec())?;
    m.add("MAX_PLACEMENTS", placement::MAX_PLACEMENTS)?;
    // The piece shapes, for code that builds boards itself (the training example's
    // afterstates): (row, column) offsets from the pivot per orientation id, and each
    // orientation's piece type (T J Z O S L I).
    let cells: Vec<Vec<(i8, i8)>> = nestris_core::tables::ORIENTATION_CELLS
        .iter()
        .map(|c| c.to_vec())
        .collect();
    m.add("ORIENTATION_CELLS", cells)?;
    m.add(
        "ORIENTATION_TYPE",
        // As ints: a `Vec<u8>` would become `bytes`.
        nestris_core::tables::ORIENTATION_TYPE
            .iter()
            .map(|&t| u32::from(t))
            .collect::<Vec<u32>>(),
    )?;
    m.add(
        "TAP_RATES",
        placement::TAP_RATES
            .iter()
            .map(|(hz, _)| *hz)
            .collect::<Vec<i64>>(),
    )?;
    // As ints: a `Vec<u8>` would become `bytes`.
    let actions: Vec<u32> = nestris_env::config::DEFAULT_ACTIONS
        .iter()
        .map(|a| u32::from(*a))
        .collect();
    m.add("ACTIONS", actions)?;
    m.add(
        "ACTION_NAMES",
        nestris_env::config::DEFAULT_ACTION_NAMES.to_vec(),
    )?;
    let flags = PyDict::new(m.py());
    for (name, bit) in game::EVENT_NAMES {
        flags.set_item(name, bit)?;
    }
    m.add("EVENT_FLAGS", flags)?;
    Ok(())
}
