//! The evaluator: runs the Python that model code is written in, deterministically and within
//! bounds, and records every framework operation it meets as a graph node.
//!
//! Python's semantics where model code relies on them: assignments (tuple unpacking,
//! augmented), arithmetic with Python's floor division and modulo, comparisons, `if`/`for`/
//! `while`, comprehensions, functions with positional, keyword, default, `*args`/`**kwargs`
//! parameters and closures, classes with `__init__`, attributes, methods and `super()`,
//! lists/tuples/dicts and their common methods, f-strings, `try`/`except` of what Python raises.
//! Framework callables live in [`super::torch`], [`super::keras`] and [`super::builtins`].
//!
//! *Invariants*: no input panics; every step is counted against a budget, every recursion
//! (expression nesting, calls) against one depth limit, every collection against a size limit,
//! the graph against a node limit; what the evaluator cannot do is a [`Failure`] naming the
//! line and the construct, never a guess and never a silent skip.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::core::Framework;
use crate::model::graph::{Edge, Graph, Node, NodeId, Source};
use crate::model::op::Op;
use crate::model::shape;

use super::ast::{
    Arg, BinOp, CmpOp, CompKind, Expr, ExprKind, FPart, Generator, ParamKind, Star, Stmt, StmtKind,
    UnaryOp,
};
use super::value::{
    Args, Class, Dict, FrameworkBase, Function, FunctionBody, Hole, Instance, Key, Layer, Tensor,
    Value,
};

/// The most steps (statements and expressions evaluated) one reading may take.
pub const MAX_STEPS: u64 = 20_000_000;
/// How deep expressions and calls may nest together (Python's own limit is 1000 frames).
pub const MAX_DEPTH: usize = 400;
/// How much of the stack the evaluation may use: half the worker's (1 MiB, wasm's default).
/// Frames differ in size (a container calling its children takes about 3 KB a level natively),
/// so the depth alone cannot keep a paste's recursion within the stack. A debug build's frames
/// are several times larger: it may use three times as much (its tests' threads have 2 MiB, or
/// the 8 MiB `tests/common/stack.rs` gives them), so a model that reads in release reads there.
pub const MAX_STACK: usize = if cfg!(debug_assertions) {
    1536 * 1024
} else {
    512 * 1024
};

/// The address of a local: the stack grows down from where evaluation began, natively and
/// in wasm (whose shadow stack holds the locals whose address is taken).
#[inline(never)]
fn stack_position() -> usize {
    let here = 0u8;
    std::hint::black_box(std::ptr::addr_of!(here)) as usize
}

/// How many attributes and items of an undefined name padlab follows (`x_train.shape[1:]`
/// is three); past it, using the name is its NameError.
pub const MAX_HOLE: usize = 16;
/// The most elements a list, tuple, dict or string may hold.
pub const MAX_ITEMS: usize = 1_000_000;
/// The most graph nodes one reading may record.
pub const MAX_NODES: usize = 200_000;

/// Why evaluation stopped: the line and what happened there.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub line: usize,
    pub message: String,
    pub kind: FailKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailKind {
    /// What Python itself would raise (its exception's name): a `try` can catch it.
    Python(String),
    /// A bound of the evaluator (steps, depth, sizes, nodes).
    Limit,
    /// Valid Python padlab does not evaluate, or a framework call it does not know.
    Unsupported,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

pub type Ev<T> = Result<T, Failure>;

/// A call's keyword arguments, in order.
pub type Keywords = Vec<(Rc<str>, Value)>;

/// A function's local scope and the scopes around it.
pub struct Scope {
    pub vars: HashMap<Rc<str>, Value>,
    pub parent: Option<ScopeRef>,
    /// Names declared `global` here.
    pub globals: Vec<Rc<str>>,
}

pub type ScopeRef = Rc<RefCell<Scope>>;

/// What a statement does to the flow.
enum Flow {
    Next,
    Return(Value),
    Break,
    Continue,
}

/// Where a call is written: its line and its text.
#[derive(Clone)]
pub struct Site {
    pub line: usize,
    pub text: Rc<str>,
}

/// A top-level statement and how its evaluation went.
#[derive(Clone, Debug, PartialEq)]
pub struct TopLevel {
    pub line: usize,
    pub start: usize,
    pub end: usize,
    /// Why it did not run (its names are poisoned), if it failed.
    pub failed: Option<Failure>,
    /// It trains, saves, loads, downloads or plots: left out of the check script.
    pub effect: bool,
    /// For an import: the names it binds and the module it imports.
    pub import: Option<(Vec<String>, String)>,
    /// The global names it read and those it binds (a statement that reads a name only a
    /// statement left out of the check binds is left out too).
    pub reads: Vec<String>,
    pub binds: Vec<String>,
}

/// The settings of one reading.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// One sample's input shape in the source's layout, when given (`--input`).
    pub input: Option<Vec<i64>>,
}

/// The batch size tensors are traced with (the table drops it).
pub const BATCH: i64 = 2;

/// The interpreter's state.
pub struct Interp {
    /// The source the expressions' byte ranges point into.
    pub src: Rc<str>,
    pub globals: HashMap<Rc<str>, Value>,
    pub graph: Graph,
    /// For each recorded node: the module call stack when it was recorded (ids), the layer
    /// it applied, and the function name of a functional op.
    pub trace: Vec<NodeTrace>,
    steps: u64,
    depth: usize,
    /// Where the stack stood when evaluation began (see [`stack_position`]).
    stack_base: usize,
    next_id: usize,
    /// The framework the paste is written for, when the imports or names say.
    pub framework: Option<Framework>,
    /// Keras' automatic names: how many of each prefix were given.
    pub keras_names: HashMap<String, usize>,
    /// The module (torch) or layer (Keras) calls being evaluated, innermost last.
    pub call_stack: Vec<Value>,
    pub settings: Settings,
    pub top: Vec<TopLevel>,
    /// Whether the statement being evaluated at top level did something with effects.
    pub effect: bool,
    /// Undefined names used as (part of) the input shape: their uses.
    pub holes: Vec<(Rc<Hole>, usize)>,
    /// The line of the top-level statement being evaluated.
    pub line: usize,
    /// Keras `Input`s made so far: their tensor's edge, declared shape and name.
    pub keras_inputs: Vec<(Edge, super::keras::Declared, Rc<str>)>,
    /// Input shapes the paste gives a model (`model.build(...)`, a call on a tensor it made,
    /// `summary(model, (3, 224, 224))`), by the model's object id.
    pub declared: Vec<(usize, super::keras::Declared)>,
    /// Above zero while a Keras model is traced eagerly (its `call` on real tensors).
    pub keras_tracing: usize,
    /// Names the paste uses without importing them, with the import that gives each.
    pub imported: Vec<(String, String)>,
    /// Global names the evaluation read (an import nothing read is left out of the check).
    pub used: std::collections::HashSet<String>,
    /// `used` in the order first read (what a statement left out of the check read is taken
    /// back out).
    used_order: Vec<String>,
    /// The last call stack recorded under (nodes share it).
    scope_cache: Option<Rc<[usize]>>,
    /// Models called outside any model on a tensor the paste made (`net(torch.randn(...))`).
    pub called: Vec<Value>,
    /// A torch module called at the top level on several tensors (`model(x, c)`): the sample
    /// shapes of the tensors after the first, by the module's id.
    pub more_inputs: Vec<(usize, Vec<Vec<i64>>)>,
    /// What the trace assumed where the paste does not say (each becomes a note).
    pub assumed: Vec<String>,
    /// Inside `eval(text)`: a name nothing defines is Python's NameError (code catches it to
    /// keep the text as a string), not a name the check script defines.
    in_eval: usize,
    /// While a model zoo's code runs: which zoo, and the paste's line that reached it.
    pub zoo_at: Option<super::zoo::ZooAt>,
    /// The paste's source while zoo code runs (`src` then holds the zoo's).
    paste_src: Rc<str>,
    /// The zoos' namespaces evaluated so far.
    pub zoos: Vec<(super::zoo::Zoo, ScopeRef)>,
    /// The zoo models the paste built (each becomes a note).
    pub zoo_calls: Vec<super::zoo::ZooCall>,
    /// Keras containers called on tensors (nested models, Sequentials, Lambdas), by id: what
    /// a functional model's `layers` lists for the operations recorded inside them.
    pub containers: HashMap<usize, Rc<Layer>>,
    /// The global names the top-level statement being run has read.
    reads_now: std::collections::HashSet<String>,
}

/// What the recorder knows about a node beyond the graph.
#[derive(Clone, Default)]
pub struct NodeTrace {
    /// Module/layer ids of the calls enclosing it, outermost first.
    pub scope: Rc<[usize]>,
    /// The layer it applied (a torch module or Keras layer).
    pub layer: Option<Rc<Layer>>,
    /// A functional op's name (`cat`, `add`, `relu`).
    pub function: Option<Rc<str>>,
    /// Keras: the container path and layer name it was recorded under.
    pub keras_path: Option<String>,
    /// The module whose own parameters it uses (`F.layer_norm(x, s, self.weight, self.bias)`
    /// in a custom module): the node is named by that module's path, where the self-check
    /// finds them.
    pub owner: Option<usize>,
}

fn fail(line: usize, kind: FailKind, message: impl Into<String>) -> Failure {
    Failure {
        line,
        message: message.into(),
        kind,
    }
}

/// A Python exception at `line`.
pub fn raise(line: usize, exception: &str, message: impl Into<String>) -> Failure {
    let message = message.into();
    fail(
        line,
        FailKind::Python(exception.to_string()),
        format!("{exception}: {message}"),
    )
}

/// Python's `AttributeError` for an object of type `type_name` without `name`.
pub fn no_attribute(line: usize, type_name: &str, name: &str) -> Failure {
    raise(
        line,
        "AttributeError",
        format!("'{type_name}' object has no attribute '{name}'"),
    )
}

/// Using a name the paste never defines: Python's `NameError`, or, for a name a failed
/// top-level statement would have bound, that statement's failure.
pub fn undefined(h: &Hole, line: usize) -> Failure {
    let mut root = h;
    while let Hole::Attr(inner, _) | Hole::Index(inner, _) | Hole::From(inner, _) = root {
        root = inner;
    }
    match root {
        Hole::Failed(name, f) => Failure {
            line,
            message: format!(
                "`{name}` comes from line {}, which padlab did not run: {}",
                f.line, f.message
            ),
            kind: f.kind.clone(),
        },
        _ => raise(
            line,
            "NameError",
            format!("name '{}' is not defined", h.root()),
        ),
    }
}

/// Something padlab does not evaluate, at `line`.
pub fn unsupported(line: usize, message: impl Into<String>) -> Failure {
    fail(line, FailKind::Unsupported, message)
}

