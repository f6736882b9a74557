//! Side-by-side speed of our engine and meta_nestris over meta_nestris's own FCEUX movies.
//!
//! Both engines are built from their sources into this one binary and play the same inputs,
//! read once by our FM2 reader, each movie cut at the frame meta_nestris's
//! `tests/movies/metadata.yaml` checks last (the death, the 999,999, the B-type clear, the
//! menu). Before timing, both play every movie once and must end in the same game (score,
//! lines, topped out, in play or not), so the comparison is of the same frames.
//!
//! Timing alternates the engines, a whole movie set per chunk, the order swapped every
//! round; each engine's figure is its fastest round (the machine is shared, noise only
//! slows), the whole suite's the sum of the sets'. `--only ours|meta` plays one engine once, for callgrind to count its
//! instructions (`tools/bench_meta.sh callgrind` does that and divides by the frames).
//! Our engine is stepped a frame a call, or with `--run` given each movie in one
//! `Game::run` call (which must end every movie in the game the steps do).

use meta_nestris::{Input, State};
use nestris_core::{Buttons, Game, GameMode, Region};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One movie of the suite, its inputs cut at its last checked frame.
struct Movie {
    name: String,
    set: &'static str,
    ours: Vec<Buttons>,
    meta: Vec<Input>,
    /// The score metadata.yaml expects at the cut, when the score is capped (A-type
    /// entries marked `uncapped_score` expect the modified game's).
    score: Option<u32>,
}

/// The movie sets, by folder: the six TAS movies are `a_type_999999_score`.
const SETS: [(&str, &str); 4] = [
    ("a_type_999999_score", "tas"),
    ("b_type_clear", "b_type"),
    ("death", "death"),
    ("menuing", "menuing"),
];

/// What an engine's game looks like at the end of a movie.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
struct End {
    in_play: bool,
    score: u32,
    lines: u32,
    topped_out: bool,
}

fn bcd(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .rev()
        .fold(0, |n, &b| n * 100 + (b >> 4) as u32 * 10 + (b & 15) as u32)
}

fn end_ours(game: &Game) -> End {
    let s = game.state();
    let in_play = s.mode() == GameMode::Play && s.game_mode_state >= 2;
    End {
        in_play,
        score: if in_play { bcd(&s.score) } else { 0 },
        lines: if in_play { bcd(&s.lines) } else { 0 },
        topped_out: in_play && s.topped_out(),
    }
}

fn end_meta(state: &State<{ meta_nestris::Modifier::empty() }>) -> End {
    match &state.gameplay_state {
        Some(g) => End {
            in_play: true,
            score: g.score,
            lines: g.line_count as u32,
            topped_out: g.dead,
        },
        None => End {
            in_play: false,
            score: 0,
            lines: 0,
            topped_out: false,
        },
    }
}

#[inline(never)]
fn play_ours(inputs: &[Buttons]) -> Game {
    let mut game = Game::power_on(Region::Ntsc);
    for &b in inputs {
        black_box(game.step(b));
    }
    game
}

/// Our engine given the whole movie at once (`Game::run`: the pauses and the idle
/// stretches by their closed forms), as a replay check or a simulator plays.
#[inline(never)]
fn play_ours_run(inputs: &[Buttons]) -> Game {
    let mut game = Game::power_on(Region::Ntsc);
    black_box(game.run(inputs));
    game
}

/// How our engine is driven: a step a frame, or `Game::run` over the whole movie.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Drive {
    Step,
    Run,
}

fn play(drive: Drive, inputs: &[Buttons]) -> Game {
    match drive {
        Drive::Step => play_ours(inputs),
        Drive::Run => play_ours_run(inputs),
    }
}

#[inline(never)]
fn play_meta(inputs: &[Input]) -> State<{ meta_nestris::Modifier::empty() }> {
    let mut state = State::new();
    for &i in inputs {
        state.step(i);
    }
    state
}

/// Reads metadata.yaml's entries: (file, last checked frame, score checked there, capped).
/// The file is a flat list of `- filename:` entries with `checks:` keyed by frame; only
/// those keys are read.
fn metadata(dir: &Path) -> Vec<(String, usize, Option<u32>, bool)> {
    let path = dir.join("metadata.yaml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: Vec<(String, usize, Option<u32>, bool)> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(f) = t.strip_prefix("- filename:") {
            out.push((f.trim().replace('\\', "/"), 0, None, true));
        } else if let Some(last) = out.last_mut() {
            if t == "uncapped_score: true" {
                last.3 = false;
            } else if let Some(frame) = t.strip_suffix(':').and_then(|k| k.parse().ok()) {
                if frame > last.1 {
                    last.1 = frame;
                    last.2 = None;
                }
            } else if let Some(score) = t.strip_prefix("score:") {
                last.2 = score.trim().parse().ok();
            }
        }
    }
    out
}

