#!/usr/bin/env python3
"""Referee for the PyTorch corpus: what real torch computes for one model file.

Runs a corpus model (tests/models/*.py) in real torch and records every top-level torch
operation of one forward pass, in execution order, with the innermost module it ran in and its
output shapes. padlab's reader must report the same operations with the same shapes.

    python tests/models/truth_torch.py tests/models/torch_resnet18.py
    python tests/models/truth_torch.py FILE --input 3x224x224 --build "resnet18()"
    python tests/models/truth_torch.py FILE --print        # print(model) instead

Run it with the frameworks' Python (the fixtures venv). How it works:

- The file is executed as module code whose `__name__` is not "__main__" (a paste's training
  tail under `if __name__ == "__main__":` does not run), one top-level statement at a time: a
  statement that reaches for data this machine does not have (an OSError) is skipped, said on
  stderr, and so is one that then fails on a name only skipped statements bind (`run_statements`). Its globals start with `torch`, `nn`
  and `F` defined, as a paste that forgot its imports expects; its own imports win. What the
  file prints (its own `print(net)`, a constructor's or a forward's prints) goes to stderr.
- The model: `--build EXPR`, else the file's `# padlab-model: EXPR` line; without either, the
  last top-level name assigned an `nn.Module` instance that is not a loss, else the last `nn.Module` subclass the
  file defines, called with no arguments. The expression is evaluated in the file's globals.
- A forward of several tensors: the file's `# padlab-more-inputs: (), 10` gives the shapes of
  those after the first, comma separated (`()` a per-sample scalar: a class index below the
  smallest `num_embeddings`; others standard normal floats).
- The input: `--input`, else the file's `# padlab-input:` line; one sample's shape without the
  batch axis ("3x32x32", "1x8000", "50"). The batch holds 2 samples drawn with seed 0: standard
  normal floats, or, when the model contains an `nn.Embedding`, integer indices below the
  smallest `num_embeddings`.
- Pretrained weights are never downloaded: a torchvision builder asked for them
  (`weights="IMAGENET1K_V1"`, `pretrained=True`, `torch.hub.load("pytorch/vision", ...)`)
  builds the model those weights build and keeps its random weights (`no_downloads`): shapes
  do not depend on the values.
- The model is put in eval mode and run under `torch.no_grad()` and a
  `torch.overrides.TorchFunctionMode`. The mode sees only the top-level call of each torch
  function (what a function calls inside is not seen), so `nn.Conv2d` is one `conv2d`,
  `nn.BatchNorm2d` one `batch_norm`, `x + y` one `add`, `x.view(...)` one `view`. Kept:
  calls that return a tensor, or a tuple/list of tensors (its None entries, an output not
  computed, left out). Dropped: calls returning anything
  else (`x.size()`, `x.shape`, `x.dim()`) and the no-ops in NO_OPS (`contiguous`, `clone`,
  `detach`, `to`, `float`, `type_as`, `x.data`, ...). A property that computes a tensor is kept
  under its own name (`x.T` is `T`).
- Each record carries the innermost module whose forward was running (forward pre-hooks and
  hooks keep a stack; the path as `named_modules()` names it, "" for the model itself). What
  the model's own hooks compute (weight_norm's pre-hook making `weight` from `weight_g` and
  `weight_v`), what parametrizations compute and what is computed from parameters alone
  (`self.gamma[:, None, None]`) is weight bookkeeping, not the forward: not recorded.

Output: one JSON object on stdout,
    {"model": EXPR, "input": [C, H, W], "params": N,
     "ops": [{"op": "conv2d", "module": "layer1.0.conv1", "module_type": "Conv2d", "stock": true, "call": 7,
              "shapes": [[64, 32, 32]]}, ...]}
where `params` is the sum of `p.numel()` over `model.parameters()`, `op` is the function's
name as torch reports it (`conv2d`, `batch_norm`, `cat`, `view`, `flatten`; operators arrive as
their methods: `x + y` is `add`, `x += y` is `add_`, `x * w` is `mul`, `x[:, :c]` is
`__getitem__`), `module_type` the class name of that module, `stock` whether that class is torch.nn's own (a
paste's `class LayerNorm(nn.Module)` is not), `call` which call of a module it ran in (they
are numbered in order; a module called twice runs in two calls), and `shapes` has one entry per
output tensor (a function returning a tuple, like `x.max(dim=2)`, has several), each without
the batch axis. A module with padding_mode other than 'zeros' shows its own `pad` before its
`conv2d`, as torch runs it.
"""

import argparse
import ast
import contextlib
import json
import os
import re
import sys
import tempfile
import types

