//! The CPU's time: how many cycles the cartridge spends in a frame, and where the next
//! frame interrupt finds it.
//!
//! The console's picture processor raises the frame interrupt (NMI) at a fixed point of
//! every video frame: 341 × 262 dots, one dot less on odd frames while rendering, three dots
//! per CPU cycle on NTSC. The CPU takes the interrupt at the end of the instruction it is
//! running, so where the handler starts depends on what the main loop was doing: normally it
//! spins in its wait loop (`lda verticalBlankingInterval` / `beq`, 3 cycles each), and the
//! handler starts 25..=33 dots after the signal. [`Clock`] carries those few facts from frame
//! to frame; the costs of the code that runs are in `costs.rs` (see [`crate::cycles`]).
//!
//! The rule that places the handler was measured on the recordings' emulator: the interrupt is
//! taken after the first instruction that ends at least 4 dots after the signal, and its first
//! handler cycle follows that instruction's end by the 7 cycles of the interrupt sequence.

/// Dots (picture-processor clocks) per NTSC video frame while rendering, even frame.
pub const FRAME_DOTS_EVEN: u32 = 341 * 262;
/// Dots of an odd frame while rendering (the pre-render line skips its last dot).
pub const FRAME_DOTS_ODD: u32 = 341 * 262 - 1;
/// Dots per CPU cycle (NTSC).
pub const DOTS_PER_CYCLE: u32 = 3;
/// Cycles of the interrupt sequence before the handler's first instruction.
pub const INTERRUPT_SEQUENCE: u32 = 7;
/// An instruction must end this many dots after the signal for the interrupt to follow it.
pub const NMI_POLL_DOTS: u32 = 4;
/// Cycles of one pass of the wait loop's two instructions (`lda zp` 3, `beq` taken 3).
pub const WAIT_LOOP_HALF: u32 = 3;

/// Where the last frame interrupt found the CPU: the sub-frame timing a frame needs to know
/// when the next interrupt arrives. Part of the save state.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Clock {
    /// Dots from the interrupt's signal to the handler's first cycle.
    pub nmi_dots: u16,
    /// The interrupt followed the wait loop's `lda` (not its `beq`): returning into the loop
    /// then runs the branch back and the loop once more (8 cycles instead of 5).
    pub after_load: bool,
    /// The handler's first cycle is odd (by the recordings' count from power-on): the OAM
    /// copy in the handler lasts one cycle more or less by this parity.
    pub odd_cycle: bool,
    /// The frame that began with that interrupt is an odd video frame (one dot shorter).
    pub odd_frame: bool,
    /// False once the main loop has run code this model does not count (menus, endings):
    /// the timing is then unknown until the next game starts.
    pub known: bool,
    /// Main-loop cycles still to run after the interrupt returns, when it came before the
    /// last frame's work was done (a lag frame; see [`crate::flow::Resume::Interrupted`]).
    pub pending: u16,
    /// The main loop waits in the pause's first wait (`updateAudioAndWaitForNmi`), whose
    /// return runs 3 cycles more than the pause loop's own wait before the loop.
    pub pause_entry: bool,
}

impl Default for Clock {
    /// The timing at the first frame of a game started from the menus the way every
    /// cartridge recording was (see `tests/CARTRIDGE.md`, "The CPU's budget").
    fn default() -> Self {
        Clock::RECORDED_GAME_START
    }
}

impl Clock {
    /// The recordings' timing just before frame 0 of a game: the state at game init's last
    /// wait, as the frame-0 interrupt will find it.
    pub const RECORDED_GAME_START: Clock = Clock {
        // Measured on the recordings entered through the menus as level 18 (all the
        // high-level ones): the handler's first cycle 31 dots after the signal, odd, in an
        // odd video frame, the wait left after its `lda`.
        nmi_dots: 31,
        after_load: true,
        odd_cycle: true,
        odd_frame: true,
        known: true,
        pending: 0,
        pause_entry: false,
    };
}

/// What the next frame interrupt found when a frame's work was done.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Arrival {
    /// The main loop was waiting: the clock now describes the next frame's start.
    Waiting,
    /// The interrupt came before the work ended (a lag frame) in work that did not place
    /// it (see `Clock::interrupted`); the clock is left as it was.
    DuringWork,
}

impl Clock {
    /// Dots from this frame's interrupt signal to the next one's.
    #[inline(always)]
    pub(crate) const fn frame_dots(&self) -> u32 {
        if self.odd_frame {
            FRAME_DOTS_ODD
        } else {
            FRAME_DOTS_EVEN
        }
    }

    /// Dots from this frame's handler start to the next interrupt's signal.
    #[inline(always)]
    pub(crate) const fn signal_dots(&self) -> u32 {
        self.frame_dots() - self.nmi_dots as u32
    }

    /// The earliest instruction end (in cycles from this frame's handler start) after which
    /// the next interrupt can be taken.
    #[inline(always)]
    pub(crate) const fn first_poll_end(&self) -> u32 {
        (self.signal_dots() + NMI_POLL_DOTS).div_ceil(DOTS_PER_CYCLE)
    }

