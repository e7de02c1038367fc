//! The values the evaluator computes with: Python's own (numbers, strings, lists, tuples,
//! dicts, functions, classes, instances) and the frameworks' (a namespace like `torch.nn`, a
//! layer, a symbolic tensor), plus the two ways a value says it is not really there: a
//! statement that failed ([`Value::Poison`]) and a name the paste uses but never defines
//! ([`Value::Hole`], filled from the input shape when it is one).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

use crate::core::Framework;

use super::ast::{ClassDef, Expr, FunctionDef, Lambda};
use crate::model::graph::{Edge, Shape};
use crate::model::op::Op;

/// A Python value.
#[derive(Clone, Default)]
pub enum Value {
    #[default]
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    Tuple(Rc<Items>),
    List(Rc<RefCell<Items>>),
    Dict(Rc<RefCell<Dict>>),
    Set(Rc<RefCell<Items>>),
    Range(i64, i64, i64),
    /// `slice(start, stop, step)`: always three items.
    Slice(Rc<Items>),
    Ellipsis,
    Function(Rc<Function>),
    /// A method bound to its object.
    Bound(Rc<Value>, Rc<Function>),
    /// A framework or standard-library callable or namespace, by its full dotted path
    /// (`torch.nn.Conv2d`, `keras.layers`, `math.ceil`).
    Api(Rc<str>),
    /// A method of a built-in value (`list.append`, `tensor.view`): the object and the name.
    Method(Rc<Value>, Rc<str>),
    /// `functools.partial(f, *args, **kwargs)`.
    Partial(Rc<Partial>),
    Class(Rc<Class>),
    Instance(Rc<Instance>),
    /// A framework layer or container (`nn.Conv2d(...)`, `layers.Dense(...)`, a Sequential).
    Layer(Rc<Layer>),
    Tensor(Rc<Tensor>),
    /// Something padlab does not model (a device, an optimizer, a dataset): fine to hold and
    /// pass around, an error where a model needs it. The text says what it is.
    Opaque(Rc<str>),
    /// The result of a statement that failed: using it fails with that statement's error.
    Poison(Rc<super::eval::Failure>),
    /// A name the paste uses but never defines, and what was done to it (`x_train.shape[1:]`):
    /// it may only stand for (part of) the input's shape.
    Hole(Rc<Hole>),
    /// An integer the paste computes from an unknown size (no input size given).
    Unknown,
    /// The batch size of a tensor as its framework computes it at run time (`tf.shape(x)[0]`,
    /// `keras.ops.shape(x)[0]`): usable where a shape is given (a random tensor shaped like
    /// `x`, a reshape keeping the batch), not as a number.
    Batch(Rc<Tensor>),
    /// A class body's `@staticmethod`, `@classmethod` or `@property` function.
    Descriptor(Descriptor, Rc<Value>),
    /// `super()` in a method of `class`, bound to the instance.
    Super(Rc<Class>, Rc<Value>),
    /// A layer's weight or bias (`self.weight`, `m.bias`), as a value code can pass along
    /// (`F.conv2d(x, self.weight, ...)`) or initialise.
    Param(Rc<Layer>, Rc<str>),
    /// A weight a Keras custom layer makes itself (`self.add_weight(shape=...)`).
    Weight(Rc<Weight>),
}

/// A custom layer's own weight (Keras `add_weight`, torch `nn.Parameter`): whose, and its
/// shape as code sees it (a view, `gamma[:, None, None]`, has its own shape and the same
/// place).
pub struct Weight {
    pub owner: Rc<str>,
    pub shape: Vec<i64>,
    /// The elements the weight itself holds (a view keeps its weight's).
    pub elements: Option<i64>,
    /// The module object and attribute that hold it (`self.gamma = nn.Parameter(...)`), set
    /// where it is first assigned: shared by its views.
    pub place: Place,
    /// Repeated over the batch (`w.expand(x.shape[0], -1, -1)` of a weight whose first axis is
    /// one): only a concatenation with a tensor reads it.
    pub batch: bool,
}

/// The module object (an interpreter id) and attribute holding a weight, once assigned.
pub type Place = Rc<std::cell::RefCell<Option<(usize, Rc<str>)>>>;

