//! Fuzz target: any text given as a benchmark's checkpoint (`ai bench --checkpoint`) reads
//! to games or an error of one line, never a panic; what reads stays inside the text and
//! the run's games, and reads the same again from its whole lines. The same text as
//! `ai compare` reads it (a report or a checkpoint): games that pair with themselves, or
//! an error of one line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nestris_ai::benchmark::BenchConfig;
use nestris_ai::format::Format;
use nestris_ai::checkpoint;
use std::sync::OnceLock;

fn config() -> &'static BenchConfig {
    static CONFIG: OnceLock<BenchConfig> = OnceLock::new();
    CONFIG.get_or_init(|| BenchConfig {
        games: 4,
        format: Format::Betatetris,
        ..BenchConfig::default()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // As `ai compare` reads it (a report or a checkpoint of any settings): games or an
    // error of one line; games that read pair with themselves.
    match checkpoint::games_of(text) {
        Ok(games) => {
            if let Ok(Some(p)) = checkpoint::Paired::of(&games, &games) {
                assert_eq!(p.games, games.len());
            }
        }
        Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
    }
    // Seeded with the configuration's own first line, so that the fuzzer reaches the games.
    let text = format!("{}\n{text}", checkpoint::header(config()));
    match checkpoint::read(&text, config()) {
        Ok(r) => {
            assert!(r.whole <= text.len() && r.done.len() == 4);
            let again = checkpoint::read(&text[..r.whole], config()).expect("whole lines read");
            assert_eq!(again.done, r.done);
        }
        Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
    }
});
