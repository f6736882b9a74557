//! The high-score table (top three of the game type) and the name-entry screen built
//! around it.

use nestris_core::Snapshot;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;

use super::{
    bcd_digits, centred, centred_box, footer, high_score_base, name_char, type_name, HOT, LABEL,
    TEXT,
};

/// Draws the table of the game type in a box from row `row` of `at` (ten rows); `entry`
/// marks the table slot being named and the letter being edited.
pub(super) fn table(
    buf: &mut Buffer,
    s: &Snapshot,
    at: Rect,
    row: u16,
    entry: Option<(usize, usize)>,
) {
    let inner = centred_box(buf, at, row, 42, 10);
    let (name_x, score_x, lv_x) = (inner.x + 8, inner.x + 20, inner.x + 32);
    buf.set_string(name_x, inner.y, "NAME", LABEL);
    buf.set_string(score_x, inner.y, "SCORE", LABEL);
    buf.set_string(lv_x, inner.y, "LV", LABEL);
    let hs = &s.flow.high_scores;
    let base = high_score_base(s.game_type);
    for i in 0..3 {
        let slot = base + i;
        let y = inner.y + 2 + 2 * i as u16;
        let editing = entry.filter(|&(e, _)| e == slot);
        let ink = if editing.is_some() { HOT } else { TEXT };
        buf.set_string(inner.x + 4, y, (i + 1).to_string(), LABEL);
        let name: String = hs.names[slot].iter().map(|&c| name_char(c)).collect();
        buf.set_string(name_x, y, name, ink);
        buf.set_string(score_x, y, bcd_digits(&hs.scores[slot]), ink);
        let lv = hs.levels[slot];
        let lv = if lv < 100 {
            format!("{lv:02}")
        } else {
            lv.to_string()
        };
        buf.set_string(lv_x, y, lv, ink);
        if let Some((_, letter)) = editing {
            if s.cursor_shown() {
                // An overline on the row below reads as an underline of the letter.
                buf.set_string(name_x + letter as u16, y + 1, "▔", HOT);
            }
        }
    }
}

/// Draws the name-entry screen: a greeting, the type, and the table with the new entry.
pub(super) fn draw_name_entry(buf: &mut Buffer, s: &Snapshot, at: Rect) {
    let inner = centred_box(buf, at, 0, 30, 4);
    centred(
        buf,
        inner,
        inner.y,
        "NEW HIGH SCORE!",
        LABEL.add_modifier(Modifier::BOLD),
    );
    centred(buf, inner, inner.y + 1, "ENTER YOUR NAME", TEXT);
    let inner = centred_box(buf, at, 5, 12, 3);
    centred(buf, inner, inner.y, type_name(s.game_type), LABEL);
    let (slot, letter) = s.name_entry();
    table(buf, s, at, 9, Some((slot, letter)));
    let inner = centred_box(buf, at, 19, 42, 4);
    centred(
        buf,
        inner,
        inner.y,
        "HOLD UP/DOWN: LETTER   LEFT/RIGHT: MOVE",
        TEXT,
    );
    centred(buf, inner, inner.y + 1, "START (ENTER): DONE", TEXT);
    footer(buf, at, "X/Z also move the cursor   Esc: quit");
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use nestris_core::{Buttons, Game, Region};

    /// Power-on with an empty high-score table (so any score enters it), an A-type game
    /// dropped straight down until it tops out, and Start after the curtain.
    fn name_entry() -> Game {
        let mut g = Game::power_on(Region::Ntsc);
        g = edited(&g, |s| {
            s.flow.high_scores.scores = [[0; 3]; 8];
            s.flow.high_scores.names[0] = [1, 2, 3, 0, 27, 43];
        });
        run(&mut g, 270, Buttons::NONE);
        for _ in 0..3 {
            press(&mut g, Buttons::START);
        }
        g.step(Buttons::START);
        let mut frames = 0;
        while g.state().screen() != nestris_core::Screen::NameEntry {
            let s = g.state();
            // Soft drop to the top-out (Down pressed afresh now and then, since a new
            // piece ignores a Down held over from the last); after the curtain, Start.
            let b = if s.phase() == nestris_core::PlayState::Curtain
                && s.curtain_row == 20
                && s.held == 0
            {
                Buttons::START
            } else if s.phase() == nestris_core::PlayState::Curtain || frames % 40 == 0 {
                Buttons::NONE
            } else {
                Buttons::DOWN
            };
            g.step(b);
            frames += 1;
            assert!(frames < 5000, "no name entry");
        }
        run(&mut g, 10, Buttons::NONE);
        g
    }

    #[test]
    fn name_entry_shows_the_table_and_the_letter_being_typed() {
        let mut g = name_entry();
        assert_eq!(g.state().flow.entry_slot, 0);
        // Up held: the letter goes up on the frames whose counter is a multiple of 8.
        run(&mut g, 17, Buttons::UP);
        let typed = g.state().flow.high_scores.names[0][0];
        assert!((2..=3).contains(&typed), "letter {typed}");
        press(&mut g, Buttons::RIGHT);
        press(&mut g, Buttons::RIGHT);
        assert_eq!(g.state().flow.entry_letter, 2);
        while g.state().frame_counter & 3 == 0 {
            g.step(Buttons::NONE);
        }
        let lines = screen(&g, &Default::default(), 64, 24);
        let all = lines.join("\n");
        assert_shows(
            &all,
            &["NEW HIGH SCORE!", "ENTER YOUR NAME", "A-TYPE", "NAME"],
        );
        let letter = (b'A' + typed - 1) as char;
        let row = lines
            .iter()
            .position(|l| l.contains(&format!(" {letter}    ")))
            .unwrap_or_else(|| panic!("no entry row in\n{all}"));
        // The cursor sits under the third letter; the older entry moved down a row.
        let name_x = lines[row].chars().position(|c| c == letter).unwrap();
        assert_eq!(lines[row + 1].chars().nth(name_x + 2), Some('▔'), "{all}");
        assert!(lines[row + 2].contains("ABC 0 "), "{all}");
        // Start ends the entry; the level menu comes back.
        press(&mut g, Buttons::START);
        run(&mut g, 10, Buttons::NONE);
        assert_eq!(g.state().mode(), nestris_core::GameMode::LevelMenu);
        assert!(shown(&g).contains("LEVEL"));
    }
}
