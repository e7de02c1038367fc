//! The framework layers padlab knows, built from their constructor calls: every argument bound
//! to the class's signature (positional, then keyword, as the framework binds them), checked,
//! and turned into a neutral [`Op`]. An argument that changes the numbers but is not
//! translated is an error naming it; those that do not (initializers, regularizers, `inplace`)
//! are accepted. Also: calling a layer on tensors, containers (`Sequential`, `ModuleList`,
//! `ModuleDict`), and the attributes code reads from layers (`conv.out_channels`).
//!
//! The Keras half is shared with the Keras model-file front end: a layer's `config` is its
//! constructor's keyword arguments.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::core::{Dims, Framework, LayerSpec, Op as LayerOp, Padding, PaddingMode};
use crate::model::op::{
    Activation, Binary, Conv, Groups, Interpolation, LearnedOp, Norm, Op, PadFill, WeightAt,
};

use super::builtins::{as_float, as_int};
use super::eval::{Ev, Interp, Site, no_attribute, raise, unsupported};
use super::value::{Args, Instance, Layer, LayerKind, Tensor, Value};

/// torch.nn classes padlab builds.
pub const TORCH_LAYERS: &[&str] = &[
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "ConvTranspose3d",
    "MaxPool1d",
    "MaxPool2d",
    "MaxPool3d",
    "AvgPool1d",
    "AvgPool2d",
    "AvgPool3d",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d",
    "BatchNorm1d",
    "BatchNorm2d",
    "BatchNorm3d",
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "GroupNorm",
    "LayerNorm",
    "ReLU",
    "ReLU6",
    "LeakyReLU",
    "ELU",
    "PReLU",
    "SELU",
    "GELU",
    "SiLU",
    "Mish",
    "Hardswish",
    "Hardsigmoid",
    "Sigmoid",
    "Tanh",
    "Hardtanh",
    "Softplus",
    "Softsign",
    "Softmax",
    "LogSoftmax",
    "Softmax2d",
    "Identity",
    "Flatten",
    "Unflatten",
    "Dropout",
    "Dropout1d",
    "Dropout2d",
    "Dropout3d",
    "AlphaDropout",
    "Linear",
    "Embedding",
    "Upsample",
    "UpsamplingNearest2d",
    "UpsamplingBilinear2d",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "PixelShuffle",
    "LSTM",
    "GRU",
    "RNN",
    "MultiheadAttention",
    "Sequential",
    "ModuleList",
    "ModuleDict",
    "Module",
];

/// Keras layer classes padlab builds.
pub const KERAS_LAYERS: &[&str] = &[
    "Conv1D",
    "Conv2D",
    "Conv3D",
    "Convolution1D",
    "Convolution2D",
    "Convolution3D",
    "Conv1DTranspose",
    "Conv2DTranspose",
    "Conv3DTranspose",
    "Convolution2DTranspose",
    "SeparableConv1D",
    "SeparableConv2D",
    "SeparableConvolution2D",
    "DepthwiseConv1D",
    "DepthwiseConv2D",
    "MaxPooling1D",
    "MaxPooling2D",
    "MaxPooling3D",
    "MaxPool1D",
    "MaxPool2D",
    "MaxPool3D",
    "AveragePooling1D",
    "AveragePooling2D",
    "AveragePooling3D",
    "AvgPool1D",
    "AvgPool2D",
    "AvgPool3D",
    "GlobalAveragePooling1D",
    "GlobalAveragePooling2D",
    "GlobalAveragePooling3D",
    "GlobalAvgPool1D",
    "GlobalAvgPool2D",
    "GlobalAvgPool3D",
    "GlobalMaxPooling1D",
    "GlobalMaxPooling2D",
    "GlobalMaxPooling3D",
    "GlobalMaxPool1D",
    "GlobalMaxPool2D",
    "GlobalMaxPool3D",
    "BatchNormalization",
    "LayerNormalization",
    "GroupNormalization",
    "Dense",
    "Activation",
    "ReLU",
    "LeakyReLU",
    "ELU",
    "PReLU",
    "Softmax",
    "Dropout",
    "SpatialDropout1D",
    "SpatialDropout2D",
    "SpatialDropout3D",
    "GaussianNoise",
    "GaussianDropout",
    "AlphaDropout",
    "Flatten",
    "Reshape",
    "Permute",
    "UpSampling1D",
    "UpSampling2D",
    "UpSampling3D",
    "ZeroPadding1D",
    "ZeroPadding2D",
    "ZeroPadding3D",
    "Cropping1D",
    "Cropping2D",
    "Cropping3D",
    "Add",
    "Subtract",
    "Multiply",
    "Average",
    "Maximum",
    "Minimum",
    "Concatenate",
    "Dot",
    "Embedding",
    "InputLayer",
    "Rescaling",
    "Normalization",
    "Resizing",
    "RandomFlip",
    "RandomRotation",
    "RandomZoom",
    "RandomContrast",
    "RandomTranslation",
    "RandomBrightness",
    "Lambda",
    "Identity",
    "LSTM",
    "GRU",
    "SimpleRNN",
    "Bidirectional",
    "MultiHeadAttention",
    "Layer",
    "Input",
];

/// Arguments that do not change what a layer computes at inference time.
const IGNORED: &[&str] = &[
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
    "lora_alpha",
    "depthwise_initializer",
    "pointwise_initializer",
    "depthwise_regularizer",
    "pointwise_regularizer",
    "depthwise_constraint",
    "pointwise_constraint",
    "embeddings_initializer",
    "embeddings_regularizer",
    "embeddings_constraint",
    "autocast",
    "recompute_scale_factor",
    "antialias",
    "value_range",
    "fill_mode",
    "interpolation_order",
    "fill_value",
    "mask_zero_padding",
    "renorm",
    "renorm_clipping",
    "renorm_momentum",
    "virtual_batch_size",
    "adjustment",
    "rms_scaling",
    "sparse",
    "input_length",
    "factor",
    "height_factor",
    "width_factor",
    "mode",
];

/// Whether `path` names a layer class padlab builds (`torch.nn.Conv2d`).
pub fn is_layer_class(path: &str) -> bool {
    match path.rsplit_once('.') {
        Some(("torch.nn", c)) => {
            TORCH_LAYERS.contains(&c)
                && !matches!(c, "Module" | "Sequential" | "ModuleList" | "ModuleDict")
        }
        Some(("keras.layers", c)) => KERAS_LAYERS.contains(&c) && !matches!(c, "Layer" | "Input"),
        _ => false,
    }
}

/// `isinstance(m, k)` for a layer and a family name code tests (`nn.modules.conv._ConvNd`,
/// `nn.BatchNorm2d` for a `BatchNorm2d`).
pub fn is_family(own: &str, k: &str) -> bool {
    let class = own.rsplit('.').next().unwrap_or(own);
    match k.rsplit('.').next().unwrap_or(k) {
        "_ConvNd" => class.starts_with("Conv"),
        "_BatchNorm" | "_NormBase" => class.starts_with("BatchNorm"),
        "_InstanceNorm" => class.starts_with("InstanceNorm"),
        "_MaxPoolNd" => class.starts_with("MaxPool"),
        "_AvgPoolNd" => class.starts_with("AvgPool"),
        "_DropoutNd" => class.starts_with("Dropout"),
        _ => false,
    }
}

/// A layer's class as a full API path.
pub fn api_path(l: &Layer) -> String {
    match l.framework {
        Framework::Torch => format!("torch.nn.{}", l.class),
        _ if matches!(l.kind, LayerKind::Sequential(_)) => "keras.Sequential".into(),
        _ if matches!(l.kind, LayerKind::Functional { .. }) => "keras.Model".into(),
        _ => format!("keras.layers.{}", l.class),
    }
}

/// A call's arguments bound to a signature.
pub struct Bound {
    pub class: String,
    pub framework: Framework,
    pub line: usize,
    pub values: Vec<(&'static str, Value)>,
    /// Keras `name=`.
    pub name: Option<Rc<str>>,
    /// Keras `input_shape=` (or `batch_input_shape`, `input_dim`) on a first layer.
    pub input_shape: Option<Value>,
}

impl Bound {
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
            .filter(|v| !matches!(v, Value::None))
    }

    fn bad(&self, argument: &str, reason: impl std::fmt::Display) -> super::eval::Failure {
        raise(
            self.line,
            "TypeError",
            format!("{}: argument `{argument}`: {reason}", self.class),
        )
    }

    fn untranslated(&self, what: impl std::fmt::Display) -> super::eval::Failure {
        unsupported(
            self.line,
            format!("{}: {what} is not translated by padlab", self.class),
        )
    }

    pub fn int(&self, name: &str) -> Ev<Option<i64>> {
        self.get(name).map(|v| as_int(v, self.line)).transpose()
    }

    pub fn required_int(&self, name: &str) -> Ev<i64> {
        self.int(name)?.ok_or_else(|| self.bad(name, "is required"))
    }

    pub fn float(&self, name: &str) -> Ev<Option<f64>> {
        self.get(name).map(|v| as_float(v, self.line)).transpose()
    }

