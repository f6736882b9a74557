//! Tap patterns: when a player's k-th tap of a piece may come, as a frame table.
//!
//! The notation is StackRabbit's `inputFrameTimeline`: a string of `X` (a frame that may
//! press) and `.` or `-` (one that may not), repeating from the start of the piece's
//! inputs. `X.` is 30 Hz, `X..` 20 Hz, `X...` 15 Hz, `X....` 12 Hz, `X.X..` alternates
//! gaps of 2 and 3 frames. Read as BetaTetris reads its `TapTable`: the k-th `X` of the
//! repeated string is the earliest frame of the k-th tap, counted from the start of the
//! inputs (the spawn, after a `--reaction` wait, or an adjustment), and a tap presses a
//! direction, a rotation or both on that one frame.
//!
//! The move generator also lets the player wait between taps, so the table is applied
//! as gaps: tap 0 comes no earlier than the first `X`, and tap k + 1 no earlier than tap
//! k plus the frames between the k-th and (k + 1)-th `X`. Taps made as fast as the
//! pattern allows fall exactly on its `X` frames; a tap made later shifts the rest of the
//! table with it (BetaTetris's tuck: the tap after a wait, at or after its table frame).
//! See `docs/AI.md`, "Tap patterns".

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The most taps one cycle of a pattern may hold (after reducing it to its shortest
/// repeat): the move generator keeps a copy of its search per place in the cycle.
pub const MAX_TAPS: usize = 8;
/// The longest pattern string, in frames.
pub const MAX_FRAMES: usize = 64;

/// The Hz shorthands and the tap interval in frames of each.
const HZ: [(u32, u8); 4] = [(30, 2), (20, 3), (15, 4), (12, 5)];

/// Why a tap pattern did not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TapPatternError {
    /// Nothing given.
    #[error("tap pattern is empty: use a string of X and . such as \"X.\" or \"X.X..\", or 30/20/15/12 Hz")]
    Empty,
    /// A character other than `X`, `.` and `-`.
    #[error("tap pattern {0:?}: only X (a frame that may press) and . or - (one that may not), e.g. \"X.X..\", or 30/20/15/12 Hz")]
    Character(String),
    /// Longer than [`MAX_FRAMES`].
    #[error("tap pattern of {0} frames: at most 64")]
    TooLong(usize),
    /// No `X`.
    #[error("tap pattern {0:?} has no X: nothing could ever be pressed")]
    NoTap(String),
    /// Two taps on neighbouring frames.
    #[error("tap pattern {0:?}: two X one frame apart (counting the repeat); a button must be let go for a frame, so taps are at least 2 frames apart")]
    TooClose(String),
    /// More than [`MAX_TAPS`] taps in a cycle.
    #[error("tap pattern {0:?}: more than 8 taps before it repeats")]
    TooManyTaps(String),
    /// An unknown rate.
    #[error("tap rate {0:?}: use 30, 20, 15 or 12 Hz, or a pattern such as \"X.X..\"")]
    Hz(String),
}

/// When each tap of a piece may come: the first after `first` frames, then cyclic gaps.
///
/// Kept in its shortest repeat, so `X.X.` and `X.` are the same pattern (and equal).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TapPattern {
    /// Frames before the first tap (the dots before the first `X`).
    first: u8,
    /// Taps in one cycle (1..=MAX_TAPS).
    len: u8,
    /// `gaps[k]`: frames from the k-th tap of a cycle to the next one (each at least 2).
    gaps: [u8; MAX_TAPS],
}

impl Default for TapPattern {
    /// 30 Hz: `X.`.
    fn default() -> Self {
        TapPattern::every(2)
    }
}

impl TapPattern {
    /// 30 Hz, `X.`.
    pub const HZ30: TapPattern = TapPattern::every(2);

    /// A tap every `interval` frames (at least 2: a button has to be let go for a frame
    /// before it can go down again), the first at once: `X` and `interval - 1` dots.
    pub const fn every(interval: u8) -> TapPattern {
        let mut gaps = [0; MAX_TAPS];
        gaps[0] = if interval < 2 { 2 } else { interval };
        TapPattern {
            first: 0,
            len: 1,
            gaps,
        }
    }

