//! A stable byte encoding of [`Snapshot`], and the state hash built on it.
//!
//! Replays store the hash of their final state and save files may store the bytes, so
//! the layout is fixed: changing it means a new [`ENCODING_VERSION`]. Fields are written
//! in declaration order, multi-byte numbers little-endian.
//!
//! Layout 1 holds the game's variables; the sub-frame timing (`render_flags`, `clock`), the
//! crash mode and how the game crashed (`crash_mode`, `crash`) and the sound engine's
//! state (`audio`) are not in it, and decoding gives those their values at a game's start.
//! They are in the timing block ([`Snapshot::encode_timing`]).

use crate::crash::Crash;
use crate::flow::{Block, Cut, EndingStep, FlowVars, HighScores, Jump, PlayerCut, Resume, Then};
use crate::playfield::Playfield;
use crate::region::Region;
use crate::snapshot::{Snapshot, SnapshotError};

/// Version of the byte layout below.
pub const ENCODING_VERSION: u8 = 1;

/// Length of an encoded snapshot in bytes.
pub const ENCODED_LEN: usize = 4 + 36 + 9 + 4 + 14 + 256 + FLOW_LEN;

const FLOW_LEN: usize = 18 + HIGH_SCORE_LEN;
const HIGH_SCORE_LEN: usize = 48 + 24 + 8;

struct Writer<'a> {
    out: &'a mut [u8; ENCODED_LEN],
    at: usize,
}

impl Writer<'_> {
    fn u8(&mut self, v: u8) {
        self.out[self.at] = v;
        self.at += 1;
    }
    fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }
    fn bytes(&mut self, v: &[u8]) {
        self.out[self.at..self.at + v.len()].copy_from_slice(v);
        self.at += v.len();
    }
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u8(&mut self) -> u8 {
        let v = self.data[self.at];
        self.at += 1;
        v
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        a.copy_from_slice(&self.data[self.at..self.at + N]);
        self.at += N;
        a
    }
}

fn resume_code(r: Resume) -> (u8, u8) {
    match r {
        Resume::MainLoop => (0, 0),
        Resume::GameInit { rows_left } => (1, rows_left),
        Resume::Paused => (2, 0),
        Resume::GameBackground(n) => (3, n),
        Resume::Ending(step) => (4, ending_code(step)),
        Resume::HighScoreSetup(n) => (5, n),
        Resume::NameEntry => (6, 0),
        Resume::NameEntryDone => (7, 0),
        Resume::GameOverReset => (8, 0),
        Resume::LevelMenuSetup(n) => (9, n),
        Resume::LevelMenu => (10, 0),
        Resume::Reset(n) => (11, n),
        Resume::LegalSetup(n) => (12, n),
        Resume::LegalSleep => (13, 0),
        Resume::LegalWait => (14, 0),
        Resume::TitleSetup(n) => (15, n),
        Resume::Title => (16, 0),
        Resume::TypeMenuSetup(n) => (17, n),
        Resume::TypeMenu => (18, 0),
        Resume::Interrupted(cut) => (
            19,
            match cut {
                Cut::Audio => 0,
                Cut::Passes => 1,
                // A jump into the zero page; through the table's page: `0x80 | y`.
                Cut::Dispatch(Jump::ZeroPage) => 2,
                Cut::Dispatch(Jump::Page(y)) => 0x80 | y,
                // Where in the update: in the timing block.
                Cut::Player(_) => 3,
            },
        ),
        // Tags from 30 on: crash modes (20-29 are left to the lag frames' resume points).
        Resume::Halted => (30, 0),
    }
}

fn resume_from(tag: u8, arg: u8) -> Option<Resume> {
    Some(match tag {
        0 => Resume::MainLoop,
        1 => Resume::GameInit { rows_left: arg },
        2 => Resume::Paused,
        3 => Resume::GameBackground(arg),
        4 => Resume::Ending(ending_from(arg)?),
        5 => Resume::HighScoreSetup(arg),
        6 => Resume::NameEntry,
        7 => Resume::NameEntryDone,
        8 => Resume::GameOverReset,
        9 => Resume::LevelMenuSetup(arg),
        10 => Resume::LevelMenu,
        11 => Resume::Reset(arg),
        12 => Resume::LegalSetup(arg),
        13 => Resume::LegalSleep,
        14 => Resume::LegalWait,
        15 => Resume::TitleSetup(arg),
        16 => Resume::Title,
        17 => Resume::TypeMenuSetup(arg),
        18 => Resume::TypeMenu,
        19 => Resume::Interrupted(match arg {
            0 => Cut::Audio,
            1 => Cut::Passes,
            2 => Cut::Dispatch(Jump::ZeroPage),
            0x80..=0xFF => Cut::Dispatch(Jump::Page(arg & 0x7F)),
            3 => Cut::Player(PlayerCut::default()),
            _ => return None,
        }),
        30 => Resume::Halted,
        _ => return None,
    })
}

