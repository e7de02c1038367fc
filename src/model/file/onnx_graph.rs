//! An ONNX model as a [`Graph`]: one node per ONNX operation in graph order, in ONNX Runtime's
//! rules (`Framework::Onnx`, NCHW, batch first).
//!
//! - Each operation maps to a neutral [`Op`]: Conv / ConvTranspose / MaxPool / AveragePool keep
//!   their attributes as a [`LayerSpec`] in ONNX Runtime's rules, so `core::evaluate` answers
//!   them; the kernel comes from the weight's dims when `kernel_shape` is absent.
//! - The integer subgraphs exporters compute shapes and pads with (`Shape → Gather → ... →
//!   Reshape`, timm's dynamic 'same' `Pad`) are folded once the input size is known
//!   ([`super::fold`]): they become constants, not rows; `Graph.notes` says how many.
//! - Symbolic input sizes (`dim_param`) come from [`InputSizes`], or stay unknown (shapes
//!   `None`, never guessed). `value_info` is a cross-check: a disagreement is a note.
//! - A Pad that fills with zeros right before a convolution or average pool without padding of
//!   its own is kept as a row, and the layer is flagged [`Flag::PadFolded`].

use std::collections::HashMap;

use crate::core::{Dims, Framework, LayerSpec, Op as LayerOp, Padding};

use super::super::graph::{Edge, Flag, Graph, Inferred, Node, NodeId, Shape, Source};
use super::super::op::{
    Activation, Binary, Conv, Groups, Norm, Op, PadFill, ReadRule, Reduce, SliceAxis,
};
use super::fold::{self, Const};
use super::onnx::{AttrValue, Dim, OnnxModel, OnnxNode};
use super::{FileError, Format};

/// Sizes for the model's inputs: by name, or one shape for the first input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputSizes {
    pub named: Vec<(String, Shape)>,
    /// For the first input when it is not named (`--input` in the CLI).
    pub first: Option<Shape>,
}

/// What a tensor name stands for during the conversion.
#[derive(Clone, Debug)]
enum Tensor {
    /// A node's output: a row of the graph.
    Edge(Edge),
    /// A constant: an initializer, a `Constant`, or a folded result.
    Const(Const),
}

/// Converts an ONNX model to a graph.
pub fn to_graph(model: &OnnxModel, sizes: &InputSizes) -> Result<Graph, FileError> {
    let g = &model.graph;
    let opset = model
        .opset_imports
        .iter()
        .find(|o| o.domain.is_empty() || o.domain == "ai.onnx")
        .map_or(21, |o| o.version);
    let mut graph = Graph::new(Framework::Onnx, g.name.clone());
    let mut tensors: HashMap<&str, Tensor> = HashMap::new();
    for t in &g.initializers {
        tensors.insert(
            t.name.as_str(),
            Tensor::Const(Const {
                dims: t.dims.clone(),
                data: t.values.clone(),
            }),
        );
    }
    let mut first = true;
    for input in &g.inputs {
        if tensors.contains_key(input.name.as_str()) {
            continue; // an initializer listed as an input (IR < 4)
        }
        let given = sizes
            .named
            .iter()
            .find(|(n, _)| *n == input.name)
            .map(|(_, s)| s.clone())
            .or_else(|| if first { sizes.first.clone() } else { None });
        first = false;
        let shape = input_shape(input.shape.as_deref(), given, &input.name, &mut graph.notes);
        let id = graph.push(Node {
            op: Op::Input,
            inputs: Vec::new(),
            name: input.name.clone(),
            kind: "Input".into(),
            source: Source {
                line: 0,
                text: describe_input(input.shape.as_deref()),
                call_line: None,
            },
            shares: None,
            inferred: Inferred {
                outputs: vec![shape],
                ..Inferred::default()
            },
        });
        tensors.insert(input.name.as_str(), Tensor::Edge(Edge::of(id)));
    }

    // How many nodes (and graph outputs) read each tensor, subgraphs' nodes included.
    let mut readers: HashMap<&str, usize> = HashMap::new();
    count_readers(g, &mut readers);
    for o in &g.outputs {
        *readers.entry(o.name.as_str()).or_default() += 1;
    }
    let mut build = Build {
        graph,
        tensors,
        folded: 0,
        readers,
        zero_pads: std::collections::HashSet::new(),
        opset,
    };
    for (index, n) in g.nodes.iter().enumerate() {
        build.node(n, index, "")?;
    }
    let Build {
        mut graph,
        tensors,
        folded,
        ..
    } = build;
    for o in &g.outputs {
        match tensors.get(o.name.as_str()) {
            Some(Tensor::Edge(e)) => graph.outputs.push(*e),
            Some(Tensor::Const(_)) => graph
                .notes
                .push(format!("the output {:?} is a constant", o.name)),
            None => {
                return Err(FileError::Corrupt {
                    format: Format::Onnx,
                    what: format!("the graph output {:?} is made by no node", o.name),
                });
            }
        }
    }
    let external = g
        .initializers
        .iter()
        .filter(|t| t.external.is_some())
        .count();
    if external > 0 {
        graph.notes.push(format!(
            "{external} initializer{} stored outside the file (external data): sizes read, values not",
            if external == 1 { " is" } else { "s are" }
        ));
    }
    if folded > 0 {
        graph.notes.push(format!(
            "{folded} shape-arithmetic operation{} folded into constants at this input size",
            if folded == 1 { "" } else { "s" }
        ));
    }
    // value_info: a cross-check only.
    for vi in g.value_info.iter().chain(&g.outputs) {
        let (Some(Tensor::Edge(e)), Some(stated)) = (tensors.get(vi.name.as_str()), &vi.shape)
        else {
            continue;
        };
        let Some(ours) = graph.shape_of(*e) else {
            continue;
        };
        let agree = stated.len() == ours.len()
            && stated.iter().zip(ours).all(|(d, &o)| match d {
                Dim::Value(v) => *v == o,
                _ => true,
            });
        if !agree {
            let node = graph.node(e.node);
            graph.notes.push(format!(
                "the file's value_info says {} for {:?} ({}), ONNX Runtime's rules give {ours:?}",
                describe_input(Some(stated)),
                vi.name,
                node.name,
            ));
        }
    }
    Ok(graph)
}

/// The conversion under way: the graph so far, what each tensor name stands for.
struct Build<'m> {
    graph: Graph,
    tensors: HashMap<&'m str, Tensor>,
    /// Shape-arithmetic operations folded into constants.
    folded: usize,
    readers: HashMap<&'m str, usize>,
    /// The zero-filled Pad rows, which fold into an unpadded layer after them.
    zero_pads: std::collections::HashSet<NodeId>,
    opset: i64,
}

/// Counts the readers of each tensor in `g` and the subgraphs of its nodes.
fn count_readers<'m>(g: &'m super::onnx::OnnxGraph, readers: &mut HashMap<&'m str, usize>) {
    for n in &g.nodes {
        for name in &n.inputs {
            *readers.entry(name.as_str()).or_default() += 1;
        }
        for (_, sub) in &n.subgraphs {
            count_readers(sub, readers);
        }
    }
}

/// A node's name as its row shows it: its own, or its operator and index (after `prefix`, an
/// If's name for the nodes of its branch).
fn name_of(n: &OnnxNode, index: usize, prefix: &str) -> String {
    if n.name.is_empty() {
        format!("{prefix}{}_{index}", n.op_type)
    } else {
        n.name.clone()
    }
}

