//! Recurrent and attention layers (torch `nn.LSTM`/`GRU`/`RNN`/`MultiheadAttention`, Keras
//! `LSTM`/`GRU`/`SimpleRNN`/`Bidirectional`/`MultiHeadAttention`): the corpus's sequence models
//! read with every output's shape and the parameter count the frameworks give, ported to every
//! target, and what padlab cannot do exactly refused with the line. The shapes and counts are
//! the frameworks' own: `tests/models/truth_torch.py` / `truth_keras.py` printed them (one
//! sample, the batch axis left out; `params` is `sum(p.numel())` / `count_params()`).

use padlab::core::Framework;
use padlab::model::port::PortOptions;
use padlab::model::{Model, Options, read};

#[path = "common/corpus.rs"]
mod corpus;
use corpus::{corpus_text, header, port_paste, shape};

#[macro_use]
#[path = "common/text.rs"]
mod text;

/// A corpus model read with its headers.
fn corpus_model(file: &str) -> Model {
    let text = corpus_text(file);
    let options = Options {
        input: header(&text, "input").as_deref().map(shape),
        model: header(&text, "model"),
    };
    corpus::stack::on_deep_stack(move || read(&text, &options)).unwrap_or_else(|e| panic!("{e}"))
}

/// A paste read at `input`.
fn paste(src: &str, input: &[i64]) -> Result<Model, String> {
    read(
        src,
        &Options {
            input: Some(input.to_vec()),
            model: None,
        },
    )
    .map_err(|e| e.to_string())
}

/// Each row's name and every output's shape, without the batch axis (the torch state
/// `[layers * directions, batch, hidden]` loses its first axis, as the referee prints it).
fn rows(m: &Model) -> Vec<(String, Vec<Vec<i64>>)> {
    m.graph
        .nodes
        .iter()
        .filter(|n| n.kind != "Input")
        .map(|n| {
            let shapes = n
                .inferred
                .outputs
                .iter()
                .map(|s| s.as_ref().map(|s| s[1..].to_vec()).unwrap_or_default())
                .collect();
            (n.name.clone(), shapes)
        })
        .collect()
}

fn row<'a>(rows: &'a [(String, Vec<Vec<i64>>)], name: &str) -> &'a [Vec<i64>] {
    &rows
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no row {name} in {rows:?}"))
        .1
}

/// Every target writes a port (the self-checks run in `tests/models/verify.py`).
fn ports_everywhere(file: &str) {
    for target in [
        Framework::Torch,
        Framework::Keras,
        Framework::Tf,
        Framework::Jax,
    ] {
        let ported = port_paste(corpus_text(file), target, PortOptions::default());
        if let Err(e) = ported {
            panic!("{file} -> {target:?}: {e}");
        }
    }
}

#[test]
fn a_torch_lstm_classifier_takes_the_last_step() {
    let m = corpus_model("torch_lstm_text_classifier.py");
    let r = rows(&m);
    assert_eq!(row(&r, "lstm"), [vec![40, 128], vec![2, 128], vec![2, 128]]);
    assert_eq!(row(&r, "fc"), [vec![4]]);
    assert_eq!(m.params, Some(551_940));
    ports_everywhere("torch_lstm_text_classifier.py");
}

#[test]
fn a_torch_gru_from_a_zero_state_reads_its_last_layers_state() {
    let m = corpus_model("torch_gru_sequence.py");
    // The zeros made in the forward are the default state: not an input of the model.
    assert_eq!(m.graph.inputs().count(), 1);
    let r = rows(&m);
    assert_eq!(row(&r, "gru"), [vec![25, 32], vec![2, 32]]);
    assert_eq!(row(&r, "fc"), [vec![3]]);
    assert_eq!(m.params, Some(11_235));
    ports_everywhere("torch_gru_sequence.py");
}

#[test]
fn a_bidirectional_torch_lstm_joins_its_last_two_states() {
    let m = corpus_model("torch_bilstm_cat_hidden.py");
    let r = rows(&m);
    assert_eq!(row(&r, "rnn"), [vec![2, 128], vec![2, 64], vec![2, 64]]);
    assert_eq!(row(&r, "cat"), [vec![128]]);
    assert_eq!(row(&r, "fc"), [vec![2]]);
    assert_eq!(m.params, Some(258_978));
    ports_everywhere("torch_bilstm_cat_hidden.py");
}

