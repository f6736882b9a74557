//! The standard benchmark: many whole games on a fixed, published list of seeds, in
//! parallel, summed up as score and line statistics.
//!
//! Each game starts from a [`GameSetup`] whose generator value and pick counter come
//! from a [`SeedList`] (the frame counter is 0), at [`BenchConfig::start_level`], and is
//! played by an [`Ai`] through [`Game::step`](nestris_core::Game::step) until it tops
//! out or reaches one of [`BenchConfig::limits`]. Games are independent and deterministic,
//! so the report is the same for any number of threads.
//!
//! ```
//! use nestris_ai::benchmark::{run, BenchConfig};
//! use nestris_ai::player::Limits;
//!
//! let config = BenchConfig {
//!     games: 2,
//!     limits: Limits::frames(2_000),
//!     threads: 1,
//!     ..BenchConfig::default()
//! };
//! let report = run(&config, &|_done| {});
//! assert_eq!(report.results.len(), 2);
//! ```

use crate::eval::WeightSet;
use crate::format::{betatetris_seeds, Format, FormatTable};
use crate::inputs::{InputModel, TapPattern};
use crate::player::{play_from_until, Ai, End, GameResult, Limits};
use crate::search::{Lookahead, SearchOptions};
use nestris_core::{Cartridge, CrashMode, Game, GameSetup, GymSeed, SeedRule, Variant};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The published seed list, `seeds/standard.txt` (1000 games).
const STANDARD: &str = include_str!("../seeds/standard.txt");

/// The state of the piece generator a game starts from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Seed {
    /// The generator value (`rng_seed`, never 0).
    pub rng: u16,
    /// The pick counter (`spawnCount`).
    pub spawn_count: u8,
}

impl Seed {
    /// The setup of an A-type NTSC game from this seed starting at `start_level`, with
    /// the frame counter at 0.
    pub fn setup(&self, start_level: u8) -> GameSetup {
        GameSetup {
            level: start_level,
            rng: self.rng,
            spawn_count: self.spawn_count,
            frame_counter: 0,
            ..GameSetup::default()
        }
    }
}

/// An ordered list of seeds; game `i` of a benchmark plays seed `i`.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct SeedList(pub Vec<Seed>);

impl SeedList {
    /// The standard list of 1000 seeds, published in `crates/ai/seeds/standard.txt`.
    pub fn standard() -> SeedList {
        SeedList::parse(STANDARD).expect("the published seed list parses")
    }

    /// The seeds [`GameSetup::from_seed`] gives for `1..=n` (how the standard list was
    /// made; its frame counters are dropped).
    pub fn from_seeds(n: usize) -> SeedList {
        SeedList(
            (1..=n as u64)
                .map(|i| {
                    let s = GameSetup::from_seed(i);
                    Seed {
                        rng: s.rng,
                        spawn_count: s.spawn_count,
                    }
                })
                .collect(),
        )
    }

    /// Reads the text form: one `RNG COUNT` pair of hexadecimal numbers per line
    /// (`8988 00`); `#` starts a comment, blank lines are skipped.
    pub fn parse(text: &str) -> Result<SeedList, String> {
        let mut out = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut parts = line.split_whitespace();
            let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(format!("line {}: expected two hex numbers", n + 1));
            };
            let rng = u16::from_str_radix(a, 16)
                .map_err(|e| format!("line {}: generator value {a:?}: {e}", n + 1))?;
            let spawn_count = u8::from_str_radix(b, 16)
                .map_err(|e| format!("line {}: pick counter {b:?}: {e}", n + 1))?;
            if rng == 0 {
                return Err(format!("line {}: the generator value 0 is stuck", n + 1));
            }
            out.push(Seed { rng, spawn_count });
        }
        Ok(SeedList(out))
    }

    /// The text form read by [`SeedList::parse`] (no comments).
    pub fn to_text(&self) -> String {
        self.0
            .iter()
            .map(|s| format!("{:04X} {:02X}\n", s.rng, s.spawn_count))
            .collect()
    }

    /// The first `n` seeds (all of them if there are fewer).
    pub fn first(&self, n: usize) -> SeedList {
        SeedList(self.0[..n.min(self.0.len())].to_vec())
    }

    /// Number of seeds.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are no seeds.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Default for SeedList {
    fn default() -> Self {
        SeedList::standard()
    }
}

