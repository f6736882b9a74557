//! Whole games of any [`Task`] under a policy, summed up: what `nestris.evaluate` and the
//! AI's `play_placements` report, one [`GameResult`] per seed.

use crate::frame::SplitMix;
use crate::vector::{Episode, Task};

/// The result of one game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GameResult {
    /// The game's seed.
    pub seed: u64,
    /// Final score.
    pub score: u32,
    /// Final lines.
    pub lines: u32,
    /// Final level.
    pub level: u8,
    /// Steps taken.
    pub steps: u64,
    /// Frames run.
    pub frames: u64,
    /// Sum of the rewards.
    pub total_reward: f64,
    /// The game ended (top-out, goal, or out of play) before the step limit.
    pub terminated: bool,
}

/// Why a game could not be played to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError<P, S> {
    /// The policy had no action.
    Policy(P),
    /// The step failed.
    Step(S),
}

/// Plays the game of `seed` with `policy` (the episode as it stands, the policy's own
/// generator seeded from the game's seed: its action) until it ends or `max_steps` steps
/// were taken.
pub fn play<T: Task, P>(
    task: &T,
    seed: u64,
    max_steps: u64,
    worker: &mut T::Worker,
    mut policy: impl FnMut(&T::Episode, &mut SplitMix) -> Result<T::Action, P>,
) -> Result<GameResult, PlayError<P, T::Error>> {
    let mut ep = task.start(Some(seed), worker);
    let mut rng = policy_rng(seed);
    let mut total = 0.0;
    while !ep.ended() && ep.steps() < max_steps {
        let a = policy(&ep, &mut rng).map_err(PlayError::Policy)?;
        total += task
            .step(&mut ep, a, worker)
            .map_err(PlayError::Step)?
            .reward;
    }
    Ok(GameResult {
        seed,
        score: ep.score(),
        lines: ep.lines(),
        level: ep.game().state().level,
        steps: ep.steps(),
        frames: ep.frames(),
        total_reward: total,
        terminated: ep.ended(),
    })
}

/// The generator of a random policy for the game of `seed`.
pub fn policy_rng(seed: u64) -> SplitMix {
    SplitMix(seed ^ 0xA076_1D64_78BD_642F)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::EnvConfig;

    #[test]
    fn a_game_is_played_to_its_end_or_the_limit_the_same_way_twice() {
        let cfg = EnvConfig {
            game: crate::GameOptions {
                level: 19,
                ..Default::default()
            },
            ..EnvConfig::default()
        };
        let n = cfg.actions.len();
        let random = |_: &_, rng: &mut SplitMix| Ok::<i64, ()>(rng.below(n) as i64);
        let a = play(&cfg, 5, u64::MAX, &mut (), random).unwrap();
        assert!(a.terminated && a.steps > 0 && a.frames == a.steps);
        assert_eq!(play(&cfg, 5, u64::MAX, &mut (), random).unwrap(), a);
        let short = play(&cfg, 5, 10, &mut (), random).unwrap();
        assert_eq!((short.steps, short.terminated), (10, false));
        let refused = play(&cfg, 5, 10, &mut (), |_, _| Err::<i64, _>("no"));
        assert_eq!(refused, Err(PlayError::Policy("no")));
    }
}
