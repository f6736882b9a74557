//! Reading a game file from disk by its content: a nestris replay (it starts with
//! [`MAGIC`]) or an FCEUX movie (text), whatever its name says. Every command that opens
//! a replay — the window, the terminal, `replay`, `export`, `screenshot` — reads it here,
//! so they accept the same files and fail with the same one-line errors.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use crate::fm2::Fm2Error;
use crate::{Replay, ReplayError, MAGIC};

/// The largest file [`Replay::load`] reads. A replay's inputs are run-length coded (a
/// day of play is a few hundred kilobytes); an FCEUX movie spends about 15 bytes a
/// frame, so this is some 60 hours of movie. Anything larger is refused before it is
/// read, so a wrong path (`/dev/zero`, a disk image) cannot exhaust memory.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Why a file could not be read as a game.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be opened or read.
    #[error("cannot read {}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said (in the message, so not a separate source).
        error: std::io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error("{}: larger than {} MiB, too large for a replay or a movie", path.display(), MAX_FILE_BYTES >> 20)]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// It starts as a nestris replay but is not a valid one.
    #[error("{}: {error}", path.display())]
    Replay {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: ReplayError,
    },
    /// It is text but not a valid FCEUX movie.
    #[error("{}: not a valid FCEUX movie: {error}", path.display())]
    Movie {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: Fm2Error,
    },
    /// Neither a nestris replay nor text.
    #[error("{}: neither a nestris replay nor an FCEUX movie", path.display())]
    Unknown {
        /// The file.
        path: PathBuf,
    },
}

impl Replay {
    /// Reads `path` as a nestris replay or, by its content, an FCEUX movie (a movie starts
    /// at power-on). At most [`MAX_FILE_BYTES`] are read.
    pub fn load(path: &Path) -> Result<Replay, LoadError> {
        let bytes = read_limited(path, MAX_FILE_BYTES)?;
        Replay::parse_file(&bytes).map_err(|e| e.at(path))
    }

    /// [`Replay::load`] on bytes already in memory; the path in the error is empty.
    pub fn parse_file(bytes: &[u8]) -> Result<Replay, LoadError> {
        let none = PathBuf::new;
        if bytes.starts_with(&MAGIC) {
            return Replay::from_bytes(bytes).map_err(|error| LoadError::Replay {
                path: none(),
                error,
            });
        }
        let text = std::str::from_utf8(bytes).map_err(|_| LoadError::Unknown { path: none() })?;
        crate::fm2::parse(text).map_err(|error| LoadError::Movie {
            path: none(),
            error,
        })
    }
}

impl LoadError {
    /// The same error about `path`.
    fn at(self, path: &Path) -> LoadError {
        let path = path.to_path_buf();
        match self {
            LoadError::Io { error, .. } => LoadError::Io { path, error },
            LoadError::TooLarge { .. } => LoadError::TooLarge { path },
            LoadError::Replay { error, .. } => LoadError::Replay { path, error },
            LoadError::Movie { error, .. } => LoadError::Movie { path, error },
            LoadError::Unknown { .. } => LoadError::Unknown { path },
        }
    }
}

/// The whole file, if it has at most `limit` bytes; the limit is applied while reading,
/// so a device or a growing file is refused too.
fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, LoadError> {
    let io = |error| LoadError::Io {
        path: path.to_path_buf(),
        error,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(LoadError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Start;
    use nestris_core::{Buttons, GameSetup, Region};

    fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn a_replay_and_a_movie_are_told_apart_by_content_not_name() {
        let dir = tempfile::tempdir().unwrap();
        let mut replay = Replay::new(Start::Setup(GameSetup::default()));
        replay.inputs.extend([Buttons::LEFT; 40]);
        replay.seal();
        let p = write(&dir, "game.fm2", &replay.to_bytes());
        assert_eq!(Replay::load(&p).unwrap(), replay);

        let mut movie = Replay::new(Start::PowerOn(Region::Ntsc));
        movie
            .inputs
            .extend([Buttons::START, Buttons::NONE, Buttons::A]);
        let text = crate::fm2::write(&movie).unwrap();
        let p = write(&dir, "movie.nestris", text.as_bytes());
        assert_eq!(Replay::load(&p).unwrap().inputs, movie.inputs);
    }

    #[test]
    fn each_failure_is_one_line_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.nestris");
        let binary = write(&dir, "x.bin", &[0xff, 0xfe, 0x00]);
        let text = write(&dir, "x.txt", b"hello\n");
        let mut bad = MAGIC.to_vec();
        bad.extend([0; 4]);
        let bad = write(&dir, "bad.nestris", &bad);
        for (p, want) in [
            (&missing, "cannot read"),
            (&binary, "neither a nestris replay nor an FCEUX movie"),
            (&text, "not a valid FCEUX movie"),
            (&bad, "replay"),
        ] {
            let e = Replay::load(p).unwrap_err().to_string();
            assert!(e.contains(want), "{e}");
            assert!(e.contains(&*p.to_string_lossy()), "{e}");
            assert!(!e.contains('\n'), "{e}");
            // The details are in the message, not repeated as a source.
            assert!(std::error::Error::source(&Replay::load(p).unwrap_err()).is_none());
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_file_is_refused_after_the_limit() {
        let e = read_limited(Path::new("/dev/zero"), 1 << 16).unwrap_err();
        assert!(matches!(e, LoadError::TooLarge { .. }), "{e}");
    }
}
