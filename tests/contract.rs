//! The `padlab eval` contract: the examples from the issue, exactly, through the real binary.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

#[macro_use]
#[path = "common/text.rs"]
mod text;

fn run_eval(input: &str) -> Vec<Value> {
    run("eval", input)
}

/// Runs a JSON Lines command; one JSON value per output line.
fn run(command: &str, input: &str) -> Vec<Value> {
    let (ok, out, _) = padlab(command, input);
    assert!(ok, "padlab {command} exits 0");
    out.lines()
        .map(|l| serde_json::from_str(l).expect("every output line is JSON"))
        .collect()
}

/// One `(input line, expected answer)` pair per example; `error` examples match by prefix.
const EXAMPLES: &[(&str, &str)] = &[
    (
        r#"{"op":"conv","framework":"keras","input":[100,20],"kernel":[4,1],"padding":"same"}"#,
        r#"{"output":[100,20],"pad_before":[1,0],"pad_after":[2,0],"pads_depend_on_input":false}"#,
    ),
    (
        r#"{"op":"conv","framework":"torch","input":[6,6],"kernel":5,"stride":2,"padding":2}"#,
        r#"{"output":[3,3],"pad_before":[2,2],"pad_after":[2,2],"pads_depend_on_input":false}"#,
    ),
    (
        r#"{"op":"conv","framework":"keras","input":[224,224],"kernel":7,"stride":2,"padding":"same"}"#,
        r#"{"output":[112,112],"pad_before":[2,2],"pad_after":[3,3],"pads_depend_on_input":true}"#,
    ),
    (
        r#"{"op":"conv","framework":"torch","input":[224,224],"kernel":7,"stride":2,"padding":"same"}"#,
        r#"{"error":"padding='same' is not supported for strided convolutions"}"#,
    ),
    (
        r#"{"op":"max_pool","framework":"keras","input":[30,30],"kernel":2,"stride":2,"padding":"same"}"#,
        r#"{"output":[15,15],"pad_before":[0,0],"pad_after":[0,0],"pads_depend_on_input":true}"#,
    ),
    (
        r#"{"op":"conv_transpose","framework":"torch","input":[249],"kernel":7,"stride":6,"padding":9,"output_padding":4}"#,
        r#"{"output":[1481],"crop_before":[9],"crop_after":[5],"pads_depend_on_input":false}"#,
    ),
    (
        r#"{"op":"conv_transpose","framework":"keras","input":[4],"kernel":3,"stride":2,"padding":"same"}"#,
        r#"{"output":[8],"crop_before":[0],"crop_after":[1],"pads_depend_on_input":false}"#,
    ),
];

