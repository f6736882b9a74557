//! `nestris ai`: the AI headless — play games (saved as replays), the standard benchmark,
//! and weight tuning (the coach, `ai suggest`, is `suggest.rs`).

use anyhow::{bail, Context, Result};
use clap::{Args as ClapArgs, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use nestris_ai::benchmark::{self, BenchConfig, SeedList};
use nestris_ai::format::Format;
use nestris_ai::tune::{self, TuneConfig};
use nestris_ai::{play_from, Ai, Bracket, Limits, Lookahead, TapPattern, WeightSet};
use nestris_replay::{Replay, Start};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `nestris ai`.
#[derive(Debug, Parser)]
pub struct Args {
    #[command(subcommand)]
    command: Option<AiCommand>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Debug, Subcommand)]
enum AiCommand {
    /// Play games and print statistics (the default).
    Play(PlayArgs),
    /// The standard benchmark over the published seed list.
    Bench(BenchArgs),
    /// Tune the evaluator's weights (cross-entropy method over fixed seeds).
    Tune(TuneArgs),
    /// Compare two benchmark runs game by game (reports of `bench --json`, or checkpoints):
    /// the mean difference and its standard error over the games both played.
    Compare(CompareArgs),
    /// The coach: the best placements of a position given as JSON (StackRabbit's request
    /// shape), with their inputs, as JSON.
    Suggest(crate::suggest::Args),
}

/// How the AI plays.
#[derive(Debug, Clone, ClapArgs)]
struct Style {
    /// Start level 0-255: 0-19 as from the menu; a higher one is set directly, as a
    /// practice mode does (29 the kill screen, 155 and up the crash levels).
    #[arg(long, default_value_t = 18)]
    start_level: u8,
    /// Tap rate in Hz: 30, 20, 15 or 12 (the patterns X., X.., X..., X....).
    #[arg(long, visible_alias = "hz", default_value_t = 30)]
    tap_hz: u8,
    /// When taps may come, as a frame pattern instead of --tap-hz: X a frame that may
    /// press, . one that may not, repeating from each piece's first input (X.X.. = gaps
    /// of 2 and 3 frames in turn; ..X. = every 4 frames, the first 2 frames late); or
    /// 30/20/15/12 Hz.
    #[arg(long, value_name = "PATTERN", value_parser = parse_taps, conflicts_with = "tap_hz")]
    taps: Option<TapPattern>,
    /// Reaction time: frames without input after each spawn.
    #[arg(long, default_value_t = 0)]
    reaction: u8,
    /// Reaction as the community models it: plan each piece at its spawn without the new
    /// preview piece, see it F frames later (18 = 300 ms) and change the rest of the
    /// inputs (default: 18 in the betatetris format, else 0, the preview seen at once).
    #[arg(long, value_name = "F")]
    adjust: Option<u8>,
    /// Evaluator weights (TOML or JSON, with optional tables per bracket of the game:
    /// docs/AI.md; default: the built-in ones, the betatetris format's own in that format).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Worker threads, 1-1024 (default: all cores).
    #[arg(long, value_parser = crate::thread_count)]
    threads: Option<usize>,
    /// Music 0-2, or 3 for none (the default). With music on the sound engine's cycles need
    /// the cartridge's music (--rom); without it no lag frame or crash is modelled.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=3))]
    music: u8,
    /// Your Tetris (USA) ROM: its music's scripts make the timing exact with music on.
    #[arg(long, value_name = "FILE")]
    rom: Option<PathBuf>,
    /// Stop each game after this many frames (at least 1).
    #[arg(long, default_value_t = 2_000_000, value_parser = crate::count64)]
    max_frames: u64,
    /// Do not dodge crashes: by default, where its chosen placement would crash the
    /// cartridge (levels ~155 and up, the timing known, a crash mode but off), the AI takes
    /// the same placement with pushdown or another one that does not.
    #[arg(long)]
    no_crash_dodge: bool,
    /// The format of play: cartridge (the cartridge's game on the published seeds), or
    /// betatetris (a variant: TetrisGYM v5 seeds drawn as BetaTetris's evaluation draws
    /// them, double killscreen at level 39, the game halted at level 49, scores past
    /// 999,999; the strongest published bot's format).
    #[arg(long, value_name = "FORMAT", default_value = "cartridge", value_parser = parse_format)]
    format: Format,
    /// What the search knows of the piece after the preview: screen (what the screen
    /// shows, the current piece and the preview, as a human or another bot sees them; the
    /// piece after is weighed over every piece that may come) or generator (the piece the
    /// generator has fixed, found by playing each candidate out). Default: screen in the
    /// betatetris format, generator in the cartridge format.
    #[arg(long, value_name = "WHAT", value_parser = parse_lookahead)]
    lookahead: Option<Lookahead>,
    /// Pieces the plan made before the preview is seen (with --adjust) weighs below level
    /// 29: 2, the current piece and every preview piece that may come; 3, also every piece
    /// that may follow the best placement of each (slower, stronger); 4, one piece more
    /// again; 5, for the two best candidates so far one piece more again. Default: 3.
    #[arg(long, value_name = "N", value_parser = parse_blind_depth)]
    blind_depth: Option<u8>,
    /// --blind-depth from level 29 on, where a piece lands before the preview is seen.
    /// Default: 5 in the betatetris format, 3 in the cartridge format.
    #[arg(long, value_name = "N", value_parser = parse_blind_depth)]
    blind_depth_29: Option<u8>,
    /// From level 29: weigh the blind plan's candidates over the preview pieces alone
    /// first, then only the N best of them at --blind-depth-29 (faster); 0 weighs every
    /// candidate at that depth. Default: 4 in the betatetris format, 0 in the cartridge
    /// format.
    #[arg(long, value_name = "N", value_parser = parse_blind_beam)]
    blind_beam_29: Option<u8>,
    /// Pieces the plan weighs once the preview is seen: 3, the current piece, the preview
    /// and the piece after it (see --lookahead); 4, also every piece that may follow that
    /// piece's best placement (slower, stronger); 5, for the two best lines so far one
    /// piece more again. Default: 5 in the betatetris format, 3 in the cartridge format.
    #[arg(long, value_name = "N", value_parser = parse_depth)]
    depth: Option<u8>,
}

