//! The plain-tapping search: every placement of a piece under tapping alone (no DAS, no
//! soft drop, nothing held at the start), found with one pass over the frames of its
//! fall on bitboards of every orientation and column at once.
//!
//! Without Down, the gravity timer and `autorepeatY` run the same whatever is tapped,
//! so the frames in which the piece tries to drop are known before the search, and all
//! the states alive between two frames share one row. A state is then its orientation
//! and column: one bit of a `u64` with a 16-bit lane per orientation (columns in bits
//! 0..10 of each). Where each orientation fits on each row is the same kind of word
//! ([`fit_rows`]). A tap is a shift (one bit shift, kept where the piece fits, the
//! blocked columns staying) and a rotation (a lane rotation, likewise kept where the
//! turned piece fits); both act on each bit alone, so the union of every tap from a set
//! is a handful of word operations, and a drop keeps the bits whose row below is free and
//! lands the others.
//!
//! Each frame boundary keeps its set of states, one per place in the tap pattern's cycle
//! (the next tap's gap; a fixed interval has one). A tap from place k moves the states
//! to place k + 1, `gap(k)` frames later; waiting keeps the place. The inputs of a
//! placement are not kept while searching but found afterwards (`Taps::inputs_into`):
//! walking back from its landing, a state that was already there a frame earlier is
//! reached by waiting, otherwise by a tap from the place before, that place's gap
//! earlier, from a state of that boundary, found by trying the taps on the few states
//! that could have made it.
//!
//! A fixed interval's search from a start seen before takes its first boundaries, those on
//! the rows where only the walls are in the way, from the last such search's record
//! ([`Opening`]): the taps spreading the piece from the spawn are the same on any stack
//! that leaves those rows clear.
//!
//! The search makes the same moves as the general one (a frame of waiting, or a tap
//! frame and the frames after it in which no button may go down) and uses the same
//! shortcut (a state reached by a frame of waiting without dropping needs no taps of its
//! own: tapping a frame earlier from where it was covers them), so it finds the same
//! placements (in the order of orientation, column and row); the inputs may be another
//! way to reach one.

use super::{Act, MoveGen, PieceState, Placement, Rules, A, B, L, ORIENT_INDEX, R};
use crate::board::Board;
use crate::taps::{TapPattern, MAX_TAPS};
use nestris_core::tables::{ORIENTATION_CELLS, ROTATE_A};

/// The ten column bits of one orientation lane.
const LANE: u64 = 0x3FF;
/// Rows of a fit table: the pivot rows 0..=20, and from 21 on rows where nothing fits (a
/// drop from row 20 or a test one row further). A power of two, so that a row masked
/// with `FIT_ROWS - 1` needs no bounds check.
const FIT_ROWS: usize = 32;
/// Frame boundaries the fall table holds: a power of two above the longest fall (21 rows
/// of at most 256 frames, the first piece's countdown of at most 128, a gap of at most
/// 255 after the last), indexed masked as the fit rows are.
const FALL_FRAMES: usize = 8192;
/// Slots of the sets the search is working on, a ring indexed by boundary and place
/// masked with `RING - 1`: a power of two above the boundaries a tap reaches ahead
/// (`(longest gap + 1) * places`: 256 for one place, at most 65 * 8 for more, as a
/// pattern string is at most 64 frames).
pub(super) const RING: usize = 1024;
/// The gravity (frames a row) from which a fixed interval's search passes the stretches of
/// a row with nothing new in one go (below it the test costs more than it saves).
const LONG_ROWS: u8 = 5;
/// The most boundaries a search's opening (see [`Opening`]) keeps, and the longest gap
/// it is kept for (its snapshots hold that many slots of the ring).
const OPENING_BOUNDARIES: usize = 48;
const OPENING_GAP: usize = 8;
/// A placement's `node` for a tap landing: the boundary in the low 16 bits, the place in
/// the pattern from `PHASE_SHIFT` on, and this flag.
const TAPPED: u32 = 1 << 31;
/// Where a placement's `node` keeps the place in the pattern it was made from.
const PHASE_SHIFT: u32 = 24;

