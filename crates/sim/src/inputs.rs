//! Input files: one frame per line in the conformance traces' notation (`LRUDABST`
//! letters, `.` for none), blank lines and `#` comments allowed.

use nestris_core::Buttons;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest input file read (two bytes a frame: some 600 hours of play); a larger one,
/// or a wrong path such as `/dev/zero`, is refused before it fills memory.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Why an input file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum InputFileError {
    /// The file could not be read.
    #[error("cannot read {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file is larger than [`MAX_INPUT_BYTES`].
    #[error("{}: larger than {} MiB, too large for an input file", path.display(), MAX_INPUT_BYTES >> 20)]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The file is not text.
    #[error("{}: not UTF-8 text", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// A line is not a frame of buttons.
    #[error("{}: {error}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line.
        error: InputError,
    },
}

/// Reads and parses the input file at `path`, at most [`MAX_INPUT_BYTES`] of it.
pub fn load(path: &Path) -> Result<Vec<Buttons>, InputFileError> {
    let read = |error| InputFileError::Read {
        path: path.to_path_buf(),
        error,
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(read)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(InputFileError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    let text = String::from_utf8(bytes).map_err(|_| InputFileError::NotText {
        path: path.to_path_buf(),
    })?;
    parse(&text).map_err(|error| InputFileError::Line {
        path: path.to_path_buf(),
        error,
    })
}

/// A line that is not a frame of buttons.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {text:?} is not a frame of buttons (letters L R U D A B S T, or . for none)")]
pub struct InputError {
    /// 1-based line number.
    pub line: usize,
    /// The offending text.
    pub text: String,
}

/// Parses an input file's text.
pub fn parse(text: &str) -> Result<Vec<Buttons>, InputError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let b = Buttons::parse(line).ok_or_else(|| InputError {
            line: i + 1,
            text: line.to_string(),
        })?;
        out.push(b);
    }
    Ok(out)
}

/// Writes inputs in the same notation.
pub fn write(inputs: &[Buttons]) -> String {
    let mut s = String::with_capacity(inputs.len() * 3);
    for b in inputs {
        s.push_str(&b.to_string());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_errors() {
        assert_eq!(
            parse("# hi\n.\nLA\n\nT # start\n").unwrap(),
            vec![Buttons::NONE, Buttons(0x82), Buttons::START]
        );
        assert_eq!(
            parse(".\n.\nXYZ\n"),
            Err(InputError {
                line: 3,
                text: "XYZ".into()
            })
        );
        let v = vec![Buttons(0x13), Buttons::NONE];
        assert_eq!(parse(&write(&v)).unwrap(), v);
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_file_is_refused_at_the_limit() {
        let e = load(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("larger than 256 MiB"), "{e}");
        let e = load(Path::new("/no/such/file")).unwrap_err().to_string();
        assert!(e.starts_with("cannot read /no/such/file"), "{e}");
    }
}
