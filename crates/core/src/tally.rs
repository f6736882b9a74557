//! What a game's frames add up to: the numbers that players' stats overlays
//! (NESTrisChamps, NESTrisStatsUI) and practice ROMs show beside the picture.
//!
//! A [`Tally`] is fed every frame with the frame's events and the state after it
//! ([`Tally::observe`]) and keeps the history the state alone forgets: the tetris rate
//! (total and running), burn, efficiency, droughts, lag frames, tap speed, the score
//! past the cartridge's 999,999 cap and the scores at the 19/29/39 transitions. What the
//! state does say — lines to the next level ([`lines_to_next_level`]), the pace
//! ([`Tally::pace`]) — is worked out from it by the cartridge's own rules.
//!
//! It lives in the core, next to the rules it reads, so that every front end and the
//! headless renderer share one definition of each number: it is allocation-free, has no
//! clock and is a plain `Copy` value (a replay viewer keeps one per checkpoint).
//!
//! ```
//! use nestris_core::tally::Tally;
//! use nestris_core::{Buttons, Game, GameSetup};
//!
//! let mut game = Game::new(GameSetup::default());
//! let mut tally = Tally::default();
//! for _ in 0..100 {
//!     let ev = game.step(Buttons::NONE);
//!     tally.observe(&ev, game.state());
//! }
//! assert_eq!(tally.tetris_rate(), None); // no line cleared yet
//! assert_eq!(nestris_core::tally::lines_to_next_level(game.state()), Some(10));
//! ```

use crate::bcd::{self, bcd_value, score_value};
use crate::buttons::Buttons;
use crate::events::FrameEvents;
use crate::flow::Resume;
use crate::play::levels_up;
use crate::snapshot::Snapshot;

/// Line clears the running tetris rate looks back over.
pub const RUNNING_CLEARS: usize = 10;

/// Pieces without an I from which a drought is a long one (front ends show it in red).
pub const DROUGHT_ALERT: u32 = 13;

/// A tap ends its burst when the next tap comes more than this many frames later
/// (slower than about 3.5 taps a second is no longer tapping fast).
pub const TAP_BURST_GAP: u32 = 17;

/// The levels whose transition scores the pace projects.
pub const PACE_LEVELS: [u8; 3] = [19, 29, 39];

/// `pointsTable` as numbers: the points per (level + 1) for clearing 0..=4 lines.
const LINE_POINTS: [u64; 5] = [0, 40, 100, 300, 1200];

/// The highest score the cartridge shows; past it, it stops counting.
const SCORE_CAP: u32 = 999_999;

/// The numbers of one game so far; see the module doc. `Default` is a game not started.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Tally {
    /// Lines cleared this game.
    pub lines: u32,
    /// Lines cleared by tetrises this game.
    pub tetris_lines: u32,
    /// Tetrises this game.
    pub tetrises: u32,
    /// Burn: lines cleared by singles, doubles and triples since the last tetris (the
    /// lines a player gave up on the way to the next one).
    pub burn: u32,
    /// Pieces dealt since the last I (the current piece included).
    pub drought: u32,
    /// The longest drought this game.
    pub max_drought: u32,
    /// Lag frames this game (`FrameEvents::LAG`: the frame interrupt came before the
    /// frame's work was done).
    pub lag_frames: u32,
    /// Frames from the last piece's spawn to the first Left or Right press that steered it
    /// (`None` before any such press this game).
    pub first_tap: Option<u32>,
    /// The score the game would show without the cartridge's 999,999 cap.
    pub score: u64,
    /// The score when the level became 19, 29 and 39 ([`PACE_LEVELS`]), if it did.
    pub transition_scores: [Option<u64>; 3],
    /// The last [`RUNNING_CLEARS`] clears' sizes, oldest overwritten first.
    recent: [u8; RUNNING_CLEARS],
    /// Clears recorded in `recent` (up to its length) and where the next one goes.
    recent_len: u8,
    recent_next: u8,
    /// Line points scored, and what tetrises would have scored for the same lines at the
    /// same levels: efficiency's numerator and denominator.
    line_points: u64,
    tetris_points: u64,
    /// The last state's shown score and piece counts.
    shown_score: u32,
    pieces: u32,
    i_pieces: u32,
    /// Frames observed this game, the clock of the tap measurements.
    frame: u32,
    /// The frame of the last spawn, until the piece's first tap.
    spawn_frame: Option<u32>,
    /// The current burst of taps: its first tap's frame, its last's, and its taps.
    burst_first: u32,
    burst_last: u32,
    burst_taps: u32,
    /// The last burst of two taps or more: taps and frames from its first tap to its last.
    last_burst: Option<(u32, u32)>,
}

