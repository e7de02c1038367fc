//! The picture's geometry, per axis: which padded positions are input, padding or beyond the
//! padding, which no window reads (dead), which an output step taps, and which outputs read a
//! position. A 2-D cell is the product of its two axes. Coordinates are padded-input
//! coordinates: input element `0` is at `before`.
//!
//! Transposed convolution is drawn as the equivalent direct convolution: the input with
//! `stride - 1` zeros inserted between elements, padded by `d(k-1)` on both sides, a stride-1
//! window; its outputs are the full output, of which the crop is marked.

use crate::core::{Answer, Geometry, LayerSpec, Op};

/// What a padded-input position holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Input,
    PadBefore,
    PadAfter,
    /// Past the padding: ceil mode's last window reaches here, but nothing is read.
    Beyond,
    /// A zero inserted between input elements (transposed convolution).
    Inserted,
}

/// One spatial axis of the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    /// Input elements (for transposed: the stride-dilated input, zeros included).
    pub input: i64,
    pub before: i64,
    pub after: i64,
    /// Positions past `after` that windows reach (ceil mode).
    pub beyond: i64,
    pub kernel: i64,
    pub stride: i64,
    pub dilation: i64,
    pub output: i64,
    /// For transposed: the original stride (zeros sit between multiples of it).
    pub inserted_every: i64,
    /// For transposed: outputs cropped at the start and end of the full output.
    pub crop: (i64, i64),
}

impl Axis {
    /// Number of drawn positions.
    pub fn len(&self) -> i64 {
        self.before
            .saturating_add(self.input)
            .saturating_add(self.after)
            .saturating_add(self.beyond)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What position `p` (0-based, padded coordinates) holds.
    pub fn cell(&self, p: i64) -> Cell {
        let x = p - self.before;
        if x < 0 {
            Cell::PadBefore
        } else if x < self.input {
            if self.inserted_every > 1 && x % self.inserted_every != 0 {
                Cell::Inserted
            } else {
                Cell::Input
            }
        } else if x < self.input + self.after {
            Cell::PadAfter
        } else {
            Cell::Beyond
        }
    }

    /// The positions output `j` reads (its taps), in order.
    pub fn taps(&self, j: i64) -> impl Iterator<Item = i64> + '_ {
        (0..self.kernel).map(move |t| j * self.stride + t * self.dilation)
    }

    /// Whether some window reads position `p`.
    pub fn is_read(&self, p: i64) -> bool {
        self.readers(p).next().is_some()
    }

    /// The outputs whose window reads position `p`.
    pub fn readers(&self, p: i64) -> impl Iterator<Item = i64> + '_ {
        (0..self.kernel).filter_map(move |t| {
            let start = p - t * self.dilation;
            (start >= 0 && start % self.stride == 0 && start / self.stride < self.output)
                .then_some(start / self.stride)
        })
    }

    /// Whether position `p` holds data or padding that no window reads (dropped by the floor,
    /// or padding nothing touches).
    pub fn is_dead(&self, p: i64) -> bool {
        self.cell(p) != Cell::Beyond && !self.is_read(p)
    }

    /// For transposed: whether full-output element `j` is cropped away.
    pub fn is_cropped(&self, j: i64) -> bool {
        j < self.crop.0 || j >= self.output - self.crop.1.max(0)
    }
}

/// The picture of one layer: one axis per drawn dimension (the last two of a 3-D layer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The drawn axes: (columns) or (rows, columns).
    pub axes: Vec<Axis>,
    /// A 3-D layer's first axis, shown one slice at a time.
    pub depth: Option<Axis>,
    pub transposed: bool,
    /// Max pooling pads with −∞ (drawn as such); others with zeros.
    pub pad_value: &'static str,
}

impl Picture {
    /// Every axis in order: depth (if any), then the drawn ones.
    fn all_axes(&self) -> impl Iterator<Item = &Axis> {
        self.depth.iter().chain(&self.axes)
    }

    /// Number of window steps (outputs), row-major over every axis.
    pub fn steps(&self) -> i64 {
        self.all_axes()
            .fold(1i64, |n, a| n.saturating_mul(a.output))
    }

    /// The output index of step `n` per axis, depth first (row-major).
    pub fn step_index(&self, n: i64) -> Vec<i64> {
        let axes: Vec<&Axis> = self.all_axes().collect();
        let mut rest = n.rem_euclid(self.steps().max(1));
        let mut index = vec![0; axes.len()];
        for (a, axis) in axes.iter().enumerate().rev() {
            index[a] = rest % axis.output.max(1);
            rest /= axis.output.max(1);
        }
        index
    }

