//! The game's only randomness: the 16-bit LFSR and the piece picker built on it.

use crate::tables::SPAWN_TABLE;

/// The generator's value at power-on (`rng_seed` = $89, $88).
pub const POWER_ON_SEED: u16 = 0x8988;

/// One step of the cartridge's LFSR: shift right, new bit 15 = old bit 1 XOR bit 9.
#[inline(always)]
pub const fn lfsr_step(v: u16) -> u16 {
    (((v >> 9) ^ (v >> 1)) & 1) << 15 | (v >> 1)
}

/// Eight steps of the LFSR as two tables (the generator is linear over GF(2): eight steps
/// of `v` are those of its low byte XOR those of its high byte).
const EIGHT_STEPS: [[u16; 256]; 2] = {
    let mut t = [[0u16; 256]; 2];
    let mut x = 0;
    while x < 256 {
        let (mut lo, mut hi) = (x as u16, (x as u16) << 8);
        let mut k = 0;
        while k < 8 {
            lo = lfsr_step(lo);
            hi = lfsr_step(hi);
            k += 1;
        }
        t[0][x] = lo;
        t[1][x] = hi;
        x += 1;
    }
    t
};

/// `n` steps of the LFSR, eight at a time: what `n` frames' interrupts do to it.
#[inline]
pub fn lfsr_advance(mut v: u16, n: usize) -> u16 {
    for _ in 0..n / 8 {
        v = EIGHT_STEPS[0][usize::from(v as u8)] ^ EIGHT_STEPS[1][usize::from(v >> 8)];
    }
    for _ in 0..n % 8 {
        v = lfsr_step(v);
    }
    v
}

/// Result of one `pickRandomTetrimino` call.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pick {
    /// The chosen spawn orientation id.
    pub piece: u8,
    /// The generator after the pick (stepped once more on a re-roll).
    pub rng: u16,
    /// The pick counter after the pick.
    pub spawn_count: u8,
    /// True when the first choice was 7 or a repeat and the piece was re-rolled.
    pub rerolled: bool,
}

/// `pickRandomTetrimino`: the piece picker.
///
/// `spawn_id` is the previous pick's orientation id (0 at game start). The re-roll adds
/// that orientation id, not the piece type, before the mod 7: this is where the
/// cartridge's bias comes from.
#[inline]
pub const fn pick_piece(rng: u16, spawn_count: u8, spawn_id: u8) -> Pick {
    let spawn_count = spawn_count.wrapping_add(1);
    let hi = (rng >> 8) as u8;
    let index = hi.wrapping_add(spawn_count) & 7;
    if index != 7 && SPAWN_TABLE[index as usize] != spawn_id {
        return Pick {
            piece: SPAWN_TABLE[index as usize],
            rng,
            spawn_count,
            rerolled: false,
        };
    }
    let rng = lfsr_step(rng);
    let hi = (rng >> 8) as u8;
    // 8-bit add, then subtract 7 until below 7 (the cartridge's loop).
    let index = ((hi & 7).wrapping_add(spawn_id)) % 7;
    Pick {
        piece: SPAWN_TABLE[index as usize],
        rng,
        spawn_count,
        rerolled: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn period_is_32767_from_the_power_on_seed() {
        let mut v = lfsr_step(POWER_ON_SEED);
        let mut n = 1u32;
        while v != POWER_ON_SEED {
            v = lfsr_step(v);
            n += 1;
            assert!(n <= 65536);
        }
        assert_eq!(n, 32767);
    }

    #[test]
    fn advance_is_that_many_steps() {
        // Every state eight steps on, then runs of every length to 40 from a few states.
        for v in 0..=u16::MAX {
            let mut w = v;
            for _ in 0..8 {
                w = lfsr_step(w);
            }
            assert_eq!(lfsr_advance(v, 8), w, "{v:04X}");
        }
        for v in [0u16, 1, POWER_ON_SEED, 0xFFFF, 0x1234] {
            let mut w = v;
            for n in 0..40 {
                assert_eq!(lfsr_advance(v, n), w, "{v:04X} + {n}");
                w = lfsr_step(w);
            }
        }
    }

    #[test]
    fn first_steps_match_the_cartridge() {
        // The new top bit is bit 1 XOR bit 9: $8988 has bit 9 = 0, bit 1 = 0.
        assert_eq!(lfsr_step(0x8988), 0x44C4);
        assert_eq!(lfsr_step(0x0002), 0x8001);
        assert_eq!(lfsr_step(0x0200), 0x8100);
        assert_eq!(lfsr_step(0x0202), 0x0101);
    }

    #[test]
    fn reroll_adds_the_orientation_id() {
        // hi + count = 7 forces a re-roll.
        let p = pick_piece(0x0600, 0, 18);
        assert!(p.rerolled);
        let hi = (lfsr_step(0x0600) >> 8) as u8;
        assert_eq!(p.piece, SPAWN_TABLE[((hi & 7) as usize + 18) % 7]);
    }
}
