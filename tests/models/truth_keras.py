#!/usr/bin/env python3
"""Referee for the Keras/TensorFlow corpus: what Keras itself runs for a model file.

    truth_keras.py MODEL.py [--input HxWxC] [--build EXPR] [--summary] [--line-length N]

Runs with the frameworks' Python (tests/fixtures/.venv, tensorflow-cpu + keras 3). It executes the
model file with `__name__` set to "padlab_model" (so a guarded `model.fit(...)` tail does not run),
evaluates EXPR (default: the file's `# padlab-model:` line; without one, the variable `model`, else
the last Keras model bound at top level) and runs one batch of 2 random samples eagerly through it
(`model(x, training=False)`), recording every `keras.Operation.__call__` (layers, and the ops that
`x + y` or `keras.ops.*` on symbolic tensors put into a functional graph) with its nesting. Only
the leaves are kept: an operation inside which no other recorded operation ran. A nested
Sequential, a functional sub-model or a custom layer that calls layers is a container and its
inner calls are recorded instead; a custom layer that only does tensor math is a leaf. Keras's
recurrent layers (`LSTM`, `GRU`, `SimpleRNN`, any `RNN`, a `Bidirectional`) and
`MultiHeadAttention` are leaves too: their cells and projections are their implementation. Tensor math
done eagerly inside a custom layer's or a subclassed model's `call` (tf.* or keras.ops on eager
tensors) is not an operation call and is part of that layer.

Input: a model whose input has `None` sizes, or that has no input (a Sequential given none, a
subclassed model), is built at `--input` (default: the file's `# padlab-input:` line), written
HxWxC, without the batch axis; several inputs are separated by commas (`32x32x3,10`). Random
samples are standard normal floats, or integers in [0, vocabulary) when the input is an integer
tensor or the model has an Embedding.

Output, one JSON object on stdout:
    {"model": EXPR, "input": [H, W, C] (a list of them for several inputs),
     "params": model.count_params(),
     "ops": [{"name": "conv2d", "class_name": "Conv2D", "container": "", "shapes": [[30, 30, 64]]},
             ...]}
`name` is Keras's own name of the operation, `container` the names of the containers it ran in,
outermost first, joined by "/" ("" at the top level: the model itself is not a container here),
`shapes` each output's shape without the batch axis. InputLayer is skipped. `containers` lists
every container's output the same way ({"path": "block", "shapes": [...]}, path with its own
name): the tensor math a custom layer does after its last inner layer (`x + self.conv(x)`) is
no operation call, and its container's output is what it made.

Keras Applications never download weights here: `weights="imagenet"` builds the model those
weights build (EfficientNet's extra input scaling included) and keeps random weights.

On stderr: what the file printed, any assumption made (an undefined name taken as the input
shape), and a check of the recording against the model's own structure (the graph's operation
names and `layer.output.shape` where it is known); the exit status is 2 when that check fails.

--summary prints `model.summary(line_length=N)` instead (without N, Keras's own default width,
the same on any terminal). With
TF_USE_LEGACY_KERAS=1 and tf-keras importable (Keras 2), --summary prints Keras 2's table; the file
must then reach Keras through `tensorflow.keras` / `tf.keras`.

A file without imports gets the usual names: keras, layers, models, ops, tf, np, and every
public name of keras.layers (Conv2D, add, ...), plus Sequential, Model, Input. A paste indented as
a whole (copied from a post) is dedented. A name the file uses but never defines is, when an input
is given, taken as that input's shape tuple (`input_shape=img_size`), and said on stderr.
"""

import argparse
import contextlib
import io
import json
import os
import re
import sys
import tempfile


def header(text, key):
    m = re.search(r"^#\s*padlab-%s:\s*(.+?)\s*$" % key, text, re.M)
    return m.group(1) if m else None


def parse_inputs(spec):
    if not spec:
        return None
    return [tuple(int(d) for d in part.split("x")) for part in spec.split(",")]


def dedent_paste(text):
    """Removes the common indentation of the code lines (comment lines may be less indented)."""
    lines = text.splitlines()
    code = [l for l in lines if l.strip() and not l.lstrip().startswith("#")]
    if not code:
        return text
    indent = min(len(l) - len(l.lstrip()) for l in code)
    if indent == 0:
        return text
    out = []
    for l in lines:
        if l[:indent].strip() == "":
            out.append(l[indent:])
        else:
            out.append(l.lstrip())
    return "\n".join(out) + "\n"


