//! `nestris versus`: two players on the same pieces, in a window or (for bots and tests)
//! headless over the network.
//!
//! Player 2 is a second player at this keyboard or gamepad (`--local`), the AI
//! (`--ai`, with its tap rate and reaction), a ghost (`--ghost FILE`: a player of a saved
//! match), or someone over the network (`--host [PORT]` / `--join HOST[:PORT]`; the
//! host's level, seed and best-of are the match's). With none of these the window opens on
//! the setup screen, where the opponent (network host and join too), the AI's tap rate and
//! reaction, the ghost and its player, the level, the seed and best-of are chosen (the
//! flags give its first values). `--headless` plays a network match with the AI at the
//! local controls and prints both games as this side saw them. The network match, the AI
//! player and the defaults are the window crate's, so the flags and the setup screen
//! start the same match.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Parser;
use nestris_core::Region;
use nestris_versus::MatchSetup;
use nestris_window::network::{parse_address, JoinAddress, NetRole};
use nestris_window::versus::{ai_player, clock_seed};

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
    /// Which player of a `.nestrisvs` ghost's match to race (1 or 2); without --ghost,
    /// the setup screen's first choice.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    ghost_player: u8,
    /// Host a network match on this port (you are player 1; alone: port 7300).
    #[arg(long, value_name = "PORT", conflicts_with = "join", num_args = 0..=1,
          default_missing_value = DEFAULT_PORT_TEXT, value_parser = parse_port)]
    host: Option<u16>,
    /// Join a network match at HOST:PORT (you are player 2; the host's setup applies;
    /// no port: 7300).
    #[arg(long, value_name = "HOST:PORT", value_parser = parse_join)]
    join: Option<JoinAddress>,
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

/// [`nestris_window::network::DEFAULT_PORT`] as the flag's text.
const DEFAULT_PORT_TEXT: &str = "7300";

fn parse_port(text: &str) -> Result<u16, String> {
    nestris_window::network::parse_port(text).map_err(|e| e.to_string())
}

fn parse_join(text: &str) -> Result<JoinAddress, String> {
    parse_address(text).map_err(|e| e.to_string())
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
            nestris_window::versus::match_path(&dir)
        }
    };
    let mut me = 0;
    let mut start = None;
    let mut names = ["PLAYER 1".to_string(), "PLAYER 2".to_string()];
    let role = match (args.host, &args.join) {
        (Some(port), _) => Some(NetRole::Host(port)),
        (None, Some(addr)) => Some(NetRole::Join(addr.clone())),
        (None, None) => None,
    };
    let opponent = if let Some(role) = role {
        let doing = match &role {
            NetRole::Host(port) => {
                eprintln!(
                    "nestris: waiting for an opponent on port {port} (seed {:06X})",
                    setup.seed
                );
                format!("hosting on port {port}")
            }
            NetRole::Join(addr) => format!("joining {addr}"),
        };
        // The setup screen's network choices start the match this same way.
        let net = nestris_window::network::connect(&role, &setup).context(doing)?;
        setup = net.setup;
        me = net.me;
        names = net.names();
        Some(net.into_opponent())
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
    let ai = nestris_window::AiMaker::standard();
    nestris_window::run_versus(nestris_window::VersusOptions {
        setup,
        opponent,
        start,
        ai: Some(ai),
        ghost_dir: dirs.replay_dir,
        ghost_player: usize::from(args.ghost_player - 1),
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

#[cfg(test)]
mod tests {
    #[test]
    fn the_host_flag_alone_uses_the_default_port() {
        assert_eq!(
            super::DEFAULT_PORT_TEXT.parse::<u16>(),
            Ok(nestris_window::network::DEFAULT_PORT)
        );
    }
}
