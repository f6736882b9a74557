//! The flow between games: curtain to ending, high-score name entry, the level menu,
//! and the screen setup that starts the next game.
//!
//! Each function continues the cartridge's routine from one waiting point ([`Resume`])
//! to the next. The frame counts are the cartridge's: every wait here is one frame.

use crate::buttons::Buttons;
use crate::events::FrameEvents;
use crate::flow::{EndingStep, Resume};
use crate::game::Game;
use crate::lfsr::lfsr_step;
use crate::playfield::Playfield;
use crate::region::Region;
use crate::tables::level_display_bcd;

const START: u8 = Buttons::START.bits();

/// `typebSuccessGraphic`: the banner the B-type win writes into rows 7..=9.
const SUCCESS_BANNER: [u8; 30] = [
    0x38, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x3A, 0x3B, 0x1C, 0x1E, 0x0C, 0x0C, 0x0E,
    0x1C, 0x1C, 0x28, 0x3C, 0x3D, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3F,
];

/// `LAA2A`: the A-type rocket's starting height per ending (by score).
const ROCKET_START: [u8; 5] = [0xBF, 0xBF, 0xBF, 0xBF, 0xC7];

/// What a flow step tells the main loop.
pub(crate) enum Next {
    /// Wait for the next frame.
    Wait,
    /// Go on with the main loop in this frame.
    Continue,
}

impl Region {
    /// `ENDING_SLEEP_TIME_1`, `_2`, `_3`.
    const fn ending_sleeps(self) -> [u8; 3] {
        match self {
            Region::Ntsc => [0x80, 0x40, 0x02],
            Region::Pal => [0x66, 0x33, 0x01],
        }
    }
}

impl Game {
    fn sleep(&mut self, frames: u8, step: EndingStep) -> Next {
        self.s.sleep_counter = frames;
        self.s.resume = Resume::Ending(step);
        Next::Wait
    }

    /// `@curtainFinished`: the curtain reached the bottom.
    pub(crate) fn curtain_finished(&mut self, ev: &mut FrameEvents) {
        if self.s.score[2] >= 3 {
            let t = self.s.region.ending_sleeps()[0];
            self.sleep(t, EndingStep::CurtainSleep);
        } else if self.s.pressed == START {
            self.exit_game(ev);
        }
    }

    /// `@exitGame`: `playState` 0; the game-over handler runs next frame.
    fn exit_game(&mut self, ev: &mut FrameEvents) {
        self.s.play_state = 0;
        self.s.pressed = 0;
        ev.set(FrameEvents::GAME_ENDED);
    }

    /// `playState_bTypeGoalCheck` when the lines reached 0: banner, darkness, ending.
    pub(crate) fn b_type_won(&mut self, ev: &mut FrameEvents) -> Next {
        ev.set(FrameEvents::B_TYPE_WON);
        self.s.playfield.0[0x46..0x46 + SUCCESS_BANNER.len()].copy_from_slice(&SUCCESS_BANNER);
        self.s.vram_row = 0;
        self.sleep(0x14, EndingStep::BannerSleep)
    }

    /// `endingAnimation` up to its first wait.
    fn start_ending(&mut self) -> Next {
        self.s.render_mode = 4;
        if self.s.game_type != 0 {
            let s = &mut self.s;
            s.flow.ending_level = level_display_bcd(s.level.min(29)) & 0x0F;
            s.flow.total_score = [0; 3];
            s.flow.level_bonus = s.flow.ending_level << 4;
            s.flow.height_bonus = s.start_height << 4;
        }
        self.s.resume = Resume::Ending(EndingStep::Setup(1));
        Next::Wait
    }