    /// The drawn axes' part of a step index (without depth).
    pub fn drawn_index(&self, n: i64) -> Vec<i64> {
        let index = self.step_index(n);
        index[usize::from(self.depth.is_some())..].to_vec()
    }

    /// Whether the window of step `n` reads depth slice `slice` (always true in 1-D and 2-D).
    pub fn reads_slice(&self, n: i64, slice: i64) -> bool {
        match &self.depth {
            Some(depth) => depth.taps(self.step_index(n)[0]).any(|t| t == slice),
            None => true,
        }
    }

    /// Drawn cells in all: the budget check for the renderer.
    /// Saturates at `i64::MAX` (a layer can be far too big to draw).
    pub fn cell_count(&self) -> i64 {
        self.axes
            .iter()
            .fold(1i64, |n, a| n.saturating_mul(a.len()))
            .saturating_add(self.steps())
    }
}

/// The picture for `spec` and its answer, or `None` when it cannot be drawn.
pub fn picture(spec: &LayerSpec, answer: &Answer) -> Option<Picture> {
    let g = Geometry::of(spec).ok()?;
    let n = g.ndim();
    let transposed = spec.op == Op::ConvTranspose;
    let mut axes = (0..n)
        .map(|a| {
            let (i, k, s, d) = (g.input[a], g.kernel[a], g.stride[a], g.dilation[a]);
            // The core accepted the layer, so these fit; saturation only guards the picture.
            let keff = d.saturating_mul(k - 1).saturating_add(1);
            if transposed {
                let axis = answer.axes.get(a)?;
                let full = axis.full_output();
                Some(Axis {
                    input: (i - 1).saturating_mul(s).saturating_add(1),
                    before: keff - 1,
                    after: keff - 1,
                    beyond: 0,
                    kernel: k,
                    stride: 1,
                    dilation: d,
                    output: full,
                    inserted_every: s,
                    crop: (axis.before, axis.after),
                })
            } else {
                let axis = answer.axes.get(a)?;
                let (b, af, o) = (axis.before, axis.after, axis.output);
                let reach = (o - 1).saturating_mul(s).saturating_add(keff);
                Some(Axis {
                    input: i,
                    before: b.max(0),
                    after: af.max(0),
                    beyond: reach
                        .saturating_sub(i.saturating_add(b.max(0)).saturating_add(af.max(0)))
                        .max(0),
                    kernel: k,
                    stride: s,
                    dilation: d,
                    output: o,
                    inserted_every: 1,
                    crop: (0, 0),
                })
            }
        })
        .collect::<Option<Vec<_>>>()?;
    let depth = (n == 3).then(|| axes.remove(0));
    Some(Picture {
        axes,
        depth,
        transposed,
        pad_value: if spec.op == Op::MaxPool {
            "−∞"
        } else {
            "0"
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Framework, evaluate};
    use crate::forms::compact::CompactSpec;

    fn pic(
        op: Op,
        fw: Framework,
        input: &str,
        k: &str,
        s: &str,
        p: &str,
        f: impl Fn(&mut CompactSpec),
    ) -> Picture {
        let mut c = CompactSpec::new(op, fw, input, k);
        c.stride = s.into();
        c.padding = p.into();
        f(&mut c);
        let spec = c.to_spec().unwrap();
        picture(&spec, &evaluate(&spec).unwrap()).unwrap()
    }

    fn kinds(axis: &Axis) -> String {
        (0..axis.len())
            .map(|p| match (axis.cell(p), axis.is_dead(p)) {
                (Cell::PadBefore | Cell::PadAfter, false) => 'p',
                (Cell::PadBefore | Cell::PadAfter, true) => 'P',
                (Cell::Input, false) => 'i',
                (Cell::Input, true) => 'I',
                (Cell::Beyond, _) => 'b',
                (Cell::Inserted, _) => 'z',
            })
            .collect()
    }

    #[test]
    fn seed_004_never_reads_its_last_padding_column_and_steps_row_major() {
        // 6 + 2 + 2 = 10 positions, windows of 5 start at 0, 2, 4: position 9 is never read.
        let p = pic(Op::Conv, Framework::Torch, "6x6", "5", "2", "2", |_| {});
        assert_eq!(kinds(&p.axes[0]), "ppiiiiiipP");
        assert_eq!(p.steps(), 9);
        assert_eq!(p.step_index(4), vec![1, 1]);
        assert_eq!(p.drawn_index(4), vec![1, 1]);
        assert_eq!(p.axes[0].taps(1).collect::<Vec<_>>(), vec![2, 3, 4, 5, 6]);
    }

    #[test]
    fn the_floor_drops_the_last_row_and_reports_it_dead() {
        // 7 with kernel 2, stride 2, no padding: windows 0-1, 2-3, 4-5; element 6 is never read.
        let p = pic(Op::MaxPool, Framework::Torch, "7", "2", "2", "0", |_| {});
        assert_eq!(kinds(&p.axes[0]), "iiiiiiI");
        // With ceil mode the last window reaches past the input instead.
        let p = pic(Op::MaxPool, Framework::Torch, "7", "2", "2", "0", |c| {
            c.ceil_mode = true
        });
        assert_eq!(kinds(&p.axes[0]), "iiiiiiib");
        assert_eq!(p.pad_value, "−∞");
    }

    #[test]
    fn untouched_padding_is_dead_and_readers_invert_taps() {
        // Keras 'same' on 30 with pool 2 stride 2: no padding at all; torch p=1 k=2 s=2 on 5:
        // windows -1..0, 1..2, 3..4: all read.
        let p = pic(Op::Conv, Framework::Torch, "5", "1", "3", "1", |_| {});
        // Kernel 1, stride 3 from the left pad: reads -1, 2, 5 -> pad, input 2 and the right pad.
        assert_eq!(kinds(&p.axes[0]), "pIIiIIp");
        let axis = &p.axes[0];
        for j in 0..axis.output {
            for t in axis.taps(j) {
                assert!(axis.readers(t).any(|r| r == j));
            }
        }
    }

    #[test]
    fn transposed_is_drawn_as_zero_inserted_input_with_the_crop_marked() {
        let p = pic(
            Op::ConvTranspose,
            Framework::Keras,
            "4",
            "3",
            "2",
            "same",
            |_| {},
        );
        let axis = &p.axes[0];
        assert_eq!(kinds(axis), "ppizizizipp");
        assert_eq!(axis.output, 9);
        assert_eq!(axis.crop, (0, 1));
        assert!(axis.is_cropped(8) && !axis.is_cropped(0));
    }
}

/// Where the picture's parts sit, in whole SVG user units (zero at the top left). Integers on
/// purpose: no float formatting in the page's wasm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Side of one cell.
    pub cell: i64,
    /// Left edge of the output grid.
    pub output_x: i64,
    /// Top edge of both grids (room for the labels above).
    pub top: i64,
    /// Baseline of the labels above the grids.
    pub label_y: i64,
    pub width: i64,
    pub height: i64,
}

/// The two axes as (rows, columns); a 1-D layer is one row.
pub fn rows_cols(picture: &Picture) -> (Axis, Axis) {
    let unit = Axis {
        input: 1,
        before: 0,
        after: 0,
        beyond: 0,
        kernel: 1,
        stride: 1,
        dilation: 1,
        output: 1,
        inserted_every: 1,
        crop: (0, 0),
    };
    match picture.axes.as_slice() {
        [cols] => (unit, cols.clone()),
        [rows, cols, ..] => (rows.clone(), cols.clone()),
        [] => (unit.clone(), unit),
    }
}

/// Cell size and positions for a picture, fitting about `max_width` units across.
pub fn layout(picture: &Picture, max_width: i64) -> Layout {
    let (rows, cols) = rows_cols(picture);
    let across = cols.len().saturating_add(cols.output).saturating_add(3);
    let cell = (max_width / across.max(1)).clamp(2, 28);
    let top = 3 * cell.max(12) / 2;
    let output_x = cols.len().saturating_add(3).saturating_mul(cell);
    Layout {
        cell,
        output_x,
        top,
        label_y: top - 2 * cell.max(12) / 5,
        width: output_x
            .saturating_add(cols.output.saturating_mul(cell))
            .saturating_add(1),
        height: top
            .saturating_add(rows.len().max(rows.output).saturating_mul(cell))
            .saturating_add(1),
    }
}

/// One cell of a [`Block`], in the block's own unit coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockCell {
    pub r: i64,
    pub c: i64,
    /// The `class` attribute: `cell` and the kind (`input`, `pad`, `dead`, …).
    pub class: &'static str,
    /// The `data-testid`: `cell-input`, `cell-pad`, `cell-beyond` or `cell-output`.
    pub testid: &'static str,
}

