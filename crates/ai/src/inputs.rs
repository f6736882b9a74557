//! What a player's hands can do: the input model the move generator enumerates.
//!
//! The model is defined on whole frames, since the cartridge reads the pad once per
//! frame (`CARTRIDGE.md` 2.4):
//!
//! * A *tap frame* is a frame in which some button goes down (Left, Right, A, B, or Down
//!   when soft drop is allowed). When taps may come is the [`TapPattern`]: "X." is 30 Hz
//!   tapping (a tap frame at least every 2 frames), "X.." 20 Hz, "X.X.." gaps of 2 and 3
//!   frames in turn (see [`crate::taps`]). One tap frame may press one direction and one
//!   rotation button together.
//! * A, B, and (without `das`) Left/Right are held for exactly the tap frame. With `das`
//!   a direction may stay held for as long as wanted (the cartridge then repeats it
//!   after 16 frames and every 6 after that). Down, once pressed, stays held until it is
//!   released (soft drop).
//! * Down is never combined with Left or Right (the cartridge ignores shifts while Down
//!   is held, and Down+Left+Right halves the game speed). Up, Select and Start are never
//!   pressed.
//! * For the pattern's gap minus one frames after a tap frame the held buttons stay as the tap
//!   left them; a held button (Down, or a direction with `das`) is released on a frame of
//!   its own, or on a tap frame.
//! * The first `reaction` frames after a spawn press nothing, and then the pattern's
//!   leading dots (its first tap's frame).
//! * Between pieces (from the lock to the next spawn) nothing is pressed.

pub use crate::taps::TapPattern;
use serde::{Deserialize, Serialize};

/// How fast and in what ways the player presses buttons.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct InputModel {
    /// When taps may come: `X.` (30 Hz), `X..` (20 Hz), `X.X..`, ...
    pub taps: TapPattern,
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
            taps: TapPattern::HZ30,
            das: false,
            reaction: 0,
            soft_drop: false,
        }
    }

    /// Tapping with `tap_interval` frames between taps (at least 2) and nothing else.
    pub const fn tapping(tap_interval: u8) -> InputModel {
        InputModel::with_taps(TapPattern::every(tap_interval))
    }

    /// Tapping by `taps` and nothing else.
    pub const fn with_taps(taps: TapPattern) -> InputModel {
        InputModel {
            taps,
            das: false,
            reaction: 0,
            soft_drop: false,
        }
    }

    /// Taps per second at the NTSC frame rate (over a whole cycle of the pattern).
    pub fn taps_per_second(&self) -> f64 {
        self.taps.taps_per_second()
    }
}
