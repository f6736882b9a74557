//! Fuzz target: any text given as a sim input file gives inputs or an error naming a line,
//! never a panic; inputs that read write back to the same inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_sim::inputs;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(v) = inputs::parse(text) {
            assert_eq!(inputs::parse(&inputs::write(&v)), Ok(v));
        }
    }
});
