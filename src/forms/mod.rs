//! One layer spec, three written forms, each with one parse and one format:
//!
//! - [`compact`]: text fields (`100x20`, `same`, `1,2x0,0`): the web form and CLI flags;
//! - [`controls`]: the web form's controls over compact (names, values, which apply);
//! - [`permalink`]: the URL query (`?op=conv&fw=keras&in=100x20&k=4x1&p=same`), over compact;
//! - [`wire`]: JSON, the `padlab eval` / `inverse` / `link` contract.
//!
//! All three produce a [`crate::core::LayerSpec`]; round trips are tested in each module.

pub mod compact;
pub mod controls;
pub mod permalink;
pub mod wire;
