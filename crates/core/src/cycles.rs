//! What the cartridge's code costs in CPU cycles, routine by routine, on the path it takes.
//!
//! Every figure comes from the instruction timings of the 6502 (page crossings and taken
//! branches included) along the cartridge's code, and was checked against the recordings'
//! emulator frame by frame (see `tests/CARTRIDGE.md`, "The CPU's budget"). A routine's cost
//! here includes the `jsr` that calls it and its `rts`, unless its doc says otherwise.
//! Tables the code indexes sit at fixed addresses, so whether an indexed read crosses a page
//! is a fact of the address and the index: [`cross`] answers it.

use crate::snapshot::Snapshot;

/// One more cycle when `base + index` lies on the next page (indexed reads).
#[inline(always)]
pub(crate) const fn cross(base: u16, index: u8) -> u32 {
    (((base & 0xFF) + index as u16) >> 8) as u32
}

/// Cost of `jsr switch_s_plus_2a` from the call at `jsr_at` with index `a`, up to and
/// including its `jmp (tmp1)`: the jump table follows the call, so the two table reads cross
/// a page when the entry does.
#[inline(always)]
pub(crate) const fn switch(jsr_at: u16, a: u8) -> u32 {
    // The return address pushed is jsr_at + 2; the entry's bytes are at +1 and +2 past it.
    let y = a.wrapping_mul(2).wrapping_add(1);
    let base = jsr_at.wrapping_add(2);
    6 + 45 + cross(base, y) + cross(base, y.wrapping_add(1))
}

/// The frame interrupt's handler in play (`renderMode` 3, one player; or 0 while paused), from its first
/// instruction to the end of its `rti`, without the OAM copy's DMA (see [`OAM_DMA`]); and the
/// cycles from the handler's start to the write that starts the DMA (its parity sets the
/// DMA's length). Read before the handler changes anything.
#[inline]
pub(crate) fn nmi_play(s: &Snapshot) -> (u32, u32) {
    // The pause shows render mode 0 (`render_mode_legal_and_title_screens`: the scroll).
    let render = if s.render_mode == 3 {
        render_play(s)
    } else {
        30
    };
    nmi_with_render(s, render)
}

/// [`nmi_play`] with the render routine's cycles given.
#[inline(always)]
pub(crate) fn nmi_with_render(s: &Snapshot, render: u32) -> (u32, u32) {
    nmi_cycles(s.sleep_counter, s.rng, render)
}

/// [`nmi_with_render`] from the two fields it reads: the handler's cycles before the OAM
/// DMA's own, and those up to its write.
#[inline(always)]
pub(crate) const fn nmi_cycles(sleep_counter: u8, rng: u16, render: u32) -> (u32, u32) {
    // pushes, oamStagingLength, jsr render and its dispatch; render; sleepCounter; the OAM
    // copy's call up to its DMA write.
    let sleep = if sleep_counter == 0 { 17 } else { 13 };
    let to_dma = 24 + 3 + 45 + 6 + render + sleep + 6 + 12;
    // the OAM copy's rts, frame counter, LFSR call, scroll, verticalBlankingInterval,
    // controller read, pulls, rti.
    const AFTER: u32 = 6 + 18 + 4 + 6 + 16 + 5 + 888 + 16 + 6;
    (to_dma + AFTER + lfsr(rng), to_dma)
}

/// `generateNextPseudorandomNumber` for the two seed bytes, with its `rts` (not the `jsr`).
#[inline(always)]
const fn lfsr(rng: u16) -> u32 {
    54 + lfsr_extra(rng)
}

/// The cycle `generateNextPseudorandomNumber` takes more for some seeds: its feedback test
/// branches one way when bit 1 of both bytes agree, and takes one cycle more the other.
#[inline(always)]
pub(crate) const fn lfsr_extra(rng: u16) -> u32 {
    (((rng >> 8) ^ rng) >> 1 & 1) as u32
}

/// The OAM copy's DMA as the recordings' emulator counts it, by the parity of the cycle the
/// handler started on.
pub(crate) const OAM_DMA: [u32; 2] = [514, 513];

