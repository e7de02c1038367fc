"""Writes the model-file fixtures of tests/files/ with the real tools (issue 18).

    tests/files/regenerate.sh          # this script, then truth.py

- onnx/*.onnx: graphs built with onnx.helper, one per padding form (Conv, ConvTranspose,
  MaxPool, AveragePool in 1-D, 2-D and 3-D; auto_pad SAME_UPPER / SAME_LOWER / VALID / NOTSET,
  asymmetric pads, ceil_mode, count_include_pad, dilations, group, output_padding,
  output_shape, a Pad before a conv, a dim_param input), a few graphs of the other operators,
  files exported by torch.onnx.export from small models (both exporters: the TorchScript
  one, dynamo=False, and the default dynamo one, which needs onnxscript), and TensorFlow
  functions converted by tf2onnx (NHWC between Transposes).
- keras/*.keras and keras/*.h5: Keras models saved by Keras itself (Keras 3; normalization_*
  with Keras's Normalization layer, `keras-normalization`; convnext_blocks with
  keras.applications.ConvNeXt's own blocks, `keras-convnext`), and keras/keras2_*.h5 saved by
  Keras 2 (tf_keras, beside the environment like onnxscript).
- h5/*.h5: sequential_cnn.h5's model_config stored the other ways h5py can (no truth file:
  the Rust test compares them with sequential_cnn.h5).

A graph whose input has symbolic sizes carries the size the truth is taken at in its
metadata_props (key `padlab.input`, value `name=1x3x17x22;other=...`), so the truth and the
Rust test read the same size from the file.

Weights are small random numbers (seeded): the fixtures are about shapes and padding.
"""

import os
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ONNX_DIR = HERE / "onnx"
KERAS_DIR = HERE / "keras"
H5_DIR = HERE / "h5"

RNG = np.random.default_rng(18)


# ---------------------------------------------------------------------------------------------
# ONNX graphs built with onnx.helper
# ---------------------------------------------------------------------------------------------

