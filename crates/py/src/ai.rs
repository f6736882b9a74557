//! `nestris.Ai`: the player of `nestris-ai` as a policy, over a `Game` (the buttons of
//! the next piece) or a placement environment (the index of its placement), and whole
//! placement-level games with it (or with random placements) for `nestris.evaluate`,
//! run without the GIL.

use nestris_ai::{Ai, Bracket, InputModel, Lookahead, MoveGen, SearchOptions, WeightSet, Weights};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::invalid_argument;
use crate::game::PyGame;
use crate::options::{int_in, type_name};
use crate::penv::{model_dict, PlacementEnv};
use crate::placement::{model_hz, parse_model};
use nestris_env::evaluate::{GameResult, PlayError};
use nestris_env::placement::{PlacementConfig, PlacementEpisode};

/// The placement of `ep`'s current piece that `ai` chooses: the index of its action,
/// or `None` when the AI has no plan (no piece under control) or its placement is not
/// among the episode's (another input model).
pub fn choose_index(ai: &mut Ai, ep: &PlacementEpisode) -> Option<usize> {
    if ep.ended {
        return None;
    }
    // The episode executes the move generator's inputs: no pushdown dodge.
    let p = ai.placement(&ep.game)?;
    ep.choices
        .iter()
        .position(|c| (c.o, c.x, c.y) == (p.o, p.x, p.y))
}

/// The evaluation weights from a Python dict: the base set's floats (missing keys keep
/// their defaults) and, under the name of a bracket (``level19``, ``level29``,
/// ``double_killscreen``), a dict of that bracket's overrides, as in a weights file.
fn weights_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<WeightSet> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(WeightSet::default());
    };
    if let Ok(name) = obj.extract::<String>() {
        return match name.as_str() {
            "default" => Ok(WeightSet::default()),
            "betatetris" => Ok(WeightSet::betatetris()),
            _ => Err(invalid_argument(format!(
                "weights {name:?}: the built-in sets are \"default\" and \"betatetris\" (or give a dict)"
            ))),
        };
    }
    // A table's fields override the base set's, as in a file.
    let text = serde_json::Value::Object(weights_map(obj, true, false)?).to_string();
    WeightSet::from_json(&text).map_err(|e| invalid_argument(format!("bad weights: {e}")))
}

/// `"generator"` or `"screen"` (see `nestris_ai::Lookahead`).
fn parse_lookahead(name: &str) -> PyResult<Lookahead> {
    Lookahead::from_name(name).ok_or_else(|| {
        invalid_argument(format!(
            "lookahead {name:?}: use \"generator\" or \"screen\""
        ))
    })
}

/// The high-stack set's table in a weights dict, and its threshold's key.
const HIGH_STACK: &str = "high_stack";
const FROM_HEIGHT: &str = "from_height";

/// One dict of weights as a JSON object, names and values checked; with `brackets`, its
/// bracket keys (and `high_stack`) as nested tables; with `from_height`, that key too.
fn weights_map(
    obj: &Bound<'_, PyAny>,
    brackets: bool,
    from_height: bool,
) -> PyResult<serde_json::Map<String, serde_json::Value>> {
    let dict = obj.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!(
            "weights must be a dict of floats (see Ai().weights), got {}",
            type_name(obj)
        ))
    })?;
    let known = weight_names();
    let mut map = serde_json::Map::new();
    for (k, v) in dict.iter() {
        let key: String = k
            .extract()
            .map_err(|_| PyTypeError::new_err("weights keys must be str"))?;
        let high_stack = key == HIGH_STACK;
        if brackets && (high_stack || Bracket::from_name(&key).is_some_and(|b| b != Bracket::Base))
        {
            if !v.is_instance_of::<PyDict>() {
                return Err(PyTypeError::new_err(format!(
                    "weights[{key:?}] is a bracket's table: a dict of floats, got {}",
                    type_name(&v)
                )));
            }
            let table = weights_map(&v, false, high_stack)?;
            map.insert(key, serde_json::Value::Object(table));
            continue;
        }
        if from_height && key == FROM_HEIGHT {
            // Passed on as it is (an int stays one): the set's reader checks it, as in a
            // file, and says what it needs.
            let rows = v
                .extract::<i64>()
                .map(serde_json::Value::from)
                .or_else(|_| v.extract::<f64>().map(serde_json::Value::from))
                .map_err(|_| {
                    PyTypeError::new_err(format!(
                        "{FROM_HEIGHT:?} must be a number of rows, got {}",
                        type_name(&v)
                    ))
                })?;
            map.insert(key, rows);
            continue;
        }
        if !known.contains(&key) {
            let tables = if brackets {
                ", and the tables level19, level29, double_killscreen, high_stack"
            } else if from_height {
                ", and from_height"
            } else {
                ""
            };
            return Err(invalid_argument(format!(
                "unknown weight {key:?}: the weights are {}{tables}",
                known.join(", ")
            )));
        }
        let value: f64 = v.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "weight {key:?} must be a number, got {}",
                type_name(&v)
            ))
        })?;
        if !value.is_finite() {
            return Err(invalid_argument(format!(
                "weight {key:?} must be finite, got {value}"
            )));
        }
        map.insert(key, serde_json::Value::from(value));
    }
    Ok(map)
}

