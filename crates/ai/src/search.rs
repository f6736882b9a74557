//! Choosing a placement: the current piece, the preview, and the piece after it.
//!
//! Every placement of the current piece is followed by every placement of the preview
//! piece on the field it leaves (at the level that field's line count gives, so a
//! level-up's faster gravity is seen), and the pair with the best evaluation decides the
//! current move. Only the current piece's move is kept: the next plan starts from the
//! real game, which by then also shows the piece after.
//!
//! With the game at hand ([`Search::best_in_game`], what [`crate::Ai`] uses) the search
//! looks one piece further, and exactly. The generator steps once every frame and the
//! piece after the preview is picked in the frame the preview spawns, so it is fixed by
//! when the current piece lands: each candidate is played out on a copy of the game
//! through its inputs and the entry delay up to that spawn, which gives the third piece
//! (and the exact field, level and timers the preview starts from). The best
//! [`SearchOptions::third`] (current, preview) pairs are then searched over the third
//! piece's placements too, and the best of those lines decides. Nothing is guessed: a
//! player who could compute the generator would see the same. A player who sees only the
//! screen does not know that piece: with [`Lookahead::Screen`] the search weighs every
//! piece the generator may deal there instead (the terms other bots play on).
//!
//! The same play-outs show which candidates crash the cartridge (at levels ~150 and up a
//! clear's score frame can run into the next frame's interrupt; `nestris_core::CrashMode`).
//! With [`SearchOptions::crash_dodge`] on, a chosen placement that crashes is replaced
//! ([`Search::plan_in_game`]): first by the same placement with pushdown (Down held for
//! its last rows, which moves the clear to other frames and cycles), then by the
//! best-ranked other placement that does not crash, then any that does not; only when
//! every candidate crashes is the crash taken. The copies play on through a crash
//! (`CrashMode::Show`), so with the dodge off the player is blind to crashes: it walks
//! into them.

use crate::board::Board;
use crate::eval::{
    clear_value, risk_value, Bracket, Context, Features, Parent, WeightSet, Weights,
};
use crate::inputs::InputModel;
use crate::movegen::{MoveGen, Placement, Rules, Start};
use nestris_core::tables::{ORIENTATION_TYPE, SPAWN_TABLE};
use nestris_core::PlayState;
use nestris_core::{bcd, Buttons, Cartridge, CrashMode, FrameEvents, Game, Region, Variant};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Level and line count, to follow level-ups through a search.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Progress {
    /// Binary level.
    pub level: u8,
    /// BCD lines, low byte first, as the cartridge keeps them.
    pub lines: [u8; 2],
}

impl Progress {
    /// Lines and level after clearing `cleared` rows in an A-type game
    /// (`CARTRIDGE.md` 10: the BCD tens and hundreds digits read as hex vs. the level).
    pub fn after(mut self, cleared: u32) -> Progress {
        for _ in 0..cleared {
            bcd::increment_lines(&mut self.lines);
            if self.lines[0] & 0x0F == 0 {
                let g = ((self.lines[1] as u16) << 8 | self.lines[0] as u16) >> 4;
                if (self.level.wrapping_sub(g as u8) as i8) < 0 {
                    self.level = self.level.wrapping_add(1);
                }
            }
        }
        self
    }
}

/// Counters of the work done, for benchmarks and reports.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SearchStats {
    /// Placements generated (both plies).
    pub placements: u64,
    /// Fields evaluated.
    pub evaluated: u64,
    /// Placements changed because the chosen one crashed the cartridge
    /// ([`SearchOptions::crash_dodge`]); `pushdown_dodges` of them by pushdown alone.
    pub crash_dodges: u64,
    /// Crash dodges by pushdown: the same placement with Down held for its last rows.
    pub pushdown_dodges: u64,
    /// Pieces whose every candidate crashed the cartridge (the crash was taken).
    pub unavoidable_crashes: u64,
}

/// Settings of the search.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchOptions {
    /// Expand only this many of the best current-piece placements (by a one-piece
    /// evaluation) to the preview; 0 expands all.
    pub beam: usize,
    /// With the game at hand ([`Search::best_in_game`]): search the piece after the
    /// preview, which the generator has fixed by the time the current piece's successor
    /// spawns, on the fields of this many of the best (current, preview) pairs; 0 stops
    /// at the preview.
    pub third: usize,
    /// With the game at hand ([`Search::plan_in_game`]), the timing known and a crash mode
    /// other than `Off`: replace a placement that would crash the cartridge (see the
    /// module's documentation). Off, the player is blind to crashes.
    pub crash_dodge: bool,
    /// What the search knows of the piece after the preview (with [`SearchOptions::third`]
    /// above 0 and the game at hand).
    pub lookahead: Lookahead,
    /// How many pieces the plan made before the preview is seen ([`Search::plan_blind`])
    /// weighs below level 29: 2, the current piece and every preview piece that may come;
    /// 3 (the default), also every piece that may follow each preview piece's best
    /// placement; 4, one piece more again (each of those pieces' best placement followed
    /// by every piece that may come after it); 5, then for the
    /// [`SearchOptions::DEEP_BEAM`] best candidates by that value one piece more again.
    pub blind_depth: u8,
    /// [`SearchOptions::blind_depth`] from level 29 on, where a piece lands before the
    /// preview is seen and the plan made blind decides nearly every placement (3 by
    /// default; 4 in BetaTetris's format, [`crate::Format::search`]).
    pub blind_depth_29: u8,
    /// From level 29, with [`SearchOptions::blind_depth_29`] 3 or more: the blind plan
    /// weighs its candidates over the preview pieces alone, then only this many of the
    /// best of them at its whole depth (the rest ranked below them); 0 (the default)
    /// weighs every candidate at the whole depth.
    pub blind_beam_29: usize,
    /// With the game at hand and [`SearchOptions::third`] above 0: how many pieces the
    /// plan weighs once the preview is seen. 3 (the default): the current piece, the
    /// preview and the piece after it (known or weighed, by
    /// [`SearchOptions::lookahead`]); 4, also every piece that may follow that piece's
    /// best placement; 5, then for the [`SearchOptions::DEEP_BEAM`] best pairs by that
    /// value one piece more again (each of those pieces' best placement followed by every
    /// piece that may come after it).
    pub depth: u8,
}

/// What a search with the game at hand knows of the piece after the preview.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lookahead {
    /// The piece the generator has fixed, found by playing the candidate out: what a
    /// player who computes the generator would know.
    #[default]
    Generator,
    /// What the screen shows, the current piece and the preview: the piece after is
    /// weighed over every piece the generator may deal (a repeat of the preview a fifth
    /// as likely as each other), as a human, or a bot that sees one preview, must. The
    /// fair terms for comparing with other bots (BetaTetris's agent sees the preview
    /// only).
    Screen,
}

impl Lookahead {
    /// Both, in the order of their names.
    pub const ALL: [Lookahead; 2] = [Lookahead::Generator, Lookahead::Screen];

    /// The name on the command line and from Python.
    pub fn name(self) -> &'static str {
        match self {
            Lookahead::Generator => "generator",
            Lookahead::Screen => "screen",
        }
    }

    /// The lookahead named `name` ([`Lookahead::name`]).
    pub fn from_name(name: &str) -> Option<Lookahead> {
        Lookahead::ALL.into_iter().find(|l| l.name() == name)
    }
}

impl SearchOptions {
    /// The depths [`SearchOptions::depth`] may take (the command line's and Python's
    /// bounds; deeper would search, only slower).
    pub const DEPTHS: std::ops::RangeInclusive<u8> = 3..=5;
    /// The depths [`SearchOptions::blind_depth`] and [`SearchOptions::blind_depth_29`]
    /// may take.
    pub const BLIND_DEPTHS: std::ops::RangeInclusive<u8> = 2..=5;
    /// The beams [`SearchOptions::blind_beam_29`] may take: 0 (every candidate) up to
    /// the blind plan's candidates.
    pub const BLIND_BEAMS: std::ops::RangeInclusive<usize> = 0..=BLIND_BEAM;
    /// At [`SearchOptions::depth`] 5, how many of the best (current, preview) pairs by
    /// their four-piece value are weighed a piece further (and at blind depth 5, how many
    /// of the best candidates). Two gain as much as four at
    /// level 18, at 1.6 times the time of depth 4 instead of 2.3 (100 games to level 19,
    /// `docs/AI.md`).
    pub const DEEP_BEAM: usize = 2;
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            beam: 0,
            third: 8,
            crash_dodge: true,
            lookahead: Lookahead::Generator,
            blind_depth: 3,
            blind_depth_29: 3,
            blind_beam_29: 0,
            depth: 3,
        }
    }
}

