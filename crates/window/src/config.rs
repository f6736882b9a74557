//! The config file: key bindings, gamepad buttons and the sound's volumes, in TOML.
//!
//! The file lives in the user's config folder (`config.toml`). On first run it is
//! written with the defaults and comments ([`DEFAULT_TOML`]). A file that does not
//! parse, names an unknown key or has a misspelt field is refused with one line that
//! names the file and the line ([`ConfigError`]), and the game does not start.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer};
use serde::Deserialize;
use winit::keyboard::KeyCode;

/// The config file as written on first run.
pub const DEFAULT_TOML: &str = r#"# nestris desktop game: settings.
# Each action takes a list of keys. Key names: A-Z, 0-9, F1-F12, Up, Down, Left, Right,
# Enter, Space, Tab, Escape, Backspace, LeftShift, RightShift, LeftCtrl, RightCtrl,
# LeftAlt, RightAlt, Numpad0-Numpad9, NumpadEnter, Comma, Period, Slash, Semicolon,
# Quote, Minus, Equal, Insert, Delete, Home, End, PageUp, PageDown.
[keys]
up = ["Up"]
down = ["Down"]
left = ["Left"]
right = ["Right"]
a = ["X"]
b = ["Z"]
start = ["Enter"]
select = ["RightShift", "Tab"]
quit = ["Escape"]
mute = ["M"]
music = ["J"]
fullscreen = ["F11"]
# Practice. save and load: one key per savestate slot, in slot order (up to 9 slots).
save = ["F1", "F2", "F3", "F4"]
load = ["F5", "F6", "F7", "F8"]
# Hold to step back in time (up to 20 seconds).
rewind = ["Backspace"]
# Stop the game's clock; then advance steps one frame with the buttons held.
freeze = ["F9"]
advance = ["F10"]
# On the level menu: enter a TetrisGYM seed (same seed, same pieces). Select on a
# gamepad does the same there.
seed = ["S"]
# The coach: the AI's suggested placement outlined on the field, on or off.
coach = ["C"]
# On the level menu: the board editor (paint a position, then play it); in the game it
# started: back to the editor to try the position again.
editor = ["E"]
# On the title screen: the versus setup screen (2nd player, AI, ghost, network).
versus = ["V"]

# Versus on one keyboard (nestris versus): its two halves. With a gamepad each, the
# first pad plays player 1 and the second player 2.
[versus.p1]
up = ["W"]
down = ["S"]
left = ["A"]
right = ["D"]
a = ["G"]
b = ["F"]
start = ["Tab"]
select = ["Q"]

[versus.p2]
up = ["Up"]
down = ["Down"]
left = ["Left"]
right = ["Right"]
a = ["Slash"]
b = ["Period"]
start = ["Enter"]
select = ["RightShift"]

# Gamepad face and menu buttons (the D-pad and the left stick always steer).
# Names: South, East, North, West, Select, Start, Mode, LeftTrigger, RightTrigger,
# LeftTrigger2, RightTrigger2, LeftThumb, RightThumb.
[gamepad]
a = ["East"]
b = ["South"]
start = ["Start"]
select = ["Select"]
# How far the left stick must be pushed to count as a D-pad press (0.1 to 0.9).
deadzone = 0.5

[sound]
# 0.0 (silent) to 1.0: everything, then the effects and the music within it.
volume = 0.6
effects = 1.0
music = 0.7
"#;

/// The largest config file read (the default is under 2 KiB).
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// A config file's text, at most [`MAX_CONFIG_BYTES`] of it.
fn read_text(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} KiB, not a config file",
            MAX_CONFIG_BYTES >> 10
        )));
    }
    String::from_utf8(bytes).map_err(|_| std::io::Error::other("not UTF-8 text"))
}

/// Everything the config file chooses.
#[derive(Clone, PartialEq, Debug)]
pub struct Config {
    /// Keyboard bindings.
    pub keys: KeyBindings,
    /// Gamepad bindings.
    pub gamepad: PadBindings,
    /// Master volume 0.0..=1.0.
    pub volume: f32,
    /// The sound effects' volume 0.0..=1.0 (within the master volume).
    pub effects_volume: f32,
    /// The music's volume 0.0..=1.0 (within the master volume).
    pub music_volume: f32,
    /// Versus on one keyboard: player 1's half and player 2's.
    pub versus: [PlayerKeys; 2],
}

