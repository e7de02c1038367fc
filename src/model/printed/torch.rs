//! `print(model)` of a torch module, read as a model.
//!
//! The printout is a tree: `Name(` opens a module, `  (child): Class(args)` is a leaf as its
//! constructor prints it, `  (child): Class(` a nested module, `)` closes one, and
//! `(0-2): 3 x Block(` stands for three identical children (torch's `ModuleList` notation).
//! Lines of a module that are none of these are its `extra_repr`.
//!
//! The tree is rebuilt as Python — each leaf the constructor torch printed (`nn.` in front), each
//! `Sequential` (and torchvision's Sequential subclasses) an `nn.Sequential` of its children
//! under their printed names, each other module a class of its own — and that code is evaluated
//! by the code reader ([`crate::model::code`]), so a printout's layers are built and traced by
//! the same vocabulary and shape rules as pasted code, and the self-check rebuilds exactly this
//! code.
//!
//! torch does not print `forward`. A module whose class name and printed children are those of
//! a forward padlab knows ([`super::forward`]: every CNN classifier of torchvision 0.29, with
//! their blocks; the common CIFAR, U-Net, C3D and text-CNN classes) gets that
//! forward; every row under it carries [`Flag::Assumed`] naming whose forward it is, so a
//! porter whose class only shares the name pastes the code instead. Any other module runs its
//! children in the printed order, said the same way on its rows; the one thing added to that
//! order is a flatten before a child whose linear layer declares exactly the values of the map it
//! gets (torch's `torch.flatten(x, 1)` in forward), said on the flatten's row. Where the printed
//! order is not the forward (a residual, a branch), the row where the shapes break carries the
//! error, on its line; where children are rarely a chain (one named as a parallel path, layers
//! with no activation printed between them, a squeeze-excitation's pool and gate), a row's error
//! says so even if the shapes chain (`not_chains`): nothing else is guessed.
//!
//! Some printed leaves are not built as printed: torchvision's `StochasticDepth(p=.., mode=..)`,
//! the identity in eval, stands in as `nn.Identity()`; its `LayerNorm2d` is a class of its own
//! (a LayerNorm over the channels, moved last and back); a `Softmax(dim=None)` (or
//! `LogSoftmax`) gets the dim torch takes from its input's rank, which a first trace tells; a
//! leaf whose work a known forward does itself is an `nn.Identity()` it never calls. Each row
//! says so.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use crate::model::code::{self, Options, ReadError};
use crate::model::graph::Flag;
use crate::model::op::Op;
use crate::model::{Model, Origin};

use super::{error, forward, is_identifier, lines};

/// How deep modules may nest in a printout.
pub const MAX_NESTING: usize = 64;
/// The most modules a printout may hold (repeated blocks counted once per copy).
pub const MAX_MODULES: usize = 20_000;

/// torch.nn classes printed with children that have a forward of their own, which padlab does
/// not build: printed by their parts, they must not be taken for containers.
const TORCH_COMPOSITES: &[&str] = &[
    "MultiheadAttention",
    "Transformer",
    "TransformerEncoder",
    "TransformerDecoder",
    "TransformerEncoderLayer",
    "TransformerDecoderLayer",
];

/// One printed module.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    /// Its name in its parent (`conv1`, `0`); empty for the root.
    pub name: String,
    /// The class as printed (`Conv2d`, `Sequential`, `BasicBlock`).
    pub class: String,
    /// The 1-based line it is printed on (its first line).
    pub line: usize,
    pub body: Body,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// A module printed on one line: the text between its parentheses.
    Leaf { args: String },
    /// A module printed over several lines: its children, and its `extra_repr` lines.
    Container {
        children: Vec<Module>,
        extra: Vec<String>,
    },
}

/// Whether a trimmed line is a child line: `(name): ...` or `(0-2): ...`.
pub(crate) fn child_line(t: &str) -> bool {
    split_child(t).is_some()
}

/// `(key): rest` into its key and rest.
fn split_child(t: &str) -> Option<(&str, &str)> {
    let inner = t.strip_prefix('(')?;
    let close = inner.find("): ")?;
    let key = &inner[..close];
    let valid = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    valid.then(|| (key, &inner[close + 3..]))
}

/// The names a child key stands for: `conv1`, or `0-2` for three repeated children.
fn key_names(key: &str, line: usize) -> Result<Vec<String>, ReadError> {
    if let Some((a, b)) = key.split_once('-')
        && let (Ok(a), Ok(b)) = (a.parse::<usize>(), b.parse::<usize>())
    {
        if b < a || b - a >= MAX_MODULES {
            return Err(error(
                line,
                format!("`({key})` is not a range of children torch prints"),
            ));
        }
        return Ok((a..=b).map(|i| i.to_string()).collect());
    }
    Ok(vec![key.to_string()])
}

/// The index of the `)` that closes the `(` at `open` (quotes respected), if any.
fn matching(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in unquoted(s.get(open..)?) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return (c == ')').then_some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The characters of `s` outside `'...'` and `"..."` (the quotes left out), with their offsets.
fn unquoted(s: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut quote: Option<char> = None;
    s.char_indices().filter(move |&(_, c)| match quote {
        Some(q) => {
            if c == q {
                quote = None;
            }
            false
        }
        None if c == '\'' || c == '"' => {
            quote = Some(c);
            false
        }
        None => true,
    })
}

/// What a child line's text after `(key): ` holds.
enum Printed<'a> {
    /// `Class(args)`.
    Leaf(&'a str, &'a str),
    /// `Class(` (its body follows).
    Open(&'a str),
}

/// `3 x Block(` into its count and the rest.
fn repeat(rest: &str) -> (Option<usize>, &str) {
    if let Some((n, tail)) = rest.split_once(" x ")
        && let Ok(n) = n.trim().parse::<usize>()
    {
        return (Some(n), tail);
    }
    (None, rest)
}

fn module_text(rest: &str, line: usize) -> Result<Printed<'_>, ReadError> {
    let bad = || {
        error(
            line,
            format!(
                "cannot read `{}` as a module torch prints (`Class(arguments)`)",
                code::eval::short(rest)
            ),
        )
    };
    let open = rest.find('(').ok_or_else(bad)?;
    let class = &rest[..open];
    if !is_identifier(class) {
        return Err(bad());
    }
    if open + 1 == rest.len() {
        return Ok(Printed::Open(class));
    }
    let close = matching(rest, open).ok_or_else(bad)?;
    if close + 1 != rest.len() {
        return Err(bad());
    }
    Ok(Printed::Leaf(class, &rest[open + 1..close]))
}

/// A module being read: its header and what it holds so far.
struct Frame {
    names: Vec<String>,
    class: String,
    line: usize,
    children: Vec<Module>,
    extra: Vec<String>,
    /// How many modules its children hold (their own modules included).
    held: usize,
}

