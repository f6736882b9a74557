//! Rough frames/s of `Game::step` over a trace's inputs (the criterion bench is the reference),
//! and what counting the CPU's cycles costs, measured in the same run.
//!
//! `speed TRACE [REPS] [ROM]` (`SPEED_ONLY=n` runs mode n alone, once): three runs over the same inputs, alternating so that a noisy
//! machine hits them alike:
//! - `uncounted`: the trace's start with the sub-frame timing marked unknown, so no cycle is
//!   counted (what a game costs once its timing is lost);
//! - `as recorded`: the trace's start as it is, stepped with `Game::step` (without a ROM the
//!   music's cycles are not known, so the counting stops in the first frame of music);
//! - `counted, music off`: the same with the music choice set to off, so every frame is
//!   counted without a ROM (the game is the same; only the sound engine differs);
//! - `counted` (with a ROM image): `Game::step_with_cartridge`, the cycles counted in every
//!   frame, the sound engine with the cartridge's music.
use nestris_core::{Buttons, Cartridge, Game};
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let Some(path) = a.get(1) else {
        eprintln!("usage: speed TRACE [REPS] [ROM]");
        std::process::exit(2);
    };
    let t = nestris_trace::load(std::path::Path::new(path)).unwrap();
    let g0 = nestris_trace::game_from_header(&t.header).unwrap();
    let inputs: Vec<_> = t.frames.iter().map(|f| f.input).collect();
    let reps: usize = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
    let cart = a.get(3).map(|p| {
        let image = std::fs::read(p).unwrap();
        nestris_replay::rom::cartridge(&image).unwrap()
    });
    let mut lost = g0.snapshot();
    lost.clock.known = false;
    let lost = Game::from_snapshot(lost).unwrap();
    let mut quiet = g0.snapshot();
    quiet.music_type = 3;
    let quiet = Game::from_snapshot(quiet).unwrap();
    let frames = (reps * inputs.len()) as f64;
    let mut best = [f64::MAX; 4];
    // `SPEED_ONLY=n`: one round of mode n only (for counting instructions under callgrind).
    let only: Option<usize> = std::env::var("SPEED_ONLY")
        .ok()
        .and_then(|v| v.parse().ok());
    let rounds = if only.is_some() { 1 } else { 5 };
    // Each mode once per round; the fastest round of each is reported.
    for _ in 0..rounds {
        for (mode, b) in best.iter_mut().enumerate() {
            if only.is_some_and(|o| o != mode) {
                continue;
            }
            let start = Instant::now();
            let acc = match mode {
                0 => run(&lost, &inputs, reps, None),
                1 => run(&g0, &inputs, reps, None),
                2 => run(&quiet, &inputs, reps, None),
                _ => match &cart {
                    Some(c) => run(&g0, &inputs, reps, Some(c)),
                    None => continue,
                },
            };
            std::hint::black_box(acc);
            *b = b.min(start.elapsed().as_secs_f64());
        }
    }
    let name = [
        "uncounted",
        "as recorded",
        "counted, music off",
        "counted, ROM music",
    ];
    for (mode, &secs) in best.iter().enumerate() {
        if secs == f64::MAX || best[0] == f64::MAX {
            continue;
        }
        println!(
            "{:<20} {:7.1} M frames/s  {:.2}x the uncounted time",
            name[mode],
            frames / secs / 1e6,
            secs / best[0]
        );
    }
}

#[inline(never)]
fn run(g0: &Game, inputs: &[Buttons], reps: usize, cart: Option<&Cartridge>) -> u32 {
    let mut acc = 0u32;
    for _ in 0..reps {
        let mut g = g0.clone();
        match cart {
            Some(c) => {
                for &b in inputs {
                    acc = acc.wrapping_add(g.step_with_cartridge(b, c).flags);
                }
            }
            None => {
                for &b in inputs {
                    acc = acc.wrapping_add(g.step(b).flags);
                }
            }
        }
        acc = acc.wrapping_add(g.state().score[0] as u32);
    }
    acc
}
