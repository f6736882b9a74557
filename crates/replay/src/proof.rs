//! What a replay file records of its own game, so that playing it can show the game is
//! the one recorded: a hash of the input log and, every [`CHECKPOINT_INTERVAL`] frames,
//! the state reached and the inputs so far (format 2). Playing a replay compares them as it
//! goes ([`Checker`]) and names the stretch of frames where a file and its game part.
//!
//! This proves a file consistent with itself, not who wrote it: anyone can play edited
//! inputs and record the new hashes. What it rules out is a file whose inputs were changed
//! after it was written (a nudged piece that later converges to the same board), and a
//! file claiming a result its inputs do not reach.

/// Frames between two checkpoints written by this program (5 s of NTSC play): a file gains
/// 16 bytes per checkpoint, about 11 KB an hour.
pub const CHECKPOINT_INTERVAL: u32 = 300;

/// The state and the input log at one checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// [`nestris_core::Snapshot::state_hash`] after the checkpoint's frame.
    pub state: u64,
    /// [`InputHash`] of every frame up to and including the checkpoint's.
    pub inputs: u64,
}

/// A replay's record of its game, beyond the final state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// Frames between checkpoints (at least 1); checkpoint `k` (from 0) is taken after
    /// frame `(k + 1) * interval` (frames counted from 1), so a replay of `n` frames has
    /// `n / interval` of them.
    pub interval: u32,
    /// The checkpoints, in order.
    pub checkpoints: Vec<Checkpoint>,
    /// [`InputHash`] of the whole input log.
    pub input_hash: u64,
}

/// 64-bit FNV-1a over the joypad bytes, one per frame, fed a frame at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputHash(u64);

impl Default for InputHash {
    fn default() -> InputHash {
        InputHash(0xCBF2_9CE4_8422_2325)
    }
}

impl InputHash {
    /// Adds one frame's joypad byte.
    pub fn push(&mut self, byte: u8) {
        self.0 = (self.0 ^ byte as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }

    /// The hash of the frames pushed so far.
    pub fn value(self) -> u64 {
        self.0
    }
}

/// Where a replay and the game its inputs play part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    /// The joypad bytes in frames `from + 1 ..= to` are not the ones recorded (the ones
    /// before are).
    #[error("the inputs were changed after recording, in frames {} to {to}", from + 1)]
    Inputs {
        /// The last frame (from 1) known to match; 0 for none.
        from: u64,
        /// The frame by which they differ.
        to: u64,
    },
    /// The inputs match, but the game they play differs from the recorded one by frame
    /// `to` (it matched at `from`): another engine's file, other demo tables, a changed
    /// start.
    #[error(
        "the game differs from the recorded one by frame {to} (state {actual:#018x}, recorded {expected:#018x}; it matched at frame {from})"
    )]
    State {
        /// The last checkpoint frame that matched; 0 for the start.
        from: u64,
        /// The checkpoint frame that does not.
        to: u64,
        /// The recorded state hash.
        expected: u64,
        /// The state hash played.
        actual: u64,
    },
    /// The state after the last frame differs from the recorded one.
    #[error("final state hash {actual:#018x}, recorded {expected:#018x}")]
    Final {
        /// The recorded hash.
        expected: u64,
        /// The hash after playing.
        actual: u64,
    },
}

/// What a replay played through shows of itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The input log, every checkpoint and the final state match the file: the replay
    /// plays the game it records.
    Proven,
    /// Played part way: the input log and the checkpoints up to frame `to` matched (the
    /// frames after the last checkpoint passed are unchecked).
    ProvenTo {
        /// The last checkpoint's frame (from 1); 0 if none was passed.
        to: u64,
    },
    /// The file records its final state but no proof of its inputs (format 1, or a file
    /// written without one), and the final state matches.
    FinalStateOnly,
    /// The file records no result to check against.
    Unrecorded,
    /// The game played is not the one the file records.
    Differs(Mismatch),
}

impl Verdict {
    /// True if the file proves the game played (all of it, or some of the part played).
    pub fn is_proven(self) -> bool {
        match self {
            Verdict::Proven => true,
            Verdict::ProvenTo { to } => to > 0,
            _ => false,
        }
    }