    /// One frame of the ending routines; `Continue` when the game ended this frame and
    /// the player update returns to the main loop.
    pub(crate) fn resume_ending(&mut self, step: EndingStep, ev: &mut FrameEvents) -> Next {
        let sleeps = self.s.region.ending_sleeps();
        let slept = self.s.sleep_counter == 0;
        let a_type = self.s.game_type == 0;
        match step {
            EndingStep::CurtainSleep | EndingStep::DarkSleep => {
                if !slept {
                    return Next::Wait;
                }
                self.start_ending()
            }
            EndingStep::BannerSleep => {
                if !slept {
                    return Next::Wait;
                }
                self.s.render_mode = 0;
                self.sleep(0x80, EndingStep::DarkSleep)
            }
            EndingStep::Setup(n) if n < 4 => {
                if n == 1 && a_type {
                    self.select_ending();
                }
                self.s.resume = Resume::Ending(EndingStep::Setup(n + 1));
                Next::Wait
            }
            EndingStep::Setup(_) => {
                self.s.render_mode = 4;
                let next = if a_type {
                    EndingStep::Unskippable
                } else {
                    EndingStep::BonusStart
                };
                self.ending_frame();
                self.sleep(sleeps[0], next)
            }
            EndingStep::Unskippable => self.unskippable(EndingStep::Rocket),
            EndingStep::Rocket => {
                if self.s.flow.ending_vars[0] == 0 && self.s.pressed == START {
                    self.exit_game(ev);
                    return Next::Continue;
                }
                self.ending_frame();
                Next::Wait
            }
            EndingStep::BonusStart => {
                if !slept {
                    return self.unskippable(step);
                }
                let s = &mut self.s;
                s.flow.total_score = s.score;
                s.score = [0; 3];
                ev.set(FrameEvents::SCORE_CHANGED);
                self.ending_frame();
                self.sleep(sleeps[1], EndingStep::BeforeBonus)
            }
            EndingStep::BeforeBonus => {
                if !slept {
                    return self.unskippable(step);
                }
                if self.s.flow.level_bonus != 0 {
                    return self.add_bonus(true);
                }
                self.height_bonus_or_wait()
            }
            EndingStep::LevelBonus | EndingStep::HeightBonus => {
                if !slept {
                    return self.unskippable(step);
                }
                let level = step == EndingStep::LevelBonus;
                let bonus = if level {
                    self.s.flow.level_bonus
                } else {
                    self.s.flow.height_bonus
                };
                if bonus != 0 {
                    return self.add_bonus(level);
                }
                let after = if level {
                    EndingStep::AfterLevelBonus
                } else {
                    EndingStep::AfterHeightBonus
                };
                self.ending_frame();
                self.sleep(sleeps[1], after)
            }
            EndingStep::AfterLevelBonus => {
                if !slept {
                    return self.unskippable(step);
                }
                self.height_bonus_or_wait()
            }
            EndingStep::AfterHeightBonus => {
                if !slept {
                    return self.unskippable(step);
                }
                self.ending_frame();
                self.s.resume = Resume::Ending(EndingStep::WaitStart);
                Next::Wait
            }
            EndingStep::WaitStart => {
                if self.s.pressed != START {
                    self.ending_frame();
                    return Next::Wait;
                }
                let s = &mut self.s;
                s.score = s.flow.total_score;
                ev.set(FrameEvents::SCORE_CHANGED);
                s.play_state = 0;
                s.game_mode_state = s.game_mode_state.wrapping_add(1);
                ev.set(FrameEvents::GAME_ENDED);
                Next::Continue
            }
        }
    }

    /// One more frame of a `render_endingUnskippable` loop, or the step after it.
    fn unskippable(&mut self, step: EndingStep) -> Next {
        if self.s.sleep_counter != 0 {
            self.ending_frame();
            self.s.resume = Resume::Ending(step);
            return Next::Wait;
        }
        match step {
            EndingStep::Unskippable => {
                self.ending_frame();
                self.s.resume = Resume::Ending(EndingStep::Rocket);
                Next::Wait
            }
            _ => Next::Wait,
        }
    }

    /// After the first bonus pause (or straight away): the level bonus, else the height bonus.
    fn height_bonus_or_wait(&mut self) -> Next {
        if self.s.flow.height_bonus != 0 {
            return self.add_bonus(false);
        }
        self.ending_frame();
        self.s.resume = Resume::Ending(EndingStep::WaitStart);
        Next::Wait
    }