fn movies(dir: &Path) -> Vec<Movie> {
    let mut list: Vec<Movie> = Vec::new();
    for (file, cut, score, capped) in metadata(dir) {
        if let Some(m) = list.iter_mut().find(|m| m.name == file) {
            // The capped entry of a movie listed twice has the cartridge's score.
            if capped {
                m.score = score;
            }
            continue;
        }
        let folder = file.split('/').next().unwrap_or("");
        let set = SETS
            .iter()
            .find(|(f, _)| *f == folder)
            .map_or("other", |(_, s)| s);
        let path = dir.join(&file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let replay =
            nestris_replay::fm2::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Past a movie's last input both play on with no buttons, as metadata.yaml's do.
        let mut ours = replay.inputs;
        ours.resize(cut, Buttons::NONE);
        let meta = ours.iter().map(|b| Input::from_bits_retain(b.0)).collect();
        list.push(Movie {
            name: file,
            set,
            ours,
            meta,
            score: if capped { score } else { None },
        });
    }
    list
}

/// Both engines play every movie once; true if they end every one in the same game.
fn agree(list: &[Movie]) -> bool {
    let mut ok = true;
    for m in list {
        let stepped = play_ours(&m.ours);
        let ours = end_ours(&stepped);
        if play_ours_run(&m.ours) != stepped {
            ok = false;
            println!("DIFFER {}: Game::run and a step a frame end in different games", m.name);
        }
        let meta = end_meta(&play_meta(&m.meta));
        let expected = m.score.is_none_or(|s| s == meta.score);
        if ours != meta || !expected {
            ok = false;
            println!(
                "DIFFER {}: ours {ours:?}, meta_nestris {meta:?}, metadata score {:?}",
                m.name, m.score
            );
        }
    }
    ok
}

fn time(f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}

/// Times one set; returns the engines' best rounds (ours, meta_nestris).
fn bench(name: &str, set: &[&Movie], rounds: usize, drive: Drive) -> (Duration, Duration) {
    let frames: usize = set.iter().map(|m| m.ours.len()).sum();
    let (mut ours, mut meta) = (Duration::MAX, Duration::MAX);
    let mut ratios = Vec::with_capacity(rounds);
    for round in 0..rounds {
        let run_ours = || {
            for m in set {
                black_box(play(drive, black_box(&m.ours)));
            }
        };
        let run_meta = || {
            for m in set {
                black_box(play_meta(black_box(&m.meta)));
            }
        };
        let (o, t) = if round % 2 == 0 {
            let o = time(run_ours);
            (o, time(run_meta))
        } else {
            let t = time(run_meta);
            (time(run_ours), t)
        };
        ours = ours.min(o);
        meta = meta.min(t);
        ratios.push(t.as_secs_f64() / o.as_secs_f64());
    }
    ratios.sort_by(f64::total_cmp);
    report(name, set.len(), frames, ours, meta);
    println!(
        "{:<21} per-round ratio: median {:.2}x, range {:.2}-{:.2}",
        "",
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1],
    );
    (ours, meta)
}

fn report(name: &str, movies: usize, frames: usize, ours: Duration, meta: Duration) {
    let rate = |d: Duration| frames as f64 / d.as_secs_f64() / 1e6;
    println!(
        "{name:<8} {movies:>3} movies {frames:>7} frames   ours {:>6.2} Mframe/s   meta_nestris {:>6.2} Mframe/s   ours/meta {:.2}x",
        rate(ours),
        rate(meta),
        meta.as_secs_f64() / ours.as_secs_f64(),
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut dir: Option<PathBuf> = None;
    let mut rounds = 200;
    let mut only: Option<String> = None;
    let mut want = String::from("all");
    let mut drive = Drive::Step;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().and_then(|r| r.parse().ok()).unwrap_or(rounds),
            "--only" => only = args.next(),
            "--run" => drive = Drive::Run,
            "--set" => want = args.next().unwrap_or(want),
            _ => dir = Some(PathBuf::from(a)),
        }
    }
    let Some(dir) = dir else {
        eprintln!("usage: bench-meta <meta_nestris>/tests/movies [--rounds N] [--set tas|b_type|death|menuing|all] [--only ours|meta] [--run]");
        std::process::exit(2);
    };
    let list = movies(&dir);
    let chosen: Vec<&Movie> = list
        .iter()
        .filter(|m| want == "all" || m.set == want)
        .collect();
    let frames: usize = chosen.iter().map(|m| m.ours.len()).sum();
    match only.as_deref() {
        Some("ours") => {
            for m in &chosen {
                black_box(play(drive, &m.ours));
            }
            println!("frames {frames}");
            return;
        }
        Some("meta") => {
            for m in &chosen {
                black_box(play_meta(&m.meta));
            }
            println!("frames {frames}");
            return;
        }
        Some(other) => {
            eprintln!("--only takes ours or meta, not {other}");
            std::process::exit(2);
        }
        None => {}
    }
    if !agree(&list) {
        eprintln!("the engines do not play the same game on every movie (above): not timed");
        std::process::exit(1);
    }
    println!(
        "both engines end all {} movies in the same game (score, lines, top-out, in play)",
        list.len()
    );
    println!("best of {rounds} rounds per engine; a round plays the whole set");
    println!(
        "ours driven by {}",
        match drive {
            Drive::Step => "Game::step, a call a frame",
            Drive::Run => "Game::run, the whole movie in one call",
        }
    );
    let (mut ours, mut meta) = (Duration::ZERO, Duration::ZERO);
    for (_, set) in SETS {
        let movies: Vec<&Movie> = list.iter().filter(|m| m.set == set).collect();
        if want == "all" || want == set {
            let (o, t) = bench(set, &movies, rounds, drive);
            ours += o;
            meta += t;
        }
    }
    if want == "all" {
        // The sets' best rounds added: one chunk of the whole suite would be long enough
        // for a shared machine's preemptions to spoil every round.
        let frames = list.iter().map(|m| m.ours.len()).sum();
        report("all", list.len(), frames, ours, meta);
    }
}
