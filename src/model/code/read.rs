//! Pasted model code to a graph: parse, evaluate the paste, pick the model (the one named, or
//! the last model the paste builds that no other contains), trace it on a fresh input, and
//! extract the operations of that trace as the [`Graph`], named as the source names them (a
//! torch module's path, a Keras layer's name).

use std::collections::HashMap;
use std::rc::Rc;

use crate::core::Framework;
use crate::model::graph::{Edge, Graph, NodeId};
use crate::model::op::Op;

use super::ast::StmtKind;
use super::eval::{BATCH, Failure, Interp, Settings, Site, bound_names};
use super::keras::{Declared, fill_declared, output_edges, sequential_input};
use super::value::{FrameworkBase, Hole, LayerKind, Tensor, Value};

/// The largest paste read (bytes).
pub const MAX_PASTE: usize = 4_000_000;

/// What to read.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// One sample's input shape in the source's layout (`--input`).
    pub input: Option<Vec<i64>>,
    /// Which model, when the paste holds several: a variable, class or function name, or an
    /// expression evaluated after the paste (`resnet18()`).
    pub model: Option<String>,
}

/// A model read from code.
#[derive(Clone, Debug)]
pub struct Reading {
    pub graph: Graph,
    /// The Python expression, evaluated after the paste, that builds the model.
    pub build: String,
    /// The other models the paste holds.
    pub others: Vec<String>,
    /// One sample's input shape the graph was traced at, when known (source layout).
    pub input: Option<Vec<i64>>,
    /// Byte ranges of the top-level statements the check script keeps (those that ran
    /// without effects: not training, saving, loading data or failing).
    pub kept: Vec<(usize, usize)>,
    /// Names the paste uses but does not define (or defines by loading data), with the
    /// Python that defines them from the input shape and a comment.
    pub defined: Vec<(String, String)>,
    /// The model's parameter count as its framework counts it.
    pub params: Option<i64>,
    /// Imports of the framework names the paste uses without importing them.
    pub imports: Vec<String>,
    /// The model zoos the paste reached.
    pub zoos: Vec<super::zoo::Zoo>,
    /// For a zoo model read without an input size: the size its weights were made at, and
    /// what says so.
    pub zoo_input: Option<(Vec<i64>, String)>,
}

/// Why the paste gives no model: where and what.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for ReadError {}

impl From<Failure> for ReadError {
    fn from(f: Failure) -> Self {
        ReadError {
            line: f.line,
            message: explained(f.message),
        }
    }
}

/// Python's TypeError about a value padlab holds only as opaque (`object of type 'the result
/// of re.split()' has no len()`): said as what it is, a call padlab does not evaluate.
fn explained(message: String) -> String {
    let Some(at) = message.find("'the result of ") else {
        return message;
    };
    let rest = &message[at + "'the result of ".len()..];
    let Some(end) = rest.find("()'") else {
        return message;
    };
    let call = &rest[..end];
    format!(
        "{message}: padlab does not evaluate {call}(), so its result is not known here (give the value it computes as a number or list in the paste)"
    )
}

fn error(line: usize, message: impl Into<String>) -> ReadError {
    ReadError {
        line,
        message: message.into(),
    }
}

/// A model the paste builds, and how to get it.
#[derive(Clone)]
struct Candidate {
    /// How the check script builds it (a name, `Class()`, `function()`).
    build: String,
    value: Value,
    /// The sample shape the paste runs it on, when it does.
    input: Option<Vec<i64>>,
    /// The top-level line that made it (`usize::MAX` for one padlab builds itself).
    line: usize,
}

/// Reads pasted code into the graph of its model. A torch model read without an input size
/// whose layers fix it (a `Linear` after the convolutions) is traced at the first common
/// size that fits, and a note says so; when two sizes fit, none is assumed.
pub fn read(src: &str, options: &Options) -> Result<Reading, ReadError> {
    let r = read_once(src, options)?;
    if options.input.is_some() || r.input.is_some() || src.len() > GUESS_MAX_PASTE {
        return Ok(r);
    }
    // A zoo model read without an input size: the size its pretrained weights were made at.
    if let Some((size, why)) = r.zoo_input.clone() {
        let options = Options {
            input: Some(size.clone()),
            model: Some(r.build.clone()),
        };
        let mut found = read_once(src, &options)?;
        found.others = r.others.clone();
        found.graph.notes.insert(
            0,
            format!(
                "input {} assumed: {why} (give another with --input)",
                size.iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join("×")
            ),
        );
        return Ok(found);
    }
    let Some((guesses, why)) = input_guesses(&r.graph) else {
        return Ok(r);
    };
    let fits = |g: &Vec<i64>| -> Option<Reading> {
        let options = Options {
            input: Some(g.clone()),
            model: Some(r.build.clone()),
        };
        read_once(src, &options)
            .ok()
            .filter(|t| traced_clean(&t.graph))
    };
    for (k, g) in guesses.iter().enumerate().take(GUESSES) {
        let Some(mut found) = fits(g) else { continue };
        // The model must fix the size: the next common size must not fit as well.
        if let Some(next) = guesses.get(k + 1)
            && fits(next).is_some()
        {
            return Ok(r);
        }
        found.others = r.others.clone();
        found.graph.notes.insert(
            0,
            format!(
                "input {} assumed: {why}, and it is the first common size that gives it (give another with --input)",
                g.iter().map(i64::to_string).collect::<Vec<_>>().join("×")
            ),
        );
        return Ok(found);
    }
    Ok(r)
}

/// Pastes longer than this are not re-read to find their input size.
const GUESS_MAX_PASTE: usize = 256 << 10;
/// Sizes tried at most.
const GUESSES: usize = 24;

/// Every node traced, with a shape and no error.
fn traced_clean(g: &Graph) -> bool {
    g.nodes
        .iter()
        .all(|n| n.inferred.error.is_none() && n.inferred.outputs.iter().all(Option::is_some))
}

/// The one-sample input shapes to try for a torch model traced without one, and what fixes
/// its size: its first layer and the first `Linear` that reads a flattened tensor.
fn input_guesses(g: &Graph) -> Option<(Vec<Vec<i64>>, String)> {
    if g.framework != Framework::Torch {
        return None;
    }
    let mut ops = g.nodes.iter().filter(|n| !matches!(n.op, Op::Input));
    let first = ops.next()?;
    // The model itself when it is one layer (a torch module's path is then empty).
    let first_name = if first.name.is_empty() {
        first.kind.as_str()
    } else {
        first.name.as_str()
    };
    let dense = g.nodes.iter().find_map(|n| match n.op {
        Op::Dense {
            in_features: Some(f),
            ..
        } => Some((f, n.name.clone())),
        _ => None,
    });
    match &first.op {
        Op::Conv(c) if first.kind.ends_with("2d") => {
            let ch = c.in_channels?;
            let (features, name) = dense?;
            let sizes: &[i64] = if ch == 1 {
                &[
                    28, 32, 64, 96, 128, 224, 256, 48, 84, 100, 112, 150, 160, 192, 227, 299, 320,
                    384, 512,
                ]
            } else {
                &[
                    32, 224, 28, 64, 96, 128, 256, 48, 84, 100, 112, 150, 160, 192, 227, 299, 320,
                    384, 512,
                ]
            };
            let guesses = sizes.iter().map(|&s| vec![ch, s, s]).collect();
            Some((
                guesses,
                format!(
                    "`{}` reads {ch} channel{} and `{name}` reads {features} features",
                    first_name,
                    if ch == 1 { "" } else { "s" }
                ),
            ))
        }
        Op::Dense {
            in_features: Some(f),
            ..
        } => Some((vec![vec![*f]], format!("`{first_name}` reads {f} features"))),
        Op::Flatten { .. } | Op::Reshape { .. } => {
            let (features, name) = dense?;
            let mut guesses = Vec::new();
            for ch in [1, 3] {
                let side = (1..=4096).find(|s| s * s * ch >= features);
                if let Some(side) = side
                    && side * side * ch == features
                {
                    guesses.push(vec![ch, side, side]);
                }
            }
            guesses.push(vec![features]);
            guesses.truncate(1);
            Some((
                guesses,
                format!("`{name}` reads {features} features after `{first_name}`"),
            ))
        }
        _ => None,
    }
}

