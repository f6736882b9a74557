//! The screen shown at power-on: what this program is, in the project's own words.

use crate::font;
use crate::frame::Frame;
use crate::layout::{self, CELL};
use crate::palette;

/// The text, one entry per cell row from row 5 (empty strings are blank lines).
const LINES: [&str; 18] = [
    "AN INDEPENDENT",
    "REIMPLEMENTATION OF A",
    "1989 FALLING-BLOCK",
    "CONSOLE GAME.",
    "",
    "ALL PICTURES, LETTERS AND",
    "CODE ARE THE PROJECT'S OWN.",
    "",
    "NOT MADE, SOLD OR ENDORSED",
    "BY THE ORIGINAL GAME'S",
    "RIGHTS HOLDERS.",
    "",
    "",
    "",
    "",
    "",
    "",
    "MIT OR APACHE-2.0",
];

/// Draws the power-on screen.
pub(super) fn draw(f: &mut Frame) {
    layout::framed_box(f, 1, 1, 30, 28);
    let label = palette::rgb(palette::LABEL[1]);
    let shadow = palette::rgb(palette::LABEL[3]);
    let white = palette::rgb(palette::WHITE);
    let title = "NESTRIS";
    let x = (256 - font::text_width(title)) / 2;
    font::draw_text_shadowed(f, x, 4 * CELL, title, label, shadow);
    for (i, line) in LINES.iter().enumerate() {
        layout::text_centred(f, 0, 256, (7 + i as i32) * CELL, line, white);
    }
}
