//! NTSC and PAL: the two builds of the cartridge differ in a few constants.

use crate::tables::{GRAVITY_NTSC, GRAVITY_PAL};

/// Which build of the cartridge the engine follows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Region {
    /// The USA cartridge at 60.0988 frames per second.
    #[default]
    Ntsc,
    /// The PAL cartridge at 50.007 frames per second.
    Pal,
}

impl Region {
    /// Frames per second of the console.
    pub const fn frame_rate(self) -> f64 {
        match self {
            Region::Ntsc => 60.098_813_897_440_5,
            Region::Pal => 50.006_978_908_188_6,
        }
    }

    /// Gravity in frames per row at `level` (1 from level 29 on, without the table).
    #[inline]
    pub const fn gravity(self, level: u8) -> u8 {
        if level >= 29 {
            return 1;
        }
        match self {
            Region::Ntsc => GRAVITY_NTSC[level as usize],
            Region::Pal => GRAVITY_PAL[level as usize],
        }
    }

    /// `DAS_RESET`: the DAS count at which a held direction repeats (and a blocked shift's charge).
    #[inline]
    pub const fn das_limit(self) -> u8 {
        match self {
            Region::Ntsc => 16,
            Region::Pal => 12,
        }
    }

    /// `DAS_DELAY`: where the DAS count restarts after a repeat.
    #[inline]
    pub const fn das_repeat_start(self) -> u8 {
        match self {
            Region::Ntsc => 10,
            Region::Pal => 8,
        }
    }

    /// `INITIAL_AUTOREPEAT_Y`: the first piece's countdown as a byte (-96 NTSC, -76 PAL).
    #[inline]
    pub const fn first_piece_delay(self) -> u8 {
        match self {
            Region::Ntsc => 0xA0,
            Region::Pal => 0xB4,
        }
    }

    /// `MENU_CURSOR_MASK`: the frame counter's bits that, all zero, hide a blinking menu
    /// cursor (NTSC one frame in four, PAL one in two).
    #[inline]
    pub const fn menu_cursor_mask(self) -> u16 {
        match self {
            Region::Ntsc => 3,
            Region::Pal => 1,
        }
    }

    /// Whether the engine counts the CPU's cycles in this build (lag frames, stalls, crashes).
    /// Only NTSC's: PAL's frame is 341 × 312 dots at 3.2 dots a cycle (33,247.5 cycles) and
    /// its cartridge's code differs in places, with no recording to check a model against,
    /// so a PAL game counts none, as under [`crate::CrashMode::Off`], rather than NTSC's.
    pub const fn cycles_counted(self) -> bool {
        matches!(self, Region::Ntsc)
    }

    /// Name as used on the command line and in files.
    pub const fn name(self) -> &'static str {
        match self {
            Region::Ntsc => "ntsc",
            Region::Pal => "pal",
        }
    }
}
