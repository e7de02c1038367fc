//! Keras (3) and TensorFlow as the evaluator knows them: `keras.layers` classes, `Input`,
//! `Sequential` and the functional `Model` (whose graph is replayed when it is called, so a
//! model used inside another becomes its operations under its name), `keras.ops` and the
//! `tf.*` operations custom layers use, and Keras's automatic layer names (`conv2d_1`), which
//! the self-check script reaches layers by.

use std::rc::Rc;

use crate::core::{Dims, Framework, LayerSpec, Padding};
use crate::model::graph::Edge;
use crate::model::op::{
    Activation, Binary, Conv, Groups, Interpolation, Norm, Op, PadFill, Reduce, Standardize, Stats,
};

use super::builtins::{as_float, as_int};
use super::eval::{
    BATCH, Ev, Interp, Site, holds_tensor, no_attribute, raise, refuse_tensors, unsupported,
};
use super::layers::{
    Bound, bind, conv_op, keras_activation, new_layer, outputs_value, pool_op, split_rank,
    tensor_of, tensors_of,
};
use super::ops::{apply, arg, elementwise, reshape};
use super::value::{Args, Layer, LayerKind, Tensor, Value};

/// Keras's class for an alias (`MaxPool2D` is `MaxPooling2D`).
fn canonical_class(class: &str) -> &str {
    match class {
        "Convolution1D" => "Conv1D",
        "Convolution2D" => "Conv2D",
        "Convolution3D" => "Conv3D",
        "Convolution2DTranspose" => "Conv2DTranspose",
        "SeparableConvolution2D" => "SeparableConv2D",
        "MaxPool1D" => "MaxPooling1D",
        "MaxPool2D" => "MaxPooling2D",
        "MaxPool3D" => "MaxPooling3D",
        "AvgPool1D" => "AveragePooling1D",
        "AvgPool2D" => "AveragePooling2D",
        "AvgPool3D" => "AveragePooling3D",
        "GlobalAvgPool1D" => "GlobalAveragePooling1D",
        "GlobalAvgPool2D" => "GlobalAveragePooling2D",
        "GlobalAvgPool3D" => "GlobalAveragePooling3D",
        "GlobalMaxPool1D" => "GlobalMaxPooling1D",
        "GlobalMaxPool2D" => "GlobalMaxPooling2D",
        "GlobalMaxPool3D" => "GlobalMaxPooling3D",
        other => other,
    }
}

/// Keras's `to_snake_case`: `Conv2DTranspose` -> `conv2d_transpose`, `BatchNormalization` ->
/// `batch_normalization`.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    // (.)([A-Z][a-z]+) -> \1_\2
    let mut first = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if i > 0
            && c.is_ascii_uppercase()
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase())
        {
            first.push('_');
        }
        first.push(c);
        i += 1;
    }
    // ([a-z])([A-Z]) -> \1_\2
    let chars: Vec<char> = first.chars().collect();
    let mut out = String::new();
    for (k, &c) in chars.iter().enumerate() {
        if k > 0 && c.is_ascii_uppercase() && chars[k - 1].is_ascii_lowercase() {
            out.push('_');
        }
        out.push(c);
    }
    out.to_lowercase()
}

/// The next automatic name for a Keras object of `class` (`conv2d`, then `conv2d_1`, ...).
pub fn auto_name(it: &mut Interp, class: &str) -> String {
    let base = snake_case(canonical_class(class));
    let n = it.keras_names.entry(base.clone()).or_insert(0);
    let name = if *n == 0 {
        base.clone()
    } else {
        format!("{base}_{n}")
    };
    *n += 1;
    name
}

/// Whether a user Keras layer's `call` is being evaluated (inside one, operations are not
/// named Keras operations: they run eagerly).
fn inside_custom_layer(it: &Interp) -> bool {
    // A Lambda's function runs on the tensors themselves too.
    it.call_stack.iter().any(|v| match v {
        Value::Instance(i) => i.class.framework.as_ref().is_some_and(|b| b.is_keras()),
        Value::Layer(l) => l.class.as_ref() == "Lambda",
        _ => false,
    })
}

/// The Keras path of a node: its containers' names and its own (`sequential_1/conv2d_3`).
pub fn node_path(it: &mut Interp, layer: Option<&Rc<Layer>>, function: Option<&str>) -> String {
    let mut parts: Vec<String> = it
        .call_stack
        .iter()
        .filter_map(|v| match v {
            Value::Layer(l) => l.name.as_deref().map(str::to_string),
            Value::Instance(i) => i.name.borrow().as_deref().map(str::to_string),
            _ => None,
        })
        .collect();
    let own = match (layer, function) {
        (Some(l), _) => l.name.as_deref().unwrap_or("layer").to_string(),
        (None, Some("input")) => {
            return parts.last().cloned().unwrap_or_else(|| "input".into());
        }
        // The whole computation of the custom layer it is in (LayerScale's `inputs *
        // self.gamma`): named as that layer, whose weights it uses.
        (None, Some("")) if !parts.is_empty() => return parts.join("/"),
        (None, Some(f)) if !inside_custom_layer(it) => auto_name(it, f),
        (None, Some(f)) => f.to_string(),
        (None, None) => "op".into(),
    };
    parts.push(own);
    parts.join("/")
}

/// Calls `path` under `keras` or `tf`.
pub fn call(it: &mut Interp, path: &str, args: Args, site: &Site) -> Ev<Value> {
    let line = site.line;
    args.poisoned()?;
    let Args { pos, kw } = args;
    if let Some(class) = path.strip_prefix("keras.layers.")
        && class.starts_with(|c: char| c.is_ascii_uppercase())
    {
        if matches!(class, "StringLookup" | "IntegerLookup") {
            return super::builtins::lookup_table(it, class, Args { pos, kw }, line);
        }
        return construct(it, class, Args { pos, kw }, site);
    }
    match path {
        "keras.Input" => return input(it, Args { pos, kw }, site),
        "keras.Sequential" => return sequential(it, Args { pos, kw }, site),
        "keras.Model" => {
            let inputs = arg(&pos, &kw, 0, "inputs").ok_or_else(|| {
                unsupported(
                    line,
                    "keras.Model() without inputs: a subclassed model is read from its class",
                )
            })?;
            let outputs = arg(&pos, &kw, 1, "outputs").unwrap_or(Value::None);
            let name = kw
                .iter()
                .find(|(k, v)| k.as_ref() == "name" && !matches!(v, Value::None))
                .map(|(_, v)| Rc::from(v.to_string().as_str()));
            return functional(it, inputs, outputs, name, site);
        }
        "keras.layers.add"
        | "keras.layers.subtract"
        | "keras.layers.multiply"
        | "keras.layers.maximum"
        | "keras.layers.minimum"
        | "keras.layers.concatenate"
        | "keras.layers.average" => {
            let class = match path.rsplit('.').next().unwrap_or("") {
                "add" => "Add",
                "subtract" => "Subtract",
                "multiply" => "Multiply",
                "maximum" => "Maximum",
                "minimum" => "Minimum",
                "average" => "Average",
                _ => "Concatenate",
            };
            let inputs = pos.first().cloned().unwrap_or(Value::None);
            let mut ckw: Vec<(Rc<str>, Value)> = kw
                .into_iter()
                .filter(|(k, _)| k.as_ref() != "inputs")
                .collect();
            if class == "Concatenate"
                && let Some(a) = pos.get(1)
            {
                ckw.push((Rc::from("axis"), a.clone()));
            }
            let layer = construct(it, class, Args::keywords(ckw), site)?;
            return it.call(layer, vec![inputs], vec![], site);
        }
        _ => {}
    }
    if path.starts_with("keras.activations.")
        || path.starts_with("tf.nn.")
        || path.starts_with("keras.ops.")
        || path.starts_with("keras.backend.")
        || matches!(path, "keras.config.epsilon" | "keras.config.floatx")
        || path.starts_with("tf.")
        || path.starts_with("keras.random.")
    {
        return operation(it, path, Args { pos, kw }, site);
    }
    if path.ends_with(".decode_predictions") && path.starts_with("keras.applications.") {
        it.effect = true;
        return Ok(Value::opaque(format!("the result of {path}()")));
    }
    if path.starts_with("keras.applications.") {
        return Err(super::zoo::refuse(path, site));
    }
    refuse_tensors(&Args { pos, kw }, site, |call| {
        format!("`{call}`: {path} is not translated by padlab")
    })?;
    if !path.contains("initializers")
        && !path.contains("regularizers")
        && !path.contains("constraints")
        && !path.contains("optimizers")
        && !path.contains("losses")
        && !path.contains("metrics")
    {
        it.effect = true;
    }
    Ok(Value::opaque(format!("the result of {path}()")))
}

/// A sample's declared shape (`None` for a size left open).
pub type Declared = Vec<Option<i64>>;

fn declared_of(it: &mut Interp, v: &Value, line: usize) -> Ev<Declared> {
    let items = match v {
        Value::Tuple(_) | Value::List(_) => it.iterate(v, line)?,
        Value::Int(_) => vec![v.clone()],
        Value::Hole(h) => {
            it.holes.push((h.clone(), usize::MAX));
            return Ok(Vec::new());
        }
        Value::Poison(f) => return Err((**f).clone()),
        other => {
            return Err(raise(
                line,
                "TypeError",
                format!("a shape must be a tuple, not {}", other.type_name()),
            ));
        }
    };
    let mut out = Vec::with_capacity(items.len());
    for (k, v) in items.iter().enumerate() {
        out.push(match v {
            Value::None => None,
            Value::Hole(h) => {
                it.holes.push((h.clone(), k));
                None
            }
            Value::Unknown => None,
            v => Some(as_int(v, line)?),
        });
    }
    Ok(out)
}

