//! The placement-level episode in plain Rust: one step chooses one of the places the
//! falling piece can lock (found by `nestris-ai`'s move generator under an input
//! model), runs the inputs that put it there through `Game::step` frame by frame, then
//! runs frames with no input until the next piece is under control or the game ends.
//! Shared by the single placement environment, the vectorized one and the evaluation
//! runner, so that they agree to the bit.
//!
//! A game that counts the CPU's cycles (for lag frames and crashes) is played without them
//! below [`COUNT_FROM_LEVEL`], where no clear lags, and played again from its start with
//! them when it gets there: the same game, a third fewer instructions a step below it.
//! Until then its `state().clock` is unknown and its crash mode reads `Off`; a copy of
//! the game for a user (`Episode::counted_game`) plays it again then and there.

use nestris_ai::{Board, InputModel, MoveGen, Placement, Start, Trace};
use nestris_core::{Buttons, CrashMode, FrameEvents, Game, GameSetup};

use crate::config::{GameOptions, ObsKind, Reward};
use crate::frame::ENDING_EVENTS;
use crate::vector::{take, Outcome, Split, Task};

/// Size of the action space: at most this many placements are offered per piece.
///
/// The move generator returns each reachable final position (orientation, column, row)
/// once. The most any piece had over 3,589 games of random placements (levels 0, 5, 9,
/// 13, 15, 18 and 19, every tap rate, with and without DAS and soft drop, 16 games of
/// each at a time on the ragged fields random play makes) is 72; `python
/// crates/py/bench.py --survey` repeats the measurement. 200 leaves room; a piece with
/// more would be offered the first 200 in the order below (`overflowed` is then set).
pub const MAX_PLACEMENTS: usize = 200;

/// Columns of a placement's description: orientation id, pivot column, pivot row.
pub const PLACEMENT_COLS: usize = 3;

/// Frames the entry delay may take before the environment gives up on the next piece
/// (the cartridge needs at most a few dozen; only a game stuck outside play could get
/// here, and the episode then ends).
const MAX_WAIT_FRAMES: u32 = 100_000;

/// The level from which an episode counts the CPU's cycles. Below it an episode whose game
/// counts them plays without (`CrashMode::Off`, a third fewer instructions a step), since
/// no clear lags or crashes the cartridge there: the first lag is at level 142
/// (`docs/LAG.md`, with the music on; 149 with it off). At this level the game is played
/// again from its start, counted, with the buttons it was played with: the same game,
/// its clock and sound engine now known, as if it had been counted all along.
pub const COUNT_FROM_LEVEL: u8 = 130;

/// The most runs of buttons an episode keeps for playing its game again
/// ([`COUNT_FROM_LEVEL`]), 512 KiB: an episode that reaches it (after about 10,000
/// placements, about 6 runs each) is counted from there on.
const MAX_RECORD: usize = 1 << 16;

/// Tap rates offered, as taps per second, and the frame interval of each.
pub const TAP_RATES: [(i64, u8); 4] = [(30, 2), (20, 3), (15, 4), (12, 5)];

/// The tap interval in frames of `hz` taps per second, if it is one of [`TAP_RATES`].
pub fn interval_for_hz(hz: i64) -> Option<u8> {
    TAP_RATES.iter().find(|(h, _)| *h == hz).map(|(_, i)| *i)
}

/// The taps per second of an input model (the inverse of [`interval_for_hz`]); 0 for a
/// tap pattern that is not one of [`TAP_RATES`].
pub fn model_hz(model: &InputModel) -> i64 {
    TAP_RATES
        .iter()
        .find(|(_, i)| Some(*i) == model.taps.interval())
        .map_or(0, |(h, _)| *h)
}

/// Everything a placement environment needs to run episodes.
#[derive(Clone, Debug)]
pub struct PlacementConfig {
    /// How games start.
    pub game: GameOptions,
    /// The hands that execute placements (and decide which ones are reachable).
    pub model: InputModel,
    /// What the reward counts.
    pub reward: Reward,
    /// What is observed.
    pub obs: ObsKind,
    /// Steps after which an episode is truncated (the vectorized environment only).
    pub max_episode_steps: Option<u64>,
}

