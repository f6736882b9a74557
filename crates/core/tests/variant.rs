//! Rules that are not the cartridge's (`nestris_core::Variant`), played through `Game`:
//! a TetrisGYM seed deals TetrisGYM's pieces, a double-killscreen cap drops two rows a
//! frame, a halting cap ends the game after the clear that reaches it, and none of it
//! touches a game under the cartridge's rules.

mod common;

use common::*;
use nestris_core::{
    Buttons, CapAt, CapRule, FrameEvents, Game, GameSetup, GymSeed, LineCap, SeedRule, Snapshot,
    Variant,
};

/// TetrisGYM's own expected sequence for seed 123456 (its `tests/src/sps.rs`).
const SEED_123456: &str = "ZTZIJIJOZTSOSZJZOSLIOIJIJSTZSTTJISSTOIZJITJOZJITSOSZSJLTISJOITTLSLJTZTZOZSLJTJZSLTSOTLOJLSJSJTJILOJS";

fn letter(spawn_id: u8) -> char {
    let kind = SPAWN
        .iter()
        .position(|&s| s == spawn_id)
        .expect("a spawn id");
    NAMES[kind].chars().next().unwrap()
}

fn with(variant: Variant, level: u8) -> GameSetup {
    GameSetup {
        level,
        variant,
        ..GameSetup::default()
    }
}

fn cap(at: CapAt, rule: CapRule) -> Variant {
    Variant {
        seed: None,
        caps: [Some(LineCap { at, rule }), None],
    }
}

#[test]
fn a_seeded_game_deals_tetrisgyms_pieces() {
    let seed = GymSeed::new(0x123456, SeedRule::V5);
    let mut g = Game::new(with(
        Variant {
            seed,
            caps: [None; 2],
        },
        18,
    ));
    let mut dealt = String::new();
    dealt.push(letter(g.state().piece));
    dealt.push(letter(g.state().next_piece));
    while dealt.len() < 40 {
        // Soft-drop every piece; empty the field at each spawn so the game never ends.
        let ev = g.step(Buttons::DOWN);
        if ev.has(FrameEvents::SPAWNED) {
            dealt.push(letter(g.state().next_piece));
            let mut s: Snapshot = g.snapshot();
            s.playfield = nestris_core::Playfield::empty();
            g = Game::from_snapshot(s).unwrap();
        }
    }
    assert_eq!(dealt, SEED_123456[..40]);
    assert!(!g.state().clock.known, "a variant game counts no cycles");

    // The same seed on the cartridge's rules is the cartridge's generator.
    let plain = Game::new(with(Variant::CARTRIDGE, 18));
    assert_eq!(
        plain.state().rng,
        Game::new(GameSetup {
            level: 18,
            ..GameSetup::default()
        })
        .state()
        .rng
    );
}

/// Rows fallen in each of the first `frames` frames of a T from the top at `level`.
fn rows_per_frame(variant: Variant, level: u8, lines: u32, frames: usize) -> Vec<u8> {
    let mut s = playing(level, T, 5, 2);
    s.lines = lines_bytes(lines);
    s.variant = variant;
    let mut g = game(s);
    (0..frames)
        .map(|_| {
            let y = g.state().y;
            g.step(Buttons::NONE);
            g.state().y - y
        })
        .collect()
}

#[test]
fn double_killscreen_drops_two_rows_a_frame_from_its_level() {
    let ksx2 = cap(CapAt::Level(39), CapRule::KsX2);
    assert_eq!(rows_per_frame(Variant::CARTRIDGE, 39, 390, 6), [1; 6]);
    assert_eq!(rows_per_frame(ksx2, 39, 390, 6), [2; 6]);
    // Below its level the cap changes nothing.
    assert_eq!(
        rows_per_frame(ksx2, 38, 380, 12),
        rows_per_frame(Variant::CARTRIDGE, 38, 380, 12)
    );
    // The killscreen rule: level 29's one row a frame at level 18, from 200 lines.
    let ks = cap(CapAt::Lines(200), CapRule::Ks);
    assert_eq!(rows_per_frame(ks, 18, 200, 6), [1; 6]);
    assert_eq!(
        rows_per_frame(ks, 18, 199, 6),
        rows_per_frame(Variant::CARTRIDGE, 18, 199, 6)
    );
}

#[test]
fn a_halting_cap_ends_the_game_once_the_clear_is_scored() {
    let mut s = playing(48, T, 5, 0);
    s.lines = lines_bytes(489);
    s.score = score_bytes(0);
    s.variant = cap(CapAt::Level(49), CapRule::Halt);
    let mut g = clear_bottom_rows_until(s, FrameEvents::CAPPED);
    // The single reached level 49 and was paid at it, then the curtain.
    assert_eq!(
        (g.state().level, lines(g.state()), score(g.state())),
        (49, 490, 40 * 50)
    );
    assert!(g.state().topped_out());
    assert!(g.is_over());
    for _ in 0..200 {
        assert!(!g.step(Buttons::NONE).has(FrameEvents::SPAWNED));
    }

    // A clear that stays below the cap plays on.
    let mut s = playing(48, T, 5, 0);
    s.lines = lines_bytes(480);
    s.variant = cap(CapAt::Level(49), CapRule::Halt);
    let g = clear_bottom_rows(s, 1);
    assert!(!g.is_over());
}

/// [`clear_bottom_rows`] with one row, run until `flag`.
fn clear_bottom_rows_until(mut s: Snapshot, flag: u32) -> Game {
    s.playfield = nestris_core::Playfield::empty();
    fill_row(&mut s, 19, &[0]);
    s.piece = I_VERTICAL;
    s.x = 0;
    s.y = 18;
    s.fall_timer = 100;
    let mut g = game(s);
    run_until(&mut g, 200, |_| Buttons::NONE, |ev, _| ev.has(flag));
    g
}
