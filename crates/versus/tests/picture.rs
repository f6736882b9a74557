//! The versus picture of `docs/versus.png`: a match at level 18 played by the AI on both
//! sides (30 Hz against 15 Hz tapping), drawn as the window draws it. The test fails if the
//! committed picture is not what the code draws (`NESTRIS_BLESS=1` rewrites it).

use std::path::PathBuf;

use nestris_ai::{Ai, InputModel, Weights};
use nestris_core::{Buttons, Game, Region};
use nestris_render::versus::{draw_versus, Scoreboard, VERSUS_WIDTH};
use nestris_render::{decode_png, encode_png_pixels, Frame, LevelColours, HEIGHT};
use nestris_versus::{Match, MatchSetup};

/// A player: the AI's plan for each piece, one frame at a time.
fn player(interval: u8) -> impl FnMut(&Game) -> Buttons {
    let mut ai = Ai::new(Weights::default(), InputModel::tapping(interval));
    let mut plan: Vec<Buttons> = Vec::new();
    move |g: &Game| {
        if plan.is_empty() && g.state().piece_in_control() {
            plan = ai.plan(g);
            plan.reverse();
        }
        plan.pop().unwrap_or(Buttons::NONE)
    }
}

fn picture() -> Vec<u32> {
    let setup = MatchSetup {
        region: Region::Ntsc,
        level: 18,
        seed: 0x2A11C5,
        best_of: 3,
    };
    let mut m = Match::new(setup);
    let mut p1 = player(2);
    let mut hold_down = false;
    // Game 1: player 2 tops out on purpose (holds Down), player 1 plays on and wins.
    while m.results.is_empty() {
        let b0 = if hold_down {
            Buttons::DOWN
        } else {
            p1(&m.sides[0].game)
        };
        let i0 = m.input_for(0, b0, false);
        m.apply(0, i0);
        let i1 = m.input_for(1, Buttons::DOWN, false);
        m.apply(1, i1);
        if m.sides[1].over() && m.sides[0].score() > m.sides[1].score() + 20_000 {
            // Player 1 is ahead: it ends its game too (by holding Down).
            hold_down = true;
        }
    }
    assert_eq!(m.wins, [1, 0]);
    let mut players = [player(2), player(4)];
    // Game 2, some 2,000 frames in.
    for _ in 0..2_000 {
        for (p, play) in players.iter_mut().enumerate() {
            let b = play(&m.sides[p].game);
            let i = m.input_for(p, b, true);
            m.apply(p, i);
        }
    }
    assert_eq!(m.sides[0].game_no, 1);
    let board = Scoreboard {
        best_of: setup.best_of,
        wins: m.wins,
        game: m.sides[0].game_no,
        tetris_rates: [
            m.sides[0].stats.tetris_rate(),
            m.sides[1].stats.tetris_rate(),
        ],
        seed: Some(setup.seed_of(m.sides[0].game_no)),
        names: ["PLAYER 1", "PLAYER 2"],
        message: None,
    };
    let mut out = vec![0; VERSUS_WIDTH * HEIGHT];
    let mut scratch = Frame::new();
    let games = [&m.sides[0].game, &m.sides[1].game];
    draw_versus(games, &board, LevelColours::Classic, &mut scratch, &mut out);
    out
}

#[test]
fn the_versus_picture_in_the_docs_is_what_the_code_draws() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/versus.png");
    let got = picture();
    if std::env::var_os("NESTRIS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, encode_png_pixels(&got, VERSUS_WIDTH, HEIGHT)).unwrap();
        return;
    }
    let bytes = std::fs::read(&path).expect("docs/versus.png (NESTRIS_BLESS=1 writes it)");
    let want = decode_png(&bytes).expect("a PNG");
    assert_eq!(
        (want.width(), want.height()),
        (VERSUS_WIDTH, HEIGHT),
        "the picture's size"
    );
    let differ = want.pixels.iter().zip(&got).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "{differ} pixels differ from docs/versus.png");
}
