//! Lowering a model's graph for a target: one [`PortStep`] per thing the port computes, every
//! decision made here (renderers only print): the layout, the single-layer plan of every
//! convolution and pool, the weights to copy and how.
//!
//! *Layout.* Each port tensor carries `perm`: port axis `i` holds source axis `perm[i]`. An op
//! that works on named axes (concat, softmax, a reduction, a slice, a pad) runs in whatever
//! order its input has, its axes mapped; an op of the target's own layout (a convolution, a
//! pool, batch normalisation over the channels) needs the target's order, and one that reads
//! elements in order (flatten, reshape, a dense layer on a map) needs the source's; a
//! transpose is inserted only where the order a step needs is not the one it has. A source
//! `permute` therefore costs nothing in the port. A flatten whose only readers are dense layers
//! runs in the target's order, and those layers' weights are reordered when copied instead.
//!
//! *Exactness.* Convolutions and pools are the single-layer generator's plans (a native
//! argument only where the core confirms identical numbers); the rest are ops every target
//! has, or refusals naming the line.

use std::collections::HashMap;

use crate::codegen::plan::{LowerOptions, Plan, Spelling, lower};
use crate::core::{Dims, Framework, LayerSpec};
use crate::model::graph::{Edge, Graph, NodeId};
use crate::model::op::{
    Activation, Attention, Binary, CellKind, Conv, Groups, Interpolation, LearnedOp, Merge, Norm,
    Op, PadFill, Recurrent, RecurrentForm, Reduce, Stats, WeightAt,
};
use crate::model::shape::{axis, channels_last, kept_axes, stats_shape};

use super::PortError;

/// A tensor of the port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub usize);

/// The order a flattened feature axis holds its elements in, when it is the target's
/// (channels-last or first) rather than the source's: a dense layer reading it gets its
/// weights' columns reordered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlatOrder {
    pub channels: i64,
    pub spatial: Vec<i64>,
    /// The source flattens channels last (Keras), the port the other way, or the reverse.
    pub source_last: bool,
}

/// A port tensor: its full shape in port order and the source axis each port axis holds.
#[derive(Clone, Debug, PartialEq)]
pub struct PortTensor {
    pub shape: Vec<i64>,
    pub perm: Vec<usize>,
    /// Set on the output of a flatten that kept the target's order.
    pub flat: Option<FlatOrder>,
}

/// What a step computes, axes in the port's order.
// One per port step, made once: the convolution's plan inline is clearer than a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum PortOp<P> {
    /// `out = in.permute(order)`.
    Transpose(Vec<usize>),
    /// The same tensor under a new name: a source `permute` the port's order already has.
    Alias,
    /// A convolution through its single-layer plan; `spec` is at the real input size.
    Conv(PortConv<P>),
    Pool {
        plan: Plan<P>,
        spec: LayerSpec,
    },
    /// torch's adaptive pooling; `uniform`: every window the same (input divisible by
    /// output), so a plain pool computes it.
    AdaptivePool {
        max: bool,
        input: Vec<i64>,
        output: Vec<i64>,
        uniform: bool,
    },
    GlobalPool {
        max: bool,
        keepdims: bool,
        rank: usize,
    },
    /// Batch normalisation over port axis `axis` (`native`: it is the target's channel axis).
    BatchNorm {
        features: i64,
        axis: usize,
        native: bool,
        eps: f64,
        momentum: f64,
        center: bool,
        scale: bool,
    },
    /// Layer normalisation over the trailing `shape` (the input is in source order).
    LayerNorm(LayerNorm),
    GroupNorm {
        groups: i64,
        channels: i64,
        eps: f64,
        affine: bool,
    },
    InstanceNorm {
        features: i64,
        eps: f64,
        affine: bool,
    },
    /// Keras's `Normalization`: `(x - mean) / max(sqrt(variance), 1e-7)` with statistics of
    /// `shape` (full rank, port order, 1 on each axis they broadcast over), one per index of
    /// the kept port `axes`; `values` (mean, variance, row-major over `shape`) when the
    /// configuration gives them, else the weights the self-check copies.
    Standardize {
        axes: Vec<usize>,
        shape: Vec<i64>,
        values: Option<(Vec<f64>, Vec<f64>)>,
    },
    /// The input times a learned weight of `shape` (full rank, port order, 1 but on the
    /// source's last axis): ConvNeXt's `LayerScale`.
    LayerScale {
        shape: Vec<i64>,
    },
    /// A learned tensor of `shape` (full rank, port order) applied to the input by `op`.
    Learned {
        op: LearnedOp,
        shape: Vec<i64>,
    },
    Activation(Activation),
    Softmax {
        axis: usize,
        log: bool,
    },
    /// Inference drops it: the port keeps the layer so it reads like the source.
    Dropout {
        rate: f64,
    },
    Identity,
    /// Flattens port axes `start..=end`.
    Flatten {
        start: usize,
        end: usize,
    },
    /// To `shape` (full, batch first, in port order).
    Reshape {
        shape: Vec<i64>,
    },
    Squeeze(Vec<usize>),
    Unsqueeze(Vec<usize>),
    /// `(axis, start, end, step, index)` per sliced port axis, bounds resolved.
    Slice(Vec<(usize, i64, i64, i64, bool)>),
    /// The elements at `indices` along port axis `axis`, in order (never a progression with
    /// a positive step: that is a [`PortOp::Slice`]).
    Take {
        axis: usize,
        indices: Vec<i64>,
    },
    Split {
        axis: usize,
        sizes: Vec<i64>,
    },
    Concat {
        axis: usize,
    },
    /// Inputs of one shape along a new port axis `axis` (the inputs in source order).
    Stack {
        axis: usize,
    },
    /// The input broadcast to `shape` (full, source order as the input is; the batch kept).
    Expand {
        shape: Vec<i64>,
    },
    Dense {
        in_features: i64,
        units: i64,
        bias: bool,
        activation: Option<Activation>,
    },
    MatMul,
    Embedding {
        vocab: i64,
        dim: i64,
        max_norm: Option<f64>,
    },
    /// `(before, after)` for every port axis.
    Pad {
        pairs: Vec<(i64, i64)>,
        fill: PadFill,
    },
    /// Spatial upsampling from `input` to `output` sizes (`scale` when the source gave one).
    Upsample {
        input: Vec<i64>,
        output: Vec<i64>,
        scale: Option<Vec<f64>>,
        mode: Interpolation,
        align_corners: bool,
    },
    Elementwise {
        op: Binary,
        constant: Option<f64>,
        constant_first: bool,
    },
    Affine {
        scale: f64,
        offset: f64,
    },
    Reduce {
        op: Reduce,
        axes: Vec<usize>,
        keepdims: bool,
    },
    PixelShuffle(i64),
    Random {
        normal: bool,
    },
    /// The input reversed along port axis `axis` (a recurrent layer's backward direction).
    Flip {
        axis: usize,
    },
    /// One recurrent layer in one direction, forward in time, on `[batch, time, input]`: its
    /// outputs are the sequence `[batch, time, hidden]`, the final `h` `[batch, hidden]` and
    /// an LSTM's final `c`.
    Cell(PortCell),
    /// Multi-head attention on batch-first query, key and value `[batch, ·, features]`: its
    /// outputs are `[batch, L, output]` and each head's probabilities `[batch, heads, L, S]`.
    Attention(PortAttention),
}

/// One recurrent layer in one direction (see [`PortOp::Cell`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PortCell {
    pub cell: CellKind,
    pub input: i64,
    pub hidden: i64,
    pub activation: Activation,
    pub recurrent_activation: Activation,
    pub bias: bool,
}

/// Multi-head attention's sizes (see [`PortOp::Attention`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PortAttention {
    pub heads: i64,
    pub key_dim: i64,
    pub value_dim: i64,
    /// The query's, key's and value's features, and the output's.
    pub query: i64,
    pub key: i64,
    pub value: i64,
    pub output: i64,
    pub bias: bool,
}

/// A convolution through its single-layer plan; `spec` is at the real input size.
#[derive(Clone, Debug, PartialEq)]
pub struct PortConv<P> {
    pub plan: Plan<P>,
    pub spec: LayerSpec,
    pub conv: Conv,
    pub in_channels: i64,
}

impl<P> PortConv<P> {
    /// The number of spatial dimensions.
    pub fn rank(&self) -> usize {
        self.spec.input.len()
    }

    /// The output channels and the group count.
    pub fn out_and_groups(&self) -> (i64, i64) {
        self.conv.out_and_groups(self.in_channels)
    }
}

/// A layer normalisation over the trailing axes of `shape`.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerNorm {
    pub shape: Vec<i64>,
    pub eps: f64,
    pub center: bool,
    pub scale: bool,
}

impl LayerNorm {
    /// The normalised axes, counted from the end (`[-2, -1]`).
    pub fn axes(&self) -> Vec<i64> {
        (-(self.shape.len() as i64)..0).collect()
    }
}

/// One step of the port.
#[derive(Clone, Debug, PartialEq)]
pub struct PortStep<P> {
    /// The source node it computes (none for an inserted transpose).
    pub node: Option<NodeId>,
    /// The target name (a module attribute, a layer name, a params key): the source's name
    /// made an identifier.
    pub name: String,
    pub inputs: Vec<Var>,
    pub outputs: Vec<Var>,
    pub op: PortOp<P>,
}

