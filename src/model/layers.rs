//! The layers padlab translates, recognised from a call as written: `nn.Conv2d(3, 64, 3)`,
//! `layers.Conv2D(64, (3, 3), padding='same')`, `MaxPooling2D(pool_size=(2, 2))`, …
//!
//! Arguments are bound to each layer's signature (positional, then keyword), evaluated as
//! constants, and checked: an argument that changes the numbers but is not translated is an
//! error naming it; those that do not (initializers, regularizers, names, `inplace`) are
//! accepted and ignored. Nothing is guessed.

use std::fmt;

use crate::core::{Dims, Framework, LayerSpec, Op, Padding, PaddingMode};

use super::python::{Arg, Expr, Star};
use super::value::{Scope, Value};

/// An element-wise activation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Activation {
    Relu,
    Relu6,
    /// With its negative slope.
    LeakyRelu(f64),
    /// With its alpha.
    Elu(f64),
    Tanh,
    Sigmoid,
    /// Over the channel (or feature) axis.
    Softmax,
    /// Exact (erf) or the tanh approximation.
    Gelu {
        tanh: bool,
    },
    Silu,
    Softplus,
}

/// What padding fills with (explicit padding layers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadFill {
    Constant(f64),
    Reflect,
    Replicate,
    Circular,
}

/// Which axis a batch normalisation normalises, in the source's own indexing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormAxis {
    /// The channels (torch's `BatchNorm2d`, Keras `axis=-1` on channels-last data).
    Channels,
    /// A spatial axis, 0-based among the spatial axes (Keras `axis=1` on NHWC data: height).
    Spatial(usize),
}

/// A convolution or transposed convolution.
#[derive(Clone, Debug, PartialEq)]
pub struct Conv {
    /// The layer's sizes and padding; `input` is filled in when the model's shapes are chained.
    pub spec: LayerSpec,
    /// Declared by torch layers; Keras infers it.
    pub in_channels: Option<i64>,
    pub out_channels: i64,
    pub bias: bool,
    /// Keras' `activation=` argument, applied after the layer.
    pub activation: Option<Activation>,
}

/// One layer of a model.
#[derive(Clone, Debug, PartialEq)]
pub enum Layer {
    Conv(Conv),
    /// A max or average pool (`spec.op`); `input` is filled in when chained.
    Pool(LayerSpec),
    /// Global average or max pooling; `keepdims` keeps the spatial axes (torch's adaptive pools
    /// to 1 keep them, Keras' global pools drop them by default).
    GlobalPool {
        max: bool,
        keepdims: bool,
    },
    BatchNorm {
        features: Option<i64>,
        axis: NormAxis,
        eps: f64,
        /// torch's convention: the weight of the new batch in the running average (Keras'
        /// `momentum` is one minus it).
        momentum: f64,
        center: bool,
        scale: bool,
    },
    Activation(Activation),
    /// Inference leaves it out; `spatial` drops whole channels (torch `Dropout2d`, Keras
    /// `SpatialDropout2D`).
    Dropout {
        rate: f64,
        spatial: bool,
    },
    Flatten,
    Dense {
        in_features: Option<i64>,
        units: i64,
        bias: bool,
        activation: Option<Activation>,
    },
    /// Explicit padding of the spatial axes, `(before, after)` each; negative amounts crop.
    Pad {
        pairs: Vec<(i64, i64)>,
        fill: PadFill,
    },
    /// Nearest-neighbour upsampling by an integer factor per spatial axis.
    Upsample {
        scale: Vec<i64>,
    },
    Identity,
}

/// A recognised layer with what the table shows for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Recognised {
    /// The class name as the framework has it (`Conv2D`, `Conv2d`, …).
    pub kind: String,
    /// The number of spatial axes the layer expects (`None`: any, e.g. an activation).
    pub rank: Option<usize>,
    pub layer: Layer,
    /// Keras `input_shape=` / `Input(shape=)`: one sample's shape, channels last.
    pub input_shape: Option<Vec<i64>>,
}

/// Why a call is not a layer padlab can translate.
#[derive(Clone, Debug, PartialEq)]
pub enum LayerError {
    /// Not a layer padlab knows (a name padlab does not translate).
    Unknown(String),
    /// A layer padlab knows, with an argument or value it does not translate.
    Unsupported { layer: String, what: String },
    /// An argument that is not a constant (or not of the right type).
    Argument {
        layer: String,
        argument: String,
        reason: String,
    },
}

impl fmt::Display for LayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayerError::Unknown(name) => write!(f, "`{name}` is not a layer padlab translates"),
            LayerError::Unsupported { layer, what } => {
                write!(f, "{layer}: {what} is not translated by padlab")
            }
            LayerError::Argument {
                layer,
                argument,
                reason,
            } => write!(f, "{layer}: argument `{argument}`: {reason}"),
        }
    }
}

