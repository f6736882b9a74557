//! The real window under Xvfb: the binary starts from power-on, xdotool types Enter
//! through the legal screen, the title and both menus, then plays a little; a
//! screenshot must show the play screen, the status file must say the game is in play,
//! and quitting (Esc, Y) must leave a replay that replays.
//!
//! And the replay viewer (`--replay FILE`): a replay recorded here is played, paused,
//! stepped both ways, sped up and down, seeked with the keys and with the mouse on the
//! progress bar; the status file must follow each step, and a screenshot must show
//! exactly the renderer's picture of the frame it says, the HUD and the bar.
//!
//! And the pictures in `docs/` (`xvfb-versus.png`, `xvfb-hud.png`, `xvfb-trainer.png`):
//! the real window showing a versus match, a game with the HUD and a trainer's game, each
//! a replay made here and shown in the viewer at its last frame (so the frame is exact),
//! captured under Xvfb and cropped to the window's content, must be the committed files
//! pixel for pixel. The games are committed too (`tests/docs/`); `NESTRIS_BLESS=1` plays
//! them again with the AI and writes games and pictures instead (look at them first).
//!
//! And versus from the title screen: V (named on the title screen) opens the versus setup
//! screen in the same window, which is typed a port to host on and waits; this test joins
//! it over loopback as the network guest, the waiting screen must be the setup screen's
//! picture pixel for pixel, and after Esc (back to the title, the window its old size) the
//! saved match must hold the guest's game exactly as it was sent.
//!
//! Needs `Xvfb`, `xdotool`, `xwd` (x11-apps) and `convert` (imagemagick), which
//! `tools/deps.sh --test` installs (CI runs it first); without them the tests fail and say
//! which is missing. They install nothing themselves.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use nestris_core::{Buttons, Game, GameSetup, Region};
use nestris_render::Frame;
use nestris_replay::{Recorder, Replay, Start};

const TOOLS: [&str; 4] = ["Xvfb", "xdotool", "xwd", "convert"];

fn have(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool} >/dev/null 2>&1"))
        .status()
        .is_ok_and(|s| s.success())
}

/// Fails the test, naming what is missing, unless every tool is installed. Tests install
/// nothing: `tools/deps.sh --test` does (CI runs it first).
fn require_tools() {
    let missing: Vec<&str> = TOOLS.iter().copied().filter(|t| !have(t)).collect();
    assert!(
        missing.is_empty(),
        "the window tests need {} (missing: {}); install them with tools/deps.sh --test",
        TOOLS.join(", "),
        missing.join(", ")
    );
}

