//! The model reader on any text: never a panic, never a hang (1 MB reads in one linear pass),
//! and the `padlab port` contract through the binary.

use std::io::Write;
use std::process::{Command, Stdio};

use padlab::model::read::read_model;
use proptest::prelude::*;
use serde_json::Value;

const DCGAN: &str = include_str!("models/dcgan_generator.py");
const KERAS: &str = include_str!("models/keras_strided_classifier.py");

/// Text made of Python's pieces, in any order: brackets, quotes, backslashes, indentation.
fn pythonish() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "'",
        "\"",
        "'''",
        "\\",
        "\n",
        "    ",
        "\t",
        "#",
        ":",
        ",",
        "=",
        "*",
        "**",
        ".",
        "nn",
        "Conv2d",
        "Sequential",
        "model",
        "add",
        "Conv2D",
        "class ",
        "def ",
        "forward",
        "self",
        "x",
        "return ",
        "1",
        "64",
        "padding",
        "'same'",
        "lambda",
        "for ",
        "in ",
        "if ",
        "import ",
        "from ",
        "@",
        "é",
        "\r\n",
        " ",
    ]);
    prop::collection::vec(piece, 0..200).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any text is an answer or an error naming what is wrong, never a panic.
    #[test]
    fn any_text_reads_without_a_panic(text in pythonish()) {
        let _ = read_model(&text, None).map(|m| m.layers.len());
    }

    /// A real model with a slice cut out or repeated still reads or says why.
    #[test]
    fn a_damaged_model_reads_or_says_why(cut in 0usize..2000, len in 0usize..80, repeat in any::<bool>()) {
        for src in [DCGAN, KERAS] {
            let a = src.char_indices().map(|(i, _)| i).find(|&i| i >= cut % src.len()).unwrap_or(0);
            let b = src.char_indices().map(|(i, _)| i).find(|&i| i >= a + len).unwrap_or(src.len());
            let text = if repeat {
                format!("{}{}{}", &src[..b], &src[a..b], &src[b..])
            } else {
                format!("{}{}", &src[..a], &src[b..])
            };
            if let Err(e) = read_model(&text, None) {
                prop_assert!(!e.message.is_empty());
            }
        }
    }
}

#[test]
fn a_megabyte_of_pasted_code_reads_in_one_pass() {
    // 1 MB: the DCGAN file many times over (a long paste) and one deep bracket run at the end.
    let mut text = String::new();
    while text.len() < 1 << 20 {
        text.push_str(DCGAN);
        text.push('\n');
    }
    text.push_str(&"(".repeat(5000));
    let e = read_model(&text, None).unwrap_err();
    assert!(e.message.contains("never closed"), "{e}");
    // The same megabyte without the broken tail reads, and finds the (last) generator.
    let fine = &text[..text.len() - 5000];
    let m = read_model(fine, None).expect("the repeated paste reads");
    assert_eq!(m.layers.len(), 14);
}

fn port(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_padlab"))
        .arg("port")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("padlab runs");
    // padlab may exit on a bad flag before it reads stdin: a broken pipe is not a failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn port_json_lists_every_source_layer_in_order_in_the_source_layout() {
    let (ok, out, _) = port(&["--json"], KERAS);
    assert!(ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["framework"], "keras");
    assert_eq!(v["input"], serde_json::json!([28, 28, 1]));
    let layers = v["layers"].as_array().unwrap();
    let kinds: Vec<&str> = layers.iter().map(|l| l["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "Conv2D",
            "Conv2D",
            "MaxPooling2D",
            "Flatten",
            "Dropout",
            "Dense"
        ]
    );
    // Keras 'same' with stride 2 on 28: (0, 1), channels last, input-dependent.
    assert_eq!(layers[0]["output"], serde_json::json!([14, 14, 32]));
    assert_eq!(layers[0]["pad_before"], serde_json::json!([0, 0]));
    assert_eq!(layers[0]["pad_after"], serde_json::json!([1, 1]));
    assert_eq!(layers[0]["pads_depend_on_input"], true);
    assert_eq!(layers[3]["output"], serde_json::json!([1024]));
    assert!(
        layers[0]["source"]
            .as_str()
            .unwrap()
            .starts_with("layers.Conv2D(32")
    );
    // torch layout, and the batch of a printed torch.Size dropped.
    let (ok, out, _) = port(&["--json", "--input", "torch.Size([8, 100, 1, 1])"], DCGAN);
    assert!(ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["layers"][13]["output"], serde_json::json!([3, 64, 64]));
    assert_eq!(v["layers"][3]["crop_before"], serde_json::json!([1, 1]));
}

#[test]
fn port_errors_go_to_stderr_with_a_non_zero_exit() {
    let (ok, out, err) = port(
        &["--to", "torch"],
        "model = nn.Sequential(\n  nn.Conv2d(3, 8, 3),\n  nn.PixelShuffle(2),\n)\n",
    );
    assert!(!ok && out.is_empty());
    assert!(
        err.contains("line 3") && err.contains("PixelShuffle"),
        "{err}"
    );
    let (ok, _, err) = port(&["--to", "torch"], DCGAN);
    assert!(!ok && err.contains("input shape"), "{err}");
    let (ok, _, err) = port(&["--to", "onnx", "--input", "100x1x1"], DCGAN);
    assert!(!ok && err.contains("ONNX"), "{err}");
}

#[test]
fn port_writes_the_model_and_a_check_script() {
    let (ok, out, _) = port(&["--to", "torch"], KERAS);
    assert!(ok);
    assert!(out.contains("model = nn.Sequential("), "{out}");
    assert!(out.contains("nn.ZeroPad2d((0, 1, 0, 1))"), "{out}");
    let (ok, out, _) = port(&["--to", "keras", "--check", "--input", "100x1x1"], DCGAN);
    assert!(ok);
    assert!(out.contains("source = Generator(ngpu)"), "{out}");
    assert!(out.contains("padlab self-check passed"), "{out}");
}

/// Every corpus model ports to every target, and no ported file defines a top-level name twice
/// (a later `def average_0` would silently replace an earlier layer's helper).
#[test]
fn ported_models_define_each_name_once() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models");
    let mut ported = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        // The corpus: every Python file but the verification script beside it.
        if path.extension().is_none_or(|x| x != "py") || path.ends_with("verify.py") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let input = text
            .lines()
            .find_map(|l| l.strip_prefix("# padlab-input:"))
            .map(str::trim);
        for target in ["torch", "keras", "tf", "jax"] {
            for check in [false, true] {
                let mut args = vec!["--to", target];
                if let Some(input) = input {
                    args.extend(["--input", input]);
                }
                if check {
                    args.push("--check");
                }
                let (ok, out, err) = port(&args, &text);
                assert!(ok, "{} --to {target}: {err}", path.display());
                let mut seen = std::collections::HashSet::new();
                for line in out.lines() {
                    let name = line
                        .strip_prefix("def ")
                        .or_else(|| line.strip_prefix("class "))
                        .and_then(|rest| rest.split(['(', ':']).next());
                    if let Some(name) = name {
                        assert!(
                            seen.insert(name.to_string()),
                            "{} --to {target} (check {check}) defines {name} twice",
                            path.display()
                        );
                    }
                }
                ported += 1;
            }
        }
    }
    assert!(ported >= 45 * 8, "only {ported} ports");
}
