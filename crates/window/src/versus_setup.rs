//! The versus setup screen: who plays player 2 and how the match is set up, chosen with
//! the NES buttons (so a gamepad works as the keyboard does) before `nestris versus`
//! starts a match without an opponent flag.
//!
//! Up and Down choose a setting, Left and Right change it, A on SEED opens the seed entry
//! ([`crate::seed`]), Start (or A on START) plays, B leaves. Settings that do not apply to
//! the chosen opponent are skipped and drawn dim. The screen is drawn by
//! `nestris_render::versus::draw_setup` from [`VersusSetup::rows`].

use std::path::{Path, PathBuf};

use nestris_core::{Buttons, GymSeed, Region, SeedRule};
use nestris_render::versus::SetupRow;
use nestris_versus::{MatchSetup, MAX_BEST_OF};

use crate::seed::{SeedChoice, SeedEntry};

/// The AI's tap rates on offer, in Hz (the AI's input models: a tap every 2-5 frames).
pub const AI_RATES: [u8; 4] = [30, 20, 15, 12];
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
}

impl OpponentKind {
    const ALL: [OpponentKind; 3] = [OpponentKind::Local, OpponentKind::Ai, OpponentKind::Ghost];

    fn name(self) -> &'static str {
        match self {
            OpponentKind::Local => "2ND PLAYER",
            OpponentKind::Ai => "AI",
            OpponentKind::Ghost => "GHOST",
        }
    }
}

/// What the screen's settings add up to, once Start is pressed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Chosen {
    /// Who plays player 2.
    pub opponent: OpponentKind,
    /// The AI's tap rate in Hz (one of [`AI_RATES`]).
    pub ai_hz: u8,
    /// The AI's reaction in frames.
    pub ai_reaction: u8,
    /// The ghost's file, for [`OpponentKind::Ghost`].
    pub ghost: Option<PathBuf>,
    /// The match (for a ghost, the file's own start may replace it).
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
}

/// The settings' rows, top to bottom.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Row {
    Opponent,
    AiRate,
    AiReaction,
    Ghost,
    Level,
    Seed,
    BestOf,
    Start,
}

const ROWS: [Row; 8] = [
    Row::Opponent,
    Row::AiRate,
    Row::AiReaction,
    Row::Ghost,
    Row::Level,
    Row::Seed,
    Row::BestOf,
    Row::Start,
];

/// The setup screen's state.
#[derive(Clone, Debug)]
pub struct VersusSetup {
    opponent: OpponentKind,
    rate: usize,
    reaction: usize,
    ghosts: Vec<PathBuf>,
    ghost: usize,
    region: Region,
    level: u8,
    seed: u32,
    best_of: u8,
    cursor: usize,
    entry: Option<SeedEntry>,
    held: Buttons,
    note: Option<String>,
}

impl VersusSetup {
    /// The screen with `setup`'s level, seed and best-of, the AI at 15 Hz and 18 frames,
    /// and `ghosts` (files a ghost can come from, see [`ghost_files`]) to choose from.
    /// `held`: the buttons down as it opens, not counted as presses.
    pub fn new(setup: MatchSetup, ghosts: Vec<PathBuf>, held: Buttons) -> VersusSetup {
        VersusSetup {
            opponent: OpponentKind::Local,
            rate: 2,
            reaction: 3,
            ghosts,
            ghost: 0,
            region: setup.region,
            level: setup.level.min(19),
            seed: setup.seed & 0xFF_FFFF,
            best_of: setup.best_of,
            cursor: 0,
            entry: None,
            held,
            note: None,
        }
    }

    fn applies(&self, row: Row) -> bool {
        match row {
            Row::AiRate | Row::AiReaction => self.opponent == OpponentKind::Ai,
            Row::Ghost => self.opponent == OpponentKind::Ghost,
            _ => true,
        }
    }

    fn kinds(&self) -> Vec<OpponentKind> {
        OpponentKind::ALL
            .into_iter()
            .filter(|&k| k != OpponentKind::Ghost || !self.ghosts.is_empty())
            .collect()
    }

    /// Moves the cursor by `step` rows, over the rows that do not apply.
    fn move_cursor(&mut self, step: isize) {
        let n = ROWS.len() as isize;
        let mut at = self.cursor as isize;
        for _ in 0..n {
            at = (at + step).rem_euclid(n);
            if self.applies(ROWS[at as usize]) {
                break;
            }
        }
        self.cursor = at as usize;
    }

