//! Runs of idle frames: many frames of a piece falling on its own, nothing pressed, in one
//! call ([`Game::fall_idle`]), and likewise the entry delay's frames that wait for the
//! playfield's copy to the screen ([`Game::wait_for_copy`]; in a game whose time is not
//! counted, the whole entry delay, [`Game::entry_delay`]) and the frames of a pause
//! (`Game::pause_frames`, through [`Game::run`]).
//!
//! A placement environment or a search that plays a placement knows its inputs in advance,
//! and most of a placement's frames, between its taps and after the last, are the piece
//! falling with nothing pressed. [`Game::step`] pays for each of those frames the tests
//! that pick its path, the gravity table's lookup and the sprite staging again. Here they
//! are paid once a run: the frame's work is the quiet short path's (interrupt counters,
//! gravity, sprite, sound update, clock; in a game whose time is not counted, the first
//! three) with what cannot change while the piece falls hoisted out of the loop. The game
//! and the events are those of as many `step(Buttons::NONE)` calls (the proptests below).

use crate::cycles::{
    self, AFTER_WAIT, IDLE_PLAY_PASSES, OAM_DMA, RENDER_PLAY_IDLE, UPDATE_PLAYER1,
};
use crate::cycles_play as cy;
use crate::events::FrameEvents;
use crate::flow::Resume;
use crate::game::{ends_pause, quiet_pause, Game, POLL_FLOOR};
use crate::lfsr::lfsr_step;
use crate::play::{piece_sprite_cycles, BRANCH_ON_PLAY_STATE};
use crate::timing::{Arrival, Phase, PHASE_WORK_LIMIT};

/// What a run of [`Game::fall_idle`] did.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct IdleRun {
    /// Frames run (each one `step(Buttons::NONE)`).
    pub frames: u32,
    /// The frames' event flags, OR-ed (`FrameEvents::DROPPED`, `FrameEvents::LANDED`).
    pub flags: u32,
    /// Lag frames among them (none, as such a frame's work ends far from the next
    /// interrupt; counted all the same).
    pub lag: u32,
    /// Lines cleared in them (only [`Game::entry_delay`]'s score frame clears any).
    pub lines: u32,
}

/// What a frame of a piece falling with nothing pressed changes besides the piece: the
/// interrupt's counters and the clock (`Game::fall_steady` keeps them in locals), the clock
/// as its [`Phase`]: every frame of a run ends waiting.
#[derive(Clone, Copy)]
struct Ticks {
    sleep: u8,
    frame_counter: u16,
    rng: u16,
    phase: Phase,
}

impl Ticks {
    /// The counters and the clock of a game whose last interrupt found the main loop
    /// waiting; `None` for any other clock (after a lag frame, its timing lost), whose
    /// frames then go one at a time.
    #[inline(always)]
    fn of(s: &crate::snapshot::Snapshot) -> Option<Ticks> {
        Some(Ticks {
            sleep: s.sleep_counter,
            frame_counter: s.frame_counter,
            rng: s.rng,
            phase: Phase::of(&s.clock)?,
        })
    }

    /// The interrupt's counters.
    #[inline(always)]
    fn tick(&mut self) {
        self.sleep = self.sleep.saturating_sub(1);
        self.frame_counter = self.frame_counter.wrapping_add(1);
        self.rng = lfsr_step(self.rng);
    }

    /// One frame whose main-loop work, but its wait's exit, is `work` cycles: the
    /// interrupt (its cycles from the counters before it), the counters, the clock. `Err`
    /// with the interrupt's cycles when the frame's work does not end waiting (the clock
    /// then as before it).
    #[inline(always)]
    fn frame(&mut self, work: u32) -> Result<(), u32> {
        self.frame_rendering(RENDER_PLAY_IDLE, work)
    }

    /// [`Ticks::frame`] with the interrupt's render taking `render` cycles.
    #[inline(always)]
    fn frame_rendering(&mut self, render: u32, work: u32) -> Result<(), u32> {
        let (nmi, dma_at) = cycles::nmi_cycles(self.sleep, self.rng, render);
        if nmi + work > PHASE_WORK_LIMIT {
            return self.long_frame(nmi, dma_at, work);
        }
        self.tick();
        self.phase = self.phase.next(dma_at, nmi + work);
        Ok(())
    }

    /// `n` frames, each of `work` cycles after its interrupt (rendering nothing), that all
    /// end waiting: [`Ticks::frame`] `n` times. With the sleep counter run out (as in play)
    /// two frames differ only by the generator's cycle, so the clock moves by one of two
    /// rows of its table. `Err` with the frame that could not be placed (from 0) and its
    /// interrupt's cycles, the frames before it run.
    #[inline(always)]
    fn same_frames(&mut self, n: u32, work: u32) -> Result<(), (u32, u32)> {
        let (nmi, dma_at) = cycles::nmi_cycles(0, 0, RENDER_PLAY_IDLE);
        if self.sleep != 0 || nmi + 1 + work > PHASE_WORK_LIMIT {
            for k in 0..n {
                self.frame(work).map_err(|nmi| (k, nmi))?;
            }
            return Ok(());
        }
        let moves = Phase::moves(dma_at, nmi + work);
        let (mut rng, mut phase) = (self.rng, self.phase);
        for _ in 0..n {
            phase = Phase::from_move(moves[cycles::lfsr_extra(rng) as usize][phase.index()]);
            rng = lfsr_step(rng);
        }
        (self.rng, self.phase) = (rng, phase);
        self.frame_counter = self.frame_counter.wrapping_add(n as u16);
        Ok(())
    }

    /// [`Ticks::frame_rendering`] for a frame too long for the phase's table (none in a
    /// run's guards): the clock's own arithmetic.
    #[cold]
    fn long_frame(&mut self, nmi: u32, dma_at: u32, work: u32) -> Result<(), u32> {
        let mut clock = self.phase.clock();
        let nmi = nmi + OAM_DMA[((clock.odd_cycle as u32 ^ dma_at) & 1) as usize];
        self.tick();
        let total = nmi + cycles::wait_exit(clock.after_load) + work;
        match clock.advance(total) {
            Arrival::Waiting => {
                self.phase = Phase::of(&clock).expect("a frame that ends waiting has a phase");
                Ok(())
            }
            Arrival::DuringWork => Err(nmi),
        }
    }

    /// The wait's exit after the last interrupt: part of a frame the run could not place.
    #[inline(always)]
    fn wait_exit(&self) -> u32 {
        cycles::wait_exit(self.phase.clock().after_load)
    }
}

/// Whether a frame with the pad `now` (after `held`) leaves the plain play frame's path:
/// Start or Select newly pressed (the pause, the preview), the pad 7 (which stops the
/// frame's passes at the render pass) or `$F0` (the reset).
#[inline(always)]
fn other_path(now: u8, held: u8) -> bool {
    const START_SELECT: u8 = crate::Buttons::START.bits() | crate::Buttons::SELECT.bits();
    (now & !held) & START_SELECT != 0 || now == 0xF0 || now == 7
}

/// A play frame that the main loop runs as usual (not reset, paused, interrupted or ending),
/// the interrupt on, with nothing to redraw: what every run here needs of the game.
#[inline(always)]
fn in_plain_play(s: &crate::snapshot::Snapshot) -> bool {
    matches!(s.resume, Resume::MainLoop)
        && s.flow.nmi_off_frames == 0
        && s.game_mode == 4
        && s.game_mode_state == 2
        && s.render_mode == 3
        && s.render_flags == 0
}

