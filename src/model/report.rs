//! The model's table as JSON (`padlab port --json`): one entry per operation in graph order,
//! shapes in the source's layout without the batch. The field names are a public contract,
//! checked by tools outside the repo.

use serde_json::{Map, Value, json};

use crate::core::Placement;

/// A graph's table as one JSON object: one entry per operation in graph order (the inputs
/// are listed apart), shapes without the batch in the source's layout.
pub fn graph_json(g: &crate::model::graph::Graph, model: &str, input: Option<&[i64]>) -> Value {
    use crate::model::op::Op;
    let sample = |s: Option<&Vec<i64>>| s.map(|s| s.get(1..).unwrap_or(&[]).to_vec());
    let layers: Vec<Value> = g
        .nodes
        .iter()
        .filter(|n| !matches!(n.op, Op::Input))
        .map(|n| {
            let mut m = Map::new();
            m.insert("name".into(), json!(n.name));
            m.insert("kind".into(), json!(n.kind));
            m.insert("source".into(), json!(n.source.text));
            m.insert("line".into(), json!(n.source.line));
            if let Some(c) = n.source.call_line {
                m.insert("call_line".into(), json!(c));
            }
            let inputs: Vec<&str> = n
                .inputs
                .iter()
                .map(|e| g.node(e.node).name.as_str())
                .collect();
            m.insert("inputs".into(), json!(inputs));
            m.insert(
                "input".into(),
                json!(
                    n.inputs
                        .first()
                        .and_then(|e| g.shape_of(*e))
                        .map(|s| sample(Some(s)))
                ),
            );
            let outputs: Vec<Option<Vec<i64>>> = n
                .inferred
                .outputs
                .iter()
                .map(|s| sample(s.as_ref()))
                .collect();
            m.insert("output".into(), json!(outputs.first().cloned().flatten()));
            if outputs.len() > 1 {
                m.insert("outputs".into(), json!(outputs));
            }
            if let Some(a) = &n.inferred.answer {
                let (b, e) = match a.placement {
                    Placement::Pad => ("pad_before", "pad_after"),
                    Placement::Crop => ("crop_before", "crop_after"),
                };
                m.insert(b.into(), json!(a.before()));
                m.insert(e.into(), json!(a.after()));
                m.insert("pads_depend_on_input".into(), json!(a.pads_depend_on_input));
            }
            if let Some(e) = &n.inferred.error {
                m.insert("error".into(), json!(e));
            }
            if !n.inferred.flags.is_empty() {
                let flags: Vec<String> = n.inferred.flags.iter().map(ToString::to_string).collect();
                m.insert("flags".into(), json!(flags));
            }
            Value::Object(m)
        })
        .collect();
    let inputs: Vec<Value> = g
        .inputs()
        .map(|(_, n)| json!({"name": n.name, "shape": sample(n.shape())}))
        .collect();
    let outputs: Vec<&str> = g
        .outputs
        .iter()
        .map(|e| g.node(e.node).name.as_str())
        .collect();
    json!({
        "framework": g.framework.name(),
        "model": model,
        "input": input,
        "inputs": inputs,
        "outputs": outputs,
        "layers": layers,
        "notes": g.notes,
    })
}
