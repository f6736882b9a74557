//! The play screen: the playfield in the middle, LINES above it, the game type and the
//! piece statistics on the left, TOP, SCORE, NEXT and LEVEL on the right.
//!
//! ```text
//!  cols  1........10 11........22 23......30
//!  rows  [ A-TYPE ]  [LINES-000 ]  [ TOP    ]
//!                    +----------+  [ SCORE  ]
//!        STATISTICS  |          |
//!        [T  000  ]  |  10x20   |  [ NEXT   ]
//!        [  ...   ]  |  field   |
//!        [I  000  ]  |          |  [ LEVEL  ]
//!                    +----------+  [ SEED   ]
//!                    [DROUGHT 7 ]
//! ```
//!
//! A seeded game shows its seed under LEVEL, and a game under other rules than the
//! cartridge's names them under the playfield ([`nestris_core::Variant::screen_label`]).

use nestris_core::tables::{ORIENTATION_CELLS, ORIENTATION_TILE, SPAWN_TABLE, TILE_EMPTY};
use nestris_core::Snapshot;

use crate::font::{self, bcd_digits, digit};
use crate::frame::Frame;
use crate::layout::{self, CELL, FIELD_X, FIELD_Y};
use crate::palette::{self, Colours};
use crate::tiles;

/// Draws the play screen; `paused` hides the field and the preview behind PAUSE.
pub(super) fn draw(
    f: &mut Frame,
    s: &Snapshot,
    cells: &[u8; 200],
    paused: bool,
    colours: palette::LevelColours,
) {
    // The counters, and the level's colours, as the picture shows them (display lag).
    let shown_level = s.shown_level();
    let level = palette::resolve(palette::level_palette(shown_level, colours));
    let label = palette::rgb(palette::LABEL[1]);
    let white = palette::rgb(palette::WHITE);
    layout::backdrop(f);

    layout::framed_box(f, 1, 2, 10, 3);
    layout::text_centred(
        f,
        16,
        64,
        24,
        nestris_core::view::type_name(s.game_type),
        white,
    );
    layout::text(f, 1, 7, "STATISTICS", palette::LABEL);
    layout::framed_box(f, 1, 8, 10, 19);
    for (t, count) in s.stats.iter().enumerate() {
        let y = 77 + 18 * t as i32;
        layout::draw_mini_piece(f, SPAWN_TABLE[t], 34, y + 9, &level);
        let n: String = [digit(count[1]), digit(count[0] >> 4), digit(count[0])]
            .iter()
            .collect();
        font::draw_text(f, 52, y + 5, &n, palette::rgb(palette::CURSOR[1]));
    }

    layout::framed_box(f, 11, 2, 12, 3);
    let shown_lines = s.shown_lines();
    let lines = format!(
        "LINES-{}{}",
        digit(shown_lines[1]),
        &bcd_digits(&[shown_lines[0]])
    );
    layout::text_centred(f, FIELD_X, 80, 24, &lines, white);
    layout::framed_box(f, 11, 5, 12, 22);
    if paused {
        layout::text_centred(f, FIELD_X, 80, FIELD_Y + 76, "PAUSE", white);
    } else {
        draw_field(f, s, cells, &level);
    }

    layout::framed_box(f, 23, 2, 8, 7);
    let top = &s.top_score();
    font::draw_text(f, 192, 24, "TOP", label);
    font::draw_text(f, 192, 32, &bcd_digits(top), white);
    font::draw_text(f, 192, 48, "SCORE", label);
    let shown_score = s.shown_score();
    let score = bcd_digits(&[shown_score[2], shown_score[1], shown_score[0]]);
    font::draw_text(f, 192, 56, &score, white);

    layout::framed_box(f, 23, 10, 8, 7);
    font::draw_text(f, 192, 88, "NEXT", label);
    if s.sprites_garbled() {
        draw_confetti(f, s, &level);
    } else if let Some(next) = s.next_shown() {
        layout::draw_piece_centred(f, next, 216, 112, &level);
    }

    layout::framed_box(f, 23, 18, 8, 4);
    layout::text_centred(f, 184, 64, 152, "LEVEL", label);
    let lv = if shown_level < 100 {
        format!("{shown_level:02}")
    } else {
        shown_level.to_string()
    };
    layout::text_centred(f, 184, 64, 160, &lv, white);

    if s.mode() == nestris_core::GameMode::Demo {
        layout::framed_box(f, 23, 23, 8, 3);
        layout::text_centred(f, 184, 64, 192, "DEMO", palette::rgb(palette::CURSOR[1]));
    } else if let Some(seed) = &s.variant.seed {
        // A seeded game says so, so that a race on the same pieces can be checked.
        layout::framed_box(f, 23, 22, 8, 5);
        layout::text_centred(f, 184, 64, 184, "SEED", label);
        layout::text_centred(f, 184, 64, 192, &super::seed_digits(seed), white);
    }
    draw_rules(f, s);
}

