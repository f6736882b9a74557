//! Versus in the window: two games side by side on the same pieces, with the scoreboard
//! tournaments broadcast (`nestris_render::versus`).
//!
//! Player 2 is someone at the same keyboard or on a second gamepad, the AI, a ghost (a
//! recorded match's player replayed frame by frame), or someone over the network, whose
//! game is simulated here from the inputs it streams ([`nestris_versus::net`]), a few
//! frames late but never holding up the local game. [`VersusSession`] is the match
//! without the window, so it is tested headless; [`run_versus`] adds the window, the
//! keys, the pads, the sound and the pacing. On exit the match is saved as a versus file
//! (`.nestrisvs`) holding both players.

use std::path::{Path, PathBuf};
use std::time::Instant;

use nestris_core::{Buttons, FrameEvents};
use nestris_render::versus::{draw_versus, Scoreboard, VERSUS_WIDTH};
use nestris_render::{Frame, LevelColours, HEIGHT};
use nestris_versus::file::VersusReplay;
use nestris_versus::net::{Event, Link};
use nestris_versus::{Input, Match, MatchSetup};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::WindowId;

use crate::audio::Audio;
use crate::canvas::Canvas;
use crate::config::Config;
use crate::error::WindowError;
use crate::gamepad::Gamepads;
use crate::input::{Command, KeyMap, Keyboard};
use crate::options::Autopilot;
use crate::screen::{without_source_location, Screen};
use crate::sfx::{cues, Sfx};
use crate::versus_setup::{ghost_files, Chosen, OpponentKind, SetupChoice, VersusSetup};
use nestris_host::pacing::{FramePacer, MAX_CATCH_UP};

/// Who plays the other side.
pub enum Opponent {
    /// A second player at this computer: the keyboard's other half or a second gamepad.
    Local,
    /// The AI (its tap rate and reaction are the autopilot's).
    Ai(Autopilot),
    /// A recorded player's inputs, frame by frame (a race against a ghost).
    Ghost(Vec<Input>),
    /// Someone over the network.
    Net(Box<Link>),
}

impl std::fmt::Debug for Opponent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Opponent::Local => "Local",
            Opponent::Ai(_) => "Ai",
            Opponent::Ghost(_) => "Ghost",
            Opponent::Net(_) => "Net",
        })
    }
}

/// Makes the AI player for a tap rate (Hz) and a reaction (frames), as the setup screen
/// chose them (the AI's versus player is the caller's).
pub struct AiMaker(pub Box<dyn Fn(u8, u8) -> Autopilot>);

impl std::fmt::Debug for AiMaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AiMaker")
    }
}

/// How a versus match starts.
#[derive(Debug)]
pub struct VersusOptions {
    /// Every game's setup (level, seed, best of); with no opponent, the setup screen's
    /// first values.
    pub setup: MatchSetup,
    /// Who plays the other side; `None` opens the setup screen to choose
    /// ([`crate::versus_setup`]).
    pub opponent: Option<Opponent>,
    /// The AI, for the setup screen's AI opponent.
    pub ai: Option<AiMaker>,
    /// The folder whose matches and replays the setup screen offers as ghosts.
    pub ghost_dir: PathBuf,
    /// Which side is played here (0: player 1, on the left; a joiner is player 2).
    pub me: usize,
    /// The names on the scoreboard.
    pub names: [String; 2],
    /// The window's starting size as a multiple of the picture.
    pub scale: u32,
    /// Start with the sound off.
    pub mute: bool,
    /// The blocks' colours.
    pub colours: LevelColours,
    /// The config file (keys, pads, volume).
    pub config_path: PathBuf,
    /// Where the match is saved on exit.
    pub save_to: PathBuf,
}

/// The match without the window.
#[derive(Debug)]
pub struct VersusSession {
    m: Match,
    inputs: [Vec<Input>; 2],
    opponent: Opponent,
    me: usize,
    names: [String; 2],
    prev: [Buttons; 2],
    ghost_at: usize,
    /// Why the link closed (`Some(None)`: the opponent said goodbye).
    closed: Option<Option<&'static str>>,
    colours: LevelColours,
    scratch: Frame,
}

