//! The board editor's screen: the play screen of the game the position starts (its
//! field, the current piece at the top, the preview, level and lines, as they will be
//! played), with the editor's menu where the statistics are, its cursor on the field and
//! a line of keys at the bottom.
//!
//! Like the rest of this crate it keeps nothing: the window's editor says what to show
//! ([`EditorView`]), and [`item_at`] and [`cell_at`] map a mouse position back to what
//! is drawn there.
//!
//! ```text
//!  [ EDITOR  ]  [LINES-000 ]  [ TOP    ]
//!  +---------+  +----------+
//!  |PIECE   T|  |          |  [ NEXT   ]
//!  |NEXT    I|  |  field   |
//!  |LEVEL  18|  |  [ ]     |  [ LEVEL  ]
//!  |  ...    |  |          |
//!  |PLAY     |  +----------+
//!   A PAINT  B ERASE  SELECT MENU
//! ```

use nestris_core::Game;

use crate::font;
use crate::frame::Frame;
use crate::layout::{self, CELL, FIELD_X, FIELD_Y};
use crate::palette::{self, LevelColours};

/// What a menu line shows right of its label.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Value<'a> {
    /// Nothing: an action.
    None,
    /// Text, right-aligned.
    Text(&'a str),
    /// A block of colour 1-3 (the brush), in the level's colours.
    Block(u8),
}

/// One line of the editor's menu.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Item<'a> {
    /// Its label (up to nine characters show, less the value's).
    pub label: &'a str,
    /// What it shows right of the label.
    pub value: Value<'a>,
    /// A blank line above it (the menu's groups).
    pub gap: bool,
}

/// What the editor shows over the position's game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EditorView<'a> {
    /// The cursor's cell on the field (row, column from the top left).
    pub cursor: (usize, usize),
    /// The pad steers the menu (else the field's cursor).
    pub menu_focused: bool,
    /// The menu's lines, top first.
    pub items: &'a [Item<'a>],
    /// The chosen line.
    pub selected: usize,
    /// The keys, one line under the field (up to 32 characters).
    pub hint: &'a str,
}

/// The menu's frame: cell column, row, width and height.
const MENU_BOX: (i32, i32, i32, i32) = (0, 7, 11, 20);
/// The cell row of the menu's first line.
const FIRST_ROW: i32 = MENU_BOX.1 + 1;
/// The cell row of the line of keys.
const HINT_ROW: i32 = 28;

/// Draws the editor's screen: `game` (the position's start) as the play screen, then the
/// menu, the cursor and the keys over it. Every pixel of the 256x240 screen is written.
pub fn draw_editor(game: &Game, view: &EditorView<'_>, colours: LevelColours, f: &mut Frame) {
    crate::draw_with(game, f, colours);
    let s = game.state();
    let level = palette::resolve(palette::level_palette(s.level, colours));
    let white = palette::rgb(palette::WHITE);
    let label = palette::rgb(palette::LABEL[1]);
    let chosen = palette::rgb(palette::CURSOR[1]);

    // Where the game type is named: what this screen is.
    layout::framed_box(f, 1, 2, 10, 3);
    layout::text_centred(f, 16, 64, 24, "EDITOR", chosen);

    // The menu covers the statistics (they count the game's pieces, none yet).
    let (c, r, w, h) = MENU_BOX;
    layout::framed_box(f, c, r, w, h);
    for (i, item, row) in rows(view.items) {
        let y = row * CELL;
        let on = view.menu_focused && i == view.selected;
        let ink = if on { chosen } else { white };
        if on {
            f.fill_rect(CELL - 1, y - 1, 9 * CELL + 1, CELL + 1, palette::rgb(0x00));
        }
        font::draw_text(f, CELL, y, item.label, ink);
        match item.value {
            Value::None => {}
            Value::Text(t) => {
                let x = 10 * CELL - font::text_width(t);
                font::draw_text(f, x, y, t, if on { chosen } else { label });
            }
            Value::Block(colour) => {
                let tile = nestris_core::position::BLOCK_TILES[usize::from(colour.clamp(1, 3) - 1)];
                layout::draw_cell(f, 9 * CELL, y, tile, &level);
            }
        }
    }

    // The cursor: a ring around the cell, bright while the pad steers it.
    let (row, col) = view.cursor;
    let (x, y) = (FIELD_X + col as i32 * CELL, FIELD_Y + row as i32 * CELL);
    let ring = if view.menu_focused {
        palette::rgb(0x00)
    } else {
        chosen
    };
    for (dx, dy, rw, rh) in [(-1, -1, 10, 1), (-1, 8, 10, 1), (-1, 0, 1, 8), (8, 0, 1, 8)] {
        f.fill_rect(x + dx, y + dy, rw, rh, ring);
    }
    f.fill_rect(x + 1, y - 2, 6, 1, ring);
    f.fill_rect(x + 1, y + 9, 6, 1, ring);

    let hint: String = view.hint.chars().take(32).collect();
    f.fill_rect(
        0,
        HINT_ROW * CELL - 2,
        256,
        CELL + 3,
        palette::rgb(palette::BLACK),
    );
    layout::text_centred(f, 0, 256, HINT_ROW * CELL, &hint, white);
}

