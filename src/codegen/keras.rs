//! Keras 3: a `keras.Sequential` of layers, channels last (NHWC).

use crate::core::Op;

use super::Render;
use super::plan::{Fill, Native, Step};
use super::writer::{Py, pad_list, pair_list, pair_tuples, tuple};

fn keyword(padding: &Native) -> &'static str {
    match padding {
        Native::Same => "same",
        Native::Causal => "causal",
        _ => "valid",
    }
}

fn ops_pad(pairs: &[(i64, i64)], fill: Fill) -> String {
    let pw = pad_list(pairs, 1, 1);
    match fill {
        Fill::Zero => format!("keras.ops.pad(t, {pw})"),
        Fill::NegInf => format!("keras.ops.pad(t, {pw}, constant_values=float(\"-inf\"))"),
        Fill::Reflect => format!("keras.ops.pad(t, {pw}, mode=\"reflect\")"),
        // keras.ops.pad on TensorFlow has no "edge" or "wrap": helpers below.
        Fill::Replicate => format!("pad_edge(t, {})", pair_list(pairs)),
        Fill::Circular => format!("pad_wrap(t, {})", pair_list(pairs)),
    }
}

/// Window reduction by taps: exact for any dilation (Keras pooling has none).
fn taps_function(py: &mut Py, name: &str, r: &Render, stride: &[i64], max: bool) {
    let shape = r.shape();
    let n = shape.ndim();
    py.block(format!("def {name}(t)"), |py| {
        py.comment(
            "One strided slice per kernel tap, combined: a dilated window without a dilated pool.",
        );
        py.line("out = None");
        let mut header = Vec::new();
        for a in 0..n {
            header.push(format!("for i{a} in range({})", shape.kernel[a]));
        }
        let slices: Vec<String> = (0..n)
            .map(|a| {
                let (d, s) = (shape.dilation[a], stride[a]);
                format!(
                    "i{a} * {d} : i{a} * {d} + (t.shape[{}] - {}) // {s} * {s} + 1 : {s}",
                    a + 1,
                    (shape.kernel[a] - 1) * d + 1
                )
            })
            .collect();
        let body = |py: &mut Py| {
            py.line(format!("v = t[:, {}, :]", slices.join(", ")));
            if max {
                py.line("out = v if out is None else keras.ops.maximum(out, v)");
            } else {
                py.line("out = v if out is None else out + v");
            }
        };
        nest(py, &header, &body);
        py.line("return out");
    });
}

fn nest(py: &mut Py, headers: &[String], body: &dyn Fn(&mut Py)) {
    match headers.split_first() {
        Some((first, rest)) => {
            py.block(first, |py| nest(py, rest, body));
        }
        None => body(py),
    }
}

