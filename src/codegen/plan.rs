//! Lowering: a layer's [`Semantics`] becomes a [`Plan`] for one target framework — the steps
//! to emit, in that framework's vocabulary. A native form is used only when the core confirms it
//! computes exactly the source's semantics; otherwise the plan composes exact primitives
//! (explicit pad, valid op, crop, zero-extend, zero-inserted kernel, average as a ratio of sums).

use crate::core::{Dims, Framework, LayerSpec, Op, Padding, PaddingMode};

use super::semantics::{Divisor, Kind, Semantics, semantics};

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

/// A framework's own padding argument, as the layer takes it.
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

/// One step of the emitted computation, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Pad by `(before, after)` per dimension, all amounts >= 0.
    Pad { pairs: Vec<(i64, i64)>, fill: Fill },
    /// Drop `(before, after)` elements per dimension, all amounts >= 0.
    Crop { pairs: Vec<(i64, i64)> },
    /// The convolution layer. `kernel`/`dilation` may differ from the source's when the
    /// kernel is zero-inserted (`dilated_kernel`).
    Conv {
        padding: Native,
        kernel: Vec<i64>,
        dilation: Vec<i64>,
        padding_mode: PaddingMode,
        dilated_kernel: bool,
    },
    /// The transposed convolution layer.
    ConvTranspose {
        padding: Native,
        kernel: Vec<i64>,
        dilation: Vec<i64>,
        output_padding: Option<Vec<i64>>,
        output_size: Option<Vec<i64>>,
        dilated_kernel: bool,
    },
    /// The bias, added here because a zero-extension came after the layer.
    AddBias,
    /// A pooling layer.
    Pool {
        max: bool,
        padding: Native,
        stride: Vec<i64>,
        ceil_mode: bool,
        count_include_pad: Option<bool>,
    },
    /// Max-pool windows with no input element: the target leaves `from` there where the source
    /// gives the other value (−∞ in torch and JAX, the lowest float in TF, Keras, ONNX Runtime).
    EmptyWindows { to_neg_inf: bool },
    /// An average with an exact divisor: window sums of the input zero-padded by `padded`,
    /// divided by window sums of a mask that is 1 on input elements (and, for `include_pad`, on
    /// the `inner` padding) and 0 on the `extension` past it that ceil mode reaches.
    AverageRatio {
        inner: Pairs,
        extension: Pairs,
        padded: Pairs,
        include_pad: bool,
        stride: Vec<i64>,
    },
}

/// Everything a renderer needs for one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub target: Framework,
    pub semantics: Semantics,
    pub steps: Vec<Step>,
    /// Facts the snippet must state (exactness, input dependence, weight handling).
    pub notes: Vec<String>,
    /// The target's own layer computes the source exactly, with no extra steps.
    pub native: bool,
    /// For strided TF-style 'same' rendered with static pads: the rule to compute them at run
    /// time (`lower` = SAME_LOWER), so a dynamic form can be offered too.
    pub dynamic_same: Option<bool>,
}

/// Lowering options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// No `padding='same'` in torch (for ONNX/CoreML exporters that mishandle it).
    pub export_safe: bool,
}

/// Lowers `source` for `target`.
pub fn lower(
    source: &LayerSpec,
    target: Framework,
    options: LowerOptions,
) -> Result<Plan, crate::core::PadError> {
    let (sem, _) = semantics(source)?;
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
    if let Some(step) = native_step(source, &sem, target, options, own) {
        plan.steps.push(step);
        plan.native = true;
    } else {
        plan.steps = composed_steps(&sem, target);
    }
    // Exported to ONNX, torch's max pool starts at the lowest float like ONNX Runtime's, so
    // export-safe torch states the source's value either way.
    let exported = options.export_safe && target == Framework::Torch;
    if sem.op == Op::MaxPool
        && (exported || empty_is_neg_inf(source.framework) != target_empty_is_neg_inf(target, &sem))
        && has_empty_window(&sem)
    {
        plan.steps.push(Step::EmptyWindows {
            to_neg_inf: empty_is_neg_inf(source.framework),
        });
    }
    if sem.input_dependent {
        let static_form = !plan.steps.iter().any(|s| {
            matches!(
                s,
                Step::Conv {
                    padding: Native::Same | Native::SameLower,
                    ..
                } | Step::Pool {
                    padding: Native::Same | Native::SameLower,
                    ..
                }
            )
        });
        if static_form {
            plan.dynamic_same = Some(source.padding == Some(Padding::SameLower));
            plan.notes.push(format!(
                "The source's 'same' padding depends on the input size: these pads are exact for \
                 input {} only.",
                dims_text(&sem.shape.input)
            ));
        }
    }
    Ok(plan)
}

