//! The play screen (also the demo, the pause and the curtain): the NES screen's boxes
//! laid out in text cells.
//!
//! ```text
//!  type box            LINES-000            TOP / SCORE
//!  STATISTICS          playfield 10 x 20    NEXT
//!   one row per piece  (2 characters/cell)  LEVEL
//!                                           keys (or DEMO)
//!                                           rules (DROUGHT 7), if not the cartridge's
//!                                           NTSC or PAL, and the seed, if seeded
//! ```

use nestris_core::tables::{
    level_display_bcd, ORIENTATION_CELLS, ORIENTATION_TILE, SPAWN_TABLE, TILE_CURTAIN, TILE_EMPTY,
};
use nestris_core::Snapshot;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::{bcd_digits, boxed, centred, tile_cell, DIM, HOT, LABEL, PALETTES, TEXT, WHITE};

/// The foreground colour of a piece tile in the statistics icons.
fn tile_colour(tile: u8, level: u8) -> Color {
    let (c1, c2) = PALETTES[level as usize % 10];
    match tile {
        0x7C => Color::Indexed(c2),
        0x7D => Color::Indexed(c1),
        _ => WHITE,
    }
}

/// A piece's two rows in half-block characters, one character per cell.
fn piece_icon(orientation: u8) -> String {
    let cells = &ORIENTATION_CELLS[orientation as usize % 20];
    let top = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let (lo, hi) = (
        cells.iter().map(|c| c.1).min().unwrap_or(0),
        cells.iter().map(|c| c.1).max().unwrap_or(0),
    );
    (lo..=hi)
        .map(|col| {
            let up = cells.contains(&(top, col));
            let down = cells.contains(&(top + 1, col));
            match (up, down) {
                (true, true) => '█',
                (true, false) => '▀',
                (false, true) => '▄',
                (false, false) => ' ',
            }
        })
        .collect()
}

/// Draws the play screen; `paused` hides the field and the preview behind PAUSE.
pub(super) fn draw(buf: &mut Buffer, s: &Snapshot, at: Rect, paused: bool) {
    draw_left(buf, s, at.x, at.y);
    draw_middle(buf, s, at.x + 21, at.y, paused);
    draw_right(buf, s, at.x + 44, at.y);
}

/// The game-type box and STATISTICS.
fn draw_left(buf: &mut Buffer, s: &Snapshot, x: u16, y: u16) {
    let inner = boxed(buf, Rect::new(x, y, 20, 3));
    let kind = if s.game_type == 1 {
        format!("B-TYPE  HEIGHT {}", s.start_height)
    } else {
        "A-TYPE".to_string()
    };
    Paragraph::new(kind)
        .style(TEXT)
        .alignment(Alignment::Center)
        .render(inner, buf);

    let inner = boxed(buf, Rect::new(x, y + 4, 20, 20));
    buf.set_string(inner.x + 4, inner.y, "STATISTICS", TEXT);
    for t in 0..7u8 {
        let row = inner.y + 2 + 2 * t as u16;
        let orientation = SPAWN_TABLE[t as usize];
        let colour = tile_colour(ORIENTATION_TILE[orientation as usize], s.shown_level());
        buf.set_string(
            inner.x + 3,
            row,
            piece_icon(orientation),
            Style::new().fg(colour),
        );
        let [lo, hi] = s.stats[t as usize];
        // Three digits as the cartridge prints them: the hundreds nibble, then the byte.
        let count = format!("{:X}{lo:02X}", hi & 0x0F);
        buf.set_string(
            inner.x + 11,
            row,
            count,
            Style::new().fg(Color::Indexed(203)),
        );
    }
}

/// True if a playfield byte is none of the tiles play writes: the B-type win's banner.
fn is_banner(tile: u8) -> bool {
    !matches!(tile, TILE_EMPTY | TILE_CURTAIN | 0x7B..=0x7D)
}