impl Interp {
    pub fn new(src: &str, settings: Settings) -> Self {
        Interp {
            src: Rc::from(src),
            globals: HashMap::new(),
            graph: Graph::new(Framework::Torch, ""),
            trace: Vec::new(),
            steps: 0,
            depth: 0,
            stack_base: stack_position(),
            next_id: 1,
            framework: None,
            keras_names: HashMap::new(),
            call_stack: Vec::new(),
            settings,
            top: Vec::new(),
            effect: false,
            holes: Vec::new(),
            line: 0,
            keras_inputs: Vec::new(),
            declared: Vec::new(),
            keras_tracing: 0,
            imported: Vec::new(),
            used: std::collections::HashSet::new(),
            used_order: Vec::new(),
            scope_cache: None,
            called: Vec::new(),
            more_inputs: Vec::new(),
            assumed: Vec::new(),
            in_eval: 0,
            zoo_at: None,
            paste_src: Rc::from(src),
            zoos: Vec::new(),
            zoo_calls: Vec::new(),
            containers: HashMap::new(),
            reads_now: std::collections::HashSet::new(),
        }
    }

    /// The zoo whose code is running (`None`: the paste's).
    pub fn current_zoo(&self) -> Option<super::zoo::Zoo> {
        self.zoo_at.as_ref().map(|z| z.zoo)
    }

    /// The paste's line for a line of the code running: a zoo's lines are the paste's line
    /// that reached the zoo (rows and errors never name a line of the embedded source).
    pub fn paste_line(&self, line: usize) -> usize {
        if line >= super::zoo::LINE {
            self.zoo_at.as_ref().map_or(0, |z| z.line)
        } else {
            line
        }
    }

    /// A call's site as the rows and errors name it.
    pub fn site(&self, e: &Expr) -> Site {
        Site {
            line: self.paste_line(e.line),
            text: self.text(e),
        }
    }

    /// Runs `f` as code of `zoo` (`None`: the paste's), reached from the paste's `line`:
    /// its source is the one expressions are quoted from, and a failure leaving a zoo for
    /// the paste names the paste's line and says where in the zoo (`what`) it happened.
    pub fn in_origin<T>(
        &mut self,
        zoo: Option<super::zoo::Zoo>,
        line: usize,
        what: &str,
        f: impl FnOnce(&mut Interp) -> Ev<T>,
    ) -> Ev<T> {
        if zoo == self.current_zoo() {
            return f(self);
        }
        let saved_src = self.src.clone();
        let saved_at = self.zoo_at.take();
        let effect = self.effect;
        match zoo {
            Some(z) => {
                if saved_at.is_none() {
                    self.paste_src = saved_src.clone();
                }
                self.src = z.source_text();
                self.zoo_at = Some(super::zoo::ZooAt { zoo: z, line });
            }
            None => self.src = self.paste_src.clone(),
        }
        let r = f(self);
        self.src = saved_src;
        self.zoo_at = saved_at;
        if zoo.is_some() && self.zoo_at.is_none() {
            // Zoo code has no side effects of the paste's (training, saving...).
            self.effect = effect;
            return r.map_err(|e| super::zoo::located(e, line, what));
        }
        r
    }

    /// Runs a zoo module's top-level statements in its namespace.
    pub(super) fn exec_in(&mut self, body: &[Stmt], scope: &ScopeRef) -> Ev<()> {
        for s in body {
            match self.exec(s, Some(scope))? {
                Flow::Next => {}
                _ => {
                    return Err(unsupported(
                        s.line,
                        "'return', 'break' or 'continue' outside a function or loop",
                    ));
                }
            }
        }
        Ok(())
    }

    /// A fresh object id.
    pub fn id(&mut self) -> usize {
        self.next_id += 1;
        self.next_id
    }

