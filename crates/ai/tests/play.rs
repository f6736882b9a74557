//! Whole games: the player clears lines at level 18, and its input list is a replay.

use nestris_ai::{play_game, Ai, InputModel, Weights};
use nestris_core::{bcd, Buttons, Game, GameSetup};

#[test]
fn clears_lines_at_level_18_and_the_inputs_replay_the_game() {
    let mut setup = GameSetup::from_seed(3);
    setup.level = 18;
    let mut ai = Ai::new(Weights::default(), InputModel::hz30());
    let r = play_game(setup, &mut ai, 8_000);
    assert!(
        r.lines >= 10,
        "only {} lines in {} frames",
        r.lines,
        r.frames
    );
    assert!(r.pieces > 20);
    let mut g = Game::new(setup);
    for &b in &r.inputs {
        g.step(b);
    }
    assert_eq!(g, r.game);
    assert_eq!(bcd::lines_value(g.state().lines), r.lines);
}

#[test]
fn plays_at_15_hz_with_reaction_time() {
    let mut setup = GameSetup::from_seed(11);
    setup.level = 15;
    let model = InputModel {
        taps: nestris_ai::TapPattern::every(4),
        das: false,
        reaction: 6,
        soft_drop: true,
    };
    let mut ai = Ai::new(Weights::default(), model);
    let r = play_game(setup, &mut ai, 4_000);
    assert!(r.lines > 0, "no line in {} frames", r.frames);
}

/// A piece all of whose placements end the game (it spawned into the stack) still gets a
/// blind plan, at every depth and beam: the deeper weighings then have no candidate (blind
/// depth 5 panicked there, at the end of a game topping out at level 29).
#[test]
fn a_blind_plan_when_every_placement_tops_out() {
    let mut setup = GameSetup::from_seed(5);
    setup.level = 29;
    let mut game = Game::new(setup);
    while nestris_ai::Start::from_game(&game).is_none() {
        game.step(nestris_core::Buttons::NONE);
    }
    let mut s = game.snapshot();
    // Every cell of the field taken: the piece overlaps it wherever it is.
    s.playfield.0[..200].fill(0x7B);
    let game = Game::from_snapshot(s).unwrap();
    let mut ai = Ai::new(Weights::default(), InputModel::hz30());
    let start = nestris_ai::Start::from_game(&game).expect("the piece is under control");
    let mut mg = nestris_ai::MoveGen::new();
    assert!(mg
        .generate(&start, &InputModel::hz30())
        .iter()
        .all(|p| p.tops_out));
    for depth in [2, 3, 4, 5] {
        for beam in [0, 4] {
            let o = &mut ai.search_mut().options;
            (o.blind_depth_29, o.blind_beam_29) = (depth, beam);
            assert!(
                ai.search_mut().plan_blind(&game).is_some(),
                "depth {depth}, beam {beam}"
            );
        }
    }
    // And the plan made once the preview is seen, at every depth.
    for depth in [3, 4, 5] {
        ai.search_mut().options.depth = depth;
        assert!(
            ai.search_mut().plan_in_game(&game).is_some(),
            "depth {depth}"
        );
    }
}

