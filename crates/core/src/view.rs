//! What the player sees, said once: the game's modes as types, the questions front ends
//! ask of a state (which screen is up, is a game in play, is it over), and the playfield
//! as the screen shows it, which during a line clear is not the playfield in RAM.
//!
//! The [`Snapshot`] keeps the cartridge's bytes (`game_mode`, `play_state`, ...), since
//! that is what the traces and the encoding hold; everyone outside the core reads them
//! through this module, so that no front end compares state numbers of its own.

use crate::flow::{EndingStep, Resume};
use crate::tables::TILE_EMPTY;
use crate::{Game, Snapshot};

/// `gameMode`: which of the cartridge's screens' code runs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameMode {
    /// 0: the legal screen after power-on.
    Legal,
    /// 1: the title screen.
    Title,
    /// 2: the game-type and music menu.
    TypeMenu,
    /// 3: the level (and B-type height) menu.
    LevelMenu,
    /// 4: a game, from its init to the high-score screen that follows it.
    Play,
    /// 5: the demo game.
    Demo,
    /// 6: the demo's start (and the title's last frame after a reset).
    DemoStart,
}

impl GameMode {
    /// The mode of a `gameMode` byte (0..=6), if it is one.
    pub const fn from_byte(b: u8) -> Option<GameMode> {
        Some(match b {
            0 => GameMode::Legal,
            1 => GameMode::Title,
            2 => GameMode::TypeMenu,
            3 => GameMode::LevelMenu,
            4 => GameMode::Play,
            5 => GameMode::Demo,
            6 => GameMode::DemoStart,
            _ => return None,
        })
    }

    /// The cartridge's byte.
    pub const fn byte(self) -> u8 {
        self as u8
    }

    /// The mode's name in reports (`legal screen`, `title`, ..., `demo start`).
    pub const fn name(self) -> &'static str {
        match self {
            GameMode::Legal => "legal screen",
            GameMode::Title => "title",
            GameMode::TypeMenu => "game-type menu",
            GameMode::LevelMenu => "level menu",
            GameMode::Play => "play",
            GameMode::Demo => "demo",
            GameMode::DemoStart => "demo start",
        }
    }
}

/// `playState`: which step of a piece's life the player update runs (the cartridge's
/// `branchOnPlayStatePlayer1` table).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PlayState {
    /// 0: no piece (`playState_unassignOrientationId`): the game has ended.
    Ended,
    /// 1: the piece is under the player's control (shift, rotate, drop).
    Control,
    /// 2: the piece has landed and locks once the screen copy is done.
    Lock,
    /// 3: one candidate row a frame is checked and, if complete, removed from RAM.
    RowCheck,
    /// 4: the line-clear animation (driven by the frame interrupt).
    ClearAnimation,
    /// 5: lines, level and score are counted.
    Score,
    /// 6: the B-type goal check.
    GoalCheck,
    /// 7: the two-player garbage step (a no-op here: passes to the spawn).
    Garbage,
    /// 8: the next piece spawns.
    Spawn,
    /// 9: a no-op state.
    Noop,
    /// 10: the game-over curtain.
    Curtain,
    /// 11: a step that only advances the state.
    Advance,
}

impl PlayState {
    /// The state of a `playState` byte (0..=11), if it is one.
    pub const fn from_byte(b: u8) -> Option<PlayState> {
        Some(match b {
            0 => PlayState::Ended,
            1 => PlayState::Control,
            2 => PlayState::Lock,
            3 => PlayState::RowCheck,
            4 => PlayState::ClearAnimation,
            5 => PlayState::Score,
            6 => PlayState::GoalCheck,
            7 => PlayState::Garbage,
            8 => PlayState::Spawn,
            9 => PlayState::Noop,
            10 => PlayState::Curtain,
            11 => PlayState::Advance,
            _ => return None,
        })
    }

    /// The cartridge's byte.
    pub const fn byte(self) -> u8 {
        self as u8
    }
}

/// The screen the TV shows, decided as the cartridge decides it: `renderMode` first (what
/// the frame interrupt draws: an ending, name entry), then `gameMode`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Screen {
    /// The picture is off: the reset, or a screen being uploaded (the first waits of every
    /// screen's setup).
    Off,
    /// The legal screen.
    Legal,
    /// The title screen (also the demo's start).
    Title,
    /// The game-type and music menu.
    TypeMenu,
    /// The level menu.
    LevelMenu,
    /// The play screen of a game or of the demo; `paused` with the field hidden.
    Play {
        /// The game is paused (the field is hidden, PAUSE shows).
        paused: bool,
    },
    /// Play mode with nothing drawn: a B-type win darkens the screen before its ending.
    Dark,
    /// An ending (the rocket, the dancers, the B-type stage).
    Ending,
    /// The high-score table with a name being entered.
    NameEntry,
}

