//! The sound effects: which ones a frame calls for, and a small NES-style synthesizer
//! (two pulse channels, a triangle, a noise channel) that plays them.
//!
//! Every effect is our own: short note sequences on the four channels, one step per
//! 60 Hz frame like a cartridge's sound engine. [`cues`] maps a frame's
//! [`FrameEvents`] to effects; [`Synth`] turns effects into samples and knows nothing
//! of devices, so it is tested without one. The music ([`crate::music`]) plays through
//! the same synthesizer, on the channels the effects leave free.

use nestris_core::{FrameEvents, Snapshot};

use crate::music::{MusicCommand, Sequencer, VOICES};

/// A sound effect.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sfx {
    /// The piece moved sideways.
    Shift,
    /// The piece rotated.
    Rotate,
    /// The piece locked.
    Lock,
    /// One to three lines cleared.
    LineClear,
    /// Four lines cleared.
    Tetris,
    /// The level went up (or a B-type game was won).
    LevelUp,
    /// Pause or resume.
    Pause,
    /// The stack topped out.
    GameOver,
    /// A menu cursor moved or a choice was made.
    MenuBeep,
}

/// The effects a frame calls for; `s` is the state after it. The line-clear sound starts
/// when the row check has found the rows ([`FrameEvents::CLEAR_STARTED`]), when it is
/// known whether it is a tetris.
pub fn cues(ev: &FrameEvents, s: &Snapshot) -> Vec<Sfx> {
    let mut out = Vec::new();
    if ev.has(FrameEvents::MENU_BEEP) {
        out.push(Sfx::MenuBeep);
    }
    if ev.has(FrameEvents::TOPPED_OUT) {
        out.push(Sfx::GameOver);
        return out;
    }
    if ev.has(FrameEvents::PAUSED) || ev.has(FrameEvents::RESUMED) {
        out.push(Sfx::Pause);
    }
    if ev.has(FrameEvents::CLEAR_STARTED) {
        out.push(if s.completed_lines >= 4 {
            Sfx::Tetris
        } else {
            Sfx::LineClear
        });
    } else if ev.has(FrameEvents::LOCKED) {
        out.push(Sfx::Lock);
    }
    if ev.has(FrameEvents::LEVEL_UP) || ev.has(FrameEvents::B_TYPE_WON) {
        out.push(Sfx::LevelUp);
    }
    if ev.has(FrameEvents::ROTATED) {
        out.push(Sfx::Rotate);
    } else if ev.has(FrameEvents::SHIFTED) {
        out.push(Sfx::Shift);
    }
    out
}

/// A channel's waveform.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Wave {
    /// Square wave with this duty cycle (0.125, 0.25, 0.5).
    Pulse(f32),
    /// The NES triangle (bass).
    Triangle,
    /// The 15-bit LFSR noise, clocked at the note's frequency.
    Noise,
}

/// One step of an effect: `frames` sixtieths of a second at `freq` Hz (0 = rest),
/// volume `vol` (0..1), fading to silence over the step if `decay`.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Note {
    frames: u16,
    freq: f32,
    vol: f32,
    decay: bool,
}

const fn n(frames: u16, freq: f32, vol: f32) -> Note {
    Note {
        frames,
        freq,
        vol,
        decay: false,
    }
}

const fn d(frames: u16, freq: f32, vol: f32) -> Note {
    Note {
        frames,
        freq,
        vol,
        decay: true,
    }
}

/// A sequence on one channel (0, 1 pulse; 2 triangle; 3 noise).
#[derive(Clone, Copy, Debug)]
struct Track {
    channel: usize,
    wave: Wave,
    notes: &'static [Note],
}

// Equal-tempered pitches (Hz) used below.
const C3: f32 = 130.81;
const G3: f32 = 196.00;
const C4: f32 = 261.63;
const C5: f32 = 523.25;
const CS5: f32 = 554.37;
const D5: f32 = 587.33;
const DS5: f32 = 622.25;
const E5: f32 = 659.26;
const F5: f32 = 698.46;
const FS5: f32 = 739.99;
const G5: f32 = 783.99;
const A5: f32 = 880.00;
const C6: f32 = 1046.50;
const D6: f32 = 1174.66;
const E6: f32 = 1318.51;
const G6: f32 = 1567.98;
const A6: f32 = 1760.00;
const B6: f32 = 1975.53;
const C7: f32 = 2093.00;

