//! Board setup and measuring helpers shared by the rule tests.
//!
//! Tests build positions by starting a real game, taking its snapshot, editing the
//! cartridge variables the rule depends on and rebuilding the game with
//! `Game::from_snapshot`. The expected values come from `CARTRIDGE.md`: the shape
//! table and the validity rule are written out here from its sections 6.1 and 20.1
//! rather than read from the engine's tables.

// Each test binary compiles this module and uses a different part of it.
#![allow(
    dead_code,
    reason = "shared by several test binaries, each using a subset"
)]

use nestris_core::{Buttons, CrashMode, FrameEvents, Game, GameSetup, GameType, Region, Snapshot};

/// The empty tile.
pub const EMPTY: u8 = 0xEF;
/// A block tile (the T/O/I tile), used for hand-built stacks.
pub const BLOCK: u8 = 0x7B;

/// Spawn orientation ids (`CARTRIDGE.md` 20.1).
pub const T: u8 = 2;
pub const J: u8 = 7;
pub const Z: u8 = 8;
pub const O: u8 = 10;
pub const S: u8 = 11;
pub const L: u8 = 14;
pub const I: u8 = 18;
/// The vertical I.
pub const I_VERTICAL: u8 = 17;
/// Spawn orientation per piece type T J Z O S L I.
pub const SPAWN: [u8; 7] = [T, J, Z, O, S, L, I];
/// Piece type names in the cartridge's order.
pub const NAMES: [&str; 7] = ["T", "J", "Z", "O", "S", "L", "I"];

/// The screen copy has reached the bottom (`vramRow` = $20), as in normal play.
pub const COPY_DONE: u8 = 0x20;

/// Cells (row offset, column offset) of orientations 0..=18, from `CARTRIDGE.md` 20.1.
pub const SPEC_CELLS: [[(i8, i8); 4]; 19] = [
    [(0, -1), (0, 0), (0, 1), (-1, 0)],
    [(-1, 0), (0, 0), (0, 1), (1, 0)],
    [(0, -1), (0, 0), (0, 1), (1, 0)],
    [(-1, 0), (0, -1), (0, 0), (1, 0)],
    [(-1, 0), (0, 0), (1, -1), (1, 0)],
    [(-1, -1), (0, -1), (0, 0), (0, 1)],
    [(-1, 0), (-1, 1), (0, 0), (1, 0)],
    [(0, -1), (0, 0), (0, 1), (1, 1)],
    [(0, -1), (0, 0), (1, 0), (1, 1)],
    [(-1, 1), (0, 0), (0, 1), (1, 0)],
    [(0, -1), (0, 0), (1, -1), (1, 0)],
    [(0, 0), (0, 1), (1, -1), (1, 0)],
    [(-1, 0), (0, 0), (0, 1), (1, 1)],
    [(-1, 0), (0, 0), (1, 0), (1, 1)],
    [(0, -1), (0, 0), (0, 1), (1, -1)],
    [(-1, -1), (-1, 0), (0, 0), (1, 0)],
    [(-1, 1), (0, -1), (0, 0), (0, 1)],
    [(-2, 0), (-1, 0), (0, 0), (1, 0)],
    [(0, -2), (0, -1), (0, 0), (0, 1)],
];

/// Locked tile of orientations 0..=18, from `CARTRIDGE.md` 20.1.
pub const SPEC_TILE: [u8; 19] = [
    0x7B, 0x7B, 0x7B, 0x7B, 0x7D, 0x7D, 0x7D, 0x7D, 0x7C, 0x7C, 0x7B, 0x7D, 0x7D, 0x7C, 0x7C, 0x7C,
    0x7C, 0x7B, 0x7B,
];

/// A-type setup at `level` with the power-on generator.
pub fn setup(region: Region, level: u8) -> GameSetup {
    GameSetup {
        region,
        level,
        ..GameSetup::default()
    }
}

/// The state just before frame 0 of a fresh NTSC A-type game at `level`.
pub fn fresh(level: u8) -> Snapshot {
    Game::new(setup(Region::Ntsc, level)).snapshot()
}

