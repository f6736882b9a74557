//! Fuzz target: any text given as a position file gives a position or a one-line error,
//! never a panic; a position that reads writes back to text that reads to the same
//! position, and its game starts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_replay::position::{parse_position, position_text};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_position(text) {
        Ok(p) => {
            assert_eq!(parse_position(&position_text(&p)), Ok(p));
            let _ = p.game_in(nestris_core::Region::Ntsc);
        }
        Err(e) => assert!(!e.to_string().contains('\n')),
    }
});