fn read_once(src: &str, options: &Options) -> Result<Reading, ReadError> {
    if src.len() > MAX_PASTE {
        return Err(error(
            0,
            format!(
                "the paste is {} bytes: padlab reads up to {MAX_PASTE}",
                src.len()
            ),
        ));
    }
    let body = super::parser::parse(src).map_err(|e| error(e.line, e.message))?;
    let settings = Settings {
        input: options.input.clone(),
    };
    let mut it = Interp::new(src, settings.clone());
    it.run_module(&body);
    let candidates = match &options.model {
        Some(want) => vec![chosen(&mut it, &body, want)?],
        None => {
            let found = variables(&it, &body);
            // A `test()` (or `main()`) that builds the model and runs it on an input says
            // how it is built and what it reads.
            let found = if found.is_empty() {
                from_functions(src, &body, &settings)
            } else {
                found
            };
            if let Some((_, Some(sample))) = found.last().map(|c| (c, c.input.clone()))
                && options.input.is_none()
            {
                let options = Options {
                    input: Some(sample),
                    model: Some(found.last().map(|c| c.build.clone()).unwrap_or_default()),
                };
                let mut r = read_once(src, &options)?;
                r.others = found[..found.len() - 1]
                    .iter()
                    .map(|c| c.build.clone())
                    .collect();
                return Ok(r);
            }
            if found.is_empty() {
                // A statement that builds the model failed: its error says more than a
                // definition built on its own.
                let model_failed = it
                    .top
                    .iter()
                    .any(|t| t.failed.is_some() && builds_model(&it, t));
                let defs = definitions(src, &body, &settings);
                // No model at all, only a layer (`fc = torch.nn.Linear(4, 1)` trained in a
                // loop): that layer is the model.
                let lone = if model_failed {
                    None
                } else {
                    lone_layer(&it, &body)
                };
                let (found, needs) = match (defs, lone) {
                    (Ok((f, n)), _) if !f.is_empty() || !n.is_empty() => (f, n),
                    (_, Some(c)) => (vec![c], Vec::new()),
                    (Ok(x), None) => x,
                    (Err(e), None) => return Err(if model_failed { no_model(&it) } else { e }),
                };
                if found.is_empty() && !needs.is_empty() {
                    return Err(error(
                        0,
                        format!(
                            "no model is built without arguments: the paste defines {}; build the one to port at its end (`model = {}`), or name it with --model in the CLI",
                            needs.join(" and "),
                            needs[0]
                        ),
                    ));
                }
                found
            } else {
                found
            }
        }
    };
    let Some(pick) = candidates.last().cloned() else {
        return Err(no_model(&it));
    };
    // A model built after the one picked failed to build: the paste's model is that one, so
    // its failure is the answer (never a smaller model in its place without a word).
    if options.model.is_none()
        && let Some(f) = it
            .top
            .iter()
            .filter(|t| t.line > pick.line && builds_model(&it, t))
            .filter_map(|t| t.failed.as_ref())
            .next_back()
    {
        let mut e = ReadError::from(f.clone());
        e.message = format!(
            "{} (padlab read the models before it: {}; choose one with --model)",
            e.message,
            candidates
                .iter()
                .map(|c| format!("`{}`", c.build))
                .collect::<Vec<_>>()
                .join(", ")
        );
        return Err(e);
    }
    let others: Vec<String> = candidates[..candidates.len() - 1]
        .iter()
        .map(|c| c.build.clone())
        .collect();
    // A class or function candidate is built in the main evaluation, as the check script does.
    let model = if matches!(pick.value, Value::None) {
        evaluate_build(&mut it, &pick.build)?
    } else {
        pick.value.clone()
    };
    // An error while tracing that has no line of its own (a limit reached inside a container)
    // names the line that made the model.
    let (graph, input) = trace(&mut it, &model, &pick.build).map_err(|mut e| {
        if e.line == 0 && pick.line != usize::MAX {
            e.line = pick.line;
        }
        // A model built by --model: its class's line.
        if e.line == 0
            && let Value::Instance(i) = &model
        {
            e.line = i.class.def.line;
        }
        e
    })?;
    // Left out: what failed or has effects, and what reads a name only such a statement
    // binds (its value would not exist in the check).
    let mut missing: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut out: Vec<bool> = Vec::with_capacity(it.top.len());
    for t in &it.top {
        let left_out =
            t.failed.is_some() || t.effect || t.reads.iter().any(|n| missing.contains(n.as_str()));
        for n in &t.binds {
            if left_out {
                missing.insert(n.as_str());
            } else {
                missing.remove(n.as_str());
            }
        }
        out.push(left_out);
    }
    let kept = it
        .top
        .iter()
        .zip(&out)
        .filter(|(_, left_out)| !**left_out)
        .map(|(t, _)| t)
        // An import of a library the model does not use (matplotlib, a data loader) is left out:
        // the check should not need it installed.
        .filter(|t| match &t.import {
            Some((names, module)) => {
                let root = module.split('.').next().unwrap_or("");
                matches!(
                    root,
                    "torch"
                        | "keras"
                        | "tensorflow"
                        | "tf_keras"
                        | "numpy"
                        | "math"
                        | "functools"
                        | "collections"
                        | "typing"
                        | "__future__"
                        | "copy"
                        | "itertools"
                        | "operator"
                        | "argparse"
                        | "types"
                ) || names.iter().any(|n| it.used.contains(n.as_str()))
            }
            None => true,
        })
        .map(|t| (t.start, t.end))
        .collect();
    let defined = define_holes(&it, input.as_deref());
    let mut graph = graph;
    // Which zoo models the graph holds, and what the check does with their weights.
    let mut zoo_notes: Vec<String> = Vec::new();
    for call in &it.zoo_calls {
        let note = super::zoo::note(call);
        if graph.nodes.iter().any(|n| n.source.line == call.line) && !zoo_notes.contains(&note) {
            zoo_notes.push(note);
        }
    }
    let zoo_input = it
        .zoo_calls
        .iter()
        .filter(|c| graph.nodes.iter().any(|n| n.source.line == c.line))
        .find_map(super::zoo::default_input)
        .filter(|_| input.is_none() && graph.framework == crate::core::Framework::Torch);
    graph.notes.splice(0..0, zoo_notes);
    graph.notes.extend(it.assumed.iter().cloned());
    for t in &it.top {
        // (A statement whose failure a note of its own explains.)
        let explained = it
            .assumed
            .iter()
            .any(|a| a.starts_with(&format!("line {}: ", t.line)));
        if let Some(f) = t.failed.as_ref().filter(|_| !explained) {
            graph
                .notes
                .push(format!("line {}: not evaluated: {}", f.line, f.message));
        }
    }
    for n in &graph.nodes {
        if let Op::Opaque { what } = &n.op {
            let note = format!(
                "line {}: {} ({}): padlab reads its shape, not its values; the port refuses it",
                n.source.line, n.name, what
            );
            if !graph.notes.contains(&note) {
                graph.notes.push(note);
            }
        }
    }
    let params = super::params::count(&model, &graph);
    let imports = it
        .imported
        .iter()
        .map(|(_, line)| line.clone())
        .filter(|l| !l.is_empty())
        .collect();
    let zoos = it.zoos.iter().map(|(z, _)| *z).collect();
    Ok(Reading {
        zoos,
        zoo_input,
        imports,
        params,
        graph,
        build: pick.build,
        others,
        input,
        kept,
        defined,
    })
}

