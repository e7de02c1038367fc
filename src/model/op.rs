//! What a graph node computes, in neutral terms every front end maps to and every port reads.
//!
//! Axes are written in the source framework's layout (a torch `dim=1` is the channels, a Keras
//! `axis=-1` too); negative axes count from the end, as in Python. Convolutions and pools keep
//! their [`LayerSpec`] in the source framework's own rules, so `core::evaluate` answers them
//! exactly as that framework does.

use crate::core::LayerSpec;

/// An element-wise function (no weights, the shape unchanged).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Activation {
    Relu,
    /// `min(max(x, 0), 6)` (torch `ReLU6`, Keras `ReLU(max_value=6)`, ONNX `Clip(0, 6)`).
    Relu6,
    /// `min(max(x, lo), hi)`, both bounds finite (torch `clamp`/`Hardtanh`, ONNX `Clip`).
    Clip {
        lo: f64,
        hi: f64,
    },
    /// With its negative slope.
    LeakyRelu(f64),
    /// With its alpha.
    Elu(f64),
    Selu,
    Tanh,
    Sigmoid,
    /// `relu6(x + 3) / 6` (torch `Hardsigmoid`; Keras 3's `hard_sigmoid` is the same).
    HardSigmoid,
    /// `x * relu6(x + 3) / 6`.
    HardSwish,
    /// Exact (erf) or the tanh approximation.
    Gelu {
        tanh: bool,
    },
    /// `x * sigmoid(x)` (torch `SiLU`, Keras `swish`/`silu`).
    Silu,
    Mish,
    Softplus,
    Softsign,
    /// Softmax over the last axis (a Keras layer's `activation='softmax'`).
    Softmax,
    /// Its logarithm over the last axis (`activation='log_softmax'`): a port writes it as a
    /// step of its own, like a fused softmax.
    LogSoftmax,
    Exp,
    Log,
    Sqrt,
    Abs,
    Neg,
}

/// What padding fills with (explicit padding layers and `F.pad`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadFill {
    Constant(f64),
    Reflect,
    Replicate,
    Circular,
}

/// How a convolution's input channels are grouped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Groups {
    /// `groups` groups (1: an ordinary convolution).
    Count(i64),
    /// One group per input channel, `multiplier` filters each (Keras `DepthwiseConv2D`,
    /// `SeparableConv2D`'s first half): the output has `channels * multiplier` channels.
    Depthwise { multiplier: i64 },
}

/// A convolution or a transposed convolution.
#[derive(Clone, Debug, PartialEq)]
pub struct Conv {
    /// Sizes and padding in the source framework's rules (`spec.op` says which); `input` is
    /// filled in at the node's real input size.
    pub spec: LayerSpec,
    /// Declared by torch layers (`in_channels`) and ONNX weights; Keras infers it.
    pub in_channels: Option<i64>,
    /// The output channels (`filters`; for a depthwise layer, unused: see [`Groups`]).
    pub filters: i64,
    pub groups: Groups,
    /// Keras `SeparableConv*D`: the 1x1 convolution to `filters` channels after the depthwise
    /// one (which then has no bias of its own).
    pub separable: bool,
    pub bias: bool,
    /// Keras' `activation=` argument, applied after the layer.
    pub activation: Option<Activation>,
}

impl Conv {
    /// The output channels and the group count at `in_channels` input channels: a depthwise
    /// layer has one group per input channel and `multiplier` outputs each.
    pub fn out_and_groups(&self, in_channels: i64) -> (i64, i64) {
        match self.groups {
            Groups::Depthwise { multiplier } => (in_channels * multiplier, in_channels),
            Groups::Count(g) => (self.filters, g),
        }
    }
}

/// A normalisation.
#[derive(Clone, Debug, PartialEq)]
pub enum Norm {
    /// Batch normalisation over `axis` (torch: 1, the channels; Keras: its `axis`, -1 by
    /// default), with inference statistics.
    Batch {
        axis: i64,
        /// Declared by torch (`num_features`).
        features: Option<i64>,
        eps: f64,
        /// torch's convention: the weight of the new batch in the running average (Keras'
        /// `momentum` is one minus it).
        momentum: f64,
        center: bool,
        scale: bool,
    },
    /// Layer normalisation over the trailing `shape` (torch `normalized_shape`) or the Keras
    /// `axes`.
    Layer {
        axes: Vec<i64>,
        /// torch's `normalized_shape`, checked against the input.
        shape: Option<Vec<i64>>,
        eps: f64,
        center: bool,
        scale: bool,
    },
    /// Group normalisation of the channels in `groups` groups.
    Group {
        groups: i64,
        channels: Option<i64>,
        eps: f64,
        affine: bool,
    },
    /// Instance normalisation (per sample and channel, over the spatial axes).
    Instance {
        features: Option<i64>,
        eps: f64,
        affine: bool,
    },
}