/// Parses the printout whose root is on line `start`; returns the root module and the line it
/// closes on.
pub fn parse(text: &str, start: usize) -> Result<(Module, usize), ReadError> {
    let mut stack: Vec<Frame> = Vec::new();
    let mut count = 0usize;
    for (n, _, l) in lines(text).skip(start.saturating_sub(1)) {
        let t = l.trim();
        if stack.is_empty() {
            let Some(class) = t.strip_suffix('(').filter(|c| is_identifier(c)) else {
                return Err(error(
                    n,
                    "a printout starts with its module's class: `Name(`",
                ));
            };
            stack.push(Frame {
                names: vec![String::new()],
                class: class.to_string(),
                line: n,
                children: Vec::new(),
                extra: Vec::new(),
                held: 0,
            });
            continue;
        }
        if t.is_empty() {
            continue;
        }
        if t == ")" {
            let Some(f) = stack.pop() else { break };
            // The copies a repeat adds (the first copy's modules are counted already).
            let k = f.names.len();
            let copies = k.saturating_sub(1).saturating_mul(f.held);
            count = count.saturating_add(k).saturating_add(copies);
            if count > MAX_MODULES {
                return Err(error(
                    n,
                    format!(
                        "the printout holds more than {MAX_MODULES} modules: padlab stops there"
                    ),
                ));
            }
            let modules: Vec<Module> = f
                .names
                .iter()
                .map(|name| Module {
                    name: name.clone(),
                    class: f.class.clone(),
                    line: f.line,
                    body: Body::Container {
                        children: f.children.clone(),
                        extra: f.extra.clone(),
                    },
                })
                .collect();
            match stack.last_mut() {
                Some(parent) => {
                    parent.held = parent
                        .held
                        .saturating_add(k.saturating_mul(f.held.saturating_add(1)));
                    parent.children.extend(modules);
                }
                None => {
                    if let Some(root) = modules.into_iter().next() {
                        return Ok((root, n));
                    }
                }
            }
            continue;
        }
        let Some((key, rest)) = split_child(t) else {
            if let Some(top) = stack.last_mut() {
                top.extra.push(t.to_string());
            }
            continue;
        };
        let mut names = key_names(key, n)?;
        let (times, rest) = repeat(rest);
        if let Some(k) = times
            && k != names.len()
        {
            if names.len() == 1 && (1..=MAX_MODULES).contains(&k) {
                // `(0): 2 x Block(` is not torch's notation, but means what it says.
                names = (0..k).map(|i| i.to_string()).collect();
            } else {
                return Err(error(
                    n,
                    format!("`({key}): {k} x` names {} children, not {k}", names.len()),
                ));
            }
        }
        match module_text(rest, n)? {
            Printed::Open(class) => {
                if stack.len() >= MAX_NESTING {
                    return Err(error(
                        n,
                        format!(
                            "the printout nests modules more than {MAX_NESTING} deep: padlab stops there"
                        ),
                    ));
                }
                stack.push(Frame {
                    names,
                    class: class.to_string(),
                    line: n,
                    children: Vec::new(),
                    extra: Vec::new(),
                    held: 0,
                });
            }
            Printed::Leaf(class, args) => {
                count = count.saturating_add(names.len());
                if let Some(top) = stack.last_mut() {
                    top.held = top.held.saturating_add(names.len());
                }
                if count > MAX_MODULES {
                    return Err(error(
                        n,
                        format!(
                            "the printout holds more than {MAX_MODULES} modules: padlab stops there"
                        ),
                    ));
                }
                let parent = stack
                    .last_mut()
                    .ok_or_else(|| error(n, "a child outside any module"))?;
                for name in names {
                    parent.children.push(Module {
                        name,
                        class: class.to_string(),
                        line: n,
                        body: Body::Leaf {
                            args: args.to_string(),
                        },
                    });
                }
            }
        }
    }
    let (line, class) = stack
        .last()
        .map(|f| (f.line, f.class.clone()))
        .unwrap_or((start, String::new()));
    Err(error(
        line,
        format!(
            "the printout ends inside `{class}(`, opened here: it was cut short (a printout closes every module with `)`)"
        ),
    ))
}

/// A printed argument list's top-level items: `(keyword, value)` as printed.
pub(super) fn split_args(args: &str) -> Vec<(Option<&str>, &str)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    fn push<'a>(piece: &'a str, out: &mut Vec<(Option<&'a str>, &'a str)>) {
        let piece = piece.trim();
        if piece.is_empty() {
            return;
        }
        match piece.split_once('=') {
            Some((k, v)) if is_identifier(k.trim()) && !v.starts_with('=') => {
                out.push((Some(k.trim()), v.trim()))
            }
            _ => out.push((None, piece)),
        }
    }
    for (i, c) in unquoted(args) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                push(&args[start..i], &mut out);
                start = i + 1;
            }
            _ => {}
        }
    }
    push(&args[start..], &mut out);
    out
}

