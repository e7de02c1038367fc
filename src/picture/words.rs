//! What the picture says in words: the legend (only what the picture shows), the step, the
//! depth slice. Worded so that they cannot be misread ("padding holds zeros", never "padding
//! is 0").

use super::axis::{Cell, Fill, Picture};
use super::scene::{CellKind, Layout, Scene, Side, rows_cols};

/// The legend: `(swatch class, text)` per thing the picture shows.
pub fn legend(picture: &Picture, scene: &Scene, at: &Layout) -> Vec<(&'static str, String)> {
    // The kinds present, in one pass over the cells.
    let mut kinds: Vec<CellKind> = Vec::new();
    for block in &scene.blocks {
        for c in &block.cells {
            if !kinds.contains(&c.kind) {
                kinds.push(c.kind);
            }
        }
    }
    let has = |f: &dyn Fn(CellKind) -> bool| kinds.iter().any(|&k| f(k));
    let (rows, cols) = rows_cols(picture);
    let fill = picture.fill.words();
    let mut out: Vec<(&'static str, String)> = Vec::new();
    if has(&|k| matches!(k, CellKind::Input { .. })) {
        out.push(("input", "input".into()));
    }
    if has(&|k| matches!(k, CellKind::Inserted { .. })) {
        let every = cols.inserted_every.max(rows.inserted_every);
        out.push((
            "inserted",
            format!("zero inserted between inputs (stride {every})"),
        ));
    }
    let one_d = picture.axes.len() == 1;
    if has(&|k| {
        matches!(
            k,
            CellKind::Pad {
                side: Side::Before | Side::Corner,
                dead: false
            }
        )
    }) {
        let sides = if one_d { "left" } else { "top, left" };
        out.push(("pad", format!("padding before ({sides}): {fill}")));
    }
    if has(&|k| {
        matches!(
            k,
            CellKind::Pad {
                side: Side::After,
                dead: false
            }
        )
    }) {
        let sides = if one_d { "right" } else { "bottom, right" };
        out.push(("pad-after", format!("padding after ({sides}): {fill}")));
    }
    if has(&|k| {
        matches!(
            k,
            CellKind::Input { dead: true }
                | CellKind::Inserted { dead: true }
                | CellKind::Pad { dead: true, .. }
        )
    }) {
        out.push(("dead", "dead: no window reads it".into()));
    }
    if has(&|k| k == CellKind::Beyond) {
        out.push((
            "beyond",
            "past the padding: ceil mode's last window reaches it, nothing is read".into(),
        ));
    }
    out.push(("tap", "the window's taps".into()));
    if cols.output > 1 {
        out.push(("next-window", "next window, one stride on".into()));
    }
    if has(&|k| k == CellKind::Output { cropped: false }) {
        out.push(("out", "output".into()));
    }
    if has(&|k| k == CellKind::Output { cropped: true }) {
        out.push(("cropped", "cropped from the full output".into()));
    }
    if at.elided() {
        out.push(("gap", "elided: the middle, counted in the gap".into()));
    }
    out.push(("hl", "linked to the hovered cell".into()));
    out
}

/// The step in words: "Window 2 of 9 (output 0, 1)."
pub fn step_text(picture: &Picture, step: i64) -> String {
    let index = picture.step_index(step);
    format!(
        "Window {} of {} (output {}).",
        step.saturating_add(1),
        picture.steps(),
        crate::core::join(&index, ", ")
    )
}

/// A 3-D layer's depth slice in words: what it holds and whether the window reads it.
pub fn depth_text(picture: &Picture, step: i64, slice: i64) -> Option<String> {
    let depth = picture.depth.as_ref()?;
    let kind = match depth.cell(slice) {
        Cell::PadBefore | Cell::PadAfter => "padding",
        Cell::Beyond => "past the padding",
        _ if depth.is_dead(slice) => "input, never read",
        _ => "input",
    };
    let read = if picture.reads_slice(step, slice) {
        "; the current window reads it"
    } else {
        ""
    };
    Some(format!(
        "Depth slice {slice} of {} ({kind}{read})",
        depth.len()
    ))
}

/// What fills the padding, in a sentence.
pub fn fill_sentence(fill: Fill) -> String {
    format!("Padding cells hold {}.", fill.words())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Framework, Op, evaluate};
    use crate::forms::compact::CompactSpec;
    use crate::picture::{Fit, layout, picture, scene, test_picture};

    fn legend_of(layer: (Op, Framework), fields: [&str; 4], mode: Option<&str>) -> Vec<String> {
        let pic = test_picture(layer, fields, |c: &mut CompactSpec| {
            c.padding_mode = mode.map(|m| m.parse().unwrap())
        });
        let at = layout(&pic, 0, &Fit::default());
        legend(&pic, &scene(&pic, &at, 0), &at)
            .into_iter()
            .map(|(_, t)| t)
            .collect()
    }

    #[test]
    fn the_legend_lists_only_what_the_picture_shows() {
        // Valid padding: no padding, dead or ceil entries.
        let plain = legend_of((Op::Conv, Framework::Torch), ["6x6", "3", "1", "0"], None);
        assert!(
            !plain
                .iter()
                .any(|t| t.contains("padding") || t.contains("dead") || t.contains("ceil")),
            "{plain:?}"
        );
        // Reflect padding is named as such, not as zeros.
        let reflect = legend_of(
            (Op::Conv, Framework::Torch),
            ["6x6", "3", "1", "1"],
            Some("reflect"),
        );
        assert!(
            reflect.iter().any(|t| t.contains("mirrored (reflect)")),
            "{reflect:?}"
        );
        assert!(!reflect.iter().any(|t| t.contains("zeros")));
        // A transposed layer: inserted zeros and the cropped output.
        let t = legend_of(
            (Op::ConvTranspose, Framework::Keras),
            ["4", "3", "2", "same"],
            None,
        );
        assert!(t.iter().any(|t| t.contains("zero inserted")), "{t:?}");
        assert!(t.iter().any(|t| t.contains("cropped")), "{t:?}");
        // Max pooling pads with −∞; ceil mode reaches past the padding.
        let pool = legend_of((Op::MaxPool, Framework::Torch), ["7", "2", "2", "0"], None);
        assert!(!pool.iter().any(|t| t.contains("padding")));
        let mut c = CompactSpec::new(Op::MaxPool, Framework::Torch, "7", "2");
        c.ceil_mode = true;
        let spec = c.to_spec().unwrap();
        let pic = picture(&spec, &evaluate(&spec).unwrap()).unwrap();
        let at = layout(&pic, 0, &Fit::default());
        let l = legend(&pic, &scene(&pic, &at, 0), &at);
        assert!(l.iter().any(|(c, _)| *c == "beyond"));
        assert_eq!(
            fill_sentence(pic.fill),
            "Padding cells hold −∞ (a max never picks it)."
        );
        assert_eq!(step_text(&pic, 1), "Window 2 of 4 (output 1).");
    }
}
