//! The replay viewer: a replay played back in the window at the console's frame rate,
//! with the game's own picture, HUD and sound, a progress bar under the picture and
//! keys to pause, step, change speed and seek.
//!
//! Keys: Space = pause / resume (at the end: play again from the start); Right or `.`
//! = one frame forward, Left or `,` = one frame back (both pause first, and repeat
//! while held); Up / Down or `+` / `-` = speed 1/4x, 1/2x, 1x, 2x, 4x, 8x; Home / End
//! = first / last frame; 1-9 = 10% ... 90%; M = sound on/off; F11 = fullscreen;
//! Esc or Q = close. Clicking or dragging on the bar seeks. At the last frame play
//! stops, and the bar shows whether the final state's hash is the one the replay
//! recorded ("VERIFIED ✓" or "VERIFIED ✗").
//!
//! A versus match (`.nestrisvs`, [`play_versus_replay`]) shows as the versus window
//! does: both fields side by side with the scoreboard, with the same keys and bar.
//!
//! The frame logic lives in [`crate::playback`] and the bar in [`crate::progress`];
//! this module is the window around them.

use nestris_render::LevelColours;
use std::time::{Duration, Instant};

use crate::error::WindowError;
use nestris_core::{DemoData, Region};
use nestris_render::versus::VERSUS_WIDTH;
use nestris_render::{Frame, HEIGHT, WIDTH};
use nestris_replay::{DemoSource, Replay};
use nestris_versus::file::VersusReplay;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::WindowId;

use crate::audio::Audio;
use crate::canvas::Canvas;
use crate::config::Config;
use crate::hud;
use crate::music::MusicFollower;
use crate::playback::Playback;
use crate::progress;
use crate::screen::{without_source_location, Screen};
use crate::status::StatusFile;
use nestris_host::pacing::{FramePacer, MAX_CATCH_UP};

/// The notice shown when a replay needs the cartridge's demo tables and none were given.
pub const NO_CARTRIDGE_DEMO: &str = "NO ROM GIVEN: BUILT-IN DEMO USED INSTEAD";

/// Display frames a message such as "SOUND OFF" stays on screen.
const TOAST_TICKS: u32 = 90;

/// While playing, the status file is rewritten at most this often.
const STATUS_INTERVAL: Duration = Duration::from_millis(200);

/// How the replay viewer shows a replay (the region is the replay's own).
#[derive(Debug)]
pub struct ReplayViewerOptions {
    /// The window's starting size as a multiple of the picture (1..=8).
    pub scale: u32,
    /// Show the HUD beside the NES picture, as in play.
    pub hud: bool,
    /// The cartridge's demo tables (from the user's ROM image), for replays recorded
    /// with them; without them such a replay plays with the built-in demo, and a
    /// one-line notice says so.
    pub rom_demo: Option<DemoData>,
    /// Start with the sound off (M toggles it).
    pub mute: bool,
    /// The blocks' colours (default: the cartridge's).
    pub colours: LevelColours,
}

impl Default for ReplayViewerOptions {
    /// 3x, no HUD, no cartridge demo, sound on.
    fn default() -> Self {
        ReplayViewerOptions {
            scale: 3,
            hud: false,
            rom_demo: None,
            mute: false,
            colours: LevelColours::Classic,
        }
    }
}

/// The demo tables to step a replay with, and the notice to show if the ones it needs
/// are missing.
pub fn demo_for(
    source: DemoSource,
    rom_demo: Option<DemoData>,
) -> (DemoData, Option<&'static str>) {
    match (source, rom_demo) {
        (DemoSource::Builtin, _) => (DemoData::BUILTIN, None),
        (DemoSource::Cartridge, Some(d)) => (d, None),
        (DemoSource::Cartridge, None) => (DemoData::BUILTIN, Some(NO_CARTRIDGE_DEMO)),
    }
}

/// Shows `replay` in a window until the viewer is closed (Esc, Q or the window's close
/// button). It starts playing at once, at the replay's own region's frame rate.
///
/// Errors (each one line): no display ("no display available: ..."), a window that
/// cannot be drawn to. No sound device is not an error. Must be called on the main
/// thread, once per process (winit's event loop cannot be made twice).
///
/// With `NESTRIS_STATUS_FILE` set, that file holds one line about the shown frame:
/// `game_mode=4 play_state=1 level=0 lines=0 score=0 frames=N total=T speed=1
/// paused=0 verified=pending` (`verified` becomes `yes`, `no` or `unknown` once the
/// end has been reached), and `exited` is added when the viewer closes.
pub fn play_replay(replay: Replay, mut options: ReplayViewerOptions) -> crate::error::Result<()> {
    let region = replay.start.region();
    let (demo, notice) = demo_for(replay.demo, options.rom_demo.take());
    if notice.is_some() {
        eprintln!(
            "nestris: this replay was recorded with the cartridge's demo and no ROM image was \
             given (--rom): playing it with the built-in demo instead"
        );
    }
    let playback = Playback::new(replay, demo, options.hud);
    run_viewer(Viewer::new(playback, notice, region), options)
}

