//! The versus setup screen: who plays player 2 and how the match is set up, chosen with
//! the NES buttons (so a gamepad works as the keyboard does) before `nestris versus`
//! starts a match without an opponent flag, or after the title screen's versus key.
//!
//! Up and Down choose a setting, Left and Right change it, A on SEED opens the seed entry
//! ([`crate::seed`]), A on PORT or ADDRESS opens a text entry typed with the keys (Start
//! keeps it, Esc leaves it), Start (or A on START) plays, B leaves. Only the settings
//! that apply to the chosen opponent are listed: a joiner plays the host's level, seed
//! and best-of, and only a versus file's ghost has a player to choose. While a network
//! match connects the screen says so until it is made or refused (B or Esc cancels). The
//! screen is drawn by `nestris_render::versus::draw_setup` from [`VersusSetup::values`].

use std::path::{Path, PathBuf};

use nestris_core::{Buttons, GymSeed, Region, SeedRule};
use nestris_render::versus::SetupRow;
use nestris_versus::{MatchSetup, MAX_BEST_OF};

use crate::network::{parse_address, parse_port, NetRole, DEFAULT_PORT, MAX_ADDRESS};
use crate::seed::{SeedChoice, SeedEntry};

/// The AI's tap rates on offer, in Hz, and the frames between its taps (the AI's input
/// models: a tap every 2-5 frames).
pub const AI_TAPS: [(u8, u8); 4] = [(30, 2), (20, 3), (15, 4), (12, 5)];
/// The AI's reactions on offer, in frames (0: it sees the next piece at once).
pub const AI_REACTIONS: [u8; 9] = [0, 6, 12, 18, 24, 30, 36, 48, 60];
/// The ghost files listed at most (the newest).
pub const MAX_GHOSTS: usize = 200;

/// Who plays player 2.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OpponentKind {
    /// Someone at this keyboard or on a second gamepad.
    Local,
    /// The AI.
    Ai,
    /// A recorded game from a file, raced as a ghost.
    Ghost,
    /// Someone over the network who joins this side's match (`--host`).
    NetHost,
    /// Someone over the network whose match this side joins (`--join`).
    NetJoin,
}

impl OpponentKind {
    const ALL: [OpponentKind; 5] = [
        OpponentKind::Local,
        OpponentKind::Ai,
        OpponentKind::Ghost,
        OpponentKind::NetHost,
        OpponentKind::NetJoin,
    ];

    fn name(self) -> &'static str {
        match self {
            OpponentKind::Local => "2ND PLAYER",
            OpponentKind::Ai => "AI",
            OpponentKind::Ghost => "GHOST",
            OpponentKind::NetHost => "NETWORK HOST",
            OpponentKind::NetJoin => "NETWORK JOIN",
        }
    }
}

/// What the screen's settings add up to, once Start is pressed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Chosen {
    /// Who plays player 2.
    pub opponent: OpponentKind,
    /// The AI's tap rate in Hz (one of [`AI_TAPS`]).
    pub ai_hz: u8,
    /// The AI's reaction in frames.
    pub ai_reaction: u8,
    /// The ghost's file, for [`OpponentKind::Ghost`].
    pub ghost: Option<PathBuf>,
    /// Which player of a versus file the ghost is (0: player 1).
    pub ghost_player: usize,
    /// The network side, for [`OpponentKind::NetHost`] and [`OpponentKind::NetJoin`].
    pub net: Option<NetRole>,
    /// The match (for a ghost, the file's own start may replace it; a joiner plays the
    /// host's).
    pub setup: MatchSetup,
}

/// What a frame's buttons did.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SetupChoice {
    /// Still choosing.
    Choosing,
    /// B: leave without playing.
    Leave,
    /// Start: play this.
    Play(Chosen),
    /// B while a network match connects: stop connecting.
    Cancel,
}

/// The settings' rows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Row {
    Opponent,
    AiRate,
    AiReaction,
    Ghost,
    GhostPlayer,
    Port,
    Address,
    Level,
    Seed,
    BestOf,
    Start,
}

/// Every row, top to bottom (each opponent lists those that apply to it).
const ROWS: [Row; 11] = [
    Row::Opponent,
    Row::AiRate,
    Row::AiReaction,
    Row::Ghost,
    Row::GhostPlayer,
    Row::Port,
    Row::Address,
    Row::Level,
    Row::Seed,
    Row::BestOf,
    Row::Start,
];