/// A group of cells drawn in unit coordinates under one `translate(x y) scale(cell)`, so a
/// change of padding or cell size moves the group, not every cell: the app patches only the
/// cells whose state changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// `data-panel`: `pad` or `in` (input coordinates, negative in the padding before: add
    /// `before` for padded ones) or `out` (output coordinates).
    pub panel: &'static str,
    /// Where unit cell (0, 0) sits, in layout units.
    pub x: i64,
    pub y: i64,
    /// Equal shapes mean the same cells in the same order (only their states may differ).
    pub shape: Vec<i64>,
    pub cells: Vec<BlockCell>,
}

/// The static part of the picture: the two labels and three blocks (padding, input, output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    pub labels: String,
    pub cell: i64,
    pub blocks: Vec<Block>,
}

/// The class of a padded-input cell (its kinds along every axis) and its test id.
fn input_class(kinds: [Cell; 3], dead: bool) -> (&'static str, &'static str) {
    let any = |f: fn(&Cell) -> bool| kinds.iter().any(f);
    if any(|k| *k == Cell::Beyond) {
        ("cell beyond", "cell-beyond")
    } else if any(|k| matches!(k, Cell::PadBefore | Cell::PadAfter)) {
        // Coloured by side: before (top/left/front), after (bottom/right/back), or a corner
        // that is before in one dimension and after in another.
        let class = match (
            any(|k| *k == Cell::PadBefore),
            any(|k| *k == Cell::PadAfter),
            dead,
        ) {
            (true, false, false) => "cell pad before",
            (true, false, true) => "cell pad before dead",
            (false, true, false) => "cell pad after",
            (false, true, true) => "cell pad after dead",
            (_, _, false) => "cell pad corner",
            (_, _, true) => "cell pad corner dead",
        };
        (class, "cell-pad")
    } else if any(|k| *k == Cell::Inserted) {
        (
            if dead {
                "cell inserted dead"
            } else {
                "cell inserted"
            },
            "cell-input",
        )
    } else {
        (
            if dead {
                "cell input dead"
            } else {
                "cell input"
            },
            "cell-input",
        )
    }
}

