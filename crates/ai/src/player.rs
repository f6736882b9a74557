//! The player: plans each piece on the real game and drives whole games frame by frame.

use crate::eval::WeightSet;
use crate::inputs::InputModel;
use crate::search::{Plan, Search};
use nestris_core::PlayState;
use nestris_core::{bcd, Buttons, FrameEvents, Game, GameSetup};
use serde::{Deserialize, Serialize};

/// An AI player: weights, input model and its search buffers.
#[derive(Clone, Debug)]
pub struct Ai {
    search: Search,
    /// The community's reaction model: at each spawn the player commits to a plan for
    /// the current piece without knowing the new preview piece, and this many frames
    /// after the spawn (18 for 300 ms) sees it and may change the rest of its inputs.
    /// `None`: it sees the preview at once (zero-frame reaction).
    pub adjust_after: Option<u8>,
}

impl Ai {
    /// A player evaluating with `weights` whose hands follow `model`.
    pub fn new(weights: impl Into<WeightSet>, model: InputModel) -> Ai {
        Ai {
            search: Search::new(weights, model),
            adjust_after: None,
        }
    }

    /// The searcher, to change its settings or read its counters.
    pub fn search_mut(&mut self) -> &mut Search {
        &mut self.search
    }

    /// The searcher.
    pub fn search(&self) -> &Search {
        &self.search
    }

    /// The input model.
    pub fn model(&self) -> &InputModel {
        &self.search.model
    }

    /// The buttons for every frame from now until the current piece lands (the frame in
    /// which `playState` becomes 2 included). Empty when no piece is under control.
    pub fn plan(&mut self, game: &Game) -> Vec<Buttons> {
        self.plan_piece(game).map(|p| p.inputs).unwrap_or_default()
    }

    /// The placement [`Ai::plan`] would choose if it could not add pushdown to the move
    /// generator's inputs (as a placement-level environment executes them), or `None`
    /// when no piece is under control.
    pub fn placement(&mut self, game: &Game) -> Option<crate::Placement> {
        self.search.best_in_game(game)
    }

    /// [`Ai::plan`] with the placement and the crash dodge made, if any (`None` when no
    /// piece is under control).
    pub fn plan_piece(&mut self, game: &Game) -> Option<Plan> {
        self.search.plan_in_game(game)
    }
}

/// How a game went.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Final score (the cartridge caps it at 999,999).
    pub score: u32,
    /// The score without the cap: the cartridge's own score changes while it stays below
    /// 999,999, and from the frame that reaches the cap on, the points every clear and
    /// soft drop would have given (`lines × (level + 1) × 40/100/300/1200`, level after
    /// the clear, 8-bit as on the cartridge, plus the soft-drop rows − 1).
    pub uncapped_score: u64,
    /// Lines cleared, counted clear by clear (the cartridge's counter reads wrong from
    /// 1,600 lines on: its hundreds byte is binary).
    pub lines: u32,
    /// Final level.
    pub level: u8,
    /// Highest level reached (the level byte wraps from 255 to 0 on the cartridge).
    pub max_level: u8,
    /// Pieces the player controlled.
    pub pieces: u32,
    /// Frames played.
    pub frames: u64,
    /// Clears by size: singles, doubles, triples, tetrises.
    pub clears: [u32; 4],
    /// Tetrises (also `clears[3]`).
    pub tetrises: u32,
    /// The game ended by a top-out (otherwise by a limit or a crash).
    pub topped_out: bool,
    /// Lag frames: the frame interrupt came before a frame's work was done
    /// (`FrameEvents::LAG`).
    pub lag_frames: u32,
    /// The frame (from 0) in which the cartridge would have crashed, if it did: under crash
    /// mode `Cartridge` the game ended there ([`End::Crash`]), under `TopOut` it topped out
    /// there, under `Show` it went on.
    pub crash_frame: Option<u64>,
    /// Pieces whose chosen placement would have crashed the cartridge and was replaced
    /// (`SearchOptions::crash_dodge`), by another placement or by pushdown.
    pub crash_dodges: u32,
    /// Of `crash_dodges`, those made by pushdown alone (the same placement, Down held).
    pub pushdown_dodges: u32,
    /// Pieces whose every candidate crashed.
    pub unavoidable_crashes: u32,
    /// Why the game ended.
    pub end: End,
    /// The score without the cap (as [`GameResult::uncapped_score`]) after the clear that
    /// reached level 19, 29 and 39, or the final score for a level the game did not reach
    /// (as BetaTetris counts it); `None` for a level the game started at or above.
    pub transition_scores: [Option<u64>; 3],
    /// The game after the last frame.
    pub game: Game,
    /// The buttons of every frame, a replay of the game from `Game::new(setup)`.
    pub inputs: Vec<Buttons>,
}