/// `render_mode_play_and_demo` with its `rts`.
#[inline(always)]
fn render_play(s: &Snapshot) -> u32 {
    let c = if s.play_state == 4 {
        74 + line_clear_animation(s)
    } else {
        26 + COPY_ROWS[s.vram_row as usize] as u32
    };
    render_play_after(
        c,
        s.render_flags,
        s.level,
        s.completed_lines,
        s.frame_counter,
    )
}

/// [`render_play`] of a play frame whose playfield copy is done and which has nothing to
/// redraw and no tetris flash.
pub(crate) const RENDER_PLAY_IDLE: u32 = render_play_copying(0x20);

/// [`render_play`] of a play frame out of the clear's animation that copies from row
/// `vram_row` and has nothing to redraw and no tetris flash.
#[inline(always)]
pub(crate) const fn render_play_copying(vram_row: u8) -> u32 {
    render_play_after(26 + COPY_ROWS[vram_row as usize] as u32, 0, 0, 0, 0)
}

/// The rest of [`render_play`] after the line-clear animation or the playfield copy (`c`
/// cycles).
#[inline(always)]
const fn render_play_after(
    c: u32,
    flags: u8,
    level: u8,
    completed_lines: u8,
    frame_counter: u16,
) -> u32 {
    // The second player's branches (8), then lines, level, score and statistics if out of
    // date.
    let level = if flags & RENDER_LEVEL != 0 {
        LEVEL_DIGITS[level as usize] as u32
    } else {
        9
    };
    let other = RENDER_FLAG_COSTS[(flags & 0x05 | (flags >> 3) & 0x08) as usize] as u32;
    // The tetris flash tests the active copy of completedLines; then the palette write.
    let flash = if completed_lines != 4 {
        22
    } else if frame_counter & 3 != 0 {
        29
    } else if frame_counter & 7 != 0 {
        38
    } else {
        43
    };
    c + 8 + level + other + flash + 28
}

/// The four `copyPlayfieldRowToVRAM` calls of a frame from each `vramRow` (the rows copied
/// and the cursor's moves folded into one figure).
const COPY_ROWS: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut r = 0;
    while r < 256 {
        let mut row = r as u8;
        let mut c = 0;
        let mut k = 0;
        while k < 4 {
            let (cost, next) = copy_row(row);
            c += cost;
            row = next;
            k += 1;
        }
        t[r] = c as u16;
        r += 1;
    }
    t
};

/// The level number's redraw by level: the digits (whose table read may cross a page) and
/// `updatePaletteForLevel`.
const LEVEL_DIGITS: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut l = 0;
    while l < 256 {
        t[l] = (91 + cross(0x96B8, l as u8) + palette(l as u8)) as u16;
        l += 1;
    }
    t
};

/// The lines, score and statistics redraws by which are out of date (index: bit 0 lines,
/// bit 2 score, bit 3 statistics).
const RENDER_FLAG_COSTS: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut i = 0;
    while i < 16 {
        let lines = if i & 1 != 0 { 85 } else { 8 };
        let score = if i & 4 != 0 { 157 } else { 15 };
        let stats = if i & 8 != 0 { 628 } else { 15 };
        t[i] = lines + score + stats;
        i += 1;
    }
    t
};

/// `copyPlayfieldRowToVRAM` for `vramRow` = `row`, with its `jsr`: (cycles, next row).
#[inline(always)]
const fn copy_row(row: u8) -> (u32, u8) {
    if (row as i8) >= 0x15 {
        return (6 + 14, row);
    }
    let x2 = row.wrapping_mul(2);
    let next = row.wrapping_add(1);
    let done = (next.wrapping_sub(0x14) as i8) >= 0;
    // jsr, the copy up to the test for the last row, the test (and the $20 store), rts.
    let cost = 6
        + 222
        + cross(0x96D6, row)
        + cross(0x96EA, x2.wrapping_add(1))
        + cross(0x96EA, x2)
        + if done { 7 } else { 3 }
        + 6;
    (cost, if done { 0x20 } else { next })
}