/// A printed value as Python: torch prints some strings bare (`padding=same`,
/// `padding_mode=reflect`); those are quoted, the rest is Python already.
pub(super) fn python_value(v: &str) -> String {
    let mut out = String::with_capacity(v.len() + 2);
    let mut chars = v.char_indices().peekable();
    let mut quote: Option<char> = None;
    while let Some((i, c)) = chars.next() {
        if let Some(q) = quote {
            out.push(c);
            if c == q {
                quote = None;
            }
            continue;
        }
        if c == '\'' || c == '"' {
            quote = Some(c);
            out.push(c);
        } else if c.is_ascii_alphabetic() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if d.is_ascii_alphanumeric() || d == '_' || d == '.' {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let word = &v[i..end];
            // A number's exponent (`1e-05`, `1.e5`) goes on; any other word is a value and
            // quoted, so printed arguments stay data: no name, attribute or call is reachable.
            let mut back = out.chars().rev();
            let number = match (back.next(), back.next()) {
                (Some(d), _) if d.is_ascii_digit() => true,
                (Some('.'), Some(d)) => d.is_ascii_digit(),
                _ => false,
            };
            let exponent = word
                .strip_prefix(['e', 'E'])
                .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()));
            match word {
                "True" | "False" | "None" => out.push_str(word),
                "inf" => out.push_str("float(\"inf\")"),
                "nan" => out.push_str("float(\"nan\")"),
                _ if number && exponent => out.push_str(word),
                _ => {
                    out.push('\'');
                    out.push_str(word);
                    out.push('\'');
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a printed value is Python's `True`.
fn truthy(v: &str) -> bool {
    v.trim() == "True"
}

/// A leaf's constructor call as Python: `nn.Conv2d(3, 64, kernel_size=(3, 3), ...)`, with what
/// torch prints but does not take back (a norm's `bias` that only repeats `affine`; the
/// `mode` the `Upsampling*2d` classes print) left out.
fn constructor(class: &str, args: &str, line: usize) -> Result<String, ReadError> {
    let items = split_args(args);
    let norm = matches!(
        class,
        "BatchNorm1d"
            | "BatchNorm2d"
            | "BatchNorm3d"
            | "InstanceNorm1d"
            | "InstanceNorm2d"
            | "InstanceNorm3d"
            | "GroupNorm"
    );
    let mut parts = Vec::with_capacity(items.len());
    for (k, v) in &items {
        match (*k, norm) {
            (Some("bias"), true) => {
                let affine = items
                    .iter()
                    .find(|(k, _)| *k == Some("affine"))
                    .map(|(_, v)| truthy(v))
                    .unwrap_or(!class.starts_with("InstanceNorm"));
                if truthy(v) != affine {
                    return Err(error(
                        line,
                        format!(
                            "{class}(affine={}, bias={v}): a normalisation with a scale but no shift is not translated by padlab",
                            if affine { "True" } else { "False" }
                        ),
                    ));
                }
                continue;
            }
            (Some("mode"), _) if class.starts_with("Upsampling") => continue,
            _ => {}
        }
        parts.push(match k {
            Some(k) => format!("{k}={}", python_value(v)),
            None => python_value(v),
        });
    }
    Ok(format!("nn.{class}({})", parts.join(", ")))
}

/// Whether `class` is a torch.nn layer the vocabulary builds (not a container).
fn known_layer(class: &str) -> bool {
    code::layers::is_layer_class(&format!("torch.nn.{class}"))
}

/// How padlab runs a module that is not a `Sequential`.
#[derive(Clone, Debug, PartialEq)]
enum How {
    /// Its children in the printed order: an assumption.
    Order,
    /// A forward padlab knows for its class and children ([`super::forward`]).
    Known { what: String, rule: String },
}

/// A module whose forward the printout does not show: its class and how it was run.
#[derive(Clone, Debug, PartialEq)]
struct Owner {
    class: String,
    how: How,
    /// Whether it was written as a class of its own (a forward that can take a flatten).
    classed: bool,
}

/// The Python that rebuilds a printout, and where each of its lines comes from.
struct Rebuilt {
    code: String,
    /// Per generated line (1-based index - 1): the printout's line and the text printed there
    /// (for a line of a forward, the statement).
    origin: Vec<(usize, String)>,
    /// Modules whose forward the printout does not show, by path.
    owners: HashMap<String, Owner>,
    /// Generated lines that flatten before a linear layer: the line -> the child it feeds.
    flattens: HashMap<usize, String>,
    /// Leaves built as another torch layer that computes the same (by path): what their rows
    /// say.
    said: HashMap<String, String>,
    /// Softmax leaves printed with `dim=None`, by path.
    implicit: HashSet<String>,
    /// Leaves a known forward does the work of, by path: built as `nn.Identity()`, not called.
    placeholders: HashSet<String>,
}

/// What a trace of a printout decides for the next: what torch's forward does that the
/// printout does not show.
#[derive(Default, PartialEq)]
struct Fixes {
    /// Children (by path) to flatten before: a linear layer reads their input flattened.
    flatten: HashSet<String>,
    /// Softmax leaves printed with `dim=None`, by path: the rank of their input (batch
    /// included), where a trace has told it.
    ranks: HashMap<String, usize>,
}

/// The axis torch's softmax takes when called without `dim` (deprecated; torch warns): 0 for
/// an input of rank 0, 1 or 3, else 1 (`torch.nn.functional._get_softmax_dim`).
fn implicit_softmax_dim(rank: usize) -> i64 {
    if matches!(rank, 0 | 1 | 3) { 0 } else { 1 }
}

/// A printed leaf that is not a torch.nn layer but computes what one does in eval: the layer
/// that stands in for it and what its row says. torchvision's `StochasticDepth(p=..,
/// mode=row|batch)` drops rows (or the batch) of a residual branch only in training.
fn stand_in(class: &str, args: &str) -> Option<(&'static str, &'static str)> {
    let items = split_args(args);
    let arg = |key: &str| items.iter().find(|(k, _)| *k == Some(key)).map(|(_, v)| *v);
    let stochastic_depth = class == "StochasticDepth"
        && items.len() == 2
        && arg("p").is_some_and(|p| p.parse::<f64>().is_ok_and(|p| (0.0..=1.0).contains(&p)))
        && matches!(arg("mode"), Some("row" | "batch"));
    stochastic_depth.then_some((
        "nn.Identity()",
        "torchvision's StochasticDepth: the identity in eval (it zeroes rows of the residual branch only in training)",
    ))
}

/// torchvision's `LayerNorm2d` (ConvNeXt's): an `nn.LayerNorm` over the channels of an NCHW
/// map, which its forward moves last and back. Printed like the LayerNorm it subclasses, it is
/// rebuilt as a class of its own (its rows on its printed line) around that LayerNorm.
fn layer_norm_2d(
    out: &mut Rebuilt,
    used: &mut HashSet<String>,
    m: &Module,
    args: &str,
    path: &str,
) -> Result<String, ReadError> {
    let items = split_args(args);
    // `(C,)`: one normalised axis, the channels.
    let one_axis = items.first().is_some_and(|(k, v)| {
        k.is_none() && v.starts_with('(') && v.ends_with(",)") && v.matches(',').count() == 1
    });
    if !one_axis {
        return leaf_call(m, args);
    }
    let norm = constructor("LayerNorm", args, m.line)?;
    let printed = printed_text(m);
    let var = variable(path, used);
    let class = variable(&format!("LayerNorm2d {path}"), used);
    let lines = [
        format!(
            "class {class}(nn.Module):  # torchvision's LayerNorm2d: a LayerNorm over the channels"
        ),
        "    def __init__(self):".to_string(),
        "        super().__init__()".to_string(),
        format!("        self.norm = {norm}"),
        "    def forward(self, x):".to_string(),
        "        x = x.permute(0, 2, 3, 1)".to_string(),
        "        x = self.norm(x)".to_string(),
        "        return x.permute(0, 3, 1, 2)".to_string(),
        format!("{var} = {class}()"),
    ];
    for l in lines {
        out.line(l, m.line, &printed);
    }
    out.said.insert(
        path.to_string(),
        "torchvision's LayerNorm2d: a LayerNorm over the channels, moved last (permute) and back"
            .to_string(),
    );
    Ok(var)
}

/// A leaf's constructor call as Python, where it depends on more than its printed text: a
/// stand-in, or a softmax without `dim` (a placeholder of its shape until a trace has told its
/// input's rank: where none can, its row is an error).
fn leaf_expression(
    out: &mut Rebuilt,
    used: &mut HashSet<String>,
    m: &Module,
    args: &str,
    path: &str,
    fixes: &Fixes,
) -> Result<String, ReadError> {
    if out.placeholders.contains(path) {
        return Ok("nn.Identity()".to_string());
    }
    if m.class == "LayerNorm2d" {
        return layer_norm_2d(out, used, m, args, path);
    }
    if let Some((expr, said)) = stand_in(&m.class, args) {
        out.said.insert(path.to_string(), said.to_string());
        return Ok(expr.to_string());
    }
    let no_dim = matches!(m.class.as_str(), "Softmax" | "LogSoftmax")
        && split_args(args)
            .iter()
            .all(|(k, v)| *k == Some("dim") && v.trim() == "None");
    if no_dim {
        out.implicit.insert(path.to_string());
        match fixes.ranks.get(path) {
            None => return Ok("nn.Identity()".to_string()),
            Some(rank) => {
                let dim = implicit_softmax_dim(*rank);
                out.said.insert(
                    path.to_string(),
                    format!(
                        "dim={dim}: printed `dim=None`, torch picks the axis from the input's rank (0 for rank 0, 1 or 3, else 1; deprecated, torch warns), here {rank}"
                    ),
                );
                return Ok(format!("nn.{}(dim={dim})", m.class));
            }
        }
    }
    leaf_call(m, args)
}

impl Rebuilt {
    fn line(&mut self, text: String, from: usize, printed: &str) {
        self.code.push_str(&text);
        self.code.push('\n');
        self.origin.push((from, printed.to_string()));
    }
}

/// The text of a module as printed (`Conv2d(3, 64, ...)` / `BasicBlock(...)`).
fn printed_text(m: &Module) -> String {
    match &m.body {
        Body::Leaf { args } => format!("{}({args})", m.class),
        Body::Container { .. } => format!("{}(...)", m.class),
    }
}

fn path_of(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

/// The Python variable for the module at `path` (`layer1.0` -> `layer1_0`; the root is
/// `model`).
fn variable(path: &str, used: &mut HashSet<String>) -> String {
    if path.is_empty() {
        return "model".into();
    }
    let mut v: String = path
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if v.starts_with(|c: char| c.is_ascii_digit()) {
        v.insert(0, '_');
    }
    const RESERVED: &[&str] = &[
        "model",
        "nn",
        "torch",
        "OrderedDict",
        "and",
        "as",
        "assert",
        "class",
        "def",
        "del",
        "elif",
        "else",
        "except",
        "for",
        "from",
        "global",
        "if",
        "import",
        "in",
        "is",
        "lambda",
        "not",
        "or",
        "pass",
        "raise",
        "return",
        "try",
        "while",
        "with",
        "yield",
        "None",
        "True",
        "False",
        "async",
        "await",
        "break",
        "continue",
        "finally",
        "nonlocal",
    ];
    while RESERVED.contains(&v.as_str()) || used.contains(&v) {
        v.push('_');
    }
    used.insert(v.clone());
    v
}

/// A leaf's constructor call as Python.
fn leaf_call(m: &Module, args: &str) -> Result<String, ReadError> {
    match m.class.as_str() {
        "Sequential" | "ModuleList" | "ModuleDict" if args.trim().is_empty() => {
            Ok("nn.Sequential()".to_string())
        }
        c if known_layer(c) => constructor(c, args, m.line),
        _ => Err(error(
            m.line,
            format!(
                "`{}` is not a torch.nn layer padlab builds: a printout shows a custom module's name and arguments, not what it computes",
                code::eval::short(&printed_text(m))
            ),
        )),
    }
}

/// Python's keywords and the names a module's attribute must not shadow.
fn plain_attribute(name: &str) -> bool {
    is_identifier(name)
        && !matches!(
            name,
            "and"
                | "as"
                | "assert"
                | "async"
                | "await"
                | "break"
                | "class"
                | "continue"
                | "def"
                | "del"
                | "elif"
                | "else"
                | "except"
                | "finally"
                | "for"
                | "from"
                | "global"
                | "if"
                | "import"
                | "in"
                | "is"
                | "lambda"
                | "nonlocal"
                | "not"
                | "or"
                | "pass"
                | "raise"
                | "return"
                | "try"
                | "while"
                | "with"
                | "yield"
                | "None"
                | "True"
                | "False"
                | "forward"
                | "training"
                | "self"
        )
}

/// What [`emit`] is told about a module beyond itself.
#[derive(Clone, Copy)]
struct Context<'a> {
    /// The class of the module holding it.
    parent: Option<&'a str>,
    /// Whether its owner's forward indexes it (`self.ups[0]`): an `nn.ModuleList`.
    list: bool,
    /// What the first trace decided.
    fixes: &'a Fixes,
}

/// Writes the container `m` (at `path`) — its containers first, each as a variable of its own
/// (so the code nests one call deep whatever the printout's depth) — and returns its variable.
/// A `Sequential` is an `nn.Sequential` of its children; any other module a class of its own
/// whose forward is the one padlab knows for it, or else its children in printed order.
fn emit(
    out: &mut Rebuilt,
    used: &mut HashSet<String>,
    m: &Module,
    path: &str,
    cx: Context<'_>,
) -> Result<String, ReadError> {
    let printed = printed_text(m);
    let Body::Container { children, extra } = &m.body else {
        return Err(error(m.line, "a printout's root is a module with children"));
    };
    if TORCH_COMPOSITES.contains(&m.class.as_str()) || known_layer(&m.class) {
        return Err(error(
            m.line,
            format!(
                "nn.{} is printed by its parts, and padlab does not translate it (its forward is torch's own, not its parts in order)",
                m.class
            ),
        ));
    }
    if children.is_empty()
        && !(extra.is_empty()
            && matches!(m.class.as_str(), "Sequential" | "ModuleList" | "ModuleDict"))
    {
        return Err(error(
            m.line,
            format!(
                "`{}` is not a torch.nn layer padlab builds: a printout shows a custom module's name and arguments, not what it computes",
                m.class
            ),
        ));
    }
    let known = if forward::sequential(&m.class) {
        None
    } else {
        forward::of(m, cx.parent)
    };
    // Written as a class of its own (whose forward is the known one), or as a Sequential.
    let classed = !forward::sequential(&m.class)
        && !children.is_empty()
        && children.iter().all(|c| plain_attribute(&c.name));
    if let Some(k) = known.as_ref().filter(|_| classed) {
        out.placeholders
            .extend(k.placeholders.iter().map(|p| path_of(path, p)));
    }
    // Its containers first.
    let mut items: Vec<(String, usize, String, String)> = Vec::with_capacity(children.len());
    for c in children {
        let at = path_of(path, &c.name);
        let expr = match &c.body {
            Body::Leaf { args } => leaf_expression(out, used, c, args, &at, cx.fixes)?,
            // A layer whose extra_repr spans lines: its lines are its arguments.
            Body::Container { children, extra }
                if children.is_empty() && !extra.is_empty() && known_layer(&c.class) =>
            {
                leaf_call(c, &extra.join(", "))?
            }
            Body::Container { .. } => {
                let list = known.as_ref().is_some_and(|k| k.lists.contains(&c.name));
                let inner = Context {
                    parent: Some(&m.class),
                    list,
                    ..cx
                };
                emit(out, used, c, &at, inner)?
            }
        };
        items.push((c.name.clone(), c.line, expr, printed_text(c)));
    }
    let var = variable(path, used);
    let positional = children
        .iter()
        .enumerate()
        .all(|(i, c)| c.name == i.to_string());
    if cx.list && positional {
        out.line(format!("{var} = nn.ModuleList(["), m.line, &printed);
        for (_, line, expr, text) in items {
            out.line(format!("    {expr},"), line, &text);
        }
        out.line("])".to_string(), m.line, &printed);
        return Ok(var);
    }
    if classed {
        let mut hidden = Vec::new();
        let (how, body, params) = match known {
            Some(k) => {
                hidden = k.hidden;
                (
                    How::Known {
                        what: k.what,
                        rule: k.rule,
                    },
                    k.body,
                    k.params,
                )
            }
            None => {
                let mut body = Vec::new();
                for c in children {
                    if cx.fixes.flatten.contains(&path_of(path, &c.name)) {
                        body.push(format!("x = torch.flatten(x, 1)  # -> {}", c.name));
                    }
                    body.push(format!("x = self.{}(x)", c.name));
                }
                body.push("return x".to_string());
                (How::Order, body, "x")
            }
        };
        let comment = match &how {
            How::Order => format!(
                "{}: its forward is not in the printout: its children in printed order",
                m.class
            ),
            How::Known { what, .. } => format!("{}: the forward of {what}", m.class),
        };
        out.owners.insert(
            path.to_string(),
            Owner {
                class: m.class.clone(),
                how,
                classed: true,
            },
        );
        let class = variable(&format!("{} {path}", m.class), used);
        out.line(
            format!("class {class}(nn.Module):  # {comment}"),
            m.line,
            &printed,
        );
        out.line("    def __init__(self):".into(), m.line, &printed);
        out.line("        super().__init__()".into(), m.line, &printed);
        for (name, line, expr, text) in items {
            out.line(format!("        self.{name} = {expr}"), line, &text);
        }
        for (name, expr, said) in hidden {
            let statement = format!("self.{name} = {expr}");
            out.line(format!("        {statement}"), m.line, &statement);
            out.said.insert(path_of(path, &name), said);
        }
        out.line(
            format!("    def forward(self, {params}):"),
            m.line,
            &printed,
        );
        for statement in body {
            if let Some((code, child)) = statement.split_once("  # -> ") {
                out.flattens
                    .insert(out.origin.len() + 1, path_of(path, child));
                out.line(format!("        {code}"), m.line, code);
            } else {
                out.line(format!("        {statement}"), m.line, statement.trim());
            }
        }
        out.line(format!("{var} = {class}()"), m.line, &printed);
        return Ok(var);
    }
    let comment = if m.class == "Sequential" {
        String::new()
    } else if forward::sequential(&m.class) {
        // A subclass torchvision writes only to fill an nn.Sequential: still said, as a class of
        // the same name could be a module of another forward.
        out.owners.insert(
            path.to_string(),
            Owner {
                class: m.class.clone(),
                how: How::Known {
                    what: format!("torchvision's {} (an nn.Sequential subclass)", m.class),
                    rule: "its children in order".into(),
                },
                classed: false,
            },
        );
        format!(
            "  # {}: torchvision's nn.Sequential subclass: its children in order",
            m.class
        )
    } else {
        out.owners.insert(
            path.to_string(),
            Owner {
                class: m.class.clone(),
                how: How::Order,
                classed: false,
            },
        );
        match m.class.as_str() {
            "ModuleList" | "ModuleDict" => format!(
                "  # {}: no forward of its own (its owner's is not printed): its children in printed order",
                m.class
            ),
            c => format!(
                "  # {c}: its forward is not in the printout: its children in printed order"
            ),
        }
    };
    if items.is_empty() {
        out.line(
            format!("{var} = nn.Sequential(){comment}"),
            m.line,
            &printed,
        );
        return Ok(var);
    }
    let (open, close) = if positional {
        ("nn.Sequential(", ")")
    } else {
        ("nn.Sequential(OrderedDict([", "]))")
    };
    out.line(format!("{var} = {open}{comment}"), m.line, &printed);
    for (name, line, expr, text) in items {
        let item = if positional {
            format!("    {expr},")
        } else {
            format!("    ({name:?}, {expr}),")
        };
        out.line(item, line, &text);
    }
    out.line(close.to_string(), m.line, &printed);
    Ok(var)
}

/// The Python that rebuilds the printed `root`, with what a first trace decided.
fn rebuild(root: &Module, fixes: &Fixes) -> Result<Rebuilt, ReadError> {
    let mut out = Rebuilt {
        code: String::new(),
        origin: Vec::new(),
        owners: HashMap::new(),
        flattens: HashMap::new(),
        said: HashMap::new(),
        implicit: HashSet::new(),
        placeholders: HashSet::new(),
    };
    let header = [
        format!(
            "# `{}` rebuilt from its printout (`print(model)`): each layer the constructor torch printed,",
            root.class
        ),
        "# each Sequential an nn.Sequential of its children under their printed names, each other"
            .to_string(),
        "# module a class whose forward is the one padlab knows for it, or its children in order."
            .to_string(),
        "import torch".to_string(),
        "import torch.nn as nn".to_string(),
        "import torch.nn.functional as F".to_string(),
        "from collections import OrderedDict".to_string(),
        String::new(),
    ];
    for h in header {
        out.line(h, 0, "");
    }
    let cx = Context {
        parent: None,
        list: false,
        fixes,
    };
    emit(&mut out, &mut HashSet::new(), root, "", cx)?;
    Ok(out)
}

/// The element-wise layers a flatten may move past (their output is their input's shape).
fn elementwise(kind: &str) -> bool {
    matches!(
        kind,
        "Dropout"
            | "Dropout1d"
            | "Dropout2d"
            | "Dropout3d"
            | "AlphaDropout"
            | "ReLU"
            | "ReLU6"
            | "LeakyReLU"
            | "PReLU"
            | "ELU"
            | "SELU"
            | "CELU"
            | "GELU"
            | "SiLU"
            | "Mish"
            | "Tanh"
            | "Sigmoid"
            | "Hardswish"
            | "Hardsigmoid"
            | "Hardtanh"
            | "Identity"
    )
}

/// The children (by path) of modules run in printed order whose linear layer reads a feature
/// map it declares the values of — torch's forward flattens it first (`torch.flatten(x, 1)`,
/// `x.view(x.size(0), -1)`): the flatten goes before that child, where nothing but element-wise
/// layers come between it and the linear layer.
fn flatten_points(
    graph: &crate::model::graph::Graph,
    owners: &HashMap<String, Owner>,
) -> HashSet<String> {
    let mut out = HashSet::new();
    for (i, node) in graph.nodes.iter().enumerate() {
        let Op::Dense {
            in_features: Some(declared),
            ..
        } = &node.op
        else {
            continue;
        };
        let Some(received) = node.inputs.first().and_then(|e| graph.shape_of(*e)) else {
            continue;
        };
        let Some(sample) = received.get(1..) else {
            continue;
        };
        if sample.len() < 2
            || sample.last() == Some(declared)
            || crate::model::shape::elements(sample) != Some(*declared)
        {
            continue;
        }
        let Some((owner, _)) = owner_of(&node.name, owners) else {
            continue;
        };
        if !owners[&owner].classed || owners[&owner].how != How::Order {
            continue;
        }
        let rest = if owner.is_empty() {
            node.name.as_str()
        } else {
            &node.name[owner.len() + 1..]
        };
        let child = path_of(&owner, rest.split('.').next().unwrap_or(rest));
        let inside = |n: &crate::model::graph::Node| {
            n.name == child || n.name.starts_with(&format!("{child}."))
        };
        let Some(first) = graph.nodes[..=i].iter().position(inside) else {
            continue;
        };
        let between_elementwise = graph.nodes[first..i]
            .iter()
            .all(|n| inside(n) && elementwise(&n.kind));
        let same_input = graph.nodes[first]
            .inputs
            .first()
            .and_then(|e| graph.shape_of(*e))
            == Some(received);
        if between_elementwise && same_input {
            out.insert(child);
        }
    }
    out
}

/// Reads the printout whose root is on line `start` of `text` into a model.
pub fn read(text: &str, start: usize, options: &Options) -> Result<Model, ReadError> {
    let (root, _end) = parse(text, start)?;
    let mut fixes = Fixes::default();
    let (mut rebuilt, mut reading) = trace(&root, start, options, &fixes)?;
    // What each trace shows decides the next: a flatten before a classifier, then the rank of
    // a softmax that classifier feeds (three traces at most).
    for _ in 0..2 {
        let g = &reading.graph;
        let mut next = Fixes {
            flatten: flatten_points(g, &rebuilt.owners),
            ranks: rebuilt
                .implicit
                .iter()
                .filter_map(|path| {
                    let node = g.nodes.iter().find(|n| n.name == *path)?;
                    Some((path.clone(), g.shape_of(*node.inputs.first()?)?.len()))
                })
                .collect(),
        };
        next.flatten.extend(fixes.flatten.iter().cloned());
        if next == fixes {
            break;
        }
        fixes = next;
        (rebuilt, reading) = trace(&root, start, options, &fixes)?;
    }
    let mut graph = reading.graph;
    graph.name = root.class.clone();
    for i in 0..graph.nodes.len() {
        let received = graph.nodes[i]
            .inputs
            .first()
            .and_then(|e| graph.shape_of(*e))
            .cloned();
        let node = &mut graph.nodes[i];
        if matches!(node.op, Op::Input) {
            continue;
        }
        let generated = node.source.line;
        if let Some((line, printed)) = rebuilt.origin.get(generated.wrapping_sub(1)) {
            node.source.line = *line;
            node.source.text = printed.clone();
        }
        node.source.call_line = None;
        let said = rebuilt.said.get(&node.name).or_else(|| {
            let (scope, _) = node.name.rsplit_once('.')?;
            rebuilt.said.get(scope)
        });
        if let Some(said) = said {
            node.inferred.flags.push(Flag::Assumed(said.clone()));
        } else if rebuilt.implicit.contains(&node.name) && node.inferred.error.is_none() {
            node.inferred.error = Some(format!(
                "{}: printed `dim=None`, torch picks the axis from the input's rank, which padlab does not know here",
                node.source.text
            ));
        }
        if let Some(child) = rebuilt.flattens.get(&generated) {
            node.inferred.flags.push(Flag::Assumed(format!(
                "a flatten before `{child}`, as torch's forward does (`torch.flatten(x, 1)`): the linear layer it feeds declares as many input features as this map holds values; the printout does not show it"
            )));
        }
        if let Some((path, owner)) = owner_of(&node.name, &rebuilt.owners) {
            let what = if path.is_empty() {
                format!("`{}`", owner.class)
            } else {
                format!("`{path}` ({})", owner.class)
            };
            match &owner.how {
                How::Order => {
                    node.inferred.flags.push(Flag::Assumed(format!(
                        "the printed order of {what}: a printout does not show its forward"
                    )));
                    if let Some(e) = node.inferred.error.take() {
                        node.inferred.error = Some(format!(
                            "{e} — traced in printed order: the printout does not show the forward of {what}, and padlab does not know it{}: paste its code",
                            flatten_hint(&node.op, received.as_deref()).unwrap_or_default()
                        ));
                    }
                }
                How::Known { what: whose, rule } => {
                    node.inferred.flags.push(Flag::Assumed(format!(
                        "the forward of {whose} for {what}, known by its class and children: {rule} (a printout does not show forward: if yours differs, paste its code)"
                    )));
                    if let Some(e) = node.inferred.error.take() {
                        node.inferred.error = Some(format!(
                            "{e} — traced through the forward of {whose}, which padlab took {what} for by its class and children: if its forward differs, paste its code"
                        ));
                    }
                }
            }
        }
        hidden_defaults(node);
    }
    if rebuilt.owners.get("").is_some_and(|o| o.how == How::Order) {
        let outputs: Vec<usize> = graph.outputs.iter().map(|e| e.node.0).collect();
        for i in outputs {
            if let Some(node) = graph.nodes.get_mut(i) {
                node.inferred.flags.push(Flag::Assumed(format!(
                    "the model's output is `{}`'s last child's: a printout does not show what its forward does after it (a softmax, a `view`, a second output)",
                    root.class
                )));
            }
        }
    }
    for (i, why) in not_chains(&root, &graph, &rebuilt.owners) {
        let node = &mut graph.nodes[i];
        node.inferred.error = Some(match node.inferred.error.take() {
            Some(e) => format!("{e}; and {why}"),
            None => why,
        });
    }
    graph.notes.insert(0, order_note(&root, &rebuilt.owners));
    Ok(Model {
        graph,
        input: reading.input,
        origin: Origin::Code {
            code: rebuilt.code,
            build: "model".into(),
            defined: Vec::new(),
            zoos: Vec::new(),
        },
        others: Vec::new(),
        params: reading.params,
    })
}

/// The module at `path` below `root` (`""`: the root).
fn module_at<'a>(root: &'a Module, path: &str) -> Option<&'a Module> {
    if path.is_empty() {
        return Some(root);
    }
    let mut m = root;
    for name in path.split('.') {
        let Body::Container { children, .. } = &m.body else {
            return None;
        };
        m = children.iter().find(|c| c.name == name)?;
    }
    Some(m)
}

/// Whether a child's name says it is a path beside the others (a residual's shortcut, a
/// branch), not a step after them: `downsample` only when it is not the first child (a U-Net's
/// `Down` block starts with a `downsample` pool).
fn parallel_name(name: &str, first: bool) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "shortcut", "skip", "residual", "identity", "branch", "bypass",
    ]
    .iter()
    .any(|p| n.starts_with(p))
        || (n.starts_with("downsample") && !first)
}

