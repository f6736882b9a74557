//! Golden pictures: game states built deterministically, drawn, and compared pixel for
//! pixel with the PNGs under `tests/golden/`.
//!
//! `NESTRIS_BLESS=1 cargo test -p nestris-render --test golden` rewrites the PNGs from
//! the current drawing instead of comparing; look at every changed picture before
//! committing it. A mismatch writes the drawn frame next to the build's temporary files
//! and names it in the failure.

use std::path::PathBuf;

use nestris_core::flow::EndingStep;
use nestris_core::tables::{HIDDEN, TILE_CURTAIN, TILE_EMPTY};
use nestris_core::{Buttons, FrameEvents, Game, GameSetup, GameType, Region, Resume};
use nestris_core::{GameMode, Screen};
use nestris_render::hud::{self, Tally};
use nestris_render::{decode_png, encode_png, Frame, HEIGHT};

// --- Harness -------------------------------------------------------------------------------

/// A game stepped through the screens under test, and the HUD's tally of its frames.
#[derive(Clone)]
struct Run {
    game: Game,
    tally: Tally,
}

impl Run {
    fn new(game: Game) -> Run {
        Run {
            game,
            tally: Tally::default(),
        }
    }

    fn step(&mut self, b: Buttons) -> FrameEvents {
        let ev = self.game.step(b);
        self.tally.observe(&ev, self.game.state());
        ev
    }

    /// Steps with no buttons until `done` holds (at most `limit` frames).
    fn until(&mut self, limit: usize, done: impl Fn(&Game) -> bool) {
        for _ in 0..limit {
            if done(&self.game) {
                return;
            }
            self.step(Buttons::NONE);
        }
        assert!(done(&self.game), "state not reached in {limit} frames");
    }

    /// Presses and releases `b`.
    fn tap(&mut self, b: Buttons) {
        self.step(b);
        self.step(Buttons::NONE);
    }

    fn frame(&self) -> Frame {
        let mut f = Frame::new();
        nestris_render::draw(&self.game, &mut f);
        f
    }
}

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.png"))
}

/// Compares `frame` with the golden picture `name`, or rewrites it when blessing.
fn check(name: &str, frame: &Frame) {
    let path = golden_path(name);
    if std::env::var_os("NESTRIS_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, encode_png(frame)).unwrap();
        eprintln!("blessed {}", path.display());
        return;
    }
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with NESTRIS_BLESS=1 to create it",
            path.display()
        )
    });
    let want = decode_png(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if want == *frame {
        return;
    }
    assert_eq!(
        (want.width(), want.height()),
        (frame.width(), frame.height()),
        "{name}: the picture's size"
    );
    let width = frame.width();
    let diffs: Vec<usize> = (0..frame.pixels.len())
        .filter(|&i| want.pixels[i] != frame.pixels[i])
        .collect();
    let i = diffs[0];
    let got = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.actual.png"));
    std::fs::write(&got, encode_png(frame)).unwrap();
    panic!(
        "{name}: {} pixels differ, first at ({}, {}): want {:06X}, got {:06X}; drawn frame in {}",
        diffs.len(),
        i % width,
        i / width,
        want.pixels[i],
        frame.pixels[i],
        got.display()
    );
}

// --- Building states ---------------------------------------------------------------------

/// Cells filled per column from the top: (column heights, holes under the tops).
fn shape(game: &Game) -> ([i32; 10], i32) {
    let p = &game.state().playfield;
    let mut heights = [0; 10];
    let mut holes = 0;
    for (col, h) in heights.iter_mut().enumerate() {
        let top = (0..20).find(|&row| p.cell(row, col) != TILE_EMPTY);
        if let Some(top) = top {
            *h = 20 - top as i32;
            holes += (top..20)
                .filter(|&row| p.cell(row, col) == TILE_EMPTY)
                .count() as i32;
        }
    }
    (heights, holes)
}

