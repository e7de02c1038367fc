//! ONNX: a one-layer model built with `onnx.helper` (NCHW), runnable with ONNX Runtime.

use crate::core::{Framework, Op};

use super::plan::{Abilities, Fill, Native, Plan, Spelling, Step, Window, WindowSum};
use super::semantics::Shape;
use super::target::{Render, Target};
use super::writer::{
    ConstantPad, Line, Py, answer_lines, average_comment, average_mask, dilated_suffix, join, list,
    nchw_pad_width, onnx_pads, tuple,
};

/// The ONNX renderer.
pub struct Onnx;

impl Target for Onnx {
    type Pad = OnnxPad;
    const CAN: &'static Abilities = &Abilities {
        same_lower: true,
        // ONNX Runtime fuses a Pad into a following AveragePool and then refuses pads >= kernel.
        window: |need| {
            if need.max {
                Window::Pool
            } else {
                Window::OnesConv
            }
        },
        pads_an_average: false,
        ..Abilities::plain(Framework::Onnx)
    };
    /// The porter's lines (`codegen::answer`).
    fn answer(plan: &Plan<OnnxPad>) -> Vec<Line> {
        let shape = &plan.semantics.shape;
        let n = shape.ndim();
        let ones = vec![1; n];
        let attr = |p: &OnnxPad| match p {
            OnnxPad::Valid => String::new(),
            OnnxPad::SameUpper => ", auto_pad='SAME_UPPER'".into(),
            OnnxPad::SameLower => ", auto_pad='SAME_LOWER'".into(),
            OnnxPad::Pads(v) if v.iter().all(|&(b, a)| b == 0 && a == 0) => String::new(),
            OnnxPad::Pads(v) => format!(", pads={}", list(&onnx_pads(v, 0))),
        };
        let geometry = |kernel: &[i64], stride: &[i64], dilation: &[i64]| {
            let mut text = format!("kernel_shape={}", list(kernel));
            if stride != ones.as_slice() {
                text.push_str(&format!(", strides={}", list(stride)));
            }
            if dilation != ones.as_slice() {
                text.push_str(&format!(", dilations={}", list(dilation)));
            }
            text
        };
        answer_lines(&plan.steps, |step| {
            Some(match step {
                Step::Pad { pairs, fill } => format!(
                    "Pad(x, pads={}{})",
                    list(&onnx_pads(pairs, 2)),
                    match fill {
                        Fill::Zero => "",
                        Fill::NegInf => ", constant_value=-inf",
                        Fill::Reflect => ", mode='reflect'",
                        Fill::Replicate => ", mode='edge'",
                        Fill::Circular => ", mode='wrap'",
                    }
                ),
                Step::Crop { pairs } => format!(
                    "Slice(y, starts={}, ends={}, axes={})",
                    list(&pairs.iter().map(|p| p.0).collect::<Vec<_>>()),
                    list(
                        &pairs
                            .iter()
                            .map(|p| if p.1 == 0 { i64::MAX } else { -p.1 })
                            .collect::<Vec<_>>()
                    ),
                    list(&(2..2 + n as i64).collect::<Vec<_>>())
                ),
                Step::Conv(conv) => format!(
                    "Conv({}{}){}",
                    geometry(&conv.kernel, &shape.stride, &conv.dilation),
                    attr(&conv.padding),
                    dilated_suffix(conv.dilated_kernel)
                ),
                Step::ConvTranspose(t) => format!(
                    "ConvTranspose({}{}{}{}){}",
                    geometry(&t.kernel, &shape.stride, &t.dilation),
                    attr(&t.padding),
                    t.output_padding
                        .as_deref()
                        .filter(|o| o.iter().any(|&v| v != 0))
                        .map_or(String::new(), |o| format!(", output_padding={}", list(o))),
                    t.output_size
                        .as_deref()
                        .map_or(String::new(), |o| format!(", output_shape={}", list(o))),
                    dilated_suffix(t.dilated_kernel)
                ),
                Step::Pool(p) if p.window == Window::Pool => format!(
                    "{}({}{}{}{})",
                    if p.max { "MaxPool" } else { "AveragePool" },
                    geometry(&p.kernel, &p.stride, &p.dilation),
                    attr(&p.padding),
                    if p.ceil_mode { ", ceil_mode=1" } else { "" },
                    if !p.max && p.count_include_pad == Some(true) {
                        ", count_include_pad=1"
                    } else {
                        ""
                    }
                ),
                _ => return None,
            })
        })
    }

    /// The model-building function.
    fn layer(r: &Render<OnnxPad>) -> Py {
        let mut py = Py::with_imports(&[
            "import numpy as np",
            "from onnx import TensorProto, helper, numpy_helper",
        ]);
        let shape = r.shape();
        let n = shape.ndim();
        let op = r.op();
        let adds_bias = r.plan.adds_bias();
        if r.plan
            .steps
            .iter()
            .any(|s| matches!(s, Step::AverageRatio { .. }))
        {
            py.block("def window_counts(mask, kernel, stride, dilation)", |py| {
                py.line("\"\"\"Window sums of a (1, 1, *size) array, one strided slice per kernel tap.\"\"\"");
                py.line("size = mask.shape[2:]");
                py.line("out = [(n - (k - 1) * d - 1) // s + 1 for n, k, s, d in zip(size, kernel, stride, dilation)]");
                py.line("total = np.zeros((1, 1, *out), np.float64)");
                py.block("for tap in np.ndindex(*kernel)", |py| {
                    py.line("index = tuple(slice(t * d, t * d + (o - 1) * s + 1, s) for t, d, s, o in zip(tap, dilation, stride, out))");
                    py.line("total += mask[(slice(None), slice(None)) + index]");
                });
                py.line("return total");
            });
            py.blank();
        }
        let args = if op.is_pool() {
            "channels"
        } else {
            "in_channels, out_channels"
        };
        py.block(format!("def {}({args})", r.name), |py| {
            py.line(format!("\"\"\"{} Inputs: x (NCHW){}.\"\"\"", r.docstring(), if op.is_pool() { "" } else { ", w, b" }));
            py.line("nodes, constants = [], []");
            py.block("def constant(name, value)", |py| {
                py.line("constants.append(numpy_helper.from_array(np.asarray(value), name))");
                py.line("return name");
            });
            let mut current = "x".to_string();
            // The size of each spatial dimension as the steps change it (for the constant mask).
            let mut size: Vec<i64> = shape.input.clone();
            // A convolution node's kernel, stride, dilation and padding attributes.
            let conv_attrs = |kernel: &[i64], dilation: &[i64], padding: &OnnxPad| {
                format!(
                    "kernel_shape={}, strides={}, dilations={}, {}",
                    list(kernel),
                    list(&shape.stride),
                    list(dilation),
                    padding_attrs(padding)
                )
            };
            for (i, step) in r.plan.steps.iter().enumerate() {
                let out = format!("t{i}");
                match step {
                    Step::Crop { .. } | Step::Pad { .. } => {
                        // A crop is a Pad with negative amounts.
                        let (signed, fill): (Vec<(i64, i64)>, Fill) = match step {
                            Step::Crop { pairs } => (pairs.iter().map(|&(b, a)| (-b, -a)).collect(), Fill::Zero),
                            Step::Pad { pairs, fill } => (pairs.clone(), *fill),
                            _ => (vec![], Fill::Zero),
                        };
                        for (s, (b, a)) in size.iter_mut().zip(&signed) {
                            *s += b + a;
                        }
                        let full = onnx_pads(&signed, 2);
                        let (mode, value) = match fill {
                            Fill::Zero => ("constant", None),
                            Fill::NegInf => ("constant", Some("-np.inf")),
                            Fill::Reflect => ("reflect", None),
                            Fill::Replicate => ("edge", None),
                            Fill::Circular => ("wrap", None),
                        };
                        let value_input = value.map_or(String::new(), |v| format!(", constant(\"v{i}\", np.float32({v}))"));
                        py.line(format!(
                            "nodes.append(helper.make_node(\"Pad\", [\"{current}\", constant(\"p{i}\", np.array({}, np.int64)){value_input}], [\"{out}\"], mode=\"{mode}\"))",
                            list(&full)
                        ));
                    }
                    Step::Conv(conv) => {
                        let attrs = conv_attrs(&conv.kernel, &conv.dilation, &conv.padding);
                        py.line(format!(
                            "nodes.append(helper.make_node(\"Conv\", [\"{current}\", \"w\", \"b\"], [\"{out}\"], {attrs}))"
                        ));
                    }
                    Step::ConvTranspose(t) => {
                        let mut attrs = conv_attrs(&t.kernel, &t.dilation, &t.padding);
                        if let Some(op) = &t.output_padding {
                            attrs.push_str(&format!(", output_padding={}", list(op)));
                        }
                        if let Some(o) = &t.output_size {
                            attrs.push_str(&format!(", output_shape={}", list(o)));
                        }
                        let inputs = if adds_bias { format!("\"{current}\", \"w\"") } else { format!("\"{current}\", \"w\", \"b\"") };
                        py.line(format!("nodes.append(helper.make_node(\"ConvTranspose\", [{inputs}], [\"{out}\"], {attrs}))"));
                    }
                    Step::EmptyWindows { .. } => {
                        py.comment("Windows with no input element hold the lowest float here; the source gives -inf.");
                        py.line(format!(
                            "nodes.append(helper.make_node(\"Equal\", [\"{current}\", constant(\"lo{i}\", np.float32(np.finfo(np.float32).min))], [\"e{i}\"]))"
                        ));
                        py.line(format!(
                            "nodes.append(helper.make_node(\"Where\", [\"e{i}\", constant(\"ninf{i}\", np.float32(-np.inf)), \"{current}\"], [\"{out}\"]))"
                        ));
                    }
                    Step::AddBias => {
                        let unit: Vec<i64> = std::iter::once(1).chain(std::iter::once(-1)).chain(std::iter::repeat_n(1, n)).collect();
                        py.line(format!(
                            "nodes.append(helper.make_node(\"Reshape\", [\"b\", constant(\"s{i}\", np.array({}, np.int64))], [\"b{i}\"]))",
                            list(&unit)
                        ));
                        py.line(format!("nodes.append(helper.make_node(\"Add\", [\"{current}\", \"b{i}\"], [\"{out}\"]))"));
                    }
                    Step::Pool(p) => {
                        let mut attrs = format!(
                            "kernel_shape={}, strides={}, dilations={}, ceil_mode={}, {}",
                            list(&p.kernel),
                            list(&p.stride),
                            list(&p.dilation),
                            i64::from(p.ceil_mode),
                            padding_attrs(&p.padding)
                        );
                        if !p.max {
                            attrs.push_str(&format!(", count_include_pad={}", i64::from(p.count_include_pad.unwrap_or(false))));
                        }
                        let kind = if p.max { "MaxPool" } else { "AveragePool" };
                        py.line(format!("nodes.append(helper.make_node(\"{kind}\", [\"{current}\"], [\"{out}\"], {attrs}))"));
                    }
                    // The plan sums windows with a ones convolution here (Window::OnesConv).
                    Step::AverageRatio(average) => {
                        let padded = &average.padded();
                        let WindowSum { kernel, stride, dilation, .. } = &average.sum;
                        let channels = if op.is_pool() { "channels" } else { "out_channels" };
                        py.comment(average_comment(average.include_pad));
                        let ones = format!("np.ones((1, 1, {}), np.float32)", join(&size));
                        let numpy_pad = ConstantPad { function: "np.pad", width: nchw_pad_width, value: "constant_values" };
                        let mask = average_mask(&numpy_pad, &ones, average);
                        let full = onnx_pads(padded, 2);
                        py.line(format!(
                            "nodes.append(helper.make_node(\"Pad\", [\"{current}\", constant(\"p{i}\", np.array({}, np.int64))], [\"x{i}\"]))",
                            list(&full)
                        ));
                        // Window sums as a depthwise convolution with ones: ONNX Runtime fuses a Pad
                        // into a following AveragePool and then refuses padded >= kernel.
                        py.line(format!(
                            "ones = constant(\"k{i}\", np.ones(({channels}, 1, {}), np.float32))",
                            join(kernel)
                        ));
                        py.line(format!(
                            "nodes.append(helper.make_node(\"Conv\", [\"x{i}\", ones], [\"s{i}\"], kernel_shape={}, strides={}, dilations={}, group={channels}))",
                            list(kernel),
                            list(stride),
                            list(dilation)
                        ));
                        // The divisor is static: count it here.
                        py.line(format!(
                            "scale = 1.0 / window_counts({mask}, {}, {}, {})",
                            tuple(kernel),
                            tuple(stride),
                            tuple(dilation)
                        ));
                        py.line(format!(
                            "nodes.append(helper.make_node(\"Mul\", [\"s{i}\", constant(\"c{i}\", scale.astype(np.float32))], [\"{out}\"]))"
                        ));
                    }
                }
                current = out;
            }
            let channels_in = if op.is_pool() { "channels" } else { "in_channels" };
            py.line(format!(
                "inputs = [helper.make_tensor_value_info(\"x\", TensorProto.FLOAT, [\"N\", {channels_in}, {}])]",
                join(&shape.input)
            ));
            if !op.is_pool() {
                let (wo, wi) = if op == Op::ConvTranspose { ("in_channels", "out_channels") } else { ("out_channels", "in_channels") };
                let kernel = join(&r.weight_kernel());
                py.line(format!("inputs.append(helper.make_tensor_value_info(\"w\", TensorProto.FLOAT, [{wo}, {wi}, {kernel}]))"));
                py.line("inputs.append(helper.make_tensor_value_info(\"b\", TensorProto.FLOAT, [out_channels]))");
            }
            py.line("nodes[-1].output[0] = \"y\"");
            py.line("outputs = [helper.make_tensor_value_info(\"y\", TensorProto.FLOAT, None)]");
            py.line(format!("graph = helper.make_graph(nodes, \"{}\", inputs, outputs, initializer=constants)", r.name));
            py.line("model = helper.make_model(graph, opset_imports=[helper.make_opsetid(\"\", 21)])");
            py.line("model.ir_version = 10");
            py.line("return model");
        });
        py
    }

    /// `def run_<name>(x, w, b)`: NCHW numpy in and out, torch-layout weights.
    fn runner(r: &Render<OnnxPad>) -> Py {
        let op = r.op();
        r.runner_def(Some("import onnxruntime as ort"), |py| {
            if op.is_pool() {
                py.line(format!("model = {}(x.shape[1])", r.name));
                py.line("feeds = {\"x\": x}");
            } else {
                let (cin, cout) = if op == Op::ConvTranspose { ("w.shape[0]", "w.shape[1]") } else { ("w.shape[1]", "w.shape[0]") };
                py.line(format!("model = {}({cin}, {cout})", r.name));
                py.line(format!("feeds = {{\"x\": x, \"w\": np.ascontiguousarray({}), \"b\": b}}", r.weight_expr("w")));
            }
            py.line("session = ort.InferenceSession(model.SerializeToString(), providers=[\"CPUExecutionProvider\"])");
            py.line("return session.run(None, feeds)[0]");
        })
    }
}

/// ONNX's padding attributes: `auto_pad` (`VALID`, `SAME_UPPER`, `SAME_LOWER`) or `pads`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnnxPad {
    Valid,
    SameUpper,
    SameLower,
    Pads(Vec<(i64, i64)>),
}

impl Spelling for OnnxPad {
    type Target = Onnx;
    fn spell(form: &Native, _: &Shape) -> Option<OnnxPad> {
        match form {
            Native::Valid => Some(OnnxPad::Valid),
            Native::Same => Some(OnnxPad::SameUpper),
            Native::SameLower => Some(OnnxPad::SameLower),
            Native::Symmetric(_) | Native::Explicit(_) => form.pairs().map(OnnxPad::Pads),
            Native::Causal => None,
        }
    }
}

fn padding_attrs(padding: &OnnxPad) -> String {
    match padding {
        OnnxPad::Valid => "auto_pad=\"VALID\"".into(),
        OnnxPad::SameUpper => "auto_pad=\"SAME_UPPER\"".into(),
        OnnxPad::SameLower => "auto_pad=\"SAME_LOWER\"".into(),
        OnnxPad::Pads(v) => format!("pads={}", list(&onnx_pads(v, 0))),
    }
}
