//! The headless subcommands as a user runs them: sim, rng, replay, export, screenshot,
//! with their error paths (a clear one-line message and a non-zero exit).

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::PathBuf;

fn nestris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nestris"))
}

/// The power-on trace's inputs as an FCEUX movie.
fn movie(dir: &std::path::Path) -> PathBuf {
    use std::io::Read;
    let gz = std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/conformance/power-on/poweron-s1.jsonl.gz"),
    )
    .unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_string(&mut text)
        .unwrap();
    let mut out = String::from("version 3\npalFlag 0\n");
    for line in text.lines().skip(1) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let held = v["in"].as_str().unwrap();
        out.push_str("|0|");
        for c in "RLDUTSBA".chars() {
            out.push(if held.contains(c) { c } else { '.' });
        }
        out.push_str("|||\n");
    }
    let path = dir.join("s1.fm2");
    std::fs::write(&path, out).unwrap();
    path
}

#[test]
fn sim_runs_games_and_reports() {
    nestris()
        .args([
            "sim",
            "--games",
            "4",
            "--threads",
            "2",
            "--policy",
            "tap:3",
            "--json",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"games\": 4"));
}

#[test]
fn sim_prints_hashes_as_hex_and_uses_no_more_threads_than_games() {
    let out = nestris()
        .args([
            "sim",
            "--games",
            "2",
            "--threads",
            "1024",
            "--policy",
            "idle",
            "--max-frames",
            "200",
            "--json",
            "--per-game",
        ])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let hash = &v["outcomes"][0]["state_hash"];
    // A JSON number would round a 64-bit hash; 16 hex digits keep it.
    assert!(
        hash.as_str()
            .is_some_and(|h| h.len() == 16 && h.chars().all(|c| c.is_ascii_hexdigit())),
        "{hash}"
    );
    nestris()
        .args([
            "sim",
            "--games",
            "2",
            "--threads",
            "1024",
            "--policy",
            "idle",
            "--max-frames",
            "200",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("on 2 thread(s)"));
    // A count no machine has is refused before any thread starts.
    nestris()
        .args(["sim", "--threads", "100000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("use 1 to 1024"));
}

#[test]
fn sim_refuses_an_unknown_policy() {
    nestris()
        .args(["sim", "--policy", "fast"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown policy \"fast\""));
}

#[test]
fn sim_names_the_bad_line_of_an_input_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.txt");
    std::fs::write(&path, ".\nLA\n# comment\nXYZ\n").unwrap();
    nestris()
        .args(["sim", "--inputs"])
        .arg(&path)
        .assert()
        .failure()
        .stderr(predicate::str::contains("line 4").and(predicate::str::contains("XYZ")));
}

#[test]
fn sim_says_when_an_input_file_cannot_be_read() {
    nestris()
        .args(["sim", "--inputs", "/nonexistent/inputs.txt"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "cannot read /nonexistent/inputs.txt",
        ));
}

#[test]
fn rng_prints_the_exhaustive_figures() {
    nestris()
        .args(["rng"])
        .assert()
        .success()
        .stdout(predicate::str::contains("long-run repeat rate 4.03%"));
    nestris()
        .args(["rng", "--json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"repeat_rate\""));
}

#[test]
fn a_movie_replays_converts_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let fm2 = movie(dir.path());
    // A movie records no result: it plays, but proves nothing.
    nestris()
        .args(["replay", "--headless"])
        .arg(&fm2)
        .assert()
        .code(3)
        .stdout(predicate::str::contains("start       power-on"))
        .stderr(predicate::str::contains("--allow-unverified"));
    nestris()
        .args(["replay", "--headless", "--allow-unverified"])
        .arg(&fm2)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "unproven: the file records no result",
        ));
    let rep = dir.path().join("s1.nestris");
    nestris()
        .args(["export", "--nestris"])
        .arg(&fm2)
        .arg("-o")
        .arg(&rep)
        .assert()
        .success();
    nestris()
        .args(["replay", "--headless", "--json"])
        .arg(&rep)
        .assert()
        .success()
        .stdout(predicate::str::contains("\"verified\": true"));
    let back = dir.path().join("back.fm2");
    nestris()
        .args(["export", "--fm2"])
        .arg(&rep)
        .arg("-o")
        .arg(&back)
        .assert()
        .success();
    let a: Vec<String> = std::fs::read_to_string(&fm2)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(String::from)
        .collect();
    let b: Vec<String> = std::fs::read_to_string(&back)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(String::from)
        .collect();
    assert_eq!(a, b);
    let png = dir.path().join("shot.png");
    nestris()
        .args(["screenshot", "--replay"])
        .arg(&rep)
        .args(["--frame", "1100", "-o"])
        .arg(&png)
        .assert()
        .success();
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}

