//! The CPU cycles of the player update's piece work: `branchOnPlayStatePlayer1` with the
//! `playState` handler it dispatches to, `stageSpriteForCurrentPiece` and
//! `stageSpriteForNextPiece`, each from its `jsr` to its `rts` (see
//! [`crate::Cycles::player`]).
//!
//! The handlers in `play.rs` add these figures on the branches they already take; this file
//! holds what the figures are made of: the cost of each path through a routine, as the
//! 6502's instruction timings give it along the cartridge's code (NTSC), with the page
//! crossings of its indexed reads (from where its tables sit) and its taken branches
//! (from where their targets sit). Every figure was checked frame by frame against the
//! recordings' emulator. A routine's figure here is its body, first instruction to its
//! `rts`, unless its name says `CALL` (then it includes the `jsr`).
//!
//! The PAL cartridge runs the same code at other addresses; its page crossings are not
//! modelled, so its figures can be off by a few cycles.

use crate::cycles::cross;

/// `orientationTable`: 12 bytes per orientation id (row offset, tile, column offset per mino).
const ORIENTATION_TABLE: u16 = 0x8A9C;
/// `rotationTable`: two bytes per orientation id (B's target, then A's).
const ROTATION_TABLE: u16 = 0x88EE;

/// Where `branchOnPlayStatePlayer1` calls `switch_s_plus_2a`.
const BRANCH_SWITCH_AT: u16 = 0x81B4;

/// The `jsr branchOnPlayStatePlayer1`, its `lda playState` and the dispatch up to the
/// handler's first instruction, by `playState` (no entry of the jump table crosses a page).
pub(crate) const fn branch_on_play_state(play_state: u8) -> u32 {
    6 + 3 + crate::cycles::switch(BRANCH_SWITCH_AT, play_state)
}

/// Byte `i` of an orientation's 12 in `orientationTable`, as the cartridge indexes it
/// (`currentPiece` × 12 in 8 bits).
const fn orientation_byte(piece: usize, i: usize) -> u8 {
    (piece as u8).wrapping_mul(12).wrapping_add(i as u8)
}

const fn orientation_cross(piece: usize, i: usize) -> u32 {
    cross(ORIENTATION_TABLE, orientation_byte(piece, i))
}

/// How a call of `isPositionValid` ends: the cell (0..=3) and the test that failed.
#[derive(Clone, Copy)]
pub(crate) enum Misfit {
    /// The cell's row is outside rows -2..=19 (`cmp #$16 / bcs`).
    Row = 0,
    /// The cell is on a block (`cmp #tileEmpty / bcc`).
    Tile = 1,
    /// The cell's column is outside 0..=9 (`cmp #$0A / bcs`).
    Column = 2,
}

/// `isPositionValid` up to its `rts` for the 32 orientation ids the collision loop masks to:
/// `.0` when all four cells pass, `.1[cell][misfit]` when it stops early.
const fn fit_table() -> ([u16; 32], [[[u16; 3]; 4]; 32]) {
    let mut ok = [0u16; 32];
    let mut fail = [[[0u16; 3]; 4]; 32];
    let mut p = 0;
    while p < 32 {
        // The cell offsets, the piece's 12-byte index, the counter of four.
        let mut at = 49;
        let mut k = 0;
        while k < 4 {
            // Each cell reads its row offset twice and its column offset twice.
            let r = orientation_cross(p, 3 * k);
            let c = orientation_cross(p, 3 * k + 2);
            fail[p][k][Misfit::Row as usize] = (at + 27 + r) as u16;
            fail[p][k][Misfit::Tile as usize] = (at + 77 + 2 * r + c) as u16;
            fail[p][k][Misfit::Column as usize] = (at + 90 + 2 * r + 2 * c) as u16;
            at += 88 + 2 * r + 2 * c;
            k += 1;
        }
        // The last `bne @checkSquare` is not taken; then the result and the rts.
        ok[p] = (at - 1 + 11) as u16;
        p += 1;
    }
    (ok, fail)
}

const FIT: ([u16; 32], [[[u16; 3]; 4]; 32]) = fit_table();

/// `isPositionValid` when the position is valid, by orientation id (`& 31`).
pub(crate) const FIT_OK: [u16; 32] = FIT.0;
/// `isPositionValid` stopping at `[cell][misfit]`, by orientation id (`& 31`).
pub(crate) const FIT_FAIL: [[[u16; 3]; 4]; 32] = FIT.1;