    /// Counts one step; fails past the budget.
    pub fn step(&mut self, line: usize) -> Ev<()> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(fail(
                line,
                FailKind::Limit,
                format!(
                    "the paste runs more than {MAX_STEPS} steps: padlab stops there (a loop that does not end, or a model too large to trace)"
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn enter(&mut self, line: usize) -> Ev<()> {
        self.depth += 1;
        let used = self.stack_base.saturating_sub(stack_position());
        if self.depth > MAX_DEPTH || used > MAX_STACK {
            return Err(raise(
                line,
                "RecursionError",
                "maximum recursion depth exceeded",
            ));
        }
        Ok(())
    }

    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The text of `e` as written.
    pub fn text(&self, e: &Expr) -> Rc<str> {
        Rc::from(self.src.get(e.start..e.end).unwrap_or(""))
    }

    // ---- Statements ----

    /// Runs the module's statements; a failing statement poisons the names it would bind
    /// and the next one runs.
    pub fn run_module(&mut self, body: &[Stmt]) {
        for s in body {
            self.line = s.line;
            self.effect = false;
            self.reads_now.clear();
            let read_before = self.used_order.len();
            let result = self.exec(s, None);
            let failed = match result {
                Ok(Flow::Next) => None,
                Ok(_) => Some(unsupported(
                    s.line,
                    "'return', 'break' or 'continue' outside a function or loop",
                )),
                Err(f) => Some(f),
            };
            if self.effect && failed.is_none() {
                // A model built by a function that also compiles (or saves, or summarises) it
                // is kept, and so is a step of a functional model (`x = tnet(inputs, 3)`, whose
                // helper makes a constant on the way): the check script builds the source from
                // them.
                let mut names = Vec::new();
                bound_names(s, &mut names);
                if names.iter().any(|n| {
                    matches!(
                        self.globals.get(n.as_str()),
                        Some(Value::Layer(_) | Value::Instance(_) | Value::Tensor(_))
                    )
                }) {
                    self.effect = false;
                }
            }
            // `model = train_model(model, criterion, ...)`: a function given the model whose
            // result is assigned back trains it (the tutorials' loops over data padlab does
            // not run); the model stays what it was, and a note says so.
            let kept = failed
                .as_ref()
                .filter(|f| f.kind != FailKind::Limit)
                .and_then(|f| self.trained_in_place(s, f));
            if let Some(note) = kept {
                self.assumed.push(note);
            } else if let Some(f) = &failed {
                // Its names stand for what it would have made: an error where the model uses
                // them, or (for loaded data) the input shape they give.
                let f = Rc::new(f.clone());
                let mut names = Vec::new();
                bound_names(s, &mut names);
                // What it would have changed in place (`model.add(LSTM(100))`, `net.fc = ...`,
                // `blocks.append(...)`) is not what the rest of the paste reads either: a
                // model or collection it reaches into fails where it is used, never a model
                // with a layer silently missing.
                let mut changed = Vec::new();
                mutated_names(s, &mut changed);
                names.extend(changed.into_iter().filter(|n| {
                    matches!(
                        self.globals.get(n.as_str()),
                        Some(
                            Value::Instance(_)
                                | Value::Layer(_)
                                | Value::List(_)
                                | Value::Dict(_)
                                | Value::Set(_)
                        )
                    )
                }));
                for n in names {
                    let hole = Value::Hole(Rc::new(Hole::Failed(n.clone(), f.clone())));
                    self.globals.insert(Rc::from(n.as_str()), hole);
                }
            } else if self.effect {
                // Loaded data (`x_train = load_data()`): a name whose shape the input gives.
                let mut names = Vec::new();
                bound_names(s, &mut names);
                for n in names {
                    if matches!(self.globals.get(n.as_str()), Some(Value::Opaque(_))) {
                        let f = Rc::new(unsupported(
                            s.line,
                            "it loads or computes data padlab does not run",
                        ));
                        let hole = Value::Hole(Rc::new(Hole::Failed(n.clone(), f)));
                        self.globals.insert(Rc::from(n.as_str()), hole);
                    }
                }
            }
            let import = match &s.kind {
                StmtKind::Import(items) => items.first().map(|(path, _)| path.join(".")),
                StmtKind::ImportFrom { module, .. } => Some(module.join(".")),
                _ => None,
            }
            .map(|module| {
                let mut names = Vec::new();
                bound_names(s, &mut names);
                (names, module)
            });
            // A statement the check script leaves out (it failed, or trains, saves, prints a
            // summary...) needs no import: what it alone read is not counted as read.
            if failed.is_some() || self.effect {
                for n in self.used_order.drain(read_before..) {
                    self.used.remove(&n);
                }
            }
            let mut binds = Vec::new();
            bound_names(s, &mut binds);
            let mut reads: Vec<String> = self.reads_now.drain().collect();
            reads.sort();
            self.top.push(TopLevel {
                line: s.line,
                start: s.start,
                end: stmt_end(s),
                failed,
                effect: self.effect,
                import,
                reads,
                binds,
            });
        }
    }

    /// For a failed `name = f(..., name, ...)` whose `name` holds a model, the note that
    /// keeps that model (the statement is left out of the check like any failed one).
    fn trained_in_place(&self, s: &Stmt, f: &Failure) -> Option<String> {
        let StmtKind::Assign { targets, value } = &s.kind else {
            return None;
        };
        let [target] = targets.as_slice() else {
            return None;
        };
        let (ExprKind::Name(name), ExprKind::Call(func, args)) = (&target.kind, &value.kind) else {
            return None;
        };
        let passed = args.iter().any(|a| {
            a.star == Star::None && matches!(&a.value.kind, ExprKind::Name(n) if n == name)
        });
        let model = match self.globals.get(name.as_str()) {
            Some(Value::Instance(i)) => i.class.framework.is_some(),
            Some(Value::Layer(l)) => matches!(
                l.kind,
                super::value::LayerKind::Sequential(_) | super::value::LayerKind::Functional { .. }
            ),
            _ => false,
        };
        if !passed || !model || !matches!(func.kind, ExprKind::Name(_) | ExprKind::Attr(..)) {
            return None;
        }
        Some(format!(
            "line {}: `{}` did not run in padlab ({}); a function given `{name}` and assigning its result back trains it, so `{name}` is read as it was before that line",
            s.line,
            short(&self.text(value)),
            f.message
        ))
    }

    fn exec_block(&mut self, body: &[Stmt], scope: Option<&ScopeRef>) -> Ev<Flow> {
        for s in body {
            match self.exec(s, scope)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    fn exec(&mut self, s: &Stmt, scope: Option<&ScopeRef>) -> Ev<Flow> {
        self.step(s.line)?;
        match &s.kind {
            StmtKind::Expr(e) => {
                self.eval(e, scope)?;
            }
            StmtKind::Assign { targets, value } => {
                let v = self.eval(value, scope)?;
                for t in targets {
                    self.assign(t, v.clone(), scope)?;
                }
            }
            StmtKind::AugAssign { target, op, value } => {
                let current = self.eval(target, scope)?;
                let rhs = self.eval(value, scope)?;
                let v = self.augmented(*op, current, rhs, target.line, target)?;
                self.assign(target, v, scope)?;
            }
            StmtKind::AnnAssign { target, value } => {
                if let Some(value) = value {
                    let v = self.eval(value, scope)?;
                    self.assign(target, v, scope)?;
                }
            }
            StmtKind::Pass => {}
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e, scope)?,
                    None => Value::None,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::Raise(e) => {
                let (name, message) = match e {
                    Some(e) => self.exception_of(e, scope)?,
                    None => ("RuntimeError".to_string(), "re-raised".to_string()),
                };
                return Err(raise(s.line, &name, message));
            }
            StmtKind::Global(names) => {
                if let Some(scope) = scope {
                    scope
                        .borrow_mut()
                        .globals
                        .extend(names.iter().map(|n| Rc::from(n.as_str())));
                }
            }
            StmtKind::Nonlocal(_) => {}
            StmtKind::Del(targets) => {
                for t in targets {
                    self.delete(t, scope)?;
                }
            }
            StmtKind::Assert(test, msg) => {
                let v = self.eval(test, scope)?;
                if !self.truthy(&v, test.line)? {
                    let message = match msg {
                        Some(m) => self.eval(m, scope)?.to_string(),
                        None => String::new(),
                    };
                    return Err(raise(s.line, "AssertionError", message));
                }
            }
            StmtKind::Import(items) => {
                for (path, alias) in items {
                    let (name, value) = match alias {
                        Some(a) => (a.clone(), super::builtins::module(&path.join("."))),
                        None => (path[0].clone(), super::builtins::module(&path[0])),
                    };
                    self.note_framework(&path.join("."));
                    self.bind(&name, value, scope);
                }
            }
            StmtKind::ImportFrom {
                module,
                level,
                names,
            } => {
                let path = module.join(".");
                self.note_framework(&path);
                if *level > 0 {
                    for (n, alias) in names {
                        let v = Value::opaque(format!(
                            "`{n}`, imported from {}{path}, which is not in the paste",
                            ".".repeat(*level)
                        ));
                        self.bind(alias.as_ref().unwrap_or(n), v, scope);
                    }
                } else if names.is_empty() {
                    for (n, v) in super::builtins::star_import(&path) {
                        self.bind(&n, v, scope);
                    }
                } else {
                    let m = super::builtins::module(&path);
                    for (n, alias) in names {
                        let v = self.getattr(&m, n, s.line)?;
                        self.bind(alias.as_ref().unwrap_or(n), v, scope);
                    }
                }
            }
            StmtKind::If { test, body, orelse } => {
                let v = self.eval(test, scope)?;
                let branch = if self.truthy(&v, test.line)? {
                    body
                } else {
                    orelse
                };
                return self.exec_block(branch, scope);
            }
            StmtKind::For {
                target,
                iter,
                body,
                orelse,
            } => {
                let it = self.eval(iter, scope)?;
                let items = self.iterate(&it, iter.line)?;
                for item in items {
                    self.step(s.line)?;
                    self.assign(target, item, scope)?;
                    match self.exec_block(body, scope)? {
                        Flow::Break => return Ok(Flow::Next),
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Next | Flow::Continue => {}
                    }
                }
                return self.exec_block(orelse, scope);
            }
            StmtKind::While { test, body, orelse } => {
                loop {
                    self.step(s.line)?;
                    let v = self.eval(test, scope)?;
                    if !self.truthy(&v, test.line)? {
                        break;
                    }
                    match self.exec_block(body, scope)? {
                        Flow::Break => return Ok(Flow::Next),
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Next | Flow::Continue => {}
                    }
                }
                return self.exec_block(orelse, scope);
            }
            StmtKind::Try {
                body,
                handlers,
                orelse,
                finalbody,
            } => {
                let result = self.exec_block(body, scope);
                let result = match result {
                    Err(f) if matches!(f.kind, FailKind::Python(_)) => {
                        let FailKind::Python(name) = &f.kind else {
                            unreachable!("matched above")
                        };
                        let mut caught = None;
                        for h in handlers {
                            if self.handler_matches(h.kind.as_ref(), name, scope)? {
                                if let Some(n) = &h.name {
                                    self.bind(n, Value::str(&f.message), scope);
                                }
                                caught = Some(self.exec_block(&h.body, scope));
                                break;
                            }
                        }
                        caught.unwrap_or(Err(f))
                    }
                    Ok(Flow::Next) => self.exec_block(orelse, scope),
                    other => other,
                };
                let after = self.exec_block(finalbody, scope)?;
                return match after {
                    Flow::Next => result,
                    other => Ok(other),
                };
            }
            StmtKind::With { items, body } => {
                for (ctx, target) in items {
                    let v = self.eval(ctx, scope)?;
                    if let Some(t) = target {
                        self.assign(t, v, scope)?;
                    }
                }
                return self.exec_block(body, scope);
            }
            StmtKind::FunctionDef(def) => {
                let defaults = self.defaults(def.params.as_slice(), scope)?;
                let f = Value::Function(Rc::new(Function {
                    name: Rc::from(def.name.as_str()),
                    body: FunctionBody::Def(def.clone()),
                    defaults,
                    closure: scope.cloned(),
                    zoo: self.current_zoo(),
                    class: RefCell::new(None),
                }));
                let f = self.decorate(&def.decorators, f, scope)?;
                self.bind(&def.name, f, scope);
            }
            StmtKind::ClassDef(def) => {
                let c = self.class(def, scope)?;
                let c = self.decorate(&def.decorators, c, scope)?;
                self.bind(&def.name, c, scope);
            }
            StmtKind::Unsupported(what) => {
                return Err(unsupported(
                    s.line,
                    format!("{what} is not evaluated by padlab"),
                ));
            }
        }
        Ok(Flow::Next)
    }

    /// Applies decorators (those that change nothing a model needs are kept as they are).
    fn decorate(
        &mut self,
        decorators: &[Expr],
        mut v: Value,
        scope: Option<&ScopeRef>,
    ) -> Ev<Value> {
        for d in decorators.iter().rev() {
            let deco = self.eval(d, scope)?;
            v = match &deco {
                Value::Api(p) if p.as_ref() == "property" => {
                    Value::Descriptor(super::value::Descriptor::Property, Rc::new(v))
                }
                Value::Api(p) if p.as_ref() == "staticmethod" => {
                    Value::Descriptor(super::value::Descriptor::Static, Rc::new(v))
                }
                Value::Api(p) if p.as_ref() == "classmethod" => {
                    Value::Descriptor(super::value::Descriptor::Class, Rc::new(v))
                }
                // `@torch.no_grad()`, `@dataclass`, `@tf.function`...: the function itself.
                Value::Api(_) | Value::Opaque(_) => v,
                Value::Function(_) => {
                    let site = self.site(d);
                    self.call(deco, vec![v], vec![], &site)?
                }
                _ => v,
            };
        }
        Ok(v)
    }

    fn defaults(
        &mut self,
        params: &[super::ast::Param],
        scope: Option<&ScopeRef>,
    ) -> Ev<Vec<Option<Value>>> {
        params
            .iter()
            .map(|p| p.default.as_ref().map(|d| self.eval(d, scope)).transpose())
            .collect()
    }

    fn class(&mut self, def: &Rc<super::ast::ClassDef>, scope: Option<&ScopeRef>) -> Ev<Value> {
        let mut bases = Vec::new();
        for a in &def.bases {
            if a.name.is_some() {
                continue; // metaclass=...
            }
            bases.push(self.eval(&a.value, scope)?);
        }
        let framework = bases.iter().find_map(framework_base);
        if let Some(f) = &framework {
            self.framework.get_or_insert(f.framework());
        }
        let class = Rc::new(Class {
            name: Rc::from(def.name.as_str()),
            def: def.clone(),
            bases,
            attrs: RefCell::new(Dict::default()),
            framework,
        });
        // The class body runs in its own scope; its names become the class's attributes.
        let body_scope = Rc::new(RefCell::new(Scope {
            vars: HashMap::new(),
            parent: scope.cloned(),
            globals: Vec::new(),
        }));
        let mut order: Vec<Rc<str>> = Vec::new();
        for s in &def.body {
            if let StmtKind::FunctionDef(f) = &s.kind {
                // Methods close over the scope around the class, not the class body.
                let defaults = self.defaults(&f.params, Some(&body_scope))?;
                let func = Rc::new(Function {
                    name: Rc::from(f.name.as_str()),
                    body: FunctionBody::Def(f.clone()),
                    defaults,
                    closure: scope.cloned(),
                    zoo: self.current_zoo(),
                    class: RefCell::new(Some(Rc::downgrade(&class))),
                });
                let v = self.decorate(&f.decorators, Value::Function(func), Some(&body_scope))?;
                body_scope
                    .borrow_mut()
                    .vars
                    .insert(Rc::from(f.name.as_str()), v);
                order.push(Rc::from(f.name.as_str()));
                continue;
            }
            match self.exec(s, Some(&body_scope))? {
                Flow::Next => {}
                _ => return Err(unsupported(s.line, "'return' or 'break' in a class body")),
            }
            let mut names = Vec::new();
            bound_names(s, &mut names);
            order.extend(names.into_iter().map(|n| Rc::from(n.as_str())));
        }
        {
            let vars = &body_scope.borrow().vars;
            let mut attrs = class.attrs.borrow_mut();
            for n in order {
                if let Some(v) = vars.get(&n) {
                    attrs.insert(Key::Str(n.clone()), Value::Str(n.clone()), v.clone());
                }
            }
        }
        Ok(Value::Class(class))
    }

    fn handler_matches(
        &mut self,
        kind: Option<&Expr>,
        name: &str,
        scope: Option<&ScopeRef>,
    ) -> Ev<bool> {
        let Some(kind) = kind else { return Ok(true) };
        let v = self.eval(kind, scope)?;
        let names: Vec<String> = match &v {
            Value::Tuple(items) => items.iter().map(exception_name).collect(),
            other => vec![exception_name(other)],
        };
        Ok(names.iter().any(|n| exception_catches(n, name)))
    }

    fn exception_of(&mut self, e: &Expr, scope: Option<&ScopeRef>) -> Ev<(String, String)> {
        if let ExprKind::Call(f, args) = &e.kind {
            let name = exception_name(&self.eval(f, scope)?);
            let message = match args.first() {
                Some(a) => self.eval(&a.value, scope)?.to_string(),
                None => String::new(),
            };
            return Ok((name, message));
        }
        Ok((exception_name(&self.eval(e, scope)?), String::new()))
    }

    /// Binds `name` in the innermost scope (or the globals when declared `global`).
    pub fn bind(&mut self, name: &str, v: Value, scope: Option<&ScopeRef>) {
        match scope {
            Some(s) if !s.borrow().globals.iter().any(|g| g.as_ref() == name) => {
                s.borrow_mut().vars.insert(Rc::from(name), v);
            }
            _ => {
                self.globals.insert(Rc::from(name), v);
            }
        }
    }

    fn lookup(&mut self, name: &str, scope: Option<&ScopeRef>, line: usize) -> Ev<Value> {
        let mut at = scope.cloned();
        while let Some(s) = at {
            if let Some(v) = s.borrow().vars.get(name) {
                return Ok(v.clone());
            }
            at = s.borrow().parent.clone();
        }
        let zoo = self.zoo_at.is_some();
        if !zoo && let Some(v) = self.globals.get(name) {
            if !self.reads_now.contains(name) {
                self.reads_now.insert(name.to_string());
            }
            if !self.used.contains(name) {
                self.used.insert(name.to_string());
                self.used_order.push(name.to_string());
            }
            return Ok(v.clone());
        }
        if let Some(v) = super::builtins::builtin(name, self.framework, &self.src) {
            // A framework name the paste uses without importing it: the check script imports it.
            let framework_name = match &v {
                Value::Api(path) => {
                    path.contains('.')
                        || matches!(
                            name,
                            "torch" | "tf" | "keras" | "np" | "math" | "functools" | "collections"
                        )
                }
                _ => false,
            };
            if framework_name && !zoo && !self.imported.iter().any(|(n, _)| n == name) {
                self.imported
                    .push((name.to_string(), import_line(name, &v)));
            }
            return Ok(v);
        }
        if self.in_eval > 0 {
            return Err(raise(
                line,
                "NameError",
                format!("name '{name}' is not defined"),
            ));
        }
        Ok(Value::Hole(Rc::new(Hole::Name(name.to_string()))))
    }

    /// Assigns to a target: a name, an attribute, a subscript, or a tuple/list to unpack.
    fn assign(&mut self, t: &Expr, v: Value, scope: Option<&ScopeRef>) -> Ev<()> {
        match &t.kind {
            ExprKind::Name(n) => {
                self.bind(n, v, scope);
                Ok(())
            }
            ExprKind::Attr(obj, name) => {
                let o = self.eval(obj, scope)?;
                self.setattr(&o, name, v, t.line)
            }
            ExprKind::Subscript(obj, index) => {
                let o = self.eval(obj, scope)?;
                let i = self.eval(index, scope)?;
                self.setitem(&o, i, v, t.line)
            }
            ExprKind::Tuple(targets) | ExprKind::List(targets) => {
                let items = self.iterate(&v, t.line)?;
                let star = targets
                    .iter()
                    .position(|e| matches!(e.kind, ExprKind::Starred(_)));
                match star {
                    None => {
                        if items.len() != targets.len() {
                            return Err(raise(
                                t.line,
                                "ValueError",
                                if items.len() > targets.len() {
                                    format!(
                                        "too many values to unpack (expected {})",
                                        targets.len()
                                    )
                                } else {
                                    format!(
                                        "not enough values to unpack (expected {}, got {})",
                                        targets.len(),
                                        items.len()
                                    )
                                },
                            ));
                        }
                        for (target, item) in targets.iter().zip(items) {
                            self.assign(target, item, scope)?;
                        }
                    }
                    Some(k) => {
                        let after = targets.len() - k - 1;
                        if items.len() < targets.len() - 1 {
                            return Err(raise(
                                t.line,
                                "ValueError",
                                format!(
                                    "not enough values to unpack (expected at least {}, got {})",
                                    targets.len() - 1,
                                    items.len()
                                ),
                            ));
                        }
                        let rest_end = items.len() - after;
                        for (target, item) in targets[..k].iter().zip(&items[..k]) {
                            self.assign(target, item.clone(), scope)?;
                        }
                        if let ExprKind::Starred(inner) = &targets[k].kind {
                            self.assign(inner, Value::list(items[k..rest_end].to_vec()), scope)?;
                        }
                        for (target, item) in targets[k + 1..].iter().zip(&items[rest_end..]) {
                            self.assign(target, item.clone(), scope)?;
                        }
                    }
                }
                Ok(())
            }
            ExprKind::Starred(_) => Err(raise(
                t.line,
                "SyntaxError",
                "starred assignment target must be in a list or tuple",
            )),
            _ => Err(raise(t.line, "SyntaxError", "cannot assign to expression")),
        }
    }

    fn delete(&mut self, t: &Expr, scope: Option<&ScopeRef>) -> Ev<()> {
        match &t.kind {
            ExprKind::Name(n) => {
                if let Some(s) = scope {
                    s.borrow_mut().vars.remove(n.as_str());
                } else {
                    self.globals.remove(n.as_str());
                }
                Ok(())
            }
            ExprKind::Subscript(obj, index) => {
                let o = self.eval(obj, scope)?;
                let i = self.eval(index, scope)?;
                match (&o, &i) {
                    (Value::List(l), Value::Int(k)) => {
                        let mut l = l.borrow_mut();
                        let len = l.len() as i64;
                        let at = if *k < 0 { k + len } else { *k };
                        if !(0..len).contains(&at) {
                            return Err(raise(
                                t.line,
                                "IndexError",
                                "list assignment index out of range",
                            ));
                        }
                        l.remove(at as usize);
                        Ok(())
                    }
                    (Value::Dict(d), k) => {
                        let key = k
                            .key()
                            .ok_or_else(|| raise(t.line, "TypeError", "unhashable type"))?;
                        d.borrow_mut().remove(&key);
                        Ok(())
                    }
                    _ => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    // ---- Expressions ----

    pub fn eval(&mut self, e: &Expr, scope: Option<&ScopeRef>) -> Ev<Value> {
        self.step(e.line)?;
        self.enter(e.line)?;
        let v = self.eval_inner(e, scope);
        self.leave();
        v
    }

    fn eval_inner(&mut self, e: &Expr, scope: Option<&ScopeRef>) -> Ev<Value> {
        let line = e.line;
        Ok(match &e.kind {
            ExprKind::Name(n) => self.lookup(n, scope, line)?,
            ExprKind::Int(i) => Value::Int(*i),
            ExprKind::Float(x) => Value::Float(*x),
            ExprKind::Imaginary(_) => {
                return Err(unsupported(
                    line,
                    "complex numbers are not evaluated by padlab",
                ));
            }
            ExprKind::Str(s) => Value::str(s),
            ExprKind::Bytes(s) => Value::str(s),
            ExprKind::FString(parts) => Value::str(&self.fstring(parts, scope)?),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::None => Value::None,
            ExprKind::Ellipsis => Value::Ellipsis,
            ExprKind::Tuple(items) => Value::tuple(self.items(items, scope)?),
            ExprKind::List(items) => Value::list(self.items(items, scope)?),
            ExprKind::Set(items) => {
                let items = self.items(items, scope)?;
                Value::set(dedup(items))
            }
            ExprKind::Dict(items) => {
                let mut d = Dict::default();
                for (k, v) in items {
                    let value = self.eval(v, scope)?;
                    match k {
                        Some(k) => {
                            let key = self.eval(k, scope)?;
                            let hk = hash_key(&key, line)?;
                            d.insert(hk, key, value);
                        }
                        None => {
                            let Value::Dict(other) = value else {
                                return Err(raise(line, "TypeError", "'**' needs a mapping"));
                            };
                            for (k, v) in other.borrow().entries.clone() {
                                if let Some(hk) = k.key() {
                                    d.insert(hk, k, v);
                                }
                            }
                        }
                    }
                    self.check_size(d.len(), line)?;
                }
                Value::Dict(Rc::new(RefCell::new(d)))
            }
            ExprKind::Starred(_) => {
                return Err(raise(
                    line,
                    "SyntaxError",
                    "can't use starred expression here",
                ));
            }
            ExprKind::Attr(obj, name) => {
                let o = self.eval(obj, scope)?;
                self.getattr(&o, name, line)?
            }
            ExprKind::Call(func, args) => {
                // `super()` with no arguments: the class and the instance of the method.
                if let ExprKind::Name(n) = &func.kind
                    && n == "super"
                    && args.is_empty()
                {
                    return self.zero_arg_super(scope, line);
                }
                let f = self.eval(func, scope)?;
                let (pos, kw) = self.arguments(args, scope)?;
                // Python's `eval` of an expression's text (YOLO-style configs name their
                // modules by string: `m = eval(m) if isinstance(m, str) else m`), evaluated
                // where it is called, in the caller's names.
                if matches!(&f, Value::Api(p) if p.as_ref() == "eval")
                    && let ([Value::Str(text)], []) = (pos.as_slice(), kw.as_slice())
                {
                    return self.eval_text(text, scope, line);
                }
                let site = self.site(e);
                self.call(f, pos, kw, &site)?
            }
            ExprKind::Subscript(obj, index) => {
                let o = self.eval(obj, scope)?;
                let i = self.eval(index, scope)?;
                self.getitem(&o, &i, line, e)?
            }
            ExprKind::Slice { lower, upper, step } => {
                let mut parts = [Value::None, Value::None, Value::None];
                for (slot, part) in parts.iter_mut().zip([lower, upper, step]) {
                    if let Some(p) = part {
                        *slot = self.eval(p, scope)?;
                    }
                }
                Value::Slice(Rc::new(parts.to_vec().into()))
            }
            ExprKind::Unary(op, inner) => {
                let v = self.eval(inner, scope)?;
                self.unary(*op, v, line, e)?
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(a, scope)?;
                let y = self.eval(b, scope)?;
                self.binary(*op, x, y, line, e)?
            }
            ExprKind::And(items) => {
                let mut v = Value::Bool(true);
                for i in items {
                    v = self.eval(i, scope)?;
                    if !self.truthy(&v, i.line)? {
                        break;
                    }
                }
                v
            }
            ExprKind::Or(items) => {
                let mut v = Value::Bool(false);
                for i in items {
                    v = self.eval(i, scope)?;
                    if self.truthy(&v, i.line)? {
                        break;
                    }
                }
                v
            }
            ExprKind::Compare(first, ops) => {
                let mut left = self.eval(first, scope)?;
                for (op, right) in ops {
                    let r = self.eval(right, scope)?;
                    if !self.compare(*op, &left, &r, line)? {
                        return Ok(Value::Bool(false));
                    }
                    left = r;
                }
                Value::Bool(true)
            }
            ExprKind::IfExp { test, body, orelse } => {
                let t = self.eval(test, scope)?;
                if self.truthy(&t, test.line)? {
                    self.eval(body, scope)?
                } else {
                    self.eval(orelse, scope)?
                }
            }
            ExprKind::Lambda(l) => {
                let defaults = self.defaults(&l.params, scope)?;
                Value::Function(Rc::new(Function {
                    name: Rc::from("<lambda>"),
                    body: FunctionBody::Lambda(l.clone()),
                    defaults,
                    closure: scope.cloned(),
                    zoo: self.current_zoo(),
                    class: RefCell::new(None),
                }))
            }
            ExprKind::Comp {
                kind,
                elt,
                value,
                generators,
            } => self.comprehension(*kind, elt, value.as_deref(), generators, scope)?,
            ExprKind::Named(name, value) => {
                let v = self.eval(value, scope)?;
                self.bind(name, v.clone(), scope);
                v
            }
            ExprKind::Unsupported(what, _) => {
                return Err(unsupported(
                    line,
                    format!("{what} is not evaluated by padlab"),
                ));
            }
        })
    }

    fn check_size(&self, n: usize, line: usize) -> Ev<()> {
        if n > MAX_ITEMS {
            return Err(fail(
                line,
                FailKind::Limit,
                format!("a collection of more than {MAX_ITEMS} items: padlab stops there"),
            ));
        }
        Ok(())
    }

    /// List or tuple items, with `*x` unpacked.
    fn items(&mut self, items: &[Expr], scope: Option<&ScopeRef>) -> Ev<Vec<Value>> {
        let mut out = Vec::with_capacity(items.len());
        for i in items {
            if let ExprKind::Starred(inner) = &i.kind {
                let v = self.eval(inner, scope)?;
                out.extend(self.iterate(&v, i.line)?);
            } else {
                out.push(self.eval(i, scope)?);
            }
            self.check_size(out.len(), i.line)?;
        }
        Ok(out)
    }

    fn arguments(&mut self, args: &[Arg], scope: Option<&ScopeRef>) -> Ev<(Vec<Value>, Keywords)> {
        let mut pos = Vec::new();
        let mut kw: Vec<(Rc<str>, Value)> = Vec::new();
        for a in args {
            let v = self.eval(&a.value, scope)?;
            match (a.star, &a.name) {
                (Star::Single, _) => pos.extend(self.iterate(&v, a.value.line)?),
                (Star::Double, _) => match v {
                    Value::Dict(d) => {
                        for (k, v) in &d.borrow().entries {
                            kw.push((Rc::from(k.to_string().as_str()), v.clone()));
                        }
                    }
                    Value::Poison(f) => return Err((*f).clone()),
                    other => {
                        return Err(raise(
                            a.value.line,
                            "TypeError",
                            format!(
                                "argument after ** must be a mapping, not {}",
                                other.type_name()
                            ),
                        ));
                    }
                },
                (Star::None, Some(n)) => kw.push((Rc::from(n.as_str()), v)),
                (Star::None, None) => pos.push(v),
            }
        }
        Ok((pos, kw))
    }

    fn fstring(&mut self, parts: &[FPart], scope: Option<&ScopeRef>) -> Ev<String> {
        let mut out = String::new();
        for p in parts {
            match p {
                FPart::Text(t) => out.push_str(t),
                FPart::Field {
                    value,
                    conversion,
                    spec,
                    debug,
                } => {
                    let v = self.eval(value, scope)?;
                    if let Value::Poison(f) = &v {
                        return Err((**f).clone());
                    }
                    if let Some(d) = debug {
                        out.push_str(d);
                    }
                    let spec = self.fstring(spec, scope)?;
                    let text = if *conversion == Some('r')
                        || (debug.is_some() && conversion.is_none() && spec.is_empty())
                    {
                        v.repr()
                    } else {
                        super::builtins::format_value(&v, &spec, value.line)?
                    };
                    out.push_str(&text);
                }
            }
            self.check_size(out.len(), 0)?;
        }
        Ok(out)
    }

    fn comprehension(
        &mut self,
        kind: CompKind,
        elt: &Expr,
        value: Option<&Expr>,
        generators: &[Generator],
        scope: Option<&ScopeRef>,
    ) -> Ev<Value> {
        let inner = Rc::new(RefCell::new(Scope {
            vars: HashMap::new(),
            parent: scope.cloned(),
            globals: Vec::new(),
        }));
        let mut out: Vec<Value> = Vec::new();
        let mut dict = Dict::default();
        self.comp_level(kind, elt, value, generators, &inner, &mut out, &mut dict)?;
        Ok(match kind {
            CompKind::List | CompKind::Generator => Value::list(out),
            CompKind::Set => Value::set(dedup(out)),
            CompKind::Dict => Value::Dict(Rc::new(RefCell::new(dict))),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn comp_level(
        &mut self,
        kind: CompKind,
        elt: &Expr,
        value: Option<&Expr>,
        generators: &[Generator],
        scope: &ScopeRef,
        out: &mut Vec<Value>,
        dict: &mut Dict,
    ) -> Ev<()> {
        let Some((g, rest)) = generators.split_first() else {
            let e = self.eval(elt, Some(scope))?;
            if kind == CompKind::Dict {
                let v = match value {
                    Some(v) => self.eval(v, Some(scope))?,
                    None => Value::None,
                };
                let k = e
                    .key()
                    .ok_or_else(|| raise(elt.line, "TypeError", "unhashable type"))?;
                dict.insert(k, e, v);
                self.check_size(dict.len(), elt.line)?;
            } else {
                out.push(e);
                self.check_size(out.len(), elt.line)?;
            }
            return Ok(());
        };
        let it = self.eval(&g.iter, Some(scope))?;
        for item in self.iterate(&it, g.iter.line)? {
            self.step(g.iter.line)?;
            self.assign(&g.target, item, Some(scope))?;
            let mut keep = true;
            for c in &g.ifs {
                let v = self.eval(c, Some(scope))?;
                if !self.truthy(&v, c.line)? {
                    keep = false;
                    break;
                }
            }
            if keep {
                self.enter(g.iter.line)?;
                let r = self.comp_level(kind, elt, value, rest, scope, out, dict);
                self.leave();
                r?;
            }
        }
        Ok(())
    }

    /// `eval(text)`: the text parsed as one expression on the line that calls `eval`, and
    /// evaluated in the caller's scope (statements, as in Python, are a SyntaxError).
    fn eval_text(&mut self, text: &str, scope: Option<&ScopeRef>, line: usize) -> Ev<Value> {
        const MAX_TEXT: usize = 10_000;
        if text.len() > MAX_TEXT {
            return Err(unsupported(
                line,
                format!(
                    "eval() of a text of {} characters: padlab evaluates texts of at most {MAX_TEXT}",
                    text.len()
                ),
            ));
        }
        let expr = super::parser::parse_expression_at(text.trim(), line)
            .map_err(|e| raise(line, "SyntaxError", format!("eval(): {}", e.message)))?;
        self.in_eval += 1;
        let v = self.eval(&expr, scope);
        self.in_eval -= 1;
        v
    }

    /// `super()` inside a method: the method's class and its first argument.
    fn zero_arg_super(&mut self, scope: Option<&ScopeRef>, line: usize) -> Ev<Value> {
        let mut at = scope.cloned();
        while let Some(s) = at {
            let this = s.borrow().vars.get("__class__").cloned();
            let me = s.borrow().vars.get("__self__").cloned();
            if let (Some(Value::Class(c)), Some(me)) = (this, me) {
                return Ok(super::builtins::make_super(&c, me));
            }
            at = s.borrow().parent.clone();
        }
        Err(raise(line, "RuntimeError", "super(): no arguments"))
    }

    // ---- Calls ----

    /// Calls `f` with positional and keyword arguments.
    pub fn call(
        &mut self,
        f: Value,
        pos: Vec<Value>,
        kw: Vec<(Rc<str>, Value)>,
        site: &Site,
    ) -> Ev<Value> {
        self.step(site.line)?;
        match f {
            Value::Function(func) => self.call_function(&func, None, pos, kw, site),
            Value::Bound(me, func) => self.call_function(&func, Some((*me).clone()), pos, kw, site),
            Value::Partial(p) => {
                let mut args = p.args.clone();
                args.extend(pos);
                let mut kwargs = p.kwargs.clone();
                for (k, v) in kw {
                    kwargs.retain(|(n, _)| *n != k);
                    kwargs.push((k, v));
                }
                self.enter(site.line)?;
                let out = self.call(p.func.clone(), args, kwargs, site);
                self.leave();
                out
            }
            Value::Class(c) => self.instantiate(&c, pos, kw, site),
            Value::Instance(i) => self.call_instance(&i, pos, kw, site),
            Value::Poison(f) => Err((*f).clone()),
            Value::Hole(h) => Err(undefined(&h, site.line)),
            Value::Api(path) => super::builtins::call_api(self, &path, Args { pos, kw }, site),
            Value::Method(obj, name) => {
                super::builtins::call_method(self, &obj, &name, Args { pos, kw }, site)
            }
            Value::Layer(l) => {
                self.note_top_call(Value::Layer(l.clone()), &pos);
                // A container calls its children through here: nesting is recursion.
                self.enter(site.line)?;
                let out = super::layers::call_layer(self, &l, Args { pos, kw }, site);
                self.leave();
                out
            }
            Value::Opaque(what) => {
                refuse_tensors(&Args { pos, kw }, site, |_| {
                    format!(
                        "`{}` applies {what} to a tensor: padlab cannot evaluate it",
                        site.text
                    )
                })?;
                self.effect = true;
                Ok(Value::opaque(format!(
                    "the result of {}",
                    short(&site.text)
                )))
            }
            other => Err(raise(
                site.line,
                "TypeError",
                format!("'{}' object is not callable", other.type_name()),
            )),
        }
    }

    /// Calls a user function (`me`: the bound instance of a method). A function of a model
    /// zoo runs as the zoo's code, reached from the paste at the line that made its instance
    /// (a method) or at the call (a function).
    pub fn call_function(
        &mut self,
        func: &Rc<Function>,
        me: Option<Value>,
        pos: Vec<Value>,
        kw: Vec<(Rc<str>, Value)>,
        site: &Site,
    ) -> Ev<Value> {
        if func.zoo == self.current_zoo() {
            return self.call_here(func, me, pos, kw, site);
        }
        let line = match (&func.zoo, &me) {
            (Some(_), Some(Value::Instance(i))) if i.line.get() > 0 => i.line.get(),
            _ => site.line,
        };
        let what = super::zoo::what(func);
        let from_paste = self.zoo_at.is_none();
        let out = self.in_origin(func.zoo, line, &what, |it| {
            it.call_here(func, me, pos, kw, site)
        })?;
        if from_paste && let Some(zoo) = func.zoo {
            super::zoo::note_call(self, zoo, func, site, &out);
        }
        Ok(out)
    }

    fn call_here(
        &mut self,
        func: &Rc<Function>,
        me: Option<Value>,
        mut pos: Vec<Value>,
        kw: Vec<(Rc<str>, Value)>,
        site: &Site,
    ) -> Ev<Value> {
        self.enter(site.line)?;
        if let Some(me) = me {
            pos.insert(0, me);
        }
        let scope = Rc::new(RefCell::new(Scope {
            vars: HashMap::new(),
            parent: func.closure.clone(),
            globals: Vec::new(),
        }));
        let bound = bind_params(func, pos, kw, site.line);
        let result = bound.and_then(|vars| {
            {
                let mut s = scope.borrow_mut();
                for (k, v) in vars {
                    s.vars.insert(k, v);
                }
                // For `super()` and for naming: the method's class and instance.
                if let Some(class) = func
                    .class
                    .borrow()
                    .as_ref()
                    .and_then(std::rc::Weak::upgrade)
                {
                    s.vars.insert(Rc::from("__class__"), Value::Class(class));
                    if let Some(first) = func.body.params().first()
                        && let Some(me) = s.vars.get(first.name.as_str()).cloned()
                    {
                        s.vars.insert(Rc::from("__self__"), me);
                    }
                }
            }
            match &func.body {
                FunctionBody::Def(def) => match self.exec_block(&def.body, Some(&scope))? {
                    Flow::Return(v) => Ok(v),
                    _ => Ok(Value::None),
                },
                FunctionBody::Lambda(l) => self.eval(&l.body, Some(&scope)),
            }
        });
        self.leave();
        result
    }

    /// `Class(...)`: a new instance and its `__init__`.
    fn instantiate(
        &mut self,
        c: &Rc<Class>,
        pos: Vec<Value>,
        kw: Vec<(Rc<str>, Value)>,
        site: &Site,
    ) -> Ev<Value> {
        if let Some(ex) = exception_class(c) {
            let message = pos.first().map(Value::to_string).unwrap_or_default();
            return Ok(Value::opaque(format!("{ex}: {message}")));
        }
        let id = self.id();
        let inst = Rc::new(Instance {
            id,
            class: c.clone(),
            attrs: RefCell::new(Dict::default()),
            children: RefCell::new(Vec::new()),
            line: std::cell::Cell::new(site.line),
            text: RefCell::new(site.text.clone()),
            name: RefCell::new(None),
            base_layer: RefCell::new(None),
        });
        let me = Value::Instance(inst.clone());
        if c.framework.as_ref().is_some_and(FrameworkBase::is_keras) {
            let name = kw
                .iter()
                .find(|(k, v)| k.as_ref() == "name" && !matches!(v, Value::None))
                .map(|(_, v)| Rc::from(v.to_string().as_str()))
                .unwrap_or_else(|| Rc::from(super::keras::auto_name(self, &c.name).as_str()));
            *inst.name.borrow_mut() = Some(name);
        }
        match self.find_method(c, "__init__") {
            Some((init, _)) => {
                let r = self.call_function(&init, Some(me.clone()), pos, kw, site)?;
                if !matches!(r, Value::None) {
                    return Err(raise(
                        site.line,
                        "TypeError",
                        "__init__() should return None",
                    ));
                }
            }
            None => {
                // No user `__init__`: the framework base's (a container takes its children).
                super::builtins::framework_init(self, &inst, Args { pos, kw }, site)?;
            }
        }
        Ok(me)
    }

    /// A method of a class or its bases (depth-first, left to right), with the class it is in.
    pub fn find_method(&self, c: &Rc<Class>, name: &str) -> Option<(Rc<Function>, Rc<Class>)> {
        if let Some(Value::Function(f)) = c.attrs.borrow().get(&Key::Str(Rc::from(name))) {
            return Some((f.clone(), c.clone()));
        }
        c.bases.iter().find_map(|b| match b {
            Value::Class(b) => self.find_method(b, name),
            _ => None,
        })
    }

    /// A class attribute of a class or its bases.
    pub fn class_attr(&self, c: &Rc<Class>, name: &str) -> Option<Value> {
        if let Some(v) = c.attrs.borrow().get(&Key::Str(Rc::from(name))) {
            return Some(v.clone());
        }
        c.bases.iter().find_map(|b| match b {
            Value::Class(b) => self.class_attr(b, name),
            _ => None,
        })
    }

    /// A model called at the top level on a tensor the paste made (`net(torch.randn(1, 3,
    /// 32, 32))`): that tensor's sample shape is the model's input.
    pub fn note_top_call(&mut self, model: Value, pos: &[Value]) {
        if !self.call_stack.is_empty() {
            return;
        }
        let id = match &model {
            Value::Instance(i) => i.id,
            Value::Layer(l) => l.id,
            _ => return,
        };
        if let Some(Value::Tensor(t)) = pos.first()
            && let Some(node) = self.graph.nodes.get(t.edge.node.0)
            && matches!(node.op, Op::Input)
            && let Some(shape) = &t.shape
            && shape.len() > 1
        {
            let sample: Vec<Option<i64>> = shape[1..].iter().map(|&d| Some(d)).collect();
            self.declared.push((id, sample));
            self.called.push(model);
            let more: Option<Vec<Vec<i64>>> = pos[1..]
                .iter()
                .map(|v| match v {
                    // A per-sample scalar (a conditional GAN's class labels, `(batch,)`) too.
                    Value::Tensor(t) if t.shape.as_ref().is_some_and(|s| !s.is_empty()) => {
                        t.shape.as_ref().map(|s| s[1..].to_vec())
                    }
                    _ => None,
                })
                .collect();
            if let Some(more) = more.filter(|m| !m.is_empty()) {
                self.more_inputs.push((id, more));
            }
        }
    }

    /// Calling an instance: a torch module runs `forward`, a Keras layer or model `call`.
    fn call_instance(
        &mut self,
        i: &Rc<Instance>,
        pos: Vec<Value>,
        mut kw: Vec<(Rc<str>, Value)>,
        site: &Site,
    ) -> Ev<Value> {
        self.note_top_call(Value::Instance(i.clone()), &pos);
        let c = i.class.clone();
        if let Some((f, _)) = self.find_method(&c, "__call__") {
            return self.call_function(&f, Some(Value::Instance(i.clone())), pos, kw, site);
        }
        let method = match &c.framework {
            Some(b) if b.is_keras() => {
                kw.retain(|(k, _)| !matches!(k.as_ref(), "training" | "mask"));
                // Keras builds a layer on its first call: `build(input_shape)` first.
                let built = Key::Str(Rc::from("built"));
                let is_built = matches!(i.attrs.borrow().get(&built), Some(Value::Bool(true)));
                if !is_built && let Some((build, _)) = self.find_method(&c, "build") {
                    let shape = match pos.first() {
                        Some(Value::Tensor(t)) => super::ops::shape_value(t),
                        _ => Value::None,
                    };
                    i.attrs.borrow_mut().insert(
                        built.clone(),
                        Value::str("built"),
                        Value::Bool(true),
                    );
                    self.call_function(
                        &build,
                        Some(Value::Instance(i.clone())),
                        vec![shape],
                        vec![],
                        site,
                    )?;
                }
                "call"
            }
            Some(_) => "forward",
            None => {
                return Err(raise(
                    site.line,
                    "TypeError",
                    format!("'{}' object is not callable", c.name),
                ));
            }
        };
        match self.find_method(&c, method) {
            Some((f, _)) => {
                self.call_stack.push(Value::Instance(i.clone()));
                let r = self.call_function(&f, Some(Value::Instance(i.clone())), pos, kw, site);
                self.call_stack.pop();
                r
            }
            None => super::builtins::framework_call(self, i, Args { pos, kw }, site),
        }
    }

    // ---- Attributes and items ----

    pub fn getattr(&mut self, o: &Value, name: &str, line: usize) -> Ev<Value> {
        match o {
            Value::Poison(f) => Err((**f).clone()),
            Value::Hole(h) if h.depth() >= MAX_HOLE => Err(undefined(h, line)),
            Value::Hole(h) => Ok(Value::Hole(Rc::new(Hole::Attr(
                h.clone(),
                name.to_string(),
            )))),
            Value::Instance(i) => {
                if let Some(v) = i.attrs.borrow().get(&Key::Str(Rc::from(name))) {
                    return Ok(v.clone());
                }
                if name == "__class__" {
                    return Ok(Value::Class(i.class.clone()));
                }
                if let Some(v) = self.class_attr(&i.class, name) {
                    use super::value::Descriptor;
                    return Ok(match v {
                        Value::Function(f) => Value::Bound(Rc::new(o.clone()), f),
                        Value::Descriptor(Descriptor::Property, getter) => {
                            let site = Site {
                                line: self.paste_line(line),
                                text: Rc::from(name),
                            };
                            return self.call((*getter).clone(), vec![o.clone()], vec![], &site);
                        }
                        Value::Descriptor(Descriptor::Static, f) => (*f).clone(),
                        Value::Descriptor(Descriptor::Class, f) => match &*f {
                            Value::Function(f) => {
                                Value::Bound(Rc::new(Value::Class(i.class.clone())), f.clone())
                            }
                            other => other.clone(),
                        },
                        other => other,
                    });
                }
                super::builtins::instance_attr(self, i, name, line)
            }
            Value::Class(c) => {
                if name == "__name__" {
                    return Ok(Value::Str(c.name.clone()));
                }
                match self.class_attr(c, name) {
                    Some(Value::Descriptor(super::value::Descriptor::Class, f)) => Ok(match &*f {
                        Value::Function(func) => Value::Bound(Rc::new(o.clone()), func.clone()),
                        other => other.clone(),
                    }),
                    Some(Value::Descriptor(_, f)) => Ok((*f).clone()),
                    Some(v) => Ok(v),
                    None => super::builtins::class_attr_fallback(c, name, line),
                }
            }
            _ => super::builtins::getattr(self, o, name, line),
        }
    }

    fn setattr(&mut self, o: &Value, name: &str, v: Value, line: usize) -> Ev<()> {
        match o {
            Value::Instance(i) => {
                // A weight is held where it is first assigned (`self.gamma = nn.Parameter(...)`):
                // that is where the source model keeps it.
                if let Value::Weight(w) = &v {
                    let mut place = w.place.borrow_mut();
                    if place.is_none() {
                        *place = Some((i.id, Rc::from(name)));
                    }
                }
                i.attrs
                    .borrow_mut()
                    .insert(Key::Str(Rc::from(name)), Value::str(name), v);
                Ok(())
            }
            Value::Class(c) => {
                c.attrs
                    .borrow_mut()
                    .insert(Key::Str(Rc::from(name)), Value::str(name), v);
                Ok(())
            }
            Value::Poison(f) => Err((**f).clone()),
            // Setting a framework object's attribute (`torch.backends.cudnn.benchmark = True`,
            // `layer.trainable = False`): nothing a model's shapes depend on.
            // (`param.requires_grad = False` on a parameter too.)
            // A layer keeps what the paste sets on it (`m.f = -1`), to read it back.
            Value::Layer(l) => {
                // torch registers a module set on a container as its child: in place of the
                // child of that name, else after the others (a Sequential then runs it last).
                if l.framework == Framework::Torch
                    && matches!(v, Value::Layer(_) | Value::Instance(_))
                    && let super::value::LayerKind::Sequential(children)
                    | super::value::LayerKind::Dict(children) = &l.kind
                {
                    set_named(&mut children.borrow_mut(), name, v);
                    return Ok(());
                }
                set_named(&mut l.attrs.borrow_mut(), name, v);
                Ok(())
            }
            Value::Api(_)
            | Value::Opaque(_)
            | Value::Tensor(_)
            | Value::Param(..)
            | Value::Weight(_) => Ok(()),
            other => Err(no_attribute(line, &other.type_name(), name)),
        }
    }

    fn setitem(&mut self, o: &Value, i: Value, v: Value, line: usize) -> Ev<()> {
        match o {
            Value::List(l) => {
                let Value::Int(k) = i else {
                    return Err(raise(
                        line,
                        "TypeError",
                        "list indices must be integers or slices",
                    ));
                };
                let mut l = l.borrow_mut();
                let len = l.len() as i64;
                let at = if k < 0 { k + len } else { k };
                if !(0..len).contains(&at) {
                    return Err(raise(
                        line,
                        "IndexError",
                        "list assignment index out of range",
                    ));
                }
                l[at as usize] = v;
                Ok(())
            }
            Value::Dict(d) => {
                let k = hash_key(&i, line)?;
                d.borrow_mut().insert(k, i, v);
                self.check_size(d.borrow().len(), line)
            }
            Value::Layer(l) => super::layers::set_child(l, i, v, line),
            Value::Instance(inst) => {
                let k = Rc::from(i.to_string().as_str());
                let mut ch = inst.children.borrow_mut();
                match ch.iter_mut().find(|(n, _)| *n == k) {
                    Some(slot) => slot.1 = v,
                    None => ch.push((k, v)),
                }
                Ok(())
            }
            Value::Poison(f) => Err((**f).clone()),
            Value::Opaque(_) | Value::Tensor(_) => Ok(()),
            other => Err(raise(
                line,
                "TypeError",
                format!(
                    "'{}' object does not support item assignment",
                    other.type_name()
                ),
            )),
        }
    }

    fn getitem(&mut self, o: &Value, i: &Value, line: usize, e: &Expr) -> Ev<Value> {
        super::builtins::getitem(self, o, i, line, e)
    }

    // ---- Operators ----

    pub fn truthy(&mut self, v: &Value, line: usize) -> Ev<bool> {
        Ok(match v {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(x) => *x != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::List(l) => !l.borrow().is_empty(),
            Value::Set(l) => !l.borrow().is_empty(),
            Value::Dict(d) => !d.borrow().is_empty(),
            Value::Range(a, b, s) => range_len(*a, *b, *s) > 0,
            Value::Poison(f) => return Err((**f).clone()),
            Value::Hole(h) => {
                return Err(undefined(h, line));
            }
            Value::Unknown => {
                return Err(unsupported(
                    line,
                    "this decision depends on the input's size: give the input shape",
                ));
            }
            Value::Tensor(_) => {
                return Err(unsupported(
                    line,
                    "a decision on a tensor's values: padlab traces shapes, not values",
                ));
            }
            Value::Layer(l) => match &l.kind {
                super::value::LayerKind::Sequential(c) => !c.borrow().is_empty(),
                super::value::LayerKind::List(c) => !c.borrow().is_empty(),
                _ => true,
            },
            _ => true,
        })
    }

    fn unary(&mut self, op: UnaryOp, v: Value, line: usize, e: &Expr) -> Ev<Value> {
        match (op, &v) {
            (UnaryOp::Not, _) => Ok(Value::Bool(!self.truthy(&v, line)?)),
            (_, Value::Poison(f)) => Err((**f).clone()),
            (_, Value::Unknown) => Ok(Value::Unknown),
            (UnaryOp::Neg, Value::Int(i)) => i
                .checked_neg()
                .map(Value::Int)
                .ok_or_else(|| overflow(line)),
            (UnaryOp::Neg, Value::Bool(b)) => Ok(Value::Int(-i64::from(*b))),
            (UnaryOp::Neg, Value::Float(x)) => Ok(Value::Float(-x)),
            (UnaryOp::Pos, Value::Int(_) | Value::Float(_)) => Ok(v),
            (UnaryOp::Invert, Value::Int(i)) => Ok(Value::Int(!i)),
            (UnaryOp::Neg, Value::Tensor(t)) => {
                let t = t.clone();
                super::ops::unary_minus(self, &t, line, e)
            }
            _ => Err(raise(
                line,
                "TypeError",
                format!("bad operand type for unary operator: '{}'", v.type_name()),
            )),
        }
    }

    fn augmented(
        &mut self,
        op: BinOp,
        current: Value,
        rhs: Value,
        line: usize,
        e: &Expr,
    ) -> Ev<Value> {
        // `list += iterable` extends the list in place (so aliases see it).
        if let (BinOp::Add, Value::List(l)) = (op, &current) {
            let items = self.iterate(&rhs, line)?;
            l.borrow_mut().extend(items);
            self.check_size(l.borrow().len(), line)?;
            return Ok(current);
        }
        self.binary(op, current, rhs, line, e)
    }

    pub fn binary(&mut self, op: BinOp, a: Value, b: Value, line: usize, e: &Expr) -> Ev<Value> {
        for v in [&a, &b] {
            if let Value::Poison(f) = v {
                return Err((**f).clone());
            }
            if let Value::Hole(h) = v {
                return Err(undefined(h, line));
            }
        }
        if matches!(a, Value::Tensor(_)) || matches!(b, Value::Tensor(_)) {
            return super::ops::tensor_binary(self, op, a, b, line, e);
        }
        if matches!(a, Value::Unknown) || matches!(b, Value::Unknown) {
            return Ok(Value::Unknown);
        }
        if matches!(a, Value::Batch(_)) || matches!(b, Value::Batch(_)) {
            return Err(unsupported(
                line,
                format!(
                    "`{}`: arithmetic on the batch size (`shape(x)[0]`) is not translated by padlab",
                    short(&self.text(e))
                ),
            ));
        }
        super::builtins::arithmetic(self, op, a, b, line)
    }

    pub fn compare(&mut self, op: CmpOp, a: &Value, b: &Value, line: usize) -> Ev<bool> {
        super::builtins::compare(self, op, a, b, line)
    }

    /// The items of an iterable.
    pub fn iterate(&mut self, v: &Value, line: usize) -> Ev<Vec<Value>> {
        // An undefined array's sample shape (`x_train.shape[1:]`) used as sizes stands for the
        // input's when one is given (as in `Input(shape=x_train.shape[1:])`); the check script
        // defines the array from it.
        if let Value::Hole(h) = v
            && let Hole::From(inner, 1) = &**h
            && let Hole::Attr(root, attr) = &**inner
            && attr == "shape"
            && matches!(&**root, Hole::Name(_))
            && let Some(input) = self.settings.input.clone()
        {
            self.holes.push((h.clone(), usize::MAX));
            return Ok(input.into_iter().map(Value::Int).collect());
        }
        super::builtins::iterate(self, v, line)
    }

    // ---- Recording ----

    /// Records a node applying `op` to `inputs`; returns its output tensors.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        op: Op,
        kind: &str,
        inputs: &[Rc<Tensor>],
        framework: Framework,
        site: &Site,
        layer: Option<&Rc<Layer>>,
        function: Option<&str>,
    ) -> Ev<Vec<Rc<Tensor>>> {
        if self.graph.nodes.len() >= MAX_NODES {
            return Err(fail(
                site.line,
                FailKind::Limit,
                format!("the model records more than {MAX_NODES} operations: padlab stops there"),
            ));
        }
        let shapes: Vec<Option<&crate::model::graph::Shape>> =
            inputs.iter().map(|t| t.shape.as_ref()).collect();
        let mut inferred = shape::infer(&op, framework, &shapes);
        // The reader makes an opaque op only of a layer that keeps its input's shape (a Keras
        // `Normalization` whose statistics come from `adapt`): the shape is known, the port
        // refuses it.
        if matches!(op, Op::Opaque { .. })
            && let Some(first) = shapes.first()
        {
            inferred.outputs = vec![first.cloned()];
            inferred.error = None;
        }
        let integer = false;
        let id = NodeId(self.graph.nodes.len());
        let shares = layer.and_then(|l| l.first_node.get());
        if let Some(l) = layer
            && l.first_node.get().is_none()
        {
            l.first_node.set(Some(id));
            *l.first_input.borrow_mut() = shapes.first().copied().flatten().cloned();
        }
        // The call stack's ids, shared between the nodes recorded under the same stack.
        let ids = self.call_stack.iter().filter_map(|v| match v {
            Value::Instance(i) => Some(i.id),
            Value::Layer(l) => Some(l.id),
            _ => None,
        });
        let scope = match &self.scope_cache {
            Some(cached) if cached.iter().copied().eq(ids.clone()) => cached.clone(),
            _ => {
                let fresh: Rc<[usize]> = ids.collect();
                self.scope_cache = Some(fresh.clone());
                fresh
            }
        };
        let keras_path = if framework == Framework::Keras {
            Some(super::keras::node_path(self, layer, function))
        } else {
            None
        };
        let (text, text_line) = match layer {
            Some(l) => (l.text.clone(), l.line),
            None => (site.text.clone(), site.line),
        };
        let outputs: Vec<Rc<Tensor>> = inferred
            .outputs
            .iter()
            .enumerate()
            .map(|(k, s)| {
                Rc::new(Tensor {
                    edge: Edge {
                        node: id,
                        output: k,
                    },
                    shape: s.clone(),
                    framework,
                    integer,
                })
            })
            .collect();
        self.graph.nodes.push(Node {
            op,
            inputs: inputs.iter().map(|t| t.edge).collect(),
            name: String::new(),
            kind: kind.to_string(),
            source: Source {
                line: text_line,
                text: text.to_string(),
                call_line: (text_line != site.line).then_some(site.line),
            },
            shares,
            inferred,
        });
        self.trace.push(NodeTrace {
            scope,
            layer: layer.cloned(),
            function: function.map(Rc::from),
            keras_path,
            owner: None,
        });
        Ok(outputs)
    }

    /// An operation padlab reads but does not port, of a known output shape (a custom
    /// layer's arithmetic with a weight it makes itself): the port refuses it with `what`.
    pub fn record_opaque(
        &mut self,
        what: String,
        kind: &str,
        input: &Rc<Tensor>,
        shape: Option<crate::model::graph::Shape>,
        site: &Site,
    ) -> Ev<Rc<Tensor>> {
        let out = self.record(
            Op::Opaque { what },
            kind,
            std::slice::from_ref(input),
            input.framework,
            site,
            None,
            Some(kind),
        )?;
        let edge = out
            .first()
            .map(|t| t.edge)
            .ok_or_else(|| unsupported(site.line, "an operation without an output"))?;
        if let Some(node) = self.graph.nodes.get_mut(edge.node.0) {
            node.inferred.outputs = vec![shape.clone()];
        }
        Ok(Rc::new(Tensor {
            edge,
            shape,
            framework: input.framework,
            integer: false,
        }))
    }

    /// Notes the framework an import names.
    fn note_framework(&mut self, path: &str) {
        let root = path.split('.').next().unwrap_or("");
        let f = match root {
            "torch" | "torchvision" | "torchaudio" => Framework::Torch,
            "keras" | "tensorflow" | "tf_keras" => Framework::Keras,
            _ => return,
        };
        self.framework.get_or_insert(f);
    }
}

/// The import statement that binds `name` to the namespace `v` names.
fn import_line(name: &str, v: &Value) -> String {
    let Value::Api(path) = v else {
        return String::new();
    };
    let module = match path.as_ref() {
        "tf" => "tensorflow".to_string(),
        p if p.starts_with("tf.") => format!("tensorflow.{}", &p[3..]),
        p => p.to_string(),
    };
    match module.rsplit_once('.') {
        None if module == name => format!("import {module}"),
        None => format!("import {module} as {name}"),
        Some((parent, last))
            if last == name && last.starts_with(|c: char| c.is_ascii_uppercase()) =>
        {
            format!("from {parent} import {last}")
        }
        Some((parent, last)) if last == name => format!("from {parent} import {last}"),
        Some(_)
            if module
                .split('.')
                .all(|p| p.starts_with(|c: char| c.is_ascii_lowercase())) =>
        {
            format!("import {module} as {name}")
        }
        Some((parent, last)) => format!("from {parent} import {last} as {name}"),
    }
}

/// The end of a statement's source text (its last line's end for a compound statement).
pub fn stmt_end(s: &Stmt) -> usize {
    let last = |b: &[Stmt]| b.last().map(stmt_end);
    let inner = match &s.kind {
        StmtKind::If { body, orelse, .. }
        | StmtKind::While { body, orelse, .. }
        | StmtKind::For { body, orelse, .. } => last(orelse).or(last(body)),
        StmtKind::Try {
            body,
            handlers,
            orelse,
            finalbody,
        } => last(finalbody)
            .or(last(orelse))
            .or(handlers.last().and_then(|h| last(&h.body)))
            .or(last(body)),
        StmtKind::With { body, .. } => last(body),
        StmtKind::FunctionDef(d) => last(&d.body),
        StmtKind::ClassDef(c) => last(&c.body),
        _ => None,
    };
    inner.unwrap_or(s.end).max(s.end)
}

/// The names whose values a statement may change in place: the object a method is called on
/// (`model.add(...)`, `layers.append(...)`) and the root of an attribute or item assigned
/// (`model.fc = ...`, `cfg["k"] = ...`), at any depth of its blocks.
pub fn mutated_names(s: &Stmt, out: &mut Vec<String>) {
    fn root(e: &Expr) -> Option<&str> {
        match &e.kind {
            ExprKind::Name(n) => Some(n),
            ExprKind::Attr(base, _) | ExprKind::Subscript(base, _) => root(base),
            ExprKind::Call(f, _) => root(f),
            _ => None,
        }
    }
    // Methods that train, run, save or describe a model: they change no layer.
    const READS: &[&str] = &[
        "compile",
        "fit",
        "fit_generator",
        "train_on_batch",
        "test_on_batch",
        "evaluate",
        "evaluate_generator",
        "predict",
        "predict_generator",
        "predict_on_batch",
        "summary",
        "save",
        "save_weights",
        "load_weights",
        "load_state_dict",
        "state_dict",
        "to",
        "cuda",
        "cpu",
        "eval",
        "train",
        "apply",
        "zero_grad",
        "parameters",
        "named_parameters",
        "modules",
        "children",
        "requires_grad_",
        "half",
        "float",
        "double",
        "print",
    ];
    fn calls(e: &Expr, out: &mut Vec<String>) {
        if let ExprKind::Call(f, _) = &e.kind
            && let ExprKind::Attr(base, method) = &f.kind
            && !READS.contains(&method.as_str())
            && let Some(n) = root(base)
        {
            out.push(n.to_string());
        }
    }
    fn target(e: &Expr, out: &mut Vec<String>) {
        match &e.kind {
            ExprKind::Attr(base, _) | ExprKind::Subscript(base, _) => {
                if let Some(n) = root(base) {
                    out.push(n.to_string());
                }
            }
            ExprKind::Tuple(items) | ExprKind::List(items) => {
                items.iter().for_each(|i| target(i, out))
            }
            _ => {}
        }
    }
    match &s.kind {
        StmtKind::Expr(e) => calls(e, out),
        StmtKind::Assign { targets, value } => {
            targets.iter().for_each(|t| target(t, out));
            calls(value, out);
        }
        StmtKind::AugAssign { target: t, .. } => target(t, out),
        StmtKind::AnnAssign { target: t, .. } => target(t, out),
        _ => {}
    }
    inner(s).for_each(|s| mutated_names(s, out));
}

/// Sets the value named `name` in a list of named values, in its place, else at the end.
fn set_named(items: &mut Vec<(Rc<str>, Value)>, name: &str, v: Value) {
    match items.iter_mut().find(|(k, _)| k.as_ref() == name) {
        Some((_, slot)) => *slot = v,
        None => items.push((Rc::from(name), v)),
    }
}

/// The statements of a compound statement's blocks (`for`, `if`, `while`, `try`, `with`), at
/// its own level: a function's or a class's body is not run where it is written.
fn inner(s: &Stmt) -> impl Iterator<Item = &Stmt> {
    let empty: &[Stmt] = &[];
    let (blocks, handlers): ([&[Stmt]; 3], &[_]) = match &s.kind {
        StmtKind::For { body, orelse, .. }
        | StmtKind::If { body, orelse, .. }
        | StmtKind::While { body, orelse, .. } => ([body, orelse, empty], &[]),
        StmtKind::Try {
            body,
            handlers,
            orelse,
            finalbody,
        } => ([body, orelse, finalbody], handlers.as_slice()),
        StmtKind::With { body, .. } => ([body, empty, empty], &[]),
        _ => ([empty, empty, empty], &[]),
    };
    blocks
        .into_iter()
        .flatten()
        .chain(handlers.iter().flat_map(|h| h.body.iter()))
}

/// The names a statement binds at its own level (for poisoning a failed one).
pub fn bound_names(s: &Stmt, out: &mut Vec<String>) {
    fn target(e: &Expr, out: &mut Vec<String>) {
        match &e.kind {
            ExprKind::Name(n) => out.push(n.clone()),
            ExprKind::Tuple(items) | ExprKind::List(items) => {
                items.iter().for_each(|i| target(i, out))
            }
            ExprKind::Starred(i) => target(i, out),
            _ => {}
        }
    }
    match &s.kind {
        StmtKind::Assign { targets, .. } => targets.iter().for_each(|t| target(t, out)),
        StmtKind::AugAssign { target: t, .. } | StmtKind::AnnAssign { target: t, .. } => {
            target(t, out)
        }
        StmtKind::For { target: t, .. } => target(t, out),
        StmtKind::With { items, .. } => {
            items
                .iter()
                .filter_map(|(_, t)| t.as_ref())
                .for_each(|t| target(t, out));
        }
        StmtKind::FunctionDef(d) => out.push(d.name.clone()),
        StmtKind::ClassDef(c) => out.push(c.name.clone()),
        StmtKind::Import(items) => {
            for (path, alias) in items {
                out.push(alias.clone().unwrap_or_else(|| path[0].clone()));
            }
        }
        StmtKind::ImportFrom { names, .. } => {
            for (n, alias) in names {
                out.push(alias.clone().unwrap_or_else(|| n.clone()));
            }
        }
        _ => {}
    }
    inner(s).for_each(|s| bound_names(s, out));
}

/// Binds call arguments to a function's parameters, as Python does.
fn bind_params(
    func: &Function,
    pos: Vec<Value>,
    kw: Vec<(Rc<str>, Value)>,
    line: usize,
) -> Ev<Vec<(Rc<str>, Value)>> {
    let params = func.body.params();
    let name = &func.name;
    let mut slots: Vec<Option<Value>> = vec![None; params.len()];
    let mut extra = Vec::new();
    let mut pos_iter = pos.into_iter();
    for (k, p) in params.iter().enumerate() {
        match p.kind {
            ParamKind::PositionalOnly | ParamKind::Normal => {
                if let Some(v) = pos_iter.next() {
                    slots[k] = Some(v);
                }
            }
            ParamKind::VarArgs => {
                slots[k] = Some(Value::tuple(pos_iter.by_ref().collect()));
            }
            _ => {}
        }
    }
    extra.extend(pos_iter);
    if !extra.is_empty() {
        let max = params
            .iter()
            .filter(|p| matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Normal))
            .count();
        return Err(raise(
            line,
            "TypeError",
            format!(
                "{name}() takes {max} positional arguments but {} were given",
                max + extra.len()
            ),
        ));
    }
    let var_kw = params.iter().position(|p| p.kind == ParamKind::VarKeywords);
    let mut kwargs = Dict::default();
    for (k, v) in kw {
        match params.iter().position(|p| {
            p.name.as_str() == k.as_ref()
                && !matches!(
                    p.kind,
                    ParamKind::VarArgs | ParamKind::VarKeywords | ParamKind::PositionalOnly
                )
        }) {
            Some(i) => {
                if slots[i].is_some() {
                    return Err(raise(
                        line,
                        "TypeError",
                        format!("{name}() got multiple values for argument '{k}'"),
                    ));
                }
                slots[i] = Some(v);
            }
            None if var_kw.is_some() => kwargs.insert(Key::Str(k.clone()), Value::Str(k), v),
            None => {
                return Err(raise(
                    line,
                    "TypeError",
                    format!("{name}() got an unexpected keyword argument '{k}'"),
                ));
            }
        }
    }
    if let Some(i) = var_kw {
        slots[i] = Some(Value::Dict(Rc::new(RefCell::new(kwargs))));
    }
    let mut out = Vec::with_capacity(params.len());
    for (k, p) in params.iter().enumerate() {
        let v = match slots[k].take() {
            Some(v) => v,
            None => match func.defaults.get(k).cloned().flatten() {
                Some(d) => d,
                None => {
                    return Err(raise(
                        line,
                        "TypeError",
                        format!(
                            "{name}() missing 1 required positional argument: '{}'",
                            p.name
                        ),
                    ));
                }
            },
        };
        out.push((Rc::from(p.name.as_str()), v));
    }
    Ok(out)
}

/// The framework class a base value names.
fn framework_base(v: &Value) -> Option<FrameworkBase> {
    match v {
        Value::Class(c) => c.framework.clone(),
        Value::Api(p) => super::builtins::framework_base_of(p),
        _ => None,
    }
}

/// An exception's name (`ValueError`), for `except` clauses and `raise`.
fn exception_name(v: &Value) -> String {
    match v {
        Value::Api(p) => p.rsplit('.').next().unwrap_or(p).to_string(),
        Value::Class(c) => c.name.to_string(),
        other => other.type_name(),
    }
}

/// Whether `except handler` catches `raised`.
fn exception_catches(handler: &str, raised: &str) -> bool {
    handler == raised
        || matches!(handler, "Exception" | "BaseException")
        || (handler == "LookupError" && matches!(raised, "KeyError" | "IndexError"))
        || (handler == "ArithmeticError" && matches!(raised, "ZeroDivisionError" | "OverflowError"))
        || (handler == "ImportError" && raised == "ModuleNotFoundError")
}

/// A user class deriving from an exception: instances are raised, not modelled.
fn exception_class(c: &Rc<Class>) -> Option<String> {
    c.bases.iter().find_map(|b| match b {
        Value::Api(p) if p.ends_with("Error") || p.ends_with("Exception") => {
            Some(c.name.to_string())
        }
        Value::Class(b) => exception_class(b),
        _ => None,
    })
}

fn dedup(items: Vec<Value>) -> Vec<Value> {
    let mut seen = std::collections::HashSet::new();
    items
        .into_iter()
        .filter(|v| v.key().is_none_or(|k| seen.insert(k)))
        .collect()
}

/// Whether a value holds a tensor (directly or in a list or tuple).
/// Refuses a call padlab does not evaluate when a tensor goes in (the model would lose track of
/// it); `refusal` words the error from the call's shortened text.
pub fn refuse_tensors(args: &Args, site: &Site, refusal: impl FnOnce(&str) -> String) -> Ev<()> {
    if args.values().any(holds_tensor) {
        return Err(unsupported(site.line, refusal(&short(&site.text))));
    }
    Ok(())
}

/// The result of `path()`, a call padlab does not evaluate: refused on a tensor
/// ([`refuse_tensors`]), else a side effect with an opaque result.
pub fn unevaluated(
    it: &mut Interp,
    path: &str,
    args: &Args,
    site: &Site,
    refusal: impl FnOnce(&str) -> String,
) -> Ev<Value> {
    refuse_tensors(args, site, refusal)?;
    it.effect = true;
    Ok(Value::opaque(format!("the result of {path}()")))
}

/// The dict key of `v`; Python's TypeError for an unhashable value.
pub fn hash_key(v: &Value, line: usize) -> Ev<Key> {
    v.key().ok_or_else(|| {
        raise(
            line,
            "TypeError",
            format!("unhashable type: '{}'", v.type_name()),
        )
    })
}

pub fn holds_tensor(v: &Value) -> bool {
    let Some(_level) = super::value::Nested::enter() else {
        return false;
    };
    match v {
        Value::Tensor(_) | Value::Batch(_) => true,
        Value::Tuple(t) => t.iter().any(holds_tensor),
        Value::List(l) => l.borrow().iter().any(holds_tensor),
        _ => false,
    }
}

pub fn overflow(line: usize) -> Failure {
    fail(
        line,
        FailKind::Limit,
        "an integer beyond 64 bits: padlab stops there",
    )
}

/// The number of items in `range(a, b, s)`.
pub fn range_len(a: i64, b: i64, s: i64) -> i64 {
    if s > 0 && b > a {
        ((b as i128 - a as i128 + s as i128 - 1) / s as i128) as i64
    } else if s < 0 && a > b {
        ((a as i128 - b as i128 - s as i128 - 1) / (-(s as i128))) as i64
    } else {
        0
    }
}

/// A call as written, shortened for messages.
pub fn short(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > 60 {
        format!("{}...", one.chars().take(57).collect::<String>())
    } else {
        one
    }
}
