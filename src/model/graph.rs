//! The one neutral form of a model: a graph of operations, each with its inputs, its op, its
//! name in the source, where it was written, and the shapes it produces.
//!
//! Every front end produces a [`Graph`] (pasted code through the evaluator, printed models,
//! model files); the table, the JSON report and the ports read nothing else.
//!
//! *Invariants* (checked by [`Graph::check`], which every front end's tests call):
//! - nodes are in execution order: a node's inputs come before it (so one forward pass over
//!   `nodes` is a topological order, and parallel branches keep the order the source ran them);
//! - every edge names an existing node and one of its outputs;
//! - shapes are in the source framework's layout and include the batch axis first; a node's
//!   `outputs` has one entry per output (almost always one), `None` where the size is unknown
//!   (no input size was given), never a guess.

use std::fmt;

use crate::core::{Answer, Framework, LayerSpec};

use super::op::Op;

/// A node's index in [`Graph::nodes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub usize);

/// One output of one node: what an operation reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    pub node: NodeId,
    /// Which of the node's outputs (0 unless the op has several, like a split).
    pub output: usize,
}

impl Edge {
    /// The first (usually only) output of `node`.
    pub fn of(node: NodeId) -> Edge {
        Edge { node, output: 0 }
    }
}

/// A full tensor shape, batch first, in the source framework's layout (`[N, C, H, W]` for
/// PyTorch and ONNX, `[N, H, W, C]` for Keras).
pub type Shape = Vec<i64>;

/// Where a node stands in what the user gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Source {
    /// 1-based line in the paste (0: not from a line, e.g. a node of a model file).
    pub line: usize,
    /// The text as written: the layer's constructor call (`nn.Conv2d(3, 64, 3, padding=1)`),
    /// the operation (`torch.cat([x1, x2], dim=1)`, `x + identity`), a printed line, or for a
    /// file the node as stored (`Conv(pads=[0, 0, 1, 1])`).
    pub text: String,
    /// For a layer used at a different line than it was built (a torch module called in
    /// `forward`): the line of the call.
    pub call_line: Option<usize>,
}

/// Something about a node that a porter must know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flag {
    /// Strided 'same' (or ONNX `SAME_*`): the pads change with the input size.
    InputDependent,
    /// The pads (or crops) differ between the two sides: a symmetric port shifts the output.
    Asymmetric,
    /// ONNX `SAME_LOWER`: the odd pad goes before (most frameworks put it after).
    SameLower,
    /// A pool with `ceil_mode`: a last, partial window.
    CeilMode,
    /// An average pool that divides by the padded window (counts the padding).
    CountsPadding,
    /// A transposed convolution's `output_padding` or `output_shape`.
    OutputPadding,
    /// A `Pad` before a convolution or pool, shown folded into its padding.
    PadFolded { pad_node: NodeId },
    /// A batch normalisation over a spatial axis (Keras `axis=1` on channels-last data).
    NormalisesSpatialAxis { axis: usize, features: i64 },
    /// The layer's declared size differs from what reaches it (torch `in_channels`,
    /// `in_features`, `num_features`).
    Declared { declared: i64, actual: i64 },
    /// The front end assumed something it could not read (a printed module's order, a kernel
    /// size derived from a parameter count): the assumption in words.
    Assumed(String),
    /// Where the ONNX specification and ONNX Runtime part for this node: the difference in words.
    RuntimeDiffers(String),
    /// A reshape whose `-1` moves values between the batch and the sample (`x.view(-1, 400)`
    /// on 1,600 values a sample): the batch of `from` becomes `to`. Legal, and what a video
    /// model folding frames into the batch means; with an image model, the input size is wrong.
    BatchChanges { from: i64, to: i64 },
}

impl fmt::Display for Flag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Flag::InputDependent => {
                f.write_str("strided 'same': these pads are right for this input size only")
            }
            Flag::Asymmetric => {
                f.write_str("the two sides differ: a symmetric port shifts the output")
            }
            Flag::SameLower => f.write_str("SAME_LOWER: the odd pad goes before, not after"),
            Flag::CeilMode => f.write_str("ceil_mode: a last window may hang past the input"),
            Flag::CountsPadding => f.write_str("the average counts the padded zeros"),
            Flag::OutputPadding => f.write_str("output_padding: the output grows on one side"),
            Flag::PadFolded { .. } => f.write_str("a Pad before it is folded into its padding"),
            Flag::NormalisesSpatialAxis { axis, features } => {
                let name = ["height", "width", "depth"]
                    .get(*axis)
                    .copied()
                    .unwrap_or("a spatial axis");
                write!(
                    f,
                    "normalises the {name} axis ({features} features), not the channels"
                )
            }
            Flag::Declared { declared, actual } => {
                write!(f, "declares {declared} but gets {actual}")
            }
            Flag::Assumed(what) => write!(f, "assumed: {what}"),
            Flag::RuntimeDiffers(what) => write!(f, "ONNX Runtime differs from the spec: {what}"),
            Flag::BatchChanges { from, to } if *from > 0 && to % from == 0 => write!(
                f,
                "the batch changes: each sample becomes {} rows (is the input size right?)",
                to / from
            ),
            Flag::BatchChanges { from, to } => write!(
                f,
                "the batch changes: {from} samples become {to} rows (is the input size right?)"
            ),
        }
    }
}

