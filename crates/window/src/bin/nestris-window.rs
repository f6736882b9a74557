//! `nestris-window`: the desktop game. Flags: `--pal`, `--hud`, `--scale N`, `--mute`,
//! `--colours classic|nestris`, `--rom FILE`, `--config FILE`, `--data-dir DIR`, `--replay-dir DIR`; and
//! `--replay FILE` to watch a replay (`.nestris`, a versus match `.nestrisvs`, or FCEUX
//! `.fm2`) in the replay viewer instead of playing (with `--hud`, `--scale`, `--mute` and
//! `--rom`); `--editor` for the board editor; `--tap-test` for the tap-speed test (with
//! `--pal`, `--scale`, `--mute` and `--config`).
//!
//! Any error (a bad config file, no display) is printed as one line and the program
//! exits with status 1; a usage error exits with status 2.

use std::process::ExitCode;

fn main() -> ExitCode {
    let options = match nestris_window::WindowOptions::from_args(std::env::args_os().skip(1)) {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::from(2);
        }
    };
    let result = if options.tap_test {
        nestris_window::run_tap_test(nestris_window::TapTestOptions {
            region: options.region,
            scale: options.scale,
            mute: options.mute,
            config_path: options.config_path,
        })
    } else {
        nestris_window::run(options)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nestris-window: {e:#}");
            ExitCode::FAILURE
        }
    }
}
