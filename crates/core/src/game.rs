//! [`Game`]: the whole state, and the frame: interrupt first, then the main loop.

use crate::audio::{MusicData, SoundEffect};
use crate::buttons::Buttons;
use crate::crash::Crash;
use crate::cycles;
use crate::demo::DemoData;
use crate::events::FrameEvents;
use crate::flow::{Block, Cut, FlowVars, Resume, Then};
use crate::landing::{self, Walked};
use crate::lfsr::{lfsr_step, pick_piece, POWER_ON_SEED};
use crate::overrun::{self, Detour};
use crate::playfield::Playfield;
use crate::postgame::Next;
use crate::region::Region;
use crate::snapshot::{Snapshot, SnapshotError};
use crate::tables::{GARBAGE_BLANK_END, GARBAGE_TILES, ORIENTATION_TYPE, SPAWN_TABLE, TILE_EMPTY};

/// The I piece's spawn orientation id, the one a drought deals less often.
const I_SPAWN_ID: u8 = SPAWN_TABLE[6];

/// `musicSelectionTable`: the track for each music choice, then its fast version (allegro).
const MUSIC_SELECTION: [u8; 8] = [3, 4, 5, 0xFF, 6, 7, 8, 0xFF];

/// What only a cartridge image holds and the engine may read: the demo's tables and the
/// music's scripts (see [`MusicData`]). Built from a user's ROM by `nestris-replay`.
#[derive(Clone, Debug)]
pub struct Cartridge {
    /// The demo's buttons and pieces.
    pub demo: DemoData,
    /// The music, without which the sound engine's cycles are estimated while music plays.
    pub music: Option<MusicData>,
}

/// A-type (marathon) or B-type (25 lines over garbage).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GameType {
    /// A-type: play until top-out.
    #[default]
    A,
    /// B-type: clear 25 lines, starting over garbage of a chosen height.
    B,
}

/// How a game starts: what the level menu chose, and the generator's state at that moment.
///
/// The generator state, pick counter and frame counter are what the cartridge holds when
/// Start is pressed on the level menu; they decide every piece of the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameSetup {
    /// Which build of the cartridge.
    pub region: Region,
    /// A-type or B-type.
    pub game_type: GameType,
    /// The level chosen on the menu's grid (0..=9 on the cartridge, any byte accepted).
    pub level: u8,
    /// A held while Start was pressed: +10 levels.
    pub a_held_on_start: bool,
    /// B-type garbage height 0..=5.
    pub height: u8,
    /// Music choice 0..=3 (3 = off); no effect on play.
    pub music_type: u8,
    /// The generator value before game init.
    pub rng: u16,
    /// The pick counter before game init.
    pub spawn_count: u8,
    /// The frame counter before game init (the line-clear animation and curtain phase on it).
    pub frame_counter: u16,
    /// What happens when the cartridge would crash (default: it halts, as the console does).
    #[cfg_attr(feature = "serde", serde(default))]
    pub crash_mode: crate::CrashMode,
    /// Rules that are not the cartridge's (TetrisGYM seeds, line caps; default: none).
    #[cfg_attr(feature = "serde", serde(default))]
    pub variant: crate::Variant,
}

impl Default for GameSetup {
    fn default() -> Self {
        GameSetup {
            region: Region::Ntsc,
            game_type: GameType::A,
            level: 0,
            a_held_on_start: false,
            height: 0,
            music_type: 0,
            rng: POWER_ON_SEED,
            spawn_count: 0,
            frame_counter: 0,
            crash_mode: crate::CrashMode::Cartridge,
            variant: crate::Variant::CARTRIDGE,
        }
    }
}

impl GameSetup {
    /// A setup whose generator state is derived from `seed` (any value; never a stuck LFSR).
    ///
    /// Seeds map to generator values 1..=65535 with the low byte of the seed's high half
    /// as pick counter, so one number reproduces one game.
    pub fn from_seed(seed: u64) -> GameSetup {
        // splitmix64: spread nearby seeds over the whole state space.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let mut rng = z as u16;
        if rng == 0 {
            rng = POWER_ON_SEED;
        }
        GameSetup {
            rng,
            spawn_count: (z >> 16) as u8,
            frame_counter: (z >> 24) as u16,
            ..GameSetup::default()
        }
    }

    /// The level the game starts at (+10 applied, 8-bit like the cartridge).
    pub const fn start_level(&self) -> u8 {
        if self.a_held_on_start {
            self.level.wrapping_add(10)
        } else {
            self.level
        }
    }
}

/// The whole game: every variable of the cartridge that matters for a later frame.
///
/// `Game` is the save state: clone it to branch, compare it to check equality of two
/// runs. [`Game::step`] advances one NES frame.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Game {
    pub(crate) s: Snapshot,
}

/// Far above a quiet frame's cycles with the sound update's (under 10,000 for most frames;
/// about 13,400 before the update for a row check that moves the field down from its bottom
/// rows): while the next interrupt's first poll is later than this, such a frame needs no
/// test for an interrupt landing in its work before the wait.
pub(crate) const POLL_FLOOR: u32 = 24_000;

/// A pause whose frames the pause's short path may take: the pause loop, the play screen
/// not drawn, not the demo.
#[inline(always)]
pub(crate) fn quiet_pause(s: &Snapshot) -> bool {
    matches!(s.resume, Resume::Paused) && s.render_mode != 3 && s.game_mode != 5
}

/// The pad's newly pressed buttons end the pause: Start, and Start alone.
#[inline(always)]
pub(crate) const fn ends_pause(pressed: u8) -> bool {
    pressed == Buttons::START.bits()
}

impl Game {
    /// Starts a game as the cartridge's game init does, and returns the state just before
    /// its first frame (`gameModeState` 1; the next [`Game::step`] is frame 0).
    ///
    /// B-type garbage takes one frame per row on the cartridge; those 12 frames pass here
    /// (with no buttons), as they do on the console.
    pub fn new(setup: GameSetup) -> Game {
        let mut s = Snapshot {
            region: setup.region,
            resume: Resume::MainLoop,
            game_mode: 4,
            game_mode_state: 1,
            play_state: 1,
            render_mode: 3,
            x: 0,
            y: 0,
            piece: 0,
            next_piece: 0,
            level: setup.start_level(),
            start_level: setup.start_level(),
            start_height: setup.height.min(5),
            fall_timer: 0,
            autorepeat_x: 0,
            autorepeat_y: 0,
            hold_down_points: 0,
            vram_row: 0,
            completed_lines: 0,
            completed_row: [0; 4],
            line_index: 0,
            row_y: 0,
            curtain_row: 0,
            lines: [0; 2],
            score: [0; 3],
            rng: setup.rng,
            spawn_id: 0,
            spawn_count: setup.spawn_count,
            frame_counter: setup.frame_counter,
            sleep_counter: 0,
            held: 0,
            pressed: 0,
            game_type: setup.game_type as u8,
            music_type: setup.music_type.min(3),
            display_next_piece: 0,
            selecting: 0,
            allegro: 0,
            clears: [0; 4],
            stats: [[0; 2]; 7],
            playfield: Playfield::empty(),
            flow: FlowVars::default(),
            render_flags: 0,
            clock: crate::timing::Clock::default(),
            audio: crate::timing::recorded_audio(),
            crash_mode: setup.crash_mode,
            variant: setup.variant,
            crash: None,
            cleared: crate::view::Cleared::default(),
            stale: crate::view::StaleDigits::default(),
        };
        if setup.crash_mode == crate::CrashMode::Off
            || !setup.region.cycles_counted()
            || !setup.variant.is_cartridge()
        {
            // No cycle accounting at all: nothing placed, so no lag frame and no crash.
            s.clock.known = false;
        }
        if s.rng == 0 {
            // The all-zero LFSR never leaves 0; the cartridge can never be in it.
            s.rng = POWER_ON_SEED;
        }
        let mut game = Game { s };
        game.init_game_state(&DemoData::BUILTIN);
        // The garbage rows: one frame each, no buttons.
        while let Resume::GameInit { rows_left } = game.s.resume {
            if rows_left == 0 {
                break;
            }
            game.step(Buttons::NONE);
        }
        game
    }

