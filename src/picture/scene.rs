//! The static part of the picture: where its parts sit ([`Layout`]), and its cells as three
//! blocks (padding, input, output), each in unit coordinates under one transform, so a change of
//! padding or cell size moves a block instead of redrawing it. Every cell has a typed
//! [`CellKind`]; its CSS class, test id and canvas paint all come from it.

use super::axis::{Axis, Cell, Picture};
use super::strip::{Slot, Strip, input_strip, output_strip};

/// How the picture is fitted to the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fit {
    /// The width available, in CSS px (one layout unit is one CSS px).
    pub width: i64,
    /// The tallest the picture may be.
    pub max_height: i64,
    /// The smallest readable cell.
    pub min_cell: i64,
    pub view: View,
}

/// What the picture shows of a large layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The whole layer when its cells are readable at this width, else its edges.
    Auto,
    /// The edges and the current window, the middle elided.
    Edges,
    /// Every cell, at `cell` units (0: fitted to the width, however small).
    Whole { cell: i64 },
}

impl Default for Fit {
    fn default() -> Fit {
        Fit {
            width: 640,
            max_height: 520,
            min_cell: 12,
            view: View::Auto,
        }
    }
}

/// The largest cell the picture uses.
pub const MAX_CELL: i64 = 28;
/// Height of a label row above a grid.
const LABEL: i64 = 18;
/// Height of the row under a grid that labels its elided columns.
const GAP_LABEL: i64 = 16;

/// Where the picture's parts sit, in whole layout units (CSS px; zero at the top left), and
/// which positions each grid draws. Integers on purpose: no float formatting in the wasm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Side of one cell.
    pub cell: i64,
    /// The drawn input rows and columns (padded coordinates) and output rows and columns.
    pub in_rows: Strip,
    pub in_cols: Strip,
    pub out_rows: Strip,
    pub out_cols: Strip,
    /// Top left of slot (0, 0) of the input grid and of the output grid.
    pub input: (i64, i64),
    pub output: (i64, i64),
    /// The output sits under the input (1-D layers, narrow pages) instead of beside it.
    pub stacked: bool,
    pub width: i64,
    pub height: i64,
}

impl Layout {
    /// Whether some axis is elided.
    pub fn elided(&self) -> bool {
        ![&self.in_rows, &self.in_cols, &self.out_rows, &self.out_cols]
            .iter()
            .all(|s| s.is_whole())
    }

    /// A grid's origin offset: a whole input strip keeps input coordinates (so a change of
    /// padding moves the blocks instead of redrawing them); an elided one draws slots.
    fn origin(strip: &Strip, before: i64) -> i64 {
        if strip.is_whole() { before } else { 0 }
    }
}

/// The two axes as (rows, columns); a 1-D layer is one row.
pub fn rows_cols(picture: &Picture) -> (Axis, Axis) {
    let unit = Axis::unit();
    match picture.axes.as_slice() {
        [cols] => (unit, cols.clone()),
        [rows, cols, ..] => (rows.clone(), cols.clone()),
        [] => (unit.clone(), unit),
    }
}

/// The label over the input grid: "input; padding top 1, bottom 2, left 0, right 0".
pub fn input_label(picture: &Picture) -> String {
    let (rows, cols) = rows_cols(picture);
    let sides = if picture.axes.len() == 1 {
        format!("padding left {}, right {}", cols.before, cols.after)
    } else {
        format!(
            "padding top {}, bottom {}, left {}, right {}",
            rows.before, rows.after, cols.before, cols.after
        )
    };
    let zeros = if picture.transposed {
        " (zeros inserted)"
    } else {
        ""
    };
    format!("input{zeros}; {sides}")
}

