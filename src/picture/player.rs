//! The picture's frame and player, pure: which renderer draws a layout and the note under it,
//! what a key or a player control does to the step, the zoom steps and the scrub's range. The
//! app's `GridView` only reads the DOM and calls these.

use super::{Layout, Picture, View};

/// Up to this many cells the static layer is SVG, one element per cell (with its test id);
/// above it, a canvas. Measured (BENCHMARKS.md): SVG holds 60 fps up to 128×128 (33k cells).
pub const SVG_CELLS: i64 = 40_000;
/// Above this nothing is drawn (a canvas that large passes browser limits).
pub const MAX_CELLS: i64 = 2_500_000;
/// Nor a canvas wider or taller than this (browsers refuse far larger ones silently).
pub const MAX_SIDE: i64 = 16_384;
/// The tallest the picture may be, in CSS px.
pub const MAX_HEIGHT: i64 = 520;
/// The smallest cell the picture draws unless the whole layer is asked for.
pub const MIN_CELL: i64 = 12;
/// The smallest cell that holds a value.
pub const VALUES_CELL: i64 = 24;

/// How the static layer is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renderer {
    Svg,
    Canvas,
    Nothing,
}

impl Renderer {
    /// How a layout is drawn: SVG while the cells are few, a canvas up to the browsers' limits,
    /// else nothing (the note says why).
    pub fn of(at: Option<&Layout>) -> Renderer {
        match at {
            Some(at) => {
                let n = drawn_cells(at);
                if n <= SVG_CELLS {
                    Renderer::Svg
                } else if n <= MAX_CELLS && at.width <= MAX_SIDE && at.height <= MAX_SIDE {
                    Renderer::Canvas
                } else {
                    Renderer::Nothing
                }
            }
            None => Renderer::Nothing,
        }
    }

    /// The grid's `data-renderer`.
    pub fn name(self) -> &'static str {
        if self == Renderer::Canvas {
            "canvas"
        } else {
            "svg"
        }
    }

    /// The test hook of the note under the picture.
    pub fn note_testid(self) -> &'static str {
        if self == Renderer::Canvas {
            "canvas-note"
        } else {
            "picture-note"
        }
    }
}

/// The cells a layout draws.
pub fn drawn_cells(at: &Layout) -> i64 {
    let grid = |r: &super::Strip, c: &super::Strip| r.slots().saturating_mul(c.slots());
    grid(&at.in_rows, &at.in_cols).saturating_add(grid(&at.out_rows, &at.out_cols))
}

/// The note under the picture: why nothing, or not everything, is drawn, or how.
pub fn note(has_picture: bool, at: Option<&Layout>, renderer: Renderer) -> String {
    match (has_picture, at, renderer) {
        (false, _, _) => "Nothing to draw for this layer.".to_string(),
        (_, Some(at), Renderer::Nothing) => format!(
            "{} cells: too many, or too wide, to draw whole here; show the edges instead.",
            drawn_cells(at)
        ),
        (_, Some(at), Renderer::Canvas) => format!(
            "{} cells: drawn on a canvas; hover and the window work as usual, cells are not separate elements.",
            drawn_cells(at)
        ),
        (_, Some(at), _) if at.elided() => {
            "The middle is elided: the edges, where the padding is, and the current window are drawn. Show the whole layer to see every cell.".to_string()
        }
        _ => String::new(),
    }
}

/// The windows in one row of the picture (the last axis's outputs).
pub fn row_len(p: &Picture) -> i64 {
    p.axes.last().map_or(1, |a| a.output.max(1))
}

/// Whether any axis is padded (the fill sentence is said only then).
pub fn padded(p: &Picture) -> bool {
    p.axes
        .iter()
        .chain(&p.depth)
        .any(|a| a.before > 0 || a.after > 0)
}

/// The scrub's range and position (rows of windows) at step `n`.
pub fn scrub(p: &Picture, n: i64) -> (i64, i64) {
    let per_row = row_len(p);
    ((p.steps().max(1) - 1) / per_row, n / per_row)
}

/// The step the scrub's position `row` stands for.
pub fn scrubbed(p: &Picture, row: i64) -> i64 {
    row.saturating_mul(row_len(p))
        .min(p.steps().max(1) - 1)
        .max(0)
}

/// `step` moved by `delta` windows, wrapping around `steps`.
pub fn moved(step: i64, delta: i64, steps: i64) -> i64 {
    step.saturating_add(delta).rem_euclid(steps.max(1))
}

