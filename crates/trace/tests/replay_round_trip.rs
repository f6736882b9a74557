//! Record → save → load → replay gives the same final state for every conformance trace.

use nestris_replay::{Replay, Start};
use nestris_trace::{game_from_header, load};
use std::path::PathBuf;

fn traces() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let mut out = Vec::new();
    for sub in [dir.clone(), dir.join("power-on")] {
        for e in std::fs::read_dir(sub).unwrap() {
            let p = e.unwrap().path();
            if p.to_string_lossy().ends_with(".jsonl.gz") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_trace_round_trips_through_a_replay_file() {
    let dir = tempfile::tempdir().unwrap();
    let paths = traces();
    assert_eq!(paths.len(), 18);
    for path in paths {
        let trace = load(&path).unwrap();
        let start = if trace.header.is_power_on() {
            Start::PowerOn(nestris_core::Region::Ntsc)
        } else {
            Start::Snapshot(Box::new(
                game_from_header(&trace.header).unwrap().snapshot(),
            ))
        };
        let mut game = start.game();
        let mut recorder = nestris_replay::Recorder::new(start);
        for frame in &trace.frames {
            game.step(frame.input);
            recorder.push(frame.input);
            // Game traces count frame interrupts; the replay records every video frame.
            while !trace.header.is_power_on() && game.state().flow.nmi_off_this_frame {
                game.step(frame.input);
                recorder.push(frame.input);
            }
        }
        let file = dir.path().join(format!("{}.nestris", trace.name));
        recorder.save(&file).unwrap();
        let loaded = Replay::from_bytes(&std::fs::read(&file).unwrap()).unwrap();
        let summary = loaded.verify().unwrap();
        assert_eq!(
            summary.final_hash,
            game.state().state_hash(),
            "{}",
            trace.name
        );
    }
}
