//! Whole games: the player clears lines at level 18, and its input list is a replay.

use nestris_ai::{play_game, Ai, InputModel, Weights};
use nestris_core::{bcd, Game, GameSetup};

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
        tap_interval: 4,
        das: false,
        reaction: 6,
        soft_drop: true,
    };
    let mut ai = Ai::new(Weights::default(), model);
    let r = play_game(setup, &mut ai, 4_000);
    assert!(r.lines > 0, "no line in {} frames", r.frames);
}