    pub fn boolean(&self, name: &str) -> Ev<Option<bool>> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::Int(i)) => Ok(Some(*i != 0)),
            Some(Value::Poison(f)) => Err((**f).clone()),
            Some(other) => Err(self.bad(
                name,
                format!("expected True or False, got {}", other.repr()),
            )),
        }
    }

    pub fn string(&self, name: &str) -> Ev<Option<String>> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Str(s)) => Ok(Some(s.to_string())),
            Some(Value::Poison(f)) => Err((**f).clone()),
            Some(other) => Err(self.bad(name, format!("expected a string, got {}", other.repr()))),
        }
    }

    /// Integers as a list (an int, or a tuple/list of them).
    fn ints(&self, name: &str) -> Ev<Option<Vec<i64>>> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Tuple(t)) => t
                .iter()
                .map(|v| as_int(v, self.line))
                .collect::<Ev<_>>()
                .map(Some),
            Some(Value::List(l)) => l
                .borrow()
                .iter()
                .map(|v| as_int(v, self.line))
                .collect::<Ev<_>>()
                .map(Some),
            Some(v) => Ok(Some(vec![as_int(v, self.line)?])),
        }
    }

    /// An int or a tuple of `n` ints.
    pub fn dims(&self, name: &str, n: usize) -> Ev<Option<Dims>> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Tuple(_) | Value::List(_)) => {
                let v = self.ints(name)?.unwrap_or_default();
                if v.len() == 1 && n != 1 {
                    return Ok(Some(Dims::All(v[0])));
                }
                if v.len() != n {
                    return Err(self.bad(name, format!("expected {n} values, got {}", v.len())));
                }
                Ok(Some(Dims::Each(v)))
            }
            Some(v) => Ok(Some(Dims::All(as_int(v, self.line)?))),
        }
    }

    /// Refuses a non-default value of an argument padlab does not translate.
    fn refuse_unless(&self, name: &str, ok: impl Fn(&Value) -> bool) -> Ev<()> {
        match self.get(name) {
            Some(v) if !ok(v) => Err(self.untranslated(format!("{name}={}", v.repr()))),
            _ => Ok(()),
        }
    }
}

/// Binds `pos` and `kw` to `params` (in positional order) as `framework` does; ignorable
/// arguments are dropped, any other unknown one is the framework's error.
pub fn bind(
    framework: Framework,
    class: &str,
    params: &[&'static str],
    Args { pos, kw }: Args,
    line: usize,
) -> Ev<Bound> {
    let mut b = Bound {
        class: class.to_string(),
        framework,
        line,
        values: Vec::new(),
        name: None,
        input_shape: None,
    };
    if pos.len() > params.len() {
        return Err(raise(
            line,
            "TypeError",
            format!(
                "{class}.__init__() takes {} positional arguments but {} were given",
                params.len() + 1,
                pos.len() + 1
            ),
        ));
    }
    for (p, v) in params.iter().zip(pos) {
        if let Value::Poison(f) = &v {
            return Err((**f).clone());
        }
        b.values.push((p, v));
    }
    for (k, v) in kw {
        if let Value::Poison(f) = &v {
            return Err((**f).clone());
        }
        if let Some(p) = params.iter().find(|p| **p == k.as_ref()) {
            if b.values.iter().any(|(n, _)| n == p) {
                return Err(raise(
                    line,
                    "TypeError",
                    format!("{class}.__init__() got multiple values for argument '{k}'"),
                ));
            }
            b.values.push((p, v));
            continue;
        }
        match (framework, k.as_ref()) {
            (Framework::Keras, "name") => {
                if !matches!(v, Value::None) {
                    b.name = Some(Rc::from(v.to_string().as_str()));
                }
            }
            (
                Framework::Keras,
                "input_shape" | "batch_input_shape" | "input_dim" | "batch_shape",
            ) => {
                let shape = match (k.as_ref(), &v) {
                    ("input_dim", v) => Value::tuple(vec![v.clone()]),
                    ("batch_input_shape" | "batch_shape", Value::Tuple(t)) => {
                        Value::tuple(t[1..].to_vec())
                    }
                    _ => v,
                };
                b.input_shape = Some(shape);
            }
            (_, other) if IGNORED.contains(&other) => {}
            (Framework::Keras, "alpha") if class == "LeakyReLU" => {
                b.values.push(("negative_slope", v))
            }
            (Framework::Keras, _) => {
                return Err(raise(
                    line,
                    "ValueError",
                    format!(
                        "Unrecognized keyword arguments passed to {class}: {{'{k}': {}}}",
                        v.repr()
                    ),
                ));
            }
            _ => {
                return Err(raise(
                    line,
                    "TypeError",
                    format!("{class}.__init__() got an unexpected keyword argument '{k}'"),
                ));
            }
        }
    }
    Ok(b)
}

/// A class name's family (lowercased, without its rank) and rank: `Conv2DTranspose` ->
/// (`convtranspose`, 2), `BatchNorm1d` -> (`batchnorm`, 1), `ReLU` -> (`relu`, none).
pub fn split_rank(name: &str) -> (String, Option<usize>) {
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

/// Builds the layer `path` (`torch.nn.Conv2d`, `keras.layers.Conv2D`) from its call.
pub fn construct(it: &mut Interp, path: &str, Args { pos, kw }: Args, site: &Site) -> Ev<Value> {
    let (module, class) = path.rsplit_once('.').unwrap_or(("", path));
    let framework = if module.starts_with("torch") {
        Framework::Torch
    } else {
        Framework::Keras
    };
    let built = match framework {
        Framework::Torch => torch_layer(it, class, Args { pos, kw }, site)?,
        _ => return super::keras::construct(it, class, Args { pos, kw }, site),
    };
    Ok(built)
}

/// A new layer value.
pub fn new_layer(
    it: &mut Interp,
    framework: Framework,
    class: &str,
    kind: LayerKind,
    site: &Site,
    name: Option<Rc<str>>,
    args: Vec<(Rc<str>, Value)>,
) -> Value {
    let id = it.id();
    // A zoo's layer is written as the framework constructs it, with its values (the zoo's
    // code names them by its own variables).
    let text = if it.zoo_at.is_some() {
        Rc::from(super::zoo::layer_text(class, &args, name.as_deref()).as_str())
    } else {
        site.text.clone()
    };
    Value::Layer(Rc::new(Layer {
        id,
        framework,
        class: Rc::from(class),
        kind,
        text,
        line: site.line,
        name,
        first_node: Cell::new(None),
        weight_norm: Cell::new(None),
        args,
        attrs: Default::default(),
        first_input: Default::default(),
    }))
}

fn args_of(b: &Bound) -> Vec<(Rc<str>, Value)> {
    b.values
        .iter()
        .map(|(k, v)| (Rc::from(*k), v.clone()))
        .collect()
}

/// The parameters of `nn.AvgPool*d`: those of `F.avg_pool*d` after its input.
pub const AVG_POOL: &[&str] = AVG_POOL_FUNCTIONAL.split_at(1).1;

/// The parameters of `F.avg_pool*d`, in positional order.
pub const AVG_POOL_FUNCTIONAL: &[&str] = &[
    "input",
    "kernel_size",
    "stride",
    "padding",
    "ceil_mode",
    "count_include_pad",
    "divisor_override",
];

/// The parameters of a `torch.nn` layer class, in positional order, by its family and rank;
/// `None` for a class padlab does not translate.
fn torch_signature(family: &str, rank: Option<usize>) -> Option<&'static [&'static str]> {
    const NORM: &[&str] = &[
        "num_features",
        "eps",
        "momentum",
        "affine",
        "track_running_stats",
    ];
    Some(match (family, rank) {
        ("conv", Some(_)) => &[
            "in_channels",
            "out_channels",
            "kernel_size",
            "stride",
            "padding",
            "dilation",
            "groups",
            "bias",
            "padding_mode",
        ],
        ("convtranspose", Some(_)) => &[
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
        ],
        ("maxpool", Some(_)) => &[
            "kernel_size",
            "stride",
            "padding",
            "dilation",
            "return_indices",
            "ceil_mode",
        ],
        ("avgpool", Some(_)) => AVG_POOL,
        ("adaptiveavgpool" | "adaptivemaxpool", Some(_)) => &["output_size", "return_indices"],
        ("batchnorm" | "instancenorm", Some(_)) => NORM,
        ("groupnorm", None) => &["num_groups", "num_channels", "eps", "affine"],
        ("layernorm", None) => &["normalized_shape", "eps", "elementwise_affine", "bias"],
        ("relu" | "relu6" | "selu" | "silu" | "mish" | "hardswish" | "hardsigmoid", None) => {
            &["inplace"]
        }
        ("sigmoid" | "tanh" | "softsign", None) | ("softmax", Some(2)) => &[],
        ("leakyrelu", None) => &["negative_slope", "inplace"],
        ("elu", None) => &["alpha", "inplace"],
        ("prelu", None) => &["num_parameters", "init", "device", "dtype"],
        ("hardtanh", None) => &["min_val", "max_val", "inplace"],
        ("gelu", None) => &["approximate"],
        ("softplus", None) => &["beta", "threshold"],
        ("softmax" | "logsoftmax", None) => &["dim"],
        ("flatten", None) => &["start_dim", "end_dim"],
        ("unflatten", None) => &["dim", "unflattened_size"],
        ("dropout" | "alphadropout" | "featurealphadropout", _) => &["p", "inplace"],
        ("linear", None) => &["in_features", "out_features", "bias", "device", "dtype"],
        ("embedding", None) => &[
            "num_embeddings",
            "embedding_dim",
            "padding_idx",
            "max_norm",
            "norm_type",
            "scale_grad_by_freq",
            "sparse",
            "_weight",
            "_freeze",
        ],
        ("upsample" | "upsamplingnearest" | "upsamplingbilinear", _) => {
            &["size", "scale_factor", "mode", "align_corners"]
        }
        (
            "zeropad" | "constantpad" | "reflectionpad" | "replicationpad" | "circularpad",
            Some(_),
        ) => &["padding", "value"],
        ("pixelshuffle", None) => &["upscale_factor"],
        ("lstm", None) => &[
            "input_size",
            "hidden_size",
            "num_layers",
            "bias",
            "batch_first",
            "dropout",
            "bidirectional",
            "proj_size",
            "device",
            "dtype",
        ],
        ("gru", None) => &[
            "input_size",
            "hidden_size",
            "num_layers",
            "bias",
            "batch_first",
            "dropout",
            "bidirectional",
            "device",
            "dtype",
        ],
        ("rnn", None) => &[
            "input_size",
            "hidden_size",
            "num_layers",
            "nonlinearity",
            "bias",
            "batch_first",
            "dropout",
            "bidirectional",
            "device",
            "dtype",
        ],
        ("multiheadattention", None) => &[
            "embed_dim",
            "num_heads",
            "dropout",
            "bias",
            "add_bias_kv",
            "add_zero_attn",
            "kdim",
            "vdim",
            "batch_first",
            "device",
            "dtype",
        ],
        _ => return None,
    })
}

fn torch_layer(it: &mut Interp, class: &str, args: Args, site: &Site) -> Ev<Value> {
    let line = site.line;
    let (family, rank) = split_rank(class);
    let fw = Framework::Torch;
    let (container, kind) = match family.as_str() {
        "sequential" if rank.is_none() => {
            let children: Vec<(Rc<str>, Value)> = match args.pos.as_slice() {
                [Value::Dict(d)] => named_entries(&d.borrow()),
                _ => args
                    .pos
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (Rc::from(i.to_string().as_str()), v))
                    .collect(),
            };
            check_modules(&children, "Sequential", line)?;
            ("Sequential", LayerKind::Sequential(RefCell::new(children)))
        }
        "modulelist" if rank.is_none() => {
            let items = match args.pos.first() {
                Some(v) => it.iterate(v, line)?,
                None => Vec::new(),
            };
            ("ModuleList", LayerKind::List(RefCell::new(items)))
        }
        "moduledict" if rank.is_none() => {
            let items: Vec<(Rc<str>, Value)> = match args.pos.first() {
                Some(Value::Dict(d)) => named_entries(&d.borrow()),
                Some(other) => {
                    let mut out = Vec::new();
                    for item in it.iterate(other, line)? {
                        let kv = it.iterate(&item, line)?;
                        if let [k, v] = kv.as_slice() {
                            out.push((Rc::from(k.to_string().as_str()), v.clone()));
                        }
                    }
                    out
                }
                None => Vec::new(),
            };
            ("ModuleDict", LayerKind::Dict(RefCell::new(items)))
        }
        "module" if rank.is_none() => return Ok(Value::opaque("a bare nn.Module()")),
        // A loss is training, not the model.
        _ if class.ends_with("Loss") => {
            return Ok(Value::opaque(format!("the loss nn.{class}()")));
        }
        _ => {
            let (op, b) = torch_op(class, &family, rank, args, line)?;
            let kind = LayerKind::Op(op);
            return Ok(new_layer(it, fw, class, kind, site, None, args_of(&b)));
        }
    };
    Ok(new_layer(it, fw, container, kind, site, None, vec![]))
}