/// What to run.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct BenchConfig {
    /// The level games start at (18, 19, 29, ...).
    pub start_level: u8,
    /// Tapping rate in taps per second: 30, 20, 15 or 12 (tap intervals of 2, 3, 4, 5
    /// frames); other values use `60 / tap_hz` frames, at least 2.
    pub tap_hz: u8,
    /// When taps may come, if not at [`BenchConfig::tap_hz`] (`X.X..`-style; see
    /// [`TapPattern`]).
    pub taps: Option<TapPattern>,
    /// Frames without input after each spawn.
    pub reaction: u8,
    /// The community's reaction model ([`Ai::adjust_after`]): frames after each spawn
    /// before the player sees the new preview piece and may change its plan (`None`: at
    /// once).
    pub adjust_after: Option<u8>,
    /// Number of games: the first `games` seeds of `seeds`.
    pub games: usize,
    /// Make the uncapped score the report's headline score ([`BenchReport::score`]);
    /// both are always reported.
    pub uncapped: bool,
    /// The seeds.
    pub seeds: SeedList,
    /// Worker threads; 0 uses every core.
    pub threads: usize,
    /// The evaluation (a set per bracket of the game).
    pub weights: WeightSet,
    /// Search settings.
    pub search: SearchOptions,
    /// When a game stops if it has not topped out.
    pub limits: Limits,
    /// What the engine does when the cartridge would crash (default `Cartridge`: the game
    /// ends there, [`End::Crash`]).
    pub crash_mode: CrashMode,
    /// The music choice 0..=3 (default 3: off). While music plays the sound engine's cycles
    /// need the cartridge's music scripts ([`BenchConfig::cartridge`]); without them the
    /// games' sub-frame timing is lost in the first frames, and no lag frame or crash is
    /// modelled.
    pub music_type: u8,
    /// What only the user's ROM holds (its music's scripts), if given.
    #[serde(skip)]
    pub cartridge: Option<Arc<Cartridge>>,
    /// The format of play ([`Format::Betatetris`]: game `i` deals the pieces of
    /// BetaTetris's `i`th evaluation seed under its line caps; the seed list then only
    /// gives the cartridge's own generator, which goes on unread).
    pub format: Format,
}

impl Default for BenchConfig {
    /// Level 18, 30 Hz, no reaction time, 100 games of the standard seeds, all cores,
    /// the default weights and search, games ending at a top-out, when the level wraps
    /// from 255 to 0, or after 2,000,000 frames.
    fn default() -> Self {
        BenchConfig {
            start_level: 18,
            tap_hz: 30,
            taps: None,
            reaction: 0,
            adjust_after: None,
            games: 100,
            uncapped: false,
            seeds: SeedList::standard(),
            threads: 0,
            weights: WeightSet::default(),
            search: SearchOptions::default(),
            limits: Limits::default(),
            crash_mode: CrashMode::Cartridge,
            music_type: 3,
            cartridge: None,
            format: Format::Cartridge,
        }
    }
}

impl BenchConfig {
    /// The seeds of game `i`, given [`BenchConfig::gym_seeds`]: a Gym seed deals the
    /// pieces; the cartridge's own generator, which goes on unread, takes the list's seeds
    /// round.
    pub fn seed_of(&self, i: usize, gym_seeds: Option<&[u32]>) -> (Seed, Option<u32>) {
        (self.seeds.0[i % self.seeds.len()], gym_seeds.map(|g| g[i]))
    }