/// One player's keys for the eight NES buttons.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayerKeys {
    /// D-pad up.
    pub up: Vec<KeyCode>,
    /// D-pad down.
    pub down: Vec<KeyCode>,
    /// D-pad left.
    pub left: Vec<KeyCode>,
    /// D-pad right.
    pub right: Vec<KeyCode>,
    /// A (rotate clockwise).
    pub a: Vec<KeyCode>,
    /// B (rotate counter-clockwise).
    pub b: Vec<KeyCode>,
    /// Start.
    pub start: Vec<KeyCode>,
    /// Select.
    pub select: Vec<KeyCode>,
}

impl PlayerKeys {
    /// The keys as bindings of a single player's map (no front-end commands).
    pub fn bindings(&self) -> KeyBindings {
        KeyBindings {
            up: self.up.clone(),
            down: self.down.clone(),
            left: self.left.clone(),
            right: self.right.clone(),
            a: self.a.clone(),
            b: self.b.clone(),
            start: self.start.clone(),
            select: self.select.clone(),
            quit: Vec::new(),
            mute: Vec::new(),
            fullscreen: Vec::new(),
            save: Vec::new(),
            load: Vec::new(),
            rewind: Vec::new(),
            freeze: Vec::new(),
            advance: Vec::new(),
            seed: Vec::new(),
            coach: Vec::new(),
            editor: Vec::new(),
            versus: Vec::new(),
            music: Vec::new(),
        }
    }

    fn named(&self) -> [(&'static str, &Vec<KeyCode>); 8] {
        [
            ("up", &self.up),
            ("down", &self.down),
            ("left", &self.left),
            ("right", &self.right),
            ("a", &self.a),
            ("b", &self.b),
            ("start", &self.start),
            ("select", &self.select),
        ]
    }
}

/// Keys for each NES button and each front-end action.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct KeyBindings {
    /// D-pad up.
    pub up: Vec<KeyCode>,
    /// D-pad down.
    pub down: Vec<KeyCode>,
    /// D-pad left.
    pub left: Vec<KeyCode>,
    /// D-pad right.
    pub right: Vec<KeyCode>,
    /// A (rotate clockwise).
    pub a: Vec<KeyCode>,
    /// B (rotate counter-clockwise).
    pub b: Vec<KeyCode>,
    /// Start.
    pub start: Vec<KeyCode>,
    /// Select.
    pub select: Vec<KeyCode>,
    /// Quit (asks first while a game is in play).
    pub quit: Vec<KeyCode>,
    /// Sound on/off.
    pub mute: Vec<KeyCode>,
    /// Music on/off.
    pub music: Vec<KeyCode>,
    /// Borderless fullscreen on/off.
    pub fullscreen: Vec<KeyCode>,
    /// Save a savestate: one key per slot, in slot order.
    pub save: Vec<KeyCode>,
    /// Load a savestate: one key per slot, in slot order.
    pub load: Vec<KeyCode>,
    /// Held: step back in time.
    pub rewind: Vec<KeyCode>,
    /// Stop or restart the game's clock (frame advance).
    pub freeze: Vec<KeyCode>,
    /// While frozen: one frame.
    pub advance: Vec<KeyCode>,
    /// On the level menu: the seed entry.
    pub seed: Vec<KeyCode>,
    /// The coach on or off.
    pub coach: Vec<KeyCode>,
    /// The board editor, or back to it from the game it started.
    pub editor: Vec<KeyCode>,
    /// On the title screen: the versus setup screen.
    pub versus: Vec<KeyCode>,
}

/// A gamepad button that can be bound (gilrs' names).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PadButton {
    /// The bottom face button (Xbox A, PlayStation cross).
    South,
    /// The right face button (Xbox B, PlayStation circle).
    East,
    /// The top face button.
    North,
    /// The left face button.
    West,
    /// Select / Back / Share.
    Select,
    /// Start / Menu / Options.
    Start,
    /// The logo button.
    Mode,
    /// Left shoulder.
    LeftTrigger,
    /// Right shoulder.
    RightTrigger,
    /// Left trigger.
    LeftTrigger2,
    /// Right trigger.
    RightTrigger2,
    /// Left stick click.
    LeftThumb,
    /// Right stick click.
    RightThumb,
}

const PAD_NAMES: [(&str, PadButton); 13] = [
    ("South", PadButton::South),
    ("East", PadButton::East),
    ("North", PadButton::North),
    ("West", PadButton::West),
    ("Select", PadButton::Select),
    ("Start", PadButton::Start),
    ("Mode", PadButton::Mode),
    ("LeftTrigger", PadButton::LeftTrigger),
    ("RightTrigger", PadButton::RightTrigger),
    ("LeftTrigger2", PadButton::LeftTrigger2),
    ("RightTrigger2", PadButton::RightTrigger2),
    ("LeftThumb", PadButton::LeftThumb),
    ("RightThumb", PadButton::RightThumb),
];