    /// `@addLevelBonus` / `@addHeightBonus`: count the bonus down by one BCD hundred,
    /// add 100 points, then a short unskippable pause.
    fn add_bonus(&mut self, level: bool) -> Next {
        let s = &mut self.s;
        let b = if level {
            &mut s.flow.level_bonus
        } else {
            &mut s.flow.height_bonus
        };
        *b = b.wrapping_sub(1);
        if *b & 0x0F == 0x0F {
            *b = (*b & 0xF0) | 0x09;
        }
        add_100_points(&mut s.flow.total_score);
        let short = s.region.ending_sleeps()[2];
        self.ending_frame();
        self.sleep(
            short,
            if level {
                EndingStep::LevelBonus
            } else {
                EndingStep::HeightBonus
            },
        )
    }

    /// `selectEndingScreen`: which rocket, by score.
    fn select_ending(&mut self) {
        let top = self.s.score[2];
        let ending = match top {
            0..=4 => 0,
            5..=6 => 1,
            7..=0x0F => 2,
            0x10..=0x11 => 3,
            _ => 4,
        };
        self.s.flow.ending = ending;
        self.s.flow.ending_vars = [ROCKET_START[ending as usize], 0];
    }

    /// `render_ending`: the only part with an effect on timing is the A-type rocket.
    fn ending_frame(&mut self) {
        if self.s.game_type != 0 {
            return;
        }
        let fc = self.s.frame_counter;
        let v = &mut self.s.flow.ending_vars;
        if v[0] == 0 {
            return;
        }
        if v[1] != 0xF0 {
            v[1] = v[1].wrapping_add(1);
            return;
        }
        if v[0] >= 0xB0 && fc & 1 != 0 {
            return;
        }
        v[0] = v[0].wrapping_sub(1);
        if v[0] < 0x80 {
            v[0] = v[0].wrapping_sub(1);
        }
    }
}

/// `add100Points` on the B-type total (BCD, low byte first).
fn add_100_points(total: &mut [u8; 3]) {
    let mut a = total[1].wrapping_add(1);
    total[1] = a;
    if a & 0x0F >= 0x0A {
        total[1] = total[1].wrapping_add(6);
        a = total[1];
    }
    if a & 0xF0 >= 0xA0 {
        total[1] = total[1].wrapping_add(0x60);
        total[2] = total[2].wrapping_add(1);
    }
    if total[2] & 0x0F >= 0x0A {
        total[2] = total[2].wrapping_add(6);
    }
}

// ---------------------------------------------------------------------------------------
// Game over, name entry, level menu, game start.

impl Game {
    /// `gameModeState_handleGameOver` when `playState` is 0: high scores, then the reset.
    pub(crate) fn game_over(&mut self, ev: &mut FrameEvents) -> Next {
        self.s.render_mode = 3;
        if let Some(slot) = self.high_score_slot() {
            self.insert_high_score(slot);
            self.s.flow.entry_slot = slot;
            self.s.render_mode = 2;
            self.s.resume = Resume::HighScoreSetup(1);
            ev.set(FrameEvents::SCREEN_CHANGED);
            return Next::Wait;
        }
        self.game_over_reset()
    }

    /// `@resetGameState` up to its wait.
    fn game_over_reset(&mut self) -> Next {
        self.s.play_state = 1;
        self.s.playfield = Playfield::empty();
        self.s.vram_row = 0;
        self.s.resume = Resume::GameOverReset;
        Next::Wait
    }

    /// After the reset's wait: the level menu is next (the main loop waits once more,
    /// since the accumulator, 3, equals `gameModeState`).
    pub(crate) fn after_game_over_reset(&mut self, ev: &mut FrameEvents) -> Next {
        self.s.game_mode = 3;
        self.s.resume = Resume::MainLoop;
        ev.set(FrameEvents::SCREEN_CHANGED);
        if self.s.game_mode_state == 3 {
            Next::Wait
        } else {
            Next::Continue
        }
    }

    /// `handleHighScoreIfNecessary`: the table slot this score takes, if any.
    fn high_score_slot(&self) -> Option<u8> {
        let first = if self.s.game_type != 0 { 4 } else { 0 };
        let score = [self.s.score[2], self.s.score[1], self.s.score[0]];
        (first..first + 3).find(|&slot| self.s.flow.high_scores.scores[slot as usize] <= score)
    }

