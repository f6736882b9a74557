//! Where the frame interrupt lands inside the player update (a lag frame), when the score
//! state makes the update run past it: the rest of `gameModeState_updatePlayer1` after the
//! score loop's start, instruction by instruction, and what the interrupt changes there.
//!
//! The update works on the active block ($40) and copies it to the mirror ($60) near its
//! end (`savePlayer1State`); the interrupt draws from the mirror and a recording samples it,
//! so until that copy the sampled level, lines and score are the old ones. The interrupt also
//! writes two bytes the update is using: its digit drawing leaves the last drawn byte in
//! `generalCounter` (the score loop's counter, and the low byte of the sprite list's
//! address), and the controller read leaves the raw pad in `generalCounter2` (the address's
//! high byte). So a loop interrupted once may run a different number of times, and a sprite
//! list interrupted once is read from the zero page until a byte there is $FF.
//!
//! Only frames whose work can reach the next interrupt walk this; the others add the same
//! cycles as constants (`crate::cycles`, `crate::cycles_play`).

use crate::bcd;
use crate::cycles::{RENDER_LEVEL, RENDER_LINES, RENDER_SCORE, RENDER_STATS};
use crate::flow::{Block, PlayerCut, Then};
use crate::snapshot::{Snapshot, SnapshotError};
use crate::tables::POINTS;

impl PlayerCut {
    /// Checks that the cut is one a walk can make: in play, a unit's rest no longer than a
    /// unit, the copy index and the loop count in range, the sprite list in RAM or the
    /// cartridge's own.
    pub(crate) fn validate(&self, game_mode: u8) -> Result<(), SnapshotError> {
        let bad = |field, value| Err(SnapshotError::OutOfRange { field, value });
        if !matches!(game_mode, 4 | 5) {
            return bad("game_mode with a player cut", game_mode);
        }
        if self.rest > 200 {
            return bad("player cut rest", self.rest.min(255) as u8);
        }
        match self.then {
            Then::Score { left } if left > 256 => bad("score passes left", (left >> 8) as u8),
            Then::Save { x } if x > 0x1F && x != 0xFF => bad("save index", x),
            _ => Ok(()),
        }
    }
}

impl Block {
    /// The block's bytes as the snapshot holds them.
    pub(crate) fn of(s: &Snapshot) -> Block {
        Block {
            level: s.level,
            play_state: s.play_state,
            hold_down_points: s.hold_down_points,
            lines: s.lines,
            score: s.score,
            completed_lines: s.completed_lines,
        }
    }

    /// Puts the block's bytes into the snapshot.
    pub(crate) fn put(&self, s: &mut Snapshot) {
        s.level = self.level;
        s.play_state = self.play_state;
        s.hold_down_points = self.hold_down_points;
        s.lines = self.lines;
        s.score = self.score;
        s.completed_lines = self.completed_lines;
    }

    /// The mirror while `savePlayer1State` copies down from $1F: the bytes at offsets above
    /// `x` (and `x` itself when `stored`) are the active ones, the others still the old.
    fn copied(&self, old: &Block, x: u8, stored: bool) -> Block {
        let done = |at: u8| at > x || (at == x && stored);
        let pick = |at: u8, new: u8, was: u8| if done(at) { new } else { was };
        Block {
            level: pick(0x04, self.level, old.level),
            play_state: pick(0x08, self.play_state, old.play_state),
            hold_down_points: pick(0x0F, self.hold_down_points, old.hold_down_points),
            lines: [
                pick(0x10, self.lines[0], old.lines[0]),
                pick(0x11, self.lines[1], old.lines[1]),
            ],
            score: [
                pick(0x13, self.score[0], old.score[0]),
                pick(0x14, self.score[1], old.score[1]),
                pick(0x15, self.score[2], old.score[2]),
            ],
            completed_lines: pick(0x16, self.completed_lines, old.completed_lines),
        }
    }
}

