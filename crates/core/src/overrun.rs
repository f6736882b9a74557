//! Where the frame interrupt lands when the main loop runs past it (a lag frame), in the main
//! loop's passes after the player update: their instructions one by one, the
//! `gameModeState` a recording sees at each, and the places where an interrupt breaks the
//! jump-table dispatch.
//!
//! Only frames whose work can reach the next interrupt walk these tables; the others add
//! the same cycles as constants (`crate::cycles`).

/// `switch_s_plus_2a`'s instructions (the jump-table dispatch), as cycles: `asl`, `tay`,
/// `iny`, `pla`, `sta tmp1`, `pla`, `sta tmp2`, `lda (tmp1),y`, `tax`, `iny`, `lda (tmp1),y`,
/// `sta tmp2`, `stx tmp1`, `jmp (tmp1)` (the two tables here never cross a page).
const SWITCH: [u8; 14] = [2, 2, 2, 4, 3, 4, 3, 5, 2, 2, 5, 3, 3, 5];

/// The dispatch instructions after which an interrupt breaks the jump: the handler leaves
/// `tmp1`/`tmp2` at 0 (its pad read shifts eight zero bits through each), and the dispatch
/// then reads its table, or jumps, through them. After `sta tmp1` or the `pla` that follows
/// (bits 4-5) the pointer is the table's page start, `$8100`: the dispatch reads the word
/// at `$8100 + y` ([`Jump::Page`]). Later (bits 6-9, 11, 12) the high byte of the target is
/// 0 and it jumps into the zero page ([`Jump::ZeroPage`]). Bit n = after instruction n.
const SWITCH_BREAKS: u16 = 0b0001_1011_1111_0000;
const SWITCH_PAGE_BREAKS: u16 = 0b0000_0000_0011_0000;

/// Where a broken dispatch jumps.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Jump {
    /// To the word at `$8100 + y` (`y` = twice the dispatched index, plus 1: 9 for the
    /// game mode's dispatch in play, 11 to 17 for `gameModeState` 5 to 8).
    Page(u8),
    /// Into the zero page: the console runs the game's variables as code.
    ZeroPage,
}

/// What the console does after a broken dispatch.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Detour {
    /// It reaches a halting opcode: `$EFA9` (music data, `y` = 17), or the zero page, run
    /// as code from the jump or from `$202C` (the picture registers' mirrors, `y` = 13). On
    /// every recorded zero-page jump the walk ended in a halt.
    Halt,
    /// `$8220` (`y` = 9): the legal screen's tail, three waits, the sprite page cleared, a
    /// 255-frame sleep and up to 255 frames waiting for Start, then `inc gameMode` (to 5,
    /// the demo's mode) and back to the main loop.
    LegalScreen,
    /// `$A9AA` (`y` = 11): the end of the ending's setup, `sta $C5` (the pointer's high
    /// byte, `$A9`), `$C6` cleared, `rts`; the main loop then runs the same handler again.
    EndingVars,
    /// `$AA82` (`y` = 15): `memset_ppu_page_and_more` with A = `$AA`, X = `$FF`, Y = 0: 1,024
    /// bytes of `$FF` and 64 of 0 written to the picture memory while it draws (a glitch on
    /// screen), then the main loop runs the same handler again.
    FillNametable,
}

impl Jump {
    /// What follows the jump (the words at `$8100 + y` are the cartridge's).
    pub(crate) const fn detour(self) -> Detour {
        match self {
            Jump::Page(9) => Detour::LegalScreen,
            Jump::Page(11) => Detour::EndingVars,
            Jump::Page(15) => Detour::FillNametable,
            _ => Detour::Halt,
        }
    }

