//! Python's builtins and its built-in types' methods (`len`, `range`, `zip`, `list.append`,
//! `str.format`, ...), the module namespaces (`math`, `numpy` for the shape arithmetic model
//! code does, `functools.partial`, `collections.OrderedDict`), and the glue that sends every
//! framework name to [`super::torch`] or [`super::keras`].

use std::cell::RefCell;
use std::rc::Rc;

use crate::core::Framework;

use super::ast::{BinOp, CmpOp, Expr};
use super::eval::{
    Ev, Interp, Site, holds_tensor, no_attribute, overflow, raise, range_len, unevaluated,
    unsupported,
};
use super::value::{
    Args, Class, Dict, FrameworkBase, Hole, Instance, Key, LayerKind, Partial, Value,
};

/// A module path as the evaluator knows it: `tensorflow.keras.layers` -> `keras.layers`,
/// `tensorflow` -> `tf`, `torch.nn.modules.conv` -> `torch.nn`.
pub fn canonical(path: &str) -> String {
    let mut parts: Vec<&str> = path.split('.').collect();
    match parts.first().copied() {
        Some("tensorflow") => parts[0] = "tf",
        Some("tf_keras") => parts[0] = "keras",
        _ => {}
    }
    if parts.len() >= 2 && parts[0] == "tf" && parts[1] == "keras" {
        parts.remove(0);
    }
    if parts.len() >= 3 && parts[0] == "tf" && parts[1] == "python" && parts[2] == "keras" {
        parts.drain(..2);
    }
    if parts.len() >= 2 && parts[0] == "keras" && parts[1] == "src" {
        parts.remove(1);
    }
    // `keras.layers.convolutional.Conv2D`, `torch.nn.modules.conv.Conv2d`: the class is
    // exported by the package itself.
    if parts.len() > 3
        && ((parts[0] == "keras" && parts[1] == "layers")
            || (parts[0] == "torch" && parts[1] == "nn" && parts[2] == "modules"))
        && parts
            .last()
            .is_some_and(|p| p.starts_with(|c: char| c.is_ascii_uppercase()))
    {
        let last = parts[parts.len() - 1];
        parts.truncate(2);
        parts.push(last);
    }
    // `torch.nn.modules.utils._pair` and its kin are functions of their own.
    if parts.len() > 3
        && parts[0] == "torch"
        && parts[1] == "nn"
        && parts[2] == "modules"
        && parts[3] != "utils"
    {
        parts.truncate(2);
    }
    let joined = parts.join(".");
    match joined.as_str() {
        "keras.models.Sequential" | "keras.Sequential" | "keras.engine.sequential.Sequential" => {
            "keras.Sequential".into()
        }
        "keras.models.Model"
        | "keras.Model"
        | "keras.engine.training.Model"
        | "keras.models.Functional" => "keras.Model".into(),
        "keras.layers.Input" | "keras.Input" | "keras.engine.input_layer.Input" => {
            "keras.Input".into()
        }
        "keras.backend" => "keras.backend".into(),
        _ => joined,
    }
}

/// The value `import path` gives.
pub fn module(path: &str) -> Value {
    Value::Api(Rc::from(canonical(path).as_str()))
}

/// `from path import *`: the names a model's code uses from it.
pub fn star_import(path: &str) -> Vec<(String, Value)> {
    let path = canonical(path);
    let names: Vec<&str> = match path.as_str() {
        // The classes and the functional merges (`concatenate([a, b])` in Keras 2 U-Nets).
        "keras.layers" => super::layers::KERAS_LAYERS
            .iter()
            .copied()
            .chain([
                "add",
                "subtract",
                "multiply",
                "maximum",
                "minimum",
                "concatenate",
                "average",
                "dot",
            ])
            .collect(),
        "keras.optimizers" => vec![
            "Adam", "AdamW", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam", "Ftrl",
            "Lion",
        ],
        "keras.callbacks" => vec![
            "ModelCheckpoint",
            "EarlyStopping",
            "ReduceLROnPlateau",
            "TensorBoard",
            "CSVLogger",
            "LearningRateScheduler",
            "Callback",
            "History",
            "TerminateOnNaN",
        ],
        "keras.losses" => vec![
            "binary_crossentropy",
            "categorical_crossentropy",
            "sparse_categorical_crossentropy",
            "mean_squared_error",
            "mean_absolute_error",
            "BinaryCrossentropy",
            "CategoricalCrossentropy",
            "SparseCategoricalCrossentropy",
            "MeanSquaredError",
            "MeanAbsoluteError",
        ],
        "torch.nn" => super::layers::TORCH_LAYERS.to_vec(),
        "keras.models" => vec!["Sequential", "Model"],
        "keras" => vec!["Sequential", "Model", "Input", "layers"],
        "math" => vec!["ceil", "floor", "sqrt", "log", "log2", "pi", "prod"],
        _ => Vec::new(),
    };
    names
        .into_iter()
        .map(|n| {
            (
                n.to_string(),
                Value::Api(Rc::from(canonical(&format!("{path}.{n}")).as_str())),
            )
        })
        .collect()
}

const PYTHON: &[&str] = &[
    "super",
    "len",
    "range",
    "int",
    "float",
    "str",
    "bool",
    "list",
    "tuple",
    "dict",
    "set",
    "zip",
    "enumerate",
    "isinstance",
    "issubclass",
    "min",
    "max",
    "sum",
    "abs",
    "print",
    "getattr",
    "setattr",
    "hasattr",
    "sorted",
    "reversed",
    "round",
    "any",
    "all",
    "map",
    "filter",
    "type",
    "callable",
    "divmod",
    "pow",
    "format",
    "repr",
    "iter",
    "next",
    "object",
    "property",
    "staticmethod",
    "classmethod",
    "id",
    "hash",
    "open",
    "input",
    "frozenset",
    "vars",
    "globals",
    "locals",
    "chr",
    "ord",
    "hex",
    "slice",
    "eval",
];

const EXCEPTIONS: &[&str] = &[
    "Exception",
    "BaseException",
    "ValueError",
    "TypeError",
    "KeyError",
    "IndexError",
    "AttributeError",
    "NotImplementedError",
    "RuntimeError",
    "AssertionError",
    "ImportError",
    "ModuleNotFoundError",
    "ZeroDivisionError",
    "StopIteration",
    "NameError",
    "OverflowError",
    "LookupError",
    "ArithmeticError",
    "OSError",
    "FileNotFoundError",
    "Warning",
    "UserWarning",
    "DeprecationWarning",
];

/// Which framework the paste is written for, from its code (comments left out), when its
/// imports did not say: names only one framework has (`Conv2D`, `Dense`; `Conv2d`, `Linear`,
/// `nn.`, `torch`) vote.
pub fn guess_framework(src: &str) -> Option<Framework> {
    let (mut torch, mut keras) = (0usize, 0usize);
    for line in src.lines() {
        let code = line.split('#').next().unwrap_or("");
        let words = code.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'));
        for w in words.filter(|w| !w.is_empty()) {
            let last = w.rsplit('.').next().unwrap_or(w);
            let keras_only = super::layers::KERAS_LAYERS.contains(&last)
                && !super::layers::TORCH_LAYERS.contains(&last);
            let torch_only = super::layers::TORCH_LAYERS.contains(&last)
                && !super::layers::KERAS_LAYERS.contains(&last);
            if torch_only || w.starts_with("torch") || w.starts_with("nn.") || w.starts_with("F.") {
                torch += 1;
            }
            if keras_only
                || w.starts_with("keras")
                || w.starts_with("tf.")
                || w.starts_with("layers.")
            {
                keras += 1;
            }
        }
    }
    match torch.cmp(&keras) {
        std::cmp::Ordering::Greater => Some(Framework::Torch),
        std::cmp::Ordering::Less => Some(Framework::Keras),
        std::cmp::Ordering::Equal => None,
    }
}

/// Positional argument `i` of a call to `what`, or Python's TypeError when it is missing.
fn required(pos: &[Value], i: usize, what: &str, line: usize) -> Ev<Value> {
    pos.get(i).cloned().ok_or_else(|| {
        raise(
            line,
            "TypeError",
            format!("{what}() missing a required argument"),
        )
    })
}

/// A name no statement of the paste defines: Python's builtins, and the names pastes use
/// without importing them (`nn`, `F`, `torch`, `layers`, `Conv2D`, ...).
pub fn builtin(name: &str, framework: Option<Framework>, src: &str) -> Option<Value> {
    if PYTHON.contains(&name) || EXCEPTIONS.contains(&name) {
        return Some(Value::api(name));
    }
    let fw = framework.or_else(|| guess_framework(src));
    let path = match name {
        "True" | "False" | "None" => return None,
        "__name__" => return Some(Value::str("padlab_paste")),
        "__file__" => return Some(Value::str("paste.py")),
        "nn" => "torch.nn",
        "F" => "torch.nn.functional",
        "torch" => "torch",
        "tf" => "tf",
        "keras" => "keras",
        "layers" => "keras.layers",
        "K" => "keras.backend",
        "np" | "numpy" => "numpy",
        "math" => "math",
        "functools" => "functools",
        "partial" => "functools.partial",
        "OrderedDict" => "collections.OrderedDict",
        "collections" => "collections",
        "models" if fw == Some(Framework::Torch) => "torchvision.models",
        "models" => "keras.models",
        "Sequential" | "Model" | "Input"
            if fw == Some(Framework::Torch) && name == "Sequential" =>
        {
            "torch.nn.Sequential"
        }
        "Sequential" => "keras.Sequential",
        "Model" => "keras.Model",
        "Input" => "keras.Input",
        _ if super::layers::KERAS_LAYERS.contains(&name)
            && (fw != Some(Framework::Torch) || !super::layers::TORCH_LAYERS.contains(&name)) =>
        {
            return Some(Value::Api(Rc::from(
                format!("keras.layers.{name}").as_str(),
            )));
        }
        _ if super::layers::TORCH_LAYERS.contains(&name) => {
            return Some(Value::Api(Rc::from(format!("torch.nn.{name}").as_str())));
        }
        _ => return None,
    };
    Some(Value::api(path))
}

/// The framework class a base class path names.
pub fn framework_base_of(path: &str) -> Option<FrameworkBase> {
    Some(match path {
        "torch.nn.Module" => FrameworkBase::TorchModule,
        "torch.nn.Sequential" => FrameworkBase::TorchSequential,
        "torch.nn.ModuleList" => FrameworkBase::TorchModuleList,
        "torch.nn.ModuleDict" => FrameworkBase::TorchModuleDict,
        "keras.layers.Layer" | "keras.Layer" => FrameworkBase::KerasLayer,
        "keras.Model" => FrameworkBase::KerasModel,
        "keras.Sequential" => FrameworkBase::KerasSequential,
        p if super::layers::is_layer_class(p) => FrameworkBase::Layer(Rc::from(p)),
        _ => return None,
    })
}

/// `super()` of `class`, bound to `me`.
pub fn make_super(class: &Rc<Class>, me: Value) -> Value {
    Value::Super(class.clone(), Rc::new(me))
}

// ---- Calls of builtins and namespaces ----

