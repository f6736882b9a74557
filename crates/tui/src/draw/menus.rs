//! The screens before play: the power-on (legal) screen in the project's own words, the
//! title, the game-type menu and the level menu with the high scores of the type.

use nestris_core::Snapshot;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use super::{boxed, centred, centred_box, footer, spell, tile_cell, type_name, HOT, LABEL, TEXT};

/// The power-on screen's text, one entry per row (empty strings are blank rows).
const LEGAL: [&str; 12] = [
    "AN INDEPENDENT REIMPLEMENTATION OF A",
    "1989 FALLING-BLOCK CONSOLE GAME.",
    "",
    "ALL PICTURES, LETTERS AND CODE",
    "ARE THE PROJECT'S OWN.",
    "",
    "NOT MADE, SOLD OR ENDORSED BY THE",
    "ORIGINAL GAME'S RIGHTS HOLDERS.",
    "",
    "",
    "",
    "MIT OR APACHE-2.0",
];

/// Draws the power-on screen.
pub(super) fn draw_legal(buf: &mut Buffer, at: Rect) {
    let inner = centred_box(buf, at, 1, 50, 19);
    centred(
        buf,
        inner,
        inner.y + 1,
        "N E S T R I S",
        LABEL.add_modifier(Modifier::BOLD),
    );
    for (i, line) in LEGAL.iter().enumerate() {
        centred(buf, inner, inner.y + 4 + i as u16, line, TEXT);
    }
    footer(
        buf,
        at,
        "arrows D-pad  X A  Z B  Enter Start  Tab Select  Esc quit",
    );
}

/// The pile of pieces under the title, row by row ('.' empty, 1 2 3 = blocks $7B, $7C,
/// $7D): one of each piece and a few more.
const PILE: [&str; 4] = [
    ".................1..",
    ".33..........2..111.",
    "33..113...1.22.21111",
    "11111133311122221111",
];

/// Draws the title screen: NESTRIS in block letters, PUSH START, a pile of pieces.
pub(super) fn draw_title(buf: &mut Buffer, s: &Snapshot, at: Rect) {
    let inner = centred_box(buf, at, 0, 58, 9);
    spell(buf, inner, inner.y + 1, "NESTRIS");

    let inner = centred_box(buf, at, 10, 16, 3);
    centred(buf, inner, inner.y, "PUSH START", TEXT);

    let inner = centred_box(buf, at, 15, 44, 7);
    for (r, line) in PILE.iter().enumerate() {
        for (col, ch) in line.bytes().enumerate() {
            let tile = match ch {
                b'1' => 0x7B,
                b'2' => 0x7C,
                b'3' => 0x7D,
                _ => continue,
            };
            let (text, style) = tile_cell(tile, s.start_level);
            let y = inner.y + 1 + r as u16;
            buf.set_string(inner.x + 1 + 2 * col as u16, y, text, style);
        }
    }
    footer(buf, at, "Enter: start   Esc: quit");
}

/// The blinking arrows around a choice `len` cells wide at `x`, `y`.
fn arrows(buf: &mut Buffer, s: &Snapshot, x: u16, y: u16, len: u16) {
    if s.cursor_shown() {
        buf.set_string(x - 2, y, "▶", HOT);
        buf.set_string(x + len + 1, y, "◀", HOT);
    }
}

