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

/// What [`native_anchor`] measured, in nanoseconds per game step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnchorTimes {
    /// [`Game::step`] alone (one frame, the action's buttons), the game restarted where
    /// an episode ends: the engine without any environment.
    pub game_step_ns: f64,
    /// One env step through [`crate::vector::step_all`] on one thread into owned
    /// [`crate::vector::Buffers`]: the step, its reward, auto-reset and the observation
    /// writes that the Python `VecEnv` does, without Python.
    pub vector_step_ns: f64,
}

/// The native anchor of the Python boundary's benchmark: `n` games of `cfg` stepped
/// `calls` times with uniformly random actions (64 batches drawn once from `seed`, as
/// the Python benchmark does), timed both as bare [`Game::step`] calls and as the
/// vector step. Each is the best of three rounds, so that a busy machine's pauses
/// count less. A benchmark helper: nothing else calls it.
pub fn native_anchor(cfg: &EnvConfig, n: usize, calls: usize, seed: u64) -> AnchorTimes {
    let mut rng = SplitMix(seed);
    let k = cfg.actions.len();
    let batches: Vec<Vec<i64>> = (0..64)
        .map(|_| (0..n).map(|_| rng.below(k) as i64).collect())
        .collect();
    let steps = (calls * n) as f64;
    let mut best = AnchorTimes {
        game_step_ns: f64::INFINITY,
        vector_step_ns: f64::INFINITY,
    };
    for _ in 0..3 {
        best.game_step_ns = best
            .game_step_ns
            .min(anchor_games(cfg, &batches, calls) / steps);
        best.vector_step_ns = best
            .vector_step_ns
            .min(anchor_vector(cfg, &batches, calls) / steps);
    }
    best
}

/// Nanoseconds of `calls` rounds of bare [`Game::step`] over the games of a batch.
/// Not inlined, so that callgrind counts it apart.
#[inline(never)]
fn anchor_games(cfg: &EnvConfig, batches: &[Vec<i64>], calls: usize) -> f64 {
    let n = batches[0].len();
    let mut games: Vec<Game> = (0..n as u64)
        .map(|i| Game::new(cfg.game.setup(Some(i))))
        .collect();
    let t = std::time::Instant::now();
    for c in 0..calls {
        for (g, a) in games.iter_mut().zip(&batches[c % batches.len()]) {
            let ev = g.step(Buttons(cfg.actions[*a as usize]));
            // The episode's end (see `Episode::step`), so both loops play the same.
            if ev.flags & ENDING_EVENTS != 0 || g.is_over() {
                *g = Game::new(cfg.game.setup(Some(c as u64)));
            }
        }
    }
    let ns = t.elapsed().as_nanos() as f64;
    std::hint::black_box(&games);
    ns
}

/// Nanoseconds of `calls` vector steps of the games of a batch. Not inlined, so that
/// callgrind counts it apart.
#[inline(never)]
fn anchor_vector(cfg: &EnvConfig, batches: &[Vec<i64>], calls: usize) -> f64 {
    let n = batches[0].len();
    let mut eps: Vec<Episode> = (0..n as u64).map(|i| Episode::new(cfg, Some(i))).collect();
    let mut needs_reset = vec![false; n];
    let mut buf = crate::vector::Buffers::new(n, cfg.obs);
    let t = std::time::Instant::now();
    for c in 0..calls {
        let rows = buf.rows(&mut eps, &mut needs_reset, ());
        let Ok(()) = crate::vector::step_all(cfg, rows, &mut [()], &batches[c % batches.len()]);
    }
    let ns = t.elapsed().as_nanos() as f64;
    std::hint::black_box(&buf);
    ns
}
