//! The environments' engine side, tested without Python: episodes, rewards, auto-reset
//! and truncation, thread counts, the placement task's rows, and what is observed.

use nestris_ai::MoveGen;
use nestris_core::FrameEvents;
use nestris_env::config::{GameOptions, ObsKind, Reward};
use nestris_env::frame::{EnvConfig, Episode};
use nestris_env::obs;
use nestris_env::placement::{check_action, ChoiceRows, PlacementConfig, PlacementEpisode};
use nestris_env::vector::{self, Buffers, Task};

/// A frame-level config whose games top out soon (level 19, no input but Down).
fn fast(max_steps: Option<u64>) -> EnvConfig {
    EnvConfig {
        game: GameOptions {
            level: 19,
            ..GameOptions::default()
        },
        frame_skip: 4,
        max_episode_steps: max_steps,
        ..EnvConfig::default()
    }
}

fn run_frames(cfg: &EnvConfig, n: usize, threads: usize, steps: usize) -> (Buffers, Vec<u64>) {
    let mut eps: Vec<Episode> = (0..n as u64).map(|i| cfg.start(Some(i), &mut ())).collect();
    let mut needs_reset = vec![false; n];
    let mut buf = Buffers::new(n, cfg.obs);
    let mut workers = vec![(); threads];
    let mut total = Buffers::new(n, cfg.obs);
    let mut seeds = Vec::new();
    for step in 0..steps {
        // Each game presses Down (action 3) or nothing, by game and step.
        let actions: Vec<i64> = (0..n)
            .map(|i| if (i + step) % 3 == 0 { 3 } else { 0 })
            .collect();
        let rows = buf.rows::<EnvConfig>(&mut eps, &mut needs_reset, ());
        let Ok(()) = vector::step_all(cfg, rows, &mut workers, &actions);
        for i in 0..n {
            total.rewards[i] += buf.rewards[i];
            total.events[i] |= buf.events[i];
            total.terminated[i] |= buf.terminated[i];
            total.truncated[i] |= buf.truncated[i];
        }
    }
    seeds.extend(eps.iter().map(|e| e.seed.unwrap()));
    total.boards = buf.boards;
    total.features = buf.features;
    (total, seeds)
}

#[test]
fn any_number_of_threads_steps_the_same_games() {
    let cfg = fast(None);
    let one = run_frames(&cfg, 9, 1, 400);
    for threads in [2, 3, 16] {
        assert_eq!(run_frames(&cfg, 9, threads, 400), one, "{threads} threads");
    }
    // The games topped out and were started again from the seed after their last.
    let (total, seeds) = one;
    assert!(
        total.terminated.iter().all(|&t| t),
        "{:?}",
        total.terminated
    );
    for (i, s) in seeds.iter().enumerate() {
        assert_ne!(*s, i as u64, "game {i} was reset");
    }
}

#[test]
fn an_ended_game_is_reset_at_the_next_step_and_the_limit_truncates() {
    let cfg = fast(Some(5));
    let mut eps = vec![cfg.start(Some(7), &mut ())];
    let mut needs_reset = vec![false];
    let mut buf = Buffers::new(1, ObsKind::Board);
    let mut flags = Vec::new();
    for _ in 0..6 {
        let rows = buf.rows::<EnvConfig>(&mut eps, &mut needs_reset, ());
        let Ok(()) = vector::step_all(&cfg, rows, &mut [()], &[0]);
        flags.push((buf.truncated[0], eps[0].steps));
    }
    // Truncated at step 5; the sixth step starts the next episode (0 steps, no flags).
    assert_eq!(flags[4], (true, 5));
    assert_eq!(flags[5], (false, 0));
    assert_eq!(eps[0].seed, Some(nestris_env::config::next_seed(7)));
    assert_eq!(buf.rewards[0], 0.0);
}

#[test]
fn rewards_count_what_they_say() {
    let mut ep = Episode::new(&fast(None), Some(3));
    let mut by_kind = [0.0; 3];
    let mut lines = 0;
    let mut steps = 0;
    let kinds = [Reward::Score, Reward::Lines, Reward::Survival];
    let cfgs: Vec<EnvConfig> = kinds
        .iter()
        .map(|&reward| EnvConfig {
            reward,
            ..fast(None)
        })
        .collect();
    while !ep.ended {
        // The same frames under three rewards: step copies of the episode.
        for (k, cfg) in cfgs.iter().enumerate() {
            let mut e = ep.clone();
            by_kind[k] += e.step(cfg, 0).reward;
        }
        let r = ep.step(&cfgs[0], 0);
        lines += r.lines_cleared;
        steps += 1;
        assert!(steps < 10_000);
    }
    assert_eq!(by_kind[0], f64::from(ep.score()));
    assert_eq!(by_kind[1], f64::from(lines));
    assert_eq!(by_kind[2], f64::from(steps - 1), "1 a step but the last");
    // An ended episode does not move.
    let before = ep.frames;
    let r = ep.step(&cfgs[0], 0);
    assert!(r.terminated && r.reward == 0.0 && ep.frames == before);
}

