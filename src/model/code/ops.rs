//! Operations on symbolic tensors: arithmetic (`x + y`, `x * 0.5`), indexing (`x[:, :, 1:]`),
//! and the tensor methods model code calls (`view`, `flatten`, `permute`, `size`, `mean`,
//! `chunk`...). Each records a graph node (or, for `size()` and `shape`, answers from the
//! tensor's shape); no-ops (`contiguous`, `to`, `detach`) return the tensor itself.

use std::rc::Rc;

use crate::core::Framework;
use crate::model::op::{Activation, Binary, LearnedOp, Op, Reduce, SliceAxis, WeightAt};

use super::ast::{BinOp, Expr};
use super::builtins::{as_float, as_int};
use super::eval::{BATCH, Ev, Interp, Site, no_attribute, raise, unsupported};
use super::layers::{outputs_value, tensor_of};
use super::value::{Args, Tensor, Value, Weight};

/// The name a framework gives an element-wise op (torch `add`, Keras `add`/`multiply`).
fn binary_name(op: Binary, fw: Framework) -> &'static str {
    match (op, fw == Framework::Torch) {
        (Binary::Add, _) => "add",
        (Binary::Sub, true) => "sub",
        (Binary::Sub, false) => "subtract",
        (Binary::Mul, true) => "mul",
        (Binary::Mul, false) => "multiply",
        (Binary::Div, true) => "div",
        (Binary::Div, false) => "true_divide",
        (Binary::Pow, true) => "pow",
        (Binary::Pow, false) => "power",
        (Binary::Max, _) => "maximum",
        (Binary::Min, _) => "minimum",
    }
}

fn site_of(it: &Interp, e: &Expr) -> Site {
    it.site(e)
}

/// `a op b` where one side is a tensor.
pub fn tensor_binary(
    it: &mut Interp,
    op: BinOp,
    a: Value,
    b: Value,
    line: usize,
    e: &Expr,
) -> Ev<Value> {
    let site = site_of(it, e);
    tensor_binary_at(it, op, a, b, line, &site)
}

/// [`tensor_binary`] at a call's site (Python's `sum()` adding tensors).
pub fn tensor_binary_at(
    it: &mut Interp,
    op: BinOp,
    a: Value,
    b: Value,
    line: usize,
    site: &Site,
) -> Ev<Value> {
    let site = site.clone();
    if op == BinOp::MatMul {
        match (&a, &b) {
            (Value::Tensor(t), Value::Weight(w)) => {
                return with_weight(it, t, w, true, "matmul", &site);
            }
            (Value::Weight(_), _) => {
                return Err(unsupported(
                    line,
                    format!(
                        "`{}`: a weight times a tensor is not translated by padlab",
                        super::eval::short(&site.text)
                    ),
                ));
            }
            _ => {}
        }
    }
    if op == BinOp::MatMul {
        let (x, y) = (tensor_of(&a, line)?, tensor_of(&b, line)?);
        let fw = x.framework;
        let out = it.record(
            Op::MatMul,
            "matmul",
            &[x, y],
            fw,
            &site,
            None,
            Some("matmul"),
        )?;
        return Ok(outputs_value(out));
    }
    let Some(bin) = super::layers::binary_of(op) else {
        return Err(unsupported(
            line,
            format!(
                "the operator {} on a tensor is not translated by padlab",
                op.symbol()
            ),
        ));
    };
    elementwise(it, bin, a, b, &site)
}

/// A tensor with a weight a custom layer makes itself (`x * self.gamma`, `x @ self.w`): read
/// for its shape, which must be the framework's (the weight broadcasts into the tensor, or its
/// first axis is the tensor's last), refused by the port.
pub fn with_weight(
    it: &mut Interp,
    t: &Rc<Tensor>,
    w: &super::value::Weight,
    matmul: bool,
    kind: &str,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let what = format!(
        "`{}` (a weight {} makes itself, add_weight)",
        super::eval::short(&site.text),
        w.owner
    );
    let shape = match &t.shape {
        None => None,
        Some(s) if matmul => match (s.last(), w.shape.as_slice()) {
            (Some(&k), [rows, cols]) if k == *rows => {
                let mut out = s[..s.len() - 1].to_vec();
                out.push(*cols);
                Some(out)
            }
            _ => {
                return Err(raise(
                    line,
                    "ValueError",
                    format!(
                        "matmul of shapes {s:?} and {:?}: the last axis must match the weight's first",
                        w.shape
                    ),
                ));
            }
        },
        Some(s) => {
            let fits = w.shape.len() <= s.len()
                && w.shape
                    .iter()
                    .rev()
                    .zip(s.iter().rev())
                    .all(|(&a, &b)| a == 1 || a == b);
            if !fits {
                return Err(unsupported(
                    line,
                    format!(
                        "{what}: a weight of shape {:?} that does not broadcast into the tensor's {s:?} is not translated by padlab",
                        w.shape
                    ),
                ));
            }
            Some(s.clone())
        }
    };
    let out = it.record_opaque(what, kind, t, shape, site)?;
    Ok(Value::Tensor(out))
}

