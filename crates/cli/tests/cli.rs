//! The `nestris` binary as a user runs it: exit codes and the lines it prints for good,
//! missing, corrupt and diverging traces.

use assert_cmd::Command;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use predicates::prelude::*;
use serde_json::Value;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance")
        .join(name)
}

fn nestris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nestris"))
}

fn decompress(name: &str) -> String {
    let bytes = std::fs::read(fixture(name)).expect("fixture exists");
    let mut text = String::new();
    GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .expect("fixture is gzip text");
    text
}

#[test]
fn a_matching_trace_passes() {
    let path = fixture("lv00-no-input.jsonl.gz");
    nestris()
        .arg("conformance")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"lv00-no-input\.jsonl\.gz +5921 frames  ok\n").unwrap())
        .stdout(predicate::str::contains(
            "1 trace: 1 ok, 0 diverged, 0 unreadable",
        ));
}

#[test]
fn a_directory_is_searched_recursively_in_sorted_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("a-sub")).unwrap();
    std::fs::copy(
        fixture("lv03-ghost-cells.jsonl.gz"),
        dir.path().join("a-sub/ghost.jsonl.gz"),
    )
    .unwrap();
    std::fs::copy(
        fixture("lv00-no-input.jsonl.gz"),
        dir.path().join("b.jsonl.gz"),
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a trace").unwrap();
    nestris()
        .arg("conformance")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(
            predicate::str::is_match(
                r"(?s)a-sub/ghost\.jsonl\.gz +3005 frames  ok\n.*b\.jsonl\.gz +5921 frames  ok\n",
            )
            .unwrap(),
        )
        .stdout(predicate::str::contains("2 traces: 2 ok"))
        .stdout(predicate::str::contains("notes.txt").not());
}

#[test]
fn quiet_prints_only_the_summary_when_all_pass() {
    nestris()
        .args(["conformance", "--quiet"])
        .arg(fixture("lv18-hold-down.jsonl.gz"))
        .assert()
        .success()
        .stdout("1 trace: 1 ok, 0 diverged, 0 unreadable\n");
}

#[test]
fn json_prints_one_object_per_trace_and_a_summary() {
    let out = nestris()
        .args(["conformance", "--json"])
        .arg(fixture("lv18-hold-down.jsonl.gz"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["status"], "ok");
    assert_eq!(lines[0]["frames"], 632);
    assert_eq!(lines[1]["summary"]["ok"], 1);
}

#[test]
fn an_empty_directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    nestris()
        .arg("conformance")
        .arg(dir.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("no *.jsonl or *.jsonl.gz traces"))
        .stderr(predicate::str::contains(dir.path().to_str().unwrap()));
}

#[test]
fn a_missing_file_fails_and_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-trace.jsonl.gz");
    nestris()
        .arg("conformance")
        .arg(&missing)
        .assert()
        .failure()
        .stderr(predicate::str::contains("no-such-trace.jsonl.gz"))
        .stderr(predicate::str::contains("panicked").not())
        .stdout(predicate::str::contains("1 unreadable"));
}

#[test]
fn garbage_fails_and_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("garbage.jsonl");
    std::fs::write(&path, "this is not a trace\n").unwrap();
    nestris()
        .arg("conformance")
        .arg(&path)
        .assert()
        .failure()
        .stderr(predicate::str::contains("garbage.jsonl: line 1: not JSON"));
}

#[test]
fn a_broken_frame_line_fails_and_names_its_line() {
    let text = decompress("lv00-no-input.jsonl.gz");
    let mut lines: Vec<&str> = text.lines().take(11).collect();
    let last = lines.pop().unwrap();
    lines.push(&last[..last.len() / 2]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.jsonl");
    std::fs::write(&path, lines.join("\n")).unwrap();
    nestris()
        .arg("conformance")
        .arg(&path)
        .assert()
        .failure()
        .stderr(predicate::str::contains("cut.jsonl: line 11: not JSON"));
}

#[test]
fn a_truncated_gzip_fails_and_names_file_and_line() {
    let bytes = std::fs::read(fixture("lv00-no-input.jsonl.gz")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("truncated.jsonl.gz");
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    nestris()
        .arg("conformance")
        .arg(&path)
        .assert()
        .failure()
        .stderr(predicate::str::is_match(r"truncated\.jsonl\.gz: line \d+: ").unwrap())
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn an_edited_field_is_reported_as_the_first_divergence() {
    let text = decompress("lv03-ghost-cells.jsonl.gz");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    // Line 0 is the header, so frame 100 is line 101.
    let mut frame: Value = serde_json::from_str(&lines[101]).unwrap();
    assert_eq!(frame["f"], 100);
    let x = frame["x"].as_u64().unwrap();
    let edited = (x + 1) % 10;
    frame["x"] = edited.into();
    lines[101] = frame.to_string();

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.jsonl.gz");
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(lines.join("\n").as_bytes()).unwrap();
    std::fs::write(&path, gz.finish().unwrap()).unwrap();

    nestris()
        .arg("conformance")
        .arg(&path)
        .assert()
        .failure()
        .stdout(predicate::str::contains(format!(
            "101 frames  DIVERGED at frame 100: x expected {edited} got {x} (inputs: 93:"
        )))
        .stdout(predicate::str::contains("1 trace: 0 ok, 1 diverged"));
}

#[test]
fn one_bad_trace_does_not_stop_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{}\n").unwrap();
    nestris()
        .arg("conformance")
        .arg(&bad)
        .arg(fixture("lv18-hold-down.jsonl.gz"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("bad.jsonl: line 1: "))
        .stdout(predicate::str::contains("632 frames  ok"))
        .stdout(predicate::str::contains(
            "2 traces: 1 ok, 0 diverged, 1 unreadable",
        ));
}

#[test]
fn play_names_its_trainers_and_refuses_a_bad_drought() {
    nestris()
        .args(["play", "--trainer", "nope"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "use transition, tetris-ready, ks, ksx2, halt, drought, das-only or tap-test",
        ));
    for bad in ["19", "J", "x"] {
        nestris()
            .args(["play", "--trainer", "drought", "--drought", bad])
            .assert()
            .failure()
            .stderr(predicate::str::contains(
                "use 0-18 (or TetrisGYM's 0-9, A-I)",
            ));
    }
    nestris()
        .args(["play", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("tap-test"))
        .stdout(predicate::str::contains("--drought"));
}
