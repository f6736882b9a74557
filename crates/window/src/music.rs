//! The music: which tune plays (followed from the game's state every frame), the scores
//! built from [`crate::tunes`], and the sequencer that plays them on four NES-like
//! voices (square 1 harmony, square 2 melody, triangle bass, noise drums) inside the
//! effects' synthesizer (`sfx::Synth`).
//!
//! What plays is the core's answer ([`nestris_core::Snapshot::music`]): the window and
//! the replay viewer run a [`MusicFollower`] on the state after each frame, which turns
//! a change into one [`MusicCommand`] for the sound thread. Tunes switch on the frame the
//! cartridge switches its own (the fast version on the frame the engine reports the
//! stack reaching row 5), restarting from their beginning as the cartridge's do; a pause
//! holds the tune where it is.
//!
//! The sequencer counts time in 60 Hz frames whatever the device's sample rate, so a
//! tune's notes fall on the same frames at 44.1 kHz and 48 kHz; it allocates nothing
//! while playing (the scores are built once, before the device starts).

use std::sync::OnceLock;

use nestris_core::{Music, Track};

use crate::tunes::{TuneText, ALL, BAR_STEPS, CHORDS};

/// One of our tunes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// MUSIC 1: Korobeiniki (folk song), our arrangement.
    Korobeiniki,
    /// MUSIC 2: an original tune.
    Garden,
    /// MUSIC 3: an original tune.
    Night,
    /// A B-type game's goal reached: an original fanfare, played once.
    Goal,
    /// High-score name entry: an original tune.
    HighScore,
    /// The endings: an original tune.
    Ending,
}

impl Piece {
    /// Every piece, in the order of [`crate::tunes::ALL`].
    pub const ALL: [Piece; 6] = [
        Piece::Korobeiniki,
        Piece::Garden,
        Piece::Night,
        Piece::Goal,
        Piece::HighScore,
        Piece::Ending,
    ];

    /// Its score.
    pub fn score(self) -> &'static Score {
        &scores()[self as usize]
    }

    /// Its name (`korobeiniki`, `garden`, ...).
    pub fn name(self) -> &'static str {
        ALL[self as usize].name
    }
}

/// A tune at a tempo.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Tune {
    /// Which.
    pub piece: Piece,
    /// Its fast version.
    pub fast: bool,
}

impl Tune {
    /// Our tune for one of the cartridge's tracks.
    pub fn for_track(track: Track) -> Tune {
        let (piece, fast) = match track {
            Track::Game { music: 0, fast } => (Piece::Korobeiniki, fast),
            Track::Game { music: 1, fast } => (Piece::Garden, fast),
            Track::Game { fast, .. } => (Piece::Night, fast),
            Track::Goal => (Piece::Goal, false),
            Track::HighScore => (Piece::HighScore, false),
            Track::Ending => (Piece::Ending, false),
        };
        Tune { piece, fast }
    }

    /// Frames (1/60 s) per sixteenth.
    pub fn frames_per_step(self) -> u32 {
        u32::from(ALL[self.piece as usize].frames_per_step[usize::from(self.fast)])
    }

    /// One pass of the tune, in frames.
    pub fn loop_frames(self) -> u32 {
        self.piece.score().steps * self.frames_per_step()
    }
}

/// What the sound thread is told to do with the music.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MusicCommand {
    /// Start a tune from its beginning.
    Play(Tune),
    /// Hold a tune where it is (start it held if another was playing).
    Hold(Tune),
    /// Go on with a held tune (start it if another was held).
    Resume(Tune),
    /// No music.
    Stop,
}

/// Follows the game's music frame by frame: [`MusicFollower::follow`] says what changed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct MusicFollower {
    last: Option<Music>,
}

impl MusicFollower {
    /// The command for the music `now` (the core's [`nestris_core::Snapshot::music`]
    /// after a frame), or `None` if the sound thread already does the right thing.
    pub fn follow(&mut self, now: Music) -> Option<MusicCommand> {
        let last = self.last.replace(now);
        if last == Some(now) {
            return None;
        }
        Some(match (last, now) {
            (_, Music::Silent) => MusicCommand::Stop,
            (Some(Music::Held(a)), Music::Playing(b)) if a == b => {
                MusicCommand::Resume(Tune::for_track(b))
            }
            (_, Music::Playing(t)) => MusicCommand::Play(Tune::for_track(t)),
            (_, Music::Held(t)) => MusicCommand::Hold(Tune::for_track(t)),
        })
    }

