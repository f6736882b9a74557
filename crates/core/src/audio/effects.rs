//! `updateAudio` itself, the pause tune and the sound-effect slots.
//!
//! Each slot's update either starts the effect its request byte names (the slot's `Init`
//! table) or advances the one it plays (its `Playing` table). The cartridge finds the
//! routine by counting down the request value in a loop (`computeSoundEffMethod`) and
//! jumps through the address it finds; the seven tables sit back to back at $E009, 33
//! addresses in all, so a value past a slot's own table lands in the next table's
//! routines, which the model follows ([`DISPATCH`]).

use super::clock::{b, bx, px, Clock, Mark};
use super::Cpu;

/// The routines the sound-effect tables point at.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Routine {
    Slot0MakesNoSound,
    GameOverCurtainInit,
    EndingRocketInit,
    AdvanceSlot0WithoutUpdate,
    UpdateSlot0Apu,
    MenuOptionSelectInit,
    MenuScreenSelectInit,
    ShiftInit,
    TetrisAchievedInit,
    RotateInit,
    LevelUpInit,
    LockInit,
    ChirpChirpInit,
    LineClearingInit,
    LineCompletedInit,
    MenuOptionSelectPlaying,
    MenuScreenSelectPlaying,
    Slot1PlayingAdvance,
    TetrisAchievedPlaying,
    RotatePlaying,
    LevelUpPlaying,
    ChirpChirpPlaying,
    LineClearingPlaying,
    LineCompletedPlaying,
    FallingAlien,
    Donk,
    UpdateSlot3Apu,
    Slot3PlayingAdvance,
    Slot2MakesNoSound,
    Buzz,
}

use Routine::*;

/// The 33 addresses from `soundEffectSlot0Init_table` ($E009) to the end of
/// `soundEffectSlot2Init_table` ($E04A), in order.
const DISPATCH: [Routine; 33] = [
    // soundEffectSlot0Init_table
    Slot0MakesNoSound,
    GameOverCurtainInit,
    EndingRocketInit,
    // soundEffectSlot0Playing_table
    AdvanceSlot0WithoutUpdate,
    UpdateSlot0Apu,
    AdvanceSlot0WithoutUpdate,
    // soundEffectSlot1Init_table
    MenuOptionSelectInit,
    MenuScreenSelectInit,
    ShiftInit,
    TetrisAchievedInit,
    RotateInit,
    LevelUpInit,
    LockInit,
    ChirpChirpInit,
    LineClearingInit,
    LineCompletedInit,
    // soundEffectSlot1Playing_table
    MenuOptionSelectPlaying,
    MenuScreenSelectPlaying,
    Slot1PlayingAdvance,
    TetrisAchievedPlaying,
    RotatePlaying,
    LevelUpPlaying,
    Slot1PlayingAdvance,
    ChirpChirpPlaying,
    LineClearingPlaying,
    LineCompletedPlaying,
    // soundEffectSlot3Init_table
    FallingAlien,
    Donk,
    // soundEffectSlot3Playing_table
    UpdateSlot3Apu,
    Slot3PlayingAdvance,
    // soundEffectSlot2Init_table (also slot 2's Playing table)
    Slot2MakesNoSound,
    Buzz,
    Buzz,
];

/// Cycles of the four slot updates when none has anything to do.
const IDLE_SLOTS: u32 = 41 + 38 + 41 + 47;

/// Cycles of the whole update when nothing plays and nothing is asked for: the entry and
/// the pause test (17), the flags cleared (10), the idle slots, `jsr updateMusic` and its
/// way out with no track (6 + 27), the closing loop with its setup (4 + 59) and the `rts`.
pub(super) const QUIET_UPDATE: u32 = 17 + 10 + IDLE_SLOTS + 6 + 27 + 4 + 59 + 6;

/// Cycles of the whole update when slot 1 alone plays request `v` of its `Playing` table,
/// one of the routines that begin `jsr advanceAudioSlotFrame; bne` to an `rts` (all but
/// the chirp's and the menu screen's), the effect going on, and nothing else plays or is
/// asked for: [`QUIET_UPDATE`] with slot 1's walk instead of its idle one (47 cycles).
/// From its `jsr`: the slot-4 test and the slot's setup (21), the request tests and the
/// call (31), `computeSoundEffMethod` (13, 18 a pass for the `v - 1` passes, 42: the
/// table's low byte $29 and `2 (v - 1)` stay on its page), the `jmp` (5),
/// `advanceAudioSlotFrame` (33), the branch and the `rts` (9). (`tests/audio.rs` checks it
/// against the walked update.)
pub(super) const fn slot1_advancing_update(v: u8) -> u32 {
    QUIET_UPDATE - 47 + 21 + 31 + 13 + 18 * (v as u32 - 1) + 42 + 5 + 33 + 9
}

/// Low bytes of the tables' addresses ($E0xx), as the slot updates load them.
const SLOT0_INIT: u8 = 0x09;
const SLOT0_PLAYING: u8 = 0x0F;
const SLOT1_INIT: u8 = 0x15;
const SLOT1_PLAYING: u8 = 0x29;
const SLOT3_INIT: u8 = 0x3D;
const SLOT3_PLAYING: u8 = 0x41;
const SLOT2_INIT: u8 = 0x45;

/// The APU channel `copyToApuChannel` fills, by its entry point.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Channel {
    Sq1,
    Sq2,
    Tri,
    Noise,
}

