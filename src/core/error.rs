//! Why a configuration has no answer. Messages quote the framework's own wording where it has
//! one (recorded in `tests/fixtures/*.jsonl`); the variants keep the numbers for callers that
//! want them.

use std::fmt;

use super::join as tuple;
use super::spec::{Framework, Op};

/// Everything the core can refuse. User input never panics; it ends here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PadError {
    /// `input` must list 1 to 3 spatial sizes.
    Rank { got: usize },
    /// A per-dimension list has a different length from `input`.
    Length {
        field: &'static str,
        got: usize,
        want: usize,
    },
    /// A size, kernel, stride or dilation below 1.
    NotPositive {
        field: &'static str,
        dim: usize,
        value: i64,
    },
    /// Padding or output padding below 0 where the framework refuses it.
    Negative {
        framework: Framework,
        field: &'static str,
        value: i64,
    },
    /// The framework has no such argument or value for this layer; `hint` says what it has.
    NotAccepted {
        framework: Framework,
        op: Op,
        what: String,
        hint: String,
    },
    /// torch `padding='same'` with a stride above 1.
    TorchSameStrided,
    /// torch convolution whose padded input is smaller than the dilated kernel.
    TorchKernelTooLarge {
        padded: Vec<i128>,
        kernel: Vec<i128>,
    },
    /// torch `padding_mode='reflect'` with a pad not below the input size.
    TorchReflectTooLarge {
        before: i64,
        after: i64,
        dim: usize,
        input: Vec<i64>,
    },
    /// torch `padding_mode='circular'` with a pad above the input size.
    TorchCircularWraps,
    /// torch pooling with a pad above half the kernel.
    TorchPoolPadTooLarge {
        pad: i64,
        kernel: i64,
        dilation: i64,
    },
    /// torch transposed convolution with `output_padding >= max(stride, dilation)`.
    TorchOutputPadding {
        output_padding: Vec<i64>,
        stride: Vec<i64>,
        dilation: Vec<i64>,
    },
    /// torch `ConvTranspose.forward(output_size=...)` outside the reachable range.
    TorchOutputSizeRange {
        requested: Vec<i64>,
        min: Vec<i128>,
        max: Vec<i128>,
        input: Vec<i64>,
    },
    /// Keras (and `tf.nn.pool`): stride above 1 together with dilation above 1.
    StrideWithDilation {
        framework: Framework,
        stride: Vec<i64>,
        dilation: Vec<i64>,
    },
    /// Keras transposed convolution with `output_padding >= stride`.
    KerasOutputPadding {
        output_padding: Vec<i64>,
        stride: Vec<i64>,
    },
    /// TF's transposed convolution: the requested output does not invert to the input.
    TfOutputShape {
        framework: Framework,
        requested: Vec<i128>,
        input: Vec<i64>,
        computed: Vec<i128>,
    },
    /// ONNX Runtime convolution with `auto_pad` SAME_* and a dilation above 1.
    OnnxSameDilation { lower: bool },
    /// ONNX Runtime pooling with a pad not below the kernel.
    OnnxPadTooLarge { pad: i64, kernel: i64 },
    /// ONNX Runtime transposed convolution with `output_padding >= max(stride, dilation)`.
    OnnxOutputPadding {
        dim: usize,
        output_padding: i64,
        limit: i64,
    },
    /// ONNX Runtime transposed convolution whose output does not convolve back to the input.
    OnnxInconsistent {
        dim: usize,
        expected: i128,
        input: i64,
    },
    /// ONNX Runtime 'SAME' pooling where the stride exceeds the kernel (a negative pad).
    OnnxNegativePad,
    /// torch `AvgPool3d` with an input smaller than the kernel (padding not counted).
    TorchAvgPool3dSmallInput { input: Vec<i64>, kernel: Vec<i64> },
    /// TF pooling with an explicit pad not below the window.
    TfPoolPadTooLarge {
        side: &'static str,
        pad: i64,
        window: i64,
    },
    /// An output size of zero or less (padlab answers an error even where a framework returns
    /// an empty tensor).
    EmptyOutput {
        framework: Framework,
        op: Op,
        input: Vec<i64>,
        output: Vec<i128>,
    },
    /// A size beyond what 64-bit integers hold.
    Overflow,
}