    /// Builds a game from a snapshot, checking that every field is one the cartridge can hold.
    pub fn from_snapshot(mut snapshot: Snapshot) -> Result<Game, SnapshotError> {
        snapshot.validate()?;
        // The PAL build's cycles are not counted (`Region::cycles_counted`), nor a variant's.
        snapshot.clock.known &= snapshot.region.cycles_counted() && snapshot.variant.is_cartridge();
        Ok(Game { s: snapshot })
    }

    /// A copy of the whole state as plain data.
    pub fn snapshot(&self) -> Snapshot {
        self.s.clone()
    }

    /// The whole state, read-only.
    #[inline]
    pub fn state(&self) -> &Snapshot {
        &self.s
    }

    /// Advances exactly one NES video frame with `buttons` held on controller 1.
    ///
    /// In a few frames around screen redraws the cartridge has its frame interrupt
    /// switched off: nothing counts, nothing reads the pad, only the main loop goes on
    /// (`state().flow.nmi_off_this_frame` tells).
    #[inline]
    pub fn step(&mut self, buttons: Buttons) -> FrameEvents {
        self.step_with_demo(buttons, &DemoData::BUILTIN)
    }

    /// [`Game::step`] with the demo's tables taken from `demo` (for example a
    /// cartridge's own, read from a ROM image) instead of the built-in ones.
    #[inline]
    pub fn step_with_demo(&mut self, buttons: Buttons, demo: &DemoData) -> FrameEvents {
        self.step_with::<true>(buttons, demo, None)
    }

    /// [`Game::step`] with what only a cartridge image holds: its demo tables and its music
    /// (which the sound engine's cycles depend on while music plays).
    #[inline]
    pub fn step_with_cartridge(&mut self, buttons: Buttons, cart: &Cartridge) -> FrameEvents {
        self.step_with::<true>(buttons, &cart.demo, cart.music.as_ref())
    }

    /// One frame; `QUICK` lets the frames that have a short path take it (false only in
    /// the tests that check each short path against the general one). Always inlined: in
    /// the caller's loop the uncounted frame's registers are saved once, not every frame
    /// (the counted frame's general path is out of line).
    #[inline(always)]
    fn step_with<const QUICK: bool>(
        &mut self,
        buttons: Buttons,
        demo: &DemoData,
        music: Option<&MusicData>,
    ) -> FrameEvents {
        let mut ev = FrameEvents::default();
        // By pattern: the derived `==` on `Resume` is an out-of-line call on every frame.
        if matches!(self.s.resume, Resume::Halted) {
            // The CPU halted: nothing runs, not even the interrupt.
            ev.set(FrameEvents::CRASHED);
            return ev;
        }
        if self.s.flow.nmi_off_frames != 0 {
            // The main loop sits in the reset code or a screen upload the whole frame,
            // then switches the interrupt back on and waits for the next one.
            self.s.flow.nmi_off_this_frame = true;
            self.s.flow.nmi_off_frames -= 1;
            self.upload_frame();
            return ev;
        }
        self.s.flow.nmi_off_this_frame = false;
        if self.s.clock.known {
            self.counted_step::<QUICK>(buttons, demo, music, &mut ev);
        } else if !(QUICK
            && (self.plain_play_frame(buttons, demo, &mut ev)
                || (self.s.render_mode != 3 && self.quiet_pause_frame(buttons))))
        {
            // (The render mode first: a play frame that is not plain pays one test for the
            // pause's short path.) The timing is lost for the rest of this game (see
            // `Clock::known`): nothing counted from here on could place a lag frame, so the
            // cycles and the sound engine (whose state only feeds them) are left alone.
            self.interrupt::<false>(buttons, demo, &mut ev);
            let ordinary = self.main_loop::<false>(demo, None, &mut ev);
            ev.cycles = crate::events::Cycles::default();
            // An ordinary play frame never ends in game init: one test fewer on the hot path.
            if !ordinary && matches!(self.s.resume, Resume::GameInit { rows_left: 0 }) {
                self.start_counting();
            }
        }
        ev
    }

    /// A frame with the CPU's time counted, its short path first, writing `ev`: every path
    /// of [`Game::step_with`] fills the one value it returns. (Returning another from here
    /// made the caller copy the events through memory just after their narrow stores, a
    /// store-forwarding stall on every frame: 0.77x meta_nestris on its movies, 1.09x
    /// without.)
    #[inline(always)]
    fn counted_step<const QUICK: bool>(
        &mut self,
        buttons: Buttons,
        demo: &DemoData,
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) {
        if !(QUICK && self.quiet_play_frame(buttons, demo, music, ev)) {
            self.counted_frame(buttons, demo, music, ev);
        }
    }

    /// A play frame of a game whose timing is not counted (recorded play with music, a
    /// hand-made state), in any play state but the unassigned one (0), with Start not
    /// newly pressed and the pad not `$F0` (the reset combination): the steps of the
    /// general path (interrupt, the main loop's wait, the player update, the passes after
    /// it) without the tests these conditions answer. False, with nothing changed, for any
    /// other frame.
    #[inline(always)]
    fn plain_play_frame(
        &mut self,
        buttons: Buttons,
        demo: &DemoData,
        ev: &mut FrameEvents,
    ) -> bool {
        const START: u8 = Buttons::START.bits();
        let s = &self.s;
        let now = buttons.bits();
        let pressed = now & !s.held;
        if !matches!(s.resume, Resume::MainLoop)
            || s.game_mode != 4
            || s.game_mode_state != 2
            || s.render_mode != 3
            || s.play_state == 0
            || pressed & START != 0
            || now == 0xF0
        {
            return false;
        }
        self.render_play_frame(ev);
        self.tick_counters();
        let s = &mut self.s;
        s.pressed = pressed;
        s.held = now;
        s.clock.pending = 0;
        self.pass_two(ev);
        self.s.game_mode_state = 4;
        if !self.player_update::<false>(demo, None, ev) {
            // `held` 7 (down, left and right) leaves the frame's passes at the render pass.
            self.s.game_mode_state = if now == 7 { 7 } else { 2 };
        }
        // Nothing of the cycles is kept when they are not counted: nothing on this path
        // writes them (`ev` came in as the default).
        debug_assert_eq!(ev.cycles, crate::events::Cycles::default());
        true
    }

    /// A frame of the pause loop that does not end it, in a game whose timing is not
    /// counted (the interrupt on): the interrupt's counters and the pad are all that change
    /// (the steps of the general path, without its tests). False, with nothing changed, for
    /// any other paused frame. Pauses are most of some recorded games (meta_nestris's death movies).
    #[inline(always)]
    fn quiet_pause_frame(&mut self, buttons: Buttons) -> bool {
        let s = &mut self.s;
        let now = buttons.bits();
        let pressed = now & !s.held;
        if !quiet_pause(s) || ends_pause(pressed) {
            return false;
        }
        s.pressed = pressed;
        s.held = now;
        s.clock.pause_entry = false;
        self.tick_counters();
        true
    }

    /// The interrupt's counters: `sleepCounter`, `frameCounter` and the generator.
    #[inline(always)]
    pub(crate) fn tick_counters(&mut self) {
        let s = &mut self.s;
        s.sleep_counter = s.sleep_counter.saturating_sub(1);
        s.frame_counter = s.frame_counter.wrapping_add(1);
        s.rng = lfsr_step(s.rng);
    }

    /// [`Game::tick_counters`] `n` times, by the counters' closed forms.
    #[inline]
    pub(crate) fn advance_counters(&mut self, n: usize) {
        let s = &mut self.s;
        s.sleep_counter = s.sleep_counter.saturating_sub(n.min(255) as u8);
        s.frame_counter = s.frame_counter.wrapping_add(n as u16);
        s.rng = crate::lfsr::lfsr_advance(s.rng, n);
    }

