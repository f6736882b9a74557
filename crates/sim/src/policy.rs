//! Input policies: what a headless player presses each frame.

use nestris_core::{Buttons, Snapshot};
use std::sync::Arc;

/// What to press each frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Nothing: pieces fall and the stack tops out.
    Idle,
    /// Random D-pad and A/B presses from a seeded generator (never Start or Select).
    Random,
    /// Hold Right the whole game.
    HoldRight,
    /// Tap Left and Right alternately every `n` frames, rotating now and then.
    Tap(u8),
    /// Fixed inputs, one per frame (then nothing).
    Inputs(Arc<Vec<Buttons>>),
}

/// A policy name that is not one of the known ones.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("unknown policy {0:?}: use idle, random, hold-right or tap:N (N = 1..=60 frames)")]
pub struct PolicyError(pub String);

impl std::str::FromStr for Policy {
    type Err = PolicyError;
    fn from_str(s: &str) -> Result<Policy, PolicyError> {
        match s {
            "idle" => Ok(Policy::Idle),
            "random" => Ok(Policy::Random),
            "hold-right" => Ok(Policy::HoldRight),
            _ => {
                let n = s.strip_prefix("tap:").and_then(|n| n.parse::<u8>().ok());
                match n {
                    Some(n @ 1..=60) => Ok(Policy::Tap(n)),
                    _ => Err(PolicyError(s.to_string())),
                }
            }
        }
    }
}

/// A running policy: its own small generator and frame count.
#[derive(Clone, Debug)]
pub(crate) struct Driver {
    policy: Policy,
    rng: u64,
    frame: usize,
}

impl Driver {
    pub(crate) fn new(policy: Policy, seed: u64) -> Driver {
        Driver {
            policy,
            rng: seed ^ 0x9E37_79B9_7F4A_7C15,
            frame: 0,
        }
    }

    #[inline]
    fn next_random(&mut self) -> u64 {
        // xorshift64*: fast and good enough for button mashing.
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    #[inline]
    pub(crate) fn buttons(&mut self, _state: &Snapshot) -> Buttons {
        let f = self.frame;
        self.frame += 1;
        match &self.policy {
            Policy::Idle => Buttons::NONE,
            Policy::HoldRight => Buttons::RIGHT,
            Policy::Random => {
                let r = self.next_random();
                // Mostly nothing; D-pad and rotations otherwise.
                const CHOICES: [u8; 8] = [0x00, 0x00, 0x00, 0x01, 0x02, 0x04, 0x80, 0x40];
                Buttons(CHOICES[(r >> 61) as usize])
            }
            Policy::Tap(n) => {
                let n = *n as usize;
                let phase = f % (2 * n);
                if phase == 0 {
                    if (f / (2 * n)) % 3 == 0 {
                        Buttons::A
                    } else if (f / (2 * n)) % 2 == 0 {
                        Buttons::LEFT
                    } else {
                        Buttons::RIGHT
                    }
                } else {
                    Buttons::NONE
                }
            }
            Policy::Inputs(v) => v.get(f).copied().unwrap_or(Buttons::NONE),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse() {
        assert_eq!("idle".parse(), Ok(Policy::Idle));
        assert_eq!("tap:3".parse(), Ok(Policy::Tap(3)));
        assert_eq!("hold-right".parse(), Ok(Policy::HoldRight));
        assert!("tap:0".parse::<Policy>().is_err());
        assert!("fast"
            .parse::<Policy>()
            .unwrap_err()
            .to_string()
            .contains("unknown policy \"fast\""));
    }
}