/// LINES and the playfield with the piece, the animation, the curtain, the B-type
/// banner and PAUSE.
fn draw_middle(buf: &mut Buffer, s: &Snapshot, x: u16, y: u16, paused: bool) {
    let inner = boxed(buf, Rect::new(x, y, 22, 3));
    // The counters as the picture shows them (display lag).
    let shown = s.shown_lines();
    let lines = format!("LINES-{:X}{:02X}", shown[1] & 0x0F, shown[0]);
    Paragraph::new(lines)
        .style(TEXT)
        .alignment(Alignment::Center)
        .render(inner, buf);
    let field = boxed(buf, Rect::new(x, y + 2, 22, 22));
    // The LINES box and the playfield share a border line.
    if let Some(c) = buf.cell_mut((x, y + 2)) {
        c.set_symbol("├");
    }
    if let Some(c) = buf.cell_mut((x + 21, y + 2)) {
        c.set_symbol("┤");
    }
    buf.set_style(field, Style::new().bg(Color::Black));
    if paused {
        buf.set_string(field.x + 7, field.y + 9, "PAUSE", TEXT);
        return;
    }
    let board = s.shown_board().0;
    for row in 0..20u16 {
        for col in 0..10u16 {
            let (text, style) = tile_cell(board[(row * 10 + col) as usize], s.shown_level());
            buf.set_string(field.x + col * 2, field.y + row, text, style);
        }
    }
    // The cartridge writes its SUCCESS plate into rows 7-9 of the playfield as text tiles.
    if board[70..100].iter().any(|&t| is_banner(t)) {
        let plate = Style::new().fg(Color::Black).bg(Color::Indexed(214));
        let rows = [
            "╔══════════════════╗",
            "║     SUCCESS!     ║",
            "╚══════════════════╝",
        ];
        for (i, text) in rows.iter().enumerate() {
            buf.set_string(field.x, field.y + 7 + i as u16, *text, plate);
        }
    }
    // The piece's sprite stays up after every player update until it is hidden or the
    // game has ended.
    if let Some(piece) = s.piece_sprite() {
        let (text, style) = tile_cell(ORIENTATION_TILE[piece as usize], s.shown_level());
        for &(dr, dc) in &ORIENTATION_CELLS[piece as usize] {
            let (r, c) = (s.y as i16 + dr as i16, s.x as i16 + dc as i16);
            // Rows -1 and -2 show over the border and LINES, as the sprite does on the NES.
            if (0..10).contains(&c) && (-2..20).contains(&r) {
                let sy = (field.y as i16 + r) as u16;
                buf.set_string(field.x + c as u16 * 2, sy, text, style);
            }
        }
    }
}

/// TOP and SCORE, NEXT, LEVEL, and the key help or the DEMO label.
fn draw_right(buf: &mut Buffer, s: &Snapshot, x: u16, y: u16) {
    let inner = boxed(buf, Rect::new(x, y, 20, 7));
    // TOP is the best of the high-score table for this game type, as on the cartridge.
    let top = bcd_digits(&s.top_score());
    let shown = s.shown_score();
    let score = bcd_digits(&[shown[2], shown[1], shown[0]]);
    Paragraph::new(vec![
        Line::from("TOP"),
        Line::from(top),
        Line::from(""),
        Line::from("SCORE"),
        Line::from(score),
    ])
    .style(TEXT)
    .render(
        Rect::new(inner.x + 1, inner.y, inner.width - 1, inner.height),
        buf,
    );

    let inner = boxed(buf, Rect::new(x, y + 7, 20, 6));
    buf.set_string(inner.x + 1, inner.y, "NEXT", TEXT);
    if let Some(next) = s.next_shown() {
        let cells = &ORIENTATION_CELLS[next as usize];
        let lo = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let hi = cells.iter().map(|c| c.1).max().unwrap_or(0);
        let width = (hi - lo + 1) as u16 * 2;
        let left = inner.x + (inner.width - width) / 2;
        let (text, style) = tile_cell(ORIENTATION_TILE[next as usize], s.shown_level());
        for &(dr, dc) in cells {
            let row = inner.y + 2 + (dr.clamp(0, 1)) as u16;
            buf.set_string(left + (dc - lo) as u16 * 2, row, text, style);
        }
    }

    let inner = boxed(buf, Rect::new(x, y + 13, 20, 4));
    let shown = s.shown_level();
    let level = if shown < 30 {
        format!("{:02X}", level_display_bcd(shown))
    } else {
        format!("{shown:02}")
    };
    Paragraph::new(vec![Line::from("LEVEL"), Line::from(level)])
        .style(TEXT)
        .render(
            Rect::new(inner.x + 1, inner.y, inner.width - 1, inner.height),
            buf,
        );

    // Below 30,000 points the closed curtain waits for Start with nothing on screen to
    // say so; the console's players knew, a terminal's may not.
    let curtain_closed = s.curtain_down() && !matches!(s.resume, nestris_core::Resume::Ending(_));
    let help: &[&str] = if s.mode() == nestris_core::GameMode::Demo {
        let inner = boxed(buf, Rect::new(x, y + 17, 20, 3));
        centred(buf, inner, inner.y, "DEMO", HOT);
        &["", "", "", "Enter  title", "Esc quit"]
    } else if curtain_closed {
        buf.set_string(x + 1, y + 17, "GAME OVER", HOT);
        buf.set_string(x + 1, y + 18, "Enter continue", HOT);
        &["", "", "", "", "Esc quit"]
    } else {
        &[
            "←→ move  ↓ drop",
            "X Z rotate",
            "Enter pause",
            "Tab preview",
            "Esc quit",
        ]
    };
    for (i, line) in help.iter().enumerate() {
        buf.set_string(x + 1, y + 17 + i as u16, *line, DIM);
    }
    // The cartridge would have crashed in this game (and, under crash mode `show`, the game
    // went on as if it had not). A variant game counts no cycles, so never crashes: the
    // line names its rules instead.
    if s.crash.is_some() {
        buf.set_string(x + 1, y + 22, "CRASHED", HOT);
    } else if let Some(rules) = rules_line(s) {
        buf.set_string(x + 1, y + 22, rules, HOT);
    }
    buf.set_string(x + 1, y + 23, s.region.name().to_uppercase(), DIM);
    if let Some(seed) = &s.variant.seed {
        let digits = format!("{:06X}", seed.value());
        buf.set_string(x + 20 - 12, y + 23, "SEED", LABEL);
        buf.set_string(x + 20 - 7, y + 23, digits, TEXT);
    }
}