impl Weight {
    /// A new weight of `shape`, not yet held by any module.
    pub fn new(owner: Rc<str>, shape: Vec<i64>) -> Weight {
        let elements = shape.iter().try_fold(1i64, |n, &d| n.checked_mul(d));
        Weight {
            owner,
            shape,
            elements,
            place: Rc::new(std::cell::RefCell::new(None)),
            batch: false,
        }
    }

    /// The same weight seen with another shape (no element moved).
    pub fn view(&self, shape: Vec<i64>) -> Weight {
        Weight {
            owner: self.owner.clone(),
            shape,
            elements: self.elements,
            place: self.place.clone(),
            batch: false,
        }
    }
}

/// How a class attribute is reached through an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Descriptor {
    Static,
    Class,
    Property,
}

/// An undefined name and what the paste did to it.
#[derive(Clone, Debug, PartialEq)]
pub enum Hole {
    Name(String),
    /// A name a failed (or left out) top-level statement would have bound: its failure.
    Failed(String, Rc<super::eval::Failure>),
    Attr(Rc<Hole>, String),
    Index(Rc<Hole>, i64),
    /// `[start:]` of a hole.
    From(Rc<Hole>, i64),
}

impl Hole {
    /// How many attributes and items are taken of the name.
    pub fn depth(&self) -> usize {
        let (mut h, mut n) = (self, 0);
        while let Hole::Attr(inner, _) | Hole::Index(inner, _) | Hole::From(inner, _) = h {
            h = inner;
            n += 1;
        }
        n
    }

    /// The undefined name at its root.
    pub fn root(&self) -> &str {
        match self {
            Hole::Name(n) | Hole::Failed(n, _) => n,
            Hole::Attr(h, _) | Hole::Index(h, _) | Hole::From(h, _) => h.root(),
        }
    }
}

impl fmt::Display for Hole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hole::Name(n) | Hole::Failed(n, _) => f.write_str(n),
            Hole::Attr(h, a) => write!(f, "{h}.{a}"),
            Hole::Index(h, i) => write!(f, "{h}[{i}]"),
            Hole::From(h, i) => write!(f, "{h}[{i}:]"),
        }
    }
}

/// A dict: insertion-ordered, keyed by hashable values.
#[derive(Clone, Default)]
pub struct Dict {
    pub entries: Vec<(Value, Value)>,
    index: HashMap<Key, usize>,
}

/// A hashable value's identity as a dict key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    None,
    Int(i64),
    /// A float's bits (an integral float keys as the int).
    Float(u64),
    Str(Rc<str>),
    Tuple(Vec<Key>),
    /// Anything else, by address (functions, classes, layers, instances).
    Object(usize),
}

impl Dict {
    pub fn get(&self, k: &Key) -> Option<&Value> {
        self.index.get(k).map(|&i| &self.entries[i].1)
    }

    pub fn insert(&mut self, k: Key, key: Value, value: Value) {
        match self.index.get(&k) {
            Some(&i) => self.entries[i].1 = value,
            None => {
                self.index.insert(k, self.entries.len());
                self.entries.push((key, value));
            }
        }
    }