impl Game {
    /// Runs up to `max_frames` frames with nothing pressed while each is a frame of the piece
    /// falling on its own: the screen copy done, nothing to redraw, no tetris flash, no
    /// double killscreen, not the DAS-only variant, and in a game whose CPU time is counted,
    /// nothing left of the clock's last frame. Stops before the first frame that is not
    /// one, so after the frame the piece lands in, and runs none when the game is not
    /// falling so now. The game
    /// after it and the OR of the events are those of as many calls of
    /// `step(Buttons::NONE)`; the frames' other event fields (cycles) are not kept.
    pub fn fall_idle(&mut self, max_frames: u32) -> IdleRun {
        let mut run = IdleRun::default();
        let s = &self.s;
        // The play state and the copy first: most frames a caller asks about fail there,
        // before the gravity's lookup.
        if max_frames == 0
            || s.play_state != 1
            || s.vram_row != 0x20
            || !in_plain_play(s)
            || s.completed_lines == 4
            || s.variant.das_only.is_some()
        {
            return run;
        }
        let (speed, double) = s.variant.gravity(s.region, s.level, s.lines);
        if double {
            return run;
        }
        if !s.clock.known {
            return self.fall_idle_uncounted(max_frames, speed);
        }
        if s.clock.pending != 0 || s.clock.first_poll_end() <= POLL_FLOOR {
            return run;
        }
        // The player update but the drop and the piece's sprite; the passes around it.
        let around = BRANCH_ON_PLAY_STATE
            + cy::CONTROLS
            + cy::SHIFT_IDLE
            + cy::ROTATE_IDLE
            + cy::stage_next_piece(s.display_next_piece);
        const PASSES: u32 = AFTER_WAIT + IDLE_PLAY_PASSES + UPDATE_PLAYER1;
        if s.autorepeat_y == 0 || s.autorepeat_y & 0x80 != 0 {
            self.fall_steady(max_frames, speed, PASSES + around, &mut run);
        }
        // The piece's sprite staging by the row it was staged at: the same row stages the
        // same sprite in the same cycles.
        let mut staged: Option<(u8, u32)> = None;
        while run.frames < max_frames {
            let s = &self.s;
            // The clock's other tests hold from frame to frame: a frame that ends waiting
            // leaves the next handler 25-33 dots after its signal (the first poll then far
            // above the floor) and nothing pending.
            debug_assert!(s.clock.pending == 0 && s.clock.first_poll_end() > POLL_FLOOR);
            if s.play_state != 1 || !s.clock.known {
                break;
            }
            let mut ev = FrameEvents::default();
            let (nmi, dma_at) = cycles::nmi_with_render(s, RENDER_PLAY_IDLE);
            let parity = (s.clock.odd_cycle as u32 ^ dma_at) & 1;
            ev.cycles.nmi = (nmi + OAM_DMA[parity as usize]) as u16;
            let after_load = s.clock.after_load;
            // (These three stores stay in the loop: hoisted out of it the run compiled to
            // more instructions, 29,111 against 28,833 a placement step.)
            self.s.flow.nmi_off_this_frame = false;
            self.tick_counters();
            self.s.pressed = 0;
            self.s.held = 0;
            self.s.fall_timer = self.s.fall_timer.wrapping_add(1);
            let drop = self.drop_once(&mut ev, speed);
            let sprite = match staged {
                Some((y, c)) if y == self.s.y => c,
                _ => {
                    let c = self.stage_piece_sprite();
                    staged = Some((self.s.y, c));
                    c
                }
            };
            let player = around + drop + sprite;
            let u = self.s.audio.update(None);
            let audio = 6 + u.cycles;
            ev.cycles.known = u.exact;
            ev.cycles.work = (cycles::wait_exit(after_load) + PASSES + player + audio) as u16;
            self.count_time(&mut ev);
            run.frames += 1;
            run.flags |= ev.flags;
            run.lag += ev.has(FrameEvents::LAG) as u32;
        }
        run
    }

    /// The counted run's frames up to the one the piece lands in (which the caller's loop
    /// runs), `autorepeatY` 0 or the first piece's wait (negative): with nothing pressed
    /// such a frame's work is a constant by whether the piece drops (its position test's
    /// and its sprite's cycles added), so the frame is the counters, the fall timer, the
    /// sound update and the clock, kept in locals, the piece tested only when it drops;
    /// with the sound engine silent, the frames up to the next drop are a loop of the
    /// counters and the clock alone. `fixed` is the frame's cycles that never change (the
    /// passes and the player update around the drop). Adds its frames and flags to `run`.
    #[inline(never)]
    fn fall_steady(&mut self, max_frames: u32, speed: u8, fixed: u32, run: &mut IdleRun) {
        let s = &self.s;
        let (piece, x) = (s.piece, s.x);
        let (mut fall_timer, mut y, mut countdown) = (s.fall_timer, s.y, s.autorepeat_y);
        let Some(mut t) = Ticks::of(s) else {
            // The caller's loop runs the frames.
            return;
        };
        // `drop_tetrimino` with nothing pressed: to the speed test, and on by whether the
        // piece drops (then without its position test).
        let idle = fixed + cy::DROP_START + cy::DROP_IDLE + 6;
        let still = idle + cy::drop_speed_lookup(s.level, false);
        let moved = idle + cy::drop_speed_lookup(s.level, true) + cy::DROP_MOVED;
        // The first piece's wait (`autorepeatY` counting up from negative).
        let waiting = fixed + 6 + cy::DROP_COUNTDOWN;
        let mut sprite = piece_sprite_cycles(piece, y);
        // The silent engine's update, once one has run (it then changes nothing).
        let mut quiet: Option<u32> = None;
        let left = max_frames - run.frames;
        let (mut frames, mut flags) = (0u32, 0u32);
        // A frame whose clock this loop does not place (never, with the guards above; then
        // counted as `Game::count_time` counts it).
        let mut unplaced = None;
        // The sound engine played music whose data it does not have: the time is lost.
        let mut lost = false;
        while frames < left {
            let ft = fall_timer.wrapping_add(1);
            let wait = ft.wrapping_sub(speed) as i8;
            if let (Some(audio), 0) = (quiet, countdown) {
                // Silent and past the first piece's wait: to the landing, the frames before
                // each drop are the same work each, and a drop's frame is its position test.
                let mut wait = wait;
                loop {
                    if wait < 0 {
                        let n = (u32::from(wait.unsigned_abs())).min(left - frames);
                        let work = still + sprite + audio;
                        if let Err((k, nmi)) = t.same_frames(n, work) {
                            unplaced = Some((nmi, work + t.wait_exit()));
                            frames += k + 1;
                            fall_timer = fall_timer.wrapping_add(k as u8 + 1);
                            break;
                        }
                        frames += n;
                        fall_timer = fall_timer.wrapping_add(n as u8);
                        if frames >= left {
                            break;
                        }
                    }
                    let Some(fit) = self.fall_row(piece, x, &mut y, &mut sprite) else {
                        // The landing: the caller's loop runs it.
                        break;
                    };
                    fall_timer = 0;
                    flags |= FrameEvents::DROPPED;
                    frames += 1;
                    let work = moved + fit + sprite + audio;
                    if let Err(nmi) = t.frame(work) {
                        unplaced = Some((nmi, work + t.wait_exit()));
                        break;
                    }
                    if frames >= left {
                        break;
                    }
                    wait = 1u8.wrapping_sub(speed) as i8;
                }
                break;
            }
            let player = if countdown & 0x80 != 0 {
                countdown = countdown.wrapping_add(1);
                fall_timer = ft;
                waiting + sprite
            } else if wait >= 0 {
                let Some(fit) = self.fall_row(piece, x, &mut y, &mut sprite) else {
                    // The landing: the caller's loop runs it.
                    break;
                };
                fall_timer = 0;
                flags |= FrameEvents::DROPPED;
                moved + fit + sprite
            } else {
                fall_timer = ft;
                still + sprite
            };
            let audio = match quiet {
                Some(audio) => audio,
                None => {
                    // The update runs after the interrupt: the order does not matter, as
                    // neither touches the other's state.
                    let silent = self.s.audio.is_silent();
                    let u = self.s.audio.update(None);
                    if !u.exact {
                        // Music without its data: the timing is lost from this frame on.
                        t.tick();
                        lost = true;
                        frames += 1;
                        break;
                    }
                    if silent {
                        quiet = Some(u.cycles);
                    }
                    u.cycles
                }
            };
            frames += 1;
            if let Err(nmi) = t.frame(player + audio) {
                unplaced = Some((nmi, player + audio + t.wait_exit()));
                break;
            }
        }
        if frames == 0 {
            return;
        }
        let s = &mut self.s;
        (s.sleep_counter, s.frame_counter, s.rng) = (t.sleep, t.frame_counter, t.rng);
        (s.fall_timer, s.y, s.clock) = (fall_timer, y, t.phase.clock());
        s.clock.known = !lost;
        s.autorepeat_y = countdown;
        s.flow.nmi_off_this_frame = false;
        s.pressed = 0;
        s.held = 0;
        self.stage_piece_sprite();
        if let Some((nmi, work)) = unplaced {
            let ev = self.place_frame(nmi, work);
            flags |= ev.flags;
            run.lag += ev.has(FrameEvents::LAG) as u32;
        }
        run.frames += frames;
        run.flags |= flags;
    }

