//! The self-check script: the generated layer, the source layer as its own framework writes it,
//! a random input and torch-layout weights through both, and assertions on the shape and the
//! numbers (`padlab self-check passed ...` when they hold).

use crate::core::{LayerSpec, Op};

use super::plan::{LowerOptions, Plan, lower};
use super::target::{Render, Target, WithTarget};
use super::writer::{self, Py, dilate_kernel_helper};
use super::{CodegenError, for_target};

/// The source layer, rendered by its own framework's renderer as `source_layer`.
fn source_layer(source: &LayerSpec, py: &mut Py, target_dilates: bool) -> Result<(), CodegenError> {
    struct SourceBlock<'a>(&'a LayerSpec, &'a mut Py, bool);
    impl WithTarget for SourceBlock<'_> {
        type Output = Result<(), CodegenError>;
        fn run<T: Target>(self) -> Self::Output {
            source_block::<T>(self.0, self.1, self.2)
        }
    }
    for_target(source.framework, SourceBlock(source, py, target_dilates))
}

fn source_block<S: Target>(
    source: &LayerSpec,
    py: &mut Py,
    target_dilates: bool,
) -> Result<(), CodegenError> {
    let plan: Plan<S::Pad> = lower(source, LowerOptions::default())?;
    let render = Render {
        plan: &plan,
        name: "source_layer",
        functional: false,
        export_safe: false,
        source,
    };
    py.blank();
    if plan.native {
        py.comment(format!(
            "The source layer, as written in {}:",
            source.framework.title()
        ));
    } else {
        // Keras's own layer differs by backend here: steps that compute what the source
        // computes, on every backend.
        py.comment(format!(
            "The source layer, computed as {} does, in steps that give the same numbers on every backend:",
            source.framework.title()
        ));
    }
    // The helper is written once, for whichever of the two layers needs it first.
    if plan.dilated_kernel() && !target_dilates {
        dilate_kernel_helper(py);
        py.blank();
    }
    py.append(&S::layer(&render));
    py.blank();
    py.append(&S::runner(&render));
    Ok(())
}

/// Appends the runner, the source layer (from another framework) and the checks to `py`.
pub(super) fn script<T: Target>(py: &mut Py, r: &Render<T::Pad>) -> Result<(), CodegenError> {
    let target = T::CAN.framework;
    let source = r.source;
    let sem = &r.plan.semantics;
    py.blank();
    py.append(&T::runner(r));
    let check_source = source.framework != target;
    if check_source {
        source_layer(source, py, r.plan.dilated_kernel())?;
    }
    py.blank();
    let op = sem.op;
    let k = &sem.shape.kernel;
    let (c_in, c_out) = if op.is_pool() { (3, 3) } else { (3, 4) };
    py.line("rng = np.random.default_rng(0)");
    py.line(format!(
        "x = rng.standard_normal((2, {c_in}, {})).astype(np.float32)",
        writer::join(&sem.shape.input)
    ));
    let w_shape = match op {
        Op::ConvTranspose => format!("({c_in}, {c_out}, {})", writer::join(k)),
        _ => format!("({c_out}, {c_in}, {})", writer::join(k)),
    };
    py.line(format!(
        "w = rng.standard_normal({w_shape}).astype(np.float32)  # torch layout"
    ));
    py.line(format!(
        "b = rng.standard_normal(({c_out},)).astype(np.float32)"
    ));
    py.line("y = run_padlab_layer(x, w, b)");
    let expected = format!("(2, {c_out}, {})", writer::join(&sem.shape.output));
    py.line(format!(
        "assert y.shape == {expected}, f\"shape {{y.shape}}, expected {expected}\""
    ));
    if check_source {
        py.line("y_source = run_source_layer(x, w, b)");
        py.line(
            "assert y_source.shape == y.shape, f\"source shape {y_source.shape} vs {y.shape}\"",
        );
        py.line("error = float(np.max(np.abs(y - y_source))) if y.size else 0.0");
        py.line("assert np.allclose(y, y_source, atol=1e-4), f\"outputs differ by {error}\"");
        py.line(format!(
            "print(f\"padlab self-check passed: {} and {} agree, output {expected}, max difference {{error:.2e}}\")",
            source.framework.title(),
            target.title()
        ));
    } else {
        py.line(format!(
            "print(\"padlab self-check passed: output {expected}\")"
        ));
    }
    Ok(())
}
