//! `nestris ai suggest`: the coach on the command line — one position as JSON in, the best
//! placements with their inputs as JSON out; or, with `--stream`, one request per line for
//! as long as the input lasts (for overlays that keep the process running).

use anyhow::{bail, Context, Result};
use clap::Args as ClapArgs;
use nestris_ai::coach::{self, MAX_REQUEST_BYTES};
use nestris_ai::WeightSet;
use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `nestris ai suggest`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    /// The request (JSON; see docs/AI.md, "The coach"); standard input when absent or `-`.
    #[arg(value_name = "REQUEST.json")]
    request: Option<PathBuf>,
    /// Read one request per line from standard input and answer each with one line, until
    /// the input ends; a bad request is answered with {"error": "..."} and the next is read.
    #[arg(long, conflicts_with = "request")]
    stream: bool,
    /// Evaluator weights (TOML or JSON, with optional tables per bracket of the game, the
    /// request's level choosing: docs/AI.md; default: the built-in ones).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
}

/// Runs `nestris ai suggest`.
pub fn run(args: &Args) -> Result<ExitCode> {
    let weights = match &args.weights {
        None => WeightSet::default(),
        Some(p) => WeightSet::load(p).with_context(|| format!("{}", p.display()))?,
    };
    if args.stream {
        return stream(&weights);
    }
    let text = match args.request.as_deref() {
        None => read_limited(std::io::stdin().lock(), "standard input")?,
        Some(p) if p.as_os_str() == "-" => read_limited(std::io::stdin().lock(), "standard input")?,
        Some(p) => {
            let f =
                std::fs::File::open(p).with_context(|| format!("cannot open {}", p.display()))?;
            read_limited(f, &p.display().to_string())?
        }
    };
    let answer = coach::suggest_json(&text, &weights)?;
    println!("{answer}");
    Ok(ExitCode::SUCCESS)
}

/// All of `r` as text, at most [`MAX_REQUEST_BYTES`].
fn read_limited(r: impl Read, name: &str) -> Result<String> {
    let mut bytes = Vec::new();
    r.take(MAX_REQUEST_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    if bytes.len() > MAX_REQUEST_BYTES {
        bail!("{name}: the request is over {MAX_REQUEST_BYTES} bytes");
    }
    String::from_utf8(bytes).with_context(|| format!("{name}: the request is not UTF-8 text"))
}

/// One answer line per request line; blank lines are skipped.
fn stream(weights: &WeightSet) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    loop {
        let mut line = Vec::new();
        let n = (&mut input)
            .take(MAX_REQUEST_BYTES as u64 + 1)
            .read_until(b'\n', &mut line)
            .context("cannot read standard input")?;
        if n == 0 {
            return Ok(ExitCode::SUCCESS);
        }
        let answer = if line.len() > MAX_REQUEST_BYTES && line.last() != Some(&b'\n') {
            skip_line(&mut input)?;
            Err(format!("the request is over {MAX_REQUEST_BYTES} bytes"))
        } else {
            match std::str::from_utf8(&line) {
                Ok(t) if t.trim().is_empty() => continue,
                Ok(t) => coach::suggest_json(t, weights).map_err(|e| e.to_string()),
                Err(_) => Err("the request is not UTF-8 text".into()),
            }
        };
        let text = answer.unwrap_or_else(|e| serde_json::json!({ "error": e }).to_string());
        writeln!(out, "{text}")?;
        out.flush()?;
    }
}

/// Reads up to the end of the current line in bounded pieces, keeping nothing.
fn skip_line(input: &mut impl BufRead) -> Result<()> {
    loop {
        let buf = input.fill_buf().context("cannot read standard input")?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}
