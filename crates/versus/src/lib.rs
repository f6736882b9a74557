//! Two players on the same pieces: a versus match.
//!
//! Every game of a match starts both players from one [`GameSetup`]: the same level and
//! the same TetrisGYM seed, so both are dealt the same pieces whatever their timing (the
//! cartridge's own generator steps every frame, so two players on it would not be). Each
//! player's game is a [`Side`], driven by that player's [`Input`]s alone: the boards do not
//! interact, which is what lets a network match simulate the opponent from its inputs
//! ([`net`]) and a file hold a match as two input streams ([`file`]).
//!
//! A match may also start from a given game instead of the setup's first
//! ([`Match::from_start`]): a race against a single-player replay starts both players
//! where the replay's game started, so they get the same pieces when that game was
//! seeded (on the cartridge's generator, pieces follow timing and can differ).
//!
//! A game goes on for the player still alive; when both are over the higher score wins
//! it (a heart), and the first to win more than half of `best_of` wins the match. The
//! next game starts when a player's input says so ([`Input::game`]): a front end starts
//! it when [`Match::next_game`] allows, and the opponent's side follows its own stream.

#![deny(missing_docs)]

pub mod file;
pub mod net;

use nestris_core::bcd::score_value;
use nestris_core::{
    Buttons, FrameEvents, Game, GameSetup, GymSeed, PlayState, Region, SeedRule, Variant,
};

/// The most games a match may be the best of.
pub const MAX_BEST_OF: u8 = 15;

/// What every game of a match starts from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MatchSetup {
    /// NTSC or PAL.
    pub region: Region,
    /// The start level (0-19, as the level menu offers with A held).
    pub level: u8,
    /// The match's seed (24 bits): game `g` is dealt from [`MatchSetup::seed_of`].
    pub seed: u32,
    /// Games in the match at most (odd, 1 to [`MAX_BEST_OF`]).
    pub best_of: u8,
}

/// Why a setup is refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    /// The level is outside 0-19.
    #[error("level {0} is not 0-19")]
    Level(u8),
    /// The seed has more than 24 bits.
    #[error("seed {0:#x} has more than six hex digits")]
    Seed(u32),
    /// Best of an even number, zero or too many.
    #[error("best of {0}: an odd number from 1 to {MAX_BEST_OF}")]
    BestOf(u8),
}

impl MatchSetup {
    /// Checks the setup.
    pub fn validate(&self) -> Result<(), SetupError> {
        if self.level > 19 {
            return Err(SetupError::Level(self.level));
        }
        if self.seed > 0xFF_FFFF {
            return Err(SetupError::Seed(self.seed));
        }
        if self.best_of == 0 || self.best_of > MAX_BEST_OF || self.best_of % 2 == 0 {
            return Err(SetupError::BestOf(self.best_of));
        }
        Ok(())
    }

    /// Game `g`'s seed: the match's for the first game, then a new one each game (the
    /// same for both players), so a rematch is not the same pieces again.
    pub fn seed_of(&self, g: u16) -> u32 {
        let mut x = self.seed ^ (u32::from(g) * 0x9E37_79B9);
        x ^= x >> 15;
        x = x.wrapping_mul(0x2C1B_3C6D);
        x ^= x >> 12;
        if g == 0 {
            self.seed
        } else {
            x & 0xFF_FFFF
        }
    }

    /// Game `g`'s start.
    pub fn game_setup(&self, g: u16) -> GameSetup {
        GameSetup {
            region: self.region,
            level: self.level,
            variant: Variant {
                seed: GymSeed::new(self.seed_of(g), SeedRule::V5),
                ..Variant::CARTRIDGE
            },
            ..GameSetup::default()
        }
    }

    /// Games a player must win to win the match.
    pub fn to_win(&self) -> u8 {
        self.best_of / 2 + 1
    }
}