fn ending_code(step: EndingStep) -> u8 {
    match step {
        EndingStep::CurtainSleep => 0,
        EndingStep::Setup(n) => 0x10 | (n & 0x0F),
        EndingStep::Unskippable => 1,
        EndingStep::Rocket => 2,
        EndingStep::BannerSleep => 3,
        EndingStep::DarkSleep => 4,
        EndingStep::BonusStart => 5,
        EndingStep::BeforeBonus => 6,
        EndingStep::LevelBonus => 7,
        EndingStep::AfterLevelBonus => 8,
        EndingStep::HeightBonus => 9,
        EndingStep::AfterHeightBonus => 10,
        EndingStep::WaitStart => 11,
    }
}

fn ending_from(code: u8) -> Option<EndingStep> {
    Some(match code {
        0 => EndingStep::CurtainSleep,
        0x10..=0x1F => EndingStep::Setup(code & 0x0F),
        1 => EndingStep::Unskippable,
        2 => EndingStep::Rocket,
        3 => EndingStep::BannerSleep,
        4 => EndingStep::DarkSleep,
        5 => EndingStep::BonusStart,
        6 => EndingStep::BeforeBonus,
        7 => EndingStep::LevelBonus,
        8 => EndingStep::AfterLevelBonus,
        9 => EndingStep::HeightBonus,
        10 => EndingStep::AfterHeightBonus,
        11 => EndingStep::WaitStart,
        _ => return None,
    })
}

impl Snapshot {
    /// The snapshot as [`ENCODED_LEN`] bytes (layout version [`ENCODING_VERSION`]).
    pub fn encode(&self) -> [u8; ENCODED_LEN] {
        let mut out = [0u8; ENCODED_LEN];
        let mut w = Writer {
            out: &mut out,
            at: 0,
        };
        w.u8(ENCODING_VERSION);
        w.u8(self.region as u8);
        let (tag, arg) = resume_code(self.resume);
        w.u8(tag);
        w.u8(arg);
        w.bytes(&[
            self.game_mode,
            self.game_mode_state,
            self.play_state,
            self.render_mode,
            self.x,
            self.y,
            self.piece,
            self.next_piece,
            self.level,
            self.start_level,
            self.start_height,
            self.fall_timer,
            self.autorepeat_x,
            self.autorepeat_y,
            self.hold_down_points,
            self.vram_row,
            self.completed_lines,
            self.completed_row[0],
            self.completed_row[1],
            self.completed_row[2],
            self.completed_row[3],
            self.line_index,
            self.row_y,
            self.curtain_row,
            self.spawn_id,
            self.spawn_count,
            self.sleep_counter,
            self.held,
            self.pressed,
            self.game_type,
            self.music_type,
            self.display_next_piece,
            self.selecting,
            self.allegro,
            self.lines[0],
            self.lines[1],
        ]);
        w.bytes(&self.score);
        w.u16(self.rng);
        w.u16(self.frame_counter);
        w.bytes(&[self.flow.entry_slot, self.flow.entry_letter]);
        w.bytes(&self.clears);
        for s in &self.stats {
            w.bytes(s);
        }
        w.bytes(&self.playfield.0);
        let f = &self.flow;
        w.u8(f.nmi_off_frames);
        w.u8(f.nmi_off_this_frame as u8);
        w.u8(f.garbage_hole);
        w.bytes(&f.ending_vars);
        w.bytes(&f.total_score);
        w.u8(f.ending);
        w.u8(f.level_bonus);
        w.u8(f.height_bonus);
        w.u8(f.ending_level);
        w.u8(f.legal_countdown);
        w.u16(f.demo_ptr);
        w.u8(f.demo_repeats);
        w.u8(f.demo_held);
        w.u8(f.demo_index);
        for n in &f.high_scores.names {
            w.bytes(n);
        }
        for s in &f.high_scores.scores {
            w.bytes(s);
        }
        w.bytes(&f.high_scores.levels);
        debug_assert_eq!(w.at, ENCODED_LEN);
        out
    }

