//! PyTorch as the evaluator knows it: `torch.nn` layers (through [`super::layers`]),
//! `torch.nn.functional` and `torch.*` operations on tensors, tensor constructors (a
//! `torch.randn(1, 3, 32, 32)` in the paste is a model input), and the rest of the namespace
//! model code touches (`torch.device`, `torch.cuda.is_available()`, `nn.init.*`).

use std::rc::Rc;

use crate::core::{Dims, Framework, LayerSpec, Padding};
use crate::model::op::{Activation, Interpolation, Op, PadFill};

use super::builtins::{as_float, as_int};
use super::eval::{Ev, Interp, Site, holds_tensor, raise, unevaluated, unsupported};
use super::layers::{outputs_value, pool_op, tensor_of, tensors_of, upsample};
use super::ops::{
    apply, arg, elementwise, positional_or_keyword, reshape, split_method, tensor_method,
};
use super::value::{Args, LayerKind, Tensor, Value};

/// Calls `path` (under `torch`, `torchvision`, `torchaudio`).
pub fn call(it: &mut Interp, path: &str, args: Args, site: &Site) -> Ev<Value> {
    let line = site.line;
    args.poisoned()?;
    let Args { pos, kw } = args;
    if matches!(path, "torch.nn.Parameter" | "torch.nn.parameter.Parameter") {
        // A module's own learned tensor, shaped like the tensor it starts from.
        return match positional_or_keyword(&pos, &kw, 0, "data") {
            Value::Tensor(t) => match &t.shape {
                Some(shape) => Ok(Value::Weight(Rc::new(super::value::Weight::new(
                    Rc::from("nn.Parameter"),
                    shape.clone(),
                )))),
                None => Err(unsupported(
                    line,
                    "an nn.Parameter of a shape padlab does not know",
                )),
            },
            w @ Value::Weight(_) => Ok(w),
            other => Err(unsupported(
                line,
                format!(
                    "an nn.Parameter made from {} is not translated by padlab",
                    other.type_name()
                ),
            )),
        };
    }
    if let Some(class) = path.strip_prefix("torch.nn.")
        && !class.contains('.')
        && class.starts_with(|c: char| c.is_ascii_uppercase())
    {
        return super::layers::construct(it, path, Args { pos, kw }, site);
    }
    if let Some(f) = path.strip_prefix("torch.nn.functional.") {
        return functional(it, f, Args { pos, kw }, site);
    }
    // torch's own helpers that conv modules use to spread an int over the dimensions
    // (`_pair(3)` is `(3, 3)`; a sequence stays itself, as a tuple).
    if let Some(n) = path.strip_prefix("torch.nn.modules.utils.").and_then(|f| {
        ["_single", "_pair", "_triple", "_quadruple"]
            .iter()
            .position(|&g| g == f)
    }) {
        return match pos.into_iter().next() {
            Some(v @ (Value::Tuple(_) | Value::List(_))) => Ok(Value::tuple(it.iterate(&v, line)?)),
            Some(v) => Ok(Value::tuple(vec![v; n + 1])),
            None => Err(raise(
                line,
                "TypeError",
                format!("{path}() missing 1 required positional argument"),
            )),
        };
    }
    if path.starts_with("torch.nn.init.") {
        return Ok(pos.into_iter().next().unwrap_or(Value::None));
    }
    if matches!(
        path,
        "torch.nn.utils.weight_norm"
            | "torch.nn.utils.spectral_norm"
            | "torch.nn.utils.parametrizations.weight_norm"
            | "torch.nn.utils.parametrizations.spectral_norm"
    ) {
        // The reparametrised layer computes what the layer does with its weight; its weight is
        // kept as a magnitude and a direction, one more parameter per slice along `dim`.
        let dim = match super::ops::arg(&pos, &kw, 2, "dim") {
            Some(v) => as_int(&v, line)?,
            None => 0,
        };
        if let Some(Value::Layer(l)) = pos.first()
            && path.ends_with("weight_norm")
        {
            l.weight_norm.set(Some(dim));
        }
        return Ok(pos.into_iter().next().unwrap_or(Value::None));
    }
    if path == "torch.hub.load" {
        return super::zoo::hub_load(it, Args { pos, kw }, site);
    }
    if path.starts_with("torchvision.models.") {
        return Err(super::zoo::refuse(path, site));
    }
    if path.starts_with("torch.hub.") {
        // Downloads (a state dict from a URL): a side effect, refused on a tensor.
        return unevaluated(it, path, &Args { pos, kw }, site, |call| {
            format!("`{call}`: {path} is not evaluated by padlab")
        });
    }
    if let Some(f) = path.strip_prefix("torch.") {
        return torch_function(it, f, path, Args { pos, kw }, site);
    }
    unevaluated(it, path, &Args { pos, kw }, site, |call| {
        format!("`{call}`: {path} is not evaluated by padlab")
    })
}