    /// A falling run's drop of the piece at row `y`: `None` where it lands; else its
    /// position test's cycles, with `y` the row below and `sprite` that row's staging.
    #[inline(always)]
    fn fall_row(&self, piece: u8, x: u8, y: &mut u8, sprite: &mut u32) -> Option<u32> {
        let (valid, fit) = self.position_valid(piece, x, y.wrapping_add(1));
        if !valid {
            return None;
        }
        *y = y.wrapping_add(1);
        if !(3..26).contains(y) {
            // (From row 2 to 25 no mino is above the screen: the cycles stay.)
            *sprite = piece_sprite_cycles(piece, *y);
        }
        Some(fit)
    }

    /// Runs the frames of `inputs`, from the first, while each is a frame of the piece
    /// under control in a game whose time is not counted (the lag and crash model off, a
    /// variant's rules, B-type, PAL, the music on without the cartridge's): no tetris flash,
    /// no double killscreen, not the DAS-only variant. Stops before a frame that newly
    /// presses Start or Select or holds the pads 7 or `$F0` (each takes another path through
    /// the frame) and before two frames with nothing pressed (past the first frame: such
    /// stretches are [`Game::fall_idle`]'s), and after the frame the piece lands in; runs
    /// none when the game is not so now. The game after it and the OR of the events are
    /// those of as many `step` calls with those buttons; the frames' other event fields are
    /// not kept.
    ///
    /// Such a frame is the interrupt's render (mostly nothing), the pad, the fall timer, the
    /// shift, the rotation and the drop: the interrupt's counters, the clock's stores and the
    /// piece's sprite are made once, after the last (nothing in between reads them).
    pub fn control_frames(&mut self, inputs: &[crate::Buttons]) -> IdleRun {
        let len = inputs.len();
        let pad = |k: usize| inputs[k].0;
        let mut run = IdleRun::default();
        if len == 0 || !self.control_ok() || other_path(pad(0), self.s.held) {
            return run;
        }
        let s = &self.s;
        let (speed, double) = s.variant.gravity(s.region, s.level, s.lines);
        if double {
            return run;
        }
        let mut ev = FrameEvents::default();
        let mut n = 0;
        while n < len {
            let now = pad(n);
            let s = &mut self.s;
            if other_path(now, s.held) || now == 0 && n > 0 && n + 1 < len && pad(n + 1) == 0 {
                // (A stretch of no input from here: `fall_idle`'s.)
                break;
            }
            let pressed = now & !s.held;
            if s.render_flags != 0 || s.vram_row != 0x20 {
                // The interrupt's: what is left to redraw (the statistics after a spawn
                // most often), the screen copy's rows (after the first piece's spawn).
                self.render_play(&mut ev);
            }
            let s = &mut self.s;
            s.pressed = pressed;
            s.held = now;
            // (`pass_two`'s count; past the first, the render and the passes change
            // nothing here.)
            s.fall_timer = s.fall_timer.wrapping_add(1);
            self.shift(&mut ev);
            self.rotate(&mut ev);
            self.drop_once(&mut ev, speed);
            n += 1;
            if self.s.play_state != 1 {
                break;
            }
        }
        if n > 0 {
            self.advance_counters(n);
            let s = &mut self.s;
            s.clock.pending = 0;
            s.flow.nmi_off_this_frame = false;
            self.stage_piece_sprite();
        }
        run.frames = n as u32;
        run.flags = ev.flags;
        run
    }

    /// The tests of [`Game::control_frames`] but the double killscreen's.
    #[inline(always)]
    fn control_ok(&self) -> bool {
        let s = &self.s;
        !(s.clock.known
            || s.play_state != 1
            || s.vram_row >= 0x80
            || !matches!(s.resume, Resume::MainLoop)
            || s.flow.nmi_off_frames != 0
            || s.game_mode != 4
            || s.game_mode_state != 2
            || s.render_mode != 3
            || s.completed_lines == 4
            || s.variant.das_only.is_some())
    }