impl Tally {
    /// Takes in one frame: its events and the state after it. The buttons are the state's
    /// own (`held`, `pressed`): the ones the game read this frame, the demo's in the demo.
    /// A new game (the state inside game init) starts the tally over.
    pub fn observe(&mut self, ev: &FrameEvents, s: &Snapshot) {
        if matches!(s.resume, Resume::GameInit { .. }) {
            // Its first piece is already dealt and counted; the shown score is 0.
            *self = Tally::default();
        }
        self.frame = self.frame.wrapping_add(1);
        self.lag_frames += u32::from(ev.has(FrameEvents::LAG));
        let shown = score_value(s.score);
        if ev.has(FrameEvents::LINES_CLEARED) {
            self.count_clear(ev.lines_cleared, s.level, shown);
        }
        if shown >= self.shown_score {
            self.score += u64::from(shown - self.shown_score);
        }
        self.shown_score = shown;
        if ev.has(FrameEvents::LEVEL_UP) {
            if let Some(i) = PACE_LEVELS.iter().position(|&l| l == s.level) {
                self.transition_scores[i] = Some(self.score);
            }
        }
        self.count_pieces(s);
        // The frame's press was read before its spawn (the interrupt comes first): it
        // cannot have steered the new piece, so it is counted before the spawn is.
        let steering = (Buttons::LEFT | Buttons::RIGHT).bits();
        if s.pressed & steering != 0 && s.playing_mode() && !s.paused() {
            self.tap();
        }
        if ev.has(FrameEvents::SPAWNED) {
            self.spawn_frame = Some(self.frame);
        }
    }

    fn count_clear(&mut self, n: u8, level: u8, shown: u32) {
        let lines = u32::from(n);
        self.lines += lines;
        if n >= 4 {
            self.tetris_lines += lines;
            self.tetrises += 1;
            self.burn = 0;
        } else {
            self.burn += lines;
        }
        self.recent[usize::from(self.recent_next)] = n;
        self.recent_next = (self.recent_next + 1) % RUNNING_CLEARS as u8;
        self.recent_len = (self.recent_len + 1).min(RUNNING_CLEARS as u8);
        // The cartridge scores with the level after the clear's level-up, `level + 1`
        // times in 8 bits (level 255 counts 256 times): as the state has it now.
        let times = u64::from(level) + 1;
        let points = LINE_POINTS[usize::from(n) % 5] * times;
        self.line_points += points;
        self.tetris_points += u64::from(n) * (LINE_POINTS[4] / 4) * times;
        if shown == SCORE_CAP {
            // The shown score stopped at the cap: count the line points it did not show
            // (soft-drop points past the cap are lost here, a few per piece at most).
            let uncapped = u64::from(self.shown_score) + points;
            self.score += uncapped.saturating_sub(u64::from(SCORE_CAP));
        }
    }

    fn count_pieces(&mut self, s: &Snapshot) {
        let counter = |c: [u8; 2]| bcd_value(c[0]) + 100 * bcd_value(c[1]);
        let pieces: u32 = s.stats.iter().map(|&c| counter(c)).sum();
        let i_pieces = counter(s.stats[6]);
        if pieces > self.pieces {
            if i_pieces > self.i_pieces {
                self.drought = 0;
            } else {
                self.drought += pieces - self.pieces;
            }
            self.max_drought = self.max_drought.max(self.drought);
        }
        self.pieces = pieces;
        self.i_pieces = i_pieces;
    }

    fn tap(&mut self) {
        if let Some(spawn) = self.spawn_frame.take() {
            self.first_tap = Some(self.frame - spawn);
        }
        if self.burst_taps > 0 && self.frame - self.burst_last <= TAP_BURST_GAP {
            self.burst_taps += 1;
        } else {
            self.burst_first = self.frame;
            self.burst_taps = 1;
        }
        self.burst_last = self.frame;
        if self.burst_taps >= 2 {
            self.last_burst = Some((self.burst_taps, self.burst_last - self.burst_first));
        }
    }

    /// Percent of this game's lines cleared by tetrises (rounded), once a line is cleared.
    pub fn tetris_rate(&self) -> Option<u32> {
        percent(u64::from(self.tetris_lines), u64::from(self.lines))
    }

