//! Lowering: a layer's [`Semantics`] becomes a [`Plan`] for one target framework — the steps
//! to emit, in that framework's vocabulary. Every decision is made here, as a step or a step's
//! field; renderers only print them.
//!
//! A native form is used only when the core confirms it computes exactly the source's
//! semantics, and only in a padding form the target can write ([`Spelling`]); otherwise the plan
//! composes exact primitives (explicit pad, valid op, crop, zero-extend, zero-inserted kernel,
//! average as a ratio of window sums, window sums by taps or by a dense pool and a stride).

use std::fmt::Debug;

use crate::core::{Backend, Dims, Framework, LayerSpec, Op, Padding, PaddingMode};

use super::CodegenError;
use super::semantics::{Divisor, Kind, Semantics, Shape, semantics};
use super::target::Target;

/// What fills padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    Zero,
    NegInf,
    Reflect,
    Replicate,
    Circular,
}

impl Fill {
    /// The fill of a torch `padding_mode`.
    pub fn of_mode(mode: PaddingMode) -> Fill {
        match mode {
            PaddingMode::Zeros => Fill::Zero,
            PaddingMode::Reflect => Fill::Reflect,
            PaddingMode::Replicate => Fill::Replicate,
            PaddingMode::Circular => Fill::Circular,
        }
    }
}

/// A padding argument, independent of any framework's spelling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Native {
    Valid,
    Same,
    SameLower,
    Causal,
    /// One symmetric pad per dimension.
    Symmetric(Vec<i64>),
    /// `(before, after)` per dimension.
    Explicit(Vec<(i64, i64)>),
}

impl Native {
    /// The `(before, after)` pairs of a per-dimension padding (a symmetric pad is both); `None`
    /// for a keyword.
    pub fn pairs(&self) -> Option<Vec<(i64, i64)>> {
        match self {
            Native::Symmetric(v) => Some(v.iter().map(|&p| (p, p)).collect()),
            Native::Explicit(v) => Some(v.clone()),
            Native::Valid | Native::Same | Native::SameLower | Native::Causal => None,
        }
    }

    fn to_padding(&self) -> Padding {
        match self {
            Native::Valid => Padding::Valid,
            Native::Same => Padding::Same,
            Native::SameLower => Padding::SameLower,
            Native::Causal => Padding::Causal,
            Native::Symmetric(v) => Padding::PerDim(v.clone()),
            Native::Explicit(v) => Padding::Explicit(v.iter().map(|&(b, a)| [b, a]).collect()),
        }
    }
}

/// A target's padding argument: only the forms its layers take. Lowering keeps a native
/// candidate only when the target can write its form, so no renderer ever meets a form it lacks.
pub trait Spelling: Clone + Debug + PartialEq + Eq {
    /// The target whose argument this is.
    type Target: Target<Pad = Self>;
    /// How the target writes `form` for a layer of `shape`, or `None` when it cannot.
    fn spell(form: &Native, shape: &Shape) -> Option<Self>;
}

/// What a target can write beyond its padding forms: stated once in the target's module
/// (`Target::CAN`) and read by the one lowering, which never asks which framework it lowers for.
#[derive(Debug)]
pub struct Abilities {
    pub framework: Framework,
    /// Its 'same' padding also comes with the odd pixel before (ONNX `SAME_LOWER`, JAX
    /// `'SAME_LOWER'`).
    pub same_lower: bool,
    /// It has an export-safe form (`Options::export_safe`, torch for ONNX exporters): no
    /// `padding='same'`, and an empty max-pool window's value stated (exported, the pool starts
    /// at the lowest float).
    pub export_safe: bool,
    /// Its convolutions refuse a stride together with a dilation (Keras): the kernel is
    /// zero-inserted instead.
    pub refuses_strided_dilation: bool,
    /// How it computes a window reduction (a max, or an average's window sums).
    pub window: fn(WindowNeed) -> Window,
    /// A pad before its average pool is kept as written (not so in ONNX Runtime, which fuses a
    /// `Pad` into a following `AveragePool` and then refuses pads >= kernel).
    pub pads_an_average: bool,
    /// Its transposed layer gives the full output from padding 0 alone and takes an output
    /// size only where its padding and output padding do not already give it (torch).
    pub sizes_transposed_output: bool,
    /// The backends its code may run on, where a native form must compute the same on each
    /// (Keras); empty for a single-backend target.
    pub backends: &'static [Backend],
}

impl Abilities {
    /// A single-backend target that writes 'same' with the odd pixel after, computes every
    /// window with its pooling op, and has no limits beyond its padding forms: a target states
    /// only where it differs (`..Abilities::plain(framework)`).
    pub const fn plain(framework: Framework) -> Abilities {
        Abilities {
            framework,
            same_lower: false,
            export_safe: false,
            refuses_strided_dilation: false,
            window: |_| Window::Pool,
            pads_an_average: true,
            sizes_transposed_output: false,
            backends: &[],
        }
    }
}