    /// [`Game::fall_idle`] in a game whose time is not counted (the lag and crash model
    /// off, a variant's rules, B-type, PAL, or the music on without the cartridge's): there
    /// a frame changes neither the clock nor the sound engine (see `Game::step_with`), so a
    /// falling frame is the counters, the gravity and the sprite's row, and the frames
    /// between two drops are run as one.
    /// (Out of line: inlined, it cost the counted run's loop instructions.)
    #[inline(never)]
    fn fall_idle_uncounted(&mut self, max_frames: u32, speed: u8) -> IdleRun {
        let mut run = IdleRun::default();
        // What the plain play frame leaves there every frame.
        let s = &mut self.s;
        s.clock.pending = 0;
        s.flow.nmi_off_this_frame = false;
        s.pressed = 0;
        s.held = 0;
        if max_frames == 1 {
            // One frame (the stretches between a tapping pattern's presses), as the
            // cartridge runs it: cheaper than the rows' closed form for a frame.
            self.tick_counters();
            self.s.fall_timer = self.s.fall_timer.wrapping_add(1);
            let mut ev = FrameEvents::default();
            self.drop_once(&mut ev, speed);
            self.stage_piece_sprite();
            run.frames = 1;
            run.flags = ev.flags;
            return run;
        }
        // The frames come a row at a time: between two drops a frame only counts (the
        // interrupt's counters and the fall timer), so those are added up and only the
        // frame that drops runs. The counters are set at the end: no frame reads them.
        let mut frames = 0;
        while frames < max_frames && self.s.play_state == 1 {
            let s = &mut self.s;
            let ary = s.autorepeat_y;
            if ary & 0x80 != 0 {
                // The first piece's countdown: a frame counts it up to 0, and nothing drops.
                let n = (256 - u32::from(ary)).min(max_frames - frames);
                s.autorepeat_y = ary.wrapping_add(n as u8);
                s.fall_timer = s.fall_timer.wrapping_add(n as u8);
                frames += n;
                continue;
            }
            if ary == 0 {
                // Gravity alone (nothing held, no soft drop): between two drops a frame only
                // counts, and a drop is the position test of the row below. Row after row
                // to the landing or the run's end.
                let (piece, x) = (s.piece, s.x);
                let (mut ft, mut y) = (s.fall_timer, s.y);
                let mut landed = false;
                // A piece that fits on the field drops by its leading cells' test; any
                // other (a hand-made state) by the whole one.
                let leading = piece < 19 && y <= 19 && self.position_valid(piece, x, y).0;
                loop {
                    // The frames to the next one that drops: the first whose timer,
                    // counted up, reaches the speed (a signed test, as the cartridge's).
                    let m = ft.wrapping_add(1).wrapping_sub(speed);
                    let k = if (m as i8) >= 0 {
                        1
                    } else {
                        257 - u32::from(m)
                    };
                    if k > max_frames - frames {
                        ft = ft.wrapping_add((max_frames - frames) as u8);
                        frames = max_frames;
                        break;
                    }
                    frames += k;
                    ft = 0;
                    let fits = if leading {
                        self.drop_fits(piece, x, y)
                    } else {
                        self.position_valid(piece, x, y.wrapping_add(1)).0
                    };
                    if fits {
                        y = y.wrapping_add(1);
                        run.flags |= FrameEvents::DROPPED;
                    } else {
                        landed = true;
                        break;
                    }
                }
                let s = &mut self.s;
                s.fall_timer = ft;
                s.y = y;
                if landed {
                    s.play_state = 2;
                    run.flags |= FrameEvents::LANDED;
                    self.mark_rows_for_redraw();
                }
                break;
            }
            // A frame after a released Down (`autorepeatY` not 0): the drop routine runs
            // (and clears it), then gravity alone.
            s.fall_timer = s.fall_timer.wrapping_add(1);
            let mut ev = FrameEvents::default();
            self.drop_once(&mut ev, speed);
            frames += 1;
            run.flags |= ev.flags;
        }
        if frames > 0 {
            self.advance_counters(frames as usize);
            self.stage_piece_sprite();
        }
        run.frames = frames;
        run
    }

    /// Runs up to `max_frames` frames with nothing pressed while each is a frame of the
    /// entry delay waiting for the playfield's copy to the screen: the lock (2), the row
    /// check (3) or the spawn (8) waiting, with the copy still not done after the frame's
    /// interrupt, nothing to redraw, no tetris flash, and in a game whose CPU time is
    /// counted, nothing left of the clock's last frame. Such a frame changes only the
    /// interrupt's counters, the copy cursor, the fall timer and the pad (and, counted, the
    /// sound engine and the clock), and its work is a constant of the state and the piece:
    /// the frames are those and the clock, run in a loop. Runs none when the game is not
    /// waiting so now (the lock's top-out test failing included). The game after it and
    /// the OR of the events are those of as many calls of `step(Buttons::NONE)`; the
    /// frames' other event fields (cycles) are not kept.
    #[inline(always)]
    pub fn wait_for_copy(&mut self, max_frames: u32) -> IdleRun {
        // Most frames a caller asks about are not waiting: two tests, not a call.
        let s = &self.s;
        if !matches!(s.play_state, 2 | 3 | 8) || s.vram_row >= 16 {
            return IdleRun::default();
        }
        self.wait_frames(max_frames)
    }

    /// Runs up to `max_frames` frames with nothing pressed through the entry delay: in an
    /// A-type game whose time is not counted, from the lock (play state 2) through the row
    /// check (3), a clear's animation (4, a tetris's flash included), the score (5), the
    /// goal check (6), the garbage step (7) and the spawn (8), the waits for the copy
    /// included, to the frame after which the next piece is under control or the game ends
    /// (a top-out, a halting line cap): that frame is the last run. In a counted game or a
    /// B-type game (whose goal check may end it) it is [`Game::wait_for_copy`]. The game after it
    /// and the OR of the events (flags; lines cleared added) are those of as many
    /// `step(Buttons::NONE)` calls; runs none when the game is not in the entry delay so now.
    pub fn entry_delay(&mut self, max_frames: u32) -> IdleRun {
        if !self.entry_delay_uncounted_ok() {
            return self.wait_for_copy(max_frames);
        }
        self.entry_delay_uncounted::<false>(max_frames as usize, |_| 0)
    }

    /// [`Game::entry_delay`] with the buttons of each frame: in a game whose time is not
    /// counted, the frames of `inputs` from the first while they are the entry delay's (no
    /// handler there reads the pad), up to a frame that newly presses Start or Select or
    /// holds the pads 7 or `$F0` (each takes another path through the frame); none in a
    /// counted game or a B-type game. The game after it and the OR of the
    /// events are those of as many `step` calls with those buttons.
    pub fn entry_delay_with(&mut self, inputs: &[crate::Buttons]) -> IdleRun {
        if !self.entry_delay_uncounted_ok() {
            return IdleRun::default();
        }
        self.entry_delay_uncounted::<true>(inputs.len(), |k| inputs[k].0)
    }

    /// The frame `Game::step` takes to `plain_play_frame` in the states whose handler
    /// neither reads the pad nor begins a wait; nothing in those states changes these tests
    /// but the handlers' leaving them.
    #[inline(always)]
    fn entry_delay_uncounted_ok(&self) -> bool {
        let s = &self.s;
        !(s.clock.known
            || s.game_type != 0
            || !matches!(s.play_state, 2..=8)
            || !matches!(s.resume, Resume::MainLoop)
            || s.flow.nmi_off_frames != 0
            || s.game_mode != 4
            || s.game_mode_state != 2
            || s.render_mode != 3)
    }

