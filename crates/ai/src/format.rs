//! The formats bots are compared on, and the table the community compares them with.
//!
//! [`Format::Cartridge`] is the cartridge's own game on the published seed list. In
//! [`Format::Betatetris`], the format of the strongest published bot (BetaTetris: level 18
//! at 30 Hz, TetrisGYM v5 seeds, double killscreen from level 39, the game halted at level
//! 49), each game deals the pieces of a TetrisGYM seed, drawn the way BetaTetris's own
//! evaluation draws them: Python's `random.seed(0)` then
//! `random.sample(range(512, 2**24), N)` ([`betatetris_seeds`], which replays Python's
//! Mersenne Twister and its sampling exactly, so game `i` here is game `i` there).
//!
//! [`FormatTable`] is BetaTetris's statistics table: lines (average, standard deviation,
//! median, share under 130 / 230 / 330) and score (average, standard deviation, nine
//! percentiles, and the averages at the transitions to levels 19 / 29 / 39, where a game
//! that never got there counts with its final score, as BetaTetris counts it).

use crate::search::{Lookahead, SearchOptions};
use serde::{Deserialize, Serialize};

/// A format of play for a benchmark.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The cartridge's game on the published seed list.
    #[default]
    Cartridge,
    /// BetaTetris's: TetrisGYM v5 seeds drawn as its evaluation draws them, level 18,
    /// double killscreen at level 39, halt at level 49 (scores without the 999,999 cap).
    Betatetris,
}

impl Format {
    /// Every format, in the order help texts list them.
    pub const ALL: [Format; 2] = [Format::Cartridge, Format::Betatetris];

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Cartridge => "cartridge",
            Format::Betatetris => "betatetris",
        }
    }

    /// The format named `name` ([`Format::name`]).
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The lines a game of the format has when it reaches `level`, for a game started
    /// there to play on as the format's own would (its level-ups and caps at the same
    /// line counts): BetaTetris's game starts at level 18 and reaches level `L` > 18 at
    /// 130 + 10 (L - 19) lines (so double killscreen at 330 and the halt at 430); `None`
    /// where a game starts with none.
    pub fn lines_at(self, level: u8) -> Option<u16> {
        let start = self.start_level()?;
        (level > start).then(|| {
            let first = nestris_core::trainer::first_level_up(start);
            (first + 10 * (level - start - 1) as u16).min(999)
        })
    }

    /// The start level the format plays from, if it sets one.
    pub fn start_level(self) -> Option<u8> {
        match self {
            Format::Cartridge => None,
            Format::Betatetris => Some(18),
        }
    }

    /// What the AI's search knows of the piece after the preview by default: in
    /// BetaTetris's format what the screen shows, as its agent (which sees one preview)
    /// knows; in the cartridge's, the piece its generator has fixed.
    pub fn lookahead(self) -> Lookahead {
        match self {
            Format::Cartridge => Lookahead::Generator,
            Format::Betatetris => Lookahead::Screen,
        }
    }

    /// The search settings the format is played with by default: [`Format::lookahead`],
    /// and in BetaTetris's format deeper plans: the plan made once the preview is seen
    /// weighs one piece more for every line and two more for the two best (`depth` 5),
    /// and from level 29 the plan made before it one piece more for its four best
    /// candidates and two more for the two best of those (`blind_depth_29` 5,
    /// `blind_beam_29` 4). A game takes about 10 times the time of the cartridge format's
    /// plans (docs/AI.md has the runs that chose them).
    pub fn search(self) -> SearchOptions {
        let base = SearchOptions::default();
        match self {
            Format::Cartridge => SearchOptions {
                lookahead: self.lookahead(),
                ..base
            },
            Format::Betatetris => SearchOptions {
                lookahead: self.lookahead(),
                depth: 5,
                blind_depth_29: 5,
                blind_beam_29: 4,
                ..base
            },
        }
    }

    /// The player's reaction by default ([`crate::Ai::adjust_after`]): 300 ms (18 frames)
    /// in BetaTetris's format, as its agent plays; none in the cartridge's.
    pub fn adjust_after(self) -> Option<u8> {
        match self {
            Format::Cartridge => None,
            Format::Betatetris => Some(18),
        }
    }

    /// The evaluation weights the format is played with by default.
    pub fn weights(self) -> crate::WeightSet {
        match self {
            Format::Cartridge => crate::WeightSet::default(),
            Format::Betatetris => crate::WeightSet::betatetris(),
        }
    }
}