/// What a window reduction needs, for [`Abilities::window`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowNeed {
    pub max: bool,
    pub dilated: bool,
    pub strided: bool,
    pub export_safe: bool,
}

/// How a window reduction (a pool, or an average's window sums) is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// The target's pooling op with the step's kernel, stride and dilation.
    Pool,
    /// A pool at stride 1 with the dilation, then every `stride`-th output (`tf.nn.pool` takes
    /// a dilation only at stride 1).
    DenseThenStride,
    /// One strided slice per kernel tap, combined (a dilated window where the target has no
    /// dilated pool, or for exporters).
    Taps,
    /// A grouped convolution with a ones kernel (a dilated sum in eager torch; ONNX, where a
    /// `Pad` before an `AveragePool` is fused and then refused).
    OnesConv,
}

/// One step of the emitted computation, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step<P> {
    /// Pad by `(before, after)` per dimension, all amounts >= 0.
    Pad { pairs: Vec<(i64, i64)>, fill: Fill },
    /// Drop `(before, after)` elements per dimension, all amounts >= 0.
    Crop { pairs: Vec<(i64, i64)> },
    /// The convolution layer.
    Conv(ConvStep<P>),
    /// The transposed convolution layer.
    ConvTranspose(TransposeStep<P>),
    /// The bias, added here because a zero-extension came after the layer.
    AddBias,
    /// A pooling layer.
    Pool(PoolStep<P>),
    /// Max-pool windows with no input element: the target leaves `from` there where the source
    /// gives the other value (−∞ in torch and JAX, the lowest float in TF, Keras, ONNX Runtime).
    EmptyWindows { to_neg_inf: bool },
    /// An average with an exact divisor.
    AverageRatio(AverageStep),
}

/// A convolution layer: what every renderer and port reads of a `Step::Conv`. `kernel` and
/// `dilation` may differ from the source's when the kernel is zero-inserted (`dilated_kernel`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvStep<P> {
    pub padding: P,
    pub kernel: Vec<i64>,
    pub dilation: Vec<i64>,
    pub padding_mode: PaddingMode,
    pub dilated_kernel: bool,
}

/// A transposed convolution layer: what every renderer and port reads of a
/// `Step::ConvTranspose`. `kernel` and `dilation` as in [`ConvStep`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransposeStep<P> {
    pub padding: P,
    pub kernel: Vec<i64>,
    pub dilation: Vec<i64>,
    pub output_padding: Option<Vec<i64>>,
    /// The output size to request, only where the padding and output padding do not
    /// already give it (torch ignores the module's output padding when it is passed).
    pub output_size: Option<Vec<i64>>,
    /// The output padding that gives this step's output size (what a function without an
    /// `output_size` argument, like `F.conv_transpose`, takes).
    pub size_padding: Vec<i64>,
    pub dilated_kernel: bool,
}

impl<P> TransposeStep<P> {
    /// Whether the step sizes its output itself (an output padding or an output size to
    /// reach), rather than leaving it to the padding alone.
    pub fn sizes_output(&self) -> bool {
        self.output_padding.is_some() || self.output_size.is_some()
    }

    /// The output size to pass to a call that always takes one: the step's, else `natural`
    /// (the layer's output).
    pub fn output_or<'a>(&'a self, natural: &'a [i64]) -> &'a [i64] {
        self.output_size.as_deref().unwrap_or(natural)
    }
}

/// An average with an exact divisor: window sums of the input zero-padded by
/// [`AverageStep::padded`], divided by window sums of a mask that is 1 on input elements (and,
/// for `include_pad`, on the `inner` padding) and 0 on the `extension` past it that ceil mode
/// reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AverageStep {
    pub inner: Pairs,
    pub extension: Pairs,
    pub include_pad: bool,
    pub sum: WindowSum,
}

impl AverageStep {
    /// All the zero padding: the inner padding and its extension.
    pub fn padded(&self) -> Pairs {
        self.inner
            .iter()
            .zip(&self.extension)
            .map(|(&(b, a), &(eb, ea))| (b + eb, a + ea))
            .collect()
    }
}

/// A sum over each window (an average's numerator and divisor): its kernel, stride and
/// dilation, and how the target computes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowSum {
    pub kernel: Vec<i64>,
    pub stride: Vec<i64>,
    pub dilation: Vec<i64>,
    pub window: Window,
}

impl WindowSum {
    /// `(kernel, stride, dilation)`, as window reductions take them.
    pub fn geometry(&self) -> WindowGeometry<'_> {
        (&self.kernel, &self.stride, &self.dilation)
    }
}

