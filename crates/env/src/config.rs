//! What an environment is made with: how its games start ([`GameOptions`], the format
//! of play among them), what its reward counts and what it observes, the default action
//! table, and the seed that follows a seed.

pub use nestris_ai::format::Format;
use nestris_core::{CrashMode, GameSetup, GameType, GymSeed, Region, SeedRule, Variant};

/// The joypad bits, as the cartridge reads them.
pub const A: u8 = 0x80;
/// B.
pub const B: u8 = 0x40;
/// Down.
pub const DOWN: u8 = 0x04;
/// Left.
pub const LEFT: u8 = 0x02;
/// Right.
pub const RIGHT: u8 = 0x01;

/// The default action table of the frame-level environments: 12 joypad bytes.
///
/// 0 none, 1 Left, 2 Right, 3 Down, 4 A, 5 B, 6 Left+A, 7 Right+A, 8 Left+B, 9 Right+B,
/// 10 Down+A, 11 Down+B.
pub const DEFAULT_ACTIONS: [u8; 12] = [
    0,
    LEFT,
    RIGHT,
    DOWN,
    A,
    B,
    LEFT | A,
    RIGHT | A,
    LEFT | B,
    RIGHT | B,
    DOWN | A,
    DOWN | B,
];

/// Names of [`DEFAULT_ACTIONS`], in order.
pub const DEFAULT_ACTION_NAMES: [&str; 12] = [
    "none", "L", "R", "D", "A", "B", "L+A", "R+A", "L+B", "R+B", "D+A", "D+B",
];

/// Music off: the default of every game made from Python (exact without the
/// cartridge's music scripts).
pub const MUSIC_OFF: u8 = 3;

/// What every game of an environment starts from, but the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOptions {
    /// NTSC or PAL.
    pub region: Region,
    /// A-type or B-type.
    pub game_type: GameType,
    /// Start level (any byte; the menu offers 0-19).
    pub level: u8,
    /// B-type garbage height 0..=5.
    pub height: u8,
    /// What happens when the cartridge would crash.
    pub crash_mode: CrashMode,
    /// The music choice, 0..=3.
    pub music_type: u8,
    /// The rules and the pieces: the cartridge's, or a community format's
    /// ([`GameOptions::setup`] says how a seed picks its pieces).
    pub format: Format,
}

impl Default for GameOptions {
    /// NTSC, A-type, level 0, the cartridge's crashes, music off.
    fn default() -> Self {
        GameOptions {
            region: Region::Ntsc,
            game_type: GameType::A,
            level: 0,
            height: 0,
            crash_mode: CrashMode::Cartridge,
            music_type: MUSIC_OFF,
            format: Format::Cartridge,
        }
    }
}

impl GameOptions {
    /// The setup of a game: from `seed` (see [`GameSetup::from_seed`]) or, with no seed,
    /// the cartridge's power-on generator state. Under [`Format::Betatetris`] the pieces
    /// are dealt by the TetrisGYM v5 seed [`gym_seed_of`]`(seed)` instead, and its line
    /// caps apply; with no seed, by the cartridge's generator (as `nestris ai bench` does).
    pub fn setup(&self, seed: Option<u64>) -> GameSetup {
        let base = match seed {
            Some(s) => GameSetup::from_seed(s),
            None => GameSetup::default(),
        };
        let variant = match self.format {
            Format::Cartridge => Variant::CARTRIDGE,
            Format::Betatetris => {
                Variant::betatetris(seed.and_then(|s| GymSeed::new(gym_seed_of(s), SeedRule::V5)))
            }
        };
        GameSetup {
            region: self.region,
            game_type: self.game_type,
            level: self.level,
            height: self.height,
            crash_mode: self.crash_mode,
            music_type: self.music_type,
            variant,
            ..base
        }
    }
}

/// The lowest TetrisGYM seed dealt: lower ones start the generator from zero high bytes
/// (BetaTetris's evaluation draws from 512 up for the same reason).
pub const GYM_SEED_LOW: u32 = 512;

/// The TetrisGYM seed (its six hex digits as one number) an episode seed deals under
/// [`Format::Betatetris`]: the seed itself from [`GYM_SEED_LOW`] to 2^24-1, so that a
/// published seed (`nestris ai bench --format betatetris` prints them) replays as itself;
/// any other seed folded into that range.
pub const fn gym_seed_of(seed: u64) -> u32 {
    const TOP: u64 = 1 << 24;
    if seed >= GYM_SEED_LOW as u64 && seed < TOP {
        seed as u32
    } else {
        GYM_SEED_LOW + (seed % (TOP - GYM_SEED_LOW as u64)) as u32
    }
}

