//! Move generation by real inputs: every place the current piece can lock, and the
//! per-frame buttons that put it there.
//!
//! The search runs over frame-boundary states of the piece (position, orientation,
//! `fallTimer`, `autorepeatX`, `autorepeatY`, buttons held) and advances them with
//! [`frame`], a line-by-line copy of the cartridge's shift, rotate and drop routines
//! (`CARTRIDGE.md` 5) on a [`Board`] instead of the whole [`Game`]. Edges are the input
//! model's moves ([`crate::inputs`]): one frame of waiting or releasing, or a tap frame
//! followed by the frames in which no new button may go down. States are deduplicated
//! on everything that decides their future, so the set of placements found is exactly
//! the set reachable under the model, and each comes with the inputs that reach it.
//!
//! States are expanded in the order of time within the fall (the first piece's
//! countdown, then row, then timer), which every move advances. That makes one shortcut
//! safe: a state that some other state reaches by one frame of doing nothing, without
//! the piece moving down, need not try its plain taps, because tapping a frame earlier
//! from that other state and then waiting reaches the same states. It cuts the moves
//! tried by more than half at level 18; [`MoveGen::exhaustive`] turns it off, and the
//! tests check that both find the same placements.
//!
//! Plain tapping from a piece with nothing held (every piece the AI and the placement
//! environment start from) has its own search (`tapping`): one pass over the frames of
//! the fall on bitboards of every orientation and column at once, the inputs found
//! afterwards by walking back. It finds the same placements, about 14 times faster.

mod tapping;

use crate::board::{Board, Collision};
use crate::inputs::InputModel;
use nestris_core::tables::{ORIENTATION_TYPE, ROTATE_A, ROTATE_B};
use nestris_core::{Buttons, Game, Region, Snapshot, Variant};

const R: u8 = Buttons::RIGHT.bits();
const L: u8 = Buttons::LEFT.bits();
const D: u8 = Buttons::DOWN.bits();
const A: u8 = Buttons::A.bits();
const B: u8 = Buttons::B.bits();
const DPAD: u8 = Buttons::DPAD.bits();

/// Frames of the first piece's countdown that the search can index (`autorepeatY` -128..-1).
const HANG: usize = 128;
/// Key classes of the held buttons outside the countdown: none, Down with autorepeatY
/// 0..=2, Left with autorepeatX 0..=16, Right with autorepeatX 0..=16.
const CLASSES: usize = 1 + 3 + 17 + 17;
/// Classes during the countdown (Down ends it, so only none, Left and Right).
const HANG_CLASSES: usize = 1 + 17 + 17;

/// Index of each orientation within its piece's orientations.
const ORIENT_INDEX: [u8; 20] = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 0, 0, 1, 0, 1, 2, 3, 0, 1, 0];
/// Distinct orientations per piece type T J Z O S L I.
const ORIENT_COUNT: [u8; 7] = [4, 4, 2, 1, 2, 4, 2];

/// The piece's variables between two frames, as the cartridge keeps them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct PieceState {
    /// `tetriminoX`.
    pub x: u8,
    /// `tetriminoY`.
    pub y: u8,
    /// `currentPiece`: orientation id.
    pub o: u8,
    /// `fallTimer` (kept at most at the gravity value, which behaves the same).
    pub ft: u8,
    /// `autorepeatX`.
    pub arx: u8,
    /// `autorepeatY`.
    pub ary: u8,
    /// Buttons held in the last frame.
    pub held: u8,
}

/// The constants of one piece's fall: gravity and the DAS limits of the region.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// Frames per row (1 from level 29).
    pub speed: u8,
    /// `DAS_RESET`.
    pub das_limit: u8,
    /// `DAS_DELAY`.
    pub das_repeat: u8,
    /// A variant's double killscreen (`nestris_core::CapRule::KsX2`): the drop routine
    /// runs three times a frame, the first two with the gravity timer full.
    pub double: bool,
}

impl Rules {
    /// The cartridge's rules at `level` in `region`.
    pub const fn new(region: Region, level: u8) -> Rules {
        Rules {
            speed: region.gravity(level),
            das_limit: region.das_limit(),
            das_repeat: region.das_repeat_start(),
            double: false,
        }
    }

    /// The rules at `level` with `lines` (BCD, as the cartridge keeps them) under
    /// `variant`'s line caps.
    pub fn with_variant(region: Region, level: u8, lines: [u8; 2], variant: &Variant) -> Rules {
        let (speed, double) = variant.gravity(region, level, lines);
        Rules {
            speed,
            double,
            ..Rules::new(region, level)
        }
    }
}

