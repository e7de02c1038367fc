//! Messages between the web app and the code-generator worker: plain text, so the app needs
//! neither the generator, the model reader, plotters nor a JSON library to speak it.
//!
//! A message is a kind letter, then its fields, the first its id; each field is its length in
//! bytes, `:`, and its text, so a field may hold any characters (a paste with control
//! characters, the old separators U+001E / U+001F, newlines) and comes back byte for byte. A
//! reply carries the request's id (the app drops stale ones); a result is `ok` or `err` and its
//! text. A model reply travels as its text's UTF-8 bytes in a transferred buffer (see
//! `bin/codegen_worker.rs`).

use crate::codegen::Options;
use crate::core::Framework;

/// The largest model file the page sends the worker (a 100 MB export fits; past this the
/// tab's memory is at risk, and the CLI reads the file instead). A larger file's request goes
/// without its bytes, and the worker says why.
pub const MAX_FILE_BYTES: u64 = 512 << 20;

/// What the app asks the worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// One layer (its permalink query): the code for every target, the input-size plot, and
    /// the panels below the picture (the arithmetic, the framework table, the paddings that give
    /// the `want`ed output size, when one is typed).
    Layer { id: u64, ask: LayerAsk },
    /// A pasted model: its table, its port to every target and the link that restores it.
    Model {
        id: u64,
        ask: ModelAsk,
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
    /// One of the example models (`view::model::PRESETS` id): its text and input, answered as
    /// a [`Reply::Unpack`] (the texts live in the worker, not in the page's first load).
    Preset { id: u64, preset: String },
    /// A model file chosen or dropped in the page: its table and ports (answered with a
    /// [`Reply::Model`] whose fragment is empty: a file never goes in a link). The file's bytes
    /// are not in the text: the `File` itself travels beside it (a handle: the page's thread
    /// never reads it) and the worker reads it a piece at a time; `size` frames them: the
    /// worker reads exactly that many bytes or answers that the file did not arrive whole.
    File {
        id: u64,
        ask: ModelAsk,
        /// The file's name, as the page shows it (never used to tell the format).
        name: String,
        /// The file's length in bytes.
        size: u64,
    },
}

/// What a layer request asks: the layer and what the panels below the picture show of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerAsk {
    /// The code's options (the code panel's toggles).
    pub options: Options,
    /// The dimension the plot sweeps (`None`: the one that matters).
    pub sweep: Option<usize>,
    /// The code tab shown.
    pub selected: Framework,
    /// The wanted output size typed in the inverse panel.
    pub want: String,
    /// The layer, as its permalink query.
    pub query: String,
}

/// What a model request asks besides the model itself (a paste's or a file's): the Model view's
/// fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelAsk {
    /// With the self-check scripts.
    pub check: bool,
    /// The code tab shown.
    pub selected: Framework,
    /// One sample's input shape as typed (empty: the model's own).
    pub input: String,
}

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
    /// Each panel's markup, in the order a reply carries them.
    fn in_order(&self) -> [&str; 5] {
        [
            &self.formula,
            &self.comparison,
            &self.inverse,
            &self.code,
            &self.plot,
        ]
    }
}

/// Markup to append to the element with id `into` (a `tbody` of rows to the table, a part of a
/// target's code to its code block).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Piece {
    pub into: String,
    pub markup: String,
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
        /// The view's output (`view::model::output`) without its rows and code: the tabs, the
        /// notices and the table's head, or why the paste cannot be read.
        markup: String,
        /// The rows and the code, in pieces the page appends one per frame (so a model of 500
        /// rows makes no long task).
        pieces: Vec<Piece>,
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

/// Writes a message: its kind letter, then each field as its length in bytes, `:` and the
/// field's text. No content can be taken for a separator: a field is read by its length.
struct Frame(String);

impl Frame {
    fn new(kind: char, id: u64) -> Frame {
        Frame(kind.to_string()).field(&id.to_string())
    }

    fn field(mut self, text: &str) -> Frame {
        self.0.push_str(&text.len().to_string());
        self.0.push(':');
        self.0.push_str(text);
        self
    }

