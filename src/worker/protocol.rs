//! Messages between the web app and the code-generator worker: plain text, so the app needs
//! neither the generator, the model reader, plotters nor a JSON library to speak it.
//!
//! A message is a kind letter and an id on the first line, then its fields. A reply carries the
//! request's id (the app drops stale ones) and named records, each `ok` with its text or `err`
//! with the reason.

use crate::codegen::Options;
use crate::core::Framework;

const FIELD: char = '\u{1e}';
const RECORD: char = '\u{1f}';

/// What the app asks the worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// One layer (its permalink query): the code for every target, the input-size plot, and
    /// the panels below the picture (the arithmetic, the framework table, the paddings that give
    /// the `want`ed output size, when one is typed).
    Layer {
        id: u64,
        options: Options,
        /// The dimension the plot sweeps (`None`: the one that matters).
        sweep: Option<usize>,
        /// The code tab shown.
        selected: Framework,
        want: String,
        query: String,
    },
    /// A pasted model: its table, its port to every target (with `check`, the scripts) and
    /// the link that restores it.
    Model {
        id: u64,
        check: bool,
        /// The code tab shown.
        selected: Framework,
        /// One sample's input shape as typed (empty: the code's own).
        input: String,
        source: String,
    },
    /// A pasted layer call for the single-layer form; `current` is the form's query (its
    /// input size is kept when the ranks match).
    PasteLayer {
        id: u64,
        text: String,
        current: String,
    },
    /// A model link's fragment to read back.
    Unpack { id: u64, fragment: String },
}

/// Each target's code, or why there is none.
pub type Snippets = Vec<(Framework, Result<String, String>)>;

/// The input-size plot: `(summary, svg)`, or why there is none.
pub type Plot = Result<(String, String), String>;

/// The panels below the picture, as markup (empty: nothing to show).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Panels {
    pub formula: String,
    pub comparison: String,
    pub inverse: String,
    /// The code tabs' panels (`view::panels::code_tabs`).
    pub code: String,
    /// The plot's body (`view::panels::plot`).
    pub plot: String,
}

impl Panels {
    /// Each panel's record name and markup, in a fixed order.
    fn named(&self) -> [(&'static str, &String); 5] {
        [
            ("formula", &self.formula),
            ("comparison", &self.comparison),
            ("inverse", &self.inverse),
            ("code", &self.code),
            ("plot", &self.plot),
        ]
    }
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Layer {
        id: u64,
        panels: Panels,
    },
    Model {
        id: u64,
        /// The view's output (`view::model::output`): the code per target (the self-check
        /// scripts when asked) and the layer table, or why the paste cannot be read.
        markup: String,
        /// The URL fragment that restores the paste and its input.
        fragment: String,
    },
    /// The pasted layer as a permalink query.
    PasteLayer {
        id: u64,
        result: Result<String, String>,
    },
    /// A model link read back: (input, source).
    Unpack {
        id: u64,
        result: Result<(String, String), String>,
    },
}

impl Reply {
    pub fn id(&self) -> u64 {
        match self {
            Reply::Layer { id, .. }
            | Reply::Model { id, .. }
            | Reply::PasteLayer { id, .. }
            | Reply::Unpack { id, .. } => *id,
        }
    }
}

fn flags(options: &Options) -> String {
    [
        (options.check, 'c'),
        (options.export_safe, 'e'),
        (options.functional, 'f'),
    ]
    .iter()
    .filter_map(|&(on, c)| on.then_some(c))
    .collect()
}

fn read_flags(text: &str) -> Options {
    Options {
        check: text.contains('c'),
        export_safe: text.contains('e'),
        functional: text.contains('f'),
    }
}

impl Request {
    /// The message text.
    pub fn encode(&self) -> String {
        match self {
            Request::Layer {
                id,
                options,
                sweep,
                selected,
                want,
                query,
            } => format!(
                "L{id}\n{}{}\n{}\n{}\n{query}",
                flags(options),
                sweep.map_or(String::new(), |d| d.to_string()),
                selected.name(),
                want.replace('\n', " ")
            ),
            Request::Model {
                id,
                check,
                selected,
                input,
                source,
            } => format!(
                "M{id}\n{}{}\n{}\n{source}",
                if *check { "c" } else { "" },
                selected.name(),
                input.replace('\n', " ")
            ),
            Request::PasteLayer { id, text, current } => {
                format!("P{id}\n{}\n{text}", current.replace('\n', " "))
            }
            Request::Unpack { id, fragment } => format!("U{id}\n{fragment}"),
        }
    }

