//! The high-level recordings (`tests/high-level/`): lag frames, stalls and crashes, and the
//! demo played from power-on. They were recorded with music, and the demo plays the
//! cartridge's own buttons and pieces; only a cartridge image holds those scripts and tables,
//! so these checks need the user's Tetris (USA) ROM in `NESTRIS_ROM` (no ROM is part of this
//! project).
//!
//! Every recording conforms: the lag frames placed in the sound update, in the main loop's
//! passes and in the player update (the score loop, the copy to the mirror, the preview's
//! sprites, and the stalls that follow from the last), and the broken dispatches, each
//! followed where its jump goes. A crash line (`jam`) pins the kind and the frame of the
//! halt, as the recordings' README defines it: the RAM recorded with it is what the CPU
//! left after running RAM as code on its way to the halting opcode, which the engine does
//! not run (`nestris_trace::check_with`).

use nestris_trace::{check_with, load, Outcome};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/high-level")
}

fn cartridge() -> nestris_core::Cartridge {
    let path = std::env::var_os("NESTRIS_ROM").expect("NESTRIS_ROM names a ROM image");
    let image = std::fs::read(&path).expect("NESTRIS_ROM is readable");
    nestris_replay::rom::cartridge(&image).expect("NESTRIS_ROM is Tetris (USA)")
}

/// Frames matched before the first difference (all of them if none).
fn matched(file: &str, cart: &nestris_core::Cartridge) -> u64 {
    let trace = load(&dir().join(file)).expect("trace loads");
    match check_with(&trace, Some(cart)).expect("header builds a game") {
        Outcome::Ok { frames } => frames,
        Outcome::Diverged(d) => d.frame,
    }
}

#[test]
#[ignore = "needs NESTRIS_ROM"]
fn bots_with_lag_frames_conform() {
    let cart = cartridge();
    // The last through its pauses and 15 lag frames to its crash line (a halt at level 157).
    for (file, frames) in [
        ("bot/bot-lv140-gravity-select.jsonl.gz", 4000),
        ("bot/bot-lv200-gravity-score0.jsonl.gz", 4000),
        ("bot/bot-lv154-mixed-quirks.jsonl.gz", 2930),
    ] {
        assert_eq!(matched(file, &cart), frames, "{file}");
    }
}

#[test]
#[ignore = "needs NESTRIS_ROM"]
fn the_deep_game_conforms_to_its_top_out() {
    let cart = cartridge();
    let file = "ai-lv18-deep-topout.jsonl.gz";
    // All of it: its 73 lag frames, the broken dispatch at frame 137,941 that fills the
    // picture memory and returns, the 17-frame stall at level 161 (a sprite list repointed
    // into the cartridge by the pad), and the top-out.
    let trace = load(&dir().join(file)).expect("trace loads");
    assert_eq!(matched(file, &cart), trace.frames.len() as u64);
}

#[test]
#[ignore = "needs NESTRIS_ROM"]
fn crash_cases_conform_field_by_field() {
    let cart = cartridge();
    let index = std::fs::read_to_string(dir().join("crash/index.ndjson")).expect("index");
    let mut count = std::collections::BTreeMap::<String, (u32, u32)>::new();
    for line in index.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("index line");
        let name = case["case"].as_str().expect("case");
        let file = format!("crash/cases/{name}.jsonl.gz");
        let trace = load(&dir().join(&file)).expect("trace loads");
        let ok = matches!(check_with(&trace, Some(&cart)), Ok(Outcome::Ok { .. }));
        let outcome = case["outcome"].as_str().expect("outcome").to_string();
        // The stalls: an interrupt in the preview's sprite list sends it through the zero
        // page until the frame counter reads $FF. The unusual ones: a dispatch broken into
        // the legal screen's tail (`Crash::LegalScreen`). The crashes: a halt in the
        // recorded frame.
        assert!(ok, "{name}");
        let c = count.entry(outcome).or_default();
        c.0 += ok as u32;
        c.1 += 1;
    }
    let get = |k: &str| count.get(k).copied().unwrap_or_default();
    assert_eq!(get("normal"), (99, 99));
    assert_eq!(get("stall"), (10, 10));
    assert_eq!(get("unusual"), (3, 3));
    // Among them the two at level 163: an interrupt between the two stores of the preview's
    // list address, the list then read from the cartridge at the address half rewritten.
    assert_eq!(get("lag"), (201, 201));
    // In 3 of the 17 the walk through the zero page changed the game's variables before
    // the halt: the crash line's RAM, not compared.
    assert_eq!(get("crash"), (17, 17));
}

#[test]
#[ignore = "needs NESTRIS_ROM"]
fn power_on_recordings_through_the_demo_conform() {
    // The demo's buttons and pieces are the cartridge's own tables: only a ROM has them.
    let cart = cartridge();
    for (file, frames) in [
        ("demo/poweron-soft-reset-demo.jsonl.gz", 3228),
        ("demo/poweron-demo-end.jsonl.gz", 6701),
    ] {
        assert_eq!(matched(file, &cart), frames, "{file}");
    }
}

/// Under the default crash mode (`Cartridge`) the engine halts where the cartridge's broken
/// dispatch halts the CPU: for every recorded `jam`, in the recording's crash frame (the frame
/// after the lag frame), and in no case the cartridge played through.
#[test]
#[ignore = "needs NESTRIS_ROM"]
fn crash_cases_halt_in_the_recorded_crash_frame() {
    let cart = cartridge();
    let index = std::fs::read_to_string(dir().join("crash/index.ndjson")).expect("index");
    let (mut jams, mut in_frame, mut elsewhere) = (0, 0, Vec::<(u64, String)>::new());
    for line in index.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("index line");
        let name = case["case"].as_str().expect("case");
        let trace = load(&dir().join(format!("crash/cases/{name}.jsonl.gz"))).expect("loads");
        let mut game = nestris_trace::game_from_header(&trace.header).expect("header");
        assert_eq!(game.crash_mode(), nestris_core::CrashMode::Cartridge);
        let mut halted_at = None;
        for frame in &trace.frames {
            let ev = game.step_with_cartridge(frame.input, &cart);
            if game.halted() && halted_at.is_none() {
                assert!(ev.has(nestris_core::FrameEvents::CRASHED), "{name}");
                halted_at = Some(frame.f);
            }
        }
        let recorded = case["crash_frame"].as_u64();
        if case["crash_kind"].as_str() == Some("jam") {
            jams += 1;
            if let Some(h) = halted_at {
                assert_eq!(Some(h), recorded, "{name}: halted in frame {h}");
                in_frame += 1;
            }
        } else if let Some(h) = halted_at {
            let level = case["level"].as_u64().expect("level");
            elsewhere.push((level, format!("{name} ({} at {h})", case["outcome"])));
        }
    }
    assert_eq!((jams, in_frame), (17, 17));
    assert!(elsewhere.is_empty(), "{elsewhere:?}");
}