    /// A model request's fields: the check flag, the tab, the input.
    fn ask(self, ask: &ModelAsk) -> Frame {
        self.field(if ask.check { "c" } else { "" })
            .field(ask.selected.name())
            .field(&ask.input)
    }

    /// A result as two fields: `ok` or `err`, then its text.
    fn result(self, value: &Result<String, String>) -> Frame {
        match value {
            Ok(text) => self.field("ok").field(text),
            Err(text) => self.field("err").field(text),
        }
    }
}

/// Reads a message [`Frame`] wrote: the kind letter and id, then fields in order.
struct Fields<'a>(&'a str);

impl<'a> Fields<'a> {
    /// `(kind, id, fields)`; `None` when the text is no message.
    fn open(text: &'a str) -> Option<(char, u64, Fields<'a>)> {
        let kind = text.chars().next()?;
        let mut fields = Fields(&text[kind.len_utf8()..]);
        let id = fields.next()?.parse().ok()?;
        Some((kind, id, fields))
    }

    fn next(&mut self) -> Option<&'a str> {
        let (length, rest) = self.0.split_once(':')?;
        let length: usize = length.parse().ok()?;
        let text = rest.get(..length)?;
        self.0 = &rest[length..];
        Some(text)
    }

    fn string(&mut self) -> Option<String> {
        self.next().map(str::to_string)
    }

    fn result(&mut self) -> Option<Result<String, String>> {
        let tag = self.next()?;
        let text = self.string()?;
        match tag {
            "ok" => Some(Ok(text)),
            "err" => Some(Err(text)),
            _ => None,
        }
    }

    fn ask(&mut self) -> Option<ModelAsk> {
        Some(ModelAsk {
            check: self.next()? == "c",
            selected: self.next()?.parse().ok()?,
            input: self.string()?,
        })
    }

    /// The message is read whole: nothing is left over.
    fn end<T>(&self, message: T) -> Option<T> {
        self.0.is_empty().then_some(message)
    }
}

impl Request {
    /// The message text.
    pub fn encode(&self) -> String {
        match self {
            Request::Layer { id, ask } => Frame::new('L', *id)
                .field(&flags(&ask.options))
                .field(&ask.sweep.map_or(String::new(), |d| d.to_string()))
                .field(ask.selected.name())
                .field(&ask.want)
                .field(&ask.query),
            Request::Model { id, ask, source } => Frame::new('M', *id).ask(ask).field(source),
            Request::PasteLayer { id, text, current } => {
                Frame::new('P', *id).field(current).field(text)
            }
            Request::Unpack { id, fragment } => Frame::new('U', *id).field(fragment),
            Request::Preset { id, preset } => Frame::new('E', *id).field(preset),
            Request::File {
                id,
                ask,
                name,
                size,
            } => Frame::new('F', *id)
                .ask(ask)
                .field(name)
                .field(&size.to_string()),
        }
        .0
    }

    /// A message text read back; `None` when it is not a request.
    pub fn decode(text: &str) -> Option<Request> {
        let (kind, id, mut f) = Fields::open(text)?;
        let request = match kind {
            'L' => Request::Layer {
                id,
                ask: LayerAsk {
                    options: read_flags(f.next()?),
                    sweep: match f.next()? {
                        "" => None,
                        digits => Some(digits.parse().ok()?),
                    },
                    selected: f.next()?.parse().ok()?,
                    want: f.string()?,
                    query: f.string()?,
                },
            },
            'M' => Request::Model {
                id,
                ask: f.ask()?,
                source: f.string()?,
            },
            'P' => Request::PasteLayer {
                id,
                current: f.string()?,
                text: f.string()?,
            },
            'U' => Request::Unpack {
                id,
                fragment: f.string()?,
            },
            'E' => Request::Preset {
                id,
                preset: f.string()?,
            },
            'F' => Request::File {
                id,
                ask: f.ask()?,
                name: f.string()?,
                size: f.next()?.parse().ok()?,
            },
            _ => return None,
        };
        f.end(request)
    }
}