/// The layer definition: `def name(filters)` returning a `keras.Sequential`.
pub fn layer(r: &Render) -> Py {
    let mut py = Py::new();
    py.import("import keras");
    let shape = r.shape();
    let n = shape.ndim();
    let op = r.plan.semantics.op;
    let dilated = shape.dilation.iter().any(|&d| d > 1);
    let adds_bias = r.plan.steps.contains(&Step::AddBias);
    if adds_bias {
        py.block("class AddBias(keras.layers.Layer)", |py| {
            py.line("\"\"\"Adds a per-channel bias (after a zero-extension the source also biases).\"\"\"");
            py.blank();
            py.block("def build(self, input_shape)", |py| {
                py.line("self.bias = self.add_weight(shape=(input_shape[-1],), initializer=\"zeros\", name=\"bias\")");
            });
            py.blank();
            py.block("def call(self, t)", |py| {
                py.line("return t + self.bias");
            });
        });
        py.blank();
    }
    let fills: Vec<Fill> = r
        .plan
        .steps
        .iter()
        .filter_map(|s| {
            if let Step::Pad { fill, .. } = s {
                Some(*fill)
            } else {
                None
            }
        })
        .collect();
    if fills.contains(&Fill::Replicate) {
        py.block("def pad_edge(t, pairs)", |py| {
            py.line("\"\"\"Pads by repeating the edge element (torch 'replicate').\"\"\"");
            py.block("for axis, (before, after) in enumerate(pairs, start=1)", |py| {
                py.line("first = keras.ops.take(t, [0], axis=axis)");
                py.line("last = keras.ops.take(t, [t.shape[axis] - 1], axis=axis)");
                py.line("parts = [keras.ops.repeat(first, before, axis=axis), t, keras.ops.repeat(last, after, axis=axis)]");
                py.line("t = keras.ops.concatenate(parts, axis=axis)");
            });
            py.line("return t");
        });
        py.blank();
    }
    if fills.contains(&Fill::Circular) {
        py.block("def pad_wrap(t, pairs)", |py| {
            py.line("\"\"\"Pads by wrapping around (torch 'circular').\"\"\"");
            py.block("for axis, (before, after) in enumerate(pairs, start=1)", |py| {
                py.line("size = t.shape[axis]");
                py.line("parts = [keras.ops.take(t, keras.ops.arange(size - before, size), axis=axis), t, keras.ops.take(t, keras.ops.arange(after), axis=axis)]");
                py.line("t = keras.ops.concatenate(parts, axis=axis)");
            });
            py.line("return t");
        });
        py.blank();
    }
    // Helpers used by Lambda layers.
    for (i, step) in r.plan.steps.iter().enumerate() {
        match step {
            Step::Pool {
                max,
                stride,
                padding: Native::Valid,
                ..
            } if dilated => {
                taps_function(
                    &mut py,
                    &format!("window_{}_{i}", if *max { "max" } else { "sum" }),
                    r,
                    stride,
                    *max,
                );
                py.blank();
            }
            Step::AverageRatio { stride, .. } => {
                if dilated {
                    taps_function(&mut py, &format!("window_sum_{i}"), r, stride, false);
                    py.blank();
                }
                py.block(format!("def average_{i}(t)"), |py| {
                    super::average_prologue(
                        py,
                        "t",
                        "keras.ops.ones_like(t[:1, ..., :1])",
                        &|e: &str, p: &[(i64, i64)], v: Option<&str>| match v {
                        Some(v) => format!("keras.ops.pad({e}, {}, constant_values={v})", pad_list(p, 1, 1)),
                        None => format!("keras.ops.pad({e}, {})", pad_list(p, 1, 1)),
                    },
                        step,
                    );
                    if dilated {
                        py.line(format!("return window_sum_{i}(t) / window_sum_{i}(mask)"));
                    } else {
                        py.line(format!(
                            "return keras.ops.average_pool(t, {k}, {s}, \"valid\") / keras.ops.average_pool(mask, {k}, {s}, \"valid\")",
                            k = tuple(&shape.kernel),
                            s = tuple(stride)
                        ));
                    }
                });
                py.blank();
            }
            _ => {}
        }
    }
    let args = if op.is_pool() { "" } else { "filters" };
    py.block(format!("def {}({args})", r.name), |py| {
        py.line(format!("\"\"\"{}\"\"\"", r.docstring()));
        py.line("return keras.Sequential([");
        for (i, step) in r.plan.steps.iter().enumerate() {
            let layer = match step {
                Step::Crop { pairs } => format!("keras.layers.Cropping{n}D({})", pair_tuples(pairs)),
                Step::Pad { pairs, fill: Fill::Zero } => format!("keras.layers.ZeroPadding{n}D({})", pair_tuples(pairs)),
                Step::Pad { pairs, fill } => format!("keras.layers.Lambda(lambda t: {})", ops_pad(pairs, *fill)),
                Step::Conv { padding, kernel, dilation, .. } => format!(
                    "keras.layers.Conv{n}D(filters, {}, strides={}, padding=\"{}\", dilation_rate={}, name=\"conv\")",
                    tuple(kernel),
                    tuple(&shape.stride),
                    keyword(padding),
                    tuple(dilation)
                ),
                Step::ConvTranspose { padding, kernel, dilation, output_padding, .. } => format!(
                    "keras.layers.Conv{n}DTranspose(filters, {}, strides={}, padding=\"{}\", output_padding={}, dilation_rate={}, use_bias={}, name=\"conv\")",
                    tuple(kernel),
                    tuple(&shape.stride),
                    keyword(padding),
                    output_padding.as_ref().map_or("None".into(), |v| tuple(v)),
                    tuple(dilation),
                    if adds_bias { "False" } else { "True" }
                ),
                Step::AddBias => "AddBias(name=\"bias\")".into(),
                Step::Pool { max, stride, padding: Native::Valid, .. } if dilated => {
                    format!("keras.layers.Lambda(window_{}_{i})", if *max { "max" } else { "sum" })
                }
                Step::Pool { max, padding, stride, .. } => format!(
                    "keras.layers.{}Pooling{n}D(pool_size={}, strides={}, padding=\"{}\")",
                    if *max { "Max" } else { "Average" },
                    tuple(&shape.kernel),
                    tuple(stride),
                    keyword(padding)
                ),
                Step::AverageRatio { .. } => format!("keras.layers.Lambda(average_{i})"),
                Step::EmptyWindows { to_neg_inf } => {
                    // Windows with no input element: the value the source gives there.
                    let (lowest, neg_inf) = ("-3.4028234663852886e38", "float(\"-inf\")");
                    let (from, to, name) = if *to_neg_inf { (lowest, neg_inf, "-inf") } else { (neg_inf, lowest, "the lowest float") };
                    format!("keras.layers.Lambda(lambda t: keras.ops.where(t == {from}, {to}, t))  # source: {name} for windows with no input")
                }
            };
            py.line(format!("    {layer},"));
        }
        py.line("])");
    });
    py
}