/// `updateLineClearingAnimation` with its `rts` (the interrupt's part of a line clear).
#[inline]
fn line_clear_animation(s: &Snapshot) -> u32 {
    if s.frame_counter & 3 != 0 {
        return 14;
    }
    let mut c = 12;
    for i in 0..4 {
        let r = s.completed_row[i];
        c += if r == 0 {
            10
        } else {
            let y = r.wrapping_mul(2);
            104 + cross(0x96EA, y)
                + cross(0x96EA, y.wrapping_add(1))
                + cross(0x97FE, s.row_y)
                + cross(0x9803, s.row_y)
        };
        c += if i == 3 { 12 } else { 13 };
    }
    let next = s.row_y.wrapping_add(1);
    c + 10
        + if (next.wrapping_sub(5) as i8) < 0 {
            3
        } else {
            2 + 5
        }
        + 6
}

/// `updatePaletteForLevel` with its `rts`: the level's last digit picks the colours, by
/// subtracting 10 while `a - 10` has its sign bit clear.
const fn palette(level: u8) -> u32 {
    let mut a = level;
    let mut k = 0;
    // `cmp #10` / `bmi`: the sign of a - 10, so levels 138-255 are not reduced at all.
    while a.wrapping_sub(10) & 0x80 == 0 {
        a = a.wrapping_sub(10);
        k += 1;
    }
    let x = a.wrapping_mul(4);
    let mut crosses = 0;
    let mut j = 0;
    while j < 4 {
        crosses += cross(0x984C + j, x);
        j += 1;
    }
    152 + 11 * k + 2 * crosses
}

/// `outOfDateRenderFlags` bits: what the interrupt redraws next.
pub const RENDER_LINES: u8 = 0x01;
/// The level number (and the palette).
pub const RENDER_LEVEL: u8 = 0x02;
/// The score.
pub const RENDER_SCORE: u8 = 0x04;
/// The piece statistics.
pub const RENDER_STATS: u8 = 0x40;
/// A high-score name letter (name entry).
pub const RENDER_HIGH_SCORE_LETTER: u8 = 0x80;

/// One pass of the main loop through `branchOnGameMode` and
/// `gameMode_playAndEndingHighScore` to a `gameModeState` handler and back, without the
/// handler's own body: `jsr branchOnGameMode`, its dispatch on `gameMode` 4, the `jsr` of
/// `gameMode_playAndEndingHighScore`, its dispatch on `gameModeState`, and the `rts` back.
#[inline(always)]
pub(crate) const fn pass(game_mode_state: u8) -> u32 {
    6 + 3 + switch(0x8163, 4) + 6 + 3 + switch(0x819D, game_mode_state) + 6
}

/// After a handler, when the main loop goes on to the next one: `cmp gameModeState`, the
/// taken `bne`, the demo's end check and `jmp @mainLoop`.
pub(crate) const NEXT_PASS: u32 = 3 + 3 + 11;

/// After a handler, when the main loop waits: `cmp`, `bne` not taken, the `jsr` of the wait
/// routine, and after the sound update `lda #0`, `sta verticalBlankingInterval`, `nop`. The
/// sound update itself is counted apart.
pub(crate) const TO_WAIT: u32 = 3 + 2 + 6 + 7;

/// From the wait loop's exit to the next pass: `lda`/`ldx`/`ldy`, `jsr memset_page` over the
/// sprite page, the wait routine's `rts`, the demo's end check and `jmp @mainLoop`.
pub(crate) const AFTER_WAIT: u32 = 6 + 6 + 2854 + 6 + 11;

/// Leaving the wait loop after the interrupt: after its `lda` the `beq` branches back once
/// more; after its `beq` only the `lda` and the untaken `beq` remain.
#[inline(always)]
pub(crate) const fn wait_exit(after_load: bool) -> u32 {
    if after_load {
        3 + 3 + 2
    } else {
        3 + 2
    }
}

/// `gameModeState_updateCountersAndNonPlayerState` (with its `rts`): two CHR bank writes,
/// the fall timers, and Select toggling the preview.
#[inline(always)]
pub(crate) const fn handler2(pressed: u8) -> u32 {
    if pressed & 0x20 != 0 {
        131
    } else {
        124
    }
}

/// `gameModeState_handleGameOver` while the game goes on.
pub(crate) const HANDLER3: u32 = 32;