/// What the interrupt leaves in `generalCounter` for the render flags `flags` it finds: the
/// last byte it drew (lines, then level, score, statistics; the level's palette loop ends
/// at $20), or `None` when it drew no digits.
pub(crate) fn drawn_counter(flags: u8, mirror: &Block, stats_i_low: u8) -> Option<u8> {
    let mut g = None;
    if flags & RENDER_LINES != 0 {
        g = Some(mirror.lines[0]);
    }
    if flags & RENDER_LEVEL != 0 {
        g = Some(0x20);
    }
    if flags & RENDER_SCORE != 0 {
        g = Some(mirror.score[0]);
    }
    if flags & RENDER_STATS != 0 {
        g = Some(stats_i_low);
    }
    g
}

/// Up to 64 instructions as their cycles.
struct Run {
    c: [u8; 64],
    n: usize,
}

impl Run {
    const fn new() -> Run {
        Run { c: [0; 64], n: 0 }
    }
    fn push(&mut self, cycles: &[u8]) {
        self.c[self.n..self.n + cycles.len()].copy_from_slice(cycles);
        self.n += cycles.len();
    }
    fn cycles(&self) -> &[u8] {
        &self.c[..self.n]
    }
    fn rest(&self, after: usize) -> u32 {
        self.c[after + 1..self.n].iter().map(|&c| c as u32).sum()
    }
}

/// One pass of the score loop (`L9C37` to its `bne`) adding `(lo, hi)` to `score`: the
/// instructions' cycles, and the index of its `dec generalCounter`. `last`: the `bne` falls
/// through.
fn score_pass(score: &[u8; 3], lo: u8, hi: u8, last: bool) -> (Run, usize) {
    let mut r = Run::new();
    // lda completedLines, asl, tax, lda pointsTable,x, clc, adc score, sta score, cmp #$A0.
    r.push(&[3, 2, 2, 4, 2, 3, 3, 2]);
    let s0 = score[0].wrapping_add(lo);
    let mut s1 = score[1];
    let mut s2 = score[2];
    // Each correction: its bcc not taken, then its instructions; skipped: bcc taken.
    if s0 >= 0xA0 {
        r.push(&[2, 2, 2, 3, 5]);
        s1 = s1.wrapping_add(1);
    } else {
        r.push(&[3]);
    }
    // inx, lda pointsTable,x, clc, adc score+1, sta, and #$0F, cmp #$0A.
    r.push(&[2, 4, 2, 3, 3, 2, 2]);
    s1 = s1.wrapping_add(hi);
    if s1 & 0x0F >= 0x0A {
        r.push(&[2, 3, 2, 2, 3]);
        s1 = s1.wrapping_add(6);
    } else {
        r.push(&[3]);
    }
    r.push(&[3, 2, 2]);
    if s1 & 0xF0 >= 0xA0 {
        r.push(&[2, 3, 2, 2, 3, 5]);
        s2 = s2.wrapping_add(1);
    } else {
        r.push(&[3]);
    }
    r.push(&[3, 2, 2]);
    if s2 & 0x0F >= 0x0A {
        r.push(&[2, 3, 2, 2, 3]);
        s2 = s2.wrapping_add(6);
    } else {
        r.push(&[3]);
    }
    r.push(&[3, 2, 2]);
    if s2 & 0xF0 >= 0xA0 {
        r.push(&[2, 2, 3, 3, 3]);
    } else {
        r.push(&[3]);
    }
    let dec = r.n;
    r.push(&[5, if last { 2 } else { 3 }]);
    (r, dec)
}

/// After the loop: the score's render flag (instruction 2), `completedLines` cleared (4),
/// `inc playState` (5), the handler's `rts`.
const SCORE_END: [u8; 7] = [3, 2, 3, 2, 3, 5, 6];
/// `jsr savePlayer1State`, `ldx #$1F`.
const SAVE_START: [u8; 2] = [6, 2];
/// After the copy: the player-count test and the `rts`.
const SAVE_END: [u8; 4] = [3, 2, 3, 6];
/// `jsr stageSpriteForNextPiece` with the preview hidden: `lda`, `bne` taken, `rts`.
const NEXT_HIDDEN: [u8; 4] = [6, 3, 3, 6];
/// ... shown: up to the `jmp loadSpriteIntoOamStaging`, then that routine up to its loop;
/// `sta generalCounter` is instruction 16, `sta generalCounter2` 19.
const NEXT_SHOWN: [u8; 22] = [
    6, 3, 2, 2, 3, 2, 3, 3, 4, 3, 3, 2, 3, 2, 2, 4, 3, 2, 4, 3, 3, 2,
];
const STA_LOW: usize = 16;
const STA_HIGH: usize = 19;
/// `inc gameModeState`, `rts`.
const FINISH: [u8; 2] = [5, 6];