/// The kernel, stride and dilation of a window.
pub type WindowGeometry<'a> = (&'a [i64], &'a [i64], &'a [i64]);

/// A pooling layer: what every renderer and port reads of a `Step::Pool`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolStep<P> {
    pub max: bool,
    pub padding: P,
    pub kernel: Vec<i64>,
    pub stride: Vec<i64>,
    pub dilation: Vec<i64>,
    pub ceil_mode: bool,
    pub count_include_pad: Option<bool>,
    pub window: Window,
}

impl<P> PoolStep<P> {
    /// `(kernel, stride, dilation)`, as window reductions take them.
    pub fn geometry(&self) -> WindowGeometry<'_> {
        (&self.kernel, &self.stride, &self.dilation)
    }

    /// Whether the window is dilated.
    pub fn dilated(&self) -> bool {
        self.dilation.iter().any(|&d| d != 1)
    }
}

/// A fact about a plan that its code must state (the header says it in words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// Keras's AveragePooling 'same' computes other numbers on the torch backend here: the
    /// plan composes what every backend computes the same.
    SameAverageDiffersByBackend,
    /// The source's 'same' padding depends on the input size: the plan's pads hold for this
    /// input only.
    PadsForThisInputOnly,
}

/// Which side of a 'same' padding gets the odd extra pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OddPixel {
    /// After: TF, Keras, ONNX `SAME_UPPER`, JAX `'SAME'`.
    After,
    /// Before: ONNX `SAME_LOWER`, JAX `'SAME_LOWER'`.
    Before,
}

/// Everything a renderer needs for one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan<P> {
    pub target: Framework,
    pub semantics: Semantics,
    pub steps: Vec<Step<P>>,
    /// Facts the snippet must state.
    pub notes: Vec<Note>,
    /// The target's own layer computes the source exactly, with no extra steps.
    pub native: bool,
    /// For strided TF-style 'same' rendered with static pads: the rule to compute them at run
    /// time, so a dynamic form can be offered too.
    pub dynamic_same: Option<OddPixel>,
}

impl<P> Plan<P> {
    /// Whether a step adds the bias (after a zero-extension).
    pub fn adds_bias(&self) -> bool {
        self.steps.iter().any(|s| matches!(s, Step::AddBias))
    }

    /// Whether the main layer takes a zero-inserted kernel instead of a dilation.
    pub fn dilated_kernel(&self) -> bool {
        self.steps.iter().any(|s| {
            matches!(
                s,
                Step::Conv(ConvStep {
                    dilated_kernel: true,
                    ..
                }) | Step::ConvTranspose(TransposeStep {
                    dilated_kernel: true,
                    ..
                })
            )
        })
    }

    /// The fills of the plan's pad steps.
    pub fn fills(&self) -> impl Iterator<Item = Fill> + '_ {
        self.steps.iter().filter_map(|s| match s {
            Step::Pad { fill, .. } => Some(*fill),
            _ => None,
        })
    }
}

/// Lowering options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// No `padding='same'` in torch (for ONNX/CoreML exporters that mishandle it).
    pub export_safe: bool,
}

/// Lowers `source` for the target of `P`. A plan always has steps, each in a form the target
/// writes; a lowering that cannot give that is an error, never an empty or partial plan.
pub fn lower<P: Spelling>(
    source: &LayerSpec,
    options: LowerOptions,
) -> Result<Plan<P>, CodegenError> {
    let plan = lower_native(source, options, P::Target::CAN, |form, shape| {
        P::spell(form, shape).is_some()
    })?;
    spell_plan(plan)
}

