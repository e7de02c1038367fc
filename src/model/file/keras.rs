//! A Keras model configuration, from a Keras 3 `.keras` archive (`config.json`, and
//! `metadata.json` for the Keras version) or from a legacy `.h5` file's `model_config`
//! ([`super::h5`]), in one typed form.
//!
//! Both wirings are read wherever they appear: Keras 3's `inbound_nodes` (`[{"args": [...],
//! "kwargs": {...}}]`, tensors as `__keras_tensor__` with a `keras_history`
//! `[layer, node_index, tensor_index]`) and Keras 2's (`[[[layer, node_index, tensor_index,
//! kwargs], ...], ...]`). A layer's own `config` is kept as JSON for the layer vocabulary.

use serde_json::Value;

use super::zip::Archive;
use super::{FileError, Format, limits};

/// A Keras model read from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct KerasModel {
    /// [`Format::Keras`] or [`Format::Hdf5`].
    pub format: Format,
    /// `metadata.json`'s `keras_version` (`.keras`) or the `keras_version` attribute (`.h5`).
    pub keras_version: Option<String>,
    /// The `backend` attribute of an `.h5` file.
    pub backend: Option<String>,
    pub model: KerasConfig,
}

/// Sequential or functional.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelClass {
    /// Layers in order, each reading the one before.
    Sequential,
    /// Layers wired by their inbound nodes (`Functional`, `Model`).
    Functional,
}

/// One model (the file's, or one nested in it as a layer).
#[derive(Clone, Debug, PartialEq)]
pub struct KerasConfig {
    pub class: ModelClass,
    /// As written (`Sequential`, `Functional`, `Model`).
    pub class_name: String,
    pub name: String,
    pub layers: Vec<KerasLayer>,
    /// A functional model's inputs and outputs (`input_layers`, `output_layers`).
    pub inputs: Vec<TensorRef>,
    pub outputs: Vec<TensorRef>,
    /// The input shape the model was built with (batch first, `None` for a free size): the
    /// model's `build_config.input_shape` or Keras 2's `build_input_shape`.
    pub build_input_shape: Option<InputShape>,
}

/// One layer.
#[derive(Clone, Debug, PartialEq)]
pub struct KerasLayer {
    pub class_name: String,
    pub name: String,
    /// The layer's `config`, as JSON.
    pub config: Value,
    /// `build_config.input_shape` (batch first, `None` for a free size).
    pub build_input_shape: Option<InputShape>,
    /// Each call of the layer (a shared layer has several): the tensors it reads.
    pub inbound: Vec<Inbound>,
    /// A model used as a layer.
    pub model: Option<Box<KerasConfig>>,
    /// Where the class lives (`keras.layers`, or `keras.src.ops.numpy` for an operation a
    /// functional model recorded, such as `x + 3.0`); `None` in Keras 2 files.
    pub module: Option<String>,
    /// A custom class's registration (`my_project>ScaledConv`), when the file names one.
    pub registered_name: Option<String>,
}

/// A shape as Keras states it: one, or one per input (`Add`, `Concatenate`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputShape {
    One(Vec<Option<i64>>),
    Many(Vec<Vec<Option<i64>>>),
}

/// One call of a layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Inbound {
    /// The tensors it reads, in order (nested lists flattened).
    pub args: Vec<TensorRef>,
    /// Keyword arguments as written (`{}` when none).
    pub kwargs: Value,
    /// The positional arguments as written (Keras 3), constants included: an operation's
    /// `3.0` in `x + 3.0`. `Null` in Keras 2 files.
    pub raw_args: Value,
}

/// A tensor: output `tensor_index` of call `node_index` of layer `layer`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorRef {
    pub layer: String,
    pub node_index: usize,
    pub tensor_index: usize,
}

fn config_error(format: Format, what: impl Into<String>) -> FileError {
    FileError::Config {
        format,
        what: what.into(),
    }
}

/// Reads a `.keras` archive.
pub fn read_keras(bytes: &[u8]) -> Result<KerasModel, FileError> {
    let archive = Archive::new(bytes)?;
    let entry = archive.find("config.json").ok_or(FileError::MissingEntry {
        name: "config.json",
    })?;
    let config = archive.read(entry, limits::CONFIG_BYTES)?;
    let keras_version = match archive.find("metadata.json") {
        Some(e) => {
            let meta = archive.read(e, 1 << 20)?;
            let v: Value = serde_json::from_slice(&meta)
                .map_err(|e| config_error(Format::Keras, format!("metadata.json: {e}")))?;
            v.get("keras_version")
                .and_then(Value::as_str)
                .map(str::to_string)
        }
        None => None,
    };
    let model = parse_config(&config, Format::Keras)?;
    Ok(KerasModel {
        format: Format::Keras,
        keras_version,
        backend: None,
        model,
    })
}

