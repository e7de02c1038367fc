//! Invariants over random layers (proptest): what must hold whatever the numbers.

use padlab::core::{Dims, Framework, LayerSpec, Op, Padding, Placement, evaluate};
use proptest::prelude::*;

fn framework() -> impl Strategy<Value = Framework> {
    prop::sample::select(Framework::ALL.to_vec())
}

fn op() -> impl Strategy<Value = Op> {
    prop::sample::select(Op::ALL.to_vec())
}

fn padding(n: usize) -> impl Strategy<Value = Padding> {
    prop_oneof![
        Just(Padding::Valid),
        Just(Padding::Same),
        Just(Padding::SameLower),
        Just(Padding::Causal),
        (0i64..4).prop_map(Padding::All),
        prop::collection::vec(0i64..4, n).prop_map(Padding::PerDim),
        prop::collection::vec((0i64..4, 0i64..4).prop_map(|(a, b)| [a, b]), n)
            .prop_map(Padding::Explicit),
    ]
}

/// A plausible layer: 1-3 dims, small sizes, any framework and op.
fn layer() -> impl Strategy<Value = LayerSpec> {
    (1usize..=3).prop_flat_map(|n| {
        (
            op(),
            framework(),
            prop::collection::vec(1i64..40, n),
            prop::collection::vec(1i64..8, n),
            prop::collection::vec(1i64..5, n),
            prop::collection::vec(1i64..4, n),
            padding(n),
            prop::option::of(prop::collection::vec(0i64..3, n)),
            prop::option::of(any::<bool>()),
        )
            .prop_map(
                |(op, fw, input, kernel, stride, dilation, padding, outpad, ceil)| {
                    let mut spec = LayerSpec::new(op, fw, input, Dims::Each(kernel));
                    spec.stride = Some(Dims::Each(stride));
                    spec.dilation = Some(Dims::Each(dilation));
                    spec.padding = Some(padding);
                    if op == Op::ConvTranspose {
                        spec.output_padding = outpad.map(Dims::Each);
                    } else if op.is_pool() && matches!(fw, Framework::Torch | Framework::Onnx) {
                        spec.ceil_mode = ceil;
                    }
                    spec
                },
            )
    })
}

fn floor_formula(i: i64, before: i64, after: i64, keff: i64, s: i64) -> i64 {
    (i + before + after - keff).div_euclid(s) + 1
}

