//! The user's own Tetris (USA) cartridge image: recognising it, and reading the demo's
//! tables from it. Nothing of a ROM is ever stored by this project.

use nestris_core::{DemoData, DEMO_BUTTON_BYTES};
use sha1::{Digest, Sha1};

/// SHA-1 of the iNES image of Tetris (USA).
pub const TETRIS_USA_SHA1: &str = "77747840541bfc62a28a5957692a98c550bd6b2b";

/// The iNES header of that image (2 x 16 KiB PRG, 2 x 8 KiB CHR, mapper 1).
const INES_HEADER: [u8; 16] = [
    b'N', b'E', b'S', 0x1A, 2, 2, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];

const PRG_LEN: usize = 0x8000;
const CHR_LEN: usize = 0x4000;
/// CPU addresses of the demo tables in the 32 KiB PRG mapped at $8000.
const DEMO_BUTTONS_ADDR: usize = 0xDD00;
const DEMO_PIECES_ADDR: usize = 0xDF00;

/// Why a file is not the expected cartridge image.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RomError {
    /// Not the right size for the cartridge.
    #[error("not a Tetris (USA) image: {0} bytes (expected 16 + 32768 + 16384 with an iNES header, or 49152 without)")]
    WrongSize(usize),
    /// Right size, wrong content.
    #[error("not a Tetris (USA) image: SHA-1 {0} does not match {TETRIS_USA_SHA1}")]
    WrongChecksum(String),
}

fn sha1_hex(parts: &[&[u8]]) -> String {
    let mut h = Sha1::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks that `image` is Tetris (USA), with its iNES header, another header, or none,
/// and returns its PRG.
pub fn identify(image: &[u8]) -> Result<&[u8], RomError> {
    let body = match image.len() {
        n if n == 16 + PRG_LEN + CHR_LEN => &image[16..],
        n if n == PRG_LEN + CHR_LEN => image,
        n => return Err(RomError::WrongSize(n)),
    };
    // The published checksum covers the canonical header: other headers (NES 2.0, junk
    // in the padding) are checked as if they were it.
    let sum = sha1_hex(&[&INES_HEADER, body]);
    if sum != TETRIS_USA_SHA1 {
        return Err(RomError::WrongChecksum(sha1_hex(&[image])));
    }
    Ok(&body[..PRG_LEN])
}

/// The cartridge's demo tables from a Tetris (USA) image.
pub fn demo_tables(image: &[u8]) -> Result<DemoData, RomError> {
    let prg = identify(image)?;
    let mut demo = DemoData::BUILTIN;
    let b = DEMO_BUTTONS_ADDR - 0x8000;
    demo.buttons.copy_from_slice(&prg[b..b + DEMO_BUTTON_BYTES]);
    let p = DEMO_PIECES_ADDR - 0x8000;
    demo.pieces.copy_from_slice(&prg[p..p + 256]);
    Ok(demo)
}

/// Everything the engine reads from a Tetris (USA) image: the demo tables and the music
/// (whose scripts the sound engine's cycles depend on).
pub fn cartridge(image: &[u8]) -> Result<nestris_core::Cartridge, RomError> {
    let demo = demo_tables(image)?;
    let prg = identify(image)?;
    Ok(nestris_core::Cartridge {
        demo,
        music: nestris_core::audio::MusicData::from_prg(prg),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_files_are_refused() {
        assert_eq!(identify(&[0u8; 100]), Err(RomError::WrongSize(100)));
        let fake = vec![0u8; 16 + PRG_LEN + CHR_LEN];
        assert!(matches!(identify(&fake), Err(RomError::WrongChecksum(_))));
        assert!(matches!(
            demo_tables(&fake[16..]),
            Err(RomError::WrongChecksum(_))
        ));
    }
}
