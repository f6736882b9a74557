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
        ..Variant::CARTRIDGE
    }
}

#[test]
fn a_seeded_game_deals_tetrisgyms_pieces() {
    let seed = GymSeed::new(0x123456, SeedRule::V5);
    let mut g = Game::new(with(
        Variant {
            seed,
            ..Variant::CARTRIDGE
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

/// The pieces `variant` deals at level 18 over `n` spawns, soft-dropping each and emptying
/// the field at every spawn so the game never ends.
fn dealt(variant: Variant, n: usize) -> Vec<u8> {
    let mut g = Game::new(with(variant, 18));
    let mut out = vec![g.state().piece, g.state().next_piece];
    while out.len() < n {
        let ev = g.step(Buttons::DOWN);
        if ev.has(FrameEvents::SPAWNED) {
            out.push(g.state().next_piece);
            let mut s: Snapshot = g.snapshot();
            s.playfield = nestris_core::Playfield::empty();
            g = Game::from_snapshot(s).unwrap();
        }
    }
    out.truncate(n);
    out
}

#[test]
fn a_full_drought_deals_no_i_and_a_lighter_one_fewer() {
    let drought = |m| Variant {
        drought: m,
        ..Variant::CARTRIDGE
    };
    let count_i = |v: &[u8]| v.iter().filter(|&&p| p == I).count();
    let plain = dealt(Variant::CARTRIDGE, 700);
    assert!(
        count_i(&plain) > 70,
        "the cartridge deals about one in seven"
    );
    assert_eq!(count_i(&dealt(drought(18), 700)), 0);
    let light = dealt(drought(10), 700);
    assert!(
        count_i(&light) < count_i(&plain) * 3 / 4,
        "{}",
        count_i(&light)
    );
    // 1 and 2 re-pick nothing: the cartridge's pieces.
    assert_eq!(dealt(drought(2), 300), plain[..300]);
    // Up to the cartridge's first I, a drought deals the same pieces.
    let first_i = plain.iter().position(|&p| p == I).unwrap();
    assert_eq!(dealt(drought(18), first_i), plain[..first_i]);
}

/// Plays a piece at level 0 from the spawn with `left(frame)` deciding whether Left is
/// held; returns the column the piece reached after `frames` frames.
fn column_after(variant: Variant, frames: usize, left: impl Fn(usize) -> bool) -> u8 {
    let mut g = Game::new(with(variant, 0));
    // Wait out the first piece's delay.
    while g.state().phase() != nestris_core::PlayState::Control {
        g.step(Buttons::NONE);
    }
    for f in 0..frames {
        g.step(if left(f) {
            Buttons::LEFT
        } else {
            Buttons::NONE
        });
    }
    g.state().x
}

#[test]
fn das_only_keeps_auto_shift_and_stops_fast_taps() {
    let das_only = Variant {
        das_only: Some(nestris_core::DasOnly::default()),
        ..Variant::CARTRIDGE
    };
    // Held: auto-shift moves the piece exactly as on the cartridge.
    for frames in [1, 10, 17, 23, 29, 40] {
        assert_eq!(
            column_after(das_only, frames, |_| true),
            column_after(Variant::CARTRIDGE, frames, |_| true),
            "held {frames} frames"
        );
    }
    // Tapped at 15 Hz (pressed every 4th frame): the cartridge moves the piece at every
    // tap, DAS-only at the 1st and the 2nd (4 frames on), then not the 3rd (8 frames after
    // the first; 11 are needed).
    let tap = |f: usize| f % 4 == 0;
    assert_eq!(column_after(Variant::CARTRIDGE, 9, tap), 5 - 3);
    assert_eq!(column_after(das_only, 9, tap), 5 - 2);
    // A slow tap every 12 frames moves the piece every time under both.
    let slow = |f: usize| f % 12 == 0;
    assert_eq!(column_after(das_only, 25, slow), 5 - 3);
    assert_eq!(column_after(Variant::CARTRIDGE, 25, slow), 5 - 3);
}

#[test]
fn without_left_or_right_das_only_plays_the_cartridge_s_game() {
    let das_only = Variant {
        das_only: Some(nestris_core::DasOnly::default()),
        ..Variant::CARTRIDGE
    };
    let mut a = Game::new(with(das_only, 18));
    let mut b = Game::new(with(Variant::CARTRIDGE, 18));
    let pattern = [Buttons::DOWN, Buttons::A, Buttons::NONE, Buttons::B];
    for f in 0..3_000 {
        let buttons = pattern[(f / 7) % pattern.len()];
        a.step(buttons);
        b.step(buttons);
        let (mut sa, sb) = (a.snapshot(), b.snapshot());
        sa.variant = Variant::CARTRIDGE;
        assert_eq!(sa.encode(), sb.encode(), "frame {f}");
    }
}
