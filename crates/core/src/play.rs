//! The play states: piece control, lock, row check, scoring, spawn, curtain.
//!
//! Each function is one `playState` handler of the cartridge, run once per frame by the
//! player update (`gameModeState` 4). Comparisons follow the cartridge's signed or
//! unsigned tests where the difference shows at the edges.
//!
//! Each handler also returns the CPU cycles the cartridge spends on the path it took (see
//! [`crate::cycles_play`]); [`Game::update_player`] sums them into
//! [`crate::Cycles::player`].

use crate::bcd;
use crate::buttons::Buttons;
use crate::cycles_play as cy;
use crate::das_only::Shift;
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

/// Each cell's offset in the field from the piece's origin cell (`10 × row + column`, 8-bit
/// as the cartridge adds it), so the collision test reads a cell with one add.
const CELL_OFFSETS: [[u8; 4]; 32] = {
    let mut t = [[0u8; 4]; 32];
    let mut i = 0;
    while i < 32 {
        let mut k = 0;
        while k < 4 {
            let (dr, dc) = CELLS[i][k];
            t[i][k] = (dr as u8).wrapping_mul(10).wrapping_add(dc as u8);
            k += 1;
        }
        i += 1;
    }
    t
};

/// Per orientation, the cells with no cell of the piece right below them: the only ones
/// a one-row drop of a piece that fits can block (every other cell moves onto a byte a
/// cell of the piece tested, on the same row). Their offsets as [`CELL_OFFSETS`], how
/// many, and the lowest pivot row the orientation fits on (19 less its lowest cell's row;
/// every orientation has its pivot cell, so that cell is at or below the pivot). The
/// hidden piece and the ids past it: none, never used.
const LEADING: [([u8; 4], u8, u8); 32] = {
    let mut t = [([0u8; 4], 0u8, 0u8); 32];
    let mut i = 0;
    while i < 19 {
        let cells = CELLS[i];
        let (mut n, mut lowest) = (0, 0i8);
        let mut k = 0;
        while k < 4 {
            let (dr, dc) = cells[k];
            if dr > lowest {
                lowest = dr;
            }
            let mut covered = false;
            let mut j = 0;
            while j < 4 {
                covered |= cells[j].0 == dr + 1 && cells[j].1 == dc;
                j += 1;
            }
            if !covered {
                t[i].0[n] = CELL_OFFSETS[i][k];
                n += 1;
            }
            k += 1;
        }
        t[i].1 = n as u8;
        t[i].2 = (19 - lowest) as u8;
        i += 1;
    }
    t
};

/// `jsr branchOnPlayStatePlayer1`, `lda playState` and the dispatch (the same for every
/// `playState` 0..=11).
pub(crate) const BRANCH_ON_PLAY_STATE: u32 = cy::branch_on_play_state(0);

const LEFT: u8 = Buttons::LEFT.bits();
const RIGHT: u8 = Buttons::RIGHT.bits();
const DOWN: u8 = Buttons::DOWN.bits();
const DPAD: u8 = Buttons::DPAD.bits();

/// Whether an A-type game goes up a level on counting the line that made `lines` (BCD,
/// low byte first) at `level`: on every tenth line, when the line count's tens and
/// hundreds digits, read as one hex byte, exceed the level in a signed 8-bit compare.
/// Reading BCD as hex is why a game started at 10-15 first goes up at line 100, one
/// started at 16-19 at lines 110-140, and one started at 29 at line 200.
#[inline]
pub(crate) const fn levels_up(lines: [u8; 2], level: u8) -> bool {
    if lines[0] & 0x0F != 0 {
        return false;
    }
    let g = ((lines[1] as u16) << 8 | lines[0] as u16) >> 4;
    (level.wrapping_sub(g as u8) as i8) < 0
}

