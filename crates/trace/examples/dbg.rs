//! Prints the engine's flow state over a frame range of a trace (a debugging aid).
use nestris_trace::*;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let t = load(std::path::Path::new(&a[1])).unwrap();
    let lo: u64 = a[2].parse().unwrap();
    let hi: u64 = a[3].parse().unwrap();
    let mut g = game_from_header(&t.header).unwrap();
    for fr in &t.frames {
        g.step(fr.input);
        while g.state().flow.nmi_off_this_frame {
            g.step(fr.input);
        }
        if fr.f >= lo && fr.f <= hi {
            let s = g.state();
            println!(
                "f{} in={} gm={} gms={} ps={} rm={} sel={} resume={:?} vram={} y={} piece={}",
                fr.f,
                fr.input,
                s.game_mode,
                s.game_mode_state,
                s.play_state,
                s.render_mode,
                s.selecting,
                s.resume,
                s.vram_row,
                s.y,
                s.piece
            );
        }
    }
}
