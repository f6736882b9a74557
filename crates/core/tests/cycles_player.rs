//! The CPU cycles of the player update's piece work (`FrameEvents::cycles.player`):
//! `jsr branchOnPlayStatePlayer1` with the `playState` handler, and the two sprite stagings.
//!
//! Every figure below was measured on the cartridge in the recordings' emulator, from the
//! same state (the three routines' inclusive cycles, plus 6 for each `jsr`), unless its
//! comment says otherwise.

use nestris_core::{Buttons, Game, GameSetup, GameType, Playfield, Snapshot};

const BLOCK: u8 = 0x7B;

/// The state at game init's last wait with an empty field, the first piece (S, id 11) at
/// its spawn, the preview shown and the music slow; `edit` sets the case's variables.
fn state(game_type: GameType, edit: impl FnOnce(&mut Snapshot)) -> Game {
    let mut s = Game::new(GameSetup {
        game_type,
        level: 5,
        ..GameSetup::default()
    })
    .snapshot();
    s.playfield = Playfield::empty();
    s.allegro = 0;
    s.piece = 11;
    s.x = 5;
    s.y = 0;
    s.display_next_piece = 0;
    s.stats = [[0; 2]; 7];
    s.clears = [0; 4];
    // Cycles are counted only while the sub-frame timing is known, which a B-type game's
    // garbage frames lose; where the frame starts does not change the player update's cost.
    s.clock.known = true;
    edit(&mut s);
    Game::from_snapshot(s).unwrap()
}

fn player_cycles(mut game: Game, buttons: Buttons) -> u16 {
    game.step(buttons).cycles.player
}

fn fill_row(s: &mut Snapshot, row: usize, text: &str) {
    for (c, ch) in text.bytes().enumerate() {
        if ch == b'#' {
            s.playfield.0[row * 10 + c] = BLOCK;
        }
    }
}

/// The score frame (`playState` 5) at `level` with `cleared` rows and the score's bytes.
fn score_frame(level: u8, cleared: u8, score: [u8; 3], lines: [u8; 2]) -> u16 {
    player_cycles(
        state(GameType::A, |s| {
            s.play_state = 5;
            s.level = level;
            s.completed_lines = cleared;
            s.score = score;
            s.lines = lines;
        }),
        Buttons::NONE,
    )
}

#[test]
fn score_frame_low_levels() {
    assert_eq!(score_frame(0, 1, [0, 0, 0], [0x05, 0]), 1392);
    assert_eq!(score_frame(18, 4, [0, 0, 0], [0x85, 0x01]), 3025);
    // 128 → 130 lines at level 12: the tens digit passes the level, which goes up.
    assert_eq!(score_frame(12, 2, [0, 0, 0], [0x28, 0x01]), 2605);
}

#[test]
fn score_frame_soft_drop_points_with_carries() {
    let g = state(GameType::A, |s| {
        s.play_state = 5;
        s.level = 18;
        s.hold_down_points = 10;
        s.score = [0x95, 0x09, 0];
    });
    assert_eq!(player_cycles(g, Buttons::NONE), 2887);
}

#[test]
fn score_frame_high_levels() {
    // Level 140, a single: 141 passes of the score loop, each at the 999,999 cap or not.
    assert_eq!(score_frame(140, 1, [0x99; 3], [0x20, 0x0E]), 20485);
    assert_eq!(score_frame(140, 1, [0, 0, 0], [0x20, 0x0E]), 13673);
    // Level 255: 256 passes adding nothing.
    assert_eq!(score_frame(255, 0, [0, 0, 0], [0, 0]), 22492);
    // Level 255 at the cap: 125 cycles a pass (measured on 250 passes); the cartridge never
    // runs all 256 before the next frame interrupt, which rewrites the loop's counter.
    assert_eq!(score_frame(255, 4, [0x99; 3], [0x50, 0x19]), 33393);
}

#[test]
fn score_frame_b_type() {
    let g = state(GameType::B, |s| {
        s.play_state = 5;
        s.level = 5;
        s.completed_lines = 2;
        s.score = [0, 0, 0];
        s.lines = [0x10, 0];
        s.playfield = Playfield::empty();
    });
    assert_eq!(player_cycles(g, Buttons::NONE), 1815);
}

/// The spawn (`playState` 8) of a T, with the generator before the frame's own step.
fn spawn(rng: u16, spawn_id: u8) -> u16 {
    player_cycles(
        state(GameType::A, |s| {
            s.play_state = 8;
            s.vram_row = 0x20;
            s.next_piece = 2;
            s.rng = rng;
            s.spawn_count = 0;
            s.spawn_id = spawn_id;
        }),
        Buttons::NONE,
    )
}

#[test]
fn spawn_with_and_without_reroll() {
    assert_eq!(spawn(0x0628, 2), 1181);
    // The first choice repeats the last piece (Z): re-rolled.
    assert_eq!(spawn(0x0213, 8), 1276);
    // The first choice is index 7: re-rolled, and 18 + the roll takes three subtractions.
    assert_eq!(spawn(0x0C2C, 18), 1288);
}

#[test]
fn shifts() {
    // T at column 1 pressed left: the cell at column -1 stops the position check.
    let g = state(GameType::A, |s| {
        s.piece = 2;
        s.x = 1;
        s.y = 10;
        s.autorepeat_y = 0;
    });
    assert_eq!(player_cycles(g, Buttons::LEFT), 1316);
    let g = state(GameType::A, |s| {
        s.piece = 18;
        s.x = 4;
        s.y = 10;
        s.autorepeat_y = 0;
    });
    assert_eq!(player_cycles(g, Buttons::RIGHT), 1604);
}

#[test]
fn rotation_blocked_by_the_stack() {
    let g = state(GameType::A, |s| {
        s.piece = 18;
        s.y = 10;
        s.autorepeat_y = 0;
        fill_row(s, 9, "#########.");
    });
    assert_eq!(player_cycles(g, Buttons::B), 1403);
}

#[test]
fn top_out_lock() {
    let g = state(GameType::A, |s| {
        s.play_state = 2;
        s.piece = 10;
        fill_row(s, 0, "##########");
        fill_row(s, 1, "##########");
    });
    assert_eq!(player_cycles(g, Buttons::NONE), 1355);
}

#[test]
fn complete_row_shifts_the_field() {
    let g = state(GameType::A, |s| {
        s.play_state = 3;
        s.vram_row = 0x20;
        s.piece = 18;
        s.y = 19;
        s.line_index = 2;
        fill_row(s, 19, "##########");
    });
    assert_eq!(player_cycles(g, Buttons::NONE), 6714);
}

#[test]
fn curtain_covers_a_row() {
    let g = state(GameType::A, |s| {
        s.play_state = 10;
        s.curtain_row = 3;
        // The frame's interrupt makes it a multiple of 4.
        s.frame_counter = 0xFF;
    });
    assert_eq!(player_cycles(g, Buttons::NONE), 1291);
}

#[test]
fn preview_off_and_hidden_minos() {
    // No preview: 18 cycles instead of 412. The vertical I at row 0 has two minos above
    // the screen: `stageSpriteForCurrentPiece` skips their column reads, which cross a page
    // for this orientation.
    let shown = state(GameType::A, |s| {
        s.piece = 17;
        s.y = 5;
        s.autorepeat_y = 0;
    });
    let hidden = state(GameType::A, |s| {
        s.piece = 17;
        s.y = 0;
        s.autorepeat_y = 0;
        s.display_next_piece = 1;
    });
    assert_eq!(player_cycles(shown, Buttons::NONE), 1160);
    assert_eq!(player_cycles(hidden, Buttons::NONE), 764);
}