/// How one source layer's weights reach the port.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadKind {
    /// A convolution: `rank` spatial axes; depthwise and separable as Keras has them.
    Conv {
        transposed: bool,
        rank: usize,
        groups: i64,
        depthwise: Option<i64>,
        separable: bool,
        bias: bool,
        /// The port adds the bias apart (after a crop).
        bias_apart: bool,
        /// The port takes the kernel zero-inserted with this dilation.
        dilate: Option<Vec<i64>>,
    },
    Dense {
        bias: bool,
        /// The port's flatten order differs from the source's.
        flatten: Option<FlatOrder>,
    },
    BatchNorm {
        features: i64,
        center: bool,
        scale: bool,
    },
    LayerNorm {
        center: bool,
        scale: bool,
    },
    GroupNorm,
    /// A Keras `Normalization`'s statistics (its weights), read in the source's broadcast
    /// shape and taken to the port's order: port axis `i` holds source axis `perm[i]`.
    Standardize {
        perm: Vec<usize>,
    },
    /// A `LayerScale`'s weight over the source's last axis, taken to the port's order.
    LayerScale {
        perm: Vec<usize>,
    },
    /// A learned tensor: where the source keeps it, its full-rank source shape (the stored
    /// weight reshaped to it: only axes of one added) and the port's order of those axes.
    Learned {
        weight: WeightAt,
        full: Vec<i64>,
        perm: Vec<usize>,
    },
    /// With torch's `max_norm`: targets without it get the rows rescaled when copied.
    Embedding {
        max_norm: Option<f64>,
    },
    /// One layer and direction of a recurrent layer: the source's `layer` (torch's
    /// `weight_ih_l{layer}`, `_reverse` for the backward direction; Keras's `cell`, or a
    /// `Bidirectional`'s `forward_layer` / `backward_layer`), read as torch's `w_ih`, `w_hh`,
    /// `b_ih`, `b_hh` (gates in torch's order).
    Cell {
        cell: CellKind,
        layer: i64,
        reverse: bool,
        bidirectional: bool,
        bias: bool,
        hidden: i64,
    },
    /// Multi-head attention's projections, read as torch-layout `wq`, `wk`, `wv` (`[heads *
    /// dim, features]`), `wo` (`[output, heads * value_dim]`) and their biases.
    Attention {
        heads: i64,
        key_dim: i64,
        value_dim: i64,
        bias: bool,
    },
}

/// A weight copy: the source node (its name finds the source layer) and the port step.
#[derive(Clone, Debug, PartialEq)]
pub struct Load {
    pub node: NodeId,
    pub step: usize,
    pub kind: LoadKind,
}

/// A port input or output: its variable and how the port's tensor relates to the source's.
#[derive(Clone, Debug, PartialEq)]
pub struct Port {
    pub var: Var,
    pub name: String,
    pub tensor: PortTensor,
}

/// The lowered model.
#[derive(Clone, Debug, PartialEq)]
pub struct PortPlan<P> {
    pub source: Framework,
    pub target: Framework,
    pub inputs: Vec<Port>,
    pub steps: Vec<PortStep<P>>,
    pub outputs: Vec<Port>,
    pub loads: Vec<Load>,
    /// Each port variable's tensor.
    pub tensors: Vec<PortTensor>,
    /// Outputs that depend on a random op (left out of the self-check's comparison).
    pub random: Vec<bool>,
}

impl<P> PortPlan<P> {
    /// Whether the port is one path: one input, each step reading the one before.
    pub fn is_chain(&self) -> bool {
        let mut current = match self.inputs.as_slice() {
            [one] => one.var,
            _ => return false,
        };
        for s in &self.steps {
            if s.inputs != [current] || s.outputs.len() != 1 {
                return false;
            }
            current = s.outputs[0];
        }
        self.outputs.len() == 1 && self.outputs[0].var == current
    }

    /// The shape of a step's `k`-th input (empty where it has none).
    pub fn input_shape(&self, step: &PortStep<P>, k: usize) -> &[i64] {
        step.inputs
            .get(k)
            .and_then(|v| self.tensors.get(v.0))
            .map_or(&[], |t| &t.shape)
    }

    /// The shape of a step's (first) output (empty where it has none).
    pub fn output_shape(&self, step: &PortStep<P>) -> &[i64] {
        step.outputs
            .first()
            .and_then(|v| self.tensors.get(v.0))
            .map_or(&[], |t| &t.shape)
    }

    /// What the self-check reads of it.
    pub fn view(&self) -> PlanView {
        PlanView {
            source: self.source,
            target: self.target,
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
            loads: self.loads.clone(),
            random: self.random.clone(),
        }
    }
}

/// What the self-check reads of a plan, whatever the target's padding type.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanView {
    pub source: Framework,
    pub target: Framework,
    pub inputs: Vec<Port>,
    pub outputs: Vec<Port>,
    pub loads: Vec<Load>,
    pub random: Vec<bool>,
}

/// Whether a target keeps channels first.
pub fn target_first(target: Framework) -> bool {
    matches!(target, Framework::Torch | Framework::Jax | Framework::Onnx)
}

/// The port order of the target's layout for a rank-`r` map: port axis `i` holds source axis
/// `native(r)[i]`.
pub fn native_perm(source: Framework, target: Framework, r: usize) -> Vec<usize> {
    let identity: Vec<usize> = (0..r).collect();
    if r < 3 || channels_last(source) != target_first(target) {
        return identity;
    }
    if channels_last(source) {
        // NHWC -> NCHW: [0, r-1, 1, ..., r-2].
        std::iter::once(0)
            .chain(std::iter::once(r - 1))
            .chain(1..r - 1)
            .collect()
    } else {
        // NCHW -> NHWC: [0, 2, ..., r-1, 1].
        std::iter::once(0)
            .chain(2..r)
            .chain(std::iter::once(1))
            .collect()
    }
}

/// A name usable as a Python identifier and attribute.
pub fn identifier(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert_str(0, "layer_");
    }
    if matches!(
        s.as_str(),
        "x" | "model"
            | "input"
            | "forward"
            | "self"
            | "params"
            | "lambda"
            | "def"
            | "class"
            | "in"
            | "is"
            | "if"
            | "or"
            | "and"
            | "not"
            | "pass"
            | "for"
            | "return"
    ) {
        s.push('_');
    }
    s
}

struct Lowering<'g, P> {
    g: &'g Graph,
    plan: PortPlan<P>,
    /// The port variable of each source edge.
    vars: HashMap<Edge, Var>,
    used_names: HashMap<String, usize>,
    consumers: Vec<Vec<NodeId>>,
    random: Vec<bool>,
}

impl<P: Spelling> Lowering<'_, P> {
    fn var(&mut self, t: PortTensor, random: bool) -> Var {
        self.plan.tensors.push(t);
        self.random.push(random);
        Var(self.plan.tensors.len() - 1)
    }

    fn tensor(&self, v: Var) -> &PortTensor {
        &self.plan.tensors[v.0]
    }

    fn name(&mut self, source: &str) -> String {
        // A name not given yet: `conv2d`, else `conv2d_1`, `conv2d_2`... past any taken.
        let base = identifier(source);
        let mut n = self.used_names.get(&base).copied().unwrap_or(0);
        loop {
            let name = if n == 0 {
                base.clone()
            } else {
                format!("{base}_{n}")
            };
            n += 1;
            if !self.used_names.contains_key(&name) {
                self.used_names.insert(base.clone(), n);
                self.used_names.entry(name.clone()).or_insert(1);
                return name;
            }
        }
    }

    fn push(
        &mut self,
        node: Option<NodeId>,
        name: String,
        inputs: Vec<Var>,
        op: PortOp<P>,
        out: Vec<PortTensor>,
    ) -> Vec<Var> {
        let random = inputs.iter().any(|v| self.random[v.0]) || matches!(op, PortOp::Random { .. });
        let outputs: Vec<Var> = out.into_iter().map(|t| self.var(t, random)).collect();
        self.plan.steps.push(PortStep {
            node,
            name,
            inputs,
            outputs: outputs.clone(),
            op,
        });
        outputs
    }

    /// `v` in the order `want` (a transpose when it is not already).
    /// Each of `vs` in the source's order of its axes (a transpose where a port order differs).
    fn in_source_order(&mut self, vs: &[Var], name: &str) -> Vec<Var> {
        vs.iter()
            .map(|&v| {
                let k = self.tensor(v).perm.len();
                self.order(v, &(0..k).collect::<Vec<_>>(), name)
            })
            .collect()
    }

    fn order(&mut self, v: Var, want: &[usize], name: &str) -> Var {
        let t = self.tensor(v).clone();
        if t.perm == want {
            return v;
        }
        let q: Vec<usize> = want
            .iter()
            .map(|a| t.perm.iter().position(|p| p == a).unwrap_or(0))
            .collect();
        let shape = q.iter().map(|&i| t.shape[i]).collect();
        let name = self.name(&format!("{name}_transpose"));
        self.push(
            None,
            name,
            vec![v],
            PortOp::Transpose(q),
            vec![PortTensor {
                shape,
                perm: want.to_vec(),
                flat: None,
            }],
        )[0]
    }

    /// The port axis holding source axis `a` (negative counts from the end).
    fn port_axis(&self, v: Var, a: i64, line: usize) -> Result<usize, PortError> {
        let t = self.tensor(v);
        let source = axis(a, t.perm.len()).map_err(|m| PortError::at(line, m))?;
        Ok(t.perm.iter().position(|&p| p == source).unwrap_or(source))
    }

    fn native(&self, r: usize) -> Vec<usize> {
        native_perm(self.plan.source, self.plan.target, r)
    }

    /// A tensor of source shape `shape` in port order `perm`.
    fn port_tensor(shape: &[i64], perm: &[usize]) -> PortTensor {
        PortTensor {
            shape: perm
                .iter()
                .map(|&a| shape.get(a).copied().unwrap_or(1))
                .collect(),
            perm: perm.to_vec(),
            flat: None,
        }
    }
}