    /// The detour's cycles from its first instruction to the instruction before its return
    /// to the main loop (that `rts` is the first of [`TO_FIRST_SWITCH`]); for
    /// [`Detour::LegalScreen`], to the sound update's first instruction.
    const fn cycles(self) -> u32 {
        match self.detour() {
            // `lda $6B20`, `tax`, `jsr updateAudioWaitForNmiAndResetOamStaging`, its `jsr
            // updateAudio_jmp`.
            Detour::LegalScreen => 4 + 2 + 6 + 6,
            // `sta $C5`, `lda #0`, `sta $C6`.
            Detour::EndingVars => 3 + 2 + 3,
            // `ldx #$FF`, `ldy #0`, `jsr`, then the fill: its setup (50), four pages of
            // `sta`/`dey`/`bne` with `dex`/`bne` (9,231), the attribute setup (24), 64
            // `sty`/`dex`/`bne` (575), `ldx $01`, `rts`.
            Detour::FillNametable => 2 + 2 + 6 + 50 + 9_231 + 24 + 575 + 3 + 6,
            Detour::Halt => 0,
        }
    }
}

/// From the `rts` of the previous handler's dispatch to the next dispatch's jump: that
/// `rts`, the main loop's `cmp`/`bne`, the demo check and `jmp @mainLoop`, `jsr
/// branchOnGameMode`, `lda gameMode`, `jsr switch_s_plus_2a` (then [`SWITCH`]), `jsr
/// gameMode_playAndEndingHighScore`, `lda gameModeState`, `jsr switch_s_plus_2a`.
const TO_FIRST_SWITCH: [u8; 10] = [6, 3, 3, 3, 2, 3, 3, 6, 3, 6];
const TO_SECOND_SWITCH: [u8; 3] = [6, 3, 6];

/// `gameModeState_updatePlayer2` with one player; `gameModeState` goes up at instruction 3.
const UPDATE_PLAYER2: [u8; 5] = [3, 2, 3, 5, 6];
/// `gameModeState_checkForResetKeyCombo` without the reset.
const CHECK_RESET: [u8; 5] = [3, 2, 2, 5, 6];
/// `gameModeState_startButtonHandling` outside play (`renderMode` not 3).
const START_NOT_PLAYING: [u8; 8] = [3, 2, 3, 3, 2, 3, 5, 6];
/// ... in play without Start.
const START_NONE: [u8; 12] = [3, 2, 3, 3, 2, 2, 3, 2, 2, 3, 5, 6];
/// ... with Start during the curtain (no pause).
const START_CURTAIN: [u8; 15] = [3, 2, 3, 3, 2, 2, 3, 2, 3, 3, 2, 2, 3, 5, 6];
/// `gameModeState_vblankThenRunState2`: `gameModeState` becomes 2 at instruction 1.
const VBLANK_THEN_STATE2: [u8; 5] = [2, 3, 6, 6, 6];
/// After the last handler: the dispatch's `rts`, `cmp`/`bne` and `jsr
/// updateAudioWaitForNmiAndResetOamStaging`, then its `jsr updateAudio_jmp`.
const TO_AUDIO: [u8; 5] = [6, 3, 2, 6, 6];

/// Where an interrupt taken in the passes left the frame.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Landing {
    /// Cycles from the handler's start to the end of the instruction the interrupt followed.
    pub boundary: u32,
    /// `gameModeState` as the interrupt finds it.
    pub game_mode_state: u8,
    /// The interrupt broke a dispatch: where the game jumps instead.
    pub jump: Option<Jump>,
    /// Cycles from the handler's start to the sound update's first instruction.
    pub audio_start: u32,
}

/// The handler-7 instructions for this frame (`render_mode`, Start pressed, `play_state`).
#[inline]
fn start_handling(render_mode: u8, pressed: u8, play_state: u8) -> &'static [u8] {
    if render_mode != 3 {
        &START_NOT_PLAYING
    } else if pressed & 0x10 == 0 || play_state != 10 {
        // Start in play pauses, which the caller has ruled out.
        &START_NONE
    } else {
        &START_CURTAIN
    }
}

/// The walk through the passes: the clock, the poll, and the landing once found.
struct Walk {
    now: u32,
    poll: u32,
    found: Option<Landing>,
}

impl Walk {
    #[inline(always)]
    fn step(&mut self, c: u8, gms: u8, jump: Option<Jump>) {
        self.now += c as u32;
        if self.found.is_none() && self.now >= self.poll {
            self.found = Some(Landing {
                boundary: self.now,
                game_mode_state: gms,
                jump,
                audio_start: 0,
            });
        }
    }