/// Arguments that do not change what a layer computes at inference time.
const IGNORED: &[&str] = &[
    "name",
    "dtype",
    "trainable",
    "inplace",
    "device",
    "kernel_initializer",
    "bias_initializer",
    "kernel_regularizer",
    "bias_regularizer",
    "activity_regularizer",
    "kernel_constraint",
    "bias_constraint",
    "beta_initializer",
    "gamma_initializer",
    "moving_mean_initializer",
    "moving_variance_initializer",
    "beta_regularizer",
    "gamma_regularizer",
    "beta_constraint",
    "gamma_constraint",
    "seed",
    "noise_shape",
    "track_running_stats",
    "synchronized",
    "lora_rank",
    "batch_size",
];

/// A call's arguments bound to a signature.
struct Bound<'a> {
    layer: String,
    values: Vec<(&'static str, &'a Expr)>,
    scope: &'a Scope,
}

impl Bound<'_> {
    fn expr(&self, name: &str) -> Option<&Expr> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, e)| *e)
    }

    fn value(&self, name: &str) -> Result<Option<Value>, LayerError> {
        self.expr(name)
            .map(|e| self.scope.eval(e).map_err(|e| self.bad(name, &e)))
            .transpose()
    }

    fn bad(&self, argument: &str, reason: &dyn fmt::Display) -> LayerError {
        LayerError::Argument {
            layer: self.layer.clone(),
            argument: argument.to_string(),
            reason: reason.to_string(),
        }
    }

    fn unsupported(&self, what: impl Into<String>) -> LayerError {
        LayerError::Unsupported {
            layer: self.layer.clone(),
            what: what.into(),
        }
    }

    fn int(&self, name: &str) -> Result<Option<i64>, LayerError> {
        match self.value(name)? {
            None | Some(Value::None) => Ok(None),
            Some(Value::Int(v)) => Ok(Some(v)),
            Some(other) => Err(self.bad(name, &format!("expected an integer, got {other}"))),
        }
    }

    fn required_int(&self, name: &str) -> Result<i64, LayerError> {
        self.int(name)?
            .ok_or_else(|| self.bad(name, &"is required"))
    }

    fn float(&self, name: &str) -> Result<Option<f64>, LayerError> {
        match self.value(name)? {
            None | Some(Value::None) => Ok(None),
            Some(Value::Int(v)) => Ok(Some(v as f64)),
            Some(Value::Float(v)) => Ok(Some(v)),
            Some(other) => Err(self.bad(name, &format!("expected a number, got {other}"))),
        }
    }

    fn boolean(&self, name: &str) -> Result<Option<bool>, LayerError> {
        match self.value(name)? {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(other) => Err(self.bad(name, &format!("expected True or False, got {other}"))),
        }
    }

    fn string(&self, name: &str) -> Result<Option<String>, LayerError> {
        match self.value(name)? {
            None | Some(Value::None) => Ok(None),
            Some(Value::Str(s)) => Ok(Some(s)),
            Some(other) => Err(self.bad(name, &format!("expected a string, got {other}"))),
        }
    }

    /// An int or a tuple of `n` ints.
    fn dims(&self, name: &str, n: usize) -> Result<Option<Dims>, LayerError> {
        match self.value(name)? {
            None | Some(Value::None) => Ok(None),
            Some(Value::Int(v)) => Ok(Some(Dims::All(v))),
            Some(Value::Seq(items)) => {
                let v = ints(&items).ok_or_else(|| self.bad(name, &"expected integers"))?;
                if v.len() != n {
                    return Err(self.bad(name, &format!("expected {n} values, got {}", v.len())));
                }
                Ok(Some(Dims::Each(v)))
            }
            Some(other) => Err(self.bad(
                name,
                &format!("expected an integer or a tuple, got {other}"),
            )),
        }
    }
}

fn ints(items: &[Value]) -> Option<Vec<i64>> {
    items
        .iter()
        .map(|v| match v {
            Value::Int(i) => Some(*i),
            _ => None,
        })
        .collect()
}

