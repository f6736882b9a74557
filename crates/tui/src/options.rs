//! [`TuiOptions`]: what a game starts with, and a minimal flag parser for the demo binaries.

use nestris_core::{GameSetup, GameType, Region};

/// How the front end starts its games.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TuiOptions {
    /// Start level 0..=19 (10..=19 is the menu's level with A held).
    pub level: u8,
    /// A-type or B-type.
    pub game_type: GameType,
    /// B-type garbage height 0..=5 (ignored for A-type).
    pub height: u8,
    /// The first game's seed ([`GameSetup::from_seed`]); each new game adds one.
    pub seed: u64,
    /// NTSC (60.0988 Hz) or PAL (50.007 Hz).
    pub region: Region,
}

impl Default for TuiOptions {
    fn default() -> Self {
        TuiOptions {
            level: 0,
            game_type: GameType::A,
            height: 0,
            seed: 0,
            region: Region::Ntsc,
        }
    }
}

/// The usage line of [`TuiOptions::from_args`].
pub const USAGE: &str =
    "usage: nestris-tui [--level 0-19] [--b-type] [--height 0-5] [--seed N] [--pal]";

impl TuiOptions {
    /// Checks the ranges the cartridge's menu allows.
    pub fn validate(&self) -> Result<(), String> {
        if self.level > 19 {
            return Err(format!("level {} is not 0-19", self.level));
        }
        if self.height > 5 {
            return Err(format!("height {} is not 0-5", self.height));
        }
        Ok(())
    }

    /// The setup of the `game_index`-th game of a session (0 = the first).
    pub fn setup(&self, game_index: u64) -> GameSetup {
        GameSetup {
            region: self.region,
            game_type: self.game_type,
            // The menu offers 0-9; 10-19 is the same choice with A held on Start.
            level: self.level % 10,
            a_held_on_start: self.level >= 10,
            height: self.height,
            ..GameSetup::from_seed(self.seed.wrapping_add(game_index))
        }
    }

    /// Parses `--level N --b-type --height N --seed N --pal` (arguments after the program
    /// name). Without `--seed`, the seed comes from the clock so that games differ.
    pub fn from_args<I: IntoIterator<Item = String>>(args: I) -> Result<TuiOptions, String> {
        let mut o = TuiOptions {
            seed: clock_seed(),
            ..TuiOptions::default()
        };
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
            };
            match flag.as_str() {
                "--level" => o.level = parse(&value("--level")?)?,
                "--height" => o.height = parse(&value("--height")?)?,
                "--seed" => o.seed = parse(&value("--seed")?)?,
                "--b-type" => o.game_type = GameType::B,
                "--pal" => o.region = Region::Pal,
                "-h" | "--help" => return Err(USAGE.to_string()),
                other => return Err(format!("unknown argument {other}\n{USAGE}")),
            }
        }
        o.validate()?;
        Ok(o)
    }
}

fn parse<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{text:?} is not a valid number\n{USAGE}"))
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_every_flag() {
        let o =
            TuiOptions::from_args(args("--level 15 --b-type --height 3 --seed 9 --pal")).unwrap();
        assert_eq!(
            o,
            TuiOptions {
                level: 15,
                game_type: GameType::B,
                height: 3,
                seed: 9,
                region: Region::Pal
            }
        );
        let setup = o.setup(0);
        assert_eq!((setup.level, setup.a_held_on_start), (5, true));
        assert_eq!(setup.start_level(), 15);
        assert_eq!(setup.rng, GameSetup::from_seed(9).rng);
        assert_eq!(o.setup(1).rng, GameSetup::from_seed(10).rng);
    }

    #[test]
    fn rejects_out_of_range_and_unknown() {
        assert!(TuiOptions::from_args(args("--level 20")).is_err());
        assert!(TuiOptions::from_args(args("--height 6")).is_err());
        assert!(TuiOptions::from_args(args("--seed")).is_err());
        assert!(TuiOptions::from_args(args("--bogus")).is_err());
    }
}
