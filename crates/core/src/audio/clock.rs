//! The cycle clock the sound engine's model runs against.
//!
//! The model spells out the cartridge's instructions one by one as runs of cycle counts
//! (`&[2, 4, 3]`: an immediate load, an absolute store, a zero-page store). Two clocks
//! read those runs: [`Count`] only adds them up, and the compiler folds a run of constants
//! into one addition, so the ordinary update costs no more than its branches; [`Probe`]
//! walks them instruction by instruction to find where an interrupt would be taken, and
//! notes when the update reads or clears the bytes the rest of the game writes.

/// Where an instruction reads or clears one of the request bytes the game writes
/// (`soundEffectSlot0Init`..`soundEffectSlot4Init`, `musicTrack`: index = address - $06F0).
#[derive(Clone, Copy, Debug)]
pub(super) enum Mark {
    /// The instruction just counted read request byte `n`.
    Read(usize),
    /// The instruction just counted stored 0 into request byte `n`.
    Cleared(usize),
}

pub(super) trait Clock {
    /// Whether every instruction must be walked; when not, the model may take short cuts
    /// whose totals are the same (the probe walks the long way, which the tests compare).
    const DETAIL: bool;
    /// A straight run of instructions, given as their cycles.
    fn run(&mut self, cycles: &[u8]);
    /// `n` passes over the same run: a loop whose count is known when it starts.
    fn repeat(&mut self, cycles: &[u8], n: u32);
    /// A stretch of `n` cycles whose instructions are not known (an estimate).
    fn lump(&mut self, n: u32);
    /// Only the probe keeps these.
    #[inline(always)]
    fn mark(&mut self, _what: Mark) {}
    /// Cycles so far.
    fn now(&self) -> u32;
}

#[inline(always)]
fn sum(cycles: &[u8]) -> u32 {
    let mut s = 0u32;
    for &c in cycles {
        s += c as u32;
    }
    s
}

/// Adds up; nothing else.
pub(super) struct Count(pub u32);

impl Clock for Count {
    const DETAIL: bool = false;

    #[inline(always)]
    fn run(&mut self, cycles: &[u8]) {
        self.0 += sum(cycles);
    }

    #[inline(always)]
    fn repeat(&mut self, cycles: &[u8], n: u32) {
        self.0 += sum(cycles) * n;
    }

    #[inline(always)]
    fn lump(&mut self, n: u32) {
        self.0 += n;
    }

    #[inline(always)]
    fn now(&self) -> u32 {
        self.0
    }
}

/// Walks instruction by instruction, remembering the end of the first instruction that
/// ends at or after `at`, and where the request bytes were read and cleared.
pub(super) struct Probe {
    pub now: u32,
    pub at: u32,
    pub end: Option<u32>,
    pub read: [Option<u32>; 6],
    pub cleared: [Option<u32>; 6],
}

impl Probe {
    pub fn new(at: u32) -> Probe {
        Probe {
            now: 0,
            at,
            end: None,
            read: [None; 6],
            cleared: [None; 6],
        }
    }
}

impl Clock for Probe {
    const DETAIL: bool = true;

    fn run(&mut self, cycles: &[u8]) {
        for &c in cycles {
            self.now += c as u32;
            if self.end.is_none() && self.now >= self.at {
                self.end = Some(self.now);
            }
        }
    }

    fn repeat(&mut self, cycles: &[u8], n: u32) {
        if self.end.is_some() {
            self.now += sum(cycles) * n;
        } else {
            for _ in 0..n {
                self.run(cycles);
            }
        }
    }

    fn lump(&mut self, n: u32) {
        self.now += n;
        if self.end.is_none() && self.now >= self.at {
            self.end = Some(self.now);
        }
    }

    fn mark(&mut self, what: Mark) {
        // A byte read or cleared twice in one update keeps its first instruction.
        let (slot, n) = match what {
            Mark::Read(n) => (&mut self.read, n),
            Mark::Cleared(n) => (&mut self.cleared, n),
        };
        if slot[n].is_none() {
            slot[n] = Some(self.now);
        }
    }

    fn now(&self) -> u32 {
        self.now
    }
}

/// A branch whose target is on the same page: 2 cycles, 3 taken.
#[inline(always)]
pub(super) fn b(taken: bool) -> u8 {
    2 + taken as u8
}

/// A branch whose target is on another page than the instruction after it: 2 cycles,
/// 4 taken. Which branches these are comes from the cartridge's addresses (each use names
/// its own).
#[inline(always)]
pub(super) fn bx(taken: bool) -> u8 {
    2 + 2 * taken as u8
}

/// The extra cycle of an indexed read whose address leaves the page of its base.
#[inline(always)]
pub(super) fn px(base: u16, index: u8) -> u8 {
    ((base & 0xFF) + index as u16 > 0xFF) as u8
}