    pub fn remove(&mut self, k: &Key) -> Option<Value> {
        let i = self.index.remove(k)?;
        let (_, v) = self.entries.remove(i);
        for slot in self.index.values_mut() {
            if *slot > i {
                *slot -= 1;
            }
        }
        Some(v)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// A user function or lambda with the scope it was defined in.
pub struct Function {
    pub name: Rc<str>,
    pub body: FunctionBody,
    /// Parameter defaults, evaluated when the function was defined (by parameter index).
    pub defaults: Vec<Option<Value>>,
    /// The scope it closes over (`None`: the module's globals).
    pub closure: Option<super::eval::ScopeRef>,
    /// For a method: the class it was defined in (for `super()`).
    pub class: RefCell<Option<std::rc::Weak<Class>>>,
    /// The model zoo whose embedded source defines it (`None`: the paste).
    pub zoo: Option<super::zoo::Zoo>,
}

pub enum FunctionBody {
    Def(Rc<FunctionDef>),
    Lambda(Rc<Lambda>),
}

impl FunctionBody {
    pub fn params(&self) -> &[super::ast::Param] {
        match self {
            FunctionBody::Def(d) => &d.params,
            FunctionBody::Lambda(l) => &l.params,
        }
    }
}

/// A call's arguments as the paste passes them: positional, then keyword in the order written.
pub struct Args {
    pub pos: Vec<Value>,
    pub kw: Vec<(Rc<str>, Value)>,
}

impl Args {
    pub fn positional(pos: Vec<Value>) -> Self {
        Args {
            pos,
            kw: Vec::new(),
        }
    }

    pub fn keywords(kw: Vec<(Rc<str>, Value)>) -> Self {
        Args {
            pos: Vec::new(),
            kw,
        }
    }

    /// Every argument value, positional then keyword.
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.pos.iter().chain(self.kw.iter().map(|(_, v)| v))
    }

    /// The failure of the first argument whose statement failed.
    pub fn poisoned(&self) -> Result<(), super::eval::Failure> {
        match self.values().find(|v| matches!(v, Value::Poison(_))) {
            Some(Value::Poison(f)) => Err((**f).clone()),
            _ => Ok(()),
        }
    }
}

/// `functools.partial`.
pub struct Partial {
    pub func: Value,
    pub args: Vec<Value>,
    pub kwargs: Vec<(Rc<str>, Value)>,
}

/// A user class.
pub struct Class {
    pub name: Rc<str>,
    pub def: Rc<ClassDef>,
    /// Bases: user classes or framework classes (`Value::Api("torch.nn.Module")`).
    pub bases: Vec<Value>,
    /// Class attributes and methods, in definition order.
    pub attrs: RefCell<Dict>,
    /// The framework base it derives from, if any (torch `nn.Module`, Keras `Layer`/`Model`).
    pub framework: Option<FrameworkBase>,
}

/// Which framework class a user class derives from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameworkBase {
    /// `torch.nn.Module`.
    TorchModule,
    TorchSequential,
    TorchModuleList,
    TorchModuleDict,
    KerasLayer,
    KerasModel,
    KerasSequential,
    /// A concrete framework layer (`class Conv2dSame(nn.Conv2d)`): its API path.
    Layer(Rc<str>),
}

impl FrameworkBase {
    pub fn framework(&self) -> Framework {
        match self {
            FrameworkBase::TorchModule
            | FrameworkBase::TorchSequential
            | FrameworkBase::TorchModuleList
            | FrameworkBase::TorchModuleDict => Framework::Torch,
            FrameworkBase::Layer(p) if p.starts_with("torch") => Framework::Torch,
            _ => Framework::Keras,
        }
    }

    /// Whether instances are Keras layers (named, called through `call`).
    pub fn is_keras(&self) -> bool {
        self.framework() == Framework::Keras
    }
}

/// An instance of a user class.
pub struct Instance {
    pub id: usize,
    pub class: Rc<Class>,
    /// Its attributes in assignment order (torch registers submodules in this order).
    pub attrs: RefCell<Dict>,
    /// For a user class deriving from a framework container (`class Block(nn.Sequential)`),
    /// the container's own children.
    pub children: RefCell<Vec<(Rc<str>, Value)>>,
    /// Where it was made.
    pub line: Cell<usize>,
    pub text: RefCell<Rc<str>>,
    /// The Keras name (`auto` or given).
    pub name: RefCell<Option<Rc<str>>>,
    /// For a subclass of a concrete layer (`class Conv2dSame(nn.Conv2d)`): the layer its
    /// `super().__init__(...)` built, whose attributes and weights the instance has.
    pub base_layer: RefCell<Option<Rc<Layer>>>,
}

/// A framework layer or container.
pub struct Layer {
    pub id: usize,
    pub framework: Framework,
    /// The class as the framework names it (`Conv2d`, `Conv2D`, `Sequential`).
    pub class: Rc<str>,
    pub kind: LayerKind,
    /// The constructor call as written, and its line.
    pub text: Rc<str>,
    pub line: usize,
    /// The Keras layer name (given or automatic); torch modules are named by their path.
    pub name: Option<Rc<str>>,
    /// The first node that used its weights (a second call shares them).
    pub first_node: Cell<Option<crate::model::graph::NodeId>>,
    /// The input shape of its first call (batch included): a lazy layer's (`nn.LazyLinear`)
    /// sizes, for its parameter count.
    pub first_input: RefCell<Option<Vec<i64>>>,
    /// torch `weight_norm(layer, dim=d)`: the weight is stored as a direction and a magnitude
    /// over axis `d` (one more parameter per slice along it).
    pub weight_norm: Cell<Option<i64>>,
    /// The constructor's arguments by parameter name, as bound (for attributes code reads:
    /// `conv.out_channels`, `layer.filters`).
    pub args: Vec<(Rc<str>, Value)>,
    /// Attributes the paste set on the layer (`m.i, m.f = i, f`), read back before the
    /// framework's own.
    pub attrs: RefCell<Vec<(Rc<str>, Value)>>,
}

