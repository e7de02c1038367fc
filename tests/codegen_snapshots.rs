//! Generated code, pinned: one snapshot per representative case (review changes with
//! `cargo insta review`), plus assertions on the facts that must never regress.

use padlab::codegen::{Options, generate};
use padlab::core::Framework;
use padlab::forms::wire::parse_spec;

#[macro_use]
#[path = "common/text.rs"]
mod text;

fn code(spec: &str, target: Framework, options: Options) -> String {
    let spec = parse_spec(&serde_json::from_str(spec).unwrap())
        .unwrap()
        .spec;
    generate(&spec, target, &options).unwrap().code
}

fn plain(spec: &str, target: Framework) -> String {
    code(spec, target, Options::default())
}

const SEED_000: &str =
    r#"{"op":"conv","framework":"keras","input":[100,20],"kernel":[4,1],"padding":"same"}"#;
const SEED_001: &str = r#"{"op":"conv_transpose","framework":"torch","input":[249],"kernel":7,"stride":6,"padding":9,"output_padding":4}"#;
const SEED_002_POOL: &str = r#"{"op":"max_pool","framework":"keras","input":[30,30],"kernel":2,"stride":2,"padding":"same"}"#;
const SEED_004: &str =
    r#"{"op":"conv","framework":"torch","input":[6,6],"kernel":5,"stride":2,"padding":2}"#;
const RESNET_STEM: &str =
    r#"{"op":"conv","framework":"keras","input":[224,224],"kernel":7,"stride":2,"padding":"same"}"#;
const SHIFT_TRAP: &str = r#"{"op":"conv_transpose","framework":"keras","input":[4],"kernel":3,"stride":2,"padding":"same"}"#;
const CEIL_POOL: &str = r#"{"op":"max_pool","framework":"torch","input":[5,5],"kernel":2,"stride":2,"padding":0,"ceil_mode":true}"#;
const CEIL_POOL_PADDED: &str = r#"{"op":"max_pool","framework":"torch","input":[6],"kernel":3,"stride":2,"padding":1,"ceil_mode":true}"#;
const AVG_COUNT_PAD: &str =
    r#"{"op":"avg_pool","framework":"torch","input":[7],"kernel":3,"stride":2,"padding":1}"#;
const REFLECT: &str = r#"{"op":"conv","framework":"torch","input":[8,8],"kernel":3,"padding":1,"padding_mode":"reflect"}"#;
const KERAS_TORCH_AVG: &str = r#"{"op":"avg_pool","framework":"keras","backend":"torch","input":[8,8],"kernel":3,"stride":2,"padding":"same"}"#;
const REPLICATE: &str = r#"{"op":"conv","framework":"torch","input":[8,8],"kernel":3,"padding":1,"padding_mode":"replicate"}"#;
const KERAS_DILATED: &str = r#"{"op":"conv","framework":"torch","input":[16],"kernel":3,"stride":2,"dilation":2,"padding":2}"#;

#[test]
fn seed_000_keras_same_to_torch_uses_torch_same_at_stride_one() {
    let torch = plain(SEED_000, Framework::Torch);
    assert_contains!(torch, "padding=\"same\"");
    insta::assert_snapshot!(torch);
}

#[test]
fn seed_000_export_safe_torch_pads_explicitly_with_the_extra_row_at_the_bottom() {
    let torch = code(
        SEED_000,
        Framework::Torch,
        Options {
            export_safe: true,
            ..Options::default()
        },
    );
    assert_lacks!(torch, "\"same\"");
    // F.pad order: (left, right, top, bottom); TF puts the odd row at the bottom.
    assert_contains!(torch, "F.pad(x, (0, 0, 1, 2))");
    insta::assert_snapshot!(torch);
}

#[test]
fn seed_001_torch_transposed_to_keras_and_tf() {
    insta::assert_snapshot!("seed_001_keras", plain(SEED_001, Framework::Keras));
    insta::assert_snapshot!("seed_001_tf", plain(SEED_001, Framework::Tf));
}

