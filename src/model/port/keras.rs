//! The model as a Keras `Sequential`: stock layers for every step padlab's plans can be written
//! with (`ZeroPadding2D`, `Cropping2D`, the layer itself), and the single-layer generator's
//! builder (a nested `Sequential`) where a layer needs more (a bias after a crop, −∞ padding,
//! an exact average, a dilated pool).

use crate::codegen::keras::{Keras, KerasPad};
use crate::codegen::layer_definition;
use crate::codegen::plan::{Fill, LowerOptions, Plan, Step, Window, lower};
use crate::codegen::writer::{Py, pair_tuples, tuple};
use crate::core::{LayerSpec, Op};

use super::super::chain::Shape;
use super::super::layers::{Activation, Conv, Layer, NormAxis, PadFill};
use super::{Chained, Load, LoadKind, PortError, TargetModel, rank};

struct Writer {
    layers: Vec<(String, Option<String>)>,
    builders: Py,
    loads: Vec<Load>,
}

impl Writer {
    fn push(&mut self, layer: String) -> usize {
        self.layers.push((layer, None));
        self.layers.len() - 1
    }
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn float(v: f64) -> String {
    let s = format!("{v}");
    if s.contains(['.', 'e', 'E']) || s.contains("inf") {
        s
    } else {
        format!("{s}.0")
    }
}

/// One value, or the tuple when they differ.
fn dims(v: &[i64]) -> String {
    match v.first() {
        Some(&first) if v.iter().all(|&x| x == first) => first.to_string(),
        _ => tuple(v),
    }
}

/// `name=value` arguments, leaving out those at their default.
fn args(items: &[(&str, String, &str)]) -> String {
    items
        .iter()
        .filter(|(_, v, default)| v != default)
        .map(|(k, v, _)| format!(", {k}={v}"))
        .collect()
}

/// A Keras `activation=` name for an activation, where one exists.
fn activation_name(a: Activation) -> Option<&'static str> {
    Some(match a {
        Activation::Relu => "relu",
        Activation::Relu6 => "relu6",
        Activation::Elu(1.0) => "elu",
        Activation::Tanh => "tanh",
        Activation::Sigmoid => "sigmoid",
        Activation::Softmax => "softmax",
        Activation::Gelu { tanh: false } => "gelu",
        Activation::Silu => "silu",
        Activation::Softplus => "softplus",
        _ => return None,
    })
}

fn activation(a: Activation) -> String {
    match a {
        Activation::Relu => "layers.ReLU()".into(),
        Activation::Relu6 => "layers.ReLU(max_value=6.0)".into(),
        Activation::LeakyRelu(s) => format!("layers.LeakyReLU(negative_slope={})", float(s)),
        Activation::Elu(a) => format!("layers.ELU(alpha={})", float(a)),
        Activation::Softmax => "layers.Softmax()".into(),
        Activation::Gelu { tanh: true } => {
            "layers.Activation(lambda t: keras.activations.gelu(t, approximate=True))".into()
        }
        other => format!(
            "layers.Activation(\"{}\")",
            activation_name(other).unwrap_or("linear")
        ),
    }
}

