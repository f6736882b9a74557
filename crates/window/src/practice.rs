//! The practice tools a session offers: savestates in slots, rewind, frame advance.
//!
//! A `Game` is its own save state, so a savestate is a clone of it, kept with the
//! session replay's whole line up to that moment ([`Mark`]) and whatever the front end
//! shows beside the game (the HUD's counts). Rewinding keeps one point per stepped frame
//! for the last [`REWIND_FRAMES`] frames, with the replay's position ([`Position`]), so
//! that stepping back also takes the frames back out of the replay: after any rewind or
//! load, the saved replay is the line actually played from power-on through the branch
//! point and on, and it replays to the game on screen.
//!
//! Frame advance stops the game's clock: no frame runs (and none is recorded) until
//! advance asks for one.

use std::collections::VecDeque;

use nestris_core::Game;
use nestris_replay::session::{Mark, Position};

/// The most savestate slots the config may bind.
pub const MAX_SLOTS: usize = 9;

/// Frames kept for rewinding (20 seconds of NTSC play).
pub const REWIND_FRAMES: usize = 20 * 60;

/// The game before one stepped frame, to go back to.
#[derive(Clone, Debug)]
pub struct Point<H> {
    /// The game as it stood.
    pub game: Game,
    /// The replay's position then (`None`: no replay is recorded).
    pub replay: Option<Position>,
    /// The front end's own counts then.
    pub extra: H,
}

/// A savestate.
#[derive(Clone, Debug)]
pub struct Saved<H> {
    /// The game as it stood.
    pub game: Game,
    /// The replay's line up to it (`None`: no replay is recorded).
    pub replay: Option<Mark>,
    /// The front end's own counts then.
    pub extra: H,
}

/// Savestates, the rewind history and the frozen clock.
#[derive(Debug)]
pub struct Practice<H> {
    slots: Vec<Option<Saved<H>>>,
    history: VecDeque<Point<H>>,
    frozen: bool,
    advance: bool,
}

impl<H: Clone> Default for Practice<H> {
    fn default() -> Self {
        Practice {
            slots: vec![None; MAX_SLOTS],
            history: VecDeque::new(),
            frozen: false,
            advance: false,
        }
    }
}

impl<H: Clone> Practice<H> {
    /// Keeps the point before a frame is stepped (the oldest goes beyond
    /// [`REWIND_FRAMES`]).
    pub fn record(&mut self, p: Point<H>) {
        if self.history.len() == REWIND_FRAMES {
            self.history.pop_front();
        }
        self.history.push_back(p);
    }

    /// The point before the last stepped frame, taken out of the history.
    pub fn step_back(&mut self) -> Option<Point<H>> {
        self.history.pop_back()
    }

    /// Frames that can still be rewound.
    pub fn rewindable(&self) -> usize {
        self.history.len()
    }

    /// Keeps `saved` in `slot` (a slot beyond [`MAX_SLOTS`] is ignored).
    pub fn save(&mut self, slot: usize, saved: Saved<H>) {
        if let Some(s) = self.slots.get_mut(slot) {
            *s = Some(saved);
        }
    }

    /// The savestate in `slot`, if one was saved. Loading it starts a new line: the
    /// rewind history (points of the line left) is forgotten.
    pub fn load(&mut self, slot: usize) -> Option<Saved<H>> {
        let saved = self.slots.get(slot)?.clone()?;
        self.history.clear();
        Some(saved)
    }

    /// True while the game's clock is stopped.
    pub fn frozen(&self) -> bool {
        self.frozen
    }

    /// Stops or restarts the clock; true if now stopped.
    pub fn toggle_freeze(&mut self) -> bool {
        self.frozen = !self.frozen;
        self.advance = false;
        self.frozen
    }

    /// While frozen: the next frame runs.
    pub fn request_advance(&mut self) {
        if self.frozen {
            self.advance = true;
        }
    }

    /// Whether this frame runs (always, unless frozen with no advance asked).
    pub fn take_frame(&mut self) -> bool {
        if !self.frozen {
            return true;
        }
        std::mem::take(&mut self.advance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::{Buttons, Region};

    fn point(game: &Game, n: u32) -> Point<u32> {
        Point {
            game: game.clone(),
            replay: None,
            extra: n,
        }
    }

    #[test]
    fn the_history_keeps_the_last_frames_and_steps_back_in_order() {
        let mut p = Practice::<u32>::default();
        let mut game = Game::power_on(Region::Ntsc);
        for n in 0..(REWIND_FRAMES as u32 + 10) {
            p.record(point(&game, n));
            game.step(Buttons::NONE);
        }
        assert_eq!(p.rewindable(), REWIND_FRAMES);
        let last = p.step_back().unwrap();
        assert_eq!(last.extra, REWIND_FRAMES as u32 + 9);
        assert_eq!(p.step_back().unwrap().extra, REWIND_FRAMES as u32 + 8);
        let mut oldest = None;
        while let Some(q) = p.step_back() {
            oldest = Some(q.extra);
        }
        assert_eq!(oldest, Some(10), "the first ten frames were dropped");
    }

    #[test]
    fn a_loaded_slot_forgets_the_history_and_stays_loadable() {
        let mut p = Practice::<u32>::default();
        let game = Game::power_on(Region::Ntsc);
        assert!(p.load(0).is_none());
        p.save(
            2,
            Saved {
                game: game.clone(),
                replay: None,
                extra: 7,
            },
        );
        let loaded = p.load(2).expect("slot 2 was saved");
        p.save(MAX_SLOTS, loaded);
        p.record(point(&game, 1));
        assert_eq!(p.load(2).map(|s| s.extra), Some(7));
        assert_eq!(p.rewindable(), 0);
        assert_eq!(
            p.load(2).map(|s| s.extra),
            Some(7),
            "loading keeps the slot"
        );
        assert!(p.load(MAX_SLOTS).is_none());
    }

    #[test]
    fn frozen_frames_run_only_when_advanced() {
        let mut p = Practice::<()>::default();
        assert!(p.take_frame());
        assert!(p.toggle_freeze());
        assert!(!p.take_frame());
        p.request_advance();
        assert!(p.take_frame());
        assert!(!p.take_frame(), "one frame per advance");
        assert!(!p.toggle_freeze());
        assert!(p.take_frame());
        p.request_advance();
        assert!(
            p.take_frame() && p.take_frame(),
            "advance means nothing unfrozen"
        );
    }
}