/// Moves the piece that just spawned: `turns` presses of A, then taps towards column
/// `x`, then Down held until it locks; then no buttons until the next piece spawns.
/// None if the piece cannot get there or the game ends.
fn place(run: &Run, turns: u8, x: u8) -> Option<Run> {
    let mut r = run.clone();
    for _ in 0..turns {
        r.tap(Buttons::A);
    }
    while r.game.state().x != x {
        let before = r.game.state().x;
        let dir = if before < x {
            Buttons::RIGHT
        } else {
            Buttons::LEFT
        };
        r.tap(dir);
        if r.game.state().phase() != nestris_core::PlayState::Control || r.game.state().x == before
        {
            return None;
        }
    }
    for _ in 0..200 {
        if r.game.state().phase() != nestris_core::PlayState::Control {
            break;
        }
        r.step(Buttons::DOWN);
    }
    for _ in 0..200 {
        let s = r.game.state();
        if s.phase() == nestris_core::PlayState::Control && s.piece != HIDDEN {
            return Some(r);
        }
        if matches!(
            s.phase(),
            nestris_core::PlayState::Ended | nestris_core::PlayState::Curtain
        ) {
            return None;
        }
        r.step(Buttons::NONE);
    }
    None
}

/// Plays `pieces` pieces with a small greedy player that stacks flat with column 9 kept
/// open, as a player waiting for a long bar does.
fn stack(mut run: Run, pieces: usize) -> Run {
    for _ in 0..pieces {
        let mut best: Option<(i32, Run)> = None;
        for turns in 0..4 {
            for x in 0..10 {
                let Some(r) = place(&run, turns, x) else {
                    continue;
                };
                let (h, holes) = shape(&r.game);
                let bumps: i32 = h[..9].windows(2).map(|w| (w[0] - w[1]).abs()).sum();
                // Squares, so that one tall column costs more than the same cells spread.
                let tall: i32 = h[..9].iter().map(|h| h * h).sum();
                let lines = i32::from(r.game.state().lines[0] != run.game.state().lines[0]);
                let score = -20 * holes - 3 * bumps - tall - 40 * h[9] - 60 * lines;
                let better = match &best {
                    Some((b, _)) => score > *b,
                    None => true,
                };
                if better {
                    best = Some((score, r));
                }
            }
        }
        run = best.expect("some placement works").1;
    }
    run
}

/// The mid-game board at level 7: 24 pieces stacked, the next one falling.
fn mid_game() -> Run {
    let game = Game::new(GameSetup {
        level: 7,
        ..GameSetup::from_seed(7)
    });
    let mut run = Run::new(game);
    run.until(10, |g| {
        g.state().phase() == nestris_core::PlayState::Control
    });
    let mut run = stack(run, 24);
    run.until(200, |g| g.state().y >= 5);
    run
}

/// From power-on to the level menu, pressing Start whenever a screen waits for it.
fn to_level_menu(setup_type_menu: impl Fn(&mut Run)) -> Run {
    let mut run = Run::new(Game::power_on(Region::Ntsc));
    let mut type_menu_done = false;
    for _ in 0..3000 {
        let s = run.game.state();
        match s.resume {
            Resume::LevelMenu if s.mode() == nestris_core::GameMode::LevelMenu => return run,
            Resume::TypeMenu if !type_menu_done => {
                setup_type_menu(&mut run);
                type_menu_done = true;
            }
            Resume::LegalWait | Resume::LegalSleep | Resume::Title | Resume::TypeMenu => {
                run.tap(Buttons::START)
            }
            _ => {
                run.step(Buttons::NONE);
            }
        }
    }
    panic!("the level menu was not reached");
}

/// Steps until a blinking cursor is in its shown phase.
fn cursor_visible(run: &mut Run) {
    run.until(8, |g| g.state().frame_counter & 3 != 0);
}

// --- The pictures --------------------------------------------------------------------------

#[test]
fn empty_board_level_0() {
    let mut run = Run::new(Game::new(GameSetup::default()));
    run.step(Buttons::NONE);
    check("play_empty_level0", &run.frame());
}

