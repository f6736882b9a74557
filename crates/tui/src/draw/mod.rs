//! Every screen of the cartridge in text cells, drawn by one pure function of the game
//! and a little front-end state ([`render`]), so that tests read the result from a buffer.
//!
//! Which screen shows follows the cartridge as `nestris-render` does: `render_mode`
//! first (ending, name entry), then `game_mode` (legal, title, menus, play and demo).
//! All screens share one 64 x 24 cell area, centred in the terminal, plus a notice line
//! when key holding is estimated; in play, a terminal wide enough also shows the stats
//! panel beside it ([`stats`]: tetris rate, burn, drought, pace, DAS, taps).

mod ending;
mod menus;
mod play;
mod scores;
mod stats;

use nestris_core::tally::Tally;
use nestris_core::view::{high_score_base, name_char, type_name};
use nestris_core::{Game, Screen};
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

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
}

/// The front end's own state that the screen shows besides the game.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The dialog, if any.
    pub overlay: Overlay,
    /// Show [`HOLD_NOTICE`].
    pub hold_estimated: bool,
    /// A message about data not kept (a save failed, a damaged file was moved aside),
    /// shown on the notice line instead of [`HOLD_NOTICE`] while it lasts.
    pub notice: Option<String>,
    /// The game's numbers so far, shown beside the play screen when there is room.
    pub tally: Tally,
}

/// True if `area` holds the whole layout; while it does not, the game is held still
/// (the player cannot see the field).
pub fn fits(area: Rect) -> bool {
    area.width >= WIDTH && area.height >= HEIGHT
}

/// The cartridge's two colours per level (`nestris_core::tables::COLOR_TABLE`), cycling
/// every 10 levels: (colour 1: J, S and the outline of T, O, I; colour 2: Z, L), as the
/// nearest xterm-256 colours (a test derives them from the table).
const PALETTES: [(u8, u8); 10] = [
    (27, 75),   // $12 blue, $21 sky
    (34, 112),  // $1A green, $29 lime
    (127, 213), // $14 magenta, $24 pink
    (27, 77),   // $12 blue, $2A green
    (161, 84),  // $15 crimson, $2B sea green
    (84, 69),   // $2B sea green, $22 periwinkle
    (160, 243), // $16 red, $00 grey
    (93, 124),  // $13 violet, $05 dark red
    (27, 160),  // $12 blue, $16 red
    (160, 209), // $16 red, $27 orange
];

const WHITE: Color = Color::Indexed(231);
const BORDER: Style = Style::new().fg(Color::Indexed(250));
const TEXT: Style = Style::new().fg(WHITE);
const DIM: Style = Style::new().fg(Color::Indexed(245));
/// Headings (GAME TYPE, NAME, LEVEL ...): the cartridge's light cyan labels.
const LABEL: Style = Style::new().fg(Color::Indexed(123));
/// Menu choices and the entry being named: the cartridge's orange cursor colour.
const HOT: Style = Style::new().fg(Color::Indexed(214));