impl VersusSession {
    /// The first game, both players at its start.
    pub fn new(setup: MatchSetup, opponent: Opponent, me: usize, names: [String; 2]) -> Self {
        VersusSession {
            m: Match::new(setup),
            inputs: [Vec::new(), Vec::new()],
            opponent,
            me: me.min(1),
            names,
            prev: [Buttons::NONE; 2],
            ghost_at: 0,
            closed: None,
            colours: LevelColours::Classic,
            scratch: Frame::new(),
        }
    }

    /// The match as it stands.
    pub fn state(&self) -> &Match {
        &self.m
    }

    /// The blocks' colours.
    pub fn set_colours(&mut self, colours: LevelColours) {
        self.colours = colours;
    }

    /// True once the connection to a network opponent dropped: the match has ended.
    pub fn link_lost(&self) -> bool {
        matches!(self.closed, Some(Some(_)))
    }

    fn apply(&mut self, p: usize, i: Input) -> FrameEvents {
        self.inputs[p].push(i);
        self.m.apply(p, i)
    }

    /// A locally held controller's frame for side `p`: Start, once its game is over,
    /// starts the next game when the match allows.
    fn local(&mut self, p: usize, b: Buttons) -> FrameEvents {
        let pressed = Buttons(b.0 & !self.prev[p].0);
        self.prev[p] = b;
        let next = self.m.sides[p].over() && pressed.contains(Buttons::START);
        let i = self.m.input_for(p, b, next);
        let ev = self.apply(p, i);
        if let Opponent::Net(link) = &mut self.opponent {
            if self.closed.is_none() && link.send(i).and_then(|()| link.flush()).is_err() {
                self.closed = Some(Some("the connection dropped"));
            }
        }
        ev
    }

    /// One frame: `held[0]` is player 1's controller (or the only local player's), and
    /// `held[1]` player 2's when both play here. Returns the sound effects of the local
    /// player's game (player 1's when both are local).
    pub fn frame(&mut self, held: [Buttons; 2]) -> Vec<Sfx> {
        if self.link_lost() || self.m.finished() {
            return Vec::new();
        }
        let me = self.me;
        let them = 1 - me;
        let ev = match &mut self.opponent {
            Opponent::Local => {
                let ev = self.local(0, held[0]);
                self.local(1, held[1]);
                ev
            }
            Opponent::Ai(pilot) => {
                let b = pilot(&self.m.sides[them].game);
                let i = self.m.input_for(them, b, true);
                self.apply(them, i);
                self.local(me, held[0])
            }
            Opponent::Ghost(frames) => {
                if let Some(&i) = frames.get(self.ghost_at) {
                    self.ghost_at += 1;
                    self.apply(them, i);
                }
                self.local(me, held[0])
            }
            Opponent::Net(_) => {
                let ev = self.local(me, held[0]);
                while self.closed.is_none() {
                    let Opponent::Net(link) = &mut self.opponent else {
                        break;
                    };
                    match link.poll() {
                        Some(Event::Frame(i)) => {
                            self.apply(them, i);
                        }
                        Some(Event::Closed(why)) => self.closed = Some(why),
                        None => break,
                    }
                }
                ev
            }
        };
        let local = if matches!(self.opponent, Opponent::Local) {
            0
        } else {
            me
        };
        cues(&ev, self.m.sides[local].game.state())
    }

    /// The line under the scoreboard.
    fn message(&self) -> Option<String> {
        match self.closed {
            Some(Some(_)) => return Some("LINK LOST".into()),
            Some(None) if !self.m.finished() => return Some("THEY LEFT".into()),
            _ => {}
        }
        if let Some(w) = self.m.winner() {
            return Some(format!("{} WINS", self.names[w].to_uppercase()));
        }
        if self.m.finished() {
            return Some("A DRAW".into());
        }
        let waiting = (0..2).any(|p| {
            self.m.sides[p].over()
                && self
                    .m
                    .next_game()
                    .is_some_and(|g| g > self.m.sides[p].game_no)
        });
        waiting.then(|| "START: NEXT".into())
    }

    /// Draws the versus picture into `canvas` ([`VERSUS_WIDTH`] x [`HEIGHT`]).
    pub fn draw(&mut self, canvas: &mut Canvas) {
        let game = self.m.sides[self.me].game_no;
        let message = self.message();
        let board = Scoreboard {
            best_of: self.m.setup.best_of,
            wins: self.m.wins,
            game,
            tetris_rates: [
                self.m.sides[0].stats.tetris_rate(),
                self.m.sides[1].stats.tetris_rate(),
            ],
            seed: self.m.setup.seed_of(game),
            names: [&self.names[0], &self.names[1]],
            message: message.as_deref(),
        };
        let games = [&self.m.sides[0].game, &self.m.sides[1].game];
        draw_versus(
            games,
            &board,
            self.colours,
            &mut self.scratch,
            &mut canvas.pixels,
        );
    }