#[test]
fn torch_attention_returns_its_output_and_averaged_weights() {
    let m = corpus_model("torch_mha_block.py");
    let r = rows(&m);
    assert_eq!(row(&r, "attn"), [vec![12, 32], vec![12, 12]]);
    assert_eq!(row(&r, "head"), [vec![5]]);
    assert_eq!(m.params, Some(12_869));
    ports_everywhere("torch_mha_block.py");
}

#[test]
fn a_keras_bidirectional_lstm_classifier() {
    let m = corpus_model("keras_bilstm_text_classifier.py");
    let r = rows(&m);
    assert_eq!(row(&r, "bidirectional"), [vec![200, 128]]);
    assert_eq!(row(&r, "bidirectional_1"), [vec![64]]);
    assert_eq!(row(&r, "dense_1"), [vec![1]]);
    assert_eq!(m.params, Some(2_701_089));
    ports_everywhere("keras_bilstm_text_classifier.py");
}

#[test]
fn keras_states_reset_before_and_a_summed_bidirectional() {
    let m = corpus_model("keras_gru_states.py");
    let r = rows(&m);
    assert_eq!(row(&r, "gru"), [vec![20, 32], vec![32]]);
    assert_eq!(row(&r, "gru_1"), [vec![20, 16]]);
    assert_eq!(row(&r, "simple_rnn"), [vec![20, 12]]);
    assert_eq!(row(&r, "bidirectional"), [vec![8]]);
    assert_eq!(row(&r, "concatenate"), [vec![24]]);
    assert_eq!(m.params, Some(8_341));
    ports_everywhere("keras_gru_states.py");
}

#[test]
fn a_keras_transformer_block_names_its_layers_as_keras_does() {
    let m = corpus_model("keras_transformer_block.py");
    let r = rows(&m);
    assert_eq!(row(&r, "multi_head_attention"), [vec![16, 32]]);
    // The attention's own dropout took the name `dropout` when it was built.
    assert_eq!(row(&r, "dropout_1"), [vec![16, 32]]);
    assert_eq!(row(&r, "dense_1"), [vec![3]]);
    assert_eq!(m.params, Some(13_891));
    ports_everywhere("keras_transformer_block.py");
}

#[test]
fn torch_states_sliced_and_attention_without_weights() {
    let m = corpus_model("torch_bilstm_attention_states.py");
    let r = rows(&m);
    assert_eq!(row(&r, "lstm"), [vec![2, 48], vec![2, 24], vec![2, 24]]);
    // need_weights=False: the weights are None, not an output.
    assert_eq!(row(&r, "attn"), [vec![2, 48]]);
    assert_eq!(row(&r, "cat"), [vec![144]]);
    assert_eq!(m.params, Some(33_715));
    ports_everywhere("torch_bilstm_attention_states.py");
}

#[test]
fn keras_bidirectional_merges_states_and_go_backwards() {
    let m = corpus_model("keras_bidirectional_merges.py");
    let r = rows(&m);
    assert_eq!(
        row(&r, "bidirectional"),
        [
            vec![10, 16],
            vec![10, 16],
            vec![16],
            vec![16],
            vec![16],
            vec![16]
        ]
    );
    assert_eq!(row(&r, "bidirectional_1"), [vec![10, 6]]);
    assert_eq!(row(&r, "bidirectional_2"), [vec![5]]);
    // The LSTM inside the first Bidirectional took the name `lstm`.
    assert_eq!(row(&r, "lstm_1"), [vec![7]]);
    assert_eq!(row(&r, "concatenate"), [vec![44]]);
    assert_eq!(m.params, Some(4_643));
    ports_everywhere("keras_bidirectional_merges.py");
}

/// Keras's parameter counts for each cell and merge (`count_params()` of each model).
#[test]
fn keras_recurrent_parameter_counts() {
    let cases: &[(&str, i64)] = &[
        ("layers.LSTM(16)", 1_600),
        ("layers.GRU(16)", 1_248),
        ("layers.GRU(16, reset_after=False)", 1_200),
        ("layers.SimpleRNN(16, use_bias=False)", 384),
        (
            "layers.Bidirectional(layers.LSTM(16), merge_mode='ave')",
            3_200,
        ),
    ];
    for &(layer, want) in cases {
        let src = format!(
            "import keras\nfrom keras import layers\nmodel = keras.Sequential([keras.Input(shape=(10, 8)), {layer}])\n"
        );
        let m = paste(&src, &[10, 8]).unwrap_or_else(|e| panic!("{layer}: {e}"));
        assert_eq!(m.params, Some(want), "{layer}");
        assert_eq!(
            m.graph.nodes.last().and_then(|n| n.shape()),
            Some(&vec![2, 16])
        );
    }
}