#[test]
fn the_issue_examples_hold_exactly() {
    let input: String = EXAMPLES
        .iter()
        .map(|(line, _)| format!("{line}\n"))
        .collect();
    let answers = run_eval(&input);
    assert_eq!(answers.len(), EXAMPLES.len());
    for ((line, want), got) in EXAMPLES.iter().zip(&answers) {
        let want: Value = serde_json::from_str(want).unwrap();
        match want.get("error") {
            Some(Value::String(prefix)) => {
                let msg = got["error"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{line}: expected an error, got {got}"));
                assert!(msg.starts_with(prefix.as_str()), "{line}: {msg}");
                assert_eq!(
                    got.as_object().unwrap().len(),
                    1,
                    "an error line holds `error` alone"
                );
            }
            _ => assert_eq!(got, &want, "{line}"),
        }
    }
}

#[test]
fn bad_lines_get_an_error_and_the_stream_goes_on_in_order() {
    let input = [
        r#"{"op":"conv","framework":"torch","input":[5],"kernel":3}"#,
        "not json",
        "",
        r#"{"op":"conv","framework":"torch","input":[],"kernel":3}"#,
        r#"{"op":"conv","framework":"torch","input":[5],"kernel":3,"stride":0}"#,
        r#"{"op":"conv","framework":"torch","input":[4294967295,1],"kernel":[4294967295,1],"stride":4294967295}"#,
        r#"{"op":"conv","framework":"torch","input":[7],"kernel":3,"padding":1}"#,
    ]
    .join("\n");
    let answers = run_eval(&format!("{input}\n"));
    assert_eq!(answers.len(), 7, "one answer per line");
    assert_eq!(answers[0]["output"], json!([3]));
    for bad in &answers[1..5] {
        assert!(bad["error"].is_string(), "{bad}");
    }
    assert_eq!(answers[5]["output"], json!([1, 1]));
    assert_eq!(answers[6]["output"], json!([7]));
}

#[test]
fn a_last_line_without_newline_is_answered_too() {
    let answers = run_eval(r#"{"op":"avg_pool","framework":"torch","input":[9],"kernel":3}"#);
    assert_eq!(
        answers,
        vec![json!({"output":[3],"pad_before":[0],"pad_after":[0],"pads_depend_on_input":false})]
    );
}

/// Runs a JSON Lines `command` on the issue's first example (Keras 'same' on 100x20), a line
/// that is not JSON, and `last`: one answer per line, the middle one an error. Returns the
/// first answer and the last.
fn around_a_bad_line(command: &str, last: &str) -> (Value, Value) {
    let out = run(command, &format!("{}\nnot json\n{last}\n", EXAMPLES[0].0));
    assert_eq!(out.len(), 3, "one answer per line: {out:?}");
    assert!(out[1]["error"].is_string(), "{}", out[1]);
    (out[0].clone(), out[2].clone())
}

#[test]
fn link_writes_the_permalink_query_line_by_line() {
    let (keras, torch) = around_a_bad_line(
        "link",
        r#"{"op":"avg_pool","framework":"torch","input":[7],"kernel":3,"stride":2,"padding":1,"ceil_mode":true,"count_include_pad":false}"#,
    );
    assert_eq!(
        keras,
        json!({"query": "op=conv&fw=keras&in=100x20&k=4x1&p=same"})
    );
    assert_eq!(
        torch,
        json!({"query": "op=avg_pool&fw=torch&in=7&k=3&s=2&p=1&ceil=1&cip=0"})
    );
}

/// `padlab answer`: the lines at the top of the web app, per target, one JSON line per input.
#[test]
fn answer_writes_every_targets_lines_line_by_line() {
    let (keras, torch) = around_a_bad_line("answer", EXAMPLES[1].0);
    assert_eq!(
        keras["torch"],
        json!({"lines": ["nn.Conv2d(C_in, C_out, (4, 1), padding='same')"], "native": true, "note": null})
    );
    assert_eq!(keras["keras"]["native"], json!(true));
    assert_eq!(
        torch["keras"]["lines"],
        json!([
            "layers.ZeroPadding2D(((2, 2), (2, 2)))",
            "layers.Conv2D(C_out, 5, strides=2, padding='valid')"
        ])
    );
    for target in ["torch", "keras", "tf", "onnx", "jax"] {
        assert!(torch[target]["lines"].is_array(), "{target}: {torch}");
    }
}

#[test]
fn inverse_answers_every_way_or_why_none_line_by_line() {
    let out = run(
        "inverse",
        "{\"op\":\"conv\",\"framework\":\"keras\",\"input\":[100,20],\"kernel\":[4,1],\"want\":[100,20]}\n\
         {\"op\":\"conv\",\"framework\":\"torch\",\"input\":[224,224],\"kernel\":7,\"stride\":2,\"want\":[112,112]}\n\
         {\"op\":\"conv\",\"framework\":\"torch\",\"input\":[10],\"kernel\":3,\"want\":[2]}\n\
         {\"op\":\"conv\",\"framework\":\"torch\",\"input\":[10],\"kernel\":3}\n\
         not json\n",
    );
    assert_eq!(out.len(), 5, "one answer per line: {out:?}");
    // Keras: 'same' gives 100x20, with the odd row at the bottom.
    let keras = &out[0]["solutions"][0];
    assert_eq!(keras["padding"], json!("same"));
    assert_eq!(keras["pad_before"], json!([1, 0]));
    assert_eq!(keras["pad_after"], json!([2, 0]));
    // torch: only the symmetric 3 (torch has no per-side padding).
    assert_eq!(
        out[1],
        json!({"solutions": [{"padding": 3, "output": [112, 112], "pad_before": [3, 3],
            "pad_after": [3, 3], "pads_depend_on_input": false}]})
    );
    let none = out[2]["error"].as_str().expect("no padding shrinks 8 to 2");
    assert_contains!(none, "already [8]");
    let missing = out[3]["error"].as_str().expect("want is required");
    assert!(missing.starts_with("missing field `want`"), "{missing}");
    assert!(out[4]["error"].is_string());
}

/// Runs `padlab` with a command line's words (none holds a space) and stdin; returns
/// (success, stdout, stderr).
fn padlab(line: &str, input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_padlab"))
        .args(line.split_whitespace())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("padlab runs");
    // padlab may exit on a bad flag before it reads stdin: a broken pipe is not a failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
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
fn code_with_layer_flags_prints_the_answer_and_every_target() {
    let (ok, out, _) = padlab(
        "code --framework keras --input 100x20 --kernel 4x1 --padding same",
        "",
    );
    assert!(ok);
    assert!(
        out.starts_with("Keras Conv2D(kernel=(4, 1), padding='same')\noutput: 100x20\npad before: [1, 0]\npad after: [2, 0]\n"),
        "{out}"
    );
    for target in [
        "PyTorch",
        "Keras",
        "TensorFlow (tf.nn)",
        "ONNX Runtime",
        "JAX",
    ] {
        assert!(out.contains(&format!("# ---- {target} ----")), "{target}");
    }
    assert!(out.contains("padding=\"same\""), "torch 'same' at stride 1");
    // One target, a strided transposed layer: crops, not pads.
    let (ok, out, _) = padlab(
        "code --framework keras --op conv_transpose --input 4 --kernel 3 --stride 2 --padding same --to torch",
        "",
    );
    assert!(ok);
    assert_contains!(out, "crop before: [0]\ncrop after: [1]");
    assert_eq!(out.matches("# ---- ").count(), 1);
}

#[test]
fn code_names_the_flag_that_does_not_parse_and_exits_non_zero() {
    let (ok, out, err) = padlab("code --framework torch --input abc --kernel 3", "");
    assert!(!ok && out.is_empty());
    assert_contains!(err, "--input:");
    let (ok, _, err) = padlab(
        "code --framework torch --input 8 --kernel 3 --stride 2 --padding same",
        "",
    );
    assert!(!ok);
    assert_contains!(err, "not supported for strided convolutions");
    let (ok, _, err) = padlab("code", "{}");
    assert!(!ok && err.contains("--to is required"), "{err}");
}

#[test]
fn code_from_json_on_stdin_writes_a_check_script() {
    let (ok, out, _) = padlab(
        "code --to jax --check",
        r#"{"op":"conv","framework":"torch","input":[6,6],"kernel":5,"stride":2,"padding":2}"#,
    );
    assert!(ok);
    assert_contains!(
        out,
        "def run_source_layer(x, w, b)",
        "padlab self-check passed"
    );
}

/// Keras 3 on its backends (`backend` in JSON, `--backend`, `be` in links): where they part,
/// the answer follows the backend named; elsewhere the backend changes nothing.
#[test]
fn the_keras_backend_is_read_written_and_answered() {
    let even_same = r#"{"op":"conv_transpose","framework":"keras","input":[4],"kernel":4,"stride":2,"padding":"same","output_padding":0}"#;
    let on = |backend: &str| {
        even_same.replace(
            r#""framework":"keras""#,
            &format!(r#""framework":"keras","backend":"{backend}""#),
        )
    };
    let answers = run_eval(
        &[
            even_same.to_string(),
            on("tensorflow"),
            on("torch"),
            on("jax"),
            on("theano"),
        ]
        .join("\n"),
    );
    assert!(
        answers[0]["error"]
            .as_str()
            .unwrap()
            .contains("out_backprop"),
        "{}",
        answers[0]
    );
    assert!(answers[1].get("error").is_some(), "{}", answers[1]);
    for a in &answers[2..4] {
        assert_eq!(
            (a["output"][0].as_i64(), a["crop_before"][0].as_i64()),
            (Some(6), Some(2)),
            "{a}"
        );
    }
    assert!(
        answers[4]["error"].as_str().unwrap().contains("theano"),
        "{}",
        answers[4]
    );
    // A backend belongs to Keras alone.
    let torch =
        run_eval(r#"{"op":"conv","framework":"torch","input":[8],"kernel":3,"backend":"jax"}"#);
    assert!(
        torch[0]["error"].as_str().unwrap().contains("backend"),
        "{}",
        torch[0]
    );
    // The link carries it, and the code flags take it.
    let link = run("link", &on("torch"));
    assert!(
        link[0]["query"].as_str().unwrap().ends_with("&be=torch"),
        "{}",
        link[0]
    );
    let (ok, out, _) = padlab(
        "code --framework keras --backend torch --op avg_pool --input 2 --kernel 3 --stride 2 --padding same --to torch",
        "",
    );
    assert!(ok);
    assert_contains!(out, "on the torch backend", "replicate");
    let (ok, _, err) = padlab(
        "code --framework torch --backend jax --input 8 --kernel 3",
        "",
    );
    assert!(!ok && err.contains("--backend"), "{err}");
}

/// Model code saved to a file is read like code on stdin (`padlab port model.py`): the same
/// table, and a refusal names its line; before, the file was taken for a corrupt ONNX model.
#[test]
fn port_reads_a_file_of_model_code_like_stdin() {
    let dir = std::env::temp_dir().join(format!("padlab-contract-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let code = "import torch.nn as nn\nmodel = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU())\n";
    let path = dir.join("model.py");
    std::fs::write(&path, code).unwrap();
    let from_file = padlab(
        &format!("port {} --input 3x32x32 --json", path.display()),
        "",
    );
    let from_stdin = padlab("port --input 3x32x32 --json", code);
    assert!(from_file.0, "{}", from_file.2);
    assert_eq!(from_file, from_stdin);
    assert!(
        from_file.1.contains(r#""output":[8,16,16]"#),
        "{}",
        from_file.1
    );
    let refused = dir.join("lstm.py");
    std::fs::write(
        &refused,
        "import torch.nn as nn\n\nmodel = nn.Sequential(\n    nn.LSTMCell(10, 20),\n)\n",
    )
    .unwrap();
    let (ok, _, err) = padlab(
        &format!("port {} --input 5x10 --to torch", refused.display()),
        "",
    );
    assert!(!ok);
    assert!(err.starts_with("padlab port: line 4: nn.LSTMCell"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
