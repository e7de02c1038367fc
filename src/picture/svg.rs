//! The picture as SVG markup: the static scene (labels and blocks), the moving overlay (the
//! window, its taps, the next window, hover links), and the default layer's picture that
//! `index.html` carries before the wasm runs.

use std::fmt::Write;

use crate::core::{LayerSpec, evaluate};

use super::axis::{Axis, Picture, picture};
use super::scene::{Block, BlockCell, Hit, Layout, Scene, layout, rows_cols, scene};

/// The moving part of the picture as SVG markup: the window's taps (dilation leaves holes; in
/// 3-D only on the slices it reads), its outline, the next window one stride on (dashed), the
/// current output, and the cells linked to the hovered one.
pub fn overlay_svg(p: &Picture, at: &Layout, step: i64, slice: i64, hover: Option<Hit>) -> String {
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
        Some(Hit::Output { r, c }) => {
            for tr in rows.taps(r) {
                for tc in cols.taps(c) {
                    rect(&mut out, 0, tr, tc, "hl");
                }
            }
            rect(&mut out, at.output_x, r, c, "hl");
        }
        Some(Hit::Input { r, c }) => {
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

/// The whole static layer as SVG markup: the labels, then each block's `<g>` with its cells.
/// Cells carry `data-testid` (`cell-input`, `cell-pad`, `cell-output`); their `x`/`y` are the
/// block's unit coordinates, which hover maps back through the block's `data-panel`.
pub fn scene_svg(scene: &Scene) -> String {
    let mut out = format!(r#"<g class="labels">{}</g>"#, scene.labels);
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

/// Layout width the app fits the picture into.
pub const MAX_WIDTH: i64 = 640;

/// The static picture of `spec` as `index.html` carries it before the wasm runs: the same
/// `<svg>` size and the same `g.base` markup the app draws (an e2e spec compares the two).
pub fn prerendered(spec: &LayerSpec) -> Option<String> {
    prerendered_up_to(spec, i64::MAX)
}

/// [`prerendered`], or `None` when the picture has more than `max_cells` cells.
pub fn prerendered_up_to(spec: &LayerSpec, max_cells: i64) -> Option<String> {
    let answer = evaluate(spec).ok()?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::seed_004;

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
mod depth_and_overlay_tests {
    use super::*;
    use crate::core::{Framework, Op};
    use crate::forms::compact::CompactSpec;
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

    #[test]
    fn the_overlay_draws_taps_windows_and_hover_links() {
        let p = seed_004();
        let at = layout(&p, 640);
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
}
