//! n episodes of one [`Task`] stepped together: the rows of every output array, the
//! step with Gymnasium's `TimeLimit` truncation and next-step auto-reset, and the
//! observation written in place. The frame-level and the placement-level vector
//! environments are this, with their task.
//!
//! The rows are plain slices (the Python package hands numpy arrays' memory in); a
//! [`Rows`] is cut into groups that the engine's thread pool
//! ([`nestris_sim::pool::run_on`]) steps in parallel, each worker with its own state
//! (the placement task's move generator).

use nestris_core::Game;

use crate::obs::{self, CELLS, NUM_FEATURES, PIXEL_BYTES};
use crate::ObsKind;

/// What one step of an episode did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The reward of the step.
    pub reward: f64,
    /// The episode ended in this step (or had ended before it).
    pub terminated: bool,
    /// Every event flag of the step's frames.
    pub flags: u32,
    /// Lines cleared in the step's frames.
    pub lines_cleared: u32,
    /// Frames run in the step.
    pub frames: u32,
    /// Lag frames among them.
    pub lag: u32,
}

/// What the vector core reads of a running episode, whatever its task.
pub trait Episode: Send {
    /// The game.
    fn game(&self) -> &Game;
    /// The game, its timing known wherever its setup counts the CPU's cycles: a
    /// placement episode that plays without them for speed
    /// ([`crate::placement::COUNT_FROM_LEVEL`]) plays its game again, counted, and goes on
    /// counted. What a copy of the game given to a user should be.
    fn counted_game(&mut self) -> &Game {
        self.game()
    }
    /// The seed the game was started from (`None`: the power-on generator state).
    fn seed(&self) -> Option<u64>;
    /// Steps taken in the episode.
    fn steps(&self) -> u64;
    /// Frames run in the episode.
    fn frames(&self) -> u64;
    /// The episode has ended.
    fn ended(&self) -> bool;

    /// The seed of the episode that follows this one when no new seed is given.
    fn following_seed(&self) -> u64 {
        crate::config::next_seed(self.seed().unwrap_or(0))
    }
    /// The score as a number.
    fn score(&self) -> u32 {
        nestris_core::bcd::score_value(self.game().state().score)
    }
    /// The lines as a number.
    fn lines(&self) -> u32 {
        nestris_core::bcd::lines_value(self.game().state().lines)
    }
}

/// Rows of a task's own outputs, split along with the common ones.
pub trait Split: Send {
    /// Splits off the rows of the first `k` games.
    fn split_first(&mut self, k: usize) -> Self;
}

impl Split for () {
    fn split_first(&mut self, _: usize) {}
}

/// [`Episode`] for a type with the fields `game`, `seed`, `steps`, `frames` and `ended`
/// (both tasks' episodes keep them under these names), and the methods given after it.
macro_rules! episode_progress {
    ($ty:ty $(, $($extra:tt)*)?) => {
        impl $crate::vector::Episode for $ty {
            $($($extra)*)?
            fn game(&self) -> &nestris_core::Game {
                &self.game
            }
            fn seed(&self) -> Option<u64> {
                self.seed
            }
            fn steps(&self) -> u64 {
                self.steps
            }
            fn frames(&self) -> u64 {
                self.frames
            }
            fn ended(&self) -> bool {
                self.ended
            }
        }
    };
}
pub(crate) use episode_progress;

/// An environment: how its episodes start and what one step of one does.
pub trait Task: Sync {
    /// A running episode.
    type Episode: Episode;
    /// One game's action, as the vector step takes it (checked before the step).
    type Action: Copy + Sync;
    /// What each worker thread keeps for all its games (the move generator).
    type Worker: Send;
    /// A step that could not be made.
    type Error: Send;
    /// The task's own output rows.
    type Extra<'a>: Split;

    /// A new episode from `seed`.
    fn start(&self, seed: Option<u64>, worker: &mut Self::Worker) -> Self::Episode;
    /// `ep` made a new episode from `seed`, as [`Task::start`] makes one; a task may keep
    /// the old episode's buffers instead of allocating them again.
    fn restart(&self, ep: &mut Self::Episode, seed: Option<u64>, worker: &mut Self::Worker) {
        *ep = self.start(seed, worker);
    }
    /// One step of `ep` with `action`. An episode that has ended does not move.
    fn step(
        &self,
        ep: &mut Self::Episode,
        action: Self::Action,
        worker: &mut Self::Worker,
    ) -> Result<Outcome, Self::Error>;
    /// What is observed.
    fn obs(&self) -> ObsKind;
    /// Steps after which an episode is truncated.
    fn max_episode_steps(&self) -> Option<u64>;
    /// Writes game `i`'s own outputs (row `i` of `extra`) after a step or a reset.
    fn write_extra(
        &self,
        ep: &Self::Episode,
        outcome: &Outcome,
        i: usize,
        extra: &mut Self::Extra<'_>,
    );
}

/// Splits off the first `n` items of `s`.
pub fn take<'a, T>(s: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (a, b) = std::mem::take(s).split_at_mut(n);
    *s = b;
    a
}

