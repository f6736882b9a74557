//! The picture the window shows: the NES frame (with the HUD panel beside it when it is
//! on) and the window's own overlays, composed at 1x; then scaled into the window by
//! whole multiples.

use nestris_render::Frame;

use crate::font;

/// A 0RGB picture of any size.
#[derive(Clone, PartialEq, Eq)]
pub struct Canvas {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// `pixels[y * width + x]`.
    pub pixels: Vec<u32>,
}

impl std::fmt::Debug for Canvas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Canvas({}x{})", self.width, self.height)
    }
}

impl Canvas {
    /// A black canvas.
    pub fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![0; width * height],
        }
    }

    /// The pixel at (x, y).
    pub fn pixel(&self, x: usize, y: usize) -> u32 {
        self.pixels[y * self.width + x]
    }

    /// Copies the frame (the NES picture, with the HUD beside it if drawn) to the
    /// top-left corner.
    pub fn blit_frame(&mut self, frame: &Frame) {
        let (fw, w) = (frame.width(), frame.width().min(self.width));
        for y in 0..frame.height().min(self.height) {
            self.pixels[y * self.width..y * self.width + w]
                .copy_from_slice(&frame.pixels[y * fw..y * fw + w]);
        }
    }

    /// Copies `src` with its top-left corner at (x, y), clipped to this canvas.
    pub fn blit(&mut self, src: &Canvas, x: usize, y: usize) {
        let w = src.width.min(self.width.saturating_sub(x));
        for row in 0..src.height.min(self.height.saturating_sub(y)) {
            let to = (y + row) * self.width + x;
            self.pixels[to..to + w].copy_from_slice(&src.pixels[row * src.width..][..w]);
        }
    }

    /// Fills a rectangle, clipped to the canvas.
    pub fn fill_rect(&mut self, x: i32, y: i32, w: i32, h: i32, rgb: u32) {
        let x0 = x.clamp(0, self.width as i32) as usize;
        let x1 = (x + w).clamp(0, self.width as i32) as usize;
        let y0 = y.clamp(0, self.height as i32) as usize;
        let y1 = (y + h).clamp(0, self.height as i32) as usize;
        for row in y0..y1 {
            self.pixels[row * self.width + x0..row * self.width + x1].fill(rgb);
        }
    }

    /// A one-pixel rectangle outline.
    pub fn outline(&mut self, x: i32, y: i32, w: i32, h: i32, rgb: u32) {
        self.fill_rect(x, y, w, 1, rgb);
        self.fill_rect(x, y + h - 1, w, 1, rgb);
        self.fill_rect(x, y, 1, h, rgb);
        self.fill_rect(x + w - 1, y, 1, h, rgb);
    }

    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` wide.
    pub fn text(&mut self, x: i32, y: i32, text: &str, rgb: u32, scale: i32) {
        for (i, c) in text.chars().enumerate() {
            let gx = x + i as i32 * (font::W + 1) * scale;
            for (row, bits) in font::glyph(c).iter().enumerate() {
                for col in 0..font::W {
                    if bits & (0x10 >> col) != 0 {
                        self.fill_rect(gx + col * scale, y + row as i32 * scale, scale, scale, rgb);
                    }
                }
            }
        }
    }

    /// Copies the canvas into `dst` (`dst_w` x `dst_h`) at the largest whole scale that
    /// fits, centred on black; a window smaller than the canvas gets it shrunk by
    /// dropping pixels. Returns the scale used (0 when shrunk).
    pub fn scale_into(&self, dst: &mut [u32], dst_w: usize, dst_h: usize) -> usize {
        let dst = &mut dst[..dst_w * dst_h];
        dst.fill(0);
        let (sw, sh) = (self.width, self.height);
        if dst_w == 0 || dst_h == 0 || sw == 0 || sh == 0 {
            return 0;
        }
        let scale = (dst_w / sw).min(dst_h / sh);
        if scale == 0 {
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
                    dst[(oy + y) * dst_w + ox + x] = self.pixels[sy * sw + x * den / num];
                }
            }
            return 0;
        }
        let (w, h) = (sw * scale, sh * scale);
        let (ox, oy) = ((dst_w - w) / 2, (dst_h - h) / 2);
        for sy in 0..sh {
            let src = &self.pixels[sy * sw..(sy + 1) * sw];
            let first = (oy + sy * scale) * dst_w + ox;
            for (chunk, &p) in dst[first..first + w].chunks_exact_mut(scale).zip(src) {
                chunk.fill(p);
            }
            for k in 1..scale {
                dst.copy_within(first..first + w, first + k * dst_w);
            }
        }
        scale
    }

    /// Where a point of a `dst_w` x `dst_h` window falls on the canvas as
    /// [`Canvas::scale_into`] places it: canvas pixels, fractional, and outside the
    /// canvas (negative, or past its size) for points on the black border.
    pub fn canvas_point(&self, dst_w: usize, dst_h: usize, x: f64, y: f64) -> Option<(f64, f64)> {
        let (sw, sh) = (self.width, self.height);
        if dst_w == 0 || dst_h == 0 || sw == 0 || sh == 0 {
            return None;
        }
        // The picture is `sw * num / den` wide (`scale_into`'s two cases).
        let scale = (dst_w / sw).min(dst_h / sh);
        let (num, den) = if scale > 0 {
            (scale, 1)
        } else if dst_w * sh <= dst_h * sw {
            (dst_w, sw)
        } else {
            (dst_h, sh)
        };
        let (w, h) = (sw * num / den, sh * num / den);
        let (ox, oy) = ((dst_w - w) / 2, (dst_h - h) / 2);
        let k = den as f64 / num as f64;
        Some(((x - ox as f64) * k, (y - oy as f64) * k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_render::{HEIGHT, WIDTH};

    #[test]
    fn scaling_matches_the_renderers_own_for_a_bare_frame() {
        let mut f = Frame::new();
        f.set(0, 0, 0x112233);
        f.set(255, 239, 0x445566);
        f.set(100, 50, 0x778899);
        let mut c = Canvas::new(WIDTH, HEIGHT);
        c.blit_frame(&f);
        for (w, h) in [(768, 720), (800, 500), (1000, 1000), (128, 200)] {
            let mut ours = vec![7; w * h];
            let mut theirs = vec![7; w * h];
            c.scale_into(&mut ours, w, h);
            nestris_render::scale_into(&f, &mut theirs, w, h);
            assert!(ours == theirs, "{w}x{h}");
        }
    }

    #[test]
    fn a_wide_canvas_scales_by_its_width() {
        let mut c = Canvas::new(352, 240);
        c.fill_rect(351, 0, 1, 1, 0xABCDEF);
        let (w, h) = (1100, 720);
        let mut dst = vec![0; w * h];
        // 3x is 1056x720: fits.
        assert_eq!(c.scale_into(&mut dst, w, h), 3);
        let ox = (1100 - 1056) / 2;
        assert_eq!(dst[ox + 1055], 0xABCDEF);
        assert_eq!(dst[ox + 1053], 0xABCDEF);
        assert_eq!(dst[ox + 1052], 0);
    }

    #[test]
    fn window_points_map_back_to_canvas_pixels() {
        let mut c = Canvas::new(352, 264);
        c.fill_rect(100, 250, 4, 4, 0xABCDEF);
        for (w, h) in [(1056, 792), (1200, 800), (300, 200), (352, 264)] {
            let mut dst = vec![0; w * h];
            c.scale_into(&mut dst, w, h);
            let i = dst.iter().position(|&p| p == 0xABCDEF).unwrap();
            let (x, y) = c
                .canvas_point(w, h, (i % w) as f64 + 0.5, (i / w) as f64 + 0.5)
                .unwrap();
            // The first shown pixel of the block (a shrunk picture drops some).
            assert!((100.0..101.5).contains(&x), "{w}x{h}: {x}");
            assert!((250.0..251.5).contains(&y), "{w}x{h}: {y}");
        }
        let (x, _) = c.canvas_point(1200, 800, 0.0, 0.0).unwrap();
        assert!(x < 0.0, "the border left of the picture");
        assert_eq!(c.canvas_point(0, 10, 1.0, 1.0), None);
        let mut small = Canvas::new(2, 2);
        small.blit(&c, 0, 0);
        c.blit(&Canvas::new(10, 10), 348, 260);
        assert_eq!(c.pixel(351, 263), 0);
    }

    #[test]
    fn text_and_shapes_are_clipped() {
        let mut c = Canvas::new(20, 10);
        c.text(-3, -3, "A?", 0xFFFFFF, 2);
        c.outline(0, 0, 20, 10, 0x00FF00);
        c.fill_rect(15, 5, 100, 100, 0xFF0000);
        assert_eq!(c.pixel(0, 9), 0x00FF00);
        assert_eq!(c.pixel(19, 9), 0xFF0000);
        // The 'A' top bar at scale 2 lands on row 0 (from y -3 + ... ) somewhere.
        assert!(c.pixels.contains(&0xFFFFFF));
        assert_eq!(format!("{c:?}"), "Canvas(20x10)");
    }
}
