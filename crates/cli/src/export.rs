//! `nestris export`: write a replay in another format (an FCEUX movie).

use anyhow::{bail, Context, Result};
use clap::Parser;
use nestris_replay::fm2::WriteError;
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
    /// Where to write (default: the input's name with the new extension; - for standard
    /// output).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Runs `nestris export`.
pub fn run(args: &Args) -> Result<ExitCode> {
    if !args.fm2 && !args.nestris {
        bail!("choose a format: --fm2 or --nestris");
    }
    let out = args.output.clone().unwrap_or_else(|| {
        args.input
            .with_extension(if args.fm2 { "fm2" } else { "nestris" })
    });
    crate::output::check(&out)?;
    let mut replay = nestris_replay::Replay::load(&args.input)?;
    if args.nestris {
        replay.seal();
        let bytes = replay.to_bytes();
        crate::output::write(&out, |w| w.write_all(&bytes))?;
    } else {
        nestris_replay::fm2::movie_region(&replay)
            .with_context(|| format!("{}", args.input.display()))?;
        // Streamed: a replay of millions of frames is never whole in memory as text.
        crate::output::write(&out, |w| {
            nestris_replay::fm2::write_to(&replay, w).map_err(|e| match e {
                WriteError::Io(e) => e,
                WriteError::Movie(e) => std::io::Error::other(e),
            })
        })?;
    }
    eprintln!("wrote {} ({} frames)", out.display(), replay.inputs.len());
    Ok(ExitCode::SUCCESS)
}