    /// Reads [`Snapshot::encode`]'s bytes back, checking the layout version and every field.
    pub fn decode(bytes: &[u8]) -> Result<Snapshot, SnapshotError> {
        if bytes.len() != ENCODED_LEN {
            return Err(SnapshotError::OutOfRange {
                field: "encoded length",
                value: 0,
            });
        }
        let mut r = Reader { data: bytes, at: 0 };
        let version = r.u8();
        if version != ENCODING_VERSION {
            return Err(SnapshotError::OutOfRange {
                field: "encoding version",
                value: version,
            });
        }
        let region = match r.u8() {
            0 => Region::Ntsc,
            1 => Region::Pal,
            v => {
                return Err(SnapshotError::OutOfRange {
                    field: "region",
                    value: v,
                })
            }
        };
        let (tag, arg) = (r.u8(), r.u8());
        let resume = resume_from(tag, arg).ok_or(SnapshotError::BadState {
            field: "resume",
            value: tag,
        })?;
        let b: [u8; 36] = r.array();
        let score: [u8; 3] = r.array();
        let rng = r.u16();
        let frame_counter = r.u16();
        let entry: [u8; 2] = r.array();
        let clears: [u8; 4] = r.array();
        let mut stats = [[0u8; 2]; 7];
        for s in &mut stats {
            *s = r.array();
        }
        let playfield = Playfield(r.array());
        let mut flow = FlowVars {
            nmi_off_frames: r.u8(),
            nmi_off_this_frame: r.u8() != 0,
            garbage_hole: r.u8(),
            ending_vars: r.array(),
            total_score: r.array(),
            ending: r.u8(),
            level_bonus: r.u8(),
            height_bonus: r.u8(),
            ending_level: r.u8(),
            legal_countdown: r.u8(),
            demo_ptr: r.u16(),
            demo_repeats: r.u8(),
            demo_held: r.u8(),
            demo_index: r.u8(),
            entry_slot: entry[0],
            entry_letter: entry[1],
            high_scores: HighScores::default(),
        };
        for n in &mut flow.high_scores.names {
            *n = r.array();
        }
        for s in &mut flow.high_scores.scores {
            *s = r.array();
        }
        flow.high_scores.levels = r.array();
        debug_assert_eq!(r.at, ENCODED_LEN);
        let mut s = Snapshot {
            region,
            resume,
            game_mode: b[0],
            game_mode_state: b[1],
            play_state: b[2],
            render_mode: b[3],
            x: b[4],
            y: b[5],
            piece: b[6],
            next_piece: b[7],
            level: b[8],
            start_level: b[9],
            start_height: b[10],
            fall_timer: b[11],
            autorepeat_x: b[12],
            autorepeat_y: b[13],
            hold_down_points: b[14],
            vram_row: b[15],
            completed_lines: b[16],
            completed_row: [b[17], b[18], b[19], b[20]],
            line_index: b[21],
            row_y: b[22],
            curtain_row: b[23],
            spawn_id: b[24],
            spawn_count: b[25],
            sleep_counter: b[26],
            held: b[27],
            pressed: b[28],
            game_type: b[29],
            music_type: b[30],
            display_next_piece: b[31],
            selecting: b[32],
            allegro: b[33],
            lines: [b[34], b[35]],
            score,
            rng,
            frame_counter,
            clears,
            stats,
            playfield,
            flow,
            render_flags: 0,
            clock: crate::timing::Clock::default(),
            audio: crate::timing::recorded_audio(),
            crash_mode: crate::CrashMode::default(),
            crash: None,
            variant: crate::Variant::CARTRIDGE,
            cleared: crate::view::Cleared::default(),
            stale: crate::view::StaleDigits::default(),
        };
        s.clock.known = s.region.cycles_counted();
        s.validate()?;
        Ok(s)
    }

    /// A 64-bit FNV-1a hash of the encoded state: equal states, equal hashes, on every
    /// platform and build. It covers layout 1 (the game's variables), not the timing block;
    /// a variant game's rules and seeded generator ([`crate::Variant::encode`]) follow
    /// layout 1 in what is hashed, so a cartridge game's hash is what it always was.
    pub fn state_hash(&self) -> u64 {
        if self.variant.is_cartridge() {
            return fnv1a(&self.encode());
        }
        let variant = self.variant.encode();
        let mut bytes = [0u8; ENCODED_LEN + crate::VARIANT_LEN];
        bytes[..ENCODED_LEN].copy_from_slice(&self.encode());
        bytes[ENCODED_LEN..ENCODED_LEN + variant.len()].copy_from_slice(&variant);
        fnv1a(&bytes[..ENCODED_LEN + variant.len()])
    }