/// How many of the best current-piece placements by their one-piece value a blind plan
/// ([`Search::plan_blind`]) weighs over every preview piece.
const BLIND_BEAM: usize = 8;

/// How many chosen placements that crash are tried again with pushdown before the best
/// placement that does not crash is taken.
const DODGE_ROUNDS: usize = 4;

/// How many frames to start holding Down at, for a pushdown dodge: the frame after the
/// last tap and the next ones.
const PUSHDOWN_STARTS: usize = 6;

/// A crash dodge made for a plan.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dodge {
    /// The placement chosen does not crash (or crashes are not modelled).
    None,
    /// The placement chosen crashed; another one was taken.
    Placement,
    /// The placement chosen crashed without pushdown; with it, it does not.
    Pushdown,
    /// Every candidate crashes: the best of them was taken.
    Unavoidable,
}

/// A plan for the current piece: where it goes and the buttons of every frame until it
/// lands (the frame in which `playState` becomes 2 included).
#[derive(Clone, Debug)]
pub struct Plan {
    /// The placement.
    pub placement: Placement,
    /// The buttons, from the state the plan was made in.
    pub inputs: Vec<Buttons>,
    /// Whether a crash was dodged.
    pub dodge: Dodge,
}

/// The searcher and its reusable buffers.
#[derive(Clone, Debug)]
pub struct Search {
    /// Evaluation weights, per bracket of the game.
    pub weights: WeightSet,
    /// The set of the bracket searched from (chosen by [`Search::first_ply`]): every leaf
    /// of one search is weighed with the same set, so their values compare.
    active: Weights,
    /// The position searched from falls at a variant's double killscreen gravity: the
    /// risk table its leaves are weighed with (chosen with `active`).
    double: bool,
    /// The player's hands.
    pub model: InputModel,
    /// The region whose gravity and DAS apply.
    pub region: Region,
    /// The rules where they are not the cartridge's (line caps change gravity); taken
    /// from the game by [`Search::best_in_game`].
    pub variant: Variant,
    /// The variant's gravity is in force at the searched game's level and lines.
    cap_in_force: bool,
    /// Search settings.
    pub options: SearchOptions,
    /// Work counters since creation.
    pub stats: SearchStats,
    /// What only the user's ROM holds (its music's scripts): the games played out on copies
    /// step with it, as the real game does, so that their timing stays exact with music on.
    pub cartridge: Option<Arc<Cartridge>>,
    first: MoveGen,
    second: MoveGen,
    order: Vec<(f32, usize)>,
    children: Vec<Child>,
    pairs: Vec<Pair>,
    /// The pairs' values at depth 4 and their indices, for depth 5.
    deep: Vec<(f32, usize)>,
    /// The choices recorded by a pass of the search, a tape a line (see [`Tape`]).
    tapes: Vec<Vec<Chosen>>,
    tape: Tape,
    /// Off, a deeper pass searches every ply again (for the tests that compare).
    tapes_on: bool,
    /// The last ply's best values met in this search, with the placements weighed for
    /// each (see [`Search::best_second`]).
    leaves: FxHashMap<LeafKey, (f32, u32)>,
    /// Off, every field is weighed again (for the tests that compare).
    leaves_on: bool,
    /// The fields a recording pass's last ply weighed in this search (see
    /// [`Search::best_second_recorded`]): their placements in `weighed` (from, count), and
    /// how many placements each had.
    recorded: FxHashMap<LeafKey, (u32, u32, u32)>,
    /// Each placement of those fields that does not top out, with the rows it clears and
    /// the value of the field it leaves.
    weighed: Vec<(Placement, u32, f32)>,
}

/// A field and piece whose best placement [`Search::best_second`] weighed: with the
/// search's weights and rules (fixed from one [`Search::first_ply`] to the next), what
/// its value depends on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct LeafKey {
    start: Start,
    progress: Progress,
}

/// Leaves kept in one search at most (about 64 bytes each); a search that meets more
/// starts over (a deep search meets a few thousand).
const MAX_LEAVES: usize = 1 << 18;

/// Placements kept for the recording passes in one search at most (24 bytes each).
const MAX_WEIGHED: usize = 1 << 20;

/// A line weighed a piece deeper than before runs the same plies as before, in the same
/// order, then one more. Each ply but the last chooses a placement on each field it
/// meets (`Search::followed`: the best by its value), and the last one takes the best
/// value on each field (`Search::best_second`); a ply of the deeper pass chooses as the
/// same ply of the pass before did, its last one included (there the pass before took
/// the best value of the same placements). So the pass before records every choice it
/// made or could have made, in order, and the deeper pass reads them instead of
/// generating and weighing those placements again: the same values to the bit, so the
/// same choices, and only the new last ply searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Tape {
    /// Nothing recorded or read.
    #[default]
    Off,
    /// `Search::followed` and `Search::best_second` append to this tape.
    Record(usize),
    /// `Search::followed` reads this tape, at this place.
    Replay(usize, usize),
}

/// A placement chosen on a field by a pass of the search, for the line weighed a piece
/// deeper (see [`Tape`]).
#[derive(Clone, Copy, Debug)]
struct Chosen {
    /// Placements generated (for the counters).
    placements: u32,
    /// The best placement by the value `Search::followed` ranks them by: the value of the
    /// clears with the line's before it, and the field and progress after it. `None`
    /// when every placement tops out.
    best: Option<(f32, Board, Progress)>,
}

/// A current-piece placement played out on a copy of the game up to the next spawn.
#[derive(Clone, Copy, Debug)]
struct Child {
    /// Index into the first ply's placements.
    index: usize,
    /// Clear value of the first placement.
    v1: f32,
    /// The preview piece's start, exactly as the game has it after the spawn.
    start: Start,
    progress: Progress,
    /// The piece after the preview (spawn orientation), if known.
    third: Option<u8>,
    /// Its play-out crashed the cartridge.
    crashed: bool,
}

/// A field whose placements are about to be weighed, measured once for all of them.
#[derive(Clone, Copy, Debug)]
struct Node {
    board: Board,
    parent: Parent,
    progress: Progress,
}

/// A (current, preview) pair of placements.
#[derive(Clone, Copy, Debug)]
struct Pair {
    /// Value of the two clears and the field after them.
    v: f32,
    /// Value of the two clears alone.
    clears: f32,
    child: usize,
    board: Board,
    progress: Progress,
}

impl Search {
    /// A searcher for NTSC with these weights and input model.
    pub fn new(weights: impl Into<WeightSet>, model: InputModel) -> Search {
        let weights = weights.into();
        Search {
            active: weights.base,
            double: false,
            weights,
            model,
            region: Region::Ntsc,
            variant: Variant::CARTRIDGE,
            cap_in_force: false,
            options: SearchOptions::default(),
            stats: SearchStats::default(),
            cartridge: None,
            first: MoveGen::new(),
            second: MoveGen::new(),
            order: Vec::new(),
            children: Vec::new(),
            pairs: Vec::new(),
            deep: Vec::new(),
            tapes: Vec::new(),
            tape: Tape::Off,
            tapes_on: true,
            leaves: FxHashMap::default(),
            leaves_on: true,
            recorded: FxHashMap::default(),
            weighed: Vec::new(),
        }
    }

    /// Ends a replay (and checks that it read its whole tape).
    fn end_replay(&mut self) {
        if let Tape::Replay(t, at) = self.tape {
            debug_assert_eq!(at, self.tapes[t].len(), "a replay left choices unread");
        }
        self.tape = Tape::Off;
    }

    /// Starts reading tape `t` from its start.
    fn replay(&mut self, t: usize) {
        if self.tapes_on {
            self.tape = Tape::Replay(t, 0);
        }
    }

    /// Starts recording the choices of a line on tape `t`.
    fn record(&mut self, t: usize) {
        if !self.tapes_on {
            return;
        }
        if self.tapes.len() <= t {
            self.tapes.resize_with(t + 1, Vec::new);
        }
        self.tapes[t].clear();
        self.tape = Tape::Record(t);
    }