    /// The tap interval in frames for [`BenchConfig::tap_hz`].
    pub fn tap_interval(&self) -> u8 {
        match self.tap_hz {
            30 => 2,
            20 => 3,
            15 => 4,
            12 => 5,
            0 => 2,
            hz => (60 / hz).max(2),
        }
    }

    /// The tap pattern of the player: [`BenchConfig::taps`], or a tap every
    /// [`BenchConfig::tap_interval`] frames.
    pub fn pattern(&self) -> TapPattern {
        self.taps
            .unwrap_or_else(|| TapPattern::every(self.tap_interval()))
    }

    /// The tapping as a label: `30 Hz`, or the pattern (`taps X.X..`).
    pub fn tapping(&self) -> String {
        let p = self.pattern();
        match p.hz() {
            Some(hz) => format!("{hz} Hz"),
            None => format!("taps {p}"),
        }
    }

    /// The input model of the player.
    pub fn model(&self) -> InputModel {
        InputModel {
            taps: self.pattern(),
            das: false,
            reaction: self.reaction,
            soft_drop: false,
        }
    }

    /// A player for this configuration.
    pub fn ai(&self) -> Ai {
        let mut ai = Ai::new(self.weights, self.model());
        ai.adjust_after = self.adjust_after.filter(|&f| f > 0);
        ai.search_mut().options = self.search;
        ai.search_mut().cartridge = self.cartridge.clone();
        ai
    }

    /// The setup of the game played from `seed`: [`Seed::setup`] at the start level, with
    /// this configuration's crash mode and music (the cartridge's rules).
    pub fn setup(&self, seed: &Seed) -> GameSetup {
        GameSetup {
            crash_mode: self.crash_mode,
            music_type: self.music_type,
            ..seed.setup(self.start_level)
        }
    }

    /// The TetrisGYM seed of each game, if the format deals from them.
    pub fn gym_seeds(&self) -> Option<Vec<u32>> {
        match self.format {
            Format::Cartridge => None,
            Format::Betatetris => Some(betatetris_seeds(self.games, 0)),
        }
    }

    /// The setup of game `i`: [`BenchConfig::setup`] of its seed, under the format's rules
    /// with `gym_seed` (from [`BenchConfig::gym_seeds`]) dealing the pieces.
    pub fn setup_of(&self, seed: &Seed, gym_seed: Option<u32>) -> GameSetup {
        let mut setup = self.setup(seed);
        if self.format == Format::Betatetris {
            setup.variant =
                Variant::betatetris(gym_seed.and_then(|g| GymSeed::new(g, SeedRule::V5)));
        }
        setup
    }

    /// The game `i` starts as: [`BenchConfig::setup_of`], and in a format whose games
    /// start at another level, with the lines the format's game has at the start level
    /// ([`Format::lines_at`]), so that its level-ups and caps come where they would.
    pub fn game_of(&self, seed: &Seed, gym_seed: Option<u32>) -> Game {
        let game = Game::new(self.setup_of(seed, gym_seed));
        let Some(lines) = self.format.lines_at(self.start_level) else {
            return game;
        };
        let mut s = game.snapshot();
        s.lines = [
            nestris_core::bcd::to_bcd((lines % 100) as u8),
            nestris_core::bcd::to_bcd((lines / 100) as u8),
        ];
        Game::from_snapshot(s).unwrap_or(game)
    }

    /// True when the report's headline score is the one without the cap: asked for, or
    /// a format whose scores go past it.
    pub fn headline_uncapped(&self) -> bool {
        self.uncapped || self.format == Format::Betatetris
    }

    /// True when the games' timing cannot be followed: music on and no cartridge music, so
    /// that no lag frame or crash will be modelled.
    pub fn timing_unmodelled(&self) -> bool {
        self.music_type != 3 && self.cartridge.as_ref().is_none_or(|c| c.music.is_none())
    }
}