/// How many of an orientation's 12 `orientationTable` bytes lie on the table's second page:
/// each read of them costs one cycle more (the lock and the sprite read all 12).
const fn orientation_crossings() -> [u32; 32] {
    let mut t = [0u32; 32];
    let mut p = 0;
    while p < 32 {
        let mut i = 0;
        while i < 12 {
            t[p] += orientation_cross(p, i);
            i += 1;
        }
        p += 1;
    }
    t
}

const ORIENTATION_CROSSINGS: [u32; 32] = orientation_crossings();

// --- playState 1: shift_tetrimino, rotate_tetrimino, drop_tetrimino ---

/// `playState_playerControlsActiveTetrimino` without the three routines' bodies: three
/// `jsr` and its `rts`.
pub(crate) const CONTROLS: u32 = 3 * 6 + 6;

/// `shift_tetrimino` with Down held.
pub(crate) const SHIFT_DOWN_HELD: u32 = 21;
/// `shift_tetrimino` with no direction pressed or held.
pub(crate) const SHIFT_IDLE: u32 = 35;
/// `shift_tetrimino` while a held direction charges DAS.
pub(crate) const SHIFT_CHARGING: u32 = 47;
/// `shift_tetrimino` up to `@buttonHeldDown` after a fresh press (`autorepeatX` reset).
pub(crate) const SHIFT_PRESSED: u32 = 26;
/// `shift_tetrimino` up to `@buttonHeldDown` when DAS repeats.
pub(crate) const SHIFT_REPEAT: u32 = 47;
/// From `@buttonHeldDown` to the `rts`, without `isPositionValid`: right then valid,
/// right then blocked (`@restoreX`), left valid, left blocked, neither direction.
pub(crate) const SHIFT_RIGHT_OK: u32 = 35;
/// See [`SHIFT_RIGHT_OK`].
pub(crate) const SHIFT_RIGHT_BLOCKED: u32 = 39;
/// See [`SHIFT_RIGHT_OK`].
pub(crate) const SHIFT_LEFT_OK: u32 = 43;
/// See [`SHIFT_RIGHT_OK`].
pub(crate) const SHIFT_LEFT_BLOCKED: u32 = 47;
/// See [`SHIFT_RIGHT_OK`].
pub(crate) const SHIFT_NEITHER: u32 = 23;

/// `rotate_tetrimino` with neither A nor B pressed.
pub(crate) const ROTATE_IDLE: u32 = 41;

/// `rotate_tetrimino` without `isPositionValid`, A (`a`) or B, valid or undone: the read
/// of `rotationTable` crosses a page from orientation 9 on.
#[inline(always)]
pub(crate) const fn rotate(piece: u8, a: bool, valid: bool) -> u32 {
    let x = piece.wrapping_mul(2);
    match (a, valid) {
        (true, true) => 56 + cross(ROTATION_TABLE, x.wrapping_add(1)),
        (true, false) => 54 + cross(ROTATION_TABLE, x.wrapping_add(1)),
        (false, true) => 64 + cross(ROTATION_TABLE, x),
        (false, false) => 62 + cross(ROTATION_TABLE, x),
    }
}

/// `drop_tetrimino` before the first piece may move (`autorepeatY` negative, no Down press).
pub(crate) const DROP_COUNTDOWN: u32 = 27;
/// `drop_tetrimino` up to `@notBeginningOfGame`: `autorepeatY` was not negative, or was
/// and Down was pressed (and it became 0).
pub(crate) const DROP_START: u32 = 6;
/// See [`DROP_START`].
pub(crate) const DROP_START_PRESSED: u32 = 17;
/// From `@notBeginningOfGame` to `@lookupDropSpeed`: `autorepeatY` 0 with Left or Right
/// held, with no Down-only press, with a Down-only press (soft drop starts).
pub(crate) const DROP_IDLE_SIDEWAYS: u32 = 10;
/// See [`DROP_IDLE_SIDEWAYS`].
pub(crate) const DROP_IDLE: u32 = 19;
/// See [`DROP_IDLE_SIDEWAYS`].
pub(crate) const DROP_SOFT_START: u32 = 26;
/// From `@notBeginningOfGame` with `autorepeatY` running: Down released (to
/// `@lookupDropSpeed`), Down held but not yet the third frame (to `@lookupDropSpeed`),
/// the third frame (to `@drop`).
pub(crate) const DROP_SOFT_RELEASED: u32 = 23;
/// See [`DROP_SOFT_RELEASED`].
pub(crate) const DROP_SOFT_WAIT: u32 = 26;
/// See [`DROP_SOFT_RELEASED`].
pub(crate) const DROP_SOFT_STEP: u32 = 35;

