//! An ONNX `ModelProto`, read for its graph only.
//!
//! A hand-written reader of the few messages and fields padlab needs, over the protobuf wire
//! format in place ([`super::wire`]): unknown fields are skipped, a subgraph attribute (`If`,
//! `Loop`, `Scan` bodies) is only noted as present, and a tensor's data is decoded only when
//! it is small and numeric (a Reshape's shape, a Pad's pads, Resize's scales): the weights stay
//! in the caller's buffer, so reading a 100 MB file allocates a few hundred KB.
//!
//! Field numbers are those of `onnx.proto` (onnx/onnx, `onnx/onnx.proto`, IR version 10).

use super::limits;
use super::wire::{Fields, Value, WireError, count_varints, packed_varints};
use super::{FileError, Format};

/// An ONNX model: its operator sets and its main graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OnnxModel {
    pub ir_version: i64,
    pub producer_name: String,
    pub producer_version: String,
    /// `(domain, version)`; the default domain is `""` (or `"ai.onnx"`).
    pub opset_imports: Vec<OpsetImport>,
    /// The model's `metadata_props`.
    pub metadata: Vec<(String, String)>,
    /// Model-local functions (`functions`): counted, not read.
    pub functions: usize,
    pub graph: OnnxGraph,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpsetImport {
    pub domain: String,
    pub version: i64,
}

/// The main graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OnnxGraph {
    pub name: String,
    /// In the file's order (ONNX requires a topological one; [`super::onnx_graph`] checks).
    pub nodes: Vec<OnnxNode>,
    /// Weights and constants: name, dims, type, and the values of small numeric ones.
    pub initializers: Vec<Tensor>,
    /// The graph's inputs (older exporters also list the initializers here).
    pub inputs: Vec<ValueInfo>,
    pub outputs: Vec<ValueInfo>,
    /// Shapes the file states for intermediate tensors: a cross-check, never the source.
    pub value_info: Vec<ValueInfo>,
}

/// One operation as stored.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OnnxNode {
    pub name: String,
    pub op_type: String,
    /// `""` or `"ai.onnx"` for the standard operators.
    pub domain: String,
    /// Tensor names; `""` is an omitted optional input.
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
    pub attributes: Vec<Attribute>,
    /// The graphs of its single-graph attributes (`If`'s `then_branch` and `else_branch`), by
    /// attribute name: read up to [`limits::NESTING`] deep.
    pub subgraphs: Vec<(String, OnnxGraph)>,
}

impl OnnxNode {
    /// The subgraph of attribute `name`, when it was read.
    pub fn subgraph(&self, name: &str) -> Option<&OnnxGraph> {
        self.subgraphs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, g)| g)
    }

    pub fn attribute(&self, name: &str) -> Option<&AttrValue> {
        self.attributes
            .iter()
            .find(|a| a.name == name)
            .map(|a| &a.value)
    }

    /// An integer attribute.
    pub fn int(&self, name: &str) -> Option<i64> {
        match self.attribute(name)? {
            AttrValue::Int(i) => Some(*i),
            _ => None,
        }
    }

    pub fn float(&self, name: &str) -> Option<f32> {
        match self.attribute(name)? {
            AttrValue::Float(v) => Some(*v),
            _ => None,
        }
    }

    pub fn ints(&self, name: &str) -> Option<&[i64]> {
        match self.attribute(name)? {
            AttrValue::Ints(v) => Some(v),
            _ => None,
        }
    }

    pub fn floats(&self, name: &str) -> Option<&[f32]> {
        match self.attribute(name)? {
            AttrValue::Floats(v) => Some(v),
            _ => None,
        }
    }

    pub fn string(&self, name: &str) -> Option<&str> {
        match self.attribute(name)? {
            AttrValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// Whether the node is in the standard operator set.
    pub fn is_standard(&self) -> bool {
        self.domain.is_empty() || self.domain == "ai.onnx"
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub value: AttrValue,
}

/// An attribute's value. Graphs are noted, not read.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    Float(f32),
    Int(i64),
    /// Bytes as text (ONNX strings are UTF-8; anything else is shown lossily).
    String(String),
    Tensor(Tensor),
    /// A subgraph (`If`/`Loop`/`Scan` bodies): present, not read.
    Graph,
    Floats(Vec<f32>),
    Ints(Vec<i64>),
    Strings(Vec<String>),
    Tensors(Vec<Tensor>),
    /// This many subgraphs.
    Graphs(usize),
    /// A sparse tensor or a type: present, not read.
    Other,
}

/// ONNX `TensorProto.DataType` values padlab names.
pub mod data_type {
    pub const FLOAT: i32 = 1;
    pub const UINT8: i32 = 2;
    pub const INT8: i32 = 3;
    pub const UINT16: i32 = 4;
    pub const INT16: i32 = 5;
    pub const INT32: i32 = 6;
    pub const INT64: i32 = 7;
    pub const STRING: i32 = 8;
    pub const BOOL: i32 = 9;
    pub const FLOAT16: i32 = 10;
    pub const DOUBLE: i32 = 11;
    pub const UINT32: i32 = 12;
    pub const UINT64: i32 = 13;
}

/// A tensor's header, and its values when small and numeric.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tensor {
    pub name: String,
    pub dims: Vec<i64>,
    pub data_type: i32,
    /// The values, in row-major order, for numeric tensors of at most
    /// [`limits::SMALL_TENSOR`] elements stored in the file.
    pub values: Option<TensorData>,
    /// Stored outside the file (`data_location = EXTERNAL`): the `location` entry.
    pub external: Option<String>,
}