/// Keras attention between a query and another sequence: value_dim, output_shape and the
/// scores (Keras runs `(2, 2, 10, 7)`; its symbolic graph says `(2, 2, 10, 10)`, which the
/// run does not give).
#[test]
fn keras_cross_attention_shapes_and_count() {
    let src = "import keras\nfrom keras import layers\n\
        inp = keras.Input(shape=(10, 8))\nkv = keras.Input(shape=(7, 5))\n\
        out, scores = layers.MultiHeadAttention(2, 8, value_dim=4, output_shape=6)(inp, kv, return_attention_scores=True)\n\
        model = keras.Model([inp, kv], [out, scores])\n";
    let m = read(src, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let r = rows(&m);
    assert_eq!(
        row(&r, "multi_head_attention"),
        [vec![10, 6], vec![2, 10, 7]]
    );
    assert_eq!(m.params, Some(342));
}

/// Keras's Bidirectional with merge_mode=None gives each direction, then each one's states.
#[test]
fn a_bidirectional_without_merge_gives_every_output() {
    let src = "import keras\nfrom keras import layers\n\
        inp = keras.Input(shape=(10, 8))\n\
        outs = layers.Bidirectional(layers.LSTM(16, return_state=True, return_sequences=True), merge_mode=None)(inp)\n\
        model = keras.Model(inp, outs[0])\n";
    let m = paste(src, &[10, 8]).unwrap_or_else(|e| panic!("{e}"));
    let r = rows(&m);
    assert_eq!(
        row(&r, "bidirectional"),
        [
            vec![10, 16],
            vec![10, 16],
            vec![16],
            vec![16],
            vec![16],
            vec![16]
        ]
    );
}

/// torch's counts: `sum(p.numel() for p in m.parameters())`.
#[test]
fn torch_recurrent_and_attention_parameter_counts() {
    let cases: &[(&str, &[i64], i64)] = &[
        (
            "nn.RNN(8, 16, nonlinearity='relu', num_layers=3)",
            &[5, 8],
            1_504,
        ),
        (
            "nn.GRU(8, 16, bias=False, bidirectional=True)",
            &[5, 8],
            2_304,
        ),
        ("nn.MultiheadAttention(12, 3, bias=False)", &[5, 12], 576),
    ];
    for &(layer, input, want) in cases {
        let call = if layer.contains("Attention") {
            "self.m(x, x, x)[0]"
        } else {
            "self.m(x)[0]"
        };
        let src = format!(
            "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.m = {layer}\n\n    def forward(self, x):\n        return {call}\n\nmodel = Net()\n"
        );
        let m = paste(&src, input).unwrap_or_else(|e| panic!("{layer}: {e}"));
        assert_eq!(m.params, Some(want), "{layer}");
    }
}

/// A torch MultiheadAttention with its own key and value sizes and per-head weights (torch:
/// `torch.Size([2, 10, 12])`, `torch.Size([2, 3, 10, 10])`, 636 parameters with the two
/// Linears that make the key and the value).
#[test]
fn torch_attention_with_kdim_and_vdim() {
    let src = "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.kp = nn.Linear(12, 5)\n        self.vp = nn.Linear(12, 7)\n        self.mha = nn.MultiheadAttention(12, 3, kdim=5, vdim=7, batch_first=True)\n\n    def forward(self, x):\n        return self.mha(x, self.kp(x), self.vp(x), average_attn_weights=False)\n\nmodel = Net()\n";
    let m = paste(src, &[10, 12]).unwrap_or_else(|e| panic!("{e}"));
    let r = rows(&m);
    assert_eq!(row(&r, "mha"), [vec![10, 12], vec![3, 10, 10]]);
    assert_eq!(m.params, Some(636));
}

/// What padlab cannot do exactly is an error naming the line and the construct.
#[test]
fn what_is_not_exact_is_refused_with_the_line() {
    let keras = |body: &str| {
        format!(
            "import keras\nfrom keras import layers\ninp = keras.Input(shape=(10, 8))\n{body}\nmodel = keras.Model(inp, x)\n"
        )
    };
    let torch = |init: &str, forward: &str| {
        format!(
            "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.m = {init}\n\n    def forward(self, x):\n        {forward}\n\nmodel = Net()\n"
        )
    };
    let cases: Vec<(String, &[i64], &str)> = vec![
        (
            keras("x = layers.LSTM(4, stateful=True)(inp)"),
            &[10, 8],
            "stateful=True",
        ),
        (
            keras("x = layers.LSTM(4)(inp, mask=None, initial_state=[inp, inp])"),
            &[10, 8],
            "initial_state",
        ),
        (
            keras("x = layers.MultiHeadAttention(2, 4)(inp, inp, use_causal_mask=True)"),
            &[10, 8],
            "use_causal_mask",
        ),
        (
            keras("x = layers.MultiHeadAttention(2, 4, attention_axes=(1,))(inp, inp)"),
            &[10, 8],
            "attention_axes",
        ),
        (
            "import keras\nfrom keras import layers\nmodel = keras.Sequential([keras.Input(shape=(5, 8, 8, 1)), layers.ConvLSTM2D(4, 3)])\n".to_string(),
            &[5, 8, 8, 1],
            "ConvLSTM2D",
        ),
        (
            torch("nn.LSTM(8, 4)", "return self.m(x, (torch.ones(1, x.size(1), 4), torch.ones(1, x.size(1), 4)))[0]"),
            &[2, 8],
            "not zeros",
        ),
        (
            torch("nn.LSTM(8, 4, proj_size=2)", "return self.m(x)[0]"),
            &[2, 8],
            "proj_size",
        ),
        (
            torch("nn.LSTM(8, 4, num_layers=1000)", "return self.m(x)[0]"),
            &[2, 8],
            "num_layers=1000",
        ),
        (
            torch("nn.LSTMCell(8, 4)", "return self.m(x)[0]"),
            &[8],
            "LSTMCell",
        ),
        (
            torch("nn.MultiheadAttention(8, 2)", "return self.m(x, x, x, attn_mask=torch.ones(5, 5))[0]"),
            &[2, 8],
            "attn_mask",
        ),
        (
            torch("nn.TransformerEncoderLayer(8, 2)", "return self.m(x)"),
            &[2, 8],
            "TransformerEncoderLayer",
        ),
    ];
    for (src, input, what) in cases {
        match paste(&src, input) {
            Ok(m) => panic!("{what}: read as {:?}", rows(&m)),
            Err(e) => {
                assert_contains!(e, what);
                assert_contains!(e, "line ");
            }
        }
    }
}

/// Sizes at the 64-bit limits, zero or negative: an error or a model, never a panic, and a
/// model read ports or refuses with an error.
#[test]
fn extreme_sizes_never_panic() {
    let torch_layers = [
        "nn.LSTM(8, 2**62)",
        "nn.LSTM(8, 4, num_layers=2**62)",
        "nn.GRU(8, 2**40, num_layers=2**20, bidirectional=True)",
        "nn.RNN(8, 0)",
        "nn.LSTM(8, -3)",
        "nn.LSTM(2**63 - 1, 4)",
        "nn.MultiheadAttention(2**62, 2)",
        "nn.MultiheadAttention(8, 2**62)",
        "nn.MultiheadAttention(8, 0)",
    ];
    for layer in torch_layers {
        let call = if layer.contains("Attention") {
            "self.m(x, x, x)[0]"
        } else {
            "self.m(x)[0]"
        };
        let src = format!(
            "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.m = {layer}\n\n    def forward(self, x):\n        return {call}\n\nmodel = Net()\n"
        );
        exercise(&src, &[5, 8]);
    }
    let keras_layers = [
        "layers.LSTM(2**62)",
        "layers.GRU(2**61, reset_after=True)",
        "layers.Bidirectional(layers.SimpleRNN(2**62))",
        "layers.LSTM(0)",
        "layers.MultiHeadAttention(2**62, 2**62)",
        "layers.MultiHeadAttention(2, 2**62, output_shape=2**62)",
        "layers.MultiHeadAttention(-1, 4)",
    ];
    for layer in keras_layers {
        let call = if layer.contains("Attention") {
            "(inp, inp)"
        } else {
            "(inp)"
        };
        let src = format!(
            "import keras\nfrom keras import layers\ninp = keras.Input(shape=(5, 8))\nx = {layer}{call}\nmodel = keras.Model(inp, x)\n"
        );
        exercise(&src, &[5, 8]);
    }
}

fn exercise(src: &str, input: &[i64]) {
    let Ok(m) = paste(src, input) else {
        return;
    };
    let _ = m.params;
    for target in [
        Framework::Torch,
        Framework::Keras,
        Framework::Tf,
        Framework::Jax,
    ] {
        let _ = padlab::model::port::port(&m, target, PortOptions::default());
    }
}