/// One frame of one player: the buttons, and the game they are for (a game number
/// above the side's current one starts that game first).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Input {
    /// Controller buttons held.
    pub buttons: Buttons,
    /// The match's game this frame belongs to (from 0).
    pub game: u16,
}

/// What a player has done in the current game, counted from the frames' events.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SideStats {
    /// Lines cleared.
    pub lines: u32,
    /// Lines cleared by tetrises.
    pub tetris_lines: u32,
}

impl SideStats {
    /// The share of lines cleared by tetrises, in percent (0 before any line).
    pub fn tetris_rate(&self) -> u32 {
        (self.tetris_lines * 100)
            .checked_div(self.lines)
            .unwrap_or(0)
    }
}

/// One player's game in a match.
#[derive(Clone, Debug)]
pub struct Side {
    /// The game as it stands.
    pub game: Game,
    /// Which of the match's games it is.
    pub game_no: u16,
    /// Counts for the current game.
    pub stats: SideStats,
    /// Frames applied (all games).
    pub frames: u64,
}

impl Side {
    /// The first game of `setup`.
    pub fn new(setup: &MatchSetup) -> Side {
        Side::starting(Game::new(setup.game_setup(0)))
    }

    /// A side whose first game is `game`.
    pub fn starting(game: Game) -> Side {
        Side {
            game,
            game_no: 0,
            stats: SideStats::default(),
            frames: 0,
        }
    }

    /// Applies one frame of this player's input. Over, the game only lets its curtain
    /// fall (no buttons reach it), so its result stands.
    pub fn apply(&mut self, setup: &MatchSetup, input: Input) -> FrameEvents {
        if input.game > self.game_no {
            self.game = Game::new(setup.game_setup(input.game));
            self.game_no = input.game;
            self.stats = SideStats::default();
        }
        self.frames += 1;
        if self.over() {
            let s = self.game.state();
            if s.phase() == PlayState::Curtain && !s.curtain_down() {
                return self.game.step(Buttons::NONE);
            }
            return FrameEvents::default();
        }
        let ev = self.game.step(input.buttons);
        if ev.has(FrameEvents::LINES_CLEARED) {
            let n = u32::from(ev.lines_cleared);
            self.stats.lines += n;
            if n == 4 {
                self.stats.tetris_lines += 4;
            }
        }
        ev
    }

    /// True once the current game is over.
    pub fn over(&self) -> bool {
        self.game.is_over()
    }

    /// The current game's score.
    pub fn score(&self) -> u32 {
        score_value(self.game.state().score)
    }
}

/// How one game of the match ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameResult {
    /// The game's number.
    pub game: u16,
    /// Both players' scores.
    pub scores: [u32; 2],
    /// Who won it (`None`: a tie, no heart).
    pub winner: Option<usize>,
}

/// A match as one player's screen shows it: both sides, the games won.
#[derive(Clone, Debug)]
pub struct Match {
    /// What every game starts from.
    pub setup: MatchSetup,
    /// Player 1 and player 2.
    pub sides: [Side; 2],
    /// Games won (hearts).
    pub wins: [u8; 2],
    /// The games decided so far.
    pub results: Vec<GameResult>,
    /// The first game's start, when it is not the setup's ([`Match::from_start`]).
    pub start: Option<Box<Game>>,
}

impl Match {
    /// Both players at the start of the first game.
    pub fn new(setup: MatchSetup) -> Match {
        Match {
            setup,
            sides: [Side::new(&setup), Side::new(&setup)],
            wins: [0; 2],
            results: Vec::new(),
            start: None,
        }
    }

    /// Both players at `start` (a replay's game, say), for a match of that one game: the
    /// setup's `best_of` is taken as 1, since later games would start from the setup.
    pub fn from_start(setup: MatchSetup, start: Game) -> Match {
        let setup = MatchSetup {
            best_of: 1,
            ..setup
        };
        Match {
            setup,
            sides: [Side::starting(start.clone()), Side::starting(start.clone())],
            wins: [0; 2],
            results: Vec::new(),
            start: Some(Box::new(start)),
        }
    }