/// Shows a versus match (a `.nestrisvs` file) in a window as [`play_replay`] shows a
/// replay: both fields and the scoreboard, with the same keys, bar and status file.
pub fn play_versus_replay(
    replay: VersusReplay,
    options: ReplayViewerOptions,
) -> crate::error::Result<()> {
    let region = replay.setup.region;
    let mut viewer = Viewer::new(Playback::versus(replay), None, region);
    viewer.title = format!("nestris versus replay ({})", console(region));
    run_viewer(viewer, options)
}

/// Runs `viewer` in a window until it is closed.
fn run_viewer(mut viewer: Viewer, options: ReplayViewerOptions) -> crate::error::Result<()> {
    let event_loop =
        EventLoop::new().map_err(|e| WindowError::NoDisplay(without_source_location(&e)))?;
    viewer.scale = options.scale.clamp(1, 8);
    viewer.colours = options.colours;
    viewer.audio = Some(Audio::start(Config::default().levels(), options.mute));
    viewer.status = StatusFile::from_env();
    let result = event_loop.run_app(&mut viewer);
    viewer.finish();
    if let Some(e) = viewer.error {
        return Err(e);
    }
    result.map_err(|e| WindowError::EventLoop(e.to_string()))
}

/// What a key does in the viewer.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Action {
    TogglePause,
    StepForward,
    StepBack,
    Faster,
    Slower,
    Home,
    End,
    Seek(f64),
    Mute,
    Fullscreen,
    Quit,
}

/// The viewer's key map; `repeat` is true for the OS's auto-repeat (only the steps
/// repeat).
fn action(key: KeyCode, repeat: bool) -> Option<Action> {
    use KeyCode as K;
    let a = match key {
        K::ArrowRight | K::Period => Action::StepForward,
        K::ArrowLeft | K::Comma => Action::StepBack,
        _ if repeat => return None,
        K::Space => Action::TogglePause,
        K::ArrowUp | K::Equal | K::NumpadAdd => Action::Faster,
        K::ArrowDown | K::Minus | K::NumpadSubtract => Action::Slower,
        K::Home => Action::Home,
        K::End => Action::End,
        K::Digit1 | K::Numpad1 => Action::Seek(0.1),
        K::Digit2 | K::Numpad2 => Action::Seek(0.2),
        K::Digit3 | K::Numpad3 => Action::Seek(0.3),
        K::Digit4 | K::Numpad4 => Action::Seek(0.4),
        K::Digit5 | K::Numpad5 => Action::Seek(0.5),
        K::Digit6 | K::Numpad6 => Action::Seek(0.6),
        K::Digit7 | K::Numpad7 => Action::Seek(0.7),
        K::Digit8 | K::Numpad8 => Action::Seek(0.8),
        K::Digit9 | K::Numpad9 => Action::Seek(0.9),
        K::KeyM => Action::Mute,
        K::F11 => Action::Fullscreen,
        K::Escape | K::KeyQ => Action::Quit,
        _ => return None,
    };
    Some(a)
}

fn console(region: Region) -> &'static str {
    match region {
        Region::Ntsc => "NTSC",
        Region::Pal => "PAL",
    }
}

/// The window's title: the console, and the rules where they are not the cartridge's.
fn title(region: Region, variant: &nestris_core::Variant) -> String {
    let console = console(region);
    if variant.is_cartridge() {
        format!("nestris replay ({console})")
    } else {
        format!("nestris replay ({console}, variant: {})", variant.label())
    }
}

/// The viewer's status line.
fn status_line(p: &Playback) -> String {
    let line = StatusFile::line(p.game().state(), p.frame() as u64);
    format!(
        "{} total={} speed={} paused={} verified={}\n",
        line.trim_end(),
        p.total(),
        p.speed().factor(),
        u8::from(p.paused()),
        p.verdict().map_or("pending", |v| v.word()),
    )
}