/// `@lookupDropSpeed` to the `rts` when the fall timer has not reached the speed
/// (`framesPerDropTable` is read below level 29 only), or to `@drop` when it has.
#[inline(always)]
pub(crate) const fn drop_speed_lookup(level: u8, drops: bool) -> u32 {
    let table = if level >= 29 { 0 } else { 3 };
    if drops {
        22 + table
    } else {
        30 + table
    }
}

/// `@drop` to the `rts` without `isPositionValid`, when the piece moved down.
pub(crate) const DROP_MOVED: u32 = 31;
/// `@drop` to the `rts` without `isPositionValid` and `updatePlayfield`, when it landed.
pub(crate) const DROP_LANDED: u32 = 47;

/// `updatePlayfield` with its `rts`: `tetriminoY` − 2 is clamped to 0 when negative, and
/// lowers `vramRow` when below it.
#[inline(always)]
pub(crate) const fn update_playfield(clamped: bool, lowered: bool) -> u32 {
    24 + clamped as u32 + if lowered { 2 } else { 0 }
}

// --- playState 2: playState_lockTetrimino ---

/// The lock when the piece overlaps the stack, without the first `isPositionValid`: the
/// game-over curtain starts and `updateAudio2` (the sound engine's silencing path, a fixed
/// 188 cycles) runs.
pub(crate) const LOCK_TOP_OUT: u32 = 24 + 6 + 188 + 6;
/// The lock waiting for the screen copy (`vramRow` below $20), without `isPositionValid`.
pub(crate) const LOCK_WAIT: u32 = 24;

/// The lock writing the piece, without `isPositionValid`, `updatePlayfield` and
/// `updateMusicSpeed` (each with its `jsr`, then `inc playState`, `rts`).
#[inline(always)]
pub(crate) const fn lock_write(piece: u8) -> u32 {
    363 + ORIENTATION_CROSSINGS[piece as usize & 31]
}

/// `updateMusicSpeed` with its `rts`: `found` is the first column of row 5 holding a block
/// (`None`: the row is empty); the tempo changes (and `setMusicTrack` runs) when the row's
/// state differs from `allegro`. `demo`: `setMusicTrack` also silences the demo's music.
#[inline(always)]
pub(crate) const fn update_music_speed(found: Option<usize>, allegro: bool, demo: bool) -> u32 {
    let set_music_track = if demo { 23 } else { 18 };
    match found {
        Some(i) if allegro => 32 + 16 * i as u32,
        Some(i) => 55 + 16 * i as u32 + set_music_track,
        None if allegro => 201 + set_music_track,
        None => 181,
    }
}

// --- playState 3: playState_checkForCompletedRows ---

/// The row check waiting for the screen copy.
pub(crate) const ROWS_WAIT: u32 = 16;

/// The row check up to its scan of the row (`tetriminoY` − 2 is clamped to 0 when negative).
#[inline(always)]
pub(crate) const fn rows_start(clamped: bool) -> u32 {
    47 + clamped as u32
}

/// The row scan stopping at the empty cell `column`, then `completedRow` cleared.
#[inline(always)]
pub(crate) const fn row_incomplete(column: usize) -> u32 {
    16 * column as u32 + 19
}

/// A complete row: the scan, the shift of the `base` bytes above it one row down (all 256
/// when `base` is 0: the row-0 quirk) and the top row cleared.
#[inline(always)]
pub(crate) const fn row_complete(base: u8) -> u32 {
    let n = if base == 0 { 256 } else { base as u32 };
    325 + 28 * n
}

/// `@incrementLineIndex` to the `rts`: another row to check next frame, or the last row
/// checked with `completed` rows found.
#[inline(always)]
pub(crate) const fn rows_end(last: bool, completed: u8) -> u32 {
    if !last {
        return 20;
    }
    // The garbage table read by completedLines (never crossing for the counts that occur).
    let garbage = cross(0x9B53, completed);
    garbage
        + match completed {
            0 => 70,
            4 => 66,
            _ => 61,
        }
}

