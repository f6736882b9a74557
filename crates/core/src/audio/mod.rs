//! The cartridge's sound engine (`updateAudio`) as state and CPU cycles.
//!
//! The cartridge calls `updateAudio` once per frame, right before its main loop waits for
//! the next frame interrupt (`updateAudioWaitForNmiAndResetOamStaging`,
//! `updateAudioAndWaitForNmi`). Its cost decides, together with the rest of the main loop,
//! whether a frame lags. [`Audio`] holds every variable of the engine that a later frame
//! reads, and [`Audio::update`] runs one call, instruction for instruction, returning the
//! CPU cycles the cartridge spends in it. The model makes no sound: the APU registers the
//! engine writes are not kept.
//!
//! # What a call costs
//!
//! [`Update::cycles`] counts from the first cycle of `jmp updateAudio` at `updateAudio_jmp`
//! ($E000) to the last cycle of the `rts` that returns to the caller: the caller's
//! `jsr updateAudio_jmp` (6 cycles) is not included, the `jmp` (3) and the final `rts`
//! (6) are. Every path is modelled: the pause tune (`updateAudio_pause`), the sound-effect
//! slots 0 (noise), 1 (square 1), 2 (square 2, unused by the game) and 3 (triangle, unused),
//! slot 4's `soundEffectSlot4Playing` that mutes slot 1's update, music start
//! (`loadMusicTrack`), the music bytecode, envelopes and pitch offsets, and `musicTrack`
//! $FF (music off). Taken branches cost one cycle more, two when the target is on another
//! page; indexed and indirect-indexed reads one more when they cross a page; both come from
//! the cartridge's addresses.
//!
//! # The music's data
//!
//! The scripts, envelopes and note tables are the cartridge's: they come from the user's
//! ROM image as [`MusicData`], passed to each update. Without it the update is exact for
//! the sound effects, the pause tune and the music switched off; while music plays it
//! charges a fixed estimate instead of interpreting the scripts and says so
//! ([`Update::exact`] is `false`; see [`MUSIC_FRAME_ESTIMATE`]). The few sound-effect
//! table bytes whose values decide a branch (when an effect ends) are carried here as
//! facts.
//!
//! # Interrupts inside the update
//!
//! In a lag frame the frame interrupt lands inside the update, at an instruction
//! boundary. [`Audio::probe`] replays the same update instruction by instruction and
//! returns the end of the first instruction that ends at or after a given cycle offset,
//! and the offsets at which the update read and cleared the request bytes. The interrupt's
//! tetris flash writes `soundEffectSlot1Init`; landing at boundary `t`, that write is seen
//! by this update if `t` is before the byte's read, lost if it falls between the read and
//! the clear, and left for the next update if it comes after the clear. Apart from that
//! byte the interrupt touches nothing of the engine's.
//!
//! # What the rest of the game writes
//!
//! The game asks for sounds by writing request bytes that the next update reads and then
//! clears (`soundEffectSlot0Init`..`soundEffectSlot3Init`, `musicTrack`); the pause loop
//! raises a flag. Every writer in the cartridge:
//!
//! | byte | value | where |
//! |---|---|---|
//! | `soundEffectSlot0Init` | 2 game-over curtain | the lock finds the new piece blocked (top out) |
//! | | 3 ending rocket | the rocket of the A-type and B-type endings |
//! | `soundEffectSlot1Init` | 1 menu option | cursor moves on the game-type and level menus, A on the B-type level menu (between level and height), name-entry letters and moves, each bonus step of the B-type ending |
//! | | 2 menu screen | Start on the title screen and the title's demo timeout, Start and B on the game-type and level menus, the end of the B-type ending's count, Start in name entry |
//! | | 3 shift | a successful shift |
//! | | 4 tetris | four lines completed |
//! | | 5 rotate | a successful rotation |
//! | | 6 level up | the level number goes up |
//! | | 7 lock | a lock that completes no line |
//! | | 9 line clearing | the frame interrupt's tetris flash, every 8th frame of a four-line clear |
//! | | 10 line completed | the row check finds a complete row |
//! | `musicTrack` | 3, 4, 5 / $FF | `musicSelectionTable[musicType]`: game-type menu (entry and music changes), game init, the end of allegro |
//! | | 6, 7, 8 / $FF | `musicSelectionTable[musicType + 4]`: allegro starts (a block in the top rows) |
//! | | 2 | B-type goal reached |
//! | | 9 | high-score name entry |
//! | | 10 | the endings |
//! | | $FF | any of the above in the demo (`setMusicTrack` overrides it) |
//! | `musicStagingNoiseHi` | 5 / 0 | pause / resume |
//!
//! Two entry points besides the update stop everything at once: `updateAudio2`
//! ([`Audio::silence`]: power-on, legal screen, title screen, level menu, top out, the
//! reset combination) and `LE006` ([`Audio::reset`], power-on only).
//!
//! # Which bytes are state
//!
//! The fields of [`Audio`] are the bytes of page $0680-$06FF that some path reads before
//! it writes them in the same call. The rest of the page and the engine's zero-page bytes
//! ($E0-$EF) are scratch within one call: `AUDIOTMP1`-`AUDIOTMP5`, `musicChanTmpAddr`,
//! `currentSoundEffectSlot`, `musicChannelOffset`, `currentAudioSlot`, `musicTrack_dec`,
//! `soundEffectSlot0Tmp`.. are written before each read. Never read at all:
//! `music_unused2`, `soundRngSeed` (only `LE006` writes it), `musicStagingNoiseLo`,
//! `$06C7` and `soundEffectSlot4Init`. `$06F7`, which would block the DMC in `playDmc`, is
//! never written after the reset clears it; no script plays the DMC anyway.
//!
//! The model is Tetris (USA), the NTSC cartridge.

