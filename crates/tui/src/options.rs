//! [`TuiOptions`]: which console the front end is, and a minimal flag parser for the
//! binaries.

use nestris_core::{CrashMode, DemoData, Game, Region};
use std::ffi::OsString;
use std::path::PathBuf;

/// How the front end runs.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct TuiOptions {
    /// NTSC (60.0988 Hz) or PAL (50.007 Hz).
    pub region: Region,
    /// Press through the legal screen and the menus to an A-type game at this level
    /// (0..=19; 10..=19 is the menu's level with A held on Start) instead of waiting for
    /// the player. The presses are the cartridge's own inputs, so the game that follows
    /// is one a console would deal for the same presses.
    pub quick: Option<u8>,
    /// Where the session's replay is saved (one file per run, written every few seconds
    /// and on exit); `None` records nothing.
    pub replay_dir: Option<PathBuf>,
    /// Where the high-score table is kept (`highscores.json`, shared with the window);
    /// `None` keeps none (the console's own table each run).
    pub data_dir: Option<PathBuf>,
    /// The demo's tables from the user's own cartridge image (`--rom`); `None` shows
    /// nestris's own demo.
    pub rom_demo: Option<DemoData>,
    /// What the console does when the cartridge would crash (see
    /// `nestris_core::CrashMode`; default: it halts, as the console's CPU does).
    pub crash_mode: CrashMode,
    /// Start in this game instead of at power-on (a trainer's practice start, as the
    /// window's `WindowOptions::start`): the kept high-score table is put in its memory,
    /// the replay starts from it, and no score of the session is kept. Its region is the
    /// console's (it wins over `region`).
    pub start: Option<Game>,
}

/// The usage line of [`TuiOptions::from_args`].
pub const USAGE: &str =
    "usage: nestris-tui [--pal] [--quick LEVEL] [--replay-dir DIR] [--data-dir DIR] [--rom TETRIS.NES]";

impl TuiOptions {
    /// The console's region: the start game's, if there is one.
    pub fn console_region(&self) -> Region {
        self.start
            .as_ref()
            .map_or(self.region, |g| g.state().region)
    }

    /// Checks the ranges the cartridge's menu allows.
    pub fn validate(&self) -> Result<(), String> {
        match self.quick {
            Some(level) if level > 19 => Err(format!("level {level} is not 0-19")),
            Some(_) if self.start.is_some() => {
                Err("a start game is already under way: no menus to press through".to_string())
            }
            _ => Ok(()),
        }
    }

    /// Parses `--pal --quick LEVEL --replay-dir DIR --rom FILE` (arguments after the
    /// program name); `--rom` reads the demo's tables from the image. Paths may be any
    /// bytes the system allows.
    pub fn from_args<I>(args: I) -> Result<TuiOptions, String>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut o = TuiOptions::default();
        let mut args = args.into_iter().map(Into::into);
        while let Some(flag) = args.next() {
            let mut value = |name: &str, what: &str| {
                args.next()
                    .ok_or_else(|| format!("{name} needs {what}\n{USAGE}"))
            };
            match flag.to_str().unwrap_or("") {
                "--quick" => {
                    let text = value("--quick", "a level")?;
                    let level = text
                        .to_str()
                        .and_then(|t| t.parse().ok())
                        .ok_or_else(|| format!("{text:?} is not a valid level\n{USAGE}"))?;
                    o.quick = Some(level);
                }
                "--pal" => o.region = Region::Pal,
                "--replay-dir" => o.replay_dir = Some(value("--replay-dir", "a folder")?.into()),
                "--data-dir" => o.data_dir = Some(value("--data-dir", "a folder")?.into()),
                "--rom" => {
                    let path = PathBuf::from(value("--rom", "a file")?);
                    let image = std::fs::read(&path)
                        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                    let demo = nestris_replay::rom::demo_tables(&image)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    o.rom_demo = Some(demo);
                }
                "-h" | "--help" => return Err(USAGE.to_string()),
                _ => return Err(format!("unknown argument {flag:?}\n{USAGE}")),
            }
        }
        o.validate()?;
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_every_flag() {
        assert_eq!(
            TuiOptions::from_args(args("")).unwrap(),
            TuiOptions::default()
        );
        let o = TuiOptions::from_args(args(
            "--quick 15 --pal --replay-dir /tmp/r --data-dir /tmp/d",
        ))
        .unwrap();
        assert_eq!(
            o,
            TuiOptions {
                region: Region::Pal,
                quick: Some(15),
                replay_dir: Some(PathBuf::from("/tmp/r")),
                data_dir: Some(PathBuf::from("/tmp/d")),
                rom_demo: None,
                crash_mode: nestris_core::CrashMode::Cartridge,
                start: None,
            }
        );
    }

    #[test]
    fn rejects_out_of_range_and_unknown() {
        assert!(TuiOptions::from_args(args("--quick 20")).is_err());
        assert!(TuiOptions::from_args(args("--quick")).is_err());
        assert!(TuiOptions::from_args(args("--quick x")).is_err());
        assert!(TuiOptions::from_args(args("--level 5")).is_err());
        assert!(TuiOptions::from_args(args("--rom")).is_err());
        let trainer = TuiOptions {
            quick: Some(18),
            start: Some(nestris_core::trainer::Trainer::DasOnly.game(Region::Ntsc, 18, 0)),
            ..TuiOptions::default()
        };
        assert!(trainer.validate().is_err(), "--quick and a start game");
        let e = TuiOptions::from_args(args("--rom /nonexistent/tetris.nes")).unwrap_err();
        assert!(e.starts_with("cannot read /nonexistent/tetris.nes"), "{e}");
        let junk = std::env::temp_dir().join(format!("nestris-junk-{}.nes", std::process::id()));
        std::fs::write(&junk, [0u8; 1000]).unwrap();
        let e =
            TuiOptions::from_args([String::from("--rom"), junk.display().to_string()]).unwrap_err();
        std::fs::remove_file(&junk).unwrap();
        assert!(e.contains("not a Tetris (USA) image"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn arguments_need_not_be_text() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        // A folder whose name is not UTF-8 is a folder; a flag that is not text is unknown.
        let o = TuiOptions::from_args([OsStr::new("--data-dir"), OsStr::from_bytes(b"/tmp/\xff")])
            .unwrap();
        assert_eq!(
            o.data_dir,
            Some(PathBuf::from(OsStr::from_bytes(b"/tmp/\xff")))
        );
        let e = TuiOptions::from_args([OsStr::from_bytes(b"--\xff")]).unwrap_err();
        assert!(e.starts_with("unknown argument \"--\\xFF\""), "{e}");
    }
}
