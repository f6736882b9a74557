//! The main loop: wait for the frame's deadline while reading keys, sample the buttons,
//! step the game once, draw. The game is the cartridge from power-on (legal screen,
//! title, menus, play, endings, name entry); the front end adds only the quit question.

use nestris_replay::session::{session_path, Recording};
use std::io::{stdout, BufWriter, IsTerminal};
use std::time::Instant;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use nestris_core::{Buttons, DemoData, Game};
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::Terminal;

use crate::draw::{self, Overlay, View};
use crate::input::{HoldMode, KeyState};
use crate::options::TuiOptions;
use crate::term::TerminalGuard;
use nestris_core::flow::HighScores;
use nestris_host::pacing::{FramePacer, MAX_CATCH_UP};
use nestris_host::store::{power_on_with, ScoreKeeper, HIGH_SCORES_FILE};

use crate::error::TuiError;

/// Switches the console on in the terminal and plays until the player quits.
///
/// Takes over the terminal (raw mode, alternate screen, the kitty keyboard protocol where
/// available) and restores it on return, on error and on panic.
pub fn run(options: TuiOptions) -> Result<(), TuiError> {
    run_with_pilot(options, None)
}

/// Something that plays instead of the keyboard: given the game after the last frame, the
/// buttons for the next one (the AI, for `nestris play --tui --ai`).
pub type Pilot = Box<dyn FnMut(&Game) -> Buttons>;

/// [`run`] with the buttons coming from `pilot` instead of the keyboard (the keyboard
/// still quits).
pub fn run_with_pilot(options: TuiOptions, pilot: Option<Pilot>) -> Result<(), TuiError> {
    options.validate().map_err(TuiError::Options)?;
    if !stdout().is_terminal() {
        return Err(TuiError::NotATerminal);
    }
    let guard = TerminalGuard::enter()?;
    // Frames are written whole: one flush per frame instead of one per kilobyte.
    let backend = CrosstermBackend::new(BufWriter::with_capacity(1 << 16, stdout()));
    let mut terminal = Terminal::new(backend)?;
    terminal.clear()?;
    let region = options.console_region();
    let mut session = Session::new(options, guard.hold_mode());
    session.pilot = pilot;
    let result = play(&mut terminal, &mut session, region);
    drop(terminal);
    drop(guard);
    let saved = session.finish_recording();
    result.and(saved)
}

fn play<B: Backend>(
    terminal: &mut Terminal<B>,
    session: &mut Session,
    region: nestris_core::Region,
) -> Result<(), TuiError> {
    let mut pacer = FramePacer::new(Instant::now(), region.frame_rate());
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
        let size = terminal.size()?;
        session.visible = draw::fits(ratatui::layout::Rect::new(0, 0, size.width, size.height));
        session.frame(now);
        pacer.advance(now);
        if pacer.is_late(Instant::now()) && skipped + 1 < MAX_CATCH_UP {
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

/// The console and everything around it, without the terminal.
pub(crate) struct Session {
    pub(crate) game: Game,
    pub(crate) view: View,
    keys: KeyState,
    /// `--quick`: the level the menus are pressed through to, until the game starts.
    quick: Option<u8>,
    /// The session's replay, when a replay folder was given.
    recording: Option<Recording>,
    /// Who presses the buttons, when not the keyboard.
    pilot: Option<Pilot>,
    /// The demo's tables: the user's cartridge's (`--rom`) or nestris's own.
    demo: DemoData,
    /// The kept high-score table.
    scores: ScoreKeeper,
    /// The terminal shows the field; while it does not (too small), the game waits.
    pub(crate) visible: bool,
    /// Frames left to show `view.notice`.
    notice_left: u32,
    /// A practice start (a trainer's game): the high-score table is not kept, since
    /// the game is not one the cartridge deals.
    practising: bool,
}

/// How long a notice of data not kept stays on the notice line (5 s).
const NOTICE_FRAMES: u32 = 300;

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("game", &self.game)
            .field("quick", &self.quick)
            .field("recording", &self.recording)
            .field("pilot", &self.pilot.is_some())
            .field("cartridge_demo", &(self.demo != DemoData::BUILTIN))
            .finish_non_exhaustive()
    }
}

