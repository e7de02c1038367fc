//! Model files: an ONNX `ModelProto`, a Keras 3 `.keras` archive or a legacy Keras `.h5`, read
//! from their bytes into typed models ([`onnx::OnnxModel`], [`keras::KerasModel`]); an ONNX
//! model becomes a [`Graph`](super::graph::Graph) through [`onnx_graph`].
//!
//! The format is told by content, never by the file's name: a zip (`PK\x03\x04`) is a Keras 3
//! archive, the HDF5 signature a legacy Keras file, anything else is tried as ONNX protobuf.
//!
//! *Invariants:* pure (no browser crate); no input panics; time and memory are bounded by the
//! input's size and by the caps in [`limits`]: every claimed length is checked against the
//! bytes that remain before anything is allocated for it, repeated fields are counted against
//! their cap before they are decoded, and nesting is bounded (ONNX subgraphs are only noted as
//! present, JSON nesting is serde_json's 128, HDF5 continuation chains are capped). Weights
//! are never copied: a tensor's data is read only when it is small (a shape, pads, scales).
//! Every refusal is one [`FileError`] with one clear message.

mod fold;
pub mod h5;
pub mod keras;
pub mod keras_graph;
pub mod onnx;
pub mod onnx_graph;
mod resize;
mod wire;
mod zip;

use std::fmt;

pub use h5::read_h5;
pub use keras::{KerasModel, read_keras};
pub use onnx::{OnnxModel, read_onnx};

/// The caps every reader keeps to (a file past one is refused, never half-read).
pub mod limits {
    /// ONNX nodes in one graph.
    pub const NODES: usize = 200_000;
    /// ONNX initializers, inputs, outputs and `value_info` entries, each.
    pub const VALUES: usize = 400_000;
    /// Inputs, outputs and attributes of one node, each.
    pub const PER_NODE: usize = 10_000;
    /// Everything the ONNX reader allocates an item for (names, dims, attribute values): a
    /// bound on its memory whatever the file holds.
    pub const ITEMS: usize = 8_000_000;
    /// A tensor whose values are read (a shape, pads, scales): at most this many elements.
    pub const SMALL_TENSOR: usize = 4_096;
    /// Dimensions of one tensor.
    pub const RANK: usize = 64;
    /// A JSON model configuration (`config.json`, `model_config`), in bytes.
    pub const CONFIG_BYTES: usize = 64 << 20;
    /// Keras layers in one model, nested models included.
    pub const LAYERS: usize = 100_000;
    /// Models nested in a Keras model.
    pub const NESTING: usize = 32;
}

/// The formats padlab reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// ONNX protobuf (`.onnx`).
    Onnx,
    /// A Keras 3 archive (`.keras`: a zip holding `config.json`).
    Keras,
    /// A legacy Keras HDF5 file (`.h5`: the `model_config` attribute).
    Hdf5,
}

impl Format {
    pub fn title(self) -> &'static str {
        match self {
            Format::Onnx => "ONNX",
            Format::Keras => "Keras (.keras)",
            Format::Hdf5 => "Keras HDF5 (.h5)",
        }
    }

    /// Bytes of this format that break its rules.
    pub(crate) fn corrupt(self, what: impl Into<String>) -> FileError {
        FileError::Corrupt {
            format: self,
            what: what.into(),
        }
    }

    /// A file of this format that ends where more was announced.
    pub(crate) fn truncated(self, what: impl Into<String>) -> FileError {
        FileError::Truncated {
            format: self,
            what: what.into(),
        }
    }

    /// The format the bytes announce (zip or HDF5 signature), else ONNX to be tried.
    pub fn detect(bytes: &[u8]) -> Format {
        if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
            Format::Keras
        } else if bytes.starts_with(b"\x89HDF\r\n\x1a\n") {
            Format::Hdf5
        } else {
            Format::Onnx
        }
    }
}

