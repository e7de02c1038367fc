//! What the read-only panels show, computed natively and rendered as escaped markup.
//!
//! - [`panels`]: each panel's markup (`maud`): user text is escaped by construction;
//! - [`controls`]: the layer's settings form (static markup the app writes values into);
//! - [`explain`]: each dimension's arithmetic with its numbers;
//! - [`compare`]: the same sizes under every framework's 'same';
//! - [`plot`]: the input-size sweep and its plotters SVG (drawn in the worker);
//! - [`model`]: the Whole model view's shell and the worker's output for a model;
//! - [`presets`]: the one-click layers (the seeds among them);
//! - [`highlight`]: Python tokens for the code panel.

pub mod compare;
pub mod controls;
pub mod explain;
pub mod highlight;
pub mod model;
pub mod panels;
pub mod plot;
pub mod presets;
