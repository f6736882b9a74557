//! The binary's errors without a window: a bad config file and a missing display each
//! end the program with one clear line and status 1, never a panic.

use std::process::Command;

fn binary() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_nestris-window"));
    c.env_remove("NESTRIS_STATUS_FILE")
        .env_remove("NESTRIS_PACING_LOG");
    c
}

#[test]
fn a_bad_config_file_names_its_line_and_exits_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[keys]\nup = [\"Up\"]\nleft = [\"Lfet\"]\n").unwrap();
    let out = binary()
        .arg("--config")
        .arg(&config)
        .arg("--data-dir")
        .arg(dir.path().join("data"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("line 3") && err.contains("Lfet"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn no_display_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = binary()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .arg("--config")
        .arg(dir.path().join("config.toml"))
        .arg("--data-dir")
        .arg(dir.path().join("data"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("no display available: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // The first run wrote the default config file.
    let written = std::fs::read_to_string(dir.path().join("config.toml")).unwrap();
    assert!(written.contains("[keys]"));
}

#[test]
fn usage_errors_exit_with_two() {
    let out = binary().arg("--bogus").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage: nestris-window"));
}

#[test]
fn a_replay_that_cannot_be_read_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.nestris");
    let out = binary().arg("--replay").arg(&missing).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot read") && err.contains("missing.nestris"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    // A damaged replay names what is wrong.
    let bad = dir.path().join("bad.nestris");
    std::fs::write(&bad, b"NESTRISR\x01\x00garbage").unwrap();
    let out = binary().arg("--replay").arg(&bad).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("bad.nestris") && !err.contains("panicked"),
        "{err}"
    );
    assert!(binary().arg("--replay").output().unwrap().status.code() == Some(2));
}