/// The viewer: the playback, its picture and the window.
struct Viewer {
    playback: Playback,
    notice: Option<&'static str>,
    picture: Canvas,
    canvas: Canvas,
    frame: Frame,
    audio: Option<Audio>,
    music: MusicFollower,
    rate: f64,
    pacer: Option<FramePacer>,
    screen: Option<Screen>,
    scale: u32,
    title: String,
    toast: Option<(String, u32)>,
    cursor: Option<(f64, f64)>,
    dragging: bool,
    dirty: bool,
    status: Option<StatusFile>,
    status_written: Option<Instant>,
    error: Option<WindowError>,
    colours: LevelColours,
    done: bool,
}

impl Viewer {
    fn new(playback: Playback, notice: Option<&'static str>, region: Region) -> Viewer {
        let variant = playback.game().state().variant;
        let width = if playback.versus_match().is_some() {
            VERSUS_WIDTH
        } else {
            WIDTH
                + if playback.hud().is_some() {
                    hud::PANEL_WIDTH
                } else {
                    0
                }
        };
        Viewer {
            picture: Canvas::new(width, HEIGHT),
            canvas: Canvas::new(width, HEIGHT + progress::height(notice.is_some())),
            frame: hud::frame(playback.hud().is_some()),
            playback,
            notice,
            audio: None,
            music: MusicFollower::default(),
            rate: region.frame_rate(),
            pacer: None,
            screen: None,
            scale: 3,
            title: title(region, &variant),
            toast: None,
            cursor: None,
            dragging: false,
            dirty: true,
            status: None,
            status_written: None,
            error: None,
            done: false,
            colours: LevelColours::Classic,
        }
    }

    /// Composes the picture: the game (and HUD) as in play, the bar under it.
    fn draw(&mut self) {
        let p = &self.playback;
        if let Some(m) = p.versus_match() {
            let game = m.sides[0].game_no.max(m.sides[1].game_no);
            crate::versus::draw_match(
                m,
                game,
                ["PLAYER 1", "PLAYER 2"],
                crate::versus::verdict_line(m),
                self.colours,
                &mut self.frame,
                &mut self.picture,
            );
        } else {
            nestris_render::draw_with(p.game(), &mut self.frame, self.colours);
            if let Some(h) = p.hud() {
                hud::draw(&mut self.frame, h, p.game().state());
            }
            self.picture.blit_frame(&self.frame);
            hud::draw_crash_marker(&mut self.picture, p.game(), None);
        }
        self.canvas.blit(&self.picture, 0, 0);
        progress::draw(&mut self.canvas, HEIGHT as i32, p, self.notice);
        if let Some((text, _)) = &self.toast {
            let w = crate::font::width(text, 1);
            self.canvas
                .fill_rect(4, 4, w + 6, crate::font::H + 6, 0x000000);
            self.canvas.text(7, 7, text, 0xFCFCFC, 1);
        }
    }

    fn play_sounds(&self, sounds: Vec<crate::sfx::Sfx>) {
        if let Some(audio) = &self.audio {
            for s in sounds {
                audio.play(s);
            }
        }
    }

    /// Tells the sound thread the music of the frame shown, held while the viewer is
    /// paused or the bar is being dragged.
    fn follow_music(&mut self) {
        let held = self.playback.paused() || self.dragging;
        let now = crate::music::viewed(self.playback.game().state().music(), held);
        if let (Some(c), Some(audio)) = (self.music.follow(now), &self.audio) {
            audio.music(c);
        }
    }

    fn act(&mut self, event_loop: &ActiveEventLoop, a: Action) {
        if matches!(
            a,
            Action::StepBack | Action::Home | Action::End | Action::Seek(_)
        ) {
            // A jump: the tune starts again from the new frame.
            self.music.restart();
        }
        let p = &mut self.playback;
        match a {
            Action::TogglePause => p.toggle_pause(),
            Action::StepForward => {
                let sounds = p.step_forward();
                self.play_sounds(sounds);
            }
            Action::StepBack => p.step_back(),
            Action::Faster => p.faster(),
            Action::Slower => p.slower(),
            Action::Home => p.seek(0),
            Action::End => p.seek(p.total()),
            Action::Seek(f) => p.seek_fraction(f),
            Action::Mute => {
                if let Some(audio) = &self.audio {
                    let muted = !audio.is_muted();
                    audio.set_muted(muted);
                    let text = if muted { "SOUND OFF" } else { "SOUND ON" };
                    self.toast = Some((text.to_string(), TOAST_TICKS));
                }
            }
            Action::Fullscreen => {
                if let Some(screen) = &self.screen {
                    screen.toggle_fullscreen();
                }
            }
            Action::Quit => self.quit(event_loop),
        }
        self.dirty = true;
    }

