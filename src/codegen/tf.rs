//! TensorFlow's low-level ops (`tf.nn`), channels last (NHWC).

use super::Render;
use super::plan::{Fill, Native, Step};
use super::writer::{Py, join, list, pad_list, pair_list};

fn padding_arg(padding: &Native) -> String {
    match padding {
        Native::Valid => "\"VALID\"".into(),
        Native::Same => "\"SAME\"".into(),
        Native::Symmetric(v) => pad_list(&v.iter().map(|&p| (p, p)).collect::<Vec<_>>(), 1, 1),
        Native::Explicit(v) => pad_list(v, 1, 1),
        Native::SameLower | Native::Causal => "\"VALID\"".into(),
    }
}

/// `[1, s, 1]`: a per-dimension list with unit batch and channel entries.
fn full_list(values: &[i64]) -> String {
    let mut v = vec![1];
    v.extend_from_slice(values);
    v.push(1);
    list(&v)
}

fn pad_line(pairs: &[(i64, i64)], fill: Fill) -> String {
    let pw = pad_list(pairs, 1, 1);
    match fill {
        Fill::Zero => format!("x = tf.pad(x, {pw})"),
        Fill::NegInf => format!("x = tf.pad(x, {pw}, constant_values=float(\"-inf\"))"),
        Fill::Reflect => format!("x = tf.pad(x, {pw}, mode=\"REFLECT\")"),
        Fill::Replicate => format!("x = pad_edge(x, {})", pair_list(pairs)),
        Fill::Circular => format!("x = pad_wrap(x, {})", pair_list(pairs)),
    }
}

/// Window sums (or maxima) of `x` with the layer's kernel and dilation at `stride`.
fn window(r: &Render, x: &str, kind: &str, stride: &[i64]) -> String {
    let shape = r.shape();
    let n = shape.ndim();
    let dilated = shape.dilation.iter().any(|&d| d > 1);
    if dilated {
        // tf.nn.pool takes a dilation only at stride 1: pool densely, then keep every s-th.
        let pooled = format!(
            "tf.nn.pool({x}, window_shape={}, pooling_type=\"{kind}\", strides={}, padding=\"VALID\", dilations={})",
            list(&shape.kernel),
            list(&vec![1; n]),
            list(&shape.dilation)
        );
        if stride.iter().any(|&s| s > 1) {
            let parts: Vec<String> = stride.iter().map(|s| format!("::{s}")).collect();
            format!("{pooled}[:, {}, :]", parts.join(", "))
        } else {
            pooled
        }
    } else {
        let name = if kind == "MAX" { "max" } else { "avg" };
        format!(
            "tf.nn.{name}_pool{n}d({x}, ksize={}, strides={}, padding=\"VALID\")",
            list(&shape.kernel),
            list(stride)
        )
    }
}

