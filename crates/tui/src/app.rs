//! The main loop: wait for the frame's deadline while reading keys, sample the buttons,
//! step the game once, draw; plus the front end's own flow (quit dialog, game over, new
//! game), which replaces the cartridge's endings, name entry and menus.

use std::io::{stdout, BufWriter, IsTerminal};
use std::time::Instant;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use nestris_core::bcd::score_value;
use nestris_core::{FrameEvents, Game};
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::Terminal;

use crate::draw::{self, Overlay, View};
use crate::input::{HoldMode, KeyState};
use crate::options::TuiOptions;
use crate::pacing::FramePacer;
use crate::term::TerminalGuard;

/// Frames in a row that may go undrawn while the loop catches up with its schedule.
const MAX_SKIPPED_DRAWS: u32 = 6;

/// Plays in the terminal until the player quits.
///
/// Takes over the terminal (raw mode, alternate screen, the kitty keyboard protocol where
/// available) and restores it on return, on error and on panic.
pub fn run(options: TuiOptions) -> anyhow::Result<()> {
    options.validate().map_err(anyhow::Error::msg)?;
    if !stdout().is_terminal() {
        anyhow::bail!("the terminal front end needs a terminal on standard output");
    }
    let guard = TerminalGuard::enter()?;
    // Frames are written whole: one flush per frame instead of one per kilobyte.
    let backend = CrosstermBackend::new(BufWriter::with_capacity(1 << 16, stdout()));
    let mut terminal = Terminal::new(backend)?;
    terminal.clear()?;
    let mut session = Session::new(options, guard.hold_mode());
    let result = play(&mut terminal, &mut session, options);
    drop(terminal);
    drop(guard);
    result
}

fn play<B: Backend>(
    terminal: &mut Terminal<B>,
    session: &mut Session,
    options: TuiOptions,
) -> anyhow::Result<()> {
    let mut pacer = FramePacer::new(Instant::now(), options.region.frame_rate());
    let mut skipped = 0;
    loop {
        // Read keys as they come until the frame is due, so each has its own timestamp
        // (the estimated holding needs them), then whatever is still queued.
        loop {
            let wait = pacer.deadline().saturating_duration_since(Instant::now());
            if !event::poll(wait)? {
                break;
            }
            if session.on_event(event::read()?, Instant::now()) == Flow::Quit {
                return Ok(());
            }
        }
        let now = Instant::now();
        session.frame(now);
        pacer.advance(now);
        if pacer.is_late(Instant::now()) && skipped < MAX_SKIPPED_DRAWS {
            // Behind schedule (a slow terminal): keep the game's pace, drop the picture.
            skipped += 1;
            continue;
        }
        skipped = 0;
        terminal.draw(|f| draw::render(&session.game, &session.view, f.area(), f.buffer_mut()))?;
    }
}

/// Whether the loop goes on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Flow {
    Continue,
    Quit,
}

/// The game on screen and everything around it, without the terminal.
#[derive(Debug)]
pub(crate) struct Session {
    options: TuiOptions,
    game_index: u64,
    pub(crate) game: Game,
    pub(crate) view: View,
    keys: KeyState,
}

impl Session {
    pub(crate) fn new(options: TuiOptions, hold_mode: HoldMode) -> Session {
        let game = Game::new(options.setup(0));
        let mut view = View {
            hold_estimated: hold_mode == HoldMode::Estimated,
            seed: options.seed,
            ..View::default()
        };
        view.clear.observe(game.state());
        Session {
            options,
            game_index: 0,
            game,
            view,
            keys: KeyState::new(hold_mode),
        }
    }

