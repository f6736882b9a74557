//! The generator and the piece picker (`CARTRIDGE.md` 9), exhaustively: the LFSR step
//! and its 32767-state cycle through the power-on seed, `pick_piece` against the
//! spec's algorithm, the repeat probabilities (1/32 after T, J, Z, L, I; 1/16 after O
//! and S), and the long-run piece shares and repeat rate from the exact transition
//! matrix.
//!
//! Which states are "uniform": the cartridge's generator starts at $8988 and only ever
//! steps, so it stays on the 32767-state cycle through $8988; those are the states
//! weighted here, each paired with every pick count 0..=255. (All 65535 nonzero values
//! give the same numbers to the precision asserted; the check below shows it.) The
//! count and the state are treated as independent, which is what "uniform" means for
//! a long game: the state moves every frame and the count once per piece.

use nestris_core::lfsr::{lfsr_step, pick_piece};

const SPAWN: [u8; 7] = [2, 7, 8, 10, 11, 14, 18];
const NAMES: [&str; 7] = ["T", "J", "Z", "O", "S", "L", "I"];

/// `CARTRIDGE.md` 9.1, written independently: new bit 15 = bit 1 XOR bit 9.
fn spec_step(v: u16) -> u16 {
    let bit = ((v >> 1) ^ (v >> 9)) & 1;
    (bit << 15) | (v >> 1)
}

/// `CARTRIDGE.md` 9.2: (piece, generator after, count after).
fn spec_pick(rng: u16, count: u8, spawn_id: u8) -> (u8, u16, u8) {
    let count = count.wrapping_add(1);
    let i = ((rng >> 8) as u8).wrapping_add(count) & 7;
    if i != 7 && SPAWN[i as usize] != spawn_id {
        return (SPAWN[i as usize], rng, count);
    }
    let rng = spec_step(rng);
    let i = (((rng >> 8) as u8 & 7) as u32 + spawn_id as u32) % 7;
    (SPAWN[i as usize], rng, count)
}

/// The states on the generator's cycle through the power-on seed.
fn power_on_cycle() -> Vec<u16> {
    let mut states = vec![0x8988u16];
    let mut v = lfsr_step(0x8988);
    while v != 0x8988 {
        states.push(v);
        v = lfsr_step(v);
        assert!(states.len() <= 65535, "no cycle back to $8988");
    }
    states
}

#[test]
fn lfsr_step_matches_the_spec_for_every_value() {
    for v in 0..=u16::MAX {
        assert_eq!(lfsr_step(v), spec_step(v), "${v:04X}");
    }
    assert_eq!(lfsr_step(0), 0, "0 is the stuck state, never reached");
}

#[test]
fn the_power_on_cycle_has_32767_states() {
    let cycle = power_on_cycle();
    assert_eq!(cycle.len(), 32767);
    assert!(!cycle.contains(&0));
}

#[test]
fn pick_piece_matches_the_spec_exhaustively() {
    // Every cycle state, every count, every previous piece (0 = game start).
    for &rng in &power_on_cycle() {
        for count in 0..=255u8 {
            for spawn_id in [0, 2, 7, 8, 10, 11, 14, 18] {
                let p = pick_piece(rng, count, spawn_id);
                let (piece, rng_after, count_after) = spec_pick(rng, count, spawn_id);
                assert_eq!(
                    (p.piece, p.rng, p.spawn_count),
                    (piece, rng_after, count_after),
                    "rng ${rng:04X}, count {count}, previous {spawn_id}"
                );
                assert_eq!(p.rerolled, p.rng != rng);
            }
        }
    }
}

/// Transition counts `[previous type][next type]` over `states` x all pick counts.
fn transition_counts(states: &[u16]) -> [[u64; 7]; 7] {
    let mut counts = [[0u64; 7]; 7];
    for (prev, row) in counts.iter_mut().enumerate() {
        for &rng in states {
            for count in 0..=255u8 {
                let next = pick_piece(rng, count, SPAWN[prev]).piece;
                let kind = SPAWN.iter().position(|&s| s == next).unwrap();
                row[kind] += 1;
            }
        }
    }
    counts
}

fn matrix(counts: &[[u64; 7]; 7]) -> [[f64; 7]; 7] {
    let mut m = [[0.0; 7]; 7];
    for (row, c) in m.iter_mut().zip(counts) {
        let total: u64 = c.iter().sum();
        for (p, &n) in row.iter_mut().zip(c) {
            *p = n as f64 / total as f64;
        }
    }
    m
}

/// The stationary distribution of `m` by power iteration.
fn stationary(m: &[[f64; 7]; 7]) -> [f64; 7] {
    let mut pi = [1.0 / 7.0; 7];
    for _ in 0..10_000 {
        let mut next = [0.0; 7];
        for (i, &weight) in pi.iter().enumerate() {
            for (j, slot) in next.iter_mut().enumerate() {
                *slot += weight * m[i][j];
            }
        }
        let change: f64 = next.iter().zip(&pi).map(|(a, b)| (a - b).abs()).sum();
        pi = next;
        if change < 1e-15 {
            break;
        }
    }
    pi
}

#[test]
fn repeat_probability_is_one_in_32_or_one_in_16() {
    let counts = transition_counts(&power_on_cycle());
    let m = matrix(&counts);
    for (kind, name) in NAMES.iter().enumerate() {
        // The re-roll (2 of 8 first choices) adds the orientation id before the mod 7;
        // for O (10) and S (11) that lands on the same type for 2 of 8 values, else 1.
        let expected = if matches!(*name, "O" | "S") {
            1.0 / 16.0
        } else {
            1.0 / 32.0
        };
        let p = m[kind][kind];
        assert!(
            (p - expected).abs() < 1e-4,
            "after {name}: P(repeat) = {p:.6} ({} of {}), expected {expected}",
            counts[kind][kind],
            counts[kind].iter().sum::<u64>()
        );
    }
}

#[test]
fn long_run_shares_and_repeat_rate() {
    let m = matrix(&transition_counts(&power_on_cycle()));
    let pi = stationary(&m);
    // Target shares in percent, `CARTRIDGE.md`-derived: the re-roll favours T and S and
    // starves L and I.
    let targets = [14.67, 14.29, 14.30, 14.29, 14.68, 13.89, 13.89];
    for ((name, &share), target) in NAMES.iter().zip(&pi).zip(targets) {
        let percent = 100.0 * share;
        assert!(
            (percent - target).abs() <= 0.01,
            "{name}: {percent:.4}% vs {target}%"
        );
    }
    let repeat: f64 = (0..7).map(|k| pi[k] * m[k][k]).sum();
    assert!(
        (100.0 * repeat - 4.03).abs() <= 0.01,
        "repeat rate {:.4}% (uniform would be {:.2}%)",
        100.0 * repeat,
        100.0 / 7.0
    );
}

#[test]
fn all_nonzero_states_give_the_same_numbers() {
    // Weighting all 65535 nonzero values instead of the power-on cycle moves no share by
    // more than 0.001 percentage points.
    let all: Vec<u16> = (1..=u16::MAX).collect();
    let cycle = stationary(&matrix(&transition_counts(&power_on_cycle())));
    let every = stationary(&matrix(&transition_counts(&all)));
    for (name, (a, b)) in NAMES.iter().zip(cycle.iter().zip(&every)) {
        assert!((a - b).abs() < 1e-5, "{name}: {a} vs {b}");
    }
}
