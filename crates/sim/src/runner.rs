//! Playing many games on many threads and summarising them.

use crate::policy::{Driver, Policy};
use nestris_core::bcd::{lines_value, score_value};
use nestris_core::{Cartridge, CrashMode, FrameEvents, Game, GameSetup, Region};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Games to play.
    pub games: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Seed of the first game; game `i` uses `seed + i` ([`GameSetup::from_seed`]).
    pub seed: u64,
    /// Start level (0..=255; 10..=19 as with A+Start).
    pub level: u8,
    /// Region.
    pub region: Region,
    /// The input policy.
    pub policy: Policy,
    /// A game stops after this many frames even if it has not ended.
    pub max_frames: u64,
    /// What the engine does when the cartridge would crash.
    pub crash_mode: CrashMode,
    /// The music choice 0..=3 (3, the default: off). The sound engine's cycles while
    /// music plays need the cartridge's music scripts (`cartridge`); without them the
    /// sub-frame timing is lost within the first frames and no lag frame or crash is
    /// modelled.
    pub music_type: u8,
    /// What only the user's ROM holds (the music's scripts, the demo), if given.
    pub cartridge: Option<Arc<Cartridge>>,
}

impl SimConfig {
    /// True when the games' timing cannot be followed: music on and no cartridge data,
    /// so that no lag frame or crash will be modelled (the crash mode aside).
    pub fn timing_unmodelled(&self) -> bool {
        self.music_type != 3 && self.cartridge.as_ref().is_none_or(|c| c.music.is_none())
    }
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            games: 1,
            threads: 1,
            seed: 0,
            level: 0,
            region: Region::Ntsc,
            policy: Policy::Idle,
            max_frames: 10_000_000,
            crash_mode: CrashMode::Cartridge,
            music_type: 3,
            cartridge: None,
        }
    }
}

/// One game's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameOutcome {
    /// The seed it was started from.
    pub seed: u64,
    /// Frames played.
    pub frames: u64,
    /// Pieces spawned (the first piece included).
    pub pieces: u64,
    /// Lines cleared.
    pub lines: u32,
    /// Final score.
    pub score: u32,
    /// Final level.
    pub level: u8,
    /// True if it topped out (false: stopped by `max_frames` or a crash).
    pub topped_out: bool,
    /// Lag frames (`FrameEvents::LAG`).
    pub lag_frames: u64,
    /// True if the cartridge would have crashed (`Game::crashed`); under crash mode
    /// `cartridge` the game ended there.
    pub crashed: bool,
    /// The frame (from 0) of the crash.
    pub crash_frame: Option<u64>,
    /// Hash of the final state (serialized as 16 hex digits: a JSON number would lose
    /// bits above 2^53 in most readers).
    #[serde(serialize_with = "hex_u64")]
    pub state_hash: u64,
}

/// A 64-bit hash as the string of its 16 hex digits, as `replay --json` prints hashes.
fn hex_u64<S: serde::Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{v:016x}"))
}

/// Plays one game from `setup` with `policy` until it tops out or `max_frames` pass.
pub fn play_one(setup: GameSetup, seed: u64, policy: &Policy, max_frames: u64) -> GameOutcome {
    play_from(Game::new(setup), seed, policy, max_frames)
}

/// Plays on from any state (a replay's start, a snapshot) until a top-out, a halt (a crash
/// under crash mode `cartridge`) or `max_frames` frames; `seed` drives the random policy.
pub fn play_from(game: Game, seed: u64, policy: &Policy, max_frames: u64) -> GameOutcome {
    play_from_with(game, seed, policy, max_frames, None)
}

