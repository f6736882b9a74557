//! The cartridge's decimal arithmetic, quirks included: lines, score, statistics.
//!
//! Every function works on the raw BCD bytes the cartridge keeps, with its 8-bit
//! wrap-around and its partial nibble corrections, so that invalid digits appear
//! exactly where the cartridge produces them.

/// True if both nibbles of `b` are decimal digits.
#[inline]
pub const fn is_bcd(b: u8) -> bool {
    b & 0x0F < 0x0A && b >> 4 < 0x0A
}

/// Two BCD digits as a number (0..=99 for valid input; invalid nibbles weigh as read).
#[inline]
pub const fn bcd_value(b: u8) -> u32 {
    (b >> 4) as u32 * 10 + (b & 0x0F) as u32
}

/// A number 0..=99 as two BCD digits.
#[inline]
pub const fn to_bcd(n: u8) -> u8 {
    (n / 10) << 4 | (n % 10)
}

/// `incrementPieceStat` on a 2-byte counter stored low byte first.
#[inline]
pub fn increment_stat(counter: &mut [u8; 2]) {
    let mut lo = counter[0].wrapping_add(1);
    // `cmp #$0A / bmi`: a signed compare, equal to unsigned for a nibble.
    if lo & 0x0F >= 0x0A {
        lo = lo.wrapping_add(6);
        if lo >= 0xA0 {
            lo = lo.wrapping_add(0x60);
            counter[1] = counter[1].wrapping_add(1);
        }
    }
    counter[0] = lo;
}

/// Line-clear counter (`lineClearStatsByType`): low nibble fix only, no carry past 99.
#[inline]
pub fn increment_clear_count(count: &mut u8) {
    *count = count.wrapping_add(1);
    if *count & 0x0F >= 0x0A {
        *count = count.wrapping_add(6);
    }
}

/// One A-type line (`incrementLines`): `lines` is (low byte, hundreds byte).
#[inline]
pub fn increment_lines(lines: &mut [u8; 2]) {
    let mut lo = lines[0].wrapping_add(1);
    if lo & 0x0F >= 0x0A {
        lo = lo.wrapping_add(6);
        if lo & 0xF0 >= 0xA0 {
            lo &= 0x0F;
            lines[1] = lines[1].wrapping_add(1);
        }
    }
    lines[0] = lo;
}

/// B-type lines counting down by `cleared` (low byte only; negative clamps to 0).
#[inline]
pub fn decrement_lines(lines: &mut [u8; 2], cleared: u8) {
    let v = lines[0].wrapping_sub(cleared);
    lines[0] = if (v as i8) < 0 {
        0
    } else if v & 0x0F >= 0x0A {
        v.wrapping_sub(6)
    } else {
        v
    };
}

/// `addHoldDownPoints`: adds `hold - 1` soft-drop points with the cartridge's
/// binary add and single nibble correction (wrong for larger values, by design).
#[inline]
pub fn add_hold_down_points(score: &mut [u8; 3], hold: u8) {
    if (hold.wrapping_sub(2) as i8) < 0 {
        return;
    }
    let mut a = score[0].wrapping_sub(1).wrapping_add(hold);
    if a & 0x0F >= 0x0A {
        a = a.wrapping_add(6);
    }
    if a & 0xF0 >= 0xA0 {
        a = (a & 0xF0).wrapping_add(0x60);
        score[1] = score[1].wrapping_add(1);
    }
    score[0] = a;
}

/// One repetition of `addLineClearPoints`: BCD `(lo, hi)` added to the score, with the
/// 999,999 cap. Returns true if the score hit the cap.
#[inline]
pub fn add_points_once(score: &mut [u8; 3], lo: u8, hi: u8) -> bool {
    let s0 = score[0].wrapping_add(lo);
    score[0] = s0;
    if s0 >= 0xA0 {
        score[0] = s0.wrapping_add(0x60);
        score[1] = score[1].wrapping_add(1);
    }
    score[1] = score[1].wrapping_add(hi);
    if score[1] & 0x0F >= 0x0A {
        score[1] = score[1].wrapping_add(6);
    }
    if score[1] & 0xF0 >= 0xA0 {
        score[1] = score[1].wrapping_add(0x60);
        score[2] = score[2].wrapping_add(1);
    }
    if score[2] & 0x0F >= 0x0A {
        score[2] = score[2].wrapping_add(6);
    }
    if score[2] & 0xF0 >= 0xA0 {
        *score = [0x99; 3];
        return true;
    }
    false
}