/// One game of a benchmark.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// The seed it was played from.
    pub seed: Seed,
    /// Final score, capped at 999,999 like the cartridge's.
    pub score: u32,
    /// Score without the cap (see [`GameResult::uncapped_score`]).
    pub uncapped_score: u64,
    /// Lines cleared.
    pub lines: u32,
    /// Final level.
    pub level: u8,
    /// Highest level reached.
    pub max_level: u8,
    /// Tetrises.
    pub tetrises: u32,
    /// Clears by size: singles, doubles, triples, tetrises (the burns are the first
    /// three).
    #[serde(default)]
    pub clears: [u32; 4],
    /// Frames played.
    pub frames: u64,
    /// Pieces placed.
    pub pieces: u32,
    /// Why it ended.
    pub end: End,
    /// Lag frames in the game.
    #[serde(default)]
    pub lag_frames: u32,
    /// The frame in which the cartridge would have crashed, if it did.
    #[serde(default)]
    pub crash_frame: Option<u64>,
    /// Crashes dodged (see [`GameResult::crash_dodges`]).
    #[serde(default)]
    pub crash_dodges: u32,
    /// Of them, by pushdown.
    #[serde(default)]
    pub pushdown_dodges: u32,
    /// Pieces whose every candidate crashed.
    #[serde(default)]
    pub unavoidable_crashes: u32,
    /// The TetrisGYM seed that dealt its pieces, in a format that deals from them.
    #[serde(default)]
    pub gym_seed: Option<u32>,
    /// Score without the cap at the transitions to levels 19, 29 and 39
    /// ([`GameResult::transition_scores`]).
    #[serde(default)]
    pub transition_scores: [Option<u64>; 3],
}

impl GameRecord {
    fn new(seed: Seed, gym_seed: Option<u32>, r: &GameResult) -> GameRecord {
        GameRecord {
            seed,
            gym_seed,
            transition_scores: r.transition_scores,
            score: r.score,
            uncapped_score: r.uncapped_score,
            lines: r.lines,
            level: r.level,
            max_level: r.max_level,
            tetrises: r.tetrises,
            clears: r.clears,
            frames: r.frames,
            pieces: r.pieces,
            end: r.end,
            lag_frames: r.lag_frames,
            crash_frame: r.crash_frame,
            crash_dodges: r.crash_dodges,
            pushdown_dodges: r.pushdown_dodges,
            unavoidable_crashes: r.unavoidable_crashes,
        }
    }
}

/// Percentiles and mean of one quantity over the games.
#[derive(Clone, Copy, PartialEq, Debug, Default, Serialize, Deserialize)]
pub struct Distribution {
    /// Mean.
    pub mean: f64,
    /// 1st percentile.
    pub p1: f64,
    /// 10th percentile.
    pub p10: f64,
    /// Median.
    pub median: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
}

impl Distribution {
    /// Of `values` (percentiles interpolate linearly between order statistics, as
    /// numpy's default does).
    pub fn of(values: &[f64]) -> Distribution {
        if values.is_empty() {
            return Distribution::default();
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let pct = |p: f64| crate::format::percentile_sorted(&v, p);
        Distribution {
            mean: v.iter().sum::<f64>() / v.len() as f64,
            p1: pct(1.0),
            p10: pct(10.0),
            median: pct(50.0),
            p90: pct(90.0),
            p99: pct(99.0),
        }
    }
}

/// The summary of a benchmark.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchReport {
    /// The configuration run.
    pub config: BenchConfig,
    /// The headline score: uncapped if `config.uncapped`, else the cartridge's.
    pub score: Distribution,
    /// The cartridge's (capped) score.
    pub capped_score: Distribution,
    /// The score without the cap.
    pub uncapped_score: Distribution,
    /// Lines.
    pub lines: Distribution,
    /// Fraction of games that reached level 19 (0..=1).
    pub reached_19: f64,
    /// Fraction that reached level 29.
    pub reached_29: f64,
    /// Fraction that reached level 39.
    pub reached_39: f64,
    /// Fraction that reached the 999,999 cap.
    pub maxout: f64,
    /// Lines cleared by tetrises over all lines cleared, all games together.
    pub tetris_rate: f64,
    /// Fraction of games that topped out (the others reached a limit or crashed).
    pub topped_out: f64,
    /// Fraction of games in which the cartridge would have crashed (whatever the crash mode
    /// made of it).
    #[serde(default)]
    pub crashed: f64,
    /// Lag frames per game, on average.
    #[serde(default)]
    pub lag_frames: f64,
    /// Crash dodges in all games (see [`GameResult::crash_dodges`]).
    #[serde(default)]
    pub crash_dodges: u64,
    /// Of them, by pushdown.
    #[serde(default)]
    pub pushdown_dodges: u64,
    /// BetaTetris's table of the games, on the headline score.
    #[serde(default)]
    pub table: FormatTable,
    /// Games per second of wall time, over the games this run played (not those read
    /// from a checkpoint).
    pub games_per_second: f64,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Games read from a checkpoint instead of played (`--checkpoint`): `seconds` is the
    /// time of the others.
    #[serde(default)]
    pub resumed: usize,
    /// Every game, in seed order.
    pub results: Vec<GameRecord>,
}