/// A new model input: a tensor of `shape` (batch first) from a constructor in the paste.
pub fn input_tensor(
    it: &mut Interp,
    shape: Option<Vec<i64>>,
    framework: Framework,
    site: &Site,
) -> Ev<Rc<Tensor>> {
    let out = it.record(
        Op::Input,
        "Input",
        &[],
        framework,
        site,
        None,
        Some("input"),
    )?;
    let t = out
        .into_iter()
        .next()
        .ok_or_else(|| unsupported(site.line, "an input without an output"))?;
    if let Some(node) = it.graph.nodes.get_mut(t.edge.node.0) {
        node.inferred.outputs = vec![shape.clone()];
    }
    Ok(Rc::new(Tensor {
        edge: t.edge,
        shape,
        framework,
        integer: false,
    }))
}

/// Sizes given as `f(1, 3, 32, 32)`, `f((1, 3, 32, 32))` or `f(size=[...])`.
fn sizes_of(it: &mut Interp, pos: &[Value], kw: &[(Rc<str>, Value)], line: usize) -> Ev<Vec<i64>> {
    let items = match (pos, kw.iter().find(|(k, _)| k.as_ref() == "size")) {
        (_, Some((_, v))) => it.iterate(v, line)?,
        ([v @ (Value::Tuple(_) | Value::List(_))], _) => it.iterate(v, line)?,
        _ => pos.to_vec(),
    };
    items.iter().map(|v| as_int(v, line)).collect()
}