/// What a framework layer is.
pub enum LayerKind {
    /// One operation.
    Op(Op),
    /// A Keras layer that is one operation applied to several inputs (`Add`, `Concatenate`).
    Merge(Op),
    /// torch `Sequential` / Keras `Sequential`: children called in order.
    Sequential(RefCell<Vec<(Rc<str>, Value)>>),
    /// torch `ModuleList` (not callable).
    List(RefCell<Vec<Value>>),
    /// torch `ModuleDict` (not callable).
    Dict(RefCell<Vec<(Rc<str>, Value)>>),
    /// A Keras functional model: its inputs and outputs (tensors of its construction).
    Functional {
        inputs: Vec<Rc<Tensor>>,
        outputs: Value,
    },
    /// A Keras `Lambda` layer: its function.
    Lambda(Value),
    /// A torch `nn.Flatten`-like op whose parameters depend on nothing: see `Op`.
    Identity,
}

/// A symbolic tensor: an edge of the graph being recorded and its shape.
pub struct Tensor {
    pub edge: Edge,
    /// The full shape (batch first), `None` when unknown.
    pub shape: Option<Shape>,
    pub framework: Framework,
    /// Integer values (token indices for an embedding).
    pub integer: bool,
}

impl Value {
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::new(Items(items)))
    }

    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(RefCell::new(Items(items))))
    }

    pub fn set(items: Vec<Value>) -> Value {
        Value::Set(Rc::new(RefCell::new(Items(items))))
    }

    pub fn dict(d: Dict) -> Value {
        Value::Dict(Rc::new(RefCell::new(d)))
    }

    pub fn api(path: &str) -> Value {
        Value::Api(Rc::from(path))
    }

    pub fn opaque(what: impl Into<String>) -> Value {
        Value::Opaque(Rc::from(what.into().as_str()))
    }

    /// The type name Python would print.
    pub fn type_name(&self) -> String {
        match self {
            Value::None => "NoneType".into(),
            Value::Bool(_) => "bool".into(),
            Value::Int(_) | Value::Unknown => "int".into(),
            Value::Batch(_) => "Tensor".into(),
            Value::Float(_) => "float".into(),
            Value::Str(_) => "str".into(),
            Value::Tuple(_) => "tuple".into(),
            Value::List(_) => "list".into(),
            Value::Dict(_) => "dict".into(),
            Value::Set(_) => "set".into(),
            Value::Range(..) => "range".into(),
            Value::Slice(_) => "slice".into(),
            Value::Ellipsis => "ellipsis".into(),
            Value::Function(_) | Value::Partial(_) => "function".into(),
            Value::Bound(..) | Value::Method(..) => "method".into(),
            Value::Api(p) => p.rsplit('.').next().unwrap_or(p).to_string(),
            Value::Class(_) => "type".into(),
            Value::Instance(i) => i.class.name.to_string(),
            Value::Layer(l) => l.class.to_string(),
            Value::Tensor(_) => "Tensor".into(),
            Value::Opaque(w) => w.to_string(),
            Value::Poison(_) => "an error".into(),
            Value::Hole(h) => format!("undefined `{}`", h.root()),
            Value::Super(..) => "super".into(),
            Value::Descriptor(..) => "function".into(),
            Value::Param(..) => "Parameter".into(),
            Value::Weight(w) => format!("a weight {} makes itself (add_weight)", w.owner),
        }
    }

    /// An identity for `is` and for keys of unhashable-by-value objects.
    pub fn address(&self) -> usize {
        match self {
            Value::List(l) => Rc::as_ptr(l) as *const u8 as usize,
            Value::Dict(d) => Rc::as_ptr(d) as *const u8 as usize,
            Value::Set(s) => Rc::as_ptr(s) as *const u8 as usize,
            Value::Tuple(t) => Rc::as_ptr(t) as *const u8 as usize,
            Value::Function(f) => Rc::as_ptr(f) as *const u8 as usize,
            Value::Class(c) => Rc::as_ptr(c) as *const u8 as usize,
            Value::Instance(i) => Rc::as_ptr(i) as *const u8 as usize,
            Value::Layer(l) => Rc::as_ptr(l) as *const u8 as usize,
            Value::Tensor(t) => Rc::as_ptr(t) as *const u8 as usize,
            Value::Partial(p) => Rc::as_ptr(p) as *const u8 as usize,
            Value::Str(s) => Rc::as_ptr(s) as *const u8 as usize,
            Value::Api(s) | Value::Opaque(s) => Rc::as_ptr(s) as *const u8 as usize,
            _ => 0,
        }
    }

    /// The dict key of a hashable value; `None` for an unhashable one (a list, a dict).
    pub fn key(&self) -> Option<Key> {
        Some(match self {
            Value::None => Key::None,
            Value::Bool(b) => Key::Int(i64::from(*b)),
            Value::Int(i) => Key::Int(*i),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Key::Int(*f as i64),
            Value::Float(f) => Key::Float(f.to_bits()),
            Value::Str(s) => Key::Str(s.clone()),
            Value::Tuple(items) => {
                let _level = Nested::enter()?;
                Key::Tuple(items.iter().map(Value::key).collect::<Option<_>>()?)
            }
            Value::List(_) | Value::Dict(_) | Value::Set(_) => return None,
            other => Key::Object(other.address()),
        })
    }

    /// Python's `repr` for the values a model's code prints or formats.
    pub fn repr(&self) -> String {
        match self {
            Value::Str(s) => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")),
            other => other.to_string(),
        }
    }
}

