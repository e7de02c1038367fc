//! Models from the model zoos a paste builds on (`models.resnet18(weights=...)`,
//! `keras.applications.MobileNetV2(include_top=False)`): each zoo's architectures are Python
//! in padlab's own words (`zoo/torchvision.py`, `zoo/keras_applications.py`), written from
//! the facts of torchvision 0.29 and Keras 3.15 with the frameworks' own module and layer
//! names (`layer1.0.conv1`, `block_1_expand`), so that the paste's edits (`model.fc = ...`,
//! `base_model.get_layer(...)`) and the self-check's weight copy by name work as on the real
//! models. The interpreter evaluates a zoo's source lazily, the first time the paste reaches
//! it, in a namespace of its own (the paste's globals are not seen from it, nor its names
//! from the paste), under the same step and depth budgets.
//!
//! *Lines*: a zoo's source is numbered from [`LINE`] up, apart from any paste's lines. Code
//! of a zoo runs with the paste's line that reached it ([`ZooAt`]): its rows point at that
//! line, and a failure leaving the zoo names it and says where in the zoo it happened.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::ast::Stmt;
use super::eval::{Ev, Failure, Interp, ScopeRef, Site, unsupported};
use super::value::{Args, Function, LayerKind, Value};

/// The first line number of a zoo's source: far beyond any paste (`MAX_PASTE` bytes).
pub const LINE: usize = 1 << 30;

/// A model zoo padlab has the architectures of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Zoo {
    /// `torchvision.models` (0.29).
    Torchvision,
    /// `keras.applications` (Keras 3.15).
    Keras,
}

const TORCHVISION: &str = include_str!("zoo/torchvision.py");
const KERAS: &str = include_str!("zoo/keras_applications.py");

thread_local! {
    static PARSED: RefCell<HashMap<Zoo, Rc<Vec<Stmt>>>> = RefCell::new(HashMap::new());
    static TEXT: RefCell<HashMap<Zoo, Rc<str>>> = RefCell::new(HashMap::new());
}

impl Zoo {
    /// The embedded source.
    pub fn source(self) -> &'static str {
        match self {
            Zoo::Torchvision => TORCHVISION,
            Zoo::Keras => KERAS,
        }
    }

    /// The source as the interpreter quotes expressions from it (made once per thread).
    pub fn source_text(self) -> Rc<str> {
        TEXT.with(|t| {
            t.borrow_mut()
                .entry(self)
                .or_insert_with(|| Rc::from(self.source()))
                .clone()
        })
    }

    /// How messages name the zoo.
    pub fn title(self) -> &'static str {
        match self {
            Zoo::Torchvision => "torchvision",
            Zoo::Keras => "Keras Applications",
        }
    }

    /// The release whose architectures the source follows.
    pub fn version(self) -> &'static str {
        match self {
            Zoo::Torchvision => "torchvision 0.29",
            Zoo::Keras => "Keras 3.15",
        }
    }

    /// The zoo's models padlab has, as their builders are named.
    pub fn models(self) -> &'static [&'static str] {
        match self {
            Zoo::Torchvision => TORCHVISION_MODELS,
            Zoo::Keras => KERAS_MODELS,
        }
    }
}

/// torchvision's classification builders padlab has.
pub const TORCHVISION_MODELS: &[&str] = &[
    "resnet18",
    "resnet34",
    "resnet50",
    "resnet101",
    "resnet152",
    "resnext50_32x4d",
    "resnext101_32x8d",
    "resnext101_64x4d",
    "wide_resnet50_2",
    "wide_resnet101_2",
    "vgg11",
    "vgg11_bn",
    "vgg13",
    "vgg13_bn",
    "vgg16",
    "vgg16_bn",
    "vgg19",
    "vgg19_bn",
    "alexnet",
    "densenet121",
    "densenet161",
    "densenet169",
    "densenet201",
    "mobilenet_v2",
    "mobilenet_v3_small",
    "mobilenet_v3_large",
    "efficientnet_b0",
    "efficientnet_b1",
    "efficientnet_b2",
    "efficientnet_b3",
    "efficientnet_b4",
    "efficientnet_b5",
    "efficientnet_b6",
    "efficientnet_b7",
    "efficientnet_v2_s",
    "efficientnet_v2_m",
    "efficientnet_v2_l",
    "squeezenet1_0",
    "squeezenet1_1",
    "googlenet",
    "inception_v3",
    "shufflenet_v2_x0_5",
    "shufflenet_v2_x1_0",
    "shufflenet_v2_x1_5",
    "shufflenet_v2_x2_0",
    "convnext_tiny",
    "convnext_small",
    "convnext_base",
    "convnext_large",
];

