//! A versus match as a file: the setup and both players' inputs, frame by frame, with
//! each side's final state hash, so the file proves both games as a replay proves one.
//!
//! Layout (all little-endian): `NESTRISVS` and a version byte (1, or 2 for a match
//! started from a given game); the setup (region, level, seed in 3 bytes, best-of, 2 bytes
//! zero); in version 2 the start: the state (`Snapshot::encode`), its variant
//! (`Variant::encode`, whose first byte names its layout and so its length) and its timing block (`Snapshot::encode_timing`, the current
//! version only); then per player a frame count (`u32`)
//! and that many 3-byte frames (buttons, game number as `u16`); then the two final state
//! hashes (`u64` each). Readers stop at [`MAX_FILE_BYTES`] and at [`MAX_SIDE_FRAMES`]
//! frames a side.

use std::path::Path;

use crate::{Input, Match, MatchSetup};
use nestris_core::encode::{ENCODED_LEN, TIMING_LEN};
use nestris_core::{Buttons, Game, Snapshot, Variant, VARIANT_LEN};

/// The file's first bytes.
pub const MAGIC: &[u8; 9] = b"NESTRISVS";
/// The layout's version: 2 for a match from a given start, else 1 (as before starts).
pub const VERSION: u8 = 2;
/// The start block's longest length in version 2 (the variant's layout sets it).
const START_LEN: usize = ENCODED_LEN + VARIANT_LEN + TIMING_LEN;
/// Frames a side may hold (as many as a single replay may).
pub const MAX_SIDE_FRAMES: u32 = 1 << 27;
/// The largest file read.
pub const MAX_FILE_BYTES: u64 =
    10 + 8 + START_LEN as u64 + 2 * (4 + 3 * MAX_SIDE_FRAMES as u64) + 16;

/// Why a versus file cannot be read or does not prove its match.
#[derive(Debug, thiserror::Error)]
pub enum VersusFileError {
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Not a versus file.
    #[error("not a nestris versus file")]
    NotVersus,
    /// A later version's file.
    #[error("versus file version {0} is newer than this program reads ({VERSION})")]
    Version(u8),
    /// The start state of a version 2 file is not one a game can have.
    #[error("the versus file's starting state is invalid: {0}")]
    Start(String),
    /// The file ends early or has bytes after its end.
    #[error("the versus file is cut short or has extra bytes")]
    Length,
    /// Over the limits.
    #[error("the versus file is too large (over {MAX_SIDE_FRAMES} frames a side)")]
    TooLarge,
    /// The setup is not one a match can have.
    #[error("the versus file's setup is invalid: {0}")]
    Setup(#[from] crate::SetupError),
    /// A game number goes backwards.
    #[error("player {0}'s game numbers go backwards at frame {1}")]
    GameOrder(usize, usize),
    /// Replayed, a side ends in another state than recorded.
    #[error("player {0}'s game does not replay to its recorded final state")]
    Mismatch(usize),
}

/// A recorded match.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VersusReplay {
    /// What every game started from.
    pub setup: MatchSetup,
    /// Each player's inputs.
    pub inputs: [Vec<Input>; 2],
    /// Each side's final state hash.
    pub hashes: [u64; 2],
    /// The first game's start, when it is not the setup's ([`Match::from_start`]).
    pub start: Option<Box<Game>>,
}

impl VersusReplay {
    /// A match recorded so far (the inputs applied to it, in order).
    pub fn of(m: &Match, inputs: [Vec<Input>; 2]) -> VersusReplay {
        VersusReplay {
            setup: m.setup,
            inputs,
            hashes: [
                m.sides[0].game.state().state_hash(),
                m.sides[1].game.state().state_hash(),
            ],
            start: m.start.clone(),
        }
    }

    /// The start block of version 2.
    fn start_bytes(game: &Game) -> Vec<u8> {
        let s = game.state();
        let mut b = Vec::with_capacity(START_LEN);
        b.extend_from_slice(&s.encode());
        b.extend_from_slice(&s.variant.encode());
        b.extend_from_slice(&s.encode_timing());
        b
    }

    /// The start block's length, read from the variant's layout byte after the state.
    fn start_len(variant_layout: u8) -> Result<usize, VersusFileError> {
        Variant::encoded_len(variant_layout)
            .map(|v| ENCODED_LEN + v + TIMING_LEN)
            .ok_or_else(|| VersusFileError::Start("not a variant".into()))
    }

