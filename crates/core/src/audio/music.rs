//! The music: `updateMusic`, `loadMusicTrack` and the bytecode interpreter
//! (`updateMusicFrame`), and the cartridge data it reads ([`MusicData`]).
//!
//! Each of the four channels plays a script, a list of routine addresses ending in $FFFF
//! and the address to go on from (or in $0000: the music stops). A routine is bytecode:
//! `$9F c v` sets the channel's envelope/pitch control and volume, `$9E d` the tempo,
//! `$9C n` the transposition, `$C0 + n` .. `$FF` a loop of n passes, `$B0 + i` a duration
//! (from `noteDurationTable`) for the note after it, any other byte a note, and 0 ends the
//! routine. Between notes the squares walk their envelope and the three tonal channels
//! their pitch effect, once a frame.

use super::clock::{b, bx, px, Clock};
use super::Cpu;

/// Cycles charged for the music's channel loop (after `initSq12IfTrashedBySoundEffect`
/// returns, to the end of `updateMusicFrame`) when music plays and no [`MusicData`] was
/// given. With it, a frame of music 1 (track 3) without effects costs 1,285 cycles in all,
/// the median of that track's frames on the cartridge (they range from about 860 to
/// 3,400). The music's state does not move on in such a frame.
pub const MUSIC_FRAME_ESTIMATE: u32 = 972;

/// Cycles charged for `loadMusicTrack` without [`MusicData`], after it has set
/// `currentlyPlayingMusicTrack`. With it and [`MUSIC_FRAME_ESTIMATE`], the frame that
/// starts music 1 costs 2,915 cycles, as on the cartridge (the game's tracks start in
/// 2,408-2,960).
pub const MUSIC_LOAD_ESTIMATE: u32 = 1542;

/// The cartridge's program (the 32 KiB PRG, $8000-$FFFF), for what the engine reads there:
/// the music interpreter's part, $E000-$FFFF, holds the whole sound engine and its tables
/// (`musicChanVolControlTable` and the envelopes at $EA4A, `noteToWaveTable` $EB13,
/// `noteDurationTable` $EBAF, `musicDataTableIndex` $EC23, `musicDataTable` $EC2D, the
/// scripts and routines from $EC91 to $F9EA); the rest is read where a sprite list goes
/// astray after an interrupt. It is read from the user's ROM image; none of it is part of
/// this project.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MusicData {
    bytes: [u8; MusicData::LEN],
}

impl core::fmt::Debug for MusicData {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MusicData").finish_non_exhaustive()
    }
}

impl MusicData {
    /// CPU address of the first byte.
    pub const START: u16 = 0x8000;
    /// Bytes held ($8000-$FFFF).
    pub const LEN: usize = 0x8000;

    /// From the cartridge's 32 KiB PRG as mapped at $8000 (`None` for another length).
    /// The PRG is not checked: pass Tetris (USA)'s (see `nestris_replay::rom::identify`).
    pub fn from_prg(prg: &[u8]) -> Option<MusicData> {
        if prg.len() != 0x8000 {
            return None;
        }
        let mut bytes = [0; MusicData::LEN];
        bytes.copy_from_slice(prg);
        Some(MusicData { bytes })
    }

    /// The byte at CPU address `addr`, if it is in the range held.
    #[inline]
    pub fn byte(&self, addr: u16) -> Option<u8> {
        addr.checked_sub(MusicData::START)
            .map(|o| self.bytes[o as usize])
    }
}

// The cartridge's labels for the tables the interpreter indexes.
const MUSIC_CHAN_VOL_CONTROL_TABLE: u16 = 0xEA4A;
const NOTE_TO_WAVE_TABLE: u16 = 0xEB13;
const NOTE_DURATION_TABLE: u16 = 0xEBAF;
const MUSIC_DATA_TABLE_INDEX: u16 = 0xEC23;
const MUSIC_DATA_TABLE: u16 = 0xEC2D;
const NOISES_TABLE: u16 = 0xE5AB;
const LO_OFF_9_TO_0_FALL_TABLE: u16 = 0xE689;
const LO_OFF_SLOW_START_TRILL_TABLE: u16 = 0xE695;
const LO_OFF_TRILL_NEG2_TO_2_TABLE: u16 = 0xE6B6;
const LO_OFF_DESCEND_TO_NEG11_BOUNCE_TO_NEG9_TABLE: u16 = 0xE6C0;

/// Bytecode bytes one update may interpret before the model gives up on a script that
/// never reaches a note (the cartridge would never return). The game's longest frame
/// reads a few dozen.
const STEP_LIMIT: u32 = 4096;

/// How a channel's turn ends.
enum Turn {
    /// On to the next channel (`updateMusicFrame_incSlot`).
    Next,
    /// A script ended: the music stopped and the update returns.
    Stopped,
}

