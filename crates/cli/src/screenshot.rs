//! `nestris screenshot`: a game state as a PNG, drawn by the renderer (with the HUD
//! beside it on `--hud`, its numbers counted while the replay plays).

use anyhow::{bail, Context, Result};
use clap::Parser;
use nestris_core::{DemoData, Game, Snapshot};
use nestris_render::{encode_png, hud, Frame, HEIGHT};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `nestris screenshot`.
#[derive(Debug, Parser)]
pub struct Args {
    /// Take the state from this replay (or FCEUX movie), after --frame frames.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "snapshot",
        required_unless_present = "snapshot"
    )]
    pub replay: Option<PathBuf>,
    /// Take the state from a snapshot file (the engine's 421-byte encoding).
    #[arg(long, value_name = "FILE")]
    pub snapshot: Option<PathBuf>,
    /// Frames of the replay to play first (default: all).
    #[arg(long, value_name = "N")]
    pub frame: Option<u64>,
    /// The blocks' colours: classic (the cartridge's, by level) or nestris (this project's).
    #[arg(long, value_name = "NAME", default_value = "classic", value_parser = crate::parse_colours)]
    pub colours: nestris_render::LevelColours,
    /// Each NES pixel as N x N pixels (1-8).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub scale: u32,
    /// Draw the HUD beside the picture (tetris rate, burn, drought, pace, DAS, taps,
    /// the buttons held), counted over the replay's frames; needs --replay.
    #[arg(long)]
    pub hud: bool,
    /// The PNG to write.
    #[arg(short, long, value_name = "FILE.png")]
    pub output: PathBuf,
}

/// Runs `nestris screenshot`.
pub fn run(args: &Args) -> Result<ExitCode> {
    if args.hud && args.replay.is_none() {
        bail!(
            "--hud needs --replay: the HUD counts a game's history, which a snapshot does not hold"
        );
    }
    crate::output::check(&args.output)?;
    let mut tally = hud::Tally::default();
    let game = if let Some(path) = &args.replay {
        let replay = nestris_replay::Replay::load(path)?;
        let n = args
            .frame
            .map(|f| f as usize)
            .unwrap_or(replay.inputs.len());
        if n > replay.inputs.len() {
            bail!(
                "--frame {n}: the replay has only {} frames",
                replay.inputs.len()
            );
        }
        let mut game = replay.game();
        for &b in &replay.inputs[..n] {
            let ev = game.step_with_demo(b, &DemoData::BUILTIN);
            tally.observe(&ev, game.state());
        }
        game
    } else if let Some(path) = &args.snapshot {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let s = Snapshot::decode(&bytes)
            .map_err(|e| anyhow::anyhow!("{}: not a valid snapshot: {e}", path.display()))?;
        Game::from_snapshot(s).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
    } else {
        bail!("give --replay FILE or --snapshot FILE");
    };
    let frame = if args.hud {
        let mut frame = Frame::with_size(hud::WIDTH, HEIGHT);
        hud::draw(&game, &tally, &mut frame, args.colours);
        frame
    } else {
        let mut frame = Frame::new();
        nestris_render::draw_with(&game, &mut frame, args.colours);
        frame
    };
    let png = if args.scale == 1 {
        encode_png(&frame)
    } else {
        let scale = args.scale as usize;
        let (w, h) = (frame.width() * scale, frame.height() * scale);
        let mut pixels = vec![0; w * h];
        nestris_render::scale_into(&frame, &mut pixels, w, h);
        nestris_render::encode_png_pixels(&pixels, w, h)
    };
    crate::output::write(&args.output, |w| w.write_all(&png))?;
    Ok(ExitCode::SUCCESS)
}