/// The seeds of BetaTetris's evaluation: `random.seed(seed)` and then
/// `random.sample(range(512, 2**24), n)` in Python 3, each a TetrisGYM seed (its six
/// hex digits as one number).
pub fn betatetris_seeds(n: usize, seed: u32) -> Vec<u32> {
    const LOW: u32 = 512;
    const SIZE: u32 = (1 << 24) - LOW;
    let mut mt = Mt19937::python(seed);
    // `sample` on a population this large against `n` draws: random indices, drawn again
    // when already taken (Python's set-based branch).
    let mut taken = std::collections::HashSet::with_capacity(n);
    (0..n)
        .map(|_| loop {
            let j = mt.below(SIZE);
            if taken.insert(j) {
                break LOW + j;
            }
        })
        .collect()
}

/// The Mersenne Twister MT19937 as Python's `random` module runs it.
struct Mt19937 {
    state: [u32; 624],
    index: usize,
}

impl Mt19937 {
    /// `random.seed(seed)` for a non-negative int below 2^32: `init_by_array([seed])`.
    fn python(seed: u32) -> Mt19937 {
        let mut mt = Mt19937 {
            state: [0; 624],
            index: 624,
        };
        mt.state[0] = 19_650_218;
        for i in 1..624 {
            let prev = mt.state[i - 1];
            mt.state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        let key = [seed];
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..624.max(key.len()) {
            let prev = mt.state[i - 1];
            mt.state[i] = (mt.state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= 624 {
                mt.state[0] = mt.state[623];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..623 {
            let prev = mt.state[i - 1];
            mt.state[i] = (mt.state[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= 624 {
                mt.state[0] = mt.state[623];
                i = 1;
            }
        }
        mt.state[0] = 0x8000_0000;
        mt
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for k in 0..624 {
                let y = (self.state[k] & 0x8000_0000) | (self.state[(k + 1) % 624] & 0x7FFF_FFFF);
                let mut v = self.state[(k + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908_B0DF;
                }
                self.state[k] = v;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9D2C_5680;
        y ^= (y << 15) & 0xEFC6_0000;
        y ^ (y >> 18)
    }

    /// Python's `_randbelow(n)` for `0 < n < 2^32`: `getrandbits(n.bit_length())` until
    /// below `n`.
    fn below(&mut self, n: u32) -> u32 {
        let bits = 32 - n.leading_zeros();
        loop {
            let r = self.next_u32() >> (32 - bits);
            if r < n {
                return r;
            }
        }
    }
}

/// BetaTetris's statistics table over a set of games.
#[derive(Clone, Copy, PartialEq, Debug, Default, Serialize, Deserialize)]
pub struct FormatTable {
    /// Games.
    pub games: usize,
    /// Lines: average.
    pub lines_mean: f64,
    /// Lines: standard deviation (of the population, as numpy's default).
    pub lines_std: f64,
    /// Lines: median.
    pub lines_median: f64,
    /// Share of games under 130, 230 and 330 lines (0..=1).
    pub lines_under: [f64; 3],
    /// Score: average.
    pub score_mean: f64,
    /// Score: standard deviation.
    pub score_std: f64,
    /// Score percentiles 1, 5, 10, 30, 50, 70, 90, 95, 99 ([`FormatTable::PERCENTILES`]).
    pub score_percentiles: [f64; 9],
    /// Average score at the transitions to levels 19, 29 and 39 (a game that did not reach
    /// one counts with its final score; `None` where the games started at or above it).
    pub transitions: [Option<f64>; 3],
}

impl FormatTable {
    /// The percentiles of [`FormatTable::score_percentiles`].
    pub const PERCENTILES: [f64; 9] = [1.0, 5.0, 10.0, 30.0, 50.0, 70.0, 90.0, 95.0, 99.0];

    /// The table of games given as (lines, score, scores at the 19 / 29 / 39 transitions).
    pub fn new(games: &[(u32, u64, [Option<u64>; 3])]) -> FormatTable {
        if games.is_empty() {
            return FormatTable::default();
        }
        let n = games.len() as f64;
        let lines: Vec<f64> = games.iter().map(|g| g.0 as f64).collect();
        let scores: Vec<f64> = games.iter().map(|g| g.1 as f64).collect();
        let mut transitions = [None; 3];
        for (k, t) in transitions.iter_mut().enumerate() {
            let at: Vec<f64> = games
                .iter()
                .filter_map(|g| g.2[k])
                .map(|s| s as f64)
                .collect();
            if at.len() == games.len() {
                *t = Some(mean(&at));
            }
        }
        FormatTable {
            games: games.len(),
            lines_mean: mean(&lines),
            lines_std: std_dev(&lines),
            lines_median: percentile(&lines, 50.0),
            lines_under: [130.0, 230.0, 330.0]
                .map(|cut| lines.iter().filter(|&&l| l < cut).count() as f64 / n),
            score_mean: mean(&scores),
            score_std: std_dev(&scores),
            score_percentiles: FormatTable::PERCENTILES.map(|p| percentile(&scores, p)),
            transitions,
        }
    }

    /// The table as Markdown, in BetaTetris's layout, with `label` as the column's title.
    pub fn markdown(&self, label: &str) -> String {
        let int = |x: f64| group(x.round() as i64);
        let pct = |x: f64| format!("{:.1}", 100.0 * x);
        let mut rows: Vec<(&str, &str, String)> = vec![
            ("Lines", "Average", format!("{:.1}", self.lines_mean)),
            ("", "Std. dev.", format!("{:.1}", self.lines_std)),
            ("", "Median", format!("{:.0}", self.lines_median)),
            ("", "<130 (%)", pct(self.lines_under[0])),
            ("", "<230 (%)", pct(self.lines_under[1])),
            ("", "<330 (%)", pct(self.lines_under[2])),
            ("Score", "Average", int(self.score_mean)),
            ("", "Std. dev.", int(self.score_std)),
        ];
        const NAMES: [&str; 9] = [
            "1st percentile",
            "5th percentile",
            "10th percentile",
            "30th percentile",
            "50th percentile",
            "70th percentile",
            "90th percentile",
            "95th percentile",
            "99th percentile",
        ];
        for (name, v) in NAMES.iter().zip(self.score_percentiles) {
            rows.push(("", name, int(v)));
        }
        for (name, v) in ["pre-19 avg.", "pre-29 avg.", "pre-39 avg."]
            .iter()
            .zip(self.transitions)
        {
            rows.push(("", name, v.map_or("—".into(), int)));
        }
        let mut out = format!("| | | {label} |\n|---|---|---:|\n");
        for (a, b, v) in rows {
            out.push_str(&format!("| {a} | {b} | {v} |\n"));
        }
        out
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn std_dev(v: &[f64]) -> f64 {
    let m = mean(v);
    (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64).sqrt()
}

/// The `p`th percentile, interpolating linearly between order statistics (numpy's default).
fn percentile(v: &[f64], p: f64) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    percentile_sorted(&v, p)
}

/// [`percentile`] of values already sorted (not empty).
pub(crate) fn percentile_sorted(v: &[f64], p: f64) -> f64 {
    let pos = p / 100.0 * (v.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

/// `1234567` as `1,234,567` (the tables', and `ai compare`'s, figures).
pub fn group(x: i64) -> String {
    let digits = x.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if x < 0 {
        format!("-{out}")
    } else {
        out
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_game_started_later_has_the_format_s_lines() {
        let f = Format::Betatetris;
        assert_eq!(f.lines_at(18), None);
        assert_eq!(f.lines_at(19), Some(130));
        assert_eq!(f.lines_at(29), Some(230));
        assert_eq!(f.lines_at(39), Some(330));
        assert_eq!(Format::Cartridge.lines_at(39), None);
    }

    use super::*;

    /// `python3 -c "import random; random.seed(0); s = random.sample(range(512, 2**24),
    /// 1100); print(s[:5], s[999], s[1099], sum(s))"` (Python 3.11).
    #[test]
    fn seeds_are_the_ones_betatetris_draws() {
        let s = betatetris_seeds(1100, 0);
        assert_eq!(s[..5], [14167559, 6463855, 12716876, 14936326, 7056532]);
        assert_eq!((s[999], s[1099]), (11606573, 15542864));
        assert_eq!(s.iter().map(|&x| x as u64).sum::<u64>(), 9262346713);
        // Another seed of the same draw: `random.seed(7)`, three samples.
        assert_eq!(betatetris_seeds(3, 7), [5433524, 15903053, 2531341]);
    }

    #[test]
    fn the_table_counts_as_betatetris_does() {
        let games = [
            (
                430,
                2_500_000,
                [Some(600_000), Some(1_200_000), Some(2_000_000)],
            ),
            (120, 300_000, [Some(300_000), Some(300_000), Some(300_000)]),
        ];
        let t = FormatTable::new(&games);
        assert_eq!(t.lines_mean, 275.0);
        assert_eq!(t.lines_std, 155.0);
        assert_eq!(t.lines_under, [0.5, 0.5, 0.5]);
        assert_eq!(t.score_percentiles[4], 1_400_000.0);
        assert_eq!(
            t.transitions,
            [Some(450_000.0), Some(750_000.0), Some(1_150_000.0)]
        );
        let md = t.markdown("nestris");
        assert!(md.contains("| Score | Average | 1,400,000 |"), "{md}");
        assert!(md.contains("|  | <130 (%) | 50.0 |"), "{md}");
        assert_eq!(group(999_999), "999,999");
    }
}
