//! Board evaluation: a weighted sum of features of the field after a placement.
//!
//! The features are the usual ones of Tetris bots (holes, transitions, bumpiness,
//! heights) plus what NES play at 18-29 needs: a clean well in the right column that
//! holds four ready rows for a tetris, and how high each column may be before a piece
//! tapped at the player's rate can no longer pass over it at the current gravity.
//!
//! One linear set ([`Weights`]) does not suit every speed: what pays before level 19
//! (stacking for tetrises) kills at two rows a frame. A [`WeightSet`] holds a set per
//! [`Bracket`] of the game (before 19, 19-28, 29 up to the double killscreen, the double
//! killscreen itself), and the search takes the set of the position it searches from.

use crate::board::{Board, COLS, PIECE_MASKS, TOP};
use crate::inputs::InputModel;
use nestris_core::tables::ORIENTATION_CELLS;
use nestris_core::Region;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The column kept open for tetrises (the rightmost: an I piece reaches it in four taps).
pub const WELL: usize = 9;

/// Weights of the evaluation; positive values are rewards, negative ones penalties.
///
/// (De)serializes to TOML or JSON with these field names; fields missing from a file
/// keep their default values.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Weights {
    /// Per empty cell below the top of its column.
    pub holes: f32,
    /// Per row that holds at least one hole.
    pub hole_rows: f32,
    /// Per block stacked above a hole (cells to dig out).
    pub covered: f32,
    /// Per filled/empty change along rows (walls count as filled).
    pub row_transitions: f32,
    /// Per filled/empty change down the columns (the floor counts as filled).
    pub col_transitions: f32,
    /// Per unit of height difference between neighbouring columns outside the well.
    pub bumpiness: f32,
    /// Per squared unit of that difference.
    pub bumpiness_sq: f32,
    /// Per block of height of the columns outside the well.
    pub height: f32,
    /// Per squared row above `danger_row` of the highest column.
    pub danger: f32,
    /// Rows from the bottom above which height becomes dangerous.
    pub danger_row: f32,
    /// Per unit of depth beyond 2 of a well other than the tetris well.
    pub other_well: f32,
    /// Per block in the tetris well above the lowest other column.
    pub well_blocked: f32,
    /// Per row, up to 4, ready to be cleared by a vertical I in the well.
    pub ready_rows: f32,
    /// Once when four or more rows are ready.
    pub tetris_ready: f32,
    /// Per ready row beyond four (a deeper stack than a tetris needs).
    pub excess_ready: f32,
    /// Per row by which a column is too high for a piece to pass over it at this
    /// gravity and tap rate (squared).
    pub unreachable: f32,
    /// Per line cleared by a single, double or triple (a burn).
    pub burn: f32,
    /// Per tetris.
    pub tetris: f32,
    /// Per unit of the field's learned risk of a top-out within 40 pieces
    /// ([`crate::risk`]; roughly a probability). 0, the default, leaves the table out,
    /// and the search then measures a field from its parent's, which a table entry per
    /// pattern cannot be. Not tuned ([`Weights::to_array`] leaves it out), and written
    /// only where it is not 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub risk: f32,
}

impl Default for Weights {
    /// Hand-tuned on 20 games from level 18 with 30 Hz tapping (seeds 1..=20).
    fn default() -> Self {
        Weights {
            holes: -6.0,
            hole_rows: -6.0,
            covered: -0.6,
            row_transitions: -0.9,
            col_transitions: -1.6,
            bumpiness: -0.5,
            bumpiness_sq: -0.15,
            height: -0.2,
            danger: -5.0,
            danger_row: 8.0,
            other_well: -2.5,
            well_blocked: -2.0,
            ready_rows: 1.0,
            tetris_ready: 2.0,
            excess_ready: -3.0,
            unreachable: -10.0,
            burn: -4.0,
            tetris: 24.0,
            risk: 0.0,
        }
    }
}

/// For serde: a weight of 0 is not written.
fn is_zero(w: &f32) -> bool {
    *w == 0.0
}

/// Lists the tuned fields of [`Weights`] (all but [`Weights::risk`]) once, for the array
/// views.
macro_rules! weight_fields {
    ($($f:ident),* $(,)?) => {
        impl Weights {
            /// The field names, in the order of [`Weights::to_array`].
            pub const NAMES: [&'static str; Weights::COUNT] = [$(stringify!($f)),*];

            /// The tuned weights as an array, in the order of [`Weights::NAMES`] (for
            /// tuning; [`Weights::risk`] left out).
            pub fn to_array(&self) -> [f32; Weights::COUNT] {
                [$(self.$f),*]
            }

            /// Weights from an array in the order of [`Weights::NAMES`] ([`Weights::risk`]
            /// 0).
            pub fn from_array(a: [f32; Weights::COUNT]) -> Weights {
                let mut it = a.into_iter();
                Weights { $($f: it.next().expect("one value per field")),*, risk: 0.0 }
            }
        }
    };
}

weight_fields!(
    holes,
    hole_rows,
    covered,
    row_transitions,
    col_transitions,
    bumpiness,
    bumpiness_sq,
    height,
    danger,
    danger_row,
    other_well,
    well_blocked,
    ready_rows,
    tetris_ready,
    excess_ready,
    unreachable,
    burn,
    tetris,
);

/// Why a weights file could not be read.
#[derive(Debug)]
pub enum WeightsError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The TOML is not a weights table.
    Toml(toml::de::Error),
    /// The JSON is not a weights object.
    Json(serde_json::Error),
    /// A `[high_stack]` table without a `from_height` of 1 to 20 rows.
    HighStackHeight,
}

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeightsError::Io(e) => write!(f, "reading weights: {e}"),
            WeightsError::Toml(e) => write!(f, "weights TOML: {e}"),
            WeightsError::Json(e) => write!(f, "weights JSON: {e}"),
            WeightsError::HighStackHeight => {
                write!(
                    f,
                    "weights: the high_stack table needs a from_height of 1 to 20 (rows)"
                )
            }
        }
    }
}

impl std::error::Error for WeightsError {}

/// Reads a weights file and parses it with `json` for a `.json` name, `toml` for any other.
fn read_weights_file<T>(
    path: &Path,
    json: impl FnOnce(&str) -> Result<T, WeightsError>,
    toml: impl FnOnce(&str) -> Result<T, WeightsError>,
) -> Result<T, WeightsError> {
    let text = std::fs::read_to_string(path).map_err(WeightsError::Io)?;
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        json(&text)
    } else {
        toml(&text)
    }
}

impl Weights {
    /// Number of tuned fields (all but [`Weights::risk`]).
    pub const COUNT: usize = 18;

    /// Reads weights from a `.json` file, or TOML for any other name.
    pub fn load(path: impl AsRef<Path>) -> Result<Weights, WeightsError> {
        read_weights_file(
            path.as_ref(),
            |text| serde_json::from_str(text).map_err(WeightsError::Json),
            Weights::from_toml,
        )
    }

    /// Parses TOML text.
    pub fn from_toml(text: &str) -> Result<Weights, WeightsError> {
        toml::from_str(text).map_err(WeightsError::Toml)
    }

    /// Writes the weights as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("weights are plain numbers")
    }
}

