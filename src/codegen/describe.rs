//! Words about a layer, shared by every target: the layer as its framework writes it, how the
//! target lays out data and weights, and a padding in every framework's argument order.

use crate::core::{Dims, Framework, LayerSpec, Op, Padding, PaddingMode, layer_name};

use super::layout::{self, channels_last};
use super::plan::Fill;
use super::writer::{self, pad_list, pair_tuples, torch_pad_tuple, tuple};

/// An int-or-list argument as Python writes it: `3` or `(4, 1)`.
fn dims_arg(dims: &Dims) -> String {
    match dims {
        Dims::All(v) => v.to_string(),
        Dims::Each(v) => tuple(v),
    }
}

/// The layer as its framework writes it, e.g. `Keras Conv2D(kernel=(4, 1), padding='same')`.
pub fn describe_layer(spec: &LayerSpec) -> String {
    let n = spec.input.len();
    let padding = match &spec.padding {
        None => "default padding".to_string(),
        Some(p) => match p {
            Padding::All(v) => format!("padding={v}"),
            Padding::PerDim(v) => format!("padding={}", tuple(v)),
            Padding::Explicit(v) => format!(
                "padding={}",
                pair_tuples(&v.iter().map(|&[b, a]| (b, a)).collect::<Vec<_>>())
            ),
            keyword => format!("padding='{}'", keyword.keyword().unwrap_or_default()),
        },
    };
    let layer = layer_name(spec.framework, spec.op).replace('N', &n.to_string());
    let mut extra = String::new();
    if let Some(s) = &spec.stride {
        extra.push_str(&format!(", stride={}", dims_arg(s)));
    }
    if let Some(d) = &spec.dilation {
        extra.push_str(&format!(", dilation={}", dims_arg(d)));
    }
    if let Some(m) = spec.padding_mode.filter(|m| *m != PaddingMode::Zeros) {
        extra.push_str(&format!(", padding_mode='{}'", m.name()));
    }
    if let Some(op) = &spec.output_padding {
        extra.push_str(&format!(", output_padding={}", dims_arg(op)));
    }
    if let Some(o) = &spec.output_size {
        extra.push_str(&format!(", output_size={}", tuple(o)));
    }
    if spec.ceil_mode == Some(true) {
        extra.push_str(", ceil_mode=True");
    }
    if let Some(c) = spec.count_include_pad {
        extra.push_str(&format!(
            ", count_include_pad={}",
            if c { "True" } else { "False" }
        ));
    }
    let backend = match (spec.framework, spec.backend) {
        (crate::core::Framework::Keras, Some(b)) => format!(" on the {} backend", b.title()),
        _ => String::new(),
    };
    format!(
        "{} {layer}(kernel={}{extra}, {padding}){backend}",
        spec.framework.title(),
        dims_arg(&spec.kernel)
    )
}

