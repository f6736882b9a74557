//! Tuning the evaluation weights by the cross-entropy method.
//!
//! Each iteration draws a population of weight vectors from independent normal
//! distributions around the current mean (the first candidate is the mean itself),
//! plays every candidate on the same fixed seeds (common random numbers: the candidates
//! differ only in their weights), and moves the mean and spread to those of the elite,
//! the best fraction of the population. A little noise is added to the spread so that
//! it does not collapse early. The best candidate ever seen is returned, with one
//! [`Generation`] record per iteration.
//!
//! Games run in parallel like the benchmark's, and everything is deterministic for a
//! given [`TuneConfig`], whatever the number of threads.
//!
//! A tune takes hours; [`tune_from`] hands its state to the caller after each iteration
//! ([`TuneState`]) and goes on from such a state, to the same result as a run never
//! stopped. [`checkpoint_text`] and [`read_checkpoint`] keep it as JSON
//! (`nestris ai tune --checkpoint FILE`), every number that decides what comes next as
//! its bits.
//!
//! One [`Bracket`] of a [`WeightSet`] is tuned at a time ([`TuneConfig::bracket`]), the
//! others kept as [`TuneConfig::initial`] has them; with [`TuneConfig::start_level`] at
//! the bracket's first level the games are played where it applies. In a format that
//! deals TetrisGYM seeds the games are dealt by seeds of BetaTetris's draw that come
//! after the first [`TuneConfig::held_out`], so that a benchmark of up to that many games
//! judges the result on games it was not tuned on.
//!
//! ```no_run
//! use nestris_ai::player::Limits;
//! use nestris_ai::tune::{tune, TuneConfig};
//!
//! let config = TuneConfig {
//!     iterations: 3,
//!     population: 8,
//!     games: 2,
//!     limits: Limits { max_frames: 10_000, ..Limits::default() },
//!     ..TuneConfig::default()
//! };
//! let (best, history) = tune(&config, &|_games_done| {});
//! println!("{}", best.to_toml());
//! assert_eq!(history.len(), 3);
//! ```

use crate::benchmark::BenchConfig;
use crate::benchmark::SeedList;
use crate::eval::{Bracket, WeightSet, Weights};
use crate::format::{betatetris_seeds, Format};
use crate::player::{play_from, End, GameResult, Limits};
use crate::search::SearchOptions;
use nestris_core::Game;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// What a candidate is scored on: the mean over its games of this quantity.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum Objective {
    /// The cartridge's score (capped at 999,999).
    Score,
    /// The score without the cap.
    #[default]
    UncappedScore,
    /// Lines cleared.
    Lines,
}

impl Objective {
    /// The value of one game.
    pub fn of(&self, r: &GameResult) -> f64 {
        match self {
            Objective::Score => r.score as f64,
            Objective::UncappedScore => r.uncapped_score as f64,
            Objective::Lines => r.lines as f64,
        }
    }
}