/// Why a file was not read. One clear message each (`Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// Zero bytes.
    Empty,
    /// Not a model file padlab knows (no signature, and not an ONNX model either).
    NotAModel { reason: String },
    /// The file ends where more was announced.
    Truncated { format: Format, what: String },
    /// Bytes that break the format's rules.
    Corrupt { format: Format, what: String },
    /// More of something than padlab reads (nodes, layers, nesting): the count and the cap.
    TooLarge {
        format: Format,
        what: &'static str,
        limit: usize,
    },
    /// Valid, but a part of the format padlab does not read.
    Unsupported { format: Format, what: String },
    /// A Keras archive without the entry named.
    MissingEntry { name: &'static str },
    /// An HDF5 file without the `model_config` attribute (weights only, or not Keras).
    NoModelConfig,
    /// The model configuration is not the JSON Keras writes.
    Config { format: Format, what: String },
    /// A Keras layer padlab does not translate, or that refuses its input (its path).
    Layer { layer: String, what: String },
    /// An input with free sizes (ONNX `dim_param`, Keras `None`) and no size given.
    NeedsInput { input: String, declared: String },
    /// The size given does not fit the input's declared shape.
    InputMismatch {
        input: String,
        declared: String,
        given: Vec<i64>,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Empty => f.write_str("the file is empty (0 bytes)"),
            FileError::NotAModel { reason } => write!(
                f,
                "not a model file: neither a Keras archive (zip), a Keras HDF5 file nor an ONNX model ({reason})"
            ),
            FileError::Truncated { format, what } => {
                write!(f, "{} file cut short: {what}", format.title())
            }
            FileError::Corrupt { format, what } => {
                write!(f, "corrupt {} file: {what}", format.title())
            }
            FileError::TooLarge {
                format,
                what,
                limit,
            } => write!(
                f,
                "{} file too large to read: more than {limit} {what}",
                format.title()
            ),
            FileError::Unsupported { format, what } => {
                write!(f, "{} file not supported: {what}", format.title())
            }
            FileError::MissingEntry { name } => write!(
                f,
                "the zip file has no {name}: not a Keras 3 model archive (.keras)"
            ),
            FileError::NoModelConfig => f.write_str(
                "the HDF5 file has no model_config attribute: a weights-only file, or not saved by Keras",
            ),
            FileError::Config { format, what } => {
                write!(f, "the {} model configuration is not Keras's: {what}", format.title())
            }
            FileError::Layer { layer, what } if layer.is_empty() => f.write_str(what),
            FileError::Layer { layer, what } => write!(f, "layer {layer}: {what}"),
            FileError::NeedsInput { input, declared } => write!(
                f,
                "the input {input:?} has free sizes {declared}: give one sample's shape with --input (batch left out, e.g. --input 3x224x224 for ONNX, 224x224x3 for Keras)"
            ),
            FileError::InputMismatch {
                input,
                declared,
                given,
            } => write!(
                f,
                "--input {} does not fit the input {input:?}, declared {declared} (one sample, batch left out)",
                crate::core::join(given, "x")
            ),
        }
    }
}

impl std::error::Error for FileError {}

/// A model read from a file.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelFile {
    Onnx(OnnxModel),
    Keras(KerasModel),
}

impl ModelFile {
    pub fn format(&self) -> Format {
        match self {
            ModelFile::Onnx(_) => Format::Onnx,
            ModelFile::Keras(k) => k.format,
        }
    }
}

/// Reads a model file of any format padlab knows, told by its content.
pub fn read_file(bytes: &[u8]) -> Result<ModelFile, FileError> {
    if bytes.is_empty() {
        return Err(FileError::Empty);
    }
    match Format::detect(bytes) {
        Format::Keras => read_keras(bytes).map(ModelFile::Keras),
        Format::Hdf5 => read_h5(bytes).map(ModelFile::Keras),
        Format::Onnx => read_onnx(bytes).map(ModelFile::Onnx),
    }
}

