//! Input files: one frame per line in the conformance traces' notation (`LRUDABST`
//! letters, `.` for none), blank lines and `#` comments allowed.

use nestris_core::Buttons;

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
}