/// Parses a model configuration's JSON (`config.json`, `model_config`).
pub fn parse_config(json: &[u8], format: Format) -> Result<KerasConfig, FileError> {
    if json.len() > limits::CONFIG_BYTES {
        return Err(FileError::TooLarge {
            format,
            what: "bytes in the model configuration",
            limit: limits::CONFIG_BYTES,
        });
    }
    // serde_json refuses nesting deeper than 128 levels.
    let v: Value =
        serde_json::from_slice(json).map_err(|e| config_error(format, format!("not JSON: {e}")))?;
    let mut p = Parser { format, layers: 0 };
    p.model(&v, 0)
}

struct Parser {
    format: Format,
    layers: usize,
}

fn is_model_class(class_name: &str) -> Option<ModelClass> {
    match class_name {
        "Sequential" => Some(ModelClass::Sequential),
        "Functional" | "Model" => Some(ModelClass::Functional),
        _ => None,
    }
}

impl Parser {
    fn err(&self, what: impl Into<String>) -> FileError {
        config_error(self.format, what)
    }

    fn model(&mut self, v: &Value, depth: usize) -> Result<KerasConfig, FileError> {
        if depth > limits::NESTING {
            return Err(FileError::TooLarge {
                format: self.format,
                what: "models nested in one another",
                limit: limits::NESTING,
            });
        }
        let class_name = v
            .get("class_name")
            .and_then(Value::as_str)
            .ok_or_else(|| self.err("no class_name at the top"))?;
        let class = is_model_class(class_name).ok_or_else(|| {
            self.err(format!(
                "the model is a {class_name:?}, not a Sequential or functional model"
            ))
        })?;
        let config = v
            .get("config")
            .ok_or_else(|| self.err(format!("the {class_name} has no config")))?;
        // Keras 2 Sequential configs of old were the bare layer list.
        let (layers_v, name) = match config {
            Value::Array(_) => (config, String::new()),
            _ => (
                config
                    .get("layers")
                    .ok_or_else(|| self.err(format!("the {class_name} config has no layers")))?,
                config
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
            ),
        };
        let list = layers_v
            .as_array()
            .ok_or_else(|| self.err("layers is not a list"))?;
        let mut layers = Vec::with_capacity(list.len().min(limits::LAYERS));
        for (i, l) in list.iter().enumerate() {
            self.layers += 1;
            if self.layers > limits::LAYERS {
                return Err(FileError::TooLarge {
                    format: self.format,
                    what: "layers",
                    limit: limits::LAYERS,
                });
            }
            layers.push(self.layer(l, i, depth)?);
        }
        let refs = |key: &str| -> Result<Vec<TensorRef>, FileError> {
            match config.get(key) {
                None | Some(Value::Null) => Ok(Vec::new()),
                Some(x) => layer_refs(x).ok_or_else(|| {
                    self.err(format!("{key} is not a list of [layer, node, tensor]"))
                }),
            }
        };
        let (inputs, outputs) = match class {
            ModelClass::Functional => (refs("input_layers")?, refs("output_layers")?),
            ModelClass::Sequential => (Vec::new(), Vec::new()),
        };
        let build_input_shape = v
            .get("build_config")
            .and_then(|b| b.get("input_shape"))
            .or_else(|| config.get("build_input_shape"))
            .and_then(input_shape);
        Ok(KerasConfig {
            class,
            class_name: class_name.to_string(),
            name,
            layers,
            inputs,
            outputs,
            build_input_shape,
        })
    }