/// A declared sample shape with its open sizes filled from the given input (`--input`),
/// `None` when some size stays open.
pub fn fill_declared(it: &Interp, declared: &Declared, line: usize) -> Ev<Option<Vec<i64>>> {
    let given = it.settings.input.as_ref();
    if declared.is_empty() {
        return Ok(given.cloned());
    }
    match given {
        Some(g) if g.len() == declared.len() => {
            for (d, g) in declared.iter().zip(g) {
                if let Some(d) = d
                    && d != g
                {
                    return Err(unsupported(
                        line,
                        format!(
                            "the code states the input shape ({}), but {} was given",
                            declared
                                .iter()
                                .map(|d| d.map_or("None".into(), |v| v.to_string()))
                                .collect::<Vec<_>>()
                                .join(", "),
                            given_text(it)
                        ),
                    ));
                }
            }
            Ok(Some(g.clone()))
        }
        _ => Ok(declared.iter().copied().collect::<Option<Vec<i64>>>()),
    }
}

fn given_text(it: &Interp) -> String {
    it.settings
        .input
        .as_ref()
        .map(|g| g.iter().map(i64::to_string).collect::<Vec<_>>().join("x"))
        .unwrap_or_default()
}

/// `keras.Input(shape=...)`: an input layer and its symbolic tensor.
fn input(it: &mut Interp, Args { pos, kw }: Args, site: &Site) -> Ev<Value> {
    let line = site.line;
    let shape = match arg(&pos, &kw, 0, "shape") {
        Some(v) => declared_of(it, &v, line)?,
        None => match kw
            .iter()
            .find(|(k, _)| matches!(k.as_ref(), "batch_shape" | "batch_input_shape"))
        {
            Some((_, v)) => {
                let mut d = declared_of(it, v, line)?;
                if !d.is_empty() {
                    d.remove(0);
                }
                d
            }
            None => {
                return Err(raise(
                    line,
                    "ValueError",
                    "You must pass a `shape` argument.",
                ));
            }
        },
    };
    let name: Rc<str> = match kw
        .iter()
        .find(|(k, v)| k.as_ref() == "name" && !matches!(v, Value::None))
    {
        Some((_, v)) => Rc::from(v.to_string().as_str()),
        None => Rc::from(auto_name(it, "InputLayer").as_str()),
    };
    // A fully stated input is the code's own (a paste with a generator's and a
    // discriminator's inputs): the given size fills open ones, and a conflict is an error only
    // for the model that is traced.
    let sample = if !shape.is_empty() && shape.iter().all(Option::is_some) {
        Some(shape.iter().flatten().copied().collect())
    } else {
        fill_declared(it, &shape, line)?
    };
    let full = sample.map(|s| {
        let mut v = vec![BATCH];
        v.extend(s);
        v
    });
    it.call_stack.push(Value::opaque_named(&name));
    let t = super::torch::input_tensor(it, full, Framework::Keras, site);
    it.call_stack.pop();
    let t = t?;
    it.keras_inputs.push((t.edge, shape, name));
    Ok(Value::Tensor(t))
}

/// `keras.Sequential([...])`.
fn sequential(it: &mut Interp, Args { pos, kw }: Args, site: &Site) -> Ev<Value> {
    let line = site.line;
    let items = match arg(&pos, &kw, 0, "layers") {
        Some(v) => it.iterate(&v, line)?,
        None => Vec::new(),
    };
    for v in &items {
        match v {
            Value::Poison(f) => return Err((**f).clone()),
            Value::Hole(h) => return Err(super::eval::undefined(h, line)),
            _ => {}
        }
    }
    let name: Rc<str> = match kw
        .iter()
        .find(|(k, v)| k.as_ref() == "name" && !matches!(v, Value::None))
    {
        Some((_, v)) => Rc::from(v.to_string().as_str()),
        None => Rc::from(auto_name(it, "Sequential").as_str()),
    };
    let children = items
        .into_iter()
        .enumerate()
        .map(|(k, v)| (Rc::from(k.to_string().as_str()), v))
        .collect();
    Ok(new_layer(
        it,
        Framework::Keras,
        "Sequential",
        LayerKind::Sequential(std::cell::RefCell::new(children)),
        site,
        Some(name),
        vec![],
    ))
}

/// A functional model's inputs as given: a tensor, a list of them, or a dict of them by name.
fn model_tensors(v: &Value, line: usize) -> Ev<Vec<Rc<Tensor>>> {
    match v {
        Value::Dict(d) => d
            .borrow()
            .entries
            .iter()
            .map(|(_, v)| tensor_of(v, line))
            .collect(),
        other => tensors_of(other, line),
    }
}

/// `keras.Model(inputs, outputs)`: a functional model.
pub fn functional(
    it: &mut Interp,
    inputs: Value,
    outputs: Value,
    name: Option<Rc<str>>,
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let inputs = model_tensors(&inputs, line)?;
    if let Some(e) = failed_within(&outputs, line, 0) {
        return Err(e);
    }
    if !holds_outputs(&outputs) {
        return Err(raise(
            line,
            "ValueError",
            "a functional Model needs its outputs: tensors made from its inputs",
        ));
    }
    let name = name.unwrap_or_else(|| Rc::from(auto_name(it, "Functional").as_str()));
    Ok(new_layer(
        it,
        Framework::Keras,
        "Functional",
        LayerKind::Functional { inputs, outputs },
        site,
        Some(name),
        vec![],
    ))
}

/// The failure a model's outputs carry: a value a failed statement left (`x` after its line
/// failed), anywhere in a list or tuple of outputs.
fn failed_within(v: &Value, line: usize, depth: usize) -> Option<super::eval::Failure> {
    if depth > 50 {
        return None;
    }
    match v {
        Value::Poison(f) => Some((**f).clone()),
        Value::Hole(h) => Some(super::eval::undefined(h, line)),
        Value::Tuple(t) => t.iter().find_map(|v| failed_within(v, line, depth + 1)),
        Value::List(l) => l
            .borrow()
            .iter()
            .find_map(|v| failed_within(v, line, depth + 1)),
        Value::Dict(d) => d
            .borrow()
            .entries
            .iter()
            .find_map(|(_, v)| failed_within(v, line, depth + 1)),
        _ => None,
    }
}

fn holds_outputs(v: &Value) -> bool {
    let Some(_level) = super::value::Nested::enter() else {
        return false;
    };
    match v {
        Value::Tensor(_) => true,
        Value::Tuple(t) => !t.is_empty() && t.iter().all(holds_outputs),
        Value::List(l) => !l.borrow().is_empty() && l.borrow().iter().all(holds_outputs),
        Value::Dict(d) => d.borrow().entries.iter().all(|(_, v)| holds_outputs(v)),
        _ => false,
    }
}

/// The edges a model's outputs value holds, in order.
pub fn output_edges(v: &Value, out: &mut Vec<Rc<Tensor>>) {
    match v {
        Value::Tensor(t) => out.push(t.clone()),
        Value::Tuple(t) => t.iter().for_each(|v| output_edges(v, out)),
        Value::List(l) => l.borrow().iter().for_each(|v| output_edges(v, out)),
        Value::Dict(d) => d
            .borrow()
            .entries
            .iter()
            .for_each(|(_, v)| output_edges(v, out)),
        _ => {}
    }
}

/// Calling a functional model on tensors: its recorded operations replayed on them, in
/// order, under the model's name.
pub fn call_functional(it: &mut Interp, l: &Rc<Layer>, input: Value, site: &Site) -> Ev<Value> {
    let line = site.line;
    let LayerKind::Functional { inputs, outputs } = &l.kind else {
        return Err(raise(line, "TypeError", "not a functional model"));
    };
    let given = model_tensors(&input, line)?;
    if given.len() != inputs.len() {
        return Err(raise(
            line,
            "ValueError",
            format!(
                "Model {} expects {} input(s), but it received {} input tensors",
                l.name.as_deref().unwrap_or(""),
                inputs.len(),
                given.len()
            ),
        ));
    }
    let mut outs = Vec::new();
    output_edges(outputs, &mut outs);
    // The operations between the inputs and the outputs, in the order they were made.
    let mut needed = std::collections::BTreeSet::new();
    let mut stack: Vec<usize> = outs.iter().map(|t| t.edge.node.0).collect();
    let input_nodes: Vec<usize> = inputs.iter().map(|t| t.edge.node.0).collect();
    while let Some(n) = stack.pop() {
        if !needed.insert(n) || input_nodes.contains(&n) {
            continue;
        }
        match it.graph.nodes.get(n) {
            Some(node) if matches!(node.op, Op::Input) => {
                return Err(raise(
                    line,
                    "ValueError",
                    format!(
                        "Graph disconnected: the model's outputs need an input it was not given (line {})",
                        node.source.line
                    ),
                ));
            }
            Some(node) => stack.extend(node.inputs.iter().map(|e| e.node.0)),
            None => {}
        }
    }
    let mut map: std::collections::HashMap<Edge, Rc<Tensor>> =
        inputs.iter().map(|t| t.edge).zip(given).collect();
    it.call_stack.push(Value::Layer(l.clone()));
    it.containers.insert(l.id, l.clone());
    let result = (|| -> Ev<()> {
        for &n in &needed {
            if input_nodes.contains(&n) {
                continue;
            }
            let node = it.graph.nodes[n].clone();
            let tr = it.trace[n].clone();
            let xs: Vec<Rc<Tensor>> = node
                .inputs
                .iter()
                .map(|e| {
                    map.get(e)
                        .cloned()
                        .ok_or_else(|| raise(line, "ValueError", "Graph disconnected"))
                })
                .collect::<Ev<_>>()?;
            let replay_site = Site {
                line: node.source.call_line.unwrap_or(node.source.line),
                text: Rc::from(node.source.text.as_str()),
            };
            let layer = tr.layer.clone();
            // Operations inside a custom layer keep the custom layer's name above them.
            let prefix = tr
                .keras_path
                .as_deref()
                .and_then(|p| p.rsplit_once('/'))
                .map(|(p, _)| p.to_string());
            let pushed = prefix.as_ref().map(|p| {
                for part in p.split('/') {
                    it.call_stack.push(Value::opaque_named(part));
                }
                p.split('/').count()
            });
            let own = tr
                .keras_path
                .as_deref()
                .map(|p| p.rsplit('/').next().unwrap_or(p).to_string());
            let out = it.record(
                node.op.clone(),
                &node.kind,
                &xs,
                Framework::Keras,
                &replay_site,
                layer.as_ref(),
                own.as_deref().or(Some("op")),
            );
            if let Some(k) = pushed {
                for _ in 0..k {
                    it.call_stack.pop();
                }
            }
            // A replayed operation keeps its recorded name (`add_3`), not a new one.
            if let Some(last) = it.trace.last_mut()
                && layer.is_none()
                && let (Some(own), Some(path)) = (own.as_ref(), last.keras_path.as_mut())
            {
                let parent = path.rsplit_once('/').map(|(p, _)| p.to_string());
                *path = match parent {
                    Some(p) => format!("{p}/{own}"),
                    None => own.clone(),
                };
            }
            let out = out?;
            for (k, t) in out.into_iter().enumerate() {
                map.insert(
                    Edge {
                        node: crate::model::graph::NodeId(n),
                        output: k,
                    },
                    t,
                );
            }
        }
        Ok(())
    })();
    it.call_stack.pop();
    result?;
    remap_outputs(outputs, &map, line)
}

