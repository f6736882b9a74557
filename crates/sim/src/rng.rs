//! The randomizer analysis: how the cartridge's piece picker behaves, computed
//! exhaustively over every generator state and pick count.
//!
//! The picker reads the generator's high byte and the pick counter; between picks the
//! generator steps once per frame, so over a game every state of the 32,767-long cycle
//! and every counter value is equally likely. Averaging the picker over all of them gives
//! the exact conditional probabilities P(next | previous), and their Markov chain's
//! stationary distribution gives the long-run shares and repeat rate.

use nestris_core::lfsr::{lfsr_step, pick_piece, POWER_ON_SEED};
use nestris_core::tables::SPAWN_TABLE;
use serde::Serialize;

/// Piece names in the cartridge's type order.
pub const PIECES: [&str; 7] = ["T", "J", "Z", "O", "S", "L", "I"];

/// The analysis' results.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// `matrix[prev][next]` = P(next | prev), piece types in the order of [`PIECES`].
    pub matrix: [[f64; 7]; 7],
    /// P(next == prev) per piece.
    pub repeat: [f64; 7],
    /// Long-run share of each piece.
    pub shares: [f64; 7],
    /// Long-run share of pieces equal to the one before.
    pub repeat_rate: f64,
    /// Generator states visited (the cycle from the power-on seed).
    pub states: u32,
}

/// The 32,767 generator values of the cycle through the power-on seed.
pub fn cycle() -> Vec<u16> {
    let mut v = Vec::with_capacity(32_767);
    let mut x = POWER_ON_SEED;
    loop {
        v.push(x);
        x = lfsr_step(x);
        if x == POWER_ON_SEED {
            return v;
        }
    }
}

/// The exhaustive analysis.
pub fn analyse() -> Analysis {
    let states = cycle();
    // The picker only reads the high byte, and a re-roll the next step's high byte: count
    // how many cycle states give each (high byte, next high byte) pair, then run the
    // picker once per pair and counter value instead of once per state.
    let mut pair_count = vec![0u32; 65_536];
    for &s in &states {
        let hi = (s >> 8) as usize;
        let hi2 = (lfsr_step(s) >> 8) as usize;
        pair_count[hi << 8 | hi2] += 1;
    }
    let mut counts = [[0u64; 7]; 7];
    for (prev_type, &prev_id) in SPAWN_TABLE[..7].iter().enumerate() {
        for (pair, &n) in pair_count.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let rng = (pair as u16) & 0xFF00 | 0x00FF;
            let hi2 = pair as u8;
            for count in 0..=255u8 {
                let p = pick_piece(rng, count, prev_id);
                // A re-roll reads the next state's high byte: take it from the pair.
                let piece = if p.rerolled {
                    SPAWN_TABLE[((hi2 & 7).wrapping_add(prev_id) % 7) as usize]
                } else {
                    p.piece
                };
                let t = SPAWN_TABLE[..7]
                    .iter()
                    .position(|&x| x == piece)
                    .unwrap_or(0);
                counts[prev_type][t] += n as u64;
            }
        }
    }
    let mut matrix = [[0f64; 7]; 7];
    for (row, c) in matrix.iter_mut().zip(&counts) {
        let total: u64 = c.iter().sum();
        for (m, &x) in row.iter_mut().zip(c) {
            *m = x as f64 / total as f64;
        }
    }
    let mut shares = [1.0 / 7.0; 7];
    for _ in 0..10_000 {
        let mut next = [0f64; 7];
        for (i, &s) in shares.iter().enumerate() {
            for (j, n) in next.iter_mut().enumerate() {
                *n += s * matrix[i][j];
            }
        }
        shares = next;
    }
    let repeat: [f64; 7] = std::array::from_fn(|i| matrix[i][i]);
    let repeat_rate = (0..7).map(|i| shares[i] * matrix[i][i]).sum();
    Analysis {
        matrix,
        repeat,
        shares,
        repeat_rate,
        states: states.len() as u32,
    }
}

/// The same figures measured by playing: `games` games with random input, counting each
/// spawned piece after the one before it (draws depend on real frame timings).
pub fn simulate(games: u64, seed: u64) -> Analysis {
    use nestris_core::{FrameEvents, Game, GameSetup};
    let mut counts = [[0u64; 7]; 7];
    let mut policy = crate::policy::Driver::new(crate::Policy::Random, seed);
    for g in 0..games {
        let mut game = Game::new(GameSetup::from_seed(seed.wrapping_add(g)));
        let kind = |p: u8| nestris_core::tables::ORIENTATION_TYPE[p as usize % 20] as usize;
        let mut prev = kind(game.state().piece);
        for _ in 0..200_000 {
            let b = policy.buttons(game.state());
            let ev = game.step(b);
            if ev.flags & FrameEvents::SPAWNED != 0 {
                let now = kind(game.state().piece);
                counts[prev][now] += 1;
                prev = now;
            }
            if ev.flags & FrameEvents::TOPPED_OUT != 0 {
                break;
            }
        }
    }
    let mut matrix = [[0f64; 7]; 7];
    for (row, c) in matrix.iter_mut().zip(&counts) {
        let total: u64 = c.iter().sum::<u64>().max(1);
        for (m, &x) in row.iter_mut().zip(c) {
            *m = x as f64 / total as f64;
        }
    }
    let all: u64 = counts.iter().flatten().sum::<u64>().max(1);
    let shares: [f64; 7] =
        std::array::from_fn(|j| counts.iter().map(|r| r[j]).sum::<u64>() as f64 / all as f64);
    let repeats: u64 = (0..7).map(|i| counts[i][i]).sum();
    Analysis {
        matrix,
        repeat: std::array::from_fn(|i| matrix[i][i]),
        shares,
        repeat_rate: repeats as f64 / all as f64,
        states: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exhaustive_figures() {
        let a = analyse();
        assert_eq!(a.states, 32_767);
        for (i, &r) in a.repeat.iter().enumerate() {
            let expected = if PIECES[i] == "O" || PIECES[i] == "S" {
                1.0 / 16.0
            } else {
                1.0 / 32.0
            };
            assert!((r - expected).abs() < 0.0005, "{}: {r}", PIECES[i]);
        }
        assert!(
            (a.repeat_rate - 0.0403).abs() < 0.00005,
            "{}",
            a.repeat_rate
        );
        let pct = |i: usize| (a.shares[i] * 10_000.0).round() / 100.0;
        assert_eq!(pct(0), 14.67);
        assert_eq!(pct(4), 14.68);
        assert_eq!(pct(5), 13.89);
        assert_eq!(pct(6), 13.89);
    }
}