/// Cells across the rules' caption at the least (the playfield's frame), and at the most
/// (the screen but its outer columns).
const RULES_WIDTH: (i32, i32) = (12, 30);

/// A game under rules that are not the cartridge's says which, in a caption under the
/// playfield (rows 27-29, where the cartridge shows only the backdrop): `DROUGHT 7`,
/// `KS 130`. The caption is as wide as the field's frame, wider for a longer text, which
/// is cut to the screen's width; the seed has its own box.
fn draw_rules(f: &mut Frame, s: &Snapshot) {
    let label = s.variant.screen_label();
    if label.as_str().is_empty() {
        return;
    }
    let (least, most) = RULES_WIDTH;
    let text: String = label.as_str().chars().take(most as usize - 2).collect();
    // An even width keeps the caption centred under the field's frame.
    let len = text.chars().count() as i32;
    let w = (len + 2 + 1) / 2 * 2;
    let w = w.clamp(least, most);
    let col = 11 + (least - w) / 2;
    layout::framed_box(f, col, 27, w, 3);
    let orange = palette::rgb(palette::CURSOR[1]);
    layout::text_centred(f, col * CELL, w * CELL, 27 * CELL + CELL, &text, orange);
}

/// The field's cells and the falling piece.
fn draw_field(f: &mut Frame, s: &Snapshot, cells: &[u8; 200], level: &Colours) {
    for (i, &byte) in cells.iter().enumerate() {
        let (row, col) = (i as i32 / 10, i as i32 % 10);
        let (x, y) = (FIELD_X + col * CELL, FIELD_Y + row * CELL);
        if (7..=9).contains(&row) && layout::cell_tile(byte).is_none() && byte != TILE_EMPTY {
            draw_banner_cell(f, row, col, x, y);
        } else {
            layout::draw_cell(f, x, y, byte, level);
        }
    }
    // The cartridge stages the piece's sprites after every player update, so the piece
    // shows until it is hidden (19) or the game has ended, not only while it falls.
    let Some(piece) = s.piece_sprite() else {
        return;
    };
    let tile = ORIENTATION_TILE[piece as usize];
    for &(dr, dc) in &ORIENTATION_CELLS[piece as usize] {
        let row = i32::from(s.y) + i32::from(dr);
        let col = i32::from(s.x) + i32::from(dc);
        // Rows -1 and -2 are in play above the field, but only the field is shown.
        if (0..20).contains(&row) && (0..10).contains(&col) {
            layout::draw_cell(f, FIELD_X + col * CELL, FIELD_Y + row * CELL, tile, level);
        }
    }
}

/// One cell of the B-type success banner (rows 7 to 9 of the field): a framed plate
/// reading SUCCESS!.
fn draw_banner_cell(f: &mut Frame, row: i32, col: i32, x: i32, y: i32) {
    const WORD: &[u8; 8] = b"SUCCESS!";
    let c = palette::resolve(palette::CURSOR);
    let tile = match (row, col) {
        (7, 0) => &tiles::FRAME_TL,
        (7, 9) => &tiles::FRAME_TR,
        (9, 0) => &tiles::FRAME_BL,
        (9, 9) => &tiles::FRAME_BR,
        (7 | 9, _) => &tiles::FRAME_H,
        (_, 0 | 9) => &tiles::FRAME_V,
        _ => {
            let ch = WORD[(col - 1) as usize] as char;
            font::draw_text_on(f, x, y, &ch.to_string(), palette::rgb(palette::WHITE), c[0]);
            return;
        }
    };
    f.fill_rect(x, y, CELL, CELL, c[0]);
    tile.draw(f, x, y, &c);
}

