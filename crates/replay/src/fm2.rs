//! FCEUX movies (`.fm2`): header lines, then one `|commands|RLDUTSBA|port1|port2|` line
//! per video frame from power-on.
//!
//! Frame k of a movie is the engine's `k`-th [`nestris_core::Game::step`] from
//! [`nestris_core::Game::power_on`], the same counting the power-on conformance traces use.

use crate::{DemoSource, Replay, Start};
use nestris_core::{Buttons, Region};

/// Why a movie could not be read or written.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Fm2Error {
    /// A line that is neither a header line nor an input line.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The movie has no input lines.
    #[error("the movie has no input lines")]
    Empty,
    /// The replay does not start at power-on, so it has no FM2 form.
    #[error("only replays that start at power-on can be written as FCEUX movies (this one starts from a {0})")]
    NotFromPowerOn(&'static str),
}

/// FM2's button letters, in the order of the `RLDUTSBA` field, with the joypad bits.
const FIELD: [(char, u8); 8] = [
    ('R', 0x01),
    ('L', 0x02),
    ('D', 0x04),
    ('U', 0x08),
    ('T', 0x10),
    ('S', 0x20),
    ('B', 0x40),
    ('A', 0x80),
];

/// Reads a movie as a replay from power-on.
pub fn parse(text: &str) -> Result<Replay, Fm2Error> {
    let mut region = Region::Ntsc;
    let mut inputs = Vec::new();
    let mut comment = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        let n = i + 1;
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('|') {
            inputs.push(parse_input(rest).map_err(|message| Fm2Error::Line { line: n, message })?);
            continue;
        }
        if !inputs.is_empty() {
            return Err(Fm2Error::Line {
                line: n,
                message: "header line after the input lines".into(),
            });
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(Fm2Error::Line {
                line: n,
                message: format!("not a header line: {line:?}"),
            });
        }
        match key {
            "palFlag" => {
                region = match value.trim() {
                    "0" => Region::Ntsc,
                    "1" => Region::Pal,
                    v => {
                        return Err(Fm2Error::Line {
                            line: n,
                            message: format!("palFlag must be 0 or 1, not {v:?}"),
                        })
                    }
                }
            }
            "comment" => {
                comment.push_str(value);
                comment.push('\n');
            }
            _ => {}
        }
    }
    if inputs.is_empty() {
        return Err(Fm2Error::Empty);
    }
    let mut replay = Replay::new(Start::PowerOn(region));
    replay.inputs = inputs;
    replay.metadata = format!(
        "FCEUX movie{}{}",
        if comment.is_empty() { "" } else { ": " },
        comment.trim_end()
    );
    Ok(replay)
}

fn parse_input(rest: &str) -> Result<Buttons, String> {
    let mut fields = rest.split('|');
    let commands = fields.next().unwrap_or("");
    let commands: u32 = commands
        .trim()
        .parse()
        .map_err(|_| format!("bad command field {commands:?}"))?;
    if commands & !1 != 0 && commands != 2 {
        // Soft resets (1) are passed over; other commands do not occur in Tetris movies.
        return Err(format!(
            "unsupported command {commands} (only 0 and soft reset are)"
        ));
    }
    let pad = fields.next().ok_or("no controller field")?;
    if pad.is_empty() {
        return Ok(Buttons::NONE);
    }
    if pad.chars().count() != 8 {
        return Err(format!(
            "controller field {pad:?} is not 8 characters (RLDUTSBA)"
        ));
    }
    let mut bits = 0u8;
    for (c, (_, bit)) in pad.chars().zip(FIELD) {
        if c != '.' && c != ' ' {
            bits |= bit;
        }
    }
    Ok(Buttons(bits))
}

/// FCEUX's `romChecksum` of Tetris (USA): the base64 MD5 of the image without its
/// header (PRG then CHR), so that FCEUX can tell the movie belongs to that cartridge.
/// Checked against the image by `tests/rom_demo.rs` when one is given.
pub const TETRIS_USA_FM2_CHECKSUM: &str = "base64:Ww5XFVjIx5aTe5avRpVhxg==";