/// Calls the builtin or framework callable at `path`.
pub fn call_api(it: &mut Interp, path: &str, args: Args, site: &Site) -> Ev<Value> {
    let line = site.line;
    let root = path.split('.').next().unwrap_or("");
    match root {
        "torch" | "torchvision" | "torchaudio" => return super::torch::call(it, path, args, site),
        "keras" | "tf" => return super::keras::call(it, path, args, site),
        _ => {}
    }
    if EXCEPTIONS.contains(&path) {
        let message = args.pos.first().map(Value::to_string).unwrap_or_default();
        return Ok(Value::opaque(format!("{path}: {message}")));
    }
    args.poisoned()?;
    let Args { pos, kw } = args;
    let arg = |i: usize| pos.get(i).cloned();
    let need = |i: usize| required(&pos, i, path, line);
    Ok(match path {
        "super" => match (arg(0), arg(1)) {
            (Some(Value::Class(c)), Some(me)) => make_super(&c, me),
            _ => {
                return Err(raise(
                    line,
                    "RuntimeError",
                    "super(): padlab reads super() and super(Class, self)",
                ));
            }
        },
        // torchsummary's `summary(model, (1, 28, 28))` and torchinfo's `summary(model,
        // input_size=(16, 1, 28, 28))` (batch first) state the model's input.
        "torchsummary.summary" | "torchinfo.summary" => {
            let size = kw
                .iter()
                .find(|(k, _)| k.as_ref() == "input_size")
                .map(|(_, v)| v.clone())
                .or_else(|| arg(1));
            let id = match arg(0) {
                Some(Value::Instance(i)) => Some(i.id),
                Some(Value::Layer(l)) => Some(l.id),
                _ => None,
            };
            if let (Some(id), Some(size @ (Value::Tuple(_) | Value::List(_)))) = (id, size) {
                let dims = it.iterate(&size, line)?;
                if dims.iter().all(|d| matches!(d, Value::Int(n) if *n > 0)) {
                    let skip = usize::from(path == "torchinfo.summary");
                    let sample = dims[skip.min(dims.len())..]
                        .iter()
                        .map(|d| as_int(d, line).ok())
                        .collect();
                    it.declared.push((id, sample));
                }
            }
            it.effect = true;
            Value::opaque(format!("the result of {path}()"))
        }
        "len" => {
            let v = need(0)?;
            Value::Int(length(it, &v, line)?)
        }
        "range" => {
            let ints: Vec<i64> = pos.iter().map(|v| as_int(v, line)).collect::<Ev<_>>()?;
            let (a, b, s) = match ints.as_slice() {
                [b] => (0, *b, 1),
                [a, b] => (*a, *b, 1),
                [a, b, s] => (*a, *b, *s),
                _ => return Err(raise(line, "TypeError", "range expected 1 to 3 arguments")),
            };
            if s == 0 {
                return Err(raise(line, "ValueError", "range() arg 3 must not be zero"));
            }
            Value::Range(a, b, s)
        }
        "int" => match arg(0) {
            None => Value::Int(0),
            Some(Value::Float(x)) if x.is_finite() && x.abs() < 9.2e18 => {
                Value::Int(x.trunc() as i64)
            }
            Some(Value::Str(s)) => Value::Int(s.trim().parse().map_err(|_| {
                raise(
                    line,
                    "ValueError",
                    format!("invalid literal for int() with base 10: '{s}'"),
                )
            })?),
            Some(Value::Bool(b)) => Value::Int(i64::from(b)),
            Some(Value::Unknown) => Value::Unknown,
            Some(v @ Value::Int(_)) => v,
            Some(Value::Hole(h)) => return Err(super::eval::undefined(&h, line)),
            Some(Value::Tensor(_)) => {
                return Err(unsupported(
                    line,
                    "int() of a tensor's value: padlab traces shapes, not values",
                ));
            }
            Some(other) => {
                return Err(raise(
                    line,
                    "TypeError",
                    format!(
                        "int() argument must be a string or a number, not '{}'",
                        other.type_name()
                    ),
                ));
            }
        },
        "float" => match arg(0) {
            None => Value::Float(0.0),
            Some(Value::Int(i)) => Value::Float(i as f64),
            Some(Value::Bool(b)) => Value::Float(f64::from(u8::from(b))),
            Some(v @ Value::Float(_)) => v,
            Some(Value::Str(s)) => Value::Float(match s.trim() {
                "inf" | "+inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                "nan" => f64::NAN,
                t => t.parse().map_err(|_| {
                    raise(
                        line,
                        "ValueError",
                        format!("could not convert string to float: '{s}'"),
                    )
                })?,
            }),
            Some(Value::Unknown) => Value::Unknown,
            Some(other) => {
                return Err(raise(
                    line,
                    "TypeError",
                    format!(
                        "float() argument must be a string or a number, not '{}'",
                        other.type_name()
                    ),
                ));
            }
        },
        "str" => Value::str(&arg(0).map(|v| v.to_string()).unwrap_or_default()),
        "repr" => Value::str(&need(0)?.repr()),
        "bool" => {
            let v = arg(0).unwrap_or(Value::Bool(false));
            Value::Bool(it.truthy(&v, line)?)
        }
        "list" | "tuple" | "set" | "frozenset" | "sorted" | "reversed" | "iter" => {
            let items = match arg(0) {
                Some(v) => it.iterate(&v, line)?,
                None => Vec::new(),
            };
            match path {
                "list" | "iter" => Value::list(items),
                "tuple" => Value::tuple(items),
                "set" | "frozenset" => Value::set(items),
                "reversed" => Value::list(items.into_iter().rev().collect()),
                _ => {
                    let mut items = items;
                    sort(it, &mut items, line)?;
                    if let Some((_, r)) = kw.iter().find(|(k, _)| k.as_ref() == "reverse")
                        && it.truthy(r, line)?
                    {
                        items.reverse();
                    }
                    Value::list(items)
                }
            }
        }
        "next" => {
            let v = need(0)?;
            let items = it.iterate(&v, line)?;
            items
                .into_iter()
                .next()
                .ok_or_else(|| raise(line, "StopIteration", ""))?
        }
        "dict" | "collections.OrderedDict" | "collections.defaultdict" => {
            let mut d = Dict::default();
            if let Some(v) = arg(0).filter(|_| path != "collections.defaultdict") {
                let pairs = match &v {
                    Value::Dict(src) => src.borrow().entries.clone(),
                    other => {
                        let mut out = Vec::new();
                        for item in it.iterate(other, line)? {
                            let kv = it.iterate(&item, line)?;
                            let [k, v] = <[Value; 2]>::try_from(kv).map_err(|_| {
                                raise(
                                    line,
                                    "ValueError",
                                    "dictionary update sequence element has the wrong length",
                                )
                            })?;
                            out.push((k, v));
                        }
                        out
                    }
                };
                for (k, v) in pairs {
                    let hk = k
                        .key()
                        .ok_or_else(|| raise(line, "TypeError", "unhashable type"))?;
                    d.insert(hk, k, v);
                }
            }
            for (k, v) in kw {
                d.insert(Key::Str(k.clone()), Value::Str(k), v);
            }
            Value::Dict(Rc::new(RefCell::new(d)))
        }
        "zip" => {
            let lists: Vec<Vec<Value>> =
                pos.iter().map(|v| it.iterate(v, line)).collect::<Ev<_>>()?;
            let n = lists.iter().map(Vec::len).min().unwrap_or(0);
            Value::list(
                (0..n)
                    .map(|i| Value::tuple(lists.iter().map(|l| l[i].clone()).collect()))
                    .collect(),
            )
        }
        "enumerate" => {
            let items = it.iterate(&need(0)?, line)?;
            let start = match arg(1).or_else(|| {
                kw.iter()
                    .find(|(k, _)| k.as_ref() == "start")
                    .map(|(_, v)| v.clone())
            }) {
                Some(v) => as_int(&v, line)?,
                None => 0,
            };
            Value::list(
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| Value::tuple(vec![Value::Int(start.saturating_add(i as i64)), v]))
                    .collect(),
            )
        }
        "isinstance" | "issubclass" => {
            let v = need(0)?;
            let kinds = need(1)?;
            let kinds = match kinds {
                Value::Tuple(t) => t.to_vec(),
                other => vec![other],
            };
            Value::Bool(
                kinds
                    .iter()
                    .any(|k| is_instance(it, &v, k, path == "issubclass")),
            )
        }
        "min" | "max" => {
            let items = if pos.len() == 1 {
                it.iterate(&pos[0], line)?
            } else {
                pos.clone()
            };
            if items.iter().any(|v| matches!(v, Value::Unknown)) {
                return Ok(Value::Unknown);
            }
            let mut best: Option<Value> = None;
            for v in items {
                best = Some(match best {
                    None => v,
                    Some(b) => {
                        let better = if path == "max" {
                            compare(it, CmpOp::Gt, &v, &b, line)?
                        } else {
                            compare(it, CmpOp::Lt, &v, &b, line)?
                        };
                        if better { v } else { b }
                    }
                });
            }
            best.ok_or_else(|| {
                raise(
                    line,
                    "ValueError",
                    format!("{path}() arg is an empty sequence"),
                )
            })?
        }
        "sum" => {
            let items = it.iterate(&need(0)?, line)?;
            let mut acc = arg(1).unwrap_or(Value::Int(0));
            for v in items {
                acc = if matches!(acc, Value::Tensor(_)) || matches!(v, Value::Tensor(_)) {
                    super::ops::tensor_binary_at(it, BinOp::Add, acc, v, line, site)?
                } else {
                    arithmetic(it, BinOp::Add, acc, v, line)?
                };
            }
            acc
        }
        "abs" => match need(0)? {
            Value::Int(i) => Value::Int(i.checked_abs().ok_or_else(|| overflow(line))?),
            Value::Float(x) => Value::Float(x.abs()),
            Value::Unknown => Value::Unknown,
            v @ Value::Opaque(_) => v,
            other => {
                return Err(raise(
                    line,
                    "TypeError",
                    format!("bad operand type for abs(): '{}'", other.type_name()),
                ));
            }
        },
        "round" => match (need(0)?, arg(1)) {
            (Value::Float(x), None) => Value::Int(round_half_even(x) as i64),
            (Value::Float(x), Some(Value::Int(n))) => {
                let f = 10f64.powi(n.clamp(-300, 300) as i32);
                Value::Float(round_half_even(x * f) / f)
            }
            (v @ Value::Int(_), _) => v,
            (Value::Unknown, _) => Value::Unknown,
            (other, _) => {
                return Err(raise(
                    line,
                    "TypeError",
                    format!("type {} doesn't define __round__", other.type_name()),
                ));
            }
        },
        "divmod" => {
            let (a, b) = (need(0)?, need(1)?);
            let q = arithmetic(it, BinOp::FloorDiv, a.clone(), b.clone(), line)?;
            let r = arithmetic(it, BinOp::Mod, a, b, line)?;
            Value::tuple(vec![q, r])
        }
        "pow" => arithmetic(it, BinOp::Pow, need(0)?, need(1)?, line)?,
        "any" | "all" => {
            let items = it.iterate(&need(0)?, line)?;
            let mut out = path == "all";
            for v in items {
                let t = it.truthy(&v, line)?;
                if path == "any" && t {
                    out = true;
                    break;
                }
                if path == "all" && !t {
                    out = false;
                    break;
                }
            }
            Value::Bool(out)
        }
        "map" => {
            let f = need(0)?;
            let lists: Vec<Vec<Value>> = pos[1..]
                .iter()
                .map(|v| it.iterate(v, line))
                .collect::<Ev<_>>()?;
            let n = lists.iter().map(Vec::len).min().unwrap_or(0);
            let mut out = Vec::with_capacity(n);
            for i in 0..n {
                let args = lists.iter().map(|l| l[i].clone()).collect();
                out.push(it.call(f.clone(), args, vec![], site)?);
            }
            Value::list(out)
        }
        "filter" => {
            let f = need(0)?;
            let mut out = Vec::new();
            for v in it.iterate(&need(1)?, line)? {
                let keep = match &f {
                    Value::None => it.truthy(&v, line)?,
                    f => {
                        let r = it.call(f.clone(), vec![v.clone()], vec![], site)?;
                        it.truthy(&r, line)?
                    }
                };
                if keep {
                    out.push(v);
                }
            }
            Value::list(out)
        }
        "getattr" => {
            let o = need(0)?;
            let name = need(1)?.to_string();
            match it.getattr(&o, &name, line) {
                Ok(v) => v,
                Err(e) => match arg(2) {
                    Some(d) if matches!(&e.kind, super::eval::FailKind::Python(n) if n == "AttributeError") => {
                        d
                    }
                    _ => return Err(e),
                },
            }
        }
        "hasattr" => {
            let o = need(0)?;
            let name = need(1)?.to_string();
            Value::Bool(it.getattr(&o, &name, line).is_ok())
        }
        "setattr" => {
            let o = need(0)?;
            let name = need(1)?.to_string();
            match &o {
                Value::Instance(i) => i.attrs.borrow_mut().insert(
                    Key::Str(Rc::from(name.as_str())),
                    Value::str(&name),
                    need(2)?,
                ),
                // A method added to a class after its definition (d2l's `add_to_class`):
                // instances made later find it as Python's would.
                Value::Class(c) => {
                    let v = need(2)?;
                    if let Value::Function(f) = &v {
                        f.class.replace(Some(Rc::downgrade(c)));
                    }
                    c.attrs.borrow_mut().insert(
                        Key::Str(Rc::from(name.as_str())),
                        Value::str(&name),
                        v,
                    )
                }
                _ => {}
            }
            Value::None
        }
        "type" => match need(0)? {
            Value::Instance(i) => Value::Class(i.class.clone()),
            Value::Partial(_) => Value::api("functools.partial"),
            Value::Layer(l) => Value::Api(Rc::from(super::layers::api_path(&l).as_str())),
            other => Value::api(&other.type_name()),
        },
        "callable" => Value::Bool(matches!(
            need(0)?,
            Value::Function(_)
                | Value::Bound(..)
                | Value::Api(_)
                | Value::Class(_)
                | Value::Layer(_)
                | Value::Partial(_)
                | Value::Method(..)
        )),
        "format" => Value::str(&format_value(
            &need(0)?,
            &arg(1).map(|v| v.to_string()).unwrap_or_default(),
            line,
        )?),
        "print" | "input" | "open" | "vars" | "globals" | "locals" | "id" | "hash" => {
            if path != "print" {
                it.effect = true;
            }
            if path == "print" {
                Value::None
            } else {
                Value::opaque(format!("the result of {path}()"))
            }
        }
        "object" => Value::opaque("an object"),
        "property" | "staticmethod" | "classmethod" => need(0)?,
        "chr" => Value::str(
            &char::from_u32(as_int(&need(0)?, line)? as u32)
                .map(String::from)
                .unwrap_or_default(),
        ),
        "ord" => Value::Int(need(0)?.to_string().chars().next().map_or(0, |c| c as i64)),
        "hex" => Value::str(&format!("{:#x}", as_int(&need(0)?, line)?)),
        "slice" => {
            let mut parts = [Value::None, Value::None, Value::None];
            match pos.len() {
                1 => parts[1] = pos[0].clone(),
                n => {
                    for (slot, v) in parts.iter_mut().zip(pos.iter().take(n.min(3))) {
                        *slot = v.clone();
                    }
                }
            }
            Value::Slice(Rc::new(parts.to_vec().into()))
        }
        // `@wraps(f)` copies a name and a docstring: the decorated function is unchanged.
        "functools.wraps" | "functools.lru_cache" | "functools.cache" => {
            Value::api("functools.identity_decorator")
        }
        "functools.partial" => {
            let func = need(0)?;
            Value::Partial(Rc::new(Partial {
                func,
                args: pos[1..].to_vec(),
                kwargs: kw,
            }))
        }
        "functools.reduce" => {
            let f = need(0)?;
            let mut items = it.iterate(&need(1)?, line)?.into_iter();
            let mut acc = match arg(2) {
                Some(v) => v,
                None => items.next().ok_or_else(|| {
                    raise(
                        line,
                        "TypeError",
                        "reduce() of empty iterable with no initial value",
                    )
                })?,
            };
            for v in items {
                acc = it.call(f.clone(), vec![acc, v], vec![], site)?;
            }
            acc
        }
        "copy.deepcopy" | "copy.copy" => super::layers::copy_value(it, &need(0)?, line)?,
        "math.ceil" | "math.floor" | "math.trunc" | "numpy.ceil" | "numpy.floor" => {
            match need(0)? {
                Value::Float(x) => {
                    let r = match path.rsplit('.').next() {
                        Some("ceil") => x.ceil(),
                        Some("floor") => x.floor(),
                        _ => x.trunc(),
                    };
                    if path.starts_with("numpy") {
                        Value::Float(r)
                    } else {
                        Value::Int(r as i64)
                    }
                }
                v @ Value::Int(_) => v,
                Value::Unknown => Value::Unknown,
                other => {
                    return Err(raise(
                        line,
                        "TypeError",
                        format!("must be real number, not {}", other.type_name()),
                    ));
                }
            }
        }
        "math.sqrt" | "math.log" | "math.log2" | "math.log10" | "math.exp" | "numpy.sqrt"
        | "numpy.log" | "numpy.log2" | "numpy.exp" => {
            let x = as_float(&need(0)?, line)?;
            Value::Float(match path.rsplit('.').next() {
                Some("sqrt") => x.sqrt(),
                Some("log") => match arg(1) {
                    Some(b) => x.ln() / as_float(&b, line)?.ln(),
                    None => x.ln(),
                },
                Some("log2") => x.log2(),
                Some("log10") => x.log10(),
                _ => x.exp(),
            })
        }
        "math.prod" | "numpy.prod" | "numpy.product" => {
            let mut acc = Value::Int(1);
            for v in it.iterate(&need(0)?, line)? {
                acc = arithmetic(it, BinOp::Mul, acc, v, line)?;
            }
            acc
        }
        "math.gcd" => {
            let (mut a, mut b) = (
                as_int(&need(0)?, line)?.abs(),
                as_int(&need(1)?, line)?.abs(),
            );
            while b != 0 {
                (a, b) = (b, a % b);
            }
            Value::Int(a)
        }
        "math.isclose" => {
            Value::Bool((as_float(&need(0)?, line)? - as_float(&need(1)?, line)?).abs() < 1e-9)
        }
        "numpy.array" | "numpy.asarray" => need(0)?,
        "numpy.linspace" | "numpy.arange" => constant_range(
            it,
            false,
            path.trim_start_matches("numpy."),
            &pos,
            &kw,
            line,
        )?,
        "numpy.int" | "numpy.int32" | "numpy.int64" => call_api(it, "int", Args { pos, kw }, site)?,
        "numpy.float32" | "numpy.float64" => call_api(it, "float", Args { pos, kw }, site)?,
        "itertools.chain" => {
            let mut out = Vec::new();
            for v in &pos {
                out.extend(it.iterate(v, line)?);
            }
            Value::list(out)
        }
        "itertools.product" => {
            let lists: Vec<Vec<Value>> =
                pos.iter().map(|v| it.iterate(v, line)).collect::<Ev<_>>()?;
            let mut out: Vec<Vec<Value>> = vec![Vec::new()];
            for l in &lists {
                let mut next = Vec::new();
                for prefix in &out {
                    for v in l {
                        let mut p = prefix.clone();
                        p.push(v.clone());
                        next.push(p);
                    }
                }
                out = next;
                if out.len() > super::eval::MAX_ITEMS {
                    return Err(raise(line, "MemoryError", "too many items"));
                }
            }
            Value::list(out.into_iter().map(Value::tuple).collect())
        }
        "collections.namedtuple" | "typing.NamedTuple" => Value::api("tuple"),
        "typing.cast" => need(1)?,
        // A string is evaluated where `eval` is called (`Interp::eval_text`).
        "eval" => {
            return Err(raise(
                line,
                "TypeError",
                "eval() arg 1 must be a string, bytes or code object",
            ));
        }
        "argparse.ArgumentParser" => synthetic(it, "ArgumentParser"),
        "argparse.Namespace" | "types.SimpleNamespace" => {
            let ns = synthetic(it, "Namespace");
            if let Value::Instance(i) = &ns {
                for (k, v) in kw {
                    i.attrs
                        .borrow_mut()
                        .insert(Key::Str(k.clone()), Value::Str(k), v);
                }
            }
            ns
        }
        _ => {
            return unevaluated(it, path, &Args { pos, kw }, site, |call| {
                format!("`{call}` applies {path} to a tensor: padlab does not evaluate {path}")
            });
        }
    })
}

fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 {
        2.0 * (x / 2.0).round()
    } else {
        r
    }
}

/// Whether `v` is an instance of `kind` (a user class, a framework class path, a builtin).
fn is_instance(it: &Interp, v: &Value, kind: &Value, subclass: bool) -> bool {
    fn derives(c: &Rc<Class>, target: &Value) -> bool {
        match target {
            Value::Class(t) if Rc::ptr_eq(c, t) => true,
            Value::Api(p) if c.framework.as_ref().is_some_and(|b| base_is(b, p)) => true,
            _ => c.bases.iter().any(|b| match b {
                Value::Class(b) => derives(b, target),
                Value::Api(p) => matches!(target, Value::Api(t) if t == p || t.as_ref() == "torch.nn.Module" && p.starts_with("torch.nn") || t.as_ref() == "keras.layers.Layer" && p.starts_with("keras")),
                _ => false,
            }),
        }
    }
    let _ = it;
    if subclass {
        return match v {
            Value::Class(c) => derives(c, kind),
            _ => false,
        };
    }
    let Value::Api(k) = kind else {
        return match (v, kind) {
            (Value::Instance(i), k) => derives(&i.class, k),
            _ => false,
        };
    };
    match (v, k.as_ref()) {
        (Value::Instance(i), _) => derives(&i.class, kind),
        (Value::Layer(l), k) => {
            let own = super::layers::api_path(l);
            own == k
                || (k == "torch.nn.Module" && l.framework == Framework::Torch)
                || (matches!(k, "keras.layers.Layer" | "keras.Layer")
                    && l.framework == Framework::Keras)
                || (k == "keras.Model"
                    && matches!(
                        l.kind,
                        LayerKind::Functional { .. } | LayerKind::Sequential(_)
                    )
                    && l.framework == Framework::Keras)
                || (k.starts_with("torch.nn.modules.")
                    && own.ends_with(k.rsplit('.').next().unwrap_or("")))
                || super::layers::is_family(&own, k)
        }
        (Value::Tensor(_), "torch.Tensor" | "tf.Tensor" | "keras.KerasTensor") => true,
        (Value::Int(_), "int")
        | (Value::Float(_), "float")
        | (Value::Str(_), "str")
        | (Value::Bool(_), "bool" | "int") => true,
        (Value::List(_), "list")
        | (Value::Tuple(_), "tuple")
        | (Value::Dict(_), "dict" | "collections.OrderedDict")
        | (Value::Set(_), "set") => true,
        (Value::Int(_) | Value::Float(_), "numbers.Number") => true,
        _ => false,
    }
}

fn base_is(b: &FrameworkBase, path: &str) -> bool {
    match b {
        FrameworkBase::TorchModule => path == "torch.nn.Module",
        FrameworkBase::TorchSequential => matches!(path, "torch.nn.Sequential" | "torch.nn.Module"),
        FrameworkBase::TorchModuleList => matches!(path, "torch.nn.ModuleList" | "torch.nn.Module"),
        FrameworkBase::TorchModuleDict => matches!(path, "torch.nn.ModuleDict" | "torch.nn.Module"),
        FrameworkBase::KerasLayer => matches!(path, "keras.layers.Layer" | "keras.Layer"),
        FrameworkBase::KerasModel => {
            matches!(path, "keras.Model" | "keras.layers.Layer" | "keras.Layer")
        }
        FrameworkBase::KerasSequential => matches!(
            path,
            "keras.Sequential" | "keras.Model" | "keras.layers.Layer"
        ),
        FrameworkBase::Layer(p) => {
            p.as_ref() == path
                || path == "torch.nn.Module" && p.starts_with("torch")
                || path == "keras.layers.Layer" && p.starts_with("keras")
        }
    }
}

