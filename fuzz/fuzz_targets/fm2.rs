//! Fuzz target: the FCEUX movie reader never panics, and what it reads writes back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(replay) = nestris_replay::fm2::parse(text) {
            let again = nestris_replay::fm2::write(&replay).expect("power-on replays write");
            let back = nestris_replay::fm2::parse(&again).expect("written movies read");
            assert_eq!(back.inputs, replay.inputs);
        }
    }
});
