//! Recurrent and attention layers as the evaluator knows them: Keras's `LSTM`, `GRU`,
//! `SimpleRNN`, `Bidirectional` and `MultiHeadAttention` built from their calls (torch's are in
//! `layers::torch_op`, one signature table), and calling any of them: a torch recurrent layer
//! on a sequence and an optional zero state, giving `out, (h_n, c_n)` / `out, h_n`; a Keras one
//! giving its output, or a list with its states; attention on a query, key and value, giving
//! torch's `(out, weights)` or Keras's output (and scores).

use std::rc::Rc;

use crate::core::Framework;
use crate::model::op::{Activation, Attention, CellKind, Merge, Op, Recurrent, RecurrentForm};

use super::eval::{Ev, Interp, Site, raise, unsupported};
use super::layers::{Bound, bind, keras_activation, new_layer, outputs_value, tensor_of};
use super::value::{Args, Layer, LayerKind, Tensor, Value};

/// The parameters of Keras's recurrent layers, in positional order.
const KERAS_LSTM: &[&str] = &[
    "units",
    "activation",
    "recurrent_activation",
    "use_bias",
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "unit_forget_bias",
    "kernel_regularizer",
    "recurrent_regularizer",
    "bias_regularizer",
    "activity_regularizer",
    "kernel_constraint",
    "recurrent_constraint",
    "bias_constraint",
    "dropout",
    "recurrent_dropout",
    "seed",
    "return_sequences",
    "return_state",
    "go_backwards",
    "stateful",
    "unroll",
    "use_cudnn",
];

const KERAS_GRU: &[&str] = &[
    "units",
    "activation",
    "recurrent_activation",
    "use_bias",
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "kernel_regularizer",
    "recurrent_regularizer",
    "bias_regularizer",
    "activity_regularizer",
    "kernel_constraint",
    "recurrent_constraint",
    "bias_constraint",
    "dropout",
    "recurrent_dropout",
    "seed",
    "return_sequences",
    "return_state",
    "go_backwards",
    "stateful",
    "unroll",
    "reset_after",
    "use_cudnn",
];

const KERAS_SIMPLE_RNN: &[&str] = &[
    "units",
    "activation",
    "use_bias",
    "kernel_initializer",
    "recurrent_initializer",
    "bias_initializer",
    "kernel_regularizer",
    "recurrent_regularizer",
    "bias_regularizer",
    "activity_regularizer",
    "kernel_constraint",
    "recurrent_constraint",
    "bias_constraint",
    "dropout",
    "recurrent_dropout",
    "return_sequences",
    "return_state",
    "go_backwards",
    "stateful",
    "unroll",
    "seed",
];

const KERAS_BIDIRECTIONAL: &[&str] = &["layer", "merge_mode", "weights", "backward_layer"];

const KERAS_ATTENTION: &[&str] = &[
    "num_heads",
    "key_dim",
    "value_dim",
    "dropout",
    "use_bias",
    "output_shape",
    "attention_axes",
    "flash_attention",
    "kernel_initializer",
    "bias_initializer",
    "kernel_regularizer",
    "bias_regularizer",
    "activity_regularizer",
    "kernel_constraint",
    "bias_constraint",
    "seed",
];

/// A Keras activation argument by name (`'tanh'`, `keras.activations.relu`), or `default`.
fn activation(b: &Bound, name: &str, default: Activation) -> Ev<Activation> {
    let text = match b.get(name) {
        None => return Ok(default),
        Some(Value::Str(s)) => s.to_string(),
        Some(Value::Api(p)) => p.rsplit('.').next().unwrap_or(p).to_string(),
        Some(other) => {
            return Err(unsupported(
                b.line,
                format!(
                    "{}: {name}={} is not translated by padlab",
                    b.class,
                    other.repr()
                ),
            ));
        }
    };
    match keras_activation(&text) {
        Some(Some(a)) => Ok(a),
        _ => Err(unsupported(
            b.line,
            format!(
                "{}: {name}='{text}' is not translated by padlab (a recurrent cell's activation must be an element-wise function)",
                b.class
            ),
        )),
    }
}