/// A dict's entries with their keys as names.
fn named_entries(d: &super::value::Dict) -> Vec<(Rc<str>, Value)> {
    d.entries
        .iter()
        .map(|(k, v)| (Rc::from(k.to_string().as_str()), v.clone()))
        .collect()
}

/// The operation of a `torch.nn` layer class (not a container) and its bound arguments.
fn torch_op(
    class: &str,
    family: &str,
    rank: Option<usize>,
    args: Args,
    line: usize,
) -> Ev<(Op, Bound)> {
    let fw = Framework::Torch;
    let untranslated = || unsupported(line, format!("nn.{class} is not a layer padlab translates"));
    // `nn.LazyConv2d(out_channels, ...)`: the layer without its first parameter (the input's
    // channels or features), which torch takes from the first call.
    let (family, lazy) = match family.strip_prefix("lazy") {
        Some(f @ ("conv" | "convtranspose" | "linear" | "batchnorm" | "instancenorm")) => (f, true),
        Some(_) => return Err(untranslated()),
        None => (family, false),
    };
    let b = match (family, rank) {
        // `nn.Identity` takes and ignores any arguments.
        ("identity", None) => Bound {
            class: class.into(),
            framework: fw,
            line,
            values: vec![],
            name: None,
            input_shape: None,
        },
        (
            "transformer"
            | "transformerencoder"
            | "transformerencoderlayer"
            | "transformerdecoder"
            | "transformerdecoderlayer",
            _,
        ) => {
            return Err(unsupported(
                line,
                format!(
                    "nn.{class} is not translated by padlab (it reads nn.MultiheadAttention, nn.LSTM, nn.GRU and nn.RNN; write the block with them)"
                ),
            ));
        }
        ("lstmcell" | "grucell" | "rnncell", _) => {
            return Err(unsupported(
                line,
                format!(
                    "nn.{class}: a cell stepped by a Python loop over time is not translated by padlab (it reads the whole-sequence layers nn.LSTM, nn.GRU and nn.RNN)"
                ),
            ));
        }
        _ => match torch_signature(family, rank) {
            Some(params) => bind(fw, class, &params[usize::from(lazy)..], args, line)?,
            None => return Err(untranslated()),
        },
    };
    // The first parameter, which a lazy layer leaves to its first call.
    let declared = |name: &str| -> Ev<Option<i64>> {
        if lazy {
            Ok(None)
        } else {
            b.required_int(name).map(Some)
        }
    };
    // A convolution's or pool's window: `kernel_size` (required), then `stride`.
    let window = |op: LayerOp, n: usize| -> Ev<LayerSpec> {
        let kernel = b
            .dims("kernel_size", n)?
            .ok_or_else(|| b.bad("kernel_size", "is required"))?;
        let mut spec = LayerSpec::new(op, fw, vec![], kernel);
        spec.stride = b.dims("stride", n)?;
        Ok(spec)
    };
    let op = match (family, rank) {
        ("identity", None) => Op::Identity,
        ("conv" | "convtranspose", Some(n)) => {
            let transposed = family == "convtranspose";
            let mut spec = window(conv_op(transposed), n)?;
            spec.dilation = b.dims("dilation", n)?;
            spec.padding = torch_padding(&b, n)?;
            if transposed {
                spec.output_padding = b.dims("output_padding", n)?;
            }
            if let Some(mode) = b.string("padding_mode")? {
                spec.padding_mode = Some(match mode.as_str() {
                    "zeros" => PaddingMode::Zeros,
                    "reflect" => PaddingMode::Reflect,
                    "replicate" => PaddingMode::Replicate,
                    "circular" => PaddingMode::Circular,
                    other => {
                        return Err(raise(
                            line,
                            "ValueError",
                            format!(
                                "padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got padding_mode='{other}'"
                            ),
                        ));
                    }
                });
            }
            let in_channels = declared("in_channels")?;
            let out_channels = b.required_int("out_channels")?;
            let groups = b.int("groups")?.unwrap_or(1);
            if groups < 1 {
                return Err(raise(
                    line,
                    "ValueError",
                    "groups must be a positive integer",
                ));
            }
            if in_channels.is_some_and(|c| c % groups != 0) {
                return Err(raise(
                    line,
                    "ValueError",
                    "in_channels must be divisible by groups",
                ));
            }
            if out_channels % groups != 0 {
                return Err(raise(
                    line,
                    "ValueError",
                    "out_channels must be divisible by groups",
                ));
            }
            if spec.padding == Some(Padding::Same) && !transposed {
                let strided = match &spec.stride {
                    Some(Dims::All(s)) => *s != 1,
                    Some(Dims::Each(v)) => v.iter().any(|&s| s != 1),
                    None => false,
                };
                if strided {
                    return Err(raise(
                        line,
                        "ValueError",
                        "padding='same' is not supported for strided convolutions",
                    ));
                }
            }
            Op::Conv(Conv {
                spec,
                in_channels,
                filters: out_channels,
                groups: Groups::Count(groups),
                separable: false,
                bias: b.boolean("bias")?.unwrap_or(true),
                activation: None,
            })
        }
        ("maxpool" | "avgpool", Some(n)) => {
            let max = family == "maxpool";
            b.refuse_unless("return_indices", |v| matches!(v, Value::Bool(false)))?;
            b.refuse_unless("divisor_override", |v| matches!(v, Value::None))?;
            let mut spec = window(pool_op(max), n)?;
            spec.padding = b.dims("padding", n)?.map(Padding::from_dims);
            if max {
                spec.dilation = b.dims("dilation", n)?;
            }
            spec.ceil_mode = b.boolean("ceil_mode")?;
            if !max {
                spec.count_include_pad = b.boolean("count_include_pad")?;
            }
            Op::Pool(spec)
        }
        ("adaptiveavgpool" | "adaptivemaxpool", Some(n)) => {
            b.refuse_unless("return_indices", |v| matches!(v, Value::Bool(false)))?;
            let output: Vec<Option<i64>> = match b
                .values
                .iter()
                .find(|(k, _)| *k == "output_size")
                .map(|(_, v)| v.clone())
            {
                None => return Err(b.bad("output_size", "is required")),
                Some(Value::Tuple(t)) => t
                    .iter()
                    .map(|v| match v {
                        Value::None => Ok(None),
                        v => as_int(v, line).map(Some),
                    })
                    .collect::<Ev<_>>()?,
                Some(Value::List(l)) => l
                    .borrow()
                    .iter()
                    .map(|v| match v {
                        Value::None => Ok(None),
                        v => as_int(v, line).map(Some),
                    })
                    .collect::<Ev<_>>()?,
                Some(v) => vec![Some(as_int(&v, line)?); n],
            };
            if output.len() != n {
                return Err(b.bad(
                    "output_size",
                    format!("expected {n} values, got {}", output.len()),
                ));
            }
            Op::AdaptivePool {
                max: family == "adaptivemaxpool",
                output,
            }
        }
        ("batchnorm", Some(_)) if b.boolean("track_running_stats")? == Some(false) => {
            return Err(unsupported(
                line,
                format!(
                    "{class}(track_running_stats=False) normalises every batch by its own statistics, in eval too: its output depends on the batch, and padlab ports a model's inference"
                ),
            ));
        }
        // A batch norm in eval, and an instance norm that tracks running statistics (in eval
        // it normalises by them, not by each sample's: a batch norm's inference, with the same
        // `running_mean` / `running_var` buffers; its `affine` defaults to False).
        (f @ ("batchnorm" | "instancenorm"), Some(_))
            if f == "batchnorm" || b.boolean("track_running_stats")? == Some(true) =>
        {
            let affine = b.boolean("affine")?.unwrap_or(f == "batchnorm");
            Op::Norm(Norm::Batch {
                axis: 1,
                features: declared("num_features")?,
                eps: b.float("eps")?.unwrap_or(1e-5),
                momentum: b.float("momentum")?.unwrap_or(0.1),
                center: affine,
                scale: affine,
            })
        }
        ("instancenorm", Some(_)) => Op::Norm(Norm::Instance {
            features: declared("num_features")?,
            eps: b.float("eps")?.unwrap_or(1e-5),
            affine: b.boolean("affine")?.unwrap_or(false),
        }),
        ("groupnorm", None) => {
            let groups = b.required_int("num_groups")?;
            let channels = b.required_int("num_channels")?;
            if groups < 1 || channels % groups != 0 {
                return Err(raise(
                    line,
                    "ValueError",
                    "num_channels must be divisible by num_groups",
                ));
            }
            Op::Norm(Norm::Group {
                groups,
                channels: Some(channels),
                eps: b.float("eps")?.unwrap_or(1e-5),
                affine: b.boolean("affine")?.unwrap_or(true),
            })
        }
        ("layernorm", None) => {
            let shape = b
                .ints("normalized_shape")?
                .ok_or_else(|| b.bad("normalized_shape", "is required"))?;
            let affine = b.boolean("elementwise_affine")?.unwrap_or(true);
            let axes = (1..=shape.len() as i64).map(|k| -k).rev().collect();
            Op::Norm(Norm::Layer {
                axes,
                shape: Some(shape),
                eps: b.float("eps")?.unwrap_or(1e-5),
                center: affine && b.boolean("bias")?.unwrap_or(true),
                scale: affine,
            })
        }
        (
            "relu" | "relu6" | "selu" | "silu" | "mish" | "hardswish" | "hardsigmoid" | "sigmoid"
            | "tanh" | "softsign",
            None,
        ) => {
            let a = match family {
                "relu" => Activation::Relu,
                "relu6" => Activation::Relu6,
                "selu" => Activation::Selu,
                "silu" => Activation::Silu,
                "mish" => Activation::Mish,
                "hardswish" => Activation::HardSwish,
                "hardsigmoid" => Activation::HardSigmoid,
                "sigmoid" => Activation::Sigmoid,
                "tanh" => Activation::Tanh,
                _ => Activation::Softsign,
            };
            Op::Activation(a)
        }
        ("leakyrelu", None) => Op::Activation(Activation::LeakyRelu(
            b.float("negative_slope")?.unwrap_or(0.01),
        )),
        ("elu", None) => Op::Activation(Activation::Elu(b.float("alpha")?.unwrap_or(1.0))),
        // Its slopes' shape over the input is set where it is called (`prelu_at`).
        ("prelu", None) => Op::Learned {
            op: LearnedOp::PRelu,
            shape: vec![b.int("num_parameters")?.unwrap_or(1)],
            weight: WeightAt::Layer("weight".into()),
        },
        ("hardtanh", None) => {
            match (
                b.float("min_val")?.unwrap_or(-1.0),
                b.float("max_val")?.unwrap_or(1.0),
            ) {
                (lo, hi) if lo == 0.0 && hi == 6.0 => Op::Activation(Activation::Relu6),
                (lo, hi) if lo.is_finite() && hi.is_finite() => {
                    Op::Activation(Activation::Clip { lo, hi })
                }
                (lo, hi) => return Err(b.untranslated(format!("Hardtanh({lo}, {hi})"))),
            }
        }
        ("gelu", None) => {
            let tanh = match b.string("approximate")?.as_deref() {
                None | Some("none") => false,
                Some("tanh") => true,
                Some(other) => {
                    return Err(raise(
                        line,
                        "ValueError",
                        format!("approximate argument must be either none or tanh, not {other}"),
                    ));
                }
            };
            Op::Activation(Activation::Gelu { tanh })
        }
        ("softplus", None) => {
            b.refuse_unless("beta", |v| {
                matches!(v, Value::Int(1)) || matches!(v, Value::Float(x) if *x == 1.0)
            })?;
            Op::Activation(Activation::Softplus)
        }
        ("softmax" | "logsoftmax", None) => {
            // Without `dim`, torch picks the axis from the input's rank when called.
            let axis = b.int("dim")?.unwrap_or(IMPLICIT_DIM);
            Op::Softmax {
                axis,
                log: family == "logsoftmax",
            }
        }
        ("softmax", Some(2)) => Op::Softmax {
            axis: -3,
            log: false,
        },
        ("flatten", None) => Op::Flatten {
            start: b.int("start_dim")?.unwrap_or(1),
            end: b.int("end_dim")?.unwrap_or(-1),
        },
        ("unflatten", None) => {
            let dim = b.required_int("dim")?;
            if dim != 1 && dim != -1 {
                return Err(b.untranslated(format!("dim={dim}")));
            }
            let sizes = b
                .ints("unflattened_size")?
                .ok_or_else(|| b.bad("unflattened_size", "is required"))?;
            let mut shape = vec![-1];
            shape.extend(sizes);
            Op::Reshape { shape, batch: true }
        }
        ("dropout" | "alphadropout" | "featurealphadropout", r) => Op::Dropout {
            rate: b.float("p")?.unwrap_or(0.5),
            spatial: r.is_some(),
        },
        ("linear", None) => Op::Dense {
            in_features: declared("in_features")?,
            units: b.required_int("out_features")?,
            bias: b.boolean("bias")?.unwrap_or(true),
            activation: None,
        },
        ("embedding", None) => {
            b.refuse_unless("norm_type", |v| {
                matches!(v, Value::Int(2)) || matches!(v, Value::Float(x) if *x == 2.0)
            })?;
            Op::Embedding {
                vocab: b.required_int("num_embeddings")?,
                dim: b.required_int("embedding_dim")?,
                max_norm: b.float("max_norm")?,
            }
        }
        ("upsample" | "upsamplingnearest" | "upsamplingbilinear", _)
            if family.starts_with("upsampl") =>
        {
            let (mode, align) = match (class, b.string("mode")?.as_deref()) {
                ("UpsamplingNearest2d", _) => (Interpolation::Nearest, false),
                ("UpsamplingBilinear2d", _) => (Interpolation::Linear, true),
                (_, None | Some("nearest")) => (Interpolation::Nearest, false),
                (_, Some("bilinear" | "linear" | "trilinear")) => (
                    Interpolation::Linear,
                    b.boolean("align_corners")?.unwrap_or(false),
                ),
                (_, Some("bicubic")) => (
                    Interpolation::Bicubic,
                    b.boolean("align_corners")?.unwrap_or(false),
                ),
                (_, Some(other)) => return Err(b.untranslated(format!("mode='{other}'"))),
            };
            let scale = match b.get("scale_factor") {
                None => None,
                Some(Value::Tuple(t)) => Some(
                    t.iter()
                        .map(|v| as_float(v, line))
                        .collect::<Ev<Vec<f64>>>()?,
                ),
                Some(v) => Some(vec![as_float(v, line)?]),
            };
            let size = b.ints("size")?;
            upsample(scale, size, mode, align, line)?
        }
        (
            "zeropad" | "constantpad" | "reflectionpad" | "replicationpad" | "circularpad",
            Some(n),
        ) => {
            let fill = match family {
                "zeropad" => PadFill::Constant(0.0),
                "constantpad" => PadFill::Constant(
                    b.float("value")?
                        .ok_or_else(|| b.bad("value", "is required"))?,
                ),
                "reflectionpad" => PadFill::Reflect,
                "replicationpad" => PadFill::Replicate,
                _ => PadFill::Circular,
            };
            let flat = b
                .ints("padding")?
                .ok_or_else(|| b.bad("padding", "is required"))?;
            let flat = if flat.len() == 1 {
                vec![flat[0]; 2 * n]
            } else {
                flat
            };
            if flat.len() != 2 * n {
                return Err(b.bad(
                    "padding",
                    format!("expected {} values, got {}", 2 * n, flat.len()),
                ));
            }
            // torch lists the last axis first: (left, right, top, bottom, front, back).
            let spatial: Vec<(i64, i64)> = flat.chunks(2).rev().map(|p| (p[0], p[1])).collect();
            let mut pairs = vec![(0, 0), (0, 0)];
            pairs.extend(spatial);
            Op::Pad { pairs, fill }
        }
        ("pixelshuffle", None) => Op::PixelShuffle(b.required_int("upscale_factor")?),
        ("lstm" | "gru" | "rnn", None) => torch_recurrent(&b, family)?,
        ("multiheadattention", None) => torch_attention(&b)?,
        _ => return Err(untranslated()),
    };
    Ok((op, b))
}