/// The rows every vector environment writes, for a group of consecutive games of task
/// `T` (indices are from the group's first game).
pub struct Rows<'a, T: Task> {
    /// Index of the group's first game in the whole environment.
    pub offset: usize,
    /// The episodes.
    pub eps: &'a mut [T::Episode],
    /// The game ended or was truncated in the last step: it is reset at the next.
    pub needs_reset: &'a mut [bool],
    /// Board observations, 200 per game (empty for pixels).
    pub boards: &'a mut [u8],
    /// Features, [`NUM_FEATURES`] per game (empty for pixels).
    pub features: &'a mut [i32],
    /// Pictures, [`PIXEL_BYTES`] per game (empty for boards).
    pub pixels: &'a mut [u8],
    /// The last step's rewards.
    pub rewards: &'a mut [f32],
    /// The last step ended the episode.
    pub terminated: &'a mut [bool],
    /// The last step reached the step limit.
    pub truncated: &'a mut [bool],
    /// The scores.
    pub scores: &'a mut [i64],
    /// The lines.
    pub lines: &'a mut [i64],
    /// The last step's event flags.
    pub events: &'a mut [u32],
    /// Lag frames of the last step.
    pub lag: &'a mut [u32],
    /// The game has crashed (`Game::crashed`).
    pub crashed: &'a mut [bool],
    /// The task's own rows.
    pub extra: T::Extra<'a>,
}

impl<T: Task> std::fmt::Debug for Rows<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rows")
            .field("offset", &self.offset)
            .field("games", &self.eps.len())
            .finish_non_exhaustive()
    }
}

impl<'a, T: Task> Rows<'a, T> {
    /// Number of games.
    pub fn len(&self) -> usize {
        self.eps.len()
    }

    /// True for a group of no games.
    pub fn is_empty(&self) -> bool {
        self.eps.is_empty()
    }

    /// Splits off the first `k` games (`k` at most [`Rows::len`]).
    pub fn split_first(&mut self, k: usize) -> Rows<'a, T> {
        // Observation rows are as long as the observation kind makes them (or empty).
        let n = self.eps.len().max(1);
        let (nb, nf, np) = (
            self.boards.len() / n * k,
            self.features.len() / n * k,
            self.pixels.len() / n * k,
        );
        let out = Rows {
            offset: self.offset,
            extra: self.extra.split_first(k),
            eps: take(&mut self.eps, k),
            needs_reset: take(&mut self.needs_reset, k),
            boards: take(&mut self.boards, nb),
            features: take(&mut self.features, nf),
            pixels: take(&mut self.pixels, np),
            rewards: take(&mut self.rewards, k),
            terminated: take(&mut self.terminated, k),
            truncated: take(&mut self.truncated, k),
            scores: take(&mut self.scores, k),
            lines: take(&mut self.lines, k),
            events: take(&mut self.events, k),
            lag: take(&mut self.lag, k),
            crashed: take(&mut self.crashed, k),
        };
        self.offset += k;
        out
    }

    /// Writes game `i`'s observation, counters and the task's rows.
    #[inline]
    pub fn observe(&mut self, task: &T, i: usize, outcome: &Outcome) {
        let ep = &self.eps[i];
        let s = ep.game().state();
        match task.obs() {
            ObsKind::Board => {
                obs::board(s, &mut self.boards[i * CELLS..(i + 1) * CELLS]);
                obs::features(
                    s,
                    &mut self.features[i * NUM_FEATURES..(i + 1) * NUM_FEATURES],
                );
            }
            ObsKind::Pixels => {
                obs::render(s, &mut self.pixels[i * PIXEL_BYTES..(i + 1) * PIXEL_BYTES]);
            }
        }
        self.scores[i] = i64::from(ep.score());
        self.lines[i] = i64::from(ep.lines());
        task.write_extra(ep, outcome, i, &mut self.extra);
    }

    /// Starts game `i` anew from `seed`: the step outputs are those of a first
    /// observation (reward 0, neither flag, no events).
    pub fn reset(&mut self, task: &T, i: usize, seed: u64, worker: &mut T::Worker) {
        task.restart(&mut self.eps[i], Some(seed), worker);
        self.needs_reset[i] = false;
        self.rewards[i] = 0.0;
        self.terminated[i] = false;
        self.truncated[i] = false;
        self.events[i] = 0;
        self.lag[i] = 0;
        self.crashed[i] = false;
        self.observe(task, i, &Outcome::default());
    }

    /// One step of every game of the group. `actions` holds every game's action (already
    /// checked), indexed from the whole environment's first game; a game that ended or
    /// was truncated in the last step is reset instead (from the seed after its last),
    /// its action ignored. The error names the game (its index in the whole
    /// environment).
    pub fn step(
        &mut self,
        task: &T,
        actions: &[T::Action],
        worker: &mut T::Worker,
    ) -> Result<(), (usize, T::Error)> {
        let offset = self.offset;
        let actions = &actions[offset..offset + self.eps.len()];
        for (i, &action) in actions.iter().enumerate() {
            if self.needs_reset[i] {
                let seed = self.eps[i].following_seed();
                self.reset(task, i, seed, worker);
                continue;
            }
            let ep = &mut self.eps[i];
            let r = task.step(ep, action, worker).map_err(|e| (offset + i, e))?;
            // As Gymnasium's `TimeLimit`: truncated at the limit, terminated or not.
            let truncated = task.max_episode_steps().is_some_and(|m| ep.steps() >= m);
            self.rewards[i] = r.reward as f32;
            self.terminated[i] = r.terminated;
            self.truncated[i] = truncated;
            self.events[i] = r.flags;
            self.lag[i] = r.lag;
            self.crashed[i] = ep.game().crashed().is_some();
            self.needs_reset[i] = r.terminated || truncated;
            self.observe(task, i, &r);
        }
        Ok(())
    }
}

