//! The model as a JAX function over NCHW arrays, `model(x, params)`: each convolution and pool
//! is the single-layer generator's `lax` function (torch-layout weights), the rest are `jax.nn`
//! and `jnp` calls, and `params` holds the weights by layer (`params["layer_3"]["w"]`).

use crate::codegen::jax::{Jax, JaxPad};
use crate::codegen::layer_definition;
use crate::codegen::plan::{LowerOptions, lower};
use crate::codegen::writer::{Py, nchw_pad_width, tuple};

use super::super::chain::Shape;
use super::super::layers::{Activation, Layer, NormAxis, PadFill};
use super::{Chained, Load, LoadKind, PortError, TargetModel, rank};

fn float(v: f64) -> String {
    let s = format!("{v}");
    if s.contains(['.', 'e', 'E']) || s.contains("inf") {
        s
    } else {
        format!("{s}.0")
    }
}

fn activation(a: Activation) -> String {
    match a {
        Activation::Relu => "jax.nn.relu(x)".into(),
        Activation::Relu6 => "jax.nn.relu6(x)".into(),
        Activation::LeakyRelu(s) => format!("jax.nn.leaky_relu(x, {})", float(s)),
        Activation::Elu(a) => format!("jax.nn.elu(x, {})", float(a)),
        Activation::Tanh => "jnp.tanh(x)".into(),
        Activation::Sigmoid => "jax.nn.sigmoid(x)".into(),
        Activation::Softmax => "jax.nn.softmax(x, axis=1)".into(),
        Activation::Gelu { tanh } => format!(
            "jax.nn.gelu(x, approximate={})",
            if tanh { "True" } else { "False" }
        ),
        Activation::Silu => "jax.nn.silu(x)".into(),
        Activation::Softplus => "jax.nn.softplus(x)".into(),
    }
}

