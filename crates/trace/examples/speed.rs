//! Rough frames/s of `Game::step` over a trace's inputs (the criterion bench is the reference).
use nestris_trace::*;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let t = load(std::path::Path::new(&a[1])).unwrap();
    let g0 = game_from_header(&t.header).unwrap();
    let inputs: Vec<_> = t.frames.iter().map(|f| f.input).collect();
    let reps: usize = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
    let start = std::time::Instant::now();
    let acc = run(&g0, &inputs, reps);
    let el = start.elapsed().as_secs_f64();
    let frames = (reps * inputs.len()) as f64;
    println!("{:.1} M frames/s ({acc})", frames / el / 1e6);
}

#[inline(never)]
fn run(g0: &nestris_core::Game, inputs: &[nestris_core::Buttons], reps: usize) -> u32 {
    let mut acc = 0u32;
    for _ in 0..reps {
        let mut g = g0.clone();
        for &b in inputs {
            acc = acc.wrapping_add(g.step(b).flags);
        }
        acc = acc.wrapping_add(g.state().score[0] as u32);
    }
    acc
}
