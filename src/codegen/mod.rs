//! The code generator: exactly equivalent code for a layer in another framework.
//!
//! Lower, then render: [`semantics`] reduces the source layer to what it computes;
//! [`plan::lower`] turns that into a [`plan::Plan`] of steps for one target (native forms only
//! where the core confirms them exact, in a padding form the target can write); one renderer per
//! target (a [`Target`]) prints the steps through [`writer::Py`]. The snippet is assembled here:
//! a header of facts ([`describe`]), the layer, then either the pads in every framework's order,
//! a run-time 'same' module ([`dynamic`]) or a complete self-check script ([`check`]).
//!
//! Architecture invariant: a renderer never decides semantics; it prints the plan's steps.

pub mod answer;
mod check;
pub mod describe;
mod dynamic;
pub(crate) mod jax;
pub(crate) mod keras;
pub mod layout;
pub(crate) mod onnx;
pub mod plan;
pub mod semantics;
pub(crate) mod tf;
pub(crate) mod torch;
pub mod writer;

use crate::core::{Framework, LayerSpec, Op, PadError, PaddingMode};
pub use describe::{describe_layer, translate_pads};
pub use jax::JaxPad;
pub use keras::KerasPad;
pub use onnx::OnnxPad;
use plan::{LowerOptions, Plan, Spelling, Step, lower};
use semantics::{Kind, Shape};
pub use tf::TfPad;
pub use torch::TorchPad;
use writer::{Py, tuple};

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

/// Why no code can be generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodegenError {
    /// The source layer itself is refused by its framework.
    Source(PadError),
    /// A size, pad or kernel span beyond [`LARGEST`]: no framework allocates such a tensor,
    /// and the generator's arithmetic stays far from the 64-bit limits.
    TooLarge { value: i64 },
}

impl std::fmt::Display for CodegenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodegenError::Source(e) => write!(f, "the source layer is refused: {e}"),
            CodegenError::TooLarge { value } => write!(
                f,
                "padlab writes code for sizes, pads and kernel spans up to {LARGEST} (2^40); \
                 this layer has {value}"
            ),
        }
    }
}

/// The largest size, pad or kernel span the generator writes code for.
pub const LARGEST: i64 = 1 << 40;

/// Refuses a layer with a number beyond [`LARGEST`] (the core answers it; no code can run it).
fn check_writable(source: &LayerSpec) -> Result<(), CodegenError> {
    let answer = crate::core::evaluate(source).map_err(CodegenError::Source)?;
    let geometry = crate::core::Geometry::of(source).map_err(CodegenError::Source)?;
    let numbers = [
        &geometry.input,
        &geometry.kernel,
        &geometry.stride,
        &geometry.dilation,
    ]
    .into_iter()
    .flatten()
    .copied()
    .chain(answer.axes.iter().flat_map(|a| {
        [
            a.output,
            a.before,
            a.after,
            a.effective_kernel,
            a.full_output(),
        ]
    }));
    match numbers.map(|v| v.saturating_abs()).find(|&v| v > LARGEST) {
        Some(value) => Err(CodegenError::TooLarge { value }),
        None => Ok(()),
    }
}

impl std::error::Error for CodegenError {}

/// One target framework's renderer: its padding argument type and how it prints a plan.
pub(crate) trait Target {
    /// The padding forms the target's layers take.
    type Pad: Spelling;
    /// The layer definition (a module, a function, a model builder).
    fn layer(r: &Render<Self::Pad>) -> Py;
    /// `def run_<name>(x, w, b)`: NCHW numpy in and out, torch-layout weights.
    fn runner(r: &Render<Self::Pad>) -> Py;
    /// The porter's short answer: the layer call and any pad or crop around it
    /// ([`answer`]); `#` lines for steps with no one-line form.
    fn answer(plan: &Plan<Self::Pad>) -> Vec<String>;
}

/// Everything a renderer reads.
pub struct Render<'a, P> {
    pub plan: &'a Plan<P>,
    /// The Python name of the layer function (or, in CamelCase, the class).
    pub name: &'a str,
    pub functional: bool,
    /// PyTorch for exporters (`Options::export_safe`): only ops that ONNX export keeps exact.
    pub export_safe: bool,
    pub source: &'a LayerSpec,
}