impl Default for PlacementConfig {
    /// 30 taps a second, no reaction delay, no DAS, no soft drop, the score, the board.
    fn default() -> Self {
        PlacementConfig {
            game: GameOptions::default(),
            model: InputModel {
                taps: nestris_ai::TapPattern::HZ30,
                das: false,
                reaction: 0,
                soft_drop: false,
            },
            reward: Reward::Score,
            obs: ObsKind::Board,
            max_episode_steps: None,
        }
    }
}

/// The executed inputs did not put the piece where the move generator said (never
/// expected: the generator is proven against `Game::step`; reported rather than hidden).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Desync {
    /// The placement chosen: orientation, column, row.
    pub expected: (u8, u8, u8),
    /// Where the piece was after the inputs, and the play state.
    pub found: (u8, u8, u8, u8),
}

impl Desync {
    /// What went wrong, in one line.
    pub fn message(&self) -> String {
        format!(
            "internal error: the inputs of placement {:?} (orientation, x, y) left the piece at {:?} in play state {} (please report)",
            self.expected,
            (self.found.0, self.found.1, self.found.2),
            self.found.3
        )
    }
}

/// The two games are the same but for what only a counted game knows: the clock, the
/// sound engine's state and the crash mode.
fn same_but_timing(counted: &Game, uncounted: &Game) -> bool {
    let mut s = counted.state().clone();
    let u = uncounted.state();
    s.clock = u.clock;
    s.audio = u.audio.clone();
    s.crash_mode = u.crash_mode;
    s == *u
}

/// The buffers an episode keeps across restarts: the placements, where their inputs are,
/// their inputs, the search's record and the buttons' record.
type EpisodeBuffers = (
    Vec<Placement>,
    Vec<(u32, u32)>,
    Vec<u8>,
    Trace,
    Vec<(u8, u32)>,
);

/// A running placement-level episode.
#[derive(Clone, Debug)]
pub struct PlacementEpisode {
    /// The game, between frames, with the piece under control (unless ended).
    pub game: Game,
    /// The seed the game was started from (`None`: the power-on generator state).
    pub seed: Option<u64>,
    /// Placements made in this episode.
    pub steps: u64,
    /// Frames run in this episode (including the frames before the first piece).
    pub frames: u64,
    /// The episode has ended (top-out, B-type goal, or the game left play).
    pub ended: bool,
    /// The placements of the current piece (the move generator's, taken from it without a
    /// copy), ordered by (orientation, x, y): action i is `choices[i]`. Empty once ended.
    pub choices: Vec<Placement>,
    /// Per choice, where its buttons start in `inputs` and how many frames they are, when
    /// they were written at once (the searches other than plain tapping).
    spans: Vec<(u32, u32)>,
    /// More placements were found than [`MAX_PLACEMENTS`] (the rest were left out).
    pub overflowed: bool,
    /// Buttons of every choice, back to back (searches other than plain tapping), or of
    /// the choice being made.
    inputs: Vec<u8>,
    /// The plain-tapping search's record, which finds the inputs of the choice made
    /// (most steps need the inputs of one placement only).
    trace: Trace,
    /// `trace` holds the current piece's search.
    traced: bool,
    /// While the game, which counts the CPU's cycles, runs without them (until level
    /// [`PlacementEpisode::count_from`]): its setup, from which it is played again.
    uncounted: Option<GameSetup>,
    /// The level at which an uncounted game is played again, counted.
    count_from: u8,
    /// Every frame's buttons since the game's start, as runs (buttons, frames), while the
    /// game is uncounted.
    record: Vec<(u8, u32)>,
    /// The field the current piece's placements were found on (none once ended).
    board: Option<Board>,
}

impl PlacementEpisode {
    /// A new episode from `seed`: the game is run with no input until its first piece
    /// is under control, and that piece's placements are generated with `mg`.
    pub fn new(cfg: &PlacementConfig, seed: Option<u64>, mg: &mut MoveGen) -> PlacementEpisode {
        let buffers = (
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Trace::default(),
            Vec::new(),
        );
        PlacementEpisode::with_buffers(cfg, seed, mg, buffers, COUNT_FROM_LEVEL)
    }