fn torch_function(
    it: &mut Interp,
    f: &str,
    path: &str,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    Ok(match f {
        // `torch.Tensor([0.4, 0.5])` is data (a constant), `torch.Tensor(2, 3)` a size.
        "Tensor" | "FloatTensor"
            if matches!(pos.as_slice(), [Value::Tuple(_) | Value::List(_)]) && kw.is_empty() =>
        {
            Value::opaque(format!("a constant tensor (torch.{f})"))
        }
        "randn" | "rand" | "zeros" | "ones" | "empty" | "FloatTensor" | "Tensor" => {
            let shape = sizes_of(it, &pos, &kw, line)?;
            let t = input_tensor(it, Some(shape), Framework::Torch, site)?;
            // Zeros are known to be zeros: a recurrent layer's initial state may be them.
            if f == "zeros"
                && let Some(tr) = it.trace.get_mut(t.edge.node.0)
            {
                tr.function = Some(Rc::from("zeros"));
            }
            Value::Tensor(t)
        }
        "randint" | "LongTensor" => {
            // `torch.randint(low, high, size)` / `torch.randint(high, size)`.
            let size = kw
                .iter()
                .find(|(k, _)| k.as_ref() == "size")
                .map(|(_, v)| v.clone())
                .or_else(|| {
                    pos.iter()
                        .rev()
                        .find(|v| matches!(v, Value::Tuple(_) | Value::List(_)))
                        .cloned()
                });
            let shape = match size {
                Some(v) => it
                    .iterate(&v, line)?
                    .iter()
                    .map(|v| as_int(v, line))
                    .collect::<Ev<_>>()?,
                None => sizes_of(it, &pos, &kw, line)?,
            };
            let t = input_tensor(it, Some(shape), Framework::Torch, site)?;
            Value::Tensor(Rc::new(Tensor {
                edge: t.edge,
                shape: t.shape.clone(),
                framework: Framework::Torch,
                integer: true,
            }))
        }
        "randn_like" | "rand_like" | "zeros_like" | "ones_like" | "empty_like" => {
            let t = tensor_of(pos.first().unwrap_or(&Value::None), line)?;
            let op = match f {
                "randn_like" => Op::Random { normal: true },
                "rand_like" => Op::Random { normal: false },
                "ones_like" => Op::Affine {
                    scale: 0.0,
                    offset: 1.0,
                },
                _ => Op::Affine {
                    scale: 0.0,
                    offset: 0.0,
                },
            };
            apply(it, &t, op, f, site)?
        }
        "cat" | "concat" | "concatenate" => {
            let axis = arg(&pos, &kw, 1, "dim")
                .or_else(|| arg(&pos, &kw, 1, "axis"))
                .map(|v| as_int(&v, line))
                .transpose()?
                .unwrap_or(0);
            let list = pos.first().cloned().unwrap_or(Value::None);
            if let Some(v) = super::ops::learned_concat(it, &list, axis, site)? {
                return Ok(v);
            }
            let xs = tensors_of(&list, line)?;
            super::ops::several(it, Op::Concat { axis }, "cat", &xs, Framework::Torch, site)?
        }
        "stack" => {
            let xs = tensors_of(pos.first().unwrap_or(&Value::None), line)?;
            let axis = arg(&pos, &kw, 1, "dim")
                .map(|v| as_int(&v, line))
                .transpose()?
                .unwrap_or(0);
            super::ops::several(it, Op::Stack { axis }, "stack", &xs, Framework::Torch, site)?
        }
        "flatten" => {
            let t = tensor_of(pos.first().unwrap_or(&Value::None), line)?;
            let start = arg(&pos, &kw, 1, "start_dim")
                .map(|v| as_int(&v, line))
                .transpose()?
                .unwrap_or(0);
            let end = arg(&pos, &kw, 2, "end_dim")
                .map(|v| as_int(&v, line))
                .transpose()?
                .unwrap_or(-1);
            apply(it, &t, Op::Flatten { start, end }, "flatten", site)?
        }
        "reshape" => {
            let t = tensor_of(pos.first().unwrap_or(&Value::None), line)?;
            let sizes = match pos.get(1).or_else(|| {
                kw.iter()
                    .find(|(k, _)| k.as_ref() == "shape")
                    .map(|(_, v)| v)
            }) {
                Some(v) => it.iterate(v, line)?,
                None => Vec::new(),
            };
            reshape(it, &t, &sizes, "reshape", site)?
        }
        "add" | "sub" | "mul" | "div" | "multiply" | "subtract" | "divide" | "pow" | "maximum"
        | "minimum" => {
            let a = pos.first().cloned().unwrap_or(Value::None);
            let b = positional_or_keyword(&pos, &kw, 1, "other");
            use crate::model::op::Binary;
            let bin = match f {
                "add" => Binary::Add,
                "sub" | "subtract" => Binary::Sub,
                "mul" | "multiply" => Binary::Mul,
                "pow" => Binary::Pow,
                "maximum" => Binary::Max,
                "minimum" => Binary::Min,
                _ => Binary::Div,
            };
            elementwise(it, bin, a, b, site)?
        }
        "matmul" | "mm" | "bmm" => {
            let (x, y) = (
                tensor_of(pos.first().unwrap_or(&Value::None), line)?,
                tensor_of(pos.get(1).unwrap_or(&Value::None), line)?,
            );
            let out = it.record(
                Op::MatMul,
                f,
                &[x, y],
                Framework::Torch,
                site,
                None,
                Some(f),
            )?;
            outputs_value(out)
        }
        "sigmoid" | "tanh" | "relu" | "exp" | "log" | "sqrt" | "abs" | "neg" | "squeeze"
        | "unsqueeze" | "transpose" | "permute" | "mean" | "sum" | "amax" | "amin" | "max"
        | "min" | "softmax" | "log_softmax" | "chunk" | "split" | "clamp" | "clip" | "t"
        | "swapaxes" => {
            let mut pos = pos;
            if pos.is_empty() {
                return Err(raise(
                    line,
                    "TypeError",
                    format!("torch.{f}() missing its input"),
                ));
            }
            let first = pos.remove(0);
            let t = match first {
                Value::Tensor(t) => t,
                other => {
                    return Err(raise(
                        line,
                        "TypeError",
                        format!(
                            "torch.{f}(): argument 'input' must be Tensor, not {}",
                            other.type_name()
                        ),
                    ));
                }
            };
            let mut kw = kw;
            kw.retain(|(k, _)| k.as_ref() != "input");
            if matches!(f, "chunk" | "split") {
                return split_method(it, &t, f, &pos, &kw, site);
            }
            tensor_method(it, &t, f, Args { pos, kw }, site)?
        }
        "device" | "Size" | "dtype" | "Generator" => {
            if f == "Size" {
                return Ok(pos.into_iter().next().unwrap_or(Value::tuple(vec![])));
            }
            Value::opaque(format!("a {path}"))
        }
        "cuda.is_available"
        | "backends.mps.is_available"
        | "backends.cudnn.is_available"
        | "is_tensor"
        // The model runs eagerly, in inference: not scripted, traced or exported, no gradients.
        | "jit.is_scripting"
        | "jit.is_tracing"
        | "onnx.is_in_onnx_export"
        | "is_grad_enabled"
        | "compiler.is_compiling"
        | "compiler.is_dynamo_compiling"
        | "_dynamo.is_compiling" => Value::Bool(false),
        "cuda.device_count" => Value::Int(0),
        "_C._get_tracing_state" => Value::None,
        "manual_seed"
        | "set_grad_enabled"
        | "no_grad"
        | "inference_mode"
        | "enable_grad"
        | "set_default_dtype"
        | "set_printoptions"
        | "use_deterministic_algorithms"
        | "cuda.manual_seed"
        | "cuda.manual_seed_all"
        | "set_num_threads" => Value::opaque(format!("{path}()")),
        "arange" | "linspace" if !pos.iter().chain(kw.iter().map(|(_, v)| v)).any(holds_tensor) => {
            super::builtins::constant_range(it, true, f, &pos, &kw, line)?
        }
        "tensor" | "as_tensor" | "from_numpy" | "arange" | "linspace" | "eye" | "full" => {
            if pos.iter().any(holds_tensor) {
                return Err(unsupported(
                    line,
                    format!("torch.{f} of a model tensor is not translated by padlab"),
                ));
            }
            Value::opaque(format!("a constant tensor (torch.{f})"))
        }
        "save" | "load" | "jit.trace" | "jit.script" | "onnx.export" | "compile" => {
            it.effect = true;
            Value::opaque(format!("the result of {path}()"))
        }
        _ => {
            return unevaluated(it, path, &Args { pos, kw }, site, |call| {
                format!("`{call}`: {path} is not translated by padlab")
            });
        }
    })
}

