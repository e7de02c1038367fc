//! The picture as SVG markup: the static scene (labels and blocks), the moving overlay (the
//! window, its taps, the next window, hover links), and the default layer's picture that
//! `index.html` carries before the wasm runs.

use std::fmt::Write;

use crate::core::{LayerSpec, evaluate};

use super::axis::{Axis, Picture, picture};
use super::scene::{
    Block, BlockCell, Fit, GapLabel, Hit, Labels, Layout, Scene, layout, rows_cols, scene,
};
use super::strip::Strip;

/// The slots of `positions` on `strip`, merged into runs `(first slot, count)`.
fn runs(strip: &Strip, positions: impl Iterator<Item = i64>) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for slot in positions.filter_map(|p| strip.slot(p)) {
        match out.last_mut() {
            Some((first, n)) if *first + *n == slot => *n += 1,
            _ => out.push((slot, 1)),
        }
    }
    out
}

/// The taps of output `j` drawn on `strip` (bounded by the strip, not by the kernel).
fn tap_runs(axis: &Axis, strip: &Strip, j: i64) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for &(a, b) in strip.segments() {
        out.extend(runs(strip, axis.taps_in(j, a, b)));
    }
    out
}

/// The outputs drawn on `strip` that read position `p`.
fn reader_runs(axis: &Axis, strip: &Strip, p: i64) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for &(a, b) in strip.segments() {
        out.extend(runs(strip, axis.readers_in(p, a, b)));
    }
    out
}

/// The slots `[lo, hi)` that show positions `a..b` on `strip` (a gap inside counts).
fn cover(strip: &Strip, a: i64, b: i64) -> Option<(i64, i64)> {
    let (mut lo, mut hi) = (None, None);
    let mut note = |from: i64, to: i64, first_slot: i64, per_position: bool| {
        if from < b && to > a {
            let (s0, s1) = if per_position {
                (
                    first_slot + (a.max(from) - from),
                    first_slot + (b.min(to) - from),
                )
            } else {
                (first_slot, first_slot + 1)
            };
            lo.get_or_insert(s0);
            hi = Some(s1);
        }
    };
    let (mut slot, mut next) = (0i64, 0i64);
    for &(from, to) in strip.segments() {
        if from > next {
            note(next, from, slot, false);
            slot += 1;
        }
        note(from, to, slot, true);
        slot = slot.saturating_add(to - from);
        next = to;
    }
    if next < strip.len() && !strip.segments().is_empty() {
        note(next, strip.len(), slot, false);
    }
    Some((lo?, hi?))
}

/// Rectangles for the cells at every (row run, column run) pair: one per cell while they are
/// few, one per pair of runs beyond that (a dense kernel is one block).
fn rects(
    out: &mut String,
    grid: (i64, i64),
    cell: i64,
    rows: &[(i64, i64)],
    cols: &[(i64, i64)],
    class: &str,
) {
    let cells: i64 = rows.iter().map(|r| r.1).sum::<i64>() * cols.iter().map(|c| c.1).sum::<i64>();
    let per_cell = cells <= 1024;
    for &(r0, rn) in rows {
        for &(c0, cn) in cols {
            if per_cell {
                for r in r0..r0 + rn {
                    for c in c0..c0 + cn {
                        let _ = write!(
                            out,
                            r#"<rect class="{class}" x="{}" y="{}" width="{cell}" height="{cell}"/>"#,
                            grid.0 + c * cell,
                            grid.1 + r * cell
                        );
                    }
                }
            } else {
                let _ = write!(
                    out,
                    r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}"/>"#,
                    grid.0 + c0 * cell,
                    grid.1 + r0 * cell,
                    cn * cell,
                    rn * cell
                );
            }
        }
    }
}