NO_OPS = {
    "contiguous", "clone", "detach", "detach_", "to", "cpu", "cuda", "float", "double", "half",
    "type_as", "type", "requires_grad_", "__set__", "__format__", "__repr__",
    # property getters that return the tensor itself or its bookkeeping
    "data", "grad", "shape", "device", "dtype", "is_cuda", "requires_grad",
}


def op_name(func):
    """The name torch reports: `conv2d`, `cat`, `view`; `x + y` arrives as `add`, `x += y` as
    `add_`. A property getter is named by its property (`x.T` is `T`)."""
    name = getattr(func, "__name__", None) or str(func)
    if name == "__get__":
        name = getattr(getattr(func, "__self__", None), "__name__", name)
    return name


def header(text, key):
    m = re.search(r"^#\s*padlab-" + key + r":\s*(.+?)\s*$", text, re.M)
    return m.group(1) if m else None


def load(path):
    """Executes the file as module code (not __main__); returns its globals and its text."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    text = open(path).read()
    name = "padlab_corpus_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    module = types.ModuleType(name)
    module.__file__ = path
    module.__dict__.update(torch=torch, nn=nn, F=F)
    sys.modules[name] = module  # dataclasses and pickling look classes up here
    run_statements(text, path, module.__dict__)
    return module.__dict__, text


def run_statements(text, path, g):
    """Executes the file one top-level statement at a time. A statement that reaches for data
    this machine does not have (an OSError: a dataset folder, a download) is skipped and said
    on stderr, and so is a later one that fails on a name only skipped statements bind (the
    data loaders, a training loop over them): the model is what the rest of the file builds.
    Any other failure is the file's error."""
    import ast
    tree = ast.parse(text, path)
    skipped = set()
    for stmt in tree.body:
        code = compile(ast.Module(body=[stmt], type_ignores=[]), path, "exec")
        try:
            exec(code, g)
        except (OSError, NameError) as e:
            if isinstance(e, NameError) and getattr(e, "name", None) not in skipped:
                raise
            bound = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            bound |= {t.id for t in getattr(stmt, "targets", []) if isinstance(t, ast.Name)}
            skipped |= bound
            print(f"skipped line {stmt.lineno} ({type(e).__name__}: {e}): data this run does not have",
                  file=sys.stderr)


def no_downloads():
    """torchvision's builders without the download: the state dict a set of weights would
    fetch is an empty marker that `load_state_dict` skips; `torch.hub.load` of
    "pytorch/vision" is the installed torchvision's builder."""
    try:
        import torchvision
        from torchvision.models._api import WeightsEnum
    except ImportError:
        return
    import torch

    class NoDownload(dict):
        pass

    WeightsEnum.get_state_dict = lambda self, *args, **kwargs: NoDownload()
    load = torch.nn.Module.load_state_dict
    torch.nn.Module.load_state_dict = (
        lambda self, state, *args, **kwargs: None if isinstance(state, NoDownload) else load(self, state, *args, **kwargs))
    hub_load = torch.hub.load

    def from_hub(repo, model, *args, **kwargs):
        if str(repo).split(":")[0] == "pytorch/vision":
            for k in ("source", "trust_repo", "force_reload", "verbose", "skip_validation"):
                kwargs.pop(k, None)
            return getattr(torchvision.models, model)(*args, **kwargs)
        return hub_load(repo, model, *args, **kwargs)

    torch.hub.load = from_hub


def default_model(g, text):
    """The last top-level name bound to a module instance, else the last module class."""
    import torch.nn as nn
    tree = ast.parse(text)
    names = []
    for stmt in tree.body:
        targets = []
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
            targets = [stmt.target]
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    names.append(n.id)
    # A loss (`criterion = nn.CrossEntropyLoss()`) is a module, but not the model.
    for n in reversed(names):
        if isinstance(g.get(n), nn.Module) and not isinstance(g.get(n), nn.modules.loss._Loss):
            return n
    classes = [s.name for s in tree.body if isinstance(s, ast.ClassDef)
               and isinstance(g.get(s.name), type) and issubclass(g[s.name], nn.Module)]
    if classes:
        return classes[-1] + "()"
    raise SystemExit(f"no model: give --build (the file has no `# padlab-model:` line, "
                     f"no top-level module instance and no module class)")


def is_tensors(value):
    import torch
    if isinstance(value, torch.Tensor):
        return True
    # None entries are outputs not computed (nn.MultiheadAttention's weights when
    # need_weights=False): left out.
    return isinstance(value, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in value) and all(
        v is None or isinstance(v, torch.Tensor) for v in value)


def shapes_of(value):
    import torch
    values = [value] if isinstance(value, torch.Tensor) else [v for v in value if v is not None]
    return [list(v.shape[1:]) for v in values]


