//! Reading trace files: gzip or plain JSON lines, one header and one line per frame.

use nestris_core::Buttons;
use serde_json::{Map, Value};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// Why a trace could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// The file could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A line is not what the format says.
    #[error("{name}: line {line}: {message}")]
    Format {
        /// The trace's name.
        name: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The header's state cannot become a game.
    #[error("header state: {0}")]
    Header(String),
}

/// The trace's first line.
#[derive(Clone, Debug)]
pub struct Header {
    /// All header keys as recorded.
    pub fields: Map<String, Value>,
    /// The console's 2 KiB RAM before frame 0.
    pub ram: Vec<u8>,
}

impl Header {
    /// True for traces that start at power-on (video frames, `nmi` per frame).
    pub fn is_power_on(&self) -> bool {
        self.fields.get("menu") == Some(&Value::Bool(false))
    }

    /// The `start` object (the state before frame 0).
    pub fn start(&self) -> Option<&Map<String, Value>> {
        self.fields.get("start").and_then(Value::as_object)
    }
}

/// One recorded frame.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Frame number from 0.
    pub f: u64,
    /// Buttons held in this frame.
    pub input: Buttons,
    /// The recorded state after the frame, in the file's key order, without `f`, `in`, `lag`.
    pub fields: Map<String, Value>,
    /// Whether the frame was a lag frame (its work ran into the next frame interrupt), when
    /// the trace says.
    pub lag: Option<bool>,
}

/// A whole trace.
#[derive(Clone, Debug)]
pub struct Trace {
    /// File name without the `.jsonl.gz` ending.
    pub name: String,
    /// The header line.
    pub header: Header,
    /// The frames in order.
    pub frames: Vec<Frame>,
}

/// Reads a `.jsonl` or `.jsonl.gz` trace file.
pub fn load(path: &Path) -> Result<Trace, TraceError> {
    let io = |source| TraceError::Io {
        path: path.display().to_string(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
        .trim_end_matches(".gz")
        .trim_end_matches(".jsonl")
        .to_string();
    let mut reader = BufReader::new(file);
    let gz = reader.fill_buf().map_err(io)?.starts_with(&[0x1F, 0x8B]);
    if gz {
        load_reader(&name, flate2::read::MultiGzDecoder::new(reader))
    } else {
        load_reader(&name, reader)
    }
}

/// Reads a trace from any reader of plain JSON lines.
pub fn load_reader(name: &str, reader: impl Read) -> Result<Trace, TraceError> {
    let fail = |line: usize, message: String| TraceError::Format {
        name: name.to_string(),
        line,
        message,
    };
    let mut lines = BufReader::new(reader).lines();
    let first = match lines.next() {
        Some(l) => l.map_err(|e| fail(1, e.to_string()))?,
        None => return Err(fail(1, "empty file: no header line".into())),
    };
    let header: Value =
        serde_json::from_str(&first).map_err(|e| fail(1, format!("not JSON: {e}")))?;
    let Value::Object(fields) = header else {
        return Err(fail(1, "the header is not a JSON object".into()));
    };
    if fields.get("type").and_then(Value::as_str) != Some("header") {
        return Err(fail(
            1,
            "the first line is not a header (\"type\": \"header\")".into(),
        ));
    }
    let ram_hex = fields.get("ram").and_then(Value::as_str).unwrap_or("");
    let ram = decode_hex(ram_hex).ok_or_else(|| fail(1, "\"ram\" is not hex".into()))?;
    if !ram.is_empty() && ram.len() != 2048 {
        return Err(fail(
            1,
            format!("\"ram\" holds {} bytes, not 2048", ram.len()),
        ));
    }
    let mut frames = Vec::new();
    for (i, line) in lines.enumerate() {
        let n = i + 2;
        let line = line.map_err(|e| fail(n, e.to_string()))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: Value =
            serde_json::from_str(&line).map_err(|e| fail(n, format!("not JSON: {e}")))?;
        let Value::Object(mut obj) = v else {
            return Err(fail(n, "not a JSON object".into()));
        };
        let f = obj
            .remove("f")
            .and_then(|v| v.as_u64())
            .ok_or_else(|| fail(n, "no frame number \"f\"".into()))?;
        let input_text = obj
            .remove("in")
            .ok_or_else(|| fail(n, "no input \"in\"".into()))?;
        let input = input_text
            .as_str()
            .and_then(Buttons::parse)
            .ok_or_else(|| fail(n, format!("bad input {input_text}")))?;
        // Frames are consecutive: a repeated or missing frame would compare the engine with
        // the wrong frame of the cartridge, or skip one unseen.
        if let Some(prev) = frames.last().map(|p: &Frame| p.f) {
            if f != prev + 1 {
                return Err(fail(
                    n,
                    format!("frame {f} follows frame {prev}: frames must be consecutive"),
                ));
            }
        }
        let lag = obj.remove("lag").and_then(|v| v.as_bool());
        // A crash frame's CPU registers and interrupt count: the engine keeps no such thing;
        // its `crash` is compared.
        for key in ["pc", "pc_hex", "opcode", "sp", "nmis"] {
            obj.remove(key);
        }
        frames.push(Frame {
            f,
            input,
            fields: obj,
            lag,
        });
    }
    Ok(Trace {
        name: name.to_string(),
        header: Header { fields, ram },
        frames,
    })
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Trace, TraceError> {
        load_reader("t", text.as_bytes())
    }

    const HEADER: &str = "{\"type\":\"header\"}\n";

    #[test]
    fn frames_are_consecutive_and_there_is_at_least_one() {
        let ok = read(&format!(
            "{HEADER}{{\"f\":5,\"in\":\".\"}}\n{{\"f\":6,\"in\":\"L\"}}\n"
        ));
        assert_eq!(ok.unwrap().frames.len(), 2);
        // A header alone reads (Python builds a game from one); checking it is an error.
        let bare = read(HEADER).unwrap();
        let e = crate::check(&bare).unwrap_err().to_string();
        assert!(e.contains("no frames"), "{e}");
        for (body, want) in [
            (
                "{\"f\":0,\"in\":\".\"}\n{\"f\":0,\"in\":\".\"}\n",
                "frame 0 follows frame 0",
            ),
            (
                "{\"f\":0,\"in\":\".\"}\n{\"f\":2,\"in\":\".\"}\n",
                "frame 2 follows frame 0",
            ),
        ] {
            let e = read(&format!("{HEADER}{body}")).unwrap_err().to_string();
            assert!(e.contains(want), "{e}");
        }
        let e = read("{\"f\":0,\"in\":\".\"}\n").unwrap_err().to_string();
        assert!(e.contains("not a header"), "{e}");
    }
}
