//! The `nestris` command: argument parsing and the error edge.
//!
//! Each subcommand lives in its own module with an `Args` struct (its flags) and a `run`
//! function; `main` only parses, dispatches and turns an error into one line on stderr.
//! Adding a subcommand is one module, one variant of [`Cli`] and one arm in `main`.

mod conformance;

use clap::Parser;
use std::process::ExitCode;

/// Frame-exact NES Tetris (USA, 1989) on the command line.
#[derive(Debug, Parser)]
#[command(name = "nestris", version)]
enum Cli {
    /// Check the engine against cartridge conformance traces, frame by frame.
    Conformance(conformance::Args),
}

fn main() -> ExitCode {
    let result = match Cli::parse() {
        Cli::Conformance(args) => conformance::run(&args),
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