/// `nn.LSTM`, `nn.GRU`, `nn.RNN` from their bound arguments (dropout acts between layers in
/// training only).
fn torch_recurrent(b: &Bound, family: &str) -> Ev<Op> {
    use crate::model::op::{CellKind, Recurrent, RecurrentForm};
    if b.int("proj_size")?.unwrap_or(0) != 0 {
        return Err(b.untranslated("proj_size (an LSTM with projections)"));
    }
    let (cell, activation) = match family {
        "lstm" => (CellKind::Lstm, Activation::Tanh),
        "gru" => (CellKind::Gru { reset_after: true }, Activation::Tanh),
        _ => (
            CellKind::Simple,
            match b.string("nonlinearity")?.as_deref() {
                None | Some("tanh") => Activation::Tanh,
                Some("relu") => Activation::Relu,
                Some(other) => {
                    return Err(raise(
                        b.line,
                        "ValueError",
                        format!("Unknown nonlinearity '{other}'. Select from 'tanh' or 'relu'."),
                    ));
                }
            },
        ),
    };
    let hidden = b.required_int("hidden_size")?;
    let layers = b.int("num_layers")?.unwrap_or(1);
    if hidden < 1 {
        return Err(raise(
            b.line,
            "ValueError",
            "hidden_size must be greater than 0",
        ));
    }
    if layers < 1 {
        return Err(raise(
            b.line,
            "ValueError",
            "num_layers must be greater than or equal to 1",
        ));
    }
    if layers > crate::model::op::MAX_RECURRENT_LAYERS {
        return Err(b.untranslated(format!(
            "num_layers={layers} (padlab reads up to {} stacked layers)",
            crate::model::op::MAX_RECURRENT_LAYERS
        )));
    }
    Ok(Op::Recurrent(Recurrent {
        cell,
        hidden,
        input_size: Some(b.required_int("input_size")?),
        layers,
        bidirectional: b.boolean("bidirectional")?.unwrap_or(false),
        activation,
        recurrent_activation: Activation::Sigmoid,
        bias: b.boolean("bias")?.unwrap_or(true),
        form: RecurrentForm::Torch {
            batch_first: b.boolean("batch_first")?.unwrap_or(false),
        },
    }))
}

