//! `nestris rng`: the randomizer analysis, exhaustive, and optionally measured in games.

use anyhow::Result;
use clap::Parser;
use nestris_sim::rng::{analyse, simulate, Analysis, PIECES};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `nestris rng`.
#[derive(Debug, Parser)]
pub struct Args {
    /// Also measure the same figures in N simulated games (random input).
    #[arg(long, value_name = "N", value_parser = crate::count64)]
    pub simulate: Option<u64>,
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
    /// Draw a heat map of the 7x7 matrix to this PNG file.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
}

fn print_table(title: &str, a: &Analysis) {
    println!("{title}");
    print!("prev\\next");
    for p in PIECES {
        print!("{p:>8}");
    }
    println!();
    for (i, row) in a.matrix.iter().enumerate() {
        print!("{:>9}", PIECES[i]);
        for v in row {
            print!("{:>7.2}%", v * 100.0);
        }
        println!();
    }
    print!("{:>9}", "share");
    for v in a.shares {
        print!("{:>7.2}%", v * 100.0);
    }
    println!();
    print!("{:>9}", "repeat");
    for v in a.repeat {
        print!("{:>7.2}%", v * 100.0);
    }
    println!();
    println!(
        "long-run repeat rate {:.2}% (uniform 1/7 = 14.29%)",
        a.repeat_rate * 100.0
    );
}

/// Runs `nestris rng`.
pub fn run(args: &Args) -> Result<ExitCode> {
    if let Some(path) = &args.plot {
        crate::output::check(path)?;
    }
    let start = std::time::Instant::now();
    let exact = analyse();
    let secs = start.elapsed().as_secs_f64();
    let sim = args.simulate.map(|n| simulate(n, 1));
    if args.json {
        let v = serde_json::json!({"exhaustive": exact, "seconds": secs, "simulated": sim, "pieces": PIECES});
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print_table(&format!("P(next | previous), exhaustive over {} generator states x 256 pick counts ({secs:.3} s)", exact.states), &exact);
        if let (Some(s), Some(n)) = (&sim, args.simulate) {
            println!();
            print_table(&format!("measured in {n} simulated games"), s);
        }
    }
    if let Some(path) = &args.plot {
        crate::plot::heat_map(path, &exact)?;
        if !args.json {
            println!("heat map written to {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
