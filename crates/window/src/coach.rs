//! The coach in the window: the AI's suggested placement for the piece in play, drawn as
//! an outline on the field while the coach is on (a key toggles it).
//!
//! Asked once per piece, when it spawns (the coach answers in a few milliseconds at level
//! 18, within a frame), with the position as the player sees it: the field, the piece, the
//! preview, level, lines and score; 30 Hz tapping and no reaction delay.

use nestris_ai::coach::{suggest, Request};
use nestris_ai::{InputModel, WeightSet};
use nestris_core::tables::ORIENTATION_TYPE;
use nestris_core::{Game, PlayState};
use nestris_render::{FIELD_X, FIELD_Y};

use crate::canvas::Canvas;

/// The outline's colour.
const OUTLINE: u32 = 0xFCFCFC;

/// The coach's state: the piece it answered for and the cells it suggests.
#[derive(Clone, Debug, Default)]
pub struct Coach {
    /// The pieces dealt so far when it last answered (the stats), to ask once a piece.
    asked_for: Option<[[u8; 2]; 7]>,
    cells: Option<[[u8; 2]; 4]>,
}

impl Coach {
    /// The position of `game` as a coach request, if a piece is under the player's
    /// control at its spawn.
    pub fn request(game: &Game) -> Option<Request> {
        let s = game.state();
        if !s.in_game() || s.phase() != PlayState::Control || s.y != 0 {
            return None;
        }
        let mut cells = [0u16; 20];
        for (r, row) in cells.iter_mut().enumerate() {
            for c in 0..10 {
                if s.playfield.is_filled(r, c) {
                    *row |= 1 << c;
                }
            }
        }
        Some(Request {
            cells,
            current: ORIENTATION_TYPE[usize::from(s.piece) % 20],
            next: s
                .next_shown()
                .map(|n| ORIENTATION_TYPE[usize::from(n) % 20]),
            level: s.level,
            lines: nestris_core::bcd::lines_value(s.lines).min(9999) as u16,
            score: nestris_core::bcd::score_value(s.score),
            model: InputModel::tapping(2),
            top: 1,
        })
    }

    /// Follows the game after a frame: a new piece gets a new answer.
    pub fn observe(&mut self, game: &Game) {
        let s = game.state();
        if !s.in_game() {
            *self = Coach::default();
            return;
        }
        if self.asked_for == Some(s.stats) {
            return;
        }
        if let Some(req) = Coach::request(game) {
            self.asked_for = Some(s.stats);
            self.cells = suggest(&req, &WeightSet::default())
                .ok()
                .and_then(|a| a.best)
                .map(|m| m.cells);
        }
    }

    /// The suggested cells (`[row, column]`), if any.
    #[cfg(test)]
    pub fn cells(&self) -> Option<[[u8; 2]; 4]> {
        self.cells
    }

    /// Outlines the suggested cells on the field (the picture at 1:1 in `canvas`).
    pub fn draw(&self, canvas: &mut Canvas) {
        let Some(cells) = self.cells else {
            return;
        };
        for [r, c] in cells {
            let x = FIELD_X + 8 * i32::from(c);
            let y = FIELD_Y + 8 * i32::from(r);
            canvas.outline(x, y, 8, 8, OUTLINE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::trainer::Trainer;
    use nestris_core::{Buttons, Region};

    #[test]
    fn the_coach_suggests_the_tetris_when_an_i_comes_to_a_ready_well() {
        let mut game = Trainer::TetrisReady.game(Region::Ntsc, 18, 0);
        while Coach::request(&game).is_none() {
            game.step(Buttons::NONE);
        }
        // The piece in play made an I (the state allows any piece at the spawn).
        let mut s = game.snapshot();
        s.piece = nestris_core::tables::SPAWN_TABLE[6];
        let game = Game::from_snapshot(s).unwrap();
        let req = Coach::request(&game).unwrap();
        assert_eq!(req.current, 6);
        assert_eq!(req.cells[19], 0b01_1111_1111, "the bottom row but the well");
        let mut coach = Coach::default();
        coach.observe(&game);
        let cells = coach.cells().expect("an answer");
        assert!(cells.iter().all(|&[_, c]| c == 9), "{cells:?}: the well");
        let mut canvas = Canvas::new(256, 240);
        coach.draw(&mut canvas);
        let [r, c] = cells[0];
        let (x, y) = (FIELD_X + 8 * i32::from(c), FIELD_Y + 8 * i32::from(r));
        assert_eq!(canvas.pixel(x as usize, y as usize), OUTLINE);
        // Asked once per piece: the same piece is not asked again.
        let before = coach.asked_for;
        coach.observe(&game);
        assert_eq!(coach.asked_for, before);
    }
}