    /// A message text read back; `None` when it is not a request.
    pub fn decode(text: &str) -> Option<Request> {
        let (head, rest) = text.split_once('\n').unwrap_or((text, ""));
        let kind = head.chars().next()?;
        // A request without a readable id still gets a readable reply (id 0).
        let id: u64 = head.get(1..).and_then(|d| d.parse().ok()).unwrap_or(0);
        Some(match kind {
            'L' => {
                let mut parts = rest.splitn(4, '\n');
                let flags = parts.next().unwrap_or("");
                let options = read_flags(flags);
                let digits: String = flags.chars().filter(char::is_ascii_digit).collect();
                let sweep = digits.parse().ok();
                let selected = parts
                    .next()
                    .unwrap_or("")
                    .parse()
                    .unwrap_or(Framework::Torch);
                let want = parts.next().unwrap_or("").to_string();
                Request::Layer {
                    id,
                    options,
                    sweep,
                    selected,
                    want,
                    query: parts.next().unwrap_or("").to_string(),
                }
            }
            'M' => {
                let mut parts = rest.splitn(3, '\n');
                let flags = parts.next().unwrap_or("");
                let (check, selected) = match flags.strip_prefix('c') {
                    Some(name) => (true, name),
                    None => (false, flags),
                };
                let input = parts.next().unwrap_or("").to_string();
                let source = parts.next().unwrap_or("").to_string();
                Request::Model {
                    id,
                    check,
                    selected: selected.parse().unwrap_or(Framework::Torch),
                    input,
                    source,
                }
            }
            'P' => {
                let (current, text) = rest.split_once('\n').unwrap_or((rest, ""));
                Request::PasteLayer {
                    id,
                    text: text.to_string(),
                    current: current.to_string(),
                }
            }
            'U' => Request::Unpack {
                id,
                fragment: rest.trim().to_string(),
            },
            _ => return None,
        })
    }
}

fn record(out: &mut String, name: &str, value: &Result<String, String>) {
    let (tag, text) = match value {
        Ok(t) => ("ok", t.as_str()),
        Err(t) => ("err", t.as_str()),
    };
    out.push_str(name);
    out.push(FIELD);
    out.push_str(tag);
    out.push(FIELD);
    out.push_str(text);
    out.push(RECORD);
}

fn records(text: &str) -> impl Iterator<Item = (&str, Result<String, String>)> {
    text.split(RECORD).filter_map(|r| {
        let mut parts = r.splitn(3, FIELD);
        let (name, tag, text) = (parts.next()?, parts.next()?, parts.next()?);
        let text = text.to_string();
        Some((name, if tag == "ok" { Ok(text) } else { Err(text) }))
    })
}

impl Reply {
    /// The message text.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        match self {
            Reply::Layer { id, panels } => {
                out.push_str(&format!("L{id}\n"));
                for (name, markup) in panels.named() {
                    record(&mut out, name, &Ok(markup.clone()));
                }
            }
            Reply::Model {
                id,
                markup,
                fragment,
            } => {
                out.push_str(&format!("M{id}\n"));
                record(&mut out, "markup", &Ok(markup.clone()));
                record(&mut out, "fragment", &Ok(fragment.clone()));
            }
            Reply::PasteLayer { id, result } => {
                out.push_str(&format!("P{id}\n"));
                record(&mut out, "layer", result);
            }
            Reply::Unpack { id, result } => {
                out.push_str(&format!("U{id}\n"));
                let joined = result
                    .as_ref()
                    .map(|(input, source)| format!("{input}\n{source}"))
                    .map_err(Clone::clone);
                record(&mut out, "model", &joined);
            }
        }
        out
    }

    /// A reply text read back; `None` when it is not one.
    pub fn decode(text: &str) -> Option<Reply> {
        let (head, rest) = text.split_once('\n')?;
        let kind = head.chars().next()?;
        let id: u64 = head.get(1..)?.parse().ok()?;
        Some(match kind {
            'L' => {
                let mut panels = Panels::default();
                for (name, value) in records(rest) {
                    let markup = value.unwrap_or_default();
                    match name {
                        "formula" => panels.formula = markup,
                        "comparison" => panels.comparison = markup,
                        "inverse" => panels.inverse = markup,
                        "code" => panels.code = markup,
                        "plot" => panels.plot = markup,
                        _ => {}
                    }
                }
                Reply::Layer { id, panels }
            }
            'M' => {
                let (mut markup, mut fragment) = (String::new(), String::new());
                for (name, value) in records(rest) {
                    match name {
                        "markup" => markup = value.unwrap_or_default(),
                        "fragment" => fragment = value.unwrap_or_default(),
                        _ => {}
                    }
                }
                Reply::Model {
                    id,
                    markup,
                    fragment,
                }
            }
            'P' => Reply::PasteLayer {
                id,
                result: records(rest)
                    .find(|(n, _)| *n == "layer")
                    .map_or(Err("No layer in the reply.".into()), |(_, v)| v),
            },
            'U' => Reply::Unpack {
                id,
                result: records(rest)
                    .find(|(n, _)| *n == "model")
                    .map_or(Err("No model in the reply.".into()), |(_, v)| v)
                    .map(|t| match t.split_once('\n') {
                        Some((input, source)) => (input.to_string(), source.to_string()),
                        None => (String::new(), t),
                    }),
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_replies_round_trip() {
        let checked = Request::Model {
            id: 11,
            check: true,
            selected: Framework::Jax,
            input: String::new(),
            source: "x".into(),
        };
        assert_eq!(Request::decode(&checked.encode()), Some(checked));
        for request in [
            Request::Layer {
                id: 7,
                options: Options {
                    check: true,
                    ..Options::default()
                },
                sweep: Some(1),
                selected: Framework::Tf,
                want: "100x20".into(),
                query: "op=conv&fw=keras&in=100x20&k=4x1&p=same".into(),
            },
            Request::Model {
                id: 8,
                check: false,
                selected: Framework::Keras,
                input: "32x32x3".into(),
                source: "model = Sequential()\nmodel.add(Conv2D(8, 3))\n".into(),
            },
            Request::PasteLayer {
                id: 9,
                text: "nn.Conv2d(32, 32, (4, 1),\n  padding=(1, 0))".into(),
                current: "op=conv&fw=torch&in=6x6&k=5".into(),
            },
            Request::Unpack {
                id: 10,
                fragment: "N4Ig".into(),
            },
        ] {
            assert_eq!(Request::decode(&request.encode()), Some(request));
        }
        let replies = [
            Reply::Layer {
                id: 3,
                panels: Panels {
                    formula: "<dl></dl>".into(),
                    comparison: String::new(),
                    inverse: "<ul></ul>".into(),
                    code: "<pre>import torch\n</pre>".into(),
                    plot: "<svg/>".into(),
                },
            },
            Reply::Model {
                id: 4,
                markup: "<table></table>".into(),
                fragment: "abc".into(),
            },
            Reply::PasteLayer {
                id: 5,
                result: Err("line 1: ...".into()),
            },
            Reply::Unpack {
                id: 6,
                result: Ok(("3x32x32".into(), "a\nb".into())),
            },
        ];
        for reply in replies {
            assert_eq!(Reply::decode(&reply.encode()), Some(reply));
        }
        assert_eq!(Reply::decode("nonsense"), None);
        assert_eq!(Request::decode(""), None);
    }
}
