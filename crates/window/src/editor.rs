//! The board editor: a [`Position`] painted on the field and set up on a menu, to be
//! played from and retried.
//!
//! Driven by the NES buttons (so a gamepad edits as the keyboard does) and the mouse:
//!
//! - On the field: the D-pad moves the cursor (held, it repeats); A paints the cell with
//!   the brush, B erases it, and either held while moving paints or erases the cells
//!   passed over. The mouse paints with its left button and erases with its right,
//!   clicked or dragged.
//! - Select goes to the menu and back. On the menu, Up and Down choose a line, Left and
//!   Right change its value (the current piece, the next piece, the level 0-29, the line
//!   count, the brush's colour; held, the line count runs by tens), A does an action:
//!   fill the cursor's row but the cursor's column (a row with its well), clear that
//!   row, clear the field, save the position to its file, load it back, play. A click on
//!   a line chooses it and does it (a right click steps a value back).
//! - Start plays the position from anywhere.
//!
//! What to show is an [`EditorView`] for the render crate; the session plays the game
//! ([`Position::game`]) when the editor says [`Outcome::Play`].

use std::path::{Path, PathBuf};

use nestris_core::position::{Position, COLS, MAX_LEVEL, MAX_LINES, ROWS};
use nestris_core::Buttons;
use nestris_render::editor::{EditorView, Item, Value};

/// Frames a direction is held before it repeats.
const REPEAT_AFTER: u32 = 12;
/// Frames between two repeats of a held direction.
const REPEAT_EVERY: u32 = 3;
/// Frames Left or Right is held on the line count before it runs by tens.
const TENS_AFTER: u32 = 60;

/// The menu's lines, top first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Line {
    Piece,
    Next,
    Level,
    Lines,
    Brush,
    FillRow,
    ClearRow,
    ClearAll,
    Save,
    Load,
    Play,
}

/// The menu in order, with a blank line above the lines that start a group.
const MENU: [(Line, &str, bool); 11] = [
    (Line::Piece, "PIECE", false),
    (Line::Next, "NEXT", false),
    (Line::Level, "LEVEL", false),
    (Line::Lines, "LINES", false),
    (Line::Brush, "BRUSH", false),
    (Line::FillRow, "FILL ROW", true),
    (Line::ClearRow, "CLEAR ROW", false),
    (Line::ClearAll, "CLEAR ALL", false),
    (Line::Save, "SAVE", true),
    (Line::Load, "LOAD", false),
    (Line::Play, "PLAY", true),
];

/// What the editor asks of the session after an input.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Nothing beyond the editor.
    Editing,
    /// Play the position.
    Play,
    /// Say this on screen (a save, a load, or why not).
    Say(String),
}

/// The editor's state.
#[derive(Clone, Debug)]
pub struct Editor {
    position: Position,
    cursor: (usize, usize),
    menu: bool,
    selected: usize,
    /// The brush's colour, 1-3.
    brush: u8,
    held: Buttons,
    /// Frames the current directions have been held.
    held_for: u32,
    /// While A or B is held on the field: what the cells passed over become.
    painting: Option<u8>,
    /// The same for a mouse button held down.
    dragging: Option<u8>,
    /// The file the position is saved to and loaded from.
    file: PathBuf,
}

impl Editor {
    /// An editor on `position`, saving to `file`, with `held` (the buttons down as it
    /// opens) not counted as presses.
    pub fn new(position: Position, file: PathBuf, held: Buttons) -> Editor {
        Editor {
            position: position.clamped(),
            cursor: (ROWS - 1, 0),
            menu: false,
            selected: 0,
            brush: 1,
            held,
            held_for: 0,
            painting: None,
            dragging: None,
            file,
        }
    }

    /// The position as edited.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Where the position is saved.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// Opens again after a game (the buttons down now are not presses).
    pub fn reopen(&mut self, held: Buttons) {
        self.held = held;
        self.held_for = 0;
        self.painting = None;
        self.dragging = None;
    }

