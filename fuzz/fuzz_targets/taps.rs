//! Fuzz target: any text given as a tap pattern (`--taps`, the coach's
//! `inputFrameTimeline`) gives a pattern or a one-line error, never a panic; a pattern
//! that reads writes back to a string that reads to the same pattern, and its taps fall
//! on the `X` frames of the repeated string it was read from.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_ai::TapPattern;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match TapPattern::parse(text) {
        Ok(p) => {
            let again = TapPattern::parse(&p.to_string()).expect("its own string reads");
            assert_eq!(again, p);
            assert!(p.gaps().iter().all(|&g| g >= 2));
            let s = text.trim();
            if s.starts_with(['X', 'x', '.', '-']) {
                let xs: Vec<u32> = s
                    .bytes()
                    .cycle()
                    .take(s.len() * 3)
                    .enumerate()
                    .filter(|(_, b)| matches!(b, b'X' | b'x'))
                    .map(|(i, _)| i as u32)
                    .collect();
                for (k, &f) in xs.iter().enumerate() {
                    assert_eq!(p.frame_of_tap(k), f, "tap {k} of {s:?}");
                }
            }
        }
        Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
    }
});