impl BenchReport {
    /// Summarises `results` (played with `config`, in `seconds` of wall time).
    pub fn new(config: &BenchConfig, results: Vec<GameRecord>, seconds: f64) -> BenchReport {
        Self::resumed(config, results, seconds, 0)
    }

    /// [`BenchReport::new`] when `resumed` of the `results` were read from a checkpoint
    /// and the others played in `seconds`.
    pub fn resumed(
        config: &BenchConfig,
        results: Vec<GameRecord>,
        seconds: f64,
        resumed: usize,
    ) -> BenchReport {
        let n = results.len().max(1) as f64;
        let col = |f: &dyn Fn(&GameRecord) -> f64| results.iter().map(f).collect::<Vec<_>>();
        let frac =
            |f: &dyn Fn(&GameRecord) -> bool| results.iter().filter(|r| f(r)).count() as f64 / n;
        let capped_score = Distribution::of(&col(&|r| r.score as f64));
        let uncapped_score = Distribution::of(&col(&|r| r.uncapped_score as f64));
        let lines_total: u64 = results.iter().map(|r| r.lines as u64).sum();
        let tetris_lines: u64 = results.iter().map(|r| 4 * r.tetrises as u64).sum();
        let headline = |r: &GameRecord| {
            if config.headline_uncapped() {
                r.uncapped_score
            } else {
                r.score as u64
            }
        };
        let table = FormatTable::new(
            &results
                .iter()
                .map(|r| {
                    // The cartridge's score stops at the cap, so do its transitions.
                    let t = r.transition_scores.map(|t| {
                        t.map(|v| {
                            if config.headline_uncapped() {
                                v
                            } else {
                                v.min(999_999)
                            }
                        })
                    });
                    (r.lines, headline(r), t)
                })
                .collect::<Vec<_>>(),
        );
        BenchReport {
            config: config.clone(),
            table,
            score: if config.headline_uncapped() {
                uncapped_score
            } else {
                capped_score
            },
            capped_score,
            uncapped_score,
            lines: Distribution::of(&col(&|r| r.lines as f64)),
            reached_19: frac(&|r| r.max_level >= 19),
            reached_29: frac(&|r| r.max_level >= 29),
            reached_39: frac(&|r| r.max_level >= 39),
            maxout: frac(&|r| r.score >= 999_999),
            tetris_rate: if lines_total == 0 {
                0.0
            } else {
                tetris_lines as f64 / lines_total as f64
            },
            topped_out: frac(&|r| r.end == End::TopOut),
            crashed: frac(&|r| r.crash_frame.is_some()),
            lag_frames: results.iter().map(|r| r.lag_frames as f64).sum::<f64>() / n,
            crash_dodges: results.iter().map(|r| r.crash_dodges as u64).sum(),
            pushdown_dodges: results.iter().map(|r| r.pushdown_dodges as u64).sum(),
            games_per_second: if seconds > 0.0 {
                results.len().saturating_sub(resumed) as f64 / seconds
            } else {
                0.0
            },
            seconds,
            resumed,
            results,
        }
    }