impl Game {
    /// `branchOnPlayStatePlayer1`, then the two sprite stagings; true when the handler began
    /// a wait (an ending). Sets `ev.cycles.player` when it returns false.
    #[inline(always)]
    pub(crate) fn update_player<const COUNT: bool>(
        &mut self,
        demo: &DemoData,
        ev: &mut FrameEvents,
    ) -> bool {
        let (waits, handler) = match self.s.play_state {
            0 => {
                self.s.piece = HIDDEN;
                (false, cy::UNASSIGN)
            }
            1 => {
                let shift = match &mut self.s.variant.das_only {
                    // The demo plays by the cartridge's rules (its inputs were recorded so).
                    Some(d) if self.s.game_mode != 5 => {
                        let pal = self.s.region == crate::Region::Pal;
                        match d.frame(self.s.pressed, self.s.held, pal) {
                            Shift::Normal => self.shift(ev),
                            Shift::Skip => 0,
                            Shift::CatchUp => self.shift(ev) + self.shift(ev) + self.shift(ev),
                        }
                    }
                    _ => self.shift(ev),
                };
                let c = cy::CONTROLS + shift + self.rotate(ev) + self.drop(ev);
                (false, c)
            }
            2 => (false, self.lock(ev)),
            3 => (false, self.check_completed_rows(ev)),
            5 => (false, self.update_lines_and_score::<COUNT>(ev)),
            6 => self.b_type_goal_check(ev),
            7 => {
                self.s.play_state = 8;
                (false, cy::RECEIVE_GARBAGE)
            }
            8 => (false, self.spawn_next(demo, ev)),
            10 => self.update_curtain(ev),
            11 => {
                self.s.play_state = self.s.play_state.wrapping_add(1);
                (false, cy::INCREMENT_PLAY_STATE)
            }
            // 4 and 9 are `playState_noop`; past 11 the cartridge's jump table runs into
            // code, which is not modelled (not a state a game reaches).
            _ => (false, cy::NOOP),
        };
        if waits {
            return true;
        }
        let c = self.around_handler(handler);
        if COUNT {
            ev.cycles.player = c as u16;
        }
        false
    }

    /// [`Game::update_player`] in the falling state with nothing pressed or held and the
    /// cartridge's shift rule: only gravity (or the first piece's countdown) acts. Returns
    /// the cycles `Cycles::player` counts.
    #[inline(always)]
    pub(crate) fn update_idle_player(&mut self, ev: &mut FrameEvents) -> u32 {
        let handler = cy::CONTROLS + cy::SHIFT_IDLE + cy::ROTATE_IDLE + self.drop(ev);
        self.around_handler(handler)
    }

    /// The player update's cycles around a `playState` handler of `handler` cycles: the
    /// dispatch, then the two sprite stagings (which it runs).
    #[inline(always)]
    fn around_handler(&mut self, handler: u32) -> u32 {
        BRANCH_ON_PLAY_STATE
            + handler
            + self.stage_piece_sprite()
            + cy::stage_next_piece(self.s.display_next_piece)
    }

    /// `stageSpriteForCurrentPiece` leaves the last mino's sprite row in `originalY`,
    /// which the level menu shows through for a few frames after a game. Returns its
    /// cycles with its `jsr`.
    #[inline]
    pub(crate) fn stage_piece_sprite(&mut self) -> u32 {
        let piece = self.s.piece;
        let y = self.s.y;
        let last = CELLS[piece as usize & 31][3].0 as u8;
        self.s.selecting = last
            .wrapping_mul(8)
            .wrapping_add(y.wrapping_mul(8))
            .wrapping_add(0x2F);
        piece_sprite_cycles(piece, y)
    }

    /// `isPositionValid`: may the piece stand at (x, y)? With the cycles of the routine (to
    /// its `rts`, without the `jsr`), which depend on the cell and the test where it stops.
    ///
    /// Rows -2 and -1 are allowed and read the bytes after the field.
    #[inline(always)]
    pub(crate) fn position_valid(&self, piece: u8, x: u8, y: u8) -> (bool, u32) {
        let p = piece as usize & 31;
        let base = y.wrapping_mul(10).wrapping_add(x);
        for (k, (&(dr, dc), &offset)) in CELLS[p].iter().zip(&CELL_OFFSETS[p]).enumerate() {
            // `clc / adc tetriminoY / adc #2`: the first add's carry goes into the second.
            let (row, carry) = (dr as u8).overflowing_add(y);
            if row.wrapping_add(2 + carry as u8) >= 22 {
                return (false, cy::FIT_FAIL[p][k][cy::Misfit::Row as usize] as u32);
            }
            if self.s.playfield.0[base.wrapping_add(offset) as usize] < TILE_EMPTY {
                return (false, cy::FIT_FAIL[p][k][cy::Misfit::Tile as usize] as u32);
            }
            if (dc as u8).wrapping_add(x) >= 10 {
                return (
                    false,
                    cy::FIT_FAIL[p][k][cy::Misfit::Column as usize] as u32,
                );
            }
        }
        (true, cy::FIT_OK[p] as u32)
    }