/// The plan in framework-neutral padding forms, for the target that `can` describes (which
/// writes the forms `spellable` accepts). One body for every target, so the page's wasm carries
/// it once.
fn lower_native(
    source: &LayerSpec,
    options: LowerOptions,
    can: &Abilities,
    spellable: fn(&Native, &Shape) -> bool,
) -> Result<Plan<Native>, CodegenError> {
    let target = can.framework;
    let (sem, _) = semantics(source).map_err(CodegenError::Source)?;
    let mut plan = Plan {
        target,
        semantics: sem.clone(),
        steps: vec![],
        notes: vec![],
        native: false,
        dynamic_same: None,
    };
    // The source's own spec is the first candidate in its own framework.
    let own = (source.framework == target).then(|| source.clone());
    if let Some(step) = native_step(source, &sem, options, own, can, spellable) {
        plan.steps.push(step);
        plan.native = true;
    } else {
        plan.steps = composed_steps(&sem, options, can, spellable)?;
    }
    // Keras's AveragePooling 'same' would do on TensorFlow but not on every backend.
    let keras_same = |backend: Backend| {
        let mut s = LayerSpec::new(
            sem.op,
            Framework::Keras,
            sem.shape.input.clone(),
            Dims::Each(sem.shape.kernel.clone()),
        );
        s.stride = Some(Dims::Each(sem.shape.stride.clone()));
        s.padding = Some(Padding::Same);
        s.backend = Some(backend);
        semantics(&s).is_ok_and(|(c, _)| c.kind == sem.kind)
    };
    let for_every_backend = !can.backends.is_empty()
        && (source.framework != Framework::Keras || source.backend.is_none());
    let differs_by_backend =
        sem.op == Op::AvgPool && keras_same(Backend::Tensorflow) && !keras_same(Backend::Torch);
    if for_every_backend && !plan.native && differs_by_backend {
        plan.notes.push(Note::SameAverageDiffersByBackend);
    }
    // Exported to ONNX, torch's max pool starts at the lowest float like ONNX Runtime's, so
    // export-safe torch states the source's value either way.
    let exported = options.export_safe && can.export_safe;
    if sem.op == Op::MaxPool
        && (exported || empty_is_neg_inf(source.framework) != plan_empty_is_neg_inf(&plan))
        && has_empty_window(&sem)
    {
        plan.steps.push(Step::EmptyWindows {
            to_neg_inf: empty_is_neg_inf(source.framework),
        });
    }
    if sem.input_dependent {
        let static_form = !plan.steps.iter().any(|s| match s {
            Step::Conv(ConvStep { padding, .. }) | Step::Pool(PoolStep { padding, .. }) => {
                matches!(padding, Native::Same | Native::SameLower)
            }
            _ => false,
        });
        if static_form {
            plan.dynamic_same = Some(if source.padding == Some(Padding::SameLower) {
                OddPixel::Before
            } else {
                OddPixel::After
            });
            plan.notes.push(Note::PadsForThisInputOnly);
        }
    }
    // Every plan has steps, each in a form the target writes.
    let padding = |s: &Step<Native>| match s {
        Step::Conv(ConvStep { padding, .. })
        | Step::ConvTranspose(TransposeStep { padding, .. })
        | Step::Pool(PoolStep { padding, .. }) => Some(padding.clone()),
        _ => None,
    };
    if plan.steps.is_empty() {
        return Err(unwritable(target, "a plan with no steps"));
    }
    if plan
        .steps
        .iter()
        .filter_map(padding)
        .any(|form| !spellable(&form, &sem.shape))
    {
        return Err(unwritable(target, "a padding form it lacks"));
    }
    Ok(plan)
}

/// A layer step in `P`'s spelling (`None` when `P` cannot write its padding): the padding
/// spelled, every other field moved over. One `spelled` for each layer step.
macro_rules! spelled {
    ($step:ident: $($field:ident),*) => {
        impl $step<Native> {
            fn spelled<P: Spelling>(self, shape: &Shape) -> Option<$step<P>> {
                let $step { padding, $($field),* } = self;
                Some($step { padding: P::spell(&padding, shape)?, $($field),* })
            }
        }
    };
}

spelled! { ConvStep: kernel, dilation, padding_mode, dilated_kernel }
spelled! {
    TransposeStep: kernel, dilation, output_padding, output_size, size_padding, dilated_kernel
}
spelled! { PoolStep: max, kernel, stride, dilation, ceil_mode, count_include_pad, window }

impl Step<Native> {
    /// The step in `P`'s spelling (`None` when `P` cannot write its padding).
    fn spelled<P: Spelling>(self, shape: &Shape) -> Option<Step<P>> {
        Some(match self {
            Step::Pad { pairs, fill } => Step::Pad { pairs, fill },
            Step::Crop { pairs } => Step::Crop { pairs },
            Step::Conv(conv) => Step::Conv(conv.spelled(shape)?),
            Step::ConvTranspose(transpose) => Step::ConvTranspose(transpose.spelled(shape)?),
            Step::AddBias => Step::AddBias,
            Step::Pool(pool) => Step::Pool(pool.spelled(shape)?),
            Step::EmptyWindows { to_neg_inf } => Step::EmptyWindows { to_neg_inf },
            Step::AverageRatio(average) => Step::AverageRatio(average),
        })
    }
}

/// A neutral plan in `P`'s spelling. Lowering kept only forms `P` writes (`lower_native`
/// checks every step against the target's `spellable`), so every step spells; were one not to,
/// that is an error rather than a wrong or empty plan.
fn spell_plan<P: Spelling>(plan: Plan<Native>) -> Result<Plan<P>, CodegenError> {
    let shape = &plan.semantics.shape;
    let Some(steps) = plan
        .steps
        .into_iter()
        .map(|s| s.spelled::<P>(shape))
        .collect::<Option<Vec<_>>>()
    else {
        return Err(unwritable(plan.target, "a padding form it lacks"));
    };
    Ok(Plan {
        target: plan.target,
        semantics: plan.semantics,
        steps,
        notes: plan.notes,
        native: plan.native,
        dynamic_same: plan.dynamic_same,
    })
}