/// A game one frame in (game init finished, the main loop in its normal frame), so that
/// edits to the board are not undone by the rest of game init.
pub fn started(setup: GameSetup) -> Snapshot {
    let mut g = Game::new(setup);
    g.step(Buttons::NONE);
    g.snapshot()
}

/// A piece under control in the middle of a game: empty board, `piece` at (`x`, `y`),
/// first-piece countdown over, fall timer 0, screen copy done, no DAS charge.
pub fn playing_in(region: Region, level: u8, piece: u8, x: u8, y: u8) -> Snapshot {
    let mut s = started(setup(region, level));
    s.piece = piece;
    s.x = x;
    s.y = y;
    s.play_state = 1;
    s.autorepeat_x = 0;
    s.autorepeat_y = 0;
    s.hold_down_points = 0;
    s.fall_timer = 0;
    s.vram_row = COPY_DONE;
    s
}

/// [`playing_in`] on the NTSC cartridge.
pub fn playing(level: u8, piece: u8, x: u8, y: u8) -> Snapshot {
    playing_in(Region::Ntsc, level, piece, x, y)
}

/// The same game, B-type (lines 25 and no garbage unless the test adds some).
pub fn b_type(mut s: Snapshot) -> Snapshot {
    s.game_type = GameType::B as u8;
    s.lines = [0x25, 0];
    s
}

/// A state about to spawn `next` on the next frame (playState 8, screen copy done).
pub fn about_to_spawn(level: u8, next: u8) -> Snapshot {
    let mut s = playing(level, T, 5, 0);
    s.play_state = 8;
    s.next_piece = next;
    s
}

/// Rebuilds a game from an edited snapshot; the edit must leave it valid.
pub fn game(s: Snapshot) -> Game {
    Game::from_snapshot(s).expect("test snapshot is valid")
}

/// Sets one visible cell.
pub fn set(s: &mut Snapshot, row: usize, col: usize, tile: u8) {
    s.playfield.0[row * 10 + col] = tile;
}

/// Fills a visible row with blocks, leaving the listed columns empty.
pub fn fill_row(s: &mut Snapshot, row: usize, holes: &[usize]) {
    for col in 0..10 {
        let tile = if holes.contains(&col) { EMPTY } else { BLOCK };
        set(s, row, col, tile);
    }
}

/// Writes a picture of the bottom of the field: the last string is row 19.
/// `#` is a block, `.` empty.
pub fn stack(s: &mut Snapshot, rows: &[&str]) {
    let top = 20 - rows.len();
    for (i, line) in rows.iter().enumerate() {
        assert_eq!(line.len(), 10, "row picture {line:?} is not 10 wide");
        for (col, ch) in line.bytes().enumerate() {
            let tile = match ch {
                b'#' => BLOCK,
                b'.' => EMPTY,
                _ => panic!("bad cell {ch:?} in {line:?}"),
            };
            set(s, top + i, col, tile);
        }
    }
}

/// A visible row as a picture (`#` filled, `.` empty).
pub fn row_picture(s: &Snapshot, row: usize) -> String {
    s.playfield.0[row * 10..row * 10 + 10]
        .iter()
        .map(|&t| if t == EMPTY { '.' } else { '#' })
        .collect()
}

/// Is (piece, x, y) a valid position on `s`'s page, by `CARTRIDGE.md` 6.1:
/// rows -2..=19, the page byte (8-bit index) >= $EF, columns 0..=9.
pub fn spec_valid(s: &Snapshot, piece: u8, x: u8, y: u8) -> bool {
    SPEC_CELLS[piece as usize].iter().all(|&(dr, dc)| {
        let r = y as i32 + dr as i32;
        let c = x as i32 + dc as i32;
        let index = (y as i32 * 10 + x as i32 + dr as i32 * 10 + dc as i32).rem_euclid(256);
        (-2..=19).contains(&r) && s.playfield.0[index as usize] >= EMPTY && (0..=9).contains(&c)
    })
}