impl GameResult {
    /// Lines cleared by tetrises over all lines cleared (0 when none).
    pub fn tetris_rate(&self) -> f64 {
        if self.lines == 0 {
            0.0
        } else {
            (self.tetrises * 4) as f64 / self.lines as f64
        }
    }
}

/// Plays a game from `setup` with `ai` through [`Game::step`], one frame at a time,
/// until it tops out or `max_frames` frames have passed.
pub fn play_game(setup: GameSetup, ai: &mut Ai, max_frames: u64) -> GameResult {
    play(setup, ai, &Limits::frames(max_frames), true)
}

/// The points a scoring step gives without the cartridge's cap: `lines` cleared at
/// `level` (the level after the clear) and `hold` soft-drop rows.
pub fn uncapped_points(lines: u8, level: u8, hold: u8) -> u64 {
    const POINTS: [u64; 5] = [0, 40, 100, 300, 1200];
    POINTS[lines.min(4) as usize] * (level as u64 + 1) + hold.saturating_sub(1) as u64
}

/// Follows a game frame by frame and adds up its score without the 999,999 cap.
///
/// While the cartridge's score stays below the cap, its own changes are taken (so the
/// two agree to the point, soft-drop quirks included); from the scoring step that
/// reaches the cap on, [`uncapped_points`] of each scoring step are added.
///
/// ```
/// use nestris_ai::player::UncappedScore;
/// use nestris_core::{Buttons, Game, GameSetup};
///
/// let mut game = Game::new(GameSetup::default());
/// let mut counter = UncappedScore::new(&game);
/// for _ in 0..100 {
///     let before = counter.before(&game);
///     let ev = game.step(Buttons::NONE);
///     counter.after(before, &game, &ev);
/// }
/// assert_eq!(counter.total, 0);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct UncappedScore {
    /// Points so far.
    pub total: u64,
    /// The cartridge's score at the last scoring step.
    last: u32,
}

/// What [`UncappedScore::after`] needs from the state before a frame.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BeforeFrame {
    hold: u8,
    scoring_possible: bool,
}

impl UncappedScore {
    /// Starts counting from `game`'s current score (counted as 0).
    pub fn new(game: &Game) -> UncappedScore {
        UncappedScore {
            total: 0,
            last: bcd::score_value(game.state().score),
        }
    }

    /// To call before each [`Game::step`].
    pub fn before(&self, game: &Game) -> BeforeFrame {
        let s = game.state();
        BeforeFrame {
            hold: s.hold_down_points,
            scoring_possible: s.phase() != PlayState::GoalCheck,
        }
    }

    /// To call after each [`Game::step`] with the frame's events.
    pub fn after(&mut self, before: BeforeFrame, game: &Game, ev: &FrameEvents) {
        let s = game.state();
        // The scoring step ran: `playState` 5 to 6 (after a line clear in the frame whose
        // interrupt ends the animation, 4 to 6).
        // A halting line cap ends the game in the scoring step itself (the curtain).
        let scored = s.phase() == PlayState::GoalCheck || ev.has(FrameEvents::CAPPED);
        if !before.scoring_possible || !scored {
            return;
        }
        let now = bcd::score_value(s.score);
        if s.score == [0x99; 3] {
            self.total += uncapped_points(ev.lines_cleared, s.level, before.hold);
        } else {
            self.total = self
                .total
                .saturating_add_signed(now as i64 - self.last as i64);
        }
        self.last = now;
    }
}

