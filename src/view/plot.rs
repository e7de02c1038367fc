//! The input-size plot: output size, and the pad (or crop) on each side, as the input size of
//! the last dimension sweeps around the current one. Strided 'same' shows up as pads that
//! zig-zag with the input, which is why a static pad is right for one size only.
//!
//! [`sweep`] is pure (one `core::evaluate` per size); [`svg`] draws it with plotters' SVG backend
//! into a string. The app does not carry plotters: the code-generator worker draws the plot.
//! Only left and bottom axis labels, no caption and no legend box: those are the parts of
//! plotters that measure text, which a worker (no document) cannot do.

use plotters::prelude::*;

use crate::core::{LayerSpec, Placement, evaluate};

/// One input size of the sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    pub input: i64,
    /// `None` when the framework refuses this size.
    pub output: Option<i64>,
    pub before: i64,
    pub after: i64,
}

/// The sweep for one layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// The dimension swept.
    pub dim: usize,
    /// Its name, as the page says it (height, width, ...).
    pub name: &'static str,
    /// The layer's own input size in that dimension.
    pub current: i64,
    pub placement: Placement,
    pub points: Vec<Point>,
    /// True when some pads differ between two accepted sizes.
    pub pads_vary: bool,
    /// The layer asked for an explicit `output_size`, which pins one input size: the sweep
    /// leaves it out.
    pub dropped_output_size: bool,
}

/// The largest size or pad the plot draws.
const LARGEST: u64 = 1 << 40;

/// The most sizes swept: enough to show the pattern, few enough to stay instant.
const MAX_POINTS: i64 = 64;

/// The sizes swept: from 1 to twice `current` (at least 16) while that is at most 64 sizes,
/// else the 64 sizes centred on `current`.
fn range(current: i64) -> (i64, i64) {
    if current <= MAX_POINTS / 2 {
        (1, current.saturating_mul(2).max(16))
    } else {
        let first = current
            .saturating_sub(MAX_POINTS / 2)
            .min(i64::MAX - (MAX_POINTS - 1));
        (first, first + (MAX_POINTS - 1))
    }
}

/// Evaluates `spec` at every input size of the sweep of dimension `dim` (the others fixed), or
/// of the dimension that matters when `dim` is `None`: the first whose pads change with the
/// input size, else the first whose two sides differ, else the last.
pub fn sweep(spec: &LayerSpec, dim: Option<usize>) -> Option<Sweep> {
    let n = spec.input.len();
    match dim {
        Some(d) if d < n => sweep_dim(spec, d),
        _ => {
            let all: Vec<Sweep> = (0..n).filter_map(|d| sweep_dim(spec, d)).collect();
            let asymmetric = |s: &Sweep| {
                s.points
                    .iter()
                    .any(|p| p.input == s.current && p.output.is_some() && p.before != p.after)
            };
            let pick = all
                .iter()
                .position(|s| s.pads_vary)
                .or_else(|| all.iter().position(asymmetric))
                .unwrap_or(all.len().saturating_sub(1));
            all.into_iter().nth(pick)
        }
    }
}

fn sweep_dim(spec: &LayerSpec, dim: usize) -> Option<Sweep> {
    let current = *spec.input.get(dim)?;
    let name = crate::view::explain::dimension_names(spec.input.len())
        .get(dim)
        .copied()
        .unwrap_or("size");
    let mut layer = spec.clone();
    let dropped_output_size = layer.output_size.take().is_some();
    let (first, last) = range(current.max(1));
    let mut placement = Placement::Pad;
    let points: Vec<Point> = (first..=last)
        .map(|size| {
            if let Some(slot) = layer.input.get_mut(dim) {
                *slot = size;
            }
            match evaluate(&layer) {
                Ok(answer) => {
                    placement = answer.placement;
                    Point {
                        input: size,
                        output: answer.axes.get(dim).map(|a| a.output),
                        before: answer.axes.get(dim).map_or(0, |a| a.before),
                        after: answer.axes.get(dim).map_or(0, |a| a.after),
                    }
                }
                Err(_) => Point {
                    input: size,
                    output: None,
                    before: 0,
                    after: 0,
                },
            }
        })
        .collect();
    let accepted: Vec<&Point> = points.iter().filter(|p| p.output.is_some()).collect();
    let pads_vary = accepted
        .windows(2)
        .any(|w| (w[0].before, w[0].after) != (w[1].before, w[1].after));
    Some(Sweep {
        dim,
        name,
        current,
        placement,
        points,
        pads_vary,
        dropped_output_size,
    })
}