/// The moving part of the picture as SVG markup: the window's taps (dilation leaves holes; in
/// 3-D only on the slices it reads), its outline, the next window one stride on (dashed), the
/// current output, and the cells linked to the hovered one. Bounded by the drawn slots.
pub fn overlay_svg(p: &Picture, at: &Layout, step: i64, slice: i64, hover: Option<Hit>) -> String {
    let (rows, cols) = rows_cols(p);
    let (jr, jc) = match p.drawn_index(step).as_slice() {
        [r, c] => (*r, *c),
        [c] => (0, *c),
        _ => (0, 0),
    };
    let cell = at.cell;
    let mut out = String::new();
    if p.reads_slice(step, slice) {
        rects(
            &mut out,
            at.input,
            cell,
            &tap_runs(&rows, &at.in_rows, jr),
            &tap_runs(&cols, &at.in_cols, jc),
            "tap",
        );
    }
    let outline = |out: &mut String, class: &str, r: i64, c: i64| {
        let (ra, ca) = (rows.start(r), cols.start(c));
        if let (Some((r0, r1)), Some((c0, c1))) = (
            cover(&at.in_rows, ra, ra.saturating_add(rows.span())),
            cover(&at.in_cols, ca, ca.saturating_add(cols.span())),
        ) {
            let _ = write!(
                out,
                r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}"/>"#,
                at.input.0 + c0 * cell,
                at.input.1 + r0 * cell,
                (c1 - c0) * cell,
                (r1 - r0) * cell
            );
        }
    };
    if jc + 1 < cols.output {
        outline(&mut out, "next-window", jr, jc + 1);
    }
    outline(&mut out, "window", jr, jc);
    // The marks: a block's origin, its (row, column) runs, the class.
    let one = |rows: &Strip, cols: &Strip, r: i64, c: i64| {
        let slot = |strip: &Strip, p: i64| strip.slot(p).map(|s| vec![(s, 1)]).unwrap_or_default();
        (slot(rows, r), slot(cols, c))
    };
    let mut marks = vec![(
        at.output,
        one(&at.out_rows, &at.out_cols, jr, jc),
        "current",
    )];
    match hover {
        Some(Hit::Output { r, c }) => {
            let taps = (
                tap_runs(&rows, &at.in_rows, r),
                tap_runs(&cols, &at.in_cols, c),
            );
            marks.push((at.input, taps, "hl"));
            marks.push((at.output, one(&at.out_rows, &at.out_cols, r, c), "hl"));
        }
        Some(Hit::Input { r, c }) => {
            let readers = (
                reader_runs(&rows, &at.out_rows, r),
                reader_runs(&cols, &at.out_cols, c),
            );
            marks.push((at.output, readers, "hl"));
            marks.push((at.input, one(&at.in_rows, &at.in_cols, r, c), "hl"));
        }
        None => {}
    }
    for (grid, (row_runs, col_runs), class) in marks {
        rects(&mut out, grid, cell, &row_runs, &col_runs, class);
    }
    out
}

/// A block's `transform` attribute.
pub fn block_transform(block: &Block, cell: i64) -> String {
    format!("translate({} {}) scale({cell})", block.x, block.y)
}

/// A block's cells as SVG markup (the children of its `<g>`).
pub fn block_cells_svg(cells: &[BlockCell]) -> String {
    let mut out = String::with_capacity(cells.len() * 72);
    for cell in cells {
        let _ = write!(
            out,
            r#"<rect class="{}" data-testid="{}" x="{}" y="{}" width="1" height="1"/>"#,
            cell.kind.class(),
            cell.kind.testid(),
            cell.c,
            cell.r
        );
    }
    out
}

/// The picture's words as SVG markup: the grids' titles, then each elided band and its count.
pub fn labels_svg(labels: &Labels) -> String {
    let (ix, iy, input) = &labels.input;
    let (ox, oy, output) = &labels.output;
    let mut out = format!(
        r#"<text x="{ix}" y="{iy}" class="label" data-testid="pad-counts">{input}</text><text x="{ox}" y="{oy}" class="label">{output}</text>"#
    );
    for GapLabel {
        band: (x, y, w, h),
        text_at: (tx, ty),
        text,
    } in &labels.gaps
    {
        let _ = write!(
            out,
            r#"<rect class="gap" x="{x}" y="{y}" width="{w}" height="{h}"/><text class="gap-label" x="{tx}" y="{ty}" text-anchor="middle">{text}</text>"#
        );
    }
    out
}

