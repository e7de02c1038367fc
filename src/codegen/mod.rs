//! The code generator: exactly equivalent code for a layer in another framework.
//!
//! Lower, then render: [`plan::lower`] turns the source layer's meaning into a [`Plan`] for the
//! target (native forms only where the core confirms them exact); one renderer per target writes
//! it through [`writer::Py`]. Architecture invariant: nothing here imports a browser crate.

mod jax;
mod keras;
mod onnx;
pub mod plan;
pub mod semantics;
mod tf;
mod torch;
pub mod writer;

use crate::core::{Framework, LayerSpec, Op, PadError, Padding};
use plan::{LowerOptions, Plan, Step, dims_text, lower};
use semantics::{Kind, Shape};
use writer::{Py, pad_list, pair_tuples, torch_pad_tuple, tuple};

/// What to generate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// A complete script that runs the layer and asserts shape (and, across frameworks, values).
    pub check: bool,
    /// PyTorch without `padding='same'`, for exporters that mishandle it.
    pub export_safe: bool,
    /// Functions over `torch.nn.functional` instead of an `nn.Module` (PyTorch).
    pub functional: bool,
}

/// Generated code for one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    pub target: Framework,
    pub code: String,
    /// The target's own layer does it alone (no explicit pad, crop or custom step).
    pub native: bool,
}

/// Everything a renderer reads.
pub struct Render<'a> {
    pub plan: &'a Plan,
    /// The Python name of the layer function (or, in CamelCase, the class).
    pub name: &'a str,
    pub functional: bool,
    /// PyTorch for exporters (`Options::export_safe`): only ops that ONNX export keeps exact.
    pub export_safe: bool,
    pub source: &'a LayerSpec,
}

impl Render<'_> {
    pub fn shape(&self) -> &Shape {
        &self.plan.semantics.shape
    }

    /// One line saying what the code computes.
    pub fn docstring(&self) -> String {
        format!(
            "{} on {}: output {}, exactly.",
            describe_layer(self.source),
            dims_text(&self.shape().input),
            dims_text(&self.shape().output)
        )
    }

    fn dilated_kernel(&self) -> bool {
        self.plan.steps.iter().any(|s| {
            matches!(
                s,
                Step::Conv {
                    dilated_kernel: true,
                    ..
                } | Step::ConvTranspose {
                    dilated_kernel: true,
                    ..
                }
            )
        })
    }

    /// The weight as the layer takes it, from a torch-layout weight named `w`.
    pub fn weight_expr(&self, w: &str) -> String {
        if self.dilated_kernel() {
            format!("dilate_kernel({w}, {})", tuple(&self.shape().dilation))
        } else {
            w.to_string()
        }
    }

    /// The kernel size of the layer as emitted.
    pub fn weight_kernel(&self) -> Vec<i64> {
        if self.dilated_kernel() {
            self.shape().effective_kernel()
        } else {
            self.shape().kernel.clone()
        }
    }

    /// torch `output_padding` that gives the semantics' crops with `padding = crop_before`.
    pub fn native_output_padding(&self) -> Vec<i64> {
        match &self.plan.semantics.kind {
            Kind::Transpose {
                crop_before,
                crop_after,
                ..
            } => crop_before
                .iter()
                .zip(crop_after)
                .map(|(b, a)| b - a)
                .collect(),
            _ => vec![0; self.shape().ndim()],
        }
    }
}

