//! [`WindowOptions`]: what the desktop game starts with, their defaults (the user's
//! config and data folders) and the flags of the `nestris-window` binary.

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;

use nestris_core::{Buttons, CrashMode, DemoData, Game, Region};
use nestris_render::LevelColours;

/// A player other than the keyboard: called once per frame with the game as it stands,
/// it returns the buttons for the next frame. When set it replaces the keyboard and the
/// gamepads as controller 1 (Esc, M and F11 still work).
pub type Autopilot = Box<dyn FnMut(&Game) -> Buttons>;

/// How the desktop game runs.
pub struct WindowOptions {
    /// NTSC (60.0988 Hz) or PAL (50.007 Hz).
    pub region: Region,
    /// Show the HUD beside the NES picture (tetris rate, burn, drought, pace, DAS, taps,
    /// input display: `nestris_render::hud`).
    pub hud: bool,
    /// Controller 1 played by a program instead of the keyboard.
    pub ai: Option<Autopilot>,
    /// The cartridge's own demo tables (read from the user's ROM image) for the title
    /// screen's demo; `None` plays the project's built-in demo.
    pub rom_demo: Option<DemoData>,
    /// Where each session's replay is written.
    pub replay_dir: PathBuf,
    /// The TOML config file (key bindings, gamepad, volume); written with defaults if missing.
    pub config_path: PathBuf,
    /// Where high scores and settings are kept.
    pub data_dir: PathBuf,
    /// The window's starting size as a multiple of the NES picture (1..=8).
    pub scale: u32,
    /// Start with the sound off (M still toggles it).
    pub mute: bool,
    /// A replay file (`.nestris`, a versus match `.nestrisvs`, or an FCEUX `.fm2` movie)
    /// to watch in the replay viewer instead of playing; the region is then the replay's
    /// own.
    pub replay: Option<PathBuf>,
    /// What the console does when the cartridge would crash (see
    /// `nestris_core::CrashMode`; default: it halts, as the console's CPU does).
    pub crash_mode: CrashMode,
    /// The blocks' colours: the cartridge's (default) or this project's.
    pub colours: LevelColours,
    /// Start in this game instead of at power-on (a trainer's practice start): its high-
    /// score table is replaced by the kept one, and no score of the session is kept.
    pub start: Option<Game>,
    /// Open the board editor at once, on the position in the editor's file if it exists
    /// (Esc then leaves the program).
    pub editor: bool,
    /// The board editor's file, where it saves and loads its position (default:
    /// `position.txt` in the data folder).
    pub position_file: Option<PathBuf>,
    /// Open the tap-speed test instead of the game (`run_tap_test`, with this region,
    /// scale, sound and config).
    pub tap_test: bool,
}

impl fmt::Debug for WindowOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WindowOptions")
            .field("region", &self.region)
            .field("hud", &self.hud)
            .field("ai", &self.ai.as_ref().map(|_| "<autopilot>"))
            .field("rom_demo", &self.rom_demo.is_some())
            .field("replay_dir", &self.replay_dir)
            .field("config_path", &self.config_path)
            .field("data_dir", &self.data_dir)
            .field("scale", &self.scale)
            .field("mute", &self.mute)
            .field("replay", &self.replay)
            .field("crash_mode", &self.crash_mode)
            .field("colours", &self.colours)
            .field("start", &self.start.is_some())
            .field("editor", &self.editor)
            .field("position_file", &self.position_file)
            .field("tap_test", &self.tap_test)
            .finish()
    }
}

impl Default for WindowOptions {
    /// NTSC, no HUD, 3x, sound on, the user's own folders ([`nestris_host::Dirs::user`]).
    fn default() -> Self {
        let dirs = nestris_host::Dirs::user();
        WindowOptions {
            region: Region::Ntsc,
            hud: false,
            ai: None,
            rom_demo: None,
            replay_dir: dirs.replay_dir,
            config_path: dirs.config_path,
            data_dir: dirs.data_dir,
            scale: 3,
            mute: false,
            replay: None,
            crash_mode: CrashMode::Cartridge,
            colours: LevelColours::Classic,
            start: None,
            editor: false,
            position_file: None,
            tap_test: false,
        }
    }
}

/// The usage text of [`WindowOptions::from_args`].
pub const USAGE: &str = "usage: nestris-window [--pal] [--hud] [--scale 1-8] [--mute] \
[--colours classic|nestris] [--rom tetris.nes] [--config FILE] [--data-dir DIR] \
[--replay-dir DIR] [--replay FILE] [--editor [--position FILE]] [--tap-test]
  --editor       open the board editor (keys: see --help of nestris play, or the README)
  --position FILE  the board editor's file (default: position.txt in the data folder)
  --replay FILE  watch a replay (.nestris, .nestrisvs or .fm2) instead of playing: Space pause, \
Left/Right step, Up/Down speed, Home/End, 1-9 seek, click the bar to seek, Esc quit
  --tap-test     the tap-speed test: taps a second and the best, frames between taps, \