/// A child process killed when the test ends, however it ends.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One X server at a time: two starting together can race for a display number.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Starts Xvfb on a free display; returns it and its number.
fn start_xvfb() -> (Guard, String) {
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            // Wide enough for the versus picture at 3x (1824 pixels).
            "1920x1080x24",
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
    // On a busy machine the server can lag its display number a little: wait until it
    // answers (stale sockets of earlier servers make the socket file no proof).
    let display = format!(":{n}");
    let t = Instant::now();
    while xdotool(&display, &["getdisplaygeometry"]).trim().is_empty()
        && t.elapsed() < Duration::from_secs(15)
    {
        sleep(Duration::from_millis(100));
    }
    (Guard(child), display)
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

/// Waits for the game's window to appear; returns its id, or `None` if the program could
/// not reach the new X server (seen once in CI under load, the server answering `xdotool`
/// already): the caller starts a new server and tries again.
fn find_window(display: &str, game: &mut Guard, started: Instant, stderr: &Path) -> Option<String> {
    loop {
        let found = xdotool(display, &["search", "--name", "^nestris"]);
        if let Some(w) = found.lines().next() {
            return Some(w.to_string());
        }
        if let Ok(Some(s)) = game.0.try_wait() {
            let err = std::fs::read_to_string(stderr).unwrap_or_default();
            if err.contains("no display available") {
                return None;
            }
            panic!("the program exited ({s}): {err}");
        }
        assert!(started.elapsed() < Duration::from_secs(20), "no window");
        sleep(Duration::from_millis(100));
    }
}

/// The program on its own X server, its window up.
struct Launched {
    /// The X server (bind it before the program: it must outlive it).
    _xvfb: Guard,
    program: Guard,
    display: String,
    window: String,
    /// When the program was started.
    started: Instant,
}

/// Starts an X server and the window binary with `args` (stderr to `stderr`, the status
/// file at `status`) and waits for its window; starts both again (at most 3 times) when the
/// program finds no display.
fn launch(
    args: &[&std::ffi::OsStr],
    status: &Path,
    stderr: &Path,
    pacing: Option<&Path>,
) -> Launched {
    for _ in 0..3 {
        let (xvfb, display) = start_xvfb();
        let started = Instant::now();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_nestris-window"));
        cmd.env("DISPLAY", &display)
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("WAYLAND_SOCKET")
            .env("NESTRIS_STATUS_FILE", status)
            .args(args)
            .stderr(std::fs::File::create(stderr).unwrap());
        match pacing {
            Some(p) => cmd.env("NESTRIS_PACING_LOG", p),
            None => cmd.env_remove("NESTRIS_PACING_LOG"),
        };
        let mut program = Guard(cmd.spawn().expect("the window binary starts"));
        if let Some(window) = find_window(&display, &mut program, started, stderr) {
            return Launched {
                _xvfb: xvfb,
                program,
                display,
                window,
                started,
            };
        }
    }
    panic!("no display available, 3 times");
}

/// Where a window shows a canvas of `w` x `h` pixels: its top-left corner on the
/// screen and the whole-number scale.
struct Placement {
    x: usize,
    y: usize,
    scale: usize,
}

fn placement(display: &str, window: &str, w: usize, h: usize) -> Placement {
    let geometry = xdotool(display, &["getwindowgeometry", window]);
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
    let scale = (ww / w).min(wh / h);
    assert_eq!(scale, 3, "default window 3x: {geometry}");
    Placement {
        x: wx + (ww - w * scale) / 2,
        y: wy + (wh - h * scale) / 2,
        scale,
    }
}

impl Placement {
    /// The screen position of the middle of canvas pixel (x, y).
    fn screen(&self, x: f64, y: f64) -> (usize, usize) {
        let s = self.scale as f64;
        (
            self.x + (x * s + s / 2.0) as usize,
            self.y + (y * s + s / 2.0) as usize,
        )
    }
}

/// A screenshot of the whole screen.
struct Shot {
    width: usize,
    rgb: Vec<u8>,
}

impl Shot {
    /// The colour of canvas pixel (x, y) in the window placed at `p`.
    fn at(&self, p: &Placement, x: usize, y: usize) -> u32 {
        let (px, py) = (p.x + x * p.scale + 1, p.y + y * p.scale + 1);
        let i = (py * self.width + px) * 3;
        u32::from(self.rgb[i]) << 16 | u32::from(self.rgb[i + 1]) << 8 | u32::from(self.rgb[i + 2])
    }
}

/// Takes a screenshot, keeps it as `name` (a PNG) in the test's target folder, and
/// returns its pixels.
fn screenshot(display: &str, dir: &Path, name: &str) -> Shot {
    let png = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let ppm = dir.join("shot.ppm");
    let cmd = format!(
        "xwd -root -silent -display {display} > '{0}/shot.xwd' && convert '{0}/shot.xwd' '{1}' \
         && convert '{0}/shot.xwd' '{2}'",
        dir.display(),
        png.display(),
        ppm.display()
    );
    let ok = Command::new("sh").arg("-c").arg(&cmd).status().unwrap();
    assert!(ok.success(), "screenshot: {cmd}");
    println!("screenshot: {}", png.display());
    let (width, _, rgb) = read_ppm(&std::fs::read(&ppm).unwrap());
    Shot { width, rgb }
}

/// The play screen as the renderer draws it for some game at level 0.
fn reference_play_frame() -> Frame {
    let mut game = Game::new(GameSetup::default());
    for _ in 0..5 {
        game.step(Buttons::NONE);
    }
    let mut f = Frame::new();
    nestris_render::draw(&game, &mut f);
    f
}

/// The board editor in the real window (`--editor --position FILE`): the mouse paints
/// along the bottom row with its left button held and erases a cell with its right, a click
/// on SAVE writes the file, Enter plays the position (the status file says a game is in
/// play at its level), E goes back to the editor and Esc leaves the program; the try's
/// replay starts from the position and replays.
#[test]
fn the_board_editor_paints_with_the_mouse_saves_and_plays() {
    use nestris_render::{FIELD_X, FIELD_Y};
    require_tools();
    let dir = tempfile::tempdir().unwrap();
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let status_path = dir.path().join("status");
    let stderr_path = dir.path().join("stderr");
    let (config, data) = (dir.path().join("config.toml"), dir.path().join("data"));
    let position = dir.path().join("position.txt");
    std::fs::write(&position, "current I\nnext O\nlevel 19\n").unwrap();
    let Launched {
        _xvfb,
        program: mut game,
        display,
        window,
        ..
    } = launch(
        &[
            "--editor".as_ref(),
            "--position".as_ref(),
            position.as_os_str(),
            "--mute".as_ref(),
            "--config".as_ref(),
            config.as_os_str(),
            "--data-dir".as_ref(),
            data.as_os_str(),
        ],
        &status_path,
        &stderr_path,
        None,
    );
    let stderr = || std::fs::read_to_string(&stderr_path).unwrap_or_default();
    xdotool(&display, &["windowfocus", "--sync", &window]);
    sleep(Duration::from_millis(800));
    let place = placement(&display, &window, 256, 240);
    let cell = |row: i32, col: i32| {
        place.screen(
            f64::from(FIELD_X + col * 8 + 3),
            f64::from(FIELD_Y + row * 8 + 3),
        )
    };
    let to = |(x, y): (usize, usize)| [x.to_string(), y.to_string()];
    let [x, y] = to(cell(19, 0));
    xdotool(&display, &["mousemove", &x, &y, "mousedown", "1"]);
    for col in 1..9 {
        sleep(Duration::from_millis(40));
        let [x, y] = to(cell(19, col));
        xdotool(&display, &["mousemove", &x, &y]);
    }
    xdotool(&display, &["mouseup", "1"]);
    let [x, y] = to(cell(19, 4));
    xdotool(&display, &["mousemove", &x, &y, "click", "3"]);
    // SAVE: the menu's eleventh line, in cell row 18.
    let [x, y] = to(place.screen(24.0, 18.0 * 8.0 + 3.0));
    xdotool(&display, &["mousemove", &x, &y, "click", "1"]);
    sleep(Duration::from_millis(400));
    let saved = nestris_replay::position::load_position(&position)
        .unwrap_or_else(|e| panic!("{e}: {}", stderr()));
    assert_eq!(saved.cells[19], [1, 1, 1, 1, 0, 1, 1, 1, 1, 0]);
    assert_eq!((saved.current.letter(), saved.next.letter()), ('I', 'O'));
    assert_eq!(saved.level, 19);
    let shot = screenshot(&display, dir.path(), "nestris-window-editor.png");
    // The block painted at the bottom left, none where the right button erased.
    let block = |row: i32, col: i32| {
        shot.at(
            &place,
            (FIELD_X + col * 8 + 3) as usize,
            (FIELD_Y + row * 8 + 3) as usize,
        )
    };
    assert_ne!(block(19, 0), 0, "a block");
    assert_eq!(block(19, 4), 0, "erased");

    // Enter plays it; E goes back; Esc leaves.
    xdotool(&display, &["key", "Return"]);
    let t = Instant::now();
    while game_mode(&status_path) != Some(4) {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "not in play: {}",
            stderr()
        );
        sleep(Duration::from_millis(100));
    }
    assert_eq!(
        field(&status_path, "level"),
        Some(19),
        "{}",
        status(&status_path)
    );
    sleep(Duration::from_millis(500));
    xdotool(&display, &["key", "e"]);
    sleep(Duration::from_millis(300));
    xdotool(&display, &["key", "Escape"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    let code = loop {
        if let Some(s) = game.0.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "Esc did not leave: {}", stderr());
        sleep(Duration::from_millis(50));
    };
    assert!(code.success(), "exit {code}: {}", stderr());
    let replays: Vec<_> = std::fs::read_dir(data.join("replays"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(replays.len(), 1, "{replays:?}");
    let r = Replay::load(&replays[0]).unwrap();
    let Start::Snapshot(start) = &r.start else {
        panic!("a snapshot start")
    };
    assert!(start.playfield.is_filled(19, 0) && !start.playfield.is_filled(19, 4));
    assert!(r.verify().is_ok(), "the try replays");
}

#[test]
fn the_window_plays_from_power_on() {
    require_tools();
    let dir = tempfile::tempdir().unwrap();
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let status_path = dir.path().join("status");
    let stderr_path = dir.path().join("stderr");
    let replay_dir = dir.path().join("replays");
    let (config, data) = (dir.path().join("config.toml"), dir.path().join("data"));
    // The server is bound first, so it is dropped after the program.
    let Launched {
        _xvfb,
        program: mut game,
        display,
        window,
        started,
    } = launch(
        &[
            "--hud".as_ref(),
            "--mute".as_ref(),
            "--config".as_ref(),
            config.as_os_str(),
            "--data-dir".as_ref(),
            data.as_os_str(),
            "--replay-dir".as_ref(),
            replay_dir.as_os_str(),
        ],
        &status_path,
        &stderr_path,
        Some(&dir.path().join("pacing.log")),
    );
    let stderr = || std::fs::read_to_string(&stderr_path).unwrap_or_default();
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

    // The screenshot; the window is the NES picture and the HUD beside it, at 3x.
    let shot = screenshot(&display, dir.path(), "nestris-window-xvfb.png");
    let place = placement(&display, &window, nestris_render::hud::WIDTH, 240);
    let at = |x: usize, y: usize| shot.at(&place, x, y);
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
    // The HUD panel's first box is there, right of the NES picture (the white middle
    // of its frame's left edge).
    assert_eq!(at(256 + 4, 24), 0xFCFCFC, "HUD panel frame");

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
    let times = nestris_host::pacing::PacingStats::parse_log(&pacing);
    let stats = nestris_host::pacing::PacingStats::from_times(
        &times,
        nestris_core::Region::Ntsc.frame_rate(),
    )
    .unwrap();
    // A figure, not a check: this machine is shared, so a period bound here would fail on
    // load alone (the pacer's arithmetic is tested with a fake clock in nestris-host).
    println!("window pacing under Xvfb: {stats}");
    // Every frame tick was logged once, in order, at times that never go back; the ticks
    // include those the quit question held the game still, so there are at least `frames`.
    let numbers: Vec<u32> = pacing
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(
        numbers.len() as u32 >= frames,
        "{} ticks, {frames} frames",
        numbers.len()
    );
    assert!(numbers.iter().enumerate().all(|(i, &n)| n == i as u32));
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "times go forward");
}

/// The buttons of frame `i` of the viewer test's replay: through the menus from
/// power-on, then shifts, rotations and soft drops.
fn script(i: usize) -> Buttons {
    match i {
        270..354 if (i - 270) % 21 == 0 => Buttons::START,
        0..354 => Buttons::NONE,
        _ => match i % 48 {
            0 | 2 if i % 96 < 48 => Buttons::LEFT,
            0 | 2 | 4 => Buttons::RIGHT,
            8 => Buttons::A,
            20..40 => Buttons::DOWN,
            _ => Buttons::NONE,
        },
    }
}

/// Polls the status file until `ok` holds (10 s at most).
fn wait_status(path: &Path, what: &str, ok: impl Fn(&Path) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !ok(path) {
        assert!(
            Instant::now() < deadline,
            "{what}: the status says {}",
            status(path)
        );
        sleep(Duration::from_millis(20));
    }
}

fn speed(path: &Path) -> Option<f64> {
    status(path)
        .split_whitespace()
        .find_map(|w| w.strip_prefix("speed=")?.parse().ok())
}

#[test]
fn the_replay_viewer_plays_steps_and_seeks() {
    require_tools();
    const TOTAL: u32 = 900;
    let dir = tempfile::tempdir().unwrap();
    let replay_path = dir.path().join("game.nestris");
    let mut recorder = Recorder::new(Start::PowerOn(Region::Ntsc));
    for i in 0..TOTAL as usize {
        recorder.push(script(i));
    }
    recorder.save(&replay_path).unwrap();
    let replay: Replay = recorder.replay();

    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let status_path = dir.path().join("status");
    let stderr_path = dir.path().join("stderr");
    let (config, data) = (dir.path().join("config.toml"), dir.path().join("data"));
    let Launched {
        _xvfb,
        program: mut viewer,
        display,
        window,
        ..
    } = launch(
        &[
            "--replay".as_ref(),
            replay_path.as_os_str(),
            "--hud".as_ref(),
            "--mute".as_ref(),
            "--data-dir".as_ref(),
            data.as_os_str(),
            "--config".as_ref(),
            config.as_os_str(),
        ],
        &status_path,
        &stderr_path,
        None,
    );
    xdotool(&display, &["windowfocus", "--sync", &window]);
    let frames = |p: &Path| field(p, "frames");
    let paused = |p: &Path| field(p, "paused") == Some(1);
    let key = |k: &str| {
        xdotool(&display, &["key", k]);
    };

    // It plays from the start at 1x, then Space pauses and the frame holds.
    wait_status(&status_path, "playing", |p| {
        frames(p).unwrap_or(0) > 30 && field(p, "paused") == Some(0) && speed(p) == Some(1.0)
    });
    assert_eq!(field(&status_path, "total"), Some(TOTAL));
    key("space");
    wait_status(&status_path, "Space pauses", |p| paused(p));
    let held = frames(&status_path).unwrap();
    sleep(Duration::from_millis(300));
    assert_eq!(frames(&status_path), Some(held), "paused: the frame holds");

    // End: the last frame, paused, verified against the recorded hash.
    key("End");
    wait_status(&status_path, "End", |p| {
        frames(p) == Some(TOTAL) && paused(p) && status(p).contains("verified=yes")
    });
    // Stepping back, Home, the number keys, stepping forward and back.
    for _ in 0..3 {
        key("Left");
    }
    wait_status(&status_path, "Left x3", |p| frames(p) == Some(TOTAL - 3));
    key("Home");
    wait_status(&status_path, "Home", |p| frames(p) == Some(0));
    key("5");
    wait_status(&status_path, "5 = 50%", |p| frames(p) == Some(TOTAL / 2));
    key("period");
    key("Right");
    wait_status(&status_path, ". and Right", |p| {
        frames(p) == Some(TOTAL / 2 + 2)
    });
    key("comma");
    wait_status(&status_path, ",", |p| frames(p) == Some(TOTAL / 2 + 1));
    assert!(paused(&status_path));

    // Speeds: Up twice = 4x, Down four times = 1/4x, + and - (the keys, unshifted).
    key("Up");
    key("Up");
    wait_status(&status_path, "Up x2", |p| speed(p) == Some(4.0));
    for _ in 0..4 {
        key("Down");
    }
    wait_status(&status_path, "Down x4", |p| speed(p) == Some(0.25));
    key("equal");
    wait_status(&status_path, "+", |p| speed(p) == Some(0.5));
    key("minus");
    key("minus");
    wait_status(&status_path, "- at the bottom", |p| speed(p) == Some(0.25));
    key("Up");
    key("Up");
    wait_status(&status_path, "back to 1x", |p| speed(p) == Some(1.0));

    // The mouse: a click on the bar at 75%, then a drag that ends at 40%.
    let (cw, ch) = (
        nestris_render::hud::WIDTH,
        240 + nestris_window::progress::BAR_HEIGHT,
    );
    let place = placement(&display, &window, cw, ch);
    let (x0, w) = nestris_window::progress::track(cw);
    let bar_y = 240.0 + 7.0;
    let on_bar = |f: f64| place.screen(f64::from(x0) + f * f64::from(w), bar_y);
    let near = |p: &Path, f: f64| {
        let want = f * f64::from(TOTAL);
        frames(p).is_some_and(|n| (f64::from(n) - want).abs() <= 2.0)
    };
    let (x, y) = on_bar(0.75);
    xdotool(
        &display,
        &["mousemove", &x.to_string(), &y.to_string(), "click", "1"],
    );
    wait_status(&status_path, "click at 75%", |p| near(p, 0.75));
    let (x, y) = on_bar(0.2);
    xdotool(&display, &["mousemove", &x.to_string(), &y.to_string()]);
    xdotool(&display, &["mousedown", "1"]);
    wait_status(&status_path, "press at 20%", |p| near(p, 0.2));
    for f in [0.3, 0.6, 0.4] {
        let (x, _) = on_bar(f);
        // Off the bar vertically: a drag follows x wherever the pointer is.
        xdotool(
            &display,
            &["mousemove", &x.to_string(), &(y - 100).to_string()],
        );
        sleep(Duration::from_millis(60));
    }
    xdotool(&display, &["mouseup", "1"]);
    wait_status(&status_path, "drag to 40%", |p| near(p, 0.4));
    assert!(paused(&status_path), "seeking keeps the pause");

    // 7 = 70%: in play. The screenshot must show exactly the renderer's picture of
    // that frame, the HUD beside it and the bar under it.
    key("7");
    let shown = TOTAL * 7 / 10;
    wait_status(&status_path, "7 = 70%", |p| frames(p) == Some(shown));
    sleep(Duration::from_millis(200));
    let shot = screenshot(&display, dir.path(), "nestris-window-replay-viewer.png");
    let mut game = replay.start.game();
    let mut tally = nestris_render::hud::Tally::default();
    for &b in &replay.inputs[..shown as usize] {
        let ev = game.step(b);
        tally.observe(&ev, game.state());
    }
    assert_eq!(
        game.state().mode(),
        nestris_core::GameMode::Play,
        "frame {shown} is in play"
    );
    let mut reference = Frame::with_size(nestris_render::hud::WIDTH, 240);
    nestris_render::hud::draw(&game, &tally, &mut reference, Default::default());
    let mut differ = 0;
    for y in 0..240 {
        for x in 0..reference.width() {
            if shot.at(&place, x, y) != reference.pixel(x, y) {
                differ += 1;
            }
        }
    }
    assert_eq!(
        differ, 0,
        "pixels unlike the renderer's frame {shown} with its HUD"
    );
    let track_at = |f: f64| shot.at(&place, (f64::from(x0) + f * f64::from(w)) as usize, 240 + 6);
    assert_eq!(track_at(0.5), nestris_window::progress::FILLED, "played");
    assert_eq!(track_at(0.9), nestris_window::progress::TRACK, "to come");
    let verified_mark = (240 + 14..240 + 21)
        .any(|y| (250..cw).any(|x| shot.at(&place, x, y) == nestris_window::progress::GOOD));
    assert!(verified_mark, "\"VERIFIED\" in green on the bar");

    // Space plays on; Esc closes.
    key("space");
    wait_status(&status_path, "Space resumes", |p| {
        frames(p).is_some_and(|n| n > shown + 10)
    });
    key("Escape");
    let deadline = Instant::now() + Duration::from_secs(10);
    let code = loop {
        if let Some(s) = viewer.0.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the viewer did not close");
        sleep(Duration::from_millis(50));
    };
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    assert!(code.success(), "exit {code}: {stderr}");
    assert!(status(&status_path).ends_with("exited\n"));
    // Nothing was written besides the status: no config, no data, no replay.
    assert!(!dir.path().join("config.toml").exists());
    assert!(!dir.path().join("data").exists());
}

/// An AI player: its plan for each piece, one frame at a time (`interval`: frames between
/// taps).
fn ai_player(interval: u8) -> impl FnMut(&Game) -> Buttons {
    use nestris_ai::{Ai, InputModel, Weights};
    let mut ai = Ai::new(Weights::default(), InputModel::tapping(interval));
    let mut plan: Vec<Buttons> = Vec::new();
    move |g: &Game| {
        if plan.is_empty() && g.state().piece_in_control() {
            plan = ai.plan(g);
            plan.reverse();
        }
        plan.pop().unwrap_or(Buttons::NONE)
    }
}

/// A versus match at level 18 on seed 2A11C5: the AI at 30 Hz against the AI at 15 Hz
/// for 3,000 frames each, player 2 dropping its first pieces where they spawn (so the
/// two boards differ).
fn docs_versus_match(path: &Path) {
    use nestris_versus::{Match, MatchSetup};
    let setup = MatchSetup {
        region: Region::Ntsc,
        level: 18,
        seed: 0x2A11C5,
        best_of: 3,
    };
    let mut m = Match::new(setup);
    let mut inputs = [Vec::new(), Vec::new()];
    let mut players = [ai_player(2), ai_player(4)];
    for f in 0..3_000 {
        for (p, play) in players.iter_mut().enumerate() {
            let b = if p == 1 && f < 90 {
                Buttons::DOWN
            } else {
                play(&m.sides[p].game)
            };
            let i = m.input_for(p, b, false);
            m.apply(p, i);
            inputs[p].push(i);
        }
    }
    nestris_versus::file::VersusReplay::of(&m, inputs)
        .save(path)
        .unwrap();
}

/// A replay of the AI (15 Hz) playing `frames` frames from `start`.
fn docs_ai_replay(path: &Path, start: Start, frames: usize) {
    let mut recorder = Recorder::new(start.clone());
    let mut game = Recorder::new(start).replay().game();
    let mut play = ai_player(4);
    for _ in 0..frames {
        let b = play(&game);
        game.step(b);
        recorder.push(b);
    }
    recorder.save(path).unwrap();
}

/// Shows `file` in the viewer (with `extra` flags) at its last frame and returns the
/// window's content (`width` x 240 + the bar) as the screen shows it, at 1x.
fn viewer_at_end(file: &Path, extra: &[&str], width: usize, seek_half: bool) -> Frame {
    let dir = tempfile::tempdir().unwrap();
    let status_path = dir.path().join("status");
    let stderr_path = dir.path().join("stderr");
    let mut args: Vec<&std::ffi::OsStr> = vec!["--replay".as_ref(), file.as_os_str()];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    args.extend([
        "--mute".as_ref(),
        "--data-dir".as_ref(),
        dir.path().as_os_str(),
    ]);
    let Launched {
        _xvfb,
        program: mut viewer,
        display,
        window,
        ..
    } = launch(&args, &status_path, &stderr_path, None);
    xdotool(&display, &["windowfocus", "--sync", &window]);
    let frames = |p: &Path| field(p, "frames");
    wait_status(&status_path, "playing", |p| frames(p).unwrap_or(0) > 10);
    let total = field(&status_path, "total").unwrap();
    if seek_half {
        xdotool(&display, &["key", "space"]);
        wait_status(&status_path, "Space pauses", |p| {
            field(p, "paused") == Some(1)
        });
        xdotool(&display, &["key", "5"]);
        wait_status(&status_path, "5 = 50%", |p| frames(p) == Some(total / 2));
    }
    xdotool(&display, &["key", "End"]);
    wait_status(&status_path, "End", |p| {
        frames(p) == Some(total)
            && field(p, "paused") == Some(1)
            && status(p).contains("verified=yes")
    });
    sleep(Duration::from_millis(300));
    let height = 240 + nestris_window::progress::BAR_HEIGHT;
    let place = placement(&display, &window, width, height);
    let name = format!("docs-{}.png", file.file_stem().unwrap().to_string_lossy());
    let shot = screenshot(&display, dir.path(), &name);
    let mut content = Frame::with_size(width, height);
    for y in 0..height {
        for x in 0..width {
            content.set(x as i32, y as i32, shot.at(&place, x, y));
        }
    }
    xdotool(&display, &["key", "Escape"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while viewer.0.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the viewer did not close");
        sleep(Duration::from_millis(50));
    }
    content
}

/// Compares `got` with the committed `docs/NAME`, or writes it when blessing.
fn check_docs_picture(name: &str, got: &Frame) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs")
        .join(name);
    if std::env::var_os("NESTRIS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, nestris_render::encode_png(got)).unwrap();
        println!("blessed {}", path.display());
        return;
    }
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (NESTRIS_BLESS=1 writes it)", path.display()));
    let want = nestris_render::decode_png(&bytes).unwrap();
    assert_eq!(
        (want.width(), want.height()),
        (got.width(), got.height()),
        "docs/{name}: the picture's size"
    );
    let differ = (0..got.height())
        .flat_map(|y| (0..got.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| want.pixel(x, y) != got.pixel(x, y))
        .count();
    if differ > 0 {
        let actual = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        std::fs::write(&actual, nestris_render::encode_png(got)).unwrap();
        panic!(
            "docs/{name}: {differ} pixels differ from the window under Xvfb (captured: {})",
            actual.display()
        );
    }
}

#[test]
fn the_docs_pictures_are_the_window_under_xvfb() {
    use nestris_core::trainer::Trainer;
    use nestris_core::{GymSeed, SeedRule, Variant};
    require_tools();
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());

    // The games shown are committed files, so that the pictures change only with the
    // engine, the renderer and the window (blessing plays them again with the AI).
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/docs");
    let bless = std::env::var_os("NESTRIS_BLESS").is_some_and(|v| v == "1");

    // Versus: a recorded match in the viewer, both fields and the scoreboard; seeking to
    // the middle and then to the end shows it frame-exact.
    let versus = fixtures.join("versus.nestrisvs");
    if bless {
        docs_versus_match(&versus);
    }
    let width = nestris_render::versus::VERSUS_WIDTH;
    let got = viewer_at_end(&versus, &[], width, true);
    // The picture above the bar is the renderer's versus picture of the match's end.
    let m = nestris_versus::file::VersusReplay::load(&versus)
        .unwrap()
        .verify()
        .unwrap();
    let board = nestris_render::versus::Scoreboard {
        best_of: m.setup.best_of,
        wins: m.wins,
        game: 0,
        tetris_rates: [
            m.sides[0].stats.tetris_rate(),
            m.sides[1].stats.tetris_rate(),
        ],
        seed: Some(m.setup.seed),
        names: ["PLAYER 1", "PLAYER 2"],
        message: None,
    };
    let mut want = vec![0; width * 240];
    nestris_render::versus::draw_versus(
        [&m.sides[0].game, &m.sides[1].game],
        &board,
        nestris_render::LevelColours::Classic,
        &mut Frame::new(),
        &mut want,
    );
    let differ = (0..240)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .filter(|&(x, y)| got.pixel(x, y) != want[y * width + x])
        .count();
    assert_eq!(differ, 0, "the versus window is the renderer's picture");
    check_docs_picture("xvfb-versus.png", &got);

    // The HUD: the AI's seeded game at level 18, 6,000 frames in.
    let hud = fixtures.join("hud.nestris");
    let setup = GameSetup {
        level: 18,
        variant: Variant {
            seed: GymSeed::new(0x2A11C5, SeedRule::V5),
            ..Variant::CARTRIDGE
        },
        ..GameSetup::default()
    };
    if bless {
        docs_ai_replay(&hud, Start::Setup(setup), 6_000);
    }
    let got = viewer_at_end(&hud, &["--hud"], nestris_render::hud::WIDTH, false);
    check_docs_picture("xvfb-hud.png", &got);

    // A trainer: tetris-ready at level 18, the AI 150 frames in (the stack still ready).
    let trainer = fixtures.join("trainer.nestris");
    if bless {
        let game = Trainer::TetrisReady.game(Region::Ntsc, 18, 0);
        docs_ai_replay(&trainer, Start::Snapshot(Box::new(game.snapshot())), 150);
    }
    let got = viewer_at_end(&trainer, &[], 256, false);
    check_docs_picture("xvfb-trainer.png", &got);
}

#[test]
fn the_tap_test_counts_taps_on_its_screen() {
    use nestris_core::tap_test::TapTest;
    require_tools();
    let dir = tempfile::tempdir().unwrap();
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let config = dir.path().join("config.toml");
    let Launched {
        _xvfb,
        program: mut test,
        display,
        window,
        ..
    } = launch(
        &[
            "--tap-test".as_ref(),
            "--mute".as_ref(),
            "--config".as_ref(),
            config.as_os_str(),
        ],
        &dir.path().join("status"),
        &dir.path().join("stderr"),
        None,
    );
    xdotool(&display, &["windowfocus", "--sync", &window]);
    sleep(Duration::from_millis(500));
    let (w, h) = (nestris_render::WIDTH, nestris_render::HEIGHT);
    let p = placement(&display, &window, w, h);
    // The test as it stands after some frames without a tap: its piece out.
    let mut idle = TapTest::new(Region::Ntsc);
    for _ in 0..10 {
        idle.step(Buttons::NONE);
    }
    let mut fresh = Frame::new();
    nestris_render::tap_test::draw(&idle, &mut fresh);
    let shot = screenshot(&display, dir.path(), "tap_test_fresh.png");
    let differing = |shot: &Shot, rows: std::ops::Range<usize>| {
        rows.flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| shot.at(&p, x, y) != fresh.pixel(x, y))
            .count()
    };
    assert_eq!(differing(&shot, 0..h), 0, "the fresh test's screen");

    // Five taps of Left, a tenth of a second apart: the numbers change, the rest does not.
    for _ in 0..5 {
        xdotool(&display, &["key", "Left"]);
        sleep(Duration::from_millis(100));
    }
    sleep(Duration::from_millis(300));
    let shot = screenshot(&display, dir.path(), "tap_test_tapped.png");
    assert_eq!(differing(&shot, 0..5 * 8), 0, "the title");
    assert_eq!(differing(&shot, 25 * 8..h), 0, "the hint");
    // TAPS (row 9) and the first tap (row 11) are counted.
    assert!(differing(&shot, 9 * 8..10 * 8) > 0, "TAPS still shows 0");
    assert!(differing(&shot, 11 * 8..12 * 8) > 0, "no first tap");
    xdotool(&display, &["key", "Escape"]);
    let t = Instant::now();
    while test.0.try_wait().unwrap().is_none() {
        assert!(t.elapsed() < Duration::from_secs(10), "Esc did not quit");
        sleep(Duration::from_millis(100));
    }
}

/// The window's size, from xdotool.
fn window_size(display: &str, window: &str) -> Option<(usize, usize)> {
    let geometry = xdotool(display, &["getwindowgeometry", window]);
    let line = geometry.lines().find(|l| l.contains("Geometry"))?;
    let (w, h) = line.split(':').nth(1)?.trim().split_once('x')?;
    Some((w.parse().ok()?, h.parse().ok()?))
}

/// Waits until the window is `size` (10 s at most).
fn wait_size(display: &str, window: &str, size: (usize, usize)) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while window_size(display, window) != Some(size) {
        assert!(
            Instant::now() < deadline,
            "the window stays {:?}, not {size:?}",
            window_size(display, window)
        );
        sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_title_screen_opens_versus_in_the_same_window_and_hosts_a_network_match() {
    use nestris_render::versus::VERSUS_WIDTH;
    use nestris_versus::{Input, MatchSetup};
    use nestris_window::network::NetRole;
    use nestris_window::versus_setup::VersusSetup;

    require_tools();
    let dir = tempfile::tempdir().unwrap();
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let status_path = dir.path().join("status");
    let stderr_path = dir.path().join("stderr");
    let replay_dir = dir.path().join("replays");
    let (config, data) = (dir.path().join("config.toml"), dir.path().join("data"));
    let Launched {
        _xvfb,
        program: mut game,
        display,
        window,
        started,
    } = launch(
        &[
            "--mute".as_ref(),
            "--config".as_ref(),
            config.as_os_str(),
            "--data-dir".as_ref(),
            data.as_os_str(),
            "--replay-dir".as_ref(),
            replay_dir.as_os_str(),
        ],
        &status_path,
        &stderr_path,
        None,
    );
    let stderr = || std::fs::read_to_string(&stderr_path).unwrap_or_default();
    xdotool(&display, &["windowfocus", "--sync", &window]);
    let key = |k: &str| {
        xdotool(&display, &["key", k]);
        sleep(Duration::from_millis(150));
    };

    // Through the legal screen to the title (game mode 1), which names the versus key.
    sleep(Duration::from_millis(4_600).saturating_sub(started.elapsed()));
    while game_mode(&status_path) != Some(1) {
        assert!(
            started.elapsed() < Duration::from_secs(40),
            "not on the title: {} / {}",
            status(&status_path),
            stderr()
        );
        key("Return");
        sleep(Duration::from_millis(450));
    }
    sleep(Duration::from_millis(300));
    let shot = screenshot(&display, dir.path(), "nestris-window-title-versus-key.png");
    let place = placement(&display, &window, 256, 240);
    // The hint's plate: white letters on black, in the bottom right corner.
    let plate: Vec<u32> = (226..237)
        .flat_map(|y| (192..244).map(move |x| (x, y)))
        .map(|(x, y)| shot.at(&place, x, y))
        .collect();
    let white = plate.iter().filter(|&&c| c == 0xFCFCFC).count();
    let black = plate.iter().filter(|&&c| c == 0).count();
    assert!(
        white > 30 && black > 250 && white + black == plate.len(),
        "no V: VERSUS plate ({white} white, {black} black of {})",
        plate.len()
    );

    // V: the versus setup screen, in the same window, now as wide as the versus picture.
    key("v");
    wait_size(&display, &window, (VERSUS_WIDTH * 3, 720));
    // Left twice from 2ND PLAYER is NETWORK HOST (with or without a ghost on offer),
    // Down its port, X (A) opens the entry; a free port is typed and Enter keeps it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    for k in ["Left", "Left", "Down", "x"] {
        key(k);
    }
    for _ in 0..5 {
        key("BackSpace");
    }
    xdotool(&display, &["type", "--delay", "120", &port.to_string()]);
    key("Return");
    // Enter again plays: the screen waits for a guest.
    key("Return");
    sleep(Duration::from_millis(300));
    let shot = screenshot(&display, dir.path(), "nestris-window-versus-waiting.png");

    // The guest joins from here: the match is the window's, level 18, best of 3.
    let (mut link, theirs) = nestris_versus::net::join(&format!("127.0.0.1:{port}"))
        .unwrap_or_else(|e| panic!("joining the window: {e} / {}", stderr()));
    assert_eq!((theirs.level, theirs.best_of), (18, 3));

    // The waiting screen was the setup screen's own picture, pixel for pixel.
    let mut setup = VersusSetup::new(
        MatchSetup {
            region: nestris_core::Region::Ntsc,
            level: 18,
            seed: theirs.seed,
            best_of: 3,
        },
        Vec::new(),
        Buttons::NONE,
    );
    for b in [Buttons::LEFT, Buttons::LEFT, Buttons::DOWN, Buttons::A] {
        setup.buttons(b);
        setup.buttons(Buttons::NONE);
    }
    (0..5).for_each(|_| setup.backspace());
    port.to_string().chars().for_each(|c| setup.type_char(c));
    setup.buttons(Buttons::START);
    setup.buttons(Buttons::NONE);
    setup.set_waiting(Some(NetRole::Host(port).waiting_lines()));
    let mut want = Frame::with_size(VERSUS_WIDTH, 240);
    setup.draw(&mut want);
    let place = placement(&display, &window, VERSUS_WIDTH, 240);
    let differ = (0..240)
        .flat_map(|y| (0..VERSUS_WIDTH).map(move |x| (x, y)))
        .filter(|&(x, y)| shot.at(&place, x, y) != want.pixel(x, y))
        .count();
    assert_eq!(
        differ, 0,
        "the waiting screen is the setup screen's picture"
    );

    // The guest plays 300 frames and leaves; the window shows them as they arrive.
    let sent: Vec<Input> = (0..300u32)
        .map(|f| Input {
            buttons: match f % 9 {
                0..3 => Buttons::DOWN,
                5 => Buttons::LEFT,
                _ => Buttons::NONE,
            },
            game: 0,
        })
        .collect();
    for chunk in sent.chunks(30) {
        for &i in chunk {
            link.send(i).unwrap();
        }
        link.flush().unwrap();
        sleep(Duration::from_millis(50));
    }
    link.bye().unwrap();
    sleep(Duration::from_millis(500));
    screenshot(&display, dir.path(), "nestris-window-versus-network.png");

    // Esc leaves versus for the title screen, in the game's own size; the match is saved
    // holding the guest's game as it was sent.
    key("Escape");
    wait_size(&display, &window, (256 * 3, 720));
    assert!(game.0.try_wait().unwrap().is_none(), "Esc left versus only");
    let matches: Vec<PathBuf> = std::fs::read_dir(&replay_dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with("-versus.nestrisvs"))
        .collect();
    assert_eq!(matches.len(), 1, "{}", stderr());
    let m = nestris_versus::file::VersusReplay::load(&matches[0]).unwrap();
    assert_eq!(m.setup, theirs);
    assert_eq!(m.inputs[1], sent, "the guest's true game");
    assert!(!m.inputs[0].is_empty(), "the host played too");
    m.verify().expect("the match replays");

    // And Esc on the title quits.
    key("Escape");
    let deadline = Instant::now() + Duration::from_secs(10);
    let code = loop {
        if let Some(s) = game.0.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the game did not quit");
        sleep(Duration::from_millis(50));
    };
    assert!(code.success(), "exit {code}: {}", stderr());
    assert!(stderr().contains("the match: "), "{}", stderr());
}
