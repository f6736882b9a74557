//! The play states: piece control, lock, row check, scoring, spawn, curtain.
//!
//! Each function is one `playState` handler of the cartridge, run once per frame by the
//! player update (`gameModeState` 4). Comparisons follow the cartridge's signed or
//! unsigned tests where the difference shows at the edges.

use crate::bcd;
use crate::buttons::Buttons;
use crate::demo::DemoData;
use crate::events::FrameEvents;
use crate::flow::Resume;
use crate::game::Game;
use crate::tables::{
    HIDDEN, ORIENTATION_CELLS, ORIENTATION_TILE, POINTS, ROTATE_A, ROTATE_B, SPAWN_TABLE,
    TILE_CURTAIN, TILE_EMPTY,
};

/// [`ORIENTATION_CELLS`] padded to 32 entries (the hidden piece's cells after 19), so
/// the hot collision loop indexes with a mask instead of a bounds check or a modulo.
const CELLS: [[(i8, i8); 4]; 32] = {
    let mut t = [[(0i8, 0i8); 4]; 32];
    let mut i = 0;
    while i < 20 {
        t[i] = ORIENTATION_CELLS[i];
        i += 1;
    }
    t
};

const LEFT: u8 = Buttons::LEFT.bits();
const RIGHT: u8 = Buttons::RIGHT.bits();
const DOWN: u8 = Buttons::DOWN.bits();
const DPAD: u8 = Buttons::DPAD.bits();

impl Game {
    /// `branchOnPlayStatePlayer1`; true when the handler began a wait (an ending).
    #[inline(always)]
    pub(crate) fn update_player(&mut self, demo: &DemoData, ev: &mut FrameEvents) -> bool {
        let waits = match self.s.play_state {
            0 => {
                self.s.piece = HIDDEN;
                false
            }
            1 => {
                self.shift(ev);
                self.rotate(ev);
                self.drop(ev);
                false
            }
            2 => {
                self.lock(ev);
                false
            }
            3 => {
                self.check_completed_rows(ev);
                false
            }
            5 => {
                self.update_lines_and_score(ev);
                false
            }
            6 => self.b_type_goal_check(ev),
            7 => {
                self.s.play_state = 8;
                false
            }
            8 => {
                self.spawn_next(demo, ev);
                false
            }
            10 => self.update_curtain(ev),
            11 => {
                self.s.play_state = self.s.play_state.wrapping_add(1);
                false
            }
            _ => false,
        };
        if waits {
            return true;
        }
        self.stage_piece_sprite();
        false
    }

    /// `stageSpriteForCurrentPiece` leaves the last mino's sprite row in `originalY`,
    /// which the level menu shows through for a few frames after a game.
    #[inline]
    pub(crate) fn stage_piece_sprite(&mut self) {
        let last = CELLS[self.s.piece as usize & 31][3].0 as u8;
        self.s.selecting = last
            .wrapping_mul(8)
            .wrapping_add(self.s.y.wrapping_mul(8))
            .wrapping_add(0x2F);
    }

    /// `isPositionValid`: may the piece stand at (x, y)?
    ///
    /// Rows -2 and -1 are allowed and read the bytes after the field.
    #[inline]
    pub(crate) fn position_valid(&mut self, piece: u8, x: u8, y: u8) -> bool {
        let base = y.wrapping_mul(10).wrapping_add(x);
        for &(dr, dc) in &CELLS[piece as usize & 31] {
            if (dr as u8).wrapping_add(y).wrapping_add(2) >= 22 {
                return false;
            }
            let row_base = (dr as u8).wrapping_mul(10).wrapping_add(base);
            if self.s.playfield.0[(dc as u8).wrapping_add(row_base) as usize] < TILE_EMPTY {
                return false;
            }
            if (dc as u8).wrapping_add(x) >= 10 {
                return false;
            }
        }
        true
    }

    /// `shift_tetrimino`: DAS.
    #[inline]
    fn shift(&mut self, ev: &mut FrameEvents) {
        let held = self.s.held;
        if held & DOWN != 0 {
            return;
        }
        if self.s.pressed & (LEFT | RIGHT) != 0 {
            self.s.autorepeat_x = 0;
        } else {
            if held & (LEFT | RIGHT) == 0 {
                return;
            }
            self.s.autorepeat_x = self.s.autorepeat_x.wrapping_add(1);
            if (self.s.autorepeat_x.wrapping_sub(self.s.region.das_limit()) as i8) < 0 {
                return;
            }
            self.s.autorepeat_x = self.s.region.das_repeat_start();
        }
        let x = self.s.x;
        let new_x = if held & RIGHT != 0 {
            x.wrapping_add(1)
        } else if held & LEFT != 0 {
            x.wrapping_sub(1)
        } else {
            return;
        };
        if self.position_valid(self.s.piece, new_x, self.s.y) {
            self.s.x = new_x;
            ev.set(FrameEvents::SHIFTED);
        } else {
            self.s.autorepeat_x = self.s.region.das_limit();
        }
    }

