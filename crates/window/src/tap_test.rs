//! The tap-speed test in a window (`nestris play --trainer tap-test`): the core's
//! [`TapTest`] stepped once a frame with the controller (keyboard or gamepad, the
//! config's bindings), its screen drawn by `nestris_render::tap_test`, the shift sound on
//! every tap. Esc quits, M mutes, F11 toggles fullscreen. Nothing is recorded: the test
//! plays no game.

use std::path::PathBuf;
use std::time::Instant;

use nestris_core::tap_test::TapTest;
use nestris_core::{Buttons, Region};
use nestris_render::{Frame, HEIGHT, WIDTH};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::WindowId;

use crate::audio::Audio;
use crate::canvas::Canvas;
use crate::config::Config;
use crate::error::WindowError;
use crate::gamepad::Gamepads;
use crate::input::{Command, KeyMap, Keyboard};
use crate::screen::{without_source_location, Screen};
use crate::sfx::Sfx;
use nestris_host::pacing::{FramePacer, MAX_CATCH_UP};

/// How the tap test starts.
#[derive(Debug)]
pub struct TapTestOptions {
    /// The console whose frame rate paces the test and makes its rates.
    pub region: Region,
    /// The window's starting size as a multiple of the picture (1..=8).
    pub scale: u32,
    /// Start with the sound off.
    pub mute: bool,
    /// The config file (keys, pads, volume).
    pub config_path: PathBuf,
}

impl Default for TapTestOptions {
    /// NTSC, 3x, sound on, the user's config file.
    fn default() -> Self {
        TapTestOptions {
            region: Region::Ntsc,
            scale: 3,
            mute: false,
            config_path: nestris_host::Dirs::user().config_path,
        }
    }
}

/// One frame of the test with the controller's `buttons`; the sound it makes (the shift
/// sound on a tap, as the piece would move).
pub fn step(test: &mut TapTest, buttons: Buttons) -> Option<Sfx> {
    let before = test.total_taps();
    test.step(buttons);
    (test.total_taps() != before).then_some(Sfx::Shift)
}

/// Runs the tap test in a window until the player quits.
pub fn run_tap_test(options: TapTestOptions) -> crate::error::Result<()> {
    let config = Config::load_or_create(&options.config_path)?;
    let event_loop =
        EventLoop::new().map_err(|e| WindowError::NoDisplay(without_source_location(&e)))?;
    let mut app = TapTestApp {
        test: TapTest::new(options.region),
        frame: Frame::new(),
        canvas: Canvas::new(WIDTH, HEIGHT),
        keyboard: Keyboard::new(KeyMap::new(&config.keys)),
        pads: Gamepads::new(&config.gamepad),
        audio: Audio::start(config.levels(), options.mute),
        pacer: None,
        screen: None,
        scale: options.scale.clamp(1, 8),
        error: None,
    };
    let result = event_loop.run_app(&mut app);
    if let Some(e) = app.error {
        return Err(e);
    }
    result.map_err(|e| WindowError::EventLoop(e.to_string()))
}

struct TapTestApp {
    test: TapTest,
    frame: Frame,
    canvas: Canvas,
    keyboard: Keyboard,
    pads: Gamepads,
    audio: Audio,
    pacer: Option<FramePacer>,
    screen: Option<Screen>,
    scale: u32,
    error: Option<WindowError>,
}

impl TapTestApp {
    fn run_due_frames(&mut self) -> bool {
        if self.screen.is_none() {
            return false;
        }
        let rate = self.test.region().frame_rate();
        let pacer = self
            .pacer
            .get_or_insert_with(|| FramePacer::new(Instant::now(), rate));
        let mut ran = 0;
        while ran < MAX_CATCH_UP && pacer.is_due(Instant::now()) {
            let buttons = self.keyboard.sample() | self.pads.sample();
            if let Some(sfx) = step(&mut self.test, buttons) {
                self.audio.play(sfx);
            }
            pacer.advance(Instant::now());
            ran += 1;
        }
        ran > 0
    }

    fn present(&mut self) -> crate::error::Result<()> {
        let Some(screen) = &mut self.screen else {
            return Ok(());
        };
        nestris_render::tap_test::draw(&self.test, &mut self.frame);
        self.canvas.blit_frame(&self.frame);
        screen.present(&self.canvas)
    }

    fn fail(&mut self, e: WindowError, event_loop: &ActiveEventLoop) {
        self.error = Some(e);
        event_loop.exit();
    }
}

impl ApplicationHandler for TapTestApp {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.screen.is_some() {
            return;
        }
        match Screen::open(
            event_loop,
            "nestris tap test",
            (WIDTH, HEIGHT),
            self.scale,
            false,
        ) {
            Ok(s) => self.screen = Some(s),
            Err(e) => self.fail(e, event_loop),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(_) | WindowEvent::RedrawRequested => {
                if let Err(e) = self.present() {
                    self.fail(e, event_loop);
                }
            }
            WindowEvent::Focused(false) => self.keyboard.release_all(),
            WindowEvent::KeyboardInput {
                event,
                is_synthetic,
                ..
            } => {
                let pressed = event.state == ElementState::Pressed;
                if is_synthetic && pressed {
                    return;
                }
                let PhysicalKey::Code(code) = event.physical_key else {
                    return;
                };
                match self.keyboard.on_key(code, pressed, event.repeat) {
                    Some(Command::Quit) => event_loop.exit(),
                    Some(Command::Mute) => self.audio.set_muted(!self.audio.is_muted()),
                    Some(Command::Fullscreen) => {
                        if let Some(s) = &self.screen {
                            s.toggle_fullscreen();
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.run_due_frames() {
            if let Err(e) = self.present() {
                self.fail(e, event_loop);
                return;
            }
        }
        if let Some(p) = &self.pacer {
            event_loop.set_control_flow(ControlFlow::WaitUntil(p.deadline()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tap_sounds_and_nothing_else_does() {
        let mut t = TapTest::new(Region::Ntsc);
        let pattern = [
            Buttons::LEFT,
            Buttons::LEFT,
            Buttons::NONE,
            Buttons::RIGHT,
            Buttons::A,
            Buttons::NONE,
            Buttons::LEFT,
        ];
        let sounds: Vec<bool> = pattern.iter().map(|&b| step(&mut t, b).is_some()).collect();
        assert_eq!(sounds, [true, false, false, true, false, false, true]);
        // Taps after pauses start new bursts of one: they sound too.
        for _ in 0..2 {
            for _ in 0..30 {
                assert!(step(&mut t, Buttons::NONE).is_none());
            }
            assert_eq!(step(&mut t, Buttons::RIGHT), Some(Sfx::Shift));
        }
    }
}