/// A model file read into a [`Model`](super::Model): its graph, one sample's input shape, and
/// the file as the self-check's source. `input`: one sample's shape (batch left out) for the
/// first input, needed when the file leaves a size free; `path`: the file's name or path,
/// the self-check script's default argument.
pub fn open(bytes: &[u8], input: Option<&[i64]>, path: &str) -> Result<super::Model, FileError> {
    let file = read_file(bytes)?;
    let format = file.format();
    let external = match &file {
        ModelFile::Onnx(m) => external_files(m),
        ModelFile::Keras(_) => Vec::new(),
    };
    let (graph, sample) = match &file {
        ModelFile::Onnx(m) => onnx_model(m, input)?,
        ModelFile::Keras(k) => keras_graph::open_graph(k, input)?,
    };
    Ok(super::Model {
        graph,
        input: Some(sample),
        origin: super::Origin::File {
            format,
            path: path.to_string(),
            external,
        },
        others: Vec::new(),
        params: None,
    })
}

/// The files an ONNX model keeps its weights in beside it (external data), each once, in
/// the order first named.
pub fn external_files(m: &OnnxModel) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in &m.graph.initializers {
        if let Some(location) = &t.external
            && !out.contains(location)
        {
            out.push(location.clone());
        }
    }
    out
}

/// A file's text when it holds model code rather than a model file (`padlab port model.py`, a
/// `.py` dropped on the page): not a zip or HDF5 by its signature, not read as an ONNX model,
/// text (UTF-8 without control characters but tabs, line ends and form feeds: an ONNX protobuf
/// opens with a field tag below 0x20 and its numbers and tensors carry zeros), and either
/// Python that parses or a printed model. Other text stays a file that is not a model.
pub fn code_in(bytes: &[u8]) -> Option<&str> {
    let text_byte = |b: &u8| *b >= 0x20 || matches!(b, b'\t' | b'\n' | b'\r' | 0x0c);
    if bytes.is_empty() || !bytes.iter().all(text_byte) || Format::detect(bytes) != Format::Onnx {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let code = super::code::parser::parse(text).is_ok() || super::printed::find(text).is_some();
    (code && read_file(bytes).is_err()).then_some(text)
}

/// An ONNX model's graph at the given sample size (the batch is the file's, else 1).
fn onnx_model(
    m: &OnnxModel,
    input: Option<&[i64]>,
) -> Result<(super::graph::Graph, Vec<i64>), FileError> {
    use onnx::Dim;
    let initializers: std::collections::HashSet<&str> = m
        .graph
        .initializers
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    let first = m
        .graph
        .inputs
        .iter()
        .find(|i| !initializers.contains(i.name.as_str()));
    let describe = |dims: Option<&[Dim]>| {
        dims.map_or_else(|| "(unknown rank)".to_string(), onnx_graph::dims_text)
    };
    let mut sizes = onnx_graph::InputSizes::default();
    if let (Some(given), Some(first)) = (input, first) {
        let dims = first.shape.as_deref();
        let batch = match dims.and_then(|d| d.first()) {
            Some(Dim::Value(v)) if *v > 0 => *v,
            _ => 1,
        };
        let mut full = Vec::with_capacity(given.len() + 1);
        full.push(batch);
        full.extend_from_slice(given);
        let fits = match dims {
            None => true,
            Some(d) => {
                d.len() == full.len()
                    && d.iter().zip(&full).all(|(d, &v)| match d {
                        Dim::Value(x) => *x == v,
                        _ => v > 0,
                    })
            }
        };
        if !fits {
            return Err(FileError::InputMismatch {
                input: first.name.clone(),
                declared: describe(dims),
                given: given.to_vec(),
            });
        }
        sizes.first = Some(full);
    }
    let graph = onnx_graph::to_graph(m, &sizes)?;
    let mut sample = None;
    for (_, n) in graph.inputs() {
        match n.shape() {
            Some(s) => {
                if sample.is_none() {
                    sample = Some(s.get(1..).unwrap_or(&[]).to_vec());
                }
            }
            None => {
                let dims = m
                    .graph
                    .inputs
                    .iter()
                    .find(|i| i.name == n.name)
                    .and_then(|i| i.shape.as_deref());
                return Err(FileError::NeedsInput {
                    input: n.name.clone(),
                    declared: describe(dims),
                });
            }
        }
    }
    let sample = sample.ok_or_else(|| FileError::Unsupported {
        format: Format::Onnx,
        what: "the graph has no input".into(),
    })?;
    Ok((graph, sample))
}