    /// The running tetris rate: percent of the lines of the last [`RUNNING_CLEARS`] clears
    /// (or of all clears, before there are that many) cleared by tetrises.
    pub fn running_tetris_rate(&self) -> Option<u32> {
        let recent = &self.recent[..usize::from(self.recent_len)];
        let lines: u64 = recent.iter().map(|&n| u64::from(n)).sum();
        let tetris: u64 = recent
            .iter()
            .filter(|&&n| n >= 4)
            .map(|&n| u64::from(n))
            .sum();
        percent(tetris, lines)
    }

    /// Efficiency, in percent: the line points scored over what the same lines would have
    /// scored as tetrises at the same levels (the overlays' definition: a tetris-only
    /// game is 100%; singles alone score 13%, doubles 17%, triples 33%). Soft-drop points
    /// are not counted. `None` before the first line.
    pub fn efficiency(&self) -> Option<u32> {
        percent(self.line_points, self.tetris_points)
    }

    /// Taps per second of the last burst of Left/Right presses (two taps or more, each
    /// within [`TAP_BURST_GAP`] frames of the one before), in tenths: the taps after the
    /// first over the frames they took, at the region's frame rate. A burst's rate shows
    /// until the next burst has two taps.
    pub fn tap_rate_tenths(&self, frame_rate: f64) -> Option<u32> {
        let (taps, frames) = self.last_burst?;
        taps_per_second_tenths(taps, frames, frame_rate)
    }

    /// The projected score at the transition to `level` (one of [`PACE_LEVELS`], or any
    /// level): the score at the transition if the game made it, else the score now plus
    /// the lines still to clear before it, each worth what a tetris line is worth at the
    /// level it would be cleared at (`300 x (level + 1)`, the level as the cartridge's
    /// rule counts it line by line from the state now) times this game's
    /// [`Tally::efficiency`] so far. Soft-drop points are left out. `None` in a B-type
    /// game, before the first line, and for a level the game started at or above.
    pub fn pace(&self, s: &Snapshot, level: u8) -> Option<u64> {
        if let Some(i) = PACE_LEVELS.iter().position(|&l| l == level) {
            if let Some(score) = self.transition_scores[i] {
                return Some(score);
            }
        }
        if s.game_type != 0 || self.tetris_points == 0 || s.level >= level {
            return None;
        }
        let (mut lines, mut lv) = (s.lines, s.level);
        let mut tetris_value = 0u64;
        for _ in 0..MAX_LINES_AHEAD {
            bcd::increment_lines(&mut lines);
            if levels_up(lines, lv) {
                lv = lv.wrapping_add(1);
            }
            tetris_value += (LINE_POINTS[4] / 4) * (u64::from(lv) + 1);
            if lv == level {
                return Some(self.score + tetris_value * self.line_points / self.tetris_points);
            }
        }
        None
    }
}

/// Taps a second, in tenths (rounded), of `taps` taps over the `frames` frames from the
/// first to the last at `frame_rate`: the taps after the first over the time they took.
/// `None` for fewer than two taps.
pub fn taps_per_second_tenths(taps: u32, frames: u32, frame_rate: f64) -> Option<u32> {
    if taps < 2 || frames == 0 {
        return None;
    }
    let hz = f64::from(taps - 1) * frame_rate / f64::from(frames);
    Some((hz * 10.0 + 0.5) as u32)
}

/// How far ahead the level rule is followed: a game started at 29 first goes up at line
/// 200, and a pace to 39 from level 0 is 390 lines away.
const MAX_LINES_AHEAD: u32 = 1000;

/// `part / whole` in percent, rounded; `None` for an empty whole.
fn percent(part: u64, whole: u64) -> Option<u32> {
    (whole > 0).then(|| ((part * 100 + whole / 2) / whole) as u32)
}