impl Reply {
    /// The message text.
    pub fn encode(&self) -> String {
        match self {
            Reply::Layer { id, panels } => panels
                .in_order()
                .into_iter()
                .fold(Frame::new('L', *id), Frame::field),
            Reply::Model {
                id,
                markup,
                pieces,
                fragment,
            } => pieces.iter().fold(
                Frame::new('M', *id)
                    .field(markup)
                    .field(fragment)
                    .field(&pieces.len().to_string()),
                |frame, piece| frame.field(&piece.into).field(&piece.markup),
            ),
            Reply::PasteLayer { id, result } => Frame::new('P', *id).result(result),
            Reply::Unpack { id, result } => match result {
                Ok((input, source)) => Frame::new('U', *id).field("ok").field(input).field(source),
                Err(why) => Frame::new('U', *id).field("err").field(why),
            },
        }
        .0
    }

    /// A reply text read back; `None` when it is not one.
    pub fn decode(text: &str) -> Option<Reply> {
        let (kind, id, mut f) = Fields::open(text)?;
        let reply = match kind {
            'L' => Reply::Layer {
                id,
                panels: Panels {
                    formula: f.string()?,
                    comparison: f.string()?,
                    inverse: f.string()?,
                    code: f.string()?,
                    plot: f.string()?,
                },
            },
            'M' => {
                let markup = f.string()?;
                let fragment = f.string()?;
                let count: usize = f.next()?.parse().ok()?;
                // Each piece is two fields of at least two bytes: a count the text cannot hold
                // is refused before anything is read for it.
                if count > f.0.len() / 4 {
                    return None;
                }
                let mut pieces = Vec::with_capacity(count);
                for _ in 0..count {
                    pieces.push(Piece {
                        into: f.string()?,
                        markup: f.string()?,
                    });
                }
                Reply::Model {
                    id,
                    markup,
                    pieces,
                    fragment,
                }
            }
            'P' => Reply::PasteLayer {
                id,
                result: f.result()?,
            },
            'U' => Reply::Unpack {
                id,
                result: match f.next()? {
                    "ok" => Ok((f.string()?, f.string()?)),
                    "err" => Err(f.string()?),
                    _ => return None,
                },
            },
            _ => return None,
        };
        f.end(reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn requests_and_replies_round_trip() {
        let checked = Request::Model {
            id: 11,
            ask: ModelAsk {
                check: true,
                selected: Framework::Jax,
                input: String::new(),
            },
            source: "x".into(),
        };
        assert_eq!(Request::decode(&checked.encode()), Some(checked));
        for request in [
            Request::Layer {
                id: 7,
                ask: LayerAsk {
                    options: Options {
                        check: true,
                        ..Options::default()
                    },
                    sweep: Some(1),
                    selected: Framework::Tf,
                    want: "100x20".into(),
                    query: "op=conv&fw=keras&in=100x20&k=4x1&p=same".into(),
                },
            },
            Request::Model {
                id: 8,
                ask: ModelAsk {
                    check: false,
                    selected: Framework::Keras,
                    input: "32x32x3".into(),
                },
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
            Request::Preset {
                id: 13,
                preset: "dcgan".into(),
            },
            Request::File {
                id: 12,
                ask: ModelAsk {
                    check: true,
                    selected: Framework::Tf,
                    input: "3x8x8".into(),
                },
                name: "pads:\u{1e}.onnx".into(),
                size: 1234,
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
                markup: "<table id=\"t\"></table>".into(),
                pieces: vec![
                    Piece {
                        into: "t".into(),
                        markup: "<tbody></tbody>".into(),
                    },
                    Piece {
                        into: "c".into(),
                        markup: String::new(),
                    },
                ],
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

    #[test]
    fn a_message_cut_short_or_padded_is_not_read() {
        let text = Reply::Model {
            id: 4,
            markup: "<table></table>".into(),
            pieces: vec![Piece {
                into: "t".into(),
                markup: "<tr></tr>".into(),
            }],
            fragment: "abc".into(),
        }
        .encode();
        for end in 0..text.len() {
            assert_eq!(Reply::decode(&text[..end]), None, "{:?}", &text[..end]);
        }
        assert_eq!(Reply::decode(&format!("{text}0:")), None);
        // A count of pieces the text cannot hold is refused, not allocated for.
        assert_eq!(Reply::decode("M1:40:0:20:99999999999999999999"), None);
        assert_eq!(Reply::decode("M1:40:0:1:10:"), None);
        assert!(Reply::decode("M1:40:0:1:10:0:").is_some());
    }

    /// Any text at all: the old separators, control characters, newlines, and the framing's own
    /// digits and colons.
    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<String>(),
            "[\\x00-\\x1f\u{1e}\u{1f}\u{7f}\u{2028}0-9:a\n\r]{0,12}",
        ]
    }

    fn framework() -> impl Strategy<Value = Framework> {
        prop::sample::select(Framework::ALL)
    }

    fn result() -> impl Strategy<Value = Result<String, String>> {
        prop_oneof![text().prop_map(Ok), text().prop_map(Err)]
    }

    fn request() -> impl Strategy<Value = Request> {
        prop_oneof![
            (
                any::<u64>(),
                any::<[bool; 3]>(),
                any::<Option<usize>>(),
                framework(),
                text(),
                text()
            )
                .prop_map(
                    |(id, [check, export_safe, functional], sweep, selected, want, query)| {
                        Request::Layer {
                            id,
                            ask: LayerAsk {
                                options: Options {
                                    check,
                                    export_safe,
                                    functional,
                                },
                                sweep,
                                selected,
                                want,
                                query,
                            },
                        }
                    }
                ),
            (any::<u64>(), any::<bool>(), framework(), text(), text()).prop_map(
                |(id, check, selected, input, source)| Request::Model {
                    id,
                    ask: ModelAsk {
                        check,
                        selected,
                        input
                    },
                    source,
                }
            ),
            (any::<u64>(), text(), text()).prop_map(|(id, text, current)| Request::PasteLayer {
                id,
                text,
                current
            }),
            (any::<u64>(), text()).prop_map(|(id, fragment)| Request::Unpack { id, fragment }),
            (any::<u64>(), text()).prop_map(|(id, preset)| Request::Preset { id, preset }),
            (
                any::<u64>(),
                any::<bool>(),
                framework(),
                text(),
                text(),
                any::<u64>()
            )
                .prop_map(|(id, check, selected, input, name, size)| Request::File {
                    id,
                    ask: ModelAsk {
                        check,
                        selected,
                        input
                    },
                    name,
                    size,
                }),
        ]
    }

    fn reply() -> impl Strategy<Value = Reply> {
        prop_oneof![
            (any::<u64>(), [text(), text(), text(), text(), text()]).prop_map(
                |(id, [formula, comparison, inverse, code, plot])| Reply::Layer {
                    id,
                    panels: Panels {
                        formula,
                        comparison,
                        inverse,
                        code,
                        plot,
                    },
                }
            ),
            (
                any::<u64>(),
                text(),
                prop::collection::vec((text(), text()), 0..4),
                text()
            )
                .prop_map(|(id, markup, pieces, fragment)| Reply::Model {
                    id,
                    markup,
                    pieces: pieces
                        .into_iter()
                        .map(|(into, markup)| Piece { into, markup })
                        .collect(),
                    fragment,
                }),
            (any::<u64>(), result()).prop_map(|(id, result)| Reply::PasteLayer { id, result }),
            (
                any::<u64>(),
                prop_oneof![(text(), text()).prop_map(Ok), text().prop_map(Err)]
            )
                .prop_map(|(id, result)| Reply::Unpack { id, result }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn every_request_round_trips_byte_for_byte(request in request()) {
            prop_assert_eq!(Request::decode(&request.encode()), Some(request));
        }

        #[test]
        fn every_reply_round_trips_byte_for_byte(reply in reply()) {
            prop_assert_eq!(Reply::decode(&reply.encode()), Some(reply));
        }

        #[test]
        fn any_text_decodes_without_panic(text in text()) {
            let _ = (Request::decode(&text), Reply::decode(&text));
        }
    }
}
