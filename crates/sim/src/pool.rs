//! The one way nestris runs many games on many threads: the simulator's games, the AI's
//! benchmark and tuning games, and the Python vector environments' batches all go
//! through [`run_on`] (or [`map`], built on it).
//!
//! Work is a queue the workers take from in turn, so a worker whose games were quick
//! helps with the rest; each worker keeps its own state (a move generator, an AI, a
//! list of outcomes) for all the jobs it takes; the calling thread is one of the
//! workers, so one worker spawns no thread. Threads are scoped: they end before the call
//! returns, and a panic in one is raised again in the caller.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The number of workers for `jobs` jobs when `requested` were asked for (0 = one per
/// core): never more than the jobs, never less than one.
pub fn workers_for(requested: usize, jobs: usize) -> usize {
    let wanted = if requested == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        requested
    };
    wanted.clamp(1, jobs.max(1))
}

/// Runs `f` on every job of `jobs`, each on one of the `workers` (one thread each, the
/// caller's included), with that worker's state. Stops taking jobs after the first error
/// and returns it (the jobs already running finish).
///
/// # Panics
/// If `workers` is empty, or a job panicked (the panic is raised again here).
pub fn run_on<J: Send, W: Send, E: Send>(
    jobs: impl Iterator<Item = J> + Send,
    workers: &mut [W],
    f: impl Fn(J, &mut W) -> Result<(), E> + Sync,
) -> Result<(), E> {
    assert!(!workers.is_empty(), "at least one worker");
    if workers.len() == 1 {
        return jobs.into_iter().try_for_each(|j| f(j, &mut workers[0]));
    }
    let queue = Mutex::new(Some(jobs));
    let work = |w: &mut W| -> Result<(), E> {
        loop {
            // The lock is only poisoned by a panic elsewhere, which the scope raises.
            let Some(job) = queue
                .lock()
                .ok()
                .and_then(|mut q| q.as_mut().and_then(Iterator::next))
            else {
                return Ok(());
            };
            if let Err(e) = f(job, w) {
                if let Ok(mut q) = queue.lock() {
                    *q = None;
                }
                return Err(e);
            }
        }
    };
    std::thread::scope(|scope| {
        let work = &work;
        let (first, rest) = workers.split_first_mut().expect("at least one worker");
        let handles: Vec<_> = rest
            .iter_mut()
            .map(|w| scope.spawn(move || work(w)))
            .collect();
        let mut result = work(first);
        for h in handles {
            let r = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            if result.is_ok() {
                result = r;
            }
        }
        result
    })
}

/// Runs jobs `0..jobs` on [`workers_for`]`(threads, jobs)` workers, each with its own
/// state from `init`, and returns the results in job order. `progress` gets the number
/// of jobs done after each one (from the workers' threads).
pub fn map<S: Send, T: Send>(
    jobs: usize,
    threads: usize,
    init: impl Fn() -> S,
    work: impl Fn(&mut S, usize) -> T + Sync,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<T> {
    let mut states: Vec<S> = (0..workers_for(threads, jobs)).map(|_| init()).collect();
    let done = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<T>>> = Mutex::new((0..jobs).map(|_| None).collect());
    let Ok(()) = run_on(0..jobs, &mut states, |i, s| {
        let r = work(s, i);
        slots.lock().expect("no worker panicked")[i] = Some(r);
        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
        Ok::<(), std::convert::Infallible>(())
    });
    slots
        .into_inner()
        .expect("no worker panicked")
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_job_order_whatever_the_threads() {
        for threads in [1, 2, 3, 7, 100] {
            let seen = AtomicUsize::new(0);
            let out = map(
                50,
                threads,
                || 0u32,
                |s, i| {
                    *s += 1;
                    i * i
                },
                &|n| {
                    seen.fetch_max(n, Ordering::Relaxed);
                },
            );
            assert_eq!(out, (0..50).map(|i| i * i).collect::<Vec<_>>());
            assert_eq!(seen.into_inner(), 50);
        }
        assert!(map(0, 4, || (), |_, i| i, &|_| {}).is_empty());
    }

    #[test]
    fn each_worker_keeps_its_state_and_all_jobs_run_once() {
        let mut workers = vec![Vec::new(); 4];
        let Ok(()) = run_on(0..1000, &mut workers, |j, w: &mut Vec<usize>| {
            w.push(j);
            Ok::<(), ()>(())
        }) else {
            unreachable!()
        };
        let mut all: Vec<usize> = workers.concat();
        all.sort_unstable();
        assert_eq!(all, (0..1000).collect::<Vec<_>>());
    }

    #[test]
    fn the_first_error_stops_the_queue() {
        let ran = AtomicUsize::new(0);
        let r = run_on(0..10_000, &mut [(), (), ()], |j, ()| {
            ran.fetch_add(1, Ordering::Relaxed);
            if j == 10 {
                Err(j)
            } else {
                Ok(())
            }
        });
        assert_eq!(r, Err(10));
        assert!(ran.into_inner() < 10_000);
    }

    #[test]
    fn thread_counts_are_bounded_by_the_work() {
        assert_eq!(workers_for(100_000, 3), 3);
        assert_eq!(workers_for(5, 0), 1);
        assert!(workers_for(0, 1000) >= 1);
    }
}
