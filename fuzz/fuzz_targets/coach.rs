//! Fuzz target: any text given to `nestris ai suggest` as a request gives a request or a
//! one-line error, never a panic; a request that reads builds its game, whose current
//! piece is under control at the spawn.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_ai::coach::Request;
use nestris_ai::Start;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        match Request::parse(text) {
            Ok(r) => {
                let game = r.game();
                assert!(Start::from_game(&game).is_some());
            }
            Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
        }
    }
});