/// The list `loadSpriteIntoOamStaging` reads for the preview, as the cartridge has it: four
/// sprites, then $FF. Its address is in the cartridge; this value stands for it. (A list
/// repointed by an interrupt to exactly $8000, the low byte 0 and A alone held, is taken for
/// it: the one address the two share.)
const ROM_LIST: u16 = 0x8000;
/// The preview's sprites in that list.
const ROM_SPRITES: u8 = 4;

/// One more cycle when `(ptr),y` crosses a page.
#[inline]
fn page_cross(ptr: u16, y: u8) -> u8 {
    (((ptr & 0xFF) + y as u16) >> 8) as u8
}

/// One staged sprite of `loadSpriteIntoOamStaging` (the $FF test not taken, four reads
/// through the list's address, four stores, the staging length + 4, `jmp`).
fn sprite(ptr: u16, y: u8) -> [u8; 27] {
    let read = |k: u8| 5 + page_cross(ptr, y.wrapping_add(k));
    [
        read(0),
        2,
        2,
        2,
        3,
        5,
        2,
        2,
        read(1),
        5,
        2,
        2,
        read(2),
        5,
        2,
        2,
        read(3),
        2,
        3,
        5,
        2,
        2,
        2,
        2,
        3,
        3,
        3,
    ]
}

/// What a walk found.
pub(crate) enum Walked {
    /// The interrupt follows the instruction ending at `boundary` (cycles from the
    /// handler's start); the snapshot now holds the mirror and `game_mode_state` as sampled.
    Landed {
        /// See [`Walked::Landed`].
        boundary: u32,
        /// What is left, for the next frame.
        cut: PlayerCut,
    },
    /// The update returned at `end` (cycles from the handler's start).
    Done {
        /// See [`Walked::Done`].
        end: u32,
    },
    /// The interrupt lands where this model does not follow it.
    Unplaced,
}

/// What a walk needs besides the snapshot.
pub(crate) struct Context<'a> {
    /// The cartridge's bytes, when the user gave them (a list repointed into the cartridge
    /// is read there).
    pub rom: Option<&'a crate::audio::MusicData>,
    /// The mirror block as it was before the update changed anything.
    pub old: Block,
    /// `stageSpriteForCurrentPiece` with its `jsr`.
    pub current_piece: u32,
    /// The update's copies of the buttons (`newlyPressedButtons`, `heldButtons`).
    pub buttons: [u8; 2],
}

/// Where the copy to the mirror stands at a landing.
#[derive(Clone, Copy)]
enum Mirror {
    /// Not begun: the mirror holds the old block.
    Before,
    /// Down to offset `.0`, whose store `.1` is done.
    At(u8, bool),
    /// Done: the mirror is the active block.
    After,
}

struct Walk {
    t: u32,
    poll: u32,
}

impl Walk {
    /// Runs `cycles`; the index of the instruction the interrupt follows, if it comes.
    fn run(&mut self, cycles: &[u8]) -> Option<usize> {
        for (i, &c) in cycles.iter().enumerate() {
            self.t += c as u32;
            if self.t >= self.poll {
                return Some(i);
            }
        }
        None
    }
}

fn sum(cycles: &[u8]) -> u32 {
    cycles.iter().map(|&c| c as u32).sum()
}

/// The score loop's end up to instruction `upto` (exclusive) run on `s`.
fn score_end(s: &mut Snapshot, upto: usize) {
    if upto > 2 {
        s.render_flags |= RENDER_SCORE;
    }
    if upto > 4 {
        s.completed_lines = 0;
    }
    if upto > 5 {
        s.play_state = s.play_state.wrapping_add(1);
    }
}

/// The cut at the walk's clock: the active block into the cut, the mirror as the interrupt
/// finds it into the snapshot.
fn land(
    s: &mut Snapshot,
    ctx: &Context<'_>,
    w: &Walk,
    rest: u32,
    then: Then,
    copy: Mirror,
) -> Walked {
    let active = Block::of(s);
    let mirror = match copy {
        Mirror::Before => ctx.old,
        Mirror::At(x, stored) => active.copied(&ctx.old, x, stored),
        Mirror::After => active,
    };
    mirror.put(s);
    Walked::Landed {
        boundary: w.t,
        cut: PlayerCut {
            rest: rest as u16,
            then,
            active,
            buttons: ctx.buttons,
        },
    }
}

