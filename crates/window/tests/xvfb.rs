//! The real window under Xvfb: the binary starts from power-on, xdotool types Enter
//! through the legal screen, the title and both menus, then plays a little; a
//! screenshot must show the play screen, the status file must say the game is in play,
//! and quitting (Esc, Y) must leave a replay that replays.
//!
//! Needs `Xvfb`, `xdotool`, `xwd` (x11-apps) and `convert` (imagemagick). Missing
//! ones are installed with apt-get when running as root (as CI does); if that is not
//! possible the test prints why and passes without running.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use nestris_core::{Buttons, Game, GameSetup};
use nestris_render::{Frame, Renderer};

const TOOLS: [&str; 4] = ["Xvfb", "xdotool", "xwd", "convert"];

fn have(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool} >/dev/null 2>&1"))
        .status()
        .is_ok_and(|s| s.success())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// True when every tool is there (installing them if we may).
fn ensure_tools() -> bool {
    if TOOLS.iter().all(|t| have(t)) {
        return true;
    }
    if is_root() && have("apt-get") {
        eprintln!("installing xvfb xdotool x11-apps imagemagick for the window test...");
        let _ = Command::new("sh")
            .arg("-c")
            .arg(
                "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
                 --no-install-recommends xvfb xdotool x11-apps imagemagick >/dev/null",
            )
            .status();
    }
    TOOLS.iter().all(|t| have(t))
}

/// A child process killed when the test ends, however it ends.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts Xvfb on a free display; returns it and its number.
fn start_xvfb() -> (Guard, String) {
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x1024x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("Xvfb names its display");
    let n = line.trim().to_string();
    assert!(!n.is_empty(), "Xvfb did not start");
    (Guard(child), format!(":{n}"))
}

fn xdotool(display: &str, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .env("DISPLAY", display)
        .args(args)
        .output()
        .expect("xdotool runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn status(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn game_mode(path: &Path) -> Option<u8> {
    status(path)
        .split_whitespace()
        .find_map(|w| w.strip_prefix("game_mode=")?.parse().ok())
}

fn field(path: &Path, name: &str) -> Option<u32> {
    status(path)
        .split_whitespace()
        .find_map(|w| w.strip_prefix(name)?.strip_prefix('=')?.parse().ok())
}

/// A binary PPM (P6) as (width, height, RGB bytes).
fn read_ppm(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes[i] == b'#' {
            while bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        while !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..i]).into_owned());
    }
    assert_eq!(fields[0], "P6");
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    (w, h, bytes[i + 1..i + 1 + w * h * 3].to_vec())
}

/// The play screen as the renderer draws it for some game at level 0.
fn reference_play_frame() -> Frame {
    let mut game = Game::new(GameSetup::default());
    let mut r = Renderer::new();
    for _ in 0..5 {
        game.step(Buttons::NONE);
        r.observe(&game);
    }
    let mut f = Frame::new();
    r.draw(&game, &mut f);
    f
}

