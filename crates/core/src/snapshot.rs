//! The complete game state as plain data, and its validation.
//!
//! A [`Snapshot`] holds every variable of the cartridge that influences a later frame,
//! under the cartridge's own names. [`crate::Game`] is a validated `Snapshot`; cloning a
//! `Game` is the save state, and a `Snapshot` is its inspectable, serializable form.

use crate::bcd::is_bcd;
use crate::flow::Resume;
use crate::playfield::Playfield;
use crate::region::Region;
use crate::tables::ORIENTATION_COUNT;

/// Every variable of the game, named after the cartridge's RAM (see `CARTRIDGE.md` section 1).
///
/// Counters are the cartridge's raw bytes: `lines` and `score` are BCD, low byte first;
/// `autorepeat_y` is a signed countdown stored as a byte; `stats` are 2-byte BCD
/// counters per piece type (T J Z O S L I), low byte first.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Snapshot {
    /// Which build's constants apply.
    pub region: Region,
    /// Where the cartridge's main loop waits for the next frame.
    pub resume: Resume,
    /// `gameMode`: 0 legal, 1 title, 2 game-type menu, 3 level menu, 4 play, 5 demo, 6 demo start.
    pub game_mode: u8,
    /// `gameModeState`: the sub-state of play (2 = the normal frame, 1 = game setup).
    pub game_mode_state: u8,
    /// `playState`: 0 ended, 1 control, 2 lock, 3 row check, 4 clear animation, 5 score,
    /// 6 B-type goal, 7 garbage, 8 spawn, 10 curtain.
    pub play_state: u8,
    /// `renderMode`: 3 while playing, 0 while paused, 4 in an ending, 2 in name entry.
    pub render_mode: u8,
    /// `tetriminoX`: column of the piece's pivot.
    pub x: u8,
    /// `tetriminoY`: row of the piece's pivot.
    pub y: u8,
    /// `currentPiece`: orientation id 0..=18, or 19 (hidden).
    pub piece: u8,
    /// `nextPiece`: orientation id of the preview piece.
    pub next_piece: u8,
    /// `levelNumber`: the binary level.
    pub level: u8,
    /// `startLevel`: the level chosen on the menu, +10 applied.
    pub start_level: u8,
    /// `startHeight`: the B-type garbage height 0..=5.
    pub start_height: u8,
    /// `fallTimer`: frames since the last drop.
    pub fall_timer: u8,
    /// `autorepeatX`: the DAS counter.
    pub autorepeat_x: u8,
    /// `autorepeatY`: soft-drop counter; negative (first piece) counts up to 0.
    pub autorepeat_y: u8,
    /// `holdDownPoints`: soft-drop rows counted for points.
    pub hold_down_points: u8,
    /// `vramRow`: next playfield row the frame interrupt copies to the screen (32 = done).
    pub vram_row: u8,
    /// `completedLines`: rows completed by the last lock.
    pub completed_lines: u8,
    /// `completedRow`: the rows found complete (0 = none) per checked row.
    pub completed_row: [u8; 4],
    /// `lineIndex`: which of the four candidate rows is checked next.
    pub line_index: u8,
    /// `rowY`: line-clear animation step 0..=5.
    pub row_y: u8,
    /// `curtainRow`: game-over curtain progress (starts at -16).
    pub curtain_row: u8,
    /// `lines`: BCD, low byte first (`lines[1]` is the hundreds, counted in binary).
    pub lines: [u8; 2],
    /// `score`: BCD, low byte first.
    pub score: [u8; 3],
    /// `rng_seed` as one 16-bit value (the high byte is the one the picker reads).
    pub rng: u16,
    /// `spawnID`: orientation id of the last random pick.
    pub spawn_id: u8,
    /// `spawnCount`: random picks so far (never reset by a new game).
    pub spawn_count: u8,
    /// `frameCounter`: frame interrupts so far.
    pub frame_counter: u16,
    /// `sleepCounter`: frames left in one of the cartridge's timed waits.
    pub sleep_counter: u8,
    /// `heldButtons`: the buttons held in this frame.
    pub held: u8,
    /// `newlyPressedButtons`: the buttons pressed in this frame and not in the last.
    pub pressed: u8,
    /// `gameType`: 0 A-type, 1 B-type.
    pub game_type: u8,
    /// `musicType`: the music chosen on the menu (0..=3, 3 = off).
    pub music_type: u8,
    /// `displayNextPiece`: 0 while the preview is shown.
    pub display_next_piece: u8,
    /// `originalY`: on the level menu, the field the cursor is on (0 level, 1 height);
    /// elsewhere a scratch byte (the last piece sprite's row) that the menu shows briefly.
    pub selecting: u8,
    /// `allegro`: nonzero while the music runs fast (a block at row 5 or above).
    pub allegro: u8,
    /// `lineClearStatsByType`: singles, doubles, triples, tetrises (BCD, no carry).
    pub clears: [u8; 4],
    /// `statsByType`: pieces dealt per type T J Z O S L I (2-byte BCD, low byte first).
    pub stats: [[u8; 2]; 7],
    /// Page 4: the playfield and the bytes after it.
    pub playfield: Playfield,
    /// The cartridge flow's own variables (menus, endings, name entry, demo).
    pub flow: crate::flow::FlowVars,
    /// `outOfDateRenderFlags`: what the frame interrupt redraws next (lines, level, score,
    /// statistics, a name-entry letter; the `RENDER_*` bits of [`crate::cycles`]). The
    /// interrupt's length depends on it.
    pub render_flags: u8,
    /// Where the last frame interrupt found the CPU (sub-frame timing; see [`crate::timing`]).
    pub clock: crate::timing::Clock,
    /// The sound engine's variables (page 6): its cycles count in every frame.
    pub audio: crate::audio::Audio,
    /// What the engine does when the cartridge would crash (a game-setup option, not a
    /// cartridge variable; see [`crate::CrashMode`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub crash_mode: crate::CrashMode,
    /// How the cartridge crashed in this game, if it did (see [`crate::Game::crashed`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub crash: Option<crate::Crash>,
    /// Rules that are not the cartridge's, and the seeded generator's state (a game-setup
    /// option; see [`crate::Variant`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub variant: crate::Variant,
    /// The rows the row check removed from RAM, kept until the line-clear animation ends
    /// (none otherwise). The cartridge keeps them only in its picture memory; with them
    /// [`Snapshot::shown_board`] draws the board the lock left, so that a cloned `Game`
    /// shows what the original shows.
    #[cfg_attr(feature = "serde", serde(default))]
    pub cleared: crate::view::Cleared,
    /// Lines, level and score as the picture shows them where the interrupt drew them in
    /// the middle of a player update (display lag; see [`crate::view::StaleDigits`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub stale: crate::view::StaleDigits,
}