// --- playState 5: playState_updateLinesAndStatistics ---

/// The handler up to `addHoldDownPoints` with no line cleared (after its `jsr
/// updateMusicSpeed` and that routine).
pub(crate) const LINES_NONE: u32 = 6 + 8;
/// With lines cleared, up to the game-type test: `lineClearStatsByType` + 1 and the line
/// render flag; `fixed`: the count's ones digit reached 10 and was corrected.
#[inline(always)]
pub(crate) const fn lines_counted(fixed: bool) -> u32 {
    6 + if fixed { 51 } else { 40 }
}
/// B-type: the lines subtracted, to `addHoldDownPoints`: clamped at 0, plain, or corrected.
#[inline(always)]
pub(crate) const fn lines_b_type(negative: bool, fixed: bool) -> u32 {
    2 + if fixed && !negative { 39 } else { 27 }
}
/// A-type: from `@gameTypeA` the `ldx completedLines`.
pub(crate) const LINES_A_TYPE: u32 = 3 + 3;

/// One pass of `incrementLines` for A-type (without the final `bne` being taken again):
/// `lo` the lines' low byte before the increment, `hi` the hundreds byte, `level` before.
/// Returns the cost; the last pass of the loop costs one cycle less.
#[inline(always)]
pub(crate) const fn increment_lines(lo: u8, hi: u8, level: u8) -> u32 {
    let a = lo.wrapping_add(1);
    let (mut c, a) = if a & 0x0F < 0x0A {
        (15, a)
    } else {
        let b = a.wrapping_add(6);
        if b & 0xF0 < 0xA0 {
            (31, b)
        } else {
            (43, b & 0x0F)
        }
    };
    let hi = if c == 43 { hi.wrapping_add(1) } else { hi };
    c += if a & 0x0F != 0 {
        8
    } else {
        // The tens and hundreds digits, read as one byte, against the level (signed).
        let g = ((hi as u16) << 8 | a as u16) >> 4;
        if (level.wrapping_sub(g as u8) as i8) >= 0 {
            71
        } else {
            89
        }
    };
    c + 5
}

/// `addHoldDownPoints` up to `addLineClearPoints` for `hold` soft-drop rows and the
/// score's low byte `s0`.
#[inline(always)]
pub(crate) const fn hold_down_points(hold: u8, s0: u8) -> u32 {
    if (hold.wrapping_sub(2) as i8) < 0 {
        return 8;
    }
    let mut a = s0.wrapping_sub(1).wrapping_add(hold);
    let mut c = 24 + 7 + 8;
    if a & 0x0F < 0x0A {
        c += 3;
    } else {
        a = a.wrapping_add(6);
        c += 12;
    }
    c + if a & 0xF0 < 0xA0 { 3 } else { 14 }
}

/// `addLineClearPoints` around its loop: the counter set up, then the render flag,
/// `completedLines` cleared, `inc playState` and the handler's `rts` (with the last
/// `bne L9C37` not taken).
pub(crate) const POINTS_OUTSIDE: u32 = 16 + 24 - 1;

/// One pass of the score loop adding the BCD points `(lo, hi)` to `score`: every correction
/// the cartridge applies costs its branch not taken and its instructions.
#[inline(always)]
pub(crate) const fn points_once(score: &[u8; 3], lo: u8, hi: u8) -> u32 {
    // All five corrections skipped; the two pointsTable reads never cross for 0..=4 lines.
    let mut c = 83;
    let s0 = score[0].wrapping_add(lo);
    let mut s1 = score[1];
    let mut s2 = score[2];
    if s0 >= 0xA0 {
        c += 11;
        s1 = s1.wrapping_add(1);
    }
    s1 = s1.wrapping_add(hi);
    if s1 & 0x0F >= 0x0A {
        c += 9;
        s1 = s1.wrapping_add(6);
    }
    if s1 & 0xF0 >= 0xA0 {
        c += 14;
        s2 = s2.wrapping_add(1);
    }
    if s2 & 0x0F >= 0x0A {
        c += 9;
        s2 = s2.wrapping_add(6);
    }
    if s2 & 0xF0 >= 0xA0 {
        c += 10;
    }
    c
}

