//! The code generator's decisions, checked on the plan itself (what to emit), not on the
//! rendered Python: one `plan(spec, options)` helper, one decision per test.

use padlab::codegen::plan::{
    ConvStep, Fill, LowerOptions, OddPixel, Plan, Spelling, Step, TransposeStep, Window, lower,
};
use padlab::codegen::{JaxPad, KerasPad, OnnxPad, TfPad, TorchPad};
use padlab::forms::wire::parse_spec;

/// The plan for the JSON layer `spec` in the target of `P`.
fn plan<P: Spelling>(spec: &str, export_safe: bool) -> Plan<P> {
    let spec = parse_spec(&serde_json::from_str(spec).expect("JSON"))
        .expect("a spec")
        .spec;
    lower::<P>(&spec, LowerOptions { export_safe }).expect("a plan")
}

const SEED_000: &str =
    r#"{"op":"conv","framework":"keras","input":[100,20],"kernel":[4,1],"padding":"same"}"#;
const RESNET_STEM: &str =
    r#"{"op":"conv","framework":"keras","input":[224,224],"kernel":7,"stride":2,"padding":"same"}"#;
const SHIFT_TRAP: &str = r#"{"op":"conv_transpose","framework":"keras","input":[4],"kernel":3,"stride":2,"padding":"same"}"#;
const DILATED_AVERAGE: &str = r#"{"op":"avg_pool","framework":"jax","input":[24],"kernel":7,"stride":4,"dilation":2,"padding":"valid"}"#;

#[test]
fn keras_same_at_stride_one_is_torch_same_or_explicit_pads_for_exporters() {
    let eager: Plan<TorchPad> = plan(SEED_000, false);
    assert!(eager.native);
    assert!(matches!(
        eager.steps.as_slice(),
        [Step::Conv(ConvStep {
            padding: TorchPad::Same,
            ..
        })]
    ));
    let safe: Plan<TorchPad> = plan(SEED_000, true);
    assert!(!safe.native);
    assert_eq!(
        safe.steps[0],
        Step::Pad {
            pairs: vec![(1, 2), (0, 0)],
            fill: Fill::Zero
        }
    );
    assert!(matches!(
        safe.steps[1],
        Step::Conv(ConvStep {
            padding: TorchPad::Zero,
            ..
        })
    ));
}

#[test]
fn strided_same_is_static_pads_with_the_run_time_rule_beside_them() {
    let torch: Plan<TorchPad> = plan(RESNET_STEM, false);
    assert_eq!(torch.dynamic_same, Some(OddPixel::After));
    assert_eq!(
        torch.steps[0],
        Step::Pad {
            pairs: vec![(2, 3), (2, 3)],
            fill: Fill::Zero
        }
    );
    // TF and JAX keep 'SAME' itself: no static form, no run-time module.
    let tf: Plan<TfPad> = plan(RESNET_STEM, false);
    assert!(tf.native && tf.dynamic_same.is_none());
    let jax: Plan<JaxPad> = plan(RESNET_STEM, false);
    assert!(matches!(
        jax.steps.as_slice(),
        [Step::Conv(ConvStep {
            padding: JaxPad::Same,
            ..
        })]
    ));
}

#[test]
fn the_transposed_shift_trap_is_the_full_output_then_a_crop_at_the_end() {
    let torch: Plan<TorchPad> = plan(SHIFT_TRAP, false);
    assert!(matches!(
        torch.steps.as_slice(),
        [
            Step::ConvTranspose(TransposeStep {
                padding: TorchPad::Zero,
                output_size: None,
                ..
            }),
            Step::Crop { pairs }
        ] if pairs == &vec![(0, 1)]
    ));
    // ONNX Runtime's SAME_UPPER crops the same way: one native node.
    let onnx: Plan<OnnxPad> = plan(SHIFT_TRAP, false);
    assert!(onnx.native, "{:?}", onnx.steps);
}

/// How an average's windows are summed.
fn window<P>(steps: &[Step<P>]) -> Option<Window> {
    steps.iter().find_map(|s| match s {
        Step::AverageRatio(average) => Some(average.sum.window),
        _ => None,
    })
}

#[test]
fn each_target_sums_a_dilated_window_its_own_way() {
    let keras: Plan<KerasPad> = plan(DILATED_AVERAGE, false);
    assert_eq!(window(&keras.steps), Some(Window::Taps));
    let tf: Plan<TfPad> = plan(DILATED_AVERAGE, false);
    assert_eq!(window(&tf.steps), Some(Window::DenseThenStride));
    let torch: Plan<TorchPad> = plan(DILATED_AVERAGE, false);
    assert_eq!(window(&torch.steps), Some(Window::OnesConv));
    let exported: Plan<TorchPad> = plan(DILATED_AVERAGE, true);
    assert_eq!(window(&exported.steps), Some(Window::Taps));
    // ONNX AveragePool takes the dilation itself...
    let onnx: Plan<OnnxPad> = plan(DILATED_AVERAGE, false);
    assert!(onnx.native && window(&onnx.steps).is_none());
    // ...but a pad as wide as the window (JAX takes it, ONNX Runtime refuses pads >= kernel)
    // is summed by a ones convolution: a Pad before an AveragePool would be fused back.
    let counted = r#"{"op":"avg_pool","framework":"jax","input":[8],"kernel":3,"stride":1,"padding":[[3,0]]}"#;
    let onnx: Plan<OnnxPad> = plan(counted, false);
    assert_eq!(
        window(&onnx.steps),
        Some(Window::OnesConv),
        "{:?}",
        onnx.steps
    );
}

#[test]
fn empty_max_windows_keep_the_source_value() {
    // JAX gives -inf where a window misses the input; Keras' pooling layer the lowest float.
    let spec = r#"{"op":"max_pool","framework":"jax","input":[4],"kernel":2,"stride":2,"padding":[[0,3]]}"#;
    let keras: Plan<KerasPad> = plan(spec, false);
    assert_eq!(
        keras.steps.last(),
        Some(&Step::EmptyWindows { to_neg_inf: true })
    );
    // Keras sums a dilated pool by taps over the -inf-padded input, which keeps -inf.
    let dilated = r#"{"op":"max_pool","framework":"jax","input":[4],"kernel":2,"stride":2,"dilation":2,"padding":[[0,5]]}"#;
    let keras: Plan<KerasPad> = plan(dilated, false);
    assert!(
        !keras
            .steps
            .iter()
            .any(|s| matches!(s, Step::EmptyWindows { .. }))
    );
}

#[test]
fn a_form_the_target_cannot_write_is_never_chosen() {
    // ONNX SAME_LOWER: torch and Keras have no odd pixel before, so they pad explicitly.
    let spec = r#"{"op":"conv","framework":"onnx","input":[8],"kernel":4,"padding":"same_lower"}"#;
    let keras: Plan<KerasPad> = plan(spec, false);
    assert_eq!(
        keras.steps[0],
        Step::Pad {
            pairs: vec![(2, 1)],
            fill: Fill::Zero
        }
    );
    assert!(matches!(
        keras.steps[1],
        Step::Conv(ConvStep {
            padding: KerasPad::Valid,
            ..
        })
    ));
    let jax: Plan<JaxPad> = plan(spec, false);
    assert!(matches!(
        jax.steps.as_slice(),
        [Step::Conv(ConvStep {
            padding: JaxPad::SameLower,
            ..
        })]
    ));
}
