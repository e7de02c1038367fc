//! A whole model in another framework: every layer exact, as the single-layer generator makes
//! it (a native argument only where the core confirms identical numbers), chained at the real
//! input sizes; short where stock modules do it (an explicit pad before a convolution, say),
//! with the single-layer generator's own definition embedded where they do not.
//!
//! One writer per target ([`torch`], [`keras`], [`tf`], [`jax`]) turns the chained layers into
//! code and says how each source weight is loaded into it ([`Load`]); [`check`] writes the
//! self-check script around both models.

mod check;
mod jax;
mod keras;
mod tf;
mod torch;

use std::fmt;

use crate::codegen::writer::Py;
use crate::core::Framework;

use super::chain::{Row, Shape, chain, first_error};
use super::layers::Layer;
use super::read::SourceModel;

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
    /// A layer is refused at its input size (the table shows why).
    Refused {
        layer: usize,
        line: usize,
        reason: String,
    },
    /// padlab has no translation for this layer into the target.
    Untranslated { line: usize, what: String },
}

impl fmt::Display for PortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PortError::NoInput => f.write_str(
                "the code does not state the input shape: give one sample's shape in the source's layout (e.g. --input 32x32x3 for Keras, 3x32x32 for PyTorch)",
            ),
            PortError::Refused { layer, line, reason } => {
                write!(f, "layer {} (line {line}) is refused: {reason}", layer + 1)
            }
            PortError::Untranslated { line, what } => write!(f, "line {line}: {what}"),
        }
    }
}

impl std::error::Error for PortError {}

/// How one source layer's weights are loaded into the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Load {
    /// The source layer's index.
    pub layer: usize,
    pub kind: LoadKind,
    /// Where the weights go: a module or layer expression (torch, Keras) or a params key
    /// (TF, JAX), written by the target's writer.
    pub target: String,
    /// Where the bias goes when it is added apart from the layer (after a crop).
    pub bias_target: Option<String>,
    /// Zero-insert the kernel with this dilation (a target that cannot stride a dilated kernel).
    pub dilate: Option<Vec<i64>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LoadKind {
    Conv {
        transposed: bool,
    },
    /// A dense layer; `flatten`: the (channels, spatial) map it reads flattened, when the two
    /// frameworks flatten it in different orders.
    Dense {
        flatten: Option<(i64, Vec<i64>)>,
    },
    /// A batch normalisation over `features` values.
    Norm {
        features: i64,
    },
}

/// A model written in the target framework.
pub(crate) struct TargetModel {
    /// Helper definitions, then the model (`model = ...`, or `def model(x, params)`).
    pub py: Py,
    pub loads: Vec<Load>,
}

/// What the writers read: the model, its table, and its input.
pub(crate) struct Chained<'a> {
    pub model: &'a SourceModel,
    pub rows: &'a [Row],
    pub input: &'a Shape,
}

impl Chained<'_> {
    /// Layer `i`'s input shape (every row has one: the chain was checked).
    pub fn input_of(&self, i: usize) -> &Shape {
        self.rows[i].input.as_ref().unwrap_or(self.input)
    }

    /// The final output shape.
    pub fn output(&self) -> &Shape {
        self.rows
            .last()
            .and_then(|r| r.output.as_ref())
            .unwrap_or(self.input)
    }

    /// When the model's output is a flattened map (no dense after the last flatten): the map,
    /// whose flattening order differs between channels-first and channels-last frameworks.
    pub fn flat_output_map(&self) -> Option<(i64, Vec<i64>)> {
        for (i, l) in self.model.layers.iter().enumerate().rev() {
            match &l.layer {
                Layer::Flatten => {
                    return match self.input_of(i) {
                        Shape::Map { channels, spatial } if spatial.iter().any(|&s| s > 1) => {
                            Some((*channels, spatial.clone()))
                        }
                        _ => None,
                    };
                }
                Layer::Dense { .. } | Layer::GlobalPool { .. } => return None,
                _ => {}
            }
        }
        None
    }

    /// The flattened map a dense layer `i` reads, when a flatten made it from a map with more
    /// than one position (then the frameworks' orders differ).
    pub fn dense_flatten(&self, i: usize) -> Option<(i64, Vec<i64>)> {
        for j in (0..i).rev() {
            match &self.model.layers[j].layer {
                Layer::Flatten => {
                    return match self.input_of(j) {
                        Shape::Map { channels, spatial } if spatial.iter().any(|&s| s > 1) => {
                            Some((*channels, spatial.clone()))
                        }
                        _ => None,
                    };
                }
                Layer::Dense { .. } | Layer::GlobalPool { .. } => return None,
                _ => {}
            }
        }
        None
    }
}

