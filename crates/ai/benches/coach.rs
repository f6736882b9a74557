//! The coach's answer time: one `nestris ai suggest` request (parsed, ranked over three
//! pieces, the answered placements played on the engine, written as JSON) at level 18
//! with 30 Hz tapping, on the fixed mid-game fields of `nestris_ai::bench`, for each
//! piece with a preview piece, and without a preview.
//!
//! Run with `cargo bench -p nestris-ai --bench coach`; the figure per request is the time
//! of one iteration over all requests divided by their number (printed below the run).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nestris_ai::bench::sample_boards;
use nestris_ai::coach::{suggest_json, PIECE_LETTERS};
use std::hint::black_box;

/// The requests: every sample field but the empty one, each piece, the next piece the one
/// after it in T J Z O S L I (or none).
fn requests(with_next: bool) -> Vec<String> {
    let mut out = Vec::new();
    for (name, board) in sample_boards() {
        if name == "empty" {
            continue;
        }
        let cells: String = (0..20)
            .flat_map(|r| (0..10).map(move |c| (r, c)))
            .map(|(r, c)| if board.filled(r, c) { '1' } else { '0' })
            .collect();
        for (i, piece) in PIECE_LETTERS.iter().enumerate() {
            let next = if with_next {
                format!(r#""{}""#, PIECE_LETTERS[(i + 1) % 7])
            } else {
                "null".into()
            };
            out.push(format!(
                r#"{{"board": "{cells}", "currentPiece": "{piece}", "nextPiece": {next},
                    "level": 18, "lines": 40, "inputFrameTimeline": "X."}}"#
            ));
        }
    }
    out
}

fn coach(c: &mut Criterion) {
    let weights = nestris_ai::WeightSet::default();
    let mut group = c.benchmark_group("coach");
    for (with_next, tag) in [(true, "l18-30hz-next"), (false, "l18-30hz-no-next")] {
        let reqs = requests(with_next);
        group.throughput(Throughput::Elements(reqs.len() as u64));
        group.bench_function(tag, |b| {
            b.iter(|| {
                for r in &reqs {
                    black_box(suggest_json(black_box(r), &weights).expect("a valid request"));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, coach);
criterion_main!(benches);
