//! `nestris versus`: two players on the same pieces, in a window or (for bots and tests)
//! headless over the network.
//!
//! Player 2 is a second player at this keyboard or gamepad (`--local`), the AI
//! (`--ai`, with its tap rate and reaction), a ghost (`--ghost FILE`: a player of a saved
//! match), or someone over the network (`--host PORT` / `--join HOST:PORT`; the host's
//! level, seed and best-of are the match's). With none of these the window opens on the
//! setup screen, where the opponent, the AI's tap rate and reaction, the ghost, the
//! level, the seed and best-of are chosen (the flags give its first values). `--headless` plays a network match with the
//! AI at the local controls and prints both games as this side saw them.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Parser;
use nestris_ai::{Ai, InputModel, TapClock, Weights};
use nestris_core::{Buttons, Game, PlayState, Region};
use nestris_versus::MatchSetup;

#[derive(Debug, Parser)]
pub struct Args {
    /// Start level of every game (0-19).
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u8).range(0..=19))]
    level: u8,
    /// The match's TetrisGYM seed (six hex digits); default: from the clock.
    #[arg(long, value_name = "HEX", value_parser = parse_seed)]
    seed: Option<u32>,
    /// Games in the match at most (odd, 1-15).
    #[arg(long, default_value_t = 3, value_parser = parse_best_of)]
    best_of: u8,
    /// PAL (50 Hz) instead of NTSC.
    #[arg(long)]
    pal: bool,
    /// Player 2 is a second player at this keyboard or on a second gamepad (no setup
    /// screen).
    #[arg(long, conflicts_with_all = ["ai", "ghost", "host", "join"])]
    local: bool,
    /// Player 2 is the AI.
    #[arg(long, conflicts_with_all = ["ghost", "host", "join"])]
    ai: bool,
    /// The AI's tap rate in Hz (30, 20, 15, 12).
    #[arg(long, value_name = "HZ", default_value_t = 15)]
    ai_hz: u8,
    /// The AI's reaction: it plans each piece blind to the new preview and sees it after
    /// this many frames (0: at once).
    #[arg(long, value_name = "FRAMES", default_value_t = 18)]
    ai_reaction: u8,
    /// Race a ghost: a saved match's player (a `.nestrisvs` file) or a single-player
    /// replay's game (`.nestris`, from where its game starts, on its seed and rules).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["host", "join"])]
    ghost: Option<PathBuf>,
    /// Which player of the ghost's match to race (1 or 2).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2), requires = "ghost")]
    ghost_player: u8,
    /// Host a network match on this port (you are player 1).
    #[arg(long, value_name = "PORT", conflicts_with = "join")]
    host: Option<u16>,
    /// Join a network match at HOST:PORT (you are player 2; the host's setup applies).
    #[arg(long, value_name = "HOST:PORT")]
    join: Option<String>,
    /// No window: the AI plays this side of a network match for --frames frames.
    #[arg(long, requires = "frames")]
    headless: bool,
    /// Headless: local frames to play.
    #[arg(long, value_parser = crate::count64, requires = "headless")]
    frames: Option<u64>,
    /// Where the match is saved (default: the replay folder).
    #[arg(short, long, value_name = "FILE.nestrisvs")]
    output: Option<PathBuf>,
    /// The window's size as a multiple of the picture (1-8).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8))]
    scale: Option<u32>,
    /// Start with the sound off.
    #[arg(long)]
    mute: bool,
    /// The blocks' colours: classic (the cartridge's) or nestris.
    #[arg(long, default_value = "classic", value_parser = crate::parse_colours)]
    colours: nestris_render::LevelColours,
}

fn parse_seed(text: &str) -> Result<u32, String> {
    match u32::from_str_radix(text, 16) {
        Ok(v) if v <= 0xFF_FFFF && !text.is_empty() && text.len() <= 6 => Ok(v),
        _ => Err("use up to six hex digits (000000 to FFFFFF)".into()),
    }
}

fn parse_best_of(text: &str) -> Result<u8, String> {
    match text.parse::<u8>() {
        Ok(n) if n % 2 == 1 && n <= nestris_versus::MAX_BEST_OF => Ok(n),
        _ => Err(format!(
            "use an odd number from 1 to {}",
            nestris_versus::MAX_BEST_OF
        )),
    }
}

/// A seed from the clock, when none is given.
fn clock_seed() -> u32 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    ((t ^ (t >> 24)) & 0xFF_FFFF) as u32
}

/// The AI as a versus player, frame by frame: each piece planned blind to the new
/// preview, then adjusted once `reaction` frames have passed (as `nestris ai --adjust`).
pub fn ai_player(model: InputModel, reaction: u8) -> impl FnMut(&Game) -> Buttons {
    let mut ai = Ai::new(Weights::default(), model);
    let mut plan: Vec<Buttons> = Vec::new();
    let mut at = 0;
    let mut need_plan = true;
    let mut since_spawn = 0u32;
    let mut clock = TapClock::new(model.taps);
    let mut adjusted = true;
    move |game: &Game| {
        let s = game.state();
        if s.phase() != PlayState::Control {
            need_plan = true;
        } else if need_plan {
            plan = if reaction == 0 {
                ai.search_mut().plan_in_game(game)
            } else {
                ai.search_mut().plan_blind(game)
            }
            .map(|p| p.inputs)
            .unwrap_or_default();
            at = 0;
            need_plan = false;
            since_spawn = 0;
            clock = TapClock::new(model.taps);
            adjusted = reaction == 0;
        } else if !adjusted && since_spawn >= u32::from(reaction) && clock.may_tap() {
            if let Some(p) = ai.search_mut().plan_in_game(game) {
                plan = p.inputs;
                at = 0;
            }
            adjusted = true;
        }
        let b = plan.get(at).copied().unwrap_or(Buttons::NONE);
        at += 1;
        since_spawn += 1;
        clock.step(b.bits() & !s.held != 0);
        b
    }
}