/// torchvision.models' submodules (`torchvision.models.resnet.resnet18`).
const TORCHVISION_MODULES: &[&str] = &[
    "resnet",
    "vgg",
    "alexnet",
    "densenet",
    "mobilenet",
    "mobilenetv2",
    "mobilenetv3",
    "efficientnet",
    "squeezenet",
    "googlenet",
    "inception",
    "shufflenetv2",
    "convnext",
];

/// torchvision.models' submodules padlab's copy stands in for.
pub fn torchvision_modules() -> &'static [&'static str] {
    TORCHVISION_MODULES
}

/// The Keras Applications models padlab has.
pub const KERAS_MODELS: &[&str] = &[
    "VGG16",
    "VGG19",
    "ResNet50",
    "ResNet101",
    "ResNet152",
    "ResNet50V2",
    "ResNet101V2",
    "ResNet152V2",
    "MobileNet",
    "MobileNetV2",
    "DenseNet121",
    "DenseNet169",
    "DenseNet201",
    "InceptionV3",
    "Xception",
    "EfficientNetB0",
    "EfficientNetB1",
    "EfficientNetB2",
    "EfficientNetB3",
    "EfficientNetB4",
    "EfficientNetB5",
    "EfficientNetB6",
    "EfficientNetB7",
];

/// keras.applications' modules and the mode of their `preprocess_input` (`None`: a module
/// padlab does not have; imagenet_utils' takes the mode as an argument: `"input"` names the
/// zoo's `preprocess_input`, which does).
const KERAS_MODULES: &[(&str, Option<&str>)] = &[
    ("vgg16", Some("caffe")),
    ("vgg19", Some("caffe")),
    ("resnet", Some("caffe")),
    ("resnet50", Some("caffe")),
    ("resnet_v2", Some("tf")),
    ("mobilenet", Some("tf")),
    ("mobilenet_v2", Some("tf")),
    ("mobilenet_v3", None),
    ("densenet", Some("torch")),
    ("inception_v3", Some("tf")),
    ("xception", Some("tf")),
    ("efficientnet", Some("identity")),
    ("convnext", None),
    ("imagenet_utils", Some("input")),
    ("efficientnet_v2", None),
    ("inception_resnet_v2", None),
    ("nasnet", None),
];

/// Where zoo code runs from: the zoo, and the paste's line that reached it.
#[derive(Clone, Debug)]
pub struct ZooAt {
    pub zoo: Zoo,
    pub line: usize,
}

/// A zoo model the paste built: where, how it is written, and which.
#[derive(Clone, Debug)]
pub struct ZooCall {
    pub line: usize,
    pub text: Rc<str>,
    pub zoo: Zoo,
    pub builder: Rc<str>,
    /// The pretrained weights it asks for, as written (`'IMAGENET1K_V1'`, `'imagenet'`).
    pub weights: Option<String>,
}

/// The parsed source of `zoo` (once per thread).
fn parsed(zoo: Zoo) -> Result<Rc<Vec<Stmt>>, String> {
    if let Some(p) = PARSED.with(|p| p.borrow().get(&zoo).cloned()) {
        return Ok(p);
    }
    let body = super::parser::parse_from(zoo.source(), LINE)
        .map_err(|e| format!("line {}: {}", e.line - LINE + 1, e.message))?;
    let body = Rc::new(body);
    PARSED.with(|p| p.borrow_mut().insert(zoo, body.clone()));
    Ok(body)
}

/// The namespace of `zoo`, evaluated the first time (reached from the paste's `line`).
pub fn namespace(it: &mut Interp, zoo: Zoo, line: usize) -> Ev<ScopeRef> {
    if let Some((_, s)) = it.zoos.iter().find(|(z, _)| *z == zoo) {
        return Ok(s.clone());
    }
    let body = parsed(zoo).map_err(|m| {
        unsupported(
            line,
            format!("padlab's {} source does not read: {m}", zoo.title()),
        )
    })?;
    let scope = Rc::new(RefCell::new(super::eval::Scope {
        vars: HashMap::new(),
        parent: None,
        globals: Vec::new(),
    }));
    it.zoos.push((zoo, scope.clone()));
    let what = format!("{}'s module", zoo.title());
    let ran = it.in_origin(Some(zoo), line, &what, |it| it.exec_in(&body, &scope));
    if let Err(e) = ran {
        it.zoos.retain(|(z, _)| *z != zoo);
        return Err(e);
    }
    Ok(scope)
}

