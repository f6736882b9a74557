//! `nestris sim`: games headless as fast as the machine allows.

use anyhow::Result;
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use nestris_core::Region;
use nestris_sim::{inputs, run as simulate, Policy, SimConfig};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `nestris sim`.
#[derive(Debug, Parser)]
pub struct Args {
    /// Input policy: idle, random, hold-right or tap:N.
    #[arg(long, default_value = "random", conflicts_with_all = ["inputs", "replay"])]
    pub policy: String,
    /// An input file: one line of buttons per frame (`LRUDABST` letters, `.` for none).
    #[arg(long, value_name = "FILE", conflicts_with = "replay")]
    pub inputs: Option<PathBuf>,
    /// Replay a replay file headless (ignores --games, --level, --seed).
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Number of games (at least 1).
    #[arg(long, default_value_t = 1, value_parser = crate::count64)]
    pub games: u64,
    /// Worker threads, 1-1024 (default: all cores; never more than games).
    #[arg(long, value_parser = crate::thread_count)]
    pub threads: Option<usize>,
    /// Start level 0..=19 (10..=19 as with A+Start on the menu).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=19))]
    pub level: u8,
    /// Seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Stop each game after this many frames (at least 1).
    #[arg(long, default_value_t = 10_000_000, value_parser = crate::count64)]
    pub max_frames: u64,
    /// PAL instead of NTSC.
    #[arg(long)]
    pub pal: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Include every game in the JSON output.
    #[arg(long, requires = "json")]
    pub per_game: bool,
    /// When the cartridge would crash: cartridge (the game ends, the CPU halted), show
    /// (report it, play on), topout (end it as a top-out) or off (no lag or crash model).
    /// Default: cartridge; with --replay, the replay's own.
    #[arg(long, value_name = "MODE", value_parser = crate::parse_crash_mode)]
    pub crash: Option<nestris_core::CrashMode>,
    /// Music 0-2, or 3 for none (the default). With music on the sound engine's cycles need
    /// the cartridge's music (--rom); without it no lag frame or crash is modelled.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=3))]
    pub music: u8,
    /// Your Tetris (USA) ROM: its music's scripts make the timing exact with music on.
    #[arg(long, value_name = "FILE")]
    pub rom: Option<PathBuf>,
}

/// Runs `nestris sim`.
pub fn run(args: &Args) -> Result<ExitCode> {
    let cartridge = crate::load_cartridge(args.rom.as_deref())?;
    if let Some(path) = &args.replay {
        let mut replay = nestris_replay::Replay::load(path)?;
        if let Some(mode) = args.crash {
            replay.crash_mode = mode;
        }
        let start = std::time::Instant::now();
        let (_, s) = replay.play_with_demo(replay.inputs.len(), &nestris_core::DemoData::BUILTIN);
        let secs = start.elapsed().as_secs_f64();
        if args.json {
            println!(
                "{}",
                serde_json::json!({"games": 1, "frames": s.frames, "seconds": secs,
                    "frames_per_second": s.frames as f64 / secs.max(1e-9), "pieces": s.pieces,
                    "lines": s.lines, "score": s.score, "final_hash": format!("{:016x}", s.final_hash),
                    "crash_mode": replay.crash_mode.name(), "lag_frames": s.lag_frames,
                    "crashed": s.crash_frame.is_some(), "crash_frame": s.crash_frame})
            );
        } else {
            println!(
                "1 game, {} frames in {secs:.3} s ({:.1} M frames/s)",
                s.frames,
                s.frames as f64 / secs.max(1e-9) / 1e6
            );
            println!(
                "score {}, lines {}, level {}, pieces {}",
                s.score, s.lines, s.level, s.pieces
            );
            println!(
                "lag frames {}, {} (crash mode {})",
                s.lag_frames,
                match s.crash_frame {
                    Some(f) => format!("crashed in frame {f}"),
                    None => "no crash".to_string(),
                },
                replay.crash_mode
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let policy = match &args.inputs {
        Some(path) => {
            let v = inputs::load(path)?;
            Policy::Inputs(Arc::new(v))
        }
        None => args.policy.parse::<Policy>()?,
    };
    let threads = crate::default_threads(args.threads);
    let config = SimConfig {
        games: args.games,
        threads,
        seed: args.seed,
        level: args.level,
        region: if args.pal { Region::Pal } else { Region::Ntsc },
        policy,
        max_frames: args.max_frames,
        crash_mode: args.crash.unwrap_or_default(),
        music_type: args.music,
        cartridge: cartridge.map(Arc::new),
    };
    if config.timing_unmodelled() && config.crash_mode != nestris_core::CrashMode::Off {
        crate::warn_music_without_rom();
    }
    let bar = if args.games >= 10 && !args.json {
        let b = ProgressBar::new(args.games);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed_precise} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let summary = simulate(&config, &|n| bar.set_position(n));
    bar.finish_and_clear();
    if args.json {
        let mut v = serde_json::to_value(&summary)?;
        if !args.per_game {
            if let Some(o) = v.as_object_mut() {
                o.remove("outcomes");
            }
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        let p = summary.score_percentiles;
        println!(
            "games      {} ({} topped out) on {} thread(s)",
            summary.games,
            summary.topped_out,
            nestris_sim::pool::workers_for(threads, summary.games as usize)
        );
        println!(
            "frames     {} in {:.3} s: {:.1} M frames/s",
            summary.frames,
            summary.seconds,
            summary.frames_per_second / 1e6
        );
        println!("pieces     {}", summary.pieces);
        println!(
            "lag        {} lag frames; {} game(s) crashed (crash mode {})",
            summary.lag_frames, summary.crashed, config.crash_mode
        );
        println!("lines      {}", summary.lines);
        println!(
            "score      mean {:.0}; min {} p10 {} median {} p90 {} max {}",
            summary.score_mean, p[0], p[1], p[2], p[3], p[4]
        );
    }
    Ok(ExitCode::SUCCESS)
}