/// [`play_from`] with what only a cartridge image holds (its music's scripts, which the
/// sound engine's cycles depend on while music plays; its demo tables).
pub fn play_from_with(
    mut game: Game,
    seed: u64,
    policy: &Policy,
    max_frames: u64,
    cartridge: Option<&Cartridge>,
) -> GameOutcome {
    let mut driver = Driver::new(policy.clone(), seed);
    let mut frames = 0u64;
    let mut pieces = 1u64;
    let mut topped_out = false;
    let mut lag_frames = 0u64;
    let mut crash_frame = None;
    while frames < max_frames && !game.crash_ended() {
        let b = driver.buttons(game.state());
        let ev = match cartridge {
            Some(c) => game.step_with_cartridge(b, c),
            None => game.step(b),
        };
        frames += 1;
        if ev.flags & FrameEvents::SPAWNED != 0 {
            pieces += 1;
        }
        lag_frames += ev.has(FrameEvents::LAG) as u64;
        if ev.has(FrameEvents::CRASHED) && crash_frame.is_none() {
            crash_frame = Some(frames - 1);
        }
        if ev.flags & FrameEvents::TOPPED_OUT != 0 {
            topped_out = true;
            break;
        }
    }
    let s = game.state();
    GameOutcome {
        seed,
        frames,
        pieces,
        lines: lines_value(s.lines),
        score: score_value(s.score),
        level: s.level,
        topped_out,
        lag_frames,
        crashed: game.crashed().is_some(),
        crash_frame,
        state_hash: s.state_hash(),
    }
}

/// What a simulation found.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Frames played in all.
    pub frames: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Frames per second over all threads.
    pub frames_per_second: f64,
    /// Pieces in all.
    pub pieces: u64,
    /// Lines in all.
    pub lines: u64,
    /// Score: mean.
    pub score_mean: f64,
    /// Score: minimum, 10th, 50th, 90th percentile, maximum.
    pub score_percentiles: [u32; 5],
    /// Games that topped out.
    pub topped_out: u64,
    /// Lag frames in all.
    pub lag_frames: u64,
    /// Games in which the cartridge would have crashed.
    pub crashed: u64,
    /// Every game, in seed order.
    pub outcomes: Vec<GameOutcome>,
}

