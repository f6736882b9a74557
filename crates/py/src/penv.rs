//! `PlacementEnv`: the Rust half of the placement-level Gymnasium environment
//! (`nestris.env.NesTetrisPlacementEnv`). One call per step makes the placement, runs
//! the frames to the next piece, generates that piece's placements and builds the
//! observation and info.

use nestris_ai::MoveGen;
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyRuntimeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::env::feature_key;
use crate::options::Common;
use crate::placement::{check_action, desync_err, model_hz, parse_model, placement_config};
use nestris_env::obs::{self, COLS, HEIGHT, ROWS, WIDTH};
use nestris_env::placement::{PlacementConfig, PlacementEpisode, MAX_PLACEMENTS, PLACEMENT_COLS};
use nestris_env::ObsKind;
use nestris_env::Outcome;

fn slice_err(e: numpy::AsSliceError) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

/// An action mask and the placements' descriptions.
type ChoiceArrays<'py> = (Bound<'py, PyArray1<i8>>, Bound<'py, PyArray2<u8>>);

/// A new `(MAX_PLACEMENTS,)` int8 mask and `(MAX_PLACEMENTS, 3)` uint8 descriptions.
fn choice_arrays<'py>(py: Python<'py>, ep: &PlacementEpisode) -> PyResult<ChoiceArrays<'py>> {
    let mask = PyArray1::<i8>::zeros(py, MAX_PLACEMENTS, false);
    let places = PyArray2::<u8>::zeros(py, [MAX_PLACEMENTS, PLACEMENT_COLS], false);
    {
        let mut m = mask.try_readwrite()?;
        let mut p = places.try_readwrite()?;
        ep.write_choices(
            m.as_slice_mut().map_err(slice_err)?,
            p.as_slice_mut().map_err(slice_err)?,
        );
    }
    Ok((mask, places))
}

/// The `(n, 3)` uint8 descriptions of the n placements available now.
fn placements_array<'py>(
    py: Python<'py>,
    ep: &PlacementEpisode,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let n = ep.num_choices();
    let arr = PyArray2::<u8>::zeros(py, [n, PLACEMENT_COLS], false);
    {
        let mut rw = arr.try_readwrite()?;
        let out = rw.as_slice_mut().map_err(slice_err)?;
        for (row, c) in out.chunks_exact_mut(PLACEMENT_COLS).zip(&ep.choices) {
            row.copy_from_slice(&[c.o, c.x, c.y]);
        }
    }
    Ok(arr)
}

/// The observation: the frame-level one (board and features, or the picture) with,
/// for the board, the action mask and the placements' descriptions.
fn observation<'py>(
    py: Python<'py>,
    cfg: &PlacementConfig,
    ep: &PlacementEpisode,
) -> PyResult<Bound<'py, PyAny>> {
    let s = ep.game.state();
    match cfg.obs {
        ObsKind::Board => {
            let board = PyArray2::<u8>::zeros(py, [ROWS, COLS], false);
            {
                let mut rw = board.try_readwrite()?;
                obs::board(s, rw.as_slice_mut().map_err(slice_err)?);
            }
            let d = PyDict::new(py);
            d.set_item(intern!(py, "board"), board)?;
            for (i, v) in obs::feature_values(s).iter().enumerate() {
                d.set_item(feature_key(py, i), *v)?;
            }
            let (mask, places) = choice_arrays(py, ep)?;
            d.set_item(intern!(py, "action_mask"), mask)?;
            d.set_item(intern!(py, "placements"), places)?;
            Ok(d.into_any())
        }
        ObsKind::Pixels => {
            let arr = PyArray3::<u8>::zeros(py, [HEIGHT, WIDTH, 3], false);
            {
                let mut rw = arr.try_readwrite()?;
                obs::render(s, rw.as_slice_mut().map_err(slice_err)?);
            }
            Ok(arr.into_any())
        }
    }
}

