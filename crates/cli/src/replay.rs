//! `nestris replay`: verify and summarise a replay or an FCEUX movie, or play it back.

use anyhow::{bail, Context, Result};
use clap::Parser;
use nestris_core::{bcd, DemoData};
use nestris_replay::{Replay, Start, Verdict};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The replay viewer's keys, as `nestris replay --help` ends.
pub const VIEWER_KEYS: &str = "The replay viewer's keys (without --headless): Space pause or \
play; Left/Right (or , and .) one frame back or forward; Up/Down (or + and -) faster or slower; \
Home/End the first or last frame; 1-9 seek to 10%-90%; click or drag the bar to seek; M mute; \
F11 fullscreen; Esc or Q quit.";

/// Arguments of `nestris replay`.
#[derive(Debug, Parser)]
#[command(after_help = VIEWER_KEYS)]
pub struct Args {
    /// A replay file (.nestris), a versus match (.nestrisvs) or an FCEUX movie (.fm2).
    pub file: PathBuf,
    /// Verify and print the result instead of opening the window.
    #[arg(long)]
    pub headless: bool,
    /// Window playback: show the HUD (tetris rate, burn, drought, pace, DAS, taps, inputs).
    #[arg(long)]
    pub hud: bool,
    /// Window playback: scale 1-8.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=8))]
    pub scale: Option<u32>,
    /// Window playback: no sound.
    #[arg(long)]
    pub mute: bool,
    /// Window playback: the blocks' colours, classic (the cartridge's) or nestris.
    #[arg(long, value_name = "NAME", default_value = "classic", value_parser = crate::parse_colours)]
    pub colours: nestris_render::LevelColours,
    /// Print the result as JSON (with --headless).
    #[arg(long)]
    pub json: bool,
    /// Stop after this many frames and print the state at that point.
    #[arg(long, value_name = "N")]
    pub frames: Option<u64>,
    /// Your own Tetris (USA) ROM image, for replays that show the cartridge's demo.
    #[arg(long, value_name = "PATH")]
    pub rom: Option<PathBuf>,
    /// Play with this crash mode (cartridge, show, topout, off) instead of the one the
    /// replay recorded (with --headless). Another mode plays another game, so the replay
    /// is then not verified (and the exit status does not depend on it).
    #[arg(long, value_name = "MODE", value_parser = crate::parse_crash_mode)]
    pub crash: Option<nestris_core::CrashMode>,
    /// Exit 0 for a replay that proves nothing (an FCEUX movie, a file from before
    /// format 2 that records only its final state, or none): without it such a replay
    /// exits 3. A replay whose game differs from its record exits 1 either way.
    #[arg(long)]
    pub allow_unverified: bool,
}

/// The exit status of a replay that plays, but proves nothing, without --allow-unverified.
const EXIT_UNPROVEN: u8 = 3;

/// The demo tables to play with: the user's ROM's, or the built-in ones.
pub fn demo_tables(rom: Option<&Path>) -> Result<DemoData> {
    match rom {
        None => Ok(DemoData::BUILTIN),
        Some(p) => {
            let image =
                std::fs::read(p).with_context(|| format!("cannot read ROM {}", p.display()))?;
            nestris_replay::rom::demo_tables(&image).with_context(|| format!("{}", p.display()))
        }
    }
}

fn start_name(s: &Start) -> &'static str {
    match s {
        Start::PowerOn(_) => "power-on",
        Start::Setup(_) => "game setup",
        Start::Snapshot(_) => "snapshot",
    }
}

