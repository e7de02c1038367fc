//! A Keras model file as a [`Graph`]: the configuration is written as the Keras code that
//! builds it (one constructor per layer with its `config` as keyword arguments, one call per
//! inbound node, nested models first) and read by the code front end. Each Keras layer thus
//! has one rule, in `model::code::keras`, whether it was pasted or saved. The exceptions are
//! the layers whose op only the file gives ([`OwnLayer`]): `Normalization`, whose statistics
//! are its configuration's lists or its weights, and ConvNeXt's `LayerScale` and
//! `StochasticDepth` (classes of `keras.applications.convnext`, not of `keras.layers`): the
//! code builds a stand-in of the same shape and [`to_graph`] gives the node its op.
//!
//! The layers keep their file names (a nested layer `block/block_conv`, Keras's own path), so
//! the self-check script finds them in the model `keras.saving.load_model` returns.

use serde_json::Value;

use super::super::graph::{Graph, Shape};
use super::super::op::{Op, Standardize, Stats};
use super::super::shape;
use super::keras::{
    InputShape, KerasConfig, KerasLayer, KerasModel, ModelClass, TensorRef, keras_tensor,
};
use super::{FileError, Format};
use crate::core::Framework;

/// The Keras code a configuration stands for, and which layer each line builds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KerasCode {
    pub code: String,
    /// The variable holding the file's model.
    pub build: String,
    /// The sample shape given to the model's first input (batch left out).
    pub input: Vec<i64>,
    /// Per line of `code` (1-based: index `line - 1`), the layer path it builds or calls.
    pub layers: Vec<String>,
    /// The layers whose ops are made from the file (see [`to_graph`]).
    pub own: Vec<OwnLayer>,
    /// The refused layer the model was cut at, and the variables it reads (the model's
    /// outputs): [`to_graph`] adds it as a row with its refusal.
    pub stopped: Option<(Stop, Vec<String>)>,
}

/// A layer of the file whose op padlab makes from the file itself: its path, class and
/// configuration, the stand-in the code builds for its shape (`written`, read as a node of
/// kind `stand_in`), and its constructor as the file has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnLayer {
    pub path: String,
    pub class: String,
    pub config: Value,
    pub stand_in: &'static str,
    pub written: String,
    pub full: String,
}

/// ConvNeXt's own layer classes padlab reads.
const CONVNEXT: &str = "keras.src.applications.convnext";

/// Configuration keys that do not change the numbers a layer computes, or that the code
/// gives apart (the name, an input shape).
fn dropped(key: &str) -> bool {
    matches!(
        key,
        "name"
            | "trainable"
            | "dtype"
            | "batch_input_shape"
            | "batch_shape"
            | "input_shape"
            | "input_dim_unused"
            | "autocast"
    ) || key.ends_with("_initializer")
        || key.ends_with("_regularizer")
        || key.ends_with("_constraint")
}

/// A key Keras 2 (tf_keras) writes at its default value that Keras 3 does not take for the
/// class: `groups: 1` of a depthwise, separable or transposed convolution (subclasses of
/// `Conv2D` in Keras 2, without `groups` in Keras 3).
fn keras2_default(class: &str, key: &str, value: &Value) -> bool {
    key == "groups"
        && value.as_i64() == Some(1)
        && (class.starts_with("DepthwiseConv")
            || class.starts_with("SeparableConv")
            || class.ends_with("Transpose"))
}

/// A name as a Python string literal.
fn quoted(name: &str) -> String {
    serde_json::to_string(name).unwrap_or_default()
}

/// A JSON value as a Python literal (lists as tuples: Keras takes tuples for sizes).
fn literal(v: &Value, depth: usize) -> Option<String> {
    if depth > 32 {
        return None;
    }
    Some(match v {
        Value::Null => "None".into(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => serde_json::to_string(s).ok()?,
        Value::Array(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| literal(i, depth + 1))
                .collect::<Option<_>>()?;
            match parts.len() {
                1 => format!("({},)", parts[0]),
                _ => format!("({})", parts.join(", ")),
            }
        }
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| {
                    Some(format!(
                        "{}: {}",
                        serde_json::to_string(k).ok()?,
                        literal(v, depth + 1)?
                    ))
                })
                .collect::<Option<_>>()?;
            format!("{{{}}}", parts.join(", "))
        }
    })
}

