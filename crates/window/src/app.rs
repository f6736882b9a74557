//! The window: winit's event loop drives the frame scheduler, the keyboard and gamepads
//! are sampled once per frame, the session steps, and the picture is scaled into a
//! softbuffer surface.
//!
//! Frames run in `about_to_wait`, after the events that arrived before the frame's
//! deadline, so a key pressed just before a frame counts in it; the loop then sleeps
//! until the next deadline (`ControlFlow::WaitUntil`).

use std::path::PathBuf;
use std::time::{Instant, SystemTime};

use crate::error::WindowError;
use nestris_core::Buttons;
use nestris_render::{HEIGHT, WIDTH};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::WindowId;

use crate::audio::Audio;
use crate::canvas::Canvas;
use crate::config::Config;
use crate::gamepad::Gamepads;
use crate::input::{Command, KeyMap, Keyboard};
use crate::music::MusicFollower;
use crate::options::{Autopilot, WindowOptions};
use crate::screen::{without_source_location, Screen};
use crate::session::{QuitAnswer, Session};
use crate::status::StatusFile;
use crate::versus::{VersusMode, VERSUS_TITLE};
use nestris_host::pacing::{FramePacer, PacingLog, MAX_CATCH_UP};
use nestris_host::store::{self as storage, ScoreKeeper, Settings};
use nestris_replay::session::{session_path, Recording};

/// Plays the game in a window until the player quits.
///
/// Errors (each one line): a config file that cannot be used (its line named), no
/// display ("no display available: ..."), a window that cannot be drawn to. Missing
/// sound or gamepads are not errors. Must be called on the main thread, once.
///
/// With [`WindowOptions::replay`] set, the replay in that file is shown in the replay
/// viewer instead ([`crate::play_replay`]; its region is the replay's own), and the
/// config file, the data folder and the replay folder are not touched.
pub fn run(mut options: WindowOptions) -> crate::error::Result<()> {
    if let Some(path) = options.replay.take() {
        let viewer = crate::viewer::ReplayViewerOptions {
            scale: options.scale,
            hud: options.hud,
            rom_demo: options.rom_demo.take(),
            mute: options.mute,
            colours: options.colours,
        };
        // A versus match is known by its first bytes, whatever the file's name.
        match nestris_versus::file::VersusReplay::load(&path) {
            Ok(m) => return crate::viewer::play_versus_replay(m, viewer),
            // Not one, or unreadable: the replay reader says why.
            Err(
                nestris_versus::file::VersusFileError::NotVersus
                | nestris_versus::file::VersusFileError::Io(_),
            ) => {}
            Err(e) => return Err(WindowError::Versus(format!("{}: {e}", path.display()))),
        }
        let replay = nestris_replay::Replay::load(&path)?;
        return crate::viewer::play_replay(replay, viewer);
    }
    let config = Config::load_or_create(&options.config_path)?;
    let position_file = options
        .position_file
        .clone()
        .unwrap_or_else(|| options.data_dir.join("position.txt"));
    // A position file that is there must read (its error is one line); a missing one is
    // an empty field, saved there later.
    let position = match options.editor && position_file.exists() {
        true => Some(nestris_replay::position::load_position(&position_file)?),
        false => None,
    };
    let (scores_path, settings_path) = storage::paths(&options.data_dir);
    // The autopilot's games stay out of the player's table (which they read, and never
    // move aside or write).
    let scores = match options.ai {
        None => ScoreKeeper::open(scores_path),
        Some(_) => {
            let table = storage::load_high_scores(&scores_path)
                .or_warn("the high-score table", &scores_path);
            (ScoreKeeper::new(None, table.clone()), table)
        }
    };
    let settings = storage::load_settings(&settings_path).or_warn("the settings", &settings_path);

    let event_loop =
        EventLoop::new().map_err(|e| WindowError::NoDisplay(without_source_location(&e)))?;

    let recording = match std::fs::create_dir_all(&options.replay_dir) {
        Ok(()) => Some(
            Recording::new(
                session_path(&options.replay_dir, SystemTime::now()),
                options.region,
                options.rom_demo.clone(),
            )
            .with_crash_mode(options.crash_mode),
        ),
        Err(e) => {
            eprintln!(
                "nestris: warning: cannot create the replay folder {}: {e}; not recording",
                options.replay_dir.display()
            );
            None
        }
    };
    let mut session = Session::new(
        options.region,
        options.rom_demo.take(),
        options.hud,
        scores,
        recording,
        StatusFile::from_env(),
    );
    session.set_crash_mode(options.crash_mode);
    session.set_colours(options.colours);
    if let Some(game) = options.start.take() {
        session.start_from(game);
    }
    session.set_position_file(position_file);
    if options.editor {
        session.open_editor_with(position.unwrap_or_default());
    }
    let pacing_log = PacingLog::from_env().map_err(WindowError::PacingLog)?;
    // The title screen's versus key (none bound: no versus from here, and no hint).
    let versus_hint = config
        .keys
        .versus
        .first()
        .map(|&k| format!("{}: VERSUS", crate::config::key_label(k)));
    let (w, h) = session.canvas_size();
    let mut app = App {
        canvas: Canvas::new(w, h),
        session,
        keyboard: Keyboard::new(KeyMap::new(&config.keys)),
        pads: Gamepads::new(&config.gamepad),
        audio: Audio::start(config.levels(), options.mute || settings.muted),
        music: MusicFollower::default(),
        ai: options.ai.take(),
        rate: options.frame_rate(),
        pacer: None,
        pacing_log,
        screen: None,
        settings,
        settings_path,
        scale: options.scale.clamp(1, 8),
        title: match options.region {
            nestris_core::Region::Ntsc => "nestris (NTSC)",
            nestris_core::Region::Pal => "nestris (PAL)",
        },
        error: None,
        done: false,
        mouse: None,
        versus: None,
        versus_hint,
        versus_halves: crate::versus::halves(&config),
        replay_dir: options.replay_dir.clone(),
        colours: options.colours,
        region: options.region,
    };
    let result = event_loop.run_app(&mut app);
    app.finish();
    if let Some(e) = app.error {
        return Err(e);
    }
    result.map_err(|e| WindowError::EventLoop(e.to_string()))
}