/// The whole static layer as SVG markup: the labels, then each block's `<g>` with its cells.
/// Cells carry `data-testid` (`cell-input`, `cell-pad`, `cell-output`); their `x`/`y` are the
/// block's unit coordinates, which hover maps back through the block's `data-panel`.
pub fn scene_svg(scene: &Scene) -> String {
    let mut out = format!(r#"<g class="labels">{}</g>"#, labels_svg(&scene.labels));
    for block in &scene.blocks {
        out.push_str(&format!(
            r#"<g class="block" data-panel="{}" transform="{}">"#,
            block.panel.name(),
            block_transform(block, scene.cell)
        ));
        out.push_str(&block_cells_svg(&block.cells));
        out.push_str("</g>");
    }
    out
}

/// The picture's `aria-label` (the app's `<svg>` and the pre-rendered one).
pub const SVG_LABEL: &str =
    "Input with its padding, the window at the current step, and the output";

/// The static picture of `spec` as `index.html` carries it before the wasm runs: the same
/// `<svg>` size and the same `g.base` markup the app draws (an e2e spec compares the two).
pub fn prerendered(spec: &LayerSpec) -> Option<String> {
    prerendered_up_to(spec, i64::MAX, &Fit::default())
}

/// [`prerendered`] fitted by `fit`, or `None` when it would draw more than `max_cells` cells.
pub fn prerendered_up_to(spec: &LayerSpec, max_cells: i64, fit: &Fit) -> Option<String> {
    let answer = evaluate(spec).ok()?;
    let p = picture(spec, &answer)?;
    let at = layout(&p, 0, fit);
    let drawn =
        |r: &super::strip::Strip, c: &super::strip::Strip| r.slots().saturating_mul(c.slots());
    if drawn(&at.in_rows, &at.in_cols).saturating_add(drawn(&at.out_rows, &at.out_cols)) > max_cells
    {
        return None;
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::seed_004;

    #[test]
    fn the_base_layer_has_one_rect_per_cell_with_its_kind() {
        let p = seed_004();
        let svg = base_svg(&p, &layout(&p, 0, &Fit::default()), 0);
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
mod depth_and_overlay_tests {
    use super::*;
    use crate::core::{Framework, Op};
    use crate::forms::compact::CompactSpec;
    use crate::picture::scene::View;
    use crate::picture::seed_004;

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
        let at = layout(&p, 0, &Fit::default());
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

    #[test]
    fn the_overlay_draws_taps_windows_and_hover_links() {
        let p = seed_004();
        let at = layout(&p, 0, &Fit::default());
        let svg = overlay_svg(&p, &at, 1, 0, Some(Hit::Output { r: 1, c: 1 }));
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
    fn the_overlay_is_bounded_by_what_is_drawn_not_by_the_kernel() {
        // A 1500x1500 kernel on 1500x1500: 2.25 M taps, a few rectangles.
        for (input, k, d) in [
            ("1500x1500", "1500", "1"),
            ("1x2x2", "2000000000001x1x1", "1"),
        ] {
            let c = CompactSpec {
                dilation: d.into(),
                padding: if k.starts_with('2') {
                    "1000000000000x0x0".into()
                } else {
                    String::new()
                },
                ..CompactSpec::new(Op::Conv, Framework::Torch, input, k)
            };
            let spec = c.to_spec().unwrap();
            let p = picture(&spec, &evaluate(&spec).unwrap()).unwrap();
            for view in [View::Auto, View::Whole { cell: 0 }] {
                let at = layout(
                    &p,
                    0,
                    &Fit {
                        view,
                        ..Fit::default()
                    },
                );
                let svg = overlay_svg(&p, &at, 0, 0, Some(Hit::Input { r: 3, c: 3 }));
                assert!(svg.len() < 200_000, "{input} {view:?}: {} bytes", svg.len());
                let svg = overlay_svg(&p, &at, 0, 0, Some(Hit::Output { r: 0, c: 0 }));
                assert!(svg.len() < 200_000, "{input} {view:?}: {} bytes", svg.len());
            }
        }
    }
}
