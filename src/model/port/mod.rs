//! A whole model in another framework: the graph lowered once ([`plan`]: layouts, the
//! single-layer plans of its convolutions and pools, the weights to copy), then rendered per
//! target ([`torch`], [`keras`], [`tf`], [`jax`]), one line per source operation with its line
//! in a comment; [`check`] writes the self-check script around the source and the port. What
//! every target's writer shares (a step's comment and error line, the tensors' names, helper
//! definitions, the pool and element-wise rules) is in `lines`; what TF and JAX share, in
//! `function`.

pub mod check;
mod function;
pub mod jax;
pub mod keras;
mod lines;
pub mod plan;
pub mod tf;
pub mod torch;

use std::fmt;

use crate::codegen::plan::Spelling;
use crate::codegen::writer::Py;
use crate::core::Framework;
use crate::model::graph::Graph;

use super::Model;

/// What to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortOptions {
    /// A complete script that builds both models, copies the weights and compares outputs.
    pub check: bool,
}

/// A ported model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ported {
    pub target: Framework,
    /// The model in the target framework (what a porter pastes).
    pub code: String,
    /// With `check`: the complete self-check script.
    pub script: Option<String>,
}

/// Why a model cannot be ported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortError {
    /// No input shape: the code states none and none was given.
    NoInput,
    /// An operation is refused at its input size (the table shows why).
    Refused {
        line: usize,
        name: String,
        reason: String,
    },
    /// padlab has no translation for this operation into the target.
    Untranslated { line: usize, what: String },
}

impl PortError {
    pub fn at(line: usize, what: impl Into<String>) -> PortError {
        PortError::Untranslated {
            line,
            what: what.into(),
        }
    }
}

impl fmt::Display for PortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PortError::NoInput => f.write_str(
                "the code does not state the input shape: give one sample's shape in the source's layout (e.g. --input 32x32x3 for Keras, 3x32x32 for PyTorch)",
            ),
            // Line 0: a model file's node, which has no line.
            PortError::Refused { line: 0, name, reason } => write!(f, "{name} is refused: {reason}"),
            PortError::Refused { line, name, reason } => write!(f, "line {line}: {name} is refused: {reason}"),
            PortError::Untranslated { line: 0, what } => f.write_str(what),
            PortError::Untranslated { line, what } => write!(f, "line {line}: {what}"),
        }
    }
}

impl std::error::Error for PortError {}

/// How the check script reaches a ported layer's weights.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// The layer (a module or layer expression, or a params key).
    pub layer: String,
    /// Where the bias goes when the port adds it apart.
    pub bias: Option<String>,
    /// A separable convolution's pointwise half.
    pub pointwise: Option<String>,
}

/// A model written in the target framework.
pub struct Written {
    /// Helper definitions, then the model (`model = ...`, or `def model(x, params)`).
    pub py: Py,
    /// Per plan step with weights: how to reach them.
    pub access: Vec<(usize, Access)>,
}

/// Ports `model` to `target`.
pub fn port(model: &Model, target: Framework, options: PortOptions) -> Result<Ported, PortError> {
    if let super::Origin::Missing { line, what } = &model.origin {
        return Err(PortError::at(*line, what.clone()));
    }
    let (py, script) = match target {
        Framework::Torch => port_to(model, options, torch::write)?,
        Framework::Keras => port_to(model, options, keras::write)?,
        Framework::Tf => port_to(model, options, tf::write)?,
        Framework::Jax => port_to(model, options, jax::write)?,
        other => {
            return Err(PortError::at(
                0,
                format!("porting to {} is not written yet", other.title()),
            ));
        }
    };
    Ok(Ported {
        target,
        code: py.finish(),
        script: script.transpose()?,
    })
}

/// The graph lowered for padding type `P` and written by `write`, with the check script when
/// asked for.
fn port_to<P: Spelling>(
    model: &Model,
    options: PortOptions,
    write: fn(&Graph, &plan::PortPlan<P>) -> Result<Written, PortError>,
) -> Result<(Py, Option<Result<String, PortError>>), PortError> {
    let plan = plan::lower_graph::<P>(&model.graph)?;
    let written = write(&model.graph, &plan)?;
    let script = options
        .check
        .then(|| check::script(model, &plan.view(), &written));
    Ok((written.py, script))
}

/// A float as a Python literal (`1e-05`, `0.1`, `1.0`, `float("inf")`).
pub(crate) fn float(v: f64) -> String {
    if v.is_infinite() {
        return if v > 0.0 {
            "float(\"inf\")".into()
        } else {
            "float(\"-inf\")".into()
        };
    }
    crate::model::code::value::python_float(v)
}

/// `True` or `False`.
pub(crate) fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}