/// What the shape rules found for a node at its real input size.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inferred {
    /// One shape per output; `None`: unknown (no input size given, or an error upstream).
    pub outputs: Vec<Option<Shape>>,
    /// A convolution's or pool's answer from `core::evaluate` (pads or crops per side).
    pub answer: Option<Answer>,
    /// The layer as the visualizer opens it, at its real input size.
    pub spec: Option<LayerSpec>,
    /// The framework's refusal (in its words) or padlab's: the node cannot take its input.
    pub error: Option<String>,
    pub flags: Vec<Flag>,
}

/// One operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub op: Op,
    pub inputs: Vec<Edge>,
    /// The name the source gives it: a torch module's path (`layer1.0.conv1`), a Keras layer's
    /// name (`conv2d_1`), an ONNX node's name; for a function call, the function
    /// (`torch.cat`). Weights are found by it in the source model.
    pub name: String,
    /// The class or function as the framework names it (`Conv2d`, `Conv2D`, `cat`, `add`, `Conv`).
    pub kind: String,
    pub source: Source,
    /// The layer whose weights this node uses, when it is a second call of a layer (Keras
    /// shared layers, a torch module called twice): the first call's node.
    pub shares: Option<NodeId>,
    pub inferred: Inferred,
}

impl Node {
    /// The first output's shape, when known.
    pub fn shape(&self) -> Option<&Shape> {
        self.inferred.outputs.first().and_then(|s| s.as_ref())
    }
}

/// A model read from what the user gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    /// Whose rules and layout the nodes follow (the source: torch, keras or onnx).
    pub framework: Framework,
    /// The model's name in the source (a variable, a class, a file's graph name).
    pub name: String,
    /// Nodes in execution order; the inputs are [`Op::Input`] nodes.
    pub nodes: Vec<Node>,
    /// What the model returns.
    pub outputs: Vec<Edge>,
    /// What the reader wants the user to know about the whole model (a printed module's
    /// order assumed, lines of the paste that were not evaluated and why).
    pub notes: Vec<String>,
}

/// A graph that breaks its invariants (a front end's bug, never the user's input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed(pub String);

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed graph: {}", self.0)
    }
}

impl Graph {
    /// An empty graph of `framework`.
    pub fn new(framework: Framework, name: impl Into<String>) -> Self {
        Graph {
            framework,
            name: name.into(),
            nodes: Vec::new(),
            outputs: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Adds a node; returns its id.
    pub fn push(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        NodeId(self.nodes.len() - 1)
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0]
    }

    /// The shape an edge carries, when known.
    pub fn shape_of(&self, e: Edge) -> Option<&Shape> {
        self.nodes
            .get(e.node.0)
            .and_then(|n| n.inferred.outputs.get(e.output))
            .and_then(|s| s.as_ref())
    }

    /// The model's input nodes, in order.
    pub fn inputs(&self) -> impl Iterator<Item = (NodeId, &Node)> {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| matches!(n.op, Op::Input))
            .map(|(i, n)| (NodeId(i), n))
    }

    /// Each node's consumers (the nodes that read one of its outputs), in order.
    pub fn consumers(&self) -> Vec<Vec<NodeId>> {
        let mut out = vec![Vec::new(); self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            for e in &n.inputs {
                if let Some(list) = out.get_mut(e.node.0)
                    && list.last() != Some(&NodeId(i))
                {
                    list.push(NodeId(i));
                }
            }
        }
        out
    }

    /// Whether the graph is one path: one input, each node reading the one before it.
    pub fn is_chain(&self) -> bool {
        let mut inputs = 0;
        for (i, n) in self.nodes.iter().enumerate() {
            match n.op {
                Op::Input => inputs += 1,
                _ => {
                    if n.inputs.len() != 1 || n.inputs[0] != Edge::of(NodeId(i.wrapping_sub(1))) {
                        return false;
                    }
                }
            }
        }
        let last = NodeId(self.nodes.len().wrapping_sub(1));
        inputs == 1
            && matches!(self.nodes.first().map(|n| &n.op), Some(Op::Input))
            && self.outputs == [Edge::of(last)]
    }

    /// The first error in the graph's nodes, with its node.
    pub fn first_error(&self) -> Option<(NodeId, &str)> {
        self.nodes
            .iter()
            .enumerate()
            .find_map(|(i, n)| n.inferred.error.as_deref().map(|e| (NodeId(i), e)))
    }

    /// Checks the invariants in the module's documentation.
    pub fn check(&self) -> Result<(), Malformed> {
        for (i, n) in self.nodes.iter().enumerate() {
            for e in &n.inputs {
                if e.node.0 >= i {
                    return Err(Malformed(format!(
                        "node {i} ({}) reads node {}, which does not come before it",
                        n.name, e.node.0
                    )));
                }
                let outs = self.nodes[e.node.0].inferred.outputs.len().max(1);
                if e.output >= outs {
                    return Err(Malformed(format!(
                        "node {i} ({}) reads output {} of node {}, which has {outs}",
                        n.name, e.output, e.node.0
                    )));
                }
            }
            if let Some(s) = n.shares
                && s.0 >= i
            {
                return Err(Malformed(format!(
                    "node {i} shares weights with a later node"
                )));
            }
            if matches!(n.op, Op::Input) != n.inputs.is_empty() && !n.op.is_constant() {
                return Err(Malformed(format!(
                    "node {i} ({}) has {} inputs",
                    n.name,
                    n.inputs.len()
                )));
            }
        }
        for e in &self.outputs {
            if e.node.0 >= self.nodes.len() {
                return Err(Malformed(format!("an output names node {}", e.node.0)));
            }
        }
        Ok(())
    }
}