frames from a spawn to the first tap; Esc quits";

impl WindowOptions {
    /// Parses the binary's flags (the arguments after the program name) over the defaults.
    /// Paths may be any bytes the system allows (they are not text on every system).
    pub fn from_args<I>(args: I) -> Result<WindowOptions, String>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut o = WindowOptions::default();
        let mut replay_dir_given = false;
        let mut args = args.into_iter().map(Into::into);
        while let Some(flag) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
            };
            match flag.to_str().unwrap_or("") {
                "--pal" => o.region = Region::Pal,
                "--ntsc" => o.region = Region::Ntsc,
                "--hud" => o.hud = true,
                "--tap-test" => o.tap_test = true,
                "--mute" => o.mute = true,
                "--scale" => {
                    let v = value("--scale")?;
                    o.scale = match v.to_str().map(str::parse) {
                        Some(Ok(n @ 1..=8)) => n,
                        _ => return Err(format!("--scale {v:?} is not 1-8\n{USAGE}")),
                    };
                }
                "--colours" => {
                    let v = value("--colours")?;
                    o.colours = v
                        .to_str()
                        .and_then(LevelColours::from_name)
                        .ok_or_else(|| {
                            format!("--colours {v:?}: use classic or nestris\n{USAGE}")
                        })?;
                }
                "--config" => o.config_path = value("--config")?.into(),
                "--data-dir" => o.data_dir = value("--data-dir")?.into(),
                "--replay" => o.replay = Some(value("--replay")?.into()),
                "--editor" => o.editor = true,
                "--position" => o.position_file = Some(value("--position")?.into()),
                "--replay-dir" => {
                    o.replay_dir = value("--replay-dir")?.into();
                    replay_dir_given = true;
                }
                "--rom" => {
                    let path = PathBuf::from(value("--rom")?);
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
        if !replay_dir_given {
            // Replays follow the data folder unless placed elsewhere.
            o.replay_dir = o.data_dir.join("replays");
        }
        Ok(o)
    }

    /// Frames per second of the chosen console.
    pub fn frame_rate(&self) -> f64 {
        self.region.frame_rate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_the_flags() {
        let o = WindowOptions::from_args(args(
            "--pal --hud --mute --scale 2 --config c.toml --data-dir d --replay-dir r",
        ))
        .unwrap();
        assert_eq!(o.region, Region::Pal);
        assert!(o.hud && o.mute);
        assert_eq!(o.scale, 2);
        assert_eq!(o.config_path, PathBuf::from("c.toml"));
        assert_eq!(o.data_dir, PathBuf::from("d"));
        assert_eq!(o.replay_dir, PathBuf::from("r"));
        assert_eq!(o.colours, LevelColours::Classic);
        let o = WindowOptions::from_args(args("--colours nestris")).unwrap();
        assert_eq!(o.colours, LevelColours::Nestris);
        let o = WindowOptions::from_args(args("--data-dir d")).unwrap();
        assert_eq!(o.replay_dir, PathBuf::from("d").join("replays"));
        assert!(format!("{o:?}").contains("scale: 3"));
        assert_eq!(o.replay, None);
        assert!(!o.editor && o.position_file.is_none());
        let o = WindowOptions::from_args(args("--editor --position p.txt")).unwrap();
        assert!(o.editor);
        assert_eq!(o.position_file, Some(PathBuf::from("p.txt")));
        let o = WindowOptions::from_args(args("--replay games/a.nestris --hud")).unwrap();
        assert_eq!(o.replay, Some(PathBuf::from("games/a.nestris")));
        assert!(o.hud);
        assert!(!o.tap_test);
        assert!(
            WindowOptions::from_args(args("--tap-test"))
                .unwrap()
                .tap_test
        );
    }

    #[test]
    fn rejects_bad_flags() {
        assert!(WindowOptions::from_args(args("--scale 0")).is_err());
        assert!(WindowOptions::from_args(args("--scale")).is_err());
        assert!(WindowOptions::from_args(args("--what")).is_err());
        assert!(WindowOptions::from_args(args("--replay")).is_err());
        assert!(WindowOptions::from_args(args("--colours pastel")).is_err());
        assert!(WindowOptions::from_args(args("--rom /nonexistent/x.nes")).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn arguments_need_not_be_text() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        // A folder whose name is not UTF-8 is a folder; a flag that is not text is unknown.
        let o =
            WindowOptions::from_args([OsStr::new("--data-dir"), OsStr::from_bytes(b"/tmp/\xff")])
                .unwrap();
        assert_eq!(o.data_dir, PathBuf::from(OsStr::from_bytes(b"/tmp/\xff")));
        let e = WindowOptions::from_args([OsStr::from_bytes(b"--\xff")]).unwrap_err();
        assert!(e.starts_with("unknown argument \"--\\xFF\""), "{e}");
    }
}