/// The info dict of a step (or of a reset, with `res` empty).
fn info<'py>(
    py: Python<'py>,
    ep: &PlacementEpisode,
    res: &Outcome,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "score"), ep.score())?;
    d.set_item(intern!(py, "lines"), ep.lines())?;
    d.set_item(intern!(py, "level"), ep.game.state().level)?;
    d.set_item(intern!(py, "frames"), ep.frames)?;
    d.set_item(intern!(py, "step_frames"), res.frames)?;
    d.set_item(intern!(py, "events"), res.flags)?;
    d.set_item(intern!(py, "lines_cleared"), res.lines_cleared)?;
    d.set_item(intern!(py, "lag"), res.lag)?;
    d.set_item(intern!(py, "crashed"), ep.game.crashed().is_some())?;
    let (mask, places) = choice_arrays(py, ep)?;
    d.set_item(intern!(py, "action_mask"), mask)?;
    d.set_item(intern!(py, "placements"), places)?;
    d.set_item(intern!(py, "num_placements"), ep.num_choices())?;
    Ok(d)
}

/// The placement-level environment's engine side (see
/// ``nestris.env.NesTetrisPlacementEnv``).
///
/// ``PlacementEnv(start_level=None, region="ntsc", game_type="A", height=0, tap_hz=None,
/// reaction=0, das=False, soft_drop=False, reward="score", observation="board",
/// crash_mode="cartridge", music_type=3, format="cartridge", taps=None)``;
/// ``reset(seed)`` then ``step(action) -> (observation, reward, terminated, info)``.
/// Action i is the i-th placement of ``placements()`` (orientation, x, y), ordered by
/// orientation, then x, then y.
///
/// >>> import nestris
/// >>> core = nestris.PlacementEnv(start_level=18)
/// >>> obs, info = core.reset(7)
/// >>> n = core.num_placements
/// >>> info["num_placements"] == n == int(obs["action_mask"].sum()) == len(core.placements())
/// True
/// >>> obs, reward, terminated, info = core.step(0)
/// >>> info["events"] & nestris.Event.LOCKED != 0, core.episode_steps
/// (True, 1)
#[pyclass(module = "nestris._nestris", name = "PlacementEnv")]
#[derive(Debug)]
pub struct PlacementEnv {
    pub(crate) cfg: PlacementConfig,
    pub(crate) ep: PlacementEpisode,
    mg: MoveGen,
}

impl PlacementEnv {
    /// The running episode.
    pub fn episode(&self) -> &PlacementEpisode {
        &self.ep
    }
}