/// The layer as its framework writes it, e.g. `Keras Conv2D(kernel_size=(4, 1), padding='same')`.
pub fn describe_layer(spec: &LayerSpec) -> String {
    let n = spec.input.len();
    let padding = match &spec.padding {
        None => "default padding".to_string(),
        Some(p) => match p.keyword() {
            Some(k) => format!("padding='{k}'"),
            None => match p {
                Padding::All(v) => format!("padding={v}"),
                Padding::PerDim(v) => format!("padding={}", tuple(v)),
                Padding::Explicit(v) => format!(
                    "padding={}",
                    pair_tuples(&v.iter().map(|&[b, a]| (b, a)).collect::<Vec<_>>())
                ),
                _ => String::new(),
            },
        },
    };
    let layer = crate::core::layer_name(spec.framework, spec.op).replace('N', &n.to_string());
    let mut extra = String::new();
    if let Some(crate::core::Dims::Each(s)) = &spec.stride {
        extra.push_str(&format!(", stride={}", tuple(s)));
    } else if let Some(crate::core::Dims::All(s)) = &spec.stride {
        extra.push_str(&format!(", stride={s}"));
    }
    if let Some(d) = &spec.dilation {
        let d = match d {
            crate::core::Dims::All(v) => v.to_string(),
            crate::core::Dims::Each(v) => tuple(v),
        };
        extra.push_str(&format!(", dilation={d}"));
    }
    if let Some(m) = spec
        .padding_mode
        .filter(|m| *m != crate::core::PaddingMode::Zeros)
    {
        extra.push_str(&format!(", padding_mode='{}'", m.name()));
    }
    if let Some(op) = &spec.output_padding {
        let op = match op {
            crate::core::Dims::All(v) => v.to_string(),
            crate::core::Dims::Each(v) => tuple(v),
        };
        extra.push_str(&format!(", output_padding={op}"));
    }
    if let Some(o) = &spec.output_size {
        extra.push_str(&format!(", output_size={}", tuple(o)));
    }
    if spec.ceil_mode == Some(true) {
        extra.push_str(", ceil_mode=True");
    }
    if let Some(c) = spec.count_include_pad {
        extra.push_str(&format!(
            ", count_include_pad={}",
            if c { "True" } else { "False" }
        ));
    }
    let kernel = match &spec.kernel {
        crate::core::Dims::All(v) => v.to_string(),
        crate::core::Dims::Each(v) => tuple(v),
    };
    format!(
        "{} {layer}(kernel={kernel}{extra}, {padding})",
        spec.framework.title()
    )
}

/// Why no code can be generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodegenError {
    /// The source layer itself is refused by its framework.
    Source(PadError),
}

impl std::fmt::Display for CodegenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodegenError::Source(e) => write!(f, "the source layer is refused: {e}"),
        }
    }
}

impl std::error::Error for CodegenError {}

fn render_layer(r: &Render) -> Py {
    match r.plan.target {
        Framework::Torch => torch::layer(r),
        Framework::Keras => keras::layer(r),
        Framework::Tf => tf::layer(r),
        Framework::Onnx => onnx::layer(r),
        Framework::Jax => jax::layer(r),
    }
}

fn render_runner(r: &Render) -> Py {
    match r.plan.target {
        Framework::Torch => torch::runner(r),
        Framework::Keras => keras::runner(r),
        Framework::Tf => tf::runner(r),
        Framework::Onnx => onnx::runner(r),
        Framework::Jax => jax::runner(r),
    }
}

/// How the target lays out data and weights, relative to the source.
fn layout_notes(source: Framework, target: Framework, op: Op, n: usize) -> Vec<String> {
    let channels_last = |f: Framework| matches!(f, Framework::Keras | Framework::Tf);
    let spatial = &"DHW"[3 - n..];
    let layout = |f: Framework| {
        if channels_last(f) {
            format!("N{spatial}C")
        } else {
            format!("NC{spatial}")
        }
    };
    let mut notes = vec![format!(
        "Layout: {} is {}{}.",
        target.title(),
        layout(target),
        if source == target {
            String::new()
        } else {
            format!("; {} is {}", source.title(), layout(source))
        }
    )];
    if op.is_pool() {
        return notes;
    }
    let torch_shape = if op == Op::ConvTranspose {
        format!("(in, out, {})", kernel_axes(spatial))
    } else {
        format!("(out, in, {})", kernel_axes(spatial))
    };
    let last_shape = if op == Op::ConvTranspose {
        format!("({}, out, in)", kernel_axes(spatial))
    } else {
        format!("({}, in, out)", kernel_axes(spatial))
    };
    let to_last: Vec<i64> = (2..n as i64 + 2).chain([1, 0]).collect();
    let to_first: Vec<i64> = [n as i64 + 1, n as i64]
        .into_iter()
        .chain(0..n as i64)
        .collect();
    let weight = match (channels_last(source), channels_last(target)) {
        (false, true) => format!(
            "Weights: {} kernel {last_shape} = {} weight {torch_shape} transposed {}.",
            target.title(),
            source.title(),
            tuple(&to_last)
        ),
        (true, false) => format!(
            "Weights: {} weight {torch_shape} = {} kernel {last_shape} transposed {}.",
            target.title(),
            source.title(),
            tuple(&to_first)
        ),
        (true, true) => format!("Weights: kernel {last_shape}, as in the source."),
        (false, false) => format!("Weights: {torch_shape}, as in the source."),
    };
    notes.push(weight);
    notes
}