/// The names of the weights, in their declaration order (the risk table's weight, which
/// a file leaves out at 0, included).
fn weight_names() -> Vec<String> {
    let every = Weights {
        risk: 1.0,
        ..Weights::default()
    };
    match serde_json::to_value(every) {
        Ok(serde_json::Value::Object(m)) => m.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// The base set's weights, and a nested dict per bracket that has its own set.
fn weights_dict<'py>(py: Python<'py>, set: &WeightSet) -> PyResult<Bound<'py, PyDict>> {
    let one = |w: &Weights| -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if let Ok(serde_json::Value::Object(m)) = serde_json::to_value(w) {
            for (k, v) in m {
                d.set_item(k, v.as_f64().unwrap_or(f64::NAN))?;
            }
        }
        // (Every weight, the risk table's at 0 too, which a file leaves out.)
        d.set_item("risk", f64::from(w.risk))?;
        Ok(d)
    };
    let d = one(&set.base)?;
    for (bracket, w) in Bracket::ALL[1..].iter().zip(&set.brackets) {
        if let Some(w) = w {
            d.set_item(bracket.name(), one(w)?)?;
        }
    }
    if let Some(h) = &set.high_stack {
        let t = one(&h.weights)?;
        t.set_item(FROM_HEIGHT, h.from_height)?;
        d.set_item(HIGH_STACK, t)?;
    }
    Ok(d)
}

/// The placement environment core behind `env`: a ``PlacementEnv``, or anything with
/// a ``core`` or ``unwrapped`` attribute leading to one (the Gymnasium classes and
/// their wrappers).
fn resolve_core<'py>(env: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PlacementEnv>> {
    let mut cur = env.clone();
    for _ in 0..64 {
        if let Ok(core) = cur.cast::<PlacementEnv>() {
            return Ok(core.clone());
        }
        let next = if cur.hasattr("core")? {
            cur.getattr("core")?
        } else if cur.hasattr("unwrapped")? {
            cur.getattr("unwrapped")?
        } else {
            break;
        };
        if next.is(&cur) {
            break;
        }
        cur = next;
    }
    Err(PyTypeError::new_err(format!(
        "choose() needs a placement environment (gymnasium.make(\"nestris/NES-Tetris-Placement-v0\"), NesTetrisPlacementEnv or PlacementEnv), got {}",
        type_name(env)
    )))
}

/// A search depth given from Python (`None`: `default`), checked against `range`.
fn depth_in(
    name: &str,
    obj: Option<&Bound<'_, PyAny>>,
    range: std::ops::RangeInclusive<u8>,
    default: u8,
) -> PyResult<u8> {
    match obj.filter(|o| !o.is_none()) {
        Some(o) => Ok(int_in(name, o, i64::from(*range.start()), i64::from(*range.end()))? as u8),
        None => Ok(default),
    }
}

/// ``blind_beam_29`` from Python (`None`: `default`), in
/// [`SearchOptions::BLIND_BEAMS`].
fn beam_in(obj: Option<&Bound<'_, PyAny>>, default: usize) -> PyResult<usize> {
    let range = SearchOptions::BLIND_BEAMS;
    match obj.filter(|o| !o.is_none()) {
        Some(o) => Ok(int_in(
            "blind_beam_29",
            o,
            *range.start() as i64,
            *range.end() as i64,
        )? as usize),
        None => Ok(default),
    }
}