    /// `adjustHighScores`: move lower entries down and write this game's score and level.
    fn insert_high_score(&mut self, slot: u8) {
        let hs = &mut self.s.flow.high_scores;
        let base = (slot & 4) as usize;
        let pos = (slot & 3) as usize;
        let mut i = 2;
        while i > pos {
            hs.names[base + i] = hs.names[base + i - 1];
            hs.scores[base + i] = hs.scores[base + i - 1];
            hs.levels[base + i] = hs.levels[base + i - 1];
            i -= 1;
        }
        hs.names[slot as usize] = [0; 6];
        hs.scores[slot as usize] = [self.s.score[2], self.s.score[1], self.s.score[0]];
        hs.levels[slot as usize] = self.s.level;
    }

    /// `highScoreEntryScreen`'s setup, after wait `n`.
    pub(crate) fn resume_high_score_setup(&mut self, n: u8, ev: &mut FrameEvents) -> Next {
        match n {
            1 => {
                // The screen upload runs with the interrupt off across the next frame.
                self.s.render_mode = 2;
                self.s.flow.nmi_off_frames = 1;
                self.s.resume = Resume::HighScoreSetup(2);
                Next::Wait
            }
            2 | 3 => {
                self.s.resume = Resume::HighScoreSetup(n + 1);
                Next::Wait
            }
            _ => {
                self.s.flow.entry_letter = 0;
                self.name_entry_frame(ev)
            }
        }
    }

    /// One frame of name entry (`@renderFrame`).
    pub(crate) fn name_entry_frame(&mut self, ev: &mut FrameEvents) -> Next {
        let s = &mut self.s;
        if s.pressed & START != 0 {
            ev.set(FrameEvents::MENU_BEEP);
            s.resume = Resume::NameEntryDone;
            return Next::Wait;
        }
        let f = &mut s.flow;
        if s.pressed & (Buttons::A.bits() | Buttons::RIGHT.bits()) != 0 {
            ev.set(FrameEvents::MENU_BEEP);
            f.entry_letter += 1;
            if f.entry_letter >= 6 {
                f.entry_letter = 0;
            }
        }
        if s.pressed & (Buttons::B.bits() | Buttons::LEFT.bits()) != 0 {
            ev.set(FrameEvents::MENU_BEEP);
            f.entry_letter = if f.entry_letter == 0 {
                5
            } else {
                f.entry_letter - 1
            };
        }
        let slot = f.entry_slot as usize & 7;
        let letter = f.entry_letter as usize % 6;
        if s.held & Buttons::DOWN.bits() != 0 && s.frame_counter & 7 == 0 {
            ev.set(FrameEvents::MENU_BEEP);
            let c = &mut f.high_scores.names[slot][letter];
            *c = c.wrapping_sub(1);
            if (*c as i8) < 0 {
                *c = c.wrapping_add(0x2C);
            }
        }
        if s.held & Buttons::UP.bits() != 0 && s.frame_counter & 7 == 0 {
            ev.set(FrameEvents::MENU_BEEP);
            let c = &mut f.high_scores.names[slot][letter];
            *c = c.wrapping_add(1);
            if (c.wrapping_sub(0x2C) as i8) >= 0 {
                *c = c.wrapping_sub(0x2C);
            }
        }
        s.resume = Resume::NameEntry;
        Next::Wait
    }

    /// Name entry done: back in the game-over handler, the reset.
    pub(crate) fn after_name_entry(&mut self) -> Next {
        self.game_over_reset()
    }

    /// `gameMode_levelMenu` from its start, up to its first wait.
    pub(crate) fn level_menu_start(&mut self, ev: &mut FrameEvents) -> Next {
        self.s.render_mode = 1;
        self.s.resume = Resume::LevelMenuSetup(1);
        ev.set(FrameEvents::SCREEN_CHANGED);
        Next::Wait
    }

    /// The level menu's setup after wait `n`.
    pub(crate) fn resume_level_menu_setup(&mut self, n: u8, ev: &mut FrameEvents) -> Next {
        match n {
            1 => {
                self.s.flow.nmi_off_frames = 1;
                self.s.resume = Resume::LevelMenuSetup(2);
                Next::Wait
            }
            2 | 3 => {
                self.s.resume = Resume::LevelMenuSetup(n + 1);
                Next::Wait
            }
            _ => {
                self.s.selecting = 0;
                while self.s.start_level >= 10 {
                    self.s.start_level -= 10;
                }
                self.level_menu_frame(ev)
            }
        }
    }