/// A weight seen another way (`gamma[:, None, None]`): slices that keep an axis whole and
/// `None`s that add one; anything that picks elements is not a view padlab follows.
pub fn weight_index(it: &mut Interp, w: &Rc<Weight>, i: &Value, line: usize) -> Ev<Value> {
    let parts = match i {
        Value::Tuple(items) => items.to_vec(),
        one => vec![one.clone()],
    };
    let whole =
        |v: &Value| matches!(v, Value::Slice(s) if s.iter().all(|p| matches!(p, Value::None)));
    let named = parts.iter().filter(|p| whole(p)).count();
    let mut dims = w.shape.iter().copied();
    let mut shape = Vec::new();
    for p in &parts {
        match p {
            Value::None => shape.push(1),
            Value::Ellipsis => {
                let rest = w.shape.len().saturating_sub(named);
                shape.extend(dims.by_ref().take(rest));
            }
            p if whole(p) => match dims.next() {
                Some(d) => shape.push(d),
                None => {
                    return Err(raise(line, "IndexError", "too many indices for tensor"));
                }
            },
            _ => {
                return Err(unsupported(
                    line,
                    "indexing a learned weight other than with `:` and `None` is not translated by padlab",
                ));
            }
        }
    }
    shape.extend(dims);
    let _ = it;
    Ok(Value::Weight(Rc::new(w.view(shape))))
}

/// A method of a learned weight: its views (`view`, `reshape`, `unsqueeze`), its sizes, and
/// what initialises it in place (the check script copies its values anyway).
pub fn weight_method(
    it: &mut Interp,
    w: &Rc<Weight>,
    me: &Value,
    name: &str,
    pos: &[Value],
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    Ok(match name {
        "size" => match pos.first() {
            None => Value::tuple(w.shape.iter().map(|&d| Value::Int(d)).collect()),
            Some(d) => {
                let a = crate::model::shape::axis(as_int(d, line)?, w.shape.len())
                    .map_err(|m| raise(line, "IndexError", m))?;
                Value::Int(w.shape[a])
            }
        },
        "dim" => Value::Int(w.shape.len() as i64),
        "numel" => w.elements.map_or(Value::Unknown, Value::Int),
        "view" | "reshape" => {
            let sizes: Vec<i64> = dims_arg(it, pos, line)?
                .iter()
                .map(|v| as_int(v, line))
                .collect::<Ev<_>>()?;
            let total = w.elements.unwrap_or(0);
            let known: i64 = sizes.iter().filter(|&&d| d != -1).product();
            let shape: Vec<i64> = sizes
                .iter()
                .map(|&d| {
                    if d == -1 && known > 0 {
                        total / known
                    } else {
                        d
                    }
                })
                .collect();
            if shape.iter().try_fold(1i64, |n, &d| n.checked_mul(d)) != Some(total) {
                return Err(raise(
                    line,
                    "RuntimeError",
                    format!("shape '{sizes:?}' is invalid for input of size {total}"),
                ));
            }
            Value::Weight(Rc::new(w.view(shape)))
        }
        "unsqueeze" => {
            let d = as_int(pos.first().unwrap_or(&Value::Int(0)), line)?;
            let at = crate::model::shape::axis(d, w.shape.len() + 1)
                .map_err(|m| raise(line, "IndexError", m))?;
            let mut shape = w.shape.clone();
            shape.insert(at, 1);
            Value::Weight(Rc::new(w.view(shape)))
        }
        // `self.cls_token.expand(B, -1, -1)`: the weight (its first axis one) repeated over
        // the batch, `B` being the batch of a model tensor.
        "expand" | "repeat" if w.shape.first() == Some(&1) => {
            let sizes = dims_arg(it, pos, line)?;
            // torch traces a batch of `BATCH` samples: `x.shape[0]` is that number.
            let batch = matches!(
                sizes.first(),
                Some(Value::Batch(_) | Value::Int(super::eval::BATCH))
            );
            let rest_same = sizes.len() == w.shape.len()
                && sizes.iter().zip(&w.shape).skip(1).all(|(v, &d)| match v {
                    Value::Int(-1) => name == "expand",
                    Value::Int(1) => name == "repeat" || d == 1,
                    Value::Int(n) => name == "expand" && *n == d,
                    _ => false,
                });
            if !batch || !rest_same {
                return Err(unsupported(
                    line,
                    format!(
                        "Parameter.{name} other than over the batch (`w.{name}(x.shape[0], ...)`, the rest kept) is not translated by padlab"
                    ),
                ));
            }
            let mut v = w.view(w.shape.clone());
            v.batch = true;
            Value::Weight(Rc::new(v))
        }
        "data" | "detach" | "clone" | "contiguous" | "float" | "to" | "cuda" | "cpu" | "fill_"
        | "zero_" | "normal_" | "uniform_" | "copy_" | "requires_grad_" | "trunc_normal_" => {
            me.clone()
        }
        _ => return Err(no_attribute(line, "Parameter", name)),
    })
}