fn remap_outputs(
    v: &Value,
    map: &std::collections::HashMap<Edge, Rc<Tensor>>,
    line: usize,
) -> Ev<Value> {
    Ok(match v {
        Value::Tensor(t) => Value::Tensor(
            map.get(&t.edge)
                .cloned()
                .ok_or_else(|| raise(line, "ValueError", "Graph disconnected"))?,
        ),
        Value::Tuple(t) => Value::tuple(
            t.iter()
                .map(|v| remap_outputs(v, map, line))
                .collect::<Ev<_>>()?,
        ),
        Value::List(l) => Value::list(
            l.borrow()
                .iter()
                .map(|v| remap_outputs(v, map, line))
                .collect::<Ev<_>>()?,
        ),
        Value::Dict(d) => {
            let mut out = super::value::Dict::default();
            for (k, v) in d.borrow().entries.iter() {
                if let Some(key) = k.key() {
                    out.insert(key, k.clone(), remap_outputs(v, map, line)?);
                }
            }
            Value::Dict(Rc::new(std::cell::RefCell::new(out)))
        }
        other => other.clone(),
    })
}

/// The declared input of a Keras Sequential: an `Input` tensor or `InputLayer` first, or its
/// first layer's `input_shape`, or a `build()` shape.
pub fn sequential_input(it: &mut Interp, l: &Rc<Layer>, line: usize) -> Ev<Option<Declared>> {
    // A Sequential whose first layer is a Sequential: its input, down as deep as they nest.
    let mut l = l.clone();
    loop {
        if let Some((_, d)) = it.declared.iter().find(|(a, _)| *a == l.id) {
            return Ok(Some(d.clone()));
        }
        let LayerKind::Sequential(children) = &l.kind else {
            return Ok(None);
        };
        let first = children.borrow().first().map(|(_, v)| v.clone());
        return Ok(match first {
            Some(Value::Tensor(t)) => it
                .keras_inputs
                .iter()
                .find(|(e, _, _)| *e == t.edge)
                .map(|(_, d, _)| d.clone()),
            Some(Value::Layer(f)) => match f
                .args
                .iter()
                .find(|(k, _)| k.as_ref() == "input_shape")
                .map(|(_, v)| v.clone())
            {
                Some(v) => Some(declared_of(it, &v, line)?),
                None if matches!(f.kind, LayerKind::Sequential(_)) => {
                    l = f;
                    continue;
                }
                None => None,
            },
            _ => None,
        });
    }
}

/// Attributes of a Keras model that need its shapes (`model.output_shape`).
pub fn model_attr(it: &mut Interp, l: &Rc<Layer>, name: &str, line: usize) -> Ev<Value> {
    let site = Site {
        line,
        text: Rc::from(format!("{}.{name}", l.name.as_deref().unwrap_or("model")).as_str()),
    };
    let keras_shape = |s: Option<Vec<i64>>| -> Value {
        match s {
            Some(s) => Value::tuple(
                s.iter()
                    .enumerate()
                    .map(|(i, &d)| if i == 0 { Value::None } else { Value::Int(d) })
                    .collect(),
            ),
            None => Value::Unknown,
        }
    };
    match (&l.kind, name) {
        (LayerKind::Functional { inputs, outputs }, _) => Ok(match name {
            "input" | "inputs" => {
                let v: Vec<Value> = inputs.iter().map(|t| Value::Tensor(t.clone())).collect();
                if v.len() == 1 && name == "input" {
                    v.into_iter().next().unwrap_or(Value::None)
                } else {
                    Value::list(v)
                }
            }
            "output" | "outputs" => outputs.clone(),
            "input_shape" => keras_shape(inputs.first().and_then(|t| t.shape.clone())),
            _ => {
                let mut outs = Vec::new();
                output_edges(outputs, &mut outs);
                keras_shape(outs.first().and_then(|t| t.shape.clone()))
            }
        }),
        (LayerKind::Sequential(_), "output_shape" | "output" | "input_shape" | "input") => {
            let declared = sequential_input(it, l, line)?.ok_or_else(|| {
                raise(
                    line,
                    "ValueError",
                    format!(
                        "Sequential model '{}' has no defined input shape yet.",
                        l.name.as_deref().unwrap_or("")
                    ),
                )
            })?;
            let sample = fill_declared(it, &declared, line)?;
            let full = sample.map(|s| std::iter::once(BATCH).chain(s).collect::<Vec<_>>());
            if name == "input_shape" {
                return Ok(keras_shape(full));
            }
            let x = super::torch::input_tensor(it, full, Framework::Keras, &site)?;
            if name == "input" {
                return Ok(Value::Tensor(x));
            }
            // Runs the layers built so far on a scratch input (not part of any model).
            let out =
                super::layers::call_layer(it, l, Args::positional(vec![Value::Tensor(x)]), &site)?;
            match out {
                Value::Tensor(t) if name == "output_shape" => Ok(keras_shape(t.shape.clone())),
                other => Ok(other),
            }
        }
        // A layer of a functional graph: the tensors of its first call (Keras's first inbound
        // node), as `base_model.get_layer("block_13_expand_relu").output`.
        (_, "output" | "input") if l.framework == Framework::Keras => {
            first_call(it, l, name == "output").ok_or_else(|| {
                raise(
                    line,
                    "AttributeError",
                    format!(
                        "Layer {} has never been called and thus has no defined {name}.",
                        l.name.as_deref().unwrap_or(&l.class)
                    ),
                )
            })
        }
        _ => Err(no_attribute(line, &l.class, name)),
    }
}

/// The tensor a Keras layer's first call made (`output`) or took (`input`, its first).
fn first_call(it: &Interp, l: &Rc<Layer>, output: bool) -> Option<Value> {
    let of = |n: usize| {
        it.trace
            .get(n)
            .and_then(|t| t.layer.as_ref())
            .is_some_and(|x| x.id == l.id)
    };
    let first = (0..it.trace.len()).find(|&n| of(n))?;
    // One call may record several nodes (an activation after the layer): the last is its output.
    let mut last = first;
    while of(last + 1) {
        last += 1;
    }
    let edge = if output {
        Edge::of(crate::model::graph::NodeId(last))
    } else {
        it.graph.nodes.get(first)?.inputs.first().cloned()?
    };
    let shape = it.graph.nodes.get(edge.node.0)?.shape().cloned();
    Some(Value::Tensor(Rc::new(Tensor {
        edge,
        shape,
        framework: Framework::Keras,
        integer: false,
    })))
}

/// The layers of a functional model in the order they were made (Keras's topological order
/// for a model written top to bottom): each layer the graph between its inputs and outputs
/// applies, once; a model, Sequential or Lambda called inside it once, as itself (not its
/// layers). Keras's InputLayer, which padlab has no layer for, is not listed.
pub fn functional_layers(it: &Interp, l: &Rc<Layer>) -> Vec<Value> {
    let LayerKind::Functional { inputs, outputs } = &l.kind else {
        return Vec::new();
    };
    let mut outs = Vec::new();
    output_edges(outputs, &mut outs);
    let stop: Vec<usize> = inputs.iter().map(|t| t.edge.node.0).collect();
    let mut stack: Vec<usize> = outs.iter().map(|t| t.edge.node.0).collect();
    let mut seen = std::collections::BTreeSet::new();
    while let Some(n) = stack.pop() {
        if stop.contains(&n) || !seen.insert(n) {
            continue;
        }
        if let Some(node) = it.graph.nodes.get(n) {
            stack.extend(node.inputs.iter().map(|e| e.node.0));
        }
    }
    let mut ids = std::collections::HashSet::new();
    let mut layers = Vec::new();
    for n in seen {
        let Some(t) = it.trace.get(n) else { continue };
        // An operation inside a container called in the graph stands for that container.
        let layer = match t.scope.first() {
            Some(id) => it.containers.get(id),
            None => t.layer.as_ref(),
        };
        if let Some(x) = layer
            && ids.insert(x.id)
        {
            layers.push(Value::Layer(x.clone()));
        }
    }
    layers
}