/// What to tune and how.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct TuneConfig {
    /// Iterations of the method.
    pub iterations: usize,
    /// Candidates per iteration (the first is the current mean).
    pub population: usize,
    /// Fraction of the population that forms the elite (at least 2 candidates).
    pub elite: f64,
    /// Games per candidate: the first `games` seeds of `seeds`, the same for all.
    pub games: usize,
    /// Level the games start at.
    pub start_level: u8,
    /// Tapping rate (30, 20, 15, 12 Hz; see [`BenchConfig::tap_interval`]).
    pub tap_hz: u8,
    /// When taps may come, if not at `tap_hz` ([`BenchConfig::taps`]).
    pub taps: Option<crate::TapPattern>,
    /// Frames without input after each spawn.
    pub reaction: u8,
    /// The community's reaction model ([`BenchConfig::adjust_after`]).
    pub adjust_after: Option<u8>,
    /// The format of play ([`BenchConfig::format`]); a game started past the format's
    /// start level has the lines the format's game has there ([`Format::lines_at`]).
    pub format: Format,
    /// In a format dealt by TetrisGYM seeds: the games use BetaTetris's seeds after this
    /// many (the benchmark's games are its first ones, so they are not tuned on).
    pub held_out: usize,
    /// The bracket whose weights are tuned; the others stay as in `initial`.
    pub bracket: Bracket,
    /// In a format with a start level of its own, below `start_level`: start each game
    /// where the format's game reaches `start_level` when played from the format's start
    /// with `initial` (so the bracket is tuned on the fields it really meets, not on an
    /// empty one); seeds whose game tops out before are skipped, and the games are the
    /// first `games` that get there, of up to twice as many seeds.
    pub warm_start: bool,
    /// The seeds.
    pub seeds: SeedList,
    /// Worker threads; 0 uses every core.
    pub threads: usize,
    /// When a game stops (short games make a fast tune).
    pub limits: Limits,
    /// What is maximised.
    pub objective: Objective,
    /// Added to the objective of each game that reaches `limits.max_lines` (it neither
    /// topped out nor stopped otherwise): what getting there is worth beyond it, so that
    /// a short tune does not buy score with games lost (for the score before level 19,
    /// about the mean score a game makes after it).
    pub survival_bonus: f64,
    /// The weights: the tuned bracket's set is the mean of the first iteration.
    pub initial: WeightSet,
    /// The first spread of each weight, as a fraction of its size.
    pub spread: f32,
    /// The least spread of each weight, and the noise added to it every iteration.
    pub min_spread: f32,
    /// Seed of the sampling.
    pub rng_seed: u64,
    /// Search settings of the player.
    pub search: SearchOptions,
}

impl Default for TuneConfig {
    /// 10 iterations of 16 candidates, elite 25%, 8 games each from level 18 at 30 Hz up
    /// to 230 lines (the level-29 transition), uncapped score, from the default weights.
    fn default() -> Self {
        TuneConfig {
            iterations: 10,
            population: 16,
            elite: 0.25,
            games: 8,
            start_level: 18,
            tap_hz: 30,
            taps: None,
            reaction: 0,
            adjust_after: None,
            format: Format::Cartridge,
            held_out: 1000,
            bracket: Bracket::Base,
            warm_start: false,
            seeds: SeedList::standard(),
            threads: 0,
            limits: Limits {
                max_lines: 230,
                ..Limits::default()
            },
            objective: Objective::UncappedScore,
            survival_bonus: 0.0,
            initial: WeightSet::default(),
            spread: 0.3,
            min_spread: 0.05,
            rng_seed: 1,
            search: SearchOptions::default(),
        }
    }
}

/// One iteration of a tune.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    /// Iteration number, from 0.
    pub iteration: usize,
    /// Fitness of the iteration's mean (its first candidate).
    pub mean_fitness: f64,
    /// Mean fitness over the population.
    pub population_fitness: f64,
    /// Mean fitness over the elite.
    pub elite_fitness: f64,
    /// Best fitness of the iteration.
    pub best_fitness: f64,
    /// The iteration's best candidate.
    pub best: Weights,
    /// The mean the iteration sampled around.
    pub mean: Weights,
    /// The spread it sampled with.
    pub sigma: Weights,
}

