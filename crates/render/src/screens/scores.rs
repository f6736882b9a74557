//! The high-score table (top three of the game type) and the name-entry screen built
//! around it.

use nestris_core::Snapshot;

use crate::font::{self, bcd_digits};
use crate::frame::Frame;
use crate::layout::{self, CELL};
use crate::palette;
use crate::tiles;
use nestris_core::view::name_char;

/// Draws the table of the game type in a box from cell row `row`; `entry` marks the row
/// being named and the letter being edited.
pub(super) fn table(f: &mut Frame, s: &Snapshot, row: i32, entry: Option<(usize, usize)>) {
    let label = palette::rgb(palette::LABEL[1]);
    let white = palette::rgb(palette::WHITE);
    let hot = palette::rgb(palette::CURSOR[1]);
    layout::framed_box(f, 3, row, 26, 11);
    let head = (row + 2) * CELL;
    font::draw_text(f, 8 * CELL, head, "NAME", label);
    font::draw_text(f, 16 * CELL, head, "SCORE", label);
    font::draw_text(f, 24 * CELL, head, "LV", label);
    let hs = &s.flow.high_scores;
    let base = nestris_core::view::high_score_base(s.game_type);
    for i in 0..3 {
        let slot = base + i;
        let y = (row + 4 + 2 * i as i32) * CELL;
        let editing = entry.filter(|&(e, _)| e == slot);
        let ink = if editing.is_some() { hot } else { white };
        font::draw_text(f, 5 * CELL, y, &(i + 1).to_string(), label);
        let name: String = hs.names[slot].iter().map(|&c| name_char(c)).collect();
        font::draw_text(f, 8 * CELL, y, &name, ink);
        font::draw_text(f, 16 * CELL, y, &bcd_digits(&hs.scores[slot]), ink);
        let lv = hs.levels[slot];
        let lv = if lv < 100 {
            format!("{lv:02}")
        } else {
            lv.to_string()
        };
        font::draw_text(f, 24 * CELL, y, &lv, ink);
        if let Some((_, letter)) = editing {
            if s.cursor_shown() {
                let c = palette::resolve(palette::CURSOR);
                tiles::UNDERLINE.draw(f, (8 + letter as i32) * CELL, y + 2, &c);
            }
        }
    }
}

/// The name-entry screen: a greeting, the type, and the table with the new entry.
pub(super) fn draw_name_entry(f: &mut Frame, s: &Snapshot) {
    layout::backdrop(f);
    layout::framed_box(f, 4, 2, 24, 7);
    let white = palette::rgb(palette::WHITE);
    let label = palette::rgb(palette::LABEL[1]);
    let shadow = palette::rgb(palette::LABEL[3]);
    let x0 = 5 * CELL;
    let w = 22 * CELL;
    let title = "NEW HIGH SCORE!";
    font::draw_text_shadowed(
        f,
        x0 + (w - font::text_width(title)) / 2,
        32,
        title,
        label,
        shadow,
    );
    layout::text_centred(f, x0, w, 48, "ENTER YOUR NAME", white);
    layout::framed_box(f, 11, 10, 10, 3);
    layout::text_centred(
        f,
        96,
        64,
        88,
        nestris_core::view::type_name(s.game_type),
        label,
    );
    let (slot, letter) = s.name_entry();
    table(f, s, 14, Some((slot, letter)));
    // Up and Down change the letter only every eighth frame they are held, so a tap
    // may do nothing: the hint says to hold them.
    layout::framed_box(f, 5, 25, 22, 5);
    layout::text_centred(f, 48, 160, 26 * CELL, "HOLD UP/DOWN: LETTER", white);
    layout::text_centred(f, 48, 160, 27 * CELL, "A: NEXT   B: BACK", white);
    layout::text_centred(f, 48, 160, 28 * CELL, "START: DONE", white);
}