/// The error for a plan the target cannot write (one body for every target).
#[cold]
fn unwritable(target: Framework, what: &'static str) -> CodegenError {
    CodegenError::Unwritable { target, what }
}

/// A target spec with `padding` (and extras) that has exactly `sem`'s meaning, as a single
/// native step.
fn native_step(
    source: &LayerSpec,
    sem: &Semantics,
    options: LowerOptions,
    own: Option<LayerSpec>,
    can: &Abilities,
    spellable: fn(&Native, &Shape) -> bool,
) -> Option<Step<Native>> {
    let target = can.framework;
    let shape = &sem.shape;
    let n = shape.ndim();
    let base = {
        let mut s = LayerSpec::new(
            source.op,
            target,
            shape.input.clone(),
            Dims::Each(shape.kernel.clone()),
        );
        s.stride = Some(Dims::Each(shape.stride.clone()));
        s.dilation = Some(Dims::Each(shape.dilation.clone()));
        s
    };
    let with = |padding: Native| {
        let mut s = base.clone();
        s.padding = Some(padding.to_padding());
        (s, padding)
    };
    let mut candidates: Vec<(LayerSpec, Native)> = Vec::new();
    if let Some(own) = own
        && let Some(native) = native_of(&own)
    {
        candidates.push((own, native));
    }
    let same_forms = match (options.export_safe && can.export_safe, can.same_lower) {
        (true, _) => vec![],
        (false, false) => vec![Native::Same],
        (false, true) => vec![Native::Same, Native::SameLower],
    };
    let (before, after) = match &sem.kind {
        Kind::Conv { before, after, .. } | Kind::Pool { before, after, .. } => {
            (before.clone(), after.clone())
        }
        Kind::Transpose {
            crop_before,
            crop_after,
            ..
        } => (crop_before.clone(), crop_after.clone()),
    };
    let symmetric = before == after && before.iter().all(|&p| p >= 0);
    let pairs: Vec<(i64, i64)> = before.iter().copied().zip(after.iter().copied()).collect();
    match &sem.kind {
        Kind::Conv { mode, .. } => {
            let mut forms = vec![Native::Valid];
            if symmetric {
                forms.push(Native::Symmetric(before.clone()));
            }
            // Static sources prefer static forms; 'same' still matches when the pads agree.
            forms.extend(same_forms);
            forms.push(Native::Causal);
            forms.push(Native::Explicit(pairs));
            for form in forms {
                let (mut spec, form) = with(form);
                spec.padding_mode = Some(*mode);
                candidates.push((spec, form));
            }
        }
        Kind::Transpose {
            crop_before,
            crop_after,
            ..
        } => {
            // torch / ONNX: padding p and output_padding op crop (p, p - op).
            let ops: Vec<i64> = crop_before
                .iter()
                .zip(crop_after)
                .map(|(b, a)| b - a)
                .collect();
            if crop_before.iter().all(|&b| b >= 0) && ops.iter().all(|&o| o >= 0) {
                let (mut spec, form) = with(Native::Symmetric(crop_before.clone()));
                spec.output_padding = Some(Dims::Each(ops));
                candidates.push((spec, form));
            }
            let out = shape.output.clone();
            for form in [Native::Valid, Native::Same, Native::SameLower] {
                let (spec, f) = with(form.clone());
                candidates.push((spec.clone(), f.clone()));
                for op in 0..shape.stride.iter().copied().max().unwrap_or(1).min(16) {
                    let mut s = spec.clone();
                    s.output_padding = Some(Dims::Each(
                        shape.stride.iter().map(|&st| op.min(st - 1)).collect(),
                    ));
                    candidates.push((s, f.clone()));
                }
                let mut s = spec;
                s.output_size = Some(out.clone());
                candidates.push((s, f));
            }
            // lax.conv_transpose pairs: crop = keff - 1 - pad.
            let keff = shape.effective_kernel();
            let lax: Vec<(i64, i64)> = (0..n)
                .map(|a| (keff[a] - 1 - crop_before[a], keff[a] - 1 - crop_after[a]))
                .collect();
            candidates.push(with(Native::Explicit(lax)));
            let (mut s, f) = with(Native::Explicit(pairs.clone()));
            s.output_size = Some(out);
            candidates.push((s, f));
        }
        Kind::Pool { .. } => {
            let mut forms = vec![Native::Valid];
            if symmetric {
                forms.push(Native::Symmetric(before.clone()));
            }
            forms.extend(same_forms);
            forms.push(Native::Explicit(pairs));
            for form in forms {
                for ceil in [false, true] {
                    for cip in [None, Some(false), Some(true)] {
                        if source.op == Op::MaxPool && cip.is_some() {
                            continue;
                        }
                        let (mut spec, form) = with(form.clone());
                        spec.ceil_mode = ceil.then_some(true);
                        spec.count_include_pad = cip;
                        candidates.push((spec, form));
                    }
                }
            }
        }
    }
    for (spec, form) in candidates {
        if !spellable(&form, shape) {
            continue;
        }
        let padding = form.clone();
        let Ok((candidate, _)) = semantics(&spec) else {
            continue;
        };
        if candidate.kind != sem.kind || candidate.shape.output != shape.output {
            continue;
        }
        // Keras code must compute the same on every backend it may run on: all three, unless
        // the source is Keras on a backend it names.
        if !can.backends.is_empty() {
            let backends: &[Backend] = match (source.framework, source.backend) {
                (framework, Some(b)) if framework == target => &[b][..],
                _ => can.backends,
            };
            let same_everywhere = backends.iter().all(|&b| {
                let on = LayerSpec {
                    backend: Some(b),
                    ..spec.clone()
                };
                semantics(&on)
                    .is_ok_and(|(c, _)| c.kind == sem.kind && c.shape.output == shape.output)
            });
            if !same_everywhere {
                continue;
            }
        }
        // Prefer what the target takes most simply; a static source keeps static forms first
        // (the order above), an input-dependent one must keep its rule to stay exact.
        return Some(match source.op {
            Op::Conv => Step::Conv(ConvStep {
                padding,
                kernel: shape.kernel.clone(),
                dilation: shape.dilation.clone(),
                padding_mode: spec.padding_mode.unwrap_or_default(),
                dilated_kernel: false,
            }),
            Op::ConvTranspose => {
                let output_padding = spec.output_padding.as_ref().map(|d| match d {
                    Dims::All(v) => vec![*v; n],
                    Dims::Each(v) => v.clone(),
                });
                transpose_step(
                    can,
                    sem,
                    padding,
                    &form,
                    output_padding,
                    spec.output_size.clone(),
                )
            }
            Op::MaxPool | Op::AvgPool => Step::Pool(PoolStep {
                max: source.op == Op::MaxPool,
                padding,
                kernel: shape.kernel.clone(),
                stride: shape.stride.clone(),
                dilation: shape.dilation.clone(),
                ceil_mode: spec.ceil_mode.unwrap_or(false),
                count_include_pad: spec.count_include_pad,
                window: Window::Pool,
            }),
        });
    }
    None
}

