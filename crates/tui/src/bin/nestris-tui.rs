//! `nestris-tui`: the terminal front end on its own, for trying it out and for the tmux test.
//!
//! A usage error exits with status 2, any other error (no terminal) with 1, each as one
//! line.

use std::process::ExitCode;

fn main() -> ExitCode {
    let options = match nestris_tui::TuiOptions::from_args(std::env::args_os().skip(1)) {
        Ok(o) => o,
        Err(msg) => {
            if msg.contains("usage:") {
                eprintln!("nestris-tui: {msg}");
            } else {
                eprintln!("nestris-tui: {msg}\n{}", nestris_tui::USAGE);
            }
            return ExitCode::from(2);
        }
    };
    match nestris_tui::run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nestris-tui: {e}");
            ExitCode::FAILURE
        }
    }
}
