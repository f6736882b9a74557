//! The `outcomes` example (issue 11's table in `docs/LAG.md`): its sweep starts from the
//! same state as the recordings it stands for, and it runs. The recordings' part needs the
//! user's ROM (the recordings play music), so that test is ignored without `NESTRIS_ROM`.

#[allow(dead_code)] // The example's `main` and the parts only the binary uses.
#[path = "../examples/outcomes.rs"]
mod outcomes;

use nestris_trace::{game_from_header, load, observe};
use outcomes::{canonical_case, splice, sweep_one, Label, Part, Variant, BEGIN, END};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/high-level")
}

#[test]
fn the_sweeps_setup_is_the_recorded_cases() {
    // Every recorded case of the canonical family: the sweep's state before frame 0 must be
    // the one its trace's header gives, field for field, with the same clock and sound page.
    let index = std::fs::read_to_string(dir().join("crash/index.ndjson")).expect("index");
    let mut compared = 0;
    for line in index.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("index line");
        let name = case["case"].as_str().expect("case");
        let variant = match case["lines_variant"].as_str() {
            Some("plain") => Variant::Plain,
            Some("lvlup") => Variant::LevelUp,
            _ => continue,
        };
        let canonical = case["stack"] == "low"
            && case["score_before"] == 999_999
            && case["pushdown_poke"] == 0
            && case["next_shown"] == true
            && case["frameCounter"] == 0
            && case["fall_frames"] == 3;
        if !canonical {
            continue;
        }
        let level = case["level"].as_u64().expect("level") as u8;
        let clear = case["clear"].as_u64().expect("clear") as u8;
        let trace = load(
            &dir()
                .join("crash")
                .join(case["file"].as_str().expect("file")),
        )
        .expect("trace loads");
        let recorded = game_from_header(&trace.header).expect("header builds a game");
        let ours = canonical_case(level, clear, variant, 0).expect("canonical case");
        assert_eq!(observe(&ours), observe(&recorded), "{name}");
        let (a, b) = (ours.state(), recorded.state());
        assert_eq!(
            (a.clock, &a.audio, a.resume),
            (b.clock, &b.audio, b.resume),
            "{name}"
        );
        compared += 1;
    }
    assert!(compared >= 80, "only {compared} canonical cases");
}

#[test]
fn the_music_off_sweep_keeps_its_timing() {
    // Music off, the engine's cycles are exact without a ROM: below the levels where the
    // score loop overruns, the clock stays known through the clear to the next spawn.
    for (level, clear) in [(128, 1), (128, 4), (150, 4)] {
        let mut g = canonical_case(level, clear, Variant::Plain, 3).expect("canonical case");
        let run = sweep_one(&mut g, None);
        let (lock, spawn) = (run.lock.expect("locks"), run.spawn.expect("spawns"));
        // The line-clear animation alone is 17-20 frames.
        assert!(spawn > lock + 17, "{level}/{clear}: {run:?}");
        assert_eq!(run.lost, None, "{level}/{clear}");
        // No recording at level 128 lagged, and neither does the model.
        if level == 128 {
            assert_eq!(run.verdict().label, Label::Normal, "{run:?}");
        }
    }
}

#[test]
fn the_generated_part_replaces_only_what_is_between_the_markers() {
    let doc = format!("# T\n\nprose\n\n{BEGIN}\n\nold\n\n{END}\n\nmore prose\n");
    let new = splice(&doc, "new table\n").expect("markers");
    assert_eq!(
        new,
        format!("# T\n\nprose\n\n{BEGIN}\n\nnew table\n\n{END}\n\nmore prose\n")
    );
    assert!(splice("no markers", "x").is_err());
}

#[test]
fn without_a_rom_every_recorded_case_is_unmodelled() {
    // The recordings play music: without its scripts the timing is unknown from frame 0.
    let text = outcomes::generate(&dir(), None, Part::Recordings).expect("generates");
    assert!(text.contains("No ROM was given"), "{text}");
    assert!(text.contains("| recorded \\ engine |"));
}

#[test]
#[ignore = "needs NESTRIS_ROM"]
fn with_the_rom_the_generator_runs_both_parts() {
    let path = std::env::var_os("NESTRIS_ROM").expect("NESTRIS_ROM names a ROM image");
    let image = std::fs::read(&path).expect("NESTRIS_ROM is readable");
    let cart = nestris_replay::rom::cartridge(&image).expect("NESTRIS_ROM is Tetris (USA)");
    let text = outcomes::generate(&dir(), Some(&cart), Part::All).expect("generates");
    assert!(text.contains("### Recordings vs engine"));
    assert!(text.contains("#### Music on (the recordings' setup"));
}