impl<P> Render<'_, P> {
    pub fn shape(&self) -> &Shape {
        &self.plan.semantics.shape
    }

    /// The layer kind.
    pub fn op(&self) -> Op {
        self.plan.semantics.op
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

    /// The weight as the layer takes it, from a torch-layout weight named `w`.
    pub fn weight_expr(&self, w: &str) -> String {
        if self.plan.dilated_kernel() {
            format!("dilate_kernel({w}, {})", tuple(&self.shape().dilation))
        } else {
            w.to_string()
        }
    }

    /// The kernel size of the layer as emitted.
    pub fn weight_kernel(&self) -> Vec<i64> {
        if self.plan.dilated_kernel() {
            self.shape().effective_kernel()
        } else {
            self.shape().kernel.clone()
        }
    }
}

/// Sizes as `100x20`.
fn dims_text(values: &[i64]) -> String {
    crate::core::join(values, "x")
}

/// Checks that a layer's numbers stay within what the generator writes code for.
pub(crate) fn writable(source: &LayerSpec) -> Result<(), CodegenError> {
    check_writable(source)
}

/// A target's constant pad call: `(expression, pairs, value)` -> code; value `None` pads zeros.
pub(crate) type PadCall<'a> = &'a dyn Fn(&str, &[(i64, i64)], Option<&str>) -> String;