/// One frame of piece control with `buttons` held: the cartridge's shift, rotate and
/// drop. Returns true when the drop failed, i.e. the piece lands (`playState` 2).
#[inline(always)]
pub fn frame(board: &Collision, rules: &Rules, s: &mut PieceState, buttons: u8) -> bool {
    let pressed = buttons & !s.held;
    s.held = buttons;
    s.ft = s.ft.wrapping_add(1);
    // Shift.
    if buttons & D == 0 {
        let mut go = false;
        if pressed & (L | R) != 0 {
            s.arx = 0;
            go = true;
        } else if buttons & (L | R) != 0 {
            s.arx = s.arx.wrapping_add(1);
            if (s.arx.wrapping_sub(rules.das_limit) as i8) >= 0 {
                s.arx = rules.das_repeat;
                go = true;
            }
        }
        if go {
            let nx = if buttons & R != 0 {
                s.x.wrapping_add(1)
            } else {
                s.x.wrapping_sub(1)
            };
            if board.fits(s.o, nx, s.y) {
                s.x = nx;
            } else {
                s.arx = rules.das_limit;
            }
        }
    }
    // Rotate.
    let to = if pressed & A != 0 {
        ROTATE_A[s.o as usize]
    } else if pressed & B != 0 {
        ROTATE_B[s.o as usize]
    } else {
        s.o
    };
    if to != s.o && board.fits(to, s.x, s.y) {
        s.o = to;
    }
    if rules.double {
        // TetrisGYM's double killscreen: the whole drop routine twice with the timer
        // full, then its own pass; a landing stays a landing (the later passes fail the
        // same step down).
        s.ft = rules.speed;
        let mut landed = drop(board, rules, s, buttons, pressed);
        s.ft = rules.speed;
        landed |= drop(board, rules, s, buttons, pressed);
        landed | drop(board, rules, s, buttons, pressed)
    } else {
        drop(board, rules, s, buttons, pressed)
    }
}

/// One pass of the drop routine (`drop_tetrimino`). Returns true when the piece lands.
#[inline(always)]
fn drop(board: &Collision, rules: &Rules, s: &mut PieceState, buttons: u8, pressed: u8) -> bool {
    let mut soft = false;
    if s.ary & 0x80 != 0 {
        if pressed & D == 0 {
            s.ary = s.ary.wrapping_add(1);
            clamp_timer(rules, s);
            return false;
        }
        s.ary = 0;
    }
    if s.ary == 0 {
        if buttons & (L | R) == 0 && pressed & DPAD == D {
            s.ary = 1;
        }
    } else if buttons & DPAD == D {
        s.ary = s.ary.wrapping_add(1);
        if s.ary >= 3 {
            s.ary = 1;
            soft = true;
        }
    } else {
        s.ary = 0;
    }
    if !soft && (s.ft.wrapping_sub(rules.speed) as i8) < 0 {
        return false;
    }
    s.ft = 0;
    if board.fits(s.o, s.x, s.y.wrapping_add(1)) {
        s.y += 1;
        false
    } else {
        true
    }
}

/// A timer at or past the gravity value drops on the next gravity test whatever its
/// exact value (the test is `fallTimer - speed >= 0`, signed), so it is kept at the
/// gravity value; this is what makes the first piece's countdown a finite search.
#[inline(always)]
fn clamp_timer(rules: &Rules, s: &mut PieceState) {
    if (s.ft.wrapping_sub(rules.speed) as i8) >= 0 {
        s.ft = rules.speed;
    }
}

/// Where a piece search starts: the field, the piece and the rules of its fall.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Start {
    /// The field.
    pub board: Board,
    /// The piece now.
    pub piece: PieceState,
    /// Gravity and DAS.
    pub rules: Rules,
}

impl Start {
    /// A piece just spawned (x 5, row 0, nothing held) on `board`, at `level` under the
    /// cartridge's rules.
    pub fn spawn(board: Board, orientation: u8, level: u8, region: Region) -> Start {
        Start::spawn_with(board, orientation, Rules::new(region, level))
    }

    /// A piece just spawned (x 5, row 0, nothing held) on `board`, falling by `rules`.
    pub fn spawn_with(board: Board, orientation: u8, rules: Rules) -> Start {
        Start {
            board,
            piece: PieceState {
                x: 5,
                y: 0,
                o: orientation,
                ft: 0,
                arx: 0,
                ary: 0,
                held: 0,
            },
            rules,
        }
    }

    /// The state of `game` before its next frame, if that frame is one of piece control
    /// that the search can model (`playState` 1 in the normal frame, or the game's
    /// frame 0, and not holding Down+Left+Right, whose next frame skips the piece update).
    pub fn from_game(game: &Game) -> Option<Start> {
        Start::from_game_with(game, |s| Board::from_playfield(&s.playfield))
    }

    /// [`Start::from_game`] on `board`, which the caller knows to be the game's field
    /// (kept up to date from the pieces it placed): reading the field costs more than
    /// the rest of the start.
    pub fn from_game_on(game: &Game, board: Board) -> Option<Start> {
        Start::from_game_with(game, |_| board)
    }