/// `100x20`.
pub fn dims_text(v: &[i64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

/// A target spec with `padding` (and extras) that has exactly `sem`'s meaning, as a single
/// native step.
fn native_step(
    source: &LayerSpec,
    sem: &Semantics,
    target: Framework,
    options: LowerOptions,
    own: Option<LayerSpec>,
) -> Option<Step> {
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
    let same_forms = match target {
        Framework::Torch if options.export_safe => vec![],
        Framework::Torch | Framework::Keras | Framework::Tf => vec![Native::Same],
        Framework::Onnx | Framework::Jax => vec![Native::Same, Native::SameLower],
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
        let Ok((candidate, _)) = semantics(&spec) else {
            continue;
        };
        if candidate.kind != sem.kind || candidate.shape.output != shape.output {
            continue;
        }
        // Prefer what the target takes most simply; a static source keeps static forms first
        // (the order above), an input-dependent one must keep its rule to stay exact.
        return Some(match source.op {
            Op::Conv => Step::Conv {
                padding: form,
                kernel: shape.kernel.clone(),
                dilation: shape.dilation.clone(),
                padding_mode: spec.padding_mode.unwrap_or_default(),
                dilated_kernel: false,
            },
            Op::ConvTranspose => Step::ConvTranspose {
                padding: form,
                kernel: shape.kernel.clone(),
                dilation: shape.dilation.clone(),
                output_padding: spec.output_padding.as_ref().map(|d| match d {
                    Dims::All(v) => vec![*v; n],
                    Dims::Each(v) => v.clone(),
                }),
                output_size: spec.output_size.clone(),
                dilated_kernel: false,
            },
            Op::MaxPool | Op::AvgPool => Step::Pool {
                max: source.op == Op::MaxPool,
                padding: form,
                stride: shape.stride.clone(),
                ceil_mode: spec.ceil_mode.unwrap_or(false),
                count_include_pad: spec.count_include_pad,
            },
        });
    }
    None
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
type Pairs = Vec<(i64, i64)>;

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

/// Whether `target` refuses stride > 1 together with dilation > 1 in this op.
fn refuses_strided_dilation(target: Framework, sem: &Semantics) -> bool {
    let strided = sem.shape.stride.iter().any(|&s| s > 1);
    let dilated = sem.shape.dilation.iter().any(|&d| d > 1);
    strided
        && dilated
        && matches!(
            (target, sem.op),
            (Framework::Keras, Op::Conv | Op::ConvTranspose)
        )
}

/// The exact composition when no native form matches.
fn composed_steps(sem: &Semantics, target: Framework) -> Vec<Step> {
    let shape = &sem.shape;
    let n = shape.ndim();
    let zeros = vec![0; n];
    let mut steps = vec![];
    // A zero-inserted kernel of size d(k-1)+1 with dilation 1 computes the dilated convolution.
    let dilated_kernel = refuses_strided_dilation(target, sem);
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
            steps.push(Step::Conv {
                padding: Native::Valid,
                kernel,
                dilation,
                padding_mode: PaddingMode::Zeros,
                dilated_kernel,
            });
        }
        Kind::Transpose {
            full,
            crop_before,
            crop_after,
        } => {
            // The full output, uncropped; then crop and zero-extend.
            steps.push(Step::ConvTranspose {
                padding: Native::Valid,
                kernel,
                dilation,
                output_padding: Some(zeros.clone()),
                output_size: Some(full.clone()),
                dilated_kernel,
            });
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
        } => {
            // Renderers realise a dilation their pooling op lacks (taps, or stride 1 and slicing).
            let padded_after: Vec<i64> = after.iter().zip(extra).map(|(a, e)| a + e).collect();
            if *max {
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
                steps.push(Step::Pool {
                    max: true,
                    padding: Native::Valid,
                    stride: shape.stride.clone(),
                    ceil_mode: false,
                    count_include_pad: None,
                });
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
                steps.push(Step::AverageRatio {
                    padded: inner
                        .iter()
                        .zip(extra)
                        .map(|(&(b, a), &e)| (b, a + e))
                        .collect(),
                    extension: extra.iter().map(|&e| (0, e)).collect(),
                    inner,
                    include_pad: *divisor == Divisor::RealAndPad,
                    stride: shape.stride.clone(),
                });
            }
        }
    }
    steps
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
        let (i, k, s, d) = (
            shape.input[a],
            shape.kernel[a],
            shape.stride[a],
            shape.dilation[a],
        );
        (0..shape.output[a].min(100_000)).any(|j| {
            (0..k.min(10_000)).all(|t| {
                let p = j * s + t * d - before[a];
                p < 0 || p >= i
            })
        })
    })
}

/// What a max over a window with no input element gives: −∞ (torch, JAX) or the lowest float
/// (TF, Keras, ONNX Runtime start their max there).
fn empty_is_neg_inf(framework: Framework) -> bool {
    matches!(framework, Framework::Torch | Framework::Jax)
}

/// What the target's rendering gives for such a window. Keras has no dilated pooling layer: a
/// dilated max pool is rendered as a maximum over strided slices of the (−∞-padded) input, so
/// its empty windows hold −∞ too, unlike its pooling layers.
fn target_empty_is_neg_inf(target: Framework, sem: &Semantics) -> bool {
    empty_is_neg_inf(target)
        || (target == Framework::Keras && sem.shape.dilation.iter().any(|&d| d > 1))
}

/// The comment every renderer puts above an exact average.
pub fn average_comment(include_pad: bool) -> &'static str {
    if include_pad {
        "Average = window sum / number of input and padding elements in the window."
    } else {
        "Average = window sum / number of input elements in the window."
    }
}