    /// Forgets what was playing: the next [`MusicFollower::follow`] restarts the tune (the
    /// replay viewer after a seek).
    pub fn restart(&mut self) {
        self.last = None;
    }
}

/// The music for the replay viewer's frame: the game's, held while the viewer is paused.
pub fn viewed(music: Music, viewer_paused: bool) -> Music {
    match music {
        Music::Playing(t) if viewer_paused => Music::Held(t),
        m => m,
    }
}

// ---------------------------------------------------------------------------------------
// Scores.

/// Voices: square 1 (harmony), square 2 (melody), triangle (bass), noise (drums), the
/// effects' channel numbers, so that an effect takes its channel from the music as on
/// the console.
pub const VOICES: usize = 4;
const HARMONY: usize = 0;
const MELODY: usize = 1;
const BASS: usize = 2;
const DRUMS: usize = 3;

/// Drum hits, the noise voice's "pitches".
const KICK: u8 = 1;
const SNARE: u8 = 2;
const HAT: u8 = 3;

/// One note: a MIDI pitch (0 = rest; on the noise voice a drum hit) for `steps`
/// sixteenths.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Note {
    /// MIDI note number (60 = middle C), 0 for a rest; on the noise voice 1 kick,
    /// 2 snare, 3 hat.
    pub pitch: u8,
    /// Length in sixteenths.
    pub steps: u16,
}

/// A built tune: the four voices' notes, of equal length.
#[derive(Clone, PartialEq, Debug)]
pub struct Score {
    /// The notes of each voice.
    pub voices: [Vec<Note>; VOICES],
    /// The length of one pass in sixteenths.
    pub steps: u32,
    /// Loops, or plays once.
    pub looping: bool,
}

/// The lowest and highest pitch each voice may play (MIDI): the squares C3-C7, the
/// triangle A1-C5 (the console's ranges, kept to what sounds).
pub const RANGE: [(u8, u8); 3] = [(48, 96), (48, 96), (33, 72)];

/// The scores, built once.
fn scores() -> &'static [Score; 6] {
    static SCORES: OnceLock<[Score; 6]> = OnceLock::new();
    SCORES.get_or_init(|| {
        ALL.map(|t| build(&t).unwrap_or_else(|e| panic!("tune {}: {e} (checked by tests)", t.name)))
    })
}

/// A MIDI pitch from a name like `c4`, `f#5`; `None` if it is not one.
pub(crate) fn pitch(name: &str) -> Option<u8> {
    // Semitones above C of each letter.
    const LETTERS: [(u8, u8); 7] = [
        (b'c', 0),
        (b'd', 2),
        (b'e', 4),
        (b'f', 5),
        (b'g', 7),
        (b'a', 9),
        (b'b', 11),
    ];
    let b = name.as_bytes();
    let &(_, base) = LETTERS.iter().find(|(l, _)| Some(l) == b.first())?;
    let (sharp, octave) = match b.get(1) {
        Some(b'#') => (1, b.get(2..)?),
        _ => (0, b.get(1..)?),
    };
    let [d @ b'0'..=b'8'] = octave else {
        return None;
    };
    Some(12 * (d - b'0' + 1) + base + sharp)
}