fn kernel_axes(spatial: &str) -> String {
    spatial
        .chars()
        .map(|c| format!("k{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The pads of a forward layer written in every framework's argument order.
pub fn translate_pads(pairs: &[(i64, i64)]) -> Vec<(&'static str, String)> {
    let n = pairs.len();
    let onnx: Vec<i64> = [0, 0]
        .into_iter()
        .chain(pairs.iter().map(|p| p.0))
        .chain([0, 0])
        .chain(pairs.iter().map(|p| p.1))
        .collect();
    let jax = writer::nchw_pad_width(pairs);
    vec![
        (
            "torch F.pad (last dimension first)",
            format!("F.pad(x, {})", torch_pad_tuple(pairs)),
        ),
        (
            "torch module",
            format!("nn.ZeroPad{n}d({})", torch_pad_tuple(pairs)),
        ),
        (
            "tf.pad (channels last)",
            format!("tf.pad(x, {})", pad_list(pairs, 1, 1)),
        ),
        (
            "Keras",
            format!("keras.layers.ZeroPadding{n}D({})", pair_tuples(pairs)),
        ),
        (
            "ONNX Pad (NCHW, begins then ends)",
            format!("pads={}", writer::list(&onnx)),
        ),
        ("JAX / NumPy (NCHW)", format!("jnp.pad(x, {jax})")),
    ]
}

/// A target's constant pad call: `(expression, pairs, value)` -> code; value `None` pads zeros.
pub(crate) type PadCall<'a> = &'a dyn Fn(&str, &[(i64, i64)], Option<&str>) -> String;

/// Writes the prologue of an exact average (`Step::AverageRatio`) in one target's words: `ones`
/// shaped like one channel of the input, the `mask` that is 1 where the divisor counts (input,
/// and the inner padding when `include_pad`) and 0 past it, and the zero-padded input `var`.
/// `pad(expr, pairs, value)` writes the target's constant pad call (value `None`: zeros).
pub(crate) fn average_prologue(py: &mut Py, var: &str, ones_like: &str, pad: PadCall, step: &Step) {
    let Step::AverageRatio {
        inner,
        extension,
        padded,
        include_pad,
        ..
    } = step
    else {
        return;
    };
    py.comment(plan::average_comment(*include_pad));
    py.line(format!("ones = {ones_like}"));
    if *include_pad {
        py.line(format!(
            "mask = {}",
            pad(&pad("ones", inner, Some("1.0")), extension, None)
        ));
    } else {
        py.line(format!("mask = {}", pad("ones", padded, None)));
    }
    py.line(format!("{var} = {}", pad(var, padded, None)));
}

const DILATE_KERNEL: &str = "def dilate_kernel(w, dilation):
    \"\"\"Inserts dilation - 1 zeros between taps (torch layout): a dilated kernel for a layer
    that takes no dilation together with a stride.\"\"\"
    k = w.shape[2:]
    out = np.zeros(w.shape[:2] + tuple((n - 1) * d + 1 for n, d in zip(k, dilation)), w.dtype)
    out[(slice(None), slice(None)) + tuple(slice(None, None, d) for d in dilation)] = w
    return out";

/// Generates `target` code for `source`.
pub fn generate(
    source: &LayerSpec,
    target: Framework,
    options: &Options,
) -> Result<Snippet, CodegenError> {
    let plan = lower(
        source,
        target,
        LowerOptions {
            export_safe: options.export_safe,
        },
    )
    .map_err(CodegenError::Source)?;
    let render = Render {
        plan: &plan,
        name: "padlab_layer",
        functional: options.functional,
        export_safe: options.export_safe,
        source,
    };
    let sem = &plan.semantics;
    let n = sem.shape.ndim();
    let needs_dilate = render.dilated_kernel();
    let mut py = Py::new();
    if options.check || needs_dilate {
        py.import("import numpy as np");
    }
    py.comment(format!(
        "padlab: {} on input {} -> {} code, output {}.",
        describe_layer(source),
        dims_text(&sem.shape.input),
        target.title(),
        dims_text(&sem.shape.output)
    ));
    match &sem.kind {
        Kind::Conv { before, after, .. } | Kind::Pool { before, after, .. } => {
            let pairs: Vec<String> = before
                .iter()
                .zip(after)
                .map(|(b, a)| format!("({b}, {a})"))
                .collect();
            py.comment(format!(
                "Padding (before, after) per spatial dimension: {}.",
                pairs.join(", ")
            ));
        }
        Kind::Transpose {
            full,
            crop_before,
            crop_after,
        } => {
            py.comment(format!(
                "Full transposed output {}; cropped (before, after): {} (negative = zeros appended).",
                dims_text(full),
                crop_before.iter().zip(crop_after).map(|(b, a)| format!("({b}, {a})")).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    if plan.native {
        py.comment(format!(
            "Native: the {} layer's own arguments compute this exactly.",
            target.title()
        ));
    } else {
        py.comment(format!(
            "No single {} layer argument computes this: the steps below do, exactly.",
            target.title()
        ));
    }
    for note in layout_notes(source.framework, target, sem.op, n) {
        py.comment(note);
    }
    for note in &plan.notes {
        py.comment(note);
    }
    if needs_dilate {
        py.comment("This layer cannot take a dilation with a stride: the kernel is zero-inserted instead (dilate_kernel, below, converts trained weights).");
    }
    py.blank();
    if needs_dilate {
        for line in DILATE_KERNEL.lines() {
            py.line(line);
        }
        py.blank();
    }
    py.append(&render_layer(&render));
    // Zero padding would be counted by an average, so only conv and max pool get the wrapper.
    if let (Some(lower), false) = (plan.dynamic_same, sem.op == Op::AvgPool)
        && target == Framework::Torch
        && !options.check
    {
        py.blank();
        py.append(&torch_dynamic_same(&plan, lower));
    }
    if !options.check {
        if let (Kind::Conv { before, after, .. } | Kind::Pool { before, after, .. }, false) =
            (&sem.kind, plan.native)
        {
            let pairs: Vec<(i64, i64)> =
                before.iter().copied().zip(after.iter().copied()).collect();
            if pairs.iter().all(|&(b, a)| b >= 0 && a >= 0) {
                py.blank();
                py.comment("The same pads in each framework's argument order:");
                for (label, text) in translate_pads(&pairs) {
                    py.comment(format!("  {label}: {text}"));
                }
            }
        }
        return Ok(Snippet {
            target,
            code: py.finish(),
            native: plan.native,
        });
    }
    // Self-check: a complete script.
    py.blank();
    py.append(&render_runner(&render));
    let check_source = source.framework != target;
    let source_plan;
    if check_source {
        source_plan = lower(source, source.framework, LowerOptions::default())
            .map_err(CodegenError::Source)?;
        let source_render = Render {
            plan: &source_plan,
            name: "source_layer",
            functional: false,
            export_safe: false,
            source,
        };
        py.blank();
        py.comment(format!(
            "The source layer, as written in {}:",
            source.framework.title()
        ));
        if source_render.dilated_kernel() && !needs_dilate {
            for line in DILATE_KERNEL.lines() {
                py.line(line);
            }
            py.blank();
        }
        py.append(&render_layer(&source_render));
        py.blank();
        py.append(&render_runner(&source_render));
    }
    py.blank();
    let op = sem.op;
    let k = &sem.shape.kernel;
    let (c_in, c_out) = if op.is_pool() { (3, 3) } else { (3, 4) };
    py.line("rng = np.random.default_rng(0)");
    py.line(format!(
        "x = rng.standard_normal((2, {c_in}, {})).astype(np.float32)",
        writer::join(&sem.shape.input)
    ));
    let w_shape = match op {
        Op::ConvTranspose => format!("({c_in}, {c_out}, {})", writer::join(k)),
        _ => format!("({c_out}, {c_in}, {})", writer::join(k)),
    };
    py.line(format!(
        "w = rng.standard_normal({w_shape}).astype(np.float32)  # torch layout"
    ));
    py.line(format!(
        "b = rng.standard_normal(({c_out},)).astype(np.float32)"
    ));
    py.line("y = run_padlab_layer(x, w, b)");
    let expected = format!("(2, {c_out}, {})", writer::join(&sem.shape.output));
    py.line(format!(
        "assert y.shape == {expected}, f\"shape {{y.shape}}, expected {expected}\""
    ));
    if check_source {
        py.line("y_source = run_source_layer(x, w, b)");
        py.line(
            "assert y_source.shape == y.shape, f\"source shape {y_source.shape} vs {y.shape}\"",
        );
        py.line("error = float(np.max(np.abs(y - y_source))) if y.size else 0.0");
        py.line("assert np.allclose(y, y_source, atol=1e-4), f\"outputs differ by {error}\"");
        py.line(format!(
            "print(f\"padlab self-check passed: {} and {} agree, output {expected}, max difference {{error:.2e}}\")",
            source.framework.title(),
            target.title()
        ));
    } else {
        py.line(format!(
            "print(\"padlab self-check passed: output {expected}\")"
        ));
    }
    Ok(Snippet {
        target,
        code: py.finish(),
        native: plan.native,
    })
}

/// A torch module that computes TF-style 'same' pads at run time, for any input size.
fn torch_dynamic_same(plan: &Plan, lower: bool) -> Py {
    let mut py = Py::new();
    let shape = &plan.semantics.shape;
    let n = shape.ndim();
    let op = plan.semantics.op;
    py.import("import math");
    py.comment("For any input size: the pads computed at run time, as the source's 'same' does.");
    let attr = if op == Op::Conv { "conv" } else { "pool" };
    let fill = if op == Op::MaxPool {
        ", value=float(\"-inf\")"
    } else {
        ""
    };
    let keff = shape.effective_kernel();
    py.block("def same_pads(size, kernel, stride)", |py| {
        py.line("\"\"\"(before, after) for TF-style 'same': output ceil(size / stride).\"\"\"");
        py.line("total = max((math.ceil(size / stride) - 1) * stride + kernel - size, 0)");
        py.line(if lower {
            "return total - total // 2, total // 2"
        } else {
            "return total // 2, total - total // 2"
        });
    });
    py.blank();
    let class = if op == Op::Conv {
        "DynamicSameConv"
    } else {
        "DynamicSamePool"
    };
    py.block(format!("class {class}(nn.Module)"), |py| {
        py.line(format!("\"\"\"Wraps a padding-free layer (e.g. the `{attr}` above) with run-time 'same' pads.\"\"\""));
        py.blank();
        py.block("def __init__(self, layer)", |py| {
            py.line("super().__init__()");
            py.line(format!("self.{attr} = layer"));
        });
        py.blank();
        py.block("def forward(self, x)", |py| {
            py.line(format!("kernel, stride = {}, {}", tuple(&keff), tuple(&shape.stride)));
            py.line(format!("pads = [same_pads(x.shape[2 + a], kernel[a], stride[a]) for a in range({n})]"));
            py.line("flat = [p for pair in reversed(pads) for p in pair]  # F.pad: last dimension first");
            py.line(format!("return self.{attr}(F.pad(x, flat{fill}))"));
        });
    });
    py
}
