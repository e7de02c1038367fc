//! A Keras summary's rows made a graph, and the layers behind them derived from its numbers.
//!
//! The table's output shapes are the truth for its rows. A row gives its type, its output shape
//! and its parameter count; with the shapes of what it reads, padlab derives what those numbers
//! decide — and only where they leave exactly one answer:
//!
//! - a convolution's kernel and bias from `params = k^n * C_in * filters + filters` (a square
//!   kernel assumed, and no dilation nor groups, stated on the row), then its strides and
//!   `'same'`/`'valid'` from the input and output sizes (the combinations that give the same
//!   windows and pads count as one);
//! - a pool's window, strides and padding the same way (rarely one answer);
//! - a dense layer's bias, a batch normalisation's axis and whether it centers and scales, an
//!   embedding's vocabulary, a reshape's target, a concatenation's axis, an upsampling's
//!   factors, a padding's amounts (the same on both sides assumed), global pools' `keepdims`.
//!
//! What does not act at inference is written at Keras's defaults and the row says so (a
//! dropout's rate, a random augmentation's factors, a batch normalisation's momentum).
//! Everything else that changes what a layer computes and that a summary cannot show is a
//! *missing fact*: an activation (an `Activation` layer's, or a layer's `activation=`, which
//! no row shows), a pool window the sizes do not decide, a `LeakyReLU`'s slope, a `Rescaling`'s
//! scale, a normalisation's epsilon, a custom layer's computation, a nested model's layers, the
//! input of a summary that does not show it. The table still shows every row (the derived
//! convolutions with their pads); the graph's notes list the missing facts, and a port refuses
//! with the first ([`Origin::Missing`]). When nothing is missing, the model's origin is Keras
//! code of the derived layers followed by assertions that it reproduces the table's parameter
//! count and every row's output shape — which a wrong derivation cannot pass.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use crate::core::{Dims, Framework, LayerSpec, Op as LayerOp, Padding, evaluate};
use crate::model::code::eval::{BATCH, Interp, Settings};
use crate::model::code::value::{LayerKind, Value};
use crate::model::code::{self, Options, ReadError};
use crate::model::graph::{Edge, Flag, Graph, Inferred, Node, NodeId, Shape, Source};
use crate::model::op::Op;
use crate::model::{Model, Origin, shape};

use super::error;
use super::summary::{Row, Table, count};

/// A shape as a summary prints it: `None` for the batch and any unknown size.
type Printed = Vec<Option<i64>>;

/// Per axis: the stride ranges that fit, and whether the stride is free there.
type AxisStrides = (Vec<(i64, Option<i64>)>, bool);

/// The largest stride or window searched when a size leaves it open (bounds the work on
/// hostile tables; no real layer comes near).
const MAX_SEARCH: i64 = 4096;

/// Keras classes a summary may show that are not layers padlab builds from code.
const MODEL_CLASSES: &[&str] = &["Sequential", "Functional", "Model"];

/// The class a row's type names: itself, or the one Keras class a cut type begins
/// (`Batch` -> `BatchNormalization`).
fn resolve(row: &Row) -> String {
    let known = || {
        code::layers::KERAS_LAYERS
            .iter()
            .chain(MODEL_CLASSES)
            .copied()
    };
    if !row.truncated || known().any(|k| k == row.class) {
        return row.class.clone();
    }
    let mut found = known().filter(|k| k.starts_with(row.class.as_str()));
    match (found.next(), found.next()) {
        (Some(k), None) => k.to_string(),
        _ => row.class.clone(),
    }
}

/// Parses a shape cell: `(None, 30, 30, 32)`, `[(None, 32, 32, 3)]`, several for several
/// outputs. `None` when it is not a shape.
fn shapes(cell: &str) -> Option<Vec<Printed>> {
    let mut out = Vec::new();
    let mut cur: Option<Printed> = None;
    let mut word = String::new();
    let flush = |word: &mut String, cur: &mut Option<Printed>| -> Option<()> {
        let w = word.trim();
        if !w.is_empty() {
            let v = match w {
                "None" | "?" => None,
                n => Some(n.parse::<i64>().ok()?),
            };
            cur.as_mut()?.push(v);
        }
        word.clear();
        Some(())
    };
    for c in cell.chars() {
        match c {
            '(' => {
                if cur.is_some() {
                    return None;
                }
                cur = Some(Vec::new());
            }
            ')' => {
                flush(&mut word, &mut cur)?;
                out.push(cur.take()?);
            }
            ',' => {
                if cur.is_some() {
                    flush(&mut word, &mut cur)?;
                }
            }
            '[' | ']' | ' ' => {}
            c => {
                cur.as_ref()?;
                word.push(c);
            }
        }
    }
    (cur.is_none() && !out.is_empty()).then_some(out)
}

/// A printed shape with every size known, batch first (the batch as traced).
fn full(p: &Printed) -> Option<Shape> {
    let mut v = vec![BATCH];
    for s in p.iter().skip(1) {
        v.push((*s)?);
    }
    Some(v)
}

/// `(None, 30, 30, 32)`; one item is `(x,)`.
fn show(p: &[Option<i64>]) -> String {
    let items: Vec<String> = p
        .iter()
        .map(|s| s.map_or("None".into(), |v| v.to_string()))
        .collect();
    if items.len() == 1 {
        format!("({},)", items[0])
    } else {
        format!("({})", items.join(", "))
    }
}

/// An integer `n`-th root, when exact.
fn root(q: i64, n: usize) -> Option<i64> {
    if q < 1 || n == 0 {
        return None;
    }
    let guess = (q as f64).powf(1.0 / n as f64).round() as i64;
    (guess.saturating_sub(1).max(1)..=guess.saturating_add(1))
        .find(|&k| (0..n).try_fold(1i64, |acc, _| acc.checked_mul(k)) == Some(q))
}

