//! Rules that are not the cartridge's, as game-setup options: TetrisGYM's seeded pieces
//! and line caps (the formats the community plays bots and races on), and two of its
//! trainers, the drought and DAS-only.
//!
//! A [`Variant`] is part of the save state ([`crate::Snapshot::variant`]) and of a replay,
//! so a variant game replays as it was played. [`Variant::CARTRIDGE`] (the default) is the
//! cartridge itself; every other value is labelled a variant wherever it is shown
//! ([`Variant::label`]). A variant game counts no CPU cycles (its lag frames and crashes
//! are the cartridge's, and TetrisGYM's ROM spends its cycles elsewhere): the clock is
//! unknown from the start, as with [`crate::CrashMode::Off`].
//!
//! **Seeds.** TetrisGYM's seed mode deals from a generator of its own instead of the
//! cartridge's `rng_seed`: three bytes entered on its menu (six hex digits), copied at game
//! init into a second LFSR (the first two bytes, stepped as the cartridge steps its own)
//! and a pick counter (the third byte). Before each pick that LFSR steps `n + 3` times,
//! where `n` is the high nibble of the third byte as entered (16 when it is 0; TetrisGYM
//! v5 and v6, its "SPSv3"); v4 ("SPSv2") steps it once when the nibble is 0. The pick is
//! then the cartridge's own picker (`pickRandomTetrimino`) on that LFSR and counter,
//! re-roll and bias included. The same seed gives the same pieces in TetrisGYM and here.
//!
//! **Line caps.** At a level or a line count the rules change: [`CapRule::Ks`] gravity of
//! one row a frame (the level-29 killscreen), [`CapRule::KsX2`] two rows a frame (the piece
//! update's drop runs twice with the gravity timer full before its own drop, as TetrisGYM's
//! does), [`CapRule::Halt`] the game ends when the clear that reaches the cap has been
//! scored (the curtain, as a top-out). BetaTetris's format is double killscreen at level
//! 39 and a halt at level 49 (430 lines from level 18): [`Variant::betatetris`].
//!
//! **Drought.** TetrisGYM's drought modifier (0-18) makes I pieces rarer: when the picker
//! deals an I, it may pick again ([`drought_repicks`]), as often as the modifier says; at
//! 18 no I is dealt. **DAS-only**: taps and rolls do not move the piece, auto-shift does
//! ([`crate::das_only`]; its counters live here, in the state).

use crate::das_only::DasOnly;
use crate::lfsr::{lfsr_step, pick_piece};

/// Which TetrisGYM version's seed rule ("SPS" version) deals the pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum SeedRule {
    /// TetrisGYM v4 (SPSv2): a seed whose third byte's high nibble is 0 steps once a pick.
    V4,
    /// TetrisGYM v5 and v6 (SPSv3): such a seed steps 19 times a pick.
    #[default]
    V5,
}

/// A TetrisGYM seed and its generator's state.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GymSeed {
    /// The seed as entered (`set_seed_input`): six hex digits, most significant byte first.
    pub input: [u8; 3],
    /// The generator now (`set_seed`): the LFSR's two bytes (high first), then the pick
    /// counter.
    pub state: [u8; 3],
    /// The version whose stepping rule applies.
    pub rule: SeedRule,
}

impl GymSeed {
    /// The seed `value` (0..=0xFFFFFF, as TetrisGYM shows it: `123456`) before its first
    /// pick. `None` above 24 bits.
    pub const fn new(value: u32, rule: SeedRule) -> Option<GymSeed> {
        if value > 0xFF_FFFF {
            return None;
        }
        let input = [(value >> 16) as u8, (value >> 8) as u8, value as u8];
        Some(GymSeed {
            input,
            state: input,
            rule,
        })
    }

    /// The seed as a number (what [`GymSeed::new`] took).
    pub const fn value(&self) -> u32 {
        (self.input[0] as u32) << 16 | (self.input[1] as u32) << 8 | self.input[2] as u32
    }

    /// LFSR steps before each pick.
    const fn steps(&self) -> u8 {
        match (self.input[2] >> 4, self.rule) {
            (0, SeedRule::V4) => 1,
            (0, SeedRule::V5) => 16 + 3,
            (n, _) => n + 3,
        }
    }

