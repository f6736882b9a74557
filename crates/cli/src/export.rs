//! `nestris export`: write a replay in another format (an FCEUX movie).

use anyhow::{bail, Context, Result};
use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `nestris export`.
#[derive(Debug, Parser)]
pub struct Args {
    /// Write an FCEUX movie (.fm2).
    #[arg(long, conflicts_with = "nestris")]
    pub fm2: bool,
    /// Write a nestris replay (.nestris), e.g. from an FCEUX movie.
    #[arg(long)]
    pub nestris: bool,
    /// The replay to export.
    pub input: PathBuf,
    /// Where to write (default: the input's name with the new extension).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Runs `nestris export`.
pub fn run(args: &Args) -> Result<ExitCode> {
    if !args.fm2 && !args.nestris {
        bail!("choose a format: --fm2 or --nestris");
    }
    let mut replay = nestris_replay::Replay::load(&args.input)?;
    if args.nestris {
        replay.seal();
        let out = args
            .output
            .clone()
            .unwrap_or_else(|| args.input.with_extension("nestris"));
        nestris_replay::write_atomically(&out, &replay.to_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
        eprintln!("wrote {} ({} frames)", out.display(), replay.inputs.len());
        return Ok(ExitCode::SUCCESS);
    }
    let text =
        nestris_replay::fm2::write(&replay).with_context(|| format!("{}", args.input.display()))?;
    let out = args
        .output
        .clone()
        .unwrap_or_else(|| args.input.with_extension("fm2"));
    nestris_replay::write_atomically(&out, text.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!("wrote {} ({} frames)", out.display(), replay.inputs.len());
    Ok(ExitCode::SUCCESS)
}
