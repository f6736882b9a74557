//! Choosing a placement: the current piece and the preview, searched together.
//!
//! Every placement of the current piece is followed by every placement of the preview
//! piece on the field it leaves (at the level that field's line count gives, so a
//! level-up's faster gravity is seen), and the pair with the best evaluation decides the
//! current move. Only the current piece's move is kept: the next plan starts from the
//! real game, which by then also shows the piece after.

use crate::board::Board;
use crate::eval::{clear_value, Context, Features, Weights};
use crate::inputs::InputModel;
use crate::movegen::{MoveGen, Placement, Start};
use nestris_core::tables::{ORIENTATION_TYPE, SPAWN_TABLE};
use nestris_core::{bcd, Region};

/// Level and line count, to follow level-ups through a search.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Progress {
    /// Binary level.
    pub level: u8,
    /// BCD lines, low byte first, as the cartridge keeps them.
    pub lines: [u8; 2],
}

impl Progress {
    /// Lines and level after clearing `cleared` rows in an A-type game
    /// (`CARTRIDGE.md` 10: the BCD tens and hundreds digits read as hex vs. the level).
    pub fn after(mut self, cleared: u32) -> Progress {
        for _ in 0..cleared {
            bcd::increment_lines(&mut self.lines);
            if self.lines[0] & 0x0F == 0 {
                let g = ((self.lines[1] as u16) << 8 | self.lines[0] as u16) >> 4;
                if (self.level.wrapping_sub(g as u8) as i8) < 0 {
                    self.level = self.level.wrapping_add(1);
                }
            }
        }
        self
    }
}

/// Counters of the work done, for benchmarks and reports.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SearchStats {
    /// Placements generated (both plies).
    pub placements: u64,
    /// Fields evaluated.
    pub evaluated: u64,
}

/// The searcher and its reusable buffers.
#[derive(Clone, Debug)]
pub struct Search {
    /// Evaluation weights.
    pub weights: Weights,
    /// The player's hands.
    pub model: InputModel,
    /// The region whose gravity and DAS apply.
    pub region: Region,
    /// Expand only this many of the best current-piece placements (by a one-piece
    /// evaluation) to the preview; 0 expands all.
    pub beam: usize,
    /// Work counters since creation.
    pub stats: SearchStats,
    first: MoveGen,
    second: MoveGen,
    order: Vec<(f32, usize)>,
}

impl Search {
    /// A searcher for NTSC with these weights and input model.
    pub fn new(weights: Weights, model: InputModel) -> Search {
        Search {
            weights,
            model,
            region: Region::Ntsc,
            beam: 0,
            stats: SearchStats::default(),
            first: MoveGen::new(),
            second: MoveGen::new(),
            order: Vec::new(),
        }
    }

    /// The move generator holding the current piece's placements after [`Search::best`].
    pub fn movegen(&self) -> &MoveGen {
        &self.first
    }

    /// The best placement of the piece in `start`, with `next` (an orientation id) as
    /// the preview, or `None` if the piece has no placement (never in normal play).
    pub fn best(&mut self, start: &Start, next: u8, progress: Progress) -> Option<Placement> {
        self.first.generate(start, &self.model);
        let placements = self.first.placements();
        self.stats.placements += placements.len() as u64;
        if placements.is_empty() {
            return None;
        }
        let w = self.weights;
        let next_spawn = SPAWN_TABLE[ORIENTATION_TYPE[next as usize % 20] as usize];

        // One-piece values, to order (and optionally cut) the candidates.
        self.order.clear();
        for (i, p) in placements.iter().enumerate() {
            let mut b = start.board;
            let lines = b.place(p.o, p.x, p.y);
            let prog = progress.after(lines);
            let ctx = Context::new(self.region, prog.level, &self.model);
            let v = if p.tops_out {
                f32::NEG_INFINITY
            } else {
                clear_value(&w, lines) + Features::of(&b, &ctx).value(&w)
            };
            self.order.push((v, i));
        }
        self.stats.evaluated += placements.len() as u64;
        self.order
            .sort_unstable_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        let take = if self.beam == 0 {
            self.order.len()
        } else {
            self.beam.min(self.order.len())
        };

        let mut best = (f32::NEG_INFINITY, self.order[0].1);
        for k in 0..take {
            let (v1, i) = self.order[k];
            if v1 == f32::NEG_INFINITY {
                continue;
            }
            let p = self.first.placements()[i];
            let mut b = start.board;
            let lines = b.place(p.o, p.x, p.y);
            let prog = progress.after(lines);
            let v = clear_value(&w, lines) + self.second_ply(b, next_spawn, prog);
            if v > best.0 {
                best = (v, i);
            }
        }
        Some(self.first.placements()[best.1])
    }

    /// The best value the preview piece can reach on `board`.
    fn second_ply(&mut self, board: Board, piece: u8, prog: Progress) -> f32 {
        let start = Start::spawn(board, piece, prog.level, self.region);
        self.second.generate(&start, &self.model);
        let w = self.weights;
        let mut best = f32::NEG_INFINITY;
        let n = self.second.placements().len();
        self.stats.placements += n as u64;
        self.stats.evaluated += n as u64;
        for p in self.second.placements() {
            if p.tops_out {
                continue;
            }
            let mut b = board;
            let lines = b.place(p.o, p.x, p.y);
            let prog2 = prog.after(lines);
            let ctx = Context::new(self.region, prog2.level, &self.model);
            let v = clear_value(&w, lines) + Features::of(&b, &ctx).value(&w);
            if v > best {
                best = v;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_rises_at_130_lines_from_18() {
        let p = Progress {
            level: 18,
            lines: [0x26, 0x01],
        };
        assert_eq!(p.after(3).level, 18);
        assert_eq!(p.after(4).level, 19);
        assert_eq!(p.after(4).lines, [0x30, 0x01]);
    }

    #[test]
    fn takes_the_tetris_when_it_is_there() {
        let board = Board::from_text(&["#########.", "#########.", "#########.", "#########."]);
        let start = Start::spawn(board, 18, 18, Region::Ntsc);
        let mut s = Search::new(Weights::default(), InputModel::hz30());
        let p = s
            .best(
                &start,
                2,
                Progress {
                    level: 18,
                    lines: [0, 0],
                },
            )
            .unwrap();
        assert_eq!((p.o, p.x, p.y), (17, 9, 18));
    }
}