/// Keras's `Normalization`: `(x - mean) / max(sqrt(variance), 1e-7)`, one mean and variance
/// per index of the kept `axes`, broadcast over the others.
#[derive(Clone, Debug, PartialEq)]
pub struct Standardize {
    /// The axes with statistics of their own (Keras `axis`, -1 by default; empty: `axis=None`,
    /// one mean and variance for every element).
    pub axes: Vec<i64>,
    pub stats: Stats,
    /// Keras `invert=True`: the inverse, `mean + x * max(sqrt(variance), 1e-7)`.
    pub invert: bool,
}

/// Where a [`Standardize`]'s mean and variance come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Stats {
    /// Given in the configuration (`mean=`, `variance=`): the values row-major, and their shape
    /// as NumPy sees it (empty: a scalar), aligned with the kept axes from the right.
    Given {
        mean: Vec<f64>,
        variance: Vec<f64>,
        shape: Vec<i64>,
    },
    /// The layer's weights (what `adapt()` computed, kept in a saved file): the kept axes'
    /// sizes, read from the source model by the port's weight copy.
    Weights,
}

/// Keras's `backend.epsilon()`, the floor of a [`Standardize`]'s standard deviation.
pub const KERAS_EPSILON: f64 = 1e-7;

/// An element-wise binary operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Max,
    Min,
}

/// A reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    Mean,
    Sum,
    Max,
    Min,
}

/// How an upsampling interpolates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    Nearest,
    /// Linear in every spatial axis (torch `bilinear` / `trilinear` / `linear`, Keras
    /// `bilinear`).
    Linear,
    Bicubic,
}

/// How a learned tensor `w` meets the input `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnedOp {
    /// `x * w`
    Mul,
    /// `x + w`
    Add,
    /// `x - w`
    Sub,
    /// `w - x`
    RSub,
    /// `x / w`
    Div,
    /// `x` where `x >= 0`, else `w * x` (torch `PReLU`, Keras `PReLU`).
    PRelu,
    /// `w`, whose first axis is one, repeated over the batch and concatenated with `x` along
    /// `axis` (before it when `first`): a ViT's class token, `torch.cat((self.cls_token.expand(
    /// B, -1, -1), x), dim=1)`.
    Concat { axis: i64, first: bool },
}

/// Where the source model keeps a learned tensor, for the self-check to copy it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightAt {
    /// An attribute of the node's own layer (torch `PReLU.weight`, Keras `PReLU.alpha`).
    Layer(String),
    /// A parameter by its path in the model (torch `named_parameters()`: `stages.0.gamma`).
    Param(String),
    /// While the reader traces: an attribute of the module object `owner` (an interpreter
    /// id), made a `Param` path once the model's module paths are known.
    Owner(usize, String),
}

/// One axis of a slice (`x[:, :, 1:, ::2]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceAxis {
    pub axis: i64,
    pub start: Option<i64>,
    pub end: Option<i64>,
    pub step: i64,
    /// An integer index (`x[:, 0]`): the axis is dropped.
    pub index: bool,
}

/// A recurrent cell: what one step computes from the input `x` and the state `h` (`c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// Gates `i, f, g, o` (torch's order, Keras's `i, f, c, o`): `c = f*c + i*g`,
    /// `h = o*act(c)`.
    Lstm,
    /// Gates `r, z, n` (torch's order; Keras's is `z, r, h`): `h = (1-z)*n + z*h`.
    /// `reset_after` (torch, Keras's default): `n = act(Wx + b + r*(Uh + b'))`; else (Keras
    /// `reset_after=False`) `n = act(Wx + b + U(r*h))`, with no recurrent bias.
    Gru { reset_after: bool },
    /// `h = act(Wx + b + Uh + b')` (torch `nn.RNN`, Keras `SimpleRNN`).
    Simple,
}

