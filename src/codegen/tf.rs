//! TensorFlow's low-level ops (`tf.nn`), channels last (NHWC).

use crate::core::Framework;

use super::layout::{data_to_first, data_to_last, kernel_to_last};
use super::plan::{
    Abilities, ConvStep, Fill, Native, Plan, Spelling, Step, Window, WindowGeometry,
};
use super::semantics::Shape;
use super::target::{Render, Target};
use super::writer::{
    ConstantPad, Line, Py, answer_lines, args, average_prologue, crop_slices, dilated_suffix,
    dilation_arg, fill_helpers, helper_note, helper_pad, join, list, pad_list, short, tuple,
};

/// The `tf.nn` renderer.
pub struct Tf;

impl Target for Tf {
    type Pad = TfPad;
    const CAN: &'static Abilities = &Abilities {
        // tf.nn.pool takes a dilation only at stride 1.
        window: |need| {
            if need.dilated && need.strided {
                Window::DenseThenStride
            } else {
                Window::Pool
            }
        },
        ..Abilities::plain(Framework::Tf)
    };
    /// The porter's lines (`codegen::answer`).
    fn answer(plan: &Plan<TfPad>) -> Vec<Line> {
        let shape = &plan.semantics.shape;
        let n = shape.ndim();
        answer_lines(&plan.steps, |step| {
            Some(match step {
                Step::Pad { pairs, fill } => {
                    format!("{}{}", pad_line("", pairs, *fill), helper_note(*fill))
                }
                Step::Crop { pairs } => format!("x = x[{}]", crop_slices(pairs, 1, 1)),
                Step::Conv(conv) => {
                    let stride = if n == 1 { "stride" } else { "strides" };
                    // tf.nn.conv3d takes only five-long strides and dilations (batch and channels 1).
                    let numbers = |v: &[i64]| {
                        if n == 3 {
                            format!("[1, {}, 1]", join(v))
                        } else {
                            short(v)
                        }
                    };
                    let dilations =
                        dilation_arg("dilations", &conv.dilation, numbers(&conv.dilation));
                    format!(
                        "tf.nn.conv{n}d(x, w, {stride}={}, padding={}{dilations}){}",
                        numbers(&shape.stride),
                        padding_arg(&conv.padding),
                        dilated_suffix(conv.dilated_kernel)
                    )
                }
                Step::ConvTranspose(t) => format!(
                    "tf.nn.conv_transpose(x, w, [batch, {}, C_out], strides={}, padding={}{}){}",
                    join(t.output_or(&shape.output)),
                    short(&shape.stride),
                    padding_arg(&t.padding),
                    args(&[("dilations", short(&t.dilation), "1")]),
                    dilated_suffix(t.dilated_kernel)
                ),
                Step::Pool(p) if p.window == Window::Pool && !p.dilated() => {
                    format!(
                        "tf.nn.{}_pool{n}d(x, ksize={}, strides={}, padding={})",
                        if p.max { "max" } else { "avg" },
                        short(&p.kernel),
                        short(&p.stride),
                        padding_arg(&p.padding)
                    )
                }
                _ => return None,
            })
        })
    }

    /// The layer as a function of NHWC tensors.
    fn layer(r: &Render<TfPad>) -> Py {
        let mut py = Py::with_imports(&["import tensorflow as tf"]);
        let shape = r.shape();
        let n = shape.ndim();
        let op = r.op();
        let helper = r.helper_prefix();
        let fills: Vec<Fill> = r.plan.fills().collect();
        fill_helpers(
            &mut py,
            &fills,
            &helper,
            "x",
            (
                "Pads by repeating the edge element (torch 'replicate', numpy 'edge').",
                &[
                    "first = tf.gather(x, [0], axis=axis)",
                    "last = tf.gather(x, [x.shape[axis] - 1], axis=axis)",
                    "x = tf.concat([tf.repeat(first, before, axis=axis), x, tf.repeat(last, after, axis=axis)], axis=axis)",
                ],
            ),
            (
                "Pads by wrapping around (torch 'circular', numpy 'wrap').",
                &[
                    "size = x.shape[axis]",
                    "head = tf.gather(x, tf.range(size - before, size), axis=axis)",
                    "tail = tf.gather(x, tf.range(after), axis=axis)",
                    "x = tf.concat([head, x, tail], axis=axis)",
                ],
            ),
        );
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
                        py.line(pad_line(&helper, pairs, *fill));
                    }
                    Step::Conv(ConvStep { padding, dilation, .. }) => {
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
                    Step::ConvTranspose(t) => {
                        py.line(format!(
                            "x = tf.nn.conv_transpose(x, filters, output_shape=[tf.shape(x)[0], {}, filters.shape[-2]], strides={}, padding={}, dilations={})",
                            join(t.output_or(&shape.output)),
                            list(&shape.stride),
                            padding_arg(&t.padding),
                            list(&t.dilation)
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
                    Step::Pool(p) => {
                        let kind = if p.max { "MAX" } else { "AVG" };
                        py.line(format!("x = {}", window(p.window, "x", kind, p.geometry(), &p.padding)));
                    }
                    Step::AverageRatio(average) => {
                        average_prologue(
                            py,
                            "x",
                            "tf.ones_like(x[:1, ..., :1])",
                            &ConstantPad { function: "tf.pad", width: |p| pad_list(p, 1, 1), value: "constant_values" },
                            average,
                        );
                        let sum = |x: &str| window(average.sum.window, x, "AVG", average.sum.geometry(), &TfPad::Valid);
                        py.line(format!("x = {} / {}", sum("x"), sum("mask")));
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
    fn runner(r: &Render<TfPad>) -> Py {
        let n = r.shape().ndim();
        let op = r.op();
        let to_last = data_to_last(n);
        let to_first = data_to_first(n);
        let kernel_axes = kernel_to_last(n);
        r.runner_def(Some("import tensorflow as tf"), |py| {
            py.line(format!(
                "x = tf.constant(np.transpose(x, {}))",
                tuple(&to_last)
            ));
            if op.is_pool() {
                py.line(format!("y = {}(x)", r.name));
            } else {
                py.line(format!(
                    "filters = tf.constant(np.transpose({}, {}))",
                    r.weight_expr("w"),
                    tuple(&kernel_axes)
                ));
                py.line(format!("y = {}(x, filters, tf.constant(b))", r.name));
            }
            py.line(format!(
                "return np.transpose(y.numpy(), {})",
                tuple(&to_first)
            ));
        })
    }
}

/// `tf.nn`'s `padding`: `'VALID'`, `'SAME'`, or explicit `(before, after)` pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TfPad {
    Valid,
    Same,
    Pairs(Vec<(i64, i64)>),
}

impl Spelling for TfPad {
    type Target = Tf;
    fn spell(form: &Native, _: &Shape) -> Option<TfPad> {
        match form {
            Native::Valid => Some(TfPad::Valid),
            Native::Same => Some(TfPad::Same),
            Native::Symmetric(_) | Native::Explicit(_) => form.pairs().map(TfPad::Pairs),
            Native::SameLower | Native::Causal => None,
        }
    }
}

fn padding_arg(padding: &TfPad) -> String {
    match padding {
        TfPad::Valid => "\"VALID\"".into(),
        TfPad::Same => "\"SAME\"".into(),
        TfPad::Pairs(v) => pad_list(v, 1, 1),
    }
}

/// `[1, s, 1]`: a per-dimension list with unit batch and channel entries.
fn full_list(values: &[i64]) -> String {
    let mut v = vec![1];
    v.extend_from_slice(values);
    v.push(1);
    list(&v)
}

/// `tf.pad`, or the named layer's edge or wrap helper (`helper` is its prefix).
fn pad_line(helper: &str, pairs: &[(i64, i64)], fill: Fill) -> String {
    format!(
        "x = {}",
        helper_pad(("tf.pad", "REFLECT"), "x", helper, pairs, fill)
    )
}

/// Window maxima (`MAX`) or averages (`AVG`) of `x`, as the plan's `window` says. Only
/// `tf.nn.pool` takes a dilation.
fn window(
    window: Window,
    x: &str,
    kind: &str,
    (kernel, stride, dilation): WindowGeometry,
    padding: &TfPad,
) -> String {
    let n = kernel.len();
    let pool = |strides: &[i64]| {
        format!(
            "tf.nn.pool({x}, window_shape={}, pooling_type=\"{kind}\", strides={}, padding={}, dilations={})",
            list(kernel),
            list(strides),
            padding_arg(padding),
            list(dilation)
        )
    };
    match window {
        Window::DenseThenStride => {
            let parts: Vec<String> = stride.iter().map(|s| format!("::{s}")).collect();
            format!("{}[:, {}, :]", pool(&vec![1; n]), parts.join(", "))
        }
        _ if dilation.iter().any(|&d| d > 1) => pool(stride),
        _ => {
            let name = if kind == "MAX" { "max" } else { "avg" };
            format!(
                "tf.nn.{name}_pool{n}d({x}, ksize={}, strides={}, padding={})",
                list(kernel),
                list(stride),
                padding_arg(padding)
            )
        }
    }
}