    /// Makes this the episode [`PlacementEpisode::new`] makes, keeping the buffers (the
    /// placements, their inputs and the search's record) of the one it was: a vector
    /// environment's resets then allocate nothing.
    pub fn restart(&mut self, cfg: &PlacementConfig, seed: Option<u64>, mg: &mut MoveGen) {
        // (`generate` clears the placements and their inputs.)
        let choices = std::mem::take(&mut self.choices);
        let spans = std::mem::take(&mut self.spans);
        let inputs = std::mem::take(&mut self.inputs);
        let trace = std::mem::take(&mut self.trace);
        let mut record = std::mem::take(&mut self.record);
        record.clear();
        let buffers = (choices, spans, inputs, trace, record);
        *self = PlacementEpisode::with_buffers(cfg, seed, mg, buffers, COUNT_FROM_LEVEL);
    }

    /// [`PlacementEpisode::new`] with the given buffers, counting the CPU's cycles from level
    /// `count_from` where the game counts them.
    fn with_buffers(
        cfg: &PlacementConfig,
        seed: Option<u64>,
        mg: &mut MoveGen,
        (choices, spans, inputs, trace, record): EpisodeBuffers,
        count_from: u8,
    ) -> PlacementEpisode {
        let setup = cfg.game.setup(seed);
        let mut game = Game::new(setup);
        // A game that counts the cycles (as its setup and the engine decide) runs without.
        let uncounted = (game.state().clock.known && setup.level < count_from).then_some(setup);
        if uncounted.is_some() {
            game.set_crash_mode(CrashMode::Off);
        }
        let mut ep = PlacementEpisode {
            game,
            seed,
            steps: 0,
            frames: 0,
            ended: false,
            choices,
            spans,
            overflowed: false,
            inputs,
            trace,
            traced: false,
            uncounted,
            count_from,
            record,
            board: None,
        };
        let (_, start) = ep.advance(None);
        ep.generate(cfg, mg, start);
        ep
    }

    /// The seed of the episode that follows this one when no new seed is given.
    pub fn following_seed(&self) -> u64 {
        crate::vector::Episode::following_seed(self)
    }

    /// Number of actions available now.
    pub fn num_choices(&self) -> usize {
        self.choices.len()
    }

    /// The buttons of choice `i`.
    pub fn choice_inputs(&self, i: usize) -> Vec<u8> {
        if self.traced {
            let mut out = Vec::new();
            self.trace.inputs_into(&self.choices[i], &mut out);
            out
        } else {
            let (start, len) = self.spans[i];
            self.inputs[start as usize..(start + len) as usize].to_vec()
        }
    }

    /// Runs frames with no input until a piece is under control in a state the move
    /// generator can start from, or the game ends. Returns the flags, lines and lag frames
    /// of those frames and how many there were, and the move generator's start.
    ///
    /// `board`, when known, is the field as the last placement left it: it is the next
    /// piece's field unless rows were cleared.
    fn advance(&mut self, board: Option<Board>) -> ((u32, u32, u32, u32), Option<Start>) {
        let (mut flags, mut lines, mut n, mut lag) = (0u32, 0u32, 0u32, 0u32);
        let mut start = None;
        loop {
            if self.ended || self.game.is_over() {
                self.ended = true;
                break;
            }
            if self.game.state().phase() == nestris_core::PlayState::Control {
                start = match board {
                    Some(b) if lines == 0 => Start::from_game_on(&self.game, b),
                    _ => Start::from_game(&self.game),
                };
                if start.is_some() {
                    break;
                }
            }
            if n >= MAX_WAIT_FRAMES {
                self.ended = true;
                break;
            }
            // The entry delay's frames in runs.
            let run = self.game.entry_delay(MAX_WAIT_FRAMES - n);
            if run.frames > 0 {
                self.note(0, run.frames);
                n += run.frames;
                flags |= run.flags;
                lines += run.lines;
                lag += run.lag;
                if run.flags & ENDING_EVENTS != 0 {
                    self.ended = true;
                }
                continue;
            }
            let ev = self.game.step(Buttons::NONE);
            self.note(0, 1);
            n += 1;
            flags |= ev.flags;
            lines += u32::from(ev.lines_cleared);
            lag += ev.has(FrameEvents::LAG) as u32;
            if ev.flags & ENDING_EVENTS != 0 {
                self.ended = true;
            }
        }
        self.frames += u64::from(n);
        ((flags, lines, n, lag), start)
    }