struct Writer<'a> {
    lines: Vec<String>,
    layers: Vec<String>,
    own: Vec<OwnLayer>,
    vars: usize,
    /// `--input`: one sample's shape for the file's first input.
    given: Option<&'a [i64]>,
    /// The shape the first input got.
    input: Option<Vec<i64>>,
    /// The layer of the file's own model to stop at (one padlab refuses): the model ends
    /// with the tensors it reads, and [`to_graph`] adds it as a refused row.
    stop: Option<Stop>,
    /// Set when the writing stopped there: the layer, and the variables it reads.
    stopped: Option<(Stop, Vec<String>)>,
}

/// A layer of the file's model that padlab refuses, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    /// Its name in the file's own model (a nested model's, for a layer inside it).
    pub layer: String,
    pub class: String,
    pub why: String,
}

impl Writer<'_> {
    fn line(&mut self, layer: &str, text: String) {
        // Inside `def build():`, so the first failing statement is the reading's error.
        self.lines.push(format!("    {text}"));
        self.layers.push(layer.to_string());
    }

    fn var(&mut self, prefix: &str) -> String {
        self.vars += 1;
        format!("{prefix}{}", self.vars)
    }

    fn error(&self, layer: &str, what: impl Into<String>) -> FileError {
        FileError::Layer {
            layer: layer.to_string(),
            what: what.into(),
        }
    }

    /// The shape for an input: `--input` for the file's first one, else the declared sizes
    /// (batch left out). `top`: the file's own model (its free sizes need `--input`).
    fn input_shape(
        &mut self,
        name: &str,
        declared: Option<&[Option<i64>]>,
        top: bool,
    ) -> Result<Vec<Option<i64>>, FileError> {
        let declared: Vec<Option<i64>> = declared
            .map(|d| d.get(1..).unwrap_or(&[]).to_vec())
            .unwrap_or_default();
        if top && self.input.is_none() {
            if let Some(g) = self.given {
                let fits = declared.is_empty()
                    || (g.len() == declared.len()
                        && declared
                            .iter()
                            .zip(g)
                            .all(|(d, &v)| v > 0 && d.is_none_or(|d| d == v)));
                if !fits {
                    return Err(FileError::InputMismatch {
                        input: name.to_string(),
                        declared: shape_text(&declared),
                        given: g.to_vec(),
                    });
                }
                self.input = Some(g.to_vec());
                return Ok(g.iter().map(|&v| Some(v)).collect());
            }
            let known: Option<Vec<i64>> = declared.iter().copied().collect();
            match known {
                Some(k) if !declared.is_empty() => {
                    self.input = Some(k);
                }
                _ => {
                    return Err(FileError::NeedsInput {
                        input: name.to_string(),
                        declared: shape_text(&declared),
                    });
                }
            }
        } else if top && declared.iter().any(Option::is_none) {
            return Err(FileError::NeedsInput {
                input: name.to_string(),
                declared: shape_text(&declared),
            });
        }
        Ok(declared)
    }

    /// Writes `m` (and the models nested in it); returns the variable holding it.
    fn model(
        &mut self,
        m: &KerasConfig,
        path: &str,
        top: bool,
        depth: usize,
    ) -> Result<String, FileError> {
        if depth > super::limits::NESTING {
            return Err(FileError::TooLarge {
                format: Format::Keras,
                what: "nested models",
                limit: super::limits::NESTING,
            });
        }
        match m.class {
            ModelClass::Sequential => self.sequential(m, path, top, depth),
            ModelClass::Functional => self.functional(m, path, top, depth),
        }
    }

    /// Where a model's own lines are said to be: its path, or its name at the top.
    fn model_path(m: &KerasConfig, path: &str) -> String {
        if path.is_empty() {
            m.name.clone()
        } else {
            path.to_string()
        }
    }

    fn layer_path(path: &str, name: &str) -> String {
        if path.is_empty() {
            name.to_string()
        } else {
            format!("{path}/{name}")
        }
    }

    /// A layer's (or an operation's) `config` as keyword arguments: the keys that change its
    /// numbers, a free (None) value left to its default.
    fn config_kwargs(
        &self,
        class: &str,
        config: &Value,
        at: &str,
    ) -> Result<Vec<String>, FileError> {
        let mut kwargs = Vec::new();
        let Value::Object(config) = config else {
            return Ok(kwargs);
        };
        for (k, v) in config {
            if dropped(k) || v.is_null() || keras2_default(class, k, v) {
                continue;
            }
            // Keras 2 stores BatchNormalization's axis as a one-element list.
            let v = match (k.as_str(), v) {
                ("axis", Value::Array(a)) if a.len() == 1 => &a[0],
                _ => v,
            };
            let text =
                literal(v, 0).ok_or_else(|| self.error(at, format!("{k} is nested too deeply")))?;
            if !plain_key(k) {
                return Err(self.error(
                    at,
                    format!("a configuration key padlab does not read: {k:?}"),
                ));
            }
            kwargs.push(format!("{k}={text}"));
        }
        Ok(kwargs)
    }

    /// `lN = layers.Class(config..., name="...")`, or a nested model.
    fn construct(&mut self, l: &KerasLayer, path: &str, depth: usize) -> Result<String, FileError> {
        let at = Self::layer_path(path, &l.name);
        if let Some(m) = &l.model {
            return self.model(m, &at, false, depth + 1);
        }
        let mut kwargs = self.config_kwargs(&l.class_name, &l.config, &at)?;
        let name = quoted(&l.name);
        kwargs.push(format!("name={name}"));
        if !l
            .class_name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
            || l.class_name.is_empty()
        {
            return Err(self.error(
                &at,
                format!("a layer class padlab does not know: {:?}", l.class_name),
            ));
        }
        if l.class_name == "Lambda" {
            return Err(self.error(
                &at,
                "its function is Python code the file keeps as bytecode, which padlab does not run",
            ));
        }
        let convnext = l.module.as_deref() == Some(CONVNEXT);
        let class = if convnext {
            l.class_name.clone()
        } else {
            format!("layers.{}", l.class_name)
        };
        let full = format!("{class}({})", kwargs.join(", "));
        // The layers whose op `to_graph` makes: the code builds a stand-in of their shape (a
        // Normalization without its statistics, which are the file's; an identity).
        let stand_in = match l.class_name.as_str() {
            "Normalization" => {
                let kept: Vec<&str> = kwargs
                    .iter()
                    .map(String::as_str)
                    .filter(|k| !k.starts_with("mean=") && !k.starts_with("variance="))
                    .collect();
                Some(("Normalization", format!("{class}({})", kept.join(", "))))
            }
            "LayerScale" | "StochasticDepth" if convnext => {
                Some(("Identity", format!("layers.Identity(name={name})")))
            }
            _ => None,
        };
        let written = match stand_in {
            Some((kind, written)) => {
                self.own.push(OwnLayer {
                    path: at.clone(),
                    class: l.class_name.clone(),
                    config: l.config.clone(),
                    stand_in: kind,
                    written: written.clone(),
                    full,
                });
                written
            }
            None => full,
        };
        let v = self.var("l");
        self.line(&at, format!("{v} = {written}"));
        Ok(v)
    }

    fn sequential(
        &mut self,
        m: &KerasConfig,
        path: &str,
        top: bool,
        depth: usize,
    ) -> Result<String, FileError> {
        let mut items = Vec::new();
        let mut declared: Option<Vec<Option<i64>>> = None;
        let mut input_name = "input".to_string();
        for l in &m.layers {
            if l.class_name == "InputLayer" {
                declared = batch_shape(&l.config);
                input_name = l.name.clone();
                continue;
            }
            if declared.is_none() && items.is_empty() {
                declared = batch_shape(&l.config).or_else(|| one(l.build_input_shape.as_ref()));
            }
            if top && let Some(stop) = self.stop.take_if(|s| s.layer == l.name) {
                // The model ends before it; it reads the model's last output.
                self.stopped = Some((stop, Vec::new()));
                break;
            }
            items.push(self.construct(l, path, depth)?);
        }
        if declared.is_none() {
            declared = one(m.build_input_shape.as_ref());
        }
        let at = Self::model_path(m, path);
        if top {
            let shape = self.input_shape(&input_name, declared.as_deref(), true)?;
            let name = quoted(&input_name);
            items.insert(
                0,
                format!("keras.Input(shape={}, name={name})", shape_literal(&shape)),
            );
        }
        let v = self.var("m");
        let name = quoted(&m.name);
        self.line(
            &at,
            format!(
                "{v} = keras.Sequential([{}], name={name})",
                items.join(", ")
            ),
        );
        Ok(v)
    }

    fn functional(
        &mut self,
        m: &KerasConfig,
        path: &str,
        top: bool,
        depth: usize,
    ) -> Result<String, FileError> {
        // Each layer's variable, and each call's output variable.
        let mut layer_vars: Vec<(String, String)> = Vec::new();
        let mut calls: Vec<(String, usize, String)> = Vec::new();
        let at = Self::model_path(m, path);
        let find =
            |calls: &Vec<(String, usize, String)>, r: &TensorRef, many: bool| -> Option<String> {
                calls
                    .iter()
                    .find(|(l, n, _)| *l == r.layer && *n == r.node_index)
                    .map(|(_, _, v)| {
                        if many || r.tensor_index > 0 {
                            format!("{v}[{}]", r.tensor_index)
                        } else {
                            v.clone()
                        }
                    })
            };
        // Layers whose outputs are read by index (several outputs).
        let many = |name: &str| {
            m.layers.iter().any(|l| {
                l.inbound
                    .iter()
                    .any(|n| n.args.iter().any(|r| r.layer == name && r.tensor_index > 0))
            }) || m
                .outputs
                .iter()
                .any(|r| r.layer == name && r.tensor_index > 0)
                || m.layers
                    .iter()
                    .find(|l| l.name == name)
                    .and_then(|l| l.model.as_ref())
                    .is_some_and(|n| n.outputs.len() > 1)
        };
        // Keras 2 numbers a layer's calls across every model it is in: a nested model built
        // on its own input has that call first, so this model's calls of it start at 1. The
        // calls read here are the layer's last ones.
        let mut offsets: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for l in m.layers.iter().filter(|l| !l.inbound.is_empty()) {
            let read = m
                .layers
                .iter()
                .flat_map(|o| o.inbound.iter().flat_map(|n| n.args.iter()))
                .chain(m.outputs.iter())
                .filter(|r| r.layer == l.name)
                .map(|r| r.node_index)
                .max();
            if let Some(last) = read
                && last >= l.inbound.len()
            {
                offsets.insert(l.name.as_str(), last + 1 - l.inbound.len());
            }
        }
        let find = |calls: &Vec<(String, usize, String)>, r: &TensorRef, many: bool| {
            let shift = offsets.get(r.layer.as_str()).copied().unwrap_or(0);
            let r = TensorRef {
                layer: r.layer.clone(),
                node_index: r.node_index.checked_sub(shift)?,
                tensor_index: r.tensor_index,
            };
            find(calls, &r, many)
        };
        let mut first = true;
        for l in &m.layers {
            let lat = Self::layer_path(path, &l.name);
            if top && let Some(stop) = self.stop.take_if(|s| s.layer == l.name) {
                // The model ends with the tensors its first call reads.
                let reads = l
                    .inbound
                    .first()
                    .map(|n| {
                        n.args
                            .iter()
                            .map(|r| {
                                find(&calls, r, many(&r.layer)).ok_or_else(|| {
                                    self.error(
                                        &lat,
                                        format!(
                                            "reads {:?}, which no earlier layer makes",
                                            r.layer
                                        ),
                                    )
                                })
                            })
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .transpose()?
                    .unwrap_or_default();
                self.stopped = Some((stop, reads));
                break;
            }
            if l.class_name == "InputLayer" {
                let declared = batch_shape(&l.config).or_else(|| one(l.build_input_shape.as_ref()));
                let shape = self.input_shape(&l.name, declared.as_deref(), top && first)?;
                if top && shape.iter().any(Option::is_none) {
                    return Err(FileError::NeedsInput {
                        input: l.name.clone(),
                        declared: shape_text(&shape),
                    });
                }
                first = false;
                let v = self.var("t");
                let name = quoted(&l.name);
                self.line(
                    &lat,
                    format!(
                        "{v} = keras.Input(shape={}, name={name})",
                        shape_literal(&shape)
                    ),
                );
                calls.push((l.name.clone(), 0, v));
                continue;
            }
            if is_operation(l) {
                // `x + 3.0` in a functional model: an operation, called with its arguments as
                // recorded (constants included), written as the `keras.ops` call it is.
                let function = snake_case(&l.class_name);
                for (k, node) in l.inbound.iter().enumerate() {
                    let resolve = |r: &TensorRef| {
                        find(&calls, r, many(&r.layer)).ok_or_else(|| {
                            self.error(
                                &lat,
                                format!(
                                    "reads {:?} (call {}), which no earlier layer makes",
                                    r.layer, r.node_index
                                ),
                            )
                        })
                    };
                    let mut parts = Vec::new();
                    for a in node.raw_args.as_array().map_or(&[][..], Vec::as_slice) {
                        parts.push(python_arg(a, &resolve, 0).unwrap_or_else(|| {
                            Err(self.error(&lat, "an argument padlab cannot write"))
                        })?);
                    }
                    if let Value::Object(kw) = &node.kwargs {
                        for (key, v) in kw {
                            let text = python_arg(v, &resolve, 0).unwrap_or_else(|| {
                                Err(self
                                    .error(&lat, format!("{key}: an argument padlab cannot write")))
                            })?;
                            if !plain_key(key) {
                                return Err(self.error(
                                    &lat,
                                    format!("a keyword padlab does not read: {key:?}"),
                                ));
                            }
                            parts.push(format!("{key}={text}"));
                        }
                    }
                    // The operation's own arguments (`Mean`'s axis and keepdims) are its config.
                    parts.extend(self.config_kwargs(&l.class_name, &l.config, &lat)?);
                    let v = self.var("t");
                    self.line(
                        &lat,
                        format!("{v} = keras.ops.{function}({})", parts.join(", ")),
                    );
                    calls.push((l.name.clone(), k, v));
                }
                continue;
            }
            let lv = self.construct(l, path, depth)?;
            layer_vars.push((l.name.clone(), lv.clone()));
            for (k, node) in l.inbound.iter().enumerate() {
                let args: Vec<String> = node
                    .args
                    .iter()
                    .map(|r| {
                        let m = many(&r.layer);
                        find(&calls, r, m).ok_or_else(|| {
                            self.error(
                                &lat,
                                format!(
                                    "reads {:?} (call {}), which no earlier layer makes",
                                    r.layer, r.node_index
                                ),
                            )
                        })
                    })
                    .collect::<Result<_, _>>()?;
                let arg = if args.len() == 1 && !merges(&l.class_name) {
                    args[0].clone()
                } else {
                    format!("[{}]", args.join(", "))
                };
                let v = self.var("t");
                self.line(&lat, format!("{v} = {lv}({arg})"));
                calls.push((l.name.clone(), k, v));
            }
        }
        let refs = |list: &[TensorRef]| -> Result<String, FileError> {
            let parts: Vec<String> = list
                .iter()
                .map(|r| {
                    find(&calls, r, many(&r.layer)).ok_or_else(|| {
                        self.error(
                            &at,
                            format!("the model reads {:?}, which no layer makes", r.layer),
                        )
                    })
                })
                .collect::<Result<_, _>>()?;
            Ok(match parts.len() {
                1 => parts[0].clone(),
                _ => format!("[{}]", parts.join(", ")),
            })
        };
        let inputs = refs(&m.inputs)?;
        let outputs = match &self.stopped {
            Some((_, reads)) if top => match reads.as_slice() {
                [one] => one.clone(),
                many => format!("[{}]", many.join(", ")),
            },
            _ => refs(&m.outputs)?,
        };
        let v = self.var("m");
        let name = quoted(&m.name);
        self.line(
            &at,
            format!("{v} = keras.Model(inputs={inputs}, outputs={outputs}, name={name})"),
        );
        Ok(v)
    }
}

/// An operation a Keras 3 functional model recorded (`x + 3.0`, `ops.mean(x)`), not a layer.
fn is_operation(l: &KerasLayer) -> bool {
    l.module
        .as_deref()
        .is_some_and(|m| m.starts_with("keras.src.ops.") || m == "keras.ops")
}

/// Whether `key` can be written as a Python keyword as it is.
fn plain_key(key: &str) -> bool {
    !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `TrueDivide` → `true_divide`: an operation's function from its class.
fn snake_case(class: &str) -> String {
    let mut out = String::with_capacity(class.len() + 4);
    for (i, c) in class.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        }
    }
    out
}

