//! The move generator against the engine: every input sequence it returns, fed to
//! `Game::step` frame by frame, lands the piece exactly where it says and presses a
//! button only where the model's tap pattern allows (soundness), and every landing that
//! random inputs obeying the model reach is in its list (completeness). Boards are random garbage stacks built through a snapshot, and
//! real mid-game states taken from the cartridge conformance traces.

use nestris_ai::inputs::InputModel;
use nestris_ai::movegen::{MoveGen, Placement, Start};
use nestris_ai::{TapClock, TapPattern};
use nestris_core::{Buttons, CapAt, CapRule, Game, GameSetup, LineCap, Snapshot, Variant};
use proptest::prelude::*;
use std::path::Path;

const SPAWNS: [u8; 7] = [2, 7, 8, 10, 11, 14, 18];

/// Steps `inputs` on a copy of `game`; returns where the piece was in the frame its
/// play state became 2, or a description of what went wrong.
fn land(game: &Game, inputs: &[Buttons]) -> Result<(u8, u8, u8), String> {
    let mut g = game.clone();
    for (i, &b) in inputs.iter().enumerate() {
        if g.state().phase() != nestris_core::PlayState::Control {
            return Err(format!("piece no longer controlled before frame {i}"));
        }
        g.step(b);
        let s = g.state();
        if s.phase() == nestris_core::PlayState::Lock
            || s.phase() == nestris_core::PlayState::Curtain
        {
            if i + 1 != inputs.len() {
                return Err(format!("landed at frame {i} of {}", inputs.len()));
            }
            return Ok((s.piece, s.x, s.y));
        }
    }
    Err(format!(
        "not landed after {} frames: play_state {} at ({}, {}, {})",
        inputs.len(),
        g.state().play_state,
        g.state().piece,
        g.state().x,
        g.state().y
    ))
}

/// Checks every placement of `mg` (just generated from `game` under `model`).
fn check_all(game: &Game, model: &InputModel, mg: &MoveGen) -> Result<usize, String> {
    let ps: Vec<Placement> = mg.placements().to_vec();
    if ps.is_empty() {
        return Err("no placement".into());
    }
    for p in &ps {
        let inputs = mg.inputs(p);
        if inputs.len() != p.frames as usize {
            return Err(format!("{p:?}: {} inputs", inputs.len()));
        }
        let bits: Vec<u8> = inputs.iter().map(|b| b.bits()).collect();
        TapClock::check(model.taps, model.reaction, game.state().held, &bits).map_err(|f| {
            format!(
                "{p:?}: a press at frame {f} breaks {:?}: {inputs:?}",
                model.taps
            )
        })?;
        let got = land(game, &inputs).map_err(|e| format!("{p:?}: {e}: {inputs:?}"))?;
        if got != (p.o, p.x, p.y) {
            return Err(format!("{p:?} landed at {got:?} with {inputs:?}"));
        }
    }
    Ok(ps.len())
}

/// A tiny deterministic generator for the random input sequences.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 32) as u32
    }
    fn chance(&mut self, one_in: u32) -> bool {
        self.next() % one_in == 0
    }
}

/// Random buttons that obey `model` (see `nestris_ai::inputs`), until the piece lands.
fn random_landing(game: &Game, model: &InputModel, rng: &mut Rng) -> (u8, u8, u8) {
    let mut g = game.clone();
    let wait = model.reaction as u32 + model.taps.first() as u32;
    let mut clock = TapClock::new(model.taps);
    let mut tapped = false;
    // What stays held from the last tap frame during the frames after it.
    let mut hold = 0u8;
    let mut frame = 0u32;
    let rot_count = match nestris_core::tables::ORIENTATION_TYPE[g.state().piece as usize] {
        3 => 0,
        2 | 4 | 6 => 1,
        _ => 2,
    };
    loop {
        let prev = g.state().held;
        let mut b = 0u8;
        if frame < wait {
            // nothing
        } else if tapped && !clock.may_tap() {
            b = hold;
        } else {
            // Keep or release the holds.
            let mut base = prev & (if model.das { 0x07 } else { 0x04 });
            if base != 0 && rng.chance(3) {
                base = 0;
            }
            b = base;
            if rng.chance(2) {
                let mut tap = 0u8;
                if base & 0x07 == 0 {
                    tap |= [0, 0, 0x02, 0x01][(rng.next() % 4) as usize];
                }
                if rot_count > 0 && rng.chance(2) {
                    tap |= if rot_count == 2 && rng.chance(2) {
                        0x40
                    } else {
                        0x80
                    };
                }
                if model.soft_drop && tap & 0x03 == 0 && base & 0x07 == 0 && rng.chance(6) {
                    tap |= 0x04;
                }
                tap &= !prev;
                if tap != 0 {
                    b |= tap;
                    tapped = true;
                    hold = base | (tap & 0x04);
                    if model.das && tap & 0x03 != 0 && rng.chance(2) {
                        hold |= tap & 0x03;
                    }
                }
            }
        }
        if frame >= model.reaction as u32 {
            clock.step(b & !prev != 0);
        }
        g.step(Buttons(b));
        frame += 1;
        let s = g.state();
        if s.phase() != nestris_core::PlayState::Control {
            return (s.piece, s.x, s.y);
        }
        assert!(frame < 10_000, "piece never landed");
    }
}

