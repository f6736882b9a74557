//! Move generation speed: placements found per second on fixed mid-game fields at
//! level 18 with 30 Hz tapping, for all seven pieces at spawn.
//!
//! Run with `cargo bench -p nestris-ai --bench movegen`. Throughput is in placements
//! (distinct landing spots) per second; the `-inputs` case also writes every
//! placement's input sequence, as the placement environment does.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nestris_ai::bench::sample_boards;
use nestris_ai::inputs::InputModel;
use nestris_ai::movegen::{MoveGen, Start};
use nestris_core::Region;
use std::hint::black_box;

const SPAWNS: [u8; 7] = [2, 7, 8, 10, 11, 14, 18];

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for (level, model, tag) in [
        (18u8, InputModel::hz30(), "l18-30hz"),
        (18, InputModel::hz30(), "l18-30hz-inputs"),
        (
            18,
            InputModel {
                soft_drop: true,
                das: true,
                ..InputModel::hz30()
            },
            "l18-30hz-das-softdrop",
        ),
        (19, InputModel::hz30(), "l19-30hz"),
        (29, InputModel::hz30(), "l29-30hz"),
        (8, InputModel::hz30(), "l08-30hz"),
    ] {
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
        let total: usize = starts.iter().map(|s| mg.generate(s, &model).len()).sum();
        group.throughput(Throughput::Elements(total as u64));
        let with_inputs = tag.ends_with("-inputs");
        let mut inputs = Vec::new();
        group.bench_function(tag, |b| {
            b.iter(|| {
                let mut n = 0;
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
                black_box(n)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
