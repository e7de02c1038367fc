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

/// The paths the main wasm's own code (`src/app/`, `src/bin/web.rs`) names, braces expanded:
/// `use crate::view::model::{PRESETS, shell}` names `view::model::PRESETS` and
/// `view::model::shell`.
fn crate_paths(text: &str) -> Vec<String> {
    fn expand(prefix: &str, rest: &str, out: &mut Vec<String>) -> usize {
        // `rest` starts after `{`: items until the matching `}`.
        let mut i = 0;
        let bytes = rest.as_bytes();
        let mut item = String::new();
        while i < bytes.len() {
            match bytes[i] {
                b'{' => {
                    let inner = format!("{prefix}{}", item.trim());
                    i += 1 + expand(&inner, &rest[i + 1..], out);
                    item.clear();
                    continue;
                }
                b',' | b'}' => {
                    let name = item.trim();
                    if !name.is_empty() {
                        let name = name.split(" as ").next().unwrap_or(name).trim();
                        out.push(format!("{prefix}{name}").trim_end_matches("::self").into());
                    }
                    item.clear();
                    if bytes[i] == b'}' {
                        return i + 1;
                    }
                }
                c => item.push(c as char),
            }
            i += 1;
        }
        i
    }
    let mut out = Vec::new();
    for (start, _) in text.match_indices("crate::") {
        let rest = &text[start + "crate::".len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let path = &rest[..end];
        if rest[end..].starts_with('{') {
            expand(path, &rest[end + 1..], &mut out);
        } else {
            out.push(path.trim_end_matches(':').to_string());
        }
    }
    out
}

/// The modules ARCHITECTURE.md allows a wasm to name (its line `<which> wasm allowed:`).
fn allowed(which: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let line = doc
        .lines()
        .find(|l| l.starts_with(&format!("{which} wasm allowed:")))
        .unwrap_or_else(|| panic!("ARCHITECTURE.md states what the {which} wasm may call"));
    line.split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// The crate paths `files` name that are neither the app's own nor in `allowed`, and how many
/// paths they name in all.
fn offenders(files: &[PathBuf], allowed: &[String]) -> (usize, Vec<String>) {
    let mut named = 0;
    let mut offenders = Vec::new();
    for file in files {
        let text = fs::read_to_string(file).unwrap();
        for path in crate_paths(&text) {
            named += 1;
            let ok = path.starts_with("app")
                || allowed
                    .iter()
                    .any(|a| path == *a || path.starts_with(&format!("{a}::")));
            if !ok {
                offenders.push(format!("{}: crate::{path}", file.display()));
            }
        }
    }
    (named, offenders)
}

/// The Whole model view's own module (`padlab-model`).
const MODEL_PAGE: &str = "src/app/model_page.rs";

/// Architecture invariant: the main wasm calls only what ARCHITECTURE.md allows it (the line
/// `Main wasm allowed:`), so the generator, the model reader and plotters stay in the worker,
/// and the Whole model view in its own module.
#[test]
fn the_main_wasm_names_only_what_the_architecture_allows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let allowed = allowed("Main");
    assert!(allowed.len() >= 5, "{allowed:?}");
    let mut files = Vec::new();
    rust_files(&root.join("src/app"), &mut files);
    files.retain(|f| !f.ends_with(MODEL_PAGE));
    files.push(root.join("src/bin/web.rs"));
    let (named, offenders) = offenders(&files, &allowed);
    assert!(named > 20, "only {named} paths found: is the scan broken?");
    assert!(
        offenders.is_empty(),
        "the main wasm names what ARCHITECTURE.md does not allow it:\n{}",
        offenders.join("\n")
    );
    // The view's module is declared in app/mod.rs (the library holds it) and used by no file
    // of the page.
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        let uses = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//") && l.trim() != "pub mod model_page;")
            .any(|l| l.contains("model_page::"));
        assert!(!uses, "{} uses the model view's own module", file.display());
    }
}

/// The Whole model view's module names only what its line in ARCHITECTURE.md allows: the
/// shell, the protocol and the app's Leptos-free helpers, never the reader or the generator.
#[test]
fn the_model_wasm_names_only_what_the_architecture_allows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let allowed = allowed("Model");
    assert!(allowed.len() >= 3, "{allowed:?}");
    let files = [root.join(MODEL_PAGE), root.join("src/bin/model_view.rs")];
    let (named, offenders) = offenders(&files, &allowed);
    assert!(named >= 3, "only {named} paths found: is the scan broken?");
    assert!(
        offenders.is_empty(),
        "the model wasm names what ARCHITECTURE.md does not allow it:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn crate_paths_expand_braces() {
    assert_eq!(
        crate_paths(
            "use crate::view::model::{PRESETS, shell as s};\nlet x = crate::core::join(a);"
        ),
        ["view::model::PRESETS", "view::model::shell", "core::join"]
    );
    assert_eq!(
        crate_paths("use crate::{core::{Op, spec::Framework}, picture};"),
        ["core::Op", "core::spec::Framework", "picture"]
    );
}