    /// `pickTetriminoSeed`: the next piece's spawn orientation id after `spawn_id` (the
    /// last pick's, 0 at game start).
    pub fn pick(&mut self, spawn_id: u8) -> u8 {
        let mut rng = (self.state[0] as u16) << 8 | self.state[1] as u16;
        for _ in 0..self.steps() {
            rng = lfsr_step(rng);
        }
        let p = pick_piece(rng, self.state[2], spawn_id);
        self.state = [(p.rng >> 8) as u8, p.rng as u8, p.spawn_count];
        p.piece
    }
}

/// The line count a cap compares with, from the cartridge's BCD line bytes (low byte,
/// hundreds byte).
pub const fn cap_lines(lines: [u8; 2]) -> u16 {
    let n = crate::bcd::lines_value(lines);
    if n > u16::MAX as u32 {
        u16::MAX
    } else {
        n as u16
    }
}

/// When a line cap takes effect.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum CapAt {
    /// From this level on.
    Level(u8),
    /// From this many lines on.
    Lines(u16),
}

/// What a line cap does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum CapRule {
    /// Killscreen: gravity one row a frame (level 29's) whatever the level.
    Ks,
    /// Double killscreen: two rows a frame.
    KsX2,
    /// The game ends (the curtain) once the clear that reached the cap is scored.
    Halt,
}

/// One line cap: a rule from a level or line count on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LineCap {
    /// When.
    pub at: CapAt,
    /// What.
    pub rule: CapRule,
}

impl LineCap {
    /// True when the cap applies at `level` with `lines` cleared.
    pub const fn reached(&self, level: u8, lines: u16) -> bool {
        match self.at {
            CapAt::Level(l) => level >= l,
            CapAt::Lines(n) => lines >= n,
        }
    }
}

/// The rules of a game where they are not the cartridge's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Variant {
    /// Pieces from a TetrisGYM seed instead of the cartridge's generator.
    #[cfg_attr(feature = "serde", serde(default))]
    pub seed: Option<GymSeed>,
    /// Up to two line caps (BetaTetris's format has two).
    #[cfg_attr(feature = "serde", serde(default))]
    pub caps: [Option<LineCap>; 2],
    /// TetrisGYM's drought modifier (0 off, up to [`DROUGHT_MAX`]: fewer I pieces the
    /// higher it is; see [`drought_repicks`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub drought: u8,
    /// TetrisGYM's DAS-only mode and its tap counters (see [`crate::das_only`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub das_only: Option<DasOnly>,
}

/// Length of [`Variant::encode`]'s longest layout (version 2); version 1 is
/// [`VARIANT_V1_LEN`] bytes.
pub const VARIANT_LEN: usize = VARIANT_V1_LEN + 8;

/// Length of layout version 1 (a seed and two caps).
pub const VARIANT_V1_LEN: usize = 1 + 7 + 2 * 4;

/// The highest drought modifier TetrisGYM's menu offers (shown there as `I`: no I piece
/// at all).
pub const DROUGHT_MAX: u8 = 18;

/// `pickTetriminoDrought` (TetrisGYM): whether a pick that dealt an I is picked again,
/// under drought `modifier` with `rng_low` the generator's second byte (`rng_seed+1`)
/// after the pick. TetrisGYM adds its low nibble and 2 (`adc #1` with the carry its
/// `cmp #$12` left set) and picks again when that is below the modifier in a signed
/// 8-bit compare (`bmi`): for modifier `m`, `m - 2` of the 16 nibbles (up to all of
/// them from 18) re-pick, so the share of I pieces falls as `m` rises and is 0 at 18.
#[inline]
pub const fn drought_repicks(modifier: u8, rng_low: u8) -> bool {
    let a = (rng_low & 0x0F) + 2;
    a.wrapping_sub(modifier) & 0x80 != 0
}

/// Picks past the first a drought may take to deal one piece: the cartridge's picker
/// moves on every pick (its counter or its generator), and every state reaches a piece
/// other than an I in fewer picks than this (`variant::tests` tries every state); the
/// bound only keeps the engine's loop finite whatever the state.
pub const DROUGHT_MAX_REPICKS: u32 = 64;

impl Variant {
    /// The cartridge's own rules.
    pub const CARTRIDGE: Variant = Variant {
        seed: None,
        caps: [None, None],
        drought: 0,
        das_only: None,
    };