def helper_graphs():
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    def weight(name, shape):
        return numpy_helper.from_array(RNG.standard_normal(shape).astype(np.float32), name)

    def ints(name, values):
        return numpy_helper.from_array(np.array(values, dtype=np.int64), name)

    def floats(name, values):
        return numpy_helper.from_array(np.array(values, dtype=np.float32), name)

    def model(name, nodes, inputs, outputs, inits=(), opset=21, sizes=None):
        """inputs: [(name, dims)] with str dims for dim_param; outputs: names."""
        graph = helper.make_graph(
            nodes,
            name,
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, d) for n, d in inputs],
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in outputs],
            initializer=list(inits),
        )
        m = helper.make_model(
            graph,
            opset_imports=[helper.make_opsetid("", opset)],
            ir_version=9 if opset < 21 else 10,
            producer_name="padlab tests/files/make_fixtures.py",
        )
        if sizes:
            helper.set_model_props(
                m, {"padlab.input": ";".join(f"{k}={'x'.join(map(str, v))}" for k, v in sizes.items())}
            )
        try:
            onnx.checker.check_model(m)
        except onnx.checker.ValidationError as e:
            # Outputs are declared without a shape (the truth comes from ONNX Runtime, not
            # from a declared shape); everything else must pass.
            if "Field 'shape' of 'type' is required" not in str(e):
                raise
        onnx.save(m, ONNX_DIR / f"{name}.onnx")

    def single(name, op, x_shape, attrs, w_shape=None, bias=False, extra_inputs=(), inits=()):
        inputs = ["x"]
        init = list(inits)
        if w_shape is not None:
            init.append(weight("w", w_shape))
            inputs.append("w")
            if bias:
                out_ch = w_shape[1] * attrs.get("group", 1) if op == "ConvTranspose" else w_shape[0]
                init.append(weight("b", [out_ch]))
                inputs.append("b")
        inputs += list(extra_inputs)
        node = helper.make_node(op, inputs, ["y"], name=f"{op.lower()}_0", **attrs)
        model(name, [node], [("x", x_shape)], ["y"], init)

    # --- Conv ------------------------------------------------------------------------------
    single("conv1d_same_upper", "Conv", [1, 2, 11], dict(kernel_shape=[4], strides=[2], auto_pad="SAME_UPPER"), [3, 2, 4], bias=True)
    single("conv1d_pads_dilated", "Conv", [1, 2, 13], dict(kernel_shape=[3], strides=[1], dilations=[3], pads=[2, 0]), [2, 2, 3])
    single("conv2d_same_lower", "Conv", [1, 2, 10, 9], dict(kernel_shape=[3, 4], strides=[2, 3], auto_pad="SAME_LOWER"), [3, 2, 3, 4])
    single("conv2d_same_upper_even", "Conv", [1, 2, 8, 8], dict(kernel_shape=[4, 4], strides=[2, 2], auto_pad="SAME_UPPER"), [2, 2, 4, 4])
    single("conv2d_valid", "Conv", [1, 2, 10, 9], dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="VALID"), [4, 2, 3, 3], bias=True)
    single("conv2d_notset_asym", "Conv", [1, 2, 10, 9], dict(kernel_shape=[3, 3], strides=[2, 2], pads=[0, 1, 2, 1], dilations=[2, 1]), [4, 2, 3, 3])
    # No kernel_shape: the kernel comes from the weight; group 2.
    single("conv2d_group_no_kernel_shape", "Conv", [1, 4, 9, 9], dict(group=2, pads=[1, 1, 1, 1]), [6, 2, 3, 3], bias=True)
    single("conv2d_depthwise", "Conv", [1, 4, 9, 9], dict(group=4, strides=[2, 2], auto_pad="SAME_UPPER"), [4, 1, 3, 3])
    single("conv3d_same_upper_dilated", "Conv", [1, 2, 7, 8, 9], dict(kernel_shape=[3, 3, 3], strides=[2, 2, 1], dilations=[1, 2, 1], auto_pad="SAME_UPPER"), [2, 2, 3, 3, 3])
    single("conv3d_pads", "Conv", [1, 2, 6, 7, 5], dict(kernel_shape=[2, 3, 3], strides=[1, 2, 2], pads=[1, 0, 2, 0, 1, 1]), [3, 2, 2, 3, 3])

    # --- ConvTranspose ---------------------------------------------------------------------
    single("convtranspose1d_pads", "ConvTranspose", [1, 2, 7], dict(kernel_shape=[3], strides=[2], pads=[1, 0]), [2, 3, 3], bias=True)
    single("convtranspose2d_output_padding", "ConvTranspose", [1, 2, 5, 6], dict(kernel_shape=[3, 4], strides=[2, 3], output_padding=[1, 2], pads=[1, 1, 0, 1]), [2, 3, 3, 4])
    single("convtranspose2d_output_shape", "ConvTranspose", [1, 2, 5, 6], dict(kernel_shape=[3, 3], strides=[2, 2], output_shape=[12, 13]), [2, 2, 3, 3])
    single("convtranspose2d_same_upper", "ConvTranspose", [1, 2, 5, 6], dict(kernel_shape=[3, 4], strides=[2, 2], auto_pad="SAME_UPPER"), [2, 2, 3, 4])
    single("convtranspose2d_same_lower", "ConvTranspose", [1, 2, 5, 6], dict(kernel_shape=[3, 4], strides=[2, 2], auto_pad="SAME_LOWER"), [2, 2, 3, 4])
    single("convtranspose3d_group_dilated", "ConvTranspose", [1, 4, 3, 4, 5], dict(kernel_shape=[2, 3, 2], strides=[2, 1, 2], dilations=[1, 2, 1], group=2), [4, 1, 2, 3, 2])
    # ONNX Runtime refuses output_padding >= stride (and the truth records its words).
    single("convtranspose2d_output_padding_too_big", "ConvTranspose", [1, 2, 5, 5], dict(kernel_shape=[3, 3], strides=[2, 2], output_padding=[2, 0]), [2, 2, 3, 3])

    # --- MaxPool ---------------------------------------------------------------------------
    single("maxpool1d_ceil", "MaxPool", [1, 3, 10], dict(kernel_shape=[3], strides=[2], pads=[1, 1], ceil_mode=1))
    single("maxpool2d_same_upper", "MaxPool", [1, 2, 9, 10], dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER"))
    single("maxpool2d_same_lower", "MaxPool", [1, 2, 9, 10], dict(kernel_shape=[2, 3], strides=[2, 2], auto_pad="SAME_LOWER"))
    single("maxpool2d_dilated_ceil", "MaxPool", [1, 2, 12, 11], dict(kernel_shape=[3, 2], strides=[2, 3], dilations=[2, 2], ceil_mode=1, pads=[1, 0, 1, 0]))
    single("maxpool2d_same_upper_dilated", "MaxPool", [1, 1, 11, 11], dict(kernel_shape=[3, 3], strides=[2, 2], dilations=[2, 2], auto_pad="SAME_UPPER"))
    single("maxpool2d_valid_ceil", "MaxPool", [1, 1, 10, 7], dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="VALID", ceil_mode=1))
    single("maxpool3d_pads", "MaxPool", [1, 2, 6, 7, 8], dict(kernel_shape=[2, 3, 3], strides=[2, 2, 3], pads=[0, 1, 1, 1, 0, 2]))
    # Stride above the kernel with SAME: a negative pad, which ONNX Runtime refuses for MaxPool.
    single("maxpool2d_same_stride_over_kernel", "MaxPool", [1, 1, 9, 9], dict(kernel_shape=[2, 2], strides=[3, 3], auto_pad="SAME_UPPER"))

    # --- AveragePool -----------------------------------------------------------------------
    single("averagepool1d_same_lower", "AveragePool", [1, 2, 11], dict(kernel_shape=[4], strides=[3], auto_pad="SAME_LOWER"))
    single("averagepool2d_count_include_pad_ceil", "AveragePool", [1, 2, 9, 10], dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=1, ceil_mode=1))
    single("averagepool2d_asym_excluded", "AveragePool", [1, 2, 9, 10], dict(kernel_shape=[3, 2], strides=[2, 2], pads=[0, 1, 2, 0], count_include_pad=0))
    single("averagepool2d_dilated", "AveragePool", [1, 2, 12, 12], dict(kernel_shape=[3, 3], strides=[2, 2], dilations=[2, 1], pads=[1, 1, 1, 1]))
    single("averagepool3d_valid_ceil", "AveragePool", [1, 1, 7, 8, 9], dict(kernel_shape=[2, 3, 2], strides=[2, 2, 2], ceil_mode=1))

    # --- A Pad before a conv and a pool (opset 21: pads and value as inputs) -----------------
    model(
        "pad_then_conv",
        [
            helper.make_node("Pad", ["x", "pads", "zero"], ["xp"], name="pad_0", mode="constant"),
            helper.make_node("Conv", ["xp", "w"], ["c"], name="conv_0", kernel_shape=[3, 3], strides=[2, 2]),
            helper.make_node("Relu", ["c"], ["r"], name="relu_0"),
            helper.make_node("Pad", ["r", "pads2"], ["rp"], name="pad_1", mode="reflect"),
            helper.make_node("MaxPool", ["rp"], ["y"], name="maxpool_0", kernel_shape=[2, 2], strides=[2, 2]),
        ],
        [("x", [1, 3, 16, 15])],
        ["y"],
        [
            ints("pads", [0, 0, 0, 1, 0, 0, 1, 2]),
            floats("zero", [0.0]),
            weight("w", [4, 3, 3, 3]),
            ints("pads2", [0, 0, 1, 1, 0, 0, 0, 0]),
        ],
    )

    # --- A symbolic input: sizes from padlab.input -----------------------------------------
    model(
        "dim_param_input",
        [
            helper.make_node("Conv", ["x", "w", "b"], ["c"], name="stem", kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER"),
            helper.make_node("Relu", ["c"], ["r"], name="stem_relu"),
            helper.make_node("MaxPool", ["r"], ["p"], name="pool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1),
            helper.make_node("GlobalAveragePool", ["p"], ["g"], name="gap"),
            helper.make_node("Flatten", ["g"], ["f"], name="flatten", axis=1),
            helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["y"], name="fc", transB=1),
        ],
        [("x", ["N", 3, "H", "W"])],
        ["y"],
        [weight("w", [8, 3, 3, 3]), weight("b", [8]), weight("fc_w", [5, 8]), weight("fc_b", [5])],
        sizes={"x": [2, 3, 17, 22]},
    )

    # --- The other operators ---------------------------------------------------------------
    model(
        "ops_shapes",
        [
            helper.make_node("Conv", ["x", "w"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
            helper.make_node("BatchNormalization", ["c", "bn_s", "bn_b", "bn_m", "bn_v"], ["bn"], name="bn", epsilon=1e-3),
            helper.make_node("LeakyRelu", ["bn"], ["lr"], name="leaky", alpha=0.1),
            helper.make_node("Split", ["lr", "split"], ["s0", "s1"], name="split", axis=1),
            helper.make_node("Sigmoid", ["s1"], ["sg"], name="sigmoid"),
            helper.make_node("Mul", ["s0", "sg"], ["m"], name="gate"),
            helper.make_node("Concat", ["m", "s1"], ["cat"], name="concat", axis=1),
            helper.make_node("Transpose", ["cat"], ["t"], name="to_nhwc", perm=[0, 2, 3, 1]),
            helper.make_node("Slice", ["t", "sl_starts", "sl_ends", "sl_axes", "sl_steps"], ["sl"], name="slice"),
            helper.make_node("Reshape", ["sl", "shape"], ["rs"], name="reshape"),
            helper.make_node("Unsqueeze", ["rs", "unsq_axes"], ["us"], name="unsqueeze"),
            helper.make_node("Squeeze", ["us", "unsq_axes"], ["sq"], name="squeeze"),
            helper.make_node("MatMul", ["sq", "mm_w"], ["mm"], name="matmul"),
            helper.make_node("Add", ["mm", "mm_b"], ["ad"], name="bias_add"),
            helper.make_node("Clip", ["ad", "zero", "six"], ["cl"], name="relu6"),
            helper.make_node("HardSwish", ["cl"], ["hs"], name="hardswish"),
            helper.make_node("Softmax", ["hs"], ["y"], name="softmax", axis=-1),
        ],
        [("x", [1, 3, 8, 10])],
        ["y"],
        [
            weight("w", [6, 3, 3, 3]),
            weight("bn_s", [6]), weight("bn_b", [6]), weight("bn_m", [6]),
            numpy_helper.from_array(RNG.uniform(0.5, 1.5, [6]).astype(np.float32), "bn_v"),
            ints("split", [3, 3]),
            ints("sl_starts", [1, 0]), ints("sl_ends", [100, -1]), ints("sl_axes", [1, 3]), ints("sl_steps", [2, 1]),
            ints("shape", [0, -1, 5]),
            ints("unsq_axes", [1]),
            weight("mm_w", [5, 7]), weight("mm_b", [7]),
            numpy_helper.from_array(np.array(0.0, dtype=np.float32), "zero"),
            numpy_helper.from_array(np.array(6.0, dtype=np.float32), "six"),
        ],
    )
    model(
        "ops_resize_norms",
        [
            helper.make_node("InstanceNormalization", ["x", "in_s", "in_b"], ["n"], name="instnorm"),
            helper.make_node("Resize", ["n", "", "scales"], ["up"], name="resize_scales", mode="nearest"),
            helper.make_node("Resize", ["up", "", "", "sizes"], ["up2"], name="resize_sizes", mode="linear"),
            helper.make_node("GlobalMaxPool", ["up2"], ["gm"], name="gmp"),
            helper.make_node("Add", ["up2", "gm"], ["a"], name="broadcast_add"),
            helper.make_node("LayerNormalization", ["a", "ln_s", "ln_b"], ["ln"], name="layernorm", axis=-1),
            helper.make_node("Tanh", ["ln"], ["th"], name="tanh"),
            helper.make_node("ReduceMean", ["th", "rm_axes"], ["rm"], name="reduce_mean", keepdims=0),
            helper.make_node("Dropout", ["rm"], ["y"], name="dropout"),
        ],
        [("x", [1, 2, 5, 6])],
        ["y"],
        [
            weight("in_s", [2]), weight("in_b", [2]),
            floats("scales", [1.0, 1.0, 2.0, 1.5]),
            ints("sizes", [1, 2, 7, 11]),
            weight("ln_s", [11]), weight("ln_b", [11]),
            ints("rm_axes", [1]),
        ],
    )
    # Older opsets: Pad's pads and Unsqueeze's axes as attributes, Upsample.
    model(
        "opset9_attributes",
        [
            helper.make_node("Pad", ["x"], ["p"], name="pad", pads=[0, 0, 1, 2, 0, 0, 1, 0], mode="constant", value=0.0),
            helper.make_node("Conv", ["p", "w"], ["c"], name="conv", kernel_shape=[3, 3]),
            helper.make_node("Upsample", ["c", "scales"], ["u"], name="upsample", mode="nearest"),
            helper.make_node("Unsqueeze", ["u"], ["us"], name="unsqueeze", axes=[0]),
            helper.make_node("Squeeze", ["us"], ["sq"], name="squeeze", axes=[0]),
            helper.make_node("Flatten", ["sq"], ["y"], name="flatten", axis=2),
        ],
        [("x", [1, 2, 6, 5])],
        ["y"],
        [weight("w", [3, 2, 3, 3]), floats("scales", [1.0, 1.0, 2.0, 2.0])],
        opset=9,
    )


# ---------------------------------------------------------------------------------------------
# ONNX: the operators and defaults a second round of unseen files needed (onnx.helper graphs,
# ONNX Runtime's own quantizer and optimiser)
# ---------------------------------------------------------------------------------------------

def onnx_ops_graphs():
    """Defaults (a pool's stride is 1), ONNX Runtime's refusals, and the operators padlab reads
    but does not port (quantized, recurrent, element-wise) next to the ones it ports (depth to
    space, an embedding's Gather, a nearest resize at a fractional scale, a backwards slice, a
    wrapping pad on one axis, a MatMul and its bias, a MaxPool's unused indices, float16)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(181)

    def weight(name, shape, dtype=np.float32):
        return numpy_helper.from_array(rng.standard_normal(shape).astype(dtype), name)

    def tensor(name, values, dtype):
        return numpy_helper.from_array(np.array(values, dtype=dtype), name)

    def model(name, nodes, inputs, outputs, inits=(), opset=21, domains=()):
        """inputs: [(name, dims)] or [(name, dims, elem_type)]; outputs: names or (name,
        elem_type), float by default."""
        graph = helper.make_graph(
            nodes,
            name,
            [helper.make_tensor_value_info(i[0], i[2] if len(i) > 2 else TensorProto.FLOAT, i[1]) for i in inputs],
            [helper.make_tensor_value_info(*((o, TensorProto.FLOAT) if isinstance(o, str) else o), None) for o in outputs],
            initializer=list(inits),
        )
        m = helper.make_model(
            graph,
            opset_imports=[helper.make_opsetid("", opset)] + [helper.make_opsetid(d, 1) for d in domains],
            ir_version=9 if opset < 21 else 10,
            producer_name="padlab tests/files/make_fixtures.py",
        )
        onnx.save(m, ONNX_DIR / f"{name}.onnx")
        return m

    # --- Pools without strides: ONNX's stride is 1 (torch and Keras stride by the kernel) ---
    model(
        "pools_default_stride",
        [
            helper.make_node("MaxPool", ["x"], ["m"], name="maxpool", kernel_shape=[2, 3]),
            helper.make_node("AveragePool", ["m"], ["y"], name="avgpool", kernel_shape=[3, 2], pads=[1, 0, 1, 1]),
        ],
        [("x", [1, 2, 9, 10])],
        ["y"],
    )
    # LpPool: sized like the other pools; p-norms of its windows, padding counted as zeros.
    model(
        "lppool",
        [
            helper.make_node("LpPool", ["x"], ["l2"], name="lppool_p2", kernel_shape=[2, 3], pads=[1, 0, 0, 1], strides=[2, 1]),
            helper.make_node("LpPool", ["l2"], ["y"], name="lppool_p3", kernel_shape=[2, 2], p=3),
        ],
        [("x", [1, 2, 9, 10])],
        ["y"],
    )
    # --- ONNX Runtime refuses an output_shape that names N and C (the spatial sizes only) ---
    model(
        "convtranspose2d_output_shape_4d",
        [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="convtranspose_0", kernel_shape=[3, 3], strides=[2, 2], output_shape=[1, 2, 13, 14])],
        [("x", [1, 4, 6, 7])],
        ["y"],
        [weight("w", [4, 2, 3, 3])],
    )
    # --- Depth to space both ways, and back ---------------------------------------------------
    model(
        "depth_to_space",
        [
            helper.make_node("DepthToSpace", ["x"], ["d"], name="d2s_dcr", blocksize=2),
            helper.make_node("Conv", ["d", "w"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
            helper.make_node("SpaceToDepth", ["c"], ["s"], name="s2d", blocksize=2),
            helper.make_node("DepthToSpace", ["s"], ["y"], name="d2s_crd", blocksize=2, mode="CRD"),
        ],
        [("x", [1, 8, 3, 5])],
        ["y"],
        [weight("w", [4, 2, 3, 3])],
    )
    # --- An embedding's lookup (int64 tokens), a constant index, constant indices -------------
    model(
        "gather_embedding",
        [
            helper.make_node("Gather", ["table", "tokens"], ["e"], name="embedding"),
            helper.make_node("Transpose", ["e"], ["t"], name="to_channels", perm=[0, 2, 1]),
            helper.make_node("Conv", ["t", "w"], ["y"], name="conv1d", kernel_shape=[3], pads=[1, 1]),
        ],
        [("tokens", [2, 9], TensorProto.INT64)],
        ["y"],
        [weight("table", [20, 6]), weight("w", [4, 6, 3])],
    )
    model(
        "gather_axes",
        [
            helper.make_node("Conv", ["x", "w"], ["c"], name="conv", kernel_shape=[3, 3]),
            helper.make_node("Gather", ["c", "row"], ["r"], name="pick_row", axis=2),
            helper.make_node("Gather", ["r", "cols"], ["y"], name="pick_cols", axis=2),
        ],
        [("x", [1, 2, 7, 8])],
        ["y"],
        [weight("w", [3, 2, 3, 3]), tensor("row", 2, np.int64), tensor("cols", [[0, 3], [5, 1]], np.int64)],
    )
    # --- Read, not ported: quantization by hand, element-wise functions, recurrent layers ----
    model(
        "quantize_by_hand",
        [
            helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], name="quantize"),
            helper.make_node("DequantizeLinear", ["q", "s", "z"], ["dq"], name="dequantize"),
            helper.make_node("QuantizeLinear", ["w", "ws", "wz"], ["wq"], name="quantize_w"),
            helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wdq"], name="dequantize_w"),
            helper.make_node("Conv", ["dq", "wdq"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
            helper.make_node("DynamicQuantizeLinear", ["c"], ["c8", "cs", "cz"], name="dynamic_quantize"),
            helper.make_node("DequantizeLinear", ["c8", "cs", "cz"], ["y"], name="dequantize_c"),
        ],
        [("x", [1, 3, 9, 8])],
        ["y"],
        [weight("w", [4, 3, 3, 3]), tensor("s", 0.05, np.float32), tensor("z", 3, np.uint8),
         tensor("ws", 0.02, np.float32), tensor("wz", 0, np.int8)],
    )
    model(
        "elementwise_read",
        [
            helper.make_node("Conv", ["x", "w"], ["c"], name="conv", kernel_shape=[3, 3]),
            helper.make_node("Floor", ["c"], ["f"], name="floor"),
            helper.make_node("Cast", ["f"], ["i"], name="to_int", to=TensorProto.INT32),
            helper.make_node("Cast", ["i"], ["g"], name="to_float", to=TensorProto.FLOAT),
            helper.make_node("Sign", ["g"], ["sg"], name="sign"),
            helper.make_node("Round", ["sg"], ["rd"], name="round"),
            helper.make_node("Clip", ["rd", "lo", "hi"], ["cl"], name="clip", ),
            helper.make_node("Softmax", ["cl"], ["y"], name="softmax_coerced"),
        ],
        [("x", [1, 2, 7, 6])],
        ["y"],
        [weight("w", [3, 2, 3, 3]), tensor("lo", -0.5, np.float32), tensor("hi", 2.0, np.float32)],
        opset=11,
    )
    model(
        "clip_bounds",
        [
            helper.make_node("Conv", ["x", "w"], ["c"], name="conv", kernel_shape=[3, 3]),
            helper.make_node("Clip", ["c", "lo", "hi"], ["y"], name="clip"),
        ],
        [("x", [1, 2, 7, 6])],
        ["y"],
        [weight("w", [3, 2, 3, 3]), tensor("lo", -0.5, np.float32), tensor("hi", 2.0, np.float32)],
    )
    hidden, inp = 3, 4
    model(
        "recurrent",
        [
            helper.make_node("LSTM", ["x", "lw", "lr", "lb"], ["ly", "lh", "lc"], name="lstm", hidden_size=hidden, direction="bidirectional"),
            helper.make_node("GRU", ["x", "gw", "gr"], ["gy", "gh"], name="gru", hidden_size=hidden),
            helper.make_node("RNN", ["x", "rw", "rr"], ["ry", ""], name="rnn", hidden_size=hidden, direction="reverse"),
        ],
        [("x", [5, 2, inp])],
        ["ly", "lh", "lc", "gy", "gh", "ry"],
        [
            weight("lw", [2, 4 * hidden, inp]), weight("lr", [2, 4 * hidden, hidden]), weight("lb", [2, 8 * hidden]),
            weight("gw", [1, 3 * hidden, inp]), weight("gr", [1, 3 * hidden, hidden]),
            weight("rw", [1, hidden, inp]), weight("rr", [1, hidden, hidden]),
        ],
    )
    # ONNX Runtime refuses the spec's batch-first layout.
    model(
        "recurrent_batchwise",
        [helper.make_node("GRU", ["x", "gw", "gr"], ["y"], name="gru", hidden_size=hidden, layout=1)],
        [("x", [2, 5, inp])],
        ["y"],
        [weight("gw", [1, 3 * hidden, inp]), weight("gr", [1, 3 * hidden, hidden])],
    )
    # --- Ported: a nearest resize at fractional scales, linear at a fractional scale ---------
    model(
        "resize_nearest_fractional",
        [
            helper.make_node("Conv", ["x", "w"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
            helper.make_node("Resize", ["c", "", "scales"], ["r"], name="resize_nearest", mode="nearest"),
            helper.make_node("Resize", ["r", "", "scales2"], ["y"], name="resize_floor", mode="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
        ],
        [("x", [1, 2, 5, 6])],
        ["y"],
        [weight("w", [3, 2, 3, 3]), tensor("scales", [1, 1, 1.5, 1.6], np.float32), tensor("scales2", [1, 1, 0.75, 1.25], np.float32)],
    )
    # At 1.7, output 8 of 13 reads (8.5 / 1.7 - 0.5 = 4.5) a tie float32 decides: read, not ported.
    model(
        "resize_nearest_tie",
        [helper.make_node("Resize", ["x", "", "scales"], ["y"], name="resize_nearest", mode="nearest")],
        [("x", [1, 2, 4, 13])],
        ["y"],
        [tensor("scales", [1, 1, 1.0, 1.7], np.float32)],
    )
    model(
        "resize_linear_fractional",
        [
            helper.make_node("Resize", ["x", "", "scales"], ["r"], name="resize_scales", mode="linear"),
            helper.make_node("Resize", ["r", "", "", "sizes"], ["y"], name="resize_axes", mode="linear", axes=[3]),
        ],
        [("x", [1, 2, 7, 6])],
        ["y"],
        [tensor("scales", [1, 1, 1.5, 0.75], np.float32), tensor("sizes", [11], np.int64)],
    )
    # --- Ported: a backwards slice, a wrapping pad on one axis, a MatMul and its bias --------
    model(
        "slice_negative_step",
        [
            helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["s"], name="slice_back"),
            helper.make_node("Conv", ["s", "w"], ["y"], name="conv", kernel_shape=[2, 2]),
        ],
        [("x", [1, 2, 7, 9])],
        ["y"],
        [weight("w", [3, 2, 2, 2]), tensor("starts", [-1, 7], np.int64), tensor("ends", [-100, 0], np.int64),
         tensor("axes", [2, 3], np.int64), tensor("steps", [-1, -2], np.int64)],
    )
    model(
        "pad_wrap_one_axis",
        [
            helper.make_node("Pad", ["x", "pads", "", "axes"], ["p"], name="pad_wrap", mode="wrap"),
            helper.make_node("Conv", ["p", "w"], ["y"], name="conv", kernel_shape=[3, 3]),
        ],
        [("x", [1, 2, 6, 7])],
        ["y"],
        [weight("w", [3, 2, 3, 3]), tensor("pads", [1, 2], np.int64), tensor("axes", [3], np.int64)],
    )
    model(
        "matmul_add_bias_3d",
        [
            helper.make_node("MatMul", ["x", "w"], ["m"], name="matmul"),
            helper.make_node("Add", ["m", "b"], ["a"], name="bias"),
            helper.make_node("Relu", ["a"], ["y"], name="relu"),
        ],
        [("x", [1, 5, 8])],
        ["y"],
        [weight("w", [8, 6]), weight("b", [6])],
    )
    model(
        "gemm_weight_as_input",
        [helper.make_node("Gemm", ["x", "w", "b"], ["y"], name="fc", transB=1)],
        [("x", [2, 8]), ("w", [4, 8])],
        ["y"],
        [weight("b", [4])],
    )
    model(
        "gemm_matrix_c",
        [helper.make_node("Gemm", ["x", "w", "c"], ["y"], name="fc", alpha=0.5, beta=2.0)],
        [("x", [3, 8])],
        ["y"],
        [weight("w", [8, 4]), weight("c", [3, 4])],
    )
    # --- A MaxPool's Indices: unused (ported), a graph output (refused) ----------------------
    for name, outputs in [("maxpool_indices_unused", ["y"]), ("maxpool_indices_output", ["y", ("i", TensorProto.INT64)])]:
        model(
            name,
            [
                helper.make_node("MaxPool", ["x"], ["m", "i"], name="maxpool", kernel_shape=[2, 2], strides=[2, 2]),
                helper.make_node("Relu", ["m"], ["y"], name="relu"),
            ],
            [("x", [1, 2, 8, 9])],
            outputs,
        )
    # --- float16 throughout --------------------------------------------------------------
    model(
        "float16_conv",
        [
            helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
            helper.make_node("Relu", ["c"], ["r"], name="relu"),
            helper.make_node("MaxPool", ["r"], ["y"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
        ],
        [("x", [1, 3, 8, 8], TensorProto.FLOAT16)],
        [("y", TensorProto.FLOAT16)],
        [weight("w", [4, 3, 3, 3], np.float16), weight("b", [4], np.float16)],
    )
    # --- Weights in a file beside the model (ONNX external data) -------------------------
    m = model(
        "external_data",
        [helper.make_node("Conv", ["x", "w"], ["y"], name="conv", kernel_shape=[3, 3])],
        [("x", [1, 2, 6, 6])],
        ["y"],
        [weight("w", [8, 2, 3, 3])],
    )
    # (onnx.save appends to an existing data file.)
    (ONNX_DIR / "external_data.onnx.data").unlink(missing_ok=True)
    onnx.save(m, ONNX_DIR / "external_data.onnx", save_as_external_data=True,
              location="external_data.onnx.data", size_threshold=0)

    # --- ONNX Runtime's quantizer (QOperator and dynamic) and optimiser (FusedConv) --------
    import onnxruntime as ort
    from onnxruntime import quantization as q

    float_model = model(
        "_float_for_ort",
        [
            helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
            helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
            helper.make_node("MaxPool", ["r1"], ["p1"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
            helper.make_node("Conv", ["p1", "w2", "b2"], ["c2"], name="conv2", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
            helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
            helper.make_node("Add", ["r2", "p1"], ["a"], name="residual"),
            helper.make_node("GlobalAveragePool", ["a"], ["g"], name="gap"),
            helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
            helper.make_node("Gemm", ["f", "fw", "fb"], ["y"], name="fc", transB=1),
        ],
        [("x", [1, 3, 17, 15])],
        ["y"],
        [weight("w1", [8, 3, 3, 3]), weight("b1", [8]), weight("w2", [8, 8, 3, 3]), weight("b2", [8]),
         weight("fw", [5, 8]), weight("fb", [5])],
        opset=17,
    )
    src = ONNX_DIR / "_float_for_ort.onnx"

    class Reader(q.CalibrationDataReader):
        def __init__(self):
            self.data = iter([{"x": rng.standard_normal([1, 3, 17, 15]).astype(np.float32)} for _ in range(4)])

        def get_next(self):
            return next(self.data, None)

    q.quantize_static(str(src), str(ONNX_DIR / "ort_qoperator.onnx"), Reader(), quant_format=q.QuantFormat.QOperator)
    q.quantize_static(str(src), str(ONNX_DIR / "ort_qdq.onnx"), Reader(), quant_format=q.QuantFormat.QDQ)
    q.quantize_dynamic(str(src), str(ONNX_DIR / "ort_dynamic.onnx"))
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    opts.optimized_model_filepath = str(ONNX_DIR / "ort_fused.onnx")
    ort.InferenceSession(str(src), opts, providers=["CPUExecutionProvider"])
    src.unlink()
    del float_model

    # --- Attribute defaults of activations: ONNX's HardSigmoid default (alpha 0.2, Keras 2's)
    # is not torch's (1/6) ------------------------------------------------------------------
    model(
        "hard_sigmoid",
        [
            helper.make_node("Conv", ["x", "w"], ["c"], name="conv", kernel_shape=[3, 3]),
            helper.make_node("HardSigmoid", ["c"], ["h"], name="torch_hard_sigmoid", alpha=1 / 6),
            helper.make_node("HardSigmoid", ["h"], ["y"], name="onnx_default"),
        ],
        [("x", [1, 2, 6, 5])],
        ["y"],
        [weight("w", [3, 2, 3, 3])],
    )
    # --- Reductions at opset 18: axes as an input; none, with noop_with_empty_axes -----------
    model(
        "reduce_axes",
        [
            helper.make_node("Conv", ["x", "w"], ["c"], name="conv", kernel_shape=[3, 3]),
            helper.make_node("ReduceMax", ["c"], ["m"], name="reduce_noop", noop_with_empty_axes=1),
            helper.make_node("ReduceMean", ["m", "hw"], ["r"], name="reduce_hw"),
            helper.make_node("ReduceSum", ["r", "ch"], ["y"], name="reduce_channels", keepdims=0),
        ],
        [("x", [1, 2, 6, 5])],
        ["y"],
        [weight("w", [3, 2, 3, 3]), tensor("hw", [2, 3], np.int64), tensor("ch", [1], np.int64)],
    )


# ---------------------------------------------------------------------------------------------
# torch.onnx.export
# ---------------------------------------------------------------------------------------------

def torch_exports():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    torch.manual_seed(18)

    class Cnn(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
            self.pool = nn.MaxPool2d(2)
            self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
            self.fc = nn.Linear(16 * 4 * 4, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = F.relu(self.conv2(x))
            return self.fc(torch.flatten(x, 1))

    class Residual(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(4, 8, 3, stride=2, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(8)
            self.conv2 = nn.Conv2d(8, 8, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(8)
            self.down = nn.Sequential(nn.Conv2d(4, 8, 1, stride=2, bias=False), nn.BatchNorm2d(8))
            self.pool = nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)

        def forward(self, x):
            y = F.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            return self.pool(F.relu(y + self.down(x)))

    class UNetish(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = nn.Conv2d(1, 4, 3, padding=1)
            self.down = nn.MaxPool2d(2)
            self.mid = nn.Conv2d(4, 8, 3, padding=1)
            self.up = nn.ConvTranspose2d(8, 4, 2, stride=2)
            self.dec = nn.Conv2d(8, 2, 3, padding=1)

        def forward(self, x):
            e = F.relu(self.enc(x))
            m = F.relu(self.mid(self.down(e)))
            u = self.up(m)
            return self.dec(torch.cat([u, e], dim=1))

    def same_pad_amount(x, k, s, d):
        # timm's traceable form: the pad is computed from the run-time size.
        return torch.clamp(((x / s).ceil() - 1) * s + (k - 1) * d + 1 - x, min=0)

    class TimmSame(nn.Module):
        """timm's Conv2dSame: F.pad with amounts computed from x.shape, then a 'valid' conv."""

        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 6, 3, stride=2)
            self.head = nn.Conv2d(6, 4, 1)

        def forward(self, x):
            ih, iw = x.size()[-2:]
            ih = torch.as_tensor(ih)
            iw = torch.as_tensor(iw)
            ph = same_pad_amount(ih, 3, 2, 1).int()
            pw = same_pad_amount(iw, 3, 2, 1).int()
            x = F.pad(x, [pw // 2, pw - pw // 2, ph // 2, ph - ph // 2])
            return self.head(F.relu(self.conv(x)))

    models = [
        ("torch_cnn", Cnn(), (1, 3, 16, 16), None),
        ("torch_residual", Residual(), (1, 4, 15, 14), None),
        ("torch_unet", UNetish(), (1, 1, 16, 12), None),
        ("torch_timm_same", TimmSame(), (1, 3, 17, 20), {"x": {2: "H", 3: "W"}}),
    ]
    try:
        import onnxscript  # noqa: F401

        exporters = [("ts", False), ("dynamo", True)]
    except ImportError:
        print("onnxscript is not installed: the dynamo exporter's files are not made", file=sys.stderr)
        exporters = [("ts", False)]
    for name, m, shape, dynamic in models:
        m.eval()
        x = torch.randn(*shape)
        for tag, dynamo in exporters:
            path = ONNX_DIR / f"{name}_{tag}.onnx"
            kwargs = dict(input_names=["x"], output_names=["y"], dynamo=dynamo)
            if dynamo:
                kwargs["external_data"] = False
                if dynamic:
                    kwargs["dynamic_shapes"] = {
                        "x": {a: torch.export.Dim(n, min=4, max=4096) for a, n in dynamic["x"].items()}
                    }
            else:
                kwargs["opset_version"] = 17
                if dynamic:
                    kwargs["dynamic_axes"] = dynamic
            torch.onnx.export(m, (x,), str(path), **kwargs)
            if dynamic:
                import onnx

                om = onnx.load(str(path))
                from onnx import helper

                helper.set_model_props(om, {"padlab.input": "x=" + "x".join(map(str, shape))})
                onnx.save(om, str(path))


def torch_ops_exports():
    """torch.onnx.export of the layers the second round added: an embedding (Gather), a Linear
    on a sequence (MatMul and its bias Add, or Gemm) and a pixel shuffle (DepthToSpace CRD),
    by both exporters."""
    import torch
    import torch.nn as nn

    torch.manual_seed(182)

    class Sequence(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(20, 6)
            self.conv = nn.Conv1d(6, 8, 3, padding=1)
            self.fc = nn.Linear(8, 5)

        def forward(self, tokens):
            x = self.conv(self.emb(tokens).transpose(1, 2))
            return self.fc(torch.relu(x).transpose(1, 2))

    class SuperResolution(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 8, 3, padding=1)
            self.shuffle = nn.PixelShuffle(2)

        def forward(self, x):
            return torch.tanh(self.shuffle(self.conv(x)))

    exporters = [("ts", False)]
    try:
        import onnxscript  # noqa: F401

        exporters.append(("dynamo", True))
    except ImportError:
        print("onnxscript is not installed: the dynamo exporter's files are not made", file=sys.stderr)
    for name, m, x in [
        ("torch_sequence", Sequence(), torch.randint(0, 20, (2, 11))),
        ("torch_pixel_shuffle", SuperResolution(), torch.randn(1, 2, 5, 7)),
    ]:
        m.eval()
        for tag, dynamo in exporters:
            kwargs = dict(input_names=["x"], output_names=["y"], dynamo=dynamo)
            if dynamo:
                kwargs["external_data"] = False
            else:
                kwargs["opset_version"] = 17
            torch.onnx.export(m, (x,), str(ONNX_DIR / f"{name}_{tag}.onnx"), **kwargs)

    class Branches(nn.Module):
        """squeeze(2) of a free-length axis: the TorchScript exporter writes an If on its size."""

        def __init__(self):
            super().__init__()
            self.conv = nn.Conv1d(3, 6, 3)
            self.fc = nn.Linear(6, 2)

        def forward(self, x):
            x = torch.nn.functional.max_pool1d(torch.relu(self.conv(x)), x.shape[2] - 2)
            return self.fc(x.squeeze(2))

    # (Made last: its weights come after the others' in torch's random stream.)
    m = Branches().eval()
    path = ONNX_DIR / "torch_if_branch_ts.onnx"
    torch.onnx.export(m, (torch.randn(1, 3, 12),), str(path), input_names=["x"], output_names=["y"],
                      dynamo=False, opset_version=13, dynamic_axes={"x": {2: "T"}})
    import onnx
    from onnx import helper

    om = onnx.load(str(path))
    helper.set_model_props(om, {"padlab.input": "x=1x3x12"})
    onnx.save(om, str(path))


# ---------------------------------------------------------------------------------------------
# Keras .keras and .h5
# ---------------------------------------------------------------------------------------------

def keras_models():
    import keras
    from keras import layers

    keras.utils.set_random_seed(18)

    seq = keras.Sequential(
        [
            keras.Input((28, 28, 1)),
            layers.Conv2D(8, 3, strides=2, padding="same", activation="relu", name="conv_a"),
            layers.MaxPooling2D(2, name="pool_a"),
            layers.Conv2D(16, 3, padding="valid", name="conv_b"),
            layers.AveragePooling2D(2, padding="same", name="pool_b"),
            layers.Flatten(name="flatten"),
            layers.Dense(10, activation="softmax", name="dense"),
        ],
        name="sequential_cnn",
    )

    inp = keras.Input((32, 30, 3), name="image")
    x = layers.Conv2D(8, 3, padding="same", name="stem")(inp)
    block = keras.Sequential(
        [
            layers.Conv2D(8, 3, padding="same", name="block_conv"),
            layers.BatchNormalization(name="block_bn"),
            layers.ReLU(name="block_relu"),
        ],
        name="block",
    )
    y = block(x)
    x = layers.Add(name="residual")([x, y])
    x = layers.MaxPooling2D(3, strides=2, padding="same", name="pool")(x)
    x = layers.Conv2DTranspose(4, 3, strides=2, padding="same", name="up")(x)
    x = layers.GlobalAveragePooling2D(name="gap")(x)
    out = layers.Dense(5, name="head")(x)
    func = keras.Model(inp, out, name="functional_residual")

    inp1 = keras.Input((20, 4), name="seq")
    z = layers.Conv1D(6, 5, strides=2, padding="causal", name="causal")(inp1)
    z = layers.ZeroPadding1D((1, 2), name="zpad")(z)
    z = layers.Conv1D(6, 3, strides=2, padding="valid", name="conv1d")(z)
    z1 = layers.MaxPooling1D(2, padding="same", name="pool1d")(z)
    z2 = layers.AveragePooling1D(2, padding="same", name="avg1d")(z)
    z = layers.Concatenate(name="cat")([z1, z2])
    conv1d = keras.Model(inp1, z, name="functional_1d")

    for m in (seq, func, conv1d):
        m.save(KERAS_DIR / f"{m.name}.keras")
        m.save(KERAS_DIR / f"{m.name}.h5")


def keras_ops_models():
    """Operations a Keras 3 functional model records as nodes of their own (module
    keras.src.ops.*, constants among the arguments), as MobileNetV3's hard swish writes them."""
    import keras
    from keras import layers

    keras.utils.set_random_seed(19)
    inp = keras.Input((24, 20, 3), name="image")
    x = layers.Conv2D(8, 3, strides=2, padding="same", name="stem")(inp)
    gate = layers.ReLU(6.0, name="relu6")(x + 3.0)
    x = layers.Multiply(name="hard_swish")([x, gate * (1.0 / 6.0)])
    squeeze = keras.ops.mean(x, axis=(1, 2), keepdims=True)
    squeeze = layers.Conv2D(8, 1, name="excite")(squeeze)
    x = x * keras.ops.sigmoid(squeeze)
    x = layers.Conv2D(4, 3, padding="valid", name="head")(x - 0.5)
    model = keras.Model(inp, x, name="functional_ops")
    # Only .keras: Keras's own legacy .h5 loader refuses operations (`Unknown layer: 'Mean'`).
    model.save(KERAS_DIR / f"{model.name}.keras")


def imagenet_normalization():
    """ConvNeXt's first layer: ImageNet's per-channel mean and variance (of 0-255 pixels) in
    Normalization's configuration."""
    from keras import layers

    return layers.Normalization(
        axis=-1,
        mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
        variance=[(0.229 * 255) ** 2, (0.224 * 255) ** 2, (0.225 * 255) ** 2],
        name="prestem_normalization",
    )


def keras_normalization_models():
    """Keras's Normalization, the preprocessing layer keras.applications put first: adapted
    (its mean, variance and count are weights in the file, as EfficientNet's), and with the
    statistics in its configuration (as ConvNeXt's per-channel lists); over the channels, over
    two axes, and over everything (axis=None); one with invert=True, which padlab refuses."""
    import keras
    from keras import layers

    keras.utils.set_random_seed(20)
    rng = np.random.default_rng(20)

    def set_stats(layer):
        shape = tuple(layer.adapt_mean.shape)
        layer.adapt_mean.assign(rng.uniform(-1.0, 1.0, shape).astype(np.float32))
        layer.adapt_variance.assign(rng.uniform(0.5, 3.0, shape).astype(np.float32))
        layer.finalize_state()

    inp = keras.Input((12, 10, 3), name="image")
    norm_in = layers.Normalization(axis=-1, name="norm_in")
    norm_in.adapt(rng.normal(2.0, 3.0, (16, 12, 10, 3)).astype(np.float32))
    x = norm_in(inp)
    x = layers.Conv2D(6, 3, strides=2, padding="same", name="conv")(x)
    norm_rows = layers.Normalization(axis=(1, 3), name="norm_rows")
    x = norm_rows(x)
    x = layers.MaxPooling2D(2, name="pool")(x)
    x = layers.Flatten(name="flatten")(x)
    x = layers.Dense(8, name="dense")(x)
    norm_all = layers.Normalization(axis=None, name="norm_all")
    x = norm_all(x)
    out = layers.Dense(3, name="head")(x)
    adapted = keras.Model(inp, out, name="normalization_adapted")
    set_stats(norm_rows)
    set_stats(norm_all)

    inp = keras.Input((16, 16, 3), name="image")
    x = imagenet_normalization()(inp)
    x = layers.Conv2D(4, 4, strides=4, name="stem")(x)
    x = layers.LayerNormalization(epsilon=1e-6, name="stem_ln")(x)
    x = layers.Normalization(
        axis=(1, 3), mean=[[0.5], [-0.25], [0.0], [1.0]], variance=[[2.0], [0.5], [1.0], [4.0]],
        name="norm_rows",
    )(x)
    x = layers.Normalization(axis=None, mean=0.25, variance=0.0, name="norm_floor")(x)
    x = layers.GlobalAveragePooling2D(name="gap")(x)
    out = layers.Dense(3, name="head")(x)
    config = keras.Model(inp, out, name="normalization_config")

    # Keras's legacy .h5 keeps no `axis` for Normalization (it reads back as -1): the .h5
    # fixture is a model whose Normalization layers are over the channels.
    inp = keras.Input((8, 8, 3), name="image")
    norm_in = layers.Normalization(name="norm_in")
    norm_in.adapt(rng.normal(-1.0, 2.0, (16, 8, 8, 3)).astype(np.float32))
    x = layers.Conv2D(5, 3, padding="same", name="conv")(norm_in(inp))
    x = layers.Normalization(mean=[0.5, 0.0, -0.5, 1.0, 2.0], variance=[1.0, 2.0, 0.5, 4.0, 0.25],
                             name="norm_conv")(x)
    x = layers.GlobalAveragePooling2D(name="gap")(x)
    out = layers.Dense(3, name="head")(x)
    channels = keras.Model(inp, out, name="normalization_channels")

    for m in (adapted, config):
        m.save(KERAS_DIR / f"{m.name}.keras")
    channels.save(KERAS_DIR / f"{channels.name}.h5")

    inp = keras.Input((6, 5), name="sequence")
    x = layers.Dense(4, name="dense")(inp)
    x = layers.Normalization(axis=-1, mean=[1.0, 2.0, 3.0, 4.0], variance=[1.0, 4.0, 9.0, 16.0],
                             invert=True, name="denormalize")(x)
    inverted = keras.Model(inp, x, name="normalization_invert")
    inverted.save(KERAS_DIR / f"{inverted.name}.keras")


def keras_convnext_models():
    """keras.applications.ConvNeXt's own blocks (its module's ConvNeXtBlock): the per-channel
    Normalization first, then LayerScale and StochasticDepth, classes of that module rather
    than of keras.layers; at a size small enough to commit."""
    import keras
    from keras import layers
    from keras.src.applications.convnext import ConvNeXtBlock

    keras.utils.set_random_seed(21)
    inp = keras.Input((24, 24, 3), name="image")
    x = imagenet_normalization()(inp)
    x = layers.Conv2D(8, 4, strides=4, name="stem")(x)
    x = layers.LayerNormalization(epsilon=1e-6, name="stem_layernorm")(x)
    x = ConvNeXtBlock(8, drop_path_rate=0.1, name="block_0")(x)
    x = ConvNeXtBlock(8, drop_path_rate=0.0, name="block_1")(x)
    x = layers.GlobalAveragePooling2D(name="gap")(x)
    x = layers.LayerNormalization(epsilon=1e-6, name="head_layernorm")(x)
    out = layers.Dense(3, name="head")(x)
    model = keras.Model(inp, out, name="convnext_blocks")
    model.save(KERAS_DIR / f"{model.name}.keras")


def keras2_models():
    """Keras 2 (tf_keras) .h5 files: the legacy layout, inbound_nodes as nested lists."""
    import tf_keras as k2
    from tf_keras import layers

    k2.utils.set_random_seed(18)
    inp = k2.Input((24, 20, 3), name="image")
    x = layers.Conv2D(8, 3, strides=2, padding="same", name="stem")(inp)
    y = layers.Conv2D(8, 3, padding="same", name="branch")(x)
    y = layers.BatchNormalization(name="bn")(y)
    x = layers.Add(name="residual")([x, y])
    x = layers.ZeroPadding2D(((1, 0), (0, 1)), name="zpad")(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool")(x)
    x = layers.Flatten(name="flatten")(x)
    out = layers.Dense(4, name="head")(x)
    func = k2.Model(inp, out, name="keras2_functional")
    seq = k2.Sequential(
        [
            layers.Conv1D(4, 3, strides=2, padding="causal", input_shape=(16, 2), name="causal"),
            layers.AveragePooling1D(2, padding="same", name="avg"),
            layers.Flatten(name="flatten"),
            layers.Dense(3, name="head"),
        ],
        name="keras2_sequential",
    )
    for m in (func, seq):
        m.save(KERAS_DIR / f"{m.name}.h5")


def keras_more_models():
    """Keras 3.15's preprocessing layers as it saves them (data_format on every one), a model
    in mixed precision (float16 compute), and a Lambda padlab refuses (the table up to it)."""
    import keras
    from keras import layers

    keras.utils.set_random_seed(22)
    inp = keras.Input((20, 18, 3), name="image")
    x = layers.RandomFlip("horizontal", name="flip")(inp)
    x = layers.RandomRotation(0.1, name="rotate")(x)
    x = layers.RandomZoom(0.1, 0.1, name="zoom")(x)
    x = layers.RandomTranslation(0.1, 0.1, name="shift")(x)
    x = layers.RandomContrast(0.2, name="contrast")(x)
    x = layers.RandomBrightness(0.2, name="brightness")(x)
    x = layers.Rescaling(1 / 127.5, offset=-1, name="rescale")(x)
    x = layers.Resizing(16, 12, name="resize")(x)
    x = layers.Conv2D(6, 3, strides=2, padding="same", name="conv")(x)
    x = layers.SpatialDropout2D(0.2, name="drop")(x)
    out = layers.GlobalAveragePooling2D(name="gap")(x)
    keras.Model(inp, out, name="preprocessing").save(KERAS_DIR / "preprocessing.keras")

    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        inp = keras.Input((16, 16, 3), name="image")
        x = layers.Conv2D(8, 3, strides=2, padding="same", name="conv")(inp)
        x = layers.BatchNormalization(name="bn")(x)
        x = layers.ReLU(name="relu")(x)
        x = layers.GlobalAveragePooling2D(name="gap")(x)
        x = layers.Dense(4, name="head")(x)
        out = layers.Activation("softmax", dtype="float32", name="probs")(x)
        keras.Model(inp, out, name="mixed_float16").save(KERAS_DIR / "mixed_float16.keras")
    finally:
        keras.mixed_precision.set_global_policy("float32")

    inp = keras.Input((12, 12, 2), name="image")
    x = layers.Conv2D(4, 3, padding="same", name="conv")(inp)
    x = layers.MaxPooling2D(2, name="pool")(x)
    x = layers.Lambda(lambda t: t * 0.5, name="halve")(x)
    x = layers.Conv2D(2, 3, name="after")(x)
    keras.Model(inp, x, name="refused_lambda").save(KERAS_DIR / "refused_lambda.keras")


def keras2_more_models():
    """Keras 2 (tf_keras) .h5 files Keras 3 does not load: depthwise, separable and transposed
    layers with `groups: 1` in their configuration, and a Sequential built on its own input
    called in a functional model (its call there is its node 1)."""
    import tf_keras as k2
    from tf_keras import layers

    k2.utils.set_random_seed(23)
    seq = k2.Sequential(
        [
            layers.DepthwiseConv2D(3, padding="same", depth_multiplier=2, input_shape=(10, 9, 3), name="depthwise"),
            layers.SeparableConv2D(5, 3, strides=2, name="separable"),
            layers.Conv2DTranspose(4, 3, strides=2, padding="same", name="transposed"),
            layers.GlobalAveragePooling2D(name="gap"),
        ],
        name="keras2_groups",
    )
    seq.save(KERAS_DIR / "keras2_groups.h5")

    inner = k2.Sequential(
        [layers.Conv2D(4, 3, padding="same", input_shape=(9, 8, 2), name="conv"), layers.ReLU(name="relu")],
        name="inner",
    )
    inp = k2.Input((9, 8, 2), name="image")
    x = inner(inp)
    x = layers.MaxPooling2D(2, name="pool")(x)
    out = layers.Conv2D(3, 1, name="head")(x)
    k2.Model(inp, out, name="keras2_nested").save(KERAS_DIR / "keras2_nested.h5")


def tf2onnx_exports():
    """TensorFlow functions through tf2onnx: NHWC wrapped in Transposes; 'SAME' becomes explicit
    (asymmetric) pads at a static size and auto_pad SAME_UPPER at a symbolic one."""
    import tensorflow as tf
    import tf2onnx

    w1 = tf.constant(RNG.standard_normal([3, 3, 3, 4]).astype(np.float32))
    w2 = tf.constant(RNG.standard_normal([2, 2, 4, 2]).astype(np.float32))

    def body(x):
        y = tf.nn.relu(tf.nn.conv2d(x, w1, strides=2, padding="SAME"))
        y = tf.nn.max_pool2d(y, 3, 2, "SAME")
        y = tf.nn.conv2d(y, w2, strides=1, padding="VALID", dilations=1)
        return tf.nn.avg_pool2d(y, 2, 2, "SAME")

    for name, shape in [("tf2onnx_static", [1, 17, 15, 3]), ("tf2onnx_symbolic", [None, None, None, 3])]:
        sig = [tf.TensorSpec(shape, tf.float32, name="x")]
        f = tf.function(body, input_signature=sig)
        path = ONNX_DIR / f"{name}.onnx"
        tf2onnx.convert.from_function(f, input_signature=sig, opset=17, output_path=str(path))
        if None in shape:
            import onnx
            from onnx import helper

            m = onnx.load(str(path))
            helper.set_model_props(m, {"padlab.input": m.graph.input[0].name + "=2x17x15x3"})
            onnx.save(m, str(path))


def h5_variants():
    """The same model_config in the other ways HDF5 files store it (h5/): the newer file format
    (superblock 3, object header 2), a fixed-length string, and dense attribute storage (more
    attributes than an object header keeps compact), which padlab refuses by name."""
    import h5py

    H5_DIR.mkdir(parents=True, exist_ok=True)
    with h5py.File(KERAS_DIR / "sequential_cnn.h5", "r") as src:
        attrs = {k: src.attrs[k] for k in src.attrs}
    config = attrs["model_config"]
    config = config.encode() if isinstance(config, str) else config
    with h5py.File(H5_DIR / "latest_format.h5", "w", libver="latest") as f:
        for k, v in attrs.items():
            f.attrs[k] = v
    with h5py.File(H5_DIR / "fixed_string.h5", "w") as f:
        f.attrs.create("model_config", data=np.bytes_(config))
        f.attrs.create("keras_version", data=np.bytes_(b"3.15.1"))
    with h5py.File(H5_DIR / "dense_attributes.h5", "w", libver="latest") as f:
        for i in range(20):
            f.attrs[f"extra_{i}"] = i
        f.attrs["model_config"] = attrs["model_config"]


# Each subcommand and what it makes, in the order a full run makes them.
MAKERS = {
    "helper": helper_graphs,
    "onnx-ops": onnx_ops_graphs,
    "torch-ops": torch_ops_exports,
    "torch": torch_exports,
    "tf2onnx": tf2onnx_exports,
    "keras": keras_models,
    "keras-ops": keras_ops_models,
    "keras-normalization": keras_normalization_models,
    "keras-convnext": keras_convnext_models,
    "keras2": keras2_models,
    "keras-more": keras_more_models,
    "keras2-more": keras2_more_models,
    "h5": h5_variants,
}


def main():
    ONNX_DIR.mkdir(parents=True, exist_ok=True)
    KERAS_DIR.mkdir(parents=True, exist_ok=True)
    what = set(sys.argv[1:]) or set(MAKERS)
    unknown = what - set(MAKERS)
    if unknown:
        sys.exit(f"unknown subcommand {', '.join(sorted(unknown))}: one of {', '.join(MAKERS)}")
    for name, make in MAKERS.items():
        if name in what:
            make()


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    main()