    /// Seeks to the frame under the cursor's x (wherever the cursor is vertically).
    fn seek_to_cursor(&mut self) {
        let (Some(screen), Some((x, y))) = (&self.screen, self.cursor) else {
            return;
        };
        if let Some((cx, _)) = screen.to_canvas(&self.canvas, x, y) {
            let f = progress::fraction_at(self.canvas.width, cx);
            self.playback.seek_fraction(f);
            self.music.restart();
            self.dirty = true;
        }
    }

    /// True if the cursor is over the bar.
    fn cursor_on_bar(&self) -> bool {
        let (Some(screen), Some((x, y))) = (&self.screen, self.cursor) else {
            return false;
        };
        screen
            .to_canvas(&self.canvas, x, y)
            .is_some_and(|(cx, cy)| {
                cy >= HEIGHT as f64
                    && cy < self.canvas.height as f64
                    && cx >= 0.0
                    && cx < self.canvas.width as f64
            })
    }

    /// Runs the display frames that are due; true if any ran.
    fn run_due_ticks(&mut self) -> bool {
        if self.screen.is_none() {
            return false;
        }
        let rate = self.rate;
        self.pacer
            .get_or_insert_with(|| FramePacer::new(Instant::now(), rate));
        let mut ran = 0;
        while ran < MAX_CATCH_UP
            && self
                .pacer
                .as_ref()
                .is_some_and(|p| p.is_due(Instant::now()))
        {
            // Dragging on the bar holds play where the cursor is.
            if !self.dragging {
                let before = (self.playback.frame(), self.playback.paused());
                let sounds = self.playback.tick();
                if (self.playback.frame(), self.playback.paused()) != before {
                    self.dirty = true;
                }
                if let Some(audio) = &self.audio {
                    for s in sounds {
                        audio.play(s);
                    }
                }
            }
            self.follow_music();
            if let Some((_, left)) = &mut self.toast {
                *left = left.saturating_sub(1);
                if *left == 0 {
                    self.toast = None;
                    self.dirty = true;
                }
            }
            if let Some(p) = &mut self.pacer {
                p.advance(Instant::now());
            }
            ran += 1;
        }
        ran > 0
    }

    /// Rewrites the status file when it changed (while playing, at most every
    /// [`STATUS_INTERVAL`]).
    fn update_status(&mut self, now: Instant) {
        let Some(st) = &mut self.status else {
            return;
        };
        let due = self.playback.paused()
            || self
                .status_written
                .is_none_or(|t| now.duration_since(t) >= STATUS_INTERVAL);
        if due {
            st.set(&status_line(&self.playback));
            self.status_written = Some(now);
        }
    }

    fn present(&mut self) -> crate::error::Result<()> {
        if self.screen.is_none() {
            return Ok(());
        }
        self.draw();
        match &mut self.screen {
            Some(screen) => screen.present(&self.canvas),
            None => Ok(()),
        }
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, e: WindowError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
        self.quit(event_loop);
    }

    fn quit(&mut self, event_loop: &ActiveEventLoop) {
        self.finish();
        event_loop.exit();
    }

    /// Notes the end in the status file; safe to call more than once.
    fn finish(&mut self) {
        if self.done {
            return;
        }
        self.done = true;
        if let Some(st) = &mut self.status {
            st.set(&format!("{}exited\n", status_line(&self.playback)));
        }
    }
}

impl ApplicationHandler for Viewer {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.screen.is_some() {
            return;
        }
        match Screen::open(
            event_loop,
            &self.title,
            (self.canvas.width, self.canvas.height),
            self.scale,
            false,
        ) {
            Ok(s) => self.screen = Some(s),
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => self.quit(event_loop),
            WindowEvent::Resized(_) | WindowEvent::RedrawRequested => {
                if let Err(e) = self.present() {
                    self.fail(event_loop, e);
                }
            }
            WindowEvent::KeyboardInput {
                event,
                is_synthetic,
                ..
            } => {
                if event.state != ElementState::Pressed || is_synthetic {
                    return;
                }
                if let PhysicalKey::Code(code) = event.physical_key {
                    if let Some(a) = action(code, event.repeat) {
                        self.act(event_loop, a);
                    }
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                self.cursor = Some((position.x, position.y));
                if self.dragging {
                    self.seek_to_cursor();
                }
            }
            WindowEvent::CursorLeft { .. } if !self.dragging => self.cursor = None,
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Left,
                ..
            } => match state {
                ElementState::Pressed if self.cursor_on_bar() => {
                    self.dragging = true;
                    self.seek_to_cursor();
                }
                ElementState::Released if self.dragging => {
                    self.dragging = false;
                    self.dirty = true;
                }
                _ => {}
            },
            WindowEvent::Focused(false) => self.dragging = false,
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.done {
            return;
        }
        self.run_due_ticks();
        self.update_status(Instant::now());
        if self.dirty && self.screen.is_some() {
            self.dirty = false;
            if let Err(e) = self.present() {
                self.fail(event_loop, e);
                return;
            }
        }
        if let Some(p) = &self.pacer {
            event_loop.set_control_flow(ControlFlow::WaitUntil(p.deadline()));
        }
    }

