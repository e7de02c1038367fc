//! The target registry's types: the [`Target`] trait every renderer implements, and the
//! [`Render`] it reads. The registry itself is `codegen::for_target`, one line per target.

use crate::core::{LayerSpec, Op};

use super::describe::describe_layer;
use super::plan::{Abilities, Plan, Spelling};
use super::semantics::Shape;
use super::writer::{Line, Py, class_name, dims_text, tuple};

/// One target framework: what it can write and how it prints a plan. Everything target-specific
/// is here, in the target's own module: its padding forms (`Pad`), what else the lowering may
/// use ([`Abilities`]: its 'same' forms, its window ops, its limits), its layer, its runner and
/// its answer lines.
pub trait Target {
    /// The padding forms the target's layers take.
    type Pad: Spelling<Target = Self>;
    /// What the one lowering may write for this target beyond its padding forms.
    const CAN: &'static Abilities;
    /// The layer definition (a module, a function, a model builder).
    fn layer(r: &Render<Self::Pad>) -> Py;
    /// `def run_<name>(x, w, b)`: NCHW numpy in and out, torch-layout weights.
    fn runner(r: &Render<Self::Pad>) -> Py;
    /// The porter's short answer ([`super::answer`]): the layer call and any pad or crop
    /// around it, one typed [`Line`] per step.
    fn answer(plan: &Plan<Self::Pad>) -> Vec<Line>;
}

/// A job to run with one target's renderer: the registry ([`super::for_target`]) runs it with
/// the renderer of the framework asked for, so the mapping is written once.
pub(crate) trait WithTarget {
    type Output;
    fn run<T: Target>(self) -> Self::Output;
}

/// Everything a renderer reads.
pub struct Render<'a, P> {
    pub plan: &'a Plan<P>,
    /// The Python name of the layer function (or, in CamelCase, the class).
    pub name: &'a str,
    pub functional: bool,
    /// PyTorch for exporters (`Options::export_safe`): only ops that ONNX export keeps exact.
    pub export_safe: bool,
    pub source: &'a LayerSpec,
}

impl<P> Render<'_, P> {
    pub fn shape(&self) -> &Shape {
        &self.plan.semantics.shape
    }

    /// What the top-level helpers this layer's code defines begin with: nothing for the lone
    /// `padlab_layer`, else the layer's name, so that a file holding several layers (a ported
    /// model, a check script's source layer) never defines a name twice.
    pub fn helper_prefix(&self) -> String {
        if self.name == "padlab_layer" {
            String::new()
        } else {
            format!("{}_", self.name)
        }
    }

    /// A helper class's name, prefixed as [`Render::helper_prefix`] says (in CamelCase).
    pub fn helper_class(&self, base: &str) -> String {
        if self.name == "padlab_layer" {
            base.to_string()
        } else {
            format!("{}{base}", class_name(self.name))
        }
    }

    /// The runner's frame: numpy and the target's own `import`, then `def run_<name>(x, w, b)`
    /// holding `body`.
    pub fn runner_def(&self, import: Option<&str>, body: impl FnOnce(&mut Py)) -> Py {
        let mut py = Py::with_imports(&["import numpy as np"]);
        if let Some(import) = import {
            py.import(import);
        }
        py.block(format!("def run_{}(x, w, b)", self.name), body);
        py
    }

    /// The layer kind.
    pub fn op(&self) -> Op {
        self.plan.semantics.op
    }

    /// One line saying what the code computes.
    pub fn docstring(&self) -> String {
        format!(
            "{} on {}: output {}, exactly.",
            describe_layer(self.source),
            dims_text(&self.shape().input),
            dims_text(&self.shape().output)
        )
    }

    /// The weight as the layer takes it, from a torch-layout weight named `w`.
    pub fn weight_expr(&self, w: &str) -> String {
        if self.plan.dilated_kernel() {
            format!("dilate_kernel({w}, {})", tuple(&self.shape().dilation))
        } else {
            w.to_string()
        }
    }

    /// The kernel size of the layer as emitted.
    pub fn weight_kernel(&self) -> Vec<i64> {
        if self.plan.dilated_kernel() {
            self.shape().effective_kernel()
        } else {
            self.shape().kernel.clone()
        }
    }
}