/// Binds `args` to the positional `params` and keyword names; arguments in [`IGNORED`] and
/// `extra_ignored` are dropped, any other unknown one is an error.
fn bind<'a>(
    layer: &str,
    params: &[&'static str],
    keywords: &[&'static str],
    args: &'a [Arg],
    scope: &'a Scope,
) -> Result<Bound<'a>, LayerError> {
    let mut values = Vec::new();
    let mut position = 0;
    for arg in args {
        if arg.star != Star::None {
            return Err(LayerError::Unsupported {
                layer: layer.to_string(),
                what: "a *args or **kwargs argument".into(),
            });
        }
        match &arg.name {
            None => {
                let Some(&name) = params.get(position) else {
                    return Err(LayerError::Argument {
                        layer: layer.to_string(),
                        argument: format!("#{}", position + 1),
                        reason: "too many positional arguments".into(),
                    });
                };
                position += 1;
                values.push((name, &arg.value));
            }
            Some(name) => {
                let known = params.iter().chain(keywords).find(|p| **p == name.as_str());
                match known {
                    Some(&p) => values.push((p, &arg.value)),
                    None if IGNORED.contains(&name.as_str()) => {}
                    None => {
                        return Err(LayerError::Unsupported {
                            layer: layer.to_string(),
                            what: format!("the argument `{name}`"),
                        });
                    }
                }
            }
        }
    }
    Ok(Bound {
        layer: layer.to_string(),
        values,
        scope,
    })
}

/// A class name's family (lowercased, without its rank) and rank: `Conv2DTranspose` ->
/// (`convtranspose`, 2), `BatchNorm1d` -> (`batchnorm`, 1), `ReLU` -> (`relu`, none).
fn split_rank(name: &str) -> (String, Option<usize>) {
    let bytes = name.as_bytes();
    for i in 0..bytes.len().saturating_sub(1) {
        let rank = match bytes[i] {
            b'1' => 1,
            b'2' => 2,
            b'3' => 3,
            _ => continue,
        };
        let d = matches!(bytes[i + 1], b'd' | b'D');
        let boundary = bytes.get(i + 2).is_none_or(|c| c.is_ascii_uppercase());
        if d && boundary {
            let family = format!("{}{}", &name[..i], &name[i + 2..]).to_ascii_lowercase();
            return (family, Some(rank));
        }
    }
    (name.to_ascii_lowercase(), None)
}

/// The last name of an attribute path naming an activation function (`tf.nn.relu` -> `relu`).
fn function_name(e: &Expr) -> Option<String> {
    use super::python::ExprKind;
    match &e.kind {
        ExprKind::Attr(base, name)
            if matches!(&base.kind, ExprKind::Name(_) | ExprKind::Attr(..)) =>
        {
            Some(name.clone())
        }
        _ => None,
    }
}

/// A Keras activation by name (`activation='relu'`, `Activation('relu')`).
pub fn keras_activation(name: &str) -> Option<Option<Activation>> {
    Some(Some(match name {
        "linear" => return Some(None),
        "relu" => Activation::Relu,
        "relu6" => Activation::Relu6,
        "leaky_relu" => Activation::LeakyRelu(0.2),
        "elu" => Activation::Elu(1.0),
        "tanh" => Activation::Tanh,
        "sigmoid" => Activation::Sigmoid,
        "softmax" => Activation::Softmax,
        "gelu" => Activation::Gelu { tanh: false },
        "silu" | "swish" => Activation::Silu,
        "softplus" => Activation::Softplus,
        _ => return None,
    }))
}

