//! The tap-speed test, a screen of its own as TetrisGYM's speed test is: no game, only a
//! piece that appears and the player's taps, measured.
//!
//! A [`TapTest`] is fed the controller once a frame ([`TapTest::step`]). A tap is a new
//! press of Left or Right; taps each within [`TAP_BURST_GAP`] frames of the one before are
//! one burst (the HUD's rule, [`crate::tally::Tally`], so the two show the same rates). A
//! piece *spawns* (appears on the screen) [`SPAWN_DELAY`] frames after the last burst ended
//! (at once at the start); the frames from its spawn to the next tap are its first-tap
//! time, the reaction players work on. The numbers: the burst's taps per second (and the
//! best a burst had from its [`BEST_MIN_TAPS`]th tap on), its taps, the frames between them,
//! the first-tap time (and the best).
//!
//! ```
//! use nestris_core::tap_test::TapTest;
//! use nestris_core::{Buttons, Region};
//!
//! let mut t = TapTest::new(Region::Ntsc);
//! // Wait 10 frames after the spawn, then tap Left every 4th frame five times.
//! for f in 0..40 {
//!     let tap = f >= 10 && (f - 10) % 4 == 0 && f < 30;
//!     t.step(if tap { Buttons::LEFT } else { Buttons::NONE });
//! }
//! assert_eq!(t.first_tap(), Some(10));
//! assert_eq!(t.burst_taps(), 5);
//! assert_eq!(t.gaps(), &[4, 4, 4, 4]);
//! assert_eq!(t.rate_tenths(), Some(150)); // 15.0 taps a second
//! ```

use crate::buttons::Buttons;
use crate::tally::{taps_per_second_tenths, TAP_BURST_GAP};
use crate::Region;

/// Frames from the end of a burst to the next piece's spawn: the cartridge's longest
/// entry delay.
pub const SPAWN_DELAY: u32 = 18;

/// Taps a burst needs to count for the best rate: a piece tapped from the spawn to a wall
/// takes 4 or 5, and fewer taps make a rate of one lucky interval.
pub const BEST_MIN_TAPS: u32 = 4;

/// Frames between taps kept for the screen: a burst to the wall and a few more.
pub const GAPS_KEPT: usize = 9;

/// The test's state; see the module doc.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TapTest {
    region: Region,
    /// Frames stepped.
    frame: u32,
    /// Last frame's buttons, to tell a new press.
    held: u8,
    /// The frame the piece shows from; later than `frame` while it waits.
    spawn_at: u32,
    /// True once the shown piece has had its first tap.
    tapped: bool,
    /// The last first-tap time, and the lowest.
    first_tap: Option<u32>,
    best_first_tap: Option<u32>,
    /// The current (or last) burst: its taps, its first and last tap's frames.
    taps: u32,
    first: u32,
    last: u32,
    /// Frames between the burst's taps, the last [`GAPS_KEPT`].
    gaps: [u8; GAPS_KEPT],
    gaps_len: usize,
    /// The best burst's rate in tenths of a tap a second.
    best: Option<u32>,
    /// Taps since the test began.
    total: u32,
}

impl TapTest {
    /// A test on `region`'s console (its frame rate makes the rates), the first piece
    /// shown at once.
    pub const fn new(region: Region) -> TapTest {
        TapTest {
            region,
            frame: 0,
            held: 0,
            spawn_at: 0,
            tapped: false,
            first_tap: None,
            best_first_tap: None,
            taps: 0,
            first: 0,
            last: 0,
            gaps: [0; GAPS_KEPT],
            gaps_len: 0,
            best: None,
            total: 0,
        }
    }

    /// One frame with the controller's `buttons`.
    pub fn step(&mut self, buttons: Buttons) {
        let steer = (Buttons::LEFT | Buttons::RIGHT).bits();
        let pressed = buttons.bits() & !self.held & steer != 0;
        self.held = buttons.bits();
        if pressed {
            self.tap();
        } else if self.taps > 0 && self.frame - self.last == TAP_BURST_GAP && self.tapped {
            // The burst is over: the piece goes, the next comes after the delay.
            self.spawn_at = self.frame + SPAWN_DELAY;
            self.tapped = false;
        }
        self.frame += 1;
    }

    fn tap(&mut self) {
        let now = self.frame;
        self.total = self.total.wrapping_add(1);
        // The piece shows in the picture after its spawn frame: a tap in the next frame is
        // one frame after the spawn (the HUD's count).
        if now > self.spawn_at && !self.tapped {
            self.tapped = true;
            let t = now - self.spawn_at;
            self.first_tap = Some(t);
            self.best_first_tap = Some(self.best_first_tap.map_or(t, |b| b.min(t)));
        }
        if self.taps > 0 && now - self.last <= TAP_BURST_GAP {
            let gap = (now - self.last) as u8;
            if self.gaps_len == GAPS_KEPT {
                self.gaps.copy_within(1.., 0);
                self.gaps_len -= 1;
            }
            self.gaps[self.gaps_len] = gap;
            self.gaps_len += 1;
            self.taps += 1;
        } else {
            self.taps = 1;
            self.first = now;
            self.gaps_len = 0;
        }
        self.last = now;
        if self.taps >= BEST_MIN_TAPS {
            if let Some(r) = self.rate_tenths() {
                self.best = Some(self.best.map_or(r, |b| b.max(r)));
            }
        }
    }