impl Session {
    pub(crate) fn new(options: TuiOptions, hold_mode: HoldMode) -> Session {
        let (scores, table) = match &options.data_dir {
            Some(dir) => ScoreKeeper::open(dir.join(HIGH_SCORES_FILE)),
            None => (
                ScoreKeeper::new(None, HighScores::default()),
                HighScores::default(),
            ),
        };
        let region = options.console_region();
        let mut game = power_on_with(region, table);
        let practising = options.start.is_some();
        if let Some(start) = options.start {
            // The kept table in its memory, as the console's would be.
            let mut s = start.snapshot();
            s.flow.high_scores = game.state().flow.high_scores.clone();
            game = Game::from_snapshot(s).unwrap_or(start);
        }
        let view = View {
            hold_estimated: hold_mode == HoldMode::Estimated,
            ..View::default()
        };
        let recording =
            options
                .replay_dir
                .as_ref()
                .and_then(|dir| match std::fs::create_dir_all(dir) {
                    Ok(()) => Some(
                        Recording::new(
                            session_path(dir, std::time::SystemTime::now()),
                            region,
                            options.rom_demo.clone(),
                        )
                        .with_crash_mode(options.crash_mode)
                        .starting_from(&game),
                    ),
                    Err(e) => {
                        eprintln!(
                        "nestris: warning: cannot create the replay folder {}: {e}; not recording",
                        dir.display()
                    );
                        None
                    }
                });
        game.set_crash_mode(options.crash_mode);
        Session {
            game,
            view,
            scores,
            keys: KeyState::new(hold_mode),
            quick: options.quick,
            recording,
            pilot: None,
            demo: options.rom_demo.unwrap_or(DemoData::BUILTIN),
            visible: true,
            notice_left: 0,
            practising,
        }
    }

    /// Saves the rest of the replay and the high scores (on exit). An error if the
    /// session's replay could not be written whole: the program then exits non-zero.
    pub(crate) fn finish_recording(&mut self) -> Result<(), TuiError> {
        self.keep_scores(Instant::now(), true);
        match &mut self.recording {
            Some(r) => r.finish().map_err(|e| {
                TuiError::NotSaved(format!(
                    "could not save the replay {}: {e}",
                    r.path().display()
                ))
            }),
            None => Ok(()),
        }
    }

    /// Puts what could not be kept on the notice line, and clears it when its time is up.
    fn show_notices(&mut self) {
        let recording = self.recording.as_mut().and_then(Recording::take_notice);
        if let Some(text) = self.scores.take_notice().or(recording) {
            self.view.notice = Some(text.to_lowercase());
            self.notice_left = NOTICE_FRAMES;
        } else if self.notice_left > 0 {
            self.notice_left -= 1;
            if self.notice_left == 0 {
                self.view.notice = None;
            }
        }
    }

    /// True while a game is under way (play, pause, curtain, ending, name entry): the
    /// only time quitting asks first, since only then is something lost.
    fn in_game(&self) -> bool {
        self.game.state().in_game()
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
        // The dialog still tracks game keys, so that releases made meanwhile are not lost.
        self.keys.on_key(&key, now);
        if key.kind != KeyEventKind::Press {
            return Flow::Continue;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Flow::Quit;
        }
        match (self.view.overlay, key.code) {
            (Overlay::None, KeyCode::Esc | KeyCode::Char('q' | 'Q')) => {
                if !self.in_game() {
                    return Flow::Quit;
                }
                self.view.overlay = Overlay::ConfirmQuit;
            }
            (Overlay::ConfirmQuit, KeyCode::Esc | KeyCode::Char('y' | 'Y')) => return Flow::Quit,
            (Overlay::ConfirmQuit, KeyCode::Char('n' | 'N')) => {
                self.view.overlay = Overlay::None;
                // Keys held through the dialog must not act as fresh presses afterwards.
                self.keys.suppress_held(now);
            }
            _ => {}
        }
        Flow::Continue
    }

    /// One frame at `now`: sample the buttons and step, unless the dialog holds the game
    /// or the field cannot be seen.
    pub(crate) fn frame(&mut self, now: Instant) {
        if self.view.overlay != Overlay::None || !self.visible {
            return;
        }
        let mut buttons = self.keys.sample(now);
        if let Some(pilot) = &mut self.pilot {
            buttons = pilot(&self.game);
        }
        if let Some(level) = self.quick {
            if self.in_game() {
                self.quick = None;
            } else if buttons == Buttons::NONE {
                // The player's own keys win, so the menus stay usable meanwhile.
                buttons = nestris_core::quick::buttons(self.game.state(), level);
            }
        }
        let ev = self.game.step_with_demo(buttons, &self.demo);
        self.view.tally.observe(&ev, self.game.state());
        if let Some(r) = &mut self.recording {
            r.push(buttons);
            r.observe(&self.game);
            r.tick(now);
        }
        self.keep_scores(now, false);
        self.show_notices();
    }

