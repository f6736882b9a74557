//! What every environment class says the same way, said once: the running episode's
//! getters of the single environments and the per-game getters of the vector ones.
//! Each macro adds a second `#[pymethods]` block to a class (PyO3's
//! `multiple-pymethods`), reading the episode through `nestris_env::vector::Episode`.

/// The getters of a single environment whose running episode is `self.ep`.
macro_rules! episode_getters {
    ($ty:ty) => {
        #[pyo3::pymethods]
        impl $ty {
            /// A copy of the running game.
            #[getter]
            fn game(&mut self, py: pyo3::Python<'_>) -> crate::game::PyGame {
                let game = nestris_env::vector::Episode::counted_game(&mut self.ep);
                crate::game::PyGame::wrap(py, game.clone())
            }

            /// The seed of the running episode.
            #[getter]
            fn seed(&self) -> Option<u64> {
                nestris_env::vector::Episode::seed(&self.ep)
            }

            /// The seed the next episode gets when reset without one.
            #[getter]
            fn following_seed(&self) -> u64 {
                nestris_env::vector::Episode::following_seed(&self.ep)
            }

            /// Steps taken in the running episode.
            #[getter]
            fn episode_steps(&self) -> u64 {
                nestris_env::vector::Episode::steps(&self.ep)
            }

            /// Frames run in the running episode.
            #[getter]
            fn episode_frames(&self) -> u64 {
                nestris_env::vector::Episode::frames(&self.ep)
            }

            /// The running episode has ended.
            #[getter]
            fn ended(&self) -> bool {
                nestris_env::vector::Episode::ended(&self.ep)
            }

            /// The score of the running episode.
            #[getter]
            fn score(&self) -> u32 {
                nestris_env::vector::Episode::score(&self.ep)
            }

            /// The lines of the running episode.
            #[getter]
            fn lines(&self) -> u32 {
                nestris_env::vector::Episode::lines(&self.ep)
            }
        }
    };
}

/// The per-game getters of a vector environment whose games are `self.eps`.
macro_rules! vector_getters {
    ($ty:ty) => {
        #[pyo3::pymethods]
        impl $ty {
            /// Number of games.
            #[getter]
            fn num_envs(&self) -> usize {
                self.eps.len()
            }

            /// The seed of each running game.
            #[getter]
            fn seeds(&self) -> Vec<Option<u64>> {
                self.eps
                    .iter()
                    .map(nestris_env::vector::Episode::seed)
                    .collect()
            }

            /// Steps taken in each running episode.
            #[getter]
            fn episode_steps(&self) -> Vec<u64> {
                self.eps
                    .iter()
                    .map(nestris_env::vector::Episode::steps)
                    .collect()
            }

            /// A copy of game ``i``.
            fn game(
                &mut self,
                py: pyo3::Python<'_>,
                i: usize,
            ) -> pyo3::PyResult<crate::game::PyGame> {
                let n = self.eps.len();
                let ep = self.eps.get_mut(i).ok_or_else(|| {
                    crate::errors::invalid_argument(format!(
                        "game index must be from 0 to {}, got {i}",
                        n - 1
                    ))
                })?;
                Ok(crate::game::PyGame::wrap(
                    py,
                    nestris_env::vector::Episode::counted_game(ep).clone(),
                ))
            }

            fn __len__(&self) -> usize {
                self.eps.len()
            }
        }
    };
}

pub(crate) use {episode_getters, vector_getters};