/// `times` repetitions of [`add_points_once`] with the points of a line clear
/// ([`crate::tables::POINTS`]) in one step. On a decimal score each repetition adds the
/// points in decimal and the cap holds the score at 999,999 once reached (the
/// `points_are_decimal` property), so the repetitions are one sum and a cap; other scores
/// and points take the repetitions one by one.
#[inline]
pub fn add_points(score: &mut [u8; 3], lo: u8, hi: u8, times: u16) {
    let table = crate::tables::POINTS.contains(&(lo, hi));
    if !(table && score.iter().all(|&b| is_bcd(b))) {
        for _ in 0..times {
            add_points_once(score, lo, hi);
        }
        return;
    }
    let per = bcd_value(hi) * 100 + bcd_value(lo);
    if per == 0 {
        return;
    }
    let total = (score_value(*score) + per * times as u32).min(999_999);
    *score = [
        to_bcd((total % 100) as u8),
        to_bcd((total / 100 % 100) as u8),
        to_bcd((total / 10_000) as u8),
    ];
}

/// The score as a number (BCD bytes low first), reading invalid digits as their value.
pub const fn score_value(score: [u8; 3]) -> u32 {
    bcd_value(score[2]) * 10_000 + bcd_value(score[1]) * 100 + bcd_value(score[0])
}

/// The line count as a number (low byte, hundreds byte).
pub const fn lines_value(lines: [u8; 2]) -> u32 {
    bcd_value(lines[1]) * 100 + bcd_value(lines[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hold_down_points_quirks() {
        // s0 = $09, h = 15 gives $17 instead of $23.
        let mut s = [0x09, 0, 0];
        add_hold_down_points(&mut s, 15);
        assert_eq!(s, [0x17, 0, 0]);
        // s0 = $98, h = 12: the ones digit is dropped.
        let mut s = [0x98, 0, 0];
        add_hold_down_points(&mut s, 12);
        assert_eq!(s, [0x00, 1, 0]);
        // h = 1 adds nothing.
        let mut s = [0x05, 0, 0];
        add_hold_down_points(&mut s, 1);
        assert_eq!(s, [0x05, 0, 0]);
    }

    #[test]
    fn score_caps_at_999999() {
        let mut s = [0x00, 0x90, 0x99];
        assert!(add_points_once(&mut s, 0x00, 0x12));
        assert_eq!(s, [0x99; 3]);
    }

    #[test]
    fn lines_carry_into_hundreds() {
        let mut l = [0x99, 0x00];
        increment_lines(&mut l);
        assert_eq!(l, [0x00, 0x01]);
    }

    /// `score` after a clear of `lines` rows' points added `times` times by `add_points`,
    /// and by as many `add_points_once`.
    fn at_once_and_one_by_one(score: [u8; 3], lines: usize, times: u16) -> ([u8; 3], [u8; 3]) {
        let (lo, hi) = crate::tables::POINTS[lines];
        let mut one_by_one = score;
        for _ in 0..times {
            add_points_once(&mut one_by_one, lo, hi);
        }
        let mut at_once = score;
        add_points(&mut at_once, lo, hi, times);
        (at_once, one_by_one)
    }

    proptest! {
        #[test]
        fn small_hold_down_points_are_exact(s0 in 0u8..=99, h in 2u8..=10) {
            // Exact while the ones digit - 1 + h stays below 16 and no hundreds carry.
            let ones = s0 % 10;
            prop_assume!(ones + h - 1 < 16 && s0 as u32 + h as u32 - 1 < 100);
            let mut s = [to_bcd(s0), 0, 0];
            add_hold_down_points(&mut s, h);
            prop_assert_eq!(score_value(s), s0 as u32 + h as u32 - 1);
        }

        #[test]
        fn points_are_decimal(start in 0u32..990_000, lines in 0usize..5, times in 1u32..30) {
            let mut s = [to_bcd((start % 100) as u8), to_bcd((start / 100 % 100) as u8), to_bcd((start / 10_000) as u8)];
            let (lo, hi) = crate::tables::POINTS[lines];
            for _ in 0..times { add_points_once(&mut s, lo, hi); }
            let per = [0, 40, 100, 300, 1200][lines];
            prop_assert_eq!(score_value(s), (start + per * times).min(999_999));
            prop_assert!(s.iter().all(|b| is_bcd(*b)));
        }

        #[test]
        fn points_at_once_are_the_repetitions(
            score in proptest::array::uniform3(any::<u8>()),
            lines in 0usize..5,
            times in 1u16..=256,
        ) {
            let (at_once, one_by_one) = at_once_and_one_by_one(score, lines, times);
            prop_assert_eq!(at_once, one_by_one);
        }

        #[test]
        fn points_at_once_on_decimal_scores(
            start in 0u32..1_000_000,
            lines in 0usize..5,
            times in 1u16..=256,
        ) {
            let score = [to_bcd((start % 100) as u8), to_bcd((start / 100 % 100) as u8), to_bcd((start / 10_000) as u8)];
            let (at_once, one_by_one) = at_once_and_one_by_one(score, lines, times);
            prop_assert_eq!(at_once, one_by_one);
        }

        #[test]
        fn stats_count_in_decimal(n in 0u32..2000) {
            let mut c = [0u8; 2];
            for _ in 0..n { increment_stat(&mut c); }
            // The high byte counts hundreds in binary.
            prop_assert_eq!(c[1] as u32 * 100 + bcd_value(c[0]), n);
        }
    }
}