    /// Fills `choices` (and the inputs or the trace) for the piece now under control,
    /// whose start `advance` found.
    fn generate(&mut self, cfg: &PlacementConfig, mg: &mut MoveGen, start: Option<Start>) {
        self.choices.clear();
        self.spans.clear();
        self.inputs.clear();
        self.overflowed = false;
        self.traced = false;
        self.board = None;
        if self.ended {
            return;
        }
        let Some(start) = start else {
            self.ended = true;
            return;
        };
        self.board = Some(start.board);
        mg.generate(&start, &cfg.model);
        mg.take_placements(&mut self.choices);
        // Actions are ordered by (orientation, x, y): one key, unique per placement. The
        // plain-tapping search already gives them in that order.
        let key = |c: &Placement| u32::from(c.o) << 16 | u32::from(c.x) << 8 | u32::from(c.y);
        debug_assert!(!mg.tapping() || self.choices.is_sorted_by_key(key));
        if !mg.tapping() && !self.choices.is_sorted_by_key(key) {
            self.choices.sort_unstable_by_key(key);
        }
        if self.choices.len() > MAX_PLACEMENTS {
            self.choices.truncate(MAX_PLACEMENTS);
            self.overflowed = true;
        }
        if self.choices.is_empty() {
            // Never in play: a piece under control always lands somewhere.
            self.ended = true;
            return;
        }
        self.traced = mg.keep_trace(&mut self.trace);
        if !self.traced {
            for c in &self.choices {
                let start = self.inputs.len() as u32;
                mg.inputs_into(c, &mut self.inputs);
                self.spans.push((start, self.inputs.len() as u32 - start));
            }
        }
    }

    /// Makes placement `action` (already checked to be below [`Self::num_choices`]):
    /// its inputs, then the frames until the next piece is under control, whose
    /// placements `mg` then generates. An episode that has ended does not move.
    pub fn step(
        &mut self,
        cfg: &PlacementConfig,
        action: usize,
        mg: &mut MoveGen,
    ) -> Result<Outcome, Desync> {
        if self.ended {
            return Ok(Outcome {
                terminated: true,
                ..Outcome::default()
            });
        }
        let score_before = self.score();
        let choice = self.choices[action];
        let mut out = Outcome::default();
        let range = if self.traced {
            self.inputs.clear();
            self.trace.inputs_into(&choice, &mut self.inputs);
            0..self.inputs.len()
        } else {
            let (start, len) = self.spans[action];
            start as usize..(start + len) as usize
        };
        // Between presses and after the last one the piece falls on its own: those frames
        // in runs.
        let mut k = range.start;
        // The end of the stretch of no input `k` is in, found once a stretch.
        let mut idle_end = k;
        while k < range.end {
            if self.inputs[k] == 0 {
                if idle_end <= k {
                    idle_end = self.inputs[k..range.end]
                        .iter()
                        .position(|&b| b != 0)
                        .map_or(range.end, |n| k + n);
                }
                let run = self.game.fall_idle((idle_end - k) as u32);
                if run.frames > 0 {
                    self.note(0, run.frames);
                    out.frames += run.frames;
                    out.flags |= run.flags;
                    out.lag += run.lag;
                    k += run.frames as usize;
                    continue;
                }
            }
            let ev = self.game.step(Buttons(self.inputs[k]));
            self.note(self.inputs[k], 1);
            k += 1;
            out.frames += 1;
            out.flags |= ev.flags;
            out.lines_cleared += u32::from(ev.lines_cleared);
            out.lag += ev.has(FrameEvents::LAG) as u32;
            if ev.flags & ENDING_EVENTS != 0 {
                self.ended = true;
            }
            if self.game.crash_ended() {
                // A crash took the game (the console halted, or the legal screen froze it):
                // the rest of the inputs would change nothing.
                break;
            }
        }
        self.frames += u64::from(out.frames);
        let s = self.game.state();
        if !self.game.crash_ended() && s.phase() != nestris_core::PlayState::Lock
            || (s.piece, s.x, s.y) != (choice.o, choice.x, choice.y)
        {
            return Err(Desync {
                expected: (choice.o, choice.x, choice.y),
                found: (s.piece, s.x, s.y, s.play_state),
            });
        }
        // The field after the lock: the last one with the piece written where it locked.
        // A placement that fills a row, or one with a cell above the field (which the
        // game keeps in other bytes of the page, a case the tests do not reach), leaves
        // the field to be read from the game.
        let board = self
            .board
            .filter(|_| out.lines_cleared == 0 && choice.y >= 2)
            .and_then(|mut b| (b.place(choice.o, choice.x, choice.y) == 0).then_some(b));
        let ((flags, lines, frames, lag), start) = self.advance(board);
        out.flags |= flags;
        out.lines_cleared += lines;
        out.frames += frames;
        out.lag += lag;
        self.steps += 1;
        if self.uncounted.is_some()
            && (self.game.state().level >= self.count_from || self.record.len() >= MAX_RECORD)
        {
            self.count_cycles();
        }
        self.generate(cfg, mg, start);
        out.terminated = self.ended;
        let points = f64::from(self.score()) - f64::from(score_before);
        out.reward = cfg.reward.of(points, out.lines_cleared, self.ended);
        Ok(out)
    }

