//! Constructs met in real-world pastes padlab had not seen (tutorials, popular repositories,
//! forum posts), each reduced to the few lines that show it. The shapes and operation counts
//! are the frameworks' own: `tests/models/truth_torch.py` / `truth_keras.py` printed them for
//! the same lines (with the `# padlab-input:` each test gives).

use padlab::core::Framework;
use padlab::model::port::PortOptions;
use padlab::model::{Model, Options, read};

#[path = "common/corpus.rs"]
mod corpus;
use corpus::port_paste;

#[macro_use]
#[path = "common/text.rs"]
mod text;

fn model(src: &str, input: &[i64]) -> Model {
    read(
        src,
        &Options {
            input: Some(input.to_vec()),
            model: None,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The error reading `src` with one sample of shape `input` gives (the test fails if it reads).
fn refusal(src: &str, input: &[i64]) -> padlab::model::ReadError {
    read(
        src,
        &Options {
            input: Some(input.to_vec()),
            model: None,
        },
    )
    .map(|_| ())
    .unwrap_err()
}

/// The rows' kinds and one sample's output shapes, in order.
fn rows(m: &Model) -> Vec<(String, Option<Vec<i64>>)> {
    m.graph
        .nodes
        .iter()
        .filter(|n| n.kind != "Input")
        .map(|n| (n.kind.clone(), n.shape().map(|s| s[1..].to_vec())))
        .collect()
}

fn kinds(m: &Model) -> Vec<String> {
    rows(m).into_iter().map(|(k, _)| k).collect()
}

/// A layer `model.add` could not add is the model's error, never a model without it (a
/// Keras CNN-LSTM read as a CNN whose Dense ran on every time step: [500, 1] for Keras's [1]).
/// The LSTM is read now; a stateful one is still refused.
#[test]
fn a_failed_add_fails_the_model_it_would_have_changed() {
    let src = "from keras.models import Sequential\nfrom keras.layers import Embedding, Conv1D, LSTM, Dense\nmodel = Sequential()\nmodel.add(Embedding(5000, 32))\nmodel.add(Conv1D(32, 3, padding=\"same\"))\nmodel.add(LSTM(100))\nmodel.add(Dense(1))\n";
    let m = model(src, &[500]);
    assert_eq!(
        rows(&m),
        vec![
            ("Embedding".to_string(), Some(vec![500, 32])),
            ("Conv1D".to_string(), Some(vec![500, 32])),
            ("LSTM".to_string(), Some(vec![100])),
            ("Dense".to_string(), Some(vec![1])),
        ]
    );
    let src = src.replace("LSTM(100)", "LSTM(100, stateful=True)");
    let e = refusal(&src, &[500]);
    assert_eq!(e.line, 6, "{e}");
    assert!(e.message.contains("LSTM"), "{e}");
    // A method that only trains or describes the model poisons nothing.
    let src = "import keras\nfrom keras import layers\nmodel = keras.Sequential([keras.Input((8, 8, 1)), layers.Conv2D(4, 3)])\nmodel.compile(optimizer=Adam(lr=1e-3), loss=\"mse\")\n";
    let m = model(src, &[8, 8, 1]);
    assert_eq!(rows(&m), vec![("Conv2D".to_string(), Some(vec![6, 6, 4]))]);
}

/// torchvision's GoogLeNet asks `torch.jit.is_scripting()`: eager torch answers False (torch
/// runs one conv2d here, no add).
#[test]
fn torch_is_neither_scripted_nor_traced() {
    let src = "import torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.conv = nn.Conv2d(3, 8, 3)\n    def forward(self, x):\n        x = self.conv(x)\n        if torch.jit.is_scripting() or torch.jit.is_tracing() or torch.onnx.is_in_onnx_export():\n            return x + 1\n        if torch._C._get_tracing_state() is not None:\n            return x + 2\n        return x\n";
    assert_eq!(kinds(&model(src, &[3, 8, 8])), vec!["Conv2d"]);
}

/// Python's `sum()` of tensors starts from `0 + a` (torch: conv2d, conv2d, add, add; [8, 8, 8]).
#[test]
fn python_sum_adds_tensors() {
    let src = "import torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.a = nn.Conv2d(3, 8, 1)\n        self.b = nn.Conv2d(3, 8, 1)\n    def forward(self, x):\n        return sum([self.a(x), self.b(x)])\n";
    let m = model(src, &[3, 8, 8]);
    assert_eq!(kinds(&m), vec!["Conv2d", "Conv2d", "add", "add"]);
    assert_eq!(rows(&m)[3].1, Some(vec![8, 8, 8]));
}

/// A builder that compiles the model it returns is still how the check script gets the
/// source model (the SRCNN Keras 2 scripts: `srcnn_model = model()`).
#[test]
fn a_builder_that_compiles_is_kept_in_the_check() {
    let src = "# padlab-input: 32x32x1\nfrom keras.models import Sequential\nfrom keras.layers import Conv2D\ndef model():\n    m = Sequential()\n    m.add(Conv2D(8, 3, input_shape=(None, None, 1)))\n    m.compile(optimizer=\"adam\", loss=\"mse\")\n    return m\nsrcnn_model = model()\n";
    let ported = port_paste(
        src.to_string(),
        Framework::Keras,
        PortOptions { check: true },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let script = ported.script.unwrap_or_default();
    assert_contains!(script, "\nsrcnn_model = model()");
    assert_contains!(script, "source = eval(\"srcnn_model\", namespace)");
}

/// `from keras.layers import *` gives the functional merges too (zhixuhao's Keras 2 U-Net:
/// `concatenate([drop4, up6], axis=3)`; Keras: [32, 32, 11]), and the optimizers' star import
/// their classes.
#[test]
fn star_imports_give_what_keras_2_code_uses() {
    let src = "from keras.models import *\nfrom keras.layers import *\nfrom keras.optimizers import *\na = Input((32, 32, 3)); b = Conv2D(8, 3, padding=\"same\")(a)\nmodel = Model(inputs=a, outputs=concatenate([a, b], axis=3))\nmodel.compile(optimizer=Adam(learning_rate=1e-4), loss=\"binary_crossentropy\")\n";
    let m = model(src, &[32, 32, 3]);
    assert_eq!(rows(&m).last().unwrap().1, Some(vec![32, 32, 11]));
    assert!(m.graph.notes.is_empty(), "{:?}", m.graph.notes);
}

/// `Dense(10, activation="log_softmax")` (keras-io's M5) is a dense layer then its log-softmax
/// in every port.
#[test]
fn a_log_softmax_activation_is_ported() {
    let src = "# padlab-input: 100\nfrom tensorflow import keras\nfrom tensorflow.keras import layers\ni = keras.Input((100,)); model = keras.Model(i, layers.Dense(10, activation=\"log_softmax\")(i))\n";
    for (target, text) in [
        (Framework::Torch, "log_softmax"),
        (Framework::Keras, "activation=\"log_softmax\""),
        (Framework::Tf, "tf.nn.log_softmax"),
        (Framework::Jax, "jax.nn.log_softmax"),
    ] {
        let ported = port_paste(src.to_string(), target, PortOptions { check: false })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_contains!(ported.code, text);
    }
}

/// keras-io's sub-pixel DepthToSpace layer reshapes with the run-time batch size first
/// (`b, h, w, c = ops.shape(x)`; Keras: [16, 16, 2, 2, 3]).
#[test]
fn the_run_time_batch_size_first_in_a_reshape_keeps_the_batch() {
    let src = "import keras\nfrom keras import layers, ops\nclass DepthToSpace(layers.Layer):\n    def call(self, x):\n        b, h, w, c = ops.shape(x)\n        return ops.reshape(x, [b, h, w, 2, 2, c // 4])\ninputs = keras.Input((16, 16, 12)); model = keras.Model(inputs, DepthToSpace()(inputs))\n";
    let m = model(src, &[16, 16, 12]);
    assert_eq!(
        rows(&m),
        vec![("reshape".to_string(), Some(vec![16, 16, 2, 2, 3]))]
    );
}

/// A Lambda's function runs on tensors, so `keras.ops` (and `tf.*`) work there: the siamese
/// example's Euclidean distance (Keras: [1]).
#[test]
fn keras_ops_inside_a_lambda_are_evaluated() {
    let src = "import keras\nfrom keras import ops\na = keras.Input((10,)); b = keras.Input((10,))\nd = keras.layers.Lambda(lambda v: ops.sqrt(ops.maximum(ops.sum(ops.square(v[0] - v[1]), axis=1, keepdims=True), 1e-7)), output_shape=(1,))([a, b])\nmodel = keras.Model([a, b], d)\n";
    let m = model(src, &[10]);
    assert_eq!(rows(&m).len(), 5);
    assert_eq!(rows(&m).last().unwrap().1, Some(vec![1]));
}

/// The squeeze-excitation gate as most CIFAR repositories write it, `x * y.expand_as(x)`, and a
/// WaveNet's `torch.stack(skips).sum(dim=0)`: torch runs expand_as and stack as operations of
/// their own (torch: [8, 4, 4] and [8, 16]), and every port carries them.
#[test]
fn expand_as_and_stack_are_read_and_ported() {
    let se = "# padlab-input: 8x4x4\nimport torch.nn as nn\nclass SE(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 8)\n    def forward(self, x):\n        b, c, _, _ = x.size()\n        y = self.fc(x.mean((2, 3))).view(b, c, 1, 1)\n        return x * y.expand_as(x)\n";
    let m = model(se, &[8, 4, 4]);
    assert_eq!(
        kinds(&m),
        vec!["mean", "Linear", "view", "expand_as", "mul"]
    );
    assert_eq!(rows(&m)[3].1, Some(vec![8, 4, 4]));
    let stack = "# padlab-input: 4x16\nimport torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.a = nn.Conv1d(4, 8, 1)\n        self.b = nn.Conv1d(4, 8, 1)\n    def forward(self, x):\n        return torch.stack([self.a(x), self.b(x)], dim=1).sum(dim=1)\n";
    let m = model(stack, &[4, 16]);
    assert_eq!(rows(&m)[2], ("stack".to_string(), Some(vec![2, 8, 16])));
    for (src, target, text) in [
        (se, Framework::Torch, ".expand(-1, 8, 4, 4)"),
        (se, Framework::Keras, "t * keras.ops.ones((1, 8, 4, 4))"),
        (se, Framework::Tf, "tf.ones((1, 8, 4, 4))"),
        (stack, Framework::Torch, "torch.stack(["),
        (stack, Framework::Keras, "keras.ops.stack(ts, axis=1)"),
        (stack, Framework::Jax, "jnp.stack(["),
    ] {
        let ported = port_paste(src.to_string(), target, PortOptions { check: false })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_contains!(ported.code, text);
    }
}

/// An expand torch refuses is refused with torch's words.
#[test]
fn an_expand_torch_refuses_is_an_error_row() {
    let src = "import torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.c = nn.Conv2d(3, 8, 1)\n    def forward(self, x):\n        return self.c(x).expand(-1, 4, 8, 8)\n";
    let e = read(
        src,
        &Options {
            input: Some(vec![3, 8, 8]),
            model: None,
        },
    )
    .map(|m| {
        m.graph
            .nodes
            .iter()
            .filter_map(|n| n.inferred.error.clone())
            .collect::<Vec<_>>()
    });
    let text = format!("{e:?}");
    assert!(
        text.contains("The expanded size of the tensor (4) must match the existing size (8) at non-singleton dimension 1"),
        "{text}"
    );
}

/// A module's own `nn.Parameter` a tensor meets (ConvNeXt's layer-scale gamma, its
/// channels-first LayerNorm's `weight[:, None, None] * x + bias[:, None, None]`, and its
/// `F.layer_norm(x, shape, self.weight, self.bias, eps)`) is a learned tensor of the model:
/// counted (torch: 8 * 3 * 3 * 8 + 8 + 8 = 592 parameters with gamma), shaped, and ported with
/// its values copied from where the source keeps it.
#[test]
fn a_modules_own_parameters_are_read_counted_and_ported() {
    let src = "# padlab-input: 8x6x6\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nclass Scale(nn.Module):\n    def __init__(self, dim):\n        super().__init__()\n        self.conv = nn.Conv2d(dim, dim, 3, padding=1)\n        self.gamma = nn.Parameter(1e-6 * torch.ones(dim))\n        self.weight = nn.Parameter(torch.ones(dim))\n        self.bias = nn.Parameter(torch.zeros(dim))\n    def forward(self, x):\n        x = x + self.gamma[:, None, None] * self.conv(x)\n        x = F.layer_norm(x.permute(0, 2, 3, 1), (8,), self.weight, self.bias, 1e-6)\n        return x\nmodel = Scale(8)\n";
    let m = model(src, &[8, 6, 6]);
    assert_eq!(m.params, Some(8 * 3 * 3 * 8 + 8 + 3 * 8));
    assert_eq!(
        kinds(&m),
        vec!["Conv2d", "mul", "add", "permute", "layer_norm"]
    );
    let learned = m
        .graph
        .nodes
        .iter()
        .find(|n| n.kind == "mul")
        .map(|n| n.op.clone());
    assert_eq!(
        learned,
        Some(padlab::model::op::Op::Learned {
            op: padlab::model::op::LearnedOp::Mul,
            shape: vec![8, 1, 1],
            weight: padlab::model::op::WeightAt::Param("gamma".into()),
        })
    );
    let ported = port_paste(
        src.to_string(),
        Framework::Keras,
        PortOptions { check: true },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let script = ported.script.unwrap_or_default();
    assert_contains!(
        script,
        "source.get_parameter(\"gamma\")",
        "Learned((1, 1, 1, 8), lambda t, w: t * w",
        "layers.LayerNormalization"
    );
}

/// PReLU in both frameworks: torch's one slope or one per channel, Keras's one per element but
/// along `shared_axes` (SRGAN generators): the slopes' shape follows the input.
#[test]
fn prelu_slopes_follow_the_input() {
    let torch = "import torch.nn as nn\nclass G(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.c = nn.Conv2d(3, 8, 3, padding=1)\n        self.a = nn.PReLU(8)\n        self.b = nn.PReLU()\n    def forward(self, x):\n        return self.b(self.a(self.c(x)))\nmodel = G()\n";
    let m = model(torch, &[3, 16, 16]);
    assert_eq!(m.params, Some(3 * 3 * 3 * 8 + 8 + 8 + 1));
    let keras = "import keras\nfrom keras import layers\ni = keras.Input((12, 12, 3))\nx = layers.PReLU()(layers.Conv2D(8, 3)(i))\nx = layers.PReLU(shared_axes=[1, 2])(x)\nmodel = keras.Model(i, x)\n";
    let m = model(keras, &[12, 12, 3]);
    let shapes: Vec<Vec<i64>> = m
        .graph
        .nodes
        .iter()
        .filter_map(|n| match &n.op {
            padlab::model::op::Op::Learned { shape, .. } => Some(shape.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(shapes, vec![vec![10, 10, 8], vec![1, 1, 8]]);
    // Keras counts the slopes: 3*3*3*8 + 8 + 800 + 8.
    assert_eq!(m.params, Some(224 + 800 + 8));
    let bad = "import torch.nn as nn\nmodel = nn.Sequential(nn.Conv2d(3, 8, 1), nn.PReLU(4))\n";
    let e = refusal(bad, &[3, 4, 4]);
    assert!(
        e.message
            .contains("Found parameter numbers = 4 and channel size = 8"),
        "{e}"
    );
}

/// Stochastic-depth rates as ConvNeXt computes them,
/// `[x.item() for x in torch.linspace(0, rate, n)]`: numbers padlab evaluates, float32 ones
/// as torch's (0.1 is 0.10000000149011612 there).
#[test]
fn constant_ranges_are_numbers() {
    let src = "import torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self, depths=(2, 2)):\n        super().__init__()\n        rates = [x.item() for x in torch.linspace(0, 0.1, sum(depths))]\n        assert abs(rates[-1] - 0.1) < 1e-7 and rates[-1] != 0.1 and len(rates) == 4\n        steps = list(torch.arange(0, 8, 2).tolist())\n        self.convs = nn.Sequential(*[nn.Conv2d(8, 8, 3, padding=1) for r in rates + steps])\n    def forward(self, x):\n        return self.convs(x)\nmodel = Net()\n";
    assert_eq!(kinds(&model(src, &[8, 6, 6])).len(), 8);
}

/// A conditional GAN's `forward(noise, labels)`: called in the paste on `(batch,)` class
/// indices, that call gives the labels' shape; not called, the labels an nn.Embedding reads
/// are one class index per sample, and a note says it was assumed (torch: [64] and [1]).
#[test]
fn a_forwards_class_labels_are_read() {
    let called = "import torch\nimport torch.nn as nn\nclass G(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.emb = nn.Embedding(10, 10)\n        self.fc = nn.Linear(110, 64)\n    def forward(self, noise, labels):\n        return self.fc(torch.cat((self.emb(labels), noise), -1))\ng = G()\nout = g(torch.randn(2, 100), torch.randint(0, 10, (2,)))\n";
    let m = read(called, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rows(&m).last().unwrap().1, Some(vec![64]));
    let uncalled = "import torch\nimport torch.nn as nn\nclass D(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.label_embedding = nn.Embedding(10, 10)\n        self.fc = nn.Linear(10 + 784, 1)\n    def forward(self, img, labels):\n        d_in = torch.cat((img.view(img.size(0), -1), self.label_embedding(labels)), -1)\n        return self.fc(d_in)\nmodel = D()\n";
    let m = model(uncalled, &[1, 28, 28]);
    assert_eq!(rows(&m).last().unwrap().1, Some(vec![1]));
    assert!(
        m.graph
            .notes
            .iter()
            .any(|n| n.contains("`labels`: one class index per sample")),
        "{:?}",
        m.graph.notes
    );
}

/// NumPy that only computes an initial weight (FCN's bilinear kernel, `np.ogrid[:k, :k]`) is
/// not evaluated and needs not be; a call padlab does not evaluate whose result a size needs
/// is said as such (timm's `re.split` of a block string).
#[test]
fn values_padlab_does_not_compute_fail_only_where_needed() {
    let init = "import numpy as np\nimport torch\nimport torch.nn as nn\ndef bilinear_kernel(c, k):\n    og = np.ogrid[:k, :k]\n    filt = (1 - abs(og[0] - 1.5) / 2) * (1 - abs(og[1] - 1.5) / 2)\n    w = np.zeros((c, c, k, k), dtype=np.float64)\n    w[range(c), range(c), :, :] = filt\n    return torch.from_numpy(w).float()\nclass Up(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.up = nn.ConvTranspose2d(4, 4, 4, stride=2, bias=False)\n        self.up.weight.data.copy_(bilinear_kernel(4, 4))\n    def forward(self, x):\n        return self.up(x)\nmodel = Up()\n";
    assert_eq!(rows(&model(init, &[4, 8, 8]))[0].1, Some(vec![4, 18, 18]));
    let split = "import re\nimport torch.nn as nn\ndef parse(s):\n    splits = re.split(r\"(\\d.*)\", s)\n    if len(splits) >= 2:\n        return int(splits[1])\n    return 3\nclass Net(nn.Module):\n    def __init__(self, spec=\"k3\"):\n        super().__init__()\n        self.conv = nn.Conv2d(3, 8, parse(spec))\n    def forward(self, x):\n        return self.conv(x)\nmodel = Net()\n";
    let e = refusal(split, &[3, 8, 8]);
    assert!(
        e.message.contains("padlab does not evaluate re.split()"),
        "{e}"
    );
}

/// TensorFlow's `tf.nn.depth_to_space` in a Lambda (keras-io's ESPCN before Keras 3): the
/// block move TensorFlow makes (Keras: [48, 48, 1] from 16x16x9).
#[test]
fn tf_depth_to_space_in_a_lambda_is_read() {
    let src = "import tensorflow as tf\nfrom tensorflow import keras\nfrom tensorflow.keras import layers\ni = keras.Input((16, 16, 9))\nmodel = keras.Model(i, layers.Lambda(lambda t: tf.nn.depth_to_space(t, 3))(i))\n";
    let m = model(src, &[16, 16, 9]);
    assert_eq!(rows(&m).last().unwrap().1, Some(vec![48, 48, 1]));
    assert!(matches!(
        m.graph.nodes.last().map(|n| &n.op),
        Some(padlab::model::op::Op::DepthToSpace(3))
    ));
}

/// PointNet's T-Net: `layers.Dot(axes=(2, 1))` is the batched matrix product (Keras: [64, 3]),
/// and a step of the functional model made by a helper that also builds a regulariser (a
/// constant `tf.eye`) stays in the check script's copy of the paste.
#[test]
fn a_dot_layer_and_a_helper_built_step_are_kept() {
    let src = "# padlab-input: 64x3\nimport numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\nfrom tensorflow.keras import layers\nclass Reg(keras.regularizers.Regularizer):\n    def __init__(self, n):\n        self.eye = tf.eye(n)\n    def __call__(self, x):\n        return tf.reduce_sum(tf.square(x))\ndef tnet(inputs, n):\n    reg = Reg(n)\n    x = layers.GlobalMaxPooling1D()(inputs)\n    x = layers.Dense(n * n, activity_regularizer=reg)(x)\n    t = layers.Reshape((n, n))(x)\n    return layers.Dot(axes=(2, 1))([inputs, t])\ninputs = keras.Input(shape=(64, 3))\nx = tnet(inputs, 3)\nmodel = keras.Model(inputs, x)\n";
    let m = model(src, &[64, 3]);
    assert_eq!(rows(&m).last().unwrap().1, Some(vec![64, 3]));
    let ported = port_paste(
        src.to_string(),
        Framework::Torch,
        PortOptions { check: true },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_contains!(ported.script.unwrap_or_default(), "\nx = tnet(inputs, 3)");
    let cosine = "import keras\nfrom keras import layers\na = keras.Input((8,)); b = keras.Input((8,))\nmodel = keras.Model([a, b], layers.Dot(axes=1, normalize=True)([a, b]))\n";
    let e = read(cosine, &Options::default()).unwrap_err();
    assert!(e.message.contains("normalize=True"), "{e}");
}

/// A paste with a generator on `(None, None, 3)` and a discriminator on a fully stated
/// `(96, 96, 3)` (SRGAN scripts), read at `--input 24x24x3` for the generator: the
/// discriminator's own input stands (Keras names the generator's layers after both were
/// built); a conflict is an error only for the model traced.
#[test]
fn a_stated_input_of_another_model_is_not_overridden() {
    let src = "import keras\nfrom keras import layers\ndef gen():\n    i = keras.Input((None, None, 3))\n    return keras.Model(i, layers.Conv2D(8, 3, padding='same')(i))\nhr = keras.Input((96, 96, 3))\nd = keras.Model(hr, layers.Conv2D(4, 3)(hr))\ng = gen()\n";
    let m = read(
        src,
        &Options {
            input: Some(vec![24, 24, 3]),
            model: Some("g".into()),
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        rows(&m),
        vec![("Conv2D".to_string(), Some(vec![24, 24, 8]))]
    );
    assert_eq!(m.graph.nodes.last().unwrap().name, "conv2d_1");
    let e = read(
        src,
        &Options {
            input: Some(vec![24, 24, 3]),
            model: Some("d".into()),
        },
    )
    .unwrap_err();
    assert!(
        e.message
            .contains("the code states the input shape (96, 96, 3)"),
        "{e}"
    );
}

/// A Keras Model subclass built functionally (keras-io's EDSR: `class EDSRModel(keras.Model)`
/// with a custom train_step, `EDSRModel(inputs, outputs)`) is that functional model: its layers
/// are Keras's top-level ones (`conv2d`, not `functional/conv2d`), and no `functional` name is
/// used up.
#[test]
fn a_functional_models_subclass_is_that_model() {
    let src = "import keras\nfrom keras import layers\nclass M(keras.Model):\n    def train_step(self, data):\n        return {}\ndef make():\n    i = layers.Input(shape=(None, None, 3))\n    return M(i, layers.Conv2D(4, 3, padding='same')(i))\nfirst = make()\nmodel = make()\n";
    let m = read(
        src,
        &Options {
            input: Some(vec![8, 8, 3]),
            model: Some("model".into()),
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = m.graph.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, vec!["input_layer_1", "conv2d_1"]);
}

/// Keras's fuzz factor as code asks for it (the siamese example's
/// `ops.maximum(sum_square, keras.backend.epsilon())`): a number.
#[test]
fn keras_epsilon_is_a_number() {
    let src = "import keras\nfrom keras import ops, layers\ndef dist(v):\n    s = ops.sum(ops.square(v[0] - v[1]), axis=1, keepdims=True)\n    return ops.sqrt(ops.maximum(s, keras.backend.epsilon() + keras.config.epsilon()))\na = keras.Input((10,)); b = keras.Input((10,))\nmodel = keras.Model([a, b], layers.Lambda(dist)([a, b]))\n";
    assert_eq!(rows(&model(src, &[10])).last().unwrap().1, Some(vec![1]));
}

/// Transfer learning: a torchvision model built by its builder, its head replaced, is that
/// model (torchvision 0.29's own counts: ResNet-18 with a 2-class head 69 operations and
/// 11,177,538 parameters, MobileNetV2 with 5 classes 153 and 2,230,277, VGG-16 with 10
/// classes 40 and 134,301,514), read from padlab's copy of the architectures.
#[test]
fn a_torchvision_model_with_a_new_head_is_read() {
    for (file, ops, params, classes) in [
        ("torch_finetune_resnet18.py", 69, 11_177_538, 2),
        ("torch_finetune_mobilenet_v2.py", 153, 2_230_277, 5),
        ("torch_finetune_vgg16.py", 40, 134_301_514, 10),
    ] {
        let m = model(&corpus::corpus_text(file), &[3, 224, 224]);
        let rows = rows(&m);
        assert_eq!(rows.len(), ops, "{file}: {:?}", kinds(&m));
        assert_eq!(
            rows.last().and_then(|r| r.1.clone()),
            Some(vec![classes]),
            "{file}"
        );
        assert_eq!(m.params, Some(params), "{file}");
        assert!(
            m.graph
                .notes
                .iter()
                .any(|n| n.contains("nothing is downloaded")),
            "{file}: {:?}",
            m.graph.notes
        );
    }
    // An architecture padlab has no copy of is an error naming it, never a guess.
    let src = "import torchvision\nmodel = torchvision.models.no_such_net()\n";
    let e = refusal(src, &[3, 224, 224]);
    assert_eq!(e.line, 2, "{e}");
}

/// Transfer learning on Keras Applications: a model built by its builder inside a new model
/// (called with training=False, or its `output` / `get_layer(...).output` taken) is that model,
/// read from padlab's copy of the architectures. Keras 3.15's own counts (truth_keras.py):
/// the TF tutorial's MobileNetV2 at 160x160 with a one-logit head 160 operations and 2,259,265
/// parameters; VGG16's features with a 5-class head 23 operations (vgg16's preprocess_input
/// in a Lambda is one of them) and 21,138,757; ResNet50 whole 176 and 25,636,712;
/// EfficientNetB0 on augmented input with a 120-class head 245 and 4,208,411; DenseNet121
/// after densenet's preprocess_input as tensor arithmetic, with a 10-class head, 432 and
/// 7,047,754.
#[test]
fn a_keras_application_with_a_new_head_is_read() {
    for (file, ops, params, classes, side) in [
        ("keras_transfer_mobilenetv2.py", 160, 2_259_265, 1, 160),
        ("keras_vgg16_features_head.py", 23, 21_138_757, 5, 224),
        ("keras_resnet50_classifier.py", 176, 25_636_712, 1000, 224),
        ("keras_finetune_efficientnetb0.py", 245, 4_208_411, 120, 224),
        ("keras_densenet121_preprocess.py", 432, 7_047_754, 10, 128),
    ] {
        let m = read(
            &corpus::corpus_text(file),
            &Options {
                input: Some(vec![side, side, 3]),
                model: Some("model".into()),
            },
        )
        .unwrap_or_else(|e| panic!("{file}: {e}"));
        let rows = rows(&m);
        // A Lambda is one operation to Keras; padlab reads the arithmetic inside it.
        let lambda = m
            .graph
            .nodes
            .iter()
            .filter(|n| n.name.starts_with("lambda/"))
            .count();
        let counted = rows.len() - lambda + usize::from(lambda > 0);
        assert_eq!(counted, ops, "{file}: {:?}", kinds(&m));
        assert_eq!(
            rows.last().and_then(|r| r.1.clone()),
            Some(vec![classes]),
            "{file}"
        );
        assert_eq!(m.params, Some(params), "{file}");
    }
    // Per-channel numbers meet a tensor only with one number per channel.
    let src = "import keras\ni = keras.Input((8, 8, 3))\nmodel = keras.Model(i, i + [1.0, 2.0])\n";
    let e = read(
        src,
        &Options {
            input: None,
            model: None,
        },
    )
    .unwrap_err();
    assert!(e.message.contains("one number per channel"), "{e}");
    // A model padlab has no copy of is an error naming it, never a guess.
    let src = "import keras\nmodel = keras.applications.ConvNeXtTiny(weights=None)\n";
    let e = refusal(src, &[224, 224, 3]);
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("ConvNeXtTiny"), "{e}");
    // With its top and the ImageNet weights, the classes must be 1000, as Keras says.
    let src = "import keras\nmodel = keras.applications.VGG16(weights='imagenet', classes=10)\n";
    let e = refusal(src, &[224, 224, 3]);
    assert!(e.message.contains("`classes` should be 1000"), "{e}");
}

/// d2l's `add_to_class`: a method set on a class after its definition (`setattr(Class,
/// fn.__name__, fn)`) is found by instances made later (torch: 5 operations, [10], 15,898
/// parameters).
#[test]
fn a_method_added_to_a_class_is_found() {
    let src = r#"import torch
from torch import nn

def add_to_class(Class):
    def wrapper(obj):
        setattr(Class, obj.__name__, obj)
    return wrapper

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(self.b1(), nn.Flatten(), nn.LazyLinear(10))
    def forward(self, x):
        return self.net(x)

@add_to_class(Net)
def b1(self):
    return nn.Sequential(nn.Conv2d(1, 8, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2))

model = Net()
"#;
    let m = model(src, &[1, 28, 28]);
    let rows = rows(&m);
    assert_eq!(rows.len(), 5, "{:?}", kinds(&m));
    assert_eq!(rows[4].1, Some(vec![10]));
    assert_eq!(m.params, Some(15_898));
}

/// torch's `_pair`, `types.SimpleNamespace` options, a data `torch.Tensor((..))`, `self._modules`
/// and `nn.Softmax()` without dim (torch takes dim 1 for a rank-2 input): 4 operations, [5],
/// 8,357 parameters.
#[test]
fn module_internals_and_an_implicit_softmax_dim_are_read() {
    let src = r#"import math
import torch
import torch.nn as nn
from torch.nn.modules.utils import _pair, _triple
from types import SimpleNamespace

opt = SimpleNamespace(channels=3, classes=5)

class Net(nn.Module):
    def __init__(self, k=3):
        super().__init__()
        kk = _pair(k)
        mid = int(math.floor(kk[0] * kk[1] * 16 / (kk[0] + kk[1])))
        self.conv = nn.Conv2d(opt.channels, mid, kk, padding=_pair(1))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(mid * 64, opt.classes), nn.Softmax())
        self.scale = torch.Tensor((0.5, 0.5, 0.5))
        for name in ["conv", "head"]:
            self.add_module(name + "_copy", getattr(self, name))

    def forward(self, x):
        x = self._modules["conv"](x)
        return self.head(x)

model = Net()
"#;
    let m = model(src, &[3, 8, 8]);
    let rows = rows(&m);
    assert_eq!(rows.len(), 4, "{:?}", kinds(&m));
    assert_eq!(rows[3].1, Some(vec![5]));
    assert_eq!(m.params, Some(8_357));
    assert!(
        m.graph.notes.iter().any(|n| n.contains("dim=1")),
        "{:?}",
        m.graph.notes
    );
    let torch = port_paste(
        format!("# padlab-input: 3x8x8\n{src}"),
        Framework::Torch,
        PortOptions { check: false },
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .code;
    assert!(torch.contains("nn.Softmax(dim=1)"), "{torch}");
}

/// A YOLO-style config names its modules by string (`eval(m)`), a string that is no name stays
/// itself (`except NameError`), and attributes set on layers (`layer.i, layer.f = i, f`) are
/// read back by the forward: torch runs 4 operations, the last [16, 16, 16], 808 parameters.
#[test]
fn eval_of_a_name_and_attributes_on_layers_are_evaluated() {
    let src = r#"import torch
import torch.nn as nn

cfg = [[-1, "nn.Conv2d", [3, 8, 3, 1, 1]], [-1, "nn.Upsample", [None, 2, "nearest"]], [-1, "nn.Conv2d", [8, 8, 3, 2, 1]], [[-1, 0], "Concat", [1]]]

class Concat(nn.Module):
    def __init__(self, d=1):
        super().__init__()
        self.d = d
    def forward(self, x):
        return torch.cat(x, self.d)

def build(cfg):
    layers = []
    for i, (f, m, args) in enumerate(cfg):
        m = eval(m) if isinstance(m, str) else m
        for j, a in enumerate(args):
            try:
                args[j] = eval(a) if isinstance(a, str) else a
            except NameError:
                pass
        layer = m(*args)
        layer.i, layer.f = i, f
        layers.append(layer)
    return nn.Sequential(*layers)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = build(cfg)
    def forward(self, x):
        y = []
        for m in self.model:
            if m.f != -1:
                x = [x if j == -1 else y[j] for j in m.f]
            x = m(x)
            y.append(x)
        return x

model = Model()
"#;
    let m = model(src, &[3, 16, 16]);
    assert_eq!(
        rows(&m).into_iter().map(|r| r.1).collect::<Vec<_>>(),
        vec![
            Some(vec![8, 16, 16]),
            Some(vec![8, 32, 32]),
            Some(vec![8, 16, 16]),
            Some(vec![16, 16, 16])
        ]
    );
    assert_eq!(m.params, Some(808));
    // Statements are not expressions, as in Python.
    let e = read(
        "import torch.nn as nn\nm = eval(\"x = 1\")\nmodel = nn.Conv2d(3, 3, 3)\n",
        &Options {
            input: Some(vec![3, 8, 8]),
            model: None,
        },
    );
    assert!(e.is_err() || e.is_ok_and(|m| m.graph.notes.iter().any(|n| n.contains("line 2"))));
}

/// An instance norm that tracks running statistics normalises by them in eval: a batch norm's
/// inference, ported as one (torch: 532 parameters; its self-checks, run in the frameworks
/// with random running statistics, pass for the four targets).
#[test]
fn an_instance_norm_with_running_statistics_is_a_batch_norm_in_eval() {
    let src = "import torch.nn as nn\nmodel = nn.Sequential(\n    nn.Conv2d(3, 8, 3, padding=1),\n    nn.InstanceNorm2d(8, affine=True, track_running_stats=True),\n    nn.ReLU(inplace=True),\n    nn.Conv2d(8, 4, 3, stride=2, padding=1),\n    nn.InstanceNorm2d(4, track_running_stats=True),\n)\n";
    let m = model(src, &[3, 16, 16]);
    assert_eq!(
        kinds(&m),
        [
            "Conv2d",
            "InstanceNorm2d",
            "ReLU",
            "Conv2d",
            "InstanceNorm2d"
        ]
    );
    assert_eq!(m.params, Some(532));
    let torch = port_paste(
        format!("# padlab-input: 3x16x16\n{src}"),
        Framework::Torch,
        PortOptions { check: false },
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .code;
    assert!(torch.contains("nn.BatchNorm2d(4, affine=False)"), "{torch}");
}

/// A ViT's class token: a module's parameter repeated over the batch and concatenated before
/// the patches, then the position embedding added (torch: 8 operations, [17, 32] after the
/// concatenation, [10] out, 2,538 parameters; the four targets' self-checks pass).
#[test]
fn a_class_token_concatenated_before_the_patches_is_read_and_ported() {
    let src = r#"import torch
import torch.nn as nn

class ViT(nn.Module):
    def __init__(self, dim=32, patch=4, classes=10):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, patch, stride=patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, (16 // patch) ** 2 + 1, dim))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.proj(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1) + self.pos_embed
        return self.head(self.norm(x)[:, 0])

model = ViT()
"#;
    let m = model(src, &[3, 16, 16]);
    let rows = rows(&m);
    assert_eq!(rows.len(), 8, "{:?}", kinds(&m));
    assert_eq!(rows[3].1, Some(vec![17, 32]));
    assert_eq!(rows[7].1, Some(vec![10]));
    assert_eq!(m.params, Some(2_538));
    for target in [
        Framework::Torch,
        Framework::Keras,
        Framework::Tf,
        Framework::Jax,
    ] {
        port_paste(
            format!("# padlab-input: 3x16x16\n{src}"),
            target,
            PortOptions { check: true },
        )
        .unwrap_or_else(|e| panic!("{target:?}: {e}"));
    }
    // A weight not repeated over the batch cannot meet a batch of tensors: refused by name.
    let bad = src.replace(
        "self.cls_token.expand(x.shape[0], -1, -1)",
        "self.cls_token",
    );
    let e = refusal(&bad, &[3, 16, 16]);
    assert!(e.message.contains("repeated over the batch"), "{e}");
}

/// A pix2pix discriminator's forward of two images concatenated along the channels: the second
/// takes the first's shape, said in a note (torch: [1, 16, 16] for two 3x256x256 images); a
/// second tensor the forward does not concatenate with the first is still asked for.
#[test]
fn a_second_image_concatenated_with_the_first_takes_its_shape() {
    let src = "import torch\nimport torch.nn as nn\nclass D(nn.Module):\n    def __init__(self, c=3):\n        super().__init__()\n        self.model = nn.Sequential(nn.Conv2d(c * 2, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 4, 1, 1, bias=False))\n    def forward(self, img_A, img_B):\n        img_input = torch.cat((img_A, img_B), 1)\n        return self.model(img_input)\nmodel = D()\n";
    let m = model(src, &[3, 32, 32]);
    assert_eq!(
        rows(&m).last().and_then(|r| r.1.clone()),
        Some(vec![1, 15, 15])
    );
    assert!(
        m.graph
            .notes
            .iter()
            .any(|n| n.contains("`img_B`: the shape of `img_A`")),
        "{:?}",
        m.graph.notes
    );
    let other = src.replace(
        "torch.cat((img_A, img_B), 1)",
        "torch.cat((img_A, img_A), 1) * img_B.mean()",
    );
    let e = refusal(&other, &[3, 32, 32]);
    assert!(e.message.contains("forward takes 2 tensors"), "{e}");
}

/// A module set on a torch Sequential is its child, as torch registers it: in place of the
/// child of that name, else run last (torch: [2] after `model.classifier = nn.Linear(8, 2)` and
/// `model.act = nn.Softmax(dim=1)`; before, the old head's [1000] was read without a word).
#[test]
fn a_module_set_on_a_sequential_is_its_child() {
    let src = "import torch.nn as nn\nfrom collections import OrderedDict\nmodel = nn.Sequential(OrderedDict([(\"conv\", nn.Conv2d(3, 8, 3)), (\"pool\", nn.AdaptiveAvgPool2d(1)), (\"flat\", nn.Flatten()), (\"classifier\", nn.Linear(8, 1000))]))\nmodel.classifier = nn.Linear(8, 2)\nmodel.act = nn.Softmax(dim=1)\n";
    let m = model(src, &[3, 8, 8]);
    assert_eq!(
        kinds(&m),
        [
            "Conv2d",
            "AdaptiveAvgPool2d",
            "Flatten",
            "Linear",
            "Softmax"
        ]
    );
    assert_eq!(rows(&m).last().and_then(|r| r.1.clone()), Some(vec![2]));
}

/// A global pool over channels-first maps (the keras-io time-series transformer pools its
/// `[time, 1]` sequence with `data_format="channels_first"`): the axes after the channels are
/// reduced. Keras gives (500,), (500, 1) with keepdims, and (4,) for the 2-D one on (4, 6, 5).
#[test]
fn a_channels_first_global_pool_reduces_the_axes_after_the_channels() {
    let src = "import keras\nfrom keras import layers\ninp = keras.Input(shape=(500, 3))\na = layers.GlobalAveragePooling1D(data_format=\"channels_first\")(inp)\nb = layers.GlobalMaxPooling1D(data_format=\"channels_first\", keepdims=True)(inp)\nmodel = keras.Model(inp, [a, b])\n";
    let m = model(src, &[500, 3]);
    assert_eq!(
        rows(&m),
        vec![
            ("GlobalAveragePooling1D".to_string(), Some(vec![500])),
            ("GlobalMaxPooling1D".to_string(), Some(vec![500, 1])),
        ]
    );
    let src = "import keras\nfrom keras import layers\nmodel = keras.Sequential([keras.Input(shape=(4, 6, 5)), layers.GlobalAveragePooling2D(data_format=\"channels_first\")])\n";
    let m = model(src, &[4, 6, 5]);
    assert_eq!(
        rows(&m),
        vec![("GlobalAveragePooling2D".to_string(), Some(vec![4]))]
    );
    for target in [
        Framework::Torch,
        Framework::Keras,
        Framework::Tf,
        Framework::Jax,
    ] {
        let ported = port_paste(src.to_string(), target, PortOptions::default());
        assert!(ported.is_ok(), "{target:?}: {:?}", ported.err());
    }
}

/// A StarGAN generator's domain code: viewed to [B, c, 1, 1], `repeat`ed over the image (an
/// expand: the repeated axes have size one) and concatenated; a tensor the forward reassigns
/// is never given the first input's shape (torch: [5, 16, 16] after the repeat, [8, 16, 16]
/// out, 3,152 parameters).
#[test]
fn a_repeat_over_axes_of_size_one_is_an_expand() {
    let src = r#"import torch
import torch.nn as nn
class G(nn.Module):
    def __init__(self, c_dim=5):
        super().__init__()
        self.conv = nn.Conv2d(3 + c_dim, 8, 7, 1, 3, bias=False)
        self.norm = nn.InstanceNorm2d(8, affine=True, track_running_stats=True)
    def forward(self, x, c):
        c = c.view(c.size(0), c.size(1), 1, 1)
        c = c.repeat(1, 1, x.size(2), x.size(3))
        x = torch.cat([x, c], dim=1)
        return torch.relu(self.norm(self.conv(x)))
model = G()
out = model(torch.randn(1, 3, 16, 16), torch.randn(1, 5))
"#;
    let m = model(src, &[3, 16, 16]);
    let rows = rows(&m);
    assert_eq!(rows[1], ("repeat".to_string(), Some(vec![5, 16, 16])));
    assert_eq!(rows.last().and_then(|r| r.1.clone()), Some(vec![8, 16, 16]));
    assert_eq!(m.params, Some(3_152));
    // Without the paste's call, `c` is asked for: it is reassigned before the concatenation.
    let e = read(
        &src.replace(
            "out = model(torch.randn(1, 3, 16, 16), torch.randn(1, 5))\n",
            "",
        ),
        &Options {
            input: Some(vec![3, 16, 16]),
            model: None,
        },
    )
    .unwrap_err();
    assert!(e.message.contains("forward takes 2 tensors"), "{e}");
}