/// When a game played by [`play`] stops, besides a top-out.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Limits {
    /// Stop after this many frames.
    pub max_frames: u64,
    /// Stop once this many lines are cleared (0: no limit).
    pub max_lines: u32,
    /// Stop when the level byte wraps from 255 to 0 (from there on the game runs at
    /// level 0's gravity and could go on for ever).
    pub level_wrap: bool,
}

impl Default for Limits {
    /// 2,000,000 frames (9 hours and 15 minutes of play), no line limit, stop at the
    /// level wrap.
    fn default() -> Self {
        Limits {
            max_frames: 2_000_000,
            max_lines: 0,
            level_wrap: true,
        }
    }
}

impl Limits {
    /// Only a frame limit.
    pub const fn frames(max_frames: u64) -> Limits {
        Limits {
            max_frames,
            max_lines: 0,
            level_wrap: false,
        }
    }
}

/// Why a game played by [`play`] ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum End {
    /// A piece locked overlapping the stack.
    TopOut,
    /// [`Limits::max_frames`].
    Frames,
    /// [`Limits::max_lines`].
    Lines,
    /// [`Limits::level_wrap`].
    LevelWrap,
    /// The cartridge crashed and its CPU halted (crash mode `Cartridge`: the game can go no
    /// further; see `nestris_core::CrashMode`).
    Crash,
    /// A variant's halting line cap ended the game (`nestris_core::CapRule::Halt`).
    Capped,
}

/// [`play_game`] with more ways to stop, keeping the per-frame inputs only when
/// `record_inputs` is set (`GameResult::inputs` is empty otherwise).
pub fn play(setup: GameSetup, ai: &mut Ai, limits: &Limits, record_inputs: bool) -> GameResult {
    play_from(Game::new(setup), ai, limits, record_inputs)
}

/// [`play`] from any state of a game (a snapshot, a poked position): the frames, inputs
/// and counts are from `game` on.
pub fn play_from(game: Game, ai: &mut Ai, limits: &Limits, record_inputs: bool) -> GameResult {
    play_from_until(game, ai, limits, record_inputs, &|| false).expect("never stopped")
}