/// `model.get_layer(name)`.
pub fn get_layer(it: &mut Interp, l: &Rc<Layer>, Args { pos, kw }: Args, site: &Site) -> Ev<Value> {
    let want = arg(&pos, &kw, 0, "name")
        .map(|v| v.to_string())
        .unwrap_or_default();
    let layers: Vec<Value> = match &l.kind {
        LayerKind::Sequential(c) => c.borrow().iter().map(|(_, v)| v.clone()).collect(),
        LayerKind::Functional { .. } => functional_layers(it, l),
        _ => Vec::new(),
    };
    layers
        .into_iter()
        .find(|v| matches!(v, Value::Layer(x) if x.name.as_deref() == Some(want.as_str())))
        .ok_or_else(|| raise(site.line, "ValueError", format!("No such layer: {want}.")))
}

/// `model.build(input_shape)`: remembers the model's input shape.
pub fn build(it: &mut Interp, id: usize, shape: Option<Value>, site: &Site) -> Ev<()> {
    if let Some(s) = shape {
        let mut d = declared_of(it, &s, site.line)?;
        if !d.is_empty() {
            d.remove(0);
        }
        it.declared.push((id, d));
    }
    Ok(())
}

/// `padding=` of a Keras conv or pool.
fn keras_padding(b: &Bound) -> Ev<Padding> {
    match b.string("padding")?.as_deref() {
        None => Ok(Padding::Valid),
        Some(p) => match p.to_ascii_lowercase().as_str() {
            "valid" => Ok(Padding::Valid),
            "same" => Ok(Padding::Same),
            "causal" => Ok(Padding::Causal),
            other => Err(raise(
                b.line,
                "ValueError",
                format!(
                    "The `padding` argument must be a string that is one of 'valid', 'same', 'causal'. Received: padding={other}"
                ),
            )),
        },
    }
}

fn channels_last(b: &Bound) -> Ev<()> {
    match b.string("data_format")?.as_deref() {
        None | Some("channels_last") => Ok(()),
        Some(other) => Err(unsupported(
            b.line,
            format!(
                "{}: data_format='{other}' is not translated by padlab (channels-last Keras layers are)",
                b.class
            ),
        )),
    }
}

/// `activation=`: a name, a function (`tf.nn.relu`), or an activation layer.
fn activation_of(b: &Bound) -> Ev<Option<Activation>> {
    match b.get("activation") {
        None => Ok(None),
        Some(Value::Str(s)) => keras_activation(s).ok_or_else(|| {
            unsupported(
                b.line,
                format!("{}: activation='{s}' is not translated by padlab", b.class),
            )
        }),
        Some(Value::Api(p)) => {
            let name = p.rsplit('.').next().unwrap_or(p);
            keras_activation(name).ok_or_else(|| {
                unsupported(
                    b.line,
                    format!("{}: activation={p} is not translated by padlab", b.class),
                )
            })
        }
        Some(Value::Layer(l)) => match &l.kind {
            LayerKind::Op(Op::Activation(a)) => Ok(Some(*a)),
            _ => Err(unsupported(
                b.line,
                format!(
                    "{}: activation={} is not translated by padlab",
                    b.class, l.class
                ),
            )),
        },
        Some(other) => Err(unsupported(
            b.line,
            format!(
                "{}: activation={} is not translated by padlab",
                b.class,
                other.type_name()
            ),
        )),
    }
}

/// Keras's `((before, after), ...)` or symmetric `(h, w)` or one int, for `n` axes.
fn pairs_of(
    it: &mut Interp,
    v: Option<&Value>,
    n: usize,
    default: i64,
    line: usize,
) -> Ev<Vec<(i64, i64)>> {
    let Some(v) = v else {
        return Ok(vec![(default, default); n]);
    };
    match v {
        Value::Int(k) => Ok(vec![(*k, *k); n]),
        Value::Tuple(_) | Value::List(_) => {
            let items = it.iterate(v, line)?;
            if n == 1 && items.len() == 2 && items.iter().all(|x| matches!(x, Value::Int(_))) {
                return Ok(vec![(as_int(&items[0], line)?, as_int(&items[1], line)?)]);
            }
            if items.len() != n {
                return Err(raise(
                    line,
                    "ValueError",
                    format!("expected {n} values, got {}", items.len()),
                ));
            }
            items
                .iter()
                .map(|x| match x {
                    Value::Int(k) => Ok((*k, *k)),
                    pair => {
                        let p = it.iterate(pair, line)?;
                        match p.as_slice() {
                            [a, b] => Ok((as_int(a, line)?, as_int(b, line)?)),
                            _ => Err(raise(line, "ValueError", "a padding pair has two values")),
                        }
                    }
                })
                .collect()
        }
        other => Err(raise(
            line,
            "TypeError",
            format!("expected an int or a tuple, got {}", other.type_name()),
        )),
    }
}