/// The last leaf printed under `m` (itself, for a leaf).
fn last_leaf(m: &Module) -> &Module {
    match &m.body {
        Body::Container { children, .. } => children.last().map_or(m, last_leaf),
        Body::Leaf { .. } => m,
    }
}

/// torch.nn's activations, as printed.
fn activation(class: &str) -> bool {
    matches!(
        class,
        "ReLU"
            | "ReLU6"
            | "LeakyReLU"
            | "PReLU"
            | "RReLU"
            | "ELU"
            | "SELU"
            | "CELU"
            | "GELU"
            | "SiLU"
            | "Mish"
            | "Tanh"
            | "Sigmoid"
            | "Hardswish"
            | "Hardsigmoid"
            | "Hardtanh"
            | "Softplus"
            | "Softsign"
            | "LogSigmoid"
            | "Tanhshrink"
    )
}

/// The first run of three or more convolutions and linear layers among `children` with no
/// activation printed between them (norms, pools, dropouts and the like may come between; a
/// container or an activation ends a run): a network that deep without a nonlinearity is not
/// one, so its forward applies activations the printout does not show.
fn bare_run(children: &[Module]) -> Option<Vec<&Module>> {
    let mut run: Vec<&Module> = Vec::new();
    for c in children {
        let weighted = matches!(c.body, Body::Leaf { .. })
            && (c.class.contains("Conv") || c.class.ends_with("Linear"));
        if weighted {
            run.push(c);
        } else if activation(&c.class) || matches!(c.body, Body::Container { .. }) {
            if run.len() >= 3 {
                return Some(run);
            }
            run.clear();
        }
    }
    (run.len() >= 3).then_some(run)
}