/// The AI player of ``nestris-ai`` (board evaluation and a search over the current
/// piece and the preview, with frame-exact move generation) as a policy.
///
/// ``Ai(tap_hz=None, reaction=0, das=False, soft_drop=False, weights=None,
/// crash_dodge=True, taps=None, lookahead="generator")``: its hands tap at ``tap_hz`` (30, 20, 15 or 12 taps per
/// second) or by the tap pattern ``taps`` (``"X.X.."``: a tap on each ``X`` frame,
/// BetaTetris's tap tables; ``"30hz"``),
/// wait ``reaction`` frames after each spawn, and may hold directions (``das``) and Down
/// (``soft_drop``); ``weights`` is a dict overriding some of the evaluation weights
/// (``Ai().weights`` lists them; a nested dict under ``"level19"``, ``"level29"`` or
/// ``"double_killscreen"`` gives that bracket of the game its own set, as the tables of a
/// weights file do), or a built-in set by name: ``"default"``, ``"betatetris"`` (the
/// weights of ``nestris ai bench --format betatetris``). With ``crash_dodge`` the AI does not take a placement
/// that would crash the cartridge (levels ~155 and up, with the crash model on) when
/// another one, or in :meth:`plan` the same one with pushdown, does not. ``lookahead``
/// is what its search knows of the piece after the preview: ``"generator"`` the piece the
/// generator has fixed (found by playing each candidate out), ``"screen"`` only what the
/// screen shows, the piece after weighed over every piece that may come (a human's, or
/// another bot's, terms; ``nestris ai bench --format betatetris`` plays so). ``depth``
/// (3 to 5) is how many pieces :meth:`plan` weighs, ``blind_depth`` and
/// ``blind_depth_29`` (2 to 5) how many :meth:`plan_blind` weighs below level 29 and from
/// it, and ``blind_beam_29`` (0 to 8) for how many of its candidates from level 29, the
/// best over the preview pieces alone (0: all), as the bench's ``--depth``,
/// ``--blind-depth``, ``--blind-depth-29`` and ``--blind-beam-29`` (the betatetris format
/// plays with ``depth=5, blind_depth_29=5, blind_beam_29=4``).
///
/// * :meth:`plan` gives the buttons, frame by frame, that put the current piece of a
///   :class:`Game` where the AI wants it.
/// * :meth:`choose` gives the action of a placement environment (``nestris/NES-Tetris-
///   Placement-v0``) for the AI's placement; the environment's input model must be the
///   AI's.
///
/// >>> import gymnasium, nestris
/// >>> ai = nestris.Ai()
/// >>> env = gymnasium.make("nestris/NES-Tetris-Placement-v0", start_level=9)
/// >>> obs, info = env.reset(seed=1)
/// >>> for _ in range(30):
/// ...     obs, reward, terminated, truncated, info = env.step(ai.choose(env))
/// >>> info["lines"] > 0
/// True
/// >>> g = nestris.Game(level=18, seed=3)
/// >>> buttons = ai.plan(g)
/// >>> ev = g.run(buttons)
/// >>> g.play_state
/// 2
#[pyclass(module = "nestris._nestris", name = "Ai")]
#[derive(Debug, Clone)]
pub struct PyAi {
    ai: Ai,
    model: InputModel,
    weights: WeightSet,
}

