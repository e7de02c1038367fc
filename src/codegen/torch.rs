//! PyTorch: an `nn.Module` (or a function over `torch.nn.functional`), NCHW.

use crate::core::{Framework, Op, PaddingMode};

use super::plan::{
    Abilities, ConvStep, Fill, Native, Plan, PoolStep, Spelling, Step, TransposeStep, Window,
    WindowGeometry, WindowNeed,
};
use super::semantics::Shape;
use super::target::{Render, Target};
pub(crate) use super::writer::class_name;
use super::writer::{
    ConstantPad, Line, Py, answer_lines, args, average_prologue, crop_slices, dilated_suffix, join,
    padding_default, short, torch_pad_tuple, tuple,
};

/// The PyTorch renderer.
pub struct Torch;

impl Target for Torch {
    type Pad = TorchPad;
    const CAN: &'static Abilities = &Abilities {
        export_safe: true,
        window: |need| match need {
            // torch has no dilated average; export keeps strided slices exact, not a conv whose
            // ones kernel is made at run time.
            WindowNeed {
                max: false,
                dilated: true,
                export_safe: true,
                ..
            } => Window::Taps,
            WindowNeed {
                max: false,
                dilated: true,
                ..
            } => Window::OnesConv,
            _ => Window::Pool,
        },
        sizes_transposed_output: true,
        ..Abilities::plain(Framework::Torch)
    };
    /// The porter's lines (`codegen::answer`).
    fn answer(plan: &Plan<TorchPad>) -> Vec<Line> {
        let shape = &plan.semantics.shape;
        let n = shape.ndim();
        let pad = |p: &TorchPad| ("padding", padding_value(p), padding_default(plan, "0"));
        answer_lines(&plan.steps, |step| {
            Some(match step {
                Step::Pad { pairs, fill } => format!("x = {}", pad_call("x", pairs, *fill)),
                Step::Crop { pairs } => format!("x = x[{}]", crop_slices(pairs, 2, 0)),
                Step::Conv(conv) => format!(
                    "nn.Conv{n}d(C_in, C_out, {}{}){}",
                    short(&conv.kernel),
                    args(&[
                        ("stride", short(&shape.stride), "1"),
                        pad(&conv.padding),
                        ("dilation", short(&conv.dilation), "1"),
                        (
                            "padding_mode",
                            format!("'{}'", mode_name(conv.padding_mode)),
                            "'zeros'"
                        ),
                    ]),
                    dilated_suffix(conv.dilated_kernel)
                ),
                Step::ConvTranspose(t) => {
                    let layer = format!(
                        "nn.ConvTranspose{n}d(C_in, C_out, {}{}){}",
                        short(&t.kernel),
                        args(&[
                            ("stride", short(&shape.stride), "1"),
                            pad(&t.padding),
                            (
                                "output_padding",
                                short(t.output_padding.as_deref().unwrap_or(&[0])),
                                "0"
                            ),
                            ("dilation", short(&t.dilation), "1"),
                        ]),
                        dilated_suffix(t.dilated_kernel)
                    );
                    match &t.output_size {
                        Some(o) => format!(
                            "{layer}  # called as conv(x, output_size={})",
                            super::writer::list(o)
                        ),
                        None => layer,
                    }
                }
                Step::Pool(p) if p.window == Window::Pool => pool_module(p, pad(&p.padding)),
                _ => return None,
            })
        })
    }

    /// The layer definition.
    fn layer(r: &Render<TorchPad>) -> Py {
        let mut py = Py::with_imports(&[
            "import torch",
            "import torch.nn as nn",
            "import torch.nn.functional as F",
        ]);
        let taps = r.plan.steps.iter().any(
            |s| matches!(s, Step::AverageRatio(average) if average.sum.window == Window::Taps),
        );
        if taps {
            py.import("import itertools");
            for line in WINDOW_SUM_TAPS.lines() {
                py.line(line);
            }
            py.blank();
        }
        let shape = r.shape();
        let n = shape.ndim();
        let op = r.op();
        let conv_step = r.plan.steps.iter().find(|s| {
            matches!(
                s,
                Step::Conv { .. } | Step::ConvTranspose { .. } | Step::Pool { .. }
            )
        });
        let adds_bias = r.plan.adds_bias();
        if r.functional {
            let args = if op.is_pool() {
                "x".to_string()
            } else {
                "x, weight, bias=None".to_string()
            };
            py.block(format!("def {}({args})", r.name), |py| {
                py.line(format!("\"\"\"{}\"\"\"", r.docstring()));
                forward_lines(r, py, &|step| functional_call(r, step, adds_bias));
            });
            return py;
        }
        let class = class_name(r.name);
        py.block(format!("class {class}(nn.Module)"), |py| {
            py.line(format!("\"\"\"{}\"\"\"", r.docstring()));
            py.blank();
            let init_args = if op.is_pool() { "self" } else { "self, in_channels, out_channels, bias=True" };
            py.block(format!("def __init__({init_args})"), |py| {
                py.line("super().__init__()");
                match conv_step {
                    Some(Step::Conv(conv)) => {
                        let mode = if conv.padding_mode == PaddingMode::Zeros {
                            String::new()
                        } else {
                            format!(", padding_mode=\"{}\"", mode_name(conv.padding_mode))
                        };
                        py.line(format!(
                            "self.conv = nn.Conv{n}d(in_channels, out_channels, kernel_size={}, stride={}, padding={}, dilation={}, bias=bias{mode})",
                            tuple(&conv.kernel),
                            tuple(&shape.stride),
                            native_arg(&conv.padding),
                            tuple(&conv.dilation)
                        ));
                    }
                    Some(Step::ConvTranspose(t)) => {
                        let op = t.output_padding.clone().unwrap_or_else(|| vec![0; n]);
                        py.line(format!(
                            "self.conv = nn.ConvTranspose{n}d(in_channels, out_channels, kernel_size={}, stride={}, padding={}, output_padding={}, dilation={}, bias={})",
                            tuple(&t.kernel),
                            tuple(&shape.stride),
                            native_arg(&t.padding),
                            tuple(&op),
                            tuple(&t.dilation),
                            if adds_bias { "False" } else { "bias" }
                        ));
                        if adds_bias {
                            py.comment("The bias is added after the zero-extension, as the source adds it to every output element.");
                            py.line("self.bias = nn.Parameter(torch.zeros(out_channels)) if bias else None");
                        }
                    }
                    Some(Step::Pool(p)) if p.max => {
                        py.line(format!(
                            "self.pool = nn.MaxPool{n}d(kernel_size={}, stride={}, padding={}, dilation={}, ceil_mode={})",
                            tuple(&p.kernel),
                            tuple(&p.stride),
                            native_arg(&p.padding),
                            tuple(&p.dilation),
                            py_bool(p.ceil_mode)
                        ));
                    }
                    Some(Step::Pool(p)) => {
                        py.line(format!(
                            "self.pool = nn.AvgPool{n}d(kernel_size={}, stride={}, padding={}, ceil_mode={}, count_include_pad={})",
                            tuple(&p.kernel),
                            tuple(&p.stride),
                            native_arg(&p.padding),
                            py_bool(p.ceil_mode),
                            py_bool(p.count_include_pad.unwrap_or(true))
                        ));
                    }
                    _ => {}
                }
            });
            py.blank();
            py.block("def forward(self, x)", |py| {
                forward_lines(r, py, &|step| match step {
                    Step::ConvTranspose(TransposeStep { output_size: Some(o), .. }) => {
                        format!("self.conv(x, output_size={})", super::writer::list(o))
                    }
                    Step::Pool { .. } => "self.pool(x)".into(),
                    _ => "self.conv(x)".into(),
                });
            });
        });
        py
    }

    /// `def run_<name>(x, w, b)`: NCHW numpy in and out, torch-layout weights.
    fn runner(r: &Render<TorchPad>) -> Py {
        let op = r.op();
        let adds_bias = r.plan.adds_bias();
        r.runner_def(Some("import torch"), |py| {
            py.line("x = torch.from_numpy(x)");
            if op.is_pool() {
                let call = if r.functional {
                    format!("{}(x)", r.name)
                } else {
                    format!("{}()(x)", class_name(r.name))
                };
                py.line(format!("return {call}.numpy()"));
                return;
            }
            py.line(format!("w = torch.from_numpy({})", r.weight_expr("w")));
            py.line("b = torch.from_numpy(b)");
            py.block("with torch.no_grad()", |py| {
                if r.functional {
                    py.line(format!("return {}(x, w, b).numpy()", r.name));
                } else {
                    let (cin, cout) = if op == Op::ConvTranspose {
                        ("w.shape[0]", "w.shape[1]")
                    } else {
                        ("w.shape[1]", "w.shape[0]")
                    };
                    py.line(format!("layer = {}({cin}, {cout})", class_name(r.name)));
                    py.line("layer.conv.weight.copy_(w)");
                    py.line(if adds_bias {
                        "layer.bias.copy_(b)"
                    } else {
                        "layer.conv.bias.copy_(b)"
                    });
                    py.line("return layer(x).numpy()");
                }
            });
        })
    }
}