/// A builtin value's method, called.
pub fn call_method(
    it: &mut Interp,
    obj: &Value,
    name: &str,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let arg = |i: usize| pos.get(i).cloned();
    let need = |i: usize| required(&pos, i, name, line);
    match obj {
        Value::Tensor(t) => return super::ops::tensor_method(it, t, name, Args { pos, kw }, site),
        Value::Weight(w) => return super::ops::weight_method(it, w, obj, name, &pos, site),
        Value::Layer(l) => return super::layers::layer_method(it, l, name, Args { pos, kw }, site),
        Value::Instance(i) => return framework_method(it, i, name, Args { pos, kw }, site),
        Value::Super(c, me) => return super_method(it, c, me, name, Args { pos, kw }, site),
        Value::Param(..) | Value::Opaque(_) => {
            if pos.iter().any(holds_tensor) {
                return Err(unsupported(
                    line,
                    format!(
                        "`{}`: padlab does not evaluate this",
                        super::eval::short(&site.text)
                    ),
                ));
            }
            return Ok(match name {
                "size" => match obj {
                    Value::Param(l, n) => super::layers::param_shape(l, n)
                        .map_or(Value::opaque("a size"), |s| {
                            Value::tuple(s.into_iter().map(Value::Int).collect())
                        }),
                    _ => Value::opaque("a size"),
                },
                "numel" => match obj {
                    Value::Param(l, n) => super::layers::param_shape(l, n)
                        .and_then(|s| s.iter().try_fold(1i64, |a, &d| a.checked_mul(d)))
                        .map_or(Value::opaque("a count"), Value::Int),
                    _ => Value::opaque("a count"),
                },
                _ => obj.clone(),
            });
        }
        Value::Int(_) | Value::Float(_) if name == "item" => return Ok(obj.clone()),
        Value::List(l) if name == "tolist" => return Ok(Value::list(l.borrow().to_vec())),
        Value::List(l) => {
            return Ok(match name {
                "append" => {
                    l.borrow_mut().push(need(0)?);
                    check(l.borrow().len(), line)?;
                    Value::None
                }
                "extend" => {
                    let items = it.iterate(&need(0)?, line)?;
                    l.borrow_mut().extend(items);
                    check(l.borrow().len(), line)?;
                    Value::None
                }
                "insert" => {
                    let at = as_int(&need(0)?, line)?;
                    let v = need(1)?;
                    let mut l = l.borrow_mut();
                    let at = insert_index(at, l.len());
                    l.insert(at, v);
                    Value::None
                }
                "pop" => {
                    let mut l = l.borrow_mut();
                    let len = l.len() as i64;
                    let at = match arg(0) {
                        Some(v) => as_int(&v, line)?,
                        None => -1,
                    };
                    let at = if at < 0 { at + len } else { at };
                    if !(0..len).contains(&at) {
                        return Err(raise(line, "IndexError", "pop index out of range"));
                    }
                    l.remove(at as usize)
                }
                "index" | "count" | "remove" => {
                    let v = need(0)?;
                    let items = l.borrow().clone();
                    let mut hits = Vec::new();
                    for (k, x) in items.iter().enumerate() {
                        if compare(it, CmpOp::Eq, x, &v, line)? {
                            hits.push(k);
                        }
                    }
                    match name {
                        "count" => Value::Int(hits.len() as i64),
                        "index" => Value::Int(*hits.first().ok_or_else(|| {
                            raise(line, "ValueError", format!("{v} is not in list"))
                        })? as i64),
                        _ => {
                            let k = *hits.first().ok_or_else(|| {
                                raise(line, "ValueError", "list.remove(x): x not in list")
                            })?;
                            l.borrow_mut().remove(k);
                            Value::None
                        }
                    }
                }
                "reverse" => {
                    l.borrow_mut().reverse();
                    Value::None
                }
                "sort" => {
                    let mut items = l.borrow().clone();
                    sort(it, &mut items, line)?;
                    *l.borrow_mut() = items;
                    Value::None
                }
                "copy" => Value::list(l.borrow().to_vec()),
                "clear" => {
                    l.borrow_mut().clear();
                    Value::None
                }
                _ => {
                    return Err(no_attribute(line, "list", name));
                }
            });
        }
        Value::Dict(d) => {
            return Ok(match name {
                "items" => Value::list(
                    d.borrow()
                        .entries
                        .iter()
                        .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
                        .collect(),
                ),
                "keys" => Value::list(d.borrow().entries.iter().map(|(k, _)| k.clone()).collect()),
                "values" => {
                    Value::list(d.borrow().entries.iter().map(|(_, v)| v.clone()).collect())
                }
                "get" | "pop" | "setdefault" => {
                    let k = need(0)?;
                    let hk = k
                        .key()
                        .ok_or_else(|| raise(line, "TypeError", "unhashable type"))?;
                    let found = d.borrow().get(&hk).cloned();
                    match (name, found) {
                        ("pop", Some(_)) => d.borrow_mut().remove(&hk).unwrap_or(Value::None),
                        (_, Some(v)) => v,
                        ("setdefault", None) => {
                            let v = arg(1).unwrap_or(Value::None);
                            d.borrow_mut().insert(hk, k, v.clone());
                            v
                        }
                        ("pop", None) => arg(1).ok_or_else(|| raise(line, "KeyError", k.repr()))?,
                        (_, None) => arg(1).unwrap_or(Value::None),
                    }
                }
                "update" => {
                    if let Some(Value::Dict(other)) = arg(0) {
                        for (k, v) in other.borrow().entries.clone() {
                            if let Some(hk) = k.key() {
                                d.borrow_mut().insert(hk, k, v);
                            }
                        }
                    } else if let Some(other) = arg(0) {
                        for item in it.iterate(&other, line)? {
                            let kv = it.iterate(&item, line)?;
                            if let [k, v] = kv.as_slice()
                                && let Some(hk) = k.key()
                            {
                                d.borrow_mut().insert(hk, k.clone(), v.clone());
                            }
                        }
                    }
                    for (k, v) in kw {
                        d.borrow_mut().insert(Key::Str(k.clone()), Value::Str(k), v);
                    }
                    Value::None
                }
                "copy" => Value::Dict(Rc::new(RefCell::new(d.borrow().clone()))),
                "clear" => {
                    *d.borrow_mut() = Dict::default();
                    Value::None
                }
                _ => {
                    return Err(no_attribute(line, "dict", name));
                }
            });
        }
        Value::Set(s) => {
            return Ok(match name {
                "add" => {
                    let v = need(0)?;
                    let k = v.key();
                    if !s.borrow().iter().any(|x| x.key() == k) {
                        s.borrow_mut().push(v);
                    }
                    Value::None
                }
                _ => Value::opaque(format!("set.{name}")),
            });
        }
        Value::Tuple(t) => {
            return Ok(match name {
                "index" | "count" => {
                    let v = need(0)?;
                    let mut hits = Vec::new();
                    for (k, x) in t.iter().enumerate() {
                        if compare(it, CmpOp::Eq, x, &v, line)? {
                            hits.push(k);
                        }
                    }
                    if name == "count" {
                        Value::Int(hits.len() as i64)
                    } else {
                        Value::Int(*hits.first().ok_or_else(|| {
                            raise(line, "ValueError", "tuple.index(x): x not in tuple")
                        })? as i64)
                    }
                }
                // `x.size()` returns a torch.Size: `numel()` is its product.
                "numel" => {
                    let mut acc = Value::Int(1);
                    for v in t.iter() {
                        acc = arithmetic(it, BinOp::Mul, acc, v.clone(), line)?;
                    }
                    acc
                }
                "as_list" => Value::list(t.to_vec()),
                _ => {
                    return Err(no_attribute(line, "tuple", name));
                }
            });
        }
        Value::Str(s) => return str_method(it, s, name, &pos, &kw, line),
        _ => {}
    }
    Err(no_attribute(line, &obj.type_name(), name))
}

fn str_method(
    it: &mut Interp,
    s: &str,
    name: &str,
    pos: &[Value],
    kw: &[(Rc<str>, Value)],
    line: usize,
) -> Ev<Value> {
    let arg_s = |i: usize| pos.get(i).map(Value::to_string).unwrap_or_default();
    Ok(match name {
        "format" => {
            let out = format_str(s, pos, kw, line)?;
            check(out.len(), line)?;
            Value::str(&out)
        }
        "join" => {
            let items = it.iterate(pos.first().unwrap_or(&Value::None), line)?;
            let out = items
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(s);
            check(out.len(), line)?;
            Value::str(&out)
        }
        "split" => {
            let parts: Vec<Value> = if pos.is_empty() {
                s.split_whitespace().map(Value::str).collect()
            } else {
                s.split(arg_s(0).as_str()).map(Value::str).collect()
            };
            Value::list(parts)
        }
        "lower" => Value::str(&s.to_lowercase()),
        "upper" => Value::str(&s.to_uppercase()),
        "strip" => Value::str(s.trim()),
        "lstrip" => Value::str(s.trim_start()),
        "rstrip" => Value::str(s.trim_end()),
        "capitalize" | "title" => {
            let mut c = s.chars();
            Value::str(
                &c.next()
                    .map(|f| {
                        f.to_uppercase()
                            .chain(c.flat_map(char::to_lowercase))
                            .collect::<String>()
                    })
                    .unwrap_or_default(),
            )
        }
        "startswith" => Value::Bool(s.starts_with(arg_s(0).as_str())),
        "endswith" => Value::Bool(s.ends_with(arg_s(0).as_str())),
        "replace" => {
            let out = s.replace(arg_s(0).as_str(), &arg_s(1));
            check(out.len(), line)?;
            Value::str(&out)
        }
        "find" | "index" => match s.find(arg_s(0).as_str()) {
            Some(i) => Value::Int(s[..i].chars().count() as i64),
            None if name == "find" => Value::Int(-1),
            None => return Err(raise(line, "ValueError", "substring not found")),
        },
        "count" => Value::Int(s.matches(arg_s(0).as_str()).count() as i64),
        "isdigit" => Value::Bool(!s.is_empty() && s.chars().all(|c| c.is_ascii_digit())),
        "zfill" => {
            let w = pos
                .first()
                .map(|v| as_int(v, line))
                .transpose()?
                .unwrap_or(0)
                .clamp(0, 1_000_000) as usize;
            Value::str(&format!("{s:0>w$}"))
        }
        _ => {
            return Err(no_attribute(line, "str", name));
        }
    })
}

fn check(n: usize, line: usize) -> Ev<()> {
    if n > super::eval::MAX_ITEMS {
        return Err(super::eval::Failure {
            line,
            message: format!(
                "a collection of more than {} items: padlab stops there",
                super::eval::MAX_ITEMS
            ),
            kind: super::eval::FailKind::Limit,
        });
    }
    Ok(())
}

/// `str.format`.
fn format_str(s: &str, pos: &[Value], kw: &[(Rc<str>, Value)], line: usize) -> Ev<String> {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    let mut auto = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let mut field = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    field.push(c);
                }
                let (name, spec) = field.split_once(':').unwrap_or((&field, ""));
                let name = name.split('!').next().unwrap_or("");
                let v = if name.is_empty() {
                    auto += 1;
                    pos.get(auto - 1).cloned()
                } else if let Ok(i) = name.parse::<usize>() {
                    pos.get(i).cloned()
                } else {
                    kw.iter()
                        .find(|(k, _)| k.as_ref() == name)
                        .map(|(_, v)| v.clone())
                };
                let v = v.ok_or_else(|| {
                    raise(
                        line,
                        "IndexError",
                        format!("Replacement index {name} out of range"),
                    )
                })?;
                out.push_str(&format_value(&v, spec, line)?);
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// `format(v, spec)` for the specs model code uses (`d`, `.2f`, `>4`, `03d`).
pub fn format_value(v: &Value, spec: &str, line: usize) -> Ev<String> {
    if let Value::Poison(f) = v {
        return Err((**f).clone());
    }
    if spec.is_empty() {
        return Ok(v.to_string());
    }
    let (align_fill, rest) = match spec.chars().next() {
        Some(c @ ('<' | '>' | '^')) => (Some((' ', c)), &spec[1..]),
        _ => match (spec.chars().next(), spec.chars().nth(1)) {
            (Some(f), Some(a @ ('<' | '>' | '^'))) => (Some((f, a)), &spec[f.len_utf8() + 1..]),
            _ => (None, spec),
        },
    };
    let zero = rest.starts_with('0');
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let width: usize = digits.parse().unwrap_or(0).min(10_000);
    let rest = &rest[digits.len()..];
    let body = if let Some(p) = rest.strip_prefix('.') {
        let prec: String = p.chars().take_while(|c| c.is_ascii_digit()).collect();
        let prec: usize = prec.parse().unwrap_or(6).min(100);
        let x = match v {
            Value::Int(i) => *i as f64,
            Value::Float(x) => *x,
            _ => {
                return Err(raise(
                    line,
                    "ValueError",
                    format!("Unknown format code for object of type '{}'", v.type_name()),
                ));
            }
        };
        if p.ends_with('%') {
            format!("{:.*}%", prec, x * 100.0)
        } else if p.ends_with('e') {
            format!("{x:.prec$e}")
        } else {
            format!("{x:.prec$}")
        }
    } else {
        v.to_string()
    };
    Ok(match align_fill {
        Some((fill, a)) if body.chars().count() < width => {
            let pad = width - body.chars().count();
            let f = |n: usize| fill.to_string().repeat(n);
            match a {
                '<' => format!("{body}{}", f(pad)),
                '^' => format!("{}{body}{}", f(pad / 2), f(pad - pad / 2)),
                _ => format!("{}{body}", f(pad)),
            }
        }
        None if zero && body.len() < width => format!("{body:0>width$}"),
        None if body.chars().count() < width => {
            if matches!(v, Value::Int(_) | Value::Float(_)) {
                format!("{body:>width$}")
            } else {
                format!("{body:<width$}")
            }
        }
        _ => body,
    })
}

// ---- Attributes ----

/// An attribute of a value that is not a user instance or class.
pub fn getattr(it: &mut Interp, o: &Value, name: &str, line: usize) -> Ev<Value> {
    match o {
        Value::Api(path) => {
            let full = canonical(&format!("{path}.{name}"));
            if let Some(v) = super::zoo::attr(it, &full, line)? {
                return Ok(v);
            }
            Ok(api_attr(&full))
        }
        Value::Tensor(t) => super::ops::tensor_attr(it, t, name, line),
        Value::Layer(l) => super::layers::layer_attr(it, l, name, line),
        // An attribute of something padlab does not model is as opaque.
        Value::Opaque(what) => Ok(Value::Opaque(what.clone())),
        Value::Param(l, n) => Ok(match name {
            "data" => o.clone(),
            "requires_grad" => Value::Bool(true),
            "shape" => super::layers::param_shape(l, n).map_or(Value::opaque("a shape"), |s| {
                Value::tuple(s.into_iter().map(Value::Int).collect())
            }),
            _ => Value::Method(Rc::new(o.clone()), Rc::from(name)),
        }),
        Value::Super(..) => Ok(Value::Method(Rc::new(o.clone()), Rc::from(name))),
        Value::Weight(w) => Ok(match name {
            "data" => o.clone(),
            "shape" => Value::tuple(w.shape.iter().map(|&d| Value::Int(d)).collect()),
            "requires_grad" => Value::Bool(true),
            _ => Value::Method(Rc::new(o.clone()), Rc::from(name)),
        }),
        Value::Unknown => Err(unsupported(line, "an attribute of an unknown size")),
        Value::Function(f) if name == "__name__" => Ok(Value::Str(f.name.clone())),
        Value::Partial(p) => match name {
            "func" => Ok(p.func.clone()),
            "args" => Ok(Value::tuple(p.args.clone())),
            "keywords" => {
                let mut d = Dict::default();
                for (k, v) in &p.kwargs {
                    d.insert(Key::Str(k.clone()), Value::Str(k.clone()), v.clone());
                }
                Ok(Value::Dict(Rc::new(RefCell::new(d))))
            }
            _ => Err(no_attribute(line, "functools.partial", name)),
        },
        Value::Str(_) | Value::List(_) | Value::Dict(_) | Value::Tuple(_) | Value::Set(_) => {
            Ok(Value::Method(Rc::new(o.clone()), Rc::from(name)))
        }
        Value::Int(i) if name == "real" => Ok(Value::Int(*i)),
        // A number taken out of a constant array (`[x.item() for x in torch.linspace(...)]`).
        Value::Int(_) | Value::Float(_) if name == "item" => {
            Ok(Value::Method(Rc::new(o.clone()), Rc::from(name)))
        }
        other => Err(no_attribute(line, &other.type_name(), name)),
    }
}