/// Gamepad buttons for the NES face and menu buttons, and the stick's deadzone.
#[derive(Clone, PartialEq, Debug)]
pub struct PadBindings {
    /// A.
    pub a: Vec<PadButton>,
    /// B.
    pub b: Vec<PadButton>,
    /// Start.
    pub start: Vec<PadButton>,
    /// Select.
    pub select: Vec<PadButton>,
    /// Stick deflection (0..1) that counts as a direction.
    pub deadzone: f32,
}

impl Default for Config {
    fn default() -> Self {
        use KeyCode::*;
        Config {
            keys: KeyBindings {
                up: vec![ArrowUp],
                down: vec![ArrowDown],
                left: vec![ArrowLeft],
                right: vec![ArrowRight],
                a: vec![KeyX],
                b: vec![KeyZ],
                start: vec![Enter],
                select: vec![ShiftRight, Tab],
                quit: vec![Escape],
                mute: vec![KeyM],
                music: vec![KeyJ],
                fullscreen: vec![F11],
                save: vec![F1, F2, F3, F4],
                load: vec![F5, F6, F7, F8],
                rewind: vec![Backspace],
                freeze: vec![F9],
                advance: vec![F10],
                seed: vec![KeyS],
                coach: vec![KeyC],
                editor: vec![KeyE],
                versus: vec![KeyV],
            },
            gamepad: PadBindings {
                a: vec![PadButton::East],
                b: vec![PadButton::South],
                start: vec![PadButton::Start],
                select: vec![PadButton::Select],
                deadzone: 0.5,
            },
            volume: 0.6,
            versus: [
                PlayerKeys {
                    up: vec![KeyW],
                    down: vec![KeyS],
                    left: vec![KeyA],
                    right: vec![KeyD],
                    a: vec![KeyG],
                    b: vec![KeyF],
                    start: vec![Tab],
                    select: vec![KeyQ],
                },
                PlayerKeys {
                    up: vec![ArrowUp],
                    down: vec![ArrowDown],
                    left: vec![ArrowLeft],
                    right: vec![ArrowRight],
                    a: vec![Slash],
                    b: vec![Period],
                    start: vec![Enter],
                    select: vec![ShiftRight],
                },
            ],
            effects_volume: 1.0,
            music_volume: 0.7,
        }
    }
}