    /// BetaTetris's format around `seed` (a TetrisGYM v5 seed): double killscreen from
    /// level 39, the game halted at level 49.
    pub const fn betatetris(seed: Option<GymSeed>) -> Variant {
        Variant {
            seed,
            caps: [
                Some(LineCap {
                    at: CapAt::Level(39),
                    rule: CapRule::KsX2,
                }),
                Some(LineCap {
                    at: CapAt::Level(49),
                    rule: CapRule::Halt,
                }),
            ],
            drought: 0,
            das_only: None,
        }
    }

    /// True for the cartridge's own rules.
    pub const fn is_cartridge(&self) -> bool {
        self.seed.is_none()
            && self.caps[0].is_none()
            && self.caps[1].is_none()
            && self.drought == 0
            && self.das_only.is_none()
    }

    /// The strongest gravity rule in force at `level` with `lines` (`None`: the table's).
    pub fn gravity_rule(&self, level: u8, lines: u16) -> Option<CapRule> {
        let mut rule = None;
        for cap in self.caps.iter().flatten() {
            if cap.reached(level, lines) {
                match cap.rule {
                    CapRule::KsX2 => return Some(CapRule::KsX2),
                    CapRule::Ks => rule = Some(CapRule::Ks),
                    CapRule::Halt => {}
                }
            }
        }
        rule
    }

    /// How a piece falls at `level` with `lines` (the cartridge's BCD bytes) in `region`:
    /// frames a row, and whether the drop routine runs the double killscreen's two extra
    /// passes ([`CapRule::KsX2`]; they use the table's speed).
    #[inline]
    pub fn gravity(&self, region: crate::Region, level: u8, lines: [u8; 2]) -> (u8, bool) {
        let speed = region.gravity(level);
        // By pattern: the derived `==` on the caps is an out-of-line call on every frame.
        if matches!(self.caps, [None, None]) {
            return (speed, false);
        }
        self.capped_gravity(speed, level, lines)
    }

    /// [`Variant::gravity`] under a line cap (out of the cartridge's frames' way).
    #[inline(never)]
    fn capped_gravity(&self, speed: u8, level: u8, lines: [u8; 2]) -> (u8, bool) {
        match self.gravity_rule(level, cap_lines(lines)) {
            Some(CapRule::Ks) => (1, false),
            Some(CapRule::KsX2) => (speed, true),
            Some(CapRule::Halt) | None => (speed, false),
        }
    }

    /// True when a halting cap is reached at `level` with `lines`.
    pub fn halts(&self, level: u8, lines: u16) -> bool {
        self.caps
            .iter()
            .flatten()
            .any(|c| c.rule == CapRule::Halt && c.reached(level, lines))
    }

    /// A short label for screens and reports: `cartridge`, or the variant's parts
    /// (`gym-v5 seed 1A2B3C, ksx2@39, halt@49`).
    pub fn label(&self) -> Label {
        let mut out = Label::new();
        if self.is_cartridge() {
            out.push_str("cartridge");
            return out;
        }
        if let Some(s) = self.seed {
            out.next_part();
            out.push_str(match s.rule {
                SeedRule::V4 => "gym-v4 seed ",
                SeedRule::V5 => "gym-v5 seed ",
            });
            out.push_hex(s.value(), 6);
        }
        for cap in self.caps.iter().flatten() {
            out.next_part();
            out.push_str(match cap.rule {
                CapRule::Ks => "ks@",
                CapRule::KsX2 => "ksx2@",
                CapRule::Halt => "halt@",
            });
            match cap.at {
                CapAt::Level(l) => out.push_dec(l as u32),
                CapAt::Lines(n) => {
                    out.push_dec(n as u32);
                    out.push_str("lines");
                }
            }
        }
        if self.drought != 0 {
            out.next_part();
            out.push_str("drought ");
            out.push_dec(self.drought as u32);
        }
        if self.das_only.is_some() {
            out.next_part();
            out.push_str("das-only");
        }
        out
    }

