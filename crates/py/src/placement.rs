//! The placement-level environments' Python side: their input-model options checked,
//! and the errors of a step (the episode itself is `nestris_env::placement`'s).

use nestris_ai::InputModel;
use nestris_env::placement::{interval_for_hz, Desync, PlacementConfig, PlacementEpisode};
use pyo3::prelude::*;

use crate::errors::invalid_argument;
use crate::options::{int_in, Common};

pub use nestris_env::placement::{model_hz, MAX_PLACEMENTS, TAP_RATES};

/// The input model from the Python options: `tap_hz` 30/20/15/12 (None: 30) or `taps`, a
/// tap pattern (`"X.X.."`, or `"30hz"`..., see `nestris_ai::TapPattern`), not both;
/// `reaction` frames (None: 0), `das`, `soft_drop`.
pub fn parse_model(
    tap_hz: Option<&Bound<'_, PyAny>>,
    taps: Option<&str>,
    reaction: Option<&Bound<'_, PyAny>>,
    das: bool,
    soft_drop: bool,
) -> PyResult<InputModel> {
    let bad_hz = |shown: String| {
        invalid_argument(format!(
            "tap_hz must be 30, 20, 15 or 12 (taps per second: a tap every 2, 3, 4 or 5 frames), got {shown}"
        ))
    };
    let hz = tap_hz.filter(|t| !t.is_none());
    let taps = match (hz, taps) {
        (Some(_), Some(_)) => {
            return Err(invalid_argument(
                "give tap_hz or taps, not both (taps=\"X.\" is 30 Hz)",
            ))
        }
        (_, Some(p)) => nestris_ai::TapPattern::parse(p)
            .map_err(|e| invalid_argument(format!("taps {p:?}: {e}")))?,
        (Some(t), None) => {
            let hz = int_in("tap_hz", t, 0, i64::MAX).map_err(|_| bad_hz(t.to_string()))?;
            nestris_ai::TapPattern::every(interval_for_hz(hz).ok_or_else(|| bad_hz(t.to_string()))?)
        }
        (None, None) => nestris_ai::TapPattern::every(2),
    };
    let reaction = match reaction {
        Some(r) if !r.is_none() => int_in("reaction", r, 0, 255)? as u8,
        _ => 0,
    };
    Ok(InputModel {
        taps,
        das,
        reaction,
        soft_drop,
    })
}

/// The placement-level environments' options: the common ones and the input model.
pub fn placement_config(
    py: Python<'_>,
    common: &Common<'_, '_>,
    model: InputModel,
) -> PyResult<PlacementConfig> {
    let c = common.parse(py)?;
    Ok(PlacementConfig {
        game: c.game,
        model,
        reward: c.reward,
        obs: c.obs,
        max_episode_steps: c.max_episode_steps,
    })
}

/// Checks an action against the episode (see `nestris_env::placement::check_action`).
pub fn check_action(ep: &PlacementEpisode, action: i64) -> PyResult<usize> {
    nestris_env::placement::check_action(ep, action).map_err(invalid_argument)
}

/// The error Python sees for a desync (never expected; see [`Desync`]).
pub fn desync_err(d: Desync) -> PyErr {
    crate::errors::NestrisError::new_err(d.message())
}

/// The error Python sees for a desync in game `i` of a vector environment.
pub fn desync_err_in(d: Desync, i: usize) -> PyErr {
    crate::errors::NestrisError::new_err(format!("game {i}: {}", d.message()))
}
