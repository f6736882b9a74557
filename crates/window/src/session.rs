//! One power-on session without the window: the game and its flow, the picture, the
//! HUD, the quit question, the practice tools (savestates, rewind, frame advance), the
//! seed entry, the board editor and its practice loop, the replay, the high-score table
//! and the status file.
//!
//! [`Session::frame`] runs one NES frame with the sampled buttons and returns the sound
//! effects it calls for; [`Session::draw`] composes the picture. The window, the
//! devices and the clock live in `app`, so everything here is tested headless.

use nestris_render::LevelColours;
use std::time::Instant;

use nestris_core::flow::HighScores;
use nestris_core::position::Position;
use nestris_core::{Buttons, CrashMode, DemoData, FrameEvents, Game, GameSetup, Region};
use nestris_render::{Frame, HEIGHT, WIDTH};

use crate::canvas::Canvas;
use crate::coach::Coach;
use crate::editor::{Editor, Outcome};
use crate::hud::{self, Tally};
use crate::practice::{Point, Practice, Saved};
use crate::seed::{SeedChoice, SeedEntry};
use crate::sfx::{cues, Sfx};
use crate::status::StatusFile;
use nestris_host::store::ScoreKeeper;
use nestris_replay::session::Recording;

/// Frames a message such as "SOUND OFF" stays on screen.
const TOAST_FRAMES: u32 = 90;
/// How long a notice of data not kept stays (5 s): longer than a toast, it must be read.
const NOTICE_FRAMES: u32 = 300;

/// What the player's quit key leads to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum QuitAnswer {
    /// Quit now.
    Quit,
    /// A game is in play: "QUIT THIS GAME?" is asked first.
    Asking,
}

/// The session: everything but the window and the devices.
#[derive(Debug)]
pub struct Session {
    game: Game,
    frame: Frame,
    demo: Option<DemoData>,
    hud: Option<Tally>,
    recording: Option<Recording>,
    scores: ScoreKeeper,
    asking_quit: bool,
    toast: Option<(String, u32)>,
    status: Option<StatusFile>,
    frames: u64,
    /// Lag frames in the game in play (or the last one).
    lag_frames: u64,
    finished: bool,
    colours: LevelColours,
    practice: Practice<Counts>,
    /// A savestate was loaded or the game rewound: the table is no longer kept (a score
    /// made by going back in time is not one the player made).
    practising: bool,
    seed_entry: Option<SeedEntry>,
    /// Buttons held as the seed entry closed, kept from the game until released (the A
    /// or Start that confirmed is not also the level menu's Start).
    held_over: Buttons,
    /// The coach, while it is on.
    coach: Option<Coach>,
    /// The board editor: open, or kept while its position is played (to go back to).
    editor: Option<Editor>,
    /// The editor is open (the game under it stands still).
    editing: bool,
    /// The game in play was started by the editor.
    from_editor: bool,
    /// The level menu the editor was opened over, to go back to when it is left.
    before_editor: Option<Game>,
    /// The board editor's file.
    position_file: std::path::PathBuf,
    /// Games started from the editor: each deals its own pieces after the two chosen.
    editor_games: u64,
}

/// What the session counts beside the game, saved and rewound with it.
type Counts = (Option<Tally>, u64);

impl Session {
    /// The console switched on, with the kept high-score table in its memory.
    pub fn new(
        region: Region,
        demo: Option<DemoData>,
        hud: bool,
        (scores, high_scores): (ScoreKeeper, HighScores),
        recording: Option<Recording>,
        status: Option<StatusFile>,
    ) -> Session {
        let game = nestris_host::store::power_on_with(region, high_scores);
        // The replay starts from the table in the console's memory, not a default one.
        let recording = recording.map(|r| r.starting_from(&game));
        Session {
            game,
            frame: hud::frame(hud),
            demo,
            hud: hud.then(Tally::default),
            recording,
            scores,
            asking_quit: false,
            toast: None,
            status,
            frames: 0,
            lag_frames: 0,
            finished: false,
            colours: LevelColours::Classic,
            practice: Practice::default(),
            practising: false,
            seed_entry: None,
            held_over: Buttons::NONE,
            coach: None,
            editor: None,
            editing: false,
            from_editor: false,
            before_editor: None,
            position_file: std::path::PathBuf::from("position.txt"),
            editor_games: 0,
        }
    }

    /// Where the session's replay is (after [`Session::finish`], its final name), if
    /// one is recorded.
    pub fn replay_path(&self) -> Option<&std::path::Path> {
        self.recording.as_ref().map(Recording::path)
    }

    /// Draws the blocks in `colours` from now on (default: the cartridge's).
    pub fn set_colours(&mut self, colours: LevelColours) {
        self.colours = colours;
    }