/// Places the grids of `strips` (input rows, input columns, output rows, output columns) at
/// `cell` units.
fn place(cell: i64, stacked: bool, strips: [Strip; 4], label_width: i64) -> Layout {
    let [in_rows, in_cols, out_rows, out_cols] = strips;
    let gap_row = |cols: &Strip| if cols.is_whole() { 0 } else { GAP_LABEL };
    let in_h = in_rows.slots().saturating_mul(cell);
    let out_h = out_rows.slots().saturating_mul(cell);
    let in_w = in_cols.slots().saturating_mul(cell);
    let out_w = out_cols.slots().saturating_mul(cell);
    let input = (0, LABEL);
    let (output, width, height) = if stacked {
        let y = in_h.saturating_add(LABEL + gap_row(&in_cols) + LABEL);
        (
            (0, y),
            in_w.max(out_w).max(label_width).saturating_add(1),
            y.saturating_add(out_h)
                .saturating_add(gap_row(&out_cols) + 1),
        )
    } else {
        // Past the input grid and its label (12 px text, about 7 px a character).
        let x = in_w
            .saturating_add(cell.saturating_mul(2).clamp(16, 32))
            .max(label_width);
        (
            (x, LABEL),
            x.saturating_add(out_w).saturating_add(1),
            in_h.max(out_h)
                .saturating_add(LABEL + gap_row(&in_cols).max(gap_row(&out_cols)) + 1),
        )
    };
    Layout {
        cell,
        in_rows,
        in_cols,
        out_rows,
        out_cols,
        input,
        output,
        stacked,
        width,
        height,
    }
}

