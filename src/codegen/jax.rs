//! JAX: `lax` functions over NCHW arrays with torch-layout weights.

use crate::core::Framework;

use super::plan::{Abilities, ConvStep, Fill, Native, Plan, Spelling, Step, TransposeStep, Window};
use super::semantics::Shape;
use super::target::{Render, Target};
use super::writer::{
    ConstantPad, Line, Py, answer_lines, average_prologue, crop_slices, dilated_suffix,
    dilation_arg, join, nchw_pad_width, pair_list, tuple,
};

/// The JAX renderer.
pub struct Jax;

impl Target for Jax {
    type Pad = JaxPad;
    const CAN: &'static Abilities = &Abilities {
        same_lower: true,
        ..Abilities::plain(Framework::Jax)
    };
    /// The porter's lines (`codegen::answer`), NCHW like the full code.
    fn answer(plan: &Plan<JaxPad>) -> Vec<Line> {
        let shape = &plan.semantics.shape;
        let dilations = |d: &[i64]| dilation_arg("rhs_dilation", d, tuple(d));
        answer_lines(&plan.steps, |step| {
            Some(match step {
                Step::Pad { pairs, fill } => format!("x = {}", pad_call("x", pairs, *fill)),
                Step::Crop { pairs } => format!("x = x[{}]", crop_slices(pairs, 2, 0)),
                Step::Conv(conv) => format!(
                    "lax.conv_general_dilated(x, w, {}, {}{}){}",
                    tuple(&shape.stride),
                    padding_arg(&conv.padding),
                    dilations(&conv.dilation),
                    dilated_suffix(conv.dilated_kernel)
                ),
                // As the full code and the model port.
                Step::ConvTranspose(t) => format!(
                    "{}{}",
                    conv_transpose_call("x", "w", &shape.stride, t),
                    dilated_suffix(t.dilated_kernel)
                ),
                Step::Pool(p) if p.window == Window::Pool && !p.dilated() => pool_expr(
                    "x",
                    p.max,
                    p.count_include_pad,
                    p.geometry(),
                    &window_padding(&p.padding),
                ),
                _ => return None,
            })
        })
    }

    /// The layer as a function.
    fn layer(r: &Render<JaxPad>) -> Py {
        let mut py = Py::with_imports(&["import jax.numpy as jnp", "from jax import lax"]);
        let shape = r.shape();
        let n = shape.ndim();
        let op = r.op();
        // A window reduction: `(kernel, stride, dilation)` from the step.
        let window = |x: &str,
                      init: &str,
                      f: &str,
                      (kernel, stride, dilation): (&[i64], &[i64], &[i64]),
                      padding: &str| {
            format!(
                "lax.reduce_window({x}, {init}, {f}, (1, 1, {}), (1, 1, {}), {padding}, window_dilation=(1, 1, {}))",
                join(kernel),
                join(stride),
                join(dilation)
            )
        };
        let args = if op.is_pool() { "x" } else { "x, w, b=None" };
        py.block(format!("def {}({args})", r.name), |py| {
            py.line(format!("\"\"\"{}\"\"\"", r.docstring()));
            let mut biased = false;
            for step in &r.plan.steps {
                match step {
                    Step::Crop { pairs } => {
                        let parts: Vec<String> =
                            pairs.iter().enumerate().map(|(a, (b, e))| format!("{b} : x.shape[{}] - {e}", a + 2)).collect();
                        py.line(format!("x = x[:, :, {}]", parts.join(", ")));
                    }
                    Step::Pad { pairs, fill } => {
                        py.line(format!("x = {}", pad_call("x", pairs, *fill)));
                    }
                    Step::Conv(ConvStep { padding, dilation, .. }) => {
                        py.line(format!(
                            "x = lax.conv_general_dilated(x, w, window_strides={}, padding={}, rhs_dilation={}, dimension_numbers={})",
                            tuple(&shape.stride),
                            padding_arg(padding),
                            tuple(dilation),
                            dimension_numbers(n)
                        ));
                    }
                    Step::ConvTranspose(t) => {
                        if shape.input.contains(&1) {
                            py.comment(
                                "Known XLA issue (jax 0.10, CPU): a transposed convolution with a size-1 spatial \
                                 input can abort in the compiler (algebraic_simplifier: 'Window dimensions do not \
                                 match RHS shape'). The padding here is right; if it aborts, squeeze the size-1 axis.",
                            );
                        }
                        py.line(format!(
                            "x = lax.conv_transpose(x, w, strides={}, padding={}, rhs_dilation={}, dimension_numbers={}, transpose_kernel=True)",
                            tuple(&shape.stride),
                            transpose_padding(t),
                            tuple(&t.dilation),
                            dimension_numbers(n)
                        ));
                    }
                    Step::EmptyWindows { .. } => {
                        py.comment("A window with no input element: the source gives the lowest float, JAX -inf.");
                        py.line("x = jnp.where(x == -jnp.inf, jnp.finfo(x.dtype).min, x)");
                    }
                    Step::AddBias => {
                        py.line(format!("x = x if b is None else x + b.reshape(1, -1, {})", vec!["1"; n].join(", ")));
                        biased = true;
                    }
                    Step::Pool(p) if p.max => {
                        py.line(format!("x = {}", window("x", "-jnp.inf", "lax.max", p.geometry(), &window_padding(&p.padding))));
                    }
                    Step::Pool(p) => {
                        let geometry = p.geometry();
                        let pad = window_padding(&p.padding);
                        py.line(format!("total = {}", window("x", "0.0", "lax.add", geometry, &pad)));
                        if p.count_include_pad.unwrap_or(true) {
                            py.line(format!("x = total / {}", p.kernel.iter().product::<i64>()));
                        } else {
                            py.line(format!(
                                "x = total / {}",
                                window("jnp.ones_like(x[:1, :1])", "0.0", "lax.add", geometry, &pad)
                            ));
                        }
                    }
                    Step::AverageRatio(average) => {
                        let geometry = average.sum.geometry();
                        average_prologue(
                            py,
                            "x",
                            "jnp.ones_like(x[:1, :1])",
                            &ConstantPad { function: "jnp.pad", width: nchw_pad_width, value: "constant_values" },
                            average,
                        );
                        py.line(format!(
                            "x = {} / {}",
                            window("x", "0.0", "lax.add", geometry, "\"VALID\""),
                            window("mask", "0.0", "lax.add", geometry, "\"VALID\"")
                        ));
                    }
                }
            }
            if !op.is_pool() && !biased {
                py.line(format!("x = x if b is None else x + b.reshape(1, -1, {})", vec!["1"; n].join(", ")));
            }
            py.line("return x");
        });
        py
    }

    /// `def run_<name>(x, w, b)`: NCHW numpy in and out, torch-layout weights.
    fn runner(r: &Render<JaxPad>) -> Py {
        let op = r.op();
        r.runner_def(Some("import jax.numpy as jnp"), |py| {
            if op.is_pool() {
                py.line(format!("return np.asarray({}(jnp.asarray(x)))", r.name));
            } else {
                py.line(format!(
                    "return np.asarray({}(jnp.asarray(x), jnp.asarray({}), jnp.asarray(b)))",
                    r.name,
                    r.weight_expr("w")
                ));
            }
        })
    }
}

