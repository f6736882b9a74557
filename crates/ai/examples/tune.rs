//! Tunes the evaluation weights by the cross-entropy method and prints the best as TOML.
//!
//! ```console
//! cargo run --release -p nestris-ai --example tune -- \
//!     [--iterations 10] [--population 16] [--elite 0.25] [--games 8] [--level 18] \
//!     [--hz 30] [--threads 0] [--max-frames N] [--max-lines 230] [--from FILE.toml] \
//!     [--spread 0.3] [--seed-offset N] [--no-line-limit] [--third N] [--seed N] [--objective uncapped|score|lines] [--out FILE.toml] [--history FILE.json]
//! ```

use nestris_ai::tune::{tune, Objective, TuneConfig};
use nestris_ai::WeightSet;
use std::time::Instant;

fn main() {
    let mut config = TuneConfig::default();
    let (mut out, mut history_path) = (None, None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--iterations" => config.iterations = val().parse().expect("a count"),
            "--population" => config.population = val().parse().expect("a count"),
            "--elite" => config.elite = val().parse().expect("a fraction"),
            "--games" => config.games = val().parse().expect("a count"),
            "--level" => config.start_level = val().parse().expect("a level"),
            "--hz" => config.tap_hz = val().parse().expect("a tap rate"),
            "--threads" => config.threads = val().parse().expect("a count"),
            "--max-frames" => config.limits.max_frames = val().parse().expect("frames"),
            "--max-lines" => config.limits.max_lines = val().parse().expect("lines"),
            "--spread" => config.spread = val().parse().expect("a fraction"),
            "--seed" => config.rng_seed = val().parse().expect("a number"),
            "--seed-offset" => {
                let skip: usize = val().parse().expect("a count");
                config.seeds.0.drain(..skip);
            }
            "--no-line-limit" => config.limits.max_lines = 0,
            "--third" => config.search.third = val().parse().expect("a count"),
            "--objective" => {
                config.objective = match val().as_str() {
                    "uncapped" => Objective::UncappedScore,
                    "score" => Objective::Score,
                    "lines" => Objective::Lines,
                    o => panic!("unknown objective {o}"),
                }
            }
            "--from" => config.initial = WeightSet::load(val()).unwrap_or_else(|e| panic!("{e}")),
            "--out" => out = Some(val()),
            "--history" => history_path = Some(val()),
            _ => panic!("unknown argument {a}"),
        }
    }
    let per_iteration = config.population * config.games;
    let t0 = Instant::now();
    let (best, history) = tune(&config, &|done| {
        if done % per_iteration == 0 {
            eprintln!(
                "iteration {} done, {:.0} s",
                done / per_iteration,
                t0.elapsed().as_secs_f64()
            );
        }
    });
    for g in &history {
        eprintln!(
            "iteration {:2}: mean {:10.0}  population {:10.0}  elite {:10.0}  best {:10.0}",
            g.iteration, g.mean_fitness, g.population_fitness, g.elite_fitness, g.best_fitness
        );
    }
    let text = best.to_toml();
    print!("{text}");
    if let Some(path) = out {
        std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    if let Some(path) = history_path {
        std::fs::write(&path, serde_json::to_string_pretty(&history).unwrap())
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}