/// A public name of a zoo's namespace.
fn lookup(it: &mut Interp, zoo: Zoo, name: &str, line: usize) -> Ev<Option<Value>> {
    if name.starts_with('_') {
        return Ok(None);
    }
    let ns = namespace(it, zoo, line)?;
    let v = ns.borrow().vars.get(name).cloned();
    Ok(v)
}

/// An attribute of a zoo's module path (`torchvision.models.resnet18`,
/// `keras.applications.mobilenet_v2.preprocess_input`): the zoo's value, or `None` for a
/// path that stays a namespace (a submodule, or a name padlab refuses where it is called).
pub fn attr(it: &mut Interp, path: &str, line: usize) -> Ev<Option<Value>> {
    if let Some(rest) = path.strip_prefix("torchvision.models.") {
        let name = match rest.split('.').collect::<Vec<_>>().as_slice() {
            [m] if TORCHVISION_MODULES.contains(m) => return Ok(None),
            [name] => *name,
            [m, name] if TORCHVISION_MODULES.contains(m) => *name,
            _ => return Ok(None),
        };
        return lookup(it, Zoo::Torchvision, name, line);
    }
    if let Some(rest) = path.strip_prefix("keras.applications.") {
        let name = match rest.split('.').collect::<Vec<_>>().as_slice() {
            [m] if KERAS_MODULES.iter().any(|(k, _)| k == m) => return Ok(None),
            [name] => name.to_string(),
            [m, "preprocess_input"] => match KERAS_MODULES.iter().find(|(k, _)| k == m) {
                Some((_, Some(mode))) => format!("preprocess_{mode}"),
                _ => return Ok(None),
            },
            [m, name]
                if KERAS_MODULES
                    .iter()
                    .any(|(k, mode)| k == m && mode.is_some()) =>
            {
                name.to_string()
            }
            _ => return Ok(None),
        };
        return lookup(it, Zoo::Keras, &name, line);
    }
    Ok(None)
}

/// Why a zoo path padlab does not have cannot be read, when `path` names one.
pub fn refusal(path: &str) -> Option<String> {
    let (zoo, name) = if let Some(rest) = path.strip_prefix("torchvision.models.") {
        (Zoo::Torchvision, rest)
    } else if let Some(rest) = path.strip_prefix("keras.applications.") {
        (Zoo::Keras, rest)
    } else {
        return None;
    };
    let mut sample: Vec<&str> = zoo.models().iter().copied().step_by(3).take(8).collect();
    sample.push("...");
    Some(format!(
        "`{path}` is a {} model padlab does not have the architecture of (it reads {} models: {}); paste the model's own definition to read it",
        zoo.title(),
        zoo.models().len(),
        sample.join(", ")
    ))
    .filter(|_| !name.is_empty())
}

/// The error where a zoo path padlab does not have is called.
pub fn refuse(path: &str, site: &Site) -> Failure {
    unsupported(
        site.line,
        refusal(path).unwrap_or_else(|| format!("`{path}` is not read by padlab")),
    )
}

/// `torch.hub.load('pytorch/vision', 'resnet18', pretrained=True)`: torchvision's builder,
/// as the hub's `hubconf.py` of that repository exports it.
pub fn hub_load(it: &mut Interp, Args { pos, kw }: Args, site: &Site) -> Ev<Value> {
    let arg = |i: usize, name: &str| {
        pos.get(i).cloned().or_else(|| {
            kw.iter()
                .find(|(k, _)| k.as_ref() == name)
                .map(|(_, v)| v.clone())
        })
    };
    let repo = arg(0, "repo_or_dir")
        .map(|v| v.to_string())
        .unwrap_or_default();
    let model = arg(1, "model").map(|v| v.to_string()).unwrap_or_default();
    let repository = repo.split(':').next().unwrap_or("");
    if repository != "pytorch/vision" {
        return Err(unsupported(
            site.line,
            format!(
                "torch.hub.load('{repo}', '{model}'): a model from a hub repository padlab does not have the code of (it reads torchvision's, 'pytorch/vision'); paste the model's own definition to read it"
            ),
        ));
    }
    let Some(builder) = lookup(it, Zoo::Torchvision, &model, site.line)?
        .filter(|_| TORCHVISION_MODELS.contains(&model.as_str()))
    else {
        return Err(refuse(&format!("torchvision.models.{model}"), site));
    };
    // The hub's own arguments are not the model's.
    let rest: Vec<Value> = pos.into_iter().skip(2).collect();
    let kw: Vec<(Rc<str>, Value)> = kw
        .into_iter()
        .filter(|(k, _)| {
            !matches!(
                k.as_ref(),
                "repo_or_dir"
                    | "model"
                    | "source"
                    | "trust_repo"
                    | "force_reload"
                    | "verbose"
                    | "skip_validation"
            )
        })
        .collect();
    it.call(builder, rest, kw, site)
}