/// `def run_<name>(x, w, b)`: NCHW numpy in and out, torch-layout weights.
pub fn runner(r: &Render) -> Py {
    let mut py = Py::new();
    py.import("import numpy as np");
    let n = r.shape().ndim();
    let op = r.plan.semantics.op;
    let to_last: Vec<i64> = std::iter::once(0)
        .chain(2..n as i64 + 2)
        .chain(std::iter::once(1))
        .collect();
    let to_first: Vec<i64> = std::iter::once(0)
        .chain(std::iter::once(n as i64 + 1))
        .chain(1..n as i64 + 1)
        .collect();
    let kernel_axes: Vec<i64> = (2..n as i64 + 2).chain([1, 0]).collect();
    let adds_bias = r.plan.steps.contains(&Step::AddBias);
    py.block(format!("def run_{}(x, w, b)", r.name), |py| {
        py.line(format!("x = np.transpose(x, {})", tuple(&to_last)));
        if op.is_pool() {
            py.line(format!("model = {}()", r.name));
        } else {
            let out = if op == Op::ConvTranspose {
                "w.shape[1]"
            } else {
                "w.shape[0]"
            };
            py.line(format!("model = {}({out})", r.name));
        }
        py.line("model.build(x.shape)");
        if !op.is_pool() {
            let kernel = format!(
                "np.transpose({}, {})",
                r.weight_expr("w"),
                tuple(&kernel_axes)
            );
            if adds_bias {
                py.line(format!("model.get_layer(\"conv\").set_weights([{kernel}])"));
                py.line("model.get_layer(\"bias\").set_weights([b])");
            } else {
                py.line(format!(
                    "model.get_layer(\"conv\").set_weights([{kernel}, b])"
                ));
            }
        }
        py.line(format!(
            "return np.transpose(np.asarray(model(x)), {})",
            tuple(&to_first)
        ));
    });
    py
}
