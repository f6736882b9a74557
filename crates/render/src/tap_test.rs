//! The tap-speed test's screen (`nestris play --trainer tap-test`): a core
//! [`TapTest`]'s numbers in the play screen's lettering, framed boxes and backdrop.
//!
//! ```text
//!  rows 1-3    TAP SPEED TEST
//!  rows 5-13   the piece (while it is out) | TAPS/S, BEST; TAPS; 1ST TAP, BEST
//!  rows 15-18  FRAMES BETWEEN TAPS and the burst's gaps
//!  rows 20-23  the controller
//!  rows 25-28  what to do
//! ```
//!
//! ```
//! use nestris_core::tap_test::TapTest;
//! use nestris_core::{Buttons, Region};
//! use nestris_render::{tap_test, Frame};
//!
//! let mut test = TapTest::new(Region::Ntsc);
//! test.step(Buttons::LEFT);
//! let mut frame = Frame::new();
//! tap_test::draw(&test, &mut frame);
//! ```

use nestris_core::tables::SPAWN_TABLE;
use nestris_core::tap_test::TapTest;

use crate::font;
use crate::frame::Frame;
use crate::layout::{self, CELL};
use crate::palette::{self, LevelColours};

/// Colours, from the NES palette: labels as the play screen's, values white, bests in the
/// HUD's "achieved" gold.
const LABEL: u8 = palette::LABEL[1];
const VALUE: u8 = palette::WHITE;
const BEST: u8 = 0x38;

/// The piece the test deals: the I, the piece tapped the farthest.
const PIECE: u8 = SPAWN_TABLE[6];

/// The level whose colours the piece is drawn in: 18, the level players test for.
const PIECE_LEVEL: u8 = 18;

/// Draws the test's screen into the frame's top-left 256x240 (every pixel of it).
pub fn draw(t: &TapTest, f: &mut Frame) {
    layout::backdrop(f);
    let (label, value, best) = (palette::rgb(LABEL), palette::rgb(VALUE), palette::rgb(BEST));

    layout::framed_box(f, 5, 1, 22, 3);
    layout::text_centred(f, 5 * CELL, 22 * CELL, 2 * CELL, "TAP SPEED TEST", value);

    // The piece, out from its spawn until its burst ends.
    layout::framed_box(f, 1, 5, 9, 9);
    layout::text_centred(f, CELL, 9 * CELL, 6 * CELL, "PIECE", label);
    if t.piece_shown() {
        let colours = palette::resolve(palette::level_palette(PIECE_LEVEL, LevelColours::Classic));
        layout::draw_piece_centred(f, PIECE, 5 * CELL + CELL / 2, 10 * CELL, &colours);
    } else {
        layout::text_centred(f, CELL, 9 * CELL, 10 * CELL - 4, "WAIT", label);
    }

    // The numbers, in three groups: the rate, the taps, the first tap.
    layout::framed_box(f, 11, 5, 20, 9);
    let line = |f: &mut Frame, row: i32, name: &str, v: String, ink: u32| {
        font::draw_text(f, 12 * CELL, row * CELL, name, label);
        font::draw_text(f, 30 * CELL - font::text_width(&v), row * CELL, &v, ink);
    };
    line(f, 6, "TAPS/S", rate(t.rate_tenths()), value);
    line(f, 7, "BEST", rate(t.best_rate_tenths()), best);
    line(f, 9, "TAPS", t.burst_taps().to_string(), value);
    line(f, 11, "1ST TAP", frames(t.first_tap()), value);
    line(f, 12, "BEST", frames(t.best_first_tap()), best);

    // The frames between the burst's taps.
    layout::framed_box(f, 1, 15, 30, 4);
    font::draw_text(f, 2 * CELL, 16 * CELL, "FRAMES BETWEEN TAPS", label);
    let gaps: Vec<String> = t.gaps().iter().map(|g| format!("{g:>2}")).collect();
    let gaps = if gaps.is_empty() {
        "--".to_string()
    } else {
        gaps.join(" ")
    };
    font::draw_text(f, 2 * CELL, 17 * CELL, &gaps, value);

    layout::framed_box(f, 9, 20, 14, 4);
    crate::hud::draw_controller(f, 9 * CELL + (14 * CELL - 77) / 2, 21 * CELL, t.held());

    layout::framed_box(f, 1, 25, 30, 4);
    layout::text_centred(f, CELL, 30 * CELL, 26 * CELL, "TAP LEFT OR RIGHT", label);
    layout::text_centred(f, CELL, 30 * CELL, 27 * CELL, "ESC QUITS", label);
}

/// Tenths of a tap a second as `16.4`, or dashes.
fn rate(r: Option<u32>) -> String {
    r.map_or_else(|| "--".to_string(), |r| format!("{}.{}", r / 10, r % 10))
}

/// Frames as `12F`, or dashes.
fn frames(n: Option<u32>) -> String {
    n.map_or_else(|| "--".to_string(), |n| format!("{n}F"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::{Buttons, Region};

    #[test]
    fn the_piece_shows_until_the_burst_ends() {
        let mut t = TapTest::new(Region::Ntsc);
        let mut f = Frame::new();
        t.step(Buttons::NONE);
        draw(&t, &mut f);
        // The I's blocks are centred in the piece box: its middle row is drawn.
        // Pixels in the piece's colours in the box.
        let c = palette::resolve(palette::level_palette(PIECE_LEVEL, LevelColours::Classic));
        let inside = |f: &Frame| {
            (2 * CELL..9 * CELL)
                .flat_map(|x| (7 * CELL..13 * CELL).map(move |y| (x, y)))
                .any(|(x, y)| {
                    let p = f.pixel(x as usize, y as usize);
                    p == c[1] || p == c[2]
                })
        };
        assert!(inside(&f), "the piece");
        t.step(Buttons::LEFT);
        for _ in 0..20 {
            t.step(Buttons::NONE);
        }
        draw(&t, &mut f);
        assert!(!t.piece_shown());
        assert!(!inside(&f), "gone");
    }
}