#[test]
fn mid_game_level_7() {
    let run = mid_game();
    let s = run.game.state();
    assert_eq!(s.level, 7);
    assert_eq!(s.phase(), nestris_core::PlayState::Control);
    check("play_midgame_level7", &run.frame());
    // This project's own level colours, the option.
    let mut f = Frame::new();
    nestris_render::draw_with(&run.game, &mut f, nestris_render::LevelColours::Nestris);
    check("play_midgame_level7_nestris_colours", &f);
    // The window's question over it, in the game's frame and lettering.
    let mut f = run.frame();
    nestris_render::draw_dialog(&mut f, &["QUIT THIS GAME?", "", "Y: QUIT   N: PLAY ON"]);
    check("play_quit_dialog", &f);
}

#[test]
fn hud_beside_a_game_in_progress() {
    let mut run = mid_game();
    // Right held long enough to charge the DAS, with B: lit on the controller.
    for _ in 0..12 {
        run.step(Buttons::RIGHT | Buttons::B);
    }
    let mut f = Frame::with_size(hud::WIDTH, HEIGHT);
    hud::draw(
        &run.game,
        &run.tally,
        &mut f,
        nestris_render::LevelColours::Classic,
    );
    check("hud_midgame_level7", &f);
}

/// The panel with every number it shows, at its widest: a level-18 game's clears,
/// a long drought, lag frames and a burst of taps, fed to the tally by hand.
#[test]
fn hud_with_every_number() {
    let mut run = Run::new(Game::new(GameSetup {
        level: 18,
        ..GameSetup::from_seed(7)
    }));
    // Past game init (which starts a tally over), the first piece falling.
    run.until(100, |g| g.state().y >= 2);
    let mut s = run.game.snapshot();
    let mut t = run.tally;
    let (mut lines, mut score) = (0u32, 0u32);
    let bcd = |n: u32| (((n / 10 % 10) << 4) | (n % 10)) as u8;
    for n in [4u8, 4, 1, 4, 2, 4, 4, 3, 4, 2, 1] {
        lines += u32::from(n);
        score += [0, 40, 100, 300, 1200][usize::from(n)] * 19;
        s.lines = [bcd(lines), bcd(lines / 100)];
        s.score = [bcd(score), bcd(score / 100), bcd(score / 10_000)];
        let ev = FrameEvents {
            flags: FrameEvents::LINES_CLEARED,
            lines_cleared: n,
            ..FrameEvents::default()
        };
        t.observe(&ev, &s);
    }
    for _ in 0..14 {
        nestris_core::bcd::increment_stat(&mut s.stats[3]);
        t.observe(&FrameEvents::default(), &s);
    }
    let lag = FrameEvents {
        flags: FrameEvents::LAG,
        ..FrameEvents::default()
    };
    for _ in 0..3 {
        t.observe(&lag, &s);
    }
    let spawned = FrameEvents {
        flags: FrameEvents::SPAWNED,
        ..FrameEvents::default()
    };
    t.observe(&spawned, &s);
    for f in 0..24 {
        s.pressed = if f % 4 == 3 { Buttons::LEFT.bits() } else { 0 };
        t.observe(&FrameEvents::default(), &s);
    }
    s.held = (Buttons::LEFT | Buttons::A | Buttons::START).bits();
    s.autorepeat_x = 12;
    let game = Game::from_snapshot(s).unwrap();
    let mut f = Frame::with_size(hud::WIDTH, HEIGHT);
    hud::draw(&game, &t, &mut f, nestris_render::LevelColours::Classic);
    check("hud_level18_every_number", &f);
}

#[test]
fn paused() {
    let mut run = mid_game();
    run.tap(Buttons::START);
    assert_eq!(run.game.state().resume, Resume::Paused);
    assert!(!run.game.state().play_screen_drawn());
    check("play_paused", &run.frame());
}

#[test]
fn line_clear_step_3() {
    let run = mid_game();
    // A long bar into the open column 9.
    let mut s = run.game.snapshot();
    s.piece = 17;
    s.x = 9;
    s.y = 2;
    let mut run = Run::new(Game::from_snapshot(s).unwrap());
    for _ in 0..100 {
        if run.game.state().phase() != nestris_core::PlayState::Control {
            break;
        }
        run.step(Buttons::DOWN);
    }
    run.until(100, |g| {
        g.state().phase() == nestris_core::PlayState::ClearAnimation && g.state().row_y == 3
    });
    let s = run.game.state();
    let rows = s.completed_row.iter().filter(|&&r| r != 0).count();
    assert!(rows >= 2, "the bar completes rows: {:?}", s.completed_row);
    check("play_line_clear_step3", &run.frame());
}

