//! PNG files of frames: small indexed images for golden tests and screenshots.
//!
//! A screen uses a few dozen colours at most, so frames are written as 8-bit indexed
//! PNGs (a few kilobytes); a frame with more than 256 colours falls back to RGB.

use std::io::Cursor;

use crate::frame::Frame;

/// Encodes `frame` as a PNG file.
pub fn encode_png(frame: &Frame) -> Vec<u8> {
    encode_png_pixels(&frame.pixels, frame.width(), frame.height())
}

/// Encodes a `width` x `height` picture of 0RGB pixels (a frame scaled up, say) as a PNG
/// file: indexed when it has at most 256 colours, RGB otherwise.
///
/// # Panics
/// If `pixels` does not hold `width * height` pixels.
pub fn encode_png_pixels(pixels: &[u32], width: usize, height: usize) -> Vec<u8> {
    assert_eq!(pixels.len(), width * height, "a {width}x{height} picture");
    let mut colours: Vec<u32> = pixels.to_vec();
    colours.sort_unstable();
    colours.dedup();
    let mut out = Vec::new();
    let mut enc = ::png::Encoder::new(&mut out, width as u32, height as u32);
    enc.set_depth(::png::BitDepth::Eight);
    enc.set_compression(::png::Compression::High);
    let data: Vec<u8> = if colours.len() <= 256 {
        let palette: Vec<u8> = colours
            .iter()
            .flat_map(|&c| [(c >> 16) as u8, (c >> 8) as u8, c as u8])
            .collect();
        enc.set_color(::png::ColorType::Indexed);
        enc.set_palette(palette);
        pixels
            .iter()
            // The palette is sorted, so a binary search finds each pixel's index.
            .map(|p| colours.binary_search(p).unwrap_or(0) as u8)
            .collect()
    } else {
        enc.set_color(::png::ColorType::Rgb);
        pixels
            .iter()
            .flat_map(|&c| [(c >> 16) as u8, (c >> 8) as u8, c as u8])
            .collect()
    };
    // Writing to a Vec cannot fail, and the header matches the data by construction.
    let mut writer = enc.write_header().expect("PNG header for the picture");
    writer
        .write_image_data(&data)
        .expect("PNG data for the picture");
    writer.finish().expect("PNG end for the picture");
    out
}

/// Why a PNG file is not a frame.
#[derive(Debug)]
pub enum DecodeError {
    /// The bytes are not a PNG file the decoder understands.
    Png(::png::DecodingError),
    /// The image is empty, or wider or taller than [`MAX_SIDE`].
    Size {
        /// The width found.
        width: u32,
        /// The height found.
        height: u32,
    },
    /// The pixel format is not 8-bit RGB or RGBA after expansion.
    Format(String),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Png(e) => write!(f, "not a readable PNG: {e}"),
            DecodeError::Size { width, height } => {
                write!(
                    f,
                    "the image is {width}x{height}, a frame is 1x1 to {MAX_SIDE}x{MAX_SIDE}"
                )
            }
            DecodeError::Format(s) => write!(f, "unsupported pixel format {s}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// The longest side of a picture [`decode_png`] reads: the NES picture with the HUD at
/// 8x is under 3,000 pixels, and a bound keeps a hostile header from asking for gigabytes.
pub const MAX_SIDE: u32 = 4096;

/// Reads a PNG file back into a frame of its size (any colour type the decoder can expand
/// to 8-bit RGB or RGBA; alpha is dropped).
pub fn decode_png(bytes: &[u8]) -> Result<Frame, DecodeError> {
    let mut dec = ::png::Decoder::new(Cursor::new(bytes));
    dec.set_transformations(::png::Transformations::EXPAND | ::png::Transformations::STRIP_16);
    let mut reader = dec.read_info().map_err(DecodeError::Png)?;
    let (width, height) = (reader.info().width, reader.info().height);
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return Err(DecodeError::Size { width, height });
    }
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| DecodeError::Format("too large".into()))?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(DecodeError::Png)?;
    let channels = match info.color_type {
        ::png::ColorType::Rgb => 3,
        ::png::ColorType::Rgba => 4,
        ::png::ColorType::Grayscale => 1,
        ::png::ColorType::GrayscaleAlpha => 2,
        other => return Err(DecodeError::Format(format!("{other:?}"))),
    };
    let mut frame = Frame::with_size(width as usize, height as usize);
    for (i, px) in buf[..info.buffer_size()]
        .chunks_exact(channels)
        .take(frame.pixels.len())
        .enumerate()
    {
        let (r, g, b) = if channels < 3 {
            (px[0], px[0], px[0])
        } else {
            (px[0], px[1], px[2])
        };
        frame.pixels[i] = u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b);
    }
    Ok(frame)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_survive_a_round_trip() {
        let mut f = Frame::new();
        f.fill_rect(10, 20, 30, 40, 0xFC9838);
        f.set(255, 239, 0x123456);
        let back = decode_png(&encode_png(&f)).unwrap();
        assert!(back == f);
    }

    #[test]
    fn many_colours_fall_back_to_rgb() {
        let mut f = Frame::new();
        for (i, p) in f.pixels.iter_mut().enumerate() {
            *p = (i as u32).wrapping_mul(2_654_435_761) & 0xFF_FFFF;
        }
        let back = decode_png(&encode_png(&f)).unwrap();
        assert!(back == f);
    }

    #[test]
    fn wide_pictures_keep_their_size_and_huge_ones_are_refused() {
        let mut f = Frame::with_size(368, 240);
        f.set(367, 239, 0xABCDEF);
        let back = decode_png(&encode_png(&f)).unwrap();
        assert_eq!((back.width(), back.height()), (368, 240));
        assert!(back == f);
        let huge = encode_png_pixels(&vec![0; MAX_SIDE as usize + 1], MAX_SIDE as usize + 1, 1);
        let e = decode_png(&huge).unwrap_err().to_string();
        assert!(e.contains("4097x1"), "{e}");
    }
}