/// torch's `padding` argument: `0`, `'same'`, or one symmetric amount per dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TorchPad {
    Zero,
    Same,
    Ints(Vec<i64>),
}

impl Spelling for TorchPad {
    type Target = Torch;
    fn spell(form: &Native, _: &Shape) -> Option<TorchPad> {
        match form {
            Native::Valid => Some(TorchPad::Zero),
            Native::Same => Some(TorchPad::Same),
            Native::Symmetric(v) => Some(TorchPad::Ints(v.clone())),
            Native::Explicit(v) if v.iter().all(|(b, a)| b == a) => {
                Some(TorchPad::Ints(v.iter().map(|&(b, _)| b).collect()))
            }
            Native::Explicit(_) | Native::SameLower | Native::Causal => None,
        }
    }
}

fn pad_call(x: &str, pairs: &[(i64, i64)], fill: Fill) -> String {
    let pads = torch_pad_tuple(pairs);
    match fill {
        Fill::Zero => format!("F.pad({x}, {pads})"),
        Fill::NegInf => format!("F.pad({x}, {pads}, value=float(\"-inf\"))"),
        Fill::Reflect => format!("F.pad({x}, {pads}, mode=\"reflect\")"),
        Fill::Replicate => format!("F.pad({x}, {pads}, mode=\"replicate\")"),
        Fill::Circular => format!("F.pad({x}, {pads}, mode=\"circular\")"),
    }
}

