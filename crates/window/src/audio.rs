//! The sound device (through cpal): effects and music commands are sent from the game's
//! frame to the device's callback, which runs the [`Synth`].
//!
//! No device, or one that will not open, is no reason to stop: the game plays on in
//! silence after a one-line notice on stderr. Muting, and the music on or off, are flags
//! the callback reads. Music commands are sent even while muted, so that the right tune
//! is playing when the sound comes back.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{
    BufferSize, FromSample, SampleFormat, SizedSample, Stream, StreamConfig, SupportedBufferSize,
};

use crate::music::MusicCommand;
use crate::sfx::{Levels, Sfx, Synth};

/// What the game tells the sound thread.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Request {
    Effect(Sfx),
    Music(MusicCommand),
}

/// The sound output, or silence if there is none.
pub struct Audio {
    stream: Option<Stream>,
    tx: Sender<Request>,
    muted: Arc<AtomicBool>,
    music_on: Arc<AtomicBool>,
}

impl std::fmt::Debug for Audio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Audio")
            .field("device", &self.stream.is_some())
            .field("muted", &self.is_muted())
            .field("music_on", &self.music_on())
            .finish()
    }
}

impl Audio {
    /// Opens the default output device at `levels`.
    pub fn start(levels: Levels, muted: bool) -> Audio {
        let (tx, rx) = channel();
        let muted = Arc::new(AtomicBool::new(muted));
        let music_on = Arc::new(AtomicBool::new(true));
        let flags = Flags {
            muted: Arc::clone(&muted),
            music_on: Arc::clone(&music_on),
        };
        let stream = match open(rx, levels, flags) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("nestris: no sound ({e}); playing on in silence");
                None
            }
        };
        Audio {
            stream,
            tx,
            muted,
            music_on,
        }
    }

    /// Silence without a device.
    #[cfg(test)]
    pub fn none() -> Audio {
        let (tx, _) = channel();
        Audio {
            stream: None,
            tx,
            muted: Arc::new(AtomicBool::new(true)),
            music_on: Arc::new(AtomicBool::new(true)),
        }
    }

    /// Plays an effect (nothing when muted or without a device).
    pub fn play(&self, sfx: Sfx) {
        if self.stream.is_some() && !self.is_muted() {
            // A closed device only means silence.
            let _ = self.tx.send(Request::Effect(sfx));
        }
    }

    /// Tells the music what to do (also while muted, so that it follows the game).
    pub fn music(&self, c: MusicCommand) {
        if self.stream.is_some() {
            let _ = self.tx.send(Request::Music(c));
        }
    }

    /// Music on or off (the effects play on).
    pub fn set_music_on(&self, on: bool) {
        self.music_on.store(on, Ordering::Relaxed);
    }

    /// True while the music is on.
    pub fn music_on(&self) -> bool {
        self.music_on.load(Ordering::Relaxed)
    }

    /// Sound off or on.
    pub fn set_muted(&self, muted: bool) {
        self.muted.store(muted, Ordering::Relaxed);
    }

    /// True while the sound is off.
    pub fn is_muted(&self) -> bool {
        self.muted.load(Ordering::Relaxed)
    }
}

/// On Linux: is there any sign of a sound card or a sound server? Without one, opening
/// ALSA's default device only fills stderr with ALSA's own complaints.
#[cfg(target_os = "linux")]
fn sound_available() -> bool {
    use std::path::Path;
    let card = std::fs::read_dir("/dev/snd").is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("pcm"))
    });
    let server = std::env::var_os("PULSE_SERVER").is_some()
        || std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| {
            let d = Path::new(&d);
            d.join("pulse/native").exists() || d.join("pipewire-0").exists()
        });
    let configured = Path::new("/etc/asound.conf").exists()
        || std::env::var_os("HOME").is_some_and(|h| Path::new(&h).join(".asoundrc").exists());
    card || server || configured
}

#[cfg(not(target_os = "linux"))]
fn sound_available() -> bool {
    true
}

/// Why there is no sound, in a few words.
type NoSound = String;

/// The flags the callback reads.
struct Flags {
    muted: Arc<AtomicBool>,
    music_on: Arc<AtomicBool>,
}

