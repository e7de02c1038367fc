//! The calculation core: every framework's padding rules for convolution, transposed
//! convolution and pooling in 1 to 3 dimensions.
//!
//! Architecture invariant: this module tree imports no browser or UI crate;
//! `tests/core_is_pure.rs` checks it. Nothing here panics on user input:
//! every refusal is a [`PadError`].

mod answer;
mod conv;
mod error;
mod geometry;
mod inverse;
mod onnx_spec;
mod pool;
mod rules;
mod spec;
mod transpose;

pub use answer::{Answer, AxisAnswer, Placement};
pub use error::{PadError, layer_name};
pub use geometry::Geometry;
pub use inverse::{InverseError, Solution, inverse};
pub use onnx_spec::{SpecAxis, onnx_spec_departure, onnx_spec_same};
pub use rules::{Arg, default_padding, takes};
pub use spec::{Backend, Dims, Framework, LayerSpec, Op, Padding, PaddingMode, UnknownName};

/// `values` joined by `sep`: `join(&[100, 20], "x")` is `100x20`. The one list formatter behind
/// the compact sizes, Python tuples and error messages.
pub fn join<T: std::fmt::Display>(values: &[T], sep: &str) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        let _ = write!(out, "{v}");
    }
    out
}

/// Answers one layer: its output size and the padding (or crop) the framework applies, or the
/// reason the framework refuses it.
pub fn evaluate(spec: &LayerSpec) -> Result<Answer, PadError> {
    if spec.backend.is_some() && spec.framework != Framework::Keras {
        return Err(PadError::NotAccepted {
            framework: spec.framework,
            op: spec.op,
            what: "a backend".into(),
            hint: "only Keras runs on several backends (KERAS_BACKEND)".into(),
        });
    }
    let geometry = Geometry::of(spec)?;
    match spec.op {
        Op::Conv => conv::evaluate(spec, &geometry),
        Op::ConvTranspose => transpose::evaluate(spec, &geometry),
        Op::MaxPool | Op::AvgPool => pool::evaluate(spec, &geometry),
    }
}