/// Plays `config.games` games over `config.threads` threads. `progress` is called with
/// the number of games finished so far, from the worker threads.
pub fn run(config: &SimConfig, progress: &(dyn Fn(u64) + Sync)) -> Summary {
    let start = Instant::now();
    let games = usize::try_from(config.games).expect("a game count that fits in memory");
    let mut outcomes: Vec<GameOutcome> = crate::pool::map(
        games,
        config.threads.max(1),
        || (),
        |(), i| {
            let seed = config.seed.wrapping_add(i as u64);
            let setup = GameSetup {
                region: config.region,
                level: config.level,
                crash_mode: config.crash_mode,
                music_type: config.music_type,
                ..GameSetup::from_seed(seed)
            };
            play_from_with(
                Game::new(setup),
                seed,
                &config.policy,
                config.max_frames,
                config.cartridge.as_deref(),
            )
        },
        &|n| progress(n as u64),
    );
    outcomes.sort_by_key(|o| o.seed);
    let seconds = start.elapsed().as_secs_f64();
    let frames: u64 = outcomes.iter().map(|o| o.frames).sum();
    let mut scores: Vec<u32> = outcomes.iter().map(|o| o.score).collect();
    scores.sort_unstable();
    let pct = |p: f64| -> u32 {
        if scores.is_empty() {
            return 0;
        }
        let i = ((scores.len() - 1) as f64 * p).round() as usize;
        scores[i]
    };
    Summary {
        games: outcomes.len() as u64,
        frames,
        seconds,
        frames_per_second: if seconds > 0.0 {
            frames as f64 / seconds
        } else {
            0.0
        },
        pieces: outcomes.iter().map(|o| o.pieces).sum(),
        lines: outcomes.iter().map(|o| o.lines as u64).sum(),
        score_mean: if outcomes.is_empty() {
            0.0
        } else {
            scores.iter().map(|&s| s as f64).sum::<f64>() / outcomes.len() as f64
        },
        score_percentiles: [pct(0.0), pct(0.1), pct(0.5), pct(0.9), pct(1.0)],
        topped_out: outcomes.iter().filter(|o| o.topped_out).count() as u64,
        lag_frames: outcomes.iter().map(|o| o.lag_frames).sum(),
        crashed: outcomes.iter().filter(|o| o.crashed).count() as u64,
        outcomes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_do_not_change_results() {
        let one = run(
            &SimConfig {
                games: 6,
                threads: 1,
                policy: Policy::Random,
                ..SimConfig::default()
            },
            &|_| {},
        );
        let three = run(
            &SimConfig {
                games: 6,
                threads: 3,
                policy: Policy::Random,
                ..SimConfig::default()
            },
            &|_| {},
        );
        assert_eq!(one.outcomes, three.outcomes);
        assert_eq!(one.topped_out, 6);
    }

    #[test]
    fn idle_games_top_out_and_agree_with_the_plain_engine() {
        let o = play_one(GameSetup::from_seed(5), 5, &Policy::Idle, 1_000_000);
        assert!(o.topped_out);
        let mut g = Game::new(GameSetup::from_seed(5));
        for _ in 0..o.frames {
            g.step(nestris_core::Buttons::NONE);
        }
        assert_eq!(g.state().state_hash(), o.state_hash);
        assert_eq!((o.lag_frames, o.crashed), (0, false));
    }

    #[test]
    fn the_default_games_keep_their_timing_without_a_rom() {
        // Music off: the sound engine's cycles need no ROM, so the timing stays known and
        // lag frames and crashes are modelled. With music on and no ROM it is lost.
        let config = SimConfig::default();
        assert!(!config.timing_unmodelled());
        for (music_type, known) in [(config.music_type, true), (0, false)] {
            let mut g = Game::new(GameSetup {
                music_type,
                ..GameSetup::from_seed(3)
            });
            let mut driver = Driver::new(Policy::Random, 3);
            for _ in 0..2_000 {
                let b = driver.buttons(g.state());
                g.step(b);
            }
            assert_eq!(g.state().clock.known, known, "music {music_type}");
        }
        let on = SimConfig {
            music_type: 0,
            ..SimConfig::default()
        };
        assert!(on.timing_unmodelled());
    }

    /// A capped single at level 159, music off: its score frame lags and the next frame's
    /// interrupt breaks a dispatch (the core's `tests/crash.rs`).
    fn crashing(mode: CrashMode) -> Game {
        Game::capped_score_frame(159, mode)
    }

    #[test]
    fn a_crash_ends_the_game_under_cartridge_rules_and_is_reported() {
        let o = play_from(crashing(CrashMode::Cartridge), 1, &Policy::Idle, 1_000_000);
        assert_eq!((o.frames, o.lag_frames), (2, 1));
        assert!(o.crashed && !o.topped_out);
        assert_eq!(o.crash_frame, Some(1));
        let o = play_from(crashing(CrashMode::Show), 1, &Policy::Idle, 1_000_000);
        assert!(o.crashed && o.topped_out && o.frames > 100);
        assert_eq!(o.crash_frame, Some(1));
        let o = play_from(crashing(CrashMode::TopOut), 1, &Policy::Idle, 1_000_000);
        assert!(o.crashed && o.topped_out);
        assert_eq!(o.frames, 2);
        let o = play_from(crashing(CrashMode::Off), 1, &Policy::Idle, 1_000_000);
        assert_eq!((o.lag_frames, o.crashed, o.crash_frame), (0, false, None));
    }

    #[test]
    fn the_json_report_has_the_lag_frames_and_the_crash() {
        let o = play_from(crashing(CrashMode::Cartridge), 1, &Policy::Idle, 1_000_000);
        let v = serde_json::to_value(&o).unwrap();
        assert_eq!(v["lag_frames"], 1);
        assert_eq!(v["crashed"], true);
        assert_eq!(v["crash_frame"], 1);
        assert_eq!(v["topped_out"], false);
    }
}
