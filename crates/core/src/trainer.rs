//! Practice starts, as the trainers of TetrisGYM offer them: a game set up to practise one
//! thing. Each is an ordinary start state (a [`Game`]): its rules are the cartridge's
//! except where a [`Variant`] says otherwise (the line caps, the drought, DAS-only), so a
//! replay of it starts from its snapshot and carries what differs.
//!
//! - **Transition**: five lines before the start level's first level-up (level 18: 125
//!   lines, the transition to 19 at 130), to practise the speed change.
//! - **Tetris ready**: a clean stack four rows high with the well on the right, and a
//!   ragged top above it, to practise burning and building on it.
//! - **Killscreen** / **double killscreen**: one or two rows a frame from the cap on
//!   (by default from the first frame), TetrisGYM's KS and KSx2 line caps.
//! - **Halt**: the game ends when the cap's line count is reached (a sprint to N lines).
//! - **Drought**: fewer I pieces, by TetrisGYM's drought modifier (0-18; at 18 none).
//! - **DAS-only**: taps and rolls do not move the piece, auto-shift does (TetrisGYM's
//!   DAS-only mode, see [`crate::das_only`]).
//!
//! TetrisGYM's tap-speed test is not a game: it is [`crate::tap_test`].

use crate::{CapAt, CapRule, Game, GameSetup, LineCap, Region, Variant};

/// A practice start.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Trainer {
    /// Five lines before the first level-up.
    Transition,
    /// A tetris-ready stack.
    TetrisReady,
    /// Level-29 gravity from `cap` lines on.
    Killscreen,
    /// Two rows a frame from `cap` lines on.
    DoubleKillscreen,
    /// The game ends at `cap` lines.
    Halt,
    /// I pieces made rarer by a drought modifier (1-18, TetrisGYM's scale).
    Drought(u8),
    /// Only auto-shift moves the piece.
    DasOnly,
}

/// The drought trainer's modifier unless told otherwise: half the I pieces picked again
/// (TetrisGYM's `A`).
pub const DEFAULT_DROUGHT: u8 = 10;

/// The three block tiles, for stacks the trainers build.
const BLOCK_TILES: [u8; 3] = [0x7B, 0x7C, 0x7D];

/// The tetris-ready stack's column heights (the well is column 9).
const READY_HEIGHTS: [usize; 10] = [6, 5, 5, 4, 6, 7, 5, 4, 5, 0];

impl Trainer {
    /// Every trainer, in menu order.
    pub const ALL: [Trainer; 7] = [
        Trainer::Transition,
        Trainer::TetrisReady,
        Trainer::Killscreen,
        Trainer::DoubleKillscreen,
        Trainer::Halt,
        Trainer::Drought(DEFAULT_DROUGHT),
        Trainer::DasOnly,
    ];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Trainer::Transition => "transition",
            Trainer::TetrisReady => "tetris-ready",
            Trainer::Killscreen => "ks",
            Trainer::DoubleKillscreen => "ksx2",
            Trainer::Halt => "halt",
            Trainer::Drought(_) => "drought",
            Trainer::DasOnly => "das-only",
        }
    }

    /// The trainer of a name.
    pub fn from_name(name: &str) -> Option<Trainer> {
        Trainer::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The line cap a trainer plays under at `cap` lines, if it has one.
    pub const fn cap(self, cap: u16) -> Option<LineCap> {
        let rule = match self {
            Trainer::Killscreen => CapRule::Ks,
            Trainer::DoubleKillscreen => CapRule::KsX2,
            Trainer::Halt => CapRule::Halt,
            Trainer::Transition | Trainer::TetrisReady | Trainer::Drought(_) | Trainer::DasOnly => {
                return None
            }
        };
        Some(LineCap {
            at: CapAt::Lines(cap),
            rule,
        })
    }

    /// The game it starts: an A-type game at `level` (0-19) in `region`, with `cap` the
    /// line count of a cap trainer's cap.
    pub fn game(self, region: Region, level: u8, cap: u16) -> Game {
        let variant = Variant {
            caps: [self.cap(cap), None],
            drought: match self {
                Trainer::Drought(m) => m.min(crate::DROUGHT_MAX),
                _ => 0,
            },
            das_only: (self == Trainer::DasOnly).then(crate::DasOnly::default),
            ..Variant::CARTRIDGE
        };
        let game = Game::new(GameSetup {
            region,
            level,
            variant,
            ..GameSetup::default()
        });
        let mut s = game.snapshot();
        match self {
            Trainer::Transition => {
                let lines = first_level_up(level).saturating_sub(5);
                s.lines = [crate::bcd::to_bcd((lines % 100) as u8), (lines / 100) as u8];
            }
            Trainer::TetrisReady => {
                for (col, &h) in READY_HEIGHTS.iter().enumerate() {
                    for row in (20 - h)..20 {
                        s.playfield.0[row * 10 + col] = BLOCK_TILES[(row * 7 + col * 5) % 3];
                    }
                }
            }
            _ => {}
        }
        Game::from_snapshot(s).expect("a trainer's start is a state the cartridge can hold")
    }
}