/// One recorded argument as Python: a tensor as its variable, a list as a list, a constant as
/// its literal; `None` for anything else (an object padlab does not know).
fn python_arg(
    v: &Value,
    resolve: &dyn Fn(&TensorRef) -> Result<String, FileError>,
    depth: usize,
) -> Option<Result<String, FileError>> {
    if depth > 32 {
        return None;
    }
    if let Some(t) = keras_tensor(v) {
        return Some(resolve(&t?));
    }
    match v {
        Value::Array(items) => {
            let mut parts = Vec::with_capacity(items.len());
            for x in items {
                match python_arg(x, resolve, depth + 1)? {
                    Ok(p) => parts.push(p),
                    Err(e) => return Some(Err(e)),
                }
            }
            Some(Ok(format!("[{}]", parts.join(", "))))
        }
        Value::Object(_) => None,
        other => literal(other, depth).map(Ok),
    }
}

/// Layers that take a list of tensors.
fn merges(class: &str) -> bool {
    matches!(
        class,
        "Add" | "Subtract" | "Multiply" | "Average" | "Maximum" | "Minimum" | "Concatenate" | "Dot"
    )
}

/// An `InputLayer`'s (or Keras 2 first layer's) batch shape.
fn batch_shape(config: &Value) -> Option<Vec<Option<i64>>> {
    let v = config
        .get("batch_shape")
        .or_else(|| config.get("batch_input_shape"))?;
    v.as_array()?
        .iter()
        .map(|d| match d {
            Value::Null => Some(None),
            d => d.as_i64().map(Some),
        })
        .collect()
}

