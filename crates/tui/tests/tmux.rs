//! Runs the real program in a detached tmux session: the screen shows the NES layout, and
//! keys sent to the terminal move the game. Skipped (with a message) if tmux is missing.

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
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// Runs of exactly `n` digits in `line`.
fn numbers(line: &str, n: usize) -> Vec<u32> {
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|w| w.len() == n)
        .map(|w| w.parse().unwrap())
        .collect()
}

/// The score: the six-digit number on the line after SCORE.
fn score(screen: &str) -> Option<u32> {
    let lines: Vec<&str> = screen.lines().collect();
    let i = lines.iter().position(|l| l.contains("SCORE"))?;
    numbers(lines.get(i + 1)?, 6).first().copied()
}

/// Pieces dealt: the three-digit statistics counts (LINES is the only other one).
fn pieces_dealt(screen: &str) -> u32 {
    screen
        .lines()
        .filter(|l| !l.contains("LINES"))
        .flat_map(|l| numbers(l, 3))
        .sum()
}

#[test]
fn plays_in_tmux() {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("skipping plays_in_tmux: tmux is not installed");
        return;
    }
    let tmux = Tmux {
        socket: format!("nestris-tui-test-{}", std::process::id()),
    };
    let program = format!("{} --seed 7 --level 5", env!("CARGO_BIN_EXE_nestris-tui"));
    let out = tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "t",
        "-x",
        "120",
        "-y",
        "40",
        &program,
    ]);
    assert!(out.status.success(), "tmux new-session: {out:?}");

    let first = tmux.wait_for(Duration::from_secs(15), |s| s.contains("STATISTICS"));
    println!("first screen:\n{first}");
    for word in [
        "LINES-000",
        "TOP",
        "010000",
        "SCORE",
        "NEXT",
        "LEVEL",
        "05",
        "STATISTICS",
        "A-TYPE",
        "[]",
    ] {
        assert!(first.contains(word), "{word} missing from\n{first}");
    }
    assert_eq!(score(&first), Some(0));
    assert_eq!(pieces_dealt(&first), 1, "{first}");

    for key in ["Left", "Right", "x"] {
        tmux.send(key);
        sleep(Duration::from_millis(150));
    }
    // Down held: a press every 30 ms, like a terminal's key repeat. At level 5 gravity
    // alone needs about 9 s to land the first piece; soft drop needs well under 2 s, and
    // it scores points when the piece locks.
    for _ in 0..80 {
        tmux.send("Down");
        sleep(Duration::from_millis(30));
    }
    let after = tmux.wait_for(Duration::from_secs(5), |s| {
        score(s).unwrap_or(0) > 0 && pieces_dealt(s) >= 2
    });
    println!("after soft drop:\n{after}");
    assert!(
        score(&after).unwrap_or(0) > 0,
        "no soft-drop points:\n{after}"
    );
    assert!(pieces_dealt(&after) >= 2, "no new piece:\n{after}");

    // Esc asks, y quits: the program exits and tmux closes its only session.
    tmux.send("Escape");
    let asked = tmux.wait_for(Duration::from_secs(5), |s| s.contains("QUIT THIS GAME?"));
    assert!(asked.contains("QUIT THIS GAME?"), "{asked}");
    tmux.send("y");
    let start = Instant::now();
    while tmux.run(&["has-session", "-t", "t"]).status.success() {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the program did not quit"
        );
        sleep(Duration::from_millis(100));
    }
}
