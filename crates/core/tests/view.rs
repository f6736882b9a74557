//! The view (`Snapshot::screen`, `shown_board`, the typed modes, `Game::is_over`): what a
//! front end draws, read from the state alone.

mod common;

use common::*;
use nestris_core::{
    Board, Buttons, FrameEvents, Game, GameMode, PlayState, Region, Screen, Snapshot,
};

/// A level-19 game whose vertical I, one row above its landing, completes rows 18 and 19
/// (row 19 is coloured differently, so a board that lost its colours would show).
fn about_to_clear() -> Snapshot {
    let mut s = playing(19, I_VERTICAL, 0, 16);
    fill_row(&mut s, 18, &[0]);
    fill_row(&mut s, 19, &[0]);
    for col in 1..10 {
        set(&mut s, 19, col, 0x7D);
    }
    set(&mut s, 17, 4, 0x7C); // falls into row 19 once the two rows are gone
    s.fall_timer = 100;
    s
}

#[test]
fn the_shown_board_keeps_the_cleared_rows_until_the_animation_blanks_them() {
    let start = about_to_clear();
    let mut g = game(start.clone());
    let mut seen = Vec::new();
    let mut redraw = Vec::new();
    let mut pre: Option<Board> = None;
    for _ in 0..120 {
        let ev = g.step(Buttons::NONE);
        let s = g.state();
        let shown = s.shown_board();
        match s.phase() {
            PlayState::RowCheck | PlayState::ClearAnimation => {
                let k = if s.phase() == PlayState::ClearAnimation {
                    usize::from(s.row_y)
                } else {
                    0
                };
                for row in [18, 19] {
                    for col in 0..10 {
                        let blank = (5 - k..5 + k).contains(&col);
                        let want = if blank {
                            EMPTY
                        } else if col == 0 {
                            I_TILE
                        } else if row == 19 {
                            0x7D
                        } else {
                            BLOCK
                        };
                        assert_eq!(shown.cell(row, col), want, "row {row} col {col} k {k}");
                    }
                }
                seen.push((s.play_state, s.row_y));
                pre.get_or_insert(shown);
            }
            // After the animation the redraw comes down from the top, four rows a frame:
            // below it the picture still has the blank rows and row 17's block.
            _ if s.play_state >= 5 && s.vram_row < 20 => {
                let from = usize::from(s.vram_row);
                let ram = Board::of(&s.playfield.0);
                for row in 0..20 {
                    for col in 0..10 {
                        let want = match row {
                            r if r < from => ram.cell(r, col),
                            18 | 19 => EMPTY,
                            r => pre.expect("the row check was seen").cell(r, col),
                        };
                        assert_eq!(
                            shown.cell(row, col),
                            want,
                            "row {row} col {col} from {from}"
                        );
                    }
                }
                redraw.push(s.vram_row);
            }
            _ => assert_eq!(shown, Board::of(&s.playfield.0), "{:?}", s.phase()),
        }
        if ev.has(FrameEvents::SPAWNED) {
            break;
        }
    }
    assert!(seen.contains(&(4, 4)), "{seen:?}");
    assert_eq!(redraw, [0, 4, 8, 12, 16], "the redraw, frame by frame");
    assert_eq!(
        pre.map(|b| b.cell(17, 4)),
        Some(0x7C),
        "row 17's block, before it fell"
    );
    // After it, the screen is RAM again: the block of row 17 sits in row 19.
    assert_eq!(g.state().shown_board().cell(19, 4), 0x7C);
    // What was kept for the picture goes at the next lock.
    for _ in 0..200 {
        if g.step(Buttons::DOWN).has(FrameEvents::LOCKED) {
            break;
        }
    }
    assert_eq!(g.state().cleared, nestris_core::view::Cleared::default());
}

/// The tile of the I piece.
const I_TILE: u8 = 0x7B;