/// One sentence for screen readers and the caption.
pub fn summary(s: &Sweep) -> String {
    let accepted: Vec<&Point> = s.points.iter().filter(|p| p.output.is_some()).collect();
    let (Some(first), Some(last)) = (s.points.first(), s.points.last()) else {
        return "No input sizes to plot.".into();
    };
    let side = match s.placement {
        Placement::Pad => "pads",
        Placement::Crop => "crops",
    };
    let mut text = format!(
        "Input {} {} to {}: {} accepted",
        s.name,
        first.input,
        last.input,
        accepted.len()
    );
    if let (Some(lo), Some(hi)) = (
        accepted.iter().filter_map(|p| p.output).min(),
        accepted.iter().filter_map(|p| p.output).max(),
    ) {
        text.push_str(&format!(", output {} {lo} to {hi}", s.name));
    }
    if s.pads_vary {
        text.push_str(&format!("; the {side} change with the input size."));
    } else {
        text.push_str(&format!("; the {side} are the same for every size."));
    }
    if s.dropped_output_size {
        text.push_str(" (Without output_size, which fixes a single input size.)");
    }
    text
}

/// Colours shared with the page's legend (style/main.css).
const OUTPUT: RGBColor = RGBColor(0x1f, 0x6f, 0xb5);
const BEFORE: RGBColor = RGBColor(0xc2, 0x41, 0x0c);
const AFTER: RGBColor = RGBColor(0x6d, 0x28, 0xd9);
const MARK: RGBColor = RGBColor(0x88, 0x88, 0x88);

/// The plot as an SVG document: output size above, pads (or crops) below.
pub fn svg(s: &Sweep, width: u32, height: u32) -> Result<String, String> {
    // plotters' integer axes add and multiply without checks: keep far from the limits.
    let huge = s.current.unsigned_abs() > LARGEST
        || s.points.iter().any(|p| {
            [p.input, p.output.unwrap_or(0), p.before, p.after]
                .iter()
                .any(|v| v.unsigned_abs() > LARGEST)
        });
    if huge {
        return Err("The sizes are too large to plot.".into());
    }
    let mut out = String::new();
    draw(s, &mut out, width, height).map_err(|e| format!("The plot could not be drawn: {e}"))?;
    Ok(out)
}

/// Splits `points` into runs of accepted sizes, mapped by `f`, so refused sizes leave gaps.
fn runs(points: &[Point], f: impl Fn(&Point) -> Option<i64>) -> Vec<Vec<(i64, i64)>> {
    let mut all = Vec::new();
    let mut run = Vec::new();
    for p in points {
        match f(p) {
            Some(y) => run.push((p.input, y)),
            None if !run.is_empty() => all.push(std::mem::take(&mut run)),
            None => {}
        }
    }
    if !run.is_empty() {
        all.push(run);
    }
    all
}

type Failure = DrawingAreaErrorKind<std::io::Error>;