    /// One frame's buttons.
    pub fn buttons(&mut self, b: Buttons) -> Outcome {
        let pressed = Buttons(b.0 & !self.held.0);
        const DIRS: Buttons =
            Buttons(Buttons::UP.0 | Buttons::DOWN.0 | Buttons::LEFT.0 | Buttons::RIGHT.0);
        let dirs = Buttons(b.0 & DIRS.0);
        if dirs.0 != self.held.0 & DIRS.0 {
            self.held_for = 0;
        } else if dirs != Buttons::NONE {
            self.held_for += 1;
        }
        // A direction acts on its press, then repeats while held.
        let repeating =
            self.held_for >= REPEAT_AFTER && (self.held_for - REPEAT_AFTER) % REPEAT_EVERY == 0;
        let moved = Buttons(if repeating {
            dirs.0
        } else {
            pressed.0 & DIRS.0
        });
        self.held = b;
        if pressed.contains(Buttons::START) {
            return Outcome::Play;
        }
        if pressed.contains(Buttons::SELECT) {
            self.menu = !self.menu;
            self.painting = None;
            return Outcome::Editing;
        }
        if self.menu {
            self.menu_buttons(pressed, moved)
        } else {
            self.field_buttons(b, pressed, moved);
            Outcome::Editing
        }
    }

    fn field_buttons(&mut self, b: Buttons, pressed: Buttons, moved: Buttons) {
        if pressed.contains(Buttons::A) {
            self.painting = Some(self.brush);
        } else if pressed.contains(Buttons::B) {
            self.painting = Some(0);
        } else if !b.contains(Buttons::A) && !b.contains(Buttons::B) {
            self.painting = None;
        }
        let (mut row, mut col) = self.cursor;
        if moved.contains(Buttons::UP) {
            row = row.saturating_sub(1);
        }
        if moved.contains(Buttons::DOWN) {
            row = (row + 1).min(ROWS - 1);
        }
        if moved.contains(Buttons::LEFT) {
            col = col.saturating_sub(1);
        }
        if moved.contains(Buttons::RIGHT) {
            col = (col + 1).min(COLS - 1);
        }
        self.cursor = (row, col);
        if let Some(colour) = self.painting {
            self.position.set(row, col, colour);
        }
    }

    fn menu_buttons(&mut self, pressed: Buttons, moved: Buttons) -> Outcome {
        if pressed.contains(Buttons::B) {
            self.menu = false;
            return Outcome::Editing;
        }
        if moved.contains(Buttons::UP) {
            self.selected = (self.selected + MENU.len() - 1) % MENU.len();
        }
        if moved.contains(Buttons::DOWN) {
            self.selected = (self.selected + 1) % MENU.len();
        }
        let tens = self.held_for >= TENS_AFTER;
        if moved.contains(Buttons::LEFT) {
            self.change(-1, tens);
        }
        if moved.contains(Buttons::RIGHT) {
            self.change(1, tens);
        }
        if pressed.contains(Buttons::A) {
            return self.act(1);
        }
        Outcome::Editing
    }

    /// Steps the chosen line's value by `step` (by ten on the line count if `tens`).
    fn change(&mut self, step: i32, tens: bool) {
        let p = &mut self.position;
        match MENU[self.selected].0 {
            Line::Piece => p.current = p.current.cycled(step),
            Line::Next => p.next = p.next.cycled(step),
            Line::Level => {
                p.level = (i32::from(p.level) + step).rem_euclid(i32::from(MAX_LEVEL) + 1) as u8;
            }
            Line::Lines => {
                let n = i32::from(p.lines) + if tens { 10 * step } else { step };
                p.lines = n.rem_euclid(i32::from(MAX_LINES) + 1) as u16;
            }
            Line::Brush => {
                self.brush = ((i32::from(self.brush) - 1 + step).rem_euclid(3) + 1) as u8
            }
            _ => {}
        }
    }

    /// Does the chosen line (a value line steps by `step`).
    fn act(&mut self, step: i32) -> Outcome {
        let (row, col) = self.cursor;
        match MENU[self.selected].0 {
            Line::FillRow => self.position.fill_row(row, col, self.brush),
            Line::ClearRow => self.position.clear_row(row),
            Line::ClearAll => self.position.clear(),
            Line::Save => return self.save(),
            Line::Load => return self.load(),
            Line::Play => return Outcome::Play,
            _ => self.change(step, false),
        }
        Outcome::Editing
    }

