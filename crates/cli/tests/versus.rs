//! `nestris versus` over the network between two processes on loopback: each side, an AI
//! at its controls, simulates the other from the inputs it streams, and both end up with
//! the same two games (each side's view of the other is the other's own game).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn nestris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nestris"))
}

fn json(out: &[u8]) -> serde_json::Value {
    serde_json::from_slice(out).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {}", String::from_utf8_lossy(out));
    })
}

#[test]
fn a_network_match_between_two_processes_shows_each_side_the_other_s_true_game() {
    let dir = tempfile::tempdir().unwrap();
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let host = nestris()
        .args([
            "versus",
            "--host",
            &port.to_string(),
            "--headless",
            "--frames",
            "2400",
        ])
        .args(["--seed", "C0FFEE", "--best-of", "3", "--ai-hz", "30"])
        .arg("-o")
        .arg(dir.path().join("host.nestrisvs"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The host may not be listening yet: the joiner tries again for a while.
    let started = Instant::now();
    let joined = loop {
        let out = nestris()
            .args([
                "versus",
                "--join",
                &format!("127.0.0.1:{port}"),
                "--headless",
            ])
            .args(["--frames", "2000", "--ai-hz", "15"])
            .arg("-o")
            .arg(dir.path().join("guest.nestrisvs"))
            .output()
            .unwrap();
        if out.status.success() {
            break out;
        }
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            started.elapsed() < Duration::from_secs(30) && err.contains("refused"),
            "the joiner failed: {err}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let hosted = host.wait_with_output().unwrap();
    assert!(
        hosted.status.success(),
        "{}",
        String::from_utf8_lossy(&hosted.stderr)
    );
    let (h, j) = (json(&hosted.stdout), json(&joined.stdout));
    assert_eq!(h["me"], 1);
    assert_eq!(j["me"], 2);
    assert_eq!(j["seed"], "C0FFEE", "the joiner plays the host's setup");
    assert_eq!(
        h["closed"],
        serde_json::Value::Null,
        "a goodbye, not a drop"
    );
    for p in 0..2 {
        assert_eq!(h["players"][p], j["players"][p], "player {}", p + 1);
    }
    assert_eq!(h["players"][0]["frames"], 2400);
    assert_eq!(h["players"][1]["frames"], 2000);
    assert!(
        h["players"][0]["score"].as_u64().unwrap() > 0,
        "the AI played"
    );
    // Both files hold the match and verify.
    for name in ["host.nestrisvs", "guest.nestrisvs"] {
        let r = nestris_versus::file::VersusReplay::load(&dir.path().join(name)).unwrap();
        r.verify().unwrap();
    }
}

#[test]
fn bad_versus_command_lines_are_refused_with_one_line() {
    for args in [
        vec!["versus", "--best-of", "4"],
        vec!["versus", "--seed", "1234567"],
        vec!["versus", "--seed", "XYZ"],
        vec!["versus", "--headless", "--frames", "10"],
        vec!["versus", "--ai", "--join", "127.0.0.1:1"],
        vec!["versus", "--host", "1", "--join", "127.0.0.1:1"],
    ] {
        let out = nestris().args(&args).output().unwrap();
        assert!(!out.status.success(), "{args:?} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // Addresses and ports the setup screen refuses are refused here too, with the reason.
    for (flag, value, why) in [
        ("--join", ":7300", "no host before the port"),
        ("--join", "my host:7300", "' ' is not in an address"),
        ("--join", "host:0", "the port is 1 to 65535"),
        ("--host", "70000", "the port is 1 to 65535"),
        ("--ghost-player", "3", "3"),
    ] {
        let out = nestris()
            .args(["versus", flag, value, "--headless", "--frames", "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{flag} {value}: {err}");
    }
    // Nobody there: one line, non-zero.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let out = nestris()
        .args([
            "versus",
            "--join",
            &format!("127.0.0.1:{port}"),
            "--headless",
            "--frames",
            "5",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("joining"), "{err}");
}

/// `nestris replay --headless` on a versus file replays both players and checks both
/// final states; a changed file fails.
#[test]
fn replay_headless_checks_a_versus_match() {
    use nestris_core::{Buttons, Region};
    use nestris_versus::file::VersusReplay;
    use nestris_versus::{Match, MatchSetup};
    let setup = MatchSetup {
        region: Region::Ntsc,
        level: 18,
        seed: 0xC0FFEE,
        best_of: 3,
    };
    let mut m = Match::new(setup);
    let mut inputs = [Vec::new(), Vec::new()];
    for f in 0..600u32 {
        for (p, side) in inputs.iter_mut().enumerate() {
            let b = if (f + p as u32 * 3) % 7 < 3 {
                Buttons::DOWN
            } else {
                Buttons::NONE
            };
            let i = m.input_for(p, b, false);
            m.apply(p, i);
            side.push(i);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.nestrisvs");
    let mut r = VersusReplay::of(&m, inputs);
    r.save(&path).unwrap();
    let out = nestris()
        .args(["replay", "--headless", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out.stdout);
    assert_eq!(v["versus"], true);
    assert_eq!(v["verified"], true);
    assert_eq!(v["seed"], "C0FFEE");
    assert_eq!(v["players"][1]["score"], m.sides[1].score());
    r.hashes[0] ^= 1;
    r.save(&path).unwrap();
    let out = nestris()
        .args(["replay", "--headless"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("verified    no"));
}
