//! Crash modes: what the engine does when the cartridge would crash.
//!
//! At levels around 155-165 (and again near 255) a score frame can run so long that the
//! next frame interrupt lands inside a jump-table dispatch (`switch_s_plus_2a`) and zeroes
//! the pointer it jumps through (`tests/CARTRIDGE.md` §21). The engine finds that moment
//! (`FrameEvents::DISPATCH_BROKEN`, in the frame after the lag frame) and where the jump
//! goes ([`crate::Jump`]). Through the table's page the target is one of five words of the
//! cartridge: two halt the CPU ([`Crash::Halted`]), two are harmless detours the game
//! survives (no crash: the engine plays them, cycles and all), and one is the legal
//! screen's tail ([`Crash::LegalScreen`]). Into the zero page the console runs the game's
//! variables as code; on all 14 recorded cases that walk reached a halting opcode, and the
//! engine assumes it always does (it does not run the zero page).
//!
//! The mode is a game-setup option ([`crate::GameSetup::crash_mode`]), as in TetrisGYM's
//! crash modes, and part of the save state ([`crate::Snapshot::crash_mode`]).

use crate::audio::SoundEffect;
use crate::events::FrameEvents;
use crate::flow::Resume;
use crate::game::Game;

/// What the engine does when the cartridge would crash.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum CrashMode {
    /// The game goes as the console's: at a halt ([`Crash::Halted`]) it ends, and from then
    /// on [`Game::step`] changes nothing (no interrupt, no pad read) and flags every frame
    /// [`FrameEvents::CRASHED`]; in the legal screen's tail ([`Crash::LegalScreen`]) it
    /// freezes, then goes on as the demo.
    #[default]
    Cartridge,
    /// The crash is reported (`FrameEvents::CRASHED` in its frame, [`Game::crashed`] from
    /// then on) and the game plays on as if the jump had gone where it should, its sub-frame
    /// timing unknown from there (no more lag frames or crashes in this game).
    Show,
    /// The crash is reported and ends the game as a top-out: the curtain (`playState` 10)
    /// and the usual game-over flow.
    TopOut,
    /// No cycle accounting at all, as before lag frames were modelled: no lag frame, no
    /// crash, the timing unknown from the start (`state().clock.known` false).
    Off,
}

impl CrashMode {
    /// Every mode, in the order of their codes.
    pub const ALL: [CrashMode; 4] = [
        CrashMode::Cartridge,
        CrashMode::Show,
        CrashMode::TopOut,
        CrashMode::Off,
    ];

    /// The mode's name on command lines and in Python (`cartridge`, `show`, `topout`, `off`).
    pub const fn name(self) -> &'static str {
        match self {
            CrashMode::Cartridge => "cartridge",
            CrashMode::Show => "show",
            CrashMode::TopOut => "topout",
            CrashMode::Off => "off",
        }
    }

    /// The mode named `name` (as [`CrashMode::name`] spells it).
    pub fn from_name(name: &str) -> Option<CrashMode> {
        CrashMode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The mode's code 0..=3 (in the timing block and in replays).
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The mode with code `code`, if it is one.
    pub const fn from_code(code: u8) -> Option<CrashMode> {
        match code {
            0 => Some(CrashMode::Cartridge),
            1 => Some(CrashMode::Show),
            2 => Some(CrashMode::TopOut),
            3 => Some(CrashMode::Off),
            _ => None,
        }
    }
}

impl core::fmt::Display for CrashMode {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the console did when the game crashed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Crash {
    /// The CPU halted (the recordings' `jam`): the broken dispatch jumped to a halting
    /// opcode and no interrupt runs any more (17 of the 20 recorded broken dispatches).
    Halted,
    /// The dispatch jumped into the legal screen's code: the game freezes (a 255-frame
    /// sleep, then up to 255 frames waiting for Start), then goes on in the demo's game mode,
    /// steered by the demo's buttons instead of the pad (3 recorded cases).
    LegalScreen,
}

impl Crash {
    /// The crash's name in reports (`halted`, `legal_screen`).
    pub const fn name(self) -> &'static str {
        match self {
            Crash::Halted => "halted",
            Crash::LegalScreen => "legal_screen",
        }
    }

    /// The crash's code in the timing block (1, 2; 0 = none).
    pub const fn code(self) -> u8 {
        match self {
            Crash::Halted => 1,
            Crash::LegalScreen => 2,
        }
    }

