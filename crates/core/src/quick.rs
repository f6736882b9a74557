//! Quick start: the presses a player would make from power-on to an A-type game at a
//! chosen level, decided frame by frame from the game's state (the terminal's
//! `--quick LEVEL`, and the autopilot on its way through the menus).
//!
//! Decisions come from the state rather than from a timetable, so presses that land in
//! frames where the cartridge is not listening (screen uploads, the legal screen's wait)
//! are simply made again. Every press is released for a frame first, because the
//! cartridge acts on newly pressed buttons only.

use crate::{Buttons, GameMode, Snapshot};

/// The buttons to hold this frame on the way to a game at `level` (0..=19).
pub fn buttons(s: &Snapshot, level: u8) -> Buttons {
    let held = Buttons(s.held);
    let target = level % 10;
    let on_target = s.mode() == GameMode::LevelMenu && s.start_level == target;
    if on_target && level >= 10 && held == Buttons::A {
        // Start with A already held adds ten to the level.
        return Buttons::A | Buttons::START;
    }
    if !held.is_empty() {
        return Buttons::NONE;
    }
    match s.mode() {
        // The legal screen, the title and the demo all take Start.
        GameMode::Legal | GameMode::Title | GameMode::Demo | GameMode::DemoStart => Buttons::START,
        GameMode::TypeMenu if s.game_type != 0 => Buttons::LEFT,
        GameMode::TypeMenu => Buttons::START,
        GameMode::LevelMenu if s.game_type != 0 => Buttons::B,
        GameMode::LevelMenu => match s.start_level {
            l if l + 5 <= target => Buttons::DOWN,
            l if l < target => Buttons::RIGHT,
            l if l >= target + 5 => Buttons::UP,
            l if l > target => Buttons::LEFT,
            _ if level >= 10 => Buttons::A,
            _ => Buttons::START,
        },
        _ => Buttons::NONE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Region};

    fn drive(level: u8, region: Region) -> (Game, usize) {
        let mut g = Game::power_on(region);
        for frame in 0..2000 {
            if g.state().mode() == GameMode::Play {
                return (g, frame);
            }
            let b = buttons(g.state(), level);
            g.step(b);
        }
        panic!("no game after 2000 frames");
    }

    #[test]
    fn reaches_every_level_soon_after_the_legal_screen() {
        for level in [0, 4, 5, 9, 10, 18, 19] {
            let (mut g, frames) = drive(level, Region::Ntsc);
            assert!(frames < 400, "level {level} after {frames} frames");
            for _ in 0..30 {
                g.step(Buttons::NONE);
            }
            let s = g.state();
            assert_eq!((s.game_type, s.level, s.game_mode_state), (0, level, 2));
        }
        let (g, _) = drive(7, Region::Pal);
        assert_eq!(g.state().start_level, 7);
    }
}
