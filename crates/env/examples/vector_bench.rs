//! The native anchor of `crates/py/bench.py`, without Python: ns per game step of
//! `Game::step` alone and of the frame-level vector step (level 9, random actions).
//! `cargo run --release -p nestris-env --example vector_bench [calls]`; with a small
//! `calls` it is also the program to count instructions of under callgrind.

use nestris_env::config::GameOptions;
use nestris_env::frame::{native_anchor, EnvConfig};

fn main() {
    let calls: usize = std::env::args()
        .nth(1)
        .map_or(4000, |a| a.parse().expect("calls: a number"));
    let cfg = EnvConfig {
        game: GameOptions {
            level: 9,
            ..GameOptions::default()
        },
        ..EnvConfig::default()
    };
    for n in [64, 256] {
        let t = native_anchor(&cfg, n, calls, 0);
        println!(
            "n={n}: Game::step {:.1} ns, vector step {:.1} ns per game step",
            t.game_step_ns, t.vector_step_ns
        );
    }
}