/// `values` (row-major over `shape`) in the order `perm` (axis `i` of the result is axis
/// `perm[i]` of `shape`); `None` when their count is not the shape's.
fn transposed(values: &[f64], shape: &[i64], perm: &[usize]) -> Option<Vec<f64>> {
    let sizes: Vec<usize> = shape
        .iter()
        .map(|&d| usize::try_from(d).ok())
        .collect::<Option<_>>()?;
    if values.len() != sizes.iter().product::<usize>() || perm.len() != sizes.len() {
        return None;
    }
    // The stride of each source axis, then each port position's source offset.
    let mut strides = vec![1; sizes.len()];
    for a in (0..sizes.len().saturating_sub(1)).rev() {
        strides[a] = strides[a + 1] * sizes[a + 1];
    }
    let port: Vec<usize> = perm.iter().map(|&a| sizes[a]).collect();
    let mut index = vec![0; port.len()];
    let mut out = Vec::with_capacity(values.len());
    for _ in 0..values.len() {
        let offset: usize = index.iter().zip(perm).map(|(&i, &a)| i * strides[a]).sum();
        out.push(values[offset]);
        for k in (0..index.len()).rev() {
            index[k] += 1;
            if index[k] < port[k] {
                break;
            }
            index[k] = 0;
        }
    }
    Some(out)
}

/// Lowers `g` for the target of `P`.
pub fn lower_graph<P: Spelling>(g: &Graph) -> Result<PortPlan<P>, PortError> {
    let target = <P::Target as crate::codegen::Target>::CAN.framework;
    let mut lw = Lowering {
        g,
        plan: PortPlan {
            source: g.framework,
            target,
            inputs: Vec::new(),
            steps: Vec::new(),
            outputs: Vec::new(),
            loads: Vec::new(),
            tensors: Vec::new(),
            random: Vec::new(),
        },
        vars: HashMap::new(),
        used_names: HashMap::new(),
        consumers: g.consumers(),
        random: Vec::new(),
    };
    for (i, node) in g.nodes.iter().enumerate() {
        let id = NodeId(i);
        if let Some(e) = &node.inferred.error {
            return Err(PortError::Refused {
                line: node.source.call_line.unwrap_or(node.source.line),
                name: node.name.clone(),
                reason: e.clone(),
            });
        }
        let line = node.source.call_line.unwrap_or(node.source.line);
        let Some(shapes) = node
            .inferred
            .outputs
            .iter()
            .cloned()
            .collect::<Option<Vec<_>>>()
        else {
            return Err(PortError::NoInput);
        };
        if let Op::Input = node.op {
            let shape = &shapes[0];
            let perm = lw.native(shape.len());
            let t = Lowering::<P>::port_tensor(shape, &perm);
            let name = lw.name(&node.name);
            let v = lw.var(t.clone(), false);
            lw.plan.inputs.push(Port {
                var: v,
                name,
                tensor: t,
            });
            lw.vars.insert(Edge::of(id), v);
            continue;
        }
        lower_node(&mut lw, id, &shapes, line)?;
    }
    for e in &g.outputs {
        let v = *lw.vars.get(e).ok_or_else(|| not_computed(g, *e))?;
        let t = lw.tensor(v).clone();
        let r = t.perm.len();
        // Outputs leave in the target's layout for maps, else in the source's order.
        let v = if t.perm == lw.native(r) || t.perm.iter().enumerate().all(|(i, &p)| i == p) {
            v
        } else {
            let identity: Vec<usize> = (0..r).collect();
            lw.order(v, &identity, &g.node(e.node).name.clone())
        };
        let name = identifier(&g.node(e.node).name);
        let tensor = lw.tensor(v).clone();
        lw.plan.random.push(lw.random[v.0]);
        lw.plan.outputs.push(Port {
            var: v,
            name,
            tensor,
        });
    }
    Ok(lw.plan)
}