/// The columns where each of the piece's orientations fits, per pivot row, as lanes of
/// 16 bits: bit `16 * i + x` is set when orientation `ids[i]` fits with its pivot at
/// column x. The same test as `Board::fits`, made on all columns at once: a cell `dc`
/// columns from the pivot, on a row whose column c is bit `c + 3`, blocks pivot column x
/// when bit `x + dc + 3` is set, i.e. bit x of the row shifted right by `dc + 3` (the
/// walls in the row's outer bits block the pivots that would leave the field).
fn fit_rows(board: &Board, ids: &[u8; 4], n: usize, fit: &mut [u64; FIT_ROWS]) {
    // The board's rows in a table past the floor (whose rows block as it does), long
    // enough for every cell's 24 rows below.
    let mut rows = [u16::MAX; 32];
    rows[..board.rows.len()].copy_from_slice(&board.rows);
    // Each lane on its own first, 24 rows of 16 bits (three vector registers' worth, so
    // that the loop has a fixed count and runs eight rows an instruction), then the
    // lanes side by side in the table's words. Every row is made, those above the start
    // and the stack included: passing them would cost more than it saves.
    let mut lanes = [[0u16; 24]; 4];
    for (lane, &o) in lanes.iter_mut().zip(ids).take(n) {
        let cells = &ORIENTATION_CELLS[o as usize];
        let shift = [0, 1, 2, 3].map(|k| (cells[k].1 + 3) as u32);
        // A cell is at most five rows below the row above the pivot's.
        let cell = |k: usize| -> &[u16; 24] {
            rows[(cells[k].0 + 2) as usize..][..24]
                .try_into()
                .expect("24")
        };
        let (r0, r1, r2, r3) = (cell(0), cell(1), cell(2), cell(3));
        for y in 0..24 {
            let blocked = (r0[y] >> shift[0])
                | (r1[y] >> shift[1])
                | (r2[y] >> shift[2])
                | (r3[y] >> shift[3]);
            lane[y] = !blocked & LANE as u16;
        }
    }
    let (pivots, below) = fit.split_at_mut(24);
    for (y, f) in pivots.iter_mut().enumerate() {
        *f = u64::from(lanes[0][y])
            | u64::from(lanes[1][y]) << 16
            | u64::from(lanes[2][y]) << 32
            | u64::from(lanes[3][y]) << 48;
    }
    // Nothing fits with its pivot past row 20 (the rows past the floor block).
    below.fill(0);
    debug_assert!(pivots[21..].iter().all(|&f| f == 0));
}

/// The shapes of lane permutation a rotation can be: one orientation (none), two (A
/// and B both swap the lanes) or four (A is the next lane, B the one before).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Turns {
    One,
    Two,
    Four,
}

/// Where A (or, with `b`, B) turns each lane's states.
#[inline(always)]
fn turn(p: u64, kind: Turns, b: bool) -> u64 {
    match kind {
        Turns::One => p,
        Turns::Two => (p & 0xFFFF) << 16 | (p >> 16 & 0xFFFF),
        Turns::Four if b => p.rotate_right(16),
        Turns::Four => p.rotate_left(16),
    }
}

/// The lane each lane's states come from under the same rotation.
#[inline(always)]
fn unturn(p: u64, kind: Turns, b: bool) -> u64 {
    turn(p, kind, !b)
}

/// Right (`dx` 1) or left (-1) shift of the states `p` on a row where `free` fits: the
/// states whose neighbour fits move there, the others stay. Bits never cross lanes: a
/// column's bit shifted out of its lane lands on a bit that `free` never has.
#[inline(always)]
fn shift(p: u64, free: u64, dx: i8) -> u64 {
    match dx {
        1 => (p << 1) & free | p & !(free >> 1),
        -1 => (p >> 1) & free | p & !(free << 1),
        _ => p,
    }
}

/// Rotation of the states `p` by A (or B) on a row where `free` fits: where the turned
/// piece fits it turns, elsewhere it stays.
#[inline(always)]
fn rotate(p: u64, free: u64, kind: Turns, b: bool) -> u64 {
    turn(p, kind, b) & free | p & !unturn(free, kind, b)
}

/// One tap from the states `p`: the shift, then the rotation (`rot` 0, A or B).
#[inline(always)]
fn tap(p: u64, free: u64, kind: Turns, dx: i8, rot: u8) -> u64 {
    let q = shift(p, free, dx);
    if rot == 0 {
        q
    } else {
        rotate(q, free, kind, rot == B)
    }
}