/// The Keras layer `name` called with `args`.
pub fn keras(name: &str, args: &[Arg], scope: &Scope) -> Result<Recognised, LayerError> {
    let (fam, rank) = split_rank(name);
    let activation = |b: &Bound| -> Result<Option<Activation>, LayerError> {
        // `activation=tf.nn.relu` or `keras.activations.relu`: the function's name.
        if let Some(name) = b.expr("activation").and_then(function_name) {
            return keras_activation(&name)
                .ok_or_else(|| b.unsupported(format!("activation={name}")));
        }
        match b.value("activation")? {
            None | Some(Value::None) => Ok(None),
            Some(Value::Str(s)) => {
                keras_activation(&s).ok_or_else(|| b.unsupported(format!("activation='{s}'")))
            }
            Some(other) => Err(b.bad("activation", &format!("expected a name, got {other}"))),
        }
    };
    let channels_last = |b: &Bound| -> Result<(), LayerError> {
        match b.string("data_format")?.as_deref() {
            None | Some("channels_last") => Ok(()),
            Some(other) => Err(b.unsupported(format!("data_format='{other}'"))),
        }
    };
    let input_shape =
        |b: &Bound| -> Result<Option<Vec<i64>>, LayerError> {
            match b.value("input_shape")? {
                None | Some(Value::None) => Ok(None),
                Some(Value::Seq(items)) => ints(&items)
                    .filter(|v| !v.is_empty())
                    .map(Some)
                    .ok_or_else(|| {
                        b.bad(
                            "input_shape",
                            &"expected a tuple of sizes (None is not a size)",
                        )
                    }),
                Some(other) => Err(b.bad("input_shape", &format!("expected a tuple, got {other}"))),
            }
        };
    let (layer, input) = match (fam.as_str(), rank) {
        ("conv" | "convolution" | "convtranspose" | "convolutiontranspose", Some(n)) => {
            let transposed = fam.ends_with("transpose");
            let params: &[&str] = if transposed {
                &[
                    "filters",
                    "kernel_size",
                    "strides",
                    "padding",
                    "output_padding",
                    "data_format",
                    "dilation_rate",
                    "activation",
                    "use_bias",
                ]
            } else {
                &[
                    "filters",
                    "kernel_size",
                    "strides",
                    "padding",
                    "data_format",
                    "dilation_rate",
                    "groups",
                    "activation",
                    "use_bias",
                ]
            };
            let b = bind(name, params, &["input_shape"], args, scope)?;
            channels_last(&b)?;
            if b.int("groups")?.unwrap_or(1) != 1 {
                return Err(b.unsupported("groups other than 1"));
            }
            let op = if transposed {
                Op::ConvTranspose
            } else {
                Op::Conv
            };
            let kernel = b
                .dims("kernel_size", n)?
                .ok_or_else(|| b.bad("kernel_size", &"is required"))?;
            let mut spec = LayerSpec::new(op, Framework::Keras, vec![], kernel);
            spec.stride = b.dims("strides", n)?;
            spec.dilation = b.dims("dilation_rate", n)?;
            spec.padding = Some(keras_padding(&b)?);
            if transposed {
                spec.output_padding = b.dims("output_padding", n)?;
            }
            (
                Layer::Conv(Conv {
                    spec,
                    in_channels: None,
                    out_channels: b.required_int("filters")?,
                    bias: b.boolean("use_bias")?.unwrap_or(true),
                    activation: activation(&b)?,
                }),
                input_shape(&b)?,
            )
        }
        ("maxpooling" | "maxpool" | "averagepooling" | "avgpool", Some(n)) => {
            let b = bind(
                name,
                &["pool_size", "strides", "padding", "data_format"],
                &["input_shape"],
                args,
                scope,
            )?;
            channels_last(&b)?;
            let op = if fam.starts_with("max") {
                Op::MaxPool
            } else {
                Op::AvgPool
            };
            let kernel = b.dims("pool_size", n)?.unwrap_or(Dims::All(2));
            let mut spec = LayerSpec::new(op, Framework::Keras, vec![], kernel);
            spec.stride = b.dims("strides", n)?;
            spec.padding = Some(keras_padding(&b)?);
            (Layer::Pool(spec), input_shape(&b)?)
        }
        (
            "globalaveragepooling" | "globalavgpool" | "globalmaxpooling" | "globalmaxpool",
            Some(_),
        ) => {
            let b = bind(
                name,
                &["data_format", "keepdims"],
                &["input_shape"],
                args,
                scope,
            )?;
            channels_last(&b)?;
            (
                Layer::GlobalPool {
                    max: fam.starts_with("globalmax"),
                    keepdims: b.boolean("keepdims")?.unwrap_or(false),
                },
                input_shape(&b)?,
            )
        }
        ("batchnormalization", None) => {
            let b = bind(
                name,
                &["axis", "momentum", "epsilon", "center", "scale"],
                &["input_shape"],
                args,
                scope,
            )?;
            let axis = match b.value("axis")? {
                None => -1,
                Some(Value::Int(a)) => a,
                Some(other) => return Err(b.bad("axis", &format!("one axis, got {other}"))),
            };
            let momentum = b.float("momentum")?.unwrap_or(0.99);
            (
                Layer::BatchNorm {
                    features: None,
                    // Resolved against the input's rank when the model is chained.
                    axis: keras_axis(axis),
                    eps: b.float("epsilon")?.unwrap_or(1e-3),
                    momentum: complement(momentum),
                    center: b.boolean("center")?.unwrap_or(true),
                    scale: b.boolean("scale")?.unwrap_or(true),
                },
                input_shape(&b)?,
            )
        }
        ("activation", None) => {
            let b = bind(name, &["activation"], &["input_shape"], args, scope)?;
            let act = activation(&b)?;
            (
                act.map_or(Layer::Identity, Layer::Activation),
                input_shape(&b)?,
            )
        }
        ("relu", None) => {
            let b = bind(
                name,
                &["max_value", "negative_slope", "threshold"],
                &["input_shape"],
                args,
                scope,
            )?;
            let max = b.float("max_value")?;
            let slope = b.float("negative_slope")?.unwrap_or(0.0);
            if b.float("threshold")?.unwrap_or(0.0) != 0.0 {
                return Err(b.unsupported("threshold other than 0"));
            }
            let act = match (max, slope) {
                (None, 0.0) => Activation::Relu,
                (Some(m), s) if m == 6.0 && s == 0.0 => Activation::Relu6,
                (None, s) => Activation::LeakyRelu(s),
                _ => return Err(b.unsupported("this max_value")),
            };
            (Layer::Activation(act), input_shape(&b)?)
        }
        ("leakyrelu", None) => {
            let b = bind(
                name,
                &["negative_slope"],
                &["alpha", "input_shape"],
                args,
                scope,
            )?;
            let slope = b
                .float("negative_slope")?
                .or(b.float("alpha")?)
                .unwrap_or(0.3);
            (
                Layer::Activation(Activation::LeakyRelu(slope)),
                input_shape(&b)?,
            )
        }
        ("elu", None) => {
            let b = bind(name, &["alpha"], &["input_shape"], args, scope)?;
            (
                Layer::Activation(Activation::Elu(b.float("alpha")?.unwrap_or(1.0))),
                input_shape(&b)?,
            )
        }
        ("softmax", None) => {
            let b = bind(name, &["axis"], &["input_shape"], args, scope)?;
            if !matches!(b.int("axis")?, None | Some(-1)) {
                return Err(b.unsupported("softmax over an axis other than the last"));
            }
            (Layer::Activation(Activation::Softmax), input_shape(&b)?)
        }
        ("dropout", None) | ("spatialdropout", Some(_)) => {
            let b = bind(name, &["rate"], &["input_shape"], args, scope)?;
            (
                Layer::Dropout {
                    rate: b.float("rate")?.unwrap_or(0.0),
                    spatial: fam == "spatialdropout",
                },
                input_shape(&b)?,
            )
        }
        ("flatten", None) => {
            let b = bind(name, &["data_format"], &["input_shape"], args, scope)?;
            channels_last(&b)?;
            (Layer::Flatten, input_shape(&b)?)
        }
        ("dense", None) => {
            let b = bind(
                name,
                &["units", "activation", "use_bias"],
                &["input_shape", "input_dim"],
                args,
                scope,
            )?;
            let input = match (input_shape(&b)?, b.int("input_dim")?) {
                (Some(s), _) => Some(s),
                (None, Some(d)) => Some(vec![d]),
                (None, None) => None,
            };
            (
                Layer::Dense {
                    in_features: None,
                    units: b.required_int("units")?,
                    bias: b.boolean("use_bias")?.unwrap_or(true),
                    activation: activation(&b)?,
                },
                input,
            )
        }
        ("zeropadding" | "cropping", Some(n)) => {
            let key = if fam == "cropping" {
                "cropping"
            } else {
                "padding"
            };
            let b = bind(name, &[key, "data_format"], &["input_shape"], args, scope)?;
            channels_last(&b)?;
            let default = if fam == "cropping" { 0 } else { 1 };
            let pairs = keras_pairs(&b, key, n, default)?;
            let pairs = if fam == "cropping" {
                pairs.into_iter().map(|(a, c)| (-a, -c)).collect()
            } else {
                pairs
            };
            (
                Layer::Pad {
                    pairs,
                    fill: PadFill::Constant(0.0),
                },
                input_shape(&b)?,
            )
        }
        ("upsampling", Some(n)) => {
            let b = bind(
                name,
                &["size", "data_format", "interpolation"],
                &["input_shape"],
                args,
                scope,
            )?;
            channels_last(&b)?;
            if !matches!(
                b.string("interpolation")?.as_deref(),
                None | Some("nearest")
            ) {
                return Err(b.unsupported("interpolation other than 'nearest'"));
            }
            let scale = match b.dims("size", n)?.unwrap_or(Dims::All(2)) {
                Dims::All(v) => vec![v; n],
                Dims::Each(v) => v,
            };
            (Layer::Upsample { scale }, input_shape(&b)?)
        }
        _ => return Err(LayerError::Unknown(name.into())),
    };
    Ok(Recognised {
        kind: name.to_string(),
        rank,
        layer,
        input_shape: input,
    })
}