fn first_tensor(pos: &[Value], kw: &[(Rc<str>, Value)], line: usize) -> Ev<Rc<Tensor>> {
    tensor_of(&positional_or_keyword(pos, kw, 0, "input"), line)
}

/// A number or a tuple or list of them, each read by `read`.
fn numbers<T>(
    it: &mut Interp,
    v: Option<Value>,
    read: fn(&Value, usize) -> Ev<T>,
    line: usize,
) -> Ev<Option<Vec<T>>> {
    match v {
        None => Ok(None),
        Some(v @ (Value::Tuple(_) | Value::List(_))) => it
            .iterate(&v, line)?
            .iter()
            .map(|v| read(v, line))
            .collect::<Ev<Vec<T>>>()
            .map(Some),
        Some(v) => Ok(Some(vec![read(&v, line)?])),
    }
}

/// `torch.nn.functional.<f>(...)`.
fn functional(it: &mut Interp, f: &str, Args { pos, kw }: Args, site: &Site) -> Ev<Value> {
    let line = site.line;
    let x = first_tensor(&pos, &kw, line)?;
    let act = |a: Activation| Op::Activation(a);
    let float = |i: usize, n: &str, default: f64| -> Ev<f64> {
        arg(&pos, &kw, i, n)
            .map(|v| as_float(&v, line))
            .transpose()
            .map(|v| v.unwrap_or(default))
    };
    let op = match f {
        "relu" | "relu_" => act(Activation::Relu),
        "relu6" => act(Activation::Relu6),
        "leaky_relu" | "leaky_relu_" => {
            act(Activation::LeakyRelu(float(1, "negative_slope", 0.01)?))
        }
        "elu" | "elu_" => act(Activation::Elu(float(1, "alpha", 1.0)?)),
        "selu" => act(Activation::Selu),
        "gelu" => act(Activation::Gelu {
            tanh: matches!(arg(&pos, &kw, 1, "approximate"), Some(Value::Str(s)) if s.as_ref() == "tanh"),
        }),
        "silu" => act(Activation::Silu),
        "mish" => act(Activation::Mish),
        "hardswish" => act(Activation::HardSwish),
        "hardsigmoid" => act(Activation::HardSigmoid),
        "sigmoid" => act(Activation::Sigmoid),
        "tanh" => act(Activation::Tanh),
        "softsign" => act(Activation::Softsign),
        "softplus" => {
            if float(1, "beta", 1.0)? != 1.0 {
                return Err(unsupported(
                    line,
                    "F.softplus with beta other than 1 is not translated by padlab",
                ));
            }
            act(Activation::Softplus)
        }
        "softmax" | "log_softmax" => {
            let log = f == "log_softmax";
            match arg(&pos, &kw, 1, "dim")
                .filter(|v| !matches!(v, Value::None))
                .map(|v| as_int(&v, line))
                .transpose()?
            {
                Some(axis) => Op::Softmax { axis, log },
                None => super::layers::implicit_softmax(it, &format!("F.{f}"), log, &x, site)?,
            }
        }
        "dropout"
        | "dropout1d"
        | "dropout2d"
        | "dropout3d"
        | "alpha_dropout"
        | "feature_alpha_dropout"
            // torch's own default: `training=True` but for the alpha dropouts.
            if match arg(&pos, &kw, 2, "training") {
                None => !f.contains("alpha"),
                Some(v) => it.truthy(&v, line)?,
            } =>
        {
            return Err(unsupported(
                line,
                format!("F.{f} with training=True (its default) drops values in eval too: the output is random, and padlab ports a model's inference (write training=self.training)"),
            ));
        }
        "dropout"
        | "dropout1d"
        | "dropout2d"
        | "dropout3d"
        | "alpha_dropout"
        | "feature_alpha_dropout" => Op::Dropout {
            rate: float(1, "p", 0.5)?,
            spatial: f.ends_with('d') && f != "dropout",
        },
        "max_pool1d" | "max_pool2d" | "max_pool3d" | "avg_pool1d" | "avg_pool2d" | "avg_pool3d" => {
            let n = usize::from(f.as_bytes()[f.len() - 2] - b'0');
            let max = f.starts_with("max");
            let names: &[&str] = if max {
                &[
                    "input",
                    "kernel_size",
                    "stride",
                    "padding",
                    "dilation",
                    "ceil_mode",
                    "return_indices",
                ]
            } else {
                super::layers::AVG_POOL_FUNCTIONAL
            };
            let b = super::layers::bind(
                Framework::Torch,
                f,
                names,
                Args {
                    pos: pos.clone(),
                    kw: kw.clone(),
                },
                line,
            )?;
            if matches!(b.get("return_indices"), Some(Value::Bool(true)))
                || b.get("divisor_override").is_some()
            {
                return Err(unsupported(
                    line,
                    format!(
                        "F.{f} with return_indices or divisor_override is not translated by padlab"
                    ),
                ));
            }
            let kernel = b
                .dims("kernel_size", n)?
                .ok_or_else(|| raise(line, "TypeError", format!("{f}() missing kernel_size")))?;
            let mut spec = LayerSpec::new(pool_op(max), Framework::Torch, vec![], kernel);
            spec.stride = b.dims("stride", n)?;
            spec.padding = Some(Padding::from_dims(
                b.dims("padding", n)?.unwrap_or(Dims::All(0)),
            ));
            if max {
                spec.dilation = Some(b.dims("dilation", n)?.unwrap_or(Dims::All(1)));
            } else {
                spec.count_include_pad = Some(b.boolean("count_include_pad")?.unwrap_or(true));
            }
            spec.ceil_mode = Some(b.boolean("ceil_mode")?.unwrap_or(false));
            Op::Pool(spec)
        }
        "adaptive_avg_pool1d"
        | "adaptive_avg_pool2d"
        | "adaptive_avg_pool3d"
        | "adaptive_max_pool1d"
        | "adaptive_max_pool2d"
        | "adaptive_max_pool3d" => {
            let n = usize::from(f.as_bytes()[f.len() - 2] - b'0');
            let out = arg(&pos, &kw, 1, "output_size")
                .ok_or_else(|| raise(line, "TypeError", format!("{f}() missing output_size")))?;
            let output: Vec<Option<i64>> = match &out {
                Value::Tuple(_) | Value::List(_) => it
                    .iterate(&out, line)?
                    .iter()
                    .map(|v| match v {
                        Value::None => Ok(None),
                        v => as_int(v, line).map(Some),
                    })
                    .collect::<Ev<_>>()?,
                v => vec![Some(as_int(v, line)?); n],
            };
            Op::AdaptivePool {
                max: f.contains("max"),
                output,
            }
        }
        "interpolate" | "upsample" | "upsample_nearest" | "upsample_bilinear" => {
            let size = numbers(it, arg(&pos, &kw, 1, "size"), as_int, line)?;
            let scale = numbers(it, arg(&pos, &kw, 2, "scale_factor"), as_float, line)?;
            let mode = match (f, arg(&pos, &kw, 3, "mode")) {
                ("upsample_bilinear", _) => Interpolation::Linear,
                (_, None) => Interpolation::Nearest,
                (_, Some(Value::Str(m))) => match m.as_ref() {
                    "nearest" => Interpolation::Nearest,
                    "bilinear" | "linear" | "trilinear" => Interpolation::Linear,
                    "bicubic" => Interpolation::Bicubic,
                    other => {
                        return Err(unsupported(
                            line,
                            format!("F.interpolate(mode='{other}') is not translated by padlab"),
                        ));
                    }
                },
                (_, Some(other)) => {
                    return Err(raise(
                        line,
                        "TypeError",
                        format!("mode must be a string, not {}", other.type_name()),
                    ));
                }
            };
            let align = match arg(&pos, &kw, 4, "align_corners") {
                Some(v) => it.truthy(&v, line)?,
                None => f == "upsample_bilinear",
            };
            upsample(scale, size, mode, align, line)?
        }
        "pad" => {
            let pads = arg(&pos, &kw, 1, "pad")
                .ok_or_else(|| raise(line, "TypeError", "pad() missing pad"))?;
            let flat: Vec<i64> = it
                .iterate(&pads, line)?
                .iter()
                .map(|v| as_int(v, line))
                .collect::<Ev<_>>()?;
            if !flat.len().is_multiple_of(2) {
                return Err(raise(
                    line,
                    "RuntimeError",
                    "Padding length must be divisible by 2",
                ));
            }
            let rank = x.shape.as_ref().map(Vec::len);
            if let Some(r) = rank
                && flat.len() / 2 > r
            {
                return Err(raise(
                    line,
                    "RuntimeError",
                    format!(
                        "Padding length should be less than or equal to two times the input dimension but got padding length {} and input of dimension {r}",
                        flat.len()
                    ),
                ));
            }
            let mode = match arg(&pos, &kw, 2, "mode") {
                None => "constant".to_string(),
                Some(v) => v.to_string(),
            };
            let fill = match mode.as_str() {
                "constant" => PadFill::Constant(float(3, "value", 0.0)?),
                "reflect" => PadFill::Reflect,
                "replicate" => PadFill::Replicate,
                "circular" => PadFill::Circular,
                other => {
                    return Err(raise(
                        line,
                        "NotImplementedError",
                        format!("Unrecognised padding mode {other}"),
                    ));
                }
            };
            let r = rank.ok_or_else(|| {
                unsupported(
                    line,
                    "F.pad of a tensor of unknown rank: give the input shape",
                )
            })?;
            // F.pad lists the last axis first.
            let mut pairs = vec![(0, 0); r];
            for (k, p) in flat.chunks(2).enumerate() {
                pairs[r - 1 - k] = (p[0], p[1]);
            }
            Op::Pad { pairs, fill }
        }
        "pixel_shuffle" => Op::PixelShuffle(as_int(
            &arg(&pos, &kw, 1, "upscale_factor").unwrap_or(Value::Int(1)),
            line,
        )?),
        "flatten" => Op::Flatten { start: 0, end: -1 },
        "conv1d" | "conv2d" | "conv3d" | "conv_transpose1d" | "conv_transpose2d"
        | "conv_transpose3d" | "linear" | "batch_norm" | "layer_norm" | "group_norm"
        | "instance_norm" | "embedding" => {
            return layer_functional(it, f, x, Args { pos, kw }, site);
        }
        _ => {
            return Err(unsupported(
                line,
                format!("F.{f} is not translated by padlab"),
            ));
        }
    };
    let mut kind = f.trim_end_matches('_').to_string();
    if kind == "upsample" {
        kind = "interpolate".into();
    }
    apply(it, &x, op, &kind, site)
}

