//! A golden dump of everything the code generator writes, for refactors that must not change
//! behaviour: every fourth recorded fixture layer (tests/fixtures/*.jsonl) for every target and
//! option set (the full snippet, or its error), each target's answer lines and note, every
//! corpus model (tests/models, its folders too: code and printouts; not the folder's own
//! scripts, `corpus::is_model`) and every model file
//! (tests/files) ported to every port target with and without its check (the port, or its
//! refusal).
//!
//! `cargo run --release --example golden -- OUT` writes the dump to OUT and prints how many
//! snippets, answers and ports it holds; run it before and after a change and compare the files
//! byte for byte (`cmp`). The order is fixed (sorted files, file order, `Framework::ALL`).

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use padlab::codegen::{Options, answer::answer, generate};
use padlab::core::Framework;
use padlab::model::port::{PortOptions, port};

// The port tests' corpus reader (which files are models, headers honoured, a deep stack).
#[path = "../tests/common/corpus.rs"]
mod corpus;

/// The files below `dir` whose names end in one of `ends`, sorted.
fn files_below(dir: &Path, ends: &[&str]) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            let name = path.to_string_lossy().to_string();
            if path.is_dir() {
                dirs.push(path);
            } else if ends.iter().any(|e| name.ends_with(e)) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every corpus model and model file ported to every port target, with and without its check.
fn ports(root: &Path, dump: &mut String) -> usize {
    let mut ported = 0;
    let targets = [
        Framework::Torch,
        Framework::Keras,
        Framework::Tf,
        Framework::Jax,
    ];
    let models = files_below(&root.join("tests/models"), &[".py", ".txt"]);
    for path in models.into_iter().filter(|p| corpus::is_model(p)) {
        let text = fs::read_to_string(&path).unwrap();
        let name = path.strip_prefix(root).unwrap().display().to_string();
        for target in targets {
            for check in [false, true] {
                let result = corpus::port_paste(text.clone(), target, PortOptions { check });
                writeln!(dump, "=== port {name} -> {} check {check}", target.name()).unwrap();
                match result {
                    Ok(p) => {
                        ported += 1;
                        writeln!(dump, "{}\n{}", p.code, p.script.unwrap_or_default()).unwrap();
                    }
                    Err(e) => writeln!(dump, "refused {e}").unwrap(),
                }
            }
        }
    }
    for path in files_below(&root.join("tests/files"), &[".onnx", ".keras", ".h5"]) {
        let bytes = fs::read(&path).unwrap();
        let name = path.strip_prefix(root).unwrap().display().to_string();
        let model = padlab::model::file::open(&bytes, None, &name);
        for target in targets {
            for check in [false, true] {
                writeln!(dump, "=== port {name} -> {} check {check}", target.name()).unwrap();
                let result = model.as_ref().map_err(ToString::to_string).and_then(|m| {
                    port(m, target, PortOptions { check }).map_err(|e| e.to_string())
                });
                match result {
                    Ok(p) => {
                        ported += 1;
                        writeln!(dump, "{}\n{}", p.code, p.script.unwrap_or_default()).unwrap();
                    }
                    Err(e) => writeln!(dump, "refused {e}").unwrap(),
                }
            }
        }
    }
    ported
}

fn main() {
    let out = std::env::args().nth(1).expect("usage: golden OUT");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dump = String::new();
    let (mut snippets, mut answers) = (0usize, 0usize);

    let mut files: Vec<_> = fs::read_dir(root.join("tests/fixtures"))
        .expect("the fixtures directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut n = 0usize;
    for file in &files {
        for line in fs::read_to_string(file).unwrap().lines() {
            n += 1;
            if !n.is_multiple_of(4) {
                continue;
            }
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let Ok(parsed) = padlab::forms::wire::parse_spec(&case["spec"]) else {
                continue;
            };
            let spec = parsed.spec;
            for &target in Framework::ALL {
                for bits in 0..8u8 {
                    let options = Options {
                        check: bits & 1 != 0,
                        export_safe: bits & 2 != 0,
                        functional: bits & 4 != 0,
                    };
                    writeln!(
                        dump,
                        "=== {} -> {} {options:?}",
                        case["spec"],
                        target.name()
                    )
                    .unwrap();
                    match generate(&spec, target, &options) {
                        Ok(s) => {
                            snippets += 1;
                            writeln!(dump, "native {}\n{}", s.native, s.code).unwrap();
                        }
                        Err(e) => writeln!(dump, "error {e:?}").unwrap(),
                    }
                }
                writeln!(dump, "=== answer {} -> {}", case["spec"], target.name()).unwrap();
                match answer(&spec, target) {
                    Ok(a) => {
                        answers += 1;
                        let note = a.note.clone().unwrap_or_default();
                        let lines = a.text();
                        writeln!(dump, "native {} note {note}\n{lines}", a.native).unwrap();
                    }
                    Err(e) => writeln!(dump, "error {e:?}").unwrap(),
                }
            }
        }
    }

    let ported = ports(root, &mut dump);
    fs::write(&out, &dump).unwrap();
    println!("{snippets} snippets, {answers} answers, {ported} ports");
}
