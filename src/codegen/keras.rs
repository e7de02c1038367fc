//! Keras 3: a `keras.Sequential` of layers, channels last (NHWC).

use crate::core::{Backend, Framework, Op};

use super::layout::{data_to_first, data_to_last, kernel_to_last};
use super::plan::{Abilities, Fill, Native, Plan, Spelling, Step, Window};
use super::semantics::Shape;
use super::target::{Render, Target};
use super::writer::{
    ConstantPad, Line, Py, answer_lines, args, average_prologue, dilated_suffix, fill_helpers,
    helper_note, helper_pad, pad_list, padding_default, pair_tuples, short, tuple,
};

/// The Keras renderer.
pub struct Keras;

impl Target for Keras {
    type Pad = KerasPad;
    const CAN: &'static Abilities = &Abilities {
        refuses_strided_dilation: true,
        // Keras has no dilated pooling layer.
        window: |need| {
            if need.dilated {
                Window::Taps
            } else {
                Window::Pool
            }
        },
        backends: &[Backend::Tensorflow, Backend::Torch, Backend::Jax],
        ..Abilities::plain(Framework::Keras)
    };
    /// The porter's lines (`codegen::answer`).
    fn answer(plan: &Plan<KerasPad>) -> Vec<Line> {
        let shape = &plan.semantics.shape;
        let n = shape.ndim();
        let pad = |p: &KerasPad| {
            let default = padding_default(plan, "'valid'");
            ("padding", format!("'{}'", keyword(p)), default)
        };
        answer_lines(&plan.steps, |step| {
            Some(match step {
                Step::Pad {
                    pairs,
                    fill: Fill::Zero,
                } => {
                    format!("layers.ZeroPadding{n}D({})", pair_tuples(pairs))
                }
                Step::Pad { pairs, fill } => {
                    format!(
                        "layers.Lambda(lambda t: {}){}",
                        ops_pad("", pairs, *fill),
                        helper_note(*fill)
                    )
                }
                Step::Crop { pairs } => format!("layers.Cropping{n}D({})", pair_tuples(pairs)),
                Step::Conv(conv) => format!(
                    "layers.Conv{n}D(C_out, {}{}){}",
                    short(&conv.kernel),
                    args(&[
                        ("strides", short(&shape.stride), "1"),
                        pad(&conv.padding),
                        ("dilation_rate", short(&conv.dilation), "1"),
                    ]),
                    dilated_suffix(conv.dilated_kernel)
                ),
                // Keras sizes a transposed output itself: `output_size` is for other targets.
                Step::ConvTranspose(t) => format!(
                    "layers.Conv{n}DTranspose(C_out, {}{}){}",
                    short(&t.kernel),
                    args(&[
                        ("strides", short(&shape.stride), "1"),
                        pad(&t.padding),
                        (
                            "output_padding",
                            t.output_padding.as_deref().map_or("None".into(), short),
                            "None"
                        ),
                        ("dilation_rate", short(&t.dilation), "1"),
                    ]),
                    dilated_suffix(t.dilated_kernel)
                ),
                Step::Pool(p) if p.window == Window::Pool => {
                    let k = short(&p.kernel);
                    format!(
                        "layers.{}Pooling{n}D({k}{})",
                        if p.max { "Max" } else { "Average" },
                        args(&[("strides", short(&p.stride), &k), pad(&p.padding)])
                    )
                }
                _ => return None,
            })
        })
    }

    /// The layer definition: `def name(filters)` returning a `keras.Sequential`.
    fn layer(r: &Render<KerasPad>) -> Py {
        let mut py = Py::with_imports(&["import keras"]);
        let shape = r.shape();
        let n = shape.ndim();
        let op = r.op();
        // Helper functions carry the layer's name where several layers share a file (a ported
        // model, a check script's source layer): their definitions differ from layer to layer.
        let helper = r.helper_prefix();
        let add_bias = r.helper_class("AddBias");
        let adds_bias = r.plan.adds_bias();
        if adds_bias {
            py.block(format!("class {add_bias}(keras.layers.Layer)"), |py| {
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
        let fills: Vec<Fill> = r.plan.fills().collect();
        fill_helpers(
            &mut py,
            &fills,
            &helper,
            "t",
            (
                "Pads by repeating the edge element (torch 'replicate').",
                &[
                    "first = keras.ops.take(t, [0], axis=axis)",
                    "last = keras.ops.take(t, [t.shape[axis] - 1], axis=axis)",
                    "parts = [keras.ops.repeat(first, before, axis=axis), t, keras.ops.repeat(last, after, axis=axis)]",
                    "t = keras.ops.concatenate(parts, axis=axis)",
                ],
            ),
            (
                "Pads by wrapping around (torch 'circular').",
                &[
                    "size = t.shape[axis]",
                    "parts = [keras.ops.take(t, keras.ops.arange(size - before, size), axis=axis), t, keras.ops.take(t, keras.ops.arange(after), axis=axis)]",
                    "t = keras.ops.concatenate(parts, axis=axis)",
                ],
            ),
        );
        // Helpers used by Lambda layers.
        for (i, step) in r.plan.steps.iter().enumerate() {
            match step {
                Step::Pool(p) if p.window == Window::Taps => {
                    taps_function(
                        &mut py,
                        &format!("{helper}window_{}_{i}", if p.max { "max" } else { "sum" }),
                        p.geometry(),
                        p.max,
                    );
                    py.blank();
                }
                Step::AverageRatio(average) => {
                    let taps = average.sum.window == Window::Taps;
                    if taps {
                        taps_function(
                            &mut py,
                            &format!("{helper}window_sum_{i}"),
                            average.sum.geometry(),
                            false,
                        );
                        py.blank();
                    }
                    py.block(format!("def {helper}average_{i}(t)"), |py| {
                        average_prologue(
                            py,
                            "t",
                            "keras.ops.ones_like(t[:1, ..., :1])",
                            &ConstantPad { function: "keras.ops.pad", width: |p| pad_list(p, 1, 1), value: "constant_values" },
                            average,
                        );
                        if taps {
                            py.line(format!("return {helper}window_sum_{i}(t) / {helper}window_sum_{i}(mask)"));
                        } else {
                            py.line(format!(
                                "return keras.ops.average_pool(t, {k}, {s}, \"valid\") / keras.ops.average_pool(mask, {k}, {s}, \"valid\")",
                                k = tuple(&average.sum.kernel),
                                s = tuple(&average.sum.stride)
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
                    Step::Pad { pairs, fill } => format!("keras.layers.Lambda(lambda t: {})", ops_pad(&helper, pairs, *fill)),
                    Step::Conv(conv) => format!(
                        "keras.layers.Conv{n}D(filters, {}, strides={}, padding=\"{}\", dilation_rate={}, name=\"conv\")",
                        tuple(&conv.kernel),
                        tuple(&shape.stride),
                        keyword(&conv.padding),
                        tuple(&conv.dilation)
                    ),
                    Step::ConvTranspose(t) => format!(
                        "keras.layers.Conv{n}DTranspose(filters, {}, strides={}, padding=\"{}\", output_padding={}, dilation_rate={}, use_bias={}, name=\"conv\")",
                        tuple(&t.kernel),
                        tuple(&shape.stride),
                        keyword(&t.padding),
                        t.output_padding.as_ref().map_or("None".into(), |v| tuple(v)),
                        tuple(&t.dilation),
                        if adds_bias { "False" } else { "True" }
                    ),
                    Step::AddBias => format!("{add_bias}(name=\"bias\")"),
                    Step::Pool(p) if p.window == Window::Taps => {
                        format!("keras.layers.Lambda({helper}window_{}_{i})", if p.max { "max" } else { "sum" })
                    }
                    Step::Pool(p) => format!(
                        "keras.layers.{}Pooling{n}D(pool_size={}, strides={}, padding=\"{}\")",
                        if p.max { "Max" } else { "Average" },
                        tuple(&p.kernel),
                        tuple(&p.stride),
                        keyword(&p.padding)
                    ),
                    Step::AverageRatio { .. } => format!("keras.layers.Lambda({helper}average_{i})"),
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
    fn runner(r: &Render<KerasPad>) -> Py {
        let n = r.shape().ndim();
        let op = r.op();
        let to_last = data_to_last(n);
        let to_first = data_to_first(n);
        let kernel_axes = kernel_to_last(n);
        let adds_bias = r.plan.adds_bias();
        r.runner_def(None, |py| {
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
                "return np.transpose(keras.ops.convert_to_numpy(model(x)), {})",
                tuple(&to_first)
            ));
        })
    }
}

/// Keras's `padding` argument: `'valid'`, `'same'` or `'causal'` (Conv1D); no numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KerasPad {
    Valid,
    Same,
    Causal,
}

impl Spelling for KerasPad {
    type Target = Keras;
    fn spell(form: &Native, _: &Shape) -> Option<KerasPad> {
        match form {
            Native::Valid => Some(KerasPad::Valid),
            Native::Same => Some(KerasPad::Same),
            Native::Causal => Some(KerasPad::Causal),
            Native::SameLower | Native::Symmetric(_) | Native::Explicit(_) => None,
        }
    }
}

fn keyword(padding: &KerasPad) -> &'static str {
    match padding {
        KerasPad::Valid => "valid",
        KerasPad::Same => "same",
        KerasPad::Causal => "causal",
    }
}

/// `keras.ops.pad`, or the named layer's edge or wrap helper (`helper` is its prefix):
/// keras.ops.pad on TensorFlow has no "edge" or "wrap".
fn ops_pad(helper: &str, pairs: &[(i64, i64)], fill: Fill) -> String {
    helper_pad(("keras.ops.pad", "reflect"), "t", helper, pairs, fill)
}

/// Window reduction by taps: exact for any dilation (Keras pooling has none).
fn taps_function(
    py: &mut Py,
    name: &str,
    (kernel, stride, dilation): (&[i64], &[i64], &[i64]),
    max: bool,
) {
    let n = kernel.len();
    py.block(format!("def {name}(t)"), |py| {
        py.comment(
            "One strided slice per kernel tap, combined: a dilated window without a dilated pool.",
        );
        py.line("out = None");
        let mut header = Vec::new();
        for (a, k) in kernel.iter().enumerate() {
            header.push(format!("for i{a} in range({k})"));
        }
        let slices: Vec<String> = (0..n)
            .map(|a| {
                let (d, s) = (dilation[a], stride[a]);
                format!(
                    "i{a} * {d} : i{a} * {d} + (t.shape[{}] - {}) // {s} * {s} + 1 : {s}",
                    a + 1,
                    (kernel[a] - 1) * d + 1
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
