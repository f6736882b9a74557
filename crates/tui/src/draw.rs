//! The play screen: the NES screen's boxes laid out in text cells, drawn by one pure
//! function so that tests can read the result from a buffer.
//!
//! Layout, 64 x 24 cells (plus a notice line when key holding is estimated):
//!
//! ```text
//!  type box            LINES-000            TOP / SCORE
//!  STATISTICS          playfield 10 x 20    NEXT
//!   one row per piece  (2 characters/cell)  LEVEL
//!                                           keys, seed
//! ```

use nestris_core::tables::{
    level_display_bcd, HIDDEN, ORIENTATION_CELLS, ORIENTATION_TILE, SPAWN_TABLE, TILE_CURTAIN,
    TILE_EMPTY,
};
use nestris_core::Game;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use crate::anim::ClearAnimation;

/// Width of the layout in cells.
pub const WIDTH: u16 = 64;
/// Height of the layout in cells (without the notice line).
pub const HEIGHT: u16 = 24;
/// The line shown when the terminal does not report key releases.
pub const HOLD_NOTICE: &str = "no key-release events: holding is estimated from key repeat";

/// A dialog drawn over the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Overlay {
    /// None: the game runs.
    #[default]
    None,
    /// Esc was pressed during a game: quit or keep playing?
    ConfirmQuit,
    /// The game is over (`cleared`: a B-type game reached 0 lines).
    GameOver {
        /// The B-type goal was reached.
        cleared: bool,
    },
}

/// The front end's own state that the screen shows besides the game.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The board copy for the line-clear animation.
    pub clear: ClearAnimation,
    /// The dialog, if any.
    pub overlay: Overlay,
    /// Show [`HOLD_NOTICE`].
    pub hold_estimated: bool,
    /// The best score of this session (TOP shows at least the cartridge's 10000).
    pub top: u32,
    /// The seed of the game on screen.
    pub seed: u64,
}

/// Two colours per level, cycling every 10 levels like the cartridge's palettes:
/// (colour 1: J, S and the outline of T, O, I; colour 2: Z, L), as xterm-256 indices.
const PALETTES: [(u8, u8); 10] = [
    (27, 39),   // blue, sky blue
    (34, 154),  // green, lime
    (164, 213), // purple, pink
    (27, 77),   // blue, green
    (161, 85),  // magenta, sea green
    (85, 69),   // sea green, periwinkle
    (202, 244), // red, grey
    (63, 124),  // violet, dark red
    (27, 196),  // blue, red
    (196, 215), // red, orange
];

const WHITE: Color = Color::Indexed(231);
const BORDER: Style = Style::new().fg(Color::Indexed(250));
const TEXT: Style = Style::new().fg(Color::Indexed(231));
const DIM: Style = Style::new().fg(Color::Indexed(245));

/// The two characters and style of one playfield tile at `level`.
fn tile_cell(tile: u8, level: u8) -> (&'static str, Style) {
    let (c1, c2) = PALETTES[level as usize % 10];
    let block = Style::new().fg(Color::Black);
    match tile {
        TILE_EMPTY => ("  ", Style::new().bg(Color::Black)),
        // White with an outline in colour 1.
        0x7B => ("[]", Style::new().fg(Color::Indexed(c1)).bg(WHITE)),
        0x7C => ("[]", block.bg(Color::Indexed(c2))),
        0x7D => ("[]", block.bg(Color::Indexed(c1))),
        TILE_CURTAIN => (
            "▓▓",
            Style::new().fg(Color::Indexed(245)).bg(Color::Indexed(238)),
        ),
        // Anything else the cartridge could write shows as its own odd tile.
        _ => ("??", Style::new().fg(Color::Indexed(245)).bg(Color::Black)),
    }
}

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

/// Draws the play screen of `game` into `buf`, centred in `area`.
pub fn render(game: &Game, view: &View, area: Rect, buf: &mut Buffer) {
    if area.width < WIDTH || area.height < HEIGHT {
        let msg = format!(
            "terminal too small: nestris needs {WIDTH}x{HEIGHT}, this one is {}x{}",
            area.width, area.height
        );
        Paragraph::new(msg)
            .style(TEXT)
            .wrap(Wrap { trim: true })
            .render(area, buf);
        return;
    }
    let notice = u16::from(view.hold_estimated && area.height > HEIGHT);
    let ox = area.x + (area.width - WIDTH) / 2;
    let oy = area.y + (area.height - HEIGHT - notice) / 2;
    let s = game.state();
    let paused = s.render_mode == 0;

    draw_left(buf, game, ox, oy);
    draw_middle(buf, game, view, ox + 21, oy, paused);
    draw_right(buf, game, view, ox + 44, oy, paused);

    if view.hold_estimated {
        let y = if notice == 1 {
            oy + HEIGHT
        } else {
            oy + HEIGHT - 1
        };
        let x = ox + (WIDTH - HOLD_NOTICE.len() as u16) / 2;
        buf.set_string(x, y, HOLD_NOTICE, Style::new().fg(Color::Yellow));
    }

    let dialog: Option<[&str; 3]> = match view.overlay {
        Overlay::None => None,
        Overlay::ConfirmQuit => Some(["QUIT THIS GAME?", "Y or Esc: quit", "N: keep playing"]),
        Overlay::GameOver { cleared } => Some([
            if cleared {
                "B-TYPE CLEARED"
            } else {
                "GAME OVER"
            },
            "press Enter for a new game",
            "Q to quit",
        ]),
    };
    if let Some(lines) = dialog {
        let rect = Rect::new(ox + 12, oy + 9, WIDTH - 24, 5);
        Clear.render(rect, buf);
        let lines: Vec<Line> = lines.iter().map(|l| Line::from(*l)).collect();
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .style(TEXT.add_modifier(Modifier::BOLD))
            .block(Block::bordered().border_style(Style::new().fg(Color::Yellow)))
            .render(rect, buf);
    }
}