def prelude(keras, legacy):
    import numpy as np
    import tensorflow as tf
    ns = {"np": np, "tf": tf, "keras": keras, "layers": keras.layers, "models": keras.models}
    if not legacy:
        ns["ops"] = keras.ops
    for n in dir(keras.layers):
        if not n.startswith("_"):
            ns[n] = getattr(keras.layers, n)
    ns.update(Sequential=keras.Sequential, Model=keras.Model, Input=keras.Input)
    return ns


FRAMEWORKS = {"keras", "tensorflow", "tf_keras", "numpy"}


def stub_module(top):
    """Makes `import top` and `import top.anything` give mocks (plotting and data helpers)."""
    import importlib.abc
    import importlib.machinery
    import types
    from unittest import mock

    class StubLoader(importlib.abc.Loader):
        def create_module(self, spec):
            m = types.ModuleType(spec.name)
            m.__path__ = []
            m.__getattr__ = lambda name: mock.MagicMock(name=f"{spec.name}.{name}")
            return m

        def exec_module(self, module):
            pass

    class StubFinder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == top or name.startswith(top + "."):
                return importlib.machinery.ModuleSpec(name, StubLoader(), is_package=True)
            return None

    sys.meta_path.append(StubFinder())


def run_file(path, text, inputs, keras, legacy, notes):
    """Executes the file; a NameError on a name it never defines takes that name as the input
    shape (when an input is given) and runs the file again from a fresh session."""
    assumed, stubbed = {}, set()
    for _ in range(8):
        keras.backend.clear_session()
        ns = prelude(keras, legacy)
        ns.update(assumed)
        ns.update(__name__="padlab_model", __file__=path, __builtins__=__builtins__)
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(text, path, "exec"), ns)
        except ModuleNotFoundError as e:
            top = (e.name or "").split(".")[0]
            if not top or top in FRAMEWORKS or top in stubbed:
                raise
            stub_module(top)
            stubbed.add(top)
            notes.append(f"stubbed: import {top} (not a framework; the model does not need it)")
            continue
        except NameError as e:
            name = getattr(e, "name", None)
            if inputs is None or not name or name in assumed:
                raise
            assumed[name] = inputs[0] if len(inputs) == 1 else tuple(inputs)
            notes.append(f"assumed: {name} = {assumed[name]!r} (the input shape; the file uses it "
                         "but does not define it)")
            continue
        finally:
            sys.stderr.write(printed.getvalue())
        return ns
    raise RuntimeError("too many undefined names")


def pick_model(ns, expr, keras):
    if expr:
        return eval(expr, ns), expr
    if isinstance(ns.get("model"), keras.Model):
        return ns["model"], "model"
    last = None
    for k, v in ns.items():
        if isinstance(v, keras.Model) and not k.startswith("_"):
            last = k
    if last is None:
        raise SystemExit("no Keras model found at top level; give --build EXPR")
    return ns[last], last


def model_inputs(model):
    """The symbolic inputs of a built functional/Sequential model, else None."""
    try:
        ins = model.inputs
    except (AttributeError, ValueError):
        return None
    if not ins:
        return None
    return list(ins) if isinstance(ins, (list, tuple)) else [ins]


def has_embedding(model, keras):
    return [l.input_dim for l in model._flatten_layers(include_self=True, recursive=True)
            if isinstance(l, keras.layers.Embedding)]


def resolve_shapes(model, given, notes):
    ins = model_inputs(model)
    if ins is None:
        if given is None:
            raise SystemExit("the model has no input shape: give --input HxWxC")
        return given, [None] * len(given)
    shapes = []
    for i, t in enumerate(ins):
        stated = tuple(t.shape[1:])
        if all(d is not None for d in stated):
            if given is not None and i < len(given) and tuple(given[i]) != stated:
                notes.append(f"input {i}: the model states {stated}, --input {given[i]} is ignored")
            shapes.append(stated)
            continue
        if given is None or i >= len(given) or len(given[i]) != len(stated):
            raise SystemExit(f"input {i} has the shape {stated}: give --input with its sizes")
        for a, b in zip(stated, given[i]):
            if a is not None and a != b:
                raise SystemExit(f"input {i}: --input {given[i]} contradicts the stated {stated}")
        shapes.append(tuple(given[i]))
    return shapes, [t.dtype for t in ins]


def make_batch(shapes, dtypes, vocab, seed):
    import numpy as np
    rng = np.random.default_rng(seed)
    xs = []
    for shape, dtype in zip(shapes, dtypes):
        dt = str(dtype) if dtype is not None else "float32"
        if "int" in dt or vocab:
            high = min(vocab) if vocab else 2
            xs.append(rng.integers(0, high, size=(2,) + tuple(shape)).astype(dt))
        else:
            xs.append(rng.standard_normal((2,) + tuple(shape)).astype(dt))
    return xs[0] if len(xs) == 1 else xs