/// `nn.MultiheadAttention` from its bound arguments (its dropout acts in training only).
fn torch_attention(b: &Bound) -> Ev<Op> {
    let e = b.required_int("embed_dim")?;
    let heads = b.required_int("num_heads")?;
    b.refuse_unless("add_bias_kv", |v| matches!(v, Value::Bool(false)))?;
    b.refuse_unless("add_zero_attn", |v| matches!(v, Value::Bool(false)))?;
    if heads < 1 || e % heads != 0 {
        return Err(raise(
            b.line,
            "AssertionError",
            "embed_dim must be divisible by num_heads",
        ));
    }
    let kdim = b.int("kdim")?.unwrap_or(e);
    let vdim = b.int("vdim")?.unwrap_or(e);
    Ok(Op::Attention(crate::model::op::Attention {
        heads,
        key_dim: e / heads,
        value_dim: e / heads,
        output_dim: Some(e),
        declared: Some((e, kdim, vdim)),
        bias: b.boolean("bias")?.unwrap_or(true),
        batch_first: b.boolean("batch_first")?.unwrap_or(false),
        weights: Some(true),
    }))
}

/// torch's upsampling to `size` or by `scale` (one of them is required).
pub fn upsample(
    scale: Option<Vec<f64>>,
    size: Option<Vec<i64>>,
    mode: Interpolation,
    align_corners: bool,
    line: usize,
) -> Ev<Op> {
    if scale.is_none() && size.is_none() {
        return Err(raise(
            line,
            "ValueError",
            "either size or scale_factor should be defined",
        ));
    }
    Ok(Op::Upsample {
        scale,
        size,
        mode,
        align_corners,
    })
}

/// The core op of a convolution layer: transposed or not.
pub fn conv_op(transposed: bool) -> LayerOp {
    if transposed {
        LayerOp::ConvTranspose
    } else {
        LayerOp::Conv
    }
}

/// The core op of a pooling layer: max or average.
pub fn pool_op(max: bool) -> LayerOp {
    if max {
        LayerOp::MaxPool
    } else {
        LayerOp::AvgPool
    }
}

/// torch `padding=`: an int, a tuple per axis, `'same'` or `'valid'`.
fn torch_padding(b: &Bound, n: usize) -> Ev<Option<Padding>> {
    match b.get("padding") {
        None => Ok(None),
        Some(Value::Str(s)) => match s.as_ref() {
            "same" => Ok(Some(Padding::Same)),
            "valid" => Ok(Some(Padding::Valid)),
            other => Err(raise(
                b.line,
                "ValueError",
                format!("Invalid padding string '{other}', should be one of {{'valid', 'same'}}"),
            )),
        },
        Some(_) => Ok(b.dims("padding", n)?.map(Padding::from_dims)),
    }
}

/// Checks that a container's children are modules (torch refuses anything else).
fn check_modules(children: &[(Rc<str>, Value)], container: &str, line: usize) -> Ev<()> {
    for (_, v) in children {
        match v {
            Value::Layer(_) | Value::Instance(_) => {}
            Value::Poison(f) => return Err((**f).clone()),
            other => {
                return Err(raise(
                    line,
                    "TypeError",
                    format!(
                        "{} is not a Module subclass ({container} takes modules)",
                        other.type_name()
                    ),
                ));
            }
        }
    }
    Ok(())
}

// ---- Calling layers ----

/// The tensors among call arguments (a Keras merge layer takes a list).
pub fn tensors_of(v: &Value, line: usize) -> Ev<Vec<Rc<Tensor>>> {
    match v {
        Value::Tensor(t) => Ok(vec![t.clone()]),
        Value::List(l) => l.borrow().iter().map(|v| tensor_of(v, line)).collect(),
        Value::Tuple(t) => t.iter().map(|v| tensor_of(v, line)).collect(),
        other => Err(bad_input(other, line)),
    }
}

pub fn tensor_of(v: &Value, line: usize) -> Ev<Rc<Tensor>> {
    match v {
        Value::Tensor(t) => Ok(t.clone()),
        other => Err(bad_input(other, line)),
    }
}

fn bad_input(v: &Value, line: usize) -> super::eval::Failure {
    match v {
        Value::Poison(f) => (**f).clone(),
        Value::Hole(h) => super::eval::undefined(h, line),
        other => raise(
            line,
            "TypeError",
            format!("a layer was called on {}, not a tensor", other.type_name()),
        ),
    }
}