/// The whole score loop: `times` passes adding the BCD points `(lo, hi)` to `score` (as
/// [`crate::bcd::add_points_once`] does), returning their cycles.
#[inline]
pub(crate) fn points_passes(score: &mut [u8; 3], lo: u8, hi: u8, times: u16) -> u32 {
    if lo | hi == 0 && score.iter().all(|&b| crate::bcd::is_bcd(b)) {
        // No lines: adding nothing to a decimal score carries nowhere and changes no digit,
        // so every pass takes the same path (most pieces, up to 256 passes).
        return u32::from(times) * points_once(score, 0, 0);
    }
    let mut cycles = 0;
    for _ in 0..times {
        cycles += points_once(score, lo, hi);
        crate::bcd::add_points_once(score, lo, hi);
    }
    cycles
}

// --- playState 6, 7: playState_bTypeGoalCheck, playState_receiveGarbage ---

/// `playState_bTypeGoalCheck` when the game goes on: A-type, or B-type with lines left.
#[inline(always)]
pub(crate) const fn b_type_goal_check(b_type: bool) -> u32 {
    if b_type {
        23
    } else {
        18
    }
}

/// `playState_receiveGarbage` with one player: straight to `inc playState`.
pub(crate) const RECEIVE_GARBAGE: u32 = 19;

// --- playState 8: playState_spawnNextTetrimino ---

/// The spawn waiting for the screen copy.
pub(crate) const SPAWN_WAIT: u32 = 14;
/// The spawn with the `jsr`s of `incrementPieceStat` and `chooseNextTetrimino`, not their bodies.
pub(crate) const SPAWN: u32 = 80;

/// `incrementPieceStat` with its `rts`, for the statistic's low byte before: plain, ones
/// digit corrected, or carried into the hundreds byte.
#[inline(always)]
pub(crate) const fn increment_piece_stat(lo: u8) -> u32 {
    let a = lo.wrapping_add(1);
    if ((a & 0x0F).wrapping_sub(0x0A) as i8) < 0 {
        50
    } else if a.wrapping_add(6) < 0xA0 {
        64
    } else {
        83
    }
}

/// `generateNextPseudorandomNumber` for the two seed bytes, with its `rts`: the feedback
/// test branches one way when bit 1 of both bytes agree.
#[inline(always)]
const fn lfsr(rng: u16) -> u32 {
    if ((rng >> 8) ^ rng) & 2 == 0 {
        54
    } else {
        55
    }
}

/// `chooseNextTetrimino` in the demo: the next entry of the demo's piece list.
pub(crate) const CHOOSE_DEMO: u32 = 41;

/// `chooseNextTetrimino` through `pickRandomTetrimino`, from the generator, pick counter and
/// previous pick before it runs: the first choice kept, or re-rolled (index 7, or a repeat)
/// with one more generator step and `(rng & 7) + spawnID` reduced mod 7 by subtraction.
#[inline(always)]
pub(crate) const fn choose_random(rng: u16, spawn_count: u8, spawn_id: u8) -> u32 {
    const SPAWN_TABLE: [u8; 8] = crate::tables::SPAWN_TABLE;
    // The mode test (its branch crosses a page), the jsr @realStart and both rts.
    const AROUND: u32 = 21;
    let index = ((rng >> 8) as u8).wrapping_add(spawn_count.wrapping_add(1)) & 7;
    let first = if index == 7 {
        20
    } else if SPAWN_TABLE[index as usize] != spawn_id {
        return AROUND + 40;
    } else {
        30
    };
    let next = crate::lfsr::lfsr_step(rng);
    let sum = ((next >> 8) as u8 & 7) as u32 + spawn_id as u32;
    AROUND + first + 40 + lfsr(rng) + 11 * (sum / 7)
}

// --- playState 10: playState_updateGameOverCurtain ---

/// The curtain on a frame it does not move (`frameCounter` not a multiple of 4).
pub(crate) const CURTAIN_IDLE: u32 = 21;

/// The curtain moving: `drawn` when a row was covered (`curtainRow` not negative), `end`
/// when `curtainRow` reached 20.
#[inline(always)]
pub(crate) const fn curtain_step(drawn: bool, end: bool) -> u32 {
    (if drawn { 270 } else { 20 }) + if end { 18 } else { 19 }
}