/// The `nn` module that pads `pairs` with `fill` (`nn.ZeroPad2d`, `nn.ReplicationPad1d`, ...).
pub(crate) fn pad_module(pairs: &[(i64, i64)], fill: Fill) -> String {
    let n = pairs.len();
    let t = torch_pad_tuple(pairs);
    match fill {
        Fill::Zero => format!("nn.ZeroPad{n}d({t})"),
        Fill::NegInf => format!("nn.ConstantPad{n}d({t}, float(\"-inf\"))"),
        Fill::Reflect => format!("nn.ReflectionPad{n}d({t})"),
        Fill::Replicate => format!("nn.ReplicationPad{n}d({t})"),
        Fill::Circular => format!("nn.CircularPad{n}d({t})"),
    }
}

fn native_arg(padding: &TorchPad) -> String {
    match padding {
        TorchPad::Zero => "0".into(),
        TorchPad::Same => "\"same\"".into(),
        TorchPad::Ints(v) => tuple(v),
    }
}

/// A `padding` argument's value: `0`, `"same"`, or the pads (one number where they agree).
pub(crate) fn padding_value(padding: &TorchPad) -> String {
    match padding {
        TorchPad::Zero => "0".into(),
        TorchPad::Same => "\"same\"".into(),
        TorchPad::Ints(v) => short(v),
    }
}