mod clock;
mod effects;
mod music;

pub use music::{MusicData, MUSIC_FRAME_ESTIMATE, MUSIC_LOAD_ESTIMATE};

use clock::{Clock, Count};

/// Every variable of the sound engine that a later frame reads, under the cartridge's
/// labels (addresses in page 6). Arrays are per channel (square 1, square 2, triangle,
/// noise) or per sound-effect slot (0 noise, 1 square 1, 2 square 2, 3 triangle).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Audio {
    /// `musicStagingSq1Lo`, `musicStagingSq2Lo`, `musicStagingTriLo` ($0680, $0684, $0688):
    /// the timer low byte of each channel's current note.
    pub music_staging_lo: [u8; 3],
    /// `musicStagingSq1Hi`.. ($0681, $0685, $0689): its high byte, bit 3 set.
    pub music_staging_hi: [u8; 3],
    /// `audioInitialized` ($0682): nonzero once a pause has muted the channels.
    pub audio_initialized: u8,
    /// `musicPauseSoundEffectLengthCounter` ($0683): frames of the pause tune, up to $12.
    pub music_pause_sound_effect_length_counter: u8,
    /// `resetSq12ForMusic` ($068A): 1 or 2 when a sound effect left square 1 (or both
    /// squares) to be restored for the music.
    pub reset_sq12_for_music: u8,
    /// `musicPauseSoundEffectCounter` ($068B): notes of the pause tune so far.
    pub music_pause_sound_effect_counter: u8,
    /// `musicStagingNoiseHi` ($068D): 5 while the game is paused.
    pub music_staging_noise_hi: u8,
    /// `musicDataNoteTableOffset` ($0690): the track's transposition (sign and magnitude).
    pub music_data_note_table_offset: u8,
    /// `musicDataDurationTableOffset` ($0691): the track's tempo, an offset into
    /// `noteDurationTable`.
    pub music_data_duration_table_offset: u8,
    /// `musicDataChanPtr` ($0692): each channel's script (a list of routine addresses).
    pub music_data_chan_ptr: [u16; 4],
    /// `musicChanControl` ($069A): envelope (low 5 bits) and pitch effect (high 3 bits).
    pub music_chan_control: [u8; 3],
    /// `musicChanVolume` ($069D): the volume byte (for the triangle, its linear counter).
    pub music_chan_volume: [u8; 3],
    /// `musicDataChanPtrDeref` ($06A0): each channel's current routine; high byte $FF
    /// for a channel without music.
    pub music_data_chan_ptr_deref: [u16; 4],
    /// `musicDataChanPtrOff` ($06A8): offset of the current routine in the script.
    pub music_data_chan_ptr_off: [u8; 4],
    /// `musicDataChanInstructionOffset` ($06AC): offset of the next byte in the routine.
    pub music_data_chan_instruction_offset: [u8; 4],
    /// `musicDataChanInstructionOffsetBackup` ($06B0): where the current loop started.
    pub music_data_chan_instruction_offset_backup: [u8; 4],
    /// `musicChanNoteDurationRemaining` ($06B4): frames until the next note.
    pub music_chan_note_duration_remaining: [u8; 4],
    /// `musicChanNoteDuration` ($06B8): the length of the current note.
    pub music_chan_note_duration: [u8; 4],
    /// `musicChanProgLoopCounter` ($06BC): passes of the current loop still to go.
    pub music_chan_prog_loop_counter: [u8; 4],
    /// `musicStagingSq1Sweep` ($06C0): the squares' sweep bytes.
    pub music_staging_sq1_sweep: [u8; 2],
    /// `musicChanNote` ($06C3): the current note (2 is a rest).
    pub music_chan_note: [u8; 4],
    /// `musicChanInhibit` ($06C8): nonzero while a sound effect owns the channel (the
    /// effect's slot number).
    pub music_chan_inhibit: [u8; 3],
    /// `musicChanVolFrameCounter` ($06CD): position in the envelope, in nibbles.
    pub music_chan_vol_frame_counter: [u8; 4],
    /// `musicChanLoFrameCounter` ($06D1): position in the pitch effect.
    pub music_chan_lo_frame_counter: [u8; 4],
    /// `soundEffectSlot0FrameCount` ($06D5): frames per step of each slot's effect.
    pub sound_effect_slot_frame_count: [u8; 4],
    /// `soundEffectSlot0FrameCounter` ($06DA): frames into the current step.
    pub sound_effect_slot_frame_counter: [u8; 4],
    /// `soundEffectSlot0SecondaryCounter` ($06DF): each effect's step.
    pub sound_effect_slot_secondary_counter: [u8; 4],
    /// `soundEffectSlot0TertiaryCounter` ($06E3): each effect's second counter.
    pub sound_effect_slot_tertiary_counter: [u8; 4],
    /// `soundEffectSlot0Init`.. ($06F0): a request to start an effect, cleared by the next
    /// update (slot 4's is never read).
    pub sound_effect_slot_init: [u8; 4],
    /// `musicTrack` ($06F5): a request to start track 1-10, or $FF to stop the music;
    /// cleared by the next update.
    pub music_track: u8,
    /// `soundEffectSlot0Playing`.. ($06F8): the effect each slot plays (0: none). Slot 4 is
    /// never started by the cartridge; a nonzero byte there would skip slot 1's updates.
    pub sound_effect_slot_playing: [u8; 5],
    /// `currentlyPlayingMusicTrack` ($06FD): the track playing (0: none).
    pub currently_playing_music_track: u8,
}

