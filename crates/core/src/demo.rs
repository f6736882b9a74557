//! The demo: its data format, its replacement of controller 1, and a recorder.
//!
//! The cartridge's demo is two tables: 256 (buttons, frames - 1) pairs played as
//! controller 1, and 256 bytes read in place of the random piece picker (bits 4-6 index
//! the spawn table; 7 reads past its end, which gives T). The tables here are ours:
//! [`DemoData::BUILTIN`] was recorded from a game played in this engine. A cartridge's
//! own tables can be read from a ROM image by the front ends and passed to
//! [`Game::step_with_demo`].

use crate::buttons::Buttons;
use crate::game::Game;
use crate::tables::SPAWN_TABLE;

/// Bytes in the demo's button table (256 pairs).
pub const DEMO_BUTTON_BYTES: usize = 512;

/// The demo's two tables.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct DemoData {
    /// (buttons, frames - 1) pairs, 256 of them.
    pub buttons: [u8; DEMO_BUTTON_BYTES],
    /// The piece list: bits 4-6 of each byte index the spawn table.
    pub pieces: [u8; 256],
}

impl core::fmt::Debug for DemoData {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DemoData").finish_non_exhaustive()
    }
}

impl DemoData {
    /// The project's own demo (see `crates/core/src/builtin_demo.rs`).
    pub const BUILTIN: DemoData = crate::builtin_demo::BUILTIN_DEMO;

    /// The byte the cartridge reads at `offset` from the start of the button table; past
    /// its end it reads on into the piece table.
    #[inline]
    pub fn byte(&self, offset: u16) -> u8 {
        let o = offset as usize;
        if o < DEMO_BUTTON_BYTES {
            self.buttons[o]
        } else {
            self.pieces.get(o - DEMO_BUTTON_BYTES).copied().unwrap_or(0)
        }
    }

    /// The spawn orientation of the `index`-th demo piece.
    #[inline]
    pub fn piece(&self, index: u8) -> u8 {
        SPAWN_TABLE[(self.pieces[index as usize] >> 4) as usize & 7]
    }
}

/// Records controller 1 into the demo's button format, as the cartridge's switched-off
/// recording mode would (a pair per change of the held buttons).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct DemoRecorder {
    pairs: [(u8, u8); 256],
    len: usize,
    held: u8,
    repeats: u8,
    started: bool,
}

impl DemoRecorder {
    /// An empty recording.
    pub fn new() -> DemoRecorder {
        DemoRecorder {
            pairs: [(0, 0); 256],
            len: 0,
            held: 0,
            repeats: 0,
            started: false,
        }
    }

    /// Adds one frame of buttons. Returns false once the table is full.
    pub fn push(&mut self, buttons: Buttons) -> bool {
        if self.len >= 256 {
            return false;
        }
        let b = buttons.bits();
        if !self.started {
            self.started = true;
            self.held = b;
            self.repeats = 0;
            return true;
        }
        // A pair holds at most 256 frames; the cartridge's recorder would wrap here.
        if b == self.held && self.repeats < 255 {
            self.repeats += 1;
            return true;
        }
        self.pairs[self.len] = (self.held, self.repeats);
        self.len += 1;
        self.held = b;
        self.repeats = 0;
        self.len < 256
    }

    /// Pairs recorded so far (the pair in progress not included).
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len == 0 && !self.started
    }

    /// The button table: the recorded pairs, the pair in progress, then no-input pairs.
    pub fn button_table(&self) -> [u8; DEMO_BUTTON_BYTES] {
        let mut t = [0u8; DEMO_BUTTON_BYTES];
        let mut n = 0;
        for &(b, r) in &self.pairs[..self.len] {
            t[2 * n] = b;
            t[2 * n + 1] = r;
            n += 1;
        }
        if self.started && n < 256 {
            t[2 * n] = self.held;
            t[2 * n + 1] = self.repeats;
        }
        t
    }
}

impl Default for DemoRecorder {
    fn default() -> Self {
        DemoRecorder::new()
    }
}