/// A part of the game that may have weights of its own in a [`WeightSet`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bracket {
    /// Before level 19 (the base set).
    Base,
    /// Levels 19-28 (gravity 2 frames a row).
    Level19,
    /// Level 29 on (a row a frame), until the double killscreen.
    Level29,
    /// Gravity two rows a frame (a variant's double killscreen, wherever its rule puts it).
    DoubleKillscreen,
}

impl Bracket {
    /// Every bracket, in the order of the game.
    pub const ALL: [Bracket; 4] = [
        Bracket::Base,
        Bracket::Level19,
        Bracket::Level29,
        Bracket::DoubleKillscreen,
    ];

    /// The bracket of a position at `level` whose pieces fall two rows a frame if
    /// `double` (the gravity decides over the level, so the variant's rule places it).
    pub fn of(level: u8, double: bool) -> Bracket {
        match level {
            _ if double => Bracket::DoubleKillscreen,
            29.. => Bracket::Level29,
            19.. => Bracket::Level19,
            _ => Bracket::Base,
        }
    }

    /// The bracket's name: its table's name in a weights file (`base` for the top level).
    pub fn name(self) -> &'static str {
        match self {
            Bracket::Base => "base",
            Bracket::Level19 => "level19",
            Bracket::Level29 => "level29",
            Bracket::DoubleKillscreen => "double_killscreen",
        }
    }

    /// The bracket named `name` ([`Bracket::name`]).
    pub fn from_name(name: &str) -> Option<Bracket> {
        Bracket::ALL.into_iter().find(|b| b.name() == name)
    }
}

/// Weights per [`Bracket`]: the base set, and for each other bracket its own set if it
/// has one (else the base set's).
///
/// A weights file holds it as the base set at the top level, as old files do (which
/// therefore load as a set without brackets), and a table per bracket that has its own
/// set, named as [`Bracket::name`] says (`[level19]`, `[level29]`,
/// `[double_killscreen]`). A bracket's table gives the fields that differ from the base
/// set: a field it leaves out keeps the base set's value. Written out, a bracket's table
/// lists every field.
///
/// A `[high_stack]` table (a [`HighStack`]) may add a set for high stacks before level 29: its
/// `from_height` and the fields that differ from the base set.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct WeightSet {
    /// The base set (before level 19, and any bracket without a set of its own).
    pub base: Weights,
    /// The sets of [`Bracket::Level19`], [`Bracket::Level29`] and
    /// [`Bracket::DoubleKillscreen`], in that order, where given.
    pub brackets: [Option<Weights>; 3],
    /// The set for high stacks, where given.
    pub high_stack: Option<HighStack>,
}

/// A set for high stacks: in the brackets before level 29 ([`Bracket::Base`] and
/// [`Bracket::Level19`]), a position whose highest column is `from_height` rows or more
/// is searched with `weights` instead of its bracket's set. (Sets tuned for score stack high
/// and lose games early; a safer set where the stack is high keeps them.)
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct HighStack {
    /// Rows of the highest column from which the set applies (1-20).
    pub from_height: u8,
    /// The set.
    pub weights: Weights,
}

impl From<Weights> for WeightSet {
    /// The set with `base` everywhere.
    fn from(base: Weights) -> WeightSet {
        WeightSet {
            base,
            brackets: [None; 3],
            high_stack: None,
        }
    }
}

/// A weights file as read: the base set's fields, and each bracket's table of overrides.
#[derive(Deserialize)]
struct FileSet {
    #[serde(flatten)]
    base: Weights,
    #[serde(default)]
    level19: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(default)]
    level29: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(default)]
    double_killscreen: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(default)]
    high_stack: Option<serde_json::Map<String, serde_json::Value>>,
}

/// A `[high_stack]` table as written: its `from_height`, then every field of its set.
#[derive(Serialize)]
struct HighStackOut<'a> {
    from_height: u8,
    #[serde(flatten)]
    weights: &'a Weights,
}

/// A weights file as written: the base set, then every bracket that has a set.
#[derive(Serialize)]
struct FileSetOut<'a> {
    #[serde(flatten)]
    base: &'a Weights,
    #[serde(skip_serializing_if = "Option::is_none")]
    level19: Option<&'a Weights>,
    #[serde(skip_serializing_if = "Option::is_none")]
    level29: Option<&'a Weights>,
    #[serde(skip_serializing_if = "Option::is_none")]
    double_killscreen: Option<&'a Weights>,
    #[serde(skip_serializing_if = "Option::is_none")]
    high_stack: Option<HighStackOut<'a>>,
}

impl WeightSet {
    /// The built-in set of BetaTetris's format (`weights/betatetris.toml`: how it was made
    /// is in its header).
    pub fn betatetris() -> WeightSet {
        WeightSet::from_toml(include_str!("../weights/betatetris.toml"))
            .expect("the built-in betatetris weights parse")
    }

    /// The set a position in `bracket` is evaluated with.
    #[inline]
    pub fn get(&self, bracket: Bracket) -> &Weights {
        match bracket {
            Bracket::Base => &self.base,
            b => self.brackets[b as usize - 1].as_ref().unwrap_or(&self.base),
        }
    }

    /// The set a position in `bracket` whose highest column is `height` rows is evaluated
    /// with: [`WeightSet::get`], or the [`HighStack`] set where it applies.
    #[inline]
    pub fn for_position(&self, bracket: Bracket, height: u8) -> &Weights {
        match &self.high_stack {
            Some(d)
                if height >= d.from_height
                    && matches!(bracket, Bracket::Base | Bracket::Level19) =>
            {
                &d.weights
            }
            _ => self.get(bracket),
        }
    }

    /// Gives `bracket` the set `w` (the base set for [`Bracket::Base`]).
    pub fn set(&mut self, bracket: Bracket, w: Weights) {
        match bracket {
            Bracket::Base => self.base = w,
            b => self.brackets[b as usize - 1] = Some(w),
        }
    }

    /// Reads a set from a `.json` file, or TOML for any other name (see [`WeightSet`]).
    pub fn load(path: impl AsRef<Path>) -> Result<WeightSet, WeightsError> {
        read_weights_file(path.as_ref(), WeightSet::from_json, WeightSet::from_toml)
    }

    /// Parses TOML text.
    pub fn from_toml(text: &str) -> Result<WeightSet, WeightsError> {
        WeightSet::from_file(toml::from_str(text).map_err(WeightsError::Toml)?)
    }

    /// Parses JSON text.
    pub fn from_json(text: &str) -> Result<WeightSet, WeightsError> {
        WeightSet::from_file(serde_json::from_str(text).map_err(WeightsError::Json)?)
    }

    fn from_file(file: FileSet) -> Result<WeightSet, WeightsError> {
        let base = file.base;
        // A table's fields override the base set's.
        let apply = |t: serde_json::Map<String, serde_json::Value>| {
            let mut v = serde_json::to_value(base).map_err(WeightsError::Json)?;
            if let Some(fields) = v.as_object_mut() {
                fields.extend(t);
            }
            serde_json::from_value::<Weights>(v).map_err(WeightsError::Json)
        };
        let over = |table: Option<_>| table.map(apply).transpose();
        let high_stack = match file.high_stack {
            None => None,
            Some(mut t) => {
                let height = t
                    .remove("from_height")
                    .and_then(|h| h.as_u64())
                    .filter(|h| (1..=20).contains(h))
                    .ok_or(WeightsError::HighStackHeight)?;
                Some(HighStack {
                    from_height: height as u8,
                    weights: apply(t)?,
                })
            }
        };
        Ok(WeightSet {
            base,
            brackets: [
                over(file.level19)?,
                over(file.level29)?,
                over(file.double_killscreen)?,
            ],
            high_stack,
        })
    }