/// Draws the screen `game` shows into `buf`, centred in `area`.
pub fn render(game: &Game, view: &View, area: Rect, buf: &mut Buffer) {
    if !fits(area) {
        let msg = format!(
            "terminal too small: nestris needs {WIDTH}x{HEIGHT}, this one is {}x{} (the game waits)",
            area.width, area.height
        );
        Paragraph::new(msg)
            .style(TEXT)
            .wrap(Wrap { trim: true })
            .render(area, buf);
        return;
    }
    let line = match &view.notice {
        Some(text) => Some((text.as_str(), Color::LightRed)),
        None => view.hold_estimated.then_some((HOLD_NOTICE, Color::Yellow)),
    };
    let notice = u16::from(line.is_some() && area.height > HEIGHT);
    let s = game.state();
    // The stats take a gap and their panel's width, when the terminal has them.
    let stats = matches!(s.screen(), Screen::Play { .. }) && area.width >= WIDTH + 1 + stats::WIDTH;
    let total = if stats {
        WIDTH + 1 + stats::WIDTH
    } else {
        WIDTH
    };
    let at = Rect::new(
        area.x + (area.width - total) / 2,
        area.y + (area.height - HEIGHT - notice) / 2,
        WIDTH,
        HEIGHT,
    );
    match s.screen() {
        Screen::Off | Screen::Dark => {}
        Screen::Ending => ending::draw(buf, s, at),
        Screen::NameEntry => scores::draw_name_entry(buf, s, at),
        Screen::Legal => menus::draw_legal(buf, at),
        Screen::Title => menus::draw_title(buf, s, at),
        Screen::TypeMenu => menus::draw_type_menu(buf, s, at),
        Screen::LevelMenu => menus::draw_level_menu(buf, s, at),
        Screen::Play { paused } => play::draw(buf, s, at, paused),
    }
    if stats {
        stats::draw(buf, s, &view.tally, at.x + WIDTH + 1, at.y);
    }

    if let Some((text, colour)) = line {
        // Below the layout; with no spare line, over its top row, which holds only box
        // borders and titles (the bottom row holds the statistics box and the region).
        let y = if notice == 1 { at.y + HEIGHT } else { at.y };
        centred(buf, at, y, text, Style::new().fg(colour));
    }

    if view.overlay == Overlay::ConfirmQuit {
        let rect = Rect::new(at.x + 12, at.y + 9, WIDTH - 24, 5);
        Clear.render(rect, buf);
        let lines: Vec<Line> = ["QUIT THIS GAME?", "Y or Esc: quit", "N: keep playing"]
            .iter()
            .map(|l| Line::from(*l))
            .collect();
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .style(TEXT.add_modifier(Modifier::BOLD))
            .block(Block::bordered().border_style(Style::new().fg(Color::Yellow)))
            .render(rect, buf);
    }
}

/// A BCD nibble as a digit (A-F for the values the cartridge can still hold).
fn digit(n: u8) -> char {
    char::from_digit(u32::from(n & 0x0F), 16)
        .unwrap_or('?')
        .to_ascii_uppercase()
}

/// BCD bytes, most significant first, as digits.
fn bcd_digits(bytes: &[u8]) -> String {
    bytes
        .iter()
        .flat_map(|&b| [digit(b >> 4), digit(b)])
        .collect()
}

/// The two characters and style of one playfield tile at `level`.
fn tile_cell(tile: u8, level: u8) -> (&'static str, Style) {
    use nestris_core::tables::{TILE_CURTAIN, TILE_EMPTY};
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

/// A bordered box; returns its inside.
fn boxed(buf: &mut Buffer, rect: Rect) -> Rect {
    let block = Block::bordered().border_style(BORDER);
    let inner = block.inner(rect);
    block.render(rect, buf);
    inner
}

/// A box `w` cells wide and `h` high, centred horizontally in `at`, from row `y` of `at`.
fn centred_box(buf: &mut Buffer, at: Rect, y: u16, w: u16, h: u16) -> Rect {
    boxed(buf, Rect::new(at.x + (at.width - w) / 2, at.y + y, w, h))
}

/// `text` centred horizontally in `rect` on the absolute row `y`.
fn centred(buf: &mut Buffer, rect: Rect, y: u16, text: &str, style: Style) {
    let len = text.chars().count() as u16;
    let x = rect.x + rect.width.saturating_sub(len) / 2;
    buf.set_string(x, y, text, style);
}

/// Block letters five rows tall, '#' a block: the letters of NESTRIS and SUCCESS.
const BIG_LETTERS: [(char, [&str; 5]); 8] = [
    ('N', ["#..#", "##.#", "#.##", "#..#", "#..#"]),
    ('E', ["###", "#..", "##.", "#..", "###"]),
    ('S', ["###", "#..", "###", "..#", "###"]),
    ('T', ["###", ".#.", ".#.", ".#.", ".#."]),
    ('R', ["##.", "#.#", "##.", "#.#", "#.#"]),
    ('I', ["#", "#", "#", "#", "#"]),
    ('U', ["#.#", "#.#", "#.#", "#.#", "###"]),
    ('C', [".##", "#..", "#..", "#..", ".##"]),
];

fn big_letter(ch: char) -> Option<&'static [&'static str; 5]> {
    BIG_LETTERS.iter().find(|l| l.0 == ch).map(|l| &l.1)
}

