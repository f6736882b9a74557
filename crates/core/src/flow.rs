//! Where the cartridge's main loop waits between frames, and the flow's own variables.
//!
//! The cartridge is a main loop that runs handlers until one of them waits for the next
//! frame interrupt; many routines wait in the middle (pause, game init, screen redraws,
//! timed sleeps, endings, name entry). [`Resume`] names each such waiting point so that
//! a frame continues exactly where the cartridge would. A few redraws switch the frame
//! interrupt off long enough that one video frame passes without it
//! ([`FlowVars::nmi_off_frames`]).

pub use crate::overrun::Jump;
use crate::snapshot::SnapshotError;

/// Where the interrupt of a lag frame cut the main loop (see [`Resume::Interrupted`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Cut {
    /// In or after the sound update: the frame's logic is done.
    Audio,
    /// In the passes after the player update: the handlers from `game_mode_state` on, then
    /// the sound update, are still to run (with the new frame's buttons).
    Passes,
    /// As `Passes`, but inside a jump-table dispatch whose pointer the interrupt zeroed
    /// (see [`crate::FrameEvents::DISPATCH_BROKEN`]): the dispatch goes where [`Jump`] says.
    Dispatch(Jump),
    /// Inside `gameModeState_updatePlayer1` after its score state ran into the interrupt:
    /// the rest of the update, then the passes and the sound update, are still to run. While
    /// it lasts the snapshot's player fields hold the mirror block ($60), which the
    /// interrupt draws and a recording samples; the work's own values are in the cut.
    Player(PlayerCut),
}

/// Where the interrupt stopped the player update (see [`Cut::Player`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayerCut {
    /// Cycles from the end of the interrupted instruction to the end of the unit it belongs
    /// to (one pass of the score loop, one copied byte, one staged sprite, ...).
    pub rest: u16,
    /// What the update runs after that unit.
    pub then: Then,
    /// The active block ($40) where the score state changes it: the snapshot holds the
    /// mirror ($60) until the update is done.
    pub active: Block,
    /// The update's own copies of the buttons (`newlyPressedButtons`, `heldButtons`), taken
    /// before the interrupt read the pad again.
    pub buttons: [u8; 2],
}

/// The bytes of a player block that the score state changes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Block {
    /// `levelNumber` (block offset $04).
    pub level: u8,
    /// `playState` ($08).
    pub play_state: u8,
    /// `holdDownPoints` ($0F).
    pub hold_down_points: u8,
    /// `lines` ($10, $11).
    pub lines: [u8; 2],
    /// `score` ($13-$15).
    pub score: [u8; 3],
    /// `completedLines` ($16).
    pub completed_lines: u8,
}

/// The next unit of the player update after an interrupted one (see [`PlayerCut`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Then {
    /// The score loop's next pass, `left` passes still to run (0: the loop is over).
    Score {
        /// Passes still to run.
        left: u16,
    },
    /// `stageSpriteForCurrentPiece`, then the copy to the mirror.
    CurrentPiece,
    /// `savePlayer1State`'s copy loop at index `x` (`0xFF`: the copy is done).
    Save {
        /// The next byte to copy (counting down).
        x: u8,
    },
    /// `stageSpriteForNextPiece`.
    NextPiece,
    /// `loadSpriteIntoOamStaging`'s loop, reading the sprite list at `ptr` from `y`.
    Sprites {
        /// The list's address (`generalCounter`, `generalCounter2`).
        ptr: u16,
        /// The loop's offset.
        y: u8,
    },
    /// `loadSpriteIntoOamStaging`'s loop at `ptr` from 0, after the rest of its setup: an
    /// interrupt between the setup's two stores of the list's address left the low byte
    /// (the high one, stored after it, is the list's own).
    List {
        /// The list's address as the loop will read it.
        ptr: u16,
    },
    /// `inc gameModeState` and the update's `rts`.
    Finish,
    /// Nothing: after `rest` the update has returned.
    #[default]
    Done,
}