#[test]
fn seed_002_keras_same_max_pool_to_torch() {
    insta::assert_snapshot!(plain(SEED_002_POOL, Framework::Torch));
}

#[test]
fn seed_004_torch_to_keras_tf_onnx_jax() {
    let keras = plain(SEED_004, Framework::Keras);
    assert_contains!(keras, "ZeroPadding2D(((2, 2), (2, 2)))");
    insta::assert_snapshot!("seed_004_keras", keras);
    insta::assert_snapshot!("seed_004_tf", plain(SEED_004, Framework::Tf));
    insta::assert_snapshot!("seed_004_onnx", plain(SEED_004, Framework::Onnx));
    insta::assert_snapshot!("seed_004_jax", plain(SEED_004, Framework::Jax));
}

#[test]
fn strided_same_to_torch_states_its_input_dependence_and_offers_a_dynamic_module() {
    let torch = plain(RESNET_STEM, Framework::Torch);
    assert_contains!(
        torch,
        "exact for input 224x224",
        "class DynamicSameConv",
        "F.pad(x, (2, 3, 2, 3))"
    );
    insta::assert_snapshot!(torch);
}

#[test]
fn the_transposed_shift_trap_is_not_padding_1_output_padding_1() {
    let torch = plain(SHIFT_TRAP, Framework::Torch);
    assert_lacks!(torch, "padding=(1,), output_padding=(1,)");
    // Keras crops (0, 1) from the full 9: torch keeps padding 0 and drops the last element.
    assert_contains!(torch, "F.pad(x, (0, -1))");
    insta::assert_snapshot!(torch);
}

#[test]
fn ceil_mode_max_pool_is_tf_same_where_the_windows_agree() {
    // Windows 0-1, 2-3, 4-5: the position past the input is ignored, as TF's -inf pad is.
    let tf = plain(CEIL_POOL, Framework::Tf);
    assert_contains!(tf, "padding=\"SAME\"");
    insta::assert_snapshot!(tf);
}

#[test]
fn ceil_mode_max_pool_with_padding_to_tf_pads_explicitly_or_with_minus_infinity() {
    // torch: 4 windows from -1 (the last reaches past the right pad); TF 'SAME' would give 3.
    // In 1-D, tf.nn.max_pool1d takes the pairs (1, 2) itself.
    let tf = plain(CEIL_POOL_PADDED, Framework::Tf);
    assert_contains!(tf, "padding=[[0, 0], [1, 2], [0, 0]]");
    insta::assert_snapshot!("ceil_pool_1d_tf", tf);
    // In 3-D it takes none: pad with -inf, then a valid pool.
    let spec_3d = CEIL_POOL_PADDED.replace("[6]", "[6,6,6]");
    let tf = plain(&spec_3d, Framework::Tf);
    assert_contains!(
        tf,
        "[1, 2], [1, 2], [1, 2], [0, 0]], constant_values=float(\"-inf\"))"
    );
    insta::assert_snapshot!("ceil_pool_3d_tf", tf);
}

#[test]
fn counted_padding_average_to_keras_divides_by_the_counted_window() {
    // Every window inside the zero-padded input: zeros, then a valid average (divisor 3).
    let keras = plain(AVG_COUNT_PAD, Framework::Keras);
    assert_contains!(
        keras,
        "keras.layers.ZeroPadding1D((1, 1))",
        "padding=\"valid\""
    );
    insta::assert_snapshot!(keras);
    // A ceil-mode window past the padding counts the padding but not the overhang: the
    // divisor is a window sum of a mask of ones over input and padding.
    let ceil = r#"{"op":"avg_pool","framework":"torch","input":[6],"kernel":3,"stride":2,"padding":1,"ceil_mode":true}"#;
    let keras = plain(ceil, Framework::Keras);
    assert_contains!(keras, "constant_values=1.0");
}

