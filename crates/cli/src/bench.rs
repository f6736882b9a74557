//! `nestris bench`: the standard throughput figures of this machine, in one run.

use anyhow::{Context, Result};
use clap::Parser;
use nestris_core::{Buttons, FrameEvents, Game, GameSetup};
use std::hint::black_box;
use std::io::Read;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// A recorded cartridge game (the lv09-bot conformance trace) for "recorded play".
const RECORDED: &[u8] = include_bytes!("../../../tests/conformance/lv09-bot.jsonl.gz");

/// Arguments of `nestris bench`.
#[derive(Debug, Parser)]
pub struct Args {
    /// Seconds per measurement.
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
    /// Threads for the scaling figure, 1-1024 (default: all cores).
    #[arg(long, value_parser = crate::thread_count)]
    pub threads: Option<usize>,
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}

/// What one timed loop measured.
struct Stepped {
    frames_per_second: f64,
    frames: u64,
    /// Heap allocations made while the loop ran (counted by the binary's allocator).
    allocations: u64,
}

/// Steps copies of `start` through `inputs` for about `budget`, counting the allocations.
fn frames_per_second(start: &Game, inputs: &[Buttons], budget: Duration) -> Stepped {
    let mut frames = 0u64;
    let mut secs = 0.0;
    let counted = allocation_counter::measure(|| {
        let t = Instant::now();
        while t.elapsed() < budget {
            let mut g = start.clone();
            let mut acc = 0u32;
            for &b in inputs {
                acc |= g.step(b).flags;
            }
            black_box((acc, g.state().score));
            frames += inputs.len() as u64;
        }
        secs = t.elapsed().as_secs_f64();
    });
    Stepped {
        frames_per_second: frames as f64 / secs,
        frames,
        allocations: counted.count_total,
    }
}

/// Inputs of an idle game, up to its top-out.
fn idle_inputs(start: &Game) -> Vec<Buttons> {
    let mut g = start.clone();
    let mut v = Vec::new();
    while v.len() < 1_000_000 {
        v.push(Buttons::NONE);
        if g.step(Buttons::NONE).has(FrameEvents::TOPPED_OUT) {
            break;
        }
    }
    v
}

/// Inputs of a game played by the AI at level 0 (many line clears), about `frames` long.
fn line_clear_inputs(setup: GameSetup, frames: usize) -> Vec<Buttons> {
    let mut ai = nestris_ai::Ai::new(
        nestris_ai::Weights::default(),
        nestris_ai::InputModel::hz30(),
    );
    nestris_ai::play_game(setup, &mut ai, frames as u64).inputs
}

/// Runs `nestris bench`.
pub fn run(args: &Args) -> Result<ExitCode> {
    if args.seconds.is_nan() || args.seconds <= 0.0 {
        anyhow::bail!("--seconds must be positive");
    }
    let budget = Duration::from_secs_f64(args.seconds);
    let mut text = String::new();
    flate2::read::GzDecoder::new(RECORDED)
        .read_to_string(&mut text)
        .context("embedded trace")?;
    let trace = nestris_trace::load_reader("lv09-bot", text.as_bytes())?;
    let recorded_start = nestris_trace::game_from_header(&trace.header)?;
    let recorded: Vec<Buttons> = trace.frames.iter().map(|f| f.input).collect();

    let setup = GameSetup::from_seed(1);
    let idle_start = Game::new(setup);
    let idle = idle_inputs(&idle_start);
    let clears_start = Game::new(setup);
    let clears = line_clear_inputs(setup, 30_000);

    let runs = [
        frames_per_second(&recorded_start, &recorded, budget),
        frames_per_second(&idle_start, &idle, budget),
        frames_per_second(&clears_start, &clears, budget),
    ];
    let [recorded_fps, idle_fps, clears_fps] = runs.each_ref().map(|r| r.frames_per_second);
    let stepped: u64 = runs.iter().map(|r| r.frames).sum();
    let allocations: u64 = runs.iter().map(|r| r.allocations).sum();

    // Cloning: the save state and the search node.
    let n = 5_000_000u64;
    let t = Instant::now();
    let mut g = recorded_start.clone();
    for _ in 0..n {
        g = black_box(g.clone());
    }
    let clone_ns = t.elapsed().as_secs_f64() * 1e9 / n as f64;
    black_box(g);

    // Scaling: the same simulated games on 1 thread and on T threads.
    let threads = crate::default_threads(args.threads);
    // Enough games (about half a second on one core) that starting threads does not count.
    let games = 3000 * threads as u64;
    let sim = |t: usize| {
        nestris_sim::run(
            &nestris_sim::SimConfig {
                games,
                threads: t,
                policy: nestris_sim::Policy::Random,
                // As the published figures were measured: music on, the timing soon lost
                // without the ROM's music (docs/PERFORMANCE.md).
                music_type: 0,
                ..Default::default()
            },
            &|_| {},
        )
        .frames_per_second
    };
    let one = sim(1);
    let many = sim(threads);
    let efficiency = many / (one * threads as f64);

    if args.json {
        let v = serde_json::json!({
            "recorded_play_frames_per_second": recorded_fps,
            "idle_frames_per_second": idle_fps,
            "line_clear_frames_per_second": clears_fps,
            "clone_ns": clone_ns,
            "allocations_per_frame": allocations as f64 / stepped as f64,
            "frames_counted_for_allocations": stepped,
            "threads": threads,
            "sim_frames_per_second_1_thread": one,
            "sim_frames_per_second_all_threads": many,
            "scaling_efficiency": efficiency,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "Game::step, recorded play (lv09-bot)   {:>8.1} M frames/s",
            recorded_fps / 1e6
        );
        println!(
            "Game::step, idle falling               {:>8.1} M frames/s",
            idle_fps / 1e6
        );
        println!(
            "Game::step, line-clear-heavy (AI, L0)  {:>8.1} M frames/s",
            clears_fps / 1e6
        );
        println!(
            "Game clone                             {:>8.1} ns",
            clone_ns
        );
        println!(
            "allocations per frame                  {:>8} ({allocations} in the {stepped} frames above)",
            allocations as f64 / stepped as f64
        );
        println!(
            "sim, random play: 1 thread {:.1} M frames/s; {threads} threads {:.1} M frames/s ({:.0}% of {threads} x 1)",
            one / 1e6,
            many / 1e6,
            efficiency * 100.0
        );
    }
    Ok(ExitCode::SUCCESS)
}
