//! The engine's state in the trace's vocabulary, and the engine's state from a header.

use crate::load::{Header, TraceError};
use nestris_core::bcd::{bcd_value, lines_value, score_value};
use nestris_core::{Game, Playfield, Region, Resume, Snapshot};
use serde_json::{json, Map, Value};

/// The engine's state as a trace line would record it (same keys, same encodings).
pub type Observation = Map<String, Value>;

/// The trace's playfield characters for a tile.
fn tile_char(t: u8) -> char {
    match t {
        0xEF => '.',
        0x7B => '1',
        0x7C => '2',
        0x7D => '3',
        _ => '#',
    }
}

/// Every field a trace line records, computed from the engine.
pub fn observe(game: &Game) -> Observation {
    let s = game.state();
    let mut m = Map::new();
    let mut put = |k: &str, v: Value| {
        m.insert(k.to_string(), v);
    };
    put("nmi", json!(!s.flow.nmi_off_this_frame));
    if game.halted() {
        // The recordings' name for a halted CPU.
        put("crash", json!("jam"));
    }
    put("gameMode", json!(s.game_mode));
    put("gameModeState", json!(s.game_mode_state));
    put("playState", json!(s.play_state));
    put("x", json!(s.x));
    put("y", json!(s.y));
    put("piece", json!(s.piece));
    put("next", json!(s.next_piece));
    put("level", json!(s.level));
    put("lines", json!(lines_value(s.lines)));
    put(
        "lines_bcd",
        json!(format!("{:02X}{:02X}", s.lines[1], s.lines[0])),
    );
    put("score", json!(score_value(s.score)));
    put(
        "score_bcd",
        json!(format!(
            "{:02X}{:02X}{:02X}",
            s.score[2], s.score[1], s.score[0]
        )),
    );
    put("fallTimer", json!(s.fall_timer));
    put("autorepeatX", json!(s.autorepeat_x));
    put("autorepeatY", json!(s.autorepeat_y));
    put("holdDownPoints", json!(s.hold_down_points));
    put("vramRow", json!(s.vram_row));
    put("completedLines", json!(s.completed_lines));
    put("completedRow", json!(s.completed_row));
    put("lineIndex", json!(s.line_index));
    put("rowY", json!(s.row_y));
    put("curtainRow", json!(s.curtain_row));
    put("rng", json!(s.rng));
    put("spawnID", json!(s.spawn_id));
    put("spawnCount", json!(s.spawn_count));
    put("frameCounter", json!(s.frame_counter));
    put("held", json!(s.held));
    put("pressed", json!(s.pressed));
    put("renderMode", json!(s.render_mode));
    put("showNext", json!(s.display_next_piece));
    put("gameType", json!(s.game_type));
    put("musicType", json!(s.music_type));
    put("startLevel", json!(s.start_level));
    put("startHeight", json!(s.start_height));
    put("selecting", json!(s.selecting));
    put(
        "stats",
        json!(s
            .stats
            .iter()
            .map(|c| bcd_value(c[1]) * 100 + bcd_value(c[0]))
            .collect::<Vec<_>>()),
    );
    put(
        "clears",
        json!(s.clears.iter().map(|c| bcd_value(*c)).collect::<Vec<_>>()),
    );
    let pf: Vec<String> = s
        .playfield
        .rows()
        .map(|r| r.iter().map(|t| tile_char(*t)).collect())
        .collect();
    put("pf", json!(pf));
    let off: Map<String, Value> = s
        .playfield
        .off_field()
        .map(|(i, t)| (format!("{:X}", 0x400 + i), json!(t)))
        .collect();
    if !off.is_empty() {
        put("offfield", Value::Object(off));
    }
    m
}

/// Builds the engine's state from a game trace's header (its `start` and `ram`).
pub fn game_from_header(header: &Header) -> Result<Game, TraceError> {
    let bad = |m: String| TraceError::Header(m);
    let start = header
        .start()
        .ok_or_else(|| bad("no \"start\" object".into()))?;
    let ram = &header.ram;
    if ram.len() != 2048 {
        return Err(bad("no 2 KiB \"ram\"".into()));
    }
    let get = |k: &str| -> Result<u64, TraceError> {
        start
            .get(k)
            .and_then(Value::as_u64)
            .ok_or_else(|| bad(format!("start has no number \"{k}\"")))
    };
    let region = match header.fields.get("region").and_then(Value::as_str) {
        Some("pal") => Region::Pal,
        _ => Region::Ntsc,
    };
    let game_mode_state = get("gameModeState")? as u8;
    let resume = match game_mode_state {
        1 => Resume::GameInit { rows_left: 0 },
        _ => Resume::MainLoop,
    };
    let mut playfield = Playfield::empty();
    playfield.0.copy_from_slice(&ram[0x400..0x500]);
    let mut stats = [[0u8; 2]; 7];
    for (i, st) in stats.iter_mut().enumerate() {
        *st = [ram[0x3F0 + 2 * i], ram[0x3F1 + 2 * i]];
    }
    let p = 0x60; // the player-1 block
    let snapshot = Snapshot {
        region,
        resume,
        game_mode: ram[0xC0],
        game_mode_state,
        play_state: ram[p + 0x08],
        render_mode: ram[0xBD],
        x: ram[p],
        y: ram[p + 1],
        piece: ram[p + 2],
        next_piece: ram[0xBF],
        level: ram[p + 4],
        start_level: ram[p + 7],
        start_height: ram[p + 0x19],
        fall_timer: ram[p + 5],
        autorepeat_x: ram[p + 6],
        autorepeat_y: ram[p + 0x0E],
        hold_down_points: ram[p + 0x0F],
        vram_row: ram[p + 9],
        completed_lines: ram[p + 0x16],
        completed_row: [ram[p + 0x0A], ram[p + 0x0B], ram[p + 0x0C], ram[p + 0x0D]],
        line_index: ram[p + 0x17],
        row_y: ram[p + 0x12],
        curtain_row: ram[p + 0x18],
        lines: [ram[p + 0x10], ram[p + 0x11]],
        score: [ram[p + 0x13], ram[p + 0x14], ram[p + 0x15]],
        rng: u16::from(ram[0x17]) << 8 | u16::from(ram[0x18]),
        spawn_id: ram[0x19],
        spawn_count: ram[0x1A],
        frame_counter: u16::from(ram[0xB2]) << 8 | u16::from(ram[0xB1]),
        sleep_counter: ram[0xC3],
        held: ram[0xF7],
        pressed: ram[0xF5],
        game_type: ram[0xC1],
        music_type: ram[0xC2],
        display_next_piece: ram[0xDF],
        selecting: ram[0xAE],
        allegro: ram[0xBA],
        clears: [ram[0xD8], ram[0xD9], ram[0xDA], ram[0xDB]],
        stats,
        playfield,
        flow: nestris_core::flow::FlowVars::from_ram(ram),
        render_flags: ram[0xA3],
        clock: nestris_core::timing::Clock::default(),
        audio: nestris_core::audio::Audio::from_page(
            ram[0x680..0x700].try_into().expect("128 bytes"),
        ),
        crash_mode: nestris_core::CrashMode::Cartridge,
        crash: None,
        variant: nestris_core::Variant::CARTRIDGE,
        // The picture memory is not in the header: a clear begun shows the RAM's board.
        cleared: nestris_core::view::Cleared::default(),
        stale: nestris_core::view::StaleDigits::default(),
    };
    Game::from_snapshot(snapshot).map_err(|e| bad(e.to_string()))
}
