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
mod output;
mod pilot;
mod play;
mod plot;
mod replay;
mod rng;
mod screenshot;
mod sim;
mod suggest;
mod versus;

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
    /// Two players on the same pieces: side by side, against the AI, a ghost, or over
    /// the network.
    Versus(versus::Args),
}

/// `--crash MODE`: a crash mode by its name (`cartridge`, `show`, `topout`, `off`).
fn parse_crash_mode(name: &str) -> Result<nestris_core::CrashMode, String> {
    nestris_core::CrashMode::from_name(name)
        .ok_or_else(|| format!("unknown crash mode {name:?}: use cartridge, show, topout or off"))
}

/// `--colours NAME`: the blocks' colours by name (`classic`, `nestris`).
fn parse_colours(name: &str) -> Result<nestris_render::LevelColours, String> {
    nestris_render::LevelColours::from_name(name).ok_or_else(|| {
        format!("unknown colours {name:?}: use classic (the cartridge's) or nestris")
    })
}

/// The most worker threads a command starts (more than any machine here has cores; a
/// larger count is a typo that would exhaust the system's threads).
const MAX_THREADS: usize = 1024;

/// `--threads N`: 1 to [`MAX_THREADS`].
fn thread_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n @ 1..=MAX_THREADS) => Ok(n),
        _ => Err(format!("use 1 to {MAX_THREADS}")),
    }
}

/// `--games N` and other counts of things to do: at least 1.
fn count(text: &str) -> Result<usize, String> {
    count64(text).and_then(|n| usize::try_from(n).map_err(|_| "too large".to_string()))
}

/// [`count`] as a `u64`.
fn count64(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("use a whole number of at least 1".to_string()),
    }
}