#[test]
fn reflect_padding_to_tf() {
    let tf = plain(REFLECT, Framework::Tf);
    assert_contains!(tf, "mode=\"REFLECT\"");
    insta::assert_snapshot!(tf);
}

/// The list of "the same pads" in every framework must use the layer's own fill: a reflect
/// convolution's or Keras-on-torch's replicated average's padding is not zeros.
#[test]
fn the_same_pads_list_keeps_the_fill() {
    let tf = plain(REFLECT, Framework::Tf);
    assert_contains!(tf, "nn.ReflectionPad2d((1, 1, 1, 1))");
    assert_lacks!(tf, "ZeroPad");
    let replicated = KERAS_TORCH_AVG.replace("[8,8]", "[2]");
    let torch = plain(&replicated, Framework::Torch);
    assert_contains!(
        torch,
        "F.pad(x, (0, 1), mode=\"replicate\")",
        "jnp.pad(x, [(0, 0), (0, 0), (0, 1)], mode=\"edge\")"
    );
    assert_lacks!(torch, "ZeroPad");
}

#[test]
fn strided_dilated_conv_to_keras_uses_a_zero_inserted_kernel() {
    let keras = plain(KERAS_DILATED, Framework::Keras);
    assert_contains!(keras, "def dilate_kernel", "dilation_rate=(1,)");
    insta::assert_snapshot!(keras);
}

#[test]
fn functional_torch_and_a_self_check_script() {
    insta::assert_snapshot!(
        "seed_004_torch_functional",
        code(
            SEED_004,
            Framework::Torch,
            Options {
                functional: true,
                ..Options::default()
            }
        )
    );
    let check = code(
        SEED_000,
        Framework::Torch,
        Options {
            check: true,
            ..Options::default()
        },
    );
    assert_contains!(
        check,
        "run_source_layer",
        "np.allclose(y, y_source, atol=1e-4)"
    );
    insta::assert_snapshot!("seed_000_torch_check", check);
}

#[test]
fn every_source_target_pair_generates_for_the_seeds() {
    for spec in [
        SEED_000,
        SEED_001,
        SEED_002_POOL,
        SEED_004,
        SHIFT_TRAP,
        CEIL_POOL,
        CEIL_POOL_PADDED,
        AVG_COUNT_PAD,
        REFLECT,
    ] {
        for target in Framework::ALL {
            for check in [false, true] {
                let text = code(
                    spec,
                    *target,
                    Options {
                        check,
                        ..Options::default()
                    },
                );
                assert!(text.lines().count() > 5, "{spec} -> {target}");
            }
        }
    }
}

