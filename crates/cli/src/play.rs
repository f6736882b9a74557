//! `nestris play` (and `nestris` alone): the game in a window, or in the terminal.

use anyhow::{Context, Result};
use clap::Parser;
use nestris_core::Region;
use std::path::PathBuf;
use std::process::ExitCode;

/// The board editor's keys, as `nestris play --help` ends (the README's table says the same).
pub const EDITOR_KEYS: &str = "The board editor's keys (E on the level menu, or --editor): \
on the field, arrows move the cursor, X (A) paints and Z (B) erases (held: along the way), the \
mouse paints (left) and erases (right); Tab or Right Shift (Select) switches to the menu, where \
Up/Down choose a line, Left/Right change its value and X (A) does it (FILL ROW, CLEAR ROW, \
CLEAR ALL, SAVE, LOAD, PLAY); Enter (Start) plays the position; in the game, E goes back to \
the editor to try again (and Start does, once the curtain has fallen); Esc leaves the editor.";

/// Arguments of `nestris play`.
#[derive(Debug, Parser, Default)]
#[command(after_help = EDITOR_KEYS)]
pub struct Args {
    /// Play in the terminal instead of a window.
    #[arg(long)]
    pub tui: bool,
    /// The PAL cartridge (50.007 Hz, PAL gravity and DAS).
    #[arg(long)]
    pub pal: bool,
    /// Show the HUD beside the picture (tetris rate, burn, efficiency, drought, pace, DAS,
    /// taps, inputs); the window's (a wide terminal shows the numbers anyway).
    #[arg(long, conflicts_with = "tui")]
    pub hud: bool,
    /// Window scale (1-8).
    #[arg(long, value_name = "N", conflicts_with = "tui", value_parser = clap::value_parser!(u32).range(1..=8))]
    pub scale: Option<u32>,
    /// The blocks' colours: classic (the cartridge's, by level) or nestris (this project's).
    #[arg(long, value_name = "NAME", default_value = "classic", value_parser = crate::parse_colours)]
    pub colours: nestris_render::LevelColours,
    /// Start muted, effects and music (the window's; the terminal plays no sound).
    #[arg(long, conflicts_with = "tui")]
    pub mute: bool,
    /// Your own Tetris (USA) ROM image: the title screen's demo then shows the cartridge's demo.
    #[arg(long, value_name = "PATH")]
    pub rom: Option<PathBuf>,
    /// The window's key-binding file (default: in your config directory).
    #[arg(long, value_name = "FILE", conflicts_with = "tui")]
    pub config: Option<PathBuf>,
    /// Where high scores and settings are kept (default: your data directory).
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Where every session's replay is saved (default: `replays` in the data directory).
    #[arg(long, value_name = "DIR")]
    pub replay_dir: Option<PathBuf>,
    /// Terminal mode: press through the menus to an A-type game at this level (0-19).
    #[arg(long, value_name = "LEVEL", requires = "tui", value_parser = clap::value_parser!(u8).range(0..=19))]
    pub quick: Option<u8>,
    /// Let the AI play (it presses through the menus to --ai-level).
    #[arg(long)]
    pub ai: bool,
    /// The level the AI starts at (0-19).
    #[arg(long, value_name = "LEVEL", default_value_t = 18, requires = "ai", value_parser = clap::value_parser!(u8).range(0..=19))]
    pub ai_level: u8,
    /// The AI's tap rate in Hz (30, 20, 15 or 12).
    #[arg(long, value_name = "HZ", default_value_t = 30, requires = "ai")]
    pub ai_tap_hz: u8,
    /// The AI's tap pattern instead of --ai-tap-hz (X a frame that may press, . one that
    /// may not, repeating, e.g. X.X..; as `nestris ai --taps`).
    #[arg(long, value_name = "PATTERN", requires = "ai", conflicts_with = "ai_tap_hz", value_parser = parse_taps)]
    pub ai_taps: Option<nestris_ai::TapPattern>,
    /// When the cartridge would crash (levels ~155 and up): cartridge (the CPU halts, the
    /// picture freezes), show (marked CRASHED, the game plays on), topout (ends as a
    /// top-out) or off (no lag or crash model). The menus are not counted: a game starts
    /// its count from the timing the cartridge recordings had at that point. Choose music
    /// OFF in the game-type menu to have lag frames and crashes: with music, the sound
    /// engine's cycles need the ROM's music scripts (which play does not read), and the
    /// timing is lost in the game's first frames of music.
    #[arg(long, value_name = "MODE", default_value = "cartridge", value_parser = crate::parse_crash_mode)]
    pub crash: nestris_core::CrashMode,
    /// Start in a practice game instead of at power-on: transition (five lines before
    /// the first level-up), tetris-ready (a stack with the well open), ks or ksx2 (one or
    /// two rows a frame from --cap lines on), halt (the game ends at --cap lines), drought
    /// (fewer I pieces, by --drought), das-only (taps do not move the piece, auto-shift
    /// does); or tap-test, a screen that measures your tapping (taps per second and the
    /// best, frames between taps, frames from a spawn to the first tap). Scores of the
    /// session are not kept; the replay starts from the practice game. The practice games
    /// play in the terminal too (--tui); the tap-speed test is the window's.
    #[arg(long, value_name = "NAME", value_parser = parse_trainer, conflicts_with_all = ["ai", "quick"])]
    pub trainer: Option<TrainerChoice>,
    /// The trainer's start level (0-19).
    #[arg(long, value_name = "LEVEL", default_value_t = 18, requires = "trainer", value_parser = clap::value_parser!(u8).range(0..=19))]
    pub level: u8,
    /// The cap trainers' line count (ks, ksx2: from the start by default; halt: 100).
    #[arg(long, value_name = "LINES", requires = "trainer", value_parser = clap::value_parser!(u16).range(0..=999))]
    pub cap: Option<u16>,
    /// Open the board editor: paint a position, choose the current and next piece, level
    /// and lines, then play it (Start), and E goes back to it to try again. FILE (default:
    /// position.txt in the data directory) is loaded if it exists and is where the
    /// editor's SAVE writes (the format: README, "The board editor"). Keys: below.
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with_all = ["tui", "ai", "trainer"])]
    pub editor: Option<Option<PathBuf>>,
    /// The drought trainer's strength, TetrisGYM's drought modifier: 0 (none) to 18 (no
    /// I piece at all), or as TetrisGYM shows it, 0-9 then A-I; default 10 (A).
    #[arg(long, value_name = "N", requires = "trainer", value_parser = parse_drought)]
    pub drought: Option<u8>,
}