pub(super) fn write(cx: &Chained) -> Result<TargetModel, PortError> {
    let mut w = Writer {
        layers: Vec::new(),
        builders: Py::new(),
        loads: Vec::new(),
    };
    for (i, l) in cx.model.layers.iter().enumerate() {
        let input = cx.input_of(i);
        let n = rank(input).max(1);
        match &l.layer {
            Layer::Conv(conv) => conv_layer(&mut w, cx, i, conv)?,
            Layer::Pool(spec) => pool_layer(&mut w, cx, i, spec)?,
            Layer::GlobalPool { max, keepdims } => {
                let kind = if *max { "Max" } else { "Average" };
                w.push(format!(
                    "layers.Global{kind}Pooling{n}D({})",
                    if *keepdims { "keepdims=True" } else { "" }
                ));
            }
            Layer::BatchNorm {
                axis,
                eps,
                momentum,
                center,
                scale,
                ..
            } => {
                let (features, keras_axis) = match (input, axis) {
                    (Shape::Map { spatial, .. }, NormAxis::Spatial(a)) if *a < spatial.len() => {
                        (spatial[*a], Some(a + 1))
                    }
                    (Shape::Map { channels, .. }, _) => (*channels, None),
                    (Shape::Flat(f), _) => (*f, None),
                };
                let k = w.push(format!(
                    "layers.BatchNormalization({})",
                    args(&[
                        (
                            "axis",
                            keras_axis.map_or("-1".into(), |a| a.to_string()),
                            "-1"
                        ),
                        (
                            "momentum",
                            float(crate::model::layers::complement(*momentum)),
                            "0.99"
                        ),
                        ("epsilon", float(*eps), "0.001"),
                        ("center", py_bool(*center).into(), "True"),
                        ("scale", py_bool(*scale).into(), "True"),
                    ])
                    .trim_start_matches(", ")
                ));
                w.loads.push(Load {
                    layer: i,
                    kind: LoadKind::Norm { features },
                    target: format!("model.layers[{k}]"),
                    bias_target: None,
                    dilate: None,
                });
            }
            Layer::Activation(a) => {
                w.push(activation(*a));
            }
            Layer::Dropout { rate, spatial } => {
                let layer = match (spatial, input) {
                    (true, Shape::Map { .. }) => {
                        format!("layers.SpatialDropout{n}D({})", float(*rate))
                    }
                    _ => format!("layers.Dropout({})", float(*rate)),
                };
                w.push(layer);
            }
            Layer::Flatten => {
                w.push("layers.Flatten()".into());
            }
            Layer::Dense {
                units,
                bias,
                activation: act,
                ..
            } => {
                let inline = act.and_then(activation_name);
                let k = w.push(format!(
                    "layers.Dense({units}{})",
                    args(&[
                        (
                            "activation",
                            inline.map_or("None".into(), |a| format!("\"{a}\"")),
                            "None"
                        ),
                        ("use_bias", py_bool(*bias).into(), "True"),
                    ])
                ));
                w.loads.push(Load {
                    layer: i,
                    kind: LoadKind::Dense {
                        flatten: cx.dense_flatten(i),
                    },
                    target: format!("model.layers[{k}]"),
                    bias_target: None,
                    dilate: None,
                });
                if let (Some(a), None) = (act, inline) {
                    w.push(activation(*a));
                }
            }
            Layer::Pad { pairs, fill } => {
                let crop: Vec<(i64, i64)> = pairs
                    .iter()
                    .map(|&(b, a)| ((-b).max(0), (-a).max(0)))
                    .collect();
                let pad: Vec<(i64, i64)> =
                    pairs.iter().map(|&(b, a)| (b.max(0), a.max(0))).collect();
                if crop.iter().any(|&(b, a)| b > 0 || a > 0) {
                    w.push(format!("layers.Cropping{n}D({})", pair_tuples(&crop)));
                }
                if pad.iter().any(|&(b, a)| b > 0 || a > 0) {
                    let list = crate::codegen::writer::pad_list(&pad, 1, 1);
                    w.push(match fill {
                        PadFill::Constant(v) if *v == 0.0 => {
                            format!("layers.ZeroPadding{n}D({})", pair_tuples(&pad))
                        }
                        PadFill::Constant(v) => format!(
                            "layers.Lambda(lambda t: keras.ops.pad(t, {list}, constant_values={}))",
                            float(*v)
                        ),
                        PadFill::Reflect => format!(
                            "layers.Lambda(lambda t: keras.ops.pad(t, {list}, mode=\"reflect\"))"
                        ),
                        PadFill::Replicate | PadFill::Circular => {
                            return Err(PortError::Untranslated {
                                line: l.line,
                                what: format!(
                                    "{}: Keras has no replicate or circular padding layer",
                                    l.kind
                                ),
                            });
                        }
                    });
                }
            }
            Layer::Upsample { scale } => {
                let scale = if scale.len() == 1 {
                    vec![scale[0]; n]
                } else {
                    scale.clone()
                };
                w.push(format!("layers.UpSampling{n}D(size={})", dims(&scale)));
            }
            Layer::Identity => {
                w.push("layers.Identity()".into());
            }
        }
    }
    let mut py = Py::new();
    py.import("import keras");
    py.import("from keras import layers");
    py.append(&w.builders);
    py.blank();
    let input = cx.input.layout(crate::core::Framework::Keras);
    py.line("model = keras.Sequential([");
    py.line(format!("    keras.Input(shape={}),", tuple(&input)));
    for (layer, comment) in &w.layers {
        match comment {
            Some(c) => py.line(format!("    {layer},  # {c}")),
            None => py.line(format!("    {layer},")),
        };
    }
    py.line("])");
    Ok(TargetModel { py, loads: w.loads })
}

