//! The picture of one layer, in four pure steps the app only wires to the DOM:
//!
//! - [`axis`]: the geometry per axis (input, padding, past the padding, dead cells, the taps a
//!   window reads and the outputs that read a position; transposed as the zero-inserted direct
//!   convolution) and the [`Picture`] of a layer;
//! - [`strip`]: which positions of an axis are drawn (a large one keeps its edges and the
//!   current window, the middle elided);
//! - [`scene`]: how the picture fits the page ([`Fit`], [`Layout`]: the whole layer or its
//!   edges, beside or under) and the cells as three blocks of typed [`CellKind`]s (padding,
//!   input, output); hit testing;
//! - [`svg`] and [`canvas`]: the scene as SVG markup (with the moving overlay and the
//!   pre-rendered default picture), or as paints and hit tests for the canvas;
//! - [`values`]: the values mode (input values, what the padding holds, weights, outputs and
//!   one output's sum);
//! - [`words`]: the legend (only what is shown), the step and the depth slice in words;
//! - [`player`]: the frame and the player's decisions (SVG, canvas or nothing; the note; keys,
//!   zoom and scrub; the player's control names);
//! - [`patch`]: the edits that bring a drawn scene to the next one, so a control change touches
//!   only the cells that changed.

pub mod axis;
pub mod canvas;
pub mod patch;
pub mod player;
pub mod scene;
pub mod strip;
pub mod svg;
pub mod values;
pub mod words;

pub use axis::{Axis, Cell, Fill, Picture, Reduce, picture};
pub use scene::{
    Block, BlockCell, CellKind, Fit, Hit, Layout, Panel, Scene, View, hit, layout, scene,
};
pub use strip::{Slot, Strip};

/// The picture of a test layer: `(op, framework)`, `[input, kernel, stride, padding]` in the
/// compact notation, and any other field set by `f`.
#[cfg(test)]
pub(crate) fn test_picture(
    layer: (crate::core::Op, crate::core::Framework),
    fields: [&str; 4],
    f: impl Fn(&mut crate::forms::compact::CompactSpec),
) -> Picture {
    let spec = crate::forms::compact::test_layer(layer, fields, f);
    let answer = crate::core::evaluate(&spec).expect("an accepted test layer");
    picture(&spec, &answer).expect("a test layer with a picture")
}

/// Seed 004 (6×6, kernel 5, stride 2, padding 2 -> 3×3), the picture several tests read.
#[cfg(test)]
fn seed_004() -> Picture {
    use crate::core::{Framework, Op};
    test_picture((Op::Conv, Framework::Torch), ["6x6", "5", "2", "2"], |_| {})
}
