//! A position to practise: the stack, the piece about to fall and the one in the
//! preview, the level and the line count, and optionally a TetrisGYM seed for the pieces
//! after those two. The board editor paints one; [`Position::game`] starts it.
//!
//! The game is an ordinary start state, built the way the trainers build theirs
//! ([`crate::trainer`]): an A-type game set up at the position's level, its state then
//! given the position's cells, pieces and lines, so a replay of it starts from its
//! snapshot and plays back exactly. The pieces after the preview are dealt by the game's
//! generator from the setup's state, or by the seed when there is one.

use crate::tables::{SPAWN_TABLE, TILE_EMPTY};
use crate::{Game, GameSetup, GymSeed, Region, Variant};

/// Field rows.
pub const ROWS: usize = 20;
/// Field columns.
pub const COLS: usize = 10;
/// The highest level a position starts at (the cartridge's menu reaches 19; past 29
/// the gravity is the killscreen's and the colours repeat).
pub const MAX_LEVEL: u8 = 29;
/// The highest line count a position holds (the line counter's three digits).
pub const MAX_LINES: u16 = 999;

/// The three block tiles a cell may hold, as a cell's colour 1-3 names them: the ringed
/// block T, O and I lock as, then the two solid ones (J and S, Z and L).
pub const BLOCK_TILES: [u8; 3] = [0x7B, 0x7D, 0x7C];

/// A piece type, in the cartridge's order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// T.
    T,
    /// J.
    J,
    /// Z.
    Z,
    /// O.
    O,
    /// S.
    S,
    /// L.
    L,
    /// I.
    I,
}

impl Piece {
    /// Every piece, in the cartridge's order (its statistics' order too).
    pub const ALL: [Piece; 7] = [
        Piece::T,
        Piece::J,
        Piece::Z,
        Piece::O,
        Piece::S,
        Piece::L,
        Piece::I,
    ];

    /// The piece's letter.
    pub const fn letter(self) -> char {
        ['T', 'J', 'Z', 'O', 'S', 'L', 'I'][self as usize]
    }

    /// The piece of a letter (either case).
    pub fn from_letter(c: char) -> Option<Piece> {
        let c = c.to_ascii_uppercase();
        Piece::ALL.into_iter().find(|p| p.letter() == c)
    }

    /// The orientation id it spawns in (the cartridge's `spawnTable`).
    pub const fn spawn_id(self) -> u8 {
        SPAWN_TABLE[self as usize]
    }

    /// The piece `step` places along [`Piece::ALL`], wrapping (a menu's left and right).
    pub fn cycled(self, step: i32) -> Piece {
        Piece::ALL[(self as i32 + step).rem_euclid(7) as usize]
    }
}

/// A position: what the board editor paints and a practice game starts from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// The field, top row first: 0 an empty cell, 1-3 a block of that colour
    /// ([`BLOCK_TILES`]).
    pub cells: [[u8; COLS]; ROWS],
    /// The piece that falls first.
    pub current: Piece,
    /// The piece in the preview, which falls second.
    pub next: Piece,
    /// The level (0..=[`MAX_LEVEL`]); also the start level the level-ups count from.
    pub level: u8,
    /// Lines already cleared (0..=[`MAX_LINES`]).
    pub lines: u16,
    /// The seed that deals the pieces after these two (`None`: the cartridge's generator).
    pub seed: Option<GymSeed>,
}

impl Default for Position {
    /// An empty field, T then I, level 18 (the level most practice is at), no lines.
    fn default() -> Self {
        Position {
            cells: [[0; COLS]; ROWS],
            current: Piece::T,
            next: Piece::I,
            level: 18,
            lines: 0,
            seed: None,
        }
    }
}

impl Position {
    /// True if cell (`row`, `col`) holds a block.
    pub fn is_filled(&self, row: usize, col: usize) -> bool {
        self.cells[row][col] != 0
    }

    /// Sets a cell: 0 empties it, 1-3 paints a block of that colour (others count as 1).
    pub fn set(&mut self, row: usize, col: usize, colour: u8) {
        self.cells[row][col] = if colour > 3 { 1 } else { colour };
    }