/// The community's reaction model: the plan made at the spawn does not depend on the new
/// preview piece; the game goes on with adjustments made once it is seen, keeps the tap
/// interval across them, and its inputs replay it.
#[test]
fn with_reaction_the_first_plan_is_blind_to_the_preview() {
    let mut setup = GameSetup::from_seed(5);
    setup.level = 18;
    let game = Game::new(setup);
    let mut ai = Ai::new(Weights::default(), InputModel::hz30());
    let plan = |game: &Game, next: u8, ai: &mut Ai| {
        let mut s = game.snapshot();
        s.next_piece = next;
        let g = Game::from_snapshot(s).unwrap();
        ai.search_mut().plan_blind(&g).unwrap().inputs
    };
    // Every depth of the blind plan (to the preview, one piece past it, two), below level
    // 29 and from it (where `blind_depth_29` sets it).
    let mut setup29 = setup;
    setup29.level = 29;
    let game29 = Game::new(setup29);
    // From 29 also with a beam (`blind_beam_29`): a narrow one, and one as wide as the
    // plan's candidates, which plans as no beam does.
    for depth in [2, 3, 4, 5] {
        ai.search_mut().options.blind_depth = depth;
        ai.search_mut().options.blind_depth_29 = depth;
        for beam in [0, 2, 8] {
            ai.search_mut().options.blind_beam_29 = beam;
            for (g, level) in [(&game, 18), (&game29, 29)] {
                let first = plan(g, 2, &mut ai);
                for next in [7, 8, 10, 11, 14, 18] {
                    assert_eq!(
                        plan(g, next, &mut ai),
                        first,
                        "depth {depth}, beam {beam}, level {level}, preview {next}"
                    );
                }
                if beam == 8 {
                    ai.search_mut().options.blind_beam_29 = 0;
                    assert_eq!(plan(g, 2, &mut ai), first, "depth {depth}, level {level}");
                    ai.search_mut().options.blind_beam_29 = 8;
                }
            }
        }
    }
    ai.search_mut().options = nestris_ai::SearchOptions::default();

    ai.adjust_after = Some(18);
    let r = play_game(setup, &mut ai, 6_000);
    assert!(
        r.lines >= 10,
        "only {} lines in {} frames",
        r.lines,
        r.frames
    );
    let mut g = Game::new(setup);
    let mut last_press = None;
    for (f, &b) in r.inputs.iter().enumerate() {
        let pressed = b.bits() & !g.state().held;
        if pressed != 0 {
            if let Some(p) = last_press {
                assert!(f - p >= 2, "taps at frames {p} and {f}");
            }
            last_press = Some(f);
        }
        g.step(b);
    }
    assert_eq!(g, r.game);
}

/// Under BetaTetris's double killscreen every plan puts the piece where the search chose.
#[test]
fn under_double_killscreen_the_plans_land_where_planned() {
    use nestris_core::{GymSeed, PlayState, SeedRule, Variant};
    let mut setup = GameSetup::from_seed(9);
    setup.level = 39;
    setup.variant = Variant::betatetris(GymSeed::new(0x123456, SeedRule::V5));
    let mut game = Game::new(setup);
    let mut ai = Ai::new(Weights::default(), InputModel::hz30());
    let mut placed = 0;
    while placed < 30 && !game.is_over() {
        if game.state().phase() != PlayState::Control {
            game.step(nestris_core::Buttons::NONE);
            continue;
        }
        let plan = ai.plan_piece(&game).expect("a piece under control");
        let p = plan.placement;
        for (i, &b) in plan.inputs.iter().enumerate() {
            game.step(b);
            if i + 1 < plan.inputs.len() {
                assert_eq!(
                    game.state().phase(),
                    PlayState::Control,
                    "piece {placed} frame {i}"
                );
            }
        }
        let s = game.state();
        assert_eq!((s.piece, s.x, s.y), (p.o, p.x, p.y), "piece {placed}");
        placed += 1;
    }
    assert!(placed >= 10, "only {placed} pieces");
}

/// The AI's whole games keep to its tap pattern, the adjustment included: each piece's
/// taps follow the pattern from the plan's first frame, and the adjustment starts it again
/// at the first frame from F on where the pattern lets the plan's next tap come.
#[test]
fn a_game_taps_by_its_pattern_across_the_adjustment() {
    use nestris_ai::{TapClock, TapPattern};
    use nestris_core::{FrameEvents, PlayState};
    for (text, adjust) in [("X.X..", Some(18)), (".X..X.", Some(7)), ("X..X.", None)] {
        let taps = TapPattern::parse(text).unwrap();
        let mut setup = GameSetup::from_seed(5);
        setup.level = 18;
        let mut ai = Ai::new(Weights::default(), InputModel::with_taps(taps));
        ai.adjust_after = adjust;
        let r = play_game(setup, &mut ai, 6_000);
        assert!(r.lines > 0, "{text}: no line");
        let mut g = Game::new(setup);
        let (mut need_plan, mut adjusted) = (true, true);
        let (mut clock, mut since_spawn) = (TapClock::new(taps), 0u32);
        let (mut pieces, mut adjustments) = (0, 0);
        for (i, &b) in r.inputs.iter().enumerate() {
            let s = g.state();
            if need_plan && s.phase() == PlayState::Control {
                (need_plan, adjusted) = (false, adjust.is_none());
                (clock, since_spawn) = (TapClock::new(taps), 0);
                pieces += 1;
            } else if let Some(f) = adjust {
                if !adjusted
                    && since_spawn >= u32::from(f)
                    && clock.may_tap()
                    && s.phase() == PlayState::Control
                {
                    clock = TapClock::new(taps);
                    adjusted = true;
                    adjustments += 1;
                }
            }
            let pressed = b.bits() & !s.held != 0;
            assert!(
                !pressed || clock.may_tap(),
                "{text}: a tap at frame {i}, {since_spawn} frames into piece {pieces}"
            );
            clock.step(pressed);
            since_spawn += 1;
            if g.step(b).has(FrameEvents::SPAWNED) {
                need_plan = true;
            }
        }
        assert!(pieces > 10, "{text}: {pieces} pieces");
        if adjust.is_some() {
            assert!(adjustments > 10, "{text}: {adjustments} adjustments");
        }
    }
}

