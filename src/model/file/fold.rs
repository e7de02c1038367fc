//! Small constant tensors and the integer ops exporters build shapes and pads with (`Shape →
//! Gather → Unsqueeze → Concat → Reshape`, timm's dynamic 'same' pads), evaluated during the
//! conversion once the input size is known, so the Reshape or Pad they feed gets numbers.
//!
//! Only small tensors are evaluated ([`limits::SMALL_TENSOR`] elements); integer arithmetic is
//! checked (an overflow is "not foldable", never a panic); integer division truncates as ONNX
//! Runtime's C++ does.

use super::limits;
use super::onnx::{AttrValue, OnnxNode, TensorData};

/// A constant: its dims, and its values when small.
#[derive(Clone, Debug, PartialEq)]
pub struct Const {
    pub dims: Vec<i64>,
    pub data: Option<TensorData>,
}

impl Const {
    pub fn ints(&self) -> Option<&[i64]> {
        match &self.data {
            Some(TensorData::Int(v)) => Some(v),
            _ => None,
        }
    }

    /// The values as f64 (integers converted).
    pub fn floats(&self) -> Option<Vec<f64>> {
        match &self.data {
            Some(TensorData::Float(v)) => Some(v.clone()),
            Some(TensorData::Int(v)) => Some(v.iter().map(|&x| x as f64).collect()),
            None => None,
        }
    }

    /// The single value of a one-element constant.
    pub fn scalar(&self) -> Option<f64> {
        let v = self.floats()?;
        (v.len() == 1).then(|| v.first().copied()).flatten()
    }

    fn int(dims: Vec<i64>, v: Vec<i64>) -> Const {
        Const {
            dims,
            data: Some(TensorData::Int(v)),
        }
    }
}

fn count(dims: &[i64]) -> Option<usize> {
    dims.iter().try_fold(1usize, |a, &d| {
        usize::try_from(d).ok().and_then(|d| a.checked_mul(d))
    })
}

fn small(dims: &[i64]) -> Option<usize> {
    count(dims).filter(|&n| n <= limits::SMALL_TENSOR)
}

/// Row-major strides of `dims`.
fn strides(dims: &[i64]) -> Vec<usize> {
    let mut s = vec![1usize; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        let next = s.get(i + 1).copied().unwrap_or(1);
        let d = dims.get(i + 1).copied().unwrap_or(1).max(0) as usize;
        if let Some(x) = s.get_mut(i) {
            *x = next.saturating_mul(d);
        }
    }
    s
}

/// A normalised axis (`-1` is the last) for a tensor of `rank`.
pub fn axis(a: i64, rank: usize) -> Option<usize> {
    let r = i64::try_from(rank).ok()?;
    let a = if a < 0 { a.checked_add(r)? } else { a };
    usize::try_from(a).ok().filter(|&a| a < rank)
}

enum Data {
    Int(Vec<i64>),
    Float(Vec<f64>),
}

fn data(c: &Const) -> Option<Data> {
    match c.data.as_ref()? {
        TensorData::Int(v) => Some(Data::Int(v.clone())),
        TensorData::Float(v) => Some(Data::Float(v.clone())),
    }
}

fn wrap(dims: Vec<i64>, d: Data) -> Const {
    Const {
        dims,
        data: Some(match d {
            Data::Int(v) => TensorData::Int(v),
            Data::Float(v) => TensorData::Float(v),
        }),
    }
}

/// Picks elements by flat index.
fn pick(d: &Data, idx: &[usize]) -> Option<Data> {
    Some(match d {
        Data::Int(v) => Data::Int(
            idx.iter()
                .map(|&i| v.get(i).copied())
                .collect::<Option<_>>()?,
        ),
        Data::Float(v) => Data::Float(
            idx.iter()
                .map(|&i| v.get(i).copied())
                .collect::<Option<_>>()?,
        ),
    })
}