    /// A pattern from a tap rate: 30, 20, 15 or 12 Hz.
    pub fn from_hz(hz: u32) -> Option<TapPattern> {
        HZ.iter()
            .find(|(h, _)| *h == hz)
            .map(|(_, i)| TapPattern::every(*i))
    }

    /// Reads `X.X..`-style strings (`X` a frame that may press, `.` or `-` one that may
    /// not, repeating) and the shorthands `30`, `30hz`, `30 Hz` (also 20, 15, 12).
    pub fn parse(text: &str) -> Result<TapPattern, TapPatternError> {
        let s = text.trim();
        if s.is_empty() {
            return Err(TapPatternError::Empty);
        }
        let shown = || s.chars().take(MAX_FRAMES + 4).collect::<String>();
        if s.starts_with(|c: char| c.is_ascii_digit()) {
            let lower = s.to_ascii_lowercase();
            let digits = lower.trim_end_matches("hz").trim_end();
            return digits
                .parse::<u32>()
                .ok()
                .and_then(TapPattern::from_hz)
                .ok_or_else(|| TapPatternError::Hz(shown()));
        }
        if s.chars().any(|c| !matches!(c, 'X' | 'x' | '.' | '-')) {
            return Err(TapPatternError::Character(shown()));
        }
        let frames = s.len();
        if frames > MAX_FRAMES {
            return Err(TapPatternError::TooLong(frames));
        }
        let taps: Vec<usize> = s
            .bytes()
            .enumerate()
            .filter(|(_, b)| matches!(b, b'X' | b'x'))
            .map(|(i, _)| i)
            .collect();
        let Some(&first) = taps.first() else {
            return Err(TapPatternError::NoTap(shown()));
        };
        // The gaps, the last one across the repeat.
        let mut gaps: Vec<usize> = taps.windows(2).map(|w| w[1] - w[0]).collect();
        gaps.push(frames - taps[taps.len() - 1] + first);
        if gaps.iter().any(|&g| g < 2) {
            return Err(TapPatternError::TooClose(shown()));
        }
        // The shortest repeat of the gaps (the first tap lies within it, since the
        // string repeats with that period too).
        let n = (1..=gaps.len())
            .find(|&p| gaps.len() % p == 0 && (p..gaps.len()).all(|i| gaps[i] == gaps[i - p]))
            .unwrap_or(gaps.len());
        if n > MAX_TAPS {
            return Err(TapPatternError::TooManyTaps(shown()));
        }
        let mut out = TapPattern {
            first: first as u8,
            len: n as u8,
            gaps: [0; MAX_TAPS],
        };
        for (g, &v) in out.gaps.iter_mut().zip(&gaps[..n]) {
            *g = v as u8;
        }
        Ok(out)
    }

    /// Frames before the first tap may come.
    #[inline]
    pub const fn first(&self) -> u8 {
        self.first
    }

    /// Taps in one cycle of the pattern.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Never true: a pattern has at least one tap (for clippy's `len` rule).
    #[inline]
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// Frames from tap `k` (from 0) to tap `k + 1` at the earliest.
    #[inline]
    pub const fn gap(&self, k: usize) -> u8 {
        self.gaps[k % self.len as usize]
    }

    /// The gaps of one cycle.
    pub fn gaps(&self) -> &[u8] {
        &self.gaps[..self.len as usize]
    }

    /// The one gap, if every tap is the same number of frames after the one before and
    /// the first comes at once (`X` then dots): the fixed tap interval.
    #[inline]
    pub const fn interval(&self) -> Option<u8> {
        if self.len == 1 && self.first == 0 {
            Some(self.gaps[0])
        } else {
            None
        }
    }

    /// The frame of tap `k` (from 0) when every tap is made as early as the pattern
    /// allows: the k-th `X` of the repeated string.
    pub fn frame_of_tap(&self, k: usize) -> u32 {
        let cycle: u32 = self.gaps().iter().map(|&g| u32::from(g)).sum();
        let n = self.len();
        let mut f = u32::from(self.first) + (k / n) as u32 * cycle;
        for j in 0..k % n {
            f += u32::from(self.gaps[j]);
        }
        f
    }

