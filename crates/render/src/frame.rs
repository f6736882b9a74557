//! The picture: 256x240 pixels of 0RGB, the size of one NES video frame (or wider, with
//! the HUD beside it), and its scaling to a window by whole multiples so that the pixels
//! stay square and crisp.

use core::fmt;

/// Width of the NES picture in pixels.
pub const WIDTH: usize = 256;
/// Height of the NES picture in pixels (all 240 lines, overscan included).
pub const HEIGHT: usize = 240;

/// One video frame: `pixels[y * width + x]` as `0x00RRGGBB`, [`WIDTH`] x [`HEIGHT`]
/// unless made wider ([`Frame::with_size`]) for the HUD beside the picture.
#[derive(Clone, PartialEq, Eq)]
pub struct Frame {
    /// The pixels, row by row, `width * height` of them.
    pub pixels: Vec<u32>,
    width: usize,
    height: usize,
}

impl Default for Frame {
    fn default() -> Self {
        Frame::new()
    }
}

impl fmt::Debug for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Sixty thousand numbers help nobody reading a test failure.
        write!(f, "Frame({}x{})", self.width, self.height)
    }
}

impl Frame {
    /// A black frame of the NES picture's size.
    pub fn new() -> Frame {
        Frame::with_size(WIDTH, HEIGHT)
    }

    /// A black picture of any size (the screen with the HUD beside it, say).
    pub fn with_size(width: usize, height: usize) -> Frame {
        Frame {
            pixels: vec![0; width * height],
            width,
            height,
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Copies `src` with its top-left corner at (x, y), clipped to this frame.
    pub fn blit(&mut self, src: &Frame, x: usize, y: usize) {
        let w = src.width.min(self.width.saturating_sub(x));
        for row in 0..src.height.min(self.height.saturating_sub(y)) {
            let to = (y + row) * self.width + x;
            self.pixels[to..to + w].copy_from_slice(&src.pixels[row * src.width..][..w]);
        }
    }

    /// Fills the whole frame with one colour.
    pub fn fill(&mut self, rgb: u32) {
        self.pixels.fill(rgb);
    }

    /// The pixel at (x, y).
    ///
    /// # Panics
    /// If the point is outside the frame.
    #[inline]
    pub fn pixel(&self, x: usize, y: usize) -> u32 {
        assert!(
            x < self.width && y < self.height,
            "pixel ({x}, {y}) is outside the frame"
        );
        self.pixels[y * self.width + x]
    }

    /// Sets one pixel; points outside the frame are ignored, so that shapes may be
    /// partly off screen (a rocket leaving the top, a piece above the field).
    #[inline]
    pub fn set(&mut self, x: i32, y: i32, rgb: u32) {
        if (0..self.width as i32).contains(&x) && (0..self.height as i32).contains(&y) {
            self.pixels[y as usize * self.width + x as usize] = rgb;
        }
    }

    /// Fills a rectangle, clipped to the frame.
    pub fn fill_rect(&mut self, x: i32, y: i32, w: i32, h: i32, rgb: u32) {
        let x0 = x.clamp(0, self.width as i32) as usize;
        let x1 = (x + w).clamp(0, self.width as i32) as usize;
        let y0 = y.clamp(0, self.height as i32) as usize;
        let y1 = (y + h).clamp(0, self.height as i32) as usize;
        for row in y0..y1 {
            self.pixels[row * self.width + x0..row * self.width + x1].fill(rgb);
        }
    }

    /// The frame as RGBA bytes (alpha 255), row by row, for image encoders and textures.
    pub fn to_rgba8(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.pixels.len() * 4);
        for &p in &self.pixels {
            out.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8, 0xFF]);
        }
        out
    }
}

/// Copies `frame` into `dst` (`dst_w` x `dst_h` pixels of 0RGB) at the largest whole
/// scale that fits, centred, with black bars around it.
///
/// A window smaller than the frame gets it shrunk by dropping pixels (nearest
/// neighbour, aspect kept): blurry scaling would show the tiles' edges as smears.
///
/// # Panics
/// If `dst` holds fewer than `dst_w * dst_h` pixels.
pub fn scale_into(frame: &Frame, dst: &mut [u32], dst_w: usize, dst_h: usize) {
    assert!(
        dst.len() >= dst_w * dst_h,
        "destination holds {} pixels, {dst_w}x{dst_h} needs {}",
        dst.len(),
        dst_w * dst_h
    );
    let dst = &mut dst[..dst_w * dst_h];
    dst.fill(0);
    if dst_w == 0 || dst_h == 0 {
        return;
    }
    let (sw, sh) = (frame.width, frame.height);
    if sw == 0 || sh == 0 {
        return;
    }
    let scale = (dst_w / sw).min(dst_h / sh);
    if scale == 0 {
        // Fit by the tighter side: out = in * num / den with num/den < 1.
        let (num, den) = if dst_w * sh <= dst_h * sw {
            (dst_w, sw)
        } else {
            (dst_h, sh)
        };
        let (w, h) = (sw * num / den, sh * num / den);
        let (ox, oy) = ((dst_w - w) / 2, (dst_h - h) / 2);
        for y in 0..h {
            let sy = y * den / num;
            for x in 0..w {
                dst[(oy + y) * dst_w + ox + x] = frame.pixels[sy * sw + x * den / num];
            }
        }
        return;
    }
    let (w, h) = (sw * scale, sh * scale);
    let (ox, oy) = ((dst_w - w) / 2, (dst_h - h) / 2);
    for sy in 0..sh {
        let src = &frame.pixels[sy * sw..(sy + 1) * sw];
        let first = (oy + sy * scale) * dst_w + ox;
        {
            let row = &mut dst[first..first + w];
            for (chunk, &p) in row.chunks_exact_mut(scale).zip(src) {
                chunk.fill(p);
            }
        }
        for k in 1..scale {
            dst.copy_within(first..first + w, first + k * dst_w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked() -> Frame {
        let mut f = Frame::new();
        f.set(0, 0, 0x112233);
        f.set(255, 239, 0x445566);
        f
    }

    #[test]
    fn integer_scale_letterboxes_and_keeps_pixels_square() {
        let f = marked();
        // 3x fits the width (768) but not the height (720 > 500): 2x it is.
        let (w, h) = (800, 500);
        let mut dst = vec![7; w * h];
        scale_into(&f, &mut dst, w, h);
        let (ox, oy) = ((800 - 512) / 2, (500 - 480) / 2);
        assert_eq!(dst[0], 0, "bars are black");
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            assert_eq!(dst[(oy + dy) * w + ox + dx], 0x112233);
        }
        assert_eq!(dst[(oy + 2) * w + ox], 0);
        assert_eq!(dst[(oy + 479) * w + ox + 511], 0x445566);
        assert_eq!(dst[(oy + 480) * w + ox + 511], 0);
    }

    #[test]
    fn a_small_window_still_shows_the_whole_frame() {
        let f = marked();
        let (w, h) = (128, 200);
        let mut dst = vec![7; w * h];
        scale_into(&f, &mut dst, w, h);
        let oy = (200 - 120) / 2;
        assert_eq!(dst[oy * w], 0x112233);
        assert!(dst.iter().all(|&p| p != 7));
    }

    #[test]
    fn rgba_bytes_are_in_order() {
        let f = marked();
        let b = f.to_rgba8();
        assert_eq!(&b[..4], &[0x11, 0x22, 0x33, 0xFF]);
        assert_eq!(b.len(), WIDTH * HEIGHT * 4);
    }
}