/// Which text a text entry types.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Field {
    Port,
    Address,
}

/// A text entry over the screen: the text so far and why the last one was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Typing {
    field: Field,
    text: String,
    refused: Option<String>,
}

/// The setup screen's state.
#[derive(Clone, Debug)]
pub struct VersusSetup {
    opponent: OpponentKind,
    rate: usize,
    reaction: usize,
    ghosts: Vec<PathBuf>,
    ghost: usize,
    ghost_player: usize,
    port: u16,
    address: String,
    region: Region,
    level: u8,
    seed: u32,
    best_of: u8,
    cursor: usize,
    entry: Option<SeedEntry>,
    typing: Option<Typing>,
    waiting: Option<[String; 2]>,
    held: Buttons,
    note: Option<String>,
}

impl VersusSetup {
    /// The screen with `setup`'s level, seed and best-of, the AI at 15 Hz and 18 frames,
    /// a host's port [`DEFAULT_PORT`], and `ghosts` (files a ghost can come from, see
    /// [`ghost_files`]) to choose from. `held`: the buttons down as it opens, not counted
    /// as presses.
    pub fn new(setup: MatchSetup, ghosts: Vec<PathBuf>, held: Buttons) -> VersusSetup {
        VersusSetup {
            opponent: OpponentKind::Local,
            rate: 2,
            reaction: 3,
            ghosts,
            ghost: 0,
            ghost_player: 0,
            port: DEFAULT_PORT,
            address: String::new(),
            region: setup.region,
            level: setup.level.min(19),
            seed: setup.seed & 0xFF_FFFF,
            best_of: setup.best_of,
            cursor: 0,
            entry: None,
            typing: None,
            waiting: None,
            held,
            note: None,
        }
    }

    /// Which player of a versus file's ghost is raced first (0: player 1; the flag
    /// `--ghost-player`).
    pub fn set_ghost_player(&mut self, player: usize) {
        self.ghost_player = player.min(1);
    }

    /// True when the chosen ghost file is a versus match, whose two players can be raced.
    fn ghost_is_versus(&self) -> bool {
        self.ghosts
            .get(self.ghost)
            .and_then(|p| p.extension())
            .is_some_and(|x| x == "nestrisvs")
    }

    fn applies(&self, row: Row) -> bool {
        use OpponentKind as K;
        match row {
            Row::AiRate | Row::AiReaction => self.opponent == K::Ai,
            Row::Ghost => self.opponent == K::Ghost,
            Row::GhostPlayer => self.opponent == K::Ghost && self.ghost_is_versus(),
            Row::Port => self.opponent == K::NetHost,
            Row::Address => self.opponent == K::NetJoin,
            // The host's match is the joiner's.
            Row::Level | Row::Seed | Row::BestOf => self.opponent != K::NetJoin,
            Row::Opponent | Row::Start => true,
        }
    }

    /// The rows listed for the chosen opponent, top to bottom.
    fn rows(&self) -> Vec<Row> {
        ROWS.into_iter().filter(|&r| self.applies(r)).collect()
    }

    fn kinds(&self) -> Vec<OpponentKind> {
        OpponentKind::ALL
            .into_iter()
            .filter(|&k| k != OpponentKind::Ghost || !self.ghosts.is_empty())
            .collect()
    }

    /// Moves the cursor by `step` rows, round.
    fn move_cursor(&mut self, step: isize) {
        let n = self.rows().len() as isize;
        self.cursor = (self.cursor as isize + step).rem_euclid(n) as usize;
    }

    /// The row under the cursor.
    fn on(&self) -> Row {
        let rows = self.rows();
        rows[self.cursor.min(rows.len() - 1)]
    }

    /// Changes the chosen setting by `step` (Left -1, Right +1).
    fn change(&mut self, step: isize) {
        let turn = |i: usize, len: usize| (i as isize + step).rem_euclid(len as isize) as usize;
        match self.on() {
            Row::Opponent => {
                let kinds = self.kinds();
                let i = kinds.iter().position(|&k| k == self.opponent).unwrap_or(0);
                self.opponent = kinds[turn(i, kinds.len())];
            }
            Row::AiRate => self.rate = turn(self.rate, AI_TAPS.len()),
            Row::AiReaction => self.reaction = turn(self.reaction, AI_REACTIONS.len()),
            Row::Ghost if !self.ghosts.is_empty() => {
                self.ghost = turn(self.ghost, self.ghosts.len());
            }
            Row::GhostPlayer => self.ghost_player = turn(self.ghost_player, 2),
            Row::Level => self.level = turn(usize::from(self.level), 20) as u8,
            Row::BestOf => {
                // Odd numbers only: 1, 3, ... MAX_BEST_OF.
                let i = turn(
                    usize::from(self.best_of / 2),
                    usize::from(MAX_BEST_OF / 2 + 1),
                );
                self.best_of = 2 * i as u8 + 1;
            }
            Row::Ghost | Row::Port | Row::Address | Row::Seed | Row::Start => {}
        }
    }