/// A native transposed step: torch passes `output_size` only where the padding and output
/// padding do not already give it.
fn transpose_step<P>(
    can: &Abilities,
    sem: &Semantics,
    padding: P,
    form: &Native,
    output_padding: Option<Vec<i64>>,
    output_size: Option<Vec<i64>>,
) -> Step<P> {
    let shape = &sem.shape;
    let n = shape.ndim();
    let (full, crops) = match &sem.kind {
        Kind::Transpose {
            full,
            crop_before,
            crop_after,
        } => (
            full.clone(),
            crop_before
                .iter()
                .zip(crop_after)
                .map(|(b, a)| b - a)
                .collect(),
        ),
        _ => (shape.output.clone(), vec![0; n]),
    };
    let output_size = match (can.sizes_transposed_output, output_size) {
        (true, Some(o)) => {
            // The size torch's ConvTranspose gives without `output_size`: `F - 2p + op`.
            let pads: Vec<i64> = match form {
                Native::Symmetric(v) => v.clone(),
                Native::Explicit(v) => v.iter().map(|&(b, _)| b).collect(),
                _ => vec![0; n],
            };
            let natural: Vec<i64> = (0..n)
                .map(|a| {
                    full[a] - 2 * pads[a]
                        + output_padding
                            .as_ref()
                            .and_then(|o| o.get(a).copied())
                            .unwrap_or(0)
                })
                .collect();
            (o != natural).then_some(o)
        }
        (_, o) => o,
    };
    Step::ConvTranspose(TransposeStep {
        padding,
        kernel: shape.kernel.clone(),
        dilation: shape.dilation.clone(),
        size_padding: output_padding.clone().unwrap_or(crops),
        output_padding,
        output_size,
        dilated_kernel: false,
    })
}

/// The native padding form of a spec in its own framework.
fn native_of(spec: &LayerSpec) -> Option<Native> {
    let n = spec.input.len();
    Some(match spec.padding.clone().unwrap_or(Padding::All(0)) {
        Padding::Valid => Native::Valid,
        Padding::Same => Native::Same,
        Padding::SameLower => Native::SameLower,
        Padding::Causal => Native::Causal,
        Padding::All(p) => Native::Symmetric(vec![p; n]),
        Padding::PerDim(v) => Native::Symmetric(v),
        Padding::Explicit(v) => {
            if v.iter().all(|[b, a]| b == a) {
                Native::Symmetric(v.iter().map(|[b, _]| *b).collect())
            } else {
                Native::Explicit(v.iter().map(|&[b, a]| (b, a)).collect())
            }
        }
    })
}