/// The layer as a function of NHWC tensors.
pub fn layer(r: &Render) -> Py {
    let mut py = Py::new();
    py.import("import tensorflow as tf");
    let shape = r.shape();
    let n = shape.ndim();
    let op = r.plan.semantics.op;
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
        py.block("def pad_edge(x, pairs)", |py| {
            py.line("\"\"\"Pads by repeating the edge element (torch 'replicate', numpy 'edge').\"\"\"");
            py.block("for axis, (before, after) in enumerate(pairs, start=1)", |py| {
                py.line("first = tf.gather(x, [0], axis=axis)");
                py.line("last = tf.gather(x, [x.shape[axis] - 1], axis=axis)");
                py.line("x = tf.concat([tf.repeat(first, before, axis=axis), x, tf.repeat(last, after, axis=axis)], axis=axis)");
            });
            py.line("return x");
        });
        py.blank();
    }
    if fills.contains(&Fill::Circular) {
        py.block("def pad_wrap(x, pairs)", |py| {
            py.line("\"\"\"Pads by wrapping around (torch 'circular', numpy 'wrap').\"\"\"");
            py.block(
                "for axis, (before, after) in enumerate(pairs, start=1)",
                |py| {
                    py.line("size = x.shape[axis]");
                    py.line("head = tf.gather(x, tf.range(size - before, size), axis=axis)");
                    py.line("tail = tf.gather(x, tf.range(after), axis=axis)");
                    py.line("x = tf.concat([head, x, tail], axis=axis)");
                },
            );
            py.line("return x");
        });
        py.blank();
    }
    let args = if op.is_pool() {
        "x"
    } else {
        "x, filters, bias=None"
    };
    py.block(format!("def {}({args})", r.name), |py| {
        py.line(format!("\"\"\"{}\"\"\"", r.docstring()));
        let mut biased = false;
        for step in &r.plan.steps {
            match step {
                Step::Crop { pairs } => {
                    let parts: Vec<String> = pairs
                        .iter()
                        .enumerate()
                        .map(|(a, (b, e))| format!("{b} : x.shape[{}] - {e}", a + 1))
                        .collect();
                    py.line(format!("x = x[:, {}, :]", parts.join(", ")));
                }
                Step::Pad { pairs, fill } => {
                    py.line(pad_line(pairs, *fill));
                }
                Step::Conv { padding, dilation, .. } => {
                    let strides = full_list(&shape.stride);
                    let call = match n {
                        1 => format!("tf.nn.conv1d(x, filters, stride={strides}, padding={}, dilations={})", padding_arg(padding), full_list(dilation)),
                        _ => format!(
                            "tf.nn.conv{n}d(x, filters, strides={strides}, padding={}, dilations={})",
                            padding_arg(padding),
                            full_list(dilation)
                        ),
                    };
                    py.line(format!("x = {call}"));
                }
                Step::ConvTranspose { padding, dilation, output_size, .. } => {
                    let out = output_size.clone().unwrap_or_else(|| shape.output.clone());
                    py.line(format!(
                        "x = tf.nn.conv_transpose(x, filters, output_shape=[tf.shape(x)[0], {}, filters.shape[-2]], strides={}, padding={}, dilations={})",
                        join(&out),
                        list(&shape.stride),
                        padding_arg(padding),
                        list(dilation)
                    ));
                }
                Step::EmptyWindows { .. } => {
                    py.comment("Windows with no input element hold the lowest float here; the source gives -inf.");
                    py.line("x = tf.where(x == x.dtype.min, float(\"-inf\"), x)");
                }
                Step::AddBias => {
                    py.line("x = x if bias is None else x + bias");
                    biased = true;
                }
                Step::Pool { max, padding: Native::Valid, stride, .. } => {
                    py.line(format!("x = {}", window(r, "x", if *max { "MAX" } else { "AVG" }, stride)));
                }
                Step::Pool { max, padding, stride, .. } if shape.dilation.iter().any(|&d| d > 1) => {
                    // Only tf.nn.pool takes a dilation.
                    py.line(format!(
                        "x = tf.nn.pool(x, window_shape={}, pooling_type=\"{}\", strides={}, padding={}, dilations={})",
                        list(&shape.kernel),
                        if *max { "MAX" } else { "AVG" },
                        list(stride),
                        padding_arg(padding),
                        list(&shape.dilation)
                    ));
                }
                Step::Pool { max, padding, stride, .. } => {
                    let name = if *max { "max" } else { "avg" };
                    py.line(format!(
                        "x = tf.nn.{name}_pool{n}d(x, ksize={}, strides={}, padding={})",
                        list(&shape.kernel),
                        list(stride),
                        padding_arg(padding)
                    ));
                }
                Step::AverageRatio { stride, .. } => {
                    super::average_prologue(
                        py,
                        "x",
                        "tf.ones_like(x[:1, ..., :1])",
                        &|e: &str, p: &[(i64, i64)], v: Option<&str>| match v {
                        Some(v) => format!("tf.pad({e}, {}, constant_values={v})", pad_list(p, 1, 1)),
                        None => format!("tf.pad({e}, {})", pad_list(p, 1, 1)),
                    },
                        step,
                    );
                    py.line(format!("x = {} / {}", window(r, "x", "AVG", stride), window(r, "mask", "AVG", stride)));
                }
            }
        }
        if !op.is_pool() && !biased {
            py.line("x = x if bias is None else x + bias");
        }
        py.line("return x");
    });
    py
}

/// `def run_<name>(x, w, b)`: NCHW numpy in and out, torch-layout weights.
pub fn runner(r: &Render) -> Py {
    let mut py = Py::new();
    py.import("import numpy as np");
    py.import("import tensorflow as tf");
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
    py.block(format!("def run_{}(x, w, b)", r.name), |py| {
        py.line(format!(
            "x = tf.constant(np.transpose(x, {}))",
            super::writer::tuple(&to_last)
        ));
        if op.is_pool() {
            py.line(format!("y = {}(x)", r.name));
        } else {
            py.line(format!(
                "filters = tf.constant(np.transpose({}, {}))",
                r.weight_expr("w"),
                super::writer::tuple(&kernel_axes)
            ));
            py.line(format!("y = {}(x, filters, tf.constant(b))", r.name));
        }
        py.line(format!(
            "return np.transpose(y.numpy(), {})",
            super::writer::tuple(&to_first)
        ));
    });
    py
}
