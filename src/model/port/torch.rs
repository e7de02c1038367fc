//! The model as a PyTorch `nn.Sequential`: stock modules for every step padlab's plans can be
//! written with (explicit pads and crops as `nn.ZeroPad2d`, the layer itself), small helper
//! modules where torch has none (a bias added after a crop, batch normalisation over a spatial
//! axis, run-time 'same' pads), and the single-layer generator's class where a layer needs more.

use crate::codegen::layer_definition;
use crate::codegen::plan::{Fill, LowerOptions, Step, Window, lower};
use crate::codegen::torch::{Torch, TorchPad, class_name, pad_module};
use crate::codegen::writer::{Py, torch_pad_tuple, tuple};
use crate::core::{LayerSpec, Op, PaddingMode};

use super::super::chain::Shape;
use super::super::layers::{Activation, Conv, Layer, NormAxis, PadFill};
use super::{Chained, Load, LoadKind, PortError, TargetModel, rank};

const SAME_PAD: &str = r#"class SamePad(nn.Module):
    """TF-style 'same' padding for any input size (a strided 'same' layer's pads change with it)."""

    def __init__(self, kernel, stride, value=0.0):
        super().__init__()
        self.kernel, self.stride, self.value = kernel, stride, value

    def forward(self, x):
        pads = []
        for size, k, s in zip(reversed(x.shape[2:]), reversed(self.kernel), reversed(self.stride)):
            total = max((math.ceil(size / s) - 1) * s + k - size, 0)
            pads += [total // 2, total - total // 2]
        return F.pad(x, pads, value=self.value)"#;

const NORM_ON_AXIS: &str = r#"class BatchNormOnAxis(nn.Module):
    """Batch normalisation over an axis other than the channels (Keras BatchNormalization(axis=...))."""

    def __init__(self, num_features, dim, eps, momentum):
        super().__init__()
        self.dim = dim
        self.bn = nn.BatchNorm1d(num_features, eps=eps, momentum=momentum)

    def forward(self, x):
        moved = x.movedim(self.dim, 1)
        shape = moved.shape
        return self.bn(moved.reshape(shape[0], shape[1], -1)).reshape(shape).movedim(1, self.dim)"#;

const BIAS: &str = r#"class Bias(nn.Module):
    """A per-channel bias, added after the crop or zero-extension the source adds it after."""

    def __init__(self, channels):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        return x + self.bias.view(1, -1, *([1] * (x.dim() - 2)))"#;

const EMPTY_WINDOWS: &str = r#"class EmptyWindows(nn.Module):
    """Max-pool windows that read no input hold the value the source gives there."""

    def __init__(self, to_neg_inf):
        super().__init__()
        self.to_neg_inf = to_neg_inf

    def forward(self, x):
        lowest = torch.finfo(x.dtype).min
        if self.to_neg_inf:
            return x.masked_fill(x == lowest, float("-inf"))
        return x.masked_fill(x == float("-inf"), lowest)"#;

/// The modules of the `nn.Sequential` being written.
struct Writer {
    modules: Vec<(String, Option<String>)>,
    helpers: Vec<&'static str>,
    classes: Py,
    loads: Vec<Load>,
}

impl Writer {
    /// Adds a module; returns its index in the Sequential.
    fn push(&mut self, module: String) -> usize {
        self.modules.push((module, None));
        self.modules.len() - 1
    }

    fn helper(&mut self, text: &'static str) {
        if !self.helpers.contains(&text) {
            self.helpers.push(text);
        }
    }

    /// A comment on the last module.
    fn note(&mut self, text: String) {
        if let Some((_, c)) = self.modules.last_mut() {
            *c = Some(text);
        }
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

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn float(v: f64) -> String {
    let s = format!("{v}");
    if s.contains(['.', 'e', 'E']) || s.contains("inf") || s.contains("NaN") {
        s
    } else {
        format!("{s}.0")
    }
}

fn pad_arg(p: &TorchPad) -> String {
    match p {
        TorchPad::Zero => "0".into(),
        TorchPad::Same => "\"same\"".into(),
        TorchPad::Ints(v) if v.iter().all(|&x| x == v[0]) => v[0].to_string(),
        TorchPad::Ints(v) => tuple(v),
    }
}

/// One value, or the tuple when they differ.
fn dims(v: &[i64]) -> String {
    match v.first() {
        Some(&first) if v.iter().all(|&x| x == first) => first.to_string(),
        _ => tuple(v),
    }
}

pub(super) fn write(cx: &Chained) -> Result<TargetModel, PortError> {
    let mut w = Writer {
        modules: Vec::new(),
        helpers: Vec::new(),
        classes: Py::new(),
        loads: Vec::new(),
    };
    for (i, l) in cx.model.layers.iter().enumerate() {
        let input = cx.input_of(i);
        let n = rank(input).max(1);
        match &l.layer {
            Layer::Conv(conv) => {
                conv_layer(&mut w, cx, i, conv)?;
                if let Some(a) = conv.activation {
                    w.push(activation(a));
                }
            }
            Layer::Pool(spec) => pool_layer(&mut w, cx, i, spec)?,
            Layer::GlobalPool { max, keepdims } => {
                let kind = if *max { "Max" } else { "Avg" };
                w.push(format!("nn.Adaptive{kind}Pool{n}d(1)"));
                if !keepdims {
                    w.push("nn.Flatten()".into());
                }
            }
            Layer::BatchNorm {
                axis,
                eps,
                momentum,
                ..
            } => {
                let (features, spatial_axis) = match (input, axis) {
                    (Shape::Map { spatial, .. }, NormAxis::Spatial(a)) if *a < spatial.len() => {
                        (spatial[*a], Some(*a))
                    }
                    (Shape::Map { channels, .. }, _) => (*channels, None),
                    (Shape::Flat(f), _) => (*f, None),
                };
                let k = match spatial_axis {
                    Some(a) => {
                        w.helper(NORM_ON_AXIS);
                        let k = w.push(format!(
                            "BatchNormOnAxis({features}, dim={}, eps={}, momentum={})",
                            a + 2,
                            float(*eps),
                            float(*momentum)
                        ));
                        w.note(format!("line {}: normalises the spatial axis {} ({features} values), as the source does", l.line, a + 1));
                        k
                    }
                    None => {
                        let bn_rank = if matches!(input, Shape::Flat(_)) {
                            1
                        } else {
                            n
                        };
                        w.push(format!(
                            "nn.BatchNorm{bn_rank}d({features}{})",
                            args(&[
                                ("eps", float(*eps), "1e-05"),
                                ("momentum", float(*momentum), "0.1")
                            ])
                        ))
                    }
                };
                let target = if spatial_axis.is_some() {
                    format!("model[{k}].bn")
                } else {
                    format!("model[{k}]")
                };
                w.loads.push(Load {
                    layer: i,
                    kind: LoadKind::Norm { features },
                    target,
                    bias_target: None,
                    dilate: None,
                });
            }
            Layer::Activation(a) => {
                w.push(activation(*a));
            }
            Layer::Dropout { rate, spatial } => {
                let module = match (spatial, input) {
                    (true, Shape::Map { spatial, .. }) => {
                        format!("nn.Dropout{}d({})", spatial.len(), float(*rate))
                    }
                    _ => format!("nn.Dropout({})", float(*rate)),
                };
                w.push(module);
            }
            Layer::Flatten => {
                w.push("nn.Flatten()".into());
            }
            Layer::Dense {
                units,
                bias,
                activation: act,
                ..
            } => {
                let Shape::Flat(features) = input else {
                    return Err(PortError::Untranslated {
                        line: l.line,
                        what: "a dense layer on a feature map".into(),
                    });
                };
                let k = w.push(format!(
                    "nn.Linear({features}, {units}{})",
                    args(&[("bias", py_bool(*bias).into(), "True")])
                ));
                w.loads.push(Load {
                    layer: i,
                    kind: LoadKind::Dense {
                        flatten: cx.dense_flatten(i),
                    },
                    target: format!("model[{k}]"),
                    bias_target: None,
                    dilate: None,
                });
                if let Some(a) = act {
                    w.push(activation(*a));
                }
            }
            Layer::Pad { pairs, fill } => {
                let t = torch_pad_tuple(pairs);
                let module = match fill {
                    PadFill::Constant(v) if *v == 0.0 => format!("nn.ZeroPad{n}d({t})"),
                    PadFill::Constant(v) => format!("nn.ConstantPad{n}d({t}, {})", float(*v)),
                    PadFill::Reflect => format!("nn.ReflectionPad{n}d({t})"),
                    PadFill::Replicate => format!("nn.ReplicationPad{n}d({t})"),
                    PadFill::Circular => format!("nn.CircularPad{n}d({t})"),
                };
                w.push(module);
            }
            Layer::Upsample { scale } => {
                let scale = if scale.len() == 1 {
                    vec![scale[0]; n]
                } else {
                    scale.clone()
                };
                w.push(format!(
                    "nn.Upsample(scale_factor={}, mode=\"nearest\")",
                    dims(&scale)
                ));
            }
            Layer::Identity => {
                w.push("nn.Identity()".into());
            }
        }
    }
    let mut py = Py::new();
    py.import("import torch");
    py.import("import torch.nn as nn");
    if w.helpers.contains(&SAME_PAD) {
        py.import("import math");
        py.import("import torch.nn.functional as F");
    }
    for helper in &w.helpers {
        for line in helper.lines() {
            py.line(line);
        }
        py.blank();
        py.blank();
    }
    py.append(&w.classes);
    py.blank();
    py.line("model = nn.Sequential(");
    for (module, comment) in &w.modules {
        match comment {
            Some(c) => py.line(format!("    {module},  # {c}")),
            None => py.line(format!("    {module},")),
        };
    }
    py.line(")");
    Ok(TargetModel { py, loads: w.loads })
}

fn activation(a: Activation) -> String {
    match a {
        Activation::Relu => "nn.ReLU()".into(),
        Activation::Relu6 => "nn.ReLU6()".into(),
        Activation::LeakyRelu(s) => format!("nn.LeakyReLU({})", float(s)),
        Activation::Elu(1.0) => "nn.ELU()".into(),
        Activation::Elu(a) => format!("nn.ELU({})", float(a)),
        Activation::Tanh => "nn.Tanh()".into(),
        Activation::Sigmoid => "nn.Sigmoid()".into(),
        Activation::Softmax => "nn.Softmax(dim=1)".into(),
        Activation::Gelu { tanh: false } => "nn.GELU()".into(),
        Activation::Gelu { tanh: true } => "nn.GELU(approximate=\"tanh\")".into(),
        Activation::Silu => "nn.SiLU()".into(),
        Activation::Softplus => "nn.Softplus()".into(),
    }
}

/// The pads of a plan step as a comment: `(1, 2), (0, 0)`.
fn pairs_text(pairs: &[(i64, i64)]) -> String {
    pairs
        .iter()
        .map(|(b, a)| format!("({b}, {a})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the table says of a layer, as a short comment: its line, pads, and flags.
fn layer_note(cx: &Chained, i: usize) -> Option<String> {
    let l = &cx.model.layers[i];
    let row = &cx.rows[i];
    let answer = row.answer.as_ref()?;
    let pairs = answer.pairs();
    let nonzero = pairs.iter().any(|&(b, a)| b != 0 || a != 0);
    let what = match answer.placement {
        crate::core::Placement::Pad if nonzero => format!("pads {}", pairs_text(&pairs)),
        crate::core::Placement::Crop if nonzero => {
            format!("crops {} of the full output", pairs_text(&pairs))
        }
        _ => return None,
    };
    let mut text = format!("line {}: {what}", l.line);
    if answer.pads_depend_on_input {
        let size = crate::core::join(&row.spec.as_ref()?.input, "x");
        text.push_str(&format!(", exact for {size} only (strided 'same')"));
    }
    Some(text)
}

/// A convolution: the plan's steps as modules.
fn conv_layer(w: &mut Writer, cx: &Chained, i: usize, conv: &Conv) -> Result<(), PortError> {
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
        lower::<TorchPad>(&spec, LowerOptions::default()).map_err(|e| PortError::Refused {
            layer: i,
            line: l.line,
            reason: e.to_string(),
        })?;
    let Shape::Map { channels, .. } = cx.input_of(i) else {
        return Err(PortError::Untranslated {
            line: l.line,
            what: "a convolution on a vector".into(),
        });
    };
    let n = spec.input.len();
    let shape = &plan.semantics.shape;
    let out = conv.out_channels;
    let first = w.modules.len();
    let mut load = Load {
        layer: i,
        kind: LoadKind::Conv {
            transposed: spec.op == Op::ConvTranspose,
        },
        target: String::new(),
        bias_target: None,
        dilate: None,
    };
    for step in &plan.steps {
        match step {
            Step::Pad { pairs, fill } => {
                w.push(pad_module(pairs, *fill));
            }
            Step::Crop { pairs } => {
                let negative: Vec<(i64, i64)> = pairs.iter().map(|&(b, a)| (-b, -a)).collect();
                w.push(pad_module(&negative, Fill::Zero));
            }
            Step::Conv {
                padding,
                kernel,
                dilation,
                padding_mode,
                ..
            } => {
                let mode = match padding_mode {
                    PaddingMode::Zeros => String::new(),
                    m => format!(", padding_mode=\"{}\"", m.name()),
                };
                let k = w.push(format!(
                    "nn.Conv{n}d({channels}, {out}, {}{}{mode})",
                    dims(kernel),
                    args(&[
                        ("stride", dims(&shape.stride), "1"),
                        ("padding", pad_arg(padding), "0"),
                        ("dilation", dims(dilation), "1"),
                        ("bias", py_bool(conv.bias).into(), "True"),
                    ])
                ));
                load.target = format!("model[{k}]");
            }
            Step::ConvTranspose {
                padding,
                kernel,
                dilation,
                size_padding,
                ..
            } => {
                let adds_bias = plan.adds_bias();
                let k = w.push(format!(
                    "nn.ConvTranspose{n}d({channels}, {out}, {}{})",
                    dims(kernel),
                    args(&[
                        ("stride", dims(&shape.stride), "1"),
                        ("padding", pad_arg(padding), "0"),
                        ("output_padding", dims(size_padding), "0"),
                        ("dilation", dims(dilation), "1"),
                        ("bias", py_bool(conv.bias && !adds_bias).into(), "True"),
                    ])
                ));
                load.target = format!("model[{k}]");
            }
            Step::AddBias => {
                if conv.bias {
                    w.helper(BIAS);
                    let k = w.push(format!("Bias({out})"));
                    load.bias_target = Some(format!("model[{k}]"));
                }
            }
            Step::EmptyWindows { to_neg_inf } => {
                w.helper(EMPTY_WINDOWS);
                w.push(format!("EmptyWindows({})", py_bool(*to_neg_inf)));
            }
            Step::Pool { .. } | Step::AverageRatio { .. } => {
                return Err(PortError::Untranslated {
                    line: l.line,
                    what: "a pooling step in a convolution".into(),
                });
            }
        }
    }
    if plan.dynamic_same.is_some() {
        w.helper(SAME_PAD);
    }
    if let (Some(note), Some(slot)) = (layer_note(cx, i), w.modules.get_mut(first)) {
        let dynamic = plan.dynamic_same.map(|_| {
            format!(
                "; any size: SamePad({}, {})",
                tuple(&shape.effective_kernel()),
                tuple(&shape.stride)
            )
        });
        slot.1 = Some(note + &dynamic.unwrap_or_default());
    }
    w.loads.push(load);
    Ok(())
}

/// Whether a pool plan's steps are all stock torch modules.
fn stock_pool(steps: &[Step<TorchPad>]) -> bool {
    steps.iter().all(|s| {
        matches!(
            s,
            Step::Pad { .. }
                | Step::Crop { .. }
                | Step::EmptyWindows { .. }
                | Step::Pool {
                    window: Window::Pool,
                    ..
                }
        )
    })
}

/// A pool: stock modules, or the single-layer generator's class for an exact average.
fn pool_layer(w: &mut Writer, cx: &Chained, i: usize, spec: &LayerSpec) -> Result<(), PortError> {
    let l = &cx.model.layers[i];
    let spec = cx.rows[i].spec.clone().unwrap_or_else(|| spec.clone());
    crate::codegen::writable(&spec).map_err(|e| PortError::Untranslated {
        line: l.line,
        what: e.to_string(),
    })?;
    let plan =
        lower::<TorchPad>(&spec, LowerOptions::default()).map_err(|e| PortError::Refused {
            layer: i,
            line: l.line,
            reason: e.to_string(),
        })?;
    let n = spec.input.len();
    let first = w.modules.len();
    if !stock_pool(&plan.steps) {
        let name = format!("layer_{}", i + 1);
        w.classes
            .append(&layer_definition::<Torch>(&spec, &plan, &name, false));
        w.classes.blank();
        w.classes.blank();
        w.push(format!("{}()", class_name(&name)));
    } else {
        for step in &plan.steps {
            match step {
                // The pool's own fill: -inf for a max, the edges for Keras-on-torch averages.
                Step::Pad { pairs, fill } => {
                    w.push(pad_module(pairs, *fill));
                }
                Step::Crop { pairs } => {
                    let negative: Vec<(i64, i64)> = pairs.iter().map(|&(b, a)| (-b, -a)).collect();
                    w.push(pad_module(&negative, Fill::Zero));
                }
                Step::EmptyWindows { to_neg_inf } => {
                    w.helper(EMPTY_WINDOWS);
                    w.push(format!("EmptyWindows({})", py_bool(*to_neg_inf)));
                }
                Step::Pool {
                    max,
                    padding,
                    kernel,
                    stride,
                    dilation,
                    ceil_mode,
                    count_include_pad,
                    ..
                } => {
                    let module = if *max {
                        format!(
                            "nn.MaxPool{n}d({}{})",
                            dims(kernel),
                            args(&[
                                ("stride", dims(stride), &dims(kernel)),
                                ("padding", pad_arg(padding), "0"),
                                ("dilation", dims(dilation), "1"),
                                ("ceil_mode", py_bool(*ceil_mode).into(), "False"),
                            ])
                        )
                    } else {
                        format!(
                            "nn.AvgPool{n}d({}{})",
                            dims(kernel),
                            args(&[
                                ("stride", dims(stride), &dims(kernel)),
                                ("padding", pad_arg(padding), "0"),
                                ("ceil_mode", py_bool(*ceil_mode).into(), "False"),
                                (
                                    "count_include_pad",
                                    py_bool(count_include_pad.unwrap_or(true)).into(),
                                    "True"
                                ),
                            ])
                        )
                    };
                    w.push(module);
                }
                _ => {}
            }
        }
    }
    if let (Some(note), Some(slot)) = (layer_note(cx, i), w.modules.get_mut(first)) {
        slot.1 = Some(note);
    }
    Ok(())
}
