//! Whole games with a built-in policy (`"random"` or `"idle"`), run without the GIL for
//! `nestris.evaluate`.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::invalid_argument;
use crate::options::int_in;
use nestris_env::evaluate::{play, GameResult};

/// A built-in policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Builtin {
    /// A uniformly random action every step, from a generator seeded by the game's seed.
    Random,
    /// Action 0 (no buttons) every step.
    Idle,
}

/// Plays one game per seed with built-in ``policy`` (``"random"`` or ``"idle"``) and
/// returns one dict per game: ``seed``, ``score``, ``lines``, ``level``, ``steps``,
/// ``frames``, ``total_reward``, ``terminated``. Runs without the GIL.
#[pyfunction]
#[pyo3(
        signature = (policy, seeds, start_level=None, region="ntsc", game_type="A", height=None, actions=None, frame_skip=None, reward="score", max_steps=None, format="cartridge"),
        text_signature = "(policy, seeds, start_level=None, region=\"ntsc\", game_type=\"A\", height=0, actions=None, frame_skip=1, reward=\"score\", max_steps=None, format=\"cartridge\")"
    )]
#[expect(
    clippy::too_many_arguments,
    reason = "one argument per keyword of the Python function"
)]
pub fn play_builtin<'py>(
    py: Python<'py>,
    policy: &str,
    seeds: Vec<u64>,
    start_level: Option<&Bound<'py, PyAny>>,
    region: &str,
    game_type: &str,
    height: Option<&Bound<'py, PyAny>>,
    actions: Option<&Bound<'py, PyAny>>,
    frame_skip: Option<&Bound<'py, PyAny>>,
    reward: &str,
    max_steps: Option<&Bound<'py, PyAny>>,
    format: &str,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let builtin = match policy {
        "random" => Builtin::Random,
        "idle" => Builtin::Idle,
        _ => {
            return Err(invalid_argument(format!(
                "policy must be a callable, \"random\" or \"idle\", got {policy:?}"
            )))
        }
    };
    let common = crate::options::Common {
        start_level,
        region,
        game_type,
        height,
        reward,
        observation: "board",
        max_episode_steps: None,
        crash_mode: "cartridge",
        music_type: None,
        format,
    };
    let cfg = crate::options::env_config(py, &common, actions, frame_skip)?;
    let max_steps = match max_steps {
        Some(m) if !m.is_none() => int_in("max_steps", m, 1, i64::MAX)? as u64,
        _ => u64::MAX,
    };
    let results: Vec<GameResult> = py.detach(|| {
        seeds
            .iter()
            .map(|&s| {
                let n = cfg.actions.len();
                let Ok(r) = play(&cfg, s, max_steps, &mut (), |_, rng| {
                    Ok::<i64, std::convert::Infallible>(match builtin {
                        Builtin::Random => rng.below(n) as i64,
                        Builtin::Idle => 0,
                    })
                });
                r
            })
            .collect()
    });
    results
        .iter()
        .map(|r| {
            let d = PyDict::new(py);
            d.set_item("seed", r.seed)?;
            d.set_item("score", r.score)?;
            d.set_item("lines", r.lines)?;
            d.set_item("level", r.level)?;
            d.set_item("steps", r.steps)?;
            d.set_item("frames", r.frames)?;
            d.set_item("total_reward", r.total_reward)?;
            d.set_item("terminated", r.terminated)?;
            Ok(d)
        })
        .collect()
}
