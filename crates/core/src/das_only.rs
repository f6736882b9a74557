//! TetrisGYM's DAS-only mode (made for CTWC DAS 2022): tapping and rolling no longer
//! move the piece, auto-shift does, quick taps and slow taps included.
//!
//! TetrisGYM builds it on its tap-speed display (`hzControl`, run before the shift in
//! every frame of the active piece). A *tap* is a press of Left alone or Right alone; taps
//! of one direction each less than 16 frames after the one before are one *burst*. A tap
//! that comes too soon after its burst's first (`TAP_LIMITS`: on NTSC the 2nd tap of a
//! burst 4 frames after the 1st at the soonest, the 3rd 11, then 6 frames a tap, auto-shift's
//! own pace; the 10th and on never)
//! disables shifting. While shifting is disabled and Left or Right is held, the shift
//! routine is skipped (the tap neither moves the piece nor resets the DAS counter) for two
//! frames, and on the third it runs three times, the frames it skipped: held, they charge
//! DAS as if the too-soon tap had not been. The next allowed tap enables shifting again.
//!
//! The counters are part of the game's state ([`crate::Variant::das_only`]), so a
//! DAS-only game saves, rewinds and replays exactly. At each spawn the burst starts over
//! (`hzStart`); the disabled count goes on across pieces, as TetrisGYM's does. The demo
//! plays by the cartridge's rules.

/// Frames after a burst's first tap before its Nth tap may shift, by N (index 0 unused):
/// NTSC, then PAL (`dasLimitLookup`). From the 10th tap on no tap shifts.
const TAP_LIMITS: [[u8; 10]; 2] = [
    [0, 0, 4, 11, 18, 24, 30, 36, 42, 48],
    [0, 0, 3, 7, 12, 16, 20, 24, 28, 32],
];

/// Frames after a tap at which the next tap of the same direction starts a new burst
/// (`hzDebounceThreshold`).
pub const DEBOUNCE: u8 = 16;

/// Held frames a disabled shift waits before it runs the frames it skipped.
const CATCH_UP: u8 = 4;

/// The DAS-only mode's counters (TetrisGYM's names in brackets).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DasOnly {
    /// Taps in the current burst, 0-15; 0 before the piece's first tap (`hzTapCounter`).
    pub taps: u8,
    /// The burst's direction: 1 Left, 0 Right (`hzTapDirection`).
    pub left: u8,
    /// Frames since the last tap, up to [`DEBOUNCE`] (`hzDebounceCounter`).
    pub debounce: u8,
    /// Frames since the burst's first tap (`hzFrameCounter`).
    pub frames: u16,
    /// 0: the shift runs; 1-3: disabled, counting held frames (`dasOnlyShiftDisabled`).
    pub disabled: u8,
}

impl Default for DasOnly {
    /// As a game's init leaves it: no burst, shifting enabled.
    fn default() -> Self {
        DasOnly {
            taps: 0,
            left: 0,
            debounce: DEBOUNCE,
            frames: 0,
            disabled: 0,
        }
    }
}

/// What the shift routine does this frame under DAS-only.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shift {
    /// The cartridge's shift, once.
    Normal,
    /// No shift this frame.
    Skip,
    /// The shift three times (the skipped frames caught up).
    CatchUp,
}

impl DasOnly {
    /// `hzStart`, at a spawn: the next tap starts a burst.
    pub fn start_piece(&mut self) {
        self.taps = 0;
        self.debounce = DEBOUNCE;
    }

    /// One frame of the active piece (`hzControl`, then the head of `shift_tetrimino`):
    /// `pressed` and `held` are the frame's joypad bytes, `pal` the console. Says what the
    /// shift routine does.
    pub fn frame(&mut self, pressed: u8, held: u8, pal: bool) -> Shift {
        const LEFT: u8 = crate::Buttons::LEFT.bits();
        const RIGHT: u8 = crate::Buttons::RIGHT.bits();
        if self.taps != 0 {
            self.frames = self.frames.wrapping_add(1);
        }
        if self.debounce != DEBOUNCE {
            self.debounce = self.debounce.wrapping_add(1);
        }
        let dir = pressed & (LEFT | RIGHT);
        if dir == LEFT || dir == RIGHT {
            self.tap(u8::from(dir == LEFT), pal);
        }
        if self.disabled == 0 || held & (LEFT | RIGHT) == 0 {
            return Shift::Normal;
        }
        self.disabled = self.disabled.wrapping_add(1);
        if self.disabled == CATCH_UP {
            self.disabled = 0;
            return Shift::CatchUp;
        }
        Shift::Skip
    }

    /// `hzTap` under DAS-only.
    fn tap(&mut self, left: u8, pal: bool) {
        if left != self.left || self.debounce == DEBOUNCE {
            self.left = left;
            self.taps = 0;
            self.frames = 0;
        }
        self.taps = self.taps.wrapping_add(1);
        if self.taps >= 16 {
            // The 16th tap counts as a new burst's first.
            self.taps = 1;
            self.frames = 0;
        }
        self.debounce = 0;
        self.disabled = 0;
        let allowed = match TAP_LIMITS[usize::from(pal)].get(usize::from(self.taps)) {
            // `cmp` and `bpl` on the counter's low byte: a signed 8-bit difference.
            Some(&limit) => (self.frames as u8).wrapping_sub(limit) & 0x80 == 0,
            None => false,
        };
        if !allowed {
            self.disabled = 1;
        }
    }

