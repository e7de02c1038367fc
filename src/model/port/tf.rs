//! The model as a TensorFlow function over NHWC tensors, `model(x, params)`: each convolution
//! and pool is the single-layer generator's `tf.nn` function, the rest are `tf.nn` calls, and
//! `params` holds the weights by layer (`params["layer_3"]["filters"]`).

use crate::codegen::layer_definition;
use crate::codegen::plan::{LowerOptions, lower};
use crate::codegen::tf::{Tf, TfPad};
use crate::codegen::writer::{Py, list, pad_list};
use crate::core::Framework;

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
        Activation::Relu => "tf.nn.relu(x)".into(),
        Activation::Relu6 => "tf.nn.relu6(x)".into(),
        Activation::LeakyRelu(s) => format!("tf.nn.leaky_relu(x, alpha={})", float(s)),
        Activation::Elu(1.0) => "tf.nn.elu(x)".into(),
        Activation::Elu(a) => format!("tf.where(x > 0, x, {} * (tf.exp(x) - 1))", float(a)),
        Activation::Tanh => "tf.tanh(x)".into(),
        Activation::Sigmoid => "tf.sigmoid(x)".into(),
        Activation::Softmax => "tf.nn.softmax(x, axis=-1)".into(),
        Activation::Gelu { tanh } => format!(
            "tf.nn.gelu(x, approximate={})",
            if tanh { "True" } else { "False" }
        ),
        Activation::Silu => "tf.nn.silu(x)".into(),
        Activation::Softplus => "tf.nn.softplus(x)".into(),
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
            Layer::Conv(conv) => {
                let spec = cx.rows[i].spec.clone().ok_or(PortError::Untranslated {
                    line: l.line,
                    what: "no input size".into(),
                })?;
                crate::codegen::writable(&spec).map_err(|e| PortError::Untranslated {
                    line: l.line,
                    what: e.to_string(),
                })?;
                let plan = lower::<TfPad>(&spec, LowerOptions::default()).map_err(|e| {
                    PortError::Refused {
                        layer: i,
                        line: l.line,
                        reason: e.to_string(),
                    }
                })?;
                defs.append(&layer_definition::<Tf>(&spec, &plan, &name, false));
                defs.blank();
                defs.blank();
                body.push(format!(
                    "x = {name}(x, {p}[\"filters\"], {p}[\"bias\"])  # line {}: {}",
                    l.line, l.kind
                ));
                loads.push(Load {
                    layer: i,
                    kind: LoadKind::Conv {
                        transposed: spec.op == crate::core::Op::ConvTranspose,
                    },
                    target: name,
                    bias_target: None,
                    dilate: plan
                        .dilated_kernel()
                        .then(|| plan.semantics.shape.dilation.clone()),
                });
                if let Some(a) = conv.activation {
                    body.push(format!("x = {}", activation(a)));
                }
            }
            Layer::Pool(_) => {
                let spec = cx.rows[i].spec.clone().ok_or(PortError::Untranslated {
                    line: l.line,
                    what: "no input size".into(),
                })?;
                crate::codegen::writable(&spec).map_err(|e| PortError::Untranslated {
                    line: l.line,
                    what: e.to_string(),
                })?;
                let plan = lower::<TfPad>(&spec, LowerOptions::default()).map_err(|e| {
                    PortError::Refused {
                        layer: i,
                        line: l.line,
                        reason: e.to_string(),
                    }
                })?;
                defs.append(&layer_definition::<Tf>(&spec, &plan, &name, false));
                defs.blank();
                defs.blank();
                body.push(format!("x = {name}(x)  # line {}: {}", l.line, l.kind));
            }
            Layer::GlobalPool { max, keepdims } => {
                let axes: Vec<i64> = (1..=n as i64).collect();
                body.push(format!(
                    "x = tf.reduce_{}(x, axis={}, keepdims={})",
                    if *max { "max" } else { "mean" },
                    list(&axes),
                    if *keepdims { "True" } else { "False" }
                ));
            }
            Layer::BatchNorm { axis, eps, .. } => {
                let (features, at) = match (input, axis) {
                    (Shape::Map { spatial, .. }, NormAxis::Spatial(a)) if *a < spatial.len() => {
                        (spatial[*a], Some(a + 1))
                    }
                    (Shape::Map { channels, .. }, _) => (*channels, None),
                    (Shape::Flat(f), _) => (*f, None),
                };
                // Statistics broadcast along their axis (the last one unless stated).
                let shaped = |key: &str| match at {
                    Some(a) => {
                        let mut dims = vec![1i64; n + 2];
                        dims[a] = -1;
                        format!("tf.reshape({p}[\"{key}\"], {})", list(&dims))
                    }
                    None => format!("{p}[\"{key}\"]"),
                };
                body.push(format!(
                    "x = tf.nn.batch_normalization(x, {}, {}, {}, {}, {})",
                    shaped("mean"),
                    shaped("variance"),
                    shaped("offset"),
                    shaped("scale"),
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
            Layer::Flatten => body.push("x = tf.reshape(x, [tf.shape(x)[0], -1])".into()),
            Layer::Dense {
                bias,
                activation: act,
                ..
            } => {
                let b = if *bias {
                    format!(" + {p}[\"bias\"]")
                } else {
                    String::new()
                };
                body.push(format!("x = tf.matmul(x, {p}[\"kernel\"]){b}"));
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
                        .map(|(a, (b, e))| format!("{b} : x.shape[{}] - {e}", a + 1))
                        .collect();
                    body.push(format!("x = x[:, {}, :]", parts.join(", ")));
                }
                if pad.iter().any(|&(b, a)| b > 0 || a > 0) {
                    let pw = pad_list(&pad, 1, 1);
                    body.push(match fill {
                        PadFill::Constant(v) if *v == 0.0 => format!("x = tf.pad(x, {pw})"),
                        PadFill::Constant(v) => format!("x = tf.pad(x, {pw}, constant_values={})", float(*v)),
                        PadFill::Reflect => format!("x = tf.pad(x, {pw}, mode=\"REFLECT\")"),
                        PadFill::Replicate | PadFill::Circular => {
                            return Err(PortError::Untranslated { line: l.line, what: format!("{}: replicate and circular padding layers are ported to PyTorch and JAX only", l.kind) });
                        }
                    });
                }
            }
            Layer::Upsample { scale } => {
                for a in 0..n {
                    let f = if scale.len() == 1 { scale[0] } else { scale[a] };
                    if f != 1 {
                        body.push(format!("x = tf.repeat(x, {f}, axis={})", a + 1));
                    }
                }
            }
        }
    }
    let mut py = Py::new();
    py.import("import tensorflow as tf");
    py.append(&defs);
    py.blank();
    py.block("def model(x, params)", |py| {
        py.line(format!(
            "\"\"\"The ported {} model on NHWC tensors; params[\"layer_N\"] holds layer N's weights.\"\"\"",
            cx.model.framework.title()
        ));
        for line in &body {
            py.line(line);
        }
        py.line("return x");
    });
    let _ = Framework::Tf;
    Ok(TargetModel { py, loads })
}