/// What one search of the tapping kind keeps for finding its placements' inputs: a
/// trace takes it (a placement environment keeps one per game), so it holds only what
/// walking back reads, a few hundred bytes; the search's tables stay in [`Scratch`].
#[derive(Clone, Debug)]
pub(super) struct Taps {
    /// Per frame boundary from the start and place in the pattern (`f * phases + k`): the
    /// states alive, up to the last boundary with any.
    pub(super) sets: Vec<u64>,
    /// Per frame boundary: the row the alive states are on (the fall table's first
    /// boundaries, to the last any tap reaches).
    rows: Vec<u8>,
    /// Where each orientation fits, per row.
    fit: [u64; FIT_ROWS],
    /// Orientation ids by lane.
    ids: [u8; 4],
    kind: Turns,
    /// The taps offered: shift and rotation.
    taps: [(i8, u8); 8],
    n_taps: usize,
    /// The pattern's gaps, and how many (its places).
    gaps: [u8; MAX_TAPS],
    phases: usize,
    /// The start's bit.
    root: u64,
    /// Whether the search passes the open rows in one go (off only to test that it
    /// changes nothing).
    pub(super) skip_open: bool,
    /// Boundaries the last search passed that way.
    pub(super) passed: usize,
    /// Boundaries the last search took from the opening of an earlier one.
    pub(super) replayed: usize,
}

/// What a fall table is made from: the start's row, gravity timer and countdown, the
/// speed and the pattern's longest gap.
type FallKey = (u8, u8, u8, u8, u8);

/// The tapping search's scratch, kept by the generator (not by a search's record, which
/// [`Taps`] is, and a trace takes): the sets of states being worked on, by boundary and
/// place, a ring (see [`RING`]), all zero between searches; the fall table; the landings.
/// Kept in one place, these tables stay in the cache however many games share the
/// generator.
#[derive(Clone, Debug)]
pub(super) struct Scratch {
    /// The states alive.
    sets: Box<[u64; RING]>,
    /// The states reached by a frame of waiting in which the piece did not move down.
    waited: Box<[u64; RING]>,
    /// Per frame boundary: the row the alive states are on (`rows_len` of them; the
    /// table is [`FALL_FRAMES`] long once a search has run).
    rows: Vec<u8>,
    rows_len: usize,
    /// Per row: the first boundary the alive states are on it or below (`rows_len` for
    /// the rows the fall never reaches).
    row_start: [u16; 23],
    /// What `rows` was made from (the same for most searches: a game's pieces mostly
    /// start alike).
    fall: Option<FallKey>,
    /// Per state bit: the rows it landed on (bit per row).
    landed_rows: Box<[u32; 64]>,
    /// Per state bit and row it landed on: the landing's frame, the boundary it was
    /// made from (bits 16..32) and whether by a tap (bit 32). 64 long once a search has
    /// run.
    landings: Vec<[u64; FIT_ROWS]>,
    /// Per orientation of the start (the piece's spawn one, mostly), and whether in the
    /// first piece's countdown: the last opening seen from it.
    openings: Vec<Opening>,
}

/// The first boundaries of a fixed interval's search while the piece is on the open rows
/// (those where only the walls are in the way), kept for the next search from the same
/// start: nothing on those rows depends on the stack, so a search whose open rows reach
/// as far gets the same sets there, and starts where this one's record ends. Most
/// searches of a game start alike (the spawn, the same gravity), and their first dozen
/// boundaries, where the taps spread the piece from the spawn, are then a few copies.
#[derive(Clone, Debug, Default)]
struct Opening {
    /// What the sets there come from: the fall (as `Scratch::fall`), the start's bit and
    /// the states that fit on an open row.
    key: Option<(FallKey, u64, u64)>,
    /// The states alive at each boundary recorded.
    sets: Vec<u64>,
    /// Per boundary `f` recorded (`sets[..f]` before it): the ring's and `waited`'s
    /// slots `f..f + gap` at the top of its turn (`gap` of each, the ring first), the
    /// boundaries counted and the last boundary reached so far.
    slots: Vec<u64>,
    counts: Vec<(u16, u16)>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            sets: Box::new([0; RING]),
            waited: Box::new([0; RING]),
            rows: Vec::new(),
            rows_len: 0,
            row_start: [0; 23],
            fall: None,
            landed_rows: Box::new([0; 64]),
            landings: Vec::new(),
            openings: vec![Opening::default(); 2 * ORIENT_INDEX.len()],
        }
    }
}

