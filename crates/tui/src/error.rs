//! [`TuiError`]: why the terminal front end could not run, each one line.

/// Why the terminal front end stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    /// An option outside its range (`--quick 25`).
    #[error("{0}")]
    Options(String),
    /// Standard output is not a terminal (a pipe, a file).
    #[error("the terminal front end needs a terminal on standard output")]
    NotATerminal,
    /// The terminal could not be set up, read or written (the system's words are in
    /// the message, so the error has no separate source).
    #[error("the terminal: {0}")]
    Terminal(std::io::Error),
    /// The session's replay could not be written whole on exit (the path and the
    /// system's words are in the message).
    #[error("{0}")]
    NotSaved(String),
}

impl From<std::io::Error> for TuiError {
    fn from(e: std::io::Error) -> Self {
        TuiError::Terminal(e)
    }
}
