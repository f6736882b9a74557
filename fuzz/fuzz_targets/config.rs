//! Fuzz target: any text given to the window's config reader gives a config or a one-line
//! error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(e) = nestris_window::config::Config::parse(text, Path::new("config.toml")) {
            assert!(!e.to_string().contains('\n'), "{e}");
        }
    }
});