    /// One frame of the level menu (`gameMode_levelMenu_processPlayer1Navigation`).
    pub(crate) fn level_menu_frame(&mut self, ev: &mut FrameEvents) -> Next {
        let s = &mut self.s;
        let pressed = s.pressed;
        let b_type = s.game_type != 0;
        let on_height = s.selecting != 0;
        let (level, height) = (&mut s.start_level, &mut s.start_height);
        match pressed {
            p if p == Buttons::RIGHT.bits() => {
                ev.set(FrameEvents::MENU_BEEP);
                if on_height {
                    if *height != 5 {
                        *height += 1;
                    }
                } else if *level != 9 {
                    *level = level.wrapping_add(1);
                }
            }
            p if p == Buttons::LEFT.bits() => {
                ev.set(FrameEvents::MENU_BEEP);
                if on_height {
                    if *height != 0 {
                        *height -= 1;
                    }
                } else if *level != 0 {
                    *level -= 1;
                }
            }
            p if p == Buttons::DOWN.bits() => {
                ev.set(FrameEvents::MENU_BEEP);
                if on_height {
                    if (height.wrapping_sub(3) as i8) < 0 {
                        *height += 3;
                    }
                } else if (level.wrapping_sub(5) as i8) < 0 {
                    *level += 5;
                }
            }
            p if p == Buttons::UP.bits() => {
                ev.set(FrameEvents::MENU_BEEP);
                if on_height {
                    if (height.wrapping_sub(3) as i8) >= 0 {
                        *height -= 3;
                    }
                } else if (level.wrapping_sub(5) as i8) >= 0 {
                    *level -= 5;
                }
            }
            p if p == Buttons::A.bits() && b_type => {
                ev.set(FrameEvents::MENU_BEEP);
                s.selecting ^= 1;
            }
            _ => {}
        }
        if pressed == START {
            if s.held == (Buttons::A.bits() | START) {
                s.start_level = s.start_level.wrapping_add(10);
            }
            s.game_mode_state = 0;
            s.game_mode = s.game_mode.wrapping_add(1);
            ev.set(FrameEvents::MENU_BEEP);
            // The accumulator (2) differs from gameModeState (0): game setup starts now.
            return Next::Continue;
        }
        if pressed == Buttons::B.bits() {
            s.game_mode = s.game_mode.wrapping_sub(1);
            s.resume = Resume::MainLoop;
            ev.set(FrameEvents::MENU_BEEP);
            return if s.game_mode_state == 2 {
                Next::Wait
            } else {
                Next::Continue
            };
        }
        // A garbage hole for each player, every frame: two or more generator steps.
        for _ in 0..2 {
            loop {
                s.rng = lfsr_step(s.rng);
                let v = (s.rng >> 8) as u8 & 0x0F;
                if v < 10 {
                    s.flow.garbage_hole = v;
                    break;
                }
            }
        }
        s.resume = Resume::LevelMenu;
        Next::Wait
    }

    /// `gameModeState_initGameBackground` up to its first wait.
    pub(crate) fn game_background_start(&mut self) -> Next {
        self.s.resume = Resume::GameBackground(1);
        Next::Wait
    }

    /// `initGameBackground` after wait `n`; after the fourth the game init follows.
    pub(crate) fn resume_game_background(&mut self, n: u8, ev: &mut FrameEvents) -> Next {
        if n < 4 {
            self.s.resume = Resume::GameBackground(n + 1);
            return Next::Wait;
        }
        let s = &mut self.s;
        s.play_state = 1;
        s.level = s.start_level;
        s.game_mode_state = 1;
        ev.set(FrameEvents::SCREEN_CHANGED);
        Next::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bonus_counts_hundreds() {
        let mut t = [0x65, 0x46, 0x01];
        add_100_points(&mut t);
        assert_eq!(t, [0x65, 0x47, 0x01]);
        let mut t = [0x00, 0x99, 0x00];
        add_100_points(&mut t);
        assert_eq!(t, [0x00, 0x00, 0x01]);
    }
}