/// `linspace(start, stop, num)` / `arange([start,] stop[, step])` of numbers (torch's,
/// NumPy's): the values as a list, which code iterates (`.item()` of each is the number).
/// `linspace` includes `stop`, as both frameworks do by default; torch's values are float32's.
pub fn constant_range(
    it: &mut Interp,
    torch: bool,
    f: &str,
    pos: &[Value],
    kw: &[(Rc<str>, Value)],
    line: usize,
) -> Ev<Value> {
    let _ = it;
    let num = |i: usize, n: &str| super::ops::arg(pos, kw, i, n);
    if f == "linspace" {
        let (Some(a), Some(b)) = (num(0, "start"), num(1, "end").or_else(|| num(1, "stop"))) else {
            return Err(raise(line, "TypeError", "linspace() missing start or end"));
        };
        let n = match num(2, "steps").or_else(|| num(2, "num")) {
            Some(v) => as_int(&v, line)?,
            None => 50,
        };
        if !(0..=super::eval::MAX_ITEMS as i64).contains(&n) {
            return Err(raise(line, "ValueError", format!("linspace of {n} values")));
        }
        let (a, b) = (as_float(&a, line)?, as_float(&b, line)?);
        let values = if torch {
            // torch's float32 kernel: the first half from the start, the rest from the end.
            let (a32, b32) = (a as f32, b as f32);
            let step = if n > 1 {
                (b32 - a32) / (n - 1) as f32
            } else {
                0.0
            };
            (0..n)
                .map(|i| {
                    let x = if i < n / 2 {
                        a32 + step * i as f32
                    } else {
                        b32 - step * (n - 1 - i) as f32
                    };
                    Value::Float(f64::from(x))
                })
                .collect()
        } else {
            // NumPy's float64: start + i * step, the stop itself last.
            let step = if n > 1 { (b - a) / (n - 1) as f64 } else { 0.0 };
            (0..n)
                .map(|i| {
                    Value::Float(if i == n - 1 && n > 1 {
                        b
                    } else {
                        a + i as f64 * step
                    })
                })
                .collect()
        };
        return Ok(Value::list(values));
    }
    let ints: Vec<Value> = pos.to_vec();
    let all_int = ints
        .iter()
        .all(|v| matches!(v, Value::Int(_) | Value::Bool(_)));
    let (a, b, step) = match ints.as_slice() {
        [b] => (Value::Int(0), b.clone(), Value::Int(1)),
        [a, b] => (a.clone(), b.clone(), Value::Int(1)),
        [a, b, s, ..] => (a.clone(), b.clone(), s.clone()),
        [] => return Err(raise(line, "TypeError", "arange() missing its end")),
    };
    if all_int {
        let (a, b, s) = (as_int(&a, line)?, as_int(&b, line)?, as_int(&step, line)?);
        if s == 0 {
            return Err(raise(line, "ValueError", "arange: step must be nonzero"));
        }
        let n = super::eval::range_len(a, b, s);
        if n > super::eval::MAX_ITEMS as i64 {
            return Err(raise(line, "MemoryError", "arange too large"));
        }
        return Ok(Value::list((0..n).map(|i| Value::Int(a + i * s)).collect()));
    }
    let (a, b, s) = (
        as_float(&a, line)?,
        as_float(&b, line)?,
        as_float(&step, line)?,
    );
    if s == 0.0 || !s.is_finite() || !a.is_finite() || !b.is_finite() {
        return Err(raise(line, "ValueError", "arange: invalid bounds or step"));
    }
    let n = ((b - a) / s).ceil().max(0.0);
    if n > super::eval::MAX_ITEMS as f64 {
        return Err(raise(line, "MemoryError", "arange too large"));
    }
    Ok(Value::list(
        (0..n as i64)
            .map(|i| Value::Float(a + i as f64 * s))
            .collect(),
    ))
}

/// A namespace's attribute: a constant, or a deeper path.
fn api_attr(path: &str) -> Value {
    match path {
        "math.pi" | "numpy.pi" => Value::Float(std::f64::consts::PI),
        "math.e" => Value::Float(std::f64::consts::E),
        "math.inf" | "numpy.inf" => Value::Float(f64::INFINITY),
        "torch.float32" | "torch.float" | "torch.float16" | "torch.int64" | "torch.long"
        | "torch.bfloat16" | "tf.float32" | "numpy.float32" => Value::opaque(path),
        _ => Value::Api(Rc::from(path)),
    }
}

/// An attribute a user instance gets from its framework base (torch `nn.Module`, Keras
/// `Layer`/`Model`): methods, `training`, and a concrete layer base's own attributes.
pub fn instance_attr(it: &mut Interp, i: &Rc<Instance>, name: &str, line: usize) -> Ev<Value> {
    let base = i.base_layer.borrow().clone();
    if let Some(base) = base
        && let Ok(v) = super::layers::layer_attr(it, &base, name, line)
        && !matches!(v, Value::Method(..))
    {
        return Ok(v);
    }
    let Some(fb) = i.class.framework.clone() else {
        if i.class.def.line == 0
            && matches!(
                i.class.name.as_ref(),
                "ArgumentParser" | "StringLookup" | "IntegerLookup"
            )
        {
            return Ok(Value::Method(
                Rc::new(Value::Instance(i.clone())),
                Rc::from(name),
            ));
        }
        return Err(no_attribute(line, &i.class.name, name));
    };
    const TORCH: &[&str] = &[
        "to",
        "cuda",
        "cpu",
        "eval",
        "train",
        "float",
        "double",
        "half",
        "requires_grad_",
        "share_memory",
        "forward",
        "add_module",
        "register_module",
        "__setattr__",
        "__getattr__",
        "register_buffer",
        "register_parameter",
        "modules",
        "children",
        "named_modules",
        "named_children",
        "apply",
        "parameters",
        "named_parameters",
        "state_dict",
        "buffers",
        "zero_grad",
        "load_state_dict",
        "extra_repr",
        "__repr__",
        "__call__",
        "append",
        "extend",
        "insert",
        "items",
        "keys",
        "values",
    ];
    const KERAS: &[&str] = &[
        "call",
        "add",
        "add_weight",
        "summary",
        "compile",
        "fit",
        "evaluate",
        "predict",
        "save",
        "save_weights",
        "load_weights",
        "count_params",
        "get_config",
        "build",
        "get_layer",
        "__call__",
    ];
    Ok(match name {
        "training" => Value::Bool(false),
        "name" if fb.is_keras() => Value::str(i.name.borrow().as_deref().unwrap_or("")),
        "layers" if fb.is_keras() => {
            Value::list(i.children.borrow().iter().map(|(_, v)| v.clone()).collect())
        }
        // torch's own table of a module's children, by name in registration order (code reads
        // `self._modules[name]` to call one).
        "_modules" if !fb.is_keras() => {
            let mut d = super::value::Dict::default();
            for pair in super::layers::submodules(&Value::Instance(i.clone()), true, false) {
                if let Value::Tuple(kv) = &pair
                    && let [k, v] = kv.as_ref().as_slice()
                    && let Some(key) = k.key()
                {
                    d.insert(key, k.clone(), v.clone());
                }
            }
            Value::dict(d)
        }
        _ if (fb.is_keras() && KERAS.contains(&name))
            || (!fb.is_keras() && TORCH.contains(&name)) =>
        {
            Value::Method(Rc::new(Value::Instance(i.clone())), Rc::from(name))
        }
        _ => {
            return Err(no_attribute(line, &i.class.name, name));
        }
    })
}

/// A class attribute a user class gets from its framework base.
pub fn class_attr_fallback(c: &Rc<Class>, name: &str, line: usize) -> Ev<Value> {
    Err(raise(
        line,
        "AttributeError",
        format!("type object '{}' has no attribute '{name}'", c.name),
    ))
}

/// An instance of a class padlab provides (`argparse.ArgumentParser`, its `Namespace`):
/// classes with no definition in the paste (line 0).
fn synthetic(it: &mut Interp, name: &str) -> Value {
    let def = Rc::new(super::ast::ClassDef {
        name: name.to_string(),
        bases: Vec::new(),
        body: Vec::new(),
        decorators: Vec::new(),
        line: 0,
    });
    let class = Rc::new(Class {
        name: Rc::from(name),
        def,
        bases: Vec::new(),
        attrs: RefCell::new(Dict::default()),
        framework: None,
    });
    let id = it.id();
    Value::Instance(Rc::new(Instance {
        id,
        class,
        attrs: RefCell::new(Dict::default()),
        children: RefCell::new(Vec::new()),
        line: std::cell::Cell::new(0),
        text: RefCell::new(Rc::from("")),
        name: RefCell::new(None),
        base_layer: RefCell::new(None),
    }))
}

/// Keras's `StringLookup` / `IntegerLookup` made from a stated vocabulary: a preprocessing
/// table whose size code reads (`output_dim=char_to_num.vocabulary_size()`). Its table, in
/// Keras's order: the mask token (when given), the OOV tokens, the vocabulary. Without a
/// vocabulary the table is learned by `adapt` from data padlab does not have.
pub fn lookup_table(it: &mut Interp, class: &str, args: Args, line: usize) -> Ev<Value> {
    let Args { pos, kw } = args;
    let get = |i: usize, n: &str| {
        kw.iter()
            .find(|(k, _)| k.as_ref() == n)
            .map(|(_, v)| v.clone())
            .or_else(|| pos.get(i).cloned())
    };
    // Keras 3's positional order: max_tokens, num_oov_indices, mask_token, oov_token,
    // vocabulary.
    let vocabulary = match get(4, "vocabulary") {
        Some(v @ (Value::List(_) | Value::Tuple(_))) => it.iterate(&v, line)?,
        _ => {
            return Ok(Value::opaque(format!(
                "a {class} learned by adapt() from data padlab does not run"
            )));
        }
    };
    let oovs = match get(1, "num_oov_indices") {
        Some(v) => as_int(&v, line)?,
        None => 1,
    };
    let mask = get(2, "mask_token").filter(|v| !matches!(v, Value::None));
    let oov = get(3, "oov_token").unwrap_or_else(|| {
        if class == "StringLookup" {
            Value::str("[UNK]")
        } else {
            Value::Int(-1)
        }
    });
    let mut table: Vec<Value> = mask.into_iter().collect();
    table.extend(std::iter::repeat_n(
        oov,
        usize::try_from(oovs.max(0)).unwrap_or(0),
    ));
    table.extend(vocabulary);
    let me = synthetic(it, class);
    if let Value::Instance(i) = &me {
        i.attrs.borrow_mut().insert(
            Key::Str(Rc::from("__table")),
            Value::str("__table"),
            Value::list(table),
        );
    }
    Ok(me)
}

fn lookup_method(i: &Rc<Instance>, name: &str, line: usize) -> Ev<Value> {
    let table = i
        .attrs
        .borrow()
        .get(&Key::Str(Rc::from("__table")))
        .cloned();
    let Some(Value::List(table)) = table else {
        return Err(no_attribute(line, &i.class.name, name));
    };
    match name {
        "vocabulary_size" => Ok(Value::Int(table.borrow().len() as i64)),
        "get_vocabulary" => Ok(Value::list(table.borrow().to_vec())),
        _ => Err(unsupported(
            line,
            format!(
                "{}.{name}: padlab reads a lookup table's vocabulary and its size",
                i.class.name
            ),
        )),
    }
}

