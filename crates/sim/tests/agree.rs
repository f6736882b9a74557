//! The simulator and the plain engine agree: the same final state on every conformance
//! trace's inputs and on random inputs.

use nestris_core::{Buttons, Game, GameSetup, Region};
use nestris_sim::{play_from, Policy};
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

fn traces() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let mut out: Vec<PathBuf> = [dir.clone(), dir.join("power-on")]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.to_string_lossy().ends_with(".jsonl.gz"))
        .collect();
    out.sort();
    out
}

#[test]
fn every_trace_ends_in_the_same_state() {
    let paths = traces();
    assert_eq!(paths.len(), 18);
    for path in paths {
        let trace = nestris_trace::load(&path).unwrap();
        let start = if trace.header.is_power_on() {
            Game::power_on(Region::Ntsc)
        } else {
            nestris_trace::game_from_header(&trace.header).unwrap()
        };
        let inputs: Vec<Buttons> = trace.frames.iter().map(|f| f.input).collect();
        let mut plain = start.clone();
        let mut frames = 0u64;
        for &b in &inputs {
            plain.step(b);
            frames += 1;
            if plain.state().topped_out() && plain.state().curtain_row == 0xF0 {
                break;
            }
        }
        // The simulator stops at the top-out: compare at the same frame.
        let sim = play_from(start, 0, &Policy::Inputs(Arc::new(inputs)), frames);
        assert_eq!(sim.frames, frames, "{}", trace.name);
        assert_eq!(sim.state_hash, plain.state().state_hash(), "{}", trace.name);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_inputs_end_in_the_same_state(seed in any::<u64>(), level in 0u8..30, inputs in proptest::collection::vec(any::<u8>(), 1..3000)) {
        let inputs: Vec<Buttons> = inputs.into_iter().map(Buttons).collect();
        let setup = GameSetup { level, ..GameSetup::from_seed(seed) };
        let mut plain = Game::new(setup);
        let mut frames = 0u64;
        for &b in &inputs {
            let ev = plain.step(b);
            frames += 1;
            if ev.has(nestris_core::FrameEvents::TOPPED_OUT) {
                break;
            }
        }
        let sim = play_from(Game::new(setup), seed, &Policy::Inputs(Arc::new(inputs)), frames);
        prop_assert_eq!(sim.frames, frames);
        prop_assert_eq!(sim.state_hash, plain.state().state_hash());
    }
}