    /// `rotate_tetrimino`: A clockwise, else B counter-clockwise; undone when blocked.
    #[inline]
    fn rotate(&mut self, ev: &mut FrameEvents) {
        let pressed = self.s.pressed;
        let from = self.s.piece as usize;
        let to = if pressed & Buttons::A.bits() != 0 {
            ROTATE_A[from % 19]
        } else if pressed & Buttons::B.bits() != 0 {
            ROTATE_B[from % 19]
        } else {
            return;
        };
        if self.position_valid(to, self.s.x, self.s.y) {
            self.s.piece = to;
            ev.set(FrameEvents::ROTATED);
        }
    }

    /// `drop_tetrimino`: the first-piece countdown, soft drop and gravity.
    #[inline]
    fn drop(&mut self, ev: &mut FrameEvents) {
        let s = &mut self.s;
        let mut soft = false;
        if s.autorepeat_y & 0x80 != 0 {
            if s.pressed & DOWN == 0 {
                s.autorepeat_y = s.autorepeat_y.wrapping_add(1);
                return;
            }
            s.autorepeat_y = 0;
        }
        if s.autorepeat_y == 0 {
            if s.held & (LEFT | RIGHT) == 0 && s.pressed & DPAD == DOWN {
                s.autorepeat_y = 1;
            }
        } else if s.held & DPAD == DOWN {
            s.autorepeat_y = s.autorepeat_y.wrapping_add(1);
            if s.autorepeat_y >= 3 {
                s.autorepeat_y = 1;
                s.hold_down_points = s.hold_down_points.wrapping_add(1);
                soft = true;
            }
        } else {
            s.autorepeat_y = 0;
            s.hold_down_points = 0;
        }
        if !soft {
            let speed = s.region.gravity(s.level);
            if (s.fall_timer.wrapping_sub(speed) as i8) < 0 {
                return;
            }
        }
        self.s.fall_timer = 0;
        let y = self.s.y.wrapping_add(1);
        if self.position_valid(self.s.piece, self.s.x, y) {
            self.s.y = y;
            ev.set(FrameEvents::DROPPED);
            if soft {
                ev.set(FrameEvents::SOFT_DROPPED);
            }
        } else {
            self.s.play_state = 2;
            self.mark_rows_for_redraw();
            ev.set(FrameEvents::LANDED);
        }
    }

    /// `updatePlayfield`: move the screen-copy cursor up to two rows above the piece.
    #[inline]
    fn mark_rows_for_redraw(&mut self) {
        let s = &mut self.s;
        let m = s.y.wrapping_sub(2);
        let m = if (m as i8) < 0 { 0 } else { m };
        if (m.wrapping_sub(s.vram_row) as i8) < 0 {
            s.vram_row = m;
        }
    }

    #[inline]
    fn screen_copy_done(&self) -> bool {
        (self.s.vram_row.wrapping_sub(0x20) as i8) >= 0
    }

    /// `playState_lockTetrimino`: top-out test, then write the piece once the copy is done.
    fn lock(&mut self, ev: &mut FrameEvents) {
        if !self.position_valid(self.s.piece, self.s.x, self.s.y) {
            self.s.play_state = 10;
            self.s.curtain_row = 0xF0;
            ev.set(FrameEvents::TOPPED_OUT);
            return;
        }
        if !self.screen_copy_done() {
            return;
        }
        let s = &mut self.s;
        let base = s.y.wrapping_mul(10).wrapping_add(s.x);
        let tile = ORIENTATION_TILE[s.piece as usize % 20];
        for &(dr, dc) in &ORIENTATION_CELLS[s.piece as usize % 20] {
            let row_base = (dr as u8).wrapping_mul(10).wrapping_add(base);
            s.playfield.0[(dc as u8).wrapping_add(row_base) as usize] = tile;
        }
        s.line_index = 0;
        self.mark_rows_for_redraw();
        self.update_music_speed(ev);
        self.s.play_state = 3;
        ev.set(FrameEvents::LOCKED);
    }

    /// `updateMusicSpeed`: the music runs fast while row 5 holds a block.
    fn update_music_speed(&mut self, ev: &mut FrameEvents) {
        let s = &mut self.s;
        let stacked = s.playfield.0[50..60].iter().any(|&t| t != TILE_EMPTY);
        let fast = s.allegro != 0;
        if stacked != fast {
            s.allegro = if stacked { 0xFF } else { 0 };
            ev.set(FrameEvents::MUSIC_TEMPO);
        }
    }