/// `argparse`: arguments' defaults, and `parse_args()` as if the script had none (a paste
/// has no command line).
fn argparse_method(
    it: &mut Interp,
    i: &Rc<Instance>,
    name: &str,
    Args { pos, kw }: Args,
    line: usize,
) -> Ev<Value> {
    let me = Value::Instance(i.clone());
    match name {
        "add_argument" => {
            let flags: Vec<String> = pos.iter().map(Value::to_string).collect();
            let dest = match kw.iter().find(|(k, _)| k.as_ref() == "dest") {
                Some((_, v)) => v.to_string(),
                None => flags
                    .iter()
                    .find(|f| f.starts_with("--"))
                    .or_else(|| flags.first())
                    .map(|f| f.trim_start_matches('-').replace('-', "_"))
                    .unwrap_or_default(),
            };
            let action = kw
                .iter()
                .find(|(k, _)| k.as_ref() == "action")
                .map(|(_, v)| v.to_string());
            let required = kw
                .iter()
                .any(|(k, v)| k.as_ref() == "required" && matches!(v, Value::Bool(true)));
            let default = match kw.iter().find(|(k, _)| k.as_ref() == "default") {
                Some((_, v)) => v.clone(),
                // Run without arguments, argparse stops at a required one: what depends on it
                // cannot be read.
                None if required => Value::Poison(Rc::new(unsupported(
                    line,
                    format!(
                        "the command-line argument {} is required (argparse): padlab runs the script without arguments",
                        flags.first().map_or(dest.as_str(), String::as_str)
                    ),
                ))),
                None => match action.as_deref() {
                    Some("store_true") => Value::Bool(false),
                    Some("store_false") => Value::Bool(true),
                    _ => Value::None,
                },
            };
            // A string default converted by `type=` (argparse converts string defaults).
            let default = match (
                &default,
                kw.iter()
                    .find(|(k, _)| k.as_ref() == "type")
                    .map(|(_, v)| v),
            ) {
                (Value::Str(_), Some(Value::Api(t))) if matches!(t.as_ref(), "int" | "float") => {
                    let site = Site {
                        line,
                        text: Rc::from("type"),
                    };
                    call_api(it, t, Args::positional(vec![default.clone()]), &site)?
                }
                _ => default,
            };
            i.attrs.borrow_mut().insert(
                Key::Str(Rc::from(dest.as_str())),
                Value::str(&dest),
                default,
            );
            Ok(Value::None)
        }
        "set_defaults" => {
            for (k, v) in kw {
                i.attrs
                    .borrow_mut()
                    .insert(Key::Str(k.clone()), Value::Str(k), v);
            }
            Ok(Value::None)
        }
        "add_argument_group" | "add_mutually_exclusive_group" => Ok(me),
        "parse_args" | "parse_known_args" => {
            if let Some(v) = pos.first()
                && !matches!(v, Value::None)
                && !it.iterate(v, line)?.is_empty()
            {
                return Err(unsupported(
                    line,
                    "parse_args with arguments: padlab reads the defaults",
                ));
            }
            let ns = synthetic(it, "Namespace");
            if let Value::Instance(n) = &ns {
                *n.attrs.borrow_mut() = i.attrs.borrow().clone();
            }
            Ok(if name == "parse_known_args" {
                Value::tuple(vec![ns, Value::list(vec![])])
            } else {
                ns
            })
        }
        "print_help" | "error" => Ok(Value::None),
        _ => Err(no_attribute(line, "ArgumentParser", name)),
    }
}

/// A torch `nn.Module` / Keras `Layer` method called on a user instance.
fn framework_method(
    it: &mut Interp,
    i: &Rc<Instance>,
    name: &str,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    if i.class.def.line == 0 && i.class.name.as_ref() == "ArgumentParser" {
        return argparse_method(it, i, name, Args { pos, kw }, line);
    }
    if i.class.def.line == 0 && matches!(i.class.name.as_ref(), "StringLookup" | "IntegerLookup") {
        return lookup_method(i, name, line);
    }
    let me = Value::Instance(i.clone());
    match name {
        "to" | "cuda" | "cpu" | "eval" | "train" | "float" | "double" | "half"
        | "requires_grad_" | "share_memory" => Ok(me),
        "forward" | "call" | "__call__" => {
            // `self.forward(x)` of a class without its own: the container's.
            framework_call(it, i, Args { pos, kw }, site)
        }
        "add_module" | "register_module" => {
            let n = pos.first().map(Value::to_string).unwrap_or_default();
            let v = pos.get(1).cloned().unwrap_or(Value::None);
            let is_container = matches!(
                i.class.framework,
                Some(
                    FrameworkBase::TorchSequential
                        | FrameworkBase::TorchModuleDict
                        | FrameworkBase::TorchModuleList
                )
            );
            if is_container {
                i.children.borrow_mut().push((Rc::from(n.as_str()), v));
            } else {
                i.attrs
                    .borrow_mut()
                    .insert(Key::Str(Rc::from(n.as_str())), Value::str(&n), v);
            }
            Ok(Value::None)
        }
        "append" => {
            let v = pos.first().cloned().unwrap_or(Value::None);
            let n = i.children.borrow().len().to_string();
            i.children.borrow_mut().push((Rc::from(n.as_str()), v));
            Ok(me)
        }
        "extend" => {
            for v in it.iterate(pos.first().unwrap_or(&Value::None), line)? {
                let n = i.children.borrow().len().to_string();
                i.children.borrow_mut().push((Rc::from(n.as_str()), v));
            }
            Ok(me)
        }
        "items" | "keys" | "values" => Ok(Value::list(
            super::layers::module_children(&me)
                .into_iter()
                .map(|(k, v)| match name {
                    "items" => Value::tuple(vec![Value::Str(k), v]),
                    "keys" => Value::Str(k),
                    _ => v,
                })
                .collect(),
        )),
        "add"
            if i.class
                .framework
                .as_ref()
                .is_some_and(FrameworkBase::is_keras) =>
        {
            let v = pos.first().cloned().unwrap_or(Value::None);
            let n = i.children.borrow().len().to_string();
            i.children.borrow_mut().push((Rc::from(n.as_str()), v));
            Ok(Value::None)
        }
        // `self.__setattr__("level_1", m)` / `self.__getattr__("level_1")`.
        "__setattr__" => {
            let n = pos.first().map(Value::to_string).unwrap_or_default();
            let v = pos.get(1).cloned().unwrap_or(Value::None);
            i.attrs
                .borrow_mut()
                .insert(Key::Str(Rc::from(n.as_str())), Value::str(&n), v);
            Ok(Value::None)
        }
        "__getattr__" => {
            let n = pos.first().map(Value::to_string).unwrap_or_default();
            let found = i
                .attrs
                .borrow()
                .get(&Key::Str(Rc::from(n.as_str())))
                .cloned();
            found.ok_or_else(|| no_attribute(line, &i.class.name, &n))
        }
        "add_weight" => {
            // Keras 3 takes the shape first, Keras 2 the name: the shape is the tuple.
            let shape = kw
                .iter()
                .find(|(k, _)| k.as_ref() == "shape")
                .map(|(_, v)| v.clone())
                .or_else(|| {
                    pos.iter()
                        .find(|v| matches!(v, Value::Tuple(_) | Value::List(_)))
                        .cloned()
                });
            let dims = match &shape {
                Some(v @ (Value::Tuple(_) | Value::List(_))) => Some(it.iterate(v, line)?),
                _ => None,
            };
            if dims.iter().flatten().any(|d| matches!(d, Value::Unknown)) {
                return Err(unsupported(
                    line,
                    "this weight's shape depends on the input's size: give the input shape",
                ));
            }
            let sizes = match &dims {
                Some(dims) => dims
                    .iter()
                    .map(|d| match d {
                        Value::Int(n) if *n >= 0 => Some(*n),
                        _ => None,
                    })
                    .collect::<Option<Vec<i64>>>(),
                _ => None,
            };
            Ok(match sizes {
                Some(shape) => Value::Weight(Rc::new(super::value::Weight::new(
                    i.class.name.clone(),
                    shape,
                ))),
                None => Value::opaque(format!(
                    "a weight {} makes itself (add_weight) of a shape padlab does not know",
                    i.class.name
                )),
            })
        }
        "register_buffer" | "register_parameter" => {
            let n = pos.first().map(Value::to_string).unwrap_or_default();
            i.attrs.borrow_mut().insert(
                Key::Str(Rc::from(n.as_str())),
                Value::str(&n),
                Value::opaque("a buffer"),
            );
            Ok(Value::None)
        }
        "modules" | "children" | "named_modules" | "named_children" => {
            let all = super::layers::submodules(
                &me,
                name.starts_with("named"),
                name.ends_with("modules"),
            );
            Ok(Value::list(all))
        }
        "apply" => {
            let f = pos.first().cloned().unwrap_or(Value::None);
            let mut all = super::layers::submodules(&me, false, true);
            // `apply` visits children first, the module itself last.
            if !all.is_empty() {
                all.rotate_left(1);
            }
            for m in all {
                it.call(f.clone(), vec![m], vec![], site)?;
            }
            Ok(me)
        }
        // `model.build(input_shape=(None, 28, 28, 1))` of a subclassed Keras model: its input.
        "build"
            if i.class
                .framework
                .as_ref()
                .is_some_and(FrameworkBase::is_keras) =>
        {
            let shape = pos.first().cloned().or_else(|| {
                kw.iter()
                    .find(|(k, _)| k.as_ref() == "input_shape")
                    .map(|(_, v)| v.clone())
            });
            super::keras::build(it, i.id, shape, site)?;
            Ok(Value::None)
        }
        "parameters" | "named_parameters"
            if !i
                .class
                .framework
                .as_ref()
                .is_some_and(FrameworkBase::is_keras) =>
        {
            Ok(super::layers::parameters(&me, name == "named_parameters"))
        }
        "parameters" | "named_parameters" | "state_dict" | "buffers" | "zero_grad"
        | "load_state_dict" | "summary" | "compile" | "fit" | "evaluate" | "predict" | "save"
        | "save_weights" | "load_weights" | "count_params" | "get_config" | "build"
        | "extra_repr" | "__repr__" => {
            if !super::layers::only_reads(name) {
                it.effect = true;
            }
            let _ = line;
            Ok(Value::opaque(format!(
                "the result of {}.{name}()",
                i.class.name
            )))
        }
        _ => Err(no_attribute(line, &i.class.name, name)),
    }
}

/// A method reached through `super()`.
fn super_method(
    it: &mut Interp,
    c: &Rc<Class>,
    me: &Rc<Value>,
    name: &str,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    // The next class after `c` in the method resolution order that defines `name`.
    for b in &c.bases {
        match b {
            Value::Class(bc) => {
                if let Some((f, _)) = it.find_method(bc, name) {
                    return it.call_function(&f, Some((**me).clone()), pos, kw, site);
                }
            }
            Value::Api(_) => {}
            _ => {}
        }
    }
    let Value::Instance(inst) = &**me else {
        return Err(raise(
            site.line,
            "TypeError",
            "super(): the instance is not an object",
        ));
    };
    match name {
        "__init__" => {
            framework_init(it, inst, Args { pos, kw }, site)?;
            Ok(Value::None)
        }
        "forward" | "call" | "__call__" => framework_call(it, inst, Args { pos, kw }, site),
        _ => framework_method(it, inst, name, Args { pos, kw }, site),
    }
}