/// A format 1 replay (before proofs): 1,500 frames from power-on into a game.
fn format1() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../replay/tests/data/format1-power-on.nestris")
}

#[test]
fn only_a_replay_that_proves_its_game_verifies() {
    let dir = tempfile::tempdir().unwrap();
    // An old file proves only its final state: exit 3 unless allowed.
    nestris()
        .args(["replay", "--headless"])
        .arg(format1())
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "verified    unproven: the final state matches",
        ));
    nestris()
        .args(["replay", "--headless", "--allow-unverified", "--json"])
        .arg(format1())
        .assert()
        .success()
        .stdout(predicate::str::contains("\"verdict\": \"final-only\""))
        .stdout(predicate::str::contains("\"verified\": false"));
    // Written again, it is format 2 and proves itself.
    let new = dir.path().join("new.nestris");
    let mut replay = nestris_replay::Replay::load(&format1()).unwrap();
    replay.seal();
    std::fs::write(&new, replay.to_bytes()).unwrap();
    nestris()
        .args(["replay", "--headless"])
        .arg(&new)
        .assert()
        .success()
        .stdout(predicate::str::contains("verified    yes: the inputs"));
    // Its inputs edited on the legal screen (the game converges to the same end): not
    // verified, even allowed, and the stretch of frames is named.
    replay.inputs[100] = nestris_core::Buttons::A;
    let edited = dir.path().join("edited.nestris");
    std::fs::write(&edited, replay.to_bytes()).unwrap();
    nestris()
        .args(["replay", "--headless", "--allow-unverified"])
        .arg(&edited)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "verified    NO: the inputs were changed after recording, in frames 1 to 300",
        ));
    // Part way, the checkpoints passed are checked.
    nestris()
        .args(["replay", "--headless", "--frames", "700"])
        .arg(&new)
        .assert()
        .success()
        .stdout(predicate::str::contains("yes, to frame 600"));
    // Another crash mode is another game: not judged.
    nestris()
        .args(["replay", "--headless", "--crash", "off"])
        .arg(&new)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "verified    - (played in crash mode off",
        ));
}

#[test]
fn a_damaged_replay_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let fm2 = movie(dir.path());
    let rep = dir.path().join("s1.nestris");
    nestris()
        .args(["export", "--nestris"])
        .arg(&fm2)
        .arg("-o")
        .arg(&rep)
        .assert()
        .success();
    let mut bytes = std::fs::read(&rep).unwrap();
    let cut = dir.path().join("cut.nestris");
    std::fs::write(&cut, &bytes[..20]).unwrap();
    nestris()
        .args(["replay", "--headless"])
        .arg(&cut)
        .assert()
        .failure()
        .stderr(predicate::str::contains("truncated replay"));
    bytes[30] ^= 0xFF;
    let bad = dir.path().join("bad.nestris");
    std::fs::write(&bad, &bytes).unwrap();
    nestris()
        .args(["replay", "--headless"])
        .arg(&bad)
        .assert()
        .failure()
        .stderr(predicate::str::contains("damaged replay"));
    let mut v2 = std::fs::read(&rep).unwrap();
    v2[8] = 9;
    let newer = dir.path().join("newer.nestris");
    std::fs::write(&newer, &v2).unwrap();
    nestris()
        .args(["replay", "--headless"])
        .arg(&newer)
        .assert()
        .failure()
        .stderr(predicate::str::contains("version 9 is not supported"));
    nestris()
        .args(["replay", "--headless", "/nonexistent.nestris"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot read /nonexistent.nestris"));
}

#[test]
fn a_rom_that_is_not_tetris_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fm2 = movie(dir.path());
    let rom = dir.path().join("other.nes");
    std::fs::write(&rom, vec![0u8; 16 + 32768 + 16384]).unwrap();
    nestris()
        .args(["replay", "--headless", "--rom"])
        .arg(&rom)
        .arg(&fm2)
        .assert()
        .failure()
        .stderr(predicate::str::contains("not a Tetris (USA) image"));
}