/// Modules run in printed order whose children are rarely a chain, each as an error on a row
/// (the node's index and the words) asking for the code: a child named as a parallel path (on
/// its first row, or the module's last when it runs nothing); three or more layers with no
/// activation printed between them (on the first one's row); and a squeeze-excitation — a pool
/// to 1 and a gate, so that the printed order returns a per-channel scale of the module's own
/// input, which its forward would multiply the input by (on the gate's row). The shapes may
/// chain all the same: without these, such a model would be read, ported and self-checked, and
/// wrong. (A module of one child that keeps its input's shape may add its input too, but so do
/// a U-Net's DoubleConv and every image-to-image generator without one: nothing is said.)
fn not_chains(
    root: &Module,
    graph: &crate::model::graph::Graph,
    owners: &HashMap<String, Owner>,
) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut ordered: Vec<(&String, &Owner)> =
        owners.iter().filter(|(_, o)| o.how == How::Order).collect();
    ordered.sort_by(|a, b| a.0.cmp(b.0));
    for (path, owner) in ordered {
        let Some(m) = module_at(root, path) else {
            continue;
        };
        let Body::Container { children, .. } = &m.body else {
            continue;
        };
        let under = |n: &crate::model::graph::Node, p: &str| {
            !matches!(n.op, Op::Input)
                && (p.is_empty() || n.name == p || n.name.starts_with(&format!("{p}.")))
        };
        let what = if path.is_empty() {
            format!("`{}`", owner.class)
        } else {
            format!("`{path}` ({})", owner.class)
        };
        let last = graph.nodes.iter().rposition(|n| under(n, path));
        for (k, c) in children.iter().enumerate() {
            if children.len() < 2 || !parallel_name(&c.name, k == 0) {
                continue;
            }
            let child = path_of(path, &c.name);
            let Some(at) = graph.nodes.iter().position(|n| under(n, &child)).or(last) else {
                continue;
            };
            out.push((
                at,
                format!(
                    "`{}` is named as a path beside its siblings (a shortcut, skip, residual, identity or branch), and a forward rarely chains such paths one after another as the printed order of {what} does: padlab does not know its forward: paste its code",
                    c.name
                ),
            ));
            break;
        }
        // Layers with no activation printed between them: the forward applies its own
        // (`F.relu`, or one module called after several layers).
        if let Some(run) = bare_run(children) {
            let names: Vec<&str> = run.iter().map(|c| c.name.as_str()).collect();
            let first = path_of(path, names[0]);
            if let Some(at) = graph.nodes.iter().position(|n| under(n, &first)) {
                out.push((
                    at,
                    format!(
                        "{what} prints its layers {} with no activation between them: its forward applies its own (`F.relu`, or one activation module called after several of them), which the printed order does not; padlab does not know its forward: paste its code",
                        names.join(", ")
                    ),
                ));
                continue;
            }
        }
        // A squeeze-excitation: a pool to 1 and a gate last.
        let gate = matches!(last_leaf(m).class.as_str(), "Sigmoid" | "Hardsigmoid");
        let pools = children.iter().any(|c| {
            c.class.starts_with("Adaptive")
                && matches!(&c.body, Body::Leaf { args } if {
                    let a: String = args.chars().filter(|c| !c.is_whitespace()).collect();
                    matches!(a.as_str(), "output_size=1" | "1" | "output_size=(1,1)" | "(1,1)" | "output_size=(1,1,1)" | "(1,1,1)")
                })
        });
        let (Some(first), Some(last)) = (graph.nodes.iter().position(|n| under(n, path)), last)
        else {
            continue;
        };
        let into = graph.nodes[first]
            .inputs
            .first()
            .and_then(|e| graph.shape_of(*e));
        let from = graph.nodes[last]
            .inferred
            .outputs
            .first()
            .and_then(|s| s.as_ref());
        let squeezed = match (into, from) {
            (Some(i), Some(o)) => {
                i.len() == o.len()
                    && i.len() > 2
                    && i[1] == o[1]
                    && o[2..].iter().all(|&d| d == 1)
                    && i[2..].iter().any(|&d| d > 1)
            }
            _ => false,
        };
        if gate && pools && squeezed {
            out.push((
                last,
                format!(
                    "{what} looks like a squeeze-excitation (a pool to 1, then a gate): in printed order it returns the gate, a scale per channel of its own input, which its forward most likely multiplies the input by; padlab does not know its forward: paste its code"
                ),
            ));
        }
    }
    out
}