    /// `playState_checkForCompletedRows`: one candidate row per frame.
    fn check_completed_rows(&mut self, ev: &mut FrameEvents) {
        if !self.screen_copy_done() {
            return;
        }
        let s = &mut self.s;
        let top = s.y.wrapping_sub(2);
        let top = if (top as i8) < 0 { 0 } else { top };
        let row = top.wrapping_add(s.line_index);
        let base = row.wrapping_mul(10);
        let li = s.line_index as usize & 3;
        let complete =
            (0..10u8).all(|c| s.playfield.0[base.wrapping_add(c) as usize] != TILE_EMPTY);
        if complete {
            s.completed_lines = s.completed_lines.wrapping_add(1);
            s.completed_row[li] = row;
            s.playfield.shift_down_from(row);
            s.piece = HIDDEN;
            ev.set(FrameEvents::ROW_COMPLETED);
        } else {
            s.completed_row[li] = 0;
        }
        s.line_index = s.line_index.wrapping_add(1);
        if (s.line_index.wrapping_sub(4) as i8) >= 0 {
            s.vram_row = 0;
            s.row_y = 0;
            s.play_state = if s.completed_lines != 0 { 4 } else { 5 };
        }
    }

    /// `playState_updateLinesAndStatistics`: lines, level, soft-drop and line points.
    fn update_lines_and_score(&mut self, ev: &mut FrameEvents) {
        self.update_music_speed(ev);
        let s = &mut self.s;
        let c = s.completed_lines;
        let score_before = s.score;
        if c != 0 {
            ev.set(FrameEvents::LINES_CLEARED);
            ev.lines_cleared = c;
            if c >= 4 {
                ev.set(FrameEvents::TETRIS);
            }
            bcd::increment_clear_count(&mut s.clears[(c as usize).wrapping_sub(1) & 3]);
            if s.game_type != 0 {
                bcd::decrement_lines(&mut s.lines, c);
            } else {
                for _ in 0..c {
                    bcd::increment_lines(&mut s.lines);
                    if s.lines[0] & 0x0F == 0 {
                        // The BCD tens and hundreds digits read as one hex byte.
                        let g = ((s.lines[1] as u16) << 8 | s.lines[0] as u16) >> 4;
                        if (s.level.wrapping_sub(g as u8) as i8) < 0 {
                            s.level = s.level.wrapping_add(1);
                            ev.set(FrameEvents::LEVEL_UP);
                        }
                    }
                }
            }
        }
        bcd::add_hold_down_points(&mut s.score, s.hold_down_points);
        s.hold_down_points = 0;
        let (lo, hi) = POINTS[c as usize % 5];
        // `levelNumber + 1` repetitions, 8-bit: level 255 repeats 256 times.
        let times = s.level as u16 + 1;
        for _ in 0..times {
            bcd::add_points_once(&mut s.score, lo, hi);
        }
        if s.score != score_before {
            ev.set(FrameEvents::SCORE_CHANGED);
        }
        s.completed_lines = 0;
        s.play_state = 6;
    }

    /// `playState_bTypeGoalCheck`.
    fn b_type_goal_check(&mut self, ev: &mut FrameEvents) -> bool {
        if self.s.game_type == 0 || self.s.lines[0] != 0 {
            self.s.play_state = 7;
            return false;
        }
        self.b_type_won(ev);
        true
    }

    /// `playState_spawnNextTetrimino`: waits for the screen copy, then spawns.
    fn spawn_next(&mut self, demo: &DemoData, ev: &mut FrameEvents) {
        if !self.screen_copy_done() {
            return;
        }
        let s = &mut self.s;
        s.fall_timer = 0;
        s.y = 0;
        s.play_state = 1;
        s.x = 5;
        let piece =
            SPAWN_TABLE[crate::tables::ORIENTATION_TYPE[s.next_piece as usize % 20] as usize];
        s.piece = piece;
        self.increment_piece_stat(piece);
        self.s.next_piece = self.choose_next_piece(demo);
        self.s.autorepeat_y = 0;
        ev.set(FrameEvents::SPAWNED);
    }

    /// `playState_updateGameOverCurtain`; true when it began the wait before an ending.
    fn update_curtain(&mut self, ev: &mut FrameEvents) -> bool {
        let s = &mut self.s;
        if s.curtain_row == 20 {
            self.curtain_finished(ev);
            return matches!(self.s.resume, Resume::Ending(_));
        }
        if s.frame_counter & 3 != 0 {
            return false;
        }
        if (s.curtain_row as i8) >= 0 {
            let base = s.curtain_row as usize * 10;
            s.playfield.0[base..base + 10].fill(TILE_CURTAIN);
            s.piece = HIDDEN;
            s.vram_row = s.curtain_row;
            ev.set(FrameEvents::CURTAIN_ROW);
        }
        s.curtain_row = s.curtain_row.wrapping_add(1);
        false
    }
}