    /// The setup chosen so far (a joiner's address only if it reads).
    pub fn chosen(&self) -> Chosen {
        let ghost = self.opponent == OpponentKind::Ghost;
        Chosen {
            opponent: self.opponent,
            ai_hz: AI_TAPS[self.rate].0,
            ai_reaction: AI_REACTIONS[self.reaction],
            ghost: ghost
                .then(|| self.ghosts.get(self.ghost).cloned())
                .flatten(),
            ghost_player: match ghost && self.ghost_is_versus() {
                true => self.ghost_player,
                false => 0,
            },
            net: match self.opponent {
                OpponentKind::NetHost => Some(NetRole::Host(self.port)),
                OpponentKind::NetJoin => parse_address(&self.address).ok().map(NetRole::Join),
                _ => None,
            },
            setup: MatchSetup {
                region: self.region,
                level: self.level,
                seed: self.seed,
                best_of: self.best_of,
            },
        }
    }

    /// One frame's buttons: acts on the newly pressed ones.
    pub fn buttons(&mut self, b: Buttons) -> SetupChoice {
        let pressed = Buttons(b.0 & !self.held.0);
        if self.waiting.is_some() {
            self.held = b;
            return match pressed.contains(Buttons::B) {
                true => SetupChoice::Cancel,
                false => SetupChoice::Choosing,
            };
        }
        if self.typing.is_some() {
            self.held = b;
            // Letters are typed on the keyboard whose X and Z are A and B: only Start
            // (Enter) keeps the text, and Esc ([`VersusSetup::back`]) leaves.
            if pressed.contains(Buttons::START) {
                self.keep_typed();
            }
            return SetupChoice::Choosing;
        }
        if let Some(entry) = &mut self.entry {
            match entry.buttons(b) {
                SeedChoice::Editing => return SetupChoice::Choosing,
                SeedChoice::Set(Some(seed)) => self.seed = seed.value(),
                // A match is always seeded: "no seed" keeps the one it had.
                SeedChoice::Set(None) | SeedChoice::Cancel => {}
            }
            self.entry = None;
            // The confirming press is not also a press on the screen.
            self.held = b;
            return SetupChoice::Choosing;
        }
        self.held = b;
        if pressed.contains(Buttons::B) {
            return SetupChoice::Leave;
        }
        let on = self.on();
        if pressed.contains(Buttons::START) || (pressed.contains(Buttons::A) && on == Row::Start) {
            let c = self.chosen();
            if self.opponent == OpponentKind::NetJoin && c.net.is_none() {
                let why = parse_address(&self.address).err().map(|e| e.to_string());
                self.note = why.map(|w| format!("ADDRESS: {}", w.to_uppercase()));
                return SetupChoice::Choosing;
            }
            return SetupChoice::Play(c);
        }
        if pressed.contains(Buttons::A) {
            match on {
                Row::Seed => {
                    self.entry = Some(SeedEntry::open(GymSeed::new(self.seed, SeedRule::V5), b));
                    return SetupChoice::Choosing;
                }
                Row::Port | Row::Address => {
                    let (field, text) = match on {
                        Row::Port => (Field::Port, self.port.to_string()),
                        _ => (Field::Address, self.address.clone()),
                    };
                    self.typing = Some(Typing {
                        field,
                        text,
                        refused: None,
                    });
                    return SetupChoice::Choosing;
                }
                _ => {}
            }
        }
        if pressed.contains(Buttons::UP) {
            self.move_cursor(-1);
        }
        if pressed.contains(Buttons::DOWN) {
            self.move_cursor(1);
        }
        if pressed.contains(Buttons::LEFT) {
            self.change(-1);
        }
        if pressed.contains(Buttons::RIGHT) || pressed.contains(Buttons::A) {
            self.change(1);
        }
        SetupChoice::Choosing
    }