fn boxed(buf: &mut Buffer, rect: Rect) -> Rect {
    let block = Block::bordered().border_style(BORDER);
    let inner = block.inner(rect);
    block.render(rect, buf);
    inner
}

/// The game-type box and STATISTICS.
fn draw_left(buf: &mut Buffer, game: &Game, x: u16, y: u16) {
    let s = game.state();
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
        let colour = tile_colour(ORIENTATION_TILE[orientation as usize], s.level);
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

/// LINES and the playfield with the piece, the animation, the curtain and PAUSE.
fn draw_middle(buf: &mut Buffer, game: &Game, view: &View, x: u16, y: u16, paused: bool) {
    let s = game.state();
    let inner = boxed(buf, Rect::new(x, y, 22, 3));
    let lines = format!("LINES-{:X}{:02X}", s.lines[1] & 0x0F, s.lines[0]);
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
    let board = view.clear.board(s);
    for row in 0..20u16 {
        for col in 0..10u16 {
            let (text, style) = tile_cell(board[(row * 10 + col) as usize], s.level);
            buf.set_string(field.x + col * 2, field.y + row, text, style);
        }
    }
    if s.piece != HIDDEN && s.piece < 20 {
        let (text, style) = tile_cell(ORIENTATION_TILE[s.piece as usize], s.level);
        for &(dr, dc) in &ORIENTATION_CELLS[s.piece as usize] {
            let (r, c) = (s.y as i16 + dr as i16, s.x as i16 + dc as i16);
            // Rows -1 and -2 show over the border and LINES, as the sprite does on the NES.
            if (0..10).contains(&c) && (-2..20).contains(&r) {
                let sy = (field.y as i16 + r) as u16;
                buf.set_string(field.x + c as u16 * 2, sy, text, style);
            }
        }
    }
}

/// TOP and SCORE, NEXT, LEVEL, and the key help.
fn draw_right(buf: &mut Buffer, game: &Game, view: &View, x: u16, y: u16, paused: bool) {
    let s = game.state();
    let inner = boxed(buf, Rect::new(x, y, 20, 7));
    let top = view.top.max(10_000);
    let score = format!("{:02X}{:02X}{:02X}", s.score[2], s.score[1], s.score[0]);
    Paragraph::new(vec![
        Line::from("TOP"),
        Line::from(format!("{top:06}")),
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
    if s.display_next_piece == 0 && !paused && s.next_piece < 19 {
        let cells = &ORIENTATION_CELLS[s.next_piece as usize];
        let lo = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let hi = cells.iter().map(|c| c.1).max().unwrap_or(0);
        let width = (hi - lo + 1) as u16 * 2;
        let left = inner.x + (inner.width - width) / 2;
        let (text, style) = tile_cell(ORIENTATION_TILE[s.next_piece as usize], s.level);
        for &(dr, dc) in cells {
            let row = inner.y + 2 + (dr.clamp(0, 1)) as u16;
            buf.set_string(left + (dc - lo) as u16 * 2, row, text, style);
        }
    }

    let inner = boxed(buf, Rect::new(x, y + 13, 20, 4));
    let level = if s.level < 30 {
        format!("{:02X}", level_display_bcd(s.level))
    } else {
        format!("{:02}", s.level)
    };
    Paragraph::new(vec![Line::from("LEVEL"), Line::from(level)])
        .style(TEXT)
        .render(
            Rect::new(inner.x + 1, inner.y, inner.width - 1, inner.height),
            buf,
        );

    let help = [
        "←→ move  ↓ drop".to_string(),
        "X Z rotate".to_string(),
        "Enter pause".to_string(),
        "Tab preview".to_string(),
        "Esc quit".to_string(),
        format!("SEED  {}", s.region.name().to_uppercase()),
        view.seed.to_string(),
    ];
    for (i, line) in help.iter().enumerate() {
        buf.set_string(x + 1, y + 17 + i as u16, line, DIM);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::{Buttons, GameSetup, GameType};
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    /// Renders through a `TestBackend` and returns the screen as lines of text.
    pub(crate) fn screen(game: &Game, view: &View, w: u16, h: u16) -> Vec<String> {
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| render(game, view, f.area(), f.buffer_mut()))
            .unwrap();
        let buf = t.backend().buffer();
        (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>())
            .collect()
    }

    fn text(lines: &[String]) -> String {
        lines.join("\n")
    }

    fn game_with(f: impl FnOnce(&mut nestris_core::Snapshot)) -> Game {
        let mut s = Game::new(GameSetup::from_seed(3)).snapshot();
        f(&mut s);
        Game::from_snapshot(s).unwrap()
    }

    #[test]
    fn shows_every_box_and_the_numbers() {
        let g = game_with(|s| {
            s.score = [0x56, 0x34, 0x12];
            s.lines = [0x42, 0x01];
            s.level = 17;
            s.stats[3] = [0x07, 0x01];
        });
        let view = View {
            seed: 987_654,
            ..View::default()
        };
        let lines = screen(&g, &view, 80, 24);
        let all = text(&lines);
        for word in [
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
            "987654",
        ] {
            assert!(all.contains(word), "{word} missing from\n{all}");
        }
        assert!(!all.contains(HOLD_NOTICE));
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

    #[test]
    fn draws_the_piece_and_the_stack_where_they_are() {
        let g = game_with(|s| {
            s.piece = 2; // T pointing down
            s.x = 5;
            s.y = 3;
            s.playfield.0[19 * 10] = 0x7C;
        });
        let lines = screen(&g, &View::default(), 64, 24);
        let cells = field_cells(&lines, 64);
        assert_eq!(cells, vec![(3, 4), (3, 5), (3, 6), (4, 5), (19, 0)]);
    }

    #[test]
    fn the_piece_moves_on_screen_when_the_game_moves_it() {
        let mut g = Game::new(GameSetup {
            level: 18,
            ..GameSetup::from_seed(11)
        });
        let before = field_cells(&screen(&g, &View::default(), 64, 24), 64);
        for _ in 0..3 {
            g.step(Buttons::LEFT);
            g.step(Buttons::NONE);
        }
        let after = field_cells(&screen(&g, &View::default(), 64, 24), 64);
        let shifted: Vec<_> = before.iter().map(|&(r, c)| (r, c - 3)).collect();
        assert_eq!(after, shifted);
    }

    #[test]
    fn pause_hides_the_playfield_and_the_preview() {
        let mut g = Game::new(GameSetup::from_seed(5));
        g.step(Buttons::NONE);
        let shown = text(&screen(&g, &View::default(), 64, 24));
        assert!(shown.contains("[]"));
        g.step(Buttons::START);
        assert_eq!(g.state().render_mode, 0);
        let lines = screen(&g, &View::default(), 64, 24);
        assert!(text(&lines).contains("PAUSE"));
        assert!(!text(&lines).contains("[]"), "{}", text(&lines));
    }

    #[test]
    fn select_hides_the_preview() {
        let mut g = Game::new(GameSetup::from_seed(5));
        let next_rows = |g: &Game| {
            let lines = screen(g, &View::default(), 64, 24);
            lines[9..=11]
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
    fn dialogs_notice_and_b_type() {
        let g = Game::new(GameSetup {
            game_type: GameType::B,
            height: 2,
            ..GameSetup::from_seed(1)
        });
        let view = View {
            hold_estimated: true,
            overlay: Overlay::GameOver { cleared: false },
            ..View::default()
        };
        let all = text(&screen(&g, &view, 80, 25));
        for word in [
            HOLD_NOTICE,
            "GAME OVER",
            "new game",
            "Q to quit",
            "B-TYPE  HEIGHT 2",
            "LINES-025",
        ] {
            assert!(all.contains(word), "{word} missing from\n{all}");
        }
        // The notice still shows when there is no spare line for it.
        assert!(text(&screen(&g, &view, 64, 24)).contains(HOLD_NOTICE));
        let view = View {
            overlay: Overlay::ConfirmQuit,
            ..View::default()
        };
        assert!(text(&screen(&g, &view, 64, 24)).contains("QUIT THIS GAME?"));
    }

    #[test]
    fn the_curtain_shows() {
        let g = game_with(|s| {
            s.play_state = 10;
            s.piece = HIDDEN;
            s.playfield.0[..30].fill(TILE_CURTAIN);
        });
        let lines = screen(&g, &View::default(), 64, 24);
        assert!(lines[3].contains("▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓"));
        assert!(lines[5].contains("▓▓▓▓"));
    }

    #[test]
    fn a_small_terminal_gets_a_message() {
        let g = Game::new(GameSetup::default());
        let all = text(&screen(&g, &View::default(), 40, 10));
        assert!(all.contains("too small"));
    }

    #[test]
    fn statistics_icons_follow_the_piece_shapes() {
        let icons: Vec<String> = SPAWN_TABLE[..7].iter().map(|&o| piece_icon(o)).collect();
        assert_eq!(icons, ["▀█▀", "▀▀█", "▀█▄", "██", "▄█▀", "█▀▀", "▀▀▀▀"]);
    }
}
