//! The canvas renderer's pure half (pictures too large for one SVG element per cell): how
//! each cell kind is painted (hit testing is `scene::hit`). The app does the drawing.

use super::scene::{CellKind, Side};

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

#[cfg(test)]
mod tests {
    use super::*;

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