/// Cell size and positions for a picture at window `step`, fitted by `fit`: the whole layer
/// when its cells are readable (or asked for), else its edges and the current window.
pub fn layout(picture: &Picture, step: i64, fit: &Fit) -> Layout {
    let (rows, cols) = rows_cols(picture);
    let one_d = picture.axes.len() == 1;
    let (jr, jc) = match picture.drawn_index(step).as_slice() {
        [r, c] => (*r, *c),
        [c] => (0, *c),
        _ => (0, 0),
    };
    let width = fit.width.max(160);
    let height = (fit.max_height - 2 * LABEL - 2 * GAP_LABEL).max(60);
    let label_width = input_label(picture).chars().count() as i64 * 7 + 12;
    // The whole layer, beside or under: the largest cell that fits.
    let whole_cell = |stacked: bool| {
        let (across, down) = if stacked {
            (
                cols.len().max(cols.output),
                rows.len().saturating_add(rows.output).saturating_add(2),
            )
        } else {
            (
                cols.len().saturating_add(cols.output).saturating_add(2),
                rows.len().max(rows.output),
            )
        };
        (width / across.max(1))
            .min(height / down.max(1))
            .min(MAX_CELL)
    };
    let whole = |stacked: bool, cell: i64| {
        place(
            cell.max(1),
            stacked,
            [
                Strip::whole(rows.len()),
                Strip::whole(cols.len()),
                Strip::whole(rows.output),
                Strip::whole(cols.output),
            ],
            label_width,
        )
    };
    let (mut side, under) = (whole_cell(false), whole_cell(true));
    // Beside the input, the output must also clear the input's label.
    if whole(false, side).width > width {
        side = 0;
    }
    let best_stacked = one_d || under > side;
    let best = side.max(under);
    match fit.view {
        View::Whole { cell } => {
            return whole(best_stacked, if cell > 0 { cell } else { best });
        }
        View::Auto if best >= fit.min_cell => return whole(best_stacked, best),
        _ => {}
    }
    // The edges: a readable cell, the slots it leaves split between the grids.
    let target = fit.min_cell.clamp(16, MAX_CELL);
    let across = width / target;
    let stacked = one_d || across < 36;
    // Two grids sharing `avail` slots: each gets what it needs when that fits, the input
    // three fifths otherwise.
    let share = |avail: i64, need_in: i64, need_out: i64| {
        let input = avail * 3 / 5;
        if need_in.saturating_add(need_out) <= avail {
            (need_in, need_out)
        } else if need_in <= input {
            (need_in, avail - need_in)
        } else if need_out <= avail - input {
            (avail - need_out, need_out)
        } else {
            (input, avail - input)
        }
    };
    let (in_across, out_across) = if stacked {
        (across, across)
    } else {
        share(across - 2, cols.len(), cols.output)
    };
    let down = height / target;
    let (in_down, out_down) = if stacked && !one_d {
        share(down - 2, rows.len(), rows.output)
    } else {
        (down, down)
    };
    let strips = [
        input_strip(&rows, jr, in_down),
        input_strip(&cols, jc, in_across),
        output_strip(&rows, jr, out_down),
        output_strip(&cols, jc, out_across),
    ];
    // Fewer slots than the budget (a small axis): larger cells, up to the largest.
    let (a, d) = if stacked {
        (
            strips[1].slots().max(strips[3].slots()),
            strips[0].slots() + strips[2].slots() + 2,
        )
    } else {
        (
            strips[1].slots() + strips[3].slots() + 2,
            strips[0].slots().max(strips[2].slots()),
        )
    };
    let cell = (width / a.max(1))
        .min(height / d.max(1))
        .clamp(target.min(MAX_CELL), MAX_CELL);
    place(cell, stacked, strips, label_width)
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

    /// How the cell looks: the one table from a cell kind to its style ([`STYLES`]), read by
    /// the SVG (the class) and the canvas (the colour's variable, the opacity, an outline). A
    /// test checks that style/main.css has the rule each row names.
    pub fn style(self) -> Style {
        let pad = |side, dead: bool| match side {
            Side::Before => 4,
            Side::After => 6,
            Side::Corner => 8,
        } + usize::from(dead);
        STYLES[match self {
            CellKind::Input { dead } => usize::from(dead),
            CellKind::Inserted { dead } => 2 + usize::from(dead),
            CellKind::Pad { side, dead } => pad(side, dead),
            CellKind::Beyond => 10,
            CellKind::Output { cropped } => 11 + usize::from(cropped),
        }]
    }

    /// The style under a padding `fill`: padding that copies the input (a torch
    /// `padding_mode`) has its own colour, not the zeros'.
    pub fn style_in(self, fill: super::Fill) -> Style {
        match self {
            CellKind::Pad { dead: false, .. } if fill.copies_input() => Style {
                var: "--c-pad-copy",
                ..self.style()
            },
            _ => self.style(),
        }
    }

    /// The `class` attribute (the `.cell` rules of style/main.css).
    pub fn class(self) -> &'static str {
        self.style().class
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

/// Each cell kind's style, in [`CellKind::style`]'s order: input, inserted, padding before,
/// after and in a corner (each live, then dead), past the padding, output, cropped output.
pub const STYLES: [Style; 13] = {
    const fn fill(class: &'static str, var: &'static str, dead: bool) -> Style {
        Style {
            class,
            var,
            alpha: if dead { 0.35 } else { 1.0 },
            outline: false,
        }
    }
    [
        fill("cell input", "--c-input", false),
        fill("cell input dead", "--c-input", true),
        fill("cell inserted", "--c-inserted", false),
        fill("cell inserted dead", "--c-inserted", true),
        fill("cell pad before", "--c-pad", false),
        fill("cell pad before dead", "--c-dead", true),
        fill("cell pad after", "--c-pad-after", false),
        fill("cell pad after dead", "--c-dead", true),
        fill("cell pad corner", "--c-pad-corner", false),
        fill("cell pad corner dead", "--c-dead", true),
        Style {
            class: "cell beyond",
            var: "--line",
            alpha: 1.0,
            outline: true,
        },
        fill("cell out", "--c-out", false),
        fill("cell out cropped", "--c-cropped", false),
    ]
};

/// How a cell kind is drawn ([`CellKind::style`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// The `class` attribute of an SVG cell.
    pub class: &'static str,
    /// The CSS variable holding its colour (the canvas reads it from the computed style).
    pub var: &'static str,
    /// Its opacity (dead cells are faded).
    pub alpha: f64,
    /// Only outlined, not filled (past the padding).
    pub outline: bool,
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

/// The words on the picture, as geometry (`svg::labels_svg` writes them): each grid's title
/// at its top left, and a band with its count over each elided run of rows or columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labels {
    /// The input's title (its pad counts), at `(x, y)`.
    pub input: (i64, i64, String),
    /// The output's title, at `(x, y)`.
    pub output: (i64, i64, &'static str),
    pub gaps: Vec<GapLabel>,
}

/// An elided run of rows or columns: the band `(x, y, width, height)` and its words, centred
/// at `text_at`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GapLabel {
    pub band: (i64, i64, i64, i64),
    pub text_at: (i64, i64),
    pub text: String,
}

