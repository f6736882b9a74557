//! The stats beside the play screen, when the terminal is wide enough: the same numbers
//! as the window's HUD (the core's [`Tally`]), in text cells.
//!
//! The tally lives in `nestris-core` rather than the renderer so that this crate, which
//! draws no pixels, shares it without depending on `nestris-render`.
//!
//! ```text
//!  ┌STATS─────────────┐   TRT, LAST 10, BURN, EFF, TO LVnn
//!  │TRT           59% │   DROUGHT, MAX, LAG (or CRASHED)
//!  │...               │   PACE at 19, 29, 39
//!  └──────────────────┘   DAS and its meter, TAP HZ, 1ST TAP, the buttons held
//! ```

use nestris_core::tally::{self, Tally, DROUGHT_ALERT, PACE_LEVELS, RUNNING_CLEARS};
use nestris_core::{Buttons, Snapshot};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};

use super::{boxed, DIM, HOT, LABEL, TEXT};

/// Width of the panel in cells, border included.
pub const WIDTH: u16 = 20;

/// A long drought, lag, a burn past two tetrises' worth: the player's eye is wanted.
const ALERT: Style = Style::new().fg(Color::Indexed(203));
/// A DAS charged enough to shift at the next repeat.
const CHARGED: Style = Style::new().fg(Color::Indexed(77));

/// Draws the panel in the `WIDTH` x 24 cells from (x, y).
pub(super) fn draw(buf: &mut Buffer, s: &Snapshot, t: &Tally, x: u16, y: u16) {
    let inner = boxed(buf, Rect::new(x, y, WIDTH, super::HEIGHT));
    buf.set_string(x + 1, y, "STATS", LABEL);
    let line = |buf: &mut Buffer, row: u16, label: &str, value: &str, style: Style| {
        buf.set_string(inner.x, inner.y + row, label, LABEL);
        let len = value.chars().count() as u16;
        buf.set_string(inner.right() - len, inner.y + row, value, style);
    };
    line(buf, 0, "TRT", &pct(t.tetris_rate()), TEXT);
    let running = format!("LAST {RUNNING_CLEARS}");
    line(buf, 1, &running, &pct(t.running_tetris_rate()), TEXT);
    let burn = if t.burn >= 8 { ALERT } else { TEXT };
    line(buf, 2, "BURN", &t.burn.to_string(), burn);
    line(buf, 3, "EFF", &pct(t.efficiency()), TEXT);
    let next = format!("TO LV{:02}", u32::from(s.level) + 1);
    let to_go = tally::lines_to_next_level(s).map_or_else(dashes, |n| n.to_string());
    line(buf, 4, &next, &to_go, TEXT);

    let drought = if t.drought >= DROUGHT_ALERT {
        ALERT
    } else {
        TEXT
    };
    line(buf, 6, "DROUGHT", &t.drought.to_string(), drought);
    line(buf, 7, "MAX", &t.max_drought.to_string(), TEXT);
    if s.crash.is_some() {
        buf.set_string(inner.x, inner.y + 8, "CRASHED", HOT);
    } else if t.lag_frames > 0 {
        line(buf, 8, "LAG", &t.lag_frames.to_string(), ALERT);
    }

    buf.set_string(inner.x, inner.y + 10, "PACE", LABEL);
    for (i, level) in PACE_LEVELS.into_iter().enumerate() {
        let value = t.pace(s, level).map_or_else(dashes, |v| v.to_string());
        let style = if t.transition_scores[i].is_some() {
            HOT
        } else {
            TEXT
        };
        line(buf, 11 + i as u16, &format!("  {level}"), &value, style);
    }

    let charged = s.autorepeat_x >= s.region.das_repeat_start();
    let das = if charged { CHARGED } else { HOT };
    line(buf, 15, "DAS", &s.autorepeat_x.to_string(), das);
    // The meter: one cell per count up to the repeat, filled up to the counter.
    let limit = s.region.das_limit();
    let meter: String = (0..limit)
        .map(|i| if i < s.autorepeat_x { '█' } else { '░' })
        .collect();
    let left = inner.x + (inner.width - u16::from(limit)) / 2;
    buf.set_string(left, inner.y + 16, meter, das);
    let hz = t
        .tap_rate_tenths(s.region.frame_rate())
        .map_or_else(dashes, |r| format!("{}.{}", r / 10, r % 10));
    line(buf, 17, "TAP HZ", &hz, TEXT);
    let first = t.first_tap.map_or_else(dashes, |n| format!("{n}F"));
    line(buf, 18, "1ST TAP", &first, TEXT);

    // The buttons held, each lit when down.
    let held = Buttons(s.held);
    let mut at = inner.x;
    for (b, name) in [
        (Buttons::LEFT, "←"),
        (Buttons::UP, "↑"),
        (Buttons::DOWN, "↓"),
        (Buttons::RIGHT, "→"),
        (Buttons::SELECT, " SE"),
        (Buttons::START, " ST"),
        (Buttons::B, " B"),
        (Buttons::A, " A"),
    ] {
        let style = if held.contains(b) { HOT } else { DIM };
        buf.set_string(at, inner.y + 20, name, style);
        at += name.chars().count() as u16;
    }
}

/// A percentage, or dashes before there is one.
fn pct(p: Option<u32>) -> String {
    p.map_or_else(dashes, |p| format!("{p}%"))
}

fn dashes() -> String {
    "--".to_string()
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::{View, HEIGHT, WIDTH as LAYOUT};
    use super::*;
    use nestris_core::FrameEvents;

    #[test]
    fn a_wide_terminal_shows_the_stats_beside_play() {
        let g = play(false, 18);
        let mut view = View::default();
        let clear = |n| FrameEvents {
            flags: FrameEvents::LINES_CLEARED,
            lines_cleared: n,
            ..FrameEvents::default()
        };
        for n in [4, 1, 4, 2] {
            view.tally.observe(&clear(n), g.state());
        }
        let wide = LAYOUT + 1 + WIDTH;
        let all = screen(&g, &view, wide, HEIGHT).join("\n");
        assert_shows(
            &all,
            &[
                "STATS",
                "TRT",
                "73%",
                "LAST 10",
                "BURN",
                "EFF",
                "TO LV19",
                "130",
                "DROUGHT",
                "PACE",
                "DAS",
                "TAP HZ",
                "1ST TAP",
                "LINES-000",
            ],
        );
        // Burn: the double since the last tetris.
        let burn = all.lines().find(|l| l.contains("BURN")).unwrap();
        assert!(
            burn.trim_end().trim_end_matches('│').ends_with(" 2"),
            "{burn}"
        );
        // Narrower, the game alone, as before.
        let narrow = screen(&g, &view, wide - 1, HEIGHT).join("\n");
        assert!(!narrow.contains("STATS") && narrow.contains("LINES-000"));
        // Only in play.
        let menu = screen(&level_menu(false), &view, wide, HEIGHT).join("\n");
        assert!(!menu.contains("STATS"));
    }
}