#[test]
fn curtain_half_down() {
    let mut run = mid_game();
    // No more steering: pieces pile up in the middle until the game ends.
    run.until(20_000, |g| {
        g.state().phase() == nestris_core::PlayState::Curtain
    });
    run.until(200, |g| g.state().curtain_row == 10);
    let s = run.game.state();
    assert_eq!(s.playfield.cell(9, 0), TILE_CURTAIN);
    assert_ne!(s.playfield.cell(10, 0), TILE_CURTAIN);
    check("play_curtain_half", &run.frame());
}

#[test]
fn b_type_success_banner() {
    let game = Game::new(GameSetup {
        game_type: GameType::B,
        level: 5,
        height: 2,
        ..GameSetup::from_seed(3)
    });
    let mut s = game.snapshot();
    // The goal check on the next frame finds 0 lines left.
    s.lines[0] = 0;
    s.play_state = 6;
    let mut run = Run::new(Game::from_snapshot(s).unwrap());
    run.until(10, |g| {
        g.state().resume == Resume::Ending(EndingStep::BannerSleep)
    });
    run.step(Buttons::NONE);
    check("play_b_type_banner", &run.frame());

    run.until(2000, |g| {
        let s = g.state();
        s.resume == Resume::Ending(EndingStep::WaitStart) && s.frame_counter & 0x10 != 0
    });
    check("ending_b_type", &run.frame());
}

#[test]
fn legal_screen() {
    let mut run = Run::new(Game::power_on(Region::Ntsc));
    run.until(100, |g| g.state().resume == Resume::LegalSleep);
    run.step(Buttons::NONE);
    assert_eq!(run.game.state().mode(), nestris_core::GameMode::Legal);
    check("legal", &run.frame());
}

#[test]
fn title_screen() {
    let mut run = Run::new(Game::power_on(Region::Ntsc));
    for _ in 0..600 {
        if run.game.state().resume == Resume::Title {
            break;
        }
        if matches!(
            run.game.state().resume,
            Resume::LegalWait | Resume::LegalSleep
        ) {
            run.tap(Buttons::START);
        } else {
            run.step(Buttons::NONE);
        }
    }
    run.step(Buttons::NONE);
    assert_eq!(run.game.state().mode(), nestris_core::GameMode::Title);
    check("title", &run.frame());
}

#[test]
fn game_type_menu() {
    let mut run = Run::new(Game::power_on(Region::Ntsc));
    for _ in 0..600 {
        let r = run.game.state().resume;
        if r == Resume::TypeMenu {
            break;
        }
        if matches!(r, Resume::LegalWait | Resume::LegalSleep | Resume::Title) {
            run.tap(Buttons::START);
        } else {
            run.step(Buttons::NONE);
        }
    }
    run.tap(Buttons::RIGHT);
    run.tap(Buttons::DOWN);
    run.tap(Buttons::DOWN);
    cursor_visible(&mut run);
    let s = run.game.state();
    assert_eq!(
        (s.mode(), s.game_type, s.music_type),
        (GameMode::TypeMenu, 1, 2)
    );
    check("menu_game_type", &run.frame());
}

#[test]
fn level_menu() {
    let mut run = to_level_menu(|r| r.tap(Buttons::START));
    // Down then two Rights: level 7.
    run.tap(Buttons::DOWN);
    run.tap(Buttons::RIGHT);
    run.tap(Buttons::RIGHT);
    cursor_visible(&mut run);
    let s = run.game.state();
    assert_eq!((s.screen(), s.start_level), (Screen::LevelMenu, 7));
    check("menu_level_a_type", &run.frame());
}