/// How a failure inside a zoo's function names where it happened.
pub fn what(func: &Function) -> String {
    let Some(zoo) = func.zoo else {
        return func.name.to_string();
    };
    let class = func
        .class
        .borrow()
        .as_ref()
        .and_then(std::rc::Weak::upgrade)
        .map(|c| format!("{}.", c.name))
        .unwrap_or_default();
    format!("{}'s {class}{}", zoo.title(), func.name)
}

/// A failure leaving zoo code for the paste: at the paste's `line`, saying where in the zoo.
/// (A failure of the paste's own code called from the zoo keeps its line.)
pub fn located(f: Failure, line: usize, what: &str) -> Failure {
    if f.line < LINE {
        return f;
    }
    Failure {
        line,
        message: format!("{} (in {what}, as padlab reads it)", f.message),
        kind: f.kind,
    }
}

/// Notes a zoo builder the paste called that gave a model.
pub fn note_call(it: &mut Interp, zoo: Zoo, func: &Function, site: &Site, out: &Value) {
    let model = match out {
        Value::Instance(_) => true,
        Value::Layer(l) => matches!(l.kind, LayerKind::Functional { .. }),
        _ => false,
    };
    if !model || func.class.borrow().is_some() || !zoo.models().contains(&func.name.as_ref()) {
        return;
    }
    let weights = weights_of(&site.text);
    it.zoo_calls.push(ZooCall {
        line: site.line,
        text: site.text.clone(),
        zoo,
        builder: func.name.clone(),
        weights,
    });
}

/// The pretrained weights a zoo call asks for, from its text: `weights=` other than `None`,
/// `pretrained=True`.
fn weights_of(text: &str) -> Option<String> {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(at) = one.find("weights=") {
        let rest = &one[at + "weights=".len()..];
        let mut depth = 0i32;
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' if depth > 0 => depth -= 1,
                    _ => {}
                }
                depth == 0 && matches!(c, ',' | ')')
            })
            .map_or(rest.len(), |(i, _)| i);
        let value = rest[..end].trim();
        return (!value.is_empty() && value != "None").then(|| value.to_string());
    }
    let pretrained = one.contains("pretrained=True")
        || one.contains("pretrained = True")
        || one.starts_with("torch.hub.load") && !one.contains("pretrained=False");
    pretrained.then(|| "pretrained=True".to_string())
}

/// The note that says which zoo model a call is and what the check does with its weights.
pub fn note(call: &ZooCall) -> String {
    let weights = match &call.weights {
        Some(w) => format!(
            "the pretrained weights it asks for ({w}) do not change its shapes: padlab reads the architecture, and the self-check builds it with random weights (nothing is downloaded)"
        ),
        None => "it asks for no pretrained weights".to_string(),
    };
    format!(
        "line {}: `{}` is {}'s {}, read from padlab's copy of its architecture ({}); {weights}",
        call.line,
        super::eval::short(&call.text),
        call.zoo.title(),
        call.builder,
        call.zoo.version()
    )
}

/// A zoo layer's constructor as the framework's own code would write it, with its values:
/// `Conv2d(in_channels=64, out_channels=64, kernel_size=3, ...)`, Keras's `name=` last.
pub fn layer_text(class: &str, args: &[(Rc<str>, Value)], name: Option<&str>) -> String {
    let mut parts: Vec<String> = args
        .iter()
        .filter(|(_, v)| !matches!(v, Value::Opaque(_) | Value::Function(_)))
        .map(|(k, v)| format!("{k}={}", v.repr()))
        .collect();
    if let Some(n) = name {
        parts.push(format!("name={}", Value::str(n).repr()));
    }
    format!("{class}({})", parts.join(", "))
}

/// The input a torchvision model's pretrained weights were made at (one sample, NCHW), and
/// the note's reason.
pub fn default_input(call: &ZooCall) -> Option<(Vec<i64>, String)> {
    if call.zoo != Zoo::Torchvision {
        return None;
    }
    let side = if call.builder.as_ref() == "inception_v3" {
        299
    } else {
        224
    };
    Some((
        vec![3, side, side],
        format!(
            "the size torchvision's {} weights were made at ({side}×{side} RGB images)",
            call.builder
        ),
    ))
}