/// Keras's `LSTM`, `GRU`, `SimpleRNN` from their bound arguments.
fn keras_recurrent(b: &Bound, family: &str) -> Ev<Recurrent> {
    let cell = match family {
        "lstm" => CellKind::Lstm,
        "gru" => CellKind::Gru {
            reset_after: b.boolean("reset_after")?.unwrap_or(true),
        },
        _ => CellKind::Simple,
    };
    if b.boolean("stateful")?.unwrap_or(false) {
        return Err(unsupported(
            b.line,
            format!(
                "{}(stateful=True) carries its state from one batch to the next: padlab ports a model whose output depends on its input alone",
                b.class
            ),
        ));
    }
    let units = b.required_int("units")?;
    if units < 1 {
        return Err(raise(
            b.line,
            "ValueError",
            format!(
                "Received an invalid value for argument `units`, expected a positive integer, got {units}."
            ),
        ));
    }
    Ok(Recurrent {
        cell,
        hidden: units,
        input_size: None,
        layers: 1,
        bidirectional: false,
        activation: activation(b, "activation", Activation::Tanh)?,
        recurrent_activation: if cell == CellKind::Simple {
            Activation::Sigmoid
        } else {
            activation(b, "recurrent_activation", Activation::Sigmoid)?
        },
        bias: b.boolean("use_bias")?.unwrap_or(true),
        form: RecurrentForm::Keras {
            sequences: b.boolean("return_sequences")?.unwrap_or(false),
            states: b.boolean("return_state")?.unwrap_or(false),
            go_backwards: b.boolean("go_backwards")?.unwrap_or(false),
            merge: Merge::Concat,
        },
    })
}

/// Builds a Keras recurrent or attention layer (`family` is the class lowercased).
pub fn keras_construct(
    it: &mut Interp,
    class: &str,
    family: &str,
    args: Args,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let params = match family {
        "lstm" => KERAS_LSTM,
        "gru" => KERAS_GRU,
        "simplernn" => KERAS_SIMPLE_RNN,
        "bidirectional" => KERAS_BIDIRECTIONAL,
        _ => KERAS_ATTENTION,
    };
    let b = bind(Framework::Keras, class, params, args, line)?;
    let op = match family {
        "lstm" | "gru" | "simplernn" => Op::Recurrent(keras_recurrent(&b, family)?),
        "bidirectional" => {
            if b.get("backward_layer").is_some() {
                return Err(unsupported(
                    line,
                    "Bidirectional(backward_layer=...): padlab reads the backward direction as a copy of the forward layer",
                ));
            }
            let inner = match b.get("layer") {
                Some(Value::Layer(l)) => l.clone(),
                Some(Value::Poison(f)) => return Err((**f).clone()),
                Some(other) => {
                    return Err(raise(
                        line,
                        "ValueError",
                        format!(
                            "Please initialize `Bidirectional` layer with a `keras.layers.Layer` instance. Received: {}",
                            other.repr()
                        ),
                    ));
                }
                None => {
                    return Err(raise(
                        line,
                        "TypeError",
                        "Bidirectional.__init__() missing 1 required positional argument: 'layer'",
                    ));
                }
            };
            let LayerKind::Op(Op::Recurrent(r)) = &inner.kind else {
                return Err(unsupported(
                    line,
                    format!(
                        "Bidirectional({}): padlab reads Bidirectional around LSTM, GRU and SimpleRNN",
                        inner.class
                    ),
                ));
            };
            let merge = match b.get("merge_mode") {
                None if b.values.iter().any(|(k, _)| *k == "merge_mode") => Merge::Apart,
                None => Merge::Concat,
                Some(_) => match b.string("merge_mode")?.as_deref() {
                    Some("concat") => Merge::Concat,
                    Some("sum") => Merge::Sum,
                    Some("mul") => Merge::Mul,
                    Some("ave") => Merge::Ave,
                    other => {
                        return Err(raise(
                            line,
                            "ValueError",
                            format!(
                                "Invalid merge mode. Received: {}. Merge mode should be one of {{\"sum\", \"mul\", \"ave\", \"concat\", None}}",
                                other.unwrap_or("")
                            ),
                        ));
                    }
                },
            };
            let mut r = r.clone();
            let RecurrentForm::Keras {
                sequences,
                states,
                go_backwards,
                ..
            } = r.form
            else {
                return Err(unsupported(line, "Bidirectional around a torch layer"));
            };
            if go_backwards {
                return Err(unsupported(
                    line,
                    "Bidirectional around a layer with go_backwards=True is not translated by padlab",
                ));
            }
            r.bidirectional = true;
            r.form = RecurrentForm::Keras {
                sequences,
                states,
                go_backwards: false,
                merge,
            };
            Op::Recurrent(r)
        }
        _ => {
            if b.get("attention_axes").is_some() {
                return Err(b_untranslated(&b, "attention_axes"));
            }
            let heads = b.required_int("num_heads")?;
            let key_dim = b.required_int("key_dim")?;
            let value_dim = b.int("value_dim")?.unwrap_or(key_dim);
            let output_dim = match b.get("output_shape") {
                None => None,
                Some(Value::Tuple(t)) if t.len() == 1 => {
                    Some(super::builtins::as_int(&t[0], line)?)
                }
                Some(v @ Value::Int(_)) => Some(super::builtins::as_int(v, line)?),
                Some(other) => {
                    return Err(b_untranslated(&b, format!("output_shape={}", other.repr())));
                }
            };
            if heads < 1 || key_dim < 1 || value_dim < 1 {
                return Err(raise(
                    line,
                    "ValueError",
                    "num_heads, key_dim and value_dim must be positive",
                ));
            }
            Op::Attention(Attention {
                heads,
                key_dim,
                value_dim,
                output_dim,
                declared: None,
                bias: b.boolean("use_bias")?.unwrap_or(true),
                batch_first: true,
                weights: None,
            })
        }
    };
    let name = match b.name.clone() {
        Some(n) => n,
        None => Rc::from(super::keras::auto_name(it, class).as_str()),
    };
    let args: Vec<(Rc<str>, Value)> = b
        .values
        .iter()
        .map(|(k, v)| (Rc::from(*k), v.clone()))
        .collect();
    Ok(new_layer(
        it,
        Framework::Keras,
        class,
        LayerKind::Op(op),
        site,
        Some(name),
        args,
    ))
}