fn open(rx: Receiver<Request>, levels: Levels, flags: Flags) -> Result<Stream, NoSound> {
    if !sound_available() {
        return Err("no sound card or sound server found".into());
    }
    let host = cpal::default_host();
    let device = host.default_output_device().ok_or("no output device")?;
    let supported = device.default_output_config().map_err(|e| e.to_string())?;
    let format = supported.sample_format();
    let mut config: StreamConfig = supported.config();
    // A short buffer keeps the sound close to its frame (about 11 ms at 48 kHz); a
    // device that refuses it gets its default.
    if let SupportedBufferSize::Range { min, max } = supported.buffer_size() {
        config.buffer_size = BufferSize::Fixed(LOW_LATENCY_FRAMES.clamp(*min, *max));
    }
    let shared = Shared {
        rx: Arc::new(Mutex::new(rx)),
        levels,
        flags,
    };
    let stream = match build_any(&device, &config, format, &shared) {
        Ok(s) => s,
        Err(_) if config.buffer_size != BufferSize::Default => {
            config.buffer_size = BufferSize::Default;
            build_any(&device, &config, format, &shared)?
        }
        Err(e) => return Err(e),
    };
    stream.play().map_err(|e| e.to_string())?;
    Ok(stream)
}

/// Frames per device buffer asked for.
const LOW_LATENCY_FRAMES: u32 = 512;

/// What the device callback shares with the game.
struct Shared {
    rx: Arc<Mutex<Receiver<Request>>>,
    levels: Levels,
    flags: Flags,
}

fn build_any(
    device: &cpal::Device,
    config: &StreamConfig,
    format: SampleFormat,
    shared: &Shared,
) -> Result<Stream, NoSound> {
    match format {
        SampleFormat::F32 => build::<f32>(device, config, shared),
        SampleFormat::I16 => build::<i16>(device, config, shared),
        SampleFormat::U16 => build::<u16>(device, config, shared),
        SampleFormat::I32 => build::<i32>(device, config, shared),
        other => Err(format!("unsupported sample format {other}")),
    }
}

fn build<T>(
    device: &cpal::Device,
    config: &StreamConfig,
    shared: &Shared,
) -> Result<Stream, NoSound>
where
    T: SizedSample + FromSample<f32>,
{
    let channels = usize::from(config.channels.max(1));
    // Built here, before the device runs: the callback allocates nothing (but for the
    // mono buffer, should a device ask for more than this at once).
    let mut synth = Synth::with_levels(config.sample_rate.0, shared.levels);
    let mut mono = Vec::with_capacity(8_192);
    let rx = Arc::clone(&shared.rx);
    let muted = Arc::clone(&shared.flags.muted);
    let music_on = Arc::clone(&shared.flags.music_on);
    let stream = device
        .build_output_stream(
            config,
            move |data: &mut [T], _| {
                // Only this callback ever takes the lock.
                if let Ok(rx) = rx.try_lock() {
                    while let Ok(r) = rx.try_recv() {
                        match r {
                            Request::Effect(sfx) => synth.play(sfx),
                            Request::Music(c) => synth.music(c),
                        }
                    }
                }
                let frames = data.len() / channels;
                mono.resize(frames, 0.0);
                if muted.load(Ordering::Relaxed) {
                    // Muted, the music stands still where it is.
                    synth.silence();
                    mono.fill(0.0);
                } else {
                    synth.set_music_on(music_on.load(Ordering::Relaxed));
                    synth.render(&mut mono);
                }
                for (out, &s) in data.chunks_mut(channels).zip(&mono) {
                    out.fill(T::from_sample(s));
                }
            },
            |e| eprintln!("nestris: sound device error: {e}"),
            None,
        )
        .map_err(|e| e.to_string())?;
    Ok(stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn silence_without_a_device() {
        let a = Audio::none();
        a.play(Sfx::Tetris);
        assert!(a.is_muted());
        a.set_muted(false);
        assert!(!a.is_muted());
        a.play(Sfx::Shift);
        a.music(MusicCommand::Stop);
        assert!(a.music_on());
        a.set_music_on(false);
        assert!(!a.music_on());
        assert!(format!("{a:?}").contains("device: false"));
    }
}