/// `nestris ai play --json` from `args`: its one game.
fn ai_game(args: &[&str]) -> serde_json::Value {
    let out = nestris()
        .args(["ai", "play", "--threads", "1", "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v[0].clone()
}

#[test]
fn a_deep_ai_game_lags_by_default_and_not_with_music_and_no_rom() {
    // From level 159 the score is capped within 6,000 frames, and from then on the score
    // frames of its clears overrun the CPU's budget. The default (the music off) follows
    // the timing without a ROM.
    let deep = ["--start-level", "159", "--max-frames", "6000"];
    let g = ai_game(&deep);
    assert!(g["lag_frames"].as_u64().unwrap() > 0, "{g}");
    assert_eq!(g["score"], 999_999);
    let mut music = deep.to_vec();
    music.extend(["--music", "0"]);
    let g = ai_game(&music);
    assert_eq!(g["lag_frames"], 0, "{g}");
    assert_eq!(g["crashed"], false);
}

#[test]
fn the_betatetris_format_plays_gym_seeds_and_keeps_them_in_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    let replays = dir.path().to_str().unwrap();
    let args = [
        "--format",
        "betatetris",
        "--max-frames",
        "1500",
        "--replays",
        replays,
    ];
    let g = ai_game(&args);
    // BetaTetris's first evaluation seed, and its pieces: seed D82E07 under the caps.
    assert_eq!(g["gym_seed"], "D82E07", "{g}");
    assert!(g["lines"].as_u64().unwrap() > 0, "{g}");
    let path = dir.path().join("ai-001-gym-d82e07.nestris");
    nestris()
        .args(["replay", "--headless", "--json"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            r#""rules": "gym-v5 seed D82E07, ksx2@39, halt@49""#,
        ));
    // A later start level starts with the lines the format's game has there (level 29
    // at 230): the replay starts from that state and verifies.
    let later = tempfile::tempdir().unwrap();
    let args = [
        "--format",
        "betatetris",
        "--start-level",
        "29",
        "--max-frames",
        "1200",
        "--replays",
        later.path().to_str().unwrap(),
    ];
    let g = ai_game(&args);
    let cleared = g["lines"].as_u64().unwrap();
    assert!(cleared > 0, "{g}");
    let out = nestris()
        .args(["replay", "--headless", "--json"])
        .arg(later.path().join("ai-001-gym-d82e07.nestris"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["verified"], true, "{v}");
    assert_eq!(v["lines"].as_u64().unwrap(), 230 + cleared, "{v}");
    // Its own start level or a later one.
    nestris()
        .args([
            "ai",
            "bench",
            "--format",
            "betatetris",
            "--start-level",
            "17",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("starts at level 18 or later"));
}

/// A tiny tune of the betatetris format's double-killscreen set (one iteration unless
/// `extra` says how many), written to `out`, with `extra` arguments.
fn tune_command(out: &std::path::Path, extra: &[&str]) -> assert_cmd::Command {
    let mut c = nestris();
    c.args([
        "ai",
        "tune",
        "--format",
        "betatetris",
        "--start-level",
        "39",
        "--bracket",
        "double_killscreen",
        "--population",
        "2",
        "--games",
        "1",
        "--max-frames",
        "300",
        "--threads",
        "1",
    ]);
    if !extra.contains(&"--iterations") {
        c.args(["--iterations", "1"]);
    }
    c.args(extra).arg("-o").arg(out);
    c
}

/// [`tune_command`], run: it succeeds.
fn tune_double_killscreen(out: &std::path::Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    tune_command(out, extra).assert().success()
}

#[test]
fn a_bracket_is_tuned_alone_and_written_as_its_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ks2.toml");
    tune_double_killscreen(&out, &[]);
    let set = nestris_ai::WeightSet::load(&out).unwrap();
    // The other brackets are the built-in set's, as read.
    let builtin = nestris_ai::WeightSet::betatetris();
    assert!(set.brackets[2].is_some(), "the tuned bracket has its table");
    assert_eq!(set.brackets[..2], builtin.brackets[..2]);
    assert_eq!(set.base, builtin.base);
    // --keep mean writes the mean the last iteration sampled around: after one
    // iteration, the set it started from.
    let mean = dir.path().join("mean.toml");
    tune_double_killscreen(&mean, &["--keep", "mean"]).stdout(predicate::str::contains(
        "the last iteration's mean weights written",
    ));
    let written = nestris_ai::WeightSet::load(&mean).unwrap();
    let close = |a: &nestris_ai::Weights, b: &nestris_ai::Weights| {
        let (a, b) = (a.to_array(), b.to_array());
        a.iter()
            .zip(&b)
            .all(|(x, y)| (x - y).abs() <= 1e-5 * y.abs().max(1.0))
    };
    assert!(close(
        &written.brackets[2].unwrap(),
        &builtin.brackets[2].unwrap()
    ));
    nestris()
        .args(["ai", "tune", "--bracket", "level39", "-o"])
        .arg(&out)
        .assert()
        .failure()
        .stderr(predicate::str::contains("use base, level19, level29"));
}

#[test]
fn a_tune_resumes_from_its_checkpoint_to_the_result_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("tune.json");
    let (whole, resumed) = (
        dir.path().join("whole.toml"),
        dir.path().join("resumed.toml"),
    );
    let ck_args = ["--checkpoint", ck.to_str().unwrap()];
    let two = ["--iterations", "2"];
    let out = |a: assert_cmd::assert::Assert| String::from_utf8(a.get_output().stdout.clone());
    let history = out(tune_double_killscreen(&whole, &two)).unwrap();
    // One iteration kept, then a run asked for two goes on from it.
    tune_double_killscreen(&resumed, &ck_args);
    assert!(ck.exists());
    let args: Vec<&str> = ck_args.iter().chain(&two).copied().collect();
    let a = tune_double_killscreen(&resumed, &args).stderr(predicate::str::contains(
        "1 iteration(s) read from checkpoint",
    ));
    assert_eq!(
        out(a).unwrap(),
        history.replace("whole.toml", "resumed.toml")
    );
    assert_eq!(
        std::fs::read_to_string(&resumed).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
    // Another tune's settings are refused, in one line, before any game.
    let other: Vec<&str> = ck_args
        .iter()
        .chain(&["--rng-seed", "5"])
        .copied()
        .collect();
    tune_command(&dir.path().join("other.toml"), &other)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("differs in: rng_seed"))
        .stderr(predicate::str::contains('\n').count(1));
}

#[test]
fn the_ai_dodges_the_crash_its_blind_self_runs_into() {
    // Which game the AI plays depends on the move generator's inputs; at 159 its blind self
    // crashes within these frames.
    let deep = ["--start-level", "159", "--max-frames", "10000"];
    let mut blind = deep.to_vec();
    blind.push("--no-crash-dodge");
    let g = ai_game(&blind);
    assert_eq!(g["crashed"], true, "{g}");
    assert_eq!(g["topped_out"], false);
    assert_eq!(g["crash_dodges"], 0);
    let g = ai_game(&deep);
    assert_eq!(g["crashed"], false, "{g}");
    assert!(g["crash_dodges"].as_u64().unwrap() >= 1);
}

#[test]
fn sim_and_ai_warn_once_when_music_plays_without_a_rom() {
    let warning = "music on without --rom";
    for args in [
        &["sim", "--policy", "idle", "--max-frames", "100", "--json"][..],
        &[
            "ai",
            "play",
            "--max-frames",
            "100",
            "--threads",
            "1",
            "--json",
        ][..],
    ] {
        // The default is the music off, which is exact: no warning.
        nestris()
            .args(args)
            .assert()
            .success()
            .stderr(predicate::str::contains(warning).not());
        let out = nestris()
            .args(args)
            .args(["--music", "1"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.matches(warning).count(), 1, "{err}");
        // With the model off there is nothing to warn about.
        nestris()
            .args(args)
            .args(["--music", "1", "--crash", "off"])
            .assert()
            .success()
            .stderr(predicate::str::contains(warning).not());
    }
    nestris().args(["sim", "--music", "4"]).assert().failure();
}

#[cfg(target_os = "linux")]
#[test]
fn a_replay_of_the_most_frames_exports_in_bounded_memory() {
    use nestris_core::{Buttons, Region};
    use nestris_replay::{Replay, Start, MAX_FRAMES};
    // A file of a few dozen bytes (one run of inputs) that claims the most frames a replay
    // may hold: its movie is 2 GiB of text, which used to be built in memory first.
    let mut r = Replay::new(Start::PowerOn(Region::Ntsc));
    r.inputs = vec![Buttons(0); MAX_FRAMES as usize];
    let bytes = r.to_bytes();
    drop(r);
    assert!(bytes.len() < 100, "{} bytes", bytes.len());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long.nestris");
    std::fs::write(&file, bytes).unwrap();
    // 768 MiB of address space: the inputs (128 MiB) fit, a movie in memory does not.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 786432 && exec \"$0\" export --fm2 \"$1\" -o - | wc -l")
        .arg(env!("CARGO_BIN_EXE_nestris"))
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines: u64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    assert_eq!(lines, MAX_FRAMES + 15, "{stderr}");
}

#[test]
fn output_paths_are_checked_before_the_work_and_no_folder_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder");
    let snapshot = dir.path().join("start.snapshot");
    std::fs::write(
        &snapshot,
        nestris_core::Game::power_on(nestris_core::Region::Ntsc)
            .snapshot()
            .encode(),
    )
    .unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["rng", "--plot"], "heat.png"),
        // The benchmark's 100 games would take minutes: the path is refused first.
        (&["ai", "bench", "--plot"], "scores.png"),
        (&["ai", "tune", "--iterations", "50", "-o"], "best.toml"),
        (&["export", "--fm2", "no-input.nestris", "-o"], "x.fm2"),
        (&["screenshot", "--snapshot", "SNAP", "-o"], "x.png"),
    ];
    for (args, name) in cases {
        let args: Vec<String> = args
            .iter()
            .map(|a| a.replace("SNAP", &snapshot.to_string_lossy()))
            .collect();
        nestris()
            .args(&args)
            .arg(missing.join(name))
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(1)
            .stderr(predicate::str::contains("no-such-folder: does not exist"))
            .stderr(predicate::str::contains('\n').count(1));
        assert!(!missing.exists(), "{args:?} made the folder");
    }
    // A folder is not a file; a good path is written.
    nestris()
        .args(["screenshot", "--snapshot"])
        .arg(&snapshot)
        .arg("-o")
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("it is a folder"));
    let png = dir.path().join("x.png");
    nestris()
        .args(["screenshot", "--snapshot"])
        .arg(&snapshot)
        .arg("-o")
        .arg(&png)
        .assert()
        .success();
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}