#[pymethods]
impl PyAi {
    #[new]
    #[pyo3(
        signature = (tap_hz=None, reaction=None, das=false, soft_drop=false, weights=None, crash_dodge=true, taps=None, lookahead="generator", depth=None, blind_depth=None, blind_depth_29=None, blind_beam_29=None),
        text_signature = "(tap_hz=None, reaction=0, das=False, soft_drop=False, weights=None, crash_dodge=True, taps=None, lookahead=\"generator\", depth=3, blind_depth=3, blind_depth_29=3, blind_beam_29=0)"
    )]
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per keyword of the Python constructor"
    )]
    fn py_new(
        tap_hz: Option<&Bound<'_, PyAny>>,
        reaction: Option<&Bound<'_, PyAny>>,
        das: bool,
        soft_drop: bool,
        weights: Option<&Bound<'_, PyAny>>,
        crash_dodge: bool,
        taps: Option<&str>,
        lookahead: &str,
        depth: Option<&Bound<'_, PyAny>>,
        blind_depth: Option<&Bound<'_, PyAny>>,
        blind_depth_29: Option<&Bound<'_, PyAny>>,
        blind_beam_29: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let model = parse_model(tap_hz, taps, reaction, das, soft_drop)?;
        let weights = weights_arg(weights)?;
        let lookahead = parse_lookahead(lookahead)?;
        let mut ai = Ai::new(weights, model);
        let options = &mut ai.search_mut().options;
        options.crash_dodge = crash_dodge;
        options.lookahead = lookahead;
        options.depth = depth_in("depth", depth, SearchOptions::DEPTHS, options.depth)?;
        options.blind_depth = depth_in(
            "blind_depth",
            blind_depth,
            SearchOptions::BLIND_DEPTHS,
            options.blind_depth,
        )?;
        options.blind_depth_29 = depth_in(
            "blind_depth_29",
            blind_depth_29,
            SearchOptions::BLIND_DEPTHS,
            options.blind_depth_29,
        )?;
        options.blind_beam_29 = beam_in(blind_beam_29, options.blind_beam_29)?;
        Ok(PyAi { ai, model, weights })
    }

    /// The joypad bytes, one per frame from the next frame on, that put the current
    /// piece of ``game`` where the AI places it (up to the frame in which it lands);
    /// empty when no piece is under control.
    fn plan(&mut self, py: Python<'_>, game: PyRef<'_, PyGame>) -> Vec<u32> {
        let g = game.inner();
        let ai = &mut self.ai;
        py.detach(|| ai.plan(g))
            .into_iter()
            .map(|b| u32::from(b.bits()))
            .collect()
    }

    /// The first half of the community's reaction model (``nestris ai bench --adjust``):
    /// the buttons :meth:`plan` would give, but planned without the preview piece, as a
    /// player must plan at the spawn before reacting to the newly shown preview (every
    /// piece that may come there is weighed by how likely the generator deals it). The
    /// adjustment, once the preview is seen (18 frames after the spawn at 300 ms), is
    /// :meth:`plan` from the game reached by then, made on a frame where the tap pattern
    /// allows the next tap (``nestris.ai.bench`` plays this model whole, waiting for such
    /// a frame). Empty when no piece is under control.
    ///
    /// >>> import nestris
    /// >>> g = nestris.Game(level=18, seed=3)
    /// >>> ai = nestris.Ai(lookahead="screen")
    /// >>> blind = ai.plan_blind(g)     # at the spawn, the preview not yet seen
    /// >>> _ = g.run(blind[:18])        # 300 ms of it
    /// >>> rest = ai.plan(g)            # the adjustment, the preview seen
    /// >>> _ = g.run(rest)
    /// >>> g.play_state
    /// 2
    fn plan_blind(&mut self, py: Python<'_>, game: PyRef<'_, PyGame>) -> Vec<u32> {
        let g = game.inner();
        let search = self.ai.search_mut();
        py.detach(|| search.plan_blind(g))
            .map(|p| p.inputs)
            .unwrap_or_default()
            .into_iter()
            .map(|b| u32::from(b.bits()))
            .collect()
    }

    /// The action (placement index) of placement environment ``env`` for the AI's
    /// placement of the current piece (0 once the game has ended). ``env`` is a
    /// placement environment (the Gymnasium one, wrapped or not, or its
    /// ``PlacementEnv`` core) with the AI's input model.
    fn choose(&mut self, py: Python<'_>, env: &Bound<'_, PyAny>) -> PyResult<usize> {
        let core = resolve_core(env)?;
        let core = core.borrow();
        let ep = core.episode();
        if ep.ended {
            return Ok(0);
        }
        let ai = &mut self.ai;
        match py.detach(|| choose_index(ai, ep)) {
            Some(i) => Ok(i),
            None => Err(invalid_argument(format!(
                "the AI's placement is not among the environment's: give the environment the AI's input model {:?}",
                self.model
            ))),
        }
    }

    /// The evaluation weights (a new dict): the base set, and a nested dict for each
    /// bracket of the game with a set of its own.
    #[getter]
    fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        weights_dict(py, &self.weights)
    }

    /// The input model: ``{"tap_hz", "tap_interval", "taps", "reaction", "das", "soft_drop"}``.
    #[getter]
    fn input_model<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        model_dict(py, &self.model)
    }

    /// Taps per second.
    #[getter]
    fn tap_hz(&self) -> i64 {
        model_hz(&self.model)
    }

    /// Frames of no input after each spawn.
    #[getter]
    fn reaction(&self) -> u8 {
        self.model.reaction
    }

    /// Directions may be held (DAS).
    #[getter]
    fn das(&self) -> bool {
        self.model.das
    }

    /// Down may be held (soft drop).
    #[getter]
    fn soft_drop(&self) -> bool {
        self.model.soft_drop
    }

    /// What the search knows of the piece after the preview: ``"generator"`` or
    /// ``"screen"``.
    #[getter]
    fn lookahead(&self) -> &'static str {
        self.ai.search().options.lookahead.name()
    }

    /// How many pieces :meth:`plan` weighs: 3 or 4.
    #[getter]
    fn depth(&self) -> u8 {
        self.ai.search().options.depth
    }

    /// How many pieces :meth:`plan_blind` weighs below level 29: 2 to 4.
    #[getter]
    fn blind_depth(&self) -> u8 {
        self.ai.search().options.blind_depth
    }

    /// How many pieces :meth:`plan_blind` weighs from level 29 on: 2 to 4.
    #[getter]
    fn blind_depth_29(&self) -> u8 {
        self.ai.search().options.blind_depth_29
    }

    /// From level 29, how many of :meth:`plan_blind`'s candidates, the best over the
    /// preview pieces alone, it weighs at its whole depth: 0 (all) to 8.
    #[getter]
    fn blind_beam_29(&self) -> usize {
        self.ai.search().options.blind_beam_29
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.borrow();
        // The pattern rather than the rate: it holds every model, Hz or not.
        let args = (
            py.None(),
            me.model.reaction,
            me.model.das,
            me.model.soft_drop,
            weights_dict(py, &me.weights)?,
            me.ai.search().options.crash_dodge,
            me.model.taps.to_string(),
            me.ai.search().options.lookahead.name(),
            me.ai.search().options.depth,
            me.ai.search().options.blind_depth,
            me.ai.search().options.blind_depth_29,
            me.ai.search().options.blind_beam_29,
        )
            .into_pyobject(py)?;
        Ok((slf.get_type().into_any(), args))
    }

    fn __repr__(&self) -> String {
        format!(
            "Ai({}, reaction={}, das={}, soft_drop={})",
            match model_hz(&self.model) {
                0 => format!("taps={:?}", self.model.taps.to_string()),
                hz => format!("tap_hz={hz}"),
            },
            self.model.reaction,
            if self.model.das { "True" } else { "False" },
            if self.model.soft_drop {
                "True"
            } else {
                "False"
            },
        )
    }
}