/// Every multi-index of `dims`, row-major (at most [`limits::SMALL_TENSOR`]).
fn indices(dims: &[i64]) -> Option<Vec<Vec<usize>>> {
    let n = small(dims)?;
    let mut out = Vec::with_capacity(n);
    let d: Vec<usize> = dims.iter().map(|&x| x.max(0) as usize).collect();
    for flat in 0..n {
        let mut rest = flat;
        let mut ix = vec![0; d.len()];
        for (k, &size) in d.iter().enumerate().rev() {
            if size > 0 {
                if let Some(x) = ix.get_mut(k) {
                    *x = rest % size;
                }
                rest /= size;
            }
        }
        out.push(ix);
    }
    Some(out)
}

fn flat(ix: &[usize], st: &[usize]) -> usize {
    ix.iter()
        .zip(st)
        .fold(0usize, |a, (&i, &s)| a.saturating_add(i.saturating_mul(s)))
}

/// The broadcast shape of two shapes (numpy rules).
pub fn broadcast(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for (i, o) in out.iter_mut().enumerate() {
        let x = if i + a.len() >= n {
            a.get(i + a.len() - n).copied().unwrap_or(1)
        } else {
            1
        };
        let y = if i + b.len() >= n {
            b.get(i + b.len() - n).copied().unwrap_or(1)
        } else {
            1
        };
        *o = match (x, y) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return None,
        };
    }
    Some(out)
}

/// The flat index in a tensor of `dims` that output index `ix` (of a broadcast of rank
/// `ix.len()`) reads.
fn broadcast_index(ix: &[usize], dims: &[i64]) -> usize {
    let st = strides(dims);
    let off = ix.len().saturating_sub(dims.len());
    let mut f = 0usize;
    for (k, &d) in dims.iter().enumerate() {
        let i = if d == 1 {
            0
        } else {
            ix.get(k + off).copied().unwrap_or(0)
        };
        f = f.saturating_add(i.saturating_mul(st.get(k).copied().unwrap_or(0)));
    }
    f
}

fn binary(op: &str, a: &Const, b: &Const) -> Option<Const> {
    let dims = broadcast(&a.dims, &b.dims)?;
    let ix = indices(&dims)?;
    let (da, db) = (data(a)?, data(b)?);
    let out = match (&da, &db) {
        (Data::Int(x), Data::Int(y)) => {
            let mut v = Vec::with_capacity(ix.len());
            for i in &ix {
                let p = *x.get(broadcast_index(i, &a.dims))?;
                let q = *y.get(broadcast_index(i, &b.dims))?;
                v.push(match op {
                    "Add" => p.checked_add(q)?,
                    "Sub" => p.checked_sub(q)?,
                    "Mul" => p.checked_mul(q)?,
                    "Div" => p.checked_div(q)?,
                    "Mod" => p.checked_rem_euclid(q)?,
                    "Max" => p.max(q),
                    "Min" => p.min(q),
                    "Pow" => p.checked_pow(u32::try_from(q).ok()?)?,
                    "Equal" => i64::from(p == q),
                    "Less" => i64::from(p < q),
                    "Greater" => i64::from(p > q),
                    "LessOrEqual" => i64::from(p <= q),
                    "GreaterOrEqual" => i64::from(p >= q),
                    "And" => i64::from(p != 0 && q != 0),
                    "Or" => i64::from(p != 0 || q != 0),
                    _ => return None,
                });
            }
            Data::Int(v)
        }
        _ => {
            let (x, y) = (a.floats()?, b.floats()?);
            let mut v = Vec::with_capacity(ix.len());
            let mut cmp = false;
            for i in &ix {
                let p = *x.get(broadcast_index(i, &a.dims))?;
                let q = *y.get(broadcast_index(i, &b.dims))?;
                v.push(match op {
                    "Add" => p + q,
                    "Sub" => p - q,
                    "Mul" => p * q,
                    "Div" => p / q,
                    "Max" => p.max(q),
                    "Min" => p.min(q),
                    "Pow" => p.powf(q),
                    "Equal" | "Less" | "Greater" | "LessOrEqual" | "GreaterOrEqual" => {
                        cmp = true;
                        let r = match op {
                            "Equal" => p == q,
                            "Less" => p < q,
                            "Greater" => p > q,
                            "LessOrEqual" => p <= q,
                            _ => p >= q,
                        };
                        f64::from(u8::from(r))
                    }
                    _ => return None,
                });
            }
            if cmp {
                Data::Int(v.into_iter().map(|x| x as i64).collect())
            } else {
                Data::Float(v)
            }
        }
    };
    Some(wrap(dims, out))
}

