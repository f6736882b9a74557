//! Fuzz target: any text given as AI weights gives weights or an error, never a panic;
//! weights that read write back to text that reads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_ai::Weights;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(w) = Weights::from_toml(text) {
            let again = Weights::from_toml(&w.to_toml()).expect("written weights read back");
            assert_eq!(again.to_toml(), w.to_toml());
        }
    }
});
