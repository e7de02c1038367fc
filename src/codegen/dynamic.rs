//! The run-time form of strided 'same' for torch: a module that computes the TF-style pads
//! for each input size, so one model serves every size (the static pads are exact for one).

use crate::core::Op;

use super::plan::{OddPixel, Plan};
use super::writer::{Py, tuple};

/// A torch module that computes TF-style 'same' pads at run time, for any input size.
pub(super) fn torch_same_module<P>(plan: &Plan<P>, odd: OddPixel) -> Py {
    let mut py = Py::new();
    let shape = &plan.semantics.shape;
    let n = shape.ndim();
    let op = plan.semantics.op;
    py.import("import math");
    py.comment("For any input size: the pads computed at run time, as the source's 'same' does.");
    let attr = if op == Op::Conv { "conv" } else { "pool" };
    let fill = if op == Op::MaxPool {
        ", value=float(\"-inf\")"
    } else {
        ""
    };
    let keff = shape.effective_kernel();
    py.block("def same_pads(size, kernel, stride)", |py| {
        py.line("\"\"\"(before, after) for TF-style 'same': output ceil(size / stride).\"\"\"");
        py.line("total = max((math.ceil(size / stride) - 1) * stride + kernel - size, 0)");
        py.line(if odd == OddPixel::Before {
            "return total - total // 2, total // 2"
        } else {
            "return total // 2, total - total // 2"
        });
    });
    py.blank();
    let class = if op == Op::Conv {
        "DynamicSameConv"
    } else {
        "DynamicSamePool"
    };
    py.block(format!("class {class}(nn.Module)"), |py| {
        py.line(format!("\"\"\"Wraps a padding-free layer (e.g. the `{attr}` above) with run-time 'same' pads.\"\"\""));
        py.blank();
        py.block("def __init__(self, layer)", |py| {
            py.line("super().__init__()");
            py.line(format!("self.{attr} = layer"));
        });
        py.blank();
        py.block("def forward(self, x)", |py| {
            py.line(format!("kernel, stride = {}, {}", tuple(&keff), tuple(&shape.stride)));
            py.line(format!("pads = [same_pads(x.shape[2 + a], kernel[a], stride[a]) for a in range({n})]"));
            py.line("flat = [p for pair in reversed(pads) for p in pair]  # F.pad: last dimension first");
            py.line(format!("return self.{attr}(F.pad(x, flat{fill}))"));
        });
    });
    py
}
