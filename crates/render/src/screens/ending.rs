//! The endings: for A-type a rocket on a night launch pad that lifts off as the
//! engine's rocket height counts down; for B-type the SUCCESS plate with the bonus
//! count and the total.

use nestris_core::bcd::score_value;
use nestris_core::flow::EndingStep;
use nestris_core::{Resume, Snapshot};

use crate::font::{self, bcd_digits, digit};
use crate::frame::Frame;
use crate::layout::{self, CELL};
use crate::palette;
use crate::tiles;

/// Draws the ending of the game type.
pub(super) fn draw(f: &mut Frame, s: &Snapshot, colours: crate::palette::LevelColours) {
    if s.game_type == 0 {
        rocket(f, s);
    } else {
        success(f, s, colours);
    }
}

/// Where the stars are (pixels); the first ones are big, the rest single dots.
const STARS: [(i32, i32); 24] = [
    (30, 40),
    (200, 28),
    (70, 96),
    (228, 120),
    (160, 72),
    (18, 150),
    (12, 14),
    (52, 60),
    (88, 24),
    (110, 58),
    (140, 36),
    (176, 110),
    (214, 66),
    (244, 40),
    (36, 118),
    (60, 172),
    (96, 140),
    (196, 156),
    (236, 186),
    (150, 182),
    (8, 92),
    (124, 96),
    (188, 12),
    (84, 188),
];

/// The engine's starting rocket height for each ending (the rocket stands on the pad).
const LAUNCH_HEIGHT: [i32; 5] = [0xBF, 0xBF, 0xBF, 0xBF, 0xC7];

/// The top of the ground, in pixels.
const GROUND_Y: i32 = 26 * CELL;

/// The A-type ending.
fn rocket(f: &mut Frame, s: &Snapshot) {
    let night = palette::resolve(palette::NIGHT);
    for (i, &(x, y)) in STARS.iter().enumerate() {
        if i < 6 {
            tiles::STAR.draw(f, x - 1, y - 1, &night);
        } else if (i + usize::from(s.frame_counter >> 4)) % 7 != 0 {
            // A few dots take turns to fade, so the sky is not a still picture.
            f.set(x, y, night[2]);
        }
    }
    let ground = palette::resolve(palette::GROUND);
    for col in 0..32 {
        tiles::GROUND_TOP.draw_opaque(f, col * CELL, GROUND_Y, &ground);
        for row in 27..30 {
            tiles::GROUND.draw_opaque(f, col * CELL, row * CELL, &ground);
        }
    }

    let ending = usize::from(s.flow.ending.min(4));
    // The tower reaches the rocket's last section.
    let storeys = rocket_height(ending) / CELL - 3;
    for k in 0..storeys {
        tiles::TOWER.draw(f, 12 * CELL, GROUND_Y - (k + 1) * CELL, &ground);
    }
    // Until it has left the screen (its rise at 0), the rocket; then the score box over
    // it, so the score stays readable while the rocket flies out past it.
    if s.flow.ending_vars[0] != 0 {
        flight(f, s, ending, &ground);
    }
    score_box(f, s);
}

/// The rocket's drawing scale: every pixel doubled.
const K: i32 = 2;

/// Bigger scores earn longer rockets: one to three body sections.
fn rocket_sections(ending: usize) -> i32 {
    1 + ending as i32 / 2
}

/// The rocket's height in pixels, nose to tail.
fn rocket_height(ending: usize) -> i32 {
    K * 12 * (rocket_sections(ending) + 2)
}

/// The box with the game's score at the top of the A-type ending.
fn score_box(f: &mut Frame, s: &Snapshot) {
    layout::framed_box(f, 7, 1, 18, 5);
    let label = palette::rgb(palette::LABEL[1]);
    let white = palette::rgb(palette::WHITE);
    layout::text_centred(f, 64, 128, 2 * CELL + 4, "WELL PLAYED!", label);
    let score = format!(
        "SCORE {}",
        bcd_digits(&[s.score[2], s.score[1], s.score[0]])
    );
    layout::text_centred(f, 64, 128, 3 * CELL + 6, &score, white);
}

/// The rocket where the ending's rise puts it (on the pad until launched), with its
/// flame.
fn flight(f: &mut Frame, s: &Snapshot, ending: usize, ground: &palette::Colours) {
    let [rise, timer] = s.flow.ending_vars;
    let (sections, height) = (rocket_sections(ending), rocket_height(ending));
    // Map the engine's height (from the launch height down to 0) onto the screen so that
    // the rocket starts on the pad and has just left the top when it reaches 0.
    let start = LAUNCH_HEIGHT[ending];
    let base = -height + i32::from(rise).min(start) * (GROUND_Y + height) / start;
    let top = base - height;
    let x = 128 - 8 * K;
    if timer != 0xF0 {
        // Still on the pad: the tower's arm holds it.
        f.fill_rect(13 * CELL, top + 40, 14, 3, ground[3]);
    }
    let c = palette::resolve(palette::ROCKET);
    tiles::ROCKET_NOSE.draw_scaled(f, x, top, &c, K);
    for k in 0..sections {
        tiles::ROCKET_BODY.draw_scaled(f, x, top + K * 12 * (k + 1), &c, K);
    }
    tiles::ROCKET_TAIL.draw_scaled(f, x, base - K * 12, &c, K);
    let flame = palette::resolve(palette::FLAME);
    let launched = timer == 0xF0;
    if launched || (timer >= 0xD0 && s.frame_counter & 4 != 0) {
        let shape = usize::from(launched && s.frame_counter & 2 != 0);
        tiles::FLAME[shape].draw_scaled(f, x, base - 2 * K, &flame, K);
    }
}

/// The B-type ending.
fn success(f: &mut Frame, s: &Snapshot, colours: crate::palette::LevelColours) {
    layout::backdrop(f);
    layout::framed_box(f, 1, 3, 30, 11);
    super::title::spell(f, "SUCCESS", 6 * CELL, colours);

    layout::framed_box(f, 4, 15, 24, 12);
    let label = palette::rgb(palette::LABEL[1]);
    let white = palette::rgb(palette::WHITE);
    let v = &s.flow;
    // The score moves into the total when the count starts and back at the end: show
    // whichever holds it.
    let total = if score_value(v.total_score) >= score_value(s.score) {
        v.total_score
    } else {
        s.score
    };
    let rows: [(i32, &str, String); 5] = [
        (17, "LEVEL", digit(v.ending_level).to_string()),
        (18, "HEIGHT", digit(s.start_height).to_string()),
        (
            20,
            "LEVEL BONUS",
            format!("{}00", bcd_digits(&[v.level_bonus])),
        ),
        (
            21,
            "HEIGHT BONUS",
            format!("{}00", bcd_digits(&[v.height_bonus])),
        ),
        (23, "SCORE", bcd_digits(&[total[2], total[1], total[0]])),
    ];
    for (row, name, value) in &rows {
        font::draw_text(f, 6 * CELL, row * CELL, name, label);
        font::draw_text(
            f,
            26 * CELL - font::text_width(value),
            row * CELL,
            value,
            white,
        );
    }
    if s.resume == Resume::Ending(EndingStep::WaitStart) && s.frame_counter & 0x10 != 0 {
        layout::text_centred(f, 0, 256, 25 * CELL, "PUSH START", white);
    }
}