    /// A counted play frame in a state whose update never waits and is not the score's
    /// (falling, lock, row check, the clear's animation but its last frame, A-type goal
    /// check, garbage, spawn), with neither Select
    /// nor Start newly pressed and the pad neither 7 nor `$F0` (the passes around the player
    /// update then cost what they cost with nothing pressed): the frames of a headless game,
    /// nearly all of them. The steps of the general path (interrupt, the main loop's passes
    /// around the player update, the sound update, the clock), without the tests these
    /// conditions answer; a piece falling with nothing pressed, the screen copy done and
    /// nothing to redraw (most of these frames) takes constants for its render and
    /// controls, its events written into `ev` (which comes in as the default). False, with
    /// nothing changed, for any other frame.
    #[inline(always)]
    fn quiet_play_frame(
        &mut self,
        buttons: Buttons,
        demo: &DemoData,
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) -> bool {
        // The play states taken (bit per state).
        const STATES: u32 = 1 << 1 | 1 << 2 | 1 << 3 | 1 << 4 | 1 << 6 | 1 << 7 | 1 << 8;
        // Buttons the passes around the player update act on, newly pressed: Select (the
        // preview, and its handler's cycles), Start (the pause).
        const PASSES_PRESS: u8 = Buttons::SELECT.bits() | Buttons::START.bits();
        let s = &self.s;
        let now = buttons.bits();
        // Held 7 (down, left and right) ends the passes early, $F0 resets: the general path.
        // (Nothing pressed first: most frames, one test.)
        if (now != 0 && (now & !s.held & PASSES_PRESS != 0 || now == 7 || now == 0xF0))
            || STATES.checked_shr(u32::from(s.play_state)).unwrap_or(0) & 1 == 0
            || (s.play_state == 6 && s.game_type != 0)
            // The clear's last frame: its render starts the score (5), whose update can
            // lag, in the same frame (the render tests the counter before its tick).
            || (s.play_state == 4
                && s.frame_counter & 3 == 0
                && (s.row_y.wrapping_add(1).wrapping_sub(5) as i8) >= 0)
            || s.game_mode_state != 2
            || s.game_mode != 4
            || s.render_mode != 3
            || s.clock.pending != 0
            || !matches!(s.resume, Resume::MainLoop)
            || s.clock.first_poll_end() <= POLL_FLOOR
        {
            return false;
        }
        let falling = now == 0
            && s.play_state == 1
            && s.render_flags == 0
            && s.vram_row == 0x20
            && s.completed_lines != 4
            && s.variant.das_only.is_none();
        let after_load = s.clock.after_load;
        if falling {
            // The interrupt with its render's cycles known (and nothing for it to do).
            let (nmi, dma_at) = cycles::nmi_with_render(s, cycles::RENDER_PLAY_IDLE);
            let parity = (s.clock.odd_cycle as u32 ^ dma_at) & 1;
            ev.cycles.nmi = (nmi + cycles::OAM_DMA[parity as usize]) as u16;
            ev.cycles.known = true;
            self.tick_counters();
            self.s.pressed = 0;
            self.s.held = 0;
        } else {
            self.interrupt::<true>(buttons, demo, ev);
        }
        self.s.fall_timer = self.s.fall_timer.wrapping_add(1);
        let player = if falling {
            let c = self.update_idle_player(ev);
            ev.cycles.player = c as u16;
            c
        } else {
            let checking = self.s.play_state == 3;
            let waits = self.update_player::<true>(demo, ev);
            debug_assert!(!waits, "a quiet frame's state began a wait");
            self.request_sounds(ev, checking);
            ev.cycles.player as u32
        };
        // The sound update: an interrupt cannot land in it (see `POLL_FLOOR`).
        let u = self.s.audio.update(music);
        let audio = 6 + u.cycles;
        ev.cycles.audio = audio as u16;
        ev.cycles.known = u.exact;
        let work = cycles::wait_exit(after_load)
            + cycles::AFTER_WAIT
            + cycles::IDLE_PLAY_PASSES
            + cycles::UPDATE_PLAYER1
            + player;
        // What the guard's floor stands for: the frame's work, the sound update's
        // included, ends before the next interrupt's first poll can.
        debug_assert!(
            ev.cycles.nmi as u32 + work + audio < POLL_FLOOR,
            "a quiet frame's cycles grew past the floor"
        );
        ev.cycles.work = (work + audio) as u16;
        self.count_time(ev);
        true
    }

    /// The menus are not counted, so a game entered through them (A-type: B-type's garbage
    /// rows are not counted either) starts from the timing and the sound engine every
    /// cartridge recording had at that point, entered through the menus the same way (see
    /// [`crate::timing::Clock::RECORDED_GAME_START`]): the game is then counted, its lag
    /// frames and crashes those of a console whose menus ended in that phase. (Not under
    /// [`crate::CrashMode::Off`].)
    #[cold]
    fn start_counting(&mut self) {
        if self.s.crash_mode == crate::CrashMode::Off
            || self.s.game_type != 0
            || !self.s.region.cycles_counted()
            || !self.s.variant.is_cartridge()
        {
            return;
        }
        self.s.clock = crate::timing::Clock::RECORDED_GAME_START;
        self.s.audio = crate::timing::recorded_audio();
    }

    /// A frame with the CPU's time counted: the general path. Not inlined either: the
    /// quiet frame does not need the sound engine's registers.
    #[inline(never)]
    fn counted_frame(
        &mut self,
        buttons: Buttons,
        demo: &DemoData,
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) {
        self.interrupt::<true>(buttons, demo, ev);
        self.main_loop::<true>(demo, music, ev);
        self.count_time(ev);
    }

    /// The sound requests the player update wrote, in the cartridge's order (a later
    /// request for the same slot replaces an earlier one).
    #[inline(always)]
    fn request_sounds(&mut self, ev: &FrameEvents, checking: bool) {
        const SOUNDS: u32 = FrameEvents::SHIFTED
            | FrameEvents::ROTATED
            | FrameEvents::ROW_COMPLETED
            | FrameEvents::LEVEL_UP
            | FrameEvents::TOPPED_OUT
            | FrameEvents::MUSIC_TEMPO;
        if ev.flags & SOUNDS == 0 && !checking {
            return;
        }
        let a = &mut self.s.audio;
        if ev.has(FrameEvents::SHIFTED) {
            a.play(SoundEffect::Shift);
        }
        if ev.has(FrameEvents::ROTATED) {
            a.play(SoundEffect::Rotate);
        }
        if ev.has(FrameEvents::ROW_COMPLETED) {
            a.play(SoundEffect::LineCompleted);
        }
        if checking && self.s.play_state != 3 {
            // The row check's last row: the tetris fanfare, or the lock's click.
            match self.s.completed_lines {
                4 => a.play(SoundEffect::TetrisAchieved),
                0 => a.play(SoundEffect::Lock),
                _ => {}
            }
        }
        if ev.has(FrameEvents::LEVEL_UP) {
            a.play(SoundEffect::LevelUp);
        }
        if ev.has(FrameEvents::MUSIC_TEMPO) {
            let fast = if self.s.allegro != 0 { 4 } else { 0 };
            a.set_music_track(MUSIC_SELECTION[(self.s.music_type as usize + fast) & 7]);
        }
        if ev.has(FrameEvents::TOPPED_OUT) {
            a.play(SoundEffect::GameOverCurtain);
            a.silence();
        }
    }

    /// In a frame whose work can reach the next interrupt before the sound update: walks
    /// the passes after the player update, and if the interrupt lands in them ends the
    /// frame there (true), the rest left to [`Game::finish_interrupted`].
    #[inline(always)]
    fn cut_in_passes(&mut self, ev: &mut FrameEvents) -> bool {
        // Far more than the passes cost.
        const PASSES_BOUND: u32 = 1_000;
        let s = &self.s;
        if !(s.clock.known && ev.cycles.known) {
            return false;
        }
        // The dispatch's `rts` after the player update is counted already.
        let at = ev.cycles.nmi as u32 + ev.cycles.work as u32 - 6;
        let poll = s.clock.first_poll_end();
        if poll > at + PASSES_BOUND {
            return false;
        }
        // A reset or a pause leaves the passes: not placed (the timing is lost below).
        if s.held == 0xF0 || (s.render_mode == 3 && s.pressed & 0x10 != 0 && s.play_state != 10) {
            return false;
        }
        let Some(l) = overrun::passes(
            at,
            poll,
            s.game_mode,
            s.render_mode,
            s.pressed,
            s.play_state,
        ) else {
            return false;
        };
        self.s.game_mode_state = l.game_mode_state;
        self.s.resume = Resume::Interrupted(l.jump.map_or(Cut::Passes, Cut::Dispatch));
        ev.cycles.landed = l.boundary as u16;
        // The work up to the sound update's first instruction.
        ev.cycles.work = (l.audio_start - ev.cycles.nmi as u32) as u16;
        true
    }

