//! Strength report: 20 games from level 18 with 30 Hz tapping and no reaction delay,
//! seeds 1..=20 through `GameSetup::from_seed`.
//!
//! `cargo run --release -p nestris-ai --example strength [-- WEIGHTS.toml [GAMES]]`

use nestris_ai::{play_game, Ai, InputModel, WeightSet};
use nestris_core::GameSetup;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let weights = match args.first() {
        Some(path) if path != "-" => WeightSet::load(path).unwrap_or_else(|e| panic!("{e}")),
        _ => WeightSet::default(),
    };
    let games: u64 = args.get(1).map_or(20, |n| n.parse().expect("a game count"));
    let t0 = Instant::now();
    let mut rows = Vec::new();
    for seed in 1..=games {
        let mut setup = GameSetup::from_seed(seed);
        setup.level = 18;
        let mut ai = Ai::new(weights, InputModel::hz30());
        let t = Instant::now();
        let r = play_game(setup, &mut ai, 400_000);
        println!(
            "seed {seed:2}: {:4} lines  score {:7}  level {:2}  tetris rate {:5.1}%  pieces {:4}  {}  {:.1}s",
            r.lines,
            r.score,
            r.level,
            100.0 * r.tetris_rate(),
            r.pieces,
            if r.topped_out { "topped out" } else { "frame limit" },
            t.elapsed().as_secs_f64()
        );
        rows.push(r);
    }
    let n = rows.len() as f64;
    let mean = |f: &dyn Fn(&nestris_ai::GameResult) -> f64| rows.iter().map(f).sum::<f64>() / n;
    let lines: u32 = rows.iter().map(|r| r.lines).sum();
    let tetris_lines: u32 = rows.iter().map(|r| r.tetrises * 4).sum();
    println!("games            {}", rows.len());
    println!("mean lines       {:.1}", mean(&|r| r.lines as f64));
    println!("mean score       {:.0}", mean(&|r| r.score as f64));
    println!(
        "tetris rate      {:.1}% of lines",
        100.0 * tetris_lines as f64 / lines.max(1) as f64
    );
    println!(
        "maxout (999999)  {:.0}%",
        100.0 * mean(&|r| (r.score >= 999_999) as u8 as f64)
    );
    println!(
        "reached 19       {:.0}%",
        100.0 * mean(&|r| (r.level >= 19) as u8 as f64)
    );
    println!(
        "reached 29       {:.0}%",
        100.0 * mean(&|r| (r.level >= 29) as u8 as f64)
    );
    println!("time             {:.1}s", t0.elapsed().as_secs_f64());
}