/// A policy of [`play_placements`].
enum Policy {
    Ai(Box<Ai>),
    Random,
}

/// One placement-level game with `policy`.
fn play_one(
    cfg: &PlacementConfig,
    policy: &mut Policy,
    seed: u64,
    max_steps: u64,
    mg: &mut MoveGen,
) -> Result<GameResult, String> {
    nestris_env::evaluate::play(cfg, seed, max_steps, mg, |ep, rng| match policy {
        Policy::Ai(ai) => choose_index(ai, ep).ok_or_else(|| {
            "the AI's placement is not among the environment's (another input model)".to_string()
        }),
        Policy::Random => Ok(rng.below(ep.num_choices())),
    })
    .map_err(|e| match e {
        PlayError::Policy(why) => why,
        PlayError::Step(d) => format!("{d:?}"),
    })
}

/// Plays one placement-level game per seed with ``policy`` (an :class:`Ai`, whose
/// input model the games use, or ``"random"``: a uniformly random placement each step,
/// from a generator seeded by the game's seed) and returns one dict per game: ``seed``,
/// ``score``, ``lines``, ``level``, ``steps`` (placements), ``frames``,
/// ``total_reward``, ``terminated``. Runs without the GIL.
#[pyfunction]
#[pyo3(
    signature = (policy, seeds, start_level=None, region="ntsc", game_type="A", height=None, tap_hz=None, reaction=None, das=false, soft_drop=false, reward="score", max_steps=None, format="cartridge", taps=None),
    text_signature = "(policy, seeds, start_level=None, region=\"ntsc\", game_type=\"A\", height=0, tap_hz=None, reaction=0, das=False, soft_drop=False, reward=\"score\", max_steps=None, format=\"cartridge\", taps=None)"
)]
#[expect(
    clippy::too_many_arguments,
    reason = "one argument per keyword of the Python function"
)]
pub fn play_placements<'py>(
    py: Python<'py>,
    policy: &Bound<'py, PyAny>,
    seeds: Vec<u64>,
    start_level: Option<&Bound<'py, PyAny>>,
    region: &str,
    game_type: &str,
    height: Option<&Bound<'py, PyAny>>,
    tap_hz: Option<&Bound<'py, PyAny>>,
    reaction: Option<&Bound<'py, PyAny>>,
    das: bool,
    soft_drop: bool,
    reward: &str,
    max_steps: Option<&Bound<'py, PyAny>>,
    format: &str,
    taps: Option<&str>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
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
    let model = parse_model(tap_hz, taps, reaction, das, soft_drop)?;
    let mut cfg = crate::placement::placement_config(py, &common, model)?;
    let mut pol = if let Ok(ai) = policy.cast::<PyAi>() {
        let ai = ai.borrow();
        // The games are played with the AI's hands.
        cfg.model = ai.model;
        Policy::Ai(Box::new(ai.ai.clone()))
    } else if policy.extract::<String>().is_ok_and(|s| s == "random") {
        Policy::Random
    } else {
        return Err(invalid_argument(format!(
            "policy must be a nestris.Ai or \"random\", got {}",
            policy.repr()?
        )));
    };
    let max_steps = match max_steps {
        Some(m) if !m.is_none() => int_in("max_steps", m, 1, i64::MAX)? as u64,
        _ => u64::MAX,
    };
    let results: Result<Vec<GameResult>, String> = py.detach(|| {
        let mut mg = MoveGen::new();
        seeds
            .iter()
            .map(|s| play_one(&cfg, &mut pol, *s, max_steps, &mut mg))
            .collect()
    });
    let results = results.map_err(crate::errors::NestrisError::new_err)?;
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

