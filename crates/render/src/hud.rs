//! The HUD players know, as a panel beside the play screen: tetris rate (total and
//! running), burn, efficiency, lines to the next level, drought, lag, pace to the 19/29/39
//! transitions, the DAS counter, tap speed and the controller's buttons.
//!
//! The numbers are a [`Tally`] (the core's: the terminal shows the same ones); this module
//! only draws them, in the play screen's own lettering, framed boxes and backdrop, on the
//! NES palette. The panel is [`PANEL_WIDTH`] pixels wide and as tall as the picture, so
//! the screen with the HUD ([`WIDTH`], [`draw`]) scales into a window like the bare one.
//!
//! ```text
//!  cols 0...........13 14
//!  row 1  +-----------+     TRT, LAST 10, BURN, EFF, TO LVnn
//!  row 8  +-----------+     DROUGHT, MAX, LAG (or CRASHED)
//!  row 13 +-----------+     PACE at 19, 29, 39
//!  row 19 +-----------+     DAS and its meter, TAP HZ, 1ST TAP
//!  row 25 +-----------+     the controller
//! ```
//!
//! ```
//! use nestris_core::{Buttons, Game, GameSetup};
//! use nestris_render::{hud, Frame};
//!
//! let mut game = Game::new(GameSetup::default());
//! let mut tally = hud::Tally::default();
//! for _ in 0..60 {
//!     let ev = game.step(Buttons::NONE);
//!     tally.observe(&ev, game.state());
//! }
//! let mut frame = Frame::with_size(hud::WIDTH, nestris_render::HEIGHT);
//! hud::draw(&game, &tally, &mut frame, nestris_render::LevelColours::Classic);
//! assert_eq!(frame.width(), 256 + hud::PANEL_WIDTH);
//! ```

use nestris_core::tally::{self, DROUGHT_ALERT, PACE_LEVELS, RUNNING_CLEARS};
use nestris_core::{Buttons, Game, Snapshot};

pub use nestris_core::tally::Tally;

use crate::font;
use crate::frame::{self, Frame};
use crate::layout::{self, CELL};
use crate::palette::{self, LevelColours};
use crate::tiles;

/// Width of the panel in pixels: 15 cells, a box of 12 letters inside (a label, a space
/// and a seven-digit score) and a column of backdrop after it, as the play screen has
/// before its first box.
pub const PANEL_WIDTH: usize = 15 * CELL as usize;

/// Width of the screen with the panel beside it.
pub const WIDTH: usize = frame::WIDTH + PANEL_WIDTH;

/// The box's inside: from cell 1 up to (not including) cell 13 of the panel.
const INSIDE: (i32, i32) = (1, 13);

/// The controller's left edge in the panel: its 77 pixels centred in the box.
const PAD_LEFT: i32 = INSIDE.0 * CELL + ((INSIDE.1 - INSIDE.0) * CELL - 77) / 2;

/// Colours of the panel, from the NES palette: labels as the play screen's, values white,
/// what needs the player's eye in red, a charged DAS in green, unlit parts grey.
const LABEL: u8 = palette::LABEL[1];
const VALUE: u8 = palette::WHITE;
const ALERT: u8 = 0x16;
const CHARGED: u8 = 0x2A;
const CHARGING: u8 = 0x27;
const UNLIT: u8 = 0x00;
const ACHIEVED: u8 = 0x38;

/// Draws the screen the game shows now (as [`crate::draw_with`]) with the panel beside
/// it. `frame` should be [`WIDTH`] x [`crate::HEIGHT`]; a narrower one gets the panel
/// clipped.
pub fn draw(game: &Game, tally: &Tally, frame: &mut Frame, colours: LevelColours) {
    crate::draw_with(game, frame, colours);
    draw_panel(frame, frame::WIDTH as i32, tally, game.state());
}

