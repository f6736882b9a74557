//! Where the cartridge's main loop waits between frames, and the flow's own variables.
//!
//! The cartridge is a main loop that runs handlers until one of them waits for the next
//! frame interrupt; some handlers wait in the middle (pause, game init, timed sleeps).
//! [`Resume`] names each such waiting point so that a frame can continue exactly where
//! the cartridge would.

use crate::snapshot::SnapshotError;

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
    /// In the pause loop (waiting for a frame whose newly-pressed byte is exactly Start).
    Paused,
    /// Sleeping after the curtain before the ending (`sleepCounter` counts down).
    CurtainSleep,
}

/// Variables of the flow around play (menus, endings, name entry, demo).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlowVars {
    /// True when the frame interrupt did not run in the last frame (screen redraws).
    pub nmi_off_this_frame: bool,
}

impl FlowVars {
    /// The flow's variables from a dump of the console's 2 KiB RAM.
    pub fn from_ram(ram: &[u8]) -> FlowVars {
        let _ = ram;
        FlowVars::default()
    }

    pub(crate) fn validate(&self) -> Result<(), SnapshotError> {
        Ok(())
    }
}