    /// How the games ended, by count: "12 topped out, 3 frame limit, 1 crash".
    pub fn endings(&self) -> String {
        let names = [
            (End::TopOut, "topped out"),
            (End::Crash, "crash (the CPU halted)"),
            (End::Frames, "frame limit"),
            (End::Lines, "line limit"),
            (End::LevelWrap, "level wrap"),
            (End::Capped, "line cap"),
        ];
        let parts: Vec<String> = names
            .iter()
            .filter_map(|(end, name)| {
                let n = self.results.iter().filter(|r| r.end == *end).count();
                (n > 0).then(|| format!("{n} {name}"))
            })
            .collect();
        if parts.is_empty() {
            "no games".into()
        } else {
            parts.join(", ")
        }
    }

    /// The clears of a game on average, by size: `singles 12.3  doubles ...`.
    fn clears_a_game(&self) -> String {
        let n = self.results.len().max(1) as f64;
        let sum = |k: usize| {
            self.results
                .iter()
                .map(|r| f64::from(r.clears[k]))
                .sum::<f64>()
        };
        format!(
            "singles {:.1}  doubles {:.1}  triples {:.1}  tetrises {:.1}",
            sum(0) / n,
            sum(1) / n,
            sum(2) / n,
            sum(3) / n
        )
    }

    /// A short human-readable summary, one figure per line.
    pub fn summary(&self) -> String {
        let c = &self.config;
        let d = |x: &Distribution| {
            format!(
                "mean {:.0}  p1 {:.0}  p10 {:.0}  median {:.0}  p90 {:.0}  p99 {:.0}",
                x.mean, x.p1, x.p10, x.median, x.p90, x.p99
            )
        };
        format!(
            "games           {} ({} format) from level {} at {}, reaction {} frames, {}, {}\n\
             score           {}\n\
             uncapped score  {}\n\
             lines           {}\n\
             reached 19/29/39  {:.1}% / {:.1}% / {:.1}%\n\
             maxout          {:.1}%\n\
             tetris rate     {:.1}%\n\
             clears a game   {}\n\
             topped out      {:.1}%\n\
             ended           {}\n\
             crashed         {:.1}% (crash mode {}), {:.2} lag frames a game\n\
             crash dodges    {} ({} by pushdown; dodging {})\n\
             time            {:.1} s ({:.2} games/s){}\n\n{}",
            self.results.len(),
            c.format.name(),
            c.start_level,
            c.tapping(),
            c.reaction,
            match c.adjust_after.filter(|&f| f > 0) {
                Some(f) => format!(
                    "preview seen {f} frames after the spawn (the plan before it weighs {} pieces, {} from level 29{}{})",
                    c.search.blind_depth.min(4),
                    c.search.blind_depth_29.min(4),
                    match c.search.blind_beam_29 {
                        b if b > 0 && c.search.blind_depth_29 > 2 => {
                            format!(" for its {b} best candidates")
                        }
                        _ => String::new(),
                    },
                    match (c.search.blind_depth >= 5, c.search.blind_depth_29 >= 5) {
                        (true, true) => "; one piece more for the two best",
                        (true, false) => "; one piece more for the two best below level 29",
                        (false, true) => "; one piece more for the two best from level 29",
                        (false, false) => "",
                    }
                ),
                None => "preview seen at once".into(),
            },
            match (c.search.third, c.search.lookahead) {
                (0, _) => "search to the preview".to_string(),
                (_, lookahead) => format!(
                    "the piece after the preview {}{}",
                    match lookahead {
                        Lookahead::Screen => "weighed (lookahead screen)",
                        Lookahead::Generator => "known from the generator (lookahead generator)",
                    },
                    match c.search.depth {
                        ..=3 => "",
                        4 => ", then one piece more weighed",
                        _ => ", then one piece more weighed, two for the best lines",
                    }
                ),
            },
            d(&self.capped_score),
            d(&self.uncapped_score),
            d(&self.lines),
            100.0 * self.reached_19,
            100.0 * self.reached_29,
            100.0 * self.reached_39,
            100.0 * self.maxout,
            100.0 * self.tetris_rate,
            self.clears_a_game(),
            100.0 * self.topped_out,
            self.endings(),
            100.0 * self.crashed,
            c.crash_mode,
            self.lag_frames,
            self.crash_dodges,
            self.pushdown_dodges,
            if c.search.crash_dodge { "on" } else { "off" },
            self.seconds,
            self.games_per_second,
            match self.resumed {
                0 => String::new(),
                n => format!(", the {n} games read from a checkpoint not counted"),
            },
            self.table.markdown(&format!(
                "nestris ({} games, score {})",
                self.results.len(),
                if c.headline_uncapped() {
                    "uncapped"
                } else {
                    "capped at 999,999"
                }
            )),
        )
    }
}

