//! Model files against the runtimes' truth (tests/files/, made by make_fixtures.py and
//! truth.py with the real tools): every ONNX node's output shape as ONNX Runtime computes it,
//! the pads (or crops) it applies before each axis as measured on a probe, its refusals; every
//! Keras file's layers as Keras lists them, and each layer's stated input shape against the
//! output Keras computes for the layer it reads.

use std::collections::HashMap;

use padlab::core::Placement;
use padlab::model::file::keras::{InputShape, KerasConfig, ModelClass};
use padlab::model::file::onnx::Dim;
use padlab::model::file::onnx_graph::{InputSizes, to_graph};
use padlab::model::file::{Format, ModelFile, read_file};
use serde_json::Value;

#[path = "common/files.rs"]
mod files;
use files::{fixture_bytes, fixtures_in, truth_of};

/// The ops of the shape arithmetic exporters emit, which padlab folds into constants.
const FOLDABLE: &[&str] = &[
    "Constant",
    "Shape",
    "Gather",
    "Unsqueeze",
    "Squeeze",
    "Concat",
    "Cast",
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Ceil",
    "Floor",
    "Clip",
    "ConstantOfShape",
    "Reshape",
    "Slice",
    "Transpose",
    "Range",
    "Equal",
    "Where",
    "Expand",
    "Max",
    "Min",
    "Neg",
    "Identity",
];

fn ints(v: &Value) -> Option<Vec<i64>> {
    v.as_array()?.iter().map(Value::as_i64).collect()
}

#[test]
fn every_onnx_node_has_onnx_runtimes_shape_and_pads() {
    let paths = fixtures_in("onnx", &["onnx"]);
    assert!(
        paths.len() >= 40,
        "the fixtures are missing: {}",
        paths.len()
    );
    let (mut shapes, mut pads, mut refusals, mut folded) = (0, 0, 0, 0);
    for path in &paths {
        let file = path.display();
        let t = truth_of(path);
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let Ok(ModelFile::Onnx(model)) = read_file(&bytes) else {
            panic!("{file}: not read as ONNX");
        };
        let named: Vec<(String, Vec<i64>)> = t["inputs"]
            .as_object()
            .map(|o| {
                o.iter()
                    .filter_map(|(k, v)| Some((k.clone(), ints(v)?)))
                    .collect()
            })
            .unwrap_or_default();
        let graph = to_graph(&model, &InputSizes { named, first: None })
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        graph.check().unwrap_or_else(|e| panic!("{file}: {e}"));
        let rows: HashMap<&str, &padlab::model::graph::Node> =
            graph.nodes.iter().map(|n| (n.name.as_str(), n)).collect();

        if let Some(err) = t["error"].as_str() {
            // ONNX Runtime refuses the graph: padlab must refuse a node too.
            let refused = graph.first_error();
            assert!(
                refused.is_some(),
                "{file}: ONNX Runtime refuses ({err}) but padlab computes every node"
            );
            refusals += 1;
            continue;
        }
        let mut compared = 0;
        for (index, n) in t["nodes"].as_array().into_iter().flatten().enumerate() {
            let op_type = n["op_type"].as_str().unwrap_or_default();
            let name = match n["name"].as_str() {
                Some(s) if !s.is_empty() => s.to_string(),
                _ => format!("{op_type}_{index}"),
            };
            let Some(row) = rows.get(name.as_str()) else {
                // Not a row: a constant or folded shape arithmetic, never a layer.
                assert!(
                    FOLDABLE.contains(&op_type),
                    "{file}: {name} ({op_type}) is not in the graph"
                );
                folded += 1;
                continue;
            };
            assert_eq!(row.kind, op_type, "{file}: {name}");
            assert_eq!(row.inferred.error, None, "{file}: {name} refused by padlab");
            for (k, out) in n["outputs"].as_array().into_iter().flatten().enumerate() {
                let want = ints(&out["shape"]);
                let got = row.inferred.outputs.get(k).cloned().flatten();
                assert_eq!(got, want, "{file}: {name} ({op_type}) output {k}");
                shapes += 1;
                compared += 1;
            }
            for key in ["pads_begin", "crop_begin"] {
                if let Some(want) = ints(&n[key]) {
                    let answer = row
                        .inferred
                        .answer
                        .as_ref()
                        .unwrap_or_else(|| panic!("{file}: {name} has no answer"));
                    let placement = if key == "pads_begin" {
                        Placement::Pad
                    } else {
                        Placement::Crop
                    };
                    assert_eq!(answer.placement, placement, "{file}: {name}");
                    assert_eq!(answer.before(), want, "{file}: {name} {key}");
                    pads += 1;
                }
            }
        }
        assert!(compared > 0, "{file}: no row compared");
        // Every row has a known shape (the input sizes are all given).
        for n in &graph.nodes {
            assert!(
                n.shape().is_some(),
                "{file}: {} ({}) has no shape",
                n.name,
                n.kind
            );
        }
    }
    assert!(
        shapes >= 120 && pads >= 60 && refusals >= 3 && folded >= 90,
        "{shapes} shapes, {pads} pads, {refusals} refusals, {folded} folded"
    );
}

