//! The `nestris` command: argument parsing and the error edge.
//!
//! Each subcommand lives in its own module with an `Args` struct (its flags) and a `run`
//! function; `main` only parses, dispatches and turns an error into one line on stderr.
//! Adding a subcommand is one module, one variant of [`Command`] and one arm in `main`.
//! With no subcommand, `nestris` plays the game in a window.

mod ai;
mod bench;
mod conformance;
mod export;
mod pilot;
mod play;
mod plot;
mod replay;
mod rng;
mod screenshot;
mod sim;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Frame-exact NES Tetris (USA, 1989). Without a subcommand: play in a window.
#[derive(Debug, Parser)]
#[command(name = "nestris", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play: a window (default) or the terminal (--tui).
    Play(play::Args),
    /// Check the engine against cartridge conformance traces, frame by frame.
    Conformance(conformance::Args),
    /// Play back, verify or inspect a replay or an FCEUX movie.
    Replay(replay::Args),
    /// Write a replay in another format.
    Export(export::Args),
    /// Run games headless as fast as the machine allows.
    Sim(sim::Args),
    /// The standard throughput figures on this machine.
    Bench(bench::Args),
    /// The randomizer analysis: P(next | previous), shares, repeat rate.
    Rng(rng::Args),
    /// Draw a game state to a PNG file.
    Screenshot(screenshot::Args),
    /// The AI: play headless, the standard benchmark, weight tuning.
    Ai(ai::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => play::run(&play::Args::default()),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Conformance(args)) => conformance::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Export(args)) => export::run(&args),
        Some(Command::Sim(args)) => sim::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Rng(args)) => rng::run(&args),
        Some(Command::Screenshot(args)) => screenshot::run(&args),
        Some(Command::Ai(args)) => ai::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // `{:#}` keeps anyhow's context chain on one line.
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
