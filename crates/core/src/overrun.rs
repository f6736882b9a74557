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
/// `tmp1`/`tmp2` at 0, and the dispatch then reads its table, or jumps, through them (into
/// the zero page, or to a table entry on the wrong page). Bit n = after instruction n.
const SWITCH_BREAKS: u16 = 0b0001_1011_1111_0000;

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
    /// The interrupt broke a dispatch: the game jumps where the cartridge never goes.
    pub breaks: bool,
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

/// The passes for handlers 5..=8 after the player update, from `at` (cycles from the
/// handler's start at the dispatch `rts` that follows `gameModeState_updatePlayer1`): the
/// first instruction ending at or after `poll`, if one does before the sound update.
pub(crate) fn passes(
    at: u32,
    poll: u32,
    render_mode: u8,
    pressed: u8,
    play_state: u8,
) -> Option<Landing> {
    let mut now = at;
    let mut found: Option<Landing> = None;
    let mut gms = 5u8;
    let mut step = |now: &mut u32, c: u8, gms: u8, breaks: bool| {
        *now += c as u32;
        if found.is_none() && *now >= poll {
            found = Some(Landing {
                boundary: *now,
                game_mode_state: gms,
                breaks,
                audio_start: 0,
            });
        }
    };
    for handler in 5..=8u8 {
        for &c in &TO_FIRST_SWITCH {
            step(&mut now, c, gms, false);
        }
        for (i, &c) in SWITCH.iter().enumerate() {
            step(&mut now, c, gms, SWITCH_BREAKS >> i & 1 != 0);
        }
        for &c in &TO_SECOND_SWITCH {
            step(&mut now, c, gms, false);
        }
        for (i, &c) in SWITCH.iter().enumerate() {
            step(&mut now, c, gms, SWITCH_BREAKS >> i & 1 != 0);
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
            step(&mut now, c, gms, false);
        }
    }
    for &c in &TO_AUDIO {
        step(&mut now, c, gms, false);
    }
    found.map(|l| Landing {
        audio_start: now,
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
        let l = passes(1000, 1000, 3, 0, 1).unwrap();
        assert_eq!((l.boundary, l.game_mode_state, l.breaks), (1006, 5, false));
        let to_sta = 1000 + 38 + 2 + 2 + 2 + 4 + 3;
        let l = passes(1000, to_sta, 3, 0, 1).unwrap();
        assert!(l.breaks);
        let l = passes(1000, 1000 + 38 + 45, 3, 0, 1).unwrap();
        assert!(!l.breaks);
        // Past the sound update's start: no landing here.
        assert_eq!(
            passes(1000, 1000 + passes_total(3, 0, 1) + 1, 3, 0, 1),
            None
        );
        assert_eq!(
            passes(1000, 1000 + passes_total(3, 0, 1), 3, 0, 1).map(|l| l.game_mode_state),
            Some(2)
        );
    }
}