/// `torch.cat((w, x), dim)` of a module's weight repeated over the batch and one tensor (a
/// ViT's class token): one node applying the learned tensor to `x`. `None` when the list is
/// not that.
pub fn learned_concat(it: &mut Interp, list: &Value, axis: i64, site: &Site) -> Ev<Option<Value>> {
    let line = site.line;
    let items = match list {
        Value::Tuple(_) | Value::List(_) => it.iterate(list, line)?,
        _ => return Ok(None),
    };
    let (w, x, first) = match items.as_slice() {
        [Value::Weight(w), Value::Tensor(x)] => (w, x, true),
        [Value::Tensor(x), Value::Weight(w)] => (w, x, false),
        _ if items.iter().any(|v| matches!(v, Value::Weight(_))) => {
            return Err(unsupported(
                line,
                "a concatenation of learned weights other than one repeated over the batch beside one tensor is not translated by padlab",
            ));
        }
        _ => return Ok(None),
    };
    if !w.batch {
        return Err(unsupported(
            line,
            "a concatenation of a learned weight not repeated over the batch (`w.expand(x.shape[0], ...)`) is not translated by padlab",
        ));
    }
    let Some((owner, attr)) = w.place.borrow().clone() else {
        return Err(unsupported(
            line,
            "a learned weight no module holds is not translated by padlab",
        ));
    };
    let out = it.record(
        Op::Learned {
            op: LearnedOp::Concat { axis, first },
            shape: w.shape.clone(),
            weight: WeightAt::Owner(owner, attr.to_string()),
        },
        "cat",
        std::slice::from_ref(x),
        x.framework,
        site,
        None,
        Some(&attr),
    )?;
    Ok(Some(outputs_value(out)))
}

/// An operation of several tensors (`torch.cat`, `torch.stack`, `ops.concatenate`) as one
/// node named `name`.
pub fn several(
    it: &mut Interp,
    op: Op,
    name: &str,
    xs: &[Rc<Tensor>],
    framework: Framework,
    site: &Site,
) -> Ev<Value> {
    let out = it.record(op, name, xs, framework, site, None, Some(name))?;
    Ok(outputs_value(out))
}

/// An element-wise op of two values, at least one a tensor.
pub fn elementwise(it: &mut Interp, bin: Binary, a: Value, b: Value, site: &Site) -> Ev<Value> {
    let line = site.line;
    if let (Value::Tensor(t), Value::Weight(w)) | (Value::Weight(w), Value::Tensor(t)) = (&a, &b) {
        // A learned scale per channel (`inputs * self.gamma`, gamma shaped like the last
        // axis): Keras's LayerScale.
        if bin == Binary::Mul
            && t.framework == Framework::Keras
            && let (Some(s), [c]) = (&t.shape, w.shape.as_slice())
            && s.last() == Some(c)
        {
            let out = it.record(
                Op::LayerScale { features: Some(*c) },
                "LayerScale",
                std::slice::from_ref(t),
                t.framework,
                site,
                None,
                Some(""),
            )?;
            let out = out
                .into_iter()
                .next()
                .ok_or_else(|| unsupported(line, "an operation without an output"))?;
            return Ok(Value::Tensor(out));
        }
        // A torch module's nn.Parameter a tensor meets (`x * self.gamma[:, None, None]`,
        // `x + self.bias`): a learned tensor of the model, ported with its values.
        let weight_first = matches!(&a, Value::Weight(_));
        let learned = match (bin, weight_first) {
            (Binary::Mul, _) => Some(LearnedOp::Mul),
            (Binary::Add, _) => Some(LearnedOp::Add),
            (Binary::Sub, false) => Some(LearnedOp::Sub),
            (Binary::Sub, true) => Some(LearnedOp::RSub),
            (Binary::Div, false) => Some(LearnedOp::Div),
            _ => None,
        };
        if t.framework == Framework::Torch
            && let Some(op) = learned
            && let Some((owner, attr)) = w.place.borrow().clone()
        {
            let out = it.record(
                Op::Learned {
                    op,
                    shape: w.shape.clone(),
                    weight: WeightAt::Owner(owner, attr.to_string()),
                },
                binary_name(bin, t.framework),
                std::slice::from_ref(t),
                t.framework,
                site,
                None,
                None,
            )?;
            return Ok(outputs_value(out));
        }
        let name = binary_name(bin, t.framework);
        return with_weight(it, t, w, false, name, site);
    }
    if let Some(out) = per_channel_constant(it, bin, &a, &b, site)? {
        return Ok(out);
    }
    let scalar = |v: &Value| -> Ev<Option<f64>> {
        match v {
            Value::Int(_) | Value::Float(_) | Value::Bool(_) => as_float(v, line).map(Some),
            Value::Tensor(_) => Ok(None),
            Value::Unknown => Err(unsupported(
                line,
                "arithmetic with a size that depends on the input: give the input shape",
            )),
            Value::Poison(f) => Err((**f).clone()),
            Value::Opaque(w) => Err(unsupported(
                line,
                format!(
                    "`{}` uses {w}: a learned tensor outside a layer padlab knows is not ported",
                    super::eval::short(&site.text)
                ),
            )),
            other => Err(raise(
                line,
                "TypeError",
                format!(
                    "unsupported operand type for a tensor: '{}'",
                    other.type_name()
                ),
            )),
        }
    };
    let (sa, sb) = (scalar(&a)?, scalar(&b)?);
    let (inputs, constant, constant_first) = match (&a, &b) {
        (Value::Tensor(x), Value::Tensor(y)) => (vec![x.clone(), y.clone()], None, false),
        (Value::Tensor(x), _) => (vec![x.clone()], sb, false),
        (_, Value::Tensor(y)) => (vec![y.clone()], sa, true),
        _ => {
            return Err(raise(
                line,
                "TypeError",
                "an element-wise op without a tensor",
            ));
        }
    };
    let fw = inputs[0].framework;
    let name = binary_name(bin, fw);
    let out = it.record(
        Op::Elementwise {
            op: bin,
            constant,
            constant_first,
        },
        name,
        &inputs,
        fw,
        site,
        None,
        Some(name),
    )?;
    Ok(outputs_value(out))
}