/// What one update cost.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Update {
    /// CPU cycles from `updateAudio_jmp`'s first instruction to the end of the final `rts`.
    pub cycles: u32,
    /// Whether `cycles` and the new state are the cartridge's. `false` when the update
    /// needed music data it was not given, read bytes outside [`MusicData`]'s range,
    /// started the DMC (whose reads steal cycles the model does not count), dispatched a
    /// request byte past the cartridge's tables, or gave up on a script that never reaches
    /// a note (the cartridge would hang).
    pub exact: bool,
}

/// One update replayed instruction by instruction ([`Audio::probe`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Probe {
    /// The whole update, as [`Audio::update`] would return it.
    pub update: Update,
    /// The end (cycles from the update's start) of the first instruction that ends at or
    /// after the asked offset; `None` if the update has returned by then.
    pub boundary: Option<u32>,
    /// Where the update read each request byte (index = address - $06F0: slots 0-4, then
    /// `musicTrack`): the end of the reading instruction, `None` if not read.
    pub read: [Option<u32>; 6],
    /// Where the update cleared each request byte: the end of the storing instruction.
    pub cleared: [Option<u32>; 6],
}

/// The sounds the game asks for, as the request byte and value it writes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SoundEffect {
    /// Slot 0, 2: the game-over curtain's noise.
    GameOverCurtain,
    /// Slot 0, 3: the ending's rocket.
    EndingRocket,
    /// Slot 1, 1: a menu cursor move.
    MenuOptionSelect,
    /// Slot 1, 2: a menu screen change.
    MenuScreenSelect,
    /// Slot 1, 3: a shift.
    Shift,
    /// Slot 1, 4: four lines.
    TetrisAchieved,
    /// Slot 1, 5: a rotation.
    Rotate,
    /// Slot 1, 6: a level up.
    LevelUp,
    /// Slot 1, 7: a lock without lines.
    Lock,
    /// Slot 1, 8: never asked for by the game.
    ChirpChirp,
    /// Slot 1, 9: the tetris flash's sweep.
    LineClearing,
    /// Slot 1, 10: a completed row.
    LineCompleted,
}