#[test]
fn a_seed_is_shown_on_the_level_menu_and_in_play() {
    let seed = nestris_core::GymSeed::new(0x1A2B3C, nestris_core::SeedRule::V5);
    let variant = nestris_core::Variant {
        seed,
        ..nestris_core::Variant::CARTRIDGE
    };
    let mut run = to_level_menu(|r| r.tap(Buttons::START));
    run.game.set_variant(variant);
    cursor_visible(&mut run);
    check("menu_level_seeded", &run.frame());
    let game = Game::new(GameSetup {
        level: 18,
        variant,
        ..GameSetup::default()
    });
    let mut run = Run::new(game);
    run.until(10, |g| {
        g.state().phase() == nestris_core::PlayState::Control
    });
    // Past the first piece's delay, falling.
    run.until(200, |g| g.state().y >= 6);
    check("play_seeded_level18", &run.frame());
}

/// Games under other rules than the cartridge's name them under the playfield: the
/// drought trainer, and BetaTetris's format on a seed (its seed box and its caps' caption).
#[test]
fn play_variants_are_labelled() {
    use nestris_core::trainer::Trainer;
    let mut run = Run::new(Trainer::Drought(7).game(Region::Ntsc, 18, 0));
    run.until(200, |g| g.state().y >= 4);
    check("play_drought_trainer", &run.frame());
    let seed = nestris_core::GymSeed::new(0x1A2B3C, nestris_core::SeedRule::V5);
    let game = Game::new(GameSetup {
        level: 18,
        variant: nestris_core::Variant::betatetris(seed),
        ..GameSetup::default()
    });
    let mut run = Run::new(game);
    run.until(200, |g| g.state().y >= 4);
    check("play_betatetris_seeded", &run.frame());
}

/// `docs/trainer.png`: the tetris-ready trainer at level 18, its first piece falling.
#[test]
fn the_trainer_picture_in_the_docs_is_what_the_code_draws() {
    use nestris_core::trainer::Trainer;
    let game = Trainer::TetrisReady.game(Region::Ntsc, 18, 0);
    let mut run = Run::new(game);
    run.until(200, |g| g.state().y >= 4);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/trainer.png");
    let frame = run.frame();
    if std::env::var_os("NESTRIS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, encode_png(&frame)).unwrap();
        return;
    }
    let want = decode_png(&std::fs::read(&path).expect("docs/trainer.png")).unwrap();
    assert!(want == frame, "docs/trainer.png is not what the code draws");
}

/// `docs/tap-test.png`: the tap-speed test after two pieces: a slow burst, then a burst to
/// the wall at about 15 taps a second, Left still held on its last tap.
#[test]
fn the_tap_test_picture_in_the_docs_is_what_the_code_draws() {
    use nestris_core::tap_test::TapTest;
    let mut t = TapTest::new(Region::Ntsc);
    // The first piece: tapped 14 frames after its spawn, four taps 6 frames apart.
    let script: [(u32, &[u32]); 2] = [(60, &[14, 20, 26, 32]), (30, &[12, 16, 20, 24, 28])];
    for (frames, taps) in script {
        for f in 0..frames {
            // Each tap held two frames, as fingers do.
            let held = taps.iter().any(|&t| f == t || f == t + 1);
            t.step(if held { Buttons::LEFT } else { Buttons::NONE });
        }
    }
    assert!(t.piece_shown(), "the second piece is out");
    let mut frame = Frame::new();
    nestris_render::tap_test::draw(&t, &mut frame);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/tap-test.png");
    if std::env::var_os("NESTRIS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, encode_png(&frame)).unwrap();
        return;
    }
    let want = decode_png(&std::fs::read(&path).expect("docs/tap-test.png")).unwrap();
    assert!(
        want == frame,
        "docs/tap-test.png is not what the code draws"
    );
}

#[test]
fn level_menu_b_type() {
    let mut run = to_level_menu(|r| {
        r.tap(Buttons::RIGHT);
        r.tap(Buttons::START);
    });
    run.tap(Buttons::RIGHT);
    run.tap(Buttons::A);
    run.tap(Buttons::RIGHT);
    run.tap(Buttons::RIGHT);
    run.tap(Buttons::DOWN);
    cursor_visible(&mut run);
    let s = run.game.state();
    assert_eq!(
        (s.game_type, s.start_level, s.selecting, s.start_height),
        (1, 1, 1, 5)
    );
    check("menu_level_b_type", &run.frame());
}

