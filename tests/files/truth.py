"""The truth for every fixture of tests/files/: what the runtimes themselves do (issue 18).

    tests/files/regenerate.sh          # make_fixtures.py, then this

For each onnx/<name>.onnx, truth/<name>.onnx.json holds:
- `inputs`: the input sizes the truth is taken at (the declared sizes, or `padlab.input` from
  the file's metadata_props where a size is symbolic);
- `nodes`: every node in graph order, with ONNX Runtime's shape of each output (every
  intermediate tensor is exposed as a graph output and a random input is run);
- for each Conv / MaxPool / AveragePool, `pads_begin` per spatial axis, and for each
  ConvTranspose, `crop_begin` per spatial axis, measured by ONNX Runtime itself on a probe
  (the same node on one channel, see `probe_*`);
- `error`: ONNX Runtime's own words when it refuses the graph (then no node has a shape).

For each keras/<name>.keras and .h5, truth/<name>.<ext>.json holds every layer's output shape
from Keras (a sub-model per layer run on a random batch), nested models as one layer.

The truth comes from the runtimes, never from padlab.
"""

import json
import os
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
TRUTH = HERE / "truth"
RNG = np.random.default_rng(18)

ORT_TYPES = {
    1: np.float32, 2: np.uint8, 3: np.int8, 5: np.int16, 6: np.int32, 7: np.int64,
    9: np.bool_, 10: np.float16, 11: np.float64,
}


def declared_sizes(model):
    sizes = {}
    for p in model.metadata_props:
        if p.key == "padlab.input":
            for part in p.value.split(";"):
                name, dims = part.split("=")
                sizes[name] = [int(d) for d in dims.split("x")]
    inits = {i.name for i in model.graph.initializer}
    out = {}
    for i in model.graph.input:
        if i.name in inits:
            continue
        if i.name in sizes:
            out[i.name] = sizes[i.name]
        else:
            out[i.name] = [d.dim_value for d in i.type.tensor_type.shape.dim]
    return out


def ort_session(model):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    # No graph optimisation: every node runs as written (ORT fuses a Pad into a pool otherwise).
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def exposed_session(model):
    """ONNX Runtime's session on the model with every node output exposed. Where ONNX's shape
    inference does not type an output (ONNX Runtime's own com.microsoft operators), the type
    ONNX Runtime names when it refuses the guess is taken, one output at a time."""
    import re

    from onnx import helper

    typed = {}
    while True:
        try:
            return ort_session(expose_all(model, typed))
        except Exception as e:  # noqa: BLE001
            wants = re.search(r"output arg \((.+?)\) of node .*expected type \(tensor\((\w+)\)\)", str(e))
            if not wants or wants.group(1) in typed or len(typed) > 1000:
                raise
            typed[wants.group(1)] = helper.np_dtype_to_tensor_dtype(np.dtype(wants.group(2)))


def expose_all(model, typed=None):
    """The model with every node output as a graph output (types from shape inference, or
    `typed`)."""
    import onnx
    from onnx import helper

    m = onnx.ModelProto()
    m.CopyFrom(model)
    try:
        inferred = onnx.shape_inference.infer_shapes(m)
        types = {v.name: v.type.tensor_type.elem_type for v in inferred.graph.value_info}
        types.update({v.name: v.type.tensor_type.elem_type for v in inferred.graph.output})
    except Exception:  # noqa: BLE001 - inference refuses some graphs ORT runs
        types = {}
    have = {o.name for o in m.graph.output}
    for n in m.graph.node:
        for o in n.output:
            if o and o not in have:
                m.graph.output.append(
                    helper.make_tensor_value_info(o, (typed or {}).get(o) or types.get(o) or 1, None)
                )
                have.add(o)
    return m


def onnx_truth(path):
    import onnx

    model = onnx.load(str(path))
    sizes = declared_sizes(model)
    types = {i.name: i.type.tensor_type.elem_type for i in model.graph.input}
    out = {"file": path.name, "inputs": sizes, "error": None, "nodes": []}
    feeds = {
        n: RNG.standard_normal(s).astype(ORT_TYPES.get(types.get(n, 1), np.float32))
        for n, s in sizes.items()
    }
    shapes = {}
    try:
        sess = exposed_session(model)
        names = [o.name for o in sess.get_outputs()]
        for name, value in zip(names, sess.run(names, feeds)):
            shapes[name] = list(np.asarray(value).shape)
    except Exception as e:  # noqa: BLE001 - ORT's refusal is the truth
        out["error"] = str(e).strip()
    for i, n in enumerate(model.graph.node):
        entry = {
            "name": n.name,
            "op_type": n.op_type,
            "outputs": [{"name": o, "shape": shapes.get(o)} for o in n.output if o],
        }
        if out["error"] is None and n.op_type in ("Conv", "MaxPool", "AveragePool", "ConvTranspose"):
            in_shape = shapes.get(n.input[0]) or sizes.get(n.input[0])
            try:
                key = "crop_begin" if n.op_type == "ConvTranspose" else "pads_begin"
                entry[key] = probe(model, n, in_shape)
            except Exception as e:  # noqa: BLE001
                entry["probe_error"] = str(e).strip()
        out["nodes"].append(entry)
    return out