impl<'m> Build<'m> {
    /// An `If` whose condition is a constant: the branch it takes, to read in its place.
    fn branch(&self, n: &'m OnnxNode) -> Option<&'m super::onnx::OnnxGraph> {
        if n.op_type != "If" || !n.is_standard() {
            return None;
        }
        let cond = match self.tensors.get(n.inputs.first()?.as_str())? {
            Tensor::Const(c) => c.scalar()?,
            Tensor::Edge(_) => return None,
        };
        n.subgraph(if cond != 0.0 {
            "then_branch"
        } else {
            "else_branch"
        })
    }

    /// Whether the constant condition of `n` (an If [`Build::branch`] read) is true.
    fn branch_taken(&self, n: &OnnxNode) -> bool {
        n.inputs
            .first()
            .and_then(|c| match self.tensors.get(c.as_str()) {
                Some(Tensor::Const(c)) => c.scalar(),
                _ => None,
            })
            .is_some_and(|v| v != 0.0)
    }

    /// Converts node `n` (`index` and `prefix` name it when it has no name of its own).
    fn node(&mut self, n: &'m OnnxNode, index: usize, prefix: &str) -> Result<(), FileError> {
        if let Some(branch) = self.branch(n) {
            // The branch taken at this size, read in the If's place: its nodes are rows, its
            // outputs the If's.
            let inner = format!("{}/", name_of(n, index, prefix));
            for t in &branch.initializers {
                self.tensors.insert(
                    t.name.as_str(),
                    Tensor::Const(Const {
                        dims: t.dims.clone(),
                        data: t.values.clone(),
                    }),
                );
            }
            for (k, bn) in branch.nodes.iter().enumerate() {
                self.node(bn, k, &inner)?;
            }
            for (out, from) in n.outputs.iter().zip(&branch.outputs) {
                let t = self
                    .tensors
                    .get(from.name.as_str())
                    .cloned()
                    .ok_or_else(|| FileError::Corrupt {
                        format: Format::Onnx,
                        what: format!(
                            "the branch {} takes outputs {:?}, which it does not make",
                            name_of(n, index, prefix),
                            from.name
                        ),
                    })?;
                self.tensors.insert(out.as_str(), t);
            }
            let taken = if self.branch_taken(n) { "then" } else { "else" };
            self.graph.notes.push(format!(
                "{} takes its {taken} branch at this input size: its nodes are read in its place",
                name_of(n, index, prefix)
            ));
            return Ok(());
        }
        let Build {
            graph,
            tensors,
            folded,
            readers,
            zero_pads,
            opset,
        } = self;
        let mut args: Vec<Option<&Tensor>> = Vec::with_capacity(n.inputs.len());
        for name in &n.inputs {
            if name.is_empty() {
                args.push(None);
                continue;
            }
            let t = tensors.get(name.as_str()).ok_or_else(|| FileError::Corrupt {
                format: Format::Onnx,
                what: format!(
                    "node {} ({}) reads {name:?}, which no earlier node, input or initializer makes",
                    name_of(n, index, prefix),
                    n.op_type
                ),
            })?;
            args.push(Some(t));
        }
        // Constants in, constants out: fold.
        let all_const = args.iter().all(|a| !matches!(a, Some(Tensor::Edge(_))));
        let consts: Vec<Option<Const>> = args
            .iter()
            .map(|a| match a {
                Some(Tensor::Const(c)) => Some(c.clone()),
                // Shape of a row whose shape is known.
                Some(Tensor::Edge(e)) if n.op_type == "Shape" || n.op_type == "Size" => {
                    graph.shape_of(*e).map(|s| Const {
                        dims: s.clone(),
                        data: None,
                    })
                }
                _ => None,
            })
            .collect();
        // If, Loop and Scan run subgraphs padlab notes but does not read: never constants.
        let subgraph = n
            .attributes
            .iter()
            .any(|a| matches!(a.value, AttrValue::Graph | AttrValue::Graphs(_)));
        let foldable = n.is_standard()
            && !subgraph
            && (all_const || n.op_type == "Shape" || n.op_type == "Size");
        if foldable {
            let refs: Vec<Option<&Const>> = consts.iter().map(Option::as_ref).collect();
            let complete = n
                .inputs
                .iter()
                .zip(&refs)
                .all(|(name, c)| name.is_empty() || c.is_some());
            if complete && let Some(out) = fold::eval(n, &refs, *opset) {
                for (name, c) in n.outputs.iter().zip(out) {
                    tensors.insert(name.as_str(), Tensor::Const(c));
                }
                if n.op_type != "Constant" {
                    *folded += 1;
                }
                return Ok(());
            }
            if all_const {
                // Constants padlab cannot evaluate (a large tensor's arithmetic): their sizes
                // are unknown downstream.
                unknown_constants(tensors, &n.outputs);
                graph.notes.push(format!(
                    "{} ({}) computes a constant padlab does not evaluate",
                    name_of(n, index, prefix),
                    n.op_type
                ));
                return Ok(());
            }
        }
        let edges: Vec<Edge> = args
            .iter()
            .filter_map(|a| match a {
                Some(Tensor::Edge(e)) => Some(*e),
                _ => None,
            })
            .collect();
        let shapes: Vec<Option<Shape>> = args
            .iter()
            .map(|a| match a {
                Some(Tensor::Edge(e)) => graph.shape_of(*e).cloned(),
                Some(Tensor::Const(c)) if c.data.is_some() || !c.dims.is_empty() => {
                    Some(c.dims.clone())
                }
                _ => None,
            })
            .collect();
        let cargs: Vec<Option<&Const>> = args
            .iter()
            .map(|a| match a {
                Some(Tensor::Const(c)) => Some(c),
                _ => None,
            })
            .collect();
        let mut op = if subgraph {
            Op::Read {
                what: format!(
                    "{} runs a subgraph (a branch or a loop body) padlab does not read",
                    n.op_type
                ),
                rule: ReadRule::Subgraph,
            }
        } else {
            map_op(n, &cargs, &shapes, *opset)
        };
        // A MatMul by a weight and the Add of a bias right after it (torch's Linear on a
        // sequence): one fully connected layer with its bias, the Add passing it through.
        if let Some(dense) = bias_of(n, &op, &args, graph, readers) {
            if let Op::Dense { bias, .. } = &mut graph.nodes[dense.0].op {
                *bias = true;
            }
            graph.notes.push(format!(
                "{} adds {}'s bias: read as one fully connected layer",
                name_of(n, index, prefix),
                graph.node(dense).name
            ));
            op = Op::Identity;
        }
        let mut inferred = node_shapes(&op, n, &args, &shapes, |e| graph.shape_of(e));
        // A zero-filled Pad before a layer with no padding of its own reads as its padding.
        if let Some(Tensor::Edge(e)) = args.first().copied().flatten()
            && zero_pads.contains(&e.node)
            && unpadded(&op)
        {
            inferred.flags.push(Flag::PadFolded { pad_node: e.node });
        }
        if subgraph && inferred.error.is_none() {
            inferred.error = Some(format!(
                "padlab does not read the subgraphs of {} (what it computes, and its shape, depend on them)",
                n.op_type
            ));
        }
        // A layer on constants only (no runtime input) is not a row: its outputs are
        // constants of unknown value downstream.
        if edges.is_empty() && !subgraph {
            unknown_constants(tensors, &n.outputs);
            return Ok(());
        }
        let is_zero_pad = matches!(&op, Op::Pad { fill: PadFill::Constant(v), .. } if *v == 0.0);
        let id = graph.push(Node {
            op,
            inputs: edges,
            name: name_of(n, index, prefix),
            kind: n.op_type.clone(),
            source: Source {
                line: 0,
                text: source_text(n),
                call_line: None,
            },
            shares: None,
            inferred,
        });
        if is_zero_pad {
            zero_pads.insert(id);
        }
        for (k, name) in n.outputs.iter().enumerate() {
            if !name.is_empty() {
                tensors.insert(
                    name.as_str(),
                    Tensor::Edge(Edge {
                        node: id,
                        output: k,
                    }),
                );
            }
        }
        Ok(())
    }
}

/// The shape of an input: the file's dims, symbolic ones from the given size.
fn input_shape(
    dims: Option<&[Dim]>,
    given: Option<Shape>,
    name: &str,
    notes: &mut Vec<String>,
) -> Option<Shape> {
    let Some(dims) = dims else { return given };
    if let Some(g) = given {
        let fits = g.len() == dims.len()
            && dims.iter().zip(&g).all(|(d, &v)| match d {
                Dim::Value(x) => *x == v,
                _ => v > 0,
            });
        if fits {
            return Some(g);
        }
        notes.push(format!(
            "the size given for {name:?} ({g:?}) does not fit its declared shape {}; the declared one is used",
            describe_input(Some(dims))
        ));
    }
    dims.iter()
        .map(|d| match d {
            Dim::Value(v) if *v > 0 => Some(*v),
            _ => None,
        })
        .collect()
}

fn describe_input(dims: Option<&[Dim]>) -> String {
    dims.map_or_else(|| "[?]".into(), dims_text)
}

/// The MatMul row whose bias `n` adds: `n` is an `Add` of a constant with one value per unit
/// (`[units]`, or ones before it) to the only reader of a MatMul by a weight.
fn bias_of(
    n: &OnnxNode,
    op: &Op,
    args: &[Option<&Tensor>],
    graph: &Graph,
    readers: &HashMap<&str, usize>,
) -> Option<NodeId> {
    if n.op_type != "Add"
        || !matches!(
            op,
            Op::Elementwise {
                op: Binary::Add,
                constant: None,
                ..
            }
        )
    {
        return None;
    }
    let (edge, bias) = match args {
        [Some(Tensor::Edge(e)), Some(Tensor::Const(c))]
        | [Some(Tensor::Const(c)), Some(Tensor::Edge(e))] => (*e, c),
        _ => return None,
    };
    let row = graph.node(edge.node);
    let Op::Dense {
        units, bias: false, ..
    } = row.op
    else {
        return None;
    };
    let out_rank = row.shape().map(Vec::len)?;
    let per_unit = bias.dims.last() == Some(&units)
        && bias.dims.len() <= out_rank
        && bias.dims.iter().rev().skip(1).all(|&d| d == 1);
    // The MatMul's output read by this Add alone.
    let name = n
        .inputs
        .iter()
        .zip(args)
        .find_map(|(name, a)| matches!(a, Some(Tensor::Edge(_))).then_some(name))?;
    let only = readers.get(name.as_str()) == Some(&1);
    (row.kind == "MatMul" && edge.output == 0 && per_unit && only).then_some(edge.node)
}

/// A declared shape as the messages write it: `[N, 3, 224, 224]`, `?` for an unknown size.
pub(super) fn dims_text(dims: &[Dim]) -> String {
    let parts: Vec<String> = dims
        .iter()
        .map(|d| match d {
            Dim::Value(v) => v.to_string(),
            Dim::Param(p) => p.clone(),
            Dim::Unknown => "?".into(),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Names outputs as constants of unknown value (a constant padlab does not evaluate).
fn unknown_constants<'a>(tensors: &mut HashMap<&'a str, Tensor>, names: &'a [String]) {
    for name in names {
        tensors.insert(
            name.as_str(),
            Tensor::Const(Const {
                dims: Vec::new(),
                data: None,
            }),
        );
    }
}

/// The node as stored: `Conv(kernel_shape=[3, 3], pads=[0, 0, 1, 1], strides=[2, 2])`.
pub fn source_text(n: &OnnxNode) -> String {
    let mut parts = Vec::with_capacity(n.attributes.len());
    for a in &n.attributes {
        let v = match &a.value {
            AttrValue::Float(f) => format!("{f:?}"),
            AttrValue::Int(i) => i.to_string(),
            AttrValue::String(s) => format!("{s:?}"),
            AttrValue::Ints(v) => list(v),
            AttrValue::Floats(v) => format!(
                "[{}]",
                v.iter()
                    .map(|f| format!("{f:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            AttrValue::Strings(v) => {
                format!(
                    "[{}]",
                    v.iter()
                        .map(|s| format!("{s:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            AttrValue::Tensor(t) => format!("<tensor {}>", list(&t.dims)),
            AttrValue::Tensors(v) => format!("<{} tensors>", v.len()),
            AttrValue::Graph => "<graph>".into(),
            AttrValue::Graphs(k) => format!("<{k} graphs>"),
            AttrValue::Other => "<…>".into(),
        };
        parts.push(format!("{}={v}", a.name));
    }
    format!("{}({})", n.op_type, parts.join(", "))
}

fn list<T: std::fmt::Display>(v: &[T]) -> String {
    format!("[{}]", crate::core::join(v, ", "))
}

/// Whether a conv or pool pads nothing of its own (so a Pad before it reads as its padding).
fn unpadded(op: &Op) -> bool {
    let spec = match op {
        Op::Conv(c) if c.spec.op == LayerOp::Conv => &c.spec,
        Op::Pool(s) if s.op == LayerOp::AvgPool => s,
        _ => return false,
    };
    match &spec.padding {
        None | Some(Padding::Valid) => true,
        Some(Padding::Explicit(p)) => p.iter().all(|[b, a]| *b == 0 && *a == 0),
        Some(Padding::All(0)) => true,
        _ => false,
    }
}

/// The input indices an ONNX `Slice` reads along an axis of `size` elements, in order (the
/// spec's clamping: a negative step starts at most at the last element and ends at the
/// first); `None` for a step of 0 or an axis longer than padlab lists.
fn slice_indices(start: i64, end: i64, step: i64, size: i64) -> Option<Vec<i64>> {
    if step == 0 || !(1..=1 << 16).contains(&size) {
        return None;
    }
    let (s, e, d) = (i128::from(start), i128::from(end), i128::from(size));
    let wrap = |v: i128| if v < 0 { v + d } else { v };
    let (s, e) = if step < 0 {
        (wrap(s).clamp(0, d - 1), wrap(e).clamp(-1, d - 1))
    } else {
        (wrap(s).clamp(0, d), wrap(e).clamp(0, d))
    };
    let step = i128::from(step);
    let mut out = Vec::new();
    let mut i = s;
    while (step > 0 && i < e) || (step < 0 && i > e) {
        out.push(i64::try_from(i).ok()?);
        i += step;
    }
    Some(out)
}

/// ONNX `pads` (`[b1, ..., bn, e1, ..., en]`) as pairs.
fn pairs(pads: &[i64]) -> Option<Vec<[i64; 2]>> {
    if !pads.len().is_multiple_of(2) {
        return None;
    }
    let n = pads.len() / 2;
    Some(
        (0..n)
            .map(|i| {
                [
                    pads.get(i).copied().unwrap_or(0),
                    pads.get(i + n).copied().unwrap_or(0),
                ]
            })
            .collect(),
    )
}

pub(super) fn opaque(n: &OnnxNode, why: &str) -> Op {
    Op::Opaque {
        what: format!("{}: {why}", n.op_type),
    }
}

/// A node ONNX Runtime refuses to load or run, in its words.
pub(super) fn refused(n: &OnnxNode, why: &str) -> Op {
    Op::Read {
        what: format!("{} is refused by ONNX Runtime", n.op_type),
        rule: ReadRule::Refused(why.to_string()),
    }
}

/// A node padlab shapes by `rule` but does not port: `what` it is, `why` not.
pub(super) fn read(n: &OnnxNode, what: &str, why: &str, rule: ReadRule) -> Op {
    Op::Read {
        what: format!("{} ({what}) is read, not ported: {why}", n.op_type),
        rule,
    }
}

/// Why padlab does not port a quantized operator.
const QUANTIZED: &str =
    "padlab ports float models (the integer arithmetic and its rounding have no float port)";

/// A convolution (or transposed one) from a node's attributes, its weight's dims and whether
/// input `bias` is given (a quantized convolution's weight and bias are elsewhere).
fn conv_op(n: &OnnxNode, weight: Option<&[i64]>, bias: usize) -> Result<Op, String> {
    let transposed = n.op_type == "ConvTranspose";
    let kind = if transposed {
        LayerOp::ConvTranspose
    } else {
        LayerOp::Conv
    };
    let spec = layer_spec(n, kind, weight)?;
    let group = n.int("group").unwrap_or(1);
    let (in_channels, filters) = match (transposed, weight.unwrap_or_default()) {
        (false, [m, c, ..]) => (c.checked_mul(group), *m),
        (true, [c, m, ..]) => (Some(*c), m.checked_mul(group).unwrap_or(*m)),
        _ => return Err("the weight's shape is unknown".into()),
    };
    Ok(Op::Conv(Conv {
        spec,
        in_channels,
        filters,
        groups: Groups::Count(group),
        separable: false,
        bias: n.inputs.get(bias).is_some_and(|b| !b.is_empty()),
        activation: None,
    }))
}

/// The conv / pool spec from a node's attributes; `None` when the kernel is unknown.
fn layer_spec(n: &OnnxNode, op: LayerOp, weight: Option<&[i64]>) -> Result<LayerSpec, String> {
    let kernel: Vec<i64> = match n.ints("kernel_shape") {
        Some(k) => k.to_vec(),
        None => match weight {
            Some(w) if w.len() > 2 => w.get(2..).unwrap_or_default().to_vec(),
            _ => return Err("no kernel_shape and no weight to read it from".into()),
        },
    };
    if kernel.is_empty() || kernel.len() > 3 {
        return Err("padlab reads 1-D to 3-D convolutions and pools".into());
    }
    let mut spec = LayerSpec::new(op, Framework::Onnx, Vec::new(), Dims::Each(kernel));
    // ONNX's stride defaults to 1 for every op, pools included (a `LayerSpec` without one
    // strides a pool by its kernel, as torch and Keras do): stated, never left to that default.
    spec.stride = Some(
        n.ints("strides")
            .map_or(Dims::All(1), |v| Dims::Each(v.to_vec())),
    );
    spec.dilation = n.ints("dilations").map(|v| Dims::Each(v.to_vec()));
    spec.padding = match n.string("auto_pad").unwrap_or("NOTSET") {
        "SAME_UPPER" => Some(Padding::Same),
        "SAME_LOWER" => Some(Padding::SameLower),
        "VALID" => Some(Padding::Valid),
        "NOTSET" | "" => match n.ints("pads") {
            Some(p) => Some(Padding::Explicit(
                pairs(p).ok_or_else(|| "pads has an odd length".to_string())?,
            )),
            None => None,
        },
        _ => return Err("an auto_pad ONNX does not define".into()),
    };
    if op.is_pool() {
        spec.ceil_mode = n.int("ceil_mode").map(|c| c != 0);
        if op == LayerOp::AvgPool {
            spec.count_include_pad = n.int("count_include_pad").map(|c| c != 0);
        }
    }
    if op == LayerOp::ConvTranspose {
        spec.output_padding = n.ints("output_padding").map(|v| Dims::Each(v.to_vec()));
        spec.output_size = n.ints("output_shape").map(|v| {
            let k = match &spec.kernel {
                Dims::Each(k) => k.len(),
                Dims::All(_) => v.len(),
            };
            v.get(v.len().saturating_sub(k)..)
                .unwrap_or_default()
                .to_vec()
        });
    }
    Ok(spec)
}

fn axes_of(
    n: &OnnxNode,
    args: &[Option<&Const>],
    input: usize,
    attr_until: i64,
    opset: i64,
) -> Option<Vec<i64>> {
    if opset < attr_until {
        n.ints("axes").map(<[i64]>::to_vec)
    } else {
        args.get(input)
            .copied()
            .flatten()
            .and_then(|c| c.ints().map(<[i64]>::to_vec))
    }
}

/// The neutral op of one ONNX node.
fn map_op(n: &OnnxNode, args: &[Option<&Const>], dims: &[Option<Shape>], opset: i64) -> Op {
    // The shape of each input, runtime or constant (a weight's dims).
    let dims_of = |i: usize| dims.get(i).and_then(|d| d.as_deref());
    let input = dims_of(0);
    let arg = |i: usize| args.get(i).copied().flatten();
    let rank = input.map(<[i64]>::len);
    let act = |a: Activation| Op::Activation(a);
    if !n.is_standard() {
        return if n.domain == "com.microsoft" {
            microsoft_op(n, args, dims)
        } else {
            opaque(n, &format!("an operator of the {:?} domain", n.domain))
        };
    }
    match n.op_type.as_str() {
        "Conv" | "ConvTranspose" => {
            let transposed = n.op_type == "ConvTranspose";
            if transposed
                && let (Some(shape), Some(w)) = (n.ints("output_shape"), dims_of(1))
                && shape.len() != w.len().saturating_sub(2)
            {
                // ONNX's shape inference, which ONNX Runtime runs when it loads the model.
                return refused(
                    n,
                    "[ShapeInferenceError] Attribute output_shape has incorrect size",
                );
            }
            match conv_op(n, dims_of(1), 2) {
                Ok(op) => op,
                Err(why) => opaque(n, &why),
            }
        }
        "MaxPool" | "AveragePool" => {
            let kind = if n.op_type == "MaxPool" {
                LayerOp::MaxPool
            } else {
                LayerOp::AvgPool
            };
            match layer_spec(n, kind, None) {
                Ok(s) => Op::Pool(s),
                Err(why) => opaque(n, &why),
            }
        }
        "GlobalAveragePool" => Op::GlobalPool {
            max: false,
            keepdims: true,
        },
        "GlobalMaxPool" => Op::GlobalPool {
            max: true,
            keepdims: true,
        },
        "BatchNormalization" => Op::Norm(Norm::Batch {
            axis: 1,
            features: arg(1).and_then(|c| c.dims.first().copied()),
            eps: f64::from(n.float("epsilon").unwrap_or(1e-5)),
            momentum: 1.0 - f64::from(n.float("momentum").unwrap_or(0.9)),
            center: true,
            scale: true,
        }),
        "InstanceNormalization" => Op::Norm(Norm::Instance {
            features: arg(1).and_then(|c| c.dims.first().copied()),
            eps: f64::from(n.float("epsilon").unwrap_or(1e-5)),
            affine: true,
        }),
        "LayerNormalization" => {
            let a = n.int("axis").unwrap_or(-1);
            let axes = match (a, rank) {
                (a, Some(r)) => match fold::axis(a, r) {
                    Some(start) => (start as i64..r as i64).collect(),
                    None => vec![a],
                },
                // From a negative axis to the last (at most the rank cap of axes).
                (a, None) if (-64..0).contains(&a) => (a..0).collect(),
                (a, None) => vec![a],
            };
            Op::Norm(Norm::Layer {
                axes,
                shape: arg(1).map(|c| c.dims.clone()),
                eps: f64::from(n.float("epsilon").unwrap_or(1e-5)),
                center: n.inputs.get(2).is_some_and(|b| !b.is_empty()),
                scale: true,
            })
        }
        "GroupNormalization" => Op::Norm(Norm::Group {
            groups: n.int("num_groups").unwrap_or(1),
            channels: arg(1).and_then(|c| c.dims.first().copied()),
            eps: f64::from(n.float("epsilon").unwrap_or(1e-5)),
            affine: true,
        }),
        "Add" | "Sub" | "Mul" | "Div" | "Pow" | "Max" | "Min" | "Sum" | "Mean" => {
            let op = match n.op_type.as_str() {
                "Add" | "Sum" | "Mean" => Binary::Add,
                "Sub" => Binary::Sub,
                "Mul" => Binary::Mul,
                "Div" => Binary::Div,
                "Pow" => Binary::Pow,
                "Max" => Binary::Max,
                _ => Binary::Min,
            };
            let (constant, constant_first) = match (arg(0), arg(1)) {
                (Some(c), None) => (c.scalar(), true),
                (None, Some(c)) => (c.scalar(), false),
                _ => (None, false),
            };
            Op::Elementwise {
                op,
                constant,
                constant_first,
            }
        }
        "Concat" => Op::Concat {
            axis: n.int("axis").unwrap_or(1),
        },
        "Split" => {
            let a = n.int("axis").unwrap_or(0);
            let parts = n.outputs.len().max(1) as i64;
            let sizes = if opset >= 13 {
                arg(1).and_then(|c| c.ints().map(<[i64]>::to_vec))
            } else {
                n.ints("split").map(<[i64]>::to_vec)
            };
            let sizes = sizes.or_else(|| {
                let d = *input?.get(fold::axis(a, input?.len())?)?;
                // Equal parts; the last smaller when they do not divide (opset 18).
                let each = d.checked_add(parts - 1)? / parts;
                (0..parts)
                    .map(|i| Some(each.min(d.checked_sub(i.checked_mul(each)?)?).max(0)))
                    .collect()
            });
            match sizes {
                Some(sizes) => Op::Split { axis: a, sizes },
                None => opaque(n, "split sizes unknown at this input size"),
            }
        }
        "Slice" => {
            let (starts, ends, axes, steps) = if opset >= 10 {
                (
                    arg(1).and_then(|c| c.ints().map(<[i64]>::to_vec)),
                    arg(2).and_then(|c| c.ints().map(<[i64]>::to_vec)),
                    arg(3).and_then(|c| c.ints().map(<[i64]>::to_vec)),
                    arg(4).and_then(|c| c.ints().map(<[i64]>::to_vec)),
                )
            } else {
                (
                    n.ints("starts").map(<[i64]>::to_vec),
                    n.ints("ends").map(<[i64]>::to_vec),
                    n.ints("axes").map(<[i64]>::to_vec),
                    None,
                )
            };
            let (Some(starts), Some(ends)) = (starts, ends) else {
                return opaque(n, "starts and ends unknown");
            };
            let axes = axes.unwrap_or_else(|| (0..starts.len() as i64).collect());
            let step_of = |k: usize| steps.as_ref().and_then(|v| v.get(k).copied()).unwrap_or(1);
            if (0..axes.len()).any(|k| step_of(k) < 0) {
                // Backwards: the elements read, at the input's size (every axis listed).
                let Some(x) = input else {
                    return opaque(n, "a negative step on an input of unknown size");
                };
                let mut take = Vec::with_capacity(axes.len());
                for (k, &a) in axes.iter().enumerate() {
                    let (Some(&s), Some(&e), Some(&d)) = (
                        starts.get(k),
                        ends.get(k),
                        fold::axis(a, x.len()).and_then(|i| x.get(i)),
                    ) else {
                        return opaque(n, "starts, ends and axes that do not fit the input");
                    };
                    match slice_indices(s, e, step_of(k), d) {
                        Some(indices) => take.push((a, indices)),
                        None => return opaque(n, "a step of 0, or an axis too long to list"),
                    }
                }
                return Op::Take(take);
            }
            let big = |x: i64| x >= i64::from(i32::MAX);
            let mut out = Vec::new();
            for (k, &axis) in axes.iter().enumerate() {
                let (Some(&s), Some(&e)) = (starts.get(k), ends.get(k)) else {
                    return opaque(n, "starts, ends and axes differ in length");
                };
                let step = steps.as_ref().and_then(|v| v.get(k).copied()).unwrap_or(1);
                out.push(SliceAxis {
                    axis,
                    start: Some(s),
                    end: (!big(e)).then_some(e),
                    step,
                    index: false,
                });
            }
            Op::Slice(out)
        }
        "Transpose" => match (n.ints("perm"), rank) {
            (Some(p), _) => match p
                .iter()
                .map(|&x| usize::try_from(x).ok())
                .collect::<Option<Vec<_>>>()
            {
                Some(p) => Op::Permute(p),
                None => opaque(n, "a negative perm"),
            },
            (None, Some(r)) => Op::Permute((0..r).rev().collect()),
            (None, None) => opaque(n, "no perm and no known rank"),
        },
        "Reshape" => match arg(1).and_then(Const::ints) {
            Some(s) => Op::Reshape {
                shape: s.to_vec(),
                batch: true,
            },
            None => opaque(n, "the target shape is computed at run time"),
        },
        "Flatten" => {
            let a = n.int("axis").unwrap_or(1);
            let shape = match (a, input) {
                (0, _) => Some(vec![1, -1]),
                (1, _) => Some(vec![0, -1]),
                (a, Some(d)) => fold::axis(a, d.len() + 1)
                    .and_then(|k| d.get(..k))
                    .and_then(fold::checked_product)
                    .map(|lead| vec![lead, -1]),
                _ => None,
            };
            match shape {
                Some(shape) => Op::Reshape { shape, batch: true },
                None => opaque(n, "flatten axis on an unknown rank"),
            }
        }
        "Squeeze" => Op::Squeeze(axes_of(n, args, 1, 13, opset)),
        "Unsqueeze" => match axes_of(n, args, 1, 13, opset) {
            Some(a) => Op::Unsqueeze(a),
            None => opaque(n, "axes unknown"),
        },
        "Gemm" => {
            let (trans_a, trans_b) = (
                n.int("transA").unwrap_or(0) != 0,
                n.int("transB").unwrap_or(0) != 0,
            );
            let bias = n.inputs.get(2).is_some_and(|b| !b.is_empty());
            match (arg(1), trans_a) {
                (Some(w), false) if w.dims.len() == 2 => {
                    let (d0, d1) = (
                        w.dims.first().copied().unwrap_or(0),
                        w.dims.get(1).copied().unwrap_or(0),
                    );
                    let (inf, units) = if trans_b { (d1, d0) } else { (d0, d1) };
                    // C is a bias per unit only when it has one value per unit (or one in
                    // all); a C of [M, N] adds a matrix.
                    let per_unit = !bias
                        || dims_of(2).is_some_and(|c| {
                            c.iter().all(|&d| d == 1)
                                || (c.last() == Some(&units)
                                    && c.iter().rev().skip(1).all(|&d| d == 1))
                        });
                    if per_unit {
                        Op::Dense {
                            in_features: Some(inf),
                            units,
                            bias,
                            activation: None,
                        }
                    } else {
                        read(
                            n,
                            "a matrix product plus a matrix C",
                            "padlab ports a Gemm whose C is one bias per output unit",
                            ReadRule::Gemm { trans_a, trans_b },
                        )
                    }
                }
                (None, _) => read(
                    n,
                    "a product of two run-time tensors",
                    "its weight B is a graph input or computed at run time, not a constant in the file, and padlab ports a Gemm whose weight is in the file",
                    ReadRule::Gemm { trans_a, trans_b },
                ),
                (Some(_), false) => opaque(n, "the weight B's shape is unknown"),
                (Some(_), true) => read(
                    n,
                    "a matrix product with A transposed",
                    "padlab ports a Gemm whose input A is not transposed",
                    ReadRule::Gemm { trans_a, trans_b },
                ),
            }
        }
        "MatMul" => match arg(1) {
            Some(w) if w.dims.len() == 2 => Op::Dense {
                in_features: w.dims.first().copied(),
                units: w.dims.get(1).copied().unwrap_or(0),
                bias: false,
                activation: None,
            },
            _ => Op::MatMul,
        },
        "Resize" | "Upsample" => super::resize::resize_op(n, args, input, opset),
        "Pad" => {
            let pads = if opset >= 11 {
                arg(1).and_then(|c| c.ints().map(<[i64]>::to_vec))
            } else {
                n.ints("pads")
                    .or_else(|| n.ints("paddings"))
                    .map(<[i64]>::to_vec)
            };
            let value = if opset >= 11 {
                arg(2).and_then(Const::scalar).unwrap_or(0.0)
            } else {
                f64::from(n.float("value").unwrap_or(0.0))
            };
            let fill = match n.string("mode").unwrap_or("constant") {
                "reflect" => PadFill::Reflect,
                "edge" => PadFill::Replicate,
                "wrap" => PadFill::Circular,
                _ => PadFill::Constant(value),
            };
            let Some(pads) = pads else {
                return opaque(n, "the pads are computed at run time");
            };
            // Opset 18: pads for the listed axes only.
            let axes = if opset >= 18 {
                arg(3).and_then(|c| c.ints().map(<[i64]>::to_vec))
            } else {
                None
            };
            let pairs: Option<Vec<(i64, i64)>> = match (axes, rank) {
                (None, _) => pairs(&pads).map(|p| p.into_iter().map(|[b, a]| (b, a)).collect()),
                (Some(axes), Some(r)) => {
                    let given = pairs(&pads);
                    let mut all = vec![(0, 0); r];
                    let mut ok = given.as_ref().is_some_and(|g| g.len() == axes.len());
                    for (k, &a) in axes.iter().enumerate() {
                        match (fold::axis(a, r), given.as_ref().and_then(|g| g.get(k))) {
                            (Some(ax), Some([b, e])) => {
                                if let Some(slot) = all.get_mut(ax) {
                                    *slot = (*b, *e);
                                }
                            }
                            _ => ok = false,
                        }
                    }
                    ok.then_some(all)
                }
                (Some(_), None) => None,
            };
            match pairs {
                Some(pairs) => Op::Pad { pairs, fill },
                None => opaque(n, "pads that do not fit the input"),
            }
        }
        "Dropout" => Op::Dropout {
            rate: arg(1)
                .and_then(Const::scalar)
                .or_else(|| n.float("ratio").map(f64::from))
                .unwrap_or(0.5),
            spatial: false,
        },
        "Identity" => Op::Identity,
        "Relu" => act(Activation::Relu),
        "LeakyRelu" => act(Activation::LeakyRelu(f64::from(
            n.float("alpha").unwrap_or(0.01),
        ))),
        "Elu" => act(Activation::Elu(f64::from(n.float("alpha").unwrap_or(1.0)))),
        // torch's SELU constants are ONNX's defaults; others are another function.
        "Selu"
            if n.float("alpha")
                .is_none_or(|a| (a - 1.673_263_2).abs() < 1e-6)
                && n.float("gamma")
                    .is_none_or(|g| (g - 1.050_701).abs() < 1e-6) =>
        {
            act(Activation::Selu)
        }
        "Selu" => read(
            n,
            "element-wise",
            "padlab ports SELU with its standard alpha and gamma",
            ReadRule::AsInput { scalars: 0 },
        ),
        "Sigmoid" => act(Activation::Sigmoid),
        "Tanh" => act(Activation::Tanh),
        // max(0, min(1, alpha * x + beta)): torch's (and Keras 3's) has alpha 1/6; ONNX's
        // default alpha is 0.2 (Keras 2's hard sigmoid).
        "HardSigmoid"
            if (f64::from(n.float("alpha").unwrap_or(0.2)) - 1.0 / 6.0).abs() < 1e-6
                && n.float("beta").unwrap_or(0.5) == 0.5 =>
        {
            act(Activation::HardSigmoid)
        }
        "HardSigmoid" => read(
            n,
            "element-wise",
            "padlab ports the hard sigmoid of alpha 1/6 and beta 0.5 (torch's)",
            ReadRule::AsInput { scalars: 0 },
        ),
        "HardSwish" => act(Activation::HardSwish),
        "Softplus" => act(Activation::Softplus),
        "Softsign" => act(Activation::Softsign),
        "Mish" => act(Activation::Mish),
        "Exp" => act(Activation::Exp),
        "Log" => act(Activation::Log),
        "Sqrt" => act(Activation::Sqrt),
        "Abs" => act(Activation::Abs),
        "Neg" => act(Activation::Neg),
        "Gelu" => act(Activation::Gelu {
            tanh: n.string("approximate") == Some("tanh"),
        }),
        "Clip" => {
            // Each bound: absent (None), or its value when known (an unknown one: opaque).
            let bound = |i: usize, attr: &str| -> Option<Option<f64>> {
                if opset >= 11 {
                    match n.inputs.get(i) {
                        Some(name) if !name.is_empty() => arg(i).and_then(Const::scalar).map(Some),
                        _ => Some(None),
                    }
                } else {
                    Some(n.float(attr).map(f64::from))
                }
            };
            match (bound(1, "min"), bound(2, "max")) {
                (Some(lo), Some(hi)) => match (lo, hi) {
                    (Some(l), Some(h)) if l == 0.0 && h == 6.0 => act(Activation::Relu6),
                    (Some(0.0), None) => act(Activation::Relu),
                    (None, None) => Op::Identity,
                    (Some(lo), Some(hi)) if lo.is_finite() && hi.is_finite() && lo <= hi => {
                        act(Activation::Clip { lo, hi })
                    }
                    _ => read(
                        n,
                        "a clip",
                        "padlab ports a clip with both bounds finite, or ReLU's",
                        ReadRule::AsInput { scalars: 0 },
                    ),
                },
                _ => read(
                    n,
                    "a clip",
                    "its bounds are computed at run time",
                    ReadRule::AsInput { scalars: 0 },
                ),
            }
        }
        "Softmax" | "LogSoftmax" | "Hardmax" => {
            let axis = n.int("axis").unwrap_or(if opset >= 13 { -1 } else { 1 });
            // Before opset 13 the input is flattened to 2-D at `axis` and normalised over
            // everything after it: one axis only when `axis` is the last.
            let last = rank.is_some_and(|r| fold::axis(axis, r) == Some(r.saturating_sub(1)));
            if n.op_type == "Hardmax" {
                read(
                    n,
                    "a one-hot of the largest",
                    "padlab does not port it",
                    ReadRule::AsInput { scalars: 0 },
                )
            } else if opset < 13 && !last {
                read(
                    n,
                    "a softmax over the axes from `axis` on",
                    "before opset 13 it normalises the input flattened at its axis, over every axis after it, which padlab does not port",
                    ReadRule::AsInput { scalars: 0 },
                )
            } else {
                Op::Softmax {
                    axis,
                    log: n.op_type == "LogSoftmax",
                }
            }
        }
        "ReduceMean" | "ReduceSum" | "ReduceMax" | "ReduceMin" => {
            let op = match n.op_type.as_str() {
                "ReduceMean" => Reduce::Mean,
                "ReduceSum" => Reduce::Sum,
                "ReduceMax" => Reduce::Max,
                _ => Reduce::Min,
            };
            let until = if n.op_type == "ReduceSum" { 13 } else { 18 };
            let given = if opset >= until {
                n.inputs.get(1).is_some_and(|s| !s.is_empty())
            } else {
                n.ints("axes").is_some()
            };
            let reduce = |axes| Op::Reduce {
                op,
                axes,
                keepdims: n.int("keepdims").unwrap_or(1) != 0,
            };
            match (given, axes_of(n, args, 1, until, opset)) {
                (_, Some(axes)) if !axes.is_empty() => reduce(axes),
                (true, None) => opaque(n, "its axes are computed at run time"),
                // No axes: every axis, or none with noop_with_empty_axes (an axes input).
                _ if opset >= until && n.int("noop_with_empty_axes") == Some(1) => Op::Identity,
                _ => match rank {
                    Some(r) => reduce((0..r as i64).collect()),
                    None => opaque(n, "axes unknown"),
                },
            }
        }
        "DepthToSpace" | "SpaceToDepth" => match n.int("blocksize") {
            Some(b) if n.op_type == "SpaceToDepth" => Op::SpaceToDepth(b),
            // CRD is torch's pixel shuffle; DCR (the default) the other order.
            Some(b) if n.string("mode") == Some("CRD") => Op::PixelShuffle(b),
            Some(b) => Op::DepthToSpace(b),
            None => opaque(n, "no blocksize"),
        },
        "Gather" => {
            let a = n.int("axis").unwrap_or(0);
            match (arg(0), arg(1), dims_of(0)) {
                // A table looked up by the runtime's indices: an embedding.
                (Some(_), None, Some(&[vocab, dim])) if a == 0 => Op::Embedding {
                    vocab,
                    dim,
                    max_norm: None,
                },
                // One constant index: the axis picked and dropped.
                (None, Some(i), _)
                    if i.dims.is_empty() && i.ints().is_some_and(|v| v.len() == 1) =>
                {
                    let i = i.ints().and_then(|v| v.first().copied()).unwrap_or(0);
                    Op::Slice(vec![SliceAxis {
                        axis: a,
                        start: Some(i),
                        end: None,
                        step: 1,
                        index: true,
                    }])
                }
                _ => read(
                    n,
                    "a lookup by indices",
                    "padlab ports an embedding's lookup (a table in the file read by the input's indices) and a single constant index",
                    ReadRule::Gather { axis: a },
                ),
            }
        }
        // ONNX Runtime sizes it with the rule of its other pools.
        "LpPool" => match (
            layer_spec(n, LayerOp::AvgPool, None),
            n.int("p").unwrap_or(2),
        ) {
            (Ok(spec), p) if p >= 1 => Op::LpPool { spec, p },
            (Ok(_), _) => opaque(n, "a p below 1"),
            (Err(why), _) => opaque(n, &why),
        },
        "QuantizeLinear" | "DequantizeLinear" => read(
            n,
            "a quantization step",
            QUANTIZED,
            ReadRule::AsInput { scalars: 0 },
        ),
        "DynamicQuantizeLinear" => read(
            n,
            "a quantization step",
            QUANTIZED,
            ReadRule::AsInput { scalars: 2 },
        ),
        "QLinearConv" | "ConvInteger" => {
            // QLinearConv: x, x_scale, x_zero_point, w (3), ..., B (8); ConvInteger: x, w.
            let (w, b) = if n.op_type == "QLinearConv" {
                (3, 8)
            } else {
                (1, usize::MAX)
            };
            match conv_op(n, dims_of(w), b) {
                Ok(conv) => read(
                    n,
                    "a quantized convolution",
                    QUANTIZED,
                    ReadRule::Like(Box::new(conv)),
                ),
                Err(why) => opaque(n, &why),
            }
        }
        "MatMulInteger" | "QLinearMatMul" => {
            let w = if n.op_type == "QLinearMatMul" { 3 } else { 1 };
            match dims_of(w) {
                Some(&[inf, units]) if arg(w).is_some() => read(
                    n,
                    "a quantized matrix product",
                    QUANTIZED,
                    ReadRule::Like(Box::new(Op::Dense {
                        in_features: Some(inf),
                        units,
                        bias: false,
                        activation: None,
                    })),
                ),
                _ => opaque(n, "a quantized matrix product of two run-time tensors"),
            }
        }
        "LSTM" | "GRU" | "RNN" if n.int("layout").unwrap_or(0) != 0 => refused(
            n,
            "Batchwise recurrent operations (layout == 1) are not supported.",
        ),
        "LSTM" | "GRU" | "RNN" => match n.int("hidden_size") {
            Some(hidden) => read(
                n,
                "a recurrent layer",
                "padlab ports convolutions, pools and the layers around them",
                ReadRule::Recurrent {
                    hidden,
                    directions: if n.string("direction") == Some("bidirectional") {
                        2
                    } else {
                        1
                    },
                    batch_first: false,
                    states: if n.op_type == "LSTM" { 2 } else { 1 },
                },
            ),
            None => opaque(n, "no hidden_size"),
        },
        "Cast" if n.int("to") == Some(1) => Op::Identity,
        "Cast" => read(
            n,
            "a change of element type",
            "padlab ports float32 computations",
            ReadRule::AsInput { scalars: 0 },
        ),
        other if ELEMENTWISE.contains(&other) => read(
            n,
            "element-wise",
            "padlab does not port this function",
            ReadRule::AsInput { scalars: 0 },
        ),
        other => opaque(n, &format!("{other} is read, not ported")),
    }
}

/// The operators of ONNX Runtime's own domain (`com.microsoft`: what its optimiser and
/// quantiser write) padlab reads.
fn microsoft_op(n: &OnnxNode, args: &[Option<&Const>], dims: &[Option<Shape>]) -> Op {
    let dims_of = |i: usize| dims.get(i).and_then(|d| d.as_deref());
    let arg = |i: usize| args.get(i).copied().flatten();
    match n.op_type.as_str() {
        // A Conv and its activation, fused by the optimiser; with a fourth input Z, the
        // activation of the Conv plus Z.
        "FusedConv" => {
            let conv = match conv_op(n, dims_of(1), 2) {
                Ok(op) => op,
                Err(why) => return opaque(n, &why),
            };
            let param = |k: usize| {
                n.floats("activation_params")
                    .and_then(|p| p.get(k).copied())
                    .map(f64::from)
            };
            let activation = match n.string("activation").unwrap_or("") {
                "Relu" => Some(Activation::Relu),
                "Tanh" => Some(Activation::Tanh),
                "Sigmoid" => Some(Activation::Sigmoid),
                "LeakyRelu" => Some(Activation::LeakyRelu(param(0).unwrap_or(0.01))),
                "Clip" => match (param(0), param(1)) {
                    (Some(lo), Some(hi)) if lo == 0.0 && hi == 6.0 => Some(Activation::Relu6),
                    (Some(lo), Some(hi)) if lo.is_finite() && hi.is_finite() && lo <= hi => {
                        Some(Activation::Clip { lo, hi })
                    }
                    _ => None,
                },
                _ => None,
            };
            let z = n.inputs.get(3).is_some_and(|z| !z.is_empty());
            match (conv, activation) {
                (Op::Conv(mut c), Some(a)) if !z => {
                    c.activation = Some(a);
                    Op::Conv(c)
                }
                (conv, _) => read(
                    n,
                    "a convolution fused with an activation",
                    if z {
                        "padlab ports FusedConv without the summed input Z"
                    } else {
                        "an activation padlab does not port"
                    },
                    ReadRule::Like(Box::new(conv)),
                ),
            }
        }
        "QLinearAdd" | "QLinearMul" => read(
            n,
            "a quantized element-wise operation",
            QUANTIZED,
            ReadRule::Like(Box::new(Op::Elementwise {
                op: if n.op_type == "QLinearAdd" {
                    Binary::Add
                } else {
                    Binary::Mul
                },
                constant: None,
                constant_first: false,
            })),
        ),
        "QLinearGlobalAveragePool" => {
            if n.int("channels_last").unwrap_or(0) != 0 {
                return opaque(n, "a channels-last quantized pool");
            }
            read(
                n,
                "a quantized global average pool",
                QUANTIZED,
                ReadRule::Like(Box::new(Op::GlobalPool {
                    max: false,
                    keepdims: true,
                })),
            )
        }
        "QLinearAveragePool" => match layer_spec(n, LayerOp::AvgPool, None) {
            Ok(s) if n.int("channels_last").unwrap_or(0) == 0 => read(
                n,
                "a quantized average pool",
                QUANTIZED,
                ReadRule::Like(Box::new(Op::Pool(s))),
            ),
            Ok(_) => opaque(n, "a channels-last quantized pool"),
            Err(why) => opaque(n, &why),
        },
        "QLinearLeakyRelu" | "QLinearSigmoid" => read(
            n,
            "a quantized activation",
            QUANTIZED,
            ReadRule::AsInput { scalars: 0 },
        ),
        "QGemm" => match (dims_of(3), n.int("transA").unwrap_or(0)) {
            (Some(&[d0, d1]), 0) if arg(3).is_some() => {
                let (inf, units) = if n.int("transB").unwrap_or(0) != 0 {
                    (d1, d0)
                } else {
                    (d0, d1)
                };
                read(
                    n,
                    "a quantized fully connected layer",
                    QUANTIZED,
                    ReadRule::Like(Box::new(Op::Dense {
                        in_features: Some(inf),
                        units,
                        bias: false,
                        activation: None,
                    })),
                )
            }
            _ => opaque(n, "a quantized Gemm of run-time tensors"),
        },
        _ => opaque(n, "an operator of the \"com.microsoft\" domain"),
    }
}

/// The element-wise ONNX operators padlab shapes (the input's shape) but does not port.
const ELEMENTWISE: &[&str] = &[
    "Erf",
    "Floor",
    "Ceil",
    "Round",
    "Reciprocal",
    "Sign",
    "Sin",
    "Cos",
    "Tan",
    "Asin",
    "Acos",
    "Atan",
    "Sinh",
    "Cosh",
    "Asinh",
    "Acosh",
    "Atanh",
    "Not",
    "IsNaN",
    "IsInf",
    "PRelu",
    "ThresholdedRelu",
    "Celu",
    "Shrink",
    "LpNormalization",
    "LRN",
    "BitwiseNot",
];

/// The operand indices a quantized operator's shape rule reads (its data, not its scales and
/// zero points), when they are not the first input alone.
fn operands_of(n: &OnnxNode) -> Option<&'static [usize]> {
    match (n.domain.as_str(), n.op_type.as_str()) {
        ("com.microsoft", "QLinearAdd" | "QLinearMul") => Some(&[0, 3]),
        ("" | "ai.onnx", "Gemm" | "Gather") => Some(&[0, 1]),
        _ => None,
    }
}

/// One node's shapes: the per-op rule on its operands, then what only ONNX knows (an output
/// per stored output: MaxPool's indices and Dropout's mask have the first output's shape; the
/// shape-preserving operators padlab does not map).
///
/// The rule sees the runtime inputs in order, and for the ops whose rule combines every
/// operand (element-wise broadcasting, Concat, MatMul) the constants' dims too, in ONNX order.
fn node_shapes<'g>(
    op: &Op,
    n: &OnnxNode,
    args: &[Option<&Tensor>],
    shapes: &[Option<Shape>],
    shape_of: impl Fn(Edge) -> Option<&'g Shape>,
) -> Inferred {
    let every_operand = matches!(op, Op::Elementwise { .. } | Op::Concat { .. } | Op::MatMul);
    let shape_at = |i: usize| -> Option<&Shape> {
        match args.get(i).copied().flatten() {
            Some(Tensor::Edge(e)) => shape_of(*e),
            Some(Tensor::Const(_)) => shapes.get(i).and_then(Option::as_ref),
            None => None,
        }
    };
    let operands: Vec<Option<&Shape>> = match (op, operands_of(n)) {
        // A rule over named operands (Gemm's A and B, a quantized Add's two tensors).
        (Op::Read { .. }, Some(which)) => which.iter().map(|&i| shape_at(i)).collect(),
        _ => args
            .iter()
            .zip(shapes)
            .filter_map(|(a, s)| match a {
                Some(Tensor::Edge(e)) => Some(shape_of(*e)),
                Some(Tensor::Const(_)) if every_operand => Some(s.as_ref()),
                _ => None,
            })
            .collect(),
    };
    // Only element-wise ops, Concat and MatMul read several operands; the others read their
    // data (the first), their weights being their own (a weight fed as an edge, as tf2onnx
    // does through a Transpose, is not data).
    let operands: Vec<Option<&Shape>> =
        if every_operand || matches!(op, Op::Read { .. }) && operands_of(n).is_some() {
            operands
        } else {
            operands.into_iter().take(1).collect()
        };
    let mut inf = crate::model::shape::infer(op, Framework::Onnx, &operands);
    let wanted = n.outputs.len().max(1);
    let copy = matches!(n.op_type.as_str(), "MaxPool" | "Dropout");
    while inf.outputs.len() < wanted {
        let extra = if copy {
            inf.outputs.first().cloned().flatten()
        } else {
            None
        };
        inf.outputs.push(extra);
    }
    inf.outputs.truncate(wanted);
    inf
}