/// A Keras tensor with a list of numbers, one per channel (the last axis): `x + [-103.939,
/// -116.779, -123.68]`, `x / [0.229, 0.224, 0.225]` (keras.applications' preprocess_input adds
/// and divides by such constants). Read as the standardisation it computes, under the
/// element-wise op's own name; `None` when `a` and `b` are not that.
fn per_channel_constant(
    it: &mut Interp,
    bin: Binary,
    a: &Value,
    b: &Value,
    site: &Site,
) -> Ev<Option<Value>> {
    let line = site.line;
    let (t, list, constant_first) = match (a, b) {
        (Value::Tensor(t), l @ (Value::List(_) | Value::Tuple(_))) => (t, l, false),
        (l @ (Value::List(_) | Value::Tuple(_)), Value::Tensor(t)) => (t, l, true),
        _ => return Ok(None),
    };
    if t.framework != Framework::Keras {
        return Ok(None);
    }
    let items = it.iterate(list, line)?;
    let mut c = Vec::with_capacity(items.len());
    for v in &items {
        match v {
            Value::Int(_) | Value::Float(_) => c.push(as_float(v, line)?),
            _ => return Ok(None),
        }
    }
    let channels = t.shape.as_ref().and_then(|s| s.last().copied());
    if c.is_empty() || channels != i64::try_from(c.len()).ok() {
        return Err(unsupported(
            line,
            format!(
                "`{}`: a list of {} numbers with a tensor whose last axis has {}: padlab reads one number per channel",
                super::eval::short(&site.text),
                c.len(),
                channels.map_or("an unknown size".to_string(), |n| n.to_string())
            ),
        ));
    }
    // `(x - mean) / sqrt(variance)` for each op.
    let (mean, variance): (Vec<f64>, Vec<f64>) = match (bin, constant_first) {
        (Binary::Add, _) => (c.iter().map(|v| -v).collect(), vec![1.0; c.len()]),
        (Binary::Sub, false) => (c.clone(), vec![1.0; c.len()]),
        (Binary::Mul, _) | (Binary::Div, false)
            if c.iter().all(|v| v.is_finite() && *v > 1e-7 && *v < 1e7) =>
        {
            let var = |v: f64| {
                if bin == Binary::Mul {
                    1.0 / (v * v)
                } else {
                    v * v
                }
            };
            (vec![0.0; c.len()], c.iter().map(|&v| var(v)).collect())
        }
        _ => {
            return Err(unsupported(
                line,
                format!(
                    "`{}`: padlab reads a tensor plus, minus, times or divided by positive per-channel numbers",
                    super::eval::short(&site.text)
                ),
            ));
        }
    };
    let name = binary_name(bin, t.framework);
    let op = Op::Standardize(crate::model::op::Standardize {
        axes: vec![-1],
        stats: crate::model::op::Stats::Given {
            mean,
            variance,
            shape: vec![i64::try_from(c.len()).unwrap_or(i64::MAX)],
        },
        invert: false,
    });
    let out = it.record(
        op,
        name,
        std::slice::from_ref(t),
        t.framework,
        site,
        None,
        Some(name),
    )?;
    Ok(Some(outputs_value(out)))
}

/// `-x`.
pub fn unary_minus(it: &mut Interp, t: &Rc<Tensor>, _line: usize, e: &Expr) -> Ev<Value> {
    let site = site_of(it, e);
    let fw = t.framework;
    let name = if fw == Framework::Torch {
        "neg"
    } else {
        "negative"
    };
    let out = it.record(
        Op::Activation(Activation::Neg),
        name,
        std::slice::from_ref(t),
        fw,
        &site,
        None,
        Some(name),
    )?;
    Ok(outputs_value(out))
}

/// Records a one-input op on `t`.
pub fn apply(it: &mut Interp, t: &Rc<Tensor>, op: Op, name: &str, site: &Site) -> Ev<Value> {
    let fw = t.framework;
    let out = it.record(
        op,
        name,
        std::slice::from_ref(t),
        fw,
        site,
        None,
        Some(name),
    )?;
    Ok(outputs_value(out))
}

/// A size as code reads it: an int, or unknown.
fn size_value(v: Option<i64>) -> Value {
    v.map_or(Value::Unknown, Value::Int)
}

/// `x.shape` / `x.size()`: a tuple of sizes (torch.Size; Keras's has `None` for the batch).
pub fn shape_value(t: &Tensor) -> Value {
    match &t.shape {
        Some(s) => Value::tuple(
            s.iter()
                .enumerate()
                .map(|(i, &d)| {
                    if i == 0 && t.framework == Framework::Keras {
                        Value::None
                    } else {
                        Value::Int(d)
                    }
                })
                .collect(),
        ),
        None => Value::Unknown,
    }
}