/// The 200 visible cells of a playfield, row by row.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board(pub [u8; 200]);

impl Board {
    /// A board of empty tiles.
    pub const EMPTY: Board = Board([TILE_EMPTY; 200]);

    /// The tile at row 0..20, column 0..10.
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> u8 {
        self.0[row * 10 + col]
    }

    /// The visible part of a playfield page.
    #[inline]
    pub fn of(page: &[u8; 256]) -> Board {
        let mut b = [TILE_EMPTY; 200];
        b.copy_from_slice(&page[..200]);
        Board(b)
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::EMPTY
    }
}

impl core::fmt::Debug for Board {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Board ")?;
        f.debug_list()
            .entries(
                self.0
                    .chunks_exact(10)
                    .map(|r| r.iter().map(|&t| t != TILE_EMPTY)),
            )
            .finish()
    }
}

/// Counters the picture shows from before a player update (display lag). The frame
/// interrupt draws lines, level and score from the player's mirror when their render flags
/// are set, and clears the flags. An interrupt that lands inside the player update, before
/// its copy back to the mirror, so draws the values from before the update, and with the
/// flags cleared the picture keeps them until they next change: the lines counter a clear
/// behind, the level (and the level's colours) a level-up behind, the score without the
/// clear's points (`tests/CARTRIDGE.md` §21). Each field is the value drawn, or `None`
/// where the picture shows the variable.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StaleDigits {
    /// `lines` as drawn (BCD, low byte first).
    pub lines: Option<[u8; 2]>,
    /// `levelNumber` as drawn.
    pub level: Option<u8>,
    /// `score` as drawn (BCD, low byte first).
    pub score: Option<[u8; 3]>,
}

/// The rows the row check has removed from RAM while the picture still shows them (the
/// cartridge keeps them only in its picture memory): enough to rebuild the board the lock
/// left, which the screen shows until the line-clear animation ends.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cleared {
    /// Rows removed so far (0..=4).
    pub count: u8,
    /// Their row numbers, in the order removed.
    pub rows: [u8; 4],
    /// For each, the ten bytes the removal overwrote (the row itself; for row 0, the
    /// page's last ten bytes, since that removal moves the whole page).
    pub lost: [[u8; 10]; 4],
}

impl Cleared {
    /// Notes that `row` is about to be removed from `page`.
    #[inline]
    pub(crate) fn push(&mut self, page: &crate::Playfield, row: u8) {
        let i = usize::from(self.count & 3);
        self.rows[i] = row;
        self.lost[i] = page.lost_by_shift(row);
        self.count = self.count.wrapping_add(1).min(4);
    }

    /// The page before the removals noted, from the page after them.
    fn undo(&self, page: &crate::Playfield) -> crate::Playfield {
        let mut p = page.clone();
        for i in (0..usize::from(self.count.min(4))).rev() {
            p.unshift(self.rows[i], &self.lost[i]);
        }
        p
    }
}

impl Snapshot {
    /// The lines counter as the picture shows it ([`StaleDigits`]).
    #[inline]
    pub fn shown_lines(&self) -> [u8; 2] {
        self.stale.lines.unwrap_or(self.lines)
    }

    /// The level as the picture shows it, its number and its colours ([`StaleDigits`]).
    #[inline]
    pub fn shown_level(&self) -> u8 {
        self.stale.level.unwrap_or(self.level)
    }

    /// The score as the picture shows it ([`StaleDigits`]).
    #[inline]
    pub fn shown_score(&self) -> [u8; 3] {
        self.stale.score.unwrap_or(self.score)
    }

    /// True while the picture shows a counter the game has moved past (display lag).
    pub fn display_lag(&self) -> bool {
        self.shown_lines() != self.lines
            || self.shown_level() != self.level
            || self.shown_score() != self.score
    }

    /// `gameMode` as a type. (A validated state holds one of the seven; anything else
    /// reads as the demo's start, the last of them.)
    #[inline]
    pub fn mode(&self) -> GameMode {
        GameMode::from_byte(self.game_mode).unwrap_or(GameMode::DemoStart)
    }

    /// `playState` as a type. (A validated state holds one of the twelve; anything else
    /// reads as the no-op state.)
    #[inline]
    pub fn phase(&self) -> PlayState {
        PlayState::from_byte(self.play_state).unwrap_or(PlayState::Noop)
    }

    /// True in the play screen's modes: a game or the demo.
    #[inline]
    pub fn playing_mode(&self) -> bool {
        matches!(self.mode(), GameMode::Play | GameMode::Demo)
    }