/// The `nn` module of a pooling step (`nn.MaxPool2d(3, stride=2)`), arguments at their
/// defaults left out; `padding` is the padding argument as `(name, value, default)`.
pub(crate) fn pool_module(p: &PoolStep<TorchPad>, padding: (&str, String, &str)) -> String {
    let n = p.kernel.len();
    let k = short(&p.kernel);
    format!(
        "nn.{}Pool{n}d({k}{})",
        if p.max { "Max" } else { "Avg" },
        args(&[
            ("stride", short(&p.stride), &k),
            padding,
            (
                "dilation",
                if p.max {
                    short(&p.dilation)
                } else {
                    "1".into()
                },
                "1"
            ),
            ("ceil_mode", py_bool(p.ceil_mode).into(), "False"),
            (
                "count_include_pad",
                py_bool(p.count_include_pad.unwrap_or(true)).into(),
                "True"
            ),
        ])
    )
}

fn mode_name(mode: PaddingMode) -> &'static str {
    match mode {
        PaddingMode::Zeros => "zeros",
        PaddingMode::Reflect => "reflect",
        PaddingMode::Replicate => "replicate",
        PaddingMode::Circular => "circular",
    }
}

/// Lines that turn `x` into the output; `layer` is how the main layer is called.
fn forward_lines(
    r: &Render<TorchPad>,
    py: &mut Py,
    layer_call: &dyn Fn(&Step<TorchPad>) -> String,
) {
    let n = r.shape().ndim();
    let unit = vec!["1"; n].join(", ");
    for step in &r.plan.steps {
        match step {
            Step::Crop { pairs } => {
                let negative: Vec<(i64, i64)> = pairs.iter().map(|&(b, a)| (-b, -a)).collect();
                py.line(format!(
                    "x = {}  # negative pads crop",
                    pad_call("x", &negative, Fill::Zero)
                ));
            }
            Step::Pad { pairs, fill } => {
                py.line(format!("x = {}", pad_call("x", pairs, *fill)));
            }
            Step::EmptyWindows { to_neg_inf: false } => {
                py.comment("A window with no input element: the source gives the lowest float, torch -inf.");
                py.line("x = x.masked_fill(x == float(\"-inf\"), torch.finfo(x.dtype).min)");
            }
            Step::EmptyWindows { to_neg_inf: true } => {
                py.comment("A window with no input element: the source gives -inf; exported to ONNX, the pool gives the lowest float.");
                py.line("x = x.masked_fill(x == torch.finfo(x.dtype).min, float(\"-inf\"))");
            }
            Step::AddBias => {
                let bias = if r.functional { "bias" } else { "self.bias" };
                py.line(format!(
                    "x = x if {bias} is None else x + {bias}.view(1, -1, {unit})"
                ));
            }
            Step::AverageRatio(average) => {
                average_prologue(
                    py,
                    "x",
                    "torch.ones_like(x[:1, :1])",
                    &ConstantPad {
                        function: "F.pad",
                        width: torch_pad_tuple,
                        value: "value",
                    },
                    average,
                );
                let sum = |x: &str, per_channel: bool| {
                    window_sum(average.sum.window, x, average.sum.geometry(), per_channel)
                };
                py.line(format!("x = {} / {}", sum("x", true), sum("mask", false)));
            }
            main => {
                py.line(format!("x = {}", layer_call(main)));
            }
        }
    }
    py.line("return x");
}