    pub(crate) fn on_event(&mut self, ev: Event, now: Instant) -> Flow {
        match ev {
            Event::Key(key) => self.on_key(key, now),
            // Releases made elsewhere never arrive: forget what was held.
            Event::FocusLost => {
                self.keys.release_all();
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }

    fn on_key(&mut self, key: KeyEvent, now: Instant) -> Flow {
        // Dialogs still track game keys, so that releases made meanwhile are not lost.
        self.keys.on_key(&key, now);
        if key.kind != KeyEventKind::Press {
            return Flow::Continue;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Flow::Quit;
        }
        match (self.view.overlay, key.code) {
            (Overlay::None, KeyCode::Esc) => self.view.overlay = Overlay::ConfirmQuit,
            (Overlay::ConfirmQuit, KeyCode::Esc | KeyCode::Char('y' | 'Y')) => return Flow::Quit,
            (Overlay::ConfirmQuit, KeyCode::Char('n' | 'N')) => {
                self.view.overlay = Overlay::None;
                self.keys.suppress_held(now);
            }
            (Overlay::GameOver { .. }, KeyCode::Esc | KeyCode::Char('q' | 'Q')) => {
                return Flow::Quit
            }
            (Overlay::GameOver { .. }, KeyCode::Enter) => self.new_game(now),
            _ => {}
        }
        Flow::Continue
    }

    fn new_game(&mut self, now: Instant) {
        self.game_index += 1;
        self.game = Game::new(self.options.setup(self.game_index));
        self.view.seed = self.options.seed.wrapping_add(self.game_index);
        self.view.overlay = Overlay::None;
        self.view.clear = Default::default();
        self.view.clear.observe(self.game.state());
        // The Enter that started this game must not pause it on its first frame.
        self.keys.suppress_held(now);
    }

    /// One frame at `now`: sample the buttons and step, unless a dialog holds the game.
    pub(crate) fn frame(&mut self, now: Instant) {
        if self.view.overlay != Overlay::None {
            return;
        }
        let buttons = self.keys.sample(now);
        let events = self.game.step(buttons);
        let s = self.game.state();
        self.view.clear.observe(s);
        // The front end takes over from the cartridge's own flow (endings, name entry,
        // menus) as soon as the game is decided: the curtain has closed, the B-type goal
        // was reached, or the engine has left play some other way.
        let won = events.has(FrameEvents::B_TYPE_WON);
        let left_play = s.game_mode != 4 || !matches!(s.render_mode, 0 | 3);
        if won || left_play || s.play_state == 0 || (s.play_state == 10 && s.curtain_row == 20) {
            self.view.top = self.view.top.max(score_value(s.score));
            self.view.overlay = Overlay::GameOver {
                cleared: won || (s.game_type == 1 && s.lines[0] == 0),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;
    use nestris_core::GameType;
    use std::time::Duration;

    fn key(code: KeyCode, kind: KeyEventKind) -> Event {
        Event::Key(KeyEvent {
            code,
            modifiers: KeyModifiers::NONE,
            kind,
            state: KeyEventState::NONE,
        })
    }

    fn press(code: KeyCode) -> Event {
        key(code, KeyEventKind::Press)
    }

    fn frames(s: &mut Session, t: &mut Instant, n: usize) {
        for _ in 0..n {
            *t += Duration::from_millis(16);
            s.frame(*t);
        }
    }

    #[test]
    fn esc_asks_before_quitting() {
        let mut t = Instant::now();
        let mut s = Session::new(TuiOptions::default(), HoldMode::Reported);
        assert_eq!(s.on_event(press(KeyCode::Esc), t), Flow::Continue);
        assert_eq!(s.view.overlay, Overlay::ConfirmQuit);
        // The game stands still behind the dialog.
        let before = s.game.clone();
        frames(&mut s, &mut t, 10);
        assert_eq!(s.game, before);
        assert_eq!(s.on_event(press(KeyCode::Char('n')), t), Flow::Continue);
        assert_eq!(s.view.overlay, Overlay::None);
        frames(&mut s, &mut t, 1);
        assert_ne!(s.game, before);
        s.on_event(press(KeyCode::Esc), t);
        assert_eq!(s.on_event(press(KeyCode::Char('y')), t), Flow::Quit);
    }

    #[test]
    fn held_keys_drive_the_game() {
        let mut t = Instant::now();
        let mut s = Session::new(TuiOptions::default(), HoldMode::Reported);
        let x0 = s.game.state().x;
        s.on_event(press(KeyCode::Right), t);
        frames(&mut s, &mut t, 1);
        s.on_event(key(KeyCode::Right, KeyEventKind::Release), t);
        frames(&mut s, &mut t, 1);
        assert_eq!(s.game.state().x, x0 + 1);
    }

    #[test]
    fn game_over_offers_a_new_game_or_quit() {
        let mut t = Instant::now();
        let options = TuiOptions {
            level: 19,
            seed: 40,
            ..TuiOptions::default()
        };
        let mut s = Session::new(options, HoldMode::Reported);
        // A stack up to row 2 with a hole in every row: the game tops out soon.
        let mut snap = s.game.snapshot();
        for row in 2..20 {
            snap.playfield.0[row * 10..row * 10 + 9].fill(0x7B);
        }
        snap.score = [0x00, 0x50, 0x02];
        s.game = Game::from_snapshot(snap).unwrap();
        for _ in 0..2000 {
            frames(&mut s, &mut t, 1);
            if s.view.overlay != Overlay::None {
                break;
            }
        }
        assert_eq!(s.view.overlay, Overlay::GameOver { cleared: false });
        assert_eq!(s.view.top, 25_000);
        // Enter starts the next seed's game; the held Enter is not its first Start.
        s.on_event(press(KeyCode::Enter), t);
        assert_eq!(s.view.overlay, Overlay::None);
        assert_eq!(s.view.seed, 41);
        assert_eq!(s.game.state().rng, Game::new(options.setup(1)).state().rng);
        frames(&mut s, &mut t, 5);
        assert_eq!(s.game.state().render_mode, 3, "not paused");
        // Game over again, then Q quits.
        s.view.overlay = Overlay::GameOver { cleared: false };
        assert_eq!(s.on_event(press(KeyCode::Char('q')), t), Flow::Quit);
    }

    #[test]
    fn reaching_the_b_type_goal_ends_the_game_as_cleared() {
        let mut t = Instant::now();
        let options = TuiOptions {
            level: 19,
            game_type: GameType::B,
            ..TuiOptions::default()
        };
        let mut s = Session::new(options, HoldMode::Reported);
        // One line to go, and the spawned I will complete row 19 (after the first frame,
        // which still blanks the B-type field to its height).
        s.game.step(nestris_core::Buttons::NONE);
        let mut snap = s.game.snapshot();
        for col in [0, 1, 2, 7, 8, 9] {
            snap.playfield.0[190 + col] = 0x7C;
        }
        snap.lines = [0x01, 0];
        snap.piece = 18;
        snap.autorepeat_y = 0;
        s.game = Game::from_snapshot(snap).unwrap();
        for _ in 0..600 {
            frames(&mut s, &mut t, 1);
            if s.view.overlay != Overlay::None {
                break;
            }
        }
        assert_eq!(s.view.overlay, Overlay::GameOver { cleared: true });
    }

    #[test]
    fn ctrl_c_always_quits() {
        let mut s = Session::new(TuiOptions::default(), HoldMode::Estimated);
        let ev = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert_eq!(s.on_event(ev, Instant::now()), Flow::Quit);
        assert!(s.view.hold_estimated);
    }
}