    /// Reads a start block; refused unless it writes back the same bytes.
    fn read_start(b: &[u8]) -> Result<Game, VersusFileError> {
        let bad = |e: String| VersusFileError::Start(e);
        let variant_end = b.len() - TIMING_LEN;
        let mut s = Snapshot::decode(&b[..ENCODED_LEN]).map_err(|e| bad(e.to_string()))?;
        s.variant = Variant::decode(&b[ENCODED_LEN..variant_end])
            .ok_or_else(|| bad("not a variant".into()))?;
        s.decode_timing(&b[variant_end..])
            .map_err(|e| bad(e.to_string()))?;
        let game = Game::from_snapshot(s).map_err(|e| bad(e.to_string()))?;
        if VersusReplay::start_bytes(&game) != b {
            return Err(bad("it does not write back as read".into()));
        }
        Ok(game)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + 3 * (self.inputs[0].len() + self.inputs[1].len()));
        b.extend_from_slice(MAGIC);
        b.push(if self.start.is_some() { 2 } else { 1 });
        let s = &self.setup;
        let region = u8::from(s.region == nestris_core::Region::Pal);
        let seed = s.seed.to_le_bytes();
        b.extend_from_slice(&[region, s.level, seed[0], seed[1], seed[2], s.best_of, 0, 0]);
        if let Some(g) = &self.start {
            b.extend_from_slice(&VersusReplay::start_bytes(g));
        }
        for side in &self.inputs {
            b.extend_from_slice(&(side.len() as u32).to_le_bytes());
            for i in side {
                let g = i.game.to_le_bytes();
                b.extend_from_slice(&[i.buttons.0, g[0], g[1]]);
            }
        }
        for h in self.hashes {
            b.extend_from_slice(&h.to_le_bytes());
        }
        b
    }

    /// Reads a file's bytes (nothing is replayed: see [`VersusReplay::verify`]).
    pub fn from_bytes(b: &[u8]) -> Result<VersusReplay, VersusFileError> {
        if b.len() < 10 || &b[..9] != MAGIC {
            return Err(VersusFileError::NotVersus);
        }
        if b[9] == 0 || b[9] > VERSION {
            return Err(VersusFileError::Version(b[9]));
        }
        let mut at = 10;
        let mut take = |n: usize| -> Result<&[u8], VersusFileError> {
            let s = b.get(at..at + n).ok_or(VersusFileError::Length)?;
            at += n;
            Ok(s)
        };
        let h = take(8)?;
        let region = match h[0] {
            0 => nestris_core::Region::Ntsc,
            1 => nestris_core::Region::Pal,
            _ => return Err(VersusFileError::NotVersus),
        };
        let setup = MatchSetup {
            region,
            level: h[1],
            seed: u32::from_le_bytes([h[2], h[3], h[4], 0]),
            best_of: h[5],
        };
        setup.validate()?;
        let start = if b[9] == 2 {
            let layout = *b.get(10 + 8 + ENCODED_LEN).ok_or(VersusFileError::Length)?;
            let len = VersusReplay::start_len(layout)?;
            Some(Box::new(VersusReplay::read_start(take(len)?)?))
        } else {
            None
        };
        let mut inputs: [Vec<Input>; 2] = [Vec::new(), Vec::new()];
        for (p, side) in inputs.iter_mut().enumerate() {
            let n = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
            if n > MAX_SIDE_FRAMES {
                return Err(VersusFileError::TooLarge);
            }
            let frames = take(3 * n as usize)?;
            side.reserve_exact(n as usize);
            let mut game = 0;
            for (i, f) in frames.chunks_exact(3).enumerate() {
                let g = u16::from_le_bytes([f[1], f[2]]);
                if g < game {
                    return Err(VersusFileError::GameOrder(p + 1, i));
                }
                game = g;
                side.push(Input {
                    buttons: Buttons(f[0]),
                    game: g,
                });
            }
        }
        let h0 = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
        let h1 = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
        if at != b.len() {
            return Err(VersusFileError::Length);
        }
        Ok(VersusReplay {
            setup,
            inputs,
            hashes: [h0, h1],
            start,
        })
    }

    /// Reads a file (at most [`MAX_FILE_BYTES`]).
    pub fn load(path: &Path) -> Result<VersusReplay, VersusFileError> {
        use std::io::Read;
        let mut bytes = Vec::new();
        std::fs::File::open(path)?
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(VersusFileError::TooLarge);
        }
        VersusReplay::from_bytes(&bytes)
    }

    /// Writes the file atomically.
    pub fn save(&self, path: &Path) -> Result<(), VersusFileError> {
        Ok(nestris_replay::write_atomically(path, &self.to_bytes())?)
    }

    /// Plays both sides' inputs from the setup: the match they make.
    pub fn play(&self) -> Match {
        let mut m = match &self.start {
            Some(g) => Match::from_start(self.setup, (**g).clone()),
            None => Match::new(self.setup),
        };
        for (p, side) in self.inputs.iter().enumerate() {
            for &i in side {
                m.apply(p, i);
            }
        }
        m
    }

    /// Plays the match and checks both sides' final states against the recorded hashes.
    pub fn verify(&self) -> Result<Match, VersusFileError> {
        let m = self.play();
        for p in 0..2 {
            if m.sides[p].game.state().state_hash() != self.hashes[p] {
                return Err(VersusFileError::Mismatch(p + 1));
            }
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorded() -> VersusReplay {
        let setup = crate::tests::setup();
        let mut m = Match::new(setup);
        let mut inputs = [Vec::new(), Vec::new()];
        for f in 0..900u32 {
            for (p, side) in inputs.iter_mut().enumerate() {
                let b = if (f + 13 * p as u32) % 9 < 4 {
                    Buttons::DOWN
                } else if f % 17 == p as u32 {
                    Buttons::LEFT
                } else {
                    Buttons::NONE
                };
                let i = Input {
                    buttons: b,
                    game: 0,
                };
                m.apply(p, i);
                side.push(i);
            }
        }
        VersusReplay::of(&m, inputs)
    }

    #[test]
    fn a_match_round_trips_and_verifies() {
        let r = recorded();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.nestrisvs");
        r.save(&path).unwrap();
        let back = VersusReplay::load(&path).unwrap();
        assert_eq!(back, r);
        let m = back.verify().unwrap();
        assert_eq!(m.sides[0].frames, 900);
        let mut bad = r.clone();
        for i in &mut bad.inputs[1][100..200] {
            i.buttons = Buttons::RIGHT;
        }
        assert!(matches!(bad.verify(), Err(VersusFileError::Mismatch(2))));
    }

    /// `frames` frames of game 0 for both players, Down held 2 frames in every `period`
    /// (player 2 a frame ahead), applied to `m`; the inputs as the file keeps them.
    fn soft_drops(m: &mut Match, frames: u32, period: u32) -> [Vec<Input>; 2] {
        let mut inputs = [Vec::new(), Vec::new()];
        for f in 0..frames {
            for (p, side) in inputs.iter_mut().enumerate() {
                let buttons = if (f + p as u32) % period < 2 {
                    Buttons::DOWN
                } else {
                    Buttons::NONE
                };
                let i = Input { buttons, game: 0 };
                m.apply(p, i);
                side.push(i);
            }
        }
        inputs
    }

    #[test]
    fn a_match_from_a_given_start_keeps_its_start() {
        // A seeded game some frames in, as a race against a replay starts.
        let mut start = Game::new(crate::tests::setup().game_setup(0));
        for _ in 0..40 {
            start.step(Buttons::NONE);
        }
        let mut m = Match::from_start(crate::tests::setup(), start.clone());
        assert_eq!(m.setup.best_of, 1);
        assert!(m.seeded());
        let inputs = soft_drops(&mut m, 600, 5);
        let r = VersusReplay::of(&m, inputs);
        let bytes = r.to_bytes();
        assert_eq!(bytes[9], 2);
        let back = VersusReplay::from_bytes(&bytes).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.verify().unwrap().sides[1].game, m.sides[1].game);
        // Without its start the same inputs are another game.
        let lost = VersusReplay { start: None, ..r };
        assert!(lost.verify().is_err());
        // A start block that is not a state is refused.
        let mut bad = bytes.clone();
        bad[18..18 + 4].copy_from_slice(&[0xFF; 4]);
        assert!(VersusReplay::from_bytes(&bad).is_err());
        // The cartridge's generator: not seeded.
        let m = Match::from_start(crate::tests::setup(), Game::new(Default::default()));
        assert!(!m.seeded());
    }

    #[test]
    fn a_start_with_a_longer_variant_layout_reads_back() {
        // A drought trainer's game: its variant needs layout 2, longer than layout 1.
        let mut setup = crate::tests::setup().game_setup(0);
        setup.variant.drought = 7;
        let mut start = Game::new(setup);
        for _ in 0..40 {
            start.step(Buttons::NONE);
        }
        let mut m = Match::from_start(crate::tests::setup(), start);
        let inputs = soft_drops(&mut m, 300, 4);
        let r = VersusReplay::of(&m, inputs);
        let bytes = r.to_bytes();
        let back = VersusReplay::from_bytes(&bytes).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.start.as_ref().unwrap().state().variant.drought, 7);
        assert_eq!(back.verify().unwrap().sides[0].game, m.sides[0].game);
        // A layout byte no program wrote is refused, not read at a guessed length.
        let mut bad = bytes.clone();
        bad[10 + 8 + ENCODED_LEN] = 9;
        assert!(matches!(
            VersusReplay::from_bytes(&bad),
            Err(VersusFileError::Start(_))
        ));
        // Cut inside the start block: a length error, no panic.
        assert!(VersusReplay::from_bytes(&bytes[..10 + 8 + ENCODED_LEN + 3]).is_err());
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let b = recorded().to_bytes();
        assert!(matches!(
            VersusReplay::from_bytes(b"hello"),
            Err(VersusFileError::NotVersus)
        ));
        assert!(matches!(
            VersusReplay::from_bytes(&b[..b.len() - 1]),
            Err(VersusFileError::Length)
        ));
        let mut longer = b.clone();
        longer.push(0);
        assert!(matches!(
            VersusReplay::from_bytes(&longer),
            Err(VersusFileError::Length)
        ));
        let mut v = b.clone();
        v[9] = 3;
        assert!(matches!(
            VersusReplay::from_bytes(&v),
            Err(VersusFileError::Version(3))
        ));
        let mut huge = b[..18].to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            VersusReplay::from_bytes(&huge),
            Err(VersusFileError::TooLarge)
        ));
        let mut order = recorded();
        order.inputs[0][5].game = 3;
        let bytes = order.to_bytes();
        assert!(matches!(
            VersusReplay::from_bytes(&bytes),
            Err(VersusFileError::GameOrder(1, 6))
        ));
    }
}
