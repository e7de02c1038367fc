//! The JSON form of a layer spec and of an answer: the `padlab eval` contract.
//!
//! One parse ([`parse_spec`]) and one format ([`answer_json`]); the CLI, the fixture tests and the
//! web app all go through them. Field names are a public contract checked outside the repo.

use serde_json::{Map, Value, json};

use crate::core::{
    Answer, Dims, Framework, LayerSpec, Op, Padding, Placement, UnknownName, evaluate, inverse,
};

/// The fields `padlab eval` reads.
pub const FIELDS: &[&str] = &[
    "op",
    "framework",
    "input",
    "kernel",
    "stride",
    "dilation",
    "padding",
    "padding_mode",
    "output_padding",
    "output_size",
    "ceil_mode",
    "count_include_pad",
    "backend",
];

/// Why a JSON line is not a layer spec. The messages are part of the contract's `error` text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    /// The line is not JSON (`empty`: it is blank).
    Json {
        empty: bool,
        reason: String,
    },
    NotAnObject,
    /// A required field is absent; `hint` says what it holds.
    Missing {
        field: &'static str,
        hint: &'static str,
    },
    NotAString {
        field: String,
        got: String,
    },
    NotAnArray {
        field: String,
        got: String,
    },
    NotAnInteger {
        field: String,
        got: String,
    },
    OutOfRange {
        field: String,
        got: String,
    },
    NotABool {
        field: String,
        got: String,
    },
    /// `padding` in none of its forms; `got` as written.
    Padding {
        got: String,
    },
    Unknown(UnknownName),
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const PADDING: &str = "field `padding` must be \"valid\", \"same\", \"same_lower\", \"causal\", \
                               an integer, an array of integers, or an array of [before, after] pairs";
        match self {
            WireError::Json {
                empty: true,
                reason,
            } => write!(f, "empty line ({reason})"),
            WireError::Json {
                empty: false,
                reason,
            } => write!(f, "invalid JSON: {reason}"),
            WireError::NotAnObject => f.write_str("a layer spec must be a JSON object"),
            WireError::Missing { field, hint } => write!(f, "missing field `{field}`{hint}"),
            WireError::NotAString { field, got } => {
                write!(f, "field `{field}` must be a string, got {got}")
            }
            WireError::NotAnArray { field, got } => {
                write!(f, "field `{field}` must be an array of integers, got {got}")
            }
            WireError::NotAnInteger { field, got } => {
                write!(f, "field `{field}` must hold integers, got {got}")
            }
            WireError::OutOfRange { field, got } => {
                write!(f, "field `{field}`: {got} is not an integer in range")
            }
            WireError::NotABool { field, got } => {
                write!(f, "field `{field}` must be true or false, got {got}")
            }
            WireError::Padding { got } => write!(f, "{PADDING}; got {got}"),
            WireError::Unknown(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for WireError {}

impl From<UnknownName> for WireError {
    fn from(e: UnknownName) -> Self {
        WireError::Unknown(e)
    }
}

/// A spec that could be read, with the names of fields it did not know (reported, not fatal).
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub spec: LayerSpec,
    pub unknown_fields: Vec<String>,
}

/// Reads one spec from a JSON value. `null` counts as absent.
pub fn parse_spec(value: &Value) -> Result<Parsed, WireError> {
    let obj = value.as_object().ok_or(WireError::NotAnObject)?;
    let op: Op = required(obj, "op", "", named)?;
    let framework: Framework = required(obj, "framework", "", named)?;
    let input = required(obj, "input", " (spatial sizes, e.g. [32, 32])", int_list)?;
    let kernel = required(obj, "kernel", "", dims)?;
    let mut spec = LayerSpec::new(op, framework, input, kernel);
    spec.stride = optional(obj, "stride", dims)?;
    spec.dilation = optional(obj, "dilation", dims)?;
    spec.padding = optional(obj, "padding", |v, _| padding(v))?;
    spec.padding_mode = optional(obj, "padding_mode", named)?;
    spec.output_padding = optional(obj, "output_padding", dims)?;
    spec.output_size = optional(obj, "output_size", int_list)?;
    spec.ceil_mode = optional(obj, "ceil_mode", boolean)?;
    spec.count_include_pad = optional(obj, "count_include_pad", boolean)?;
    spec.backend = optional(obj, "backend", named)?;
    let unknown_fields = obj
        .keys()
        .filter(|k| !FIELDS.contains(&k.as_str()))
        .cloned()
        .collect();
    Ok(Parsed {
        spec,
        unknown_fields,
    })
}

/// Writes a spec back as JSON (the fields that are set).
pub fn spec_json(spec: &LayerSpec) -> Value {
    let mut m = Map::new();
    m.insert("op".into(), json!(spec.op.name()));
    m.insert("framework".into(), json!(spec.framework.name()));
    m.insert("input".into(), json!(spec.input));
    m.insert("kernel".into(), dims_json(&spec.kernel));
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            m.insert(k.into(), v);
        }
    };
    put("stride", spec.stride.as_ref().map(dims_json));
    put("dilation", spec.dilation.as_ref().map(dims_json));
    put("padding", spec.padding.as_ref().map(padding_json));
    put("padding_mode", spec.padding_mode.map(|m| json!(m.name())));
    put(
        "output_padding",
        spec.output_padding.as_ref().map(dims_json),
    );
    put("output_size", spec.output_size.as_ref().map(|v| json!(v)));
    put("ceil_mode", spec.ceil_mode.map(|v| json!(v)));
    put(
        "count_include_pad",
        spec.count_include_pad.map(|v| json!(v)),
    );
    put("backend", spec.backend.map(|b| json!(b.name())));
    Value::Object(m)
}

