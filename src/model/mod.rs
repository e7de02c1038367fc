//! Whole models, pasted as Python: read the code ([`python`]), recognise its layers, chain the
//! shapes through the core, and port the model to another framework.

pub mod chain;
pub mod layers;
pub mod python;
pub mod read;
pub mod value;