    /// Changes the chosen setting by `step` (Left -1, Right +1).
    fn change(&mut self, step: isize) {
        let turn = |i: usize, len: usize| (i as isize + step).rem_euclid(len as isize) as usize;
        match ROWS[self.cursor] {
            Row::Opponent => {
                let kinds = self.kinds();
                let i = kinds.iter().position(|&k| k == self.opponent).unwrap_or(0);
                self.opponent = kinds[turn(i, kinds.len())];
            }
            Row::AiRate => self.rate = turn(self.rate, AI_RATES.len()),
            Row::AiReaction => self.reaction = turn(self.reaction, AI_REACTIONS.len()),
            Row::Ghost if !self.ghosts.is_empty() => {
                self.ghost = turn(self.ghost, self.ghosts.len());
            }
            Row::Level => self.level = turn(usize::from(self.level), 20) as u8,
            Row::BestOf => {
                // Odd numbers only: 1, 3, ... MAX_BEST_OF.
                let i = turn(
                    usize::from(self.best_of / 2),
                    usize::from(MAX_BEST_OF / 2 + 1),
                );
                self.best_of = 2 * i as u8 + 1;
            }
            Row::Ghost | Row::Seed | Row::Start => {}
        }
    }

    /// The setup chosen so far.
    pub fn chosen(&self) -> Chosen {
        Chosen {
            opponent: self.opponent,
            ai_hz: AI_RATES[self.rate],
            ai_reaction: AI_REACTIONS[self.reaction],
            ghost: (self.opponent == OpponentKind::Ghost)
                .then(|| self.ghosts.get(self.ghost).cloned())
                .flatten(),
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
        let pressed = Buttons(b.0 & !self.held.0);
        self.held = b;
        if pressed.contains(Buttons::B) {
            return SetupChoice::Leave;
        }
        let on = ROWS[self.cursor];
        if pressed.contains(Buttons::START) || (pressed.contains(Buttons::A) && on == Row::Start) {
            return SetupChoice::Play(self.chosen());
        }
        if pressed.contains(Buttons::A) && on == Row::Seed {
            self.entry = Some(SeedEntry::open(GymSeed::new(self.seed, SeedRule::V5), b));
            return SetupChoice::Choosing;
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

    /// A line to show under the settings (a ghost that could not be read, say), until
    /// the next one.
    pub fn set_note(&mut self, note: Option<String>) {
        self.note = note;
    }

    /// The chosen row (0 = the first).
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The rows' values, as the screen shows them: (label, value, applies).
    pub fn values(&self) -> Vec<(&'static str, String, bool)> {
        ROWS.iter()
            .map(|&row| {
                let (label, value) = match row {
                    Row::Opponent => ("OPPONENT", self.opponent.name().to_string()),
                    Row::AiRate => ("AI TAP RATE", format!("{} HZ", AI_RATES[self.rate])),
                    Row::AiReaction => (
                        "AI REACTION",
                        format!("{} FRAMES", AI_REACTIONS[self.reaction]),
                    ),
                    Row::Ghost => ("GHOST FILE", self.ghost_name()),
                    Row::Level => ("LEVEL", self.level.to_string()),
                    Row::Seed => ("SEED", format!("{:06X}", self.seed)),
                    Row::BestOf => ("BEST OF", self.best_of.to_string()),
                    Row::Start => ("START", String::new()),
                };
                (label, value, self.applies(row))
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
        let n = name.chars().count();
        name.chars().skip(n.saturating_sub(24)).collect()
    }

    /// The notes under the settings.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = vec![
            "UP DOWN: CHOOSE  LEFT RIGHT: CHANGE  A: SEED".to_string(),
            "START: PLAY  B: LEAVE".to_string(),
        ];
        notes.push(match &self.note {
            Some(n) => n.clone(),
            None => "NETWORK: NESTRIS VERSUS --HOST OR --JOIN".to_string(),
        });
        notes
    }

    /// The seed entry's lines while it is open (without its "no seed" line: a match is
    /// always seeded).
    pub fn dialog(&self) -> Option<Vec<String>> {
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
        // With no ghost file the opponents are: 2nd player, AI.
        press(&mut s, Buttons::RIGHT);
        assert_eq!(value(&s, "OPPONENT"), "AI");
        press(&mut s, Buttons::RIGHT);
        assert_eq!(value(&s, "OPPONENT"), "2ND PLAYER");
        // Down skips the AI's rows for a second player: straight to LEVEL.
        press(&mut s, Buttons::DOWN);
        assert_eq!(s.values()[s.cursor()].0, "LEVEL");
        press(&mut s, Buttons::UP);
        press(&mut s, Buttons::LEFT);
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
        assert_eq!(c.ghost, None);
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
        press(&mut s, Buttons::LEFT);
        assert_eq!(value(&s, "OPPONENT"), "GHOST");
        assert_eq!(value(&s, "GHOST FILE"), "2026-02-01-100000");
        press(&mut s, Buttons::DOWN);
        assert_eq!(s.values()[s.cursor()].0, "GHOST FILE");
        press(&mut s, Buttons::RIGHT);
        assert_eq!(value(&s, "GHOST FILE"), "2026-01-01-100000-VERSUS");
        let SetupChoice::Play(c) = press(&mut s, Buttons::START) else {
            panic!()
        };
        assert_eq!(c.ghost.as_deref(), Some(files[1].as_path()));
    }
}