/// Python's `str()`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(_level) = Nested::enter() else {
            return f.write_str("...");
        };
        let seq = |f: &mut fmt::Formatter<'_>, items: &[Value], open: &str, close: &str| {
            f.write_str(open)?;
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                f.write_str(&v.repr())?;
            }
            if items.len() == 1 && open == "(" {
                f.write_str(",")?;
            }
            f.write_str(close)
        };
        match self {
            Value::None => f.write_str("None"),
            Value::Bool(true) => f.write_str("True"),
            Value::Bool(false) => f.write_str("False"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => f.write_str(&python_float(*x)),
            Value::Str(s) => f.write_str(s),
            Value::Tuple(items) => seq(f, items, "(", ")"),
            Value::List(items) => seq(f, &items.borrow(), "[", "]"),
            Value::Set(items) => seq(f, &items.borrow(), "{", "}"),
            Value::Dict(d) => {
                f.write_str("{")?;
                for (i, (k, v)) in d.borrow().entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}: {}", k.repr(), v.repr())?;
                }
                f.write_str("}")
            }
            Value::Range(a, b, s) if *s == 1 => write!(f, "range({a}, {b})"),
            Value::Range(a, b, s) => write!(f, "range({a}, {b}, {s})"),
            Value::Slice(_) => f.write_str("slice(...)"),
            Value::Ellipsis => f.write_str("Ellipsis"),
            Value::Function(func) => write!(f, "<function {}>", func.name),
            Value::Bound(_, func) => write!(f, "<bound method {}>", func.name),
            Value::Api(p) => f.write_str(p),
            Value::Method(_, m) => write!(f, "<method {m}>"),
            Value::Partial(_) => f.write_str("functools.partial(...)"),
            Value::Class(c) => write!(f, "<class '{}'>", c.name),
            Value::Instance(i) => write!(f, "<{} object>", i.class.name),
            Value::Layer(l) => write!(f, "{}(...)", l.class),
            Value::Tensor(t) => match &t.shape {
                Some(s) => write!(
                    f,
                    "tensor of shape ({})",
                    s.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
                ),
                None => f.write_str("tensor"),
            },
            Value::Opaque(w) => write!(f, "<{w}>"),
            Value::Poison(_) => f.write_str("<error>"),
            Value::Hole(h) => write!(f, "{h}"),
            Value::Unknown => f.write_str("<unknown size>"),
            Value::Batch(_) => f.write_str("<the batch size>"),
            Value::Weight(w) => write!(f, "<a weight of {}>", w.owner),
            Value::Super(c, _) => write!(f, "<super: {}>", c.name),
            Value::Descriptor(_, v) => write!(f, "{v}"),
            Value::Param(l, n) => write!(f, "{}.{n}", l.class),
        }
    }
}

/// How deep a walk over nested values (printing, hashing, searching) may go before it stops:
/// model code nests a few levels; a paste can nest without bound.
pub const MAX_NESTING: usize = 200;