    /// Writes the position to its file.
    pub fn save(&mut self) -> Outcome {
        match nestris_replay::position::save_position(&self.file, &self.position) {
            Ok(()) => Outcome::Say("POSITION SAVED".to_string()),
            Err(e) => {
                eprintln!(
                    "nestris: could not save the position to {}: {e}",
                    self.file.display()
                );
                Outcome::Say("COULD NOT SAVE THE POSITION".to_string())
            }
        }
    }

    /// Reads the position back from its file.
    pub fn load(&mut self) -> Outcome {
        match nestris_replay::position::load_position(&self.file) {
            Ok(p) => {
                self.position = p;
                Outcome::Say("POSITION LOADED".to_string())
            }
            Err(e) => {
                eprintln!("nestris: {e}");
                Outcome::Say("COULD NOT LOAD THE POSITION".to_string())
            }
        }
    }

    /// A mouse button pressed at pixel (`x`, `y`) of the picture: on the field it moves
    /// the cursor there and paints (`erase`: empties) the cell, and dragging goes on doing
    /// so; on a menu line it chooses the line and does it (`erase`: steps it back).
    pub fn mouse_down(&mut self, x: i32, y: i32, erase: bool) -> Outcome {
        if nestris_render::editor::cell_at(x, y).is_some() {
            self.menu = false;
            self.dragging = Some(if erase { 0 } else { self.brush });
            self.mouse_move(x, y);
            return Outcome::Editing;
        }
        let items = self.items();
        if let Some(i) = nestris_render::editor::item_at(&items.0, x, y) {
            self.menu = true;
            self.selected = i;
            return self.act(if erase { -1 } else { 1 });
        }
        Outcome::Editing
    }

    /// The mouse moved to pixel (`x`, `y`): paints on while a button is down.
    pub fn mouse_move(&mut self, x: i32, y: i32) {
        if let (Some(colour), Some((row, col))) =
            (self.dragging, nestris_render::editor::cell_at(x, y))
        {
            self.cursor = (row, col);
            self.position.set(row, col, colour);
        }
    }

    /// The mouse buttons released.
    pub fn mouse_up(&mut self) {
        self.dragging = None;
    }