/// Parses one voice's text into notes; `drums` reads `k`/`s`/`h`. Every bar (ended by
/// `|`, or the text's end) must hold [`BAR_STEPS`] sixteenths.
pub(crate) fn parse(text: &str, drums: bool) -> Result<Vec<Note>, String> {
    let mut notes = Vec::new();
    let mut len = 4u16;
    for (i, bar) in text.split('|').enumerate() {
        if bar.trim().is_empty() {
            continue;
        }
        let mut steps = 0u32;
        for token in bar.split_whitespace() {
            let (name, l) = match token.split_once(':') {
                Some((n, l)) => (n, Some(l)),
                None => (token, None),
            };
            if let Some(l) = l {
                len = l
                    .parse()
                    .ok()
                    .filter(|&l| l > 0)
                    .ok_or_else(|| format!("bad length in {token:?}"))?;
            }
            let p = match (name, drums) {
                ("r", _) => 0,
                ("k", true) => KICK,
                ("s", true) => SNARE,
                ("h", true) => HAT,
                (n, false) => pitch(n).ok_or_else(|| format!("bad note {token:?}"))?,
                _ => return Err(format!("bad drum {token:?}")),
            };
            notes.push(Note {
                pitch: p,
                steps: len,
            });
            steps = steps.saturating_add(u32::from(len));
        }
        if steps != BAR_STEPS {
            return Err(format!("bar {} holds {steps} sixteenths: {bar:?}", i + 1));
        }
    }
    Ok(notes)
}

/// The score of a tune: its melody, and the harmony, bass and drums written out from its
/// chords.
pub(crate) fn build(t: &TuneText) -> Result<Score, String> {
    let mut voices: [Vec<Note>; VOICES] = Default::default();
    let half = (BAR_STEPS / 2) as u16;
    let eighth = half / 4;
    for s in t.form {
        voices[MELODY].extend(parse(s.melody, false)?);
        for name in s.chords.split(['|', ' ']).filter(|n| !n.is_empty()) {
            let (_, tones, root) = CHORDS
                .iter()
                .find(|(n, _, _)| *n == name)
                .ok_or_else(|| format!("unknown chord {name:?}"))?;
            let tone = |n: &str| pitch(n).ok_or_else(|| format!("bad chord note {n:?}"));
            // A broken chord in eighths: low, middle, high, middle.
            for i in [0, 1, 2, 1] {
                voices[HARMONY].push(Note {
                    pitch: tone(tones[i])?,
                    steps: eighth,
                });
            }
            // The root and its octave in eighths.
            let r = tone(root)?;
            for p in [r, r + 12, r, r + 12] {
                voices[BASS].push(Note {
                    pitch: p,
                    steps: eighth,
                });
            }
        }
        let bars = total(&voices[MELODY]) - total(&voices[DRUMS]);
        if s.drums.is_empty() {
            voices[DRUMS].push(Note {
                pitch: 0,
                steps: u16::try_from(bars).map_err(|_| "section too long")?,
            });
        } else {
            let pattern = parse(s.drums, true)?;
            let mut left = bars;
            for n in pattern.iter().cycle() {
                if left == 0 {
                    break;
                }
                voices[DRUMS].push(*n);
                left = left.saturating_sub(u32::from(n.steps));
            }
        }
    }
    let steps = total(&voices[MELODY]);
    if let Some(v) = voices.iter().position(|v| total(v) != steps) {
        return Err(format!(
            "voice {v} lasts {} sixteenths, the melody {steps}",
            total(&voices[v])
        ));
    }
    Ok(Score {
        voices,
        steps,
        looping: t.looping,
    })
}

/// Sixteenths in a voice.
pub(crate) fn total(notes: &[Note]) -> u32 {
    notes.iter().map(|n| u32::from(n.steps)).sum()
}

// ---------------------------------------------------------------------------------------
// The sequencer.

/// How each voice sounds: square duty (0 for the triangle and noise) and level.
const VOICE_SOUND: [(f32, f32); VOICES] = [(0.25, 0.11), (0.5, 0.20), (0.0, 0.26), (0.0, 0.10)];

/// One voice playing its notes.
#[derive(Clone, Copy, Debug, Default)]
struct Voice {
    index: usize,
    /// The current note's start and end, in frames from the pass's start.
    start: f64,
    end: f64,
    phase: f32,
    lfsr: u16,
}

/// Plays the music: a tune, its position, held or not.
#[derive(Clone, Debug)]
pub struct Sequencer {
    sample_rate: u32,
    /// Frames per sample.
    dt: f64,
    tune: Option<Tune>,
    held: bool,
    /// Frames since the pass's start.
    at: f64,
    voices: [Voice; VOICES],
}