/// The static cells of `picture` on depth slice `slice`, placed by `at`.
pub fn scene(picture: &Picture, at: &Layout, slice: i64) -> Scene {
    let (rows, cols) = rows_cols(picture);
    let (depth_kind, depth_dead) = match &picture.depth {
        Some(depth) => (depth.cell(slice), depth.is_dead(slice)),
        None => (Cell::Input, false),
    };
    let sides = if picture.axes.len() == 1 {
        format!("padding left {}, right {}", cols.before, cols.after)
    } else {
        format!(
            "padding top {}, bottom {}, left {}, right {}",
            rows.before, rows.after, cols.before, cols.after
        )
    };
    let labels = format!(
        r#"<text x="0" y="{}" class="label" data-testid="pad-counts">input{}; {sides}</text><text x="{}" y="{}" class="label">{}</text>"#,
        at.label_y,
        if picture.transposed {
            " (zeros inserted)"
        } else {
            ""
        },
        at.output_x,
        at.label_y,
        if picture.transposed {
            "full output (crop marked)"
        } else {
            "output"
        }
    );
    let cell_at = |r: i64, c: i64| {
        let kinds = [depth_kind, rows.cell(r), cols.cell(c)];
        let beyond = kinds.contains(&Cell::Beyond);
        let dead = !beyond && (depth_dead || rows.is_dead(r) || cols.is_dead(c));
        let (class, testid) = input_class(kinds, dead);
        BlockCell {
            r,
            c,
            class,
            testid,
        }
    };
    let in_rows = rows.before..rows.before + rows.input;
    let in_cols = cols.before..cols.before + cols.input;
    // The padding ring in input coordinates (the block moves with `before`), innermost ring
    // first: when the padding grows, the cells already drawn keep their places and the new
    // outer ring is appended, so the app patches by adding cells, not by moving them.
    let ring = |p: i64, axis: &Axis| {
        (axis.before - p)
            .max(p - (axis.before + axis.input - 1))
            .max(0)
    };
    // Bucketed by ring (row-major within a ring): no sort code in the page's wasm.
    let mut rings: Vec<Vec<BlockCell>> = Vec::new();
    for r in 0..rows.len() {
        for c in 0..cols.len() {
            if in_rows.contains(&r) && in_cols.contains(&c) {
                continue;
            }
            let d = ring(r, &rows).max(ring(c, &cols)).max(1) as usize - 1;
            if rings.len() <= d {
                rings.resize_with(d + 1, Vec::new);
            }
            if let Some(bucket) = rings.get_mut(d) {
                bucket.push(BlockCell {
                    r: r - rows.before,
                    c: c - cols.before,
                    ..cell_at(r, c)
                });
            }
        }
    }
    let pads: Vec<BlockCell> = rings.into_iter().flatten().collect();
    let mut inputs = Vec::with_capacity((rows.input * cols.input).max(0) as usize);
    for r in in_rows.clone() {
        for c in in_cols.clone() {
            let cell = cell_at(r, c);
            inputs.push(BlockCell {
                r: r - rows.before,
                c: c - cols.before,
                ..cell
            });
        }
    }
    let mut outputs = Vec::with_capacity((rows.output * cols.output).max(0) as usize);
    for r in 0..rows.output {
        for c in 0..cols.output {
            let cropped = picture.transposed && (rows.is_cropped(r) || cols.is_cropped(c));
            outputs.push(BlockCell {
                r,
                c,
                class: if cropped {
                    "cell out cropped"
                } else {
                    "cell out"
                },
                testid: "cell-output",
            });
        }
    }
    let cell = at.cell;
    Scene {
        labels,
        cell,
        blocks: vec![
            Block {
                panel: "pad",
                x: cols.before * cell,
                y: at.top + rows.before * cell,
                shape: vec![
                    rows.before,
                    rows.input,
                    rows.after + rows.beyond,
                    cols.before,
                    cols.input,
                    cols.after + cols.beyond,
                ],
                cells: pads,
            },
            Block {
                panel: "in",
                x: cols.before * cell,
                y: at.top + rows.before * cell,
                shape: vec![rows.input, cols.input],
                cells: inputs,
            },
            Block {
                panel: "out",
                x: at.output_x,
                y: at.top,
                shape: vec![rows.output, cols.output],
                cells: outputs,
            },
        ],
    }
}

