//! The frame scheduler: frame `n` is due at `start + n / rate`, never "last frame + period".
//!
//! Deadlines come from the frame count, so neither rounding nor a late wake-up adds up:
//! a frame that starts late shortens the wait for the next one. After a stall of more
//! than [`MAX_LAG`] (a dragged window, a suspended process) the schedule is rebased
//! instead of running a burst of catch-up frames the player could not react to.
//!
//! [`PacingLog`] writes one line per frame (`NESTRIS_PACING_LOG=path`), and
//! [`PacingStats`] sums such timestamps up; [`measure`] runs the scheduler alone (the
//! `pacing` example prints its figures).

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// How far behind the schedule may fall before it is rebased rather than caught up.
pub const MAX_LAG: Duration = Duration::from_millis(250);

/// Frames a front end runs back to back at most, with no picture drawn between them,
/// when its loop is behind the schedule (a short stall is caught up this way; a long
/// one is rebased, see [`MAX_LAG`]).
pub const MAX_CATCH_UP: u32 = 4;

/// The environment variable naming the per-frame timing log.
pub const PACING_LOG_VAR: &str = "NESTRIS_PACING_LOG";

/// Deadlines of a fixed-rate frame sequence.
#[derive(Clone, Debug)]
pub struct FramePacer {
    start: Instant,
    rate: f64,
    frame: u64,
    resyncs: u64,
}

impl FramePacer {
    /// A schedule whose frame 0 is due at `start`, `rate` frames per second.
    ///
    /// # Panics
    /// If `rate` is not positive.
    pub fn new(start: Instant, rate: f64) -> FramePacer {
        assert!(rate > 0.0, "frame rate must be positive");
        FramePacer {
            start,
            rate,
            frame: 0,
            resyncs: 0,
        }
    }

    /// When the current frame is due.
    pub fn deadline(&self) -> Instant {
        // f64 holds the frame count exactly for 2^53 frames (longer than any session).
        self.start + Duration::from_secs_f64(self.frame as f64 / self.rate)
    }

    /// Frames per second.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Times the schedule was rebased after a stall.
    pub fn resyncs(&self) -> u64 {
        self.resyncs
    }

    /// Moves on to the next frame, after the current one ran at `now`. Returns true if
    /// the schedule was rebased because `now` lagged the next deadline by over [`MAX_LAG`].
    pub fn advance(&mut self, now: Instant) -> bool {
        self.frame += 1;
        let due = self.deadline();
        if now.saturating_duration_since(due) > MAX_LAG {
            self.start = now;
            self.frame = 0;
            self.resyncs += 1;
            return true;
        }
        false
    }

    /// True if the current frame is due at `now`.
    pub fn is_due(&self, now: Instant) -> bool {
        now >= self.deadline()
    }

    /// True if the current frame is already overdue at `now` (the caller may skip
    /// drawing it).
    pub fn is_late(&self, now: Instant) -> bool {
        now > self.deadline()
    }
}

/// Sleeps until `deadline` (returns at once if it has passed).
pub fn sleep_until(deadline: Instant) {
    let now = Instant::now();
    if deadline > now {
        std::thread::sleep(deadline - now);
    }
}

/// One line per frame: the frame's number and its start in seconds since the log began.
#[derive(Debug)]
pub struct PacingLog {
    out: BufWriter<std::fs::File>,
    origin: Instant,
    frames: u64,
}

impl PacingLog {
    /// A log at the path in `NESTRIS_PACING_LOG`, if that is set.
    pub fn from_env() -> io::Result<Option<PacingLog>> {
        match std::env::var_os(PACING_LOG_VAR) {
            Some(p) if !p.is_empty() => PacingLog::create(Path::new(&p)).map(Some),
            _ => Ok(None),
        }
    }