fn one(s: Option<&InputShape>) -> Option<Vec<Option<i64>>> {
    match s? {
        InputShape::One(v) => Some(v.clone()),
        InputShape::Many(v) => v.first().cloned(),
    }
}

fn shape_literal(s: &[Option<i64>]) -> String {
    let parts: Vec<String> = s
        .iter()
        .map(|d| d.map_or("None".to_string(), |v| v.to_string()))
        .collect();
    match parts.len() {
        1 => format!("({},)", parts[0]),
        _ => format!("({})", parts.join(", ")),
    }
}

fn shape_text(s: &[Option<i64>]) -> String {
    let parts: Vec<String> = s
        .iter()
        .map(|d| d.map_or("None".to_string(), |v| v.to_string()))
        .collect();
    format!("({})", parts.join(", "))
}

/// The Keras code that builds the file's model; `input`: one sample's shape for its first
/// input (needed when the file leaves a size free).
pub fn keras_code(k: &KerasModel, input: Option<&[i64]>) -> Result<KerasCode, FileError> {
    keras_code_until(k, input, None)
}

/// [`keras_code`] cut before `stop`, a layer of the file's own model padlab refuses.
pub fn keras_code_until(
    k: &KerasModel,
    input: Option<&[i64]>,
    stop: Option<Stop>,
) -> Result<KerasCode, FileError> {
    let mut w = Writer {
        lines: vec![
            "import keras".into(),
            "from keras import layers".into(),
            "def build():".into(),
        ],
        layers: vec![String::new(); 3],
        own: Vec::new(),
        vars: 0,
        given: input,
        input: None,
        stop,
        stopped: None,
    };
    let model = w.model(&k.model, "", true, 0)?;
    w.line("", format!("return {model}"));
    w.lines.push("model = build()".into());
    w.layers.push(String::new());
    let build = "model".to_string();
    let input = w.input.clone().ok_or_else(|| FileError::NeedsInput {
        input: k.model.name.clone(),
        declared: "(no input layer)".into(),
    })?;
    Ok(KerasCode {
        code: w.lines.join("\n") + "\n",
        build,
        input,
        layers: w.layers,
        own: w.own,
        stopped: w.stopped,
    })
}