fn no_model(it: &Interp) -> ReadError {
    // The last statement that builds a model and failed says why; else the first failure.
    if let Some(f) = it
        .top
        .iter()
        .filter(|t| builds_model(it, t))
        .filter_map(|t| t.failed.as_ref())
        .next_back()
        .or_else(|| it.top.iter().find_map(|t| t.failed.as_ref()))
    {
        return ReadError::from(f.clone());
    }
    error(
        0,
        "no model found: padlab reads a Keras Sequential or functional Model, a torch nn.Module class or nn.Sequential, or their printout",
    )
}

/// Whether a top-level statement builds a model: it calls `Sequential(`, `Model(` or a model
/// class the paste defines (read from its text: a failed statement has no value to look at).
fn builds_model(it: &Interp, t: &super::eval::TopLevel) -> bool {
    if t.import.is_some() {
        return false;
    }
    let text = it.src.get(t.start..t.end).unwrap_or("");
    if text.starts_with("def ") || text.starts_with("class ") || text.starts_with('@') {
        return false;
    }
    let calls = |name: &str| {
        text.match_indices(name).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let boundary = !before.is_some_and(|c| c.is_alphanumeric() || c == '_');
            boundary && text[i + name.len()..].trim_start().starts_with('(')
        })
    };
    if calls("Sequential") || calls("Model") {
        return true;
    }
    let model_class = |v: &Value| matches!(v, Value::Class(c) if is_model_class(c));
    // A function of the paste that builds one (its body calls `Sequential(`, `Model(` or a
    // model class).
    let builder = |v: &Value| {
        let Value::Function(f) = v else { return false };
        // A zoo's builder (its body is not the paste's text).
        if let Some(zoo) = f.zoo {
            return zoo.models().contains(&f.name.as_ref());
        }
        let super::value::FunctionBody::Def(def) = &f.body else {
            return false;
        };
        let (Some(first), Some(last)) = (def.body.first(), def.body.last()) else {
            return false;
        };
        let body = it
            .src
            .get(first.start..super::eval::stmt_end(last))
            .unwrap_or("");
        ["Sequential(", "Model(", "Sequential([", "keras.Model("]
            .iter()
            .any(|w| body.contains(w))
            || it
                .globals
                .iter()
                .any(|(n, v)| model_class(v) && body.contains(&format!("{n}(")))
    };
    it.globals
        .iter()
        .any(|(name, v)| (model_class(v) || builder(v)) && calls(name))
}

/// Whether a value is a model: a torch module, a Keras model or Sequential.
fn is_model(v: &Value) -> bool {
    match v {
        Value::Layer(l) => matches!(
            l.kind,
            LayerKind::Sequential(_) | LayerKind::Functional { .. }
        ),
        Value::Instance(i) => is_model_class(&i.class),
        _ => false,
    }
}

/// Whether a class derives from a framework's model class (torch `nn.Module` or `Sequential`,
/// Keras `Model` or `Sequential`).
fn is_model_class(c: &super::value::Class) -> bool {
    matches!(
        c.framework,
        Some(
            FrameworkBase::TorchModule
                | FrameworkBase::TorchSequential
                | FrameworkBase::KerasModel
                | FrameworkBase::KerasSequential
        )
    )
}

/// The models an instance of a model class holds as attributes, when the class cannot be
/// called itself (no `call` or `forward` of its own or its bases'): empty otherwise.
fn held_models(it: &Interp, v: &Value) -> Vec<(String, Value)> {
    let Value::Instance(i) = v else {
        return Vec::new();
    };
    if !matches!(
        i.class.framework,
        Some(FrameworkBase::TorchModule | FrameworkBase::KerasModel)
    ) || it.find_method(&i.class, "call").is_some()
        || it.find_method(&i.class, "forward").is_some()
        || i.base_layer.borrow().is_some()
    {
        return Vec::new();
    }
    i.attrs
        .borrow()
        .entries
        .iter()
        .filter(|(_, m)| is_model(m))
        .map(|(k, m)| (k.to_string(), m.clone()))
        .collect()
}

/// Whether a top-level statement only defines (a function, a class, an import): it holds no
/// model.
fn only_defines(s: &super::ast::Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::FunctionDef(_)
            | StmtKind::ClassDef(_)
            | StmtKind::Import(_)
            | StmtKind::ImportFrom { .. }
    )
}

/// The last top-level variable holding a single framework layer (a paste that builds no
/// model, only a layer it trains).
fn lone_layer(it: &Interp, body: &[super::ast::Stmt]) -> Option<Candidate> {
    let mut found = None;
    for s in body {
        if only_defines(s) {
            continue;
        }
        let mut names = Vec::new();
        bound_names(s, &mut names);
        for n in names {
            if let Some(v @ Value::Layer(l)) = it.globals.get(n.as_str())
                && matches!(&l.kind, LayerKind::Op(op) if *op != Op::Identity)
            {
                found = Some(Candidate {
                    build: n.clone(),
                    value: v.clone(),
                    input: None,
                    line: s.line,
                });
            }
        }
    }
    found
}

/// A module's or layer's object id.
fn id_of(v: &Value) -> Option<usize> {
    match v {
        Value::Instance(i) => Some(i.id),
        Value::Layer(l) => Some(l.id),
        _ => None,
    }
}

/// A module's class name (a layer's kind), to tell two builds of one model.
fn class_name(v: &Value) -> String {
    match v {
        Value::Instance(i) => i.class.name.to_string(),
        Value::Layer(l) => format!("{:?}", std::mem::discriminant(&l.kind)),
        _ => String::new(),
    }
}

/// Every module or layer object a model holds (their ids).
fn contents(v: &Value, out: &mut std::collections::HashSet<usize>, depth: usize) {
    if depth > 200 {
        return;
    }
    for (_, child) in super::layers::module_children(v) {
        if let Some(id) = id_of(&child)
            && out.insert(id)
        {
            contents(&child, out, depth + 1);
        }
    }
}