    /// The frames of the first `N` taps ([`TapPattern::frame_of_tap`] of 0..N).
    pub fn first_taps<const N: usize>(&self) -> [u32; N] {
        let mut f = u32::from(self.first);
        core::array::from_fn(|k| {
            let at = f;
            f += u32::from(self.gaps[k % self.len()]);
            at
        })
    }

    /// Frames of one cycle.
    pub fn cycle_frames(&self) -> u32 {
        self.gaps().iter().map(|&g| u32::from(g)).sum()
    }

    /// Taps per second at the NTSC frame rate, over a whole cycle.
    pub fn taps_per_second(&self) -> f64 {
        60.098_813_897_440_5 * self.len() as f64 / f64::from(self.cycle_frames())
    }

    /// The Hz shorthand of the pattern (30, 20, 15 or 12), if it is one.
    pub fn hz(&self) -> Option<u32> {
        let i = self.interval()?;
        HZ.iter().find(|(_, g)| *g == i).map(|(h, _)| *h)
    }
}

impl fmt::Display for TapPattern {
    /// The pattern's shortest string: the dots before the first tap, then one cycle
    /// (rotated, so that it starts at frame 0 of the repeat).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cycle = self.cycle_frames() as usize;
        let mut s = vec![b'.'; cycle];
        let mut at = self.first as usize;
        for &g in self.gaps() {
            s[at % cycle] = b'X';
            at += g as usize;
        }
        f.write_str(std::str::from_utf8(&s).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for TapPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TapPattern({self})")
    }
}

impl std::str::FromStr for TapPattern {
    type Err = TapPatternError;
    fn from_str(s: &str) -> Result<TapPattern, TapPatternError> {
        TapPattern::parse(s)
    }
}

impl Serialize for TapPattern {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TapPattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TapPattern, D::Error> {
        let s = String::deserialize(d)?;
        TapPattern::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// Where a player is in its tap pattern: the taps made since the inputs began and the
/// frames since the last one. The AI player uses it to place its adjustment where the
/// pattern allows a tap, and tests use it to check a sequence against the pattern.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TapClock {
    pattern: TapPattern,
    taps: u32,
    frames: u32,
    since: u32,
}

impl TapClock {
    /// At the start of the inputs: no tap yet.
    pub fn new(pattern: TapPattern) -> TapClock {
        TapClock {
            pattern,
            taps: 0,
            frames: 0,
            since: 0,
        }
    }

    /// Whether the pattern lets a button go down in the coming frame.
    #[inline]
    pub fn may_tap(&self) -> bool {
        if self.taps == 0 {
            self.frames >= u32::from(self.pattern.first)
        } else {
            self.since >= u32::from(self.pattern.gap(self.taps as usize - 1))
        }
    }

    /// Counts one frame; `tapped`: some button went down in it.
    #[inline]
    pub fn step(&mut self, tapped: bool) {
        self.frames = self.frames.saturating_add(1);
        if tapped {
            self.taps = self.taps.saturating_add(1);
            self.since = 1;
        } else {
            self.since = self.since.saturating_add(1);
        }
    }

    /// Taps made.
    pub fn taps(&self) -> u32 {
        self.taps
    }

