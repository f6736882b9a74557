//! Charts as PNG files with plotters (text in the embedded DejaVu Sans font, so no system
//! fonts are needed).

use anyhow::{anyhow, Result};
use nestris_sim::rng::{Analysis, PIECES};
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};
use std::path::Path;
use std::sync::Once;

fn fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // A failure leaves plotters without the font; drawing text then fails with a message.
        let _ = register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
    });
}

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("cannot draw the chart: {e}")
}

/// Draws a `width` x `height` chart with `paint` and writes it to `path` as a PNG, whole
/// or not at all (plotters' own file writer leaves half a file when it fails).
fn chart(
    path: &Path,
    (width, height): (u32, u32),
    paint: impl FnOnce(&DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>) -> Result<()>,
) -> Result<()> {
    fonts();
    let mut rgb = vec![0u8; width as usize * height as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
        paint(&root)?;
        root.present().map_err(err)?;
    }
    let mut png = Vec::new();
    let mut enc = png::Encoder::new(&mut png, width, height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header()?;
    w.write_image_data(&rgb)?;
    w.finish()?;
    crate::output::write(path, |out| out.write_all(&png))
}

/// The piece name at a whole tick (axis values are piece indices), empty between them.
fn label(v: f64, flipped: bool) -> String {
    let i = v.round();
    if (v - i).abs() > 0.01 || !(0.0..=6.0).contains(&i) {
        return String::new();
    }
    let i = if flipped { 6 - i as usize } else { i as usize };
    PIECES[i].to_string()
}

/// A heat map of P(next | previous) with the percentages written in the cells.
pub fn heat_map(path: &Path, a: &Analysis) -> Result<()> {
    chart(path, (760, 720), |root| heat_map_on(root, a))
}

fn heat_map_on(
    root: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
    a: &Analysis,
) -> Result<()> {
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(root)
        .caption(
            "NES Tetris: P(next piece | previous piece)",
            ("sans-serif", 26),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..6.5, -0.5f64..6.5)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(7)
        .y_labels(7)
        .x_label_formatter(&|x| label(*x, false))
        .y_label_formatter(&|y| label(*y, true))
        .x_desc("next")
        .y_desc("previous")
        .label_style(("sans-serif", 20))
        .draw()
        .map_err(err)?;
    let max = a
        .matrix
        .iter()
        .flatten()
        .cloned()
        .fold(0.0f64, f64::max)
        .max(1e-9);
    for (prev, row) in a.matrix.iter().enumerate() {
        for (next, &p) in row.iter().enumerate() {
            let y = 6.0 - prev as f64;
            let x = next as f64;
            let t = (p / max).clamp(0.0, 1.0);
            let colour = RGBColor(
                (255.0 * t) as u8,
                (60.0 + 100.0 * (1.0 - t)) as u8,
                (255.0 * (1.0 - t)) as u8,
            );
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                    colour.filled(),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{:.1}%", p * 100.0),
                    (x - 0.3, y + 0.1),
                    ("sans-serif", 18).into_font().color(&WHITE),
                )))
                .map_err(err)?;
        }
    }
    Ok(())
}

/// A histogram of scores.
pub fn score_histogram(path: &Path, title: &str, scores: &[u64]) -> Result<()> {
    chart(path, (900, 540), |root| histogram_on(root, title, scores))
}

fn histogram_on(
    root: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
    title: &str,
    scores: &[u64],
) -> Result<()> {
    root.fill(&WHITE).map_err(err)?;
    let bins = 20u64;
    let top = scores.iter().copied().max().unwrap_or(1).max(1);
    let width = top.div_ceil(bins).max(1);
    let mut counts = vec![0u32; bins as usize + 1];
    for &s in scores {
        counts[(s / width).min(bins) as usize] += 1;
    }
    let ymax = counts.iter().copied().max().unwrap_or(1).max(1);
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(0u64..(width * (bins + 1)), 0u32..ymax + 1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("score")
        .y_desc("games")
        .label_style(("sans-serif", 16))
        .draw()
        .map_err(err)?;
    chart
        .draw_series(counts.iter().enumerate().map(|(i, &c)| {
            let x0 = i as u64 * width;
            Rectangle::new([(x0, 0), (x0 + width, c)], RGBColor(60, 90, 200).filled())
        }))
        .map_err(err)?;
    Ok(())
}
