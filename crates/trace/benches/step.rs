//! Speed of the engine on real play: `Game::step` over the recorded inputs of cartridge
//! traces, and `Game::clone` (the save state every search and replay branches from).
//!
//! Run with `cargo bench -p nestris-trace --bench step`; figures go in `docs/PERFORMANCE.md`.
//! A bot trace is used rather than synthetic input because it covers every play state
//! (control, lock, row checks, line-clear animation, spawn) in the proportions a real game
//! has them.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use nestris_core::{Buttons, Game};
use nestris_trace::{check, game_from_header, load, Outcome};
use std::hint::black_box;
use std::path::Path;

/// The start state and the inputs of one trace.
fn recorded(name: &str) -> (Game, Vec<Buttons>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance")
        .join(format!("{name}.jsonl.gz"));
    let trace = load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // A diverging engine would be timed on frames the cartridge never plays; say so.
    match check(&trace) {
        Ok(Outcome::Ok { .. }) => {}
        Ok(Outcome::Diverged(d)) => eprintln!("note: {name} diverges ({d}); timing it anyway"),
        Err(e) => panic!("{name}: {e}"),
    }
    let game = game_from_header(&trace.header).unwrap_or_else(|e| panic!("{name}: {e}"));
    let inputs = trace.frames.iter().map(|f| f.input).collect();
    (game, inputs)
}

fn step(c: &mut Criterion) {
    let mut group = c.benchmark_group("step");
    for name in ["lv09-bot", "lv18-bot"] {
        let (start, inputs) = recorded(name);
        group.throughput(Throughput::Elements(inputs.len() as u64));
        group.bench_function(name, |b| {
            b.iter_batched_ref(
                || start.clone(),
                |game| {
                    for &buttons in &inputs {
                        black_box(game.step(black_box(buttons)));
                    }
                },
                BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

fn clone(c: &mut Criterion) {
    let (start, inputs) = recorded("lv09-bot");
    // A game in progress, with a full-ish field, rather than the empty start.
    let mut game = start;
    for &buttons in &inputs[..inputs.len() / 2] {
        game.step(buttons);
    }
    let mut group = c.benchmark_group("clone");
    group.throughput(Throughput::Elements(1));
    group.bench_function("Game", |b| b.iter(|| black_box(&game).clone()));
    group.finish();
}

criterion_group!(benches, step, clone);
criterion_main!(benches);
