//! The self-check script: the source model rebuilt from the paste itself (run in its own
//! namespace, so its `if __name__ == "__main__":` tail and training stay out), its parameter
//! count asserted against padlab's, the port, every weight copied across (through the torch
//! layout, randomised first where defaults would hide a mistake: batch-norm statistics), one
//! random batch through both in inference mode, and each output compared. It prints a line
//! starting `padlab self-check passed` when everything holds.

use crate::codegen::layout::{kernel_to_first, kernel_to_last};
use crate::codegen::writer::{Py, tuple};
use crate::core::Framework;
use crate::model::code::zoo::Zoo;
use crate::model::op::{CellKind, Op, WeightAt};
use crate::model::{Model, Origin};

use super::plan::{Load, LoadKind, PlanView};
use super::{Access, PortError, Written};

/// Python helpers the script uses, by what they do.
const HELPERS: &str = r#"def reorder(w, channels, spatial, from_last, to_last):
    """A dense weight's columns, from one framework's flattening order of a map to the other's."""
    if from_last == to_last:
        return w
    n = len(spatial)
    if from_last:
        cols = w.reshape(w.shape[0], *spatial, channels)
        return cols.transpose(0, n + 1, *range(1, n + 1)).reshape(w.shape[0], -1)
    cols = w.reshape(w.shape[0], channels, *spatial)
    return cols.transpose(0, *range(2, n + 2), 1).reshape(w.shape[0], -1)


def dilate_kernel(w, dilation):
    """Inserts dilation - 1 zeros between taps (PyTorch layout)."""
    k = w.shape[2:]
    out = np.zeros(w.shape[:2] + tuple((n - 1) * d + 1 for n, d in zip(k, dilation)), w.dtype)
    out[(slice(None), slice(None)) + tuple(slice(None, None, d) for d in dilation)] = w
    return out


def as_numpy(v):
    return None if v is None else np.asarray(v.detach().cpu() if hasattr(v, "detach") else v, dtype=np.float32)


def outputs_of(y):
    """A model's outputs as a flat list of arrays."""
    if isinstance(y, dict):
        y = list(y.values())
    if isinstance(y, (list, tuple)):
        return [a for v in y for a in outputs_of(v)]
    return [as_numpy(y)]


def compare(name, got, want):
    assert got.shape == want.shape, f"{name}: the port gives shape {got.shape}, the source {want.shape}"
    # Relative to the output's own scale, however small: weights drawn with a small spread
    # give small outputs, and an absolute floor would let a wrong port pass on them.
    scale = float(np.max(np.abs(want))) if want.size else 0.0
    err = float(np.max(np.abs(got - want), initial=0.0)) / (scale if scale > 0 else 1.0)
    assert err <= TOL, f"{name}: the port differs from the source by {err:.3g} (relative to the output's scale; {TOL:g} allowed)"
    return err"#;

const GRU_GATES: &str = r#"def gru_gates(w):
    """Swaps the first two gate blocks of the last axis: Keras's GRU order (z, r, h) to torch's
    (r, z, n), and back."""
    h = w.shape[-1] // 3
    return np.concatenate([w[..., h:2 * h], w[..., :h], w[..., 2 * h:]], axis=-1)"#;

const KERAS_FIND: &str = r#"def keras_layer(model, path):
    """The layer at a Keras path (`sequential_1/conv2d_3`): names of nested layers, outermost first."""
    layer = model
    for name in path.split("/"):
        layer = next(l for l in layer._flatten_layers(include_self=False, recursive=True) if l.name == name)
    return layer"#;

const ONNX_HELPERS: &str = r#"def onnx_value(node, k):
    """Input k of an ONNX node as an array (an initializer or a Constant's value), None when absent."""
    if len(node.input) <= k or not node.input[k]:
        return None
    if node.input[k] not in init:
        init[node.input[k]] = onnx_computed(node.input[k])
    return np.asarray(init[node.input[k]], dtype=np.float32)


def onnx_computed(name):
    """A weight the graph computes from its constants (a transposed or Identity weight), by ONNX Runtime."""
    m = onnx.ModelProto()
    m.CopyFrom(onnx_model)
    m.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run([name], dict(zip([i.name for i in s.get_inputs()], FEEDS)))[0]


def onnx_inputs():
    """The graph's inputs that are not initializers, in order."""
    inits = {t.name for t in onnx_model.graph.initializer}
    return [i for i in onnx_model.graph.input if i.name not in inits]


def as_source(x, k):
    """Input k as the file declares its element type (a float16 model is fed float16)."""
    return np.asarray(x, dtype=onnx.helper.tensor_dtype_to_np_dtype(onnx_inputs()[k].type.tensor_type.elem_type))


def onnx_set(node, k, value):
    """Replaces the initializer input k of an ONNX node reads (statistics away from their defaults)."""
    for t in onnx_model.graph.initializer:
        if t.name == node.input[k]:
            value = value.astype(numpy_helper.to_array(t).dtype)
            t.CopyFrom(numpy_helper.from_array(value, t.name))
            init[t.name] = value"#;

/// The comparison's tolerance, relative to the output's scale, where the source computes in
/// float16: ten of its roundings (2^-11 each). A float16 ResNet export and a Keras
/// mixed_float16 model agree with their float32 ports to 1.5e-4; a wrong port differs by the
/// output's scale.
const HALF_TOL: &str = "5e-3";