impl Game {
    /// The demo's controller read (`pollControllerButtons` in `gameMode` 5).
    #[inline]
    pub(crate) fn poll_demo(&mut self, buttons: Buttons, demo: &DemoData) {
        let now = buttons.bits();
        let s = &mut self.s;
        s.pressed = now & !s.held;
        s.held = now;
        let f = &mut s.flow;
        if s.pressed == Buttons::START.bits() {
            // Start on the real pad ends the demo.
            f.demo_ptr = 0;
            s.frame_counter &= 0x00FF;
            s.game_mode = 1;
            return;
        }
        if f.demo_repeats != 0 {
            f.demo_repeats -= 1;
            s.pressed = 0;
            s.held = f.demo_held;
            return;
        }
        let b = demo.byte(f.demo_ptr);
        s.pressed = (f.demo_held ^ b) & b;
        f.demo_held = b;
        f.demo_repeats = demo.byte(f.demo_ptr.wrapping_add(1));
        f.demo_ptr = f.demo_ptr.wrapping_add(2);
        if f.demo_ptr as usize >= DEMO_BUTTON_BYTES {
            // The table's end: the real pad's buttons stay held this frame.
            return;
        }
        s.held = f.demo_held;
    }

    /// `@checkForDemoDataExhaustion`: back to the title once the demo's buttons ran out.
    #[inline]
    pub(crate) fn check_demo_end(&mut self) {
        let s = &mut self.s;
        if s.game_mode == 5 && s.flow.demo_ptr as usize >= DEMO_BUTTON_BYTES {
            s.flow.demo_ptr = 0;
            s.frame_counter &= 0x00FF;
            s.game_mode = 1;
        }
    }

    /// `gameMode_startDemo`: an A-type level-0 game with the demo's input and pieces.
    pub(crate) fn start_demo(&mut self) {
        let s = &mut self.s;
        s.game_type = 0;
        s.start_level = 0;
        s.game_mode_state = 0;
        s.play_state = 0;
        s.game_mode = 5;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Region;

    fn run_until(game: &mut Game, frames: usize, done: impl Fn(&Game) -> bool) -> Option<usize> {
        for i in 0..frames {
            game.step(Buttons::NONE);
            if done(game) {
                return Some(i);
            }
        }
        None
    }

    #[test]
    fn title_starts_the_demo_and_the_demo_returns_to_the_title() {
        let mut g = Game::power_on(Region::Ntsc);
        let title = run_until(&mut g, 2000, |g| g.state().game_mode == 1).expect("title");
        let demo = run_until(&mut g, 2000, |g| g.state().game_mode == 5).expect("demo");
        // The frame counter's high byte reaches 5 between 1,024 and 1,280 frames in.
        assert!(
            (1024..=1290).contains(&demo),
            "demo after {demo} frames (title at {title})"
        );
        assert_eq!(g.state().start_level, 0);
        assert_eq!(g.state().game_type, 0);
        // The first piece comes from the demo's list, not the generator.
        run_until(&mut g, 20, |g| g.state().game_mode_state == 2).expect("play");
        assert_eq!(g.state().piece, DemoData::BUILTIN.piece(0));
        assert_eq!(g.state().next_piece, DemoData::BUILTIN.piece(1));
        let back =
            run_until(&mut g, 20_000, |g| g.state().game_mode == 1).expect("back to the title");
        assert!(back > 256, "the demo played its buttons ({back} frames)");
    }

    #[test]
    fn start_ends_the_demo() {
        let mut g = Game::power_on(Region::Ntsc);
        run_until(&mut g, 4000, |g| g.state().game_mode == 5).expect("demo");
        for _ in 0..200 {
            g.step(Buttons::NONE);
        }
        g.step(Buttons::START);
        assert_eq!(g.state().game_mode, 1);
    }

    #[test]
    fn piece_index_seven_is_t() {
        let mut d = DemoData::BUILTIN;
        d.pieces[0] = 0x70;
        assert_eq!(d.piece(0), 2);
    }

    #[test]
    fn recorder_writes_pairs_of_buttons_and_frames_minus_one() {
        let mut r = DemoRecorder::new();
        for b in [0u8, 0, 0, 2, 2, 0] {
            r.push(Buttons(b));
        }
        let t = r.button_table();
        assert_eq!(&t[..6], &[0, 2, 2, 1, 0, 0]);
    }
}