/// Plays the benchmark. `progress` is called (from the worker threads) with the number
/// of games finished so far after each game.
///
/// # Panics
///
/// If `config.games` is more than the seed list holds.
pub fn run(config: &BenchConfig, progress: &(dyn Fn(usize) + Sync)) -> BenchReport {
    run_until(config, progress, &AtomicBool::new(false)).expect("never stopped")
}

/// [`run`] that stops once `stop` is set (an interrupted run, as from Python's Ctrl-C):
/// then `None`, as soon as each game in play reaches its next piece.
///
/// # Panics
///
/// If `config.games` is more than the seed list holds.
pub fn run_until(
    config: &BenchConfig,
    progress: &(dyn Fn(usize) + Sync),
    stop: &AtomicBool,
) -> Option<BenchReport> {
    run_resuming(config, progress, stop, &[], &|_, _, _| {})
}

/// [`run_until`] that takes the games `done` holds (by index, as an earlier run of the
/// same configuration played them) instead of playing them again, and hands each game it
/// plays to `finished` with its index and the seconds it took, as it ends (from the
/// worker threads): what a run that can be stopped and resumed keeps. The report is the
/// one a run of every game gives; its time is this run's.
///
/// # Panics
///
/// If `config.games` is more than the seed list holds.
pub fn run_resuming(
    config: &BenchConfig,
    progress: &(dyn Fn(usize) + Sync),
    stop: &AtomicBool,
    done: &[Option<GameRecord>],
    finished: &(dyn Fn(usize, &GameRecord, f64) + Sync),
) -> Option<BenchReport> {
    let stopped = || stop.load(Ordering::Relaxed);
    assert!(
        config.games <= config.seeds.len() || config.format != Format::Cartridge,
        "{} games asked for, {} seeds in the list",
        config.games,
        config.seeds.len()
    );
    let t0 = Instant::now();
    let gym_seeds = config.gym_seeds();
    let results = nestris_sim::pool::map(
        config.games,
        config.threads,
        || config.ai(),
        |ai, i| {
            if let Some(Some(r)) = done.get(i) {
                return Some(*r);
            }
            let start = Instant::now();
            let (seed, gym_seed) = config.seed_of(i, gym_seeds.as_deref());
            // Once stopped, the games left are given up before their first piece.
            let game = config.game_of(&seed, gym_seed);
            let r = play_from_until(game, ai, &config.limits, false, &stopped)?;
            let record = GameRecord::new(seed, gym_seed, &r);
            finished(i, &record, start.elapsed().as_secs_f64());
            Some(record)
        },
        progress,
    );
    let results: Option<Vec<GameRecord>> = results.into_iter().collect();
    let resumed = done.iter().take(config.games).flatten().count();
    Some(BenchReport::resumed(
        config,
        results?,
        t0.elapsed().as_secs_f64(),
        resumed,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_list_is_the_one_from_seeds_1_to_1000() {
        let list = SeedList::standard();
        assert_eq!(list.len(), 1000);
        assert_eq!(list, SeedList::from_seeds(1000));
        assert_eq!(SeedList::parse(&list.to_text()).unwrap(), list);
    }

    #[test]
    fn percentiles_interpolate() {
        let v: Vec<f64> = (0..=100).map(|x| x as f64).collect();
        let d = Distribution::of(&v);
        assert_eq!(
            (d.p1, d.p10, d.median, d.p90, d.p99),
            (1.0, 10.0, 50.0, 90.0, 99.0)
        );
        assert_eq!(d.mean, 50.0);
        let d = Distribution::of(&[3.0, 1.0]);
        assert_eq!(d.median, 2.0);
    }

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let config = |threads| BenchConfig {
            games: 5,
            threads,
            limits: Limits::frames(1_500),
            search: SearchOptions {
                beam: 8,
                third: 2,
                ..SearchOptions::default()
            },
            ..BenchConfig::default()
        };
        let a = run(&config(1), &|_| {});
        let b = run(&config(3), &|_| {});
        assert_eq!(a.results, b.results);
        assert_eq!(a.results.len(), 5);
        assert!(a
            .results
            .iter()
            .all(|r| r.lines > 0 && r.end == End::Frames));
        // Each game's clears by size add up to its lines and its tetrises.
        for r in &a.results {
            let [s, d, t, q] = r.clears;
            assert_eq!(s + 2 * d + 3 * t + 4 * q, r.lines);
            assert_eq!(q, r.tetrises);
        }
        assert_eq!(a.results[1].seed, SeedList::standard().0[1]);
        // The summary says how the games that did not top out ended.
        assert_eq!(a.endings(), "5 frame limit");
        assert!(a.summary().contains("ended           5 frame limit\n"));
        let per_game = |k: usize| a.results.iter().map(|r| r.clears[k]).sum::<u32>() as f64 / 5.0;
        assert!(a.summary().contains(&format!(
            "clears a game   singles {:.1}  doubles {:.1}  triples {:.1}  tetrises {:.1}\n",
            per_game(0),
            per_game(1),
            per_game(2),
            per_game(3)
        )));
    }

    #[test]
    fn the_betatetris_format_deals_its_seeds_under_its_caps() {
        let config = BenchConfig {
            games: 2,
            threads: 1,
            format: Format::Betatetris,
            limits: Limits::frames(3_000),
            search: SearchOptions {
                beam: 8,
                third: 2,
                ..SearchOptions::default()
            },
            ..BenchConfig::default()
        };
        let report = run(&config, &|_| {});
        let seeds: Vec<_> = report.results.iter().map(|r| r.gym_seed).collect();
        assert_eq!(seeds, [Some(14167559), Some(6463855)]);
        // Game 0 is dealt by TetrisGYM seed D82E07 under BetaTetris's caps.
        let setup = config.setup_of(&config.seeds.0[0], Some(14167559));
        assert_eq!(
            setup.variant.label().as_str(),
            "gym-v5 seed D82E07, ksx2@39, halt@49"
        );
        assert!(config.headline_uncapped());
        assert!(report.summary().contains("(betatetris format)"));
        assert!(report.summary().contains("| Score | Average |"));
        assert_eq!(report.table.games, 2);
        // Stopped at the frame limit below level 19: the transitions count the final score.
        for r in &report.results {
            assert_eq!(r.end, End::Frames);
            assert_eq!(r.transition_scores, [Some(r.uncapped_score); 3]);
        }
    }

    #[test]
    fn parse_rejects_bad_lines() {
        assert!(SeedList::parse("12AB 01 02\n").is_err());
        assert!(SeedList::parse("0000 01\n").is_err());
        assert!(SeedList::parse("XYZ 01\n").is_err());
        let l = SeedList::parse("# header\n\n8988 00  # power-on\n").unwrap();
        assert_eq!(
            l.0,
            [Seed {
                rng: 0x8988,
                spawn_count: 0
            }]
        );
    }
}