    /// A new log file at `path`.
    pub fn create(path: &Path) -> io::Result<PacingLog> {
        let mut out = BufWriter::new(std::fs::File::create(path)?);
        writeln!(out, "# frame seconds")?;
        Ok(PacingLog {
            out,
            origin: Instant::now(),
            frames: 0,
        })
    }

    /// Notes that a frame started at `at`.
    pub fn frame(&mut self, at: Instant) -> io::Result<()> {
        let t = at.saturating_duration_since(self.origin).as_secs_f64();
        writeln!(self.out, "{} {t:.9}", self.frames)?;
        self.frames += 1;
        Ok(())
    }

    /// Writes out what is buffered.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Frame periods summed up against the console's rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PacingStats {
    /// Frames measured (periods = frames - 1).
    pub frames: usize,
    /// The target period in seconds (1 / rate).
    pub target: f64,
    /// Mean period in seconds (first to last frame, divided by the periods).
    pub mean: f64,
    /// Standard deviation of the single periods, seconds.
    pub jitter: f64,
    /// Longest single period, seconds.
    pub max: f64,
    /// How late frames started against the ideal grid from the first frame, seconds:
    /// median, 99th percentile and worst.
    pub late: [f64; 3],
}

impl PacingStats {
    /// Statistics of frame start times `t` (seconds, ascending) at `rate`.
    pub fn from_times(t: &[f64], rate: f64) -> Option<PacingStats> {
        if t.len() < 2 {
            return None;
        }
        let n = (t.len() - 1) as f64;
        let mean = (t[t.len() - 1] - t[0]) / n;
        let periods = t.windows(2).map(|w| w[1] - w[0]);
        let var = periods.clone().map(|p| (p - mean).powi(2)).sum::<f64>() / n;
        let max = periods.fold(0.0, f64::max);
        let mut late: Vec<f64> = t
            .iter()
            .enumerate()
            .map(|(i, &ti)| ti - (t[0] + i as f64 / rate))
            .collect();
        late.sort_by(f64::total_cmp);
        let pick = |q: f64| late[((late.len() - 1) as f64 * q).round() as usize];
        Some(PacingStats {
            frames: t.len(),
            target: 1.0 / rate,
            mean,
            jitter: var.sqrt(),
            max,
            late: [pick(0.5), pick(0.99), pick(1.0)],
        })
    }

    /// Times from a [`PacingLog`] file's text (comment lines skipped).
    pub fn parse_log(text: &str) -> Vec<f64> {
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_whitespace().nth(1)?.parse().ok())
            .collect()
    }

    /// The mean period's deviation from the target, in parts per million.
    pub fn deviation_ppm(&self) -> f64 {
        (self.mean - self.target) / self.target * 1e6
    }
}

impl std::fmt::Display for PacingStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} frames: mean period {:.6} ms (target {:.6} ms, deviation {:+.3} us = {:+.2} ppm), \
             jitter (std dev) {:.3} ms, longest {:.3} ms; start vs grid: median {:+.3} ms, \
             p99 {:+.3} ms, worst {:+.3} ms",
            self.frames,
            self.mean * 1e3,
            self.target * 1e3,
            (self.mean - self.target) * 1e6,
            self.deviation_ppm(),
            self.jitter * 1e3,
            self.max * 1e3,
            self.late[0] * 1e3,
            self.late[1] * 1e3,
            self.late[2] * 1e3,
        )
    }
}