    /// Keeps `frames` frames of `buttons` in the record of an uncounted game.
    #[inline(always)]
    fn note(&mut self, buttons: u8, frames: u32) {
        if self.uncounted.is_none() {
            return;
        }
        match self.record.last_mut() {
            Some((b, n)) if *b == buttons => *n += frames,
            _ => self.record.push((buttons, frames)),
        }
    }

    /// An uncounted game: plays it again from its start with the CPU's cycles counted,
    /// with the buttons it was played with, and goes on with that game
    /// ([`COUNT_FROM_LEVEL`]). A counted one stays as it is.
    #[cold]
    fn count_cycles(&mut self) {
        let Some(setup) = self.uncounted.take() else {
            return;
        };
        let mut game = Game::new(setup);
        for &(b, n) in &self.record {
            for _ in 0..n {
                game.step(Buttons(b));
            }
        }
        debug_assert!(
            same_but_timing(&game, &self.game),
            "a game counted from its start went otherwise than uncounted"
        );
        self.game = game;
        self.record.clear();
    }

    /// The score as a number.
    pub fn score(&self) -> u32 {
        crate::vector::Episode::score(self)
    }

    /// The lines as a number.
    pub fn lines(&self) -> u32 {
        crate::vector::Episode::lines(self)
    }

    /// Writes the mask (`MAX_PLACEMENTS` values, 1 for an available action) and the
    /// descriptions (`MAX_PLACEMENTS` x 3: orientation, x, y; zeros past the last).
    #[inline]
    pub fn write_choices(&self, mask: &mut [i8], placements: &mut [u8]) {
        let n = self.choices.len();
        mask[..n].fill(1);
        mask[n..].fill(0);
        for (row, c) in placements
            .chunks_exact_mut(PLACEMENT_COLS)
            .zip(&self.choices)
        {
            row.copy_from_slice(&[c.o, c.x, c.y]);
        }
        placements[n * PLACEMENT_COLS..].fill(0);
    }
}

/// Checks an action against the episode: an index of one of its placements (any index
/// of the action space once the episode has ended: nothing moves then). The error is
/// one line.
pub fn check_action(ep: &PlacementEpisode, action: i64) -> Result<usize, String> {
    let n = ep.num_choices();
    if ep.ended {
        if (0..MAX_PLACEMENTS as i64).contains(&action) {
            return Ok(0);
        }
    } else if (0..n as i64).contains(&action) {
        return Ok(action as usize);
    }
    Err(if (0..MAX_PLACEMENTS as i64).contains(&action) {
        format!(
            "action {action} is not available: this piece has {n} placements (actions 0 to {}; see the action mask)",
            n.saturating_sub(1)
        )
    } else {
        format!(
            "action must be from 0 to {} (a placement index; see the action mask), got {action}",
            MAX_PLACEMENTS - 1
        )
    })
}