    /// What layout 1 leaves out, as [`TIMING_LEN`] bytes: the render flags, the sub-frame
    /// clock, the crash mode and the sound engine's page ($0680-$06FF). Byte 4 holds the
    /// clock's flags (bits 0-3 and 7), the crash mode's code (bits 4-5, `Cartridge` = 0) and
    /// whether the game crashed (bit 6); bytes 135.. the player update's cut, if one is
    /// pending; byte 152 how the game crashed ([`Crash::code`]); bytes 153.. the rows a line
    /// clear removed that the picture still shows ([`Snapshot::cleared`], version 4); the
    /// last 7 the counters the picture shows from before a cut player update
    /// ([`Snapshot::stale`], version 5: which are set, bits 0-2, then lines, level, score,
    /// 0 where not set). With
    /// [`Snapshot::encode`] it is the whole state: a game restored from both runs on exactly
    /// as the original.
    pub fn encode_timing(&self) -> [u8; TIMING_LEN] {
        let mut out = [0u8; TIMING_LEN];
        let c = &self.clock;
        out[0] = TIMING_VERSION;
        out[1] = self.render_flags;
        out[2..4].copy_from_slice(&c.nmi_dots.to_le_bytes());
        out[4] = c.after_load as u8
            | (c.odd_cycle as u8) << 1
            | (c.odd_frame as u8) << 2
            | (c.known as u8) << 3
            | (c.pause_entry as u8) << 7
            | self.crash_mode.code() << 4
            | (self.crash.is_some() as u8) << 6;
        out[5..7].copy_from_slice(&c.pending.to_le_bytes());
        let mut page = [0u8; 128];
        self.audio.write_page(&mut page);
        out[7..135].copy_from_slice(&page);
        if let Resume::Interrupted(Cut::Player(cut)) = self.resume {
            out[135..135 + PLAYER_CUT_LEN].copy_from_slice(&player_cut_bytes(&cut));
        }
        out[CRASH_AT] = self.crash.map_or(0, Crash::code);
        let c = &self.cleared;
        out[CRASH_AT + 1] = c.count;
        out[CRASH_AT + 2..CRASH_AT + 6].copy_from_slice(&c.rows);
        for (i, lost) in c.lost.iter().enumerate() {
            let at = CRASH_AT + 6 + 10 * i;
            out[at..at + 10].copy_from_slice(lost);
        }
        let st = &self.stale;
        let b = &mut out[STALE_AT..];
        b[0] = st.lines.is_some() as u8
            | (st.level.is_some() as u8) << 1
            | (st.score.is_some() as u8) << 2;
        b[1..3].copy_from_slice(&st.lines.unwrap_or_default());
        b[3] = st.level.unwrap_or_default();
        b[4..7].copy_from_slice(&st.score.unwrap_or_default());
        out
    }

