//! The data the built-in risk tables (`nestris_ai::risk`) were fitted to: BetaTetris's
//! format played from level 29 (or 39, the double killscreen) on the format's seeds after
//! the first 2,000 (neither the benchmark's 1,000 nor the tunes' next 1,000), one line per
//! piece under control.
//!
//! ```console
//! cargo run --release -p nestris-ai --example risk_data -- OUT GAMES FIRST [format|tetris] [29|39]
//! ```
//!
//! Games `FIRST..FIRST + GAMES` of those seeds are played from level 29 (the default) or
//! 39 with the format's weights (`format`, the default) or with a set that makes more
//! tetrises and tops out more often (`tetris`: from 29 the `[level19]` set at levels 29-38
//! too; from 39 the `[double_killscreen]` set with a tetris weighed +20), and a quick
//! search (depth 3, blind depth 3 from level 29 for every candidate) on two threads. Each
//! line: the game, the piece's index in it, the game's pieces, the level, 1 if the game
//! ended in a top-out, then the field's active table entries
//! (`nestris_ai::risk::features`). `crates/ai/examples/fit_risk.py` fits the table.

use nestris_ai::benchmark::{BenchConfig, SeedList};
use nestris_ai::format::{betatetris_seeds, Format};
use nestris_ai::risk::{features, field_rows, ACTIVE};
use nestris_ai::{play_from, Board, Bracket, Limits, Weights};
use nestris_core::{FrameEvents, PlayState};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The seeds before these are the benchmark's and the tunes'.
const SKIP: usize = 2000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: risk_data OUT GAMES FIRST [format|tetris] [29|39]");
        std::process::exit(2);
    }
    let out = &args[0];
    let games: usize = args[1].parse().expect("GAMES: a count");
    let first: usize = args[2].parse().expect("FIRST: a game index");
    let format = Format::Betatetris;
    let start_level: u8 = match args.get(4).map(String::as_str) {
        None | Some("29") => 29,
        Some("39") => 39,
        Some(other) => panic!("{other}: 29 or 39"),
    };
    let mut weights = format.weights();
    match args.get(3).map(String::as_str) {
        None | Some("format") => {}
        Some("tetris") if start_level == 29 => {
            weights.set(Bracket::Level29, *weights.get(Bracket::Level19))
        }
        Some("tetris") => {
            let dks = *weights.get(Bracket::DoubleKillscreen);
            weights.set(
                Bracket::DoubleKillscreen,
                Weights {
                    tetris: 20.0,
                    ..dks
                },
            );
        }
        Some(other) => panic!("{other}: format or tetris"),
    }
    let mut search = format.search();
    search.depth = 3;
    search.blind_depth_29 = 3;
    search.blind_beam_29 = 0;
    let config = BenchConfig {
        start_level,
        seeds: SeedList::standard(),
        threads: 1,
        weights,
        search,
        format,
        adjust_after: format.adjust_after(),
        limits: Limits::default(),
        ..BenchConfig::default()
    };
    let gym = betatetris_seeds(SKIP + first + games, 0)[SKIP..].to_vec();
    let lines = Mutex::new(Vec::<(usize, String)>::new());
    let next = AtomicUsize::new(first);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= first + games {
                    break;
                }
                let seed = config.seeds.0[i % config.seeds.len()];
                let start = config.game_of(&seed, Some(gym[i]));
                let mut ai = config.ai();
                let result = play_from(start.clone(), &mut ai, &config.limits, true);
                // The game again from its inputs, each piece's field taken in its first
                // frame under control (as the AI saw it).
                let mut game = start;
                let mut fields = Vec::new();
                let mut spawned = true;
                for &b in &result.inputs {
                    if spawned && game.state().phase() == PlayState::Control {
                        let s = game.state();
                        fields.push((s.level, field_rows(&Board::from_playfield(&s.playfield))));
                        spawned = false;
                    }
                    spawned |= game.step(b).has(FrameEvents::SPAWNED);
                }
                let n = fields.len();
                let top = result.topped_out as u8;
                let mut text = String::new();
                for (k, (level, rows)) in fields.iter().enumerate() {
                    let mut active = [0u16; ACTIVE];
                    features(rows, &mut active);
                    let active: Vec<String> = active.iter().map(u16::to_string).collect();
                    text += &format!("{i} {k} {n} {level} {top} {}\n", active.join(" "));
                }
                eprintln!("game {i}: {} lines, top-out {top}", result.lines);
                lines.lock().unwrap().push((i, text));
            });
        }
    });
    let mut games = lines.into_inner().unwrap();
    games.sort();
    let mut f = std::fs::File::create(out).unwrap_or_else(|e| panic!("{out}: {e}"));
    for (_, text) in games {
        f.write_all(text.as_bytes()).unwrap();
    }
}