    /// The frame after a lag frame: the rest of the interrupted work.
    fn finish_interrupted(
        &mut self,
        cut: Cut,
        demo: &DemoData,
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) {
        let pending = self.s.clock.pending as u32;
        self.s.clock.pending = 0;
        self.s.resume = Resume::MainLoop;
        match cut {
            Cut::Audio => ev.add_work(pending),
            Cut::Player(cut) => self.finish_player_update(cut, demo, music, ev),
            Cut::Passes | Cut::Dispatch(_) => {
                if let Cut::Dispatch(jump) = cut {
                    ev.set(FrameEvents::DISPATCH_BROKEN);
                    match jump.detour() {
                        Detour::Halt => {
                            // Played on (`Show`, `TopOut`), the game goes as if the jump had
                            // been right, its timing lost.
                            ev.cycles.known = false;
                            if self.crash(Crash::Halted, ev) {
                                return;
                            }
                        }
                        Detour::LegalScreen => {
                            if self.crash(Crash::LegalScreen, ev) {
                                // The tail's first wait: the sound update, then the legal
                                // screen's setup from its third wait on.
                                ev.add_work(pending + 7 - 6);
                                self.update_audio(music, ev);
                                self.s.resume = Resume::LegalSetup(2);
                                return;
                            }
                            ev.cycles.known = false;
                        }
                        // Harmless: the cycles are in `pending`; the passes then run again
                        // from the broken one, as below.
                        Detour::EndingVars => self.s.flow.ending_vars = [0xA9, 0],
                        Detour::FillNametable => ev.flags |= FrameEvents::PICTURE_FILLED,
                    }
                }
                let s = &self.s;
                let resets = s.held == 0xF0 && s.game_mode_state <= 6;
                let pauses = s.game_mode_state <= 7
                    && s.render_mode == 3
                    && s.pressed & 0x10 != 0
                    && s.play_state != 10;
                if resets || pauses {
                    // The new buttons take the handlers elsewhere: run them as usual, with
                    // the timing lost.
                    ev.cycles.known = false;
                    while !self.run_handler(demo, music, ev) {
                        self.check_demo_end();
                    }
                    return;
                }
                self.s.game_mode_state = 2;
                // The sound update's count has its `jsr`, which `pending` has too; the 7
                // cycles after it are the wait's.
                ev.add_work(pending + 7 - 6);
                self.update_audio(music, ev);
            }
        }
    }

    /// The sound engine's update before the main loop's wait (`jsr updateAudio_jmp`).
    #[inline(always)]
    fn update_audio(&mut self, music: Option<&MusicData>, ev: &mut FrameEvents) {
        if !self.s.clock.known {
            return;
        }
        // Cycles from the handler's start to the update's first instruction: the work so far
        // has the 7 cycles after the update (see `TO_WAIT`), not the `jsr updateAudio_jmp`.
        let start = ev.cycles.nmi as u32 + ev.cycles.work as u32 - 7 + 6;
        let poll = self.s.clock.first_poll_end();
        // Far more than an update costs: only then can the interrupt land inside it.
        const UPDATE_BOUND: u32 = 12_000;
        let before = (poll <= start + UPDATE_BOUND).then(|| self.s.audio.clone());
        let u = self.s.audio.update(music);
        if let (Some(before), true) = (before, self.s.clock.known && ev.cycles.known) {
            // After the update: `lda #0` (2 cycles), then `sta verticalBlankingInterval`. An
            // interrupt taken before the store has its flag cleared by it: the loop waits
            // for the next one, and this frame's work has run into the next frame.
            if poll > start && poll <= start + u.cycles + 2 {
                self.s.resume = Resume::Interrupted(Cut::Audio);
                ev.cycles.landed = if poll <= start + u.cycles {
                    let p = before.probe(music, poll - start);
                    (start + p.boundary.unwrap_or(u.cycles)) as u16
                } else {
                    (start + u.cycles + 2) as u16
                };
            }
        }
        let c = 6 + u.cycles;
        ev.cycles.audio = c as u16;
        ev.add_work(c);
        if !u.exact {
            ev.cycles.known = false;
        }
    }

    /// Moves the sub-frame clock over the frame just run.
    #[inline(always)]
    pub(crate) fn count_time(&mut self, ev: &mut FrameEvents) {
        if !ev.cycles.known {
            self.s.clock.known = false;
            return;
        }
        if !self.s.clock.known {
            return;
        }
        let total = ev.cycles.nmi as u32 + ev.cycles.work as u32;
        if ev.cycles.landed != 0 {
            // Placed by the work it landed in, which set `resume`.
            let landed = ev.cycles.landed as u32;
            self.s.clock.interrupted(landed, total - landed);
            ev.set(FrameEvents::LAG);
        } else if let crate::timing::Arrival::DuringWork = self.s.clock.advance(total) {
            // Every counted frame ends `lda #0` (ending 5 cycles before the wait loop), `sta
            // verticalBlankingInterval` (2 before), `nop`; an interrupt taken before the store
            // was placed by the sound update. One taken after the store or the `nop` is no
            // lag: the handler sets the flag and the loop, entered late, finds it set.
            let poll = self.s.clock.first_poll_end();
            if poll + 5 > total {
                let boundary = if poll + 2 > total { total } else { total - 2 };
                self.s.clock.interrupted(boundary, total - boundary);
            } else {
                // Landed in work whose instructions are not placed yet: the timing is lost.
                ev.set(FrameEvents::LAG);
                self.s.clock.known = false;
            }
        }
    }

    /// The frame interrupt: render (which moves game state in play), counters, pad.
    #[inline]
    fn interrupt<const COUNT: bool>(
        &mut self,
        buttons: Buttons,
        demo: &DemoData,
        ev: &mut FrameEvents,
    ) {
        let paused = matches!(self.s.resume, Resume::Paused);
        if COUNT && self.s.game_mode == 4 && (self.s.render_mode == 3 || paused) {
            ev.cycles.known = true;
            let (nmi, dma_at) = cycles::nmi_play(&self.s);
            let parity = (self.s.clock.odd_cycle as u32 ^ dma_at) & 1;
            ev.cycles.nmi = (nmi + cycles::OAM_DMA[parity as usize]) as u16;
        }
        if self.s.render_mode == 3 {
            self.render_play_frame(ev);
        }
        self.tick_counters();
        if self.s.game_mode == 5 {
            self.poll_demo(buttons, demo);
        } else {
            self.poll_controller(buttons);
        }
    }

    #[inline]
    fn poll_controller(&mut self, buttons: Buttons) {
        let now = buttons.bits();
        self.s.pressed = now & !self.s.held;
        self.s.held = now;
    }

    /// The interrupt's work in play (`renderMode` 3) before its counters.
    #[inline(always)]
    pub(crate) fn render_play_frame(&mut self, ev: &mut FrameEvents) {
        if self.s.completed_lines == 4 && self.s.frame_counter & 7 == 0 {
            // The tetris flash's sweep, asked for by the interrupt itself.
            self.s.audio.play(SoundEffect::LineClearing);
        }
        self.render_play(ev);
    }

    /// `render_mode_play_and_demo`: the line-clear animation, or the playfield copy.
    #[inline]
    pub(crate) fn render_play(&mut self, ev: &mut FrameEvents) {
        let s = &mut self.s;
        let counters =
            s.render_flags & (cycles::RENDER_LINES | cycles::RENDER_LEVEL | cycles::RENDER_SCORE);
        if counters != 0 {
            note_drawn(s, counters, ev);
        }
        // One player: lines, level, score and statistics are drawn whenever out of date.
        s.render_flags &= !(cycles::RENDER_LINES
            | cycles::RENDER_LEVEL
            | cycles::RENDER_SCORE
            | cycles::RENDER_STATS);
        if s.play_state == 4 {
            // Tests the frame counter before this frame's increment.
            if s.frame_counter & 3 == 0 {
                s.row_y = s.row_y.wrapping_add(1);
                ev.set(FrameEvents::LINE_CLEAR_STEP);
                if (s.row_y.wrapping_sub(5) as i8) >= 0 {
                    // From the next frame the picture is redrawn from RAM, four rows a
                    // frame from the top; `cleared` keeps what the rest still shows.
                    s.play_state = s.play_state.wrapping_add(1);
                }
            }
            s.vram_row = 0;
        } else if s.vram_row <= 20 {
            // Up to four rows a frame; after row 19 the copy is done ($20).
            s.vram_row = if s.vram_row >= 16 {
                0x20
            } else {
                s.vram_row + 4
            };
        } else if s.vram_row >= 0x80 {
            // Only reachable from a hand-made state: the cartridge's signed tests, as is.
            for _ in 0..4 {
                if (s.vram_row.wrapping_sub(21) as i8) >= 0 {
                    break;
                }
                s.vram_row = s.vram_row.wrapping_add(1);
                if (s.vram_row.wrapping_sub(20) as i8) >= 0 {
                    s.vram_row = 0x20;
                }
            }
        }
    }