fn unary(op: &str, a: &Const) -> Option<Const> {
    let out = match data(a)? {
        Data::Int(v) => Data::Int(
            v.into_iter()
                .map(|x| match op {
                    "Neg" => x.checked_neg(),
                    "Abs" => x.checked_abs(),
                    "Ceil" | "Floor" | "Round" | "Identity" => Some(x),
                    "Relu" => Some(x.max(0)),
                    "Not" => Some(i64::from(x == 0)),
                    "Sign" => Some(x.signum()),
                    _ => None,
                })
                .collect::<Option<_>>()?,
        ),
        Data::Float(v) => Data::Float(
            v.into_iter()
                .map(|x| match op {
                    "Neg" => Some(-x),
                    "Abs" => Some(x.abs()),
                    "Ceil" => Some(x.ceil()),
                    "Floor" => Some(x.floor()),
                    "Round" => Some(x.round_ties_even()),
                    "Sqrt" => Some(x.sqrt()),
                    "Relu" => Some(x.max(0.0)),
                    "Identity" => Some(x),
                    "Reciprocal" => Some(1.0 / x),
                    "Sign" => Some(x.signum()),
                    _ => None,
                })
                .collect::<Option<_>>()?,
        ),
    };
    Some(wrap(a.dims.clone(), out))
}

/// ONNX data types that hold integers (and booleans).
fn is_int_type(t: i64) -> bool {
    matches!(t, 2..=7 | 9 | 12 | 13)
}

