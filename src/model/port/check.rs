//! The self-check script: the source model rebuilt from the paste itself, the port, every
//! weight copied across (convolutions, transposed convolutions, dense layers, batch-norm
//! statistics, randomised first so their epsilon and statistics matter), a random batch through
//! both in inference mode, and assertions on the shape and the numbers. It prints a line
//! starting `padlab self-check passed` when they hold.

use crate::codegen::layout::{data_to_first, data_to_last, kernel_to_first, kernel_to_last};
use crate::codegen::writer::{Py, tuple};
use crate::core::Framework;

use super::super::chain::Shape;
use super::super::layers::Layer;
use super::super::read::Build;
use super::{Chained, LoadKind, TargetModel, rank};

fn channels_last(f: Framework) -> bool {
    matches!(f, Framework::Keras | Framework::Tf)
}

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
    return None if v is None else np.asarray(v.detach() if hasattr(v, "detach") else v, dtype=np.float32)"#;

/// The script for `written` (the port of `cx` to `target`).
pub(super) fn script(cx: &Chained, target: Framework, written: &TargetModel) -> String {
    let source = cx.model.framework;
    let mut py = Py::new();
    py.import("import numpy as np");
    py.comment(format!(
        "padlab self-check: the {} model from the paste, and its {} port, on one random batch.",
        source.title(),
        target.title()
    ));
    py.comment("Pastes usually lack their imports: these are the ones its names need.");
    imports(&mut py, source, &cx.model.uses);
    imports(&mut py, target, &Default::default());
    py.blank();
    // The source model, rebuilt from the paste itself.
    py.comment(format!(
        "---- The source model, from the paste ({}) ----",
        source.title()
    ));
    if let Some(name) = &cx.model.input_name {
        py.line(format!(
            "{name} = {}  # the input shape (not defined in the paste)",
            tuple(&cx.input.layout(source))
        ));
    }
    for line in cx.model.kept_source.lines() {
        py.line(line);
    }
    py.blank();
    py.line(format!(
        "source = {}",
        match &cx.model.build {
            Build::Variable(v) => v.clone(),
            Build::Class { name, args } => format!("{name}({args})"),
            Build::Expression(e) => e.clone(),
        }
    ));
    py.blank();
    py.comment(format!("---- The {} port (padlab) ----", target.title()));
    py.comment(
        "Its imports again: the paste may have rebound these names (a list called `layers`, say).",
    );
    py.line("import numpy as np");
    for line in written.py.import_lines() {
        py.line(line);
    }
    py.append(&written.py);
    py.blank();
    py.comment("---- Weights: source -> port ----");
    for line in HELPERS.lines() {
        py.line(line);
    }
    py.blank();
    py.blank();
    let input = cx.input.layout(source);
    py.line("rng = np.random.default_rng(0)");
    py.line(format!(
        "x = rng.standard_normal((2, {})).astype(np.float32)  # {} layout",
        crate::codegen::writer::join(&input),
        source.title()
    ));
    // Build the source (a Keras model without an input builds on its first call).
    match source {
        Framework::Torch => {
            py.line("source.eval()");
        }
        _ => {
            py.line("source(x, training=False)");
        }
    }
    if target == Framework::Tf || target == Framework::Jax {
        py.line("params = {}");
    }
    py.blank();
    let mut no_grad = Py::new();
    for load in &written.loads {
        let l = &cx.model.layers[load.layer];
        let Some(access) = &l.access else { continue };
        let src = format!("source{access}");
        no_grad.comment(format!("line {}: {}", l.line, l.source));
        let n = rank(cx.input_of(load.layer));
        // The canonical (PyTorch-layout) weights.
        match (&load.kind, source) {
            (LoadKind::Conv { .. }, Framework::Torch) => {
                no_grad.line(format!(
                    "w, b = as_numpy({src}.weight), as_numpy({src}.bias)"
                ));
            }
            (LoadKind::Conv { .. }, _) => {
                no_grad.line(format!(
                    "w = np.transpose(as_numpy({src}.kernel), {})",
                    tuple(&kernel_to_first(n))
                ));
                no_grad.line(format!(
                    "b = as_numpy({src}.bias) if {src}.use_bias else None"
                ));
            }
            (LoadKind::Dense { .. }, Framework::Torch) => {
                no_grad.line(format!(
                    "w, b = as_numpy({src}.weight), as_numpy({src}.bias)"
                ));
            }
            (LoadKind::Dense { .. }, _) => {
                no_grad.line(format!("w = as_numpy({src}.kernel).T"));
                no_grad.line(format!(
                    "b = as_numpy({src}.bias) if {src}.use_bias else None"
                ));
            }
            (LoadKind::Norm { features }, Framework::Torch) => {
                // Statistics and affine values away from their defaults, so they matter.
                no_grad.line(format!("{src}.running_mean.copy_(torch.from_numpy(rng.uniform(-0.5, 0.5, {features}).astype(np.float32)))"));
                no_grad.line(format!("{src}.running_var.copy_(torch.from_numpy(rng.uniform(0.5, 2.0, {features}).astype(np.float32)))"));
                no_grad.block(format!("if {src}.weight is not None"), |py| {
                    py.line(format!("{src}.weight.copy_(torch.from_numpy(rng.uniform(0.5, 1.5, {features}).astype(np.float32)))"));
                    py.line(format!("{src}.bias.copy_(torch.from_numpy(rng.uniform(-0.5, 0.5, {features}).astype(np.float32)))"));
                });
                no_grad.line(format!(
                    "gamma, beta, mean, var = as_numpy({src}.weight), as_numpy({src}.bias), as_numpy({src}.running_mean), as_numpy({src}.running_var)"
                ));
            }
            (LoadKind::Norm { features }, _) => {
                no_grad.line(format!("{src}.moving_mean.assign(rng.uniform(-0.5, 0.5, {features}).astype(np.float32))"));
                no_grad.line(format!("{src}.moving_variance.assign(rng.uniform(0.5, 2.0, {features}).astype(np.float32))"));
                no_grad.line("gamma = beta = None");
                no_grad.block(format!("if {src}.gamma is not None"), |py| {
                    py.line(format!(
                        "{src}.gamma.assign(rng.uniform(0.5, 1.5, {features}).astype(np.float32))"
                    ));
                    py.line(format!("gamma = as_numpy({src}.gamma)"));
                });
                no_grad.block(format!("if {src}.beta is not None"), |py| {
                    py.line(format!(
                        "{src}.beta.assign(rng.uniform(-0.5, 0.5, {features}).astype(np.float32))"
                    ));
                    py.line(format!("beta = as_numpy({src}.beta)"));
                });
                no_grad.line(format!(
                    "mean, var = as_numpy({src}.moving_mean), as_numpy({src}.moving_variance)"
                ));
            }
        }
        if let LoadKind::Norm { features } = &load.kind {
            no_grad.line(format!(
                "gamma = np.ones({features}, np.float32) if gamma is None else gamma"
            ));
            no_grad.line(format!(
                "beta = np.zeros({features}, np.float32) if beta is None else beta"
            ));
        }
        if let LoadKind::Dense {
            flatten: Some((channels, spatial)),
        } = &load.kind
        {
            no_grad.line(format!(
                "w = reorder(w, {channels}, {}, {}, {})",
                tuple(spatial),
                py_bool(channels_last(source)),
                py_bool(channels_last(target))
            ));
        }
        if let Some(d) = &load.dilate {
            no_grad.line(format!("w = dilate_kernel(w, {})", tuple(d)));
        }
        set(
            &mut no_grad,
            target,
            &load.kind,
            &load.target,
            load.bias_target.as_deref(),
            n,
        );
    }
    match (source, target) {
        (Framework::Torch, _) | (_, Framework::Torch) => {
            py.block("with torch.no_grad()", |py| {
                py.append(&no_grad);
                py.line("pass");
            });
        }
        _ => {
            py.append(&no_grad);
        }
    }
    py.blank();
    py.comment("---- Both models on the batch, in inference mode ----");
    run(&mut py, cx, source, target);
    py.finish()
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn imports(py: &mut Py, f: Framework, uses: &std::collections::BTreeSet<String>) {
    match f {
        Framework::Torch => {
            py.import("import torch");
            py.import("import torch.nn as nn");
            py.import("import torch.nn.functional as F");
            // Bare class names (`Conv2d(...)` after `from torch.nn import *`).
            if uses
                .iter()
                .any(|u| u.chars().next().is_some_and(char::is_uppercase))
            {
                py.import("from torch.nn import *");
            }
        }
        Framework::Keras => {
            py.import("import keras");
            py.import("from keras import layers");
            if uses
                .iter()
                .any(|u| u != "keras" && u != "layers" && u != "tf")
            {
                py.import("from keras.layers import *");
                py.import("from keras.models import Sequential, Model");
            }
            if uses.contains("tf") {
                py.import("import tensorflow as tf");
            }
        }
        Framework::Tf => {
            py.import("import tensorflow as tf");
        }
        Framework::Jax => {
            py.import("import jax");
            py.import("import jax.numpy as jnp");
        }
        Framework::Onnx => {}
    }
}

/// Writes the canonical weights (`w`, `b`; `gamma`, `beta`, `mean`, `var`) into the target.
fn set(py: &mut Py, target: Framework, kind: &LoadKind, at: &str, bias_at: Option<&str>, n: usize) {
    match (target, kind) {
        (Framework::Torch, LoadKind::Conv { .. } | LoadKind::Dense { .. }) => {
            py.line(format!(
                "{at}.weight.copy_(torch.from_numpy(np.ascontiguousarray(w)))"
            ));
            let bias = bias_at.map_or(format!("{at}.bias"), |b| format!("{b}.bias"));
            py.block(format!("if {bias} is not None"), |py| {
                py.line(format!("{bias}.copy_(torch.from_numpy(b if b is not None else np.zeros({bias}.shape, np.float32)))"));
            });
        }
        (Framework::Torch, LoadKind::Norm { .. }) => {
            py.line(format!("{at}.weight.copy_(torch.from_numpy(gamma))"));
            py.line(format!("{at}.bias.copy_(torch.from_numpy(beta))"));
            py.line(format!("{at}.running_mean.copy_(torch.from_numpy(mean))"));
            py.line(format!("{at}.running_var.copy_(torch.from_numpy(var))"));
        }
        (Framework::Keras, LoadKind::Conv { .. }) => {
            py.line(format!(
                "kernel = np.transpose(w, {})",
                tuple(&kernel_to_last(n))
            ));
            set_keras(py, at, bias_at);
        }
        (Framework::Keras, LoadKind::Dense { .. }) => {
            py.line("kernel = w.T");
            set_keras(py, at, bias_at);
        }
        (Framework::Keras, LoadKind::Norm { .. }) => {
            py.line(format!("{at}.moving_mean.assign(mean)"));
            py.line(format!("{at}.moving_variance.assign(var)"));
            py.block(format!("if {at}.gamma is not None"), |py| {
                py.line(format!("{at}.gamma.assign(gamma)"));
            });
            py.block(format!("if {at}.beta is not None"), |py| {
                py.line(format!("{at}.beta.assign(beta)"));
            });
        }
        (Framework::Tf, LoadKind::Conv { .. }) => {
            py.line(format!(
                "params[\"{at}\"] = {{\"filters\": tf.constant(np.transpose(w, {})), \"bias\": None if b is None else tf.constant(b)}}",
                tuple(&kernel_to_last(n))
            ));
        }
        (Framework::Tf, LoadKind::Dense { .. }) => {
            py.line(format!(
                "params[\"{at}\"] = {{\"kernel\": tf.constant(np.ascontiguousarray(w.T)), \"bias\": None if b is None else tf.constant(b)}}"
            ));
        }
        (Framework::Tf, LoadKind::Norm { .. }) => {
            py.line(format!(
                "params[\"{at}\"] = {{\"mean\": tf.constant(mean), \"variance\": tf.constant(var), \"offset\": tf.constant(beta), \"scale\": tf.constant(gamma)}}"
            ));
        }
        (Framework::Jax, LoadKind::Conv { .. } | LoadKind::Dense { .. }) => {
            py.line(format!(
                "params[\"{at}\"] = {{\"w\": jnp.asarray(w), \"b\": None if b is None else jnp.asarray(b)}}"
            ));
        }
        (Framework::Jax, LoadKind::Norm { .. }) => {
            py.line(format!(
                "params[\"{at}\"] = {{\"mean\": jnp.asarray(mean), \"var\": jnp.asarray(var), \"gamma\": jnp.asarray(gamma), \"beta\": jnp.asarray(beta)}}"
            ));
        }
        (Framework::Onnx, _) => {}
    }
}

fn set_keras(py: &mut Py, at: &str, bias_at: Option<&str>) {
    match bias_at {
        Some(bias) => {
            py.line(format!("{at}.set_weights([kernel])"));
            py.line(format!("{bias}.set_weights([b if b is not None else np.zeros({bias}.get_weights()[0].shape, np.float32)])"));
        }
        None => {
            py.block(format!("if {at}.use_bias"), |py| {
                py.line(format!("{at}.set_weights([kernel, b if b is not None else np.zeros(kernel.shape[-1], np.float32)])"));
            });
            py.block("else", |py| {
                py.line(format!("{at}.set_weights([kernel])"));
            });
        }
    }
}

/// Runs both models and compares, in the source's layout.
fn run(py: &mut Py, cx: &Chained, source: Framework, target: Framework) {
    let n = rank(cx.input);
    let convert =
        matches!(cx.input, Shape::Map { .. }) && channels_last(source) != channels_last(target);
    let to_target = if channels_last(target) {
        data_to_last(n)
    } else {
        data_to_first(n)
    };
    match source {
        Framework::Torch => py.line("y_source = source(torch.from_numpy(x)).detach().numpy()"),
        _ => py.line("y_source = np.asarray(source(x, training=False))"),
    };
    let x_target = if convert {
        format!(
            "np.ascontiguousarray(np.transpose(x, {}))",
            tuple(&to_target)
        )
    } else {
        "x".into()
    };
    match target {
        Framework::Torch => {
            py.line("model.eval()");
            py.block("with torch.no_grad()", |py| {
                py.line(format!("y = model(torch.from_numpy({x_target})).numpy()"));
            });
        }
        Framework::Keras => {
            py.line(format!("y = np.asarray(model({x_target}, training=False))"));
        }
        Framework::Tf => {
            py.line(format!(
                "y = model(tf.constant({x_target}), params).numpy()"
            ));
        }
        Framework::Jax => {
            py.line(format!(
                "y = np.asarray(model(jnp.asarray({x_target}), params))"
            ));
        }
        Framework::Onnx => {}
    }
    // Back to the source's layout.
    match (cx.output(), convert) {
        (Shape::Map { spatial, .. }, true) => {
            let back = if channels_last(source) {
                data_to_last(spatial.len())
            } else {
                data_to_first(spatial.len())
            };
            py.line(format!("y = np.transpose(y, {})", tuple(&back)));
        }
        (Shape::Flat(_), _) => {
            if let Some((channels, spatial)) = cx.flat_output_map()
                && channels_last(source) != channels_last(target)
            {
                py.comment("The output is a flattened map: the two frameworks flatten it in different orders.");
                py.line(format!(
                    "y = reorder(y, {channels}, {}, {}, {})",
                    tuple(&spatial),
                    py_bool(channels_last(target)),
                    py_bool(channels_last(source))
                ));
            }
        }
        _ => {}
    }
    let expected = format!(
        "(2, {})",
        crate::codegen::writer::join(&cx.output().layout(source))
    );
    py.line(format!(
        "assert y_source.shape == {expected}, f\"the source gives {{y_source.shape}}, padlab's table {expected}\""
    ));
    py.line("assert y.shape == y_source.shape, f\"port {y.shape} vs source {y_source.shape}\"");
    py.line("error = float(np.max(np.abs(y - y_source))) if y.size else 0.0");
    py.line(
        "assert np.allclose(y, y_source, rtol=1e-4, atol=1e-4), f\"outputs differ by {error}\"",
    );
    py.line(format!(
        "print(f\"padlab self-check passed: {} model and {} port agree, output {expected}, max difference {{error:.2e}}\")",
        source.title(),
        target.title()
    ));
    let _ = Layer::Flatten;
}