thread_local! {
    static NESTING: Cell<usize> = const { Cell::new(0) };
}

/// One level of a walk over nested values, while it lasts; `None` past [`MAX_NESTING`].
pub struct Nested(());

impl Nested {
    pub fn enter() -> Option<Nested> {
        NESTING.with(|n| {
            (n.get() < MAX_NESTING).then(|| {
                n.set(n.get() + 1);
                Nested(())
            })
        })
    }
}

impl Drop for Nested {
    fn drop(&mut self) {
        NESTING.with(|n| n.set(n.get().saturating_sub(1)));
    }
}

/// A float as Python prints it (`1.0`, `0.5`, `1e-05`, `inf`).
pub fn python_float(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x != 0.0 && (x.abs() < 1e-4 || x.abs() >= 1e16) {
        // Python switches to exponent notation: `1e-05`, `1e+16`.
        let s = format!("{x:e}");
        let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mant}e{sign}{:02}", exp.abs());
    }
    let s = format!("{x}");
    if s.contains('.') { s } else { format!("{s}.0") }
}

/// The text of an expression as written in the source.
pub fn text_of<'a>(src: &'a str, e: &Expr) -> &'a str {
    src.get(e.start..e.end).unwrap_or("")
}

/// The items of a tuple, list or set. A `Vec` of values that is dropped without recursion:
/// see [`Trash`].
#[derive(Clone, Default)]
pub struct Items(pub Vec<Value>);

impl std::ops::Deref for Items {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl std::ops::DerefMut for Items {
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        &mut self.0
    }
}

impl From<Vec<Value>> for Items {
    fn from(v: Vec<Value>) -> Self {
        Items(v)
    }
}

/// Values whose last owner is being dropped, taken apart one level at a time (CPython's
/// "trashcan"). A paste can nest values without bound (`for _ in range(10**5): m = [m]`, a
/// list grown through its last element, closures of closures); dropped the ordinary way, such
/// a value recurses once per level and overflows the worker's stack. Every holder of values
/// gives its contents here when dropped, and the contents of contents are taken out of their
/// holders in a loop while those are the last owners, so a drop recurses at most two levels.
#[derive(Default)]
pub(super) struct Trash {
    values: Vec<Value>,
    scopes: Vec<super::eval::ScopeRef>,
    layers: Vec<Rc<Layer>>,
}

impl Trash {
    /// Drops the values, one level at a time.
    pub(super) fn drop_all(values: &mut Vec<Value>) {
        if values.iter().any(Value::holds_values) {
            let mut trash = Trash::default();
            trash.values.append(values);
            trash.empty();
        }
    }

    /// Keeps what `v` holds if this is its last owner (`v` then drops shallow).
    fn take(&mut self, v: Value) {
        match v {
            Value::Tuple(t) => {
                if let Ok(mut t) = Rc::try_unwrap(t) {
                    self.values.append(&mut t.0);
                }
            }
            Value::List(l) | Value::Set(l) => {
                if let Ok(l) = Rc::try_unwrap(l) {
                    self.values.append(&mut l.into_inner().0);
                }
            }
            Value::Dict(d) => {
                if let Ok(d) = Rc::try_unwrap(d) {
                    d.into_inner().give(self);
                }
            }
            Value::Slice(s) => {
                if let Ok(mut s) = Rc::try_unwrap(s) {
                    self.values.append(&mut s.0);
                }
            }
            Value::Function(f) => {
                if let Ok(mut f) = Rc::try_unwrap(f) {
                    f.give(self);
                }
            }
            Value::Bound(o, f) => {
                self.values.push(Value::Function(f));
                self.inner(o);
            }
            Value::Method(o, _) | Value::Descriptor(_, o) => self.inner(o),
            Value::Super(c, o) => {
                self.values.push(Value::Class(c));
                self.inner(o);
            }
            Value::Partial(p) => {
                if let Ok(mut p) = Rc::try_unwrap(p) {
                    p.give(self);
                }
            }
            Value::Class(c) => {
                if let Ok(mut c) = Rc::try_unwrap(c) {
                    c.give(self);
                }
            }
            Value::Instance(i) => {
                if let Ok(mut i) = Rc::try_unwrap(i) {
                    i.give(self);
                }
            }
            Value::Layer(l) | Value::Param(l, _) => self.layers.push(l),
            _ => {}
        }
    }

