//! The model-file fixtures (`tests/files/`, made with the real tools by make_fixtures.py) and
//! their truth (`tests/files/truth/`: what ONNX Runtime and Keras record, by truth.py). Each
//! test uses a part.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;

/// `tests/files/<rel>`.
pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/files")
        .join(rel)
}

/// The bytes of `tests/files/<rel>`.
pub fn fixture_bytes(rel: &str) -> Vec<u8> {
    let path = fixture(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fixtures in `tests/files/<dir>` whose extension is one of `ext`, sorted.
pub fn fixtures_in(dir: &str, ext: &[&str]) -> Vec<PathBuf> {
    let root = fixture(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| ext.contains(&x))
        })
        .collect();
    out.sort();
    out
}

/// The truth recorded for the fixture file `name` (`conv2d_valid.onnx`).
pub fn truth(name: &str) -> Value {
    let path = fixture(&format!("truth/{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The truth recorded for the fixture at `path`.
pub fn truth_of(path: &Path) -> Value {
    truth(&path.file_name().unwrap_or_default().to_string_lossy())
}