/// What `--trainer` names: a practice game, or the tap-speed test.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TrainerChoice {
    /// A practice game.
    Game(nestris_core::trainer::Trainer),
    /// The tap-speed test screen.
    TapTest,
}

/// `--trainer NAME`.
fn parse_trainer(name: &str) -> Result<TrainerChoice, String> {
    if name == "tap-test" {
        return Ok(TrainerChoice::TapTest);
    }
    nestris_core::trainer::Trainer::from_name(name)
        .map(TrainerChoice::Game)
        .ok_or_else(|| {
            let names: Vec<&str> = nestris_core::trainer::Trainer::ALL
                .iter()
                .map(|t| t.name())
                .collect();
            format!(
                "unknown trainer {name:?}: use {} or tap-test",
                names.join(", ")
            )
        })
}

/// `--drought N`: 0-18, or TetrisGYM's digit (0-9, A-I).
fn parse_drought(v: &str) -> Result<u8, String> {
    let max = nestris_core::DROUGHT_MAX;
    let n = match v.parse::<u8>() {
        Ok(n) => Some(n),
        Err(_) => match v.as_bytes() {
            [c @ (b'A'..=b'I' | b'a'..=b'i')] => Some(c.to_ascii_uppercase() - b'A' + 10),
            _ => None,
        },
    };
    n.filter(|&n| n <= max)
        .ok_or_else(|| format!("drought {v:?}: use 0-{max} (or TetrisGYM's 0-9, A-I)"))
}

