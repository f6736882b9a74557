//! Reading trace files: gzip or plain JSON lines, one header and one line per frame.

use nestris_core::Buttons;
use serde_json::{Map, Value};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The longest line a trace may have (the longest recorded is 6,472 bytes, a header with
/// the RAM): a longer one is damage, refused before it fills memory.
pub const MAX_LINE_BYTES: usize = 64 << 10;
/// The most text a trace may hold once decompressed (the largest recorded is 122 MB).
pub const MAX_TRACE_BYTES: u64 = 512 << 20;
/// The most frames a trace may hold (the longest recorded has 141,418).
pub const MAX_TRACE_FRAMES: usize = 1 << 21;

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
    let mut lines = Lines::new(reader);
    let first = match lines.next().map_err(|m| fail(1, m))? {
        Some(l) => l,
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
    for n in 2.. {
        let Some(line) = lines.next().map_err(|m| fail(n, m))? else {
            break;
        };
        if line.trim().is_empty() {
            continue;
        }
        if frames.len() == MAX_TRACE_FRAMES {
            return Err(fail(
                n,
                format!("more than {MAX_TRACE_FRAMES} frames: not a trace this program reads"),
            ));
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

/// A trace's lines, read within [`MAX_LINE_BYTES`] each and [`MAX_TRACE_BYTES`] in all.
struct Lines<R> {
    input: BufReader<std::io::Take<R>>,
    buf: Vec<u8>,
}

impl<R: Read> Lines<R> {
    fn new(reader: R) -> Lines<R> {
        Lines {
            input: BufReader::new(reader.take(MAX_TRACE_BYTES + 1)),
            buf: Vec::new(),
        }
    }

    /// The next line without its ending, `None` at the end, or what is wrong.
    fn next(&mut self) -> Result<Option<String>, String> {
        self.buf.clear();
        let limit = MAX_LINE_BYTES as u64 + 2; // the line, "\r\n", and one byte too many
        let got = (&mut self.input)
            .take(limit)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| e.to_string())?;
        if got == 0 {
            return Ok(None);
        }
        if self.input.get_ref().limit() == 0 && self.input.buffer().is_empty() {
            return Err(format!(
                "the trace is longer than {} MiB of text",
                MAX_TRACE_BYTES >> 20
            ));
        }
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        if self.buf.len() > MAX_LINE_BYTES {
            return Err(format!(
                "a line longer than {} KiB: not a trace line",
                MAX_LINE_BYTES >> 10
            ));
        }
        String::from_utf8(std::mem::take(&mut self.buf))
            .map(Some)
            .map_err(|_| "not UTF-8 text".to_string())
    }
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

    #[test]
    fn a_line_or_a_trace_too_long_is_refused_while_reading() {
        // A small gzip file that expands to one endless line: refused at the limit, not
        // read whole into memory.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut gz, HEADER.as_bytes()).unwrap();
        for _ in 0..64 {
            std::io::Write::write_all(&mut gz, &[b'x'; 1 << 16]).unwrap();
        }
        let bomb = gz.finish().unwrap();
        assert!(bomb.len() < 20_000, "{} bytes", bomb.len());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bomb.jsonl.gz");
        std::fs::write(&path, &bomb).unwrap();
        let e = load(&path).unwrap_err().to_string();
        assert!(
            e.contains("line 2") && e.contains("longer than 64 KiB"),
            "{e}"
        );
        // Lines of the longest recorded length read; CRLF endings too.
        let long = format!(
            "{{\"type\":\"header\",\"pad\":\"{}\"}}\r\n{{\"f\":0,\"in\":\".\"}}\r\n",
            "0".repeat(6_500)
        );
        assert_eq!(read(&long).unwrap().frames.len(), 1);
        // Text past the total limit: refused, however it is cut into lines.
        let mut blank = vec![b' '; 60_000];
        blank.push(b'\n');
        let endless = std::io::Read::chain(HEADER.as_bytes(), Endless(blank, 0));
        let e = load_reader("t", endless).unwrap_err().to_string();
        assert!(e.contains("longer than 512 MiB"), "{e}");
    }

    /// Its bytes over and over.
    struct Endless(Vec<u8>, usize);

    impl std::io::Read for Endless {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = out.len().min(self.0.len() - self.1);
            out[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
            self.1 = (self.1 + n) % self.0.len();
            Ok(n)
        }
    }

    #[cfg(unix)]
    #[test]
    fn dev_zero_is_refused_at_the_first_line() {
        let e = load(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(
            e.contains("line 1") && e.contains("longer than 64 KiB"),
            "{e}"
        );
    }
}