impl Default for Taps {
    fn default() -> Self {
        Taps {
            sets: Vec::new(),
            rows: Vec::new(),
            fit: [0; FIT_ROWS],
            ids: [0; 4],
            kind: Turns::One,
            taps: [(0, 0); 8],
            n_taps: 0,
            gaps: [2; MAX_TAPS],
            phases: 1,
            root: 0,
            skip_open: true,
            passed: 0,
            replayed: 0,
        }
    }
}

/// The bit of a state.
#[inline(always)]
fn bit(o: u8, x: u8) -> u64 {
    1 << (16 * ORIENT_INDEX[o as usize] as u32 + u32::from(x))
}

impl MoveGen {
    /// The tapping search from `root` (after the reaction frames, nothing held, not in
    /// soft drop, `x < 10`, `y < 21`, the timer within the gravity value) on `board`, the
    /// taps coming by `pattern` (its first tap at once: the caller has waited its
    /// leading dots).
    pub(super) fn generate_taps(
        &mut self,
        board: &Board,
        rules: &Rules,
        pattern: &TapPattern,
        root: PieceState,
    ) {
        // A fixed interval has one place in its cycle; its search is compiled apart so
        // that the places cost it nothing.
        if pattern.len() == 1 {
            // Rows of many frames (slow levels, the first piece's hang) have long
            // stretches with nothing new: their search passes them in one go.
            if rules.speed >= LONG_ROWS || root.ary & 0x80 != 0 {
                self.search_taps::<true, true>(board, rules, pattern, root);
            } else {
                self.search_taps::<true, false>(board, rules, pattern, root);
            }
        } else {
            self.search_taps::<false, false>(board, rules, pattern, root);
        }
    }