    /// [`Game::entry_delay`] once its tests have passed: the frames of `plain_play_frame`,
    /// the interrupt's counters kept back until a handler reads them (the spawn's pick) or
    /// the run ends, the pad's and the clock's stores made once. `pad(k)` is frame k's
    /// buttons (nothing pressed without `PADS`), `len` the frames at most.
    #[inline(never)]
    fn entry_delay_uncounted<const PADS: bool>(
        &mut self,
        len: usize,
        pad: impl Fn(usize) -> u8,
    ) -> IdleRun {
        let max_frames = len.min(u32::MAX as usize) as u32;
        let mut run = IdleRun::default();
        // The pad as the frames leave it (no handler here reads it).
        let (mut pressed, mut held) = (self.s.pressed, self.s.held);
        // Of the `want` frames from `from` on, how many come before the first whose pad
        // takes another path; their pads taken.
        let mut plain = |from: u32, want: u32| -> u32 {
            if !PADS {
                (pressed, held) = (0, 0);
                return want;
            }
            let mut n = 0;
            while n < want {
                let now = pad((from + n) as usize);
                if other_path(now, held) {
                    break;
                }
                (pressed, held) = (now & !held, now);
                n += 1;
            }
            n
        };
        let mut counters = 0;
        while run.frames < max_frames {
            let s = &self.s;
            if matches!(s.play_state, 2 | 3 | 8)
                && s.vram_row < 16
                && s.render_flags == 0
                && s.completed_lines != 4
                && (s.play_state != 2 || self.position_valid(s.piece, s.x, s.y).0)
            {
                // The frames whose interrupt leaves the copy short of its end (four rows
                // each), as `wait_frames` runs them uncounted, without its tests (calling
                // it cost 1% of a placement step): the handler waits (the lock's test
                // passing every time, as the piece stays), so a frame is the copy cursor,
                // the counters, the fall timer and the sprite of the same piece on the
                // same row.
                let k = (16 - u32::from(s.vram_row))
                    .div_ceil(4)
                    .min(max_frames - run.frames);
                let k = plain(run.frames, k);
                if k == 0 {
                    break;
                }
                let s = &mut self.s;
                s.vram_row += 4 * k as u8;
                s.fall_timer = s.fall_timer.wrapping_add(k as u8);
                self.stage_piece_sprite();
                counters += k as usize;
                run.frames += k;
                continue;
            }
            if s.play_state == 3
                && (16..0x80).contains(&s.vram_row)
                && s.render_flags == 0
                && s.completed_lines != 4
            {
                // The row check with the copy's last rows sent by this frame's interrupt
                // or before, nothing to redraw: a frame is the copy's end, the counters,
                // the fall timer and one candidate row (the sprite staged once, after the
                // last).
                let mut ev = FrameEvents::default();
                while run.frames < max_frames && self.s.play_state == 3 && plain(run.frames, 1) == 1
                {
                    if self.s.vram_row <= 20 {
                        self.s.vram_row = 0x20;
                    }
                    counters += 1;
                    self.s.fall_timer = self.s.fall_timer.wrapping_add(1);
                    self.check_completed_rows(&mut ev);
                    run.frames += 1;
                }
                self.stage_piece_sprite();
                run.flags |= ev.flags;
                if self.s.play_state == 3 {
                    // Frames left to check, or a pad that ends the run: the caller's.
                    break;
                }
                continue;
            }
            if plain(run.frames, 1) == 0 {
                break;
            }
            let mut ev = FrameEvents::default();
            if self.s.play_state == 4 || self.s.completed_lines == 4 {
                // The clear's animation steps, and a tetris's flash sounds, by the frame
                // counter: the counters are brought up to date first.
                self.advance_counters(counters);
                counters = 0;
                self.render_play_frame(&mut ev);
            } else {
                self.render_play(&mut ev);
            }
            counters += 1;
            self.s.fall_timer = self.s.fall_timer.wrapping_add(1);
            if self.s.play_state == 8 {
                // The spawn picks the next piece from the generator.
                self.advance_counters(counters);
                counters = 0;
            }
            let waits = self.player_update::<false>(&crate::DemoData::BUILTIN, None, &mut ev);
            debug_assert!(!waits, "an A-type game's entry delay began a wait");
            run.frames += 1;
            run.flags |= ev.flags;
            run.lines += u32::from(ev.lines_cleared);
            if !matches!(self.s.play_state, 2..=8) {
                break;
            }
        }
        if run.frames > 0 {
            self.advance_counters(counters);
            let s = &mut self.s;
            (s.pressed, s.held) = (pressed, held);
            s.clock.pending = 0;
            s.flow.nmi_off_this_frame = false;
        }
        run
    }

    /// [`Game::wait_for_copy`] once its play state and copy cursor have been tested.
    #[inline(never)]
    fn wait_frames(&mut self, max_frames: u32) -> IdleRun {
        let mut run = IdleRun::default();
        let s = &self.s;
        debug_assert!(matches!(s.play_state, 2 | 3 | 8) && s.vram_row < 16);
        if max_frames == 0 || !in_plain_play(s) || s.completed_lines == 4 {
            return run;
        }
        let handler = match s.play_state {
            2 => {
                let (valid, fit) = self.position_valid(s.piece, s.x, s.y);
                if !valid {
                    // The frame tops out: not a waiting one.
                    return run;
                }
                fit + cy::LOCK_WAIT
            }
            3 => cy::ROWS_WAIT,
            _ => cy::SPAWN_WAIT,
        };
        let counted = s.clock.known;
        if counted && (s.clock.pending != 0 || s.clock.first_poll_end() <= POLL_FLOOR) {
            return run;
        }
        // The frames whose interrupt leaves the copy short of its end (four rows each).
        let waits = (16 - u32::from(s.vram_row)).div_ceil(4).min(max_frames);
        let mut v = s.vram_row;
        // A frame whose clock this loop does not place, as in `fall_steady`.
        let mut unplaced = None;
        let mut frames = 0;
        if counted {
            let Some(mut t) = Ticks::of(s) else {
                // The caller runs the frames.
                return run;
            };
            // The same piece on the same row every frame: the same sprite, in the same cycles.
            let sprite = self.stage_piece_sprite();
            let fixed = AFTER_WAIT
                + IDLE_PLAY_PASSES
                + UPDATE_PLAYER1
                + BRANCH_ON_PLAY_STATE
                + handler
                + sprite
                + cy::stage_next_piece(self.s.display_next_piece);
            let mut lost = false;
            while frames < waits {
                let render = cycles::render_play_copying(v);
                // The update runs after the interrupt: the order does not matter, as neither
                // touches the other's state.
                let u = self.s.audio.update(None);
                frames += 1;
                v += 4;
                if !u.exact {
                    // Music without its data: the timing is lost from this frame on.
                    t.tick();
                    lost = true;
                    break;
                }
                let work = fixed + 6 + u.cycles;
                if let Err(nmi) = t.frame_rendering(render, work) {
                    unplaced = Some((nmi, work + t.wait_exit()));
                    break;
                }
            }
            let s = &mut self.s;
            (s.sleep_counter, s.frame_counter, s.rng) = (t.sleep, t.frame_counter, t.rng);
            s.clock = t.phase.clock();
            s.clock.known = !lost;
        } else {
            // Without the timing a frame changes neither the clock nor the sound engine:
            // the frames are the interrupt's counters.
            self.stage_piece_sprite();
            frames = waits;
            v += 4 * waits as u8;
            self.advance_counters(waits as usize);
        }
        let s = &mut self.s;
        s.clock.pending = 0;
        s.vram_row = v;
        s.fall_timer = s.fall_timer.wrapping_add(frames as u8);
        s.flow.nmi_off_this_frame = false;
        s.pressed = 0;
        s.held = 0;
        if let Some((nmi, work)) = unplaced {
            let ev = self.place_frame(nmi, work);
            run.flags |= ev.flags;
            run.lag += ev.has(FrameEvents::LAG) as u32;
        }
        run.frames = frames;
        run
    }

    /// Moves the clock over a run's frame that its loop could not place (see
    /// `fall_steady`): the interrupt's `nmi` cycles and the frame's `work`, counted as
    /// [`Game::count_time`] counts a frame. Returns the frame's events.
    #[cold]
    fn place_frame(&mut self, nmi: u32, work: u32) -> FrameEvents {
        let mut ev = FrameEvents::default();
        ev.cycles.nmi = nmi as u16;
        ev.cycles.work = work as u16;
        ev.cycles.known = true;
        self.count_time(&mut ev);
        ev
    }