/// Runs the scheduler alone for `duration` at `rate` (sleeping until each deadline, as
/// the game's loop waits) and returns the measured frame starts' statistics.
pub fn measure(rate: f64, duration: Duration) -> PacingStats {
    let start = Instant::now();
    let mut pacer = FramePacer::new(start, rate);
    let mut times = Vec::with_capacity((duration.as_secs_f64() * rate) as usize + 2);
    while start.elapsed() < duration {
        sleep_until(pacer.deadline());
        let now = Instant::now();
        times.push((now - start).as_secs_f64());
        pacer.advance(now);
    }
    PacingStats::from_times(&times, rate).expect("a run of more than one frame")
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::Region;

    #[test]
    fn deadlines_follow_the_frame_count_without_drift() {
        let t0 = Instant::now();
        let rate = Region::Ntsc.frame_rate();
        let mut p = FramePacer::new(t0, rate);
        // Each frame runs a little late, as a real wake-up does: the grid must not slip.
        for _ in 0..60_099 {
            let late = p.deadline() + Duration::from_micros(900);
            assert!(!p.advance(late));
        }
        let expected = Duration::from_secs_f64(60_099.0 / rate);
        let got = p.deadline() - t0;
        assert!(got.abs_diff(expected) < Duration::from_micros(1), "{got:?}");
        assert!((got.as_secs_f64() - 1000.0).abs() < 0.01);
    }

    #[test]
    fn pal_runs_at_fifty_hertz() {
        let t0 = Instant::now();
        let mut p = FramePacer::new(t0, Region::Pal.frame_rate());
        for _ in 0..50 {
            p.advance(t0);
        }
        let got = (p.deadline() - t0).as_secs_f64();
        assert!((got - 50.0 / 50.006_978_908_188_6).abs() < 1e-9);
    }

    #[test]
    fn a_long_stall_resyncs_and_a_short_one_catches_up() {
        let t0 = Instant::now();
        let mut p = FramePacer::new(t0, 60.0);
        let stalled = t0 + Duration::from_millis(300);
        assert!(p.advance(stalled));
        assert_eq!(p.deadline(), stalled);
        assert_eq!(p.resyncs(), 1);
        let mut q = FramePacer::new(t0, 60.0);
        assert!(!q.advance(t0 + Duration::from_millis(200)));
        assert!(q.is_due(t0 + Duration::from_millis(200)));
        assert!(q.is_late(t0 + Duration::from_millis(200)));
        assert!(q.is_due(q.deadline()) && !q.is_late(q.deadline()));
        assert_eq!(q.deadline(), t0 + Duration::from_secs_f64(1.0 / 60.0));
    }

    #[test]
    fn stats_of_a_steady_and_a_jittery_run() {
        let rate = 60.0;
        let steady: Vec<f64> = (0..61).map(|i| i as f64 / rate).collect();
        let s = PacingStats::from_times(&steady, rate).unwrap();
        assert!((s.mean - 1.0 / 60.0).abs() < 1e-12);
        assert!(s.jitter < 1e-9 && s.deviation_ppm().abs() < 1e-6);
        // Alternating early and late starts: same mean, some jitter.
        let jittery: Vec<f64> = (0..61)
            .map(|i| i as f64 / rate + if i % 2 == 1 { 0.001 } else { 0.0 })
            .collect();
        let j = PacingStats::from_times(&jittery, rate).unwrap();
        assert!((j.mean - s.mean).abs() < 1e-12);
        assert!((j.jitter - 0.001).abs() < 1e-6, "{}", j.jitter);
        assert!((j.max - (1.0 / 60.0 + 0.001)).abs() < 1e-9);
        // Half the frames are 1 ms late against the grid.
        assert!(j.late[0].abs() < 1e-9 || (j.late[0] - 0.001).abs() < 1e-9);
        assert!((j.late[2] - 0.001).abs() < 1e-9);
        assert!(PacingStats::from_times(&[1.0], rate).is_none());
        assert!(j.to_string().contains("jitter"));
    }

    #[test]
    fn the_log_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pacing.log");
        let mut log = PacingLog::create(&path).unwrap();
        let t = Instant::now();
        for i in 0..10 {
            log.frame(t + Duration::from_millis(16 * i)).unwrap();
        }
        log.flush().unwrap();
        let times = PacingStats::parse_log(&std::fs::read_to_string(&path).unwrap());
        assert_eq!(times.len(), 10);
        assert!((times[9] - times[0] - 0.144).abs() < 1e-6);
    }
}