/// Evaluates a node whose inputs are all constants (`inputs[i]` is `None` for an omitted
/// optional input); `None` when the op or its operands are not ones this folds.
pub fn eval(node: &OnnxNode, inputs: &[Option<&Const>], opset: i64) -> Option<Vec<Const>> {
    let arg = |i: usize| inputs.get(i).copied().flatten();
    let op = node.op_type.as_str();
    let one = |c: Const| Some(vec![c]);
    match op {
        "Constant" => one(constant(node)?),
        "Identity" => one(arg(0)?.clone()),
        // A quantized weight and its float value: the dims are what a layer reads.
        "QuantizeLinear" | "DequantizeLinear" => one(Const {
            dims: arg(0)?.dims.clone(),
            data: None,
        }),
        "Add" | "Sub" | "Mul" | "Div" | "Mod" | "Max" | "Min" | "Pow" | "Equal" | "Less"
        | "Greater" | "LessOrEqual" | "GreaterOrEqual" | "And" | "Or"
            if inputs.len() == 2 =>
        {
            one(binary(op, arg(0)?, arg(1)?)?)
        }
        "Neg" | "Abs" | "Ceil" | "Floor" | "Round" | "Sqrt" | "Relu" | "Reciprocal" | "Not"
        | "Sign" => one(unary(op, arg(0)?)?),
        "Cast" => {
            let to = node.int("to")?;
            let a = arg(0)?;
            if a.data.is_none() {
                // A large constant (a weight): its dims are what a layer reads.
                return one(Const {
                    dims: a.dims.clone(),
                    data: None,
                });
            }
            let v = a.floats()?;
            let d = if is_int_type(to) {
                let mut out = Vec::with_capacity(v.len());
                for x in v {
                    if !x.is_finite() || x.abs() >= 9.2e18 {
                        return None;
                    }
                    // C++ conversion truncates toward zero; bool is "not zero".
                    out.push(if to == 9 {
                        i64::from(x != 0.0)
                    } else {
                        x.trunc() as i64
                    });
                }
                TensorData::Int(out)
            } else if matches!(to, 1 | 10 | 11 | 16) {
                TensorData::Float(v)
            } else {
                return None;
            };
            one(Const {
                dims: a.dims.clone(),
                data: Some(d),
            })
        }
        "Clip" => {
            let a = arg(0)?;
            let (lo, hi) = if opset >= 11 {
                (
                    arg(1).and_then(Const::scalar),
                    arg(2).and_then(Const::scalar),
                )
            } else {
                (
                    node.float("min").map(f64::from),
                    node.float("max").map(f64::from),
                )
            };
            let c = |x: f64| {
                let x = lo.map_or(x, |l| x.max(l));
                hi.map_or(x, |h| x.min(h))
            };
            let d = match data(a)? {
                Data::Int(v) => Data::Int(v.into_iter().map(|x| c(x as f64) as i64).collect()),
                Data::Float(v) => Data::Float(v.into_iter().map(c).collect()),
            };
            one(wrap(a.dims.clone(), d))
        }
        "Shape" => {
            let a = arg(0)?;
            let r = i64::try_from(a.dims.len()).ok()?;
            let norm = |x: i64| if x < 0 { (x + r).max(0) } else { x.min(r) };
            let start = norm(node.int("start").unwrap_or(0)) as usize;
            let end = norm(node.int("end").unwrap_or(r)) as usize;
            let v = a.dims.get(start..end.max(start))?.to_vec();
            one(Const::int(vec![v.len() as i64], v))
        }
        "Size" => {
            let n = i64::try_from(count(&arg(0)?.dims)?).ok()?;
            one(Const::int(vec![], vec![n]))
        }
        "Unsqueeze" | "Squeeze" => {
            let a = arg(0)?;
            let axes: Option<Vec<i64>> = if opset >= 13 {
                arg(1).and_then(|c| c.ints().map(<[i64]>::to_vec))
            } else {
                node.ints("axes").map(<[i64]>::to_vec)
            };
            let dims = if op == "Unsqueeze" {
                unsqueeze(&a.dims, &axes?)?
            } else {
                squeeze(&a.dims, axes.as_deref())?
            };
            one(Const {
                dims,
                data: a.data.clone(),
            })
        }
        "Reshape" => {
            let a = arg(0)?;
            let dims = reshape(&a.dims, arg(1)?.ints()?, node.int("allowzero") == Some(1))?;
            one(Const {
                dims,
                data: a.data.clone(),
            })
        }
        "Flatten" => {
            let a = arg(0)?;
            let k = axis(node.int("axis").unwrap_or(1), a.dims.len() + 1)?;
            let lead = checked_product(a.dims.get(..k)?)?;
            let rest = checked_product(a.dims.get(k..)?)?;
            one(Const {
                dims: vec![lead, rest],
                data: a.data.clone(),
            })
        }
        "ConstantOfShape" => {
            let dims = arg(0)?.ints()?.to_vec();
            let n = small(&dims)?;
            let value = match node.attribute("value") {
                Some(AttrValue::Tensor(t)) => t.values.clone()?,
                _ => TensorData::Float(vec![0.0]),
            };
            let d = match value {
                TensorData::Int(v) => TensorData::Int(vec![*v.first()?; n]),
                TensorData::Float(v) => TensorData::Float(vec![*v.first()?; n]),
            };
            one(Const {
                dims,
                data: Some(d),
            })
        }
        "Range" => {
            let (s, l, d) = (arg(0)?, arg(1)?, arg(2)?);
            match (s.ints(), l.ints(), d.ints()) {
                (Some([s]), Some([l]), Some([d])) if *d != 0 => {
                    let n = (l.checked_sub(*s)?.checked_add(d.checked_sub(d.signum())?)?)
                        .checked_div(*d)?
                        .max(0);
                    if n as usize > limits::SMALL_TENSOR {
                        return None;
                    }
                    let v: Vec<i64> = (0..n)
                        .map(|i| i.checked_mul(*d)?.checked_add(*s))
                        .collect::<Option<_>>()?;
                    one(Const::int(vec![n], v))
                }
                _ => None,
            }
        }
        "Gather" => {
            let (a, i) = (arg(0)?, arg(1)?);
            let k = axis(node.int("axis").unwrap_or(0), a.dims.len())?;
            let size = *a.dims.get(k)?;
            let idx: Vec<i64> = i
                .ints()?
                .iter()
                .map(|&x| if x < 0 { x + size } else { x })
                .collect();
            if idx.iter().any(|&x| x < 0 || x >= size) {
                return None;
            }
            // Output dims: a.dims[..k] + i.dims + a.dims[k+1..].
            let mut dims = a.dims.get(..k)?.to_vec();
            dims.extend(&i.dims);
            dims.extend(a.dims.get(k + 1..)?);
            let st = strides(&a.dims);
            let mut picks = Vec::new();
            for ix in indices(&dims)? {
                let mut src = ix.get(..k)?.to_vec();
                let ii = flat(ix.get(k..k + i.dims.len())?, &strides(&i.dims));
                src.push(usize::try_from(*idx.get(ii)?).ok()?);
                src.extend(ix.get(k + i.dims.len()..)?);
                picks.push(flat(&src, &st));
            }
            one(wrap(dims, pick(&data(a)?, &picks)?))
        }
        "Concat" => {
            // Shape vectors concatenate a few parts; many parts are not shape arithmetic.
            if inputs.len() > 64 {
                return None;
            }
            let parts: Vec<&Const> = inputs.iter().map(|c| c.to_owned()).collect::<Option<_>>()?;
            let first = parts.first()?;
            let k = axis(node.int("axis")?, first.dims.len())?;
            let mut dims = first.dims.clone();
            let total = parts.iter().try_fold(0i64, |t, p| {
                t.checked_add(p.dims.get(k).copied().unwrap_or(0))
            })?;
            *dims.get_mut(k)? = total;
            let mut picks: Vec<(usize, usize)> = Vec::new();
            for ix in indices(&dims)? {
                let mut along = *ix.get(k)? as i64;
                let mut which = 0;
                for (w, p) in parts.iter().enumerate() {
                    let d = *p.dims.get(k)?;
                    if along < d {
                        which = w;
                        break;
                    }
                    along -= d;
                }
                let mut src = ix.clone();
                *src.get_mut(k)? = along as usize;
                picks.push((which, flat(&src, &strides(&parts.get(which)?.dims))));
            }
            let all_int = parts.iter().all(|p| p.ints().is_some());
            let d = if all_int {
                Data::Int(
                    picks
                        .iter()
                        .map(|&(w, i)| parts.get(w)?.ints()?.get(i).copied())
                        .collect::<Option<_>>()?,
                )
            } else {
                let fl: Vec<Vec<f64>> = parts.iter().map(|p| p.floats()).collect::<Option<_>>()?;
                Data::Float(
                    picks
                        .iter()
                        .map(|&(w, i)| fl.get(w)?.get(i).copied())
                        .collect::<Option<_>>()?,
                )
            };
            one(wrap(dims, d))
        }
        "Transpose" => {
            let a = arg(0)?;
            let r = a.dims.len();
            let perm: Vec<usize> = match node.ints("perm") {
                Some(p) => p
                    .iter()
                    .map(|&x| usize::try_from(x).ok())
                    .collect::<Option<_>>()?,
                None => (0..r).rev().collect(),
            };
            let dims: Vec<i64> = perm
                .iter()
                .map(|&p| a.dims.get(p).copied())
                .collect::<Option<_>>()?;
            if a.data.is_none() {
                return one(Const { dims, data: None });
            }
            let st = strides(&a.dims);
            let mut picks = Vec::new();
            for ix in indices(&dims)? {
                let mut src = vec![0; r];
                for (o, &p) in perm.iter().enumerate() {
                    *src.get_mut(p)? = *ix.get(o)?;
                }
                picks.push(flat(&src, &st));
            }
            one(wrap(dims, pick(&data(a)?, &picks)?))
        }
        "Slice" => {
            let a = arg(0)?;
            let (starts, ends, axes, steps) = if opset >= 10 {
                (
                    arg(1)?.ints()?.to_vec(),
                    arg(2)?.ints()?.to_vec(),
                    arg(3).and_then(|c| c.ints().map(<[i64]>::to_vec)),
                    arg(4).and_then(|c| c.ints().map(<[i64]>::to_vec)),
                )
            } else {
                (
                    node.ints("starts")?.to_vec(),
                    node.ints("ends")?.to_vec(),
                    node.ints("axes").map(<[i64]>::to_vec),
                    None,
                )
            };
            let plan = slice_plan(&a.dims, &starts, &ends, axes.as_deref(), steps.as_deref())?;
            let dims: Vec<i64> = plan.iter().map(|&(_, _, n)| n).collect();
            let st = strides(&a.dims);
            let mut picks = Vec::new();
            for ix in indices(&dims)? {
                let src: Vec<usize> = ix
                    .iter()
                    .zip(&plan)
                    .map(|(&i, &(s, step, _))| {
                        let at = (i as i64).checked_mul(step)?.checked_add(s)?;
                        usize::try_from(at).ok()
                    })
                    .collect::<Option<_>>()?;
                picks.push(flat(&src, &st));
            }
            one(wrap(dims, pick(&data(a)?, &picks)?))
        }
        "Expand" => {
            let a = arg(0)?;
            let dims = broadcast(&a.dims, arg(1)?.ints()?)?;
            let mut picks = Vec::new();
            for ix in indices(&dims)? {
                picks.push(broadcast_index(&ix, &a.dims));
            }
            one(wrap(dims, pick(&data(a)?, &picks)?))
        }
        "Where" => {
            let (c, x, y) = (arg(0)?, arg(1)?, arg(2)?);
            let dims = broadcast(&broadcast(&c.dims, &x.dims)?, &y.dims)?;
            let cv = c.ints()?;
            let ints = x.ints().is_some() && y.ints().is_some();
            let (xf, yf) = (x.floats()?, y.floats()?);
            let mut v = Vec::new();
            for ix in indices(&dims)? {
                let cond = *cv.get(broadcast_index(&ix, &c.dims))? != 0;
                v.push(if cond {
                    *xf.get(broadcast_index(&ix, &x.dims))?
                } else {
                    *yf.get(broadcast_index(&ix, &y.dims))?
                });
            }
            let d = if ints {
                Data::Int(v.into_iter().map(|f| f as i64).collect())
            } else {
                Data::Float(v)
            };
            one(wrap(dims, d))
        }
        _ => None,
    }
}