    #[inline(always)]
    fn search_taps<const ONE: bool, const STRETCHES: bool>(
        &mut self,
        board: &Board,
        rules: &Rules,
        pattern: &TapPattern,
        root: PieceState,
    ) {
        let t = &mut self.taps;
        // The piece's orientations by lane, in the order A turns them.
        let mut n = 0;
        let mut o = root.o;
        loop {
            t.ids[ORIENT_INDEX[o as usize] as usize] = o;
            n += 1;
            o = ROTATE_A[o as usize];
            if o == root.o {
                break;
            }
        }
        t.kind = match n {
            1 => Turns::One,
            2 => Turns::Two,
            _ => Turns::Four,
        };
        // A direction and/or a rotation pressed on one frame. B only for pieces with
        // four orientations (with two it turns the same way as A).
        // Plain shifts first: walking back tries them in this order, and most taps are
        // those.
        t.n_taps = 0;
        for rot in [0, A, B] {
            for dx in [-1i8, 1, 0] {
                if rot == A && n == 1 || rot == B && n < 4 || dx == 0 && rot == 0 {
                    continue;
                }
                t.taps[t.n_taps] = (dx, rot);
                t.n_taps += 1;
            }
        }
        let phases = if ONE { 1 } else { pattern.len() };
        t.phases = phases;
        t.gaps[..phases].copy_from_slice(pattern.gaps());
        let longest = t.gaps[..phases].iter().copied().max().unwrap_or(2) as usize;
        fit_rows(board, &t.ids, n, &mut t.fit);

        // The rows of the fall: the gravity timer and the first piece's countdown run
        // as `frame` runs them with no Down held, and every state alive between two
        // frames has dropped on the same frames.
        // The same for every search from the same start and speed (a placement game's
        // pieces mostly start alike): kept from the last search.
        let g = &mut self.scratch;
        if g.rows.len() != FALL_FRAMES {
            g.rows = vec![0; FALL_FRAMES];
            g.landings = vec![[0; FIT_ROWS]; 64];
            g.fall = None;
        }
        let fall = (root.y, root.ft, root.ary, rules.speed, longest as u8);
        if g.fall != Some(fall) {
            g.fall = Some(fall);
            let rows = &mut g.rows;
            let mut len = 0;
            let (mut y, mut ft, mut ary) = (root.y, root.ft, root.ary);
            let speed = rules.speed;
            g.row_start = [0; 23];
            // The first piece's countdown, a frame at a time: the piece stays on its row.
            while ary & 0x80 != 0 {
                rows[len & (FALL_FRAMES - 1)] = y;
                len += 1;
                ft = ft.wrapping_add(1);
                ary = ary.wrapping_add(1);
                if (ft.wrapping_sub(speed) as i8) >= 0 {
                    ft = speed;
                }
            }
            // Then a row at a time: the timer counts up to the speed (a signed test), and
            // the piece drops on the frame it gets there.
            while y <= 20 {
                let m = ft.wrapping_add(1).wrapping_sub(speed);
                let k = if (m as i8) >= 0 {
                    1
                } else {
                    257 - usize::from(m)
                };
                // Eight boundaries a store (the stores past the row's are overwritten by
                // the next rows'; the table is far longer than any fall).
                let splat = (u64::from(y) * 0x0101_0101_0101_0101).to_le_bytes();
                for w in (0..k).step_by(8) {
                    rows[len + w..len + w + 8].copy_from_slice(&splat);
                }
                len += k;
                y += 1;
                ft = 0;
                g.row_start[usize::from(y)] = len as u16;
            }
            rows[len & (FALL_FRAMES - 1)] = y;
            len += 1;
            // Room for the frames of a tap made from the last boundaries.
            for _ in 0..longest {
                rows[len & (FALL_FRAMES - 1)] = y;
                len += 1;
            }
            // (See `FALL_FRAMES`.)
            assert!(len <= FALL_FRAMES, "a fall longer than the row table");
            g.rows_len = len;
            for s in &mut g.row_start[usize::from(y) + 1..] {
                *s = len as u16;
            }
        }
        // (Patterns are at most 64 frames, or one gap of at most 255.)
        assert!(
            (longest + 1) * phases <= RING,
            "a tap pattern longer than the ring"
        );
        // The sets being worked on live in a ring (`ring`, and per boundary and place the
        // states reached by a frame of waiting without dropping, `waited`), all zero
        // between searches: each slot is cleared as its boundary is taken, and nothing
        // is put past the last boundary taken. Each boundary's set is also kept in
        // `t.sets`, which finding a placement's inputs reads.
        let ring = &mut g.sets[..];
        let waited = &mut g.waited[..];
        const M: usize = RING - 1;
        const Y: usize = FIT_ROWS - 1;
        const F: usize = FALL_FRAMES - 1;
        // (Out of `t` while the loop runs, so that its length stays in a register.)
        // It has a slot for every boundary of the fall (and place), written in turn and
        // cut after the last boundary taken. What the last search left in it is written
        // over, not cleared: only the slots it lacks are made.
        let mut sets = std::mem::take(&mut t.sets);
        sets.resize(g.rows_len * phases, 0);
        let mut landed = [0u64; FIT_ROWS];
        g.landed_rows.fill(0);
        let landed_rows = &mut g.landed_rows;
        let landings: &mut [[u64; FIT_ROWS]; 64] = (&mut g.landings[..]).try_into().unwrap();
        t.root = bit(root.o, root.x);
        ring[0] = t.root;
        let rows: &[u8; FALL_FRAMES] = g.rows[..].try_into().unwrap();
        let rows_len = g.rows_len;
        let row_start = &g.row_start;
        let fit = &t.fit;
        let (kind, gaps, skip_open) = (t.kind, &t.gaps, t.skip_open);
        // Lands the states `land` on `row` in frame `frame` (reached from boundary
        // `from` at place `k`, by a tap or not); only the first landing on a spot is kept.
        let mut any_landed = 0u64;
        let mut record = |land: u64, row: u8, frame: usize, from: usize, k: usize, tapped: bool| {
            let row = row as usize & Y;
            let mut new = land & !landed[row];
            landed[row] |= new;
            any_landed |= new;
            let l = frame as u64 | (from as u64) << 16 | u64::from(tapped) << 32 | (k as u64) << 33;
            while new != 0 {
                let b = new.trailing_zeros() as usize & 63;
                new &= new - 1;
                landed_rows[b] |= 1 << row;
                landings[b][row] = l;
            }
        };
        let mut last = 0;
        let mut f = 0;
        let mut boundaries = 0;
        let mut passed = 0;
        // The open rows: from the start's row down, the rows on which every orientation
        // fits where it fits on the start's (only the walls in the way). Once every state
        // that fits there is alive at a boundary on them (a few taps from the spawn), it
        // stays so, as waiting and dropping keep each state and nothing lands, until the
        // piece nears the last open row: those boundaries are passed in one go.
        let open = fit[root.y as usize & Y];
        let mut last_open = root.y as usize;
        while last_open < 20 && fit[last_open + 1] == open {
            last_open += 1;
        }
        // The first boundary not passed: the taps from the boundaries before it all come
        // down on open rows (so that none lands), and the states then alive are `open`.
        let open_end = usize::from(row_start[last_open + 1]).saturating_sub(longest);
        // The opening: the boundaries before `open_end` run only on open rows, so an
        // earlier search's from the same start and fall gives their sets; else this
        // search records its own (to `open_end`, where its own rows stop being open,
        // or to the first boundary where every state is alive, from which the open
        // rows' pass below goes faster).
        let opening = &mut g.openings[usize::from(root.o) * 2 + usize::from(root.ary >> 7)];
        let key = Some((fall, t.root, open));
        // (`recorded`: this search makes the record; `recording`: it still does.)
        let (mut recording, mut recorded) = (false, false);
        let mut replayed = 0;
        if ONE && skip_open && longest <= OPENING_GAP {
            if opening.key == key {
                let to = open_end.min(opening.counts.len().saturating_sub(1));
                if to > 0 {
                    ring[0] = 0;
                    sets[..to].copy_from_slice(&opening.sets[..to]);
                    let slots = &opening.slots[2 * longest * to..][..2 * longest];
                    for j in 0..longest {
                        ring[(to + j) & M] = slots[j];
                        waited[(to + j) & M] = slots[longest + j];
                    }
                    let (b, l) = opening.counts[to];
                    (boundaries, last, f, replayed) = (b.into(), l.into(), to, to);
                }
            } else if opening
                .key
                .is_none_or(|(was, _, o)| was != fall || o.count_ones() <= open.count_ones())
            {
                // A start from the same fall whose spawn rows are not all clear (the
                // stack reaching them) does not take the place of one whose are.
                opening.key = key;
                opening.sets.clear();
                opening.slots.clear();
                opening.counts.clear();
                (recording, recorded) = (true, true);
            }
        }
        while f <= last {
            if recording {
                if f == opening.counts.len() && f <= open_end && f < OPENING_BOUNDARIES {
                    for j in 0..longest {
                        opening.slots.push(ring[(f + j) & M]);
                    }
                    for j in 0..longest {
                        opening.slots.push(waited[(f + j) & M]);
                    }
                    opening.counts.push((boundaries as u16, last as u16));
                    // (Past a boundary with every state alive, the pass goes faster.)
                    recording = ring[f & M] != open;
                } else {
                    recording = false;
                }
            }
            if ONE && f + 1 < open_end && skip_open && ring[f & M] == open {
                // Every state is alive at each boundary up to `open_end`, and the sets
                // left in the ring for later boundaries are all `open` once their turn
                // comes (each gets the waiting of the boundary before). What the ring
                // held for the boundaries passed goes (nothing was put past the taps'
                // reach), and the first boundary not passed gets its waiting.
                for b in f..(f + longest + 1).min(open_end) {
                    (ring[b & M], waited[b & M]) = (0, 0);
                }
                sets[f..open_end].fill(open);
                boundaries += open_end - f;
                passed += open_end - f;
                f = open_end;
                ring[f & M] = open;
                if rows[f & F] == rows[(f - 1) & F] {
                    waited[f & M] = open;
                }
                last = last.max(f);
                continue;
            }
            let y = rows[f & F];
            let dropping = rows[(f + 1) & F] != y;
            for k in 0..phases {
                let at = f * phases + k;
                let alive = std::mem::take(&mut ring[at & M]);
                let was_waited = std::mem::take(&mut waited[at & M]);
                sets[at] = alive;
                if alive == 0 {
                    continue;
                }
                boundaries += 1;
                // A frame of waiting: the same place in the pattern.
                let next = (at + phases) & M;
                if dropping {
                    let below = fit[(y as usize + 1) & Y];
                    record(alive & !below, y, f + 1, f, k, false);
                    if alive & below != 0 {
                        ring[next] |= alive & below;
                        last = last.max(f + 1);
                    }
                } else {
                    ring[next] |= alive;
                    waited[next] |= alive;
                    last = last.max(f + 1);
                }
                // Every tap at once, from the states not reached by waiting.
                let p = alive & !was_waited;
                if p != 0 {
                    let free = fit[y as usize & Y];
                    let l = shift(p, free, -1);
                    let r = shift(p, free, 1);
                    let mut u = l | r;
                    if kind != Turns::One {
                        let v = p | l | r;
                        u |= rotate(v, free, kind, false);
                        if kind == Turns::Four {
                            u |= rotate(v, free, kind, true);
                        }
                    }
                    // The tap's frame and the frames after it, to the next place.
                    let gap = if ONE { gaps[0] } else { gaps[k] } as usize;
                    // The drops in those frames: the piece reaches the next row at that
                    // row's first boundary (the fall moves a row at a time).
                    let mut was = y;
                    let mut at = usize::from(row_start[usize::from(was) + 1]);
                    while at <= f + gap {
                        let below = fit[(was as usize + 1) & Y];
                        record(u & !below, was, at, f, k, true);
                        u &= below;
                        if u == 0 {
                            break;
                        }
                        was += 1;
                        at = usize::from(row_start[usize::from(was) + 1]);
                    }
                    if u != 0 {
                        let place = if ONE || k + 1 == phases { 0 } else { k + 1 };
                        ring[((f + gap) * phases + place) & M] |= u;
                        last = last.max(f + gap);
                    }
                }
            }
            // A stretch of one row with nothing new: the next boundary's states all reached
            // by waiting, no tap pending. Then every boundary from the next one to the
            // row's last (where the piece tries to drop) holds those states again, all
            // waited; the ones before the row's last are passed in one go. The first
            // piece's hang and the slow levels' rows are mostly such stretches.
            if STRETCHES && !dropping && last == f + 1 {
                let next = (f + 1) & M;
                let a = ring[next];
                if a != 0 && a & !waited[next] == 0 {
                    let mut d = f + 1;
                    while d + 1 < rows_len && rows[(d + 1) & F] == y {
                        d += 1;
                    }
                    if d > f + 1 {
                        sets[f + 1..d].fill(a);
                        boundaries += d - f - 1;
                        (ring[next], waited[next]) = (0, 0);
                        (ring[d & M], waited[d & M]) = (a, a);
                        last = d;
                        f = d;
                        continue;
                    }
                }
            }
            f += 1;
        }
        if recorded {
            // (Each boundary's slot is written once, in its turn.)
            opening
                .sets
                .extend_from_slice(&sets[..opening.counts.len() - 1]);
        }
        debug_assert!(last + longest < rows_len);
        sets.truncate((last + 1) * phases);
        t.sets = sets;
        // The record's rows: those of every boundary a tap may come from.
        t.rows.clear();
        t.rows.extend_from_slice(&rows[..=last + longest]);
        // The placements in the order of (orientation, column, row), which is that of
        // the bits and then the rows.
        let prefix = self.prefix.len() as u16;
        while any_landed != 0 {
            let b = any_landed.trailing_zeros() as usize & 63;
            any_landed &= any_landed - 1;
            let mut rows = self.scratch.landed_rows[b];
            while rows != 0 {
                let row = rows.trailing_zeros() as usize & Y;
                rows &= rows - 1;
                let l = self.scratch.landings[b][row];
                let (frame, from) = (l as u16, (l >> 16) as u16);
                let phase = (l >> 33) as u32;
                self.placements.push(Placement {
                    o: t.ids[b / 16],
                    x: (b % 16) as u8,
                    y: row as u8,
                    frames: prefix + frame,
                    tops_out: t.fit[row] >> b & 1 == 0,
                    node: u32::from(from)
                        | phase << PHASE_SHIFT
                        | if l >> 32 & 1 != 0 { TAPPED } else { 0 },
                    act: Act::default(),
                    used: (frame - from) as u8,
                });
            }
        }
        self.expanded = boundaries;
        self.simulated = boundaries;
        self.taps.passed = passed;
        self.taps.replayed = replayed;
    }
}