/// The line count of a game's first level-up from `level`: the engine's own rule
/// (`play::levels_up`, the line count's tens and hundreds digits read as one hex byte,
/// which makes level 18's transition come at 130 lines), line by line from none.
pub fn first_level_up(level: u8) -> u16 {
    let mut lines = [0u8; 2];
    for n in 1..=999 {
        crate::bcd::increment_lines(&mut lines);
        if crate::play::levels_up(lines, level) {
            return n;
        }
    }
    999
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_level_ups_are_the_cartridge_s() {
        // The table players know: 0 -> 10, 9 -> 100, 10-15 -> 100, 16 -> 110, 18 -> 130,
        // 19 -> 140.
        assert_eq!(first_level_up(0), 10);
        assert_eq!(first_level_up(9), 100);
        assert_eq!(first_level_up(15), 100);
        assert_eq!(first_level_up(16), 110);
        assert_eq!(first_level_up(18), 130);
        assert_eq!(first_level_up(19), 140);
    }

    #[test]
    fn the_transition_trainer_levels_up_after_five_lines() {
        let g = Trainer::Transition.game(Region::Ntsc, 18, 0);
        assert_eq!(g.state().lines, [0x25, 1]);
        assert!(g.state().variant.is_cartridge(), "the cartridge's rules");
        assert_eq!(crate::bcd::lines_value(g.state().lines) + 5, 130);
    }

    #[test]
    fn the_tetris_ready_stack_takes_a_tetris_with_an_i() {
        let g = Trainer::TetrisReady.game(Region::Ntsc, 18, 0);
        let p = &g.state().playfield;
        for row in 16..20 {
            assert!(
                (0..9).all(|c| p.is_filled(row, c)),
                "row {row} full but the well"
            );
            assert!(!p.is_filled(row, 9), "the well is open");
        }
        // No holes: every column is solid from its top down.
        for col in 0..10 {
            let top = (0..20).find(|&r| p.is_filled(r, col)).unwrap_or(20);
            assert!((top..20).all(|r| p.is_filled(r, col)), "column {col}");
        }
    }

    #[test]
    fn cap_trainers_play_under_their_cap_and_halt_ends_the_game() {
        let g = Trainer::DoubleKillscreen.game(Region::Ntsc, 18, 0);
        assert_eq!(g.state().variant.label().as_str(), "ksx2@0lines");
        let g = Trainer::Killscreen.game(Region::Ntsc, 18, 0);
        assert_eq!(g.state().variant.gravity_rule(18, 0), Some(CapRule::Ks));
        let g = Trainer::Halt.game(Region::Ntsc, 18, 100);
        assert_eq!(g.state().variant.label().as_str(), "halt@100lines");
        assert!(g.state().variant.halts(18, 100));
        assert!(!g.state().variant.halts(18, 99));
        assert!(Trainer::from_name("tetris-ready") == Some(Trainer::TetrisReady));
        assert!(Trainer::from_name("nope").is_none());
    }

    #[test]
    fn drought_and_das_only_trainers_play_under_their_variant() {
        let g = Trainer::Drought(18).game(Region::Ntsc, 18, 0);
        assert_eq!(g.state().variant.label().as_str(), "drought 18");
        assert_eq!(
            Trainer::from_name("drought"),
            Some(Trainer::Drought(DEFAULT_DROUGHT))
        );
        let g = Trainer::Drought(99).game(Region::Ntsc, 18, 0);
        assert_eq!(g.state().variant.drought, crate::DROUGHT_MAX, "at most 18");
        let g = Trainer::DasOnly.game(Region::Pal, 9, 0);
        assert_eq!(g.state().variant.label().as_str(), "das-only");
        assert_eq!(Trainer::from_name("das-only"), Some(Trainer::DasOnly));
    }
}