    /// One word for status lines: `yes`, `unchecked`, `final-only`, `unrecorded` or `no`.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Proven | Verdict::ProvenTo { .. } if self.is_proven() => "yes",
            Verdict::Proven | Verdict::ProvenTo { .. } => "unchecked",
            Verdict::FinalStateOnly => "final-only",
            Verdict::Unrecorded => "unrecorded",
            Verdict::Differs(_) => "no",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Proven => f.write_str("yes: the inputs, every checkpoint and the final state match"),
            Verdict::ProvenTo { to: 0 } => f.write_str("unchecked: no checkpoint was reached"),
            Verdict::ProvenTo { to } => write!(
                f,
                "yes, to frame {to}: the inputs and the checkpoints so far match"
            ),
            Verdict::FinalStateOnly => f.write_str(
                "unproven: the final state matches, but the file records no proof of its inputs (an older format)",
            ),
            Verdict::Unrecorded => f.write_str("unproven: the file records no result to check"),
            Verdict::Differs(m) => write!(f, "NO: {m}"),
        }
    }
}

/// Builds a [`Proof`] frame by frame while a replay is played, or checks one.
#[derive(Debug)]
pub(crate) struct Checker<'a> {
    interval: u32,
    /// The proof being checked; `None` while building one.
    against: Option<&'a Proof>,
    built: Vec<Checkpoint>,
    hash: InputHash,
    frames: u64,
    mismatch: Option<Mismatch>,
}

impl<'a> Checker<'a> {
    /// A checker that records a new proof.
    pub(crate) fn build() -> Checker<'static> {
        Checker {
            interval: CHECKPOINT_INTERVAL,
            against: None,
            built: Vec::new(),
            hash: InputHash::default(),
            frames: 0,
            mismatch: None,
        }
    }

    /// A checker that compares against `proof`.
    pub(crate) fn check(proof: &'a Proof) -> Checker<'a> {
        Checker {
            interval: proof.interval.max(1),
            against: Some(proof),
            built: Vec::new(),
            hash: InputHash::default(),
            frames: 0,
            mismatch: None,
        }
    }

    /// True if the state after the next frame is wanted (call [`Checker::frame`] with it).
    pub(crate) fn wants_state(&self) -> bool {
        self.mismatch.is_none() && (self.frames + 1) % self.interval as u64 == 0
    }

    /// Notes one frame's joypad byte, and with it the state's hash if
    /// [`Checker::wants_state`] said so.
    pub(crate) fn frame(&mut self, byte: u8, state: Option<u64>) {
        self.hash.push(byte);
        self.frames += 1;
        let Some(state) = state else { return };
        let here = Checkpoint {
            state,
            inputs: self.hash.value(),
        };
        let k = self.built.len();
        let to = self.frames;
        let from = to - self.interval as u64;
        if let Some(p) = self.against {
            match p.checkpoints.get(k) {
                Some(c) if c.inputs != here.inputs => {
                    self.mismatch = Some(Mismatch::Inputs { from, to });
                }
                Some(c) if c.state != here.state => {
                    self.mismatch = Some(Mismatch::State {
                        from,
                        to,
                        expected: c.state,
                        actual: here.state,
                    });
                }
                // Lengths were checked when the file was read.
                _ => {}
            }
        }
        self.built.push(here);
    }

    /// The proof built, for a replay of the frames fed.
    pub(crate) fn proof(self) -> Proof {
        Proof {
            interval: self.interval,
            checkpoints: self.built,
            input_hash: self.hash.value(),
        }
    }

    /// The verdict after the frames fed, `whole` if they were all of the replay's, with the
    /// recorded final hash (if any) and the final state's.
    pub(crate) fn verdict(&self, whole: bool, recorded: Option<u64>, actual: u64) -> Verdict {
        if let Some(m) = self.mismatch {
            return Verdict::Differs(m);
        }
        let Some(p) = self.against else {
            return match recorded {
                _ if !whole => Verdict::Unrecorded,
                Some(expected) if expected != actual => {
                    Verdict::Differs(Mismatch::Final { expected, actual })
                }
                Some(_) => Verdict::FinalStateOnly,
                None => Verdict::Unrecorded,
            };
        };
        if !whole {
            return Verdict::ProvenTo {
                to: self.built.len() as u64 * self.interval as u64,
            };
        }
        if self.hash.value() != p.input_hash {
            let from = self.built.len() as u64 * self.interval as u64;
            return Verdict::Differs(Mismatch::Inputs {
                from,
                to: self.frames,
            });
        }
        match recorded {
            Some(expected) if expected != actual => {
                Verdict::Differs(Mismatch::Final { expected, actual })
            }
            Some(_) => Verdict::Proven,
            // A proof without a final hash is refused when read.
            None => Verdict::Unrecorded,
        }
    }
}