/// Width in cells of `word` in block letters (two cells a block, one blank block between).
fn big_width(word: &str) -> u16 {
    let blocks: usize = word
        .chars()
        .filter_map(big_letter)
        .map(|rows| rows[0].len())
        .sum();
    (2 * (blocks + word.chars().count().saturating_sub(1))) as u16
}

/// Spells `word` in block letters made of playfield blocks, centred in `rect` from the
/// absolute row `y`; each letter takes a different level's colours and block style, as
/// the title of the pixel renderer does.
fn spell(buf: &mut Buffer, rect: Rect, y: u16, word: &str) {
    const STYLES: [u8; 3] = [0x7D, 0x7B, 0x7C];
    let mut x = rect.x + rect.width.saturating_sub(big_width(word)) / 2;
    for (i, ch) in word.chars().enumerate() {
        let Some(rows) = big_letter(ch) else {
            continue;
        };
        let (text, style) = tile_cell(STYLES[i % 3], i as u8);
        for (r, row) in rows.iter().enumerate() {
            for (k, b) in row.bytes().enumerate() {
                if b == b'#' {
                    buf.set_string(x + 2 * k as u16, y + r as u16, text, style);
                }
            }
        }
        x += 2 * (rows[0].len() as u16 + 1);
    }
}

/// The key help on the bottom row of the menus.
fn footer(buf: &mut Buffer, at: Rect, text: &str) {
    centred(buf, at, at.y + HEIGHT - 1, text, DIM);
}

#[cfg(test)]
pub(crate) mod testing {
    //! Rendering into a `TestBackend`, and the flow reached from power-on with scripted
    //! buttons, for every screen's tests.

    use super::*;
    use nestris_core::{Buttons, Region, Resume, Snapshot};
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

