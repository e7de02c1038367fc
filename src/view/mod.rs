//! What the read-only panels show, computed natively and rendered as escaped markup.
//!
//! - [`panels`]: each panel's markup (`maud`): user text is escaped by construction;
//! - [`explain`]: each dimension's arithmetic with its numbers;
//! - [`compare`]: the same sizes under every framework's 'same';
//! - [`plot`]: the input-size sweep and its plotters SVG (drawn in the worker);
//! - [`presets`]: the one-click layers (the seeds among them);
//! - [`highlight`]: Python tokens for the code panel.

pub mod compare;
pub mod explain;
pub mod highlight;
pub mod panels;
pub mod plot;
pub mod presets;
