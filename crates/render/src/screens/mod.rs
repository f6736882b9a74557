//! Which screen a game state shows, and the parts several screens share.
//!
//! Which screen is up is the core's to say ([`Snapshot::screen`]); this module draws it.

mod ending;
mod legal;
mod level_menu;
mod play;
mod scores;
mod title;
mod type_menu;

use nestris_core::{Screen, Snapshot};

use crate::frame::Frame;
use crate::palette;

/// Draws the screen for `s` into `f`.
pub(crate) fn draw(s: &Snapshot, f: &mut Frame, colours: palette::LevelColours) {
    f.fill(palette::rgb(palette::BLACK));
    match s.screen() {
        Screen::Off | Screen::Dark => {}
        Screen::Ending => ending::draw(f, s, colours),
        Screen::NameEntry => scores::draw_name_entry(f, s),
        Screen::Legal => legal::draw(f),
        Screen::Title => title::draw(f, s, colours),
        Screen::TypeMenu => type_menu::draw(f, s),
        Screen::LevelMenu => level_menu::draw(f, s),
        Screen::Play { paused } => play::draw(f, s, &s.shown_board().0, paused, colours),
    }
}

/// A TetrisGYM seed as its menu shows it: six hex digits.
pub(crate) fn seed_digits(seed: &nestris_core::GymSeed) -> String {
    format!("{:06X}", seed.value())
}