/// A game at its first frame with the field, piece and counters replaced.
fn game_with(board: &[u8; 256], level: u8, piece: u8, arx: u8, first_piece: bool) -> Game {
    game_in(Variant::CARTRIDGE, board, level, piece, arx, first_piece)
}

/// [`game_with`] under `variant`'s rules.
fn game_in(
    variant: Variant,
    board: &[u8; 256],
    level: u8,
    piece: u8,
    arx: u8,
    first_piece: bool,
) -> Game {
    let mut snap: Snapshot = Game::new(GameSetup {
        level,
        variant,
        ..GameSetup::default()
    })
    .snapshot();
    snap.playfield.0 = *board;
    snap.piece = piece;
    snap.level = level;
    snap.autorepeat_x = arx;
    if !first_piece {
        snap.autorepeat_y = 0;
    }
    Game::from_snapshot(snap).expect("valid snapshot")
}

/// Random garbage: per column a height, with random holes below the surface.
fn garbage(heights: &[u8], hole_bits: &[u32], ghost: u8) -> [u8; 256] {
    let mut p = [0xEFu8; 256];
    for c in 0..10 {
        let h = heights[c] as usize;
        for k in 0..h {
            let r = 19 - k;
            let hole = k + 1 < h && hole_bits[c] & (1 << k) != 0;
            if !hole {
                p[r * 10 + c] = 0x7B;
            }
        }
    }
    if ghost < 10 {
        // A cell locked above the field (row -1) stays there and blocks.
        p[0xF6 + ghost as usize] = 0x7C;
    }
    p
}

/// Tap patterns: half fixed intervals of 2-5 frames, half arbitrary ones (one to four
/// gaps of 2-6 frames, the first tap 0-3 frames late), as their `X.` strings.
fn patterns() -> impl Strategy<Value = TapPattern> {
    prop_oneof![
        (2u8..=5).prop_map(TapPattern::every),
        (0usize..4, proptest::collection::vec(2usize..=6, 1..=4)).prop_map(|(first, gaps)| {
            let mut text = ".".repeat(first);
            for g in gaps {
                text.push('X');
                text.push_str(&".".repeat(g - 1));
            }
            TapPattern::parse(&text).expect("a valid pattern")
        }),
    ]
}

