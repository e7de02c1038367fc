//! A model from pasted Python: which layers, in which order, in which framework, and how a
//! script rebuilds it from the paste.
//!
//! Read as Python reads it, statement by statement, without running anything: imports (and
//! their aliases), constants (`ngf = 64`, a function's defaults), Keras `Sequential([...])` and
//! `model.add(...)`, Keras functional chains (`x = Conv2D(...)(x)`), torch `nn.Sequential(...)`
//! (nested, from lists, from an `OrderedDict`), and torch classes whose `forward` is a straight
//! chain of their layers and `F.*` calls. A layer padlab does not translate, a branch, or code it
//! cannot read where the model is built is an error naming the line; nothing is dropped or
//! guessed.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use crate::core::Framework;

use super::layers::{self, Activation, Layer, LayerError};
use super::python::{self, Arg, Expr, ExprKind, Star, Statement, StmtKind};
use super::value::{EvalError, Scope, Value};

/// One layer of the model as the paste writes it.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceLayer {
    /// 1-based line of the call.
    pub line: usize,
    /// The call as written (whitespace collapsed), e.g. `nn.Conv2d(3, 64, 3, padding=1)`.
    pub source: String,
    pub kind: String,
    pub layer: Layer,
    /// The spatial rank the layer's class names (`Conv2D`: 2), if any.
    pub rank: Option<usize>,
    /// For a torch `forward`: the flatten's declared feature count (`x.view(-1, 400)`).
    pub expect_features: Option<i64>,
    /// How a script reaches the layer object from the model (`.main[3]`, `.layers[2]`,
    /// `.conv1`); `None` for a call in `forward` without a module (`F.relu(x)`).
    pub access: Option<String>,
}

/// How a script gets the model object after running the kept statements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Build {
    /// The variable the paste assigns the model to.
    Variable(String),
    /// A class, instantiated with these arguments as written.
    Class { name: String, args: String },
    /// An expression statement (a model the paste does not assign), as written.
    Expression(String),
}

/// A model read from the paste.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceModel {
    pub framework: Framework,
    pub layers: Vec<SourceLayer>,
    /// One sample's shape as the code states it (Keras `input_shape=` / `Input(shape=)`).
    pub input: Option<Vec<i64>>,
    /// A name the code gives the input shape by, undefined in the paste (`input_shape=img_size`).
    pub input_name: Option<String>,
    pub build: Build,
    /// The paste's statements a script keeps to rebuild the model, dedented, in order.
    pub kept_source: String,
    /// Names the code uses from an import it does not show (`nn`, `Conv2D`, `layers`, …).
    pub uses: BTreeSet<String>,
    /// The model's name in the paste (its variable or class), and the other models it holds.
    pub name: String,
    pub others: Vec<String>,
}

/// Why no model can be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ReadError {}

fn error(line: usize, message: impl Into<String>) -> ReadError {
    ReadError {
        line: Some(line),
        message: message.into(),
    }
}

/// An object the paste builds.
#[derive(Clone, Debug, PartialEq)]
enum Obj {
    /// A layer (an index into the occurrences).
    Layer(usize),
    /// A container of objects, in order.
    Seq(SeqKind, Vec<Obj>),
    /// A class attribute (`self.conv1`) as `forward` uses it.
    Attr(String, Box<Obj>),
    /// A Python list of objects; `looped` when a loop adds to it.
    List { items: Vec<Obj>, looped: bool },
    /// A Keras tensor: the layers applied since the `Input`.
    Tensor {
        chain: Vec<Obj>,
        input: Option<Vec<i64>>,
    },
    /// A Keras `Input(shape=...)` inside a `Sequential` list.
    InputShape(Option<Vec<i64>>),
    /// An instance of a class of the paste, with its arguments as written.
    Instance { class: String, args: String },
}

#[derive(Clone, Debug, Default)]
struct Class {
    attrs: HashMap<String, Obj>,
    /// The chain `forward` applies, or why it is not a chain.
    forward: Option<Result<Vec<Obj>, ReadError>>,
    /// `__init__`'s parameters without a default.
    required: Vec<String>,
    /// Statement indices of the class block.
    statements: (usize, usize),
    is_module: bool,
}

/// How a container lists its children (how a script reaches the `k`-th).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SeqKind {
    /// `nn.Sequential`: `[k]`.
    Torch,
    /// Keras `Sequential`: `.layers[k]`, not counting an `Input`.
    Keras,
    /// A Keras functional `Model`: `.layers[k]`, its `InputLayer` first.
    Functional,
}

/// What the reader is inside of.
#[derive(Clone, Debug)]
enum Context {
    Class(String),
    Def { name: String, class: Option<String> },
    Block,
}

struct Reader<'a> {
    src: &'a str,
    statements: &'a [Statement],
    base: usize,
    scope: Scope,
    aliases: HashMap<String, Vec<String>>,
    star: Vec<Framework>,
    vars: Vec<HashMap<String, Obj>>,
    layers: Vec<SourceLayer>,
    /// Each occurrence's framework.
    frameworks: Vec<Framework>,
    classes: HashMap<String, Class>,
    class_order: Vec<String>,
    /// Module-level model candidates, in order: (name or expression, object, statement).
    candidates: Vec<(Build, Obj)>,
    /// Statements the check script keeps.
    keep: BTreeSet<usize>,
    /// The statement that last bound each module-level variable.
    defined_at: HashMap<String, Vec<usize>>,
    input_name: Option<String>,
    uses: BTreeSet<String>,
    /// Forward's tensors: name -> chain.
    tensors: HashMap<String, Vec<Obj>>,
    /// Module-level functions that return a model object, and their statement range.
    functions: HashMap<String, (Obj, (usize, usize))>,
    /// The module-level function being read: its name and first statement.
    function: Option<(String, usize)>,
    /// The input shape a layer's `input_shape=` states (the first one).
    stated_input: Option<Vec<i64>>,
    /// Inside a model container (a Sequential's arguments, `add`, a functional step): a
    /// framework class padlab does not know is an error there, and ignored elsewhere (a loss,
    /// an optimizer).
    strict: bool,
}

/// Reads the model of `src`; `want` names it (a variable or a class) when the paste holds more
/// than one.
pub fn read_model(src: &str, want: Option<&str>) -> Result<SourceModel, ReadError> {
    let statements = python::read(src).map_err(|e| error(e.line, e.message))?;
    let base = statements.iter().map(|s| s.indent).min().unwrap_or(0);
    let mut r = Reader {
        src,
        statements: &statements,
        base,
        scope: Scope::new(),
        aliases: HashMap::new(),
        star: Vec::new(),
        vars: vec![HashMap::new()],
        layers: Vec::new(),
        frameworks: Vec::new(),
        classes: HashMap::new(),
        class_order: Vec::new(),
        candidates: Vec::new(),
        keep: BTreeSet::new(),
        defined_at: HashMap::new(),
        input_name: None,
        uses: BTreeSet::new(),
        tensors: HashMap::new(),
        functions: HashMap::new(),
        function: None,
        stated_input: None,
        strict: false,
    };
    r.framework_hint();
    r.walk()?;
    r.finish(want)
}

/// The known layer class names of each framework (for deciding which one a bare name is).
fn is_keras_name(name: &str) -> bool {
    matches!(name, "Sequential" | "Input" | "InputLayer" | "Model")
        || matches!(
            layers::keras(name, &[], &Scope::new()),
            Ok(_) | Err(LayerError::Argument { .. } | LayerError::Unsupported { .. })
        )
}

fn is_torch_name(name: &str) -> bool {
    name == "Sequential"
        || matches!(
            layers::torch(name, &[], &Scope::new()),
            Ok(_) | Err(LayerError::Argument { .. } | LayerError::Unsupported { .. })
        )
}

