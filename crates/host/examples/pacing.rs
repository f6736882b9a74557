//! Measures the frame scheduler alone: `cargo run --release -p nestris-host --example
//! pacing -- [SECONDS] [--pal]` runs it for 10 s (by default) and prints the mean frame
//! period and its deviation from the console's; `-- --log FILE [--pal]` sums up a log
//! that the game wrote with `NESTRIS_PACING_LOG=FILE`.

use std::time::Duration;

use nestris_core::Region;
use nestris_host::pacing::{measure, PacingStats};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let region = if args.iter().any(|a| a == "--pal") {
        Region::Pal
    } else {
        Region::Ntsc
    };
    let rate = region.frame_rate();
    if let Some(i) = args.iter().position(|a| a == "--log") {
        let Some(path) = args.get(i + 1) else {
            eprintln!("--log needs a file");
            std::process::exit(2);
        };
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(1);
        });
        match PacingStats::from_times(&PacingStats::parse_log(&text), rate) {
            Some(s) => println!("{} log {path}: {s}", region.name()),
            None => println!("{path}: fewer than two frames"),
        }
        return;
    }
    let secs: f64 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(10.0);
    println!(
        "running the scheduler alone for {secs} s at {rate} Hz ({})...",
        region.name()
    );
    let s = measure(rate, Duration::from_secs_f64(secs));
    println!("{s}");
}