/// The window and everything it drives.
struct App {
    session: Session,
    canvas: Canvas,
    keyboard: Keyboard,
    pads: Gamepads,
    audio: Audio,
    music: MusicFollower,
    ai: Option<Autopilot>,
    rate: f64,
    pacer: Option<FramePacer>,
    pacing_log: Option<PacingLog>,
    screen: Option<Screen>,
    settings: Settings,
    settings_path: PathBuf,
    scale: u32,
    title: &'static str,
    error: Option<WindowError>,
    done: bool,
    /// Where the mouse is, in the picture's pixels (for the board editor).
    mouse: Option<(i32, i32)>,
    /// Versus, opened from the title screen: it has the window, the keys and the sound
    /// until it is left, and the game waits on its title screen meanwhile.
    versus: Option<VersusMode>,
    /// The title screen's line naming the versus key.
    versus_hint: Option<String>,
    /// The keyboard's two halves for two players in versus, as the config binds them.
    versus_halves: [Keyboard; 2],
    /// Where matches are saved, and ghosts offered from.
    replay_dir: PathBuf,
    colours: nestris_render::LevelColours,
    region: nestris_core::Region,
}

impl App {
    /// Stops the loop with an error to report.
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

    /// Saves what is kept; safe to call more than once.
    fn finish(&mut self) {
        if self.done {
            return;
        }
        self.done = true;
        self.leave_versus();
        match self.session.finish() {
            Err(e) => {
                if self.error.is_none() {
                    self.error = Some(WindowError::NotSaved(e));
                }
            }
            Ok(()) => {
                if let Some(path) = self.session.replay_path().filter(|p| p.exists()) {
                    eprintln!("nestris: this session's replay: {}", path.display());
                }
            }
        }
        if let Some(log) = &mut self.pacing_log {
            if let Err(e) = log.flush() {
                eprintln!("nestris: warning: could not write the pacing log: {e}");
            }
        }
    }