/// The curtain down and the score below 30,000: waiting for Start, or Start pressed.
#[inline(always)]
pub(crate) const fn curtain_finished(start: bool) -> u32 {
    if start {
        44
    } else {
        37
    }
}

// --- playState 0, 4, 9, 11 ---

/// `playState_unassignOrientationId`.
pub(crate) const UNASSIGN: u32 = 11;
/// `playState_noop`: its `rts`.
pub(crate) const NOOP: u32 = 6;
/// `playState_incrementPlayState`.
pub(crate) const INCREMENT_PLAY_STATE: u32 = 11;

// --- the two sprite stagings ---

/// `jsr stageSpriteForCurrentPiece` and its body (one player) when all four minos are on
/// screen: the 12 `orientationTable` reads cross a page from orientation 8 on.
#[inline(always)]
pub(crate) const fn stage_current_piece(piece: u8) -> u32 {
    6 + 512 + ORIENTATION_CROSSINGS[piece as usize & 31]
}

/// The cycle a mino above the screen saves in `stageSpriteForCurrentPiece`: it skips the
/// read of its column offset, which costs 1 when that read crosses a page.
#[inline(always)]
pub(crate) const fn hidden_mino_saves(piece: u8, mino: usize) -> u32 {
    orientation_cross(piece as usize & 31, 3 * mino + 2)
}

/// The sprite row `stageSpriteForCurrentPiece` computes for a mino: `tetriminoY` × 8
/// (three `rol` through the carry) + $2F, plus the row offset × 8; rows above $2F are
/// hidden.
#[inline(always)]
pub(crate) const fn mino_sprite_y(y: u8, row: i8) -> u8 {
    let mut a = y;
    let mut carry = 0u8;
    let mut i = 0;
    while i < 3 {
        let out = a >> 7;
        a = a << 1 | carry;
        carry = out;
        i += 1;
    }
    let base = a.wrapping_add(0x2F).wrapping_add(carry);
    (row as u8).wrapping_shl(3).wrapping_add(base)
}

/// `jsr stageSpriteForNextPiece` and its body: the preview's four sprites via
/// `loadSpriteIntoOamStaging` (every orientation's sprite has four entries and no read of
/// it crosses a page), or nothing when the preview is off.
#[inline(always)]
pub(crate) const fn stage_next_piece(display_next_piece: u8) -> u32 {
    if display_next_piece == 0 {
        412
    } else {
        18
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    #[test]
    fn position_checks_as_measured() {
        // S horizontal (11): every read of its cells crosses a page.
        assert_eq!(FIT_OK[11], 427);
        // T down (2): no read crosses.
        assert_eq!(FIT_OK[2], 49 + 4 * 88 - 1 + 11);
    }

    proptest::proptest! {
        /// The score loop's shortcut for no lines gives the score and cycles of its passes
        /// taken one by one, on any score bytes (decimal or not) and any points.
        #[test]
        fn points_passes_as_one_by_one(
            score in proptest::prop_oneof![
                proptest::prelude::any::<[u8; 3]>(),
                (0u32..1_000_000).prop_map(|v| {
                    let byte = |d: u32| (((d / 10 % 10) << 4) | (d % 10)) as u8;
                    [byte(v), byte(v / 100), byte(v / 10_000)]
                }),
            ],
            points in proptest::prop_oneof![
                proptest::sample::select(crate::tables::POINTS.to_vec()),
                proptest::prelude::any::<(u8, u8)>(),
            ],
            times in 1u16..=256,
        ) {
            let (lo, hi) = points;
            let mut fast = score;
            let cycles = points_passes(&mut fast, lo, hi, times);
            let (mut slow, mut expected) = (score, 0);
            for _ in 0..times {
                expected += points_once(&slow, lo, hi);
                crate::bcd::add_points_once(&mut slow, lo, hi);
            }
            proptest::prop_assert_eq!(fast, slow);
            proptest::prop_assert_eq!(cycles, expected);
        }
    }

    #[test]
    fn sprite_rows() {
        assert_eq!(mino_sprite_y(0, -1), 0x27);
        assert_eq!(mino_sprite_y(2, -2), 0x2F);
        assert_eq!(mino_sprite_y(19, 1), 0x2F + 160);
    }
}
