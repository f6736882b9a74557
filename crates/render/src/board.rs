//! What the playfield on screen shows, which is not always the playfield in RAM.
//!
//! The engine removes a completed row as soon as the row check (play state 3) finds it,
//! but the cartridge leaves the screen alone until the line-clear animation (play
//! state 4) has blanked those rows from the centre outwards. So the renderer keeps the
//! page as it was on the first frame of the row check and draws states 3 and 4 from it.

use nestris_core::tables::TILE_EMPTY;
use nestris_core::Snapshot;

/// The copy of the playfield taken when the row check began.
#[derive(Clone, Debug, Default)]
pub(crate) struct ClearCopy {
    page: Option<[u8; 200]>,
}

impl ClearCopy {
    /// Takes the copy on the first frame seen in play state 3 and drops it once the
    /// animation is over.
    pub(crate) fn observe(&mut self, s: &Snapshot) {
        let playing = matches!(s.game_mode, 4 | 5);
        match s.play_state {
            // The frame that locks a piece ends in state 3 with nothing removed yet: rows
            // go one per frame from the next frame on.
            3 if playing => {
                if self.page.is_none() {
                    let mut page = [TILE_EMPTY; 200];
                    page.copy_from_slice(&s.playfield.0[..200]);
                    self.page = Some(page);
                }
            }
            4 if playing => {}
            _ => self.page = None,
        }
    }

    /// The 200 visible cells as the screen shows them in this frame.
    pub(crate) fn shown(&self, s: &Snapshot) -> [u8; 200] {
        let mut cells = [TILE_EMPTY; 200];
        match (&self.page, s.play_state) {
            (Some(page), 3 | 4) => {
                cells = *page;
                if s.play_state == 4 {
                    // Step k blanks columns 4-k and 5+k, so after `row_y` steps the middle
                    // 2 * row_y columns are empty. Row 0 is stored as "no row" and the
                    // cartridge skips it.
                    let k = usize::from(s.row_y.min(5));
                    for &row in s.completed_row.iter().filter(|&&r| r != 0 && r < 20) {
                        let base = usize::from(row) * 10;
                        cells[base + 5 - k..base + 5 + k].fill(TILE_EMPTY);
                    }
                }
            }
            _ => cells.copy_from_slice(&s.playfield.0[..200]),
        }
        cells
    }
}
