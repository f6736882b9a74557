//! `nestris play` (and `nestris` alone): the game in a window, or in the terminal.

use anyhow::{Context, Result};
use clap::Parser;
use nestris_core::Region;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `nestris play`.
#[derive(Debug, Parser, Default)]
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
    /// two rows a frame from --cap lines on), halt (the game ends at --cap lines). Scores
    /// of the session are not kept; the replay starts from the practice game.
    #[arg(long, value_name = "NAME", value_parser = parse_trainer, conflicts_with_all = ["tui", "ai"])]
    pub trainer: Option<nestris_core::trainer::Trainer>,
    /// The trainer's start level (0-19).
    #[arg(long, value_name = "LEVEL", default_value_t = 18, requires = "trainer", value_parser = clap::value_parser!(u8).range(0..=19))]
    pub level: u8,
    /// The cap trainers' line count (ks, ksx2: from the start by default; halt: 100).
    #[arg(long, value_name = "LINES", requires = "trainer", value_parser = clap::value_parser!(u16).range(0..=999))]
    pub cap: Option<u16>,
}

/// `--trainer NAME`.
fn parse_trainer(name: &str) -> Result<nestris_core::trainer::Trainer, String> {
    nestris_core::trainer::Trainer::from_name(name).ok_or_else(|| {
        format!("unknown trainer {name:?}: use transition, tetris-ready, ks, ksx2 or halt")
    })
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
            },
            pilot,
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut options = nestris_window::WindowOptions {
        ai: pilot,
        region,
        hud: args.hud,
        mute: args.mute,
        crash_mode: args.crash,
        colours: args.colours,
        start: args.trainer.map(|t| {
            let default_cap = if t == nestris_core::trainer::Trainer::Halt {
                100
            } else {
                0
            };
            t.game(region, args.level, args.cap.unwrap_or(default_cap))
        }),
        ..Default::default()
    };
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