/// Sprites the cartridge stages from garbage during a stall (confetti): blocks scattered
/// over the picture. The cartridge's sprites come from whatever bytes the staging reads,
/// which the engine does not keep all of; these are drawn from the frame counter and the
/// generator instead, so they change every frame as the real ones do.
fn draw_confetti(f: &mut Frame, s: &Snapshot, level: &Colours) {
    let mut x = u32::from(s.frame_counter) << 16 | u32::from(s.rng) | 1;
    let mut next = || {
        // xorshift32: any scatter will do, as long as it is the same for the same state.
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    const TILES: [u8; 3] = [0x7B, 0x7C, 0x7D];
    for _ in 0..24 {
        let r = next();
        let px = (r % 248) as i32;
        let py = (r >> 8) % 232;
        let tile = TILES[(r >> 20) as usize % 3];
        layout::draw_cell(f, px, py as i32, tile, level);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::trainer::Trainer;
    use nestris_core::{Game, GymSeed, Region, SeedRule, Variant};

    fn drawn(game: &Game) -> Frame {
        let mut f = Frame::new();
        crate::draw(game, &mut f);
        f
    }

    /// `game` with its rules set to `variant`, nothing else changed.
    fn under(game: &Game, variant: Variant) -> Game {
        let mut s = game.snapshot();
        s.variant = variant;
        Game::from_snapshot(s).unwrap()
    }

    /// The text of `len` characters in `ink` whose first cell is at pixel (x, y), read back
    /// glyph by glyph; `None` where a cell is no character of the font.
    fn read(f: &Frame, x: usize, y: usize, len: usize, ink: u32) -> Option<String> {
        (0..len)
            .map(|i| {
                let mut rows = [0u8; 8];
                for (dy, row) in rows.iter_mut().enumerate() {
                    for dx in 0..8 {
                        let px = x + 8 * i + dx;
                        if px < f.width() && f.pixel(px, y + dy) == ink {
                            *row |= 0x80 >> dx;
                        }
                    }
                }
                (b' '..=b'Z')
                    .map(char::from)
                    .find(|&c| font::glyph(c) == rows)
            })
            .collect()
    }

    /// Whether `text` is written in the caption's row anywhere across the screen.
    fn caption_reads(f: &Frame, text: &str) -> bool {
        let orange = palette::rgb(palette::CURSOR[1]);
        (0..256 - 8 * text.len())
            .any(|x| read(f, x, 224, text.len(), orange).as_deref() == Some(text))
    }

    /// The rows under the playfield, as drawn.
    fn bottom(f: &Frame) -> Vec<u32> {
        (216..240)
            .flat_map(|y| (0..256).map(move |x| (x, y)))
            .map(|(x, y)| f.pixel(x, y))
            .collect()
    }

    #[test]
    fn a_variant_game_names_its_rules_under_the_field_and_a_cartridge_game_does_not() {
        let cartridge = Trainer::TetrisReady.game(Region::Ntsc, 18, 0);
        assert!(cartridge.state().variant.is_cartridge());
        let plain = drawn(&cartridge);
        let mut backdrop = Frame::new();
        layout::backdrop(&mut backdrop);
        assert_eq!(bottom(&plain), bottom(&backdrop), "only the backdrop");

        for (game, text) in [
            (Trainer::Drought(7).game(Region::Ntsc, 18, 0), "DROUGHT 7"),
            (Trainer::Killscreen.game(Region::Ntsc, 18, 130), "KS 130"),
            (Trainer::DoubleKillscreen.game(Region::Ntsc, 18, 0), "KSX2"),
            (Trainer::Halt.game(Region::Ntsc, 18, 100), "HALT 100"),
            (Trainer::DasOnly.game(Region::Ntsc, 18, 0), "DAS ONLY"),
        ] {
            let f = drawn(&game);
            assert!(caption_reads(&f, text), "{text} not under the field");
            // Nothing else changes: the same state under the cartridge's rules differs
            // only in the caption's rows.
            let other = drawn(&under(&game, Variant::CARTRIDGE));
            for y in 0..216 {
                for x in 0..256 {
                    assert_eq!(f.pixel(x, y), other.pixel(x, y), "{text}: ({x}, {y})");
                }
            }
        }

        // A seed alone is in its own box, not in a caption; a seed and rules show both.
        let seed = GymSeed::new(0x1A2B3C, SeedRule::V5);
        let seeded = under(
            &cartridge,
            Variant {
                seed,
                ..Variant::CARTRIDGE
            },
        );
        let f = drawn(&seeded);
        assert_eq!(bottom(&f), bottom(&backdrop));
        let beta = drawn(&under(&cartridge, Variant::betatetris(seed)));
        assert!(caption_reads(&beta, "KSX2 LV39, HALT LV49"));
        let white = palette::rgb(palette::WHITE);
        let seed_shown =
            |f: &Frame| (184..248).any(|x| read(f, x, 192, 6, white).as_deref() == Some("1A2B3C"));
        assert!(seed_shown(&f) && seed_shown(&beta));
    }
}