proptest! {
    // A property over accepted layers assumes acceptance: refused cases are rejected, not
    // passed, and proptest runs until 4,000 cases were accepted (or fails for too many rejects).
    #![proptest_config(ProptestConfig {
        cases: 4000,
        max_global_rejects: 400_000,
        ..ProptestConfig::default()
    })]

    /// Any integers at all, huge or negative: an answer or an error, never a panic.
    #[test]
    fn no_input_panics(
        op in op(), fw in framework(),
        input in prop::collection::vec(any::<i64>(), 0..5),
        kernel in any::<i64>(), stride in any::<i64>(), dilation in any::<i64>(),
        pad in any::<i64>(), outpad in any::<i64>(), out in prop::collection::vec(any::<i64>(), 0..4),
        ceil in any::<bool>(),
    ) {
        let mut spec = LayerSpec::new(op, fw, input, Dims::All(kernel));
        spec.stride = Some(Dims::All(stride));
        spec.dilation = Some(Dims::All(dilation));
        spec.padding = Some(Padding::All(pad));
        spec.output_padding = Some(Dims::All(outpad));
        spec.output_size = Some(out);
        spec.ceil_mode = Some(ceil);
        let _ = evaluate(&spec).map(|a| a.output());
        spec.padding = Some(Padding::Same);
        spec.output_size = None;
        let _ = evaluate(&spec).map_err(|e| e.to_string());
    }

    /// Forward layers: the reported pads give the output through the plain floor formula
    /// (except where ceil_mode or ONNX Runtime's truncating division rounds the other way).
    #[test]
    fn reported_pads_reproduce_the_output(mut spec in layer(), op in prop::sample::select(vec![Op::Conv, Op::MaxPool, Op::AvgPool])) {
        spec.op = op;
        spec.ceil_mode = None;
        spec.output_padding = None;
        let a = evaluate(&spec);
        prop_assume!(a.is_ok());
        let a = a.unwrap();
        prop_assert_eq!(a.placement, Placement::Pad);
        for d in 0..a.output().len() {
            let s = match &spec.stride { Some(Dims::Each(v)) => v[d], _ => 1 };
            let want = floor_formula(spec.input[d], a.before()[d], a.after()[d], a.effective_kernel()[d], s);
            let onnx_pool = spec.framework == Framework::Onnx && spec.op.is_pool();
            if !onnx_pool || spec.input[d] + a.before()[d] + a.after()[d] >= a.effective_kernel()[d] {
                prop_assert_eq!(a.output()[d], want, "dimension {}", d);
            }
        }
    }

    /// Transposed convolution: the output is the full output less both crops.
    #[test]
    fn transposed_output_is_the_full_output_less_the_crops(mut spec in layer()) {
        spec.op = Op::ConvTranspose;
        spec.ceil_mode = None;
        let a = evaluate(&spec);
        prop_assume!(a.is_ok());
        let a = a.unwrap();
        // The full output from its definition, (i-1)s + d(k-1) + 1, not from the answer.
        let each = |dims: &Option<Dims>, d: usize| match dims { Some(Dims::Each(v)) => v[d], _ => 1 };
        for (d, axis) in a.axes.iter().enumerate() {
            let Dims::Each(k) = &spec.kernel else { unreachable!() };
            let full = (spec.input[d] - 1) * each(&spec.stride, d) + each(&spec.dilation, d) * (k[d] - 1) + 1;
            prop_assert_eq!(axis.output, full - axis.before - axis.after);
        }
        prop_assert!(!a.pads_depend_on_input);
    }

    /// 'same' at stride 1 keeps the size, in every framework that accepts it. The one real
    /// exception: ONNX Runtime sizes SAME pooling pads with the undilated kernel, so a dilated
    /// pool shrinks (tests/fixtures/onnx_max_pool.jsonl records it).
    #[test]
    fn same_at_stride_one_keeps_the_size(mut spec in layer(), op in prop::sample::select(vec![Op::Conv, Op::MaxPool, Op::AvgPool])) {
        spec.op = op;
        spec.output_padding = None;
        let dilated = matches!(&spec.dilation, Some(Dims::Each(d)) if d.iter().any(|&x| x > 1));
        prop_assume!(!(spec.framework == Framework::Onnx && spec.op.is_pool() && dilated));
        spec.padding = Some(Padding::Same);
        spec.ceil_mode = None;
        let n = spec.input.len();
        spec.stride = Some(Dims::Each(vec![1; n]));
        let a = evaluate(&spec);
        prop_assume!(a.is_ok());
        let a = a.unwrap();
        prop_assert_eq!(&a.output(), &spec.input);
        prop_assert!(!a.pads_depend_on_input);
    }

    /// Growing the input never shrinks the output.
    #[test]
    fn output_never_shrinks_as_input_grows(spec in layer(), dim in 0usize..3, grow in 1i64..20) {
        let dim = dim % spec.input.len();
        let mut bigger = spec.clone();
        bigger.input[dim] += grow;
        let (a, b) = (evaluate(&spec), evaluate(&bigger));
        prop_assume!(a.is_ok() && b.is_ok());
        let (a, b) = (a.unwrap(), b.unwrap());
        for d in 0..a.output().len() {
            prop_assert!(b.output()[d] >= a.output()[d], "{:?} -> {:?}", a.output(), b.output());
        }
    }

    /// Strided 'same' with a window wider than one is flagged as input-dependent, and its
    /// output is ceil(i / s) in the TF-style frameworks.
    #[test]
    fn strided_same_depends_on_the_input(mut spec in layer(), fw in prop::sample::select(vec![Framework::Keras, Framework::Tf, Framework::Jax])) {
        spec.op = Op::Conv;
        spec.framework = fw;
        spec.ceil_mode = None;
        spec.output_padding = None;
        spec.padding = Some(Padding::Same);
        let a = evaluate(&spec);
        prop_assume!(a.is_ok());
        let a = a.unwrap();
        let Some(Dims::Each(s)) = &spec.stride else { unreachable!() };
        for (d, s) in s.iter().enumerate() {
            prop_assert_eq!(a.output()[d], (spec.input[d] + s - 1) / s);
        }
        let expect = (0..a.output().len()).any(|d| s[d] > 1 && a.effective_kernel()[d] > 1);
        prop_assert_eq!(a.pads_depend_on_input, expect);
    }
}

/// A size from tiny to near the 64-bit limit: the picture's arithmetic must hold at both ends.
fn size() -> impl Strategy<Value = i64> {
    prop_oneof![
        1..40i64,
        1..i64::MAX / 2,
        Just(i64::MAX / 3),
        Just(i64::MAX)
    ]
}