/// The file's model as a graph: its rows up to a layer padlab refuses (a Lambda, a layer it
/// does not translate, one its rule refuses at this size), that layer as a row with the
/// refusal, the rows after it left out. Errors that are not a layer's stay errors.
pub fn open_graph(k: &KerasModel, input: Option<&[i64]>) -> Result<(Graph, Vec<i64>), FileError> {
    let refused = match keras_code(k, input).and_then(|code| {
        let graph = to_graph(k, &code)?;
        Ok((graph, code.input))
    }) {
        Ok(done) => return Ok(done),
        Err(FileError::Layer { layer, what }) => (layer, what),
        Err(e) => return Err(e),
    };
    let stop = stop_at(k, &refused.0, &refused.1).ok_or_else(|| FileError::Layer {
        layer: refused.0.clone(),
        what: refused.1.clone(),
    })?;
    let code = keras_code_until(k, input, Some(stop))?;
    let graph = to_graph(k, &code)?;
    Ok((graph, code.input))
}

/// The layer of the file's own model to stop at for a refusal of the layer at `path`: it, or
/// the nested model it is in; `None` when `path` names no such layer.
fn stop_at(k: &KerasModel, path: &str, why: &str) -> Option<Stop> {
    let mut parts = path.splitn(2, '/');
    let top = parts.next()?;
    let inner = parts.next();
    let layer = k.model.layers.iter().find(|l| l.name == top)?;
    let what = match (inner, &layer.registered_name, &layer.module) {
        (Some(inner), _, _) => format!("its layer {inner}: {why}"),
        // A class of the user's own (registered, not one of Keras's modules).
        (None, Some(registered), module)
            if !module.as_deref().is_some_and(|m| m.starts_with("keras")) =>
        {
            format!(
                "a custom layer class ({registered}), not one of Keras's: padlab does not know what it computes"
            )
        }
        (None, _, _) => why.to_string(),
    };
    // The refusal names the class (the code front end's words mostly do already).
    let class = &layer.class_name;
    let what = if what.starts_with(class.as_str()) || what.starts_with(&format!("layers.{class}")) {
        what
    } else {
        format!("{class}: {what}")
    };
    Some(Stop {
        layer: layer.name.clone(),
        class: class.clone(),
        why: what,
    })
}