    fn inner(&mut self, o: Rc<Value>) {
        if let Ok(v) = Rc::try_unwrap(o) {
            self.values.push(v);
        }
    }

    fn empty(mut self) {
        loop {
            if let Some(v) = self.values.pop() {
                self.take(v);
            } else if let Some(s) = self.scopes.pop() {
                if let Ok(s) = Rc::try_unwrap(s) {
                    s.into_inner().give(&mut self);
                }
            } else if let Some(l) = self.layers.pop() {
                if let Ok(mut l) = Rc::try_unwrap(l) {
                    l.give(&mut self);
                }
            } else {
                return;
            }
        }
    }
}

impl Value {
    /// Whether dropping it may drop other values.
    fn holds_values(&self) -> bool {
        !matches!(
            self,
            Value::None
                | Value::Bool(_)
                | Value::Int(_)
                | Value::Float(_)
                | Value::Str(_)
                | Value::Range(..)
                | Value::Ellipsis
                | Value::Api(_)
                | Value::Tensor(_)
                | Value::Opaque(_)
                | Value::Poison(_)
                | Value::Hole(_)
                | Value::Unknown
                | Value::Batch(_)
                | Value::Weight(_)
        )
    }
}

impl Drop for Items {
    fn drop(&mut self) {
        Trash::drop_all(&mut self.0);
    }
}

impl Dict {
    fn give(&mut self, trash: &mut Trash) {
        self.index.clear();
        for (k, v) in self.entries.drain(..) {
            trash.values.push(k);
            trash.values.push(v);
        }
    }
}

impl Drop for Dict {
    fn drop(&mut self) {
        let mut trash = Trash::default();
        self.give(&mut trash);
        trash.empty();
    }
}

impl Function {
    fn give(&mut self, trash: &mut Trash) {
        trash.values.extend(self.defaults.drain(..).flatten());
        trash.scopes.extend(self.closure.take());
    }
}

impl Drop for Function {
    fn drop(&mut self) {
        let mut trash = Trash::default();
        self.give(&mut trash);
        trash.empty();
    }
}

impl Partial {
    fn give(&mut self, trash: &mut Trash) {
        trash.values.push(std::mem::take(&mut self.func));
        trash.values.append(&mut self.args);
        trash.values.extend(self.kwargs.drain(..).map(|(_, v)| v));
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        let mut trash = Trash::default();
        self.give(&mut trash);
        trash.empty();
    }
}

impl Class {
    fn give(&mut self, trash: &mut Trash) {
        trash.values.append(&mut self.bases);
        self.attrs.get_mut().give(trash);
    }
}

impl Drop for Class {
    fn drop(&mut self) {
        let mut trash = Trash::default();
        self.give(&mut trash);
        trash.empty();
    }
}

impl Instance {
    fn give(&mut self, trash: &mut Trash) {
        self.attrs.get_mut().give(trash);
        trash
            .values
            .extend(self.children.get_mut().drain(..).map(|(_, v)| v));
        trash.layers.extend(self.base_layer.get_mut().take());
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let mut trash = Trash::default();
        self.give(&mut trash);
        trash.empty();
    }
}

impl Layer {
    fn give(&mut self, trash: &mut Trash) {
        trash.values.extend(self.args.drain(..).map(|(_, v)| v));
        trash
            .values
            .extend(self.attrs.get_mut().drain(..).map(|(_, v)| v));
        match &mut self.kind {
            LayerKind::Sequential(c) | LayerKind::Dict(c) => {
                trash.values.extend(c.get_mut().drain(..).map(|(_, v)| v));
            }
            LayerKind::List(c) => trash.values.append(c.get_mut()),
            LayerKind::Functional { outputs: v, .. } | LayerKind::Lambda(v) => {
                trash.values.push(std::mem::take(v));
            }
            LayerKind::Op(_) | LayerKind::Merge(_) | LayerKind::Identity => {}
        }
    }
}

impl Drop for Layer {
    fn drop(&mut self) {
        let mut trash = Trash::default();
        self.give(&mut trash);
        trash.empty();
    }
}

impl super::eval::Scope {
    fn give(&mut self, trash: &mut Trash) {
        trash.values.extend(self.vars.drain().map(|(_, v)| v));
        trash.scopes.extend(self.parent.take());
    }
}

impl Drop for super::eval::Scope {
    fn drop(&mut self) {
        let mut trash = Trash::default();
        self.give(&mut trash);
        trash.empty();
    }
}
