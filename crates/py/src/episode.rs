//! One environment episode in plain Rust: the game, its seed, its counters, and the
//! step that holds one action for `frame_skip` frames and computes the reward. Shared
//! by the single environment, the vectorized one and the evaluation runner, so that
//! they agree to the bit.

use nestris_core::bcd::{lines_value, score_value};
use nestris_core::{Buttons, FrameEvents, Game};

use crate::options::{next_seed, EnvConfig, Reward};

/// Events that end an episode.
pub const ENDING_EVENTS: u32 =
    FrameEvents::TOPPED_OUT | FrameEvents::GAME_ENDED | FrameEvents::B_TYPE_WON;

/// True when the game is no longer in play: the core's one rule ([`Game::is_over`]:
/// topped out, ended, won, ended by a crash, or out of the play mode).
#[inline]
pub fn game_over(game: &Game) -> bool {
    game.is_over()
}

/// What one environment step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepResult {
    /// The reward of the step.
    pub reward: f64,
    /// The episode ended in this step (or had ended before it).
    pub terminated: bool,
    /// Every event flag of the step's frames.
    pub flags: u32,
    /// Lines cleared in the step's frames.
    pub lines_cleared: u32,
    /// Lag frames among the step's frames.
    pub lag: u32,
}

/// A running episode.
#[derive(Clone, Debug)]
pub struct Episode {
    /// The game.
    pub game: Game,
    /// The seed the game was started from (`None`: the power-on generator state).
    pub seed: Option<u64>,
    /// Steps taken in this episode.
    pub steps: u64,
    /// Frames run in this episode.
    pub frames: u64,
    /// The episode has ended (top-out, B-type goal, or the game left play).
    pub ended: bool,
}

impl Episode {
    /// A new episode from `seed`.
    pub fn new(cfg: &EnvConfig, seed: Option<u64>) -> Episode {
        let game = Game::new(cfg.game.setup(seed));
        let ended = game_over(&game);
        Episode {
            game,
            seed,
            steps: 0,
            frames: 0,
            ended,
        }
    }

    /// The seed of the episode that follows this one when no new seed is given.
    pub fn following_seed(&self) -> u64 {
        next_seed(self.seed.unwrap_or(0))
    }

    /// Holds `buttons` for up to `cfg.frame_skip` frames, stopping at the frame that ends
    /// the episode. An episode that has ended does not move: reward 0, terminated.
    #[inline]
    pub fn step(&mut self, cfg: &EnvConfig, buttons: u8) -> StepResult {
        if self.ended {
            return StepResult {
                terminated: true,
                ..StepResult::default()
            };
        }
        let s = self.game.state();
        let score_before = score_value(s.score);
        let mut out = StepResult::default();
        for _ in 0..cfg.frame_skip {
            let ev = self.game.step(Buttons(buttons));
            self.frames += 1;
            out.flags |= ev.flags;
            out.lines_cleared += u32::from(ev.lines_cleared);
            out.lag += ev.has(FrameEvents::LAG) as u32;
            if ev.flags & ENDING_EVENTS != 0 || game_over(&self.game) {
                self.ended = true;
                break;
            }
        }
        self.steps += 1;
        out.terminated = self.ended;
        out.reward = match cfg.reward {
            Reward::Score => {
                f64::from(score_value(self.game.state().score)) - f64::from(score_before)
            }
            Reward::Lines => f64::from(out.lines_cleared),
            Reward::Survival => {
                if self.ended {
                    0.0
                } else {
                    1.0
                }
            }
        };
        out
    }

    /// The score as a number.
    pub fn score(&self) -> u32 {
        score_value(self.game.state().score)
    }

    /// The lines as a number.
    pub fn lines(&self) -> u32 {
        lines_value(self.game.state().lines)
    }
}

/// A small deterministic generator (splitmix64) for the built-in random policy.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}