/// Draws the game-type menu: A-TYPE or B-TYPE, and the music.
pub(super) fn draw_type_menu(buf: &mut Buffer, s: &Snapshot, at: Rect) {
    let inner = centred_box(buf, at, 0, 18, 3);
    centred(buf, inner, inner.y, "GAME TYPE", LABEL);
    let inner = centred_box(buf, at, 3, 44, 5);
    for (t, col) in [(0u8, 8), (1, 28)] {
        let (x, y) = (inner.x + col, inner.y + 1);
        let chosen = s.game_type == t;
        buf.set_string(x, y, type_name(t), if chosen { HOT } else { TEXT });
        if chosen {
            arrows(buf, s, x, y, 6);
        }
    }

    let inner = centred_box(buf, at, 9, 18, 3);
    centred(buf, inner, inner.y, "MUSIC TYPE", LABEL);
    let inner = centred_box(buf, at, 12, 18, 10);
    for (m, name) in ["MUSIC-1", "MUSIC-2", "MUSIC-3", "OFF"].iter().enumerate() {
        let y = inner.y + 1 + 2 * m as u16;
        let x = inner.x + (inner.width - name.len() as u16) / 2;
        let chosen = usize::from(s.music_type) == m;
        buf.set_string(x, y, *name, if chosen { HOT } else { TEXT });
        if chosen {
            arrows(buf, s, x, y, name.len() as u16);
        }
    }
    footer(
        buf,
        at,
        "←→ type  ↑↓ music  Enter: start  Z: back  Esc: quit",
    );
}

/// Draws the level menu: the level grid (and for B-type the height grid) and the top
/// three of the high-score table.
pub(super) fn draw_level_menu(buf: &mut Buffer, s: &Snapshot, at: Rect) {
    let inner = centred_box(buf, at, 0, 12, 3);
    centred(buf, inner, inner.y, type_name(s.game_type), LABEL);

    let b_type = s.game_type != 0;
    // `selecting` is a scratch byte outside the menu; only B-type reads it as the field.
    let on_height = b_type && s.selecting != 0;
    if b_type {
        grid(
            buf,
            s,
            (at.x + 9, at.y + 3),
            "LEVEL",
            10,
            s.start_level,
            !on_height,
        );
        grid(
            buf,
            s,
            (at.x + 40, at.y + 3),
            "HEIGHT",
            6,
            s.start_height,
            on_height,
        );
    } else {
        let x = at.x + (at.width - 23) / 2;
        grid(buf, s, (x, at.y + 3), "LEVEL", 10, s.start_level, true);
    }
    super::scores::table(buf, s, at, 10, None);
    let help = if b_type {
        "arrows choose  X level/height  Enter start  Z back"
    } else {
        "arrows choose  Enter start (X+Enter: +10)  Z back"
    };
    footer(buf, at, help);
}

