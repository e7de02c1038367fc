//! The canvas renderer's pure half (pictures too large for one SVG element per cell): how
//! each cell kind is painted, from the one style table (`CellKind::style_in`); hit testing is
//! `scene::hit`. The app does the drawing.

#[cfg(test)]
mod tests {
    use crate::picture::Fill;
    use crate::picture::scene::{CellKind, Side, Style};

    fn p(kind: CellKind) -> (&'static str, f64, bool) {
        let Style {
            var,
            alpha,
            outline,
            ..
        } = kind.style_in(Fill::Zeros);
        (var, alpha, outline)
    }

    #[test]
    fn every_cell_kind_has_a_paint() {
        let pad = |side, dead| CellKind::Pad { side, dead };
        let paints = [
            (CellKind::Input { dead: false }, ("--c-input", 1.0, false)),
            (CellKind::Input { dead: true }, ("--c-input", 0.35, false)),
            (pad(Side::Before, true), ("--c-dead", 0.35, false)),
            (pad(Side::Before, false), ("--c-pad", 1.0, false)),
            (pad(Side::After, false), ("--c-pad-after", 1.0, false)),
            (pad(Side::Corner, false), ("--c-pad-corner", 1.0, false)),
            (CellKind::Beyond, ("--line", 1.0, true)),
            (
                CellKind::Output { cropped: true },
                ("--c-cropped", 1.0, false),
            ),
            (CellKind::Output { cropped: false }, ("--c-out", 1.0, false)),
        ];
        for (kind, paint) in paints {
            assert_eq!(p(kind), paint, "{kind:?}");
        }
        // Padding that copies the input has its own colour; dead padding stays grey.
        assert_eq!(
            pad(Side::After, false).style_in(Fill::Circular).var,
            "--c-pad-copy"
        );
        assert_eq!(
            pad(Side::After, true).style_in(Fill::Circular).var,
            "--c-dead"
        );
    }

    /// The style table and style/main.css say the same: each class's colour rule reads the
    /// variable the canvas paints with.
    #[test]
    fn the_style_table_matches_the_stylesheet() {
        let css = include_str!("../../style/main.css");
        let pad = |side, dead| CellKind::Pad { side, dead };
        let kinds = [
            CellKind::Input { dead: false },
            CellKind::Inserted { dead: false },
            pad(Side::Before, false),
            pad(Side::After, false),
            pad(Side::Corner, false),
            pad(Side::Before, true),
            CellKind::Output { cropped: false },
            CellKind::Output { cropped: true },
        ];
        for kind in kinds {
            let style = kind.style();
            // `cell pad before dead` is styled by `.cell.pad.dead`; `before` is the default side.
            let selector: String = style
                .class
                .split(' ')
                .filter(|c| *c != "before")
                .map(|c| format!(".{c}"))
                .collect();
            let rule = format!("{selector} {{ fill: var({}); }}", style.var);
            assert!(css.contains(&rule), "style/main.css lacks `{rule}`");
        }
        assert!(css.contains("{ fill: var(--c-pad-copy); }"));
        assert!(css.contains(".cell.dead { fill-opacity: 0.35; }"));
    }
}