/// The static part of the picture: the labels and three blocks (padding, input, output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    pub labels: Labels,
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
pub fn block_cell(picture: &Picture, at: &Layout, panel: Panel, r: i64, c: i64) -> Option<Hit> {
    let (rows, cols) = rows_cols(picture);
    let position = |strip: &Strip, origin: i64, v: i64| match strip.at(v + origin) {
        Some(Slot::At(p)) => Some(p),
        _ => None,
    };
    match panel {
        Panel::Pad | Panel::Input => Some(Hit::Input {
            r: position(&at.in_rows, Layout::origin(&at.in_rows, rows.before), r)?,
            c: position(&at.in_cols, Layout::origin(&at.in_cols, cols.before), c)?,
        }),
        Panel::Output => Some(Hit::Output {
            r: position(&at.out_rows, 0, r)?,
            c: position(&at.out_cols, 0, c)?,
        }),
    }
}

/// The slot of `x` on a grid that starts at `x0`, or `None` left of it.
fn slot_at(x: i64, x0: i64, cell: i64) -> Option<i64> {
    (x >= x0).then(|| (x - x0) / cell.max(1))
}

/// Which cell is at layout point `(x, y)`: an element of the padded input (padded coordinates)
/// or of the output, or nothing (a gap, a label, outside).
pub fn hit(at: &Layout, x: i64, y: i64) -> Option<Hit> {
    let on = |grid: (i64, i64), rows: &Strip, cols: &Strip| {
        let (r, c) = (slot_at(y, grid.1, at.cell)?, slot_at(x, grid.0, at.cell)?);
        match (rows.at(r)?, cols.at(c)?) {
            (Slot::At(r), Slot::At(c)) => Some((r, c)),
            _ => None,
        }
    };
    if let Some((r, c)) = on(at.output, &at.out_rows, &at.out_cols) {
        return Some(Hit::Output { r, c });
    }
    on(at.input, &at.in_rows, &at.in_cols).map(|(r, c)| Hit::Input { r, c })
}

/// The labels of a grid's elided rows (a band across the grid) and columns (a band down it,
/// the count under the grid).
fn gap_labels(out: &mut Vec<GapLabel>, grid: (i64, i64), rows: &Strip, cols: &Strip, cell: i64) {
    let (w, h) = (cols.slots() * cell, rows.slots() * cell);
    for (slot, from, to) in rows.gaps() {
        let y = grid.1 + slot * cell;
        out.push(GapLabel {
            band: (grid.0, y, w, cell),
            text_at: (grid.0 + w / 2, y + cell * 3 / 4),
            text: format!("⋯ {} rows ⋯", to - from),
        });
    }
    for (slot, from, to) in cols.gaps() {
        let x = grid.0 + slot * cell;
        out.push(GapLabel {
            band: (x, grid.1, cell, h),
            text_at: (x + cell / 2, grid.1 + h + GAP_LABEL - 4),
            text: format!(
                "{} {}",
                to - from,
                if rows.slots() == 1 { "elided" } else { "cols" }
            ),
        });
    }
}