    /// One `switch_s_plus_2a` dispatching `index`: the jump it breaks into, if the
    /// interrupt lands in it.
    fn switch(&mut self, gms: u8, index: u8) -> Option<Jump> {
        let was_found = self.found.is_some();
        for (i, &c) in SWITCH.iter().enumerate() {
            let jump = if SWITCH_PAGE_BREAKS >> i & 1 != 0 {
                Some(Jump::Page(index.wrapping_mul(2).wrapping_add(1)))
            } else if SWITCH_BREAKS >> i & 1 != 0 {
                Some(Jump::ZeroPage)
            } else {
                None
            };
            self.step(c, gms, jump);
        }
        match self.found {
            Some(l) if !was_found => l.jump,
            _ => None,
        }
    }

    fn run(&mut self, cycles: &[u8], gms: u8) {
        for &c in cycles {
            self.step(c, gms, None);
        }
    }
}

/// The passes for handlers 5..=8 after the player update, from `at` (cycles from the
/// handler's start at the dispatch `rts` that follows `gameModeState_updatePlayer1`): the
/// first instruction ending at or after `poll`, if one does before the sound update, with
/// the cycles to that update along the path the cartridge takes (a detour included).
/// `game_mode` is what the first dispatch of each pass reads.
pub(crate) fn passes(
    at: u32,
    poll: u32,
    game_mode: u8,
    render_mode: u8,
    pressed: u8,
    play_state: u8,
) -> Option<Landing> {
    let mut w = Walk {
        now: at,
        poll,
        found: None,
    };
    let mut gms = 5u8;
    let mut handler = 5u8;
    'passes: while handler <= 8 {
        w.run(&TO_FIRST_SWITCH, gms);
        let first = w.switch(gms, game_mode);
        let mut second = None;
        if first.is_none() {
            w.run(&TO_SECOND_SWITCH, gms);
            second = w.switch(gms, handler);
        }
        // A halt ends the frame where it is: the cycles after it are those of the jump done
        // right (what [`crate::CrashMode::Show`] plays). A detour takes its own.
        match first.or(second).map(Jump::detour) {
            Some(Detour::LegalScreen) => {
                w.now += first.or(second).map_or(0, Jump::cycles);
                return w.found.map(|l| Landing {
                    audio_start: w.now,
                    ..l
                });
            }
            Some(Detour::EndingVars | Detour::FillNametable) => {
                // Back in the main loop: the same handler's pass again.
                w.now += first.or(second).map_or(0, Jump::cycles);
                continue 'passes;
            }
            Some(Detour::Halt) if first.is_some() => {
                w.run(&TO_SECOND_SWITCH, gms);
                w.switch(gms, handler);
            }
            Some(Detour::Halt) | None => {}
        }
        let (body, bump_at): (&[u8], usize) = match handler {
            5 => (&UPDATE_PLAYER2, 3),
            6 => (&CHECK_RESET, 3),
            7 => {
                let b = start_handling(render_mode, pressed, play_state);
                (b, b.len() - 2)
            }
            _ => (&VBLANK_THEN_STATE2, 1),
        };
        for (i, &c) in body.iter().enumerate() {
            if i == bump_at {
                gms = if handler == 8 { 2 } else { handler + 1 };
            }
            w.step(c, gms, None);
        }
        handler += 1;
    }
    w.run(&TO_AUDIO, gms);
    w.found.map(|l| Landing {
        audio_start: w.now,
        ..l
    })
}