/// The tracks of each effect.
fn tracks(sfx: Sfx) -> &'static [Track] {
    const P1: usize = 0;
    const P2: usize = 1;
    const TRI: usize = 2;
    const NOISE: usize = 3;
    match sfx {
        Sfx::Shift => {
            const T: &[Track] = &[Track {
                channel: P1,
                wave: Wave::Pulse(0.25),
                notes: &[d(3, G6, 0.30)],
            }];
            T
        }
        Sfx::Rotate => {
            const T: &[Track] = &[Track {
                channel: P1,
                wave: Wave::Pulse(0.5),
                notes: &[n(2, C6, 0.28), d(3, G6, 0.28)],
            }];
            T
        }
        Sfx::Lock => {
            const T: &[Track] = &[Track {
                channel: NOISE,
                wave: Wave::Noise,
                notes: &[d(7, 3_500.0, 0.55)],
            }];
            T
        }
        Sfx::LineClear => {
            const T: &[Track] = &[
                Track {
                    channel: P2,
                    wave: Wave::Pulse(0.5),
                    notes: &[
                        n(3, C6, 0.30),
                        n(3, A5, 0.30),
                        n(3, F5, 0.30),
                        n(3, D5, 0.28),
                        d(10, C5, 0.28),
                    ],
                },
                Track {
                    channel: NOISE,
                    wave: Wave::Noise,
                    notes: &[d(18, 9_000.0, 0.35)],
                },
            ];
            T
        }
        Sfx::Tetris => {
            const T: &[Track] = &[
                Track {
                    channel: P2,
                    wave: Wave::Pulse(0.25),
                    notes: &[
                        n(3, C5, 0.32),
                        n(3, E5, 0.32),
                        n(3, G5, 0.32),
                        n(3, C6, 0.32),
                        n(3, E6, 0.32),
                        n(3, G6, 0.32),
                        d(20, C7, 0.32),
                    ],
                },
                Track {
                    channel: TRI,
                    wave: Wave::Triangle,
                    notes: &[n(18, C4, 0.6), d(20, C3, 0.6)],
                },
                Track {
                    channel: NOISE,
                    wave: Wave::Noise,
                    notes: &[d(24, 12_000.0, 0.3)],
                },
            ];
            T
        }
        Sfx::LevelUp => {
            const T: &[Track] = &[Track {
                channel: P2,
                wave: Wave::Pulse(0.5),
                notes: &[
                    n(2, G5, 0.3),
                    n(2, C6, 0.3),
                    n(2, E6, 0.3),
                    n(2, G6, 0.3),
                    n(2, G5, 0.25),
                    n(2, C6, 0.25),
                    n(2, E6, 0.25),
                    d(8, G6, 0.25),
                ],
            }];
            T
        }
        Sfx::Pause => {
            const T: &[Track] = &[Track {
                channel: P1,
                wave: Wave::Pulse(0.5),
                notes: &[n(3, E6, 0.3), n(2, 0.0, 0.0), n(3, E6, 0.3), d(8, B6, 0.3)],
            }];
            T
        }
        Sfx::GameOver => {
            const T: &[Track] = &[
                Track {
                    channel: P2,
                    wave: Wave::Pulse(0.5),
                    notes: &[
                        n(5, G5, 0.3),
                        n(5, FS5, 0.3),
                        n(5, F5, 0.3),
                        n(5, E5, 0.3),
                        n(5, DS5, 0.28),
                        n(5, D5, 0.26),
                        n(5, CS5, 0.24),
                        d(20, C5, 0.24),
                    ],
                },
                Track {
                    channel: TRI,
                    wave: Wave::Triangle,
                    notes: &[n(20, G3, 0.6), d(40, C3, 0.6)],
                },
                Track {
                    channel: NOISE,
                    wave: Wave::Noise,
                    notes: &[d(40, 1_500.0, 0.4)],
                },
            ];
            T
        }
        Sfx::MenuBeep => {
            const T: &[Track] = &[Track {
                channel: P1,
                wave: Wave::Pulse(0.25),
                notes: &[n(2, A6, 0.25), d(3, D6, 0.2)],
            }];
            T
        }
    }
}

/// One channel playing a track.
#[derive(Clone, Debug)]
struct Voice {
    wave: Wave,
    notes: &'static [Note],
    index: usize,
    /// Samples played of the current note, and its length.
    pos: u32,
    len: u32,
    phase: f32,
    lfsr: u16,
}

impl Voice {
    fn new(track: &Track, sample_rate: u32) -> Voice {
        let mut v = Voice {
            wave: track.wave,
            notes: track.notes,
            index: 0,
            pos: 0,
            len: 0,
            phase: 0.0,
            lfsr: 1,
        };
        v.len = v.note_len(sample_rate);
        v
    }