    fn open_window(&mut self, event_loop: &ActiveEventLoop) -> crate::error::Result<()> {
        self.screen = Some(Screen::open(
            event_loop,
            self.title,
            self.session.canvas_size(),
            self.scale,
            self.settings.fullscreen,
        )?);
        Ok(())
    }

    /// Runs the frames that are due; true if any ran. The schedule starts with the
    /// first frame, once the window is open.
    fn run_due_frames(&mut self) -> bool {
        if self.screen.is_none() {
            return false;
        }
        let rate = self.rate;
        let pacer = self
            .pacer
            .get_or_insert_with(|| FramePacer::new(Instant::now(), rate));
        let mut ran = 0;
        let mut left_versus = false;
        while ran < MAX_CATCH_UP && pacer.is_due(Instant::now()) {
            let now = Instant::now();
            if let Some(log) = &mut self.pacing_log {
                if let Err(e) = log.frame(now) {
                    eprintln!("nestris: warning: pacing log stopped: {e}");
                    self.pacing_log = None;
                }
            }
            if let Some(v) = &mut self.versus {
                // The game stands still on its title screen while versus plays.
                let stay = v.frame(&mut self.keyboard, &mut self.pads, &self.audio);
                pacer.advance(Instant::now());
                ran += 1;
                if !stay {
                    left_versus = true;
                    break;
                }
                continue;
            }
            let keys = self.keyboard.sample();
            let pads = self.pads.sample();
            let buttons = match &mut self.ai {
                // The autopilot is asked only for frames that run.
                Some(ai) if !self.session.asking_quit() => ai(self.session.game()),
                Some(_) => Buttons::NONE,
                None => keys | pads,
            };
            if self.keyboard.command_held(Command::Rewind) {
                // Held: one frame back per frame, and no frame forward.
                self.session.rewind_frame();
            } else {
                for sfx in self.session.frame(buttons, now) {
                    self.audio.play(sfx);
                }
            }
            if let Some(c) = self.music.follow(self.session.game().state().music()) {
                self.audio.music(c);
            }
            pacer.advance(Instant::now());
            ran += 1;
        }
        if left_versus {
            self.leave_versus();
        }
        ran > 0
    }

    /// Draws the picture, scaled to the window, and shows it.
    fn present(&mut self) -> crate::error::Result<()> {
        let hint = self.versus_on_offer();
        let Some(screen) = &mut self.screen else {
            return Ok(());
        };
        if let Some(v) = &mut self.versus {
            return screen.present(v.draw());
        }
        self.session.draw(&mut self.canvas);
        if hint {
            if let Some(hint) = &self.versus_hint {
                // Bottom right, under the title picture's boxes.
                let w = crate::font::width(hint, 1);
                let (x, y) = (WIDTH as i32 - w - 10, HEIGHT as i32 - crate::font::H - 5);
                self.canvas
                    .fill_rect(x - 3, y - 3, w + 6, crate::font::H + 6, 0x000000);
                self.canvas.text(x, y, hint, 0xFCFCFC, 1);
            }
        }
        screen.present(&self.canvas)
    }