impl Sequencer {
    /// No music, at `sample_rate` Hz. Builds the scores (the only allocation).
    pub fn new(sample_rate: u32) -> Sequencer {
        let sample_rate = sample_rate.max(1);
        scores();
        Sequencer {
            sample_rate,
            dt: 60.0 / f64::from(sample_rate),
            tune: None,
            held: false,
            at: 0.0,
            voices: [Voice::default(); VOICES],
        }
    }

    /// The tune loaded (playing or held), if any.
    pub fn tune(&self) -> Option<Tune> {
        self.tune
    }

    /// True while a tune is held.
    pub fn is_held(&self) -> bool {
        self.held
    }

    /// Obeys a command.
    pub fn command(&mut self, c: MusicCommand) {
        match c {
            MusicCommand::Play(t) => self.start(t, false),
            MusicCommand::Hold(t) if self.tune == Some(t) => self.held = true,
            MusicCommand::Hold(t) => self.start(t, true),
            MusicCommand::Resume(t) if self.tune == Some(t) => self.held = false,
            MusicCommand::Resume(t) => self.start(t, false),
            MusicCommand::Stop => self.tune = None,
        }
    }

    fn start(&mut self, t: Tune, held: bool) {
        self.tune = Some(t);
        self.held = held;
        self.rewind();
    }

    fn rewind(&mut self) {
        self.at = 0.0;
        let Some(t) = self.tune else { return };
        let fps = f64::from(t.frames_per_step());
        for (v, notes) in self.voices.iter_mut().zip(&t.piece.score().voices) {
            v.index = 0;
            v.start = 0.0;
            v.end = notes.first().map_or(f64::MAX, |n| f64::from(n.steps) * fps);
        }
    }

    /// The next sample of each voice (-1..1 scaled by the voice's level); silence when
    /// there is no tune or it is held.
    pub fn sample(&mut self) -> [f32; VOICES] {
        let mut out = [0.0; VOICES];
        let Some(t) = self.tune else { return out };
        if self.held {
            return out;
        }
        let score = t.piece.score();
        let fps = f64::from(t.frames_per_step());
        let pass = f64::from(score.steps) * fps;
        self.at += self.dt;
        if self.at >= pass {
            if !score.looping {
                self.tune = None;
                return out;
            }
            let carry = self.at - pass;
            self.rewind();
            self.at = carry;
        }
        for (c, v) in self.voices.iter_mut().enumerate() {
            let notes = &score.voices[c];
            while self.at >= v.end && v.index + 1 < notes.len() {
                v.index += 1;
                v.start = v.end;
                v.end += f64::from(notes[v.index].steps) * fps;
            }
            let note = notes[v.index];
            if note.pitch == 0 {
                continue;
            }
            let elapsed = (self.at - v.start) as f32;
            let left = (v.end - self.at) as f32;
            out[c] = voice_sample(c, note.pitch, elapsed, left, v, self.sample_rate);
        }
        out
    }
}

/// One voice's sample for a note `elapsed` frames in with `left` frames to go.
fn voice_sample(c: usize, pitch: u8, elapsed: f32, left: f32, v: &mut Voice, rate: u32) -> f32 {
    let (duty, level) = VOICE_SOUND[c];
    if c == DRUMS {
        // Each hit: a noise burst at its own clock, fading over its own length.
        let (clock, frames) = match pitch {
            KICK => (1_200.0, 5.0),
            SNARE => (6_000.0, 7.0),
            _ => (14_000.0, 2.0),
        };
        if elapsed >= frames {
            return 0.0;
        }
        v.phase += clock / rate as f32;
        while v.phase >= 1.0 {
            v.phase -= 1.0;
            if v.lfsr == 0 {
                v.lfsr = 1;
            }
            let bit = (v.lfsr ^ (v.lfsr >> 1)) & 1;
            v.lfsr = (v.lfsr >> 1) | (bit << 14);
        }
        let s = if v.lfsr & 1 == 0 { 1.0 } else { -1.0 };
        return s * level * (1.0 - elapsed / frames);
    }
    // A short gap before the next note keeps repeated notes apart.
    if left < 1.0 {
        return 0.0;
    }
    let freq = 440.0 * ((f32::from(pitch) - 69.0) / 12.0).exp2();
    v.phase = (v.phase + freq / rate as f32).fract();
    if c == BASS {
        // A staircase, as the console's triangle is (in eighths of its swing here).
        let tri = 4.0 * (v.phase - 0.5).abs() - 1.0;
        return (tri * 8.0).round() / 8.0 * level;
    }
    // The squares: a quick fall from the attack to a held level, as the cartridge's
    // envelopes do.
    let env = (1.0 - elapsed * 0.05).max(0.6);
    let s = if v.phase < duty { 1.0 } else { -1.0 };
    s * level * env
}

