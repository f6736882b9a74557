//! The sound engine's cycles (`nestris_core::audio`), without the music data: every sound
//! effect from its request to its end, the pause tune, the music switched off, and the
//! instruction-by-instruction probe against the ordinary update.
//!
//! The expected figures were measured on the cartridge in tetanes-core (the emulator the
//! conformance recordings come from), by calling `updateAudio_jmp` on its own once per
//! frame from the state the reset code leaves (`LE006`, then `updateAudio2`), the effect
//! asked for before the first call, the music off: the CPU cycles from the `jmp` at $E000
//! to the final `rts`.

use nestris_core::audio::{Audio, SoundEffect, Update};
use proptest::prelude::*;

fn powered_on() -> Audio {
    let mut a = Audio::CLEARED;
    a.reset();
    a.silence();
    a
}

/// Calls until the slot is free again (the call that frees it included).
fn run_until_free(a: &mut Audio, slot: usize) -> Vec<u32> {
    let mut cycles = Vec::new();
    loop {
        let u = a.update(None);
        assert!(u.exact, "no effect needs the music data");
        cycles.push(u.cycles);
        if a.sound_effect_slot_playing[slot] == 0 || cycles.len() > 400 {
            return cycles;
        }
    }
}

/// `n` copies of a repeating pattern, then a last value.
fn pattern(first: &[u32], repeat: &[u32], times: usize, last: &[u32]) -> Vec<u32> {
    let mut v = first.to_vec();
    for _ in 0..times {
        v.extend_from_slice(repeat);
    }
    v.extend_from_slice(last);
    v
}

#[test]
fn with_the_music_off_every_frame_costs_296_cycles() {
    let mut a = powered_on();
    for _ in 0..10 {
        assert_eq!(
            a.update(None),
            Update {
                cycles: 296,
                exact: true
            }
        );
    }
    // $FF (music off) on top of silence goes through updateAudio2's work.
    a.set_music_track(0xFF);
    assert_eq!(
        a.update(None),
        Update {
            cycles: 468,
            exact: true
        }
    );
    assert_eq!(a.update(None).cycles, 296);
}

#[test]
fn the_stop_everything_entry_points_cost_what_the_cartridge_measured() {
    let mut a = Audio::CLEARED;
    assert_eq!(a.reset(), 211);
    assert_eq!(a.silence(), 188);
    a.play(SoundEffect::Lock);
    a.update(None);
    assert_eq!(a.sound_effect_slot_playing[1], 7);
    assert_eq!(
        a.music_chan_inhibit[0], 1,
        "the effect takes square 1 from the music"
    );
    a.silence();
    assert_eq!(a.sound_effect_slot_playing, [0; 5]);
    assert_eq!(a.music_chan_inhibit, [0; 3]);
}

#[test]
fn each_sound_effect_costs_what_the_cartridge_measured() {
    let cases: [(SoundEffect, Vec<u32>); 12] = [
        (
            SoundEffect::GameOverCurtain,
            pattern(&[551], &[568, 554], 31, &[568, 441]),
        ),
        (
            SoundEffect::EndingRocket,
            pattern(&[569], &[439], 31, &[456]),
        ),
        (
            SoundEffect::MenuOptionSelect,
            vec![544, 403, 403, 530, 403, 403, 447],
        ),
        (
            SoundEffect::MenuScreenSelect,
            pattern(&[575, 421, 421], &[481, 421, 421], 3, &[465]),
        ),
        (SoundEffect::Shift, vec![610, 439, 466]),
        (
            SoundEffect::TetrisAchieved,
            pattern(
                &pattern(
                    &[615, 457, 457, 457, 457],
                    &[622, 457, 457, 457, 457],
                    8,
                    &[],
                ),
                &[835, 547, 547, 547],
                1,
                &pattern(&[], &[709, 547, 547, 547], 8, &[736]),
            ),
        ),
        (
            SoundEffect::Rotate,
            vec![
                694, 475, 475, 505, 475, 475, 475, 604, 475, 475, 475, 608, 475, 475, 475, 529,
            ],
        ),
        (
            SoundEffect::LevelUp,
            pattern(
                &[630, 493, 493, 493, 493, 493],
                &[527, 493, 493, 493, 493, 493],
                9,
                &[540],
            ),
        ),
        (SoundEffect::Lock, pattern(&[682], &[511], 14, &[538])),
        (
            SoundEffect::ChirpChirp,
            pattern(&[664], &[531], 7, &pattern(&[643], &[514], 13, &[538])),
        ),
        (
            SoundEffect::LineClearing,
            pattern(&[702, 547, 547, 547], &[709, 547, 547, 547], 8, &[736]),
        ),
        (
            SoundEffect::LineCompleted,
            pattern(
                &[723, 565, 565, 565, 565],
                &[730, 565, 565, 565, 565],
                8,
                &[757],
            ),
        ),
    ];
    for (effect, want) in cases {
        let mut a = powered_on();
        a.play(effect);
        let (slot, _) = effect.request();
        assert_eq!(run_until_free(&mut a, slot), want, "{effect:?}");
    }
}

