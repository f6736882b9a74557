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
    pub(crate) fn advance(&mut self, total: u32) -> Arrival {
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