#[test]
fn a_refused_source_is_an_error_not_code() {
    let spec = parse_spec(
        &serde_json::from_str(r#"{"op":"conv","framework":"torch","input":[224],"kernel":7,"stride":2,"padding":"same"}"#)
            .unwrap(),
    )
    .unwrap()
    .spec;
    let err = generate(&spec, Framework::Keras, &Options::default())
        .unwrap_err()
        .to_string();
    assert_contains!(err, "not supported for strided convolutions");
}

#[test]
fn max_pool_windows_that_miss_the_input_keep_the_source_value_in_keras() {
    // ONNX Runtime starts a max at the lowest float; Keras has no dilated pool, so padlab takes
    // the maximum of strided slices of the -inf-padded input, which leaves -inf: map it back.
    let onnx_dilated = r#"{"op":"max_pool","framework":"onnx","input":[2,2,8],"kernel":[5,3,1],"stride":[7,6,5],"padding":"same_lower","dilation":[1,3,1]}"#;
    let keras = plain(onnx_dilated, Framework::Keras);
    assert_contains!(
        keras,
        "keras.ops.where(t == float(\"-inf\"), -3.4028234663852886e38, t)"
    );
    // JAX gives -inf there too: nothing to map for a dilated pool...
    let jax_dilated = r#"{"op":"max_pool","framework":"jax","input":[4],"kernel":2,"stride":2,"dilation":2,"padding":[[0,5]]}"#;
    let keras = plain(jax_dilated, Framework::Keras);
    assert_lacks!(keras, "keras.ops.where");
    // ...but Keras' own pooling layer starts at the lowest float: map that to -inf.
    let jax_plain = r#"{"op":"max_pool","framework":"jax","input":[4],"kernel":2,"stride":2,"padding":[[0,3]]}"#;
    let keras = plain(jax_plain, Framework::Keras);
    assert_contains!(
        keras,
        "keras.ops.where(t == -3.4028234663852886e38, float(\"-inf\"), t)"
    );
}

#[test]
fn export_safe_torch_uses_only_what_onnx_export_keeps_exact() {
    let safe = Options {
        export_safe: true,
        ..Options::default()
    };
    // A dilated average (torch has no dilated AvgPool): eager code sums windows with a
    // grouped convolution whose ones kernel is made at run time, which ONNX export refuses.
    let dilated_average = r#"{"op":"avg_pool","framework":"jax","input":[24],"kernel":7,"stride":4,"dilation":2,"padding":"valid"}"#;
    let eager = plain(dilated_average, Framework::Torch);
    assert_contains!(eager, ".new_ones(");
    let exported = code(dilated_average, Framework::Torch, safe);
    assert_lacks!(exported, ".new_ones(");
    assert_contains!(
        exported,
        "window_sum(x, (7,), (4,), (2,))",
        "import itertools"
    );
    // Windows that miss the input: torch gives -inf (as JAX does), but once exported the pool
    // starts at the lowest float, like ONNX Runtime's: export-safe code maps it back.
    let empty_windows = r#"{"op":"max_pool","framework":"jax","input":[18,14],"kernel":[2,1],"stride":[1,3],"padding":2}"#;
    let restore = "x.masked_fill(x == torch.finfo(x.dtype).min, float(\"-inf\"))";
    assert!(!plain(empty_windows, Framework::Torch).contains(restore));
    let exported = code(empty_windows, Framework::Torch, safe);
    assert!(exported.contains(restore), "{exported}");
}

/// The porter's answer lines (`codegen::answer`) for every case above and every target, in
/// one snapshot: what the page shows first.
#[test]
fn answer_lines_for_the_seeds_and_the_traps() {
    let mut out = String::new();
    for (name, spec) in [
        ("seed 000", SEED_000),
        ("seed 001", SEED_001),
        ("seed 002 pool", SEED_002_POOL),
        ("seed 004", SEED_004),
        ("resnet stem", RESNET_STEM),
        ("shift trap", SHIFT_TRAP),
        ("ceil pool", CEIL_POOL),
        ("ceil pool padded", CEIL_POOL_PADDED),
        ("avg count pad", AVG_COUNT_PAD),
        ("reflect", REFLECT),
        ("dilated", KERAS_DILATED),
        ("keras on torch, replicated average", KERAS_TORCH_AVG),
        ("replicate conv", REPLICATE),
        (
            "3-d dilated conv",
            r#"{"op":"conv","framework":"torch","input":[8,8,8],"kernel":3,"dilation":[1,1,2],"padding":2}"#,
        ),
    ] {
        let spec = parse_spec(&serde_json::from_str(spec).unwrap())
            .unwrap()
            .spec;
        out.push_str(&format!("== {name}\n"));
        for &target in Framework::ALL {
            let a = padlab::codegen::answer::answer(&spec, target).unwrap();
            out.push_str(&format!(
                "-- {}{}\n",
                target.name(),
                if a.native { " (native)" } else { "" }
            ));
            for line in &a.lines {
                out.push_str(&format!("{line}\n"));
            }
            if let Some(note) = &a.note {
                out.push_str(&format!("note: {note}\n"));
            }
        }
    }
    insta::assert_snapshot!(out);
}