/// Why the config file could not be used: one line, naming the file and the line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// The 1-based line of the problem, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "config file {}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, " line {line}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// The 1-based line of byte `offset` in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// One line of text: newlines and runs of spaces in toml's messages folded.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Config {
    /// The sound's volumes, for the synthesizer.
    pub fn levels(&self) -> crate::sfx::Levels {
        crate::sfx::Levels {
            master: self.volume,
            effects: self.effects_volume,
            music: self.music_volume,
        }
    }

    /// Parses a config file's text (`path` only names it in errors). Missing sections
    /// and fields keep their defaults.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let err = |span: Option<Range<usize>>, message: String| ConfigError {
            path: path.to_path_buf(),
            line: span.map(|s| line_of(text, s.start)),
            message: one_line(&message),
        };
        let file: FileConfig =
            toml::from_str(text).map_err(|e| err(e.span(), e.message().to_string()))?;
        if let Some(v) = &file.gamepad.deadzone {
            if !(0.1..=0.9).contains(v.get_ref()) {
                return Err(err(
                    Some(v.span()),
                    "gamepad deadzone must be 0.1 to 0.9".into(),
                ));
            }
        }
        for (name, v) in [
            ("volume", &file.sound.volume),
            ("effects", &file.sound.effects),
            ("music", &file.sound.music),
        ] {
            if let Some(v) = v {
                if !(0.0..=1.0).contains(v.get_ref()) {
                    return Err(err(
                        Some(v.span()),
                        format!("sound {name} must be 0.0 to 1.0"),
                    ));
                }
            }
        }
        let d = Config::default();
        let keys = file.keys;
        let pad = file.gamepad;
        let take = |v: Option<Vec<KeyName>>, def: &Vec<KeyCode>| {
            v.map_or_else(|| def.clone(), |v| v.into_iter().map(|k| k.0).collect())
        };
        let take_pad = |v: Option<Vec<PadName>>, def: &Vec<PadButton>| {
            v.map_or_else(|| def.clone(), |v| v.into_iter().map(|k| k.0).collect())
        };
        // The practice keys came after configs were first written: a key a user's file gives
        // to an older action is not also a practice default (that would refuse the file).
        let given: Vec<KeyCode> = [
            &keys.up,
            &keys.down,
            &keys.left,
            &keys.right,
            &keys.a,
            &keys.b,
            &keys.start,
            &keys.select,
            &keys.quit,
            &keys.mute,
            &keys.fullscreen,
        ]
        .into_iter()
        .flatten()
        .flatten()
        .map(|k| k.0)
        .collect();
        let take_new = |v: Option<Vec<KeyName>>, def: &Vec<KeyCode>| match v {
            Some(v) => v.into_iter().map(|k| k.0).collect(),
            None => def.iter().copied().filter(|k| !given.contains(k)).collect(),
        };
        let config = Config {
            keys: KeyBindings {
                up: take(keys.up, &d.keys.up),
                down: take(keys.down, &d.keys.down),
                left: take(keys.left, &d.keys.left),
                right: take(keys.right, &d.keys.right),
                a: take(keys.a, &d.keys.a),
                b: take(keys.b, &d.keys.b),
                start: take(keys.start, &d.keys.start),
                select: take(keys.select, &d.keys.select),
                quit: take(keys.quit, &d.keys.quit),
                mute: take(keys.mute, &d.keys.mute),
                music: take_new(keys.music, &d.keys.music),
                fullscreen: take(keys.fullscreen, &d.keys.fullscreen),
                save: take_new(keys.save, &d.keys.save),
                load: take_new(keys.load, &d.keys.load),
                rewind: take_new(keys.rewind, &d.keys.rewind),
                freeze: take_new(keys.freeze, &d.keys.freeze),
                advance: take_new(keys.advance, &d.keys.advance),
                seed: take_new(keys.seed, &d.keys.seed),
                coach: take_new(keys.coach, &d.keys.coach),
                editor: take_new(keys.editor, &d.keys.editor),
                versus: take_new(keys.versus, &d.keys.versus),
            },
            gamepad: PadBindings {
                a: take_pad(pad.a, &d.gamepad.a),
                b: take_pad(pad.b, &d.gamepad.b),
                start: take_pad(pad.start, &d.gamepad.start),
                select: take_pad(pad.select, &d.gamepad.select),
                deadzone: pad.deadzone.map_or(d.gamepad.deadzone, |v| v.into_inner()),
            },
            volume: file.sound.volume.map_or(d.volume, |v| v.into_inner()),
            versus: [
                file.versus.p1.keys(&d.versus[0]),
                file.versus.p2.keys(&d.versus[1]),
            ],
            effects_volume: file
                .sound
                .effects
                .map_or(d.effects_volume, |v| v.into_inner()),
            music_volume: file.sound.music.map_or(d.music_volume, |v| v.into_inner()),
        };
        if config.keys.quit.is_empty() {
            return Err(err(None, "keys.quit needs at least one key".into()));
        }
        for (name, list) in [("save", &config.keys.save), ("load", &config.keys.load)] {
            if list.len() > crate::practice::MAX_SLOTS {
                return Err(err(
                    None,
                    format!(
                        "keys.{name} has {} keys: one per savestate slot, at most {}",
                        list.len(),
                        crate::practice::MAX_SLOTS
                    ),
                ));
            }
        }
        let k = &config.keys;
        let keys = [
            ("up", &k.up),
            ("down", &k.down),
            ("left", &k.left),
            ("right", &k.right),
            ("a", &k.a),
            ("b", &k.b),
            ("start", &k.start),
            ("select", &k.select),
            ("quit", &k.quit),
            ("mute", &k.mute),
            ("music", &k.music),
            ("fullscreen", &k.fullscreen),
            ("save", &k.save),
            ("load", &k.load),
            ("rewind", &k.rewind),
            ("freeze", &k.freeze),
            ("advance", &k.advance),
            ("seed", &k.seed),
            ("coach", &k.coach),
            ("editor", &k.editor),
            ("versus", &k.versus),
        ];
        if let Some((one, other, key)) = bound_twice(&keys) {
            return Err(err(
                None,
                format!("keys.{one} and keys.{other} both have {key:?}: a key does one thing"),
            ));
        }
        let p = &config.gamepad;
        let pads = [
            ("a", &p.a),
            ("b", &p.b),
            ("start", &p.start),
            ("select", &p.select),
        ];
        if let Some((one, other, button)) = bound_twice(&pads) {
            return Err(err(
                None,
                format!(
                    "gamepad.{one} and gamepad.{other} both have {button:?}: a button does one thing"
                ),
            ));
        }
        // The two halves of the keyboard must not share a key.
        let [p1, p2] = &config.versus;
        let halves: Vec<(String, &Vec<KeyCode>)> = p1
            .named()
            .iter()
            .map(|(n, k)| (format!("versus.p1.{n}"), *k))
            .chain(
                p2.named()
                    .iter()
                    .map(|(n, k)| (format!("versus.p2.{n}"), *k)),
            )
            .collect();
        let names: Vec<(&str, &Vec<KeyCode>)> =
            halves.iter().map(|(n, k)| (n.as_str(), *k)).collect();
        if let Some((one, other, key)) = bound_twice(&names) {
            return Err(err(
                None,
                format!("{one} and {other} both have {key:?}: a key does one thing"),
            ));
        }
        Ok(config)
    }

    /// Reads the config file, writing the defaults there first if it does not exist.
    /// A default file that cannot be written is only a warning (the defaults apply).
    pub fn load_or_create(path: &Path) -> Result<Config, ConfigError> {
        match read_text(path) {
            Ok(text) => Config::parse(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                match nestris_replay::write_atomically(path, DEFAULT_TOML.as_bytes()) {
                    Ok(()) => eprintln!(
                        "nestris: wrote the default config (keys, gamepad, volume) to {}",
                        path.display()
                    ),
                    Err(e) => eprintln!(
                        "nestris: could not write the default config file {}: {e}",
                        path.display()
                    ),
                }
                Ok(Config::default())
            }
            Err(e) => Err(ConfigError {
                path: path.to_path_buf(),
                line: None,
                message: format!("cannot read it: {e}"),
            }),
        }
    }
}

