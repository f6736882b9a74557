//! `nestris conformance`: runs the engine against cartridge traces and reports, per trace,
//! how many frames matched and the first divergence.
//!
//! A trace that cannot be read is reported and counted as a failure, and the remaining
//! traces are still checked, so one corrupt file does not hide the state of the others.
//! Only a directory without any trace stops the run before it starts: that is almost
//! always a wrong path.

use anyhow::{bail, Context, Result};
use nestris_trace::{Divergence, Outcome, TraceError};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Flags of `nestris conformance`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Trace files (`.jsonl` or `.jsonl.gz`) or directories to search recursively for them.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Print only traces that diverge or cannot be read, and the summary.
    #[arg(short, long)]
    quiet: bool,
    /// Print one JSON object per trace, then one summary object.
    #[arg(long, conflicts_with = "quiet")]
    json: bool,
    /// Your Tetris (USA) ROM image: its music makes the sound engine's cycles, and so the
    /// lag frames of the high-level recordings, exact.
    #[arg(long, value_name = "FILE")]
    rom: Option<PathBuf>,
}

/// What checking one trace found.
enum Verdict {
    Ok { frames: u64 },
    Diverged { total: u64, divergence: Divergence },
    Unreadable(String),
}

/// Checks every trace named by `args` and prints one line per trace and a summary.
/// Succeeds (exit 0) only when every trace matches on every frame.
pub fn run(args: &Args) -> Result<ExitCode> {
    let mut traces = Vec::new();
    for path in &args.paths {
        traces.extend(collect(path)?);
    }
    let width = traces
        .iter()
        .map(|p| p.display().to_string().len())
        .max()
        .unwrap_or(0);
    let cartridge = match &args.rom {
        None => None,
        Some(p) => {
            let image =
                std::fs::read(p).with_context(|| format!("cannot read ROM {}", p.display()))?;
            Some(
                nestris_replay::rom::cartridge(&image)
                    .with_context(|| format!("{}", p.display()))?,
            )
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (mut ok, mut diverged, mut unreadable) = (0usize, 0usize, 0usize);
    for path in &traces {
        let verdict = check_file(path, cartridge.as_ref());
        match &verdict {
            Verdict::Ok { .. } => ok += 1,
            Verdict::Diverged { .. } => diverged += 1,
            Verdict::Unreadable(_) => unreadable += 1,
        }
        if args.json {
            writeln!(out, "{}", verdict_json(path, &verdict))?;
        } else {
            print_verdict(&mut out, path, width, &verdict, args.quiet)?;
        }
    }
    if args.json {
        let summary = json!({
            "summary": { "traces": traces.len(), "ok": ok, "diverged": diverged, "unreadable": unreadable }
        });
        writeln!(out, "{summary}")?;
    } else {
        let n = traces.len();
        let noun = if n == 1 { "trace" } else { "traces" };
        writeln!(
            out,
            "{n} {noun}: {ok} ok, {diverged} diverged, {unreadable} unreadable"
        )?;
    }
    out.flush()?;
    Ok(if ok == traces.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The traces a command-line path names: itself if it is not a directory (a missing file
/// is reported when it is read), else every trace below it, sorted.
fn collect(path: &Path) -> Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found = Vec::new();
    walk(path, &mut found)?;
    if found.is_empty() {
        bail!(
            "{}: no *.jsonl or *.jsonl.gz traces in this directory",
            path.display()
        );
    }
    found.sort();
    Ok(found)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("{}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("{}", dir.display()))?;
        let path = entry.path();
        let kind = entry
            .file_type()
            .with_context(|| format!("{}", path.display()))?;
        // Symlinked directories are not followed, so a link cycle cannot loop the walk.
        if kind.is_dir() {
            walk(&path, found)?;
        } else if is_trace_name(&path) && path.is_file() {
            found.push(path);
        }
    }
    Ok(())
}

fn is_trace_name(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".jsonl") || n.ends_with(".jsonl.gz"))
}

fn check_file(path: &Path, cartridge: Option<&nestris_core::Cartridge>) -> Verdict {
    let trace = match nestris_trace::load(path) {
        Ok(t) => t,
        Err(e) => return Verdict::Unreadable(describe(path, &e)),
    };
    match nestris_trace::check_with(&trace, cartridge) {
        Ok(Outcome::Ok { frames }) => Verdict::Ok { frames },
        Ok(Outcome::Diverged(d)) => Verdict::Diverged {
            total: trace.frames.len() as u64,
            divergence: *d,
        },
        Err(e) => Verdict::Unreadable(describe(path, &e)),
    }
}

/// One line naming the file and, where there is one, the line of the file.
fn describe(path: &Path, error: &TraceError) -> String {
    let p = path.display();
    match error {
        TraceError::Io { source, .. } => format!("{p}: {source}"),
        // The trace's own message names the trace without its folder; the path is clearer.
        TraceError::Format { line, message, .. } => format!("{p}: line {line}: {message}"),
        TraceError::Header(message) => format!("{p}: line 1: header state: {message}"),
    }
}

fn print_verdict(
    out: &mut impl Write,
    path: &Path,
    width: usize,
    verdict: &Verdict,
    quiet: bool,
) -> Result<()> {
    let p = path.display().to_string();
    match verdict {
        Verdict::Ok { frames } => {
            if !quiet {
                writeln!(out, "{p:<width$}  {frames:>6} frames  ok")?;
            }
        }
        Verdict::Diverged { divergence, .. } => {
            // Frames are numbered from 0, so the diverging frame is the (f+1)-th checked.
            let checked = divergence.frame + 1;
            writeln!(
                out,
                "{p:<width$}  {checked:>6} frames  DIVERGED at {divergence}"
            )?;
        }
        Verdict::Unreadable(message) => {
            // Flush the results so far first: stderr is unbuffered and would overtake them.
            out.flush()?;
            eprintln!("error: {message}");
        }
    }
    Ok(())
}

fn verdict_json(path: &Path, verdict: &Verdict) -> Value {
    let p = path.display().to_string();
    match verdict {
        Verdict::Ok { frames } => json!({ "path": p, "status": "ok", "frames": frames }),
        Verdict::Diverged {
            total,
            divergence: d,
        } => json!({
            "path": p,
            "status": "diverged",
            "frames": d.frame + 1,
            "total_frames": total,
            "divergence": {
                "frame": d.frame,
                "field": d.field,
                "expected": d.expected,
                "actual": d.actual,
                "inputs": d
                    .recent_inputs
                    .iter()
                    .map(|(f, b)| json!([f, b.to_string()]))
                    .collect::<Vec<_>>(),
            },
        }),
        Verdict::Unreadable(message) => {
            json!({ "path": p, "status": "unreadable", "error": message })
        }
    }
}