#[cfg(unix)]
#[test]
fn a_reader_that_stops_reading_ends_the_program_quietly() {
    use std::os::unix::process::ExitStatusExt;
    // `nestris rng --json | head -c 0`: the pipe is closed before the first line.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_nestris"))
        .args(["rng", "--json", "--simulate", "20"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}", out.status);
}

#[test]
fn bench_counts_the_allocations_of_its_timed_loops() {
    let out = nestris()
        .args(["bench", "--seconds", "0.05", "--threads", "1", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let counted = v["frames_counted_for_allocations"].as_u64().unwrap();
    assert!(counted > 100_000, "{v}");
    assert_eq!(v["allocations_per_frame"].as_f64(), Some(0.0), "{v}");
}

#[test]
fn screenshot_scales_and_takes_the_colours() {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = dir.path().join("start.snapshot");
    let game = nestris_core::Game::new(nestris_core::GameSetup {
        level: 18,
        ..nestris_core::GameSetup::from_seed(3)
    });
    std::fs::write(&snapshot, game.snapshot().encode()).unwrap();
    let size = |png: &std::path::Path| {
        let b = std::fs::read(png).unwrap();
        let be = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        (be(16), be(20))
    };
    let shot = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        nestris()
            .args(["screenshot", "--snapshot"])
            .arg(&snapshot)
            .args(extra)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        out
    };
    assert_eq!(size(&shot("1x.png", &[])), (256, 240));
    assert_eq!(size(&shot("3x.png", &["--scale", "3"])), (768, 720));
    let classic = std::fs::read(shot("c.png", &[])).unwrap();
    let own = std::fs::read(shot("n.png", &["--colours", "nestris"])).unwrap();
    assert_ne!(
        classic, own,
        "level 18 has other colours in the project's palette"
    );
    nestris()
        .args(["screenshot", "--snapshot"])
        .arg(&snapshot)
        .args(["--scale", "9", "-o", "x.png"])
        .assert()
        .code(2);
    // The HUD counts a game's history, which a snapshot does not hold.
    nestris()
        .args(["screenshot", "--snapshot"])
        .arg(&snapshot)
        .args(["--hud", "-o"])
        .arg(dir.path().join("x.png"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("--hud needs --replay"));
    assert!(!dir.path().join("x.png").exists());
}

/// `docs/hud.png`, the picture the README shows of the HUD: an AI game at level 18 (the
/// first published seed, 15 taps a second, 12 frames of reaction) played for 14,000
/// frames, shown with `screenshot --hud` at the first frame after 12,000 where a piece is
/// being shifted with the DAS charged. The committed file must be what the code draws;
/// `NESTRIS_BLESS=1` rewrites it (look at it before committing).
#[test]
fn docs_hud_png_is_what_screenshot_hud_draws() {
    let dir = tempfile::tempdir().unwrap();
    nestris()
        .args([
            "ai",
            "play",
            "--games",
            "1",
            "--start-level",
            "18",
            "--tap-hz",
            "15",
        ])
        .args([
            "--reaction",
            "12",
            "--max-frames",
            "14000",
            "--threads",
            "1",
            "--replays",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let replay_path = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "nestris"))
        .expect("the AI's replay");
    let replay = nestris_replay::Replay::load(&replay_path).unwrap();
    let mut game = replay.game();
    let steering = nestris_core::Buttons::LEFT | nestris_core::Buttons::RIGHT;
    let mut frame = None;
    for (n, &b) in replay.inputs.iter().enumerate() {
        game.step(b);
        let s = game.state();
        if n >= 12_000
            && s.piece_in_control()
            && s.y >= 8
            && s.held & steering.bits() != 0
            && s.autorepeat_x >= s.region.das_repeat_start()
        {
            frame = Some(n + 1);
            break;
        }
    }
    let frame = frame.expect("a shift with the DAS charged after frame 12,000");
    let out = dir.path().join("hud.png");
    nestris()
        .args(["screenshot", "--hud", "--scale", "2", "--frame"])
        .arg(frame.to_string())
        .arg("--replay")
        .arg(&replay_path)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let drawn = std::fs::read(&out).unwrap();
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/hud.png");
    if std::env::var_os("NESTRIS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&docs, &drawn).unwrap();
        eprintln!("blessed {} (frame {frame})", docs.display());
        return;
    }
    let want = std::fs::read(&docs).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with NESTRIS_BLESS=1 to create it",
            docs.display()
        )
    });
    let (want, got) = (
        nestris_render::decode_png(&want).unwrap(),
        nestris_render::decode_png(&drawn).unwrap(),
    );
    assert_eq!(
        (got.width(), got.height()),
        (2 * nestris_render::hud::WIDTH, 2 * nestris_render::HEIGHT)
    );
    assert_eq!(
        (want.width(), want.height()),
        (got.width(), got.height()),
        "docs/hud.png's size"
    );
    let differ = (0..got.pixels.len())
        .filter(|&i| want.pixels[i] != got.pixels[i])
        .count();
    assert!(
        differ == 0,
        "docs/hud.png is not what `screenshot --hud` draws now (frame {frame}, {differ} pixels differ): \
         rerun with NESTRIS_BLESS=1 and look at it"
    );
}