#[pymethods]
impl PlacementEnv {
    #[new]
    #[pyo3(
        signature = (start_level=None, region="ntsc", game_type="A", height=None, tap_hz=None, reaction=None, das=false, soft_drop=false, reward="score", observation="board", crash_mode="cartridge", music_type=None, format="cartridge", taps=None),
        text_signature = "(start_level=None, region=\"ntsc\", game_type=\"A\", height=0, tap_hz=None, reaction=0, das=False, soft_drop=False, reward=\"score\", observation=\"board\", crash_mode=\"cartridge\", music_type=3, format=\"cartridge\", taps=None)"
    )]
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per keyword of the Python constructor"
    )]
    fn py_new(
        py: Python<'_>,
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
        crash_mode: &str,
        music_type: Option<&Bound<'_, PyAny>>,
        format: &str,
        taps: Option<&str>,
    ) -> PyResult<Self> {
        let common = Common {
            start_level,
            region,
            game_type,
            height,
            reward,
            observation,
            max_episode_steps: None,
            crash_mode,
            music_type,
            format,
        };
        let model = parse_model(tap_hz, taps, reaction, das, soft_drop)?;
        let cfg = placement_config(py, &common, model)?;
        let mut mg = MoveGen::new();
        let ep = PlacementEpisode::new(&cfg, Some(0), &mut mg);
        Ok(PlacementEnv { cfg, ep, mg })
    }

    /// Starts a new game from ``seed``, runs it to its first piece and returns
    /// ``(observation, info)``; ``info`` holds ``seed``.
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: u64,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let cfg = &self.cfg;
        let (mg, ep) = (&mut self.mg, &mut self.ep);
        py.detach(|| ep.restart(cfg, Some(seed), mg));
        let inf = info(py, &self.ep, &Outcome::default())?;
        inf.set_item(intern!(py, "seed"), seed)?;
        Ok((observation(py, &self.cfg, &self.ep)?, inf))
    }

    /// Makes placement ``action`` (an index below ``num_placements``) and returns
    /// ``(observation, reward, terminated, info)``. ``InvalidArgument`` for an action
    /// the mask does not allow (nothing is stepped then).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, f64, bool, Bound<'py, PyDict>)> {
        let a = check_action(&self.ep, action_arg(action)?)?;
        let cfg = &self.cfg;
        let ep = &mut self.ep;
        let mg = &mut self.mg;
        let res = py.detach(|| ep.step(cfg, a, mg)).map_err(desync_err)?;
        Ok((
            observation(py, &self.cfg, &self.ep)?,
            res.reward,
            res.terminated,
            info(py, &self.ep, &res)?,
        ))
    }

    /// The current observation (a new one).
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        observation(py, &self.cfg, &self.ep)
    }

    /// The placements available now as a new ``(n, 3)`` ``uint8`` array of
    /// (orientation id, pivot column, pivot row); row i is action i.
    fn placements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        placements_array(py, &self.ep)
    }

    /// The action mask as a new ``(MAX_PLACEMENTS,)`` ``bool`` array (True for the
    /// actions available now).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let n = self.ep.num_choices();
        let v: Vec<bool> = (0..MAX_PLACEMENTS).map(|i| i < n).collect();
        PyArray1::from_vec(py, v)
    }

    /// The joypad bytes, one per frame, that action ``action`` presses (up to the frame
    /// in which the piece lands).
    fn placement_inputs(&self, action: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let a = check_action(&self.ep, action_arg(action)?)?;
        if self.ep.ended {
            return Ok(Vec::new());
        }
        Ok(self
            .ep
            .choice_inputs(a)
            .iter()
            .map(|b| u32::from(*b))
            .collect())
    }

    /// Frames from now until the piece of action ``action`` lands, and whether locking
    /// it there ends the game: ``(frames, tops_out)``.
    fn placement_info(&self, action: &Bound<'_, PyAny>) -> PyResult<(u32, bool)> {
        let a = check_action(&self.ep, action_arg(action)?)?;
        Ok(self
            .ep
            .choices
            .get(a)
            .map_or((0, false), |c| (u32::from(c.frames), c.tops_out)))
    }

    /// The play screen as a new 240x256x3 ``uint8`` array.
    fn render<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let arr = PyArray3::<u8>::zeros(py, [HEIGHT, WIDTH, 3], false);
        {
            let mut rw = arr.try_readwrite()?;
            obs::render(self.ep.game.state(), rw.as_slice_mut().map_err(slice_err)?);
        }
        Ok(arr)
    }

    /// Number of placements available now (0 once the game has ended).
    #[getter]
    fn num_placements(&self) -> usize {
        self.ep.num_choices()
    }

    /// The current piece had more than ``MAX_PLACEMENTS`` placements (the last ones in
    /// the order were left out).
    #[getter]
    fn overflowed(&self) -> bool {
        self.ep.overflowed
    }

    /// The input model: ``{"tap_hz", "tap_interval", "taps", "reaction", "das", "soft_drop"}``.
    #[getter]
    fn input_model<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        model_dict(py, &self.cfg.model)
    }
}

/// An action as Python passed it: an int (any size: out-of-range ones are reported by
/// [`check_action`]), else `TypeError`.
fn action_arg(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    crate::batch::action_int(obj)
}

/// An input model as a dict.
pub fn model_dict<'py>(
    py: Python<'py>,
    m: &nestris_ai::InputModel,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("tap_hz", model_hz(m))?;
    d.set_item("tap_interval", m.taps.interval())?;
    d.set_item("taps", m.taps.to_string())?;
    d.set_item("reaction", m.reaction)?;
    d.set_item("das", m.das)?;
    d.set_item("soft_drop", m.soft_drop)?;
    Ok(d)
}

crate::common::episode_getters!(PlacementEnv);