/// A padding from zero to the 64-bit limits, signed (JAX takes negative pads).
fn wide_padding() -> impl Strategy<Value = Padding> {
    let amount = prop_oneof![
        0..5i64,
        -5..5i64,
        Just(i64::MAX),
        Just(i64::MIN),
        any::<i64>()
    ];
    prop_oneof![
        Just(Padding::Valid),
        Just(Padding::Same),
        Just(Padding::SameLower),
        Just(Padding::Causal),
        amount.clone().prop_map(Padding::All),
        prop::collection::vec((amount.clone(), amount).prop_map(|(a, b)| [a, b]), 1..4)
            .prop_map(Padding::Explicit),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1500,
        max_global_rejects: 200_000,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_accepted_layer_has_a_plan_with_steps_for_every_target(spec in layer()) {
        prop_assume!(evaluate(&spec).is_ok());
        plan_has_steps::<padlab::codegen::TorchPad>(&spec)?;
        plan_has_steps::<padlab::codegen::KerasPad>(&spec)?;
        plan_has_steps::<padlab::codegen::TfPad>(&spec)?;
        plan_has_steps::<padlab::codegen::OnnxPad>(&spec)?;
        plan_has_steps::<padlab::codegen::JaxPad>(&spec)?;
    }

    /// Whatever layer the core accepts, every pure module that shows it computes without a
    /// panic (these tests build with overflow checks, so an overflow fails here): the picture,
    /// its layout and scene (when small enough to draw), the arithmetic, the framework table,
    /// the panels, the input-size plot, the permalink, the JSON answer and the code for every
    /// target. Cases the core refuses are not counted: 1,500 accepted layers run.
    #[test]
    fn no_pure_module_panics_on_an_accepted_layer(
        op in op(), fw in framework(),
        input in prop::collection::vec(size(), 1..4),
        kernel in size(), stride in size(), dilation in prop_oneof![1..4i64, size()],
        padding in wide_padding(), ceil in any::<bool>(),
    ) {
        let mut spec = LayerSpec::new(op, fw, input, Dims::All(kernel));
        spec.stride = Some(Dims::All(stride));
        spec.dilation = Some(Dims::All(dilation));
        spec.padding = Some(padding);
        spec.ceil_mode = (ceil && op.is_pool()).then_some(true);
        let answer = evaluate(&spec);
        prop_assume!(answer.is_ok());
        let answer = answer.unwrap();
        if let Some(p) = padlab::picture::picture(&spec, &answer) {
            picture_is_bounded(&p)?;
        }
        let lines = padlab::view::explain::explain(&spec, &answer);
        prop_assert_eq!(lines.len(), answer.ndim());
        let _ = padlab::view::panels::formula(&lines);
        let _ = padlab::view::panels::summary(&Ok(answer.clone()));
        let _ = padlab::view::panels::comparison(&padlab::view::compare::compare(&spec));
        let _ = padlab::view::plot::sweep(&spec, None).map(|s| padlab::view::plot::svg(&s, 640, 440));
        let compact = padlab::forms::compact::CompactSpec::from_spec(&spec);
        let query = padlab::forms::permalink::format_query(&compact);
        let back = padlab::forms::permalink::parse_query(&query, &compact);
        prop_assert_eq!(back.spec, compact);
        let json = padlab::forms::wire::spec_json(&spec);
        let line = padlab::forms::wire::eval_line(&json.to_string());
        prop_assert!(line.get("output").is_some(), "{}", line);
        for &target in Framework::ALL {
            let options = padlab::codegen::Options { check: true, ..Default::default() };
            let answer = padlab::codegen::answer::answer(&spec, target);
            prop_assert!(
                matches!(answer, Ok(_) | Err(padlab::codegen::CodegenError::TooLarge { .. })),
                "{:?}", answer
            );
            let code = padlab::codegen::generate(&spec, target, &options);
            prop_assert!(
                matches!(code, Ok(_) | Err(padlab::codegen::CodegenError::TooLarge { .. })),
                "{:?}", code
            );
            if let Ok(snippet) = &code {
                let pieces = padlab::view::highlight::highlight(&snippet.code);
                prop_assert_eq!(pieces.iter().map(|(_, t)| t.len()).sum::<usize>(), snippet.code.len());
            }
        }
    }
}

#[test]
fn the_arithmetic_of_a_layer_near_the_64_bit_limit_is_exact() {
    // Keras 'same' with stride 2 on an input near i64::MAX: the core accepts it, and the
    // arithmetic panel once computed (i + s - 1) / s in i64 (a panic in debug builds, a wrong
    // number in the release wasm).
    let mut spec = LayerSpec::new(Op::Conv, Framework::Keras, vec![i64::MAX], Dims::All(3));
    spec.stride = Some(Dims::All(2));
    spec.padding = Some(Padding::Same);
    let answer = evaluate(&spec).expect("the core accepts it");
    let lines = padlab::view::explain::explain(&spec, &answer);
    let want = i64::MAX / 2 + 1;
    assert!(
        lines[0]
            .padding
            .as_deref()
            .is_some_and(|p| p.contains(&format!("= {want};"))),
        "{:?}",
        lines[0]
    );
}

/// Every picture of an accepted layer draws, at any step, within the cells its layout shows
/// (edges and the current window); the whole layer is drawn only when small.
fn picture_is_bounded(p: &padlab::picture::Picture) -> Result<(), TestCaseError> {
    use padlab::picture::{Fit, Hit, View, hit, layout, scene, svg, words};
    let count = p.cell_count();
    prop_assert!(count > 0);
    let last = p.steps().saturating_sub(1);
    let _ = p.step_index(last);
    for step in [0, last / 2, last] {
        let at = layout(p, step, &Fit::default());
        prop_assert!(at.cell >= 1 && at.width > 0 && at.height > 0);
        let drawn =
            at.in_rows.slots() * at.in_cols.slots() + at.out_rows.slots() * at.out_cols.slots();
        prop_assert!(drawn <= 5_000, "{} cells drawn", drawn);
        let scene = scene(p, &at, 0);
        prop_assert!(svg::scene_svg(&scene).contains("cell-output"));
        for hover in [
            None,
            Some(Hit::Input { r: 0, c: 0 }),
            Some(Hit::Output { r: 0, c: 0 }),
            hit(&at, at.width / 3, at.height / 2),
        ] {
            let overlay = svg::overlay_svg(p, &at, step, 0, hover);
            prop_assert!(
                overlay.len() < 400_000,
                "{} bytes of overlay",
                overlay.len()
            );
        }
        let _ = words::legend(p, &scene, &at);
        let numbers = padlab::picture::values::values_svg(p, &at, 0);
        prop_assert!(numbers.len() < 2_000_000);
        let _ = padlab::picture::values::sum_text(p, step);
        let _ = words::step_text(p, step);
        let _ = words::depth_text(p, step, 0);
    }
    if count <= 5_000 {
        let at = layout(
            p,
            last,
            &Fit {
                view: View::Whole { cell: 0 },
                ..Fit::default()
            },
        );
        prop_assert!(svg::base_svg(p, &at, 0).contains("cell-output"));
        let _ = svg::overlay_svg(p, &at, last, 0, None);
    }
    Ok(())
}

/// Found by `no_pure_module_panics_on_an_accepted_layer`: a stride near i64::MAX / 3 overflowed
/// the overlay's tap positions.
#[test]
fn a_huge_stride_draws_without_overflow() {
    let mut spec = LayerSpec::new(
        Op::Conv,
        Framework::Keras,
        vec![i64::MAX, 1, 1],
        Dims::All(3),
    );
    spec.stride = Some(Dims::All(3_074_457_345_618_258_602));
    spec.padding = Some(padlab::core::Padding::Same);
    let answer = evaluate(&spec).expect("accepted");
    let p = padlab::picture::picture(&spec, &answer).expect("a picture");
    picture_is_bounded(&p).expect("bounded");
}

/// Every plan for an accepted layer has steps, each in a form the target writes (a failed
/// spelling is an error, never an empty plan), and exactly one of them is the layer itself.
fn plan_has_steps<P: padlab::codegen::plan::Spelling>(
    spec: &LayerSpec,
) -> Result<(), TestCaseError> {
    use padlab::codegen::plan::{LowerOptions, Step, lower};
    for export_safe in [false, true] {
        let plan = lower::<P>(spec, LowerOptions { export_safe });
        prop_assert!(plan.is_ok(), "{:?}: {:?}", spec, plan);
        let plan = plan.unwrap();
        let layers = plan
            .steps
            .iter()
            .filter(|s| {
                matches!(
                    s,
                    Step::Conv { .. }
                        | Step::ConvTranspose { .. }
                        | Step::Pool { .. }
                        | Step::AverageRatio { .. }
                )
            })
            .count();
        prop_assert_eq!(layers, 1, "{:?} -> {:?}", spec, plan.steps);
    }
    Ok(())
}