/// The framework base's `__init__`: a container takes its children, a concrete layer base
/// builds the layer, a Keras layer takes its name.
pub fn framework_init(
    it: &mut Interp,
    inst: &Rc<Instance>,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<()> {
    let Some(fb) = inst.class.framework.clone() else {
        if !pos.is_empty() {
            return Err(raise(
                site.line,
                "TypeError",
                format!("{}() takes no arguments", inst.class.name),
            ));
        }
        return Ok(());
    };
    match fb {
        FrameworkBase::TorchSequential => {
            let mut children = inst.children.borrow_mut();
            children.clear();
            match pos.as_slice() {
                [Value::Dict(d)] => {
                    for (k, v) in &d.borrow().entries {
                        children.push((Rc::from(k.to_string().as_str()), v.clone()));
                    }
                }
                _ => {
                    for (k, v) in pos.into_iter().enumerate() {
                        children.push((Rc::from(k.to_string().as_str()), v));
                    }
                }
            }
        }
        FrameworkBase::TorchModuleList => {
            let items = match pos.first() {
                Some(v) => it.iterate(v, site.line)?,
                None => Vec::new(),
            };
            *inst.children.borrow_mut() = items
                .into_iter()
                .enumerate()
                .map(|(k, v)| (Rc::from(k.to_string().as_str()), v))
                .collect();
        }
        FrameworkBase::TorchModuleDict => {
            if let Some(Value::Dict(d)) = pos.first() {
                *inst.children.borrow_mut() = d
                    .borrow()
                    .entries
                    .iter()
                    .map(|(k, v)| (Rc::from(k.to_string().as_str()), v.clone()))
                    .collect();
            }
        }
        FrameworkBase::KerasSequential => {
            if let Some(v) = pos.first().cloned().or_else(|| {
                kw.iter()
                    .find(|(k, _)| k.as_ref() == "layers")
                    .map(|(_, v)| v.clone())
            }) {
                let items = it.iterate(&v, site.line)?;
                *inst.children.borrow_mut() = items
                    .into_iter()
                    .enumerate()
                    .map(|(k, v)| (Rc::from(k.to_string().as_str()), v))
                    .collect();
            }
        }
        FrameworkBase::Layer(path) => {
            let layer = super::layers::construct(it, &path, Args { pos, kw }, site)?;
            match layer {
                Value::Layer(l) => *inst.base_layer.borrow_mut() = Some(l),
                _ => {
                    return Err(unsupported(
                        site.line,
                        format!("a subclass of {path} padlab cannot build"),
                    ));
                }
            }
        }
        FrameworkBase::KerasModel => {
            // `super().__init__(inputs=..., outputs=...)`: a functional model in a subclass.
            if let Some(inputs) = kw
                .iter()
                .find(|(k, _)| k.as_ref() == "inputs")
                .map(|(_, v)| v.clone())
                .or_else(|| pos.first().cloned())
            {
                let outputs = kw
                    .iter()
                    .find(|(k, _)| k.as_ref() == "outputs")
                    .map(|(_, v)| v.clone())
                    .or_else(|| pos.get(1).cloned())
                    .unwrap_or(Value::None);
                // Keras names the model after its class (`EDSRModel` is `edsr_model`): the
                // functional model it is has that name, and no `functional` of its own.
                let name = inst.name.borrow().clone();
                let model = super::keras::functional(it, inputs, outputs, name, site)?;
                if let Value::Layer(l) = model {
                    *inst.base_layer.borrow_mut() = Some(l);
                }
            }
        }
        FrameworkBase::TorchModule | FrameworkBase::KerasLayer => {}
    }
    Ok(())
}

/// Calling a user instance whose class defines no `forward`/`call`: its framework base's.
pub fn framework_call(
    it: &mut Interp,
    inst: &Rc<Instance>,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    if let Some(base) = inst.base_layer.borrow().clone() {
        // A functional model's subclass is that model (its layers are under its name once).
        let own = !matches!(base.kind, super::value::LayerKind::Functional { .. });
        if own {
            it.call_stack.push(Value::Instance(inst.clone()));
        }
        let r = super::layers::call_layer(it, &base, Args { pos, kw }, site);
        if own {
            it.call_stack.pop();
        }
        return r;
    }
    match inst.class.framework {
        Some(FrameworkBase::TorchSequential | FrameworkBase::KerasSequential) => {
            // torch registers a module assigned as an attribute as a child too, in order.
            let children: Vec<Value> =
                super::layers::module_children(&Value::Instance(inst.clone()))
                    .into_iter()
                    .map(|(_, v)| v)
                    .collect();
            let mut x = pos.into_iter().next().unwrap_or(Value::None);
            it.call_stack.push(Value::Instance(inst.clone()));
            for c in children {
                match it.call(c, vec![x], vec![], site) {
                    Ok(v) => x = v,
                    Err(e) => {
                        it.call_stack.pop();
                        return Err(e);
                    }
                }
            }
            it.call_stack.pop();
            Ok(x)
        }
        Some(FrameworkBase::TorchModuleList | FrameworkBase::TorchModuleDict) => Err(raise(
            site.line,
            "NotImplementedError",
            format!(
                "Module [{}] is missing the required \"forward\" function",
                inst.class.name
            ),
        )),
        Some(ref b) if b.is_keras() => Err(raise(
            site.line,
            "NotImplementedError",
            format!(
                "Layer {} does not have a `call` method implemented.",
                inst.class.name
            ),
        )),
        _ => Err(raise(
            site.line,
            "NotImplementedError",
            format!(
                "Module [{}] is missing the required \"forward\" function",
                inst.class.name
            ),
        )),
    }
}

// ---- Items ----

/// `o[i]`.
pub fn getitem(it: &mut Interp, o: &Value, i: &Value, line: usize, e: &Expr) -> Ev<Value> {
    if let Value::Poison(f) = o {
        return Err((**f).clone());
    }
    if let Value::Poison(f) = i {
        return Err((**f).clone());
    }
    match o {
        Value::Tensor(t) => super::ops::tensor_index(it, t, i, line, e),
        Value::Weight(w) => super::ops::weight_index(it, w, i, line),
        Value::List(l) => {
            let items = l.borrow().clone();
            seq_index(&items, i, line, "list").map(|r| match r {
                Indexed::One(v) => v,
                Indexed::Many(v) => Value::list(v),
            })
        }
        Value::Tuple(t) => seq_index(t, i, line, "tuple").map(|r| match r {
            Indexed::One(v) => v,
            Indexed::Many(v) => Value::tuple(v),
        }),
        Value::Str(s) => {
            let chars: Vec<Value> = s.chars().map(|c| Value::str(&c.to_string())).collect();
            seq_index(&chars, i, line, "string").map(|r| match r {
                Indexed::One(v) => v,
                Indexed::Many(v) => Value::str(&v.iter().map(Value::to_string).collect::<String>()),
            })
        }
        Value::Range(a, b, s) => {
            let n = range_len(*a, *b, *s);
            if n > super::eval::MAX_ITEMS as i64 {
                return Err(raise(line, "MemoryError", "range too large to index"));
            }
            let items: Vec<Value> = (0..n).map(|k| Value::Int(a + k * s)).collect();
            seq_index(&items, i, line, "range").map(|r| match r {
                Indexed::One(v) => v,
                Indexed::Many(v) => Value::list(v),
            })
        }
        Value::Dict(d) => {
            let k = super::eval::hash_key(i, line)?;
            d.borrow()
                .get(&k)
                .cloned()
                .ok_or_else(|| raise(line, "KeyError", i.repr()))
        }
        Value::Layer(l) => super::layers::layer_item(it, l, i, line),
        Value::Instance(inst) if inst.class.framework.is_some() => {
            let children: Vec<Value> = super::layers::module_children(o)
                .into_iter()
                .map(|(_, v)| v)
                .collect();
            match (i, &inst.class.framework) {
                (Value::Str(k), _) => inst
                    .children
                    .borrow()
                    .iter()
                    .find(|(n, _)| n.as_ref() == k.as_ref())
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| raise(line, "KeyError", i.repr())),
                _ => seq_index(&children, i, line, "module").map(|r| match r {
                    Indexed::One(v) => v,
                    Indexed::Many(v) => Value::list(v),
                }),
            }
        }
        Value::Hole(h) if h.depth() >= super::eval::MAX_HOLE => {
            Err(super::eval::undefined(h, line))
        }
        Value::Hole(h) => match i {
            Value::Int(k) => Ok(Value::Hole(Rc::new(Hole::Index(h.clone(), *k)))),
            Value::Slice(s) if matches!(s[1], Value::None) && matches!(s[2], Value::None) => {
                let start = match &s[0] {
                    Value::Int(k) => *k,
                    _ => 0,
                };
                Ok(Value::Hole(Rc::new(Hole::From(h.clone(), start))))
            }
            _ => Err(super::eval::undefined(h, line)),
        },
        Value::Api(_) | Value::Opaque(_) | Value::Class(_) => Ok(Value::opaque("a type")),
        Value::Unknown => Ok(Value::Unknown),
        other => Err(raise(
            line,
            "TypeError",
            format!("'{}' object is not subscriptable", other.type_name()),
        )),
    }
}

enum Indexed {
    One(Value),
    Many(Vec<Value>),
}

fn seq_index(items: &[Value], i: &Value, line: usize, what: &str) -> Ev<Indexed> {
    match i {
        Value::Int(_) | Value::Bool(_) => {
            let at = wrap_index(as_int(i, line)?, items.len())
                .ok_or_else(|| raise(line, "IndexError", format!("{what} index out of range")))?;
            Ok(Indexed::One(items[at].clone()))
        }
        Value::Slice(s) => Ok(Indexed::Many(slice_items(items, s, line)?)),
        Value::Unknown => Err(unsupported(line, "an index computed from an unknown size")),
        other => Err(raise(
            line,
            "TypeError",
            format!(
                "{what} indices must be integers or slices, not {}",
                other.type_name()
            ),
        )),
    }
}

/// Index `k` of `len` items, negative from the end; `None` past either end.
pub fn wrap_index(k: i64, len: usize) -> Option<usize> {
    let len = len as i64;
    let at = if k < 0 { k + len } else { k };
    (0..len).contains(&at).then_some(at as usize)
}

/// The items a slice picks, in its order.
pub fn slice_items<T: Clone>(items: &[T], s: &[Value], line: usize) -> Ev<Vec<T>> {
    let (start, stop, step) = slice_bounds(s, items.len() as i64, line)?;
    let mut out = Vec::new();
    let mut k = start;
    while (step > 0 && k < stop) || (step < 0 && k > stop) {
        if let Some(x) = usize::try_from(k).ok().and_then(|k| items.get(k)) {
            out.push(x.clone());
        }
        k += step;
    }
    Ok(out)
}

/// Where `list.insert(at, v)` puts `v` among `len` items.
pub fn insert_index(at: i64, len: usize) -> usize {
    let len = len as i64;
    (if at < 0 {
        (at + len).max(0)
    } else {
        at.min(len)
    }) as usize
}

/// A slice's start, stop and step for a sequence of `len`, as Python computes them.
pub fn slice_bounds(s: &[Value], len: i64, line: usize) -> Ev<(i64, i64, i64)> {
    let opt = |v: &Value| -> Ev<Option<i64>> {
        match v {
            Value::None => Ok(None),
            other => as_int(other, line).map(Some),
        }
    };
    let step = opt(&s[2])?.unwrap_or(1);
    if step == 0 {
        return Err(raise(line, "ValueError", "slice step cannot be zero"));
    }
    let clamp = |v: i64, lo: i64, hi: i64| v.clamp(lo, hi);
    let norm = |v: i64| if v < 0 { v + len } else { v };
    let (start, stop) = if step > 0 {
        (
            opt(&s[0])?.map_or(0, |v| clamp(norm(v), 0, len)),
            opt(&s[1])?.map_or(len, |v| clamp(norm(v), 0, len)),
        )
    } else {
        (
            opt(&s[0])?.map_or(len - 1, |v| clamp(norm(v), -1, len - 1)),
            opt(&s[1])?.map_or(-1, |v| clamp(norm(v), -1, len - 1)),
        )
    };
    Ok((start, stop, step))
}

// ---- Arithmetic and comparisons ----

pub fn as_int(v: &Value, line: usize) -> Ev<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(i64::from(*b)),
        Value::Poison(f) => Err((**f).clone()),
        Value::Hole(h) => Err(super::eval::undefined(h, line)),
        Value::Unknown => Err(unsupported(
            line,
            "this needs the input's size: give the input shape",
        )),
        Value::Batch(_) => Err(unsupported(
            line,
            "the batch size (`shape(x)[0]`) used as a number is not translated by padlab",
        )),
        other => Err(raise(
            line,
            "TypeError",
            format!(
                "'{}' object cannot be interpreted as an integer",
                other.type_name()
            ),
        )),
    }
}

pub fn as_float(v: &Value, line: usize) -> Ev<f64> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Float(x) => Ok(*x),
        Value::Bool(b) => Ok(f64::from(u8::from(*b))),
        other => as_int(other, line).map(|i| i as f64),
    }
}