/// What a row became.
struct Derived {
    op: Op,
    /// The Keras constructor (`layers.Conv2D(32, 3, name="conv2d")`), when the layer is known
    /// up to missing facts.
    call: Option<String>,
    flags: Vec<Flag>,
    /// The facts a port needs that the summary does not give, in words.
    missing: Vec<String>,
}

impl Derived {
    fn opaque(class: &str, missing: String) -> Derived {
        Derived {
            op: Op::Opaque {
                what: format!("{class} (the summary does not say {missing})"),
            },
            call: None,
            flags: Vec::new(),
            missing: vec![missing],
        }
    }
}

/// Builds the op of a Keras constructor call through the code reader's vocabulary.
fn build(call: &str) -> Result<Op, String> {
    let src = format!("import keras\nfrom keras import layers\nlayer = {call}\n");
    let body = code::parser::parse(&src).map_err(|e| e.message)?;
    let mut it = Interp::new(&src, Settings::default());
    it.run_module(&body);
    if let Some(f) = it.top.iter().find_map(|t| t.failed.as_ref()) {
        return Err(f.message.clone());
    }
    match it.globals.get("layer") {
        Some(Value::Layer(l)) => match &l.kind {
            LayerKind::Op(op) | LayerKind::Merge(op) => Ok(op.clone()),
            LayerKind::Identity => Ok(Op::Identity),
            _ => Err(format!("{call} is not one operation")),
        },
        _ => Err(format!("{call} is not a layer")),
    }
}

/// The kind of windowed layer whose strides are searched.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Window {
    Conv,
    Transposed,
    Pool(LayerOp),
}

/// One way a windowed layer fits its sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fit {
    kernel: i64,
    strides: Vec<i64>,
    same: bool,
    /// Per axis (before, after): the pads (or crops) `core::evaluate` gives.
    pads: Vec<(i64, i64)>,
    /// Axes whose stride does not change the result (one window, or one input position).
    free: Vec<bool>,
}

impl Fit {
    /// What tells two fits apart: the window, the strides that matter, the pads.
    fn behaviour(&self) -> (i64, Vec<i64>, Vec<(i64, i64)>) {
        let strides = self
            .strides
            .iter()
            .zip(&self.free)
            .map(|(&s, &f)| if f { 0 } else { s })
            .collect();
        (self.kernel, strides, self.pads.clone())
    }

    fn describe(&self, what: &str) -> String {
        let strides = if self.strides.iter().all(|&s| s == self.strides[0]) {
            self.strides[0].to_string()
        } else {
            tuple(&self.strides)
        };
        format!(
            "{what} {} with strides {strides} and padding '{}'",
            self.kernel,
            if self.same { "same" } else { "valid" }
        )
    }
}