/// One minus a momentum (Keras keeps the old average's share, PyTorch the new value's),
/// rounded to the decimals it was written with: 0.99 gives 0.01, not 0.010000000000000009.
pub fn complement(momentum: f64) -> f64 {
    let exact = 1.0 - momentum;
    let written = momentum.to_string();
    match written.split_once('.') {
        Some((_, decimals)) if !written.contains('e') && decimals.len() <= 15 => {
            format!("{exact:.*}", decimals.len())
                .parse()
                .unwrap_or(exact)
        }
        _ => exact,
    }
}

/// Keras `axis` as an axis of channels-last data (`-1`: the channels); non-negative axes count
/// the batch as 0, so `1` is the first spatial axis. Axes past the spatial ones are the channels
/// (checked against the rank when chained).
fn keras_axis(axis: i64) -> NormAxis {
    match axis {
        a if a >= 1 => NormAxis::Spatial(usize::try_from(a - 1).unwrap_or(usize::MAX)),
        _ => NormAxis::Channels,
    }
}

fn keras_padding(b: &Bound) -> Result<Padding, LayerError> {
    match b.string("padding")?.as_deref() {
        None | Some("valid") => Ok(Padding::Valid),
        Some("same") => Ok(Padding::Same),
        Some("causal") => Ok(Padding::Causal),
        Some(other) => Err(b.unsupported(format!("padding='{other}'"))),
    }
}