/// How the canvas painter fills a cell of `class`: the CSS variable holding its colour, the
/// opacity, and whether it is only outlined (past the padding). Mirrors the `.cell` rules of
/// style/main.css.
pub fn paint(class: &str) -> (&'static str, f64, bool) {
    let dead = class.ends_with(" dead");
    let alpha = if dead { 0.35 } else { 1.0 };
    match class.split(' ').nth(1).unwrap_or("") {
        "input" => ("--c-input", alpha, false),
        "inserted" => ("--c-inserted", alpha, false),
        "pad" if dead => ("--c-dead", alpha, false),
        "pad" => match class.split(' ').nth(2) {
            Some("after") => ("--c-pad-after", alpha, false),
            Some("corner") => ("--c-pad-corner", alpha, false),
            _ => ("--c-pad", alpha, false),
        },
        "beyond" => ("--line", 1.0, true),
        "out" if class.ends_with("cropped") => ("--c-cropped", 1.0, false),
        _ => ("--c-out", 1.0, false),
    }
}

/// Which cell is at layout point `(x, y)`: `Some((false, r, c))` for the padded input
/// (padded coordinates), `Some((true, r, c))` for the output (hit testing on the canvas).
pub fn hit(picture: &Picture, at: &Layout, x: i64, y: i64) -> Option<(bool, i64, i64)> {
    let (rows, cols) = rows_cols(picture);
    let cell = at.cell.max(1);
    if y < at.top {
        return None;
    }
    let r = (y - at.top) / cell;
    if x >= at.output_x {
        let c = (x - at.output_x) / cell;
        (r < rows.output && c < cols.output).then_some((true, r, c))
    } else {
        let c = x / cell;
        (r < rows.len() && c < cols.len() && x >= 0).then_some((false, r, c))
    }
}

/// Maps a cell of the block `panel` at block coordinates `(r, c)` to what [`hit`] answers:
/// `(true, r, c)` for an output, `(false, r, c)` in padded-input coordinates.
pub fn block_cell(picture: &Picture, panel: &str, r: i64, c: i64) -> Option<(bool, i64, i64)> {
    match panel {
        "pad" | "in" => {
            let (rows, cols) = rows_cols(picture);
            Some((false, r + rows.before, c + cols.before))
        }
        "out" => Some((true, r, c)),
        _ => None,
    }
}