impl SoundEffect {
    /// The slot (0 noise, 1 square 1) and the value the game writes into its request byte.
    pub const fn request(self) -> (usize, u8) {
        match self {
            SoundEffect::GameOverCurtain => (0, 2),
            SoundEffect::EndingRocket => (0, 3),
            SoundEffect::MenuOptionSelect => (1, 1),
            SoundEffect::MenuScreenSelect => (1, 2),
            SoundEffect::Shift => (1, 3),
            SoundEffect::TetrisAchieved => (1, 4),
            SoundEffect::Rotate => (1, 5),
            SoundEffect::LevelUp => (1, 6),
            SoundEffect::Lock => (1, 7),
            SoundEffect::ChirpChirp => (1, 8),
            SoundEffect::LineClearing => (1, 9),
            SoundEffect::LineCompleted => (1, 10),
        }
    }
}

/// The running update: the state, the data, the clock, and whether it is still exact.
struct Cpu<'a, K> {
    s: &'a mut Audio,
    rom: Option<&'a MusicData>,
    k: K,
    exact: bool,
}

impl Audio {
    /// The engine after the reset code cleared RAM pages 0-6 and before `LE006`.
    pub const CLEARED: Audio = Audio {
        music_staging_lo: [0; 3],
        music_staging_hi: [0; 3],
        audio_initialized: 0,
        music_pause_sound_effect_length_counter: 0,
        reset_sq12_for_music: 0,
        music_pause_sound_effect_counter: 0,
        music_staging_noise_hi: 0,
        music_data_note_table_offset: 0,
        music_data_duration_table_offset: 0,
        music_data_chan_ptr: [0; 4],
        music_chan_control: [0; 3],
        music_chan_volume: [0; 3],
        music_data_chan_ptr_deref: [0; 4],
        music_data_chan_ptr_off: [0; 4],
        music_data_chan_instruction_offset: [0; 4],
        music_data_chan_instruction_offset_backup: [0; 4],
        music_chan_note_duration_remaining: [0; 4],
        music_chan_note_duration: [0; 4],
        music_chan_prog_loop_counter: [0; 4],
        music_staging_sq1_sweep: [0; 2],
        music_chan_note: [0; 4],
        music_chan_inhibit: [0; 3],
        music_chan_vol_frame_counter: [0; 4],
        music_chan_lo_frame_counter: [0; 4],
        sound_effect_slot_frame_count: [0; 4],
        sound_effect_slot_frame_counter: [0; 4],
        sound_effect_slot_secondary_counter: [0; 4],
        sound_effect_slot_tertiary_counter: [0; 4],
        sound_effect_slot_init: [0; 4],
        music_track: 0,
        sound_effect_slot_playing: [0; 5],
        currently_playing_music_track: 0,
    };

