//! Snapshots (`Game::snapshot`, `Game::from_snapshot`): a snapshot rebuilds an equal
//! game at any point of random play, the rebuilt game continues identically, and
//! snapshots holding values the cartridge cannot hold are refused with a typed error
//! (never a panic, neither when building nor when stepping what was accepted).

mod common;

use common::*;
use nestris_core::{Buttons, Game, GameSetup, GameType, Region, Snapshot, SnapshotError};
use proptest::prelude::*;

/// A setup from a few random choices (A/B type, region, level, height, generator).
fn any_setup() -> impl Strategy<Value = GameSetup> {
    (
        any::<u64>(),
        0u8..=19,
        0u8..=5,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(seed, level, height, b_type, pal)| GameSetup {
            level,
            height,
            game_type: if b_type { GameType::B } else { GameType::A },
            region: if pal { Region::Pal } else { Region::Ntsc },
            ..GameSetup::from_seed(seed)
        })
}

/// Random frames of input: half of them any byte at all, half only the play buttons
/// (D-pad, A, B), so that pieces actually get placed between the pauses.
fn any_inputs(max: usize) -> impl Strategy<Value = Vec<Buttons>> {
    proptest::collection::vec(
        (any::<u8>(), any::<bool>()).prop_map(|(b, wild)| Buttons(if wild { b } else { b & 0xC7 })),
        0..max,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// At every frame of random play, the snapshot rebuilds an equal game, and that
    /// rebuilt game then plays exactly like the original.
    #[test]
    fn round_trip_during_random_play(setup in any_setup(), inputs in any_inputs(1500)) {
        let mut original = Game::new(setup);
        let mut rebuilt = Game::from_snapshot(original.snapshot()).unwrap();
        prop_assert_eq!(&rebuilt, &original);
        for (frame, &b) in inputs.iter().enumerate() {
            let e1 = original.step(b);
            let e2 = rebuilt.step(b);
            prop_assert_eq!(e1, e2, "frame {}", frame);
            let snapshot = original.snapshot();
            prop_assert_eq!(original.state(), &snapshot);
            rebuilt = Game::from_snapshot(snapshot).unwrap();
            prop_assert_eq!(&rebuilt, &original, "frame {}", frame);
        }
    }
}

fn base() -> Snapshot {
    playing(0, T, 5, 5)
}

fn refused(edit: impl FnOnce(&mut Snapshot)) -> SnapshotError {
    let mut s = base();
    edit(&mut s);
    Game::from_snapshot(s).expect_err("the snapshot should be refused")
}

#[test]
fn bad_piece_is_refused() {
    assert_eq!(refused(|s| s.piece = 20), SnapshotError::BadPiece(20));
    assert_eq!(refused(|s| s.piece = 255), SnapshotError::BadPiece(255));
    // 19 is the hidden piece, a real state (line clears, curtain).
    let mut s = base();
    s.piece = 19;
    assert!(Game::from_snapshot(s).is_ok());
}

#[test]
fn bad_next_piece_is_refused() {
    // The preview is always a real orientation.
    assert_eq!(
        refused(|s| s.next_piece = 19),
        SnapshotError::BadNextPiece(19)
    );
    assert_eq!(
        refused(|s| s.next_piece = 200),
        SnapshotError::BadNextPiece(200)
    );
}

#[test]
fn bad_position_is_refused() {
    assert_eq!(
        refused(|s| s.x = 10),
        SnapshotError::BadPosition { x: 10, y: 5 }
    );
    assert_eq!(
        refused(|s| s.y = 20),
        SnapshotError::BadPosition { x: 5, y: 20 }
    );
    assert_eq!(
        refused(|s| (s.x, s.y) = (255, 255)),
        SnapshotError::BadPosition { x: 255, y: 255 }
    );
}

#[test]
fn non_bcd_score_and_lines_are_refused() {
    for (i, byte) in [(0, 0x0A), (1, 0xA0), (2, 0xFF)] {
        assert_eq!(
            refused(|s| s.score[i] = byte),
            SnapshotError::NotBcd {
                field: "score",
                value: byte
            }
        );
    }
    assert_eq!(
        refused(|s| s.lines[0] = 0x1F),
        SnapshotError::NotBcd {
            field: "lines",
            value: 0x1F
        }
    );
}

#[test]
fn out_of_range_states_are_refused() {
    assert!(matches!(
        refused(|s| s.play_state = 12),
        SnapshotError::BadState {
            field: "play_state",
            value: 12
        }
    ));
    assert!(matches!(
        refused(|s| s.start_height = 6),
        SnapshotError::OutOfRange {
            field: "start_height",
            value: 6
        }
    ));
    assert!(matches!(
        refused(|s| s.game_type = 2),
        SnapshotError::BadState {
            field: "game_type",
            value: 2
        }
    ));
}

#[test]
fn errors_explain_themselves() {
    let e = refused(|s| s.piece = 20);
    assert!(e.to_string().contains("20"), "{e}");
    let e = refused(|s| s.score[0] = 0x0A);
    assert!(e.to_string().contains("0A"), "{e}");
}

/// Writes `value` into one of the play-related bytes of `s`, chosen by `field`.
fn poke(s: &mut Snapshot, field: usize, value: u8) {
    match field % 40 {
        0 => s.x = value,
        1 => s.y = value,
        2 => s.piece = value,
        3 => s.next_piece = value,
        4 => s.level = value,
        5 => s.start_level = value,
        6 => s.start_height = value,
        7 => s.fall_timer = value,
        8 => s.autorepeat_x = value,
        9 => s.autorepeat_y = value,
        10 => s.hold_down_points = value,
        11 => s.vram_row = value,
        12 => s.completed_lines = value,
        13 => s.completed_row[value as usize % 4] = value,
        14 => s.line_index = value,
        15 => s.row_y = value,
        16 => s.curtain_row = value,
        17 => s.lines[0] = value,
        18 => s.lines[1] = value,
        19 => s.score[0] = value,
        20 => s.score[1] = value,
        21 => s.score[2] = value,
        22 => s.spawn_id = value,
        23 => s.spawn_count = value,
        24 => s.held = value,
        25 => s.pressed = value,
        26 => s.game_type = value,
        27 => s.display_next_piece = value,
        28 => s.play_state = value,
        29 => s.clears[value as usize % 4] = value,
        30 => s.stats[value as usize % 7][0] = value,
        31 => s.stats[value as usize % 7][1] = value,
        32 => s.rng = u16::from(value) << 8 | u16::from(value ^ 0x5A),
        33 => s.frame_counter = u16::from(value),
        34 => s.game_mode_state = value,
        35 => s.render_mode = value,
        36 => s.allegro = value,
        37 => s.sleep_counter = value,
        _ => {
            // Any page byte, the rows above and below the field included.
            s.playfield.0[value as usize] = value.wrapping_mul(31);
        }
    }
}

proptest! {
    /// Corrupting play variables never panics: the snapshot is either refused with an
    /// error or accepted, and an accepted one steps without panicking.
    #[test]
    fn corrupted_snapshots_never_panic(
        setup in any_setup(),
        warmup in any_inputs(300),
        pokes in proptest::collection::vec((0usize..40, any::<u8>()), 1..6),
        after in any_inputs(300),
    ) {
        let mut g = Game::new(setup);
        for &b in &warmup {
            g.step(b);
        }
        let mut s = g.snapshot();
        for &(field, value) in &pokes {
            poke(&mut s, field, value);
        }
        if let Ok(mut g) = Game::from_snapshot(s) {
            for &b in &after {
                g.step(b);
            }
        }
    }
}

#[test]
fn curtain_row_past_the_field_is_refused_or_harmless() {
    // The curtain counts -16..=20 on the cartridge; a snapshot claiming it is further
    // down must not make the next frames index past the playfield page.
    for row in [21u8, 24, 25, 26, 100, 127] {
        let mut s = base();
        s.play_state = 10;
        s.curtain_row = row;
        if let Ok(mut g) = Game::from_snapshot(s) {
            run(&mut g, Buttons::NONE, 8);
        }
    }
}

#[test]
fn game_init_with_too_many_garbage_rows_is_refused_or_harmless() {
    // Game init has at most 12 garbage rows to go.
    for rows_left in [13u8, 20, 21, 100, 255] {
        let mut s = Game::new(GameSetup {
            game_type: GameType::B,
            ..GameSetup::default()
        })
        .snapshot();
        s.resume = nestris_core::Resume::GameInit { rows_left };
        if let Ok(mut g) = Game::from_snapshot(s) {
            run(&mut g, Buttons::NONE, 30);
        }
    }
}
