//! Fuzz target: any bytes given to the versus-file reader give a match or an error, never
//! a panic; a file read back writes the same bytes, and a small one replays.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_versus::file::VersusReplay;

fuzz_target!(|data: &[u8]| {
    if let Ok(r) = VersusReplay::from_bytes(data) {
        assert_eq!(r.to_bytes(), data);
        if r.inputs.iter().map(Vec::len).sum::<usize>() < 20_000 {
            let _ = r.verify();
        }
    }
});