    /// Nothing plays (no music, no effect, not paused) and nothing is asked for: the
    /// update is [`Audio::quiet_update`].
    #[inline(always)]
    pub(crate) fn is_silent(&self) -> bool {
        self.music_staging_noise_hi != 5
            && self.sound_effect_slot_init == [0; 4]
            && self.sound_effect_slot_playing == [0; 5]
            && self.music_track == 0
            && self.currently_playing_music_track == 0
    }

    /// [`Audio::update`] of a silent engine ([`Audio::is_silent`]): the same steps, all of
    /// whose tests are known. Returns its cycles.
    #[inline(always)]
    fn quiet_update(&mut self) -> u32 {
        self.audio_initialized = 0;
        self.music_pause_sound_effect_counter = 0;
        effects::QUIET_UPDATE
    }

    /// One call of `updateAudio` (see the module documentation for what the cycles
    /// include). `music` is the cartridge's music data; without it the update is exact
    /// unless music plays. A frame in which no slot has anything to do costs a few
    /// comparisons; one with music walks the four channels as the cartridge does.
    #[inline(always)]
    pub fn update(&mut self, music: Option<&MusicData>) -> Update {
        // Most frames of a game with the music off: no call.
        if self.is_silent() {
            return Update {
                cycles: self.quiet_update(),
                exact: true,
            };
        }
        // Most of the other frames of a game: an effect of slot 1 playing on.
        if let Some(cycles) = self.slot1_advancing() {
            return Update {
                cycles,
                exact: true,
            };
        }
        self.update_playing(music)
    }

    /// [`Audio::update`] when slot 1 alone plays an effect of the game (shift, rotate,
    /// lock, line completed, line clearing, tetris, level up), the effect goes on after
    /// this frame, and no music plays and nothing is asked for: its cycles, the frame
    /// counted. `None`, with nothing changed, otherwise.
    #[inline(always)]
    fn slot1_advancing(&mut self) -> Option<u32> {
        let v = self.sound_effect_slot_playing[1];
        let n = self.sound_effect_slot_frame_counter[1].wrapping_add(1);
        if !matches!(v, 3..=7 | 9 | 10)
            || n == self.sound_effect_slot_frame_count[1]
            || self.sound_effect_slot_playing != [0, v, 0, 0, 0]
            || self.sound_effect_slot_init != [0; 4]
            || self.music_staging_noise_hi == 5
            || self.music_track != 0
            || self.currently_playing_music_track != 0
        {
            return None;
        }
        self.audio_initialized = 0;
        self.music_pause_sound_effect_counter = 0;
        self.sound_effect_slot_frame_counter[1] = n;
        Some(effects::slot1_advancing_update(v))
    }

    /// [`Audio::update`] when something plays or is asked for. Not inlined: it holds the
    /// whole sound engine.
    #[inline(never)]
    fn update_playing(&mut self, music: Option<&MusicData>) -> Update {
        let mut cpu = Cpu {
            s: self,
            rom: music,
            k: Count(0),
            exact: true,
        };
        cpu.update_audio();
        Update {
            cycles: cpu.k.now(),
            exact: cpu.exact,
        }
    }

    /// The same update as [`Audio::update`] from this state, replayed instruction by
    /// instruction without changing `self`: where the first instruction that ends at or
    /// after `at` cycles ends, and where the request bytes were read and cleared. Slower
    /// than [`Audio::update`]; meant for the frames where an interrupt lands inside it.
    pub fn probe(&self, music: Option<&MusicData>, at: u32) -> Probe {
        let mut copy = self.clone();
        let mut cpu = Cpu {
            s: &mut copy,
            rom: music,
            k: clock::Probe::new(at),
            exact: true,
        };
        cpu.update_audio();
        let k = cpu.k;
        Probe {
            update: Update {
                cycles: k.now,
                exact: cpu.exact,
            },
            boundary: k.end,
            read: k.read,
            cleared: k.cleared,
        }
    }