/// Lines an A-type game must still clear to go up a level, by the cartridge's rule
/// (every tenth line once the line count's digits pass the level; the first level-up of
/// a game started at 10 or above comes at line 100 or later). `None` in a B-type game
/// or if no level-up comes within a thousand lines.
pub fn lines_to_next_level(s: &Snapshot) -> Option<u32> {
    if s.game_type != 0 {
        return None;
    }
    let mut lines = s.lines;
    (1..=MAX_LINES_AHEAD).find(|_| {
        bcd::increment_lines(&mut lines);
        levels_up(lines, s.level)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, GameSetup};

    fn lines_ev(n: u8) -> FrameEvents {
        FrameEvents {
            flags: FrameEvents::LINES_CLEARED,
            lines_cleared: n,
            ..FrameEvents::default()
        }
    }

    fn playing() -> Snapshot {
        let mut s = Game::new(GameSetup::default()).snapshot();
        s.resume = Resume::MainLoop;
        s
    }

    #[test]
    fn rates_burn_and_efficiency_from_clears() {
        let s = playing();
        let mut t = Tally::default();
        assert_eq!(
            (t.tetris_rate(), t.running_tetris_rate(), t.efficiency()),
            (None, None, None)
        );
        t.observe(&lines_ev(4), &s);
        assert_eq!(
            (t.tetris_rate(), t.efficiency(), t.burn),
            (Some(100), Some(100), 0)
        );
        t.observe(&lines_ev(1), &s);
        t.observe(&lines_ev(1), &s);
        t.observe(&lines_ev(2), &s);
        // 4 of 8 lines; burn 4; points 1200 + 40 + 40 + 100 of 8 x 300.
        assert_eq!(t.tetris_rate(), Some(50));
        assert_eq!(t.burn, 4);
        assert_eq!(t.efficiency(), Some(rounded_percent(1380, 2400)));
        t.observe(&lines_ev(3), &s);
        // 4 of 11 = 36.4%.
        assert_eq!(t.tetris_rate(), Some(36));
        assert_eq!(t.burn, 7);
        t.observe(&lines_ev(4), &s);
        assert_eq!(t.burn, 0);
        assert_eq!((t.lines, t.tetris_lines, t.tetrises), (15, 8, 2));
        // The running rate forgets the oldest clears: ten singles after all that.
        for _ in 0..RUNNING_CLEARS - 1 {
            t.observe(&lines_ev(1), &s);
        }
        // The last tetris and nine singles: 4 of 13.
        assert_eq!(t.running_tetris_rate(), Some(31));
        t.observe(&lines_ev(1), &s);
        assert_eq!(t.running_tetris_rate(), Some(0));
        assert_eq!(t.tetris_rate(), Some(rounded_percent(8, 25)));
    }

    fn rounded_percent(part: u64, whole: u64) -> u32 {
        ((part * 100 + whole / 2) / whole) as u32
    }

    #[test]
    fn drought_counts_pieces_since_the_last_i() {
        let none = FrameEvents::default();
        let mut s = playing();
        s.stats = [[0; 2]; 7];
        let mut t = Tally::default();
        // Deal pieces by type: T, J, I, Z, O, S, L, T.
        for ty in [0usize, 1, 6, 2, 3, 4, 5, 0] {
            bcd::increment_stat(&mut s.stats[ty]);
            t.observe(&none, &s);
        }
        assert_eq!((t.drought, t.max_drought), (5, 5));
        bcd::increment_stat(&mut s.stats[6]);
        t.observe(&none, &s);
        assert_eq!((t.drought, t.max_drought), (0, 5));
        // 100 pieces without an I: the BCD counters carry into their high byte.
        for _ in 0..100 {
            bcd::increment_stat(&mut s.stats[3]);
            t.observe(&none, &s);
        }
        assert_eq!((t.drought, t.max_drought), (100, 100));
        // A new game starts over.
        let g = Game::new(GameSetup::default());
        t.observe(&none, g.state());
        assert_eq!(t.lines, 0);
        assert!(t.max_drought <= 1, "the new game's first piece at most");
    }

    fn at(level: u8, lines: u32) -> Snapshot {
        let mut s = playing();
        s.level = level;
        s.lines = [
            crate::bcd::to_bcd((lines % 100) as u8),
            crate::bcd::to_bcd((lines / 100) as u8),
        ];
        s
    }

    #[test]
    fn lines_to_the_next_level_follow_the_cartridge() {
        // (start level, lines cleared, lines to go).
        const CASES: [(u8, u32, u32); 12] = [
            (0, 0, 10),
            (0, 7, 3),
            (1, 10, 10),
            (9, 0, 100),
            (9, 95, 5),
            (10, 100, 10),
            (15, 0, 100),
            (18, 0, 130),
            (18, 126, 4),
            (19, 0, 140),
            (29, 0, 200),
            (29, 199, 1),
        ];
        for (level, lines, want) in CASES {
            assert_eq!(
                lines_to_next_level(&at(level, lines)),
                Some(want),
                "level {level} at {lines} lines"
            );
        }
        // After the first level-up, every ten lines.
        assert_eq!(lines_to_next_level(&at(19, 130)), Some(10));
        assert_eq!(lines_to_next_level(&at(30, 200)), Some(10));
        let mut b = at(5, 20);
        b.game_type = 1;
        assert_eq!(lines_to_next_level(&b), None);
    }

    #[test]
    fn pace_projects_the_transition_scores() {
        let mut t = Tally::default();
        let mut s = at(18, 0);
        assert_eq!(t.pace(&s, 19), None, "no line yet");
        // A tetris at 18 (the level after it is still 18): 1200 x 19.
        s.lines = [0x04, 0];
        s.score = [0x00, 0x28, 0x02]; // 22,800 shown, BCD low byte first
        t.observe(&lines_ev(4), &s);
        assert_eq!(t.score, 22_800);
        // Lines 5..=129 at level 18; line 130 is cleared at 19 (the clear that makes the
        // transition scores at the new level), all as tetrises.
        assert_eq!(t.pace(&s, 19), Some(22_800 + 125 * 300 * 19 + 300 * 20));
        // To 29: then ten lines at each level 19..=28, line 230 at 29.
        let to29: u64 = (19..=28).map(|l| 10 * 300 * (l + 1)).sum();
        assert_eq!(
            t.pace(&s, 29),
            Some(22_800 + 125 * 300 * 19 + to29 + 300 * 30)
        );
        // Two singles at 18: efficiency (1200 + 40 + 40) x 19 of 6 x 300 x 19 scales
        // what is still to come.
        s.lines = [0x06, 0];
        s.score = [0x20, 0x43, 0x02]; // 24,320
        t.observe(&lines_ev(1), &s);
        t.observe(&lines_ev(1), &s);
        assert_eq!(t.efficiency(), Some(rounded_percent(1280, 1800)));
        let ahead = 123 * 300 * 19 + 300 * 20;
        assert_eq!(
            t.pace(&s, 19),
            Some(24_320 + ahead * (1280 * 19) / (1800 * 19))
        );
        // A game started at 19 has no 19 transition.
        assert_eq!(t.pace(&at(19, 10), 19), None);
    }

    #[test]
    fn transition_scores_are_kept_and_the_cap_is_seen_past() {
        let mut t = Tally::default();
        let mut s = at(19, 130);
        s.score = [0x00, 0x00, 0x30];
        t.observe(
            &FrameEvents {
                flags: FrameEvents::LINES_CLEARED | FrameEvents::LEVEL_UP,
                lines_cleared: 4,
                ..FrameEvents::default()
            },
            &s,
        );
        assert_eq!(t.transition_scores[0], Some(300_000));
        assert_eq!(t.pace(&at(25, 190), 19), Some(300_000));
        // At the cap: a tetris at 19 from 990,000 shows 999,999 but counts 1,014,000.
        s.score = [0x00, 0x00, 0x99];
        t.observe(&FrameEvents::default(), &s);
        s.score = [0x99, 0x99, 0x99];
        t.observe(&lines_ev(4), &s);
        assert_eq!(t.score, 990_000 + 24_000);
        t.observe(&lines_ev(4), &s);
        assert_eq!(t.score, 990_000 + 48_000);
    }

    #[test]
    fn taps_per_second_and_the_first_tap() {
        let mut s = playing();
        s.game_mode = crate::view::GameMode::Play.byte();
        let mut t = Tally::default();
        let spawn = FrameEvents {
            flags: FrameEvents::SPAWNED,
            ..FrameEvents::default()
        };
        let none = FrameEvents::default();
        // A press read on the spawn frame itself came before the spawn: not timed.
        s.pressed = Buttons::RIGHT.bits();
        t.observe(&spawn, &s);
        assert_eq!(t.first_tap, None);
        s.pressed = 0;
        // Three idle frames, then a tap every 4 frames: 15 Hz at 60 frames a second.
        for f in 0..20 {
            s.pressed = if f >= 3 && (f - 3) % 4 == 0 {
                Buttons::LEFT.bits()
            } else {
                0
            };
            t.observe(&none, &s);
        }
        assert_eq!(t.first_tap, Some(4));
        // Taps at frames 3, 7, 11, 15, 19: 4 intervals over 16 frames.
        assert_eq!(t.tap_rate_tenths(60.0), Some(150));
        // A lone tap after a pause starts a new burst; the last rate stays.
        s.pressed = 0;
        for _ in 0..30 {
            t.observe(&none, &s);
        }
        s.pressed = Buttons::RIGHT.bits();
        t.observe(&none, &s);
        assert_eq!(t.tap_rate_tenths(60.0), Some(150));
        // Only the first tap after a spawn is timed.
        assert_eq!(t.first_tap, Some(4));
    }
}