/// Runs `nestris versus`.
pub fn run(args: &Args) -> Result<ExitCode> {
    let mut setup = MatchSetup {
        region: if args.pal { Region::Pal } else { Region::Ntsc },
        level: args.level,
        seed: args.seed.unwrap_or_else(clock_seed),
        best_of: args.best_of,
    };
    let model = crate::play::tap_model(args.ai_hz)?;
    if args.headless && args.host.is_none() && args.join.is_none() {
        bail!("--headless plays a network match: give --host PORT or --join HOST:PORT");
    }
    let output = match &args.output {
        Some(p) if p.as_os_str() == crate::output::STDOUT => {
            bail!("-o: a versus match is saved to a file, not standard output")
        }
        Some(p) => {
            crate::output::check(p)?;
            p.clone()
        }
        None => {
            let dir = nestris_host::Dirs::user().replay_dir;
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("creating the replay folder {}", dir.display()))?;
            let name = nestris_replay::session::file_name(std::time::SystemTime::now())
                .replace(".nestris", "-versus.nestrisvs");
            dir.join(name)
        }
    };
    let mut me = 0;
    let mut start = None;
    let mut names = ["PLAYER 1".to_string(), "PLAYER 2".to_string()];
    let opponent = if let Some(port) = args.host {
        eprintln!(
            "nestris: waiting for an opponent on port {port} (seed {:06X})",
            setup.seed
        );
        let link = nestris_versus::net::host(port, &setup)
            .with_context(|| format!("hosting on port {port}"))?;
        names = ["YOU".into(), "GUEST".into()];
        Some(nestris_window::Opponent::Net(Box::new(link)))
    } else if let Some(addr) = &args.join {
        let (link, theirs) =
            nestris_versus::net::join(addr).with_context(|| format!("joining {addr}"))?;
        setup = theirs;
        me = 1;
        names = ["HOST".into(), "YOU".into()];
        Some(nestris_window::Opponent::Net(Box::new(link)))
    } else if let Some(path) = &args.ghost {
        let ghost =
            nestris_window::versus::ghost_from_file(path, usize::from(args.ghost_player - 1))
                .map_err(anyhow::Error::msg)?;
        if let Some(note) = ghost.note {
            eprintln!("nestris: {note}");
        }
        setup = ghost.setup;
        start = ghost.start;
        names[1] = "GHOST".into();
        Some(ghost.opponent)
    } else if args.ai {
        names[1] = format!("AI {}HZ", args.ai_hz);
        Some(nestris_window::Opponent::Ai(Box::new(ai_player(
            model,
            args.ai_reaction,
        ))))
    } else if args.local {
        Some(nestris_window::Opponent::Local)
    } else {
        None
    };
    if args.headless {
        let Some(nestris_window::Opponent::Net(mut link)) = opponent else {
            unreachable!("checked above")
        };
        let frames = args.frames.unwrap_or(1);
        let player = ai_player(model, args.ai_reaction);
        let (replay, why) =
            nestris_versus::net::play_headless(&mut link, setup, me, frames, player);
        replay
            .save(&output)
            .with_context(|| format!("saving the match to {}", output.display()))?;
        let m = replay.play();
        let sides: Vec<serde_json::Value> = (0..2)
            .map(|p| {
                serde_json::json!({
                    "frames": replay.inputs[p].len(),
                    "game": m.sides[p].game_no,
                    "score": m.sides[p].score(),
                    "hash": format!("{:016x}", replay.hashes[p]),
                })
            })
            .collect();
        let out = serde_json::json!({
            "me": me + 1,
            "seed": format!("{:06X}", setup.seed),
            "players": sides,
            "wins": m.wins,
            "closed": why,
            "match": output.display().to_string(),
        });
        println!("{out}");
        return Ok(ExitCode::SUCCESS);
    }
    let dirs = nestris_host::Dirs::user();
    let ai = nestris_window::AiMaker(Box::new(|hz, reaction| {
        // The setup screen offers only the rates the AI has a model for.
        let model = crate::play::tap_model(hz).unwrap_or(nestris_ai::InputModel::tapping(4));
        Box::new(ai_player(model, reaction))
    }));
    nestris_window::run_versus(nestris_window::VersusOptions {
        setup,
        opponent,
        start,
        ai: Some(ai),
        ghost_dir: dirs.replay_dir,
        me,
        names,
        scale: args.scale.unwrap_or(2),
        mute: args.mute,
        colours: args.colours,
        config_path: dirs.config_path,
        save_to: output,
    })?;
    Ok(ExitCode::SUCCESS)
}
