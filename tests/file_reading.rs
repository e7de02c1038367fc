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
    // A quantized weight and its float value (ONNX Runtime's QDQ files).
    "QuantizeLinear",
    "DequantizeLinear",
    // An If on a constant condition: its branch's nodes are the rows.
    "If",
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

/// The graph of `onnx/<name>` at its declared sizes.
fn onnx_graph(name: &str) -> padlab::model::graph::Graph {
    let bytes = fixture_bytes(&format!("onnx/{name}"));
    let Ok(ModelFile::Onnx(m)) = read_file(&bytes) else {
        panic!("{name}: not read as ONNX")
    };
    to_graph(&m, &InputSizes::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn row<'g>(g: &'g padlab::model::graph::Graph, name: &str) -> &'g padlab::model::graph::Node {
    g.nodes
        .iter()
        .find(|n| n.name == name)
        .unwrap_or_else(|| panic!("no row {name}"))
}

/// ONNX's own defaults, not torch's or Keras's: a pool without `strides` strides by 1, and
/// the row says so (ONNX Runtime's shapes are `every_onnx_node_has_onnx_runtimes_shape_and_pads`).
#[test]
fn an_onnx_pool_without_strides_strides_by_one() {
    use padlab::core::Dims;
    let g = onnx_graph("pools_default_stride.onnx");
    for name in ["maxpool", "avgpool"] {
        let spec = row(&g, name).inferred.spec.clone().unwrap();
        assert_eq!(spec.stride, Some(Dims::All(1)), "{name}");
    }
    let t = files::truth("pools_default_stride.onnx");
    assert_eq!(
        row(&g, "maxpool").shape().map(|s| s[2..].to_vec()),
        ints(&t["nodes"][0]["outputs"][0]["shape"]).map(|s| s[2..].to_vec())
    );
    // LpPool is sized by the same rule.
    let g = onnx_graph("lppool.onnx");
    assert!(matches!(
        row(&g, "lppool_p2").op,
        padlab::model::op::Op::LpPool { p: 2, .. }
    ));
    assert!(row(&g, "lppool_p3").inferred.spec.is_some());
}

/// The operators padlab shapes by ONNX's rules but does not port keep the table going: every
/// row after them has its shape, and the node says what it is and why it is not ported.
#[test]
fn onnx_operators_read_but_not_ported_keep_the_table_going() {
    use padlab::model::op::{Op, ReadRule};
    let read = |file: &str, name: &str| -> (String, ReadRule) {
        match &row(&onnx_graph(file), name).op {
            Op::Read { what, rule } => (what.clone(), rule.clone()),
            other => panic!("{file}: {name} is {other:?}"),
        }
    };
    for (file, name, words) in [
        ("quantize_by_hand.onnx", "quantize", "quantization"),
        ("quantize_by_hand.onnx", "dynamic_quantize", "quantization"),
        ("ort_qoperator.onnx", "conv1_quant", "quantized convolution"),
        ("ort_dynamic.onnx", "conv1_quant", "quantized convolution"),
        ("recurrent.onnx", "lstm", "recurrent"),
        ("elementwise_read.onnx", "floor", "element-wise"),
        ("elementwise_read.onnx", "to_int", "element type"),
        ("elementwise_read.onnx", "softmax_coerced", "opset 13"),
        ("gather_axes.onnx", "pick_cols", "lookup"),
        ("gemm_weight_as_input.onnx", "fc", "graph input"),
        ("gemm_matrix_c.onnx", "fc", "bias per output unit"),
        ("resize_nearest_tie.onnx", "resize_nearest", "tie"),
        ("hard_sigmoid.onnx", "onnx_default", "alpha 1/6"),
    ] {
        let (what, _) = read(file, name);
        assert!(what.contains(words), "{file}: {name}: {what}");
    }
    // Each keeps the table going: the last row has its shape, in files ONNX Runtime runs.
    for file in [
        "quantize_by_hand.onnx",
        "ort_qoperator.onnx",
        "ort_qdq.onnx",
        "ort_dynamic.onnx",
        "elementwise_read.onnx",
        "recurrent.onnx",
    ] {
        let g = onnx_graph(file);
        assert!(g.first_error().is_none(), "{file}: {:?}", g.first_error());
        assert!(g.nodes.iter().all(|n| n.shape().is_some()), "{file}");
    }
    // ONNX Runtime's refusals, in its words.
    let (_, rule) = read("convtranspose2d_output_shape_4d.onnx", "convtranspose_0");
    assert_eq!(
        rule,
        ReadRule::Refused("[ShapeInferenceError] Attribute output_shape has incorrect size".into())
    );
    let g = onnx_graph("recurrent_batchwise.onnx");
    assert!(
        g.first_error()
            .is_some_and(|(_, e)| e.contains("layout == 1"))
    );
}