    /// Moves the clock over a frame whose main loop was interrupted after the instruction
    /// ending `boundary` cycles from the handler's start, `pending` cycles short of its wait.
    #[inline]
    pub(crate) fn interrupted(&mut self, boundary: u32, pending: u32) {
        let start = boundary + INTERRUPT_SEQUENCE;
        self.nmi_dots = (DOTS_PER_CYCLE * start - self.signal_dots()) as u16;
        self.after_load = false;
        self.odd_cycle ^= start & 1 == 1;
        self.odd_frame = !self.odd_frame;
        self.pending = pending as u16;
    }

    /// Moves the clock over a frame whose handler began where `self` says and whose code
    /// (handler and main-loop work) took `total` cycles before entering the wait loop.
    #[inline(always)]
    pub(crate) const fn advance(&mut self, total: u32) -> Arrival {
        // Dots from the loop's entry to the next signal.
        let d = self.frame_dots() as i32 - self.nmi_dots as i32 - (DOTS_PER_CYCLE * total) as i32;
        if d + NMI_POLL_DOTS as i32 <= 0 {
            return Arrival::DuringWork;
        }
        // The loop's instructions end every 3 cycles (9 dots): the first one ending at least
        // NMI_POLL_DOTS after the signal is followed by the interrupt.
        let j = (d as u32 + NMI_POLL_DOTS).div_ceil(9);
        let nmi_dots = 9 * j + DOTS_PER_CYCLE * INTERRUPT_SEQUENCE - d as u32;
        self.nmi_dots = nmi_dots as u16;
        self.after_load = j & 1 == 1;
        self.odd_cycle ^= (total + WAIT_LOOP_HALF * j + INTERRUPT_SEQUENCE) & 1 == 1;
        self.odd_frame = !self.odd_frame;
        Arrival::Waiting
    }
}

/// A clock that the last interrupt found waiting, as one of 72 states: where the handler
/// began (25-33 dots after the signal: the wait loop's instructions end every 9 dots), after
/// which of the loop's two instructions, and the two parities. A run of frames that each end
/// waiting (`idle.rs`) keeps its clock so and moves it by [`Phase::next`], a table lookup,
/// where [`Clock::advance`] divides and tests.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Phase(u8);

/// The handler's earliest start after a wait, in dots from the signal.
const PHASE_FIRST_DOTS: u16 = 25;
/// States of a [`Phase`]: 9 starts, by the loop's instruction and the two parities.
const PHASES: usize = 9 * 8;
/// The largest cycles a frame may spend, less the OAM copy's DMA and the wait's exit, for its
/// interrupt to find the loop waiting whatever the phase: then the table's move is
/// [`Clock::advance`]'s (the test `phases_move_as_the_clock`).
pub(crate) const PHASE_WORK_LIMIT: u32 = 24_000;
// The odd frame's dots, less the latest start and the largest DMA and exit, must leave
// the next interrupt's poll after the work ends.
const _: () = assert!(
    DOTS_PER_CYCLE
        * (PHASE_WORK_LIMIT + crate::cycles::OAM_DMA[0] + crate::cycles::wait_exit(true))
        + PHASE_FIRST_DOTS as u32
        + 8
        < FRAME_DOTS_ODD + NMI_POLL_DOTS
);

impl Phase {
    /// The phase of a clock that the last interrupt found waiting (none left over from a
    /// lag frame or a pause's entry); `None` for any other.
    #[inline(always)]
    pub(crate) const fn of(c: &Clock) -> Option<Phase> {
        let dots = c.nmi_dots.wrapping_sub(PHASE_FIRST_DOTS);
        if !c.known || c.pending != 0 || c.pause_entry || dots >= 9 {
            return None;
        }
        Some(Phase(
            (dots as u8) << 3
                | (c.after_load as u8) << 2
                | (c.odd_cycle as u8) << 1
                | c.odd_frame as u8,
        ))
    }

    /// The clock this phase stands for.
    #[inline(always)]
    pub(crate) const fn clock(self) -> Clock {
        Clock {
            nmi_dots: PHASE_FIRST_DOTS + (self.0 >> 3) as u16,
            after_load: self.0 & 4 != 0,
            odd_cycle: self.0 & 2 != 0,
            odd_frame: self.0 & 1 != 0,
            known: true,
            pending: 0,
            pause_entry: false,
        }
    }

    /// The phase after a frame whose interrupt's cycles are `nmi` up to the OAM copy's DMA
    /// (which starts at cycle `dma_at`), and whose main loop then works `work` cycles before
    /// its wait; the DMA's length and the wait's exit are the phase's own. `nmi + work`
    /// must not exceed [`PHASE_WORK_LIMIT`].
    #[inline(always)]
    pub(crate) fn next(self, dma_at: u32, nmi_and_work: u32) -> Phase {
        Phase(Phase::moves(dma_at, nmi_and_work)[0][self.index()])
    }