/// Cycles of [`passes`] from its `at` to the sound update, for checking against the
/// constants the ordinary frame adds.
#[cfg(test)]
fn passes_total(render_mode: u8, pressed: u8, play_state: u8) -> u32 {
    let sum = |s: &[u8]| s.iter().map(|&c| c as u32).sum::<u32>();
    let switches = 2 * sum(&SWITCH) + sum(&TO_FIRST_SWITCH) + sum(&TO_SECOND_SWITCH);
    4 * switches
        + sum(&UPDATE_PLAYER2)
        + sum(&CHECK_RESET)
        + sum(start_handling(render_mode, pressed, play_state))
        + sum(&VBLANK_THEN_STATE2)
        + sum(&TO_AUDIO)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cycles;

    #[test]
    fn the_walk_costs_what_the_frame_adds() {
        // The ordinary frame: pass(4)'s closing rts (counted before the player update), the
        // four passes with their handlers, then the wait's call up to the sound update.
        let ordinary = 6
            + 4 * cycles::NEXT_PASS
            + cycles::pass(5)
            + cycles::HANDLER5
            + cycles::pass(6)
            + cycles::HANDLER6
            + cycles::pass(7)
            + 36
            + cycles::pass(8)
            + cycles::HANDLER8
            + cycles::TO_WAIT
            - 7
            + 6;
        assert_eq!(passes_total(3, 0, 1), ordinary);
        assert_eq!(SWITCH.iter().map(|&c| c as u32).sum::<u32>(), 45);
    }

    #[test]
    fn landings_name_the_state_and_the_broken_dispatches() {
        // The first instruction, the first dispatch's `sta tmp1` and its `jmp`.
        let l = passes(1000, 1000, 4, 3, 0, 1).unwrap();
        assert_eq!((l.boundary, l.game_mode_state, l.jump), (1006, 5, None));
        let to_sta = 1000 + 38 + 2 + 2 + 2 + 4 + 3;
        let l = passes(1000, to_sta, 4, 3, 0, 1).unwrap();
        assert_eq!(l.jump, Some(Jump::Page(9)));
        let l = passes(1000, to_sta + 4 + 3, 4, 3, 0, 1).unwrap();
        assert_eq!(l.jump, Some(Jump::ZeroPage));
        let l = passes(1000, 1000 + 38 + 45, 4, 3, 0, 1).unwrap();
        assert_eq!(l.jump, None);
        // Past the sound update's start: no landing here.
        assert_eq!(
            passes(1000, 1000 + passes_total(3, 0, 1) + 1, 4, 3, 0, 1),
            None
        );
        assert_eq!(
            passes(1000, 1000 + passes_total(3, 0, 1), 4, 3, 0, 1).map(|l| l.game_mode_state),
            Some(2)
        );
    }

    #[test]
    fn detours_take_their_own_cycles() {
        let total = passes_total(3, 0, 1);
        let plain = |poll: u32| passes(0, poll, 4, 3, 0, 1).unwrap();
        // The second dispatch of handler 7's pass, at its `sta tmp1`: through `$810F`.
        let pass = 38 + 45 + 15 + 45;
        let pass7 = 2 * pass + sum(&UPDATE_PLAYER2) + sum(&CHECK_RESET);
        let l = plain(pass7 + 38 + 45 + 15 + 13);
        assert_eq!((l.jump, l.game_mode_state), (Some(Jump::Page(15)), 7));
        // The fill, then the same pass again.
        assert_eq!(l.audio_start, total + Jump::Page(15).cycles() + pass);
        assert_eq!(Jump::Page(15).cycles(), 9_899);
        // Handler 5's: `$A9AA`, 8 cycles and the pass again.
        let l = plain(38 + 45 + 15 + 13);
        assert_eq!(l.jump, Some(Jump::Page(11)));
        assert_eq!(l.audio_start, total + 8 + pass);
        // The first dispatch: the legal screen's tail, then the sound update.
        let l = plain(38 + 13);
        assert_eq!(l.jump, Some(Jump::Page(9)));
        assert_eq!(l.audio_start, 38 + 45 + 18);
        // Halts: the jump done right.
        let l = plain(pass + sum(&UPDATE_PLAYER2) + 38 + 45 + 15 + 13);
        assert_eq!((l.jump, l.audio_start), (Some(Jump::Page(13)), total));
        let l = plain(38 + 45 + 15 + 45 - 5);
        assert_eq!((l.jump, l.audio_start), (Some(Jump::ZeroPage), total));
    }

    fn sum(s: &[u8]) -> u32 {
        s.iter().map(|&c| c as u32).sum()
    }
}