    fn file(&self) -> FileSetOut<'_> {
        FileSetOut {
            base: &self.base,
            level19: self.brackets[0].as_ref(),
            level29: self.brackets[1].as_ref(),
            double_killscreen: self.brackets[2].as_ref(),
            high_stack: self.high_stack.as_ref().map(|d| HighStackOut {
                from_height: d.from_height,
                weights: &d.weights,
            }),
        }
    }

    /// Writes the set as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(&self.file()).expect("weights are plain numbers")
    }

    /// Writes the set as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.file()).expect("weights are plain numbers")
    }
}

impl Serialize for WeightSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.file().serialize(s)
    }
}

impl<'de> Deserialize<'de> for WeightSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<WeightSet, D::Error> {
        WeightSet::from_file(FileSet::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// What the evaluation needs to know beside the field.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// Highest column height a piece can pass over, per column, at this level and tap rate.
    pub reach: [u8; 10],
    /// The piece falls at a variant's double killscreen gravity (the risk table's choice:
    /// [`crate::risk::RiskTable::for_gravity`]).
    pub double: bool,
}

impl Context {
    /// The context at `level` for a player with `model`.
    pub fn new(region: Region, level: u8, model: &InputModel) -> Context {
        Context::with_rules(&crate::movegen::Rules::new(region, level), model)
    }

    /// The context for a piece falling by `rules` (a variant's killscreens included).
    pub fn with_rules(rules: &crate::movegen::Rules, model: &InputModel) -> Context {
        let speed = rules.speed as u32;
        let rows_a_frame = if rules.double { 2 } else { 1 };
        // A piece spawns with its pivot in column 5 and is a tap per column away from
        // column c (at least one), the taps as fast as the pattern allows; by then gravity
        // has taken it `frames / speed` rows down from row 0, and its lowest cells sit a
        // row below the pivot. Called for every field a search weighs placements on, and
        // every placement that clears rows: the five tap counts once each.
        let tap_frames = model.taps.first_taps::<5>();
        let by_taps = tap_frames.map(|f| {
            let fallen = (f + 1) * rows_a_frame / speed;
            18u32.saturating_sub(fallen).min(20) as u8
        });
        let reach =
            core::array::from_fn(|c| by_taps[(c as i32 - 5).unsigned_abs().max(1) as usize - 1]);
        Context {
            reach,
            double: rules.double,
        }
    }
}

/// Set bits of every 11-bit value: the rows' masks (shifted down past the left wall's
/// two outer bits) are counted with one load. The release build targets the x86-64
/// baseline, whose popcount is a dozen instructions, and the evaluation counts bits a
/// dozen times a field.
const ONES: [u8; 2048] = {
    let mut t = [0u8; 2048];
    let mut i = 0;
    while i < 2048 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The difference `d` of two heights `a` and `b` below 32 and its square, at
/// `a << 5 | b`, as `d | d * d << 16`: the eight pairs of neighbours outside the well
/// add up without a carry between the halves (at most 8 * 31 and 8 * 961).
const BUMPS: [u32; 1024] = {
    let mut t = [0u32; 1024];
    let mut i = 0;
    while i < 1024 {
        let d = ((i >> 5) as i32 - (i & 31) as i32).unsigned_abs();
        t[i] = d | (d * d) << 16;
        i += 1;
    }
    t
};

/// The set bits of a row mask's columns -1..=10 (bits 2..=12 of a row, shifted down by
/// two).
#[inline(always)]
fn ones(mask: u16) -> u32 {
    u32::from(ONES[usize::from(mask) & 0x7FF])
}

/// The features of a field, before weighting.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Column heights.
    pub heights: [u8; 10],
    /// Empty cells below their column's top.
    pub holes: u32,
    /// Rows with a hole.
    pub hole_rows: u32,
    /// Blocks above holes.
    pub covered: u32,
    /// Row transitions.
    pub row_transitions: u32,
    /// Column transitions.
    pub col_transitions: u32,
    /// Sum of neighbour differences outside the well.
    pub bumpiness: u32,
    /// Sum of squared neighbour differences outside the well.
    pub bumpiness_sq: u32,
    /// Sum of heights outside the well.
    pub height: u32,
    /// Highest column.
    pub max_height: u8,
    /// Depth beyond 2 of wells outside the tetris well.
    pub other_well: u32,
    /// Blocks in the tetris well above the lowest other column.
    pub well_blocked: u32,
    /// Rows ready for a vertical I in the well (full but for the well column), at most 4.
    pub ready_rows: u32,
    /// Ready rows beyond 4.
    pub excess_ready: u32,
    /// Squared excess height over what a tapped piece can pass.
    pub unreachable: u32,
}

impl Features {
    /// Measures `board`.
    pub fn of(board: &Board, ctx: &Context) -> Features {
        let mut f = Features::default();
        let mut h = [0u8; 10];
        // The rows above the highest block add nothing but the column transitions into
        // the first row with one (the floor's, on an empty field).
        let first = (0..20).find(|&r| board.row(r) != 0).unwrap_or(20);
        if first > 0 {
            f.col_transitions = ones((board.rows[first + TOP] & COLS) >> 2);
        }
        // Holes and row transitions, top to bottom. The blocks above each cell of a row
        // are counted per column in five bit-planes (bit k of every column's count in
        // plane k, at the column's bit): a row's blocks are added to all ten counts at
        // once, and a row's holes read them with a popcount per plane.
        let mut covered_cols: u16 = 0;
        let mut planes = [0u16; 5];
        for r in first..20 {
            let row = board.rows[r + TOP];
            let cells = row & COLS;
            let holes = covered_cols & !cells;
            if holes != 0 {
                f.holes += ones(holes >> 2);
                f.hole_rows += 1;
                f.covered += planes
                    .iter()
                    .enumerate()
                    .map(|(k, p)| ones((p & holes) >> 2) << k)
                    .sum::<u32>();
            }
            let mut carry = cells;
            for p in planes.iter_mut() {
                let sum = *p ^ carry;
                carry &= *p;
                *p = sum;
                if carry == 0 {
                    break;
                }
            }
            let mut tops = (cells & !covered_cols) >> 3;
            while tops != 0 {
                h[tops.trailing_zeros() as usize] = (20 - r) as u8;
                tops &= tops - 1;
            }
            covered_cols |= cells;
            f.row_transitions += row_transitions(row);
            let below = board.rows[r + TOP + 1];
            f.col_transitions += ones(((row ^ below) & COLS) >> 2);
        }
        f.height_terms(h, ctx);
        f.ready_terms(board);
        f
    }

