//! The replay viewer's progress bar, drawn under the picture: a track filled up to the
//! shown frame (click or drag on it to seek), and a line reading the frame, the total,
//! the speed, whether play is paused and, once the end has been reached, whether the
//! replay verified. An optional notice takes a second line. Its layout and colours are
//! public for tests that look at the window's pixels.

use crate::canvas::Canvas;
use crate::font;
use crate::playback::{Playback, Verdict};

/// Height of the bar in pixels (at 1x), without a notice.
pub const BAR_HEIGHT: usize = 24;

/// Extra height for a notice line.
pub const NOTICE_HEIGHT: usize = 10;

/// Pixels left free at each end of the track.
const MARGIN: i32 = 6;
/// The track's top and height within the bar.
const TRACK_Y: i32 = 4;
const TRACK_H: i32 = 6;
/// The text line's top within the bar.
const TEXT_Y: i32 = 14;

/// Colours.
pub const TRACK: u32 = 0x3C3C3C;
/// The played part of the track.
pub const FILLED: u32 = 0x3CBCFC;
/// The playhead.
pub const HEAD: u32 = 0xFCFCFC;
const TEXT: u32 = 0xFCFCFC;
const DIM: u32 = 0x747474;
const PAUSED: u32 = 0xFCA044;
/// "VERIFIED ✓".
pub const GOOD: u32 = 0x58D854;
/// "VERIFIED ✗".
pub const BAD: u32 = 0xF83800;

/// The bar's height for a notice or none.
pub fn height(notice: bool) -> usize {
    BAR_HEIGHT + if notice { NOTICE_HEIGHT } else { 0 }
}

/// The track's left end and width in a canvas `width` wide.
pub fn track(width: usize) -> (i32, i32) {
    (MARGIN, (width as i32 - 2 * MARGIN).max(1))
}

/// The fraction of the replay at canvas x = `x` (clamped to 0..=1).
pub fn fraction_at(width: usize, x: f64) -> f64 {
    let (x0, w) = track(width);
    ((x - f64::from(x0)) / f64::from(w)).clamp(0.0, 1.0)
}

/// The pixels of the track that are played out of `w`.
fn filled(w: i32, frame: usize, total: usize) -> i32 {
    if total == 0 {
        return w;
    }
    (i64::from(w) * frame as i64 / total as i64) as i32
}

/// Draws the bar in the canvas's rows from `top` down.
pub(crate) fn draw(c: &mut Canvas, top: i32, p: &Playback, notice: Option<&str>) {
    c.fill_rect(0, top, c.width as i32, c.height as i32 - top, 0x000000);
    let (x0, w) = track(c.width);
    c.fill_rect(x0, top + TRACK_Y, w, TRACK_H, TRACK);
    let done = filled(w, p.frame(), p.total());
    c.fill_rect(x0, top + TRACK_Y, done, TRACK_H, FILLED);
    let head = (x0 + done - 1).clamp(x0, x0 + w - 2);
    c.fill_rect(head, top + TRACK_Y - 2, 2, TRACK_H + 4, HEAD);

    let y = top + TEXT_Y;
    let (state, state_colour) = if p.paused() {
        ("PAUSED", PAUSED)
    } else {
        ("PLAYING", DIM)
    };
    let (verdict, verdict_colour) = match p.verdict() {
        None => ("", DIM),
        Some(v) if v.is_proven() => ("VERIFIED \u{2713}", GOOD),
        Some(Verdict::Differs(_)) => ("VERIFIED \u{2717}", BAD),
        Some(Verdict::FinalStateOnly) => ("END MATCHES, UNPROVEN", DIM),
        Some(_) => ("UNPROVEN", DIM),
    };
    let numbers = format!("{}/{}", p.frame(), p.total());
    let speed = p.speed().label();
    let gap = 2 * (font::W + 1);
    let room = c.width as i32 - 2 * MARGIN;
    let rest = font::width(speed, 1) + font::width(state, 1) + font::width(verdict, 1) + 3 * gap;
    let mut x = MARGIN;
    if font::width(&format!("FRAME {numbers}"), 1) + rest <= room {
        c.text(x, y, "FRAME", DIM, 1);
        x += font::width("FRAME ", 1) + 1;
    }
    c.text(x, y, &numbers, TEXT, 1);
    x += font::width(&numbers, 1) + gap;
    c.text(x, y, speed, TEXT, 1);
    x += font::width(speed, 1) + gap;
    c.text(x, y, state, state_colour, 1);
    let vx = c.width as i32 - MARGIN - font::width(verdict, 1);
    c.text(vx, y, verdict, verdict_colour, 1);
    if let Some(n) = notice {
        c.text(MARGIN, y + NOTICE_HEIGHT as i32, n, PAUSED, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::{Buttons, DemoData, Region};
    use nestris_replay::{Recorder, Start};

    fn playback(frames: usize) -> Playback {
        let mut r = Recorder::new(Start::PowerOn(Region::Ntsc));
        for _ in 0..frames {
            r.push(Buttons::NONE);
        }
        Playback::new(r.replay(), DemoData::BUILTIN, false)
    }

    #[test]
    fn the_track_fills_with_the_frames_played() {
        let mut p = playback(100);
        let mut c = Canvas::new(256, 240 + BAR_HEIGHT);
        let top = 240;
        let (x0, w) = track(256);
        assert_eq!((x0, w), (6, 244));
        draw(&mut c, top, &p, None);
        let row = (top + TRACK_Y + 1) as usize;
        assert_eq!(c.pixel(x0 as usize + 10, row), TRACK, "nothing played");
        p.seek(50);
        draw(&mut c, top, &p, None);
        assert_eq!(c.pixel(x0 as usize + 10, row), FILLED);
        assert_eq!(c.pixel(x0 as usize + 200, row), TRACK);
        assert_eq!(
            c.pixel(x0 as usize + 121, row),
            HEAD,
            "the playhead at half"
        );
        // Text on the line below; no verdict yet.
        let text_rows = (top + TEXT_Y) as usize..(top + TEXT_Y + font::H) as usize;
        let any = |colour: u32| {
            text_rows
                .clone()
                .any(|y| (0..256).any(|x| c.pixel(x, y) == colour))
        };
        assert!(any(TEXT) && any(PAUSED) == p.paused());
        assert!(!any(GOOD));
        p.seek(100);
        draw(&mut c, top, &p, None);
        let any = |colour: u32| {
            text_rows
                .clone()
                .any(|y| (0..256).any(|x| c.pixel(x, y) == colour))
        };
        assert!(any(GOOD), "verified at the end");
        assert_eq!(c.pixel((x0 + w - 1) as usize, row), HEAD);
    }

    #[test]
    fn positions_map_to_fractions() {
        assert_eq!(fraction_at(256, 6.0), 0.0);
        assert_eq!(fraction_at(256, -40.0), 0.0);
        assert_eq!(fraction_at(256, 6.0 + 122.0), 0.5);
        assert_eq!(fraction_at(256, 1000.0), 1.0);
        assert_eq!(height(false), BAR_HEIGHT);
        assert_eq!(height(true), BAR_HEIGHT + NOTICE_HEIGHT);
    }

    #[test]
    fn a_notice_takes_the_second_line() {
        let p = playback(10);
        let mut c = Canvas::new(256, 240 + height(true));
        draw(&mut c, 240, &p, Some("NO ROM"));
        let y0 = (240 + TEXT_Y) as usize + NOTICE_HEIGHT;
        assert!((y0..y0 + 7).any(|y| (0..40).any(|x| c.pixel(x, y) == PAUSED)));
    }
}
