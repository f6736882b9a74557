//! Cartridge conformance traces: reading them, and checking the engine against them.
//!
//! A trace is a gzip-compressed (or plain) JSON-lines file recorded from the original
//! cartridge: a header line with the state before frame 0, then one line per frame with
//! the buttons held and every game variable after the frame. The format is described in
//! `tests/conformance/README.md`. [`check`] runs the engine from the header's state with
//! the trace's buttons and reports the first frame and field that differ.

#![deny(missing_docs)]

mod load;
mod observe;

pub use load::{load, load_reader, Frame, Header, Trace, TraceError};
pub use observe::{game_from_header, observe, Observation};

use nestris_core::{Buttons, Game};
use serde_json::Value;

/// The first difference between the engine and a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// Frame number (`f`) where the engine first differs.
    pub frame: u64,
    /// The trace's field name.
    pub field: String,
    /// The cartridge's value.
    pub expected: Value,
    /// The engine's value.
    pub actual: Value,
    /// The inputs of the last few frames up to and including this one: (frame, buttons).
    pub recent_inputs: Vec<(u64, Buttons)>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "frame {}: {} expected {} got {} (inputs:",
            self.frame, self.field, self.expected, self.actual
        )?;
        for (n, b) in &self.recent_inputs {
            write!(f, " {n}:{b}")?;
        }
        write!(f, ")")
    }
}

/// The result of checking one trace.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Every field of every frame matched.
    Ok {
        /// Frames compared.
        frames: u64,
    },
    /// The engine differs; frames before `divergence.frame` matched.
    Diverged(Box<Divergence>),
}

/// The first power-on frame whose state the cartridge defines (RAM cleared by then).
const FIRST_POWER_ON_FRAME: u64 = 3;

/// How many frames of input a divergence report shows.
const RECENT: usize = 8;

/// Runs the engine from the trace's header with the trace's buttons and compares every
/// recorded field of every frame.
pub fn check(trace: &Trace) -> Result<Outcome, TraceError> {
    check_with(trace, None)
}

/// [`check`] with what a cartridge image holds (its demo and music: with the music, the
/// sound engine's cycles, and so the lag frames, are exact while music plays).
pub fn check_with(
    trace: &Trace,
    cartridge: Option<&nestris_core::Cartridge>,
) -> Result<Outcome, TraceError> {
    check_in_mode(trace, cartridge, nestris_core::CrashMode::Cartridge)
}

/// [`check_with`] with the engine in crash mode `mode` (`check_with` uses the default,
/// `Cartridge`, whose halt at a broken dispatch is a divergence where the cartridge went on).
pub fn check_in_mode(
    trace: &Trace,
    cartridge: Option<&nestris_core::Cartridge>,
    mode: nestris_core::CrashMode,
) -> Result<Outcome, TraceError> {
    if trace.frames.is_empty() {
        return Err(TraceError::Format {
            name: trace.name.clone(),
            line: 1,
            message: "no frames after the header: nothing to check".into(),
        });
    }
    let video_frames = trace.header.is_power_on();
    let mut game = if video_frames {
        let region = match trace.header.fields.get("region").and_then(Value::as_str) {
            Some("pal") => nestris_core::Region::Pal,
            _ => nestris_core::Region::Ntsc,
        };
        Game::power_on(region)
    } else {
        game_from_header(&trace.header)?
    };
    game.set_crash_mode(mode);
    let mut recent: Vec<(u64, Buttons)> = Vec::with_capacity(RECENT + 1);
    let step = |game: &mut Game, b: Buttons| match cartridge {
        Some(c) => game.step_with_cartridge(b, c),
        None => game.step(b),
    };
    for frame in &trace.frames {
        let ev = step(&mut game, frame.input);
        // Game traces count frame interrupts: video frames without one are not recorded.
        while !video_frames && game.state().flow.nmi_off_this_frame {
            step(&mut game, frame.input);
        }
        recent.push((frame.f, frame.input));
        if recent.len() > RECENT {
            recent.remove(0);
        }
        // Power-on traces show the emulator's uninitialised RAM until frame 3.
        if video_frames && frame.f < FIRST_POWER_ON_FRAME {
            continue;
        }
        // A halted CPU never reaches the wait either: the recordings call its frame a lag.
        // (Power-on traces record video frames, whose `lag` says something else: a frame
        // the main loop spent with the interrupt off or in a long redraw.)
        let lag = ev.has(nestris_core::FrameEvents::LAG) || game.halted();
        let lag_difference = match frame.lag {
            Some(l) if l != lag && !video_frames => {
                Some(("lag".to_string(), Value::from(l), Value::from(lag)))
            }
            _ => None,
        };
        let difference = match crash_line(frame) {
            Some(kind) => crash_difference(&game, kind),
            None => first_difference(&game, frame).or(lag_difference),
        };
        if let Some((field, expected, actual)) = difference {
            return Ok(Outcome::Diverged(Box::new(Divergence {
                frame: frame.f,
                field,
                expected,
                actual,
                recent_inputs: recent,
            })));
        }
    }
    Ok(Outcome::Ok {
        frames: trace.frames.len() as u64,
    })
}