/// The pads of a layer as a comment, from the table.
fn layer_note(cx: &Chained, i: usize) -> Option<String> {
    let l = &cx.model.layers[i];
    let row = &cx.rows[i];
    let answer = row.answer.as_ref()?;
    let pairs = answer.pairs();
    if pairs.iter().all(|&(b, a)| b == 0 && a == 0) {
        return None;
    }
    let text = pairs
        .iter()
        .map(|(b, a)| format!("({b}, {a})"))
        .collect::<Vec<_>>()
        .join(", ");
    let what = match answer.placement {
        crate::core::Placement::Pad => format!("pads {text}"),
        crate::core::Placement::Crop => format!("crops {text} of the full output"),
    };
    Some(format!("line {}: {what}", l.line))
}

/// Whether a plan's steps are all stock Keras layers.
fn stock(plan: &Plan<KerasPad>) -> bool {
    plan.steps.iter().all(|s| {
        matches!(
            s,
            Step::Pad {
                fill: Fill::Zero,
                ..
            } | Step::Crop { .. }
                | Step::Conv { .. }
                | Step::ConvTranspose { .. }
                | Step::Pool {
                    window: Window::Pool,
                    ..
                }
        )
    })
}

/// The single-layer generator's builder for a layer stock layers cannot write.
fn builder(
    w: &mut Writer,
    i: usize,
    spec: &LayerSpec,
    plan: &Plan<KerasPad>,
    filters: Option<i64>,
) -> usize {
    let name = format!("layer_{}", i + 1);
    w.builders
        .append(&layer_definition::<Keras>(spec, plan, &name, false));
    w.builders.blank();
    w.builders.blank();
    w.push(format!(
        "{name}({})",
        filters.map(|f| f.to_string()).unwrap_or_default()
    ))
}

fn lowered(cx: &Chained, i: usize) -> Result<(LayerSpec, Plan<KerasPad>), PortError> {
    let l = &cx.model.layers[i];
    let spec = cx.rows[i].spec.clone().ok_or(PortError::Untranslated {
        line: l.line,
        what: "no input size".into(),
    })?;
    crate::codegen::writable(&spec).map_err(|e| PortError::Untranslated {
        line: l.line,
        what: e.to_string(),
    })?;
    let plan =
        lower::<KerasPad>(&spec, LowerOptions::default()).map_err(|e| PortError::Refused {
            layer: i,
            line: l.line,
            reason: e.to_string(),
        })?;
    Ok((spec, plan))
}