fn lower_node<P: Spelling>(
    lw: &mut Lowering<P>,
    id: NodeId,
    shapes: &[Vec<i64>],
    line: usize,
) -> Result<(), PortError> {
    let g = lw.g;
    let node = g.node(id);
    let name = lw.name(&node.name);
    let source = lw.plan.source;
    let inputs: Vec<Var> = node
        .inputs
        .iter()
        .map(|e| lw.vars.get(e).copied().ok_or_else(|| not_computed(g, *e)))
        .collect::<Result<_, _>>()?;
    let out_shape = &shapes[0];
    let r = out_shape.len();
    let x = inputs.first().copied();
    let x_rank = x.map(|v| lw.tensor(v).perm.len()).unwrap_or(0);
    let identity = |n: usize| -> Vec<usize> { (0..n).collect() };
    let same_perm = |lw: &Lowering<P>, v: Var| lw.tensor(v).perm.clone();
    // A convolution's or pool's layer at its input size (`what` names it in the error), and
    // its single-layer plan.
    let lowered = |what: &str| -> Result<(LayerSpec, Plan<P>), PortError> {
        let spec = node
            .inferred
            .spec
            .clone()
            .ok_or_else(|| PortError::at(line, format!("the {what} has no input size")))?;
        crate::codegen::writable(&spec).map_err(|e| PortError::at(line, e.to_string()))?;
        let plan = lower::<P>(&spec, LowerOptions::default()).map_err(|e| PortError::Refused {
            line,
            name: node.name.clone(),
            reason: e.to_string(),
        })?;
        Ok((spec, plan))
    };
    // Most ops: one step, its output in the order `perm`.
    let single =
        |lw: &mut Lowering<P>, inputs: Vec<Var>, op: PortOp<P>, perm: Vec<usize>| -> Vec<Var> {
            let t = Lowering::<P>::port_tensor(out_shape, &perm);
            lw.push(Some(id), name.clone(), inputs, op, vec![t])
        };
    // The weights the self-check copies into this step (a shared layer's are its first use's).
    let load = |lw: &mut Lowering<P>, kind: LoadKind| {
        let step = lw.plan.steps.len();
        lw.plan.loads.push(Load {
            node: node.shares.unwrap_or(id),
            step,
            kind,
        });
    };
    let outs: Vec<Var> = match &node.op {
        Op::Input => unreachable!("inputs are lowered apart"),
        Op::Conv(conv) => {
            let x = lw.order(x.ok_or(PortError::NoInput)?, &lw.native(x_rank), &name);
            let (spec, plan) = lowered("convolution")?;
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let in_channels = in_shape
                .get(crate::model::shape::channel_axis(source, in_shape.len()))
                .copied()
                .unwrap_or(0);
            let rank = spec.input.len();
            let (groups, depthwise) = match conv.groups {
                Groups::Count(g) => (g, None),
                Groups::Depthwise { multiplier } => (in_channels, Some(multiplier)),
            };
            load(
                lw,
                LoadKind::Conv {
                    transposed: spec.op == crate::core::Op::ConvTranspose,
                    rank,
                    groups,
                    depthwise,
                    separable: conv.separable,
                    bias: conv.bias,
                    bias_apart: plan.adds_bias(),
                    dilate: plan.dilated_kernel().then(|| match &spec.dilation {
                        Some(Dims::Each(v)) => v.clone(),
                        Some(Dims::All(d)) => vec![*d; rank],
                        None => vec![1; rank],
                    }),
                },
            );
            let perm = lw.native(r);
            // A fused softmax is over the source's last axis (the channels): a step of its
            // own, its axis in the port's order.
            let mut conv = conv.clone();
            let softmax = match conv.activation {
                Some(Activation::Softmax) => Some(false),
                Some(Activation::LogSoftmax) => Some(true),
                _ => None,
            };
            if softmax.is_some() {
                conv.activation = None;
            }
            let out = single(
                lw,
                vec![x],
                PortOp::Conv(PortConv {
                    plan,
                    spec,
                    conv,
                    in_channels,
                }),
                perm.clone(),
            );
            if let Some(log) = softmax {
                let v = out[0];
                let axis = lw.port_axis(v, -1, line)?;
                let t = Lowering::<P>::port_tensor(out_shape, &perm);
                let sname = lw.name(&format!("{name}_softmax"));
                lw.push(
                    Some(id),
                    sname,
                    vec![v],
                    PortOp::Softmax { axis, log },
                    vec![t],
                )
            } else {
                out
            }
        }
        Op::Pool(_) => {
            let x = lw.order(x.ok_or(PortError::NoInput)?, &lw.native(x_rank), &name);
            let (spec, plan) = lowered("pool")?;
            let perm = lw.native(r);
            single(lw, vec![x], PortOp::Pool { plan, spec }, perm)
        }
        Op::LpPool { p, .. } => {
            // (sum |x|^p)^(1/p) over each window, padding counting zeros: |x|^p, a pool that
            // averages over every window's full kernel (padding counted), times the kernel's
            // size, to the 1/p. Every window lies inside the padded input unless it is in
            // ceil mode.
            let x = lw.order(x.ok_or(PortError::NoInput)?, &lw.native(x_rank), &name);
            let mut spec = node
                .inferred
                .spec
                .clone()
                .ok_or_else(|| PortError::at(line, "the LpPool has no input size"))?;
            let dilated = match &spec.dilation {
                Some(Dims::All(d)) => *d != 1,
                Some(Dims::Each(d)) => d.iter().any(|&d| d != 1),
                None => false,
            };
            if spec.ceil_mode == Some(true) || dilated {
                return Err(PortError::at(
                    line,
                    format!(
                        "{}: an LpPool in ceil mode or dilated is not ported by padlab (its windows past the padding are summed by no target's pool)",
                        node.name
                    ),
                ));
            }
            spec.count_include_pad = Some(true);
            crate::codegen::writable(&spec).map_err(|e| PortError::at(line, e.to_string()))?;
            let pool =
                lower::<P>(&spec, LowerOptions::default()).map_err(|e| PortError::Refused {
                    line,
                    name: node.name.clone(),
                    reason: e.to_string(),
                })?;
            let window = match &spec.kernel {
                Dims::All(k) => k.checked_pow(u32::try_from(spec.input.len()).unwrap_or(1)),
                Dims::Each(k) => k.iter().try_fold(1i64, |a, &b| a.checked_mul(b)),
            }
            .ok_or_else(|| PortError::at(line, "the LpPool's window overflows"))?;
            let perm = lw.native(r);
            let in_t = lw.tensor(x).clone();
            let mut v = x;
            let step = |lw: &mut Lowering<P>, v: Var, what: &str, op: PortOp<P>, t: PortTensor| {
                let step_name = if what.is_empty() {
                    name.clone()
                } else {
                    lw.name(&format!("{name}_{what}"))
                };
                lw.push(Some(id), step_name, vec![v], op, vec![t])[0]
            };
            let power = |e: f64| PortOp::Elementwise {
                op: Binary::Pow,
                constant: Some(e),
                constant_first: false,
            };
            if p % 2 == 1 {
                v = step(
                    lw,
                    v,
                    "abs",
                    PortOp::Activation(Activation::Abs),
                    in_t.clone(),
                );
            }
            if *p != 1 {
                v = step(lw, v, "power", power(*p as f64), in_t.clone());
            }
            let out = Lowering::<P>::port_tensor(out_shape, &perm);
            v = step(
                lw,
                v,
                "pool",
                PortOp::Pool { plan: pool, spec },
                out.clone(),
            );
            let sum = PortOp::Elementwise {
                op: Binary::Mul,
                constant: Some(window as f64),
                constant_first: false,
            };
            if *p == 1 {
                vec![step(lw, v, "", sum, out)]
            } else {
                v = step(lw, v, "sum", sum, out.clone());
                vec![step(lw, v, "", power(1.0 / *p as f64), out)]
            }
        }
        Op::AdaptivePool { max, .. } => {
            let x = lw.order(x.ok_or(PortError::NoInput)?, &lw.native(x_rank), &name);
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let (_, input) = crate::model::shape::split_map(source, &in_shape).unwrap_or_default();
            let (_, output) = crate::model::shape::split_map(source, out_shape).unwrap_or_default();
            let uniform = input
                .iter()
                .zip(&output)
                .all(|(&i, &o)| o > 0 && i % o == 0);
            let perm = lw.native(r);
            single(
                lw,
                vec![x],
                PortOp::AdaptivePool {
                    max: *max,
                    input,
                    output,
                    uniform,
                },
                perm,
            )
        }
        Op::GlobalPool { max, keepdims } => {
            let x = lw.order(x.ok_or(PortError::NoInput)?, &lw.native(x_rank), &name);
            let perm = if *keepdims { lw.native(r) } else { identity(r) };
            single(
                lw,
                vec![x],
                PortOp::GlobalPool {
                    max: *max,
                    keepdims: *keepdims,
                    rank: x_rank.saturating_sub(2),
                },
                perm,
            )
        }
        Op::Norm(Norm::Batch {
            axis: a,
            eps,
            momentum,
            center,
            scale,
            ..
        }) => {
            let x = x.ok_or(PortError::NoInput)?;
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let src_axis = axis(*a, in_shape.len()).map_err(|m| PortError::at(line, m))?;
            let features = in_shape[src_axis];
            // Over the channels, the target's own layer in its layout; else, over that axis.
            let channel = crate::model::shape::channel_axis(source, in_shape.len());
            let (x, native) = if src_axis == channel || in_shape.len() == 2 {
                let want = if in_shape.len() > 2 {
                    lw.native(x_rank)
                } else {
                    identity(x_rank)
                };
                (lw.order(x, &want, &name), true)
            } else {
                (x, false)
            };
            let port_axis = lw.port_axis(x, src_axis as i64, line)?;
            load(
                lw,
                LoadKind::BatchNorm {
                    features,
                    center: *center,
                    scale: *scale,
                },
            );
            let perm = same_perm(lw, x);
            single(
                lw,
                vec![x],
                PortOp::BatchNorm {
                    features,
                    axis: port_axis,
                    native,
                    eps: *eps,
                    momentum: *momentum,
                    center: *center,
                    scale: *scale,
                },
                perm,
            )
        }
        Op::Norm(Norm::Layer {
            axes,
            eps,
            center,
            scale,
            ..
        }) => {
            let x = lw.order(x.ok_or(PortError::NoInput)?, &identity(x_rank), &name);
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let mut idx: Vec<usize> = axes
                .iter()
                .map(|&a| axis(a, in_shape.len()))
                .collect::<Result<_, _>>()
                .map_err(|m| PortError::at(line, m))?;
            idx.sort_unstable();
            let trailing = idx
                .iter()
                .enumerate()
                .all(|(k, &i)| i == in_shape.len() - idx.len() + k);
            if !trailing {
                return Err(PortError::at(
                    line,
                    "a layer normalisation over axes that are not the last ones is not ported by padlab",
                ));
            }
            let shape: Vec<i64> = idx.iter().map(|&i| in_shape[i]).collect();
            load(
                lw,
                LoadKind::LayerNorm {
                    center: *center,
                    scale: *scale,
                },
            );
            single(
                lw,
                vec![x],
                PortOp::LayerNorm(LayerNorm {
                    shape,
                    eps: *eps,
                    center: *center,
                    scale: *scale,
                }),
                identity(r),
            )
        }
        Op::Norm(norm @ (Norm::Group { eps, affine, .. } | Norm::Instance { eps, affine, .. })) => {
            let x = lw.order(x.ok_or(PortError::NoInput)?, &lw.native(x_rank), &name);
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let channels = in_shape
                .get(crate::model::shape::channel_axis(source, in_shape.len()))
                .copied()
                .unwrap_or(0);
            if *affine {
                load(lw, LoadKind::GroupNorm);
            }
            let op = match norm {
                Norm::Group { groups, .. } => PortOp::GroupNorm {
                    groups: *groups,
                    channels,
                    eps: *eps,
                    affine: *affine,
                },
                _ => PortOp::InstanceNorm {
                    features: channels,
                    eps: *eps,
                    affine: *affine,
                },
            };
            let perm = lw.native(r);
            single(lw, vec![x], op, perm)
        }
        Op::Standardize(st) => {
            if st.invert {
                return Err(PortError::at(
                    line,
                    format!(
                        "{}: Normalization(invert=True) is not ported by padlab: it ports the normalisation (x - mean) / max(sqrt(variance), 1e-7), not its inverse",
                        node.name
                    ),
                ));
            }
            // Element-wise against broadcast statistics: in whatever order the input has.
            let x = x.ok_or(PortError::NoInput)?;
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let at = |m: String| PortError::at(line, m);
            let keep = kept_axes(st, in_shape.len()).map_err(at)?;
            let stats = stats_shape(st, &in_shape).map_err(at)?;
            let perm = same_perm(lw, x);
            let mut axes: Vec<usize> = keep
                .iter()
                .map(|&a| perm.iter().position(|&p| p == a).unwrap_or(a))
                .collect();
            axes.sort_unstable();
            let shape: Vec<i64> = perm.iter().map(|&a| stats[a]).collect();
            let values = match &st.stats {
                Stats::Given { mean, variance, .. } => {
                    let to_port = |v: &[f64]| {
                        transposed(v, &stats, &perm).ok_or_else(|| {
                            PortError::at(line, "Normalization: mean and variance of other sizes")
                        })
                    };
                    Some((to_port(mean)?, to_port(variance)?))
                }
                Stats::Weights => {
                    load(lw, LoadKind::Standardize { perm: perm.clone() });
                    None
                }
            };
            single(
                lw,
                vec![x],
                PortOp::Standardize {
                    axes,
                    shape,
                    values,
                },
                perm,
            )
        }
        Op::LayerScale { .. } => {
            // Element-wise against a broadcast weight: in whatever order the input has.
            let x = x.ok_or(PortError::NoInput)?;
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let last = in_shape.len().saturating_sub(1);
            let perm = same_perm(lw, x);
            let shape: Vec<i64> = perm
                .iter()
                .map(|&a| if a == last { in_shape[a] } else { 1 })
                .collect();
            load(lw, LoadKind::LayerScale { perm: perm.clone() });
            single(lw, vec![x], PortOp::LayerScale { shape }, perm)
        }
        Op::Activation(a) => {
            let x = x.ok_or(PortError::NoInput)?;
            // A fused softmax is over the source's last axis.
            let x = if matches!(a, Activation::Softmax | Activation::LogSoftmax) {
                lw.order(x, &identity(x_rank), &name)
            } else {
                x
            };
            let perm = same_perm(lw, x);
            single(lw, vec![x], PortOp::Activation(*a), perm)
        }
        Op::Softmax { axis: a, log } => {
            let x = x.ok_or(PortError::NoInput)?;
            let port_axis = lw.port_axis(x, *a, line)?;
            let perm = same_perm(lw, x);
            single(
                lw,
                vec![x],
                PortOp::Softmax {
                    axis: port_axis,
                    log: *log,
                },
                perm,
            )
        }
        Op::Dropout { rate, .. } => {
            let x = x.ok_or(PortError::NoInput)?;
            let perm = same_perm(lw, x);
            single(lw, vec![x], PortOp::Dropout { rate: *rate }, perm)
        }
        Op::Identity => {
            let x = x.ok_or(PortError::NoInput)?;
            let perm = same_perm(lw, x);
            single(lw, vec![x], PortOp::Identity, perm)
        }
        Op::Affine { scale, offset } => {
            let x = x.ok_or(PortError::NoInput)?;
            let perm = same_perm(lw, x);
            single(
                lw,
                vec![x],
                PortOp::Affine {
                    scale: *scale,
                    offset: *offset,
                },
                perm,
            )
        }
        Op::Random { normal } => {
            let x = x.ok_or(PortError::NoInput)?;
            let perm = same_perm(lw, x);
            single(lw, vec![x], PortOp::Random { normal: *normal }, perm)
        }
        Op::Flatten { .. } | Op::Reshape { .. } => {
            let x = x.ok_or(PortError::NoInput)?;
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let t = lw.tensor(x).clone();
            // A full flatten to [N, features] read only by dense layers keeps the target's order.
            let full = r == 2 && out_shape.first() == in_shape.first() && in_shape.len() > 2;
            let dense_only = !lw.consumers[id.0].is_empty()
                && lw.consumers[id.0]
                    .iter()
                    .all(|c| matches!(g.node(*c).op, Op::Dense { .. }))
                && !g.outputs.iter().any(|e| e.node == id);
            if full && dense_only && t.perm != identity(x_rank) && t.perm == lw.native(x_rank) {
                let (channels, spatial) =
                    crate::model::shape::split_map(source, &in_shape).unwrap_or_default();
                let flat = Some(FlatOrder {
                    channels,
                    spatial,
                    source_last: channels_last(source),
                });
                let op = PortOp::Flatten {
                    start: 1,
                    end: x_rank - 1,
                };
                let out = PortTensor {
                    shape: out_shape.clone(),
                    perm: identity(2),
                    flat,
                };
                lw.push(Some(id), name.clone(), vec![x], op, vec![out])
            } else {
                let x = lw.order(x, &identity(x_rank), &name);
                let op = match &node.op {
                    Op::Flatten { start, end } => {
                        let s = axis(*start, x_rank).map_err(|m| PortError::at(line, m))?;
                        let e = axis(*end, x_rank).map_err(|m| PortError::at(line, m))?;
                        PortOp::Flatten { start: s, end: e }
                    }
                    _ => {
                        let mut shape = out_shape.clone();
                        if let Some(b) = shape.first_mut() {
                            *b = -1;
                        }
                        PortOp::Reshape { shape }
                    }
                };
                single(lw, vec![x], op, identity(r))
            }
        }
        Op::Permute(p) => {
            // The port's tensor stays as it is; only the bookkeeping of its axes changes.
            let x = x.ok_or(PortError::NoInput)?;
            let t = lw.tensor(x).clone();
            // Source output axis j is source input axis p[j]; port axis i holds source input
            // axis t.perm[i], which is source output axis position of t.perm[i] in p.
            let perm: Vec<usize> = t
                .perm
                .iter()
                .map(|a| p.iter().position(|b| b == a).unwrap_or(*a))
                .collect();
            lw.vars.insert(Edge::of(id), x);
            let retagged = lw.var(
                PortTensor {
                    shape: t.shape.clone(),
                    perm,
                    flat: None,
                },
                lw.random[x.0],
            );
            // A retag is a free step: it names the source permute for the reader.
            lw.push(Some(id), name.clone(), vec![x], PortOp::Alias, vec![]);
            if let Some(last) = lw.plan.steps.last_mut() {
                last.outputs = vec![retagged];
            }
            vec![retagged]
        }
        Op::Squeeze(axes) => {
            let x = x.ok_or(PortError::NoInput)?;
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let src: Vec<usize> = match axes {
                None => (0..in_shape.len()).filter(|&i| in_shape[i] == 1).collect(),
                Some(a) => a
                    .iter()
                    .map(|&k| axis(k, in_shape.len()))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|m| PortError::at(line, m))?
                    .into_iter()
                    .filter(|&i| in_shape[i] == 1)
                    .collect(),
            };
            let t = lw.tensor(x).clone();
            let port: Vec<usize> = src
                .iter()
                .map(|a| t.perm.iter().position(|p| p == a).unwrap_or(*a))
                .collect();
            let perm = without(&t.perm, &src);
            single(lw, vec![x], PortOp::Squeeze(port), perm)
        }
        Op::Unsqueeze(_) => {
            let x = lw.order(x.ok_or(PortError::NoInput)?, &identity(x_rank), &name);
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let Op::Unsqueeze(axes) = &node.op else {
                unreachable!("matched")
            };
            let idx: Vec<usize> = axes
                .iter()
                .map(|&a| axis(a, in_shape.len() + axes.len()))
                .collect::<Result<_, _>>()
                .map_err(|m| PortError::at(line, m))?;
            single(lw, vec![x], PortOp::Unsqueeze(idx), identity(r))
        }
        Op::Slice(axes) => {
            let x = x.ok_or(PortError::NoInput)?;
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let t = lw.tensor(x).clone();
            let mut port = Vec::new();
            let mut dropped = Vec::new();
            for s in axes {
                let a = axis(s.axis, in_shape.len()).map_err(|m| PortError::at(line, m))?;
                let n = in_shape[a];
                let clamp = |v: i64| {
                    let v = if v < 0 { v.saturating_add(n) } else { v };
                    v.clamp(0, n)
                };
                let (start, end) = if s.index {
                    let i = s.start.unwrap_or(0);
                    let i = if i < 0 { i + n } else { i };
                    (i, i + 1)
                } else {
                    (s.start.map_or(0, clamp), s.end.map_or(n, clamp))
                };
                if s.index {
                    dropped.push(a);
                }
                port.push((
                    t.perm.iter().position(|&p| p == a).unwrap_or(a),
                    start,
                    end,
                    s.step.max(1),
                    s.index,
                ));
            }
            let perm = without(&t.perm, &dropped);
            single(lw, vec![x], PortOp::Slice(port), perm)
        }
        Op::Take(axes) => {
            // Named axes: in whatever order the input has, one step per axis.
            let mut v = x.ok_or(PortError::NoInput)?;
            let last = axes.len().saturating_sub(1);
            for (k, (a, indices)) in axes.iter().enumerate() {
                let port_axis = lw.port_axis(v, *a, line)?;
                let mut t = lw.tensor(v).clone();
                t.flat = None;
                if let Some(size) = t.shape.get_mut(port_axis) {
                    *size = i64::try_from(indices.len()).unwrap_or(i64::MAX);
                }
                let step_name = if k == last {
                    name.clone()
                } else {
                    lw.name(&format!("{name}_{k}"))
                };
                let op = match progression(indices) {
                    Some((start, step)) if step > 0 => PortOp::Slice(vec![(
                        port_axis,
                        start,
                        start + step * (indices.len() as i64 - 1) + 1,
                        step,
                        false,
                    )]),
                    _ => PortOp::Take {
                        axis: port_axis,
                        indices: indices.clone(),
                    },
                };
                v = lw.push(Some(id), step_name, vec![v], op, vec![t])[0];
            }
            vec![v]
        }
        Op::Split { axis: a, sizes } => {
            let x = x.ok_or(PortError::NoInput)?;
            let port_axis = lw.port_axis(x, *a, line)?;
            let perm = same_perm(lw, x);
            let out: Vec<PortTensor> = shapes
                .iter()
                .map(|s| Lowering::<P>::port_tensor(s, &perm))
                .collect();
            lw.push(
                Some(id),
                name.clone(),
                vec![x],
                PortOp::Split {
                    axis: port_axis,
                    sizes: sizes.clone(),
                },
                out,
            )
        }
        Op::Concat { axis: a } => {
            let first = x.ok_or(PortError::NoInput)?;
            let want = same_perm(lw, first);
            let xs: Vec<Var> = inputs.iter().map(|&v| lw.order(v, &want, &name)).collect();
            let port_axis = lw.port_axis(xs[0], *a, line)?;
            single(lw, xs, PortOp::Concat { axis: port_axis }, want)
        }
        Op::Learned { op, shape, weight } => {
            let x = x.ok_or(PortError::NoInput)?;
            if let WeightAt::Owner(..) = weight {
                return Err(PortError::at(
                    line,
                    format!(
                        "{}: a learned tensor that is no parameter of the model is read, not ported",
                        node.name
                    ),
                ));
            }
            let Some(lead) = r.checked_sub(shape.len()) else {
                return Err(PortError::at(
                    line,
                    format!(
                        "{}: a learned tensor of more axes than its input is read, not ported",
                        node.name
                    ),
                ));
            };
            let full: Vec<i64> = std::iter::repeat_n(1, lead)
                .chain(shape.iter().copied())
                .collect();
            let perm = same_perm(lw, x);
            let port_shape: Vec<i64> = perm.iter().map(|&a| full[a]).collect();
            // A concatenation's axis, in the port's layout.
            let op = match *op {
                LearnedOp::Concat { axis: a, first } => LearnedOp::Concat {
                    axis: lw.port_axis(x, a, line)? as i64,
                    first,
                },
                other => other,
            };
            load(
                lw,
                LoadKind::Learned {
                    weight: weight.clone(),
                    full,
                    perm: perm.clone(),
                },
            );
            single(
                lw,
                vec![x],
                PortOp::Learned {
                    op,
                    shape: port_shape,
                },
                perm,
            )
        }
        Op::Stack { axis: a } => {
            let xs = lw.in_source_order(&inputs, &name);
            let at = axis(*a, r).map_err(|m| PortError::at(line, m))?;
            single(lw, xs, PortOp::Stack { axis: at }, identity(r))
        }
        Op::Expand(_) => {
            let x = x.ok_or(PortError::NoInput)?;
            if x_rank != r {
                return Err(PortError::at(
                    line,
                    format!(
                        "{}: an expand that adds leading axes is read, not ported",
                        node.name
                    ),
                ));
            }
            let x = lw.order(x, &identity(x_rank), &name);
            single(
                lw,
                vec![x],
                PortOp::Expand {
                    shape: out_shape.to_vec(),
                },
                identity(r),
            )
        }
        Op::Elementwise {
            op,
            constant,
            constant_first,
        } => {
            // One operand and no scalar: the other is a constant tensor (an ONNX bias `Add`
            // after a `MatMul`), which the op does not carry; ONNX `Mean` is not a sum.
            if inputs.len() == 1 && constant.is_none() {
                return Err(PortError::at(
                    line,
                    format!(
                        "{}: {} with a constant tensor operand (not a scalar) is read, not ported",
                        node.name, node.kind
                    ),
                ));
            }
            if source == Framework::Onnx && node.kind == "Mean" && inputs.len() > 1 {
                return Err(PortError::at(
                    line,
                    format!("{}: ONNX Mean is read, not ported", node.name),
                ));
            }
            let first = x.ok_or(PortError::NoInput)?;
            let ranks: Vec<usize> = inputs.iter().map(|v| lw.tensor(*v).perm.len()).collect();
            let perms_equal = inputs
                .iter()
                .all(|v| lw.tensor(*v).perm == lw.tensor(first).perm);
            let want = if ranks.iter().all(|&k| k == ranks[0]) && perms_equal {
                lw.tensor(first).perm.clone()
            } else if ranks.iter().all(|&k| k == ranks[0]) {
                lw.native(ranks[0])
            } else {
                identity(0)
            };
            let xs: Vec<Var> = inputs
                .iter()
                .map(|&v| {
                    let k = lw.tensor(v).perm.len();
                    if want.len() == k {
                        lw.order(v, &want, &name)
                    } else {
                        lw.order(v, &identity(k), &name)
                    }
                })
                .collect();
            let perm = if want.len() == r { want } else { identity(r) };
            single(
                lw,
                xs,
                PortOp::Elementwise {
                    op: *op,
                    constant: *constant,
                    constant_first: *constant_first,
                },
                perm,
            )
        }
        Op::Dense {
            in_features,
            units,
            bias,
            activation,
        } => {
            let x = x.ok_or(PortError::NoInput)?;
            let t = lw.tensor(x).clone();
            let x = if t.perm.len() > 2 {
                lw.order(x, &identity(x_rank), &name)
            } else {
                x
            };
            let flat = lw.tensor(x).flat.clone();
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let n = in_features.or(in_shape.last().copied()).unwrap_or(0);
            load(
                lw,
                LoadKind::Dense {
                    bias: *bias,
                    flatten: flat,
                },
            );
            single(
                lw,
                vec![x],
                PortOp::Dense {
                    in_features: n,
                    units: *units,
                    bias: *bias,
                    activation: *activation,
                },
                identity(r),
            )
        }
        Op::MatMul => {
            let xs = lw.in_source_order(&inputs, &name);
            single(lw, xs, PortOp::MatMul, identity(r))
        }
        Op::Embedding {
            vocab,
            dim,
            max_norm,
        } => {
            let x = lw.order(x.ok_or(PortError::NoInput)?, &identity(x_rank), &name);
            load(
                lw,
                LoadKind::Embedding {
                    max_norm: *max_norm,
                },
            );
            single(
                lw,
                vec![x],
                PortOp::Embedding {
                    vocab: *vocab,
                    dim: *dim,
                    max_norm: *max_norm,
                },
                identity(r),
            )
        }
        Op::Pad { pairs, fill } => {
            let x = x.ok_or(PortError::NoInput)?;
            let t = lw.tensor(x).clone();
            let port: Vec<(i64, i64)> = t
                .perm
                .iter()
                .map(|&a| pairs.get(a).copied().unwrap_or((0, 0)))
                .collect();
            let perm = t.perm.clone();
            single(
                lw,
                vec![x],
                PortOp::Pad {
                    pairs: port,
                    fill: *fill,
                },
                perm,
            )
        }
        Op::Upsample {
            scale,
            mode,
            align_corners,
            ..
        } => {
            let x = lw.order(x.ok_or(PortError::NoInput)?, &lw.native(x_rank), &name);
            let in_shape = g.shape_of(node.inputs[0]).cloned().unwrap_or_default();
            let (_, input) = crate::model::shape::split_map(source, &in_shape).unwrap_or_default();
            let (_, output) = crate::model::shape::split_map(source, out_shape).unwrap_or_default();
            let perm = lw.native(r);
            single(
                lw,
                vec![x],
                PortOp::Upsample {
                    input,
                    output,
                    scale: scale.clone(),
                    mode: *mode,
                    align_corners: *align_corners,
                },
                perm,
            )
        }
        Op::Reduce { op, axes, keepdims } => {
            let x = x.ok_or(PortError::NoInput)?;
            let t = lw.tensor(x).clone();
            let src: Vec<usize> = if axes.is_empty() {
                (0..x_rank).collect()
            } else {
                axes.iter()
                    .map(|&a| axis(a, x_rank))
                    .collect::<Result<_, _>>()
                    .map_err(|m| PortError::at(line, m))?
            };
            let port: Vec<usize> = src
                .iter()
                .map(|a| t.perm.iter().position(|p| p == a).unwrap_or(*a))
                .collect();
            let perm = if *keepdims {
                t.perm.clone()
            } else {
                renumber(
                    &t.perm
                        .iter()
                        .copied()
                        .filter(|a| !src.contains(a))
                        .collect::<Vec<_>>(),
                )
            };
            single(
                lw,
                vec![x],
                PortOp::Reduce {
                    op: *op,
                    axes: port,
                    keepdims: *keepdims,
                },
                perm,
            )
        }
        Op::PixelShuffle(f) => {
            let x = lw.order(x.ok_or(PortError::NoInput)?, &lw.native(x_rank), &name);
            let perm = lw.native(r);
            single(lw, vec![x], PortOp::PixelShuffle(*f), perm)
        }
        Op::DepthToSpace(block) | Op::SpaceToDepth(block) => {
            // No target has both orders natively: the blocks are moved by a reshape, a
            // transpose and a reshape in the target's layout, worked out here once.
            let x = lw.order(x.ok_or(PortError::NoInput)?, &lw.native(x_rank), &name);
            let to_space = matches!(node.op, Op::DepthToSpace(_));
            let shape = lw.tensor(x).shape.clone();
            let first = target_first(lw.plan.target);
            let Some((split, order)) = block_moves(&shape, *block, to_space, first) else {
                return Err(PortError::at(
                    line,
                    format!(
                        "{}: {} of a tensor that is not a 2-D map is not ported",
                        node.name, node.kind
                    ),
                ));
            };
            let tensor = |shape: Vec<i64>| PortTensor {
                perm: (0..shape.len()).collect(),
                shape,
                flat: None,
            };
            let batch_free = |v: &[i64]| -> Vec<i64> {
                std::iter::once(-1)
                    .chain(v.iter().skip(1).copied())
                    .collect()
            };
            let moved: Vec<i64> = order.iter().map(|&a| split[a]).collect();
            let split_name = lw.name(&format!("{name}_blocks"));
            let v = lw.push(
                Some(id),
                split_name,
                vec![x],
                PortOp::Reshape {
                    shape: batch_free(&split),
                },
                vec![tensor(split.clone())],
            )[0];
            let move_name = lw.name(&format!("{name}_move"));
            let v = lw.push(
                Some(id),
                move_name,
                vec![v],
                PortOp::Transpose(order),
                vec![tensor(moved)],
            )[0];
            let perm = lw.native(r);
            let out = Lowering::<P>::port_tensor(out_shape, &perm);
            let whole = batch_free(&out.shape);
            lw.push(
                Some(id),
                name.clone(),
                vec![v],
                PortOp::Reshape { shape: whole },
                vec![out],
            )
        }
        Op::Recurrent(rec) => {
            let x = lw.order(x.ok_or(PortError::NoInput)?, &identity(x_rank), &name);
            lower_recurrent(lw, id, &name, rec, x, shapes, line)?
        }
        Op::Attention(att) => {
            let xs: Vec<Var> = inputs
                .iter()
                .map(|&v| {
                    let k = lw.tensor(v).perm.len();
                    lw.order(v, &identity(k), &name)
                })
                .collect();
            lower_attention(lw, id, &name, att, &xs, shapes, line)?
        }
        Op::Read { what, .. } => {
            return Err(PortError::at(line, format!("{}: {what}", node.name)));
        }
        // A pasted Keras Normalization that `adapt()` fills: the code has its shape only.
        Op::Opaque { what } if node.kind == "Normalization" => {
            return Err(PortError::at(
                line,
                format!(
                    "{what} is not ported by padlab: its mean and variance are weights the code does not hold (port the saved .keras or .h5 file, which keeps them, or give mean= and variance= as numbers)"
                ),
            ));
        }
        Op::Opaque { what } => {
            return Err(PortError::at(
                line,
                format!("{what} is not ported by padlab"),
            ));
        }
    };
    for (k, v) in outs.into_iter().enumerate() {
        lw.vars.insert(
            Edge {
                node: id,
                output: k,
            },
            v,
        );
    }
    Ok(())
}