/// Renders `frames` 60 Hz frames of `tune` at `sample_rate` (mono, -1..1): for tests and
/// the WAV tool (`cargo run -p nestris-window --example tune_wav`).
pub fn render(tune: Tune, sample_rate: u32, frames: u32) -> Vec<f32> {
    let mut s = Sequencer::new(sample_rate);
    s.command(MusicCommand::Play(tune));
    let n = (u64::from(frames) * u64::from(sample_rate) / 60) as usize;
    (0..n)
        .map(|_| s.sample().iter().sum::<f32>().clamp(-1.0, 1.0))
        .collect()
}

/// `samples` (-1..1) as a 16-bit mono WAV file.
pub fn wav(samples: &[f32], sample_rate: u32) -> Vec<u8> {
    let data = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    // PCM, one channel, the rate, bytes per second, block align 2, 16 bits.
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&sample_rate.to_le_bytes());
    out.extend_from_slice(&(sample_rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data.to_le_bytes());
    for &s in samples {
        out.extend_from_slice(&((s.clamp(-1.0, 1.0) * 32_767.0) as i16).to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfx::{Levels, Sfx, Synth};
    use nestris_core::{Buttons, FrameEvents, Game, GameSetup};

    const RATE: u32 = 48_000;

    fn energy(s: &[f32]) -> f32 {
        s.iter().map(|x| x * x).sum::<f32>() / s.len().max(1) as f32
    }

    fn tunes() -> impl Iterator<Item = Tune> {
        Piece::ALL
            .into_iter()
            .flat_map(|piece| [false, true].map(|fast| Tune { piece, fast }))
    }

    #[test]
    fn the_tunes_are_well_formed() {
        for (piece, text) in Piece::ALL.into_iter().zip(ALL) {
            let score = build(&text).unwrap();
            assert_eq!(&score, piece.score());
            assert_eq!(score.steps % BAR_STEPS, 0, "{}: whole bars", text.name);
            for (v, notes) in score.voices.iter().enumerate() {
                assert_eq!(total(notes), score.steps, "{} voice {v}", text.name);
                for n in notes {
                    assert!(n.steps > 0);
                    match (v, n.pitch) {
                        (_, 0) => {}
                        (DRUMS, p) => assert!([KICK, SNARE, HAT].contains(&p)),
                        (v, p) => {
                            let (lo, hi) = RANGE[v];
                            assert!((lo..=hi).contains(&p), "{} voice {v}: {p}", text.name);
                        }
                    }
                }
            }
            // Every voice sounds somewhere (the drums may rest throughout).
            for v in [HARMONY, MELODY, BASS] {
                assert!(score.voices[v].iter().any(|n| n.pitch != 0));
            }
        }
    }

    #[test]
    fn the_game_tunes_loop_for_half_a_minute_to_a_minute_and_run_faster_when_fast() {
        for piece in [Piece::Korobeiniki, Piece::Garden, Piece::Night] {
            let slow = Tune { piece, fast: false };
            let fast = Tune { piece, fast: true };
            let seconds = slow.loop_frames() / 60;
            assert!((30..=60).contains(&seconds), "{piece:?}: {seconds} s");
            assert!(fast.loop_frames() < slow.loop_frames(), "{piece:?}");
            assert!(piece.score().looping);
        }
        assert!(!Piece::Goal.score().looping);
    }

    #[test]
    fn bad_scores_are_refused() {
        assert!(parse("c4:4 d4 e4 |", false)
            .unwrap_err()
            .contains("12 sixteenths"));
        assert!(parse("h4:16 |", false).is_err());
        assert!(parse("c4:0 |", false).is_err());
        assert!(parse("x:16", true).is_err());
        assert_eq!(parse("k:8 r |", true).unwrap().len(), 2);
        assert_eq!(pitch("c4"), Some(60));
        assert_eq!(pitch("a4"), Some(69));
        assert_eq!(pitch("f#5"), Some(78));
        for bad in ["", "c", "c#", "h4", "c9", "c44", "#4"] {
            assert_eq!(pitch(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn any_text_is_parsed_or_refused_without_a_panic() {
        const ALPHABET: &[u8] = b"abcdefghkrs#:|0123456789 \n";
        let mut x = 0x9E37_79B9u32;
        let mut refused = 0;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..(x % 40) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                text.push(ALPHABET[x as usize % ALPHABET.len()] as char);
            }
            for drums in [false, true] {
                refused += usize::from(parse(&text, drums).is_err());
            }
        }
        assert!(refused > 0);
        assert!(parse("c4:65535 c4:65535 c4:65535 |", false).is_err());
    }

    #[test]
    fn every_tune_sounds_and_renders_the_same_twice() {
        for t in tunes() {
            let a = render(t, RATE, 600);
            assert!(energy(&a) > 1e-3, "{t:?} is silent");
            assert!(a.iter().all(|x| x.abs() <= 1.0));
            assert_eq!(a, render(t, RATE, 600), "{t:?}");
        }
    }

    /// The melody voice alone, per sample.
    fn melody(t: Tune, rate: u32, frames: u32) -> Vec<f32> {
        let mut s = Sequencer::new(rate);
        s.command(MusicCommand::Play(t));
        let n = (u64::from(frames) * u64::from(rate) / 60) as usize;
        (0..n).map(|_| s.sample()[MELODY]).collect()
    }

    /// The frequency of a square wave from its rising edges.
    fn frequency(s: &[f32], rate: u32) -> f32 {
        let rises = s.windows(2).filter(|w| w[0] <= 0.0 && w[1] > 0.0).count();
        rises as f32 * rate as f32 / s.len() as f32
    }

    #[test]
    fn the_melody_plays_the_written_notes_at_any_sample_rate() {
        for rate in [44_100, 48_000] {
            for t in [
                Tune {
                    piece: Piece::Korobeiniki,
                    fast: false,
                },
                Tune {
                    piece: Piece::Night,
                    fast: true,
                },
            ] {
                let fps = t.frames_per_step();
                let notes = &t.piece.score().voices[MELODY];
                let audio = melody(t, rate, 30 * 60);
                let mut frame = 0;
                for n in &notes[..12] {
                    let len = u32::from(n.steps) * fps;
                    // The note's middle, away from the attack and the gap before the next.
                    let from = ((frame + 1) * rate / 60) as usize;
                    let to = ((frame + len - 1) * rate / 60) as usize;
                    frame += len;
                    if n.pitch == 0 {
                        assert_eq!(energy(&audio[from..to]), 0.0);
                        continue;
                    }
                    let want = 440.0 * ((f32::from(n.pitch) - 69.0) / 12.0).exp2();
                    let got = frequency(&audio[from..to], rate);
                    assert!(
                        (got / want - 1.0).abs() < 0.03,
                        "{t:?} at {rate} Hz: note {} heard at {got} Hz, written {want}",
                        n.pitch
                    );
                }
            }
        }
    }

    #[test]
    fn off_is_silence_and_the_goal_plays_once() {
        let mut s = Sequencer::new(RATE);
        assert!((0..RATE).all(|_| s.sample() == [0.0; VOICES]));
        s.command(MusicCommand::Play(Tune {
            piece: Piece::Garden,
            fast: false,
        }));
        assert!((0..RATE).any(|_| s.sample() != [0.0; VOICES]));
        s.command(MusicCommand::Stop);
        assert!((0..RATE).all(|_| s.sample() == [0.0; VOICES]));
        let goal = Tune {
            piece: Piece::Goal,
            fast: false,
        };
        s.command(MusicCommand::Play(goal));
        let n = goal.loop_frames() * RATE / 60 + 10;
        for _ in 0..n {
            s.sample();
        }
        assert_eq!(s.tune(), None, "the fanfare ended");
        assert!((0..RATE).all(|_| s.sample() == [0.0; VOICES]));
    }

    #[test]
    fn a_held_tune_goes_on_where_it_stood() {
        let t = Tune {
            piece: Piece::Korobeiniki,
            fast: false,
        };
        let straight = melody(t, RATE, 120);
        let mut s = Sequencer::new(RATE);
        s.command(MusicCommand::Play(t));
        let mut heard: Vec<f32> = (0..RATE / 2).map(|_| s.sample()[MELODY]).collect();
        s.command(MusicCommand::Hold(t));
        assert!(s.is_held());
        assert!((0..RATE).all(|_| s.sample() == [0.0; VOICES]));
        s.command(MusicCommand::Resume(t));
        heard.extend((0..RATE * 3 / 2).map(|_| s.sample()[MELODY]));
        assert_eq!(heard, straight);
        // Holding another tune loads it, held; resuming another starts it.
        let other = Tune { fast: true, ..t };
        s.command(MusicCommand::Hold(other));
        assert_eq!((s.tune(), s.is_held()), (Some(other), true));
        s.command(MusicCommand::Resume(t));
        assert_eq!((s.tune(), s.is_held()), (Some(t), false));
    }

    #[test]
    fn the_follower_says_each_change_once() {
        let k = |fast| Track::Game { music: 0, fast };
        let tune = |fast| Tune {
            piece: Piece::Korobeiniki,
            fast,
        };
        let mut f = MusicFollower::default();
        assert_eq!(f.follow(Music::Silent), Some(MusicCommand::Stop));
        assert_eq!(f.follow(Music::Silent), None);
        assert_eq!(
            f.follow(Music::Playing(k(false))),
            Some(MusicCommand::Play(tune(false)))
        );
        assert_eq!(f.follow(Music::Playing(k(false))), None);
        assert_eq!(
            f.follow(Music::Held(k(false))),
            Some(MusicCommand::Hold(tune(false)))
        );
        assert_eq!(
            f.follow(Music::Playing(k(false))),
            Some(MusicCommand::Resume(tune(false)))
        );
        assert_eq!(
            f.follow(Music::Playing(k(true))),
            Some(MusicCommand::Play(tune(true)))
        );
        f.restart();
        assert_eq!(
            f.follow(Music::Playing(k(true))),
            Some(MusicCommand::Play(tune(true)))
        );
        assert_eq!(viewed(Music::Playing(k(true)), true), Music::Held(k(true)));
        assert_eq!(viewed(Music::Silent, true), Music::Silent);
        for (music, piece) in [(1, Piece::Garden), (2, Piece::Night)] {
            let t = Tune::for_track(Track::Game { music, fast: false });
            assert_eq!(t.piece, piece);
        }
        assert_eq!(Tune::for_track(Track::Ending).piece, Piece::Ending);
        assert_eq!(Tune::for_track(Track::HighScore).piece, Piece::HighScore);
        assert_eq!(Tune::for_track(Track::Goal).piece, Piece::Goal);
    }

    /// Steps `g` with `b`, returning the follower's command after the frame.
    fn step(
        g: &mut Game,
        f: &mut MusicFollower,
        b: Buttons,
    ) -> (FrameEvents, Option<MusicCommand>) {
        let ev = g.step(b);
        (ev, f.follow(g.state().music()))
    }

    #[test]
    fn the_commands_follow_the_game() {
        // MUSIC 2 chosen; rows 6-19 full but for column 0, so the pieces land on row 5.
        let mut g = Game::new(GameSetup {
            music_type: 1,
            ..GameSetup::default()
        });
        let mut f = MusicFollower::default();
        let garden = |fast| Tune {
            piece: Piece::Garden,
            fast,
        };
        let mut commands = Vec::new();
        for _ in 0..5 {
            commands.extend(step(&mut g, &mut f, Buttons::NONE).1);
        }
        assert_eq!(commands.last(), Some(&MusicCommand::Play(garden(false))));
        let mut s = g.snapshot();
        for i in 60..200 {
            s.playfield.0[i] = if i % 10 == 0 { 0xEF } else { 0x7B };
        }
        g = Game::from_snapshot(s).unwrap();
        // Pause: held; resume: on.
        assert_eq!(
            step(&mut g, &mut f, Buttons::START).1,
            Some(MusicCommand::Hold(garden(false)))
        );
        assert_eq!(step(&mut g, &mut f, Buttons::NONE).1, None);
        assert_eq!(
            step(&mut g, &mut f, Buttons::START).1,
            Some(MusicCommand::Resume(garden(false)))
        );
        // The fast version, on the frame the engine reports the tempo change.
        let mut fast_at = None;
        for frame in 0..600 {
            let (ev, c) = step(&mut g, &mut f, Buttons::DOWN);
            if ev.has(FrameEvents::MUSIC_TEMPO) {
                assert_eq!(c, Some(MusicCommand::Play(garden(true))));
                fast_at = Some(frame);
                break;
            }
            assert_eq!(c, None, "frame {frame}");
        }
        assert!(fast_at.is_some());
        // Stacking on: the top out stops the music.
        for _ in 0..2_000 {
            let (ev, c) = step(&mut g, &mut f, Buttons::DOWN);
            if ev.has(FrameEvents::TOPPED_OUT) {
                assert_eq!(c, Some(MusicCommand::Stop));
                return;
            }
            assert_eq!(c, None);
        }
        panic!("no top out");
    }

    #[test]
    fn an_effect_takes_its_channel_from_the_music() {
        let t = Tune {
            piece: Piece::Korobeiniki,
            fast: false,
        };
        // Effects at volume 0: what is heard is the music without the effect's channel.
        let mut synth = Synth::with_levels(
            RATE,
            Levels {
                master: 1.0,
                effects: 0.0,
                music: 1.0,
            },
        );
        synth.music(MusicCommand::Play(t));
        synth.play(Sfx::Shift);
        let mut out = vec![0.0; 800];
        synth.render(&mut out);
        let mut s = Sequencer::new(RATE);
        s.command(MusicCommand::Play(t));
        let want: Vec<f32> = (0..800)
            .map(|_| {
                let v = s.sample();
                (v[MELODY] + v[BASS] + v[DRUMS]) * 0.5
            })
            .collect();
        assert_eq!(out, want);
        assert!(energy(&out) > 1e-3);
    }

    #[test]
    fn music_volume_zero_or_music_off_is_silent_and_off_stands_still() {
        let t = Tune {
            piece: Piece::Night,
            fast: false,
        };
        let mut synth = Synth::with_levels(
            RATE,
            Levels {
                master: 1.0,
                effects: 1.0,
                music: 0.0,
            },
        );
        synth.music(MusicCommand::Play(t));
        let mut out = vec![1.0; 4_800];
        synth.render(&mut out);
        assert_eq!(energy(&out), 0.0);
        let mut synth = Synth::with_levels(RATE, Levels::master(1.0));
        synth.music(MusicCommand::Play(t));
        synth.set_music_on(false);
        synth.render(&mut out);
        assert_eq!(energy(&out), 0.0);
        synth.set_music_on(true);
        synth.render(&mut out);
        // From the tune's beginning: nothing was played while off.
        assert_eq!(
            out,
            render(t, RATE, 6)
                .iter()
                .map(|x| x * 0.5)
                .collect::<Vec<_>>()
        );
        assert_eq!(synth.sequencer().tune(), Some(t));
    }

    #[test]
    fn a_wav_file_holds_the_samples() {
        let w = wav(&[0.0, 1.0, -1.0], 44_100);
        assert_eq!(w.len(), 44 + 6);
        assert_eq!(&w[..4], b"RIFF");
        assert_eq!(&w[8..16], b"WAVEfmt ");
        assert_eq!(u32::from_le_bytes([w[24], w[25], w[26], w[27]]), 44_100);
        assert_eq!(&w[36..40], b"data");
        assert_eq!(i16::from_le_bytes([w[46], w[47]]), 32_767);
        assert_eq!(i16::from_le_bytes([w[48], w[49]]), -32_767);
    }
}