    /// Runs the frames of `inputs`, from the first, while each is a frame of a pause that
    /// does not end it, in a game whose CPU time is not counted (recorded play with music,
    /// as FCEUX movies are): the pause's short path in `Game::step`, whose frames change
    /// only the interrupt's counters and the pad, in one go. The counters by their closed
    /// forms, the pad from the last two frames; the frames' events are empty. Returns the
    /// frames run: none when the game is not so paused, or the first frame ends the pause
    /// (Start, and Start alone, newly pressed).
    #[inline(never)]
    fn pause_frames(&mut self, inputs: &[crate::Buttons]) -> usize {
        let s = &self.s;
        // The conditions of `Game::step`'s way to `quiet_pause_frame`, and its own.
        if s.clock.known || s.flow.nmi_off_frames != 0 || !quiet_pause(s) {
            return 0;
        }
        let mut before = s.held;
        let mut held = s.held;
        let mut n = 0;
        for b in inputs {
            if ends_pause(b.0 & !held) {
                break;
            }
            before = held;
            held = b.0;
            n += 1;
        }
        if n > 0 {
            let s = &mut self.s;
            s.pressed = held & !before;
            s.held = held;
            s.clock.pause_entry = false;
            s.flow.nmi_off_this_frame = false;
            self.advance_counters(n);
        }
        n
    }

