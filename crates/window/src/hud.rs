//! The HUD beside the NES picture: tetris rate, drought, DAS charge and the buttons held.
//!
//! [`HudStats`] follows the game frame by frame (it needs only the frame's events and
//! the state); [`draw`] paints the panel, [`PANEL_WIDTH`] pixels wide, to the right of
//! the 256-pixel NES frame.

use nestris_core::bcd::bcd_value;
use nestris_core::flow::Resume;
use nestris_core::{Buttons, FrameEvents, Game, Snapshot};

use crate::canvas::Canvas;

/// Width of the HUD panel in NES pixels.
pub const PANEL_WIDTH: usize = 96;

/// Pieces without an I from which the drought counter shows in red.
pub const DROUGHT_ALERT: u32 = 13;

/// Numbers the HUD shows, kept up to date from every frame.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct HudStats {
    /// Lines cleared this game.
    pub lines: u32,
    /// Lines cleared by tetrises this game.
    pub tetris_lines: u32,
    /// Pieces dealt since the last I (the current piece included).
    pub drought: u32,
    /// The longest drought this game.
    pub max_drought: u32,
    /// Lag frames this game (`FrameEvents::LAG`: the frame interrupt came before the
    /// frame's work was done).
    pub lag_frames: u32,
    pieces: u32,
    i_pieces: u32,
}

/// A 2-byte BCD counter (low byte first) as a number.
fn stat_value(c: [u8; 2]) -> u32 {
    bcd_value(c[0]) + 100 * bcd_value(c[1])
}

impl HudStats {
    /// Takes in one frame: its events and the state after it.
    pub fn observe(&mut self, ev: &FrameEvents, s: &Snapshot) {
        if matches!(s.resume, Resume::GameInit { .. }) {
            // A new game: its first piece is already dealt and counted.
            *self = HudStats::default();
        }
        self.lag_frames += u32::from(ev.has(FrameEvents::LAG));
        if ev.has(FrameEvents::LINES_CLEARED) {
            let n = u32::from(ev.lines_cleared);
            self.lines += n;
            if n >= 4 {
                self.tetris_lines += n;
            }
        }
        let pieces: u32 = s.stats.iter().map(|&c| stat_value(c)).sum();
        let i_pieces = stat_value(s.stats[6]);
        if pieces > self.pieces {
            if i_pieces > self.i_pieces {
                self.drought = 0;
            } else {
                self.drought += pieces - self.pieces;
            }
            self.max_drought = self.max_drought.max(self.drought);
        }
        self.pieces = pieces;
        self.i_pieces = i_pieces;
    }

    /// Percent of this game's lines cleared by tetrises (rounded), once a line is cleared.
    pub fn tetris_rate(&self) -> Option<u32> {
        (self.lines > 0).then(|| (self.tetris_lines * 100 + self.lines / 2) / self.lines)
    }
}

const GREY: u32 = 0x747474;
const DARK: u32 = 0x3C3C3C;
const WHITE: u32 = 0xFCFCFC;
const RED: u32 = 0xF83800;
const GREEN: u32 = 0x58D854;
const ORANGE: u32 = 0xFCA044;
const CYAN: u32 = 0x3CBCFC;