fn draw(s: &Sweep, out: &mut String, width: u32, height: u32) -> Result<(), Failure> {
    let (Some(first), Some(last)) = (s.points.first(), s.points.last()) else {
        return Ok(());
    };
    let xs = first.input..last.input + 1;
    let root = SVGBackend::with_string(out, (width, height)).into_drawing_area();
    let (top, bottom) = root.split_vertically(height / 2);
    let label = ("sans-serif", 16).into_font();
    let accepted = || s.points.iter().filter(|p| p.output.is_some());

    let max_out = accepted()
        .filter_map(|p| p.output)
        .max()
        .unwrap_or(1)
        .max(1);
    let mut chart = ChartBuilder::on(&top)
        .margin(8)
        .x_label_area_size(34)
        .y_label_area_size(44)
        .build_cartesian_2d(xs.clone(), 0i64..max_out + 1)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .label_style(label.clone())
        .axis_desc_style(label.clone())
        .x_desc(format!("input {}", s.name))
        .y_desc(format!("output {}", s.name))
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(s.current, 0), (s.current, max_out + 1)],
        MARK.stroke_width(1),
    ))?;
    for run in runs(&s.points, |p| p.output) {
        chart.draw_series(LineSeries::new(run.clone(), OUTPUT.stroke_width(2)))?;
        chart.draw_series(
            run.into_iter()
                .map(|at| Circle::new(at, 2, OUTPUT.filled())),
        )?;
    }

    let low = accepted()
        .flat_map(|p| [p.before, p.after])
        .min()
        .unwrap_or(0)
        .min(0);
    let high = accepted()
        .flat_map(|p| [p.before, p.after])
        .max()
        .unwrap_or(0)
        .max(1);
    let name = match s.placement {
        Placement::Pad => "pad",
        Placement::Crop => "crop",
    };
    let mut chart = ChartBuilder::on(&bottom)
        .margin(8)
        .x_label_area_size(34)
        .y_label_area_size(44)
        .build_cartesian_2d(xs, low..high + 1)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .label_style(label.clone())
        .axis_desc_style(label)
        .x_desc(format!("input {}", s.name))
        .y_desc(format!("{name} before / after"))
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(s.current, low), (s.current, high + 1)],
        MARK.stroke_width(1),
    ))?;
    for (color, side) in [(BEFORE, 0usize), (AFTER, 1)] {
        let pick = |p: &Point| p.output.map(|_| if side == 0 { p.before } else { p.after });
        for run in runs(&s.points, pick) {
            chart.draw_series(LineSeries::new(run.clone(), color.stroke_width(2)))?;
            // The 'after' marks are crosses so the two sides differ by more than colour.
            if side == 0 {
                chart.draw_series(run.into_iter().map(|at| Circle::new(at, 3, color.filled())))?;
            } else {
                chart.draw_series(
                    run.into_iter()
                        .map(|at| Cross::new(at, 4, color.stroke_width(2))),
                )?;
            }
        }
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Dims, Framework, Op, Padding};

    fn same_stride_2() -> LayerSpec {
        LayerSpec {
            stride: Some(Dims::All(2)),
            padding: Some(Padding::Same),
            ..LayerSpec::new(Op::Conv, Framework::Keras, vec![7], Dims::All(3))
        }
    }

    #[test]
    fn strided_same_pads_zig_zag_with_the_input_size() {
        let s = sweep(&same_stride_2(), None).unwrap();
        assert_eq!((s.points[0].input, s.points.last().unwrap().input), (1, 16));
        // TF 'same', k=3 s=2: total = max(3 - (i mod 2 or 2), 0): 1 for odd sizes, 2 for even.
        let at = |i: i64| s.points.iter().find(|p| p.input == i).unwrap().clone();
        assert_eq!((at(7).output, at(7).before, at(7).after), (Some(4), 1, 1));
        assert_eq!((at(8).output, at(8).before, at(8).after), (Some(4), 0, 1));
        assert!(s.pads_vary);
        assert!(summary(&s).contains("change with the input size"));
    }

    #[test]
    fn fixed_padding_stays_flat_and_refused_sizes_leave_gaps() {
        let spec = LayerSpec::new(Op::Conv, Framework::Torch, vec![6, 6], Dims::All(5));
        let s = sweep(&spec, None).unwrap();
        assert_eq!(s.dim, 1);
        assert!(!s.pads_vary);
        // Sizes below the kernel are refused by torch with no padding.
        assert!(s.points.iter().take(4).all(|p| p.output.is_none()));
        assert_eq!(s.points[4].output, Some(1));
        assert_eq!(runs(&s.points, |p| p.output).len(), 1);
    }

    #[test]
    fn the_sweep_takes_the_dimension_that_matters_or_the_one_asked_for() {
        // Seed 000: Keras 'same' 4x1 on 100x20 pads the height (1, 2), the width not at all.
        let seed = LayerSpec {
            padding: Some(Padding::Same),
            ..LayerSpec::new(
                Op::Conv,
                Framework::Keras,
                vec![100, 20],
                Dims::Each(vec![4, 1]),
            )
        };
        let s = sweep(&seed, None).unwrap();
        assert_eq!((s.dim, s.name), (0, "height"));
        assert!(
            summary(&s).starts_with("Input height 68 to 131"),
            "{}",
            summary(&s)
        );
        assert_eq!(sweep(&seed, Some(1)).unwrap().name, "width");
        assert_eq!(sweep(&seed, Some(7)).unwrap().dim, 0);
    }

    #[test]
    fn the_sweep_always_contains_the_layers_own_size() {
        for current in [1, 7, 32, 33, 64, 100, 5000, i64::MAX / 2, i64::MAX] {
            let (first, last) = range(current);
            assert!(
                first <= current && current <= last,
                "{current}: {first}..{last}"
            );
            assert!(last - first < MAX_POINTS);
        }
    }

    #[test]
    fn the_svg_has_both_charts_and_the_axis_titles() {
        let text = svg(&sweep(&same_stride_2(), None).unwrap(), 640, 420).unwrap();
        assert!(text.starts_with("<svg"));
        assert!(text.contains("output length"));
        assert!(text.contains("input length"));
        assert!(text.contains("pad before / after"));
        assert!(text.matches("<polyline").count() >= 3);
    }

    #[test]
    fn large_and_transposed_layers_sweep_without_panicking() {
        let mut spec = same_stride_2();
        spec.input = vec![i64::MAX];
        let huge = sweep(&spec, None).unwrap();
        assert_eq!(huge.points.len(), MAX_POINTS as usize);
        assert_eq!(
            svg(&huge, 640, 420),
            Err("The sizes are too large to plot.".into())
        );
        let t = LayerSpec {
            stride: Some(Dims::All(6)),
            padding: Some(Padding::All(9)),
            output_padding: Some(Dims::All(4)),
            output_size: Some(vec![1500]),
            ..LayerSpec::new(
                Op::ConvTranspose,
                Framework::Torch,
                vec![249],
                Dims::All(20),
            )
        };
        let s = sweep(&t, None).unwrap();
        assert!(s.dropped_output_size);
        assert_eq!(s.placement, Placement::Crop);
        assert!(svg(&s, 640, 420).is_ok());
    }
}