/// The moving part of the picture as SVG markup: the window's taps (dilation leaves holes; in
/// 3-D only on the slices it reads), its outline, the next window one stride on (dashed), the
/// current output, and the cells linked to the hovered one (`hover`: as [`hit`] answers).
pub fn overlay_svg(
    p: &Picture,
    at: &Layout,
    step: i64,
    slice: i64,
    hover: Option<(bool, i64, i64)>,
) -> String {
    use std::fmt::Write;
    let (rows, cols) = rows_cols(p);
    let index = p.drawn_index(step);
    let (jr, jc) = match index.as_slice() {
        [r, c] => (*r, *c),
        [c] => (0, *c),
        _ => (0, 0),
    };
    let cell = at.cell;
    let mut out = String::new();
    let rect = |out: &mut String, x0: i64, r: i64, c: i64, class: &str| {
        let _ = write!(
            out,
            r#"<rect class="{class}" x="{}" y="{}" width="{cell}" height="{cell}"/>"#,
            x0 + c * cell,
            at.top + r * cell
        );
    };
    if p.reads_slice(step, slice) {
        for r in rows.taps(jr) {
            for c in cols.taps(jc) {
                rect(&mut out, 0, r, c, "tap");
            }
        }
    }
    let span = |a: &Axis| (a.kernel - 1) * a.dilation + 1;
    let outline = |out: &mut String, class: &str, r: i64, c: i64| {
        let _ = write!(
            out,
            r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}"/>"#,
            c * cols.stride * cell,
            at.top + r * rows.stride * cell,
            span(&cols) * cell,
            span(&rows) * cell
        );
    };
    if jc + 1 < cols.output {
        outline(&mut out, "next-window", jr, jc + 1);
    }
    outline(&mut out, "window", jr, jc);
    rect(&mut out, at.output_x, jr, jc, "current");
    match hover {
        Some((true, r, c)) => {
            for tr in rows.taps(r) {
                for tc in cols.taps(c) {
                    rect(&mut out, 0, tr, tc, "hl");
                }
            }
            rect(&mut out, at.output_x, r, c, "hl");
        }
        Some((false, r, c)) => {
            let readers_r: Vec<i64> = rows.readers(r).collect();
            for oc in cols.readers(c) {
                for &or in &readers_r {
                    rect(&mut out, at.output_x, or, oc, "hl");
                }
            }
            rect(&mut out, 0, r, c, "hl");
        }
        None => {}
    }
    out
}

/// A block's `transform` attribute.
pub fn block_transform(block: &Block, cell: i64) -> String {
    format!("translate({} {}) scale({cell})", block.x, block.y)
}

/// A block's cells as SVG markup (the children of its `<g>`).
pub fn block_cells_svg(block: &Block) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(block.cells.len() * 72);
    for cell in &block.cells {
        let _ = write!(
            out,
            r#"<rect class="{}" data-testid="{}" x="{}" y="{}" width="1" height="1"/>"#,
            cell.class, cell.testid, cell.c, cell.r
        );
    }
    out
}