    /// Start in a text entry: keeps the text if it reads, else says why and stays open.
    fn keep_typed(&mut self) {
        let Some(t) = &mut self.typing else {
            return;
        };
        match t.field {
            Field::Port => match parse_port(&t.text) {
                Ok(p) => self.port = p,
                Err(e) => {
                    t.refused = Some(e.to_string().to_uppercase());
                    return;
                }
            },
            Field::Address => match parse_address(&t.text) {
                Ok(_) => self.address = t.text.trim().to_ascii_lowercase(),
                Err(e) => {
                    t.refused = Some(e.to_string().to_uppercase());
                    return;
                }
            },
        }
        self.typing = None;
        self.note = None;
    }

    /// A typed character: into the seed entry (a hex digit) or the text entry (the
    /// characters of a port, or of an address: letters, digits, `.`, `:`, `-`, `[`, `]`),
    /// whichever is open; anything else is ignored.
    pub fn type_char(&mut self, c: char) {
        if let Some(e) = &mut self.entry {
            if let Some(d) = c.to_digit(16) {
                e.type_digit(d as u8);
            }
            return;
        }
        let Some(t) = &mut self.typing else {
            return;
        };
        let fits = match t.field {
            Field::Port => c.is_ascii_digit() && t.text.len() < 5,
            Field::Address => {
                (c.is_ascii_alphanumeric() || ".:-[]".contains(c)) && t.text.len() < MAX_ADDRESS
            }
        };
        if fits {
            t.text.push(c.to_ascii_lowercase());
            t.refused = None;
        }
    }

    /// Backspace: the text entry's last character goes.
    pub fn backspace(&mut self) {
        if let Some(t) = &mut self.typing {
            t.text.pop();
            t.refused = None;
        }
    }

    /// A typed hex digit (0-15): goes into the seed entry when it is open.
    pub fn type_digit(&mut self, digit: u8) {
        if let Some(e) = &mut self.entry {
            e.type_digit(digit);
        }
    }

    /// True while the seed entry is open.
    pub fn entering_seed(&self) -> bool {
        self.entry.is_some()
    }

    /// True while a text entry (a port, an address) is open: the keys type into it.
    pub fn typing(&self) -> bool {
        self.typing.is_some()
    }

    /// Esc: closes the text entry or the seed entry if one is open (the text or seed is
    /// not changed). False when none was, and Esc is the caller's.
    pub fn back(&mut self) -> bool {
        self.typing.take().is_some() || self.entry.take().is_some()
    }

    /// While a network match connects: the lines saying so (`None` when done or given
    /// up). The screen then waits, B cancelling.
    pub fn set_waiting(&mut self, lines: Option<[String; 2]>) {
        self.waiting = lines;
    }

    /// True while the screen waits for a network match.
    pub fn waiting(&self) -> bool {
        self.waiting.is_some()
    }

    /// A line to show under the settings (a ghost that could not be read, a refused
    /// connection), until the next one.
    pub fn set_note(&mut self, note: Option<String>) {
        self.note = note;
    }

    /// The chosen row (0 = the first listed).
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The listed rows' values, as the screen shows them: (label, value, applies).
    pub fn values(&self) -> Vec<(&'static str, String, bool)> {
        self.rows()
            .into_iter()
            .map(|row| {
                let (label, value) = match row {
                    Row::Opponent => ("OPPONENT", self.opponent.name().to_string()),
                    Row::AiRate => ("AI TAP RATE", format!("{} HZ", AI_TAPS[self.rate].0)),
                    Row::AiReaction => (
                        "AI REACTION",
                        format!("{} FRAMES", AI_REACTIONS[self.reaction]),
                    ),
                    Row::Ghost => ("GHOST FILE", self.ghost_name()),
                    Row::GhostPlayer => ("GHOST PLAYER", format!("P{}", self.ghost_player + 1)),
                    Row::Port => ("PORT", self.port.to_string()),
                    Row::Address => (
                        "ADDRESS",
                        match self.address.is_empty() {
                            true => "A: TYPE IT".to_string(),
                            false => tail(&self.address.to_uppercase(), 24),
                        },
                    ),
                    Row::Level => ("LEVEL", self.level.to_string()),
                    Row::Seed => ("SEED", format!("{:06X}", self.seed)),
                    Row::BestOf => ("BEST OF", self.best_of.to_string()),
                    Row::Start => ("START", String::new()),
                };
                (label, value, true)
            })
            .collect()
    }

