//! Fuzz target: any text typed as a versus host's address (the setup screen's entry,
//! `nestris versus --join`) gives an address or a reason of one short line, never a
//! panic; an address that reads writes back to text that reads to the same address.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_window::network::{parse_address, parse_port};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_address(text) {
        Ok(a) => assert_eq!(parse_address(&a.to_string()), Ok(a)),
        Err(e) => {
            let line = e.to_string();
            assert!(!line.contains('\n') && line.len() <= 28, "{line}");
        }
    }
    if let Ok(p) = parse_port(text) {
        assert!(p > 0);
        assert_eq!(p.to_string(), text.trim_start_matches('0'));
    }
});