impl CellKind {
    /// The gates' count: the weights' rows are this many blocks of `hidden`.
    pub fn gates(self) -> i64 {
        match self {
            CellKind::Lstm => 4,
            CellKind::Gru { .. } => 3,
            CellKind::Simple => 1,
        }
    }

    /// The final states a layer has (LSTM's `h` and `c`, else `h`).
    pub fn states(self) -> usize {
        if self == CellKind::Lstm { 2 } else { 1 }
    }
}

/// How Keras's `Bidirectional` joins its two directions (`merge_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    Concat,
    Sum,
    Mul,
    Ave,
    /// `merge_mode=None`: each direction is an output of its own.
    Apart,
}

/// Which outputs a recurrent layer gives, as its framework gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecurrentForm {
    /// torch: `out` (every step, the directions concatenated; `[seq, batch, ·]` unless
    /// `batch_first`), `h_n` `[layers * directions, batch, hidden]` and LSTM's `c_n`.
    Torch { batch_first: bool },
    /// Keras: the sequence (`sequences`) or the last step, the directions merged by `merge`,
    /// then with `states` each direction's final states (`h`, LSTM's `c`). `go_backwards`: a
    /// single direction that reads the sequence from its end and returns its steps in that
    /// order.
    Keras {
        sequences: bool,
        states: bool,
        go_backwards: bool,
        merge: Merge,
    },
}

/// A recurrent layer (torch `nn.LSTM`/`GRU`/`RNN`, Keras `LSTM`/`GRU`/`SimpleRNN`, in a
/// `Bidirectional` or not) on `[batch, time, features]` (torch: `[time, batch, features]`
/// unless `batch_first`). Dropout is inactive at inference.
#[derive(Clone, Debug, PartialEq)]
pub struct Recurrent {
    pub cell: CellKind,
    pub hidden: i64,
    /// torch's `input_size` (Keras infers it).
    pub input_size: Option<i64>,
    /// torch's `num_layers` (Keras: 1).
    pub layers: i64,
    pub bidirectional: bool,
    /// The candidate's and output's activation (`tanh`; torch `RNN(nonlinearity='relu')`).
    pub activation: Activation,
    /// The gates' activation (`sigmoid`).
    pub recurrent_activation: Activation,
    pub bias: bool,
    pub form: RecurrentForm,
}

/// The most stacked layers padlab reads in one recurrent layer (each is a step of the port).
pub const MAX_RECURRENT_LAYERS: i64 = 64;

impl Recurrent {
    /// The directions: 2 when bidirectional.
    pub fn directions(&self) -> i64 {
        if self.bidirectional { 2 } else { 1 }
    }
}

/// Multi-head attention (torch `nn.MultiheadAttention`, Keras `MultiHeadAttention`) on
/// `[batch, time, features]` inputs (torch: `[time, batch, features]` unless `batch_first`);
/// the node's inputs are the query, the key and the value, in that order.
#[derive(Clone, Debug, PartialEq)]
pub struct Attention {
    pub heads: i64,
    /// Each head's query and key size, and value size.
    pub key_dim: i64,
    pub value_dim: i64,
    /// The output's features (`None`: the query's).
    pub output_dim: Option<i64>,
    /// torch's declared `embed_dim`, `kdim`, `vdim` (checked against the inputs).
    pub declared: Option<(i64, i64, i64)>,
    pub bias: bool,
    /// torch's `batch_first` (Keras: always).
    pub batch_first: bool,
    /// The second output: torch's weights averaged over the heads (`Some(true)`, its
    /// default) or per head (`Some(false)`), Keras's `return_attention_scores` (per head);
    /// `None`: one output.
    pub weights: Option<bool>,
}