/// Calls a layer value on its inputs.
pub fn call_layer(
    it: &mut Interp,
    l: &Rc<Layer>,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let input = pos.first().cloned().or_else(|| {
        kw.iter()
            .find(|(k, _)| matches!(k.as_ref(), "input" | "inputs" | "x"))
            .map(|(_, v)| v.clone())
    });
    let Some(input) = input else {
        return Err(raise(
            line,
            "TypeError",
            format!("{} called without an input", l.class),
        ));
    };
    match &l.kind {
        LayerKind::Op(op @ Op::Attention(_)) => {
            super::sequence::call_attention(it, l, op, input, Args { pos, kw }, site)
        }
        LayerKind::Op(op @ Op::Recurrent(_)) => {
            super::sequence::call_recurrent(it, l, op, input, Args { pos, kw }, site)
        }
        LayerKind::Op(op) => {
            let x = tensor_of(&input, line)?;
            let op = match op {
                Op::Learned {
                    op: LearnedOp::PRelu,
                    ..
                } => prelu_at(l, &x, line)?,
                &Op::Softmax {
                    axis: IMPLICIT_DIM,
                    log,
                } => implicit_softmax(it, &l.class, log, &x, site)?,
                other => other.clone(),
            };
            let out = it.record(op, &l.class, &[x], l.framework, site, Some(l), None)?;
            Ok(outputs_value(out))
        }
        LayerKind::Merge(op) => {
            let xs = tensors_of(&input, line)?;
            if xs.len() < 2 && !matches!(op, Op::Concat { .. }) {
                return Err(raise(
                    line,
                    "ValueError",
                    format!(
                        "A merge layer should be called on a list of at least 2 inputs. Got {} inputs.",
                        xs.len()
                    ),
                ));
            }
            let out = it.record(op.clone(), &l.class, &xs, l.framework, site, Some(l), None)?;
            Ok(outputs_value(out))
        }
        LayerKind::Sequential(children) => {
            // A Keras Sequential may start with its `Input` (a tensor) or an `InputLayer`.
            let children: Vec<Value> = children
                .borrow()
                .iter()
                .map(|(_, v)| v.clone())
                .filter(|v| {
                    !matches!(v, Value::Tensor(_))
                        && !matches!(v, Value::Layer(l) if matches!(l.kind, LayerKind::Identity))
                })
                .collect();
            it.call_stack.push(Value::Layer(l.clone()));
            it.containers.insert(l.id, l.clone());
            let mut x = input;
            let mut result = Ok(());
            for c in children {
                match it.call(c, vec![x.clone()], vec![], site) {
                    Ok(v) => x = v,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            it.call_stack.pop();
            result.map(|()| x)
        }
        LayerKind::Functional { .. } => super::keras::call_functional(it, l, input, site),
        LayerKind::Lambda(f) => {
            it.call_stack.push(Value::Layer(l.clone()));
            it.containers.insert(l.id, l.clone());
            let r = it.call(f.clone(), vec![input], vec![], site);
            it.call_stack.pop();
            r
        }
        LayerKind::List(_) | LayerKind::Dict(_) => Err(raise(
            line,
            "NotImplementedError",
            format!(
                "Module [{}] is missing the required \"forward\" function",
                l.class
            ),
        )),
        LayerKind::Identity => Ok(input),
    }
}

/// A PReLU's slopes as they broadcast over the input `x`: torch's one per channel (axis 1) or
/// one for all, Keras's one per element of a sample but along `shared_axes`.
/// A torch softmax made without `dim` (`nn.Softmax()`): its axis is chosen by its input's rank
/// when it is called, never kept in an op.
pub const IMPLICIT_DIM: i64 = i64::MIN;

/// The softmax torch runs when `dim` is not given: the axis `_get_softmax_dim` picks from the
/// input's rank (batch included: 0 for rank 0, 1 or 3, else 1; torch warns it is deprecated),
/// with a note saying so, as the port writes it explicitly.
pub fn implicit_softmax(it: &mut Interp, what: &str, log: bool, x: &Tensor, site: &Site) -> Ev<Op> {
    let rank = x.shape.as_ref().map(|s| s.len()).ok_or_else(|| {
        unsupported(
            site.line,
            format!("{what}() without dim on a tensor of unknown rank: torch picks the axis from the rank; give dim"),
        )
    })?;
    let axis = if matches!(rank, 0 | 1 | 3) { 0 } else { 1 };
    it.assumed.push(format!(
        "line {}: {what}() without dim: torch takes dim={axis} for an input of rank {rank} (its deprecated implicit choice); the port says dim={axis}",
        site.line
    ));
    Ok(Op::Softmax { axis, log })
}

fn prelu_at(l: &Layer, x: &Tensor, line: usize) -> Ev<Op> {
    let arg = |name: &str| {
        l.args
            .iter()
            .find(|(k, _)| k.as_ref() == name)
            .map(|(_, v)| v.clone())
            .filter(|v| !matches!(v, Value::None))
    };
    let Some(s) = &x.shape else {
        return Err(unsupported(
            line,
            "a PReLU on an input of unknown shape: give the input shape",
        ));
    };
    let shape = if l.framework == Framework::Torch {
        let n = match arg("num_parameters") {
            Some(v) => as_int(&v, line)?,
            None => 1,
        };
        let channels = s.get(1).copied().unwrap_or(1);
        if n != 1 && (s.len() < 2 || n != channels) {
            return Err(raise(
                line,
                "RuntimeError",
                format!(
                    "Mismatch of parameter numbers and input channel size. Found parameter numbers = {n} and channel size = {channels}."
                ),
            ));
        }
        if n == 1 {
            vec![1]
        } else {
            std::iter::once(n)
                .chain(std::iter::repeat_n(1, s.len() - 2))
                .collect()
        }
    } else {
        let mut shape = s[1..].to_vec();
        if let Some(v) = arg("shared_axes") {
            let axes = match v {
                Value::List(l) => l.borrow().to_vec(),
                Value::Tuple(t) => t.to_vec(),
                one => vec![one],
            };
            for a in axes {
                let a = as_int(&a, line)?;
                let i = usize::try_from(a - 1)
                    .ok()
                    .filter(|&i| i < shape.len())
                    .ok_or_else(|| {
                        raise(line, "ValueError", format!("shared_axes {a} out of range"))
                    })?;
                shape[i] = 1;
            }
        }
        shape
    };
    Ok(Op::Learned {
        op: LearnedOp::PRelu,
        shape,
        weight: WeightAt::Layer(
            if l.framework == Framework::Torch {
                "weight"
            } else {
                "alpha"
            }
            .into(),
        ),
    })
}

/// A node's outputs as the value code gets: one tensor, or a tuple of them.
pub fn outputs_value(out: Vec<Rc<Tensor>>) -> Value {
    if out.len() == 1 {
        Value::Tensor(
            out.into_iter()
                .next()
                .unwrap_or_else(|| unreachable!("one output")),
        )
    } else {
        Value::tuple(out.into_iter().map(Value::Tensor).collect())
    }
}

// ---- Containers and attributes ----

/// `container[i] = v`.
pub fn set_child(l: &Rc<Layer>, i: Value, v: Value, line: usize) -> Ev<()> {
    match &l.kind {
        LayerKind::Sequential(c) | LayerKind::Dict(c) => {
            let k: Rc<str> = Rc::from(i.to_string().as_str());
            let mut c = c.borrow_mut();
            match c.iter_mut().find(|(n, _)| *n == k) {
                Some(slot) => slot.1 = v,
                None => c.push((k, v)),
            }
            Ok(())
        }
        LayerKind::List(c) => {
            let mut c = c.borrow_mut();
            let at = child_index(&i, c.len(), line)?;
            c[at] = v;
            Ok(())
        }
        _ => Err(raise(
            line,
            "TypeError",
            format!("'{}' object does not support item assignment", l.class),
        )),
    }
}

/// `i` as the index of one of a container's `len` children (negative from the end).
fn child_index(i: &Value, len: usize, line: usize) -> Ev<usize> {
    let k = as_int(i, line)?;
    super::builtins::wrap_index(k, len)
        .ok_or_else(|| raise(line, "IndexError", format!("index {k} is out of range")))
}

/// `container[i]`.
pub fn layer_item(it: &mut Interp, l: &Rc<Layer>, i: &Value, line: usize) -> Ev<Value> {
    let _ = it;
    match &l.kind {
        LayerKind::Sequential(c) | LayerKind::Dict(c) => {
            if let Value::Str(k) = i {
                return c
                    .borrow()
                    .iter()
                    .find(|(n, _)| n.as_ref() == k.as_ref())
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| raise(line, "KeyError", i.repr()));
            }
            let items: Vec<(Rc<str>, Value)> = c.borrow().clone();
            match i {
                Value::Slice(s) => {
                    let picked = super::builtins::slice_items(&items, s, line)?;
                    let id = l.id.wrapping_add(1_000_000_007);
                    Ok(Value::Layer(Rc::new(Layer {
                        id,
                        framework: l.framework,
                        class: l.class.clone(),
                        kind: LayerKind::Sequential(RefCell::new(picked)),
                        text: l.text.clone(),
                        line: l.line,
                        name: None,
                        first_node: Cell::new(None),
                        weight_norm: Cell::new(None),
                        args: vec![],
                        attrs: Default::default(),
                        first_input: Default::default(),
                    })))
                }
                _ => Ok(items[child_index(i, items.len(), line)?].1.clone()),
            }
        }
        LayerKind::List(c) => {
            let items = c.borrow().clone();
            match i {
                Value::Slice(s) => Ok(Value::list(super::builtins::slice_items(&items, s, line)?)),
                _ => Ok(items[child_index(i, items.len(), line)?].clone()),
            }
        }
        _ => Err(raise(
            line,
            "TypeError",
            format!("'{}' object is not subscriptable", l.class),
        )),
    }
}

/// Iterating a container: its children (a `ModuleDict`: its keys).
pub fn layer_items(l: &Rc<Layer>, line: usize) -> Ev<Vec<Value>> {
    match &l.kind {
        LayerKind::Sequential(c) => Ok(c.borrow().iter().map(|(_, v)| v.clone()).collect()),
        LayerKind::Dict(c) => Ok(c
            .borrow()
            .iter()
            .map(|(k, _)| Value::Str(k.clone()))
            .collect()),
        LayerKind::List(c) => Ok(c.borrow().clone()),
        _ => Err(raise(
            line,
            "TypeError",
            format!("'{}' object is not iterable", l.class),
        )),
    }
}

/// The shape of a layer's weight or bias, torch layout.
pub fn param_shape(l: &Layer, name: &str) -> Option<Vec<i64>> {
    let LayerKind::Op(op) = &l.kind else {
        return None;
    };
    match (op, name) {
        (Op::Conv(c), "weight" | "kernel") => {
            let k = match &c.spec.kernel {
                Dims::Each(v) => v.clone(),
                Dims::All(k) => vec![*k; 2],
            };
            let g = match c.groups {
                Groups::Count(g) => g,
                Groups::Depthwise { .. } => 1,
            };
            let cin = c.in_channels?;
            let mut s = if c.spec.op == LayerOp::ConvTranspose {
                vec![cin, c.filters / g.max(1)]
            } else {
                vec![c.filters, cin / g.max(1)]
            };
            s.extend(k);
            Some(s)
        }
        (Op::Conv(c), "bias") if c.bias => Some(vec![c.filters]),
        (
            Op::Dense {
                in_features, units, ..
            },
            "weight",
        ) => Some(vec![*units, (*in_features)?]),
        (
            Op::Dense {
                units, bias: true, ..
            },
            "bias",
        ) => Some(vec![*units]),
        (
            Op::Norm(Norm::Batch { features, .. }),
            "weight" | "bias" | "running_mean" | "running_var",
        ) => Some(vec![(*features)?]),
        (Op::Embedding { vocab, dim, .. }, "weight") => Some(vec![*vocab, *dim]),
        _ => None,
    }
}

/// An attribute of a layer value.
pub fn layer_attr(it: &mut Interp, l: &Rc<Layer>, name: &str, line: usize) -> Ev<Value> {
    if let Some((_, v)) = l.attrs.borrow().iter().find(|(k, _)| k.as_ref() == name) {
        return Ok(v.clone());
    }
    let arg = |n: &str| {
        l.args
            .iter()
            .find(|(k, _)| k.as_ref() == n)
            .map(|(_, v)| v.clone())
    };
    let tuple_of = |v: Option<Value>, default: i64, rank: usize| -> Value {
        match v {
            Some(Value::Int(k)) => Value::tuple(vec![Value::Int(k); rank]),
            Some(v @ (Value::Tuple(_) | Value::Str(_))) => v,
            Some(Value::List(l)) => Value::tuple(l.borrow().to_vec()),
            _ => Value::tuple(vec![Value::Int(default); rank]),
        }
    };
    let rank = split_rank(&l.class).1.unwrap_or(2);
    let op = match &l.kind {
        LayerKind::Op(op) => Some(op),
        _ => None,
    };
    Ok(match name {
        "__class__" => Value::Api(Rc::from(api_path(l).as_str())),
        "training" => Value::Bool(false),
        "name" => Value::str(l.name.as_deref().unwrap_or("")),
        "weight" | "kernel" | "running_mean" | "running_var" | "gamma" | "beta" | "moving_mean"
        | "moving_variance" => Value::Param(l.clone(), Rc::from(name)),
        "bias" => match op {
            Some(Op::Conv(c)) if !c.bias => Value::None,
            Some(Op::Dense { bias: false, .. }) => Value::None,
            Some(Op::Norm(Norm::Batch { center: false, .. })) => Value::None,
            _ => Value::Param(l.clone(), Rc::from(name)),
        },
        "in_channels" | "out_channels" | "in_features" | "out_features" | "num_features"
        | "filters" | "units" | "groups" | "num_embeddings" | "embedding_dim" | "eps"
        | "momentum" | "p" | "upscale_factor" | "num_channels" | "num_groups" => match (name, op) {
            ("filters", Some(Op::Conv(c))) | ("out_channels", Some(Op::Conv(c))) => {
                Value::Int(c.filters)
            }
            ("in_channels", Some(Op::Conv(c))) => c.in_channels.map_or(Value::None, Value::Int),
            ("groups", Some(Op::Conv(c))) => match c.groups {
                Groups::Count(g) => Value::Int(g),
                Groups::Depthwise { .. } => Value::None,
            },
            ("units" | "out_features", Some(Op::Dense { units, .. })) => Value::Int(*units),
            ("in_features", Some(Op::Dense { in_features, .. })) => {
                in_features.map_or(Value::None, Value::Int)
            }
            ("num_features", Some(Op::Norm(Norm::Batch { features, .. }))) => {
                features.map_or(Value::None, Value::Int)
            }
            ("eps", Some(Op::Norm(Norm::Batch { eps, .. }))) => Value::Float(*eps),
            ("momentum", Some(Op::Norm(Norm::Batch { momentum, .. }))) => Value::Float(*momentum),
            _ => arg(name).ok_or_else(|| no_attribute(line, &l.class, name))?,
        },
        "kernel_size" | "pool_size" => tuple_of(
            arg(name)
                .or_else(|| arg("kernel_size"))
                .or_else(|| arg("pool_size")),
            1,
            rank,
        ),
        "stride" | "strides" => tuple_of(
            arg(name)
                .or_else(|| arg("stride"))
                .or_else(|| arg("strides")),
            1,
            rank,
        ),
        "padding" => match arg("padding") {
            Some(v @ Value::Str(_)) => v,
            v if l.framework == Framework::Keras => v.unwrap_or(Value::str("valid")),
            v => tuple_of(v, 0, rank),
        },
        "dilation" | "dilation_rate" => tuple_of(
            arg(name)
                .or_else(|| arg("dilation"))
                .or_else(|| arg("dilation_rate")),
            1,
            rank,
        ),
        "output_padding" => tuple_of(arg(name), 0, rank),
        "padding_mode" => arg(name).unwrap_or(Value::str("zeros")),
        "layers" if matches!(l.kind, LayerKind::Functional { .. }) => {
            Value::list(super::keras::functional_layers(it, l))
        }
        "layers" => Value::list(layer_items(l, line).unwrap_or_default()),
        "output_shape" | "input_shape" | "output" | "input" | "outputs" | "inputs" => {
            super::keras::model_attr(it, l, name, line)?
        }
        _ => Value::Method(Rc::new(Value::Layer(l.clone())), Rc::from(name)),
    })
}

/// A method of a layer value (`Sequential.add`, `modules()`, `to(device)`).
pub fn layer_method(
    it: &mut Interp,
    l: &Rc<Layer>,
    name: &str,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    let me = Value::Layer(l.clone());
    let line = site.line;
    match name {
        "to" | "cuda" | "cpu" | "eval" | "train" | "float" | "double" | "half"
        | "requires_grad_" => Ok(me),
        "forward" | "call" | "__call__" => call_layer(it, l, Args { pos, kw }, site),
        "append" | "add" | "add_module" | "insert" | "extend" => {
            match (&l.kind, name) {
                (LayerKind::Sequential(c), "add_module") | (LayerKind::Dict(c), "add_module") => {
                    let k = pos.first().map(Value::to_string).unwrap_or_default();
                    let v = pos.get(1).cloned().unwrap_or(Value::None);
                    c.borrow_mut().push((Rc::from(k.as_str()), v));
                }
                (LayerKind::Sequential(c), "append" | "add") => {
                    let v = pos.first().cloned().unwrap_or(Value::None);
                    if let Value::Poison(f) = &v {
                        return Err((**f).clone());
                    }
                    let k = c.borrow().len().to_string();
                    c.borrow_mut().push((Rc::from(k.as_str()), v));
                }
                (LayerKind::Sequential(c), "extend") => {
                    for v in it.iterate(pos.first().unwrap_or(&Value::None), line)? {
                        let k = c.borrow().len().to_string();
                        c.borrow_mut().push((Rc::from(k.as_str()), v));
                    }
                }
                (LayerKind::List(c), "append") => c
                    .borrow_mut()
                    .push(pos.first().cloned().unwrap_or(Value::None)),
                (LayerKind::List(c), "extend") => {
                    let items = it.iterate(pos.first().unwrap_or(&Value::None), line)?;
                    c.borrow_mut().extend(items);
                }
                (LayerKind::List(c), "insert") => {
                    let at = as_int(pos.first().unwrap_or(&Value::Int(0)), line)?;
                    let mut c = c.borrow_mut();
                    let at = super::builtins::insert_index(at, c.len());
                    c.insert(at, pos.get(1).cloned().unwrap_or(Value::None));
                }
                _ => {
                    return Err(no_attribute(line, &l.class, name));
                }
            }
            Ok(if name == "add" { Value::None } else { me })
        }
        "pop" => match &l.kind {
            LayerKind::Sequential(c) => {
                Ok(c.borrow_mut().pop().map(|(_, v)| v).unwrap_or(Value::None))
            }
            LayerKind::List(c) => Ok(c.borrow_mut().pop().unwrap_or(Value::None)),
            _ => Err(no_attribute(line, &l.class, "pop")),
        },
        "items" | "keys" | "values" => match &l.kind {
            LayerKind::Dict(c) | LayerKind::Sequential(c) => Ok(Value::list(
                c.borrow()
                    .iter()
                    .map(|(k, v)| match name {
                        "items" => Value::tuple(vec![Value::Str(k.clone()), v.clone()]),
                        "keys" => Value::Str(k.clone()),
                        _ => v.clone(),
                    })
                    .collect(),
            )),
            _ => Err(no_attribute(line, &l.class, name)),
        },
        "modules" | "children" | "named_modules" | "named_children" => Ok(Value::list(submodules(
            &me,
            name.starts_with("named"),
            name.ends_with("modules"),
        ))),
        "apply" => {
            let f = pos.first().cloned().unwrap_or(Value::None);
            let mut all = submodules(&me, false, true);
            if !all.is_empty() {
                all.rotate_left(1);
            }
            for m in all {
                it.call(f.clone(), vec![m], vec![], site)?;
            }
            Ok(me)
        }
        "get_layer" => super::keras::get_layer(it, l, Args { pos, kw }, site),
        // Statistics from data (a Normalization read with its shape only): nothing to record.
        "adapt" if l.class.as_ref() == "Normalization" => {
            it.effect = true;
            Ok(Value::None)
        }
        "parameters" | "named_parameters" if l.framework == Framework::Torch => {
            Ok(parameters(&me, name == "named_parameters"))
        }
        "summary" | "compile" | "fit" | "evaluate" | "predict" | "save" | "save_weights"
        | "load_weights" | "parameters" | "named_parameters" | "state_dict" | "load_state_dict"
        | "zero_grad" | "count_params" | "build" | "get_config" | "get_weights" | "set_weights"
        | "reset_parameters" | "extra_repr" => {
            if !only_reads(name) {
                it.effect = true;
            }
            if name == "build" {
                super::keras::build(it, l.id, pos.first().cloned(), site)?;
                return Ok(Value::None);
            }
            Ok(Value::opaque(format!("the result of {}.{name}()", l.class)))
        }
        _ => Err(no_attribute(line, &l.class, name)),
    }
}

/// Whether a model method only reads the model (`summary()`, `parameters()`): calling it is no
/// side effect, unlike `fit()` or `save()`.
pub fn only_reads(name: &str) -> bool {
    matches!(
        name,
        "summary"
            | "build"
            | "count_params"
            | "parameters"
            | "named_parameters"
            | "get_config"
            | "reset_parameters"
            | "extra_repr"
    )
}

/// A module's children (in registration order) as torch lists them: `modules()` includes the
/// module itself and recurses, `children()` does not; `named_*` pairs each with its name.
pub fn submodules(v: &Value, named: bool, recursive: bool) -> Vec<Value> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    fn walk(
        v: &Value,
        prefix: &str,
        recursive: bool,
        named: bool,
        out: &mut Vec<Value>,
        seen: &mut std::collections::HashSet<usize>,
        depth: usize,
    ) {
        if depth > 64 {
            return;
        }
        for (name, child) in module_children(v) {
            if !seen.insert(child.address()) {
                continue;
            }
            let path = if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}.{name}")
            };
            out.push(if named {
                Value::tuple(vec![Value::str(&path), child.clone()])
            } else {
                child.clone()
            });
            if recursive {
                walk(&child, &path, recursive, named, out, seen, depth + 1);
            }
        }
    }
    if recursive {
        seen.insert(v.address());
        out.push(if named {
            Value::tuple(vec![Value::str(""), v.clone()])
        } else {
            v.clone()
        });
    }
    walk(v, "", recursive, named, &mut out, &mut seen, 0);
    out
}