    /// The rules a screen names besides the seed (which screens show as six digits of its
    /// own), in upper case and as few words as say them: `KS 130` (from 130 lines), `KSX2`
    /// (from the start), `KSX2 LV39` (from level 39), `HALT 100`, `DROUGHT 7`, `DAS ONLY`,
    /// parts joined by `, `. Empty for the cartridge's rules and for a seed alone.
    pub fn screen_label(&self) -> Label {
        let mut out = Label::new();
        for cap in self.caps.iter().flatten() {
            out.next_part();
            out.push_str(match cap.rule {
                CapRule::Ks => "KS",
                CapRule::KsX2 => "KSX2",
                CapRule::Halt => "HALT",
            });
            match cap.at {
                CapAt::Level(0) | CapAt::Lines(0) => {}
                CapAt::Level(l) => {
                    out.push_str(" LV");
                    out.push_dec(l as u32);
                }
                CapAt::Lines(n) => {
                    out.push(b' ');
                    out.push_dec(n as u32);
                }
            }
        }
        if self.drought != 0 {
            out.next_part();
            out.push_str("DROUGHT ");
            out.push_dec(self.drought as u32);
        }
        if self.das_only.is_some() {
            out.next_part();
            out.push_str("DAS ONLY");
        }
        out
    }

    /// The variant's bytes (for replays and the state hash): layout version 1
    /// ([`VARIANT_V1_LEN`] bytes: a seed, two caps) when that holds it, else version 2
    /// ([`VARIANT_LEN`]: version 1's fields, then the drought and DAS-only). Writing the
    /// oldest layout that holds a variant keeps the bytes, and so the state hashes, of
    /// every game the older layout could hold: their replays verify as they did.
    pub fn encode(&self) -> VariantBytes {
        let mut b = [0u8; VARIANT_LEN];
        b[0] = 1;
        if let Some(s) = self.seed {
            b[1] = match s.rule {
                SeedRule::V4 => 1,
                SeedRule::V5 => 2,
            };
            b[2..5].copy_from_slice(&s.input);
            b[5..8].copy_from_slice(&s.state);
        }
        for (i, cap) in self.caps.iter().enumerate() {
            let at = 8 + 4 * i;
            if let Some(c) = cap {
                let (kind, value) = match c.at {
                    CapAt::Level(l) => (1, l as u16),
                    CapAt::Lines(n) => (2, n),
                };
                let rule = match c.rule {
                    CapRule::Ks => 1,
                    CapRule::KsX2 => 2,
                    CapRule::Halt => 3,
                };
                b[at] = kind << 4 | rule;
                b[at + 1..at + 3].copy_from_slice(&value.to_le_bytes());
            }
        }
        if self.drought == 0 && self.das_only.is_none() {
            return VariantBytes {
                buf: b,
                len: VARIANT_V1_LEN,
            };
        }
        b[0] = 2;
        b[16] = self.drought;
        if let Some(d) = self.das_only {
            b[17] = 1;
            b[18..24].copy_from_slice(&d.encode());
        }
        VariantBytes {
            buf: b,
            len: VARIANT_LEN,
        }
    }

    /// The length of the layout whose version byte is `version` (the block's first
    /// byte), `None` for a version this program does not know.
    pub const fn encoded_len(version: u8) -> Option<usize> {
        match version {
            1 => Some(VARIANT_V1_LEN),
            2 => Some(VARIANT_LEN),
            _ => None,
        }
    }

    /// Reads [`Variant::encode`]'s bytes (either layout); `None` when they are not a
    /// variant's, or not the layout [`Variant::encode`] writes for it.
    pub fn decode(b: &[u8]) -> Option<Variant> {
        let version = *b.first()?;
        if Some(b.len()) != Variant::encoded_len(version) {
            return None;
        }
        let seed = match b[1] {
            0 if b[2..8] == [0; 6] => None,
            1 | 2 => Some(GymSeed {
                input: [b[2], b[3], b[4]],
                state: [b[5], b[6], b[7]],
                rule: if b[1] == 1 {
                    SeedRule::V4
                } else {
                    SeedRule::V5
                },
            }),
            _ => return None,
        };
        let mut caps = [None, None];
        for (i, cap) in caps.iter_mut().enumerate() {
            let at = 8 + 4 * i;
            let value = u16::from_le_bytes([b[at + 1], b[at + 2]]);
            if b[at + 3] != 0 {
                return None;
            }
            *cap = match (b[at] >> 4, b[at] & 15) {
                (0, 0) if value == 0 => None,
                (kind @ (1 | 2), rule @ 1..=3) => Some(LineCap {
                    at: if kind == 1 {
                        CapAt::Level(u8::try_from(value).ok()?)
                    } else {
                        CapAt::Lines(value)
                    },
                    rule: match rule {
                        1 => CapRule::Ks,
                        2 => CapRule::KsX2,
                        _ => CapRule::Halt,
                    },
                }),
                _ => return None,
            };
        }
        let mut v = Variant {
            seed,
            caps,
            ..Variant::CARTRIDGE
        };
        if version == 2 {
            v.drought = b[16];
            v.das_only = match b[17] {
                0 if b[18..24] == [0; 6] => None,
                1 => Some(DasOnly::decode(&b[18..24])?),
                _ => return None,
            };
            if v.drought > DROUGHT_MAX || (v.drought == 0 && v.das_only.is_none()) {
                return None;
            }
        }
        Some(v)
    }
}

