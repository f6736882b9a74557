//! The endings in text: for A-type a rocket on a night launch pad that lifts off as the
//! engine's rocket height counts down; for B-type SUCCESS with the bonus count and the
//! total.

use nestris_core::bcd::score_value;
use nestris_core::flow::EndingStep;
use nestris_core::{Resume, Snapshot};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Clear, Widget};

use super::{bcd_digits, boxed, centred, centred_box, digit, spell, HOT, LABEL, TEXT, WHITE};

/// Draws the ending of the game type.
pub(super) fn draw(buf: &mut Buffer, s: &Snapshot, at: Rect) {
    if s.game_type == 0 {
        rocket(buf, s, at);
    } else {
        success(buf, s, at);
    }
}

/// Where the stars are (column, row); the first six are bright, the rest dots.
const STARS: [(u16, u16); 24] = [
    (7, 3),
    (50, 2),
    (17, 8),
    (57, 10),
    (40, 6),
    (4, 13),
    (3, 1),
    (13, 5),
    (22, 2),
    (27, 5),
    (35, 3),
    (44, 9),
    (53, 6),
    (61, 4),
    (9, 10),
    (15, 15),
    (24, 12),
    (49, 14),
    (59, 17),
    (37, 16),
    (2, 8),
    (31, 9),
    (47, 1),
    (21, 17),
];

/// The engine's starting rocket height for each ending: the rocket stands on the pad.
const LAUNCH_HEIGHT: [i32; 5] = [0xBF, 0xBF, 0xBF, 0xBF, 0xC7];

/// The ground's top row, in rows of the layout.
const GROUND: i32 = 21;

/// The A-type ending.
fn rocket(buf: &mut Buffer, s: &Snapshot, at: Rect) {
    let sky = Style::new().fg(Color::Indexed(189));
    for (i, &(x, y)) in STARS.iter().enumerate() {
        if i < 6 {
            buf.set_string(at.x + x, at.y + y, "*", sky.add_modifier(Modifier::BOLD));
        } else if (i + usize::from(s.frame_counter >> 4)) % 7 != 0 {
            // A few dots take turns to fade, so the sky is not a still picture.
            buf.set_string(at.x + x, at.y + y, "·", sky);
        }
    }
    let grass = Style::new().fg(Color::Indexed(34)).bg(Color::Indexed(22));
    let earth = Style::new().fg(Color::Indexed(28)).bg(Color::Indexed(22));
    let width = at.width as usize;
    buf.set_string(at.x, at.y + GROUND as u16, "▀".repeat(width), grass);
    for row in GROUND + 1..24 {
        buf.set_string(at.x, at.y + row as u16, "░".repeat(width), earth);
    }

    let ending = usize::from(s.flow.ending.min(4));
    // Bigger scores earn longer rockets: one to three body sections.
    let sections = 1 + ending as i32 / 2;
    let height = sections + 2;
    let tower = Style::new().fg(Color::Indexed(250));
    let (tower_x, rocket_x) = (at.x + 28, at.x + 30);
    for k in 1..height {
        buf.set_string(tower_x, at.y + (GROUND - k) as u16, "╫", tower);
    }

    let [rise, timer] = s.flow.ending_vars;
    if rise != 0 {
        // Map the engine's height (from the launch height down to 0) onto the rows so
        // that the rocket starts on the pad and has just left the top when it reaches 0.
        let start = LAUNCH_HEIGHT[ending];
        let base = -height + i32::from(rise).min(start) * (GROUND + height) / start;
        let hull = Style::new().fg(WHITE);
        let red = Style::new().fg(Color::Indexed(196));
        let mut parts = vec![(" /\\ ", red), ("|()|", hull)];
        parts.extend((1..sections).map(|_| ("|  |", hull)));
        parts.push(("/||\\", red));
        let top = base - height;
        for (i, (text, style)) in parts.iter().enumerate() {
            let row = top + i as i32;
            if (0..GROUND).contains(&row) {
                buf.set_string(rocket_x, at.y + row as u16, *text, *style);
            }
        }
        let launched = timer == 0xF0;
        if !launched && (0..GROUND).contains(&(top + 1)) {
            // Still on the pad: the tower's arm holds it.
            buf.set_string(tower_x + 1, at.y + (top + 1) as u16, "═", tower);
        }
        if (launched || (timer >= 0xD0 && s.frame_counter & 4 != 0)) && (0..24).contains(&base) {
            let flame = if launched && s.frame_counter & 2 != 0 {
                " ** "
            } else {
                " \\/ "
            };
            let style = Style::new().fg(Color::Indexed(214)).bg(Color::Reset);
            buf.set_string(rocket_x, at.y + base as u16, flame, style);
        }
    }

    let plate = Rect::new(at.x + 2, at.y + 1, 22, 5);
    // The sky is drawn first; the plate covers the stars behind it.
    Clear.render(plate, buf);
    let inner = boxed(buf, plate);
    centred(buf, inner, inner.y, "WELL PLAYED!", LABEL);
    let score = bcd_digits(&[s.score[2], s.score[1], s.score[0]]);
    centred(buf, inner, inner.y + 1, &format!("SCORE {score}"), TEXT);
    // Start ends the ending only once the rocket has gone.
    if s.resume == Resume::Ending(EndingStep::Rocket) && rise == 0 && s.frame_counter & 0x10 != 0 {
        centred(buf, inner, inner.y + 2, "PUSH START", HOT);
    }
}

