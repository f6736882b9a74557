//! The pieces themselves (`CARTRIDGE.md` 8, 12, 15, 20.1): the cells and tile each
//! orientation writes when it locks, where and how a piece spawns, and the per-type
//! statistics counters.

mod common;

use common::*;
use nestris_core::lfsr::{lfsr_step, pick_piece};
use nestris_core::{Buttons, FrameEvents, Game, GameSetup};

#[test]
fn locking_writes_the_orientation_cells_with_its_tile() {
    for piece in 0..19u8 {
        let mut s = playing(0, piece, 5, 10);
        s.play_state = 2;
        let before = s.playfield.clone();
        let mut g = game(s);
        assert!(g.step(Buttons::NONE).has(FrameEvents::LOCKED));
        let mut expected = before;
        for &(dr, dc) in &SPEC_CELLS[piece as usize] {
            let index = (10 + dr as i32) * 10 + 5 + dc as i32;
            expected.0[index as usize] = SPEC_TILE[piece as usize];
        }
        assert_eq!(g.state().playfield, expected, "orientation {piece}");
    }
}

#[test]
fn spawn_places_the_type_at_column_5_row_0() {
    // nextPiece normally holds a spawn orientation, but any orientation spawns as its
    // type's spawn orientation.
    for next in 0..19u8 {
        let kind = match next {
            0..=3 => 0,
            4..=7 => 1,
            8 | 9 => 2,
            10 => 3,
            11 | 12 => 4,
            13..=16 => 5,
            _ => 6,
        };
        let mut s = about_to_spawn(0, next);
        s.x = 2;
        s.y = 17;
        s.fall_timer = 30;
        s.autorepeat_x = 12;
        s.autorepeat_y = 2;
        let mut g = game(s);
        assert!(g.step(Buttons::NONE).has(FrameEvents::SPAWNED));
        let st = g.state();
        assert_eq!(
            (st.piece, st.x, st.y, st.play_state),
            (SPAWN[kind], 5, 0, 1),
            "next {next}"
        );
        // Gravity and soft drop restart; DAS is kept.
        assert_eq!(
            (st.fall_timer, st.autorepeat_y, st.autorepeat_x),
            (0, 0, 12)
        );
    }
}

#[test]
fn spawn_draws_the_next_preview_from_the_generator() {
    let s = about_to_spawn(0, S);
    let (rng, count, id) = (s.rng, s.spawn_count, s.spawn_id);
    let mut g = game(s);
    g.step(Buttons::NONE);
    // The frame interrupt steps the generator once before the spawn picks.
    let pick = pick_piece(lfsr_step(rng), count, id);
    let st = g.state();
    assert_eq!(st.next_piece, pick.piece);
    assert_eq!(
        (st.rng, st.spawn_count, st.spawn_id),
        (pick.rng, pick.spawn_count, pick.piece)
    );
}

#[test]
fn spawn_counts_the_piece_in_its_type_statistics() {
    for kind in 0..7 {
        let mut s = about_to_spawn(0, SPAWN[kind]);
        s.stats = [
            [0x09, 0x00],
            [0x99, 0x00],
            [0, 0],
            [0, 0],
            [0, 0],
            [0, 0],
            [0x99, 0x09],
        ];
        let before = s.stats;
        let mut g = game(s);
        g.step(Buttons::NONE);
        let mut expected = before;
        expected[kind] = match before[kind] {
            [0x09, 0x00] => [0x10, 0x00],
            [0x99, 0x00] => [0x00, 0x01],
            [0x99, 0x09] => [0x00, 0x0A],
            [lo, hi] => [lo + 1, hi],
        };
        assert_eq!(g.state().stats, expected, "{}", NAMES[kind]);
    }
}

#[test]
fn game_start_picks_and_counts_the_first_piece() {
    for seed in 0..50u64 {
        let setup = GameSetup::from_seed(seed);
        let g = Game::new(setup);
        let st = g.state();
        let first = pick_piece(setup.rng, setup.spawn_count, 0);
        // One explicit generator step between the two picks.
        let second = pick_piece(lfsr_step(first.rng), first.spawn_count, first.piece);
        assert_eq!((st.piece, st.next_piece), (first.piece, second.piece));
        assert_eq!((st.x, st.y, st.spawn_id), (5, 0, second.piece));
        let kind = SPAWN.iter().position(|&p| p == st.piece).unwrap();
        for (k, counter) in st.stats.iter().enumerate() {
            assert_eq!(*counter, [u8::from(k == kind), 0], "seed {seed}");
        }
    }
}