    /// True when the match's games are dealt from a seed (false for a match started from
    /// a game on the cartridge's generator: pieces then follow each player's timing).
    pub fn seeded(&self) -> bool {
        self.start
            .as_ref()
            .is_none_or(|g| g.state().variant.seed.is_some())
    }

    /// Applies one frame of player `p`'s input (the sides need not move together: a
    /// network opponent's frames arrive late) and settles the game if both are over.
    pub fn apply(&mut self, p: usize, input: Input) -> FrameEvents {
        let ev = self.sides[p].apply(&self.setup, input);
        self.settle();
        ev
    }

    /// Records the current game's result once both sides have ended it.
    fn settle(&mut self) {
        let [a, b] = &self.sides;
        if a.game_no != b.game_no || !a.over() || !b.over() {
            return;
        }
        if self.results.last().is_some_and(|r| r.game == a.game_no) {
            return;
        }
        let scores = [a.score(), b.score()];
        let winner = match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        if let Some(w) = winner {
            self.wins[w] += 1;
        }
        self.results.push(GameResult {
            game: a.game_no,
            scores,
            winner,
        });
    }

    /// The match's winner, once one has won enough games.
    pub fn winner(&self) -> Option<usize> {
        (0..2).find(|&p| self.wins[p] >= self.setup.to_win())
    }

    /// The next game's number once it may start: the last game is decided and the match
    /// goes on (tied games do not count towards best-of, up to twice its length). A side
    /// still in the decided game may then start it.
    pub fn next_game(&self) -> Option<u16> {
        let last = self.results.last()?;
        if self.winner().is_some() || self.results.len() >= 2 * usize::from(self.setup.best_of) {
            return None;
        }
        Some(last.game + 1)
    }

    /// True when no game is left to play.
    pub fn finished(&self) -> bool {
        !self.results.is_empty() && self.next_game().is_none()
    }

    /// Player `p`'s input for this frame: `buttons`, for the game it is in, or for the
    /// next game when `start_next` and the match allows it ([`Match::next_game`]).
    pub fn input_for(&self, p: usize, buttons: Buttons, start_next: bool) -> Input {
        let game = match self.next_game() {
            Some(g) if start_next && g > self.sides[p].game_no => g,
            _ => self.sides[p].game_no,
        };
        Input { buttons, game }
    }