    /// [`Audio::update`] walked instruction by instruction, as [`Audio::probe`] walks it,
    /// without the short cuts: for the tests that check the short cuts change the state
    /// as the long way does.
    #[doc(hidden)]
    pub fn update_walked(&mut self, music: Option<&MusicData>) -> Update {
        let mut cpu = Cpu {
            s: self,
            rom: music,
            k: clock::Probe::new(u32::MAX),
            exact: true,
        };
        cpu.update_audio();
        Update {
            cycles: cpu.k.now,
            exact: cpu.exact,
        }
    }

    /// Asks for a sound effect: writes its request byte, as the game does.
    #[inline]
    pub fn play(&mut self, effect: SoundEffect) {
        let (slot, value) = effect.request();
        self.sound_effect_slot_init[slot] = value;
    }

    /// `setMusicTrack` without its demo check: asks for track 1-10, or $FF for silence.
    #[inline]
    pub fn set_music_track(&mut self, track: u8) {
        self.music_track = track;
    }

    /// The pause loop's flag (`musicStagingNoiseHi` = 5 on pause, 0 on resume): while it
    /// is up, the update plays the pause tune and nothing else.
    #[inline]
    pub fn set_paused(&mut self, paused: bool) {
        self.music_staging_noise_hi = if paused { 5 } else { 0 };
    }

    /// `jsr updateAudio2`: stops every effect and the music. Returns its cycles from the
    /// `jmp` at `updateAudio2` to the final `rts` (the caller's `jsr` not included).
    pub fn silence(&mut self) -> u32 {
        let mut cpu = Cpu {
            s: self,
            rom: None,
            k: Count(0),
            exact: true,
        };
        // jmp soundEffectSlot2_makesNoSound
        cpu.k.run(&[3]);
        cpu.make_no_sound();
        cpu.k.now()
    }

    /// `jsr LE006` at power-on: the APU's channels on, then [`Audio::silence`]'s work.
    /// Returns its cycles, counted as for [`Audio::silence`].
    pub fn reset(&mut self) -> u32 {
        let mut cpu = Cpu {
            s: self,
            rom: None,
            k: Count(0),
            exact: true,
        };
        // jmp LE1D8; lda #$0F; sta SND_CHN; lda #$55; sta soundRngSeed; jsr
        cpu.k.run(&[3, 2, 4, 2, 3, 6]);
        cpu.make_no_sound();
        // rts
        cpu.k.run(&[6]);
        cpu.k.now()
    }

    /// The state from the 128 bytes of RAM at $0680-$06FF.
    pub fn from_page(page: &[u8; 128]) -> Audio {
        let r = |a: usize| page[a - 0x680];
        let w = |a: usize| u16::from_le_bytes([r(a), r(a + 1)]);
        let arr3 = |a: usize| [r(a), r(a + 1), r(a + 2)];
        let arr4 = |a: usize| [r(a), r(a + 1), r(a + 2), r(a + 3)];
        let ptr4 = |a: usize| [w(a), w(a + 2), w(a + 4), w(a + 6)];
        Audio {
            music_staging_lo: [r(0x680), r(0x684), r(0x688)],
            music_staging_hi: [r(0x681), r(0x685), r(0x689)],
            audio_initialized: r(0x682),
            music_pause_sound_effect_length_counter: r(0x683),
            reset_sq12_for_music: r(0x68A),
            music_pause_sound_effect_counter: r(0x68B),
            music_staging_noise_hi: r(0x68D),
            music_data_note_table_offset: r(0x690),
            music_data_duration_table_offset: r(0x691),
            music_data_chan_ptr: ptr4(0x692),
            music_chan_control: arr3(0x69A),
            music_chan_volume: arr3(0x69D),
            music_data_chan_ptr_deref: ptr4(0x6A0),
            music_data_chan_ptr_off: arr4(0x6A8),
            music_data_chan_instruction_offset: arr4(0x6AC),
            music_data_chan_instruction_offset_backup: arr4(0x6B0),
            music_chan_note_duration_remaining: arr4(0x6B4),
            music_chan_note_duration: arr4(0x6B8),
            music_chan_prog_loop_counter: arr4(0x6BC),
            music_staging_sq1_sweep: [r(0x6C0), r(0x6C1)],
            music_chan_note: arr4(0x6C3),
            music_chan_inhibit: arr3(0x6C8),
            music_chan_vol_frame_counter: arr4(0x6CD),
            music_chan_lo_frame_counter: arr4(0x6D1),
            sound_effect_slot_frame_count: arr4(0x6D5),
            sound_effect_slot_frame_counter: arr4(0x6DA),
            sound_effect_slot_secondary_counter: arr4(0x6DF),
            sound_effect_slot_tertiary_counter: arr4(0x6E3),
            sound_effect_slot_init: arr4(0x6F0),
            music_track: r(0x6F5),
            sound_effect_slot_playing: [r(0x6F8), r(0x6F9), r(0x6FA), r(0x6FB), r(0x6FC)],
            currently_playing_music_track: r(0x6FD),
        }
    }