    /// Keeps the high-score table (see `ScoreKeeper::keep`), unless practising.
    fn keep_scores(&mut self, now: Instant, force: bool) {
        if !self.practising {
            self.scores
                .keep(&self.game.state().flow.high_scores, now, force);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;
    use nestris_core::Region;
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

    /// A key tapped (pressed and released) before the next frame, then 20 frames.
    fn tap(s: &mut Session, t: &mut Instant, code: KeyCode) {
        s.on_event(press(code), *t);
        s.on_event(key(code, KeyEventKind::Release), *t);
        frames(s, t, 20);
    }

    /// Power-on to play through the cartridge's own screens, with Enter as Start.
    /// The one replay a session recorded into `dir`.
    fn only_replay_in(dir: &std::path::Path) -> nestris_replay::Replay {
        let file = std::fs::read_dir(dir)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        nestris_replay::Replay::from_bytes(&std::fs::read(file).unwrap()).unwrap()
    }

    fn to_play(s: &mut Session, t: &mut Instant) {
        frames(s, t, 270);
        for _ in 0..4 {
            tap(s, t, KeyCode::Enter);
        }
        assert_eq!(s.game.state().mode(), nestris_core::GameMode::Play);
    }

    #[test]
    fn starts_at_power_on_and_runs_the_cartridge_flow() {
        let mut t = Instant::now();
        let mut s = Session::new(TuiOptions::default(), HoldMode::Reported);
        assert_eq!(s.game, Game::power_on(Region::Ntsc));
        to_play(&mut s, &mut t);
        // The same presses on the same frames deal the same game as the bare engine.
        let mut g = Game::power_on(Region::Ntsc);
        for _ in 0..270 {
            g.step(Buttons::NONE);
        }
        for _ in 0..4 {
            g.step(Buttons::START);
            for _ in 0..19 {
                g.step(Buttons::NONE);
            }
        }
        assert_eq!(s.game, g);
    }

    #[test]
    fn esc_quits_at_once_outside_a_game_and_asks_during_one() {
        let mut t = Instant::now();
        let mut s = Session::new(TuiOptions::default(), HoldMode::Reported);
        frames(&mut s, &mut t, 30);
        assert_eq!(s.on_event(press(KeyCode::Esc), t), Flow::Quit);
        assert_eq!(s.on_event(press(KeyCode::Char('q')), t), Flow::Quit);

        to_play(&mut s, &mut t);
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
        s.on_event(press(KeyCode::Char('q')), t);
        assert_eq!(s.view.overlay, Overlay::ConfirmQuit);
        assert_eq!(s.on_event(press(KeyCode::Char('y')), t), Flow::Quit);
    }

    #[test]
    fn held_keys_drive_the_game() {
        let mut t = Instant::now();
        let mut s = Session::new(TuiOptions::default(), HoldMode::Reported);
        to_play(&mut s, &mut t);
        let x0 = s.game.state().x;
        s.on_event(press(KeyCode::Right), t);
        frames(&mut s, &mut t, 1);
        s.on_event(key(KeyCode::Right, KeyEventKind::Release), t);
        frames(&mut s, &mut t, 1);
        assert_eq!(s.game.state().x, x0 + 1);
    }

    #[test]
    fn quick_presses_through_the_menus() {
        let mut t = Instant::now();
        let options = TuiOptions {
            quick: Some(12),
            ..TuiOptions::default()
        };
        let mut s = Session::new(options, HoldMode::Estimated);
        frames(&mut s, &mut t, 400);
        assert_eq!(
            (s.game.state().mode(), s.game.state().level),
            (nestris_core::GameMode::Play, 12)
        );
        assert_eq!(s.quick, None);
        // Nothing more is pressed for the player: the game is not paused.
        frames(&mut s, &mut t, 30);
        assert!(s.game.state().play_screen_drawn());
    }

    #[test]
    fn a_cartridge_demo_is_shown_and_recorded_as_such() {
        // Another piece list than the built-in demo's.
        let mut demo = DemoData::BUILTIN;
        demo.pieces.rotate_left(1);
        let dir = std::env::temp_dir().join(format!("nestris-tui-demo-{}", std::process::id()));
        let options = TuiOptions {
            replay_dir: Some(dir.clone()),
            rom_demo: Some(demo.clone()),
            ..TuiOptions::default()
        };
        let mut s = Session::new(options, HoldMode::Reported);
        let mut t = Instant::now();
        // Legal screen and title; the demo starts at frame 1796.
        frames(&mut s, &mut t, 2400);
        assert_eq!(s.game.state().mode(), nestris_core::GameMode::Demo);
        let mut alone = Game::power_on(s.game.state().region);
        let mut builtin = alone.clone();
        for _ in 0..2400 {
            alone.step_with_demo(Buttons::NONE, &demo);
            builtin.step(Buttons::NONE);
        }
        assert_eq!(s.game.state(), alone.state());
        assert_ne!(s.game.state(), builtin.state());
        // Start leaves the demo for the title; then the menus to a game.
        for _ in 0..4 {
            tap(&mut s, &mut t, KeyCode::Enter);
        }
        assert!(s.game.state().in_game(), "{:?}", s.game.state().mode());
        s.finish_recording().unwrap();
        let replay = only_replay_in(&dir);
        assert_eq!(replay.demo, nestris_replay::DemoSource::Cartridge);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_session_that_never_reached_a_game_keeps_no_replay() {
        let dir = tempfile::tempdir().unwrap();
        let options = TuiOptions {
            replay_dir: Some(dir.path().to_path_buf()),
            ..TuiOptions::default()
        };
        let mut s = Session::new(options, HoldMode::Reported);
        let mut t = Instant::now();
        // Long enough for a periodic save, never past the title.
        frames(&mut s, &mut t, 700);
        s.finish_recording().unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn the_kept_high_scores_are_loaded_saved_and_recorded() {
        let dir = std::env::temp_dir().join(format!("nestris-tui-hs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join(HIGH_SCORES_FILE);
        let mut table = HighScores::default();
        table.scores[2] = [0x00, 0x01, 0x00];
        nestris_host::store::save_high_scores(&path, &table).unwrap();
        let options = TuiOptions {
            replay_dir: Some(dir.join("replays")),
            data_dir: Some(dir.clone()),
            ..TuiOptions::default()
        };
        let mut s = Session::new(options, HoldMode::Reported);
        assert_eq!(
            s.game.state().flow.high_scores,
            table,
            "the window's table, loaded"
        );
        let mut t = Instant::now();
        to_play(&mut s, &mut t);
        // A change of the engine's table (as name entry makes) is written back.
        let mut snap = s.game.snapshot();
        snap.flow.high_scores.names[0] = [1; 6];
        s.game = Game::from_snapshot(snap).unwrap();
        frames(&mut s, &mut t, 2);
        s.finish_recording().unwrap();
        let saved = nestris_host::store::load_high_scores(&path);
        assert_eq!(
            saved,
            nestris_host::store::Loaded::Found(s.game.state().flow.high_scores.clone())
        );
        // The replay starts from the loaded table.
        let replay = only_replay_in(&dir.join("replays"));
        assert!(matches!(replay.start, nestris_replay::Start::Snapshot(_)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_session_is_recorded_and_its_replay_verifies() {
        let dir = std::env::temp_dir().join(format!("nestris-tui-rec-{}", std::process::id()));
        let options = TuiOptions {
            replay_dir: Some(dir.clone()),
            ..TuiOptions::default()
        };
        let mut s = Session::new(options, HoldMode::Reported);
        let mut t = Instant::now();
        to_play(&mut s, &mut t);
        frames(&mut s, &mut t, 120);
        s.finish_recording().unwrap();
        let replay = only_replay_in(&dir);
        let summary = replay.verify().unwrap();
        assert_eq!(summary.final_hash, s.game.state().state_hash());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_trainer_starts_in_play_and_its_replay_verifies_without_keeping_scores() {
        use nestris_core::trainer::Trainer;
        for trainer in Trainer::ALL {
            let dir = tempfile::tempdir().unwrap();
            let mut table = HighScores::default();
            table.scores[0] = [0x00, 0x50, 0x01];
            let path = dir.path().join(HIGH_SCORES_FILE);
            nestris_host::store::save_high_scores(&path, &table).unwrap();
            let start = trainer.game(Region::Pal, 18, 30);
            let options = TuiOptions {
                replay_dir: Some(dir.path().join("replays")),
                data_dir: Some(dir.path().to_path_buf()),
                start: Some(start.clone()),
                ..TuiOptions::default()
            };
            let mut s = Session::new(options, HoldMode::Reported);
            let name = trainer.name();
            assert_eq!(
                s.game.state().mode(),
                nestris_core::GameMode::Play,
                "{name}"
            );
            assert_eq!(s.game.state().variant, start.state().variant, "{name}");
            assert_eq!(
                s.game.state().region,
                Region::Pal,
                "{name}: the start's console"
            );
            assert_eq!(
                s.game.state().flow.high_scores,
                table,
                "{name}: the kept table"
            );
            let mut t = Instant::now();
            for i in 0..600 {
                let b = [KeyCode::Left, KeyCode::Char('x'), KeyCode::Down][i % 3];
                s.on_event(press(b), t);
                frames(&mut s, &mut t, 1);
                s.on_event(key(b, KeyEventKind::Release), t);
                frames(&mut s, &mut t, 2);
            }
            s.finish_recording().unwrap();
            let replay = only_replay_in(&dir.path().join("replays"));
            let nestris_replay::Start::Snapshot(first) = &replay.start else {
                panic!("{name}: a snapshot start");
            };
            assert_eq!(first.variant, start.state().variant, "{name}");
            let summary = replay.verify().unwrap();
            assert_eq!(summary.final_hash, s.game.state().state_hash(), "{name}");
            // A table the game changed (as name entry does) is not kept: it is practice.
            let mut snap = s.game.snapshot();
            snap.flow.high_scores.names[0] = [1; 6];
            s.game = Game::from_snapshot(snap).unwrap();
            s.finish_recording().unwrap();
            assert_eq!(
                nestris_host::store::load_high_scores(&path),
                nestris_host::store::Loaded::Found(table.clone()),
                "{name}"
            );
        }
    }

    #[test]
    fn ctrl_c_always_quits() {
        let mut t = Instant::now();
        let mut s = Session::new(TuiOptions::default(), HoldMode::Estimated);
        to_play(&mut s, &mut t);
        let ev = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert_eq!(s.on_event(ev, t), Flow::Quit);
        assert!(s.view.hold_estimated);
    }

    #[test]
    fn the_game_waits_while_the_field_cannot_be_seen() {
        let mut s = Session::new(TuiOptions::default(), HoldMode::Reported);
        let mut t = Instant::now();
        frames(&mut s, &mut t, 10);
        let before = s.game.state().clone();
        s.visible = false;
        frames(&mut s, &mut t, 100);
        assert_eq!(s.game.state(), &before, "no frame runs");
        s.visible = true;
        frames(&mut s, &mut t, 1);
        assert_ne!(s.game.state(), &before);
    }

    #[test]
    fn what_is_not_kept_is_on_the_notice_line_and_a_lost_replay_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(HIGH_SCORES_FILE), "{,").unwrap();
        // A file where the replay folder's file should go: Recording::new accepts the
        // folder, every save into it fails.
        let replays = dir.path().join("replays");
        std::fs::create_dir(&replays).unwrap();
        let options = TuiOptions {
            replay_dir: Some(replays.clone()),
            data_dir: Some(dir.path().to_path_buf()),
            ..TuiOptions::default()
        };
        let mut s = Session::new(options, HoldMode::Reported);
        let mut t = Instant::now();
        frames(&mut s, &mut t, 1);
        let notice = s.view.notice.clone().expect("a notice");
        assert!(notice.contains("high scores unreadable"), "{notice}");
        frames(&mut s, &mut t, NOTICE_FRAMES as usize);
        assert_eq!(s.view.notice, None, "gone when its time is up");
        // The folder becomes unwritable: the session's replay cannot be saved.
        std::fs::remove_dir(&replays).unwrap();
        std::fs::write(&replays, "").unwrap();
        let e = s.finish_recording().unwrap_err();
        assert!(e.to_string().contains("could not save the replay"), "{e}");
    }
}
