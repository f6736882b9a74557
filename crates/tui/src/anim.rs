//! What the screen still shows while rows are checked and cleared.
//!
//! The engine removes a completed row from the playfield data as soon as the row check
//! finds it (play state 3), but the cartridge leaves the screen alone until the
//! line-clear animation (play state 4) has blanked the rows from the centre outwards.
//! So the front end keeps a copy of the board from the moment the row check begins and
//! draws states 3 and 4 from it.

use nestris_core::tables::TILE_EMPTY;
use nestris_core::Snapshot;

/// The board copy for the row check and the line-clear animation.
#[derive(Clone, Debug, Default)]
pub struct ClearAnimation {
    board: Option<[u8; 200]>,
}

impl ClearAnimation {
    /// Call after every frame: takes the copy on the first frame of the row check, drops
    /// it once the animation is over.
    pub fn observe(&mut self, s: &Snapshot) {
        match s.play_state {
            // The frame that locks the piece ends in state 3; no row is removed before the
            // next frame, so the first copy seen in state 3 is the board before the check.
            3 | 4 => {
                if self.board.is_none() {
                    let mut b = [TILE_EMPTY; 200];
                    b.copy_from_slice(&s.playfield.0[..200]);
                    self.board = Some(b);
                }
            }
            _ => self.board = None,
        }
    }

    /// The 200 visible cells as the screen shows them this frame.
    pub fn board(&self, s: &Snapshot) -> [u8; 200] {
        let mut b = [TILE_EMPTY; 200];
        match (&self.board, s.play_state) {
            (Some(copy), 3 | 4) => {
                b = *copy;
                if s.play_state == 4 {
                    // Step k blanks columns 4-k and 5+k: after `row_y` steps, the middle
                    // 2 * row_y columns of each completed row are empty.
                    let r = s.row_y.min(5) as usize;
                    for &row in s.completed_row.iter().filter(|&&row| row != 0) {
                        let row = row as usize;
                        if row < 20 {
                            b[row * 10 + 5 - r..row * 10 + 5 + r].fill(TILE_EMPTY);
                        }
                    }
                }
            }
            _ => b.copy_from_slice(&s.playfield.0[..200]),
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::testing::{edited, play};
    use nestris_core::{Buttons, Game};

    /// A level-19 game, started from power-on, whose horizontal I at the spawn point
    /// will complete row 19.
    pub(crate) fn game_about_to_clear() -> Game {
        edited(&play(false, 19), |s| {
            s.playfield.0[..200].fill(TILE_EMPTY);
            for col in [0, 1, 2, 7, 8, 9] {
                s.playfield.0[190 + col] = 0x7C;
            }
            s.playfield.0[180] = 0x7D; // row 18 must fall into row 19
            s.piece = 18;
            s.x = 5;
            s.y = 0;
            s.autorepeat_y = 0;
        })
    }

    #[test]
    fn the_animation_blanks_the_copied_row_from_the_centre() {
        let mut g = game_about_to_clear();
        let mut anim = ClearAnimation::default();
        anim.observe(g.state());
        let mut seen = Vec::new();
        for _ in 0..200 {
            g.step(Buttons::NONE);
            anim.observe(g.state());
            let s = g.state();
            let shown = anim.board(s);
            if s.play_state == 3 || s.play_state == 4 {
                // The live data has already lost the row; the screen has not.
                let row: Vec<bool> = (0..10).map(|c| shown[190 + c] != TILE_EMPTY).collect();
                let blank = row.iter().filter(|f| !**f).count();
                let r = if s.play_state == 4 {
                    s.row_y as usize
                } else {
                    0
                };
                assert_eq!(blank, 2 * r, "state {} row_y {}", s.play_state, s.row_y);
                for (c, filled) in row.iter().enumerate() {
                    assert_eq!(*filled, !(5 - r..5 + r).contains(&c));
                }
                seen.push((s.play_state, s.row_y));
            }
            if s.play_state == 5 || (seen.len() > 1 && s.play_state == 1) {
                break;
            }
        }
        assert!(seen.iter().any(|&(st, ry)| st == 4 && ry == 4), "{seen:?}");
        // After the animation the live board shows the shifted rows.
        let s = g.state();
        let shown = anim.board(s);
        assert_eq!(shown[190], 0x7D);
        assert_eq!(shown[191], TILE_EMPTY);
    }
}
