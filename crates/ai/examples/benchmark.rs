//! The standard benchmark from the command line.
//!
//! ```console
//! cargo run --release -p nestris-ai --example benchmark -- \
//!     [--level 18] [--hz 30] [--reaction 0] [--games 100] [--threads 0] \
//!     [--weights FILE.toml] [--max-frames N] [--max-lines N] [--no-level-wrap-stop] [--beam N] [--third N] [--uncapped] [--json FILE] [--games-list]
//! ```
//!
//! Prints the summary (and with `--games-list` one line per game); `--json` writes the
//! whole report.

use nestris_ai::benchmark::{run, BenchConfig};
use nestris_ai::WeightSet;
use std::sync::atomic::{AtomicUsize, Ordering};

fn main() {
    let mut config = BenchConfig::default();
    let mut json = None;
    let mut list = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--level" => config.start_level = val().parse().expect("a level"),
            "--hz" => config.tap_hz = val().parse().expect("a tap rate"),
            "--reaction" => config.reaction = val().parse().expect("frames"),
            "--games" => config.games = val().parse().expect("a game count"),
            "--threads" => config.threads = val().parse().expect("a thread count"),
            "--max-frames" => config.limits.max_frames = val().parse().expect("frames"),
            "--max-lines" => config.limits.max_lines = val().parse().expect("lines"),
            "--no-level-wrap-stop" => config.limits.level_wrap = false,
            "--third" => config.search.third = val().parse().expect("a pair count"),
            "--beam" => config.search.beam = val().parse().expect("a beam width"),
            "--weights" => {
                config.weights = WeightSet::load(val()).unwrap_or_else(|e| panic!("{e}"))
            }
            "--uncapped" => config.uncapped = true,
            "--json" => json = Some(val()),
            "--games-list" => list = true,
            _ => panic!("unknown argument {a}"),
        }
    }
    let games = config.games;
    let shown = AtomicUsize::new(0);
    let report = run(&config, &|done| {
        if done * 10 / games.max(1) > shown.load(Ordering::Relaxed) {
            shown.store(done * 10 / games.max(1), Ordering::Relaxed);
            eprintln!("{done}/{games} games");
        }
    });
    if list {
        for (i, r) in report.results.iter().enumerate() {
            println!(
                "game {:4} ({:04X} {:02X}): {:5} lines  score {:7}  uncapped {:8}  level {:3}  max level {:3}  tetrises {:4}  frames {:7}  {:?}",
                i + 1,
                r.seed.rng,
                r.seed.spawn_count,
                r.lines,
                r.score,
                r.uncapped_score,
                r.level,
                r.max_level,
                r.tetrises,
                r.frames,
                r.end
            );
        }
    }
    print!("{}", report.summary());
    if let Some(path) = json {
        std::fs::write(&path, serde_json::to_string_pretty(&report).unwrap())
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}