/// A port tensor of `shape` whose axes are the source's (an internal value of a step).
fn plain(shape: Vec<i64>) -> PortTensor {
    PortTensor {
        perm: (0..shape.len()).collect(),
        shape,
        flat: None,
    }
}

/// Whether output `k` of node `id` is read (by a node or as a model output).
fn is_read(g: &Graph, id: NodeId, k: usize) -> bool {
    let e = Edge {
        node: id,
        output: k,
    };
    g.outputs.contains(&e) || g.nodes.iter().any(|n| n.inputs.contains(&e))
}

/// A recurrent layer as one [`PortOp::Cell`] per layer and direction on batch-first
/// sequences (a backward direction reads its input flipped in time, and its sequence is
/// flipped back where the source aligns it), then the source's outputs made of them: torch's
/// `out` (the last layer's directions concatenated), `h_n`/`c_n` (the final states stacked);
/// Keras's sequence or last step merged as `merge_mode` says, and the states.
fn lower_recurrent<P: Spelling>(
    lw: &mut Lowering<P>,
    id: NodeId,
    name: &str,
    rec: &Recurrent,
    x: Var,
    shapes: &[Vec<i64>],
    line: usize,
) -> Result<Vec<Var>, PortError> {
    let g = lw.g;
    // The shapes the rules gave: a sequence `[·, ·, features]` in, every output known.
    if lw.tensor(x).shape.len() != 3
        || shapes.len() != crate::model::shape::recurrent_outputs(rec)
        || shapes.iter().any(Vec::is_empty)
    {
        return Err(PortError::at(
            line,
            format!("{name}: a recurrent layer is ported on a known [batch, time, features] input"),
        ));
    }
    let mut step = |lw: &mut Lowering<P>,
                    suffix: &str,
                    inputs: Vec<Var>,
                    op: PortOp<P>,
                    out: Vec<Vec<i64>>| {
        let n = if suffix.is_empty() {
            lw.name(name)
        } else {
            lw.name(&format!("{name}_{suffix}"))
        };
        lw.push(
            Some(id),
            n,
            inputs,
            op,
            out.into_iter().map(plain).collect(),
        )
    };
    let (seq_first, keras) = match rec.form {
        RecurrentForm::Torch { batch_first } => (!batch_first, None),
        RecurrentForm::Keras {
            sequences,
            states,
            go_backwards,
            merge,
        } => (false, Some((sequences, states, go_backwards, merge))),
    };
    let mut x = x;
    let mut shape = lw.tensor(x).shape.clone();
    if seq_first {
        shape.swap(0, 1);
        x = step(
            lw,
            "batch_first",
            vec![x],
            PortOp::Transpose(vec![1, 0, 2]),
            vec![shape.clone()],
        )[0];
    }
    let (n, t) = (shape[0], shape[1]);
    let h = rec.hidden;
    let d = rec.directions();
    let go_backwards = keras.is_some_and(|k| k.2);
    let several = rec.layers > 1 || d > 1;
    // Per layer, per direction: (sequence as computed, h, c), and whether it read backwards.
    let mut last: Vec<(Var, Var, Option<Var>, bool)> = Vec::new();
    let mut states: Vec<(Var, Option<Var>)> = Vec::new();
    let mut input = x;
    for layer in 0..rec.layers {
        let features = lw.tensor(input).shape[2];
        let mut dirs = Vec::new();
        for dir in 0..d {
            let reverse = dir == 1;
            let backwards = reverse || go_backwards;
            let tag = match (several, reverse) {
                (false, _) => String::new(),
                (true, false) => format!("l{layer}"),
                (true, true) => format!("l{layer}_reverse"),
            };
            let read = if backwards {
                let flip = if tag.is_empty() {
                    "flip".to_string()
                } else {
                    format!("{tag}_flip")
                };
                step(
                    lw,
                    &flip,
                    vec![input],
                    PortOp::Flip { axis: 1 },
                    vec![vec![n, t, features]],
                )[0]
            } else {
                input
            };
            lw.plan.loads.push(Load {
                node: g.node(id).shares.unwrap_or(id),
                step: lw.plan.steps.len(),
                kind: LoadKind::Cell {
                    cell: rec.cell,
                    layer,
                    reverse,
                    bidirectional: rec.bidirectional,
                    bias: rec.bias,
                    hidden: h,
                },
            });
            let mut outs = vec![vec![n, t, h], vec![n, h]];
            if rec.cell == CellKind::Lstm {
                outs.push(vec![n, h]);
            }
            let op = PortOp::Cell(PortCell {
                cell: rec.cell,
                input: features,
                hidden: h,
                activation: rec.activation,
                recurrent_activation: rec.recurrent_activation,
                bias: rec.bias,
            });
            let o = step(lw, &tag, vec![read], op, outs);
            states.push((o[1], o.get(2).copied()));
            dirs.push((o[0], o[1], o.get(2).copied(), backwards));
        }
        // What the next layer reads: the directions aligned in time, concatenated.
        if layer + 1 < rec.layers {
            let aligned = align(lw, &mut step, &dirs, layer, t)?;
            input = if aligned.len() == 1 {
                aligned[0]
            } else {
                step(
                    lw,
                    &format!("l{layer}_out"),
                    aligned,
                    PortOp::Concat { axis: 2 },
                    vec![vec![n, t, d * h]],
                )[0]
            };
        }
        last = dirs;
    }
    let mut out = Vec::new();
    match keras {
        None => {
            let aligned = align(lw, &mut step, &last, rec.layers - 1, t)?;
            let seq = if aligned.len() == 1 {
                aligned[0]
            } else {
                step(
                    lw,
                    "out",
                    aligned,
                    PortOp::Concat { axis: 2 },
                    vec![vec![n, t, d * h]],
                )[0]
            };
            // The sequence leaves batch first: its axes are the source's `[seq, batch, ·]`
            // swapped, which the steps after it read through `perm`.
            let seq = if seq_first {
                let t = lw.tensor(seq).clone();
                let v = lw.var(
                    PortTensor {
                        perm: vec![1, 0, 2],
                        ..t
                    },
                    false,
                );
                let alias = lw_name(lw, name, "out_seq_first");
                lw.push(Some(id), alias, vec![seq], PortOp::Alias, vec![]);
                if let Some(s) = lw.plan.steps.last_mut() {
                    s.outputs = vec![v];
                }
                v
            } else {
                seq
            };
            out.push(seq);
            for k in 0..rec.cell.states() {
                if !is_read(g, id, k + 1) {
                    // Nothing reads it: a placeholder the port never computes.
                    out.push(seq);
                    continue;
                }
                let parts: Vec<Var> = states
                    .iter()
                    .filter_map(|(hv, cv)| if k == 0 { Some(*hv) } else { *cv })
                    .collect();
                let what = if k == 0 { "h_n" } else { "c_n" };
                out.push(
                    step(
                        lw,
                        what,
                        parts,
                        PortOp::Stack { axis: 0 },
                        vec![shapes[k + 1].clone()],
                    )[0],
                );
            }
        }
        Some((sequences, with_states, _, merge)) => {
            let mains: Vec<Var> = if sequences {
                if rec.bidirectional {
                    align(lw, &mut step, &last, 0, t)?
                } else {
                    vec![last[0].0]
                }
            } else {
                last.iter().map(|l| l.1).collect()
            };
            let shape0 = shapes[0].clone();
            match (mains.as_slice(), merge) {
                ([one], _) => out.push(*one),
                (_, Merge::Apart) => out.extend(mains.iter().copied()),
                (_, Merge::Concat) => {
                    let axis = shape0.len() - 1;
                    out.push(step(lw, "merge", mains, PortOp::Concat { axis }, vec![shape0])[0]);
                }
                (_, merge) => {
                    let op = |op: Binary, constant: Option<f64>| PortOp::Elementwise {
                        op,
                        constant,
                        constant_first: false,
                    };
                    let binary = if merge == Merge::Mul {
                        Binary::Mul
                    } else {
                        Binary::Add
                    };
                    let v = step(lw, "merge", mains, op(binary, None), vec![shape0.clone()])[0];
                    out.push(if merge == Merge::Ave {
                        step(
                            lw,
                            "average",
                            vec![v],
                            op(Binary::Div, Some(2.0)),
                            vec![shape0],
                        )[0]
                    } else {
                        v
                    });
                }
            }
            if with_states {
                for (hv, cv) in &states {
                    out.push(*hv);
                    if let Some(c) = cv {
                        out.push(*c);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// A fresh step name `{name}_{suffix}`.
fn lw_name<P: Spelling>(lw: &mut Lowering<P>, name: &str, suffix: &str) -> String {
    lw.name(&format!("{name}_{suffix}"))
}

type StepFn<'a, P> =
    dyn FnMut(&mut Lowering<P>, &str, Vec<Var>, PortOp<P>, Vec<Vec<i64>>) -> Vec<Var> + 'a;

/// Each direction's sequence aligned with the input's time (a backward one flipped back).
fn align<P: Spelling>(
    lw: &mut Lowering<P>,
    step: &mut StepFn<'_, P>,
    dirs: &[(Var, Var, Option<Var>, bool)],
    layer: i64,
    _t: i64,
) -> Result<Vec<Var>, PortError> {
    let mut out = Vec::new();
    for (k, &(seq, _, _, backwards)) in dirs.iter().enumerate() {
        out.push(if backwards {
            let shape = lw.tensor(seq).shape.clone();
            let tag = if dirs.len() > 1 || k > 0 || layer > 0 {
                format!("l{layer}_reverse_aligned")
            } else {
                "aligned".to_string()
            };
            step(lw, &tag, vec![seq], PortOp::Flip { axis: 1 }, vec![shape])[0]
        } else {
            seq
        });
    }
    Ok(out)
}

/// Multi-head attention on batch-first inputs (torch's sequence-first ones transposed), its
/// output back in the source's order, and the weights torch returns (averaged over the heads
/// unless asked per head) or Keras's scores.
fn lower_attention<P: Spelling>(
    lw: &mut Lowering<P>,
    id: NodeId,
    name: &str,
    att: &Attention,
    xs: &[Var],
    shapes: &[Vec<i64>],
    line: usize,
) -> Result<Vec<Var>, PortError> {
    let g = lw.g;
    let [q, k, v] = xs else {
        return Err(PortError::at(
            line,
            "attention reads a query, a key and a value",
        ));
    };
    let outputs = 1 + usize::from(att.weights.is_some());
    if xs.iter().any(|&x| lw.tensor(x).shape.len() != 3) || shapes.len() != outputs {
        return Err(PortError::at(
            line,
            format!("{name}: attention is ported on known [batch, time, features] inputs"),
        ));
    }
    let batch = |lw: &mut Lowering<P>, x: Var, what: &str| -> Var {
        if att.batch_first {
            return x;
        }
        let mut shape = lw.tensor(x).shape.clone();
        shape.swap(0, 1);
        let n = lw_name(lw, name, &format!("{what}_batch_first"));
        lw.push(
            Some(id),
            n,
            vec![x],
            PortOp::Transpose(vec![1, 0, 2]),
            vec![plain(shape)],
        )[0]
    };
    // The same tensor read twice is transposed once.
    let q2 = batch(lw, *q, "query");
    let k2 = if k == q { q2 } else { batch(lw, *k, "key") };
    let v2 = if v == q {
        q2
    } else if v == k {
        k2
    } else {
        batch(lw, *v, "value")
    };
    let feats = |lw: &Lowering<P>, x: Var| lw.tensor(x).shape[2];
    let qs = lw.tensor(q2).shape.clone();
    let s_len = lw.tensor(k2).shape[1];
    let output = att.output_dim.unwrap_or(qs[2]);
    let op = PortAttention {
        heads: att.heads,
        key_dim: att.key_dim,
        value_dim: att.value_dim,
        query: qs[2],
        key: feats(lw, k2),
        value: feats(lw, v2),
        output,
        bias: att.bias,
    };
    lw.plan.loads.push(Load {
        node: g.node(id).shares.unwrap_or(id),
        step: lw.plan.steps.len(),
        kind: LoadKind::Attention {
            heads: att.heads,
            key_dim: att.key_dim,
            value_dim: att.value_dim,
            bias: att.bias,
        },
    });
    let n = lw.name(name);
    let outs = lw.push(
        Some(id),
        n,
        vec![q2, k2, v2],
        PortOp::Attention(op),
        vec![
            plain(vec![qs[0], qs[1], output]),
            plain(vec![qs[0], att.heads, qs[1], s_len]),
        ],
    );
    let mut result = vec![outs[0]];
    if !att.batch_first {
        // `[L, batch, ·]` as the source has it: the port's axes swapped, read through `perm`.
        let t = lw.tensor(outs[0]).clone();
        let v = lw.var(
            PortTensor {
                perm: vec![1, 0, 2],
                ..t
            },
            false,
        );
        let n = lw_name(lw, name, "seq_first");
        lw.push(Some(id), n, vec![outs[0]], PortOp::Alias, vec![]);
        if let Some(s) = lw.plan.steps.last_mut() {
            s.outputs = vec![v];
        }
        result[0] = v;
    }
    match att.weights {
        Some(true) if is_read(g, id, 1) => {
            let n = lw_name(lw, name, "weights");
            let w = lw.push(
                Some(id),
                n,
                vec![outs[1]],
                PortOp::Reduce {
                    op: Reduce::Mean,
                    axes: vec![1],
                    keepdims: false,
                },
                vec![plain(shapes[1].clone())],
            );
            result.push(w[0]);
        }
        Some(_) => result.push(outs[1]),
        None => {}
    }
    Ok(result)
}

/// Why the port has no tensor for `e`: an output of a node the port computes only in part
/// (a MaxPool's indices, a Dropout's mask).
fn not_computed(g: &Graph, e: Edge) -> PortError {
    let node = g.node(e.node);
    let what = match (node.kind.as_str(), e.output) {
        ("MaxPool", 1) => "its Indices output is used by the model; padlab ports a MaxPool's pooled values, not where they came from".to_string(),
        ("Dropout", 1) => "its mask output is used by the model; padlab ports inference, which has none".to_string(),
        (_, k) => format!("its output {k} is used by the model, and padlab ports only its first"),
    };
    PortError::Untranslated {
        line: node.source.call_line.unwrap_or(node.source.line),
        what: format!("{}: {what}", node.name),
    }
}

/// `(start, step)` of indices that step evenly (one index: step 1).
fn progression(indices: &[i64]) -> Option<(i64, i64)> {
    let (&first, rest) = indices.split_first()?;
    let step = rest
        .first()
        .map_or(Some(1), |&second| second.checked_sub(first))?;
    indices
        .windows(2)
        .all(|w| w[1].checked_sub(w[0]) == Some(step))
        .then_some((first, step))
}

/// Depth to space (DCR order: channel `(i*r + j)*C + c` to row offset `i`, column offset
/// `j`) or space to depth (the inverse) of the 2-D map `shape` (`[N, C, H, W]` when
/// `channels_first`, else `[N, H, W, C]`): the 6-D shape to split it into and the order to
/// move its axes to before it is joined again.
fn block_moves(
    shape: &[i64],
    r: i64,
    to_space: bool,
    channels_first: bool,
) -> Option<(Vec<i64>, Vec<usize>)> {
    let (n, c, h, w) = match (shape, channels_first) {
        ([n, c, h, w], true) => (*n, *c, *h, *w),
        ([n, h, w, c], false) => (*n, *c, *h, *w),
        _ => return None,
    };
    if r < 1 {
        return None;
    }
    Some(match (to_space, channels_first) {
        // [N, r, r, C', H, W] -> [N, C', H, r, W, r]
        (true, true) => (vec![n, r, r, c / (r * r), h, w], vec![0, 3, 4, 1, 5, 2]),
        // [N, H, W, r, r, C'] -> [N, H, r, W, r, C']
        (true, false) => (vec![n, h, w, r, r, c / (r * r)], vec![0, 1, 3, 2, 4, 5]),
        // [N, C, H', r, W', r] -> [N, r, r, C, H', W']
        (false, true) => (vec![n, c, h / r, r, w / r, r], vec![0, 3, 5, 1, 2, 4]),
        // [N, H', r, W', r, C] -> [N, H', W', r, r, C]
        (false, false) => (vec![n, h / r, r, w / r, r, c], vec![0, 1, 3, 2, 4, 5]),
    })
}

/// Axis labels renumbered to `0..n` keeping their relative order (after axes were removed).
/// An order with the `dropped` axes left out: the remaining axes keep their relative order.
fn without(perm: &[usize], dropped: &[usize]) -> Vec<usize> {
    let kept: Vec<usize> = perm
        .iter()
        .copied()
        .filter(|a| !dropped.contains(a))
        .collect();
    renumber(&kept)
}

fn renumber(kept: &[usize]) -> Vec<usize> {
    let mut sorted = kept.to_vec();
    sorted.sort_unstable();
    kept.iter()
        .map(|a| sorted.iter().position(|s| s == a).unwrap_or(0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_orders_move_the_channels() {
        assert_eq!(
            native_perm(Framework::Torch, Framework::Keras, 4),
            vec![0, 2, 3, 1]
        );
        assert_eq!(
            native_perm(Framework::Keras, Framework::Torch, 4),
            vec![0, 3, 1, 2]
        );
        assert_eq!(
            native_perm(Framework::Keras, Framework::Tf, 4),
            vec![0, 1, 2, 3]
        );
        assert_eq!(
            native_perm(Framework::Torch, Framework::Jax, 3),
            vec![0, 1, 2]
        );
        assert_eq!(
            native_perm(Framework::Keras, Framework::Jax, 3),
            vec![0, 2, 1]
        );
        assert_eq!(
            native_perm(Framework::Torch, Framework::Keras, 2),
            vec![0, 1]
        );
    }

    #[test]
    fn identifiers_are_python_names() {
        assert_eq!(identifier("layer1.0.conv1"), "layer1_0_conv1");
        assert_eq!(identifier("0"), "layer_0");
        assert_eq!(identifier("sequential_1/conv2d"), "sequential_1_conv2d");
        assert_eq!(identifier("x"), "x_");
    }

    #[test]
    fn statistics_are_taken_to_the_port_order() {
        // [1, 2, 1, 3] (NHWC: 2 rows, 3 channels) to NCHW [1, 3, 2, 1].
        let v: Vec<f64> = (0..6).map(f64::from).collect();
        assert_eq!(
            transposed(&v, &[1, 2, 1, 3], &[0, 3, 1, 2]),
            Some(vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0])
        );
        assert_eq!(
            transposed(&v, &[1, 1, 1, 6], &[0, 3, 1, 2]),
            Some(v.clone())
        );
        assert_eq!(transposed(&v, &[1, 1, 1, 5], &[0, 3, 1, 2]), None);
    }
}