/// The seed of the episode after one seeded `seed`, when an environment resets without
/// a new seed: a Weyl sequence modulo 2^63 ([`GameSetup::from_seed`] mixes it), so that
/// the seeds stay within int64 (numpy's default integer, where Gymnasium puts infos).
pub const fn next_seed(seed: u64) -> u64 {
    seed.wrapping_add(0x9E37_79B9_7F4A_7C15) & (u64::MAX >> 1)
}

/// What an environment's reward counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// Points scored in the step.
    Score,
    /// Lines cleared in the step.
    Lines,
    /// 1 for every step that does not end the episode.
    Survival,
}

impl Reward {
    /// `"score"`, `"lines"` or `"survival"`.
    pub fn from_name(text: &str) -> Option<Reward> {
        match text {
            "score" => Some(Reward::Score),
            "lines" => Some(Reward::Lines),
            "survival" => Some(Reward::Survival),
            _ => None,
        }
    }

    /// The reward of a step that scored `points` and cleared `lines`, and ended the
    /// episode or not.
    #[inline]
    pub fn of(self, points: f64, lines: u32, ended: bool) -> f64 {
        match self {
            Reward::Score => points,
            Reward::Lines => f64::from(lines),
            Reward::Survival => {
                if ended {
                    0.0
                } else {
                    1.0
                }
            }
        }
    }
}

/// What an environment observes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObsKind {
    /// The 20x10 board and the piece features.
    Board,
    /// A 240x256x3 picture.
    Pixels,
}

impl ObsKind {
    /// `"board"` or `"pixels"`.
    pub fn from_name(text: &str) -> Option<ObsKind> {
        match text {
            "board" => Some(ObsKind::Board),
            "pixels" => Some(ObsKind::Pixels),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_stay_in_int64_and_setups_keep_the_options() {
        let mut s = u64::MAX;
        for _ in 0..1000 {
            s = next_seed(s);
            assert!(s <= i64::MAX as u64);
        }
        let o = GameOptions {
            level: 18,
            ..GameOptions::default()
        };
        let a = o.setup(Some(5));
        assert_eq!((a.level, a.music_type), (18, MUSIC_OFF));
        assert_eq!(a.rng, GameSetup::from_seed(5).rng);
        assert_eq!(o.setup(None).rng, GameSetup::default().rng);
    }

    #[test]
    fn the_betatetris_format_deals_gym_seeds_under_its_caps() {
        let o = GameOptions {
            level: 18,
            format: Format::Betatetris,
            ..GameOptions::default()
        };
        // A published seed deals as itself: the same game `nestris ai bench` plays.
        let published = nestris_ai::format::betatetris_seeds(3, 0);
        for &g in &published {
            let v = o.setup(Some(u64::from(g))).variant;
            assert_eq!(v, Variant::betatetris(GymSeed::new(g, SeedRule::V5)));
        }
        // Every other seed lands in the dealt range; no seed, the cartridge's generator.
        for s in [0, 1, 511, 1 << 24, u64::MAX, i64::MAX as u64] {
            let g = gym_seed_of(s);
            assert!((GYM_SEED_LOW..1 << 24).contains(&g), "{s} -> {g}");
            assert_eq!(o.setup(Some(s)).variant.seed.unwrap().value(), g);
        }
        assert_eq!(o.setup(None).variant, Variant::betatetris(None));
        // The cartridge's format is the cartridge's rules.
        assert!(GameOptions::default().setup(Some(3)).variant.is_cartridge());
        // Its pieces are the seed's, not the episode seed's generator state.
        let mut a = nestris_core::Game::new(o.setup(Some(0x1234)));
        let mut b = nestris_core::Game::new(GameSetup {
            rng: 0x0101,
            ..o.setup(Some(0x1234))
        });
        for _ in 0..2000 {
            a.step(nestris_core::Buttons::NONE);
            b.step(nestris_core::Buttons::NONE);
            assert_eq!(a.state().next_piece, b.state().next_piece);
        }
    }

    #[test]
    fn names_read_back() {
        for r in [Reward::Score, Reward::Lines, Reward::Survival] {
            let name = format!("{r:?}").to_lowercase();
            assert_eq!(Reward::from_name(&name), Some(r));
        }
        assert_eq!(ObsKind::from_name("pixels"), Some(ObsKind::Pixels));
        assert_eq!(ObsKind::from_name("Board"), None);
        assert_eq!(Reward::Survival.of(100.0, 4, true), 0.0);
        assert_eq!(Reward::Lines.of(100.0, 4, false), 4.0);
    }
}