fn b_untranslated(b: &Bound, what: impl std::fmt::Display) -> super::eval::Failure {
    unsupported(
        b.line,
        format!("{}: {what} is not translated by padlab", b.class),
    )
}

/// A keyword argument's value, when given and not `None`.
fn keyword<'a>(kw: &'a [(Rc<str>, Value)], name: &str) -> Option<&'a Value> {
    kw.iter()
        .find(|(k, _)| k.as_ref() == name)
        .map(|(_, v)| v)
        .filter(|v| !matches!(v, Value::None))
}

/// Whether `t` is all zeros by construction (`torch.zeros(...)`, `torch.zeros_like(x)`,
/// through `.to(device)`): an initial state equal to the default one.
fn is_zeros(it: &Interp, t: &Tensor) -> bool {
    let n = t.edge.node.0;
    match it.graph.nodes.get(n).map(|node| &node.op) {
        Some(Op::Affine {
            scale: 0.0,
            offset: 0.0,
        }) => true,
        Some(Op::Input) => it
            .trace
            .get(n)
            .and_then(|tr| tr.function.as_deref())
            .is_some_and(|f| f == "zeros"),
        _ => false,
    }
}

/// Calls a recurrent layer on its input (torch: and an initial state, which must be zeros).
pub fn call_recurrent(
    it: &mut Interp,
    l: &Rc<Layer>,
    op: &Op,
    input: Value,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let Op::Recurrent(r) = op else {
        return Err(unsupported(line, "not a recurrent layer"));
    };
    let x = tensor_of(&input, line)?;
    if let RecurrentForm::Torch { .. } = r.form {
        // The initial state: none, or zeros (what torch starts from without one).
        let state = pos.get(1).or_else(|| keyword(&kw, "hx"));
        if let Some(state) = state {
            let parts = match state {
                Value::Tuple(t) => t.to_vec(),
                Value::List(l) => l.borrow().to_vec(),
                other => vec![other.clone()],
            };
            let want = r.cell.states();
            if parts.len() != want {
                return Err(raise(
                    line,
                    "RuntimeError",
                    format!(
                        "nn.{}: the initial state has {} tensors, the layer {want}",
                        l.class,
                        parts.len()
                    ),
                ));
            }
            for p in &parts {
                let t = tensor_of(p, line)?;
                if !is_zeros(it, &t) {
                    return Err(unsupported(
                        line,
                        format!(
                            "nn.{}: an initial state that is not zeros (torch.zeros or zeros_like) is not translated by padlab",
                            l.class
                        ),
                    ));
                }
                if let (Some(s), Some(xs)) = (&t.shape, &x.shape) {
                    let batch = match r.form {
                        RecurrentForm::Torch { batch_first: true } => xs.first(),
                        _ => xs.get(1),
                    };
                    let want = [
                        r.layers.saturating_mul(r.directions()),
                        batch.copied().unwrap_or(0),
                        r.hidden,
                    ];
                    if s.as_slice() != want {
                        return Err(raise(
                            line,
                            "RuntimeError",
                            format!(
                                "Expected hidden size ({}, {}, {}), got [{}]",
                                want[0],
                                want[1],
                                want[2],
                                s.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
                            ),
                        ));
                    }
                }
            }
        }
    } else {
        for refused in ["initial_state", "mask", "constants"] {
            if keyword(&kw, refused).is_some() || (refused == "initial_state" && pos.len() > 1) {
                return Err(unsupported(
                    line,
                    format!(
                        "{}: calling it with {refused}= is not translated by padlab",
                        l.class
                    ),
                ));
            }
        }
    }
    let out = it.record(op.clone(), &l.class, &[x], l.framework, site, Some(l), None)?;
    Ok(match r.form {
        // `out, (h_n, c_n)` or `out, h_n`.
        RecurrentForm::Torch { .. } => {
            let mut out = out.into_iter().map(Value::Tensor);
            let first = out.next().unwrap_or(Value::None);
            let states: Vec<Value> = out.collect();
            let states = if states.len() == 1 {
                states.into_iter().next().unwrap_or(Value::None)
            } else {
                Value::tuple(states)
            };
            Value::tuple(vec![first, states])
        }
        RecurrentForm::Keras { .. } if out.len() > 1 => {
            Value::list(out.into_iter().map(Value::Tensor).collect())
        }
        RecurrentForm::Keras { .. } => outputs_value(out),
    })
}