/// Keras ZeroPadding/Cropping: an int, one int per axis, or `(before, after)` per axis.
fn keras_pairs(
    b: &Bound,
    key: &str,
    n: usize,
    default: i64,
) -> Result<Vec<(i64, i64)>, LayerError> {
    let bad = || {
        b.bad(
            key,
            &format!("expected an int, {n} ints, or {n} (before, after) pairs"),
        )
    };
    match b.value(key)? {
        None => Ok(vec![(default, default); n]),
        Some(Value::Int(v)) => Ok(vec![(v, v); n]),
        Some(Value::Seq(items)) if items.len() == n || (n == 1 && items.len() == 2) => {
            if n == 1
                && let Some(v) = ints(&items)
                && v.len() == 2
            {
                return Ok(vec![(v[0], v[1])]);
            }
            items
                .iter()
                .map(|item| match item {
                    Value::Int(v) => Ok((*v, *v)),
                    Value::Seq(pair) => match ints(pair).as_deref() {
                        Some([a, c]) => Ok((*a, *c)),
                        _ => Err(bad()),
                    },
                    _ => Err(bad()),
                })
                .collect()
        }
        Some(_) => Err(bad()),
    }
}

/// The torch layer `name` (in `torch.nn`) called with `args`.
pub fn torch(name: &str, args: &[Arg], scope: &Scope) -> Result<Recognised, LayerError> {
    let (fam, rank) = split_rank(name);
    let layer = match (fam.as_str(), rank) {
        ("conv" | "convtranspose", Some(n)) => {
            let transposed = fam == "convtranspose";
            let params: &[&str] = if transposed {
                &[
                    "in_channels",
                    "out_channels",
                    "kernel_size",
                    "stride",
                    "padding",
                    "output_padding",
                    "groups",
                    "bias",
                    "dilation",
                    "padding_mode",
                ]
            } else {
                &[
                    "in_channels",
                    "out_channels",
                    "kernel_size",
                    "stride",
                    "padding",
                    "dilation",
                    "groups",
                    "bias",
                    "padding_mode",
                ]
            };
            let b = bind(name, params, &[], args, scope)?;
            if b.int("groups")?.unwrap_or(1) != 1 {
                return Err(b.unsupported("groups other than 1"));
            }
            let op = if transposed {
                Op::ConvTranspose
            } else {
                Op::Conv
            };
            let kernel = b
                .dims("kernel_size", n)?
                .ok_or_else(|| b.bad("kernel_size", &"is required"))?;
            let mut spec = LayerSpec::new(op, Framework::Torch, vec![], kernel);
            spec.stride = b.dims("stride", n)?;
            spec.dilation = b.dims("dilation", n)?;
            spec.padding = Some(torch_padding(&b, n)?);
            if let Some(mode) = b.string("padding_mode")? {
                let mode: PaddingMode = mode.parse().map_err(|e| b.bad("padding_mode", &e))?;
                spec.padding_mode = (mode != PaddingMode::Zeros).then_some(mode);
            }
            if transposed {
                spec.output_padding = b.dims("output_padding", n)?;
            }
            Layer::Conv(Conv {
                spec,
                in_channels: Some(b.required_int("in_channels")?),
                out_channels: b.required_int("out_channels")?,
                bias: b.boolean("bias")?.unwrap_or(true),
                activation: None,
            })
        }
        ("maxpool" | "avgpool", Some(n)) => {
            let max = fam == "maxpool";
            let params: &[&str] = if max {
                &[
                    "kernel_size",
                    "stride",
                    "padding",
                    "dilation",
                    "return_indices",
                    "ceil_mode",
                ]
            } else {
                &[
                    "kernel_size",
                    "stride",
                    "padding",
                    "ceil_mode",
                    "count_include_pad",
                    "divisor_override",
                ]
            };
            let b = bind(name, params, &[], args, scope)?;
            if b.boolean("return_indices")? == Some(true) {
                return Err(b.unsupported("return_indices=True"));
            }
            if b.int("divisor_override")?.is_some() {
                return Err(b.unsupported("divisor_override"));
            }
            let op = if max { Op::MaxPool } else { Op::AvgPool };
            let kernel = b
                .dims("kernel_size", n)?
                .ok_or_else(|| b.bad("kernel_size", &"is required"))?;
            let mut spec = LayerSpec::new(op, Framework::Torch, vec![], kernel);
            spec.stride = b.dims("stride", n)?;
            spec.dilation = b.dims("dilation", n)?;
            spec.padding = Some(torch_padding(&b, n)?);
            spec.ceil_mode = b.boolean("ceil_mode")?.filter(|&c| c);
            if !max {
                spec.count_include_pad = b.boolean("count_include_pad")?;
            }
            Layer::Pool(spec)
        }
        ("adaptiveavgpool" | "adaptivemaxpool", Some(n)) => {
            let b = bind(name, &["output_size", "return_indices"], &[], args, scope)?;
            let ones = match b.dims("output_size", n)? {
                Some(Dims::All(1)) => true,
                Some(Dims::Each(v)) => v.iter().all(|&x| x == 1),
                _ => false,
            };
            if !ones {
                return Err(b.unsupported("an output size other than 1 (global pooling)"));
            }
            Layer::GlobalPool {
                max: fam == "adaptivemaxpool",
                keepdims: true,
            }
        }
        ("batchnorm", Some(_)) => {
            let b = bind(
                name,
                &[
                    "num_features",
                    "eps",
                    "momentum",
                    "affine",
                    "track_running_stats",
                ],
                &[],
                args,
                scope,
            )?;
            let affine = b.boolean("affine")?.unwrap_or(true);
            let momentum = match b.value("momentum")? {
                Some(Value::None) => {
                    return Err(b.unsupported("momentum=None (a cumulative average)"));
                }
                _ => b.float("momentum")?.unwrap_or(0.1),
            };
            Layer::BatchNorm {
                features: Some(b.required_int("num_features")?),
                axis: NormAxis::Channels,
                eps: b.float("eps")?.unwrap_or(1e-5),
                momentum,
                center: affine,
                scale: affine,
            }
        }
        ("relu", None) | ("relu6", None) | ("tanh", None) | ("sigmoid", None) | ("silu", None) => {
            let _ = bind(name, &["inplace"], &[], args, scope)?;
            match fam.as_str() {
                "relu" => Layer::Activation(Activation::Relu),
                "relu6" => Layer::Activation(Activation::Relu6),
                "tanh" => Layer::Activation(Activation::Tanh),
                "sigmoid" => Layer::Activation(Activation::Sigmoid),
                _ => Layer::Activation(Activation::Silu),
            }
        }
        // nn.Identity ignores its arguments.
        ("identity", None) => Layer::Identity,
        ("leakyrelu", None) => {
            let b = bind(name, &["negative_slope", "inplace"], &[], args, scope)?;
            Layer::Activation(Activation::LeakyRelu(
                b.float("negative_slope")?.unwrap_or(0.01),
            ))
        }
        ("elu", None) => {
            let b = bind(name, &["alpha", "inplace"], &[], args, scope)?;
            Layer::Activation(Activation::Elu(b.float("alpha")?.unwrap_or(1.0)))
        }
        ("gelu", None) => {
            let b = bind(name, &["approximate"], &[], args, scope)?;
            let tanh = match b.string("approximate")?.as_deref() {
                None | Some("none") => false,
                Some("tanh") => true,
                Some(other) => return Err(b.unsupported(format!("approximate='{other}'"))),
            };
            Layer::Activation(Activation::Gelu { tanh })
        }
        ("softplus", None) => {
            let b = bind(name, &["beta", "threshold"], &[], args, scope)?;
            if b.float("beta")?.unwrap_or(1.0) != 1.0 {
                return Err(b.unsupported("beta other than 1"));
            }
            Layer::Activation(Activation::Softplus)
        }
        ("softmax", None) => {
            let b = bind(name, &["dim"], &[], args, scope)?;
            match b.int("dim")? {
                // Resolved against the input when chained: the channel (feature) axis only.
                Some(1) | Some(-1) => Layer::Activation(Activation::Softmax),
                None => {
                    return Err(
                        b.unsupported("Softmax() without dim (an implicit, deprecated choice)")
                    );
                }
                Some(other) => return Err(b.unsupported(format!("dim={other}"))),
            }
        }
        ("dropout", None) | ("dropout", Some(_)) => {
            let b = bind(name, &["p", "inplace"], &[], args, scope)?;
            Layer::Dropout {
                rate: b.float("p")?.unwrap_or(0.5),
                spatial: rank.is_some(),
            }
        }
        ("flatten", None) => {
            let b = bind(name, &["start_dim", "end_dim"], &[], args, scope)?;
            if b.int("start_dim")?.unwrap_or(1) != 1 || b.int("end_dim")?.unwrap_or(-1) != -1 {
                return Err(b.unsupported("start_dim/end_dim other than 1 and -1"));
            }
            Layer::Flatten
        }
        ("linear", None) => {
            let b = bind(
                name,
                &["in_features", "out_features", "bias"],
                &[],
                args,
                scope,
            )?;
            Layer::Dense {
                in_features: Some(b.required_int("in_features")?),
                units: b.required_int("out_features")?,
                bias: b.boolean("bias")?.unwrap_or(true),
                activation: None,
            }
        }
        (
            "zeropad" | "constantpad" | "reflectionpad" | "replicationpad" | "circularpad",
            Some(n),
        ) => {
            let params: &[&str] = if fam == "constantpad" {
                &["padding", "value"]
            } else {
                &["padding"]
            };
            let b = bind(name, params, &[], args, scope)?;
            let fill = match fam.as_str() {
                "constantpad" => PadFill::Constant(
                    b.float("value")?
                        .ok_or_else(|| b.bad("value", &"is required"))?,
                ),
                "reflectionpad" => PadFill::Reflect,
                "replicationpad" => PadFill::Replicate,
                "circularpad" => PadFill::Circular,
                _ => PadFill::Constant(0.0),
            };
            Layer::Pad {
                pairs: torch_pad_pairs(&b, n)?,
                fill,
            }
        }
        ("upsample" | "upsamplingnearest", _) => {
            let b = bind(
                name,
                &["size", "scale_factor", "mode", "align_corners"],
                &[],
                args,
                scope,
            )?;
            if !matches!(b.string("mode")?.as_deref(), None | Some("nearest")) {
                return Err(b.unsupported("a mode other than 'nearest'"));
            }
            if b.value("size")?.is_some() {
                return Err(b.unsupported("size= (a fixed output size)"));
            }
            let scale = match b.value("scale_factor")? {
                Some(Value::Int(v)) => Dims::All(v),
                Some(Value::Float(f)) if f.fract() == 0.0 && f > 0.0 && f < 1e9 => {
                    Dims::All(f as i64)
                }
                Some(Value::Seq(items)) => Dims::Each(
                    items
                        .iter()
                        .map(|v| match v {
                            Value::Int(i) => Some(*i),
                            Value::Float(f) if f.fract() == 0.0 && *f > 0.0 && *f < 1e9 => {
                                Some(*f as i64)
                            }
                            _ => None,
                        })
                        .collect::<Option<_>>()
                        .ok_or_else(|| b.unsupported("a non-integer scale factor"))?,
                ),
                _ => return Err(b.unsupported("a scale factor that is not a whole number")),
            };
            // The rank is the input's: resolved when chained (one value per spatial axis then).
            return Ok(Recognised {
                kind: name.to_string(),
                rank: match &scale {
                    Dims::Each(v) => Some(v.len()),
                    Dims::All(_) => None,
                },
                layer: Layer::Upsample {
                    scale: match scale {
                        Dims::Each(v) => v,
                        Dims::All(v) => vec![v],
                    },
                },
                input_shape: None,
            });
        }
        _ => return Err(LayerError::Unknown(name.into())),
    };
    // nn.Dropout is element-wise; nn.Dropout1d/2d/3d drop whole channels.
    Ok(Recognised {
        kind: name.to_string(),
        rank,
        layer,
        input_shape: None,
    })
}