    /// Takes the region and the rules of the game searched.
    fn follow(&mut self, s: &nestris_core::Snapshot) {
        self.region = s.region;
        self.variant = s.variant;
        self.cap_in_force = Rules::with_variant(s.region, s.level, s.lines, &s.variant)
            != Rules::new(s.region, s.level);
    }

    /// A piece spawned on `board` at `progress`, under the search's region and variant.
    fn spawn(&self, board: Board, piece: u8, progress: Progress) -> Start {
        let rules = Rules::with_variant(self.region, progress.level, progress.lines, &self.variant);
        Start::spawn_with(board, piece, rules)
    }

    /// The move generator holding the current piece's placements after [`Search::best`].
    pub fn movegen(&self) -> &MoveGen {
        &self.first
    }

    /// The evaluation's context at the level and lines `progress` gives.
    #[inline]
    fn context(&self, progress: Progress) -> Context {
        // A line cap's gravity is weighed only once it is in force: weighed before, its far
        // smaller reach would make every clear that reaches it look like a loss, and the
        // player would stack up below the cap rather than clear into it.
        let variant = if self.cap_in_force {
            &self.variant
        } else {
            &Variant::CARTRIDGE
        };
        let rules = Rules::with_variant(self.region, progress.level, progress.lines, variant);
        Context::with_rules(&rules, &self.model)
    }

    /// `board`, whose placements are about to be weighed, at `progress`: measured once.
    fn node(&self, board: &Board, progress: Progress) -> Node {
        Node {
            board: *board,
            // A placement that clears no row leaves the level and lines as they are.
            parent: Parent::new(board, &self.context(progress)),
            progress,
        }
    }

    /// The value of the field `after` left by placement `p` on `node`'s field, which
    /// cleared `lines` rows (the clears not included).
    #[inline]
    fn field(&self, node: &Node, after: &Board, lines: u32, p: &Placement) -> f32 {
        let f = match node.parent.child(after, lines, p.o, p.x, p.y) {
            Some(features) => features,
            None => Features::of(after, &self.context(node.progress.after(lines))),
        };
        f.value(&self.active) + risk_value(&f, &self.active, self.double)
    }

    /// The value of the field `after` left by placement `p` on `node`'s field, and of the
    /// `lines` rows it cleared.
    #[inline]
    fn leaf(&self, node: &Node, after: &Board, lines: u32, p: &Placement) -> f32 {
        clear_value(&self.active, lines) + self.field(node, after, lines, p)
    }

    /// Generates the current piece's placements and orders them by their one-piece
    /// value; returns how many to expand.
    fn first_ply(&mut self, start: &Start, progress: Progress) -> usize {
        // The bracket of the position searched from: its level, and the gravity its piece
        // falls by (a variant's double killscreen wherever its rule puts it); the high-stack
        // set instead where its stack is high.
        let height = start.board.heights().into_iter().max().unwrap_or(0);
        self.active = *self
            .weights
            .for_position(Bracket::of(progress.level, start.rules.double), height);
        self.double = start.rules.double;
        // A new search: its weights, and the rules and model it reads, may not be the last
        // one's.
        self.leaves.clear();
        self.recorded.clear();
        self.weighed.clear();
        self.first.generate(start, &self.model);
        let n = self.first.placements().len();
        self.stats.placements += n as u64;
        self.stats.evaluated += n as u64;
        self.order.clear();
        let node = self.node(&start.board, progress);
        for i in 0..n {
            let p = self.first.placements()[i];
            let v = if p.tops_out {
                f32::NEG_INFINITY
            } else {
                let mut b = start.board;
                let lines = b.place(p.o, p.x, p.y);
                self.leaf(&node, &b, lines, &p)
            };
            self.order.push((v, i));
        }
        self.order
            .sort_unstable_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        let take = if self.options.beam == 0 {
            n
        } else {
            self.options.beam.min(n)
        };
        self.order[..take]
            .iter()
            .take_while(|o| o.0 != f32::NEG_INFINITY)
            .count()
    }

    /// The best placement of the piece in `start`, with `next` (an orientation id) as
    /// the preview, or `None` if the piece has no placement (never in normal play).
    pub fn best(&mut self, start: &Start, next: u8, progress: Progress) -> Option<Placement> {
        let take = self.first_ply(start, progress);
        if self.first.placements().is_empty() {
            return None;
        }
        let next_spawn = SPAWN_TABLE[ORIENTATION_TYPE[next as usize % 20] as usize];
        self.children.clear();
        for k in 0..take {
            let i = self.order[k].1;
            let p = self.first.placements()[i];
            let mut b = start.board;
            let lines = b.place(p.o, p.x, p.y);
            let prog = progress.after(lines);
            self.children.push(Child {
                index: i,
                v1: clear_value(&self.active, lines),
                start: self.spawn(b, next_spawn, prog),
                progress: prog,
                third: None,
                crashed: false,
            });
        }
        let c = self.expand_children();
        Some(self.first.placements()[self.children[c].index])
    }

    /// The best placement of the current piece of `game` (the state before a frame of
    /// piece control, as [`Start::from_game`] takes it), or `None` when no piece is
    /// under control.
    ///
    /// Each candidate is played out on a copy of the game through its inputs and the
    /// frames until the next spawn, so the preview piece is searched from exactly the
    /// field, level and timer the game will have, and the piece after it, which the
    /// generator has then chosen, is known and searched too (see
    /// [`SearchOptions::third`]).
    ///
    /// With [`SearchOptions::crash_dodge`] a placement that crashes is replaced by the best
    /// one that does not when executed with its own inputs ([`MoveGen::inputs`]); no
    /// pushdown is added (see [`Search::plan_in_game`]).
    pub fn best_in_game(&mut self, game: &Game) -> Option<Placement> {
        self.plan_with(game, false).map(|p| p.placement)
    }