    fn layer(&mut self, l: &Value, index: usize, depth: usize) -> Result<KerasLayer, FileError> {
        let class_name = l
            .get("class_name")
            .and_then(Value::as_str)
            .ok_or_else(|| self.err(format!("layer {index} has no class_name")))?
            .to_string();
        let config = l.get("config").cloned().unwrap_or(Value::Null);
        let name = l
            .get("name")
            .and_then(Value::as_str)
            .or_else(|| config.get("name").and_then(Value::as_str))
            .unwrap_or_default()
            .to_string();
        let build_input_shape = l
            .get("build_config")
            .and_then(|b| b.get("input_shape"))
            .and_then(input_shape);
        let inbound = match l.get("inbound_nodes") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(nodes)) => nodes
                .iter()
                .map(|n| {
                    inbound(n).ok_or_else(|| {
                        self.err(format!(
                            "layer {name:?}: an inbound node padlab cannot read"
                        ))
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(self.err(format!("layer {name:?}: inbound_nodes is not a list"))),
        };
        let model = match is_model_class(&class_name) {
            Some(_) => Some(Box::new(self.model(l, depth + 1)?)),
            None => None,
        };
        let module = l.get("module").and_then(Value::as_str).map(str::to_string);
        let registered_name = l
            .get("registered_name")
            .and_then(Value::as_str)
            .map(str::to_string);
        Ok(KerasLayer {
            class_name,
            name,
            config,
            build_input_shape,
            inbound,
            model,
            module,
            registered_name,
        })
    }
}

/// `[name, node, tensor]` or a list of them.
fn layer_refs(v: &Value) -> Option<Vec<TensorRef>> {
    let list = v.as_array()?;
    if list.first().is_some_and(Value::is_string) {
        return triple(list).map(|t| vec![t]);
    }
    list.iter()
        .map(|x| x.as_array().and_then(|a| triple(a)))
        .collect()
}

/// `[name, node_index, tensor_index, ...]`.
pub(super) fn triple(a: &[Value]) -> Option<TensorRef> {
    Some(TensorRef {
        layer: a.first()?.as_str()?.to_string(),
        node_index: usize::try_from(a.get(1)?.as_u64()?).ok()?,
        tensor_index: usize::try_from(a.get(2)?.as_u64()?).ok()?,
    })
}

/// One inbound node in either layout.
fn inbound(n: &Value) -> Option<Inbound> {
    match n {
        // Keras 3: {"args": [...], "kwargs": {...}}.
        Value::Object(o) => {
            let mut args = Vec::new();
            tensors(o.get("args")?, &mut args, 0)?;
            Some(Inbound {
                args,
                raw_args: o.get("args").cloned().unwrap_or(Value::Null),
                kwargs: o
                    .get("kwargs")
                    .cloned()
                    .unwrap_or_else(|| Value::Object(Default::default())),
            })
        }
        // Keras 2: [[name, node, tensor, kwargs], ...].
        Value::Array(calls) => {
            let mut args = Vec::new();
            let mut kwargs = Value::Object(Default::default());
            for c in calls {
                let a = c.as_array()?;
                args.push(triple(a)?);
                if let Some(k) = a
                    .get(3)
                    .filter(|k| k.as_object().is_some_and(|o| !o.is_empty()))
                {
                    kwargs = k.clone();
                }
            }
            Some(Inbound {
                args,
                kwargs,
                raw_args: Value::Null,
            })
        }
        _ => None,
    }
}

/// The `__keras_tensor__` references in a Keras 3 `args` value, in order.
fn tensors(v: &Value, out: &mut Vec<TensorRef>, depth: usize) -> Option<()> {
    if depth > 64 {
        return None;
    }
    if let Some(t) = keras_tensor(v) {
        out.push(t?);
    } else if let Value::Array(a) = v {
        for x in a {
            tensors(x, out, depth + 1)?;
        }
    }
    Some(())
}

/// A Keras 3 tensor reference (`__keras_tensor__`, its `keras_history` the layer, node and
/// tensor): `None` when `v` is something else, `Some(None)` when its history is no such triple.
pub(super) fn keras_tensor(v: &Value) -> Option<Option<TensorRef>> {
    let o = v.as_object()?;
    (o.get("class_name").and_then(Value::as_str) == Some("__keras_tensor__")).then(|| {
        let h = o.get("config")?.get("keras_history")?.as_array()?;
        triple(h)
    })
}

/// A shape (`[null, 32, 32, 3]`) or a list of shapes.
fn input_shape(v: &Value) -> Option<InputShape> {
    let a = v.as_array()?;
    let dim = |x: &Value| -> Option<Option<i64>> {
        match x {
            Value::Null => Some(None),
            x => x.as_i64().map(Some),
        }
    };
    if a.iter().all(|x| x.is_array()) && !a.is_empty() {
        a.iter()
            .map(|s| s.as_array().and_then(|s| s.iter().map(dim).collect()))
            .collect::<Option<Vec<_>>>()
            .map(InputShape::Many)
    } else {
        a.iter()
            .map(dim)
            .collect::<Option<Vec<_>>>()
            .map(InputShape::One)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_wirings() {
        let k2 = br#"{"class_name": "Functional", "config": {"name": "m", "layers": [
            {"class_name": "InputLayer", "config": {"name": "a"}, "name": "a", "inbound_nodes": []},
            {"class_name": "Add", "config": {"name": "s"}, "name": "s",
             "inbound_nodes": [[["a", 0, 0, {}], ["a", 0, 0, {}]]]}],
            "input_layers": [["a", 0, 0]], "output_layers": [["s", 0, 0]]}}"#;
        let m = parse_config(k2, Format::Hdf5).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(m.layers[1].inbound[0].args.len(), 2);
        assert_eq!(m.outputs[0].layer, "s");
        assert!(parse_config(b"[1, 2]", Format::Hdf5).is_err());
        assert!(
            parse_config(b"{\"class_name\": \"Dense\", \"config\": {}}", Format::Hdf5).is_err()
        );
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(parse_config(deep.as_bytes(), Format::Keras).is_err());
    }
}