    /// The counters as 6 bytes (the variant block's bytes 18-23).
    pub fn encode(&self) -> [u8; 6] {
        let f = self.frames.to_le_bytes();
        [
            self.taps,
            self.left,
            self.debounce,
            f[0],
            f[1],
            self.disabled,
        ]
    }

    /// Reads [`DasOnly::encode`]'s bytes; `None` for counters TetrisGYM cannot hold.
    pub fn decode(b: &[u8]) -> Option<DasOnly> {
        let &[taps, left, debounce, f0, f1, disabled] = b else {
            return None;
        };
        let d = DasOnly {
            taps,
            left,
            debounce,
            frames: u16::from_le_bytes([f0, f1]),
            disabled,
        };
        (taps < 16 && left < 2 && debounce <= DEBOUNCE && disabled < CATCH_UP).then_some(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Buttons;

    const L: u8 = Buttons::LEFT.bits();

    /// Plays `pattern` (one byte a frame: 1 held Left, 0 released) from a spawn; returns
    /// the frames whose shift ran normally, skipped, or caught up.
    fn run(pattern: &[u8], pal: bool) -> Vec<Shift> {
        let mut d = DasOnly::default();
        d.start_piece();
        let mut held = 0;
        pattern
            .iter()
            .map(|&h| {
                let now = if h != 0 { L } else { 0 };
                let pressed = now & !held;
                held = now;
                d.frame(pressed, held, pal)
            })
            .collect()
    }

    #[test]
    fn a_second_tap_within_four_frames_does_not_shift() {
        // Taps every 2 frames (30 Hz): the 2nd tap comes 2 frames after the 1st, and the
        // 2nd tap of a burst needs 4.
        let s = run(&[1, 0, 1, 0, 1, 0], false);
        assert_eq!(s[0], Shift::Normal, "a piece's first tap always shifts");
        assert_eq!(s[2], Shift::Skip);
        assert_eq!(
            s[3],
            Shift::Normal,
            "released: the shift runs (and does nothing)"
        );
        let s = run(&[1, 0, 0, 0, 1, 0], false);
        assert_eq!(s[4], Shift::Normal, "4 frames after the first: allowed");
    }

    #[test]
    fn a_disabled_tap_held_catches_up_on_its_third_frame() {
        let s = run(&[1, 0, 1, 1, 1, 1, 1], false);
        assert_eq!(
            &s[2..],
            &[
                Shift::Skip,
                Shift::Skip,
                Shift::CatchUp,
                Shift::Normal,
                Shift::Normal
            ]
        );
    }

    #[test]
    fn taps_at_auto_shift_speed_are_allowed_up_to_the_ninth() {
        // A tap every 6 frames (DAS's period) from frame 0: tap n at 6(n-1) frames, which
        // meets every limit up to the 9th (48); the 10th never shifts.
        let mut pattern = Vec::new();
        for _ in 0..10 {
            pattern.extend_from_slice(&[1, 0, 0, 0, 0, 0]);
        }
        let s = run(&pattern, false);
        for n in 0..9 {
            assert_eq!(s[6 * n], Shift::Normal, "tap {}", n + 1);
        }
        assert_eq!(s[54], Shift::Skip, "the 10th tap");
        // PAL's table is its own: a 3rd tap 7 frames after the first is allowed there,
        // not on NTSC (11).
        let p = [1, 0, 0, 0, 1, 0, 0, 1, 0];
        assert_eq!(run(&p, true)[7], Shift::Normal);
        assert_eq!(run(&p, false)[7], Shift::Skip);
    }

    #[test]
    fn a_pause_of_sixteen_frames_starts_a_new_burst() {
        let mut p = vec![1, 0, 1];
        p.extend([0; 15]);
        p.extend([1, 0, 1]);
        let s = run(&p, false);
        assert_eq!(s[2], Shift::Skip);
        assert_eq!(s[18], Shift::Normal, "a new burst's first tap");
        assert_eq!(s[20], Shift::Skip, "and its second, too soon");
    }

    #[test]
    fn counters_round_trip_and_refuse_what_tetrisgym_cannot_hold() {
        let d = DasOnly {
            taps: 9,
            left: 1,
            debounce: 3,
            frames: 300,
            disabled: 2,
        };
        assert_eq!(DasOnly::decode(&d.encode()), Some(d));
        assert_eq!(DasOnly::decode(&[16, 0, 0, 0, 0, 0]), None);
        assert_eq!(DasOnly::decode(&[0, 0, 17, 0, 0, 0]), None);
        assert_eq!(DasOnly::decode(&[0, 0, 0, 0, 0, 4]), None);
        assert_eq!(DasOnly::decode(&[0; 5]), None);
    }
}