    /// The terms that depend on the column heights alone: `heights`, `height`,
    /// `max_height`, `unreachable`, `bumpiness`, `bumpiness_sq`, `other_well` and
    /// `well_blocked`.
    #[inline(always)]
    fn height_terms(&mut self, h: [u8; 10], ctx: &Context) {
        let f = self;
        f.heights = h;
        // Heights outside the well, and above the player's reach. (Straight-line loops
        // over fixed sizes: the compiler vectorizes them.)
        let mut max_h = 0;
        for (&hc, &lim) in h.iter().zip(&ctx.reach) {
            max_h = max_h.max(hc);
            let e = u32::from(hc.saturating_sub(lim));
            f.unreachable += e * e;
        }
        f.height = h.iter().map(|&x| u32::from(x)).sum::<u32>() - u32::from(h[WELL]);
        f.max_height = max_h;
        const _: () = assert!(
            WELL == 9,
            "the loops below take the well as the last column"
        );
        // Both sums at once, a load a pair (`BUMPS`).
        let bumps: u32 = h[..WELL]
            .windows(2)
            .map(|pair| BUMPS[usize::from(pair[0] & 31) << 5 | usize::from(pair[1] & 31)])
            .sum();
        f.bumpiness = bumps & 0xFFFF;
        f.bumpiness_sq = bumps >> 16;
        // Wells outside the tetris well: the walls, and the tetris well, count as 20 high.
        let mut walled = [20u8; 11];
        walled[1..WELL + 1].copy_from_slice(&h[..WELL]);
        for w in walled.windows(3) {
            let depth = i32::from(w[0].min(w[2])) - i32::from(w[1]);
            f.other_well += (depth - 2).max(0) as u32;
        }
        let lowest_other = h[..WELL].iter().copied().min().unwrap_or(0);
        if h[WELL] > lowest_other {
            f.well_blocked = (h[WELL] - lowest_other) as u32;
        }
    }

    /// `ready_rows` and `excess_ready` of `board`, whose heights are in `self.heights`.
    #[inline(always)]
    fn ready_terms(&mut self, board: &Board) {
        self.ready_terms_with(|r| board.row(r));
    }

    /// [`Features::ready_terms`] of the field whose visible row r is `row(r)` (without
    /// the walls).
    #[inline(always)]
    fn ready_terms_with(&mut self, row: impl Fn(usize) -> u16) {
        // Rows above the well's top that are full but for the well.
        let full_but_well = COLS & !(1 << (WELL + 3));
        let well_top = 20 - self.heights[WELL] as usize;
        let mut r = well_top;
        let mut ready = 0;
        while r > 0 {
            r -= 1;
            if row(r) == full_but_well {
                ready += 1;
            } else {
                break;
            }
        }
        self.ready_rows = ready.min(4);
        self.excess_ready = ready.saturating_sub(4);
    }

    /// The weighted value of these features (line clears not included).
    #[inline]
    pub fn value(&self, w: &Weights) -> f32 {
        let danger = (self.max_height as f32 - w.danger_row).max(0.0);
        w.holes * self.holes as f32
            + w.hole_rows * self.hole_rows as f32
            + w.covered * self.covered as f32
            + w.row_transitions * self.row_transitions as f32
            + w.col_transitions * self.col_transitions as f32
            + w.bumpiness * self.bumpiness as f32
            + w.bumpiness_sq * self.bumpiness_sq as f32
            + w.height * self.height as f32
            + w.danger * danger * danger
            + w.other_well * self.other_well as f32
            + w.well_blocked * self.well_blocked as f32
            + w.ready_rows * self.ready_rows as f32
            + if self.ready_rows >= 4 {
                w.tetris_ready
            } else {
                0.0
            }
            + w.excess_ready * self.excess_ready as f32
            + w.unreachable * self.unreachable as f32
    }
}

/// The row transitions of a row: the changes between neighbours, the walls on both
/// sides counted as filled.
#[inline(always)]
fn row_transitions(row: u16) -> u32 {
    let w = (row | !COLS) & 0x3FFC; // columns -1..=10
    ones(((w ^ (w >> 1)) & 0x1FFC) >> 2)
}

/// The visible rows of a column mask: bit r for row r (0 at the top).
const FULL20: u32 = (1 << 20) - 1;

/// The set bits of a column mask, by two loads (see [`ONES`]).
#[inline(always)]
fn ones20(m: u32) -> u32 {
    u32::from(ONES[(m & 0x7FF) as usize]) + u32::from(ONES[(m >> 11) as usize & 0x7FF])
}

/// One column's share of the features summed over columns, from its cells (bit r for
/// row r).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Column {
    height: u8,
    /// The holes, bit r for row r.
    hole_mask: u32,
    holes: u32,
    covered: u32,
    /// Filled/empty changes down the column, the floor counted as filled.
    transitions: u32,
}

/// The [`Column`]s of a field, an array per term (a placement reads a few columns of
/// each, and copies the heights and hole masks whole).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Columns {
    heights: [u8; 10],
    hole_masks: [u32; 10],
    holes: [u32; 10],
    covered: [u32; 10],
    transitions: [u32; 10],
}

impl Column {
    #[inline(always)]
    fn of(m: u32) -> Column {
        let top = (m | 1 << 20).trailing_zeros();
        let hole_mask = !m & (FULL20 << top) & FULL20;
        // Blocks above each hole: holes are few, a load per hole.
        let mut covered = 0;
        let mut rest = hole_mask;
        while rest != 0 {
            covered += ones20(m & ((1 << rest.trailing_zeros()) - 1));
            rest &= rest - 1;
        }
        Column {
            height: (20 - top) as u8,
            hole_mask,
            holes: ones20(hole_mask),
            covered,
            transitions: ones20((m ^ (m >> 1 | 1 << 19)) & FULL20),
        }
    }
}

/// Per pivot row y (a [`Board::window`]'s first row): the top bit of each of its four
/// lanes whose row is one of the field's (rows `TOP..TOP + 20` of [`Board::rows`]).
const IN_FIELD: [u64; 32] = {
    let mut t = [0u64; 32];
    let mut y = 0;
    while y < 32 {
        let mut k = 0;
        while k < 4 {
            if y + k >= TOP && y + k < TOP + 20 {
                t[y] |= 0x8000 << (16 * k);
            }
            k += 1;
        }
        y += 1;
    }
    t
};

/// An orientation's cells by column, for [`Parent::child`].
#[derive(Clone, Copy)]
struct Shape {
    /// Per column it covers: its offset from the pivot's, and its cells (bit `dr + 2`
    /// for a cell `dr` rows from the pivot's).
    cols: [(i8, u8); 4],
    /// How many of `cols` are used.
    n: u8,
    /// The rows of its top and bottom cells, from the pivot's.
    top: i8,
    bottom: i8,
}

/// [`Shape`] of every orientation id.
const SHAPES: [Shape; 20] = {
    let mut t = [Shape {
        cols: [(0, 0); 4],
        n: 0,
        top: 0,
        bottom: 0,
    }; 20];
    let mut o = 0;
    while o < 20 {
        let s = &mut t[o];
        let mut k = 0;
        while k < 4 {
            let (dr, dc) = ORIENTATION_CELLS[o][k];
            assert!(
                dr >= -2 && dr <= 1,
                "cells two rows above to one below the pivot"
            );
            let bit = 1u8 << (dr + 2);
            let mut i = 0;
            while i < s.n as usize && s.cols[i].0 != dc {
                i += 1;
            }
            if i == s.n as usize {
                s.cols[i] = (dc, 0);
                s.n += 1;
            }
            s.cols[i].1 |= bit;
            if k == 0 || dr < s.top {
                s.top = dr;
            }
            if k == 0 || dr > s.bottom {
                s.bottom = dr;
            }
            k += 1;
        }
        o += 1;
    }
    t
};