/// Each line with its index and cell row.
fn rows<'a>(items: &'a [Item<'a>]) -> impl Iterator<Item = (usize, &'a Item<'a>, i32)> {
    let mut row = FIRST_ROW;
    items.iter().enumerate().map(move |(i, item)| {
        if item.gap {
            row += 1;
        }
        let r = row;
        row += 1;
        (i, item, r)
    })
}

/// The menu line at pixel (`x`, `y`) of the screen, if any.
pub fn item_at(items: &[Item<'_>], x: i32, y: i32) -> Option<usize> {
    if !(CELL..10 * CELL).contains(&x) {
        return None;
    }
    rows(items)
        .find(|&(_, _, row)| y.div_euclid(CELL) == row)
        .map(|(i, _, _)| i)
}

/// The field's cell (row, column) at pixel (`x`, `y`) of the screen, if any.
pub fn cell_at(x: i32, y: i32) -> Option<(usize, usize)> {
    let (col, row) = (
        (x - FIELD_X).div_euclid(CELL),
        (y - FIELD_Y).div_euclid(CELL),
    );
    ((0..10).contains(&col) && (0..20).contains(&row)).then_some((row as usize, col as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ITEMS: [Item<'static>; 3] = [
        Item {
            label: "PIECE",
            value: Value::Text("T"),
            gap: false,
        },
        Item {
            label: "BRUSH",
            value: Value::Block(2),
            gap: false,
        },
        Item {
            label: "PLAY",
            value: Value::None,
            gap: true,
        },
    ];

    #[test]
    fn the_mouse_finds_what_is_drawn_where_it_points() {
        assert_eq!(cell_at(FIELD_X, FIELD_Y), Some((0, 0)));
        assert_eq!(cell_at(FIELD_X + 79, FIELD_Y + 159), Some((19, 9)));
        assert_eq!(cell_at(FIELD_X - 1, FIELD_Y), None);
        assert_eq!(cell_at(FIELD_X + 80, FIELD_Y), None);
        assert_eq!(item_at(&ITEMS, 20, FIRST_ROW * CELL + 3), Some(0));
        assert_eq!(item_at(&ITEMS, 20, (FIRST_ROW + 1) * CELL), Some(1));
        assert_eq!(item_at(&ITEMS, 20, (FIRST_ROW + 2) * CELL), None, "the gap");
        assert_eq!(item_at(&ITEMS, 20, (FIRST_ROW + 3) * CELL), Some(2));
        assert_eq!(item_at(&ITEMS, 200, FIRST_ROW * CELL), None);
    }

    #[test]
    fn the_chosen_line_and_the_cursor_are_drawn_where_the_view_says() {
        let game = nestris_core::position::Position::default().game_in(nestris_core::Region::Ntsc);
        let mut f = Frame::new();
        let mut view = EditorView {
            cursor: (19, 9),
            menu_focused: false,
            items: &ITEMS,
            selected: 2,
            hint: "A PAINT",
        };
        draw_editor(&game, &view, LevelColours::Classic, &mut f);
        let orange = palette::rgb(palette::CURSOR[1]);
        let ring_x = (FIELD_X + 9 * CELL - 1) as usize;
        let ring_y = (FIELD_Y + 19 * CELL + 3) as usize;
        assert_eq!(f.pixel(ring_x, ring_y), orange, "the cursor, bright");
        let play_row = |f: &Frame| {
            let y0 = ((FIRST_ROW + 3) * CELL) as usize;
            (y0..y0 + 7).any(|y| (8..40).any(|x| f.pixel(x, y) == orange))
        };
        assert!(!play_row(&f), "the menu is not steered: no line chosen");
        view.menu_focused = true;
        draw_editor(&game, &view, LevelColours::Classic, &mut f);
        assert!(play_row(&f), "PLAY chosen");
        assert_ne!(f.pixel(ring_x, ring_y), orange, "the cursor, dimmed");
    }
}