/// An attribute of a tensor.
pub fn tensor_attr(_it: &mut Interp, t: &Rc<Tensor>, name: &str, line: usize) -> Ev<Value> {
    Ok(match name {
        "shape" => shape_value(t),
        "ndim" => t
            .shape
            .as_ref()
            .map_or(Value::Unknown, |s| Value::Int(s.len() as i64)),
        "data" => Value::Tensor(t.clone()),
        "dtype" => Value::opaque(if t.integer {
            "torch.int64"
        } else {
            "torch.float32"
        }),
        "device" => Value::opaque("a device"),
        "is_cuda" | "requires_grad" => Value::Bool(false),
        "grad" => Value::None,
        "T" => {
            let site = Site {
                line: _it.paste_line(line),
                text: Rc::from("x.T"),
            };
            let rank = t.shape.as_ref().map_or(2, Vec::len);
            let perm: Vec<usize> = (0..rank).rev().collect();
            return apply(_it, t, Op::Permute(perm), "T", &site);
        }
        _ => Value::Method(Rc::new(Value::Tensor(t.clone())), Rc::from(name)),
    })
}

/// Normalises an axis against a tensor's rank (for building ops that store axes).
fn rank_of(t: &Tensor) -> Option<usize> {
    t.shape.as_ref().map(Vec::len)
}

/// Dims given as `f(1, 2)` or `f((1, 2))` or `f([1, 2])`.
fn dims_arg(it: &mut Interp, pos: &[Value], line: usize) -> Ev<Vec<Value>> {
    match pos {
        [Value::Tuple(_) | Value::List(_)] => it.iterate(&pos[0], line),
        _ => Ok(pos.to_vec()),
    }
}

fn kwarg<'a>(kw: &'a [(Rc<str>, Value)], name: &str) -> Option<&'a Value> {
    kw.iter().find(|(k, _)| k.as_ref() == name).map(|(_, v)| v)
}

/// An argument by position or keyword.
pub fn arg(pos: &[Value], kw: &[(Rc<str>, Value)], i: usize, name: &str) -> Option<Value> {
    kwarg(kw, name)
        .cloned()
        .or_else(|| pos.get(i).cloned())
        .filter(|v| !matches!(v, Value::None))
}

/// An argument by position, else by keyword; `Value::None` when not given.
pub fn positional_or_keyword(
    pos: &[Value],
    kw: &[(Rc<str>, Value)],
    i: usize,
    name: &str,
) -> Value {
    pos.get(i)
        .or_else(|| kwarg(kw, name))
        .cloned()
        .unwrap_or(Value::None)
}

/// A reshape, normalised: when the batch stays first and unchanged, it is one sample's
/// reshape (so `view(x.size(0), -1)` and `view(-1, 400)` port as the same thing).
pub fn reshape(
    it: &mut Interp,
    t: &Rc<Tensor>,
    sizes: &[Value],
    name: &str,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let mut shape = Vec::with_capacity(sizes.len());
    for v in sizes {
        match v {
            Value::Unknown => {
                // The input size is unknown: the result is too.
                return apply(
                    it,
                    t,
                    Op::Reshape {
                        shape: vec![-1],
                        batch: true,
                    },
                    name,
                    site,
                );
            }
            Value::None if t.framework == Framework::Keras => shape.push(-1),
            // The run-time batch size first (`b, h, w, c = ops.shape(x)` then
            // `ops.reshape(x, [b, h, w, 2, 2, c // 4])`): the batch kept.
            Value::Batch(_) if shape.is_empty() => shape.push(BATCH),
            v => shape.push(as_int(v, line)?),
        }
    }
    let op = Op::Reshape {
        shape: shape.clone(),
        batch: true,
    };
    let probe = crate::model::shape::infer(&op, t.framework, &[t.shape.as_ref()]);
    let resolved = probe.outputs.first().cloned().flatten();
    let op = match (&resolved, &t.shape) {
        (Some(out), Some(inp)) if out.first() == inp.first() && out.first() == Some(&BATCH) => {
            Op::Reshape {
                shape: out[1..].to_vec(),
                batch: false,
            }
        }
        _ => op,
    };
    apply(it, t, op, name, site)
}