/// Low bytes of the 4-byte APU images at $E1xx that the effects copy (`...InitData`).
mod data {
    pub const CURTAIN: u8 = 0x04;
    pub const ROCKET: u8 = 0x08;
    pub const PAUSE_EVEN: u8 = 0x0C;
    pub const PAUSE_ODD: u8 = 0x10;
    pub const ROTATE: u8 = 0x14;
    pub const ROTATE_STAGE3: u8 = 0x18;
    pub const LEVEL_UP: u8 = 0x1C;
    pub const LOCK: u8 = 0x20;
    pub const MENU_OPTION: u8 = 0x24;
    pub const MENU_OPTION_STAGE2: u8 = 0x28;
    pub const MENU_SCREEN: u8 = 0x2C;
    pub const TETRIS: u8 = 0x30;
    pub const LINE_COMPLETED: u8 = 0x34;
    pub const LINE_CLEARING: u8 = 0x38;
    pub const CHIRP: u8 = 0x3C;
    pub const CHIRP_STAGE2: u8 = 0x40;
    pub const SHIFT: u8 = 0x44;
    pub const FALLING_ALIEN: u8 = 0x48;
    pub const DONK: u8 = 0x4C;
}

/// `soundEffectSlot1_lineClearing_vol` ($E4B0): its 0 ends the sweep.
const LINE_CLEARING_VOL: [u8; 9] = [0x9E, 0x9B, 0x99, 0x96, 0x94, 0x93, 0x92, 0x91, 0x00];
const LINE_CLEARING_VOL_ADDR: u16 = 0xE4B0;
/// `soundEffectSlot1_lineClearing_lo` ($E4B9): only its address matters (page crossing).
const LINE_CLEARING_LO_ADDR: u16 = 0xE4B9;
/// `soundEffectSlot1_levelUp_lo` ($E4F3): nine notes, then the 0 that ends the effect.
const LEVEL_UP_LO: [u8; 10] = [0x69, 0xA8, 0x69, 0xA8, 0x8D, 0x53, 0x8D, 0x53, 0x8D, 0x00];
const LEVEL_UP_LO_ADDR: u16 = 0xE4F3;
/// `trilo_table` ($E57C): three notes, then the 0 that ends the falling alien.
const TRILO: [u8; 4] = [0x72, 0x74, 0x77, 0x00];
const TRILO_ADDR: u16 = 0xE57C;
/// `soundEffectSlot1_menuScreenSelectInitData+2`: the sweep's first timer byte.
const MENU_SCREEN_SELECT_LO: u8 = 0x84;
/// `soundEffectSlot3_fallingAlienInitData+2`.
const FALLING_ALIEN_LO: u8 = 0x70;
/// Base of the noise tables' pointer (`noiselo_table` $E154, `noisevol_table` $E174).
const NOISELO_TABLE: u16 = 0xE154;
const NOISEVOL_TABLE: u16 = 0xE174;
/// `soundEffectSlot1_chirpChirpSq1Vol_table` ($E150).
const CHIRP_VOL_TABLE: u16 = 0xE150;