/// The models top-level variables hold, in order, without those another one contains.
fn variables(it: &Interp, body: &[super::ast::Stmt]) -> Vec<Candidate> {
    let mut seen = std::collections::HashSet::new();
    let mut found: Vec<Candidate> = Vec::new();
    for s in body {
        let mut names = Vec::new();
        bound_names(s, &mut names);
        if only_defines(s) {
            continue;
        }
        for n in names {
            let Some(v) = it.globals.get(n.as_str()) else {
                continue;
            };
            if is_model(v) && !seen.insert(id_of(v)) {
                // Bound again (`model = nn.Sequential(model, model)`): its line is the last.
                if let Some(c) = found.iter_mut().find(|c| c.build == n) {
                    c.line = s.line;
                }
                continue;
            }
            if is_model(v) {
                let held = held_models(it, v);
                if held.is_empty() {
                    found.push(Candidate {
                        build: n.clone(),
                        value: v.clone(),
                        input: None,
                        line: s.line,
                    });
                }
                // A model class without `call`/`forward` that holds models (a VAE's encoder
                // and decoder, used through methods of its own): those are the models.
                for (attr, m) in held {
                    if seen.insert(id_of(&m)) {
                        found.push(Candidate {
                            build: format!("{n}.{attr}"),
                            value: m,
                            input: None,
                            line: s.line,
                        });
                    }
                }
            }
        }
    }
    let mut inside = std::collections::HashSet::new();
    for c in &found {
        contents(&c.value, &mut inside, 0);
        // Keras models called inside a functional model are in its graph.
        if let Value::Layer(l) = &c.value
            && let LayerKind::Functional { outputs, inputs } = &l.kind
        {
            inside.extend(functional_layers(it, inputs, outputs));
        }
    }
    found.retain(|c| id_of(&c.value).is_none_or(|id| !inside.contains(&id)));
    found
}

/// The ids of the layers and containers a functional model's graph runs (nested models
/// included).
fn functional_layers(it: &Interp, inputs: &[Rc<Tensor>], outputs: &Value) -> Vec<usize> {
    let mut outs = Vec::new();
    output_edges(outputs, &mut outs);
    let stop: Vec<usize> = inputs.iter().map(|t| t.edge.node.0).collect();
    let mut stack: Vec<usize> = outs.iter().map(|t| t.edge.node.0).collect();
    let mut seen = std::collections::HashSet::new();
    let mut ids = Vec::new();
    while let Some(n) = stack.pop() {
        if !seen.insert(n) || stop.contains(&n) {
            continue;
        }
        if let Some(tr) = it.trace.get(n) {
            ids.extend(tr.layer.as_ref().map(|l| l.id));
            ids.extend(tr.scope.iter().copied());
        }
        if let Some(node) = it.graph.nodes.get(n) {
            stack.extend(node.inputs.iter().map(|e| e.node.0));
        }
    }
    ids
}

/// Model classes and model-building functions the paste defines but never uses: each built
/// in its own evaluation of the paste, so one does not change another's state.
fn definitions(
    src: &str,
    body: &[super::ast::Stmt],
    settings: &Settings,
) -> Result<(Vec<Candidate>, Vec<String>), ReadError> {
    let mut builds: Vec<String> = Vec::new();
    // Model classes that need arguments, as `Name(a, b, c=...)`, for the error that asks.
    let mut needs: Vec<String> = Vec::new();
    // The first build that fails for another reason (the reason no model is found).
    let mut failed: Option<ReadError> = None;
    for s in body {
        match &s.kind {
            StmtKind::ClassDef(c) => builds.push(format!("{}()", c.name)),
            StmtKind::FunctionDef(f) => {
                let all_default = f.params.iter().all(|p| {
                    p.default.is_some()
                        || matches!(
                            p.kind,
                            super::ast::ParamKind::VarArgs | super::ast::ParamKind::VarKeywords
                        )
                });
                let lower = f.name.to_ascii_lowercase();
                let helper = [
                    "main", "train", "test", "evaluate", "eval", "run", "fit", "predict", "plot",
                    "show", "load", "save", "download",
                ]
                .iter()
                .any(|w| lower == *w || lower.starts_with(&format!("{w}_")));
                if all_default && !helper && !f.name.starts_with('_') {
                    builds.push(format!("{}()", f.name));
                }
            }
            _ => {}
        }
    }
    builds.truncate(64);
    let mut found: Vec<(Candidate, std::collections::HashSet<String>)> = Vec::new();
    for b in builds {
        let mut it = Interp::new(src, settings.clone());
        it.run_module(body);
        let v = match evaluate_build(&mut it, &b) {
            Ok(v) => v,
            Err(e) => {
                if e.message.contains("missing") && e.message.contains("required") {
                    let class = b.trim_end_matches("()");
                    // A class another definition uses by name is a part, not the model.
                    // (The script's own `if __name__ == "__main__":` building it is a use
                    // as the model, not as a part.)
                    let used = body.iter().any(|s| {
                        !matches!(&s.kind, StmtKind::ClassDef(c) if c.name == class)
                            && !src
                                .get(s.start..super::eval::stmt_end(s))
                                .is_some_and(|t| t.starts_with("if __name__"))
                            && src
                                .get(s.start..super::eval::stmt_end(s))
                                .is_some_and(|t| t.contains(&format!("{class}(")))
                    });
                    if !used && let Some(sig) = signature(body, class) {
                        needs.push(sig);
                    }
                } else if failed.is_none() {
                    failed = Some(ReadError {
                        message: format!("building `{b}` fails: {}", e.message),
                        ..e
                    });
                }
                continue;
            }
        };
        if !is_model(&v) {
            continue;
        }
        // The classes its modules are instances of: a class used inside another is a part.
        let mut parts = std::collections::HashSet::new();
        let mut inside = std::collections::HashSet::new();
        contents(&v, &mut inside, 0);
        collect_classes(&v, &mut parts, 0);
        found.push((
            Candidate {
                build: b,
                value: Value::None,
                input: None,
                line: usize::MAX,
            },
            parts,
        ));
    }
    let class_of = |build: &str| build.trim_end_matches("()").to_string();
    let used: std::collections::HashSet<String> = found
        .iter()
        .flat_map(|(c, parts)| {
            parts
                .iter()
                .filter(move |p| **p != class_of(&c.build))
                .cloned()
        })
        .collect();
    // A function that builds a class's model makes that class a part too.
    let mut out: Vec<Candidate> = found
        .iter()
        .filter(|(c, _)| !used.contains(&class_of(&c.build)))
        .map(|(c, _)| c.clone())
        .collect();
    let functions_build: std::collections::HashSet<String> = found
        .iter()
        .filter(|(c, _)| body.iter().any(|s| matches!(&s.kind, StmtKind::FunctionDef(f) if format!("{}()", f.name) == c.build)))
        .flat_map(|(_, parts)| parts.iter().cloned())
        .collect();
    out.retain(|c| !functions_build.contains(&class_of(&c.build)) || body.iter().any(|s| matches!(&s.kind, StmtKind::FunctionDef(f) if format!("{}()", f.name) == c.build)));
    if out.is_empty()
        && needs.is_empty()
        && let Some(e) = failed
    {
        return Err(e);
    }
    Ok((out, needs))
}

fn collect_classes(v: &Value, out: &mut std::collections::HashSet<String>, depth: usize) {
    if depth > 200 {
        return;
    }
    if let Value::Instance(i) = v {
        out.insert(i.class.name.to_string());
    }
    for (_, c) in super::layers::module_children(v) {
        collect_classes(&c, out, depth + 1);
    }
}

