//! The replay viewer's controller, without a window: which frame of a replay is shown,
//! how fast it plays, pausing, stepping and seeking.
//!
//! [`Playback`] keeps the game as it stands at the shown frame (which is all the
//! picture needs), with the HUD's counters that go with it. Going forward steps the game; going
//! back restores the nearest earlier checkpoint — the whole state is kept every
//! [`CHECKPOINT_EVERY`] frames as it is first reached — and steps forward from there,
//! so any frame is at most `CHECKPOINT_EVERY - 1` steps away once the replay has been
//! played past it.
//!
//! [`Playback::tick`] is called once per displayed frame at the console's rate: at 1x it
//! steps one frame, at 2x-8x several, at 1/2x and 1/4x one every second or fourth tick.
//! Reaching the last frame pauses and shows the [`Verdict`]: how the game played compares
//! with what the file records (its inputs' hash, its checkpoints and its final state).
//!
//! A versus match (`.nestrisvs`, [`Playback::versus`]) plays the same way: frame `n` is
//! the match after each player's first `n` inputs (a side whose inputs end first stays
//! as it ended), and the verdict compares both final states with the file's.

use nestris_core::{Buttons, DemoData, FrameEvents, Game};
pub use nestris_replay::Verdict;
use nestris_replay::{Mismatch, Replay};
use nestris_versus::file::VersusReplay;
use nestris_versus::{Input, Match};

use crate::hud::Tally;
use crate::sfx::{cues, Sfx};

/// Frames between two kept states.
pub const CHECKPOINT_EVERY: usize = 600;

/// Playback speed, from a quarter of the console's rate to eight times it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub enum Speed {
    /// One frame every fourth tick.
    Quarter,
    /// One frame every second tick.
    Half,
    /// One frame per tick: the console's own rate.
    #[default]
    Normal,
    /// Two frames per tick.
    Double,
    /// Four frames per tick.
    Quadruple,
    /// Eight frames per tick.
    Octuple,
}

impl Speed {
    /// Every speed, slowest first.
    pub const ALL: [Speed; 6] = [
        Speed::Quarter,
        Speed::Half,
        Speed::Normal,
        Speed::Double,
        Speed::Quadruple,
        Speed::Octuple,
    ];

    /// Quarter frames stepped per tick (1 for 1/4x ... 32 for 8x).
    pub fn quarters(self) -> u32 {
        match self {
            Speed::Quarter => 1,
            Speed::Half => 2,
            Speed::Normal => 4,
            Speed::Double => 8,
            Speed::Quadruple => 16,
            Speed::Octuple => 32,
        }
    }

    /// The speed as a factor of the console's rate.
    pub fn factor(self) -> f64 {
        f64::from(self.quarters()) / 4.0
    }

    /// As shown on the progress bar: "1/4X" ... "8X".
    pub fn label(self) -> &'static str {
        match self {
            Speed::Quarter => "1/4X",
            Speed::Half => "1/2X",
            Speed::Normal => "1X",
            Speed::Double => "2X",
            Speed::Quadruple => "4X",
            Speed::Octuple => "8X",
        }
    }

    /// The next speed up (8x stays 8x).
    pub fn faster(self) -> Speed {
        let i = Speed::ALL.iter().position(|&s| s == self).unwrap_or(2);
        Speed::ALL[(i + 1).min(Speed::ALL.len() - 1)]
    }

    /// The next speed down (1/4x stays 1/4x).
    pub fn slower(self) -> Speed {
        let i = Speed::ALL.iter().position(|&s| s == self).unwrap_or(2);
        Speed::ALL[i.saturating_sub(1)]
    }
}

/// Everything shown at one frame: the game and the HUD's counters.
#[derive(Clone, Debug)]
struct Point {
    game: Game,
    hud: Option<Tally>,
    /// A versus match's both sides (then `game` is unused).
    versus: Option<Box<Match>>,
}

/// A replay being watched.
#[derive(Debug)]
pub struct Playback {
    inputs: Vec<Buttons>,
    /// A versus match's inputs, player 1's and player 2's.
    two: Option<Box<[Vec<Input>; 2]>>,
    /// What the file's record says of the game, shown once the end is reached.
    judged: Verdict,
    demo: DemoData,
    at: Point,
    frame: usize,
    checkpoints: Vec<Point>,
    speed: Speed,
    paused: bool,
    carry: u32,
    verdict: Option<Verdict>,
    steps: u64,
}

