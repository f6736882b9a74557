//! The sound device (through cpal): effects are sent from the game's frame to the
//! device's callback, which runs the [`Synth`].
//!
//! No device, or one that will not open, is no reason to stop: the game plays on in
//! silence after a one-line notice on stderr. Muting is a flag the callback reads.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{
    BufferSize, FromSample, SampleFormat, SizedSample, Stream, StreamConfig, SupportedBufferSize,
};

use crate::sfx::{Sfx, Synth};

/// The sound output, or silence if there is none.
pub struct Audio {
    stream: Option<Stream>,
    tx: Sender<Sfx>,
    muted: Arc<AtomicBool>,
}

impl std::fmt::Debug for Audio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Audio")
            .field("device", &self.stream.is_some())
            .field("muted", &self.is_muted())
            .finish()
    }
}

impl Audio {
    /// Opens the default output device at `volume` (0..1).
    pub fn start(volume: f32, muted: bool) -> Audio {
        let (tx, rx) = channel();
        let muted = Arc::new(AtomicBool::new(muted));
        let stream = match open(rx, volume, Arc::clone(&muted)) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("nestris: no sound ({e}); playing on in silence");
                None
            }
        };
        Audio { stream, tx, muted }
    }

    /// Silence without a device.
    #[cfg(test)]
    pub fn none() -> Audio {
        let (tx, _) = channel();
        Audio {
            stream: None,
            tx,
            muted: Arc::new(AtomicBool::new(true)),
        }
    }

    /// Plays an effect (nothing when muted or without a device).
    pub fn play(&self, sfx: Sfx) {
        if self.stream.is_some() && !self.is_muted() {
            // A closed device only means silence.
            let _ = self.tx.send(sfx);
        }
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

fn open(rx: Receiver<Sfx>, volume: f32, muted: Arc<AtomicBool>) -> Result<Stream, NoSound> {
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
        volume,
        muted,
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
    rx: Arc<Mutex<Receiver<Sfx>>>,
    volume: f32,
    muted: Arc<AtomicBool>,
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
    let mut synth = Synth::new(config.sample_rate.0, shared.volume);
    let mut mono = Vec::new();
    let rx = Arc::clone(&shared.rx);
    let muted = Arc::clone(&shared.muted);
    let stream = device
        .build_output_stream(
            config,
            move |data: &mut [T], _| {
                // Only this callback ever takes the lock.
                if let Ok(rx) = rx.try_lock() {
                    while let Ok(sfx) = rx.try_recv() {
                        synth.play(sfx);
                    }
                }
                if muted.load(Ordering::Relaxed) {
                    synth.silence();
                }
                let frames = data.len() / channels;
                mono.resize(frames, 0.0);
                synth.render(&mut mono);
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
        assert!(format!("{a:?}").contains("device: false"));
    }
}