/// Builds the Keras layer `class` from its call.
pub fn construct(it: &mut Interp, class: &str, Args { pos, kw }: Args, site: &Site) -> Ev<Value> {
    let line = site.line;
    let fw = Framework::Keras;
    let class = canonical_class(class);
    if class == "Input" {
        return input(it, Args { pos, kw }, site);
    }
    let (family, rank) = split_rank(class);
    let params: &[&'static str] = match (family.as_str(), rank) {
        ("conv", Some(_)) => &[
            "filters",
            "kernel_size",
            "strides",
            "padding",
            "data_format",
            "dilation_rate",
            "groups",
            "activation",
            "use_bias",
        ],
        ("convtranspose", Some(_)) => &[
            "filters",
            "kernel_size",
            "strides",
            "padding",
            "output_padding",
            "data_format",
            "dilation_rate",
            "activation",
            "use_bias",
        ],
        ("separableconv", Some(_)) => &[
            "filters",
            "kernel_size",
            "strides",
            "padding",
            "data_format",
            "dilation_rate",
            "depth_multiplier",
            "activation",
            "use_bias",
        ],
        ("depthwiseconv", Some(_)) => &[
            "kernel_size",
            "strides",
            "padding",
            "depth_multiplier",
            "data_format",
            "dilation_rate",
            "activation",
            "use_bias",
        ],
        ("maxpooling" | "averagepooling", Some(_)) => {
            &["pool_size", "strides", "padding", "data_format"]
        }
        ("globalaveragepooling" | "globalmaxpooling", Some(_)) => &["data_format", "keepdims"],
        ("batchnormalization", None) => &["axis", "momentum", "epsilon", "center", "scale"],
        ("layernormalization", None) => &["axis", "epsilon", "center", "scale"],
        ("groupnormalization", None) => &["groups", "axis", "epsilon", "center", "scale"],
        ("dense", None) => &["units", "activation", "use_bias"],
        ("activation", None) => &["activation"],
        ("relu", None) => &["max_value", "negative_slope", "threshold"],
        ("leakyrelu", None) => &["negative_slope"],
        ("elu", None) => &["alpha"],
        ("prelu", None) => &[
            "alpha_initializer",
            "alpha_regularizer",
            "alpha_constraint",
            "shared_axes",
        ],
        ("softmax", None) => &["axis"],
        // Keras 3.15 saves SpatialDropout's data_format (checked channels-last below).
        ("spatialdropout", _) => &["rate", "seed", "data_format"],
        ("dropout" | "gaussiandropout" | "alphadropout", _) => &["rate", "noise_shape", "seed"],
        ("gaussiannoise", None) => &["stddev", "seed"],
        ("flatten", None) => &["data_format"],
        ("reshape", None) => &["target_shape"],
        ("permute", None) => &["dims"],
        ("upsampling", Some(_)) => &["size", "data_format", "interpolation"],
        ("zeropadding", Some(_)) => &["padding", "data_format"],
        ("cropping", Some(_)) => &["cropping", "data_format"],
        ("add" | "subtract" | "multiply" | "maximum" | "minimum" | "average", None) => &[],
        ("concatenate", None) => &["axis"],
        ("dot", None) => &["axes", "normalize"],
        ("embedding", None) => &[
            "input_dim",
            "output_dim",
            "embeddings_initializer",
            "embeddings_regularizer",
            "embeddings_constraint",
            "mask_zero",
        ],
        ("inputlayer", None) => &[
            "shape",
            "batch_size",
            "dtype",
            "sparse",
            "batch_shape",
            "input_tensor",
        ],
        ("rescaling", None) => &["scale", "offset"],
        ("normalization", None) => &["axis", "mean", "variance", "invert"],
        ("resizing", None) => &[
            "height",
            "width",
            "interpolation",
            "crop_to_aspect_ratio",
            "pad_to_aspect_ratio",
            "data_format",
            "antialias",
            "fill_mode",
            "fill_value",
        ],
        (
            "randomflip" | "randomrotation" | "randomzoom" | "randomcontrast" | "randomtranslation"
            | "randombrightness",
            None,
        ) => &[
            "mode",
            "factor",
            "height_factor",
            "width_factor",
            "seed",
            "fill_mode",
            "interpolation",
            "value_range",
            "fill_value",
            "data_format",
        ],
        ("lambda", None) => &["function", "output_shape", "mask", "arguments"],
        ("identity", None) => &[],
        ("lstm" | "gru" | "simplernn" | "bidirectional" | "multiheadattention", None) => {
            return super::sequence::keras_construct(it, class, &family, Args { pos, kw }, site);
        }
        ("convlstm", _) => {
            return Err(unsupported(
                line,
                format!(
                    "{class}: a convolutional recurrent layer is not translated by padlab (it reads LSTM, GRU, SimpleRNN, Bidirectional and MultiHeadAttention)"
                ),
            ));
        }
        ("timedistributed", None) => {
            return Err(unsupported(
                line,
                "layers.TimeDistributed (a layer applied to every step of a sequence) is not translated by padlab",
            ));
        }
        _ => {
            return Err(unsupported(
                line,
                format!("layers.{class} is not a layer padlab translates"),
            ));
        }
    };
    let mut b = bind(fw, class, params, Args { pos, kw }, line)?;
    if family == "inputlayer" {
        // `InputLayer(input_shape=...)` (older code) or `InputLayer(shape=...)`.
        if b.input_shape.is_none() {
            b.input_shape = b.get("shape").cloned();
        }
    }
    let name = match b.name.clone() {
        Some(n) => n,
        None => Rc::from(auto_name(it, class).as_str()),
    };
    let mut args: Vec<(Rc<str>, Value)> = b
        .values
        .iter()
        .map(|(k, v)| (Rc::from(*k), v.clone()))
        .collect();
    if let Some(s) = &b.input_shape {
        args.push((Rc::from("input_shape"), s.clone()));
    }
    // A global pool over channels-first maps reduces the axes after the channels.
    let global_first = matches!(family.as_str(), "globalaveragepooling" | "globalmaxpooling")
        && b.string("data_format")?.as_deref() == Some("channels_first");
    if family != "inputlayer" && !global_first {
        channels_last(&b)?;
    }
    let merge = |op: Op| LayerKind::Merge(op);
    let kind = match (family.as_str(), rank) {
        ("conv" | "convtranspose" | "separableconv" | "depthwiseconv", Some(n)) => {
            let transposed = family == "convtranspose";
            let kernel = b.dims("kernel_size", n)?.ok_or_else(|| {
                raise(
                    line,
                    "TypeError",
                    format!(
                        "{class}.__init__() missing 1 required positional argument: 'kernel_size'"
                    ),
                )
            })?;
            let mut spec = LayerSpec::new(conv_op(transposed), fw, vec![], kernel);
            spec.stride = b.dims("strides", n)?;
            spec.dilation = b.dims("dilation_rate", n)?;
            spec.padding = Some(keras_padding(&b)?);
            if transposed {
                spec.output_padding = b.dims("output_padding", n)?;
            }
            let depthwise = matches!(family.as_str(), "separableconv" | "depthwiseconv");
            let groups = if depthwise {
                Groups::Depthwise {
                    multiplier: b.int("depth_multiplier")?.unwrap_or(1),
                }
            } else {
                Groups::Count(b.int("groups")?.unwrap_or(1))
            };
            let filters = if family == "depthwiseconv" {
                0
            } else {
                b.required_int("filters")?
            };
            LayerKind::Op(Op::Conv(Conv {
                spec,
                in_channels: None,
                filters,
                groups,
                separable: family == "separableconv",
                bias: b.boolean("use_bias")?.unwrap_or(true),
                activation: activation_of(&b)?,
            }))
        }
        ("maxpooling" | "averagepooling", Some(n)) => {
            let mut spec = LayerSpec::new(
                pool_op(family == "maxpooling"),
                fw,
                vec![],
                b.dims("pool_size", n)?.unwrap_or(Dims::All(2)),
            );
            spec.stride = b.dims("strides", n)?;
            spec.padding = Some(keras_padding(&b)?);
            LayerKind::Op(Op::Pool(spec))
        }
        ("globalaveragepooling" | "globalmaxpooling", Some(n)) if global_first => {
            LayerKind::Op(Op::Reduce {
                op: if family == "globalmaxpooling" {
                    crate::model::op::Reduce::Max
                } else {
                    crate::model::op::Reduce::Mean
                },
                axes: (2..).take(n).collect(),
                keepdims: b.boolean("keepdims")?.unwrap_or(false),
            })
        }
        ("globalaveragepooling" | "globalmaxpooling", Some(_)) => LayerKind::Op(Op::GlobalPool {
            max: family == "globalmaxpooling",
            keepdims: b.boolean("keepdims")?.unwrap_or(false),
        }),
        ("batchnormalization", None) => {
            let axis = match b.get("axis") {
                None => -1,
                Some(Value::List(_) | Value::Tuple(_)) => {
                    return Err(unsupported(
                        line,
                        "BatchNormalization over several axes is not translated by padlab",
                    ));
                }
                Some(v) => as_int(v, line)?,
            };
            LayerKind::Op(Op::Norm(Norm::Batch {
                axis,
                features: None,
                eps: b.float("epsilon")?.unwrap_or(1e-3),
                // torch's convention, rounded off the float error of `1 - 0.99`.
                momentum: ((1.0 - b.float("momentum")?.unwrap_or(0.99)) * 1e12).round() / 1e12,
                center: b.boolean("center")?.unwrap_or(true),
                scale: b.boolean("scale")?.unwrap_or(true),
            }))
        }
        ("layernormalization", None) => {
            let axes = axes(it, b.get("axis"), line)?;
            LayerKind::Op(Op::Norm(Norm::Layer {
                axes,
                shape: None,
                eps: b.float("epsilon")?.unwrap_or(1e-3),
                center: b.boolean("center")?.unwrap_or(true),
                scale: b.boolean("scale")?.unwrap_or(true),
            }))
        }
        ("groupnormalization", None) => LayerKind::Op(Op::Norm(Norm::Group {
            groups: b.int("groups")?.unwrap_or(32),
            channels: None,
            eps: b.float("epsilon")?.unwrap_or(1e-3),
            affine: b.boolean("center")?.unwrap_or(true) && b.boolean("scale")?.unwrap_or(true),
        })),
        ("dense", None) => LayerKind::Op(Op::Dense {
            in_features: None,
            units: b.required_int("units")?,
            bias: b.boolean("use_bias")?.unwrap_or(true),
            activation: activation_of(&b)?,
        }),
        ("activation", None) => {
            let a = activation_of(&b)?;
            match (a, b.get("activation")) {
                (Some(Activation::Softmax), _) => LayerKind::Op(Op::Softmax {
                    axis: -1,
                    log: false,
                }),
                (Some(a), _) => LayerKind::Op(Op::Activation(a)),
                (None, Some(Value::Str(s))) if s.as_ref() == "log_softmax" => {
                    LayerKind::Op(Op::Softmax {
                        axis: -1,
                        log: true,
                    })
                }
                (None, _) => LayerKind::Op(Op::Identity),
            }
        }
        ("relu", None) => {
            let max = b.float("max_value")?;
            if b.float("negative_slope")?.unwrap_or(0.0) != 0.0
                || b.float("threshold")?.unwrap_or(0.0) != 0.0
            {
                return Err(b_untranslated(&b, "negative_slope or threshold"));
            }
            LayerKind::Op(Op::Activation(match max {
                None => Activation::Relu,
                Some(6.0) => Activation::Relu6,
                Some(m) => return Err(b_untranslated(&b, format!("max_value={m}"))),
            }))
        }
        ("leakyrelu", None) => LayerKind::Op(Op::Activation(Activation::LeakyRelu(
            b.float("negative_slope")?.unwrap_or(0.3),
        ))),
        // Its slopes' shape over the input is set where it is called (`prelu_at`).
        ("prelu", None) => LayerKind::Op(Op::Learned {
            op: crate::model::op::LearnedOp::PRelu,
            shape: Vec::new(),
            weight: crate::model::op::WeightAt::Layer("alpha".into()),
        }),
        ("elu", None) => LayerKind::Op(Op::Activation(Activation::Elu(
            b.float("alpha")?.unwrap_or(1.0),
        ))),
        ("softmax", None) => LayerKind::Op(Op::Softmax {
            axis: b.int("axis")?.unwrap_or(-1),
            log: false,
        }),
        ("dropout" | "spatialdropout" | "gaussiandropout" | "alphadropout", r) => {
            LayerKind::Op(Op::Dropout {
                rate: b.float("rate")?.unwrap_or(0.0),
                spatial: r.is_some(),
            })
        }
        ("gaussiannoise", None) => LayerKind::Op(Op::Dropout {
            rate: 0.0,
            spatial: false,
        }),
        ("flatten", None) => LayerKind::Op(Op::Flatten { start: 1, end: -1 }),
        ("reshape", None) => {
            let target = b.get("target_shape").cloned().ok_or_else(|| {
                raise(
                    line,
                    "TypeError",
                    "Reshape.__init__() missing 1 required positional argument: 'target_shape'",
                )
            })?;
            let shape = it
                .iterate(&target, line)?
                .iter()
                .map(|v| as_int(v, line))
                .collect::<Ev<_>>()?;
            LayerKind::Op(Op::Reshape {
                shape,
                batch: false,
            })
        }
        ("permute", None) => {
            let dims = b
                .get("dims")
                .cloned()
                .ok_or_else(|| raise(line, "TypeError", "Permute.__init__() missing 'dims'"))?;
            let mut perm = vec![0usize];
            for d in it.iterate(&dims, line)? {
                perm.push(usize::try_from(as_int(&d, line)?).map_err(|_| {
                    raise(line, "ValueError", "Permute dims are 1-based axis indices")
                })?);
            }
            LayerKind::Op(Op::Permute(perm))
        }
        ("upsampling", Some(n)) => {
            let size = match b.get("size") {
                None => vec![2.0; n],
                Some(Value::Int(k)) => vec![*k as f64; n],
                Some(v) => it
                    .iterate(v, line)?
                    .iter()
                    .map(|x| as_float(x, line))
                    .collect::<Ev<_>>()?,
            };
            let mode = interpolation(&b, Interpolation::Nearest)?;
            LayerKind::Op(Op::Upsample {
                scale: Some(size),
                size: None,
                mode,
                align_corners: false,
            })
        }
        ("zeropadding" | "cropping", Some(n)) => {
            let key = if family == "zeropadding" {
                "padding"
            } else {
                "cropping"
            };
            let default = i64::from(family == "zeropadding");
            let spatial = pairs_of(it, b.get(key), n, default, line)?;
            let sign = if family == "cropping" { -1 } else { 1 };
            let mut pairs = vec![(0, 0)];
            pairs.extend(spatial.into_iter().map(|(x, y)| (sign * x, sign * y)));
            pairs.push((0, 0));
            LayerKind::Op(Op::Pad {
                pairs,
                fill: PadFill::Constant(0.0),
            })
        }
        ("add" | "subtract" | "multiply" | "maximum" | "minimum", None) => {
            let op = match family.as_str() {
                "add" => Binary::Add,
                "subtract" => Binary::Sub,
                "multiply" => Binary::Mul,
                "maximum" => Binary::Max,
                _ => Binary::Min,
            };
            merge(Op::Elementwise {
                op,
                constant: None,
                constant_first: false,
            })
        }
        ("average", None) => {
            return Err(unsupported(
                line,
                "layers.Average is not translated by padlab",
            ));
        }
        ("concatenate", None) => merge(Op::Concat {
            axis: b.int("axis")?.unwrap_or(-1),
        }),
        // A batched matrix product: the first input's last axis against the second's middle
        // one (PointNet's transform, attention scores), as Dot(axes=(2, 1)) on 3-D inputs.
        ("dot", None) => {
            let axes: Vec<i64> = match b.get("axes") {
                Some(v @ (Value::Tuple(_) | Value::List(_))) => it
                    .iterate(v, line)?
                    .iter()
                    .map(|a| as_int(a, line))
                    .collect::<Ev<_>>()?,
                Some(v) => vec![as_int(v, line)?; 2],
                None => return Err(raise(line, "TypeError", "Dot() missing axes")),
            };
            if axes != [2, 1] || b.boolean("normalize")?.unwrap_or(false) {
                return Err(b_untranslated(
                    &b,
                    format!(
                        "axes={axes:?}{} (padlab reads Dot(axes=(2, 1)), a batched matrix product)",
                        if b.boolean("normalize")?.unwrap_or(false) {
                            ", normalize=True"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            merge(Op::MatMul)
        }
        ("embedding", None) => LayerKind::Op(Op::Embedding {
            vocab: b.required_int("input_dim")?,
            dim: b.required_int("output_dim")?,
            max_norm: None,
        }),
        ("inputlayer", None) => LayerKind::Identity,
        ("rescaling", None) => match (b.get("scale"), b.get("offset")) {
            // Per-channel factors (EfficientNet's input with its ImageNet weights:
            // `Rescaling([1 / sqrt(std) for std in ...])`): `x * scale + offset` along the
            // last axis is a standardisation by mean `-offset / scale`, deviation `1 / scale`.
            (Some(scale @ (Value::List(_) | Value::Tuple(_))), offset)
            | (Some(scale), offset @ Some(Value::List(_) | Value::Tuple(_))) => {
                let scale = scale.clone();
                let offset = offset.cloned().unwrap_or(Value::Float(0.0));
                rescaling_per_channel(&scale, &offset, line)?
            }
            _ => LayerKind::Op(Op::Affine {
                scale: b.float("scale")?.ok_or_else(|| {
                    raise(line, "TypeError", "Rescaling.__init__() missing 'scale'")
                })?,
                offset: b.float("offset")?.unwrap_or(0.0),
            }),
        },
        ("normalization", None) => match (b.get("mean"), b.get("variance")) {
            // `(x - mean) / max(sqrt(variance), epsilon)` with statistics given.
            (Some(mean), Some(variance)) => {
                if b.boolean("invert")?.unwrap_or(false) {
                    return Err(b_untranslated(&b, "invert=True"));
                }
                match (mean, variance) {
                    (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
                        let (mean, variance) = (as_float(mean, line)?, as_float(variance, line)?);
                        let scale = 1.0 / variance.sqrt().max(1e-7);
                        LayerKind::Op(Op::Affine {
                            scale,
                            offset: -mean * scale,
                        })
                    }
                    // Per-channel statistics (ImageNet's mean and variance over `axis`).
                    _ => {
                        let (mean, shape) = statistics(mean, line)?;
                        let (variance, vshape) = statistics(variance, line)?;
                        if shape != vshape {
                            return Err(raise(
                                line,
                                "ValueError",
                                format!(
                                    "Normalization: mean of shape {shape:?} and variance of shape {vshape:?} (one shape is wanted)"
                                ),
                            ));
                        }
                        // `axis=None`: one mean and variance for every element.
                        let axes = match b.get("axis") {
                            Some(Value::None) => Vec::new(),
                            axis => axes(it, axis, line)?,
                        };
                        LayerKind::Op(Op::Standardize(Standardize {
                            axes,
                            stats: Stats::Given {
                                mean,
                                variance,
                                shape,
                            },
                            invert: false,
                        }))
                    }
                }
            }
            // Statistics `adapt` computes from data: not in the code, but weights of the
            // layer (Keras keeps them, as a saved file does), which a port copies like any
            // other weight; the reading says so.
            _ => {
                let axes = match b.get("axis") {
                    Some(Value::None) => Vec::new(),
                    axis => axes(it, axis, line)?,
                };
                it.assumed.push(format!(
                    "line {line}: Normalization whose mean and variance adapt() computes from data: they are its weights, which a port takes from the adapted source model (the self-check copies them)"
                ));
                LayerKind::Op(Op::Standardize(Standardize {
                    axes,
                    stats: Stats::Weights,
                    invert: false,
                }))
            }
        },
        ("resizing", None) => {
            if b.boolean("crop_to_aspect_ratio")?.unwrap_or(false)
                || b.boolean("pad_to_aspect_ratio")?.unwrap_or(false)
            {
                return Err(b_untranslated(
                    &b,
                    "crop_to_aspect_ratio / pad_to_aspect_ratio",
                ));
            }
            if b.boolean("antialias")?.unwrap_or(false) {
                return Err(b_untranslated(&b, "antialias=True"));
            }
            let mode = interpolation(&b, Interpolation::Linear)?;
            LayerKind::Op(Op::Upsample {
                scale: None,
                size: Some(vec![b.required_int("height")?, b.required_int("width")?]),
                mode,
                align_corners: false,
            })
        }
        (
            "randomflip" | "randomrotation" | "randomzoom" | "randomcontrast" | "randomtranslation"
            | "randombrightness",
            None,
        ) => LayerKind::Op(Op::Identity),
        ("lambda", None) => LayerKind::Lambda(
            b.get("function")
                .cloned()
                .ok_or_else(|| raise(line, "TypeError", "Lambda.__init__() missing 'function'"))?,
        ),
        ("identity", None) => LayerKind::Op(Op::Identity),
        _ => {
            return Err(unsupported(
                line,
                format!("layers.{class} is not a layer padlab translates"),
            ));
        }
    };
    Ok(new_layer(it, fw, class, kind, site, Some(name), args))
}

/// A layer's `interpolation=`, `default` when not given.
fn interpolation(b: &Bound, default: Interpolation) -> Ev<Interpolation> {
    Ok(match b.string("interpolation")?.as_deref() {
        None => default,
        Some("nearest") => Interpolation::Nearest,
        Some("bilinear") => Interpolation::Linear,
        Some("bicubic") => Interpolation::Bicubic,
        Some(other) => return Err(b_untranslated(b, format!("interpolation='{other}'"))),
    })
}

/// A Keras `axis` argument: -1 when absent, an index, or a list or tuple of them.
fn axes(it: &mut Interp, axis: Option<&Value>, line: usize) -> Ev<Vec<i64>> {
    match axis {
        None => Ok(vec![-1]),
        Some(v @ (Value::List(_) | Value::Tuple(_))) => it
            .iterate(v, line)?
            .iter()
            .map(|a| as_int(a, line))
            .collect(),
        Some(v) => Ok(vec![as_int(v, line)?]),
    }
}

/// A number, or (nested) lists or tuples of numbers of one length per level: the values
/// row-major and their shape (a `Normalization`'s per-channel `mean` and `variance`). At most
/// `MAX_STAT_RANK` levels: a list nested deeper (a paste can build one in a loop) is refused
/// before the walk could run out of stack.
/// `Rescaling(scale, offset)` with a list of factors or offsets (one per channel, the last
/// axis): the standardisation that computes `x * scale + offset`.
fn rescaling_per_channel(scale: &Value, offset: &Value, line: usize) -> Ev<LayerKind> {
    let vector = |v: &Value| -> Ev<Vec<f64>> {
        match v {
            Value::Int(_) | Value::Float(_) => Ok(vec![as_float(v, line)?]),
            _ => match statistics(v, line)? {
                (values, shape) if shape.len() == 1 => Ok(values),
                _ => Err(raise(
                    line,
                    "ValueError",
                    "Rescaling: padlab reads a number or one list of per-channel values as scale and offset",
                )),
            },
        }
    };
    let (scale, offset) = (vector(scale)?, vector(offset)?);
    let n = scale.len().max(offset.len());
    if (scale.len() != 1 && scale.len() != n) || (offset.len() != 1 && offset.len() != n) {
        return Err(raise(
            line,
            "ValueError",
            format!(
                "Rescaling: {} factors and {} offsets do not broadcast",
                scale.len(),
                offset.len()
            ),
        ));
    }
    let at = |v: &[f64], i: usize| if v.len() == 1 { v[0] } else { v[i] };
    let (mut mean, mut variance) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        let (s, o) = (at(&scale, i), at(&offset, i));
        if !(s.is_finite() && s > 1e-7 && s < 1e7) {
            return Err(unsupported(
                line,
                format!("Rescaling by per-channel factors: padlab reads positive ones (not {s})"),
            ));
        }
        mean.push(-o / s);
        variance.push(1.0 / (s * s));
    }
    Ok(LayerKind::Op(Op::Standardize(Standardize {
        axes: vec![-1],
        stats: Stats::Given {
            mean,
            variance,
            shape: vec![i64::try_from(n).unwrap_or(i64::MAX)],
        },
        invert: false,
    })))
}

fn statistics(v: &Value, line: usize) -> Ev<(Vec<f64>, Vec<i64>)> {
    const MAX_STAT_RANK: usize = 8;
    let ragged = || {
        raise(
            line,
            "ValueError",
            format!(
                "Normalization: mean and variance must be numbers or lists of one shape, of at most {MAX_STAT_RANK} levels"
            ),
        )
    };
    fn walk(
        v: &Value,
        depth: usize,
        shape: &mut Vec<i64>,
        out: &mut Vec<f64>,
        ragged: &dyn Fn() -> super::eval::Failure,
        line: usize,
    ) -> Ev<()> {
        let items = match v {
            Value::List(items) => items.borrow().clone(),
            Value::Tuple(items) => items.as_ref().clone(),
            number if depth == shape.len() => {
                out.push(as_float(number, line)?);
                return Ok(());
            }
            _ => return Err(ragged()),
        };
        let n = i64::try_from(items.len()).unwrap_or(i64::MAX);
        match shape.get(depth) {
            None if out.is_empty() && depth < MAX_STAT_RANK => shape.push(n),
            Some(&m) if m == n => {}
            _ => return Err(ragged()),
        }
        items
            .iter()
            .try_for_each(|x| walk(x, depth + 1, shape, out, ragged, line))
    }
    let (mut shape, mut out) = (Vec::new(), Vec::new());
    walk(v, 0, &mut shape, &mut out, &ragged, line)?;
    Ok((out, shape))
}

fn b_untranslated(b: &Bound, what: impl std::fmt::Display) -> super::eval::Failure {
    unsupported(
        b.line,
        format!("{}: {what} is not translated by padlab", b.class),
    )
}

/// A Keras tensor built symbolically refuses TensorFlow functions (Keras 3's own rule).
fn refuse_tf_on_symbolic(it: &Interp, path: &str, args: &[Value], line: usize) -> Ev<()> {
    if path.starts_with("tf.")
        && !inside_custom_layer(it)
        && it.keras_tracing == 0
        && args.iter().any(holds_tensor)
    {
        return Err(raise(
            line,
            "ValueError",
            format!(
                "A KerasTensor cannot be used as input to a TensorFlow function ({path}). A KerasTensor is a symbolic placeholder for a shape and dtype, used when constructing Keras Functional models or Keras Functions. You can only use it as input to a Keras layer or a Keras operation (from the namespaces `keras.layers` and `keras.ops`)."
            ),
        ));
    }
    Ok(())
}

/// `keras.ops.*`, `keras.backend.*`, `keras.activations.*` and the `tf.*` operations on tensors.
fn operation(it: &mut Interp, path: &str, Args { pos, kw }: Args, site: &Site) -> Ev<Value> {
    let line = site.line;
    let name = path.rsplit('.').next().unwrap_or(path);
    let tensor_args = pos
        .iter()
        .chain(kw.iter().map(|(_, v)| v))
        .any(holds_tensor);
    if !tensor_args {
        // A tensor the paste makes at the top level (`block(tf.zeros([1, 2, 3, 3]))`): a sample
        // input, whose shape a model called on it takes.
        if matches!(
            name,
            "zeros" | "ones" | "normal" | "random_normal" | "uniform" | "random_uniform"
        ) && it.call_stack.is_empty()
            && let Some(v @ (Value::Tuple(_) | Value::List(_))) = arg(&pos, &kw, 0, "shape")
        {
            let sizes = it.iterate(&v, line)?;
            if sizes.len() >= 2 && sizes.iter().all(|d| matches!(d, Value::Int(n) if *n > 0)) {
                let shape = sizes
                    .iter()
                    .map(|d| as_int(d, line))
                    .collect::<Ev<Vec<_>>>()?;
                let t = super::torch::input_tensor(it, Some(shape), Framework::Keras, site)?;
                return Ok(Value::Tensor(t));
            }
        }
        // Shapes, initializers, dtypes, random seeds: nothing the model's graph holds.
        return Ok(match name {
            "int_shape" | "shape" => Value::Unknown,
            "set_seed" | "clear_session" | "set_image_data_format" | "set_floatx" => Value::None,
            "image_data_format" => Value::str("channels_last"),
            // Keras's fuzz factor (`keras.backend.epsilon()`, `keras.config.epsilon()`).
            "epsilon" => Value::Float(crate::model::op::KERAS_EPSILON),
            "floatx" => Value::str("float32"),
            "function" => pos.into_iter().next().unwrap_or(Value::None),
            "random_normal_initializer"
            | "random_uniform_initializer"
            | "constant_initializer"
            | "zeros_initializer"
            | "ones_initializer"
            | "glorot_uniform_initializer"
            | "TruncatedNormal"
            | "RandomNormal"
            | "HeNormal"
            | "GlorotUniform" => Value::opaque(format!("an initializer ({path})")),
            _ => Value::opaque(format!("the result of {path}()")),
        });
    }
    refuse_tf_on_symbolic(it, path, &pos, line)?;
    let x = || -> Ev<Rc<Tensor>> { tensor_of(pos.first().unwrap_or(&Value::None), line) };
    let act = |a: Activation| Op::Activation(a);
    let int_arg = |i: usize, n: &str| -> Ev<Option<i64>> {
        arg(&pos, &kw, i, n).map(|v| as_int(&v, line)).transpose()
    };
    let axes_arg = |it: &mut Interp, i: usize, n: &str| -> Ev<Vec<i64>> {
        match arg(&pos, &kw, i, n) {
            None => Ok(Vec::new()),
            Some(v @ (Value::List(_) | Value::Tuple(_))) => it
                .iterate(&v, line)?
                .iter()
                .map(|a| as_int(a, line))
                .collect(),
            Some(v) => Ok(vec![as_int(&v, line)?]),
        }
    };
    let keepdims = |it: &mut Interp| -> Ev<bool> {
        match arg(&pos, &kw, 2, "keepdims") {
            Some(v) => it.truthy(&v, line),
            None => Ok(false),
        }
    };
    // Keras names an operation after its class (`ops.abs` is `Absolute`).
    let name = match name {
        "abs" => "absolute",
        "neg" => "negative",
        "concat" => "concatenate",
        "reduce_mean" => "mean",
        "reduce_sum" => "sum",
        "reduce_max" => "max",
        "reduce_min" => "min",
        other => other,
    };
    let op = match name {
        "relu" => act(Activation::Relu),
        "relu6" => act(Activation::Relu6),
        "sigmoid" => act(Activation::Sigmoid),
        "tanh" => act(Activation::Tanh),
        "elu" => act(Activation::Elu(1.0)),
        "selu" => act(Activation::Selu),
        "gelu" => act(Activation::Gelu {
            tanh: matches!(arg(&pos, &kw, 1, "approximate"), Some(Value::Bool(true))),
        }),
        "silu" | "swish" => act(Activation::Silu),
        "softplus" => act(Activation::Softplus),
        "exp" => act(Activation::Exp),
        "log" => act(Activation::Log),
        "sqrt" => act(Activation::Sqrt),
        "absolute" => act(Activation::Abs),
        "negative" => act(Activation::Neg),
        "leaky_relu" => act(Activation::LeakyRelu(
            match arg(&pos, &kw, 1, "alpha").or_else(|| arg(&pos, &kw, 1, "negative_slope")) {
                Some(v) => as_float(&v, line)?,
                None if path.starts_with("tf.") => 0.2,
                None => 0.2,
            },
        )),
        "softmax" | "log_softmax" => Op::Softmax {
            axis: int_arg(1, "axis")?.unwrap_or(-1),
            log: name == "log_softmax",
        },
        "square" => {
            let a = pos.first().cloned().unwrap_or(Value::None);
            return elementwise(it, Binary::Pow, a, Value::Float(2.0), site);
        }
        "add" | "multiply" | "subtract" | "divide" | "true_divide" | "maximum" | "minimum"
        | "pow" | "power" => {
            let bin = match name {
                "add" => Binary::Add,
                "multiply" => Binary::Mul,
                "subtract" => Binary::Sub,
                "maximum" => Binary::Max,
                "minimum" => Binary::Min,
                "pow" | "power" => Binary::Pow,
                _ => Binary::Div,
            };
            let a = pos.first().cloned().unwrap_or(Value::None);
            let b = pos.get(1).cloned().unwrap_or(Value::None);
            return elementwise(it, bin, a, b, site);
        }
        "stack" => {
            let xs = tensors_of(pos.first().unwrap_or(&Value::None), line)?;
            let axis = int_arg(1, "axis")?.unwrap_or(0);
            return super::ops::several(
                it,
                Op::Stack { axis },
                "stack",
                &xs,
                Framework::Keras,
                site,
            );
        }
        "concatenate" => {
            let xs = tensors_of(pos.first().unwrap_or(&Value::None), line)?;
            let axis = int_arg(1, "axis")?.unwrap_or(if path.starts_with("tf.") { 0 } else { -1 });
            return super::ops::several(
                it,
                Op::Concat { axis },
                "concatenate",
                &xs,
                Framework::Keras,
                site,
            );
        }
        "reshape" => {
            let t = x()?;
            let shape = arg(&pos, &kw, 1, "shape")
                .or_else(|| arg(&pos, &kw, 1, "newshape"))
                .unwrap_or(Value::None);
            let sizes = it.iterate(&shape, line)?;
            return reshape(it, &t, &sizes, "reshape", site);
        }
        "transpose" => {
            let t = x()?;
            let perm = axes_arg(
                it,
                1,
                if path.starts_with("tf.") {
                    "perm"
                } else {
                    "axes"
                },
            )?;
            let rank = t.shape.as_ref().map_or(perm.len(), Vec::len);
            let perm: Vec<usize> = if perm.is_empty() {
                (0..rank).rev().collect()
            } else {
                perm.iter()
                    .map(|&a| {
                        crate::model::shape::axis(a, rank).map_err(|m| raise(line, "ValueError", m))
                    })
                    .collect::<Ev<_>>()?
            };
            Op::Permute(perm)
        }
        "reduce_mean" | "mean" | "reduce_sum" | "sum" | "reduce_max" | "max" | "reduce_min"
        | "min" => {
            let op = match name.trim_start_matches("reduce_") {
                "mean" => Reduce::Mean,
                "sum" => Reduce::Sum,
                "max" => Reduce::Max,
                _ => Reduce::Min,
            };
            let axes = axes_arg(it, 1, "axis")?;
            Op::Reduce {
                op,
                axes,
                keepdims: keepdims(it)?,
            }
        }
        // TensorFlow's block moves (channel `(i*r + j)*C + c` to row offset `i`, column `j`).
        "depth_to_space" | "space_to_depth" => {
            let r = int_arg(1, "block_size")?
                .ok_or_else(|| raise(line, "TypeError", format!("{name}() missing block_size")))?;
            if arg(&pos, &kw, 2, "data_format").is_some_and(|v| v.to_string() != "NHWC") {
                return Err(unsupported(
                    line,
                    format!(
                        "tf.nn.{name} with data_format other than NHWC is not translated by padlab"
                    ),
                ));
            }
            if name == "depth_to_space" {
                Op::DepthToSpace(r)
            } else {
                Op::SpaceToDepth(r)
            }
        }
        "expand_dims" => Op::Unsqueeze(vec![int_arg(1, "axis")?.unwrap_or(-1)]),
        "squeeze" => Op::Squeeze(match arg(&pos, &kw, 1, "axis") {
            None => None,
            Some(v) => Some(match v {
                Value::List(_) | Value::Tuple(_) => it
                    .iterate(&v, line)?
                    .iter()
                    .map(|a| as_int(a, line))
                    .collect::<Ev<_>>()?,
                v => vec![as_int(&v, line)?],
            }),
        }),
        "flatten" => Op::Reshape {
            shape: vec![-1],
            batch: true,
        },
        "pad" => {
            let t = x()?;
            let pads = arg(&pos, &kw, 1, "paddings")
                .or_else(|| arg(&pos, &kw, 1, "pad_width"))
                .unwrap_or(Value::None);
            let pairs = pairs_of(
                it,
                Some(&pads),
                t.shape.as_ref().map_or(0, Vec::len),
                0,
                line,
            )?;
            let mode = arg(&pos, &kw, 2, "mode")
                .map(|v| v.to_string().to_ascii_lowercase())
                .unwrap_or_else(|| "constant".into());
            let fill = match mode.as_str() {
                "constant" => PadFill::Constant(match arg(&pos, &kw, 3, "constant_values") {
                    Some(v) => as_float(&v, line)?,
                    None => 0.0,
                }),
                "reflect" => PadFill::Reflect,
                "symmetric" => {
                    return Err(unsupported(
                        line,
                        "tf.pad(mode='SYMMETRIC') is not translated by padlab",
                    ));
                }
                "edge" => PadFill::Replicate,
                other => {
                    return Err(raise(
                        line,
                        "ValueError",
                        format!("Unknown padding mode: {other}"),
                    ));
                }
            };
            Op::Pad { pairs, fill }
        }
        "resize" => {
            let size = arg(&pos, &kw, 1, "size").unwrap_or(Value::None);
            let size: Vec<i64> = it
                .iterate(&size, line)?
                .iter()
                .map(|v| as_int(v, line))
                .collect::<Ev<_>>()?;
            let mode = match arg(&pos, &kw, 2, "method")
                .or_else(|| arg(&pos, &kw, 2, "interpolation"))
                .map(|v| v.to_string())
            {
                None => Interpolation::Linear,
                Some(m) if m.contains("nearest") => Interpolation::Nearest,
                Some(m) if m.contains("bilinear") => Interpolation::Linear,
                Some(m) if m.contains("bicubic") => Interpolation::Bicubic,
                Some(m) => {
                    return Err(unsupported(
                        line,
                        format!("resize(method='{m}') is not translated by padlab"),
                    ));
                }
            };
            Op::Upsample {
                scale: None,
                size: Some(size),
                mode,
                align_corners: false,
            }
        }
        "shape" => {
            // The run-time shape: the batch size stays a reference to the tensor's.
            let t = x()?;
            return Ok(match &t.shape {
                Some(s) => Value::tuple(
                    s.iter()
                        .enumerate()
                        .map(|(i, &d)| {
                            if i == 0 {
                                Value::Batch(t.clone())
                            } else {
                                Value::Int(d)
                            }
                        })
                        .collect(),
                ),
                None => Value::Unknown,
            });
        }
        "int_shape" => return Ok(super::ops::shape_value(&*x()?)),
        "normal" | "random_normal" | "uniform" | "random_uniform" => {
            let shape = arg(&pos, &kw, 0, "shape").unwrap_or(Value::None);
            return random_like(it, path, &shape, &pos, &kw, site);
        }
        "matmul" => {
            if let Some(Value::Weight(w)) = pos.get(1) {
                return super::ops::with_weight(it, &x()?, w, true, "matmul", site);
            }
            let (a, b) = (x()?, tensor_of(pos.get(1).unwrap_or(&Value::None), line)?);
            let out = it.record(
                Op::MatMul,
                "matmul",
                &[a, b],
                Framework::Keras,
                site,
                None,
                Some("matmul"),
            )?;
            return Ok(outputs_value(out));
        }
        _ => {
            return Err(unsupported(
                line,
                format!(
                    "`{}`: {path} is not translated by padlab",
                    super::eval::short(&site.text)
                ),
            ));
        }
    };
    let t = x()?;
    apply(it, &t, op, name, site)
}

/// `keras.random.normal(shape=ops.shape(x))`, `tf.random.normal((tf.shape(x)[0], d))`: random
/// values shaped like a tensor of the model, whose batch size the shape takes from it. Other
/// shapes (a fixed batch, other sizes) and other distributions are refused.
fn random_like(
    it: &mut Interp,
    path: &str,
    shape: &Value,
    pos: &[Value],
    kw: &[(Rc<str>, Value)],
    site: &Site,
) -> Ev<Value> {
    let line = site.line;
    let name = path.rsplit('.').next().unwrap_or(path);
    let normal = name.contains("normal");
    let refuse = |why: &str| {
        unsupported(
            line,
            format!(
                "`{}`: {path} {why} is not translated by padlab",
                super::eval::short(&site.text)
            ),
        )
    };
    let sizes = match shape {
        Value::Tuple(_) | Value::List(_) => it.iterate(shape, line)?,
        _ => return Err(refuse("of a shape that is not a tuple of sizes")),
    };
    let Some(Value::Batch(t)) = sizes.first() else {
        return Err(refuse(
            "of a shape without the batch size of a tensor (`shape(x)[0]`)",
        ));
    };
    let t = t.clone();
    let Some(want) = t.shape.clone() else {
        return Err(refuse("of a tensor of unknown shape"));
    };
    let same = sizes.len() == want.len()
        && sizes[1..]
            .iter()
            .zip(&want[1..])
            .all(|(v, &d)| matches!(v, Value::Int(i) if *i == d));
    if !same {
        return Err(refuse("of a shape other than a tensor's own"));
    }
    // The distribution's parameters: only the standard ones (the port draws those).
    let standard: &[(&str, f64)] = if normal {
        &[("mean", 0.0), ("stddev", 1.0)]
    } else {
        &[("minval", 0.0), ("maxval", 1.0)]
    };
    for (i, (k, default)) in standard.iter().enumerate() {
        if let Some(v) = arg(pos, kw, i + 1, k)
            && !matches!(v, Value::None)
            && as_float(&v, line)? != *default
        {
            return Err(refuse(&format!("with {k}={v}")));
        }
    }
    let kind = if normal { "normal" } else { "uniform" };
    let out = it.record(
        Op::Random { normal },
        kind,
        std::slice::from_ref(&t),
        t.framework,
        site,
        None,
        Some(kind),
    )?;
    Ok(outputs_value(out))
}

impl Value {
    /// A name on the call stack (for Keras paths) that is not an object.
    pub fn opaque_named(name: &str) -> Value {
        Value::Layer(Rc::new(Layer {
            id: 0,
            framework: Framework::Keras,
            class: Rc::from("Scope"),
            kind: LayerKind::Identity,
            text: Rc::from(""),
            line: 0,
            name: Some(Rc::from(name)),
            first_node: std::cell::Cell::new(None),
            weight_norm: std::cell::Cell::new(None),
            args: vec![],
            attrs: Default::default(),
            first_input: Default::default(),
        }))
    }
}

/// The names in the paste Keras code reads as `keras.layers` (for `from keras.layers import
/// *`): re-exported for the file front end, which builds layers from their configs.
pub fn layer_from_config(
    it: &mut Interp,
    class: &str,
    config: Vec<(Rc<str>, Value)>,
    site: &Site,
) -> Ev<Value> {
    construct(it, class, Args::keywords(config), site)
}

#[cfg(test)]
mod tests {
    use super::snake_case;

    #[test]
    fn keras_names_its_layers_as_keras_does() {
        for (class, name) in [
            ("Conv2D", "conv2d"),
            ("Conv2DTranspose", "conv2d_transpose"),
            ("BatchNormalization", "batch_normalization"),
            ("MaxPooling2D", "max_pooling2d"),
            ("GlobalAveragePooling2D", "global_average_pooling2d"),
            ("SeparableConv2D", "separable_conv2d"),
            ("ZeroPadding2D", "zero_padding2d"),
            ("InputLayer", "input_layer"),
            ("LeakyReLU", "leaky_re_lu"),
            ("ReLU", "re_lu"),
            ("Add", "add"),
            ("Functional", "functional"),
            ("UpSampling2D", "up_sampling2d"),
            ("Conv1D", "conv1d"),
            ("DepthwiseConv2D", "depthwise_conv2d"),
        ] {
            assert_eq!(snake_case(class), name, "{class}");
        }
    }
}