/// [`play_from`] that gives the game up (`None`) when `stop` answers true, which it is
/// asked before each piece is planned: a long run stopped from outside (Python's Ctrl-C)
/// does not wait for the games in play to end.
pub fn play_from_until(
    mut game: Game,
    ai: &mut Ai,
    limits: &Limits,
    record_inputs: bool,
    stop: &dyn Fn() -> bool,
) -> Option<GameResult> {
    let stats_before = ai.search.stats;
    let mut inputs = Vec::new();
    let mut plan: Vec<Buttons> = Vec::new();
    let mut at = 0;
    let mut need_plan = true;
    let mut pieces = 0;
    let mut clears = [0u32; 4];
    let mut end = End::Frames;
    let mut lines = 0u32;
    let mut frames = 0u64;
    let mut counter = UncappedScore::new(&game);
    let mut max_level = game.state().level;
    let mut lag_frames = 0u32;
    let mut crash_frame = None;
    // Frames since the current piece's plan began, and where its taps are in the pattern.
    let mut since_spawn = 0u32;
    let mut clock = crate::taps::TapClock::new(ai.model().taps);
    let mut adjusted = true;
    let start_level = game.state().level;
    let mut transition_scores = [None; 3];
    while frames < limits.max_frames {
        if need_plan && game.state().phase() == PlayState::Control {
            if stop() {
                return None;
            }
            plan = match ai.adjust_after {
                Some(_) => ai.search.plan_blind(&game).map(|p| p.inputs),
                None => ai.search.plan_in_game(&game).map(|p| p.inputs),
            }
            .unwrap_or_default();
            at = 0;
            need_plan = false;
            pieces += 1;
            since_spawn = 0;
            clock = crate::taps::TapClock::new(ai.model().taps);
            adjusted = ai.adjust_after.is_none();
        } else if let Some(after) = ai.adjust_after {
            // The adjustment: the preview is seen; the rest of the inputs are planned
            // again from here, once the pattern lets the plan's next tap come (the
            // replan's taps then start the pattern again, as BetaTetris's adjustment
            // starts its tap table again).
            if !adjusted
                && since_spawn >= after as u32
                && clock.may_tap()
                && game.state().phase() == PlayState::Control
            {
                if let Some(p) = ai.search.plan_in_game(&game) {
                    plan = p.inputs;
                    at = 0;
                }
                adjusted = true;
            }
        }
        let b = plan.get(at).copied().unwrap_or(Buttons::NONE);
        at += 1;
        since_spawn += 1;
        clock.step(b.bits() & !game.state().held != 0);
        if record_inputs {
            inputs.push(b);
        }
        frames += 1;
        let before = counter.before(&game);
        let ev = crate::search::step(&mut game, b, ai.search.cartridge.as_deref());
        counter.after(before, &game, &ev);
        lag_frames += ev.has(FrameEvents::LAG) as u32;
        if ev.has(FrameEvents::CRASHED) && crash_frame.is_none() {
            crash_frame = Some(frames - 1);
        }
        if game.crash_ended() {
            // The game is the player's no more: the CPU halted (nothing changes any more),
            // or the legal screen froze it and the demo's buttons play it.
            end = End::Crash;
            break;
        }
        if ev.has(FrameEvents::LINES_CLEARED) {
            let n = ev.lines_cleared.clamp(1, 4) as usize;
            clears[n - 1] += 1;
            lines += ev.lines_cleared as u32;
        }
        if ev.has(FrameEvents::LEVEL_UP) || ev.has(FrameEvents::LINES_CLEARED) {
            let level = game.state().level;
            for (t, at) in transition_scores.iter_mut().zip(TRANSITIONS) {
                if t.is_none() && start_level < at && level >= at {
                    *t = Some(counter.total);
                }
            }
        }
        // The level as the state shows it, every frame: where the score lags, a clear's
        // level-up is flagged in the lag frame, and when the interrupt came before the
        // level was written that frame's state (the one at the interrupt) shows the level
        // before; the level comes with the next frame.
        let level = game.state().level;
        let wrapped = ev.has(FrameEvents::LEVEL_UP) && level < max_level;
        if !wrapped {
            max_level = max_level.max(level);
        }
        if ev.has(FrameEvents::CAPPED) {
            end = End::Capped;
            break;
        }
        if ev.has(FrameEvents::TOPPED_OUT) {
            end = End::TopOut;
            break;
        }
        if wrapped && limits.level_wrap {
            end = End::LevelWrap;
            break;
        }
        if limits.max_lines != 0 && lines >= limits.max_lines {
            end = End::Lines;
            break;
        }
        if ev.has(FrameEvents::SPAWNED) {
            need_plan = true;
        }
    }
    for (t, at) in transition_scores.iter_mut().zip(TRANSITIONS) {
        if t.is_none() && start_level < at {
            *t = Some(counter.total);
        }
    }
    let s = game.state();
    let stats = ai.search.stats;
    let count = |after: u64, before: u64| (after - before) as u32;
    Some(GameResult {
        crash_dodges: count(stats.crash_dodges, stats_before.crash_dodges),
        pushdown_dodges: count(stats.pushdown_dodges, stats_before.pushdown_dodges),
        unavoidable_crashes: count(stats.unavoidable_crashes, stats_before.unavoidable_crashes),
        score: bcd::score_value(s.score),
        uncapped_score: counter.total,
        lines,
        level: s.level,
        max_level,
        pieces,
        frames,
        clears,
        tetrises: clears[3],
        topped_out: end == End::TopOut,
        lag_frames,
        crash_frame,
        end,
        transition_scores,
        game,
        inputs,
    })
}