def flat_shapes(out, keras):
    return [[int(d) for d in t.shape[1:]] for t in keras.tree.flatten(out) if hasattr(t, "shape")]


def graph_of(m):
    """The functional graph a model runs (a Sequential's inner one), or None."""
    from keras.src.models.functional import Functional
    from keras.src.models.sequential import Sequential
    if isinstance(m, Sequential):
        return m._functional
    if isinstance(m, Functional):
        return m
    return None


def record(model, x, keras):
    """Runs the model once, recording every operation call with the calls it made inside.

    An operation that is not a layer (keras.ops: `pad`, `add`, ...) is recorded only where a
    functional graph calls it: inside a layer's own call it is that layer's implementation
    (ZeroPadding2D and a causal Conv1D call `ops.pad`), not an operation of the model."""
    from keras.src.ops.operation import Operation
    records, stack = [], []
    original = Operation.__call__

    def recording_call(self, *args, **kwargs):
        if stack and not isinstance(self, keras.layers.Layer) and graph_of(stack[-1]["op"]) is None:
            return original(self, *args, **kwargs)
        if any(is_stock_leaf(e["op"]) for e in stack):
            # Inside a recurrent or attention layer: its cells and projections are its own.
            return original(self, *args, **kwargs)
        entry = {"op": self, "parents": [e["op"] for e in stack], "children": 0}
        if stack:
            stack[-1]["children"] += 1
        records.append(entry)
        stack.append(entry)
        try:
            out = original(self, *args, **kwargs)
        finally:
            stack.pop()
        entry["out"] = out
        return out

    Operation.__call__ = recording_call
    try:
        model(x, training=False)
    finally:
        Operation.__call__ = original
    ops, containers = [], []
    for e in records:
        if e["children"] and e["op"] is not model:
            # A container's own output: where a custom layer's last tensor math ends.
            path = "/".join(p.name for p in e["parents"] if p is not model)
            containers.append({"path": (path + "/" if path else "") + e["op"].name,
                               "shapes": flat_shapes(e["out"], keras)})
        if e["children"] or e["op"] is model or isinstance(e["op"], keras.layers.InputLayer):
            continue
        parents = [p for p in e["parents"] if p is not model]
        ops.append({"name": e["op"].name, "class_name": type(e["op"]).__name__,
                    "container": "/".join(p.name for p in parents),
                    "shapes": flat_shapes(e["out"], keras), "_op": e["op"]})
    return ops, containers


def is_stock_leaf(layer):
    """Keras's recurrent layers (a cell inside; `Bidirectional` two of them) and
    `MultiHeadAttention` (its projections inside) are one operation each, as padlab reads them."""
    import keras
    return isinstance(layer, (keras.layers.RNN, keras.layers.Bidirectional, keras.layers.MultiHeadAttention))


def has_sublayers(layer):
    if is_stock_leaf(layer):
        return False
    return any(True for _ in layer._flatten_layers(include_self=False, recursive=False))


def graph_calls(model, keras):
    """What the model's own graph says will run: (container, name, shapes) for every node of every
    leaf operation, nested functional models opened (once per call of theirs), and the names of
    custom layers whose inside is not a graph; None when the model itself is not a graph."""
    def walk(m, path, out, customs):
        g = graph_of(m)
        if g is None:
            return False
        for nodes in g._nodes_by_depth.values():
            for node in nodes:
                op = node.operation
                if isinstance(op, keras.layers.InputLayer):
                    continue
                if graph_of(op) is not None:
                    walk(op, path + [op.name], out, customs)
                elif isinstance(op, keras.layers.Layer) and has_sublayers(op):
                    customs.add("/".join(path + [op.name]))
                else:
                    shapes = [list(t.shape[1:]) for t in keras.tree.flatten(node.outputs)]
                    out.append(("/".join(path), op.name, shapes))
        return True

    out, customs = [], set()
    if not walk(model, [], out, customs):
        return None, None
    return out, customs


def same_shape(sym, ran):
    return len(sym) == len(ran) and all(
        len(a) == len(b) and all(x is None or x == y for x, y in zip(a, b)) for a, b in zip(sym, ran))