/// Paints the panel at x = `x0` (the canvas is at least `x0 + PANEL_WIDTH` wide).
pub fn draw(c: &mut Canvas, x0: i32, stats: &HudStats, s: &Snapshot) {
    let h = c.height as i32;
    c.fill_rect(x0, 0, PANEL_WIDTH as i32, h, 0x000000);
    c.outline(x0 + 2, 8, PANEL_WIDTH as i32 - 6, h - 16, GREY);
    let x = x0 + 10;

    c.text(x, 18, "TRT", GREY, 1);
    let trt = stats
        .tetris_rate()
        .map_or_else(|| "--".to_string(), |r| format!("{r}%"));
    c.text(x, 28, &trt, WHITE, 2);

    c.text(x, 54, "DROUGHT", GREY, 1);
    let colour = if stats.drought >= DROUGHT_ALERT {
        RED
    } else {
        WHITE
    };
    c.text(x, 64, &stats.drought.to_string(), colour, 2);
    c.text(x + 40, 71, &format!("MAX {}", stats.max_drought), GREY, 1);

    c.text(x, 92, "DAS", GREY, 1);
    let limit = u32::from(s.region.das_limit());
    let charge = u32::from(s.autorepeat_x).min(limit);
    let charged = s.autorepeat_x >= s.region.das_repeat_start();
    c.text(
        x + 30,
        92,
        &format!("{:>2}/{limit}", s.autorepeat_x),
        if charged { GREEN } else { ORANGE },
        1,
    );
    let cell = 4;
    for i in 0..limit as i32 {
        let lit = (i as u32) < charge;
        let colour = match (lit, charged) {
            (false, _) => DARK,
            (true, true) => GREEN,
            (true, false) => ORANGE,
        };
        c.fill_rect(x + i * cell, 104, cell - 1, 10, colour);
    }

    c.text(x, 132, "INPUT", GREY, 1);
    draw_pad(c, x, 146, Buttons(s.held));

    c.text(x, 190, "LAG", GREY, 1);
    let lag_colour = if stats.lag_frames > 0 { ORANGE } else { WHITE };
    c.text(x + 30, 190, &stats.lag_frames.to_string(), lag_colour, 1);
    if s.crash.is_some() {
        // Scale 1: at scale 2 the word is wider than the panel's inside.
        c.text(x, 206, "CRASHED", RED, 1);
    }
}

/// The crash marker over the NES picture, once the cartridge would have crashed in this
/// game (`Game::crashed`): "CRASHED" on red at the picture's bottom left, "CPU HALTED"
/// added when the console stopped there (crash mode `cartridge`), and the game's lag
/// frames when known. Nothing otherwise.
pub fn draw_crash_marker(c: &mut Canvas, game: &Game, lag_frames: Option<u64>) {
    if game.crashed().is_none() {
        return;
    }
    let mut text = String::from("CRASHED");
    if game.halted() {
        text.push_str(" - CPU HALTED");
    }
    if let Some(n) = lag_frames {
        text.push_str(&format!("  LAG {n}"));
    }
    let (x, y) = CRASH_MARKER_AT;
    let w = crate::font::width(&text, 1);
    c.fill_rect(x, y, w + 6, crate::font::H + 6, CRASH_MARKER_RED);
    c.text(x + 3, y + 3, &text, WHITE, 1);
}

/// Where the crash marker's box starts on the NES picture (left, top).
pub const CRASH_MARKER_AT: (i32, i32) = (4, 240 - crate::font::H - 10);

/// The crash marker's background.
pub const CRASH_MARKER_RED: u32 = 0xA80020;

