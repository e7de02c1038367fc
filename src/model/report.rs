//! The model's table as JSON (`padlab port --json`): one entry per source layer, in source
//! order, shapes in the source's layout without the batch. The field names are a public
//! contract, checked by tools outside the repo.

use serde_json::{Map, Value, json};

use crate::core::Placement;

use super::chain::{Row, Shape};
use super::read::SourceModel;

/// The model and its table as one JSON object.
pub fn json(model: &SourceModel, input: Option<&Shape>, rows: &[Row]) -> Value {
    let f = model.framework;
    let layers: Vec<Value> = model
        .layers
        .iter()
        .zip(rows)
        .map(|(l, r)| {
            let mut m = Map::new();
            m.insert("source".into(), json!(l.source));
            m.insert("kind".into(), json!(l.kind));
            m.insert("line".into(), json!(l.line));
            m.insert("input".into(), json!(r.input.as_ref().map(|s| s.layout(f))));
            m.insert(
                "output".into(),
                json!(r.output.as_ref().map(|s| s.layout(f))),
            );
            if let Some(a) = &r.answer {
                let (b, e) = match a.placement {
                    Placement::Pad => ("pad_before", "pad_after"),
                    Placement::Crop => ("crop_before", "crop_after"),
                };
                m.insert(b.into(), json!(a.before()));
                m.insert(e.into(), json!(a.after()));
                m.insert("pads_depend_on_input".into(), json!(a.pads_depend_on_input));
            }
            if let Some(e) = &r.error {
                m.insert("error".into(), json!(e));
            }
            if !r.flags.is_empty() {
                let flags: Vec<String> = r.flags.iter().map(|fl| fl.describe(f)).collect();
                m.insert("flags".into(), json!(flags));
            }
            Value::Object(m)
        })
        .collect();
    json!({
        "framework": f.name(),
        "input": input.map(|s| s.layout(f)),
        "layers": layers,
    })
}