/// The static cells of `picture` on depth slice `slice`, placed by `at`.
pub fn scene(picture: &Picture, at: &Layout, slice: i64) -> Scene {
    let (rows, cols) = rows_cols(picture);
    let (depth_kind, depth_dead) = match &picture.depth {
        Some(depth) => (depth.cell(slice), depth.is_dead(slice)),
        None => (Cell::Input, false),
    };
    let mut labels = Labels {
        input: (at.input.0, at.input.1 - 5, input_label(picture)),
        output: (
            at.output.0,
            at.output.1 - 5,
            if picture.transposed {
                "full output (crop marked)"
            } else {
                "output"
            },
        ),
        gaps: Vec::new(),
    };
    gap_labels(
        &mut labels.gaps,
        at.input,
        &at.in_rows,
        &at.in_cols,
        at.cell,
    );
    gap_labels(
        &mut labels.gaps,
        at.output,
        &at.out_rows,
        &at.out_cols,
        at.cell,
    );
    let (or, oc) = (
        Layout::origin(&at.in_rows, rows.before),
        Layout::origin(&at.in_cols, cols.before),
    );
    // Dead per drawn row and column, once each (not once per cell).
    let row_dead: Vec<bool> = at
        .in_rows
        .positions()
        .map(|(_, r)| rows.is_dead(r))
        .collect();
    let col_dead: Vec<bool> = at
        .in_cols
        .positions()
        .map(|(_, c)| cols.is_dead(c))
        .collect();
    let dead_at = |v: &[bool], slot: i64| {
        usize::try_from(slot)
            .ok()
            .and_then(|i| v.get(i))
            .copied()
            .unwrap_or(false)
    };
    let cell_at = |sr: i64, sc: i64, r: i64, c: i64| {
        let kinds = [depth_kind, rows.cell(r), cols.cell(c)];
        let beyond = kinds.contains(&Cell::Beyond);
        let dead = !beyond && (depth_dead || dead_at(&row_dead, sr) || dead_at(&col_dead, sc));
        BlockCell {
            r: sr - or,
            c: sc - oc,
            kind: CellKind::of_input(kinds, dead),
        }
    };
    let in_rows = rows.before..rows.before.saturating_add(rows.input);
    let in_cols = cols.before..cols.before.saturating_add(cols.input);
    // The padding ring innermost first, and the input and output in L-shaped shells from the
    // top left: when the padding grows or a size changes, the cells already drawn keep their
    // places and the difference is appended or dropped at the end.
    // Rings are counted in drawn slots (bounded by what is drawn): the distance from the
    // slots that draw input.
    let input_slots = |strip: &Strip, axis: &Axis| {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for (slot, p) in strip.positions() {
            if p >= axis.before && p - axis.before < axis.input {
                lo = lo.min(slot);
                hi = hi.max(slot);
            }
        }
        (lo, hi)
    };
    let (row_in, col_in) = (
        input_slots(&at.in_rows, &rows),
        input_slots(&at.in_cols, &cols),
    );
    let ring = |slot: i64, (lo, hi): (i64, i64)| {
        if lo > hi {
            0
        } else {
            (lo - slot).max(slot - hi).max(0)
        }
    };
    let shell = |r: i64, c: i64| r.max(c).max(0) as usize;
    // Bucketed (row-major within a bucket): no sort code in the page's wasm.
    let bucket = |buckets: &mut Vec<Vec<BlockCell>>, d: usize, cell: BlockCell| {
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        if let Some(b) = buckets.get_mut(d) {
            b.push(cell);
        }
    };
    let mut rings: Vec<Vec<BlockCell>> = Vec::new();
    let mut shells: Vec<Vec<BlockCell>> = Vec::new();
    let cols_drawn: Vec<(i64, i64)> = at.in_cols.positions().collect();
    for (sr, r) in at.in_rows.positions() {
        for &(sc, c) in &cols_drawn {
            let cell = cell_at(sr, sc, r, c);
            if in_rows.contains(&r) && in_cols.contains(&c) {
                bucket(&mut shells, shell(cell.r, cell.c), cell);
            } else {
                let d = ring(sr, row_in).max(ring(sc, col_in)).max(1) as usize - 1;
                bucket(&mut rings, d, cell);
            }
        }
    }
    let pads: Vec<BlockCell> = rings.into_iter().flatten().collect();
    let inputs: Vec<BlockCell> = shells.into_iter().flatten().collect();
    let mut out_shells: Vec<Vec<BlockCell>> = Vec::new();
    let out_cols: Vec<(i64, i64)> = at.out_cols.positions().collect();
    for (sr, r) in at.out_rows.positions() {
        for &(sc, c) in &out_cols {
            let cropped = picture.transposed && (rows.is_cropped(r) || cols.is_cropped(c));
            bucket(
                &mut out_shells,
                shell(sr, sc),
                BlockCell {
                    r: sr,
                    c: sc,
                    kind: CellKind::Output { cropped },
                },
            );
        }
    }
    let outputs: Vec<BlockCell> = out_shells.into_iter().flatten().collect();
    let cell = at.cell;
    let (x, y) = (
        at.input.0.saturating_add(oc.saturating_mul(cell)),
        at.input.1.saturating_add(or.saturating_mul(cell)),
    );
    Scene {
        labels,
        cell,
        blocks: vec![
            Block {
                panel: Panel::Pad,
                x,
                y,
                shape: vec![
                    rows.before,
                    rows.input,
                    rows.after.saturating_add(rows.beyond),
                    cols.before,
                    cols.input,
                    cols.after.saturating_add(cols.beyond),
                ],
                cells: pads,
            },
            Block {
                panel: Panel::Input,
                x,
                y,
                shape: vec![rows.input, cols.input],
                cells: inputs,
            },
            Block {
                panel: Panel::Output,
                x: at.output.0,
                y: at.output.1,
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
        scene(&p, &layout(&p, 0, &WIDE), 0)
    }

    /// A page wide enough for the whole of the small layers the tests draw.
    const WIDE: Fit = Fit {
        width: 2000,
        max_height: 2000,
        min_cell: 12,
        view: View::Auto,
    };

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
        let at = layout(&p, 0, &Fit::default());
        assert!(!at.elided());
        assert_eq!(
            block_cell(&p, &at, Panel::Input, 0, 0),
            Some(Hit::Input { r: 2, c: 2 })
        );
        assert_eq!(
            block_cell(&p, &at, Panel::Pad, 7, -2),
            Some(Hit::Input { r: 9, c: 0 })
        );
        assert_eq!(
            block_cell(&p, &at, Panel::Output, 2, 1),
            Some(Hit::Output { r: 2, c: 1 })
        );
        // Hit testing by point finds the same cells.
        let centre =
            |grid: (i64, i64), r: i64, c: i64| (grid.0 + c * at.cell + 1, grid.1 + r * at.cell + 1);
        let (x, y) = centre(at.input, 9, 0);
        assert_eq!(hit(&at, x, y), Some(Hit::Input { r: 9, c: 0 }));
        let (x, y) = centre(at.output, 2, 1);
        assert_eq!(hit(&at, x, y), Some(Hit::Output { r: 2, c: 1 }));
        assert_eq!(hit(&at, 1, 1), None);
        let (x, y) = centre(at.output, 3, 0);
        assert_eq!(hit(&at, x, y), None);
        assert_eq!(Panel::from_name("in"), Some(Panel::Input));
        assert_eq!(Panel::from_name("labels"), None);
    }

    fn spec_of(op: Op, fw: Framework, input: &str, k: &str, s: &str, p: &str) -> Picture {
        let c = CompactSpec {
            stride: s.into(),
            padding: p.into(),
            ..CompactSpec::new(op, fw, input, k)
        };
        let spec = c.to_spec().unwrap();
        picture(&spec, &evaluate(&spec).unwrap()).unwrap()
    }

    #[test]
    fn large_layers_show_their_edges_at_a_readable_size_on_any_page() {
        for (input, k, s, p) in [
            ("224x224", "7", "2", "same"),
            ("100x20", "4x1", "1", "same"),
            ("1000x1000", "3", "1", "valid"),
            ("3000", "5", "2", "same"),
            ("249", "3", "2", "same"),
            ("1500x1500", "1500", "1", "valid"),
        ] {
            let pic = spec_of(Op::Conv, Framework::Keras, input, k, s, p);
            for width in [358, 616, 900] {
                let fit = Fit {
                    width,
                    max_height: 520,
                    ..Fit::default()
                };
                let at = layout(&pic, 0, &fit);
                assert!(at.cell >= 12, "{input} at {width}: cell {}", at.cell);
                assert!(
                    at.width <= width.max(160) + 1,
                    "{input} at {width}: {}",
                    at.width
                );
                assert!(at.height <= 520, "{input} at {width}: height {}", at.height);
                let scene = scene(&pic, &at, 0);
                let cells: usize = scene.blocks.iter().map(|b| b.cells.len()).sum();
                assert!(cells < 5_000, "{input}: {cells} cells");
                // Both paddings are drawn: the first and the last padded positions.
                let (rows, cols) = rows_cols(&pic);
                assert!(at.in_cols.slot(0).is_some() && at.in_cols.slot(cols.len() - 1).is_some());
                assert!(at.in_rows.slot(0).is_some() && at.in_rows.slot(rows.len() - 1).is_some());
            }
        }
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