/// The answer as the contract's JSON object.
pub fn answer_json(answer: &Answer) -> Value {
    let (b, a) = match answer.placement {
        Placement::Pad => ("pad_before", "pad_after"),
        Placement::Crop => ("crop_before", "crop_after"),
    };
    let mut m = Map::new();
    m.insert("output".into(), json!(answer.output()));
    m.insert(b.into(), json!(answer.before()));
    m.insert(a.into(), json!(answer.after()));
    m.insert(
        "pads_depend_on_input".into(),
        json!(answer.pads_depend_on_input),
    );
    Value::Object(m)
}

/// `{"error": message}`.
pub fn error_json(message: impl std::fmt::Display) -> Value {
    json!({ "error": message.to_string() })
}

/// Answers one line of `padlab eval` input: always exactly one JSON object.
pub fn eval_line(line: &str) -> Value {
    let value = match read_line(line) {
        Ok(v) => v,
        Err(e) => return e,
    };
    let parsed = match parse_spec(&value) {
        Ok(p) => p,
        Err(e) => return error_json(e),
    };
    let mut out = match evaluate(&parsed.spec) {
        Ok(answer) => answer_json(&answer),
        Err(e) => error_json(e),
    };
    if !parsed.unknown_fields.is_empty()
        && let Value::Object(m) = &mut out
    {
        m.insert(
            "warnings".into(),
            json!([format!(
                "ignored unknown field(s) {}; known fields: {}",
                parsed.unknown_fields.join(", "),
                FIELDS.join(", ")
            )]),
        );
    }
    out
}

/// One JSON Lines input line, or the error answer for it (every command reads lines the same way).
/// One JSON Lines input line, or the `{"error": ...}` line that answers it.
pub fn read_line(line: &str) -> Result<Value, Value> {
    serde_json::from_str(line).map_err(|e| {
        error_json(WireError::Json {
            empty: line.trim().is_empty(),
            reason: e.to_string(),
        })
    })
}

