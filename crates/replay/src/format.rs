//! The replay file's bytes (see `docs/REPLAY_FORMAT.md`): writing, and reading with an
//! error that says what is wrong and at which byte.

use crate::proof::{Checkpoint, Proof};
use crate::{DemoSource, Replay, Start};
use nestris_core::encode::{timing_len, ENCODED_LEN};
use nestris_core::{Buttons, CrashMode, GameSetup, GameType, Region, Snapshot, Variant};

/// The first eight bytes of every replay file.
pub const MAGIC: [u8; 8] = *b"NESTRISR";

/// The version of the layout written by this library (independent of the crate's version).
/// Version 2 added the proof (input hash and checkpoints); version 1 files still read.
pub const FORMAT_VERSION: u16 = 2;

/// The oldest layout this library reads.
const OLDEST_VERSION: u16 = 1;

/// Why a replay could not be read or did not verify.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ReplayError {
    /// The file does not start with the replay magic.
    #[error("not a nestris replay (the first 8 bytes are not \"NESTRISR\")")]
    BadMagic,
    /// A newer or unknown layout.
    #[error(
        "replay format version {0} is not supported (this program reads versions {OLDEST_VERSION} to {FORMAT_VERSION})"
    )]
    UnsupportedVersion(u16),
    /// The file ends early.
    #[error("truncated replay: {what} expected at byte {at}, but the file has {len} bytes")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Byte offset.
        at: usize,
        /// File length.
        len: usize,
    },
    /// A field holds a value the format does not allow.
    #[error("bad replay: {what} = {value} at byte {at}")]
    BadField {
        /// Which field.
        what: &'static str,
        /// The value found.
        value: u64,
        /// Byte offset.
        at: usize,
    },
    /// The starting snapshot is not a state the cartridge can hold.
    #[error("bad replay: the starting state at byte {at} is invalid: {message}")]
    BadSnapshot {
        /// Byte offset.
        at: usize,
        /// What is wrong.
        message: String,
    },
    /// The checksum does not match: the file was damaged.
    #[error("damaged replay: checksum {stored:#010x} stored, {computed:#010x} computed")]
    Checksum {
        /// Stored CRC-32.
        stored: u32,
        /// Computed CRC-32.
        computed: u32,
    },
    /// Bytes after the checksum.
    #[error("bad replay: {0} unexpected bytes after the end")]
    TrailingBytes(usize),
    /// Playing the replay did not play the game it records.
    #[error("replay does not verify: {0}")]
    Differs(#[from] crate::proof::Mismatch),
}

/// The most frames a replay may hold (about 25 days of play): a larger count in a
/// small file would otherwise expand into gigabytes of inputs.
pub const MAX_FRAMES: u64 = 1 << 27;

const START_POWER_ON: u8 = 0;
const START_SETUP: u8 = 1;
const START_SNAPSHOT: u8 = 2;
const FLAG_HASH: u8 = 1;
/// A crash-mode byte follows the start payload (absent: written before crash modes, `Off`).
const FLAG_CRASH_MODE: u8 = 2;
/// A snapshot start carries its timing block (`Snapshot::encode_timing`) after its layout:
/// the sub-frame clock and the sound page, which decide its lag frames and crashes (absent:
/// written before the block was stored; the game starts from the recordings' game-start
/// timing, as after any `Snapshot::decode`).
const FLAG_TIMING: u8 = 4;
/// The proof follows the runs (format 2): the input log's hash and the checkpoints.
const FLAG_PROOF: u8 = 8;
/// The game's variant rules (`Variant::encode`) follow the crash-mode byte (format 2; a game
/// setup or snapshot start only): written for every game whose rules are not the
/// cartridge's, so a seeded or capped game replays under its own rules.
const FLAG_VARIANT: u8 = 16;