/// The practice game of `--trainer` with its options.
fn trainer_game(
    t: nestris_core::trainer::Trainer,
    region: Region,
    args: &Args,
) -> nestris_core::Game {
    use nestris_core::trainer::Trainer;
    let t = match (t, args.drought) {
        (Trainer::Drought(_), Some(m)) => Trainer::Drought(m),
        _ => t,
    };
    let default_cap = if t == Trainer::Halt { 100 } else { 0 };
    t.game(region, args.level, args.cap.unwrap_or(default_cap))
}

/// `--ai-taps PATTERN`.
fn parse_taps(s: &str) -> Result<nestris_ai::TapPattern, String> {
    nestris_ai::TapPattern::parse(s).map_err(|e| e.to_string())
}

/// The input model for a tap rate in Hz.
pub fn tap_model(hz: u8) -> Result<nestris_ai::InputModel> {
    let interval = match hz {
        30 => 2,
        20 => 3,
        15 => 4,
        12 => 5,
        _ => anyhow::bail!("tap rate {hz} Hz: use 30, 20, 15 or 12"),
    };
    Ok(nestris_ai::InputModel::tapping(interval))
}

/// Runs `nestris play`.
pub fn run(args: &Args) -> Result<ExitCode> {
    let region = if args.pal { Region::Pal } else { Region::Ntsc };
    let pilot = if args.ai {
        Some(crate::pilot::autopilot(
            args.ai_level,
            match args.ai_taps {
                Some(taps) => nestris_ai::InputModel::with_taps(taps),
                None => tap_model(args.ai_tap_hz)?,
            },
            nestris_ai::Weights::default(),
        ))
    } else {
        None
    };
    if args.tui {
        if args.trainer == Some(TrainerChoice::TapTest) {
            anyhow::bail!(
                "--trainer tap-test: the tap-speed test is the window's (not with --tui)"
            );
        }
        if args.colours != nestris_render::LevelColours::Classic {
            anyhow::bail!("--colours: the terminal shows the cartridge's colours only");
        }
        // The same replay folder as the window's, unless told otherwise.
        let mut dirs = nestris_host::Dirs::user();
        if let Some(d) = &args.data_dir {
            dirs = nestris_host::Dirs::with_data_dir(dirs.config_path, d.clone());
        }
        let replay_dir = args.replay_dir.clone().unwrap_or(dirs.replay_dir);
        // The window's high-score table too; the AI's games stay out of it.
        let data_dir = pilot.is_none().then_some(dirs.data_dir);
        let rom_demo = match &args.rom {
            Some(rom) => Some(crate::replay::demo_tables(Some(rom)).context("--rom")?),
            None => None,
        };
        nestris_tui::run_with_pilot(
            nestris_tui::TuiOptions {
                region,
                quick: args.quick,
                replay_dir: Some(replay_dir),
                data_dir,
                rom_demo,
                crash_mode: args.crash,
                start: match args.trainer {
                    Some(TrainerChoice::Game(t)) => Some(trainer_game(t, region, args)),
                    _ => None,
                },
            },
            pilot,
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.trainer == Some(TrainerChoice::TapTest) {
        let mut options = nestris_window::TapTestOptions {
            region,
            mute: args.mute,
            ..Default::default()
        };
        if let Some(s) = args.scale {
            options.scale = s;
        }
        if let Some(p) = &args.config {
            options.config_path = p.clone();
        }
        nestris_window::run_tap_test(options)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut options = nestris_window::WindowOptions {
        ai: pilot,
        region,
        hud: args.hud,
        mute: args.mute,
        crash_mode: args.crash,
        colours: args.colours,
        start: match args.trainer {
            Some(TrainerChoice::Game(t)) => Some(trainer_game(t, region, args)),
            _ => None,
        },
        ..Default::default()
    };
    if let Some(file) = &args.editor {
        options.editor = true;
        options.position_file = file.clone();
    }
    if let Some(s) = args.scale {
        options.scale = s;
    }
    if let Some(p) = &args.config {
        options.config_path = p.clone();
    }
    if let Some(d) = &args.data_dir {
        options.data_dir = d.clone();
        if args.replay_dir.is_none() {
            options.replay_dir = d.join("replays");
        }
    }
    if let Some(d) = &args.replay_dir {
        options.replay_dir = d.clone();
    }
    if let Some(rom) = &args.rom {
        let demo = crate::replay::demo_tables(Some(rom)).context("--rom")?;
        options.rom_demo = Some(demo);
    }
    nestris_window::run(options)?;
    Ok(ExitCode::SUCCESS)
}

/// How `nestris replay` (without `--headless`) shows a replay in the window.
#[derive(Debug)]
pub struct Watch {
    /// Show the HUD.
    pub hud: bool,
    /// Start muted.
    pub mute: bool,
    /// Window scale (1-8), else the viewer's default.
    pub scale: Option<u32>,
    /// The cartridge's demo tables, if a ROM was given.
    pub rom_demo: Option<nestris_core::DemoData>,
    /// The blocks' colours.
    pub colours: nestris_render::LevelColours,
}

/// Shows a versus match in the window's replay viewer (both fields and the scoreboard).
pub fn watch_versus(replay: nestris_versus::file::VersusReplay, how: Watch) -> Result<()> {
    let mut options = nestris_window::ReplayViewerOptions {
        mute: how.mute,
        colours: how.colours,
        ..Default::default()
    };
    if let Some(s) = how.scale {
        options.scale = s;
    }
    Ok(nestris_window::play_versus_replay(replay, options)?)
}

/// Shows `replay` in the window's replay viewer. It lives here, with `play`, so that the
/// headless commands' modules use no front-end crate.
pub fn watch(replay: nestris_replay::Replay, how: Watch) -> Result<()> {
    let mut options = nestris_window::ReplayViewerOptions {
        hud: how.hud,
        mute: how.mute,
        rom_demo: how.rom_demo,
        colours: how.colours,
        ..Default::default()
    };
    if let Some(s) = how.scale {
        options.scale = s;
    }
    Ok(nestris_window::play_replay(replay, options)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::trainer::Trainer;

    #[test]
    fn droughts_read_as_numbers_or_tetrisgym_s_digits() {
        assert_eq!(parse_drought("0"), Ok(0));
        assert_eq!(parse_drought("9"), Ok(9));
        assert_eq!(parse_drought("A"), Ok(10));
        assert_eq!(parse_drought("i"), Ok(18));
        assert_eq!(parse_drought("18"), Ok(18));
        assert!(parse_drought("19").is_err());
        assert!(parse_drought("J").is_err());
        assert!(parse_drought("").is_err());
    }

    #[test]
    fn every_trainer_and_the_tap_test_parse_by_name() {
        for t in Trainer::ALL {
            assert_eq!(parse_trainer(t.name()), Ok(TrainerChoice::Game(t)));
        }
        assert_eq!(parse_trainer("tap-test"), Ok(TrainerChoice::TapTest));
        // --drought sets the drought trainer's modifier, and only its.
        let args = Args {
            drought: Some(15),
            ..Args::default()
        };
        let g = trainer_game(Trainer::Drought(10), Region::Ntsc, &args);
        assert_eq!(g.state().variant.drought, 15);
        let g = trainer_game(Trainer::DasOnly, Region::Ntsc, &args);
        assert_eq!(g.state().variant.drought, 0);
    }

    #[test]
    fn the_practice_games_play_in_the_terminal_and_the_tap_test_does_not() {
        let parse = |a: &[&str]| Args::try_parse_from([&["play"], a].concat());
        for t in Trainer::ALL {
            let a = parse(&["--tui", "--trainer", t.name(), "--level", "9"]).unwrap();
            assert_eq!(a.trainer, Some(TrainerChoice::Game(t)));
        }
        let a = parse(&["--tui", "--trainer", "drought", "--drought", "I"]).unwrap();
        assert_eq!(a.drought, Some(18));
        assert!(parse(&["--tui", "--trainer", "ks", "--quick", "18"]).is_err());
        // The tap test parses, and is refused in one line before the terminal is touched.
        let a = parse(&["--tui", "--trainer", "tap-test"]).unwrap();
        let e = run(&a).unwrap_err().to_string();
        assert_eq!(
            e,
            "--trainer tap-test: the tap-speed test is the window's (not with --tui)"
        );
    }
}
