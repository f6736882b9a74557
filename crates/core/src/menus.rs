//! The flow from power-on: reset, legal screen, title screen, game-type menu.
//!
//! The generator steps in every frame interrupt from the fourth video frame on, so the
//! frames spent here decide the first game's pieces. Each function continues one of the
//! cartridge's routines from a waiting point ([`Resume`]) to the next.

use crate::buttons::Buttons;
use crate::events::FrameEvents;
use crate::flow::{FlowVars, Resume};
use crate::game::Game;
use crate::lfsr::POWER_ON_SEED;
use crate::playfield::Playfield;
use crate::postgame::Next;
use crate::region::Region;
use crate::snapshot::Snapshot;

const START: u8 = Buttons::START.bits();

/// `LEGAL_SLEEP_TIME`: frames the legal screen shows before Start is read.
const fn legal_sleep(region: Region) -> u8 {
    match region {
        Region::Ntsc => 0xFF,
        Region::Pal => 0xCC,
    }
}

/// What the main loop does after a handler returns: it compares the accumulator the
/// handler left with `gameModeState` and waits for the next frame only when they are equal;
/// otherwise it runs the next handler in the same frame.
fn main_loop_compare(acc: u8, game_mode_state: u8) -> Next {
    if acc == game_mode_state {
        Next::Wait
    } else {
        Next::Continue
    }
}

impl Game {
    /// The console just switched on with the cartridge: RAM cleared, the generator at
    /// its seed, the high-score table at its defaults. The first [`Game::step`] is video
    /// frame 0; the reset code lets four frames pass before the first frame interrupt.
    pub fn power_on(region: Region) -> Game {
        let s = Snapshot {
            region,
            resume: Resume::Reset(1),
            game_mode: 0,
            game_mode_state: 0,
            play_state: 0,
            render_mode: 0,
            x: 0,
            y: 0,
            piece: 0,
            next_piece: 0,
            level: 0,
            start_level: 0,
            start_height: 0,
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
            rng: POWER_ON_SEED,
            spawn_id: 0,
            spawn_count: 0,
            frame_counter: 0,
            sleep_counter: 0,
            held: 0,
            pressed: 0,
            game_type: 0,
            music_type: 0,
            display_next_piece: 0,
            selecting: 0,
            allegro: 0,
            clears: [0; 4],
            stats: [[0; 2]; 7],
            // Cleared RAM; the reset code fills the playfield page later.
            playfield: Playfield([0; 256]),
            flow: FlowVars {
                nmi_off_frames: 4,
                ..FlowVars::default()
            },
            render_flags: 0,
            clock: crate::timing::Clock::default(),
            audio: crate::audio::Audio::CLEARED,
            crash_mode: crate::CrashMode::Cartridge,
            crash: None,
            variant: crate::Variant::CARTRIDGE,
            cleared: crate::view::Cleared::default(),
            stale: crate::view::StaleDigits::default(),
        };
        Game { s }
    }

    /// Work the main loop finishes inside a frame without interrupt: after power-on the
    /// playfield page is filled only once the slow nametable clears are done.
    pub(crate) fn upload_frame(&mut self) {
        if self.s.resume == Resume::Reset(2) {
            self.s.playfield = Playfield::empty();
        }
    }

    /// The reset code after power-on, after wait `n`.
    pub(crate) fn resume_reset(&mut self, n: u8) -> Next {
        match n {
            1 => {
                // Nametables cleared with the interrupt off: one frame passes without it.
                self.s.flow.nmi_off_frames = 1;
                self.s.resume = Resume::Reset(2);
                Next::Wait
            }
            2 | 3 => {
                self.s.resume = Resume::Reset(n + 1);
                Next::Wait
            }
            _ => {
                self.s.game_mode_state = 0;
                self.s.game_mode = 0;
                self.s.frame_counter &= 0x00FF;
                Next::Continue
            }
        }
    }

    /// `gameMode_legalScreen` up to its first wait.
    pub(crate) fn legal_start(&mut self, ev: &mut FrameEvents) -> Next {
        self.s.render_mode = 0;
        self.s.resume = Resume::LegalSetup(1);
        ev.set(FrameEvents::SCREEN_CHANGED);
        Next::Wait
    }