/// What a node computes.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// A model input.
    Input,
    Conv(Conv),
    /// A max or average pool (`spec.op`), `input` filled in at the node's real input size.
    Pool(LayerSpec),
    /// ONNX's `LpPool`: each window's p-norm `(sum |x|^p)^(1/p)`, padding counted as zeros;
    /// `spec` (an average pool's, for its sizes) in ONNX Runtime's rules.
    LpPool {
        spec: LayerSpec,
        p: i64,
    },
    /// torch's adaptive pools: each spatial axis to its given size (`None`: kept).
    AdaptivePool {
        max: bool,
        output: Vec<Option<i64>>,
    },
    /// Global average or max pooling; `keepdims` keeps the spatial axes (size 1).
    GlobalPool {
        max: bool,
        keepdims: bool,
    },
    Norm(Norm),
    Activation(Activation),
    /// Softmax (or log-softmax) over `axis`.
    Softmax {
        axis: i64,
        log: bool,
    },
    /// Inference leaves it out; `spatial` drops whole channels (torch `Dropout2d`, Keras
    /// `SpatialDropout2D`).
    Dropout {
        rate: f64,
        spatial: bool,
    },
    /// Flattens axes `start..=end` into one (torch `flatten(x, 1)`, `nn.Flatten()`, Keras
    /// `Flatten`: 1 to -1, in the source's own element order).
    Flatten {
        start: i64,
        end: i64,
    },
    /// A reshape to `shape` as written (`-1` inferred; ONNX `0` copies the input's size);
    /// `batch`: the shape includes the batch axis (torch `view`, `tf.reshape`, ONNX), else
    /// it is one sample's (Keras `Reshape`).
    Reshape {
        shape: Vec<i64>,
        batch: bool,
    },
    /// Axes reordered: output axis `i` is input axis `perm[i]` (batch included).
    Permute(Vec<usize>),
    /// Drops size-1 axes (`None`: every one).
    Squeeze(Option<Vec<i64>>),
    /// Inserts a size-1 axis at each position, in order.
    Unsqueeze(Vec<i64>),
    Slice(Vec<SliceAxis>),
    /// Input elements picked along axes, in order: output index `j` of `axis` is input index
    /// `indices[j]` (a slice with a negative step; ONNX's nearest resize read at its own
    /// coordinates, where no interpolation a target has reads the same elements).
    Take(Vec<(i64, Vec<i64>)>),
    /// Splits `axis` into parts of these sizes: one output each.
    Split {
        axis: i64,
        sizes: Vec<i64>,
    },
    Concat {
        axis: i64,
    },
    /// torch `stack`, `tf.stack`: inputs of one shape along a new axis `axis` (of the output).
    Stack {
        axis: i64,
    },
    /// torch `expand` / `expand_as`: the input broadcast to `shape` (every axis, batch first;
    /// `-1` keeps the input's size there; new leading axes allowed).
    Expand(Vec<i64>),
    /// A fully connected layer over the last axis (torch `Linear`, Keras `Dense`, ONNX `Gemm`
    /// with a weight).
    Dense {
        in_features: Option<i64>,
        units: i64,
        bias: bool,
        activation: Option<Activation>,
    },
    /// A matrix product of two tensors (broadcast over the leading axes).
    MatMul,
    /// An embedding table lookup: integer input, one `dim`-vector per index.
    Embedding {
        vocab: i64,
        dim: i64,
        /// torch's `max_norm`: rows looked up are rescaled to this norm at most (in place).
        max_norm: Option<f64>,
    },
    /// Explicit padding, `(before, after)` for every axis of the input (batch included);
    /// negative amounts crop (Keras `Cropping*D`).
    Pad {
        pairs: Vec<(i64, i64)>,
        fill: PadFill,
    },
    /// Upsampling of the spatial axes by a factor per axis, or to a size.
    Upsample {
        scale: Option<Vec<f64>>,
        size: Option<Vec<i64>>,
        mode: Interpolation,
        align_corners: bool,
    },
    /// Element-wise over its inputs (broadcasting), and a constant operand when there is one
    /// (`x * 0.5`; `constant_first`: `1 - x`).
    Elementwise {
        op: Binary,
        constant: Option<f64>,
        constant_first: bool,
    },
    /// `x * scale + offset` (Keras `Rescaling`).
    Affine {
        scale: f64,
        offset: f64,
    },
    Reduce {
        op: Reduce,
        axes: Vec<i64>,
        keepdims: bool,
    },
    /// torch `PixelShuffle(r)`: `[N, C*r*r, H, W]` to `[N, C, H*r, W*r]` (channel `c*r*r + i*r
    /// + j` goes to row offset `i`, column offset `j`): ONNX `DepthToSpace` in mode `CRD`.
    PixelShuffle(i64),
    /// The other order of depth to space: channel `(i*r + j)*C + c` goes to row offset `i`,
    /// column offset `j` (ONNX `DepthToSpace` in its default mode `DCR`, TensorFlow's
    /// `depth_to_space`); the shape is [`Op::PixelShuffle`]'s.
    DepthToSpace(i64),
    /// `[N, C, H*r, W*r]` to `[N, C*r*r, H, W]`, row offset `i` and column offset `j` going to
    /// channel `(i*r + j)*C + c` (ONNX `SpaceToDepth`, TensorFlow's `space_to_depth`; torch's
    /// `PixelUnshuffle` orders the channels the other way).
    SpaceToDepth(i64),
    /// Random values the shape of its input (`torch.randn_like`): normal or uniform in [0, 1).
    /// Outputs that depend on it differ from run to run, so self-checks leave them out.
    Random {
        normal: bool,
    },
    /// Passes its input through (`nn.Identity`, a `contiguous()` the table shows).
    Identity,
    /// Keras `Normalization` with known statistics.
    Standardize(Standardize),
    /// ConvNeXt's `LayerScale`: the input times a learned weight per element of its last axis
    /// (`features`, Keras's `projection_dim`, declared).
    LayerScale {
        features: Option<i64>,
    },
    /// A learned tensor applied to the input element-wise: a torch `nn.Parameter` a module
    /// multiplies or adds (`x * self.gamma[:, None, None]`), a PReLU's slopes. `shape` is the
    /// weight as it broadcasts against the input (aligned to the input's last axes).
    Learned {
        op: LearnedOp,
        shape: Vec<i64>,
        weight: WeightAt,
    },
    Recurrent(Recurrent),
    Attention(Attention),
    /// An operation padlab reads (its shape is known) but does not port: its name and why.
    Opaque {
        what: String,
    },
    /// An operation padlab shapes by its runtime's rule but does not port (a quantized
    /// convolution, an LSTM, a cast), or that its runtime refuses: `what` it is and why it is
    /// not ported (the port's refusal), and the rule its outputs follow.
    Read {
        what: String,
        rule: ReadRule,
    },
}

