//! What a player's hands can do: the input model the move generator enumerates.
//!
//! The model is defined on whole frames, since the cartridge reads the pad once per
//! frame (`CARTRIDGE.md` 2.4):
//!
//! * A *tap frame* is a frame in which some button goes down (Left, Right, A, B, or Down
//!   when soft drop is allowed). Two tap frames are at least `tap_interval` frames apart:
//!   2 is the "X." pattern of 30 Hz tapping, 3 is "X.." (20 Hz), and so on. One tap frame
//!   may press one direction and one rotation button together.
//! * A, B, and (without `das`) Left/Right are held for exactly the tap frame. With `das`
//!   a direction may stay held for as long as wanted (the cartridge then repeats it
//!   after 16 frames and every 6 after that). Down, once pressed, stays held until it is
//!   released (soft drop).
//! * Down is never combined with Left or Right (the cartridge ignores shifts while Down
//!   is held, and Down+Left+Right halves the game speed). Up, Select and Start are never
//!   pressed.
//! * For `tap_interval - 1` frames after a tap frame the held buttons stay as the tap
//!   left them; a held button (Down, or a direction with `das`) is released on a frame of
//!   its own, or on a tap frame.
//! * The first `reaction` frames after a spawn press nothing.
//! * Between pieces (from the lock to the next spawn) nothing is pressed.

use serde::{Deserialize, Serialize};

/// How fast and in what ways the player presses buttons.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct InputModel {
    /// Frames from one tap frame to the next: 2 = 30 Hz, 3 = 20 Hz, 4 = 15 Hz,
    /// 5 = 12 Hz. Values below 2 are treated as 2 (a button has to be let go for a frame
    /// before it can be pressed again).
    pub tap_interval: u8,
    /// Directions may be held to use the cartridge's auto-repeat (DAS).
    pub das: bool,
    /// Frames with no input after each spawn.
    pub reaction: u8,
    /// Down may be pressed and held (soft drop).
    pub soft_drop: bool,
}

impl Default for InputModel {
    /// 30 Hz tapping, no DAS, no reaction delay, no soft drop.
    fn default() -> Self {
        InputModel::hz30()
    }
}

impl InputModel {
    /// 30 Hz tapping ("X."), no DAS, no reaction delay, no soft drop.
    pub const fn hz30() -> InputModel {
        InputModel {
            tap_interval: 2,
            das: false,
            reaction: 0,
            soft_drop: false,
        }
    }

    /// Tapping with `tap_interval` frames between taps and nothing else.
    pub const fn tapping(tap_interval: u8) -> InputModel {
        InputModel {
            tap_interval,
            das: false,
            reaction: 0,
            soft_drop: false,
        }
    }

    /// The interval actually used (at least 2).
    #[inline]
    pub const fn interval(&self) -> u8 {
        if self.tap_interval < 2 {
            2
        } else {
            self.tap_interval
        }
    }

    /// Taps per second at the NTSC frame rate.
    pub fn taps_per_second(&self) -> f64 {
        60.098_813_897_440_5 / self.interval() as f64
    }
}