/// The coach of ``nestris-ai`` on request text: the JSON answer to one JSON request (the
/// shapes of ``nestris ai suggest``; ``docs/AI.md``, "The coach"). ``nestris.ai.suggest``
/// wraps it with dicts. Raises ``InvalidArgument`` for a request it does not accept.
///
/// >>> import json, nestris
/// >>> well = "0" * 160 + "1111111110" * 4
/// >>> request = {"board": well, "currentPiece": "I", "level": 18, "lines": 0}
/// >>> json.loads(nestris._nestris.suggest_json(json.dumps(request)))["best"]["cleared"]
/// 4
#[pyfunction]
#[pyo3(signature = (request, weights=None))]
pub fn suggest_json(
    py: Python<'_>,
    request: &str,
    weights: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let weights = weights_arg(weights)?;
    py.detach(|| nestris_ai::coach::suggest_json(request, &weights))
        .map_err(|e| invalid_argument(e.to_string()))
}

/// The benchmark of ``nestris ai bench``: ``games`` games of the AI in a format, as the
/// JSON that ``nestris ai bench --json`` prints (``nestris.ai.bench`` parses it). The
/// options are the command's: ``format`` (``"cartridge"`` or ``"betatetris"``),
/// ``start_level`` (None: 18), ``tap_hz`` or ``taps``, ``reaction``, ``adjust`` (the
/// community's reaction model: frames after each spawn before the preview is seen; None:
/// the format's, 18 in BetaTetris's, else 0), ``weights`` (None: the format's),
/// ``lookahead`` (None: the format's), ``blind_depth`` (2 to 5; None: 3),
/// ``blind_depth_29`` (2 to 5, from level 29; None: the format's), ``depth`` (3 to 5; None:
/// the format's), ``blind_beam_29`` (0 to 8; None: the format's), ``crash_mode``,
/// ``crash_dodge``, ``uncapped``, ``max_frames`` (None: 2,000,000 a game) and ``threads``
/// (None: every core); ``checkpoint``, a file that keeps each game as it ends and gives
/// back the games it holds (``--checkpoint``). Runs without the GIL; the games are
/// deterministic, so the results do not depend on ``threads``.
#[pyfunction]
#[pyo3(
    signature = (games=None, format="cartridge", start_level=None, tap_hz=None, taps=None, reaction=None, adjust=None, weights=None, lookahead=None, blind_depth=None, blind_depth_29=None, depth=None, blind_beam_29=None, crash_mode="cartridge", crash_dodge=true, uncapped=false, max_frames=None, threads=None, progress=None, checkpoint=None),
    text_signature = "(games=100, format=\"cartridge\", start_level=None, tap_hz=None, taps=None, reaction=None, adjust=None, weights=None, lookahead=None, blind_depth=None, blind_depth_29=None, depth=None, blind_beam_29=None, crash_mode=\"cartridge\", crash_dodge=True, uncapped=False, max_frames=None, threads=None, progress=None, checkpoint=None)"
)]
#[expect(
    clippy::too_many_arguments,
    reason = "one argument per keyword of the Python function"
)]
pub fn bench_json<'py>(
    py: Python<'py>,
    games: Option<&Bound<'py, PyAny>>,
    format: &str,
    start_level: Option<&Bound<'py, PyAny>>,
    tap_hz: Option<&Bound<'py, PyAny>>,
    taps: Option<&str>,
    reaction: Option<&Bound<'py, PyAny>>,
    adjust: Option<&Bound<'py, PyAny>>,
    weights: Option<&Bound<'py, PyAny>>,
    lookahead: Option<&str>,
    blind_depth: Option<&Bound<'py, PyAny>>,
    blind_depth_29: Option<&Bound<'py, PyAny>>,
    depth: Option<&Bound<'py, PyAny>>,
    blind_beam_29: Option<&Bound<'py, PyAny>>,
    crash_mode: &str,
    crash_dodge: bool,
    uncapped: bool,
    max_frames: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
    checkpoint: Option<std::path::PathBuf>,
) -> PyResult<String> {
    use nestris_ai::benchmark::BenchConfig;
    use nestris_ai::format::Format;
    let format = crate::options::parse_format(format)?;
    let seeds = nestris_ai::benchmark::SeedList::standard();
    // The cartridge's games are the published seed list's; BetaTetris's seeds are drawn,
    // as many as asked for (a bound keeps the draw and the report's memory small).
    let most = match format {
        Format::Cartridge => seeds.len() as i64,
        Format::Betatetris => MAX_BENCH_GAMES,
    };
    let games = match games.filter(|o| !o.is_none()) {
        Some(o) => int_in("games", o, 1, most)? as usize,
        None => 100.min(most as usize),
    };
    let start_level = match start_level.filter(|o| !o.is_none()) {
        Some(o) => int_in("start_level", o, 0, 255)? as u8,
        None => 18,
    };
    if format == Format::Betatetris && start_level < 18 {
        return Err(invalid_argument(format!(
            "the betatetris format starts at level 18 or later, got start_level={start_level}"
        )));
    }
    let model = parse_model(tap_hz, taps, reaction, false, false)?;
    let adjust_after = match adjust.filter(|o| !o.is_none()) {
        Some(o) => Some(int_in("adjust", o, 0, 255)? as u8).filter(|&f| f > 0),
        None => format.adjust_after(),
    };
    let weights = match weights.filter(|o| !o.is_none()) {
        Some(_) => weights_arg(weights)?,
        None => format.weights(),
    };
    let search = format.search();
    let lookahead = match lookahead {
        Some(name) => parse_lookahead(name)?,
        None => search.lookahead,
    };
    let blind = SearchOptions::BLIND_DEPTHS;
    let blind_depth = depth_in(
        "blind_depth",
        blind_depth,
        blind.clone(),
        search.blind_depth,
    )?;
    let blind_depth_29 = depth_in(
        "blind_depth_29",
        blind_depth_29,
        blind,
        search.blind_depth_29,
    )?;
    let depth = depth_in("depth", depth, SearchOptions::DEPTHS, search.depth)?;
    let blind_beam_29 = beam_in(blind_beam_29, search.blind_beam_29)?;
    let crash_mode = crate::options::parse_crash_mode(crash_mode)?;
    let limits = nestris_ai::Limits {
        max_frames: match max_frames.filter(|o| !o.is_none()) {
            Some(o) => int_in("max_frames", o, 1, i64::MAX)? as u64,
            None => nestris_ai::Limits::default().max_frames,
        },
        ..nestris_ai::Limits::default()
    };
    let threads = match threads.filter(|o| !o.is_none()) {
        Some(o) => int_in("threads", o, 1, 1024)? as usize,
        None => 0,
    };
    let config = BenchConfig {
        start_level,
        taps: Some(model.taps),
        reaction: model.reaction,
        adjust_after,
        games,
        uncapped,
        seeds,
        threads,
        weights,
        search: SearchOptions {
            crash_dodge,
            lookahead,
            blind_depth,
            blind_depth_29,
            depth,
            blind_beam_29,
            ..search
        },
        limits,
        crash_mode,
        format,
        ..BenchConfig::default()
    };
    let progress = progress.filter(|o| !o.is_none());
    if let Some(p) = progress {
        if !p.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "progress must be a callable progress(done, total) or None, got {}",
                type_name(p)
            )));
        }
    }
    let checkpoint = match checkpoint {
        Some(path) => Some(
            nestris_ai::checkpoint::CheckpointFile::open(&path, &config)
                .map_err(checkpoint_error)?,
        ),
        None => None,
    };
    let report = run_interruptibly(py, &config, progress, checkpoint.as_ref());
    // A failed write is reported even when the run stopped early.
    if let Some(c) = checkpoint {
        c.finish().map_err(checkpoint_error)?;
    }
    serde_json::to_string(&report?)
        .map_err(|e| crate::errors::NestrisError::new_err(format!("the report: {e}")))
}