    fn note_len(&self, sample_rate: u32) -> u32 {
        self.notes
            .get(self.index)
            .map_or(0, |n| u32::from(n.frames) * sample_rate / 60)
    }

    /// The next sample, or `None` when the track has ended.
    fn next(&mut self, sample_rate: u32) -> Option<f32> {
        while self.pos >= self.len {
            self.index += 1;
            if self.index >= self.notes.len() {
                return None;
            }
            self.pos = 0;
            self.len = self.note_len(sample_rate);
        }
        let note = self.notes[self.index];
        let mut vol = note.vol;
        if note.decay {
            vol *= 1.0 - self.pos as f32 / self.len as f32;
        }
        self.pos += 1;
        if note.freq <= 0.0 {
            return Some(0.0);
        }
        self.phase += note.freq / sample_rate as f32;
        let out = match self.wave {
            Wave::Pulse(duty) => {
                self.phase = self.phase.fract();
                if self.phase < duty {
                    1.0
                } else {
                    -1.0
                }
            }
            Wave::Triangle => {
                self.phase = self.phase.fract();
                4.0 * (self.phase - 0.5).abs() - 1.0
            }
            Wave::Noise => {
                while self.phase >= 1.0 {
                    self.phase -= 1.0;
                    let bit = (self.lfsr ^ (self.lfsr >> 1)) & 1;
                    self.lfsr = (self.lfsr >> 1) | (bit << 14);
                }
                if self.lfsr & 1 == 0 {
                    1.0
                } else {
                    -1.0
                }
            }
        };
        Some(out * vol)
    }
}

/// How loud each kind of sound plays, 0..1 each: all of it, the effects, the music.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Levels {
    /// Everything.
    pub master: f32,
    /// The sound effects.
    pub effects: f32,
    /// The music.
    pub music: f32,
}

impl Levels {
    /// Everything at `master`, effects and music at full.
    pub fn master(master: f32) -> Levels {
        Levels {
            master,
            effects: 1.0,
            music: 1.0,
        }
    }
}

/// The four channels, mixed to one signal: the effects, and the music on the channels
/// no effect is using (an effect takes its channel from the music, as on the console).
#[derive(Clone, Debug)]
pub struct Synth {
    sample_rate: u32,
    voices: [Option<Voice>; 4],
    volume: f32,
    effects: f32,
    music_level: f32,
    music: Sequencer,
    music_on: bool,
}

impl Synth {
    /// A silent synthesizer at `sample_rate` Hz with master `volume` (0..1).
    #[cfg(test)]
    pub fn new(sample_rate: u32, volume: f32) -> Synth {
        Synth::with_levels(sample_rate, Levels::master(volume))
    }

    /// A silent synthesizer at `sample_rate` Hz at `levels`.
    pub fn with_levels(sample_rate: u32, levels: Levels) -> Synth {
        let sample_rate = sample_rate.max(1);
        Synth {
            sample_rate,
            voices: [None, None, None, None],
            volume: levels.master.clamp(0.0, 1.0),
            effects: levels.effects.clamp(0.0, 1.0),
            music_level: levels.music.clamp(0.0, 1.0),
            music: Sequencer::new(sample_rate),
            music_on: true,
        }
    }

    /// Starts an effect; its tracks replace whatever their channels were playing.
    pub fn play(&mut self, sfx: Sfx) {
        for t in tracks(sfx) {
            self.voices[t.channel] = Some(Voice::new(t, self.sample_rate));
        }
    }

    /// Tells the music what to do.
    pub fn music(&mut self, c: MusicCommand) {
        self.music.command(c);
    }

    /// The music on or off (off, it stands still where it is and the effects play on).
    pub fn set_music_on(&mut self, on: bool) {
        self.music_on = on;
    }

    /// The music's sequencer.
    #[cfg(test)]
    pub fn sequencer(&self) -> &Sequencer {
        &self.music
    }

    /// Stops every effect (the music stays where it is).
    pub fn silence(&mut self) {
        self.voices = [None, None, None, None];
    }

    /// True while some channel plays an effect.
    #[cfg(test)]
    pub fn is_playing(&self) -> bool {
        self.voices.iter().any(Option::is_some)
    }