#[test]
fn the_window_plays_from_power_on() {
    if !ensure_tools() {
        println!(
            "SKIPPED the_window_plays_from_power_on: Xvfb, xdotool, xwd or convert is missing \
             and could not be installed"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_xvfb, display) = start_xvfb();
    let status_path = dir.path().join("status");
    let stderr_path = dir.path().join("stderr");
    let replay_dir = dir.path().join("replays");
    let started = Instant::now();
    let game = Command::new(env!("CARGO_BIN_EXE_nestris-window"))
        .env("DISPLAY", &display)
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .env("NESTRIS_STATUS_FILE", &status_path)
        .env("NESTRIS_PACING_LOG", dir.path().join("pacing.log"))
        .arg("--hud")
        .arg("--mute")
        .arg("--config")
        .arg(dir.path().join("config.toml"))
        .arg("--data-dir")
        .arg(dir.path().join("data"))
        .arg("--replay-dir")
        .arg(&replay_dir)
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .expect("the game starts");
    let mut game = Guard(game);
    let stderr = || std::fs::read_to_string(&stderr_path).unwrap_or_default();

    // The window appears.
    let window = loop {
        let found = xdotool(&display, &["search", "--name", "^nestris"]);
        if let Some(w) = found.lines().next() {
            break w.to_string();
        }
        if let Ok(Some(s)) = game.0.try_wait() {
            panic!("the game exited ({s}): {}", stderr());
        }
        assert!(started.elapsed() < Duration::from_secs(20), "no window");
        sleep(Duration::from_millis(100));
    };
    xdotool(&display, &["windowfocus", "--sync", &window]);

    // The legal screen reads Start from frame 267 (4.4 s): then Enter through the title,
    // the game-type menu and the level menu, one screen at a time.
    sleep(Duration::from_millis(4_600).saturating_sub(started.elapsed()));
    while game_mode(&status_path) != Some(4) {
        assert!(
            started.elapsed() < Duration::from_secs(40),
            "not in play: {} / {}",
            status(&status_path),
            stderr()
        );
        xdotool(&display, &["key", "Return"]);
        sleep(Duration::from_millis(600));
    }

    // Play: shift, rotate, and soft-drop the first piece so that it locks with points.
    for key in ["Left", "Left", "x", "Right"] {
        xdotool(&display, &["key", key]);
        sleep(Duration::from_millis(120));
    }
    xdotool(&display, &["keydown", "Down"]);
    sleep(Duration::from_millis(1_500));
    xdotool(&display, &["keyup", "Down"]);
    sleep(Duration::from_millis(500));
    assert_eq!(game_mode(&status_path), Some(4), "{}", status(&status_path));
    assert!(
        field(&status_path, "score").unwrap_or(0) > 0,
        "soft drop scores: {}",
        status(&status_path)
    );

    // The screenshot.
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let png = shots.join("nestris-window-xvfb.png");
    let ppm = dir.path().join("shot.ppm");
    let cmd = format!(
        "xwd -root -silent -display {display} > '{0}/shot.xwd' && convert '{0}/shot.xwd' '{1}' \
         && convert '{0}/shot.xwd' '{2}'",
        dir.path().display(),
        png.display(),
        ppm.display()
    );
    let ok = Command::new("sh").arg("-c").arg(&cmd).status().unwrap();
    assert!(ok.success(), "screenshot: {cmd}");
    println!("screenshot: {}", png.display());

    // Where the window is: 352x240 (NES + HUD) at 3x.
    let geometry = xdotool(&display, &["getwindowgeometry", &window]);
    let numbers = |key: &str, sep: char| -> (usize, usize) {
        let line = geometry.lines().find(|l| l.contains(key)).unwrap();
        let v = line
            .split(':')
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap();
        let (a, b) = v.split_once(sep).unwrap();
        (a.parse().unwrap(), b.parse().unwrap())
    };
    let (wx, wy) = numbers("Position", ',');
    let (ww, wh) = numbers("Geometry", 'x');
    let scale = (ww / 352).min(wh / 240);
    assert_eq!(scale, 3, "default window 3x: {geometry}");
    let (ox, oy) = (wx + (ww - 352 * scale) / 2, wy + (wh - 240 * scale) / 2);
    let (sw, _, rgb) = read_ppm(&std::fs::read(&ppm).unwrap());
    let at = |x: usize, y: usize| -> u32 {
        let (px, py) = (ox + x * scale + 1, oy + y * scale + 1);
        let i = (py * sw + px) * 3;
        u32::from(rgb[i]) << 16 | u32::from(rgb[i + 1]) << 8 | u32::from(rgb[i + 2])
    };
    // The play screen's fixed parts (backdrop, frames, labels) match the renderer's.
    let reference = reference_play_frame();
    let mut same = 0;
    for y in 0..240 {
        for x in 0..256 {
            if at(x, y) == reference.pixel(x, y) {
                same += 1;
            }
        }
    }
    let share = same as f64 / (256.0 * 240.0);
    println!(
        "{:.1}% of the NES picture matches a reference play screen",
        share * 100.0
    );
    assert!(
        share > 0.75,
        "not the play screen ({:.1}% alike)",
        share * 100.0
    );
    // The HUD panel's frame is there, right of the NES picture.
    assert_eq!(at(256 + 2, 100), 0x747474, "HUD panel outline");

    // Esc asks during a game; Y quits, saving the replay.
    xdotool(&display, &["key", "Escape"]);
    sleep(Duration::from_millis(300));
    assert!(
        game.0.try_wait().unwrap().is_none(),
        "Esc alone must ask first"
    );
    xdotool(&display, &["key", "y"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    let code = loop {
        if let Some(s) = game.0.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the game did not quit");
        sleep(Duration::from_millis(50));
    };
    assert!(code.success(), "exit {code}: {}", stderr());
    assert!(status(&status_path).contains("exited"));
    let frames = field(&status_path, "frames").unwrap();

    let replays: Vec<_> = std::fs::read_dir(&replay_dir).unwrap().flatten().collect();
    assert_eq!(replays.len(), 1);
    let name = replays[0].file_name().to_string_lossy().into_owned();
    assert!(
        name.starts_with("nestris-") && name.ends_with(".nestris"),
        "{name}"
    );
    let replay = nestris_replay::Replay::from_bytes(&std::fs::read(replays[0].path()).unwrap())
        .expect("a replay file");
    assert_eq!(replay.inputs.len() as u32, frames);
    let summary = replay.verify().expect("the replay replays");
    assert!(summary.score > 0);

    let pacing = std::fs::read_to_string(dir.path().join("pacing.log")).unwrap();
    let times = nestris_window::pacing::PacingStats::parse_log(&pacing);
    let stats = nestris_window::pacing::PacingStats::from_times(
        &times,
        nestris_core::Region::Ntsc.frame_rate(),
    )
    .unwrap();
    println!("window pacing under Xvfb: {stats}");
    assert!(
        (stats.mean - stats.target).abs() / stats.target < 0.02,
        "{stats}"
    );
}
