//! The AI at the controls of a front end: it presses through the menus to a game at the
//! chosen level, plays it with the move search, and presses Start through the curtain,
//! the ending and the name entry, then plays the next game.

use nestris_ai::{Ai, InputModel, Weights};
use nestris_core::{Buttons, Game};

/// A pilot for the window or the terminal: the buttons for the next frame.
pub fn autopilot(
    level: u8,
    model: InputModel,
    weights: Weights,
) -> Box<dyn FnMut(&Game) -> Buttons> {
    let mut ai = Ai::new(weights, model);
    let mut plan: Vec<Buttons> = Vec::new();
    Box::new(move |game: &Game| {
        let s = game.state();
        if !s.in_game() {
            plan.clear();
            return nestris_core::quick::buttons(s, level);
        }
        if s.awaiting_start() {
            // A fresh press every other frame.
            return if s.held == 0 {
                Buttons::START
            } else {
                Buttons::NONE
            };
        }
        if plan.is_empty() && s.piece_in_control() {
            plan = ai.plan(game);
            plan.reverse();
        }
        plan.pop().unwrap_or(Buttons::NONE)
    })
}