/// torch `padding`: an int, a tuple per axis, `'same'` or `'valid'`.
fn torch_padding(b: &Bound, n: usize) -> Result<Padding, LayerError> {
    match b.value("padding")? {
        None => Ok(Padding::All(0)),
        Some(Value::Str(s)) => Padding::from_keyword(&s)
            .filter(|p| matches!(p, Padding::Same | Padding::Valid))
            .ok_or_else(|| b.bad("padding", &format!("'{s}' is not a padding torch takes"))),
        Some(_) => match b.dims("padding", n)? {
            Some(Dims::All(p)) => Ok(Padding::All(p)),
            Some(Dims::Each(v)) => Ok(Padding::PerDim(v)),
            None => Ok(Padding::All(0)),
        },
    }
}

/// torch's padding layers: an int, or `(left, right, top, bottom, front, back)` (last axis
/// first); returned per spatial axis in order.
fn torch_pad_pairs(b: &Bound, n: usize) -> Result<Vec<(i64, i64)>, LayerError> {
    match b.value("padding")? {
        Some(Value::Int(p)) => Ok(vec![(p, p); n]),
        Some(Value::Seq(items)) => {
            let v = ints(&items).filter(|v| v.len() == 2 * n).ok_or_else(|| {
                b.bad(
                    "padding",
                    &format!("expected an int or {} ints (last axis first)", 2 * n),
                )
            })?;
            Ok(v.chunks(2).rev().map(|c| (c[0], c[1])).collect())
        }
        _ => Err(b.bad("padding", &"is required")),
    }
}

#[cfg(test)]
mod tests {
    use super::complement;

    #[test]
    fn a_momentum_complement_keeps_the_written_decimals() {
        assert_eq!(complement(0.99), 0.01);
        assert_eq!(complement(0.01), 0.99);
        assert_eq!(complement(0.1), 0.9);
        assert_eq!(complement(0.0), 1.0);
        assert_eq!(complement(1e-7), 1.0 - 1e-7);
    }
}