/// The dotted path of a callee: `nn.Conv2d` -> ["nn", "Conv2d"].
fn path(e: &Expr) -> Option<Vec<String>> {
    match &e.kind {
        ExprKind::Name(n) => Some(vec![n.clone()]),
        ExprKind::Attr(inner, name) => {
            let mut p = path(inner)?;
            p.push(name.clone());
            Some(p)
        }
        _ => None,
    }
}

impl Reader<'_> {
    /// The source text of `e`, whitespace collapsed.
    fn text(&self, e: &Expr) -> String {
        let raw = self.src.get(e.start..e.end).unwrap_or("");
        raw.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace("( ", "(")
            .replace(" )", ")")
            .replace(", )", ",)")
    }

    /// A first look at which framework the paste is in (imports and names), for bare names
    /// both frameworks have (`Dropout`, `Flatten`, `Sequential`).
    fn framework_hint(&mut self) {
        let (mut torch, mut keras) = (0, 0);
        for s in self.statements {
            let words: Vec<&str> = match &s.kind {
                StmtKind::Import(m) => m
                    .iter()
                    .flat_map(|(p, _)| p.first())
                    .map(String::as_str)
                    .collect(),
                StmtKind::FromImport { module, .. } => {
                    module.first().map(String::as_str).into_iter().collect()
                }
                _ => vec![],
            };
            for w in words {
                match w {
                    "torch" => torch += 2,
                    "keras" | "tensorflow" => keras += 2,
                    _ => {}
                }
            }
        }
        let text = self.src;
        torch += text.matches("nn.").count();
        keras += [
            "layers.",
            "Conv2D(",
            "Conv1D(",
            "Conv3D(",
            "Dense(",
            "MaxPooling",
            "BatchNormalization(",
            "keras",
        ]
        .iter()
        .map(|w| text.matches(w).count())
        .sum::<usize>();
        self.star = if torch > keras {
            vec![Framework::Torch]
        } else if keras > torch {
            vec![Framework::Keras]
        } else {
            vec![]
        };
    }

    fn hint(&self) -> Option<Framework> {
        self.star.first().copied()
    }

    /// Which framework's class a callee path names, and the class name.
    fn resolve(&self, p: &[String]) -> Option<(Framework, String)> {
        let mut full = p.to_vec();
        if let Some(target) = self.aliases.get(&p[0]) {
            full.splice(0..1, target.iter().cloned());
        }
        let name = full.last()?.clone();
        let prefix: Vec<&str> = full[..full.len() - 1].iter().map(String::as_str).collect();
        let torch_prefix = matches!(
            prefix.as_slice(),
            ["torch", "nn"] | ["nn"] | ["torch", "nn", "modules", ..]
        );
        let keras_prefix = matches!(
            prefix.as_slice(),
            ["keras", "layers"]
                | ["tf", "keras", "layers"]
                | ["tensorflow", "keras", "layers"]
                | ["layers"]
                | ["keras"]
                | ["tf", "keras"]
                | ["keras", "models"]
                | ["tf", "keras", "models"]
                | ["models"]
                | ["tensorflow", "keras"]
                | ["tensorflow", "keras", "models"]
        );
        if torch_prefix {
            return Some((Framework::Torch, name));
        }
        if keras_prefix {
            return Some((Framework::Keras, name));
        }
        if !prefix.is_empty() {
            return None;
        }
        match (is_torch_name(&name), is_keras_name(&name)) {
            (true, false) => Some((Framework::Torch, name)),
            (false, true) => Some((Framework::Keras, name)),
            (true, true) => Some((self.hint().unwrap_or(Framework::Keras), name)),
            (false, false) => None,
        }
    }

    fn var(&self, name: &str) -> Option<&Obj> {
        self.vars.iter().rev().find_map(|f| f.get(name))
    }

    fn set_var(&mut self, name: &str, obj: Obj) {
        if let Some(f) = self.vars.last_mut() {
            f.insert(name.to_string(), obj);
        }
    }

    fn walk(&mut self) -> Result<(), ReadError> {
        let mut stack: Vec<(usize, Context)> = Vec::new();
        for (index, s) in self.statements.iter().enumerate() {
            // Leave the blocks this statement is not inside of.
            while stack.last().is_some_and(|(indent, _)| s.indent <= *indent) {
                if let Some((_, ctx)) = stack.pop() {
                    self.leave(&ctx, index);
                }
            }
            let ctx = stack.last().map(|(_, c)| c.clone());
            let in_loop = stack.iter().any(|(_, c)| matches!(c, Context::Block));
            match (&s.kind, ctx) {
                (StmtKind::Import(modules), _) => {
                    for (p, alias) in modules {
                        let name = alias.clone().unwrap_or_else(|| p[0].clone());
                        let target = if alias.is_some() {
                            p.clone()
                        } else {
                            vec![p[0].clone()]
                        };
                        self.aliases.insert(name, target);
                    }
                    self.keep_import(index, modules.iter().map(|(p, _)| p[0].as_str()).collect());
                }
                (StmtKind::FromImport { module, names }, _) => {
                    let framework = match module.first().map(String::as_str) {
                        Some("torch") => Some(Framework::Torch),
                        Some("keras" | "tensorflow") => Some(Framework::Keras),
                        _ => None,
                    };
                    if names.is_empty()
                        && let Some(f) = framework
                    {
                        self.star.insert(0, f);
                    }
                    for (name, alias) in names {
                        let mut p = module.clone();
                        p.push(name.clone());
                        self.aliases
                            .insert(alias.clone().unwrap_or_else(|| name.clone()), p);
                    }
                    self.keep_import(
                        index,
                        module.first().map(String::as_str).into_iter().collect(),
                    );
                }
                (StmtKind::Class { name, bases }, None) => {
                    let is_module = bases.iter().any(|b| {
                        path(b).is_some_and(|p| {
                            matches!(p.last().map(String::as_str), Some("Module" | "Sequential"))
                        })
                    });
                    self.classes.insert(
                        name.clone(),
                        Class {
                            statements: (index, index),
                            is_module,
                            ..Class::default()
                        },
                    );
                    self.class_order.push(name.clone());
                    stack.push((s.indent, Context::Class(name.clone())));
                }
                (StmtKind::Def { name, params }, ctx) => {
                    let class = match ctx {
                        Some(Context::Class(c)) => Some(c),
                        _ => None,
                    };
                    self.scope.push();
                    self.vars.push(HashMap::new());
                    for p in params {
                        if let Some(value) =
                            p.default.as_ref().and_then(|d| self.scope.eval(d).ok())
                        {
                            self.scope.set(&p.name, value);
                        }
                    }
                    if let Some(c) = &class {
                        let self_or_input: Vec<&str> =
                            params.iter().map(|p| p.name.as_str()).collect();
                        if name == "__init__" {
                            let required = params
                                .iter()
                                .skip(1)
                                .filter(|p| p.default.is_none())
                                .map(|p| p.name.clone())
                                .collect();
                            if let Some(info) = self.classes.get_mut(c) {
                                info.required = required;
                            }
                        }
                        if name == "forward" || name == "call" {
                            self.tensors.clear();
                            if let Some(input) = self_or_input.get(1) {
                                self.tensors.insert(input.to_string(), vec![]);
                            }
                            if let Some(info) = self.classes.get_mut(c) {
                                info.forward =
                                    Some(Err(error(s.line, "forward() returns nothing")));
                            }
                        }
                    }
                    if class.is_none() && stack.is_empty() {
                        self.function = Some((name.clone(), index));
                    }
                    stack.push((
                        s.indent,
                        Context::Def {
                            name: name.clone(),
                            class,
                        },
                    ));
                }
                (StmtKind::Other(word), _) if word == "@" => {}
                (StmtKind::Other(word), ctx) => {
                    if let Some(Context::Def {
                        name,
                        class: Some(c),
                    }) = &ctx
                        && (name == "forward" || name == "call")
                        && !matches!(word.as_str(), "pass" | "assert" | "raise" | "" | ":")
                    {
                        self.forward_fails(c, error(s.line, format!("forward() has `{word}` here: padlab reads a straight chain of layers")));
                    }
                    if matches!(
                        word.as_str(),
                        "for"
                            | "while"
                            | "if"
                            | "elif"
                            | "else"
                            | "with"
                            | "try"
                            | "except"
                            | "finally"
                    ) {
                        stack.push((s.indent, Context::Block));
                    }
                }
                (StmtKind::Unparsed(e), ctx) => {
                    if self.mentions_layers(s)
                        || matches!(ctx, Some(Context::Def { .. } | Context::Class(_)))
                            && self.mentions_layers(s)
                    {
                        return Err(error(
                            e.line,
                            format!("padlab cannot read this line: {}", e.message),
                        ));
                    }
                }
                (kind, ctx) => {
                    self.statement(index, s, kind, ctx, in_loop)?;
                }
            }
        }
        while let Some((_, ctx)) = stack.pop() {
            self.leave(&ctx, self.statements.len());
        }
        Ok(())
    }

    fn leave(&mut self, ctx: &Context, next: usize) {
        match ctx {
            Context::Class(name) => {
                if let Some(c) = self.classes.get_mut(name) {
                    c.statements.1 = next;
                }
            }
            Context::Def { name, class } => {
                self.scope.pop();
                if self.vars.len() > 1 {
                    self.vars.pop();
                }
                if class.is_none()
                    && let Some((f, start)) = self.function.take()
                    && &f == name
                    && let Some((_, range)) = self.functions.get_mut(name)
                {
                    *range = (start, next);
                }
            }
            Context::Block => {}
        }
    }

    fn forward_fails(&mut self, class: &str, e: ReadError) {
        if let Some(c) = self.classes.get_mut(class)
            && !matches!(c.forward, Some(Err(ref old)) if old.message != "forward() returns nothing")
        {
            c.forward = Some(Err(e));
        }
    }

    fn keep_import(&mut self, index: usize, roots: Vec<&str>) {
        let known = [
            "torch",
            "keras",
            "tensorflow",
            "numpy",
            "collections",
            "functools",
            "math",
            "operator",
        ];
        if roots.iter().all(|r| known.contains(r)) {
            self.keep.insert(index);
        }
    }

    /// Whether a statement mentions a layer or a model container.
    fn mentions_layers(&self, s: &Statement) -> bool {
        let text = self.src.get(s.start..s.end).unwrap_or("");
        text.split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| {
                w == "Sequential"
                    || (w.len() > 2
                        && (is_torch_name(w) || is_keras_name(w))
                        && w.chars().next().is_some_and(char::is_uppercase))
            })
    }

    fn statement(
        &mut self,
        index: usize,
        s: &Statement,
        kind: &StmtKind,
        ctx: Option<Context>,
        in_loop: bool,
    ) -> Result<(), ReadError> {
        let (def, class) = match &ctx {
            Some(Context::Def { name, class }) => (Some(name.as_str()), class.clone()),
            _ => (None, None),
        };
        if let (Some("forward" | "call"), Some(c)) = (def, &class) {
            return self.forward_statement(c, s, kind);
        }
        let top = ctx.is_none();
        match kind {
            StmtKind::Assign { targets, value } => {
                // A constant: remember it (a model statement never is one). An empty list is
                // a list of layers to come.
                let empty_list = matches!(&value.kind, ExprKind::List(items) if items.is_empty());
                if !empty_list && let Ok(v) = self.scope.eval(value) {
                    for t in targets {
                        if let ExprKind::Name(n) = &t.kind {
                            self.scope.set(n, v.clone());
                        }
                    }
                    if top {
                        self.keep.insert(index);
                    }
                    return Ok(());
                }
                let Some(obj) = self.obj(value, in_loop)? else {
                    return Ok(());
                };
                for t in targets {
                    match &t.kind {
                        ExprKind::Name(n) => {
                            self.set_var(n, obj.clone());
                            if top {
                                self.defined_at.entry(n.clone()).or_default().push(index);
                                // An instance is rebuilt from its class (the paste's line may
                                // move it to a device the script does not have).
                                if !matches!(obj, Obj::Instance { .. }) {
                                    self.keep.insert(index);
                                }
                                if matches!(obj, Obj::Seq(..) | Obj::Instance { .. }) {
                                    self.candidates
                                        .push((Build::Variable(n.clone()), obj.clone()));
                                }
                            }
                        }
                        ExprKind::Attr(base, attr) if matches!(&base.kind, ExprKind::Name(b) if b == "self") => {
                            if let Some(c) = class.as_ref().and_then(|c| self.classes.get_mut(c)) {
                                c.attrs.insert(attr.clone(), obj.clone());
                            }
                        }
                        _ => {}
                    }
                }
                Ok(())
            }
            StmtKind::AugAssign { target, value, .. } => {
                if let ExprKind::Name(n) = &target.kind
                    && let Some(Obj::List { .. }) = self.var(n)
                {
                    let more = self.obj(value, in_loop)?;
                    self.extend_list(n, more, in_loop, s.line)?;
                    if top {
                        self.keep.insert(index);
                    }
                }
                Ok(())
            }
            StmtKind::Expr(e) => {
                let ExprKind::Call(func, args) = &e.kind else {
                    return Ok(());
                };
                // model.add(layer), layers.append(layer), layers.extend([...])
                if let ExprKind::Attr(base, method) = &func.kind
                    && let ExprKind::Name(n) = &base.kind
                    && self.var(n).is_some()
                {
                    let n = n.clone();
                    match method.as_str() {
                        "add" | "append" | "add_module" => {
                            // add_module(name, module): the module is the last argument.
                            let arg = match (method.as_str(), args.as_slice()) {
                                ("add_module", [_, arg]) => arg,
                                (_, [arg]) => arg,
                                _ => {
                                    return Err(error(
                                        e.line,
                                        format!("`{}` takes one layer", self.text(func)),
                                    ));
                                }
                            };
                            let obj = self.strict_obj(&arg.value, in_loop)?.ok_or_else(|| {
                                error(
                                    arg.value.line,
                                    format!(
                                        "`{}` is not a layer padlab translates",
                                        self.text(&arg.value)
                                    ),
                                )
                            })?;
                            if in_loop {
                                return Err(error(
                                    e.line,
                                    "layers added in a loop: padlab reads straight-line code (write the layers out)",
                                ));
                            }
                            // keras.Input(...) added first: the input shape, not a layer.
                            let obj = match obj {
                                Obj::Tensor { chain, input } if chain.is_empty() => {
                                    Obj::InputShape(input)
                                }
                                other => other,
                            };
                            match self.vars.iter_mut().rev().find_map(|f| f.get_mut(&n)) {
                                Some(Obj::Seq(_, items) | Obj::List { items, .. }) => {
                                    items.push(obj)
                                }
                                _ => return Ok(()),
                            }
                            if top {
                                self.keep.insert(index);
                            }
                        }
                        "extend" => {
                            let more = match args.as_slice() {
                                [arg] => self.strict_obj(&arg.value, in_loop)?,
                                _ => None,
                            };
                            self.extend_list(&n, more, in_loop, e.line)?;
                            if top {
                                self.keep.insert(index);
                            }
                        }
                        _ => {}
                    }
                    return Ok(());
                }
                let model = match self.obj(e, in_loop)? {
                    Some(obj @ Obj::Seq(..)) => Some(obj),
                    // A layer call alone: a model of one layer.
                    Some(obj @ Obj::Layer(_)) => Some(Obj::Seq(SeqKind::Torch, vec![obj])),
                    _ => None,
                };
                if top && let Some(obj) = model {
                    self.keep.insert(index);
                    self.candidates.push((Build::Expression(self.text(e)), obj));
                }
                Ok(())
            }
            StmtKind::Return(Some(value)) if class.is_none() => {
                if let (Some(f), Some(obj)) = (def, self.obj(value, in_loop)?) {
                    self.functions.insert(f.to_string(), (obj, (index, index)));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn extend_list(
        &mut self,
        n: &str,
        more: Option<Obj>,
        in_loop: bool,
        line: usize,
    ) -> Result<(), ReadError> {
        let items = match more {
            Some(Obj::List { items, looped }) => {
                if looped {
                    return Err(error(
                        line,
                        "layers added in a loop: padlab reads straight-line code (write the layers out)",
                    ));
                }
                items
            }
            Some(other) => vec![other],
            None => return Err(error(line, "padlab cannot tell which layers this adds")),
        };
        if let Some(Obj::List {
            items: list,
            looped,
        }) = self.vars.iter_mut().rev().find_map(|f| f.get_mut(n))
        {
            list.extend(items);
            *looped |= in_loop;
        }
        Ok(())
    }

    /// [`Reader::obj`] inside a model container.
    fn strict_obj(&mut self, e: &Expr, in_loop: bool) -> Result<Option<Obj>, ReadError> {
        let was = std::mem::replace(&mut self.strict, true);
        let result = self.obj(e, in_loop);
        self.strict = was;
        result
    }

    /// The object an expression builds, if it builds one.
    fn obj(&mut self, e: &Expr, in_loop: bool) -> Result<Option<Obj>, ReadError> {
        match &e.kind {
            ExprKind::Name(n) => Ok(self.var(n).cloned()),
            ExprKind::List(items) | ExprKind::Tuple(items) => {
                let mut objs = Vec::new();
                for item in items {
                    match self.obj(item, in_loop)? {
                        Some(o) => objs.push(o),
                        None if objs.is_empty() => return Ok(None),
                        None => {
                            return Err(error(
                                item.line,
                                format!("`{}` is not a layer padlab translates", self.text(item)),
                            ));
                        }
                    }
                }
                Ok(Some(Obj::List {
                    items: objs,
                    looped: false,
                }))
            }
            ExprKind::Attr(base, attr) if matches!(&base.kind, ExprKind::Name(b) if b == "self") => {
                Ok(self
                    .classes
                    .values()
                    .find_map(|c| c.attrs.get(attr))
                    .cloned())
            }
            ExprKind::Call(func, args) => self.call(e, func, args, in_loop),
            _ => Ok(None),
        }
    }

    fn call(
        &mut self,
        e: &Expr,
        func: &Expr,
        args: &[Arg],
        in_loop: bool,
    ) -> Result<Option<Obj>, ReadError> {
        // `Layer(...)(x)` or `layer_var(x)`: a Keras functional step.
        let applied = match &func.kind {
            ExprKind::Call(..) => true,
            ExprKind::Name(n) => matches!(self.var(n), Some(Obj::Layer(_))),
            _ => false,
        };
        if applied && let [arg] = args {
            let layer = self.strict_obj(func, in_loop)?;
            let input = self.obj(&arg.value, in_loop)?;
            if let (Some(layer @ Obj::Layer(_)), Some(Obj::Tensor { mut chain, input })) =
                (layer, input)
            {
                chain.push(layer);
                return Ok(Some(Obj::Tensor { chain, input }));
            }
            return Ok(None);
        }
        // `model.to(device)`, `.cuda()`, `.eval()`, `.float()`: the same model.
        if let ExprKind::Attr(base, method) = &func.kind
            && matches!(
                method.as_str(),
                "to" | "cuda" | "cpu" | "eval" | "float" | "double" | "train"
            )
        {
            return self.obj(base, in_loop);
        }
        let Some(p) = path(func) else {
            return Ok(None);
        };
        let name = p.last().cloned().unwrap_or_default();
        if p.len() == 1
            && let Some((obj, (a, b))) = self.functions.get(&name).cloned()
        {
            // A function of the paste that builds the model: keep it, and its result is the model.
            self.keep.extend(a..b);
            return Ok(Some(obj));
        }
        if p.len() == 1 && self.classes.contains_key(&name) {
            let args_text = args
                .iter()
                .map(|a| self.arg_text(a))
                .collect::<Vec<_>>()
                .join(", ");
            return Ok(Some(Obj::Instance {
                class: name,
                args: args_text,
            }));
        }
        if name == "OrderedDict" {
            // OrderedDict([('conv', nn.Conv2d(...)), ...]): the values, in order.
            let Some(list) = args.first() else {
                return Ok(Some(Obj::List {
                    items: vec![],
                    looped: false,
                }));
            };
            let (ExprKind::List(pairs) | ExprKind::Tuple(pairs)) = &list.value.kind else {
                return Err(error(
                    e.line,
                    "padlab reads an OrderedDict written as a list of (name, layer) pairs",
                ));
            };
            let mut items = Vec::new();
            for pair in pairs {
                let ExprKind::Tuple(kv) = &pair.kind else {
                    return Err(error(pair.line, "expected a (name, layer) pair"));
                };
                let Some(value) = kv.get(1) else {
                    return Err(error(pair.line, "expected a (name, layer) pair"));
                };
                let obj = self.strict_obj(value, in_loop)?.ok_or_else(|| {
                    error(
                        value.line,
                        format!("`{}` is not a layer padlab translates", self.text(value)),
                    )
                })?;
                items.push(obj);
            }
            return Ok(Some(Obj::List {
                items,
                looped: false,
            }));
        }
        // nn.DataParallel(model, ...): the same model, on several devices.
        if matches!(name.as_str(), "DataParallel" | "DistributedDataParallel")
            && let Some(first) = args.first()
        {
            return self.obj(&first.value, in_loop);
        }
        let Some((framework, class)) = self.resolve(&p) else {
            return Ok(None);
        };
        self.uses.insert(p[0].clone());
        match class.as_str() {
            "Sequential" => {
                let mut items = Vec::new();
                for arg in args {
                    if arg.name.as_deref().is_some_and(|n| n != "layers") {
                        continue;
                    }
                    let obj = self.strict_obj(&arg.value, in_loop)?;
                    match (obj, arg.star) {
                        (
                            Some(Obj::List {
                                items: list,
                                looped,
                            }),
                            _,
                        ) => {
                            if looped {
                                return Err(error(
                                    arg.value.line,
                                    "layers added in a loop: padlab reads straight-line code (write the layers out)",
                                ));
                            }
                            items.extend(list.into_iter().map(|o| match o {
                                Obj::Tensor { chain, input } if chain.is_empty() => {
                                    Obj::InputShape(input)
                                }
                                other => other,
                            }));
                        }
                        // keras.Input(...) as the first item of a Sequential: its input shape.
                        (Some(Obj::Tensor { chain, input }), Star::None) if chain.is_empty() => {
                            items.push(Obj::InputShape(input));
                        }
                        (Some(obj), Star::None) => items.push(obj),
                        (Some(_), _) | (None, _) => {
                            return Err(error(
                                arg.value.line,
                                format!(
                                    "`{}` is not a layer padlab translates",
                                    self.text(&arg.value)
                                ),
                            ));
                        }
                    }
                }
                let kind = if framework == Framework::Torch {
                    SeqKind::Torch
                } else {
                    SeqKind::Keras
                };
                Ok(Some(Obj::Seq(kind, items)))
            }
            "Input" | "InputLayer" if framework == Framework::Keras => {
                let shape = args
                    .iter()
                    .find(|a| matches!(a.name.as_deref(), None | Some("shape" | "input_shape")))
                    .map(|a| self.shape(&a.value))
                    .transpose()?
                    .flatten();
                Ok(Some(if class == "Input" {
                    Obj::Tensor {
                        chain: vec![],
                        input: shape,
                    }
                } else {
                    Obj::InputShape(shape)
                }))
            }
            "Model" | "Functional" if framework == Framework::Keras => {
                let pick = |key: &str, position: usize| {
                    args.iter()
                        .find(|a| a.name.as_deref() == Some(key))
                        .or_else(|| args.iter().filter(|a| a.name.is_none()).nth(position))
                };
                let (Some(_inputs), Some(outputs)) = (pick("inputs", 0), pick("outputs", 1)) else {
                    return Err(error(e.line, "Model(inputs, outputs): padlab needs both"));
                };
                match self.obj(&outputs.value, in_loop)? {
                    Some(Obj::Tensor { chain, input }) => {
                        let mut items = vec![Obj::InputShape(input)];
                        items.extend(chain);
                        Ok(Some(Obj::Seq(SeqKind::Functional, items)))
                    }
                    _ => Err(error(
                        outputs.value.line,
                        "the model's outputs are not a straight chain of layers from its Input (padlab reads a chain, not a branching graph)",
                    )),
                }
            }
            _ => {
                let recognised = match framework {
                    Framework::Torch => layers::torch(&class, args, &self.scope),
                    _ => layers::keras(&class, args, &self.scope),
                };
                let recognised = match recognised {
                    Ok(r) => r,
                    Err(LayerError::Argument {
                        argument, reason, ..
                    }) if argument == "input_shape" && reason.contains("is not defined") => {
                        // `input_shape=img_size` with img_size undefined: the input comes from
                        // elsewhere (--input), and the check script defines the name.
                        self.input_name = args
                            .iter()
                            .find(|a| a.name.as_deref() == Some("input_shape"))
                            .and_then(|a| match &a.value.kind {
                                ExprKind::Name(n) => Some(n.clone()),
                                _ => None,
                            });
                        let without: Vec<Arg> = args
                            .iter()
                            .filter(|a| a.name.as_deref() != Some("input_shape"))
                            .cloned()
                            .collect();
                        layers::keras(&class, &without, &self.scope)
                            .map_err(|e| error(func.line, e.to_string()))?
                    }
                    Err(LayerError::Unknown(_)) if !self.strict || !looks_like_layer(&p) => {
                        return Ok(None);
                    }
                    Err(err) => return Err(error(func.line, err.to_string())),
                };
                let index = self.layers.len();
                self.layers.push(SourceLayer {
                    line: e.line,
                    source: self.text(e),
                    kind: recognised.kind.clone(),
                    rank: recognised.rank,
                    layer: recognised.layer.clone(),
                    expect_features: None,
                    access: None,
                });
                self.frameworks.push(framework);
                if let Some(shape) = recognised.input_shape {
                    self.stated_input.get_or_insert(shape);
                }
                Ok(Some(Obj::Layer(index)))
            }
        }
    }

    fn arg_text(&self, a: &Arg) -> String {
        let value = self.text(&a.value);
        match (&a.name, a.star) {
            (Some(n), _) => format!("{n}={value}"),
            (None, Star::Single) => format!("*{value}"),
            (None, Star::Double) => format!("**{value}"),
            (None, Star::None) => value,
        }
    }

    /// A shape tuple (`(32, 32, 3)`); `None` where it names an undefined variable.
    fn shape(&mut self, e: &Expr) -> Result<Option<Vec<i64>>, ReadError> {
        match self.scope.eval(e) {
            Ok(Value::Seq(items)) => {
                let v: Option<Vec<i64>> = items
                    .iter()
                    .map(|v| match v {
                        Value::Int(i) => Some(*i),
                        _ => None,
                    })
                    .collect();
                v.map(Some).ok_or_else(|| {
                    error(
                        e.line,
                        "the input shape must be whole sizes (a None size is not one)",
                    )
                })
            }
            Err(EvalError::Undefined(n)) => {
                self.input_name = Some(n);
                Ok(None)
            }
            Ok(other) => Err(error(
                e.line,
                format!("the input shape must be a tuple, got {other}"),
            )),
            Err(other) => Err(error(e.line, format!("the input shape: {other}"))),
        }
    }

    /// One statement of a class's `forward`: `x = <chain>` or `return <chain>`.
    fn forward_statement(
        &mut self,
        class: &str,
        s: &Statement,
        kind: &StmtKind,
    ) -> Result<(), ReadError> {
        let result = match kind {
            StmtKind::Assign { targets, value } => match targets.as_slice() {
                [t] if matches!(t.kind, ExprKind::Name(_)) => {
                    let ExprKind::Name(n) = &t.kind else {
                        unreachable!()
                    };
                    match self.tensor(class, value) {
                        Ok(chain) => {
                            self.tensors.insert(n.clone(), chain);
                            Ok(())
                        }
                        Err(e) => Err(e),
                    }
                }
                _ => Err(error(
                    s.line,
                    "forward() assigns something other than one tensor",
                )),
            },
            StmtKind::Return(Some(value)) => match self.tensor(class, value) {
                Ok(chain) => {
                    if let Some(c) = self.classes.get_mut(class) {
                        c.forward = Some(Ok(chain));
                    }
                    Ok(())
                }
                Err(e) => Err(e),
            },
            StmtKind::Expr(Expr {
                kind: ExprKind::Str(_),
                ..
            }) => Ok(()),
            _ => Err(error(
                s.line,
                "forward() has a statement padlab does not read: it reads a straight chain of layers",
            )),
        };
        if let Err(e) = result {
            self.forward_fails(class, e);
        }
        Ok(())
    }

    /// The chain of layers an expression in `forward` applies to the input.
    fn tensor(&mut self, class: &str, e: &Expr) -> Result<Vec<Obj>, ReadError> {
        match &e.kind {
            ExprKind::Name(n) => self.tensors.get(n).cloned().ok_or_else(|| {
                error(
                    e.line,
                    format!("`{n}` is not a tensor of this forward() padlab can follow"),
                )
            }),
            ExprKind::Call(func, args) => {
                // self.layer(x)
                if let ExprKind::Attr(base, attr) = &func.kind
                    && matches!(&base.kind, ExprKind::Name(b) if b == "self")
                {
                    let [arg] = args.as_slice() else {
                        return Err(error(
                            e.line,
                            format!("`{}` takes one tensor", self.text(func)),
                        ));
                    };
                    let mut chain = self.tensor(class, &arg.value)?;
                    let obj = self
                        .classes
                        .get(class)
                        .and_then(|c| c.attrs.get(attr))
                        .cloned()
                        .ok_or_else(|| {
                            error(
                                e.line,
                                format!("`self.{attr}` is not a layer padlab found in __init__"),
                            )
                        })?;
                    chain.push(Obj::Attr(attr.clone(), Box::new(obj)));
                    return Ok(chain);
                }
                // x.view(x.size(0), -1), x.flatten(1), x.relu(), ...
                if let ExprKind::Attr(base, method) = &func.kind
                    && !matches!(&base.kind, ExprKind::Name(b) if self.aliases.contains_key(b) || b == "F" || b == "torch")
                {
                    let mut chain = self.tensor(class, base)?;
                    let (layer, expect) = match method.as_str() {
                        "view" | "reshape" => (Layer::Flatten, self.flatten_features(args)?),
                        "flatten" => (Layer::Flatten, None),
                        "relu" => (Layer::Activation(Activation::Relu), None),
                        "sigmoid" => (Layer::Activation(Activation::Sigmoid), None),
                        "tanh" => (Layer::Activation(Activation::Tanh), None),
                        "contiguous" => return Ok(chain),
                        other => {
                            return Err(error(
                                e.line,
                                format!(
                                    "forward(): `.{other}(...)` is not an operation padlab translates"
                                ),
                            ));
                        }
                    };
                    chain.push(self.functional(e, method, layer, expect));
                    return Ok(chain);
                }
                // F.relu(x), torch.flatten(x, 1), F.max_pool2d(x, 2), ...
                let p = path(func)
                    .ok_or_else(|| error(e.line, "forward(): padlab cannot follow this call"))?;
                let name = p.last().cloned().unwrap_or_default();
                let Some(first) = args.first() else {
                    return Err(error(
                        e.line,
                        format!("forward(): `{name}` without a tensor"),
                    ));
                };
                let mut chain = self.tensor(class, &first.value)?;
                let rest = &args[1..];
                let layer = self.functional_layer(e, &name, rest)?;
                chain.push(layer);
                Ok(chain)
            }
            _ => Err(error(
                e.line,
                format!(
                    "forward(): `{}` is not a chain of layers padlab can follow (a branch or arithmetic)",
                    self.text(e)
                ),
            )),
        }
    }

    /// `x.view(x.size(0), -1)` / `x.view(-1, 400)`: a flatten, and its declared features.
    fn flatten_features(&self, args: &[Arg]) -> Result<Option<i64>, ReadError> {
        let values: Vec<Option<i64>> = args
            .iter()
            .map(|a| match self.scope.eval(&a.value) {
                Ok(Value::Int(v)) => Some(v),
                _ => None,
            })
            .collect();
        match values.as_slice() {
            [_, Some(-1)] => Ok(None),
            [Some(-1), Some(n)] => Ok(Some(*n)),
            [_, Some(n)] => Ok(Some(*n)),
            _ => Err(error(
                args.first().map_or(0, |a| a.value.line),
                "forward(): padlab translates view/reshape to (batch, features) only",
            )),
        }
    }

    /// A layer for a call in `forward` that has no module: `F.relu`, `torch.flatten`, ….
    fn functional(&mut self, e: &Expr, kind: &str, layer: Layer, expect: Option<i64>) -> Obj {
        let index = self.layers.len();
        self.layers.push(SourceLayer {
            line: e.line,
            source: self.text(e),
            kind: kind.to_string(),
            rank: None,
            layer,
            expect_features: expect,
            access: None,
        });
        self.frameworks.push(Framework::Torch);
        Obj::Layer(index)
    }

    fn functional_layer(&mut self, e: &Expr, name: &str, rest: &[Arg]) -> Result<Obj, ReadError> {
        let arg_value = |position: usize, key: &str| -> Option<Value> {
            rest.iter()
                .find(|a| a.name.as_deref() == Some(key))
                .or_else(|| rest.iter().filter(|a| a.name.is_none()).nth(position))
                .and_then(|a| self.scope.eval(&a.value).ok())
        };
        let float = |v: Option<Value>, default: f64| match v {
            Some(Value::Int(i)) => i as f64,
            Some(Value::Float(f)) => f,
            _ => default,
        };
        let layer = match name {
            "relu" => Layer::Activation(Activation::Relu),
            "relu6" => Layer::Activation(Activation::Relu6),
            "tanh" => Layer::Activation(Activation::Tanh),
            "sigmoid" => Layer::Activation(Activation::Sigmoid),
            "silu" => Layer::Activation(Activation::Silu),
            "elu" => Layer::Activation(Activation::Elu(float(arg_value(0, "alpha"), 1.0))),
            "leaky_relu" => Layer::Activation(Activation::LeakyRelu(float(
                arg_value(0, "negative_slope"),
                0.01,
            ))),
            "gelu" => Layer::Activation(Activation::Gelu {
                tanh: matches!(arg_value(9, "approximate"), Some(Value::Str(s)) if s == "tanh"),
            }),
            "softmax" | "log_softmax" if name == "softmax" => match arg_value(0, "dim") {
                Some(Value::Int(1 | -1)) => Layer::Activation(Activation::Softmax),
                _ => {
                    return Err(error(
                        e.line,
                        "forward(): softmax over an axis other than the features is not translated",
                    ));
                }
            },
            "flatten" => Layer::Flatten,
            "interpolate" | "upsample" => {
                let nearest = match arg_value(9, "mode") {
                    None => true,
                    Some(Value::Str(m)) => m == "nearest",
                    Some(_) => false,
                };
                match (arg_value(1, "scale_factor"), nearest) {
                    (Some(Value::Int(f)), true) => Layer::Upsample { scale: vec![f] },
                    (Some(Value::Float(f)), true)
                        if f.fract() == 0.0 && (1.0..1e9).contains(&f) =>
                    {
                        Layer::Upsample {
                            scale: vec![f as i64],
                        }
                    }
                    _ => {
                        return Err(error(
                            e.line,
                            "forward(): padlab translates interpolate with an integer scale_factor and mode='nearest'",
                        ));
                    }
                }
            }
            "dropout" | "dropout2d" => Layer::Dropout {
                rate: float(arg_value(0, "p"), 0.5),
                spatial: name == "dropout2d",
            },
            "adaptive_avg_pool2d"
            | "adaptive_avg_pool1d"
            | "adaptive_avg_pool3d"
            | "adaptive_max_pool2d" => match arg_value(0, "output_size") {
                Some(Value::Int(1)) => Layer::GlobalPool {
                    max: name.contains("max"),
                    keepdims: true,
                },
                Some(Value::Seq(v)) if v.iter().all(|x| *x == Value::Int(1)) => Layer::GlobalPool {
                    max: name.contains("max"),
                    keepdims: true,
                },
                _ => {
                    return Err(error(
                        e.line,
                        "forward(): adaptive pooling to a size other than 1 is not translated",
                    ));
                }
            },
            "max_pool2d" | "avg_pool2d" | "max_pool1d" | "avg_pool1d" | "max_pool3d"
            | "avg_pool3d" => {
                // The functional pools take the module's arguments after the tensor.
                let class = format!(
                    "{}Pool{}d",
                    if name.starts_with("max") {
                        "Max"
                    } else {
                        "Avg"
                    },
                    &name[name.len() - 2..name.len() - 1]
                );
                let r = layers::torch(&class, rest, &self.scope)
                    .map_err(|err| error(e.line, err.to_string()))?;
                let index = self.layers.len();
                self.layers.push(SourceLayer {
                    line: e.line,
                    source: self.text(e),
                    kind: name.to_string(),
                    rank: r.rank,
                    layer: r.layer,
                    expect_features: None,
                    access: None,
                });
                self.frameworks.push(Framework::Torch);
                return Ok(Obj::Layer(index));
            }
            other => {
                return Err(error(
                    e.line,
                    format!("forward(): `{other}` is not an operation padlab translates"),
                ));
            }
        };
        Ok(self.functional(e, name, layer, None))
    }

    /// Flattens a model object into its layers in order, each with how a script reaches its
    /// object from `access` (the object's own path); the input shape an `Input` states.
    fn flatten(
        &self,
        obj: &Obj,
        access: Option<String>,
        out: &mut Vec<(usize, Option<String>)>,
        input: &mut Option<Vec<i64>>,
        depth: usize,
    ) -> Result<(), ReadError> {
        if depth > 32 {
            return Err(ReadError {
                line: None,
                message: "the model nests too deeply".into(),
            });
        }
        match obj {
            Obj::Layer(i) => out.push((*i, access)),
            Obj::Attr(name, inner) => {
                let path = access.map(|a| format!("{a}.{name}"));
                self.flatten(inner, path, out, input, depth + 1)?;
            }
            Obj::Seq(kind, items) => {
                let mut k = 0usize;
                for item in items {
                    if matches!(item, Obj::InputShape(_)) && *kind != SeqKind::Functional {
                        self.flatten(item, None, out, input, depth + 1)?;
                        continue;
                    }
                    let path = access.as_ref().map(|a| match kind {
                        SeqKind::Torch => format!("{a}[{k}]"),
                        SeqKind::Keras | SeqKind::Functional => format!("{a}.layers[{k}]"),
                    });
                    self.flatten(item, path, out, input, depth + 1)?;
                    k += 1;
                }
            }
            // A list's items go into the container that expands it (`*layers`).
            Obj::List { items, .. } | Obj::Tensor { chain: items, .. } => {
                if let Obj::Tensor {
                    input: Some(shape), ..
                } = obj
                {
                    input.get_or_insert_with(|| shape.clone());
                }
                for item in items {
                    self.flatten(item, None, out, input, depth + 1)?;
                }
            }
            Obj::InputShape(shape) => {
                if let Some(shape) = shape {
                    input.get_or_insert_with(|| shape.clone());
                }
            }
            Obj::Instance { class, .. } => {
                let c = self.classes.get(class).ok_or_else(|| ReadError {
                    line: None,
                    message: format!("class {class} is not in the paste"),
                })?;
                let seqs: Vec<(&String, &Obj)> = c
                    .attrs
                    .iter()
                    .filter(|(_, o)| matches!(o, Obj::Seq(..)))
                    .collect();
                let single = match (seqs.as_slice(), c.attrs.len()) {
                    ([(name, one)], 1) => {
                        Some(Obj::Attr((*name).clone(), Box::new((*one).clone())))
                    }
                    _ => None,
                };
                match (&c.forward, single) {
                    (Some(Ok(chain)), _) => {
                        for item in chain {
                            self.flatten(item, access.clone(), out, input, depth + 1)?;
                        }
                    }
                    // forward() does more than padlab reads (a device check, say), but the class
                    // owns one Sequential and nothing else: that is what it applies. Without a
                    // forward in the paste, the same holds.
                    (Some(Err(_)) | None, Some(one)) => {
                        self.flatten(&one, access, out, input, depth + 1)?
                    }
                    (Some(Err(e)), None) => return Err(e.clone()),
                    (None, None) => {
                        return Err(ReadError {
                            line: self.statements.get(c.statements.0).map(|s| s.line),
                            message: format!(
                                "class {class} has no forward(): padlab needs it to know the order of its layers"
                            ),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    fn finish(mut self, want: Option<&str>) -> Result<SourceModel, ReadError> {
        // A class defined but never instantiated is a candidate too (the last one).
        let instantiated: BTreeSet<String> = self
            .candidates
            .iter()
            .filter_map(|(_, o)| match o {
                Obj::Instance { class, .. } => Some(class.clone()),
                _ => None,
            })
            .collect();
        for name in &self.class_order {
            let c = &self.classes[name];
            if c.is_module
                && !instantiated.contains(name)
                && (c.forward.is_some() || !c.attrs.is_empty())
            {
                let args = if c.required.is_empty() {
                    String::new()
                } else {
                    String::from("\u{0}")
                };
                self.candidates.push((
                    Build::Class {
                        name: name.clone(),
                        args,
                    },
                    Obj::Instance {
                        class: name.clone(),
                        args: String::new(),
                    },
                ));
            }
        }
        let pick = match want {
            Some(w) => self.candidates.iter().rev().find(|(b, o)| match (b, o) {
                (Build::Variable(v), _) => v == w,
                (_, Obj::Instance { class, .. }) => class == w,
                _ => false,
            }),
            None => self
                .candidates
                .iter()
                .rev()
                .find(|(b, _)| matches!(b, Build::Variable(v) if v == "model"))
                .or_else(|| self.candidates.last()),
        };
        // A variable's model is its final value (`model.add(...)` calls came after it was bound).
        let pick = pick.cloned().map(|(build, obj)| match &build {
            Build::Variable(v) => {
                let last = self
                    .vars
                    .first()
                    .and_then(|f| f.get(v))
                    .cloned()
                    .unwrap_or(obj);
                (build, last)
            }
            _ => (build, obj),
        });
        let label = |b: &Build| match b {
            Build::Variable(v) => v.clone(),
            Build::Class { name, .. } => name.clone(),
            Build::Expression(_) => "the model expression".to_string(),
        };
        let all: Vec<String> = self.candidates.iter().map(|(b, _)| label(b)).collect();
        let Some((build, obj)) = pick else {
            let message = match want {
                Some(w) => format!("no model named `{w}` in the paste"),
                None if !self.layers.is_empty() && self.candidates.is_empty() => {
                    "the paste has layers but no model holding them: paste a Sequential, a functional Model, or an nn.Module class".into()
                }
                None => "no model in the paste: paste a Keras Sequential or functional model, an nn.Sequential, or an nn.Module class (or a single layer call)".into(),
            };
            return Err(ReadError {
                line: None,
                message,
            });
        };
        let mut order = Vec::new();
        let mut input = None;
        self.flatten(&obj, Some(String::new()), &mut order, &mut input, 0)?;
        let input = input.or(self.stated_input.clone());
        if order.is_empty() {
            return Err(ReadError {
                line: None,
                message: "the model has no layers".into(),
            });
        }
        let frameworks: BTreeSet<&str> = order
            .iter()
            .map(|&(i, _)| self.frameworks[i].name())
            .collect();
        if frameworks.len() > 1 {
            return Err(ReadError {
                line: self.layers.get(order[0].0).map(|l| l.line),
                message: "the model mixes PyTorch and Keras layers".into(),
            });
        }
        let framework = self.frameworks[order[0].0];
        // The check script needs the instantiation's arguments.
        let build = match build {
            Build::Class { name, args } if args == "\u{0}" => {
                let required = self.classes[&name].required.join(", ");
                return Err(ReadError {
                    line: None,
                    message: format!(
                        "{name}({required}) is never instantiated in the paste: add the line that creates it (e.g. `model = {name}(...)`)"
                    ),
                });
            }
            Build::Variable(v) => match &obj {
                Obj::Instance { class, args } => {
                    // Keep the class, instantiate it directly (the paste's line may use a device).
                    let _ = v;
                    Build::Class {
                        name: class.clone(),
                        args: args.clone(),
                    }
                }
                _ => Build::Variable(v),
            },
            other => other,
        };
        let layers: Vec<SourceLayer> = order
            .into_iter()
            .map(|(i, access)| SourceLayer {
                access: access.filter(|_| !self.is_functional(i)),
                ..self.layers[i].clone()
            })
            .collect();
        // Keep the class blocks the model uses.
        if let Build::Class { name, .. } = &build {
            let (a, b) = self.classes[name].statements;
            self.keep.extend(a..b);
            // Statements inside other kept definitions stay, the rest is dropped.
        }
        let kept_source = self.kept();
        let name = label(&build);
        let mut others: Vec<String> = all.into_iter().filter(|n| *n != name).collect();
        others.dedup();
        Ok(SourceModel {
            name,
            others,
            framework,
            layers,
            input,
            input_name: self.input_name.clone(),
            build,
            kept_source,
            uses: self.uses.clone(),
        })
    }

    /// Whether occurrence `i` came from a `forward` call without a module.
    fn is_functional(&self, i: usize) -> bool {
        let kind = &self.layers[i].kind;
        kind.chars().next().is_some_and(char::is_lowercase)
    }

    /// The kept statements' source, dedented by the paste's base indentation.
    fn kept(&self) -> String {
        let mut out = String::new();
        for &i in &self.keep {
            let Some(s) = self.statements.get(i) else {
                continue;
            };
            let line_start = self.src[..s.start].rfind('\n').map_or(0, |p| p + 1);
            let text = &self.src[line_start..s.end];
            for line in text.lines() {
                let cut = line
                    .char_indices()
                    .nth(self.base)
                    .map_or(line.len(), |(p, _)| p);
                let head = &line[..cut];
                if head.trim().is_empty() {
                    out.push_str(&line[cut..]);
                } else {
                    out.push_str(line.trim_start());
                }
                out.push('\n');
            }
        }
        out
    }
}

/// Whether a callee path looks like a framework layer even though padlab does not know it
/// (`nn.PixelShuffle`, `layers.Attention`): then it is an error, not ignored.
fn looks_like_layer(p: &[String]) -> bool {
    let first = p.first().map(String::as_str);
    p.len() > 1
        && matches!(first, Some("nn" | "layers" | "keras" | "tf" | "torch"))
        && p.last()
            .is_some_and(|n| n.chars().next().is_some_and(char::is_uppercase))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::layers::Conv;

    fn corpus(name: &str) -> String {
        let path = format!("{}/tests/models/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn kinds(m: &SourceModel) -> Vec<&str> {
        m.layers.iter().map(|l| l.kind.as_str()).collect()
    }

    #[test]
    fn the_dcgan_generator_reads_through_its_class_and_constants() {
        let m = read_model(&corpus("dcgan_generator.py"), None).unwrap();
        assert_eq!(m.framework, Framework::Torch);
        assert_eq!(m.layers.len(), 14);
        let Layer::Conv(Conv {
            in_channels,
            out_channels,
            ..
        }) = &m.layers[0].layer
        else {
            panic!("{:?}", m.layers[0])
        };
        assert_eq!((*in_channels, *out_channels), (Some(100), 512));
        assert_eq!(
            m.layers[0].source,
            "nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False)"
        );
        assert_eq!(m.layers[0].line, 16);
        assert_eq!(m.layers[13].access.as_deref(), Some(".main[13]"));
        assert_eq!(
            m.build,
            Build::Class {
                name: "Generator".into(),
                args: "ngpu".into()
            }
        );
        // The script keeps the imports, the constants and the class; not the device line.
        assert!(m.kept_source.contains("ngf = 64\n"), "{}", m.kept_source);
        assert!(m.kept_source.contains("class Generator(nn.Module):"));
        assert!(!m.kept_source.contains("torch.device"), "{}", m.kept_source);
    }

    #[test]
    fn lenet_reads_its_forward_chain_with_functional_calls() {
        let m = read_model(&corpus("lenet.py"), None).unwrap();
        assert_eq!(
            kinds(&m),
            [
                "Conv2d",
                "relu",
                "MaxPool2d",
                "Conv2d",
                "relu",
                "MaxPool2d",
                "flatten",
                "Linear",
                "relu",
                "Linear",
                "relu",
                "Linear"
            ]
        );
        // The pool is one object used twice; F.relu has none.
        let access: Vec<Option<&str>> = m.layers.iter().map(|l| l.access.as_deref()).collect();
        assert_eq!(
            access[..4],
            [Some(".conv1"), None, Some(".pool"), Some(".conv2")]
        );
        assert_eq!(access[5], Some(".pool"));
        assert!(m.uses.contains("nn"));
    }

    #[test]
    fn keras_sequential_functional_and_imports_read_the_same_way() {
        let m = read_model(&corpus("keras_strided_classifier.py"), None).unwrap();
        assert_eq!(m.input, Some(vec![28, 28, 1]));
        assert_eq!(
            kinds(&m),
            [
                "Conv2D",
                "Conv2D",
                "MaxPooling2D",
                "Flatten",
                "Dropout",
                "Dense"
            ]
        );
        // Keras' Sequential.layers leaves the Input out; a functional Model's starts with it.
        assert_eq!(m.layers[0].access.as_deref(), Some(".layers[0]"));
        let m = read_model(&corpus("keras_autoencoder.py"), None).unwrap();
        assert_eq!(m.layers[0].access.as_deref(), Some(".layers[1]"));
        assert_eq!(m.build, Build::Variable("autoencoder".into()));
        assert_eq!(m.layers.len(), 5);
        assert_eq!(m.input, Some(vec![28, 28, 1]));
        let m = read_model(&corpus("keras_causal_tcn.py"), None).unwrap();
        assert_eq!(m.input, Some(vec![100, 4]));
        assert_eq!(
            kinds(&m),
            [
                "Conv1D",
                "Conv1D",
                "Conv1D",
                "GlobalAveragePooling1D",
                "Dense"
            ]
        );
    }

    #[test]
    fn bare_names_nested_sequentials_lists_and_continuations() {
        let src = "from torch.nn import *\nblock = [Conv2d(3, 8, 3, padding=1), ReLU(inplace=True)]\nmodel = Sequential(\n    *block,\n    Sequential(MaxPool2d(2),  # halve\n               Flatten()),\n    Linear(8 * 16 * \\\n           16, 10),\n)\n";
        let m = read_model(src, None).unwrap();
        assert_eq!(
            kinds(&m),
            ["Conv2d", "ReLU", "MaxPool2d", "Flatten", "Linear"]
        );
        let src = "layers = []\nlayers.append(nn.Conv2d(3, 8, 3))\nlayers += [nn.ReLU()]\nnet = nn.Sequential(*layers)\n";
        assert_eq!(read_model(src, None).unwrap().layers.len(), 2);
    }

    #[test]
    fn what_padlab_does_not_translate_is_an_error_naming_the_line() {
        let e = read_model(
            "model = nn.Sequential(\n    nn.Conv2d(32, 32, (4, 1), padding = ?\n)\n",
            None,
        )
        .unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = read_model(
            "m = nn.Sequential(\n  nn.Conv2d(3, 8, 3),\n  nn.PixelShuffle(2),\n)\n",
            None,
        )
        .unwrap_err();
        assert_eq!(e.line, Some(3));
        assert!(e.message.contains("PixelShuffle"), "{e}");
        let e = read_model(
            "m = keras.Sequential([layers.Conv2D(8, 3, data_format='channels_first')])\n",
            None,
        )
        .unwrap_err();
        assert!(e.message.contains("channels_first"), "{e}");
        let e = read_model("layers = []\nfor i in range(3):\n    layers.append(nn.ReLU())\nm = nn.Sequential(*layers)\n", None).unwrap_err();
        assert!(e.message.contains("loop"), "{e}");
        let e = read_model("x = keras.Input((8, 8, 3))\na = layers.Conv2D(4, 3)(x)\nb = layers.Conv2D(4, 3)(x)\ny = layers.add([a, b])\nm = keras.Model(x, y)\n", None).unwrap_err();
        assert!(e.message.contains("chain"), "{e}");
        let e = read_model("print('hello')\n", None).unwrap_err();
        assert!(e.message.contains("no model"), "{e}");
    }

    #[test]
    fn a_single_layer_call_is_a_model_of_one_layer() {
        let m = read_model("nn.Conv2d(32, 32, (4, 1), padding=(1, 0))", None).unwrap();
        assert_eq!(m.layers.len(), 1);
        assert!(matches!(m.build, Build::Expression(_)));
    }
}