/// The levels whose transitions [`GameResult::transition_scores`] records.
const TRANSITIONS: [u8; 3] = [19, 29, 39];

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::Snapshot;

    /// A vertical I over four rows full but for column 9, with the score at `score`.
    fn tetris_setup(score: [u8; 3]) -> Game {
        let mut snap: Snapshot = Game::new(GameSetup {
            level: 18,
            ..GameSetup::default()
        })
        .snapshot();
        for r in 16..20 {
            for c in 0..9 {
                snap.playfield.0[r * 10 + c] = 0x7B;
            }
        }
        snap.piece = 17;
        snap.x = 9;
        snap.y = 2;
        snap.autorepeat_y = 0;
        snap.game_mode_state = 2;
        snap.resume = nestris_core::Resume::MainLoop;
        snap.score = score;
        Game::from_snapshot(snap).unwrap()
    }

    fn run_until_spawn(mut game: Game) -> (Game, UncappedScore) {
        let mut counter = UncappedScore::new(&game);
        for _ in 0..200 {
            let before = counter.before(&game);
            let ev = game.step(Buttons::NONE);
            counter.after(before, &game, &ev);
            if ev.has(FrameEvents::SPAWNED) {
                return (game, counter);
            }
        }
        panic!("no spawn");
    }

    #[test]
    fn uncapped_score_follows_the_cartridge_below_the_cap() {
        let (game, counter) = run_until_spawn(tetris_setup([0, 0, 0]));
        // A tetris at level 18 from 0 lines: the level stays 18, 1200 × 19 points.
        assert_eq!(bcd::score_value(game.state().score), 1200 * 19);
        assert_eq!(counter.total, 1200 * 19);
    }

    #[test]
    fn a_halting_cap_ends_the_game_with_its_last_clear_scored() {
        use nestris_core::{CapAt, CapRule, LineCap, Variant};
        let mut snap = tetris_setup([0, 0, 0]).snapshot();
        snap.lines = [0x26, 0x01]; // 126: the tetris makes 130, level 19
        snap.variant = Variant {
            seed: None,
            caps: [
                Some(LineCap {
                    at: CapAt::Level(19),
                    rule: CapRule::Halt,
                }),
                None,
            ],
            ..Variant::CARTRIDGE
        };
        let mut game = Game::from_snapshot(snap).unwrap();
        let mut counter = UncappedScore::new(&game);
        for _ in 0..200 {
            let before = counter.before(&game);
            let ev = game.step(Buttons::NONE);
            counter.after(before, &game, &ev);
            if ev.has(FrameEvents::CAPPED) {
                // The game ended in the scoring step, and its points are counted.
                assert_eq!(game.state().level, 19);
                assert!(game.is_over());
                assert_eq!(counter.total, 1200 * 20);
                return;
            }
        }
        panic!("the cap did not end the game");
    }

    #[test]
    fn a_stopped_game_is_given_up_at_its_next_piece() {
        let setup = GameSetup {
            level: 18,
            ..GameSetup::default()
        };
        let mut ai = Ai::new(crate::Weights::default(), InputModel::hz30());
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > 5
        };
        let limits = Limits::default();
        assert!(play_from_until(Game::new(setup), &mut ai, &limits, false, &stop).is_none());
        // Asked once a piece: five pieces planned, given up at the sixth.
        assert_eq!(asked.get(), 6);
        let never = play_from_until(
            Game::new(setup),
            &mut ai,
            &Limits {
                max_frames: 600,
                ..limits
            },
            false,
            &|| false,
        );
        assert!(never.is_some_and(|r| r.pieces > 5));
    }

    /// At the levels where the score lags, a clear's level-up is flagged in the lag frame,
    /// whose state may still show the level before (the interrupt came before the level
    /// was written); the level comes with the next frame. Game 26 of the standard seeds
    /// (`--adjust 18`) levels up so just before it tops out at level 178.
    #[test]
    fn the_highest_level_counts_a_level_up_that_lagged() {
        let cfg = crate::benchmark::BenchConfig {
            adjust_after: Some(18),
            ..Default::default()
        };
        let mut ai = cfg.ai();
        let r = play(cfg.setup(&cfg.seeds.0[25]), &mut ai, &cfg.limits, false);
        assert!(r.topped_out);
        assert!(
            r.level >= 150,
            "the game ends at the lag levels (level {})",
            r.level
        );
        assert_eq!(
            r.max_level, r.level,
            "a top-out's level is the highest it reached"
        );
    }

    #[test]
    fn uncapped_score_goes_past_the_cap() {
        let (game, counter) = run_until_spawn(tetris_setup([0x00, 0x90, 0x99]));
        assert_eq!(game.state().score, [0x99; 3]);
        assert_eq!(counter.total, 1200 * 19);
    }
}