#[test]
fn the_triangle_slots_unused_effects_cost_what_the_cartridge_measured() {
    // Slot 3 is never asked for by the game: 1 falling alien, 2 donk.
    let mut a = powered_on();
    a.sound_effect_slot_init[3] = 1;
    let alien = pattern(
        &[565, 403, 403, 403, 403, 403],
        &[440, 403, 403, 403, 403, 403],
        3,
        &[445],
    );
    assert_eq!(run_until_free(&mut a, 3), alien);
    a.sound_effect_slot_init[3] = 2;
    assert_eq!(run_until_free(&mut a, 3), [566, 421, 446]);
}

#[test]
fn the_pause_tune_plays_eighteen_frames_then_costs_41() {
    let mut a = powered_on();
    a.set_paused(true);
    let cycles: Vec<u32> = (0..25).map(|_| a.update(None).cycles).collect();
    let want = [
        80, 52, 52, 52, 182, 52, 52, 52, 183, 52, 52, 52, 182, 52, 52, 52, 183, 52, 52, 41, 41, 41,
        41, 41, 41,
    ];
    assert_eq!(cycles, want);
    a.set_paused(false);
    assert_eq!(a.update(None).cycles, 296);
    assert_eq!(a.audio_initialized, 0);
}

#[test]
fn a_shift_during_a_tetris_is_ignored_and_holds_the_tetris_one_frame() {
    let mut a = powered_on();
    a.play(SoundEffect::TetrisAchieved);
    let mut cycles = vec![a.update(None).cycles];
    a.play(SoundEffect::Shift);
    cycles.push(a.update(None).cycles);
    cycles.push(a.update(None).cycles);
    assert_eq!(cycles, [615, 414, 457]);
    assert_eq!(a.sound_effect_slot_playing[1], 4);
}

#[test]
fn requests_past_the_tables_run_the_next_tables_routines_or_nothing() {
    // Slot 1's 11th entry is its Playing table's first (the menu option's step).
    let mut a = powered_on();
    a.sound_effect_slot_init[1] = 11;
    let u = a.update(None);
    assert!(u.exact);
    // From 18 on, the search gives up after 17 entries and jumps to an rts.
    let mut b = powered_on();
    b.sound_effect_slot_init[1] = 200;
    let u = b.update(None);
    assert!(u.exact);
    assert_eq!(b.sound_effect_slot_playing, [0; 5]);
    // Slot 3's 8th entry would be code bytes read as an address: not modelled.
    let mut c = powered_on();
    c.sound_effect_slot_init[3] = 8;
    assert!(!c.update(None).exact);
}

#[test]
fn without_music_data_playing_music_is_an_estimate_and_says_so() {
    let mut a = powered_on();
    a.set_music_track(3);
    let start = a.update(None);
    assert_eq!(
        start,
        Update {
            cycles: 2915,
            exact: false
        }
    );
    assert_eq!(a.currently_playing_music_track, 3);
    let frame = a.update(None);
    assert_eq!(
        frame,
        Update {
            cycles: 1285,
            exact: false
        }
    );
    // Stopping the music needs no data.
    a.set_music_track(0xFF);
    assert!(a.update(None).exact);
    assert_eq!(
        a.update(None),
        Update {
            cycles: 296,
            exact: true
        }
    );
}