    fn exiting(&mut self, _: &ActiveEventLoop) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::Buttons;
    use nestris_replay::{Recorder, Start};

    fn replay(frames: usize) -> Replay {
        let mut r = Recorder::new(Start::PowerOn(Region::Pal));
        for i in 0..frames {
            r.push(if i % 30 == 0 {
                Buttons::START
            } else {
                Buttons::NONE
            });
        }
        r.replay()
    }

    #[test]
    fn keys_map_to_actions() {
        assert_eq!(action(KeyCode::Space, false), Some(Action::TogglePause));
        assert_eq!(action(KeyCode::Space, true), None, "no repeat");
        assert_eq!(action(KeyCode::Period, true), Some(Action::StepForward));
        assert_eq!(action(KeyCode::ArrowLeft, true), Some(Action::StepBack));
        assert_eq!(action(KeyCode::Equal, false), Some(Action::Faster));
        assert_eq!(action(KeyCode::Minus, false), Some(Action::Slower));
        assert_eq!(action(KeyCode::Digit1, false), Some(Action::Seek(0.1)));
        assert_eq!(action(KeyCode::Numpad9, false), Some(Action::Seek(0.9)));
        assert_eq!(action(KeyCode::KeyQ, false), Some(Action::Quit));
        assert_eq!(action(KeyCode::Escape, false), Some(Action::Quit));
        assert_eq!(action(KeyCode::KeyZ, false), None);
    }

    #[test]
    fn the_demo_is_the_cartridges_only_when_recorded_with_it() {
        let mut other = DemoData::BUILTIN;
        other.pieces[0] ^= 0x10;
        let (d, n) = demo_for(DemoSource::Builtin, Some(other.clone()));
        assert!(d == DemoData::BUILTIN && n.is_none());
        let (d, n) = demo_for(DemoSource::Cartridge, Some(other.clone()));
        assert!(d == other && n.is_none());
        let (d, n) = demo_for(DemoSource::Cartridge, None);
        assert!(d == DemoData::BUILTIN && n == Some(NO_CARTRIDGE_DEMO));
    }

    #[test]
    fn the_picture_has_the_game_the_hud_and_the_bar() {
        let p = Playback::new(replay(100), DemoData::BUILTIN, true);
        let mut v = Viewer::new(p, Some(NO_CARTRIDGE_DEMO), Region::Pal);
        assert_eq!(v.title, "nestris replay (PAL)");
        let variant = nestris_core::Variant::betatetris(None);
        assert_eq!(
            title(Region::Ntsc, &variant),
            "nestris replay (NTSC, variant: ksx2@39, halt@49)"
        );
        assert_eq!(
            (v.canvas.width, v.canvas.height),
            (
                WIDTH + hud::PANEL_WIDTH,
                HEIGHT + progress::BAR_HEIGHT + progress::NOTICE_HEIGHT
            )
        );
        v.playback.seek(100);
        v.draw();
        // The NES picture is the renderer's.
        let mut f = Frame::new();
        nestris_render::draw(v.playback.game(), &mut f);
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                assert_eq!(v.canvas.pixel(x, y), f.pixel(x, y));
            }
        }
        // The HUD panel: its first box's frame (white at the tube's middle); the bar
        // filled to the end.
        assert_eq!(v.canvas.pixel(WIDTH + 4, 8 * 3), 0xFCFCFC);
        assert_eq!(v.canvas.pixel(20, HEIGHT + 6), progress::FILLED);
        // The notice (fits on one line).
        assert!(crate::font::width(NO_CARTRIDGE_DEMO, 1) < WIDTH as i32 - 12);
        let status = status_line(&v.playback);
        assert!(
            status.ends_with("frames=100 total=100 speed=1 paused=1 verified=yes\n"),
            "{status}"
        );
    }
}