    /// The menu's lines, with their values as text (kept alive by the caller).
    fn items(&self) -> ([Item<'static>; 11], [String; 4]) {
        let p = &self.position;
        let texts = [
            p.current.letter().to_string(),
            p.next.letter().to_string(),
            format!("{:02}", p.level),
            format!("{:03}", p.lines),
        ];
        let items = MENU.map(|(line, label, gap)| Item {
            label,
            value: match line {
                Line::Brush => Value::Block(self.brush),
                _ => Value::None,
            },
            gap,
        });
        (items, texts)
    }

    /// Calls `draw` with what the screen shows.
    pub fn with_view<R>(&self, draw: impl FnOnce(&EditorView<'_>) -> R) -> R {
        let (mut items, texts) = self.items();
        for (item, text) in items.iter_mut().zip(&texts) {
            item.value = Value::Text(text);
        }
        let hint = if self.menu {
            "A DO  LEFT RIGHT SET  B FIELD"
        } else {
            "A PAINT  B ERASE  SELECT MENU"
        };
        draw(&EditorView {
            cursor: self.cursor,
            menu_focused: self.menu,
            items: &items,
            selected: self.selected,
            hint,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::position::Piece;

    fn editor() -> Editor {
        Editor::new(
            Position::default(),
            PathBuf::from("unused.txt"),
            Buttons::NONE,
        )
    }

    /// Presses and releases `b`.
    fn press(e: &mut Editor, b: Buttons) -> Outcome {
        let o = e.buttons(b);
        e.buttons(Buttons::NONE);
        o
    }

    #[test]
    fn the_pad_paints_and_erases_and_a_held_button_paints_along() {
        let mut e = editor();
        assert_eq!(e.cursor, (19, 0));
        press(&mut e, Buttons::A);
        assert!(e.position().is_filled(19, 0));
        // A held while Right is pressed three times: the row fills along.
        e.buttons(Buttons::A);
        for _ in 0..3 {
            e.buttons(Buttons(Buttons::A.0 | Buttons::RIGHT.0));
            e.buttons(Buttons::A);
        }
        e.buttons(Buttons::NONE);
        assert_eq!(e.position().cells[19][..5], [1, 1, 1, 1, 0]);
        // Up moves without painting; B erases.
        press(&mut e, Buttons::UP);
        assert!(!e.position().is_filled(18, 3));
        press(&mut e, Buttons::DOWN);
        press(&mut e, Buttons::B);
        assert_eq!(e.position().cells[19][..5], [1, 1, 1, 0, 0]);
        // The cursor stops at the edges.
        for _ in 0..30 {
            press(&mut e, Buttons::DOWN);
            press(&mut e, Buttons::RIGHT);
        }
        assert_eq!(e.cursor, (19, 9));
    }

    #[test]
    fn a_held_direction_repeats() {
        let mut e = editor();
        for _ in 0..REPEAT_AFTER + 2 * REPEAT_EVERY + 1 {
            e.buttons(Buttons::UP);
        }
        assert_eq!(e.cursor.0, 19 - 1 - 3, "the press, then three repeats");
    }

    /// Goes to menu line `line`.
    fn choose(e: &mut Editor, line: Line) {
        if !e.menu {
            press(e, Buttons::SELECT);
        }
        while MENU[e.selected].0 != line {
            press(e, Buttons::DOWN);
        }
    }

    #[test]
    fn the_menu_sets_pieces_level_lines_and_brush() {
        let mut e = editor();
        choose(&mut e, Line::Piece);
        press(&mut e, Buttons::RIGHT);
        press(&mut e, Buttons::RIGHT);
        assert_eq!(e.position().current, Piece::Z);
        choose(&mut e, Line::Next);
        press(&mut e, Buttons::LEFT);
        assert_eq!(e.position().next, Piece::L);
        choose(&mut e, Line::Level);
        for _ in 0..11 {
            press(&mut e, Buttons::RIGHT);
        }
        assert_eq!(e.position().level, 29);
        press(&mut e, Buttons::RIGHT);
        assert_eq!(e.position().level, 0, "wraps");
        choose(&mut e, Line::Lines);
        press(&mut e, Buttons::LEFT);
        assert_eq!(e.position().lines, 999);
        // Held: by ones, then by tens.
        for _ in 0..TENS_AFTER + 1 {
            e.buttons(Buttons::RIGHT);
        }
        let lines = e.position().lines;
        assert!(lines > 10 && lines % 10 != 0 || lines >= 20, "{lines}");
        choose(&mut e, Line::Brush);
        press(&mut e, Buttons::RIGHT);
        press(&mut e, Buttons::SELECT);
        press(&mut e, Buttons::A);
        assert_eq!(
            e.position().cells[19][0],
            2,
            "painted with the brush's colour"
        );
    }

    #[test]
    fn rows_fill_with_a_well_and_clear() {
        let mut e = editor();
        for _ in 0..4 {
            press(&mut e, Buttons::RIGHT);
        }
        choose(&mut e, Line::FillRow);
        press(&mut e, Buttons::A);
        assert_eq!(e.position().cells[19], [1, 1, 1, 1, 0, 1, 1, 1, 1, 1]);
        press(&mut e, Buttons::B);
        press(&mut e, Buttons::UP);
        choose(&mut e, Line::FillRow);
        press(&mut e, Buttons::A);
        choose(&mut e, Line::ClearRow);
        press(&mut e, Buttons::A);
        assert_eq!(e.position().cells[18], [0; 10]);
        assert_ne!(e.position().cells[19], [0; 10]);
        choose(&mut e, Line::ClearAll);
        press(&mut e, Buttons::A);
        assert_eq!(e.position().cells, [[0; 10]; 20]);
        choose(&mut e, Line::Play);
        assert_eq!(press(&mut e, Buttons::A), Outcome::Play);
        assert_eq!(
            press(&mut e, Buttons::START),
            Outcome::Play,
            "Start plays from anywhere"
        );
    }

    #[test]
    fn the_mouse_paints_drags_erases_and_picks_menu_lines() {
        use nestris_render::{FIELD_X, FIELD_Y};
        let mut e = editor();
        let at = |row: i32, col: i32| (FIELD_X + col * 8 + 3, FIELD_Y + row * 8 + 3);
        let (x, y) = at(10, 2);
        e.mouse_down(x, y, false);
        for col in 3..7 {
            // Frames run between the mouse's events, no button held on the pad.
            e.buttons(Buttons::NONE);
            let (x, y) = at(10, col);
            e.mouse_move(x, y);
        }
        e.mouse_up();
        let (x, y) = at(12, 0);
        e.mouse_move(x, y);
        assert_eq!(e.position().cells[10], [0, 0, 1, 1, 1, 1, 1, 0, 0, 0]);
        assert!(!e.position().is_filled(12, 0), "no button: no paint");
        let (x, y) = at(10, 4);
        e.mouse_down(x, y, true);
        e.mouse_up();
        assert!(!e.position().is_filled(10, 4));
        assert_eq!(e.cursor, (10, 4));
        // The menu's first line, PIECE: a click steps it, a right click steps it back.
        e.mouse_down(20, 8 * 8 + 2, false);
        assert_eq!(e.position().current, Piece::J);
        e.mouse_down(20, 8 * 8 + 2, true);
        e.mouse_down(20, 8 * 8 + 2, true);
        assert_eq!(e.position().current, Piece::I);
        assert!(e.menu);
    }

    #[test]
    fn a_position_is_saved_and_loaded_from_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.txt");
        let mut e = Editor::new(Position::default(), file.clone(), Buttons::NONE);
        assert_eq!(e.load(), Outcome::Say("COULD NOT LOAD THE POSITION".into()));
        press(&mut e, Buttons::A);
        assert_eq!(e.save(), Outcome::Say("POSITION SAVED".into()));
        let saved = *e.position();
        press(&mut e, Buttons::B);
        assert_ne!(*e.position(), saved);
        assert_eq!(e.load(), Outcome::Say("POSITION LOADED".into()));
        assert_eq!(*e.position(), saved);
        assert_eq!(
            nestris_replay::position::load_position(&file).unwrap(),
            saved
        );
    }

    /// The position of `docs/editor.png`: a stack at level 18 with its well on the right,
    /// an overhang and a hole, L falling and I next.
    fn docs_position() -> Position {
        const ROWS_DRAWN: [&str; 9] = [
            "......2...",
            "3.....22..",
            "33...#2...",
            "#3#.##2##.",
            "###.####3.",
            "2##3###33.",
            "22#3#.##3.",
            "2###3####.",
            "######2##.",
        ];
        let mut p = Position {
            current: Piece::L,
            next: Piece::I,
            level: 18,
            lines: 112,
            ..Position::default()
        };
        for (i, row) in ROWS_DRAWN.iter().enumerate() {
            for (col, ch) in row.chars().enumerate() {
                p.set(
                    11 + i,
                    col,
                    ch.to_digit(10).unwrap_or(u32::from(ch == '#')) as u8,
                );
            }
        }
        p
    }

    /// `docs/editor.png`, the README's picture of the editor, is what the code draws:
    /// the editor as a player leaves it (the menu on LEVEL, the cursor on the well).
    /// `NESTRIS_BLESS=1` writes it anew (look at it before committing it).
    #[test]
    fn the_editor_picture_in_the_docs_is_what_the_code_draws() {
        let mut e = Editor::new(docs_position(), PathBuf::from("unused.txt"), Buttons::NONE);
        for _ in 0..9 {
            press(&mut e, Buttons::RIGHT);
        }
        for _ in 0..4 {
            press(&mut e, Buttons::UP);
        }
        choose(&mut e, Line::Level);
        let game = e.position().game_in(nestris_core::Region::Ntsc);
        let mut frame = nestris_render::Frame::new();
        e.with_view(|v| {
            nestris_render::editor::draw_editor(
                &game,
                v,
                nestris_render::LevelColours::Classic,
                &mut frame,
            )
        });
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/editor.png");
        if std::env::var_os("NESTRIS_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&path, nestris_render::encode_png(&frame)).unwrap();
            return;
        }
        let want =
            nestris_render::decode_png(&std::fs::read(&path).expect("docs/editor.png")).unwrap();
        assert!(want == frame, "docs/editor.png is not what the code draws");
    }
}