/// A method of a tensor.
pub fn tensor_method(
    it: &mut Interp,
    t: &Rc<Tensor>,
    name: &str,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let rank = rank_of(t);
    let int_arg = |i: usize, n: &str| -> Ev<Option<i64>> {
        arg(&pos, &kw, i, n).map(|v| as_int(&v, line)).transpose()
    };
    Ok(match name {
        "size" => match int_arg(0, "dim")? {
            None => shape_value(t),
            Some(d) => match &t.shape {
                Some(s) => {
                    let i = crate::model::shape::axis(d, s.len())
                        .map_err(|m| raise(line, "IndexError", m))?;
                    Value::Int(s[i])
                }
                None => Value::Unknown,
            },
        },
        "dim" | "ndimension" => rank.map_or(Value::Unknown, |r| Value::Int(r as i64)),
        "numel" | "nelement" => size_value(
            t.shape
                .as_ref()
                .and_then(|s| crate::model::shape::elements(s)),
        ),
        "contiguous" | "clone" | "detach" | "float" | "double" | "half" | "to" | "cpu" | "cuda"
        | "type_as" | "requires_grad_" | "type" => Value::Tensor(t.clone()),
        "view" | "reshape" => {
            let sizes = dims_arg(it, &pos, line)?;
            reshape(it, t, &sizes, name, site)?
        }
        "view_as" | "reshape_as" => {
            let other = tensor_of(pos.first().unwrap_or(&Value::None), line)?;
            let sizes: Vec<Value> = match &other.shape {
                Some(s) => s.iter().map(|&d| Value::Int(d)).collect(),
                None => vec![Value::Unknown],
            };
            reshape(it, t, &sizes, name, site)?
        }
        "flatten" => {
            let start = int_arg(0, "start_dim")?.unwrap_or(0);
            let end = int_arg(1, "end_dim")?.unwrap_or(-1);
            apply(it, t, Op::Flatten { start, end }, name, site)?
        }
        "permute" => {
            let dims = dims_arg(it, &pos, line)?;
            let r = rank.unwrap_or(dims.len());
            let perm = dims
                .iter()
                .map(|d| {
                    as_int(d, line).and_then(|a| {
                        crate::model::shape::axis(a, r).map_err(|m| raise(line, "IndexError", m))
                    })
                })
                .collect::<Ev<Vec<usize>>>()?;
            apply(it, t, Op::Permute(perm), name, site)?
        }
        "transpose" | "swapaxes" | "swapdims" => {
            let r = rank.ok_or_else(|| {
                unsupported(
                    line,
                    "a transpose of a tensor of unknown rank: give the input shape",
                )
            })?;
            let a = crate::model::shape::axis(int_arg(0, "dim0")?.unwrap_or(0), r)
                .map_err(|m| raise(line, "IndexError", m))?;
            let b = crate::model::shape::axis(int_arg(1, "dim1")?.unwrap_or(1), r)
                .map_err(|m| raise(line, "IndexError", m))?;
            let mut perm: Vec<usize> = (0..r).collect();
            perm.swap(a, b);
            apply(it, t, Op::Permute(perm), "transpose", site)?
        }
        "t" => {
            let perm = vec![1, 0];
            apply(it, t, Op::Permute(perm), name, site)?
        }
        "squeeze" => {
            let axes = match arg(&pos, &kw, 0, "dim") {
                None => None,
                Some(Value::Tuple(v)) => {
                    Some(v.iter().map(|d| as_int(d, line)).collect::<Ev<_>>()?)
                }
                Some(d) => Some(vec![as_int(&d, line)?]),
            };
            apply(it, t, Op::Squeeze(axes), name, site)?
        }
        "unsqueeze" => {
            let d = int_arg(0, "dim")?
                .ok_or_else(|| raise(line, "TypeError", "unsqueeze() missing dim"))?;
            apply(it, t, Op::Unsqueeze(vec![d]), name, site)?
        }
        "mean" | "sum" | "amax" | "amin" | "max" | "min" => {
            reduce_method(it, t, name, &pos, &kw, site)?
        }
        "relu" | "relu_" | "sigmoid" | "sigmoid_" | "tanh" | "tanh_" | "exp" | "log" | "sqrt"
        | "abs" | "neg" => {
            let a = match name.trim_end_matches('_') {
                "relu" => Activation::Relu,
                "sigmoid" => Activation::Sigmoid,
                "tanh" => Activation::Tanh,
                "exp" => Activation::Exp,
                "log" => Activation::Log,
                "sqrt" => Activation::Sqrt,
                "abs" => Activation::Abs,
                _ => Activation::Neg,
            };
            apply(it, t, Op::Activation(a), name, site)?
        }
        "softmax" | "log_softmax" => {
            let axis = int_arg(0, "dim")?
                .ok_or_else(|| unsupported(line, format!("{name}() without dim")))?;
            apply(
                it,
                t,
                Op::Softmax {
                    axis,
                    log: name == "log_softmax",
                },
                name,
                site,
            )?
        }
        "add" | "sub" | "mul" | "div" | "add_" | "sub_" | "mul_" | "div_" | "pow" | "multiply"
        | "subtract" | "divide" => {
            let other = pos
                .first()
                .cloned()
                .ok_or_else(|| raise(line, "TypeError", format!("{name}() missing an argument")))?;
            if kwarg(&kw, "alpha").is_some() {
                return Err(unsupported(
                    line,
                    format!("{name}(..., alpha=...) is not translated by padlab"),
                ));
            }
            let bin = match name.trim_end_matches('_') {
                "add" => Binary::Add,
                "sub" | "subtract" => Binary::Sub,
                "mul" | "multiply" => Binary::Mul,
                "pow" => Binary::Pow,
                _ => Binary::Div,
            };
            elementwise(it, bin, Value::Tensor(t.clone()), other, site)?
        }
        "chunk" | "split" | "tensor_split" | "unbind" => {
            return split_method(it, t, name, &pos, &kw, site);
        }
        "clamp" | "clip" => {
            let lo = arg(&pos, &kw, 0, "min")
                .map(|v| as_float(&v, line))
                .transpose()?;
            let hi = arg(&pos, &kw, 1, "max")
                .map(|v| as_float(&v, line))
                .transpose()?;
            match (lo, hi) {
                (Some(l), Some(h)) if l == 0.0 && h == 6.0 => {
                    apply(it, t, Op::Activation(Activation::Relu6), name, site)?
                }
                (Some(0.0), None) => apply(it, t, Op::Activation(Activation::Relu), name, site)?,
                (Some(lo), Some(hi)) if lo.is_finite() && hi.is_finite() => apply(
                    it,
                    t,
                    Op::Activation(Activation::Clip { lo, hi }),
                    name,
                    site,
                )?,
                _ => {
                    return Err(unsupported(
                        line,
                        format!("{name} with these bounds is not translated by padlab"),
                    ));
                }
            }
        }
        "expand_as" => {
            let other = tensor_of(pos.first().unwrap_or(&Value::None), line)?;
            let shape = other.shape.clone().ok_or_else(|| {
                unsupported(
                    line,
                    "expand_as a tensor of unknown shape: give the input shape",
                )
            })?;
            apply(it, t, Op::Expand(shape), name, site)?
        }
        "expand" => {
            let sizes = dims_arg(it, &pos, line)?;
            let shape = sizes
                .iter()
                .map(|v| as_int(v, line))
                .collect::<Ev<Vec<i64>>>()?;
            apply(it, t, Op::Expand(shape), name, site)?
        }
        // `c.repeat(1, 1, h, w)` of a tensor whose repeated axes have size one (a StarGAN's
        // domain code spread over the image) is the expand to those sizes; a real tiling
        // is refused.
        "repeat" => {
            let factors = dims_arg(it, &pos, line)?
                .iter()
                .map(|v| as_int(v, line))
                .collect::<Ev<Vec<i64>>>()?;
            let shape = t.shape.as_deref().unwrap_or_default();
            let expand = factors.len() == shape.len()
                && factors
                    .iter()
                    .zip(shape)
                    .all(|(&f, &d)| f == 1 || (d == 1 && f >= 1));
            if !expand {
                return Err(unsupported(
                    line,
                    format!(
                        "`{}`: Tensor.repeat other than over axes of size one is not translated by padlab",
                        super::eval::short(&site.text)
                    ),
                ));
            }
            let sizes = factors.iter().zip(shape).map(|(f, d)| f * d).collect();
            apply(it, t, Op::Expand(sizes), name, site)?
        }
        "masked_fill" | "gather" | "index_select" | "scatter" | "topk" | "sort" | "argmax"
        | "argmin" | "norm" | "std" | "var" | "cumsum" | "flip" | "roll" | "narrow" | "unfold"
        | "fill_" | "zero_" | "normal_" | "uniform_" => {
            return Err(unsupported(
                line,
                format!(
                    "`{}`: Tensor.{name} is not translated by padlab",
                    super::eval::short(&site.text)
                ),
            ));
        }
        "item" | "tolist" | "numpy" => {
            return Err(unsupported(
                line,
                format!("Tensor.{name}(): padlab traces shapes, not values"),
            ));
        }
        "__getitem__" => {
            return tensor_index_value(it, t, pos.first().unwrap_or(&Value::None), site);
        }
        _ => {
            return Err(no_attribute(line, "Tensor", name));
        }
    })
}