/// [`Variant::encode`]'s bytes: [`VARIANT_V1_LEN`] or [`VARIANT_LEN`] of them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct VariantBytes {
    buf: [u8; VARIANT_LEN],
    len: usize,
}

impl core::ops::Deref for VariantBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// A short text kept in place (the core does not allocate): up to 64 ASCII bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Label {
    buf: [u8; 64],
    len: usize,
}

impl Label {
    const fn new() -> Label {
        Label {
            buf: [0; 64],
            len: 0,
        }
    }

    fn push(&mut self, b: u8) {
        if self.len < self.buf.len() {
            self.buf[self.len] = b;
            self.len += 1;
        }
    }

    /// Separates the next part from the ones before it, if any.
    fn next_part(&mut self) {
        if self.len > 0 {
            self.push_str(", ");
        }
    }

    fn push_str(&mut self, s: &str) {
        s.bytes().for_each(|b| self.push(b));
    }

    fn push_hex(&mut self, v: u32, digits: u32) {
        for i in (0..digits).rev() {
            self.push(b"0123456789ABCDEF"[(v >> (4 * i)) as usize & 15]);
        }
    }

    fn push_dec(&mut self, v: u32) {
        if v >= 10 {
            self.push_dec(v / 10);
        }
        self.push(b'0' + (v % 10) as u8);
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl core::fmt::Display for Label {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl crate::Game {
    /// Plays the next games under `variant` (a front end's seed entry on the level menu,
    /// as TetrisGYM's). A seed takes effect at the next game's init, which copies it into
    /// the generator; set it outside a game. A variant counts no cycles from here on (see
    /// the module doc); back to [`Variant::CARTRIDGE`], the next game's start counts them
    /// again as a game entered through the menus does.
    pub fn set_variant(&mut self, variant: Variant) {
        self.s.variant = variant;
        if !variant.is_cartridge() {
            self.s.clock.known = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::ORIENTATION_TYPE;

    /// The piece letters of the first `n` picks of `seed`.
    fn letters(seed: u32, rule: SeedRule, n: usize) -> String {
        let mut g = GymSeed::new(seed, rule).unwrap();
        let mut spawn_id = 0;
        (0..n)
            .map(|_| {
                spawn_id = g.pick(spawn_id);
                b"TJZOSLI"[ORIENTATION_TYPE[spawn_id as usize] as usize] as char
            })
            .collect()
    }

    /// TetrisGYM's own test of its seed mode (`tests/src/sps.rs`), which runs
    /// `pickTetriminoSeed` in an emulator on the ROM: these are its expected sequences.
    #[test]
    fn seeds_deal_what_tetrisgym_deals() {
        let cases: [(u32, &str); 4] = [
            (0x101010, "ZJOTLTZJLZJSZISIJOLITJSILZJILITSISZOITIZSZJLLTIOZJZSZISIJZTIZJTSOJSJISJOOTSJTOTZSZTZSLTZTOTSIZJZIJIL"),
            (0x123456, "ZTZIJIJOZTSOSZJZOSLIOIJIJSTZSTTJISSTOIZJITJOZJITSOSZSJLTISJOITTLSLJTZTZOZSLJTJZSLTSOTLOJLSJSJTJILOJS"),
            (0x87AB12, "OZIJSOTZSJTSTJZLOLJOJISOZOIOZJITILSSJZLOIJSTITLSOJILTSOOLZOOIJOZLTLSISIJIJTOLSIJILSLOLJLTOSOSLOIZSIS"),
            (0x133702, "OJSTZSIOLSIJTSZILJZJJLZLISISJTLZTSZTJOJOSJSZLITJOIOTITILTOSTJSZTSOOIOJSIITLJOZSIOJOTZTLJLIOJLITSSLSLIJIIOLOISLZJLIJJTIZIJOJISLTIJTOTZIOILSTTLTZIZJSOLOZOZOLOTZTZOTZOSIOTJJTSIZSOLTOLIZSOZOTZISLJTSZLOISO"),
        ];
        for (seed, want) in cases {
            assert_eq!(
                letters(seed, SeedRule::V5, want.len()),
                want,
                "seed {seed:06X}"
            );
        }
    }

    #[test]
    fn v4_differs_only_where_the_nibble_is_zero() {
        assert_eq!(
            letters(0x123456, SeedRule::V4, 200),
            letters(0x123456, SeedRule::V5, 200)
        );
        assert_ne!(
            letters(0x133702, SeedRule::V4, 50),
            letters(0x133702, SeedRule::V5, 50)
        );
    }

    #[test]
    fn encoding_round_trips_and_refuses_damage() {
        let variants = [
            Variant::CARTRIDGE,
            Variant::betatetris(GymSeed::new(0xABCDEF, SeedRule::V5)),
            Variant {
                seed: GymSeed::new(0x000200, SeedRule::V4),
                caps: [
                    Some(LineCap {
                        at: CapAt::Lines(230),
                        rule: CapRule::Ks,
                    }),
                    None,
                ],
                ..Variant::CARTRIDGE
            },
        ];
        for v in variants {
            assert_eq!(v.encode().len(), VARIANT_V1_LEN, "version 1 holds {v:?}");
            assert_eq!(Variant::decode(&v.encode()), Some(v));
        }
        // The drought and DAS-only need layout 2, whose first 16 bytes are layout 1's.
        let v2 = [
            Variant {
                drought: 9,
                ..Variant::betatetris(GymSeed::new(0xABCDEF, SeedRule::V5))
            },
            Variant {
                das_only: Some(crate::DasOnly {
                    taps: 3,
                    left: 1,
                    debounce: 2,
                    frames: 12,
                    disabled: 1,
                }),
                ..Variant::CARTRIDGE
            },
            Variant {
                drought: DROUGHT_MAX,
                das_only: Some(crate::DasOnly::default()),
                ..Variant::CARTRIDGE
            },
        ];
        for v in v2 {
            let b = v.encode();
            assert_eq!((b.len(), b[0]), (VARIANT_LEN, 2));
            assert_eq!(Variant::decode(&b), Some(v));
        }
        let b = v2[0].encode();
        let mut v1 =
            Variant::betatetris(GymSeed::new(0xABCDEF, SeedRule::V5)).encode()[..].to_vec();
        v1[0] = 2;
        assert_eq!(&b[..VARIANT_V1_LEN], &v1[..]);
        // A drought past 18, a version-2 block with nothing of version 2 in it, a version
        // 2 cut to version 1's length, a version not known: refused.
        let mut bad = b.to_vec();
        bad[16] = DROUGHT_MAX + 1;
        assert_eq!(Variant::decode(&bad), None);
        bad[16] = 0;
        assert_eq!(Variant::decode(&bad), None);
        assert_eq!(Variant::decode(&b[..VARIANT_V1_LEN]), None);
        let mut bad = b.to_vec();
        bad[0] = 3;
        assert_eq!(Variant::decode(&bad), None);
        let mut bad = v2[1].encode().to_vec();
        bad[17] = 2;
        assert_eq!(Variant::decode(&bad), None);
        let mut bad = Variant::betatetris(None).encode().to_vec();
        bad[8] = 0x33;
        assert_eq!(Variant::decode(&bad), None);
        assert_eq!(Variant::decode(&[1; 3]), None);
    }

    /// `pickRandomTetrimino` then `pickTetriminoPost` of TetrisGYM's drought mode, read
    /// off its source instruction by instruction (the accumulator and the carry flag as
    /// the 6502 keeps them), apart from the engine's picker: the reference the engine's
    /// picks are checked against.
    fn gym_drought_pick(rng: &mut u16, count: &mut u8, spawn_id: &mut u8, modifier: u8) {
        use crate::tables::SPAWN_TABLE;
        loop {
            // pickRandomTetrimino
            *count = count.wrapping_add(1);
            let a = ((*rng >> 8) as u8).wrapping_add(*count) & 7;
            let a = if a != 7 && SPAWN_TABLE[a as usize] != *spawn_id {
                SPAWN_TABLE[a as usize]
            } else {
                *rng = lfsr_step(*rng);
                let mut a = ((*rng >> 8) as u8 & 7).wrapping_add(*spawn_id);
                while a >= 7 {
                    a -= 7;
                }
                SPAWN_TABLE[a as usize]
            };
            *spawn_id = a;
            // pickTetriminoDrought: `cmp #$12` leaves the carry set when A >= $12.
            let carry = u8::from(a >= 0x12);
            if a != 0x12 {
                return;
            }
            // `lda rng_seed+1`, `and #$F`, `adc #1`, `cmp droughtModifier`, `bmi`.
            let a = (*rng as u8 & 0x0F) + 1 + carry;
            if a.wrapping_sub(modifier) & 0x80 == 0 {
                return;
            }
        }
    }

    /// Deals `n` pieces from `game` with `steps(i)` generator steps before pick `i` (the
    /// frames between spawns), checking each against the reference; returns the I share
    /// in percent.
    fn deal_and_check(modifier: u8, n: u32) -> f64 {
        let mut g = crate::Game::new(crate::GameSetup {
            variant: Variant {
                drought: modifier,
                ..Variant::CARTRIDGE
            },
            ..crate::GameSetup::default()
        });
        let demo = crate::DemoData::BUILTIN;
        let (mut rng, mut count, mut id) = (g.s.rng, g.s.spawn_count, g.s.spawn_id);
        let mut i_pieces = 0;
        for i in 0..n {
            // GYM's own probability check steps 3 to 11 times between picks.
            for _ in 0..(3 + i % 9) {
                g.s.rng = lfsr_step(g.s.rng);
                rng = lfsr_step(rng);
            }
            let piece = g.choose_next_piece(&demo);
            gym_drought_pick(&mut rng, &mut count, &mut id, modifier);
            assert_eq!(
                (piece, g.s.rng, g.s.spawn_count),
                (id, rng, count),
                "modifier {modifier}, pick {i}"
            );
            i_pieces += u32::from(piece == 0x12);
        }
        100.0 * f64::from(i_pieces) / f64::from(n)
    }

    #[test]
    fn a_drought_picks_an_i_again_as_tetrisgym_does() {
        // The rule itself: modifier m re-picks on m - 2 of the 16 nibbles.
        for m in 0..=DROUGHT_MAX {
            let repicking = (0..16).filter(|&n| drought_repicks(m, n)).count();
            assert_eq!(repicking, usize::from(m.saturating_sub(2)), "modifier {m}");
        }
        // The engine's picks are the reference's, pick by pick, at every modifier; the
        // share of I falls as the modifier rises, to none at all at 18.
        let shares: Vec<f64> = (0..=DROUGHT_MAX)
            .map(|m| deal_and_check(m, 20_000))
            .collect();
        assert!((shares[0] - 100.0 / 7.0).abs() < 1.5, "{shares:?}");
        assert_eq!(shares[0], shares[2], "0 to 2 never re-pick");
        for m in 3..=DROUGHT_MAX as usize {
            assert!(shares[m] < shares[m - 1], "{m}: {shares:?}");
        }
        assert_eq!(shares[18], 0.0);
        // Half the nibbles re-pick at 10: about half the I pieces go (a re-pick deals an I
        // again now and then).
        assert!((shares[10] / shares[0] - 0.5).abs() < 0.1, "{shares:?}");
    }

    #[test]
    fn a_drought_ends_within_its_bound_from_every_state() {
        // At 18 every I is picked again; from every generator state and counter the
        // picks reach another piece well within the engine's bound.
        let mut worst = 0;
        for rng in 0..=u16::MAX {
            for count in 0..=u8::MAX {
                let (mut r, mut c, mut n) = (rng, count, 0);
                loop {
                    let p = pick_piece(r, c, 0x12);
                    (r, c) = (p.rng, p.spawn_count);
                    if p.piece != 0x12 {
                        break;
                    }
                    n += 1;
                }
                worst = worst.max(n);
            }
        }
        assert!(worst < DROUGHT_MAX_REPICKS, "{worst} re-picks");
    }

    #[test]
    fn labels_name_every_part() {
        assert_eq!(Variant::CARTRIDGE.label().as_str(), "cartridge");
        let v = Variant::betatetris(GymSeed::new(0x1A2B3C, SeedRule::V5));
        assert_eq!(v.label().as_str(), "gym-v5 seed 1A2B3C, ksx2@39, halt@49");
        let v = Variant {
            drought: 12,
            das_only: Some(crate::DasOnly::default()),
            ..Variant::CARTRIDGE
        };
        assert_eq!(v.label().as_str(), "drought 12, das-only");
    }

    #[test]
    fn screen_labels_name_the_rules_but_the_seed() {
        let label = |v: Variant| v.screen_label().as_str().to_string();
        assert_eq!(label(Variant::CARTRIDGE), "");
        let seeded = Variant {
            seed: GymSeed::new(0x1A2B3C, SeedRule::V5),
            ..Variant::CARTRIDGE
        };
        assert_eq!(label(seeded), "", "the seed has a box of its own");
        let v = Variant::betatetris(GymSeed::new(0x1A2B3C, SeedRule::V5));
        assert_eq!(label(v), "KSX2 LV39, HALT LV49");
        let cap = |at, rule| Variant {
            caps: [Some(LineCap { at, rule }), None],
            ..Variant::CARTRIDGE
        };
        assert_eq!(label(cap(CapAt::Lines(130), CapRule::Ks)), "KS 130");
        assert_eq!(label(cap(CapAt::Lines(0), CapRule::KsX2)), "KSX2");
        assert_eq!(label(cap(CapAt::Lines(100), CapRule::Halt)), "HALT 100");
        let v = Variant {
            drought: 7,
            das_only: Some(crate::DasOnly::default()),
            ..Variant::CARTRIDGE
        };
        assert_eq!(label(v), "DROUGHT 7, DAS ONLY");
    }

    #[test]
    fn the_strongest_gravity_rule_wins() {
        let v = Variant {
            seed: None,
            caps: [
                Some(LineCap {
                    at: CapAt::Level(29),
                    rule: CapRule::Ks,
                }),
                Some(LineCap {
                    at: CapAt::Lines(330),
                    rule: CapRule::KsX2,
                }),
            ],
            ..Variant::CARTRIDGE
        };
        assert_eq!(v.gravity_rule(28, 300), None);
        assert_eq!(v.gravity_rule(29, 300), Some(CapRule::Ks));
        assert_eq!(v.gravity_rule(39, 330), Some(CapRule::KsX2));
        assert!(!v.halts(200, 9999));
    }

    #[test]
    fn a_seed_set_on_the_level_menu_deals_the_same_pieces_to_two_consoles() {
        use crate::{Buttons, Game, Region};
        // Two consoles that reached the level menu by different paths (different
        // generator states) deal the same pieces once both are given the same seed.
        let to_menu = |extra_frames: usize| {
            let mut g = Game::power_on(Region::Ntsc);
            for _ in 0..extra_frames {
                g.step(Buttons::NONE);
            }
            let mut guard = 0;
            while g.state().screen() != crate::view::Screen::LevelMenu {
                let b = if guard % 2 == 0 {
                    Buttons::START
                } else {
                    Buttons::NONE
                };
                g.step(b);
                guard += 1;
                assert!(guard < 5_000, "never reached the level menu");
            }
            g
        };
        let seed = GymSeed::new(0x1A2B3C, SeedRule::V5);
        let seeded = Variant {
            seed,
            ..Variant::CARTRIDGE
        };
        let pieces = |mut g: Game, variant: Variant| {
            g.set_variant(variant);
            for _ in 0..3 {
                g.step(Buttons::NONE);
            }
            g.step(Buttons::START);
            let mut seq = [0u8; 12];
            let mut n = 0;
            let mut stats = None;
            for _ in 0..20_000 {
                g.step(Buttons::DOWN);
                let s = g.state();
                if s.in_game() && stats != Some(s.stats) {
                    // A piece was dealt: the preview now shows the one after it.
                    stats = Some(s.stats);
                    seq[n] = s.next_piece;
                    n += 1;
                }
                if n == seq.len() || g.is_over() {
                    break;
                }
            }
            assert_eq!(n, seq.len(), "too few pieces dealt");
            seq
        };
        let a = to_menu(0);
        let b = to_menu(77);
        assert_ne!(a.state().rng, b.state().rng, "the two consoles differ");
        assert_eq!(pieces(a.clone(), seeded), pieces(b.clone(), seeded));
        // Unseeded, they do not.
        assert_ne!(pieces(a, Variant::CARTRIDGE), pieces(b, Variant::CARTRIDGE));
    }
}