/// Answers one line of `padlab link` input: the web app's permalink query for the spec
/// (`{"query": "op=conv&fw=keras&in=100x20&k=4x1&p=same"}`), so a layer from a script or a
/// fixture opens in the app. A refused layer still has a link: the app shows the refusal.
pub fn link_line(line: &str) -> Value {
    let value = match read_line(line) {
        Ok(v) => v,
        Err(e) => return e,
    };
    match parse_spec(&value) {
        Ok(parsed) => json!({
            "query": crate::forms::permalink::format_query(&crate::forms::compact::CompactSpec::from_spec(
                &parsed.spec
            ))
        }),
        Err(e) => error_json(e),
    }
}

/// Answers one line of `padlab inverse` input: a spec plus `"want": [sizes]`. The answer lists
/// every way to get that output, each as the padding fields to set plus the resulting answer.
pub fn inverse_line(line: &str) -> Value {
    let mut value = match read_line(line) {
        Ok(v) => v,
        Err(e) => return e,
    };
    let want = match value.as_object_mut().and_then(|m| m.remove("want")) {
        Some(w) => match int_list(&w, "want") {
            Ok(w) => w,
            Err(e) => return error_json(e),
        },
        None => {
            return error_json(WireError::Missing {
                field: "want",
                hint: " (the output size you want, e.g. [100, 20])",
            });
        }
    };
    let parsed = match parse_spec(&value) {
        Ok(p) => p,
        Err(e) => return error_json(e),
    };
    match inverse(&parsed.spec, &want) {
        Ok(solutions) => {
            let list: Vec<Value> = solutions
                .iter()
                .map(|s| {
                    let mut m = Map::new();
                    let spec = spec_json(&s.spec);
                    for key in ["padding", "output_padding", "output_size"] {
                        if let Some(v) = spec.get(key) {
                            m.insert(key.into(), v.clone());
                        }
                    }
                    if let Value::Object(answer) = answer_json(&s.answer) {
                        m.extend(answer);
                    }
                    Value::Object(m)
                })
                .collect();
            json!({ "solutions": list })
        }
        Err(e) => error_json(e),
    }
}

/// The field `name` read by `read`, or `None` where it is absent or `null`.
fn optional<T>(
    obj: &Map<String, Value>,
    name: &'static str,
    read: impl FnOnce(&Value, &'static str) -> Result<T, WireError>,
) -> Result<Option<T>, WireError> {
    obj.get(name)
        .filter(|v| !v.is_null())
        .map(|v| read(v, name))
        .transpose()
}

/// A field the spec cannot do without, read by `read`; `hint` follows the word that it is missing.
fn required<T>(
    obj: &Map<String, Value>,
    name: &'static str,
    hint: &'static str,
    read: impl FnOnce(&Value, &'static str) -> Result<T, WireError>,
) -> Result<T, WireError> {
    optional(obj, name, read)?.ok_or(WireError::Missing { field: name, hint })
}

/// A string field naming one of `T`'s values (`"reflect"`, `"torch"`).
fn named<T: std::str::FromStr<Err = UnknownName>>(
    v: &Value,
    field: &'static str,
) -> Result<T, WireError> {
    match v {
        Value::String(s) => Ok(s.parse()?),
        other => Err(WireError::NotAString {
            field: field.into(),
            got: other.to_string(),
        }),
    }
}

fn int(v: &Value, field: &str) -> Result<i64, WireError> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                    .map(|f| f as i64)
            })
            .ok_or_else(|| WireError::OutOfRange {
                field: field.into(),
                got: n.to_string(),
            }),
        other => Err(WireError::NotAnInteger {
            field: field.into(),
            got: other.to_string(),
        }),
    }
}

fn int_list(v: &Value, field: &str) -> Result<Vec<i64>, WireError> {
    match v {
        Value::Array(items) => items.iter().map(|x| int(x, field)).collect(),
        other => Err(WireError::NotAnArray {
            field: field.into(),
            got: other.to_string(),
        }),
    }
}

