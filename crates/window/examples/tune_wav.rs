//! Renders one of the game's tunes to a WAV file, to listen to it away from the game, and
//! prints its melody's notes: `cargo run -p nestris-window --release --example tune_wav
//! -- korobeiniki [fast] [SECONDS] [OUT.wav]` (tunes: korobeiniki, garden, night-shift,
//! goal, high-score, ending).

use std::process::ExitCode;

use nestris_window::music::{render, wav, Piece, Tune};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(piece) = args
        .first()
        .and_then(|n| Piece::ALL.into_iter().find(|p| p.name() == n))
    else {
        let names: Vec<_> = Piece::ALL.iter().map(|p| p.name()).collect();
        eprintln!(
            "usage: tune_wav TUNE [fast] [SECONDS] [OUT.wav]; tunes: {}",
            names.join(", ")
        );
        return ExitCode::FAILURE;
    };
    let fast = args.iter().any(|a| a == "fast");
    let seconds: u32 = args
        .iter()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20)
        .min(600);
    let out = args
        .iter()
        .skip(1)
        .find(|a| a.ends_with(".wav"))
        .cloned()
        .unwrap_or_else(|| format!("{}.wav", piece.name()));
    let tune = Tune { piece, fast };
    let rate = 44_100;
    let samples = render(tune, rate, seconds * 60);
    if let Err(e) = std::fs::write(&out, wav(&samples, rate)) {
        eprintln!("tune_wav: cannot write {out}: {e}");
        return ExitCode::FAILURE;
    }
    let melody = &piece.score().voices[1];
    let line: Vec<String> = melody
        .iter()
        .take(32)
        .map(|n| format!("{}:{}", n.pitch, n.steps))
        .collect();
    println!(
        "{out}: {seconds} s of {} ({} s a pass); melody (MIDI:sixteenths) {}",
        piece.name(),
        tune.loop_frames() as f32 / 60.0,
        line.join(" ")
    );
    ExitCode::SUCCESS
}
