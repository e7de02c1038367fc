//! ONNX files written byte by byte, for tests that need one no exporter makes (a 64 MB weight,
//! fifty thousand nodes): the protobuf wire format's two record kinds and the messages those
//! files share.

/// `n` as a protobuf varint.
pub fn varint(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Field `num` as a length-delimited record holding `body`.
pub fn field(num: u64, body: &[u8], out: &mut Vec<u8>) {
    varint(num << 3 | 2, out);
    varint(body.len() as u64, out);
    out.extend(body);
}

/// A graph input (`ValueInfoProto`): `name`, a FLOAT tensor of the sizes `dims`.
pub fn float_input(name: &str, dims: &[u64]) -> Vec<u8> {
    let mut shape = Vec::new();
    for &d in dims {
        let mut dim = Vec::new();
        varint(1 << 3, &mut dim);
        varint(d, &mut dim);
        field(1, &dim, &mut shape);
    }
    let mut tensor_type = Vec::new();
    varint(1 << 3, &mut tensor_type);
    varint(1, &mut tensor_type); // FLOAT
    field(2, &shape, &mut tensor_type);
    let mut ty = Vec::new();
    field(1, &tensor_type, &mut ty);
    let mut input = Vec::new();
    field(1, name.as_bytes(), &mut input);
    field(2, &ty, &mut input);
    input
}

/// A `ModelProto` of IR version 10 holding `graph`, importing the default domain at `opset`
/// when one is given.
pub fn model(graph: &[u8], opset: Option<u64>) -> Vec<u8> {
    let mut model = Vec::new();
    varint(1 << 3, &mut model);
    varint(10, &mut model);
    field(7, graph, &mut model);
    if let Some(version) = opset {
        let mut import = Vec::new();
        varint(2 << 3, &mut import);
        varint(version, &mut import);
        field(8, &import, &mut model);
    }
    model
}