impl Taps {
    /// [`MoveGen::inputs_into`] for a placement of the tapping search whose record is
    /// `self`, after the reaction frames `prefix`: walks back from its landing to the
    /// start (see the module's doc).
    pub(super) fn inputs_into(&self, prefix_frames: &[u8], p: &Placement, out: &mut Vec<u8>) {
        // As the search, compiled apart for a fixed interval.
        if self.phases == 1 {
            self.walk_back::<true>(prefix_frames, p, out);
        } else {
            self.walk_back::<false>(prefix_frames, p, out);
        }
    }

    #[inline(always)]
    fn walk_back<const ONE: bool>(&self, prefix_frames: &[u8], p: &Placement, out: &mut Vec<u8>) {
        let t = self;
        let phases = if ONE { 1 } else { t.phases };
        let prefix = prefix_frames.len();
        let base = out.len();
        out.resize(base + p.frames as usize, 0);
        let buf = &mut out[base..];
        buf[..prefix].copy_from_slice(prefix_frames);
        let buf = &mut buf[prefix..];
        // Frame k + 1 of the search is buf[k].
        let mut f = (p.node & 0xFFFF) as usize;
        let mut k = if ONE {
            0
        } else {
            (p.node >> PHASE_SHIFT & 0x7F) as usize
        };
        let mut b = bit(p.o, p.x);
        if p.node & TAPPED != 0 {
            let (from, buttons) = self.tap_source(b, f * phases + k, t.rows[f]);
            buf[f] = buttons;
            b = from;
        }
        loop {
            // Back by waiting to the state's arrival at this place: the first boundary of
            // the run of boundaries it is alive at (a state alive at two boundaries in a
            // row stayed by waiting: one that could not drop would have landed).
            let sets = &t.sets[..f * phases];
            if ONE {
                // A state falls alive over many boundaries: eight at a time first.
                while f >= 8 && sets[f - 8..f].iter().fold(b, |a, &s| a & s) != 0 {
                    f -= 8;
                }
                while f > 0 && sets[f - 1] & b != 0 {
                    f -= 1;
                }
            } else {
                f = sets
                    .iter()
                    .skip(k)
                    .step_by(phases)
                    .rposition(|&alive| alive & b == 0)
                    .map_or(0, |g| g + 1);
            }
            if f == 0 {
                break;
            }
            // It arrived by a tap from the place before, that place's gap earlier.
            k = if ONE || k == 0 { phases - 1 } else { k - 1 };
            f -= t.gaps[k] as usize;
            let (from, buttons) = self.tap_source(b, f * phases + k, t.rows[f]);
            buf[f] = buttons;
            b = from;
        }
        debug_assert_eq!((b, k), (t.root, 0));
    }