/// The point where the main loop waits for the next frame.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Resume {
    /// The main loop's own wait: the next frame runs the handler for `game_mode_state`.
    #[default]
    MainLoop,
    /// Inside game init, after a wait; `rows_left` B-type garbage rows are still to come.
    GameInit {
        /// Garbage rows still to generate (0: only the height blanking is left).
        rows_left: u8,
    },
    /// The last frame's work was cut by the interrupt before its wait (a lag frame):
    /// `clock.pending` cycles of it remain, then what `Cut` says, then the wait.
    Interrupted(Cut),
    /// In the pause loop (waiting for a frame whose newly-pressed byte is exactly Start).
    Paused,
    /// `initGameBackground` after its n-th wait (1..=4).
    GameBackground(u8),
    /// A timed or Start-ended step of the game-over path (curtain sleep, endings).
    Ending(EndingStep),
    /// The high-score screen's setup after its n-th wait (1..=4).
    HighScoreSetup(u8),
    /// Name entry, once per frame until Start.
    NameEntry,
    /// Name entry finished; the last wait before the game-over reset.
    NameEntryDone,
    /// The game-over reset after its wait: the level menu comes next.
    GameOverReset,
    /// The level menu's setup after its n-th wait (1..=4).
    LevelMenuSetup(u8),
    /// The level menu, once per frame.
    LevelMenu,
    /// The reset code after power-on, after its n-th wait (1..=4).
    Reset(u8),
    /// The legal screen's setup after its n-th wait (1..=4).
    LegalSetup(u8),
    /// The legal screen's timed wait (`sleepCounter`), then the wait for Start.
    LegalSleep,
    /// The legal screen waiting for Start (`legal_countdown` frames at most).
    LegalWait,
    /// The title screen's setup after its n-th wait (1..=4).
    TitleSetup(u8),
    /// The title screen waiting for Start or the demo timeout.
    Title,
    /// The game-type menu's setup after its n-th wait (1..=4).
    TypeMenuSetup(u8),
    /// The game-type menu, once per frame.
    TypeMenu,
    /// The CPU halted after a crash ([`crate::CrashMode::Cartridge`]): no frame runs any more.
    Halted,
}

/// The steps of the game-over path that wait for frames.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EndingStep {
    /// A-type, score of 30,000 or more: the wait between the curtain and the ending.
    CurtainSleep,
    /// The ending's screen setup after its n-th wait (1..=4).
    Setup(u8),
    /// The first, unskippable part of the ending (the rocket stands).
    Unskippable,
    /// A-type: the rocket flies; Start ends the ending once it has left.
    Rocket,
    /// B-type win: the success banner is shown.
    BannerSleep,
    /// B-type win: the screen goes dark before the ending.
    DarkSleep,
    /// B-type: the score is taken into the bonus counter.
    BonusStart,
    /// B-type: the pause before the bonus count.
    BeforeBonus,
    /// B-type: level bonus, 100 points each 2 frames.
    LevelBonus,
    /// B-type: the pause after the level bonus.
    AfterLevelBonus,
    /// B-type: height bonus, 100 points each 2 frames.
    HeightBonus,
    /// B-type: the pause after the height bonus.
    AfterHeightBonus,
    /// B-type: waiting for Start.
    WaitStart,
}

/// The high-score table (page 7 of the console's RAM): three entries per game type
/// (A: 0..=2, B: 4..=6; 3 and 7 are unused slots).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HighScores {
    /// Names, six letters per entry (0 blank, 1..=26 A-Z, 27..=36 0-9, then symbols).
    pub names: [[u8; 6]; 8],
    /// Scores, BCD, high byte first.
    pub scores: [[u8; 3]; 8],
    /// Levels reached.
    pub levels: [u8; 8],
}

