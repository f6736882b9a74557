//! Fuzz target: any text given as a seed list gives a list or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_ai::benchmark::SeedList;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = SeedList::parse(text);
    }
});