/// What the interrupt will leave in `generalCounter` at this landing (`s` holds the mirror).
fn counter_after(s: &Snapshot) -> Option<u8> {
    drawn_counter(s.render_flags, &Block::of(s), s.stats[6][0])
}

/// The player update from `then` on, its clock at `t` cycles from the handler's start,
/// with the interrupt's first possible instruction end at `poll`. Runs the update's effects
/// on `s` (the active block), up to the landing if there is one.
pub(crate) fn walk(s: &mut Snapshot, then: Then, t: u32, poll: u32, ctx: &Context<'_>) -> Walked {
    let mut w = Walk { t, poll };
    let mut then = then;
    // Whether the copy to the mirror has run (the walk may start after it).
    let mut saved = matches!(
        then,
        Then::NextPiece | Then::Sprites { .. } | Then::Finish | Then::Done
    );
    loop {
        let copy = if saved { Mirror::After } else { Mirror::Before };
        then = match then {
            Then::Score { left: 0 } => {
                if let Some(i) = w.run(&SCORE_END) {
                    score_end(s, i + 1);
                    let rest = sum(&SCORE_END[i + 1..]);
                    return land(s, ctx, &w, rest, Then::CurrentPiece, copy);
                }
                score_end(s, SCORE_END.len());
                Then::CurrentPiece
            }
            Then::Score { left } => {
                let (lo, hi) = POINTS[s.completed_lines as usize % 5];
                let (run, dec) = score_pass(&s.score, lo, hi, left == 1);
                let before = s.score;
                bcd::add_points_once(&mut s.score, lo, hi);
                let Some(i) = w.run(run.cycles()) else {
                    then = Then::Score { left: left - 1 };
                    continue;
                };
                let Walked::Landed { boundary, mut cut } = land(s, ctx, &w, 0, then, copy) else {
                    unreachable!()
                };
                // The counter as the loop will find it after the interrupt.
                let left_after = match counter_after(s) {
                    None => left - 1,
                    // Taken before the `dec`: it counts down from the drawn byte.
                    Some(g) if i < dec => g.wrapping_sub(1) as u16,
                    // After it: its result decided this pass's branch.
                    Some(_) if left == 1 => 0,
                    Some(g) => {
                        if g == 0 {
                            256
                        } else {
                            g as u16
                        }
                    }
                };
                let (run, _) =
                    score_pass(&before, lo, hi, left_after == 0 && (i < dec || left == 1));
                cut.rest = run.rest(i) as u16;
                cut.then = Then::Score { left: left_after };
                return Walked::Landed { boundary, cut };
            }
            Then::CurrentPiece => {
                if w.t + ctx.current_piece >= w.poll {
                    return Walked::Unplaced;
                }
                w.t += ctx.current_piece;
                if let Some(i) = w.run(&SAVE_START) {
                    let rest = sum(&SAVE_START[i + 1..]);
                    return land(s, ctx, &w, rest, Then::Save { x: 0x1F }, copy);
                }
                Then::Save { x: 0x1F }
            }
            Then::Save { x: 0xFF } => {
                saved = true;
                if let Some(i) = w.run(&SAVE_END) {
                    let rest = sum(&SAVE_END[i + 1..]);
                    return land(s, ctx, &w, rest, Then::NextPiece, Mirror::After);
                }
                Then::NextPiece
            }
            Then::Save { x } => {
                // lda $40,x; sta $60,x; dex; cpx #$FF; bne.
                let iter = [4, 4, 2, 2, if x == 0 { 2 } else { 3 }];
                let next = Then::Save {
                    x: x.wrapping_sub(1),
                };
                if let Some(i) = w.run(&iter) {
                    let rest = sum(&iter[i + 1..]);
                    return land(s, ctx, &w, rest, next, Mirror::At(x, i >= 1));
                }
                next
            }
            Then::NextPiece if s.display_next_piece != 0 => {
                if let Some(i) = w.run(&NEXT_HIDDEN) {
                    let rest = sum(&NEXT_HIDDEN[i + 1..]);
                    return land(s, ctx, &w, rest, Then::Finish, copy);
                }
                Then::Finish
            }
            Then::NextPiece => {
                let list = Then::Sprites {
                    ptr: ROM_LIST,
                    y: 0,
                };
                match w.run(&NEXT_SHOWN) {
                    None => list,
                    Some(i) if i < STA_LOW => {
                        let rest = sum(&NEXT_SHOWN[i + 1..]);
                        return land(s, ctx, &w, rest, list, copy);
                    }
                    // The list's low byte is written over, its high byte then stored as the
                    // cartridge has it: the list is read from the cartridge, if it is here.
                    Some(i) if i < STA_HIGH => {
                        let Some(own) = ctx.rom.and_then(|r| preview_list(r, s.next_piece)) else {
                            return Walked::Unplaced;
                        };
                        let rest = sum(&NEXT_SHOWN[i + 1..]);
                        let l = land(s, ctx, &w, rest, Then::List { ptr: own }, copy);
                        return split(s, l);
                    }
                    Some(i) => {
                        let rest = sum(&NEXT_SHOWN[i + 1..]);
                        let l = land(s, ctx, &w, rest, list, copy);
                        return redirect(s, l);
                    }
                }
            }
            Then::Sprites { ptr, y } => {
                let Some(end) = list_end(s, ctx, ptr, y) else {
                    if w.poll == u32::MAX {
                        // Untimed: the state does not depend on where the list ends.
                        then = Then::Finish;
                        continue;
                    }
                    return Walked::Unplaced;
                };
                if end {
                    // lda (),y; cmp #$FF; beq taken; rts.
                    let end = [5 + page_cross(ptr, y), 2, 3, 6];
                    if let Some(i) = w.run(&end) {
                        let rest = sum(&end[i + 1..]);
                        return land(s, ctx, &w, rest, Then::Finish, copy);
                    }
                    Then::Finish
                } else {
                    let next = Then::Sprites {
                        ptr,
                        y: y.wrapping_add(4),
                    };
                    let body = sprite(ptr, y);
                    let Some(i) = w.run(&body) else {
                        then = next;
                        continue;
                    };
                    let l = land(s, ctx, &w, 0, next, copy);
                    let l = redirect(s, l);
                    // The reads after the interrupt go through the address it left (the
                    // high byte does not change whether they cross a page).
                    let Walked::Landed { boundary, mut cut } = l else {
                        return l;
                    };
                    if let Then::Sprites { ptr: new, .. } = cut.then {
                        cut.rest = sum(&sprite(new, y)[i + 1..]) as u16;
                    }
                    return Walked::Landed { boundary, cut };
                }
            }
            Then::List { ptr } => Then::Sprites { ptr, y: 0 },
            Then::Finish => {
                if let Some(i) = w.run(&FINISH) {
                    s.game_mode_state = 5;
                    let rest = sum(&FINISH[i + 1..]);
                    return land(s, ctx, &w, rest, Then::Done, copy);
                }
                s.game_mode_state = 5;
                Then::Done
            }
            Then::Done => return Walked::Done { end: w.t },
        };
    }
}

