//! The corpus models (`tests/models/`) as the tests read them: which files are models, their
//! text, and a paste's port with its `# padlab-input:` and `# padlab-model:` headers honoured,
//! on a deep stack. Each test uses a part.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use padlab::core::Framework;
use padlab::model::port::{PortOptions, Ported, port};
use padlab::model::{Options, read};

// The reader's stacks; a test that includes this file takes them from here (a test crate
// loads stack.rs once).
#[path = "stack.rs"]
pub mod stack;
use stack::on_deep_stack;

/// The corpus folder's own tools, not models: the proof (`verify.py`), its referees and the
/// printout and summary makers.
const TOOLS: &[&str] = &[
    "verify.py",
    "truth_torch.py",
    "truth_keras.py",
    "make_printouts.py",
    "make_summaries.py",
];

/// Whether a file of the corpus is a model rather than one of the folder's tools.
pub fn is_model(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| !TOOLS.contains(&n))
}

/// The text of the corpus model `file` (a path below `tests/models/`).
pub fn corpus_text(file: &str) -> String {
    let path = models_dir().join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn models_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models")
}

/// The value of a paste's `# padlab-<key>:` line (`input`: the shape to trace it at, without
/// the batch; `model`: the expression that builds the model to read).
pub fn header(text: &str, key: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("# padlab-{key}:")))
        .map(|v| v.trim().to_string())
}

/// A shape as the `input` header or `--input` gives it (`3x32x32`, `(3, 32, 32)`).
pub fn shape(text: &str) -> Vec<i64> {
    padlab::forms::compact::parse_shape(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The port of a paste to `target`, its headers honoured; a refusal is its error's text.
pub fn port_paste(text: String, target: Framework, options: PortOptions) -> Result<Ported, String> {
    let options_read = Options {
        input: header(&text, "input").as_deref().map(shape),
        model: header(&text, "model"),
    };
    on_deep_stack(move || {
        let model = read(&text, &options_read).map_err(|e| e.to_string())?;
        port(&model, target, options).map_err(|e| e.to_string())
    })
}