/// `(before, after)` per dimension.
pub type Pairs = Vec<(i64, i64)>;

/// Splits signed per-side amounts into a crop (negative parts) and a pad (positive parts).
fn crop_and_pad(before: &[i64], after: &[i64]) -> (Option<Pairs>, Option<Pairs>) {
    let crop: Vec<(i64, i64)> = before
        .iter()
        .zip(after)
        .map(|(&b, &a)| ((-b).max(0), (-a).max(0)))
        .collect();
    let pad: Vec<(i64, i64)> = before
        .iter()
        .zip(after)
        .map(|(&b, &a)| (b.max(0), a.max(0)))
        .collect();
    let any = |v: &Vec<(i64, i64)>| v.iter().any(|&(b, a)| b > 0 || a > 0);
    (any(&crop).then_some(crop), any(&pad).then_some(pad))
}

/// Whether the target refuses stride > 1 together with dilation > 1 in this op.
fn refuses_strided_dilation(can: &Abilities, sem: &Semantics) -> bool {
    let strided = sem.shape.stride.iter().any(|&s| s > 1);
    let dilated = sem.shape.dilation.iter().any(|&d| d > 1);
    strided
        && dilated
        && can.refuses_strided_dilation
        && matches!(sem.op, Op::Conv | Op::ConvTranspose)
}

/// How the target computes a window reduction (`max`, or a sum for an average) of `sem`'s
/// kernel, stride and dilation.
fn window_for(can: &Abilities, sem: &Semantics, max: bool, options: LowerOptions) -> Window {
    (can.window)(WindowNeed {
        max,
        dilated: sem.shape.dilation.iter().any(|&d| d > 1),
        strided: sem.shape.stride.iter().any(|&s| s > 1),
        export_safe: options.export_safe,
    })
}