    #[inline(always)]
    fn from_game_with(game: &Game, board: impl FnOnce(&Snapshot) -> Board) -> Option<Start> {
        let s = game.state();
        let normal_frame = s.game_mode_state == 2
            // Frame 0 of an A-type game finishes game init and then runs a normal frame;
            // a B-type one blanks rows first.
            || (s.game_mode_state == 1
                && s.game_type == 0
                && s.resume == nestris_core::Resume::GameInit { rows_left: 0 });
        if s.phase() != nestris_core::PlayState::Control
            || s.mode() != nestris_core::GameMode::Play
            || !s.play_screen_drawn()
            || !normal_frame
            || s.flow.nmi_off_frames != 0
            || s.piece >= 19
            || s.held == 7
        {
            return None;
        }
        let rules = Rules::with_variant(s.region, s.level, s.lines, &s.variant);
        let mut piece = PieceState {
            x: s.x,
            y: s.y,
            o: s.piece,
            ft: s.fall_timer,
            arx: s.autorepeat_x,
            ary: s.autorepeat_y,
            held: s.held,
        };
        clamp_timer(&rules, &mut piece);
        Some(Start {
            board: board(s),
            piece,
            rules,
        })
    }
}

/// What every step of one search shares.
struct Cx {
    board: Collision,
    rules: Rules,
    ft_states: usize,
    /// Taps in one cycle of the tap pattern: a state's place in it is part of its key.
    phases: usize,
}

/// One macro-move: a first frame, then `n_follow` frames of `follow`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Act {
    first: u8,
    follow: u8,
    n_follow: u8,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    st: PieceState,
    parent: u32,
    act: Act,
    /// Frames from the start of the search to this state.
    frames: u16,
    /// The next tap's place in the cycle of the tap pattern (the taps made, modulo its
    /// length).
    phase: u8,
    /// Reached from its parent by one frame that pressed and released nothing and did
    /// not move the piece down. Such a state's plain taps need not be tried: tapping
    /// one frame earlier, from the parent, and then waiting that frame gives the same
    /// shift and rotation on the same row and the same drops on the same frames, so it
    /// reaches the same states and landings (see `expand`).
    waited: bool,
    /// Its moves have been tried.
    expanded: bool,
}

/// A place where the piece can lock, and how to get the inputs that put it there.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Placement {
    /// Orientation id when it locks.
    pub o: u8,
    /// Pivot column.
    pub x: u8,
    /// Pivot row.
    pub y: u8,
    /// Frames from the start to the frame in which it lands (that frame included).
    pub frames: u16,
    /// The position overlaps the field: locking there ends the game.
    pub tops_out: bool,
    node: u32,
    act: Act,
    used: u8,
}

/// Reusable buffers of the move generator; one per thread.
///
/// Aligned to two cache lines: the search writes its own fields in its inner loop, and
/// move generators kept side by side (one per thread in a `Vec`) would otherwise share
/// a line and slow each other down by half.
#[derive(Clone, Debug, Default)]
#[repr(align(128))]
pub struct MoveGen {
    nodes: Vec<Node>,
    /// Per state key: the search generation in the high half, the node in the low.
    stamps: Vec<u64>,
    hang_stamps: Vec<u64>,
    placed: Vec<u32>,
    generation: u32,
    prefix: Vec<u8>,
    placements: Vec<Placement>,
    buckets: Vec<Vec<u32>>,
    /// The tapping search's sets of states per frame boundary, and what finding the
    /// inputs of its placements needs (`tapping`).
    taps: tapping::Taps,
    /// The tapping search's scratch: its working sets, the fall table and the landings.
    scratch: tapping::Scratch,
    /// The last search was the tapping one (placements refer to `taps`, not `nodes`).
    tapping: bool,
    /// States expanded in the last search (for benchmarks).
    pub expanded: usize,
    /// Moves simulated in the last search (for benchmarks).
    pub simulated: usize,
    /// Expand every state fully, without the waited-state shortcut (a slower reference
    /// for tests; the placements found are the same).
    pub exhaustive: bool,
    /// Never take the plain-tapping search (tests compare the two).
    general_only: bool,
}

impl MoveGen {
    /// Empty buffers; they grow on first use and are kept.
    pub fn new() -> MoveGen {
        MoveGen::default()
    }

    /// The placements found by the last [`MoveGen::generate`].
    pub fn placements(&self) -> &[Placement] {
        &self.placements
    }

    /// Moves the placements found by the last [`MoveGen::generate`] into `into`
    /// (exchanging buffers, no copy: `into`'s old one is the generator's next, emptied),
    /// for a caller that keeps them while the generator makes other searches.
    pub fn take_placements(&mut self, into: &mut Vec<Placement>) {
        std::mem::swap(&mut self.placements, into);
        self.placements.clear();
    }