    /// Runs the main loop from where it waited until it waits again; true when the frame was
    /// an ordinary play frame ([`Game::normal_play_frame`] ran it to its wait).
    #[inline(always)]
    fn main_loop<const COUNT: bool>(
        &mut self,
        demo: &DemoData,
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) -> bool {
        // Play frames resume at the main loop: one test on their path.
        if !matches!(self.s.resume, Resume::MainLoop) {
            if let Resume::Interrupted(cut) = self.s.resume {
                self.finish_interrupted(cut, demo, music, ev);
                return false;
            }
            if !matches!(self.s.resume, Resume::GameInit { .. } | Resume::Paused) {
                ev.cycles.known = false;
            }
        }
        let next = match self.s.resume {
            // Handled above, and in `step_with`.
            Resume::Interrupted(_) | Resume::Halted => Next::Wait,
            Resume::MainLoop => {
                // The main loop's own wait is followed by the demo's end check; `pending` is
                // the `nop` left when the interrupt came just after the wait's store.
                let late = self.s.clock.pending as u32;
                self.s.clock.pending = 0;
                ev.count::<COUNT>(
                    late + cycles::wait_exit(self.s.clock.after_load) + cycles::AFTER_WAIT,
                );
                self.check_demo_end();
                Next::Continue
            }
            Resume::GameInit { rows_left } => {
                if rows_left == 0 {
                    let track = MUSIC_SELECTION[self.s.music_type as usize & 3];
                    self.s.audio.set_music_track(track);
                }
                if rows_left == 0 && self.s.game_type == 0 {
                    ev.add_work(
                        cycles::wait_exit(self.s.clock.after_load)
                            + cycles::init_game_state_end(self.s.music_type),
                    );
                } else {
                    ev.cycles.known = false;
                }
                if self.continue_game_init(rows_left) {
                    Next::Continue
                } else {
                    Next::Wait
                }
            }
            Resume::Paused => {
                let after_wait = if self.s.clock.pause_entry {
                    cycles::PAUSE_FIRST
                } else {
                    cycles::PAUSE_AGAIN
                };
                self.s.clock.pause_entry = false;
                ev.count::<COUNT>(
                    cycles::wait_exit(self.s.clock.after_load) + after_wait + cycles::PAUSE_LOOP,
                );
                if !ends_pause(self.s.pressed) {
                    ev.count::<COUNT>(cycles::PAUSE_WAIT);
                    if COUNT {
                        self.update_audio(music, ev);
                    }
                    return false;
                }
                ev.count::<COUNT>(cycles::PAUSE_RESUME);
                self.s.vram_row = 0;
                self.s.render_mode = 3;
                self.s.game_mode_state += 1;
                self.s.audio.set_paused(false);
                ev.set(FrameEvents::RESUMED);
                Next::Continue
            }
            Resume::Ending(step) => match self.resume_ending(step, ev) {
                // The player update that ran the ending returns to the main loop.
                Next::Continue => {
                    self.stage_piece_sprite();
                    self.s.game_mode_state = self.s.game_mode_state.wrapping_add(1);
                    Next::Continue
                }
                Next::Wait => Next::Wait,
            },
            Resume::HighScoreSetup(n) => self.resume_high_score_setup(n, ev),
            Resume::NameEntry => self.name_entry_frame(ev),
            Resume::NameEntryDone => self.after_name_entry(),
            Resume::GameOverReset => self.after_game_over_reset(ev),
            Resume::LevelMenuSetup(n) => self.resume_level_menu_setup(n, ev),
            Resume::LevelMenu => self.level_menu_frame(ev),
            Resume::GameBackground(n) => self.resume_game_background(n, ev),
            Resume::Reset(n) => self.resume_reset(n),
            Resume::LegalSetup(n) => self.resume_legal_setup(n),
            Resume::LegalSleep => self.legal_sleep(),
            Resume::LegalWait => self.legal_wait(),
            Resume::TitleSetup(n) => self.resume_title_setup(n),
            Resume::Title => self.title_frame(ev),
            Resume::TypeMenuSetup(n) => self.resume_type_menu_setup(n, ev),
            Resume::TypeMenu => self.type_menu_frame(ev),
        };
        if let Next::Wait = next {
            return false;
        }
        self.s.resume = Resume::MainLoop;
        if self.s.game_mode == 4
            && self.s.game_mode_state == 2
            && self.normal_play_frame::<COUNT>(demo, music, ev)
        {
            return true;
        }
        while !self.run_handler(demo, music, ev) {
            self.check_demo_end();
        }
        false
    }

    /// States 2 to 8 of an ordinary play frame in one pass (the hot path); the same steps
    /// as [`Game::play_handler`] would take one by one. Returns false, with
    /// `game_mode_state` where it stopped, when the general loop must go on.
    #[inline(always)]
    fn normal_play_frame<const COUNT: bool>(
        &mut self,
        demo: &DemoData,
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) -> bool {
        self.pass_two(ev);
        let s = &mut self.s;
        if s.play_state == 0 {
            s.game_mode_state = 3;
            return false;
        }
        s.game_mode_state = 4;
        ev.count::<COUNT>(
            cycles::pass(2)
                + cycles::handler2(s.pressed)
                + cycles::NEXT_PASS
                + cycles::pass(3)
                + cycles::HANDLER3
                + cycles::NEXT_PASS
                + cycles::pass(4),
        );
        if self.player_update::<COUNT>(demo, music, ev) {
            return true;
        }
        self.after_player_update::<COUNT>(music, ev)
    }

    /// `gameModeState` 2's work: the fall timer, and Select toggling the preview.
    #[inline(always)]
    fn pass_two(&mut self, ev: &mut FrameEvents) {
        let s = &mut self.s;
        s.fall_timer = s.fall_timer.wrapping_add(1);
        if s.pressed & Buttons::SELECT.bits() != 0 {
            s.display_next_piece ^= 1;
            ev.set(FrameEvents::NEXT_TOGGLED);
        }
    }

    /// States 5 to 8 of an ordinary play frame, after the player update returned (the
    /// dispatch's `rts` counted); false as for [`Game::normal_play_frame`].
    #[inline(always)]
    fn after_player_update<const COUNT: bool>(
        &mut self,
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) -> bool {
        const START: u8 = Buttons::START.bits();
        if COUNT && self.cut_in_passes(ev) {
            return true;
        }
        ev.count::<COUNT>(
            cycles::NEXT_PASS + cycles::pass(5) + cycles::HANDLER5 + cycles::NEXT_PASS,
        );
        let s = &mut self.s;
        if s.held == 0xF0 {
            s.game_mode_state = 6;
            return false;
        }
        ev.count::<COUNT>(cycles::pass(6) + cycles::HANDLER6);
        s.game_mode_state = 7;
        if s.held == 7 {
            ev.count::<COUNT>(cycles::TO_WAIT);
            if COUNT {
                self.update_audio(music, ev);
            }
            return true;
        }
        ev.count::<COUNT>(cycles::NEXT_PASS);
        if s.render_mode == 3 && s.pressed & START != 0 && s.play_state != 10 {
            return false;
        }
        ev.count::<COUNT>(
            cycles::pass(7)
                + cycles::handler7(s)
                + cycles::NEXT_PASS
                + cycles::pass(8)
                + cycles::HANDLER8
                + cycles::TO_WAIT,
        );
        s.game_mode_state = 2;
        if COUNT {
            self.update_audio(music, ev);
        }
        true
    }