/// The B-type ending.
fn success(buf: &mut Buffer, s: &Snapshot, at: Rect) {
    let inner = centred_box(buf, at, 0, 58, 9);
    spell(buf, inner, inner.y + 1, "SUCCESS");

    let inner = centred_box(buf, at, 10, 40, 12);
    let v = &s.flow;
    // The score moves into the total when the count starts and back at the end: show
    // whichever holds it.
    let total = if score_value(v.total_score) >= score_value(s.score) {
        v.total_score
    } else {
        s.score
    };
    let rows: [(u16, &str, String); 5] = [
        (1, "LEVEL", digit(v.ending_level).to_string()),
        (2, "HEIGHT", digit(s.start_height).to_string()),
        (
            4,
            "LEVEL BONUS",
            format!("{}00", bcd_digits(&[v.level_bonus])),
        ),
        (
            5,
            "HEIGHT BONUS",
            format!("{}00", bcd_digits(&[v.height_bonus])),
        ),
        (7, "SCORE", bcd_digits(&[total[2], total[1], total[0]])),
    ];
    for (row, name, value) in &rows {
        let y = inner.y + row;
        buf.set_string(inner.x + 4, y, *name, LABEL);
        let x = inner.x + inner.width - 4 - value.len() as u16;
        buf.set_string(x, y, value, TEXT);
    }
    if s.resume == Resume::Ending(EndingStep::WaitStart) && s.frame_counter & 0x10 != 0 {
        centred(buf, inner, inner.y + 9, "PUSH START", HOT);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use nestris_core::flow::EndingStep;
    use nestris_core::{Buttons, Game, Resume};

    /// Steps with no buttons until `done`, at most `limit` frames.
    fn until(g: &mut Game, limit: usize, done: impl Fn(&Game) -> bool) {
        for _ in 0..limit {
            if done(g) {
                return;
            }
            g.step(Buttons::NONE);
        }
        panic!("not reached in {limit} frames: {:?}", g.state().resume);
    }

    /// The line holding `word`, and the index of that line.
    fn row_of(lines: &[String], word: &str) -> Option<usize> {
        lines.iter().position(|l| l.contains(word))
    }

    #[test]
    fn a_type_rocket_rises() {
        // A game of 31,000 points that tops out at once: the curtain, then the rocket.
        let g = edited(&play(false, 0), |s| {
            for row in 2..20 {
                s.playfield.0[row * 10..row * 10 + 9].fill(0x7B);
            }
            s.score = [0x00, 0x10, 0x03];
        });
        let mut g = g;
        until(&mut g, 3000, |g| {
            g.state().screen() == nestris_core::Screen::Ending
        });
        until(&mut g, 600, |g| {
            g.state().resume == Resume::Ending(EndingStep::Rocket)
        });
        let before = screen(&g, &Default::default(), 64, 24);
        let all = before.join("\n");
        assert_shows(&all, &["WELL PLAYED!", "SCORE 031000", "/||\\", "╫"]);
        let nose = row_of(&before, "/\\ ").unwrap();
        until(&mut g, 2000, |g| {
            g.state().flow.ending_vars[1] == 0xF0 && g.state().flow.ending_vars[0] < 0x60
        });
        let after = screen(&g, &Default::default(), 64, 24);
        let risen = row_of(&after, "/||\\").unwrap();
        assert!(risen < nose, "the rocket rose: {nose} -> {risen}");
        // Gone, then Start ends it: 31,000 beats the table's 10,000, so name entry.
        until(&mut g, 2000, |g| g.state().flow.ending_vars[0] == 0);
        assert!(!shown(&g).contains("/||\\"));
        g.step(Buttons::START);
        until(&mut g, 600, |g| {
            g.state().screen() == nestris_core::Screen::NameEntry
        });
    }

    #[test]
    fn b_type_success_counts_the_bonus() {
        // One line to go, and the spawned I completes row 19.
        let g = edited(&play(true, 9), |s| {
            s.playfield.0[..200].fill(0xEF);
            for col in [0, 1, 2, 7, 8, 9] {
                s.playfield.0[190 + col] = 0x7C;
            }
            s.lines = [0x01, 0];
            s.piece = 18;
            s.x = 5;
            s.y = 0;
            s.score = [0x00, 0x12, 0x00];
        });
        let mut g = g;
        until(&mut g, 600, |g| {
            g.state().resume == Resume::Ending(EndingStep::BannerSleep)
        });
        assert!(shown(&g).contains("SUCCESS!"), "{}", shown(&g));
        until(&mut g, 600, |g| {
            g.state().screen() == nestris_core::Screen::Ending
        });
        until(&mut g, 3000, |g| {
            g.state().resume == Resume::Ending(EndingStep::WaitStart)
        });
        while g.state().frame_counter & 0x10 == 0 {
            g.step(Buttons::NONE);
        }
        let all = shown(&g);
        assert_shows(
            &all,
            &["[]", "LEVEL BONUS", "HEIGHT BONUS", "000", "PUSH START"],
        );
        // 1,200 points from the game (plus the line) and 900 for level 9.
        let score: Vec<&str> = all
            .lines()
            .filter(|l| l.contains("SCORE"))
            .flat_map(|l| l.split_whitespace())
            .filter(|w| w.len() == 6 && w.chars().all(|c| c.is_ascii_digit()))
            .collect();
        assert_eq!(score.len(), 1, "{all}");
        let total: u32 = score[0].parse().unwrap();
        assert!(total >= 1200 + 900, "{all}");
    }
}