    /// Sets what the console does when the cartridge would crash (see
    /// `nestris_core::CrashMode`); for the recording too, give it
    /// `Recording::with_crash_mode`.
    pub fn set_crash_mode(&mut self, mode: CrashMode) {
        self.game.set_crash_mode(mode);
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// NES frames run so far.
    #[cfg(test)]
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The picture's size: the NES frame, and the HUD panel beside it when on.
    pub fn canvas_size(&self) -> (usize, usize) {
        let extra = if self.hud.is_some() {
            hud::PANEL_WIDTH
        } else {
            0
        };
        (WIDTH + extra, HEIGHT)
    }

    /// True while a game is being played (play, pause, curtain, ending, name entry).
    pub fn in_play(&self) -> bool {
        self.game.state().in_game()
    }

    /// True while "QUIT THIS GAME?" is asked (the game stands still).
    pub fn asking_quit(&self) -> bool {
        self.asking_quit
    }

    /// The quit key: asks during a game, quits otherwise (or when asked already).
    pub fn request_quit(&mut self) -> QuitAnswer {
        if self.asking_quit || !self.in_play() {
            return QuitAnswer::Quit;
        }
        self.asking_quit = true;
        QuitAnswer::Asking
    }

    /// "N" to "QUIT THIS GAME?": back to the game.
    pub fn cancel_quit(&mut self) {
        self.asking_quit = false;
    }

    /// Shows a short message over the picture.
    pub fn toast(&mut self, text: &str) {
        self.toast = Some((text.to_string(), TOAST_FRAMES));
    }

    /// One NES frame at `now` with `buttons` on controller 1 (nothing moves while the
    /// quit question is asked). Returns the sound effects the frame calls for.
    pub fn frame(&mut self, buttons: Buttons, now: Instant) -> Vec<Sfx> {
        if let Some((_, left)) = &mut self.toast {
            *left = left.saturating_sub(1);
            if *left == 0 {
                self.toast = None;
            }
        }
        if self.asking_quit {
            return Vec::new();
        }
        if self.editing {
            let outcome = match &mut self.editor {
                Some(e) => e.buttons(buttons),
                None => Outcome::Editing,
            };
            self.editor_outcome(outcome, buttons, now);
            return Vec::new();
        }
        if let Some(entry) = &mut self.seed_entry {
            let choice = entry.buttons(buttons);
            if choice != SeedChoice::Editing {
                self.held_over = buttons;
            }
            self.seed_chosen(choice, now);
            return Vec::new();
        }
        self.held_over = Buttons(self.held_over.0 & buttons.0);
        let buttons = Buttons(buttons.0 & !self.held_over.0);
        if self.game.state().screen() == nestris_core::Screen::LevelMenu
            && buttons.contains(Buttons::SELECT)
        {
            // The cartridge's level menu has no use for Select: it opens the seed entry.
            self.open_seed_entry(buttons);
            return Vec::new();
        }
        let s = self.game.state();
        if self.from_editor
            && s.curtain_down()
            && Buttons(buttons.0 & !s.held).contains(Buttons::START)
        {
            // Start under the curtain of a game from the editor: back to its position.
            self.open_editor(buttons);
            return Vec::new();
        }
        let curtain_was_down = s.curtain_down();
        if !self.practice.take_frame() {
            return Vec::new();
        }
        self.practice.record(Point {
            game: self.game.clone(),
            replay: self.recording.as_ref().map(Recording::position),
            extra: (self.hud, self.lag_frames),
        });
        let ev = match &self.demo {
            Some(demo) => self.game.step_with_demo(buttons, demo),
            None => self.game.step(buttons),
        };
        self.frames += 1;
        let s = self.game.state();
        if matches!(s.resume, nestris_core::flow::Resume::GameInit { .. }) {
            self.lag_frames = 0;
        }
        self.lag_frames += u64::from(ev.has(FrameEvents::LAG));
        if let Some(h) = &mut self.hud {
            h.observe(&ev, s);
        }
        if let Some(r) = &mut self.recording {
            r.push(buttons);
            r.observe(&self.game);
            r.tick(now);
        }
        if let Some(st) = &mut self.status {
            st.update(s, self.frames);
        }
        self.keep_high_scores(now, false);
        if let Some(c) = &mut self.coach {
            c.observe(&self.game);
        }
        self.show_notices();
        let cues = cues(&ev, self.game.state());
        if self.from_editor && !curtain_was_down && self.game.state().curtain_down() {
            self.toast("START: BACK TO THE EDITOR");
        }
        if self.from_editor && !self.game.state().in_game() {
            // The game from the editor left play: back to the position.
            self.open_editor(buttons);
        }
        cues
    }

    /// Saves the high-score table when the engine's copy changed (at most once per
    /// [`nestris_host::store::SCORE_SAVE_INTERVAL`] unless `force`).
    /// What could not be kept is said on screen, where the player looks.
    fn show_notices(&mut self) {
        let recording = self.recording.as_mut().and_then(Recording::take_notice);
        if let Some(text) = self.scores.take_notice().or(recording) {
            self.toast = Some((text, NOTICE_FRAMES));
        }
    }

    fn keep_high_scores(&mut self, now: Instant, force: bool) {
        if self.practising {
            return;
        }
        self.scores
            .keep(&self.game.state().flow.high_scores, now, force);
    }

    /// From the first rewind or load on, the high-score table is not kept (what was made
    /// before is saved now).
    fn start_practising(&mut self) {
        if !self.practising {
            self.keep_high_scores(Instant::now(), true);
            self.practising = true;
            self.toast("PRACTICE: SCORES NOT KEPT");
        }
    }

    /// Plays from `game` instead of the power-on (a trainer's start): the kept high-score
    /// table is put in its memory, the replay starts from it, and from here no score is
    /// kept (a practice start is not a game the cartridge deals).
    pub fn start_from(&mut self, game: Game) {
        let mut s = game.snapshot();
        s.flow.high_scores = self.game.state().flow.high_scores.clone();
        self.game = Game::from_snapshot(s).unwrap_or(game);
        self.recording = self.recording.take().map(|r| r.starting_from(&self.game));
        self.keep_high_scores(Instant::now(), true);
        self.practising = true;
        self.practice = Practice::default();
    }

    /// Saves a savestate in `slot` (from 0).
    pub fn save_state(&mut self, slot: usize) {
        if self.asking_quit || self.seed_entry.is_some() || self.editing {
            return;
        }
        self.practice.save(
            slot,
            Saved {
                game: self.game.clone(),
                replay: self.recording.as_ref().map(Recording::mark),
                extra: (self.hud, self.lag_frames),
            },
        );
        self.toast(&format!("SAVED {}", slot + 1));
    }

    /// Loads the savestate in `slot` (from 0): the game, the HUD's counts and the
    /// replay's line are those of the moment it was saved.
    pub fn load_state(&mut self, slot: usize) {
        if self.asking_quit || self.seed_entry.is_some() || self.editing {
            return;
        }
        let Some(saved) = self.practice.load(slot) else {
            self.toast(&format!("SLOT {} EMPTY", slot + 1));
            return;
        };
        self.start_practising();
        self.game = saved.game;
        (self.hud, self.lag_frames) = saved.extra;
        if let (Some(r), Some(m)) = (&mut self.recording, &saved.replay) {
            r.restore(m);
        }
        self.toast(&format!("LOADED {}", slot + 1));
    }

    /// One frame back in time (the rewind key is held); false when nothing is left to
    /// rewind.
    pub fn rewind_frame(&mut self) -> bool {
        if self.asking_quit || self.seed_entry.is_some() || self.editing {
            return false;
        }
        let Some(p) = self.practice.step_back() else {
            return false;
        };
        self.start_practising();
        self.game = p.game;
        (self.hud, self.lag_frames) = p.extra;
        if let (Some(r), Some(pos)) = (&mut self.recording, p.replay) {
            r.rewind_to(pos);
        }
        true
    }

    /// The coach on or off.
    pub fn toggle_coach(&mut self) {
        self.coach = match self.coach {
            Some(_) => None,
            None => {
                let mut c = Coach::default();
                c.observe(&self.game);
                Some(c)
            }
        };
        self.toast(if self.coach.is_some() {
            "COACH ON"
        } else {
            "COACH OFF"
        });
    }

    /// Stops or restarts the game's clock.
    pub fn toggle_freeze(&mut self) {
        let frozen = self.practice.toggle_freeze();
        self.toast(if frozen {
            "FROZEN: ADVANCE STEPS"
        } else {
            "RUNNING"
        });
    }

    /// While frozen: the next frame runs.
    pub fn advance(&mut self) {
        self.practice.request_advance();
    }

    /// The seed entry, if the level menu is up (a toast says where it is otherwise).
    pub fn open_seed_entry(&mut self, held: Buttons) {
        if self.editing {
            return;
        }
        if self.game.state().screen() != nestris_core::Screen::LevelMenu {
            self.toast("SEEDS: ON THE LEVEL MENU");
            return;
        }
        self.seed_entry = Some(SeedEntry::open(self.game.state().variant.seed, held));
    }

    /// True while the seed entry is open.
    pub fn entering_seed(&self) -> bool {
        self.seed_entry.is_some()
    }

    /// Closes the seed entry, the seed unchanged.
    pub fn cancel_seed_entry(&mut self) {
        self.seed_entry = None;
    }

    /// A hex digit typed into the open seed entry.
    pub fn type_seed_digit(&mut self, digit: u8) {
        if let Some(e) = &mut self.seed_entry {
            e.type_digit(digit);
        }
    }

    /// Applies the seed entry's outcome. A new seed changes the rules between two frames,
    /// which no button press records: the replay so far is saved as it is, and a new one
    /// starts from the level menu with the seed (a snapshot start carries it).
    fn seed_chosen(&mut self, choice: SeedChoice, now: Instant) {
        let seed = match choice {
            SeedChoice::Editing => return,
            SeedChoice::Cancel => {
                self.seed_entry = None;
                return;
            }
            SeedChoice::Set(seed) => seed,
        };
        self.seed_entry = None;
        let variant = nestris_core::Variant {
            seed,
            ..self.game.state().variant
        };
        if variant == self.game.state().variant {
            return;
        }
        self.game.set_variant(variant);
        self.toast(&match seed {
            Some(s) => format!("SEED {:06X}", s.value()),
            None => "NO SEED".to_string(),
        });
        if let Some(r) = &mut self.recording {
            if let Err(e) = r.finish() {
                eprintln!(
                    "nestris: warning: could not save the replay {}: {e}",
                    r.path().display()
                );
                self.toast = Some(("COULD NOT SAVE THE REPLAY".to_string(), NOTICE_FRAMES));
            } else if let Some(path) = Some(r.path()).filter(|p| p.exists()) {
                eprintln!("nestris: replay saved: {}", path.display());
            }
            let next = r.successor(&self.game, std::time::SystemTime::now());
            *r = next;
            r.tick(now);
        }
        // The rewind history and savestates belong to the rules before.
        self.practice = Practice::default();
    }

    /// Where the board editor saves and loads its position (default: `position.txt` in
    /// the working folder; the window gives one in the data folder).
    pub fn set_position_file(&mut self, path: std::path::PathBuf) {
        self.position_file = path;
    }

    /// The board editor, open at once on `position` (`nestris play --editor`): leaving it
    /// leaves the program.
    pub fn open_editor_with(&mut self, position: Position) {
        self.editor = Some(Editor::new(
            position,
            self.position_file.clone(),
            Buttons::NONE,
        ));
        self.editing = true;
        self.before_editor = None;
    }

    /// The editor key: from the level menu, the board editor (on the position edited last,
    /// else an empty field at the menu's level and seed); from a game the editor started,
    /// back to its position to try it again. `held`: the buttons down now, not presses.
    pub fn open_editor(&mut self, held: Buttons) {
        if self.editing || self.asking_quit || self.seed_entry.is_some() {
            return;
        }
        if let (Some(editor), true) = (&mut self.editor, self.from_editor) {
            editor.reopen(held);
            self.editing = true;
            return;
        }
        let s = self.game.state();
        if s.screen() != nestris_core::Screen::LevelMenu {
            self.toast("EDITOR: ON THE LEVEL MENU");
            return;
        }
        let position = match &self.editor {
            Some(e) => *e.position(),
            None => Position {
                level: s.start_level.min(nestris_core::position::MAX_LEVEL),
                seed: s.variant.seed,
                ..Position::default()
            },
        };
        self.editor = Some(Editor::new(position, self.position_file.clone(), held));
        self.before_editor = Some(self.game.clone());
        self.editing = true;
    }

    /// True while the board editor is open.
    pub fn editing(&self) -> bool {
        self.editing
    }

    /// Leaves the board editor for the level menu it was opened over; false if there is
    /// none (it was open from the start: the caller quits).
    pub fn leave_editor(&mut self, now: Instant) -> bool {
        let Some(menu) = self.before_editor.clone() else {
            return false;
        };
        self.editing = false;
        self.from_editor = false;
        if self.game != menu {
            self.game = menu;
            self.practice = Practice::default();
            self.restart_recording(now);
        }
        true
    }

    /// A mouse button pressed at pixel (`x`, `y`) of the picture (`erase`: the right one).
    pub fn editor_mouse_down(&mut self, x: i32, y: i32, erase: bool, now: Instant) {
        if !self.editing || self.asking_quit {
            return;
        }
        if let Some(e) = &mut self.editor {
            let outcome = e.mouse_down(x, y, erase);
            self.editor_outcome(outcome, Buttons::NONE, now);
        }
    }

    /// The mouse moved to pixel (`x`, `y`) of the picture.
    pub fn editor_mouse_move(&mut self, x: i32, y: i32) {
        if let (Some(e), true) = (&mut self.editor, self.editing) {
            e.mouse_move(x, y);
        }
    }

    /// The mouse buttons released.
    pub fn editor_mouse_up(&mut self) {
        if let Some(e) = &mut self.editor {
            e.mouse_up();
        }
    }

    fn editor_outcome(&mut self, outcome: Outcome, buttons: Buttons, now: Instant) {
        match outcome {
            Outcome::Editing => {}
            Outcome::Say(text) => self.toast(&text),
            Outcome::Play => {
                // The Start that chose to play is not also the game's pause.
                self.held_over = buttons;
                self.play_position(now);
            }
        }
    }

    /// `position`'s game in this session's console, with the kept high-score table in its
    /// memory (the TOP it shows).
    fn position_game(&self, position: &Position, setup: GameSetup) -> Game {
        let s = self.game.state();
        let game = position.game(GameSetup {
            region: s.region,
            crash_mode: s.crash_mode,
            ..setup
        });
        let mut snap = game.snapshot();
        snap.flow.high_scores = s.flow.high_scores.clone();
        Game::from_snapshot(snap).unwrap_or(game)
    }

    /// Plays the editor's position: a new game (its pieces after the two chosen dealt
    /// from a generator state of its own) in a new replay that starts from it. No score
    /// is kept (a position painted is not a game the cartridge deals).
    fn play_position(&mut self, now: Instant) {
        let Some(editor) = &self.editor else {
            return;
        };
        self.editor_games += 1;
        let deal = self.frames ^ self.editor_games.rotate_left(32);
        self.game = self.position_game(editor.position(), GameSetup::from_seed(deal));
        self.editing = false;
        self.from_editor = true;
        if !self.practising {
            self.keep_high_scores(now, true);
            self.practising = true;
        }
        self.practice = Practice::default();
        if let Some(h) = &mut self.hud {
            *h = Tally::default();
        }
        self.lag_frames = 0;
        self.restart_recording(now);
    }

    /// Saves the replay so far and starts a new one from the game as it stands (the game
    /// changed between two frames, which no button press records).
    fn restart_recording(&mut self, now: Instant) {
        if let Some(r) = &mut self.recording {
            // A recording of no frame (the editor open from the start) is nothing to keep.
            if r.frames() == 0 {
                *r = r.successor(&self.game, std::time::SystemTime::now());
                return;
            }
            if let Err(e) = r.finish() {
                eprintln!(
                    "nestris: warning: could not save the replay {}: {e}",
                    r.path().display()
                );
                self.toast = Some(("COULD NOT SAVE THE REPLAY".to_string(), NOTICE_FRAMES));
            }
            let next = r.successor(&self.game, std::time::SystemTime::now());
            *r = next;
            r.tick(now);
        }
    }

    /// Composes the picture into `canvas` (of [`Session::canvas_size`]).
    pub fn draw(&mut self, canvas: &mut Canvas) {
        match (&self.editor, self.editing) {
            (Some(editor), true) => {
                let game = self.position_game(editor.position(), GameSetup::default());
                editor.with_view(|view| {
                    nestris_render::editor::draw_editor(&game, view, self.colours, &mut self.frame)
                });
            }
            _ => nestris_render::draw_with(&self.game, &mut self.frame, self.colours),
        }
        if self.asking_quit {
            nestris_render::draw_dialog(
                &mut self.frame,
                &["QUIT THIS GAME?", "", "Y: QUIT   N: PLAY ON"],
            );
        }
        if let Some(e) = &self.seed_entry {
            let lines = e.lines();
            let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
            nestris_render::draw_dialog(&mut self.frame, &refs);
        }
        if let Some(h) = &self.hud {
            hud::draw(&mut self.frame, h, self.game.state());
        }
        canvas.blit_frame(&self.frame);
        if let Some(c) = &self.coach {
            c.draw(canvas);
        }
        hud::draw_crash_marker(canvas, &self.game, Some(self.lag_frames));
        if let Some((text, _)) = &self.toast {
            let w = crate::font::width(text, 1);
            canvas.fill_rect(4, 4, w + 6, crate::font::H + 6, 0x000000);
            canvas.text(7, 7, text, 0xFCFCFC, 1);
        }
    }

    /// Saves what is kept (replay, high scores, status); safe to call more than once. An
    /// error if the session's replay could not be written whole (the program then exits
    /// non-zero: a session that is not on disk is data lost).
    pub fn finish(&mut self) -> std::io::Result<()> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        self.keep_high_scores(Instant::now(), true);
        let saved = match &mut self.recording {
            Some(r) => r.finish().map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    format!("could not save the replay {}: {e}", r.path().display()),
                )
            }),
            None => Ok(()),
        };
        if let Some(st) = &mut self.status {
            st.exited(self.game.state(), self.frames);
        }
        saved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_host::store::Loaded;
    use nestris_replay::Replay;
    use std::time::Duration;

    fn session(dir: &std::path::Path, hud: bool) -> Session {
        let rec = Recording::new(dir.join("r.nestris"), Region::Ntsc, None);
        Session::new(
            Region::Ntsc,
            None,
            hud,
            (
                ScoreKeeper::new(Some(dir.join("highscores.json")), HighScores::default()),
                HighScores::default(),
            ),
            Some(rec),
            None,
        )
    }

    /// Runs frames with `b` held; returns the time after them.
    fn run(s: &mut Session, t: Instant, n: usize, b: Buttons) -> Instant {
        let mut t = t;
        for _ in 0..n {
            t += Duration::from_millis(16);
            s.frame(b, t);
        }
        t
    }

    /// Taps Start (one frame) then waits `n` frames.
    fn start(s: &mut Session, t: Instant, n: usize) -> Instant {
        let t = run(s, t, 1, Buttons::START);
        run(s, t, n, Buttons::NONE)
    }

    /// From power-on to a game in play: legal screen, title, type menu, level menu.
    fn to_play(s: &mut Session, t: Instant) -> Instant {
        let mut t = run(s, t, 270, Buttons::NONE);
        // Start on the legal screen, the title, the game-type menu, the level menu.
        for _ in 0..4 {
            t = start(s, t, 20);
        }
        t
    }

    /// A capped single at level 159 with the music off, before its score frame: the score
    /// frame lags and the next frame's interrupt breaks a dispatch (the core's
    /// `tests/crash.rs` builds the same).
    fn crashing(mode: CrashMode) -> Game {
        Game::capped_score_frame(160, mode)
    }

    /// The crash marker's box is drawn: its background at the box's corner.
    fn marked(c: &Canvas) -> bool {
        let (x, y) = hud::CRASH_MARKER_AT;
        c.pixel(x as usize + 1, y as usize + 1) == hud::CRASH_MARKER_RED
    }

    #[test]
    fn a_crash_shown_is_marked_on_the_picture_and_in_the_hud() {
        let dir = tempfile::tempdir().unwrap();
        for mode in [CrashMode::Show, CrashMode::Cartridge] {
            let mut s = session(dir.path(), true);
            s.game = crashing(mode);
            let (w, h) = s.canvas_size();
            let mut c = Canvas::new(w, h);
            s.draw(&mut c);
            assert!(!marked(&c), "not before the crash");
            let t = run(&mut s, Instant::now(), 1, Buttons::NONE);
            assert_eq!(s.lag_frames, 1, "the score frame lagged");
            assert!(s.game().crashed().is_none());
            run(&mut s, t, 30, Buttons::NONE);
            assert!(s.game().crashed().is_some());
            assert_eq!(s.game().halted(), mode == CrashMode::Cartridge);
            s.draw(&mut c);
            assert!(marked(&c), "{mode}");
            // The marker's text, in white on the red.
            let (x, y) = hud::CRASH_MARKER_AT;
            let row = |yy: i32| (x..x + 60).map(move |xx| (xx as usize, yy as usize));
            assert!((y + 3..y + 10)
                .flat_map(row)
                .any(|(xx, yy)| c.pixel(xx, yy) == 0xFCFCFC));
            // The HUD panel: CRASHED in red in the drought box (its third line).
            let red = nestris_render::palette::rgb(0x16);
            let x0 = WIDTH + 8;
            assert!((88..96)
                .flat_map(|yy| (x0..x0 + 56).map(move |xx| (xx, yy)))
                .any(|(xx, yy)| c.pixel(xx, yy) == red));
        }
        // Without a crash (crash model off), no marker.
        let mut s = session(dir.path(), false);
        s.game = crashing(CrashMode::Off);
        run(&mut s, Instant::now(), 30, Buttons::NONE);
        let mut c = Canvas::new(WIDTH, HEIGHT);
        s.draw(&mut c);
        assert!(!marked(&c));
        assert_eq!(s.lag_frames, 0);
    }

    #[test]
    fn a_game_from_the_menus_is_counted_until_its_music_needs_the_rom() {
        // What `nestris play --crash` says in its help: the menus are not counted, a game
        // starts its count from the recordings' game-start timing, and with music (no ROM)
        // the timing is lost in its first frames of music; with crash mode off it is never
        // counted.
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path(), false);
        let t = to_play(&mut s, Instant::now());
        assert!(s.in_play());
        assert_eq!(s.game().state().music_type, 0);
        run(&mut s, t, 600, Buttons::NONE);
        assert!(!s.game().state().clock.known);
        let mut s = session(dir.path(), false);
        s.set_crash_mode(CrashMode::Off);
        assert!(!s.game().state().clock.known);
    }

    #[test]
    fn the_cartridge_flow_from_power_on_to_play() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path(), false);
        assert!(!s.in_play());
        assert_eq!(s.request_quit(), QuitAnswer::Quit, "no game: quit at once");
        let t = to_play(&mut s, Instant::now());
        assert!(s.in_play(), "mode {}", s.game().state().game_mode);
        // Esc asks; the game stands still meanwhile; N goes back.
        assert_eq!(s.request_quit(), QuitAnswer::Asking);
        let before = s.game().clone();
        let t = run(&mut s, t, 30, Buttons::DOWN);
        assert_eq!(*s.game(), before);
        let mut c = Canvas::new(WIDTH, HEIGHT);
        s.draw(&mut c);
        assert!(c.pixels.contains(&0xFCFCFC));
        s.cancel_quit();
        run(&mut s, t, 1, Buttons::NONE);
        assert_ne!(*s.game(), before);
        // Esc twice quits.
        assert_eq!(s.request_quit(), QuitAnswer::Asking);
        assert_eq!(s.request_quit(), QuitAnswer::Quit);
    }

    #[test]
    fn the_replay_holds_the_stepped_frames_and_replays_to_the_same_state() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path(), true);
        assert_eq!(s.canvas_size(), (WIDTH + hud::PANEL_WIDTH, HEIGHT));
        let t = to_play(&mut s, Instant::now());
        s.request_quit();
        run(&mut s, t, 10, Buttons::NONE);
        s.finish().unwrap();
        s.finish().unwrap();
        let path = s.replay_path().unwrap();
        assert_eq!(path.file_name().unwrap(), "r-A-L0-000000.nestris");
        let r = Replay::from_bytes(&std::fs::read(path).unwrap()).unwrap();
        assert_eq!(r.inputs.len() as u64, s.frames());
        let summary = r.verify().unwrap();
        assert_eq!(summary.final_hash, s.game().state().state_hash());
    }

    #[test]
    fn with_a_kept_table_the_replay_plays_the_session_s_game() {
        let dir = tempfile::tempdir().unwrap();
        let mut table = HighScores::default();
        table.scores[2] = [0x00, 0x01, 0x00]; // the lowest A-type entry: 100 points
        let rec = Recording::new(dir.path().join("r.nestris"), Region::Ntsc, None);
        let mut s = Session::new(
            Region::Ntsc,
            None,
            false,
            (
                ScoreKeeper::new(Some(dir.path().join("highscores.json")), table.clone()),
                table.clone(),
            ),
            Some(rec),
            None,
        );
        let t = to_play(&mut s, Instant::now());
        run(&mut s, t, 300, Buttons::NONE);
        s.finish().unwrap();
        let path = s.replay_path().unwrap();
        assert_eq!(path.file_name().unwrap(), "r-A-L0-000000.nestris");
        let r = Replay::from_bytes(&std::fs::read(path).unwrap()).unwrap();
        let (replayed, _) = r.play_with_demo(r.inputs.len(), &DemoData::BUILTIN);
        assert_eq!(replayed.state().flow.high_scores, table);
        assert_eq!(&replayed, s.game(), "the same game, table and all");
    }

    #[test]
    fn a_changed_table_is_saved() {
        let dir = tempfile::tempdir().unwrap();
        let mut table = HighScores::default();
        table.scores[0] = [0x12, 0x34, 0x56];
        let mut s = Session::new(
            Region::Pal,
            Some(DemoData::BUILTIN),
            false,
            (
                ScoreKeeper::new(Some(dir.path().join("highscores.json")), table.clone()),
                table.clone(),
            ),
            None,
            None,
        );
        assert_eq!(s.game().state().flow.high_scores, table);
        let path = dir.path().join("highscores.json");
        let t = run(&mut s, Instant::now(), 5, Buttons::NONE);
        assert!(!path.exists(), "unchanged: not written");
        // The engine's table changes (as name entry would): saved on the next frame.
        let mut snap = s.game.snapshot();
        snap.flow.high_scores.names[0] = [1; 6];
        s.game = Game::from_snapshot(snap).unwrap();
        let t = run(&mut s, t, 1, Buttons::NONE);
        let Loaded::Found(saved) = nestris_host::store::load_high_scores(&path) else {
            panic!("not saved");
        };
        assert_eq!(saved.names[0], [1; 6]);
        // A second change within the interval waits, and is kept on exit.
        let mut snap = s.game.snapshot();
        snap.flow.high_scores.names[0] = [2; 6];
        s.game = Game::from_snapshot(snap).unwrap();
        run(&mut s, t, 1, Buttons::NONE);
        let Loaded::Found(saved) = nestris_host::store::load_high_scores(&path) else {
            panic!()
        };
        assert_eq!(saved.names[0], [1; 6]);
        s.finish().unwrap();
        let Loaded::Found(saved) = nestris_host::store::load_high_scores(&path) else {
            panic!()
        };
        assert_eq!(saved.names[0], [2; 6]);
    }

    #[test]
    fn toasts_fade() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path(), false);
        s.toast("SOUND OFF");
        let mut c = Canvas::new(WIDTH, HEIGHT);
        s.draw(&mut c);
        assert_eq!(c.pixel(5, 5), 0);
        run(&mut s, Instant::now(), TOAST_FRAMES as usize, Buttons::NONE);
        assert!(s.toast.is_none());
    }

    #[test]
    fn what_is_not_kept_is_said_on_screen_and_a_lost_replay_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("highscores.json");
        std::fs::write(&path, "{,").unwrap();
        // A file where the replay's folder should be: no save can succeed.
        std::fs::write(dir.path().join("blocked"), "").unwrap();
        let rec = Recording::new(dir.path().join("blocked/r.nestris"), Region::Ntsc, None);
        let mut s = Session::new(
            Region::Ntsc,
            None,
            false,
            ScoreKeeper::open(path),
            Some(rec),
            None,
        );
        run(&mut s, Instant::now(), 1, Buttons::NONE);
        let (text, left) = s.toast.clone().expect("a notice");
        assert!(text.contains("HIGH SCORES UNREADABLE"), "{text}");
        assert_eq!(left, NOTICE_FRAMES);
        let e = s.finish().unwrap_err();
        assert!(e.to_string().contains("could not save the replay"), "{e}");
        assert!(s.finish().is_ok(), "reported once");
    }

    /// Varied play: moves, rotations and drops that change with the frame.
    fn play(s: &mut Session, t: Instant, n: usize, salt: usize) -> Instant {
        let mut t = t;
        for i in 0..n {
            t += Duration::from_millis(16);
            let b = match (i * 7 + salt) % 23 {
                0 | 1 => Buttons::LEFT,
                5 => Buttons::A,
                9..=11 => Buttons::RIGHT,
                14 => Buttons::B,
                17..=20 => Buttons::DOWN,
                _ => Buttons::NONE,
            };
            s.frame(b, t);
        }
        t
    }

    fn replayed_hash(s: &Session) -> (usize, u64) {
        let path = s.replay_path().unwrap();
        let r = Replay::from_bytes(&std::fs::read(path).unwrap()).unwrap();
        (r.inputs.len(), r.verify().unwrap().final_hash)
    }

    #[test]
    fn a_session_with_savestates_and_rewinds_replays_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path(), true);
        let t = to_play(&mut s, Instant::now());
        let t = play(&mut s, t, 300, 0);
        s.save_state(0);
        let saved = (s.game().clone(), s.recording.as_ref().unwrap().frames());
        let t = play(&mut s, t, 200, 1);
        for _ in 0..120 {
            assert!(s.rewind_frame());
        }
        let t = play(&mut s, t, 150, 2);
        s.load_state(0);
        assert_eq!(*s.game(), saved.0, "the savestate is the game as it was");
        assert_eq!(s.recording.as_ref().unwrap().frames(), saved.1);
        let t = play(&mut s, t, 100, 3);
        for _ in 0..30 {
            assert!(s.rewind_frame());
        }
        let t = play(&mut s, t, 50, 4);
        s.load_state(3);
        assert_eq!(s.toast.as_ref().unwrap().0, "SLOT 4 EMPTY");
        run(&mut s, t, 5, Buttons::NONE);
        assert!(s.in_play(), "the test plays within a game");
        s.finish().unwrap();
        let (frames, hash) = replayed_hash(&s);
        assert_eq!(frames, saved.1 + 100 - 30 + 50 + 5);
        assert_eq!(hash, s.game().state().state_hash());
    }

    #[test]
    fn rewinding_stops_at_the_oldest_frame_kept_and_the_table_is_no_longer_kept() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path(), false);
        let t = run(&mut s, Instant::now(), 40, Buttons::NONE);
        let mut n = 0;
        while s.rewind_frame() {
            n += 1;
        }
        assert_eq!(n, 40);
        assert_eq!(*s.game(), Game::power_on(Region::Ntsc));
        assert!(s.practising);
        assert_eq!(s.toast.as_ref().unwrap().0, "PRACTICE: SCORES NOT KEPT");
        run(&mut s, t, 10, Buttons::NONE);
        assert_eq!(s.recording.as_ref().unwrap().frames(), 10);
    }

    #[test]
    fn a_frozen_clock_runs_one_frame_per_advance() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path(), false);
        let t = run(&mut s, Instant::now(), 5, Buttons::NONE);
        s.toggle_freeze();
        let t = run(&mut s, t, 10, Buttons::NONE);
        assert_eq!(s.frames(), 5);
        s.advance();
        let t = run(&mut s, t, 10, Buttons::NONE);
        assert_eq!(s.frames(), 6);
        s.toggle_freeze();
        run(&mut s, t, 10, Buttons::NONE);
        assert_eq!(s.frames(), 16);
    }

    #[test]
    fn a_seed_entered_on_the_level_menu_is_played_and_kept_in_a_new_replay() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path(), false);
        let mut t = run(&mut s, Instant::now(), 270, Buttons::NONE);
        for _ in 0..3 {
            t = start(&mut s, t, 20);
        }
        assert_eq!(s.game().state().screen(), nestris_core::Screen::LevelMenu);
        let first = s.replay_path().unwrap().to_path_buf();
        // Select opens the entry; Up raises the first digit; A plays it.
        let t = run(&mut s, t, 2, Buttons::SELECT);
        assert!(s.entering_seed());
        let t = run(&mut s, t, 1, Buttons::NONE);
        let t = run(&mut s, t, 1, Buttons::UP);
        let t = run(&mut s, t, 1, Buttons::NONE);
        let frames = s.frames();
        let t = run(&mut s, t, 3, Buttons::A);
        assert!(!s.entering_seed());
        let want = nestris_core::GymSeed::new(0x101000, nestris_core::SeedRule::V5);
        assert_eq!(s.game().state().variant.seed, want);
        assert_eq!(s.frames(), frames + 2, "the A held over reached no game");
        assert_eq!(s.game().state().screen(), nestris_core::Screen::LevelMenu);
        assert_ne!(s.replay_path().unwrap(), first, "a new replay");
        assert!(!first.exists(), "the menus alone are not kept");
        let t = start(&mut s, t, 20);
        let t = play(&mut s, t, 400, 0);
        assert!(s.in_play());
        run(&mut s, t, 1, Buttons::NONE);
        s.finish().unwrap();
        let path = s.replay_path().unwrap();
        let r = Replay::from_bytes(&std::fs::read(path).unwrap()).unwrap();
        assert_eq!(r.start.variant().and_then(|v| v.seed), want);
        assert_eq!(
            r.verify().unwrap().final_hash,
            s.game().state().state_hash()
        );
        // A second console given the same seed deals the same pieces: the core's test
        // (`variant::tests`) shows it; here, the seed is on the level menu's picture too.
    }

    #[test]
    fn a_trainer_start_is_played_recorded_and_keeps_no_score() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path(), false);
        let g = nestris_core::trainer::Trainer::TetrisReady.game(Region::Ntsc, 18, 0);
        s.start_from(g);
        assert!(s.in_play());
        assert!(s.practising);
        let t = play(&mut s, Instant::now(), 600, 5);
        run(&mut s, t, 1, Buttons::NONE);
        s.finish().unwrap();
        let (_, hash) = replayed_hash(&s);
        assert_eq!(hash, s.game().state().state_hash());
        assert!(!dir.path().join("highscores.json").exists() || s.practising);
    }

    /// Presses and releases `b` in one frame each.
    fn tap(s: &mut Session, t: Instant, b: Buttons) -> Instant {
        let t = run(s, t, 1, b);
        run(s, t, 1, Buttons::NONE)
    }

    #[test]
    fn the_editor_plays_its_position_and_goes_back_to_it_to_try_again() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path(), true);
        s.set_position_file(dir.path().join("position.txt"));
        let mut t = run(&mut s, Instant::now(), 270, Buttons::NONE);
        s.open_editor(Buttons::NONE);
        assert!(!s.editing(), "not on the title");
        assert_eq!(s.toast.as_ref().unwrap().0, "EDITOR: ON THE LEVEL MENU");
        for _ in 0..3 {
            t = start(&mut s, t, 20);
        }
        assert_eq!(s.game().state().screen(), nestris_core::Screen::LevelMenu);
        s.open_editor(Buttons::NONE);
        assert!(s.editing());
        // The bottom row but its last cell, painted with A held along it; the menu's level.
        let menu = s.game().clone();
        t = run(&mut s, t, 1, Buttons::A);
        for _ in 0..8 {
            t = run(&mut s, t, 1, Buttons(Buttons::A.0 | Buttons::RIGHT.0));
            t = run(&mut s, t, 1, Buttons::A);
        }
        t = run(&mut s, t, 1, Buttons::NONE);
        assert_eq!(*s.game(), menu, "the menu under the editor stands still");
        // Select, then the level: 0 on the menu, 19 after nineteen steps.
        t = tap(&mut s, t, Buttons::SELECT);
        t = tap(&mut s, t, Buttons::DOWN);
        t = tap(&mut s, t, Buttons::DOWN);
        for _ in 0..19 {
            t = tap(&mut s, t, Buttons::RIGHT);
        }
        let want = *s.editor.as_ref().unwrap().position();
        assert_eq!(want.cells[19], [1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
        assert_eq!(want.level, 19);
        // The picture is the editor's: its name where the game type is.
        let (w, h) = s.canvas_size();
        let mut c = Canvas::new(w, h);
        s.draw(&mut c);
        let orange = nestris_render::palette::rgb(nestris_render::palette::CURSOR[1]);
        assert!((24..31).any(|y| (16..80).any(|x| c.pixel(x, y) == orange)));

        // Start plays it: the position's game, and Start held over does not pause it.
        t = run(&mut s, t, 3, Buttons::START);
        assert!(!s.editing() && s.in_play());
        let g = s.game().state();
        assert!(!g.paused());
        assert_eq!(g.level, 19);
        assert!((0..9).all(|c| g.playfield.is_filled(19, c)) && !g.playfield.is_filled(19, 9));
        assert_eq!(g.next_piece, want.next.spawn_id());
        assert!(s.practising, "no score kept");
        t = play(&mut s, t, 400, 1);
        // E: back to the position, to try again.
        s.open_editor(Buttons::NONE);
        assert!(s.editing());
        assert_eq!(*s.editor.as_ref().unwrap().position(), want);
        t = tap(&mut s, t, Buttons::START);
        assert!(s.in_play());
        // The first try was saved when the second began, named for its level.
        let tries: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains("-A-L19-"))
            .collect();
        assert_eq!(tries.len(), 1, "{tries:?}");
        assert_ne!(
            s.replay_path().unwrap(),
            tries[0],
            "each try is its own replay"
        );
        let r = Replay::from_bytes(&std::fs::read(&tries[0]).unwrap()).unwrap();
        assert!(matches!(r.start, nestris_replay::Start::Snapshot(_)));
        assert!(r.verify().is_ok(), "the first try replays");
        // Played to the top; under the curtain, Start goes back to the editor.
        let mut n = 0;
        while !s.game().state().curtain_down() && n < 20_000 {
            t = run(&mut s, t, 1, Buttons::NONE);
            n += 1;
        }
        assert!(s.game().state().curtain_down(), "the game topped out");
        assert_eq!(s.toast.as_ref().unwrap().0, "START: BACK TO THE EDITOR");
        t = run(&mut s, t, 1, Buttons::START);
        assert!(s.editing(), "the editor came back");
        let end = s.game().clone();
        s.finish().unwrap();
        let path = s.replay_path().unwrap();
        let r = Replay::from_bytes(&std::fs::read(path).unwrap()).unwrap();
        let nestris_replay::Start::Snapshot(start) = &r.start else {
            panic!("a snapshot start");
        };
        assert!((0..9).all(|c| start.playfield.is_filled(19, c)));
        assert_eq!(r.verify().unwrap().final_hash, end.state().state_hash());
        // Esc leaves the editor for the level menu it was opened over.
        assert!(s.leave_editor(t));
        assert_eq!(*s.game(), menu);
    }

    #[test]
    fn an_editor_open_from_the_start_is_left_by_quitting() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(dir.path(), false);
        let p = Position {
            current: nestris_core::position::Piece::I,
            ..Position::default()
        };
        s.open_editor_with(p);
        assert!(s.editing());
        let t = run(&mut s, Instant::now(), 10, Buttons::NONE);
        assert_eq!(s.frames(), 0, "the console waits under the editor");
        assert!(!s.leave_editor(t));
        s.save_state(0);
        assert!(s.toast.is_none(), "no savestates in the editor");
        let t = tap(&mut s, t, Buttons::START);
        run(&mut s, t, 100, Buttons::NONE);
        s.finish().unwrap();
        // One replay, the try's: the power-on under the editor ran no frame to keep.
        let kept: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(kept.len(), 1, "{kept:?}");
        let r = Replay::from_bytes(&std::fs::read(&kept[0]).unwrap()).unwrap();
        assert_eq!(r.inputs.len(), 101);
        assert_eq!(
            r.verify().unwrap().final_hash,
            s.game().state().state_hash()
        );
    }
}
