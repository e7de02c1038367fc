//! The canvas renderer's pure half (pictures too large for one SVG element per cell): how
//! each cell kind is painted, and which cell is under the pointer. The app does the drawing.

use super::axis::Picture;
use super::scene::{CellKind, Hit, Layout, Side, rows_cols};

/// How the canvas fills a cell: the CSS variable holding its colour, the opacity, and whether
/// it is only outlined (past the padding). Mirrors the `.cell` rules of style/main.css.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paint {
    pub var: &'static str,
    pub alpha: f64,
    pub outline: bool,
}

/// The paint of a cell kind.
pub fn paint(kind: CellKind) -> Paint {
    let fill = |var: &'static str, dead: bool| Paint {
        var,
        alpha: if dead { 0.35 } else { 1.0 },
        outline: false,
    };
    match kind {
        CellKind::Input { dead } => fill("--c-input", dead),
        CellKind::Inserted { dead } => fill("--c-inserted", dead),
        CellKind::Pad { dead: true, .. } => fill("--c-dead", true),
        CellKind::Pad {
            side: Side::Before, ..
        } => fill("--c-pad", false),
        CellKind::Pad {
            side: Side::After, ..
        } => fill("--c-pad-after", false),
        CellKind::Pad {
            side: Side::Corner, ..
        } => fill("--c-pad-corner", false),
        CellKind::Beyond => Paint {
            var: "--line",
            alpha: 1.0,
            outline: true,
        },
        CellKind::Output { cropped: true } => fill("--c-cropped", false),
        CellKind::Output { cropped: false } => fill("--c-out", false),
    }
}

/// Which cell is at layout point `(x, y)`: an element of the padded input (padded coordinates)
/// or of the output (hit testing on the canvas).
pub fn hit(picture: &Picture, at: &Layout, x: i64, y: i64) -> Option<Hit> {
    let (rows, cols) = rows_cols(picture);
    let cell = at.cell.max(1);
    if y < at.top {
        return None;
    }
    let r = (y - at.top) / cell;
    if x >= at.output_x {
        let c = (x - at.output_x) / cell;
        (r < rows.output && c < cols.output).then_some(Hit::Output { r, c })
    } else {
        let c = x / cell;
        (r < rows.len() && c < cols.len() && x >= 0).then_some(Hit::Input { r, c })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::scene::layout;
    use crate::picture::seed_004;

    #[test]
    fn hit_testing_finds_the_padded_input_and_output_cells() {
        let p = seed_004();
        let at = layout(&p, 640);
        let centre = |x0: i64, r: i64, c: i64| (x0 + c * at.cell + 1, at.top + r * at.cell + 1);
        let (x, y) = centre(0, 9, 0);
        assert_eq!(hit(&p, &at, x, y), Some(Hit::Input { r: 9, c: 0 }));
        let (x, y) = centre(at.output_x, 2, 1);
        assert_eq!(hit(&p, &at, x, y), Some(Hit::Output { r: 2, c: 1 }));
        assert_eq!(hit(&p, &at, 1, 1), None);
        let (x, y) = centre(at.output_x, 3, 0);
        assert_eq!(hit(&p, &at, x, y), None);
    }

    #[test]
    fn every_cell_kind_has_a_paint() {
        let p = |kind| {
            let Paint {
                var,
                alpha,
                outline,
            } = paint(kind);
            (var, alpha, outline)
        };
        assert_eq!(
            p(CellKind::Input { dead: false }),
            ("--c-input", 1.0, false)
        );
        assert_eq!(
            p(CellKind::Input { dead: true }),
            ("--c-input", 0.35, false)
        );
        let pad = |side, dead| CellKind::Pad { side, dead };
        assert_eq!(p(pad(Side::Before, true)), ("--c-dead", 0.35, false));
        assert_eq!(p(pad(Side::Before, false)), ("--c-pad", 1.0, false));
        assert_eq!(p(pad(Side::After, false)), ("--c-pad-after", 1.0, false));
        assert_eq!(p(pad(Side::Corner, false)), ("--c-pad-corner", 1.0, false));
        assert_eq!(p(CellKind::Beyond), ("--line", 1.0, true));
        assert_eq!(
            p(CellKind::Output { cropped: true }),
            ("--c-cropped", 1.0, false)
        );
        assert_eq!(
            p(CellKind::Output { cropped: false }),
            ("--c-out", 1.0, false)
        );
    }
}
