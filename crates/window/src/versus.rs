//! Versus in the window: two games side by side on the same pieces, with the scoreboard
//! tournaments broadcast (`nestris_render::versus`).
//!
//! Player 2 is someone at the same keyboard or on a second gamepad, the AI, a ghost (a
//! recorded match's player replayed frame by frame), or someone over the network, whose
//! game is simulated here from the inputs it streams ([`nestris_versus::net`]), a few
//! frames late but never holding up the local game. [`VersusSession`] is the match
//! without the window, so it is tested headless; `VersusMode` adds the setup screen, a
//! network match connecting ([`crate::network`]) and the two keyboard halves, and is
//! driven by [`run_versus`] (`nestris versus`, with its own window, pads, sound and
//! pacing) and by the game's window, whose title screen opens it (`crate::app`). On
//! leaving, the match is saved as a versus file (`.nestrisvs`) holding both players.

use std::path::{Path, PathBuf};
use std::time::Instant;

use nestris_ai::{Ai, InputModel, TapClock, Weights};
use nestris_core::{Buttons, FrameEvents, Game, PlayState, Region};
use nestris_render::versus::{draw_versus, Scoreboard, VERSUS_WIDTH};
use nestris_render::{Frame, LevelColours, HEIGHT};
use nestris_versus::file::VersusReplay;
use nestris_versus::net::{Event, Link};
use nestris_versus::{Input, Match, MatchSetup, Side};
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
use crate::network::{Connecting, NetMatch};
use crate::options::Autopilot;
use crate::screen::{without_source_location, Screen};
use crate::sfx::{cues, Sfx};
use crate::versus_setup::{ghost_files, Chosen, OpponentKind, SetupChoice, VersusSetup, AI_TAPS};
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
    /// ([`crate::versus_setup`]). A ghost's own start goes in [`VersusOptions::start`].
    pub opponent: Option<Opponent>,
    /// The game both players start from, instead of the setup's first (a race against
    /// a single-player replay's ghost: [`Ghost::start`]).
    pub start: Option<Game>,
    /// The AI, for the setup screen's AI opponent.
    pub ai: Option<AiMaker>,
    /// The folder whose matches and replays the setup screen offers as ghosts.
    pub ghost_dir: PathBuf,
    /// The setup screen's first choice of a versus file ghost's player (0: player 1).
    pub ghost_player: usize,
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
        VersusSession::of(Match::new(setup), opponent, me, names)
    }

    /// A ghost's race: from its start when it has one, else its match's first game.
    pub fn race(ghost: Ghost, me: usize, names: [String; 2]) -> Self {
        let m = match ghost.start {
            Some(g) => Match::from_start(ghost.setup, g),
            None => Match::new(ghost.setup),
        };
        VersusSession::of(m, ghost.opponent, me, names)
    }

    /// `m` as it stands, played against `opponent`.
    pub fn of(m: Match, opponent: Opponent, me: usize, names: [String; 2]) -> Self {
        VersusSession {
            m,
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
        if !self.m.seeded() && !self.m.sides.iter().any(Side::over) {
            return Some("PIECES VARY".into());
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
        let names = [self.names[0].as_str(), self.names[1].as_str()];
        draw_match(
            &self.m,
            game,
            names,
            message.as_deref(),
            self.colours,
            &mut self.scratch,
            canvas,
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

/// Draws match `m` as the versus window shows it into `canvas` ([`VERSUS_WIDTH`] x
/// [`HEIGHT`]): both games, and the scoreboard for game `game` (the one the local player
/// is in) with `names` and a `message` under it; `scratch` is the work frame.
pub(crate) fn draw_match(
    m: &Match,
    game: u16,
    names: [&str; 2],
    message: Option<&str>,
    colours: LevelColours,
    scratch: &mut Frame,
    canvas: &mut Canvas,
) {
    let board = Scoreboard {
        best_of: m.setup.best_of,
        wins: m.wins,
        game,
        tetris_rates: [
            m.sides[0].stats.tetris_rate(),
            m.sides[1].stats.tetris_rate(),
        ],
        seed: m.seeded().then(|| m.setup.seed_of(game)),
        names,
        message,
    };
    let games = [&m.sides[0].game, &m.sides[1].game];
    draw_versus(games, &board, colours, scratch, &mut canvas.pixels);
}

/// What the scoreboard says under a recorded match at its shown frame: who won.
pub(crate) fn verdict_line(m: &Match) -> Option<&'static str> {
    match m.winner() {
        Some(0) => Some("P1 WINS"),
        Some(_) => Some("P2 WINS"),
        None if m.finished() => Some("A DRAW"),
        None => None,
    }
}

/// Plays a versus match in a window until the players quit; saves it on exit. Without an
/// opponent it opens on the setup screen, and leaving that screen (B) plays nothing.
pub fn run_versus(options: VersusOptions) -> crate::error::Result<()> {
    let config = Config::load_or_create(&options.config_path)?;
    let event_loop =
        EventLoop::new().map_err(|e| WindowError::NoDisplay(without_source_location(&e)))?;
    let mut mode = VersusMode::new(
        options.ai,
        options.colours,
        halves(&config),
        options.save_to,
    );
    mode.me = options.me;
    mode.names = options.names;
    match options.opponent {
        Some(o) => {
            let m = match options.start {
                Some(g) => Match::from_start(options.setup, g),
                None => Match::new(options.setup),
            };
            mode.begin(m, o);
        }
        None => {
            let mut screen = VersusSetup::new(
                options.setup,
                ghost_files(&options.ghost_dir),
                Buttons::NONE,
            );
            screen.set_ghost_player(options.ghost_player);
            mode.setup = Some(screen);
        }
    }
    let mut app = VersusApp {
        mode,
        commands: Keyboard::new(KeyMap::new(&config.keys)),
        pads: Gamepads::new(&config.gamepad),
        audio: Audio::start(config.levels(), options.mute),
        pacer: None,
        screen: None,
        scale: options.scale.clamp(1, 8),
        error: None,
        done: false,
    };
    let result = event_loop.run_app(&mut app);
    app.finish();
    if let Some(e) = app.error {
        return Err(e);
    }
    result.map_err(|e| WindowError::EventLoop(e.to_string()))
}

/// The keyboard's two halves for two players at one keyboard, as the config binds them.
pub(crate) fn halves(config: &Config) -> [Keyboard; 2] {
    [
        Keyboard::new(KeyMap::new(&config.versus[0].bindings())),
        Keyboard::new(KeyMap::new(&config.versus[1].bindings())),
    ]
}

/// Where a match is saved by default: a session's name in `dir`, marked as versus.
pub fn match_path(dir: &Path) -> PathBuf {
    let name = nestris_replay::session::file_name(std::time::SystemTime::now())
        .replace(".nestris", "-versus.nestrisvs");
    dir.join(name)
}

/// A seed from the clock, for a match whose seed is not given.
pub fn clock_seed() -> u32 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    ((t ^ (t >> 24)) & 0xFF_FFFF) as u32
}

/// The AI as a versus player, frame by frame: each piece planned blind to the new
/// preview, then adjusted once `reaction` frames have passed (as `nestris ai --adjust`).
pub fn ai_player(model: InputModel, reaction: u8) -> impl FnMut(&Game) -> Buttons {
    let mut ai = Ai::new(Weights::default(), model);
    let mut plan: Vec<Buttons> = Vec::new();
    let mut at = 0;
    let mut need_plan = true;
    let mut since_spawn = 0u32;
    let mut clock = TapClock::new(model.taps);
    let mut adjusted = true;
    move |game: &Game| {
        let s = game.state();
        if s.phase() != PlayState::Control {
            need_plan = true;
        } else if need_plan {
            plan = if reaction == 0 {
                ai.search_mut().plan_in_game(game)
            } else {
                ai.search_mut().plan_blind(game)
            }
            .map(|p| p.inputs)
            .unwrap_or_default();
            at = 0;
            need_plan = false;
            since_spawn = 0;
            clock = TapClock::new(model.taps);
            adjusted = reaction == 0;
        } else if !adjusted && since_spawn >= u32::from(reaction) && clock.may_tap() {
            if let Some(p) = ai.search_mut().plan_in_game(game) {
                plan = p.inputs;
                at = 0;
            }
            adjusted = true;
        }
        let b = plan.get(at).copied().unwrap_or(Buttons::NONE);
        at += 1;
        since_spawn += 1;
        clock.step(b.bits() & !s.held != 0);
        b
    }
}

impl AiMaker {
    /// [`ai_player`] at the setup screen's tap rates ([`crate::versus_setup::AI_TAPS`]; a
    /// rate not there taps every 4 frames).
    pub fn standard() -> AiMaker {
        AiMaker(Box::new(|hz, reaction| {
            let frames = AI_TAPS
                .iter()
                .find(|&&(r, _)| r == hz)
                .map_or(4, |&(_, f)| f);
            Box::new(ai_player(InputModel::tapping(frames), reaction))
        }))
    }
}

/// The line said when a race starts from a game on the cartridge's generator.
pub const UNSEEDED_NOTE: &str = "that replay used the cartridge's generator (no seed): \
your pieces follow your own timing and can differ from the ghost's";

/// A ghost from a file, ready to race.
#[derive(Debug)]
pub struct Ghost {
    /// The match: a versus file's own, or for a single-player replay one game from its
    /// start ([`Ghost::start`]).
    pub setup: MatchSetup,
    /// The start both players play from, for a single-player replay.
    pub start: Option<Game>,
    /// The recorded player, frame by frame.
    pub opponent: Opponent,
    /// Said when the pieces can differ (the replay was not seeded).
    pub note: Option<&'static str>,
}

/// Frames a single-player replay is played through, looking for its game's start (the
/// menus from power-on take some hundreds).
pub const MAX_FRAMES_TO_GAME: usize = 1 << 20;

/// A ghost from a file: player `player` (0 or 1) of a versus match (`.nestrisvs`), or
/// the game of a single-player replay (`.nestris`), raced from where its game starts:
/// from its first frame in a game (after the menus of a power-on replay), with the same
/// state, seed and variant, so both players get the same pieces when it was seeded.
pub fn ghost_from_file(path: &Path, player: usize) -> Result<Ghost, String> {
    let shown = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    match VersusReplay::load(path) {
        Ok(r) => {
            let [a, b] = r.inputs;
            return Ok(Ghost {
                setup: r.setup,
                start: r.start.map(|g| *g),
                opponent: Opponent::Ghost(if player == 0 { a } else { b }),
                note: None,
            });
        }
        Err(nestris_versus::file::VersusFileError::NotVersus) => {}
        Err(e) => return Err(shown(&e)),
    }
    let replay = nestris_replay::Replay::load(path).map_err(|e| shown(&e))?;
    ghost_from_replay(&replay).ok_or_else(|| shown(&"no game is played in that replay"))
}

/// The ghost of a single-player replay's game ([`ghost_from_file`]); `None` if the
/// replay never reaches a game.
pub fn ghost_from_replay(replay: &nestris_replay::Replay) -> Option<Ghost> {
    let mut game = replay.game();
    let mut at = 0;
    while !game.state().in_game() {
        let b = *replay.inputs.get(at).filter(|_| at < MAX_FRAMES_TO_GAME)?;
        game.step(b);
        at += 1;
    }
    let s = game.state();
    let seed = s.variant.seed.map(|g| g.value());
    let setup = MatchSetup {
        region: s.region,
        level: s.level.min(19),
        seed: seed.unwrap_or(0),
        best_of: 1,
    };
    let inputs = replay.inputs[at..]
        .iter()
        .map(|&buttons| Input { buttons, game: 0 })
        .collect();
    Some(Ghost {
        setup,
        start: Some(game),
        opponent: Opponent::Ghost(inputs),
        note: seed.is_none().then_some(UNSEEDED_NOTE),
    })
}

/// Versus without the window's devices: the setup screen, a network match connecting,
/// and the match. `nestris versus` ([`run_versus`]) and the game's own window (the title
/// screen's versus key) both drive it, with their keyboard, pads and sound.
pub(crate) struct VersusMode {
    /// The match, once it is set up.
    session: Option<VersusSession>,
    /// The setup screen, while it shows.
    setup: Option<VersusSetup>,
    /// A network match being made, from the setup screen.
    connecting: Option<Connecting>,
    ai: Option<AiMaker>,
    names: [String; 2],
    me: usize,
    colours: LevelColours,
    local_two: bool,
    canvas: Canvas,
    menu_frame: Frame,
    /// The keyboard's two halves, when both players are here.
    halves: [Keyboard; 2],
    save_to: PathBuf,
    saved: bool,
}

impl VersusMode {
    /// Nothing set up yet: [`VersusMode::begin`] a match, or show the setup screen.
    pub(crate) fn new(
        ai: Option<AiMaker>,
        colours: LevelColours,
        halves: [Keyboard; 2],
        save_to: PathBuf,
    ) -> VersusMode {
        VersusMode {
            session: None,
            setup: None,
            connecting: None,
            ai,
            names: ["PLAYER 1".into(), "PLAYER 2".into()],
            me: 0,
            colours,
            local_two: false,
            canvas: Canvas::new(VERSUS_WIDTH, HEIGHT),
            menu_frame: Frame::with_size(VERSUS_WIDTH, HEIGHT),
            halves,
            save_to,
            saved: false,
        }
    }

    /// On the setup screen with `setup`'s first values and `ghosts` to choose from.
    pub(crate) fn setup_screen(
        mut self,
        setup: MatchSetup,
        ghosts: Vec<PathBuf>,
        held: Buttons,
    ) -> VersusMode {
        self.setup = Some(VersusSetup::new(setup, ghosts, held));
        self
    }

    /// The setup screen, while it shows.
    #[cfg(test)]
    pub(crate) fn setup(&self) -> Option<&VersusSetup> {
        self.setup.as_ref()
    }

    /// The match, once it plays.
    #[cfg(test)]
    pub(crate) fn session(&self) -> Option<&VersusSession> {
        self.session.as_ref()
    }

    /// Starts the match.
    fn begin(&mut self, m: Match, opponent: Opponent) {
        self.local_two = matches!(opponent, Opponent::Local);
        let mut session = VersusSession::of(m, opponent, self.me, self.names.clone());
        session.set_colours(self.colours);
        self.session = Some(session);
        self.setup = None;
    }

    /// The console's region (for the frame rate).
    pub(crate) fn region(&self) -> Option<Region> {
        match (&self.session, &self.setup) {
            (Some(s), _) => Some(s.state().setup.region),
            (None, Some(m)) => Some(m.chosen().setup.region),
            (None, None) => None,
        }
    }

    /// The setup screen's choice made an opponent: starts the match (or starts
    /// connecting), or says on the screen why not.
    fn play_chosen(&mut self, c: Chosen) {
        let (m, opponent) = match c.opponent {
            OpponentKind::Local => (Match::new(c.setup), Opponent::Local),
            OpponentKind::Ai => {
                let Some(make) = &self.ai else {
                    self.note("NO AI IN THIS BUILD");
                    return;
                };
                self.names[1] = format!("AI {}HZ", c.ai_hz);
                (
                    Match::new(c.setup),
                    Opponent::Ai((make.0)(c.ai_hz, c.ai_reaction)),
                )
            }
            OpponentKind::Ghost => {
                let Some(path) = &c.ghost else {
                    self.note("NO GHOST FILE");
                    return;
                };
                match ghost_from_file(path, c.ghost_player) {
                    Ok(g) => {
                        if let Some(note) = g.note {
                            eprintln!("nestris: {note}");
                        }
                        self.names[1] = "GHOST".into();
                        let m = match g.start {
                            Some(start) => Match::from_start(g.setup, start),
                            None => Match::new(g.setup),
                        };
                        (m, g.opponent)
                    }
                    Err(e) => {
                        eprintln!("nestris: {e}");
                        self.note("CANNOT READ THAT GHOST");
                        return;
                    }
                }
            }
            OpponentKind::NetHost | OpponentKind::NetJoin => {
                let Some(role) = c.net else {
                    // The screen refuses Start without a readable address.
                    return;
                };
                let lines = role.waiting_lines();
                match Connecting::start(role, c.setup) {
                    Ok(connecting) => {
                        self.connecting = Some(connecting);
                        if let Some(s) = &mut self.setup {
                            s.set_note(None);
                            s.set_waiting(Some(lines));
                        }
                    }
                    Err(e) => self.net_refused(&e),
                }
                return;
            }
        };
        self.begin(m, opponent);
    }

    /// A network match that could not be made: the reason under the settings.
    fn net_refused(&mut self, e: &nestris_versus::net::NetError) {
        eprintln!("nestris: {e}");
        self.connecting = None;
        if let Some(s) = &mut self.setup {
            s.set_waiting(None);
        }
        self.note(&format!("NO MATCH: {}", crate::network::error_line(e)));
    }

    /// Starts a network match once connected (the same as the flags `--host`/`--join`).
    fn begin_net(&mut self, net: NetMatch) {
        self.me = net.me;
        self.names = net.names();
        let setup = net.setup;
        self.begin(Match::new(setup), net.into_opponent());
    }

    fn note(&mut self, text: &str) {
        if let Some(s) = &mut self.setup {
            s.set_note(Some(text.into()));
        }
    }

    /// One frame, with the whole keyboard's buttons in `commands` (and its halves') and
    /// the pads'; effects go to `audio`. False once the setup screen was left (B).
    pub(crate) fn frame(
        &mut self,
        commands: &mut Keyboard,
        pads: &mut Gamepads,
        audio: &Audio,
    ) -> bool {
        if let Some(c) = &mut self.connecting {
            match c.poll() {
                None => {}
                Some(Ok(net)) => {
                    self.connecting = None;
                    self.begin_net(net);
                }
                Some(Err(e)) => self.net_refused(&e),
            }
        }
        if let Some(menu) = &mut self.setup {
            let b = commands.sample() | pads.sample();
            match menu.buttons(b) {
                SetupChoice::Choosing => {}
                SetupChoice::Leave => return false,
                SetupChoice::Cancel => self.cancel_connecting(),
                SetupChoice::Play(c) => self.play_chosen(c),
            }
            return true;
        }
        let Some(session) = &mut self.session else {
            return true;
        };
        let held = if self.local_two {
            let pads = pads.sample_two();
            [
                self.halves[0].sample() | pads[0],
                self.halves[1].sample() | pads[1],
            ]
        } else {
            [commands.sample() | pads.sample(), Buttons::NONE]
        };
        for sfx in session.frame(held) {
            audio.play(sfx);
        }
        true
    }

    fn cancel_connecting(&mut self) {
        if let Some(c) = self.connecting.take() {
            c.cancel();
        }
        if let Some(s) = &mut self.setup {
            s.set_waiting(None);
            s.set_note(Some("CANCELLED".into()));
        }
    }

    /// A key: fed to `commands` and the halves, and typed into the setup screen's text or
    /// seed entry when one is open (`text`: what the key types). Returns the command for
    /// the caller (quit, mute, fullscreen); while text is typed, only quit (Esc: see
    /// [`VersusMode::escape`]).
    pub(crate) fn key(
        &mut self,
        commands: &mut Keyboard,
        code: KeyCode,
        pressed: bool,
        repeat: bool,
        text: Option<&str>,
    ) -> Option<Command> {
        let command = commands.on_key(code, pressed, repeat);
        for h in &mut self.halves {
            h.on_key(code, pressed, repeat);
        }
        let Some(menu) = self.setup.as_mut().filter(|_| pressed) else {
            return command;
        };
        if menu.typing() {
            // Held Backspace repeats, as in any text box.
            if code == KeyCode::Backspace {
                menu.backspace();
            } else if !repeat {
                text.unwrap_or("").chars().for_each(|c| menu.type_char(c));
            }
            return command.filter(|&c| c == Command::Quit);
        }
        if menu.entering_seed() && !repeat {
            text.unwrap_or("").chars().for_each(|c| menu.type_char(c));
        }
        command
    }

    /// Esc: closes a text or seed entry, or stops connecting; true when there was none,
    /// and versus is to be left.
    pub(crate) fn escape(&mut self) -> bool {
        if self.connecting.is_some() {
            self.cancel_connecting();
            return false;
        }
        !self.setup.as_mut().is_some_and(VersusSetup::back)
    }

    /// The window lost the keyboard: no key is held any more.
    pub(crate) fn focus_lost(&mut self) {
        self.halves.iter_mut().for_each(Keyboard::release_all);
    }

    /// Draws the setup screen or the match.
    pub(crate) fn draw(&mut self) -> &Canvas {
        if let Some(session) = &mut self.session {
            session.draw(&mut self.canvas);
        } else if let Some(menu) = &self.setup {
            menu.draw(&mut self.menu_frame);
            self.canvas.blit_frame(&self.menu_frame);
        }
        &self.canvas
    }

    /// Leaves: stops connecting, tells a network opponent, and saves the match if one
    /// was played (safe to call more than once). Returns where it was saved.
    pub(crate) fn finish(&mut self) -> std::io::Result<Option<&Path>> {
        if let Some(c) = self.connecting.take() {
            c.cancel();
        }
        if self.saved {
            return Ok(None);
        }
        self.saved = true;
        let Some(session) = &mut self.session else {
            return Ok(None);
        };
        session.leave();
        let replay = session.replay();
        if replay.inputs.iter().all(Vec::is_empty) {
            return Ok(None);
        }
        match replay.save(&self.save_to) {
            Ok(()) => Ok(Some(&self.save_to)),
            Err(e) => Err(std::io::Error::other(format!(
                "could not save the match {}: {e}",
                self.save_to.display()
            ))),
        }
    }
}

struct VersusApp {
    mode: VersusMode,
    /// The whole keyboard: quit, mute, fullscreen, and one local player's buttons.
    commands: Keyboard,
    pads: Gamepads,
    audio: Audio,
    pacer: Option<FramePacer>,
    screen: Option<Screen>,
    scale: u32,
    error: Option<WindowError>,
    done: bool,
}

impl VersusApp {
    fn finish(&mut self) {
        if self.done {
            return;
        }
        self.done = true;
        match self.mode.finish() {
            Ok(Some(path)) => eprintln!("nestris: the match: {}", path.display()),
            Ok(None) => {}
            Err(e) => {
                if self.error.is_none() {
                    self.error = Some(WindowError::NotSaved(e));
                }
            }
        }
    }

    /// Runs the frames due; false when none was, or when the setup screen was left.
    fn run_due_frames(&mut self, event_loop: &ActiveEventLoop) -> bool {
        if self.screen.is_none() {
            return false;
        }
        let Some(region) = self.mode.region() else {
            return false;
        };
        let pacer = self
            .pacer
            .get_or_insert_with(|| FramePacer::new(Instant::now(), region.frame_rate()));
        let mut ran = 0;
        while ran < MAX_CATCH_UP && pacer.is_due(Instant::now()) {
            pacer.advance(Instant::now());
            ran += 1;
            if !self
                .mode
                .frame(&mut self.commands, &mut self.pads, &self.audio)
            {
                self.finish();
                event_loop.exit();
                return false;
            }
        }
        ran > 0
    }

    fn present(&mut self) -> crate::error::Result<()> {
        let Some(screen) = &mut self.screen else {
            return Ok(());
        };
        screen.present(self.mode.draw())
    }
}

impl ApplicationHandler for VersusApp {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.screen.is_some() {
            return;
        }
        match Screen::open(
            event_loop,
            VERSUS_TITLE,
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
                self.mode.focus_lost();
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
                let text = event.text.as_deref();
                match self
                    .mode
                    .key(&mut self.commands, code, pressed, event.repeat, text)
                {
                    // (Else it closed an entry or stopped a connection.)
                    Some(Command::Quit) if self.mode.escape() => {
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

/// The versus window's title.
pub(crate) const VERSUS_TITLE: &str = "nestris versus";

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

    /// A seeded single-player replay: level 18, shifts, turns and soft drops.
    fn seeded_replay() -> nestris_replay::Replay {
        use nestris_core::{GameSetup, GymSeed, SeedRule, Variant};
        let setup = GameSetup {
            level: 18,
            variant: Variant {
                seed: GymSeed::new(0x5EED01, SeedRule::V5),
                ..Variant::CARTRIDGE
            },
            ..GameSetup::default()
        };
        let mut r = nestris_replay::Replay::new(nestris_replay::Start::Setup(setup));
        let mut game = r.game();
        let mut f = 0u32;
        while !game.is_over() && f < 20_000 {
            let b = match f % 23 {
                0 if f % 46 == 0 => Buttons::LEFT,
                0 => Buttons::RIGHT,
                4 => Buttons::A,
                10..16 => Buttons::DOWN,
                _ => Buttons::NONE,
            };
            game.step(b);
            r.inputs.push(b);
            f += 1;
        }
        r.seal();
        r
    }

    /// The pieces a game is dealt as it is played by `play`, until `n` are dealt.
    fn dealt(mut game: Game, n: usize, mut play: impl FnMut(u32) -> Buttons) -> Vec<u8> {
        let mut out = Vec::new();
        let mut last = None;
        let mut f = 0;
        while out.len() < n && !game.is_over() {
            game.step(play(f));
            f += 1;
            let s = game.state();
            if last != Some(s.stats) {
                last = Some(s.stats);
                out.push(s.next_piece);
            }
        }
        out
    }

    #[test]
    fn a_seeded_single_player_replay_is_raced_as_a_ghost_on_the_same_pieces() {
        let replay = seeded_replay();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("best.nestris");
        std::fs::write(&path, replay.to_bytes()).unwrap();
        let ghost = ghost_from_file(&path, 0).unwrap();
        assert_eq!(ghost.note, None, "seeded: the same pieces");
        assert_eq!(ghost.setup.seed, 0x5EED01);
        assert_eq!(ghost.start.as_ref(), Some(&replay.game()));
        let mut race = VersusSession::race(ghost, 0, names());
        // The ghost side is the replay's own game, frame by frame; the local player, who
        // only drops, plays another game from the same start.
        let mut own = replay.game();
        for (f, &b) in replay.inputs.iter().enumerate() {
            own.step(b);
            race.frame([Buttons::DOWN, Buttons::NONE]);
            assert_eq!(race.state().sides[1].game, own, "frame {f}");
        }
        assert!(own.is_over());
        assert_eq!(race.replay().verify().unwrap().sides[1].game, own);
        // Both are dealt the same pieces whatever their timing.
        let theirs = dealt(replay.game(), 10, |f| replay.inputs[f as usize]);
        let mine = dealt(replay.game(), 10, |_| Buttons::DOWN);
        assert_eq!(theirs, mine);
        assert_eq!(theirs.len(), 10);
        let mut c = Canvas::new(VERSUS_WIDTH, HEIGHT);
        race.draw(&mut c);
    }

    #[test]
    fn a_power_on_replay_is_raced_from_its_game_and_said_to_be_unseeded() {
        // Through the menus from power-on, Start every 21 frames, then soft drops.
        let mut r = nestris_replay::Replay::new(nestris_replay::Start::PowerOn(Region::Ntsc));
        for f in 0..1200usize {
            r.inputs.push(match f {
                270..354 if (f - 270) % 21 == 0 => Buttons::START,
                0..354 => Buttons::NONE,
                _ if f % 3 == 0 => Buttons::DOWN,
                _ => Buttons::NONE,
            });
        }
        let g = ghost_from_replay(&r).unwrap();
        assert_eq!(g.note, Some(UNSEEDED_NOTE));
        let start = g.start.clone().unwrap();
        assert!(start.state().in_game());
        let Opponent::Ghost(frames) = &g.opponent else {
            panic!("a ghost")
        };
        let frames = frames.len();
        let skipped = r.inputs.len() - frames;
        assert!(skipped > 270, "the menus are skipped: {skipped}");
        let mut race = VersusSession::race(g, 0, names());
        assert!(!race.state().seeded());
        assert_eq!(race.message().as_deref(), Some("PIECES VARY"));
        let mut own = r.game();
        for &b in &r.inputs {
            own.step(b);
        }
        for _ in 0..frames {
            race.frame([Buttons::NONE, Buttons::NONE]);
        }
        assert_eq!(race.state().sides[1].game, own);
        // A replay that never reaches a game has no ghost.
        let mut menus = nestris_replay::Replay::new(nestris_replay::Start::PowerOn(Region::Ntsc));
        menus.inputs = vec![Buttons::NONE; 100];
        assert!(ghost_from_replay(&menus).is_none());
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

    /// A port nobody listens on (it was free a moment ago).
    fn free_port() -> u16 {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }

    /// A versus mode on its setup screen, and the devices that drive it.
    struct Driven {
        mode: VersusMode,
        keys: Keyboard,
        pads: Gamepads,
        audio: Audio,
    }

    impl Driven {
        fn new() -> Driven {
            let config = Config::default();
            let dir = std::env::temp_dir();
            Driven {
                mode: VersusMode::new(
                    None,
                    LevelColours::Classic,
                    halves(&config),
                    dir.join("never-saved.nestrisvs"),
                )
                .setup_screen(setup(), Vec::new(), Buttons::NONE),
                keys: Keyboard::new(KeyMap::new(&config.keys)),
                pads: Gamepads::new(&config.gamepad),
                audio: Audio::none(),
            }
        }

        /// One frame; false once versus is left.
        fn frame(&mut self) -> bool {
            self.mode.frame(&mut self.keys, &mut self.pads, &self.audio)
        }

        /// A key pressed (typing `text`), a frame, released, a frame; the command it gave.
        fn tap(&mut self, code: KeyCode, text: Option<&str>) -> Option<Command> {
            let c = self.mode.key(&mut self.keys, code, true, false, text);
            self.frame();
            self.mode.key(&mut self.keys, code, false, false, None);
            self.frame();
            c
        }

        /// X (A) on a text row, the old text erased, `text` typed, Enter to keep it.
        fn type_in(&mut self, text: &str) {
            self.tap(KeyCode::KeyX, Some("x"));
            assert!(self.mode.setup().unwrap().typing());
            for _ in 0..crate::network::MAX_ADDRESS {
                self.tap(KeyCode::Backspace, None);
            }
            for c in text.chars() {
                // The letter keys' commands (M mutes) do nothing while typing.
                assert_eq!(self.tap(KeyCode::KeyM, None), None);
                self.tap(KeyCode::Digit0, Some(&c.to_string()));
            }
            self.tap(KeyCode::Enter, None);
            assert!(!self.mode.setup().unwrap().typing());
        }

        fn row(&self) -> &'static str {
            let s = self.mode.setup().unwrap();
            s.values()[s.cursor()].0
        }
    }

    #[test]
    fn the_setup_screen_hosts_the_match_the_host_flag_does() {
        let mut d = Driven::new();
        while d.mode.setup().unwrap().chosen().opponent != OpponentKind::NetHost {
            d.tap(KeyCode::ArrowRight, None);
        }
        while d.row() != "PORT" {
            d.tap(KeyCode::ArrowDown, None);
        }
        // A port nobody uses, typed.
        let port = free_port();
        d.type_in(&port.to_string());
        assert_eq!(
            d.mode.setup().unwrap().chosen().net,
            Some(crate::network::NetRole::Host(port))
        );
        d.tap(KeyCode::Enter, None);
        assert!(d.mode.setup().unwrap().waiting(), "waiting for a guest");
        // The guest joins from here: the match is this screen's, and this side player 1.
        let guest = std::thread::spawn(move || {
            nestris_versus::net::join(&format!("127.0.0.1:{port}")).map(|(_, s)| s)
        });
        let deadline = Instant::now() + std::time::Duration::from_secs(30);
        while d.mode.session().is_none() {
            assert!(d.frame());
            assert!(Instant::now() < deadline, "never connected");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        assert_eq!(guest.join().unwrap().unwrap(), setup());
        let s = d.mode.session().unwrap();
        assert_eq!(s.me, 0);
        assert_eq!(s.names, ["YOU".to_string(), "GUEST".to_string()]);
        assert!(matches!(s.opponent, Opponent::Net(_)));
        assert_eq!(s.state().setup, setup());
    }

    #[test]
    fn esc_cancels_a_host_that_waits_and_a_refused_join_is_said_on_the_screen() {
        let mut d = Driven::new();
        while d.mode.setup().unwrap().chosen().opponent != OpponentKind::NetHost {
            d.tap(KeyCode::ArrowRight, None);
        }
        d.tap(KeyCode::ArrowDown, None);
        let port = free_port();
        d.type_in(&port.to_string());
        d.tap(KeyCode::Enter, None);
        assert_eq!(
            d.mode.connecting.as_ref().and_then(Connecting::port),
            Some(port)
        );
        assert_eq!(d.tap(KeyCode::Escape, None), Some(Command::Quit));
        assert!(!d.mode.escape(), "Esc stops the wait, not versus");
        let s = d.mode.setup().unwrap();
        assert!(!s.waiting() && d.mode.connecting.is_none());
        assert_eq!(s.notes()[2], "CANCELLED");
        // The port is free again (once the waiting thread has ended).
        let deadline = Instant::now() + std::time::Duration::from_secs(30);
        while std::net::TcpListener::bind(("0.0.0.0", port)).is_err() {
            assert!(Instant::now() < deadline, "the port stays taken");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        // Joining a port where nobody listens.
        d.tap(KeyCode::ArrowUp, None);
        d.tap(KeyCode::ArrowRight, None);
        d.tap(KeyCode::ArrowDown, None);
        assert_eq!(d.row(), "ADDRESS");
        d.type_in(&format!("127.0.0.1:{}", free_port()));
        d.tap(KeyCode::Enter, None);
        let deadline = Instant::now() + std::time::Duration::from_secs(30);
        while d.mode.setup().unwrap().waiting() {
            assert!(d.frame());
            assert!(Instant::now() < deadline, "never refused");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let note = d.mode.setup().unwrap().notes()[2].clone();
        assert!(
            note.starts_with("NO MATCH: ") && note.contains("REFUSED"),
            "{note}"
        );
        assert!(d.mode.session().is_none());
        // With nothing open, Esc leaves versus; so does B.
        assert!(d.mode.escape());
        assert!(d.frame());
        d.mode
            .key(&mut d.keys, KeyCode::KeyZ, true, false, Some("z"));
        assert!(!d.frame(), "B leaves");
        assert_eq!(d.mode.finish().unwrap(), None, "no match, no file");
    }
}
