//! Whole models, pasted as Python: read the code ([`python`], [`read`]) into its [`layers`],
//! chain the shapes through the core ([`chain`]), and port the model to another framework with
//! a self-check ([`port`]). [`report`] is the table as the CLI's JSON.

pub mod chain;
pub mod file;
pub mod graph;
pub mod layers;
pub mod op;
pub mod port;
pub mod python;
pub mod read;
pub mod report;
pub mod value;