#[test]
fn the_ai_plays_by_a_tap_pattern_and_refuses_a_bad_one() {
    let g = ai_game(&["--taps", "X.X..", "--adjust", "18", "--max-frames", "3000"]);
    assert!(g["lines"].as_u64().unwrap() > 0, "{g}");
    nestris()
        .args([
            "ai",
            "bench",
            "--taps",
            "X.X..",
            "--games",
            "1",
            "--threads",
            "1",
        ])
        .args(["--max-frames", "600"])
        .assert()
        .success()
        .stdout(predicate::str::contains("at taps X.X.., reaction 0 frames"));
    nestris()
        .args(["ai", "play", "--taps", "X.X"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "tap pattern \"X.X\": two X one frame apart",
        ));
    nestris()
        .args(["ai", "play", "--taps", "X.", "--tap-hz", "20"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot be used with"));
}

/// The betatetris format searches on what the screen shows unless told otherwise, and the
/// summary says which lookahead played.
#[test]
fn the_bench_says_what_the_search_knew_of_the_piece_after_the_preview() {
    for (extra, label) in [
        (&[][..], "lookahead screen"),
        (&["--lookahead", "generator"][..], "lookahead generator"),
    ] {
        nestris()
            .args(["ai", "bench", "--format", "betatetris", "--games", "1"])
            .args(["--threads", "1", "--max-frames", "600"])
            .args(extra)
            .assert()
            .success()
            .stdout(predicate::str::contains(label));
    }
    nestris()
        .args(["ai", "bench", "--lookahead", "future"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("use screen or generator"));
}

/// The betatetris format's plans weigh a piece more than the cartridge format's, the
/// options set each depth, and the summary says which played.
#[test]
fn the_bench_says_how_deep_its_plans_weighed() {
    let summary = |args: &[&str]| {
        let out = nestris()
            .args(["ai", "bench", "--games", "1", "--threads", "1"])
            .args(["--max-frames", "300"])
            .args(args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    let beta = summary(&["--format", "betatetris"]);
    assert!(
        beta.contains("weighs 3 pieces, 4 from level 29 for its 4 best candidates"),
        "{beta}"
    );
    assert!(beta.contains("two for the best lines"), "{beta}");
    let set = summary(&[
        "--format",
        "betatetris",
        "--depth",
        "3",
        "--blind-depth",
        "4",
        "--blind-depth-29",
        "2",
    ]);
    assert!(set.contains("weighs 4 pieces, 2 from level 29)"), "{set}");
    assert!(!set.contains("one piece more"), "{set}");
    let cart = summary(&["--adjust", "18"]);
    assert!(cart.contains("weighs 3 pieces, 3 from level 29)"), "{cart}");
    assert!(!cart.contains("one piece more"), "{cart}");
    let deepest = summary(&[
        "--format",
        "betatetris",
        "--depth",
        "5",
        "--blind-beam-29",
        "3",
    ]);
    assert!(deepest.contains("two for the best lines"), "{deepest}");
    assert!(
        deepest.contains("4 from level 29 for its 3 best candidates"),
        "{deepest}"
    );
    let blind5 = summary(&["--format", "betatetris", "--blind-depth-29", "5"]);
    assert!(
        blind5.contains(
            "weighs 3 pieces, 4 from level 29 for its 4 best candidates; one piece more for the two best from level 29)"
        ),
        "{blind5}"
    );
    for bad in [
        ["--depth", "6"],
        ["--blind-depth", "1"],
        ["--blind-depth-29", "6"],
        ["--blind-beam-29", "9"],
    ] {
        nestris()
            .args(["ai", "bench"])
            .args(bad)
            .assert()
            .failure()
            .stderr(predicate::str::contains(bad[0]));
    }
}

/// A bench run with a checkpoint keeps each game as it ends; a run given the file again
/// plays only the games it lacks and reports what one run of every game reports; a cut
/// last line is dropped, other damage and another configuration are refused.
#[test]
fn a_checkpointed_bench_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.jsonl");
    let bench = |games: &str, extra: &[&str]| {
        let out = nestris()
            .args(["ai", "bench", "--format", "betatetris", "--games", games])
            .args(["--threads", "2", "--max-frames", "1200", "--json"])
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let json = serde_json::from_slice::<serde_json::Value>(&out.stdout).ok();
        (out.status.success(), json, stderr)
    };
    let path = file.to_str().unwrap();
    let (ok, first, _) = bench("2", &["--checkpoint", path]);
    assert!(ok);
    let lines = || std::fs::read_to_string(&file).unwrap().lines().count();
    assert_eq!(lines(), 3, "the configuration, then a line a game");
    // Two more games; the first two come from the file.
    let (ok, resumed, stderr) = bench("4", &["--checkpoint", path]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("2 of the 4 games read from checkpoint"),
        "{stderr}"
    );
    assert_eq!(lines(), 5);
    let (_, whole, _) = bench("4", &[]);
    let results = |v: &Option<serde_json::Value>| v.as_ref().unwrap()["results"].clone();
    // The report says which of its games were read, and times only the others.
    let resumed_of = |v: &Option<serde_json::Value>| v.as_ref().unwrap()["resumed"].clone();
    assert_eq!(resumed_of(&resumed), 2);
    assert_eq!(resumed_of(&whole), 0);
    assert_eq!(resumed_of(&first), 0);
    assert_eq!(results(&resumed), results(&whole));
    assert_eq!(
        results(&first).as_array().unwrap()[..],
        results(&whole).as_array().unwrap()[..2]
    );
    // A kill in the middle of a line: the line is dropped and its game played again.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, &text[..text.len() - 20]).unwrap();
    let (ok, again, stderr) = bench("4", &["--checkpoint", path]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("3 of the 4 games read"), "{stderr}");
    assert_eq!(results(&again), results(&whole));
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 5);
    // Other settings are refused, saying which.
    let (ok, _, stderr) = bench("4", &["--checkpoint", path, "--depth", "3"]);
    assert!(!ok);
    assert!(
        stderr.contains("of another configuration (differs in: search)"),
        "{stderr}"
    );
    // A damaged line is an error, not a game played again.
    let text = std::fs::read_to_string(&file).unwrap();
    let damaged = text.replacen("\"game\":1,", "\"game\":\"x\",", 1);
    assert_ne!(damaged, text);
    std::fs::write(&file, damaged).unwrap();
    let (ok, _, stderr) = bench("4", &["--checkpoint", path]);
    assert!(!ok);
    assert!(stderr.contains("not a game's line"), "{stderr}");
    // Not a checkpoint at all.
    std::fs::write(&file, "{}\n").unwrap();
    let (ok, _, stderr) = bench("1", &["--checkpoint", path]);
    assert!(!ok);
    assert!(stderr.contains("is not a checkpoint"), "{stderr}");
    // A folder that is not there: one line, the reason said once, before any game.
    let missing = dir.path().join("no").join("run.jsonl");
    let (ok, _, stderr) = bench("1", &["--checkpoint", missing.to_str().unwrap()]);
    assert!(!ok);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(stderr.matches("No such file").count(), 1, "{stderr}");
}

/// `ai compare` pairs two runs' games by index, from reports or checkpoints, and refuses
/// files that are neither, in one line.
#[test]
fn the_ai_compares_two_runs_game_by_game() {
    let dir = tempfile::tempdir().unwrap();
    let (report, checkpoint) = (dir.path().join("a.json"), dir.path().join("b.jsonl"));
    let out = nestris()
        .args(["ai", "bench", "--format", "betatetris", "--games", "3"])
        .args(["--threads", "2", "--max-frames", "1200", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(&report, &out.stdout).unwrap();
    nestris()
        .args(["ai", "bench", "--format", "betatetris", "--games", "2"])
        .args(["--threads", "2", "--max-frames", "1200", "--checkpoint"])
        .arg(&checkpoint)
        .assert()
        .success();
    nestris()
        .args(["ai", "compare"])
        .args([&report, &checkpoint])
        .assert()
        .success()
        .stdout(predicate::str::contains("2 games paired (3 in"))
        .stdout(predicate::str::contains(
            "difference          0 (standard error 0)",
        ))
        .stdout(predicate::str::contains("reached level 19:"));
    nestris()
        .args(["ai", "compare"])
        .arg(&report)
        .arg(dir.path().join("missing.json"))
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("cannot read").and(predicate::str::contains("missing.json")),
        );
    std::fs::write(dir.path().join("x.json"), "[1, 2]").unwrap();
    let out = nestris()
        .args(["ai", "compare"])
        .arg(&report)
        .arg(dir.path().join("x.json"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("neither a checkpoint nor a report"),
        "{stderr}"
    );
}
