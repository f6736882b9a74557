//! The frame scheduler: frame `n` is due at `start + n / rate`, never "last frame + period".
//!
//! Deadlines are computed from the frame count, so rounding and oversleeping never add
//! up: a frame that starts late shortens the wait for the next one. After a long stall
//! (a suspended terminal, a debugger) the schedule is rebased instead of running a burst
//! of catch-up frames the player could not react to.

use std::time::{Duration, Instant};

/// How far behind the schedule may fall before it is rebased rather than caught up.
pub const MAX_LAG: Duration = Duration::from_millis(250);

/// Deadlines of a fixed-rate frame sequence.
#[derive(Clone, Debug)]
pub struct FramePacer {
    start: Instant,
    rate: f64,
    frame: u64,
}

impl FramePacer {
    /// A schedule whose frame 0 is due at `start`, `rate` frames per second.
    pub fn new(start: Instant, rate: f64) -> FramePacer {
        assert!(rate > 0.0, "frame rate must be positive");
        FramePacer {
            start,
            rate,
            frame: 0,
        }
    }

    /// When the current frame is due.
    pub fn deadline(&self) -> Instant {
        // f64 holds the frame count exactly for 2^53 frames (longer than any session).
        self.start + Duration::from_secs_f64(self.frame as f64 / self.rate)
    }

    /// Moves on to the next frame, after the current one ran at `now`. Returns true if
    /// the schedule was rebased because `now` lagged the next deadline by over [`MAX_LAG`].
    pub fn advance(&mut self, now: Instant) -> bool {
        self.frame += 1;
        let due = self.deadline();
        if now.saturating_duration_since(due) > MAX_LAG {
            self.start = now;
            self.frame = 0;
            return true;
        }
        false
    }

    /// True if the current frame is already overdue at `now` (the caller may skip drawing).
    pub fn is_late(&self, now: Instant) -> bool {
        now > self.deadline()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_follow_the_frame_count_without_drift() {
        let t0 = Instant::now();
        let rate = nestris_core::Region::Ntsc.frame_rate();
        let mut p = FramePacer::new(t0, rate);
        // Run each frame a little late, as a real sleep does: the schedule must not slip.
        for _ in 0..60_099 {
            let late = p.deadline() + Duration::from_micros(900);
            assert!(!p.advance(late));
        }
        let expected = Duration::from_secs_f64(60_099.0 / rate);
        let got = p.deadline() - t0;
        let diff = got.abs_diff(expected);
        assert!(diff < Duration::from_micros(1), "{got:?} vs {expected:?}");
        // About 1000 s for 60099 NTSC frames.
        assert!((got.as_secs_f64() - 1000.0).abs() < 0.01);
    }

    #[test]
    fn pal_rate_is_fifty_frames_a_second() {
        let t0 = Instant::now();
        let mut p = FramePacer::new(t0, nestris_core::Region::Pal.frame_rate());
        for _ in 0..50 {
            p.advance(t0);
        }
        let got = (p.deadline() - t0).as_secs_f64();
        assert!((got - 50.0 / 50.006_978_908_188_6).abs() < 1e-9);
    }

    #[test]
    fn a_long_stall_rebases_instead_of_bursting() {
        let t0 = Instant::now();
        let mut p = FramePacer::new(t0, 60.0);
        let stalled = t0 + Duration::from_secs(2);
        assert!(p.advance(stalled));
        assert_eq!(p.deadline(), stalled);
        // A small lag is caught up: the next deadline stays on the old grid.
        let mut q = FramePacer::new(t0, 60.0);
        assert!(!q.advance(t0 + Duration::from_millis(100)));
        assert!(q.is_late(t0 + Duration::from_millis(100)));
        assert_eq!(q.deadline(), t0 + Duration::from_secs_f64(1.0 / 60.0));
    }
}