    /// One pass of `branchOnGameMode`; true when the main loop waits for the next frame.
    fn run_handler(
        &mut self,
        demo: &DemoData,
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) -> bool {
        let next = match self.s.game_mode {
            0 => self.legal_start(ev),
            1 => self.title_start(ev),
            2 => self.type_menu_start(ev),
            3 => self.level_menu_start(ev),
            4 | 5 => return self.play_handler(demo, music, ev),
            6 => {
                self.start_demo();
                return self.play_handler(demo, music, ev);
            }
            _ => Next::Wait,
        };
        matches!(next, Next::Wait)
    }

    /// `gameMode_playAndEndingHighScore`: one gameModeState handler.
    fn play_handler(
        &mut self,
        demo: &DemoData,
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) -> bool {
        let s = &mut self.s;
        match s.game_mode_state {
            0 => matches!(self.game_background_start(), Next::Wait),
            1 => {
                self.init_game_state(demo);
                true
            }
            2 => {
                ev.add_work(cycles::pass(2) + cycles::handler2(s.pressed) + cycles::NEXT_PASS);
                self.pass_two(ev);
                self.s.game_mode_state = 3;
                false
            }
            3 => {
                if s.play_state == 0 {
                    ev.cycles.known = false;
                    return matches!(self.game_over(ev), Next::Wait);
                }
                ev.add_work(cycles::pass(3) + cycles::HANDLER3 + cycles::NEXT_PASS);
                s.game_mode_state = 4;
                false
            }
            4 => {
                ev.add_work(cycles::pass(4));
                if self.player_update::<true>(demo, music, ev) {
                    return true;
                }
                ev.add_work(cycles::NEXT_PASS);
                self.s.game_mode_state = 5;
                false
            }
            5 => {
                ev.add_work(cycles::pass(5) + cycles::HANDLER5 + cycles::NEXT_PASS);
                s.game_mode_state = 6;
                false
            }
            6 => {
                if s.held == 0xF0 {
                    // A+B+Select+Start: soft reset to the legal screen.
                    ev.cycles.known = false;
                    s.game_mode = 0;
                    return false;
                }
                ev.add_work(cycles::pass(6) + cycles::HANDLER6);
                s.game_mode_state = 7;
                // The main loop compares the accumulator, here the held buttons, with the
                // new gameModeState: exactly Down+Left+Right (7) makes it wait now.
                let waits = s.held == 7;
                ev.add_work(if waits {
                    cycles::TO_WAIT
                } else {
                    cycles::NEXT_PASS
                });
                waits
            }
            7 => {
                if s.game_mode == 5 && s.pressed == Buttons::START.bits() {
                    ev.cycles.known = false;
                    s.game_mode = 1;
                } else if s.render_mode == 3
                    && s.pressed & Buttons::START.bits() != 0
                    && s.play_state != 10
                {
                    s.render_mode = 0;
                    s.resume = Resume::Paused;
                    s.clock.pause_entry = true;
                    s.audio.set_paused(true);
                    ev.set(FrameEvents::PAUSED);
                    ev.add_work(cycles::PAUSE_ENTRY);
                    self.update_audio(music, ev);
                    return true;
                }
                ev.add_work(cycles::pass(7) + cycles::handler7(s) + cycles::NEXT_PASS);
                s.game_mode_state = 8;
                false
            }
            8 => {
                ev.add_work(cycles::pass(8) + cycles::HANDLER8 + cycles::TO_WAIT);
                s.game_mode_state = 2;
                self.update_audio(music, ev);
                true
            }
            _ => true,
        }
    }

    /// `gameModeState_initGameState`, up to its first wait.
    fn init_game_state(&mut self, demo: &DemoData) {
        let s = &mut self.s;
        // A crash shown in the last game is not this one's; the new picture is drawn whole.
        s.crash = None;
        s.stale = crate::view::StaleDigits::default();
        s.playfield = Playfield::empty();
        s.cleared = crate::view::Cleared::default();
        s.stats = [[0; 2]; 7];
        s.x = 5;
        s.y = 0;
        s.vram_row = 0;
        s.fall_timer = 0;
        s.score = [0; 3];
        s.lines = [0; 2];
        s.clears = [0; 4];
        s.allegro = 0;
        s.spawn_id = 0;
        if let Some(seed) = &mut s.variant.seed {
            // TetrisGYM copies the entered seed into its generator at every game's init.
            seed.state = seed.input;
        }
        if let Some(d) = &mut s.variant.das_only {
            // TetrisGYM's init clears the disabled count and calls `hzStart`.
            *d = crate::DasOnly::default();
        }
        s.render_mode = 3;
        s.autorepeat_y = s.region.first_piece_delay();
        self.s.flow.demo_held = 0;
        self.s.flow.demo_repeats = 0;
        self.s.flow.demo_index = 0;
        self.s.flow.demo_ptr = 0;
        let first = self.choose_next_piece(demo);
        self.s.piece = first;
        self.increment_piece_stat(first);
        self.s.rng = lfsr_step(self.s.rng);
        self.s.next_piece = self.choose_next_piece(demo);
        if self.s.game_type == 1 {
            self.s.lines[0] = 0x25;
        }
        let rows_left = if self.s.game_type == 1 { 12 } else { 0 };
        self.s.resume = Resume::GameInit { rows_left };
    }

    /// Game init after a wait: the next B-type garbage row (then wait again), or the
    /// height blanking and the end of init. Returns true when init finished this frame.
    fn continue_game_init(&mut self, rows_left: u8) -> bool {
        let s = &mut self.s;
        if s.game_type == 1 && rows_left > 0 {
            let row = 20 - rows_left;
            s.vram_row = 0;
            for col in (0..10u8).rev() {
                s.rng = lfsr_step(s.rng);
                let tile = GARBAGE_TILES[(s.rng >> 8) as usize & 7];
                s.playfield.0[(row * 10 + col) as usize] = tile;
            }
            let hole = loop {
                s.rng = lfsr_step(s.rng);
                let v = (s.rng >> 8) as u8 & 0x0F;
                if v < 10 {
                    break v;
                }
            };
            s.playfield.0[(row * 10 + hole) as usize] = TILE_EMPTY;
            s.resume = Resume::GameInit {
                rows_left: rows_left - 1,
            };
            return false;
        }
        if s.game_type == 1 {
            let end = GARBAGE_BLANK_END[s.start_height as usize % 6] as usize;
            s.playfield.0[..=end].fill(TILE_EMPTY);
        }
        s.game_mode_state = 2;
        true
    }

    /// `chooseNextTetrimino`: the random picker, or the demo's piece list.
    #[inline]
    pub(crate) fn choose_next_piece(&mut self, demo: &DemoData) -> u8 {
        if self.s.game_mode == 5 {
            let piece = demo.piece(self.s.flow.demo_index);
            self.s.flow.demo_index = self.s.flow.demo_index.wrapping_add(1);
            return piece;
        }
        let drought = self.s.variant.drought;
        let mut repicks = 0;
        loop {
            let rng_low = if let Some(seed) = &mut self.s.variant.seed {
                // TetrisGYM's seed mode: its own generator; `rng_seed` goes on unread.
                self.s.spawn_id = seed.pick(self.s.spawn_id);
                seed.state[1]
            } else {
                let p = pick_piece(self.s.rng, self.s.spawn_count, self.s.spawn_id);
                self.s.rng = p.rng;
                self.s.spawn_count = p.spawn_count;
                self.s.spawn_id = p.piece;
                p.rng as u8
            };
            // TetrisGYM's drought mode picks an I again (`pickTetriminoDrought`); with a
            // seed (which TetrisGYM cannot combine with it) from the seed's generator.
            if drought == 0
                || self.s.spawn_id != I_SPAWN_ID
                || !crate::drought_repicks(drought, rng_low)
                || repicks == crate::DROUGHT_MAX_REPICKS
            {
                return self.s.spawn_id;
            }
            repicks += 1;
        }
    }

    /// `incrementPieceStat` for the piece type of orientation `piece`.
    #[inline]
    pub(crate) fn increment_piece_stat(&mut self, piece: u8) {
        let t = ORIENTATION_TYPE[piece as usize % 20] as usize;
        crate::bcd::increment_stat(&mut self.s.stats[t]);
        self.s.render_flags |= cycles::RENDER_STATS;
    }

