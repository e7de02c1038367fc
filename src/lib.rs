//! padlab: how convolution and pooling padding works in each deep-learning framework.
//!
//! - [`core`]: the rules (pure Rust, no browser crates);
//! - [`codegen`]: equivalent code for another framework (lower, then render);
//! - [`compact`]: the `100x20` / `1,2x0,0` text form shared by CLI flags, the form and URLs;
//! - [`wire`]: the JSON form of a spec and an answer, shared by the CLI and the app;
//! - `app`: the Leptos web app (built for wasm32 by Trunk).

pub mod app;
pub mod codegen;
pub mod compact;
pub mod compare;
pub mod core;
pub mod explain;
pub mod grid;
pub mod highlight;
pub mod panels;
pub mod permalink;
pub mod plot;
pub mod presets;
pub mod wire;
