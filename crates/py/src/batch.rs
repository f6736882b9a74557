//! Running a batch of games on several threads, shared by `VecEnv` and
//! `VecPlacementEnv`: the games, with their rows of every output array, are cut into a
//! few groups per thread, which the threads take in turn, so that a thread whose games
//! happened to be quick helps with the rest.

use std::sync::Mutex;

/// Groups per thread: enough to even out the work, few enough to keep each a batch.
const GROUPS_PER_THREAD: usize = 4;

/// Splits off the first `n` items of `s`.
pub fn take<'a, T>(s: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (a, b) = std::mem::take(s).split_at_mut(n);
    *s = b;
    a
}

/// A group of consecutive games and their rows of the output arrays.
pub trait Group: Sized + Send {
    /// Number of games.
    fn len(&self) -> usize;

    /// Splits off the first `k` games (`k` at most [`Group::len`]).
    fn split_first(&mut self, k: usize) -> Self;
}

/// Runs `f` on groups of `rows`, one thread per worker (each thread's own state, such as
/// a move generator); the calling thread is one of them. Returns the first error; a
/// panic in a thread is raised again here.
pub fn run_groups<G: Group, W: Send, E: Send>(
    mut rows: G,
    workers: &mut [W],
    f: impl Fn(G, &mut W) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let threads = workers.len().min(rows.len()).max(1);
    if threads == 1 {
        return f(rows, &mut workers[0]);
    }
    let chunk = rows.len().div_ceil(threads * GROUPS_PER_THREAD);
    let mut groups = Vec::with_capacity(threads * GROUPS_PER_THREAD);
    while rows.len() > 0 {
        let k = chunk.min(rows.len());
        groups.push(rows.split_first(k));
    }
    let queue = Mutex::new(groups.into_iter());
    let work = |w: &mut W| -> Result<(), E> {
        loop {
            // The lock is only poisoned by a panic elsewhere, which the scope raises.
            let Some(g) = queue.lock().ok().and_then(|mut q| q.next()) else {
                return Ok(());
            };
            f(g, w)?;
        }
    };
    std::thread::scope(|scope| {
        let work = &work;
        let (first, rest) = workers[..threads]
            .split_first_mut()
            .expect("at least one worker");
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