#[test]
fn name_entry() {
    let mut s = Game::new(GameSetup {
        level: 12,
        ..GameSetup::default()
    })
    .snapshot();
    s.score = [0x60, 0x45, 0x02];
    s.level = 14;
    s.play_state = 0;
    let mut run = Run::new(Game::from_snapshot(s).unwrap());
    run.until(20, |g| g.state().resume == Resume::NameEntry);
    for (i, target) in [14u8, 5, 19].into_iter().enumerate() {
        for _ in 0..400 {
            if run.game.state().flow.high_scores.names[0][i] == target {
                break;
            }
            run.step(Buttons::UP);
        }
        run.tap(Buttons::RIGHT);
    }
    cursor_visible(&mut run);
    let s = run.game.state();
    assert_eq!(s.screen(), Screen::NameEntry);
    assert_eq!(&s.flow.high_scores.names[0][..3], &[14, 5, 19]);
    assert_eq!(s.flow.entry_letter, 3);
    check("name_entry", &run.frame());
}

#[test]
fn a_type_ending_rocket() {
    let mut s = Game::new(GameSetup {
        level: 15,
        ..GameSetup::default()
    })
    .snapshot();
    s.score = [0x20, 0x31, 0x05];
    s.playfield.0[..200].fill(TILE_CURTAIN);
    s.curtain_row = 20;
    s.play_state = 10;
    s.piece = HIDDEN;
    let mut run = Run::new(Game::from_snapshot(s).unwrap());
    run.until(2000, |g| {
        let v = g.state().flow.ending_vars;
        g.state().screen() == nestris_core::Screen::Ending && v[1] == 0xF0 && v[0] <= 0xA0
    });
    check("ending_a_type", &run.frame());
    // The score box stays on top while the rocket flies out past it: the box looks the
    // same at every height the rocket reaches, and as it does once the rocket is gone.
    let at = |rise: u8| {
        let mut snap = run.game.snapshot();
        snap.flow.ending_vars[0] = rise;
        let mut f = Frame::new();
        nestris_render::draw(&Game::from_snapshot(snap).unwrap(), &mut f);
        let mut box_pixels = Vec::new();
        for y in 8..48 {
            for x in 56..200 {
                box_pixels.push(f.pixel(x, y));
            }
        }
        box_pixels
    };
    let gone = at(0);
    for rise in 1..=0xA0 {
        assert!(
            at(rise) == gone,
            "the rocket covers the score box at rise {rise}"
        );
    }
}

/// The versus setup screen, the AI chosen, the cursor on its tap rate.
#[test]
fn versus_setup() {
    use nestris_render::versus::{draw_setup, SetupRow, SetupScreen, VERSUS_WIDTH};
    let row = |label, value, active| SetupRow {
        label,
        value,
        active,
    };
    let rows = [
        row("OPPONENT", "AI", true),
        row("AI TAP RATE", "15 HZ", true),
        row("AI REACTION", "18 FRAMES", true),
        row("GHOST FILE", "2026-12-03-175600", false),
        row("LEVEL", "18", true),
        row("SEED", "00BEEF", true),
        row("BEST OF", "3", true),
        row("START", "", true),
    ];
    let mut f = Frame::with_size(VERSUS_WIDTH, HEIGHT);
    let screen = SetupScreen {
        rows: &rows,
        cursor: 1,
        notes: &[
            "UP DOWN: CHOOSE  LEFT RIGHT: CHANGE",
            "START: PLAY  B: LEAVE",
        ],
        dialog: None,
    };
    draw_setup(&screen, &mut f);
    check("versus_setup", &f);
    let dialog = ["SEED".to_string(), "00BEEF".into(), "  ^   ".into()];
    draw_setup(
        &SetupScreen {
            dialog: Some(&dialog),
            cursor: 5,
            ..screen
        },
        &mut f,
    );
    check("versus_setup_seed_entry", &f);
}