fn tuple(v: &[i64]) -> String {
    match v {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The strides (inclusive ranges, `None`: unbounded) that give `out` from `inp` on one axis,
/// and whether the stride is free there.
fn stride_ranges(w: Window, same: bool, inp: i64, out: i64, k: i64) -> AxisStrides {
    if inp < 1 || out < 1 || k < 1 {
        return (Vec::new(), false);
    }
    match w {
        Window::Conv | Window::Pool(_) => {
            if same {
                let lo = (inp + out - 1) / out;
                if out == 1 {
                    (vec![(lo.max(1), None)], true)
                } else {
                    let hi = (inp - 1) / (out - 1);
                    (
                        if lo <= hi {
                            vec![(lo, Some(hi))]
                        } else {
                            vec![]
                        },
                        false,
                    )
                }
            } else {
                let span = inp - k;
                if span < 0 {
                    return (Vec::new(), false);
                }
                if out == 1 {
                    (vec![(span + 1, None)], true)
                } else {
                    let (lo, hi) = (span / out + 1, span / (out - 1));
                    (
                        if lo <= hi {
                            vec![(lo, Some(hi))]
                        } else {
                            vec![]
                        },
                        false,
                    )
                }
            }
        }
        Window::Transposed => {
            if same {
                let v = if out % inp == 0 {
                    vec![(out / inp, Some(out / inp))]
                } else {
                    vec![]
                };
                (v, false)
            } else if inp == 1 {
                if out == k {
                    (vec![(1, Some(k))], true)
                } else if out > k {
                    (vec![(out, Some(out))], false)
                } else {
                    (Vec::new(), false)
                }
            } else {
                let mut v = Vec::new();
                if out >= k && (out - k) % (inp - 1) == 0 {
                    let s = (out - k) / (inp - 1);
                    if (1..=k).contains(&s) {
                        v.push((s, Some(s)));
                    }
                }
                if out % inp == 0 && out / inp > k {
                    v.push((out / inp, Some(out / inp)));
                }
                (v, false)
            }
        }
    }
}

/// Every distinct way (up to `limit`) a windowed layer of window `k` fits `x` to `y`.
fn fits(w: Window, x: &[i64], y: &[i64], k: i64, limit: usize, out: &mut Vec<Fit>) {
    for same in [false, true] {
        let per_axis: Vec<AxisStrides> = x
            .iter()
            .zip(y)
            .map(|(&i, &o)| stride_ranges(w, same, i, o, k))
            .collect();
        if per_axis.iter().any(|(r, _)| r.is_empty()) {
            continue;
        }
        // A stride another axis fixes, for the axes where it is free.
        let fixed = per_axis
            .iter()
            .find(|(r, f)| !f && r.len() == 1 && r[0].1 == Some(r[0].0))
            .map(|(r, _)| r[0].0);
        let options: Vec<Vec<i64>> = per_axis
            .iter()
            .map(|(ranges, free)| {
                if *free {
                    let (lo, hi) = ranges[0];
                    let pick = fixed
                        .filter(|s| *s >= lo && hi.is_none_or(|h| *s <= h))
                        .unwrap_or(lo);
                    vec![pick]
                } else {
                    ranges
                        .iter()
                        .flat_map(|&(lo, hi)| {
                            let hi = hi.unwrap_or(lo).min(lo.saturating_add(2));
                            lo..=hi
                        })
                        .take(3)
                        .collect()
                }
            })
            .collect();
        let frees: Vec<bool> = per_axis.iter().map(|(_, f)| *f).collect();
        let mut combo = vec![0usize; options.len()];
        loop {
            let strides: Vec<i64> = combo.iter().zip(&options).map(|(&i, o)| o[i]).collect();
            if let Some(fit) = confirm(w, x, y, k, &strides, same, &frees) {
                let b = fit.behaviour();
                if !out.iter().any(|f| f.behaviour() == b) {
                    out.push(fit);
                    if out.len() >= limit {
                        return;
                    }
                }
            }
            // Next combination.
            let mut i = 0;
            loop {
                if i == combo.len() {
                    break;
                }
                combo[i] += 1;
                if combo[i] < options[i].len() {
                    break;
                }
                combo[i] = 0;
                i += 1;
            }
            if i == combo.len() {
                break;
            }
        }
    }
}

/// A candidate checked through `core::evaluate` (Keras's own rules): its pads, when it gives `y`.
fn confirm(
    w: Window,
    x: &[i64],
    y: &[i64],
    k: i64,
    strides: &[i64],
    same: bool,
    free: &[bool],
) -> Option<Fit> {
    let op = match w {
        Window::Conv => LayerOp::Conv,
        Window::Transposed => LayerOp::ConvTranspose,
        Window::Pool(op) => op,
    };
    let mut spec = LayerSpec::new(op, Framework::Keras, x.to_vec(), Dims::All(k));
    spec.stride = Some(Dims::Each(strides.to_vec()));
    spec.padding = Some(if same { Padding::Same } else { Padding::Valid });
    let a = evaluate(&spec).ok()?;
    (a.output() == y).then(|| Fit {
        kernel: k,
        strides: strides.to_vec(),
        same,
        pads: a.axes.iter().map(|ax| (ax.before, ax.after)).collect(),
        free: free.to_vec(),
    })
}

/// `strides=2` or `strides=(2, 1)`; nothing for 1.
fn strides_arg(s: &[i64]) -> String {
    if s.iter().all(|&v| v == 1) {
        String::new()
    } else if s.iter().all(|&v| v == s[0]) {
        format!(", strides={}", s[0])
    } else {
        format!(", strides={}", tuple(s))
    }
}

/// The row's sizes: its input's and its own, without the batch, all known.
struct Sizes {
    x: Option<Vec<i64>>,
    y: Option<Vec<i64>>,
}

fn sample(p: Option<&Printed>) -> Option<Vec<i64>> {
    p.and_then(|p| p.get(1..)?.iter().copied().collect())
}

/// Derives the layer behind one row.
fn derive(
    row: &Row,
    class: &str,
    params: i64,
    inputs: &[Option<&Printed>],
    out: Option<&Printed>,
) -> Derived {
    let name = &row.name;
    let (family, rank) = code::layers::split_rank(class);
    let s = Sizes {
        x: sample(inputs.first().copied().flatten()),
        y: sample(out),
    };
    let no_input = || {
        format!(
            "the input sizes of `{name}`, which the rows before it do not give (a Sequential's summary does not show the model's input: give --input)"
        )
    };
    let with = |call: String, flags: Vec<Flag>, missing: Vec<String>| match build(&call) {
        Ok(op) => Derived {
            op,
            call: Some(call),
            flags,
            missing,
        },
        Err(e) => Derived::opaque(class, format!("how to build `{name}`: {e}")),
    };
    let activation =
        format!("which activation `{name}` applies (a {class}'s activation= is not in its row)");
    match (family.as_str(), rank) {
        ("conv" | "convtranspose" | "separableconv" | "depthwiseconv", Some(n)) => {
            let (Some(x), Some(y)) = (&s.x, &s.y) else {
                return Derived::opaque(class, no_input());
            };
            if x.len() != n + 1 || y.len() != n + 1 {
                return Derived::opaque(
                    class,
                    format!("how `{name}` maps {} to {}", x.len(), y.len()),
                );
            }
            let (c, f) = (x[n], y[n]);
            // Solve the parameter count for a square kernel and the bias.
            let mut sols: Vec<(i64, bool, i64)> = Vec::new();
            for bias in [true, false] {
                let (k, extra) = match family.as_str() {
                    "conv" | "convtranspose" => {
                        let rest = params - if bias { f } else { 0 };
                        let per = c.saturating_mul(f);
                        if per <= 0 || rest <= 0 || rest % per != 0 {
                            continue;
                        }
                        (root(rest / per, n), 0)
                    }
                    "separableconv" => {
                        // depthwise k^n * C (multiplier 1) + pointwise C * F + bias F
                        let rest = params - c.saturating_mul(f) - if bias { f } else { 0 };
                        if c <= 0 || rest <= 0 || rest % c != 0 {
                            continue;
                        }
                        (root(rest / c, n), 0)
                    }
                    _ => {
                        // depthwise: k^n * C * m + bias C * m, with C * m = F
                        if c <= 0 || f % c != 0 {
                            continue;
                        }
                        let rest = params - if bias { f } else { 0 };
                        if f <= 0 || rest <= 0 || rest % f != 0 {
                            continue;
                        }
                        (root(rest / f, n), f / c)
                    }
                };
                if let Some(k) = k {
                    sols.push((k, bias, extra));
                }
            }
            let window = if family == "convtranspose" {
                Window::Transposed
            } else {
                Window::Conv
            };
            let [(k, bias, multiplier)] = sols.as_slice() else {
                let why = if sols.is_empty() {
                    format!(
                        "the kernel of `{name}`: {params} parameters from {c} to {f} channels fit no square kernel (a non-square kernel, groups or a depth multiplier the summary does not show)"
                    )
                } else {
                    format!("the kernel and bias of `{name}`: {params} parameters fit several")
                };
                return Derived::opaque(class, why);
            };
            let mut found = Vec::new();
            fits(window, &x[..n], &y[..n], *k, 2, &mut found);
            let fit = match found.as_slice() {
                [one] => one.clone(),
                [] => {
                    return Derived::opaque(
                        class,
                        format!(
                            "the strides and padding of `{name}`: none with a {k}-wide kernel and no dilation gives {} from {}",
                            tuple(&y[..n]),
                            tuple(&x[..n])
                        ),
                    );
                }
                [a, b, ..] => {
                    return Derived::opaque(
                        class,
                        format!(
                            "the strides and padding of `{name}`: {} and {} both give {} from {}",
                            a.describe("kernel"),
                            b.describe("kernel"),
                            tuple(&y[..n]),
                            tuple(&x[..n])
                        ),
                    );
                }
            };
            let pad = if fit.same { "same" } else { "valid" };
            let bias_arg = if *bias { "" } else { ", use_bias=False" };
            let call = match family.as_str() {
                "depthwiseconv" => format!(
                    "layers.{class}({k}{}, padding=\"{pad}\"{}{bias_arg}, name={name:?})",
                    strides_arg(&fit.strides),
                    if *multiplier == 1 {
                        String::new()
                    } else {
                        format!(", depth_multiplier={multiplier}")
                    }
                ),
                _ => format!(
                    "layers.{class}({f}, {k}{}, padding=\"{pad}\"{bias_arg}, name={name:?})",
                    strides_arg(&fit.strides)
                ),
            };
            let mut flags = Vec::new();
            if n > 1 {
                flags.push(Flag::Assumed("a square kernel".into()));
            }
            flags.push(Flag::Assumed(match family.as_str() {
                "conv" => "no dilation and one group: a summary does not show them".into(),
                "separableconv" => {
                    "no dilation and a depth multiplier of 1: a summary does not show them".into()
                }
                "convtranspose" => {
                    "no dilation and no output_padding: a summary does not show them".into()
                }
                _ => "no dilation: a summary does not show it".into(),
            }));
            with(call, flags, vec![activation])
        }
        ("maxpooling" | "averagepooling", Some(n)) => {
            let (Some(x), Some(y)) = (&s.x, &s.y) else {
                return Derived::opaque(class, no_input());
            };
            if x.len() != n + 1 || y.len() != n + 1 {
                return Derived::opaque(class, format!("how `{name}` pools"));
            }
            let op = if family == "maxpooling" {
                LayerOp::MaxPool
            } else {
                LayerOp::AvgPool
            };
            let mut found = Vec::new();
            let most = x[..n]
                .iter()
                .copied()
                .max()
                .unwrap_or(1)
                .clamp(1, MAX_SEARCH);
            for p in 1..=most {
                fits(Window::Pool(op), &x[..n], &y[..n], p, 2, &mut found);
                if found.len() >= 2 {
                    break;
                }
            }
            match found.as_slice() {
                [fit] => {
                    let pad = if fit.same { "same" } else { "valid" };
                    let call = format!(
                        "layers.{class}({}, strides={}, padding=\"{pad}\", name={name:?})",
                        fit.kernel,
                        if fit.strides.iter().all(|&v| v == fit.strides[0]) {
                            fit.strides[0].to_string()
                        } else {
                            tuple(&fit.strides)
                        }
                    );
                    let flags = if n > 1 {
                        vec![Flag::Assumed("a square pool window".into())]
                    } else {
                        vec![]
                    };
                    with(call, flags, vec![])
                }
                [] => Derived::opaque(
                    class,
                    format!(
                        "the pool size of `{name}`: no window, strides and padding give {} from {}",
                        tuple(&y[..n]),
                        tuple(&x[..n])
                    ),
                ),
                [a, b, ..] => Derived::opaque(
                    class,
                    format!(
                        "the pool size of `{name}` ({} and {} both give {} from {})",
                        a.describe("pool"),
                        b.describe("pool"),
                        tuple(&y[..n]),
                        tuple(&x[..n])
                    ),
                ),
            }
        }
        ("globalaveragepooling" | "globalmaxpooling", Some(_)) => {
            let keepdims = match (&s.x, &s.y) {
                (Some(x), Some(y)) => x.len() == y.len(),
                _ => out.is_some_and(|o| o.len() > 2),
            };
            let arg = if keepdims { ", keepdims=True" } else { "" };
            with(
                format!("layers.{class}(name={name:?}{arg})"),
                vec![],
                vec![],
            )
        }
        ("dense", None) => {
            let (Some(x), Some(y)) = (&s.x, &s.y) else {
                return Derived::opaque(class, no_input());
            };
            let (Some(&i), Some(&u)) = (x.last(), y.last()) else {
                return Derived::opaque(class, format!("the units of `{name}`"));
            };
            let w = i.saturating_mul(u);
            let bias = if params == w.saturating_add(u) {
                true
            } else if params == w {
                false
            } else {
                return Derived::opaque(
                    class,
                    format!(
                        "what `{name}` is: {params} parameters are not {i} x {u} weights and a bias"
                    ),
                );
            };
            let bias_arg = if bias { "" } else { ", use_bias=False" };
            with(
                format!("layers.Dense({u}{bias_arg}, name={name:?})"),
                vec![],
                vec![activation],
            )
        }
        ("batchnormalization", None) => {
            let Some(y) = &s.y else {
                return Derived::opaque(class, format!("the sizes of `{name}`"));
            };
            let mut cands: Vec<(usize, i64)> = Vec::new();
            for (a, &size) in y.iter().enumerate() {
                if size > 0 && params % size == 0 && (2..=4).contains(&(params / size)) {
                    cands.push((a + 1, params / size));
                }
            }
            let axes: Vec<usize> = cands.iter().map(|c| c.0).collect();
            let (axis, per) = match cands.as_slice() {
                [one] => *one,
                [] => {
                    return Derived::opaque(
                        class,
                        format!(
                            "which axis `{name}` normalises: {params} parameters are not 2 to 4 per size of {}",
                            show(out.unwrap_or(&vec![]))
                        ),
                    );
                }
                _ => {
                    return Derived::opaque(
                        class,
                        format!(
                            "which axis `{name}` normalises: axes {axes:?} of {} fit its {params} parameters",
                            show(out.unwrap_or(&vec![]))
                        ),
                    );
                }
            };
            let (center, scale) = match per {
                4 => (true, true),
                2 => (false, false),
                _ => {
                    return Derived::opaque(
                        class,
                        format!(
                            "whether `{name}` centers or scales (3 parameters per feature: one of the two)"
                        ),
                    );
                }
            };
            let axis_arg = if axis == y.len() {
                String::new()
            } else {
                format!("axis={axis}, ")
            };
            let cs = match (center, scale) {
                (true, true) => String::new(),
                _ => "center=False, scale=False, ".into(),
            };
            let mut flags = vec![Flag::Assumed(
                "momentum at Keras's default: it acts only in training".into(),
            )];
            if axis != y.len() {
                flags.push(Flag::Assumed(format!(
                    "axis={axis}: the only axis whose size fits its {params} parameters"
                )));
            }
            with(
                format!("layers.BatchNormalization({axis_arg}{cs}name={name:?})"),
                flags,
                vec![format!(
                    "the epsilon of `{name}` (it changes the outputs, and no row shows it)"
                )],
            )
        }
        (
            "dropout" | "spatialdropout" | "gaussiandropout" | "alphadropout" | "gaussiannoise",
            _,
        ) => {
            let arg = if family == "gaussiannoise" {
                "0.1"
            } else {
                "0.5"
            };
            with(
                format!("layers.{class}({arg}, name={name:?})"),
                vec![Flag::Assumed(format!(
                    "{}={arg}: it acts only in training, and a summary does not show it",
                    if family == "gaussiannoise" {
                        "stddev"
                    } else {
                        "rate"
                    }
                ))],
                vec![],
            )
        }
        (
            "randomflip" | "randomrotation" | "randomzoom" | "randomcontrast" | "randomtranslation"
            | "randombrightness",
            None,
        ) => {
            let args = match family.as_str() {
                "randomflip" => "",
                "randomtranslation" => "0.1, 0.1, ",
                _ => "0.1, ",
            };
            with(
                format!("layers.{class}({args}name={name:?})"),
                vec![Flag::Assumed(
                    "its factors written at 0.1: a random augmentation acts only in training, and a summary does not show them".into(),
                )],
                vec![],
            )
        }
        ("flatten", None) => with(format!("layers.Flatten(name={name:?})"), vec![], vec![]),
        ("reshape", None) => {
            let Some(y) = &s.y else {
                return Derived::opaque(class, format!("the target shape of `{name}`"));
            };
            with(
                format!("layers.Reshape({}, name={name:?})", tuple(y)),
                vec![],
                vec![],
            )
        }
        ("permute", None) => {
            let (Some(x), Some(y)) = (&s.x, &s.y) else {
                return Derived::opaque(class, format!("the order of `{name}`"));
            };
            let mut found: Vec<Vec<usize>> = Vec::new();
            permutations(x.len(), &mut |p| {
                if p.iter().enumerate().all(|(i, &a)| y.get(i) == x.get(a)) {
                    found.push(p.to_vec());
                }
                found.len() < 2
            });
            match found.as_slice() {
                [p] => {
                    let dims: Vec<i64> = p.iter().map(|&a| a as i64 + 1).collect();
                    with(
                        format!("layers.Permute({}, name={name:?})", tuple(&dims)),
                        vec![],
                        vec![],
                    )
                }
                _ => Derived::opaque(
                    class,
                    format!("the order of `{name}` (sizes that repeat leave it open)"),
                ),
            }
        }
        ("upsampling", Some(n)) => {
            let (Some(x), Some(y)) = (&s.x, &s.y) else {
                return Derived::opaque(class, no_input());
            };
            let sizes: Option<Vec<i64>> = (0..n)
                .map(|a| {
                    let (i, o) = (*x.get(a)?, *y.get(a)?);
                    (i > 0 && o % i == 0).then_some(o / i)
                })
                .collect();
            let Some(sizes) = sizes else {
                return Derived::opaque(class, format!("the factors of `{name}`"));
            };
            let call = format!("layers.{class}({}, name={name:?})", tuple(&sizes));
            let missing = if n == 2 {
                vec![format!(
                    "the interpolation of `{name}` ('nearest' or 'bilinear': no row shows it)"
                )]
            } else {
                vec![]
            };
            with(call, vec![], missing)
        }
        ("zeropadding" | "cropping", Some(n)) => {
            let (Some(x), Some(y)) = (&s.x, &s.y) else {
                return Derived::opaque(class, no_input());
            };
            let mut pairs = Vec::new();
            for a in 0..n {
                let (Some(&i), Some(&o)) = (x.get(a), y.get(a)) else {
                    return Derived::opaque(class, format!("the amounts of `{name}`"));
                };
                let total = if family == "zeropadding" {
                    o - i
                } else {
                    i - o
                };
                if total < 0 || total % 2 != 0 {
                    return Derived::opaque(
                        class,
                        format!(
                            "how `{name}` splits {total} rows or columns between the two sides of axis {}",
                            a + 1
                        ),
                    );
                }
                pairs.push(total / 2);
            }
            with(
                format!("layers.{class}({}, name={name:?})", tuple(&pairs)),
                vec![Flag::Assumed(
                    "the same amount on both sides of each axis".into(),
                )],
                vec![],
            )
        }
        ("add" | "subtract" | "multiply" | "maximum" | "minimum" | "average", None) => {
            with(format!("layers.{class}(name={name:?})"), vec![], vec![])
        }
        ("concatenate", None) => {
            let (Some(y), ins) = (
                &s.y,
                inputs
                    .iter()
                    .map(|p| sample(*p))
                    .collect::<Option<Vec<Vec<i64>>>>(),
            ) else {
                return Derived::opaque(class, format!("the axis of `{name}`"));
            };
            let Some(ins) = ins else {
                return Derived::opaque(class, no_input());
            };
            let axes: Vec<usize> = (0..y.len())
                .filter(|&a| {
                    ins.iter().all(|v| v.len() == y.len())
                        && ins.iter().map(|v| v[a]).sum::<i64>() == y[a]
                        && (0..y.len()).all(|b| b == a || ins.iter().all(|v| v[b] == y[b]))
                })
                .collect();
            match axes.as_slice() {
                [a] => {
                    let arg = if *a + 1 == y.len() {
                        String::new()
                    } else {
                        format!("axis={}, ", a + 1)
                    };
                    with(
                        format!("layers.Concatenate({arg}name={name:?})"),
                        vec![],
                        vec![],
                    )
                }
                _ => Derived::opaque(class, format!("the axis of `{name}`")),
            }
        }
        ("embedding", None) => {
            let Some(d) = s.y.as_ref().and_then(|y| y.last().copied()) else {
                return Derived::opaque(class, format!("the sizes of `{name}`"));
            };
            if d <= 0 || params % d != 0 {
                return Derived::opaque(class, format!("the vocabulary of `{name}`"));
            }
            with(
                format!("layers.Embedding({}, {d}, name={name:?})", params / d),
                vec![],
                vec![],
            )
        }
        ("activation", None) => {
            Derived::opaque(class, format!("which activation `{name}` applies"))
        }
        ("relu", None) => Derived::opaque(
            class,
            format!(
                "whether `{name}` caps or leaks (a ReLU's max_value, negative_slope and threshold)"
            ),
        ),
        ("leakyrelu", None) => Derived::opaque(class, format!("the negative slope of `{name}`")),
        ("elu", None) => Derived::opaque(class, format!("the alpha of `{name}`")),
        ("softmax", None) => Derived::opaque(class, format!("the axis of `{name}`")),
        ("rescaling", None) => Derived::opaque(class, format!("the scale and offset of `{name}`")),
        ("layernormalization" | "groupnormalization", None) => {
            Derived::opaque(class, format!("the axes and epsilon of `{name}`"))
        }
        ("resizing", None) => Derived::opaque(class, format!("the interpolation of `{name}`")),
        ("sequential" | "functional" | "model", None) => Derived::opaque(
            class,
            format!("the layers of `{name}`: a summary shows a nested model as one row"),
        ),
        _ => Derived::opaque(
            class,
            format!(
                "what `{name}` ({class}) computes: it is not a Keras layer padlab knows, and a summary shows only its name"
            ),
        ),
    }
}

/// Calls `f` with every permutation of `0..n` (n at most 6) until it returns false.
fn permutations(n: usize, f: &mut dyn FnMut(&[usize]) -> bool) {
    fn go(
        p: &mut Vec<usize>,
        used: &mut Vec<bool>,
        n: usize,
        f: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if p.len() == n {
            return f(p);
        }
        for i in 0..n {
            if !used[i] {
                used[i] = true;
                p.push(i);
                let go_on = go(p, used, n, f);
                p.pop();
                used[i] = false;
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
    if n <= 6 {
        go(&mut Vec::new(), &mut vec![false; n], n, f);
    }
}

/// A Python identifier for a layer's output (its name where it is one).
fn variable(name: &str, used: &mut HashSet<String>) -> String {
    let mut v: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if v.is_empty() || v.starts_with(|c: char| c.is_ascii_digit()) {
        v.insert(0, '_');
    }
    const RESERVED: &[&str] = &[
        "keras", "layers", "model", "np", "name", "shape", "got", "and", "as", "assert", "class",
        "def", "del", "for", "from", "if", "import", "in", "is", "lambda", "not", "or", "pass",
        "return", "while", "with", "None", "True", "False", "global", "try", "raise", "yield",
    ];
    while RESERVED.contains(&v.as_str()) || used.contains(&v) {
        v.push('_');
    }
    used.insert(v.clone());
    v
}

/// Reads a parsed summary into a model.
pub fn read(table: &Table, options: &Options) -> Result<Model, ReadError> {
    let title = table.title.clone().unwrap_or_else(|| "model".into());
    let mut g = Graph::new(Framework::Keras, title.clone());
    let mut by_name: HashMap<String, NodeId> = HashMap::new();
    // The same, sorted: a name the table cut is looked up as a prefix.
    let mut earlier: std::collections::BTreeMap<String, NodeId> = Default::default();
    let mut printed: Vec<Option<Printed>> = Vec::new();
    let mut missing: Vec<(usize, String)> = Vec::new();
    let mut mismatches: Vec<String> = Vec::new();
    let mut calls: Vec<(NodeId, String)> = Vec::new();
    let mut input_note: Option<String> = None;
    let given = options.input.clone();
    let mut rows_total = 0i64;
    let mut last: Option<NodeId> = None;
    for row in &table.rows {
        let class = resolve(row);
        let params = count(&row.params).ok_or_else(|| {
            error(
                row.line,
                format!(
                    "cannot read `{}` as `{}`'s parameter count",
                    row.params, row.name
                ),
            )
        })?;
        rows_total = rows_total.saturating_add(params);
        let outs = shapes(&row.shape).ok_or_else(|| {
            error(
                row.line,
                format!(
                    "cannot read `{}` as `{}`'s output shape",
                    row.shape, row.name
                ),
            )
        })?;
        if by_name.contains_key(&row.name) {
            return Err(error(
                row.line,
                format!("two rows are named `{}`", row.name),
            ));
        }
        let source = Source {
            line: row.line,
            text: row.text.clone(),
            call_line: None,
        };
        if class == "InputLayer" {
            let p = outs[0].clone();
            if let (Some(given), Some(s)) = (&given, sample(Some(&p)))
                && *given != s
            {
                input_note = Some(format!(
                    "line {}: the summary's input is {}: padlab reads the table, not --input {}",
                    row.line,
                    show(&p),
                    given
                        .iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join("x")
                ));
            }
            let id = g.push(Node {
                op: Op::Input,
                inputs: vec![],
                name: row.name.clone(),
                kind: "InputLayer".into(),
                source,
                shares: None,
                inferred: Inferred {
                    outputs: vec![full(&p)],
                    ..Inferred::default()
                },
            });
            printed.push(Some(p));
            by_name.insert(row.name.clone(), id);
            earlier.insert(row.name.clone(), id);
            last = Some(id);
            calls.push((id, String::new()));
            continue;
        }
        // What the row reads.
        let inputs: Vec<Edge> = if table.connected {
            let mut v = Vec::new();
            for inb in &row.inbound {
                let id = if inb.cut {
                    let mut m = earlier
                        .range(inb.name.clone()..)
                        .take_while(|(k, _)| k.starts_with(&inb.name))
                        .map(|(_, id)| id);
                    match (m.next(), m.next()) {
                        (Some(id), None) => *id,
                        _ => {
                            return Err(error(
                                row.line,
                                format!(
                                    "`{}` reads `{}…`, which the table cut: no single earlier row's name begins so",
                                    row.name, inb.name
                                ),
                            ));
                        }
                    }
                } else {
                    *by_name.get(&inb.name).ok_or_else(|| {
                        error(
                            row.line,
                            format!(
                                "`{}` reads `{}`, which is not a row above it",
                                row.name, inb.name
                            ),
                        )
                    })?
                };
                v.push(Edge {
                    node: id,
                    output: inb.tensor,
                });
            }
            v
        } else {
            let prev = match last {
                Some(id) => id,
                None => {
                    // A Sequential's input: not in its summary.
                    let p: Option<Printed> = given.as_ref().map(|s| {
                        std::iter::once(None)
                            .chain(s.iter().map(|&v| Some(v)))
                            .collect()
                    });
                    let id = g.push(Node {
                        op: Op::Input,
                        inputs: vec![],
                        name: "input_layer".into(),
                        kind: "InputLayer".into(),
                        source: Source {
                            line: table.line,
                            text: "the model's input (not in its summary)".into(),
                            call_line: None,
                        },
                        shares: None,
                        inferred: Inferred {
                            outputs: vec![p.as_ref().and_then(full)],
                            ..Inferred::default()
                        },
                    });
                    printed.push(p);
                    calls.push((id, String::new()));
                    id
                }
            };
            vec![Edge::of(prev)]
        };
        if inputs.is_empty() {
            return Err(error(
                row.line,
                format!("`{}` reads nothing: only an InputLayer row may", row.name),
            ));
        }
        let in_printed: Vec<Option<&Printed>> = inputs
            .iter()
            .map(|e| printed.get(e.node.0).and_then(|p| p.as_ref()))
            .collect();
        let d = derive(row, &class, params, &in_printed, outs.first());
        let out_full: Vec<Option<Shape>> = outs.iter().map(full).collect();
        let mut inferred = match &d.op {
            Op::Opaque { .. } => Inferred::default(),
            op => {
                let in_shapes: Vec<Option<Shape>> =
                    in_printed.iter().map(|p| p.and_then(full)).collect();
                let refs: Vec<Option<&Shape>> = in_shapes.iter().map(Option::as_ref).collect();
                let mut inf = shape::infer(op, Framework::Keras, &refs);
                let computed = inf.outputs.first().cloned().flatten();
                if inf.error.is_none()
                    && let (Some(c), Some(want)) = (&computed, out_full.first().cloned().flatten())
                    && *c != want
                {
                    let said = show(&outs[0]);
                    let gives = show(
                        &std::iter::once(None)
                            .chain(c.iter().skip(1).map(|&v| Some(v)))
                            .collect::<Vec<_>>(),
                    );
                    inf.error = Some(format!(
                        "the summary says {said}; the layer derived from its numbers gives {gives}"
                    ));
                    mismatches.push(row.name.clone());
                }
                inf
            }
        };
        inferred.outputs = out_full;
        inferred.flags.extend(d.flags);
        let id = g.push(Node {
            op: d.op,
            inputs,
            name: row.name.clone(),
            kind: class.clone(),
            source,
            shares: None,
            inferred,
        });
        for m in d.missing {
            missing.push((row.line, m));
        }
        calls.push((id, d.call.unwrap_or_default()));
        printed.push(outs.into_iter().next());
        by_name.insert(row.name.clone(), id);
        earlier.insert(row.name.clone(), id);
        last = Some(id);
    }
    // Outputs: the rows no other row reads (a summary does not list them).
    let consumers = g.consumers();
    g.outputs = (0..g.nodes.len())
        .filter(|&i| consumers[i].is_empty() && !matches!(g.nodes[i].op, Op::Input))
        .map(|i| Edge::of(NodeId(i)))
        .collect();
    g.check().map_err(|m| error(table.line, m.to_string()))?;
    let mut notes = vec![format!(
        "Read from a Keras model.summary() table: each row's output shape is the table's own; the layers behind the rows were derived from its numbers where they leave one answer, each assumption stated on its row{}.",
        if table.connected {
            ""
        } else {
            " (a Sequential: each row reads the one above)"
        }
    )];
    if g.outputs.len() > 1 {
        let names: Vec<&str> = g
            .outputs
            .iter()
            .map(|e| g.node(e.node).name.as_str())
            .collect();
        notes.push(format!(
            "The outputs are taken to be the rows no other row reads ({}): a summary does not list a model's outputs.",
            names.join(", ")
        ));
    }
    notes.extend(input_note);
    for (line, m) in &missing {
        notes.push(format!("line {line}: the summary does not say {m}"));
    }
    if !mismatches.is_empty() {
        notes.push(format!(
            "The layers derived for {} do not give the table's shapes (see their rows).",
            mismatches.join(", ")
        ));
    }
    g.notes = notes;
    let input = g
        .inputs()
        .next()
        .and_then(|(_, n)| n.shape().map(|s| s[1..].to_vec()))
        .or(given);
    let params = table.total.or(Some(rows_total));
    let origin = match missing.first() {
        Some((line, m)) => Origin::Missing {
            line: *line,
            what: format!("the summary does not say {m}"),
        },
        None if !mismatches.is_empty() => Origin::Missing {
            line: table.line,
            what: format!(
                "the layers derived for {} do not give the summary's shapes",
                mismatches.join(", ")
            ),
        },
        None => Origin::Code {
            code: keras_code(&g, &calls, &printed, &title, params),
            build: "model".into(),
            defined: Vec::new(),
            zoos: Vec::new(),
        },
    };
    Ok(Model {
        graph: g,
        input,
        origin,
        others: Vec::new(),
        params,
    })
}

/// Keras code of the derived model, then the table's numbers asserted.
fn keras_code(
    g: &Graph,
    calls: &[(NodeId, String)],
    printed: &[Option<Printed>],
    title: &str,
    params: Option<i64>,
) -> String {
    let mut used = HashSet::new();
    let vars: Vec<String> = g
        .nodes
        .iter()
        .map(|n| variable(&n.name, &mut used))
        .collect();
    let mut py = String::new();
    let _ = writeln!(
        py,
        "# `{title}` rebuilt from its model.summary(): each layer as the table's numbers decide it\n# (the assumptions are stated on padlab's rows); the assertions below are the table's own numbers."
    );
    py.push_str("import keras\nfrom keras import layers\n\n");
    for (i, n) in g.nodes.iter().enumerate() {
        let v = &vars[i];
        if matches!(n.op, Op::Input) {
            let shape = printed
                .get(i)
                .and_then(|p| p.as_ref())
                .map(|p| show(p.get(1..).unwrap_or_default()))
                .unwrap_or_else(|| "()".into());
            let _ = writeln!(py, "{v} = keras.Input(shape={shape}, name={:?})", n.name);
            continue;
        }
        // One call per node, in node order.
        let call = calls
            .get(i)
            .filter(|(id, _)| id.0 == i)
            .map(|(_, c)| c.as_str())
            .unwrap_or("");
        let args: Vec<&str> = n.inputs.iter().map(|e| vars[e.node.0].as_str()).collect();
        let arg = if args.len() == 1 && !matches!(n.op, Op::Elementwise { .. } | Op::Concat { .. })
        {
            args[0].to_string()
        } else {
            format!("[{}]", args.join(", "))
        };
        let _ = writeln!(py, "{v} = {call}({arg})  # line {}", n.source.line);
    }
    let ins: Vec<&str> = g.inputs().map(|(id, _)| vars[id.0].as_str()).collect();
    let outs: Vec<&str> = g.outputs.iter().map(|e| vars[e.node.0].as_str()).collect();
    let list = |v: &[&str]| match v {
        [one] => one.to_string(),
        _ => format!("[{}]", v.join(", ")),
    };
    let _ = writeln!(
        py,
        "model = keras.Model({}, {}, name={title:?})\n",
        list(&ins),
        list(&outs)
    );
    py.push_str("# The summary's numbers: a wrong derivation cannot give them all.\n");
    if let Some(p) = params {
        let _ = writeln!(
            py,
            "assert model.count_params() == {p}, f\"the derived model has {{model.count_params()}} parameters; the summary {p}\""
        );
    }
    py.push_str("for name, shape in [\n");
    for (i, n) in g.nodes.iter().enumerate() {
        if matches!(n.op, Op::Input) {
            continue;
        }
        if let Some(p) = printed.get(i).and_then(|p| p.as_ref()) {
            let _ = writeln!(py, "    ({:?}, {}),", n.name, show(p));
        }
    }
    py.push_str("]:\n    got = tuple(model.get_layer(name).output.shape)\n    assert got == shape, f\"{name}: the derived layer gives {got}; the summary {shape}\"\n");
    py
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_cells() {
        assert_eq!(
            shapes("(None, 30, 30, 32)"),
            Some(vec![vec![None, Some(30), Some(30), Some(32)]])
        );
        assert_eq!(
            shapes("[(None, 32, 32, 3)]"),
            Some(vec![vec![None, Some(32), Some(32), Some(3)]])
        );
        assert_eq!(shapes("[(None, 2), (None, 2)]").map(|v| v.len()), Some(2));
        assert_eq!(shapes("(None, 2"), None);
        assert_eq!(shapes("multiple"), None);
    }

    #[test]
    fn roots_and_strides() {
        assert_eq!(root(9, 2), Some(3));
        assert_eq!(root(27, 3), Some(3));
        assert_eq!(root(8, 2), None);
        assert_eq!(root(1, 2), Some(1));
        // 150 -> 75 with a 3-wide kernel: only stride 2 'same'.
        let mut f = Vec::new();
        fits(Window::Conv, &[150, 150], &[75, 75], 3, 4, &mut f);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].strides.clone(), f[0].same), (vec![2, 2], true));
        // 1x1 at stride 1: 'valid' and 'same' are the same layer.
        let mut f = Vec::new();
        fits(Window::Conv, &[9, 9], &[9, 9], 1, 4, &mut f);
        assert_eq!(f.len(), 1);
        // Transposed 'same' doubling.
        let mut f = Vec::new();
        fits(Window::Transposed, &[7, 7], &[14, 14], 5, 4, &mut f);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].strides.clone(), f[0].same), (vec![2, 2], true));
    }
}