/// A landing inside `loadSpriteIntoOamStaging` after it stored the list's address: the
/// interrupt's digits replace the low byte (the high byte is the pad it reads, known only
/// in the next frame, see [`resume_list`]).
fn redirect(s: &Snapshot, l: Walked) -> Walked {
    let Walked::Landed { boundary, mut cut } = l else {
        return l;
    };
    if let Then::Sprites { ptr, y } = cut.then {
        let low = match counter_after(s) {
            Some(g) => g as u16,
            None if ptr != ROM_LIST => ptr & 0xFF,
            // The cartridge's own list, its address not modelled.
            None => return Walked::Unplaced,
        };
        cut.then = Then::Sprites { ptr: low, y };
    }
    Walked::Landed { boundary, cut }
}

/// A landing between the two stores of the preview list's address: the interrupt's digits
/// replace the low byte; the high byte is stored after it.
fn split(s: &Snapshot, l: Walked) -> Walked {
    let Walked::Landed { boundary, mut cut } = l else {
        return l;
    };
    if let (Then::List { ptr }, Some(g)) = (cut.then, counter_after(s)) {
        cut.then = Then::List {
            ptr: ptr & 0xFF00 | g as u16,
        };
    }
    Walked::Landed { boundary, cut }
}

/// The preview's sprite list for orientation `next`, as the cartridge has it: the word in
/// `oamContentLookup` ($8C6C) at twice `orientationToSpriteTable[next]` ($8BE5).
fn preview_list(rom: &crate::audio::MusicData, next: u8) -> Option<u16> {
    let index = rom.byte(0x8BE5 + next as u16)? as u16;
    let at = 0x8C6C + 2 * index;
    Some(u16::from_le_bytes([rom.byte(at)?, rom.byte(at + 1)?]))
}