    /// The match so far, as a versus file holds it.
    pub fn replay(&self) -> VersusReplay {
        VersusReplay::of(&self.m, self.inputs.clone())
    }

    /// Leaves the match: a network opponent is told (the saved match holds its game as far
    /// as its inputs had arrived).
    pub fn leave(&mut self) {
        if let Opponent::Net(link) = &mut self.opponent {
            if self.closed.is_none() {
                let _ = link.bye();
            }
        }
    }
}

/// Plays a versus match in a window until the players quit; saves it on exit. Without an
/// opponent it opens on the setup screen, and leaving that screen (B) plays nothing.
pub fn run_versus(options: VersusOptions) -> crate::error::Result<()> {
    let config = Config::load_or_create(&options.config_path)?;
    let event_loop =
        EventLoop::new().map_err(|e| WindowError::NoDisplay(without_source_location(&e)))?;
    let halves = [
        KeyMap::new(&config.versus[0].bindings()),
        KeyMap::new(&config.versus[1].bindings()),
    ];
    let mut app = VersusApp {
        session: None,
        setup: None,
        ai: options.ai,
        names: options.names,
        me: options.me,
        colours: options.colours,
        local_two: false,
        canvas: Canvas::new(VERSUS_WIDTH, HEIGHT),
        menu_frame: Frame::with_size(VERSUS_WIDTH, HEIGHT),
        commands: Keyboard::new(KeyMap::new(&config.keys)),
        halves: halves.map(Keyboard::new),
        pads: Gamepads::new(&config.gamepad),
        audio: Audio::start(config.levels(), options.mute),
        pacer: None,
        screen: None,
        scale: options.scale.clamp(1, 8),
        save_to: options.save_to,
        error: None,
        done: false,
    };
    match options.opponent {
        Some(o) => app.begin(options.setup, o),
        None => {
            app.setup = Some(VersusSetup::new(
                options.setup,
                ghost_files(&options.ghost_dir),
                Buttons::NONE,
            ));
        }
    }
    let result = event_loop.run_app(&mut app);
    app.finish();
    if let Some(e) = app.error {
        return Err(e);
    }
    result.map_err(|e| WindowError::EventLoop(e.to_string()))
}

/// A ghost from a file: the match it starts (the file's own) and the opponent replaying
/// `player` (0 or 1) of it.
pub fn ghost_from_file(path: &Path, player: usize) -> Result<(MatchSetup, Opponent), String> {
    let r = VersusReplay::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let [a, b] = r.inputs;
    Ok((r.setup, Opponent::Ghost(if player == 0 { a } else { b })))
}

struct VersusApp {
    /// The match, once it is set up.
    session: Option<VersusSession>,
    /// The setup screen, while it shows.
    setup: Option<VersusSetup>,
    ai: Option<AiMaker>,
    names: [String; 2],
    me: usize,
    colours: LevelColours,
    local_two: bool,
    canvas: Canvas,
    menu_frame: Frame,
    /// The whole keyboard: quit, mute, fullscreen, and one local player's buttons.
    commands: Keyboard,
    /// The keyboard's two halves, when both players are here.
    halves: [Keyboard; 2],
    pads: Gamepads,
    audio: Audio,
    pacer: Option<FramePacer>,
    screen: Option<Screen>,
    scale: u32,
    save_to: PathBuf,
    error: Option<WindowError>,
    done: bool,
}

impl VersusApp {
    /// Starts the match.
    fn begin(&mut self, setup: MatchSetup, opponent: Opponent) {
        self.local_two = matches!(opponent, Opponent::Local);
        let mut session = VersusSession::new(setup, opponent, self.me, self.names.clone());
        session.set_colours(self.colours);
        self.session = Some(session);
        self.setup = None;
    }