    fn ghost_name(&self) -> String {
        let Some(p) = self.ghosts.get(self.ghost) else {
            return "NONE FOUND".into();
        };
        let name = p
            .file_stem()
            .map(|s| s.to_string_lossy().to_uppercase())
            .unwrap_or_default();
        let name = name.strip_prefix("NESTRIS-").unwrap_or(&name).to_string();
        // The end of a long name tells files apart (the time, the mode).
        tail(&name, 24)
    }

    /// The notes under the settings.
    pub fn notes(&self) -> Vec<String> {
        let keys = match self.on() {
            Row::Seed => "A: SEED",
            Row::Port | Row::Address => "A: TYPE",
            _ => "",
        };
        let mut notes = vec![
            format!("UP DOWN: CHOOSE  LEFT RIGHT: CHANGE  {keys}")
                .trim_end()
                .to_string(),
            "START: PLAY  B: LEAVE".to_string(),
        ];
        let third = match (&self.note, self.opponent) {
            (Some(n), _) => Some(n.clone()),
            (None, OpponentKind::NetHost) => {
                Some("THE GUEST PLAYS YOUR LEVEL, SEED AND BEST OF".into())
            }
            (None, OpponentKind::NetJoin) => {
                Some("YOU PLAY THE HOST'S LEVEL, SEED AND BEST OF".into())
            }
            (None, _) => None,
        };
        notes.extend(third);
        notes
    }

    /// The lines of the dialog over the screen, if one is up: the wait for a network
    /// match, a text entry, or the seed entry (without its "no seed" line: a match is
    /// always seeded).
    pub fn dialog(&self) -> Option<Vec<String>> {
        if let Some([first, second]) = &self.waiting {
            return Some(vec![
                first.clone(),
                tail(second, 28),
                String::new(),
                "B OR ESC: CANCEL".into(),
            ]);
        }
        if let Some(t) = &self.typing {
            let title = match t.field {
                Field::Port => "THE PORT TO WAIT ON",
                Field::Address => "THE HOST, AS HOST:PORT",
            };
            let mut text = t.text.to_uppercase();
            text.push('_');
            return Some(vec![
                title.into(),
                String::new(),
                tail(&text, 26),
                String::new(),
                t.refused.clone().unwrap_or_default(),
                String::new(),
                "ENTER: KEEP  ESC: BACK".into(),
            ]);
        }
        self.entry.map(|e| e.lines()[..4].to_vec())
    }

    /// Draws the screen into `out` ([`nestris_render::versus::VERSUS_WIDTH`] x
    /// [`nestris_render::HEIGHT`]).
    pub fn draw(&self, out: &mut nestris_render::Frame) {
        let values = self.values();
        let rows: Vec<SetupRow<'_>> = values
            .iter()
            .map(|(label, value, active)| SetupRow {
                label,
                value,
                active: *active,
            })
            .collect();
        let notes = self.notes();
        let notes: Vec<&str> = notes.iter().map(String::as_str).collect();
        let dialog = self.dialog();
        nestris_render::versus::draw_setup(
            &nestris_render::versus::SetupScreen {
                rows: &rows,
                cursor: self.cursor,
                notes: &notes,
                dialog: dialog.as_deref(),
            },
            out,
        );
    }
}

/// The last `n` characters of `text` (the end of a long name or address tells them apart).
fn tail(text: &str, n: usize) -> String {
    let len = text.chars().count();
    text.chars().skip(len.saturating_sub(n)).collect()
}