    /// Checks that `inputs` (one button byte per frame, from a state holding `held`)
    /// press a new button only where `pattern` allows it, after `wait` frames of
    /// nothing. Returns the first frame that breaks it.
    pub fn check(pattern: TapPattern, wait: u8, held: u8, inputs: &[u8]) -> Result<(), usize> {
        let mut clock = TapClock::new(pattern);
        let mut held = held;
        for (i, &b) in inputs.iter().enumerate() {
            let pressed = b & !held != 0;
            held = b;
            if i < wait as usize {
                if pressed {
                    return Err(i);
                }
                continue;
            }
            if pressed && !clock.may_tap() {
                return Err(i);
            }
            clock.step(pressed);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shorthands_are_fixed_intervals() {
        for (text, interval) in [
            ("X.", 2),
            ("30", 2),
            ("20hz", 3),
            ("15 Hz", 4),
            ("X....", 5),
        ] {
            let p = TapPattern::parse(text).unwrap();
            assert_eq!(p.interval(), Some(interval), "{text}");
            assert_eq!(p, TapPattern::every(interval));
        }
        assert_eq!(TapPattern::parse("12HZ").unwrap().hz(), Some(12));
        assert_eq!(TapPattern::parse("X.X..").unwrap().hz(), None);
    }

    /// The k-th X of the repeated string is the frame of tap k, as BetaTetris's
    /// cumulative `TapTable` gives it.
    #[test]
    fn taps_fall_on_the_x_of_the_repeated_string() {
        for text in ["X.", "X.X..", "..X.", "X..X...X.", ".X.X..", "X-X--"] {
            let p = TapPattern::parse(text).unwrap();
            let repeated: Vec<u32> = text
                .bytes()
                .cycle()
                .take(text.len() * 8)
                .enumerate()
                .filter(|(_, b)| *b == b'X')
                .map(|(i, _)| i as u32)
                .collect();
            let ours: Vec<u32> = (0..repeated.len()).map(|k| p.frame_of_tap(k)).collect();
            assert_eq!(ours, repeated, "{text}");
            assert_eq!(p.first_taps::<7>()[..], repeated[..7], "{text}");
            // Its string reads back as the same pattern.
            assert_eq!(TapPattern::parse(&p.to_string()).unwrap(), p, "{text}");
        }
        let p = TapPattern::parse("X.X..").unwrap();
        assert_eq!(p.gaps(), [2, 3]);
        assert_eq!(p.to_string(), "X.X..");
        // A repeat of a shorter pattern is that pattern.
        assert_eq!(TapPattern::parse("X.X.X.").unwrap(), TapPattern::HZ30);
        assert_eq!(TapPattern::parse("..X...X.").unwrap().to_string(), "..X.");
    }

    #[test]
    fn bad_patterns_are_one_line_errors() {
        for (text, what) in [
            ("", "empty"),
            ("X.X", "one frame apart"),
            ("XX.", "one frame apart"),
            ("X", "one frame apart"),
            ("....", "no X"),
            ("X.Y", "only X"),
            ("25", "tap rate"),
            ("30 kHz", "tap rate"),
            // Found by the fuzz target: a rate with line breaks in it is shown escaped.
            ("1\n\n.", "tap rate"),
            ("X.X.X.X.X.X.X.X.X..", "more than 8"),
        ] {
            let e = TapPattern::parse(text).unwrap_err().to_string();
            assert!(e.contains(what), "{text:?}: {e}");
            assert!(!e.contains('\n'));
        }
        let long = format!("X{}", ".".repeat(64));
        assert!(matches!(
            TapPattern::parse(&long),
            Err(TapPatternError::TooLong(65))
        ));
        assert!(TapPattern::parse(&format!("X{}", ".".repeat(63))).is_ok());
    }

    #[test]
    fn the_clock_follows_the_gaps() {
        let p = TapPattern::parse(".X.X..").unwrap();
        assert_eq!(p.gaps(), [2, 4]);
        // Taps at 1, 3, 7, 9: as fast as allowed.
        let mut seq = [0u8; 10];
        for f in [1, 3, 7, 9] {
            seq[f] = 1;
        }
        assert_eq!(TapClock::check(p, 0, 0, &seq), Ok(()));
        // One frame early at the third tap.
        seq[7] = 0;
        seq[6] = 1;
        assert_eq!(TapClock::check(p, 0, 0, &seq), Err(6));
        // A wait shifts the rest of the table: the fourth tap 2 frames after the third.
        let mut late = [0u8; 12];
        for f in [1, 3, 8, 10] {
            late[f] = 1;
        }
        assert_eq!(TapClock::check(p, 0, 0, &late), Ok(()));
        // Nothing during the reaction frames; a held button is no tap.
        assert_eq!(TapClock::check(p, 2, 0, &[0, 1]), Err(1));
        assert_eq!(TapClock::check(p, 0, 1, &[1, 1, 0]), Ok(()));
    }

    #[test]
    fn serde_is_the_string() {
        let p = TapPattern::parse("X.X..").unwrap();
        let j = serde_json::to_string(&p).unwrap();
        assert_eq!(j, "\"X.X..\"");
        assert_eq!(serde_json::from_str::<TapPattern>(&j).unwrap(), p);
        assert!(serde_json::from_str::<TapPattern>("\"X.X\"").is_err());
    }
}