fn conv_layer(w: &mut Writer, cx: &Chained, i: usize, conv: &Conv) -> Result<(), PortError> {
    let (spec, plan) = lowered(cx, i)?;
    let n = spec.input.len();
    let shape = &plan.semantics.shape;
    let filters = conv.out_channels;
    let first = w.layers.len();
    let transposed = spec.op == Op::ConvTranspose;
    let mut load = Load {
        layer: i,
        kind: LoadKind::Conv { transposed },
        target: String::new(),
        bias_target: None,
        dilate: plan.dilated_kernel().then(|| shape.dilation.clone()),
    };
    // An inline activation only on a layer that is one native step.
    let inline = conv
        .activation
        .and_then(activation_name)
        .filter(|_| plan.native);
    if !stock(&plan) {
        let k = builder(w, i, &spec, &plan, Some(filters));
        load.target = format!("model.layers[{k}].get_layer(\"conv\")");
        // The builder's layer always has a bias (zero when the source has none).
        if plan.adds_bias() {
            load.bias_target = Some(format!("model.layers[{k}].get_layer(\"bias\")"));
        }
    } else {
        for step in &plan.steps {
            match step {
                Step::Pad { pairs, .. } => {
                    w.push(format!("layers.ZeroPadding{n}D({})", pair_tuples(pairs)));
                }
                Step::Crop { pairs } => {
                    w.push(format!("layers.Cropping{n}D({})", pair_tuples(pairs)));
                }
                Step::Conv {
                    padding,
                    kernel,
                    dilation,
                    ..
                } => {
                    let k = w.push(format!(
                        "layers.Conv{n}D({filters}, {}{})",
                        dims(kernel),
                        args(&[
                            ("strides", dims(&shape.stride), "1"),
                            ("padding", format!("\"{}\"", keyword(padding)), "\"valid\""),
                            ("dilation_rate", dims(dilation), "1"),
                            (
                                "activation",
                                inline.map_or("None".into(), |a| format!("\"{a}\"")),
                                "None"
                            ),
                            ("use_bias", py_bool(conv.bias).into(), "True"),
                        ])
                    ));
                    load.target = format!("model.layers[{k}]");
                }
                Step::ConvTranspose {
                    padding,
                    kernel,
                    dilation,
                    output_padding,
                    ..
                } => {
                    let k = w.push(format!(
                        "layers.Conv{n}DTranspose({filters}, {}{})",
                        dims(kernel),
                        args(&[
                            ("strides", dims(&shape.stride), "1"),
                            ("padding", format!("\"{}\"", keyword(padding)), "\"valid\""),
                            (
                                "output_padding",
                                output_padding.as_deref().map_or("None".into(), dims),
                                "None"
                            ),
                            ("dilation_rate", dims(dilation), "1"),
                            (
                                "activation",
                                inline.map_or("None".into(), |a| format!("\"{a}\"")),
                                "None"
                            ),
                            ("use_bias", py_bool(conv.bias).into(), "True"),
                        ])
                    ));
                    load.target = format!("model.layers[{k}]");
                }
                _ => {}
            }
        }
    }
    if let (Some(note), Some(slot)) = (layer_note(cx, i), w.layers.get_mut(first)) {
        slot.1 = Some(note);
    }
    w.loads.push(load);
    if let (Some(a), None) = (conv.activation, inline) {
        w.push(activation(a));
    }
    Ok(())
}

fn keyword(p: &KerasPad) -> &'static str {
    match p {
        KerasPad::Valid => "valid",
        KerasPad::Same => "same",
        KerasPad::Causal => "causal",
    }
}

fn pool_layer(w: &mut Writer, cx: &Chained, i: usize, _spec: &LayerSpec) -> Result<(), PortError> {
    let (spec, plan) = lowered(cx, i)?;
    let n = spec.input.len();
    let first = w.layers.len();
    if !stock(&plan) {
        builder(w, i, &spec, &plan, None);
    } else {
        for step in &plan.steps {
            match step {
                Step::Pad { pairs, .. } => {
                    w.push(format!("layers.ZeroPadding{n}D({})", pair_tuples(pairs)));
                }
                Step::Crop { pairs } => {
                    w.push(format!("layers.Cropping{n}D({})", pair_tuples(pairs)));
                }
                Step::Pool {
                    max,
                    padding,
                    kernel,
                    stride,
                    ..
                } => {
                    let kind = if *max { "Max" } else { "Average" };
                    w.push(format!(
                        "layers.{kind}Pooling{n}D({}{})",
                        dims(kernel),
                        args(&[
                            ("strides", dims(stride), &dims(kernel)),
                            ("padding", format!("\"{}\"", keyword(padding)), "\"valid\""),
                        ])
                    ));
                }
                _ => {}
            }
        }
    }
    if let (Some(note), Some(slot)) = (layer_note(cx, i), w.layers.get_mut(first)) {
        slot.1 = Some(note);
    }
    Ok(())
}
