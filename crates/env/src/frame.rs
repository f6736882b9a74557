//! The frame-level environment: one action is a joypad byte from the action table held
//! for `frame_skip` frames, and the reward is computed from the frames it ran. The
//! single environment, the vector one and the evaluation runner all step through
//! [`Episode::step`], so that they agree to the bit.

use nestris_core::{Buttons, FrameEvents, Game};

use crate::config::{GameOptions, ObsKind, Reward, DEFAULT_ACTIONS};
use crate::vector::{Outcome, Task};

/// Events that end an episode.
pub const ENDING_EVENTS: u32 =
    FrameEvents::TOPPED_OUT | FrameEvents::GAME_ENDED | FrameEvents::B_TYPE_WON;

/// Everything a frame-level environment needs to run episodes.
#[derive(Clone, Debug, PartialEq)]
pub struct EnvConfig {
    /// How games start.
    pub game: GameOptions,
    /// Joypad byte of each action.
    pub actions: Vec<u8>,
    /// Frames per step (the same buttons held).
    pub frame_skip: u32,
    /// What the reward counts.
    pub reward: Reward,
    /// What is observed.
    pub obs: ObsKind,
    /// Steps after which an episode is truncated (the vector environment only).
    pub max_episode_steps: Option<u64>,
}

impl Default for EnvConfig {
    /// The default actions, one frame a step, the score as the reward, the board.
    fn default() -> Self {
        EnvConfig {
            game: GameOptions::default(),
            actions: DEFAULT_ACTIONS.to_vec(),
            frame_skip: 1,
            reward: Reward::Score,
            obs: ObsKind::Board,
            max_episode_steps: None,
        }
    }
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
        let ended = game.is_over();
        Episode {
            game,
            seed,
            steps: 0,
            frames: 0,
            ended,
        }
    }

    /// Holds `buttons` for up to `cfg.frame_skip` frames, stopping at the frame that ends
    /// the episode (the core's one rule, [`Game::is_over`], or an ending event). An
    /// episode that has ended does not move: reward 0, terminated.
    #[inline]
    pub fn step(&mut self, cfg: &EnvConfig, buttons: u8) -> Outcome {
        if self.ended {
            return Outcome {
                terminated: true,
                ..Outcome::default()
            };
        }
        let score_before = self.score();
        let mut out = Outcome::default();
        for _ in 0..cfg.frame_skip {
            let ev = self.game.step(Buttons(buttons));
            out.frames += 1;
            out.flags |= ev.flags;
            out.lines_cleared += u32::from(ev.lines_cleared);
            out.lag += ev.has(FrameEvents::LAG) as u32;
            if ev.flags & ENDING_EVENTS != 0 || self.game.is_over() {
                self.ended = true;
                break;
            }
        }
        self.frames += u64::from(out.frames);
        self.steps += 1;
        out.terminated = self.ended;
        let points = f64::from(self.score()) - f64::from(score_before);
        out.reward = cfg.reward.of(points, out.lines_cleared, self.ended);
        out
    }

    /// The seed of the episode that follows this one when no new seed is given.
    pub fn following_seed(&self) -> u64 {
        crate::vector::Episode::following_seed(self)
    }

    /// The score as a number.
    pub fn score(&self) -> u32 {
        crate::vector::Episode::score(self)
    }

    /// The lines as a number.
    pub fn lines(&self) -> u32 {
        crate::vector::Episode::lines(self)
    }
}

crate::vector::episode_progress!(Episode);

impl Task for EnvConfig {
    type Episode = Episode;
    /// An index into the action table.
    type Action = i64;
    type Worker = ();
    type Error = std::convert::Infallible;
    type Extra<'a> = ();

    fn start(&self, seed: Option<u64>, (): &mut ()) -> Episode {
        Episode::new(self, seed)
    }

    #[inline]
    fn step(&self, ep: &mut Episode, action: i64, (): &mut ()) -> Result<Outcome, Self::Error> {
        Ok(ep.step(self, self.actions[action as usize]))
    }

    fn obs(&self) -> ObsKind {
        self.obs
    }

    fn max_episode_steps(&self) -> Option<u64> {
        self.max_episode_steps
    }

    fn write_extra(&self, _: &Episode, _: &Outcome, _: usize, (): &mut ()) {}
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