/// `gameModeState_updatePlayer1` without the piece work counted in `Cycles::player`:
/// the copies into and out of the active block (each with its `jsr`), `inc gameModeState`,
/// `rts`.
pub(crate) const UPDATE_PLAYER1: u32 = 6 + 509 + 6 + 495 + 5 + 6;

/// `gameModeState_updatePlayer2` with one player.
pub(crate) const HANDLER5: u32 = 19;

/// `gameModeState_checkForResetKeyCombo` without the reset.
pub(crate) const HANDLER6: u32 = 18;

/// `gameModeState_startButtonHandling` in play without Start.
const HANDLER7_PLAY: u32 = 36;

/// `gameModeState_startButtonHandling` when it does not pause (in gameMode 4).
#[inline(always)]
pub(crate) const fn handler7(s: &Snapshot) -> u32 {
    if s.render_mode != 3 {
        27
    } else if s.pressed & 0x10 == 0 {
        HANDLER7_PLAY
    } else {
        // Start during the curtain: no pause.
        44
    }
}

/// `gameModeState_vblankThenRunState2`.
pub(crate) const HANDLER8: u32 = 23;

/// The main loop's passes of an ordinary play frame with nothing pressed, around the
/// player update (counted apart), to the wait: states 2 to 4, then 5 to 8 and `TO_WAIT`.
pub(crate) const IDLE_PLAY_PASSES: u32 = pass(2)
    + handler2(0)
    + NEXT_PASS
    + pass(3)
    + HANDLER3
    + NEXT_PASS
    + pass(4)
    + NEXT_PASS
    + pass(5)
    + HANDLER5
    + NEXT_PASS
    + pass(6)
    + HANDLER6
    + NEXT_PASS
    + pass(7)
    + HANDLER7_PLAY
    + NEXT_PASS
    + pass(8)
    + HANDLER8
    + TO_WAIT;

/// Frame 0 of a game: the rest of `gameModeState_initGameState` after its last wait (the wait
/// routine's return, `initPlayfieldIfTypeB` for an A-type game, the music choice,
/// `inc gameModeState`, `rts`), back through the main loop to the next pass.
#[inline(always)]
pub(crate) const fn init_game_state_end(music_type: u8) -> u32 {
    6 + 6 + 2854 + 6 + (6 + 14) + 3 + 4 + cross(0x85D2, music_type) + 6 + 18 + 5 + 6 + 6 + NEXT_PASS
}

/// `gameModeState_startButtonHandling` when Start pauses: from its dispatch (the `rts` that
/// `pass(7)` ends with does not run in this frame) through `@pause` to the `jsr` of the
/// wait routine, and the 7 cycles after its sound update. The update is counted apart.
pub(crate) const PAUSE_ENTRY: u32 = pass(7) - 6 + 31 + 17 + 7;

/// The first pause frame after the wait: the wait routine's `rts`, the picture's mask write,
/// `memset_page` over the sprite page (with its `jsr`).
pub(crate) const PAUSE_FIRST: u32 = 6 + 12 + 6 + 2854;

/// A later pause frame after the wait: the sprite page's `memset_page`, the wait routine's
/// `rts` and `jmp @pauseLoop`.
pub(crate) const PAUSE_AGAIN: u32 = 6 + 6 + 2854 + 6 + 3;

/// `@pauseLoop` up to its test of Start: the sprite's position and number, and
/// `loadSpriteIntoOamStaging` for the PAUSE sprite (five tiles, with the `jsr`), `lda`,
/// `cmp`.
pub(crate) const PAUSE_LOOP: u32 = 15 + 6 + 461 + 3 + 2;

/// Start not pressed: the untaken `beq`, the `jsr` of the wait routine, and after its sound
/// update `lda #0`, `sta verticalBlankingInterval`, `nop`.
pub(crate) const PAUSE_WAIT: u32 = 2 + 6 + 7;

/// Start pressed: the taken `beq`, `@resume` (mask, sound flag, `vramRow`, render mode),
/// `inc gameModeState`, the handler's `rts`, the dispatch's `rts`, and on to the next pass.
pub(crate) const PAUSE_RESUME: u32 = 3 + 20 + 5 + 6 + 6 + NEXT_PASS;
