//! The level menu: the 0-9 level grid (for B-type also the 0-5 height grid) with a
//! blinking cursor, and the top three of the high-score table.

use nestris_core::Snapshot;

use crate::font;
use crate::frame::Frame;
use crate::layout::{self, CELL};
use crate::palette;

/// Draws the level menu.
pub(super) fn draw(f: &mut Frame, s: &Snapshot) {
    layout::backdrop(f);
    layout::framed_box(f, 11, 1, 10, 3);
    let label = palette::rgb(palette::LABEL[1]);
    layout::text_centred(
        f,
        96,
        64,
        16,
        nestris_core::view::type_name(s.game_type),
        label,
    );

    let b_type = s.game_type != 0;
    // `originalY` is a scratch byte outside the menu; only B-type reads it as the field.
    let on_height = b_type && s.selecting != 0;
    let level_col = if b_type { 3 } else { 10 };
    grid(f, s, level_col, "LEVEL", 10, s.start_level, !on_height);
    if b_type {
        grid(f, s, 19, "HEIGHT", 6, s.start_height, on_height);
    }
    if let Some(seed) = &s.variant.seed {
        let text = format!("SEED {}", super::seed_digits(seed));
        layout::text_centred(f, 0, 256, 100, &text, palette::rgb(palette::WHITE));
    }
    super::scores::table(f, s, 14, None);
}

/// A grid of `count` numbers in two rows, framed from cell `col` at row 6, with the
/// choice `chosen` highlighted: blinking if `active`, steady otherwise.
fn grid(f: &mut Frame, s: &Snapshot, col: i32, title: &str, count: u8, chosen: u8, active: bool) {
    let per_row = i32::from(count) / 2;
    let w = 2 * per_row + 2;
    let label = palette::rgb(palette::LABEL[1]);
    layout::label_plate(f, col * CELL, w * CELL, 5 * CELL - 4, title, label);
    layout::framed_box(f, col, 6, w, 6);
    let cursor = if active {
        s.cursor_shown().then_some(palette::CURSOR[1])
    } else {
        Some(palette::CURSOR[3])
    };
    for n in 0..count {
        let x = (col + 1) * CELL + 16 * (i32::from(n) % per_row);
        let y = 7 * CELL + 16 * (i32::from(n) / per_row);
        let (paper, ink) = match cursor {
            Some(c) if n == chosen => (palette::rgb(c), palette::rgb(palette::BLACK)),
            _ => (
                palette::rgb(palette::BACKDROP[1]),
                palette::rgb(palette::WHITE),
            ),
        };
        f.fill_rect(x + 1, y + 1, 14, 14, paper);
        font::draw_text(f, x + 4, y + 4, &font::digit(n).to_string(), ink);
    }
}