/// A `Constant` node's value.
fn constant(node: &OnnxNode) -> Option<Const> {
    let a = node.attributes.first()?;
    Some(match &a.value {
        AttrValue::Tensor(t) => Const {
            dims: t.dims.clone(),
            data: t.values.clone(),
        },
        AttrValue::Int(i) if a.name == "value_int" => Const::int(vec![], vec![*i]),
        AttrValue::Ints(v) if a.name == "value_ints" => Const::int(vec![v.len() as i64], v.clone()),
        AttrValue::Float(f) if a.name == "value_float" => Const {
            dims: vec![],
            data: Some(TensorData::Float(vec![f64::from(*f)])),
        },
        AttrValue::Floats(v) if a.name == "value_floats" => Const {
            dims: vec![v.len() as i64],
            data: Some(TensorData::Float(v.iter().map(|&x| f64::from(x)).collect())),
        },
        _ => return None,
    })
}

/// The product of sizes, `None` on overflow.
pub fn checked_product(dims: &[i64]) -> Option<i64> {
    dims.iter().try_fold(1i64, |a, &d| a.checked_mul(d))
}

/// Unsqueeze: a 1 at each axis of the output.
pub fn unsqueeze(dims: &[i64], axes: &[i64]) -> Option<Vec<i64>> {
    let r = dims.len().checked_add(axes.len())?;
    let mut at: Vec<usize> = axes.iter().map(|&a| axis(a, r)).collect::<Option<_>>()?;
    at.sort_unstable();
    at.dedup();
    if at.len() != axes.len() {
        return None;
    }
    let mut src = dims.iter();
    (0..r)
        .map(|i| {
            if at.contains(&i) {
                Some(1)
            } else {
                src.next().copied()
            }
        })
        .collect()
}