/// The worker threads a command runs when `--threads` is not given: one per core.
fn default_threads(given: Option<usize>) -> usize {
    given.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// The cartridge data of the user's ROM (`--rom FILE`), if given.
fn load_cartridge(
    rom: Option<&std::path::Path>,
) -> anyhow::Result<Option<nestris_core::Cartridge>> {
    use anyhow::Context;
    let Some(p) = rom else { return Ok(None) };
    let image = std::fs::read(p).with_context(|| format!("cannot read ROM {}", p.display()))?;
    let cart =
        nestris_replay::rom::cartridge(&image).with_context(|| format!("{}", p.display()))?;
    Ok(Some(cart))
}

/// The one line a headless command prints when its games play music without the ROM's
/// music scripts: their timing is then lost from the first frames.
fn warn_music_without_rom() {
    eprintln!(
        "nestris: music on without --rom: the sound engine's cycles are unknown, so lag frames and crashes are not modelled (--music 3, the default, needs no ROM)"
    );
}

/// A reader that stops reading (`nestris rng --json | head -1`) ends the program quietly,
/// as it ends `cat`: Rust ignores SIGPIPE, and a print to a closed pipe would panic.
fn quiet_on_closed_pipe() {
    sigpipe::reset();
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
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
        Some(Command::Versus(args)) => versus::run(&args),
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

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::CrashMode;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("nestris").chain(args.iter().copied()))
    }

    #[test]
    fn crash_modes_parse_on_every_command_that_takes_them() {
        for mode in CrashMode::ALL {
            let name = mode.name();
            let Some(Command::Sim(a)) = parse(&["sim", "--crash", name]).unwrap().command else {
                panic!("sim")
            };
            assert_eq!(a.crash, Some(mode));
            let Some(Command::Replay(a)) =
                parse(&["replay", "x.nestris", "--headless", "--crash", name])
                    .unwrap()
                    .command
            else {
                panic!("replay")
            };
            assert_eq!(a.crash, Some(mode));
            assert!(parse(&["ai", "bench", "--crash", name]).is_ok());
            assert!(parse(&["ai", "play", "--crash", name]).is_ok());
        }
        // The default is the cartridge's own behaviour; a replay keeps its recorded mode.
        let Some(Command::Sim(a)) = parse(&["sim"]).unwrap().command else {
            panic!("sim")
        };
        assert_eq!(a.crash.unwrap_or_default(), CrashMode::Cartridge);
        let Some(Command::Replay(a)) = parse(&["replay", "x.nestris"]).unwrap().command else {
            panic!("replay")
        };
        assert_eq!(a.crash, None);
        let e = parse(&["sim", "--crash", "sometimes"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("use cartridge, show, topout or off"), "{e}");
    }

    #[test]
    fn the_editor_is_reached_from_play_and_its_keys_are_in_the_help_and_the_readme() {
        let Some(Command::Play(a)) = parse(&["play", "--editor"]).unwrap().command else {
            panic!("play")
        };
        assert_eq!(a.editor, Some(None));
        let Some(Command::Play(a)) = parse(&["play", "--editor", "p.txt"]).unwrap().command else {
            panic!("play")
        };
        assert_eq!(a.editor, Some(Some(std::path::PathBuf::from("p.txt"))));
        for args in [
            &["play", "--editor", "--tui"][..],
            &["play", "--editor", "--ai"],
            &["play", "--editor", "--trainer", "ks"],
        ] {
            assert!(parse(args).is_err(), "{args:?} was accepted");
        }
        let Err(help) = parse(&["play", "--help"]) else {
            panic!("--help")
        };
        let help = help.to_string();
        let readme = include_str!("../../../README.md");
        let section = &readme[readme.find("## The board editor").expect("its section")..];
        for keys in [
            "paints",
            "erases",
            "FILL ROW",
            "CLEAR ALL",
            "SAVE",
            "LOAD",
            "Enter (Start)",
            "Tab or Right Shift (Select)",
            "E goes back to",
            "--editor",
        ] {
            assert!(help.contains(keys), "play --help lacks {keys:?}");
        }
        for keys in [
            "left button paints, right button erases",
            "Z (B) | erase",
            "X (A) | paint",
            "Enter (Start) | play the position",
            "Tab or Right Shift (Select)",
            "E goes back to the editor",
            "current L",
        ] {
            assert!(
                section.contains(keys),
                "the README's editor section lacks {keys:?}"
            );
        }
    }

    #[test]
    fn options_outside_their_range_are_refused() {
        for args in [
            &["sim", "--level", "25"][..],
            &["sim", "--games", "0"],
            &["sim", "--threads", "0"],
            &["sim", "--threads", "100000"],
            &["sim", "--max-frames", "0"],
            &["sim", "--per-game"],
            &["ai", "--start-level", "256"],
            &["ai", "--games", "0"],
            &["ai", "bench", "--games", "0"],
            &["ai", "tune", "--population", "0", "-o", "w.toml"],
            &["ai", "--threads", "2000"],
            &["rng", "--simulate", "0"],
            &["bench", "--threads", "0"],
            &["play", "--quick", "5"],
            &["play", "--tui", "--quick", "20"],
            &["play", "--tui", "--hud"],
            &["play", "--tui", "--scale", "2"],
            &["play", "--scale", "9"],
            &["play", "--ai", "--ai-level", "20"],
            &["play", "--colours", "pastel"],
            &["replay", "x.nestris", "--scale", "9"],
            &["ai", "bench", "--format", "gym"],
            &["ai", "bench", "--lookahead", "future"],
        ] {
            assert!(parse(args).is_err(), "{args:?} was accepted");
        }
        for args in [
            &["sim", "--level", "19", "--games", "1", "--threads", "1024"][..],
            &["sim", "--json", "--per-game"],
            &["ai", "--start-level", "155"],
            &["ai", "bench", "--format", "betatetris", "--games", "1100"],
            &["ai", "bench", "--adjust", "18"],
            &["ai", "bench", "--lookahead", "screen"],
            &["play", "--tui", "--quick", "19"],
            &["play", "--hud", "--scale", "8"],
            &["play", "--colours", "nestris"],
            &[
                "screenshot",
                "--snapshot",
                "s",
                "-o",
                "x.png",
                "--colours",
                "classic",
            ],
        ] {
            assert!(parse(args).is_ok(), "{args:?} was refused");
        }
    }
}