    fn command(&mut self, event_loop: &ActiveEventLoop, c: Command) {
        match c {
            Command::Quit => {
                if self.session.request_quit() == QuitAnswer::Quit {
                    self.quit(event_loop);
                }
            }
            Command::Mute => {
                let muted = !self.audio.is_muted();
                self.audio.set_muted(muted);
                self.session
                    .toast(if muted { "SOUND OFF" } else { "SOUND ON" });
                self.settings.muted = muted;
                self.save_settings();
            }
            Command::Music => {
                let on = !self.audio.music_on();
                self.audio.set_music_on(on);
                self.session
                    .toast(if on { "MUSIC ON" } else { "MUSIC OFF" });
            }
            Command::Fullscreen => {
                if let Some(screen) = &self.screen {
                    self.settings.fullscreen = screen.toggle_fullscreen();
                    self.save_settings();
                }
            }
            Command::SaveState(slot) => self.session.save_state(usize::from(slot)),
            Command::LoadState(slot) => self.session.load_state(usize::from(slot)),
            // Rewinding lasts while the key is held (sampled with each frame).
            Command::Rewind => {}
            Command::Freeze => self.session.toggle_freeze(),
            Command::Advance => self.session.advance(),
            Command::Seed => self.session.open_seed_entry(Buttons::NONE),
            Command::Coach => self.session.toggle_coach(),
            Command::Editor => self.session.open_editor(Buttons::NONE),
            Command::Versus => self.open_versus(),
        }
    }

    /// True while the versus key opens versus: on the title screen, with the keyboard
    /// playing.
    fn versus_on_offer(&self) -> bool {
        self.ai.is_none()
            && self.versus_hint.is_some()
            && !self.session.asking_quit()
            && !self.session.editing()
            && self.session.game().state().screen() == nestris_core::Screen::Title
    }

    /// The versus setup screen, in this window: the same screen as `nestris versus`
    /// opens, with its defaults (level 18, a seed from the clock, best of 3).
    fn open_versus(&mut self) {
        if !self.versus_on_offer() {
            self.session.toast("VERSUS: ON THE TITLE SCREEN");
            return;
        }
        let setup = nestris_versus::MatchSetup {
            region: self.region,
            level: 18,
            seed: crate::versus::clock_seed(),
            best_of: 3,
        };
        let mode = VersusMode::new(
            Some(crate::versus::AiMaker::standard()),
            self.colours,
            self.versus_halves.clone(),
            crate::versus::match_path(&self.replay_dir),
        )
        .setup_screen(
            setup,
            crate::versus_setup::ghost_files(&self.replay_dir),
            Buttons::NONE,
        );
        self.keyboard.release_all();
        self.versus = Some(mode);
        if let Some(screen) = &self.screen {
            let size = (nestris_render::versus::VERSUS_WIDTH, nestris_render::HEIGHT);
            screen.fit(VERSUS_TITLE, size, self.scale);
        }
    }

    /// Back from versus to the title screen: the match is saved, the window fits the
    /// game again.
    fn leave_versus(&mut self) {
        let Some(mut mode) = self.versus.take() else {
            return;
        };
        match mode.finish() {
            Ok(Some(path)) => eprintln!("nestris: the match: {}", path.display()),
            Ok(None) => {}
            Err(e) => {
                eprintln!("nestris: {e}");
                self.session.toast("COULD NOT SAVE THE MATCH");
            }
        }
        self.keyboard.release_all();
        if let Some(screen) = &self.screen {
            screen.fit(self.title, self.session.canvas_size(), self.scale);
        }
    }

    fn save_settings(&self) {
        if let Err(e) = storage::save_settings(&self.settings_path, &self.settings) {
            eprintln!(
                "nestris: warning: could not save the settings to {}: {e}",
                self.settings_path.display()
            );
        }
    }

