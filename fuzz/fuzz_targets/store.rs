//! Fuzz target: any text given as the kept high-score table or settings gives a value or
//! an error, never a panic; a table that reads writes back to the same table.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_host::store::{high_scores_text, parse_high_scores, parse_settings};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(table) = parse_high_scores(text) {
        assert_eq!(parse_high_scores(&high_scores_text(&table)), Ok(table));
    }
    let _ = parse_settings(text);
});
