//! The static part of the picture: where its parts sit ([`Layout`]), and its cells as three
//! blocks (padding, input, output), each in unit coordinates under one transform, so a change of
//! padding or cell size moves a block instead of redrawing it. Every cell has a typed
//! [`CellKind`]; its CSS class, test id and canvas paint all come from it.

use super::axis::{Axis, Cell, Picture};

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

/// Which side a padding cell is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Top, left or front.
    Before,
    /// Bottom, right or back.
    After,
    /// Before in one dimension and after in another.
    Corner,
}

/// What a drawn cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// An input element; `dead` when no window reads it.
    Input { dead: bool },
    /// A zero inserted between input elements (transposed convolution).
    Inserted { dead: bool },
    /// Padding, coloured by side; `dead` when no window reads it.
    Pad { side: Side, dead: bool },
    /// Past the padding: ceil mode's last window reaches here, but nothing is read.
    Beyond,
    /// An output element; `cropped` for a transposed convolution's cropped full-output cell.
    Output { cropped: bool },
}

impl CellKind {
    /// The kind of a padded-input cell from its kinds along every axis (depth, rows, columns).
    pub fn of_input(kinds: [Cell; 3], dead: bool) -> CellKind {
        let any = |f: fn(&Cell) -> bool| kinds.iter().any(f);
        if any(|k| *k == Cell::Beyond) {
            CellKind::Beyond
        } else if any(|k| matches!(k, Cell::PadBefore | Cell::PadAfter)) {
            let side = match (
                any(|k| *k == Cell::PadBefore),
                any(|k| *k == Cell::PadAfter),
            ) {
                (true, false) => Side::Before,
                (false, true) => Side::After,
                _ => Side::Corner,
            };
            CellKind::Pad { side, dead }
        } else if any(|k| *k == Cell::Inserted) {
            CellKind::Inserted { dead }
        } else {
            CellKind::Input { dead }
        }
    }

    /// The `class` attribute (the `.cell` rules of style/main.css).
    pub fn class(self) -> &'static str {
        match self {
            CellKind::Input { dead: false } => "cell input",
            CellKind::Input { dead: true } => "cell input dead",
            CellKind::Inserted { dead: false } => "cell inserted",
            CellKind::Inserted { dead: true } => "cell inserted dead",
            CellKind::Pad {
                side: Side::Before,
                dead: false,
            } => "cell pad before",
            CellKind::Pad {
                side: Side::Before,
                dead: true,
            } => "cell pad before dead",
            CellKind::Pad {
                side: Side::After,
                dead: false,
            } => "cell pad after",
            CellKind::Pad {
                side: Side::After,
                dead: true,
            } => "cell pad after dead",
            CellKind::Pad {
                side: Side::Corner,
                dead: false,
            } => "cell pad corner",
            CellKind::Pad {
                side: Side::Corner,
                dead: true,
            } => "cell pad corner dead",
            CellKind::Beyond => "cell beyond",
            CellKind::Output { cropped: false } => "cell out",
            CellKind::Output { cropped: true } => "cell out cropped",
        }
    }

    /// The `data-testid`: `cell-input`, `cell-pad`, `cell-beyond` or `cell-output`.
    pub fn testid(self) -> &'static str {
        match self {
            CellKind::Input { .. } | CellKind::Inserted { .. } => "cell-input",
            CellKind::Pad { .. } => "cell-pad",
            CellKind::Beyond => "cell-beyond",
            CellKind::Output { .. } => "cell-output",
        }
    }
}

/// One cell of a [`Block`], in the block's own unit coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockCell {
    pub r: i64,
    pub c: i64,
    pub kind: CellKind,
}

/// Which part of the picture a block holds, and so which coordinates its cells are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// The padding ring, in input coordinates (negative in the padding before).
    Pad,
    /// The input, in input coordinates.
    Input,
    /// The output, in output coordinates.
    Output,
}

impl Panel {
    /// The `data-panel` attribute.
    pub fn name(self) -> &'static str {
        match self {
            Panel::Pad => "pad",
            Panel::Input => "in",
            Panel::Output => "out",
        }
    }

    /// The panel a `data-panel` attribute names.
    pub fn from_name(name: &str) -> Option<Panel> {
        [Panel::Pad, Panel::Input, Panel::Output]
            .into_iter()
            .find(|p| p.name() == name)
    }
}

/// A group of cells drawn in unit coordinates under one `translate(x y) scale(cell)`, so a
/// change of padding or cell size moves the group, not every cell: the app patches only the
/// cells whose state changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub panel: Panel,
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

/// A cell of the picture: an element of the padded input (padded coordinates) or of the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    Input { r: i64, c: i64 },
    Output { r: i64, c: i64 },
}

/// Maps a cell of the block `panel` at block coordinates `(r, c)` to the picture's cell.
pub fn block_cell(picture: &Picture, panel: Panel, r: i64, c: i64) -> Hit {
    match panel {
        Panel::Pad | Panel::Input => {
            let (rows, cols) = rows_cols(picture);
            Hit::Input {
                r: r + rows.before,
                c: c + cols.before,
            }
        }
        Panel::Output => Hit::Output { r, c },
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
        BlockCell {
            r,
            c,
            kind: CellKind::of_input(kinds, dead),
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
                kind: CellKind::Output { cropped },
            });
        }
    }
    let cell = at.cell;
    Scene {
        labels,
        cell,
        blocks: vec![
            Block {
                panel: Panel::Pad,
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
                panel: Panel::Input,
                x: cols.before * cell,
                y: at.top + rows.before * cell,
                shape: vec![rows.input, cols.input],
                cells: inputs,
            },
            Block {
                panel: Panel::Output,
                x: at.output_x,
                y: at.top,
                shape: vec![rows.output, cols.output],
                cells: outputs,
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Framework, Op, evaluate};
    use crate::forms::compact::CompactSpec;
    use crate::picture::axis::picture;
    use crate::picture::seed_004;

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
        assert!(in5.cells.iter().all(|c| c.kind.testid() == "cell-input"));
        assert!(pad5.cells.iter().all(|c| c.kind.testid() == "cell-pad"));
    }

    #[test]
    fn block_coordinates_map_back_to_padded_input_and_output() {
        let p = seed_004();
        assert_eq!(
            block_cell(&p, Panel::Input, 0, 0),
            Hit::Input { r: 2, c: 2 }
        );
        assert_eq!(block_cell(&p, Panel::Pad, 7, -2), Hit::Input { r: 9, c: 0 });
        assert_eq!(
            block_cell(&p, Panel::Output, 2, 1),
            Hit::Output { r: 2, c: 1 }
        );
        assert_eq!(Panel::from_name("in"), Some(Panel::Input));
        assert_eq!(Panel::from_name("labels"), None);
    }

    #[test]
    fn kinds_name_their_class_and_test_id() {
        let corner = CellKind::of_input([Cell::Input, Cell::PadBefore, Cell::PadAfter], true);
        assert_eq!(corner.class(), "cell pad corner dead");
        assert_eq!(corner.testid(), "cell-pad");
        let beyond = CellKind::of_input([Cell::Input, Cell::Beyond, Cell::PadAfter], false);
        assert_eq!(beyond, CellKind::Beyond);
        assert_eq!(
            CellKind::Output { cropped: true }.class(),
            "cell out cropped"
        );
    }
}