impl Replay {
    /// The replay as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.inputs.len() / 4);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let hash_flag = if self.final_hash.is_some() {
            FLAG_HASH
        } else {
            0
        };
        let timing_flag = if matches!(self.start, Start::Snapshot(_)) {
            FLAG_TIMING
        } else {
            0
        };
        // A proof is only written with the final hash it ends in.
        let proof = self.proof.as_ref().filter(|_| self.final_hash.is_some());
        let proof_flag = if proof.is_some() { FLAG_PROOF } else { 0 };
        let variant = self.start.variant().filter(|v| !v.is_cartridge());
        let variant_flag = if variant.is_some() { FLAG_VARIANT } else { 0 };
        out.push(hash_flag | FLAG_CRASH_MODE | timing_flag | proof_flag | variant_flag);
        out.push(self.start.region() as u8);
        out.push(match self.demo {
            DemoSource::Builtin => 0,
            DemoSource::Cartridge => 1,
        });
        match &self.start {
            Start::PowerOn(_) => out.push(START_POWER_ON),
            Start::Setup(s) => {
                out.push(START_SETUP);
                out.push(s.game_type as u8);
                out.push(s.level);
                out.push(s.a_held_on_start as u8);
                out.push(s.height);
                out.push(s.music_type);
                out.extend_from_slice(&s.rng.to_le_bytes());
                out.push(s.spawn_count);
                out.extend_from_slice(&s.frame_counter.to_le_bytes());
            }
            Start::Snapshot(s) => {
                out.push(START_SNAPSHOT);
                out.extend_from_slice(&s.encode());
                out.extend_from_slice(&s.encode_timing());
            }
        }
        out.push(self.crash_mode.code());
        if let Some(v) = variant {
            out.extend_from_slice(&v.encode());
        }
        out.extend_from_slice(&(self.inputs.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.final_hash.unwrap_or(0).to_le_bytes());
        let meta = self.metadata.as_bytes();
        let meta = &meta[..meta.len().min(u16::MAX as usize)];
        out.extend_from_slice(&(meta.len() as u16).to_le_bytes());
        out.extend_from_slice(meta);
        let runs = runs(&self.inputs);
        out.extend_from_slice(&(runs.len() as u32).to_le_bytes());
        for (b, n) in runs {
            out.push(b.bits());
            write_varint(&mut out, n);
        }
        if let Some(p) = proof {
            out.extend_from_slice(&p.interval.to_le_bytes());
            out.extend_from_slice(&p.input_hash.to_le_bytes());
            out.extend_from_slice(&(p.checkpoints.len() as u32).to_le_bytes());
            for c in &p.checkpoints {
                out.extend_from_slice(&c.state.to_le_bytes());
                out.extend_from_slice(&c.inputs.to_le_bytes());
            }
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a replay from its bytes; any damage is an error, never a panic.
    pub fn from_bytes(data: &[u8]) -> Result<Replay, ReplayError> {
        let mut r = Cursor { data, at: 0 };
        if data.len() < 8 || data[..8] != MAGIC {
            return Err(ReplayError::BadMagic);
        }
        r.at = 8;
        let version = r.u16("format version")?;
        if !(OLDEST_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(ReplayError::UnsupportedVersion(version));
        }
        // The checksum covers everything before it; check it before trusting lengths.
        if data.len() >= 4 + r.at {
            let body = &data[..data.len() - 4];
            let stored = u32::from_le_bytes(data[data.len() - 4..].try_into().unwrap_or([0; 4]));
            let computed = crc32fast::hash(body);
            if stored != computed {
                // Report truncation rather than a checksum error when the file is cut short.
                let parsed = parse_body(
                    &mut Cursor {
                        data: body,
                        at: r.at,
                    },
                    version,
                    true,
                );
                return Err(match parsed {
                    Err(e @ ReplayError::Truncated { .. }) => e,
                    _ => ReplayError::Checksum { stored, computed },
                });
            }
            let mut body_cursor = Cursor {
                data: body,
                at: r.at,
            };
            let replay = parse_body(&mut body_cursor, version, false)?;
            if body_cursor.at != body.len() {
                return Err(ReplayError::TrailingBytes(body.len() - body_cursor.at));
            }
            return Ok(replay);
        }
        Err(ReplayError::Truncated {
            what: "header",
            at: r.at,
            len: data.len(),
        })
    }
}

fn parse_body(r: &mut Cursor<'_>, version: u16, lenient: bool) -> Result<Replay, ReplayError> {
    let flags_at = r.at;
    let flags = r.u8("flags")?;
    let known = match version {
        1 => FLAG_HASH | FLAG_CRASH_MODE | FLAG_TIMING,
        _ => FLAG_HASH | FLAG_CRASH_MODE | FLAG_TIMING | FLAG_PROOF | FLAG_VARIANT,
    };
    if flags & !known != 0 {
        return Err(ReplayError::BadField {
            what: "flags",
            value: flags as u64,
            at: flags_at,
        });
    }
    let region_at = r.at;
    let region = match r.u8("region")? {
        0 => Region::Ntsc,
        1 => Region::Pal,
        v => {
            return Err(ReplayError::BadField {
                what: "region",
                value: v as u64,
                at: region_at,
            })
        }
    };
    let demo_at = r.at;
    let demo = match r.u8("demo source")? {
        0 => DemoSource::Builtin,
        1 => DemoSource::Cartridge,
        v => {
            return Err(ReplayError::BadField {
                what: "demo source",
                value: v as u64,
                at: demo_at,
            })
        }
    };
    let kind_at = r.at;
    let start = match r.u8("start kind")? {
        START_POWER_ON => Start::PowerOn(region),
        START_SETUP => {
            let at = r.at;
            let game_type = match r.u8("game type")? {
                0 => GameType::A,
                1 => GameType::B,
                v => {
                    return Err(ReplayError::BadField {
                        what: "game type",
                        value: v as u64,
                        at,
                    })
                }
            };
            let level = r.u8("start level")?;
            let at = r.at;
            let a_held = match r.u8("A held flag")? {
                0 => false,
                1 => true,
                v => {
                    return Err(ReplayError::BadField {
                        what: "A held flag",
                        value: v as u64,
                        at,
                    })
                }
            };
            let at = r.at;
            let height = r.u8("height")?;
            if height > 5 {
                return Err(ReplayError::BadField {
                    what: "height",
                    value: height as u64,
                    at,
                });
            }
            let at = r.at;
            let music_type = r.u8("music")?;
            if music_type > 3 {
                return Err(ReplayError::BadField {
                    what: "music",
                    value: music_type as u64,
                    at,
                });
            }
            let at = r.at;
            let rng = r.u16("generator")?;
            if rng == 0 {
                return Err(ReplayError::BadField {
                    what: "generator",
                    value: 0,
                    at,
                });
            }
            let spawn_count = r.u8("pick counter")?;
            let frame_counter = r.u16("frame counter")?;
            Start::Setup(GameSetup {
                region,
                game_type,
                level,
                a_held_on_start: a_held,
                height,
                music_type,
                rng,
                spawn_count,
                frame_counter,
                // Set with the crash-mode byte below.
                crash_mode: CrashMode::Off,
                // Set with the variant block below.
                variant: Variant::CARTRIDGE,
            })
        }
        START_SNAPSHOT => {
            let at = r.at;
            let bytes = r.take(ENCODED_LEN, "starting state")?;
            let mut s = Snapshot::decode(bytes).map_err(|e| ReplayError::BadSnapshot {
                at,
                message: e.to_string(),
            })?;
            if flags & FLAG_TIMING != 0 {
                let at = r.at;
                // The block's first byte is its version, which gives its length.
                let version = r.u8("starting state's timing block")?;
                r.at = at;
                let len = timing_len(version).ok_or(ReplayError::BadField {
                    what: "timing block version",
                    value: version as u64,
                    at,
                })?;
                let block = r.take(len, "starting state's timing block")?;
                s.decode_timing(block)
                    .map_err(|e| ReplayError::BadSnapshot {
                        at,
                        message: format!("timing block: {e}"),
                    })?;
            }
            if s.region != region {
                return Err(ReplayError::BadField {
                    what: "snapshot region",
                    value: s.region as u64,
                    at,
                });
            }
            Start::Snapshot(Box::new(s))
        }
        v => {
            return Err(ReplayError::BadField {
                what: "start kind",
                value: v as u64,
                at: kind_at,
            })
        }
    };
    if flags & FLAG_TIMING != 0 && !matches!(start, Start::Snapshot(_)) {
        return Err(ReplayError::BadField {
            what: "flags (a timing block without a snapshot start)",
            value: flags as u64,
            at: flags_at,
        });
    }
    let mut start = start;
    // Without the byte the file predates crash modes, and the engine that wrote it had none:
    // no cycle accounting.
    let crash_mode = if flags & FLAG_CRASH_MODE != 0 {
        let at = r.at;
        let code = r.u8("crash mode")?;
        CrashMode::from_code(code).ok_or(ReplayError::BadField {
            what: "crash mode",
            value: code as u64,
            at,
        })?
    } else {
        CrashMode::Off
    };
    if let Start::Setup(s) = &mut start {
        s.crash_mode = crash_mode;
    }
    if flags & FLAG_VARIANT != 0 {
        let at = r.at;
        // The block's first byte is its layout version, which says its length.
        let version = r.take(1, "variant")?[0];
        let len = Variant::encoded_len(version).ok_or(ReplayError::BadField {
            what: "variant version",
            value: version as u64,
            at,
        })?;
        r.at = at;
        let bytes = r.take(len, "variant")?;
        let variant =
            Variant::decode(bytes)
                .filter(|v| !v.is_cartridge())
                .ok_or(ReplayError::BadField {
                    what: "variant",
                    value: bytes[0] as u64,
                    at,
                })?;
        match &mut start {
            Start::Setup(s) => s.variant = variant,
            Start::Snapshot(s) => s.variant = variant,
            Start::PowerOn(_) => {
                return Err(ReplayError::BadField {
                    what: "flags (a variant with a power-on start)",
                    value: flags as u64,
                    at: flags_at,
                })
            }
        }
    }
    let frames_at = r.at;
    let frames = r.u32("frame count")? as u64;
    if frames > MAX_FRAMES {
        return Err(ReplayError::BadField {
            what: "frame count (more than a replay may hold)",
            value: frames,
            at: frames_at,
        });
    }
    let hash = r.u64("final state hash")?;
    let meta_len = r.u16("metadata length")? as usize;
    let meta_at = r.at;
    let meta = r.take(meta_len, "metadata")?;
    let metadata = String::from_utf8(meta.to_vec()).map_err(|_| ReplayError::BadField {
        what: "metadata (not UTF-8)",
        value: meta_len as u64,
        at: meta_at,
    })?;
    let runs_at = r.at;
    let run_count = r.u32("run count")? as usize;
    // Each run takes at least two bytes: a count beyond the file is damage.
    if run_count > r.remaining() / 2 && !lenient {
        return Err(ReplayError::BadField {
            what: "run count",
            value: run_count as u64,
            at: runs_at,
        });
    }
    let mut inputs = Vec::with_capacity(frames.min(1 << 24) as usize);
    for _ in 0..run_count {
        let b = r.u8("run buttons")?;
        let at = r.at;
        let n = r.varint("run length")?;
        if n == 0 || n > frames - inputs.len() as u64 {
            return Err(ReplayError::BadField {
                what: "run length",
                value: n,
                at,
            });
        }
        inputs.extend(std::iter::repeat_n(Buttons(b), n as usize));
    }
    if inputs.len() as u64 != frames {
        return Err(ReplayError::BadField {
            what: "frame count (runs end early)",
            value: frames,
            at: frames_at,
        });
    }
    let proof = if flags & FLAG_PROOF != 0 {
        if flags & FLAG_HASH == 0 {
            return Err(ReplayError::BadField {
                what: "flags (a proof without a final state hash)",
                value: flags as u64,
                at: flags_at,
            });
        }
        Some(read_proof(r, frames)?)
    } else {
        None
    };
    Ok(Replay {
        start,
        demo,
        inputs,
        final_hash: if flags & FLAG_HASH != 0 {
            Some(hash)
        } else {
            None
        },
        proof,
        metadata,
        crash_mode,
    })
}

/// The proof after the runs: interval, input hash, and one checkpoint per full interval.
fn read_proof(r: &mut Cursor<'_>, frames: u64) -> Result<Proof, ReplayError> {
    let at = r.at;
    let interval = r.u32("checkpoint interval")?;
    if interval == 0 {
        return Err(ReplayError::BadField {
            what: "checkpoint interval",
            value: 0,
            at,
        });
    }
    let input_hash = r.u64("input hash")?;
    let at = r.at;
    let count = r.u32("checkpoint count")? as u64;
    // The count follows from the frames; each checkpoint's bytes must be in the file
    // before any memory is reserved for them.
    if count != frames / interval as u64 || count > (r.remaining() / 16) as u64 {
        return Err(ReplayError::BadField {
            what: "checkpoint count",
            value: count,
            at,
        });
    }
    let mut checkpoints = Vec::with_capacity(count as usize);
    for _ in 0..count {
        checkpoints.push(Checkpoint {
            state: r.u64("checkpoint state hash")?,
            inputs: r.u64("checkpoint input hash")?,
        });
    }
    Ok(Proof {
        interval,
        checkpoints,
        input_hash,
    })
}

/// Run-length encoding of the inputs: (buttons, frames).
fn runs(inputs: &[Buttons]) -> Vec<(Buttons, u64)> {
    let mut out: Vec<(Buttons, u64)> = Vec::new();
    for &b in inputs {
        match out.last_mut() {
            Some((last, n)) if *last == b => *n += 1,
            _ => out.push((b, 1)),
        }
    }
    out
}

fn write_varint(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7F) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

struct Cursor<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.at)
    }
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], ReplayError> {
        if self.remaining() < n {
            return Err(ReplayError::Truncated {
                what,
                at: self.at,
                len: self.data.len(),
            });
        }
        let s = &self.data[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self, what: &'static str) -> Result<u8, ReplayError> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &'static str) -> Result<u16, ReplayError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self, what: &'static str) -> Result<u32, ReplayError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self, what: &'static str) -> Result<u64, ReplayError> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn varint(&mut self, what: &'static str) -> Result<u64, ReplayError> {
        let start = self.at;
        let mut n: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.u8(what)?;
            n |= ((b & 0x7F) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(ReplayError::BadField {
            what,
            value: n,
            at: start,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes a fresh checksum over edited bytes, as an editor of a file would.
    fn recrc(b: &mut [u8]) {
        let n = b.len();
        let crc = crc32fast::hash(&b[..n - 4]);
        b[n - 4..].copy_from_slice(&crc.to_le_bytes());
    }

    fn small() -> Replay {
        let mut r = Replay::new(Start::Setup(GameSetup {
            level: 9,
            rng: 0x1234,
            spawn_count: 3,
            frame_counter: 7,
            ..GameSetup::default()
        }));
        r.metadata = "test".into();
        r.inputs = [
            Buttons::NONE,
            Buttons::NONE,
            Buttons::LEFT,
            Buttons::LEFT,
            Buttons::LEFT,
            Buttons::A,
        ]
        .to_vec();
        r.seal();
        r
    }

    #[test]
    fn bytes_are_pinned() {
        let r = small();
        let b = r.to_bytes();
        let hash = r.final_hash.unwrap().to_le_bytes();
        let proof = r.proof.as_ref().unwrap();
        assert!(proof.checkpoints.is_empty(), "6 frames: no checkpoint");
        let mut expected = Vec::new();
        expected.extend_from_slice(b"NESTRISR");
        expected.extend_from_slice(&[2, 0]); // format version
        expected.extend_from_slice(&[0x0B, 0, 0]); // flags: hash, crash mode, proof; NTSC; built-in demo
        expected.extend_from_slice(&[1, 0, 9, 0, 0, 0, 0x34, 0x12, 3, 7, 0]); // setup
        expected.push(0); // crash mode: cartridge
        expected.extend_from_slice(&[6, 0, 0, 0]); // frames
        expected.extend_from_slice(&hash);
        expected.extend_from_slice(&[4, 0]);
        expected.extend_from_slice(b"test");
        expected.extend_from_slice(&[3, 0, 0, 0, 0x00, 2, 0x02, 3, 0x80, 1]); // runs
        expected.extend_from_slice(&[0x2C, 1, 0, 0]); // checkpoint interval 300
                                                      // FNV-1a of the joypad bytes 00 00 02 02 02 80.
        let inputs = crate::proof::InputHash::default();
        let inputs = [0u8, 0, 2, 2, 2, 0x80].iter().fold(inputs, |mut h, &b| {
            h.push(b);
            h
        });
        assert_eq!(proof.input_hash, inputs.value());
        expected.extend_from_slice(&inputs.value().to_le_bytes());
        expected.extend_from_slice(&[0, 0, 0, 0]); // no checkpoints
        let crc = crc32fast::hash(&expected);
        expected.extend_from_slice(&crc.to_le_bytes());
        assert_eq!(b, expected);
        assert_eq!(Replay::from_bytes(&b).unwrap(), r);
    }

    #[test]
    fn every_crash_mode_round_trips() {
        for mode in CrashMode::ALL {
            for start in [
                Start::PowerOn(Region::Pal),
                Start::Setup(GameSetup {
                    crash_mode: mode,
                    ..GameSetup::default()
                }),
                // As a file holds it: layout 1, the rest at a game's start.
                Start::Snapshot(Box::new(
                    Snapshot::decode(
                        &nestris_core::Game::new(GameSetup::default())
                            .snapshot()
                            .encode(),
                    )
                    .unwrap(),
                )),
            ] {
                let mut r = Replay::new(start);
                r.crash_mode = mode;
                r.inputs = vec![Buttons::LEFT; 50];
                r.seal();
                let back = Replay::from_bytes(&r.to_bytes()).unwrap();
                assert_eq!(back.crash_mode, mode);
                if let Start::Setup(s) = &back.start {
                    assert_eq!(s.crash_mode, mode);
                }
                assert_eq!(back, r);
                assert_eq!(back.game().crash_mode(), mode);
                assert!(back.verify().is_ok());
            }
        }
        let mut b = small().to_bytes();
        // The crash-mode byte: 4 is no mode.
        b[24] = 4;
        recrc(&mut b);
        assert!(matches!(
            Replay::from_bytes(&b),
            Err(ReplayError::BadField {
                what: "crash mode",
                at: 24,
                ..
            })
        ));
    }

    #[test]
    fn a_file_from_before_crash_modes_reads_as_off_and_verifies() {
        // The pinned example's bytes as the format wrote them before crash modes: flag bit 1
        // clear, no crash-mode byte.
        let mut r = small();
        r.crash_mode = CrashMode::Off;
        if let Start::Setup(s) = &mut r.start {
            s.crash_mode = CrashMode::Off;
        }
        r.seal();
        let mut b = r.to_bytes();
        b[10] &= !FLAG_CRASH_MODE;
        b.remove(24);
        recrc(&mut b);
        let old = Replay::from_bytes(&b).unwrap();
        assert_eq!(old.crash_mode, CrashMode::Off);
        assert!(matches!(&old.start, Start::Setup(s) if s.crash_mode == CrashMode::Off));
        assert!(!old.game().state().clock.known);
        assert!(old.verify().is_ok());
        assert_eq!(old, r);
    }

    /// A snapshot start holds its timing: a poked crash replayed from the file crashes in the
    /// same frame as the game it was taken from.
    #[test]
    fn a_snapshot_start_keeps_its_timing_and_its_crash() {
        let game = nestris_core::Game::capped_score_frame(160, CrashMode::Cartridge);
        let mut r = Replay::new(Start::Snapshot(Box::new(game.snapshot())));
        r.inputs = vec![Buttons::NONE; 40];
        r.seal();
        let (live, live_summary) = r.play_with_demo(40, &nestris_core::DemoData::BUILTIN);
        assert!(live.halted(), "the poked game halts");
        let b = r.to_bytes();
        assert_ne!(b[10] & FLAG_TIMING, 0);
        let back = Replay::from_bytes(&b).unwrap();
        assert_eq!(back, r);
        assert!(back.game().state().clock.known);
        let summary = back.verify().unwrap();
        assert_eq!(summary.crash_frame, live_summary.crash_frame);
        assert_eq!(summary.crash_frame, Some(1));

        // Written before the block was stored: it reads, with the recordings' game-start
        // timing in place of the game's own.
        let mut old = b.clone();
        old[10] &= !FLAG_TIMING;
        let at = 14 + ENCODED_LEN;
        old.drain(at..at + nestris_core::encode::TIMING_LEN);
        recrc(&mut old);
        let old = Replay::from_bytes(&old).unwrap();
        assert_ne!(old, r);
        assert_eq!(
            old.game().state().clock,
            nestris_core::timing::Clock::RECORDED_GAME_START
        );
        assert_ne!(r.game().state().clock, old.game().state().clock);

        // A version-3 block (written before the block held the picture's board) reads.
        let mut v3 = b.clone();
        let at = 14 + ENCODED_LEN;
        let len3 = timing_len(3).unwrap();
        v3.drain(at + len3..at + nestris_core::encode::TIMING_LEN);
        v3[at] = 3;
        recrc(&mut v3);
        let v3 = Replay::from_bytes(&v3).unwrap();
        assert_eq!(v3.game().state().clock, r.game().state().clock);
        assert_eq!(v3.verify().unwrap().crash_frame, Some(1));
        // A block of an unknown version is damage, named at its first byte.
        let mut bad = b.clone();
        bad[at] = 9;
        recrc(&mut bad);
        assert!(matches!(
            Replay::from_bytes(&bad),
            Err(ReplayError::BadField { at: a, .. }) if a == at
        ));

        // The flag on another start kind is damage.
        let mut bad = small().to_bytes();
        bad[10] |= FLAG_TIMING;
        recrc(&mut bad);
        assert!(matches!(
            Replay::from_bytes(&bad),
            Err(ReplayError::BadField { at: 10, .. })
        ));
    }

    #[test]
    fn damage_is_reported() {
        let b = small().to_bytes();
        assert_eq!(
            Replay::from_bytes(b"NOTAREPLAYFILE"),
            Err(ReplayError::BadMagic)
        );
        let mut v = b.clone();
        v[8] = 3;
        assert_eq!(
            Replay::from_bytes(&v),
            Err(ReplayError::UnsupportedVersion(3))
        );
        for cut in 8..b.len() {
            let e = Replay::from_bytes(&b[..cut]).unwrap_err();
            assert!(
                matches!(
                    e,
                    ReplayError::Truncated { .. } | ReplayError::Checksum { .. }
                ),
                "{cut}: {e}"
            );
        }
        let mut v = b.clone();
        v[20] ^= 0x40;
        assert!(matches!(
            Replay::from_bytes(&v),
            Err(ReplayError::Checksum { .. })
        ));
    }

    #[test]
    fn a_huge_run_length_is_an_error() {
        // Found by the fuzzer: a run length near 2^64 overflowed the frame count check.
        let mut b = Replay::new(Start::PowerOn(Region::Ntsc)).to_bytes();
        b.truncate(b.len() - 4 - 4); // drop the CRC and the (zero) run count
        b.extend_from_slice(&1u32.to_le_bytes());
        b.push(0);
        b.extend_from_slice(&[0xFF; 9]);
        b.push(0x01);
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        assert!(matches!(
            Replay::from_bytes(&b),
            Err(ReplayError::BadField {
                what: "run length",
                ..
            })
        ));
    }

    #[test]
    fn long_runs_use_varints() {
        let mut r = Replay::new(Start::PowerOn(Region::Ntsc));
        r.inputs = vec![Buttons::NONE; 100_000];
        r.inputs.push(Buttons::START);
        let b = r.to_bytes();
        assert!(b.len() < 80);
        assert_eq!(Replay::from_bytes(&b).unwrap(), r);
    }

    #[test]
    fn drought_and_das_only_games_replay_under_their_rules() {
        use nestris_core::trainer::Trainer;
        // A drought and DAS-only start mid-game (the DAS-only counters as they stand, in
        // the block's layout 2), tapped and held so that DAS-only decides the moves.
        let mut g = Trainer::Drought(14).game(Region::Ntsc, 18, 0);
        let mut s = g.snapshot();
        s.variant.das_only = Some(nestris_core::DasOnly::default());
        g = nestris_core::Game::from_snapshot(s).unwrap();
        let taps = |n: usize| {
            (0..n)
                .map(|f| match f % 9 {
                    0 | 2 => Buttons::LEFT,
                    4..=7 => Buttons::RIGHT | Buttons::DOWN,
                    _ => Buttons::NONE,
                })
                .collect::<Vec<_>>()
        };
        for b in taps(500) {
            g.step(b);
        }
        let start = g.snapshot();
        assert_ne!(
            start.variant.das_only,
            Some(nestris_core::DasOnly::default())
        );
        let mut r = Replay::new(Start::Snapshot(Box::new(start)));
        r.inputs = taps(1500);
        r.seal();
        let b = r.to_bytes();
        let back = Replay::from_bytes(&b).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.game().state().variant, g.state().variant);
        assert_eq!(back.verify().unwrap().verdict, crate::Verdict::Proven);
        // Without the DAS-only rule the same inputs play another game.
        let mut plain = back.clone();
        if let Start::Snapshot(s) = &mut plain.start {
            s.variant.das_only = None;
        }
        assert!(plain.verify().is_err());
        // A block of an unknown layout is refused by name.
        let mut bad = Replay::new(Start::Setup(GameSetup {
            variant: Variant {
                drought: 3,
                ..Variant::CARTRIDGE
            },
            ..GameSetup::default()
        }))
        .to_bytes();
        let block = 14 + 10 + 1; // header, the game setup, the crash-mode byte
        assert_eq!(bad[block], 2, "layout 2");
        bad[block] = 9;
        recrc(&mut bad);
        assert!(matches!(
            Replay::from_bytes(&bad),
            Err(ReplayError::BadField {
                what: "variant version",
                value: 9,
                ..
            })
        ));
    }

    #[test]
    fn a_variant_game_replays_under_its_rules() {
        use nestris_core::{GymSeed, SeedRule};
        let variant = Variant::betatetris(GymSeed::new(0x123456, SeedRule::V5));
        let setup = GameSetup {
            level: 18,
            variant,
            ..GameSetup::default()
        };
        let mut r = Replay::new(Start::Setup(setup));
        r.inputs = vec![Buttons::DOWN; 600];
        r.seal();
        let b = r.to_bytes();
        assert_ne!(b[10] & FLAG_VARIANT, 0);
        let back = Replay::from_bytes(&b).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.game().state().variant.caps, variant.caps);
        assert_eq!(
            back.game().state().variant.seed.unwrap().input,
            [0x12, 0x34, 0x56]
        );
        assert_eq!(back.verify().unwrap().verdict, crate::Verdict::Proven);
        // Under the cartridge's rules the same inputs play another game: the file's proof
        // names it.
        let mut plain = back.clone();
        if let Start::Setup(s) = &mut plain.start {
            s.variant = Variant::CARTRIDGE;
        }
        assert!(plain.verify().is_err());

        // A snapshot start keeps the seeded generator where it was.
        let mut g = nestris_core::Game::new(setup);
        for _ in 0..300 {
            g.step(Buttons::DOWN);
        }
        let mut r = Replay::new(Start::Snapshot(Box::new(g.snapshot())));
        r.inputs = vec![Buttons::DOWN; 300];
        r.seal();
        let back = Replay::from_bytes(&r.to_bytes()).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.game().state().variant, g.state().variant);
        assert_eq!(back.verify().unwrap().verdict, crate::Verdict::Proven);

        // A cartridge game writes no block, and a power-on start may not carry one.
        let plain = Replay::new(Start::Setup(GameSetup::default())).to_bytes();
        assert_eq!(plain[10] & FLAG_VARIANT, 0);
        let mut b = Replay::new(Start::PowerOn(Region::Ntsc)).to_bytes();
        b[10] |= FLAG_VARIANT;
        let at = 15; // after the start kind and the crash-mode byte
        for (i, byte) in variant.encode().iter().enumerate() {
            b.insert(at + i, *byte);
        }
        recrc(&mut b);
        assert!(matches!(
            Replay::from_bytes(&b),
            Err(ReplayError::BadField {
                what: "flags (a variant with a power-on start)",
                ..
            })
        ));
    }
}