/// A small NES pad with the held buttons lit.
fn draw_pad(c: &mut Canvas, x: i32, y: i32, held: Buttons) {
    let on = |b: Buttons, lit: u32| if held.contains(b) { lit } else { DARK };
    c.outline(x - 3, y - 3, 82, 31, GREY);
    // The D-pad: a cross of 7-pixel squares.
    let k = 7;
    c.fill_rect(x + k, y + k, k, k, DARK);
    c.fill_rect(x + k, y, k, k, on(Buttons::UP, WHITE));
    c.fill_rect(x + k, y + 2 * k, k, k, on(Buttons::DOWN, WHITE));
    c.fill_rect(x, y + k, k, k, on(Buttons::LEFT, WHITE));
    c.fill_rect(x + 2 * k, y + k, k, k, on(Buttons::RIGHT, WHITE));
    // Select and Start.
    c.fill_rect(x + 26, y + 10, 10, 4, on(Buttons::SELECT, CYAN));
    c.fill_rect(x + 39, y + 10, 10, 4, on(Buttons::START, CYAN));
    // B and A.
    c.fill_rect(x + 54, y + 7, 8, 8, on(Buttons::B, RED));
    c.fill_rect(x + 66, y + 7, 8, 8, on(Buttons::A, RED));
    c.text(x + 55, y + 17, "B", GREY, 1);
    c.text(x + 67, y + 17, "A", GREY, 1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::{Game, GameSetup};

    fn lines(n: u8) -> FrameEvents {
        FrameEvents {
            flags: FrameEvents::LINES_CLEARED,
            lines_cleared: n,
            ..FrameEvents::default()
        }
    }

    #[test]
    fn tetris_rate_counts_lines_from_tetrises() {
        let mut s = Game::new(GameSetup::default()).snapshot();
        s.resume = Resume::MainLoop;
        let mut h = HudStats::default();
        assert_eq!(h.tetris_rate(), None);
        h.observe(&lines(4), &s);
        assert_eq!(h.tetris_rate(), Some(100));
        h.observe(&lines(1), &s);
        h.observe(&lines(1), &s);
        h.observe(&lines(2), &s);
        // 4 of 8 lines.
        assert_eq!(h.tetris_rate(), Some(50));
        h.observe(&lines(1), &s);
        // 4 of 9 = 44.4%.
        assert_eq!(h.tetris_rate(), Some(44));
        assert_eq!((h.lines, h.tetris_lines), (9, 4));
    }

    #[test]
    fn drought_counts_pieces_since_the_last_i() {
        let none = FrameEvents::default();
        let mut s = Game::new(GameSetup::default()).snapshot();
        s.resume = Resume::MainLoop;
        s.stats = [[0; 2]; 7];
        let mut h = HudStats::default();
        // Deal pieces by type: T, J, I, Z, O, S, L, T.
        for t in [0usize, 1, 6, 2, 3, 4, 5, 0] {
            deal(&mut s, t);
            h.observe(&none, &s);
        }
        assert_eq!(h.drought, 5);
        assert_eq!(h.max_drought, 5);
        deal(&mut s, 6);
        h.observe(&none, &s);
        assert_eq!(h.drought, 0);
        assert_eq!(h.max_drought, 5);
        // 100 pieces without an I: the BCD counters carry into their high byte.
        for _ in 0..100 {
            deal(&mut s, 3);
            h.observe(&none, &s);
        }
        assert_eq!(h.drought, 100);
        // A new game starts over.
        let g = Game::new(GameSetup::default());
        h.observe(&none, g.state());
        assert_eq!(h.lines, 0);
        assert!(h.drought <= 1);
    }

    fn deal(s: &mut Snapshot, t: usize) {
        nestris_core::bcd::increment_stat(&mut s.stats[t]);
    }

    #[test]
    fn the_panel_lights_held_buttons_and_das() {
        let mut s = Game::new(GameSetup::default()).snapshot();
        s.held = (Buttons::A | Buttons::LEFT).bits();
        s.autorepeat_x = 16;
        let mut c = Canvas::new(256 + PANEL_WIDTH, 240);
        let x0 = 256;
        draw(&mut c, x0, &HudStats::default(), &s);
        let x = x0 as usize + 10;
        assert_eq!(c.pixel(x + 66 + 3, 146 + 7 + 3), RED, "A lit");
        assert_eq!(c.pixel(x + 54 + 3, 146 + 7 + 3), DARK, "B dark");
        assert_eq!(c.pixel(x + 3, 146 + 7 + 3), WHITE, "Left lit");
        assert_eq!(c.pixel(x + 15 * 4, 108), GREEN, "DAS full");
        s.autorepeat_x = 3;
        draw(&mut c, x0, &HudStats::default(), &s);
        assert_eq!(c.pixel(x + 2 * 4, 108), ORANGE);
        assert_eq!(c.pixel(x + 3 * 4, 108), DARK);
    }
}