    /// The legal screen's setup after wait `n`.
    pub(crate) fn resume_legal_setup(&mut self, n: u8) -> Next {
        if n < 4 {
            self.s.resume = Resume::LegalSetup(n + 1);
            return Next::Wait;
        }
        self.s.sleep_counter = legal_sleep(self.s.region);
        self.s.resume = Resume::LegalSleep;
        Next::Wait
    }

    /// The legal screen's sleep; then up to 255 frames waiting for Start.
    pub(crate) fn legal_sleep(&mut self) -> Next {
        if self.s.sleep_counter != 0 {
            return Next::Wait;
        }
        self.s.flow.legal_countdown = legal_sleep(self.s.region);
        self.legal_check()
    }

    /// One frame of the legal screen's wait for Start.
    pub(crate) fn legal_wait(&mut self) -> Next {
        self.s.flow.legal_countdown = self.s.flow.legal_countdown.wrapping_sub(1);
        if self.s.flow.legal_countdown == 0 {
            return self.legal_done();
        }
        self.legal_check()
    }

    fn legal_check(&mut self) -> Next {
        if self.s.pressed == START {
            return self.legal_done();
        }
        self.s.resume = Resume::LegalWait;
        Next::Wait
    }

    fn legal_done(&mut self) -> Next {
        self.s.game_mode = self.s.game_mode.wrapping_add(1);
        self.s.resume = Resume::MainLoop;
        Next::Continue
    }

    /// `gameMode_titleScreen` up to its first wait.
    pub(crate) fn title_start(&mut self, ev: &mut FrameEvents) -> Next {
        self.s.render_mode = 0;
        self.s.display_next_piece = 0;
        self.s.resume = Resume::TitleSetup(1);
        ev.set(FrameEvents::SCREEN_CHANGED);
        Next::Wait
    }

    /// The title screen's setup after wait `n`.
    pub(crate) fn resume_title_setup(&mut self, n: u8) -> Next {
        if n < 4 {
            self.s.resume = Resume::TitleSetup(n + 1);
            return Next::Wait;
        }
        // The demo timeout counts from here.
        self.s.frame_counter &= 0x00FF;
        self.s.resume = Resume::Title;
        Next::Wait
    }

    /// One frame of the title screen: Start opens the menus; after the frame counter's
    /// high byte reaches 5 the demo starts.
    pub(crate) fn title_frame(&mut self, ev: &mut FrameEvents) -> Next {
        if self.s.pressed == START {
            ev.set(FrameEvents::MENU_BEEP);
            self.s.game_mode = 2;
            self.s.resume = Resume::MainLoop;
            // The accumulator holds the sound effect's number (2).
            return main_loop_compare(2, self.s.game_mode_state);
        }
        if self.s.frame_counter >> 8 == 5 {
            ev.set(FrameEvents::DEMO);
            self.s.game_mode = 6;
            self.s.resume = Resume::MainLoop;
            // The accumulator holds the new gameMode (6); after the A+B+Select+Start reset
            // gameModeState is still 6, and the demo starts one frame later.
            return main_loop_compare(6, self.s.game_mode_state);
        }
        Next::Wait
    }

    /// `gameMode_gameTypeMenu` up to its first wait.
    pub(crate) fn type_menu_start(&mut self, ev: &mut FrameEvents) -> Next {
        self.s.render_mode = 1;
        self.s.resume = Resume::TypeMenuSetup(1);
        ev.set(FrameEvents::SCREEN_CHANGED);
        Next::Wait
    }

    /// The game-type menu's setup after wait `n`.
    pub(crate) fn resume_type_menu_setup(&mut self, n: u8, ev: &mut FrameEvents) -> Next {
        if n < 4 {
            self.s.resume = Resume::TypeMenuSetup(n + 1);
            return Next::Wait;
        }
        self.type_menu_frame(ev)
    }