    /// Puts the fields of an [`Snapshot::encode_timing`] block into `self`.
    pub fn decode_timing(&mut self, bytes: &[u8]) -> Result<(), SnapshotError> {
        // Version 2 had no crash byte (a crash there was a halt), version 3 no board,
        // version 4 no stale counters.
        let version = bytes.first().copied().unwrap_or(0);
        let Some(len) = timing_len(version) else {
            return Err(SnapshotError::OutOfRange {
                field: "timing block version or clock bits",
                value: version,
            });
        };
        if bytes.len() != len {
            return Err(SnapshotError::OutOfRange {
                field: "timing block length",
                value: 0,
            });
        }
        let v2 = version == 2;
        self.render_flags = bytes[1];
        let c = &mut self.clock;
        c.nmi_dots = u16::from_le_bytes([bytes[2], bytes[3]]);
        c.after_load = bytes[4] & 1 != 0;
        c.odd_cycle = bytes[4] & 2 != 0;
        c.odd_frame = bytes[4] & 4 != 0;
        c.known = bytes[4] & 8 != 0 && self.region.cycles_counted();
        c.pause_entry = bytes[4] & 0x80 != 0;
        c.pending = u16::from_le_bytes([bytes[5], bytes[6]]);
        // Blocks written before crash modes have 0 here: `Cartridge`, no crash.
        self.crash_mode = crate::CrashMode::from_code(bytes[4] >> 4 & 3).unwrap_or_default();
        self.crash = if bytes[4] & 0x40 == 0 {
            None
        } else if v2 {
            Some(Crash::Halted)
        } else {
            Some(
                Crash::from_code(bytes[CRASH_AT]).ok_or(SnapshotError::OutOfRange {
                    field: "crash",
                    value: bytes[CRASH_AT],
                })?,
            )
        };
        // Before version 4 the removed rows were not kept: a clear shows the RAM's board.
        self.cleared = crate::view::Cleared::default();
        if version >= 4 {
            let b = &bytes[CRASH_AT + 1..];
            if b[0] > 4 {
                return Err(SnapshotError::OutOfRange {
                    field: "cleared rows",
                    value: b[0],
                });
            }
            let c = &mut self.cleared;
            c.count = b[0];
            c.rows.copy_from_slice(&b[1..5]);
            for (i, lost) in c.lost.iter_mut().enumerate() {
                lost.copy_from_slice(&b[5 + 10 * i..15 + 10 * i]);
            }
        }
        // Before version 5 the picture's counters were not kept: it shows the variables.
        self.stale = crate::view::StaleDigits::default();
        if version >= 5 {
            self.stale = stale_from(&bytes[STALE_AT..]).ok_or(SnapshotError::OutOfRange {
                field: "stale counters",
                value: bytes[STALE_AT],
            })?;
        }
        let mut page = [0u8; 128];
        page.copy_from_slice(&bytes[7..135]);
        self.audio = crate::audio::Audio::from_page(&page);
        let cut = &bytes[135..135 + PLAYER_CUT_LEN];
        if let Resume::Interrupted(Cut::Player(_)) = self.resume {
            let c = player_cut_from(cut).ok_or(SnapshotError::BadState {
                field: "player cut",
                value: cut[2],
            })?;
            self.resume = Resume::Interrupted(Cut::Player(c));
        } else if cut.iter().any(|&b| b != 0) {
            return Err(SnapshotError::OutOfRange {
                field: "player cut without a cut",
                value: 0,
            });
        }
        Ok(())
    }
}

/// Length of a [`PlayerCut`] in the timing block.
const PLAYER_CUT_LEN: usize = 17;

/// A [`PlayerCut`]: `rest`, the next unit (tag, two bytes, one byte), the active block,
/// the buttons.
fn player_cut_bytes(c: &PlayerCut) -> [u8; PLAYER_CUT_LEN] {
    let mut o = [0u8; PLAYER_CUT_LEN];
    o[..2].copy_from_slice(&c.rest.to_le_bytes());
    let (tag, word, byte) = match c.then {
        Then::Score { left } => (0, left, 0),
        Then::CurrentPiece => (1, 0, 0),
        Then::Save { x } => (2, 0, x),
        Then::NextPiece => (3, 0, 0),
        Then::Sprites { ptr, y } => (4, ptr, y),
        Then::Finish => (5, 0, 0),
        Then::Done => (6, 0, 0),
        Then::List { ptr } => (7, ptr, 0),
    };
    o[2] = tag;
    o[3..5].copy_from_slice(&word.to_le_bytes());
    o[5] = byte;
    let a = &c.active;
    o[6..15].copy_from_slice(&[
        a.level,
        a.play_state,
        a.hold_down_points,
        a.lines[0],
        a.lines[1],
        a.score[0],
        a.score[1],
        a.score[2],
        a.completed_lines,
    ]);
    o[15..].copy_from_slice(&c.buttons);
    o
}

fn player_cut_from(b: &[u8]) -> Option<PlayerCut> {
    let word = u16::from_le_bytes([b[3], b[4]]);
    let then = match b[2] {
        0 => Then::Score { left: word },
        1 => Then::CurrentPiece,
        2 => Then::Save { x: b[5] },
        3 => Then::NextPiece,
        4 => Then::Sprites { ptr: word, y: b[5] },
        5 => Then::Finish,
        6 => Then::Done,
        7 => Then::List { ptr: word },
        _ => return None,
    };
    Some(PlayerCut {
        rest: u16::from_le_bytes([b[0], b[1]]),
        then,
        active: Block {
            level: b[6],
            play_state: b[7],
            hold_down_points: b[8],
            lines: [b[9], b[10]],
            score: [b[11], b[12], b[13]],
            completed_lines: b[14],
        },
        buttons: [b[15], b[16]],
    })
}