/// `lax`'s `padding`: `'VALID'`, `'SAME'`, `'SAME_LOWER'`, or `(before, after)` pairs (flax's
/// CAUSAL is written as its pairs, everything before).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JaxPad {
    Valid,
    Same,
    SameLower,
    Pairs(Vec<(i64, i64)>),
}

impl Spelling for JaxPad {
    type Target = Jax;
    fn spell(form: &Native, shape: &Shape) -> Option<JaxPad> {
        Some(match form {
            Native::Valid => JaxPad::Valid,
            Native::Same => JaxPad::Same,
            Native::SameLower => JaxPad::SameLower,
            Native::Causal => JaxPad::Pairs(
                shape
                    .effective_kernel()
                    .iter()
                    .map(|&k| (k - 1, 0))
                    .collect(),
            ),
            Native::Symmetric(_) | Native::Explicit(_) => JaxPad::Pairs(form.pairs()?),
        })
    }
}

/// `lax`'s dimension numbers for NCHW data and OIHW kernels of `n` spatial dimensions.
pub(crate) fn dimension_numbers(n: usize) -> String {
    let spatial = &"DHW"[3usize.saturating_sub(n).min(3)..];
    format!("(\"NC{spatial}\", \"OI{spatial}\", \"NC{spatial}\")")
}