impl Tensor {
    /// The number of elements, when the dims multiply without overflow.
    pub fn len(&self) -> Option<usize> {
        element_count(&self.dims)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }
}

/// Small tensor values.
#[derive(Clone, Debug, PartialEq)]
pub enum TensorData {
    /// Integer and boolean types.
    Int(Vec<i64>),
    /// Floating-point types.
    Float(Vec<f64>),
}

/// A graph input, output or `value_info` entry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueInfo {
    pub name: String,
    /// The element type of a tensor (`None`: not a tensor type, or unstated).
    pub elem_type: Option<i32>,
    /// The dims; `None`: the rank is not stated.
    pub shape: Option<Vec<Dim>>,
}

/// One dimension of a stated shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    Value(i64),
    /// A symbolic size (`"batch"`, `"H"`).
    Param(String),
    /// Neither given.
    Unknown,
}

/// Reads a `ModelProto`.
pub fn read_onnx(bytes: &[u8]) -> Result<OnnxModel, FileError> {
    let mut r = Reader {
        items: limits::ITEMS,
        depth: 0,
    };
    r.model(bytes)
}

fn element_count(dims: &[i64]) -> Option<usize> {
    dims.iter().try_fold(1usize, |acc, &d| {
        usize::try_from(d).ok().and_then(|d| acc.checked_mul(d))
    })
}

/// The reader's allocation budget.
struct Reader {
    items: usize,
    /// Subgraphs entered (a node's graph attribute within another's).
    depth: usize,
}

fn corrupt(what: impl Into<String>) -> FileError {
    Format::Onnx.corrupt(what)
}