/// The cell after a zoom in (`dir > 0`) or out, between 1 and 64 units.
pub fn zoomed(cell: i64, dir: i64) -> i64 {
    if dir > 0 {
        (cell * 2).min(64)
    } else {
        (cell / 2).max(1)
    }
}

/// What a key does in the picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    TogglePlay,
    /// Move the window by this many steps.
    Move(i64),
}

/// What `key` does at step `step` of a picture whose rows hold `row` windows; keys typed in
/// the picture's own form controls (`in_control`) belong to them.
pub fn key(key: &str, in_control: bool, row: i64, step: i64) -> Option<Key> {
    if in_control {
        return None;
    }
    Some(match key {
        " " | "k" => Key::TogglePlay,
        "ArrowRight" | "l" => Key::Move(1),
        "ArrowLeft" | "j" => Key::Move(-1),
        "ArrowDown" => Key::Move(row),
        "ArrowUp" => Key::Move(-row),
        "Home" => Key::Move(-step),
        _ => return None,
    })
}

/// The player's named controls: the `name` of each in the picture's markup
/// (`view::panels::grid_shell`), read back by the app's handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// The range of window rows.
    Scrub,
    /// The depth slice of a 3-D layer.
    Depth,
    /// The playing speed (ms a step).
    Speed,
    /// The values mode checkbox.
    Values,
    /// What is shown of a large layer ([`View`]).
    View,
}

impl Control {
    pub const ALL: [Control; 5] = [
        Control::Scrub,
        Control::Depth,
        Control::Speed,
        Control::Values,
        Control::View,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Control::Scrub => "scrub",
            Control::Depth => "depth",
            Control::Speed => "speed",
            Control::Values => "values",
            Control::View => "view",
        }
    }

    pub fn from_name(name: &str) -> Option<Control> {
        Control::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The view the `view` select's value asks for.
pub fn view_of(value: &str) -> View {
    match value {
        "edges" => View::Edges,
        "whole" => View::Whole { cell: 0 },
        _ => View::Auto,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::{Fit, layout};

    #[test]
    fn small_layouts_are_svg_and_large_ones_a_canvas_or_nothing() {
        let p = super::super::seed_004();
        let at = layout(&p, 0, &Fit::default());
        assert_eq!(Renderer::of(Some(&at)), Renderer::Svg);
        assert_eq!(Renderer::of(None), Renderer::Nothing);
        assert_eq!(note(true, Some(&at), Renderer::Svg), "");
        assert_eq!(
            note(false, None, Renderer::Nothing),
            "Nothing to draw for this layer."
        );
        assert!(note(true, Some(&at), Renderer::Canvas).contains("drawn on a canvas"));
        assert_eq!(Renderer::Canvas.name(), "canvas");
        assert_eq!(Renderer::Nothing.name(), "svg");
        assert_eq!(Renderer::Canvas.note_testid(), "canvas-note");
    }

    #[test]
    fn keys_move_the_window_and_leave_form_controls_alone() {
        assert_eq!(key(" ", false, 3, 5), Some(Key::TogglePlay));
        assert_eq!(key("l", false, 3, 5), Some(Key::Move(1)));
        assert_eq!(key("ArrowUp", false, 3, 5), Some(Key::Move(-3)));
        assert_eq!(key("Home", false, 3, 5), Some(Key::Move(-5)));
        assert_eq!(key("ArrowRight", true, 3, 5), None);
        assert_eq!(key("x", false, 3, 5), None);
        assert_eq!(moved(0, -1, 9), 8);
        assert_eq!(moved(8, 1, 9), 0);
        assert_eq!(moved(0, 1, 0), 0);
    }

    #[test]
    fn the_scrub_counts_rows_and_zoom_doubles_within_bounds() {
        let p = super::super::seed_004();
        // 3x3 outputs: rows of 3 windows, positions 0..=2.
        assert_eq!(row_len(&p), 3);
        assert_eq!(scrub(&p, 4), (2, 1));
        assert_eq!(scrubbed(&p, 2), 6);
        assert_eq!(scrubbed(&p, 99), 8);
        assert!(padded(&p));
        assert_eq!((zoomed(12, 1), zoomed(40, 1), zoomed(1, -1)), (24, 64, 1));
    }

    #[test]
    fn control_names_round_trip() {
        for c in Control::ALL {
            assert_eq!(Control::from_name(c.name()), Some(c));
        }
        assert_eq!(Control::from_name("volume"), None);
        assert_eq!(view_of("whole"), View::Whole { cell: 0 });
        assert_eq!(view_of("?"), View::Auto);
    }
}