    /// `position_valid(piece, x, y + 1).0` for a piece (an orientation id below 19) that
    /// fits at (x, y) with y at most 19: on rows 0 to 19 the cartridge's row test fails
    /// only for a cell below row 19 (a cell above the pivot would need the pivot below
    /// the field), the columns stay, and of the tiles only the leading cells' ([`LEADING`])
    /// are new.
    #[inline(always)]
    pub(crate) fn drop_fits(&self, piece: u8, x: u8, y: u8) -> bool {
        debug_assert!(piece < 19 && y <= 19 && self.position_valid(piece, x, y).0);
        let (offsets, n, lowest) = LEADING[piece as usize & 31];
        let y = y.wrapping_add(1);
        if y > lowest {
            return false;
        }
        let base = y.wrapping_mul(10).wrapping_add(x);
        offsets
            .iter()
            .take(n as usize)
            .all(|&o| self.s.playfield.0[base.wrapping_add(o) as usize] >= TILE_EMPTY)
    }

    /// `shift_tetrimino`: DAS. Returns its cycles (body).
    #[inline(always)]
    pub(crate) fn shift(&mut self, ev: &mut FrameEvents) -> u32 {
        let held = self.s.held;
        if held & DOWN != 0 {
            return cy::SHIFT_DOWN_HELD;
        }
        let start = if self.s.pressed & (LEFT | RIGHT) != 0 {
            self.s.autorepeat_x = 0;
            cy::SHIFT_PRESSED
        } else {
            if held & (LEFT | RIGHT) == 0 {
                return cy::SHIFT_IDLE;
            }
            self.s.autorepeat_x = self.s.autorepeat_x.wrapping_add(1);
            if (self.s.autorepeat_x.wrapping_sub(self.s.region.das_limit()) as i8) < 0 {
                return cy::SHIFT_CHARGING;
            }
            self.s.autorepeat_x = self.s.region.das_repeat_start();
            cy::SHIFT_REPEAT
        };
        let x = self.s.x;
        let (new_x, moved, blocked) = if held & RIGHT != 0 {
            (
                x.wrapping_add(1),
                cy::SHIFT_RIGHT_OK,
                cy::SHIFT_RIGHT_BLOCKED,
            )
        } else if held & LEFT != 0 {
            (x.wrapping_sub(1), cy::SHIFT_LEFT_OK, cy::SHIFT_LEFT_BLOCKED)
        } else {
            return start + cy::SHIFT_NEITHER;
        };
        let (valid, fit) = self.position_valid(self.s.piece, new_x, self.s.y);
        if valid {
            self.s.x = new_x;
            ev.set(FrameEvents::SHIFTED);
            start + moved + fit
        } else {
            self.s.autorepeat_x = self.s.region.das_limit();
            start + blocked + fit
        }
    }

    /// `rotate_tetrimino`: A clockwise, else B counter-clockwise; undone when blocked.
    /// Returns its cycles (body).
    #[inline(always)]
    pub(crate) fn rotate(&mut self, ev: &mut FrameEvents) -> u32 {
        let pressed = self.s.pressed;
        let from = self.s.piece;
        let a = pressed & Buttons::A.bits() != 0;
        let to = if a {
            ROTATE_A[from as usize % 19]
        } else if pressed & Buttons::B.bits() != 0 {
            ROTATE_B[from as usize % 19]
        } else {
            return cy::ROTATE_IDLE;
        };
        let (valid, fit) = self.position_valid(to, self.s.x, self.s.y);
        if valid {
            self.s.piece = to;
            ev.set(FrameEvents::ROTATED);
        }
        cy::rotate(from, a, valid) + fit
    }

    /// `drop_tetrimino`: the first-piece countdown, soft drop and gravity, under a line
    /// cap's gravity rule if one is in force (see [`crate::Variant`]). Returns its cycles
    /// (body).
    #[inline(always)]
    fn drop(&mut self, ev: &mut FrameEvents) -> u32 {
        let s = &self.s;
        let (speed, double) = s.variant.gravity(s.region, s.level, s.lines);
        if !double {
            return self.drop_once(ev, speed);
        }
        // TetrisGYM's double killscreen: two drops with the timer full, then the frame's
        // own (whose timer the second drop has just reset).
        self.s.fall_timer = speed;
        let mut c = self.drop_once(ev, speed);
        self.s.fall_timer = speed;
        c += self.drop_once(ev, speed);
        c + self.drop_once(ev, speed)
    }