fn wire(e: WireError, message: &str) -> FileError {
    match e {
        WireError::Truncated => Format::Onnx.truncated(format!("the data ends inside a {message}")),
        e => corrupt(format!("in a {message}: {e}")),
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl Reader {
    /// Accounts for `n` more items; refuses past [`limits::ITEMS`].
    fn take(&mut self, n: usize) -> Result<(), FileError> {
        self.items = self.items.checked_sub(n).ok_or(FileError::TooLarge {
            format: Format::Onnx,
            what: "names, dims and attribute values",
            limit: limits::ITEMS,
        })?;
        Ok(())
    }

    fn string(&mut self, v: Value<'_>, message: &str) -> Result<String, FileError> {
        self.take(1)?;
        v.bytes()
            .map(text)
            .ok_or_else(|| corrupt(format!("a {message} has a string field of another type")))
    }

    fn model(&mut self, bytes: &[u8]) -> Result<OnnxModel, FileError> {
        let mut m = OnnxModel::default();
        let mut graph = None;
        let mut known = false;
        let mut fields = Fields::new(bytes);
        loop {
            let next = match fields.next_field() {
                Ok(n) => n,
                // Nothing an ONNX model starts with: not a model at all.
                Err(e) if !known => {
                    return Err(FileError::NotAModel {
                        reason: format!("not protobuf either: {e}"),
                    });
                }
                Err(e) => return Err(wire(e, "ModelProto")),
            };
            let Some((field, v)) = next else { break };
            match (field, v) {
                (1, Value::Varint(x)) => {
                    m.ir_version = x as i64;
                    known = true;
                }
                (2, Value::Bytes(_)) => m.producer_name = self.string(v, "ModelProto")?,
                (3, Value::Bytes(_)) => m.producer_version = self.string(v, "ModelProto")?,
                (7, Value::Bytes(b)) => {
                    graph = Some(b);
                    known = true;
                }
                (8, Value::Bytes(b)) => {
                    if m.opset_imports.len() >= limits::PER_NODE {
                        return Err(too_many("operator set imports", limits::PER_NODE));
                    }
                    m.opset_imports.push(self.opset(b)?);
                    known = true;
                }
                (14, Value::Bytes(b)) => {
                    if m.metadata.len() >= limits::PER_NODE {
                        return Err(too_many("metadata entries", limits::PER_NODE));
                    }
                    m.metadata.push(self.entry(b)?);
                }
                (25, Value::Bytes(_)) => m.functions = m.functions.saturating_add(1),
                // A field of a known number with another wire type: the file is not ONNX.
                (1 | 7 | 8, _) if !known => {
                    return Err(FileError::NotAModel {
                        reason: "no ONNX graph".into(),
                    });
                }
                _ => {}
            }
        }
        let Some(g) = graph else {
            return Err(FileError::NotAModel {
                reason: if known {
                    "an ONNX header without a graph".into()
                } else {
                    "no ONNX graph".into()
                },
            });
        };
        m.graph = self.graph(g)?;
        Ok(m)
    }

    fn opset(&mut self, b: &[u8]) -> Result<OpsetImport, FileError> {
        let mut o = OpsetImport::default();
        let mut f = Fields::new(b);
        while let Some((field, v)) = f.next_field().map_err(|e| wire(e, "OperatorSetIdProto"))? {
            match (field, v) {
                (1, Value::Bytes(_)) => o.domain = self.string(v, "OperatorSetIdProto")?,
                (2, Value::Varint(x)) => o.version = x as i64,
                _ => {}
            }
        }
        Ok(o)
    }

    fn entry(&mut self, b: &[u8]) -> Result<(String, String), FileError> {
        let (mut k, mut val) = (String::new(), String::new());
        let mut f = Fields::new(b);
        while let Some((field, v)) = f
            .next_field()
            .map_err(|e| wire(e, "StringStringEntryProto"))?
        {
            match (field, v) {
                (1, Value::Bytes(_)) => k = self.string(v, "StringStringEntryProto")?,
                (2, Value::Bytes(_)) => val = self.string(v, "StringStringEntryProto")?,
                _ => {}
            }
        }
        Ok((k, val))
    }

    fn graph(&mut self, b: &[u8]) -> Result<OnnxGraph, FileError> {
        let mut g = OnnxGraph::default();
        let mut f = Fields::new(b);
        while let Some((field, v)) = f.next_field().map_err(|e| wire(e, "GraphProto"))? {
            match (field, v) {
                (1, Value::Bytes(b)) => {
                    if g.nodes.len() >= limits::NODES {
                        return Err(too_many("nodes", limits::NODES));
                    }
                    self.take(1)?;
                    g.nodes.push(self.node(b)?);
                }
                (2, Value::Bytes(_)) => g.name = self.string(v, "GraphProto")?,
                (5, Value::Bytes(b)) => {
                    if g.initializers.len() >= limits::VALUES {
                        return Err(too_many("initializers", limits::VALUES));
                    }
                    self.take(1)?;
                    g.initializers.push(self.tensor(b)?);
                }
                (11..=13, Value::Bytes(b)) => {
                    let list = match field {
                        11 => &mut g.inputs,
                        12 => &mut g.outputs,
                        _ => &mut g.value_info,
                    };
                    if list.len() >= limits::VALUES {
                        return Err(too_many(
                            "graph inputs, outputs or value_info entries",
                            limits::VALUES,
                        ));
                    }
                    self.take(1)?;
                    let vi = self.value_info(b)?;
                    list.push(vi);
                }
                _ => {}
            }
        }
        Ok(g)
    }

    fn node(&mut self, b: &[u8]) -> Result<OnnxNode, FileError> {
        let mut n = OnnxNode::default();
        let mut f = Fields::new(b);
        while let Some((field, v)) = f.next_field().map_err(|e| wire(e, "NodeProto"))? {
            match (field, v) {
                (1 | 2, Value::Bytes(_)) => {
                    let list = if field == 1 {
                        &mut n.inputs
                    } else {
                        &mut n.outputs
                    };
                    if list.len() >= limits::PER_NODE {
                        return Err(too_many("inputs or outputs of one node", limits::PER_NODE));
                    }
                    let s = self.string(v, "NodeProto")?;
                    list.push(s);
                }
                (3, Value::Bytes(_)) => n.name = self.string(v, "NodeProto")?,
                (4, Value::Bytes(_)) => n.op_type = self.string(v, "NodeProto")?,
                (5, Value::Bytes(b)) => {
                    if n.attributes.len() >= limits::PER_NODE {
                        return Err(too_many("attributes of one node", limits::PER_NODE));
                    }
                    self.take(1)?;
                    let a = self.attribute(b)?;
                    if matches!(a.value, AttrValue::Graph) && self.depth < limits::NESTING {
                        // An If's branch: read, each node counted against the budget.
                        if let Some(g) = self.graph_attribute(b)? {
                            n.subgraphs.push((a.name.clone(), g));
                        }
                    }
                    n.attributes.push(a);
                }
                (7, Value::Bytes(_)) => n.domain = self.string(v, "NodeProto")?,
                _ => {}
            }
        }
        Ok(n)
    }

    /// The graph (field 6) of a graph attribute, one level deeper.
    fn graph_attribute(&mut self, b: &[u8]) -> Result<Option<OnnxGraph>, FileError> {
        let mut fields = Fields::new(b);
        while let Some((field, v)) = fields.next_field().map_err(|e| wire(e, "AttributeProto"))? {
            if let (6, Value::Bytes(g)) = (field, v) {
                self.depth += 1;
                let graph = self.graph(g);
                self.depth -= 1;
                return graph.map(Some);
            }
        }
        Ok(None)
    }

    fn attribute(&mut self, b: &[u8]) -> Result<Attribute, FileError> {
        let mut name = String::new();
        let mut declared = None;
        let (mut f32v, mut i64v, mut s, mut t) = (None, None, None, None);
        let mut g = false;
        let (mut floats, mut ints, mut strings, mut tensors) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut graphs = 0usize;
        let mut other = false;
        let mut fields = Fields::new(b);
        while let Some((field, v)) = fields.next_field().map_err(|e| wire(e, "AttributeProto"))? {
            match (field, v) {
                (1, Value::Bytes(_)) => name = self.string(v, "AttributeProto")?,
                (2, Value::Fixed32(_)) => f32v = v.float(),
                (3, Value::Varint(x)) => i64v = Some(x as i64),
                (4, Value::Bytes(b)) => {
                    self.take(1)?;
                    s = Some(text(b));
                }
                (5, Value::Bytes(b)) => t = Some(self.tensor(b)?),
                (6, Value::Bytes(_)) => g = true,
                (7, Value::Fixed32(x)) => {
                    self.take(1)?;
                    floats.push(f32::from_bits(x));
                }
                (7, Value::Bytes(b)) => {
                    // Packed: four bytes each.
                    if b.len() % 4 != 0 {
                        return Err(corrupt(
                            "a packed float attribute is not a multiple of 4 bytes",
                        ));
                    }
                    self.take(b.len() / 4)?;
                    floats.extend(
                        b.chunks_exact(4)
                            .map(|c| f32::from_le_bytes(c.try_into().unwrap_or_default())),
                    );
                }
                (8, Value::Varint(x)) => {
                    self.take(1)?;
                    ints.push(x as i64);
                }
                (8, Value::Bytes(b)) => {
                    let n = count_varints(b);
                    self.take(n)?;
                    ints.extend(packed_varints(b, n).map_err(|e| wire(e, "AttributeProto"))?);
                }
                (9, Value::Bytes(b)) => {
                    self.take(1)?;
                    strings.push(text(b));
                }
                (10, Value::Bytes(b)) => {
                    self.take(1)?;
                    tensors.push(self.tensor(b)?);
                }
                (11, Value::Bytes(_)) => graphs = graphs.saturating_add(1),
                (20, Value::Varint(x)) => declared = Some(x),
                (13, _) | (21, _) => {}
                (14 | 15 | 22 | 23, _) => other = true,
                _ => {}
            }
        }
        let value = match declared {
            Some(1) => AttrValue::Float(f32v.unwrap_or(0.0)),
            Some(2) => AttrValue::Int(i64v.unwrap_or(0)),
            Some(3) => AttrValue::String(s.unwrap_or_default()),
            Some(4) => AttrValue::Tensor(t.unwrap_or_default()),
            Some(5) => AttrValue::Graph,
            Some(6) => AttrValue::Floats(floats),
            Some(7) => AttrValue::Ints(ints),
            Some(8) => AttrValue::Strings(strings),
            Some(9) => AttrValue::Tensors(tensors),
            Some(10) => AttrValue::Graphs(graphs),
            Some(_) => AttrValue::Other,
            // Old files leave `type` out: the field that is set says it.
            None => {
                if let Some(x) = f32v {
                    AttrValue::Float(x)
                } else if let Some(x) = i64v {
                    AttrValue::Int(x)
                } else if let Some(x) = s {
                    AttrValue::String(x)
                } else if let Some(x) = t {
                    AttrValue::Tensor(x)
                } else if g {
                    AttrValue::Graph
                } else if !floats.is_empty() {
                    AttrValue::Floats(floats)
                } else if !ints.is_empty() {
                    AttrValue::Ints(ints)
                } else if !strings.is_empty() {
                    AttrValue::Strings(strings)
                } else if !tensors.is_empty() {
                    AttrValue::Tensors(tensors)
                } else if graphs > 0 {
                    AttrValue::Graphs(graphs)
                } else if other {
                    AttrValue::Other
                } else {
                    AttrValue::Ints(Vec::new())
                }
            }
        };
        Ok(Attribute { name, value })
    }

    fn tensor(&mut self, b: &[u8]) -> Result<Tensor, FileError> {
        let mut t = Tensor::default();
        let mut raw = None;
        let mut float_data: Vec<&[u8]> = Vec::new();
        let mut float_single = Vec::new();
        let mut int32_data: Vec<&[u8]> = Vec::new();
        let mut int64_data: Vec<&[u8]> = Vec::new();
        let mut double_data: Vec<&[u8]> = Vec::new();
        let mut varint_single: Vec<(u32, i64)> = Vec::new();
        let mut external = false;
        let mut location = None;
        let mut f = Fields::new(b);
        while let Some((field, v)) = f.next_field().map_err(|e| wire(e, "TensorProto"))? {
            match (field, v) {
                (1, Value::Varint(x)) => {
                    if t.dims.len() >= limits::RANK {
                        return Err(too_many("dimensions of a tensor", limits::RANK));
                    }
                    self.take(1)?;
                    t.dims.push(x as i64);
                }
                (1, Value::Bytes(b)) => {
                    let n = count_varints(b);
                    if t.dims.len().saturating_add(n) > limits::RANK {
                        return Err(too_many("dimensions of a tensor", limits::RANK));
                    }
                    self.take(n)?;
                    t.dims
                        .extend(packed_varints(b, n).map_err(|e| wire(e, "TensorProto"))?);
                }
                (2, Value::Varint(x)) => t.data_type = x as i32,
                (4, Value::Bytes(b)) if float_data.len() < limits::SMALL_TENSOR => {
                    float_data.push(b)
                }
                (4, Value::Fixed32(x)) if float_single.len() < limits::SMALL_TENSOR => {
                    float_single.push(f64::from(f32::from_bits(x)));
                }
                (5, Value::Bytes(b)) if int32_data.len() < limits::SMALL_TENSOR => {
                    int32_data.push(b)
                }
                (7, Value::Bytes(b)) if int64_data.len() < limits::SMALL_TENSOR => {
                    int64_data.push(b)
                }
                (5 | 7, Value::Varint(x)) if varint_single.len() < limits::SMALL_TENSOR => {
                    varint_single.push((field, x as i64));
                }
                (8, Value::Bytes(_)) => t.name = self.string(v, "TensorProto")?,
                (9, Value::Bytes(b)) => raw = Some(b),
                (10, Value::Bytes(b)) if double_data.len() < limits::SMALL_TENSOR => {
                    double_data.push(b)
                }
                (13, Value::Bytes(b)) => {
                    let (k, val) = self.entry(b)?;
                    if k == "location" {
                        location = Some(val);
                    }
                }
                (14, Value::Varint(1)) => external = true,
                _ => {}
            }
        }
        if external || location.is_some() {
            t.external = Some(location.unwrap_or_default());
            return Ok(t);
        }
        let Some(n) = t.len().filter(|&n| n <= limits::SMALL_TENSOR) else {
            return Ok(t);
        };
        use data_type as dt;
        t.values = match (t.data_type, raw) {
            (_, Some(raw)) => from_raw(t.data_type, raw, n),
            (dt::FLOAT, None) => {
                let mut v = float_single;
                for b in float_data {
                    v.extend(
                        b.chunks_exact(4).take(limits::SMALL_TENSOR).map(|c| {
                            f64::from(f32::from_le_bytes(c.try_into().unwrap_or_default()))
                        }),
                    );
                }
                (v.len() == n).then_some(TensorData::Float(v))
            }
            (dt::DOUBLE, None) => {
                let mut v = Vec::new();
                for b in double_data {
                    v.extend(
                        b.chunks_exact(8)
                            .take(limits::SMALL_TENSOR)
                            .map(|c| f64::from_le_bytes(c.try_into().unwrap_or_default())),
                    );
                }
                (v.len() == n).then_some(TensorData::Float(v))
            }
            (
                dt::INT64 | dt::INT32 | dt::INT16 | dt::INT8 | dt::UINT8 | dt::UINT16 | dt::BOOL,
                None,
            ) => {
                let (packed, tag) = if t.data_type == dt::INT64 {
                    (int64_data, 7)
                } else {
                    (int32_data, 5)
                };
                let mut v: Vec<i64> = varint_single
                    .iter()
                    .filter(|(f, _)| *f == tag)
                    .map(|(_, x)| *x)
                    .collect();
                for b in packed {
                    v.extend(
                        packed_varints(b, limits::SMALL_TENSOR)
                            .map_err(|e| wire(e, "TensorProto"))?,
                    );
                }
                if tag == 5 {
                    // int32_data holds 32-bit values sign-extended to 64 bits.
                    for x in &mut v {
                        *x = i64::from(*x as i32);
                    }
                }
                (v.len() == n).then_some(TensorData::Int(v))
            }
            _ => None,
        };
        Ok(t)
    }

    fn value_info(&mut self, b: &[u8]) -> Result<ValueInfo, FileError> {
        let mut vi = ValueInfo::default();
        let mut f = Fields::new(b);
        while let Some((field, v)) = f.next_field().map_err(|e| wire(e, "ValueInfoProto"))? {
            match (field, v) {
                (1, Value::Bytes(_)) => vi.name = self.string(v, "ValueInfoProto")?,
                (2, Value::Bytes(b)) => {
                    // TypeProto: only tensor_type (1) is read.
                    let mut tf = Fields::new(b);
                    while let Some((tfield, tv)) =
                        tf.next_field().map_err(|e| wire(e, "TypeProto"))?
                    {
                        if let (1, Value::Bytes(tb)) = (tfield, tv) {
                            self.tensor_type(tb, &mut vi)?;
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(vi)
    }

    fn tensor_type(&mut self, b: &[u8], vi: &mut ValueInfo) -> Result<(), FileError> {
        let mut f = Fields::new(b);
        while let Some((field, v)) = f.next_field().map_err(|e| wire(e, "TypeProto.Tensor"))? {
            match (field, v) {
                (1, Value::Varint(x)) => vi.elem_type = i32::try_from(x).ok(),
                (2, Value::Bytes(sb)) => {
                    let mut dims = Vec::new();
                    let mut sf = Fields::new(sb);
                    while let Some((sfield, sv)) =
                        sf.next_field().map_err(|e| wire(e, "TensorShapeProto"))?
                    {
                        let (1, Value::Bytes(db)) = (sfield, sv) else {
                            continue;
                        };
                        if dims.len() >= limits::RANK {
                            return Err(too_many("dimensions of a tensor", limits::RANK));
                        }
                        self.take(1)?;
                        let mut dim = Dim::Unknown;
                        let mut df = Fields::new(db);
                        while let Some((dfield, dv)) =
                            df.next_field().map_err(|e| wire(e, "Dimension"))?
                        {
                            match (dfield, dv) {
                                (1, Value::Varint(x)) => dim = Dim::Value(x as i64),
                                (2, Value::Bytes(p)) => dim = Dim::Param(text(p)),
                                _ => {}
                            }
                        }
                        dims.push(dim);
                    }
                    vi.shape = Some(dims);
                }
                _ => {}
            }
        }
        Ok(())
    }
}

fn too_many(what: &'static str, limit: usize) -> FileError {
    FileError::TooLarge {
        format: Format::Onnx,
        what,
        limit,
    }
}

/// Small values from `raw_data` (little-endian, row-major); `None` if the type is not numeric
/// or the bytes do not hold `n` elements.
fn from_raw(kind: i32, raw: &[u8], n: usize) -> Option<TensorData> {
    use data_type as dt;
    let width = match kind {
        dt::FLOAT | dt::INT32 | dt::UINT32 => 4,
        dt::DOUBLE | dt::INT64 | dt::UINT64 => 8,
        dt::INT16 | dt::UINT16 => 2,
        dt::INT8 | dt::UINT8 | dt::BOOL => 1,
        _ => return None,
    };
    if raw.len() != n.checked_mul(width)? {
        return None;
    }
    let chunks = raw.chunks_exact(width);
    let word = |c: &[u8]| {
        let mut a = [0u8; 8];
        if let Some(dst) = a.get_mut(..c.len()) {
            dst.copy_from_slice(c);
        }
        u64::from_le_bytes(a)
    };
    Some(match kind {
        dt::FLOAT => TensorData::Float(
            chunks
                .map(|c| f64::from(f32::from_bits(word(c) as u32)))
                .collect(),
        ),
        dt::DOUBLE => TensorData::Float(chunks.map(|c| f64::from_bits(word(c))).collect()),
        dt::INT64 => TensorData::Int(chunks.map(|c| word(c) as i64).collect()),
        dt::UINT64 => TensorData::Int(
            chunks
                .map(|c| i64::try_from(word(c)).unwrap_or(i64::MAX))
                .collect(),
        ),
        dt::INT32 => TensorData::Int(chunks.map(|c| i64::from(word(c) as u32 as i32)).collect()),
        dt::UINT32 => TensorData::Int(chunks.map(|c| i64::from(word(c) as u32)).collect()),
        dt::INT16 => TensorData::Int(chunks.map(|c| i64::from(word(c) as u16 as i16)).collect()),
        dt::UINT16 => TensorData::Int(chunks.map(|c| i64::from(word(c) as u16)).collect()),
        dt::INT8 => TensorData::Int(chunks.map(|c| i64::from(word(c) as u8 as i8)).collect()),
        _ => TensorData::Int(chunks.map(|c| i64::from(word(c) as u8)).collect()),
    })
}