/// The files in `dir` a ghost can come from (versus matches and single-player replays),
/// newest name first, at most [`MAX_GHOSTS`]. A folder that cannot be read has none.
pub fn ghost_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x == "nestrisvs" || x == "nestris")
                && p.is_file()
        })
        .take(100 * MAX_GHOSTS)
        .collect();
    // Session names carry the date and time, so the newest sorts last.
    files.sort();
    files.reverse();
    files.truncate(MAX_GHOSTS);
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> MatchSetup {
        MatchSetup {
            region: Region::Ntsc,
            level: 18,
            seed: 0x00BEEF,
            best_of: 3,
        }
    }

    /// Presses and releases `b`.
    fn press(s: &mut VersusSetup, b: Buttons) -> SetupChoice {
        let c = s.buttons(b);
        assert_eq!(s.buttons(Buttons::NONE), SetupChoice::Choosing);
        c
    }

    fn value(s: &VersusSetup, label: &str) -> String {
        s.values()
            .into_iter()
            .find(|v| v.0 == label)
            .map(|v| v.1)
            .unwrap()
    }

    #[test]
    fn the_ai_rows_apply_only_to_the_ai_and_start_plays_what_is_shown() {
        let mut s = VersusSetup::new(setup(), Vec::new(), Buttons::START);
        // Start held as it opened is not a press.
        assert_eq!(s.buttons(Buttons::START), SetupChoice::Choosing);
        // With no ghost file the opponents are: 2nd player, AI, network host and join.
        for name in ["AI", "NETWORK HOST", "NETWORK JOIN", "2ND PLAYER"] {
            press(&mut s, Buttons::RIGHT);
            assert_eq!(value(&s, "OPPONENT"), name);
        }
        // A second player has no AI rows: Down goes straight to LEVEL.
        let labels = |s: &VersusSetup| s.values().into_iter().map(|v| v.0).collect::<Vec<_>>();
        assert_eq!(
            labels(&s),
            ["OPPONENT", "LEVEL", "SEED", "BEST OF", "START"]
        );
        press(&mut s, Buttons::DOWN);
        assert_eq!(s.values()[s.cursor()].0, "LEVEL");
        press(&mut s, Buttons::UP);
        press(&mut s, Buttons::RIGHT);
        assert_eq!(value(&s, "OPPONENT"), "AI");
        press(&mut s, Buttons::DOWN);
        assert_eq!(s.values()[s.cursor()].0, "AI TAP RATE");
        press(&mut s, Buttons::LEFT);
        assert_eq!(value(&s, "AI TAP RATE"), "20 HZ");
        press(&mut s, Buttons::DOWN);
        press(&mut s, Buttons::RIGHT);
        assert_eq!(value(&s, "AI REACTION"), "24 FRAMES");
        // Level wraps 19 -> 0 going up twice from 18; best of steps over odd numbers.
        press(&mut s, Buttons::DOWN);
        assert_eq!(s.values()[s.cursor()].0, "LEVEL", "GHOST FILE is skipped");
        press(&mut s, Buttons::RIGHT);
        press(&mut s, Buttons::RIGHT);
        assert_eq!(value(&s, "LEVEL"), "0");
        press(&mut s, Buttons::DOWN);
        press(&mut s, Buttons::DOWN);
        press(&mut s, Buttons::LEFT);
        assert_eq!(value(&s, "BEST OF"), "1");
        press(&mut s, Buttons::LEFT);
        assert_eq!(value(&s, "BEST OF"), "15");
        let SetupChoice::Play(c) = press(&mut s, Buttons::START) else {
            panic!("Start plays")
        };
        assert_eq!(c.opponent, OpponentKind::Ai);
        assert_eq!((c.ai_hz, c.ai_reaction), (20, 24));
        assert_eq!((c.ghost, c.ghost_player, c.net), (None, 0, None));
        assert_eq!(
            c.setup,
            MatchSetup {
                level: 0,
                best_of: 15,
                ..setup()
            }
        );
        c.setup.validate().unwrap();
        assert_eq!(press(&mut s, Buttons::B), SetupChoice::Leave);
    }

    #[test]
    fn the_seed_is_entered_with_the_seed_entry() {
        let mut s = VersusSetup::new(setup(), Vec::new(), Buttons::NONE);
        while s.values()[s.cursor()].0 != "SEED" {
            press(&mut s, Buttons::DOWN);
        }
        press(&mut s, Buttons::A);
        assert!(s.entering_seed());
        assert_eq!(s.dialog().unwrap()[1], "00BEEF");
        // Up on the first digit, a typed digit on the second.
        press(&mut s, Buttons::UP);
        s.type_digit(0xC);
        // Select ("no seed") is refused: the entry closes, the seed unchanged.
        press(&mut s, Buttons::SELECT);
        assert!(!s.entering_seed());
        assert_eq!(value(&s, "SEED"), "00BEEF");
        press(&mut s, Buttons::A);
        press(&mut s, Buttons::UP);
        press(&mut s, Buttons::RIGHT);
        s.type_digit(0xC);
        press(&mut s, Buttons::A);
        assert!(!s.entering_seed(), "A confirms");
        assert_eq!(value(&s, "SEED"), "1CBEEF");
        assert_eq!(s.chosen().setup.seed, 0x1CBEEF);
        // B in the entry goes back to the screen, not out of it.
        press(&mut s, Buttons::A);
        press(&mut s, Buttons::B);
        assert!(!s.entering_seed());
        assert_eq!(press(&mut s, Buttons::DOWN), SetupChoice::Choosing);
    }

    #[test]
    fn ghosts_are_listed_newest_first_and_chosen() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "nestris-2026-01-01-100000-versus.nestrisvs",
            "nestris-2026-02-01-100000.nestris",
            "notes.txt",
        ] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        let files = ghost_files(dir.path());
        assert_eq!(files.len(), 2);
        assert!(files[0].ends_with("nestris-2026-02-01-100000.nestris"));
        assert!(ghost_files(&dir.path().join("absent")).is_empty());
        let mut s = VersusSetup::new(setup(), files.clone(), Buttons::NONE);
        s.set_ghost_player(1);
        press(&mut s, Buttons::RIGHT);
        press(&mut s, Buttons::RIGHT);
        assert_eq!(value(&s, "OPPONENT"), "GHOST");
        assert_eq!(value(&s, "GHOST FILE"), "2026-02-01-100000");
        // A single-player replay has one player: no row to choose one, and player 1.
        let labels = |s: &VersusSetup| s.values().into_iter().map(|v| v.0).collect::<Vec<_>>();
        assert!(!labels(&s).contains(&"GHOST PLAYER"));
        assert_eq!(s.chosen().ghost_player, 0);
        press(&mut s, Buttons::DOWN);
        assert_eq!(s.values()[s.cursor()].0, "GHOST FILE");
        press(&mut s, Buttons::RIGHT);
        assert_eq!(value(&s, "GHOST FILE"), "2026-01-01-100000-VERSUS");
        // A versus match has two: the flag's first choice, then Left/Right.
        assert_eq!(value(&s, "GHOST PLAYER"), "P2");
        press(&mut s, Buttons::DOWN);
        assert_eq!(s.values()[s.cursor()].0, "GHOST PLAYER");
        press(&mut s, Buttons::RIGHT);
        assert_eq!(value(&s, "GHOST PLAYER"), "P1");
        assert_eq!(s.chosen().ghost_player, 0);
        press(&mut s, Buttons::LEFT);
        let SetupChoice::Play(c) = press(&mut s, Buttons::START) else {
            panic!()
        };
        assert_eq!(c.ghost.as_deref(), Some(files[1].as_path()));
        assert_eq!(c.ghost_player, 1, "player 2 of the match is raced");
    }

    /// Chooses the opponent `name` from the first row.
    fn choose(s: &mut VersusSetup, name: &str) {
        while value(s, "OPPONENT") != name {
            press(s, Buttons::RIGHT);
        }
    }

    fn go_to(s: &mut VersusSetup, label: &str) {
        while s.values()[s.cursor()].0 != label {
            press(s, Buttons::DOWN);
        }
    }

    fn type_text(s: &mut VersusSetup, text: &str) {
        text.chars().for_each(|c| s.type_char(c));
    }

    #[test]
    fn a_host_types_its_port_and_a_bad_one_is_refused_with_a_reason() {
        let mut s = VersusSetup::new(setup(), Vec::new(), Buttons::NONE);
        choose(&mut s, "NETWORK HOST");
        let labels: Vec<_> = s.values().into_iter().map(|v| v.0).collect();
        assert_eq!(
            labels,
            ["OPPONENT", "PORT", "LEVEL", "SEED", "BEST OF", "START"]
        );
        assert_eq!(value(&s, "PORT"), DEFAULT_PORT.to_string());
        assert_eq!(s.notes()[2], "THE GUEST PLAYS YOUR LEVEL, SEED AND BEST OF");
        go_to(&mut s, "PORT");
        assert_eq!(s.notes()[0], "UP DOWN: CHOOSE  LEFT RIGHT: CHANGE  A: TYPE");
        press(&mut s, Buttons::A);
        assert!(s.typing());
        assert_eq!(s.dialog().unwrap()[2], "7300_");
        (0..4).for_each(|_| s.backspace());
        // A port is digits: letters are not typed, and five digits at most.
        type_text(&mut s, "x123456");
        assert_eq!(s.dialog().unwrap()[2], "12345_");
        (0..5).for_each(|_| s.backspace());
        type_text(&mut s, "0");
        // A and B are keys that type letters: they neither keep the text nor leave.
        assert_eq!(press(&mut s, Buttons::B), SetupChoice::Choosing);
        press(&mut s, Buttons::A);
        assert!(s.typing());
        press(&mut s, Buttons::START);
        assert!(s.typing(), "port 0 is refused");
        assert_eq!(s.dialog().unwrap()[4], "THE PORT IS 1 TO 65535");
        s.backspace();
        assert_eq!(s.dialog().unwrap()[4], "", "typing clears the reason");
        type_text(&mut s, "7301");
        press(&mut s, Buttons::START);
        assert!(!s.typing());
        assert_eq!(value(&s, "PORT"), "7301");
        // Esc leaves an entry without changing the port.
        press(&mut s, Buttons::A);
        type_text(&mut s, "9");
        assert!(s.back());
        assert!(!s.back(), "nothing left to close: Esc is the caller's");
        assert_eq!(value(&s, "PORT"), "7301");
        let SetupChoice::Play(c) = press(&mut s, Buttons::START) else {
            panic!("Start plays")
        };
        assert_eq!(c.opponent, OpponentKind::NetHost);
        assert_eq!(c.net, Some(NetRole::Host(7301)));
        assert_eq!(c.setup, setup());
    }

    #[test]
    fn a_joiner_types_an_address_and_plays_the_host_s_setup() {
        let mut s = VersusSetup::new(setup(), Vec::new(), Buttons::NONE);
        choose(&mut s, "NETWORK JOIN");
        // Level, seed and best-of are the host's: not listed.
        let labels: Vec<_> = s.values().into_iter().map(|v| v.0).collect();
        assert_eq!(labels, ["OPPONENT", "ADDRESS", "START"]);
        assert_eq!(value(&s, "ADDRESS"), "A: TYPE IT");
        // Start with no address: the reason on the screen, no match.
        assert_eq!(press(&mut s, Buttons::START), SetupChoice::Choosing);
        assert_eq!(s.notes()[2], "ADDRESS: TYPE THE HOST AS HOST:PORT");
        go_to(&mut s, "ADDRESS");
        press(&mut s, Buttons::A);
        assert_eq!(s.dialog().unwrap()[0], "THE HOST, AS HOST:PORT");
        // Spaces and other signs are not typed; a misplaced colon is refused on Start.
        type_text(&mut s, "Tetris Box:a:7300");
        assert_eq!(s.dialog().unwrap()[2], "TETRISBOX:A:7300_");
        press(&mut s, Buttons::START);
        assert!(s.typing());
        assert_eq!(s.dialog().unwrap()[4], "':' IS NOT IN AN ADDRESS");
        (0..7).for_each(|_| s.backspace());
        type_text(&mut s, ".lan:7301");
        press(&mut s, Buttons::START);
        assert!(!s.typing());
        assert_eq!(value(&s, "ADDRESS"), "TETRISBOX.LAN:7301");
        let SetupChoice::Play(c) = press(&mut s, Buttons::START) else {
            panic!("Start plays")
        };
        let want = crate::network::JoinAddress {
            host: "tetrisbox.lan".into(),
            port: 7301,
        };
        assert_eq!(c.net, Some(NetRole::Join(want)));
    }

    #[test]
    fn while_connecting_the_screen_waits_and_b_cancels() {
        let mut s = VersusSetup::new(setup(), Vec::new(), Buttons::NONE);
        choose(&mut s, "NETWORK HOST");
        s.set_waiting(Some(NetRole::Host(7300).waiting_lines()));
        assert!(s.waiting());
        assert_eq!(
            s.dialog().unwrap(),
            [
                "WAITING FOR A GUEST",
                "ON PORT 7300",
                "",
                "B OR ESC: CANCEL"
            ]
        );
        // Nothing else moves meanwhile.
        for b in [Buttons::START, Buttons::RIGHT, Buttons::A, Buttons::DOWN] {
            assert_eq!(press(&mut s, b), SetupChoice::Choosing);
        }
        assert_eq!(value(&s, "OPPONENT"), "NETWORK HOST");
        assert_eq!(press(&mut s, Buttons::B), SetupChoice::Cancel);
        s.set_waiting(None);
        assert_eq!(s.dialog(), None);
        assert_eq!(press(&mut s, Buttons::B), SetupChoice::Leave);
    }
}