    fn next_generation(&mut self) {
        if self.placed.is_empty() {
            self.placed.resize(19 * 21 * 10, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamps.fill(0);
            self.hang_stamps.fill(0);
            self.placed.fill(0);
            self.generation = 1;
        }
    }

    /// Enumerates every placement reachable from `start` under `model`.
    pub fn generate(&mut self, start: &Start, model: &InputModel) -> &[Placement] {
        let rules = start.rules;
        let ft_states = rules.speed as usize + 1;
        self.placements.clear();
        self.prefix.clear();
        self.expanded = 0;
        self.simulated = 0;
        // The reaction frames and the frames before the pattern's first tap press nothing.
        let wait = model.reaction as usize + model.taps.first() as usize;
        // Plain tapping from a piece with nothing held (every piece the AI and the
        // placement environment start from) has its own search.
        let tapping = |st: &PieceState| {
            !model.das
                && !model.soft_drop
                && !rules.double
                && st.held == 0
                && (st.ary == 0 || st.ary & 0x80 != 0)
                && (st.ft as usize) < ft_states
                && st.x < 10
                && st.y < 21
        };
        self.tapping = !self.exhaustive && !self.general_only;
        if self.tapping && wait == 0 && tapping(&start.piece) {
            self.generate_taps(&start.board, &rules, &model.taps, start.piece);
            return &self.placements;
        }
        self.next_generation();
        self.nodes.clear();
        let cx = Cx {
            board: Collision::new(&start.board),
            rules,
            ft_states,
            phases: model.taps.len(),
        };
        let board = &cx.board;

        // Reaction time: frames of nothing, the same for every placement.
        let mut st = start.piece;
        for i in 0..wait {
            self.prefix.push(0);
            if frame(board, &rules, &mut st, 0) {
                self.tapping = false;
                self.record(st, u32::MAX, Act::default(), 0, i as u16 + 1);
                self.placements[0].tops_out = !start.board.fits(st.o, st.x, st.y);
                return &self.placements;
            }
        }
        self.tapping &= tapping(&st);
        if self.tapping {
            self.generate_taps(&start.board, &rules, &model.taps, st);
            return &self.placements;
        }
        self.generate_general(&cx, model, st);
        for p in &mut self.placements {
            p.tops_out = !cx.board.fits(p.o, p.x, p.y);
        }
        &self.placements
    }

    /// The search for every input model and start: from `st` (after the reaction
    /// frames).
    fn generate_general(&mut self, cx: &Cx, model: &InputModel, st: PieceState) {
        let ft_states = cx.ft_states;
        // Its visited tables (the tapping search keeps its own), stamped with the
        // generation, so that they are never cleared between searches.
        let states = CLASSES * 4 * 21 * 10 * ft_states * cx.phases;
        if self.stamps.len() < states {
            self.stamps.resize(states, 0);
        }
        let hang_states = HANG * HANG_CLASSES * 40 * cx.phases;
        if self.hang_stamps.len() < hang_states {
            self.hang_stamps.resize(hang_states, 0);
        }
        self.nodes.push(Node {
            st,
            parent: u32::MAX,
            act: Act::default(),
            frames: self.prefix.len() as u16,
            phase: 0,
            waited: false,
            expanded: false,
        });
        let rots: &[u8] = match ORIENT_COUNT[ORIENTATION_TYPE[st.o as usize] as usize] {
            1 => &[0],
            2 => &[0, A],
            _ => &[0, A, B],
        };
        if let Some(k) = key(&st, ft_states, 0, cx.phases) {
            self.mark(k, self.generation, 0);
        }
        // States in order of time within the piece's fall (countdown, then row and
        // timer): every move goes forward in it, so when a state is expanded, every
        // state that can wait into it already has, and its `waited` mark is final.
        let ticks = HANG + 21 * ft_states;
        if self.buckets.len() < ticks {
            self.buckets.resize_with(ticks, Vec::new);
        }
        for b in &mut self.buckets[..ticks] {
            b.clear();
        }
        self.buckets[tick(&st, ft_states)].push(0);
        for t in 0..ticks {
            let mut j = 0;
            while j < self.buckets[t].len() {
                let i = self.buckets[t][j] as usize;
                j += 1;
                self.expand(i, cx, model, rots);
            }
        }
    }

    /// Tries every move of the input model from node `i`.
    #[inline(always)]
    fn expand(&mut self, i: usize, cx: &Cx, model: &InputModel, rots: &[u8]) {
        let holdable = if model.das { D | L | R } else { D };
        {
            self.nodes[i].expanded = true;
            let node = self.nodes[i];
            self.expanded += 1;
            // The frames this tap holds the next one off, and the place of the next.
            let gap = model.taps.gap(node.phase as usize);
            let next_phase = ((node.phase as usize + 1) % cx.phases) as u8;
            let cur = node.st;
            let hold = cur.held & holdable;
            let bases: &[u8] = if hold == 0 { &[0] } else { &[hold, 0] };
            for &base in bases {
                // One frame of waiting (or of letting a held button go).
                self.push_act(
                    cx,
                    i as u32,
                    &node,
                    Act {
                        first: base,
                        follow: 0,
                        n_follow: 0,
                    },
                    node.phase,
                    base == cur.held,
                );
                let shifts: &[u8] = if base & (D | L | R) == 0 {
                    &[0, L, R]
                } else {
                    &[0]
                };
                for &sh in shifts {
                    for &rot in rots {
                        let downs: &[u8] = if model.soft_drop && sh == 0 && base & (D | L | R) == 0
                        {
                            &[0, D]
                        } else {
                            &[0]
                        };
                        for &dn in downs {
                            let tap = sh | rot | dn;
                            // A button held last frame cannot go down again now.
                            if tap == 0 || tap & cur.held != 0 {
                                continue;
                            }
                            let first = base | tap;
                            let keep = base | dn;
                            let n_follow = gap - 1;
                            // Pressing Down starts the soft-drop count on this frame, so
                            // it is not the same one frame earlier: always tried.
                            if !node.waited || dn != 0 || self.exhaustive {
                                self.push_act(
                                    cx,
                                    i as u32,
                                    &node,
                                    Act {
                                        first,
                                        follow: keep,
                                        n_follow,
                                    },
                                    next_phase,
                                    false,
                                );
                            }
                            if model.das && sh != 0 {
                                self.push_act(
                                    cx,
                                    i as u32,
                                    &node,
                                    Act {
                                        first,
                                        follow: keep | sh,
                                        n_follow,
                                    },
                                    next_phase,
                                    false,
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// Records state `k` as node `idx`; if it was already reached, returns its node.
    #[inline(always)]
    fn mark(&mut self, k: Key, gen: u32, idx: u32) -> Option<u32> {
        let slot = match k {
            Key::Normal(k) => &mut self.stamps[k],
            Key::Hang(k) => &mut self.hang_stamps[k],
        };
        if (*slot >> 32) as u32 == gen {
            Some(*slot as u32)
        } else {
            *slot = (gen as u64) << 32 | idx as u64;
            None
        }
    }

    #[inline(always)]
    fn push_act(
        &mut self,
        cx: &Cx,
        parent: u32,
        node: &Node,
        act: Act,
        phase: u8,
        pure_wait: bool,
    ) {
        let (board, rules, ft_states) = (&cx.board, &cx.rules, cx.ft_states);
        self.simulated += 1;
        let mut st = node.st;
        if frame(board, rules, &mut st, act.first) {
            self.record(st, parent, act, 1, node.frames + 1);
            return;
        }
        for f in 0..act.n_follow {
            if frame(board, rules, &mut st, act.follow) {
                self.record(st, parent, act, f + 2, node.frames + f as u16 + 2);
                return;
            }
        }
        let gen = self.generation;
        // A state the tables cannot index (only from unusual starting states) is
        // searched without deduplication; that stays finite since every frame moves the
        // piece on towards its lock or counts down the first piece's wait.
        let waited = pure_wait && st.y == node.st.y;
        if let Some(k) = key(&st, ft_states, phase, cx.phases) {
            if let Some(seen) = self.mark(k, gen, self.nodes.len() as u32) {
                // Reached before by another route but also by waiting from here: its
                // plain taps are covered by this state's, if it has not been expanded yet.
                let seen = &mut self.nodes[seen as usize];
                if waited && !seen.expanded {
                    seen.waited = true;
                }
                return;
            }
        }
        self.buckets[tick(&st, ft_states)].push(self.nodes.len() as u32);
        self.nodes.push(Node {
            st,
            parent,
            act,
            frames: node.frames + 1 + act.n_follow as u16,
            phase,
            waited,
            expanded: false,
        });
    }

    #[inline(always)]
    fn record(&mut self, st: PieceState, node: u32, act: Act, used: u8, frames: u16) {
        let k = st.o as usize * 210 + st.y as usize * 10 + st.x as usize;
        if self.placed[k] == self.generation {
            return;
        }
        self.placed[k] = self.generation;
        self.placements.push(Placement {
            o: st.o,
            x: st.x,
            y: st.y,
            frames,
            tops_out: false,
            node,
            act,
            used,
        });
    }

    /// The per-frame buttons from the start to the landing frame of `p` (a placement
    /// of the last search).
    pub fn inputs(&self, p: &Placement) -> Vec<Buttons> {
        let mut out = Vec::new();
        self.inputs_into(p, &mut out);
        out.into_iter().map(Buttons).collect()
    }

    /// Whether the last search was the plain-tapping one, whose placements come in the
    /// order of orientation, column and row.
    pub fn tapping(&self) -> bool {
        self.tapping
    }

    /// Hands the record of the last search to `trace` (exchanging buffers, no copy) if
    /// it was the plain-tapping one, so that `trace` finds its placements' inputs later;
    /// the placements are then no longer this generator's (they are cleared). Returns
    /// false, and keeps everything, for the other searches: their inputs are found here.
    pub fn keep_trace(&mut self, trace: &mut Trace) -> bool {
        if !self.tapping {
            return false;
        }
        std::mem::swap(&mut self.taps, &mut trace.taps);
        std::mem::swap(&mut self.prefix, &mut trace.prefix);
        self.tapping = false;
        self.placements.clear();
        true
    }

    /// [`MoveGen::inputs`] as button bits appended to `out`, without allocating when
    /// `out` has room: for callers that keep the inputs of every placement.
    pub fn inputs_into(&self, p: &Placement, out: &mut Vec<u8>) {
        let base = out.len();
        if p.node == u32::MAX {
            // Landed during the reaction frames.
            out.extend_from_slice(&self.prefix[..p.frames as usize]);
            return;
        }
        if self.tapping {
            self.taps.inputs_into(&self.prefix, p, out);
            return;
        }
        // The path is walked from the landing back to the root, so the buttons are
        // written from the end: first the length, then the frames.
        let a = p.act;
        let mut len = self.prefix.len() + p.used as usize;
        let mut n = p.node;
        while n != u32::MAX {
            let node = &self.nodes[n as usize];
            if node.parent != u32::MAX {
                len += 1 + node.act.n_follow as usize;
            }
            n = node.parent;
        }
        out.resize(base + len, 0);
        let buf = &mut out[base..];
        buf[..self.prefix.len()].copy_from_slice(&self.prefix);
        let mut end = len;
        for f in (0..p.used).rev() {
            end -= 1;
            buf[end] = if f == 0 { a.first } else { a.follow };
        }
        let mut n = p.node;
        while n != u32::MAX {
            let node = &self.nodes[n as usize];
            if node.parent != u32::MAX {
                let k = node.act.n_follow as usize;
                buf[end - k..end].fill(node.act.follow);
                end -= k + 1;
                buf[end] = node.act.first;
            }
            n = node.parent;
        }
        debug_assert_eq!(end, self.prefix.len());
    }
}

/// The record of a plain-tapping search, kept apart from its generator: it finds the
/// inputs of that search's placements after the generator has made other searches
/// (a caller that needs the inputs of one placement of many then finds only those).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    taps: tapping::Taps,
    prefix: Vec<u8>,
}

impl Trace {
    /// [`MoveGen::inputs_into`] for a placement of the search given by
    /// [`MoveGen::keep_trace`].
    pub fn inputs_into(&self, p: &Placement, out: &mut Vec<u8>) {
        self.taps.inputs_into(&self.prefix, p, out);
    }
}

/// A state's place in time: countdown frames first, then (row, timer).
#[inline(always)]
fn tick(s: &PieceState, ft_states: usize) -> usize {
    if s.ary & 0x80 != 0 {
        s.ary as usize - 128
    } else {
        HANG + (s.y as usize).min(20) * ft_states + (s.ft as usize).min(ft_states - 1)
    }
}

#[derive(Clone, Copy)]
enum Key {
    Normal(usize),
    Hang(usize),
}

/// Everything that decides a state's future, as an index into the visited tables: the
/// piece's variables and, under a tap pattern of several gaps, the next tap's place in it.
#[inline(always)]
fn key(s: &PieceState, ft_states: usize, phase: u8, phases: usize) -> Option<Key> {
    let oi = ORIENT_INDEX[s.o as usize] as usize;
    let held = s.held & (D | L | R);
    if s.held & (A | B) != 0 || s.x >= 10 || s.y >= 21 {
        return None;
    }
    if s.ary & 0x80 != 0 {
        // During the countdown the timer only counts up with it and y cannot change,
        // so the countdown value stands for both.
        let cls = match held {
            0 => 0,
            L => 1 + s.arx as usize,
            R => 18 + s.arx as usize,
            _ => return None,
        };
        if s.arx > 16 {
            return None;
        }
        let t = s.ary as usize - 128;
        return Some(Key::Hang(
            (((t * HANG_CLASSES + cls) * 4 + oi) * 10 + s.x as usize) * phases + phase as usize,
        ));
    }
    let cls = match held {
        0 => {
            // autorepeatY is 0 whenever Down is not held (the drop routine clears it).
            if s.ary != 0 {
                return None;
            }
            0
        }
        D => {
            if s.ary > 2 {
                return None;
            }
            1 + s.ary as usize
        }
        L | R if s.arx <= 16 => (if held == L { 4 } else { 21 }) + s.arx as usize,
        _ => return None,
    };
    // autorepeatX only matters while a direction stays held (a new press resets it).
    let ft = s.ft as usize;
    if ft >= ft_states {
        return None;
    }
    Some(Key::Normal(
        // The class is outermost so that the common one (nothing held) stays in a few
        // kilobytes of the table.
        ((((cls * 4 + oi) * 21 + s.y as usize) * 10 + s.x as usize) * ft_states + ft) * phases
            + phase as usize,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::GameSetup;

    /// `frame` against `Game::step` on one scripted sequence (DAS, rotation, soft drop).
    #[test]
    fn frame_follows_the_engine() {
        let mut game = Game::new(GameSetup {
            level: 18,
            ..GameSetup::default()
        });
        let start = Start::from_game(&game).unwrap();
        let coll = Collision::new(&start.board);
        let mut st = start.piece;
        let script: Vec<u8> = [R; 20]
            .into_iter()
            .chain([0, A, 0, B, A | L, L, L, 0, D, D, D, D, D, D, 0, 0])
            .chain([0; 100])
            .collect();
        for (i, &b) in script.iter().enumerate() {
            let landed = frame(&coll, &start.rules, &mut st, b);
            game.step(Buttons(b));
            let s = game.state();
            assert_eq!((st.x, st.y, st.o), (s.x, s.y, s.piece), "frame {i}");
            assert_eq!(
                (st.arx, st.ary),
                (s.autorepeat_x, s.autorepeat_y),
                "frame {i}"
            );
            assert_eq!(
                landed,
                s.phase() == nestris_core::PlayState::Lock,
                "frame {i}"
            );
            if landed {
                return;
            }
        }
        panic!("never landed");
    }

    #[test]
    fn held_left_moves_on_frames_0_16_22_28() {
        let start = Start::spawn(Board::empty(), 2, 0, Region::Ntsc);
        let coll = Collision::new(&start.board);
        let mut st = start.piece;
        let mut moves = Vec::new();
        for f in 0..30 {
            let x = st.x;
            frame(&coll, &start.rules, &mut st, L);
            if st.x != x {
                moves.push(f);
            }
        }
        assert_eq!(moves, [0, 16, 22, 28]);
    }

    /// A xorshift generator for the randomized tests.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// A start of the plain-tapping search on `board`: up to three reaction frames, the
    /// gravity timer anywhere within the speed, and in one start of `countdown` the first
    /// piece's countdown (-96 at spawn).
    fn tapping_case(
        next: &mut impl FnMut() -> u64,
        board: Board,
        level: u8,
        piece: u8,
        taps: crate::TapPattern,
        countdown: u64,
    ) -> (Start, InputModel) {
        let model = InputModel {
            taps,
            das: false,
            reaction: (next() % 4) as u8,
            soft_drop: false,
        };
        let mut start = Start::spawn(board, piece, level, Region::Ntsc);
        start.piece.ft = (next() % (start.rules.speed as u64 + 1)) as u8;
        if next() % countdown == 0 {
            start.piece.ary = 0xA0 + (next() % 96) as u8;
        }
        (start, model)
    }

    /// The plain-tapping search against the general one: the same placements, and
    /// inputs that obey the model and land each piece where and when it says.
    #[test]
    fn the_tapping_search_is_the_general_one() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let (mut fast, mut general) = (MoveGen::new(), MoveGen::new());
        general.general_only = true;
        let mut compared = 0;
        for _ in 0..300 {
            let mut board = Board::empty();
            let heights: Vec<u64> = (0..10).map(|_| next() % 14).collect();
            for (c, &h) in heights.iter().enumerate() {
                for k in 0..h as usize {
                    if next() % 6 != 0 || k + 1 == h as usize {
                        board.set(19 - k, c);
                    }
                }
            }
            let level = [0u8, 8, 15, 18, 19, 28, 29, 39][(next() % 8) as usize];
            let piece = [2u8, 7, 8, 10, 11, 14, 18][(next() % 7) as usize];
            // Half fixed intervals, half patterns of up to three gaps and a late first tap.
            let taps = if next() % 2 == 0 {
                crate::TapPattern::every(2 + (next() % 4) as u8)
            } else {
                let mut text = ".".repeat((next() % 3) as usize);
                for _ in 0..1 + next() % 3 {
                    text.push('X');
                    text.push_str(&".".repeat(1 + (next() % 4) as usize));
                }
                crate::TapPattern::parse(&text).unwrap()
            };
            let (start, model) = tapping_case(&mut next, board, level, piece, taps, 3);
            fast.generate(&start, &model);
            assert!(fast.tapping);
            general.generate(&start, &model);
            let spots = |mg: &MoveGen| {
                let mut v: Vec<_> = mg
                    .placements()
                    .iter()
                    .map(|p| (p.o, p.x, p.y, p.tops_out))
                    .collect();
                v.sort_unstable();
                v
            };
            assert_eq!(spots(&fast), spots(&general), "{board:?} {model:?}");
            let coll = Collision::new(&start.board);
            for p in fast.placements() {
                // The inputs land the piece there, in the frame the placement says.
                let inputs = fast.inputs(p);
                assert_eq!(inputs.len(), p.frames as usize, "{p:?}");
                let mut st = start.piece;
                let landed = inputs
                    .iter()
                    .position(|b| frame(&coll, &start.rules, &mut st, b.bits()));
                assert_eq!(landed, Some(inputs.len() - 1), "{p:?} {inputs:?}");
                assert_eq!((st.o, st.x, st.y), (p.o, p.x, p.y), "{p:?} {inputs:?}");
                // Each tap presses its buttons on one frame, where the pattern allows.
                let bits: Vec<u8> = inputs.iter().map(|b| b.bits()).collect();
                assert_eq!(
                    crate::TapClock::check(model.taps, model.reaction, 0, &bits),
                    Ok(()),
                    "{:?} {inputs:?}",
                    model.taps
                );
            }
            compared += fast.placements().len();
        }
        assert!(compared > 3000);
    }

    /// Passing the open rows in one go, and taking the first boundaries from an earlier
    /// search's opening, change nothing the tapping search gives: the same placements
    /// (frames and where their inputs are found included) and inputs.
    #[test]
    fn the_open_rows_pass_changes_nothing() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let (mut fast, mut plain) = (MoveGen::new(), MoveGen::new());
        plain.taps.skip_open = false;
        let (mut passed, mut replayed, mut compared) = (0, 0, 0);
        // Low stacks and high ones, so that the open rows are many or few.
        let stack = |next: &mut dyn FnMut() -> u64| {
            let mut board = Board::empty();
            let top = 1 + next() % 19;
            for c in 0..10 {
                let h = next() % (top + 1);
                for k in 0..h as usize {
                    if next() % 5 != 0 || k + 1 == h as usize {
                        board.set(19 - k, c);
                    }
                }
            }
            board
        };
        for _ in 0..2000 {
            let board = stack(&mut next);
            let level = [0u8, 5, 9, 15, 18, 19, 28, 29][(next() % 8) as usize];
            let piece = [2u8, 7, 8, 10, 11, 14, 18][(next() % 7) as usize];
            let taps = if next() % 4 != 0 {
                crate::TapPattern::every(2 + (next() % 5) as u8)
            } else {
                crate::TapPattern::parse("X.X..").unwrap()
            };
            let (start, model) = tapping_case(&mut next, board, level, piece, taps, 4);
            // Half the cases first search from the same start on another stack, so that
            // the case's search starts with that one's opening, or with its own for a
            // taller stack than that one's.
            if next() % 2 == 0 {
                let other = Start {
                    board: stack(&mut next),
                    ..start
                };
                fast.generate(&other, &model);
            }
            fast.generate(&start, &model);
            plain.generate(&start, &model);
            // (A piece that lands in the reaction frames has no tapping search.)
            assert_eq!(fast.tapping, plain.tapping);
            assert_eq!(fast.placements(), plain.placements(), "{board:?} {model:?}");
            if fast.tapping {
                assert_eq!(fast.taps.sets, plain.taps.sets, "{board:?} {model:?}");
            }
            for p in fast.placements() {
                assert_eq!(fast.inputs(p), plain.inputs(p), "{p:?}");
            }
            assert_eq!((plain.taps.passed, plain.taps.replayed), (0, 0));
            passed += fast.taps.passed;
            replayed += fast.taps.replayed;
            compared += fast.placements().len();
        }
        assert!(
            compared > 20_000 && passed > 500 && replayed > 500,
            "{compared} {passed} {replayed}"
        );
    }

    #[test]
    fn an_empty_field_has_every_drop_spot() {
        let mut mg = MoveGen::new();
        for (piece, spots) in [(2u8, 34), (10, 9), (18, 17)] {
            let start = Start::spawn(Board::empty(), piece, 18, Region::Ntsc);
            assert_eq!(mg.generate(&start, &InputModel::hz30()).len(), spots);
        }
    }

    /// `inputs_into` appends each placement's buttons after what the buffer holds, for
    /// both searches and for a landing during the reaction frames.
    #[test]
    fn inputs_are_appended() {
        let mut mg = MoveGen::new();
        let mut start = Start::spawn(Board::empty(), 18, 29, Region::Ntsc);
        for (model, tapping) in [
            (InputModel::hz30(), true),
            (
                InputModel {
                    das: true,
                    ..InputModel::hz30()
                },
                false,
            ),
            (
                InputModel {
                    reaction: 30,
                    ..InputModel::hz30()
                },
                false,
            ),
        ] {
            start.piece.y = if model.reaction > 0 { 15 } else { 0 };
            mg.generate(&start, &model);
            assert_eq!(mg.tapping, tapping);
            let mut out = vec![0xEE];
            for p in mg.placements().to_vec() {
                let before = out.len();
                mg.inputs_into(&p, &mut out);
                let expected: Vec<u8> = mg.inputs(&p).iter().map(|b| b.bits()).collect();
                assert_eq!(&out[before..], &expected[..]);
                assert_eq!(expected.len(), p.frames as usize);
            }
            assert_eq!(out[0], 0xEE);
        }
    }
}