/// [`Snapshot::stale`] from its 7 bytes: `None` where a field is unset, whose bytes must
/// be 0 (one encoding per state).
fn stale_from(b: &[u8]) -> Option<crate::view::StaleDigits> {
    let set = b[0];
    if set > 7 {
        return None;
    }
    let field = |bit: u8, bytes: &[u8]| {
        if set & bit != 0 {
            Some(Some(()))
        } else if bytes.iter().all(|&x| x == 0) {
            Some(None)
        } else {
            None
        }
    };
    Some(crate::view::StaleDigits {
        lines: field(1, &b[1..3])?.map(|()| [b[1], b[2]]),
        level: field(2, &b[3..4])?.map(|()| b[3]),
        score: field(4, &b[4..7])?.map(|()| [b[4], b[5], b[6]]),
    })
}

/// Version of the timing block ([`Snapshot::encode_timing`]).
pub const TIMING_VERSION: u8 = 5;

/// Where the crash's code sits in the timing block.
const CRASH_AT: usize = 7 + 128 + PLAYER_CUT_LEN;

/// Where [`Snapshot::stale`] sits in the timing block (version 5).
const STALE_AT: usize = CRASH_AT + 1 + CLEARED_LEN;

/// Length of the timing block in bytes.
pub const TIMING_LEN: usize = STALE_AT + STALE_LEN;

/// Length of [`Snapshot::stale`] in the timing block: which are set, lines, level, score.
const STALE_LEN: usize = 1 + 2 + 1 + 3;

/// Length of [`Snapshot::cleared`] in the timing block: the count, four rows, 4 x 10 bytes.
const CLEARED_LEN: usize = 1 + 4 + 40;

/// Length of a timing block of `version` (2 to 5), if the version is one: version 2 had
/// no crash byte, version 3 no board, version 4 no stale counters.
pub const fn timing_len(version: u8) -> Option<usize> {
    match version {
        2 => Some(CRASH_AT),
        3 => Some(CRASH_AT + 1),
        4 => Some(STALE_AT),
        5 => Some(TIMING_LEN),
        _ => None,
    }
}

/// 64-bit FNV-1a.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Buttons, Game, GameSetup};

    /// Layout 1 has no place for the timing fields: they come in their own block.
    fn without_timing(mut decoded: Snapshot, original: &Snapshot) -> Snapshot {
        decoded.decode_timing(&original.encode_timing()).unwrap();
        decoded
    }

    #[test]
    fn encoding_round_trips_through_a_game() {
        let mut g = Game::power_on(Region::Ntsc);
        for i in 0..3000u32 {
            let b = if i % 300 == 299 {
                Buttons::START
            } else {
                Buttons((i * 37 % 256) as u8 & 0xCF)
            };
            g.step(b);
            let s = g.snapshot();
            assert_eq!(
                without_timing(Snapshot::decode(&s.encode()).unwrap(), &s),
                s,
                "frame {i}"
            );
        }
        let mut g = Game::new(GameSetup {
            game_type: crate::GameType::B,
            height: 3,
            ..GameSetup::default()
        });
        for i in 0..2000u32 {
            g.step(Buttons((i * 11 % 256) as u8 & 0xC7));
            let s = g.snapshot();
            assert_eq!(
                without_timing(Snapshot::decode(&s.encode()).unwrap(), &s),
                s
            );
        }
    }

    const PINNED_HASH: u64 = 0x3a51_884a_3c78_873e;

    #[test]
    fn hash_is_pinned() {
        // A change of this value means the layout changed: bump ENCODING_VERSION.
        let g = Game::new(GameSetup::default());
        assert_eq!(ENCODED_LEN, 421);
        assert_eq!(
            g.state().state_hash(),
            PINNED_HASH,
            "{:#018x}",
            g.state().state_hash()
        );
        let other = Game::new(GameSetup {
            level: 1,
            ..GameSetup::default()
        });
        assert_ne!(g.state().state_hash(), other.state().state_hash());
    }

    #[test]
    fn bad_bytes_are_errors() {
        let g = Game::new(GameSetup::default());
        let mut b = g.state().encode();
        b[0] = 9;
        assert!(Snapshot::decode(&b).is_err());
        let mut b = g.state().encode();
        b[2] = 200;
        assert!(Snapshot::decode(&b).is_err());
        assert!(Snapshot::decode(&b[..10]).is_err());
    }
}
