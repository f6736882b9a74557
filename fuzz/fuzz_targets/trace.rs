//! Fuzz target: any bytes given to the trace reader give a trace or an error, never a
//! panic; a trace that reads gives a game from its header or an error, and the game plays
//! the trace's inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(trace) = nestris_trace::load_reader("fuzz", data) else {
        return;
    };
    if let Ok(mut game) = nestris_trace::game_from_header(&trace.header) {
        for frame in trace.frames.iter().take(2_000) {
            game.step(frame.input);
        }
    }
});