/// The `padding` argument of a convolution: a string or per-dimension pairs.
pub(crate) fn padding_arg(padding: &JaxPad) -> String {
    match padding {
        JaxPad::Pairs(pairs) => pair_list(pairs),
        JaxPad::Same => "\"SAME\"".into(),
        JaxPad::SameLower => "\"SAME_LOWER\"".into(),
        JaxPad::Valid => "\"VALID\"".into(),
    }
}

/// The `padding` argument of `lax.reduce_window`: pairs cover the batch and channel axes too.
pub(crate) fn window_padding(padding: &JaxPad) -> String {
    match padding {
        JaxPad::Pairs(pairs) => nchw_pad_width(pairs),
        other => padding_arg(other),
    }
}

/// `jnp.pad` of the spatial axes of NCHW `x` by `pairs`, filled with `fill`.
pub(crate) fn pad_call(x: &str, pairs: &[(i64, i64)], fill: Fill) -> String {
    let pw = nchw_pad_width(pairs);
    match fill {
        Fill::Zero => format!("jnp.pad({x}, {pw})"),
        Fill::NegInf => format!("jnp.pad({x}, {pw}, constant_values=-jnp.inf)"),
        Fill::Reflect => format!("jnp.pad({x}, {pw}, mode=\"reflect\")"),
        Fill::Replicate => format!("jnp.pad({x}, {pw}, mode=\"edge\")"),
        Fill::Circular => format!("jnp.pad({x}, {pw}, mode=\"wrap\")"),
    }
}

/// A transposed convolution's `padding`: where the plan sizes the output itself (an output
/// padding or size to reach), lax's padding of the full output (keff-1, keff-1) — lax's own
/// 'VALID' is not it when the kernel is shorter than the stride —, else the step's.
pub(crate) fn transpose_padding(t: &TransposeStep<JaxPad>) -> String {
    if t.sizes_output() {
        let pairs: Vec<(i64, i64)> = t
            .kernel
            .iter()
            .zip(&t.dilation)
            .map(|(k, d)| (d * (k - 1), d * (k - 1)))
            .collect();
        pair_list(&pairs)
    } else {
        padding_arg(&t.padding)
    }
}

/// `lax.conv_transpose` of NCHW `x` by the torch-layout kernel `w` for a transposed
/// convolution step: the padding as [`transpose_padding`], the dilation written where it is
/// not 1, and NCHW stated (lax.conv_transpose defaults to channels last).
pub(crate) fn conv_transpose_call(
    x: &str,
    w: &str,
    stride: &[i64],
    t: &TransposeStep<JaxPad>,
) -> String {
    let dl = dilation_arg("rhs_dilation", &t.dilation, tuple(&t.dilation));
    format!(
        "lax.conv_transpose({x}, {w}, {}, {}{dl}, dimension_numbers={}, transpose_kernel=True)",
        tuple(stride),
        transpose_padding(t),
        dimension_numbers(stride.len())
    )
}

/// `lax.reduce_window` of `x`: `(kernel, stride, dilation)` (the dilation written only where
/// it is not 1) and the padding text.
pub(crate) fn reduce_window(
    x: &str,
    init: &str,
    f: &str,
    (kernel, stride, dilation): (&[i64], &[i64], &[i64]),
    padding: &str,
) -> String {
    let dl = dilation_arg(
        "window_dilation",
        dilation,
        format!("(1, 1, {})", join(dilation)),
    );
    format!(
        "lax.reduce_window({x}, {init}, {f}, (1, 1, {}), (1, 1, {}), {padding}{dl})",
        join(kernel),
        join(stride)
    )
}

/// A pooling of `x` in one expression: the window maximum, or the window sum over the counted
/// window (the whole window, or, without `count_include_pad`, the input elements in it).
pub(crate) fn pool_expr(
    x: &str,
    max: bool,
    count_include_pad: Option<bool>,
    geometry: (&[i64], &[i64], &[i64]),
    padding: &str,
) -> String {
    if max {
        reduce_window(x, "-jnp.inf", "lax.max", geometry, padding)
    } else if count_include_pad.unwrap_or(true) {
        format!(
            "{} / {}",
            reduce_window(x, "0.0", "lax.add", geometry, padding),
            geometry.0.iter().product::<i64>()
        )
    } else {
        format!(
            "{} / {}",
            reduce_window(x, "0.0", "lax.add", geometry, padding),
            reduce_window(
                &format!("jnp.ones_like({x}[:1, :1])"),
                "0.0",
                "lax.add",
                geometry,
                padding
            )
        )
    }
}