    /// The crash with code `code`, if it is one.
    pub const fn from_code(code: u8) -> Option<Crash> {
        match code {
            1 => Some(Crash::Halted),
            2 => Some(Crash::LegalScreen),
            _ => None,
        }
    }
}

impl Game {
    /// A position for trying crash rules: the frame a single's points are added at `level`,
    /// the score capped at 999,999 (the cap is re-applied on each of the level + 1 additions,
    /// the score routine's longest run), 1,450 lines, the field empty, music off (its cycles
    /// need no note data). The next [`Game::step`] is that score frame: from a high level on
    /// it lags, and at 158-160 its next interrupt breaks the dispatch (`tests/CARTRIDGE.md`
    /// §21). A game set up at level 18, one frame in, then the fields changed.
    pub fn capped_score_frame(level: u8, crash_mode: CrashMode) -> Game {
        let mut g = Game::new(crate::GameSetup {
            level: 18,
            music_type: 3,
            crash_mode,
            ..crate::GameSetup::default()
        });
        // Frame 0 of the game: its music choice (off) and the clock start.
        g.step(crate::Buttons::NONE);
        let s = &mut g.s;
        s.level = level;
        s.score = [0x99, 0x99, 0x99];
        s.lines = [0x50, 0x14];
        s.playfield = crate::Playfield::empty();
        s.play_state = 5;
        s.completed_lines = 1;
        s.vram_row = 32;
        g
    }

    /// The game's crash, once the cartridge would have crashed (`None` before, and always
    /// with [`CrashMode::Off`]). With [`CrashMode::Show`] and [`CrashMode::TopOut`] the game
    /// went on; [`Game::halted`] tells whether it is over.
    #[inline]
    pub fn crashed(&self) -> Option<Crash> {
        self.s.crash
    }

    /// True once the CPU has halted ([`CrashMode::Cartridge`]): the terminal state, in which
    /// [`Game::step`] changes nothing.
    #[inline]
    pub fn halted(&self) -> bool {
        self.s.resume == Resume::Halted
    }

    /// True once a crash took the game from the player under [`CrashMode::Cartridge`]: the
    /// CPU halted ([`Game::halted`]), or the legal screen's tail froze the game, which the
    /// demo's buttons play from then on. Where a player's (or a bot's) game ends.
    #[inline]
    pub fn crash_ended(&self) -> bool {
        self.s.crash_mode == CrashMode::Cartridge && self.s.crash.is_some()
    }

    /// The game's crash mode.
    #[inline]
    pub fn crash_mode(&self) -> CrashMode {
        self.s.crash_mode
    }

    /// Changes the crash mode (for games not built from a [`crate::GameSetup`], such as
    /// [`Game::power_on`]). [`CrashMode::Off`] drops the sub-frame timing, which no later
    /// change brings back.
    pub fn set_crash_mode(&mut self, mode: CrashMode) {
        self.s.crash_mode = mode;
        if mode == CrashMode::Off {
            self.s.clock.known = false;
        }
    }

    /// The interrupt of the last frame broke a dispatch (`Cut::Dispatch`) and the console
    /// crashes as `crash` says: applies the crash mode. True when the cartridge's crash is
    /// played (under [`CrashMode::Cartridge`]): a halt ends the frame here, the legal
    /// screen's tail is the caller's to run.
    pub(crate) fn crash(&mut self, crash: Crash, ev: &mut FrameEvents) -> bool {
        if self.s.crash_mode == CrashMode::Off {
            // Unreachable (no timing, no cut), but the mode says: no crash.
            return false;
        }
        self.s.crash = Some(crash);
        ev.set(FrameEvents::CRASHED);
        match self.s.crash_mode {
            CrashMode::Cartridge => {
                if crash == Crash::Halted {
                    self.s.resume = Resume::Halted;
                }
                true
            }
            CrashMode::TopOut => {
                // As the lock's top-out: the curtain from the next frame on. The rest of
                // this frame runs as if the jump had been right.
                self.s.play_state = 10;
                self.s.curtain_row = 0xF0;
                self.s.audio.play(SoundEffect::GameOverCurtain);
                self.s.audio.silence();
                ev.set(FrameEvents::TOPPED_OUT);
                false
            }
            CrashMode::Show | CrashMode::Off => false,
        }
    }
}