/// Draws the panel with its left edge at pixel column `x0` (every pixel of the panel is
/// written).
pub fn draw_panel(f: &mut Frame, x0: i32, t: &Tally, s: &Snapshot) {
    let backdrop = palette::resolve(palette::BACKDROP);
    for row in 0..layout::ROWS {
        for col in 0..PANEL_WIDTH as i32 / CELL {
            tiles::BACKDROP.draw_opaque(f, x0 + col * CELL, row * CELL, &backdrop);
        }
    }
    let mut p = Panel { f, x0 };
    p.rates(t, s);
    p.drought(t, s);
    p.pace(t, s);
    p.das_and_taps(t, s);
    p.controller(Buttons(s.held));
}

/// The panel being drawn: the frame and the panel's left edge.
struct Panel<'a> {
    f: &'a mut Frame,
    x0: i32,
}

impl Panel<'_> {
    /// A framed box over panel rows `row..row + h`, the panel's width but its last column.
    fn framed(&mut self, row: i32, h: i32) {
        let col = self.x0 / CELL;
        layout::framed_box(self.f, col, row, INSIDE.1 - INSIDE.0 + 2, h);
    }

    /// `label` at the inside's left and `value` at its right, on text row `row`.
    fn line(&mut self, row: i32, label: &str, value: &str, ink: u8) {
        let y = row * CELL;
        font::draw_text(
            self.f,
            self.x0 + INSIDE.0 * CELL,
            y,
            label,
            palette::rgb(LABEL),
        );
        let right = self.x0 + INSIDE.1 * CELL;
        font::draw_text(
            self.f,
            right - font::text_width(value),
            y,
            value,
            palette::rgb(ink),
        );
    }

    fn rates(&mut self, t: &Tally, s: &Snapshot) {
        self.framed(1, 7);
        self.line(2, "TRT", &pct(t.tetris_rate()), VALUE);
        let running = format!("LAST {RUNNING_CLEARS}");
        self.line(3, &running, &pct(t.running_tetris_rate()), VALUE);
        let burn = if t.burn >= 8 { ALERT } else { VALUE };
        self.line(4, "BURN", &t.burn.to_string(), burn);
        self.line(5, "EFF", &pct(t.efficiency()), VALUE);
        let next = u32::from(s.level) + 1;
        let to_go = tally::lines_to_next_level(s).map_or_else(dashes, |n| n.to_string());
        self.line(6, &format!("TO LV{next:02}"), &to_go, VALUE);
    }

    fn drought(&mut self, t: &Tally, s: &Snapshot) {
        self.framed(8, 5);
        let ink = if t.drought >= DROUGHT_ALERT {
            ALERT
        } else {
            VALUE
        };
        self.line(9, "DROUGHT", &t.drought.to_string(), ink);
        self.line(10, "MAX", &t.max_drought.to_string(), VALUE);
        if s.crash.is_some() {
            let x = self.x0 + INSIDE.0 * CELL;
            font::draw_text(self.f, x, 11 * CELL, "CRASHED", palette::rgb(ALERT));
        } else if t.lag_frames > 0 {
            self.line(11, "LAG", &t.lag_frames.to_string(), ALERT);
        }
    }

    fn pace(&mut self, t: &Tally, s: &Snapshot) {
        self.framed(13, 6);
        self.line(14, "PACE", "", VALUE);
        for (i, level) in PACE_LEVELS.into_iter().enumerate() {
            let done = t.transition_scores[i].is_some();
            let value = t.pace(s, level).map_or_else(dashes, |v| v.to_string());
            let ink = if done { ACHIEVED } else { VALUE };
            self.line(15 + i as i32, &level.to_string(), &value, ink);
        }
    }

    fn das_and_taps(&mut self, t: &Tally, s: &Snapshot) {
        self.framed(19, 6);
        let limit = s.region.das_limit();
        let charged = s.autorepeat_x >= s.region.das_repeat_start();
        let ink = if charged { CHARGED } else { CHARGING };
        self.line(20, "DAS", &s.autorepeat_x.to_string(), ink);
        // The meter: one segment per count up to the repeat, lit up to the counter.
        let seg = (INSIDE.1 - INSIDE.0) * CELL / i32::from(limit);
        let x =
            self.x0 + INSIDE.0 * CELL + ((INSIDE.1 - INSIDE.0) * CELL - seg * i32::from(limit)) / 2;
        for i in 0..limit {
            let lit = i < s.autorepeat_x.min(limit);
            let c = if lit { ink } else { UNLIT };
            let (sx, sy) = (x + i32::from(i) * seg, 21 * CELL + 1);
            self.f.fill_rect(sx, sy, seg - 1, CELL - 3, palette::rgb(c));
        }
        let hz = t
            .tap_rate_tenths(s.region.frame_rate())
            .map_or_else(dashes, |r| format!("{}.{}", r / 10, r % 10));
        self.line(22, "TAP HZ", &hz, VALUE);
        let first = t.first_tap.map_or_else(dashes, |n| format!("{n}F"));
        self.line(23, "1ST TAP", &first, VALUE);
    }

    fn controller(&mut self, held: Buttons) {
        self.framed(25, 4);
        draw_controller(self.f, self.x0 + PAD_LEFT, 26 * CELL, held);
    }
}