    /// The setup screen's choice made an opponent: starts the match, or says on the
    /// screen why not.
    fn play_chosen(&mut self, c: Chosen) {
        let (setup, opponent) = match c.opponent {
            OpponentKind::Local => (c.setup, Opponent::Local),
            OpponentKind::Ai => {
                let Some(make) = &self.ai else {
                    self.note("NO AI IN THIS BUILD");
                    return;
                };
                self.names[1] = format!("AI {}HZ", c.ai_hz);
                (c.setup, Opponent::Ai((make.0)(c.ai_hz, c.ai_reaction)))
            }
            OpponentKind::Ghost => {
                let Some(path) = &c.ghost else {
                    self.note("NO GHOST FILE");
                    return;
                };
                match ghost_from_file(path, 0) {
                    Ok((setup, o)) => {
                        self.names[1] = "GHOST".into();
                        (setup, o)
                    }
                    Err(e) => {
                        eprintln!("nestris: {e}");
                        self.note("CANNOT READ THAT GHOST");
                        return;
                    }
                }
            }
        };
        self.begin(setup, opponent);
    }

    fn note(&mut self, text: &str) {
        if let Some(s) = &mut self.setup {
            s.set_note(Some(text.into()));
        }
    }

    fn finish(&mut self) {
        if self.done {
            return;
        }
        self.done = true;
        let Some(session) = &mut self.session else {
            return;
        };
        session.leave();
        let replay = session.replay();
        if replay.inputs.iter().all(Vec::is_empty) {
            return;
        }
        match replay.save(&self.save_to) {
            Ok(()) => eprintln!("nestris: the match: {}", self.save_to.display()),
            Err(e) => {
                if self.error.is_none() {
                    self.error = Some(WindowError::NotSaved(std::io::Error::other(format!(
                        "could not save the match {}: {e}",
                        self.save_to.display()
                    ))));
                }
            }
        }
    }

    /// Runs the frames due; false when none was, or when the setup screen was left.
    fn run_due_frames(&mut self, event_loop: &ActiveEventLoop) -> bool {
        if self.screen.is_none() {
            return false;
        }
        let region = match (&self.session, &self.setup) {
            (Some(s), _) => s.state().setup.region,
            (None, Some(m)) => m.chosen().setup.region,
            (None, None) => return false,
        };
        self.pacer
            .get_or_insert_with(|| FramePacer::new(Instant::now(), region.frame_rate()));
        let mut ran = 0;
        while ran < MAX_CATCH_UP
            && self
                .pacer
                .as_ref()
                .is_some_and(|p| p.is_due(Instant::now()))
        {
            if let Some(p) = &mut self.pacer {
                p.advance(Instant::now());
            }
            ran += 1;
            if let Some(menu) = &mut self.setup {
                let b = self.commands.sample() | self.pads.sample();
                match menu.buttons(b) {
                    SetupChoice::Choosing => {}
                    SetupChoice::Leave => {
                        event_loop.exit();
                        return false;
                    }
                    SetupChoice::Play(c) => self.play_chosen(c),
                }
                continue;
            }
            let Some(session) = &mut self.session else {
                break;
            };
            let held = if self.local_two {
                let pads = self.pads.sample_two();
                [
                    self.halves[0].sample() | pads[0],
                    self.halves[1].sample() | pads[1],
                ]
            } else {
                [self.commands.sample() | self.pads.sample(), Buttons::NONE]
            };
            for sfx in session.frame(held) {
                self.audio.play(sfx);
            }
        }
        ran > 0
    }

    fn present(&mut self) -> crate::error::Result<()> {
        let Some(screen) = &mut self.screen else {
            return Ok(());
        };
        if let Some(session) = &mut self.session {
            session.draw(&mut self.canvas);
        } else if let Some(menu) = &self.setup {
            menu.draw(&mut self.menu_frame);
            self.canvas.blit_frame(&self.menu_frame);
        }
        screen.present(&self.canvas)
    }
}

