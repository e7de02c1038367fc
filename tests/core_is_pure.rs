//! Architecture invariant: the calculation core, the code generator and the other pure modules
//! import nothing from the browser, so the CLI, the tests and any other host can use them.

use std::fs;
use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_pure_modules_know_nothing_about_the_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/core"), &mut files);
    rust_files(&root.join("src/codegen"), &mut files);
    for pure in [
        "wire.rs",
        "compact.rs",
        "presets.rs",
        "highlight.rs",
        "permalink.rs",
        "grid.rs",
        "explain.rs",
        "compare.rs",
    ] {
        files.push(root.join("src").join(pure));
    }
    assert!(files.len() > 5);
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for word in ["leptos", "web_sys", "wasm_bindgen", "js_sys"] {
            assert!(
                !text
                    .lines()
                    .any(|l| !l.trim_start().starts_with("//") && l.contains(word)),
                "{} mentions {word}",
                file.display()
            );
        }
    }
}