/// Whether a cut's sprite staging reads a list other than the preview's: the sprite page
/// is filling with whatever that list holds.
pub(crate) fn garbled(then: Then) -> bool {
    matches!(then, Then::Sprites { ptr, .. } if ptr != ROM_LIST)
}

/// The list's address after an interrupt: its high byte is the pad the interrupt read.
pub(crate) fn resume_list(then: Then, pad: u8) -> Then {
    match then {
        Then::Sprites { ptr, y } if ptr != ROM_LIST => Then::Sprites {
            ptr: ptr & 0xFF | (pad as u16) << 8,
            y,
        },
        t => t,
    }
}

/// Whether `loadSpriteIntoOamStaging` finds its end mark ($FF) at `(ptr),y`; `None` where
/// the list would be read from outside RAM, or from the cartridge without its bytes. (A
/// pad with A held points the list into the cartridge.)
fn list_end(s: &Snapshot, ctx: &Context<'_>, ptr: u16, y: u8) -> Option<bool> {
    if ptr == ROM_LIST {
        return Some(y >= 4 * ROM_SPRITES);
    }
    let addr = ptr.wrapping_add(y as u16);
    if addr >= 0x8000 {
        return ctx.rom.and_then(|r| r.byte(addr)).map(|b| b == 0xFF);
    }
    // $0800-$1FFF mirror the 2 KiB; above them are the picture and sound registers.
    if addr >= 0x2000 {
        return None;
    }
    Some(ram(s, ctx, addr & 0x7FF) == Some(0xFF))
}

