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
    Activation, Binary, Conv, Groups, Interpolation, Norm, Op, PadFill, Reduce, SliceAxis,
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

    let mut folded = 0usize;
    // The zero-filled Pad rows, which fold into an unpadded layer after them.
    let mut zero_pads: std::collections::HashSet<NodeId> = std::collections::HashSet::new();
    for (index, n) in g.nodes.iter().enumerate() {
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
                    display_name(n, index),
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
        let foldable =
            n.is_standard() && (all_const || n.op_type == "Shape" || n.op_type == "Size");
        if foldable {
            let refs: Vec<Option<&Const>> = consts.iter().map(Option::as_ref).collect();
            let complete = n
                .inputs
                .iter()
                .zip(&refs)
                .all(|(name, c)| name.is_empty() || c.is_some());
            if complete && let Some(out) = fold::eval(n, &refs, opset) {
                for (name, c) in n.outputs.iter().zip(out) {
                    tensors.insert(name.as_str(), Tensor::Const(c));
                }
                if n.op_type != "Constant" {
                    folded += 1;
                }
                continue;
            }
            if all_const {
                // Constants padlab cannot evaluate (a large tensor's arithmetic): their sizes
                // are unknown downstream.
                unknown_constants(&mut tensors, &n.outputs);
                graph.notes.push(format!(
                    "{} ({}) computes a constant padlab does not evaluate",
                    display_name(n, index),
                    n.op_type
                ));
                continue;
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
        let op = map_op(n, &cargs, &shapes, opset);
        let mut inferred = node_shapes(&op, n, &args, &shapes, |e| graph.shape_of(e));
        // A zero-filled Pad before a layer with no padding of its own reads as its padding.
        if let Some(Tensor::Edge(e)) = args.first().copied().flatten()
            && zero_pads.contains(&e.node)
            && unpadded(&op)
        {
            inferred.flags.push(Flag::PadFolded { pad_node: e.node });
        }
        // A layer on constants only (no runtime input) is not a row: its outputs are
        // constants of unknown value downstream.
        if edges.is_empty() {
            unknown_constants(&mut tensors, &n.outputs);
            continue;
        }
        let is_zero_pad = matches!(&op, Op::Pad { fill: PadFill::Constant(v), .. } if *v == 0.0);
        let id = graph.push(Node {
            op,
            inputs: edges,
            name: display_name(n, index),
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
    }
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

fn display_name(n: &OnnxNode, index: usize) -> String {
    if n.name.is_empty() {
        format!("{}_{index}", n.op_type)
    } else {
        n.name.clone()
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

fn opaque(n: &OnnxNode, why: &str) -> Op {
    Op::Opaque {
        what: format!("{}: {why}", n.op_type),
    }
}

/// The conv / pool spec from a node's attributes; `None` when the kernel is unknown.
fn layer_spec(
    n: &OnnxNode,
    op: LayerOp,
    weight: Option<&[i64]>,
) -> Result<LayerSpec, &'static str> {
    let kernel: Vec<i64> = match n.ints("kernel_shape") {
        Some(k) => k.to_vec(),
        None => match weight {
            Some(w) if w.len() > 2 => w.get(2..).unwrap_or_default().to_vec(),
            _ => return Err("no kernel_shape and no weight to read it from"),
        },
    };
    if kernel.is_empty() || kernel.len() > 3 {
        return Err("padlab reads 1-D to 3-D convolutions and pools");
    }
    let mut spec = LayerSpec::new(op, Framework::Onnx, Vec::new(), Dims::Each(kernel));
    spec.stride = n.ints("strides").map(|v| Dims::Each(v.to_vec()));
    spec.dilation = n.ints("dilations").map(|v| Dims::Each(v.to_vec()));
    spec.padding = match n.string("auto_pad").unwrap_or("NOTSET") {
        "SAME_UPPER" => Some(Padding::Same),
        "SAME_LOWER" => Some(Padding::SameLower),
        "VALID" => Some(Padding::Valid),
        "NOTSET" | "" => match n.ints("pads") {
            Some(p) => Some(Padding::Explicit(pairs(p).ok_or("pads has an odd length")?)),
            None => None,
        },
        _ => return Err("an auto_pad ONNX does not define"),
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
    if !n.is_standard() {
        return opaque(n, &format!("an operator of the {:?} domain", n.domain));
    }
    let act = |a: Activation| Op::Activation(a);
    match n.op_type.as_str() {
        "Conv" | "ConvTranspose" => {
            let transposed = n.op_type == "ConvTranspose";
            let kind = if transposed {
                LayerOp::ConvTranspose
            } else {
                LayerOp::Conv
            };
            let w = dims_of(1);
            let spec = match layer_spec(n, kind, w) {
                Ok(s) => s,
                Err(why) => return opaque(n, why),
            };
            let group = n.int("group").unwrap_or(1);
            let wd = w.unwrap_or_default();
            let (in_channels, filters) = match (transposed, wd) {
                (false, [m, c, ..]) => (c.checked_mul(group), *m),
                (true, [c, m, ..]) => (Some(*c), m.checked_mul(group).unwrap_or(*m)),
                _ => (None, 0),
            };
            Op::Conv(Conv {
                spec,
                in_channels,
                filters,
                groups: Groups::Count(group),
                separable: false,
                bias: n.inputs.get(2).is_some_and(|b| !b.is_empty()),
                activation: None,
            })
        }
        "MaxPool" | "AveragePool" => {
            let kind = if n.op_type == "MaxPool" {
                LayerOp::MaxPool
            } else {
                LayerOp::AvgPool
            };
            match layer_spec(n, kind, None) {
                Ok(s) => Op::Pool(s),
                Err(why) => opaque(n, why),
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
            let big = |x: i64| x >= i64::from(i32::MAX) || x <= i64::from(i32::MIN);
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
        "Gemm" => match (arg(1), n.int("transA").unwrap_or(0)) {
            (Some(w), 0) if w.dims.len() == 2 => {
                let (d0, d1) = (
                    w.dims.first().copied().unwrap_or(0),
                    w.dims.get(1).copied().unwrap_or(0),
                );
                let (inf, units) = if n.int("transB").unwrap_or(0) != 0 {
                    (d1, d0)
                } else {
                    (d0, d1)
                };
                Op::Dense {
                    in_features: Some(inf),
                    units,
                    bias: n.inputs.get(2).is_some_and(|b| !b.is_empty()),
                    activation: None,
                }
            }
            _ => Op::MatMul,
        },
        "MatMul" => match arg(1) {
            Some(w) if w.dims.len() == 2 => Op::Dense {
                in_features: w.dims.first().copied(),
                units: w.dims.get(1).copied().unwrap_or(0),
                bias: false,
                activation: None,
            },
            _ => Op::MatMul,
        },
        "Resize" | "Upsample" => {
            let (scales, size) = if n.op_type == "Upsample" {
                (
                    arg(1).and_then(Const::floats).or_else(|| {
                        n.floats("scales")
                            .map(|v| v.iter().map(|&x| f64::from(x)).collect())
                    }),
                    None,
                )
            } else if opset < 11 {
                (arg(1).and_then(Const::floats), None)
            } else {
                (
                    arg(2).and_then(Const::floats).filter(|v| !v.is_empty()),
                    arg(3)
                        .and_then(|c| c.ints().map(<[i64]>::to_vec))
                        .filter(|v| !v.is_empty()),
                )
            };
            let mode = match n.string("mode").unwrap_or("nearest") {
                "linear" | "bilinear" | "trilinear" => Interpolation::Linear,
                "cubic" => Interpolation::Bicubic,
                _ => Interpolation::Nearest,
            };
            let spatial = |v: Vec<f64>| v.get(2.min(v.len())..).unwrap_or_default().to_vec();
            match (scales, size) {
                (None, None) => opaque(n, "neither scales nor sizes known"),
                (scales, size) => Op::Upsample {
                    scale: scales.map(spatial),
                    size: size.map(|s| s.get(2.min(s.len())..).unwrap_or_default().to_vec()),
                    mode,
                    align_corners: n.string("coordinate_transformation_mode")
                        == Some("align_corners"),
                },
            }
        }
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
        "Selu" => act(Activation::Selu),
        "Sigmoid" => act(Activation::Sigmoid),
        "Tanh" => act(Activation::Tanh),
        "HardSigmoid" => act(Activation::HardSigmoid),
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
            let (lo, hi) = if opset >= 11 {
                (
                    arg(1).and_then(Const::scalar),
                    arg(2).and_then(Const::scalar),
                )
            } else {
                (n.float("min").map(f64::from), n.float("max").map(f64::from))
            };
            match (lo, hi) {
                (Some(l), Some(h)) if l == 0.0 && h == 6.0 => act(Activation::Relu6),
                (Some(0.0), None) => act(Activation::Relu),
                _ => opaque(n, "a clip other than ReLU or ReLU6"),
            }
        }
        "Softmax" | "LogSoftmax" => Op::Softmax {
            axis: n.int("axis").unwrap_or(if opset >= 13 { -1 } else { 1 }),
            log: n.op_type == "LogSoftmax",
        },
        "ReduceMean" | "ReduceSum" | "ReduceMax" | "ReduceMin" => {
            let op = match n.op_type.as_str() {
                "ReduceMean" => Reduce::Mean,
                "ReduceSum" => Reduce::Sum,
                "ReduceMax" => Reduce::Max,
                _ => Reduce::Min,
            };
            let until = if n.op_type == "ReduceSum" { 13 } else { 18 };
            let axes =
                axes_of(n, args, 1, until, opset).or_else(|| rank.map(|r| (0..r as i64).collect()));
            match axes {
                Some(axes) => Op::Reduce {
                    op,
                    axes,
                    keepdims: n.int("keepdims").unwrap_or(1) != 0,
                },
                None => opaque(n, "axes unknown"),
            }
        }
        other => opaque(n, &format!("{other} is read, not ported")),
    }
}

/// The ONNX operators whose output has their first input's shape but that padlab does not map
/// to a neutral op (their rows are `Op::Opaque`).
const SAME_SHAPE: &[&str] = &[
    "Cast",
    "Erf",
    "Floor",
    "Ceil",
    "Round",
    "Reciprocal",
    "Sign",
    "Sin",
    "Cos",
    "Not",
    "Clip",
    "PRelu",
    "ThresholdedRelu",
    "Celu",
    "Shrink",
    "LpNormalization",
    "LRN",
];

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
    let operands: Vec<Option<&Shape>> = args
        .iter()
        .zip(shapes)
        .filter_map(|(a, s)| match a {
            Some(Tensor::Edge(e)) => Some(shape_of(*e)),
            Some(Tensor::Const(_)) if every_operand => Some(s.as_ref()),
            _ => None,
        })
        .collect();
    // Only element-wise ops, Concat and MatMul read several operands; the others read their
    // data (the first), their weights being their own (a weight fed as an edge, as tf2onnx
    // does through a Transpose, is not data).
    let operands: Vec<Option<&Shape>> = if every_operand {
        operands
    } else {
        operands.into_iter().take(1).collect()
    };
    let mut inf = crate::model::shape::infer(op, Framework::Onnx, &operands);
    let first = args.iter().find_map(|a| match a {
        Some(Tensor::Edge(e)) => shape_of(*e).cloned(),
        _ => None,
    });
    if matches!(op, Op::Opaque { .. })
        && SAME_SHAPE.contains(&n.op_type.as_str())
        && let (Some(x), Some(slot)) = (first, inf.outputs.first_mut())
    {
        *slot = Some(x);
    }
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