/// Ports `model` (one sample's input `input` in the source's layout, when the code does not
/// state it) to `target`.
pub fn port(
    model: &SourceModel,
    input: Option<&[i64]>,
    target: Framework,
    options: PortOptions,
) -> Result<Ported, PortError> {
    let shape = input_shape(model, input)?;
    let rows = chain(model, Some(shape.clone()));
    if let Some((i, reason)) = first_error(&rows) {
        return Err(PortError::Refused {
            layer: i,
            line: model.layers[i].line,
            reason: reason.to_string(),
        });
    }
    let chained = Chained {
        model,
        rows: &rows,
        input: &shape,
    };
    let written = match target {
        Framework::Torch => torch::write(&chained)?,
        Framework::Keras => keras::write(&chained)?,
        Framework::Tf => tf::write(&chained)?,
        Framework::Jax => jax::write(&chained)?,
        Framework::Onnx => {
            return Err(PortError::Untranslated {
                line: 1,
                what:
                    "ONNX is not a porting target: export the PyTorch port with torch.onnx.export"
                        .into(),
            });
        }
    };
    let code = written.py.finish();
    let script = options
        .check
        .then(|| check::script(&chained, target, &written));
    Ok(Ported {
        target,
        code,
        script,
    })
}

/// How many axes one sample has at the model's first layer that says (a convolution's spatial
/// axes and the channels, or a dense layer's features).
fn sample_rank(model: &SourceModel) -> Option<usize> {
    model.layers.iter().find_map(|l| match (&l.layer, l.rank) {
        (Layer::Dense { .. }, _) => Some(1),
        (_, Some(r)) => Some(r + 1),
        _ => None,
    })
}

/// The input shape: the code's, or the one given (in the source's layout; a leading batch size,
/// as in a printed `torch.Size([64, 32, 100, 20])`, is dropped); both must agree.
pub fn input_shape(model: &SourceModel, given: Option<&[i64]>) -> Result<Shape, PortError> {
    let given = given.map(|g| match sample_rank(model) {
        Some(rank) if g.len() == rank + 1 => &g[1..],
        _ => g,
    });
    let sizes = match (&model.input, given) {
        (Some(stated), Some(given)) if stated.as_slice() != given => {
            return Err(PortError::Untranslated {
                line: model.layers.first().map_or(1, |l| l.line),
                what: format!(
                    "the code states the input shape {stated:?}, but {given:?} was given"
                ),
            });
        }
        (Some(stated), _) => stated.clone(),
        (None, Some(given)) => given.to_vec(),
        (None, None) => return Err(PortError::NoInput),
    };
    if sizes.iter().any(|&s| s < 1) {
        return Err(PortError::Untranslated {
            line: 1,
            what: format!("the input shape {sizes:?} has a size below 1"),
        });
    }
    Shape::from_layout(model.framework, &sizes).ok_or(PortError::Untranslated {
        line: 1,
        what: format!("an input of {} axes (padlab ports 1 to 3 spatial axes and a channel axis, or a vector)", sizes.len()),
    })
}

/// The number of spatial axes of a map shape (0 for a vector).
pub(crate) fn rank(shape: &Shape) -> usize {
    match shape {
        Shape::Map { spatial, .. } => spatial.len(),
        Shape::Flat(_) => 0,
    }
}