    /// The cells of `game`'s screen at 64 x 24 with no overlay.
    pub(crate) fn cells(game: &Game) -> Buffer {
        let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, HEIGHT));
        render(game, &View::default(), buf.area, &mut buf);
        buf
    }

    /// The screen of `game` at 64 x 24 with no overlay, as one string.
    pub(crate) fn shown(game: &Game) -> String {
        screen(game, &View::default(), WIDTH, HEIGHT).join("\n")
    }

    /// Asserts that every word shows.
    pub(crate) fn assert_shows(all: &str, words: &[&str]) {
        for word in words {
            assert!(all.contains(word), "{word} missing from\n{all}");
        }
    }

    /// `n` frames with `b` held.
    pub(crate) fn run(g: &mut Game, n: usize, b: Buttons) {
        for _ in 0..n {
            g.step(b);
        }
    }

    /// One frame with `b` pressed, then 20 frames released: time for a screen change.
    pub(crate) fn press(g: &mut Game, b: Buttons) {
        g.step(b);
        run(g, 20, Buttons::NONE);
    }

    /// Power-on, then Start at frame 270 (the legal screen reads it from frame 267).
    pub(crate) fn title() -> Game {
        let mut g = Game::power_on(Region::Ntsc);
        run(&mut g, 270, Buttons::NONE);
        press(&mut g, Buttons::START);
        assert_eq!(g.state().mode(), nestris_core::GameMode::Title);
        g
    }

    /// The game-type menu.
    pub(crate) fn type_menu() -> Game {
        let mut g = title();
        press(&mut g, Buttons::START);
        assert_eq!(g.state().mode(), nestris_core::GameMode::TypeMenu);
        g
    }

    /// The level menu of the game type (`b_type`).
    pub(crate) fn level_menu(b_type: bool) -> Game {
        let mut g = type_menu();
        if b_type {
            press(&mut g, Buttons::RIGHT);
        }
        press(&mut g, Buttons::START);
        assert_eq!(g.state().mode(), nestris_core::GameMode::LevelMenu);
        g
    }

    /// A game at `level` (0..=19) started from the level menu, on its first play frame.
    pub(crate) fn play(b_type: bool, level: u8) -> Game {
        let mut g = level_menu(b_type);
        for _ in 0..level % 10 {
            press(&mut g, Buttons::RIGHT);
        }
        if level >= 10 {
            g.step(Buttons::A);
            g.step(Buttons::A | Buttons::START);
        } else {
            g.step(Buttons::START);
        }
        while g.state().game_mode_state != 2 || g.state().resume != Resume::MainLoop {
            g.step(Buttons::NONE);
        }
        assert_eq!(
            (g.state().mode(), g.state().level),
            (nestris_core::GameMode::Play, level)
        );
        g
    }

    /// `game` with its state changed by `f` (to set up a board or a score).
    pub(crate) fn edited(game: &Game, f: impl FnOnce(&mut Snapshot)) -> Game {
        let mut s = game.snapshot();
        f(&mut s);
        Game::from_snapshot(s).unwrap()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_level_colours_are_the_cartridges_nearest_in_xterm_256() {
        use nestris_core::tables::COLOR_TABLE;
        // The xterm-256 cube and grey ramp (16-255; 0-15 follow the terminal's theme).
        let xterm = |i: u32| -> (i32, i32, i32) {
            const STEP: [i32; 6] = [0, 95, 135, 175, 215, 255];
            if i >= 232 {
                let v = 8 + 10 * (i as i32 - 232);
                (v, v, v)
            } else {
                let c = i - 16;
                (
                    STEP[(c / 36) as usize],
                    STEP[(c / 6 % 6) as usize],
                    STEP[(c % 6) as usize],
                )
            }
        };
        let nearest = |nes: u8| -> u8 {
            let c = nestris_render::palette::rgb(nes);
            let (r, g, b) = ((c >> 16) as i32, (c >> 8 & 0xFF) as i32, (c & 0xFF) as i32);
            (16..256u32)
                .min_by_key(|&i| {
                    let (x, y, z) = xterm(i);
                    2 * (x - r).pow(2) + 4 * (y - g).pow(2) + 3 * (z - b).pow(2)
                })
                .unwrap() as u8
        };
        for (level, [_, _, c3, c4]) in COLOR_TABLE.into_iter().enumerate() {
            assert_eq!(PALETTES[level], (nearest(c4), nearest(c3)), "level {level}");
        }
    }

    use super::testing::*;
    use super::*;
    use nestris_core::{Buttons, Region};

    #[test]
    fn the_picture_is_off_while_a_screen_is_uploaded() {
        let mut g = Game::power_on(Region::Ntsc);
        g.step(Buttons::NONE);
        assert!(shown(&g).trim().is_empty());
        run(&mut g, 20, Buttons::NONE);
        assert!(shown(&g).contains("N E S T R I S"));
    }

    #[test]
    fn a_small_terminal_gets_a_message() {
        let g = Game::power_on(Region::Ntsc);
        let all = screen(&g, &View::default(), 40, 10).join("\n");
        assert!(all.contains("too small"));
    }

    #[test]
    fn the_notice_and_the_quit_dialog() {
        let g = play(false, 0);
        let view = View {
            hold_estimated: true,
            overlay: Overlay::ConfirmQuit,
            ..View::default()
        };
        let all = screen(&g, &view, 80, 25).join("\n");
        assert_shows(&all, &[HOLD_NOTICE, "QUIT THIS GAME?", "N: keep playing"]);
        // The notice still shows when there is no spare line for it, and covers no
        // statistics: the layout's bottom row is as without it.
        let tight = screen(&g, &view, 64, 24);
        assert!(tight[0].contains(HOLD_NOTICE), "{}", tight[0]);
        let plain = screen(&g, &View::default(), 64, 24);
        assert_eq!(tight[23], plain[23]);
        assert!(plain[23].contains("NTSC"));
        // A data notice takes the line while it lasts.
        let warned = View {
            notice: Some("could not save the replay".into()),
            ..view
        };
        let all = screen(&g, &warned, 80, 25).join("\n");
        assert!(all.contains("could not save the replay") && !all.contains(HOLD_NOTICE));
    }

    #[test]
    fn names_and_digits() {
        let name: String = [8, 15, 23, 0, 27, 36, 37, 42, 43]
            .iter()
            .map(|&c| name_char(c))
            .collect();
        assert_eq!(name, "HOW 09-? ");
        assert_eq!(bcd_digits(&[0x01, 0x23, 0x45]), "012345");
        assert_eq!(big_width("NESTRIS"), 52);
    }
}
