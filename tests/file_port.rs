//! `padlab port FILE`: model files through the CLI. The tables are held to the runtimes' own
//! record (tests/files/truth, made by truth.py with ONNX Runtime and Keras: every expected value
//! here is read from it, never from padlab); bad files give one clear line on stderr and a
//! non-zero exit, quickly; a few ports are pinned (review with `cargo insta review`). That the
//! ports compute what the file computes is `tests/files/verify.py`'s proof, in the frameworks.

use std::process::Command;
use std::time::{Duration, Instant};

use padlab::core::Framework;
use padlab::model::port::{PortOptions, port};
use serde_json::Value;

#[path = "common/files.rs"]
mod files;
use files::{fixture, fixture_bytes, truth};

#[path = "common/stack.rs"]
mod stack;
use stack::on_deep_stack;

#[macro_use]
#[path = "common/text.rs"]
mod text;

/// Runs `padlab port ARGS`: exit success, stdout, stderr, time taken.
fn padlab(args: &[&str]) -> (bool, String, String, Duration) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_padlab"))
        .arg("port")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        start.elapsed(),
    )
}

fn table(args: &[&str]) -> Value {
    let (ok, out, err, _) = padlab(args);
    assert!(ok, "padlab port {args:?} failed: {err}");
    serde_json::from_str(&out).unwrap()
}

/// The truth's first input as `--input` (batch left out).
fn truth_input(file: &str) -> String {
    let t = truth(file);
    let (_, shape) = t["inputs"].as_object().unwrap().iter().next().unwrap();
    let dims: Vec<String> = shape.as_array().unwrap()[1..]
        .iter()
        .map(|v| v.to_string())
        .collect();
    dims.join("x")
}

fn sample(shape: &Value) -> Value {
    Value::Array(shape.as_array().unwrap()[1..].to_vec())
}