/// What padlab ports of the second round, as the ops that compute it: a FusedConv is its Conv
/// and activation, DepthToSpace's two orders, an embedding's Gather, a nearest resize at a
/// fractional scale as the elements ONNX Runtime reads, a backwards slice the same way, a
/// MatMul and the Add of its bias one Dense layer, LpPool.
#[test]
fn onnx_operators_ported_map_to_what_they_compute() {
    use padlab::model::op::{Activation, Op};
    let g = onnx_graph("ort_fused.onnx");
    let fused: Vec<&padlab::model::graph::Node> =
        g.nodes.iter().filter(|n| n.kind == "FusedConv").collect();
    assert_eq!(fused.len(), 2);
    for n in fused {
        assert!(
            matches!(&n.op, Op::Conv(c) if c.activation == Some(Activation::Relu)),
            "{:?}",
            n.op
        );
    }
    let g = onnx_graph("depth_to_space.onnx");
    assert_eq!(row(&g, "d2s_dcr").op, Op::DepthToSpace(2));
    assert_eq!(row(&g, "d2s_crd").op, Op::PixelShuffle(2));
    assert_eq!(row(&g, "s2d").op, Op::SpaceToDepth(2));
    let g = onnx_graph("gather_embedding.onnx");
    assert!(matches!(
        row(&g, "embedding").op,
        Op::Embedding {
            vocab: 20,
            dim: 6,
            ..
        }
    ));
    // 5 rows to 7 at 1.5 (half_pixel, round_prefer_floor): ONNX Runtime's indices.
    let g = onnx_graph("resize_nearest_fractional.onnx");
    let Op::Take(axes) = &row(&g, "resize_nearest").op else {
        panic!("{:?}", row(&g, "resize_nearest").op)
    };
    assert_eq!(axes[0], (2, vec![0, 0, 1, 2, 2, 3, 4]));
    let g = onnx_graph("slice_negative_step.onnx");
    assert_eq!(
        row(&g, "slice_back").op,
        Op::Take(vec![(2, (0..7).rev().collect()), (3, vec![7, 5, 3, 1])])
    );
    let g = onnx_graph("matmul_add_bias_3d.onnx");
    assert!(matches!(
        row(&g, "matmul").op,
        Op::Dense {
            bias: true,
            units: 6,
            ..
        }
    ));
    assert_eq!(row(&g, "bias").op, Op::Identity);
    // torch's hard sigmoid (alpha 1/6), not ONNX's default (alpha 0.2).
    let g = onnx_graph("hard_sigmoid.onnx");
    assert_eq!(
        row(&g, "torch_hard_sigmoid").op,
        Op::Activation(Activation::HardSigmoid)
    );
    // TorchScript's If on a free size: at the size read, the branch taken is the rows.
    let bytes = fixture_bytes("onnx/torch_if_branch_ts.onnx");
    let Ok(ModelFile::Onnx(m)) = read_file(&bytes) else {
        panic!("torch_if_branch_ts.onnx")
    };
    let sizes = InputSizes {
        first: Some(vec![1, 3, 12]),
        ..Default::default()
    };
    let g = to_graph(&m, &sizes).unwrap_or_else(|e| panic!("{e}"));
    assert!(g.first_error().is_none(), "{:?}", g.first_error());
    assert_eq!(row(&g, "/Squeeze").shape(), Some(&vec![1, 6]));
    assert!(g.notes.iter().any(|n| n.contains("takes its then branch")));
    // Without a size, the condition is unknown: the If is a row that says so.
    let g = to_graph(&m, &InputSizes::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(row(&g, "/If").inferred.error.is_some());
    // A reduction without axes at opset 18: none with noop_with_empty_axes, else every one.
    let g = onnx_graph("reduce_axes.onnx");
    assert_eq!(row(&g, "reduce_noop").op, Op::Identity);
    assert!(matches!(&row(&g, "reduce_hw").op, Op::Reduce { axes, .. } if axes == &[2, 3]));
    // Clip with finite bounds.
    let g = onnx_graph("clip_bounds.onnx");
    assert_eq!(
        row(&g, "clip").op,
        Op::Activation(Activation::Clip { lo: -0.5, hi: 2.0 })
    );
}

/// Every Keras file opens into rows with Keras's own outputs, up to a layer padlab refuses
/// (then that layer's row says why, naming its class): Keras 3.15's preprocessing layers with
/// their `data_format`, Keras 2's `groups: 1` on depthwise, separable and transposed layers,
/// a Keras 2 nested model called as its node 1.
#[test]
fn every_keras_file_opens_up_to_a_layer_padlab_refuses() {
    let mut refused = 0;
    for path in fixtures_in("keras", &["keras", "h5"]) {
        let file = path.display().to_string();
        let t = truth_of(&path);
        let bytes = std::fs::read(&path).unwrap();
        let model = padlab::model::file::open(&bytes, None, &file)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let rows = &model.graph.nodes;
        for layer in t["layers"].as_array().into_iter().flatten() {
            let name = layer["name"].as_str().unwrap_or_default();
            let mine: Vec<&padlab::model::graph::Node> = rows
                .iter()
                .filter(|r| r.name == name || r.name.starts_with(&format!("{name}/")))
                .collect();
            let Some(last) = mine.last() else {
                panic!("{file}: no row for {name}")
            };
            if let Some(e) = &last.inferred.error {
                // A refused layer: the table stops there, its class named in the refusal.
                let class = layer["class_name"].as_str().unwrap_or_default();
                assert!(e.contains(class), "{file}: {name}: {e}");
                refused += 1;
                break;
            }
            let want = ints(&layer["output"]).map(|s| s[1..].to_vec());
            assert_eq!(
                last.shape().map(|s| s[1..].to_vec()),
                want,
                "{file}: {name}"
            );
        }
    }
    assert!(refused >= 1, "no refused layer among the fixtures");
}