#[test]
fn the_shape_arithmetic_is_folded_and_the_pad_before_a_conv_flagged() {
    let read = |name: &str, sizes: InputSizes| {
        let bytes = fixture_bytes(&format!("onnx/{name}"));
        let Ok(ModelFile::Onnx(m)) = read_file(&bytes) else {
            panic!("{name}")
        };
        to_graph(&m, &sizes).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    // timm's dynamic 'same': 88 shape operations fold; the Pad gets numbers, the conv a flag.
    let g = read(
        "torch_timm_same_ts.onnx",
        InputSizes {
            first: Some(vec![1, 3, 17, 20]),
            ..Default::default()
        },
    );
    let kinds: Vec<&str> = g.nodes.iter().map(|n| n.kind.as_str()).collect();
    assert_eq!(kinds, ["Input", "Pad", "Conv", "Relu", "Conv"]);
    assert!(
        g.notes.iter().any(|n| n.contains("folded")),
        "{:?}",
        g.notes
    );
    let pad = &g.nodes[1];
    assert_eq!(pad.shape(), Some(&vec![1, 3, 19, 21]));
    assert!(
        g.nodes[2]
            .inferred
            .flags
            .iter()
            .any(|f| matches!(f, padlab::model::graph::Flag::PadFolded { .. }))
    );
    // Without the size, the shapes are unknown, never guessed.
    let g = read("torch_timm_same_ts.onnx", InputSizes::default());
    assert!(
        g.nodes.iter().all(|n| n.shape().is_none()),
        "{:?}",
        g.nodes.iter().map(|n| n.shape()).collect::<Vec<_>>()
    );
    // dim_param sizes from the given shape.
    let g = read(
        "dim_param_input.onnx",
        InputSizes {
            first: Some(vec![2, 3, 17, 22]),
            ..Default::default()
        },
    );
    assert_eq!(g.nodes.last().and_then(|n| n.shape()), Some(&vec![2, 5]));
    // value_info is a cross-check: a shape the file states wrongly is a note, not the shape.
    let bytes = fixture_bytes("onnx/conv2d_valid.onnx");
    let Ok(ModelFile::Onnx(mut m)) = read_file(&bytes) else {
        panic!("conv2d_valid.onnx")
    };
    m.graph.outputs[0].shape = Some([1, 4, 5, 4].map(Dim::Value).to_vec());
    let g = to_graph(&m, &InputSizes::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.nodes[1].shape(), Some(&vec![1, 4, 4, 4]));
    assert!(
        g.notes
            .iter()
            .any(|n| n.contains("value_info says [1, 4, 5, 4]")),
        "{:?}",
        g.notes
    );
    // The source text is the node as stored.
    let g = read("conv2d_notset_asym.onnx", InputSizes::default());
    assert_eq!(
        g.nodes[1].source.text,
        "Conv(dilations=[2, 1], kernel_shape=[3, 3], pads=[0, 1, 2, 1], strides=[2, 2])"
    );
}

fn input_shape_of(c: &KerasConfig, out: &mut Vec<(String, Option<InputShape>)>) {
    for l in &c.layers {
        out.push((l.name.clone(), l.build_input_shape.clone()));
    }
}

#[test]
fn every_keras_file_lists_keras_layers_and_their_wiring() {
    let paths = fixtures_in("keras", &["keras", "h5"]);
    assert!(paths.len() >= 6, "the fixtures are missing");
    let mut checked = 0;
    for path in &paths {
        let file = path.display();
        let t = truth_of(path);
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let model = match read_file(&bytes) {
            Ok(ModelFile::Keras(k)) => k,
            other => panic!("{file}: {other:?}"),
        };
        let ext = path.extension().and_then(|e| e.to_str());
        assert_eq!(
            model.format,
            if ext == Some("h5") {
                Format::Hdf5
            } else {
                Format::Keras
            },
            "{file}"
        );
        assert!(model.keras_version.is_some(), "{file}");
        let m = &model.model;
        assert_eq!(m.name, t["model"].as_str().unwrap_or_default(), "{file}");
        let class = if m.class == ModelClass::Sequential {
            "Sequential"
        } else {
            "Functional"
        };
        assert_eq!(class, t["class"].as_str().unwrap_or_default(), "{file}");
        let layers: Vec<(&str, &str)> = m
            .layers
            .iter()
            // Keras's `model.layers` (the truth) leaves out the operations a functional model
            // recorded (`x + 3.0`: module keras.src.ops.*); the file lists them as nodes.
            .filter(|l| {
                l.class_name != "InputLayer"
                    && !l
                        .module
                        .as_deref()
                        .is_some_and(|m| m.starts_with("keras.src.ops."))
            })
            .map(|l| (l.name.as_str(), l.class_name.as_str()))
            .collect();
        let want: Vec<(&str, &str)> = t["layers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|l| {
                (
                    l["name"].as_str().unwrap_or_default(),
                    l["class_name"].as_str().unwrap_or_default(),
                )
            })
            .collect();
        assert_eq!(layers, want, "{file}");
        // Outputs by layer name (batch dropped: Keras states it as None).
        let outputs: HashMap<&str, Vec<i64>> = t["layers"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|l| Some((l["name"].as_str()?, ints(&l["output"])?)))
            .collect();
        let sample = |s: &[Option<i64>]| {
            s.iter()
                .skip(1)
                .map(|d| d.unwrap_or(-1))
                .collect::<Vec<_>>()
        };
        // Every functional inbound tensor names a layer of the model, and a layer's stated input
        // shape is the output Keras computes for the layer it reads.
        let names: Vec<&str> = m.layers.iter().map(|l| l.name.as_str()).collect();
        for l in &m.layers {
            for call in &l.inbound {
                for a in &call.args {
                    assert!(
                        names.contains(&a.layer.as_str()),
                        "{file}: {} reads {}",
                        l.name,
                        a.layer
                    );
                }
                if let (Some(InputShape::One(s)), [a]) =
                    (&l.build_input_shape, call.args.as_slice())
                    && let Some(o) = outputs.get(a.layer.as_str())
                {
                    assert_eq!(sample(s), o[1..].to_vec(), "{file}: {} input", l.name);
                    checked += 1;
                }
            }
            if let Some(nested) = &l.model {
                assert_eq!(nested.class, ModelClass::Sequential, "{file}");
                let mut inner = Vec::new();
                input_shape_of(nested, &mut inner);
                assert!(inner.len() >= 3, "{file}: nested {}", l.name);
            }
        }
        if m.class == ModelClass::Functional {
            assert!(!m.inputs.is_empty() && !m.outputs.is_empty(), "{file}");
        }
    }
    assert!(checked >= 5, "{checked} inputs checked");
    // Keras 2's wiring (nested lists), as tf_keras wrote it.
    let bytes = fixture_bytes("keras/keras2_functional.h5");
    let Ok(ModelFile::Keras(k)) = read_file(&bytes) else {
        panic!("keras2_functional.h5")
    };
    let add = k
        .model
        .layers
        .iter()
        .find(|l| l.name == "residual")
        .map(|l| &l.inbound);
    let reads: Vec<&str> = add
        .into_iter()
        .flatten()
        .flat_map(|c| c.args.iter().map(|a| a.layer.as_str()))
        .collect();
    assert_eq!(reads, ["stem", "bn"]);
    assert!(
        k.keras_version
            .as_deref()
            .is_some_and(|v| v.starts_with("2.")),
        "{:?}",
        k.keras_version
    );
}

#[test]
fn the_other_ways_hdf5_stores_the_config() {
    let read = |rel: &str| read_file(&fixture_bytes(rel));
    let Ok(ModelFile::Keras(reference)) = read("keras/sequential_cnn.h5") else {
        panic!("sequential_cnn.h5")
    };
    for rel in ["h5/latest_format.h5", "h5/fixed_string.h5"] {
        match read(rel) {
            Ok(ModelFile::Keras(k)) => {
                assert_eq!(k.model, reference.model, "{rel}");
                assert_eq!(k.keras_version.as_deref(), Some("3.15.1"), "{rel}");
            }
            other => panic!("{rel}: {other:?}"),
        }
    }
    // Dense attribute storage (a fractal heap): refused by name.
    let e = read("h5/dense_attributes.h5").err();
    assert!(
        matches!(&e, Some(padlab::model::file::FileError::Unsupported { what, .. }) if what.contains("dense")),
        "{e:?}"
    );
}
