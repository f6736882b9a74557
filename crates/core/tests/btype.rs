//! B-type (`CARTRIDGE.md` 10, 15, 17): lines start at 25 and count down in BCD
//! (clamped at 0), the level never changes, and the garbage is 0, 3, 5, 8, 10 or 12
//! rows high for heights 0..=5, each row with a hole, the top row's first cell empty.
//! The win itself (ending, bonus) is post-game flow and not tested here.

mod common;

use common::*;
use nestris_core::lfsr::lfsr_step;
use nestris_core::{Buttons, FrameEvents, Game, GameSetup, GameType, Snapshot};
use proptest::prelude::*;

const HEIGHT_ROWS: [usize; 6] = [0, 3, 5, 8, 10, 12];

fn b_setup(seed: u64, level: u8, height: u8) -> GameSetup {
    GameSetup {
        game_type: GameType::B,
        level,
        height,
        ..GameSetup::from_seed(seed)
    }
}

/// The board as it is once game init has finished (frame 0 does the height blanking).
fn board_after_init(setup: GameSetup) -> Snapshot {
    let mut g = Game::new(setup);
    g.step(Buttons::NONE);
    g.snapshot()
}

#[test]
fn lines_start_at_25() {
    let g = Game::new(b_setup(1, 5, 3));
    assert_eq!((g.state().lines, g.state().game_type), ([0x25, 0], 1));
}

#[test]
fn lines_count_down_in_bcd() {
    let mut s = b_type(playing(5, T, 5, 0));
    let mut seen = Vec::new();
    for count in [1, 4, 2, 3, 4, 1] {
        let g = clear_bottom_rows(s, count);
        seen.push(g.state().lines[0]);
        assert_eq!(g.state().level, 5, "the level never changes in B-type");
        s = g.snapshot();
    }
    // 25 -1 24 -4 20 -2 18 -3 15 -4 11 -1 10: $20 - 2 = $1E -> -6 = $18.
    assert_eq!(seen, [0x24, 0x20, 0x18, 0x15, 0x11, 0x10]);
}

#[test]
fn lines_clamp_at_zero() {
    for (start, count) in [(0x03u8, 4usize), (0x02, 2), (0x01, 4)] {
        let mut s = b_type(playing(5, T, 5, 0));
        s.lines = [start, 0];
        s.playfield = nestris_core::Playfield::empty();
        for row in 20 - count..20 {
            fill_row(&mut s, row, &[0]);
        }
        s.piece = I_VERTICAL;
        s.x = 0;
        s.y = 18;
        s.fall_timer = 100;
        let mut g = game(s);
        // Stop at the scoring frame: what follows (the win) is post-game flow.
        run_until(
            &mut g,
            100,
            |_| Buttons::NONE,
            |ev, _| ev.has(FrameEvents::LINES_CLEARED),
        );
        assert_eq!(g.state().lines[0], 0, "{start:02X} - {count}");
    }
}

#[test]
fn garbage_heights() {
    for height in 0..=5u8 {
        let rows = HEIGHT_ROWS[height as usize];
        let mut top_reached = false;
        for seed in 0..40 {
            let s = board_after_init(b_setup(seed, 0, height));
            for row in 0..20 - rows {
                assert_eq!(
                    row_picture(&s, row),
                    "..........",
                    "height {height}, seed {seed}, row {row} above the garbage"
                );
            }
            if rows > 0 {
                assert_eq!(s.playfield.cell(20 - rows, 0), EMPTY, "top row, column 0");
                top_reached |= row_picture(&s, 20 - rows) != "..........";
            }
            for row in 20 - rows..20 {
                assert!(
                    row_picture(&s, row).contains('.'),
                    "height {height}, seed {seed}: garbage row {row} has a hole"
                );
            }
            // Nothing beyond the visible field.
            assert!(s.playfield.0[200..].iter().all(|&t| t == EMPTY));
        }
        assert!(
            rows == 0 || top_reached,
            "height {height}: row {} never holds garbage",
            20 - rows
        );
    }
}

#[test]
fn garbage_follows_the_generator() {
    // Rebuild the 12 rows from the spec: per row, columns 9..=0 get T8[hi & 7], then the
    // generator steps until hi & 15 < 10 and that column is emptied; one more step for
    // the frame each row waits.
    const T8: [u8; 8] = [0xEF, 0x7B, 0xEF, 0x7C, 0x7D, 0x7D, 0xEF, 0xEF];
    for seed in 0..20 {
        let setup = b_setup(seed, 0, 5);
        // Game init's picks are the same in both types: its A-type twin shows the
        // generator as the garbage starts.
        let mut rng = Game::new(GameSetup {
            game_type: GameType::A,
            ..setup
        })
        .state()
        .rng;
        let mut page = [EMPTY; 200];
        for row in 8..20 {
            // The frame interrupt before this row.
            rng = lfsr_step(rng);
            for col in (0..10).rev() {
                rng = lfsr_step(rng);
                page[row * 10 + col] = T8[(rng >> 8) as usize & 7];
            }
            let hole = loop {
                rng = lfsr_step(rng);
                let v = (rng >> 8) as usize & 0x0F;
                if v < 10 {
                    break v;
                }
            };
            page[row * 10 + hole] = EMPTY;
        }
        // Height 5 empties bytes 0..=80: row 8 column 0 too.
        page[80] = EMPTY;
        let s = board_after_init(setup);
        assert_eq!(&s.playfield.0[..200], &page[..], "seed {seed}");
    }
}

proptest! {
    /// For any generator state the garbage never reaches above its height.
    #[test]
    fn garbage_stays_below_its_height(seed in any::<u64>(), height in 0u8..=5) {
        let s = board_after_init(b_setup(seed, 0, height));
        let top = 20 - HEIGHT_ROWS[height as usize];
        prop_assert!(s.playfield.0[..top * 10 + 1].iter().all(|&t| t == EMPTY));
        prop_assert!(s.playfield.0[..200].iter().all(|&t| [EMPTY, 0x7B, 0x7C, 0x7D].contains(&t)));
    }
}