/// The file's model as a graph (the code front end reading [`keras_code`]); nodes keep their
/// Keras paths as names and have no line.
pub fn to_graph(k: &KerasModel, code: &KerasCode) -> Result<Graph, FileError> {
    let options = crate::model::code::Options {
        input: None,
        model: Some(code.build.clone()),
    };
    let layer_at = |line: usize| {
        line.checked_sub(1)
            .and_then(|i| code.layers.get(i))
            .cloned()
            .unwrap_or_default()
    };
    let reading = crate::model::code::read(&code.code, &options).map_err(|e| {
        // The model's variable names the statement that failed; read without it, the reading
        // names that statement's line (the layer's) and its own words.
        let first = crate::model::code::read(
            &code.code,
            &crate::model::code::Options {
                input: None,
                model: None,
            },
        )
        .err()
        .filter(|f| !layer_at(f.line).is_empty())
        .unwrap_or(e);
        FileError::Layer {
            layer: layer_at(first.line),
            what: first.message,
        }
    })?;
    let mut graph = reading.graph;
    graph.name = k.model.name.clone();
    if let Some((stop, _)) = &code.stopped {
        refused_row(&mut graph, stop);
    }
    for layer in &code.own {
        own_op(&mut graph, layer)?;
    }
    for n in &mut graph.nodes {
        n.source.line = 0;
        n.source.call_line = None;
    }
    Ok(graph)
}