/// Squeeze: drops the given size-1 axes (all size-1 axes when none are given).
pub fn squeeze(dims: &[i64], axes: Option<&[i64]>) -> Option<Vec<i64>> {
    match axes {
        None => Some(dims.iter().copied().filter(|&d| d != 1).collect()),
        Some(axes) => {
            let at: Vec<usize> = axes
                .iter()
                .map(|&a| axis(a, dims.len()))
                .collect::<Option<_>>()?;
            if at.iter().any(|&a| dims.get(a) != Some(&1)) {
                return None;
            }
            Some(
                dims.iter()
                    .enumerate()
                    .filter(|(i, _)| !at.contains(i))
                    .map(|(_, &d)| d)
                    .collect(),
            )
        }
    }
}

/// ONNX Reshape: `0` copies the input's size (unless `allowzero`), `-1` takes the rest.
pub fn reshape(dims: &[i64], shape: &[i64], allowzero: bool) -> Option<Vec<i64>> {
    let total = count(dims)?;
    let mut out: Vec<i64> = shape
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            if s == 0 && !allowzero {
                dims.get(i).copied()
            } else {
                Some(s)
            }
        })
        .collect::<Option<_>>()?;
    let unknown: Vec<usize> = out
        .iter()
        .enumerate()
        .filter(|(_, d)| **d == -1)
        .map(|(i, _)| i)
        .collect();
    let known = out.iter().filter(|&&d| d != -1).try_fold(1usize, |a, &d| {
        usize::try_from(d).ok().and_then(|d| a.checked_mul(d))
    })?;
    match unknown.as_slice() {
        [] if known == total => Some(out),
        [i] if known > 0 && total % known == 0 => {
            *out.get_mut(*i)? = i64::try_from(total / known).ok()?;
            Some(out)
        }
        _ => None,
    }
}