/// A grid of `count` numbers in two rows under the heading `title`, boxed from `(x, y)`,
/// with the choice `chosen` highlighted: blinking if `active`, steady and dim otherwise.
fn grid(
    buf: &mut Buffer,
    s: &Snapshot,
    (x, y): (u16, u16),
    title: &str,
    count: u8,
    chosen: u8,
    active: bool,
) {
    let per_row = u16::from(count) / 2;
    let w = 4 * per_row + 3;
    centred(buf, Rect::new(x, y, w, 1), y, title, LABEL);
    let inner = boxed(buf, Rect::new(x, y + 1, w, 5));
    let cursor = if active {
        s.cursor_shown().then_some(Color::Indexed(214))
    } else {
        Some(Color::Indexed(137))
    };
    for n in 0..count {
        let cx = inner.x + 1 + 4 * (u16::from(n) % per_row);
        let cy = inner.y + 2 * (u16::from(n) / per_row);
        let style = match cursor {
            Some(c) if n == chosen => Style::new().fg(Color::Black).bg(c),
            _ => TEXT,
        };
        buf.set_string(cx, cy, format!(" {n} "), style);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use nestris_core::{Buttons, Game, Region};
    use ratatui::style::Color;

    #[test]
    fn legal_screen_then_title() {
        let mut g = Game::power_on(Region::Ntsc);
        run(&mut g, 20, Buttons::NONE);
        let all = shown(&g);
        assert_shows(
            &all,
            &["N E S T R I S", "REIMPLEMENTATION", "MIT OR APACHE-2.0"],
        );
        assert!(!all.contains("Nintendo"));
        // Start is not read before frame 267.
        run(&mut g, 200, Buttons::NONE);
        press(&mut g, Buttons::START);
        assert_eq!(g.state().mode(), nestris_core::GameMode::Legal);
        let g = title();
        let lines = screen(&g, &Default::default(), 64, 24);
        let all = lines.join("\n");
        assert_shows(&all, &["PUSH START", "[][][]"]);
        // NESTRIS in block letters: the N's first row is a block, two blanks, a block.
        assert!(lines[2].contains("[]    []"), "{all}");
        assert!(!all.contains("REIMPLEMENTATION"));
    }

    /// The line holding `word`.
    fn line_with<'a>(all: &'a str, word: &str) -> &'a str {
        all.lines().find(|l| l.contains(word)).unwrap_or("")
    }

    #[test]
    fn type_menu_cursor_follows_the_choice() {
        let mut g = type_menu();
        // The cursor blinks with the frame counter: find a frame where it shows.
        while g.state().frame_counter & 3 == 0 {
            g.step(Buttons::NONE);
        }
        let all = shown(&g);
        assert_shows(&all, &["GAME TYPE", "MUSIC TYPE", "MUSIC-3", "OFF"]);
        assert!(line_with(&all, "A-TYPE").contains("▶ A-TYPE ◀"), "{all}");
        assert!(line_with(&all, "MUSIC-1").contains("▶ MUSIC-1 ◀"), "{all}");
        press(&mut g, Buttons::RIGHT);
        press(&mut g, Buttons::DOWN);
        press(&mut g, Buttons::DOWN);
        press(&mut g, Buttons::DOWN);
        while g.state().frame_counter & 3 == 0 {
            g.step(Buttons::NONE);
        }
        let all = shown(&g);
        assert!(line_with(&all, "B-TYPE").contains("  A-TYPE  "), "{all}");
        assert!(line_with(&all, "B-TYPE").contains("▶ B-TYPE ◀"), "{all}");
        assert!(line_with(&all, "OFF").contains("▶ OFF ◀"), "{all}");
        // The cursor is hidden one frame in four.
        while g.state().frame_counter & 3 != 0 {
            g.step(Buttons::NONE);
        }
        assert!(!shown(&g).contains('▶'));
    }

    #[test]
    fn level_menu_shows_the_grid_and_the_high_scores() {
        let mut g = level_menu(false);
        press(&mut g, Buttons::DOWN);
        press(&mut g, Buttons::RIGHT);
        assert_eq!(g.state().start_level, 6);
        let all = shown(&g);
        assert_shows(
            &all,
            &[
                "A-TYPE", "LEVEL", " 0 ", " 4 ", " 5 ", " 9 ", "NAME", "SCORE", "HOWARD", "010000",
                "OTASAN", "007500", "LANCE", "005000",
            ],
        );
        assert!(!all.contains("HEIGHT"));
        assert!(!all.contains("ALEX"));
        // The cursor is the highlighted number, shown three frames in four.
        let highlighted = |g: &Game| -> Vec<String> {
            let buf = cells(g);
            buf.content()
                .iter()
                .filter(|c| c.bg == Color::Indexed(214))
                .map(|c| c.symbol().to_string())
                .collect()
        };
        while g.state().frame_counter & 3 == 0 {
            g.step(Buttons::NONE);
        }
        assert_eq!(highlighted(&g).concat(), " 6 ");
        while g.state().frame_counter & 3 != 0 {
            g.step(Buttons::NONE);
        }
        assert!(highlighted(&g).is_empty());
    }

    #[test]
    fn b_type_level_menu_has_the_height_grid() {
        let mut g = level_menu(true);
        press(&mut g, Buttons::A);
        assert_eq!(g.state().selecting, 1);
        press(&mut g, Buttons::RIGHT);
        let all = shown(&g);
        assert_shows(
            &all,
            &["B-TYPE", "LEVEL", "HEIGHT", "ALEX", "002000", "NINTEN"],
        );
        assert_eq!(g.state().start_height, 1);
        assert!(!all.contains("HOWARD"));
    }
}