/// A small deterministic generator (splitmix64) with normal samples.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1].
    fn unit(&mut self) -> f64 {
        ((self.next() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box-Muller).
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.unit(), self.unit());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// Runs the cross-entropy method on [`TuneConfig::bracket`]. `progress` gets the number
/// of games played so far (over all iterations) after each game. Returns the best set
/// found (`initial` with the best candidate in the tuned bracket) and the history of the
/// iterations (the tuned bracket's weights).
///
/// # Panics
///
/// If `config.games` is more than the seed list holds.
pub fn tune(
    config: &TuneConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> (WeightSet, Vec<Generation>) {
    tune_from(config, None, progress, &mut |_| {})
}

/// The weights the cross-entropy method samples with, as an array
/// ([`Weights::to_array`]).
type Vector = [f32; Weights::COUNT];

/// Where a tune stands after its last whole iteration: what [`tune_from`] goes on from.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneState {
    /// The iterations done.
    pub history: Vec<Generation>,
    /// The mean and the spread the next iteration samples with.
    mean: Vector,
    sigma: Vector,
    /// The sampler's state.
    rng: u64,
}

impl TuneState {
    /// The state before a tune's first iteration: its mean the tuned bracket's set in
    /// [`TuneConfig::initial`].
    pub fn start(config: &TuneConfig) -> TuneState {
        let mean = config.initial.get(config.bracket).to_array();
        TuneState {
            history: Vec::new(),
            sigma: mean.map(|w| (w.abs() * config.spread).max(config.min_spread)),
            mean,
            rng: config.rng_seed,
        }
    }
}

/// [`tune`], going on from `resume` (a state `on_iteration` was given by a run of the same
/// configuration; its iterations are not played again) and handing `on_iteration` the
/// state after each iteration it plays. The result is the one [`tune`] gives: a state that
/// holds more iterations than `config.iterations` gives its first ones.
///
/// # Panics
///
/// If `config.games` is more than the seed list holds.
pub fn tune_from(
    config: &TuneConfig,
    resume: Option<TuneState>,
    progress: &(dyn Fn(usize) + Sync),
    on_iteration: &mut dyn FnMut(&TuneState),
) -> (WeightSet, Vec<Generation>) {
    assert!(
        config.games <= config.seeds.len(),
        "{} games asked for, {} seeds in the list",
        config.games,
        config.seeds.len()
    );
    let mut state = resume.unwrap_or_else(|| TuneState::start(config));
    state.history.truncate(config.iterations);
    if state.history.len() < config.iterations {
        play(config, &mut state, progress, on_iteration);
    }
    // The best candidate of any iteration, the first of equals.
    let mut best: Option<&Generation> = None;
    for g in &state.history {
        if best.is_none_or(|b| g.best_fitness > b.best_fitness) {
            best = Some(g);
        }
    }
    let best = best.map_or(config.initial, |g| set_with(config, &g.best));
    (best, state.history)
}

/// [`TuneConfig::initial`] with its tuned bracket's tuned weights those of `w` (a
/// generation's best or mean): what the tune writes for it. The bracket keeps its
/// untuned weight (the risk table's), which a generation's record does not hold.
pub fn set_with(config: &TuneConfig, w: &Weights) -> WeightSet {
    with(config, &w.to_array())
}

/// `config`'s tuned bracket set to the candidate `c` in [`TuneConfig::initial`].
fn with(config: &TuneConfig, c: &Vector) -> WeightSet {
    let mut set = config.initial;
    // (The risk table's weight is not tuned: the bracket keeps its own.)
    let risk = config.initial.get(config.bracket).risk;
    set.set(
        config.bracket,
        Weights {
            risk,
            ..Weights::from_array(*c)
        },
    );
    set
}

/// Plays [`tune_from`]'s iterations after those `state` holds, up to `config.iterations`.
fn play(
    config: &TuneConfig,
    state: &mut TuneState,
    progress: &(dyn Fn(usize) + Sync),
    on_iteration: &mut dyn FnMut(&TuneState),
) {
    const N: usize = Weights::COUNT;
    let bench = BenchConfig {
        start_level: config.start_level,
        tap_hz: config.tap_hz,
        taps: config.taps,
        reaction: config.reaction,
        adjust_after: config.adjust_after,
        games: config.games,
        uncapped: false,
        seeds: config.seeds.first(config.games * 2),
        threads: config.threads,
        weights: config.initial,
        search: config.search,
        limits: config.limits,
        // Tuning plays by the cartridge's rules, with the music off so that they apply
        // without a ROM.
        crash_mode: nestris_core::CrashMode::Cartridge,
        music_type: 3,
        cartridge: None,
        format: config.format,
    };
    // The Gym seeds after the held-out ones, where the format deals them.
    let gym_seeds = match config.format {
        Format::Cartridge => None,
        Format::Betatetris => Some(
            betatetris_seeds(config.held_out + 2 * config.games, 0)[config.held_out..].to_vec(),
        ),
    };
    let starts = start_games(config, &bench, gym_seeds.as_deref());
    let games = starts.len();
    let population = config.population.max(2);
    let n_elite = ((population as f64 * config.elite).round() as usize).clamp(2, population);
    let mut rng = Rng(state.rng);
    for iteration in state.history.len()..config.iterations {
        let (mean, sigma) = (state.mean, state.sigma);
        let candidates: Vec<Vector> = (0..population)
            .map(|c| {
                if c == 0 {
                    mean
                } else {
                    std::array::from_fn(|i| mean[i] + sigma[i] * rng.normal() as f32)
                }
            })
            .collect();
        let done_before = iteration * population * games;
        let scores = nestris_sim::pool::map(
            population * games,
            config.threads,
            || bench.ai(),
            |ai, job| {
                let (c, g) = (job / games, job % games);
                ai.search_mut().weights = with(config, &candidates[c]);
                let game = starts[g].clone();
                let r = play_from(game, ai, &config.limits, false);
                let bonus = if r.end == End::Lines {
                    config.survival_bonus
                } else {
                    0.0
                };
                config.objective.of(&r) + bonus
            },
            &|done| progress(done_before + done),
        );
        let mut fitness: Vec<(f64, usize)> = (0..population)
            .map(|c| {
                let s = &scores[c * games..(c + 1) * games];
                (s.iter().sum::<f64>() / games.max(1) as f64, c)
            })
            .collect();
        // Best first; ties keep the lower index (the mean before a sample).
        fitness.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let elite: Vec<&Vector> = fitness[..n_elite]
            .iter()
            .map(|&(_, c)| &candidates[c])
            .collect();
        let (top, top_c) = fitness[0];
        state.history.push(Generation {
            iteration,
            mean_fitness: fitness.iter().find(|f| f.1 == 0).map_or(0.0, |f| f.0),
            population_fitness: fitness.iter().map(|f| f.0).sum::<f64>() / population as f64,
            elite_fitness: fitness[..n_elite].iter().map(|f| f.0).sum::<f64>() / n_elite as f64,
            best_fitness: top,
            best: Weights::from_array(candidates[top_c]),
            mean: Weights::from_array(mean),
            sigma: Weights::from_array(sigma),
        });
        for i in 0..N {
            let m = elite.iter().map(|c| c[i] as f64).sum::<f64>() / n_elite as f64;
            let var = elite.iter().map(|c| (c[i] as f64 - m).powi(2)).sum::<f64>() / n_elite as f64;
            state.mean[i] = m as f32;
            state.sigma[i] = ((var + (config.min_spread as f64).powi(2)).sqrt()) as f32;
        }
        state.rng = rng.0;
        on_iteration(state);
    }
}

/// The first key of a tune's checkpoint, and the format of the rest.
const CHECKPOINT_VERSION: u64 = 1;

/// Why a tune's checkpoint was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TuneCheckpointError {
    /// Not a checkpoint of `ai tune` in this format.
    #[error("it is not a checkpoint of `nestris ai tune` (remove it to start a new one)")]
    NotACheckpoint,
    /// Made by other settings: the top-level ones that differ.
    #[error("it is of another tune (differs in: {0}); give the same settings, or another file")]
    OtherConfiguration(String),
    /// Readable, but not a state a tune leaves.
    #[error("it is damaged: {0}")]
    Damaged(&'static str),
}

/// The configuration as a checkpoint names it: every setting that decides the iterations
/// (not their number, nor the threads).
fn identity(config: &TuneConfig) -> String {
    let mut c = config.clone();
    c.iterations = 0;
    c.threads = 0;
    serde_json::to_value(&c).unwrap_or(Value::Null).to_string()
}

/// The bits of a vector, for JSON.
fn bits(v: &Vector) -> Vec<u32> {
    v.iter().map(|w| w.to_bits()).collect()
}

/// `N` numbers from a JSON array of their bits, each read by `number` (`None` for bits
/// that are not one a tune makes).
fn from_bits_with<T: Copy + Default, const N: usize>(
    v: &Value,
    number: impl Fn(u64) -> Option<T>,
) -> Option<[T; N]> {
    let a = v.as_array().filter(|a| a.len() == N)?;
    let mut out = [T::default(); N];
    for (o, x) in out.iter_mut().zip(a) {
        *o = number(x.as_u64()?)?;
    }
    Some(out)
}

/// A vector from its bits: `None` unless there are [`Weights::COUNT`] of them, each a
/// finite number (as a tune makes them).
fn from_bits(v: &Value) -> Option<Vector> {
    from_bits_with(v, |b| {
        Some(f32::from_bits(u32::try_from(b).ok()?)).filter(|w| w.is_finite())
    })
}

/// The text of a checkpoint of `config`'s tune at `state` (one JSON object).
pub fn checkpoint_text(config: &TuneConfig, state: &TuneState) -> String {
    let history: Vec<Value> = state
        .history
        .iter()
        .map(|g| {
            let fitness = [
                g.mean_fitness,
                g.population_fitness,
                g.elite_fitness,
                g.best_fitness,
            ]
            .map(f64::to_bits);
            json!({
                "iteration": g.iteration,
                "fitness": fitness,
                "best": bits(&g.best.to_array()),
                "mean": bits(&g.mean.to_array()),
                "sigma": bits(&g.sigma.to_array()),
            })
        })
        .collect();
    json!({
        "nestris_tune_checkpoint": CHECKPOINT_VERSION,
        "config": identity(config),
        "weights": Weights::NAMES,
        "rng": state.rng,
        "mean": bits(&state.mean),
        "sigma": bits(&state.sigma),
        "history": history,
    })
    .to_string()
        + "\n"
}

/// Reads a checkpoint's text for a tune of `config`.
pub fn read_checkpoint(text: &str, config: &TuneConfig) -> Result<TuneState, TuneCheckpointError> {
    use TuneCheckpointError::{Damaged, NotACheckpoint, OtherConfiguration};
    let v: Value = serde_json::from_str(text).map_err(|_| NotACheckpoint)?;
    if v.get("nestris_tune_checkpoint").and_then(Value::as_u64) != Some(CHECKPOINT_VERSION) {
        return Err(NotACheckpoint);
    }
    let theirs = v["config"].as_str().ok_or(Damaged("no settings"))?;
    let ours = identity(config);
    if theirs != ours {
        return Err(OtherConfiguration(crate::checkpoint::differences(
            theirs, &ours,
        )));
    }
    if v["weights"] != json!(Weights::NAMES) {
        return Err(Damaged("the weights are not this build's"));
    }
    let fitness = |g: &Value| -> Option<[f64; 4]> {
        from_bits_with(&g["fitness"], |b| {
            Some(f64::from_bits(b)).filter(|f| f.is_finite())
        })
    };
    let mut history = Vec::new();
    for (k, g) in v["history"]
        .as_array()
        .ok_or(Damaged("no history"))?
        .iter()
        .enumerate()
    {
        if g["iteration"].as_u64() != Some(k as u64) {
            return Err(Damaged("the iterations are not numbered in order"));
        }
        let f = fitness(g).ok_or(Damaged("an iteration's fitness"))?;
        let vector = |key| from_bits(&g[key]).ok_or(Damaged("an iteration's weights"));
        history.push(Generation {
            iteration: k,
            mean_fitness: f[0],
            population_fitness: f[1],
            elite_fitness: f[2],
            best_fitness: f[3],
            best: Weights::from_array(vector("best")?),
            mean: Weights::from_array(vector("mean")?),
            sigma: Weights::from_array(vector("sigma")?),
        });
    }
    Ok(TuneState {
        history,
        mean: from_bits(&v["mean"]).ok_or(Damaged("the mean"))?,
        sigma: from_bits(&v["sigma"]).ok_or(Damaged("the spread"))?,
        rng: v["rng"].as_u64().ok_or(Damaged("the sampler"))?,
    })
}

/// The games the candidates play: from the setups, or warm-started (see
/// [`TuneConfig::warm_start`]).
fn start_games(config: &TuneConfig, bench: &BenchConfig, gym_seeds: Option<&[u32]>) -> Vec<Game> {
    let from = config
        .format
        .start_level()
        .filter(|&l| l < config.start_level);
    let (Some(from), true) = (from, config.warm_start) else {
        return (0..config.games)
            .map(|g| bench.game_of(&bench.seeds.0[g], gym_seeds.map(|s| s[g])))
            .collect();
    };
    let lines = config.format.lines_at(config.start_level).unwrap_or(0) as u32;
    let prefix = BenchConfig {
        start_level: from,
        ..bench.clone()
    };
    let limits = Limits {
        max_lines: lines,
        ..Limits::default()
    };
    let tries = (2 * config.games).min(gym_seeds.map_or(bench.seeds.len(), |s| s.len()));
    let played = nestris_sim::pool::map(
        tries,
        config.threads,
        || prefix.ai(),
        |ai, g| {
            let game = prefix.game_of(
                &bench.seeds.0[g % bench.seeds.len()],
                gym_seeds.map(|s| s[g]),
            );
            let r = play_from(game, ai, &limits, false);
            (r.lines >= lines && r.end != End::TopOut).then_some(r.game)
        },
        &|_| {},
    );
    played.into_iter().flatten().take(config.games).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(threads: usize) -> TuneConfig {
        TuneConfig {
            iterations: 2,
            population: 4,
            elite: 0.5,
            games: 2,
            threads,
            limits: Limits::frames(700),
            objective: Objective::Score,
            search: SearchOptions {
                beam: 6,
                third: 0,
                ..SearchOptions::default()
            },
            ..TuneConfig::default()
        }
    }

    #[test]
    fn a_tiny_tune_runs_and_does_not_depend_on_threads() {
        let (w1, h1) = tune(&tiny(1), &|_| {});
        let (w3, h3) = tune(&tiny(3), &|_| {});
        assert_eq!(h1.len(), 2);
        assert_eq!(w1, w3);
        for (a, b) in h1.iter().zip(&h3) {
            assert_eq!(a.best_fitness, b.best_fitness);
            assert_eq!(a.mean, b.mean);
        }
        // The first mean is the starting point; the best is at least as good as it.
        assert_eq!(h1[0].mean, Weights::default());
        assert_eq!(w1.brackets, [None; 3], "the base set tuned");
        assert!(h1.iter().all(|g| g.best_fitness >= g.mean_fitness));
        assert!(h1[1].sigma != h1[0].sigma);
    }

    #[test]
    fn a_written_mean_keeps_the_bracket_s_risk_weight() {
        // `--keep mean` writes a generation's mean, whose record holds the tuned weights
        // alone: the bracket's risk weight comes from the initial set, as for the best.
        let mut initial = WeightSet::from(Weights::default());
        initial.set(
            Bracket::Level29,
            Weights {
                risk: -75.0,
                ..Weights::default()
            },
        );
        let config = TuneConfig {
            bracket: Bracket::Level29,
            initial,
            ..tiny(1)
        };
        let mean = Weights {
            holes: -3.0,
            ..Weights::default()
        };
        let set = set_with(&config, &mean);
        assert_eq!(set.get(Bracket::Level29).risk, -75.0);
        assert_eq!(set.get(Bracket::Level29).holes, -3.0);
        assert_eq!(*set.get(Bracket::Base), Weights::default());
    }

    #[test]
    fn a_tune_stopped_part_way_goes_on_to_the_same_result() {
        let whole = TuneConfig {
            iterations: 3,
            ..tiny(2)
        };
        let (w, h) = tune(&whole, &|_| {});
        // Stopped after its first iteration, the state kept as text.
        let mut text = String::new();
        let first = TuneConfig {
            iterations: 1,
            ..whole.clone()
        };
        let (_, h1) = tune_from(&first, None, &|_| {}, &mut |s| {
            text = checkpoint_text(&first, s)
        });
        assert_eq!(h1[..], h[..1]);
        let state = read_checkpoint(&text, &whole).expect("its own checkpoint reads");
        assert_eq!(state.history, h1);
        // Gone on from it: the games played are the two iterations left, and the result
        // is the whole run's, bit for bit.
        let played = std::sync::atomic::AtomicUsize::new(usize::MAX);
        let mut states = Vec::new();
        let (w2, h2) = tune_from(
            &whole,
            Some(state),
            &|n| {
                played.fetch_min(n, std::sync::atomic::Ordering::Relaxed);
            },
            &mut |s| states.push(s.history.len()),
        );
        assert_eq!((w2, &h2), (w, &h));
        assert_eq!(states, [2, 3]);
        assert!(
            played.into_inner() > 4 * 2,
            "the first iteration's games not replayed"
        );
        // A state with more iterations than asked for gives the first ones.
        let mut last = None;
        tune_from(&whole, None, &|_| {}, &mut |s| last = Some(s.clone()));
        let (w1, h1b) = tune_from(&first, last, &|_| {}, &mut |_| panic!("nothing to play"));
        assert_eq!((w1, h1b), tune(&first, &|_| {}));
    }

    #[test]
    fn a_checkpoint_of_another_tune_or_damaged_is_refused() {
        let config = tiny(1);
        let state = TuneState {
            history: Vec::new(),
            mean: Weights::default().to_array(),
            sigma: [0.5; Weights::COUNT],
            rng: 7,
        };
        let text = checkpoint_text(&config, &state);
        assert_eq!(read_checkpoint(&text, &config), Ok(state));
        // The threads and the number of iterations may change; nothing else.
        let more = TuneConfig {
            iterations: 9,
            threads: 3,
            ..config.clone()
        };
        assert!(read_checkpoint(&text, &more).is_ok());
        let other = TuneConfig {
            rng_seed: 2,
            games: 3,
            ..config.clone()
        };
        let e = read_checkpoint(&text, &other).unwrap_err();
        assert_eq!(
            e,
            TuneCheckpointError::OtherConfiguration("games, rng_seed".into())
        );
        for bad in [
            "",
            "{}",
            "[1]",
            "{\"nestris_tune_checkpoint\": 2}",
            &text[..text.len() / 2],
        ] {
            assert_eq!(
                read_checkpoint(bad, &config),
                Err(TuneCheckpointError::NotACheckpoint),
                "{bad}"
            );
        }
        let damaged = text.replace("\"rng\":7", "\"rng\":-7");
        assert!(matches!(
            read_checkpoint(&damaged, &config),
            Err(TuneCheckpointError::Damaged(_))
        ));
        let short = text.replacen("\"mean\":[", "\"mean\":[1,", 1);
        assert_eq!(
            read_checkpoint(&short, &config),
            Err(TuneCheckpointError::Damaged("the mean"))
        );
        // Not a number (found by the fuzz target: it would not equal itself either).
        let nan = text.replacen(
            "\"sigma\":[",
            &format!("\"sigma\":[{},", f32::NAN.to_bits()),
            1,
        );
        let nan = nan.replacen(&format!(",{}]", 0.5f32.to_bits()), "]", 1);
        assert_eq!(
            read_checkpoint(&nan, &config),
            Err(TuneCheckpointError::Damaged("the spread"))
        );
        // Every error is one line.
        for e in [
            read_checkpoint("", &config),
            read_checkpoint(&text, &other),
            read_checkpoint(&damaged, &config),
        ] {
            assert!(!e.unwrap_err().to_string().contains('\n'));
        }
    }

    #[test]
    fn the_survival_bonus_counts_the_games_that_reach_the_line_limit() {
        let config = |bonus: f64| TuneConfig {
            iterations: 1,
            limits: Limits {
                max_frames: 6_000,
                max_lines: 1,
                ..Limits::default()
            },
            survival_bonus: bonus,
            ..tiny(2)
        };
        let (_, plain) = tune(&config(0.0), &|_| {});
        let (_, bonus) = tune(&config(1e7), &|_| {});
        // Both games of the mean reach their first line: each gains the bonus.
        assert_eq!(bonus[0].mean_fitness - plain[0].mean_fitness, 1e7);
        // Stopped by the frame limit before any line: no bonus.
        let mut early = config(1e7);
        early.limits.max_frames = 100;
        let (_, short) = tune(&early, &|_| {});
        assert!(short[0].mean_fitness < 1e7);
    }

    #[test]
    fn a_bracket_is_tuned_alone_where_it_applies() {
        let config = TuneConfig {
            format: Format::Betatetris,
            adjust_after: Some(18),
            start_level: 39,
            bracket: Bracket::DoubleKillscreen,
            limits: Limits::frames(400),
            ..tiny(2)
        };
        let (set, history) = tune(&config, &|_| {});
        assert_eq!(set.base, Weights::default(), "the base set is kept");
        assert_eq!(set.brackets[..2], [None, None]);
        assert!(set.brackets[2].is_some());
        // The games are played under the double killscreen: the candidates differ there.
        assert!(history[0].best_fitness >= history[0].mean_fitness);
        let bench = BenchConfig {
            format: Format::Betatetris,
            start_level: 39,
            ..BenchConfig::default()
        };
        let g = bench.game_of(&SeedList::standard().0[0], Some(0x123456));
        assert_eq!((g.state().level, g.state().lines), (39, [0x30, 0x03]));
    }

    #[test]
    fn a_warm_start_begins_where_the_format_s_game_gets_to() {
        let config = TuneConfig {
            format: Format::Betatetris,
            adjust_after: Some(18),
            start_level: 19,
            warm_start: true,
            games: 2,
            threads: 2,
            search: SearchOptions {
                beam: 6,
                third: 0,
                ..SearchOptions::default()
            },
            ..TuneConfig::default()
        };
        let bench = BenchConfig {
            format: Format::Betatetris,
            adjust_after: Some(18),
            start_level: 19,
            search: config.search,
            ..BenchConfig::default()
        };
        let gym = betatetris_seeds(1004, 0)[1000..].to_vec();
        let starts = start_games(&config, &bench, Some(&gym));
        assert_eq!(starts.len(), 2);
        for g in &starts {
            let s = g.state();
            assert!(s.level == 19 && nestris_core::bcd::lines_value(s.lines) >= 130);
            // Not an empty field: the game played there.
            assert!(s
                .playfield
                .0
                .iter()
                .any(|&c| c != nestris_core::tables::TILE_EMPTY));
        }
        // Cold, the games start at the level with the format's lines and nothing else.
        let cold = start_games(
            &TuneConfig {
                warm_start: false,
                ..config
            },
            &bench,
            Some(&gym),
        );
        assert_eq!(cold[0].state().lines, [0x30, 0x01]);
    }

    #[test]
    fn normal_samples_look_normal() {
        let mut r = Rng(7);
        let xs: Vec<f64> = (0..20_000).map(|_| r.normal()).collect();
        let m = xs.iter().sum::<f64>() / xs.len() as f64;
        let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / xs.len() as f64;
        assert!(m.abs() < 0.03 && (v - 1.0).abs() < 0.05, "mean {m} var {v}");
    }
}
