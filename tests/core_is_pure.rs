//! Architecture invariant: everything but the app (`src/app/`, the wasm entry points in
//! `src/bin/`) is pure: it imports nothing from the browser, so the CLI, the tests and any other
//! host can use it.
//!
//! The compiler enforces it: the browser crates are optional dependencies that only the `web`
//! and `worker` features enable, and `cargo test` builds without them, so a pure module that
//! imports one does not compile. This test keeps that arrangement from being undone, and names
//! the file when a mention slips into a comment-free line anyway.

use std::fs;
use std::path::{Path, PathBuf};

const BROWSER_CRATES: [&str; 6] = [
    "leptos",
    "web-sys",
    "wasm-bindgen",
    "js-sys",
    "wasm-bindgen-futures",
    "console_error_panic_hook",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_browser_crates_are_optional_dependencies() {
    let manifest =
        fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).expect("Cargo.toml");
    for name in BROWSER_CRATES {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{name} = ")))
            .unwrap_or_else(|| panic!("{name} is a dependency"));
        assert!(
            line.contains("optional = true"),
            "{name} must stay optional (only the app's features enable it): {line}"
        );
    }
}

#[test]
fn the_pure_modules_know_nothing_about_the_browser() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let pure: Vec<&PathBuf> = files
        .iter()
        .filter(|f| !f.starts_with(src.join("app")) && !f.starts_with(src.join("bin")))
        .collect();
    assert!(pure.len() > 20, "the pure modules were found: {pure:?}");
    for file in pure {
        let text = fs::read_to_string(file).expect("a source file");
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
