//! Fuzz target: any bytes given to the snapshot decoder give a state or an error; a state
//! it accepts survives a thousand frames of play without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_core::{Buttons, Game, Snapshot};

fuzz_target!(|data: &[u8]| {
    if data.len() < nestris_core::encode::ENCODED_LEN {
        return;
    }
    let (state, inputs) = data.split_at(nestris_core::encode::ENCODED_LEN);
    if let Ok(s) = Snapshot::decode(state) {
        assert_eq!(Snapshot::decode(&s.encode()).as_ref(), Ok(&s));
        let mut game = Game::from_snapshot(s).expect("decoded snapshots are valid");
        for i in 0..1000 {
            let b = inputs.get(i % inputs.len().max(1)).copied().unwrap_or(0);
            game.step(Buttons(b));
        }
    }
});