impl<K: Clock> Cpu<'_, K> {
    /// A byte of the cartridge at `addr`: from the music data, or 0 (inexact) without it or
    /// outside its range.
    #[inline(always)]
    pub(super) fn read(&mut self, addr: u16) -> u8 {
        match self.rom.and_then(|m| m.byte(addr)) {
            Some(v) => v,
            None => {
                self.exact = false;
                0
            }
        }
    }

    /// `updateMusic` after its `jsr`, up to the `rts` that returns to `updateAudio`.
    #[inline(always)]
    pub(super) fn update_music(&mut self) {
        // lda musicTrack; tay; cmp #$FF; beq updateMusic_noSoundJmp
        self.k.run(&[4]);
        self.k.mark(super::clock::Mark::Read(5));
        let track = self.s.music_track;
        self.k.run(&[2, 2, b(track == 0xFF)]);
        if track == 0xFF {
            // jmp soundEffectSlot2_makesNoSound
            self.k.run(&[3]);
            return self.make_no_sound();
        }
        // cmp #0; beq @checkIfAlreadyPlaying
        self.k.run(&[2, b(track == 0)]);
        if track == 0 {
            // lda currentlyPlayingMusicTrack; bne @updateFrame
            let playing = self.s.currently_playing_music_track != 0;
            self.k.run(&[4, b(playing)]);
            if !playing {
                self.k.run(&[6]);
                return;
            }
        } else {
            // sta currentAudioSlot; sta musicTrack_dec; dec musicTrack_dec; lda #$7F;
            // sta musicStagingSq1Sweep; sta musicStagingSq1Sweep+1; jsr loadMusicTrack
            self.k.run(&[3, 4, 6, 2, 4, 4, 6]);
            self.s.music_staging_sq1_sweep = [0x7F; 2];
            self.load_music_track(track);
        }
        // jmp updateMusicFrame
        self.k.run(&[3]);
        self.update_music_frame();
    }

    /// `loadMusicTrack` after its `jsr`, through its `rts`.
    #[inline(always)]
    fn load_music_track(&mut self, track: u8) {
        // jsr muteAudioAndClearTriControl
        self.k.run(&[6]);
        self.mute_and_clear_tri_control();
        // lda currentAudioSlot; sta currentlyPlayingMusicTrack
        self.k.run(&[3, 4]);
        self.s.currently_playing_music_track = track;
        if self.rom.is_none() {
            self.exact = false;
            self.k.lump(MUSIC_LOAD_ESTIMATE);
            return;
        }
        // lda musicTrack_dec; tay; lda musicDataTableIndex,y; tay; ldx #0
        let i = track.wrapping_sub(1);
        let mut y = self.read(MUSIC_DATA_TABLE_INDEX.wrapping_add(i as u16));
        self.k.run(&[4, 2, 4 + px(MUSIC_DATA_TABLE_INDEX, i), 2, 2]);
        // The 10-byte header: lda musicDataTable,y; sta musicDataNoteTableOffset,x; iny;
        // inx; txa; cmp #$0A; bne
        let mut header = [0u8; 10];
        for (n, h) in header.iter_mut().enumerate() {
            *h = self.read(MUSIC_DATA_TABLE.wrapping_add(y as u16));
            self.k
                .run(&[4 + px(MUSIC_DATA_TABLE, y), 5, 2, 2, 2, 2, b(n != 9)]);
            y = y.wrapping_add(1);
        }
        self.s.music_data_note_table_offset = header[0];
        self.s.music_data_duration_table_offset = header[1];
        for c in 0..4 {
            self.s.music_data_chan_ptr[c] =
                u16::from_le_bytes([header[2 + 2 * c], header[3 + 2 * c]]);
        }
        // lda #1; sta musicChanNoteDurationRemaining x4; lda #0; sta music_unused2; ldy #8
        self.k.run(&[2, 4, 4, 4, 4, 2, 3, 2]);
        self.s.music_chan_note_duration_remaining = [1; 4];
        // sta musicDataChanPtrDeref+7,y; dey; bne: clears musicDataChanPtrOff and
        // musicDataChanInstructionOffset; then tax
        self.k.repeat(&[5, 2, 3], 7);
        self.k.run(&[5, 2, 2, 2]);
        self.s.music_data_chan_ptr_off = [0; 4];
        self.s.music_data_chan_instruction_offset = [0; 4];
        for c in 0..4 {
            // derefNextAddr: lda musicDataChanPtr,x; sta musicChanTmpAddr;
            // lda musicDataChanPtr+1,x; cmp #$FF; beq copyFFFFToDeref: $E71B -> $E6D0
            let script = self.s.music_data_chan_ptr[c];
            let silent = script >> 8 == 0xFF;
            self.k.run(&[4, 3, 4, 2, bx(silent)]);
            if silent {
                // lda #$FF; sta musicDataChanPtrDeref,x; bne storeDeref1AndContinue:
                // $E6D5 -> $E72A; sta musicDataChanPtrDeref+1,x
                self.k.run(&[2, 5, 4, 5]);
                self.s.music_data_chan_ptr_deref[c] = 0xFFFF;
            } else {
                // sta musicChanTmpAddr+1; ldy musicDataChanPtrOff (always 0 here);
                // lda (musicChanTmpAddr),y; sta ..Deref,x; iny; lda (musicChanTmpAddr),y;
                // sta ..Deref+1,x
                let lo = self.read(script);
                let hi = self.read(script.wrapping_add(1));
                self.k.run(&[3, 4, 5, 5, 2, 5 + px(script, 1), 5]);
                self.s.music_data_chan_ptr_deref[c] = u16::from_le_bytes([lo, hi]);
            }
            // inx; inx; txa; cmp #8; bne derefNextAddr
            self.k.run(&[2, 2, 2, 2, b(c != 3)]);
        }
        // rts
        self.k.run(&[6]);
    }

    /// `initSq12IfTrashedBySoundEffect` after its `jsr`, through its `rts`: the squares'
    /// registers back to the music's notes after an effect.
    #[inline(always)]
    fn init_sq12_if_trashed(&mut self) {
        // lda resetSq12ForMusic; beq (to an rts)
        let reset = self.s.reset_sq12_for_music;
        self.k.run(&[4, b(reset == 0)]);
        if reset == 0 {
            self.k.run(&[6]);
            return;
        }
        // cmp #1; beq @setSq1
        self.k.run(&[2, b(reset == 1)]);
        if reset != 1 {
            // lda #$7F; sta SQ2_SWEEP; lda musicStagingSq2Lo; sta SQ2_LO;
            // lda musicStagingSq2Hi; sta SQ2_HI
            self.k.run(&[2, 4, 4, 4, 4, 4]);
        }
        // the same for square 1; lda #0; sta resetSq12ForMusic; rts
        self.k.run(&[2, 4, 4, 4, 4, 4, 2, 4, 6]);
        self.s.reset_sq12_for_music = 0;
    }

    /// `updateMusicFrame`, from its first instruction to the `rts` that returns to
    /// `updateAudio`.
    #[inline(always)]
    fn update_music_frame(&mut self) {
        // jsr initSq12IfTrashedBySoundEffect
        self.k.run(&[6]);
        self.init_sq12_if_trashed();
        if self.rom.is_none() {
            self.exact = false;
            self.k.lump(MUSIC_FRAME_ESTIMATE);
            return;
        }
        // lda #0; tax; sta musicChannelOffset; beq updateMusicFrame_updateChannel
        self.k.run(&[2, 2, 3, 3]);
        let mut steps = 0;
        for c in 0..4 {
            if let Turn::Stopped = self.update_channel(c, &mut steps) {
                return;
            }
            // updateMusicFrame_incSlot: inx; txa; cmp #4; beq updateMusicFrame_ret:
            // $E851 -> $E7FE
            self.k.run(&[2, 2, 2, bx(c == 3)]);
            if c == 3 {
                // rts
                self.k.run(&[6]);
                return;
            }
            // lda musicChannelOffset; clc; adc #4; sta musicChannelOffset
            self.k.run(&[3, 2, 2, 3]);
        }
    }

    /// `updateMusicFrame_updateChannel` for channel `c`, up to its jump back to
    /// `updateMusicFrame_incSlot`.
    #[inline(always)]
    fn update_channel(&mut self, c: usize, steps: &mut u32) -> Turn {
        // Re-entered when the channel moves on to its next routine.
        loop {
            // txa; asl; tax; lda musicDataChanPtrDeref,x; sta musicChanTmpAddr;
            // lda ..+1,x; sta musicChanTmpAddr+1; lda ..+1,x; cmp #$FF;
            // beq updateMusicFrame_incSlotFromOffset
            let routine = self.s.music_data_chan_ptr_deref[c];
            let silent = routine >> 8 == 0xFF;
            self.k.run(&[2, 2, 2, 4, 3, 4, 3, 4, 2, b(silent)]);
            if silent {
                // txa; lsr; tax
                self.k.run(&[2, 2, 2]);
                return Turn::Next;
            }
            // txa; lsr; tax; dec musicChanNoteDurationRemaining,x; bne @updateChannelFrame
            let left = self.s.music_chan_note_duration_remaining[c].wrapping_sub(1);
            self.s.music_chan_note_duration_remaining[c] = left;
            self.k.run(&[2, 2, 2, 7, b(left != 0)]);
            if left != 0 {
                // jsr updateMusicFrame_setChanVol; jsr updateMusicFrame_setChanLo;
                // jmp updateMusicFrame_incSlot
                self.k.run(&[6]);
                self.set_chan_vol(c);
                self.k.run(&[6]);
                self.set_chan_lo(c);
                self.k.run(&[3]);
                return Turn::Next;
            }
            // lda #0; sta musicChanVolFrameCounter,x; sta musicChanLoFrameCounter,x
            self.k.run(&[2, 5, 5]);
            self.s.music_chan_vol_frame_counter[c] = 0;
            self.s.music_chan_lo_frame_counter[c] = 0;
            match self.process_channel_instruction(c, routine, steps) {
                Some(turn) => return turn,
                None => continue,
            }
        }
    }

    /// `jsr musicGetNextInstructionByte` through its `rts`.
    #[inline(always)]
    fn next_byte(&mut self, c: usize, routine: u16) -> u8 {
        // jsr; ldy musicDataChanInstructionOffset,x; inc ..,x; lda (musicChanTmpAddr),y; rts
        let y = self.s.music_data_chan_instruction_offset[c];
        self.s.music_data_chan_instruction_offset[c] = y.wrapping_add(1);
        let v = self.read(routine.wrapping_add(y as u16));
        self.k.run(&[6, 4, 7, 5 + px(routine, y), 6]);
        v
    }

    /// `@processChannelInstruction` and what follows until the channel's turn ends
    /// (`Some`), or until the channel moved to its next routine and
    /// `updateMusicFrame_updateChannel` starts over (`None`).
    #[inline(always)]
    fn process_channel_instruction(
        &mut self,
        c: usize,
        routine: u16,
        steps: &mut u32,
    ) -> Option<Turn> {
        loop {
            *steps += 1;
            if *steps > STEP_LIMIT {
                self.exact = false;
                return Some(Turn::Stopped);
            }
            let op = self.next_byte(c, routine);
            // beq updateMusicFrame_progNextRoutine_jmp
            self.k.run(&[b(op == 0)]);
            if op == 0 {
                // jmp updateMusicFrame_progNextRoutine
                self.k.run(&[3]);
                return self.prog_next_routine(c, steps);
            }
            // cmp #$9F; beq @setControlAndVolume
            self.k.run(&[2, b(op == 0x9F)]);
            if op == 0x9F {
                let control = self.next_byte(c, routine);
                // sta musicChanControl,x (for the noise channel: musicChanVolume)
                self.k.run(&[5]);
                match c {
                    0..=2 => self.s.music_chan_control[c] = control,
                    _ => self.s.music_chan_volume[0] = control,
                }
                let volume = self.next_byte(c, routine);
                // sta musicChanVolume,x (for the noise channel: the low byte of square 1's
                // musicDataChanPtrDeref); jmp @processChannelInstruction
                self.k.run(&[5, 3]);
                match c {
                    0..=2 => self.s.music_chan_volume[c] = volume,
                    _ => {
                        let d = &mut self.s.music_data_chan_ptr_deref[0];
                        *d = (*d & 0xFF00) | volume as u16;
                    }
                }
                continue;
            }
            // cmp #$9E; beq @setDurationOffset
            self.k.run(&[2, b(op == 0x9E)]);
            if op == 0x9E {
                let v = self.next_byte(c, routine);
                // sta musicDataDurationTableOffset; jmp @processChannelInstruction
                self.k.run(&[4, 3]);
                self.s.music_data_duration_table_offset = v;
                continue;
            }
            // cmp #$9C; beq @setNoteOffset
            self.k.run(&[2, b(op == 0x9C)]);
            if op == 0x9C {
                let v = self.next_byte(c, routine);
                self.k.run(&[4, 3]);
                self.s.music_data_note_table_offset = v;
                continue;
            }
            // tay; cmp #$FF; beq @endLoop
            self.k.run(&[2, 2, b(op == 0xFF)]);
            let loop_start = if op == 0xFF {
                // lda musicChanProgLoopCounter,x; beq @processChannelInstruction_jmp
                let n = self.s.music_chan_prog_loop_counter[c];
                self.k.run(&[4, b(n == 0)]);
                if n == 0 {
                    // jmp @processChannelInstruction
                    self.k.run(&[3]);
                    continue;
                }
                // dec musicChanProgLoopCounter,x; lda ..InstructionOffsetBackup,x;
                // sta ..InstructionOffset,x; bne @processChannelInstruction_jmp
                let back = self.s.music_data_chan_instruction_offset_backup[c];
                self.s.music_chan_prog_loop_counter[c] = n - 1;
                self.s.music_data_chan_instruction_offset[c] = back;
                self.k.run(&[7, 4, 5, b(back != 0)]);
                if back != 0 {
                    self.k.run(&[3]);
                    continue;
                }
                // A loop that started at offset 0 falls into @startForLoop with Y = $FF.
                true
            } else {
                // and #$C0; cmp #$C0; beq @startForLoop
                let start = op & 0xC0 == 0xC0;
                self.k.run(&[2, 2, b(start)]);
                start
            };
            if loop_start {
                // tya; and #$3F; sta musicChanProgLoopCounter,x; dec ..,x;
                // lda musicDataChanInstructionOffset,x; sta ..Backup,x;
                // jmp @processChannelInstruction
                self.k.run(&[2, 2, 5, 7, 4, 5, 3]);
                self.s.music_chan_prog_loop_counter[c] = (op & 0x3F).wrapping_sub(1);
                self.s.music_data_chan_instruction_offset_backup[c] =
                    self.s.music_data_chan_instruction_offset[c];
                continue;
            }
            // jmp @noteAndMaybeDuration
            self.k.run(&[3]);
            self.note_and_maybe_duration(c, routine, op);
            return Some(Turn::Next);
        }
    }

    /// `updateMusicFrame_progNextRoutine` through `updateMusicFrame_progLoadRoutine`: the
    /// channel's next routine from its script.
    #[inline(always)]
    fn prog_next_routine(&mut self, c: usize, steps: &mut u32) -> Option<Turn> {
        // txa; asl; tax; lda musicDataChanPtr,x; sta musicChanTmpAddr; lda ..+1,x;
        // sta musicChanTmpAddr+1; txa; lsr; tax; inc musicDataChanPtrOff,x (twice);
        // ldy musicDataChanPtrOff,x
        self.k.run(&[2, 2, 2, 4, 3, 4, 3, 2, 2, 2, 7, 7, 4]);
        let off = self.s.music_data_chan_ptr_off[c].wrapping_add(2);
        self.s.music_data_chan_ptr_off[c] = off;
        let mut script = self.s.music_data_chan_ptr[c];
        let mut y = off;
        // Around again each time the script says $FFFF: go on with another script.
        loop {
            *steps += 1;
            if *steps > STEP_LIMIT {
                self.exact = false;
                return Some(Turn::Stopped);
            }
            // updateMusicFrame_progLoadRoutine: txa; asl; tax; lda (musicChanTmpAddr),y;
            // sta musicDataChanPtrDeref,x; iny; lda (musicChanTmpAddr),y;
            // sta ..Deref+1,x; cmp #0; beq updateMusicFrame_progEnd: $E828 -> $E7FB
            let y1 = y.wrapping_add(1);
            let lo = self.read(script.wrapping_add(y as u16));
            let hi = self.read(script.wrapping_add(y1 as u16));
            self.s.music_data_chan_ptr_deref[c] = u16::from_le_bytes([lo, hi]);
            self.k.run(&[
                2,
                2,
                2,
                5 + px(script, y),
                5,
                2,
                5 + px(script, y1),
                5,
                2,
                bx(hi == 0),
            ]);
            if hi == 0 {
                // jsr soundEffectSlot2_makesNoSound; rts
                self.k.run(&[6]);
                self.make_no_sound();
                self.k.run(&[6]);
                return Some(Turn::Stopped);
            }
            // cmp #$FF; beq updateMusicFrame_progLoadNextScript: $E82C -> $E7D9
            self.k.run(&[2, bx(hi == 0xFF)]);
            if hi != 0xFF {
                break;
            }
            // iny; lda (musicChanTmpAddr),y; sta musicDataChanPtr,x; iny;
            // lda (musicChanTmpAddr),y; sta musicDataChanPtr+1,x; lda ..,x;
            // sta musicChanTmpAddr; lda ..+1,x; sta musicChanTmpAddr+1; txa; lsr; tax;
            // lda #0; tay; sta musicDataChanPtrOff,x; jmp updateMusicFrame_progLoadRoutine
            let y2 = y1.wrapping_add(1);
            let y3 = y2.wrapping_add(1);
            let next = u16::from_le_bytes([
                self.read(script.wrapping_add(y2 as u16)),
                self.read(script.wrapping_add(y3 as u16)),
            ]);
            self.k.run(&[
                2,
                5 + px(script, y2),
                5,
                2,
                5 + px(script, y3),
                5,
                4,
                3,
                4,
                3,
                2,
                2,
                2,
                2,
                2,
                5,
                3,
            ]);
            self.s.music_data_chan_ptr[c] = next;
            self.s.music_data_chan_ptr_off[c] = 0;
            script = next;
            y = 0;
        }
        // txa; lsr; tax; lda #0; sta musicDataChanInstructionOffset,x; lda #1;
        // sta musicChanNoteDurationRemaining,x; bne updateMusicFrame_updateChannel
        self.k.run(&[2, 2, 2, 2, 5, 2, 5, 3]);
        self.s.music_data_chan_instruction_offset[c] = 0;
        self.s.music_chan_note_duration_remaining[c] = 1;
        None
    }

    /// `@noteAndMaybeDuration` up to the jump back to `updateMusicFrame_incSlot`.
    #[inline(always)]
    fn note_and_maybe_duration(&mut self, c: usize, routine: u16, op: u8) {
        // tya; and #$B0; cmp #$B0; bne @processNote: $E8FD -> $E917
        let timed = op & 0xB0 == 0xB0;
        self.k.run(&[2, 2, 2, bx(!timed)]);
        let note = if timed {
            // tya; and #$0F; clc; adc musicDataDurationTableOffset; tay;
            // lda noteDurationTable,y; sta musicChanNoteDuration,x; tay; txa; cmp #2;
            // beq @applyDurationForTri_jmp: $E911 -> $E8CB
            let i = (op & 0x0F).wrapping_add(self.s.music_data_duration_table_offset);
            let frames = self.read(NOTE_DURATION_TABLE.wrapping_add(i as u16));
            self.s.music_chan_note_duration[c] = frames;
            self.k.run(&[
                2,
                2,
                2,
                4,
                2,
                4 + px(NOTE_DURATION_TABLE, i),
                5,
                2,
                2,
                2,
                bx(c == 2),
            ]);
            if c == 2 {
                // jmp @applyDurationForTri
                self.k.run(&[3]);
                self.apply_duration_for_tri(frames);
            }
            // @loadNextAsNote: jsr musicGetNextInstructionByte; tay
            let n = self.next_byte(c, routine);
            self.k.run(&[2]);
            n
        } else {
            op
        };
        self.process_note(c, note);
    }

    /// `@applyDurationForTri` up to its `jmp @loadNextAsNote`: the triangle's linear
    /// counter from its control byte or the note's duration.
    #[inline(always)]
    fn apply_duration_for_tri(&mut self, frames: u8) {
        // lda musicChanControl+2; and #$1F; bne @setTriVolume
        let control = self.s.music_chan_control[2];
        self.k.run(&[4, 2, b(control & 0x1F != 0)]);
        let linear = if control & 0x1F != 0 {
            control & 0x1F
        } else {
            // lda musicChanControl+2; and #$C0; bne @highCtrlImpliesOn
            let high = control & 0xC0;
            self.k.run(&[4, 2, b(high != 0)]);
            // Where the code stands: @highCtrlImpliesOn with A, or @useDuration.
            let mut at_high = high != 0;
            let mut a = high;
            loop {
                if at_high {
                    // cmp #$C0; beq @useDuration
                    self.k.run(&[2, b(a == 0xC0)]);
                    if a == 0xC0 {
                        at_high = false;
                        continue;
                    }
                    // lda #$FF; bne @setTriVolume
                    self.k.run(&[2, 3]);
                    break 0xFF;
                }
                // @useDuration: tya; bne @durationToLinearClock
                self.k.run(&[2, b(frames != 0)]);
                if frames == 0 {
                    // falls into @highCtrlImpliesOn with A = 0
                    at_high = true;
                    a = 0;
                    continue;
                }
                // clc; adc #$FF; asl; asl; cmp #$3C; bcc @setTriVolume (quarter frames)
                let q = frames.wrapping_sub(1) << 2;
                self.k.run(&[2, 2, 2, 2, 2, b(q < 0x3C)]);
                if q < 0x3C {
                    break q;
                }
                // lda #$3C
                self.k.run(&[2]);
                break 0x3C;
            }
        };
        // sta musicChanVolume+2; jmp @loadNextAsNote
        self.k.run(&[4, 3]);
        self.s.music_chan_volume[2] = linear;
    }

    /// `@processNote` up to the jump back to `updateMusicFrame_incSlot`.
    #[inline(always)]
    fn process_note(&mut self, c: usize, note: u8) {
        // tya; sta musicChanNote,x; txa; cmp #3; beq @playDmcAndNoise_jmp: $E91E -> $E8C8
        self.s.music_chan_note[c] = note;
        self.k.run(&[2, 5, 2, 2, bx(c == 3)]);
        if c == 3 {
            // jmp @playDmcAndNoise
            self.k.run(&[3]);
            return self.play_dmc_and_noise(note);
        }
        // pha; ldx musicChannelOffset; lda noteToWaveTable+1,y; beq @determineVolume
        let wave = NOTE_TO_WAVE_TABLE + 1;
        let rest = self.read(wave.wrapping_add(note as u16)) == 0;
        self.k.run(&[3, 3, 4 + px(wave, note), b(rest)]);
        if !rest {
            // lda musicDataNoteTableOffset; bpl @signMagnitudeIsPositive
            let offset = self.s.music_data_note_table_offset;
            self.k.run(&[4, b(offset < 0x80)]);
            let i = if offset < 0x80 {
                // tya; clc; adc musicDataNoteTableOffset
                self.k.run(&[2, 2, 4]);
                note.wrapping_add(offset)
            } else {
                // and #$7F; sta AUDIOTMP4; tya; clc; sbc AUDIOTMP4 (one more: carry clear);
                // jmp @noteOffsetApplied
                self.k.run(&[2, 3, 2, 2, 3, 3]);
                note.wrapping_sub(offset & 0x7F).wrapping_sub(1)
            };
            // tay; lda noteToWaveTable+1,y; sta musicStagingSq1Lo,x; lda noteToWaveTable,y;
            // ora #8; sta musicStagingSq1Hi,x
            let lo = self.read(wave.wrapping_add(i as u16));
            let hi = self.read(NOTE_TO_WAVE_TABLE.wrapping_add(i as u16)) | 8;
            self.k
                .run(&[2, 4 + px(wave, i), 5, 4 + px(NOTE_TO_WAVE_TABLE, i), 2, 5]);
            self.s.music_staging_lo[c] = lo;
            self.s.music_staging_hi[c] = hi;
        }
        // @determineVolume: tay; pla; tax; tya; bne @loadVolume (A is the high byte just
        // stored, never 0, or the rest's 0)
        self.k.run(&[2, 4, 2, 2, b(!rest)]);
        let volume = if !rest {
            // lda musicChanVolume,x; sta AUDIOTMP1
            self.k.run(&[4, 3]);
            self.s.music_chan_volume[c]
        } else {
            // lda #0; sta AUDIOTMP1; txa; cmp #2; beq @checkChanControl
            self.k.run(&[2, 3, 2, 2, b(c == 2)]);
            if c == 2 {
                0
            } else {
                // lda #$10; sta AUDIOTMP1; bne @checkChanControl
                self.k.run(&[2, 3, 3]);
                0x10
            }
        };
        // @checkChanControl: txa; dec musicChanInhibit,x; cmp musicChanInhibit,x;
        // beq @channelInhibited (an effect of slot c + 1 owns the channel)
        let inhibited = self.s.music_chan_inhibit[c].wrapping_sub(1) == c as u8;
        self.k.run(&[2, 7, 4, b(inhibited)]);
        if inhibited {
            // inc musicChanInhibit,x; jmp @copyDurationToRemaining
            self.k.run(&[7, 3]);
        } else {
            // inc musicChanInhibit,x; ldy musicChannelOffset; txa; cmp #2;
            // beq @useDirectVolume
            self.k.run(&[7, 3, 2, 2, b(c == 2)]);
            let mut direct = c == 2;
            if !direct {
                // lda musicChanControl,x; and #$1F; beq @useDirectVolume
                let envelope = self.s.music_chan_control[c] & 0x1F != 0;
                self.k.run(&[4, 2, b(!envelope)]);
                if envelope {
                    // lda AUDIOTMP1; cmp #$10; beq @setMmio
                    self.k.run(&[3, 2, b(volume == 0x10)]);
                    if volume != 0x10 {
                        // and #$F0; ora #0; bne @setMmio
                        self.k.run(&[2, 2, b(volume & 0xF0 != 0)]);
                        direct = volume & 0xF0 == 0;
                    }
                } else {
                    direct = true;
                }
            }
            if direct {
                // @useDirectVolume: lda AUDIOTMP1
                self.k.run(&[3]);
            }
            // @setMmio: sta SQ1_VOL,y; lda musicStagingSq1Sweep,x; sta SQ1_SWEEP,y;
            // lda musicStagingSq1Lo,y; sta SQ1_LO,y; lda musicStagingSq1Hi,y; sta SQ1_HI,y
            self.k.run(&[5, 4, 5, 4, 5, 4, 5]);
        }
        self.copy_duration_to_remaining(c);
    }

    /// `@copyDurationToRemaining` up to its `jmp updateMusicFrame_incSlot`.
    #[inline(always)]
    fn copy_duration_to_remaining(&mut self, c: usize) {
        // lda musicChanNoteDuration,x; sta musicChanNoteDurationRemaining,x; jmp
        self.k.run(&[4, 5, 3]);
        self.s.music_chan_note_duration_remaining[c] = self.s.music_chan_note_duration[c];
    }

    /// `@playDmcAndNoise` up to its jump back to `updateMusicFrame_incSlot`.
    #[inline(always)]
    fn play_dmc_and_noise(&mut self, note: u8) {
        // tya; pha; jsr playDmc; tya; and #$C0; cmp #$40; beq @loadDmc0
        let sample = note & 0xC0;
        self.k.run(&[2, 3, 6, 2, 2, 2, b(sample == 0x40)]);
        if sample == 0x40 {
            // lda #$0E; sta AUDIOTMP2; lda #7; ldy #0; beq @loadIntoDmc
            self.k.run(&[2, 3, 2, 2, 3]);
            self.load_into_dmc();
        } else {
            // cmp #$80; beq @loadDmc1
            self.k.run(&[2, b(sample == 0x80)]);
            if sample == 0x80 {
                // lda #$0E; sta AUDIOTMP2; lda #$0F; ldy #2
                self.k.run(&[2, 3, 2, 2]);
                self.load_into_dmc();
            } else {
                // rts
                self.k.run(&[6]);
            }
        }
        // pla; and #$3F; tay; jsr playNoise; lda soundEffectSlot0Playing; bne @ret:
        // $E9EE -> $EA02
        let busy = self.s.sound_effect_slot_playing[0] != 0;
        self.k.run(&[4, 2, 2, 6, 4, bx(busy)]);
        if !busy {
            // lda noises_table,y; sta NOISE_VOL; lda noises_table+1,y; sta NOISE_LO;
            // lda noises_table+2,y; sta NOISE_HI
            let y = note & 0x3F;
            self.k.run(&[
                4 + px(NOISES_TABLE, y),
                4,
                4 + px(NOISES_TABLE + 1, y),
                4,
                4 + px(NOISES_TABLE + 2, y),
                4,
            ]);
        }
        // rts; jmp @copyDurationToRemaining
        self.k.run(&[6, 3]);
        self.copy_duration_to_remaining(3);
    }

    /// `@loadIntoDmc` through `playDmc`'s `rts`. `$06F7` is never written after the reset
    /// clears it, so the DMC always starts, and its reads then steal cycles.
    #[inline(always)]
    fn load_into_dmc(&mut self) {
        // sta DMC_LEN; sty DMC_START; lda $06F7; bne @ret; lda AUDIOTMP2; sta DMC_FREQ;
        // lda #$0F; sta SND_CHN; lda #0; sta DMC_RAW; lda #$1F; sta SND_CHN; rts
        self.k.run(&[4, 4, 4, 2, 3, 4, 2, 4, 2, 4, 2, 4, 6]);
        self.exact = false;
    }

    /// `updateMusicFrame_setChanVol` after its `jsr`, through its `rts`: one step of a
    /// square's envelope.
    #[inline(always)]
    fn set_chan_vol(&mut self, c: usize) {
        // txa; cmp #2; bcs (to an rts)
        self.k.run(&[2, 2, b(c >= 2)]);
        if c >= 2 {
            self.k.run(&[6]);
            return;
        }
        // lda musicChanControl,x; and #$1F; beq @ret
        let envelope = self.s.music_chan_control[c] & 0x1F;
        self.k.run(&[4, 2, b(envelope == 0)]);
        if envelope == 0 {
            self.k.run(&[6]);
            return;
        }
        // sta AUDIOTMP2; lda musicChanNote,x; cmp #2; beq @muteAndAdvanceFrame
        let rest = self.s.music_chan_note[c] == 2;
        self.k.run(&[3, 4, 2, b(rest)]);
        if rest {
            // ldy #$10; bne @advanceFrameAndSetVol
            self.k.run(&[2, 3]);
        } else {
            // ldy #0; then dec AUDIOTMP2; beq @loadFromTable; iny; iny; bne, until the
            // envelope number counts down
            self.k.run(&[2]);
            self.k.repeat(&[5, 2, 2, 2, 3], envelope as u32 - 1);
            self.k.run(&[5, 3]);
            let y = 2 * (envelope - 1);
            let table = u16::from_le_bytes([
                self.read(MUSIC_CHAN_VOL_CONTROL_TABLE + y as u16),
                self.read(MUSIC_CHAN_VOL_CONTROL_TABLE + 1 + y as u16),
            ]);
            let frame = self.s.music_chan_vol_frame_counter[c];
            let i = frame >> 1;
            let byte = self.read(table.wrapping_add(i as u16));
            // lda musicChanVolControlTable,y; sta AUDIOTMP3; lda ..+1,y; sta AUDIOTMP4;
            // lda musicChanVolFrameCounter,x; lsr; tay; lda (AUDIOTMP3),y; sta AUDIOTMP5;
            // cmp #$FF; beq @constVolAtEnd
            self.k.run(&[
                4 + px(MUSIC_CHAN_VOL_CONTROL_TABLE, y),
                3,
                4 + px(MUSIC_CHAN_VOL_CONTROL_TABLE + 1, y),
                3,
                4,
                2,
                2,
                5 + px(table, i),
                3,
                2,
                b(byte == 0xFF),
            ]);
            if byte == 0xFF {
                // @constVolAtEnd: ldy musicChanVolume,x; bne @setVol
                let v = self.s.music_chan_volume[c];
                self.k.run(&[4, b(v != 0)]);
                if v == 0 {
                    // @muteAtEnd: ldy #$10; bne @setVol
                    self.k.run(&[2, 3]);
                }
                return self.set_vol(c);
            }
            // cmp #$F0; beq @muteAtEnd
            self.k.run(&[2, b(byte == 0xF0)]);
            if byte == 0xF0 {
                self.k.run(&[2, 3]);
                return self.set_vol(c);
            }
            // lda musicChanVolFrameCounter,x; and #1; bne @useNibbleFromTable
            let odd = frame & 1 != 0;
            self.k.run(&[4, 2, b(odd)]);
            if !odd {
                // lsr AUDIOTMP5 x4
                self.k.run(&[5, 5, 5, 5]);
            }
            // lda AUDIOTMP5; and #$0F; sta AUDIOTMP1; lda musicChanVolume,x; and #$F0;
            // ora AUDIOTMP1; tay
            self.k.run(&[3, 2, 3, 4, 2, 3, 2]);
        }
        // @advanceFrameAndSetVol: inc musicChanVolFrameCounter,x
        self.k.run(&[7]);
        let f = &mut self.s.music_chan_vol_frame_counter[c];
        *f = f.wrapping_add(1);
        self.set_vol(c);
    }

    /// `@setVol` through its `rts`.
    #[inline(always)]
    fn set_vol(&mut self, c: usize) {
        // lda musicChanInhibit,x; bne @ret; tya; ldy musicChannelOffset; sta SQ1_VOL,y; rts
        let inhibited = self.s.music_chan_inhibit[c] != 0;
        self.k.run(&[4, b(inhibited)]);
        if !inhibited {
            self.k.run(&[2, 3, 5]);
        }
        self.k.run(&[6]);
    }

    /// `updateMusicFrame_setChanLo` after its `jsr`, through its `rts`: one step of a
    /// tonal channel's pitch effect. The offsets it adds go only to the APU, so it reads no
    /// music data.
    #[inline(always)]
    fn set_chan_lo(&mut self, c: usize) {
        // lda currentlyPlayingMusicTrack; cmp #1; beq @ret (the title music has none)
        let title = self.s.currently_playing_music_track == 1;
        self.k.run(&[4, 2, b(title)]);
        if title {
            self.k.run(&[6]);
            return;
        }
        // txa; cmp #3; beq @ret
        self.k.run(&[2, 2, b(c == 3)]);
        if c == 3 {
            self.k.run(&[6]);
            return;
        }
        // lda musicChanControl,x; and #$E0; beq @ret
        let effect = self.s.music_chan_control[c] & 0xE0;
        self.k.run(&[4, 2, b(effect == 0)]);
        if effect == 0 {
            self.k.run(&[6]);
            return;
        }
        // sta AUDIOTMP1; lda musicChanNote,x; cmp #2; beq @incAndRet
        let rest = self.s.music_chan_note[c] == 2;
        self.k.run(&[3, 4, 2, b(rest)]);
        if !rest {
            // ldy musicChannelOffset; lda musicStagingSq1Lo,y; sta AUDIOTMP2;
            // jsr updateMusicFrame_setChanLoOffset
            self.k.run(&[3, 4, 3, 6]);
            self.set_chan_lo_offset(c, effect);
        }
        // @incAndRet: inc musicChanLoFrameCounter,x; rts
        self.k.run(&[7, 6]);
        let f = &mut self.s.music_chan_lo_frame_counter[c];
        *f = f.wrapping_add(1);
    }

    /// `updateMusicFrame_setChanLoOffset` after its `jsr`, through its `rts`.
    #[inline(always)]
    fn set_chan_lo_offset(&mut self, c: usize, effect: u8) {
        let frame = self.s.music_chan_lo_frame_counter[c];
        // lda musicChanLoFrameCounter,x; sta AUDIOTMP3; lda AUDIOTMP1
        self.k.run(&[4, 3, 3]);
        // The dispatch: cmp #$20, #$A0, #$60, #$40, #$80, #$C0, each with its beq (the
        // last two to another page: $E650, $E654 -> $E5FA); $E0 falls through to @2AndE.
        let mut chosen = 0xE0;
        for (n, e) in [0x20u8, 0xA0, 0x60, 0x40, 0x80, 0xC0]
            .into_iter()
            .enumerate()
        {
            let hit = effect == e;
            self.k.run(&[2, if n < 4 { b(hit) } else { bx(hit) }]);
            if hit {
                chosen = e;
                break;
            }
        }
        // The index the table is read at and saved back as the counter, if it is.
        let saved = match chosen {
            0x60 => {
                // musicLoOffset_minus2_6: lda musicChanNote,x; cmp #$4C; bcc; lda #$FE;
                // bne musicLoOffset_setLo (the same either way)
                let low = self.s.music_chan_note[c] < 0x4C;
                self.k.run(&[4, 2, b(low), 2, 3]);
                None
            }
            0x40 => {
                // musicLoOffset_4: lda AUDIOTMP3; tay; cmp #$10; bcs @outOfRange
                let out = frame >= 0x10;
                self.k.run(&[3, 2, 2, b(out)]);
                if out {
                    // lda #$F6; bne musicLoOffset_setLo
                    self.k.run(&[2, 3]);
                } else {
                    // lda loOffDescendToNeg11BounceToNeg9Table,y; jmp musicLoOffset_setLo
                    self.k.run(&[
                        4 + px(LO_OFF_DESCEND_TO_NEG11_BOUNCE_TO_NEG9_TABLE, frame),
                        3,
                    ]);
                }
                None
            }
            0x80 | 0xC0 => {
                // musicLoOffset_8AndC: lda AUDIOTMP3; cmp #$31; bne @lessThan31; lda #$27
                self.k.run(&[3, 2, b(frame != 0x31)]);
                let i = if frame == 0x31 {
                    self.k.run(&[2]);
                    0x27
                } else {
                    frame
                };
                // tay; lda loOff9To0FallTable,y; pha; lda musicChanNote,x; cmp #$46; bne LE613
                let other = self.s.music_chan_note[c] != 0x46;
                self.k
                    .run(&[2, 4 + px(LO_OFF_9_TO_0_FALL_TABLE, i), 3, 4, 2, b(other)]);
                if other {
                    // pla; jmp musicLoOffset_setLoAndSaveFrameCounter
                    self.k.run(&[4, 3]);
                } else {
                    // pla; lda #0; beq musicLoOffset_setLoAndSaveFrameCounter
                    self.k.run(&[4, 2, 3]);
                }
                Some(i)
            }
            0xA0 => {
                // @A: lda AUDIOTMP3; cmp #$2B; bne @A_lessThan2B; lda #$21; tay;
                // lda loOffSlowStartTrillTable,y (falls into the save)
                self.k.run(&[3, 2, b(frame != 0x2B)]);
                let i = if frame == 0x2B {
                    self.k.run(&[2]);
                    0x21
                } else {
                    frame
                };
                self.k.run(&[2, 4 + px(LO_OFF_SLOW_START_TRILL_TABLE, i)]);
                Some(i)
            }
            _ => {
                // @2AndE: lda AUDIOTMP3; cmp #$0A; bne @2AndE_lessThanA; lda #0; tay;
                // lda loOffTrillNeg2To2Table,y; jmp musicLoOffset_setLoAndSaveFrameCounter
                self.k.run(&[3, 2, b(frame != 0x0A)]);
                let i = if frame == 0x0A {
                    self.k.run(&[2]);
                    0
                } else {
                    frame
                };
                self.k.run(&[2, 4 + px(LO_OFF_TRILL_NEG2_TO_2_TABLE, i), 3]);
                Some(i)
            }
        };
        if let Some(i) = saved {
            // musicLoOffset_setLoAndSaveFrameCounter: pha; tya; sta musicChanLoFrameCounter,x;
            // pla
            self.k.run(&[3, 2, 5, 4]);
            self.s.music_chan_lo_frame_counter[c] = i;
        }
        // musicLoOffset_setLo: pha; lda musicChanInhibit,x; bne @ret
        let inhibited = self.s.music_chan_inhibit[c] != 0;
        self.k.run(&[3, 4, b(inhibited)]);
        if inhibited {
            // pla; rts
            self.k.run(&[4, 6]);
        } else {
            // pla; clc; adc AUDIOTMP2; ldy musicChannelOffset; sta SQ1_LO,y; rts
            self.k.run(&[4, 2, 3, 3, 5, 6]);
        }
    }
}