/// The model `--model` names: a variable, a class or function (built with no arguments), or
/// an expression.
fn chosen(it: &mut Interp, body: &[super::ast::Stmt], want: &str) -> Result<Candidate, ReadError> {
    let want = want.trim();
    if let Some(v) = it.globals.get(want).cloned() {
        match &v {
            Value::Class(_) | Value::Function(_) => {
                return Ok(Candidate {
                    build: format!("{want}()"),
                    value: Value::None,
                    input: None,
                    line: usize::MAX,
                });
            }
            v if is_model(v)
                || matches!(v, Value::Layer(l) if matches!(l.kind, LayerKind::Op(_))) =>
            {
                return Ok(Candidate {
                    build: want.to_string(),
                    value: v.clone(),
                    input: None,
                    line: usize::MAX,
                });
            }
            Value::Hole(_) => {}
            other => {
                return Err(error(
                    0,
                    format!("`{want}` is {}, not a model", other.type_name()),
                ));
            }
        }
    }
    let _ = body;
    Ok(Candidate {
        build: want.to_string(),
        value: Value::None,
        input: None,
        line: usize::MAX,
    })
}

/// Evaluates the build expression after the paste.
fn evaluate_build(it: &mut Interp, build: &str) -> Result<Value, ReadError> {
    let mut e = super::parser::parse_expression(build)
        .map_err(|e| error(0, format!("--model {build}: {}", e.message)))?;
    // The expression's text follows the paste's, so both can be quoted.
    let paste = it.src.clone();
    super::ast::shift(&mut e, paste.len() + 1);
    it.src = Rc::from(format!("{paste}\n{build}").as_str());
    let v = it.eval(&e, None);
    it.src = paste;
    let v = v.map_err(ReadError::from)?;
    if let Value::Hole(h) = &v {
        return Err(ReadError::from(super::eval::undefined(h, 0)));
    }
    if !is_model(&v) {
        return Err(error(
            0,
            format!("`{build}` gives {}, not a model", v.type_name()),
        ));
    }
    Ok(v)
}

/// An input to trace with: its full shape (when known) and its name.
type TraceInput = (Option<Vec<i64>>, String);

/// The input shapes to trace `model` with (full shapes, batch first; `None` when unknown).
fn input_shapes(it: &mut Interp, model: &Value) -> Result<(Framework, Vec<TraceInput>), ReadError> {
    let line = 0;
    // A functional model's subclass takes that model's inputs.
    if let Value::Instance(i) = model
        && let Some(base) = i.base_layer.borrow().clone()
        && matches!(base.kind, LayerKind::Functional { .. })
    {
        return input_shapes(it, &Value::Layer(base));
    }
    let full = |s: Option<Vec<i64>>| s.map(|s| std::iter::once(BATCH).chain(s).collect::<Vec<_>>());
    match model {
        Value::Layer(l) if l.framework == Framework::Keras => match &l.kind {
            LayerKind::Functional { inputs, .. } => {
                let mut out = Vec::new();
                for t in inputs {
                    let (declared, name) = it
                        .keras_inputs
                        .iter()
                        .find(|(e, _, _)| *e == t.edge)
                        .map(|(_, d, n)| (d.clone(), n.to_string()))
                        .unwrap_or_default();
                    out.push((full(fill_declared(it, &declared, line)?), name));
                }
                Ok((Framework::Keras, out))
            }
            _ => {
                let declared = sequential_input(it, l, line)?.unwrap_or_default();
                let name = keras_input_name(it, l);
                Ok((
                    Framework::Keras,
                    vec![(full(fill_declared(it, &declared, line)?), name)],
                ))
            }
        },
        Value::Instance(i)
            if i.class
                .framework
                .as_ref()
                .is_some_and(FrameworkBase::is_keras) =>
        {
            let declared: Declared = it
                .declared
                .iter()
                .find(|(a, _)| *a == i.id)
                .map(|(_, d)| d.clone())
                .unwrap_or_default();
            Ok((
                Framework::Keras,
                vec![(
                    full(fill_declared(it, &declared, line)?),
                    "input_layer".into(),
                )],
            ))
        }
        _ => {
            let id = match model {
                Value::Instance(i) => i.id,
                Value::Layer(l) => l.id,
                _ => 0,
            };
            let declared = it
                .declared
                .iter()
                .find(|(a, _)| *a == id)
                .map(|(_, d)| d.clone());
            let sample = match (&it.settings.input, declared) {
                (Some(given), _) => Some(given.clone()),
                (None, Some(d)) => d.into_iter().collect::<Option<Vec<i64>>>(),
                (None, None) => None,
            };
            let mut inputs = vec![(full(sample), "x".to_string())];
            // A forward of several tensors, called so in the paste (`G(x, c)`): those too,
            // named as `forward` names them.
            if let Some((_, more)) = it.more_inputs.iter().find(|(a, _)| *a == id) {
                let names: Vec<String> = match model {
                    Value::Instance(i) => it
                        .find_method(&i.class, "forward")
                        .map(|(f, _)| {
                            f.body
                                .params()
                                .iter()
                                .skip(1)
                                .map(|p| p.name.clone())
                                .collect()
                        })
                        .unwrap_or_default(),
                    _ => Vec::new(),
                };
                if let Some(first) = names.first() {
                    inputs[0].1 = first.clone();
                }
                for (k, s) in more.iter().enumerate() {
                    let name = names
                        .get(k + 1)
                        .cloned()
                        .unwrap_or_else(|| format!("x{}", k + 1));
                    inputs.push((full(Some(s.clone())), name));
                }
            }
            Ok((Framework::Torch, inputs))
        }
    }
}

/// The name of a Keras Sequential's input layer (its `Input`'s, or Keras's automatic one).
fn keras_input_name(it: &Interp, l: &Rc<super::value::Layer>) -> String {
    if let LayerKind::Sequential(c) = &l.kind
        && let Some((_, Value::Tensor(t))) = c.borrow().first()
        && let Some((_, _, n)) = it.keras_inputs.iter().find(|(e, _, _)| *e == t.edge)
    {
        return n.to_string();
    }
    "input_layer".into()
}