/// Steps `n` frames with the same buttons, returning each frame's events.
pub fn run(g: &mut Game, buttons: Buttons, n: usize) -> Vec<FrameEvents> {
    (0..n).map(|_| g.step(buttons)).collect()
}

/// Steps with `input(frame)` until `done(events, state)` holds, returning that frame's
/// index. Panics after `limit` frames.
pub fn run_until(
    g: &mut Game,
    limit: usize,
    mut input: impl FnMut(usize) -> Buttons,
    mut done: impl FnMut(&FrameEvents, &Snapshot) -> bool,
) -> usize {
    for frame in 0..limit {
        let ev = g.step(input(frame));
        if done(&ev, g.state()) {
            return frame;
        }
    }
    panic!("condition not reached within {limit} frames");
}

/// Steps `n` frames with `input(frame)` and lists the frames whose events have `flag`.
pub fn frames_with(
    g: &mut Game,
    n: usize,
    mut input: impl FnMut(usize) -> Buttons,
    flag: u32,
) -> Vec<usize> {
    (0..n)
        .filter(|&frame| g.step(input(frame)).has(flag))
        .collect()
}

/// A decimal number 0..=99 as the cartridge's BCD byte.
pub fn bcd(n: u32) -> u8 {
    assert!(n < 100);
    (((n / 10) << 4) | (n % 10)) as u8
}

/// The score (BCD, low byte first) as a number; panics on a non-decimal digit.
pub fn score(s: &Snapshot) -> u32 {
    s.score
        .iter()
        .rev()
        .fold(0, |acc, &b| acc * 100 + digits(b))
}

/// The line count (BCD low byte, hundreds byte) as a number.
pub fn lines(s: &Snapshot) -> u32 {
    digits(s.lines[1]) * 100 + digits(s.lines[0])
}

/// A score as the cartridge's three BCD bytes, low first.
pub fn score_bytes(n: u32) -> [u8; 3] {
    [bcd(n % 100), bcd(n / 100 % 100), bcd(n / 10_000)]
}

/// A line count as the cartridge's (low, hundreds) bytes.
pub fn lines_bytes(n: u32) -> [u8; 2] {
    [bcd(n % 100), (n / 100) as u8]
}

fn digits(b: u8) -> u32 {
    assert!(b >> 4 < 10 && b & 0x0F < 10, "${b:02X} is not BCD");
    (b >> 4) as u32 * 10 + (b & 0x0F) as u32
}

/// `N = ceil((20 - max(0, y - 2)) / 4)`: frames the screen copy needs after a landing at
/// row `y` (`CARTRIDGE.md` 7.5).
pub fn copy_frames(y: u8) -> usize {
    let m = (y as usize).saturating_sub(2);
    (20 - m).div_ceil(4)
}

/// Clears `count` (1..=4) rows at the bottom with a vertical I dropped into column 0 of
/// an otherwise empty board, keeping every counter of `s`, and runs until the next piece
/// spawns. Returns the game at that frame.
pub fn clear_bottom_rows(mut s: Snapshot, count: usize) -> Game {
    s.playfield = nestris_core::Playfield::empty();
    for row in 20 - count..20 {
        fill_row(&mut s, row, &[0]);
    }
    s.piece = I_VERTICAL;
    s.x = 0;
    s.y = 18;
    s.play_state = 1;
    s.autorepeat_y = 0;
    s.hold_down_points = 0;
    // Past every gravity value: the step down is tried (and fails) on the first frame.
    s.fall_timer = 100;
    s.vram_row = COPY_DONE;
    let mut g = game(s);
    run_until(
        &mut g,
        200,
        |_| Buttons::NONE,
        |ev, _| ev.has(FrameEvents::SPAWNED),
    );
    g
}

/// The score frame at `level` with the score capped ([`Game::capped_score_frame`]).
pub fn capped_score_frame(level: u8, crash_mode: CrashMode) -> Game {
    Game::capped_score_frame(level, crash_mode)
}
