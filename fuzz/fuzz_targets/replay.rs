//! Fuzz target: any bytes given to the replay reader give a replay or an error, never a
//! panic; a replay that reads back writes the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_replay::Replay;

fuzz_target!(|data: &[u8]| {
    if let Ok(replay) = Replay::from_bytes(data) {
        let bytes = replay.to_bytes();
        assert_eq!(Replay::from_bytes(&bytes).as_ref(), Ok(&replay));
        // Playing a short prefix must not panic either.
        let frames = replay.inputs.len().min(2_000);
        let _ = replay.play_with_demo(frames, &nestris_core::DemoData::BUILTIN);
    }
});