#[test]
fn a_game_cloned_mid_clear_shows_what_the_original_shows() {
    let mut g = game(about_to_clear());
    // Into the animation, where RAM and the picture disagree the most.
    while g.state().phase() != PlayState::ClearAnimation || g.state().row_y < 2 {
        g.step(Buttons::NONE);
    }
    assert_ne!(
        g.state().shown_board(),
        Board::of(&g.state().playfield.0),
        "the picture is not RAM here"
    );
    let mut copy = g.clone();
    for _ in 0..40 {
        assert_eq!(copy.state().shown_board(), g.state().shown_board());
        g.step(Buttons::NONE);
        copy.step(Buttons::NONE);
    }
    // Through the save-state bytes as well (layout and timing block).
    let mut g = game(about_to_clear());
    while g.state().phase() != PlayState::ClearAnimation {
        g.step(Buttons::NONE);
    }
    let s = g.snapshot();
    let mut back = Snapshot::decode(&s.encode()).unwrap();
    back.decode_timing(&s.encode_timing()).unwrap();
    assert_eq!(back, s);
    assert_eq!(back.shown_board(), s.shown_board());
}

#[test]
fn an_older_timing_block_shows_the_ram_board_during_a_clear() {
    let mut g = game(about_to_clear());
    while g.state().phase() != PlayState::ClearAnimation {
        g.step(Buttons::NONE);
    }
    let s = g.snapshot();
    let mut block = s.encode_timing().to_vec();
    block.truncate(nestris_core::encode::timing_len(3).unwrap());
    block[0] = 3;
    let mut back = Snapshot::decode(&s.encode()).unwrap();
    back.decode_timing(&block).unwrap();
    // The rows removed are lost with such a block: RAM is what is left to show.
    assert_eq!(back.shown_board(), Board::of(&s.playfield.0));
    assert_ne!(s.shown_board(), back.shown_board());
    assert_eq!(
        Game::from_snapshot(back.clone()).unwrap().snapshot(),
        back,
        "valid"
    );
    // A block of no known version is refused.
    block[0] = 9;
    assert!(back.decode_timing(&block).is_err());
}

#[test]
fn modes_and_states_read_as_their_bytes() {
    for b in 0..=6 {
        assert_eq!(GameMode::from_byte(b).unwrap().byte(), b);
    }
    assert_eq!(GameMode::from_byte(7), None);
    for b in 0..=11 {
        assert_eq!(PlayState::from_byte(b).unwrap().byte(), b);
    }
    assert_eq!(PlayState::from_byte(12), None);
    use nestris_core::view::{high_score_base, name_char, type_name};
    let letters: String = [1, 26, 27, 36, 37, 42, 0, 43]
        .map(name_char)
        .iter()
        .collect();
    assert_eq!(letters, "AZ09-?  ");
    assert_eq!((type_name(0), type_name(1)), ("A-TYPE", "B-TYPE"));
    assert_eq!((high_score_base(0), high_score_base(1)), (0, 4));
    let s = playing(0, T, 5, 5);
    assert_eq!((s.mode(), s.phase()), (GameMode::Play, PlayState::Control));
    assert!(s.piece_in_control() && s.in_game() && !s.paused());
}