/// Every truth node of an ONNX file against the `--json` row of the same name: kind, output
/// (one sample) and the pads (or crops) before each axis.
fn onnx_rows_match_the_truth(file: &str, extra: &[&str]) -> usize {
    let path = fixture(&format!("onnx/{file}"));
    let mut args = vec![path.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let t = table(&args);
    let rows = t["layers"].as_array().unwrap();
    let mut checked = 0;
    for node in truth(file)["nodes"].as_array().unwrap() {
        let name = node["name"].as_str().unwrap();
        let Some(row) = rows.iter().find(|r| r["name"] == name) else {
            // Shape arithmetic is folded into constants (no row); a conv or pool never is.
            let op = node["op_type"].as_str().unwrap();
            assert!(
                !["Conv", "ConvTranspose", "MaxPool", "AveragePool"].contains(&op),
                "{file}: no row named {name}"
            );
            continue;
        };
        assert_eq!(row["kind"], node["op_type"], "{file}: {name}");
        assert_eq!(
            row["output"],
            sample(&node["outputs"][0]["shape"]),
            "{file}: {name}"
        );
        for (key, mine) in [("pads_begin", "pad_before"), ("crop_begin", "crop_before")] {
            if let Some(want) = node.get(key) {
                assert_eq!(&row[mine], want, "{file}: {name} {mine}");
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn same_lower_files_put_the_odd_pad_before_as_onnx_runtime_does() {
    for file in [
        "conv2d_same_lower.onnx",
        "maxpool2d_same_lower.onnx",
        "averagepool1d_same_lower.onnx",
        "convtranspose2d_same_lower.onnx",
    ] {
        assert_eq!(onnx_rows_match_the_truth(file, &[]), 1, "{file}");
    }
    // And the rows say so.
    let t = table(&[
        fixture("onnx/conv2d_same_lower.onnx").to_str().unwrap(),
        "--json",
    ]);
    let flags = t["layers"][0]["flags"].to_string();
    assert_contains!(flags, "SAME_LOWER");
}

#[test]
fn asymmetric_pads_and_exported_models_match_onnx_runtime() {
    for file in [
        "conv2d_notset_asym.onnx",
        "averagepool2d_asym_excluded.onnx",
        "pad_then_conv.onnx",
        "tf2onnx_static.onnx",
    ] {
        assert!(onnx_rows_match_the_truth(file, &[]) >= 1, "{file}");
    }
    // timm's dynamic 'same' (H and W free): at the truth's input size.
    let given = truth_input("torch_timm_same_ts.onnx");
    assert!(onnx_rows_match_the_truth("torch_timm_same_ts.onnx", &["--input", &given]) >= 1);
}

#[test]
fn free_sizes_need_input_and_the_error_says_so() {
    let path = fixture("onnx/dim_param_input.onnx");
    let (ok, out, err, _) = padlab(&[path.to_str().unwrap(), "--json"]);
    assert!(!ok && out.is_empty());
    assert_contains!(err, "--input");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let given = truth_input("dim_param_input.onnx");
    assert!(onnx_rows_match_the_truth("dim_param_input.onnx", &["--input", &given]) >= 2);
    // A size that does not fit the declared shape is refused, not ignored.
    let (ok, _, err, _) = padlab(&[path.to_str().unwrap(), "--json", "--input", "5x17x22"]);
    assert!(!ok && err.contains("does not fit"), "{err}");
}

#[test]
fn keras_files_list_their_layers_by_name_with_keras_outputs() {
    for file in [
        "functional_residual.keras",
        "functional_residual.h5",
        "sequential_cnn.keras",
        "keras2_functional.h5",
        "functional_1d.keras",
        "normalization_adapted.keras",
        "normalization_config.keras",
        "normalization_channels.h5",
        "normalization_invert.keras",
        "convnext_blocks.keras",
    ] {
        let t = table(&[
            fixture(&format!("keras/{file}")).to_str().unwrap(),
            "--json",
        ]);
        let rows = t["layers"].as_array().unwrap();
        for layer in truth(file)["layers"].as_array().unwrap() {
            let name = layer["name"].as_str().unwrap();
            // A nested model is its layers (`block/block_conv`): its output is its last one's.
            let row = rows
                .iter()
                .rev()
                .find(|r| {
                    let n = r["name"].as_str().unwrap();
                    n == name || n.starts_with(&format!("{name}/"))
                })
                .unwrap_or_else(|| panic!("{file}: no row for {name}"));
            assert_eq!(row["output"], sample(&layer["output"]), "{file}: {name}");
            if row["name"] == name {
                assert_eq!(row["kind"], layer["class_name"], "{file}: {name}");
            }
        }
    }
}

#[test]
fn bad_files_are_one_clear_line_and_a_failure_quickly() {
    let dir = std::env::temp_dir().join(format!("padlab-file-port-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let onnx = fixture_bytes("onnx/torch_cnn_ts.onnx");
    let keras = fixture_bytes("keras/sequential_cnn.keras");
    let h5 = fixture_bytes("keras/sequential_cnn.h5");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty.onnx", Vec::new()),
        (
            "text.onnx",
            b"import torch\nprint('not a model')\n".to_vec(),
        ),
        ("half.onnx", onnx[..onnx.len() / 2].to_vec()),
        ("half.keras", keras[..keras.len() / 2].to_vec()),
        ("head.h5", h5[..200].to_vec()),
        // Cut after its model_config: the superblock says where the file ends.
        ("cut.h5", h5[..h5.len() * 9 / 10].to_vec()),
        ("zeros.h5", {
            let mut z = h5[..8].to_vec();
            z.extend(std::iter::repeat_n(0u8, 4096));
            z
        }),
        (
            "huge_claim.onnx",
            vec![0x3a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x0a],
        ),
    ];
    for (name, bytes) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        for extra in [&["--json"][..], &["--to", "torch", "--check"][..]] {
            let mut args = vec![path.to_str().unwrap()];
            args.extend_from_slice(extra);
            let (ok, out, err, took) = padlab(&args);
            assert!(!ok, "{name}: accepted");
            assert!(out.is_empty(), "{name}: printed {out}");
            assert!(!err.contains("panicked"), "{name}: {err}");
            assert_eq!(err.trim().lines().count(), 1, "{name}: {err}");
            assert!(err.starts_with("padlab port: "), "{name}: {err}");
            // A hang guard; the time itself is for the benchmark, not for a test.
            assert!(took < Duration::from_secs(10), "{name}: {took:?}");
        }
    }
    let (ok, _, err, _) = padlab(&[dir.join("missing.onnx").to_str().unwrap(), "--json"]);
    assert!(!ok && err.contains("missing.onnx"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_refused_by_onnx_runtime_is_refused_by_the_port_with_its_reason() {
    let path = fixture("onnx/convtranspose2d_output_padding_too_big.onnx");
    assert!(truth("convtranspose2d_output_padding_too_big.onnx")["error"].is_string());
    let (ok, _, err, _) = padlab(&[path.to_str().unwrap(), "--to", "torch"]);
    assert!(!ok, "ported a model ONNX Runtime refuses");
    assert_contains!(err, "output_padding");
}

/// A file's port as the library writes it (the path as the CLI would pass it, relative).
fn file_port(rel: &str, target: Framework, check: bool) -> String {
    let rel = rel.to_string();
    on_deep_stack(move || {
        let bytes = fixture_bytes(&rel);
        let shown = format!("tests/files/{rel}");
        let model = padlab::model::file::open(&bytes, None, &shown).unwrap();
        let p = port(&model, target, PortOptions { check }).unwrap();
        p.script.unwrap_or(p.code)
    })
}

#[test]
fn same_lower_conv_file_to_torch_pads_before_explicitly() {
    let code = file_port("onnx/conv2d_same_lower.onnx", Framework::Torch, false);
    insta::assert_snapshot!(code);
}

#[test]
fn torch_export_to_keras() {
    insta::assert_snapshot!(file_port("onnx/torch_cnn_ts.onnx", Framework::Keras, false));
}

#[test]
fn keras_file_with_a_nested_block_to_torch() {
    insta::assert_snapshot!(file_port(
        "keras/functional_residual.keras",
        Framework::Torch,
        false
    ));
}

#[test]
fn onnx_self_check_loads_the_file_given_or_its_own_path() {
    let script = file_port("onnx/conv2d_notset_asym.onnx", Framework::Jax, true);
    assert_contains!(
        script,
        "PATH = sys.argv[1] if len(sys.argv) > 1 else",
        "ort.InferenceSession",
        "tests/files/onnx/conv2d_notset_asym.onnx"
    );
    insta::assert_snapshot!(script);
}

#[test]
fn keras_self_check_loads_the_file_with_keras() {
    let script = file_port("keras/keras2_sequential.h5", Framework::Tf, true);
    assert_contains!(script, "keras.saving.load_model(PATH, compile=False)");
}

/// Keras's `Normalization` (keras.applications put it first): statistics given in the
/// configuration are written into every port; adapted ones are weights the self-check copies
/// from the source layer, its statistics moved off their defaults first. That the ports
/// compute what Keras does is `tests/files/verify.py`'s proof (`--only normalization`).
#[test]
fn keras_normalization_files_port_with_their_statistics() {
    let config = "keras/normalization_config.keras";
    let torch = file_port(config, Framework::Torch, false);
    assert_contains!(
        torch,
        "Standardize((1, 3, 1, 1), mean=[123.675, 116.28, 103.53]"
    );
    // axis=(1, 3) with a (4, 1) mean: one value per row, broadcast over the channels.
    assert_contains!(
        torch,
        "Standardize((1, 4, 1, 1), mean=[0.5, -0.25, 0.0, 1.0]"
    );
    let keras = file_port(config, Framework::Keras, false);
    assert_contains!(
        keras,
        "layers.Normalization(axis=(1, 3), mean=[[0.5], [-0.25], [0.0], [1.0]], variance=[[2.0], [0.5], [1.0], [4.0]], name=\"norm_rows\")",
        "layers.Normalization(axis=None, mean=0.25, variance=0.0"
    );
    for target in [Framework::Tf, Framework::Jax] {
        let code = file_port(config, target, false);
        assert_contains!(code, ".maximum(", "1e-07)");
    }
    let adapted = "keras/normalization_adapted.keras";
    let script = file_port(adapted, Framework::Torch, true);
    assert_contains!(
        script,
        "Standardize((1, 3, 1, 1))",
        ".adapt_mean.assign(rng.uniform(",
        ".finalize_state()"
    );
    // NHWC statistics to the torch port's NCHW.
    assert_contains!(
        script,
        "np.transpose(as_numpy(v), (0, 3, 1, 2))",
        "model[0].mean.copy_(torch.from_numpy(mean))"
    );
    let script = file_port(adapted, Framework::Keras, true);
    assert_contains!(
        script,
        "model.get_layer(\"norm_rows\").adapt_mean.assign(mean.reshape("
    );
    let script = file_port(adapted, Framework::Jax, true);
    assert_contains!(
        script,
        "params[\"norm_all\"] = {\"mean\": mean, \"variance\": var}"
    );
    insta::assert_snapshot!(file_port(
        "keras/normalization_channels.h5",
        Framework::Torch,
        false
    ));
}

#[test]
fn keras_normalization_with_invert_is_read_and_refused_by_the_port_with_why() {
    let path = fixture("keras/normalization_invert.keras");
    let t = table(&[path.to_str().unwrap(), "--json"]);
    assert!(
        t["layers"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.get("error").is_none())
    );
    for target in ["torch", "keras", "tf", "jax"] {
        let (ok, _, err, _) = padlab(&[path.to_str().unwrap(), "--to", target]);
        assert!(!ok, "{target}: ported");
        assert_contains!(
            err,
            "denormalize: Normalization(invert=True)",
            "not its inverse"
        );
    }
}

/// keras.applications.ConvNeXt's own layers (classes of its module, not of keras.layers):
/// `LayerScale` is the input times a weight over its last axis, copied by the self-check after
/// moving it off ConvNeXt's 1e-6; `StochasticDepth` is the identity at inference.
#[test]
fn convnext_layer_scale_and_stochastic_depth_are_read_and_ported() {
    let file = "keras/convnext_blocks.keras";
    let t = table(&[fixture(file).to_str().unwrap(), "--json"]);
    let kinds: Vec<&str> = t["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"LayerScale") && kinds.contains(&"StochasticDepth"));
    let torch = file_port(file, Framework::Torch, true);
    // After the block's LayerNormalization and Dense layers the port holds the source's order.
    assert_contains!(
        torch,
        "self.block_0_layer_scale = LayerScale((1, 1, 1, 8))",
        "self.block_0_stochastic_depth = nn.Identity()",
        ".gamma.assign(rng.uniform(0.5, 1.5,",
        "model.block_0_layer_scale.gamma.copy_(torch.from_numpy(gamma))"
    );
    let keras = file_port(file, Framework::Keras, false);
    assert_contains!(
        keras,
        "class LayerScale(keras.layers.Layer):",
        "LayerScale(name=\"block_1_layer_scale\")"
    );
    let tf = file_port(file, Framework::Tf, false);
    assert_contains!(tf, "x * params[\"block_0_layer_scale\"][\"gamma\"]");
}

/// Refusals name the file, as its reading errors do; a node padlab reads but does not port is
/// named with what it is and why; a Keras file's refused layer with its class.
#[test]
fn port_refusals_name_the_file_the_node_and_why() {
    for (file, words) in [
        (
            "onnx/quantize_by_hand.onnx",
            &["quantize:", "QuantizeLinear", "float models"][..],
        ),
        ("onnx/recurrent.onnx", &["lstm:", "LSTM", "recurrent"][..]),
        (
            "onnx/gemm_weight_as_input.onnx",
            &["fc:", "graph input"][..],
        ),
        (
            "onnx/maxpool_indices_output.onnx",
            &["maxpool:", "Indices"][..],
        ),
        (
            "onnx/convtranspose2d_output_shape_4d.onnx",
            &["output_shape has incorrect size"][..],
        ),
        (
            "keras/refused_lambda.keras",
            &["halve is refused: Lambda:", "bytecode"][..],
        ),
    ] {
        let path = fixture(file);
        let (ok, out, err, _) = padlab(&[path.to_str().unwrap(), "--to", "torch", "--check"]);
        assert!(!ok && out.is_empty(), "{file}: ported");
        assert_eq!(err.trim().lines().count(), 1, "{file}: {err}");
        assert_contains!(err, &format!("padlab port: {}: ", path.display()));
        for w in words {
            assert_contains!(err, w);
        }
        assert_lacks!(
            err,
            "does not state the input shape",
            "which padlab did not run"
        );
    }
    // The table still reads them: rows up to and past the node (ONNX), up to the layer (Keras).
    let t = table(&[fixture("onnx/recurrent.onnx").to_str().unwrap(), "--json"]);
    assert!(
        t["layers"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["error"].is_null())
    );
    let t = table(&[
        fixture("keras/refused_lambda.keras").to_str().unwrap(),
        "--json",
    ]);
    let rows = t["layers"].as_array().unwrap();
    assert_eq!(rows.last().unwrap()["name"], "halve");
    assert!(rows.last().unwrap()["error"].is_string());
}

/// A model whose weights are in a file beside it: the table reads without it, the self-check
/// is refused when it is not there (the script would fail loading it) and written when it is.
#[test]
fn external_data_is_needed_beside_the_file_for_the_check() {
    let dir = std::env::temp_dir().join(format!("padlab-external-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let alone = dir.join("external_data.onnx");
    std::fs::copy(fixture("onnx/external_data.onnx"), &alone).unwrap();
    let (ok, _, err, _) = padlab(&[alone.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    let (ok, out, err, _) = padlab(&[alone.to_str().unwrap(), "--to", "torch", "--check"]);
    assert!(
        !ok && out.is_empty(),
        "wrote a script that cannot load the weights"
    );
    assert_contains!(
        err,
        "external_data.onnx.data",
        "external data",
        "not beside"
    );
    // Beside it (the fixture's own folder): a script that loads it.
    let (ok, out, err, _) = padlab(&[
        fixture("onnx/external_data.onnx").to_str().unwrap(),
        "--to",
        "torch",
        "--check",
    ]);
    assert!(ok, "{err}");
    assert_contains!(out, "external_data.onnx.data", "ONNX external data");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The ports of the second round's operators, as the targets write them: torch's PixelShuffle
/// for DepthToSpace's CRD order only, a flip for a reversed slice, the elements ONNX Runtime
/// reads for a fractional nearest resize, the scale (not a size) for a fractional linear one,
/// a circular pad torch takes on a 4-D tensor, a Linear with its bias for MatMul and Add.
#[test]
fn second_round_ports_write_what_the_file_computes() {
    let torch = |rel: &str| file_port(rel, Framework::Torch, false);
    let code = torch("onnx/torch_pixel_shuffle_ts.onnx");
    assert_contains!(code, "nn.PixelShuffle(2)");
    let code = torch("onnx/depth_to_space.onnx");
    assert_eq!(code.matches("nn.PixelShuffle(").count(), 1, "{code}");
    let code = torch("onnx/slice_negative_step.onnx");
    assert_contains!(code, "torch.flip(", "index_select(3");
    let code = torch("onnx/resize_nearest_fractional.onnx");
    assert_contains!(code, "index_select(2, torch.tensor([0, 0, 1, 2, 2, 3, 4]");
    let code = torch("onnx/resize_linear_fractional.onnx");
    assert_contains!(code, "scale_factor=(1.5, 0.75)");
    let code = torch("onnx/pad_wrap_one_axis.onnx");
    assert_contains!(code, "(1, 2, 0, 0), mode=\"circular\"");
    let code = torch("onnx/matmul_add_bias_3d.onnx");
    assert_contains!(code, "nn.Linear(8, 6)");
    assert_lacks!(code, "bias=False");
    // float16 files are fed float16 and compared at float16's tolerance.
    let script = file_port("onnx/float16_conv.onnx", Framework::Torch, true);
    assert_contains!(script, "as_source(x, 0)", "TOL = 5e-3 if");
}
