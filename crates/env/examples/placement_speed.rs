//! Placement-environment speed without Python: 64 placement games stepped together on
//! one thread (as `VecPlacementEnv(64)` does below its Python layer), a random available
//! placement each, with the observations, masks and placements written every step.
//!
//! ```console
//! cargo run --release -p nestris-env --example placement_speed -- [--level 18] [--seconds 3]
//! ```
//!
//! `--steps N` runs a fixed number of placement steps instead of a time budget: a steady
//! workload for `valgrind --tool=callgrind` (instructions per placement step). `--crash off`
//! plays without the lag and crash model (no CPU cycles counted), to show what counting costs.
//! `--policy low` takes the placement whose pivot is lowest instead of a random one: games
//! that clear lines, as a learning agent's do (their clears' animations are frames a random
//! policy rarely plays).

use nestris_ai::MoveGen;
use nestris_core::{CrashMode, FrameEvents};
use nestris_env::placement::{
    ChoiceRows, PlacementConfig, PlacementEpisode, MAX_PLACEMENTS, PLACEMENT_COLS,
};
use nestris_env::{vector, GameOptions, ObsKind};
use std::time::Instant;

const GAMES: usize = 64;

fn main() {
    let (mut level, mut seconds, mut steps) = (18u8, 3.0f64, 0u64);
    let mut crash_mode = CrashMode::default();
    let mut low = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--level" => level = v.parse().expect("a level"),
            "--seconds" => seconds = v.parse().expect("seconds"),
            "--steps" => steps = v.parse().expect("a count"),
            "--policy" => {
                low = match v.as_str() {
                    "low" => true,
                    "random" => false,
                    _ => panic!("--policy takes random or low"),
                }
            }
            "--crash" => {
                crash_mode = match v.as_str() {
                    "off" => CrashMode::Off,
                    "cartridge" => CrashMode::Cartridge,
                    _ => panic!("--crash takes off or cartridge"),
                }
            }
            _ => panic!("unknown argument {a}"),
        }
    }
    let cfg = PlacementConfig {
        game: GameOptions {
            level,
            crash_mode,
            ..GameOptions::default()
        },
        ..PlacementConfig::default()
    };
    let mut mg = [MoveGen::new()];
    let mut eps: Vec<PlacementEpisode> = (0..GAMES as u64)
        .map(|i| PlacementEpisode::new(&cfg, Some(i), &mut mg[0]))
        .collect();
    let mut needs_reset = vec![false; GAMES];
    let mut buffers = vector::Buffers::new(GAMES, ObsKind::Board);
    let mut masks = vec![0i8; GAMES * MAX_PLACEMENTS];
    let mut placements = vec![0u8; GAMES * MAX_PLACEMENTS * PLACEMENT_COLS];
    let mut num_placements = vec![0i64; GAMES];
    let mut frames = vec![0u32; GAMES];
    let mut actions = vec![0usize; GAMES];
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let (mut done, mut total_frames, mut resets, mut clears) = (0u64, 0u64, 0u64, 0u64);
    let t0 = Instant::now();
    loop {
        for (a, ep) in actions.iter_mut().zip(&eps) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            *a = (seed >> 32) as usize % ep.num_choices().max(1);
            if low {
                // The lowest pivot; among ties the random pick if it is one, else the last.
                *a = (0..ep.num_choices())
                    .max_by_key(|&i| (ep.choices[i].y, i == *a))
                    .unwrap_or(0);
            }
        }
        resets += needs_reset.iter().filter(|&&r| r).count() as u64;
        let rows = buffers.rows::<PlacementConfig>(
            &mut eps,
            &mut needs_reset,
            ChoiceRows {
                masks: &mut masks,
                placements: &mut placements,
                num_placements: &mut num_placements,
                frames: &mut frames,
            },
        );
        vector::step_all(&cfg, rows, &mut mg, &actions).expect("no desync");
        total_frames += frames.iter().map(|&f| u64::from(f)).sum::<u64>();
        clears += buffers
            .events
            .iter()
            .filter(|&&e| e & FrameEvents::LINES_CLEARED != 0)
            .count() as u64;
        done += GAMES as u64;
        if (steps > 0 && done >= steps) || (steps == 0 && t0.elapsed().as_secs_f64() >= seconds) {
            break;
        }
    }
    let t = t0.elapsed().as_secs_f64();
    println!(
        "{done} placement steps at level {level} ({resets} of them resets; {:.1} frames a step; {:.1}% of them clear lines) in {t:.2} s: {:.0} steps/s",
        total_frames as f64 / done as f64,
        clears as f64 * 100.0 / done as f64,
        done as f64 / t
    );
}
