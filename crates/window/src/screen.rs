//! The window and its picture: winit opens it, softbuffer shows a [`Canvas`] in it,
//! scaled by whole multiples. Shared by the game and the replay viewer.

use std::num::NonZeroU32;
use std::rc::Rc;

use crate::error::WindowError;
use softbuffer::{Context, Surface};
use winit::dpi::PhysicalSize;
use winit::event_loop::ActiveEventLoop;
use winit::window::{Fullscreen, Window};

use crate::canvas::Canvas;

/// winit's OS errors read "os error at FILE:LINE: what"; the player needs only "what".
pub fn without_source_location(e: &dyn std::fmt::Display) -> String {
    let s = e.to_string();
    match s
        .strip_prefix("os error at ")
        .and_then(|rest| rest.split_once(": "))
    {
        Some((_, what)) => what.to_string(),
        None => s,
    }
}

/// An open window that shows canvases.
pub struct Screen {
    window: Rc<Window>,
    surface: Surface<Rc<Window>, Rc<Window>>,
    size: (u32, u32),
}

impl Screen {
    /// Opens a window for a canvas of `(w, h)` pixels at `scale` times that size (it may
    /// be resized down to half the canvas, or made fullscreen).
    pub fn open(
        event_loop: &ActiveEventLoop,
        title: &str,
        (w, h): (usize, usize),
        scale: u32,
        fullscreen: bool,
    ) -> crate::error::Result<Screen> {
        let (w, h) = (w as u32, h as u32);
        let mut attrs = Window::default_attributes()
            .with_title(title)
            .with_inner_size(PhysicalSize::new(w * scale, h * scale))
            .with_min_inner_size(PhysicalSize::new(w / 2, h / 2))
            .with_resizable(true);
        if fullscreen {
            attrs = attrs.with_fullscreen(Some(Fullscreen::Borderless(None)));
        }
        let window = Rc::new(event_loop.create_window(attrs).map_err(|e| {
            WindowError::NoDisplay(format!(
                "cannot open a window: {}",
                without_source_location(&e)
            ))
        })?);
        let context = Context::new(Rc::clone(&window))
            .map_err(|e| WindowError::NoDisplay(format!("cannot draw to the display: {e}")))?;
        let surface = Surface::new(&context, Rc::clone(&window))
            .map_err(|e| WindowError::Draw(format!("draw to the window: {e}")))?;
        Ok(Screen {
            window,
            surface,
            size: (0, 0),
        })
    }

    /// Makes the window fit a canvas of `(w, h)` pixels at `scale` times that size (a
    /// fullscreen window keeps its size: the picture is scaled into it), titled `title`.
    pub fn fit(&self, title: &str, (w, h): (usize, usize), scale: u32) {
        let (w, h) = (w as u32, h as u32);
        self.window.set_title(title);
        self.window
            .set_min_inner_size(Some(PhysicalSize::new(w / 2, h / 2)));
        if self.window.fullscreen().is_none() {
            // The window system may refuse or resize later: a Resized event then follows.
            let _ = self
                .window
                .request_inner_size(PhysicalSize::new(w * scale, h * scale));
        }
        self.window.request_redraw();
    }

    /// Borderless fullscreen on or off; returns the new state.
    pub fn toggle_fullscreen(&self) -> bool {
        let full = self.window.fullscreen().is_none();
        self.window
            .set_fullscreen(full.then_some(Fullscreen::Borderless(None)));
        full
    }

    /// Shows `canvas`, scaled to the window (nothing while the window is minimised).
    pub fn present(&mut self, canvas: &Canvas) -> crate::error::Result<()> {
        let size = self.window.inner_size();
        let (Some(w), Some(h)) = (NonZeroU32::new(size.width), NonZeroU32::new(size.height)) else {
            return Ok(());
        };
        if self.size != (size.width, size.height) {
            self.surface
                .resize(w, h)
                .map_err(|e| WindowError::Draw(format!("resize the picture: {e}")))?;
            self.size = (size.width, size.height);
        }
        let mut buffer = self
            .surface
            .buffer_mut()
            .map_err(|e| WindowError::Draw(format!("draw to the window: {e}")))?;
        canvas.scale_into(&mut buffer, size.width as usize, size.height as usize);
        self.window.pre_present_notify();
        buffer
            .present()
            .map_err(|e| WindowError::Draw(format!("show the picture: {e}")))
    }

    /// The canvas point under the window position (x, y), as [`Canvas::canvas_point`].
    pub fn to_canvas(&self, canvas: &Canvas, x: f64, y: f64) -> Option<(f64, f64)> {
        let size = self.window.inner_size();
        canvas.canvas_point(size.width as usize, size.height as usize, x, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_errors_lose_their_source_location() {
        let e = "os error at /src/linux/mod.rs:765: neither DISPLAY nor WAYLAND_DISPLAY is set.";
        assert_eq!(
            without_source_location(&e),
            "neither DISPLAY nor WAYLAND_DISPLAY is set."
        );
        assert_eq!(without_source_location(&"plain"), "plain");
    }
}