    /// `gameModeState_updatePlayer1` up to its `inc gameModeState`: the copy into the active
    /// block, the piece work, the copy back; true when the handler began a wait (an ending).
    #[inline(always)]
    pub(crate) fn player_update<const COUNT: bool>(
        &mut self,
        demo: &DemoData,
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) -> bool {
        let scoring = self.s.play_state == 5;
        let checking = self.s.play_state == 3;
        let before = if COUNT && scoring {
            Some((
                Block::of(&self.s),
                self.s.render_flags,
                [self.s.pressed, self.s.held],
            ))
        } else {
            None
        };
        let waits = self.update_player::<COUNT>(demo, ev);
        if COUNT {
            // Without the timing the sound engine is not run (see `Game::step_with`).
            self.request_sounds(ev, checking);
        }
        if scoring {
            // The score routine marks what the interrupt must redraw.
            let mut f = cycles::RENDER_SCORE;
            if ev.has(FrameEvents::LINES_CLEARED) {
                f |= cycles::RENDER_LINES;
            }
            if ev.has(FrameEvents::LEVEL_UP) {
                f |= cycles::RENDER_LEVEL;
            }
            self.s.render_flags |= f;
        }
        if COUNT && !waits {
            ev.cycles.work = ev
                .cycles
                .work
                .wrapping_add((cycles::UPDATE_PLAYER1 + ev.cycles.player as u32) as u16);
            if let Some((old, flags, buttons)) = before {
                return self.cut_in_score(old, flags, buttons, music, ev);
            }
        }
        waits
    }

    /// After a score state whose update can reach the next interrupt: walks the update from
    /// the score loop on, and if the interrupt lands there ends the frame (true), the rest
    /// left to [`Game::finish_player_update`]. `old` is the block before the update, `flags`
    /// the render flags, `buttons` the update's copies of the pad.
    #[inline(never)]
    fn cut_in_score(
        &mut self,
        old: Block,
        flags: u8,
        buttons: [u8; 2],
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) -> bool {
        let s = &self.s;
        if !(s.clock.known && ev.cycles.known) {
            return false;
        }
        let nmi = ev.cycles.nmi as u32;
        // The update's `rts`: the work counts the dispatch's `rts` after it already.
        let at = nmi + ev.cycles.work as u32 - 6;
        let poll = s.clock.first_poll_end();
        if poll > at {
            return false;
        }
        // The loop's first instruction, from the handler's cycles: what comes before it is
        // all the handler has but the passes and the 23 cycles after them.
        let (lo, hi) = crate::tables::POINTS[old.completed_lines as usize % 5];
        let mut score = old.score;
        crate::bcd::add_hold_down_points(&mut score, old.hold_down_points);
        let start_score = score;
        let times = s.level as u16 + 1;
        let passes = crate::cycles_play::points_passes(&mut score, lo, hi, times);
        let next = crate::cycles_play::stage_next_piece(s.display_next_piece);
        let current = self.stage_piece_sprite();
        let player = ev.cycles.player as u32;
        let branch = crate::cycles_play::branch_on_play_state(5);
        let handler = player - branch - current - next;
        let update_start = at - cycles::UPDATE_PLAYER1 - player;
        // makePlayer1Active with its `jsr`, the dispatch, the handler up to the loop.
        let loop_start = update_start + 6 + 509 + branch + handler - passes - 23;
        if poll <= loop_start {
            return false;
        }
        let eager = (Block::of(&self.s), self.s.render_flags);
        let s = &mut self.s;
        s.score = start_score;
        s.completed_lines = old.completed_lines;
        s.play_state = 5;
        let mut f = flags;
        if old.completed_lines != 0 {
            f |= cycles::RENDER_LINES;
        }
        if s.level != old.level {
            f |= cycles::RENDER_LEVEL;
        }
        if (old.hold_down_points.wrapping_sub(2) as i8) >= 0 {
            f |= cycles::RENDER_SCORE;
        }
        s.render_flags = f;
        let ctx = landing::Context {
            rom: music,
            old,
            current_piece: current,
            buttons,
        };
        match landing::walk(s, Then::Score { left: times }, loop_start, poll, &ctx) {
            Walked::Landed { boundary, cut } => {
                s.resume = Resume::Interrupted(Cut::Player(cut));
                ev.cycles.landed = boundary as u16;
                ev.cycles.work = (boundary - nmi) as u16;
                true
            }
            Walked::Done { end } => {
                debug_assert_eq!(end, at);
                s.game_mode_state = 4;
                false
            }
            Walked::Unplaced => {
                eager.0.put(s);
                s.render_flags = eager.1;
                s.game_mode_state = 4;
                false
            }
        }
    }

    /// The frame after an interrupt inside the player update: the rest of the update (its
    /// active block back in place), then states 5 to 8 and the sound update.
    fn finish_player_update(
        &mut self,
        cut: crate::flow::PlayerCut,
        demo: &DemoData,
        music: Option<&MusicData>,
        ev: &mut FrameEvents,
    ) {
        let old = Block::of(&self.s);
        cut.active.put(&mut self.s);
        let nmi = ev.cycles.nmi as u32;
        let timed = self.s.clock.known && ev.cycles.known;
        let poll = if timed {
            self.s.clock.first_poll_end()
        } else {
            u32::MAX
        };
        let ctx = landing::Context {
            rom: music,
            old,
            current_piece: self.stage_piece_sprite(),
            buttons: cut.buttons,
        };
        if landing::garbled(cut.then) {
            ev.flags |= FrameEvents::SPRITES_GARBLED;
        }
        let then = landing::resume_list(cut.then, self.s.held);
        let start = self.s.clone();
        let mut walked = landing::walk(&mut self.s, then, nmi + cut.rest as u32, poll, &ctx);
        if let Walked::Unplaced = walked {
            // Landed again where the model does not follow: the same work, untimed.
            ev.cycles.known = false;
            self.s = start;
            walked = landing::walk(&mut self.s, then, nmi + cut.rest as u32, u32::MAX, &ctx);
        }
        let end = match walked {
            Walked::Landed { boundary, cut } => {
                self.s.resume = Resume::Interrupted(Cut::Player(cut));
                ev.cycles.landed = boundary as u16;
                ev.cycles.work = (boundary - nmi) as u16;
                return;
            }
            Walked::Done { end } => end,
            // Not reached untimed.
            Walked::Unplaced => nmi,
        };
        self.s.game_mode_state = 4;
        // As after an ordinary update: the dispatch's `rts` is counted with it.
        ev.cycles.work = (end + 6 - nmi) as u16;
        if !self.after_player_update::<true>(music, ev) {
            while !self.run_handler(demo, music, ev) {
                self.check_demo_end();
            }
        }
    }

    /// The spawn orientation of a piece type 0..=6 (T J Z O S L I).
    pub const fn spawn_orientation(piece_type: u8) -> u8 {
        SPAWN_TABLE[piece_type as usize & 7]
    }
}