    /// Writes the state into the 128 bytes of RAM at $0680-$06FF; bytes that are not
    /// state are left as they are.
    pub fn write_page(&self, page: &mut [u8; 128]) {
        let mut put = |a: usize, v: &[u8]| page[a - 0x680..a - 0x680 + v.len()].copy_from_slice(v);
        let ptrs = |p: &[u16; 4]| {
            let mut b = [0u8; 8];
            for (i, v) in p.iter().enumerate() {
                b[2 * i..2 * i + 2].copy_from_slice(&v.to_le_bytes());
            }
            b
        };
        for c in 0..3 {
            put(
                0x680 + 4 * c,
                &[self.music_staging_lo[c], self.music_staging_hi[c]],
            );
        }
        put(
            0x682,
            &[
                self.audio_initialized,
                self.music_pause_sound_effect_length_counter,
            ],
        );
        put(
            0x68A,
            &[
                self.reset_sq12_for_music,
                self.music_pause_sound_effect_counter,
            ],
        );
        put(0x68D, &[self.music_staging_noise_hi]);
        put(
            0x690,
            &[
                self.music_data_note_table_offset,
                self.music_data_duration_table_offset,
            ],
        );
        put(0x692, &ptrs(&self.music_data_chan_ptr));
        put(0x69A, &self.music_chan_control);
        put(0x69D, &self.music_chan_volume);
        put(0x6A0, &ptrs(&self.music_data_chan_ptr_deref));
        put(0x6A8, &self.music_data_chan_ptr_off);
        put(0x6AC, &self.music_data_chan_instruction_offset);
        put(0x6B0, &self.music_data_chan_instruction_offset_backup);
        put(0x6B4, &self.music_chan_note_duration_remaining);
        put(0x6B8, &self.music_chan_note_duration);
        put(0x6BC, &self.music_chan_prog_loop_counter);
        put(0x6C0, &self.music_staging_sq1_sweep);
        put(0x6C3, &self.music_chan_note);
        put(0x6C8, &self.music_chan_inhibit);
        put(0x6CD, &self.music_chan_vol_frame_counter);
        put(0x6D1, &self.music_chan_lo_frame_counter);
        put(0x6D5, &self.sound_effect_slot_frame_count);
        put(0x6DA, &self.sound_effect_slot_frame_counter);
        put(0x6DF, &self.sound_effect_slot_secondary_counter);
        put(0x6E3, &self.sound_effect_slot_tertiary_counter);
        put(0x6F0, &self.sound_effect_slot_init);
        put(0x6F5, &[self.music_track]);
        put(0x6F8, &self.sound_effect_slot_playing);
        put(0x6FD, &[self.currently_playing_music_track]);
    }
}