/// Sum over each window, as the plan's `window` says (an average pool stands for the sum: the
/// numerator and the mask divide by the same window size, so their ratio is the ratio of sums).
fn window_sum(
    window: Window,
    x: &str,
    (k, stride, d): WindowGeometry,
    per_channel: bool,
) -> String {
    let n = k.len();
    match window {
        Window::Pool | Window::DenseThenStride => {
            format!("F.avg_pool{n}d({x}, {}, {})", tuple(k), tuple(stride))
        }
        Window::Taps => format!(
            "window_sum({x}, {}, {}, {})",
            tuple(k),
            tuple(stride),
            tuple(d)
        ),
        Window::OnesConv => {
            let channels = if per_channel {
                format!("{x}.shape[1]")
            } else {
                "1".into()
            };
            format!(
                "F.conv{n}d({x}, {x}.new_ones({channels}, 1, {}), stride={}, dilation={}, groups={channels})",
                join(k),
                tuple(stride),
                tuple(d)
            )
        }
    }
}

/// For export-safe code: a dilated window sum as one strided slice per kernel tap. ONNX export
/// refuses the grouped convolution with a ones kernel made at run time that eager code uses.
const WINDOW_SUM_TAPS: &str = "def window_sum(t, kernel, stride, dilation):
    \"\"\"Sum over each dilated window: one strided slice per kernel tap (exports to ONNX).\"\"\"
    out = [(size - (k - 1) * d - 1) // s + 1 for size, k, s, d in zip(t.shape[2:], kernel, stride, dilation)]
    total = 0
    for tap in itertools.product(*(range(k) for k in kernel)):
        index = tuple(slice(i * d, i * d + (o - 1) * s + 1, s) for i, o, s, d in zip(tap, out, stride, dilation))
        total = total + t[(slice(None), slice(None)) + index]
    return total";

fn functional_call(r: &Render<TorchPad>, step: &Step<TorchPad>, adds_bias: bool) -> String {
    let shape = r.shape();
    let n = shape.ndim();
    let bias = if adds_bias { "None" } else { "bias" };
    match step {
        Step::Conv(ConvStep {
            padding,
            dilation,
            padding_mode,
            ..
        }) => {
            // F.convNd has no padding_mode: a non-zero mode is an F.pad before it.
            let (pre, pad_arg) = match (padding_mode, padding) {
                (PaddingMode::Zeros, p) => (String::from("x"), native_arg(p)),
                (mode, TorchPad::Ints(v)) => {
                    let pairs: Vec<(i64, i64)> = v.iter().map(|&p| (p, p)).collect();
                    (pad_call("x", &pairs, Fill::of_mode(*mode)), "0".into())
                }
                (_, p) => (String::from("x"), native_arg(p)),
            };
            format!(
                "F.conv{n}d({pre}, weight, {bias}, stride={}, padding={pad_arg}, dilation={})",
                tuple(&shape.stride),
                tuple(dilation)
            )
        }
        Step::ConvTranspose(TransposeStep {
            padding,
            dilation,
            size_padding,
            ..
        }) => {
            format!(
                "F.conv_transpose{n}d(x, weight, {bias}, stride={}, padding={}, output_padding={}, dilation={})",
                tuple(&shape.stride),
                native_arg(padding),
                tuple(size_padding),
                tuple(dilation)
            )
        }
        Step::Pool(p) if p.max => format!(
            "F.max_pool{n}d(x, {}, {}, {}, {}, ceil_mode={})",
            tuple(&p.kernel),
            tuple(&p.stride),
            native_arg(&p.padding),
            tuple(&p.dilation),
            py_bool(p.ceil_mode)
        ),
        Step::Pool(p) => format!(
            "F.avg_pool{n}d(x, {}, {}, {}, ceil_mode={}, count_include_pad={})",
            tuple(&p.kernel),
            tuple(&p.stride),
            native_arg(&p.padding),
            py_bool(p.ceil_mode),
            py_bool(p.count_include_pad.unwrap_or(true))
        ),
        _ => "x".into(),
    }
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}
