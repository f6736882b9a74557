//! Which screen a game state shows, and the parts several screens share.
//!
//! The cartridge decides what the TV shows by `gameMode` (which screen's code runs) and
//! `renderMode` (what the frame interrupt draws); a few waits in between have the
//! picture switched off while a new screen is uploaded.

mod ending;
mod legal;
mod level_menu;
mod play;
mod scores;
mod title;
mod type_menu;

use nestris_core::flow::EndingStep;
use nestris_core::{Region, Resume, Snapshot};

use crate::board::ClearCopy;
use crate::frame::Frame;
use crate::palette;

/// Draws the screen for `s` into `f`.
pub(crate) fn draw(s: &Snapshot, clear: &ClearCopy, f: &mut Frame) {
    f.fill(palette::rgb(palette::BLACK));
    if picture_off(s.resume) {
        return;
    }
    match s.render_mode {
        4 => ending::draw(f, s),
        2 => scores::draw_name_entry(f, s),
        _ => match s.game_mode {
            0 => legal::draw(f),
            1 | 6 => title::draw(f, s),
            2 => type_menu::draw(f, s),
            3 => level_menu::draw(f, s),
            4 | 5 => match (s.render_mode, s.resume) {
                (0, Resume::Paused) => play::draw(f, s, &clear.shown(s), true),
                // The B-type win darkens the screen before its ending.
                (0, _) => {}
                _ => play::draw(f, s, &clear.shown(s), false),
            },
            _ => {}
        },
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

/// True in the frames a blinking menu cursor is shown: the cartridge hides it when the
/// frame counter's low bits are zero (two bits NTSC, one bit PAL).
fn cursor_shown(s: &Snapshot) -> bool {
    let mask = match s.region {
        Region::Ntsc => 3,
        Region::Pal => 1,
    };
    s.frame_counter & mask != 0
}

/// The first high-score table slot of the game type (A: 0..=2, B: 4..=6).
fn table_base(game_type: u8) -> usize {
    if game_type == 0 {
        0
    } else {
        4
    }
}

/// "A-TYPE" or "B-TYPE".
fn type_name(game_type: u8) -> &'static str {
    if game_type == 0 {
        "A-TYPE"
    } else {
        "B-TYPE"
    }
}