/// A torch module's parameters as `parameters()` lists them (each module's own, then its
/// children's, a shared one once): `Param`s of its layers and its own `nn.Parameter`s, paired
/// with their dotted names for `named_parameters()`. What code does with them
/// (`p.requires_grad = False`, `p.numel()`) needs no values.
pub fn parameters(v: &Value, named: bool) -> Value {
    fn own(l: &Rc<Layer>) -> Vec<&'static str> {
        let LayerKind::Op(op) = &l.kind else {
            return Vec::new();
        };
        let (weight, bias) = match op {
            Op::Conv(c) => (true, c.bias),
            Op::Dense { bias, .. } => (true, *bias),
            Op::Norm(Norm::Batch { center, scale, .. }) => (*scale, *center),
            Op::Norm(Norm::Layer { center, scale, .. }) => (*scale, *center),
            Op::Norm(Norm::Group { affine, .. }) | Op::Norm(Norm::Instance { affine, .. }) => {
                (*affine, *affine)
            }
            Op::Embedding { .. } => (true, false),
            Op::Learned {
                weight: WeightAt::Layer(_),
                ..
            } => (true, false),
            _ => (false, false),
        };
        let mut out = Vec::new();
        if weight {
            out.push("weight");
        }
        if bias {
            out.push("bias");
        }
        out
    }
    fn walk(
        v: &Value,
        prefix: &str,
        named: bool,
        out: &mut Vec<Value>,
        seen: &mut std::collections::HashSet<usize>,
        depth: usize,
    ) {
        if depth > 64 || !seen.insert(v.address()) {
            return;
        }
        let name = |n: &str| {
            if prefix.is_empty() {
                n.to_string()
            } else {
                format!("{prefix}.{n}")
            }
        };
        let push = |n: String, p: Value, out: &mut Vec<Value>| {
            out.push(if named {
                Value::tuple(vec![Value::str(&n), p])
            } else {
                p
            });
        };
        let layer = match v {
            Value::Layer(l) => Some(l.clone()),
            Value::Instance(i) => i.base_layer.borrow().clone(),
            _ => None,
        };
        if let Some(l) = layer {
            for p in own(&l) {
                push(name(p), Value::Param(l.clone(), Rc::from(p)), out);
            }
        }
        if let Value::Instance(i) = v {
            for (k, w) in &i.attrs.borrow().entries {
                if matches!(w, Value::Weight(_)) {
                    push(name(&k.to_string()), w.clone(), out);
                }
            }
        }
        for (child, c) in module_children(v) {
            walk(&c, &name(&child), named, out, seen, depth + 1);
        }
    }
    let mut out = Vec::new();
    walk(
        v,
        "",
        named,
        &mut out,
        &mut std::collections::HashSet::new(),
        0,
    );
    Value::list(out)
}

