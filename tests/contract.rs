//! The `padlab eval` contract: the examples from the issue, exactly, through the real binary.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn run_eval(input: &str) -> Vec<Value> {
    run("eval", input)
}

fn run(command: &str, input: &str) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_padlab"))
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("padlab runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "padlab {command} exits 0");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
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

#[test]
fn link_writes_the_permalink_query_line_by_line() {
    let out = run(
        "link",
        "{\"op\":\"conv\",\"framework\":\"keras\",\"input\":[100,20],\"kernel\":[4,1],\"padding\":\"same\"}\n\
         not json\n\
         {\"op\":\"avg_pool\",\"framework\":\"torch\",\"input\":[7],\"kernel\":3,\"stride\":2,\"padding\":1,\"ceil_mode\":true,\"count_include_pad\":false}\n",
    );
    assert_eq!(out.len(), 3);
    assert_eq!(
        out[0],
        json!({"query": "op=conv&fw=keras&in=100x20&k=4x1&p=same"})
    );
    assert!(out[1]["error"].is_string(), "{}", out[1]);
    assert_eq!(
        out[2],
        json!({"query": "op=avg_pool&fw=torch&in=7&k=3&s=2&p=1&ceil=1&cip=0"})
    );
}