crate::vector::episode_progress!(
    PlacementEpisode,
    fn counted_game(&mut self) -> &Game {
        self.count_cycles();
        &self.game
    }
);

/// The placement task's own rows: the action mask, the placements' descriptions, how
/// many there are, and the frames the last step ran.
#[derive(Debug)]
pub struct ChoiceRows<'a> {
    /// [`MAX_PLACEMENTS`] per game: 1 for an available action.
    pub masks: &'a mut [i8],
    /// [`MAX_PLACEMENTS`] x [`PLACEMENT_COLS`] per game.
    pub placements: &'a mut [u8],
    /// Placements available.
    pub num_placements: &'a mut [i64],
    /// Frames the last step ran.
    pub frames: &'a mut [u32],
}

impl Split for ChoiceRows<'_> {
    fn split_first(&mut self, k: usize) -> Self {
        let m = MAX_PLACEMENTS;
        ChoiceRows {
            masks: take(&mut self.masks, k * m),
            placements: take(&mut self.placements, k * m * PLACEMENT_COLS),
            num_placements: take(&mut self.num_placements, k),
            frames: take(&mut self.frames, k),
        }
    }
}

impl Task for PlacementConfig {
    type Episode = PlacementEpisode;
    /// A placement index, checked with [`check_action`].
    type Action = usize;
    type Worker = MoveGen;
    type Error = Desync;
    type Extra<'a> = ChoiceRows<'a>;

    fn start(&self, seed: Option<u64>, mg: &mut MoveGen) -> PlacementEpisode {
        PlacementEpisode::new(self, seed, mg)
    }

    fn restart(&self, ep: &mut PlacementEpisode, seed: Option<u64>, mg: &mut MoveGen) {
        ep.restart(self, seed, mg);
    }

    fn step(
        &self,
        ep: &mut PlacementEpisode,
        action: usize,
        mg: &mut MoveGen,
    ) -> Result<Outcome, Desync> {
        ep.step(self, action, mg)
    }

    fn obs(&self) -> ObsKind {
        self.obs
    }

    fn max_episode_steps(&self) -> Option<u64> {
        self.max_episode_steps
    }