/// Writes the prologue of an exact average (`Step::AverageRatio`) in one target's words: `ones`
/// shaped like one channel of the input, the `mask` that is 1 where the divisor counts (input,
/// and the inner padding when `include_pad`) and 0 past it, and the zero-padded input `var`.
/// `pad(expr, pairs, value)` writes the target's constant pad call (value `None`: zeros).
pub(crate) fn average_prologue<P>(
    py: &mut Py,
    var: &str,
    ones_like: &str,
    pad: PadCall,
    step: &Step<P>,
) {
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

/// Writes the `dilate_kernel` helper.
fn dilate_kernel_helper(py: &mut Py) {
    for line in DILATE_KERNEL.lines() {
        py.line(line);
    }
}

/// The definition of one layer for target `T` (a class, a function or a model builder, as the
/// target's renderer writes it) under `name`, with the `dilate_kernel` helper when it needs
/// one: what a whole-model port embeds for a layer no stock module computes.
pub(crate) fn layer_definition<T: Target>(
    source: &LayerSpec,
    plan: &Plan<T::Pad>,
    name: &str,
    export_safe: bool,
) -> Py {
    let render = Render {
        plan,
        name,
        functional: false,
        export_safe,
        source,
    };
    T::layer(&render)
}

/// Generates `target` code for `source`.
pub fn generate(
    source: &LayerSpec,
    target: Framework,
    options: &Options,
) -> Result<Snippet, CodegenError> {
    match target {
        Framework::Torch => snippet::<torch::Torch>(source, options),
        Framework::Keras => snippet::<keras::Keras>(source, options),
        Framework::Tf => snippet::<tf::Tf>(source, options),
        Framework::Onnx => snippet::<onnx::Onnx>(source, options),
        Framework::Jax => snippet::<jax::Jax>(source, options),
    }
}

/// The snippet for target `T`: header, layer, then the pads in every order, the run-time
/// 'same' module or the self-check.
fn snippet<T: Target>(source: &LayerSpec, options: &Options) -> Result<Snippet, CodegenError> {
    let target = T::Pad::TARGET;
    check_writable(source)?;
    let plan: Plan<T::Pad> = lower(
        source,
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
    let needs_dilate = plan.dilated_kernel();
    let mut py = Py::new();
    // A check script runs a Keras source on the backend it names (the backend is fixed when
    // keras is imported, so this comes first).
    if let (true, Framework::Keras, Some(backend)) =
        (options.check, source.framework, source.backend)
    {
        py.import(&format!(
            "import os; os.environ[\"KERAS_BACKEND\"] = \"{}\"  # the source's backend",
            backend.name()
        ));
        // Keras before any other framework: TensorFlow imported first and then Keras on the
        // torch backend abort the process (two LLVMs register the same options).
        py.import("import keras");
    }
    if options.check || needs_dilate {
        py.import("import numpy as np");
    }
    header(&mut py, source, &plan);
    py.blank();
    if needs_dilate {
        dilate_kernel_helper(&mut py);
        py.blank();
    }
    py.append(&T::layer(&render));
    if options.check {
        check::script::<T>(&mut py, &render)?;
    } else {
        // Zero padding would be counted by an average, so only conv and max pool get the wrapper.
        if let (Some(odd), false, Framework::Torch) =
            (plan.dynamic_same, sem.op == Op::AvgPool, target)
        {
            py.blank();
            py.append(&dynamic::torch_same_module(&plan, odd));
        }
        if let (Kind::Conv { before, after, .. } | Kind::Pool { before, after, .. }, false) =
            (&sem.kind, plan.native)
        {
            let pairs: Vec<(i64, i64)> =
                before.iter().copied().zip(after.iter().copied()).collect();
            if pairs.iter().all(|&(b, a)| b >= 0 && a >= 0) {
                py.blank();
                let fill = match &sem.kind {
                    Kind::Pool {
                        zero_pad: false, ..
                    } if sem.op == Op::MaxPool => {
                        py.comment("The same pads in each framework's argument order, filled with -inf (a max pool's padding; zeros are not equivalent):");
                        plan::Fill::NegInf
                    }
                    Kind::Pool {
                        replicate: true, ..
                    } => {
                        py.comment("The same pads in each framework's argument order, filled with the edge values (the average counts them in its divisor; zeros are not equivalent):");
                        plan::Fill::Replicate
                    }
                    Kind::Pool { .. } => {
                        py.comment("The same pads in each framework's argument order (zeros; a following average counts them in its divisor):");
                        plan::Fill::Zero
                    }
                    Kind::Conv { mode, .. } if *mode != PaddingMode::Zeros => {
                        py.comment(format!("The same pads in each framework's argument order, {}; zeros are not equivalent:", mode_words(*mode)));
                        plan::Fill::of_mode(*mode)
                    }
                    _ => {
                        py.comment("The same pads in each framework's argument order:");
                        plan::Fill::Zero
                    }
                };
                for (label, text) in translate_pads(&pairs, fill) {
                    py.comment(format!("  {label}: {text}"));
                }
            }
        }
    }
    Ok(Snippet {
        target,
        code: py.finish(),
        native: plan.native,
    })
}

/// How a torch `padding_mode` fills the padding, in words.
fn mode_words(mode: PaddingMode) -> &'static str {
    match mode {
        PaddingMode::Zeros => "filled with zeros",
        PaddingMode::Reflect => "mirrored (reflect: the edge is not repeated)",
        PaddingMode::Replicate => "filled with the edge values (replicate)",
        PaddingMode::Circular => "wrapped around (circular)",
    }
}

/// The comments above the code: what it computes, the pads or crops, whether the target's own
/// layer does it, the layouts, and the plan's notes.
fn header<P>(py: &mut Py, source: &LayerSpec, plan: &Plan<P>) {
    let sem = &plan.semantics;
    let target = plan.target;
    py.comment(format!(
        "padlab: {} on input {} -> {} code, output {}.",
        describe_layer(source),
        dims_text(&sem.shape.input),
        target.title(),
        dims_text(&sem.shape.output)
    ));
    let pairs_text = |before: &[i64], after: &[i64]| {
        before
            .iter()
            .zip(after)
            .map(|(b, a)| format!("({b}, {a})"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &sem.kind {
        Kind::Conv { before, after, .. } | Kind::Pool { before, after, .. } => {
            py.comment(format!(
                "Padding (before, after) per spatial dimension: {}.",
                pairs_text(before, after)
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
                pairs_text(crop_before, crop_after)
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
    for note in describe::layout_notes(source.framework, target, sem.op, sem.shape.ndim()) {
        py.comment(note);
    }
    for note in &plan.notes {
        py.comment(note);
    }
    if plan.dilated_kernel() {
        py.comment("This layer cannot take a dilation with a stride: the kernel is zero-inserted instead (dilate_kernel, below, converts trained weights).");
    }
}