/// Per axis of `dims`: (first index, step, count) of an ONNX Slice.
pub fn slice_plan(
    dims: &[i64],
    starts: &[i64],
    ends: &[i64],
    axes: Option<&[i64]>,
    steps: Option<&[i64]>,
) -> Option<Vec<(i64, i64, i64)>> {
    let mut plan: Vec<(i64, i64, i64)> = dims.iter().map(|&d| (0, 1, d)).collect();
    let default_axes: Vec<i64> = (0..starts.len() as i64).collect();
    let axes = axes.unwrap_or(&default_axes);
    if starts.len() != ends.len() || axes.len() != starts.len() {
        return None;
    }
    for (k, &a) in axes.iter().enumerate() {
        let ax = axis(a, dims.len())?;
        let d = *dims.get(ax)?;
        let step = steps.and_then(|s| s.get(k).copied()).unwrap_or(1);
        if step == 0 || d < 0 {
            return None;
        }
        if d == 0 {
            *plan.get_mut(ax)? = (0, step, 0);
            continue;
        }
        let (s, e) = (*starts.get(k)?, *ends.get(k)?);
        let fix = |x: i64| if x < 0 { x.saturating_add(d) } else { x };
        let (s, e) = (fix(s), fix(e));
        let (s, e) = if step > 0 {
            (s.clamp(0, d), e.clamp(0, d))
        } else {
            (s.clamp(0, d - 1), e.clamp(-1, d - 1))
        };
        let (s128, e128, st128) = (i128::from(s), i128::from(e), i128::from(step));
        let n = if step > 0 {
            (e128 - s128 + st128 - 1).div_euclid(st128).max(0)
        } else {
            (s128 - e128 - st128 - 1).div_euclid(-st128).max(0)
        };
        let n = i64::try_from(n).ok()?;
        *plan.get_mut(ax)? = (s, step, n);
    }
    Some(plan)
}
