//! ONNX: a one-layer model built with `onnx.helper` (NCHW), runnable with ONNX Runtime.

use crate::core::Op;

use super::Render;
use super::plan::{Fill, Native, Step, average_comment};
use super::writer::{Py, list};

/// `pads` in ONNX order: every begin, then every end.
fn onnx_pads(pairs: &[(i64, i64)]) -> Vec<i64> {
    pairs
        .iter()
        .map(|p| p.0)
        .chain(pairs.iter().map(|p| p.1))
        .collect()
}

fn padding_attrs(padding: &Native) -> String {
    match padding {
        Native::Valid => "auto_pad=\"VALID\"".into(),
        Native::Same => "auto_pad=\"SAME_UPPER\"".into(),
        Native::SameLower => "auto_pad=\"SAME_LOWER\"".into(),
        Native::Symmetric(v) => format!(
            "pads={}",
            list(&onnx_pads(&v.iter().map(|&p| (p, p)).collect::<Vec<_>>()))
        ),
        Native::Explicit(v) => format!("pads={}", list(&onnx_pads(v))),
        Native::Causal => "auto_pad=\"VALID\"".into(),
    }
}

/// The model-building function.
pub fn layer(r: &Render) -> Py {
    let mut py = Py::new();
    py.import("import numpy as np");
    py.import("from onnx import TensorProto, helper, numpy_helper");
    let shape = r.shape();
    let n = shape.ndim();
    let op = r.plan.semantics.op;
    let adds_bias = r.plan.steps.contains(&Step::AddBias);
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
                    let full: Vec<i64> = [0, 0].into_iter().chain(signed.iter().map(|p| p.0)).chain([0, 0]).chain(signed.iter().map(|p| p.1)).collect();
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
                Step::Conv { padding, kernel, dilation, .. } => {
                    py.line(format!(
                        "nodes.append(helper.make_node(\"Conv\", [\"{current}\", \"w\", \"b\"], [\"{out}\"], kernel_shape={}, strides={}, dilations={}, {}))",
                        list(kernel),
                        list(&shape.stride),
                        list(dilation),
                        padding_attrs(padding)
                    ));
                }
                Step::ConvTranspose { padding, kernel, dilation, output_padding, output_size, .. } => {
                    let mut attrs = format!(
                        "kernel_shape={}, strides={}, dilations={}, {}",
                        list(kernel),
                        list(&shape.stride),
                        list(dilation),
                        padding_attrs(padding)
                    );
                    if let Some(op) = output_padding {
                        attrs.push_str(&format!(", output_padding={}", list(op)));
                    }
                    if let Some(o) = output_size {
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
                Step::Pool { max, padding, stride, ceil_mode, count_include_pad } => {
                    let mut attrs = format!(
                        "kernel_shape={}, strides={}, dilations={}, ceil_mode={}, {}",
                        list(&shape.kernel),
                        list(stride),
                        list(&shape.dilation),
                        i64::from(*ceil_mode),
                        padding_attrs(padding)
                    );
                    if !max {
                        attrs.push_str(&format!(", count_include_pad={}", i64::from(count_include_pad.unwrap_or(false))));
                    }
                    let kind = if *max { "MaxPool" } else { "AveragePool" };
                    py.line(format!("nodes.append(helper.make_node(\"{kind}\", [\"{current}\"], [\"{out}\"], {attrs}))"));
                }
                Step::AverageRatio { inner, extension, padded, include_pad, stride } => {
                    let channels = if op.is_pool() { "channels" } else { "out_channels" };
                    py.comment(average_comment(*include_pad));
                    let ones = format!("np.ones((1, 1, {}), np.float32)", super::writer::join(&size));
                    let mask = if *include_pad {
                        format!("np.pad(np.pad({ones}, {}, constant_values=1.0), {})", super::writer::nchw_pad_width(inner), super::writer::nchw_pad_width(extension))
                    } else {
                        format!("np.pad({ones}, {})", super::writer::nchw_pad_width(padded))
                    };
                    let full: Vec<i64> = [0, 0].into_iter().chain(padded.iter().map(|p| p.0)).chain([0, 0]).chain(padded.iter().map(|p| p.1)).collect();
                    py.line(format!(
                        "nodes.append(helper.make_node(\"Pad\", [\"{current}\", constant(\"p{i}\", np.array({}, np.int64))], [\"x{i}\"]))",
                        list(&full)
                    ));
                    // Window sums as a depthwise convolution with ones: ONNX Runtime fuses a Pad
                    // into a following AveragePool and then refuses padded >= kernel.
                    py.line(format!(
                        "ones = constant(\"k{i}\", np.ones(({channels}, 1, {}), np.float32))",
                        super::writer::join(&shape.kernel)
                    ));
                    py.line(format!(
                        "nodes.append(helper.make_node(\"Conv\", [\"x{i}\", ones], [\"s{i}\"], kernel_shape={}, strides={}, dilations={}, group={channels}))",
                        list(&shape.kernel),
                        list(stride),
                        list(&shape.dilation)
                    ));
                    // The divisor is static: count it here.
                    py.line(format!(
                        "scale = 1.0 / window_counts({mask}, {}, {}, {})",
                        super::writer::tuple(&shape.kernel),
                        super::writer::tuple(stride),
                        super::writer::tuple(&shape.dilation)
                    ));
                    py.line(format!(
                        "nodes.append(helper.make_node(\"Mul\", [\"s{i}\", constant(\"c{i}\", scale.astype(np.float32))], [\"{out}\"]))"
                    ));
                }
            }
            current = out;
        }
        let spatial: Vec<String> = shape.input.iter().map(|v| v.to_string()).collect();
        let channels_in = if op.is_pool() { "channels" } else { "in_channels" };
        py.line(format!(
            "inputs = [helper.make_tensor_value_info(\"x\", TensorProto.FLOAT, [\"N\", {channels_in}, {}])]",
            spatial.join(", ")
        ));
        if !op.is_pool() {
            let (wo, wi) = if op == Op::ConvTranspose { ("in_channels", "out_channels") } else { ("out_channels", "in_channels") };
            let kernel = super::writer::join(&r.weight_kernel());
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
pub fn runner(r: &Render) -> Py {
    let mut py = Py::new();
    py.import("import numpy as np");
    py.import("import onnxruntime as ort");
    let op = r.plan.semantics.op;
    py.block(format!("def run_{}(x, w, b)", r.name), |py| {
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
    });
    py
}