/// `x.mean(dim)`, `x.max(dim)` (values and indices), `x.sum(dim, keepdim=True)`.
fn reduce_method(
    it: &mut Interp,
    t: &Rc<Tensor>,
    name: &str,
    pos: &[Value],
    kw: &[(Rc<str>, Value)],
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let op = match name {
        "mean" => Reduce::Mean,
        "sum" => Reduce::Sum,
        "amax" | "max" => Reduce::Max,
        _ => Reduce::Min,
    };
    // `torch.max(a, b)`: the element-wise maximum.
    if matches!(name, "max" | "min")
        && let Some(Value::Tensor(other)) = pos.first()
    {
        let bin = if name == "max" {
            Binary::Max
        } else {
            Binary::Min
        };
        return elementwise(
            it,
            bin,
            Value::Tensor(t.clone()),
            Value::Tensor(other.clone()),
            site,
        );
    }
    let axes = match arg(pos, kw, 0, "dim").or_else(|| arg(pos, kw, 0, "axis")) {
        None => Vec::new(),
        Some(Value::Tuple(v)) => v.iter().map(|d| as_int(d, line)).collect::<Ev<_>>()?,
        Some(Value::List(v)) => v
            .borrow()
            .iter()
            .map(|d| as_int(d, line))
            .collect::<Ev<_>>()?,
        Some(d) => vec![as_int(&d, line)?],
    };
    let keepdims = match arg(pos, kw, 1, "keepdim").or_else(|| kwarg(kw, "keepdims").cloned()) {
        Some(v) => it.truthy(&v, line)?,
        None => false,
    };
    let values = apply(
        it,
        t,
        Op::Reduce {
            op,
            axes: axes.clone(),
            keepdims,
        },
        name,
        site,
    )?;
    // torch's `max(dim)` / `min(dim)` also give the indices.
    if matches!(name, "max" | "min") && !axes.is_empty() && t.framework == Framework::Torch {
        return Ok(Value::tuple(vec![
            values,
            Value::opaque("the indices of a max"),
        ]));
    }
    Ok(values)
}