    /// The console whose frame rate the rates use.
    pub const fn region(&self) -> Region {
        self.region
    }

    /// True while the piece is on the screen (spawned, waiting for its taps or being
    /// tapped).
    pub const fn piece_shown(&self) -> bool {
        self.frame > self.spawn_at
    }

    /// The current (or last) burst's taps per second in tenths, once it has two taps.
    pub fn rate_tenths(&self) -> Option<u32> {
        taps_per_second_tenths(self.taps, self.last - self.first, self.region.frame_rate())
    }

    /// The best rate a burst had from its [`BEST_MIN_TAPS`]th tap on (its rate from its
    /// first tap to that one, or a later one), in tenths.
    pub const fn best_rate_tenths(&self) -> Option<u32> {
        self.best
    }

    /// Taps in the current (or last) burst.
    pub const fn burst_taps(&self) -> u32 {
        self.taps
    }

    /// Frames between the burst's taps, oldest first (the last [`GAPS_KEPT`]).
    pub fn gaps(&self) -> &[u8] {
        &self.gaps[..self.gaps_len]
    }

    /// Frames from the last piece's spawn to its first tap.
    pub const fn first_tap(&self) -> Option<u32> {
        self.first_tap
    }

    /// The fewest frames from a spawn to its first tap so far.
    pub const fn best_first_tap(&self) -> Option<u32> {
        self.best_first_tap
    }

    /// Taps since the test began.
    pub const fn total_taps(&self) -> u32 {
        self.total
    }

    /// The controller's buttons this frame.
    pub const fn held(&self) -> Buttons {
        Buttons(self.held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps `t` with Left pressed on the frames `taps` (counted from now) over `frames`.
    fn play(t: &mut TapTest, frames: u32, taps: &[u32]) {
        for f in 0..frames {
            t.step(if taps.contains(&f) {
                Buttons::LEFT
            } else {
                Buttons::NONE
            });
        }
    }

    #[test]
    fn a_burst_s_rate_is_its_taps_after_the_first_over_the_frames_they_took() {
        let mut t = TapTest::new(Region::Ntsc);
        play(&mut t, 30, &[5, 9, 12, 16, 20]);
        assert_eq!(t.burst_taps(), 5);
        assert_eq!(t.gaps(), &[4, 3, 4, 4]);
        // 4 taps in 15 frames at 60.0988 frames a second: 16.03 a second.
        assert_eq!(t.rate_tenths(), Some(160));
        // The best is the fastest the burst was from its 4th tap on: 3 taps in 11 frames.
        assert_eq!(t.best_rate_tenths(), Some(164));
        assert_eq!(t.first_tap(), Some(5));
        // PAL's frames are longer: the same frames are fewer taps a second.
        let mut p = TapTest::new(Region::Pal);
        play(&mut p, 30, &[5, 9, 12, 16, 20]);
        assert_eq!(p.rate_tenths(), Some(133));
    }

    #[test]
    fn the_next_piece_spawns_after_the_burst_and_its_delay() {
        let mut t = TapTest::new(Region::Ntsc);
        play(&mut t, 4, &[0, 2]);
        assert!(t.piece_shown());
        assert_eq!(t.first_tap(), Some(2));
        // 17 frames after the last tap the burst is over and the piece goes.
        play(&mut t, 15, &[]);
        assert!(t.piece_shown());
        play(&mut t, 1, &[]);
        assert!(!t.piece_shown(), "gone");
        play(&mut t, SPAWN_DELAY - 1, &[]);
        assert!(!t.piece_shown());
        play(&mut t, 1, &[]);
        assert!(t.piece_shown(), "the next piece");
        // A tap 7 frames after the spawn.
        play(&mut t, 8, &[6]);
        assert_eq!(t.first_tap(), Some(7));
        assert_eq!(t.best_first_tap(), Some(2), "the first piece's");
    }

    #[test]
    fn short_bursts_do_not_make_the_best_and_a_slow_tap_starts_a_new_burst() {
        let mut t = TapTest::new(Region::Ntsc);
        play(&mut t, 10, &[0, 2, 4]);
        assert_eq!(t.rate_tenths(), Some(300));
        assert_eq!(
            t.best_rate_tenths(),
            None,
            "three taps are not a burst to count"
        );
        play(&mut t, 40, &[30]);
        assert_eq!(t.burst_taps(), 1, "26 frames later: a new burst");
        assert_eq!(t.total_taps(), 4);
        assert_eq!(t.rate_tenths(), None);
        assert!(t.gaps().is_empty());
        // Holding the button is one tap, not one a frame.
        let mut h = TapTest::new(Region::Ntsc);
        for _ in 0..10 {
            h.step(Buttons::RIGHT);
        }
        assert_eq!(h.burst_taps(), 1);
    }

    #[test]
    fn only_the_last_gaps_are_kept() {
        let mut t = TapTest::new(Region::Ntsc);
        let taps: Vec<u32> = (0..15).map(|n| n * 3).collect();
        play(&mut t, 50, &taps);
        assert_eq!(t.burst_taps(), 15);
        assert_eq!(t.gaps(), &[3; GAPS_KEPT]);
        assert_eq!(t.rate_tenths(), Some(200));
    }
}
