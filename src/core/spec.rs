//! What a user asks about: one layer, in one framework's vocabulary.
//!
//! Values are kept as the user gave them (signed, possibly absent) so that the rules in
//! [`crate::core::eval`] can refuse them in the framework's own words; nothing here validates.

use std::fmt;
use std::str::FromStr;

/// The layer kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Conv,
    ConvTranspose,
    MaxPool,
    AvgPool,
}

/// Whose rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Framework {
    /// PyTorch `torch.nn` modules (`nn.Conv2d`, `nn.ConvTranspose2d`, `nn.MaxPool2d`, ...).
    Torch,
    /// Keras 3 layers on the TensorFlow backend (`keras.layers.Conv2D`, ...).
    Keras,
    /// The low-level TensorFlow ops (`tf.nn.conv2d`, `tf.nn.conv_transpose`, `tf.nn.max_pool2d`,
    /// and `tf.nn.pool` for dilated pooling).
    Tf,
    /// What ONNX Runtime does with the ONNX operators (`Conv`, `ConvTranspose`, `MaxPool`,
    /// `AveragePool`).
    Onnx,
    /// JAX: `lax.conv_general_dilated`, `lax.conv_transpose`, `lax.reduce_window`, and flax's
    /// `CAUSAL` convolution padding.
    Jax,
}

/// The engine under Keras 3 (`KERAS_BACKEND`): the same layer, three implementations, which
/// part in a few places (see `core::rules::backend_refusal` and the semantics of the average
/// pool).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Backend {
    #[default]
    Tensorflow,
    Torch,
    Jax,
}

/// torch `padding_mode` for convolutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PaddingMode {
    #[default]
    Zeros,
    Reflect,
    Replicate,
    Circular,
}

/// Padding as the user wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Padding {
    /// No padding (`'valid'`, `'VALID'`).
    Valid,
    /// Keep `ceil(input / stride)`; the odd extra pixel goes after (TF, Keras, ONNX `SAME_UPPER`,
    /// JAX `'SAME'`; torch `'same'` at stride 1).
    Same,
    /// Like [`Padding::Same`] with the odd extra pixel before (ONNX `SAME_LOWER`, JAX).
    SameLower,
    /// Everything before, nothing after (Keras `Conv1D`, flax 1-D).
    Causal,
    /// One number for every side of every dimension (JSON `2`).
    All(i64),
    /// One symmetric number per dimension (JSON `[1, 0]`).
    PerDim(Vec<i64>),
    /// `[before, after]` per dimension (JSON `[[1, 2], [0, 0]]`).
    Explicit(Vec<[i64; 2]>),
}

/// An integer parameter given once for all dimensions or once per dimension.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dims {
    All(i64),
    Each(Vec<i64>),
}

/// One layer, as `padlab eval` reads it. `None` means "not given": the framework's default
/// applies (which matters: Keras `output_padding=None` is not `0`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LayerSpec {
    pub op: Op,
    pub framework: Framework,
    /// Spatial input sizes only (`[H, W]`), 1 to 3 of them.
    pub input: Vec<i64>,
    pub kernel: Dims,
    pub stride: Option<Dims>,
    pub dilation: Option<Dims>,
    pub padding: Option<Padding>,
    pub padding_mode: Option<PaddingMode>,
    pub output_padding: Option<Dims>,
    pub output_size: Option<Vec<i64>>,
    pub ceil_mode: Option<bool>,
    pub count_include_pad: Option<bool>,
    /// Keras only: the backend it runs on (`None`: TensorFlow, the default).
    pub backend: Option<Backend>,
}

impl LayerSpec {
    /// A spec with only the required fields; the rest take the framework's defaults.
    pub fn new(op: Op, framework: Framework, input: Vec<i64>, kernel: Dims) -> Self {
        LayerSpec {
            op,
            framework,
            input,
            kernel,
            stride: None,
            dilation: None,
            padding: None,
            padding_mode: None,
            output_padding: None,
            output_size: None,
            ceil_mode: None,
            count_include_pad: None,
            backend: None,
        }
    }

    /// The Keras backend the layer runs on (TensorFlow unless named).
    pub fn keras_backend(&self) -> Backend {
        self.backend.unwrap_or_default()
    }
}

/// A name that is none of an enum's wire names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What was named (`op`, `framework`, `paddingmode`).
    pub what: &'static str,
    pub got: String,
    pub expected: &'static [&'static str],
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?}; expected one of {}",
            self.what,
            self.got,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

/// Names used on the wire (CLI JSON, URL), one table per enum so parse and format cannot drift.
macro_rules! named {
    ($ty:ident, $what:literal { $($variant:ident = $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in display order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];
            /// The wire name (`"conv_transpose"`, `"torch"`, ...).
            pub fn name(self) -> &'static str {
                match self { $($ty::$variant => $name),+ }
            }
        }
        impl FromStr for $ty {
            type Err = UnknownName;
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                match s {
                    $($name => Ok($ty::$variant),)+
                    _ => Err(UnknownName {
                        what: $what,
                        got: s.to_string(),
                        expected: &[$($name),+],
                    }),
                }
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named!(Op, "op" { Conv = "conv", ConvTranspose = "conv_transpose", MaxPool = "max_pool", AvgPool = "avg_pool" });
named!(Framework, "framework" { Torch = "torch", Keras = "keras", Tf = "tf", Onnx = "onnx", Jax = "jax" });
named!(Backend, "backend" { Tensorflow = "tensorflow", Torch = "torch", Jax = "jax" });
named!(PaddingMode, "paddingmode" { Zeros = "zeros", Reflect = "reflect", Replicate = "replicate", Circular = "circular" });

impl Backend {
    /// How the backend is named in prose.
    pub fn title(self) -> &'static str {
        match self {
            Backend::Tensorflow => "TensorFlow",
            Backend::Torch => "torch",
            Backend::Jax => "JAX",
        }
    }
}

impl Op {
    /// Pooling ops (their stride defaults to the kernel).
    pub fn is_pool(self) -> bool {
        matches!(self, Op::MaxPool | Op::AvgPool)
    }
}

impl Framework {
    /// How the framework is named in prose.
    pub fn title(self) -> &'static str {
        match self {
            Framework::Torch => "PyTorch",
            Framework::Keras => "Keras",
            Framework::Tf => "TensorFlow (tf.nn)",
            Framework::Onnx => "ONNX Runtime",
            Framework::Jax => "JAX",
        }
    }
}

impl Padding {
    /// The string forms, by wire name.
    pub fn keyword(&self) -> Option<&'static str> {
        match self {
            Padding::Valid => Some("valid"),
            Padding::Same => Some("same"),
            Padding::SameLower => Some("same_lower"),
            Padding::Causal => Some("causal"),
            _ => None,
        }
    }

    /// Symmetric padding from a per-dimension argument (torch's `padding=1` or `(1, 0)`).
    pub fn from_dims(d: Dims) -> Padding {
        match d {
            Dims::All(k) => Padding::All(k),
            Dims::Each(v) => Padding::PerDim(v),
        }
    }

    /// Parses a string form (`valid`, `same`, `same_lower`, `causal`; any case).
    pub fn from_keyword(s: &str) -> Option<Padding> {
        match s.to_ascii_lowercase().as_str() {
            "valid" => Some(Padding::Valid),
            "same" | "same_upper" => Some(Padding::Same),
            "same_lower" => Some(Padding::SameLower),
            "causal" => Some(Padding::Causal),
            _ => None,
        }
    }
}