def check(model, ops, keras, notes):
    """Compares the recording with the model's own graph: every node of every leaf operation ran
    once, with the shapes its symbolic outputs have (a None size matches any)."""
    want, customs = graph_calls(model, keras)
    if want is None:
        leaves = {l.name for l in model._flatten_layers(include_self=False, recursive=True)
                  if not has_sublayers(l)}
        extra = sorted({o["name"] for o in ops} - leaves)
        ok = not extra
        notes.append(f"check ({'ok' if ok else 'FAILED'}): {len(ops)} operations recorded in a "
                     f"subclassed model (not a graph); names not among its leaf layers: {extra}")
        return ok

    def inside_custom(container):
        parts = container.split("/") if container else []
        return any("/".join(parts[:i + 1]) in customs for i in range(len(parts)))

    got = [o for o in ops if not inside_custom(o["container"])]
    pending = {}
    for c, n, shapes in want:
        pending.setdefault((c, n), []).append(shapes)
    extra, bad, exact = [], [], 0
    for o in got:
        cands = pending.get((o["container"], o["name"]))
        if not cands:
            extra.append(f"{o['container']}/{o['name']}".lstrip("/"))
            continue
        match = next((i for i, s in enumerate(cands) if same_shape(s, o["shapes"])), None)
        if match is None:
            bad.append(f"{o['name']}: ran {o['shapes']}, graph {cands[0]}")
            cands.pop(0)
            continue
        if all(d is not None for s in cands[match] for d in s):
            exact += 1
        cands.pop(match)
    missing = [f"{c}/{n}".lstrip("/") for (c, n), left in pending.items() for _ in left]
    ok = not missing and not extra and not bad
    notes.append(f"check ({'ok' if ok else 'FAILED'}): {len(ops)} operations recorded, "
                 f"{len(want)} calls in the model's graph"
                 + (f" and {len(ops) - len(got)} inside {len(customs)} custom layers" if customs else "")
                 + f"; shapes equal to the graph's: {len(got) - len(bad) - len(extra)} "
                 f"({exact} fully known there)"
                 + (f"; missing {missing}" if missing else "") + (f"; extra {extra}" if extra else "")
                 + (f"; different {bad}" if bad else ""))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--input", help="HxWxC without the batch axis; several inputs: 32x32x3,10")
    ap.add_argument("--build", help="the expression that gives the model (default: # padlab-model:)")
    ap.add_argument("--summary", action="store_true", help="print model.summary() instead")
    ap.add_argument("--line-length", type=int, default=None,
                    help="the summary's width (default: Keras's own, as on a wide terminal)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    scratch = tempfile.mkdtemp(prefix="truth-keras-")
    os.environ.setdefault("KERAS_HOME", os.path.join(scratch, "keras"))
    os.environ.setdefault("XDG_CACHE_HOME", os.path.join(scratch, "cache"))
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
    # Keras 3 narrows its summary to the terminal; a fixed wide one gives its own default width
    os.environ["COLUMNS"] = "250"
    legacy = os.environ.get("TF_USE_LEGACY_KERAS") == "1"
    import warnings
    warnings.filterwarnings("ignore")
    if legacy:
        if not args.summary:
            raise SystemExit("Keras 2 (TF_USE_LEGACY_KERAS=1) is for --summary only")
        import tensorflow as tf
        keras = tf.keras
    else:
        import keras
        keras.utils.set_random_seed(args.seed)

    if not legacy:
        # Keras Applications without the download (shapes do not depend on the weights).
        from keras.src.utils import file_utils
        file_utils.get_file = lambda *a, **k: "padlab-no-download"
        keras.Model.load_weights = lambda self, *a, **k: None
    text = open(args.file).read()
    expr = args.build or header(text, "model")
    given = parse_inputs(args.input or header(text, "input"))
    notes = []
    ns = run_file(args.file, dedent_paste(text), given, keras, legacy, notes)
    with contextlib.redirect_stdout(sys.stderr):
        model, expr = pick_model(ns, expr, keras)
        if not (args.summary and model.built):
            shapes, dtypes = resolve_shapes(model, given, notes)
            if not model.built and isinstance(model, keras.Sequential) and len(shapes) == 1:
                model.build((None,) + tuple(shapes[0]))  # as `model.build(input_shape)`: batch None
            x = make_batch(shapes, dtypes, has_embedding(model, keras), args.seed)
            if not args.summary or not model.built:
                model(x, training=False)  # builds whatever is not built yet, outside the recording
    if args.summary:
        for n in notes:
            print(n, file=sys.stderr)
        model.summary(line_length=args.line_length)
        return
    ops, containers = record(model, x, keras)
    ok = check(model, ops, keras, notes)
    for n in notes:
        print(n, file=sys.stderr)
    result = {"model": expr, "input": [list(s) for s in shapes] if len(shapes) > 1 else list(shapes[0]),
              "params": int(model.count_params()),
              "ops": [{k: v for k, v in o.items() if k != "_op"} for o in ops],
              "containers": containers}
    print(json.dumps(result))
    sys.exit(0 if ok else 2)


if __name__ == "__main__":
    main()