    /// The moves of frames of `cycles` and of one cycle more (as [`Phase::next`] takes
    /// them), for a run of frames that differ by the generator's one cycle: index by that
    /// cycle, then by [`Phase::index`].
    #[inline(always)]
    pub(crate) fn moves(dma_at: u32, cycles: u32) -> &'static [[u8; 128]; 2] {
        debug_assert!(cycles <= PHASE_WORK_LIMIT);
        // Where the next interrupt finds the loop depends on the frame's cycles modulo 6:
        // modulo 3 for the dot within the loop's 9, and the parities of the loop's passes
        // and of the cycle count.
        &PHASE_NEXT[(dma_at & 1) as usize][(cycles % 6) as usize]
    }

    /// This phase as an index into [`Phase::moves`]'s rows.
    #[inline(always)]
    pub(crate) const fn index(self) -> usize {
        self.0 as usize & 127
    }

    /// The phase a row of [`Phase::moves`] gives.
    #[inline(always)]
    pub(crate) const fn from_move(m: u8) -> Phase {
        Phase(m)
    }
}

/// [`Phase::moves`]: by the parity of the DMA's start, the frame's cycles modulo 6 (less
/// the DMA and the wait's exit), one cycle more or not, and the phase before (in 128
/// columns, so that an index masked to 7 bits needs no bounds test).
static PHASE_NEXT: [[[[u8; 128]; 2]; 6]; 2] = {
    let mut t = [[[[0u8; 128]; 2]; 6]; 2];
    let mut p = 0;
    while p < 2 {
        let mut r = 0;
        while r < 7 {
            let mut i = 0;
            while i < PHASES {
                let mut c = Phase(i as u8).clock();
                let dma = crate::cycles::OAM_DMA[((c.odd_cycle as u32) ^ p as u32) as usize & 1];
                let exit = crate::cycles::wait_exit(c.after_load);
                // Any frame of these cycles modulo 6 within the limit moves the phase alike.
                let total = 6 * 1_000 + r as u32 + dma + exit;
                let _ = c.advance(total);
                let next = match Phase::of(&c) {
                    Some(next) => next.0,
                    None => panic!("a waiting frame leaves a phase"),
                };
                // Cycles r are row r's first move, and row r - 1's second.
                if r < 6 {
                    t[p][r][0][i] = next;
                }
                if r > 0 {
                    t[p][r - 1][1][i] = next;
                }
                i += 1;
            }
            r += 1;
        }
        p += 1;
    }
    t
};

/// The sound engine's page ($0680-$06FF) just before frame 0 of every recorded A-type game
/// started from the menus: the level menu's music was loaded and then stopped by the menu's
/// `updateAudio2`, and the Start sound of the level menu still plays.
const RECORDED_AUDIO_PAGE: [u8; 128] = [
    0x27, 0x0b, 0x00, 0x00, 0x27, 0x0b, 0x00, 0x00, 0x27, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x81, 0x24, 0xbf, 0xee, 0xc9, 0xee, 0xd3, 0xee, 0xdd, 0xee, 0x0a, 0x0a, 0x00, 0xf1, 0xf1, 0x3c,
    0xe3, 0xee, 0xb1, 0xef, 0x4f, 0xf0, 0x58, 0xf2, 0x00, 0x00, 0x00, 0x00, 0x05, 0x05, 0x06, 0x03,
    0x00, 0x00, 0x04, 0x01, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x18, 0x00, 0x00, 0x03, 0x03,
    0x7f, 0x7f, 0x00, 0x20, 0x20, 0x20, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x7b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
];

/// The sound engine as every recorded game found it at its start (see
/// [`RECORDED_AUDIO_PAGE`]).
pub fn recorded_audio() -> crate::audio::Audio {
    crate::audio::Audio::from_page(&RECORDED_AUDIO_PAGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_move_as_the_clock() {
        for i in 0..PHASES as u8 {
            let phase = Phase(i);
            let start = phase.clock();
            assert_eq!(Phase::of(&start), Some(phase));
            for dma_at in 0..2 {
                let dma = crate::cycles::OAM_DMA[((start.odd_cycle as u32) ^ dma_at) as usize & 1];
                let exit = crate::cycles::wait_exit(start.after_load);
                for work in 0..=PHASE_WORK_LIMIT {
                    let mut c = start;
                    assert_eq!(c.advance(work + dma + exit), Arrival::Waiting);
                    assert_eq!(
                        phase.next(dma_at, work).clock(),
                        c,
                        "{phase:?} {dma_at} {work}"
                    );
                    if work > 0 {
                        let one_more = Phase::moves(dma_at, work - 1)[1][phase.index()];
                        assert_eq!(Phase::from_move(one_more).clock(), c);
                    }
                }
            }
        }
    }

    #[test]
    fn only_a_clock_found_waiting_has_a_phase() {
        let waiting = Clock::RECORDED_GAME_START;
        assert!(Phase::of(&waiting).is_some());
        for c in [
            Clock {
                known: false,
                ..waiting
            },
            Clock {
                pending: 1,
                ..waiting
            },
            Clock {
                pause_entry: true,
                ..waiting
            },
            Clock {
                nmi_dots: 24,
                ..waiting
            },
            Clock {
                nmi_dots: 34,
                ..waiting
            },
        ] {
            assert_eq!(Phase::of(&c), None, "{c:?}");
        }
    }
}
