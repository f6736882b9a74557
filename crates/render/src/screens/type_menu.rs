//! The game-type menu: A-TYPE or B-TYPE side by side, the four music choices below,
//! a blinking pair of arrows around each choice made.

use nestris_core::Snapshot;

use crate::frame::Frame;
use crate::layout::{self, CELL};
use crate::palette;
use crate::tiles;

/// Draws the game-type menu.
pub(super) fn draw(f: &mut Frame, s: &Snapshot) {
    let white = palette::rgb(palette::WHITE);
    let chosen = palette::rgb(palette::CURSOR[1]);
    layout::backdrop(f);

    layout::framed_box(f, 8, 2, 16, 3);
    layout::text_centred(f, 72, 112, 24, "GAME TYPE", palette::rgb(palette::LABEL[1]));
    layout::framed_box(f, 3, 6, 26, 5);
    for (t, col) in [(0u8, 7), (1, 19)] {
        let ink = if s.game_type == t { chosen } else { white };
        crate::font::draw_text(
            f,
            col * CELL,
            8 * CELL,
            nestris_core::view::type_name(t),
            ink,
        );
        if s.game_type == t {
            arrows(f, s, col - 2, col + 7, 8);
        }
    }

    layout::framed_box(f, 8, 13, 16, 3);
    layout::text_centred(
        f,
        72,
        112,
        14 * CELL,
        "MUSIC TYPE",
        palette::rgb(palette::LABEL[1]),
    );
    layout::framed_box(f, 9, 17, 14, 11);
    for (m, name) in ["MUSIC-1", "MUSIC-2", "MUSIC-3", "OFF"].iter().enumerate() {
        let row = 19 + 2 * m as i32;
        let ink = if usize::from(s.music_type) == m {
            chosen
        } else {
            white
        };
        crate::font::draw_text(f, 12 * CELL, row * CELL, name, ink);
        if usize::from(s.music_type) == m {
            arrows(f, s, 10, 20, row);
        }
    }
}

/// The blinking arrows pointing at a choice from cells `left` and `right` of `row`.
fn arrows(f: &mut Frame, s: &Snapshot, left: i32, right: i32, row: i32) {
    if !s.cursor_shown() {
        return;
    }
    let c = palette::resolve(palette::CURSOR);
    tiles::ARROW_RIGHT.draw(f, left * CELL + 2, row * CELL, &c);
    tiles::ARROW_LEFT.draw(f, right * CELL + 1, row * CELL, &c);
}