/// Calls an attention layer: torch `mha(query, key, value)` giving `(out, weights)`, Keras
/// `mha(query, value, key=None)` giving the output (and the scores when asked).
pub fn call_attention(
    it: &mut Interp,
    l: &Rc<Layer>,
    op: &Op,
    input: Value,
    Args { pos, kw }: Args,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let Op::Attention(a) = op else {
        return Err(unsupported(line, "not an attention layer"));
    };
    let mut a = a.clone();
    let at = |k: usize, name: &str| pos.get(k).or_else(|| keyword(&kw, name)).cloned();
    let (q, k, v) = if l.framework == Framework::Torch {
        for refused in ["key_padding_mask", "attn_mask"] {
            if keyword(&kw, refused).is_some() || pos.len() > 3 {
                return Err(unsupported(
                    line,
                    format!(
                        "nn.MultiheadAttention: a mask ({refused}) is not translated by padlab"
                    ),
                ));
            }
        }
        if keyword(&kw, "is_causal").is_some_and(|v| !matches!(v, Value::Bool(false))) {
            return Err(unsupported(
                line,
                "nn.MultiheadAttention: is_causal=True is not translated by padlab",
            ));
        }
        if let Some(Value::Bool(false)) = keyword(&kw, "need_weights") {
            a.weights = None;
        }
        if let Some(Value::Bool(false)) = keyword(&kw, "average_attn_weights")
            && a.weights.is_some()
        {
            a.weights = Some(false);
        }
        let q = at(0, "query").unwrap_or(input);
        let k = at(1, "key");
        let v = at(2, "value");
        match (k, v) {
            (Some(k), Some(v)) => (q, k, v),
            _ => {
                return Err(raise(
                    line,
                    "TypeError",
                    "MultiheadAttention.forward() missing required positional arguments: 'key' and 'value'",
                ));
            }
        }
    } else {
        for refused in [
            "attention_mask",
            "query_mask",
            "value_mask",
            "key_mask",
            "use_causal_mask",
        ] {
            if keyword(&kw, refused).is_some_and(|v| !matches!(v, Value::Bool(false))) {
                return Err(unsupported(
                    line,
                    format!(
                        "{}: calling it with {refused}= is not translated by padlab",
                        l.class
                    ),
                ));
            }
        }
        if pos.len() > 3 {
            return Err(unsupported(
                line,
                format!("{}: a mask is not translated by padlab", l.class),
            ));
        }
        if let Some(Value::Bool(true)) = keyword(&kw, "return_attention_scores") {
            a.weights = Some(false);
        }
        let q = at(0, "query").unwrap_or(input);
        let Some(v) = at(1, "value") else {
            return Err(raise(
                line,
                "TypeError",
                "MultiHeadAttention.call() missing 1 required positional argument: 'value'",
            ));
        };
        let k = at(2, "key").unwrap_or_else(|| v.clone());
        (q, k, v)
    };
    let xs = [
        tensor_of(&q, line)?,
        tensor_of(&k, line)?,
        tensor_of(&v, line)?,
    ];
    let torch = l.framework == Framework::Torch;
    if !torch && l.first_node.get().is_none() {
        // Keras builds its softmax and dropout layers at the first call: their automatic
        // names are taken then (a `Dropout` made after it is `dropout_1`).
        super::keras::auto_name(it, "Softmax");
        super::keras::auto_name(it, "Dropout");
    }
    let asked = a.weights.is_some();
    let out = it.record(
        Op::Attention(a),
        &l.class,
        &xs,
        l.framework,
        site,
        Some(l),
        None,
    )?;
    let mut out = out.into_iter().map(Value::Tensor);
    let first = out.next().unwrap_or(Value::None);
    Ok(match (torch, asked) {
        (true, true) => Value::tuple(vec![first, out.next().unwrap_or(Value::None)]),
        (true, false) => Value::tuple(vec![first, Value::None]),
        (false, true) => Value::tuple(vec![first, out.next().unwrap_or(Value::None)]),
        (false, false) => first,
    })
}