/// Writes a power-on replay as an FCEUX movie (with the cartridge's `romChecksum` when
/// NTSC; the PAL cartridge is another image, whose checksum is not known here).
pub fn write(replay: &Replay) -> Result<String, Fm2Error> {
    let mut out = Vec::with_capacity(512 + replay.inputs.len() * LINE.len());
    write_to(replay, &mut out).map_err(|e| match e {
        WriteError::Movie(e) => e,
        WriteError::Io(e) => unreachable!("writing to memory failed: {e}"),
    })?;
    Ok(String::from_utf8(out).expect("the movie is ASCII"))
}

/// Why a movie could not be written to a stream.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The replay has no FM2 form.
    #[error(transparent)]
    Movie(#[from] Fm2Error),
    /// The stream refused the bytes.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The region of the movie `replay` would be, or why it has no FM2 form (only a power-on
/// start has one).
pub fn movie_region(replay: &Replay) -> Result<Region, Fm2Error> {
    match &replay.start {
        Start::PowerOn(r) => Ok(*r),
        Start::Setup(_) => Err(Fm2Error::NotFromPowerOn("game setup")),
        Start::Snapshot(_) => Err(Fm2Error::NotFromPowerOn("snapshot")),
    }
}

/// One input line as written: `|0|RLDUTSBA|||` and its newline.
const LINE: &[u8; 15] = b"|0|........|||\n";

/// [`write`], a line at a time into `out` (a movie of millions of frames is never whole in
/// memory).
pub fn write_to(replay: &Replay, mut out: impl std::io::Write) -> Result<(), WriteError> {
    let region = movie_region(replay)?;
    let mut head = String::from("version 3\nemuVersion 22020\nrerecordCount 0\n");
    head.push_str(&format!("palFlag {}\n", region as u8));
    head.push_str("romFilename Tetris (USA)\n");
    if region == Region::Ntsc {
        head.push_str(&format!("romChecksum {TETRIS_USA_FM2_CHECKSUM}\n"));
    }
    head.push_str("guid 00000000-0000-0000-0000-000000000000\n");
    head.push_str("fourscore 0\nmicrophone 0\nport0 1\nport1 0\nport2 0\nFDS 0\nNewPPU 0\n");
    if replay.demo == DemoSource::Builtin {
        head.push_str("comment recorded by nestris; any demo shown used nestris's own tables, not the cartridge's\n");
    } else {
        head.push_str("comment recorded by nestris\n");
    }
    out.write_all(head.as_bytes())?;
    // Written in blocks of lines: one call per frame would cost more than the text.
    let mut block = [0u8; LINE.len() * 256];
    for chunk in replay.inputs.chunks(256) {
        for (b, line) in chunk.iter().zip(block.chunks_exact_mut(LINE.len())) {
            line.copy_from_slice(LINE);
            for (i, (c, bit)) in FIELD.iter().enumerate() {
                if b.bits() & bit != 0 {
                    line[3 + i] = *c as u8;
                }
            }
        }
        out.write_all(&block[..chunk.len() * LINE.len()])?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut r = Replay::new(Start::PowerOn(Region::Ntsc));
        r.inputs = (0..=255u8).map(Buttons).collect();
        let text = write(&r).unwrap();
        assert!(text.contains("|0|RLDUTSBA|||"));
        assert!(text.contains("\nromChecksum base64:Ww5XFVjIx5aTe5avRpVhxg==\n"));
        assert!(text.contains("|0|........|||"));
        let back = parse(&text).unwrap();
        assert_eq!(back.inputs, r.inputs);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("version 3\n|0|RLDUTSB|||\n").unwrap_err();
        assert_eq!(
            e,
            Fm2Error::Line {
                line: 2,
                message: "controller field \"RLDUTSB\" is not 8 characters (RLDUTSBA)".into()
            }
        );
        assert_eq!(parse("version 3\n"), Err(Fm2Error::Empty));
        assert!(matches!(
            parse("|x|........|||"),
            Err(Fm2Error::Line { line: 1, .. })
        ));
    }
}