impl Playback {
    /// The replay at its first frame, playing at 1x, stepped with `demo`'s tables (the
    /// built-in ones unless the replay was recorded with a cartridge's). `hud` keeps the
    /// HUD's counters too. An empty replay is at its end at once.
    pub fn new(replay: Replay, demo: DemoData, hud: bool) -> Playback {
        // One play-through at open (milliseconds for an hour of play) judges the file, so
        // seeking, which can skip the frames a checkpoint needs, never has to.
        let judged = replay.play_with_demo(replay.inputs.len(), &demo).1.verdict;
        let at = Point {
            game: replay.game(),
            hud: hud.then(Tally::default),
            versus: None,
        };
        Playback::from_point(replay.inputs, None, judged, demo, at)
    }

    /// A versus match at its first frame: both players side by side, played to the
    /// longer side's end; the verdict compares both sides' final states with the file's.
    pub fn versus(replay: VersusReplay) -> Playback {
        let played = replay.play();
        let judged = (0..2)
            .find_map(|p| {
                let actual = played.sides[p].game.state().state_hash();
                (actual != replay.hashes[p]).then_some(Verdict::Differs(Mismatch::Final {
                    expected: replay.hashes[p],
                    actual,
                }))
            })
            .unwrap_or(Verdict::Proven);
        let m = match &replay.start {
            Some(g) => Match::from_start(replay.setup, (**g).clone()),
            None => Match::new(replay.setup),
        };
        let at = Point {
            game: m.sides[0].game.clone(),
            hud: None,
            versus: Some(Box::new(m)),
        };
        let two = Some(Box::new(replay.inputs));
        Playback::from_point(Vec::new(), two, judged, DemoData::BUILTIN, at)
    }

    fn from_point(
        inputs: Vec<Buttons>,
        two: Option<Box<[Vec<Input>; 2]>>,
        judged: Verdict,
        demo: DemoData,
        at: Point,
    ) -> Playback {
        let mut p = Playback {
            inputs,
            two,
            judged,
            demo,
            checkpoints: vec![at.clone()],
            at,
            frame: 0,
            speed: Speed::Normal,
            paused: false,
            carry: 0,
            verdict: None,
            steps: 0,
        };
        p.check_end();
        p
    }

    /// The game at the shown frame (of a versus match, player 1's).
    pub fn game(&self) -> &Game {
        match &self.at.versus {
            Some(m) => &m.sides[0].game,
            None => &self.at.game,
        }
    }

    /// The versus match at the shown frame, when the replay is one.
    pub fn versus_match(&self) -> Option<&Match> {
        self.at.versus.as_deref()
    }

    /// The HUD's counters at the shown frame, if the HUD is kept.
    pub fn hud(&self) -> Option<&Tally> {
        self.at.hud.as_ref()
    }

    /// Frames played to reach the shown one (0 = the replay's start, `total` = its end).
    pub fn frame(&self) -> usize {
        self.frame
    }

    /// Frames in the replay.
    pub fn total(&self) -> usize {
        match &self.two {
            Some(two) => two[0].len().max(two[1].len()),
            None => self.inputs.len(),
        }
    }

    /// True at the last frame.
    pub fn at_end(&self) -> bool {
        self.frame == self.total()
    }

    /// The speed of play.
    pub fn speed(&self) -> Speed {
        self.speed
    }