/// The first input bound to two actions: the two actions' names and the input.
fn bound_twice<'a, T: PartialEq + Copy>(
    actions: &[(&'a str, &Vec<T>)],
) -> Option<(&'a str, &'a str, T)> {
    actions.iter().enumerate().find_map(|(i, (one, inputs))| {
        inputs.iter().find_map(|x| {
            actions[i + 1..]
                .iter()
                .find(|(_, others)| others.contains(x))
                .map(|(other, _)| (*one, *other, *x))
        })
    })
}

// ---------------------------------------------------------------------------------------
// The file's shape for serde: every field optional, unknown fields refused.

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct FileConfig {
    keys: FileKeys,
    gamepad: FilePad,
    sound: FileSound,
    versus: FileVersus,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct FileVersus {
    p1: FilePlayerKeys,
    p2: FilePlayerKeys,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct FilePlayerKeys {
    up: Option<Vec<KeyName>>,
    down: Option<Vec<KeyName>>,
    left: Option<Vec<KeyName>>,
    right: Option<Vec<KeyName>>,
    a: Option<Vec<KeyName>>,
    b: Option<Vec<KeyName>>,
    start: Option<Vec<KeyName>>,
    select: Option<Vec<KeyName>>,
}

impl FilePlayerKeys {
    fn keys(self, d: &PlayerKeys) -> PlayerKeys {
        let take = |v: Option<Vec<KeyName>>, def: &Vec<KeyCode>| {
            v.map_or_else(|| def.clone(), |v| v.into_iter().map(|k| k.0).collect())
        };
        PlayerKeys {
            up: take(self.up, &d.up),
            down: take(self.down, &d.down),
            left: take(self.left, &d.left),
            right: take(self.right, &d.right),
            a: take(self.a, &d.a),
            b: take(self.b, &d.b),
            start: take(self.start, &d.start),
            select: take(self.select, &d.select),
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct FileKeys {
    up: Option<Vec<KeyName>>,
    down: Option<Vec<KeyName>>,
    left: Option<Vec<KeyName>>,
    right: Option<Vec<KeyName>>,
    a: Option<Vec<KeyName>>,
    b: Option<Vec<KeyName>>,
    start: Option<Vec<KeyName>>,
    select: Option<Vec<KeyName>>,
    quit: Option<Vec<KeyName>>,
    mute: Option<Vec<KeyName>>,
    music: Option<Vec<KeyName>>,
    fullscreen: Option<Vec<KeyName>>,
    save: Option<Vec<KeyName>>,
    load: Option<Vec<KeyName>>,
    rewind: Option<Vec<KeyName>>,
    freeze: Option<Vec<KeyName>>,
    advance: Option<Vec<KeyName>>,
    seed: Option<Vec<KeyName>>,
    coach: Option<Vec<KeyName>>,
    editor: Option<Vec<KeyName>>,
    versus: Option<Vec<KeyName>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct FilePad {
    a: Option<Vec<PadName>>,
    b: Option<Vec<PadName>>,
    start: Option<Vec<PadName>>,
    select: Option<Vec<PadName>>,
    deadzone: Option<toml::Spanned<f32>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct FileSound {
    volume: Option<toml::Spanned<f32>>,
    effects: Option<toml::Spanned<f32>>,
    music: Option<toml::Spanned<f32>>,
}

/// A key name in the file.
struct KeyName(KeyCode);

impl<'de> Deserialize<'de> for KeyName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        parse_key(&s).map(KeyName).ok_or_else(|| {
            de::Error::custom(format!(
                "unknown key name {s:?} (use names like X, Enter, Up, RightShift, F11)"
            ))
        })
    }
}

/// A gamepad button name in the file.
struct PadName(PadButton);

impl<'de> Deserialize<'de> for PadName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        PAD_NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(&s))
            .map(|&(_, b)| PadName(b))
            .ok_or_else(|| {
                de::Error::custom(format!(
                    "unknown gamepad button {s:?} (use South, East, North, West, Start, Select, ...)"
                ))
            })
    }
}

// ---------------------------------------------------------------------------------------
// Key names.

/// Named keys other than letters, digits, F-keys and the numpad digits.
const NAMED_KEYS: [(&str, KeyCode); 37] = [
    ("Up", KeyCode::ArrowUp),
    ("Down", KeyCode::ArrowDown),
    ("Left", KeyCode::ArrowLeft),
    ("Right", KeyCode::ArrowRight),
    ("ArrowUp", KeyCode::ArrowUp),
    ("ArrowDown", KeyCode::ArrowDown),
    ("ArrowLeft", KeyCode::ArrowLeft),
    ("ArrowRight", KeyCode::ArrowRight),
    ("Enter", KeyCode::Enter),
    ("Return", KeyCode::Enter),
    ("Space", KeyCode::Space),
    ("Tab", KeyCode::Tab),
    ("Escape", KeyCode::Escape),
    ("Esc", KeyCode::Escape),
    ("Backspace", KeyCode::Backspace),
    ("LeftShift", KeyCode::ShiftLeft),
    ("RightShift", KeyCode::ShiftRight),
    ("LeftCtrl", KeyCode::ControlLeft),
    ("RightCtrl", KeyCode::ControlRight),
    ("LeftAlt", KeyCode::AltLeft),
    ("RightAlt", KeyCode::AltRight),
    ("NumpadEnter", KeyCode::NumpadEnter),
    ("Comma", KeyCode::Comma),
    ("Period", KeyCode::Period),
    ("Slash", KeyCode::Slash),
    ("Semicolon", KeyCode::Semicolon),
    ("Quote", KeyCode::Quote),
    ("Minus", KeyCode::Minus),
    ("Equal", KeyCode::Equal),
    ("BracketLeft", KeyCode::BracketLeft),
    ("BracketRight", KeyCode::BracketRight),
    ("Insert", KeyCode::Insert),
    ("Delete", KeyCode::Delete),
    ("Home", KeyCode::Home),
    ("End", KeyCode::End),
    ("PageUp", KeyCode::PageUp),
    ("PageDown", KeyCode::PageDown),
];

const LETTERS: [KeyCode; 26] = {
    use KeyCode::*;
    [
        KeyA, KeyB, KeyC, KeyD, KeyE, KeyF, KeyG, KeyH, KeyI, KeyJ, KeyK, KeyL, KeyM, KeyN, KeyO,
        KeyP, KeyQ, KeyR, KeyS, KeyT, KeyU, KeyV, KeyW, KeyX, KeyY, KeyZ,
    ]
};

const DIGITS: [KeyCode; 10] = {
    use KeyCode::*;
    [
        Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
    ]
};

const NUMPAD: [KeyCode; 10] = {
    use KeyCode::*;
    [
        Numpad0, Numpad1, Numpad2, Numpad3, Numpad4, Numpad5, Numpad6, Numpad7, Numpad8, Numpad9,
    ]
};

const FKEYS: [KeyCode; 12] = {
    use KeyCode::*;
    [F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12]
};

/// The name a key is shown by on the screen (a config file's name for it, upper case).
pub fn key_label(code: KeyCode) -> String {
    let named = NAMED_KEYS
        .iter()
        .find(|&&(_, k)| k == code)
        .map(|&(n, _)| n.to_string());
    let one = |keys: &[KeyCode], names: &str| {
        keys.iter()
            .position(|&k| k == code)
            .and_then(|i| names.chars().nth(i))
            .map(String::from)
    };
    named
        .or_else(|| one(&LETTERS, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        .or_else(|| one(&DIGITS, "0123456789"))
        .or_else(|| {
            FKEYS
                .iter()
                .position(|&k| k == code)
                .map(|i| format!("F{}", i + 1))
        })
        .unwrap_or_else(|| format!("{code:?}"))
        .to_uppercase()
}

/// The key a config name stands for (case-insensitive), if any.
pub fn parse_key(name: &str) -> Option<KeyCode> {
    let n = name.trim();
    if let Some(&(_, k)) = NAMED_KEYS.iter().find(|(s, _)| s.eq_ignore_ascii_case(n)) {
        return Some(k);
    }
    let upper = n.to_ascii_uppercase();
    let bytes = upper.as_bytes();
    if bytes.len() == 1 {
        return match bytes[0] {
            c @ b'A'..=b'Z' => Some(LETTERS[(c - b'A') as usize]),
            c @ b'0'..=b'9' => Some(DIGITS[(c - b'0') as usize]),
            _ => None,
        };
    }
    if let Some(rest) = upper.strip_prefix("NUMPAD") {
        let d: usize = rest.parse().ok()?;
        return NUMPAD.get(d).copied().filter(|_| rest.len() == 1);
    }
    if let Some(rest) = upper.strip_prefix('F') {
        let d: usize = rest.parse().ok()?;
        return (1..=12).contains(&d).then(|| FKEYS[d - 1]);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("config.toml")
    }

    #[test]
    fn the_default_file_is_the_default_config() {
        assert_eq!(Config::parse(DEFAULT_TOML, p()).unwrap(), Config::default());
        // An empty file keeps every default too.
        assert_eq!(Config::parse("", p()).unwrap(), Config::default());
    }

    #[test]
    fn an_older_file_that_uses_a_practice_key_still_loads() {
        // Written before the practice keys: S and F1 did other things.
        let c = Config::parse("[keys]\nselect = [\"S\"]\nmute = [\"F1\"]\n", p()).unwrap();
        assert_eq!(c.keys.select, vec![KeyCode::KeyS]);
        assert!(c.keys.seed.is_empty());
        assert_eq!(c.keys.save, vec![KeyCode::F2, KeyCode::F3, KeyCode::F4]);
        // Named in the file, a clash is still refused.
        let e = Config::parse("[keys]\nselect = [\"S\"]\nseed = [\"S\"]\n", p()).unwrap_err();
        assert!(e.to_string().contains("keys.select and keys.seed"), "{e}");
        let ten = "[keys]\nsave = [\"1\",\"2\",\"3\",\"4\",\"5\",\"6\",\"7\",\"8\",\"9\",\"0\"]\n";
        let e = Config::parse(ten, p()).unwrap_err();
        assert!(e.to_string().contains("at most 9"), "{e}");
    }

    #[test]
    fn the_versus_halves_are_remappable_and_may_not_share_a_key() {
        let c = Config::parse("[versus.p1]\na = [\"H\"]\n", p()).unwrap();
        assert_eq!(c.versus[0].a, vec![KeyCode::KeyH]);
        assert_eq!(c.versus[1], Config::default().versus[1]);
        let e = Config::parse("[versus.p2]\nleft = [\"A\"]\n", p()).unwrap_err();
        assert!(
            e.to_string().contains("versus.p1.left and versus.p2.left"),
            "{e}"
        );
    }

    #[test]
    fn a_good_file_remaps_keys() {
        let text = "[keys]\nleft = [\"A\", \"left\"]\nright = [\"d\"]\na = [\"Space\", \"numpad5\"]\n\n[sound]\nvolume = 0.25\n[gamepad]\na = [\"south\"]\nb = [\"east\"]\n";
        let c = Config::parse(text, p()).unwrap();
        assert_eq!(c.keys.left, vec![KeyCode::KeyA, KeyCode::ArrowLeft]);
        assert_eq!(c.keys.right, vec![KeyCode::KeyD]);
        assert_eq!(c.keys.a, vec![KeyCode::Space, KeyCode::Numpad5]);
        assert_eq!(
            c.keys.b,
            vec![KeyCode::KeyZ],
            "unlisted keys keep their defaults"
        );
        assert_eq!(c.volume, 0.25);
        assert_eq!(c.gamepad.a, vec![PadButton::South]);
    }

    #[test]
    fn an_old_file_without_the_music_settings_loads_with_their_defaults() {
        let old = "[keys]\nmute = [\"M\"]\nfullscreen = [\"F11\"]\n\n[sound]\nvolume = 0.3\n";
        let c = Config::parse(old, p()).unwrap();
        assert_eq!(c.volume, 0.3);
        assert_eq!(c.music_volume, Config::default().music_volume);
        assert_eq!(c.effects_volume, 1.0);
        assert_eq!(c.keys.music, vec![KeyCode::KeyJ]);
        let c = Config::parse("[sound]\nmusic = 0.0\neffects = 0.5\n", p()).unwrap();
        assert_eq!((c.music_volume, c.effects_volume), (0.0, 0.5));
        assert_eq!(c.levels().music, 0.0);
        let e = Config::parse("[sound]\nmusic = 1.5\n", p()).unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.message.contains("sound music"), "{e}");
        let e = Config::parse("[keys]\nmusic = [\"M\"]\n", p()).unwrap_err();
        assert!(e.message.contains("keys.mute and keys.music"), "{e}");
    }

    #[test]
    fn one_key_for_two_actions_is_refused() {
        let e = Config::parse("[keys]\na = [\"Z\"]\n", p()).unwrap_err();
        assert_eq!(
            e.message,
            "keys.a and keys.b both have KeyZ: a key does one thing"
        );
        let e = Config::parse("[gamepad]\nstart = [\"east\"]\n", p()).unwrap_err();
        assert_eq!(
            e.message,
            "gamepad.a and gamepad.start both have East: a button does one thing"
        );
        // The same key twice for one action is only redundant.
        let c = Config::parse("[keys]\na = [\"X\", \"X\"]\n", p()).unwrap();
        assert_eq!(c.keys.a, vec![KeyCode::KeyX, KeyCode::KeyX]);
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_file_is_refused() {
        let e = Config::load_or_create(Path::new("/dev/zero")).unwrap_err();
        assert!(e.message.contains("larger than 1024 KiB"), "{}", e.message);
    }

    #[test]
    fn an_unknown_key_name_is_refused_with_its_line() {
        let text = "[keys]\nup = [\"Up\"]\n\ndown = [\"Dwn\"]\n";
        let e = Config::parse(text, p()).unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("line 4") && msg.contains("Dwn"), "{msg}");
        assert!(!msg.contains('\n'), "one line: {msg}");
    }

    #[test]
    fn syntax_errors_and_misspelt_fields_name_the_line() {
        let e = Config::parse("[keys]\nup = [\"Up\"\n", p()).unwrap_err();
        assert!(e.line.is_some(), "{e}");
        let e = Config::parse("[keys]\nup = [\"Up\"]\nrotate = [\"X\"]\n", p()).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.to_string().contains("rotate"), "{e}");
        let e = Config::parse("[sound]\n\nvolume = 3.0\n", p()).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        let e = Config::parse("[keys]\nquit = []\n", p()).unwrap_err();
        assert!(e.to_string().contains("quit"), "{e}");
        let e = Config::parse("[gamepad]\na = [\"Triangle\"]\n", p()).unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
    }

    #[test]
    fn key_names() {
        assert_eq!(parse_key("x"), Some(KeyCode::KeyX));
        assert_eq!(parse_key("7"), Some(KeyCode::Digit7));
        assert_eq!(parse_key("f11"), Some(KeyCode::F11));
        assert_eq!(parse_key("F13"), None);
        assert_eq!(parse_key("Numpad0"), Some(KeyCode::Numpad0));
        assert_eq!(parse_key("Numpad10"), None);
        assert_eq!(parse_key("rightshift"), Some(KeyCode::ShiftRight));
        assert_eq!(parse_key("Esc"), Some(KeyCode::Escape));
        assert_eq!(parse_key("Hyper"), None);
        assert_eq!(parse_key(""), None);
        // Shown as a config file names them, so a label can be typed back into one.
        for (code, label) in [
            (KeyCode::KeyV, "V"),
            (KeyCode::Digit7, "7"),
            (KeyCode::F11, "F11"),
            (KeyCode::Escape, "ESCAPE"),
        ] {
            assert_eq!(key_label(code), label);
            assert_eq!(parse_key(&label.to_lowercase()), Some(code));
        }
    }

    #[test]
    fn first_run_writes_the_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("config.toml");
        assert_eq!(Config::load_or_create(&path).unwrap(), Config::default());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), DEFAULT_TOML);
        std::fs::write(&path, "[keys]\nup = 5\n").unwrap();
        let e = Config::load_or_create(&path).unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
    }

    #[test]
    fn lines_from_offsets() {
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 99), 3);
    }
}
