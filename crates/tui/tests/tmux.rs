//! Runs the real program in a detached tmux session from power-on: Enter gets it past the
//! legal screen (Start is read from frame 267, about 4.4 s in), the title and both menus,
//! then keys sent to the terminal move the game. Needs tmux (`tools/deps.sh --test`); fails
//! and says so without it.

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

/// The screens the test tells apart, by words only they show.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Screen {
    Legal,
    Title,
    TypeMenu,
    LevelMenu,
    Play,
    /// Blank (a screen being uploaded) or not drawn yet.
    Other,
}

fn which(screen: &str) -> Screen {
    if screen.contains("STATISTICS") {
        Screen::Play
    } else if screen.contains("REIMPLEMENTATION") {
        Screen::Legal
    } else if screen.contains("GAME TYPE") {
        Screen::TypeMenu
    } else if screen.contains("NAME") && screen.contains("LEVEL") {
        Screen::LevelMenu
    } else if screen.contains("PUSH START") {
        Screen::Title
    } else {
        Screen::Other
    }
}

#[test]
fn plays_in_tmux() {
    // Tests install nothing: tools/deps.sh --test does (CI runs it first).
    assert!(
        Command::new("tmux").arg("-V").output().is_ok(),
        "plays_in_tmux needs tmux; install it with tools/deps.sh --test"
    );
    let tmux = Tmux {
        socket: format!("nestris-tui-test-{}", std::process::id()),
    };
    let program = env!("CARGO_BIN_EXE_nestris-tui");
    let out = tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "t",
        "-x",
        "120",
        "-y",
        "40",
        program,
    ]);
    assert!(out.status.success(), "tmux new-session: {out:?}");

    let legal = tmux.wait_for(Duration::from_secs(10), |s| which(s) == Screen::Legal);
    assert_eq!(which(&legal), Screen::Legal, "{legal}");

    // Enter once per screen seen, and again if a screen ignores it (the legal screen does
    // until frame 267): wait for the screen to change after each press.
    let start = Instant::now();
    let mut seen = vec![Screen::Legal];
    let mut screen = legal;
    while which(&screen) != Screen::Play {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "stuck on {:?} after {seen:?}:\n{screen}",
            which(&screen)
        );
        let before = which(&screen);
        tmux.send("Enter");
        screen = tmux.wait_for(Duration::from_millis(700), |s| {
            !matches!(which(s), Screen::Other) && which(s) != before
        });
        let now = which(&screen);
        if now != before && now != Screen::Other {
            println!("{now:?} after {:?}:\n{screen}", start.elapsed());
            seen.push(now);
        }
    }
    assert_eq!(
        seen,
        [
            Screen::Legal,
            Screen::Title,
            Screen::TypeMenu,
            Screen::LevelMenu,
            Screen::Play
        ]
    );

    // Every word waited for, not the first: a capture can catch the terminal mid-redraw.
    let words = [
        "LINES-000",
        "TOP",
        "010000",
        "SCORE",
        "NEXT",
        "LEVEL",
        "00",
        "STATISTICS",
        "A-TYPE",
        "[]",
    ];
    let first = tmux.wait_for(Duration::from_secs(2), |s| {
        words.iter().all(|w| s.contains(w))
    });
    for word in words {
        assert!(first.contains(word), "{word} missing from\n{first}");
    }
    assert_eq!(score(&first), Some(0));
    assert_eq!(pieces_dealt(&first), 1, "{first}");

    for key in ["Left", "Right", "x"] {
        tmux.send(key);
        sleep(Duration::from_millis(150));
    }
    // Down held: a press every 30 ms, like a terminal's key repeat. At level 0 gravity
    // alone needs about 15 s to land the first piece; soft drop (once the first piece's
    // delay of about 1.6 s has passed) needs well under a second, and it scores points
    // when the piece locks.
    let progressed = |s: &str| score(s).unwrap_or(0) > 0 && pieces_dealt(s) >= 2;
    let start = Instant::now();
    let mut after = tmux.screen();
    while !progressed(&after) && start.elapsed() < Duration::from_secs(8) {
        for _ in 0..10 {
            tmux.send("Down");
            sleep(Duration::from_millis(30));
        }
        after = tmux.screen();
    }
    println!("after soft drop:\n{after}");
    assert!(
        score(&after).unwrap_or(0) > 0,
        "no soft-drop points:\n{after}"
    );
    assert!(pieces_dealt(&after) >= 2, "no new piece:\n{after}");

    // Esc asks during a game, y quits: the program exits and tmux closes its only session.
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
