//! `nestris ai suggest` as a user runs it: a request on standard input or in a file, the
//! answer as JSON on standard output, a bad request as one line on standard error and a
//! non-zero exit, and the one-request-per-line mode for overlays.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn nestris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nestris"))
}

/// Four rows full but for column 9, the rest empty: the I piece's tetris.
fn well() -> String {
    "0".repeat(160) + &"1111111110".repeat(4)
}

fn request(piece: &str, extra: &str) -> String {
    format!(
        r#"{{"board": "{}", "currentPiece": "{piece}", "nextPiece": "T", "level": 18, "lines": 0{extra}}}"#,
        well()
    )
}

fn answer(stdout: &[u8]) -> Value {
    let text = std::str::from_utf8(stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    serde_json::from_str(text).unwrap()
}

#[test]
fn the_i_piece_in_a_ready_well_is_told_to_take_the_tetris() {
    let out = nestris()
        .args(["ai", "suggest"])
        .write_stdin(request("I", ""))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let a = answer(&out);
    let best = &a["best"];
    assert_eq!(best["cleared"], 4, "{best}");
    assert_eq!(best["placement"], serde_json::json!([1, 4, 18]));
    assert_eq!(
        best["cells"],
        serde_json::json!([[16, 9], [17, 9], [18, 9], [19, 9]])
    );
    assert_eq!(best["resultingBoard"], "0".repeat(200));
    assert_eq!(best["score"], 1200 * 19);
    assert_eq!(best["lines"], 4);
    // Four taps right and a turn, nothing else.
    let seq = best["inputSequence"].as_str().unwrap();
    assert_eq!(
        seq.chars().filter(|c| "RGI".contains(*c)).count(),
        4,
        "{seq}"
    );
    let presses = seq.chars().filter(|c| *c != '.').count();
    assert!((4..=5).contains(&presses), "{seq}");
    assert_eq!(
        best["inputs"].as_array().unwrap().len(),
        best["frames"].as_u64().unwrap() as usize
    );
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    assert_eq!(&moves[0], best);
    let values: Vec<f64> = moves.iter().map(|m| m["value"].as_f64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
}

#[test]
fn a_request_file_is_read_and_top_is_honoured() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("req.json");
    std::fs::write(&path, request("L", r#", "top": 2, "tapHz": 15"#)).unwrap();
    let out = nestris()
        .args(["ai", "suggest"])
        .arg(&path)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let a = answer(&out);
    assert_eq!(a["moves"].as_array().unwrap().len(), 2);
    assert_eq!(a["best"]["piece"], "L");
}

#[test]
fn bad_requests_fail_with_one_line() {
    let cases = [
        ("not json".to_string(), "not a JSON object"),
        (
            r#"{"board": "0101", "currentPiece": "T", "level": 18, "lines": 0}"#.to_string(),
            "200 characters",
        ),
        (
            request("Q", ""),
            "currentPiece: expected one of the letters",
        ),
        (
            request("T", "").replace(r#""level": 18"#, r#""level": 300"#),
            "level: 300 is out of range 0..=255",
        ),
        (
            request("T", r#", "inputFrameTimeline": "X.X""#),
            "inputFrameTimeline: tap pattern \"X.X\": two X one frame apart",
        ),
        (String::new(), "not a JSON object"),
    ];
    for (input, needle) in cases {
        let out = nestris()
            .args(["ai", "suggest"])
            .write_stdin(input.clone())
            .assert()
            .failure()
            .stdout("")
            .stderr(predicate::str::contains(needle))
            .stderr(predicate::str::contains("panicked").not())
            .get_output()
            .stderr
            .clone();
        assert_eq!(
            String::from_utf8(out).unwrap().lines().count(),
            1,
            "{input:.60}"
        );
    }
}

#[test]
fn a_request_over_the_limit_is_refused_without_reading_it_all() {
    let big = " ".repeat(200_000);
    nestris()
        .args(["ai", "suggest"])
        .write_stdin(big)
        .assert()
        .failure()
        .stderr(predicate::str::contains("over 65536 bytes"));
}

#[test]
fn a_piece_that_cannot_spawn_is_answered_with_no_placement() {
    let blocked = "1111111110".repeat(20);
    let out = nestris()
        .args(["ai", "suggest"])
        .write_stdin(format!(
            r#"{{"board": "{blocked}", "currentPiece": "T", "level": 18, "lines": 0}}"#
        ))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let a = answer(&out);
    assert!(a["best"].is_null());
    assert!(a["noPlacement"].as_str().unwrap().contains("cannot spawn"));
}

#[test]
fn the_stream_answers_each_line_and_goes_on_after_a_bad_one() {
    let input = format!(
        "{}\n\n{{\"board\": 1}}\n{}\n",
        request("I", ""),
        request("O", "")
    );
    let out = nestris()
        .args(["ai", "suggest", "--stream"])
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0]["best"]["cleared"], 4);
    let error = lines[1]["error"].as_str().unwrap();
    assert!(error.starts_with("board: "), "{error}");
    assert_eq!(lines[2]["best"]["piece"], "O");
}

#[test]
fn a_weights_file_with_brackets_weighs_the_request_at_its_level() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    // The base set as built in, and a level-29 table that values a tetris 1,000 more.
    std::fs::write(&path, "[level29]\ntetris = 1024.0\n").unwrap();
    let value = |weights: Option<&std::path::Path>, level: u8, lines: u16| {
        let mut cmd = nestris();
        cmd.args(["ai", "suggest"]);
        if let Some(w) = weights {
            cmd.arg("--weights").arg(w);
        }
        let text = request("I", "").replace(
            r#""level": 18, "lines": 0"#,
            &format!(r#""level": {level}, "lines": {lines}"#),
        );
        let out = cmd
            .write_stdin(text)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        answer(&out)["best"]["value"].as_f64().unwrap()
    };
    assert_eq!(value(None, 18, 0), value(Some(&path), 18, 0));
    let (plain, tuned) = (value(None, 29, 230), value(Some(&path), 29, 230));
    assert!((tuned - plain - 1000.0).abs() < 0.1, "{plain} -> {tuned}");
}