def probe(model, node, in_shape):
    """The padding (or crop) before each spatial axis, as ONNX Runtime applies it.

    The node is rebuilt on one channel (group 1) at its real spatial size, and fed a ramp
    along one axis at a time: 1 + index, constant along the others.
    - Conv: a weight that is 1 at its first tap, 0 elsewhere: output o reads x[o*s - p], so
      the first output that reads the input gives p = o*s + 1 - value.
    - MaxPool and AveragePool (probed as a MaxPool with the same attributes: ONNX Runtime
      sizes both with one pooling rule): output o is the largest index its window reaches,
      o*s + (k-1)*d - p for a window the input's end does not cut, so p is the least of
      o*s + (k-1)*d + 1 - value over the windows.
    - ConvTranspose: the first-tap weight puts x[i] at full position i*s; output o is full
      position o + c, so c = (value - 1)*s - o at the first nonzero output.
    """
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    spatial = in_shape[2:]
    n = len(spatial)
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    inits = {i.name: i for i in model.graph.initializer}
    if "kernel_shape" in attrs:
        kernel = list(attrs["kernel_shape"])
    else:
        kernel = list(inits[node.input[1]].dims[2:])
    strides = list(attrs.get("strides", [1] * n))
    dilations = list(attrs.get("dilations", [1] * n))
    attrs["kernel_shape"] = kernel
    attrs.pop("group", None)
    op = "MaxPool" if node.op_type == "AveragePool" else node.op_type
    if op == "MaxPool":
        attrs.pop("count_include_pad", None)
    for k in list(attrs):
        if isinstance(attrs[k], bytes):
            attrs[k] = attrs[k].decode()
    result = []
    for axis in range(n):
        ramp_shape = [1] * n
        ramp_shape[axis] = spatial[axis]
        x = (1 + np.arange(spatial[axis], dtype=np.float32)).reshape(ramp_shape)
        x = np.broadcast_to(x, spatial).astype(np.float32).reshape([1, 1] + list(spatial))
        inputs = ["x"]
        init = []
        if op in ("Conv", "ConvTranspose"):
            w = np.zeros([1, 1] + kernel, dtype=np.float32)
            w[(0, 0) + (0,) * n] = 1.0
            init.append(numpy_helper.from_array(w, "w"))
            inputs.append("w")
        g = helper.make_graph(
            [helper.make_node(op, inputs, ["y"], **attrs)],
            "probe",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
            initializer=init,
        )
        opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", max(opset, 19))], ir_version=9)
        y = ort_session(m).run(["y"], {"x": x})[0]
        # The largest value across the other axes: a position there whose window reads only
        # padding gives 0 (or the lowest float), one that reads the input gives the ramp.
        z = y[0, 0]
        others = tuple(a for a in range(n) if a != axis)
        line = [float(v) for v in (np.max(z, axis=others) if others else z)]
        s, k, d = strides[axis], kernel[axis], dilations[axis]
        if op == "Conv":
            o, v = next((o, v) for o, v in enumerate(line) if v > 0)
            result.append(int(o * s + 1 - v))
        elif op == "MaxPool":
            result.append(int(min(o * s + (k - 1) * d + 1 - v for o, v in enumerate(line) if v > 0)))
        else:
            o, v = next((o, v) for o, v in enumerate(line) if v > 0)
            result.append(int((v - 1) * s - o))
    return result


def keras_truth(path):
    if path.name.startswith("keras2_"):
        import tf_keras as keras

        model = keras.models.load_model(str(path), compile=False)
    else:
        import keras

        # Our own files: a Lambda's bytecode is loaded (safe_mode off) for its truth.
        model = keras.saving.load_model(str(path), compile=False, safe_mode=False)
    inputs = model.inputs
    layers = [l for l in model.layers if not isinstance(l, keras.layers.InputLayer)]
    # A nested model Keras 2 built on its own input was called first there: its output in
    # this model is its last call's.
    sub = keras.Model(inputs, [l.get_output_at(-1) if hasattr(l, "get_output_at") else l.output for l in layers])
    feeds = [RNG.standard_normal([2] + list(i.shape[1:])).astype(np.float32) for i in inputs]
    outs = sub.predict(feeds if len(feeds) > 1 else feeds[0], verbose=0)
    if not isinstance(outs, (list, tuple)):
        outs = [outs]
    return {
        "file": path.name,
        "model": model.name,
        "class": type(model).__name__,
        "inputs": {i.name: [None] + list(i.shape[1:]) for i in inputs},
        "batch": 2,
        "layers": [
            {
                "name": l.name,
                "class_name": type(l).__name__,
                "output": list(np.asarray(o).shape),
            }
            for l, o in zip(layers, outs)
        ],
    }


def main():
    TRUTH.mkdir(exist_ok=True)
    only = set(sys.argv[1:])
    for path in sorted((HERE / "onnx").glob("*.onnx")):
        if only and path.stem not in only:
            continue
        t = onnx_truth(path)
        (TRUTH / f"{path.name}.json").write_text(json.dumps(t, indent=1) + "\n")
        print(path.name, "error" if t["error"] else "ok")
    for path in sorted((HERE / "keras").glob("*")):
        if path.suffix not in (".keras", ".h5") or (only and path.stem not in only):
            continue
        t = keras_truth(path)
        (TRUTH / f"{path.name}.json").write_text(json.dumps(t, indent=1) + "\n")
        print(path.name, "ok")


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    main()