/// Traces `model` on fresh inputs and extracts the graph of that trace.
fn trace(
    it: &mut Interp,
    model: &Value,
    build: &str,
) -> Result<(Graph, Option<Vec<i64>>), ReadError> {
    let (framework, shapes) = input_shapes(it, model)?;
    let name = build.trim_end_matches("()").to_string();
    // A functional model's construction is its graph (Keras runs what lies between its inputs
    // and outputs): no replay needed when its inputs' shapes are those it was built with.
    if let Value::Layer(l) = model
        && let LayerKind::Functional { inputs, outputs } = &l.kind
        && inputs.iter().zip(&shapes).all(|(t, (s, _))| &t.shape == s)
    {
        let mut outs = Vec::new();
        output_edges(outputs, &mut outs);
        let indices = between(it, inputs, &outs);
        let graph = extract(it, &indices, &outs, framework, &name, model)?;
        let sample = shapes
            .first()
            .and_then(|(s, _)| s.as_ref())
            .map(|s| s[1..].to_vec());
        return Ok((graph, sample));
    }
    let start = it.graph.nodes.len();
    let site = Site {
        line: 0,
        text: Rc::from(build),
    };
    let mut inputs = Vec::new();
    for (shape, name) in &shapes {
        let t = super::torch::input_tensor(it, shape.clone(), framework, &site)?;
        if let Some(tr) = it.trace.last_mut() {
            tr.keras_path = Some(name.clone());
        }
        inputs.push(Value::Tensor(t));
    }
    // A torch forward of more tensors than padlab has sizes for: say where the others come from.
    if framework == Framework::Torch
        && let Value::Instance(i) = model
        && let Some((f, _)) = it.find_method(&i.class, "forward")
    {
        use super::ast::ParamKind;
        let needed: Vec<&str> = f
            .body
            .params()
            .iter()
            .skip(1)
            .filter(|p| {
                p.default.is_none()
                    && matches!(p.kind, ParamKind::Normal | ParamKind::PositionalOnly)
            })
            .map(|p| p.name.as_str())
            .collect();
        // A forward's other tensor that an nn.Embedding of the module reads
        // (`self.label_emb(labels)` in a conditional GAN): one class index per sample, said.
        if needed.len() > inputs.len()
            && let super::value::FunctionBody::Def(d) = &f.body
        {
            let text = match (d.body.first(), d.body.last()) {
                (Some(a), Some(b)) => it
                    .src
                    .get(a.start..super::eval::stmt_end(b))
                    .unwrap_or("")
                    .to_string(),
                _ => String::new(),
            };
            let missing: Vec<&str> = needed[inputs.len()..].to_vec();
            let first = needed.first().copied().unwrap_or("");
            for name in missing {
                // An image the forward concatenates with the first (a pix2pix discriminator's
                // `torch.cat((img_A, img_B), 1)`): the first's shape, said; a wrong size
                // fails at the layer that reads the concatenation, never silently.
                if concatenated_with(&text, first, name)
                    && let Some(Value::Tensor(x)) = inputs.first()
                {
                    let shape = x.shape.clone();
                    let t = super::torch::input_tensor(it, shape.clone(), framework, &site)?;
                    if let Some(tr) = it.trace.last_mut() {
                        tr.keras_path = Some(name.to_string());
                    }
                    inputs.push(Value::Tensor(t));
                    let sample: Vec<String> = shape
                        .unwrap_or_default()
                        .iter()
                        .skip(1)
                        .map(i64::to_string)
                        .collect();
                    it.assumed.push(format!(
                        "`{name}`: the shape of `{first}` ({}), as the forward concatenates the two: assumed, since the paste does not call the model",
                        sample.join("x")
                    ));
                    continue;
                }
                let Some(layer) = embedding_reading(i, &text, name) else {
                    break;
                };
                let t = super::torch::input_tensor(it, Some(vec![BATCH]), framework, &site)?;
                if let Some(tr) = it.trace.last_mut() {
                    tr.keras_path = Some(name.to_string());
                }
                inputs.push(Value::Tensor(Rc::new(super::value::Tensor {
                    edge: t.edge,
                    shape: t.shape.clone(),
                    framework,
                    integer: true,
                })));
                it.assumed.push(format!(
                    "`{name}`: one class index per sample (the batch alone), as the nn.Embedding `{layer}` reads it: assumed, since the paste does not call the model"
                ));
            }
        }
        if needed.len() > inputs.len() {
            let line = match &f.body {
                super::value::FunctionBody::Def(d) => d.line,
                super::value::FunctionBody::Lambda(_) => 0,
            };
            return Err(error(
                line,
                format!(
                    "the model's forward takes {} tensors ({}): the input shape gives the first; call the model once in the paste on example tensors, e.g. `{}({})` with torch.randn(1, ...) for each",
                    needed.len(),
                    needed.join(", "),
                    build.trim_end_matches("()"),
                    needed.join(", "),
                ),
            ));
        }
    }
    // Keras takes several inputs as one list, torch as positional arguments.
    let args = if inputs.len() == 1 || framework == Framework::Torch {
        inputs.clone()
    } else {
        vec![Value::list(inputs.clone())]
    };
    it.keras_tracing += usize::from(framework == Framework::Keras);
    let out = it.call(model.clone(), args, vec![], &site);
    it.keras_tracing = it.keras_tracing.saturating_sub(1);
    let out = out?;
    let mut outs = Vec::new();
    output_edges(&out, &mut outs);
    if outs.is_empty() {
        return Err(error(
            0,
            format!(
                "`{build}` returned {} from its input, not a tensor",
                out.type_name()
            ),
        ));
    }
    let indices: Vec<usize> = (start..it.graph.nodes.len()).collect();
    let graph = extract(it, &indices, &outs, framework, &name, model)?;
    let sample = shapes
        .first()
        .and_then(|(s, _)| s.as_ref())
        .map(|s| s[1..].to_vec());
    Ok((graph, sample))
}

/// The attribute of `module` that is an `nn.Embedding` called on `name` in `forward`'s text
/// (`self.label_emb(labels)`).
/// Whether the forward's text concatenates the tensors `first` and `name` in one `cat(...)`
/// (`torch.cat((img_A, img_B), 1)`).
fn concatenated_with(forward: &str, first: &str, name: &str) -> bool {
    let word = |text: &str, w: &str| {
        text.match_indices(w).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + w.len()..].chars().next();
            let ident =
                |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
            !ident(before) && !ident(after)
        })
    };
    // A tensor the forward reassigns first (`c = c.view(...)`) is not the one concatenated.
    let reassigned = |n: &str| {
        forward.lines().any(|l| {
            l.trim_start()
                .strip_prefix(n)
                .map(str::trim_start)
                .is_some_and(|r| r.starts_with('=') && !r.starts_with("=="))
        })
    };
    !first.is_empty()
        && !reassigned(first)
        && !reassigned(name)
        && forward.match_indices("cat(").any(|(at, _)| {
            let rest = &forward[at + 4..];
            // The call's arguments: up to its closing parenthesis.
            let mut depth = 1usize;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '(' | '[' => depth += 1,
                        ')' | ']' => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    depth == 0
                })
                .map_or(rest.len(), |(i, _)| i);
            let args = &rest[..end];
            word(args, first) && word(args, name)
        })
}

fn embedding_reading(module: &super::value::Instance, forward: &str, name: &str) -> Option<String> {
    let attrs = module.attrs.borrow();
    attrs.entries.iter().find_map(|(k, v)| {
        let Value::Layer(l) = v else { return None };
        if l.class.as_ref() != "Embedding" {
            return None;
        }
        let attr = k.to_string();
        let call = format!("self.{attr}(");
        forward.match_indices(&call).find_map(|(at, _)| {
            let rest = forward.get(at + call.len()..)?.trim_start();
            let arg = rest.strip_prefix(name)?;
            arg.trim_start()
                .starts_with([')', ','])
                .then(|| attr.clone())
        })
    })
}

