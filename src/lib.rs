//! padlab: how convolution and pooling padding works in each deep-learning framework.
//!
//! The folders say the role (ARCHITECTURE.md has the full code map and the invariants):
//!
//! - [`core`]: the rules: every framework's padding for conv, transposed conv and pooling in
//!   1 to 3 dimensions; `core::evaluate(&LayerSpec)` is the one question everything asks.
//! - [`forms`]: the spec in its three written forms: compact text (`100x20`, form fields and
//!   CLI flags), the URL query (permalinks) and JSON (`padlab eval`).
//! - [`codegen`]: equivalent code for another framework: lower to a plan, then render.
//! - [`picture`]: the picture's geometry, its scene of cells, SVG and canvas painting, and the
//!   diff that patches a drawn scene into the next.
//! - [`view`]: the read-only panels as escaped markup, and the pure content they show (the
//!   arithmetic, the framework comparison, the input-size plot, presets, highlighting).
//! - [`worker`]: the plain-text messages between the page and the code-generator worker.
//! - `app` (feature `web`): the Leptos components, thin over the pure modules above.
//!
//! Everything but `app` is pure: the browser crates are optional dependencies that only the
//! `web` and `worker` features enable, so the pure modules cannot import them.

#[cfg(feature = "web")]
pub mod app;
pub mod codegen;
pub mod core;
pub mod forms;
pub mod model;
pub mod picture;
pub mod view;
pub mod worker;