/// A controller 77 pixels wide with the held buttons lit, its top-left at pixel
/// (`left`, `top`): the D-pad as a cross, Select and Start, B and A.
pub(crate) fn draw_controller(f: &mut Frame, left: i32, top: i32, held: Buttons) {
    let on = |b: Buttons, lit: u8| palette::rgb(if held.contains(b) { lit } else { UNLIT });
    let k = 5;
    let (dx, dy) = (left, top + 1);
    f.fill_rect(dx + k, dy + k, k, k, palette::rgb(UNLIT));
    f.fill_rect(dx + k, dy, k, k, on(Buttons::UP, VALUE));
    f.fill_rect(dx + k, dy + 2 * k, k, k, on(Buttons::DOWN, VALUE));
    f.fill_rect(dx, dy + k, k, k, on(Buttons::LEFT, VALUE));
    f.fill_rect(dx + 2 * k, dy + k, k, k, on(Buttons::RIGHT, VALUE));
    let sx = left + 3 * k + 8;
    f.fill_rect(sx, top + 7, 11, 3, on(Buttons::SELECT, VALUE));
    f.fill_rect(sx + 14, top + 7, 11, 3, on(Buttons::START, VALUE));
    let bx = sx + 14 + 11 + 8;
    for (i, b) in [Buttons::B, Buttons::A].into_iter().enumerate() {
        let x = bx + i as i32 * 12;
        // A round button: a square with its corners cut.
        let c = on(b, ALERT);
        f.fill_rect(x + 1, top + 3, 7, 9, c);
        f.fill_rect(x, top + 4, 9, 7, c);
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
    use super::*;
    use nestris_core::GameSetup;

    #[test]
    fn held_buttons_and_the_das_counter_light_up() {
        let game = Game::new(GameSetup::default());
        let mut s = game.snapshot();
        let mut f = Frame::with_size(WIDTH, frame::HEIGHT);
        let x0 = frame::WIDTH as i32;
        let lit = |f: &Frame, x: i32, y: i32| f.pixel(x as usize, y as usize);
        let left = x0 + PAD_LEFT;
        let top = 26 * CELL;
        s.held = (Buttons::A | Buttons::LEFT).bits();
        s.autorepeat_x = 16;
        draw_panel(&mut f, x0, &Tally::default(), &s);
        assert_eq!(lit(&f, left + 2, top + 7), palette::rgb(VALUE), "Left");
        assert_eq!(lit(&f, left + 12, top + 7), palette::rgb(UNLIT), "Right");
        let bx = left + 15 + 8 + 14 + 11 + 8;
        assert_eq!(lit(&f, bx + 4, top + 7), palette::rgb(UNLIT), "B");
        assert_eq!(lit(&f, bx + 16, top + 7), palette::rgb(ALERT), "A");
        let meter_y = 21 * CELL + 2;
        let last = x0 + INSIDE.1 * CELL - 6;
        assert_eq!(lit(&f, last, meter_y), palette::rgb(CHARGED), "full");
        s.autorepeat_x = 3;
        draw_panel(&mut f, x0, &Tally::default(), &s);
        assert_eq!(lit(&f, last, meter_y), palette::rgb(UNLIT));
        let first = x0 + INSIDE.0 * CELL + 6;
        assert_eq!(lit(&f, first, meter_y), palette::rgb(CHARGING));
    }
}