fn parse_taps(s: &str) -> Result<TapPattern, String> {
    TapPattern::parse(s).map_err(|e| e.to_string())
}

/// A depth in `range` ([`nestris_ai::SearchOptions::DEPTHS`] and `BLIND_DEPTHS`).
fn parse_depth_in(s: &str, range: std::ops::RangeInclusive<u8>) -> Result<u8, String> {
    let (lo, hi) = (*range.start(), *range.end());
    match s.parse::<u8>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(format!("{s:?}: use a depth from {lo} to {hi}")),
    }
}

fn parse_depth(s: &str) -> Result<u8, String> {
    parse_depth_in(s, nestris_ai::SearchOptions::DEPTHS)
}

fn parse_blind_depth(s: &str) -> Result<u8, String> {
    parse_depth_in(s, nestris_ai::SearchOptions::BLIND_DEPTHS)
}

fn parse_blind_beam(s: &str) -> Result<u8, String> {
    let range = nestris_ai::SearchOptions::BLIND_BEAMS;
    match s.parse::<u8>() {
        Ok(n) if range.contains(&usize::from(n)) => Ok(n),
        _ => Err(format!(
            "{s:?}: use a beam from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

fn parse_lookahead(s: &str) -> Result<Lookahead, String> {
    Lookahead::from_name(s).ok_or_else(|| format!("{s:?}: use screen or generator"))
}

fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_name(s).ok_or_else(|| format!("{s:?}: use cartridge or betatetris"))
}

#[derive(Debug, Clone, ClapArgs)]
struct PlayArgs {
    #[command(flatten)]
    style: Style,
    /// Games to play (seeds from the published list; at least 1).
    #[arg(long, default_value_t = 1, value_parser = crate::count)]
    games: usize,
    /// When the cartridge would crash: cartridge (the game ends there), show (report it,
    /// play on), topout (end it as a top-out) or off (no lag or crash model).
    #[arg(long, value_name = "MODE", default_value = "cartridge", value_parser = crate::parse_crash_mode)]
    crash: nestris_core::CrashMode,
    /// Save each game as a replay in this folder.
    #[arg(long, value_name = "DIR")]
    replays: Option<PathBuf>,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, ClapArgs)]
struct BenchArgs {
    #[command(flatten)]
    style: Style,
    /// Games (the first N of the published seed list; at least 1).
    #[arg(long, default_value_t = 100, value_parser = crate::count)]
    games: usize,
    /// When the cartridge would crash: cartridge (the game ends there), show (report it,
    /// play on), topout (end it as a top-out) or off (no lag or crash model).
    #[arg(long, value_name = "MODE", default_value = "cartridge", value_parser = crate::parse_crash_mode)]
    crash: nestris_core::CrashMode,
    /// Report scores without the cartridge's 999,999 cap.
    #[arg(long)]
    uncapped: bool,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
    /// Draw the score distribution to this PNG file.
    #[arg(long, value_name = "FILE.png")]
    plot: Option<PathBuf>,
    /// Keep each game in this file as it ends, and take the games it already holds from it
    /// instead of playing them again: a long run stopped part-way resumes where it stopped,
    /// one asked for more games plays only those (the same settings and build only).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
}

#[derive(Debug, ClapArgs)]
struct CompareArgs {
    /// The first run: `ai bench --json` output, or a `--checkpoint` file.
    a: PathBuf,
    /// The second run, the same way (its games paired with the first's by index).
    b: PathBuf,
}

#[derive(Debug, ClapArgs)]
struct TuneArgs {
    #[command(flatten)]
    style: Style,
    /// Iterations (at least 1).
    #[arg(long, default_value_t = 10, value_parser = crate::count)]
    iterations: usize,
    /// Candidates per iteration (at least 1).
    #[arg(long, default_value_t = 16, value_parser = crate::count)]
    population: usize,
    /// Games per candidate (at least 1).
    #[arg(long, default_value_t = 8, value_parser = crate::count)]
    games: usize,
    /// Tune only this bracket's weights (base: before level 19, level19, level29,
    /// double_killscreen), the others kept from --weights; start the games where it
    /// begins with --start-level (in the betatetris format a game started past level 18
    /// has the lines the format's game has there).
    #[arg(long, value_name = "NAME", default_value = "base", value_parser = parse_bracket)]
    bracket: Bracket,
    /// Stop each game once this many lines are cleared (0: play to the end; default 230
    /// in the cartridge format, the level-29 transition from 18, else 0).
    #[arg(long, value_name = "N")]
    max_lines: Option<u32>,
    /// Points added to each game that reaches --max-lines: what getting there is worth
    /// beyond it (e.g. the mean score after level 19 when tuning the base set to 130
    /// lines), so that a short tune does not trade lost games for score.
    #[arg(long, value_name = "POINTS", default_value_t = 0.0, value_parser = parse_bonus)]
    survival_bonus: f64,
    /// Start each game where the format's game, played from its start level with
    /// --weights, reaches --start-level (the fields the bracket really meets), instead
    /// of on an empty field there; seeds whose game tops out before are skipped.
    #[arg(long)]
    warm_start: bool,
    /// In the betatetris format, the games use BetaTetris's seeds after this many (the
    /// first ones are the benchmark's, held out for judging).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    held_out: usize,
    /// The first spread of each weight, as a fraction of its size.
    #[arg(long, value_name = "F", default_value_t = 0.3)]
    spread: f32,
    /// Seed of the sampling of candidates.
    #[arg(long, value_name = "N", default_value_t = 1)]
    rng_seed: u64,
    /// Which weights to write: `best`, the best candidate of any iteration (on its own
    /// games, so favoured by their luck), or `mean`, the mean the last iteration sampled
    /// around.
    #[arg(long, value_enum, default_value_t = Keep::Best)]
    keep: Keep,
    /// Keep the tune's state in this file after each iteration, and go on from the state
    /// it already holds: a tune stopped part-way resumes after its last whole iteration,
    /// one asked for more iterations plays only those, to the result of a tune never
    /// stopped (the same settings and build only; the threads may change).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Where to write the weights (TOML).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

fn parse_bracket(s: &str) -> Result<Bracket, String> {
    Bracket::from_name(s)
        .ok_or_else(|| format!("{s:?}: use base, level19, level29 or double_killscreen"))
}

/// Which weights `ai tune` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Keep {
    /// The best candidate of any iteration.
    Best,
    /// The mean the last iteration sampled around.
    Mean,
}

fn parse_bonus(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v.abs() <= 1e12 => Ok(v),
        _ => Err(format!(
            "{s:?}: a number of points (at most 1e12 either way)"
        )),
    }
}

fn weights(style: &Style) -> Result<WeightSet> {
    match &style.weights {
        None => Ok(style.format.weights()),
        Some(p) => WeightSet::load(p).with_context(|| format!("{}", p.display())),
    }
}

fn threads(style: &Style) -> usize {
    crate::default_threads(style.threads)
}

fn check(style: &Style) -> Result<()> {
    if !matches!(style.tap_hz, 30 | 20 | 15 | 12) {
        bail!("--tap-hz {}: use 30, 20, 15 or 12", style.tap_hz);
    }
    Ok(())
}

fn bar(n: u64, what: &str) -> ProgressBar {
    let b = ProgressBar::new(n);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {what} {{elapsed_precise}} eta {{eta}}");
    b.set_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    b
}

/// Runs `nestris ai`.
pub fn run(args: &Args) -> Result<ExitCode> {
    match &args.command {
        None => play(&args.play),
        Some(AiCommand::Play(p)) => play(p),
        Some(AiCommand::Bench(b)) => bench(b),
        Some(AiCommand::Tune(t)) => tune_weights(t),
        Some(AiCommand::Compare(c)) => compare(c),
        Some(AiCommand::Suggest(s)) => crate::suggest::run(s),
    }
}

/// `ai compare`: two runs' games paired.
fn compare(args: &CompareArgs) -> Result<ExitCode> {
    use nestris_ai::checkpoint::{games_of, read_file, Paired};
    let read = |path: &PathBuf| -> Result<Vec<(usize, benchmark::GameRecord)>> {
        let text = read_file(path)?;
        games_of(&text).with_context(|| path.display().to_string())
    };
    let (a, b) = (read(&args.a)?, read(&args.b)?);
    let p = match Paired::of(&a, &b) {
        Ok(Some(p)) => p,
        Ok(None) => bail!("no game is in both runs"),
        Err(game) => bail!("game {game} was played from other seeds in the two runs"),
    };
    println!(
        "{} games paired ({} in {}, {} in {})",
        p.games,
        a.len(),
        args.a.display(),
        b.len(),
        args.b.display()
    );
    let row = |name: &str, v: [f64; 4], show: &dyn Fn(f64) -> String| {
        println!(
            "{name:<6} {:>12} {:>12}   difference {:>10} (standard error {})",
            show(v[0]),
            show(v[1]),
            if v[2] > 0.0 {
                format!("+{}", show(v[2]))
            } else {
                show(v[2])
            },
            if v[3].is_nan() {
                "-".to_owned()
            } else {
                show(v[3])
            }
        );
    };
    row("score", p.score, &group);
    row("lines", p.lines, &|v| format!("{v:.1}"));
    for (k, level) in [19, 29, 39].iter().enumerate() {
        println!(
            "reached level {level}: {} and {} of {}",
            p.reached[0][k], p.reached[1][k], p.games
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A figure rounded, its thousands grouped (1,234,567; -3,675).
fn group(v: f64) -> String {
    nestris_ai::format::group(v.round() as i64)
}

/// The search settings `style` asks for.
fn search_options(style: &Style) -> nestris_ai::SearchOptions {
    let format = style.format.search();
    nestris_ai::SearchOptions {
        crash_dodge: !style.no_crash_dodge,
        lookahead: style.lookahead.unwrap_or(format.lookahead),
        blind_depth: style.blind_depth.unwrap_or(format.blind_depth),
        blind_depth_29: style.blind_depth_29.unwrap_or(format.blind_depth_29),
        blind_beam_29: style
            .blind_beam_29
            .map_or(format.blind_beam_29, usize::from),
        depth: style.depth.unwrap_or(format.depth),
        ..format
    }
}

/// When the player sees the preview (`--adjust`, by default the format's; `None` or 0: at
/// once).
fn adjust_after(style: &Style) -> Option<u8> {
    style.adjust.or(style.format.adjust_after())
}

fn config(style: &Style, games: usize, crash: nestris_core::CrashMode) -> Result<BenchConfig> {
    check(style)?;
    let cartridge = crate::load_cartridge(style.rom.as_deref())?;
    let config = BenchConfig {
        start_level: style.start_level,
        tap_hz: style.tap_hz,
        taps: style.taps,
        reaction: style.reaction,
        games,
        seeds: SeedList::standard(),
        threads: threads(style),
        weights: weights(style)?,
        crash_mode: crash,
        music_type: style.music,
        cartridge: cartridge.map(std::sync::Arc::new),
        limits: nestris_ai::Limits {
            max_frames: style.max_frames,
            ..nestris_ai::Limits::default()
        },
        search: search_options(style),
        format: style.format,
        adjust_after: adjust_after(style),
        ..BenchConfig::default()
    };
    if config.timing_unmodelled() && crash != nestris_core::CrashMode::Off {
        crate::warn_music_without_rom();
    }
    Ok(config)
}

fn play(args: &PlayArgs) -> Result<ExitCode> {
    let config = config(&args.style, args.games, args.crash)?;
    let seeds = config.seeds.first(args.games);
    if seeds.len() < args.games {
        bail!(
            "--games {}: the published seed list has {}",
            args.games,
            seeds.len()
        );
    }
    if let Some(dir) = &args.replays {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let progress = if args.games > 1 && !args.json {
        bar(args.games as u64, "games")
    } else {
        ProgressBar::hidden()
    };
    let mut rows = Vec::new();
    let gym_seeds = config.gym_seeds();
    for (i, seed) in seeds.0.iter().enumerate() {
        let gym_seed = gym_seeds.as_ref().map(|g| g[i]);
        let setup = config.setup_of(seed, gym_seed);
        // The format's game at a later level has the lines it has there: a state no setup
        // holds, so its replay starts from a snapshot of it.
        let game = config.game_of(seed, gym_seed);
        let start = match config.format.lines_at(config.start_level) {
            Some(_) => Start::Snapshot(Box::new(game.snapshot())),
            None => Start::Setup(setup),
        };
        let mut ai: Ai = config.ai();
        let r = play_from(
            game,
            &mut ai,
            &Limits::frames(config.limits.max_frames),
            true,
        );
        if let Some(dir) = &args.replays {
            let mut replay = Replay::new(start);
            replay.inputs = r.inputs.clone();
            replay.metadata = format!(
                "nestris ai, level {}, {}, reaction {}, {}",
                config.start_level,
                config.tapping(),
                config.reaction,
                setup.variant.label()
            );
            replay.seal();
            let name = match gym_seed {
                Some(g) => format!("ai-{:03}-gym-{g:06x}.nestris", i + 1),
                None => format!(
                    "ai-{:03}-{:04x}-{:02x}.nestris",
                    i + 1,
                    seed.rng,
                    seed.spawn_count
                ),
            };
            let path = dir.join(name);
            nestris_replay::write_atomically(&path, &replay.to_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        rows.push(serde_json::json!({
            "seed": format!("{:04x}:{:02x}", seed.rng, seed.spawn_count),
            "gym_seed": gym_seed.map(|g| format!("{g:06X}")),
            "end": r.end, "transition_scores": r.transition_scores,
            "score": r.score, "uncapped_score": r.uncapped_score, "lines": r.lines, "level": r.level,
            "pieces": r.pieces, "frames": r.frames, "tetrises": r.tetrises, "clears": r.clears,
            "topped_out": r.topped_out,
            "lag_frames": r.lag_frames, "crashed": r.crash_frame.is_some(), "crash_frame": r.crash_frame,
            "crash_dodges": r.crash_dodges, "pushdown_dodges": r.pushdown_dodges,
            "unavoidable_crashes": r.unavoidable_crashes,
        }));
        progress.inc(1);
        if !args.json {
            progress.suspend(|| {
                println!(
                    "game {:3}: score {:7}  lines {:4}  level {:3}  tetrises {:3}  lag {:5}  dodges {:3}  {}",
                    i + 1,
                    r.score,
                    r.lines,
                    r.level,
                    r.tetrises,
                    r.lag_frames,
                    r.crash_dodges,
                    match (r.topped_out, r.crash_frame) {
                        _ if r.end == nestris_ai::End::Capped => "line cap",
                        (false, Some(_)) => "crashed",
                        (true, Some(_)) => "crashed, topped out",
                        (true, None) => "topped out",
                        (false, None) => "stopped",
                    }
                )
            });
        }
    }
    progress.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    }
    Ok(ExitCode::SUCCESS)
}

fn bench(args: &BenchArgs) -> Result<ExitCode> {
    let mut config = config(&args.style, args.games, args.crash)?;
    config.uncapped = args.uncapped;
    if config.format == Format::Betatetris && config.start_level < 18 {
        bail!(
            "--format betatetris starts at level 18 or later (--start-level {})",
            config.start_level
        );
    }
    if let Some(path) = &args.plot {
        crate::output::check(path)?;
    }
    if config.seeds.len() < args.games && config.format == Format::Cartridge {
        bail!(
            "--games {}: the published seed list has {}",
            args.games,
            config.seeds.len()
        );
    }
    let checkpoint = match &args.checkpoint {
        Some(path) => Some(nestris_ai::checkpoint::CheckpointFile::open(path, &config)?),
        None => None,
    };
    let progress = if args.json {
        ProgressBar::hidden()
    } else {
        bar(args.games as u64, "games")
    };
    let report = benchmark::run_resuming(
        &config,
        &|n| progress.set_position(n as u64),
        &std::sync::atomic::AtomicBool::new(false),
        checkpoint.as_ref().map_or(&[], |c| &c.resumed.done[..]),
        &|i, record, seconds| {
            if let Some(c) = &checkpoint {
                c.add(i, record, seconds);
            }
        },
    )
    .expect("never stopped");
    progress.finish_and_clear();
    if let (Some(c), Some(path)) = (checkpoint, &args.checkpoint) {
        if c.resumed.count() > 0 {
            // On standard error, so that --json's output stays one document.
            eprintln!(
                "{} of the {} games read from checkpoint {} (played before in {:.0} s); the time \
                 below is this run's",
                c.resumed.count(),
                args.games,
                path.display(),
                c.resumed.seconds
            );
        }
        c.finish()?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{}", report.summary());
    }
    if let Some(path) = &args.plot {
        let scores: Vec<u64> = report
            .results
            .iter()
            .map(|g| {
                if config.headline_uncapped() {
                    g.uncapped_score
                } else {
                    g.score as u64
                }
            })
            .collect();
        let title = format!(
            "AI scores: level {} start, {}, reaction {} ({} games, {} format)",
            config.start_level,
            config.tapping(),
            config.reaction,
            args.games,
            config.format.name()
        );
        crate::plot::score_histogram(path, &title, &scores)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn tune_weights(args: &TuneArgs) -> Result<ExitCode> {
    check(&args.style)?;
    crate::output::check(&args.output)?;
    let config = TuneConfig {
        iterations: args.iterations,
        population: args.population,
        games: args.games,
        start_level: args.style.start_level,
        tap_hz: args.style.tap_hz,
        taps: args.style.taps,
        reaction: args.style.reaction,
        adjust_after: adjust_after(&args.style),
        format: args.style.format,
        held_out: args.held_out,
        bracket: args.bracket,
        warm_start: args.warm_start,
        survival_bonus: args.survival_bonus,
        rng_seed: args.rng_seed,
        spread: args.spread,
        threads: threads(&args.style),
        initial: weights(&args.style)?,
        search: search_options(&args.style),
        limits: nestris_ai::Limits {
            max_frames: args.style.max_frames,
            max_lines: args.max_lines.unwrap_or(match args.style.format {
                Format::Cartridge => 230,
                Format::Betatetris => 0,
            }),
            ..nestris_ai::Limits::default()
        },
        ..TuneConfig::default()
    };
    if config.format == Format::Betatetris && config.start_level < 18 {
        bail!(
            "--format betatetris starts at level 18 or later (--start-level {})",
            config.start_level
        );
    }
    let resume = match &args.checkpoint {
        Some(path) if path.exists() => {
            let text = nestris_ai::checkpoint::read_file(path)?;
            let state = tune::read_checkpoint(&text, &config)
                .with_context(|| format!("checkpoint {}", path.display()))?;
            eprintln!(
                "{} iteration(s) read from checkpoint {}",
                state.history.len(),
                path.display()
            );
            Some(state)
        }
        Some(path) => {
            crate::output::check(path)?;
            None
        }
        None => None,
    };
    // Games, over every iteration (a warm start may find fewer than asked for).
    let total = (args.iterations * args.population.max(2) * args.games) as u64;
    let progress = bar(total, "games");
    // A checkpoint that cannot be written stops nothing: the tune goes on, and the first
    // failure is reported at its end.
    let mut failed: Option<anyhow::Error> = None;
    let (best, history) = tune::tune_from(
        &config,
        resume,
        &|n| progress.set_position(n as u64),
        &mut |state| {
            let Some(path) = &args.checkpoint else {
                return;
            };
            let text = tune::checkpoint_text(&config, state);
            if let Err(e) = crate::output::write(path, |w| w.write_all(text.as_bytes())) {
                failed.get_or_insert(e);
            }
        },
    );
    progress.finish_and_clear();
    for g in &history {
        println!("{}", serde_json::to_string(g)?);
    }
    let (set, which) = match (args.keep, history.last()) {
        (Keep::Mean, Some(last)) => (
            tune::set_with(&config, &last.mean),
            "the last iteration's mean",
        ),
        _ => (best, "best"),
    };
    let toml = set.to_toml();
    crate::output::write(&args.output, |w| w.write_all(toml.as_bytes()))?;
    println!("{which} weights written to {}", args.output.display());
    if let Some(e) = failed {
        return Err(e.context("the checkpoint was not kept"));
    }
    Ok(ExitCode::SUCCESS)
}
