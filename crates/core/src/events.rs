//! What a frame did, for front ends: sounds, animations, statistics.

/// Things that happened in one frame, as bit flags plus the size of a line clear.
///
/// The engine never calls back; a front end reads these after [`crate::Game::step`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct FrameEvents {
    /// Which events happened (the `FrameEvents::*` flag constants).
    pub flags: u32,
    /// Rows cleared in this frame's scoring step (1..=4, or more with the row-0 quirk); 0 otherwise.
    pub lines_cleared: u8,
    /// The CPU cycles the cartridge spent on this frame (see [`Cycles`]).
    pub cycles: Cycles,
}

/// Where a frame's CPU cycles went, counted as the cartridge's code runs (see
/// [`crate::cycles`]). Zero for parts the model does not count (menus, endings).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Cycles {
    /// The frame interrupt's handler, first instruction to the end of its `rti`.
    pub nmi: u16,
    /// `gameModeState_updatePlayer1`'s piece work: the `jsr branchOnPlayStatePlayer1` with the
    /// `playState` handler, and the two sprite stagings (each with its `jsr`).
    pub player: u16,
    /// The sound engine's update, from the `jsr updateAudio_jmp` to its return.
    pub audio: u16,
    /// The whole main-loop work of the frame, from the interrupt's return to the wait loop's
    /// first instruction (`player` and `audio` included).
    pub work: u16,
    /// False when the frame ran code whose cycles the model does not count.
    pub known: bool,
    /// When the next interrupt came before the work was done (a lag frame): the cycles from
    /// the handler's start to the end of the instruction it followed; 0 otherwise.
    pub landed: u16,
}

impl FrameEvents {
    /// The piece moved sideways (the cartridge's shift sound).
    pub const SHIFTED: u32 = 1 << 0;
    /// The piece rotated (the rotate sound).
    pub const ROTATED: u32 = 1 << 1;
    /// The piece dropped one row (by gravity or soft drop).
    pub const DROPPED: u32 = 1 << 2;
    /// The piece dropped one row by soft drop.
    pub const SOFT_DROPPED: u32 = 1 << 3;
    /// The piece could not move down: it will lock (the landing; lock sound).
    pub const LANDED: u32 = 1 << 4;
    /// The piece was written into the playfield.
    pub const LOCKED: u32 = 1 << 5;
    /// A completed row was found and removed from the playfield (line-clear sound).
    pub const ROW_COMPLETED: u32 = 1 << 6;
    /// Lines were counted and scored (`lines_cleared` holds how many).
    pub const LINES_CLEARED: u32 = 1 << 7;
    /// Four or more lines at once.
    pub const TETRIS: u32 = 1 << 8;
    /// The level went up. In a lag frame (see [`Self::LAG`]) whose interrupt came before
    /// the level was written, the state still shows the level before, and shows the new
    /// one from the next frame on.
    pub const LEVEL_UP: u32 = 1 << 9;
    /// The score changed.
    pub const SCORE_CHANGED: u32 = 1 << 10;
    /// A new piece spawned.
    pub const SPAWNED: u32 = 1 << 11;
    /// The piece locked overlapping the stack: the game is over, the curtain starts.
    pub const TOPPED_OUT: u32 = 1 << 12;
    /// The curtain covered one more row.
    pub const CURTAIN_ROW: u32 = 1 << 13;
    /// The line-clear animation advanced one step.
    pub const LINE_CLEAR_STEP: u32 = 1 << 14;
    /// Select toggled the next-piece preview.
    pub const NEXT_TOGGLED: u32 = 1 << 15;
    /// The game paused.
    pub const PAUSED: u32 = 1 << 16;
    /// The game resumed from pause.
    pub const RESUMED: u32 = 1 << 17;
    /// The game ended (`playState` 0: the high-score check and the menu follow).
    pub const GAME_ENDED: u32 = 1 << 18;
    /// A B-type game reached 0 lines.
    pub const B_TYPE_WON: u32 = 1 << 19;
    /// The stack reached row 5 or left it again: the music changes tempo.
    pub const MUSIC_TEMPO: u32 = 1 << 20;
    /// A menu cursor moved or a menu choice was made (menu sound).
    pub const MENU_BEEP: u32 = 1 << 21;
    /// The screen changed (legal, title, menus, play, ending, name entry).
    pub const SCREEN_CHANGED: u32 = 1 << 22;
    /// The demo started or ended.
    pub const DEMO: u32 = 1 << 23;
    /// A lag frame: the next frame interrupt arrived before this frame's work was done (the
    /// state is the one at that interrupt; the work finishes in the next frame).
    pub const LAG: u32 = 1 << 24;
    /// The interrupt of the last (lag) frame broke a jump-table dispatch: it zeroed the
    /// pointer the dispatch jumps through, and the cartridge jumped to an address read from
    /// the wrong page ([`crate::Jump`]). Depending on the address the CPU halts, or the game
    /// freezes in the legal screen's code (both crashes: [`Self::CRASHED`] and the game's
    /// [`crate::CrashMode`]), or a harmless detour runs and the game goes on.
    pub const DISPATCH_BROKEN: u32 = 1 << 25;
    /// The cartridge crashed in this frame ([`crate::Crash`]: see [`crate::CrashMode`]). With
    /// [`crate::CrashMode::Cartridge`] every later frame of a halted game is flagged too;
    /// never with [`crate::CrashMode::Off`].
    pub const CRASHED: u32 = 1 << 26;
    /// The sprites shown this frame are garbage ("confetti"): an interrupt left the
    /// preview's sprite staging reading a list outside the preview's (the stalls of
    /// `tests/CARTRIDGE.md` §21), so the sprite page the interrupt copied to the picture
    /// holds whatever bytes that list read. Flagged on every frame of a stall.
    pub const SPRITES_GARBLED: u32 = 1 << 27;
    /// A broken dispatch ran the picture-memory fill at `$AA82` ([`crate::Jump`]): 1,024
    /// bytes of tile `$FF` written from picture address `$2A00` while the screen is drawn,
    /// a glitch on screen until the next redraw of the picture memory.
    pub const PICTURE_FILLED: u32 = 1 << 28;
    /// The row check is done and found rows: the line-clear animation begins (play state 3
    /// to 4), which is where the cartridge starts the line-clear or tetris sound
    /// (`completed_lines` in the state says which).
    pub const CLEAR_STARTED: u32 = 1 << 29;
    /// A halting line cap ended the game (a variant's rule; see [`crate::Variant`]).
    pub const CAPPED: u32 = 1 << 30;
    /// This frame's interrupt drew lines, level or score in the middle of a player update,
    /// from the values before it: the picture keeps showing them until they next change
    /// (display lag; see [`crate::view::StaleDigits`], [`crate::Snapshot::display_lag`]).
    pub const DIGITS_STALE: u32 = 1 << 31;

    /// True if every flag of `flag` is set.
    #[inline]
    pub const fn has(&self, flag: u32) -> bool {
        self.flags & flag == flag
    }

    #[inline]
    pub(crate) fn set(&mut self, flag: u32) {
        self.flags |= flag;
    }

    /// Counts `cycles` of main-loop work when the frame is counted at all (`COUNT`).
    #[inline(always)]
    pub(crate) fn count<const COUNT: bool>(&mut self, cycles: u32) {
        if COUNT {
            self.add_work(cycles);
        }
    }

    /// Counts `cycles` of main-loop work.
    #[inline(always)]
    pub(crate) fn add_work(&mut self, cycles: u32) {
        self.cycles.work = self.cycles.work.wrapping_add(cycles as u16);
    }
}