    /// Fills `out` with the next mono samples (-1..1).
    pub fn render(&mut self, out: &mut [f32]) {
        for s in out.iter_mut() {
            let music = if self.music_on {
                self.music.sample()
            } else {
                [0.0; VOICES]
            };
            let mut mix = 0.0;
            for (slot, m) in self.voices.iter_mut().zip(music) {
                match slot {
                    Some(v) => match v.next(self.sample_rate) {
                        Some(x) => mix += x * self.effects,
                        None => {
                            *slot = None;
                            mix += m * self.music_level;
                        }
                    },
                    None => mix += m * self.music_level,
                }
            }
            *s = (mix * 0.5 * self.volume).clamp(-1.0, 1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_core::{Buttons, Game, GameSetup};

    fn energy(s: &[f32]) -> f32 {
        s.iter().map(|x| x * x).sum::<f32>() / s.len() as f32
    }

    #[test]
    fn every_effect_sounds_and_ends() {
        for sfx in [
            Sfx::Shift,
            Sfx::Rotate,
            Sfx::Lock,
            Sfx::LineClear,
            Sfx::Tetris,
            Sfx::LevelUp,
            Sfx::Pause,
            Sfx::GameOver,
            Sfx::MenuBeep,
        ] {
            let mut s = Synth::new(48_000, 1.0);
            s.play(sfx);
            let mut buf = vec![0.0; 2_400];
            s.render(&mut buf);
            assert!(energy(&buf) > 1e-4, "{sfx:?} is silent");
            assert!(buf.iter().all(|x| x.abs() <= 1.0));
            // No effect lasts two seconds.
            let mut rest = vec![0.0; 96_000];
            s.render(&mut rest);
            assert!(!s.is_playing(), "{sfx:?} never ends");
        }
    }

    #[test]
    fn shift_is_a_short_high_blip() {
        let mut s = Synth::new(48_000, 1.0);
        s.play(Sfx::Shift);
        let mut buf = vec![0.0; 4_800];
        s.render(&mut buf);
        // Three frames = 2,400 samples of sound, then silence.
        assert!(energy(&buf[..2_000]) > 1e-3);
        assert_eq!(energy(&buf[2_400..]), 0.0);
        // A pulse at G6 crosses zero about 2 x 1568 times a second.
        let crossings = buf[..2_400]
            .windows(2)
            .filter(|w| (w[0] > 0.0) != (w[1] > 0.0) && w[1] != 0.0)
            .count();
        assert!((140..=170).contains(&crossings), "{crossings}");
    }

    #[test]
    fn volume_zero_and_silence() {
        let mut s = Synth::new(44_100, 0.0);
        s.play(Sfx::Tetris);
        let mut buf = vec![1.0; 1_000];
        s.render(&mut buf);
        assert_eq!(energy(&buf), 0.0);
        let mut s = Synth::new(44_100, 1.0);
        s.play(Sfx::Tetris);
        s.silence();
        s.render(&mut buf);
        assert_eq!(energy(&buf), 0.0);
    }

    #[test]
    fn frames_call_for_their_effects() {
        let mut g = Game::new(GameSetup::default());
        let mut heard = Vec::new();
        for i in 0..400 {
            let b = match i % 20 {
                0 => Buttons::LEFT,
                10 => Buttons::A,
                _ => Buttons::DOWN,
            };
            let ev = g.step(b);
            heard.extend(cues(&ev, g.state()));
        }
        for sfx in [Sfx::Shift, Sfx::Rotate, Sfx::Lock] {
            assert!(heard.contains(&sfx), "{sfx:?} in {heard:?}");
        }
        let mut ev = FrameEvents {
            flags: FrameEvents::TOPPED_OUT | FrameEvents::LOCKED,
            lines_cleared: 0,
            ..FrameEvents::default()
        };
        assert_eq!(cues(&ev, g.state()), vec![Sfx::GameOver]);
        ev.flags = FrameEvents::MENU_BEEP;
        assert_eq!(cues(&ev, g.state()), vec![Sfx::MenuBeep]);
        ev.flags = FrameEvents::PAUSED;
        assert_eq!(cues(&ev, g.state()), vec![Sfx::Pause]);
        // The row check found four rows: a tetris.
        let mut s = g.snapshot();
        s.play_state = 4;
        s.completed_lines = 4;
        ev.flags = FrameEvents::CLEAR_STARTED;
        assert_eq!(cues(&ev, &s), vec![Sfx::Tetris]);
        s.completed_lines = 2;
        assert_eq!(cues(&ev, &s), vec![Sfx::LineClear]);
        ev.flags = FrameEvents::LEVEL_UP;
        assert_eq!(cues(&ev, &s), vec![Sfx::LevelUp]);
        // The animation going on is no new clear.
        ev.flags = 0;
        assert_eq!(cues(&ev, &s), vec![]);
    }
}
