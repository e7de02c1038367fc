//! The corpus models (`tests/models/`) as the port tests read them: a paste's
//! `# padlab-input:` and `# padlab-model:` headers honoured, on a deep stack.

use padlab::core::Framework;
use padlab::model::port::{PortOptions, Ported, port};
use padlab::model::{Options, read};

/// The text of the corpus model `file`.
pub fn corpus_text(file: &str) -> String {
    std::fs::read_to_string(models_dir().join(file)).unwrap()
}

pub fn models_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models")
}

/// The port of a paste to `target`, its headers honoured; a refusal is its error's text.
pub fn port_paste(text: String, target: Framework, options: PortOptions) -> Result<Ported, String> {
    let header = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("# padlab-{key}:")))
            .map(|v| v.trim().to_string())
    };
    let options_read = Options {
        input: header("input").map(|s| padlab::forms::compact::parse_shape(&s).unwrap()),
        model: header("model"),
    };
    // The evaluator recurses: a deep stack, as the CLI gives it (debug builds need it most).
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let model = read(&text, &options_read).map_err(|e| e.to_string())?;
            port(&model, target, options).map_err(|e| e.to_string())
        })
        .unwrap()
        .join()
        .unwrap()
}