/// The whole static layer as SVG markup: the labels, then each block's `<g>` with its cells.
/// Cells carry `data-testid` (`cell-input`, `cell-pad`, `cell-output`); their `x`/`y` are the
/// block's unit coordinates, which hover maps back through the block's `data-panel`.
pub fn scene_svg(scene: &Scene) -> String {
    let mut out = format!(r#"<g class="labels">{}</g>"#, scene.labels);
    for block in &scene.blocks {
        out.push_str(&format!(
            r#"<g class="block" data-panel="{}" transform="{}">"#,
            block.panel,
            block_transform(block, scene.cell)
        ));
        out.push_str(&block_cells_svg(block));
        out.push_str("</g>");
    }
    out
}

/// The picture's `aria-label` (the app's `<svg>` and the pre-rendered one).
pub const SVG_LABEL: &str =
    "Input with its padding, the window at the current step, and the output";

/// Layout width the app fits the picture into.
pub const MAX_WIDTH: i64 = 640;

/// The static picture of `spec` as `index.html` carries it before the wasm runs: the same
/// `<svg>` size and the same `g.base` markup the app draws (an e2e spec compares the two).
pub fn prerendered(spec: &LayerSpec) -> Option<String> {
    prerendered_up_to(spec, i64::MAX)
}

/// [`prerendered`], or `None` when the picture has more than `max_cells` cells.
pub fn prerendered_up_to(spec: &LayerSpec, max_cells: i64) -> Option<String> {
    let answer = crate::core::evaluate(spec).ok()?;
    let p = picture(spec, &answer)?;
    if p.cell_count() > max_cells {
        return None;
    }
    let at = layout(&p, MAX_WIDTH);
    let slice = p.depth.as_ref().map_or(0, |d| d.before);
    Some(format!(
        r#"<svg role="img" aria-label="{SVG_LABEL}" viewBox="0 0 {w} {h}" width="{w}"><g class="base">{}</g></svg>"#,
        base_svg(&p, &at, slice),
        w = at.width,
        h = at.height,
    ))
}

/// [`scene`] as markup.
pub fn base_svg(picture: &Picture, at: &Layout, slice: i64) -> String {
    scene_svg(&scene(picture, at, slice))
}

/// Seed 004 (6×6, kernel 5, stride 2, padding 2 -> 3×3), the picture several tests read.
#[cfg(test)]
fn seed_004() -> Picture {
    let c = crate::forms::compact::CompactSpec {
        stride: "2".into(),
        padding: "2".into(),
        ..crate::forms::compact::CompactSpec::new(
            Op::Conv,
            crate::core::Framework::Torch,
            "6x6",
            "5",
        )
    };
    let spec = c.to_spec().expect("seed 004 is valid");
    let answer = crate::core::evaluate(&spec).expect("seed 004 is accepted");
    picture(&spec, &answer).expect("seed 004 has a picture")
}

#[cfg(test)]
mod svg_tests {
    use super::*;

    #[test]
    fn the_base_layer_has_one_rect_per_cell_with_its_kind() {
        let p = seed_004();
        let svg = base_svg(&p, &layout(&p, 600), 0);
        assert_eq!(svg.matches("data-testid=\"cell-input\"").count(), 36);
        assert_eq!(svg.matches("data-testid=\"cell-pad\"").count(), 100 - 36);
        assert_eq!(svg.matches("data-testid=\"cell-output\"").count(), 9);
        // By side: top rows and left columns are before (2x8 + 6x2 = 28), bottom rows and
        // right columns after (28); the top-right and bottom-left 2x2 corners are both (8).
        assert_eq!(svg.matches("cell pad before").count(), 28);
        assert_eq!(svg.matches("cell pad after").count(), 28);
        assert_eq!(svg.matches("cell pad corner").count(), 8);
        // Row 9 and column 9 (the last padding) are never read: 19 dead cells.
        assert_eq!(svg.matches(" dead\"").count(), 19);
        assert!(
            svg.contains("padding top 2, bottom 2, left 2, right 2"),
            "{svg:.300}"
        );
    }
}

#[cfg(test)]
mod depth_tests {
    use super::*;
    use crate::core::{Framework, evaluate};
    use crate::forms::compact::CompactSpec;

    #[test]
    fn a_3d_layer_is_drawn_one_depth_slice_at_a_time() {
        let c = CompactSpec {
            padding: "1".into(),
            ..CompactSpec::new(Op::Conv, Framework::Torch, "3x4x4", "3")
        };
        let spec = c.to_spec().unwrap();
        let p = picture(&spec, &evaluate(&spec).unwrap()).unwrap();
        assert_eq!(p.depth.as_ref().map(Axis::len), Some(5));
        assert_eq!(p.steps(), 3 * 4 * 4);
        assert_eq!(p.step_index(17), vec![1, 0, 1]);
        assert_eq!(p.drawn_index(17), vec![0, 1]);
        // Output depth 1 reads slices 1, 2, 3 (padded coordinates); slice 0 is padding.
        assert!(p.reads_slice(17, 1) && p.reads_slice(17, 3) && !p.reads_slice(17, 0));
        let at = layout(&p, 600);
        let padding_slice = base_svg(&p, &at, 0);
        assert_eq!(
            padding_slice.matches("data-testid=\"cell-input\"").count(),
            0
        );
        let input_slice = base_svg(&p, &at, 2);
        assert_eq!(
            input_slice.matches("data-testid=\"cell-input\"").count(),
            16
        );
    }
}

#[cfg(test)]
mod scene_tests {
    use super::*;
    use crate::core::{Framework, evaluate};
    use crate::forms::compact::CompactSpec;

    fn scene_of(kernel: &str) -> Scene {
        let c = CompactSpec {
            padding: "same".into(),
            ..CompactSpec::new(Op::Conv, Framework::Keras, "32x32", kernel)
        };
        let spec = c.to_spec().unwrap();
        let p = picture(&spec, &evaluate(&spec).unwrap()).unwrap();
        scene(&p, &layout(&p, 640), 0)
    }

    #[test]
    fn a_padding_change_moves_the_input_block_instead_of_redrawing_it() {
        let (k3, k5) = (scene_of("3"), scene_of("5"));
        let [pad3, in3, out3] = &k3.blocks[..] else {
            panic!("three blocks")
        };
        let [pad5, in5, out5] = &k5.blocks[..] else {
            panic!("three blocks")
        };
        // The input and output cells are identical (the patch touches none of them); only the
        // input block's offset and the padding ring change.
        assert_eq!((&in3.shape, &in3.cells), (&in5.shape, &in5.cells));
        assert_eq!((&out3.shape, &out3.cells), (&out5.shape, &out5.cells));
        assert_ne!((in3.x, in3.y), (in5.x, in5.y));
        assert_eq!(
            (pad3.cells.len(), pad5.cells.len()),
            (34 * 34 - 1024, 36 * 36 - 1024)
        );
        // The padding grows by an outer ring: the inner ring's cells come first, unchanged.
        assert_eq!(pad5.cells[..pad3.cells.len()], pad3.cells[..]);
        assert!(in5.cells.iter().all(|c| c.testid == "cell-input"));
        assert!(pad5.cells.iter().all(|c| c.testid == "cell-pad"));
    }
}

#[cfg(test)]
mod canvas_tests {
    use super::*;

    #[test]
    fn hit_testing_finds_the_padded_input_and_output_cells() {
        let p = seed_004();
        let at = layout(&p, 640);
        let centre = |x0: i64, r: i64, c: i64| (x0 + c * at.cell + 1, at.top + r * at.cell + 1);
        let (x, y) = centre(0, 9, 0);
        assert_eq!(hit(&p, &at, x, y), Some((false, 9, 0)));
        let (x, y) = centre(at.output_x, 2, 1);
        assert_eq!(hit(&p, &at, x, y), Some((true, 2, 1)));
        assert_eq!(hit(&p, &at, 1, 1), None);
        let (x, y) = centre(at.output_x, 3, 0);
        assert_eq!(hit(&p, &at, x, y), None);
    }

    #[test]
    fn block_coordinates_map_back_to_padded_input_and_output() {
        let p = seed_004();
        assert_eq!(block_cell(&p, "in", 0, 0), Some((false, 2, 2)));
        assert_eq!(block_cell(&p, "pad", 7, -2), Some((false, 9, 0)));
        assert_eq!(block_cell(&p, "out", 2, 1), Some((true, 2, 1)));
        assert_eq!(block_cell(&p, "labels", 0, 0), None);
    }

    #[test]
    fn the_overlay_draws_taps_windows_and_hover_links() {
        let p = seed_004();
        let at = layout(&p, 640);
        let svg = overlay_svg(&p, &at, 1, 0, Some((true, 1, 1)));
        // Step 1 is output (0, 1): 25 taps, the window at column 2 (stride 2), the next one at 4.
        assert_eq!(svg.matches(r#"class="tap""#).count(), 25);
        assert!(svg.contains(&format!(r#"class="window" x="{}""#, 2 * at.cell)));
        assert!(svg.contains(&format!(r#"class="next-window" x="{}""#, 4 * at.cell)));
        assert_eq!(svg.matches(r#"class="current""#).count(), 1);
        // Hovering output (1, 1): its 25 taps and itself.
        assert_eq!(svg.matches(r#"class="hl""#).count(), 26);
        // The last window of a row has no next one.
        assert!(!overlay_svg(&p, &at, 2, 0, None).contains("next-window"));
    }

    #[test]
    fn every_cell_class_has_a_paint() {
        assert_eq!(paint("cell input"), ("--c-input", 1.0, false));
        assert_eq!(paint("cell input dead"), ("--c-input", 0.35, false));
        assert_eq!(paint("cell pad before dead"), ("--c-dead", 0.35, false));
        assert_eq!(paint("cell pad before"), ("--c-pad", 1.0, false));
        assert_eq!(paint("cell pad after"), ("--c-pad-after", 1.0, false));
        assert_eq!(paint("cell pad corner"), ("--c-pad-corner", 1.0, false));
        assert_eq!(paint("cell beyond"), ("--line", 1.0, true));
        assert_eq!(paint("cell out cropped"), ("--c-cropped", 1.0, false));
        assert_eq!(paint("cell out"), ("--c-out", 1.0, false));
    }
}
