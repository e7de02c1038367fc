//! Every case the real frameworks answered (tests/fixtures/*.jsonl, written by
//! tests/fixtures/generate.py) goes through the same path as `padlab eval` and must agree:
//! refused where the framework refused, the same output size, and the same pad/crop at the
//! start of each dimension where the run could show it.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde_json::Value;

/// The committed fixtures, or a fresh batch written elsewhere by `generate.py --out DIR`
/// (`PADLAB_FIXTURES_DIR=DIR cargo test --test fixtures_agree`): new seeds and wider
/// distributions are checked the same way before any of them is committed.
fn fixture_files() -> Vec<std::path::PathBuf> {
    let dir = std::env::var_os("PADLAB_FIXTURES_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        Into::into,
    );
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("the fixtures directory exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
}

/// Why our answer differs from the framework's, or None when they agree.
fn disagreement(expect: &Value, ours: &Value) -> Option<String> {
    if let Some(err) = expect.get("error") {
        return match ours.get("error") {
            Some(_) => None,
            None => Some(format!(
                "framework refused ({err}) but padlab answered {ours}"
            )),
        };
    }
    if let Some(err) = ours.get("error") {
        return Some(format!(
            "framework answered {expect} but padlab refused: {err}"
        ));
    }
    if expect["output"] != ours["output"] {
        return Some(format!(
            "output {} vs padlab {}",
            expect["output"], ours["output"]
        ));
    }
    for key in ["pad_before", "crop_before"] {
        if let Some(Value::Array(want)) = expect.get(key) {
            let got = ours
                .get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for (a, w) in want.iter().enumerate() {
                if !w.is_null() && got.get(a) != Some(w) {
                    return Some(format!("{key} {} vs padlab {}", expect[key], ours[key]));
                }
            }
        }
    }
    None
}

/// The committed set is large (a file per framework x op); a fresh batch checked through
/// `PADLAB_FIXTURES_DIR` may hold a few files, so the size guards apply to the committed set only.
fn committed_set() -> bool {
    std::env::var_os("PADLAB_FIXTURES_DIR").is_none()
}

#[test]
fn padlab_agrees_with_every_recorded_framework_run() {
    let files = fixture_files();
    assert!(
        files.len() >= 20 || !committed_set(),
        "expected a fixture file per framework x op, found {}",
        files.len()
    );
    let mut counts = BTreeMap::new();
    let mut failures = Vec::new();
    for file in &files {
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let text = fs::read_to_string(file).unwrap();
        let mut n = 0;
        for (lineno, line) in text.lines().enumerate() {
            let case: Value = serde_json::from_str(line).unwrap();
            let ours = padlab::forms::wire::eval_line(&case["spec"].to_string());
            if let Some(why) = disagreement(&case["expect"], &ours) {
                failures.push(format!("{name}:{} {}\n    {why}", lineno + 1, case["spec"]));
            }
            n += 1;
        }
        assert!(n >= 50, "{name} has only {n} cases");
        counts.insert(name, n);
    }
    let total: usize = counts.values().sum();
    println!(
        "{total} framework cases in {} files: {counts:?}",
        counts.len()
    );
    if !failures.is_empty() {
        let shown: Vec<_> = failures.iter().take(60).cloned().collect();
        panic!(
            "{} of {total} cases disagree:\n{}",
            failures.len(),
            shown.join("\n")
        );
    }
}

/// The web app opens a layer from its permalink (`padlab link` writes it): every layer a
/// framework was asked about, accepted or refused, must come back from its link without a
/// notice and with the same answer (the same sizes and pads, or the same refusal), or the app
/// would show another layer than the one the link names.
#[test]
fn every_recorded_layer_survives_its_permalink() {
    use padlab::core::evaluate;
    let fallback = padlab::view::presets::default_layer();
    let mut failures = Vec::new();
    let mut n = 0;
    for file in fixture_files() {
        for line in fs::read_to_string(&file).unwrap().lines() {
            let case: Value = serde_json::from_str(line).unwrap();
            let Ok(parsed) = padlab::forms::wire::parse_spec(&case["spec"]) else {
                continue;
            };
            let link = padlab::forms::wire::link_line(&case["spec"].to_string());
            let query = link["query"].as_str().unwrap_or_default();
            let loaded = padlab::forms::permalink::parse_query(query, &fallback);
            let want = format!("{:?}", evaluate(&parsed.spec));
            let got = match loaded.spec.to_spec() {
                Ok(back) => format!("{:?}", evaluate(&back)),
                Err(e) => format!("the link does not parse: {e:?}"),
            };
            if !loaded.notices.is_empty() || got != want {
                failures.push(format!(
                    "{} -> {query:?}: {:?}\n  {want}\n  {got}",
                    case["spec"], loaded.notices
                ));
            }
            n += 1;
        }
    }
    assert!(n > 10_000 || (n > 0 && !committed_set()), "only {n} layers");
    assert!(
        failures.is_empty(),
        "{} of {n} layers change through their link:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}