/// A module's registered children, in order (torch registers modules assigned as attributes,
/// a container's items; a plain Python list of modules is not registered).
pub fn module_children(v: &Value) -> Vec<(Rc<str>, Value)> {
    let is_module = |v: &Value| {
        matches!(v, Value::Layer(_))
            || matches!(v, Value::Instance(i) if i.class.framework.is_some())
    };
    match v {
        Value::Layer(l) => match &l.kind {
            LayerKind::Sequential(c) | LayerKind::Dict(c) => c
                .borrow()
                .iter()
                .filter(|(_, v)| is_module(v))
                .cloned()
                .collect(),
            LayerKind::List(c) => c
                .borrow()
                .iter()
                .enumerate()
                .filter(|(_, v)| is_module(v))
                .map(|(k, v)| (Rc::from(k.to_string().as_str()), v.clone()))
                .collect(),
            _ => Vec::new(),
        },
        Value::Instance(i) => {
            let mut out: Vec<(Rc<str>, Value)> = i
                .children
                .borrow()
                .iter()
                .filter(|(_, v)| is_module(v))
                .cloned()
                .collect();
            for (k, v) in &i.attrs.borrow().entries {
                if is_module(v) {
                    out.push((Rc::from(k.to_string().as_str()), v.clone()));
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// `copy.deepcopy` of a layer (a new layer with the same arguments and its own weights).
/// Nested values are Python's recursion.
pub fn copy_value(it: &mut Interp, v: &Value, line: usize) -> Ev<Value> {
    it.enter(line)?;
    let copied = copy_of(it, v, line);
    it.leave();
    copied
}

fn copy_of(it: &mut Interp, v: &Value, line: usize) -> Ev<Value> {
    Ok(match v {
        Value::Layer(l) => {
            let kind = match &l.kind {
                LayerKind::Op(op) => LayerKind::Op(op.clone()),
                LayerKind::Merge(op) => LayerKind::Merge(op.clone()),
                LayerKind::Identity => LayerKind::Identity,
                LayerKind::Sequential(c) => {
                    let mut copied = Vec::new();
                    for (k, v) in c.borrow().iter() {
                        copied.push((k.clone(), copy_value(it, v, line)?));
                    }
                    LayerKind::Sequential(RefCell::new(copied))
                }
                LayerKind::List(c) => {
                    let mut copied = Vec::new();
                    for v in c.borrow().iter() {
                        copied.push(copy_value(it, v, line)?);
                    }
                    LayerKind::List(RefCell::new(copied))
                }
                _ => return Err(unsupported(line, format!("copying a {}", l.class))),
            };
            let id = it.id();
            Value::Layer(Rc::new(Layer {
                id,
                framework: l.framework,
                class: l.class.clone(),
                kind,
                text: l.text.clone(),
                line: l.line,
                name: l.name.clone(),
                first_node: Cell::new(None),
                weight_norm: Cell::new(l.weight_norm.get()),
                args: l.args.clone(),
                attrs: RefCell::new(l.attrs.borrow().clone()),
                first_input: Default::default(),
            }))
        }
        Value::Instance(i) => {
            let id = it.id();
            let mut attrs = super::value::Dict::default();
            for (k, v) in i.attrs.borrow().entries.clone() {
                let copied = copy_value(it, &v, line)?;
                if let Some(key) = k.key() {
                    attrs.insert(key, k, copied);
                }
            }
            let mut children = Vec::new();
            for (k, v) in i.children.borrow().iter() {
                children.push((k.clone(), copy_value(it, v, line)?));
            }
            Value::Instance(Rc::new(Instance {
                id,
                class: i.class.clone(),
                attrs: RefCell::new(attrs),
                children: RefCell::new(children),
                line: Cell::new(i.line.get()),
                text: RefCell::new(i.text.borrow().clone()),
                name: RefCell::new(i.name.borrow().clone()),
                base_layer: RefCell::new(i.base_layer.borrow().clone()),
            }))
        }
        Value::List(l) => {
            let mut out = Vec::new();
            for v in l.borrow().iter() {
                out.push(copy_value(it, v, line)?);
            }
            Value::list(out)
        }
        other => other.clone(),
    })
}

/// A Keras activation by name (`activation='relu'`, `Activation('relu')`); `None` for
/// `'linear'`.
pub fn keras_activation(name: &str) -> Option<Option<Activation>> {
    Some(Some(match name {
        "linear" => return Some(None),
        "relu" => Activation::Relu,
        "relu6" => Activation::Relu6,
        "leaky_relu" => Activation::LeakyRelu(0.2),
        "elu" => Activation::Elu(1.0),
        "selu" => Activation::Selu,
        "tanh" => Activation::Tanh,
        "sigmoid" => Activation::Sigmoid,
        "hard_sigmoid" => Activation::HardSigmoid,
        "hard_silu" | "hard_swish" => Activation::HardSwish,
        "gelu" => Activation::Gelu { tanh: false },
        "silu" | "swish" => Activation::Silu,
        "mish" => Activation::Mish,
        "softplus" => Activation::Softplus,
        "softsign" => Activation::Softsign,
        "exponential" => Activation::Exp,
        "softmax" => Activation::Softmax,
        "log_softmax" => Activation::LogSoftmax,
        _ => return None,
    }))
}

/// The element-wise op of a binary operator.
pub fn binary_of(op: super::ast::BinOp) -> Option<Binary> {
    Some(match op {
        super::ast::BinOp::Add => Binary::Add,
        super::ast::BinOp::Sub => Binary::Sub,
        super::ast::BinOp::Mul => Binary::Mul,
        super::ast::BinOp::Div => Binary::Div,
        super::ast::BinOp::Pow => Binary::Pow,
        _ => return None,
    })
}