def trace(model, *xs):
    import torch
    from torch.overrides import TorchFunctionMode

    ops = []
    stack = [("", type(model).__name__, 0, False)]
    calls = [0]
    # Other hooks (weight_norm's pre-hook recomputing a weight) are not the forward: our first
    # pre-hook and first forward hook open a "hooks running" window, our last ones close it.
    in_hooks = [False]
    handles = []
    for path, m in model.named_modules():
        if m is model:
            continue
        def hooks_start(mod, *args):
            in_hooks[0] = True
        def pre(mod, args, path=path):
            calls[0] += 1
            stack.append((path, type(mod).__name__, calls[0], type(mod).__module__.startswith("torch.nn")))
            in_hooks[0] = False
        def post(mod, args, out):
            stack.pop()
            in_hooks[0] = True
        def hooks_end(mod, args, out):
            in_hooks[0] = False
        handles.append(m.register_forward_pre_hook(hooks_start, prepend=True))
        handles.append(m.register_forward_pre_hook(pre))
        handles.append(m.register_forward_hook(post, prepend=True))
        handles.append(m.register_forward_hook(hooks_end))

    # Tensors computed from parameters alone (`self.gamma[:, None, None]`) are the weight seen
    # another way, not the forward: an op whose tensor inputs are all such is not recorded.
    weights = {id(p): p for p in model.parameters()}

    def tensors_in(value):
        if isinstance(value, torch.Tensor):
            yield value
        elif isinstance(value, (list, tuple)):
            for v in value:
                yield from tensors_in(v)
        elif isinstance(value, dict):
            for v in value.values():
                yield from tensors_in(v)

    class Recorder(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            name = op_name(func)
            path, kind, call, stock = stack[-1]
            ins = list(tensors_in((args, kwargs or {})))
            if ins and all(id(t) in weights for t in ins):
                for t in tensors_in(out):
                    weights[id(t)] = t
                return out
            # a parametrization (torch.nn.utils.parametrizations.weight_norm) computes a weight
            weight = path.startswith("parametrizations.") or ".parametrizations." in path
            if name not in NO_OPS and is_tensors(out) and not in_hooks[0] and not weight:
                ops.append({"op": name, "module": path, "module_type": kind, "stock": stock, "call": call,
                            "shapes": shapes_of(out)})
            return out

    try:
        with torch.no_grad(), Recorder():
            model(*xs)
    finally:
        for h in handles:
            h.remove()
    return ops


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="a model file (tests/models/*.py)")
    parser.add_argument("--input", help="one sample's shape, e.g. 3x32x32 (default: the file's # padlab-input:)")
    parser.add_argument("--build", help="an expression giving the model (default: the file's # padlab-model:)")
    parser.add_argument("--print", action="store_true", help="print(model) instead of the trace")
    args = parser.parse_args()

    os.environ.setdefault("TORCH_HOME", os.path.join(tempfile.gettempdir(), "padlab-torch-home"))
    import torch
    import torch.nn as nn
    # What the paste prints (its own print(net), a constructor's or a forward's prints) is not
    # our output: stdout goes to stderr until the answer is written.
    no_downloads()
    with contextlib.redirect_stdout(sys.stderr):
        torch.manual_seed(0)
        g, text = load(args.file)
        expr = args.build or header(text, "model") or default_model(g, text)
        model = eval(expr, g)
    if not isinstance(model, nn.Module):
        raise SystemExit(f"{expr!r} gives a {type(model).__name__}, not an nn.Module")
    if args.print:
        print(model)
        return
    shape_text = args.input or header(text, "input")
    if not shape_text:
        raise SystemExit("no input shape: give --input or a `# padlab-input:` line")
    shape = [int(s) for s in shape_text.lower().split("x")]
    more_text = header(text, "more-inputs")
    more = [[int(d) for d in m.strip().strip("()").lower().split("x") if d]
            for m in more_text.split(",")] if more_text else []
    with contextlib.redirect_stdout(sys.stderr):
        model.eval()
        torch.manual_seed(0)
        embeddings = [m for m in model.modules() if isinstance(m, (nn.Embedding, nn.EmbeddingBag))]
        vocab = min((m.num_embeddings for m in embeddings), default=None)
        if embeddings and not more:
            x = torch.randint(0, vocab, [2, *shape])
        else:
            x = torch.randn(2, *shape)
        # The forward's further inputs: a per-sample scalar is a class index, else floats.
        extra = [torch.randint(0, vocab or 10, [2]) if not s else torch.randn(2, *s) for s in more]
        ops = trace(model, x, *extra)
        params = sum(p.numel() for p in model.parameters())
    json.dump({"model": expr, "input": shape, "params": params, "ops": ops}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