/// Plays the benchmark on other threads while this one, the caller's, watches for Ctrl-C
/// (Python's signal handlers run only here) and calls `progress(done, total)` as games
/// end. On an interrupt, or an exception from `progress`, the games stop at their next
/// piece and the exception is raised.
fn run_interruptibly(
    py: Python<'_>,
    config: &nestris_ai::benchmark::BenchConfig,
    progress: Option<&Bound<'_, PyAny>>,
    checkpoint: Option<&nestris_ai::checkpoint::CheckpointFile>,
) -> PyResult<nestris_ai::benchmark::BenchReport> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    // Often enough for Ctrl-C to feel immediate, rarely enough to cost nothing.
    const POLL: std::time::Duration = std::time::Duration::from_millis(20);
    let stop = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let run = scope.spawn(|| {
            let done_before = checkpoint.map_or(&[][..], |c| &c.resumed.done[..]);
            nestris_ai::benchmark::run_resuming(
                config,
                &|n| done.store(n, Ordering::Relaxed),
                &stop,
                done_before,
                &|i, record, seconds| {
                    if let Some(c) = checkpoint {
                        c.add(i, record, seconds);
                    }
                },
            )
        });
        let mut shown = None;
        let watched = loop {
            let finished = run.is_finished();
            let n = done.load(Ordering::Relaxed);
            if let Some(p) = progress.filter(|_| shown != Some(n)) {
                shown = Some(n);
                if let Err(e) = p.call1((n, config.games)) {
                    break Err(e);
                }
            }
            if finished {
                break Ok(());
            }
            if let Err(e) = py.check_signals() {
                break Err(e);
            }
            py.detach(|| std::thread::sleep(POLL));
        };
        if watched.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        let report = py
            .detach(|| run.join())
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        watched?;
        report.ok_or_else(|| crate::errors::NestrisError::new_err("the benchmark stopped early"))
    })
}

/// A checkpoint that cannot be read or written: `OSError` for the file, `InvalidArgument`
/// for a file of other settings or damaged.
fn checkpoint_error(e: nestris_ai::checkpoint::CheckpointFileError) -> PyErr {
    use nestris_ai::checkpoint::CheckpointFileError;
    match e {
        CheckpointFileError::Io { .. } => pyo3::exceptions::PyOSError::new_err(e.to_string()),
        _ => crate::errors::invalid_argument(e.to_string()),
    }
}

/// The most games [`bench_json`] plays in the betatetris format.
const MAX_BENCH_GAMES: i64 = 100_000;
