//! The player: plans each piece on the real game and drives whole games frame by frame.

use crate::eval::Weights;
use crate::inputs::InputModel;
use crate::movegen::Start;
use crate::search::{Progress, Search};
use nestris_core::{bcd, Buttons, FrameEvents, Game, GameSetup};

/// An AI player: weights, input model and its search buffers.
#[derive(Clone, Debug)]
pub struct Ai {
    search: Search,
}

impl Ai {
    /// A player evaluating with `weights` whose hands follow `model`.
    pub fn new(weights: Weights, model: InputModel) -> Ai {
        Ai {
            search: Search::new(weights, model),
        }
    }

    /// The searcher, to change its settings or read its counters.
    pub fn search_mut(&mut self) -> &mut Search {
        &mut self.search
    }

    /// The searcher.
    pub fn search(&self) -> &Search {
        &self.search
    }

    /// The input model.
    pub fn model(&self) -> &InputModel {
        &self.search.model
    }

    /// The buttons for every frame from now until the current piece lands (the frame in
    /// which `playState` becomes 2 included). Empty when no piece is under control.
    pub fn plan(&mut self, game: &Game) -> Vec<Buttons> {
        let Some(start) = Start::from_game(game) else {
            return Vec::new();
        };
        let s = game.state();
        let progress = Progress {
            level: s.level,
            lines: s.lines,
        };
        self.search.region = s.region;
        match self.search.best(&start, s.next_piece, progress) {
            Some(p) => self.search.movegen().inputs(&p),
            None => Vec::new(),
        }
    }
}

/// How a game went.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Final score (the cartridge caps it at 999,999).
    pub score: u32,
    /// Lines cleared.
    pub lines: u32,
    /// Final level.
    pub level: u8,
    /// Pieces the player controlled.
    pub pieces: u32,
    /// Frames played.
    pub frames: u64,
    /// Clears by size: singles, doubles, triples, tetrises.
    pub clears: [u32; 4],
    /// Tetrises (also `clears[3]`).
    pub tetrises: u32,
    /// The game ended by a top-out (otherwise by the frame limit).
    pub topped_out: bool,
    /// The game after the last frame.
    pub game: Game,
    /// The buttons of every frame, a replay of the game from `Game::new(setup)`.
    pub inputs: Vec<Buttons>,
}

impl GameResult {
    /// Lines cleared by tetrises over all lines cleared (0 when none).
    pub fn tetris_rate(&self) -> f64 {
        if self.lines == 0 {
            0.0
        } else {
            (self.tetrises * 4) as f64 / self.lines as f64
        }
    }
}

/// Plays a game from `setup` with `ai` through [`Game::step`], one frame at a time,
/// until it tops out or `max_frames` frames have passed.
pub fn play_game(setup: GameSetup, ai: &mut Ai, max_frames: u64) -> GameResult {
    let mut game = Game::new(setup);
    let mut inputs = Vec::new();
    let mut plan: Vec<Buttons> = Vec::new();
    let mut at = 0;
    let mut need_plan = true;
    let mut pieces = 0;
    let mut clears = [0u32; 4];
    let mut topped_out = false;
    while (inputs.len() as u64) < max_frames {
        if need_plan && game.state().play_state == 1 {
            plan = ai.plan(&game);
            at = 0;
            need_plan = false;
            pieces += 1;
        }
        let b = plan.get(at).copied().unwrap_or(Buttons::NONE);
        at += 1;
        inputs.push(b);
        let ev = game.step(b);
        if ev.has(FrameEvents::LINES_CLEARED) {
            let n = ev.lines_cleared.clamp(1, 4) as usize;
            clears[n - 1] += 1;
        }
        if ev.has(FrameEvents::SPAWNED) {
            need_plan = true;
        }
        if ev.has(FrameEvents::TOPPED_OUT) {
            topped_out = true;
            break;
        }
    }
    let s = game.state();
    GameResult {
        score: bcd::score_value(s.score),
        lines: bcd::lines_value(s.lines),
        level: s.level,
        pieces,
        frames: inputs.len() as u64,
        clears,
        tetrises: clears[3],
        topped_out,
        game,
        inputs,
    }
}