/// Adds the layer the model was cut at: reading the model's outputs, refused with its reason,
/// the model's output in their place.
fn refused_row(graph: &mut Graph, stop: &Stop) {
    let inputs = graph.outputs.clone();
    let inferred = crate::model::graph::Inferred {
        outputs: vec![None],
        error: Some(stop.why.clone()),
        ..Default::default()
    };
    let id = graph.push(crate::model::graph::Node {
        op: Op::Read {
            what: format!("{} ({})", stop.layer, stop.class),
            rule: super::super::op::ReadRule::Refused(stop.why.clone()),
        },
        inputs,
        name: stop.layer.clone(),
        kind: stop.class.clone(),
        source: crate::model::graph::Source {
            line: 0,
            text: format!("layers.{}(...)", stop.class),
            call_line: None,
        },
        shares: None,
        inferred,
    });
    graph.outputs = vec![crate::model::graph::Edge::of(id)];
    graph.notes.push(format!(
        "layer {} ({}) is refused: the rows after it are not read",
        stop.layer, stop.class
    ));
}

/// Gives the nodes of one of the file's [`OwnLayer`]s their op and class: a Normalization's
/// axes and the statistics its configuration gives or else its weights, a LayerScale's
/// weight, a StochasticDepth's identity at inference. The note the code front end wrote for
/// a shape-only layer goes, and the row shows the constructor as the file has it.
fn own_op(graph: &mut Graph, layer: &OwnLayer) -> Result<(), FileError> {
    let error = |what: String| FileError::Layer {
        layer: layer.path.clone(),
        what: format!("{}: {what}", layer.class),
    };
    let op = match layer.class.as_str() {
        "Normalization" => Op::Standardize(standardize_op(&layer.config).map_err(error)?),
        "LayerScale" => Op::LayerScale {
            features: Some(
                layer
                    .config
                    .get("projection_dim")
                    .and_then(Value::as_i64)
                    .ok_or_else(|| error("no integer projection_dim".into()))?,
            ),
        },
        _ => Op::Identity,
    };
    for i in 0..graph.nodes.len() {
        if graph.nodes[i].name != layer.path || graph.nodes[i].kind != layer.stand_in {
            continue;
        }
        let inputs: Vec<Option<Shape>> = graph.nodes[i]
            .inputs
            .iter()
            .map(|&e| graph.shape_of(e).cloned())
            .collect();
        let refs: Vec<Option<&Shape>> = inputs.iter().map(Option::as_ref).collect();
        let inferred = shape::infer(&op, Framework::Keras, &refs);
        let n = &mut graph.nodes[i];
        let opaque_note = format!("line {}: {} (", n.source.line, n.name);
        graph.notes.retain(|note| !note.starts_with(&opaque_note));
        n.op = op.clone();
        n.kind = layer.class.clone();
        n.inferred = inferred;
        n.source.text = n.source.text.replace(&layer.written, &layer.full);
    }
    Ok(())
}