impl<K: Clock> Cpu<'_, K> {
    /// A byte of the cartridge's tables: from the facts kept here when the index is in
    /// the table, else from the ROM's data (inexact without it).
    #[inline(always)]
    fn table(&mut self, facts: &[u8], base: u16, i: u8) -> u8 {
        match facts.get(i as usize) {
            Some(&v) => v,
            None => self.read(base.wrapping_add(i as u16)),
        }
    }

    /// `updateAudio_jmp`: the whole call.
    #[inline(always)]
    pub(super) fn update_audio(&mut self) {
        // jmp updateAudio; lda #$C0; sta JOY2_APUFC; lda musicStagingNoiseHi; cmp #$05
        self.k.run(&[3, 2, 4, 4, 2]);
        let paused = self.s.music_staging_noise_hi == 5;
        // beq updateAudio_pause: $E220 -> $E1EF
        self.k.run(&[bx(paused)]);
        if paused {
            return self.pause();
        }
        // lda #0; sta audioInitialized; sta musicPauseSoundEffectCounter
        self.k.run(&[2, 4, 4]);
        self.s.audio_initialized = 0;
        self.s.music_pause_sound_effect_counter = 0;
        if !K::DETAIL
            && self.s.sound_effect_slot_init == [0; 4]
            && self.s.sound_effect_slot_playing == [0; 5]
        {
            // The common frame: every slot finds nothing to start and nothing playing.
            // Slots 2, 0, 3 and 1 from their jsr to their rts: 41 + 38 + 41 + 47 cycles.
            self.k.lump(IDLE_SLOTS);
        } else {
            self.slots();
        }
        // jsr updateMusic
        self.k.run(&[6]);
        self.update_music();
        // lda #0; ldx #6; then sta $06EF,x; dex; bne for x = 6..1: musicTrack down to
        // soundEffectSlot0Init
        self.k.run(&[2, 2]);
        for n in (0..6).rev() {
            self.k.run(&[5]);
            self.k.mark(Mark::Cleared(n));
            self.k.run(&[2, b(n != 0)]);
        }
        self.s.sound_effect_slot_init = [0; 4];
        self.s.music_track = 0;
        // rts
        self.k.run(&[6]);
    }

    /// The four slot updates, from the first `jsr` to slot 1's `rts`.
    #[inline(always)]
    fn slots(&mut self) {
        // jsr updateSoundEffectSlot2: ldx #2; lda #<Init; ldy #<Init; bne
        self.k.run(&[6, 2, 2, 2, 3]);
        self.slot(2, SLOT2_INIT, SLOT2_INIT);
        // jsr updateSoundEffectSlot0: ldx #0; lda; ldy (falls into the shared code)
        self.k.run(&[6, 2, 2, 2]);
        self.slot(0, SLOT0_INIT, SLOT0_PLAYING);
        // jsr updateSoundEffectSlot3: ldx #3; lda; ldy; bne
        self.k.run(&[6, 2, 2, 2, 3]);
        self.slot(3, SLOT3_INIT, SLOT3_PLAYING);
        // jsr updateSoundEffectSlot1; lda soundEffectSlot4Playing; bne (to an rts)
        self.k.run(&[6, 4]);
        let muted = self.s.sound_effect_slot_playing[4] != 0;
        self.k.run(&[b(muted)]);
        if muted {
            self.k.run(&[6]);
        } else {
            // ldx #1; lda; ldy; bne
            self.k.run(&[2, 2, 2, 3]);
            self.slot(1, SLOT1_INIT, SLOT1_PLAYING);
        }
    }

    /// `updateAudio_pause`, up to its `rts` (which returns from the whole update).
    #[inline(always)]
    fn pause(&mut self) {
        // lda audioInitialized; beq initAudioAndMarkInited
        self.k.run(&[4]);
        let first = self.s.audio_initialized == 0;
        self.k.run(&[b(first)]);
        if first {
            // inc audioInitialized; jsr muteAudio; sta musicPauseSoundEffectLengthCounter
            // (muteAudio leaves 0 in A); rts
            self.k.run(&[6, 6]);
            self.mute_audio();
            self.k.run(&[4, 6]);
            self.s.audio_initialized = self.s.audio_initialized.wrapping_add(1);
            self.s.music_pause_sound_effect_length_counter = 0;
            return;
        }
        // lda musicPauseSoundEffectLengthCounter; cmp #$12; beq @ret: $E1F9 -> $E215
        self.k.run(&[4, 2]);
        let n = self.s.music_pause_sound_effect_length_counter;
        self.k.run(&[bx(n == 0x12)]);
        if n == 0x12 {
            self.k.run(&[6]);
            return;
        }
        // and #3; cmp #3; bne @incAndRet
        self.k.run(&[2, 2]);
        let note = n & 3 == 3;
        self.k.run(&[b(!note)]);
        if note {
            // inc musicPauseSoundEffectCounter; ldy #<odd; lda; and #1; bne @tableChosen
            self.k.run(&[6, 2, 4, 2]);
            let count = self.s.music_pause_sound_effect_counter.wrapping_add(1);
            self.s.music_pause_sound_effect_counter = count;
            let odd = count & 1 != 0;
            self.k.run(&[b(odd)]);
            let image = if odd {
                data::PAUSE_ODD
            } else {
                // ldy #<even
                self.k.run(&[2]);
                data::PAUSE_EVEN
            };
            // jsr copyToSq1Channel
            self.k.run(&[6]);
            self.copy_to_channel(Channel::Sq1, image);
        }
        // inc musicPauseSoundEffectLengthCounter; rts
        self.k.run(&[6, 6]);
        self.s.music_pause_sound_effect_length_counter = n.wrapping_add(1);
    }

    /// `muteAudio`, entered by `jsr` (not counted here), up to its `rts`.
    #[inline(always)]
    pub(super) fn mute_audio(&mut self) {
        // lda #0; sta DMC_RAW; lda #$10; sta SQ1_VOL; sta SQ2_VOL; sta NOISE_VOL; lda #0;
        // sta TRI_LINEAR; rts
        self.k.run(&[2, 4, 2, 4, 4, 4, 2, 4, 6]);
    }

    /// `muteAudioAndClearTriControl`, entered by falling in or by `jsr` (not counted).
    #[inline(always)]
    pub(super) fn mute_and_clear_tri_control(&mut self) {
        // jsr muteAudio
        self.k.run(&[6]);
        self.mute_audio();
        // lda #0; sta DMC_RAW; sta musicChanControl+2; rts
        self.k.run(&[2, 4, 4, 6]);
        self.s.music_chan_control[2] = 0;
    }

    /// `soundEffectSlot2_makesNoSound` (also `updateAudio2`'s target and the end of the
    /// music), from its first instruction to its `rts`.
    #[inline(always)]
    pub(super) fn make_no_sound(&mut self) {
        // jsr LE253; lda #0; sta musicChanInhibit x3; sta musicStagingNoiseLo;
        // sta resetSq12ForMusic; tay
        self.k.run(&[6, 2, 4, 4, 4, 4, 4, 2]);
        // lda #0; sta soundEffectSlot0Playing,y; iny; tya; cmp #6; bne: slots 0-4 and
        // currentlyPlayingMusicTrack
        self.k.repeat(&[2, 5, 2, 2, 2, 3], 5);
        self.k.run(&[2, 5, 2, 2, 2, 2, 6]);
        self.s.music_chan_inhibit = [0; 3];
        self.s.reset_sq12_for_music = 0;
        self.s.sound_effect_slot_playing = [0; 5];
        self.s.currently_playing_music_track = 0;
        self.mute_and_clear_tri_control();
    }

    /// `copyToSq1Channel` (and its siblings) from the entry point to the `rts`: four bytes
    /// from $E100 + `image` to the channel's registers.
    #[inline(always)]
    fn copy_to_channel(&mut self, channel: Channel, image: u8) {
        match channel {
            // lda #$04 falls into copyToApuChannel
            Channel::Sq2 => self.k.run(&[2]),
            // lda #; beq/bne copyToApuChannel
            Channel::Sq1 | Channel::Tri | Channel::Noise => self.k.run(&[2, 3]),
        }
        // sta AUDIOTMP1; lda #$40; sta AUDIOTMP2; sty AUDIOTMP3; lda #$E1; sta AUDIOTMP4;
        // ldy #0
        self.k.run(&[3, 2, 3, 3, 2, 3, 2]);
        let src = 0xE100 | image as u16;
        for i in 0..4u8 {
            // lda (AUDIOTMP3),y; sta (AUDIOTMP1),y; iny; tya; cmp #4; bne @copyByte
            self.k.run(&[5 + px(src, i), 6, 2, 2, 2, b(i != 3)]);
        }
        // rts
        self.k.run(&[6]);
    }

    /// `updateSoundEffectSlotShared` for slot `x`, up to the `rts` of whatever it runs.
    #[inline(always)]
    fn slot(&mut self, x: usize, init_table: u8, playing_table: u8) {
        // sta AUDIOTMP1; stx currentSoundEffectSlot; lda soundEffectSlot0Init,x
        self.k.run(&[3, 3, 4]);
        self.k.mark(Mark::Read(x));
        let init = self.s.sound_effect_slot_init[x];
        // beq @primaryIsEmpty
        self.k.run(&[b(init == 0)]);
        let (table, value) = if init != 0 {
            (init_table, init)
        } else {
            // lda soundEffectSlot0Playing,x; beq (to an rts)
            self.k.run(&[4]);
            let playing = self.s.sound_effect_slot_playing[x];
            self.k.run(&[b(playing == 0)]);
            if playing == 0 {
                self.k.run(&[6]);
                return;
            }
            // sty AUDIOTMP1; bne @computeAndExecute
            self.k.run(&[3, 3]);
            (playing_table, playing)
        };
        // jsr computeSoundEffMethod
        self.k.run(&[6]);
        let routine = self.compute_sound_eff_method(table, value);
        // jmp (AUDIOTMP3)
        self.k.run(&[5]);
        match routine {
            Some(r) => self.routine(r, x, value),
            None => {
                // Past its 17th entry the search gives up and jumps to an rts.
                self.k.run(&[6]);
            }
        }
    }

    /// `computeSoundEffMethod` from its first instruction to its `rts`: the routine for
    /// request `value` (1..=255) in the table at $E0xx, or `None` for the `rts` it falls
    /// back to after 17 entries. A value whose entry lies past the tables, where the
    /// cartridge would jump into code, is not modelled: treated as that `rts`, inexact.
    #[inline(always)]
    fn compute_sound_eff_method(&mut self, table: u8, value: u8) -> Option<Routine> {
        // sta currentAudioSlot; pha; ldy #$E0; sty AUDIOTMP2; ldy #0
        self.k.run(&[3, 3, 2, 3, 2]);
        // Each pass: dec currentAudioSlot; beq @copyAddr; iny; iny; tya; cmp #$22; bne
        if value <= 17 {
            self.k.repeat(&[5, 2, 2, 2, 2, 2, 3], value as u32 - 1);
            let y = 2 * (value - 1);
            let base = 0xE000 | table as u16;
            // dec; beq @copyAddr; lda (AUDIOTMP1),y; sta AUDIOTMP3; iny; lda (AUDIOTMP1),y;
            // sta AUDIOTMP4; jmp @ret; pla; sta currentAudioSlot; rts
            self.k.run(&[
                5,
                3,
                5 + px(base, y),
                3,
                2,
                5 + px(base, y + 1),
                3,
                3,
                4,
                3,
                6,
            ]);
            let entry = (table - SLOT0_INIT) as usize / 2 + (value as usize - 1);
            let routine = DISPATCH.get(entry).copied();
            if routine.is_none() {
                self.exact = false;
            }
            routine
        } else {
            self.k.repeat(&[5, 2, 2, 2, 2, 2, 3], 16);
            // the 17th pass falls out; lda #$91; sta AUDIOTMP3; lda #$E0; sta AUDIOTMP4;
            // pla; sta currentAudioSlot; rts
            self.k.run(&[5, 2, 2, 2, 2, 2, 2, 2, 3, 2, 3, 4, 3, 6]);
            None
        }
    }

    /// The routine the dispatch jumped to, up to the `rts` that ends the slot's update.
    /// `x` is `currentSoundEffectSlot`, `value` is `currentAudioSlot`.
    #[inline(always)]
    fn routine(&mut self, r: Routine, x: usize, value: u8) {
        match r {
            Slot0MakesNoSound => {
                // lda #$10; ldy #0; jmp initSoundEffectShared
                self.k.run(&[2, 2, 3]);
                self.init_shared(x, 0x10, 0, value);
            }
            GameOverCurtainInit => {
                self.k.run(&[2, 2, 3]);
                self.init_shared(x, 0x40, data::CURTAIN, value);
            }
            EndingRocketInit => {
                self.k.run(&[2, 2, 3]);
                self.init_shared(x, 0x20, data::ROCKET, value);
            }
            AdvanceSlot0WithoutUpdate => {
                // jsr advanceAudioSlotFrame; bne (to an rts)
                let more = self.advance(x);
                self.k.run(&[b(more)]);
                if !more {
                    self.stop_slot0();
                }
                self.k.run(&[6]);
            }
            UpdateSlot0Apu => {
                // jsr advanceAudioSlotFrame; bne updateSoundEffectNoiseAudio
                let more = self.advance(x);
                self.k.run(&[b(more)]);
                if more {
                    self.noise_step();
                } else {
                    // jmp stopSoundEffectSlot0
                    self.k.run(&[3]);
                    self.stop_slot0();
                    self.k.run(&[6]);
                }
            }
            MenuOptionSelectInit => {
                // lda #3; ldy #<data; bne LE417: $E3CE -> $E417; jmp initSoundEffectShared
                self.k.run(&[2, 2, 4, 3]);
                self.init_shared(x, 3, data::MENU_OPTION, value);
            }
            MenuScreenSelectInit => {
                // lda #3; ldy #<data; jsr initSoundEffectShared
                self.k.run(&[2, 2, 6]);
                self.init_shared(x, 3, data::MENU_SCREEN, value);
                // lda soundEffectSlot1_menuScreenSelectInitData+2;
                // sta soundEffectSlot1SecondaryCounter; rts
                self.k.run(&[4, 4, 6]);
                self.s.sound_effect_slot_secondary_counter[1] = MENU_SCREEN_SELECT_LO;
            }
            ShiftInit | LockInit => {
                // jsr LE33B; beq (to an rts)
                let busy = self.slot1_busy();
                self.k.run(&[b(busy)]);
                if busy {
                    self.k.run(&[6]);
                    return;
                }
                // lda #frames; ldy #<data; jmp initSoundEffectShared
                self.k.run(&[2, 2, 3]);
                let (frames, image) = if r == ShiftInit {
                    (2, data::SHIFT)
                } else {
                    (0x0F, data::LOCK)
                };
                self.init_shared(x, frames, image, value);
            }
            TetrisAchievedInit | LineCompletedInit => {
                // lda #SFX_..._INIT; ldy #<data; jsr LE417; jmp initSoundEffectShared
                self.k.run(&[2, 2, 6, 3]);
                let (image, tertiary) = if r == TetrisAchievedInit {
                    (data::TETRIS, 0x10)
                } else {
                    (data::LINE_COMPLETED, 0x08)
                };
                self.init_shared(x, 5, image, value);
                // lda #; bne LE437; sta soundEffectSlot1TertiaryCounter; rts
                self.k.run(&[2, 3, 4, 6]);
                self.s.sound_effect_slot_tertiary_counter[1] = tertiary;
            }
            RotateInit => {
                // jsr LE33B; beq (to an rts)
                let busy = self.slot1_busy();
                self.k.run(&[b(busy)]);
                if busy {
                    self.k.run(&[6]);
                    return;
                }
                // lda #4; ldy #<data; jsr LE417; jmp initSoundEffectShared
                self.k.run(&[2, 2, 6, 3]);
                self.init_shared(x, 4, data::ROTATE, value);
                // then falls into soundEffectSlot1_rotateTetriminoPlaying
                self.rotate_playing(x);
            }
            LevelUpInit => {
                self.k.run(&[2, 2, 3]);
                self.init_shared(x, 6, data::LEVEL_UP, value);
            }
            ChirpChirpInit => {
                // ldy #<data; jmp initSoundEffectShared, with the request value still in A
                // as the frame count
                self.k.run(&[2, 3]);
                self.init_shared(x, value, data::CHIRP, value);
            }
            LineClearingInit => self.line_clearing_init(x, value),
            MenuOptionSelectPlaying => {
                // jsr advanceAudioSlotFrame; bne (to an rts)
                let more = self.advance(x);
                self.k.run(&[b(more)]);
                if more {
                    self.k.run(&[6]);
                    return;
                }
                // inc soundEffectSlot1SecondaryCounter; lda; cmp #2; bne @stage2
                self.k.run(&[6, 4, 2]);
                let step = self.s.sound_effect_slot_secondary_counter[1].wrapping_add(1);
                self.s.sound_effect_slot_secondary_counter[1] = step;
                self.k.run(&[b(step != 2)]);
                if step == 2 {
                    // jmp soundEffectSlot1Playing_stop
                    self.k.run(&[3]);
                    self.stop_slot1();
                } else {
                    // ldy #<data; jmp copyToSq1Channel
                    self.k.run(&[2, 3]);
                    self.copy_to_channel(Channel::Sq1, data::MENU_OPTION_STAGE2);
                }
            }
            MenuScreenSelectPlaying => {
                let more = self.advance(x);
                self.k.run(&[b(more)]);
                if more {
                    self.k.run(&[6]);
                    return;
                }
                // inc soundEffectSlot1TertiaryCounter; lda; cmp #4; bne LE493
                self.k.run(&[6, 4, 2]);
                let step = self.s.sound_effect_slot_tertiary_counter[1].wrapping_add(1);
                self.s.sound_effect_slot_tertiary_counter[1] = step;
                self.k.run(&[b(step != 4)]);
                if step == 4 {
                    self.k.run(&[3]);
                    self.stop_slot1();
                } else {
                    // the timer falls by 1/16 of itself plus one: lda; lsr x4; sta Tmp;
                    // lda; clc; sbc Tmp; sta; sta SQ1_LO; lda #$28; sta SQ1_HI; rts
                    self.k.run(&[4, 2, 2, 2, 2, 4, 4, 2, 4, 4, 4, 2, 4, 6]);
                    let lo = self.s.sound_effect_slot_secondary_counter[1];
                    self.s.sound_effect_slot_secondary_counter[1] =
                        lo.wrapping_sub(lo >> 4).wrapping_sub(1);
                }
            }
            Slot1PlayingAdvance => {
                // jsr advanceAudioSlotFrame; bne (to an rts)
                let more = self.advance(x);
                self.k.run(&[b(more)]);
                if more {
                    self.k.run(&[6]);
                } else {
                    self.stop_slot1();
                }
            }
            TetrisAchievedPlaying | LineCompletedPlaying => {
                let more = self.advance(x);
                self.k.run(&[b(more)]);
                if more {
                    self.k.run(&[6]);
                    return;
                }
                // ldy #<data; bne LE442
                self.k.run(&[2, 3]);
                let image = if r == TetrisAchievedPlaying {
                    data::TETRIS
                } else {
                    data::LINE_COMPLETED
                };
                self.line_clearing_step(x, image);
            }
            LineClearingPlaying => {
                let more = self.advance(x);
                self.k.run(&[b(more)]);
                if more {
                    self.k.run(&[6]);
                    return;
                }
                // ldy #<data, falling into LE442
                self.k.run(&[2]);
                self.line_clearing_step(x, data::LINE_CLEARING);
            }
            RotatePlaying => self.rotate_playing(x),
            LevelUpPlaying => {
                let more = self.advance(x);
                self.k.run(&[b(more)]);
                if more {
                    self.k.run(&[6]);
                    return;
                }
                // ldy soundEffectSlot1SecondaryCounter; inc; lda soundEffectSlot1_levelUp_lo,y;
                // beq LE4E9
                let i = self.s.sound_effect_slot_secondary_counter[1];
                self.s.sound_effect_slot_secondary_counter[1] = i.wrapping_add(1);
                let lo = self.table(&LEVEL_UP_LO, LEVEL_UP_LO_ADDR, i);
                self.k.run(&[4, 6, 4 + px(LEVEL_UP_LO_ADDR, i), b(lo == 0)]);
                if lo == 0 {
                    // jmp soundEffectSlot1Playing_stop
                    self.k.run(&[3]);
                    self.stop_slot1();
                } else {
                    // sta SQ1_LO; lda #$28; jmp LE4AC; sta SQ1_HI; rts
                    self.k.run(&[4, 2, 3, 4, 6]);
                }
            }
            ChirpChirpPlaying => self.chirp_chirp_playing(),
            FallingAlien => {
                // lda #6; ldy #<data; jsr initSoundEffectShared
                self.k.run(&[2, 2, 6]);
                self.init_shared(x, 6, data::FALLING_ALIEN, value);
                // lda soundEffectSlot3_fallingAlienInitData+2; sta soundEffectSlot3TertiaryCounter;
                // rts
                self.k.run(&[4, 4, 6]);
                self.s.sound_effect_slot_tertiary_counter[3] = FALLING_ALIEN_LO;
            }
            Donk => {
                self.k.run(&[2, 2, 3]);
                self.init_shared(x, 2, data::DONK, value);
            }
            UpdateSlot3Apu => {
                // jsr advanceAudioSlotFrame; bne (to an rts)
                let more = self.advance(x);
                self.k.run(&[b(more)]);
                if more {
                    self.k.run(&[6]);
                    return;
                }
                // ldy soundEffectSlot3SecondaryCounter; inc; lda trilo_table,y;
                // beq soundEffectSlot3Playing_stop
                let i = self.s.sound_effect_slot_secondary_counter[3];
                self.s.sound_effect_slot_secondary_counter[3] = i.wrapping_add(1);
                let lo = self.table(&TRILO, TRILO_ADDR, i);
                self.k.run(&[4, 6, 4 + px(TRILO_ADDR, i), b(lo == 0)]);
                if lo == 0 {
                    self.stop_slot3();
                } else {
                    // sta TRI_LO; sta soundEffectSlot3TertiaryCounter;
                    // lda soundEffectSlot3_fallingAlienInitData+3; sta TRI_HI; rts
                    self.k.run(&[4, 4, 4, 4, 6]);
                    self.s.sound_effect_slot_tertiary_counter[3] = lo;
                }
            }
            Slot3PlayingAdvance => {
                let more = self.advance(x);
                self.k.run(&[b(more)]);
                if more {
                    self.k.run(&[6]);
                } else {
                    self.stop_slot3();
                }
            }
            Slot2MakesNoSound => self.make_no_sound(),
            Buzz => {
                // lda #$3F; ldy #$60; ldx #; bne LE51B; sta DMC_LEN; sty DMC_START;
                // stx DMC_FREQ; lda #$0F; sta SND_CHN; lda #0; sta DMC_RAW; lda #$1F;
                // sta SND_CHN; rts
                self.k.run(&[2, 2, 2, 3, 4, 4, 4, 2, 4, 2, 4, 2, 4, 6]);
                // The DMC now reads its sample, stealing cycles from the rest of the frame.
                self.exact = false;
            }
        }
    }

    /// `jsr advanceAudioSlotFrame` through its `rts`: one more frame of the current step;
    /// `true` while the step goes on (the routine's Z flag clear).
    #[inline(always)]
    fn advance(&mut self, x: usize) -> bool {
        // jsr; ldx currentSoundEffectSlot; inc soundEffectSlot0FrameCounter,x; lda ..,x;
        // cmp soundEffectSlot0FrameCount,x; bne @ret
        let n = self.s.sound_effect_slot_frame_counter[x].wrapping_add(1);
        let more = n != self.s.sound_effect_slot_frame_count[x];
        self.k.run(&[6, 3, 7, 4, 4, b(more)]);
        if more {
            self.s.sound_effect_slot_frame_counter[x] = n;
        } else {
            // lda #0; sta soundEffectSlot0FrameCounter,x
            self.k.run(&[2, 5]);
            self.s.sound_effect_slot_frame_counter[x] = 0;
        }
        // rts
        self.k.run(&[6]);
        more
    }

    /// `jsr LE33B` through its `rts`: whether slot 1 plays an effect that shift, rotate
    /// and lock do not interrupt (tetris, level up, line clearing, line completed). The
    /// caller's `beq` follows.
    #[inline(always)]
    fn slot1_busy(&mut self) -> bool {
        // jsr LE33B; lda soundEffectSlot1Playing
        self.k.run(&[6, 4]);
        let playing = self.s.sound_effect_slot_playing[1];
        for v in [4u8, 6, 9, 10] {
            // cmp #v; beq LE34E
            let hit = playing == v;
            self.k.run(&[2, b(hit)]);
            if hit {
                self.k.run(&[6]);
                return true;
            }
        }
        // rts
        self.k.run(&[6]);
        false
    }

    /// `initSoundEffectShared`, entered with the effect's frames per step in A and its APU
    /// image in Y (0: none), up to its `rts`.
    #[inline(always)]
    fn init_shared(&mut self, x: usize, frames: u8, image: u8, value: u8) {
        // ldx currentSoundEffectSlot; sta soundEffectSlot0FrameCount,x; txa; sta $06C7,x;
        // tya; beq @continue
        self.k.run(&[3, 5, 2, 5, 2, b(image == 0)]);
        self.s.sound_effect_slot_frame_count[x] = frames;
        // $06C7,x is musicChanInhibit for slots 1-3: the effect takes its channel from the
        // music, marked with its slot number.
        if x >= 1 {
            self.s.music_chan_inhibit[x - 1] = x as u8;
        }
        if image != 0 {
            // txa; beq @slot0; cmp #1; beq @slot1; cmp #2; beq @slot2; cmp #3; beq @slot3
            self.k.run(&[2, b(x == 0)]);
            let channel = if x == 0 {
                Channel::Noise
            } else {
                self.k.run(&[2, b(x == 1)]);
                if x == 1 {
                    Channel::Sq1
                } else {
                    self.k.run(&[2, b(x == 2)]);
                    if x == 2 {
                        Channel::Sq2
                    } else {
                        self.k.run(&[2, b(true)]);
                        Channel::Tri
                    }
                }
            };
            // jsr copyTo..Channel; then (but for noise, which falls through) beq @continue,
            // taken: the copy ends with Z set
            self.k.run(&[6]);
            self.copy_to_channel(channel, image);
            if channel != Channel::Noise {
                self.k.run(&[3]);
            }
        }
        // lda currentAudioSlot; sta soundEffectSlot0Playing,x; lda #0;
        // sta ..FrameCounter,x; sta ..SecondaryCounter,x; sta ..TertiaryCounter,x;
        // sta ..Tmp,x; sta resetSq12ForMusic; rts
        self.k.run(&[3, 5, 2, 5, 5, 5, 5, 4, 6]);
        self.s.sound_effect_slot_playing[x] = value;
        self.s.sound_effect_slot_frame_counter[x] = 0;
        self.s.sound_effect_slot_secondary_counter[x] = 0;
        self.s.sound_effect_slot_tertiary_counter[x] = 0;
        self.s.reset_sq12_for_music = 0;
    }

    /// `stopSoundEffectSlot0` up to (not including) its `rts`.
    #[inline(always)]
    fn stop_slot0(&mut self) {
        // lda #0; sta soundEffectSlot0Playing; lda #$10; sta NOISE_VOL
        self.k.run(&[2, 4, 2, 4]);
        self.s.sound_effect_slot_playing[0] = 0;
    }

    /// `soundEffectSlot1Playing_stop` through its `rts`: square 1 back to the music.
    #[inline(always)]
    fn stop_slot1(&mut self) {
        // lda #$10; sta SQ1_VOL; lda #0; sta musicChanInhibit; sta soundEffectSlot1Playing;
        // inc resetSq12ForMusic; rts
        self.k.run(&[2, 4, 2, 4, 4, 6, 6]);
        self.s.music_chan_inhibit[0] = 0;
        self.s.sound_effect_slot_playing[1] = 0;
        self.s.reset_sq12_for_music = self.s.reset_sq12_for_music.wrapping_add(1);
    }

    /// `soundEffectSlot3Playing_stop` through its `rts`: the triangle back to the music.
    #[inline(always)]
    fn stop_slot3(&mut self) {
        // lda #0; sta TRI_LINEAR; sta musicChanInhibit+2; sta soundEffectSlot3Playing;
        // lda #$18; sta TRI_HI; rts
        self.k.run(&[2, 4, 4, 4, 2, 4, 6]);
        self.s.music_chan_inhibit[2] = 0;
        self.s.sound_effect_slot_playing[3] = 0;
    }

    /// `updateSoundEffectNoiseAudio` through its `rts`: one step of the curtain's noise.
    #[inline(always)]
    fn noise_step(&mut self) {
        // ldx #<noiselo_table; jsr loadNoiseLo; jsr getSoundEffectNoiseNibble
        self.k.run(&[2, 6, 6]);
        self.noise_nibble(NOISELO_TABLE);
        // jmp setNoiseLo; sta NOISE_LO; rts; ldx #<noisevol_table;
        // jsr getSoundEffectNoiseNibble
        self.k.run(&[3, 4, 6, 2, 6]);
        self.noise_nibble(NOISEVOL_TABLE);
        // ora #$10; sta NOISE_VOL; inc soundEffectSlot0SecondaryCounter; rts
        self.k.run(&[2, 4, 6, 6]);
        let s = &mut self.s.sound_effect_slot_secondary_counter[0];
        *s = s.wrapping_add(1);
    }

    /// `getSoundEffectNoiseNibble` after its `jsr`, through its `rts`.
    #[inline(always)]
    fn noise_nibble(&mut self, table: u16) {
        let step = self.s.sound_effect_slot_secondary_counter[0];
        // stx AUDIOTMP1; ldy #$E1; sty AUDIOTMP2; ldx soundEffectSlot0SecondaryCounter; txa;
        // lsr; tay; lda (AUDIOTMP1),y; sta AUDIOTMP5; txa; and #1; beq @shift4
        let even = step & 1 == 0;
        self.k.run(&[
            3,
            2,
            3,
            4,
            2,
            2,
            2,
            5 + px(table, step >> 1),
            3,
            2,
            2,
            b(even),
        ]);
        if even {
            // lda AUDIOTMP5; lsr x4; rts
            self.k.run(&[3, 2, 2, 2, 2, 6]);
        } else {
            // lda AUDIOTMP5; and #$0F; rts
            self.k.run(&[3, 2, 6]);
        }
    }

    /// `soundEffectSlot1_lineClearingInit` from its first instruction to its `rts`.
    #[inline(always)]
    fn line_clearing_init(&mut self, x: usize, value: u8) {
        // lda #SFX_LINECLEAR_INIT; ldy #<data; jsr LE417; jmp initSoundEffectShared
        self.k.run(&[2, 2, 6, 3]);
        self.init_shared(x, 4, data::LINE_CLEARING, value);
        // lda #0; sta soundEffectSlot1TertiaryCounter; rts
        self.k.run(&[2, 4, 6]);
        self.s.sound_effect_slot_tertiary_counter[1] = 0;
    }

    /// `LE442` through the `rts` of wherever it ends: one step of the tetris, line
    /// completed and line clearing sweeps (the first two chain into line clearing).
    #[inline(always)]
    fn line_clearing_step(&mut self, x: usize, image: u8) {
        // jsr copyToSq1Channel
        self.k.run(&[6]);
        self.copy_to_channel(Channel::Sq1, image);
        let step = self.s.sound_effect_slot_secondary_counter[1];
        let lo = self.s.sound_effect_slot_tertiary_counter[1].wrapping_add(step);
        let vol = self.table(&LINE_CLEARING_VOL, LINE_CLEARING_VOL_ADDR, step);
        // clc; lda Tertiary; adc Secondary; tay; lda soundEffectSlot1_lineClearing_lo,y;
        // sta SQ1_LO; ldy Secondary; lda soundEffectSlot1_lineClearing_vol,y; sta SQ1_VOL;
        // bne LE46F
        self.k.run(&[
            2,
            4,
            4,
            2,
            4 + px(LINE_CLEARING_LO_ADDR, lo),
            4,
            4,
            4 + px(LINE_CLEARING_VOL_ADDR, step),
            4,
            b(vol != 0),
        ]);
        if vol != 0 {
            // inc soundEffectSlot1SecondaryCounter; rts
            self.k.run(&[6, 6]);
            self.s.sound_effect_slot_secondary_counter[1] = step.wrapping_add(1);
            return;
        }
        // lda soundEffectSlot1Playing; cmp #4; bne LE46C
        let tetris = self.s.sound_effect_slot_playing[1] == 4;
        self.k.run(&[4, 2, b(!tetris)]);
        if tetris {
            // lda #9; sta currentAudioSlot; jmp soundEffectSlot1_lineClearingInit
            self.k.run(&[2, 3, 3]);
            self.line_clearing_init(x, 9);
        } else {
            // jmp soundEffectSlot1Playing_stop
            self.k.run(&[3]);
            self.stop_slot1();
        }
    }

    /// `soundEffectSlot1_rotateTetriminoPlaying` through its `rts`.
    #[inline(always)]
    fn rotate_playing(&mut self, x: usize) {
        // jsr advanceAudioSlotFrame; bne (to an rts)
        let more = self.advance(x);
        self.k.run(&[b(more)]);
        if more {
            self.k.run(&[6]);
            return;
        }
        // lda Secondary; inc Secondary; beq @stage3 (only if it wrapped)
        let step = self.s.sound_effect_slot_secondary_counter[1];
        self.s.sound_effect_slot_secondary_counter[1] = step.wrapping_add(1);
        self.k.run(&[4, 6, b(step == 0xFF)]);
        let image = if step == 0xFF {
            Some(data::ROTATE_STAGE3)
        } else {
            // cmp #1; beq @stage2
            self.k.run(&[2, b(step == 1)]);
            if step == 1 {
                Some(data::ROTATE)
            } else {
                // cmp #2; beq @stage3
                self.k.run(&[2, b(step == 2)]);
                if step == 2 {
                    Some(data::ROTATE_STAGE3)
                } else {
                    // cmp #3; bne (to an rts)
                    self.k.run(&[2, b(step != 3)]);
                    if step == 3 {
                        // jmp soundEffectSlot1Playing_stop
                        self.k.run(&[3]);
                        self.stop_slot1();
                    } else {
                        self.k.run(&[6]);
                    }
                    None
                }
            }
        };
        if let Some(image) = image {
            // ldy #<data; jmp copyToSq1Channel
            self.k.run(&[2, 3]);
            self.copy_to_channel(Channel::Sq1, image);
        }
    }

    /// `soundEffectSlot1_chirpChirpPlaying` through its `rts` (never asked for by the game).
    #[inline(always)]
    fn chirp_chirp_playing(&mut self) {
        // lda soundEffectSlot1TertiaryCounter; beq @stage1
        let stage1 = self.s.sound_effect_slot_tertiary_counter[1] == 0;
        self.k.run(&[4, b(stage1)]);
        let step = self.s.sound_effect_slot_secondary_counter[1].wrapping_add(1);
        self.s.sound_effect_slot_secondary_counter[1] = step;
        if !stage1 {
            // inc Secondary; lda; cmp #$16; bne (to an rts)
            self.k.run(&[6, 4, 2, b(step != 0x16)]);
            if step == 0x16 {
                self.k.run(&[3]);
                self.stop_slot1();
            } else {
                self.k.run(&[6]);
            }
            return;
        }
        // lda Secondary; and #3; tay; lda chirpChirpSq1Vol_table,y; sta SQ1_VOL;
        // inc Secondary; lda; cmp #8; bne (to an rts)
        let i = step.wrapping_sub(1) & 3;
        self.k.run(&[
            4,
            2,
            2,
            4 + px(CHIRP_VOL_TABLE, i),
            4,
            6,
            4,
            2,
            b(step != 8),
        ]);
        if step != 8 {
            self.k.run(&[6]);
            return;
        }
        // inc Tertiary; ldy #<data; jmp copyToSq1Channel
        self.k.run(&[6, 2, 3]);
        self.s.sound_effect_slot_tertiary_counter[1] = 1;
        self.copy_to_channel(Channel::Sq1, data::CHIRP_STAGE2);
    }
}
