//! Records the project's own demo: the AI plays the game the title screen's demo starts,
//! and the pieces it was dealt and the buttons it pressed become the demo's two tables.
//!
//! `cargo run --release -p nestris-ai --example record_demo > crates/core/src/builtin_demo.rs`
//!
//! The game is the demo's own: the console is switched on and left alone until the title
//! starts the demo; at the demo's first frame the state is turned into an ordinary game
//! (random pieces), which the AI plays. Played back as the demo, the same pieces (from the
//! piece table) and the same buttons (from the button table) give the same game.

use nestris_ai::{Ai, InputModel, Weights};
use nestris_core::{Buttons, DemoRecorder, FrameEvents, Game, Region, DEMO_BUTTON_BYTES};

fn main() {
    // Power on and wait for the demo's game to be set up (gameModeState 1 in gameMode 5).
    let mut console = Game::power_on(Region::Ntsc);
    while !(console.state().mode() == nestris_core::GameMode::Demo
        && console.state().game_mode_state == 1)
    {
        console.step(Buttons::NONE);
    }
    let mut s = console.snapshot();
    s.game_mode = 4;
    let mut game = Game::from_snapshot(s).expect("a valid state");
    // A relaxed, human-looking player: 12 taps a second and a little reaction time.
    let model = InputModel {
        taps: nestris_ai::TapPattern::every(5),
        das: false,
        reaction: 8,
        soft_drop: false,
    };
    let mut ai = Ai::new(Weights::default(), model);
    let mut pieces = vec![game.state().piece, game.state().next_piece];
    let mut recorder = DemoRecorder::new();
    let mut plan: Vec<Buttons> = Vec::new();
    let mut frames = 0usize;
    // The first frame runs the rest of game init; plans start once a piece is controlled.
    loop {
        if plan.is_empty()
            && game.state().phase() == nestris_core::PlayState::Control
            && game.state().game_mode_state == 2
        {
            plan = natural(&game, ai.plan(&game));
            plan.reverse();
        }
        let b = plan.pop().unwrap_or(Buttons::NONE);
        if !recorder.push(b) {
            break;
        }
        frames += 1;
        let ev = game.step(b);
        if ev.has(FrameEvents::SPAWNED) {
            pieces.push(game.state().next_piece);
        }
        if ev.has(FrameEvents::TOPPED_OUT) || pieces.len() >= 256 {
            break;
        }
    }
    let buttons = recorder.button_table();
    let type_of = |o: u8| nestris_core::tables::ORIENTATION_TYPE[o as usize % 20];
    let mut piece_table = [0u8; 256];
    for (i, p) in pieces.iter().take(256).enumerate() {
        piece_table[i] = type_of(*p) << 4;
    }
    eprintln!(
        "{frames} frames, {} pieces, {} pairs",
        pieces.len(),
        recorder.len()
    );
    println!("//! The project's own demo tables (not the cartridge's), recorded by");
    println!(
        "//! `crates/ai/examples/record_demo.rs`: the AI playing the game the title's demo starts."
    );
    println!("//! Regenerate with that example; `demo::tests` checks that the demo clears lines.");
    println!();
    println!("use crate::demo::{{DemoData, DEMO_BUTTON_BYTES}};");
    println!();
    println!("/// (buttons, frames - 1) pairs.");
    print_table(
        "BUTTONS",
        "DEMO_BUTTON_BYTES",
        &buttons[..DEMO_BUTTON_BYTES],
    );
    println!();
    println!("/// Piece types (T J Z O S L I = 0..6) in bits 4-6.");
    print_table("PIECES", "256", &piece_table);
    println!();
    println!("/// The built-in demo.");
    println!("pub(crate) const BUILTIN_DEMO: DemoData = DemoData {{ buttons: BUTTONS, pieces: PIECES }};");
}

/// Where a plan puts the piece: (orientation, x, y) on the frame it lands.
fn landing(game: &Game, plan: &[Buttons]) -> Option<(u8, u8, u8)> {
    let mut g = game.clone();
    for &b in plan {
        g.step(b);
        if g.state().phase() == nestris_core::PlayState::Lock {
            let s = g.state();
            return Some((s.piece, s.x, s.y));
        }
    }
    None
}

/// The AI's placement reached the way a person would: rotate and shift at once (a tap
/// every other frame), then hold Down. Falls back to the AI's own inputs when that path
/// does not land in the same place (tucks and spins).
fn natural(game: &Game, ai_plan: Vec<Buttons>) -> Vec<Buttons> {
    let Some(target) = landing(game, &ai_plan) else {
        eprintln!("ai plan does not land ({} frames)", ai_plan.len());
        return ai_plan;
    };
    let s = game.state();
    let mut taps = Vec::new();
    let mut o = s.piece;
    let mut turns = 0;
    while o != target.0 && turns < 4 {
        o = nestris_core::tables::ROTATE_A[o as usize % 19];
        turns += 1;
    }
    if o != target.0 {
        return ai_plan;
    }
    let rotations: Vec<Buttons> = match turns {
        3 => vec![Buttons::B],
        n => vec![Buttons::A; n],
    };
    let shifts = if target.1 >= s.x {
        vec![Buttons::RIGHT; (target.1 - s.x) as usize]
    } else {
        vec![Buttons::LEFT; (s.x - target.1) as usize]
    };
    // Rotate together with the first shifts, then the remaining shifts.
    for i in 0..rotations.len().max(shifts.len()) {
        let mut b = Buttons::NONE;
        if let Some(r) = rotations.get(i) {
            b |= *r;
        }
        if let Some(m) = shifts.get(i) {
            b |= *m;
        }
        taps.push(b);
        taps.push(Buttons::NONE);
    }
    let mut plan = taps;
    plan.extend(std::iter::repeat_n(Buttons::DOWN, 80));
    match landing(game, &plan) {
        Some(l) if l == target => {
            // Keep only the frames up to the landing.
            let mut g = game.clone();
            let mut used = Vec::new();
            for &b in &plan {
                g.step(b);
                used.push(b);
                if g.state().phase() == nestris_core::PlayState::Lock {
                    break;
                }
            }
            used
        }
        other => {
            eprintln!("natural path lands at {other:?}, not {target:?}");
            ai_plan
        }
    }
}

fn print_table(name: &str, len: &str, bytes: &[u8]) {
    println!("const {name}: [u8; {len}] = [");
    for chunk in bytes.chunks(16) {
        let row: Vec<String> = chunk.iter().map(|b| format!("0x{b:02X}")).collect();
        println!("    {},", row.join(", "));
    }
    println!("];");
}
