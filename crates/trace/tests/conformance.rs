//! One test per cartridge trace: the engine must reproduce every field of every frame.

use nestris_trace::{check, load, Outcome};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance")
        .join(name)
}

fn conforms(name: &str) {
    let trace = load(&fixture(&format!("{name}.jsonl.gz"))).expect("trace loads");
    match check(&trace).expect("header builds a game") {
        Outcome::Ok { frames } => assert_eq!(frames as usize, trace.frames.len()),
        Outcome::Diverged(d) => panic!("{name}: {d}"),
    }
}

macro_rules! traces {
    ($($test:ident => $file:literal),* $(,)?) => {
        $(#[test] fn $test() { conforms($file); })*
    };
}

traces! {
    lv00_no_input => "lv00-no-input",
    lv00_hold_right => "lv00-hold-right",
    lv00_bot => "lv00-bot",
    lv03_ghost_cells => "lv03-ghost-cells",
    lv03_row0_clear => "lv03-row0-clear",
    lv05_quirks => "lv05-quirks",
    lv07_bot_quirks => "lv07-bot-quirks",
    lv09_bot => "lv09-bot",
    lv09_random => "lv09-random",
    lv18_bot => "lv18-bot",
    lv18_hold_down => "lv18-hold-down",
    lv29_poked_bot => "lv29-poked-bot",
    typeb_lv5_h3_bot => "typeb-lv5-h3-bot",
    typeb_lv5_h3_win => "typeb-lv5-h3-win",
    poweron_s1 => "power-on/poweron-s1",
    poweron_s2 => "power-on/poweron-s2",
    poweron_ending_a => "power-on/poweron-ending-a",
    poweron_soft_reset => "power-on/poweron-soft-reset",
}