/// The nodes `indices` (in order), renumbered from zero, named as the source names them; the
/// recorder's nodes are moved out (the reading is done with them).
fn extract(
    it: &mut Interp,
    indices: &[usize],
    outs: &[Rc<Tensor>],
    framework: Framework,
    name: &str,
    model: &Value,
) -> Result<Graph, ReadError> {
    // A `torch.zeros` state made in the forward and taken by a recurrent layer as its initial
    // state (the default one) is read by no node: not an input of the model.
    let indices: Vec<usize> = indices
        .iter()
        .copied()
        .filter(|&i| !absorbed_zeros(it, i, indices, outs))
        .collect();
    let indices = indices.as_slice();
    let mut g = Graph::new(framework, name);
    let torch_paths = if framework == Framework::Torch {
        module_paths(model)
    } else {
        HashMap::new()
    };
    let root_name: Option<String> = match model {
        Value::Layer(l) => l.name.as_deref().map(str::to_string),
        Value::Instance(i) => i.name.borrow().as_deref().map(str::to_string),
        _ => None,
    };
    let new_id: HashMap<usize, NodeId> = indices
        .iter()
        .enumerate()
        .map(|(k, &i)| (i, NodeId(k)))
        .collect();
    let mut used_names: HashMap<String, usize> = HashMap::new();
    let mut first_use: HashMap<usize, NodeId> = HashMap::new();
    let mut nodes = std::mem::take(&mut it.graph.nodes);
    for (k, &i) in indices.iter().enumerate() {
        let outside = nodes[i]
            .inputs
            .iter()
            .find(|e| !new_id.contains_key(&e.node.0))
            .map(|e| e.node.0);
        if let Some(o) = outside {
            let made = &nodes[o];
            return Err(error(
                made.source.line,
                format!(
                    "the model reads a tensor made outside it ({}): padlab traces what the model computes from its input",
                    super::eval::short(&made.source.text)
                ),
            ));
        }
        let mut node = std::mem::replace(&mut nodes[i], placeholder());
        for e in &mut node.inputs {
            e.node = new_id[&e.node.0];
        }
        // A module's parameter by its path in the model, as torch's named_parameters() has it.
        if let Op::Learned {
            weight: weight @ crate::model::op::WeightAt::Owner(..),
            ..
        } = &mut node.op
            && let crate::model::op::WeightAt::Owner(owner, attr) = weight.clone()
            && let Some(path) = torch_paths.get(&owner)
        {
            *weight = crate::model::op::WeightAt::Param(if path.is_empty() {
                attr
            } else {
                format!("{path}.{attr}")
            });
        }
        let tr = &it.trace[i];
        // A layer used twice shares the weights of its first use here (a use while the model
        // was being built is not part of the graph).
        node.shares = None;
        if let Some(l) = &tr.layer {
            match first_use.get(&l.id) {
                Some(&first) => node.shares = Some(first),
                None => {
                    first_use.insert(l.id, NodeId(k));
                }
            }
        }
        let base = if framework == Framework::Keras {
            let path = tr.keras_path.clone().unwrap_or_else(|| node.kind.clone());
            match &root_name {
                Some(r) => path
                    .strip_prefix(&format!("{r}/"))
                    .map(str::to_string)
                    .unwrap_or(path),
                None => path,
            }
        } else if matches!(node.op, Op::Input) {
            "x".to_string()
        } else {
            torch_name(tr, &torch_paths, &node.kind)
        };
        let n = used_names.entry(base.clone()).or_insert(0);
        node.name = if *n == 0 || tr.layer.is_some() {
            base.clone()
        } else {
            format!("{base}_{n}")
        };
        *n += 1;
        g.nodes.push(node);
    }
    g.outputs = outs
        .iter()
        .filter_map(|t| {
            new_id.get(&t.edge.node.0).map(|&n| Edge {
                node: n,
                output: t.edge.output,
            })
        })
        .collect();
    g.check().map_err(|m| error(0, m.to_string()))?;
    Ok(g)
}

/// Whether node `i` is a `torch.zeros` tensor no node among `indices` reads and no output is.
fn absorbed_zeros(it: &Interp, i: usize, indices: &[usize], outs: &[Rc<Tensor>]) -> bool {
    let made_by_zeros = matches!(it.graph.nodes.get(i).map(|n| &n.op), Some(Op::Input))
        && it
            .trace
            .get(i)
            .and_then(|t| t.function.as_deref())
            .is_some_and(|f| f == "zeros");
    made_by_zeros
        && !outs.iter().any(|t| t.edge.node.0 == i)
        && !indices.iter().any(|&k| {
            it.graph
                .nodes
                .get(k)
                .is_some_and(|n| n.inputs.iter().any(|e| e.node.0 == i))
        })
}

/// What is left in the recorder where a node was moved out.
fn placeholder() -> crate::model::graph::Node {
    crate::model::graph::Node {
        op: Op::Identity,
        inputs: Vec::new(),
        name: String::new(),
        kind: String::new(),
        source: Default::default(),
        shares: None,
        inferred: Default::default(),
    }
}

/// The nodes a functional model runs: those between its inputs and its outputs, in the order
/// they were made (its inputs included).
fn between(it: &Interp, inputs: &[Rc<Tensor>], outs: &[Rc<Tensor>]) -> Vec<usize> {
    let stop: std::collections::HashSet<usize> = inputs.iter().map(|t| t.edge.node.0).collect();
    let mut seen: std::collections::BTreeSet<usize> = stop.iter().copied().collect();
    let mut stack: Vec<usize> = outs.iter().map(|t| t.edge.node.0).collect();
    while let Some(n) = stack.pop() {
        if !seen.insert(n) || stop.contains(&n) {
            continue;
        }
        if let Some(node) = it.graph.nodes.get(n) {
            stack.extend(node.inputs.iter().map(|e| e.node.0));
        }
    }
    seen.into_iter().collect()
}

/// A torch node's name: its module's path, or the innermost module's path and the function.
fn torch_name(tr: &super::eval::NodeTrace, paths: &HashMap<usize, String>, kind: &str) -> String {
    if let Some(l) = &tr.layer
        && let Some(p) = paths.get(&l.id)
    {
        return p.clone();
    }
    if let Some(p) = tr.owner.and_then(|id| paths.get(&id)) {
        return p.clone();
    }
    let function = tr.function.as_deref().unwrap_or(kind);
    let scope = tr
        .scope
        .iter()
        .rev()
        .find_map(|id| paths.get(id))
        .filter(|p| !p.is_empty());
    match (scope, &tr.layer) {
        (Some(s), None) => format!("{s}.{function}"),
        (None, None) => function.to_string(),
        (_, Some(l)) => format!("<{}: not a registered submodule>", l.class),
    }
}

/// Every module's path under the root (torch's `named_modules()`: first path wins).
fn module_paths(root: &Value) -> HashMap<usize, String> {
    let mut out = HashMap::new();
    fn walk(v: &Value, prefix: &str, out: &mut HashMap<usize, String>, depth: usize) {
        if depth > 200 {
            return;
        }
        if let Value::Instance(i) = v
            && let Some(b) = i.base_layer.borrow().as_ref()
        {
            out.entry(b.id).or_insert_with(|| prefix.to_string());
        }
        for (name, child) in super::layers::module_children(v) {
            let Some(id) = id_of(&child) else { continue };
            if out.contains_key(&id) {
                continue;
            }
            let path = if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}.{name}")
            };
            out.insert(id, path.clone());
            walk(&child, &path, out, depth + 1);
        }
    }
    if let Some(id) = id_of(root) {
        out.insert(id, String::new());
    }
    walk(root, "", &mut out, 0);
    out
}

