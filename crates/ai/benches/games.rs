//! Whole games per second: the player at level 18 with 30 Hz tapping, driving
//! `Game::step` frame by frame (search, move generation and engine together).
//!
//! Run with `cargo bench -p nestris-ai --bench games`. Games are cut at 6,000 frames
//! so every iteration does a similar amount of work whatever the seed.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nestris_ai::{play_game, Ai, InputModel, Weights};
use nestris_core::GameSetup;
use std::hint::black_box;

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("games");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1));
    let mut ai = Ai::new(Weights::default(), InputModel::hz30());
    let mut seed = 0u64;
    group.bench_function("l18-30hz-6000-frames", |b| {
        b.iter(|| {
            seed += 1;
            let mut setup = GameSetup::from_seed(seed);
            setup.level = 18;
            black_box(play_game(setup, &mut ai, 6_000).pieces)
        })
    });
    group.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