#[test]
fn placements_lock_where_chosen_and_fill_their_rows() {
    let cfg = PlacementConfig {
        game: GameOptions {
            level: 18,
            ..GameOptions::default()
        },
        ..PlacementConfig::default()
    };
    let n = 3;
    let mut mg = MoveGen::new();
    let mut eps: Vec<PlacementEpisode> =
        (0..n as u64).map(|i| cfg.start(Some(i), &mut mg)).collect();
    let mut needs_reset = vec![false; n];
    let mut buf = Buffers::new(n, ObsKind::Board);
    let m = nestris_env::placement::MAX_PLACEMENTS;
    let (mut masks, mut places, mut counts, mut frames) = (
        vec![0i8; n * m],
        vec![0u8; n * m * 3],
        vec![0i64; n],
        vec![0u32; n],
    );
    let mut workers = vec![MoveGen::new(), MoveGen::new()];
    for _ in 0..20 {
        let actions: Vec<usize> = eps
            .iter()
            .map(|e| check_action(e, (e.num_choices() / 2) as i64).unwrap())
            .collect();
        let extra = ChoiceRows {
            masks: &mut masks,
            placements: &mut places,
            num_placements: &mut counts,
            frames: &mut frames,
        };
        let was_reset = needs_reset.clone();
        let rows = buf.rows::<PlacementConfig>(&mut eps, &mut needs_reset, extra);
        vector::step_all(&cfg, rows, &mut workers, &actions).unwrap();
        for i in 0..n {
            if was_reset[i] || eps[i].ended {
                continue;
            }
            assert!(
                buf.events[i] & FrameEvents::LOCKED != 0,
                "game {i} locked a piece"
            );
            let k = eps[i].num_choices();
            assert_eq!(counts[i], k as i64);
            assert_eq!(
                masks[i * m..(i + 1) * m]
                    .iter()
                    .filter(|&&x| x == 1)
                    .count(),
                k
            );
            assert!(frames[i] > 0);
            let c = eps[i].choices[0];
            assert_eq!(&places[i * m * 3..i * m * 3 + 3], &[c.o, c.x, c.y]);
        }
    }
    assert!(check_action(&eps[0], 10_000)
        .unwrap_err()
        .contains("action must be from 0"));
}

#[test]
fn the_picture_shows_the_rows_of_a_clear_and_the_board_is_ram() {
    // The AI plays until a line clear's animation; there the two observations differ.
    let model = PlacementConfig::default().model;
    let mut ai = nestris_ai::Ai::new(nestris_ai::Weights::default(), model);
    let mut game = nestris_core::Game::new(GameOptions::default().setup(Some(1)));
    let mut plan: Vec<nestris_core::Buttons> = Vec::new();
    for _ in 0..100_000 {
        let s = game.state();
        if s.phase() == nestris_core::PlayState::ClearAnimation {
            let mut board = [0u8; obs::CELLS];
            obs::board(s, &mut board);
            let mut px = vec![0u8; obs::PIXEL_BYTES];
            obs::render(s, &mut px);
            let shown = s.shown_board();
            let differs = (0..obs::CELLS).any(|i| obs::KIND[shown.0[i] as usize] != board[i]);
            assert!(differs, "RAM has lost the cleared rows, the screen has not");
            // The picture's field cells follow the shown board, not RAM.
            for (i, &t) in shown.0.iter().enumerate() {
                let (row, col) = (i / 10, i % 10);
                let at = ((48 + row * 8) * obs::WIDTH + 96 + col * 8) * 3;
                let lit = px[at..at + 3] != [0, 0, 0];
                assert_eq!(lit, obs::KIND[t as usize] != obs::EMPTY, "cell {row},{col}");
            }
            return;
        }
        if plan.is_empty() && s.piece_in_control() {
            plan = ai.plan(&game);
            plan.reverse();
        }
        game.step(plan.pop().unwrap_or(nestris_core::Buttons::NONE));
    }
    panic!("no line clear in 100,000 frames");
}

#[test]
fn a_restarted_placement_episode_is_a_new_one() {
    // A reset keeps the old episode's buffers (its placements, inputs and search record):
    // what follows must be the game a new episode plays, step for step.
    let cfg = PlacementConfig {
        game: GameOptions {
            level: 18,
            ..GameOptions::default()
        },
        ..PlacementConfig::default()
    };
    let mut mg = MoveGen::new();
    let mut old = PlacementEpisode::new(&cfg, Some(7), &mut mg);
    for k in 0..30 {
        if old.ended {
            break;
        }
        let a = k * 5 % old.num_choices();
        old.step(&cfg, a, &mut mg).unwrap();
    }
    for seed in [3, 11] {
        old.restart(&cfg, Some(seed), &mut mg);
        let mut new = PlacementEpisode::new(&cfg, Some(seed), &mut MoveGen::new());
        for k in 0..40 {
            assert_eq!(old.game.state(), new.game.state(), "seed {seed}, step {k}");
            assert_eq!(old.choices, new.choices, "seed {seed}, step {k}");
            assert_eq!(
                (old.steps, old.frames, old.ended),
                (new.steps, new.frames, new.ended)
            );
            if new.ended {
                break;
            }
            let a = k * 7 % new.num_choices();
            assert_eq!(old.choice_inputs(a), new.choice_inputs(a));
            let (o, n) = (
                old.step(&cfg, a, &mut mg).unwrap(),
                new.step(&cfg, a, &mut MoveGen::new()).unwrap(),
            );
            assert_eq!(o, n, "seed {seed}, step {k}");
        }
    }
}
