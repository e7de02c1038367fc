//! The model reader's contract, as a user meets it: pasted code becomes a graph whose last
//! output is the framework's (the numbers below were printed by torch and Keras for the same
//! code: `tests/models/truth_torch.py` and `truth_keras.py` produce them for the corpus), an
//! error names the line and the construct, the bounds hold, and the CLI ends quietly on a
//! closed pipe.

use std::io::Write;
use std::process::{Command, Stdio};

use padlab::model::{Options, read};
use proptest::prelude::*;

#[path = "common/corpus.rs"]
mod corpus;
use corpus::corpus_text;
use corpus::stack::on_worker_stack;

#[macro_use]
#[path = "common/text.rs"]
mod text;

fn last_shape(src: &str, input: Option<Vec<i64>>) -> Option<Vec<i64>> {
    let m = read(src, &Options { input, model: None }).unwrap_or_else(|e| panic!("{e}"));
    let out = m.graph.outputs.first()?;
    m.graph.node(out.node).shape().map(|s| s[1..].to_vec())
}

/// Ordinary Python around a model: tuple unpacking, a config list in a loop, a helper with
/// parameters, `nn.Sequential(*layers)` and a residual `+` (torch: [10] from 3x32x32).
#[test]
fn python_as_models_are_written_is_evaluated() {
    let src = r#"
import torch
import torch.nn as nn
import torch.nn.functional as F

nc, ndf = 3, 16
cfg = [ndf, "M", ndf * 2, "M"]

def block(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())

class Net(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        layers, c = [], nc
        for v in cfg:
            if v == "M":
                layers += [nn.MaxPool2d(2)]
            else:
                layers.append(block(c, v))
                c = v
        self.features = nn.Sequential(*layers)
        self.res = block(c, c)
        self.fc = nn.Linear(c * 8 * 8, num_classes)

    def forward(self, x):
        x = self.features(x)
        x = x + self.res(x)
        return F.log_softmax(self.fc(torch.flatten(x, 1)), dim=1)

model = Net()
"#;
    assert_eq!(last_shape(src, Some(vec![3, 32, 32])), Some(vec![10]));
}

/// A Keras functional residual: every add is a row (Keras runs 14 operations here: the
/// functional guide's toy ResNet, whose dropped adds were issue 17's silent misread).
#[test]
fn a_keras_residual_keeps_every_add() {
    let src = corpus_text("keras_toy_resnet.py");
    let m = read(&src, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let adds = m.graph.nodes.iter().filter(|n| n.kind == "Add").count();
    assert_eq!(
        adds,
        2,
        "{:?}",
        m.graph.nodes.iter().map(|n| &n.kind).collect::<Vec<_>>()
    );
    assert_eq!(m.params, Some(223_242));
}

/// What padlab does not translate is refused with the line and the framework's construct.
#[test]
fn a_refusal_names_the_line_and_the_construct() {
    let src = corpus_text("refused/torch_segnet.py");
    let e = read(&src, &Options::default()).unwrap_err();
    assert!(e.line > 0, "{e}");
    assert!(
        e.to_string()
            .contains("return_indices=True is not translated by padlab"),
        "{e}"
    );
}

/// A model built after another that fails is the answer, not the smaller model before it.
#[test]
fn a_later_model_that_fails_is_not_replaced_by_an_earlier_one() {
    let src = "import keras\nfrom keras import layers\naug = keras.Sequential([layers.RandomFlip()])\nmodel = keras.Sequential([aug, layers.Dense(num_classes)])\n";
    let e = read(src, &Options::default()).unwrap_err();
    assert_eq!(e.line, 4, "{e}");
    assert!(e.message.contains("num_classes"), "{e}");
    assert!(e.message.contains("`aug`"), "{e}");
}

/// The MNIST example's Net, pasted without an input: its fc1 (9216 features) fixes 1x28x28,
/// and a note says the size was assumed (torch: [10]).
#[test]
fn an_input_fixed_by_the_first_linear_is_found_and_said() {
    let src = r#"
import torch
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc2(F.relu(self.fc1(x))), dim=1)
"#;
    let m = read(src, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.input, Some(vec![1, 28, 28]));
    assert!(
        m.graph.notes[0].starts_with("input 1×28×28 assumed"),
        "{:?}",
        m.graph.notes
    );
    // A fully convolutional model fixes nothing: no size is assumed.
    let conv = "import torch.nn as nn\nmodel = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))\n";
    let m = read(conv, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.input, None);
}

/// A Keras Model subclass without `call` that holds an encoder and a decoder (the TF CVAE
/// tutorial): the models are its sub-models, the last one read, the others named; without
/// sub-models the error is Keras's own.
#[test]
fn a_model_class_without_call_is_read_through_its_sub_models() {
    let src = corpus_text("keras_cvae.py");
    let m = read(&src, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        matches!(&m.origin, padlab::model::Origin::Code { build, .. } if build == "model.decoder")
    );
    assert_eq!(m.others, vec!["model.encoder".to_string()]);
    let out = m.graph.outputs[0];
    assert_eq!(m.graph.node(out.node).shape(), Some(&vec![2, 28, 28, 1]));
    let bare = "import keras\nclass Net(keras.Model):\n    def __init__(self):\n        super().__init__()\n        self.d = keras.layers.Dense(2)\nmodel = Net()\n";
    let e = read(
        bare,
        &Options {
            input: Some(vec![4]),
            model: None,
        },
    )
    .unwrap_err();
    assert!(e.message.contains("does not have a `call` method"), "{e}");
}

/// `layers.Normalization()` then `adapt(data)` (TF's regression and audio tutorials): the row
/// keeps its input's shape, a note says the statistics come from data, the parameter count is
/// not claimed; a random tensor the model draws is shaped like the tensor it copies.
#[test]
fn an_adapted_normalization_keeps_the_shape_and_says_why() {
    let src = r#"
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

features = np.load("features.npy")
norm = layers.Normalization(axis=-1)
norm.adapt(features)
model = tf.keras.Sequential([tf.keras.Input(shape=(9,)), norm, layers.Dense(64, activation="relu"), layers.Dense(1)])
"#;
    let m = read(src, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let n = m
        .graph
        .nodes
        .iter()
        .find(|n| n.kind == "Normalization")
        .unwrap();
    assert_eq!(n.shape(), Some(&vec![2, 9]));
    assert!(
        m.graph.notes.iter().any(|n| n.contains("adapt()")),
        "{:?}",
        m.graph.notes
    );
    // Its mean, variance and count are Keras weights: 9 + 9 + 1, then 640 and 65 (Keras's
    // count_params() of this model after adapt: 724).
    assert_eq!(m.params, Some(724));
    let out = m.graph.outputs[0];
    assert_eq!(m.graph.node(out.node).shape(), Some(&vec![2, 1]));
    // Noise of a fixed batch is not the model's: refused with its line.
    let fixed = "import keras\nfrom keras import ops, layers\nclass Noise(layers.Layer):\n    def call(self, x):\n        return x + keras.random.normal(shape=(32, 8))\ninp = keras.Input(shape=(8,))\nmodel = keras.Model(inp, Noise()(inp))\n";
    let e = read(fixed, &Options::default()).unwrap_err();
    assert_eq!(e.line, 5, "{e}");
}

/// A Keras model called at the top level on `tf.zeros([...])` (the custom-layers tutorial's
/// ResNet block) is read at that sample's shape; a functional model whose output a failed line
/// left names that line's construct, not "needs its outputs".
#[test]
fn keras_sample_tensors_and_failed_outputs() {
    let src = r#"
import tensorflow as tf

class Block(tf.keras.Model):
    def __init__(self, filters):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(filters, 3, padding="same")
        self.bn = tf.keras.layers.BatchNormalization()

    def call(self, x, training=False):
        return tf.nn.relu(self.bn(self.conv(x), training=training) + x)

block = Block(3)
_ = block(tf.zeros([1, 8, 8, 3]))
"#;
    let m = read(src, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.input, Some(vec![8, 8, 3]));
    let broken = "import keras\nimport einops\nfrom keras import layers\ninp = keras.Input(shape=(4, 8, 8, 3))\nx = layers.Conv3D(4, 3, padding=\"same\")(inp)\nx = einops.rearrange(x, \"b t h w c -> (b t) h w c\")\nx = layers.Conv2D(4, 3)(x)\nmodel = keras.Model(inp, x)\n";
    let e = read(broken, &Options::default()).unwrap_err();
    assert!(e.message.contains("einops.rearrange"), "{e}");
}

/// A script that trains one layer (`fc = torch.nn.Linear(W.size(0), 1)` in a loop, the PyTorch
/// regression example) has that layer as its model; a model that needs a required command-line
/// argument says which.
#[test]
fn a_lone_layer_is_the_model_and_a_required_argument_is_named() {
    let src = "import torch\nW = torch.randn(4, 1) * 5\nfc = torch.nn.Linear(W.size(0), 1)\nfor i in range(10):\n    fc.zero_grad()\n";
    let m = read(src, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.input, Some(vec![4]));
    let out = m.graph.outputs[0];
    assert_eq!(m.graph.node(out.node).shape(), Some(&vec![2, 1]));
    let args = "import argparse\nimport torch.nn as nn\nparser = argparse.ArgumentParser()\nparser.add_argument(\"--channels\", type=int, required=True)\nopt = parser.parse_args()\nmodel = nn.Sequential(nn.Conv2d(opt.channels, 8, 3))\n";
    let e = read(args, &Options::default()).unwrap_err();
    assert!(e.message.contains("--channels is required"), "{e}");
}

/// A custom layer's own weights (`add_weight`) in `x * self.gamma` and in
/// `ops.matmul(x, self.w) + self.b` are read for their shapes (Keras's: 57 operations of the
/// subclassed ResNet equal); a scale per channel is Keras's LayerScale, counted and ported
/// (the parameter count is Keras's own, 699,306); a weight that would change the tensor's
/// shape by broadcasting is refused with its line.
#[test]
fn a_custom_layers_own_weights_give_shapes_not_a_guess() {
    let src = corpus_text("keras_subclassed_blocks.py");
    let m = read(
        &src,
        &Options {
            input: Some(vec![32, 32, 3]),
            model: Some("SmallResNet(num_classes=10)".into()),
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = m.graph.outputs[0];
    assert_eq!(m.graph.node(out.node).shape(), Some(&vec![2, 10]));
    assert_eq!(m.params, Some(699_306));
    let dense = "import keras\nfrom keras import layers, ops\nclass MyDense(layers.Layer):\n    def __init__(self, units):\n        super().__init__()\n        self.units = units\n    def build(self, input_shape):\n        self.w = self.add_weight(shape=(input_shape[-1], self.units))\n        self.b = self.add_weight(shape=(self.units,))\n    def call(self, x):\n        return ops.matmul(x, self.w) + self.b\ninp = keras.Input(shape=(12,))\nmodel = keras.Model(inp, MyDense(5)(inp))\n";
    let m = read(dense, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let out = m.graph.outputs[0];
    assert_eq!(m.graph.node(out.node).shape(), Some(&vec![2, 5]));
    let wide = dense.replace("shape=(self.units,)", "shape=(3, self.units)");
    let e = read(&wide, &Options::default()).unwrap_err();
    assert_eq!(e.line, 11, "{e}");
}

/// Bounds: a loop that does not end and a model that doubles itself stop with the line.
#[test]
fn limits_stop_with_the_line() {
    let e = read("x = 0\nwhile True:\n    x += 1\n", &Options::default()).unwrap_err();
    assert!(e.line >= 2, "{e}");
    let mut doubling = String::from("import torch.nn as nn\nmodel = nn.Sequential(nn.ReLU())\n");
    for _ in 0..40 {
        doubling.push_str("model = nn.Sequential(model, model)\n");
    }
    let e = read(
        &doubling,
        &Options {
            input: Some(vec![4]),
            model: None,
        },
    )
    .unwrap_err();
    assert!(e.line > 0, "{e}");
}

/// `padlab port --json | head -c 1`: the closed pipe ends the CLI quietly.
#[test]
fn a_closed_pipe_ends_the_cli_quietly() {
    let src = corpus_text("keras_toy_resnet.py");
    let mut child = Command::new(env!("CARGO_BIN_EXE_padlab"))
        .args(["port", "--to", "torch", "--check"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(src.as_bytes())
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_lacks!(err, "panicked");
    assert!(out.status.success(), "{err}");
}

/// Recursion in the paste, through functions, methods, lambdas, a module's forward and
/// comprehensions: each is Python's own RecursionError with its line, on the worker's stack.
#[test]
fn recursion_in_the_paste_is_a_recursion_error_on_the_worker_stack() {
    let pastes = [
        "def f(a, b=2, *c, **d):\n    return f(a)\ny = f(1)\n",
        "def f(a):\n    return [f(a) for _ in range(2)]\nf(1)\n",
        "g = lambda q: g(q)\ng(1)\n",
        "import torch.nn as nn\nclass M(nn.Module):\n    def go(self, x):\n        return self.go(x)\n    def forward(self, x):\n        return self.go(x)\nmodel = M()\n",
        "def f(*a, **k):\n    return f(*a, **k)\nf(1, z=2)\n",
        "import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.c = nn.Conv2d(3, 4, 3)\n    def forward(self, x):\n        return self.forward(self.c(x))\nmodel = M()\n",
        "import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.m = M()\nmodel = M()\n",
    ];
    for src in pastes {
        let err = on_worker_stack(move || {
            read(
                src,
                &Options {
                    input: Some(vec![3, 16, 16]),
                    model: None,
                },
            )
            .map(|_| ())
        });
        let Err(e) = err else {
            panic!("read endless recursion:\n{src}")
        };
        assert!(
            e.message.contains("RecursionError") || e.message.contains("recursion"),
            "{src}\n{e}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(64) })]

    /// Any text: read or refused with a line inside the paste, never a panic.
    #[test]
    fn any_text_reads_or_fails_with_a_line(text in "[a-z_()\\[\\]=+*:, .0-9\\n\"'#]{0,400}") {
        match read(&text, &Options::default()) {
            Ok(m) => prop_assert!(m.graph.check().is_ok()),
            Err(e) => prop_assert!(e.line <= text.lines().count() + 1, "{}", e),
        }
    }

    /// Token soup made of model code: never a panic.
    #[test]
    fn model_token_soup_never_panics(words in prop::collection::vec(prop::sample::select(vec![
        "import torch.nn as nn\n", "class M(nn.Module):\n", "    def __init__(self):\n",
        "        super().__init__()\n", "        self.c = nn.Conv2d(3, 4, 3)\n", "    def forward(self, x):\n",
        "        return self.c(x)\n", "model = M()\n", "for i in range(3):\n", "    x = i\n",
        "def f(a, b=2, *c, **d):\n", "    return f(a)\n", "y = f(1)\n", "z = [k for k in range(9)]\n",
        "model = nn.Sequential(model, model)\n", ")", "(", ":", "lambda q: q\n",
    ]), 0..30)) {
        let text: String = words.concat();
        on_worker_stack(move || {
            let _ = read(&text, &Options { input: Some(vec![3, 16, 16]), model: None });
        });
    }
}

/// Normalization's statistics given as lists: read with their shape; ragged or too deep lists
/// are a ValueError on their line.
#[test]
fn normalization_statistics_are_read_with_their_shape_and_bounded() {
    let paste = |stats: &str| {
        format!(
            "import keras\nfrom keras import layers\n{stats}\nmodel = keras.Sequential([keras.Input(shape=(4, 3)), layers.Normalization(mean=m, variance=m)])\n"
        )
    };
    let read_on_worker = |src: String| {
        on_worker_stack(move || {
            read(
                &src,
                &Options {
                    input: None,
                    model: None,
                },
            )
            .map(|m| m.graph.nodes.len())
            .map_err(|e| (e.line, e.to_string()))
        })
    };
    assert!(read_on_worker(paste("m = [1.0, 2.0, 3.0]")).is_ok());
    // Ragged, and nested deeper than any statistics (9 levels; far deeper lists are in
    // `deeply_nested_values_never_overflow_the_worker_stack`).
    for bad in [
        "m = [[1, 2], 3]",
        "m = 1.0\nfor _ in range(9):\n    m = [m]",
    ] {
        let lines = bad.lines().count();
        let Err((line, why)) = read_on_worker(paste(bad)) else {
            panic!("read {bad}")
        };
        assert_eq!(line, 3 + lines, "{why}");
        assert_contains!(why, "ValueError");
    }
}

/// Values nested 100,000 deep, built by every construct that can hold a value (a loop rebinding
/// `m`, or a list grown through its last element), then compared, printed, hashed, searched and
/// dropped, in the middle of the run and at its end: read or refused on the worker's stack,
/// never a stack overflow (the page's worker would abort, and a model link can carry this).
#[test]
fn deeply_nested_values_never_overflow_the_worker_stack() {
    let builders = [
        "m = [m]",
        "m = (m,)",
        "m = {'a': m}",
        "m = dict(a=m)",
        "m = {(1, m): 2} if False else (1, m)",
        "m = A(m)",
        "m = functools.partial(f, m)",
        "m = make(m)",
        "m = with_default(m)",
        "m = slice(m)",
        "m = list([m, 1])",
        "m = [m][0:1]",
        "m = nn.Sequential(nn.Identity(), m) if isinstance(m, nn.Module) else nn.Sequential(nn.Identity())",
        "m = [x for x in [m]]",
        "m = staticmethod(m)",
        "m = [m].append",
        "m = nn.ModuleList([m]) if isinstance(m, nn.Module) else nn.ModuleList()",
        "m = keras.Sequential([m]) if isinstance(m, keras.Model) else keras.Sequential([keras.layers.ReLU()])",
        "m = {1: m}.values()",
        "m = undefined_name if i == 0 else m.a",
        "m = undefined_name if i == 0 else m[1]",
    ];
    let uses = [
        "m == m",
        "m == [m]",
        "str(m)",
        "f'{m}'",
        "print(m)",
        "{m: 1}",
        "m in [m]",
        "repr(m)",
        "sorted([m, m])",
        "m = None",
    ];
    for build in builders {
        for uses in [&uses[..], &[]] {
            let mut src = String::from(
                "import functools\nimport keras\nimport torch.nn as nn\ndef f(x):\n    return x\nclass A:\n    def __init__(self, p):\n        self.p = p\ndef make(g):\n    def h():\n        return g\n    return h\ndef with_default(g):\n    def h(q=g):\n        return q\n    return h\nm = 1\nfor i in range(100000):\n    ",
            );
            src.push_str(build);
            src.push('\n');
            for u in uses {
                src.push_str(&format!("try:\n    {u}\nexcept Exception:\n    pass\n"));
            }
            src.push_str("model = nn.Sequential(nn.Conv2d(3, 4, 3))\n");
            let lines = src.lines().count();
            let got = on_worker_stack(move || {
                read(
                    &src,
                    &Options {
                        input: Some(vec![3, 8, 8]),
                        model: None,
                    },
                )
                .map(|m| m.graph.nodes.len())
                .map_err(|e| e.line)
            });
            if let Err(line) = got {
                assert!(line <= lines, "{build}: line {line}");
            }
        }
    }
    // The model itself nested that deep: traced, or refused with a line.
    for (src, input) in [
        (
            "import torch.nn as nn\nm = nn.Identity()\nfor i in range(100000):\n    m = nn.Sequential(m)\nmodel = m\n",
            vec![3, 8, 8],
        ),
        (
            "import keras\nm = keras.layers.ReLU()\nfor i in range(100000):\n    m = keras.Sequential([m])\nmodel = m\n",
            vec![8, 8, 3],
        ),
        (
            "import torch.nn as nn\nimport copy\nm = nn.Identity()\nfor i in range(100000):\n    m = nn.Sequential(m)\nmodel = copy.deepcopy(m)\n",
            vec![3, 8, 8],
        ),
    ] {
        let got = on_worker_stack(move || {
            read(
                src,
                &Options {
                    input: Some(input),
                    model: None,
                },
            )
            .map(|_| ())
            .map_err(|e| e.line)
        });
        if let Err(line) = got {
            assert!(line <= src.lines().count(), "{src}: line {line}");
        }
    }
    // A list made deep through its last element, the outer name never rebound.
    let src = "import torch.nn as nn\nx = []\ncur = x\nfor i in range(100000):\n    nxt = []\n    cur.append(nxt)\n    cur = nxt\ntry:\n    y = x == [x]\nexcept Exception:\n    pass\ns = str(x)\nx = None\nmodel = nn.Sequential(nn.Conv2d(3, 4, 3))\n";
    let _ = on_worker_stack(move || {
        read(
            src,
            &Options {
                input: Some(vec![3, 8, 8]),
                model: None,
            },
        )
        .map(|_| ())
    });
}

/// A custom Keras layer whose weight's shape comes from its input (keras.io's `Linear`): with
/// no input size the error asks for one, on the `add_weight` line; given one, it reads.
#[test]
fn a_weight_shaped_by_the_input_asks_for_the_input() {
    let src = "import keras\nfrom keras import layers, ops\nclass Linear(layers.Layer):\n    def __init__(self, units=32):\n        super().__init__()\n        self.units = units\n    def build(self, input_shape):\n        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer='random_normal')\n        self.b = self.add_weight(shape=(self.units,), initializer='zeros')\n    def call(self, inputs):\n        return ops.matmul(inputs, self.w) + self.b\nclass Net(keras.Model):\n    def __init__(self):\n        super().__init__()\n        self.l = Linear(16)\n    def call(self, x):\n        return self.l(x)\nmodel = Net()\n";
    let e = read(src, &Options::default()).map(|_| ()).unwrap_err();
    assert_eq!(e.line, 8, "{e}");
    assert!(e.message.contains("give the input shape"), "{e}");
    let m = read(
        src,
        &Options {
            input: Some(vec![10]),
            model: None,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = m
        .graph
        .nodes
        .last()
        .and_then(|n| n.shape().cloned())
        .unwrap_or_default();
    assert_eq!(out.get(1..), Some(&[16][..]));
}

/// Layers whose eval output is not a function of one sample (torch's own defaults and flags):
/// refused on their line with the reason, never ported as their inference twin.
#[test]
fn layers_not_deterministic_per_sample_in_eval_are_refused_with_the_reason() {
    let cases = [
        (
            "nn.BatchNorm2d(8, track_running_stats=False)",
            "",
            "depends on the batch",
        ),
        // (An instance norm with running statistics *is* a function of one sample in eval: it
        // normalises by those statistics, a batch norm's inference; torch's own run agrees:
        // `real_pastes::an_instance_norm_with_running_statistics_is_a_batch_norm_in_eval`.)
        ("nn.Identity()", "x = F.dropout(x, 0.5)", "training=True"),
        (
            "nn.Identity()",
            "x = F.dropout2d(x, p=0.1, training=True)",
            "training=True",
        ),
    ];
    for (layer, extra, why) in cases {
        let src = format!(
            "import torch.nn as nn\nimport torch.nn.functional as F\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.c = nn.Conv2d(3, 8, 3)\n        self.n = {layer}\n    def forward(self, x):\n        x = self.n(self.c(x))\n        {}\n        return x\nmodel = M()\n",
            if extra.is_empty() { "pass" } else { extra }
        );
        let e = read(
            &src,
            &Options {
                input: Some(vec![3, 8, 8]),
                model: None,
            },
        )
        .map(|_| ())
        .unwrap_err();
        assert!(e.message.contains(why), "{layer} {extra}: {e}");
        assert_eq!(e.line, if extra.is_empty() { 7 } else { 10 }, "{e}");
    }
    // The usual forms stay what they were: dropout off in eval, batch statistics tracked.
    let src = "import torch.nn as nn\nimport torch.nn.functional as F\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.n = nn.BatchNorm2d(3)\n    def forward(self, x):\n        x = F.dropout(self.n(x), 0.5, training=self.training)\n        return F.alpha_dropout(x, 0.1)\nmodel = M()\n";
    read(
        src,
        &Options {
            input: Some(vec![3, 8, 8]),
            model: None,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

/// `x.view(-1, 400)` on 1,600 values a sample: torch folds four rows of each sample into the
/// batch; the row says so (the usual cause is a wrong input size), the shapes stay torch's.
#[test]
fn a_reshape_that_changes_the_batch_is_flagged() {
    let src = "import torch.nn as nn\nimport torch.nn.functional as F\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.conv = nn.Conv2d(1, 16, 5)\n        self.fc = nn.Linear(16 * 5 * 5, 10)\n    def forward(self, x):\n        x = F.max_pool2d(F.relu(self.conv(x)), 2)\n        x = x.view(-1, 16 * 5 * 5)\n        return self.fc(x)\nmodel = Net()\n";
    let flagged = |input: Vec<i64>| {
        let m = read(
            src,
            &Options {
                input: Some(input),
                model: None,
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let view = m
            .graph
            .nodes
            .iter()
            .find(|n| n.kind == "view")
            .expect("a view row");
        view.inferred
            .flags
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        flagged(vec![1, 24, 24]),
        ["the batch changes: each sample becomes 4 rows (is the input size right?)"]
    );
    assert!(flagged(vec![1, 14, 14]).is_empty());
}

/// A torch forward of two tensors (a conditional generator's `G(x, c)`, a Siamese pair): read
/// from the paste's own call on example tensors; without one, the error names the tensors.
#[test]
fn a_torch_forward_of_two_tensors_is_traced_from_the_pastes_call() {
    let net = "import torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.a = nn.Conv2d(3, 4, 3)\n        self.b = nn.Conv2d(1, 4, 3, padding=1)\n    def forward(self, x, c):\n        return self.a(x) + self.b(c)\nmodel = Net()\n";
    let called = format!("{net}y = model(torch.randn(1, 3, 8, 8), torch.randn(1, 1, 6, 6))\n");
    let m = read(&called, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let inputs: Vec<_> = m
        .graph
        .nodes
        .iter()
        .filter(|n| n.op == padlab::model::op::Op::Input)
        .collect();
    assert_eq!(inputs.len(), 2);
    assert_eq!(
        inputs[1].shape().map(|s| s[1..].to_vec()),
        Some(vec![1, 6, 6])
    );
    assert_eq!(
        m.graph
            .nodes
            .last()
            .and_then(|n| n.shape())
            .map(|s| s[1..].to_vec()),
        Some(vec![4, 6, 6])
    );
    let e = read(
        net,
        &Options {
            input: Some(vec![3, 8, 8]),
            model: None,
        },
    )
    .map(|_| ())
    .unwrap_err();
    assert_eq!(e.line, 8, "{e}");
    assert!(e.message.contains("takes 2 tensors (x, c)"), "{e}");
}

/// Where a paste states its input without calling the model: Keras `model.build(input_shape)`
/// of a subclassed model, torchsummary's `summary(model, (C, H, W))`, torchinfo's
/// `summary(model, input_size=(N, C, H, W))`. The summary call is left out of the check (its
/// library need not be installed).
#[test]
fn an_input_stated_by_build_or_a_summary_call_is_read() {
    let keras = "import tensorflow as tf\nclass Net(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n        self.c = tf.keras.layers.Conv2D(4, 3)\n    def call(self, x):\n        return self.c(x)\nmodel = Net()\nmodel.build(input_shape=(None, 28, 28, 1))\n";
    let torch = |call: &str| {
        format!(
            "import torch.nn as nn\n{call}\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.c = nn.Conv2d(1, 4, 3)\n    def forward(self, x):\n        return self.c(x)\nmodel = Net()\n"
        )
    };
    let cases = [
        (keras.to_string(), vec![26, 26, 4]),
        (
            torch("from torchsummary import summary") + "summary(model, (1, 28, 28))\n",
            vec![4, 26, 26],
        ),
        (
            torch("from torchinfo import summary") + "summary(model, input_size=(16, 1, 20, 20))\n",
            vec![4, 18, 18],
        ),
    ];
    for (src, out) in cases {
        let m = read(&src, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
        let got = m
            .graph
            .nodes
            .last()
            .and_then(|n| n.shape())
            .map(|s| s[1..].to_vec());
        assert_eq!(got, Some(out), "{src}");
        let padlab::model::Origin::Code { code, .. } = &m.origin else {
            panic!("not read as code")
        };
        assert!(!code.contains("summary"), "{code}");
    }
}