impl Default for HighScores {
    /// The table a new cartridge starts with.
    fn default() -> Self {
        const fn name(s: &[u8; 6]) -> [u8; 6] {
            let mut out = [0u8; 6];
            let mut i = 0;
            while i < 6 {
                out[i] = match s[i] {
                    b' ' => 0x2B,
                    c => c - b'A' + 1,
                };
                i += 1;
            }
            out
        }
        HighScores {
            names: [
                name(b"HOWARD"),
                name(b"OTASAN"),
                name(b"LANCE "),
                [0; 6],
                name(b"ALEX  "),
                name(b"TONY  "),
                name(b"NINTEN"),
                [0; 6],
            ],
            scores: [
                [0x01, 0x00, 0x00],
                [0x00, 0x75, 0x00],
                [0x00, 0x50, 0x00],
                [0; 3],
                [0x00, 0x20, 0x00],
                [0x00, 0x10, 0x00],
                [0x00, 0x05, 0x00],
                [0; 3],
            ],
            levels: [9, 5, 0, 0, 9, 5, 0, 0],
        }
    }
}

/// Variables of the flow around play (menus, endings, name entry, demo).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlowVars {
    /// Video frames still to pass without a frame interrupt (reset, screen uploads).
    pub nmi_off_frames: u8,
    /// True when the frame interrupt did not run in the last frame (screen redraws).
    pub nmi_off_this_frame: bool,
    /// `player1_garbageHole`, re-rolled every level-menu frame.
    pub garbage_hole: u8,
    /// `ending`: which A-type ending (0..=4 by score).
    pub ending: u8,
    /// `ending_customVars`: the A-type rocket's height and launch timer.
    pub ending_vars: [u8; 2],
    /// `totalScore`: the B-type ending's score with bonus (BCD, low byte first).
    pub total_score: [u8; 3],
    /// The B-type level bonus still to add (BCD hundreds).
    pub level_bonus: u8,
    /// The B-type height bonus still to add (BCD hundreds).
    pub height_bonus: u8,
    /// The level as the B-type ending shows it (a digit); the real level returns after.
    pub ending_level: u8,
    /// The high-score table.
    pub high_scores: HighScores,
    /// The legal screen's `generalCounter`: frames left to wait for Start.
    pub legal_countdown: u8,
    /// `demoButtonsAddr`: the demo's read position in its button table (bytes).
    pub demo_ptr: u16,
    /// `demo_repeats`: frames left of the current demo pair.
    pub demo_repeats: u8,
    /// `demo_heldButtons`: the demo's held buttons.
    pub demo_held: u8,
    /// `demoIndex`: the next entry of the demo's piece list.
    pub demo_index: u8,
    /// `highScoreEntryRawPos`: the table slot being named.
    pub entry_slot: u8,
    /// `highScoreEntryNameOffsetForLetter`: the letter position 0..=5 in name entry.
    pub entry_letter: u8,
}

impl FlowVars {
    /// The flow's variables from a dump of the console's 2 KiB RAM.
    pub fn from_ram(ram: &[u8]) -> FlowVars {
        let mut v = FlowVars::default();
        if ram.len() < 0x800 {
            return v;
        }
        v.garbage_hole = ram[0x7A];
        v.ending = ram[0xC4];
        v.ending_vars = [ram[0xC5], ram[0xC6]];
        v.total_score = [ram[0xDC], ram[0xDD], ram[0xDE]];
        v.entry_slot = ram[0xD5];
        v.demo_ptr = (u16::from(ram[0xD2]) << 8 | u16::from(ram[0xD1])).wrapping_sub(0xDD00);
        v.demo_repeats = ram[0xCF];
        v.demo_held = ram[0xCE];
        v.demo_index = ram[0xD3];
        v.entry_letter = ram[0xD4];
        for i in 0..8 {
            v.high_scores.names[i].copy_from_slice(&ram[0x700 + 6 * i..0x706 + 6 * i]);
            v.high_scores.scores[i].copy_from_slice(&ram[0x730 + 3 * i..0x733 + 3 * i]);
            v.high_scores.levels[i] = ram[0x748 + i];
        }
        v
    }

    pub(crate) fn validate(&self) -> Result<(), SnapshotError> {
        if self.entry_slot > 7 {
            return Err(SnapshotError::OutOfRange {
                field: "entry_slot",
                value: self.entry_slot,
            });
        }
        if self.entry_letter > 5 {
            return Err(SnapshotError::OutOfRange {
                field: "entry_letter",
                value: self.entry_letter,
            });
        }
        Ok(())
    }
}
