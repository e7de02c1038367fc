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
pub mod target;
pub(crate) mod tf;
pub(crate) mod torch;
pub mod writer;

use crate::core::{Framework, LayerSpec, Op, PadError, PaddingMode};
pub use describe::{describe_layer, translate_pads};
pub use jax::JaxPad;
pub use keras::KerasPad;
pub use onnx::OnnxPad;
use plan::{LowerOptions, Plan, lower};
use semantics::Kind;
use target::WithTarget;
pub use target::{Render, Target};
pub use tf::TfPad;
pub use torch::TorchPad;
use writer::{Py, dilate_kernel_helper, dims_text};

/// The target registry: the one place a framework is mapped to its renderer. A sixth target is
/// its module (a [`Target`] with its padding type) and one line here.
pub(crate) fn for_target<W: WithTarget>(framework: Framework, job: W) -> W::Output {
    match framework {
        Framework::Torch => job.run::<torch::Torch>(),
        Framework::Keras => job.run::<keras::Keras>(),
        Framework::Tf => job.run::<tf::Tf>(),
        Framework::Onnx => job.run::<onnx::Onnx>(),
        Framework::Jax => job.run::<jax::Jax>(),
    }
}

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
    /// The lowering chose something the target cannot write (a padding form, or no step at
    /// all): no code rather than wrong code. A bug in padlab; the property tests look for it.
    Unwritable {
        target: Framework,
        what: &'static str,
    },
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
            CodegenError::Unwritable { target, what } => write!(
                f,
                "padlab cannot write this layer in {}: {what} (a padlab bug: please report it)",
                target.title()
            ),
        }
    }
}

/// The largest size, pad or kernel span the generator writes code for.
pub const LARGEST: i64 = 1 << 40;

/// Refuses a layer with a number beyond [`LARGEST`] (the core answers it; no code can run it).
pub(crate) fn writable(source: &LayerSpec) -> Result<(), CodegenError> {
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
    struct Generate<'a>(&'a LayerSpec, &'a Options);
    impl WithTarget for Generate<'_> {
        type Output = Result<Snippet, CodegenError>;
        fn run<T: Target>(self) -> Self::Output {
            snippet::<T>(self.0, self.1)
        }
    }
    for_target(target, Generate(source, options))
}

/// The snippet for target `T`: header, layer, then the pads in every order, the run-time
/// 'same' module or the self-check.
fn snippet<T: Target>(source: &LayerSpec, options: &Options) -> Result<Snippet, CodegenError> {
    let target = T::CAN.framework;
    writable(source)?;
    let plan: Plan<T::Pad> = lower(
        source,
        LowerOptions {
            export_safe: options.export_safe,
        },
    )?;
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
        writer::pair_items(before.iter().copied().zip(after.iter().copied()), ", ")
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
        py.comment(match note {
            plan::Note::SameAverageDiffersByBackend => {
                "Keras's AveragePooling 'same' differs by backend here (torch averages replicated \
             edges in): this composition computes the same on TensorFlow, torch and JAX."
                    .to_string()
            }
            plan::Note::PadsForThisInputOnly => format!(
                "The source's 'same' padding depends on the input size: these pads are exact for \
                 input {} only.",
                dims_text(&sem.shape.input)
            ),
        });
    }
    if plan.dilated_kernel() {
        py.comment("This layer cannot take a dilation with a stride: the kernel is zero-inserted instead (dilate_kernel, below, converts trained weights).");
    }
}