    /// A state of the set `at` (a boundary on `row` and a place in the pattern) and a tap
    /// that puts the piece on the state `b` (one bit), and the tap's buttons.
    #[inline]
    fn tap_source(&self, b: u64, at: usize, row: u8) -> (u64, u8) {
        let t = self;
        let alive = t.sets[at];
        let free = t.fit[row as usize];
        // The plain shifts, the first two taps (most taps are those), without the
        // rotations' cases.
        debug_assert_eq!(t.taps[..2], [(-1, 0), (1, 0)]);
        for (dx, sh) in [(-1i8, L), (1, R)] {
            let mut from = alive & if dx == 1 { b | b >> 1 } else { b | b << 1 };
            while from != 0 {
                let c = from & from.wrapping_neg();
                from &= from - 1;
                if shift(c, free, dx) == b {
                    return (c, sh);
                }
            }
        }
        for &(dx, rot) in &t.taps[2..t.n_taps] {
            // It came from its own lane or the one the rotation turns from, and from
            // its own column or the one the shift moves from.
            let q = if rot == 0 {
                b
            } else {
                b | unturn(b, t.kind, rot == B)
            };
            let mut from = alive
                & match dx {
                    1 => q | q >> 1,
                    -1 => q | q << 1,
                    _ => q,
                };
            while from != 0 {
                let c = from & from.wrapping_neg();
                from &= from - 1;
                if tap(c, free, t.kind, dx, rot) == b {
                    let sh = match dx {
                        1 => R,
                        -1 => L,
                        _ => 0,
                    };
                    return (c, sh | rot);
                }
            }
        }
        unreachable!("a state of the tapping search has no tap that reaches it")
    }
}