/// Rebuilds the printout as code (with what a first trace decided) and reads it.
fn trace(
    root: &Module,
    start: usize,
    options: &Options,
    fixes: &Fixes,
) -> Result<(Rebuilt, code::read::Reading), ReadError> {
    let rebuilt = rebuild(root, fixes)?;
    if rebuilt.code.len() > code::read::MAX_PASTE {
        return Err(error(
            start,
            format!(
                "the printout rebuilds as {} bytes of code: padlab reads up to {}",
                rebuilt.code.len(),
                code::read::MAX_PASTE
            ),
        ));
    }
    let at = |line: usize| -> usize {
        rebuilt
            .origin
            .get(line.wrapping_sub(1))
            .map(|(l, _)| *l)
            .filter(|&l| l > 0)
            .unwrap_or(start)
    };
    let reading = code::read(
        &rebuilt.code,
        &Options {
            input: options.input.clone(),
            model: None,
        },
    )
    .map_err(|e| ReadError {
        line: if e.line == 0 { 0 } else { at(e.line) },
        message: e.message,
    })?;
    // Every statement of the rebuilt code must run: a module that failed is the error (the
    // reader would otherwise pick another model the code built, a part of this one).
    let failed = reading.graph.notes.iter().find_map(|n| {
        let (line, rest) = n.strip_prefix("line ")?.split_once(": not evaluated: ")?;
        Some((line.parse::<usize>().ok()?, rest.to_string()))
    });
    if let Some((line, message)) = failed {
        return Err(error(at(line), message));
    }
    if reading.build != "model" {
        return Err(error(start, "the printout's model was not built"));
    }
    Ok((rebuilt, reading))
}