    /// One pass of `drop_tetrimino` with `speed` frames a row.
    #[inline(always)]
    pub(crate) fn drop_once(&mut self, ev: &mut FrameEvents, speed: u8) -> u32 {
        let s = &mut self.s;
        let mut soft = false;
        let mut c = if s.autorepeat_y & 0x80 != 0 {
            if s.pressed & DOWN == 0 {
                s.autorepeat_y = s.autorepeat_y.wrapping_add(1);
                return cy::DROP_COUNTDOWN;
            }
            s.autorepeat_y = 0;
            cy::DROP_START_PRESSED
        } else {
            cy::DROP_START
        };
        if s.autorepeat_y == 0 {
            c += if s.held & (LEFT | RIGHT) != 0 {
                cy::DROP_IDLE_SIDEWAYS
            } else if s.pressed & DPAD == DOWN {
                s.autorepeat_y = 1;
                cy::DROP_SOFT_START
            } else {
                cy::DROP_IDLE
            };
        } else if s.held & DPAD == DOWN {
            s.autorepeat_y = s.autorepeat_y.wrapping_add(1);
            if s.autorepeat_y >= 3 {
                s.autorepeat_y = 1;
                s.hold_down_points = s.hold_down_points.wrapping_add(1);
                soft = true;
                c += cy::DROP_SOFT_STEP;
            } else {
                c += cy::DROP_SOFT_WAIT;
            }
        } else {
            s.autorepeat_y = 0;
            s.hold_down_points = 0;
            c += cy::DROP_SOFT_RELEASED;
        }
        if !soft {
            let drops = (s.fall_timer.wrapping_sub(speed) as i8) >= 0;
            c += cy::drop_speed_lookup(s.level, drops);
            if !drops {
                return c;
            }
        }
        self.s.fall_timer = 0;
        let y = self.s.y.wrapping_add(1);
        let (valid, fit) = self.position_valid(self.s.piece, self.s.x, y);
        c += fit;
        if valid {
            self.s.y = y;
            ev.set(FrameEvents::DROPPED);
            if soft {
                ev.set(FrameEvents::SOFT_DROPPED);
            }
            c + cy::DROP_MOVED
        } else {
            self.s.play_state = 2;
            ev.set(FrameEvents::LANDED);
            c + cy::DROP_LANDED + self.mark_rows_for_redraw()
        }
    }

    /// `updatePlayfield`: move the screen-copy cursor up to two rows above the piece.
    /// Returns its cycles (body).
    #[inline]
    pub(crate) fn mark_rows_for_redraw(&mut self) -> u32 {
        let s = &mut self.s;
        let m = s.y.wrapping_sub(2);
        let clamped = (m as i8) < 0;
        let m = if clamped { 0 } else { m };
        let lowered = (m.wrapping_sub(s.vram_row) as i8) < 0;
        if lowered {
            s.vram_row = m;
        }
        cy::update_playfield(clamped, lowered)
    }

    #[inline]
    fn screen_copy_done(&self) -> bool {
        (self.s.vram_row.wrapping_sub(0x20) as i8) >= 0
    }

    /// `playState_lockTetrimino`: top-out test, then write the piece once the copy is done.
    /// Returns its cycles. Inlined (as the row check and the spawn are): in the update
    /// without the CPU's time the cycles and their tables are then dropped.
    #[inline(always)]
    fn lock(&mut self, ev: &mut FrameEvents) -> u32 {
        let (valid, fit) = self.position_valid(self.s.piece, self.s.x, self.s.y);
        if !valid {
            self.s.play_state = 10;
            self.s.curtain_row = 0xF0;
            ev.set(FrameEvents::TOPPED_OUT);
            return fit + cy::LOCK_TOP_OUT;
        }
        if !self.screen_copy_done() {
            return fit + cy::LOCK_WAIT;
        }
        let s = &mut self.s;
        // The last clear's picture has been redrawn (the spawn waited for it).
        s.cleared = crate::view::Cleared::default();
        let base = s.y.wrapping_mul(10).wrapping_add(s.x);
        let tile = ORIENTATION_TILE[s.piece as usize % 20];
        for &(dr, dc) in &ORIENTATION_CELLS[s.piece as usize % 20] {
            let row_base = (dr as u8).wrapping_mul(10).wrapping_add(base);
            s.playfield.0[(dc as u8).wrapping_add(row_base) as usize] = tile;
        }
        s.line_index = 0;
        let c = fit + cy::lock_write(s.piece);
        let c = c + self.mark_rows_for_redraw() + self.update_music_speed(ev);
        self.s.play_state = 3;
        ev.set(FrameEvents::LOCKED);
        c
    }