#[test]
fn the_screens_from_power_on_to_a_game() {
    let mut g = Game::power_on(Region::Ntsc);
    assert_eq!(g.state().screen(), Screen::Off, "the reset");
    let mut order = vec![Screen::Off];
    // Start on every screen that takes it, until the game's play screen is up.
    for f in 0..4000 {
        let press = f % 20 == 0 && g.state().mode() != GameMode::Legal;
        g.step(if press { Buttons::START } else { Buttons::NONE });
        let screen = g.state().screen();
        if order.last() != Some(&screen) {
            order.push(screen);
        }
        if screen == (Screen::Play { paused: false }) && g.state().in_game() {
            break;
        }
    }
    let shown: Vec<Screen> = order.into_iter().filter(|&s| s != Screen::Off).collect();
    assert_eq!(
        shown,
        [
            Screen::Legal,
            Screen::Title,
            Screen::TypeMenu,
            Screen::LevelMenu,
            Screen::Play { paused: false },
        ]
    );
    let s = g.state();
    assert!(
        !g.is_over(),
        "{:?} {:?} {:?}",
        s.phase(),
        s.resume,
        s.game_mode_state
    );
    // Start pauses it.
    for _ in 0..5 {
        g.step(Buttons::NONE);
    }
    g.step(Buttons::START);
    g.step(Buttons::NONE);
    assert!(g.state().paused());
    assert_eq!(g.state().screen(), Screen::Play { paused: true });
    assert_eq!(
        g.state().next_shown(),
        None,
        "the pause screen hides the preview"
    );
    // Every frame of a pause and the resume: paused() is the pause screen.
    let mut resumed = false;
    for f in 0..40 {
        g.step(if f == 20 {
            Buttons::START
        } else {
            Buttons::NONE
        });
        let s = g.state();
        assert_eq!(
            s.paused(),
            s.screen() == Screen::Play { paused: true },
            "{f}"
        );
        assert_eq!(s.next_shown().is_some(), !s.paused(), "{f}");
        resumed |= !s.paused();
    }
    assert!(resumed);
}

#[test]
fn a_top_out_is_the_end_of_the_game() {
    let mut s = playing(18, T, 5, 0);
    for row in 0..20 {
        fill_row(&mut s, row, &[row % 10]);
    }
    let mut g = game(s);
    assert!(!g.is_over());
    run_until(
        &mut g,
        10,
        |_| Buttons::NONE,
        |ev, _| ev.has(FrameEvents::TOPPED_OUT),
    );
    assert!(g.is_over() && g.state().topped_out());
    assert!(!g.state().awaiting_start());
    run_until(&mut g, 200, |_| Buttons::NONE, |_, s| s.curtain_down());
    assert!(g.state().awaiting_start());
}

#[test]
fn a_crash_that_takes_the_game_ends_it() {
    // Level 160: the score frame's interrupt breaks the dispatch into a halt.
    let mut g = capped_score_frame(160, nestris_core::CrashMode::Cartridge);
    for _ in 0..3 {
        g.step(Buttons::NONE);
    }
    assert!(g.halted() && g.is_over());
    let mut g = capped_score_frame(160, nestris_core::CrashMode::Show);
    for _ in 0..3 {
        g.step(Buttons::NONE);
    }
    assert!(g.crashed().is_some() && !g.is_over(), "shown and played on");
}

proptest::proptest! {
    /// From any page and any piece row, the screen shows the board as the row check found
    /// it, blanked by the animation: rows removed at row 0 (which moves the whole page)
    /// and at row 20 included.
    #[test]
    fn the_shown_board_is_the_board_the_row_check_found(
        page in proptest::collection::vec(proptest::sample::select(vec![EMPTY, 0x7B, 0x7C, 0x7D]), 256),
        full in proptest::collection::vec(proptest::bool::ANY, 21),
        y in 0u8..20,
    ) {
        let mut s = playing(18, T, 5, y);
        s.playfield.0.copy_from_slice(&page);
        for (row, &f) in full.iter().enumerate() {
            if f {
                s.playfield.0[row * 10..row * 10 + 10].fill(0x7B);
            }
        }
        s.piece = 19;
        s.play_state = 3;
        s.line_index = 0;
        s.completed_lines = 0;
        let found = s.playfield.clone();
        let mut g = game(s);
        for _ in 0..60 {
            g.step(Buttons::NONE);
            let s = g.state();
            if !matches!(s.phase(), PlayState::RowCheck | PlayState::ClearAnimation) {
                break;
            }
            if s.completed_lines == 0 {
                continue;
            }
            let mut want = Board::of(&found.0);
            if s.phase() == PlayState::ClearAnimation {
                let k = usize::from(s.row_y);
                for &r in s.completed_row.iter().filter(|&&r| r != 0 && r < 20) {
                    want.0[usize::from(r) * 10 + 5 - k..usize::from(r) * 10 + 5 + k].fill(EMPTY);
                }
            }
            proptest::prop_assert_eq!(s.shown_board(), want);
        }
    }
}