/// The shape rule of an [`Op::Read`] (each is in `shape.rs`).
#[derive(Clone, Debug, PartialEq)]
pub enum ReadRule {
    /// The first output has the first input's shape; `scalars` more outputs are scalars
    /// (ONNX `DynamicQuantizeLinear`'s scale and zero point).
    AsInput { scalars: usize },
    /// The outputs another op gives on the same data (ONNX `QLinearConv` as its `Conv`).
    Like(Box<Op>),
    /// ONNX `Gemm`: `[M, N]` from `A` (`[M, K]`, or `[K, M]` transposed) and `B` (`[K, N]`,
    /// or `[N, K]`); reads both.
    Gemm { trans_a: bool, trans_b: bool },
    /// ONNX `Gather`: the data's axes before `axis`, the indices' axes, the data's after it;
    /// reads both.
    Gather { axis: i64 },
    /// ONNX `LSTM`, `GRU`, `RNN` on `X` `[seq, batch, input]` (`batch_first`: the spec's
    /// layout 1, `[batch, seq, input]`, which ONNX Runtime refuses): `Y` `[seq, directions,
    /// batch, hidden]` (layout 1: `[batch, seq, directions, hidden]`), then `states` outputs
    /// `[directions, batch, hidden]` (layout 1: `[batch, directions, hidden]`): `Y_h`, and
    /// LSTM's `Y_c`.
    Recurrent {
        hidden: i64,
        directions: i64,
        batch_first: bool,
        states: usize,
    },
    /// The runtime refuses the node: its words.
    Refused(String),
    /// ONNX's `If`, `Loop`, `Scan`: what they compute is in subgraphs padlab does not read
    /// (their outputs' shapes are unknown; they may read no tensor but through them).
    Subgraph,
}

impl Op {
    /// Ops that may take no input but are not model inputs: an ONNX `If` whose branches read
    /// the graph's tensors (constants are folded).
    pub fn is_constant(&self) -> bool {
        matches!(
            self,
            Op::Read {
                rule: ReadRule::Subgraph,
                ..
            }
        )
    }

    /// Whether the op carries weights a port must copy.
    pub fn has_weights(&self) -> bool {
        match self {
            Op::Conv(_) | Op::Dense { .. } | Op::Embedding { .. } => true,
            Op::Recurrent(_) | Op::Attention(_) => true,
            Op::Norm(Norm::Batch { .. }) => true,
            Op::Norm(Norm::Layer { center, scale, .. }) => *center || *scale,
            Op::Norm(Norm::Group { affine, .. } | Norm::Instance { affine, .. }) => *affine,
            Op::Standardize(s) => s.stats == Stats::Weights,
            Op::LayerScale { .. } | Op::Learned { .. } => true,
            _ => false,
        }
    }
}