    fn key(
        &mut self,
        event_loop: &ActiveEventLoop,
        code: KeyCode,
        pressed: bool,
        repeat: bool,
        text: Option<&str>,
    ) {
        if let Some(v) = &mut self.versus {
            match v.key(&mut self.keyboard, code, pressed, repeat, text) {
                // Esc leaves versus for the title screen, not the program.
                // (Else it closed an entry or stopped a connection.)
                Some(Command::Quit) if v.escape() => self.leave_versus(),
                Some(c @ (Command::Mute | Command::Music | Command::Fullscreen)) => {
                    self.command(event_loop, c);
                }
                _ => {}
            }
            return;
        }
        if self.session.asking_quit() {
            // Game keys are still tracked, so that releases are not lost meanwhile.
            let command = self.keyboard.on_key(code, pressed, repeat);
            if !pressed || repeat {
                return;
            }
            match code {
                KeyCode::KeyY => self.quit(event_loop),
                KeyCode::KeyN => self.session.cancel_quit(),
                _ if command == Some(Command::Quit) => self.command(event_loop, Command::Quit),
                _ => {}
            }
            return;
        }
        if self.session.entering_seed() && pressed && !repeat {
            if let Some(d) = hex_digit(code) {
                self.session.type_seed_digit(d);
                return;
            }
        }
        let command = self.keyboard.on_key(code, pressed, repeat);
        if command == Some(Command::Quit) && self.session.editing() {
            // Esc leaves the editor for the level menu it was opened over (if any).
            if !self.session.leave_editor(Instant::now()) {
                self.quit(event_loop);
            }
            return;
        }
        match command {
            // Esc leaves the seed entry rather than the program.
            Some(Command::Quit) if self.session.entering_seed() => self.session.cancel_seed_entry(),
            Some(c) => self.command(event_loop, c),
            None => {}
        }
    }
}

/// The hex digit a key types (0-9 on either row of digits, A-F).
fn hex_digit(code: KeyCode) -> Option<u8> {
    use KeyCode::*;
    const KEYS: [[KeyCode; 2]; 16] = [
        [Digit0, Numpad0],
        [Digit1, Numpad1],
        [Digit2, Numpad2],
        [Digit3, Numpad3],
        [Digit4, Numpad4],
        [Digit5, Numpad5],
        [Digit6, Numpad6],
        [Digit7, Numpad7],
        [Digit8, Numpad8],
        [Digit9, Numpad9],
        [KeyA, KeyA],
        [KeyB, KeyB],
        [KeyC, KeyC],
        [KeyD, KeyD],
        [KeyE, KeyE],
        [KeyF, KeyF],
    ];
    (0u8..)
        .zip(KEYS)
        .find_map(|(d, keys)| keys.contains(&code).then_some(d))
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.screen.is_some() {
            return;
        }
        if let Err(e) = self.open_window(event_loop) {
            self.fail(event_loop, e);
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
            WindowEvent::Focused(false) => {
                self.keyboard.release_all();
                if let Some(v) = &mut self.versus {
                    v.focus_lost();
                }
                self.session.editor_mouse_up();
            }
            WindowEvent::CursorMoved { .. } | WindowEvent::MouseInput { .. }
                if self.versus.is_some() => {}
            WindowEvent::CursorMoved { position, .. } => {
                self.mouse = self
                    .screen
                    .as_ref()
                    .and_then(|s| s.to_canvas(&self.canvas, position.x, position.y))
                    .map(|(x, y)| (x.floor() as i32, y.floor() as i32));
                if let Some((x, y)) = self.mouse {
                    self.session.editor_mouse_move(x, y);
                }
            }
            WindowEvent::CursorLeft { .. } => self.mouse = None,
            WindowEvent::MouseInput { state, button, .. } => {
                let erase = match button {
                    MouseButton::Left => false,
                    MouseButton::Right => true,
                    _ => return,
                };
                match (state, self.mouse) {
                    (ElementState::Pressed, Some((x, y))) => {
                        self.session.editor_mouse_down(x, y, erase, Instant::now());
                    }
                    (ElementState::Released, _) => self.session.editor_mouse_up(),
                    _ => {}
                }
                // The picture changes between frames only here.
                if let Err(e) = self.present() {
                    self.fail(event_loop, e);
                }
            }
            WindowEvent::KeyboardInput {
                event,
                is_synthetic,
                ..
            } => {
                let pressed = event.state == ElementState::Pressed;
                // On focus, the system reports keys already down: not a fresh press.
                if is_synthetic && pressed {
                    return;
                }
                if let PhysicalKey::Code(code) = event.physical_key {
                    let text = event.text.as_deref();
                    self.key(event_loop, code, pressed, event.repeat, text);
                }
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.done {
            return;
        }
        if self.run_due_frames() {
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