    /// `updateMusicSpeed`: the music runs fast while row 5 holds a block. Returns its
    /// cycles (body), which follow the scan of the row.
    fn update_music_speed(&mut self, ev: &mut FrameEvents) -> u32 {
        let s = &mut self.s;
        let found = s.playfield.0[50..60].iter().position(|&t| t != TILE_EMPTY);
        let stacked = found.is_some();
        let fast = s.allegro != 0;
        if stacked != fast {
            s.allegro = if stacked { 0xFF } else { 0 };
            ev.set(FrameEvents::MUSIC_TEMPO);
        }
        cy::update_music_speed(found, fast, s.game_mode == 5)
    }

    /// `playState_checkForCompletedRows`: one candidate row per frame. Returns its cycles.
    #[inline(always)]
    pub(crate) fn check_completed_rows(&mut self, ev: &mut FrameEvents) -> u32 {
        if !self.screen_copy_done() {
            return cy::ROWS_WAIT;
        }
        let s = &mut self.s;
        let top = s.y.wrapping_sub(2);
        let clamped = (top as i8) < 0;
        let top = if clamped { 0 } else { top };
        let row = top.wrapping_add(s.line_index);
        let base = row.wrapping_mul(10);
        let li = s.line_index as usize & 3;
        let mut c = cy::rows_start(clamped);
        let empty =
            (0..10u8).position(|col| s.playfield.0[base.wrapping_add(col) as usize] == TILE_EMPTY);
        if let Some(col) = empty {
            s.completed_row[li] = 0;
            c += cy::row_incomplete(col);
        } else {
            // The picture keeps the row until the animation is over.
            s.cleared.push(&s.playfield, row);
            s.completed_lines = s.completed_lines.wrapping_add(1);
            s.completed_row[li] = row;
            s.playfield.shift_down_from(row);
            s.piece = HIDDEN;
            ev.set(FrameEvents::ROW_COMPLETED);
            c += cy::row_complete(base);
        }
        s.line_index = s.line_index.wrapping_add(1);
        let last = (s.line_index.wrapping_sub(4) as i8) >= 0;
        if last {
            s.vram_row = 0;
            s.row_y = 0;
            s.play_state = if s.completed_lines != 0 { 4 } else { 5 };
            if s.completed_lines != 0 {
                ev.set(FrameEvents::CLEAR_STARTED);
            }
        }
        c + cy::rows_end(last, s.completed_lines)
    }

    /// `playState_updateLinesAndStatistics`: lines, level, soft-drop and line points.
    /// Returns its cycles.
    fn update_lines_and_score<const COUNT: bool>(&mut self, ev: &mut FrameEvents) -> u32 {
        let mut cycles = self.update_music_speed(ev);
        let s = &mut self.s;
        let c = s.completed_lines;
        let score_before = s.score;
        if c != 0 {
            ev.set(FrameEvents::LINES_CLEARED);
            ev.lines_cleared = c;
            if c >= 4 {
                ev.set(FrameEvents::TETRIS);
            }
            let count = &mut s.clears[(c as usize).wrapping_sub(1) & 3];
            cycles += cy::lines_counted(count.wrapping_add(1) & 0x0F >= 0x0A);
            bcd::increment_clear_count(count);
            if s.game_type != 0 {
                let v = s.lines[0].wrapping_sub(c);
                cycles += cy::lines_b_type((v as i8) < 0, v & 0x0F >= 0x0A);
                bcd::decrement_lines(&mut s.lines, c);
            } else {
                // The last pass's `bne incrementLines` falls through.
                cycles += cy::LINES_A_TYPE - 1;
                for _ in 0..c {
                    cycles += cy::increment_lines(s.lines[0], s.lines[1], s.level);
                    bcd::increment_lines(&mut s.lines);
                    if levels_up(s.lines, s.level) {
                        s.level = s.level.wrapping_add(1);
                        ev.set(FrameEvents::LEVEL_UP);
                    }
                }
            }
        } else {
            cycles += cy::LINES_NONE;
        }
        cycles += cy::hold_down_points(s.hold_down_points, s.score[0]);
        bcd::add_hold_down_points(&mut s.score, s.hold_down_points);
        s.hold_down_points = 0;
        let (lo, hi) = POINTS[c as usize % 5];
        // `levelNumber + 1` repetitions, 8-bit: level 255 repeats 256 times.
        let times = s.level as u16 + 1;
        cycles += cy::POINTS_OUTSIDE;
        if COUNT {
            cycles += cy::points_passes(&mut s.score, lo, hi, times);
        } else {
            // Up to 256 repetitions at the high levels; without the cycles, one sum.
            bcd::add_points(&mut s.score, lo, hi, times);
        }
        if s.score != score_before {
            ev.set(FrameEvents::SCORE_CHANGED);
        }
        s.completed_lines = 0;
        s.play_state = 6;
        if c != 0 && s.variant.caps != [None, None] {
            let lines = crate::variant::cap_lines(s.lines);
            if s.variant.halts(s.level, lines) {
                // A halting line cap: the game ends here, as a top-out does.
                s.play_state = 10;
                s.curtain_row = 0xF0;
                s.audio.play(crate::audio::SoundEffect::GameOverCurtain);
                s.audio.silence();
                ev.set(FrameEvents::TOPPED_OUT | FrameEvents::CAPPED);
            }
        }
        cycles
    }