/// Groups per thread: enough to even out the work, few enough to keep each a batch.
const GROUPS_PER_THREAD: usize = 4;

/// Runs `f` on groups of `rows` on the engine's pool, one thread per worker (the calling
/// thread one of them). Returns the first error.
pub fn run_groups<T: Task, E: Send>(
    mut rows: Rows<'_, T>,
    workers: &mut [T::Worker],
    f: impl Fn(Rows<'_, T>, &mut T::Worker) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let threads = workers.len().min(rows.len()).max(1);
    if threads == 1 {
        return f(rows, &mut workers[0]);
    }
    let chunk = rows.len().div_ceil(threads * GROUPS_PER_THREAD);
    let mut groups = Vec::with_capacity(threads * GROUPS_PER_THREAD);
    while !rows.is_empty() {
        let k = chunk.min(rows.len());
        groups.push(rows.split_first(k));
    }
    nestris_sim::pool::run_on(groups.into_iter(), &mut workers[..threads], f)
}

/// One step of every game (see [`Rows::step`]) on the pool.
pub fn step_all<T: Task>(
    task: &T,
    rows: Rows<'_, T>,
    workers: &mut [T::Worker],
    actions: &[T::Action],
) -> Result<(), (usize, T::Error)> {
    run_groups(rows, workers, |mut g, w| g.step(task, actions, w))
}

/// Every game started anew, game `i` from `seeds[i]`, on the pool.
pub fn reset_all<T: Task>(task: &T, rows: Rows<'_, T>, workers: &mut [T::Worker], seeds: &[u64]) {
    let Ok(()) = run_groups(rows, workers, |mut g, w| {
        for i in 0..g.len() {
            g.reset(task, i, seeds[g.offset + i], w);
        }
        Ok::<(), std::convert::Infallible>(())
    });
}

/// Every game's observation written as it stands (a new environment's first).
pub fn observe_all<T: Task>(task: &T, rows: &mut Rows<'_, T>) {
    for i in 0..rows.len() {
        rows.observe(task, i, &Outcome::default());
    }
}

/// Owned output rows for n games, for Rust users (Python lends numpy's memory instead).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Buffers {
    /// Board observations, 200 per game (empty for pixels).
    pub boards: Vec<u8>,
    /// Features, [`NUM_FEATURES`] per game (empty for pixels).
    pub features: Vec<i32>,
    /// Pictures, [`PIXEL_BYTES`] per game (empty for boards).
    pub pixels: Vec<u8>,
    /// The last step's rewards.
    pub rewards: Vec<f32>,
    /// The last step ended the episode.
    pub terminated: Vec<bool>,
    /// The last step reached the step limit.
    pub truncated: Vec<bool>,
    /// The scores.
    pub scores: Vec<i64>,
    /// The lines.
    pub lines: Vec<i64>,
    /// The last step's event flags.
    pub events: Vec<u32>,
    /// Lag frames of the last step.
    pub lag: Vec<u32>,
    /// The game has crashed.
    pub crashed: Vec<bool>,
}

impl Buffers {
    /// Zeroed rows for `n` games observing `obs`.
    pub fn new(n: usize, obs: ObsKind) -> Buffers {
        let (nb, np) = match obs {
            ObsKind::Board => (n, 0),
            ObsKind::Pixels => (0, n),
        };
        Buffers {
            boards: vec![0; nb * CELLS],
            features: vec![0; nb * NUM_FEATURES],
            pixels: vec![0; np * PIXEL_BYTES],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            scores: vec![0; n],
            lines: vec![0; n],
            events: vec![0; n],
            lag: vec![0; n],
            crashed: vec![false; n],
        }
    }

    /// The rows of all the games, with `eps`, their reset flags and the task's own rows.
    pub fn rows<'a, T: Task>(
        &'a mut self,
        eps: &'a mut [T::Episode],
        needs_reset: &'a mut [bool],
        extra: T::Extra<'a>,
    ) -> Rows<'a, T> {
        Rows {
            offset: 0,
            eps,
            needs_reset,
            boards: &mut self.boards,
            features: &mut self.features,
            pixels: &mut self.pixels,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            scores: &mut self.scores,
            lines: &mut self.lines,
            events: &mut self.events,
            lag: &mut self.lag,
            crashed: &mut self.crashed,
            extra,
        }
    }
}