/// Why a [`Snapshot`] cannot become a [`crate::Game`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SnapshotError {
    /// `piece` is not an orientation id 0..=19.
    BadPiece(u8),
    /// `next_piece` is not an orientation id 0..=18.
    BadNextPiece(u8),
    /// `x` or `y` is outside the field (pivot column 0..=9, row 0..=19).
    BadPosition {
        /// The column.
        x: u8,
        /// The row.
        y: u8,
    },
    /// A state number is outside the cartridge's tables.
    BadState {
        /// Which field.
        field: &'static str,
        /// The value found.
        value: u8,
    },
    /// A BCD byte holds a digit above 9.
    NotBcd {
        /// Which field.
        field: &'static str,
        /// The byte found.
        value: u8,
    },
    /// A field is outside its range.
    OutOfRange {
        /// Which field.
        field: &'static str,
        /// The value found.
        value: u8,
    },
}

impl core::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SnapshotError::BadPiece(p) => write!(f, "piece {p} is not an orientation id (0-19)"),
            SnapshotError::BadNextPiece(p) => {
                write!(f, "next piece {p} is not an orientation id (0-18)")
            }
            SnapshotError::BadPosition { x, y } => {
                write!(
                    f,
                    "piece position x={x} y={y} is outside the field (x 0-9, y 0-19)"
                )
            }
            SnapshotError::BadState { field, value } => {
                write!(f, "{field} = {value} is not a state the cartridge has")
            }
            SnapshotError::NotBcd { field, value } => {
                write!(f, "{field} byte ${value:02X} is not two decimal digits")
            }
            SnapshotError::OutOfRange { field, value } => {
                write!(f, "{field} = {value} is out of range")
            }
        }
    }
}

impl core::error::Error for SnapshotError {}

impl Snapshot {
    /// Checks that every field holds a value the cartridge can hold.
    pub fn validate(&self) -> Result<(), SnapshotError> {
        if self.piece > ORIENTATION_COUNT {
            return Err(SnapshotError::BadPiece(self.piece));
        }
        if self.next_piece >= ORIENTATION_COUNT {
            return Err(SnapshotError::BadNextPiece(self.next_piece));
        }
        if self.x > 9 || self.y > 19 {
            return Err(SnapshotError::BadPosition {
                x: self.x,
                y: self.y,
            });
        }
        let states: [(&'static str, u8, u8); 6] = [
            ("game_mode", self.game_mode, 6),
            ("game_mode_state", self.game_mode_state, 8),
            ("play_state", self.play_state, 11),
            ("render_mode", self.render_mode, 4),
            ("game_type", self.game_type, 1),
            ("line_index", self.line_index, 4),
        ];
        for (field, value, max) in states {
            if value > max {
                return Err(SnapshotError::BadState { field, value });
            }
        }
        if self.start_height > 5 {
            return Err(SnapshotError::OutOfRange {
                field: "start_height",
                value: self.start_height,
            });
        }
        if self.music_type > 3 {
            return Err(SnapshotError::OutOfRange {
                field: "music_type",
                value: self.music_type,
            });
        }
        // -16..=20: the curtain's countdown, then the rows it covers.
        if (self.curtain_row as i8) < -16 || (self.curtain_row as i8) > 20 {
            return Err(SnapshotError::OutOfRange {
                field: "curtain_row",
                value: self.curtain_row,
            });
        }
        if let crate::Resume::GameInit { rows_left } = self.resume {
            if rows_left > 12 {
                return Err(SnapshotError::OutOfRange {
                    field: "rows_left",
                    value: rows_left,
                });
            }
        }
        if let crate::Resume::Interrupted(crate::Cut::Player(cut)) = self.resume {
            cut.validate(self.game_mode)?;
        }
        if self.row_y > 5 {
            return Err(SnapshotError::OutOfRange {
                field: "row_y",
                value: self.row_y,
            });
        }
        if self.completed_lines > 5 {
            return Err(SnapshotError::OutOfRange {
                field: "completed_lines",
                value: self.completed_lines,
            });
        }
        for (field, b) in [
            ("score", self.score[0]),
            ("score", self.score[1]),
            ("score", self.score[2]),
            ("lines", self.lines[0]),
        ] {
            if !is_bcd(b) {
                return Err(SnapshotError::NotBcd { field, value: b });
            }
        }
        for s in &self.stats {
            if !is_bcd(s[0]) {
                return Err(SnapshotError::NotBcd {
                    field: "stats",
                    value: s[0],
                });
            }
        }
        self.flow.validate()
    }
}