    /// `playState_bTypeGoalCheck`: (waits, cycles); a won B-type game begins its ending.
    fn b_type_goal_check(&mut self, ev: &mut FrameEvents) -> (bool, u32) {
        if self.s.game_type == 0 || self.s.lines[0] != 0 {
            self.s.play_state = 7;
            return (false, cy::b_type_goal_check(self.s.game_type != 0));
        }
        self.b_type_won(ev);
        (true, 0)
    }

    /// `playState_spawnNextTetrimino`: waits for the screen copy, then spawns. Returns its
    /// cycles.
    #[inline(always)]
    fn spawn_next(&mut self, demo: &DemoData, ev: &mut FrameEvents) -> u32 {
        if !self.screen_copy_done() {
            return cy::SPAWN_WAIT;
        }
        let s = &mut self.s;
        s.fall_timer = 0;
        s.y = 0;
        s.play_state = 1;
        s.x = 5;
        if let Some(d) = &mut s.variant.das_only {
            d.start_piece();
        }
        let kind = crate::tables::ORIENTATION_TYPE[s.next_piece as usize % 20] as usize;
        let piece = SPAWN_TABLE[kind];
        s.piece = piece;
        let mut c = cy::SPAWN + cy::increment_piece_stat(s.stats[kind][0]);
        c += if s.game_mode == 5 {
            cy::CHOOSE_DEMO
        } else {
            cy::choose_random(s.rng, s.spawn_count, s.spawn_id)
        };
        self.increment_piece_stat(piece);
        self.s.next_piece = self.choose_next_piece(demo);
        self.s.autorepeat_y = 0;
        ev.set(FrameEvents::SPAWNED);
        c
    }

    /// `playState_updateGameOverCurtain`: (waits, cycles); it waits when it began the sleep
    /// before an ending.
    fn update_curtain(&mut self, ev: &mut FrameEvents) -> (bool, u32) {
        let s = &mut self.s;
        if s.curtain_row == 20 {
            let start = s.pressed == Buttons::START.bits();
            self.curtain_finished(ev);
            let waits = matches!(self.s.resume, Resume::Ending(_));
            return (waits, cy::curtain_finished(start));
        }
        if s.frame_counter & 3 != 0 {
            return (false, cy::CURTAIN_IDLE);
        }
        let drawn = (s.curtain_row as i8) >= 0;
        if drawn {
            let base = s.curtain_row as usize * 10;
            s.playfield.0[base..base + 10].fill(TILE_CURTAIN);
            s.piece = HIDDEN;
            s.vram_row = s.curtain_row;
            ev.set(FrameEvents::CURTAIN_ROW);
        }
        s.curtain_row = s.curtain_row.wrapping_add(1);
        (false, cy::curtain_step(drawn, s.curtain_row == 20))
    }
}

/// `stageSpriteForCurrentPiece`'s cycles with its `jsr` for `piece` with its pivot on row
/// `y`: the piece's own, less what the minos above the screen skip.
#[inline]
pub(crate) fn piece_sprite_cycles(piece: u8, y: u8) -> u32 {
    let mut c = cy::stage_current_piece(piece);
    // Only rows 0 and 1 (or rows no game reaches) can put a mino above the screen.
    if y.wrapping_sub(2) >= 24 {
        for (m, &(row, _)) in CELLS[piece as usize & 31].iter().enumerate() {
            if cy::mino_sprite_y(y, row) < 0x2F {
                c -= cy::hidden_mino_saves(piece, m);
            }
        }
    }
    c
}