    #[inline]
    fn write_extra(&self, ep: &PlacementEpisode, r: &Outcome, i: usize, x: &mut ChoiceRows<'_>) {
        let m = MAX_PLACEMENTS;
        ep.write_choices(
            &mut x.masks[i * m..(i + 1) * m],
            &mut x.placements[i * m * PLACEMENT_COLS..(i + 1) * m * PLACEMENT_COLS],
        );
        x.num_placements[i] = ep.num_choices() as i64;
        x.frames[i] = r.frames;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AI's placement of the episode's piece, or a random one: one time in eight, or
    /// always with `random`.
    fn ai_or_random(
        ai: &mut nestris_ai::Ai,
        ep: &PlacementEpisode,
        rng: &mut u64,
        random: bool,
    ) -> usize {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        let chosen = ai
            .placement(&ep.game)
            .and_then(|p| (ep.choices.iter()).position(|c| (c.o, c.x, c.y) == (p.o, p.x, p.y)));
        match chosen {
            Some(i) if !random && *rng % 8 != 0 => i,
            _ => (*rng >> 32) as usize % ep.num_choices(),
        }
    }

    /// The field an episode keeps from the pieces it placed (instead of reading the
    /// game's) is the game's at every step: A-type and B-type (garbage), slow and fast
    /// levels, levels whose clears may crash, with the AI's placements (which clear
    /// rows) and random ones (which top out, locking cells above the field).
    #[test]
    fn the_field_kept_is_the_game_s() {
        use nestris_core::GameType;
        let mut mg = MoveGen::new();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut ai = nestris_ai::Ai::new(
            nestris_ai::WeightSet::default(),
            PlacementConfig::default().model,
        );
        let (mut steps, mut kept) = (0, 0);
        for (level, game_type, height) in [
            (0u8, GameType::A, 0u8),
            (18, GameType::A, 0),
            (29, GameType::A, 0),
            (9, GameType::B, 5),
            (160, GameType::A, 0),
        ] {
            let cfg = PlacementConfig {
                game: GameOptions {
                    level,
                    game_type,
                    height,
                    ..GameOptions::default()
                },
                ..PlacementConfig::default()
            };
            for seed in 0..4u64 {
                let mut ep = PlacementEpisode::new(&cfg, Some(seed), &mut mg);
                while !ep.ended && ep.steps < 150 {
                    assert_eq!(
                        ep.board,
                        Some(Board::from_playfield(&ep.game.state().playfield)),
                        "level {level}, seed {seed}, step {}",
                        ep.steps
                    );
                    // Random placements in the second half of the seeds.
                    let action = ai_or_random(&mut ai, &ep, &mut rng, seed >= 2);
                    let was = ep.board;
                    let out = ep.step(&cfg, action, &mut mg).unwrap();
                    steps += 1;
                    kept += usize::from(out.lines_cleared == 0 && was.is_some() && !ep.ended);
                }
                assert!(!ep.ended || ep.board.is_none());
            }
        }
        assert!(steps > 1000 && kept > 800, "{steps} {kept}");
    }

    /// An episode whose game counts the CPU's cycles only from a level on (played again,
    /// counted, when it gets there) gives what an episode counted all along gives, step
    /// for step, and from that level on is that episode, clock and sound engine included.
    #[test]
    fn a_lazy_episode_is_the_counted_one() {
        let mut mg = MoveGen::new();
        let mut rng = 0x9E37_79B9_7F4A_7C15_u64;
        let mut ai = nestris_ai::Ai::new(
            nestris_ai::WeightSet::default(),
            PlacementConfig::default().model,
        );
        // (start level, the level counted from); 255: counted only when looked at.
        for (level, count_from) in [(0u8, 1u8), (129, 130), (18, 255)] {
            let cfg = PlacementConfig {
                game: GameOptions {
                    level,
                    ..GameOptions::default()
                },
                ..PlacementConfig::default()
            };
            let mut switched = 0;
            for seed in 0..6u64 {
                let buffers = || {
                    (
                        Vec::new(),
                        Vec::new(),
                        Vec::new(),
                        Trace::default(),
                        Vec::new(),
                    )
                };
                let mut eager =
                    PlacementEpisode::with_buffers(&cfg, Some(seed), &mut mg, buffers(), 0);
                let mut lazy = PlacementEpisode::with_buffers(
                    &cfg,
                    Some(seed),
                    &mut mg,
                    buffers(),
                    count_from,
                );
                assert!(eager.uncounted.is_none() && lazy.uncounted.is_some());
                assert!(eager.game.state().clock.known);
                while !eager.ended && eager.steps < 80 {
                    assert_eq!(lazy.choices, eager.choices, "level {level}, seed {seed}");
                    // The AI's placements clear rows, so that the level rises.
                    let action = ai_or_random(&mut ai, &eager, &mut rng, false);
                    if count_from == 255 && eager.steps == 20 {
                        // A look at the game counts it from here on.
                        let counted = crate::vector::Episode::counted_game(&mut lazy);
                        assert_eq!(*counted, eager.game);
                        assert!(lazy.uncounted.is_none());
                    }
                    let was_lazy = lazy.uncounted.is_some();
                    let a = eager.step(&cfg, action, &mut mg).expect("no desync");
                    let b = lazy.step(&cfg, action, &mut mg).expect("no desync");
                    assert_eq!(a, b, "level {level}, seed {seed}, step {}", eager.steps);
                    if lazy.uncounted.is_some() {
                        assert!(!lazy.game.state().clock.known);
                        assert!(same_but_timing(&eager.game, &lazy.game));
                    } else {
                        switched += was_lazy as u32;
                        assert_eq!(lazy.game, eager.game, "level {level}, seed {seed}");
                    }
                }
                assert_eq!(lazy.ended, eager.ended);
            }
            if count_from == 255 {
                assert_eq!(switched, 0, "counted when looked at, not by its level");
            } else {
                assert!(
                    switched >= 3,
                    "level {level}: {switched} episodes counted again"
                );
            }
        }
    }
}