    /// True while a game of the player's is under way: from its init through play, pause,
    /// the curtain, an ending and the name entry that follow (the player loses something
    /// by quitting now).
    #[inline]
    pub fn in_game(&self) -> bool {
        self.mode() == GameMode::Play
    }

    /// True while the game is paused.
    #[inline]
    pub fn paused(&self) -> bool {
        matches!(self.resume, Resume::Paused)
    }

    /// True when the piece can be steered in a normal play frame: the control state of a
    /// game's (or the demo's) play loop, with the play screen drawn.
    #[inline]
    pub fn piece_in_control(&self) -> bool {
        self.playing_mode()
            && self.game_mode_state == 2
            && self.render_mode == 3
            && self.phase() == PlayState::Control
    }

    /// True while the frame interrupt draws the play screen (`renderMode` 3): not in a
    /// pause, an ending or name entry.
    #[inline]
    pub fn play_screen_drawn(&self) -> bool {
        self.render_mode == 3
    }

    /// The orientation the piece's sprites show, if they show: the cartridge stages them
    /// after every player update, so the piece stays up (landed, locked, during the row
    /// check) until it is hidden (19) or the game has ended.
    #[inline]
    pub fn piece_sprite(&self) -> Option<u8> {
        (self.piece < crate::tables::HIDDEN && self.phase() != PlayState::Ended)
            .then_some(self.piece)
    }

    /// True while the sprite page the interrupt copies to the picture is being filled from
    /// a list other than the preview's (the stalls of `tests/CARTRIDGE.md` §21, every frame
    /// flagged [`crate::FrameEvents::SPRITES_GARBLED`]): confetti where the preview was.
    #[inline]
    pub fn sprites_garbled(&self) -> bool {
        matches!(self.resume, Resume::Interrupted(crate::flow::Cut::Player(cut)) if crate::landing::garbled(cut.then))
    }

    /// The orientation the next box shows, if it shows: the preview is on (Select turns
    /// it off) and the game is not paused (the pause screen hides it).
    #[inline]
    pub fn next_shown(&self) -> Option<u8> {
        (self.display_next_piece == 0 && !self.paused() && self.next_piece < crate::tables::HIDDEN)
            .then_some(self.next_piece)
    }

    /// True once the game has topped out: the curtain falls, or has fallen.
    #[inline]
    pub fn topped_out(&self) -> bool {
        self.phase() == PlayState::Curtain
    }

    /// True once the curtain has covered the field and the game waits for the curtain's
    /// end (Start, or the ending for a high enough score).
    #[inline]
    pub fn curtain_down(&self) -> bool {
        self.topped_out() && self.curtain_row == 20
    }

    /// True when the game waits for the player's Start: in name entry, in an ending (its
    /// setup included), or under the fallen curtain.
    #[inline]
    pub fn awaiting_start(&self) -> bool {
        matches!(self.render_mode, 2 | 4) || self.curtain_down()
    }

    /// The screen the TV shows.
    pub fn screen(&self) -> Screen {
        if picture_off(self.resume) {
            return Screen::Off;
        }
        match self.render_mode {
            4 => Screen::Ending,
            2 => Screen::NameEntry,
            _ => match self.mode() {
                GameMode::Legal => Screen::Legal,
                GameMode::Title | GameMode::DemoStart => Screen::Title,
                GameMode::TypeMenu => Screen::TypeMenu,
                GameMode::LevelMenu => Screen::LevelMenu,
                GameMode::Play | GameMode::Demo => match (self.render_mode, self.resume) {
                    (0, Resume::Paused) => Screen::Play { paused: true },
                    (0, _) => Screen::Dark,
                    _ => Screen::Play { paused: false },
                },
            },
        }
    }

    /// True in the frames a blinking menu cursor is shown: the cartridge hides it when the
    /// frame counter's low bits are zero ([`crate::Region::menu_cursor_mask`]).
    #[inline]
    pub fn cursor_shown(&self) -> bool {
        self.frame_counter & self.region.menu_cursor_mask() != 0
    }

    /// The 200 cells of the playfield as the screen shows them in this frame.
    ///
    /// The row check removes a completed row from RAM as soon as it finds it, but the
    /// picture keeps the board as the lock left it until the line-clear animation has
    /// blanked the completed rows from the centre outwards: step k blanks columns 4-k
    /// and 5+k. A completed row 0 is stored as "no row", and the animation skips it.
    ///
    /// After the animation the interrupt redraws the board from RAM, four rows a frame
    /// from the top (`vramRow`): until it is done, the rows below the redrawn ones still
    /// show the lock's board with the completed rows blank.
    pub fn shown_board(&self) -> Board {
        if self.clearing_shown() {
            let mut b = Board::of(&self.cleared.undo(&self.playfield).0);
            if self.phase() == PlayState::ClearAnimation {
                self.blank_completed(&mut b, usize::from(self.row_y.min(5)));
            }
            return b;
        }
        let mut b = Board::of(&self.playfield.0);
        if self.redrawing_after_clear() {
            let mut old = Board::of(&self.cleared.undo(&self.playfield).0);
            self.blank_completed(&mut old, 5);
            let from = usize::from(self.vram_row) * 10;
            b.0[from..].copy_from_slice(&old.0[from..]);
        }
        b
    }