/// A field measured once for the many placements searched on it: each placement's
/// [`Features`] then come from the few columns and rows its piece touches.
///
/// A placement that clears no row changes the field in its piece's cells alone: the
/// columns they are in (at most four) are measured again and the others' terms kept,
/// the rows they are in (at most four) give the row transitions' change, and the terms
/// of the heights are counted from the ten heights as [`Features::of`] counts them. (Kept
/// up to date between the piece's columns and their neighbours instead, they cost more,
/// measured: the ten heights are counted in straight lines without a branch.) A placement that
/// clears rows moves every row: it is measured whole. Either way the features are
/// [`Features::of`]'s, integer for integer, and so is their value.
#[derive(Clone, Copy, Debug)]
pub struct Parent {
    /// Each column's cells, bit r for row r.
    cols: [u32; 10],
    columns: Columns,
    holes: u32,
    covered: u32,
    col_transitions: u32,
    /// The context of the field's placements that clear no row.
    ctx: Context,
    /// The row transitions of each row.
    row_transitions: [u8; 20],
    /// The row transitions of rows r..20, for each r in 0..=20.
    rows_from: [u32; 21],
    /// The first row with a block (20 on an empty field).
    first: usize,
    /// The rows with a hole (bit r for row r), and how many.
    hole_union: u32,
    hole_rows: u32,
}

impl Parent {
    /// Measures `board`, whose placements that clear no row are weighed in `ctx`.
    pub fn new(board: &Board, ctx: &Context) -> Parent {
        let first = (0..20).find(|&r| board.row(r) != 0).unwrap_or(20);
        let mut cols = [0u32; 10];
        for r in first..20 {
            let mut bits = board.row(r) >> 3;
            while bits != 0 {
                cols[bits.trailing_zeros() as usize] |= 1 << r;
                bits &= bits - 1;
            }
        }
        let mut columns = Columns::default();
        for (c, &m) in cols.iter().enumerate() {
            let col = Column::of(m);
            columns.heights[c] = col.height;
            columns.hole_masks[c] = col.hole_mask;
            columns.holes[c] = col.holes;
            columns.covered[c] = col.covered;
            columns.transitions[c] = col.transitions;
        }
        let mut row_transitions = [0u8; 20];
        let mut rows_from = [0u32; 21];
        for r in (0..20).rev() {
            let t = self::row_transitions(board.rows[r + TOP]);
            row_transitions[r] = t as u8;
            rows_from[r] = rows_from[r + 1] + t;
        }
        let hole_union = columns.hole_masks.iter().fold(0, |a, &m| a | m);
        Parent {
            hole_union,
            hole_rows: ones20(hole_union),
            cols,
            columns,
            holes: columns.holes.iter().sum(),
            covered: columns.covered.iter().sum(),
            col_transitions: columns.transitions.iter().sum(),
            ctx: *ctx,
            row_transitions,
            rows_from,
            first,
        }
    }

    /// The features of `after`, this field with orientation `o` placed with its pivot at
    /// (x, y) ([`Board::place`]), if the placement cleared no row (`lines`, what `place`
    /// returned, is 0). `None` for a clear: its field is measured whole
    /// ([`Features::of`]), in the context after it (a clear may change the level).
    // Inlined into the search's leaf: as a call it returns the features through memory
    // (measured: 2% more instructions in a game).
    #[inline(always)]
    pub fn child(&self, after: &Board, lines: u32, o: u8, x: u8, y: u8) -> Option<Features> {
        if lines > 0 {
            return None;
        }
        Some(self.child_rows(|i| after.rows[i], |i| after.rows[i], o, x, y))
    }

    /// [`Parent::child`] of the placement of orientation `o` at (x, y) on `board`, the
    /// field this parent measured, without placing it: the piece's rows are read with its
    /// cells added. `None` when it completes a row (the caller places it and measures the
    /// field whole).
    #[inline(always)]
    pub fn child_on(&self, board: &Board, o: u8, x: u8, y: u8) -> Option<Features> {
        // The board's rows y..y+4 hold the piece's cells (`Board::place`'s rows), a
        // 16-bit lane each in a window (`Board::fits`'s).
        let y0 = usize::from(y);
        let piece = PIECE_MASKS[usize::from(o)] << x;
        let rows = board.window(y) | piece;
        let lane = |w: u64, k: usize| (w >> (16 * k)) as u16;
        // A row of the field that the piece completes (not one above or below it), the four
        // lanes at once: a lane's columns (bits 3..=12) plus 0x7FFF reach its top bit
        // unless they are all zero, and no lane carries into the next.
        const ADD: u64 = 0x7FFF_7FFF_7FFF_7FFF;
        const COLS4: u64 = COLS as u64 * 0x0001_0001_0001_0001;
        let full = !((!rows & COLS4) + ADD) & (piece + ADD) & IN_FIELD[y0 & 31];
        if full != 0 {
            return None;
        }
        Some(self.child_rows(
            |i| match i.wrapping_sub(y0) {
                k @ 0..4 => lane(rows, k),
                _ => board.rows[i],
            },
            // (The piece's own rows are the window's.)
            |i| lane(rows, i.wrapping_sub(y0) & 3),
            o,
            x,
            y,
        ))
    }

    /// [`Parent::child`] of the field whose row `i` (of `Board::rows`: walls, and two
    /// rows above the field first) is `row(i)`; `piece_row(i)` is `row(i)` for the rows
    /// the piece covers.
    #[inline(always)]
    fn child_rows(
        &self,
        row: impl Fn(usize) -> u16,
        piece_row: impl Fn(usize) -> u16,
        o: u8,
        x: u8,
        y: u8,
    ) -> Features {
        let old = &self.columns;
        let mut f = Features::default();
        let (mut holes, mut covered, mut col_transitions) =
            (self.holes, self.covered, self.col_transitions);
        let mut h = old.heights;
        let mut hole_masks = old.hole_masks;
        // The rows with a hole: the parent's and the new holes under the piece, unless a
        // column is measured again (a piece tucked in may fill a hole).
        let mut hole_union = self.hole_union;
        let mut again = false;
        let shape = &SHAPES[o as usize];
        for &(dc, bits) in &shape.cols[..shape.n as usize] {
            let c = (i32::from(x) + i32::from(dc)) as usize;
            // Rows above the field (a piece locked partly above it) are no column's.
            let b = (u32::from(bits) << y >> 2) & FULL20;
            if b == 0 {
                continue;
            }
            let top = 20 - u32::from(old.heights[c]);
            if b >> top == 0 {
                // Every cell above the column's top, as a piece that lands on it: the
                // cells between the piece's lowest and the top become holes, each with the
                // piece's cells (a run: every orientation's cells in a column are
                // consecutive) above it, as is each hole before. The transitions gain one
                // at the run's top (unless it is the field's top row); at its bottom, one
                // over a gap, and without one the old top's empty-to-block is gone.
                let (pt, pb) = (b.trailing_zeros(), 31 - b.leading_zeros());
                let k = pb - pt + 1;
                debug_assert_eq!(k, b.count_ones(), "a column's cells of a piece in a run");
                let gap = top - pb - 1;
                covered += k * (old.holes[c] + gap);
                col_transitions += u32::from(pt > 0);
                if gap > 0 {
                    holes += gap;
                    col_transitions += 1;
                    let gap_mask = ((1u32 << top) - 1) & !((2u32 << pb) - 1);
                    hole_masks[c] |= gap_mask;
                    hole_union |= gap_mask;
                } else {
                    col_transitions -= 1;
                }
                h[c] = (20 - pt) as u8;
            } else {
                let new = Column::of(self.cols[c] | b);
                holes = holes - old.holes[c] + new.holes;
                covered = covered - old.covered[c] + new.covered;
                col_transitions = col_transitions - old.transitions[c] + new.transitions;
                hole_masks[c] = new.hole_mask;
                h[c] = new.height;
                again = true;
            }
        }
        f.holes = holes;
        f.covered = covered;
        f.col_transitions = col_transitions;
        f.hole_rows = if again {
            ones20(hole_masks.iter().fold(0, |a, &m| a | m))
        } else if hole_union == self.hole_union {
            self.hole_rows
        } else {
            ones20(hole_union)
        };
        // Every row from the first with a block counts, empty or not; the piece's rows
        // are the only ones that changed, and the first row is its top one when that is
        // higher.
        let (top, bottom) = (
            i32::from(y) + i32::from(shape.top),
            (i32::from(y) + i32::from(shape.bottom)).min(19),
        );
        f.row_transitions = if bottom < 0 {
            self.rows_from[self.first]
        } else {
            let top = top.max(0) as usize;
            let mut t = self.rows_from[self.first.min(top)];
            for r in top..=bottom as usize {
                t = t - u32::from(self.row_transitions[r]) + row_transitions(piece_row(r + TOP));
            }
            t
        };
        f.height_terms(h, &self.ctx);
        f.ready_terms_with(|r| row(r + TOP) & COLS);
        f
    }
}