/// A byte of the console's RAM while the update stages the preview (after its copy to the
/// mirror), where the engine holds it. The bytes it does not hold are the sound engine's
/// scratch, the stack, the second player's block and a few bytes no one-player game
/// changes; they are taken as not $FF, which the recorded stalls bear out (see
/// `tests/CARTRIDGE.md`, "The CPU's budget").
fn ram(s: &Snapshot, ctx: &Context<'_>, addr: u16) -> Option<u8> {
    let block = |o: u16| -> Option<u8> {
        Some(match o {
            0x00 => s.x,
            0x01 => s.y,
            0x02 => s.piece,
            0x04 => s.level,
            0x05 => s.fall_timer,
            0x06 => s.autorepeat_x,
            0x07 => s.start_level,
            0x08 => s.play_state,
            0x09 => s.vram_row,
            0x0A..=0x0D => s.completed_row[o as usize - 0x0A],
            0x0E => s.autorepeat_y,
            0x0F => s.hold_down_points,
            0x10 | 0x11 => s.lines[o as usize - 0x10],
            0x12 => s.row_y,
            0x13..=0x15 => s.score[o as usize - 0x13],
            0x16 => s.completed_lines,
            0x17 => s.line_index,
            0x18 => s.curtain_row,
            0x19 => s.start_height,
            0x1A => s.flow.garbage_hole,
            _ => return None,
        })
    };
    let demo = s.flow.demo_ptr.wrapping_add(0xDD00);
    Some(match addr {
        0x17 => (s.rng >> 8) as u8,
        0x18 => s.rng as u8,
        0x19 => s.spawn_id,
        0x1A => s.spawn_count,
        0x40..=0x5F => return block(addr - 0x40),
        0x60..=0x7F => return block(addr - 0x60),
        0xA0 => 0xC8,
        0xA1 => 0x77,
        0xA3 => s.render_flags,
        0xA7 => s.game_mode_state,
        // The list's address: its low byte drawn by the interrupt, its high byte the pad.
        0xA9 => s.held,
        0xAA | 0xF6 | 0xF8 => 0,
        0xAE => s.selecting,
        0xB1 => s.frame_counter as u8,
        0xB2 => (s.frame_counter >> 8) as u8,
        // The staging length counts in fours.
        0xB3 => 0,
        0xB5 => ctx.buttons[0],
        0xB6 => ctx.buttons[1],
        0xB7 => 1,
        0xB8 => 0,
        0xB9 => 4,
        0xBA => s.allegro,
        0xBD => s.render_mode,
        0xBE => 1,
        0xBF => s.next_piece,
        0xC0 => s.game_mode,
        0xC1 => s.game_type,
        0xC2 => s.music_type,
        0xC3 => s.sleep_counter,
        0xC4 => s.flow.ending,
        0xC5 | 0xC6 => s.flow.ending_vars[addr as usize - 0xC5],
        0xCE => s.flow.demo_held,
        0xCF => s.flow.demo_repeats,
        0xD1 => demo as u8,
        0xD2 => (demo >> 8) as u8,
        0xD3 => s.flow.demo_index,
        0xD4 => s.flow.entry_letter,
        0xD5 => s.flow.entry_slot,
        0xD8..=0xDB => s.clears[addr as usize - 0xD8],
        0xDC..=0xDE => s.flow.total_score[addr as usize - 0xDC],
        0xDF => s.display_next_piece,
        0xF5 => s.pressed,
        0xF7 => s.held,
        0x3F0..=0x3FD => s.stats[(addr as usize - 0x3F0) / 2][addr as usize & 1],
        0x400..=0x4FF => s.playfield.0[addr as usize - 0x400],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cycles_play as cy;

    #[test]
    fn the_walk_costs_what_the_frame_adds() {
        // Every pass as the engine's constant prices it, for every clear and many scores.
        for &(lo, hi) in &POINTS {
            for a in (0..=0x99u8).step_by(7) {
                for b in (0..=0x99u8).step_by(11) {
                    let score = [a, b, a ^ b];
                    let (run, dec) = score_pass(&score, lo, hi, false);
                    assert_eq!(sum(run.cycles()), cy::points_once(&score, lo, hi));
                    assert_eq!(run.cycles()[dec], 5);
                    let (last, _) = score_pass(&score, lo, hi, true);
                    assert_eq!(sum(last.cycles()) + 1, sum(run.cycles()));
                }
            }
        }
        // The loop's end with the handler's `rts`: `POINTS_OUTSIDE` less the setup, less
        // the last pass's untaken branch.
        assert_eq!(sum(&SCORE_END), cy::POINTS_OUTSIDE - 16 + 1);
        // The copy with its `jsr`.
        let copy = sum(&SAVE_START) + 32 * 15 - 1 + sum(&SAVE_END);
        assert_eq!(copy, 6 + 495);
        // The preview, shown and hidden.
        let shown = sum(&NEXT_SHOWN) + 4 * sum(&sprite(0x8DBE, 0)) + 5 + 2 + 3 + 6;
        assert_eq!(shown, cy::stage_next_piece(0));
        assert_eq!(sum(&NEXT_HIDDEN), cy::stage_next_piece(1));
        // A list read across a page costs a cycle per read past it.
        assert_eq!(sum(&sprite(0x00FE, 0)), sum(&sprite(0x0000, 0)) + 2);
    }

    #[test]
    fn the_drawn_counter_is_the_last_digit_pair() {
        let m = Block {
            lines: [0x50, 0x14],
            score: [0x99, 0x99, 0x99],
            ..Block::default()
        };
        assert_eq!(drawn_counter(0, &m, 7), None);
        assert_eq!(drawn_counter(RENDER_LINES, &m, 7), Some(0x50));
        assert_eq!(
            drawn_counter(RENDER_LINES | RENDER_LEVEL, &m, 7),
            Some(0x20)
        );
        assert_eq!(
            drawn_counter(RENDER_LINES | RENDER_SCORE, &m, 7),
            Some(0x99)
        );
        assert_eq!(drawn_counter(RENDER_SCORE | RENDER_STATS, &m, 7), Some(7));
    }
}