    /// Blanks columns 4-k .. 5+k of the completed rows (step k of the animation; a
    /// completed row 0 is stored as "no row", and the animation skips it).
    fn blank_completed(&self, b: &mut Board, k: usize) {
        for &row in self.completed_row.iter().filter(|&&r| r != 0 && r < 20) {
            let base = usize::from(row) * 10;
            b.0[base + 5 - k..base + 5 + k].fill(TILE_EMPTY);
        }
    }

    /// True between the animation's end and the end of the redraw that follows it.
    #[inline]
    fn redrawing_after_clear(&self) -> bool {
        self.cleared.count != 0
            && self.vram_row < 20
            && matches!(
                self.phase(),
                PlayState::Score | PlayState::GoalCheck | PlayState::Garbage | PlayState::Spawn
            )
            && self.playing_mode()
    }

    /// True while the screen shows the board before the rows noted in
    /// [`Snapshot::cleared`] were removed: in a play mode, during the row check (once a
    /// row was found) and the animation.
    #[inline]
    fn clearing_shown(&self) -> bool {
        matches!(
            self.phase(),
            PlayState::RowCheck | PlayState::ClearAnimation
        ) && self.completed_lines != 0
            && self.playing_mode()
    }
}

impl Game {
    /// True when the game is over for whoever plays it: it left the play mode, topped out,
    /// ended, reached an ending, or (under [`crate::CrashMode::Cartridge`]) a crash took
    /// it. A game still being set up (its background and init, `gameModeState` 0 and 1,
    /// where `playState` is the last game's) is not over. The one rule the simulator, the
    /// AI, the replays and the Python episodes share.
    #[inline]
    pub fn is_over(&self) -> bool {
        let s = &self.s;
        self.crash_ended()
            || s.mode() != GameMode::Play
            || s.phase() == PlayState::Curtain
            || (s.phase() == PlayState::Ended && s.game_mode_state >= 2)
            || matches!(s.resume, Resume::Ending(_))
    }
}

/// The label of a game type byte as the screens print it: "A-TYPE" (0) or "B-TYPE".
pub const fn type_name(game_type: u8) -> &'static str {
    if game_type == 0 {
        "A-TYPE"
    } else {
        "B-TYPE"
    }
}

/// The first slot of a game type's three in the high-score table (A: 0..=2, B: 4..=6;
/// slots 3 and 7 are the cartridge's unused fourth rows).
pub const fn high_score_base(game_type: u8) -> usize {
    if game_type == 0 {
        0
    } else {
        4
    }
}

/// A high-score name letter: 0 blank, 1-26 A-Z, 27-36 0-9, then `-.,/!?`; anything else
/// blank.
pub const fn name_char(code: u8) -> char {
    match code {
        1..=26 => (b'A' + code - 1) as char,
        27..=36 => (b'0' + code - 27) as char,
        37 => '-',
        38 => '.',
        39 => ',',
        40 => '/',
        41 => '!',
        42 => '?',
        _ => ' ',
    }
}

impl Snapshot {
    /// The best score in the high-score table for this game's type (TOP on the play
    /// screen), BCD, most significant byte first.
    #[inline]
    pub fn top_score(&self) -> [u8; 3] {
        self.flow.high_scores.scores[high_score_base(self.game_type)]
    }

    /// In name entry: the table slot being named and the letter (0..=5) being edited.
    #[inline]
    pub fn name_entry(&self) -> (usize, usize) {
        (
            usize::from(self.flow.entry_slot & 7),
            usize::from(self.flow.entry_letter.min(5)),
        )
    }
}

/// True while the cartridge has the picture off: the reset, and the first three waits of
/// every screen's setup, when it uploads the new screen.
fn picture_off(r: Resume) -> bool {
    match r {
        Resume::Reset(_) => true,
        Resume::LegalSetup(n)
        | Resume::TitleSetup(n)
        | Resume::TypeMenuSetup(n)
        | Resume::LevelMenuSetup(n)
        | Resume::GameBackground(n)
        | Resume::HighScoreSetup(n)
        | Resume::Ending(EndingStep::Setup(n)) => n < 4,
        _ => false,
    }
}