/// The interrupt draws the counters whose render flags are `drawn` from the mirror, which
/// is what the snapshot holds. Inside a player update the interrupt cut, that is the value
/// from before the update, and the flag it clears leaves it on the picture (display lag):
/// kept in [`Snapshot::stale`] until the counter is drawn again.
#[cold]
#[inline(never)]
fn note_drawn(s: &mut Snapshot, drawn: u8, ev: &mut FrameEvents) {
    let active = match s.resume {
        Resume::Interrupted(Cut::Player(cut)) => Some(cut.active),
        _ => None,
    };
    let mut behind = false;
    if drawn & cycles::RENDER_LINES != 0 {
        s.stale.lines = active.map(|_| s.lines);
        behind |= active.is_some_and(|a| a.lines != s.lines);
    }
    if drawn & cycles::RENDER_LEVEL != 0 {
        s.stale.level = active.map(|_| s.level);
        behind |= active.is_some_and(|a| a.level != s.level);
    }
    if drawn & cycles::RENDER_SCORE != 0 {
        s.stale.score = active.map(|_| s.score);
        behind |= active.is_some_and(|a| a.score != s.score);
    }
    if behind {
        ev.set(FrameEvents::DIGITS_STALE);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Pad states that pause, unpause and play: Start alone, Start with others, and moves.
    const PADS: [u8; 8] = [0x00, 0x10, 0x10, 0x11, 0x80, 0x02, 0x04, 0x90];

    proptest! {
        /// The short paths give the general path's game and events, frame by frame, in
        /// counted and uncounted games alike (music on: the timing is lost early).
        #[test]
        fn short_paths_agree(
            seed in any::<u64>(),
            music in 0u8..5,
            level in prop::sample::select(vec![0u8, 9, 18, 29]),
            pads in prop::collection::vec((0usize..PADS.len(), 1usize..40), 1..60),
        ) {
            let setup = GameSetup {
                level,
                music_type: music,
                ..GameSetup::from_seed(seed)
            };
            hold_both_ways(Game::new(setup), &pads, &PADS)?;
        }

        /// The same in counted games (the music off) with the pads the passes around the
        /// player update act on held for a while: Select, Start, Start with Select, down
        /// with left and right (7), the reset combination ($F0), among moves and nothing.
        #[test]
        fn counted_frames_agree(
            seed in any::<u64>(),
            level in prop::sample::select(vec![0u8, 9, 18, 29]),
            pads in prop::collection::vec((0usize..PLAIN_PADS.len(), 1usize..20), 1..80),
        ) {
            let setup = GameSetup {
                level,
                music_type: 3,
                ..GameSetup::from_seed(seed)
            };
            hold_both_ways(Game::new(setup), &pads, &PLAIN_PADS)?;
        }

        /// The same for games played the way a placement environment plays them: taps,
        /// then long stretches of nothing pressed (the quiet short path), from levels where
        /// pieces lock, clear and top out quickly, the music off so that every frame is
        /// counted.
        #[test]
        fn idle_frames_agree(
            seed in any::<u64>(),
            level in prop::sample::select(vec![0u8, 9, 15, 18, 19, 29]),
            rng in any::<u16>(),
            pads in prop::collection::vec((0usize..IDLE_PADS.len(), 1usize..30), 1..80),
        ) {
            let setup = GameSetup {
                level,
                music_type: 3,
                rng,
                ..GameSetup::from_seed(seed)
            };
            tap_both_ways(Game::new(setup), &pads)?;
        }
    }

    proptest! {
        /// The same in games where most pieces clear (the bottom rows full but for one
        /// cell under where pieces spawn), at ordinary levels and where the score's frames
        /// lag and crash the cartridge (140 to 200, the score capped).
        #[test]
        fn clear_frames_agree(
            seed in any::<u64>(),
            level in prop_oneof![Just(0u8), Just(9), Just(18), Just(29), 140u8..=200],
            hole in 4usize..=6,
            pads in prop::collection::vec((0usize..IDLE_PADS.len(), 1usize..30), 1..60),
        ) {
            let g = clearing_game(seed, level, hole, crate::CrashMode::default());
            tap_both_ways(g, &pads)?;
        }
    }

    proptest! {
        /// The same for the play frames of games whose timing is not counted (recorded play
        /// with music): pads held for a while, among them Select, Start, down with left and
        /// right (7) and the reset combination ($F0); A- and B-type, the DAS-only variant,
        /// and boards where most pieces clear, up to where the score's frames lag.
        #[test]
        fn plain_frames_agree(
            seed in any::<u64>(),
            level in prop_oneof![Just(0u8), Just(9), Just(18), Just(29), 140u8..=200],
            b_type in any::<bool>(),
            das_only in any::<bool>(),
            hole in prop::option::of(4usize..=6),
            pads in prop::collection::vec((0usize..PLAIN_PADS.len(), 1usize..20), 1..80),
        ) {
            let mut g = Game::new(GameSetup {
                level: 18,
                game_type: if b_type { GameType::B } else { GameType::A },
                variant: crate::Variant {
                    das_only: das_only.then(crate::DasOnly::default),
                    ..crate::Variant::default()
                },
                ..GameSetup::from_seed(seed)
            });
            g.step(Buttons::NONE);
            let mut s = g.snapshot();
            s.level = level;
            s.clock.known = false;
            if let Some(hole) = hole {
                fill_but(&mut s, hole);
            }
            hold_both_ways(Game::from_snapshot(s).unwrap(), &pads, &PLAIN_PADS)?;
        }
    }

    /// Plays `game` with the short paths and without, `table[pad]` held for each
    /// `(pad, frames)`, and requires the same events and the same whole game every frame.
    fn hold_both_ways(
        game: Game,
        pads: &[(usize, usize)],
        table: &[u8],
    ) -> Result<(), TestCaseError> {
        let mut quick = game;
        let mut general = quick.clone();
        for &(pad, frames) in pads {
            for _ in 0..frames {
                let b = Buttons(table[pad]);
                let a = quick.step_with::<true>(b, &DemoData::BUILTIN, None);
                let g = general.step_with::<false>(b, &DemoData::BUILTIN, None);
                prop_assert_eq!(a, g);
                prop_assert_eq!(&quick, &general);
            }
        }
        Ok(())
    }

    /// A game from `seed` at `level` a frame in, its bottom ten rows full but for column
    /// `hole` (4-6: under where pieces spawn), so that most pieces clear; from level 140 on
    /// with the score capped and 1,450 lines (the score's frames lag and crash there).
    pub(crate) fn clearing_game(
        seed: u64,
        level: u8,
        hole: usize,
        crash_mode: crate::CrashMode,
    ) -> Game {
        let mut g = Game::new(GameSetup {
            level: 18,
            music_type: 3,
            crash_mode,
            ..GameSetup::from_seed(seed)
        });
        g.step(Buttons::NONE);
        let mut s = g.snapshot();
        s.level = level;
        if level >= 140 {
            s.score = [0x99; 3];
            s.lines = [0x50, 0x14];
        }
        fill_but(&mut s, hole);
        Game::from_snapshot(s).unwrap()
    }

    /// Rows 10-19 of `s`'s playfield full but for column `hole` (under where pieces
    /// spawn): most pieces then clear lines.
    fn fill_but(s: &mut Snapshot, hole: usize) {
        for r in 10..20 {
            for c in 0..10 {
                if c != hole {
                    s.playfield.0[r * 10 + c] = 0x7B;
                }
            }
        }
    }

    /// Pads of the plain-frame test: nothing (often), moves, drops, rotations, Select,
    /// Start, Start with Select, down with left and right, the reset combination.
    const PLAIN_PADS: [u8; 14] = [
        0x00, 0x00, 0x00, 0x01, 0x02, 0x04, 0x80, 0x40, 0x81, 0x20, 0x10, 0x30, 0x07, 0xF0,
    ];

    /// Plays `game` with the short paths and without, a tap (`IDLE_PADS[pad]`, one frame)
    /// then nothing for the rest of each `(pad, frames)`, and requires the same events and
    /// the same whole game every frame.
    fn tap_both_ways(game: Game, pads: &[(usize, usize)]) -> Result<(), TestCaseError> {
        let mut quick = game;
        let mut general = quick.clone();
        for &(pad, frames) in pads {
            for f in 0..frames {
                let b = Buttons(if f == 0 { IDLE_PADS[pad] } else { 0 });
                let a = quick.step_with::<true>(b, &DemoData::BUILTIN, None);
                let g = general.step_with::<false>(b, &DemoData::BUILTIN, None);
                prop_assert_eq!(a, g);
                prop_assert_eq!(&quick, &general);
            }
        }
        Ok(())
    }

    /// Taps of the idle test: nothing, a shift, a rotation, both, Select (the preview).
    const IDLE_PADS: [u8; 7] = [0x00, 0x00, 0x01, 0x02, 0x80, 0x41, 0x20];

    /// The quiet short path is the one nearly every frame of a game played without input
    /// takes: from level 18 with nothing pressed, all but the score's, the goal check's
    /// and the top-out's.
    #[test]
    fn quiet_path_is_taken() {
        let mut g = Game::new(GameSetup {
            level: 18,
            music_type: 3,
            ..GameSetup::from_seed(7)
        });
        assert!(g.s.clock.known, "a game with the music off is counted");
        let (mut quiet, mut frames) = (0, 0);
        while !g.is_over() && frames < 5_000 {
            let mut ev = FrameEvents::default();
            let taken =
                g.clone()
                    .quiet_play_frame(Buttons::NONE, &DemoData::BUILTIN, None, &mut ev);
            quiet += usize::from(taken);
            g.step(Buttons::NONE);
            frames += 1;
        }
        assert!(g.is_over(), "the stack reaches the top");
        assert!(quiet * 10 > frames * 9, "{quiet} quiet frames of {frames}");
    }
}