/// With the lookahead of the screen the search does not know the piece after the preview:
/// positions that differ only in the seed dealing that piece get the same plan, while the
/// generator's lookahead, which plays each candidate out and reads that piece, chooses by
/// it.
#[test]
fn the_screen_lookahead_is_blind_to_the_piece_after_the_preview() {
    use nestris_ai::{Lookahead, Placement};
    use nestris_core::position::{Piece, Position};
    use nestris_core::{GymSeed, PlayState, SeedRule, Variant};
    let mut position = Position {
        current: Piece::L,
        next: Piece::S,
        ..Position::default()
    };
    // A stack with a well at the right and a step in it, where the third piece matters.
    for (row, well) in [(19, 9), (18, 9), (17, 9), (16, 9), (15, 0), (14, 1)] {
        position.fill_row(row, well, 1);
    }
    for col in 4..8 {
        position.set(14, col, 0);
        position.set(15, col, 0);
    }
    let seeds: Vec<u32> = (0..40).map(|k| 0x10_0000 + 0x3_1337 * k).collect();
    let plans = |lookahead: Lookahead, depth: u8| -> Vec<(Placement, Vec<Buttons>, u8)> {
        let mut ai = Ai::new(Weights::default(), InputModel::hz30());
        ai.search_mut().options.lookahead = lookahead;
        ai.search_mut().options.depth = depth;
        seeds
            .iter()
            .map(|&seed| {
                let mut p = position;
                p.seed = GymSeed::new(seed, SeedRule::V5);
                let setup = GameSetup {
                    variant: Variant::betatetris(p.seed),
                    ..GameSetup::default()
                };
                let mut game = p.game(setup);
                while game.state().phase() != PlayState::Control {
                    game.step(Buttons::NONE);
                }
                let plan = ai.search_mut().plan_in_game(&game).unwrap();
                // The piece after the preview, as the generator deals it after this plan.
                let after = nestris_ai::search::play_out(&game, &plan.inputs).unwrap();
                (plan.placement, plan.inputs, after.state().next_piece)
            })
            .collect()
    };
    // With the plan weighing three pieces, four and five (the pieces after the preview
    // weighed).
    for depth in [3, 4, 5] {
        let screen = plans(Lookahead::Screen, depth);
        let thirds: std::collections::BTreeSet<u8> = screen.iter().map(|p| p.2).collect();
        assert!(thirds.len() >= 5, "the seeds deal only {thirds:?} third");
        for (k, p) in screen.iter().enumerate() {
            assert_eq!(
                (&p.0, &p.1),
                (&screen[0].0, &screen[0].1),
                "depth {depth}, seed {k}"
            );
        }
    }
    let generator = plans(Lookahead::Generator, 3);
    assert!(
        generator.iter().any(
            |p| (p.0.o, p.0.x, p.0.y) != (generator[0].0.o, generator[0].0.x, generator[0].0.y)
        ),
        "the generator's lookahead chose the same placement for every third piece"
    );
    // The known third piece followed by one or two weighed: a plan for every seed still.
    assert_eq!(plans(Lookahead::Generator, 4).len(), seeds.len());
    assert_eq!(plans(Lookahead::Generator, 5).len(), seeds.len());
}