impl ApplicationHandler for VersusApp {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.screen.is_some() {
            return;
        }
        match Screen::open(
            event_loop,
            "nestris versus",
            (VERSUS_WIDTH, HEIGHT),
            self.scale,
            false,
        ) {
            Ok(s) => self.screen = Some(s),
            Err(e) => {
                self.error = Some(e);
                self.finish();
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => {
                self.finish();
                event_loop.exit();
            }
            WindowEvent::Resized(_) | WindowEvent::RedrawRequested => {
                if let Err(e) = self.present() {
                    self.error = Some(e);
                    self.finish();
                    event_loop.exit();
                }
            }
            WindowEvent::Focused(false) => {
                self.commands.release_all();
                self.halves.iter_mut().for_each(Keyboard::release_all);
            }
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
                for h in &mut self.halves {
                    h.on_key(code, pressed, event.repeat);
                }
                if let (Some(menu), true) = (&mut self.setup, pressed) {
                    if let Some(d) = hex_digit(code) {
                        if menu.entering_seed() {
                            menu.type_digit(d);
                        }
                    }
                }
                match self.commands.on_key(code, pressed, event.repeat) {
                    Some(Command::Quit) => {
                        self.finish();
                        event_loop.exit();
                    }
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
        if self.done {
            return;
        }
        if self.run_due_frames(event_loop) {
            if let Err(e) = self.present() {
                self.error = Some(e);
                self.finish();
                event_loop.exit();
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

/// The hex digit a key types, for the seed entry.
fn hex_digit(code: KeyCode) -> Option<u8> {
    use KeyCode as K;
    const DIGITS: [KeyCode; 16] = [
        K::Digit0,
        K::Digit1,
        K::Digit2,
        K::Digit3,
        K::Digit4,
        K::Digit5,
        K::Digit6,
        K::Digit7,
        K::Digit8,
        K::Digit9,
        K::KeyA,
        K::KeyB,
        K::KeyC,
        K::KeyD,
        K::KeyE,
        K::KeyF,
    ];
    DIGITS.iter().position(|&k| k == code).map(|i| i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::Region;

    fn setup() -> MatchSetup {
        MatchSetup {
            region: Region::Ntsc,
            level: 18,
            seed: 0x00BEEF,
            best_of: 3,
        }
    }

    fn names() -> [String; 2] {
        ["ONE".into(), "TWO".into()]
    }

    #[test]
    fn two_local_players_play_on_and_start_the_next_game_with_start() {
        let mut s = VersusSession::new(setup(), Opponent::Local, 0, names());
        // Player 1 tops out holding Down; player 2 waits, then does the same.
        while !s.state().sides[0].over() {
            s.frame([Buttons::DOWN, Buttons::NONE]);
        }
        assert!(!s.state().sides[1].over(), "player 2 plays on");
        while !s.state().sides[1].over() {
            s.frame([Buttons::NONE, Buttons::DOWN]);
        }
        let r = s.state().results[0];
        assert_eq!(s.message().as_deref(), Some("START: NEXT"));
        assert!(r.winner.is_some() || r.scores[0] == r.scores[1]);
        s.frame([Buttons::START, Buttons::NONE]);
        assert_eq!(s.state().sides[0].game_no, 1);
        assert_eq!(
            s.state().sides[1].game_no,
            0,
            "player 2 has not pressed Start"
        );
        s.frame([Buttons::START, Buttons::START]);
        assert_eq!(s.state().sides[1].game_no, 1);
        // The file holds both and replays to the same two games.
        let m = s.replay().verify().unwrap();
        assert_eq!(m.sides[0].game, s.state().sides[0].game);
        let mut c = Canvas::new(VERSUS_WIDTH, HEIGHT);
        s.draw(&mut c);
    }

    #[test]
    fn a_ghost_replays_its_player_against_a_new_one() {
        let mut first = VersusSession::new(setup(), Opponent::Local, 0, names());
        for f in 0..1500u32 {
            let b = if f % 7 < 3 {
                Buttons::DOWN
            } else {
                Buttons::NONE
            };
            first.frame([b, Buttons::NONE]);
        }
        let recorded = first.replay();
        let ghost = Opponent::Ghost(recorded.inputs[0].clone());
        let mut race = VersusSession::new(setup(), ghost, 0, names());
        for _ in 0..1500 {
            race.frame([Buttons::NONE, Buttons::NONE]);
        }
        assert_eq!(race.state().sides[1].game, first.state().sides[0].game);
    }

    #[test]
    fn the_ai_plays_the_other_side() {
        let mut f = 0u32;
        let pilot: Autopilot = Box::new(move |_| {
            f += 1;
            if f % 8 < 6 {
                Buttons::DOWN
            } else {
                Buttons::NONE
            }
        });
        let mut s = VersusSession::new(setup(), Opponent::Ai(pilot), 0, names());
        while !s.state().sides[1].over() {
            s.frame([Buttons::NONE, Buttons::NONE]);
        }
        assert!(s.state().sides[1].score() > 0, "the pilot soft-dropped");
        assert_eq!(s.state().sides[0].score(), 0);
    }
}