/// The innermost module above `path` whose forward the printout does not show: its path and
/// how it was run.
fn owner_of<'a>(path: &str, owners: &'a HashMap<String, Owner>) -> Option<(String, &'a Owner)> {
    let mut scope = path;
    loop {
        scope = match scope.rfind('.') {
            Some(i) => &scope[..i],
            None if !scope.is_empty() => "",
            None => return None,
        };
        if let Some(owner) = owners.get(scope) {
            return Some((scope.to_string(), owner));
        }
    }
}

/// For a linear layer that gets a feature map whose values it declares: the forward, which
/// the printout does not show, may flatten the map first.
fn flatten_hint(op: &Op, received: Option<&[i64]>) -> Option<String> {
    let Op::Dense {
        in_features: Some(declared),
        ..
    } = op
    else {
        return None;
    };
    let x = received?;
    let sample = x.get(1..)?;
    (sample.len() > 1 && crate::model::shape::elements(sample) == Some(*declared)).then(|| {
        format!(
            " (its {declared} input features are the {sample:?} map's values: the forward may flatten it first)"
        )
    })
}

/// What torch does not print and padlab assumes: an average pool's `ceil_mode` and
/// `count_include_pad`, an upsampling's `align_corners`, where they could matter.
fn hidden_defaults(node: &mut crate::model::graph::Node) {
    match &node.op {
        // A printed AvgPool layer's (a known forward's `F.avg_pool2d` passes what it passes).
        Op::Pool(spec)
            if spec.op == crate::core::Op::AvgPool && node.kind.starts_with("AvgPool") =>
        {
            let padded = node
                .inferred
                .answer
                .as_ref()
                .is_some_and(|a| a.axes.iter().any(|x| x.before != 0 || x.after != 0))
                || !matches!(spec.padding, Some(crate::core::Padding::All(0)) | None);
            let ceil_differs = node.inferred.spec.as_ref().is_some_and(|s| {
                let mut c = s.clone();
                c.ceil_mode = Some(true);
                match (crate::core::evaluate(s), crate::core::evaluate(&c)) {
                    (Ok(a), Ok(b)) => a.output() != b.output(),
                    _ => false,
                }
            });
            let mut hidden = Vec::new();
            if ceil_differs {
                hidden.push("ceil_mode=False");
            }
            if padded {
                hidden.push("count_include_pad=True");
            }
            if !hidden.is_empty() {
                node.inferred.flags.push(Flag::Assumed(format!(
                    "{}, torch's default{}: an AvgPool's printout does not show it",
                    hidden.join(" and "),
                    if hidden.len() > 1 { "s" } else { "" }
                )));
            }
        }
        Op::Upsample {
            mode: crate::model::op::Interpolation::Linear | crate::model::op::Interpolation::Bicubic,
            ..
        } if node.kind == "Upsample" => {
            node.inferred.flags.push(Flag::Assumed(
                "align_corners=False, torch's default: an Upsample's printout does not show it"
                    .into(),
            ));
        }
        _ => {}
    }
}

