//! The project's own demo tables (not the cartridge's).
//!
//! Until a recorded game replaces them, these are generated at compile time: the piece
//! list from the game's own LFSR, the buttons a fixed pattern of shifts, rotations and
//! soft drops. Regenerate with `nestris demo record` once a recorded game exists.

use crate::demo::{DemoData, DEMO_BUTTON_BYTES};
use crate::lfsr::lfsr_step;

const fn pieces() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut v: u16 = 0x1234;
    let mut i = 0;
    while i < 256 {
        v = lfsr_step(lfsr_step(lfsr_step(v)));
        // Bits 4-6 index the spawn table; 7 (T again) is avoided.
        t[i] = (((v >> 8) as u8 % 7) << 4) | (v as u8 & 0x0F);
        i += 1;
    }
    t
}

const fn buttons() -> [u8; DEMO_BUTTON_BYTES] {
    // (buttons, frames - 1): wait, shift, rotate, wait, soft drop.
    const PATTERN: [(u8, u8); 8] = [
        (0x00, 20),
        (0x02, 0),
        (0x00, 3),
        (0x80, 0),
        (0x00, 5),
        (0x01, 0),
        (0x00, 2),
        (0x04, 40),
    ];
    let mut t = [0u8; DEMO_BUTTON_BYTES];
    let mut i = 0;
    while i < 256 {
        let (b, r) = PATTERN[i % PATTERN.len()];
        t[2 * i] = b;
        t[2 * i + 1] = r;
        i += 1;
    }
    t
}

/// The built-in demo.
pub(crate) const BUILTIN_DEMO: DemoData = DemoData {
    buttons: buttons(),
    pieces: pieces(),
};