pub(super) fn write(cx: &Chained) -> Result<TargetModel, PortError> {
    let mut defs = Py::new();
    let mut body: Vec<String> = Vec::new();
    let mut loads = Vec::new();
    for (i, l) in cx.model.layers.iter().enumerate() {
        let input = cx.input_of(i);
        let n = rank(input);
        let name = format!("layer_{}", i + 1);
        let p = format!("params[\"{name}\"]");
        match &l.layer {
            Layer::Conv(_) | Layer::Pool(_) => {
                let spec = cx.rows[i].spec.clone().ok_or(PortError::Untranslated {
                    line: l.line,
                    what: "no input size".into(),
                })?;
                crate::codegen::writable(&spec).map_err(|e| PortError::Untranslated {
                    line: l.line,
                    what: e.to_string(),
                })?;
                let plan = lower::<JaxPad>(&spec, LowerOptions::default()).map_err(|e| {
                    PortError::Refused {
                        layer: i,
                        line: l.line,
                        reason: e.to_string(),
                    }
                })?;
                defs.append(&layer_definition::<Jax>(&spec, &plan, &name, false));
                defs.blank();
                defs.blank();
                if let Layer::Conv(conv) = &l.layer {
                    body.push(format!(
                        "x = {name}(x, {p}[\"w\"], {p}[\"b\"])  # line {}: {}",
                        l.line, l.kind
                    ));
                    loads.push(Load {
                        layer: i,
                        kind: LoadKind::Conv {
                            transposed: spec.op == crate::core::Op::ConvTranspose,
                        },
                        target: name,
                        bias_target: None,
                        dilate: None,
                    });
                    if let Some(a) = conv.activation {
                        body.push(format!("x = {}", activation(a)));
                    }
                } else {
                    body.push(format!("x = {name}(x)  # line {}: {}", l.line, l.kind));
                }
            }
            Layer::GlobalPool { max, keepdims } => {
                let axes: Vec<i64> = (2..n as i64 + 2).collect();
                body.push(format!(
                    "x = jnp.{}(x, axis={}, keepdims={})",
                    if *max { "max" } else { "mean" },
                    tuple(&axes),
                    if *keepdims { "True" } else { "False" }
                ));
            }
            Layer::BatchNorm { axis, eps, .. } => {
                let (features, at) = match (input, axis) {
                    (Shape::Map { spatial, .. }, NormAxis::Spatial(a)) if *a < spatial.len() => {
                        (spatial[*a], a + 2)
                    }
                    (Shape::Map { channels, .. }, _) => (*channels, 1),
                    (Shape::Flat(f), _) => (*f, 1),
                };
                let mut dims = vec![
                    1i64;
                    if matches!(input, Shape::Flat(_)) {
                        2
                    } else {
                        n + 2
                    }
                ];
                dims[at] = -1;
                let shape = tuple(&dims);
                body.push(format!(
                    "x = (x - {p}[\"mean\"].reshape({shape})) / jnp.sqrt({p}[\"var\"].reshape({shape}) + {}) * {p}[\"gamma\"].reshape({shape}) + {p}[\"beta\"].reshape({shape})",
                    float(*eps)
                ));
                loads.push(Load {
                    layer: i,
                    kind: LoadKind::Norm { features },
                    target: name,
                    bias_target: None,
                    dilate: None,
                });
            }
            Layer::Activation(a) => body.push(format!("x = {}", activation(*a))),
            Layer::Dropout { .. } | Layer::Identity => {}
            Layer::Flatten => body.push("x = x.reshape(x.shape[0], -1)".into()),
            Layer::Dense {
                bias,
                activation: act,
                ..
            } => {
                let b = if *bias {
                    format!(" + {p}[\"b\"]")
                } else {
                    String::new()
                };
                body.push(format!("x = x @ {p}[\"w\"].T{b}"));
                loads.push(Load {
                    layer: i,
                    kind: LoadKind::Dense {
                        flatten: cx.dense_flatten(i),
                    },
                    target: name,
                    bias_target: None,
                    dilate: None,
                });
                if let Some(a) = act {
                    body.push(format!("x = {}", activation(*a)));
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
                    let parts: Vec<String> = crop
                        .iter()
                        .enumerate()
                        .map(|(a, (b, e))| format!("{b} : x.shape[{}] - {e}", a + 2))
                        .collect();
                    body.push(format!("x = x[:, :, {}]", parts.join(", ")));
                }
                if pad.iter().any(|&(b, a)| b > 0 || a > 0) {
                    let pw = nchw_pad_width(&pad);
                    body.push(match fill {
                        PadFill::Constant(v) if *v == 0.0 => format!("x = jnp.pad(x, {pw})"),
                        PadFill::Constant(v) => {
                            format!("x = jnp.pad(x, {pw}, constant_values={})", float(*v))
                        }
                        PadFill::Reflect => format!("x = jnp.pad(x, {pw}, mode=\"reflect\")"),
                        PadFill::Replicate => format!("x = jnp.pad(x, {pw}, mode=\"edge\")"),
                        PadFill::Circular => format!("x = jnp.pad(x, {pw}, mode=\"wrap\")"),
                    });
                }
            }
            Layer::Upsample { scale } => {
                for a in 0..n {
                    let f = if scale.len() == 1 { scale[0] } else { scale[a] };
                    if f != 1 {
                        body.push(format!("x = jnp.repeat(x, {f}, axis={})", a + 2));
                    }
                }
            }
        }
    }
    let mut py = Py::new();
    py.import("import jax");
    py.import("import jax.numpy as jnp");
    py.append(&defs);
    py.blank();
    py.block("def model(x, params)", |py| {
        py.line(format!(
            "\"\"\"The ported {} model on NCHW arrays; params[\"layer_N\"] holds layer N's weights (PyTorch layout).\"\"\"",
            cx.model.framework.title()
        ));
        for line in &body {
            py.line(line);
        }
        py.line("return x");
    });
    Ok(TargetModel { py, loads })
}
