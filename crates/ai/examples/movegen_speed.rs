//! Move generation speed without criterion: placements per second of CPU time on the
//! fixed mid-game fields of `nestris_ai::bench` (all but the empty one), all seven
//! pieces at spawn, level 18 and 30 Hz tapping unless told otherwise.
//!
//! ```console
//! cargo run --release -p nestris-ai --example movegen_speed -- [--level 18] [--tap 2 | --taps X.X..] [--seconds 3]
//! ```
//!
//! Also a small, steady workload for `valgrind --tool=callgrind` (`--rounds N` runs a
//! fixed number of rounds instead of a time budget). `--inputs 1` also writes the
//! inputs of every placement found (a tool listing every placement with its inputs; the
//! placement environment and the AI ask for the chosen placement's only).

use nestris_ai::bench::sample_boards;
use nestris_ai::inputs::InputModel;
use nestris_ai::movegen::{MoveGen, Start};
use nestris_ai::TapPattern;
use nestris_core::Region;
use std::hint::black_box;
use std::time::Instant;

const SPAWNS: [u8; 7] = [2, 7, 8, 10, 11, 14, 18];

fn main() {
    let (mut level, mut tap, mut seconds, mut rounds) = (18u8, 2u8, 3.0f64, 0usize);
    let mut with_inputs = false;
    let mut pattern = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--level" => level = v.parse().expect("a level"),
            "--tap" => tap = v.parse().expect("a tap interval"),
            "--taps" => pattern = Some(TapPattern::parse(&v).unwrap_or_else(|e| panic!("{e}"))),
            "--seconds" => seconds = v.parse().expect("seconds"),
            "--rounds" => rounds = v.parse().expect("a count"),
            "--inputs" => with_inputs = v != "0",
            _ => panic!("unknown argument {a}"),
        }
    }
    let model = InputModel::with_taps(pattern.unwrap_or(TapPattern::every(tap)));
    let starts: Vec<Start> = sample_boards()
        .into_iter()
        .filter(|(name, _)| *name != "empty")
        .flat_map(|(_, b)| {
            SPAWNS
                .iter()
                .map(move |&p| Start::spawn(b, p, level, Region::Ntsc))
        })
        .collect();
    let mut mg = MoveGen::new();
    let per_round: usize = starts.iter().map(|s| mg.generate(s, &model).len()).sum();
    let (mut expanded, mut simulated) = (0, 0);
    for s in &starts {
        mg.generate(s, &model);
        expanded += mg.expanded;
        simulated += mg.simulated;
    }
    let t0 = Instant::now();
    let mut n = 0usize;
    let mut done = 0usize;
    let mut inputs = Vec::new();
    loop {
        for s in &starts {
            n += mg.generate(black_box(s), &model).len();
            if with_inputs {
                inputs.clear();
                for p in mg.placements() {
                    mg.inputs_into(p, &mut inputs);
                }
                black_box(&inputs);
            }
        }
        done += 1;
        if (rounds > 0 && done >= rounds) || (rounds == 0 && t0.elapsed().as_secs_f64() >= seconds)
        {
            break;
        }
    }
    let t = t0.elapsed().as_secs_f64();
    println!(
        "per search: {:.1} placements, {:.1} states expanded, {:.1} moves simulated",
        per_round as f64 / starts.len() as f64,
        expanded as f64 / starts.len() as f64,
        simulated as f64 / starts.len() as f64
    );
    println!(
        "{} searches ({} placements per round of {}) in {:.2} s: {:.0} placements/s, {:.2} µs per search",
        done * starts.len(),
        per_round,
        starts.len(),
        t,
        n as f64 / t,
        t * 1e6 / (done * starts.len()) as f64
    );
}