/// How the target lays out data and weights, relative to the source.
pub fn layout_notes(source: Framework, target: Framework, op: Op, n: usize) -> Vec<String> {
    let spatial = &"DHW"[3 - n..];
    let layout = |f: Framework| {
        if channels_last(f) {
            format!("N{spatial}C")
        } else {
            format!("NC{spatial}")
        }
    };
    let mut notes = vec![format!(
        "Layout: {} is {}{}.",
        target.title(),
        layout(target),
        if source == target {
            String::new()
        } else {
            format!("; {} is {}", source.title(), layout(source))
        }
    )];
    if op.is_pool() {
        return notes;
    }
    let kernel_axes = spatial
        .chars()
        .map(|c| format!("k{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let (torch_shape, last_shape) = if op == Op::ConvTranspose {
        (
            format!("(in, out, {kernel_axes})"),
            format!("({kernel_axes}, out, in)"),
        )
    } else {
        (
            format!("(out, in, {kernel_axes})"),
            format!("({kernel_axes}, in, out)"),
        )
    };
    let weight = match (channels_last(source), channels_last(target)) {
        (false, true) => format!(
            "Weights: {} kernel {last_shape} = {} weight {torch_shape} transposed {}.",
            target.title(),
            source.title(),
            tuple(&layout::kernel_to_last(n))
        ),
        (true, false) => format!(
            "Weights: {} weight {torch_shape} = {} kernel {last_shape} transposed {}.",
            target.title(),
            source.title(),
            tuple(&layout::kernel_to_first(n))
        ),
        (true, true) => format!("Weights: kernel {last_shape}, as in the source."),
        (false, false) => format!("Weights: {torch_shape}, as in the source."),
    };
    notes.push(weight);
    notes
}

/// The pads of a forward layer written in every framework's argument order, filled with
/// `fill` (a max pool's padding is −∞ and a reflect/replicate/circular convolution's is the
/// input's own values: zero-filling functions are not equivalent there). A framework with no
/// call for that fill says which helper of its full code does it.
pub fn translate_pads(pairs: &[(i64, i64)], fill: Fill) -> Vec<(&'static str, String)> {
    let n = pairs.len();
    let torch = torch_pad_tuple(pairs);
    let last = pad_list(pairs, 1, 1);
    let onnx = writer::list(&writer::onnx_pads(pairs, 2));
    let jnp = writer::nchw_pad_width(pairs);
    let helper = |framework: &str| match fill {
        Fill::Replicate => format!("no edge mode: the pad_edge helper of the {framework} code"),
        _ => format!("no wrap mode: the pad_wrap helper of the {framework} code"),
    };
    let (f_pad, module, tf_pad, keras, onnx_pad, jnp_pad) = match fill {
        Fill::Zero => (
            format!("F.pad(x, {torch})"),
            super::torch::pad_module(pairs, fill),
            format!("tf.pad(x, {last})"),
            format!("keras.layers.ZeroPadding{n}D({})", pair_tuples(pairs)),
            format!("pads={onnx}"),
            format!("jnp.pad(x, {jnp})"),
        ),
        Fill::NegInf => (
            format!("F.pad(x, {torch}, value=float(\"-inf\"))"),
            super::torch::pad_module(pairs, fill),
            format!("tf.pad(x, {last}, constant_values=float(\"-inf\"))"),
            format!("keras.ops.pad(x, {last}, constant_values=float(\"-inf\"))"),
            format!("pads={onnx}, constant_value=-inf"),
            format!("jnp.pad(x, {jnp}, constant_values=-jnp.inf)"),
        ),
        Fill::Reflect => (
            format!("F.pad(x, {torch}, mode=\"reflect\")"),
            super::torch::pad_module(pairs, fill),
            format!("tf.pad(x, {last}, mode=\"REFLECT\")"),
            format!("keras.ops.pad(x, {last}, mode=\"reflect\")"),
            format!("pads={onnx}, mode=\"reflect\""),
            format!("jnp.pad(x, {jnp}, mode=\"reflect\")"),
        ),
        Fill::Replicate => (
            format!("F.pad(x, {torch}, mode=\"replicate\")"),
            super::torch::pad_module(pairs, fill),
            helper("TensorFlow"),
            helper("Keras"),
            format!("pads={onnx}, mode=\"edge\""),
            format!("jnp.pad(x, {jnp}, mode=\"edge\")"),
        ),
        Fill::Circular => (
            format!("F.pad(x, {torch}, mode=\"circular\")"),
            super::torch::pad_module(pairs, fill),
            helper("TensorFlow"),
            helper("Keras"),
            format!("pads={onnx}, mode=\"wrap\""),
            format!("jnp.pad(x, {jnp}, mode=\"wrap\")"),
        ),
    };
    vec![
        ("torch F.pad (last dimension first)", f_pad),
        ("torch module", module),
        ("tf.pad (channels last)", tf_pad),
        ("Keras", keras),
        ("ONNX Pad (NCHW, begins then ends)", onnx_pad),
        ("JAX / NumPy (NCHW)", jnp_pad),
    ]
}
