//! `nestris play --tui --trainer`: a practice game in the terminal, run for real in a
//! detached tmux session. It starts in play under its rules, names them beside the field,
//! and the replay it saves verifies headless. Needs tmux (`tools/deps.sh --test`); fails
//! and says so without it.

use std::path::Path;
use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// A private tmux server (its own socket), killed when the test ends however it ends.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    fn send(&self, key: &str) {
        let out = self.run(&["send-keys", "-t", "t", key]);
        assert!(out.status.success(), "send-keys {key}: {out:?}");
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "t"]).stdout).into_owned()
    }

    /// Captures until `ok` holds or `timeout` passes; returns the last capture.
    fn wait_for(&self, timeout: Duration, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) || start.elapsed() > timeout {
                return screen;
            }
            sleep(Duration::from_millis(100));
        }
    }

    fn running(&self) -> bool {
        self.run(&["has-session", "-t", "t"]).status.success()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// The pieces dealt: the statistics' counts, the first three-digit number on each line
/// that shows a piece's icon (the stats panel to the right has numbers of its own; its
/// DAS meter, the only other line of blocks, is drawn in shades).
fn pieces_dealt(screen: &str) -> u32 {
    screen
        .lines()
        .filter(|l| l.contains(['▀', '▄', '█']) && !l.contains('░'))
        .filter_map(|l| {
            l.split(|c: char| !c.is_ascii_digit())
                .find(|w| w.len() == 3)
                .map(|w| w.parse::<u32>().unwrap())
        })
        .sum()
}

/// The one file in `dir`.
fn only_file(dir: &Path) -> std::path::PathBuf {
    let files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

#[test]
fn a_drought_trainer_plays_in_the_terminal_named_and_its_replay_verifies() {
    assert!(
        Command::new("tmux").arg("-V").output().is_ok(),
        "this test needs tmux; install it with tools/deps.sh --test"
    );
    let dir = tempfile::tempdir().unwrap();
    let data = dir
        .path()
        .to_str()
        .expect("a temporary folder named in UTF-8");
    let tmux = Tmux {
        socket: format!("nestris-tui-trainer-{}", std::process::id()),
    };
    let program = env!("CARGO_BIN_EXE_nestris");
    let out = tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "t",
        "-x",
        "100",
        "-y",
        "30",
        program,
        "play",
        "--tui",
        "--trainer",
        "drought",
        "--drought",
        "18",
        "--data-dir",
        data,
    ]);
    assert!(out.status.success(), "tmux new-session: {out:?}");

    // No menus: the practice game is on screen at once, its rules named. (Waiting for
    // every word, not the first of them: a capture can catch the terminal mid-redraw.)
    let words = ["DROUGHT 18", "LEVEL", "18", "LINES-000", "NTSC", "A-TYPE"];
    let first = tmux.wait_for(Duration::from_secs(10), |s| {
        s.contains("STATISTICS") && s.contains("[]") && words.iter().all(|w| s.contains(w))
    });
    for word in words {
        assert!(first.contains(word), "{word} missing from\n{first}");
    }
    assert!(!first.contains("SEED"), "no seed:\n{first}");
    assert_eq!(pieces_dealt(&first), 1, "the first piece:\n{first}");

    // Down held (a press every 30 ms, as a terminal repeats a key) drops pieces.
    let start = Instant::now();
    let mut after = tmux.screen();
    while pieces_dealt(&after) < 3 && start.elapsed() < Duration::from_secs(15) {
        for _ in 0..10 {
            tmux.send("Down");
            sleep(Duration::from_millis(30));
        }
        after = tmux.screen();
    }
    assert!(pieces_dealt(&after) >= 3, "no pieces dropped:\n{after}");
    assert!(after.contains("DROUGHT 18"), "{after}");

    tmux.send("Escape");
    let asked = tmux.wait_for(Duration::from_secs(5), |s| s.contains("QUIT THIS GAME?"));
    assert!(asked.contains("QUIT THIS GAME?"), "{asked}");
    tmux.send("y");
    let start = Instant::now();
    while tmux.running() {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the program did not quit"
        );
        sleep(Duration::from_millis(100));
    }

    // The saved replay starts from the practice game, carries its rules and verifies.
    let replay = only_file(&dir.path().join("replays"));
    let out = Command::new(program)
        .args(["replay", "--headless"])
        .arg(&replay)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "start       snapshot",
        "rules       drought 18",
        "verified    yes",
    ] {
        assert!(text.contains(line), "{line} missing from\n{text}");
    }
    // A practice game keeps no score.
    assert!(!dir.path().join("highscores.json").exists());
}