/// A binary operator on plain Python values.
pub fn arithmetic(it: &mut Interp, op: BinOp, a: Value, b: Value, line: usize) -> Ev<Value> {
    use Value::{Float, Int};
    let ty = |a: &Value, b: &Value| {
        raise(
            line,
            "TypeError",
            format!(
                "unsupported operand type(s) for {}: '{}' and '{}'",
                op.symbol(),
                a.type_name(),
                b.type_name()
            ),
        )
    };
    let a = if let Value::Bool(x) = a {
        Int(i64::from(x))
    } else {
        a
    };
    let b = if let Value::Bool(x) = b {
        Int(i64::from(x))
    } else {
        b
    };
    match (&a, &b) {
        (Value::Unknown, _) | (_, Value::Unknown) => return Ok(Value::Unknown),
        // Values computed from what padlab does not evaluate (NumPy arrays for an
        // initialiser, `np.ogrid[:k, :k]`) stay unknown: an error only where a size needs them.
        (Value::Opaque(w), other) | (other, Value::Opaque(w))
            if matches!(other, Int(_) | Float(_) | Value::Opaque(_)) =>
        {
            return Ok(Value::Opaque(w.clone()));
        }
        (Int(x), Int(y)) => {
            let (x, y) = (*x, *y);
            return Ok(match op {
                BinOp::Add => Int(x.checked_add(y).ok_or_else(|| overflow(line))?),
                BinOp::Sub => Int(x.checked_sub(y).ok_or_else(|| overflow(line))?),
                BinOp::Mul => Int(x.checked_mul(y).ok_or_else(|| overflow(line))?),
                BinOp::Div => {
                    if y == 0 {
                        return Err(raise(line, "ZeroDivisionError", "division by zero"));
                    }
                    Float(x as f64 / y as f64)
                }
                BinOp::FloorDiv | BinOp::Mod => {
                    if y == 0 {
                        return Err(raise(
                            line,
                            "ZeroDivisionError",
                            "integer division or modulo by zero",
                        ));
                    }
                    let q = x.checked_div_euclid(y).ok_or_else(|| overflow(line))?;
                    let r = x.rem_euclid(y);
                    // Python floors toward negative infinity; the remainder takes the divisor's sign.
                    let (q, r) = if y < 0 && r != 0 {
                        (q + 1, r + y)
                    } else {
                        (q, r)
                    };
                    if op == BinOp::FloorDiv {
                        Int(q)
                    } else {
                        Int(r)
                    }
                }
                BinOp::Pow => {
                    if y < 0 {
                        Float((x as f64).powf(y as f64))
                    } else {
                        let e = u32::try_from(y).map_err(|_| overflow(line))?;
                        Int(x.checked_pow(e).ok_or_else(|| overflow(line))?)
                    }
                }
                BinOp::BitOr => Int(x | y),
                BinOp::BitAnd => Int(x & y),
                BinOp::BitXor => Int(x ^ y),
                BinOp::LShift => Int(x
                    .checked_shl(u32::try_from(y).map_err(|_| overflow(line))?)
                    .filter(|r| r >> y == x)
                    .ok_or_else(|| overflow(line))?),
                BinOp::RShift => Int(x >> y.clamp(0, 63)),
                BinOp::MatMul => return Err(ty(&a, &b)),
            });
        }
        (Int(_) | Float(_), Int(_) | Float(_)) => {
            let x = as_float(&a, line)?;
            let y = as_float(&b, line)?;
            return Ok(Float(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => {
                    if y == 0.0 {
                        return Err(raise(line, "ZeroDivisionError", "float division by zero"));
                    }
                    x / y
                }
                BinOp::FloorDiv => {
                    if y == 0.0 {
                        return Err(raise(
                            line,
                            "ZeroDivisionError",
                            "float floor division by zero",
                        ));
                    }
                    (x / y).floor()
                }
                BinOp::Mod => {
                    if y == 0.0 {
                        return Err(raise(line, "ZeroDivisionError", "float modulo"));
                    }
                    x - y * (x / y).floor()
                }
                BinOp::Pow => x.powf(y),
                _ => return Err(ty(&a, &b)),
            }));
        }
        _ => {}
    }
    match (op, &a, &b) {
        (BinOp::Add, Value::Str(x), Value::Str(y)) => {
            check(x.len() + y.len(), line)?;
            Ok(Value::str(&format!("{x}{y}")))
        }
        (BinOp::Mod, Value::Str(x), _) => {
            let args = match &b {
                Value::Tuple(t) => t.to_vec(),
                other => vec![other.clone()],
            };
            Ok(Value::str(&percent_format(x, &args, line)?))
        }
        (BinOp::Add, Value::List(x), Value::List(y)) => {
            let mut v = x.borrow().to_vec();
            v.extend(y.borrow().iter().cloned());
            check(v.len(), line)?;
            Ok(Value::list(v))
        }
        (BinOp::Add, Value::Tuple(x), Value::Tuple(y)) => {
            let mut v = x.to_vec();
            v.extend(y.iter().cloned());
            check(v.len(), line)?;
            Ok(Value::tuple(v))
        }
        (BinOp::Mul, Value::List(_) | Value::Tuple(_) | Value::Str(_), Int(n))
        | (BinOp::Mul, Int(n), Value::List(_) | Value::Tuple(_) | Value::Str(_)) => {
            let seq = if matches!(a, Int(_)) { &b } else { &a };
            let n = (*n).max(0) as usize;
            let len = match seq {
                Value::List(l) => l.borrow().len(),
                Value::Tuple(t) => t.len(),
                Value::Str(s) => s.len(),
                _ => 0,
            };
            check(len.saturating_mul(n), line)?;
            it.step(line)?;
            Ok(match seq {
                Value::List(l) => {
                    Value::list(l.borrow().iter().cloned().cycle().take(len * n).collect())
                }
                Value::Tuple(t) => Value::tuple(t.iter().cloned().cycle().take(len * n).collect()),
                Value::Str(s) => Value::str(&s.repeat(n)),
                _ => unreachable!("matched a sequence"),
            })
        }
        (BinOp::BitOr, Value::Dict(x), Value::Dict(y)) => {
            let mut d = x.borrow().clone();
            for (k, v) in y.borrow().entries.clone() {
                if let Some(hk) = k.key() {
                    d.insert(hk, k, v);
                }
            }
            Ok(Value::Dict(Rc::new(RefCell::new(d))))
        }
        // Type hints written as `int | None`.
        (BinOp::BitOr, Value::Api(_) | Value::None | Value::Opaque(_), _) => {
            Ok(Value::opaque("a type"))
        }
        _ => Err(ty(&a, &b)),
    }
}

fn percent_format(fmt: &str, args: &[Value], line: usize) -> Ev<String> {
    let mut out = String::new();
    let mut args = args.iter();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec = String::new();
        while let Some(&n) = chars.peek() {
            chars.next();
            if n.is_ascii_alphabetic() || n == '%' {
                spec.push(n);
                break;
            }
            spec.push(n);
        }
        if spec == "%" {
            out.push('%');
            continue;
        }
        let v = args
            .next()
            .ok_or_else(|| raise(line, "TypeError", "not enough arguments for format string"))?;
        let conv = spec.pop().unwrap_or('s');
        let s = match conv {
            'd' | 'i' => as_int(v, line)
                .map(|i| i.to_string())
                .or_else(|_| as_float(v, line).map(|f| (f.trunc() as i64).to_string()))?,
            'f' => format_value(v, &format!("{spec}f"), line)?,
            'r' => v.repr(),
            _ => v.to_string(),
        };
        out.push_str(&s);
    }
    Ok(out)
}

/// A comparison of plain values (tensors and layers compare by identity).
pub fn compare(it: &mut Interp, op: CmpOp, a: &Value, b: &Value, line: usize) -> Ev<bool> {
    use std::cmp::Ordering;
    for v in [a, b] {
        if let Value::Poison(f) = v {
            return Err((**f).clone());
        }
    }
    let same = |a: &Value, b: &Value| -> bool {
        match (a, b) {
            (Value::None, Value::None) => true,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Int(x), Value::Int(y)) => x == y,
            (Value::Api(x), Value::Api(y)) => x == y,
            _ => a.address() != 0 && a.address() == b.address(),
        }
    };
    match op {
        CmpOp::Is => return Ok(same(a, b)),
        CmpOp::IsNot => return Ok(!same(a, b)),
        CmpOp::In | CmpOp::NotIn => {
            let found = match b {
                Value::Str(s) => s.contains(a.to_string().as_str()),
                Value::Dict(d) => a.key().is_some_and(|k| d.borrow().get(&k).is_some()),
                other => {
                    let items = it.iterate(other, line)?;
                    let mut f = false;
                    for x in &items {
                        if compare(it, CmpOp::Eq, a, x, line)? {
                            f = true;
                            break;
                        }
                    }
                    f
                }
            };
            return Ok(found == (op == CmpOp::In));
        }
        _ => {}
    }
    if matches!(a, Value::Unknown) || matches!(b, Value::Unknown) {
        return Err(unsupported(
            line,
            "this comparison depends on the input's size: give the input shape",
        ));
    }
    if let Value::Hole(h) = a.clone().or_hole(b) {
        return Err(super::eval::undefined(&h, line));
    }
    let ord: Option<Ordering> = match (a, b) {
        (
            Value::Int(_) | Value::Float(_) | Value::Bool(_),
            Value::Int(_) | Value::Float(_) | Value::Bool(_),
        ) => match (a, b) {
            (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
            _ => as_float(a, line)?.partial_cmp(&as_float(b, line)?),
        },
        (Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
        (Value::Tuple(_) | Value::List(_), Value::Tuple(_) | Value::List(_)) => {
            let xs = it.iterate(a, line)?;
            let ys = it.iterate(b, line)?;
            if std::mem::discriminant(a) != std::mem::discriminant(b) {
                if matches!(op, CmpOp::Eq | CmpOp::NotEq) {
                    return Ok(op == CmpOp::NotEq);
                }
                return Err(raise(
                    line,
                    "TypeError",
                    "'<' not supported between a list and a tuple",
                ));
            }
            // Items compare by identity first, as Python's do (`[m, m] == [m, m]` looks at
            // no item of `m`); nested lists and tuples are Python's recursion.
            it.enter(line)?;
            let ord = (|| {
                for (x, y) in xs.iter().zip(&ys) {
                    if same(x, y) || compare(it, CmpOp::Eq, x, y, line)? {
                        continue;
                    }
                    let less = compare(it, CmpOp::Lt, x, y, line)?;
                    return Ok(Some(if less {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    }));
                }
                Ok(Some(xs.len().cmp(&ys.len())))
            })();
            it.leave();
            ord?
        }
        (Value::None, Value::None) => Some(Ordering::Equal),
        _ => {
            let eq = same(a, b)
                || (matches!((a, b), (Value::Dict(_), Value::Dict(_)))
                    && a.to_string() == b.to_string());
            return match op {
                CmpOp::Eq => Ok(eq),
                CmpOp::NotEq => Ok(!eq),
                _ => Err(raise(
                    line,
                    "TypeError",
                    format!(
                        "'<' not supported between instances of '{}' and '{}'",
                        a.type_name(),
                        b.type_name()
                    ),
                )),
            };
        }
    };
    Ok(match (op, ord) {
        (_, None) => op == CmpOp::NotEq,
        (CmpOp::Eq, Some(o)) => o == Ordering::Equal,
        (CmpOp::NotEq, Some(o)) => o != Ordering::Equal,
        (CmpOp::Lt, Some(o)) => o == Ordering::Less,
        (CmpOp::LtE, Some(o)) => o != Ordering::Greater,
        (CmpOp::Gt, Some(o)) => o == Ordering::Greater,
        (CmpOp::GtE, Some(o)) => o != Ordering::Less,
        _ => false,
    })
}

trait OrHole {
    fn or_hole(self, other: &Value) -> Value;
}

impl OrHole for Value {
    fn or_hole(self, other: &Value) -> Value {
        match (&self, other) {
            (Value::Hole(_), _) => self,
            (_, Value::Hole(_)) => other.clone(),
            _ => Value::None,
        }
    }
}

fn sort(it: &mut Interp, items: &mut [Value], line: usize) -> Ev<()> {
    // Insertion sort through `compare` (lists model code sorts are short).
    if items.len() > 10_000 {
        return Err(unsupported(line, "sorting more than 10,000 items"));
    }
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && compare(it, CmpOp::Lt, &items[j], &items[j - 1], line)? {
            items.swap(j, j - 1);
            j -= 1;
        }
    }
    Ok(())
}

/// `len(v)`.
pub fn length(it: &mut Interp, v: &Value, line: usize) -> Ev<i64> {
    Ok(match v {
        Value::Str(s) => s.chars().count() as i64,
        Value::Tuple(t) => t.len() as i64,
        Value::List(l) => l.borrow().len() as i64,
        Value::Set(l) => l.borrow().len() as i64,
        Value::Dict(d) => d.borrow().len() as i64,
        Value::Range(a, b, s) => range_len(*a, *b, *s),
        Value::Tensor(t) => match &t.shape {
            Some(s) => *s
                .first()
                .ok_or_else(|| raise(line, "TypeError", "len() of a 0-d tensor"))?,
            None => return Ok(0).and(Err(unsupported(line, "len() of a tensor of unknown size"))),
        },
        Value::Layer(_) | Value::Instance(_) => it.iterate(v, line)?.len() as i64,
        Value::Poison(f) => return Err((**f).clone()),
        Value::Hole(h) => return Err(super::eval::undefined(h, line)),
        other => {
            return Err(raise(
                line,
                "TypeError",
                format!("object of type '{}' has no len()", other.type_name()),
            ));
        }
    })
}

/// The items of an iterable value.
pub fn iterate(it: &mut Interp, v: &Value, line: usize) -> Ev<Vec<Value>> {
    Ok(match v {
        Value::List(l) => l.borrow().to_vec(),
        Value::Tuple(t) => t.to_vec(),
        Value::Set(s) => s.borrow().to_vec(),
        Value::Dict(d) => d.borrow().entries.iter().map(|(k, _)| k.clone()).collect(),
        Value::Str(s) => s.chars().map(|c| Value::str(&c.to_string())).collect(),
        Value::Range(a, b, s) => {
            let n = range_len(*a, *b, *s);
            if n > super::eval::MAX_ITEMS as i64 {
                return Err(super::eval::Failure {
                    line,
                    message: format!(
                        "a loop over {n} items: padlab stops at {}",
                        super::eval::MAX_ITEMS
                    ),
                    kind: super::eval::FailKind::Limit,
                });
            }
            it.step(line)?;
            (0..n).map(|k| Value::Int(a + k * s)).collect()
        }
        Value::Layer(l) => super::layers::layer_items(l, line)?,
        Value::Instance(i) if i.class.framework.is_some() => {
            if let Some((f, _)) = it.find_method(&i.class, "__iter__") {
                let site = Site {
                    line: it.paste_line(line),
                    text: Rc::from("iter"),
                };
                let r = it.call_function(&f, Some(v.clone()), vec![], vec![], &site)?;
                return iterate(it, &r, line);
            }
            super::layers::module_children(v)
                .into_iter()
                .map(|(k, c)| match i.class.framework {
                    Some(FrameworkBase::TorchModuleDict) => Value::Str(k),
                    _ => c,
                })
                .collect()
        }
        Value::Tensor(t) => super::ops::tensor_iter(it, t, line)?,
        Value::Poison(f) => return Err((**f).clone()),
        Value::Hole(h) => return Err(super::eval::undefined(h, line)),
        Value::Opaque(w) => {
            return Err(unsupported(
                line,
                format!("a loop over {w}: padlab does not run it"),
            ));
        }
        Value::Unknown => {
            return Err(unsupported(
                line,
                "a loop over an unknown size: give the input shape",
            ));
        }
        other => {
            return Err(raise(
                line,
                "TypeError",
                format!("'{}' object is not iterable", other.type_name()),
            ));
        }
    })
}