/// The exact composition when no native form matches.
fn composed_steps(
    sem: &Semantics,
    options: LowerOptions,
    can: &Abilities,
    spellable: fn(&Native, &Shape) -> bool,
) -> Result<Vec<Step<Native>>, CodegenError> {
    let shape = &sem.shape;
    let n = shape.ndim();
    let zeros = vec![0; n];
    let mut steps = vec![];
    // Every composition ends in a 'valid' layer.
    if !spellable(&Native::Valid, shape) {
        return Err(unwritable(
            can.framework,
            "'valid' padding, which every composition ends in",
        ));
    }
    let valid = Native::Valid;
    // A zero-inserted kernel of size d(k-1)+1 with dilation 1 computes the dilated convolution.
    let dilated_kernel = refuses_strided_dilation(can, sem);
    let (kernel, dilation) = if dilated_kernel {
        (shape.effective_kernel(), vec![1; n])
    } else {
        (shape.kernel.clone(), shape.dilation.clone())
    };
    match &sem.kind {
        Kind::Conv {
            before,
            after,
            mode,
        } => {
            let (crop, pad) = crop_and_pad(before, after);
            if let Some(pairs) = crop {
                steps.push(Step::Crop { pairs });
            }
            if let Some(pairs) = pad {
                steps.push(Step::Pad {
                    pairs,
                    fill: Fill::of_mode(*mode),
                });
            }
            steps.push(Step::Conv(ConvStep {
                padding: valid,
                kernel,
                dilation,
                padding_mode: PaddingMode::Zeros,
                dilated_kernel,
            }));
        }
        Kind::Transpose {
            full,
            crop_before,
            crop_after,
        } => {
            // The full output, uncropped; then crop and zero-extend.
            steps.push(Step::ConvTranspose(TransposeStep {
                padding: valid,
                kernel,
                dilation,
                output_padding: Some(zeros.clone()),
                // torch gives the full output from padding 0 alone.
                output_size: (!can.sizes_transposed_output).then(|| full.clone()),
                size_padding: zeros,
                dilated_kernel,
            }));
            let negated = |v: &[i64]| v.iter().map(|x| -x).collect::<Vec<_>>();
            let (crop, pad) = crop_and_pad(&negated(crop_before), &negated(crop_after));
            if let Some(pairs) = crop {
                steps.push(Step::Crop { pairs });
            }
            if let Some(pairs) = pad {
                steps.push(Step::Pad {
                    pairs,
                    fill: Fill::Zero,
                });
                steps.push(Step::AddBias);
            }
        }
        Kind::Pool {
            max,
            before,
            after,
            extra,
            divisor,
            zero_pad,
            replicate,
        } => {
            let padded_after: Vec<i64> = after.iter().zip(extra).map(|(a, e)| a + e).collect();
            let window = window_for(can, sem, *max, options);
            let valid_pool = |max: bool| {
                Step::Pool(PoolStep {
                    max,
                    padding: valid.clone(),
                    kernel: shape.kernel.clone(),
                    stride: shape.stride.clone(),
                    dilation: shape.dilation.clone(),
                    ceil_mode: false,
                    count_include_pad: None,
                    window,
                })
            };
            let pads = || before.iter().chain(after);
            // An average whose every window lies in the padded input and counts all it covers
            // is the padding, then a valid average (the divisor is the window size everywhere):
            // the edges repeated (Keras 'same' on the torch backend), or zeros (torch's
            // count_include_pad without ceil-mode overhang: ZeroPadding + AveragePooling
            // 'valid', the form a porter writes). Not zeros for ONNX: ONNX Runtime fuses a Pad
            // into the AveragePool and refuses pads >= kernel.
            let padded_average = if *replicate {
                Some(Fill::Replicate)
            } else {
                (!*max
                    && can.pads_an_average
                    && extra.iter().all(|&e| e == 0)
                    && pads().all(|&p| p >= 0)
                    && shape.dilation.iter().all(|&d| d == 1)
                    && (*divisor == Divisor::RealAndPad || pads().all(|&p| p == 0)))
                .then_some(Fill::Zero)
            };
            if let Some(fill) = padded_average {
                if pads().any(|&p| p > 0) {
                    steps.push(Step::Pad {
                        pairs: before.iter().copied().zip(after.iter().copied()).collect(),
                        fill,
                    });
                }
                steps.push(valid_pool(false));
            } else if *max {
                let (crop, pad) = crop_and_pad(before, &padded_after);
                if let Some(pairs) = crop {
                    steps.push(Step::Crop { pairs });
                }
                if let Some(pairs) = pad {
                    steps.push(Step::Pad {
                        pairs,
                        fill: if *zero_pad { Fill::Zero } else { Fill::NegInf },
                    });
                }
                steps.push(valid_pool(true));
            } else {
                let (crop, _) = crop_and_pad(before, after);
                if let Some(pairs) = crop {
                    steps.push(Step::Crop { pairs });
                }
                let inner: Pairs = before
                    .iter()
                    .zip(after)
                    .map(|(&b, &a)| (b.max(0), a.max(0)))
                    .collect();
                steps.push(Step::AverageRatio(AverageStep {
                    inner,
                    extension: extra.iter().map(|&e| (0, e)).collect(),
                    include_pad: *divisor == Divisor::RealAndPad,
                    sum: WindowSum {
                        kernel: shape.kernel.clone(),
                        stride: shape.stride.clone(),
                        dilation: shape.dilation.clone(),
                        window,
                    },
                }));
            }
        }
    }
    Ok(steps)
}

/// Whether some max-pool window reads no input element (only padding), in any dimension.
/// Such windows give −∞ in torch and JAX but the lowest float in TF, Keras and ONNX Runtime.
fn has_empty_window(sem: &Semantics) -> bool {
    let Kind::Pool {
        before,
        zero_pad: false,
        ..
    } = &sem.kind
    else {
        return false;
    };
    let shape = &sem.shape;
    (0..shape.ndim()).any(|a| {
        let (i, k, s, d, b) = (
            i128::from(shape.input[a]),
            i128::from(shape.kernel[a]),
            i128::from(shape.stride[a]),
            i128::from(shape.dilation[a].max(1)),
            i128::from(before[a]),
        );
        // Window j reads input iff its first tap at or after the input's start (at padded
        // position b) is inside the input and within the kernel.
        let empty = |j: i128| {
            let start = j * s;
            let first = if start >= b {
                0
            } else {
                (b - start + d - 1) / d
            };
            let p = start + first * d;
            first >= k || p >= b + i
        };
        // The first and last outputs (where windows leave the input), at most 200,000 checks.
        let out = i128::from(shape.output[a]);
        let head = out.min(100_000);
        (0..head).any(empty) || (head.max(out - 100_000)..out).any(empty)
    })
}

/// What a max over a window with no input element gives: −∞ (torch, JAX) or the lowest float
/// (TF, Keras, ONNX Runtime start their max there).
fn empty_is_neg_inf(framework: Framework) -> bool {
    matches!(framework, Framework::Torch | Framework::Jax)
}

/// What the plan's max pool gives for such a window: the target's own value, except that a
/// maximum over strided slices of the (−∞-padded) input keeps −∞.
fn plan_empty_is_neg_inf<P>(plan: &Plan<P>) -> bool {
    let taps = plan
        .steps
        .iter()
        .any(|s| matches!(s, Step::Pool(p) if p.window == Window::Taps));
    empty_is_neg_inf(plan.target) || taps
}