    /// Fills `row` with blocks of `colour` but for column `well`, the row a player
    /// builds with a well in it.
    pub fn fill_row(&mut self, row: usize, well: usize, colour: u8) {
        for col in 0..COLS {
            self.set(row, col, if col == well { 0 } else { colour.max(1) });
        }
    }

    /// Empties `row`.
    pub fn clear_row(&mut self, row: usize) {
        self.cells[row] = [0; COLS];
    }

    /// Empties the field.
    pub fn clear(&mut self) {
        self.cells = [[0; COLS]; ROWS];
    }

    /// The position's level and line count brought into range (a file or a caller may
    /// give more).
    pub fn clamped(mut self) -> Position {
        self.level = self.level.min(MAX_LEVEL);
        self.lines = self.lines.min(MAX_LINES);
        for row in &mut self.cells {
            for c in row {
                if *c > 3 {
                    *c = 1;
                }
            }
        }
        self
    }

    /// The position of a game as the player sees it: its field (the piece in flight not
    /// included), its current and next piece, level and lines, and its seed. `None` when
    /// the game holds no piece (the menus).
    pub fn of_game(game: &Game) -> Option<Position> {
        let s = game.state();
        if !s.in_game() {
            return None;
        }
        let piece = |id: u8| {
            let t = *crate::tables::ORIENTATION_TYPE.get(id as usize)?;
            Piece::ALL.get(t as usize).copied()
        };
        let board = s.shown_board();
        let mut cells = [[0; COLS]; ROWS];
        for (r, row) in cells.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let tile = board.cell(r, c);
                *cell = match BLOCK_TILES.iter().position(|&t| t == tile) {
                    Some(i) => i as u8 + 1,
                    None if tile == TILE_EMPTY => 0,
                    None => 1,
                };
            }
        }
        Some(
            Position {
                cells,
                current: piece(s.piece)?,
                next: piece(s.next_piece)?,
                level: s.level,
                lines: crate::cap_lines(s.lines),
                seed: s
                    .variant
                    .seed
                    .map(|seed| GymSeed::new(seed.value(), seed.rule).unwrap_or(seed)),
            }
            .clamped(),
        )
    }

    /// The game that starts from this position: an A-type game in `setup`'s region, with
    /// its generator state, crash mode and rules, at the position's level (the start level
    /// too, from which the level-ups count), with the position's field, lines and seed, the
    /// current piece about to enter at the top and the next one in the preview.
    ///
    /// The piece statistics count the current piece once, as at any game's start; the
    /// generator goes on from the preview as if it had dealt it (the cartridge's re-roll
    /// compares with the last piece dealt).
    pub fn game(&self, setup: GameSetup) -> Game {
        let p = self.clamped();
        let variant = Variant {
            seed: p.seed,
            ..setup.variant
        };
        let game = Game::new(GameSetup {
            game_type: crate::GameType::A,
            level: p.level,
            a_held_on_start: false,
            height: 0,
            variant,
            ..setup
        });
        let mut s = game.snapshot();
        for (r, row) in p.cells.iter().enumerate() {
            for (c, &colour) in row.iter().enumerate() {
                s.playfield.0[r * COLS + c] = match colour {
                    0 => TILE_EMPTY,
                    k => BLOCK_TILES[(k as usize - 1).min(2)],
                };
            }
        }
        s.piece = p.current.spawn_id();
        s.next_piece = p.next.spawn_id();
        s.spawn_id = p.next.spawn_id();
        s.stats = [[0; 2]; 7];
        s.stats[p.current as usize] = [1, 0];
        s.lines = [
            crate::bcd::to_bcd((p.lines % 100) as u8),
            crate::bcd::to_bcd((p.lines / 100) as u8),
        ];
        Game::from_snapshot(s).expect("a position's start is a state the cartridge can hold")
    }

    /// [`Position::game`] with the default setup in `region` (the generator as at power-on,
    /// the cartridge's crash model).
    pub fn game_in(&self, region: Region) -> Game {
        self.game(GameSetup {
            region,
            ..GameSetup::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Buttons, PlayState, SeedRule};

    fn sample() -> Position {
        let mut p = Position {
            current: Piece::L,
            next: Piece::Z,
            level: 27,
            lines: 243,
            ..Position::default()
        };
        for row in 16..20 {
            p.fill_row(row, 9, 1 + (row % 3) as u8);
        }
        p.set(15, 0, 2);
        p
    }

    #[test]
    fn the_game_holds_the_cells_pieces_level_and_lines_set() {
        let p = sample();
        let g = p.game_in(Region::Ntsc);
        let s = g.state();
        for r in 0..ROWS {
            for c in 0..COLS {
                assert_eq!(s.playfield.is_filled(r, c), p.is_filled(r, c), "({r}, {c})");
            }
        }
        assert_eq!(s.playfield.cell(15, 0), BLOCK_TILES[1]);
        assert_eq!(s.playfield.cell(16, 0), BLOCK_TILES[(1 + 16 % 3) - 1]);
        assert_eq!(s.piece, Piece::L.spawn_id());
        assert_eq!(s.next_piece, Piece::Z.spawn_id());
        assert_eq!((s.level, s.start_level), (27, 27));
        assert_eq!(crate::bcd::lines_value(s.lines), 243);
        assert_eq!(s.stats[Piece::L as usize], [1, 0]);
        assert_eq!(s.game_type, 0);
        // Read back as a position, it is the one set.
        let mut g = g;
        g.step(Buttons::NONE);
        assert_eq!(Position::of_game(&g), Some(p));
    }

    #[test]
    fn the_current_piece_falls_then_the_next_then_the_generator_s() {
        let p = Position {
            current: Piece::O,
            next: Piece::S,
            level: 19,
            ..Position::default()
        };
        let mut g = p.game_in(Region::Ntsc);
        let mut seen = Vec::new();
        let mut last = None;
        for _ in 0..600 {
            g.step(Buttons::DOWN);
            let s = g.state();
            if s.phase() == PlayState::Control && last != Some(s.piece) {
                seen.push(s.piece);
            }
            last = (s.phase() == PlayState::Control).then_some(s.piece);
            if seen.len() == 3 {
                break;
            }
        }
        assert_eq!(seen[0], Piece::O.spawn_id());
        assert_eq!(seen[1], Piece::S.spawn_id());
        assert_eq!(seen.len(), 3, "a third piece was dealt");
        assert!(!g.is_over());
    }

    #[test]
    fn a_seed_deals_the_pieces_after_the_two_chosen() {
        let seed = GymSeed::new(0x1A2B3C, SeedRule::V5);
        let p = Position {
            seed,
            ..Position::default()
        };
        let g = p.game_in(Region::Ntsc);
        assert_eq!(g.state().variant.seed.map(|s| s.value()), Some(0x1A2B3C));
        // The seed's third pick follows the two it dealt at init, whatever the position's
        // pieces: the generator went on from there.
        let mut expected = seed.unwrap();
        let first = expected.pick(0);
        expected.pick(first);
        assert_eq!(g.state().variant.seed.unwrap().state, expected.state);
    }

    #[test]
    fn levels_and_lines_are_kept_in_range_and_pieces_cycle() {
        let p = Position {
            level: 200,
            lines: 5000,
            ..Position::default()
        }
        .clamped();
        assert_eq!((p.level, p.lines), (MAX_LEVEL, MAX_LINES));
        let g = p.game_in(Region::Pal);
        assert_eq!(crate::bcd::lines_value(g.state().lines), 999);
        assert_eq!(Piece::T.cycled(-1), Piece::I);
        assert_eq!(Piece::I.cycled(1), Piece::T);
        assert_eq!(Piece::from_letter('s'), Some(Piece::S));
        assert_eq!(Piece::from_letter('x'), None);
        let mut p = Position::default();
        p.fill_row(19, 3, 0);
        assert_eq!(p.cells[19], [1, 1, 1, 0, 1, 1, 1, 1, 1, 1]);
        p.clear_row(19);
        assert_eq!(p, Position::default());
    }
}