#[test]
fn the_probe_finds_instruction_ends_and_where_the_requests_are_read_and_cleared() {
    let a = powered_on();
    // jmp updateAudio ends at 3, lda #$C0 at 5, sta JOY2_APUFC at 9.
    assert_eq!(a.probe(None, 0).boundary, Some(3));
    assert_eq!(a.probe(None, 3).boundary, Some(3));
    assert_eq!(a.probe(None, 4).boundary, Some(5));
    assert_eq!(a.probe(None, 6).boundary, Some(9));
    assert_eq!(a.probe(None, 296).boundary, Some(296));
    assert_eq!(a.probe(None, 297).boundary, None);
    let p = a.probe(None, 0);
    assert_eq!(
        p.update,
        Update {
            cycles: 296,
            exact: true
        }
    );
    // Slots are updated in the order 2, 0, 3, 1; soundEffectSlot4Init is never read.
    assert_eq!(
        p.read,
        [Some(90), Some(178), Some(52), Some(131), None, Some(204)]
    );
    // The closing loop clears musicTrack first, soundEffectSlot0Init last.
    assert_eq!(
        p.cleared,
        [
            Some(286),
            Some(276),
            Some(266),
            Some(256),
            Some(246),
            Some(236)
        ]
    );
}

/// The game's sound effects playing alone in slot 1 take the update's short cut while
/// they go on: at every frame counter, with the frame they end on and others, the same
/// total and state as the walked update.
#[test]
fn a_slot1_effect_playing_on_is_the_walked_update() {
    let mut starts = Vec::new();
    for effect in [
        SoundEffect::Shift,
        SoundEffect::Rotate,
        SoundEffect::Lock,
        SoundEffect::LineCompleted,
        SoundEffect::LineClearing,
        SoundEffect::TetrisAchieved,
        SoundEffect::LevelUp,
        SoundEffect::ChirpChirp,
        SoundEffect::MenuScreenSelect,
    ] {
        let mut a = powered_on();
        a.play(effect);
        a.update(None);
        starts.push(a);
    }
    let mut taken = 0;
    for start in starts {
        for counter in 0..=255u8 {
            for count in [0u8, 1, 2, 0x0F, 0x10, counter.wrapping_add(1), 255] {
                let mut a = start.clone();
                a.sound_effect_slot_frame_counter[1] = counter;
                a.sound_effect_slot_frame_count[1] = count;
                let mut walked = a.clone();
                let u = a.update(None);
                assert_eq!(
                    walked.update_walked(None),
                    u,
                    "counter {counter}, count {count}"
                );
                assert_eq!(walked, a, "counter {counter}, count {count}");
                taken += u32::from(a.sound_effect_slot_playing[1] != 0);
            }
        }
    }
    assert!(taken > 10_000, "the effect went on in {taken} cases");
}

/// A state reached by playing effects and pauses from power-on, driven by `script`.
fn scripted(script: &[u8]) -> Audio {
    let mut a = powered_on();
    for &s in script {
        match s % 16 {
            0..=11 => {
                let effects = [
                    SoundEffect::GameOverCurtain,
                    SoundEffect::EndingRocket,
                    SoundEffect::MenuOptionSelect,
                    SoundEffect::MenuScreenSelect,
                    SoundEffect::Shift,
                    SoundEffect::TetrisAchieved,
                    SoundEffect::Rotate,
                    SoundEffect::LevelUp,
                    SoundEffect::Lock,
                    SoundEffect::ChirpChirp,
                    SoundEffect::LineClearing,
                    SoundEffect::LineCompleted,
                ];
                a.play(effects[(s % 16) as usize]);
            }
            12 => a.set_paused(a.music_staging_noise_hi != 5),
            13 => a.sound_effect_slot_init[3] = 1 + s / 128,
            _ => {}
        }
        for _ in 0..s / 16 {
            a.update(None);
        }
    }
    a
}

proptest! {
    /// The ordinary update takes short cuts; the probe walks every instruction. Both give
    /// the same total and leave the same state, and the probe's boundaries are increasing
    /// instruction ends.
    #[test]
    fn the_probe_agrees_with_the_update(script in proptest::collection::vec(any::<u8>(), 0..40)) {
        let a = scripted(&script);
        let mut b = a.clone();
        let u = b.update(None);
        let p = a.probe(None, 0);
        prop_assert_eq!(p.update, u);
        let mut walked = a.clone();
        prop_assert_eq!(walked.update_walked(None), u);
        prop_assert_eq!(&walked, &b);
        let mut at = 0;
        while let Some(end) = a.probe(None, at).boundary {
            prop_assert!(end >= at && end <= u.cycles);
            at = end + 1;
        }
        prop_assert_eq!(at, u.cycles + 1);
    }

    /// The page-6 bytes hold the whole state.
    #[test]
    fn the_state_round_trips_through_ram(script in proptest::collection::vec(any::<u8>(), 0..40)) {
        let a = scripted(&script);
        let mut page = [0xA5u8; 128];
        a.write_page(&mut page);
        prop_assert_eq!(Audio::from_page(&page), a);
    }
}