/// `x.chunk(n, dim)`, `x.split(size, dim)`, `torch.unbind`.
pub fn split_method(
    it: &mut Interp,
    t: &Rc<Tensor>,
    name: &str,
    pos: &[Value],
    kw: &[(Rc<str>, Value)],
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let dim = arg(pos, kw, 1, "dim")
        .or_else(|| arg(pos, kw, 1, "axis"))
        .map(|v| as_int(&v, line))
        .transpose()?
        .unwrap_or(0);
    let Some(shape) = &t.shape else {
        return Err(unsupported(
            line,
            format!("{name} of a tensor of unknown size: give the input shape"),
        ));
    };
    let i =
        crate::model::shape::axis(dim, shape.len()).map_err(|m| raise(line, "IndexError", m))?;
    let n = shape[i];
    let sizes: Vec<i64> = match name {
        "chunk" => {
            let chunks = as_int(&arg(pos, kw, 0, "chunks").unwrap_or(Value::Int(1)), line)?.max(1);
            let each = (n + chunks - 1) / chunks;
            let mut out = Vec::new();
            let mut left = n;
            while left > 0 {
                out.push(each.min(left));
                left -= each.min(left);
            }
            out
        }
        "unbind" => return Err(unsupported(line, "unbind is not translated by padlab")),
        _ => match arg(pos, kw, 0, "split_size_or_sections")
            .or_else(|| arg(pos, kw, 0, "split_size"))
        {
            Some(Value::Int(each)) if each > 0 => {
                let mut out = Vec::new();
                let mut left = n;
                while left > 0 {
                    out.push(each.min(left));
                    left -= each.min(left);
                }
                out
            }
            Some(v @ (Value::List(_) | Value::Tuple(_))) => it
                .iterate(&v, line)?
                .iter()
                .map(|s| as_int(s, line))
                .collect::<Ev<_>>()?,
            _ => return Err(raise(line, "TypeError", format!("{name}() needs sizes"))),
        },
    };
    let fw = t.framework;
    let out = it.record(
        Op::Split { axis: dim, sizes },
        name,
        std::slice::from_ref(t),
        fw,
        site,
        None,
        Some(name),
    )?;
    Ok(Value::tuple(out.into_iter().map(Value::Tensor).collect()))
}

/// `x[...]`.
pub fn tensor_index(
    it: &mut Interp,
    t: &Rc<Tensor>,
    i: &Value,
    line: usize,
    e: &Expr,
) -> Ev<Value> {
    let _ = line;
    let site = site_of(it, e);
    tensor_index_value(it, t, i, &site)
}

fn tensor_index_value(it: &mut Interp, t: &Rc<Tensor>, i: &Value, site: &Site) -> Ev<Value> {
    let line = site.line;
    let items: Vec<Value> = match i {
        Value::Tuple(v) => v.to_vec(),
        other => vec![other.clone()],
    };
    let rank = rank_of(t).ok_or_else(|| {
        unsupported(
            line,
            "indexing a tensor of unknown size: give the input shape",
        )
    })?;
    let explicit = items
        .iter()
        .filter(|v| !matches!(v, Value::Ellipsis | Value::None))
        .count();
    if items.iter().any(|v| matches!(v, Value::None)) {
        return Err(unsupported(
            line,
            "indexing with None (a new axis) is not translated by padlab",
        ));
    }
    let mut axes = Vec::new();
    let mut axis = 0i64;
    for v in &items {
        match v {
            Value::Ellipsis => {
                axis += (rank - explicit.min(rank)) as i64;
            }
            Value::Slice(s) => {
                let bound = |v: &Value| -> Ev<Option<i64>> {
                    match v {
                        Value::None => Ok(None),
                        other => as_int(other, line).map(Some),
                    }
                };
                let step = bound(&s[2])?.unwrap_or(1);
                let (start, end) = (bound(&s[0])?, bound(&s[1])?);
                if start.is_some() || end.is_some() || step != 1 {
                    axes.push(SliceAxis {
                        axis,
                        start,
                        end,
                        step,
                        index: false,
                    });
                }
                axis += 1;
            }
            Value::Int(k) => {
                axes.push(SliceAxis {
                    axis,
                    start: Some(*k),
                    end: None,
                    step: 1,
                    index: true,
                });
                axis += 1;
            }
            Value::Unknown => {
                return Err(unsupported(
                    line,
                    "an index that depends on the input's size: give the input shape",
                ));
            }
            Value::Tensor(_) => {
                return Err(unsupported(
                    line,
                    "indexing a tensor with a tensor is not translated by padlab",
                ));
            }
            other => {
                return Err(raise(
                    line,
                    "IndexError",
                    format!(
                        "only integers, slices, ellipsis are valid indices, not {}",
                        other.type_name()
                    ),
                ));
            }
        }
    }
    if axes.is_empty() {
        return Ok(Value::Tensor(t.clone()));
    }
    let name = if t.framework == Framework::Torch {
        "__getitem__"
    } else {
        "get_item"
    };
    apply(it, t, Op::Slice(axes), name, site)
}

/// Iterating a tensor (along its first axis) is not traced.
pub fn tensor_iter(_it: &mut Interp, _t: &Rc<Tensor>, line: usize) -> Ev<Vec<Value>> {
    Err(unsupported(
        line,
        "a loop over a tensor's items: padlab traces whole tensors",
    ))
}