/// Cells the rules' line may take (the column but its left margin).
const RULES_WIDTH: usize = 19;

/// The rules of a game that are not the cartridge's, besides its seed (shown beside the
/// region), as the pixel screen names them under its field: `DROUGHT 7`, `KS 130`; cut
/// to the column's width with an ellipsis. `None` for the cartridge's rules.
fn rules_line(s: &Snapshot) -> Option<String> {
    let label = s.variant.screen_label();
    let text = label.as_str();
    if text.is_empty() {
        return None;
    }
    Some(if text.chars().count() > RULES_WIDTH {
        let mut cut: String = text.chars().take(RULES_WIDTH - 1).collect();
        cut.push('…');
        cut
    } else {
        text.to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::{View, HEIGHT, WIDTH};
    use super::*;
    use nestris_core::tables::HIDDEN;
    use nestris_core::{Buttons, Game, Region, Resume};

    #[test]
    fn shows_every_box_and_the_numbers() {
        let g = edited(&play(false, 0), |s| {
            s.score = [0x56, 0x34, 0x12];
            s.lines = [0x42, 0x01];
            s.level = 17;
            s.stats[3] = [0x07, 0x01];
        });
        let all = screen(&g, &View::default(), 80, 24).join("\n");
        assert_shows(
            &all,
            &[
                "LINES-142",
                "TOP",
                "010000",
                "SCORE",
                "123456",
                "LEVEL",
                "17",
                "NEXT",
                "STATISTICS",
                "A-TYPE",
                "107",
                "NTSC",
                "Esc quit",
            ],
        );
        assert!(!all.contains("DEMO"));
    }

    #[test]
    fn a_crash_is_marked() {
        let g = play(false, 0);
        let all = screen(&g, &View::default(), 80, 24).join("\n");
        assert!(!all.contains("CRASHED"));
        let g = edited(&g, |s| s.crash = Some(nestris_core::Crash::Halted));
        let lines = screen(&g, &View::default(), 80, 24);
        assert_shows(&lines.join("\n"), &["CRASHED", "Esc quit", "NTSC"]);
    }

    /// (row, column) of every piece cell drawn in the playfield, from the screen text.
    fn field_cells(lines: &[String], w: u16) -> Vec<(usize, usize)> {
        let ox = ((w - WIDTH) / 2) as usize;
        let mut cells = Vec::new();
        for row in 0..20 {
            let chars: Vec<char> = lines[3 + row].chars().collect();
            for col in 0..10 {
                let at = ox + 22 + col * 2;
                if chars[at] == '[' && chars[at + 1] == ']' {
                    cells.push((row, col));
                }
            }
        }
        cells
    }

    fn lines(g: &Game) -> Vec<String> {
        screen(g, &View::default(), WIDTH, HEIGHT)
    }

    #[test]
    fn draws_the_piece_and_the_stack_where_they_are() {
        let g = edited(&play(false, 0), |s| {
            s.piece = 2; // T pointing down
            s.x = 5;
            s.y = 3;
            s.playfield.0[19 * 10] = 0x7C;
        });
        let cells = field_cells(&lines(&g), 64);
        assert_eq!(cells, vec![(3, 4), (3, 5), (3, 6), (4, 5), (19, 0)]);
    }

    #[test]
    fn the_piece_moves_on_screen_when_the_game_moves_it() {
        let mut g = play(false, 18);
        let before = field_cells(&lines(&g), 64);
        assert_eq!(before.len(), 4);
        for _ in 0..3 {
            g.step(Buttons::LEFT);
            g.step(Buttons::NONE);
        }
        let after = field_cells(&lines(&g), 64);
        let shifted: Vec<_> = before.iter().map(|&(r, c)| (r, c - 3)).collect();
        assert_eq!(after, shifted);
    }

    #[test]
    fn pause_hides_the_playfield_and_the_preview() {
        let mut g = play(false, 0);
        assert!(shown(&g).contains("[]"));
        g.step(Buttons::START);
        assert_eq!(g.state().resume, Resume::Paused);
        let all = shown(&g);
        assert!(all.contains("PAUSE"));
        assert!(!all.contains("[]"), "{all}");
    }

    #[test]
    fn select_hides_the_preview() {
        let mut g = play(false, 0);
        let next_rows = |g: &Game| {
            lines(g)[9..=11]
                .iter()
                .filter(|l| l[44..].contains("[]"))
                .count()
        };
        assert!(next_rows(&g) > 0);
        g.step(Buttons::SELECT);
        assert_eq!(g.state().display_next_piece, 1);
        assert_eq!(next_rows(&g), 0);
    }

    #[test]
    fn b_type_shows_its_height_and_lines_to_go() {
        let mut g = level_menu(true);
        for b in [Buttons::A, Buttons::RIGHT, Buttons::RIGHT] {
            press(&mut g, b);
        }
        g.step(Buttons::START);
        for _ in 0..40 {
            g.step(Buttons::NONE);
        }
        let all = shown(&g);
        assert_shows(&all, &["B-TYPE  HEIGHT 2", "LINES-025", "TOP", "002000"]);
    }

    #[test]
    fn the_curtain_shows() {
        let g = edited(&play(false, 0), |s| {
            s.play_state = 10;
            s.piece = HIDDEN;
            s.playfield.0[..30].fill(TILE_CURTAIN);
        });
        let lines = lines(&g);
        assert!(lines[3].contains("▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓"));
        assert!(lines[5].contains("▓▓▓▓"));
        assert!(!lines.join("\n").contains("GAME OVER"));
        // Closed: the cartridge waits for Start.
        let g = edited(&g, |s| {
            s.curtain_row = 20;
            s.playfield.0[..200].fill(TILE_CURTAIN);
        });
        assert_shows(&shown(&g), &["GAME OVER", "Enter continue"]);
    }

    #[test]
    fn the_demo_is_labelled() {
        let mut g = Game::power_on(Region::Ntsc);
        let mut frames = 0;
        while g.state().mode() != nestris_core::GameMode::Demo || g.state().game_mode_state != 2 {
            g.step(Buttons::NONE);
            frames += 1;
            assert!(frames < 2000, "no demo");
        }
        run(&mut g, 60, Buttons::NONE);
        let all = shown(&g);
        assert_shows(&all, &["DEMO", "STATISTICS", "LINES-", "NEXT"]);
    }

    #[test]
    fn a_variant_game_names_its_rules_and_seed_in_the_right_column() {
        use nestris_core::trainer::Trainer;
        use nestris_core::{GymSeed, SeedRule, Variant};
        // Rows 22 and 23 of the right column, as text.
        let corner = |g: &Game| {
            let lines = lines(g);
            [22, 23].map(|r| {
                lines[r]
                    .chars()
                    .skip(44)
                    .collect::<String>()
                    .trim()
                    .to_string()
            })
        };
        let g = Trainer::TetrisReady.game(Region::Ntsc, 18, 0);
        assert_eq!(
            corner(&g),
            ["", "NTSC"],
            "the cartridge's rules: nothing said"
        );
        let g = Trainer::Drought(18).game(Region::Ntsc, 18, 0);
        assert_eq!(corner(&g), ["DROUGHT 18", "NTSC"]);
        let g = Trainer::Killscreen.game(Region::Pal, 18, 130);
        assert_eq!(corner(&g), ["KS 130", "PAL"]);
        let g = Trainer::DasOnly.game(Region::Ntsc, 9, 0);
        assert_eq!(corner(&g), ["DAS ONLY", "NTSC"]);
        let seed = GymSeed::new(0x1A2B3C, SeedRule::V5);
        let g = edited(&g, |s| {
            s.variant = Variant {
                seed,
                ..Variant::CARTRIDGE
            }
        });
        assert_eq!(corner(&g), ["", "NTSC   SEED 1A2B3C"]);
        // Longer than the column: cut.
        let g = edited(&g, |s| s.variant = Variant::betatetris(seed));
        assert_eq!(corner(&g), ["KSX2 LV39, HALT LV…", "NTSC   SEED 1A2B3C"]);
        // The key help is all there still.
        assert_shows(
            &shown(&g),
            &["X Z rotate", "Enter pause", "Tab preview", "Esc quit"],
        );
    }

    #[test]
    fn statistics_icons_follow_the_piece_shapes() {
        let icons: Vec<String> = SPAWN_TABLE[..7].iter().map(|&o| piece_icon(o)).collect();
        assert_eq!(icons, ["▀█▀", "▀▀█", "▀█▄", "██", "▄█▀", "█▀▀", "▀▀▀▀"]);
    }
}