/// A `Normalization` configuration as its op: `axis` (an index, a list, or None), `mean` and
/// `variance` (numbers or nested lists of one shape) when given, `invert`.
fn standardize_op(config: &Value) -> Result<Standardize, String> {
    let axes = match config.get("axis") {
        None => vec![-1],
        Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| v.as_i64().ok_or("an axis that is not an integer"))
            .collect::<Result<_, _>>()?,
        Some(v) => vec![v.as_i64().ok_or("an axis that is not an integer")?],
    };
    let present = |k: &str| config.get(k).filter(|v| !v.is_null());
    let stats = match (present("mean"), present("variance")) {
        (None, None) => Stats::Weights,
        (Some(m), Some(v)) => {
            let (mean, shape) = values(m)?;
            let (variance, vshape) = values(v)?;
            if shape != vshape {
                return Err(format!(
                    "mean of shape {shape:?} and variance of shape {vshape:?} (Keras wants one shape)"
                ));
            }
            Stats::Given {
                mean,
                variance,
                shape,
            }
        }
        _ => return Err("mean without variance, or variance without mean".into()),
    };
    let invert = config
        .get("invert")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Ok(Standardize {
        axes,
        stats,
        invert,
    })
}

/// A number or nested lists of numbers: the values row-major and their shape.
fn values(v: &Value) -> Result<(Vec<f64>, Vec<i64>), String> {
    fn collect(v: &Value, shape: &[i64], out: &mut Vec<f64>) -> Option<()> {
        match (v, shape.split_first()) {
            (Value::Array(items), Some((&n, rest))) if items.len() as i64 == n => {
                items.iter().try_for_each(|x| collect(x, rest, out))
            }
            (x, None) => {
                out.push(x.as_f64()?);
                Some(())
            }
            _ => None,
        }
    }
    // The shape along the first elements, then every element held to it.
    let mut shape = Vec::new();
    let mut first = v;
    while let Value::Array(items) = first {
        if shape.len() >= 32 {
            return Err("mean or variance nested too deeply".into());
        }
        shape.push(items.len() as i64);
        match items.first() {
            Some(x) => first = x,
            None => break,
        }
    }
    let mut out = Vec::new();
    collect(v, &shape, &mut out)
        .ok_or("mean or variance that is not a number or a rectangular list of numbers")?;
    Ok((out, shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalization_configurations_read_as_keras_builds_them() {
        let op = |text: &str| standardize_op(&serde_json::from_str(text).unwrap());
        let st = op(r#"{"axis": [3], "invert": false, "mean": null, "variance": null}"#).unwrap();
        assert_eq!(
            (st.axes, st.stats, st.invert),
            (vec![3], Stats::Weights, false)
        );
        let st = op(r#"{"axis": [], "mean": 0.5, "variance": 2}"#).unwrap();
        assert_eq!(st.axes, Vec::<i64>::new());
        assert_eq!(
            st.stats,
            Stats::Given {
                mean: vec![0.5],
                variance: vec![2.0],
                shape: vec![]
            }
        );
        // A legacy .h5 keeps no axis: Keras's default, -1.
        let st = op(r#"{"mean": [[1, 2]], "variance": [[3, 4]], "invert": true}"#).unwrap();
        assert_eq!(st.axes, vec![-1]);
        assert!(st.invert);
        assert_eq!(
            st.stats,
            Stats::Given {
                mean: vec![1.0, 2.0],
                variance: vec![3.0, 4.0],
                shape: vec![1, 2]
            }
        );
        assert!(op(r#"{"mean": [[1, 2], [3]], "variance": [[1, 2], [3]]}"#).is_err());
        assert!(op(r#"{"mean": [1, 2], "variance": [1, 2, 3]}"#).is_err());
        assert!(op(r#"{"mean": [1, 2]}"#).is_err());
        assert!(op(r#"{"axis": "channels"}"#).is_err());
    }
}