/// The kind of a recording's crash line (`jam`, `hang`, `no-nmi`, `reset`), if `frame` is
/// one.
fn crash_line(frame: &Frame) -> Option<&str> {
    frame.fields.get("crash").and_then(Value::as_str)
}

/// How the engine differs from a crash line of kind `kind`. The recordings' README defines
/// what such a line pins: for `jam`, `no-nmi` and `reset`, the kind and the frame (the RAM
/// it records is what the CPU left after running data or RAM as code on its way to the
/// halt, "informational and not compared"); for `hang`, nothing (the recorder gave up
/// waiting, the console did nothing new). The frames before it were compared as usual,
/// so a halt in this frame and not before is a halt in the recorded frame.
fn crash_difference(game: &Game, kind: &str) -> Option<(String, Value, Value)> {
    let actual = if game.halted() { Some("jam") } else { None };
    let expected = match kind {
        "hang" => None,
        other => Some(other),
    };
    (actual != expected).then(|| {
        (
            "crash".to_string(),
            expected.map_or(Value::Null, Value::from),
            actual.map_or(Value::Null, Value::from),
        )
    })
}

/// The first field (in the trace's order) where the engine's state differs from `frame`.
/// A halted engine differs from every frame that is not a crash line (a halt before the
/// recorded one).
pub fn first_difference(game: &Game, frame: &Frame) -> Option<(String, Value, Value)> {
    if game.halted() && crash_line(frame).is_none() {
        return Some(("crash".into(), Value::Null, Value::from("jam")));
    }
    let obs = observe(game);
    for (key, expected) in &frame.fields {
        if key == "selecting" && frame.fields.get("gameMode") != Some(&Value::from(3)) {
            continue;
        }
        let actual = obs.get(key).cloned().unwrap_or(Value::Null);
        if &actual != expected {
            return Some((key.clone(), expected.clone(), actual));
        }
    }
    // `offfield` is written only when not empty.
    if !frame.fields.contains_key("offfield") {
        if let Some(actual) = obs.get("offfield") {
            return Some(("offfield".into(), Value::Null, actual.clone()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::CrashMode;
    use serde_json::{json, Map};

    /// A game halted by a broken dispatch (the level-160 single with music off: its lag
    /// frame, then the halt), without a cartridge image.
    fn halted() -> Game {
        let mut g = Game::capped_score_frame(160, CrashMode::Cartridge);
        g.step(Buttons::NONE);
        g.step(Buttons::NONE);
        assert!(g.halted());
        g
    }

    fn line(fields: serde_json::Value) -> Frame {
        let Value::Object(fields) = fields else {
            unreachable!("an object")
        };
        Frame {
            f: 1,
            input: Buttons::NONE,
            fields,
            lag: Some(true),
        }
    }

    #[test]
    fn a_jam_line_pins_the_kind_and_the_frame_not_the_ram() {
        // The RAM a halted CPU left is not the engine's: only the halt is compared.
        let jam = line(json!({"crash": "jam", "score": 12, "playState": 99}));
        assert_eq!(crash_line(&jam), Some("jam"));
        assert_eq!(crash_difference(&halted(), "jam"), None);
        let running = Game::capped_score_frame(160, CrashMode::Cartridge);
        assert_eq!(
            crash_difference(&running, "jam"),
            Some(("crash".into(), json!("jam"), Value::Null))
        );
    }

    #[test]
    fn a_hang_line_asks_for_no_halt() {
        let running = Game::capped_score_frame(160, CrashMode::Cartridge);
        assert_eq!(crash_difference(&running, "hang"), None);
        assert_eq!(
            crash_difference(&halted(), "hang"),
            Some(("crash".into(), Value::Null, json!("jam")))
        );
    }

    #[test]
    fn a_halt_before_the_crash_line_is_a_difference() {
        let ordinary = line(Value::Object(Map::new()));
        assert_eq!(
            first_difference(&halted(), &ordinary),
            Some(("crash".into(), Value::Null, json!("jam")))
        );
    }
}