    /// True while paused (always at the end).
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The verdict on the replay's record, once the end has been reached.
    pub fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }

    /// States kept so far (the start counts as one).
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }

    /// Game steps run so far, seeks included (to see what seeking costs).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// One displayed frame's worth of play: steps as many frames as the speed asks
    /// (none while paused) and returns the sound effects they call for, each once.
    pub fn tick(&mut self) -> Vec<Sfx> {
        let mut out = Vec::new();
        if self.paused {
            return out;
        }
        self.carry += self.speed.quarters();
        let n = self.carry / 4;
        self.carry %= 4;
        for _ in 0..n {
            if self.at_end() {
                break;
            }
            for sfx in self.advance_with_cues() {
                if !out.contains(&sfx) {
                    out.push(sfx);
                }
            }
        }
        out
    }

    /// Pauses, or resumes; at the end, resuming starts over from the first frame.
    pub fn toggle_pause(&mut self) {
        if self.paused && self.at_end() && self.total() > 0 {
            self.seek(0);
            self.paused = false;
        } else if !self.at_end() {
            self.paused = !self.paused;
        }
        self.carry = 0;
    }

    /// Pauses (if playing) and shows the next frame; returns its sound effects.
    pub fn step_forward(&mut self) -> Vec<Sfx> {
        self.paused = true;
        self.carry = 0;
        if self.at_end() {
            return Vec::new();
        }
        self.advance_with_cues()
    }

    /// Pauses (if playing) and shows the previous frame.
    pub fn step_back(&mut self) {
        self.paused = true;
        if self.frame > 0 {
            self.seek(self.frame - 1);
        }
    }

    /// One speed up.
    pub fn faster(&mut self) {
        self.speed = self.speed.faster();
    }

    /// One speed down.
    pub fn slower(&mut self) {
        self.speed = self.speed.slower();
    }

    /// Sets the speed.
    pub fn set_speed(&mut self, speed: Speed) {
        self.speed = speed;
    }

    /// Shows frame `target` (clamped to the replay); playing or paused as before,
    /// except that the end pauses.
    pub fn seek(&mut self, target: usize) {
        let target = target.min(self.total());
        self.carry = 0;
        if target == self.frame {
            return;
        }
        // The nearest kept state at or before the target; stepping on from the shown
        // frame is cheaper when that lies between the two.
        let k = (target / CHECKPOINT_EVERY).min(self.checkpoints.len() - 1);
        let from = k * CHECKPOINT_EVERY;
        if !(from..target).contains(&self.frame) {
            self.at = self.checkpoints[k].clone();
            self.frame = from;
        }
        while self.frame < target {
            self.advance();
        }
        self.check_end();
    }

    /// Shows the frame at `fraction` (0.0 = start, 1.0 = end) of the replay.
    pub fn seek_fraction(&mut self, fraction: f64) {
        let f = if fraction.is_nan() {
            0.0
        } else {
            fraction.clamp(0.0, 1.0)
        };
        self.seek((f * self.total() as f64).round() as usize);
    }

    /// The frame at `fraction` of the replay, as [`Playback::seek_fraction`] would show.
    pub fn frame_at(&self, fraction: f64) -> usize {
        let f = if fraction.is_nan() {
            0.0
        } else {
            fraction.clamp(0.0, 1.0)
        };
        (f * self.total() as f64).round() as usize
    }

    /// Steps one frame and returns its sound effects.
    fn advance_with_cues(&mut self) -> Vec<Sfx> {
        let ev = self.advance();
        let sfx = cues(&ev, self.game().state());
        self.check_end();
        sfx
    }

    /// Steps one frame (the caller checks that one is left), keeping a checkpoint when
    /// one is due.
    fn advance(&mut self) -> FrameEvents {
        let ev = match (&mut self.at.versus, &self.two) {
            (Some(m), Some(two)) => {
                // Player 1's sounds; a side past its last input stays as it ended.
                let mut ev = FrameEvents::default();
                for (p, side) in two.iter().enumerate() {
                    if let Some(&i) = side.get(self.frame) {
                        let e = m.apply(p, i);
                        if p == 0 {
                            ev = e;
                        }
                    }
                }
                ev
            }
            _ => {
                let b = self.inputs[self.frame];
                self.at.game.step_with_demo(b, &self.demo)
            }
        };
        self.steps += 1;
        if let Some(h) = &mut self.at.hud {
            h.observe(&ev, self.at.game.state());
        }
        self.frame += 1;
        if self.frame % CHECKPOINT_EVERY == 0
            && self.frame / CHECKPOINT_EVERY == self.checkpoints.len()
        {
            self.checkpoints.push(self.at.clone());
        }
        ev
    }

    /// At the end: pause, and judge the final state once.
    fn check_end(&mut self) {
        if !self.at_end() {
            return;
        }
        self.paused = true;
        self.carry = 0;
        self.verdict = Some(self.judged);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::Region;
    use nestris_render::versus::VERSUS_WIDTH;
    use nestris_render::Frame;
    use nestris_replay::{Recorder, Start};

    /// A replay from power-on: through the menus into a game, then scripted play
    /// (shifts, rotations, soft drops), `frames` frames in all.
    fn scripted(frames: usize) -> Replay {
        let mut r = Recorder::new(Start::PowerOn(Region::Ntsc));
        for i in 0..frames {
            r.push(script(i));
        }
        r.replay()
    }

    fn script(i: usize) -> Buttons {
        match i {
            0..270 => Buttons::NONE,
            270..354 => {
                if (i - 270) % 21 == 0 {
                    Buttons::START
                } else {
                    Buttons::NONE
                }
            }
            _ => match i % 48 {
                0 | 2 if i % 96 < 48 => Buttons::LEFT,
                0 | 2 | 4 => Buttons::RIGHT,
                8 => Buttons::A,
                20..40 => Buttons::DOWN,
                _ => Buttons::NONE,
            },
        }
    }

    /// The hash, the picture and the HUD after every frame, played straight through.
    fn straight(replay: &Replay) -> Vec<(u64, Vec<u32>, Tally)> {
        let mut game = replay.game();
        let mut hud = Tally::default();
        let mut frame = Frame::new();
        let mut out = Vec::new();
        let mut record = |game: &Game, hud: &Tally| {
            nestris_render::draw(game, &mut frame);
            out.push((game.state().state_hash(), frame.pixels.to_vec(), *hud));
        };
        record(&game, &hud);
        for &b in &replay.inputs {
            let ev = game.step(b);
            hud.observe(&ev, game.state());
            record(&game, &hud);
        }
        out
    }

    fn assert_at(p: &Playback, truth: &[(u64, Vec<u32>, Tally)], what: &str) {
        let n = p.frame();
        let (hash, pixels, hud) = &truth[n];
        assert_eq!(p.game().state().state_hash(), *hash, "{what}: frame {n}");
        let mut f = Frame::new();
        nestris_render::draw(p.game(), &mut f);
        assert!(f.pixels[..] == pixels[..], "{what}: picture at frame {n}");
        assert_eq!(p.hud(), Some(hud), "{what}: HUD at frame {n}");
    }

    #[test]
    fn plays_at_one_frame_per_tick_and_pauses_at_the_end() {
        let replay = scripted(700);
        let truth = straight(&replay);
        let mut p = Playback::new(replay, DemoData::BUILTIN, true);
        assert_eq!((p.frame(), p.total(), p.paused()), (0, 700, false));
        assert_at(&p, &truth, "start");
        for _ in 0..650 {
            p.tick();
        }
        assert_eq!(p.frame(), 650);
        assert_at(&p, &truth, "ticks");
        assert_eq!(p.verdict(), None, "not judged before the end");
        for _ in 0..100 {
            p.tick();
        }
        assert!(p.at_end() && p.paused());
        assert_eq!(p.frame(), 700, "stays on the last frame");
        assert_eq!(p.verdict(), Some(Verdict::Proven));
        assert_eq!(p.checkpoints(), 2, "frames 0 and 600");
        assert_at(&p, &truth, "end");
        // Playing again at the end starts over.
        p.toggle_pause();
        assert_eq!((p.frame(), p.paused()), (0, false));
        assert_eq!(p.verdict(), Some(Verdict::Proven), "kept");
    }

    #[test]
    fn the_game_makes_its_sounds_when_played() {
        let replay = scripted(700);
        let mut p = Playback::new(replay, DemoData::BUILTIN, false);
        let mut heard = Vec::new();
        while !p.at_end() {
            heard.extend(p.tick());
        }
        assert!(heard.contains(&Sfx::MenuBeep), "{heard:?}");
        assert!(heard.contains(&Sfx::Lock), "{heard:?}");
        assert!(heard.contains(&Sfx::Shift) || heard.contains(&Sfx::Rotate));
    }

    #[test]
    fn speeds_step_several_frames_or_hold_them() {
        let mut p = Playback::new(scripted(2000), DemoData::BUILTIN, false);
        assert_eq!(p.speed(), Speed::Normal);
        p.faster();
        p.faster();
        p.faster();
        p.faster();
        assert_eq!(p.speed(), Speed::Octuple, "8x is the top");
        p.tick();
        assert_eq!(p.frame(), 8);
        p.slower();
        p.tick();
        assert_eq!(p.frame(), 12);
        p.slower();
        p.tick();
        assert_eq!(p.frame(), 14);
        p.slower();
        p.slower();
        assert_eq!(p.speed(), Speed::Half);
        let seen: Vec<usize> = (0..4)
            .map(|_| {
                p.tick();
                p.frame()
            })
            .collect();
        assert_eq!(
            seen,
            [14, 15, 15, 16],
            "1/2x holds every frame for two ticks"
        );
        p.slower();
        p.slower();
        assert_eq!(p.speed(), Speed::Quarter, "1/4x is the bottom");
        let seen: Vec<usize> = (0..8)
            .map(|_| {
                p.tick();
                p.frame()
            })
            .collect();
        assert_eq!(seen, [16, 16, 16, 17, 17, 17, 17, 18]);
        assert_eq!(
            Speed::ALL.map(Speed::label),
            ["1/4X", "1/2X", "1X", "2X", "4X", "8X"]
        );
        assert_eq!(Speed::Quarter.factor(), 0.25);
        // Paused: ticks do nothing.
        p.toggle_pause();
        for _ in 0..10 {
            assert!(p.tick().is_empty());
        }
        assert_eq!(p.frame(), 18);
        // At 8x near the end, the end stops it.
        p.set_speed(Speed::Octuple);
        p.seek(1995);
        p.toggle_pause();
        p.tick();
        assert_eq!(p.frame(), 2000);
        assert!(p.paused());
    }

    #[test]
    fn stepping_back_and_forward_matches_straight_playback() {
        let replay = scripted(1500);
        let truth = straight(&replay);
        let mut p = Playback::new(replay, DemoData::BUILTIN, true);
        for _ in 0..1210 {
            p.tick();
        }
        assert_eq!(p.checkpoints(), 3);
        // Back across the checkpoint at 1200 and the one at 600.
        for _ in 0..15 {
            p.step_back();
            assert!(p.paused());
            assert_at(&p, &truth, "step back");
        }
        assert_eq!(p.frame(), 1195);
        for _ in 0..10 {
            p.step_forward();
            assert_at(&p, &truth, "step forward");
        }
        assert_eq!(p.frame(), 1205);
        p.seek(601);
        p.step_back();
        p.step_back();
        assert_eq!(p.frame(), 599);
        assert_at(&p, &truth, "back over 600");
        // A step back costs at most a checkpoint's worth of steps.
        let before = p.steps();
        p.step_back();
        assert!(p.steps() - before < CHECKPOINT_EVERY as u64);
        // At frame 0 there is nothing before.
        p.seek(0);
        p.step_back();
        assert_eq!(p.frame(), 0);
        assert_at(&p, &truth, "start");
    }

    #[test]
    fn seeks_anywhere_reproduce_straight_playback() {
        let replay = scripted(2500);
        let truth = straight(&replay);
        let mut p = Playback::new(replay, DemoData::BUILTIN, true);
        // Far ahead first (no checkpoint there yet), then all over the place.
        let mut x = 12345u32;
        let mut targets = vec![2100, 50, 2499, 601, 600, 599, 1800, 1200, 0, 2500, 1333];
        for _ in 0..25 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            targets.push((x >> 8) as usize % 2501);
        }
        for &t in &targets {
            let before = p.steps();
            p.seek(t);
            assert_eq!(p.frame(), t);
            assert_at(&p, &truth, "seek");
            if t < 2100 {
                // Checkpoints exist up to 2100: a seek costs less than their spacing.
                assert!(p.steps() - before < CHECKPOINT_EVERY as u64, "seek {t}");
            }
        }
        assert_eq!(p.checkpoints(), 5, "0, 600, 1200, 1800, 2400");
        // Fractions and the number keys' tenths.
        p.seek_fraction(0.5);
        assert_eq!(p.frame(), 1250);
        assert_eq!(p.frame_at(0.3), 750);
        p.seek_fraction(7.0);
        assert_eq!(p.frame(), 2500);
        p.seek_fraction(f64::NAN);
        assert_eq!(p.frame(), 0);
        p.seek(99_999);
        assert_eq!(p.frame(), 2500, "clamped to the end");
        assert!(p.paused());
        assert_eq!(p.verdict(), Some(Verdict::Proven));
    }

    #[test]
    fn a_seek_keeps_playing_unless_it_reaches_the_end() {
        let mut p = Playback::new(scripted(900), DemoData::BUILTIN, false);
        p.seek(400);
        assert!(!p.paused());
        p.tick();
        assert_eq!(p.frame(), 401);
        p.seek(900);
        assert!(p.paused() && p.at_end());
        p.seek(100);
        assert!(p.paused(), "still paused after leaving the end");
        p.toggle_pause();
        assert!(!p.paused());
    }

    #[test]
    fn a_wrong_hash_or_none_is_reported_at_the_end() {
        let mut replay = scripted(400);
        let good = replay.final_hash.unwrap();
        replay.final_hash = Some(good ^ 1);
        let mut p = Playback::new(replay.clone(), DemoData::BUILTIN, false);
        p.seek(400);
        assert_eq!(
            p.verdict(),
            Some(Verdict::Differs(nestris_replay::Mismatch::Final {
                expected: good ^ 1,
                actual: good
            }))
        );
        assert_eq!(p.verdict().unwrap().word(), "no");
        replay.final_hash = None;
        let mut p = Playback::new(replay, DemoData::BUILTIN, false);
        p.seek(400);
        assert_eq!(p.verdict(), Some(Verdict::Unrecorded));
        // An empty replay is at its end at once.
        let empty = Recorder::new(Start::PowerOn(Region::Pal)).replay();
        let p = Playback::new(empty, DemoData::BUILTIN, false);
        assert!(p.at_end() && p.paused());
        assert_eq!(p.verdict(), Some(Verdict::Proven));
    }

    #[test]
    fn a_cartridge_demo_is_stepped_with() {
        // Power-on left alone reaches the demo; a replay recorded with other demo tables
        // verifies only when played with them.
        let mut other = DemoData::BUILTIN;
        for b in other.buttons.iter_mut().step_by(2) {
            *b = 0x01; // hold Right
        }
        let mut replay = Replay::new(Start::PowerOn(Region::Ntsc));
        replay.demo = nestris_replay::DemoSource::Cartridge;
        replay.inputs = vec![Buttons::NONE; 3000];
        replay.seal_with_demo(&other);
        let mut p = Playback::new(replay.clone(), other.clone(), false);
        p.seek(3000);
        assert_eq!(p.verdict(), Some(Verdict::Proven));
        let mut p = Playback::new(replay, DemoData::BUILTIN, false);
        p.seek(3000);
        assert!(matches!(p.verdict(), Some(Verdict::Differs(_))));
    }

    /// A recorded versus match: player 2 stops 300 frames before player 1.
    fn versus_replay() -> VersusReplay {
        use nestris_versus::MatchSetup;
        let setup = MatchSetup {
            region: Region::Ntsc,
            level: 18,
            seed: 0x0BEEF5,
            best_of: 3,
        };
        let mut m = Match::new(setup);
        let mut inputs = [Vec::new(), Vec::new()];
        for f in 0..1500usize {
            for (p, side) in inputs.iter_mut().enumerate() {
                if p == 1 && f >= 1200 {
                    continue;
                }
                let i = Input {
                    buttons: script(354 + f + 7 * p),
                    game: 0,
                };
                m.apply(p, i);
                side.push(i);
            }
        }
        VersusReplay::of(&m, inputs)
    }

    #[test]
    fn a_versus_match_plays_seeks_and_is_judged_like_a_replay() {
        let replay = versus_replay();
        let whole = replay.play();
        let mut p = Playback::versus(replay.clone());
        assert_eq!(p.total(), 1500, "the longer side");
        assert!(p.versus_match().is_some());
        // Played to the end frame by frame: the file's match.
        while !p.at_end() {
            p.step_forward();
        }
        let m = p.versus_match().unwrap();
        assert_eq!(m.sides[0].game, whole.sides[0].game);
        assert_eq!(m.sides[1].game, whole.sides[1].game);
        assert_eq!(p.verdict(), Some(Verdict::Proven));
        // Any frame, reached by seeking back and forth, is the match after that many
        // frames of each side's inputs.
        for target in [1300, 20, 900, 1499, 0, 650] {
            p.seek(target);
            let mut want = Match::new(replay.setup);
            for (side, frames) in replay.inputs.iter().enumerate() {
                for &i in frames.iter().take(target) {
                    want.apply(side, i);
                }
            }
            let m = p.versus_match().unwrap();
            assert_eq!(m.sides[0].game, want.sides[0].game, "frame {target}");
            assert_eq!(m.sides[1].game, want.sides[1].game, "frame {target}");
            assert_eq!(p.game(), &want.sides[0].game);
        }
        // The picture is both fields and the scoreboard.
        let mut c = crate::canvas::Canvas::new(VERSUS_WIDTH, nestris_render::HEIGHT);
        crate::versus::draw_match(
            p.versus_match().unwrap(),
            0,
            ["A", "B"],
            None,
            nestris_render::LevelColours::Classic,
            &mut Frame::new(),
            &mut c,
        );
        // A tampered match is judged at its end.
        let mut bad = replay;
        bad.hashes[1] ^= 1;
        let mut p = Playback::versus(bad);
        p.seek(p.total());
        assert!(matches!(
            p.verdict(),
            Some(Verdict::Differs(Mismatch::Final { .. }))
        ));
    }
}