    /// The score difference, player 1 minus player 2.
    pub fn difference(&self) -> i64 {
        i64::from(self.sides[0].score()) - i64::from(self.sides[1].score())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn setup() -> MatchSetup {
        MatchSetup {
            region: Region::Ntsc,
            level: 18,
            seed: 0x1A2B3C,
            best_of: 3,
        }
    }

    /// The pieces dealt to a side as it plays `script`, until `n` are dealt.
    fn pieces(script: impl Fn(u64) -> Buttons, n: usize) -> Vec<u8> {
        let setup = setup();
        let mut side = Side::new(&setup);
        let mut out = Vec::new();
        let mut stats = None;
        while out.len() < n && !side.over() {
            let b = script(side.frames);
            side.apply(
                &setup,
                Input {
                    buttons: b,
                    game: 0,
                },
            );
            let s = side.game.state();
            if stats != Some(s.stats) {
                stats = Some(s.stats);
                out.push(s.next_piece);
            }
        }
        out
    }

    #[test]
    fn two_players_on_one_seed_get_the_same_pieces() {
        // One drops everything at once, the other shifts and waits: different timing.
        let fast = pieces(|_| Buttons::DOWN, 12);
        let slow = pieces(
            |f| match f % 40 {
                0 => Buttons::LEFT,
                20 => Buttons::A,
                _ => Buttons::NONE,
            },
            12,
        );
        assert_eq!(fast.len(), 12);
        assert_eq!(fast, slow[..fast.len().min(slow.len())]);
        assert!(slow.len() >= 6, "the slow player saw pieces too");
    }

    #[test]
    fn the_higher_score_wins_each_game_and_best_of_three_ends_at_two() {
        let setup = setup();
        let mut m = Match::new(setup);
        for g in 0..2u16 {
            // Player 1 clears nothing and tops out first; player 2 survives longer but also
            // scores nothing: a tie. Then push player 2's score by hand is not possible,
            // so both drop: equal scores make ties.
            let mut guard = 0;
            while !(m.sides[0].over() && m.sides[1].over()) {
                m.apply(
                    0,
                    Input {
                        buttons: Buttons::DOWN,
                        game: g,
                    },
                );
                m.apply(
                    1,
                    Input {
                        buttons: Buttons::DOWN,
                        game: g,
                    },
                );
                guard += 1;
                assert!(guard < 20_000);
            }
            assert_eq!(m.results.len(), usize::from(g) + 1);
            assert_eq!(m.next_game(), Some(g + 1));
            // Both drop the same pieces the same way: the same score, a tie.
            assert_eq!(m.results[usize::from(g)].winner, None);
            // Step both into the next game.
            m.apply(
                0,
                Input {
                    buttons: Buttons::NONE,
                    game: g + 1,
                },
            );
            m.apply(
                1,
                Input {
                    buttons: Buttons::NONE,
                    game: g + 1,
                },
            );
        }
        assert_eq!(m.wins, [0, 0]);
        // A game where player 2 scores: player 1 tops out at once, player 2 drops
        // pieces shifted so that lines clear... with no lines both score by soft drop.
        // Player 1 holds nothing (no drop points): player 2's drop points win.
        let g = 2;
        let mut guard = 0;
        while !(m.sides[0].over() && m.sides[1].over()) {
            m.apply(
                0,
                Input {
                    buttons: Buttons::NONE,
                    game: g,
                },
            );
            m.apply(
                1,
                Input {
                    buttons: Buttons::DOWN,
                    game: g,
                },
            );
            guard += 1;
            assert!(guard < 40_000);
        }
        let r = *m.results.last().unwrap();
        assert!(r.scores[1] > r.scores[0], "{r:?}");
        assert_eq!(r.winner, Some(1));
        assert_eq!(m.wins, [0, 1]);
        assert!(m.winner().is_none());
        assert_eq!(m.next_game(), Some(3));
    }

    #[test]
    fn a_side_that_is_over_keeps_its_result_while_the_other_plays_on() {
        let setup = setup();
        let mut m = Match::new(setup);
        while !m.sides[0].over() {
            m.apply(
                0,
                Input {
                    buttons: Buttons::DOWN,
                    game: 0,
                },
            );
        }
        let score = m.sides[0].score();
        for _ in 0..500 {
            m.apply(
                0,
                Input {
                    buttons: Buttons::START | Buttons::DOWN,
                    game: 0,
                },
            );
            m.apply(
                1,
                Input {
                    buttons: Buttons::NONE,
                    game: 0,
                },
            );
        }
        assert_eq!(m.sides[0].score(), score);
        assert!(m.sides[0].over());
        assert!(m.next_game().is_none() || m.sides[1].over());
    }

    #[test]
    fn setups_are_checked_and_each_game_has_its_own_seed() {
        let s = setup();
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(s.seed_of(0), 0x1A2B3C);
        assert_ne!(s.seed_of(1), s.seed_of(2));
        assert!(s.seed_of(7) <= 0xFF_FFFF);
        assert_eq!(
            MatchSetup { best_of: 4, ..s }.validate(),
            Err(SetupError::BestOf(4))
        );
        assert_eq!(
            MatchSetup { level: 20, ..s }.validate(),
            Err(SetupError::Level(20))
        );
        assert_eq!(
            MatchSetup { seed: 1 << 24, ..s }.validate(),
            Err(SetupError::Seed(1 << 24))
        );
        assert_eq!(s.to_win(), 2);
    }
}