/// A Python string literal holding `text` exactly.
pub fn string_literal(text: &str) -> String {
    let mut out = String::from("\"\"\"");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push('\n'),
            '\t' => out.push('\t'),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if ('\u{2028}'..='\u{2029}').contains(&c)
                || ('\u{fff0}'..='\u{ffff}').contains(&c) =>
            {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push_str("\"\"\"");
    out
}

/// How the script reaches the source layer named `name`.
fn source_layer(source: Framework, name: &str) -> String {
    match source {
        Framework::Keras => format!("keras_layer(source, {name:?})"),
        Framework::Onnx => format!("onnx_nodes[{name:?}]"),
        _ if name.is_empty() => "source".into(),
        _ => format!("source.get_submodule({name:?})"),
    }
}

/// Lines that read one load's weights from the source into canonical torch-layout arrays:
/// `w`, `b` (convolutions, dense), `gamma`, `beta`, `mean`, `var` (normalisations), `pw`
/// (a separable convolution's pointwise kernel).
/// `randomise`: move batch-norm statistics away from their defaults first (only at a layer's
/// first load: a layer used twice is read again, not randomised again).
fn read_source(
    py: &mut Py,
    source: Framework,
    target: Framework,
    load: &Load,
    src: &str,
    randomise: bool,
) {
    match (&load.kind, source) {
        (
            LoadKind::Cell {
                cell,
                layer,
                reverse,
                bidirectional,
                bias,
                hidden,
            },
            _,
        ) => read_cell(
            py,
            source,
            src,
            *cell,
            (*layer, *reverse, *bidirectional),
            *bias,
            *hidden,
            randomise,
        ),
        (
            LoadKind::Attention {
                heads,
                key_dim,
                value_dim,
                bias,
            },
            _,
        ) => read_attention(
            py,
            source,
            src,
            (*heads, *key_dim, *value_dim),
            *bias,
            randomise,
        ),
        (LoadKind::Conv { .. }, Framework::Onnx) => {
            // ONNX keeps PyTorch's layouts: [out, in/groups, k...], transposed [in, out/groups, k...].
            py.line(format!("w, b = onnx_value({src}, 1), onnx_value({src}, 2)"));
        }
        (LoadKind::Embedding { .. }, Framework::Onnx) => {
            // A Gather from a table: the table is its first input.
            py.line(format!("w, b = onnx_value({src}, 0), None"));
        }
        (LoadKind::Dense { bias, .. }, Framework::Onnx) => {
            // Gemm: alpha * A @ B' + beta * C; MatMul: A @ B.
            py.line(format!("node = {src}"));
            py.line("attrs = {a.name: a for a in node.attribute}");
            py.line("w = onnx_value(node, 1)");
            py.line("w = w if node.op_type == \"Gemm\" and \"transB\" in attrs and attrs[\"transB\"].i else w.T");
            py.line("w = w * (attrs[\"alpha\"].f if \"alpha\" in attrs else 1.0)");
            if *bias {
                py.block("if node.op_type == \"MatMul\"", |py| {
                    py.comment("Its bias is the constant of the Add that alone reads its output.");
                    py.line("add = next(n for n in onnx_model.graph.node if n.op_type == \"Add\" and node.output[0] in n.input)");
                    py.line("b = onnx_value(add, 1 - list(add.input).index(node.output[0]))");
                });
                py.block("else", |py| {
                    py.line(
                        "b = onnx_value(node, 2) * (attrs[\"beta\"].f if \"beta\" in attrs else 1.0)",
                    );
                });
                py.line("b = np.ascontiguousarray(np.broadcast_to(b.reshape(-1), (w.shape[0],)), dtype=np.float32)");
            } else {
                py.line("b = None");
            }
            py.line("w = np.ascontiguousarray(w, dtype=np.float32)");
        }
        (LoadKind::BatchNorm { features, .. }, Framework::Onnx) => {
            // Statistics and affine values away from their defaults, so they matter.
            py.line(format!("node = {src}"));
            if randomise {
                py.block(
                    "for k, low, high in ((1, 0.5, 1.5), (2, -0.5, 0.5), (3, -0.5, 0.5), (4, 0.5, 2.0))",
                    |py| {
                        py.line(format!(
                            "onnx_set(node, k, rng.uniform(low, high, {features}).astype(np.float32))"
                        ));
                    },
                );
            }
            py.line("gamma, beta, mean, var = (onnx_value(node, k) for k in (1, 2, 3, 4))");
        }
        (LoadKind::LayerNorm { .. } | LoadKind::GroupNorm, Framework::Onnx) => {
            py.line(format!(
                "gamma, beta = onnx_value({src}, 1), onnx_value({src}, 2)"
            ));
        }
        (LoadKind::Conv { .. }, Framework::Torch)
        | (LoadKind::Dense { .. }, Framework::Torch)
        | (LoadKind::Embedding { .. }, Framework::Torch) => {
            py.line(format!(
                "w, b = as_numpy({src}.weight), as_numpy(getattr({src}, \"bias\", None))"
            ));
        }
        (
            LoadKind::Conv {
                transposed,
                rank,
                depthwise,
                separable,
                ..
            },
            _,
        ) => {
            let n = *rank;
            if let Some(mult) = depthwise {
                // [k..., in, mult] -> [in * mult, 1, k...] (torch's grouped layout).
                let to_first: Vec<i64> = std::iter::once(n as i64).chain(0..n as i64).collect();
                py.line(format!("dk = as_numpy({src}.depthwise_kernel if hasattr({src}, \"depthwise_kernel\") else {src}.kernel)"));
                py.line(format!(
                    "w = np.transpose(dk.reshape(dk.shape[:{n}] + (-1,)), {})[:, None]",
                    tuple(&to_first)
                ));
                let _ = mult;
                if *separable {
                    py.line(format!(
                        "pw = np.transpose(as_numpy({src}.pointwise_kernel), {})",
                        tuple(&kernel_to_first(n))
                    ));
                }
            } else if *transposed {
                // [k..., out, in] -> [in, out, k...].
                let order: Vec<i64> = [n as i64 + 1, n as i64]
                    .into_iter()
                    .chain(0..n as i64)
                    .collect();
                py.line(format!(
                    "w = np.transpose(as_numpy({src}.kernel), {})",
                    tuple(&order)
                ));
            } else {
                py.line(format!(
                    "w = np.transpose(as_numpy({src}.kernel), {})",
                    tuple(&kernel_to_first(n))
                ));
            }
            py.line(format!(
                "b = as_numpy({src}.bias) if {src}.use_bias else None"
            ));
        }
        (LoadKind::Dense { .. }, _) => {
            py.line(format!("w = as_numpy({src}.kernel).T"));
            py.line(format!(
                "b = as_numpy({src}.bias) if {src}.use_bias else None"
            ));
        }
        (LoadKind::Embedding { .. }, _) => {
            py.line(format!("w, b = as_numpy({src}.embeddings), None"));
        }
        (LoadKind::BatchNorm { features, .. }, Framework::Torch) => {
            // Statistics and affine values away from their defaults, so they matter.
            if randomise {
                py.line(format!("{src}.running_mean.copy_(torch.from_numpy(rng.uniform(-0.5, 0.5, {features}).astype(np.float32)))"));
                py.line(format!("{src}.running_var.copy_(torch.from_numpy(rng.uniform(0.5, 2.0, {features}).astype(np.float32)))"));
                py.block(format!("if {src}.weight is not None"), |py| {
                    py.line(format!("{src}.weight.copy_(torch.from_numpy(rng.uniform(0.5, 1.5, {features}).astype(np.float32)))"));
                    py.line(format!("{src}.bias.copy_(torch.from_numpy(rng.uniform(-0.5, 0.5, {features}).astype(np.float32)))"));
                });
            }
            py.line(format!("gamma, beta, mean, var = as_numpy({src}.weight), as_numpy({src}.bias), as_numpy({src}.running_mean), as_numpy({src}.running_var)"));
        }
        (
            LoadKind::BatchNorm {
                features,
                center,
                scale,
            },
            _,
        ) => {
            if randomise {
                py.line(format!(
                    "{src}.moving_mean.assign(rng.uniform(-0.5, 0.5, {features}).astype(np.float32))"
                ));
                py.line(format!(
                    "{src}.moving_variance.assign(rng.uniform(0.5, 2.0, {features}).astype(np.float32))"
                ));
            }
            py.line("gamma = beta = None");
            if *scale {
                if randomise {
                    py.line(format!(
                        "{src}.gamma.assign(rng.uniform(0.5, 1.5, {features}).astype(np.float32))"
                    ));
                }
                py.line(format!("gamma = as_numpy({src}.gamma)"));
            }
            if *center {
                if randomise {
                    py.line(format!(
                        "{src}.beta.assign(rng.uniform(-0.5, 0.5, {features}).astype(np.float32))"
                    ));
                }
                py.line(format!("beta = as_numpy({src}.beta)"));
            }
            py.line(format!(
                "mean, var = as_numpy({src}.moving_mean), as_numpy({src}.moving_variance)"
            ));
        }
        (LoadKind::LayerNorm { .. } | LoadKind::GroupNorm, Framework::Torch) => {
            py.line(format!(
                "gamma, beta = as_numpy({src}.weight), as_numpy(getattr({src}, \"bias\", None))"
            ));
        }
        (LoadKind::LayerScale { perm }, _) => {
            // ConvNeXt starts it at 1e-6, which would hide its branch: off that first.
            if randomise {
                py.line(format!(
                    "{src}.gamma.assign(rng.uniform(0.5, 1.5, tuple({src}.gamma.shape)).astype(np.float32))"
                ));
            }
            let perm: Vec<i64> = perm.iter().map(|&a| a as i64).collect();
            let rank = perm.len();
            let mut shape = vec![1; rank.saturating_sub(1)];
            shape.push(-1);
            py.line(format!(
                "gamma = np.transpose(as_numpy({src}.gamma).reshape({}), {}).copy()",
                tuple(&shape),
                tuple(&perm)
            ));
        }
        (LoadKind::Learned { weight, full, perm }, _) => {
            let at = match weight {
                WeightAt::Layer(attr) => format!("{src}.{attr}"),
                WeightAt::Param(path) => format!("source.get_parameter({path:?})"),
                WeightAt::Owner(_, attr) => format!("{src}.{attr}"),
            };
            // Off its start (ConvNeXt's 1e-6, a PReLU's 0.25, a gate's zero) so it matters.
            if randomise {
                let values = format!("rng.uniform(0.5, 1.5, tuple({at}.shape)).astype(np.float32)");
                match source {
                    Framework::Torch => py.line(format!("{at}.copy_(torch.from_numpy({values}))")),
                    _ => py.line(format!("{at}.assign({values})")),
                };
            }
            let perm: Vec<i64> = perm.iter().map(|&a| a as i64).collect();
            py.line(format!(
                "w = np.transpose(as_numpy({at}).reshape({}), {}).copy()",
                tuple(full),
                tuple(&perm)
            ));
        }
        (LoadKind::Standardize { perm }, _) => {
            // Keras's Normalization: its statistics away from their defaults (zeros and
            // ones), so they matter; `mean` and `variance` are them in the broadcast shape.
            if randomise {
                for (weight, low, high) in [
                    ("adapt_mean", "-0.5", "0.5"),
                    ("adapt_variance", "0.5", "2.0"),
                ] {
                    py.line(format!(
                        "{src}.{weight}.assign(rng.uniform({low}, {high}, tuple({src}.{weight}.shape)).astype(np.float32))"
                    ));
                }
                py.line(format!("{src}.finalize_state()"));
            }
            let perm: Vec<i64> = perm.iter().map(|&a| a as i64).collect();
            py.line(format!(
                "mean, var = (np.transpose(as_numpy(v), {}).copy() for v in ({src}.mean, {src}.variance))",
                tuple(&perm)
            ));
        }
        (LoadKind::LayerNorm { .. } | LoadKind::GroupNorm, _) => {
            py.line(format!(
                "gamma = as_numpy({src}.gamma) if {src}.scale else None"
            ));
            py.line(format!(
                "beta = as_numpy({src}.beta) if {src}.center else None"
            ));
        }
    }
    if let LoadKind::Conv {
        dilate: Some(d), ..
    } = &load.kind
    {
        py.line(format!("w = dilate_kernel(w, {})", tuple(d)));
    }
    if let (LoadKind::Embedding { max_norm: Some(m) }, true) =
        (&load.kind, target != Framework::Torch)
    {
        // torch rescales the rows it looks up to `max_norm` at most; the port's table holds
        // them rescaled already (rows never looked up do not matter).
        py.line("norms = np.linalg.norm(w, axis=1, keepdims=True)");
        py.line(format!(
            "w = np.where(norms > {m}, w * ({m} / (norms + 1e-7)), w).astype(np.float32)",
            m = super::float(*m)
        ));
    }
    if let LoadKind::Dense {
        flatten: Some(f), ..
    } = &load.kind
    {
        let port_last = !f.source_last;
        py.line(format!(
            "w = reorder(w, {}, {}, {}, {})",
            f.channels,
            tuple(&f.spatial),
            super::py_bool(f.source_last),
            super::py_bool(port_last)
        ));
    }
}

/// A recurrent layer's weights for one layer and direction as torch's `w_ih`, `w_hh`, `b_ih`,
/// `b_hh` (gates in torch's order; zeros where the source has no bias). Keras's start at
/// zeros (and ones for a forget gate): moved off them first, so they matter.
#[allow(clippy::too_many_arguments)]
fn read_cell(
    py: &mut Py,
    source: Framework,
    src: &str,
    cell: CellKind,
    (layer, reverse, bidirectional): (i64, bool, bool),
    bias: bool,
    hidden: i64,
    randomise: bool,
) {
    let rows = cell.gates() * hidden;
    if source == Framework::Torch {
        let suffix = format!("_l{layer}{}", if reverse { "_reverse" } else { "" });
        py.line(format!("w_ih = as_numpy({src}.weight_ih{suffix})"));
        py.line(format!("w_hh = as_numpy({src}.weight_hh{suffix})"));
        if bias {
            py.line(format!("b_ih = as_numpy({src}.bias_ih{suffix})"));
            py.line(format!("b_hh = as_numpy({src}.bias_hh{suffix})"));
        } else {
            py.line(format!("b_ih = b_hh = np.zeros({rows}, np.float32)"));
        }
        return;
    }
    let owner = match (bidirectional, reverse) {
        (false, _) => format!("{src}.cell"),
        (true, false) => format!("{src}.forward_layer.cell"),
        (true, true) => format!("{src}.backward_layer.cell"),
    };
    py.line(format!("cell = {owner}"));
    if bias && randomise {
        py.line(
            "cell.bias.assign(rng.uniform(-0.5, 0.5, tuple(cell.bias.shape)).astype(np.float32))",
        );
    }
    let gates = |w: &str| {
        if matches!(cell, CellKind::Gru { .. }) {
            format!("gru_gates({w})")
        } else {
            w.to_string()
        }
    };
    py.line(format!(
        "w_ih = np.ascontiguousarray({}.T)",
        gates("as_numpy(cell.kernel)")
    ));
    py.line(format!(
        "w_hh = np.ascontiguousarray({}.T)",
        gates("as_numpy(cell.recurrent_kernel)")
    ));
    match (bias, cell) {
        (false, _) => {
            py.line(format!("b_ih = b_hh = np.zeros({rows}, np.float32)"));
        }
        (true, CellKind::Gru { reset_after: true }) => {
            py.line("b_ih, b_hh = gru_gates(as_numpy(cell.bias))");
        }
        (true, CellKind::Gru { reset_after: false }) => {
            py.line(format!(
                "b_ih, b_hh = gru_gates(as_numpy(cell.bias)), np.zeros({rows}, np.float32)"
            ));
        }
        _ => {
            py.line(format!(
                "b_ih, b_hh = as_numpy(cell.bias), np.zeros({rows}, np.float32)"
            ));
        }
    }
}

/// Multi-head attention's weights as torch-layout `wq`, `wk`, `wv` (`[heads * dim,
/// features]`), `wo` (`[output, heads * value_dim]`) and biases (zeros where the source has
/// none). Both frameworks start the biases at zeros: moved off them first.
fn read_attention(
    py: &mut Py,
    source: Framework,
    src: &str,
    (heads, key_dim, value_dim): (i64, i64, i64),
    bias: bool,
    randomise: bool,
) {
    let (hk, hv) = (heads * key_dim, heads * value_dim);
    if source == Framework::Torch {
        py.line(format!("mha = {src}"));
        if bias && randomise {
            py.line("mha.in_proj_bias.copy_(torch.from_numpy(rng.uniform(-0.5, 0.5, tuple(mha.in_proj_bias.shape)).astype(np.float32)))");
            py.line("mha.out_proj.bias.copy_(torch.from_numpy(rng.uniform(-0.5, 0.5, tuple(mha.out_proj.bias.shape)).astype(np.float32)))");
        }
        py.block("if mha.in_proj_weight is not None", |py| {
            py.line("wq, wk, wv = np.split(as_numpy(mha.in_proj_weight), 3)");
        });
        py.block("else", |py| {
            py.line("wq, wk, wv = (as_numpy(w) for w in (mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight))");
        });
        py.line("wo = as_numpy(mha.out_proj.weight)");
        if bias {
            py.line("bq, bk, bv = np.split(as_numpy(mha.in_proj_bias), 3)");
            py.line("bo = as_numpy(mha.out_proj.bias)");
        } else {
            py.line(format!(
                "bq, bk, bv, bo = np.zeros({hk}, np.float32), np.zeros({hk}, np.float32), np.zeros({hv}, np.float32), np.zeros(wo.shape[0], np.float32)"
            ));
        }
        return;
    }
    py.line(format!("mha = {src}"));
    let parts = [
        ("q", "query_dense"),
        ("k", "key_dense"),
        ("v", "value_dense"),
    ];
    if bias && randomise {
        for (_, dense) in parts.iter().chain([("o", "output_dense")].iter()) {
            py.line(format!("mha.{dense}.bias.assign(rng.uniform(-0.5, 0.5, tuple(mha.{dense}.bias.shape)).astype(np.float32))"));
        }
    }
    for (k, dense) in parts {
        py.line(format!(
            "w{k} = np.ascontiguousarray(as_numpy(mha.{dense}.kernel).reshape(-1, {}).T)",
            if k == "v" { hv } else { hk }
        ));
    }
    py.line(format!(
        "wo = np.ascontiguousarray(as_numpy(mha.output_dense.kernel).reshape({hv}, -1).T)"
    ));
    if bias {
        for (k, dense) in parts {
            py.line(format!("b{k} = as_numpy(mha.{dense}.bias).reshape(-1)"));
        }
        py.line("bo = as_numpy(mha.output_dense.bias).reshape(-1)");
    } else {
        py.line(format!(
            "bq, bk, bv, bo = np.zeros({hk}, np.float32), np.zeros({hk}, np.float32), np.zeros({hv}, np.float32), np.zeros(wo.shape[0], np.float32)"
        ));
    }
}

/// Lines that set one load's canonical arrays into a PyTorch port.
fn write_torch(py: &mut Py, load: &Load, access: &Access) {
    let dst = &access.layer;
    let set = |py: &mut Py, attr: &str, v: &str| {
        py.line(format!("{dst}.{attr}.copy_(torch.from_numpy({v}))"));
    };
    match &load.kind {
        LoadKind::Conv {
            separable, bias, ..
        } => {
            set(py, "weight", "w");
            if let Some(pw) = &access.pointwise {
                py.line(format!("{pw}.weight.copy_(torch.from_numpy(pw))"));
                if *bias {
                    py.line(format!("{pw}.bias.copy_(torch.from_numpy(b))"));
                }
            } else if *bias && !*separable {
                let target = access.bias.as_deref().unwrap_or(dst);
                py.line(format!("{target}.bias.copy_(torch.from_numpy(b))"));
            }
        }
        LoadKind::Dense { bias, .. } => {
            set(py, "weight", "w");
            if *bias {
                set(py, "bias", "b");
            }
        }
        LoadKind::Embedding { .. } => set(py, "weight", "w"),
        LoadKind::BatchNorm { .. } => {
            py.line(format!(
                "bn = {dst}.bn if hasattr({dst}, \"bn\") else {dst}"
            ));
            py.block("if bn.weight is not None", |py| {
                py.line("bn.weight.copy_(torch.from_numpy(gamma if gamma is not None else np.ones_like(mean)))");
                py.line("bn.bias.copy_(torch.from_numpy(beta if beta is not None else np.zeros_like(mean)))");
            });
            py.line("bn.running_mean.copy_(torch.from_numpy(mean))");
            py.line("bn.running_var.copy_(torch.from_numpy(var))");
        }
        LoadKind::Standardize { .. } => {
            set(py, "mean", "mean");
            set(py, "variance", "var");
        }
        LoadKind::LayerScale { .. } => set(py, "gamma", "gamma"),
        LoadKind::Learned { .. } => {
            py.line(format!("{dst}.copy_(torch.from_numpy(w))"));
        }
        LoadKind::Cell { bias, .. } => {
            set(py, "weight_ih_l0", "w_ih");
            set(py, "weight_hh_l0", "w_hh");
            if *bias {
                set(py, "bias_ih_l0", "b_ih");
                set(py, "bias_hh_l0", "b_hh");
            }
        }
        LoadKind::Attention { bias, .. } => {
            for (part, k) in [
                ("query", "q"),
                ("key", "k"),
                ("value", "v"),
                ("output", "o"),
            ] {
                set(py, &format!("{part}.weight"), &format!("w{k}"));
                if *bias {
                    set(py, &format!("{part}.bias"), &format!("b{k}"));
                }
            }
        }
        LoadKind::LayerNorm { .. } | LoadKind::GroupNorm => {
            py.block(format!("if {dst}.weight is not None"), |py| {
                py.line(format!("{dst}.weight.copy_(torch.from_numpy(gamma))"));
            });
            py.block(
                format!("if getattr({dst}, \"bias\", None) is not None"),
                |py| {
                    py.line(format!("{dst}.bias.copy_(torch.from_numpy(beta))"));
                },
            );
        }
    }
}

/// NumPy arrays as the torch tensors a module is called on, comma separated.
fn torch_args(xs: &[String]) -> String {
    let args: Vec<String> = xs
        .iter()
        .map(|x| format!("torch.from_numpy({x})"))
        .collect();
    args.join(", ")
}

/// Lines that set one load's canonical arrays into `params` of a TensorFlow or JAX port. JAX
/// takes PyTorch's layouts as they are (the single-layer JAX code's `OIHW` kernels);
/// TensorFlow (`channels_last`) kernels `[k..., in/groups, out]` (a transposed one
/// `[k..., out/groups, in]`; when each group reads one channel, `[k..., in, multiplier]` for
/// `tf.nn.depthwise_conv2d`), dense `[in, out]`.
fn write_params(py: &mut Py, load: &Load, access: &Access, channels_last: bool) {
    let dst = &access.layer;
    match &load.kind {
        LoadKind::Conv {
            transposed,
            rank,
            groups,
            separable,
            bias,
            ..
        } => {
            let n = *rank;
            if channels_last {
                py.line(format!(
                    "w = np.transpose(w, {})",
                    tuple(&kernel_to_last(n))
                ));
                if !*transposed && *groups > 1 {
                    py.block("if w.shape[-2] == 1", |py| {
                        py.line(format!(
                            "w = w.reshape(w.shape[:{n}] + ({groups}, -1))  # depthwise: [k..., in, multiplier]"
                        ));
                    });
                }
                py.line(format!("{dst} = {{\"w\": np.ascontiguousarray(w)}}"));
            } else {
                py.line(format!("{dst} = {{\"w\": w}}"));
            }
            if *separable {
                let pw = if channels_last {
                    format!(
                        "np.ascontiguousarray(np.transpose(pw, {}))",
                        tuple(&kernel_to_last(n))
                    )
                } else {
                    "pw".into()
                };
                py.line(format!("{dst}[\"pointwise\"] = {pw}"));
            }
            if *bias {
                py.line(format!("{dst}[\"b\"] = b"));
            }
        }
        LoadKind::Dense { bias, .. } => {
            let w = if channels_last {
                "np.ascontiguousarray(w.T)"
            } else {
                "w"
            };
            py.line(format!("{dst} = {{\"w\": {w}}}"));
            if *bias {
                py.line(format!("{dst}[\"b\"] = b"));
            }
        }
        LoadKind::Embedding { .. } => {
            py.line(format!("{dst} = {{\"w\": w}}"));
        }
        LoadKind::BatchNorm { .. } => {
            py.line(format!(
                "{dst} = {{\"mean\": mean, \"var\": var, \"gamma\": gamma, \"beta\": beta}}"
            ));
        }
        LoadKind::LayerNorm { .. } | LoadKind::GroupNorm => {
            py.line(format!("{dst} = {{\"gamma\": gamma, \"beta\": beta}}"));
        }
        LoadKind::Standardize { .. } => {
            py.line(format!("{dst} = {{\"mean\": mean, \"variance\": var}}"));
        }
        LoadKind::LayerScale { .. } => {
            py.line(format!("{dst} = {{\"gamma\": gamma}}"));
        }
        LoadKind::Learned { .. } => {
            py.line(format!("{dst} = {{\"w\": w}}"));
        }
        LoadKind::Cell { .. } => {
            py.line(format!(
                "{dst} = {{\"w_ih\": w_ih, \"w_hh\": w_hh, \"b_ih\": b_ih, \"b_hh\": b_hh}}"
            ));
        }
        LoadKind::Attention { .. } => {
            py.line(format!(
                "{dst} = {{\"wq\": wq, \"bq\": bq, \"wk\": wk, \"bk\": bk, \"wv\": wv, \"bv\": bv, \"wo\": wo, \"bo\": bo}}"
            ));
        }
    }
}

/// Lines that set one load's canonical arrays into a Keras port (`access.layer` is the layer
/// the writer named): kernels to Keras's layouts, `[k..., in, out]` (grouped: `in / groups`),
/// `[k..., out, in]` transposed, depthwise `[k..., in, multiplier]`; a dense kernel `w.T`.
fn write_keras(py: &mut Py, load: &Load, access: &Access) {
    let dst = &access.layer;
    if dst.is_empty() {
        py.comment("Not in the port: the layer reaches no output.");
        return;
    }
    match &load.kind {
        LoadKind::Conv {
            transposed,
            rank,
            depthwise,
            separable,
            bias,
            bias_apart,
            ..
        } => {
            let n = *rank;
            let spatial: Vec<i64> = (1..=n as i64).collect();
            let kernel = match (depthwise, transposed) {
                // [in * mult, 1, k...] -> [k..., in, mult] (the output channel c * mult + m).
                (Some(mult), _) if n <= 2 => format!(
                    "np.transpose(w[:, 0], {}).reshape(w.shape[2:] + (-1, {mult}))",
                    tuple(&spatial.iter().copied().chain([0]).collect::<Vec<_>>())
                ),
                // [in, out, k...] -> [k..., out, in].
                (_, true) => format!(
                    "np.transpose(w, {})",
                    tuple(&(2..n as i64 + 2).chain([1, 0]).collect::<Vec<_>>())
                ),
                _ => format!("np.transpose(w, {})", tuple(&kernel_to_last(n))),
            };
            let mut weights = vec![kernel];
            if *separable {
                weights.push(format!("np.transpose(pw, {})", tuple(&kernel_to_last(n))));
            }
            if *bias && !*bias_apart {
                weights.push("b".into());
            }
            py.line(format!("{dst}.set_weights([{}])", weights.join(", ")));
            if *bias && *bias_apart {
                let target = access.bias.as_deref().unwrap_or(dst);
                py.line(format!("{target}.set_weights([b])"));
            }
        }
        LoadKind::Dense { bias, .. } => {
            let b = if *bias { ", b" } else { "" };
            py.line(format!("{dst}.set_weights([w.T{b}])"));
        }
        // (torch's max_norm is applied to the rows by `read_source`.)
        LoadKind::Embedding { .. } => {
            py.line(format!("{dst}.set_weights([w])"));
        }
        LoadKind::BatchNorm { center, scale, .. } => {
            if *scale {
                py.line(format!("{dst}.gamma.assign(gamma)"));
            }
            if *center {
                py.line(format!("{dst}.beta.assign(beta)"));
            }
            py.line(format!("{dst}.moving_mean.assign(mean)"));
            py.line(format!("{dst}.moving_variance.assign(var)"));
        }
        LoadKind::LayerScale { .. } => {
            py.line(format!(
                "{dst}.gamma.assign(gamma.reshape(tuple({dst}.gamma.shape)))"
            ));
        }
        LoadKind::Learned { .. } => {
            py.line(format!("{dst}.w.assign(w.reshape(tuple({dst}.w.shape)))"));
        }
        LoadKind::Standardize { .. } => {
            for (weight, v) in [("adapt_mean", "mean"), ("adapt_variance", "var")] {
                py.line(format!(
                    "{dst}.{weight}.assign({v}.reshape(tuple({dst}.{weight}.shape)))"
                ));
            }
            py.line(format!("{dst}.finalize_state()"));
        }
        LoadKind::Cell { cell, bias, .. } => {
            let gates = |w: &str| {
                if matches!(cell, CellKind::Gru { .. }) {
                    format!("gru_gates({w})")
                } else {
                    w.to_string()
                }
            };
            let mut weights = vec![gates("w_ih.T"), gates("w_hh.T")];
            if *bias {
                weights.push(match cell {
                    CellKind::Gru { reset_after: true } => {
                        "np.stack([gru_gates(b_ih), gru_gates(b_hh)])".into()
                    }
                    CellKind::Gru { reset_after: false } => "gru_gates(b_ih)".into(),
                    _ => "b_ih + b_hh".into(),
                });
            }
            py.line(format!("{dst}.set_weights([{}])", weights.join(", ")));
        }
        LoadKind::Attention {
            heads,
            key_dim,
            value_dim,
            bias,
        } => {
            for (k, dense, dim) in [
                ("q", "query_dense", key_dim),
                ("k", "key_dense", key_dim),
                ("v", "value_dense", value_dim),
            ] {
                py.line(format!(
                    "{dst}.{dense}.kernel.assign(w{k}.T.reshape(-1, {heads}, {dim}))"
                ));
                if *bias {
                    py.line(format!(
                        "{dst}.{dense}.bias.assign(b{k}.reshape({heads}, {dim}))"
                    ));
                }
            }
            py.line(format!(
                "{dst}.output_dense.kernel.assign(wo.T.reshape({heads}, {value_dim}, -1))"
            ));
            if *bias {
                py.line(format!("{dst}.output_dense.bias.assign(bo)"));
            }
        }
        LoadKind::LayerNorm { .. } | LoadKind::GroupNorm => {
            py.block("if gamma is not None", |py| {
                py.line(format!(
                    "{dst}.gamma.assign(gamma.reshape(tuple({dst}.gamma.shape)))"
                ));
            });
            py.block("if beta is not None", |py| {
                py.line(format!(
                    "{dst}.beta.assign(beta.reshape(tuple({dst}.beta.shape)))"
                ));
            });
        }
    }
}

fn imports(py: &mut Py, f: Framework) {
    let lines: &[&str] = match f {
        Framework::Torch => &[
            "import torch",
            "import torch.nn as nn",
            "import torch.nn.functional as F",
        ],
        Framework::Keras => &["import keras", "from keras import layers"],
        Framework::Tf => &["import tensorflow as tf"],
        Framework::Jax => &[
            "import jax",
            "import jax.numpy as jnp",
            "from jax import lax",
        ],
        Framework::Onnx => &["import onnxruntime as ort"],
    };
    for l in lines {
        py.import(l);
    }
}

/// The script for `written` (the port of `model` planned as `plan`).
pub fn script(model: &Model, plan: &PlanView, written: &Written) -> Result<String, PortError> {
    let source = plan.source;
    let target = plan.target;
    let file = match &model.origin {
        Origin::Missing { line, what } => return Err(PortError::at(*line, what.clone())),
        Origin::File { path, .. } => Some(path.as_str()),
        Origin::Code { .. } => None,
    };
    let input = model.input.clone().ok_or(PortError::NoInput)?;
    let mut py = Py::new();
    py.comment(format!(
        "padlab self-check: the {} model from the {}, and its {} port, on one random batch.",
        source.title(),
        if file.is_some() { "file" } else { "paste" },
        target.title()
    ));
    if file.is_some() {
        py.comment("Usage: python this_script.py [MODEL_FILE]");
    }
    // Keras before TensorFlow or torch (Keras on torch aborts if TensorFlow came first).
    let mut frameworks = vec![source, target];
    frameworks.sort_by_key(|f| match f {
        Framework::Keras => 0,
        Framework::Tf => 1,
        _ => 2,
    });
    frameworks.dedup();
    for f in &frameworks {
        imports(&mut py, *f);
    }
    py.import("import numpy as np");
    if let Some(path) = file {
        py.import("import sys");
        if source == Framework::Onnx {
            py.import("import onnx");
            py.import("from onnx import numpy_helper");
        }
        py.comment(format!(
            "---- The source model, from the file ({}) ----",
            source.title()
        ));
        py.line(format!(
            "PATH = sys.argv[1] if len(sys.argv) > 1 else {}",
            string_literal(path)
        ));
        if let Origin::File { external, .. } = &model.origin
            && !external.is_empty()
        {
            py.import("import os");
            py.comment(
                "Its weights are in files beside it (ONNX external data), which onnx.load reads.",
            );
            py.block(
                format!(
                    "for data in [{}]",
                    external
                        .iter()
                        .map(|e| string_literal(e))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                |py| {
                    py.block(
                        "if not os.path.exists(os.path.join(os.path.dirname(os.path.abspath(PATH)), data))",
                        |py| {
                            py.line("sys.exit(f\"padlab self-check: {PATH} keeps its weights in {data} (ONNX external data), which is not beside it\")");
                        },
                    );
                },
            );
        }
        if source == Framework::Onnx {
            py.line("onnx_model = onnx.load(PATH)");
            py.line(
                "init = {t.name: numpy_helper.to_array(t) for t in onnx_model.graph.initializer}",
            );
            py.block("for n in onnx_model.graph.node", |py| {
                py.block("if n.op_type == \"Constant\"", |py| {
                    py.line("init.update({n.output[0]: numpy_helper.to_array(a.t) for a in n.attribute if a.name == \"value\"})");
                });
            });
            py.comment("padlab names a node without a name by its operator and index.");
            py.line("onnx_nodes = {(n.name or f\"{n.op_type}_{i}\"): n for i, n in enumerate(onnx_model.graph.node)}");
        } else if matches!(
            model.origin,
            Origin::File {
                format: crate::model::file::Format::Hdf5,
                ..
            }
        ) {
            // Keras 3 refuses some Keras 2 files (tf_keras writes `groups` on depthwise and
            // transposed layers, and numbers a nested model's calls from 1): Keras 2 loads them.
            py.block("try", |py| {
                py.line("source = keras.saving.load_model(PATH, compile=False)");
            });
            py.block("except Exception as keras3_refusal", |py| {
                py.block("try", |py| {
                    py.line("import tf_keras");
                });
                py.block("except ImportError", |py| {
                    py.line("raise SystemExit(f\"padlab self-check: Keras 3 does not load {PATH} ({keras3_refusal}); install tf_keras (Keras 2), which reads Keras 2 files, to check the port\") from None");
                });
                py.line("source = tf_keras.models.load_model(PATH, compile=False)");
            });
        } else {
            py.line("source = keras.saving.load_model(PATH, compile=False)");
        }
    } else {
        source_from_paste(&mut py, model)?;
    }
    script_rest(py, model, plan, written, input, file.is_some())
}

/// torchvision's models for a paste that builds on them: the real torchvision where it is
/// installed, else padlab's own copy of the architectures (the text padlab read) as the
/// `torchvision.models` module; never a download (a builder asked for pretrained weights
/// builds what they would build, and keeps random weights).
fn torchvision_prologue(py: &mut Py) {
    py.import("import sys");
    py.import("import types");
    py.comment("The paste builds on torchvision's models: the real torchvision where it is installed, else padlab's own copy of their architectures (the one padlab read) stands in for it. No weights are downloaded: a model asked for pretrained weights is built as those weights build it (1000 classes; GoogLeNet's and Inception v3's input normalisation) and keeps random weights.");
    py.block("try", |py| {
        py.line("import torchvision");
        py.line("from torchvision.models._api import WeightsEnum");
    });
    py.block("except ImportError", |py| {
        py.line("torchvision = None");
    });
    py.block("if torchvision is not None", |py| {
        py.line("ZOO = f\"torchvision {torchvision.__version__}\"");
        py.blank();
        py.block("class NoDownload(dict)", |py| {
            py.line("\"\"\"The state dict a set of pretrained weights would download: not fetched, not loaded.\"\"\"");
        });
        py.blank();
        py.line("WeightsEnum.get_state_dict = lambda self, *args, **kwargs: NoDownload()");
        py.line("torch_load_state_dict = nn.Module.load_state_dict");
        py.line("nn.Module.load_state_dict = lambda self, state, *args, **kwargs: None if isinstance(state, NoDownload) else torch_load_state_dict(self, state, *args, **kwargs)");
    });
    py.block("else", |py| {
        py.line("ZOO = \"padlab's copy of torchvision's architectures, as torchvision is not installed\"");
        py.line(format!(
            "TORCHVISION = {}",
            string_literal(Zoo::Torchvision.source())
        ));
        py.blank();
        py.block("class Absent", |py| {
            py.line("\"\"\"What the paste uses of torchvision beyond its models (transforms, datasets): not needed to build the model.\"\"\"");
            py.blank();
            py.block("def __init__(self, *args, **kwargs)", |py| {
                py.line("pass");
            });
            py.blank();
            py.block("def __call__(self, *args, **kwargs)", |py| {
                py.line("return Absent()");
            });
            py.blank();
            py.block("def __getattr__(self, name)", |py| {
                py.line("return Absent()");
            });
        });
        py.blank();
        py.line("torchvision = types.ModuleType(\"torchvision\")");
        py.line("torchvision.__path__ = []");
        py.line("torchvision.__getattr__ = lambda name: Absent()");
        py.line("torchvision.models = types.ModuleType(\"torchvision.models\")");
        py.line("torchvision.models.__path__ = []");
        py.line("exec(compile(TORCHVISION, \"padlab-torchvision\", \"exec\"), torchvision.models.__dict__)");
        py.line("sys.modules[\"torchvision\"] = torchvision");
        py.line("sys.modules[\"torchvision.models\"] = torchvision.models");
        py.block(
            format!(
                "for submodule in [{}]",
                crate::model::code::zoo::torchvision_modules()
                    .iter()
                    .map(|m| format!("{m:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            |py| {
                py.line("sys.modules[\"torchvision.models.\" + submodule] = torchvision.models");
                py.line("setattr(torchvision.models, submodule, torchvision.models)");
            },
        );
    });
    py.line("torch_hub_load = torch.hub.load");
    py.blank();
    py.blank();
    py.block("def hub_load(repo_or_dir, model, *args, **kwargs)", |py| {
        py.line("\"\"\"torch.hub.load of a torchvision model: torchvision's own builder, as its hub exports it.\"\"\"");
        py.block("if str(repo_or_dir).split(\":\")[0] == \"pytorch/vision\"", |py| {
            py.block("for hub_argument in (\"source\", \"trust_repo\", \"force_reload\", \"verbose\", \"skip_validation\")", |py| {
                py.line("kwargs.pop(hub_argument, None)");
            });
            py.line("return getattr(torchvision.models, model)(*args, **kwargs)");
        });
        py.line("return torch_hub_load(repo_or_dir, model, *args, **kwargs)");
    });
    py.blank();
    py.blank();
    py.line("torch.hub.load = hub_load");
}

/// Keras Applications for a paste that builds on them: never a download (a model asked for
/// `weights="imagenet"` is built as those weights build it, and keeps random weights).
fn keras_prologue(py: &mut Py) {
    py.comment("The paste builds on Keras Applications. No weights are downloaded: each model is built as the paste asks (weights=\"imagenet\" included, which can change a layer: EfficientNet's input scaling) and keeps its random weights.");
    py.line("from keras.src.utils import file_utils as keras_file_utils");
    py.line("keras_file_utils.get_file = lambda *args, **kwargs: \"padlab-no-download\"");
    py.line("keras.Model.load_weights = lambda self, *args, **kwargs: None");
    py.line("ZOO = f\"Keras Applications of Keras {keras.__version__}\"");
}

/// The source model rebuilt from the paste.
fn source_from_paste(py: &mut Py, model: &Model) -> Result<(), PortError> {
    let source = model.graph.framework;
    let Origin::Code {
        code,
        build,
        defined,
        zoos,
    } = &model.origin
    else {
        return Err(PortError::at(0, "the source is not code"));
    };
    py.comment(format!(
        "---- The source model, from the paste ({}) ----",
        source.title()
    ));
    for zoo in zoos {
        match zoo {
            Zoo::Torchvision if source == Framework::Torch => torchvision_prologue(py),
            Zoo::Keras if source == Framework::Keras => keras_prologue(py),
            _ => {}
        }
    }
    py.line(format!("PASTE = {}", string_literal(code)));
    py.line("namespace = {\"__name__\": \"padlab_source\"}");
    if !defined.is_empty() {
        py.comment("Names the paste uses but does not define: from the input shape.");
        py.line("exec(\"import numpy as np\", namespace)");
        for (name, line) in defined {
            py.line(format!(
                "exec({:?}, namespace)",
                line.split("  #").next().unwrap_or(line)
            ));
            if let Some((_, c)) = line.split_once("  # ") {
                py.comment(format!("{name}: {c}"));
            }
        }
    }
    py.line("exec(compile(PASTE, \"paste\", \"exec\"), namespace)");
    py.line(format!("source = eval({build:?}, namespace)"));
    Ok(())
}

/// The port, the weights copied across, both run and compared.
fn script_rest(
    mut py: Py,
    model: &Model,
    plan: &PlanView,
    written: &Written,
    input: Vec<i64>,
    from_file: bool,
) -> Result<String, PortError> {
    let source = plan.source;
    let target = plan.target;
    py.blank();
    py.comment(format!("---- The {} port (padlab) ----", target.title()));
    py.append(&written.py);
    py.line("port = model");
    py.blank();
    py.comment("---- Weights: source -> port ----");
    for line in HELPERS.lines() {
        py.line(line);
    }
    if source == Framework::Onnx {
        py.blank();
        py.blank();
        for line in ONNX_HELPERS.lines() {
            py.line(line);
        }
    }
    // A GRU's gates move between the frameworks' orders.
    if plan.loads.iter().any(|l| {
        matches!(
            l.kind,
            LoadKind::Cell {
                cell: CellKind::Gru { .. },
                ..
            }
        )
    }) {
        py.blank();
        py.blank();
        for line in GRU_GATES.lines() {
            py.line(line);
        }
    }
    if source == Framework::Keras {
        py.blank();
        py.blank();
        for line in KERAS_FIND.lines() {
            py.line(line);
        }
    }
    py.blank();
    py.blank();
    py.line("rng = np.random.default_rng(0)");
    // One random batch per model input, in the source's layout (token indices for an
    // input an embedding reads).
    let consumers = model.graph.consumers();
    let inputs: Vec<(usize, i64, Vec<i64>)> = model
        .graph
        .inputs()
        .map(|(id, n)| {
            // A file's batch when it fixes one (an export at batch 1), else two samples.
            let batch = match n.shape().and_then(|s| s.first()) {
                Some(&b) if from_file && b > 0 => b,
                _ => 2,
            };
            (
                id.0,
                batch,
                n.shape()
                    .map(|s| s[1..].to_vec())
                    .unwrap_or_else(|| input.clone()),
            )
        })
        .collect();
    let mut xs = Vec::new();
    for (k, (id, batch, shape)) in inputs.iter().enumerate() {
        // An Embedding reading the input, through the moves of its axes before it
        // (`text.permute(1, 0)` to a sequence-first recurrent layer).
        let mut vocab = None;
        let mut reached: Vec<usize> = consumers[*id].iter().map(|c| c.0).collect();
        let mut seen = std::collections::HashSet::new();
        while let Some(c) = reached.pop() {
            if !seen.insert(c) {
                continue;
            }
            let Some(node) = model.graph.nodes.get(c) else {
                continue;
            };
            match node.op {
                Op::Embedding { vocab: v, .. } => {
                    vocab = Some(vocab.map_or(v, |w: i64| w.min(v)));
                }
                Op::Permute(_)
                | Op::Reshape { .. }
                | Op::Squeeze(_)
                | Op::Unsqueeze(_)
                | Op::Slice(_)
                | Op::Identity => reached.extend(consumers[c].iter().map(|n| n.0)),
                _ => {}
            }
        }
        let name = if inputs.len() == 1 {
            "x".to_string()
        } else {
            format!("x{k}")
        };
        match vocab {
            Some(v) => py.line(format!(
                "{name} = rng.integers(0, {v}, ({batch}, {}))  # token indices",
                crate::codegen::writer::join(shape)
            )),
            None => py.line(format!(
                "{name} = rng.standard_normal(({batch}, {})).astype(np.float32)  # {} layout",
                crate::codegen::writer::join(shape),
                source.title()
            )),
        };
        xs.push(name);
    }
    if source == Framework::Onnx {
        // The file's own input types; the port gets the same values as float32.
        let fed: Vec<String> = xs
            .iter()
            .enumerate()
            .map(|(k, x)| format!("as_source({x}, {k})"))
            .collect();
        py.line(format!("FEEDS = [{}]", fed.join(", ")));
        for (k, x) in xs.iter().enumerate() {
            py.line(format!(
                "{x} = FEEDS[{k}].astype(np.float32) if FEEDS[{k}].dtype.kind == \"f\" else FEEDS[{k}]"
            ));
        }
    }
    let keras_args = if xs.len() == 1 {
        xs[0].clone()
    } else {
        format!("[{}]", xs.join(", "))
    };
    match source {
        Framework::Torch => {
            py.line("source.eval()");
            // The weights are read after a first call: nn.Lazy* layers take their sizes
            // from it, and weight_norm's hook computes `weight` from its two parts there (a
            // TCN's init_weights writes `weight` before any call).
            py.block("with torch.no_grad()", |py| {
                py.line(format!(
                    "source({})  # a first call: lazy layers sized, weight_norm's weights made",
                    torch_args(&xs)
                ));
            });
        }
        Framework::Onnx => {}
        _ => {
            py.line(format!(
                "source({keras_args}, training=False)  # builds a model that has no input yet"
            ));
        }
    }
    if let Some(p) = model.params {
        let count = match source {
            Framework::Torch => "sum(p.numel() for p in source.parameters())",
            _ => "source.count_params()",
        };
        py.line(format!("assert {count} == {p}, f\"the paste builds a model with {{{count}}} parameters; padlab read {p}\""));
    }
    // The tolerance: float32's, or float16's where the source computes in it (a float16
    // file, Keras's mixed precision).
    match source {
        Framework::Onnx => py.line(format!(
            "TOL = {HALF_TOL} if any(t.data_type in (10, 16) for t in onnx_model.graph.initializer) or any(f.dtype == np.float16 for f in FEEDS) else 1e-4"
        )),
        Framework::Keras => py.line(format!(
            "TOL = {HALF_TOL} if any(getattr(l, \"compute_dtype\", \"float32\") in (\"float16\", \"bfloat16\") for l in source._flatten_layers()) else 1e-4"
        )),
        _ => py.line("TOL = 1e-4"),
    };
    if matches!(target, Framework::Tf | Framework::Jax) {
        py.line("params = {}");
    }
    py.blank();
    let mut body = Py::new();
    let mut read = std::collections::HashSet::new();
    let by_step: std::collections::HashMap<usize, &Access> =
        written.access.iter().map(|(s, a)| (*s, a)).collect();
    for load in &plan.loads {
        let node = model.graph.node(load.node);
        let first = read.insert(load.node);
        let access = by_step
            .get(&load.step)
            .map(|a| (*a).clone())
            .unwrap_or_default();
        let line = node.source.line;
        body.comment(format!(
            "line {line}: {}",
            crate::model::code::eval::short(&node.source.text)
        ));
        let src = source_layer(source, &node.name);
        read_source(&mut body, source, target, load, &src, first);
        match target {
            Framework::Torch => write_torch(&mut body, load, &access),
            Framework::Keras => write_keras(&mut body, load, &access),
            Framework::Tf => write_params(&mut body, load, &access, true),
            Framework::Jax => write_params(&mut body, load, &access, false),
            other => {
                return Err(PortError::at(
                    line,
                    format!("weights into {} are not written yet", other.title()),
                ));
            }
        }
    }
    if source == Framework::Torch || target == Framework::Torch {
        py.block("with torch.no_grad()", |py| {
            py.append(&body);
            if body.finish().trim().is_empty() {
                py.line("pass");
            }
        });
    } else {
        py.append(&body);
    }
    py.blank();
    // Run both.
    match source {
        Framework::Torch => py.block("with torch.no_grad()", |py| {
            py.line(format!("want = outputs_of(source({}))", torch_args(&xs)));
        }),
        Framework::Onnx => {
            py.line("session = ort.InferenceSession(onnx_model.SerializeToString(), providers=[\"CPUExecutionProvider\"])");
            py.line("want = outputs_of(session.run(None, dict(zip([i.name for i in session.get_inputs()], FEEDS))))")
        }
        _ => py.line(format!(
            "want = outputs_of(source({keras_args}, training=False))"
        )),
    };
    // Each input in the port's layout.
    let port_xs: Vec<String> = plan
        .inputs
        .iter()
        .zip(&xs)
        .map(|(p, x)| {
            if p.tensor.perm.iter().enumerate().all(|(i, &a)| i == a) {
                x.clone()
            } else {
                let perm: Vec<i64> = p.tensor.perm.iter().map(|&v| v as i64).collect();
                format!("np.ascontiguousarray(np.transpose({x}, {}))", tuple(&perm))
            }
        })
        .collect();
    match target {
        Framework::Torch => py.block("with torch.no_grad()", |py| {
            py.line("port.eval()");
            py.line(format!("got = outputs_of(port({}))", torch_args(&port_xs)));
        }),
        Framework::Keras => {
            let arg = if port_xs.len() == 1 {
                port_xs[0].clone()
            } else {
                format!("[{}]", port_xs.join(", "))
            };
            py.line(format!("got = outputs_of(port({arg}, training=False))"))
        }
        _ => py.line(format!(
            "got = outputs_of(model({}, params))",
            port_xs.join(", ")
        )),
    };
    py.line(format!("assert len(got) == len(want) == {}, f\"the port gives {{len(got)}} outputs, the source {{len(want)}}\"", plan.outputs.len()));
    py.line("errors = []");
    for (k, out) in plan.outputs.iter().enumerate() {
        if plan.random.get(k).copied().unwrap_or(false) {
            py.comment(format!(
                "Output {k} ({}) depends on random values: its shape is compared, not its numbers.",
                out.name
            ));
            let perm: Vec<i64> = out.tensor.perm.iter().map(|&v| v as i64).collect();
            py.line(format!(
                "assert got[{k}].shape == np.transpose(want[{k}], {}).shape",
                tuple(&perm)
            ));
            continue;
        }
        let perm: Vec<i64> = out.tensor.perm.iter().map(|&v| v as i64).collect();
        py.line(format!(
            "errors.append(compare({:?}, got[{k}], np.transpose(want[{k}], {})))",
            out.name,
            tuple(&perm)
        ));
    }
    let zoo = match &model.origin {
        Origin::Code { zoos, .. }
            if zoos.iter().any(|z| match z {
                Zoo::Torchvision => source == Framework::Torch,
                Zoo::Keras => source == Framework::Keras,
            }) =>
        {
            " ({ZOO})"
        }
        _ => "",
    };
    py.line(format!(
        "print(f\"padlab self-check passed: {} {}, {} to {{max(errors, default=0):.2g}} of the output scale{zoo}\")",
        source.title(),
        match target {
            Framework::Torch => "-> PyTorch",
            Framework::Keras => "-> Keras",
            Framework::Tf => "-> TensorFlow",
            _ => "-> JAX",
        },
        match plan.outputs.len() {
            1 => "the output agrees".to_string(),
            n => format!("{n} outputs agree"),
        }
    ));
    Ok(py.finish())
}