    /// The plan of a player who has not yet seen the new preview piece: the current
    /// piece's placement with the best value averaged over the preview pieces the
    /// generator may deal (of the eight best by one-piece value), and its buttons (the first part
    /// of the community's reaction model; the adjustment, once the preview is seen, is
    /// [`Search::plan_in_game`] from the state reached by then). With
    /// [`SearchOptions::blind_depth`] (or, from level 29, `blind_depth_29`) 3 a preview
    /// piece's value is that of its best placement averaged over every piece that may
    /// follow it, and with 4 each of those pieces' best placement is weighed the same way
    /// again, and with 5 the [`SearchOptions::DEEP_BEAM`] best by that value once more;
    /// from level 29 [`SearchOptions::blind_beam_29`] may weigh only the best few
    /// candidates so deep. `None` when no piece is under control.
    pub fn plan_blind(&mut self, game: &Game) -> Option<Plan> {
        let start = Start::from_game(game)?;
        let s = game.state();
        self.follow(s);
        let progress = Progress {
            level: s.level,
            lines: s.lines,
        };
        let take = self.first_ply(&start, progress).min(BLIND_BEAM);
        let depth = if progress.level >= 29 {
            self.options.blind_depth_29
        } else {
            self.options.blind_depth
        };
        // The pieces weighed after the current one (at depth 5: for the best few only).
        let pieces = depth.min(4).saturating_sub(1).max(1);
        // From level 29 with a beam: every candidate weighed over the preview pieces alone
        // first, then the beam's best ones at the whole depth.
        let beam = match self.options.blind_beam_29 {
            b if b > 0 && progress.level >= 29 && pieces > 1 => b,
            _ => 0,
        };
        self.order.first()?;
        // At depth 5 the candidates weighed `pieces` pieces deep record their choices,
        // for the best of them weighed a piece deeper (see `Tape`): placement `taped[t]`
        // on tape t.
        let mut taped: Vec<usize> = Vec::new();
        let mut record = |me: &mut Search, i: usize| {
            if depth >= 5 {
                me.record(taped.len());
                taped.push(i);
            }
        };
        let mut weighed = Vec::with_capacity(take);
        for k in 0..take {
            let i = self.order[k].1;
            if beam == 0 {
                record(self, i);
            }
            let v = self.blind_value(&start, i, progress, if beam > 0 { 1 } else { pieces });
            weighed.push((v, i));
        }
        self.tape = Tape::Off;
        // Best first (stable: equals keep the one-piece order), then the placements not
        // weighed in that order, for the crash dodge.
        weighed.sort_by(|a, b| b.0.total_cmp(&a.0));
        if beam > 0 {
            let beam = beam.min(weighed.len());
            for w in &mut weighed[..beam] {
                record(self, w.1);
                w.0 = self.blind_value(&start, w.1, progress, pieces);
            }
            self.tape = Tape::Off;
            weighed[..beam].sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        if depth >= 5 {
            // The best few of those weighed so deep a piece further, ranked by that value.
            // (None at all when every placement ends the game.)
            let weighed_deep = if beam > 0 {
                beam.min(weighed.len())
            } else {
                weighed.len()
            };
            let deep = SearchOptions::DEEP_BEAM.min(weighed_deep);
            for w in &mut weighed[..deep] {
                let t = taped.iter().position(|&i| i == w.1);
                self.replay(t.expect("the deeper candidates were weighed with a tape"));
                w.0 = self.blind_value(&start, w.1, progress, pieces + 1);
                self.end_replay();
            }
            weighed[..deep].sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        let ranked: Vec<usize> = weighed
            .iter()
            .map(|w| w.1)
            .chain(self.order[take..].iter().map(|o| o.1))
            .collect();
        Some(self.dodge_blind(game, &ranked))
    }

    /// The value of the current piece's placement `i` (an index into the first ply's) in
    /// a blind plan: its clears, then `pieces` pieces weighed over every piece the
    /// generator may deal, as it deals them.
    fn blind_value(&mut self, start: &Start, i: usize, progress: Progress, pieces: u8) -> f32 {
        let p = self.first.placements()[i];
        let mut b = start.board;
        let lines = b.place(p.o, p.x, p.y);
        let current = ORIENTATION_TYPE[start.piece.o as usize % 20] as usize;
        let v1 = clear_value(&self.active, lines);
        self.weighed(b, current, progress.after(lines), v1, pieces)
    }

    /// The blind plan of the first of `ranked` (placement indices, best first) that does
    /// not crash the cartridge when played out with its own buttons, with
    /// [`SearchOptions::crash_dodge`] on and crashes modelled: at the speeds where crashes
    /// come (level 155 on: a row a frame) the piece has landed before the preview is seen,
    /// so the adjustment cannot dodge for it. The first of them when none avoids it, or
    /// without the dodge.
    fn dodge_blind(&mut self, game: &Game, ranked: &[usize]) -> Plan {
        let first = self.first.placements()[ranked[0]];
        // Without the timing counted (a variant, a game whose timing was lost) no frame
        // lags and nothing crashes.
        if !self.options.crash_dodge
            || matches!(game.crash_mode(), CrashMode::Off)
            || !game.state().clock.known
        {
            return self.plan(first, Dodge::None);
        }
        let cart = self.cartridge.clone();
        for (n, &i) in ranked.iter().enumerate() {
            let p = self.first.placements()[i];
            // A top-out is no crash: the first placement is kept for it as without the dodge.
            let crashed = matches!(
                play_out_blind(game, &self.first.inputs(&p), cart.as_deref()),
                Some((_, true))
            );
            if !crashed {
                if n == 0 {
                    return self.plan(p, Dodge::None);
                }
                self.stats.crash_dodges += 1;
                return self.plan(p, Dodge::Placement);
            }
        }
        self.stats.unavoidable_crashes += 1;
        self.plan(first, Dodge::Unavoidable)
    }

    /// [`Search::best_in_game`] with the placement's buttons, and the whole crash dodge
    /// (see [`SearchOptions::crash_dodge`]): the buttons may add pushdown to the
    /// placement's.
    pub fn plan_in_game(&mut self, game: &Game) -> Option<Plan> {
        self.plan_with(game, true)
    }

    fn plan_with(&mut self, game: &Game, pushdown: bool) -> Option<Plan> {
        let start = Start::from_game(game)?;
        let s = game.state();
        self.follow(s);
        let progress = Progress {
            level: s.level,
            lines: s.lines,
        };
        let take = self.first_ply(&start, progress);
        if self.first.placements().is_empty() {
            return None;
        }
        self.children.clear();
        for k in 0..take {
            let i = self.order[k].1;
            let p = self.first.placements()[i];
            let Some((g, crashed)) =
                play_out_blind(game, &self.first.inputs(&p), self.cartridge.as_deref())
            else {
                continue;
            };
            let Some(next) = Start::from_game(&g) else {
                continue;
            };
            let gs = g.state();
            let lines = { start.board }.place(p.o, p.x, p.y);
            self.children.push(Child {
                index: i,
                v1: clear_value(&self.active, lines),
                start: next,
                progress: Progress {
                    level: gs.level,
                    lines: gs.lines,
                },
                third: Some(SPAWN_TABLE[ORIENTATION_TYPE[gs.next_piece as usize % 20] as usize]),
                crashed,
            });
        }
        if self.children.is_empty() {
            // Every candidate tops out: take the best of them anyway.
            return Some(self.plan(self.first.placements()[self.order[0].1], Dodge::None));
        }
        let c = self.expand_children();
        let child = self.children[c];
        let placement = self.first.placements()[child.index];
        if !child.crashed || !self.options.crash_dodge {
            return Some(self.plan(placement, Dodge::None));
        }
        Some(self.dodge(game, c, pushdown))
    }

    /// The plan of `placement` with its movegen buttons.
    fn plan(&self, placement: Placement, dodge: Dodge) -> Plan {
        Plan {
            placement,
            inputs: self.first.inputs(&placement),
            dodge,
        }
    }

    /// The chosen child `c` crashes: the plan that dodges the crash (see the module's
    /// documentation; by pushdown only if `pushdown`), or the crash when nothing avoids it.
    fn dodge(&mut self, game: &Game, mut c: usize, pushdown: bool) -> Plan {
        let greedy = self.first.placements()[self.children[c].index];
        for _ in 0..DODGE_ROUNDS {
            let child = self.children[c];
            let p = self.first.placements()[child.index];
            if !child.crashed {
                self.stats.crash_dodges += 1;
                return self.plan(p, Dodge::Placement);
            }
            if let Some(inputs) = pushdown.then(|| self.pushdown(game, &p)).flatten() {
                self.stats.crash_dodges += 1;
                self.stats.pushdown_dodges += 1;
                return Plan {
                    placement: p,
                    inputs,
                    dodge: Dodge::Pushdown,
                };
            }
            // In order, so that the next search breaks ties as the first did.
            self.children.remove(c);
            if self.children.is_empty() {
                break;
            }
            c = self.expand_children();
        }
        self.children.retain(|c| !c.crashed);
        if self.children.is_empty() {
            self.stats.unavoidable_crashes += 1;
            return self.plan(greedy, Dodge::Unavoidable);
        }
        let c = self.expand_children();
        self.stats.crash_dodges += 1;
        self.plan(
            self.first.placements()[self.children[c].index],
            Dodge::Placement,
        )
    }

    /// The buttons of `p` with Down held from some frame after its last tap until it lands,
    /// if one such start puts the piece in the same place and does not crash before the
    /// next spawn.
    fn pushdown(&self, game: &Game, p: &Placement) -> Option<Vec<Buttons>> {
        let base = self.first.inputs(p);
        // Down starts only on a fresh press with nothing else held; taps are single frames.
        let after_taps = base
            .iter()
            .rposition(|b| *b != Buttons::NONE)
            .map_or(self.model.reaction as usize, |i| i + 1);
        let cart = self.cartridge.as_deref();
        for from in after_taps..base.len().min(after_taps + PUSHDOWN_STARTS) {
            let mut g = blind_copy(game);
            let mut inputs = base[..from].to_vec();
            let mut crashed = false;
            for &b in &inputs {
                crashed |= crashes(&step(&mut g, b, cart));
            }
            // At most a field's height of frames with Down held.
            for _ in 0..24 {
                if g.state().phase() != PlayState::Control {
                    break;
                }
                inputs.push(Buttons::DOWN);
                crashed |= crashes(&step(&mut g, Buttons::DOWN, cart));
            }
            let s = g.state();
            if crashed || s.phase() != PlayState::Lock || (s.piece, s.x, s.y) != (p.o, p.x, p.y) {
                continue;
            }
            if let Some((_, false)) = finish_blind(g, cart) {
                return Some(inputs);
            }
        }
        None
    }

    /// Generates the placements of the piece in `start` into the second move generator,
    /// counted in the statistics; returns how many.
    fn generate_second(&mut self, start: &Start) -> usize {
        self.second.generate(start, &self.model);
        let n = self.second.placements().len();
        self.stats.placements += n as u64;
        self.stats.evaluated += n as u64;
        n
    }

    /// The best value of a further piece's placement from `start` on `node`'s field after
    /// placements worth `v1` (negative infinity when every placement tops out).
    fn best_second(&mut self, start: &Start, node: &Node, v1: f32) -> f32 {
        if let Tape::Record(t) = self.tape {
            return self.best_second_recorded(start, node, v1, t);
        }
        // Half the fields a deep search weighs here it has weighed before in the same
        // search (lines that reach one field in another order, the deeper passes over the
        // shallower ones' lines): their best value is kept. The placements' values are
        // summed without `v1`, which is added to the best: as rounding never reverses an
        // order, `v1 + max(x)` is `max(v1 + x)` to the bit.
        let key = self.leaf_key(start, node);
        if let Some(&(best, n)) = self.leaves.get(&key) {
            // Counted as weighed again, as a replayed tape's choice is: the counts do not
            // depend on what is kept.
            self.stats.placements += u64::from(n);
            self.stats.evaluated += u64::from(n);
            return v1 + best;
        }
        self.best_second_weighed(start, node, v1, key)
    }

    /// [`Search::best_second`] for a field and piece not kept (`key`, whose best value
    /// is kept from here on).
    fn best_second_weighed(&mut self, start: &Start, node: &Node, v1: f32, key: LeafKey) -> f32 {
        let n = self.generate_second(start);
        let mut best = f32::NEG_INFINITY;
        for j in 0..n {
            let p = self.second.placements()[j];
            if p.tops_out {
                continue;
            }
            let (lines, field) = self.placed(node, &p);
            best = best.max(clear_value(&self.active, lines) + field);
        }
        self.keep_leaf(key, best, n);
        v1 + best
    }

    /// The key of [`Search::best_second`]'s value of `start` on `node`'s field.
    #[inline]
    fn leaf_key(&self, start: &Start, node: &Node) -> LeafKey {
        debug_assert_eq!(
            start.board, node.board,
            "a leaf's piece is not on its field"
        );
        LeafKey {
            start: *start,
            progress: node.progress,
        }
    }

    /// Keeps a leaf's best value for the rest of the search.
    #[inline]
    fn keep_leaf(&mut self, key: LeafKey, best: f32, placements: usize) {
        if !self.leaves_on {
            return;
        }
        if self.leaves.len() >= MAX_LEAVES {
            self.leaves.clear();
        }
        self.leaves.insert(key, (best, placements as u32));
    }

    /// The rows placement `p` clears on `node`'s field and the value of the field it
    /// leaves (as [`Search::field`]), the piece placed on a copy of the field only when it
    /// clears rows (otherwise the field's features come from its parent's and the piece's
    /// rows: `Parent::child_on`).
    #[inline(always)]
    fn placed(&self, node: &Node, p: &Placement) -> (u32, f32) {
        match node.parent.child_on(&node.board, p.o, p.x, p.y) {
            Some(f) => {
                let v = f.value(&self.active);
                // (The risk table's patterns are read from the same features. Without the
                // table the value is the features' alone, not plus a zero risk: a -0.0
                // stays one, as it always has.)
                if self.active.risk == 0.0 {
                    (0, v)
                } else {
                    (0, v + risk_value(&f, &self.active, self.double))
                }
            }
            None => {
                let mut b = node.board;
                let lines = b.place(p.o, p.x, p.y);
                (lines, self.field(node, &b, lines, p))
            }
        }
    }

    /// [`Search::best_second`] that also finds the best placement as
    /// [`Search::followed`] ranks them, and appends it to tape `t` (see [`Tape`]). Each
    /// value is summed as in those two, so both are the same to the bit.
    ///
    /// A quarter of the fields this meets it met before in the same search. Its choice
    /// depends on `v1` (the line's value is added to each clear's before the field's), so
    /// it is made again, from each placement's clears and field value as kept then: the
    /// same sums in the same order.
    #[inline(never)]
    fn best_second_recorded(&mut self, start: &Start, node: &Node, v1: f32, t: usize) -> f32 {
        let key = self.leaf_key(start, node);
        // (`first`: not met before, so its best value is not kept yet either)
        let (from, count, n, first) = match self.recorded.get(&key) {
            Some(&(from, count, n)) => {
                self.stats.placements += u64::from(n);
                self.stats.evaluated += u64::from(n);
                (from as usize, count as usize, n as usize, false)
            }
            None => {
                let n = self.generate_second(start);
                if self.weighed.len() + n > MAX_WEIGHED {
                    self.recorded.clear();
                    self.weighed.clear();
                }
                let from = self.weighed.len();
                for j in 0..n {
                    let p = self.second.placements()[j];
                    if !p.tops_out {
                        let (lines, field) = self.placed(node, &p);
                        self.weighed.push((p, lines, field));
                    }
                }
                let count = self.weighed.len() - from;
                if self.leaves_on {
                    self.recorded
                        .insert(key, (from as u32, count as u32, n as u32));
                }
                (from, count, n, true)
            }
        };
        let mut best = f32::NEG_INFINITY;
        // (`followed`'s value, the clears' value, the placement)
        let mut top: Option<(f32, f32, Placement)> = None;
        for j in from..from + count {
            let (p, lines, field) = self.weighed[j];
            let cleared = clear_value(&self.active, lines);
            // `leaf`'s sum (`v1` added to the best, as `best_second` adds it), and
            // `after_second`'s.
            best = best.max(cleared + field);
            let clears = v1 + cleared;
            let ranked = clears + (clear_value(&self.active, 0) + field);
            if top.is_none_or(|t| ranked > t.0) {
                top = Some((ranked, clears, p));
            }
        }
        let best_placed = top.map(|(_, clears, p)| {
            let mut b = start.board;
            let lines = b.place(p.o, p.x, p.y);
            (clears, b, node.progress.after(lines))
        });
        self.tapes[t].push(Chosen {
            placements: n as u32,
            best: best_placed,
        });
        if !self.leaves_on {
            self.weighed.truncate(from);
        }
        if first {
            self.keep_leaf(key, best, n);
        }
        v1 + best
    }

    /// The best value of the next piece's placement from `board` after placements worth
    /// `v`, weighed over every piece the generator may deal after `previous` (a piece
    /// type) as it deals them ([`deal_weight`]).
    fn weighed_next(&mut self, board: Board, previous: usize, progress: Progress, v: f32) -> f32 {
        let (mut sum, mut weight) = (0.0, 0.0);
        let node = self.node(&board, progress);
        for (kind, &spawn) in SPAWN_TABLE.iter().enumerate().take(7) {
            let w = deal_weight(kind, previous);
            let start = self.spawn(board, spawn, progress);
            sum += w * self.best_second(&start, &node, v);
            weight += w;
        }
        sum / weight
    }

    /// A preview placement `q` on `node`'s field after placements worth `v1`: its value
    /// (the clears' and the field's after it), the clears' value, and the field and
    /// progress after it.
    #[inline]
    fn after_second(&self, node: &Node, q: &Placement, v1: f32) -> (f32, f32, Board, Progress) {
        let mut b = node.board;
        let lines = b.place(q.o, q.x, q.y);
        let prog = node.progress.after(lines);
        let clears = v1 + clear_value(&self.active, lines);
        // The field's value as a leaf that cleared no row is weighed (`0.0 +` it), so that
        // the sum is the same to the bit.
        let field = clear_value(&self.active, 0) + self.field(node, &b, lines, q);
        (clears + field, clears, b, prog)
    }

    /// The value of `board` after placements worth `v1`, weighed over the next `pieces`
    /// pieces the generator may deal after `previous` (a piece type), each as it deals
    /// them ([`deal_weight`]): 1 is [`Search::weighed_next`]; with more, each piece's
    /// value is that of its best placement by its one-piece value, followed by the pieces
    /// after it ([`Search::followed`]).
    fn weighed(
        &mut self,
        board: Board,
        previous: usize,
        progress: Progress,
        v1: f32,
        pieces: u8,
    ) -> f32 {
        if pieces <= 1 {
            return self.weighed_next(board, previous, progress, v1);
        }
        let (mut sum, mut weight) = (0.0, 0.0);
        let node = self.node(&board, progress);
        for (kind, &spawn) in SPAWN_TABLE.iter().enumerate().take(7) {
            let w = deal_weight(kind, previous);
            let start = self.spawn(board, spawn, progress);
            sum += w * self.followed(&start, &node, v1, kind, pieces - 1);
            weight += w;
        }
        sum / weight
    }

    /// The value of the piece in `start` (of type `kind`) on `node`'s field after
    /// placements worth `v1`: its best placement by its value with its clears, then the
    /// next `pieces` pieces weighed over what may come ([`Search::weighed`]). Negative
    /// infinity when every placement tops out.
    fn followed(&mut self, start: &Start, node: &Node, v1: f32, kind: usize, pieces: u8) -> f32 {
        let best = if let Tape::Replay(t, at) = self.tape {
            // The pass a piece shallower chose on this field already.
            let chosen = self.tapes[t][at];
            self.tape = Tape::Replay(t, at + 1);
            self.stats.placements += u64::from(chosen.placements);
            self.stats.evaluated += u64::from(chosen.placements);
            chosen.best
        } else {
            let n = self.generate_second(start);
            // (value, the clears' value, field and progress after it)
            let mut best: Option<(f32, f32, Board, Progress)> = None;
            for j in 0..n {
                let q = self.second.placements()[j];
                if q.tops_out {
                    continue;
                }
                let after = self.after_second(node, &q, v1);
                if best.is_none_or(|b| after.0 > b.0) {
                    best = Some(after);
                }
            }
            let best = best.map(|(_, clears, b2, prog2)| (clears, b2, prog2));
            if let Tape::Record(t) = self.tape {
                self.tapes[t].push(Chosen {
                    placements: n as u32,
                    best,
                });
            }
            best
        };
        match best {
            Some((clears, b2, prog2)) => self.weighed(b2, kind, prog2, clears, pieces),
            None => f32::NEG_INFINITY,
        }
    }

    /// Searches the preview (and the piece after it where known) under every child and
    /// returns the child of the best line (an index into `children`, not empty).
    fn expand_children(&mut self) -> usize {
        let third = self.options.third;
        self.pairs.clear();
        let mut best = (f32::NEG_INFINITY, 0);
        for c in 0..self.children.len() {
            let child = self.children[c];
            let n = self.generate_second(&child.start);
            let node = self.node(&child.start.board, child.progress);
            let mut best2 = f32::NEG_INFINITY;
            for j in 0..n {
                let p = self.second.placements()[j];
                if p.tops_out {
                    continue;
                }
                let (v, clears, b, prog) = self.after_second(&node, &p, child.v1);
                best2 = best2.max(v);
                if third > 0 && child.third.is_some() {
                    push_top(
                        &mut self.pairs,
                        third,
                        Pair {
                            v,
                            clears,
                            child: c,
                            board: b,
                            progress: prog,
                        },
                    );
                }
            }
            if best2 > best.0 {
                best = (best2, c);
            }
        }
        if self.pairs.is_empty() {
            return best.1;
        }
        // The piece after the preview on the best pairs' fields, and the pieces after it
        // that `depth` adds (one at most for every pair), weighed.
        let more = self.options.depth.saturating_sub(3);
        let mut best3 = (f32::NEG_INFINITY, best.1);
        self.deep.clear();
        // At depth 5 each pair's line records its choices, tape k for pair k, for the
        // best of them weighed a piece further (see `Tape`).
        let tape = more == 2;
        for k in 0..self.pairs.len() {
            if tape {
                self.record(k);
            }
            let v = self.after_pair(k, more.min(1));
            self.tape = Tape::Off;
            if more > 1 {
                self.deep.push((v, k));
            }
            if v > best3.0 {
                best3 = (v, self.pairs[k].child);
            }
        }
        if best3.0 == f32::NEG_INFINITY {
            return best.1;
        }
        if more <= 1 {
            return best3.1;
        }
        // Depth 5: the best few pairs by that value (equals in the pairs' order) a piece
        // further, the best of them by it chosen.
        self.deep.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut best5 = (f32::NEG_INFINITY, best3.1);
        for d in 0..SearchOptions::DEEP_BEAM.min(self.deep.len()) {
            let k = self.deep[d].1;
            if tape {
                self.replay(k);
            }
            let v = self.after_pair(k, more);
            self.end_replay();
            if v > best5.0 {
                best5 = (v, self.pairs[k].child);
            }
        }
        best5.1
    }

    /// The value of pair `k`'s line with the piece after the preview weighed (or known,
    /// by [`SearchOptions::lookahead`]) and `more` pieces after it.
    fn after_pair(&mut self, k: usize, more: u8) -> f32 {
        let pair = self.pairs[k];
        let child = &self.children[pair.child];
        let piece = child.third.expect("pairs only for played-out children");
        let preview = ORIENTATION_TYPE[child.start.piece.o as usize % 20] as usize;
        match self.options.lookahead {
            Lookahead::Generator => {
                let start = self.spawn(pair.board, piece, pair.progress);
                let node = self.node(&pair.board, pair.progress);
                if more == 0 {
                    self.best_second(&start, &node, pair.clears)
                } else {
                    let kind = ORIENTATION_TYPE[piece as usize % 20] as usize;
                    self.followed(&start, &node, pair.clears, kind, more)
                }
            }
            Lookahead::Screen => {
                self.weighed(pair.board, preview, pair.progress, pair.clears, 1 + more)
            }
        }
    }
}

/// A current-piece placement with the value of the best line found from it
/// ([`Search::rank`]).
#[derive(Clone, Copy, Debug)]
pub struct Ranked {
    /// The placement.
    pub placement: Placement,
    /// The value of the best line that starts with it (negative infinity when every line
    /// tops out).
    pub value: f32,
    /// The preview piece's placement in that line, when the preview is known.
    pub next: Option<Placement>,
}

/// A preview placement kept for the deeper search: its value, the value of the two
/// clears, the field and progress after it, and the placement.
type Second = (f32, f32, Board, Progress, Placement);

/// How many of a current placement's best preview placements [`Search::rank`] weighs over
/// every piece that may follow.
const RANK_SECONDS: usize = 3;

/// How often the generator deals `kind` after `previous` relative to the others: a repeat
/// is rerolled once, so it comes about a fifth as often as each other piece.
fn deal_weight(kind: usize, previous: usize) -> f32 {
    if kind == previous {
        1.0
    } else {
        5.0
    }
}

impl Search {
    /// Every placement of the piece in `start` with the value of the best line from it,
    /// best first, for a position known only by its field, pieces and progress (no game
    /// whose generator would tell the pieces after: a coach's question).
    ///
    /// With the preview known (`next`, an orientation id), each placement is followed by
    /// every preview placement; when `deep` > 0, the `deep` best placements are searched
    /// one piece further, over every piece the generator may deal after the preview
    /// (weighted as it deals them), from each one's three best preview
    /// placements, and only those `deep` placements are returned (their values weigh
    /// three pieces, the others' two). Without the preview, each placement's value is the
    /// best preview placement averaged over the pieces the generator may deal.
    pub fn rank(
        &mut self,
        start: &Start,
        next: Option<u8>,
        progress: Progress,
        deep: usize,
    ) -> Vec<Ranked> {
        let take = self.first_ply(start, progress);
        let current = ORIENTATION_TYPE[start.piece.o as usize % 20] as usize;
        let mut ranked = Vec::with_capacity(take);
        // Per ranked placement, its best preview placements: (value, clears, field, progress).
        let mut seconds: Vec<Vec<Second>> = Vec::with_capacity(take);
        for k in 0..take {
            let p = self.first.placements()[self.order[k].1];
            let mut b = start.board;
            let lines = b.place(p.o, p.x, p.y);
            let prog = progress.after(lines);
            let v1 = clear_value(&self.active, lines);
            let Some(next) = next else {
                ranked.push(Ranked {
                    placement: p,
                    value: self.weighed_next(b, current, prog, v1),
                    next: None,
                });
                seconds.push(Vec::new());
                continue;
            };
            let next_spawn = SPAWN_TABLE[ORIENTATION_TYPE[next as usize % 20] as usize];
            let start2 = self.spawn(b, next_spawn, prog);
            let n = self.generate_second(&start2);
            let node = self.node(&b, prog);
            let mut best: (f32, Option<Placement>) = (f32::NEG_INFINITY, None);
            let mut top: Vec<Second> = Vec::with_capacity(RANK_SECONDS + 1);
            for j in 0..n {
                let q = self.second.placements()[j];
                if q.tops_out {
                    continue;
                }
                let (v, clears, b2, prog2) = self.after_second(&node, &q, v1);
                if v > best.0 {
                    best = (v, Some(q));
                }
                if top.len() < RANK_SECONDS || v > top[top.len() - 1].0 {
                    let at = top.partition_point(|t| t.0 >= v);
                    top.insert(at, (v, clears, b2, prog2, q));
                    top.truncate(RANK_SECONDS);
                }
            }
            ranked.push(Ranked {
                placement: p,
                value: best.0,
                next: best.1,
            });
            seconds.push(top);
        }
        let by_value =
            |a: &(Ranked, Vec<Second>), b: &(Ranked, Vec<Second>)| b.0.value.total_cmp(&a.0.value);
        let mut both: Vec<_> = ranked.into_iter().zip(seconds).collect();
        // Stable: equal values keep the one-piece order.
        both.sort_by(by_value);
        let Some(next) = next.filter(|_| deep > 0) else {
            return both.into_iter().map(|(r, _)| r).collect();
        };
        let preview = ORIENTATION_TYPE[next as usize % 20] as usize;
        both.truncate(deep);
        for (r, top) in &mut both {
            let mut best = (f32::NEG_INFINITY, r.next);
            for &(_, clears, b2, prog2, q) in top.iter() {
                let v = self.weighed_next(b2, preview, prog2, clears);
                if v > best.0 {
                    best = (v, Some(q));
                }
            }
            (r.value, r.next) = best;
        }
        both.sort_by(by_value);
        both.into_iter().map(|(r, _)| r).collect()
    }
}

/// Keeps the `k` best pairs by value in `top`.
fn push_top(top: &mut Vec<Pair>, k: usize, pair: Pair) {
    if top.len() == k {
        let (worst, at) = top
            .iter()
            .enumerate()
            .map(|(i, p)| (p.v, i))
            .fold((f32::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a });
        if pair.v <= worst {
            return;
        }
        top[at] = pair;
    } else {
        top.push(pair);
    }
}

/// `game` after `inputs` and the frames of no input up to the next spawn, or `None` if
/// the piece tops out (or no piece spawns within 400 frames).
pub fn play_out(game: &Game, inputs: &[Buttons]) -> Option<Game> {
    play_out_with(game, inputs, None)
}

/// [`play_out`], stepping with `cartridge`'s data when given.
pub fn play_out_with(
    game: &Game,
    inputs: &[Buttons],
    cartridge: Option<&Cartridge>,
) -> Option<Game> {
    let mut g = game.clone();
    for &b in inputs {
        if step(&mut g, b, cartridge).has(FrameEvents::TOPPED_OUT) {
            return None;
        }
    }
    for _ in 0..400 {
        let ev = step(&mut g, Buttons::NONE, cartridge);
        if ev.has(FrameEvents::TOPPED_OUT) {
            return None;
        }
        if ev.has(FrameEvents::SPAWNED) {
            return Some(g);
        }
    }
    None
}

/// True when a frame's events show the cartridge crashing.
#[inline]
fn crashes(ev: &FrameEvents) -> bool {
    ev.flags & (FrameEvents::CRASHED | FrameEvents::DISPATCH_BROKEN) != 0
}

/// A copy of `game` that plays on through a crash (`CrashMode::Show`), so that a candidate
/// that crashes can still be evaluated, and its crash seen.
fn blind_copy(game: &Game) -> Game {
    let mut g = game.clone();
    if !matches!(g.crash_mode(), CrashMode::Off | CrashMode::Show) {
        g.set_crash_mode(CrashMode::Show);
    }
    g
}

/// [`play_out_with`] on a [`blind_copy`]: the game at the next spawn and whether the
/// cartridge crashed on the way, or `None` if the piece tops out.
fn play_out_blind(
    game: &Game,
    inputs: &[Buttons],
    cartridge: Option<&Cartridge>,
) -> Option<(Game, bool)> {
    let mut g = blind_copy(game);
    let mut crashed = false;
    for &b in inputs {
        let ev = step(&mut g, b, cartridge);
        if ev.has(FrameEvents::TOPPED_OUT) {
            return None;
        }
        crashed |= crashes(&ev);
    }
    finish_blind(g, cartridge).map(|(g, c)| (g, c || crashed))
}

/// Runs `g` with no input to the next spawn: the game then and whether it crashed, or
/// `None` if it tops out first (or no piece spawns within 400 frames).
fn finish_blind(mut g: Game, cartridge: Option<&Cartridge>) -> Option<(Game, bool)> {
    let mut crashed = false;
    for _ in 0..400 {
        let ev = step(&mut g, Buttons::NONE, cartridge);
        if ev.has(FrameEvents::TOPPED_OUT) {
            return None;
        }
        crashed |= crashes(&ev);
        if ev.has(FrameEvents::SPAWNED) {
            return Some((g, crashed));
        }
    }
    None
}

/// One frame of `game`, with the cartridge's data when given.
#[inline]
pub(crate) fn step(game: &mut Game, b: Buttons, cartridge: Option<&Cartridge>) -> FrameEvents {
    match cartridge {
        Some(c) => game.step_with_cartridge(b, c),
        None => game.step(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_rises_at_130_lines_from_18() {
        let p = Progress {
            level: 18,
            lines: [0x26, 0x01],
        };
        assert_eq!(p.after(3).level, 18);
        assert_eq!(p.after(4).level, 19);
        assert_eq!(p.after(4).lines, [0x30, 0x01]);
    }

    #[test]
    fn rank_without_the_deeper_search_chooses_as_best_does() {
        let progress = Progress {
            level: 18,
            lines: [0x40, 0],
        };
        for (_, board) in crate::bench::sample_boards() {
            for (kind, &spawn) in SPAWN_TABLE.iter().enumerate().take(7) {
                let next = SPAWN_TABLE[(kind + 3) % 7];
                let start = Start::spawn(board, spawn, 18, Region::Ntsc);
                let mut s = Search::new(Weights::default(), InputModel::hz30());
                let best = s.best(&start, next, progress).unwrap();
                let ranked = s.rank(&start, Some(next), progress, 0);
                assert_eq!(
                    ranked.len(),
                    s.movegen()
                        .placements()
                        .iter()
                        .filter(|p| !p.tops_out)
                        .count()
                );
                assert_eq!(
                    (
                        ranked[0].placement.o,
                        ranked[0].placement.x,
                        ranked[0].placement.y
                    ),
                    (best.o, best.x, best.y)
                );
                assert!(ranked.windows(2).all(|w| w[0].value >= w[1].value));
                // The deeper search keeps only the eight it searched, still best first.
                let deep = s.rank(&start, Some(next), progress, 8);
                assert_eq!(deep.len(), ranked.len().min(8));
                assert!(deep.windows(2).all(|w| w[0].value >= w[1].value));
            }
        }
    }

    #[test]
    fn with_the_risk_weighed_fields_are_valued_as_measured_whole() {
        // With the risk weighed, a field's value, by `Search::placed` (the deeper lines'
        // fields) and by `Search::field` alike, is its features' (taken from its parent's)
        // plus the risk of the table of the searched piece's gravity (the double
        // killscreen's at two rows a frame), read from those features: the same as the
        // field placed, measured and its rows read whole.
        let weights = Weights {
            risk: -75.0,
            ..Weights::default()
        };
        let near = |a: f32, b: f32| (a - b).abs() < 1e-3 * b.abs().max(1.0);
        for (level, double) in [(29, false), (39, true)] {
            let progress = Progress {
                level,
                lines: [0x40, 0x02],
            };
            let rules = Rules {
                double,
                ..Rules::new(Region::Ntsc, level)
            };
            // The features' context as the search takes it (the cartridge's gravity: no
            // variant given), the table by the piece's.
            let ctx = Context::new(Region::Ntsc, level, &InputModel::hz30());
            let table = crate::risk::RiskTable::for_gravity(double);
            let whole = |b: &Board| {
                Features::of(b, &ctx).value(&weights) + weights.risk * table.of_board(b)
            };
            for (_, board) in crate::bench::sample_boards() {
                for (kind, &spawn) in SPAWN_TABLE.iter().enumerate().take(7) {
                    let next = SPAWN_TABLE[(kind + 3) % 7];
                    let start = Start::spawn_with(board, spawn, rules);
                    let mut s = Search::new(weights, InputModel::hz30());
                    let ranked = s.rank(&start, Some(next), progress, 0);
                    // Each placement's field, as `placed` weighs it.
                    let node = s.node(&board, progress);
                    for r in &ranked {
                        let p = r.placement;
                        let (lines, value) = s.placed(&node, &p);
                        let mut after = board;
                        assert_eq!(lines, after.place(p.o, p.x, p.y));
                        assert!(near(value, whole(&after)), "{value} {}", whole(&after));
                    }
                    // The best line: its two clears and its last field.
                    let (p1, p2) = (ranked[0].placement, ranked[0].next.unwrap());
                    let mut b = board;
                    let mut value = 0.0;
                    for p in [p1, p2] {
                        value += clear_value(&weights, b.place(p.o, p.x, p.y));
                    }
                    value += whole(&b);
                    assert!(near(ranked[0].value, value), "{} {value}", ranked[0].value);
                }
            }
        }
    }

    proptest::proptest! {
        /// What a kept field's value rests on (`Search::best_second`): the best of `v + x`
        /// over the placements' values `x` is `v` plus the best `x`, to the bit.
        #[test]
        fn adding_after_the_best_is_the_best_of_the_sums(
            v in -1e6f32..1e6,
            xs in proptest::collection::vec(-1e6f32..1e6, 0..40),
        ) {
            let of_sums = xs.iter().fold(f32::NEG_INFINITY, |b, &x| b.max(v + x));
            let best = xs.iter().fold(f32::NEG_INFINITY, |b, &x| b.max(x));
            proptest::prop_assert_eq!(of_sums.to_bits(), (v + best).to_bits());
        }
    }

    /// The deepest search the betatetris format runs (five pieces, the blind plan's beam
    /// from level 29), without the crash dodge's play-outs.
    fn deep_options(lookahead: Lookahead) -> SearchOptions {
        SearchOptions {
            lookahead,
            depth: 5,
            blind_depth: 5,
            blind_depth_29: 5,
            blind_beam_29: 4,
            crash_dodge: false,
            ..SearchOptions::default()
        }
    }

    /// A line weighed a piece deeper reads the choices of the pass before it from a tape
    /// (see `Tape`), and a field weighed before in the search is not weighed again (see
    /// `Search::best_second`): the same plans, buttons and counts as searching every ply
    /// and every field again, in the blind plan (with the beam from level 29, without it
    /// below) and the plan made once the preview is seen, with both lookaheads.
    #[test]
    fn deeper_lines_read_their_tapes_as_searching_again() {
        for (level, lookahead) in [
            (28, Lookahead::Screen),
            (28, Lookahead::Generator),
            (29, Lookahead::Screen),
            (29, Lookahead::Generator),
        ] {
            let game = Game::new(nestris_core::GameSetup {
                level,
                rng: 0x1234 + u16::from(level),
                crash_mode: CrashMode::Off,
                ..nestris_core::GameSetup::default()
            });
            // A line short of a level-up (at 28, to 29's gravity), on a stack where most
            // pieces clear rows, so that the clears and the lines' progress count too.
            let mut s = game.snapshot();
            s.lines = if level == 28 {
                [0x89, 0x02]
            } else {
                [0x39, 0x02]
            };
            for row in 12..20 {
                for col in 0..10 {
                    if col != 9 && (row > 15 || col != row % 9) {
                        s.playfield.0[row * 10 + col] = 0x7B;
                    }
                }
            }
            let mut game = Game::from_snapshot(s).unwrap();
            let search = |tapes_on, leaves_on| {
                let mut s = Search::new(WeightSet::betatetris(), InputModel::hz30());
                s.options = deep_options(lookahead);
                s.tapes_on = tapes_on;
                s.leaves_on = leaves_on;
                s
            };
            let (mut taped, mut again) = (search(true, true), search(false, true));
            let mut weighed_again = search(true, false);
            let mut plans = 0;
            while plans < 12 && !game.is_over() {
                if Start::from_game(&game).is_none() {
                    game.step(Buttons::NONE);
                    continue;
                }
                let key = |p: Option<Plan>| {
                    p.map(|p| (p.placement.o, p.placement.x, p.placement.y, p.inputs))
                };
                let seen = key(taped.plan_in_game(&game));
                assert_eq!(seen, key(again.plan_in_game(&game)), "level {level}");
                assert_eq!(
                    seen,
                    key(weighed_again.plan_in_game(&game)),
                    "level {level}"
                );
                let blind = key(taped.plan_blind(&game));
                assert_eq!(blind, key(again.plan_blind(&game)), "level {level}");
                assert_eq!(blind, key(weighed_again.plan_blind(&game)), "level {level}");
                plans += 1;
                for &b in &blind.expect("a piece under control has a plan").3 {
                    game.step(b);
                }
            }
            assert_eq!(plans, 12);
            assert_eq!(taped.stats, again.stats);
            assert_eq!(taped.stats, weighed_again.stats);
            // (The blind plans from level 29 meet most of their fields again.)
            assert!(!taped.leaves.is_empty(), "level {level}");
        }
    }

    /// What a search keeps of the fields it weighed (`Search::best_second` and
    /// `Search::best_second_recorded`) is the search's alone. Weights doubled (all but the
    /// danger row, a threshold) double every value exactly and make the same choices, so
    /// the search after one with the weights before meets the same fields: its values
    /// must be a new searcher's, to the bit, not a mix with the last search's.
    #[test]
    fn a_search_keeps_nothing_of_the_last_one() {
        let board = Board::from_text(&[
            "..##......",
            "#.####.##.",
            "########..",
            "#.#######.",
            "#########.",
            "####.####.",
        ]);
        let base = WeightSet::betatetris();
        let mut doubled = base;
        for bracket in [Bracket::Base, Bracket::Level19, Bracket::Level29] {
            let w = *base.get(bracket);
            let mut d = Weights::from_array(w.to_array().map(|x| 2.0 * x));
            d.danger_row = w.danger_row;
            // (The risk's weight is not among the tuned ones.)
            d.risk = 2.0 * w.risk;
            doubled.set(bracket, d);
        }
        let options = deep_options(SearchOptions::default().lookahead);
        for (level, lines) in [(18, [0x20, 0x01]), (29, [0x39, 0x02])] {
            let progress = Progress { level, lines };
            let start = Start::spawn(board, 2, level, Region::Ntsc);
            let values = |s: &mut Search| -> Vec<(u8, u8, u8, u32)> {
                s.rank(&start, Some(10), progress, 8)
                    .iter()
                    .chain(&s.rank(&start, None, progress, 8))
                    .map(|r| {
                        (
                            r.placement.o,
                            r.placement.x,
                            r.placement.y,
                            r.value.to_bits(),
                        )
                    })
                    .collect()
            };
            let mut reused = Search::new(base, InputModel::hz30());
            reused.options = options;
            let before = values(&mut reused);
            reused.weights = doubled;
            let mut fresh = Search::new(doubled, InputModel::hz30());
            fresh.options = options;
            let after = values(&mut fresh);
            assert_eq!(values(&mut reused), after, "level {level}");
            // The doubled weights did double every value (the test's premise).
            let twice: Vec<_> = before
                .iter()
                .map(|&(o, x, y, v)| (o, x, y, (2.0 * f32::from_bits(v)).to_bits()))
                .collect();
            assert_eq!(twice, after, "level {level}");
            // A recording pass's last ply on one field (as a deeper line's pass before
            // meets it): its value and its choice.
            let recorded = |s: &mut Search| {
                s.first_ply(&start, progress);
                let node = s.node(&board, progress);
                let next = s.spawn(board, 10, progress);
                s.tapes = vec![Vec::new()];
                s.tape = Tape::Record(0);
                let v = s.best_second_recorded(&next, &node, 0.25, 0);
                s.tape = Tape::Off;
                let chosen = s.tapes[0][0].best.map(|(c, b, p)| (c.to_bits(), b, p));
                (v.to_bits(), chosen)
            };
            let mut reused = Search::new(base, InputModel::hz30());
            recorded(&mut reused);
            reused.weights = doubled;
            let mut fresh = Search::new(doubled, InputModel::hz30());
            assert_eq!(recorded(&mut reused), recorded(&mut fresh), "level {level}");
        }
    }

    #[test]
    fn takes_the_tetris_when_it_is_there() {
        let board = Board::from_text(&["#########.", "#########.", "#########.", "#########."]);
        let start = Start::spawn(board, 18, 18, Region::Ntsc);
        let mut s = Search::new(Weights::default(), InputModel::hz30());
        let p = s
            .best(
                &start,
                2,
                Progress {
                    level: 18,
                    lines: [0, 0],
                },
            )
            .unwrap();
        assert_eq!((p.o, p.x, p.y), (17, 9, 18));
    }
}