fn torch_dims<T: fmt::Display>(prefix: &str, values: &[T]) -> String {
    const NAMES: [&str; 3] = ["depth", "height", "width"];
    let names = &NAMES[NAMES.len().saturating_sub(values.len())..];
    names
        .iter()
        .zip(values)
        .map(|(name, v)| format!("{prefix}_{name}: {v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for PadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PadError::Rank { got } => write!(
                f,
                "input must list 1 to 3 spatial sizes (e.g. [H, W]), got {got}"
            ),
            PadError::Length { field, got, want } => write!(
                f,
                "{field} has {got} values but input has {want} dimensions"
            ),
            PadError::NotPositive { field, dim, value } => write!(
                f,
                "{field} must be positive, got {value} in dimension {}",
                dim + 1
            ),
            PadError::Negative { framework, field, value } => match (framework, *field) {
                (Framework::Torch, "padding") => f.write_str("negative padding is not supported"),
                _ => write!(f, "{field} must not be negative in {}, got {value}", framework.title()),
            },
            PadError::NotAccepted { framework, op, what, hint } => {
                write!(f, "{} {} does not accept {what}", framework.title(), layer_name(*framework, *op))?;
                if !hint.is_empty() {
                    write!(f, "; {hint}")?;
                }
                Ok(())
            }
            PadError::TorchSameStrided => f.write_str(
                "padding='same' is not supported for strided convolutions \
                 (pad explicitly with F.pad and use padding=0, or see the TF-style split)",
            ),
            PadError::TorchKernelTooLarge { padded, kernel } => write!(
                f,
                "Calculated padded input size per channel: ({}). Kernel size: ({}). \
                 Kernel size can't be greater than actual input size",
                tuple(padded, " x "),
                tuple(kernel, " x ")
            ),
            PadError::TorchReflectTooLarge { before, after, dim, input } => write!(
                f,
                "Padding size should be less than the corresponding input dimension, but got: \
                 padding ({before}, {after}) at dimension {} of input [1, 1, {}]",
                dim + 2,
                tuple(input, ", ")
            ),
            PadError::TorchCircularWraps => {
                f.write_str("Padding value causes wrapping around more than once.")
            }
            PadError::TorchPoolPadTooLarge { pad, kernel, dilation } => write!(
                f,
                "pad should be at most half of effective kernel size, but got pad={pad}, \
                 kernel_size={kernel} and dilation={dilation}"
            ),
            PadError::TorchOutputPadding { output_padding, stride, dilation } => write!(
                f,
                "output padding must be smaller than either stride or dilation, but got {} {} {}",
                torch_dims("output_padding", output_padding),
                torch_dims("stride", stride),
                torch_dims("dilation", dilation)
            ),
            PadError::TorchOutputSizeRange { requested, min, max, input } => write!(
                f,
                "requested an output size of [{}], but valid sizes range from [{}] to [{}] \
                 (for an input of torch.Size([{}]))",
                tuple(requested, ", "),
                tuple(min, ", "),
                tuple(max, ", "),
                tuple(input, ", ")
            ),
            PadError::StrideWithDilation { stride, dilation, .. } => write!(
                f,
                "`strides > 1` not supported in conjunction with `dilation_rate > 1`. \
                 Received: strides={} and dilation_rate={}",
                py_tuple(stride),
                py_tuple(dilation)
            ),
            PadError::KerasOutputPadding { output_padding, stride } => {
                let dim = output_padding.iter().zip(stride).position(|(p, s)| p >= s).unwrap_or(0);
                write!(
                    f,
                    "`output_padding` must be strictly less than `strides` for all dimensions. \
                     At dimension {dim}, `output_padding` is {} but `strides` is {}. \
                     Received: output_padding={}, strides={}",
                    output_padding.get(dim).copied().unwrap_or(0),
                    stride.get(dim).copied().unwrap_or(0),
                    py_tuple(output_padding),
                    py_tuple(stride)
                )
            }
            PadError::TfOutputShape { requested, input, computed, .. } => write!(
                f,
                "Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: \
                 the output {requested:?} convolves back to {computed:?}, not to the input {input:?}"
            ),
            PadError::OnnxSameDilation { lower } => write!(
                f,
                "Dilation not supported for AutoPadType::SAME_UPPER or AutoPadType::SAME_LOWER \
                 (auto_pad = {})",
                if *lower { "SAME_LOWER" } else { "SAME_UPPER" }
            ),
            PadError::OnnxPadTooLarge { pad, kernel } => write!(
                f,
                "Pad should be smaller than kernel. Got pad {pad} with kernel {kernel}"
            ),
            PadError::OnnxOutputPadding { dim, output_padding, limit } => write!(
                f,
                "output_padding[{dim}] ({output_padding}) must be less than max(stride, dilation) \
                 ({limit}) for spatial dimension {dim}."
            ),
            PadError::OnnxInconsistent { dim, expected, input } => write!(
                f,
                "Computed output shape is inconsistent with input spatial dimensions: a convolution \
                 of the output gives {expected}, not the input size {input}, in dimension {dim} \
                 (output_padding may be too large for the stride)"
            ),
            PadError::OnnxNegativePad => f.write_str(
                "padding values must be non-negative (SAME pooling with a stride larger than the kernel)",
            ),
            PadError::TorchAvgPool3dSmallInput { input, kernel } => {
                let named = |prefix: &str, v: &[i64]| {
                    ["T", "H", "W"]
                        .iter()
                        .zip(v)
                        .map(|(n, x)| format!("{prefix}{n}: {x}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                write!(
                    f,
                    "input image ({}) smaller than kernel size ({})",
                    named("", input),
                    named("k", kernel)
                )
            }
            PadError::TfPoolPadTooLarge { side, pad, window } => write!(
                f,
                "{side} padding {pad} needs to be smaller than the window size {window}"
            ),
            PadError::EmptyOutput { framework, op, input, output } => match (framework, op) {
                (Framework::Torch, Op::ConvTranspose) => write!(
                    f,
                    "Given input size per channel: ({}). Calculated output size per channel: ({}). \
                     Output size is too small",
                    tuple(input, " x "),
                    tuple(output, " x ")
                ),
                (Framework::Torch, _) => write!(
                    f,
                    "Given input size: (1x{}). Calculated output size: (1x{}). Output size is too small",
                    tuple(input, "x"),
                    tuple(output, "x")
                ),
                (Framework::Keras, Op::MaxPool | Op::AvgPool) => write!(
                    f,
                    "Computed output size would be zero or negative: input {input:?} gives {output:?} \
                     (Keras pooling parts here by backend: JAX returns an empty array, torch raises \
                     \"Invalid computed output size\", TensorFlow raises or, when input − kernel + \
                     stride is 0, dies with SIGFPE)"
                ),
                (Framework::Keras, _) => write!(
                    f,
                    "Computed output size would be zero or negative: input {input:?} gives {output:?}"
                ),
                _ => write!(
                    f,
                    "{} computes an output size of {output:?} for the input {input:?}: \
                     the window does not fit",
                    framework.title()
                ),
            },
            PadError::Overflow => f.write_str("a size overflows 64-bit integers"),
        }
    }
}

impl std::error::Error for PadError {}

impl PadError {
    /// The framework has no such argument or value for this layer.
    pub fn not_accepted(
        framework: Framework,
        op: Op,
        what: impl Into<String>,
        hint: &str,
    ) -> PadError {
        PadError::NotAccepted {
            framework,
            op,
            what: what.into(),
            hint: hint.to_string(),
        }
    }
}

fn py_tuple(values: &[i64]) -> String {
    match values {
        [one] => format!("({one},)"),
        _ => format!("({})", tuple(values, ", ")),
    }
}

/// The layer's class or function name in `framework` (for messages).
pub fn layer_name(framework: Framework, op: Op) -> &'static str {
    match (framework, op) {
        (Framework::Torch, Op::Conv) => "nn.ConvNd",
        (Framework::Torch, Op::ConvTranspose) => "nn.ConvTransposeNd",
        (Framework::Torch, Op::MaxPool) => "nn.MaxPoolNd",
        (Framework::Torch, Op::AvgPool) => "nn.AvgPoolNd",
        (Framework::Keras, Op::Conv) => "ConvND",
        (Framework::Keras, Op::ConvTranspose) => "ConvNDTranspose",
        (Framework::Keras, Op::MaxPool) => "MaxPoolingND",
        (Framework::Keras, Op::AvgPool) => "AveragePoolingND",
        (Framework::Tf, Op::Conv) => "tf.nn.convNd",
        (Framework::Tf, Op::ConvTranspose) => "tf.nn.conv_transpose",
        (Framework::Tf, Op::MaxPool) => "tf.nn.max_poolNd",
        (Framework::Tf, Op::AvgPool) => "tf.nn.avg_poolNd",
        (Framework::Onnx, Op::Conv) => "Conv",
        (Framework::Onnx, Op::ConvTranspose) => "ConvTranspose",
        (Framework::Onnx, Op::MaxPool) => "MaxPool",
        (Framework::Onnx, Op::AvgPool) => "AveragePool",
        (Framework::Jax, Op::Conv) => "lax.conv_general_dilated",
        (Framework::Jax, Op::ConvTranspose) => "lax.conv_transpose",
        (Framework::Jax, Op::MaxPool | Op::AvgPool) => "lax.reduce_window",
    }
}