fn models() -> impl Strategy<Value = InputModel> {
    (patterns(), any::<bool>(), 0u8..6, any::<bool>()).prop_map(|(taps, das, reaction, sd)| {
        InputModel {
            taps,
            das,
            reaction,
            soft_drop: sd,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_sequence_lands_where_it_says(
        heights in proptest::collection::vec(0u8..16, 10),
        holes in proptest::collection::vec(any::<u32>(), 10),
        ghost in 0u8..40,
        level in 0u8..40,
        piece in 0usize..7,
        arx in 0u8..=16,
        first_piece in proptest::bool::weighted(0.1),
        model in models(),
        cap in 0usize..4,
    ) {
        let board = garbage(&heights, &holes, ghost);
        // Half the cases under a line cap in force from the start: TetrisGYM's killscreen
        // or double killscreen (its gravity, and its drop routine run three times).
        let variant = match cap {
            2 => capped(CapRule::Ks),
            3 => capped(CapRule::KsX2),
            _ => Variant::CARTRIDGE,
        };
        let game = game_in(variant, &board, level, SPAWNS[piece], arx, first_piece);
        let start = Start::from_game(&game).expect("piece under control");
        let mut mg = MoveGen::new();
        mg.generate(&start, &model);
        check_all(&game, &model, &mg).map_err(TestCaseError::fail)?;

        // The shortcut over waited states finds the same landings as the full search.
        let mut full = MoveGen::new();
        full.exhaustive = true;
        full.generate(&start, &model);
        let spots = |m: &MoveGen| {
            let mut v: Vec<(u8, u8, u8)> = m.placements().iter().map(|p| (p.o, p.x, p.y)).collect();
            v.sort_unstable();
            v
        };
        prop_assert_eq!(spots(&mg), spots(&full));

        // Completeness: random model-conforming inputs land on a listed placement.
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (level as u64) << 8 ^ piece as u64 ^ (heights[0] as u64) << 20);
        for _ in 0..12 {
            let got = random_landing(&game, &model, &mut rng);
            prop_assert!(
                mg.placements().iter().any(|p| (p.o, p.x, p.y) == got),
                "random inputs landed at {:?}, not generated", got
            );
        }
    }
}

/// A line cap of `rule` from level 0.
fn capped(rule: CapRule) -> Variant {
    Variant {
        seed: None,
        caps: [
            Some(LineCap {
                at: CapAt::Level(0),
                rule,
            }),
            None,
        ],
        ..Variant::CARTRIDGE
    }
}

#[test]
fn double_killscreen_placements_land_where_they_say() {
    let mut mg = MoveGen::new();
    for level in [18u8, 39] {
        for &piece in &SPAWNS {
            for first in [false, true] {
                let game = game_in(capped(CapRule::KsX2), &[0xEF; 256], level, piece, 0, first);
                let start = Start::from_game(&game).unwrap();
                assert!(start.rules.double);
                for model in [InputModel::hz30(), InputModel::tapping(4)] {
                    let n = mg.generate(&start, &model).len();
                    check_all(&game, &model, &mg)
                        .unwrap_or_else(|e| panic!("level {level} piece {piece}: {e}"));
                    assert!(n > 0);
                }
            }
        }
    }
    // At two rows a frame every piece lands in about half the frames.
    let slowest = |variant| {
        let game = game_in(variant, &[0xEF; 256], 39, 18, 0, false);
        let start = Start::from_game(&game).unwrap();
        let mut mg = MoveGen::new();
        mg.generate(&start, &InputModel::hz30());
        mg.placements().iter().map(|p| p.frames).max().unwrap()
    };
    assert_eq!(slowest(Variant::CARTRIDGE), 20);
    assert_eq!(slowest(capped(CapRule::KsX2)), 10);
}

#[test]
fn first_piece_hang_and_every_level_on_an_empty_field() {
    let mut mg = MoveGen::new();
    for level in [0u8, 8, 18, 19, 29, 39] {
        for &piece in &SPAWNS {
            for first in [false, true] {
                let game = game_with(&[0xEF; 256], level, piece, 0, first);
                let start = Start::from_game(&game).unwrap();
                for model in [
                    InputModel::hz30(),
                    InputModel::tapping(4),
                    InputModel {
                        taps: TapPattern::every(3),
                        das: true,
                        reaction: 3,
                        soft_drop: true,
                    },
                ] {
                    mg.generate(&start, &model);
                    check_all(&game, &model, &mg)
                        .unwrap_or_else(|e| panic!("level {level} piece {piece}: {e}"));
                }
            }
        }
    }
}

#[test]
fn a_tuck_under_a_roof_is_found() {
    // Columns 2-9 stacked 10 high, column 1 open, column 0 roofed at row 15: a vertical
    // I reaches rows 16-19 of column 0 only by shifting left after passing the roof.
    let mut p = [0xEFu8; 256];
    for r in 10..20 {
        for c in 2..10 {
            p[r * 10 + c] = 0x7B;
        }
    }
    p[150] = 0x7B;
    let game = game_with(&p, 18, 18, 0, false);
    let start = Start::from_game(&game).unwrap();
    let mut mg = MoveGen::new();
    mg.generate(&start, &InputModel::hz30());
    check_all(&game, &InputModel::hz30(), &mg).unwrap();
    assert!(mg
        .placements()
        .iter()
        .any(|p| (p.o, p.x, p.y) == (17, 0, 18)));
    // At 15 Hz the same tuck is still reachable (three frames on the floor row).
    mg.generate(&start, &InputModel::tapping(4));
    assert!(mg
        .placements()
        .iter()
        .any(|p| (p.o, p.x, p.y) == (17, 0, 18)));
}

/// Spawn states of the conformance traces: the generator is exact on real mid-game
/// fields, levels, DAS charges and held buttons.
#[test]
fn exact_on_conformance_trace_states() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("conformance folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".jsonl.gz"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let models = [
        InputModel::hz30(),
        InputModel {
            taps: TapPattern::every(3),
            das: true,
            reaction: 2,
            soft_drop: true,
        },
        InputModel::with_taps(TapPattern::parse("X.X..").unwrap()),
        InputModel {
            taps: TapPattern::parse(".X..X...").unwrap(),
            das: true,
            reaction: 0,
            soft_drop: true,
        },
    ];
    let mut mg = MoveGen::new();
    let mut states = 0;
    let mut placements = 0;
    for path in files {
        let trace = nestris_trace::load(&path).unwrap();
        let Ok(mut game) = nestris_trace::game_from_header(&trace.header) else {
            continue;
        };
        let mut checked_here = 0;
        let mut at_spawn = true;
        for (i, frame) in trace.frames.iter().enumerate() {
            if at_spawn && checked_here < 25 {
                if let Some(start) = Start::from_game(&game) {
                    let model = &models[(i + checked_here) % models.len()];
                    mg.generate(&start, model);
                    placements += check_all(&game, model, &mg)
                        .unwrap_or_else(|e| panic!("{} frame {i}: {e}", trace.name));
                    states += 1;
                    checked_here += 1;
                }
            }
            let ev = game.step(frame.input);
            at_spawn = ev.has(nestris_core::FrameEvents::SPAWNED);
        }
    }
    assert!(states > 100, "only {states} trace states checked");
    eprintln!("{states} trace states, {placements} placements replayed");
}
