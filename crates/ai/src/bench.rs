//! Fixed positions for benchmarks and tests: typical mid-game fields.
//!
//! The fields are written by hand in the shapes a right-well stacking game has at
//! level 18 (a clean stack with the well open, a bumpy one, one with holes, a high
//! one), so benchmark figures do not move when the evaluation changes.

use crate::board::Board;

/// Named mid-game fields, bottom-aligned.
pub fn sample_boards() -> Vec<(&'static str, Board)> {
    vec![
        ("empty", Board::empty()),
        (
            "clean",
            Board::from_text(&[
                "..........",
                "##.....#..",
                "###..####.",
                "#####.###.",
                "#########.",
                "#########.",
                "#########.",
            ]),
        ),
        (
            "bumpy",
            Board::from_text(&[
                "#.........",
                "#...#.....",
                "##..##..#.",
                "##.###.##.",
                "#######.#.",
                "#########.",
                "#########.",
                "#########.",
                "##.######.",
            ]),
        ),
        (
            "overhangs",
            Board::from_text(&[
                "..###.....",
                "..#...##..",
                "......##..",
                "##..#.#...",
                "###.####.#",
                "####.#####",
                "#.########",
            ]),
        ),
        (
            "high",
            Board::from_text(&[
                "...#......",
                "#..##.....",
                "##.###..#.",
                "######.##.",
                "#########.",
                "#########.",
                "#.#######.",
                "#########.",
                "########..",
                "#########.",
                "###.#####.",
                "#########.",
                "#########.",
            ]),
        ),
    ]
}
