//! Model code as people paste it: Python read by [`lexer`] and [`parser`] into the tree of
//! [`ast`], then evaluated into a graph.

pub mod ast;
pub mod lexer;
pub mod parser;

pub use lexer::SyntaxError;