/// `F.layer_norm(x, shape, weight, bias, eps)`: with no weights, or with a custom module's own
/// `nn.Parameter`s named `weight` and `bias` (ConvNeXt's LayerNorm), which the port copies
/// from that module.
fn free_layer_norm(
    it: &mut Interp,
    x: Rc<Tensor>,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let shape = match arg(&pos, &kw, 1, "normalized_shape") {
        Some(v @ (Value::Tuple(_) | Value::List(_))) => it
            .iterate(&v, line)?
            .iter()
            .map(|d| as_int(d, line))
            .collect::<Ev<Vec<i64>>>()?,
        Some(v) => vec![as_int(&v, line)?],
        None => {
            return Err(raise(
                line,
                "TypeError",
                "layer_norm() missing required argument 'normalized_shape'",
            ));
        }
    };
    let weight = arg(&pos, &kw, 2, "weight");
    let bias = arg(&pos, &kw, 3, "bias");
    let eps = match arg(&pos, &kw, 4, "eps") {
        Some(v) => as_float(&v, line)?,
        None => 1e-5,
    };
    let place = |v: &Option<Value>, want: &str| -> Ev<Option<usize>> {
        match v {
            None => Ok(None),
            Some(Value::Weight(w)) => match w.place.borrow().clone() {
                Some((owner, attr)) if attr.as_ref() == want => Ok(Some(owner)),
                _ => Err(unsupported(
                    line,
                    format!(
                        "F.layer_norm with a {want} that is not its module's own `{want}` parameter is not translated by padlab"
                    ),
                )),
            },
            Some(_) => Err(unsupported(
                line,
                "F.layer_norm with a weight that is not a module's parameter is not translated by padlab",
            )),
        }
    };
    let (w_owner, b_owner) = (place(&weight, "weight")?, place(&bias, "bias")?);
    if w_owner.is_some() && b_owner.is_some() && w_owner != b_owner {
        return Err(unsupported(
            line,
            "F.layer_norm with a weight and a bias of two modules is not translated by padlab",
        ));
    }
    if weight.is_none() && bias.is_some() {
        return Err(unsupported(
            line,
            "F.layer_norm with a bias but no weight is not translated by padlab",
        ));
    }
    let axes = (1..=shape.len() as i64).map(|k| -k).rev().collect();
    let op = Op::Norm(crate::model::op::Norm::Layer {
        axes,
        shape: Some(shape),
        eps,
        center: bias.is_some(),
        scale: weight.is_some(),
    });
    let out = apply(it, &x, op, "layer_norm", site)?;
    if let Some(t) = it.trace.last_mut() {
        t.owner = w_owner.or(b_owner);
    }
    Ok(out)
}

