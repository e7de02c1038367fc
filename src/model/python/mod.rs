//! Reading pasted Python: [`lexer`] (logical lines and tokens), [`parser`] (statements and
//! expressions). Pure, bounded in time and depth, and never panics on any text.

pub mod lexer;
pub mod parser;

pub use lexer::SyntaxError;
pub use parser::{Arg, BinaryOp, Expr, ExprKind, Param, Star, Statement, StmtKind, UnaryOp};

/// Reads `src` into statements, or the first error Python itself would report while reading it
/// (an unterminated string, an unclosed bracket, a character Python does not have).
pub fn read(src: &str) -> Result<Vec<Statement>, SyntaxError> {
    Ok(parser::parse(&lexer::lex(src)?))
}