/// The value of clearing `lines` rows at once.
#[inline]
pub fn clear_value(w: &Weights, lines: u32) -> f32 {
    match lines {
        0 => 0.0,
        1..=3 => w.burn * lines as f32,
        _ => w.tetris,
    }
}

/// The value of a field.
#[inline]
pub fn evaluate(board: &Board, ctx: &Context, w: &Weights) -> f32 {
    let f = Features::of(board, ctx);
    f.value(w) + risk_value(&f, w, ctx.double)
}

/// The learned risk of the field whose features are `f`, weighed ([`Weights::risk`]; 0
/// without the table's work): the table of the double killscreen's gravity when `double`,
/// else the one-row-a-frame one. (The table's patterns are read from the features: the
/// field is not measured again.)
#[inline]
pub fn risk_value(f: &Features, w: &Weights, double: bool) -> f32 {
    if w.risk == 0.0 {
        0.0
    } else {
        let m = crate::risk::Measures::of_features(f);
        w.risk * crate::risk::RiskTable::for_gravity(double).of(&m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> Context {
        Context::new(Region::Ntsc, 18, &InputModel::hz30())
    }

    /// The measure written plainly, cell by cell and column by column: what
    /// `Features::of` must equal.
    fn reference(board: &Board, ctx: &Context) -> Features {
        let mut f = Features::default();
        let h = board.heights();
        f.heights = h;
        f.max_height = *h.iter().max().unwrap();
        for c in 0..10 {
            if c != WELL {
                f.height += h[c] as u32;
            }
            if h[c] > ctx.reach[c] {
                f.unreachable += ((h[c] - ctx.reach[c]) as u32).pow(2);
            }
            if c < WELL - 1 {
                let d = (h[c] as i32 - h[c + 1] as i32).unsigned_abs();
                f.bumpiness += d;
                f.bumpiness_sq += d * d;
            }
            if c != WELL {
                let left = if c == 0 { 20 } else { h[c - 1] };
                let right = if c + 1 == WELL { 20 } else { h[c + 1] };
                let depth = left.min(right) as i32 - h[c] as i32;
                if depth > 2 {
                    f.other_well += (depth - 2) as u32;
                }
            }
        }
        let lowest_other = *h[..WELL].iter().min().unwrap();
        f.well_blocked = h[WELL].saturating_sub(lowest_other) as u32;
        let mut ready = 0;
        for r in (0..20 - h[WELL] as usize).rev() {
            if (0..10).all(|c| board.filled(r, c) == (c != WELL)) {
                ready += 1;
            } else {
                break;
            }
        }
        f.ready_rows = ready.min(4);
        f.excess_ready = ready.saturating_sub(4);
        for (c, &hc) in h.iter().enumerate() {
            let mut above = 0;
            for r in 0..20 {
                if board.filled(r, c) {
                    above += 1;
                } else if r >= 20 - hc as usize {
                    f.holes += 1;
                    f.covered += above;
                }
            }
        }
        for r in 0..20 {
            let row: Vec<bool> = (0..10).map(|c| board.filled(r, c)).collect();
            if (0..10).any(|c| !row[c] && r >= 20 - h[c] as usize) {
                f.hole_rows += 1;
            }
            if h.iter().any(|&x| r >= 20 - x as usize) {
                let walled: Vec<bool> = std::iter::once(true)
                    .chain(row.iter().copied())
                    .chain(std::iter::once(true))
                    .collect();
                f.row_transitions += walled.windows(2).filter(|w| w[0] != w[1]).count() as u32;
            }
            for (c, &cell) in row.iter().enumerate() {
                let below = r == 19 || board.filled(r + 1, c);
                f.col_transitions += u32::from(cell != below);
            }
        }
        f
    }

    /// A field from `rows` (one per row, top first): the top `20 - height` rows empty, the
    /// others random, sparser for a lower `density` (more holes and overhangs), and never
    /// full (a board the search sees has had its full rows cleared).
    fn random_field(rows: &[u16], height: usize, density: u32) -> Board {
        let mut b = Board::empty();
        for (r, bits) in rows.iter().enumerate().skip(20 - height) {
            let mut bits = *bits;
            for _ in 0..density {
                bits |= bits.rotate_left(3) & 0x3FF;
            }
            b.rows[r + TOP] |= ((bits & 0x3FF).min(0x3FE)) << 3;
        }
        b
    }

    proptest::proptest! {
        #[test]
        fn features_equal_the_cell_by_cell_measure(
            rows in proptest::collection::vec(0u16..1024, 20),
            height in 0usize..=20,
            density in 0u32..4,
            ready in 0usize..7,
        ) {
            // The bottom `ready` rows full but for the well.
            let mut b = random_field(&rows, height, density);
            for r in 20 - ready..20 {
                b.rows[r + TOP] = crate::board::WALLS | 0x1FF << 3;
            }
            let ctx = ctx();
            proptest::prop_assert_eq!(Features::of(&b, &ctx), reference(&b, &ctx));
        }
    }

    proptest::proptest! {
        #[test]
        fn a_placement_measured_from_its_parent_is_measured_whole(
            rows in proptest::collection::vec(0u16..1024, 22),
            height in 0usize..=20,
            density in 0u32..4,
            ready in 0usize..7,
            o in 0u8..19,
            x in 0u8..10,
            y in 0u8..20,
            level in proptest::sample::select(vec![0u8, 18, 19, 29, 39]),
        ) {
            // Fields as above, with blocks in the two rows above the field too (a clear
            // brings them down into it), and rows full but for the well or one other
            // column, so that many placements clear rows.
            let mut b = random_field(&rows[..20], height, density);
            // (Sparser there: two random rows' common bits.)
            b.rows[0] |= (rows[20] & rows[0] & 0x3FF) << 3;
            b.rows[1] |= (rows[21] & rows[1] & 0x3FF) << 3;
            for (r, &bits) in rows.iter().enumerate().take(20).skip(20 - ready) {
                let hole = if bits & 1 == 0 { WELL } else { usize::from(bits >> 1) % 10 };
                b.rows[r + TOP] = crate::board::WALLS | (0x3FF & !(1 << hole)) << 3;
            }
            // Any orientation at any pivot that puts its cells in the columns and above
            // the floor (over blocks or not: `place` writes them either way).
            let cells = &ORIENTATION_CELLS[usize::from(o)];
            let dcs = cells.map(|c| i32::from(c.1));
            let (lo, hi) = (-*dcs.iter().min().unwrap(), 9 - *dcs.iter().max().unwrap());
            let x = (lo + i32::from(x) % (hi - lo + 1)) as u8;
            let max_dr = i32::from(cells.iter().map(|c| c.0).max().unwrap());
            let y = (i32::from(y) % (20 - max_dr)) as u8;
            // A clear weighs its field at the next level (a level-up's faster gravity).
            let ctx = Context::new(Region::Ntsc, level, &InputModel::hz30());
            let next = Context::new(Region::Ntsc, level + 1, &InputModel::hz30());
            let parent = Parent::new(&b, &ctx);
            let mut after = b;
            let lines = after.place(o, x, y);
            let whole = Features::of(&after, if lines > 0 { &next } else { &ctx });
            // What the search weighs: the parent's measure, or the whole field's after a clear.
            let child = parent
                .child(&after, lines, o, x, y)
                .unwrap_or_else(|| Features::of(&after, &next));
            proptest::prop_assert_eq!(lines > 0, parent.child(&after, lines, o, x, y).is_none());
            // The same features read from the field before the piece and its rows.
            proptest::prop_assert_eq!(parent.child_on(&b, o, x, y), parent.child(&after, lines, o, x, y));
            proptest::prop_assert_eq!(child, whole);
            for w in [Weights::default(), WeightSet::betatetris().base] {
                proptest::prop_assert_eq!(child.value(&w).to_bits(), whole.value(&w).to_bits());
            }
        }
    }

    #[test]
    fn every_placement_the_search_weighs_on_the_sample_fields_is_measured_whole() {
        // The fields and placements the search sees, clears among them.
        use crate::movegen::{MoveGen, Start};
        use nestris_core::tables::SPAWN_TABLE;
        let ctx = ctx();
        let mut gen = MoveGen::new();
        let (mut placements, mut clears) = (0, 0);
        for (_, board) in crate::bench::sample_boards() {
            let parent = Parent::new(&board, &ctx);
            for &spawn in &SPAWN_TABLE[..7] {
                gen.generate(
                    &Start::spawn(board, spawn, 18, Region::Ntsc),
                    &InputModel::hz30(),
                );
                for p in gen.placements() {
                    let mut after = board;
                    let lines = after.place(p.o, p.x, p.y);
                    let child = parent
                        .child(&after, lines, p.o, p.x, p.y)
                        .unwrap_or_else(|| Features::of(&after, &ctx));
                    assert_eq!(child, Features::of(&after, &ctx), "{p:?}");
                    assert_eq!(
                        parent.child_on(&board, p.o, p.x, p.y),
                        parent.child(&after, lines, p.o, p.x, p.y),
                        "{p:?}"
                    );
                    placements += 1;
                    clears += u32::from(lines > 0);
                }
            }
        }
        assert!(placements > 500 && clears > 0, "{placements} {clears}");
    }

    /// A piece that completes the bottom row (or the top one) is a clear for `child_on`
    /// as for `Board::place`; the rows below the field are not the field's.
    #[test]
    fn child_on_sees_the_first_and_last_rows_complete() {
        let ctx = ctx();
        // A vertical I (orientation 17, cells 2 above to 1 below its pivot) into the gap.
        let bottom = Board::from_text(&["#########."]);
        let parent = Parent::new(&bottom, &ctx);
        assert_eq!(parent.child_on(&bottom, 17, 9, 18), None);
        assert!(parent.child_on(&bottom, 17, 0, 17).is_some());
        let mut top = bottom;
        top.rows[TOP] = crate::board::WALLS | 0x1FF << 3;
        let parent = Parent::new(&top, &ctx);
        let mut after = top;
        assert_eq!(after.place(17, 9, 2), 1);
        assert_eq!(parent.child_on(&top, 17, 9, 2), None);
    }

    #[test]
    fn holes_and_ready_rows_are_counted() {
        let b = Board::from_text(&[
            "..#.......", //
            ".........",  //
            "#########.", //
            "#########.",
            "#########.",
            "#########.",
        ]);
        let f = Features::of(&b, &ctx());
        assert_eq!(f.holes, 1);
        assert_eq!(f.hole_rows, 1);
        assert_eq!(f.covered, 1);
        assert_eq!(f.ready_rows, 4);
        assert_eq!(f.heights[2], 6);
    }

    #[test]
    fn weights_round_trip_through_toml_and_json() {
        let w = Weights::default();
        assert_eq!(Weights::from_toml(&w.to_toml()).unwrap(), w);
        let json = serde_json::to_string(&w).unwrap();
        assert_eq!(serde_json::from_str::<Weights>(&json).unwrap(), w);
        // Missing fields keep their defaults.
        let partial = Weights::from_toml("holes = -1.5\n").unwrap();
        assert_eq!(partial.holes, -1.5);
        assert_eq!(partial.tetris, w.tetris);
    }

    #[test]
    fn the_array_view_round_trips() {
        let w = Weights::default();
        let a = w.to_array();
        assert_eq!(a[0], w.holes);
        assert_eq!(a[Weights::COUNT - 1], w.tetris);
        assert_eq!(Weights::from_array(a), w);
        assert_eq!(Weights::NAMES[0], "holes");
        // Every field is in the list: the TOML form has the same names.
        let toml = w.to_toml();
        for name in Weights::NAMES {
            assert!(toml.contains(&format!("{name} = ")), "{name}");
        }
        assert_eq!(
            toml.lines().filter(|l| l.contains(" = ")).count(),
            Weights::COUNT
        );
    }

    #[test]
    fn the_risk_weight_adds_the_table_and_is_written_only_when_set() {
        let w = Weights::default();
        let with = Weights { risk: -75.0, ..w };
        let board = crate::bench::sample_boards()[2].1;
        let risk = crate::risk::RiskTable::builtin().of_board(&board);
        assert_ne!(risk, 0.0);
        let (plain, weighed) = (
            evaluate(&board, &ctx(), &w),
            evaluate(&board, &ctx(), &with),
        );
        assert!(
            (weighed - (plain - 75.0 * risk)).abs() < 1e-3,
            "{weighed} {plain} {risk}"
        );
        // Not tuned, not written at 0: the files of before are written as they were.
        assert_eq!(Weights::from_array(with.to_array()), w);
        assert!(!w.to_toml().contains("risk"));
        assert!(with.to_toml().contains("risk = -75"));
        assert_eq!(Weights::from_toml(&with.to_toml()).unwrap(), with);
        let set = WeightSet::from_toml("[level29]\nrisk = -75.0\n").unwrap();
        assert_eq!(set.get(Bracket::Level29).risk, -75.0);
        assert_eq!(set.get(Bracket::Base).risk, 0.0);
        assert_eq!(WeightSet::from_toml(&set.to_toml()).unwrap(), set);
    }

    #[test]
    fn the_format_s_set_weighs_the_risk_from_29() {
        let beta = WeightSet::betatetris();
        // From level 29 the learned risk tables, weighed as chosen (docs/AI.md); before it
        // none.
        assert_eq!(beta.get(Bracket::Level29).risk, -75.0);
        assert_eq!(beta.get(Bracket::DoubleKillscreen).risk, -150.0);
        for b in [Bracket::Base, Bracket::Level19] {
            assert_eq!(beta.get(b).risk, 0.0, "{b:?}");
        }
        assert!(beta.high_stack.is_some_and(|h| h.weights.risk == 0.0));
        // The double killscreen's set is the one it had before the risk was weighed.
        let dks = Weights {
            risk: 0.0,
            ..*beta.get(Bracket::DoubleKillscreen)
        };
        assert_ne!(dks, *beta.get(Bracket::Level29));
        assert_eq!(WeightSet::from_toml(&beta.to_toml()).unwrap(), beta);
    }

    #[test]
    fn the_shipped_15_hz_weights_load() {
        let w = Weights::from_toml(include_str!("../weights/hz15.toml")).unwrap();
        assert_ne!(w, Weights::default());
        // Every field is given in the file (none left at its default).
        let text = include_str!("../weights/hz15.toml");
        for name in Weights::NAMES {
            assert!(text.contains(&format!("\n{name} = ")), "{name}");
        }
    }

    #[test]
    fn reach_shrinks_with_gravity() {
        let m = InputModel::hz30();
        let l18 = Context::new(Region::Ntsc, 18, &m);
        let l29 = Context::new(Region::Ntsc, 29, &m);
        assert!(l29.reach[0] < l18.reach[0]);
        assert!(l29.reach[5] <= l18.reach[5]);
    }

    #[test]
    fn a_clean_tetris_board_beats_one_with_a_hole() {
        let w = Weights::default();
        let clean = Board::from_text(&["#########.", "#########."]);
        let holed = Board::from_text(&["#########.", "####.####."]);
        assert!(evaluate(&clean, &ctx(), &w) > evaluate(&holed, &ctx(), &w));
    }

    #[test]
    fn a_set_with_brackets_parses_and_round_trips() {
        let text = "holes = -5.0\ntetris = 20.0\n\n[double_killscreen]\ntetris = 3.0\n\n[level29]\nburn = -1.0\n";
        let set = WeightSet::from_toml(text).unwrap();
        assert_eq!(set.base.holes, -5.0);
        assert_eq!(set.base.burn, Weights::default().burn);
        assert_eq!(set.brackets[0], None, "no [level19] table");
        let ks2 = set.get(Bracket::DoubleKillscreen);
        // The table's field, and the base set's for the others.
        assert_eq!((ks2.tetris, ks2.holes), (3.0, -5.0));
        let l29 = set.get(Bracket::Level29);
        assert_eq!((l29.burn, l29.tetris), (-1.0, 20.0));
        assert_eq!(set.get(Bracket::Level19), &set.base);
        assert_eq!(WeightSet::from_toml(&set.to_toml()).unwrap(), set);
        assert_eq!(WeightSet::from_json(&set.to_json()).unwrap(), set);
        assert!(set.to_toml().contains("[double_killscreen]"));
        assert!(!set.to_toml().contains("[level19]"));
        // A bad value in a bracket is an error, not a default.
        assert!(WeightSet::from_toml("[level19]\nholes = \"x\"\n").is_err());
    }

    #[test]
    fn the_bracket_follows_level_and_gravity() {
        assert_eq!(Bracket::of(18, false), Bracket::Base);
        assert_eq!(Bracket::of(19, false), Bracket::Level19);
        assert_eq!(Bracket::of(28, false), Bracket::Level19);
        assert_eq!(Bracket::of(29, false), Bracket::Level29);
        assert_eq!(
            Bracket::of(39, false),
            Bracket::Level29,
            "no variant's rule"
        );
        assert_eq!(Bracket::of(39, true), Bracket::DoubleKillscreen);
        assert_eq!(
            Bracket::of(18, true),
            Bracket::DoubleKillscreen,
            "gravity decides"
        );
        for b in Bracket::ALL {
            assert_eq!(Bracket::from_name(b.name()), Some(b));
        }
        let mut set = WeightSet::default();
        let w = Weights {
            tetris: 1.0,
            ..Weights::default()
        };
        set.set(Bracket::DoubleKillscreen, w);
        assert_eq!(set.get(Bracket::DoubleKillscreen).tetris, 1.0);
        assert_eq!(set.get(Bracket::Level29), &Weights::default());
    }

    #[test]
    fn old_files_load_as_sets_without_brackets() {
        let text = include_str!("../weights/hz15.toml");
        let set = WeightSet::from_toml(text).unwrap();
        assert_eq!(set, WeightSet::from(Weights::from_toml(text).unwrap()));
        let json = serde_json::to_string(&Weights::default()).unwrap();
        assert_eq!(WeightSet::from_json(&json).unwrap(), WeightSet::default());
        // The built-in set of the betatetris format: a set of its own in every bracket.
        let beta = WeightSet::betatetris();
        assert_ne!(beta.base, Weights::default());
        for b in [0, 1, 2] {
            assert!(beta.brackets[b].is_some_and(|w| w != Weights::default() && w != beta.base));
        }
    }

    #[test]
    fn a_high_stack_set_parses_round_trips_and_applies_before_29() {
        let text = "holes = -1.0\n\n[high_stack]\nfrom_height = 12\nholes = -9.0\n";
        let set = WeightSet::from_toml(text).unwrap();
        let high = set.high_stack.expect("the table read");
        assert_eq!(high.from_height, 12);
        assert_eq!(high.weights.holes, -9.0);
        // The fields it leaves out are the base set's.
        assert_eq!(high.weights.tetris, set.base.tetris);
        assert_eq!(WeightSet::from_toml(&set.to_toml()).unwrap(), set);
        assert_eq!(WeightSet::from_json(&set.to_json()).unwrap(), set);
        assert_eq!(set.for_position(Bracket::Base, 11), &set.base);
        assert_eq!(set.for_position(Bracket::Base, 12), &high.weights);
        assert_eq!(set.for_position(Bracket::Level19, 20), &high.weights);
        for b in [Bracket::Level29, Bracket::DoubleKillscreen] {
            assert_eq!(set.for_position(b, 20), set.get(b));
        }
        for bad in [
            "[high_stack]\nholes = 1.0\n",
            "[high_stack]\nfrom_height = 0\n",
            "[high_stack]\nfrom_height = 21\n",
            "[high_stack]\nfrom_height = \"ten\"\n",
        ] {
            let e = WeightSet::from_toml(bad).unwrap_err();
            assert!(e.to_string().contains("from_height"), "{bad}: {e}");
        }
        // The betatetris format's: the default set with twice its danger, from 10 rows.
        assert_eq!(
            WeightSet::betatetris().high_stack,
            Some(HighStack {
                from_height: 10,
                weights: Weights {
                    danger: -10.0,
                    ..Weights::default()
                }
            })
        );
    }
}