/// `F.conv2d(x, self.weight, self.bias, stride, padding, dilation, groups)` and the other
/// functional forms of layers: the layer whose weight is passed, with the call's own
/// arguments (timm's `Conv2dSame` pads, then calls `F.conv2d` with `padding=0`).
fn layer_functional(
    it: &mut Interp,
    f: &str,
    x: Rc<Tensor>,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    if f == "layer_norm" {
        return free_layer_norm(it, x, Args { pos, kw }, site);
    }
    let Some(Value::Param(layer, _)) = arg(&pos, &kw, 1, "weight") else {
        return Err(unsupported(
            line,
            format!(
                "F.{f} with a weight that is not a layer's: padlab ports layers, not free weights"
            ),
        ));
    };
    let LayerKind::Op(op) = &layer.kind else {
        return Err(unsupported(
            line,
            format!("F.{f} with the weight of a {}", layer.class),
        ));
    };
    let op = match (f, op) {
        ("conv1d" | "conv2d" | "conv3d", Op::Conv(c)) => {
            let n = usize::from(f.as_bytes()[f.len() - 2] - b'0');
            let b = super::layers::bind(
                Framework::Torch,
                f,
                &[
                    "input", "weight", "bias", "stride", "padding", "dilation", "groups",
                ],
                Args {
                    pos: pos.clone(),
                    kw: kw.clone(),
                },
                line,
            )?;
            let mut c = c.clone();
            c.spec.stride = Some(b.dims("stride", n)?.unwrap_or(Dims::All(1)));
            c.spec.dilation = Some(b.dims("dilation", n)?.unwrap_or(Dims::All(1)));
            c.spec.padding = Some(match b.get("padding") {
                Some(Value::Str(s)) if s.as_ref() == "same" => Padding::Same,
                Some(Value::Str(s)) if s.as_ref() == "valid" => Padding::Valid,
                _ => Padding::from_dims(b.dims("padding", n)?.unwrap_or(Dims::All(0))),
            });
            c.spec.padding_mode = None;
            c.bias = b.get("bias").is_some();
            if let Some(g) = b.int("groups")? {
                c.groups = crate::model::op::Groups::Count(g);
            }
            Op::Conv(c)
        }
        ("linear", Op::Dense { .. }) => op.clone(),
        _ => {
            return Err(unsupported(
                line,
                format!("F.{f} with the weight of a {}", layer.class),
            ));
        }
    };
    let out = it.record(
        op,
        f,
        std::slice::from_ref(&x),
        Framework::Torch,
        site,
        Some(&layer),
        None,
    )?;
    Ok(outputs_value(out))
}