/// A versus match: both players' games in the viewer, or (headless) replayed and
/// checked against the file's two final states.
fn run_versus(args: &Args, m: nestris_versus::file::VersusReplay) -> Result<ExitCode> {
    if args.frames.is_some() || args.crash.is_some() || args.rom.is_some() {
        bail!("--frames, --crash and --rom are for single-player replays");
    }
    if !args.headless {
        if args.json {
            bail!("--json goes with --headless");
        }
        crate::play::watch_versus(
            m,
            crate::play::Watch {
                hud: false,
                mute: args.mute,
                scale: args.scale,
                rom_demo: None,
                colours: args.colours,
            },
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let verified = m.verify();
    let played = m.play();
    let players: Vec<serde_json::Value> = (0..2)
        .map(|p| {
            serde_json::json!({
                "frames": m.inputs[p].len(),
                "games": played.sides[p].game_no + 1,
                "score": played.sides[p].score(),
                "final_hash": format!("{:016x}", played.sides[p].game.state().state_hash()),
            })
        })
        .collect();
    if args.json {
        let v = serde_json::json!({
            "file": args.file.display().to_string(),
            "versus": true,
            "seed": format!("{:06X}", m.setup.seed),
            "best_of": m.setup.best_of,
            "wins": played.wins,
            "players": players,
            "verified": verified.is_ok(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("file        {} (versus)", args.file.display());
        println!("seed        {:06X}", m.setup.seed);
        println!("best of     {}", m.setup.best_of);
        println!("wins        {} - {}", played.wins[0], played.wins[1]);
        for (p, side) in played.sides.iter().enumerate() {
            println!(
                "player {}    {} frames, game {}, score {}",
                p + 1,
                m.inputs[p].len(),
                side.game_no + 1,
                side.score()
            );
        }
        match &verified {
            Ok(_) => println!("verified    yes (both final states)"),
            Err(e) => println!("verified    no: {e}"),
        }
    }
    Ok(if verified.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Runs `nestris replay`.
pub fn run(args: &Args) -> Result<ExitCode> {
    // A versus match is known by its first bytes, whatever the file's name.
    match nestris_versus::file::VersusReplay::load(&args.file) {
        Ok(m) => return run_versus(args, m),
        // Not one, or unreadable: the replay reader says why.
        Err(
            nestris_versus::file::VersusFileError::NotVersus
            | nestris_versus::file::VersusFileError::Io(_),
        ) => {}
        Err(e) => bail!("{}: {e}", args.file.display()),
    }
    let mut replay = Replay::load(&args.file)?;
    let demo = demo_tables(args.rom.as_deref())?;
    if !args.headless {
        if args.json || args.frames.is_some() || args.crash.is_some() {
            bail!("--json, --frames and --crash go with --headless");
        }
        crate::play::watch(
            replay,
            crate::play::Watch {
                hud: args.hud,
                mute: args.mute,
                scale: args.scale,
                rom_demo: args.rom.is_some().then_some(demo),
                colours: args.colours,
            },
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let other_mode = args.crash.filter(|&m| m != replay.crash_mode);
    if let Some(mode) = args.crash {
        replay.crash_mode = mode;
    }
    let frames = args
        .frames
        .map(|f| f as usize)
        .unwrap_or(replay.inputs.len());
    if frames > replay.inputs.len() {
        bail!(
            "--frames {frames}: the replay has only {} frames",
            replay.inputs.len()
        );
    }
    let (game, summary) = replay.play_with_demo(frames, &demo);
    // Another crash mode is another game: there is nothing of the record to compare.
    let verdict = other_mode.is_none().then_some(summary.verdict);
    let s = game.state();
    let mode = s.mode().name();
    let ended = (s.in_game() && game.is_over()) || summary.games_ended > 0;
    if args.json {
        let v = serde_json::json!({
            "file": args.file.display().to_string(),
            "start": start_name(&replay.start),
            "frames": summary.frames,
            "score": summary.score,
            "lines": summary.lines,
            "level": summary.level,
            "pieces": summary.pieces,
            "game_type": if s.game_type == 0 { "A" } else { "B" },
            "game_mode": mode,
            "game_ended": ended,
            "final_hash": format!("{:016x}", summary.final_hash),
            "verified": verdict.map(Verdict::is_proven),
            "verdict": verdict.map(Verdict::word),
            "verdict_detail": verdict.map(|v| v.to_string()),
            "crash_mode": replay.crash_mode.name(),
            "rules": s.variant.label().as_str(),
            "lag_frames": summary.lag_frames,
            "crashed": summary.crash_frame.is_some(),
            "crash_frame": summary.crash_frame,
            "state": {
                "play_state": s.play_state, "x": s.x, "y": s.y, "piece": s.piece,
                "next": s.next_piece, "frame_counter": s.frame_counter, "rng": s.rng,
                "score": bcd::score_value(s.score), "lines": bcd::lines_value(s.lines),
            },
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("file        {}", args.file.display());
        println!("start       {}", start_name(&replay.start));
        println!("frames      {}", summary.frames);
        println!(
            "game        {}-type, {mode}",
            if s.game_type == 0 { "A" } else { "B" }
        );
        println!("score       {}", summary.score);
        println!("lines       {}", summary.lines);
        println!("level       {}", summary.level);
        println!("pieces      {}", summary.pieces);
        println!("ended       {}", if ended { "yes" } else { "no" });
        println!("crash mode  {}", replay.crash_mode);
        println!("rules       {}", s.variant.label());
        println!("lag frames  {}", summary.lag_frames);
        match summary.crash_frame {
            Some(f) => println!("crashed     in frame {f}"),
            None => println!("crashed     no"),
        }
        println!("state hash  {:016x}", summary.final_hash);
        match verdict {
            Some(v) => println!("verified    {v}"),
            None => println!(
                "verified    - (played in crash mode {}, not the recorded one)",
                replay.crash_mode
            ),
        }
    }
    Ok(match verdict {
        None => ExitCode::SUCCESS,
        Some(Verdict::Differs(_)) => ExitCode::FAILURE,
        Some(v) if v.is_proven() || args.allow_unverified => ExitCode::SUCCESS,
        Some(v) => {
            eprintln!(
                "nestris: {} is not verified ({}); --allow-unverified accepts it",
                args.file.display(),
                v.word()
            );
            ExitCode::from(EXIT_UNPROVEN)
        }
    })
}
