//! Model code as people paste it: Python read by [`lexer`] and [`parser`] into the tree of
//! [`ast`], then evaluated ([`eval`], with Python's [`builtins`] and the frameworks' APIs in
//! [`torch`], [`keras`], [`layers`], [`sequence`] and [`ops`]) into the graph of its model ([`read`]).

pub mod ast;
pub mod builtins;
pub mod eval;
pub mod keras;
pub mod layers;
pub mod lexer;
pub mod ops;
pub mod params;
pub mod parser;
pub mod read;
pub mod sequence;
pub mod torch;
pub mod value;
pub mod zoo;

pub use lexer::SyntaxError;
pub use read::{Options, ReadError, Reading, read};