/// Definitions for the undefined names the input shape stands for: `img_size = (32, 32, 3)`,
/// `seq_length = 100`, `x_train = np.zeros((1, 28, 28, 1))`.
fn define_holes(it: &Interp, input: Option<&[i64]>) -> Vec<(String, String)> {
    let Some(input) = input else {
        return Vec::new();
    };
    let mut out: Vec<(String, String)> = Vec::new();
    // Per root name: the sizes of the array it stands for, by axis.
    let mut arrays: Vec<(String, Vec<Option<i64>>)> = Vec::new();
    for (h, k) in &it.holes {
        let whole = *k == usize::MAX;
        match (&**h, whole) {
            (Hole::Name(n), true) => out.push((
                n.clone(),
                format!(
                    "{n} = ({},)  # one sample's input shape, from --input",
                    input
                        .iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
            (Hole::Name(n), false) => {
                if let Some(&v) = input.get(*k) {
                    out.push((
                        n.clone(),
                        format!("{n} = {v}  # a size of the input, from --input"),
                    ));
                }
            }
            (Hole::From(inner, from), true) => {
                if let Hole::Attr(root, attr) = &**inner
                    && attr == "shape"
                    && let Hole::Name(n) = &**root
                {
                    let from = usize::try_from(*from).unwrap_or(1);
                    let mut dims = vec![Some(1); from];
                    dims.extend(input.iter().map(|&d| Some(d)));
                    arrays.push((n.clone(), dims));
                }
            }
            (Hole::Index(inner, j), false) => {
                if let Hole::Attr(root, attr) = &**inner
                    && attr == "shape"
                    && let Hole::Name(n) = &**root
                    && let (Ok(j), Some(&v)) = (usize::try_from(*j), input.get(*k))
                {
                    match arrays.iter_mut().find(|(m, _)| m == n) {
                        Some((_, dims)) => {
                            if dims.len() <= j {
                                dims.resize(j + 1, None);
                            }
                            dims[j] = Some(v);
                        }
                        None => {
                            let mut dims = vec![None; j + 1];
                            dims[j] = Some(v);
                            arrays.push((n.clone(), dims));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    for (n, dims) in arrays {
        let sizes: Vec<String> = dims.iter().map(|d| d.unwrap_or(1).to_string()).collect();
        out.push((n.clone(), format!("{n} = np.zeros(({},), np.float32)  # stands for the paste's data: its shape is what the model reads, from --input", sizes.join(", "))));
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|(n, _)| seen.insert(n.clone()));
    out
}

/// One layer call typed into the single-layer form (`nn.Conv2d(32, 32, (4, 1), padding=(1,
/// 0))`, `layers.Conv2D(64, 3, strides=2, padding="same")`): its spec, the input size left
/// empty.
pub fn read_layer(text: &str) -> Result<crate::core::LayerSpec, ReadError> {
    let body = super::parser::parse(text).map_err(|e| error(e.line, e.message))?;
    let [stmt] = body.as_slice() else {
        return Err(error(
            0,
            format!(
                "Paste one convolution or pooling call (this holds {} statements; the Model view takes whole models).",
                body.len()
            ),
        ));
    };
    let expr = match &stmt.kind {
        StmtKind::Expr(e) => e,
        StmtKind::Assign { value, .. } => value,
        _ => return Err(error(stmt.line, "Paste one convolution or pooling call.")),
    };
    let mut it = Interp::new(text, Settings::default());
    let v = it.eval(expr, None).map_err(ReadError::from)?;
    let Value::Layer(l) = v else {
        return Err(error(
            stmt.line,
            format!("This is {}, not a layer call.", v.type_name()),
        ));
    };
    match &l.kind {
        LayerKind::Op(Op::Conv(c)) => Ok(c.spec.clone()),
        LayerKind::Op(Op::Pool(spec)) => Ok(spec.clone()),
        _ => Err(error(
            stmt.line,
            format!(
                "{} has no padding to show: paste a convolution, transposed convolution or pooling call.",
                l.class
            ),
        )),
    }
}

/// A class's constructor as `Name(a, b, c=...)`: its `__init__` parameters after `self`.
fn signature(body: &[super::ast::Stmt], class: &str) -> Option<String> {
    let c = body.iter().find_map(|s| match &s.kind {
        StmtKind::ClassDef(c) if c.name == class => Some(c.clone()),
        _ => None,
    })?;
    let init = c.body.iter().find_map(|s| match &s.kind {
        StmtKind::FunctionDef(f) if f.name == "__init__" => Some(f.clone()),
        _ => None,
    })?;
    let params: Vec<String> = init
        .params
        .iter()
        .skip(1)
        .filter(|p| {
            !matches!(
                p.kind,
                super::ast::ParamKind::VarArgs | super::ast::ParamKind::VarKeywords
            )
        })
        .map(|p| {
            if p.default.is_some() {
                format!("{}=...", p.name)
            } else {
                p.name.clone()
            }
        })
        .collect();
    Some(format!("{class}({})", params.join(", ")))
}

/// Models the paste's zero-argument functions (`test()`, `main()`, a demo) build and run on a
/// tensor they make: each with how it is built (its constructor as written, when that is
/// evaluable by itself) and the sample shape it is run on.
fn from_functions(src: &str, body: &[super::ast::Stmt], settings: &Settings) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    for s in body.iter().take(200) {
        let StmtKind::FunctionDef(f) = &s.kind else {
            continue;
        };
        if f.params.iter().any(|p| {
            p.default.is_none()
                && matches!(
                    p.kind,
                    super::ast::ParamKind::Normal | super::ast::ParamKind::PositionalOnly
                )
        }) {
            continue;
        }
        let mut it = Interp::new(src, settings.clone());
        it.run_module(body);
        let call = format!("{}()", f.name);
        let Ok(mut e) = super::parser::parse_expression(&call) else {
            continue;
        };
        let paste = it.src.clone();
        super::ast::shift(&mut e, paste.len() + 1);
        it.src = Rc::from(format!("{paste}\n{call}").as_str());
        let _ = it.eval(&e, None);
        for m in it.called.clone() {
            if !is_model(&m) {
                continue;
            }
            let text = match &m {
                Value::Instance(i) => i.text.borrow().to_string(),
                Value::Layer(l) => l.text.to_string(),
                _ => continue,
            };
            let sample = it
                .declared
                .iter()
                .find(|(id, _)| Some(*id) == id_of(&m))
                .and_then(|(_, d)| d.iter().copied().collect::<Option<Vec<i64>>>());
            // The constructor as written must build the model from the module alone (not
            // from the function's local names); a factory's inner constructor does not, so
            // the function's own `net = Factory(...)` lines are tried next.
            let class = class_name(&m);
            let tries = std::iter::once(text).chain(f.body.iter().filter_map(|s| match &s.kind {
                StmtKind::Assign { value, .. }
                    if matches!(value.kind, super::ast::ExprKind::Call { .. }) =>
                {
                    Some(super::value::text_of(src, value).to_string())
                }
                _ => None,
            }));
            let mut text = None;
            for t in tries {
                if t.is_empty() {
                    continue;
                }
                let mut check = Interp::new(src, settings.clone());
                check.run_module(body);
                if let Ok(v) = evaluate_build(&mut check, &t)
                    && class_name(&v) == class
                {
                    text = Some(t);
                    break;
                }
            }
            let Some(text) = text else { continue };
            if !out.iter().any(|c| c.build == text) {
                out.push(Candidate {
                    build: text,
                    value: Value::None,
                    input: sample,
                    line: usize::MAX,
                });
            }
        }
    }
    out
}