/// `A x2, B` from class names.
fn class_list(classes: Vec<&str>) -> String {
    let mut sorted = classes;
    sorted.sort();
    let mut counted: Vec<(&str, usize)> = Vec::new();
    for c in sorted {
        match counted.last_mut() {
            Some((last, n)) if *last == c => *n += 1,
            _ => counted.push((c, 1)),
        }
    }
    let mut list = String::new();
    for (i, (c, n)) in counted.iter().enumerate() {
        if i > 0 {
            list.push_str(", ");
        }
        let _ = write!(list, "{c}");
        if *n > 1 {
            let _ = write!(list, " x{n}");
        }
    }
    list
}

/// `3 modules (A, B x2) are` (or `1 module (A) is`) and `their` (or `its`), for a note.
fn modules(classes: &[&str]) -> (String, &'static str) {
    let one = classes.len() == 1;
    let subject = format!(
        "{} module{} ({}) {}",
        classes.len(),
        if one { "" } else { "s" },
        class_list(classes.to_vec()),
        if one { "is" } else { "are" },
    );
    (subject, if one { "its" } else { "their" })
}

/// The graph's note on the forwards it traced.
fn order_note(root: &Module, owners: &HashMap<String, Owner>) -> String {
    if owners.is_empty() {
        return format!(
            "Read from a printout of `print(model)`: `{}` and the modules in it are Sequentials, whose forward is their children in order.",
            root.class
        );
    }
    let known: Vec<&str> = owners
        .values()
        .filter(|o| matches!(o.how, How::Known { .. }))
        .map(|o| o.class.as_str())
        .collect();
    let ordered: Vec<&str> = owners
        .values()
        .filter(|o| o.how == How::Order)
        .map(|o| o.class.as_str())
        .collect();
    let mut note =
        "Read from a printout of `print(model)`, which does not show `forward`.".to_string();
    if !known.is_empty() {
        let (subject, its) = modules(&known);
        let _ = write!(
            note,
            " {subject} run by the forward padlab knows for {its} class, recognised by the class name and the printed children (their rows name it): if yours differs, paste the code."
        );
    }
    if !ordered.is_empty() {
        let (subject, its) = modules(&ordered);
        let _ = write!(
            note,
            " {subject} not a Sequential and not one padlab knows, so padlab ran {its} children in the printed order (their rows say so), flattening only before a linear layer that declares a map's values as its features (said on that row). Where that is not what the forward does (a residual added, a branch), a row's error shows where the order breaks, or why the children are rarely a chain (a path named as a shortcut or branch, layers with no activation between them, a squeeze-excitation)."
        );
    }
    if owners.get("").is_some_and(|o| o.how == How::Order) {
        let _ = write!(
            note,
            " Nor does a printout show what `{}`'s forward does after its last child (a softmax, a `view`, a second output): the model's output is its last child's.",
            root.class
        );
    }
    note
}