    /// Runs one frame per item of `inputs`, the stretches with nothing pressed through
    /// [`Game::fall_idle`] where they are idle falling and [`Game::entry_delay`] in the
    /// entry delay, the frames with buttons of a piece under control through
    /// [`Game::control_frames`], a pause's frames in one go where the game's time is not
    /// counted: the same game as one [`Game::step`] per item. Returns the frames' events
    /// combined: flags OR-ed, lines cleared added (the cycles are not kept).
    pub fn run(&mut self, inputs: &[crate::Buttons]) -> (u32, u32) {
        let (mut flags, mut lines) = (0u32, 0u32);
        let mut k = 0;
        // The end of the stretch of no input `k` is in, found once a stretch.
        let mut idle_end = 0;
        while k < inputs.len() {
            if matches!(self.s.resume, Resume::Paused) {
                let n = self.pause_frames(&inputs[k..]);
                if n > 0 {
                    k += n;
                    continue;
                }
            }
            if inputs[k].is_empty() {
                if idle_end <= k {
                    idle_end = inputs[k..]
                        .iter()
                        .position(|b| !b.is_empty())
                        .map_or(inputs.len(), |n| k + n);
                }
                let left = (idle_end - k) as u32;
                // By the play state first: a frame that neither run takes (the row check's
                // work, the clear, the score, a menu's) pays one test, not two calls.
                let run = match self.s.play_state {
                    1 => self.fall_idle(left),
                    2 | 3 | 8 => self.entry_delay(left),
                    // (B-type's score frames are the general path's: one test, not two.)
                    4..=7 if self.s.game_type == 0 => self.entry_delay(left),
                    _ => IdleRun::default(),
                };
                if run.frames > 0 {
                    flags |= run.flags;
                    lines += run.lines;
                    k += run.frames as usize;
                    continue;
                }
            }
            let (s, now) = (&self.s, inputs[k].0);
            if !s.clock.known
                && matches!(s.play_state, 1..=8)
                && matches!(s.resume, Resume::MainLoop)
                && !other_path(now, s.held)
            {
                // Frames with buttons: the piece under control (the taps, the single frames
                // between them, a held Down), or the entry delay with buttons held or
                // pressed (no handler there reads them), in one go.
                let run = if self.s.play_state == 1 {
                    self.control_frames(&inputs[k..])
                } else {
                    self.entry_delay_with(&inputs[k..])
                };
                if run.frames > 0 {
                    flags |= run.flags;
                    lines += run.lines;
                    k += run.frames as usize;
                    continue;
                }
            }
            let ev = self.step(inputs[k]);
            flags |= ev.flags;
            lines += u32::from(ev.lines_cleared);
            k += 1;
        }
        (flags, lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::TILE_EMPTY;
    use crate::{Buttons, GameSetup};
    use proptest::prelude::*;

    /// Steps `a` with `fall_idle` and `wait_for_copy` (or, with `entry`, `entry_delay`)
    /// and `b` with `step(Buttons::NONE)` over the same frames (taps of `pads` between runs
    /// of nothing) and requires the same game after every run and the same flags and lines.
    fn run_both_ways(game: Game, pads: &[(u8, u32)], entry: bool) -> Result<u32, TestCaseError> {
        let mut a = game;
        let mut b = a.clone();
        let mut ran = 0;
        for &(pad, frames) in pads {
            let ea = a.step(Buttons(pad));
            let eb = b.step(Buttons(pad));
            prop_assert_eq!(ea, eb);
            let mut left = frames;
            while left > 0 {
                let mut run = a.fall_idle(left);
                if run.frames == 0 {
                    run = if entry {
                        a.entry_delay(left)
                    } else {
                        a.wait_for_copy(left)
                    };
                }
                let (mut flags, mut lag, mut lines) = (0, 0, 0);
                for _ in 0..run.frames {
                    let e = b.step(Buttons::NONE);
                    flags |= e.flags;
                    lag += e.has(FrameEvents::LAG) as u32;
                    lines += u32::from(e.lines_cleared);
                }
                prop_assert_eq!(run.flags, flags);
                prop_assert_eq!(run.lag, lag);
                prop_assert_eq!(run.lines, lines);
                prop_assert_eq!(&a, &b);
                ran += run.frames;
                left -= run.frames;
                if left > 0 {
                    // Not a falling frame: one ordinary step each.
                    let ea = a.step(Buttons::NONE);
                    let eb = b.step(Buttons::NONE);
                    prop_assert_eq!(ea, eb);
                    left -= 1;
                }
            }
            prop_assert_eq!(&a, &b);
        }
        Ok(ran)
    }

    /// [`Game::run`] plays as one step a frame does, flags and lines included.
    fn run_agrees(game: Game, pads: &[(u8, u32)]) -> Result<(), TestCaseError> {
        let inputs: Vec<Buttons> = pads
            .iter()
            .flat_map(|&(pad, frames)| {
                core::iter::once(Buttons(pad))
                    .chain(core::iter::repeat_n(Buttons::NONE, frames as usize))
            })
            .collect();
        run_agrees_on(game, &inputs)
    }

    /// [`Game::run`] over `inputs` plays as one step a frame does.
    fn run_agrees_on(game: Game, inputs: &[Buttons]) -> Result<(), TestCaseError> {
        let mut a = game;
        let mut b = a.clone();
        let (flags, lines) = a.run(inputs);
        let (mut f, mut l) = (0, 0);
        for &i in inputs {
            let e = b.step(i);
            f |= e.flags;
            l += u32::from(e.lines_cleared);
        }
        prop_assert_eq!((flags, lines), (f, l));
        prop_assert_eq!(&a, &b);
        Ok(())
    }

    proptest! {
        /// The falling runs' drop test by the leading cells is the whole position test,
        /// for every orientation, column and row a piece fits on, on fields of any bytes
        /// (the rows above the field and the page's bytes after it included).
        #[test]
        fn the_leading_cells_test_is_the_whole_one(
            field in prop::collection::vec(
                prop_oneof![2 => Just(TILE_EMPTY), 1 => any::<u8>()], 256),
            piece in 0u8..19,
            x in prop_oneof![4 => 0u8..10, 1 => any::<u8>()],
            y in 0u8..=19,
        ) {
            let mut g = Game::new(GameSetup::from_seed(1));
            g.s.playfield.0.copy_from_slice(&field);
            // The piece's own cells free (else it would rarely fit).
            for &(dr, dc) in &crate::tables::ORIENTATION_CELLS[piece as usize] {
                let i = y.wrapping_add(dr as u8).wrapping_mul(10).wrapping_add(x).wrapping_add(dc as u8);
                g.s.playfield.0[i as usize] = TILE_EMPTY;
            }
            prop_assume!(g.position_valid(piece, x, y).0);
            prop_assert_eq!(
                g.drop_fits(piece, x, y),
                g.position_valid(piece, x, y + 1).0
            );
        }
    }

    /// Pads of the control test: nothing, shifts, soft drop, rotations and their
    /// combinations (DAS charges when one is held), and those that end a control run: the
    /// pads 7 and `$F0`, Start, Select.
    const CONTROL_PADS: [u8; 14] = [
        0x00, 0x00, 0x01, 0x02, 0x04, 0x80, 0x40, 0x41, 0x82, 0x05, 0x07, 0xF0, 0x10, 0x20,
    ];

    /// Plays `inputs` on `game` by [`Game::control_frames`] where it runs frames (a step
    /// elsewhere) and on a copy a step a frame, requiring the same game and events after
    /// every run; returns the frames the control runs took.
    fn control_agrees(game: Game, inputs: &[Buttons]) -> Result<u32, TestCaseError> {
        let (mut a, mut b) = (game.clone(), game);
        let (mut k, mut ran) = (0, 0);
        while k < inputs.len() {
            let run = a.control_frames(&inputs[k..]);
            if run.frames == 0 {
                prop_assert_eq!(a.step(inputs[k]), b.step(inputs[k]));
                k += 1;
                continue;
            }
            let mut flags = 0;
            for &i in &inputs[k..k + run.frames as usize] {
                flags |= b.step(i).flags;
            }
            prop_assert_eq!(run.flags, flags);
            prop_assert_eq!((run.lag, run.lines), (0, 0));
            prop_assert_eq!(&a, &b);
            k += run.frames as usize;
            ran += run.frames;
        }
        Ok(ran)
    }

    proptest! {
        /// The frames of a piece under control run by [`Game::control_frames`] give the
        /// game and the events that a step a frame gives, at every gravity (the first
        /// piece's countdown included), with each pad held a while, in games whose time is
        /// not counted (the music on, the lag and crash model off, B-type, BetaTetris's
        /// format) and in counted ones (where it runs none).
        #[test]
        fn control_frames_agree_with_steps(
            seed in any::<u64>(),
            level in prop::sample::select(vec![0u8, 9, 15, 18, 19, 29, 39]),
            rules in 0u8..5,
            rng in any::<u16>(),
            pads in prop::collection::vec(
                (prop::sample::select(CONTROL_PADS.to_vec()), 1usize..24), 1..60),
        ) {
            let mut setup = GameSetup {
                level,
                music_type: if rules == 0 { 0 } else { 3 },
                rng,
                ..GameSetup::from_seed(seed)
            };
            match rules {
                2 => setup.crash_mode = crate::CrashMode::Off,
                3 => setup.game_type = crate::GameType::B,
                4 => {
                    let gym = crate::GymSeed::new(seed as u32 & 0xFF_FFFF, crate::SeedRule::V5);
                    setup.variant = crate::Variant::betatetris(gym);
                }
                _ => {}
            }
            let inputs = held_pads(&pads);
            let ran = control_agrees(Game::new(setup), &inputs)?;
            if rules == 1 {
                // The music off at the start: the time is counted, so nothing runs.
                prop_assert_eq!(ran, 0);
            }
        }
    }

    proptest! {
        /// [`Game::run`] with each pad held a while (shifts, soft drop, rotations, and the
        /// pads that end a control run or an entry delay's: 7, `$F0`, Start, Select), in
        /// games whose time is not counted, where most pieces clear rows or none do: the
        /// same game and events as a step a frame, the entry delay's frames with buttons
        /// held included.
        #[test]
        fn run_agrees_with_held_pads(
            seed in any::<u64>(),
            level in prop::sample::select(vec![0u8, 9, 18, 19, 29]),
            clearing in any::<bool>(),
            hole in 4usize..=6,
            pads in prop::collection::vec(
                (prop::sample::select(CONTROL_PADS.to_vec()), 1usize..30), 1..60),
        ) {
            let g = if clearing {
                crate::game::tests::clearing_game(seed, level, hole, crate::CrashMode::Off)
            } else {
                Game::new(GameSetup {
                    level,
                    crash_mode: crate::CrashMode::Off,
                    ..GameSetup::from_seed(seed)
                })
            };
            let inputs = held_pads(&pads);
            run_agrees_on(g, &inputs)?;
        }
    }

    /// The entry delay with a button held runs in one call, to the next piece's control.
    #[test]
    fn the_entry_delay_runs_with_a_button_held() {
        let mut g = Game::new(GameSetup {
            level: 18,
            crash_mode: crate::CrashMode::Off,
            ..GameSetup::from_seed(5)
        });
        while g.state().play_state != 2 {
            g.step(Buttons::LEFT);
        }
        let held = [Buttons::LEFT; 100];
        let mut stepped = g.clone();
        let run = g.entry_delay_with(&held);
        assert!(run.frames >= 10 && g.state().play_state == 1, "{run:?}");
        for &b in &held[..run.frames as usize] {
            stepped.step(b);
        }
        assert_eq!(g, stepped);
        // Start newly pressed ends the run before its frame.
        while g.state().play_state != 2 {
            g.step(Buttons::NONE);
        }
        assert_eq!(g.entry_delay_with(&[Buttons::START]).frames, 0);
    }

    /// A game whose time is not counted, tapped and held until it tops out, runs most of
    /// its frames under control in control runs.
    #[test]
    fn most_frames_under_control_run_in_control_runs() {
        let g = Game::new(GameSetup {
            level: 18,
            crash_mode: crate::CrashMode::Off,
            ..GameSetup::from_seed(11)
        });
        let inputs: Vec<Buttons> = (0..3_000)
            .map(|k| Buttons([0x01, 0x00, 0x80, 0x00, 0x02, 0x02, 0x02, 0x04][k % 8]))
            .collect();
        let mut a = g.clone();
        let (mut under, mut ran, mut k) = (0, 0, 0);
        while k < inputs.len() && a.state().play_state != 10 {
            let controlled = a.state().play_state == 1;
            let run = a.control_frames(&inputs[k..]);
            if run.frames > 0 {
                (under, ran, k) = (
                    under + run.frames,
                    ran + run.frames,
                    k + run.frames as usize,
                );
                continue;
            }
            under += u32::from(controlled);
            a.step(inputs[k]);
            k += 1;
        }
        assert!(under > 200, "{under} frames under control");
        assert!(
            ran * 10 > under * 9,
            "{ran} of {under} frames in control runs"
        );
        control_agrees(g, &inputs).unwrap();
    }

    /// Each pad held for its frames.
    fn held_pads(pads: &[(u8, usize)]) -> Vec<Buttons> {
        pads.iter()
            .flat_map(|&(pad, frames)| core::iter::repeat_n(Buttons(pad), frames))
            .collect()
    }

    /// Taps of the test: nothing, shifts, rotations, a soft drop, Select (the preview).
    const PADS: [u8; 8] = [0x00, 0x00, 0x01, 0x02, 0x80, 0x41, 0x04, 0x20];

    proptest! {
        /// Runs of idle frames give the game that as many steps give, at every gravity
        /// (the first piece's countdown included), in counted games (the music off) and in
        /// games whose time is not counted: the music on (the timing lost early), the lag
        /// and crash model off, B-type, the format of BetaTetris (its double killscreen at
        /// 39 runs no frame).
        #[test]
        fn runs_agree_with_steps(
            seed in any::<u64>(),
            level in prop::sample::select(vec![0u8, 9, 15, 18, 19, 29, 39, 140]),
            music in prop::sample::select(vec![3u8, 3, 3, 0]),
            rules in 0u8..5,
            rng in any::<u16>(),
            pads in prop::collection::vec(
                (prop::sample::select(PADS.to_vec()), 1u32..60), 1..40),
        ) {
            let mut setup = GameSetup {
                level,
                music_type: music,
                rng,
                ..GameSetup::from_seed(seed)
            };
            match rules {
                2 => setup.crash_mode = crate::CrashMode::Off,
                3 => setup.game_type = crate::GameType::B,
                4 => {
                    let gym = crate::GymSeed::new(seed as u32 & 0xFF_FFFF, crate::SeedRule::V5);
                    setup.variant = crate::Variant::betatetris(gym);
                }
                _ => {}
            }
            let g = Game::new(setup);
            run_both_ways(g.clone(), &pads, false)?;
            run_both_ways(g.clone(), &pads, true)?;
            run_agrees(g, &pads)?;
        }
    }

    proptest! {
        /// The same where most pieces clear rows (a field full but for one column under the
        /// spawn), so that the waits for the copy come after full rows, the clear's
        /// animation and the tetris flash; counted (at the score's lag levels too) and not.
        #[test]
        fn runs_agree_where_rows_clear(
            seed in any::<u64>(),
            level in prop_oneof![Just(0u8), Just(9), Just(18), Just(29), 140u8..=200],
            hole in 4usize..=6,
            counted in any::<bool>(),
            pads in prop::collection::vec(
                (prop::sample::select(PADS.to_vec()), 1u32..60), 1..40),
        ) {
            let crash_mode = if counted {
                crate::CrashMode::Cartridge
            } else {
                crate::CrashMode::Off
            };
            let g = crate::game::tests::clearing_game(seed, level, hole, crash_mode);
            run_both_ways(g.clone(), &pads, false)?;
            run_both_ways(g.clone(), &pads, true)?;
            run_agrees(g, &pads)?;
        }
    }

    /// Pads of the pause test: Start alone (pauses and resumes), Start with another button
    /// (which does not resume), moves, Select, the reset's pad, nothing.
    const PAUSE_PADS: [u8; 10] = [0x00, 0x00, 0x10, 0x10, 0x11, 0x90, 0x02, 0x20, 0xF0, 0x07];

    proptest! {
        /// [`Game::run`] through pauses (each pad held for a stretch, as in a movie), in
        /// games whose time is not counted (the music on: the pause's frames run in one go)
        /// and counted ones, the same game and events as a step a frame.
        #[test]
        fn run_agrees_through_pauses(
            seed in any::<u64>(),
            level in prop::sample::select(vec![0u8, 9, 18, 29]),
            music in prop::sample::select(vec![0u8, 2, 3]),
            pads in prop::collection::vec(
                (prop::sample::select(PAUSE_PADS.to_vec()), 1usize..150), 1..30),
        ) {
            let g = Game::new(GameSetup {
                level,
                music_type: music,
                ..GameSetup::from_seed(seed)
            });
            let inputs = held_pads(&pads);
            run_agrees_on(g, &inputs)?;
        }
    }

    /// A paused game whose time is not counted runs its pause in one call, up to the frame
    /// that resumes it, with the counters and the pad of a step a frame.
    #[test]
    fn a_pause_runs_in_one_go() {
        // The music on: the time is not counted once it plays.
        let mut g = Game::new(GameSetup {
            level: 18,
            music_type: 0,
            ..GameSetup::from_seed(7)
        });
        for _ in 0..20 {
            g.step(Buttons::NONE);
        }
        g.step(Buttons::START);
        g.step(Buttons::NONE);
        assert!(g.state().paused() && !g.state().clock.known);
        let mut inputs = vec![Buttons::NONE; 500];
        inputs[100] = Buttons::A;
        inputs[200] = Buttons(0x11);
        inputs[300] = Buttons::START;
        let mut stepped = g.clone();
        for &b in &inputs[..300] {
            stepped.step(b);
        }
        assert_eq!(g.pause_frames(&inputs), 300);
        assert_eq!(g, stepped);
        assert_eq!(g.pause_frames(&inputs[300..]), 0, "Start alone resumes");
    }

    /// In a game whose time is not counted, the entry delay after each lock of a game
    /// played with nothing pressed runs in one call to the piece's control (or the
    /// top-out), as the steps run it.
    #[test]
    fn the_entry_delay_runs_in_one_call() {
        let mut g = Game::new(GameSetup {
            level: 18,
            crash_mode: crate::CrashMode::Off,
            ..GameSetup::from_seed(5)
        });
        let mut delays = 0;
        for _ in 0..5_000 {
            if g.state().play_state == 10 {
                break;
            }
            if g.state().play_state != 2 {
                g.step(Buttons::NONE);
                continue;
            }
            let mut stepped = g.clone();
            let run = g.entry_delay(1_000);
            assert!(matches!(g.state().play_state, 1 | 10), "{run:?}");
            let mut flags = 0;
            for _ in 0..run.frames {
                flags |= stepped.step(Buttons::NONE).flags;
            }
            assert_eq!((run.flags, run.lag, run.lines), (flags, 0, 0));
            assert_eq!(g, stepped);
            if g.state().play_state == 10 {
                // The lock's test failed: the top-out's frame alone.
                assert_eq!(run.frames, 1);
                break;
            }
            assert!(run.frames >= 10, "{run:?}");
            delays += 1;
        }
        assert!(delays >= 8, "{delays} entry delays");
        assert_eq!(g.state().play_state, 10, "the game topped out");
    }

    /// A game played with nothing pressed runs most of its frames before the top-out in
    /// runs (the rest: the entry delay's work and the first piece's wait), its time
    /// counted or not, and most of the entry delay's waits for the copy in runs too.
    #[test]
    fn most_frames_of_a_falling_game_run_idle() {
        for crash_mode in [crate::CrashMode::Cartridge, crate::CrashMode::Off] {
            let mut g = Game::new(GameSetup {
                level: 18,
                music_type: 3,
                crash_mode,
                ..GameSetup::from_seed(3)
            });
            let (mut ran, mut waited, mut frames, mut waits_stepped) = (0, 0, 0, 0);
            while g.state().play_state != 10 && frames < 10_000 {
                let run = g.fall_idle(1_000);
                let wait = g.wait_for_copy(1_000);
                if run.frames + wait.frames == 0 {
                    let s = g.state();
                    if matches!(s.play_state, 2 | 3 | 8) && s.vram_row < 16 {
                        waits_stepped += 1;
                    }
                    g.step(Buttons::NONE);
                    frames += 1;
                }
                ran += run.frames;
                waited += wait.frames;
                frames += run.frames + wait.frames;
            }
            assert_eq!(g.state().play_state, 10, "the stack reaches the top");
            assert!(
                ran * 2 > frames,
                "{crash_mode:?}: {ran} of {frames} frames in runs"
            );
            // Only the top-out's frame waits outside a run.
            assert!(
                waited > 0 && waits_stepped <= 1,
                "{crash_mode:?}: {waited} waiting frames in runs, {waits_stepped} stepped"
            );
        }
    }
}