    /// One frame of the game-type menu.
    pub(crate) fn type_menu_frame(&mut self, ev: &mut FrameEvents) -> Next {
        let s = &mut self.s;
        let p = s.pressed;
        if p == Buttons::RIGHT.bits() {
            s.game_type = 1;
            ev.set(FrameEvents::MENU_BEEP);
        } else if p == Buttons::LEFT.bits() {
            s.game_type = 0;
            ev.set(FrameEvents::MENU_BEEP);
        }
        if p == Buttons::DOWN.bits() {
            ev.set(FrameEvents::MENU_BEEP);
            if s.music_type != 3 {
                s.music_type += 1;
            }
        }
        if p == Buttons::UP.bits() {
            ev.set(FrameEvents::MENU_BEEP);
            if s.music_type != 0 {
                s.music_type -= 1;
            }
        }
        if p == START {
            ev.set(FrameEvents::MENU_BEEP);
            s.game_mode = 3;
            s.resume = Resume::MainLoop;
            // The accumulator holds the sound effect's number (2).
            return main_loop_compare(2, s.game_mode_state);
        }
        if p == Buttons::B.bits() {
            ev.set(FrameEvents::MENU_BEEP);
            s.frame_counter &= 0x00FF;
            s.game_mode = 1;
            s.resume = Resume::MainLoop;
            // The accumulator holds the cleared frame counter byte (0).
            return main_loop_compare(0, s.game_mode_state);
        }
        s.resume = Resume::TypeMenu;
        Next::Wait
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps with no buttons until `done`; the frames stepped.
    fn idle_until(g: &mut Game, frames: usize, done: impl Fn(&Game) -> bool) -> usize {
        for i in 1..=frames {
            g.step(Buttons::NONE);
            if done(g) {
                return i;
            }
        }
        panic!("not reached in {frames} frames");
    }

    /// Presses Start every other frame until `done`.
    fn start_until(g: &mut Game, done: impl Fn(&Game) -> bool) {
        for i in 0..4000 {
            g.step(if i % 2 == 0 {
                Buttons::START
            } else {
                Buttons::NONE
            });
            if done(g) {
                return;
            }
        }
        panic!("not reached");
    }

    /// Frames spent with gameMode 6 between the title and the demo.
    fn frames_in_demo_start(g: &mut Game) -> usize {
        idle_until(g, 2000, |g| g.s.game_mode != 1);
        let mut n = 0;
        while g.s.game_mode == 6 {
            n += 1;
            g.step(Buttons::NONE);
        }
        assert_eq!(g.s.game_mode, 5);
        n
    }

    #[test]
    fn after_the_soft_reset_the_demo_starts_one_frame_later() {
        // From power-on the title's timeout starts the demo in the same frame.
        let mut g = Game::power_on(Region::Ntsc);
        idle_until(&mut g, 1000, |g| g.s.game_mode == 1);
        assert_eq!(frames_in_demo_start(&mut g), 0);

        // Play, then A+B+Select+Start: gameModeState stays 6 through the legal screen and
        // the title, and the main loop waits one frame after the timeout.
        let mut g = Game::power_on(Region::Ntsc);
        start_until(&mut g, |g| g.s.game_mode == 4 && g.s.game_mode_state == 2);
        g.step(Buttons(0xF0));
        assert_eq!((g.s.game_mode, g.s.game_mode_state), (0, 6));
        idle_until(&mut g, 1000, |g| g.s.game_mode == 1);
        assert_eq!(g.s.game_mode_state, 6);
        assert_eq!(frames_in_demo_start(&mut g), 1);
    }

    #[test]
    fn start_on_the_title_waits_a_frame_when_game_mode_state_is_2() {
        for (state, render_mode) in [(0, 1), (2, 0)] {
            let mut g = Game::power_on(Region::Ntsc);
            idle_until(&mut g, 1000, |g| g.s.resume == Resume::Title);
            g.s.game_mode_state = state;
            g.step(Buttons::START);
            assert_eq!(g.s.game_mode, 2);
            // The game-type menu's setup begins this frame, or the next.
            assert_eq!(g.s.render_mode, render_mode, "gameModeState {state}");
            g.step(Buttons::NONE);
            assert_eq!(g.s.render_mode, 1);
        }
    }
}
