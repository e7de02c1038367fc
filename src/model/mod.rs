//! Whole models: every front end reads what the user has into one [`graph::Graph`] — pasted
//! code through an evaluator ([`code`]), printed models ([`printed`]: `print(model)` of a torch
//! module, Keras `model.summary()`) and (by their own module) model files — whose shapes come
//! from one rule per op ([`shape`], convolutions and pools through `core::evaluate`).
//! [`report`] is the table as the CLI's JSON.

pub mod code;
pub mod file;
pub mod graph;
pub mod op;
pub mod port;
pub mod printed;
pub mod report;
pub mod shape;

use graph::Graph;

/// How a self-check script rebuilds the source model.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// Python run in its own namespace (the paste's statements that ran, or code made from a
    /// printout), then `build` evaluated there.
    Code {
        code: String,
        build: String,
        /// Names the code uses but does not define, each with the line that defines it from
        /// the input shape (and a comment saying so).
        defined: Vec<(String, String)>,
        /// The model zoos the code builds on (`torchvision.models`, `keras.applications`):
        /// the script builds their models without downloading weights, and says whose
        /// architectures it ran.
        zoos: Vec<code::zoo::Zoo>,
    },
    /// The source cannot be rebuilt: what it lacks, at its line (a summary that does not say
    /// a layer's activation or pool size). Ports refuse with it.
    Missing { line: usize, what: String },
    /// A model file: the script loads the file itself (ONNX Runtime for ONNX,
    /// `keras.saving.load_model` for Keras), from its first argument or `path`.
    File {
        format: file::Format,
        path: String,
        /// The files beside it that hold its weights (ONNX external data), which the script
        /// loads with it.
        external: Vec<String>,
    },
}

/// A model read from what the user gave.
#[derive(Clone, Debug)]
pub struct Model {
    pub graph: Graph,
    /// One sample's input shape in the source's layout, when known.
    pub input: Option<Vec<i64>>,
    /// How the model is built, for the self-check.
    pub origin: Origin,
    /// The other models the input holds (`--model` picks one).
    pub others: Vec<String>,
    /// The source's parameter count as its framework counts it (torch `parameters()`, Keras
    /// `count_params()`), when padlab can compute it.
    pub params: Option<i64>,
}

/// What to read.
pub use code::Options;

/// Why nothing could be read: where (1-based line, 0 for the whole input) and why.
pub use code::ReadError;

/// Reads pasted text: Python model code, else a printed model (a torch printout or a Keras
/// summary). Code comes first; a paste that holds code and then what it printed (a forum post)
/// is read as its code when the code reads; the printed model is read otherwise.
pub fn read(text: &str, options: &Options) -> Result<Model, ReadError> {
    let code_error = match code::read(text, options) {
        Ok(r) => return Ok(from_code(text, r)),
        Err(e) => e,
    };
    let Some(found) = printed::find(text) else {
        return Err(code_error);
    };
    // The code above the printed model, without the prose between them ("Output:"): cut
    // before its first line that is not Python, a few times at most.
    let mut head = text.get(..found.offset).unwrap_or("");
    for _ in 0..4 {
        match code::parser::parse(head) {
            Ok(_) => break,
            Err(e) if e.line > 1 => {
                let cut = printed::lines(head)
                    .nth(e.line - 1)
                    .map_or(head.len(), |(_, at, _)| at);
                head = &head[..cut];
            }
            Err(_) => {
                head = "";
                break;
            }
        }
    }
    if !head.trim().is_empty()
        && let Ok(r) = code::read(head, options)
    {
        let mut m = from_code(head, r);
        m.graph.notes.push(format!(
            "line {}: what follows is a printed model; padlab read the code above it",
            found.line
        ));
        return Ok(m);
    }
    printed::read(text, found, options)
}

fn from_code(text: &str, r: code::Reading) -> Model {
    // The statements that ran, after the imports of the names the paste uses unimported.
    let code = r
        .imports
        .iter()
        .map(String::as_str)
        .chain(r.kept.iter().filter_map(|&(a, b)| text.get(a..b)))
        .collect::<Vec<_>>()
        .join("\n");
    Model {
        graph: r.graph,
        input: r.input,
        origin: Origin::Code {
            code,
            build: r.build,
            defined: r.defined,
            zoos: r.zoos,
        },
        others: r.others,
        params: r.params,
    }
}