fn dims(v: &Value, field: &str) -> Result<Dims, WireError> {
    match v {
        Value::Array(_) => Ok(Dims::Each(int_list(v, field)?)),
        _ => Ok(Dims::All(int(v, field)?)),
    }
}

fn boolean(v: &Value, field: &str) -> Result<bool, WireError> {
    v.as_bool().ok_or_else(|| WireError::NotABool {
        field: field.into(),
        got: v.to_string(),
    })
}

fn padding(v: &Value) -> Result<Padding, WireError> {
    let refused = |got: String| WireError::Padding { got };
    match v {
        Value::String(s) => Padding::from_keyword(s).ok_or_else(|| refused(format!("{s:?}"))),
        Value::Number(_) => Ok(Padding::All(int(v, "padding")?)),
        Value::Array(items) if items.iter().all(Value::is_number) => {
            Ok(Padding::PerDim(int_list(v, "padding")?))
        }
        Value::Array(items) => items
            .iter()
            .map(|pair| match pair.as_array().map(Vec::as_slice) {
                Some([b, a]) => Ok([int(b, "padding")?, int(a, "padding")?]),
                _ => Err(refused(v.to_string())),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Padding::Explicit),
        other => Err(refused(other.to_string())),
    }
}

fn dims_json(d: &Dims) -> Value {
    match d {
        Dims::All(v) => json!(v),
        Dims::Each(v) => json!(v),
    }
}

fn padding_json(p: &Padding) -> Value {
    match p {
        Padding::All(v) => json!(v),
        Padding::PerDim(v) => json!(v),
        Padding::Explicit(v) => json!(v),
        keyword => json!(keyword.keyword()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_survives_json_both_ways() {
        let line = r#"{"op":"conv_transpose","framework":"keras","input":[4,5],"kernel":[3,2],
            "stride":2,"padding":[[1,2],[0,0]],"output_padding":[1,0],"output_size":[8,9]}"#;
        let parsed = parse_spec(&serde_json::from_str(line).unwrap()).unwrap();
        let again = parse_spec(&spec_json(&parsed.spec)).unwrap();
        assert_eq!(parsed, again);
    }

    #[test]
    fn null_means_absent_and_unknown_fields_warn() {
        let v = eval_line(
            r#"{"op":"conv","framework":"torch","input":[5],"kernel":3,"padding":null,"strides":2}"#,
        );
        assert_eq!(v["output"], json!([3]));
        assert!(v["warnings"][0].as_str().unwrap().contains("strides"));
    }

    #[test]
    fn malformed_lines_answer_an_error_object() {
        for line in [
            "",
            "{",
            "[]",
            r#"{"op":"conv"}"#,
            r#"{"op":"pool","framework":"torch","input":[1],"kernel":1}"#,
            r#"{"op":"conv","framework":"torch","input":[1.5],"kernel":1}"#,
            r#"{"op":"conv","framework":"torch","input":[4],"kernel":1,"padding":[[1]]}"#,
        ] {
            let v = eval_line(line);
            assert!(v["error"].is_string(), "{line} -> {v}");
        }
    }

    #[test]
    fn a_required_field_absent_null_or_of_the_wrong_kind_is_named() {
        for (line, error) in [
            (r#"{"framework":"torch"}"#, "missing field `op`"),
            (
                r#"{"op":7,"framework":"torch"}"#,
                "field `op` must be a string, got 7",
            ),
            (
                r#"{"op":"conv","framework":null}"#,
                "missing field `framework`",
            ),
            (
                r#"{"op":"conv","framework":"torch","kernel":3}"#,
                "missing field `input` (spatial sizes, e.g. [32, 32])",
            ),
            (
                r#"{"op":"conv","framework":"torch","input":5,"kernel":3}"#,
                "field `input` must be an array of integers, got 5",
            ),
            (
                r#"{"op":"conv","framework":"torch","input":[5]}"#,
                "missing field `kernel`",
            ),
        ] {
            assert_eq!(eval_line(line)["error"], error, "{line}");
        }
    }
}
