//! The worker's side: a request in, its reply out. This is what the worker binary runs (and the
//! one place the page's code reaches the generator, the model reader and plotters).

use crate::codegen::{Options, generate};
use crate::core::{Framework, LayerSpec, evaluate};
use crate::forms::compact::{CompactSpec, parse_shape};
use crate::forms::permalink::parse_query;
use crate::model::port::{PortError, PortOptions, port};
use crate::view::{self, panels, plot};

use super::protocol::{ModelAsk, Panels, Piece, Reply, Request};
use crate::view::panels::{Plot, PlotImage, TargetCode};

/// The plot's size in SVG pixels (it scales to the page width).
pub const PLOT_SIZE: (u32, u32) = (520, 400);

/// The reply text for a request text (garbage gets a reply that says why, never a panic).
pub fn answer(text: &str) -> String {
    let reply = match Request::decode(text) {
        Some(request) => reply(request),
        None => {
            let why = "The request was not understood.".to_string();
            let snippets: Vec<TargetCode> = Framework::ALL
                .iter()
                .map(|&target| TargetCode {
                    target,
                    code: Err(why.clone()),
                })
                .collect();
            Reply::Layer {
                id: 0,
                panels: Panels {
                    code: panels::code_tabs(&snippets, Framework::Torch, "").into_string(),
                    plot: panels::plot(Some(&Err(why)), true, false).into_string(),
                    ..Panels::default()
                },
            }
        }
    };
    reply.encode()
}

fn reply(request: Request) -> Reply {
    match request {
        Request::Layer { id, ask } => {
            let spec = layer_spec(&ask.query);
            let mut panels = layer_panels(&ask.query, &ask.want);
            panels.code =
                panels::code_tabs(&layer_code(&spec, &ask.options), ask.selected, "").into_string();
            let sweep = ask.sweep;
            let plot = layer_plot(&spec, sweep);
            let dims = spec.as_ref().map_or(0, |s| s.input.len());
            panels.plot = panels::plot(Some(&plot), true, false).into_string();
            if dims > 1 {
                panels.plot = format!(
                    "{}{}",
                    panels::sweep_choice(dims, sweep).into_string(),
                    panels.plot
                );
            }
            Reply::Layer { id, panels }
        }
        Request::Model { id, ask, source } => {
            model_reply(id, model(&ask, &source), pack(&ask.input, &source))
        }
        Request::PasteLayer { id, text, current } => Reply::PasteLayer {
            id,
            result: paste_layer(&text, &current),
        },
        Request::Unpack { id, fragment } => Reply::Unpack {
            id,
            result: unpack(&fragment),
        },
        Request::Preset { id, preset } => Reply::Unpack {
            id,
            result: view::model::preset(&preset).ok_or_else(|| format!("No example {preset:?}.")),
        },
        // A file request that came without its bytes (the page sends them beside the text).
        request @ Request::File { .. } => file_reply(request, None),
    }
}

/// The reply text for a request text and the bytes that travelled beside it (a model file
/// chosen or dropped in the page; see [`Request::File`]). Any other request ignores the bytes.
pub fn answer_with_bytes(text: &str, bytes: &[u8]) -> String {
    match Request::decode(text) {
        Some(request @ Request::File { .. }) => file_reply(request, Some(bytes)).encode(),
        _ => answer(text),
    }
}

/// The Model view's reply for a file: its table and ports, or the one clear reason it was not
/// read. The fragment is empty: a file never goes in a link.
fn file_reply(request: Request, bytes: Option<&[u8]>) -> Reply {
    let Request::File {
        id,
        ask,
        name,
        size,
    } = request
    else {
        return reply(request);
    };
    let markup = match bytes {
        _ if size > super::protocol::MAX_FILE_BYTES => view::model::file_error(
            &name,
            &format!(
                "it is {}, more than the page reads ({}); `padlab port FILE --json` reads it",
                view::model::size_text(usize::try_from(size).unwrap_or(usize::MAX)),
                view::model::size_text(
                    usize::try_from(super::protocol::MAX_FILE_BYTES).unwrap_or(usize::MAX)
                )
            ),
        ),
        // Model code saved to a file (a `.py` dropped on the view) is read like a paste.
        Some(bytes) if u64::try_from(bytes.len()) == Ok(size) => {
            match crate::model::file::code_in(bytes) {
                Some(source) => model(&ask, source),
                None => file_model(&ask, &name, bytes),
            }
        }
        got => view::model::file_error(
            &name,
            &format!(
                "the browser did not hand over the whole file ({} of {size} bytes): choose it again",
                got.map_or(0, <[u8]>::len)
            ),
        ),
    };
    model_reply(id, markup, String::new())
}

/// The Model view's reply: the output's head as markup, its rows and code as pieces.
fn model_reply(id: u64, output: view::model::Output, fragment: String) -> Reply {
    Reply::Model {
        id,
        markup: output.head.into_string(),
        pieces: output
            .pieces
            .into_iter()
            .map(|(into, markup)| Piece { into, markup })
            .collect(),
        fragment,
    }
}

/// A model file read into a [`Model`](crate::model::Model) by `model::file::open`: an ONNX
/// graph, a Keras 3 archive (.keras) or a legacy Keras file (.h5), told by content, at the typed
/// sample shape; the file's name is its self-check script's default path. An ONNX file that
/// leaves a size free, with none typed, is still tabled (its rows without shapes: `input` is
/// `None`); a Keras one says what to type.
fn read_model_file(
    bytes: &[u8],
    given: Option<Vec<i64>>,
    name: &str,
) -> Result<crate::model::Model, String> {
    use crate::core::join;
    use crate::model::file::{FileError, ModelFile, onnx_graph, open, read_file};
    match open(bytes, given.as_deref(), name) {
        Ok(model) => Ok(model),
        // The reader's own words name its command-line flag: the page's field instead.
        Err(FileError::NeedsInput { input, declared }) => match read_file(bytes) {
            Ok(ModelFile::Onnx(m)) if given.is_none() => {
                let graph = onnx_graph::to_graph(&m, &onnx_graph::InputSizes::default())
                    .map_err(|e| e.to_string())?;
                Ok(crate::model::Model {
                    graph,
                    input: None,
                    origin: crate::model::Origin::File {
                        format: crate::model::file::Format::Onnx,
                        path: name.to_string(),
                        external: crate::model::file::external_files(&m),
                    },
                    others: Vec::new(),
                    params: None,
                })
            }
            _ => Err(format!(
                "the input {input:?} has free sizes {declared}: type one sample's shape in the input field (batch left out, e.g. 224x224x3 for Keras, 3x224x224 for ONNX)"
            )),
        },
        Err(FileError::InputMismatch {
            input,
            declared,
            given,
        }) => Err(format!(
            "the input shape {} does not fit the input {input:?}, declared {declared} (one sample, batch left out)",
            join(&given, "x")
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// The Model view's output for a file: the table of its graph and its port to each target, or
/// why it cannot be read (named by the file).
/// The input shape typed in the view (`None`: left to the model), or the output saying why it
/// is not one.
fn given_input(ask: &ModelAsk) -> Result<Option<Vec<i64>>, view::model::Output> {
    if ask.input.trim().is_empty() {
        return Ok(None);
    }
    parse_shape(&ask.input)
        .map(Some)
        .map_err(|e| view::model::output(Err(format!("Input shape: {e}")), &[], ask.selected))
}

fn file_model(ask: &ModelAsk, name: &str, bytes: &[u8]) -> view::model::Output {
    let given = match given_input(ask) {
        Ok(given) => given,
        Err(output) => return output,
    };
    let model = match read_model_file(bytes, given, name) {
        Ok(m) => m,
        Err(why) => return view::model::file_error(name, &why),
    };
    let problem = model.input.is_none().then(|| {
        "The file leaves the input's sizes free: type one sample's shape (batch left out, e.g. 3x224x224) to get every row's shapes and pads.".to_string()
    });
    let about = view::model::About::File {
        name: name.to_string(),
        size: bytes.len(),
        format: crate::model::file::Format::detect(bytes),
    };
    let table = view::model::table(&model, problem.as_deref(), "view=model", &about);
    model_output(&model, table, ask)
}

/// The view's output for a model read: its table, and its port to every target (with `check`,
/// the script that builds the source itself, the paste's model or the file through ONNX Runtime
/// or Keras, and compares the port with it).
fn model_output(
    model: &crate::model::Model,
    table: view::model::Table,
    ask: &ModelAsk,
) -> view::model::Output {
    let code: Vec<TargetCode> = view::model::TARGETS
        .iter()
        .map(|&target| {
            let text = port(model, target, PortOptions { check: ask.check })
                .map(|p| {
                    if ask.check {
                        p.script.unwrap_or(p.code)
                    } else {
                        p.code
                    }
                })
                .map_err(|e| e.to_string());
            TargetCode { target, code: text }
        })
        .collect();
    view::model::output(Ok(table), &code, ask.selected)
}

/// The layer a permalink query names, or why there is none.
fn layer_spec(query: &str) -> Result<LayerSpec, String> {
    let fallback = CompactSpec::new(crate::core::Op::Conv, Framework::Torch, "", "");
    parse_query(query, &fallback)
        .spec
        .to_spec()
        .map_err(|e| e.message)
}

/// The layer's code for every target, or why there is none.
fn layer_code(spec: &Result<LayerSpec, String>, options: &Options) -> Vec<TargetCode> {
    Framework::ALL
        .iter()
        .map(|&target| {
            let code = spec.clone().and_then(|s| {
                generate(&s, target, options)
                    .map(|s| s.code)
                    .map_err(|e| e.to_string())
            });
            TargetCode { target, code }
        })
        .collect()
}

/// The input-size plot (sweeping dimension `dim`, or the one that matters): its summary and
/// SVG, or why there is none.
fn layer_plot(spec: &Result<LayerSpec, String>, dim: Option<usize>) -> Plot {
    spec.clone()
        // A refused layer gets its reason, not an empty plot.
        .and_then(|spec| match evaluate(&spec) {
            Ok(_) => plot::sweep(&spec, dim).ok_or_else(|| "No dimension to sweep.".into()),
            Err(e) => Err(e.to_string()),
        })
        .and_then(|sweep| {
            let svg = plot::svg(&sweep, PLOT_SIZE.0, PLOT_SIZE.1)?;
            Ok(PlotImage {
                summary: plot::summary(&sweep),
                svg,
            })
        })
}

/// The panels below the picture for the layer `query`: its arithmetic, the framework table,
/// and every framework's padding for the `want`ed output size.
fn layer_panels(query: &str, want: &str) -> Panels {
    use crate::forms::compact::{Field, parse_sizes};
    use crate::view::{compare::compare, explain::explain};
    let fallback = CompactSpec::new(crate::core::Op::Conv, Framework::Torch, "", "");
    let spec = parse_query(query, &fallback).spec.to_spec();
    let answer = spec.as_ref().ok().map(evaluate);
    let formula = match (&spec, &answer) {
        (Ok(spec), Some(Ok(answer))) => panels::formula(&explain(spec, answer)),
        _ => panels::formula(&[]),
    };
    let comparison = spec
        .as_ref()
        .map(|s| panels::comparison(&compare(s)).into_string())
        .unwrap_or_default();
    let inverse = if want.trim().is_empty() {
        String::new()
    } else {
        match (&spec, parse_sizes(Field::Wanted, want)) {
            (Ok(spec), Ok(w)) => panels::inverse(spec, &w).into_string(),
            (Err(e), _) => panels::refusal(e).into_string(),
            (_, Err(e)) => panels::refusal(&e).into_string(),
        }
    };
    Panels {
        formula: formula.into_string(),
        comparison,
        inverse,
        ..Panels::default()
    }
}

/// The fragment that restores a model and its input (`model=` and lz-string's URI encoding).
pub fn pack(input: &str, source: &str) -> String {
    format!(
        "model={}",
        lz_str::compress_to_encoded_uri_component(&format!("{}\n{source}", input.trim()))
    )
}

/// A fragment read back into (input, source).
pub fn unpack(fragment: &str) -> Result<(String, String), String> {
    let data = fragment
        .trim_start_matches('#')
        .split('&')
        .find_map(|part| part.strip_prefix("model="))
        .ok_or("The link holds no model.")?;
    let text = lz_str::decompress_from_encoded_uri_component(data)
        .and_then(|units| String::from_utf16(&units).ok())
        .ok_or("The link's model could not be read (was it cut short?).")?;
    let (input, source) = text.split_once('\n').unwrap_or(("", &text));
    Ok((input.to_string(), source.to_string()))
}

/// The Model view's output for a paste: its code per target (the self-check scripts with
/// `check`) and its table, or why it cannot be read.
fn model(ask: &ModelAsk, source: &str) -> view::model::Output {
    let (selected, input) = (ask.selected, ask.input.as_str());
    let refuse = |why: String| view::model::output(Err(why), &[], selected);
    if source.trim().is_empty() {
        return refuse("Paste a model: a Keras Sequential or functional model, an nn.Sequential or an nn.Module class.".into());
    }
    let given = match given_input(ask) {
        Ok(given) => given,
        Err(output) => return output,
    };
    let options = crate::model::Options {
        input: given,
        model: None,
    };
    let model = match crate::model::read(source, &options) {
        Ok(m) => m,
        Err(e) => {
            let line = source
                .lines()
                .nth(e.line.wrapping_sub(1))
                .map(|text| (e.line, text));
            return view::model::read_error(&e.to_string(), line);
        }
    };
    let problem = model
        .input
        .is_none()
        .then(|| PortError::NoInput.to_string());
    let about = about_paste(&model, source);
    let table = view::model::table(&model, problem.as_deref(), &pack(input, source), &about);
    model_output(&model, table, ask)
}

/// Whether the paste was read as code or as a printed model: printed when the paste holds one
/// and every operation comes from its lines (a paste of code followed by what it printed is
/// read as its code, and says so in a note).
fn about_paste(model: &crate::model::Model, source: &str) -> view::model::About {
    use crate::model::op::Op;
    use crate::model::printed::{Kind, find};
    let Some(found) = find(source) else {
        return view::model::About::Code;
    };
    let mut operations = model
        .graph
        .nodes
        .iter()
        .filter(|n| !matches!(n.op, Op::Input))
        .peekable();
    let printed = operations.peek().is_some()
        && operations.all(|n| n.source.line == 0 || n.source.line >= found.line);
    if printed {
        view::model::About::Printed {
            summary: found.kind == Kind::Summary,
            line: found.line,
        }
    } else {
        view::model::About::Code
    }
}

/// A pasted layer call as the form's query. The call states no input size: the form's own is
/// kept when it has the layer's rank, else each axis is 32.
fn paste_layer(text: &str, current: &str) -> Result<String, String> {
    let mut spec = crate::model::code::read::read_layer(text).map_err(|e| e.message)?;
    let rank = match &spec.kernel {
        crate::core::Dims::Each(v) => v.len(),
        crate::core::Dims::All(_) => 2,
    };
    let kept = layer_spec(current)
        .ok()
        .map(|s| s.input)
        .filter(|i| i.len() == rank);
    spec.input = kept.unwrap_or_else(|| vec![32; rank]);
    Ok(crate::forms::permalink::format_query(
        &crate::forms::compact::CompactSpec::from_spec(&spec),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::protocol::LayerAsk;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// A paste with any characters comes back from its link byte for byte, through the
        /// worker's messages both ways (the input is one line, as its field allows).
        #[test]
        fn any_paste_round_trips_through_its_link(
            source in prop_oneof![any::<String>(), "[\\x00-\\x1f\u{1e}\u{1f}\u{7f}a\n]{0,16}"],
            input in "[^\n]{0,8}",
        ) {
            let request = Request::Model {
                id: 1,
                ask: ModelAsk { check: false, selected: Framework::Torch, input: input.clone() },
                source: source.clone(),
            };
            let Some(Request::Model { ask: ModelAsk { input, .. }, source: sent, .. }) = Request::decode(&request.encode()) else {
                panic!("the request comes back");
            };
            let fragment = pack(&input, &sent);
            let Some(Reply::Unpack { result, .. }) = Reply::decode(&answer(
                &Request::Unpack { id: 2, fragment: format!("#view=model&{fragment}") }.encode(),
            )) else {
                panic!("an unpack reply");
            };
            prop_assert_eq!(result, Ok((input.trim().to_string(), source)));
        }
    }

    /// The output as the page builds it: each piece appended to the element it names (the
    /// elements are empty in the head but for the table's head, and pieces hold no such tag).
    pub(super) fn assembled(head: &str, pieces: &[Piece]) -> String {
        let mut text = head.to_string();
        for Piece { into, markup } in pieces {
            let at = text
                .find(&format!("id=\"{into}\""))
                .unwrap_or_else(|| panic!("no element {into}"));
            let tag = text[..at].rfind('<').expect("an element");
            let name: String = text[tag + 1..]
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            // The first closing tag of its kind after it: the pieces for a `pre` are `code`s,
            // for the table `tbody`s.
            let end = at + text[at..].find(&format!("</{name}>")).expect("closed");
            text.insert_str(end, markup);
        }
        text
    }

    #[test]
    fn a_large_model_comes_in_bounded_pieces() {
        use crate::view::model::{CODE_PIECE_BYTES, ROWS_PER_PIECE};
        let source = include_str!("../../tests/models/torch_resnet152.py");
        let text = answer(
            &Request::Model {
                id: 1,
                ask: ModelAsk {
                    check: false,
                    selected: Framework::Torch,
                    input: "3x224x224".into(),
                },
                source: format!("{source}\nmodel = ResNet152()\n"),
            }
            .encode(),
        );
        let Some(Reply::Model { markup, pieces, .. }) = Reply::decode(&text) else {
            panic!("a model reply")
        };
        let rows: Vec<usize> = pieces
            .iter()
            .filter(|p| p.into == "model-table")
            .map(|p| p.markup.matches("data-testid=\"model-row\"").count())
            .collect();
        assert!(rows.len() > 10, "{rows:?}");
        assert!(rows.iter().all(|&n| n <= ROWS_PER_PIECE), "{rows:?}");
        let whole = assembled(&markup, &pieces);
        assert_eq!(
            rows.iter().sum::<usize>(),
            whole.matches("data-testid=\"model-row\"").count()
        );
        for target in crate::view::model::TARGETS {
            let into = format!("model-code-text-{}", target.name());
            let code: Vec<&Piece> = pieces.iter().filter(|p| p.into == into).collect();
            assert!(code.len() > 2, "{into}");
            // A piece ends a line and is about the size asked (a line longer is kept whole).
            for p in &code[..code.len() - 1] {
                assert!(p.markup.ends_with("\n</code>"), "{}", p.markup);
                assert!(
                    p.markup.len() < CODE_PIECE_BYTES + 4096,
                    "{}",
                    p.markup.len()
                );
            }
        }
    }

    fn layer_panels_for(query: &str, options: Options, selected: Framework) -> Panels {
        let text = answer(
            &Request::Layer {
                id: 7,
                ask: LayerAsk {
                    options,
                    sweep: None,
                    selected,
                    want: "3x3".into(),
                    query: query.into(),
                },
            }
            .encode(),
        );
        let Some(Reply::Layer { id: 7, panels }) = Reply::decode(&text) else {
            panic!("a layer reply: {text}")
        };
        panels
    }

    #[test]
    fn a_layer_request_gets_code_for_every_target_and_the_plot() {
        let options = Options {
            check: true,
            ..Default::default()
        };
        let query = "op=conv&fw=keras&in=100x20&k=4x1&p=same";
        let panels = layer_panels_for(query, options, Framework::Keras);
        assert_eq!(panels.formula.matches("formula-output").count(), 2);
        assert!(
            panels.comparison.contains("odd pixel after"),
            "{}",
            panels.comparison
        );
        assert!(
            panels
                .inverse
                .contains("no padding gives an output of [3, 3]"),
            "{}",
            panels.inverse
        );
        // Every target's code, highlighted, the Keras tab shown.
        assert_eq!(panels.code.matches("data-testid=\"code-").count(), 5);
        assert!(
            panels
                .code
                .contains(r#"id="panel-torch" aria-labelledby="tab-torch" hidden>"#)
        );
        assert!(
            panels
                .code
                .contains(r#"id="panel-keras" aria-labelledby="tab-keras">"#)
        );
        assert!(
            panels
                .code
                .matches(r#"<span class="kw">import</span>"#)
                .count()
                >= 5
        );
        assert!(panels.plot.contains("<svg"), "{}", panels.plot);
        let spec = layer_spec(query);
        let snippets = layer_code(&spec, &options);
        assert_eq!(snippets.len(), 5);
        let direct = generate(&spec.clone().unwrap(), Framework::Torch, &options)
            .unwrap()
            .code;
        assert_eq!(
            snippets[0],
            TargetCode {
                target: Framework::Torch,
                code: Ok(direct)
            }
        );
        let PlotImage { summary, svg } = layer_plot(&spec, None).unwrap();
        assert!(
            summary.contains("the pads are the same for every size"),
            "{summary}"
        );
        assert!(
            svg.starts_with("<svg") && svg.ends_with("</svg>\n"),
            "{svg}"
        );
    }

    #[test]
    fn a_refused_layer_and_garbage_answer_reasons_not_panics() {
        let spec = layer_spec("op=conv&fw=torch&in=8&k=3&s=2&p=same");
        assert!(layer_plot(&spec, None).is_err_and(|e| e.contains("strided")));
        assert!(
            layer_code(&spec, &Options::default())
                .iter()
                .all(|t| t.code.as_ref().is_err_and(|e| e.contains("strided")))
        );
        // Garbage requests still get a well-formed reply: every target and the plot say why.
        for junk in [
            "",
            "x",
            "L1\n",
            "L1\nzz\nop=conv&in=abc",
            "M",
            "P1",
            "U1\n###",
        ] {
            let reply = Reply::decode(&answer(junk)).expect("a reply");
            match reply {
                Reply::Layer { panels, .. } => {
                    assert_eq!(
                        panels.code.matches("class=\"error\"").count(),
                        5,
                        "{junk:?}"
                    );
                    assert!(!panels.code.contains("<pre"), "{junk:?}");
                    assert!(!panels.plot.contains("<svg"), "{junk:?}");
                }
                Reply::Model { markup, pieces, .. } => {
                    assert!(markup.contains("model-error"), "{junk:?}");
                    assert!(pieces.is_empty(), "{junk:?}");
                }
                Reply::PasteLayer { result, .. } => assert!(result.is_err(), "{junk:?}"),
                Reply::Unpack { result, .. } => assert!(result.is_err(), "{junk:?}"),
            }
        }
    }

    #[test]
    fn a_model_request_gets_its_table_ports_and_a_link_that_restores_it() {
        let source = include_str!("../../tests/models/seed002_keras.py");
        let text = answer(
            &Request::Model {
                id: 2,
                ask: ModelAsk {
                    check: false,
                    selected: Framework::Torch,
                    input: "32x32x3".into(),
                },
                source: source.into(),
            }
            .encode(),
        );
        let Some(Reply::Model {
            markup,
            pieces,
            fragment,
            ..
        }) = Reply::decode(&text)
        else {
            panic!("a model reply")
        };
        // The head carries no rows and no code: they come in pieces.
        assert!(!markup.contains("model-row"), "{markup}");
        assert!(!markup.contains("class=\"kw\""), "{markup}");
        let markup = assembled(&markup, &pieces);
        assert_eq!(markup.matches("data-testid=\"model-row\"").count(), 9);
        assert!(markup.contains("15 × 15 × 64"), "{markup}");
        assert!(
            markup.contains("normalises the height axis (30 features)"),
            "{markup}"
        );
        // Highlighted: the tokens are spans.
        assert!(
            markup.contains(
                r#"BatchNormOnAxis(<span class="num">30</span>, dim=<span class="num">2</span>"#
            ),
            "{markup}"
        );
        assert_eq!(markup.matches("data-testid=\"model-code-").count(), 4);
        assert!(!markup.contains("padlab self-check passed"));
        assert_eq!(unpack(&fragment), Ok(("32x32x3".into(), source.into())));
        // With `check`, the tabs hold the scripts; the selected tab is the one asked for.
        let text = answer(
            &Request::Model {
                id: 3,
                ask: ModelAsk {
                    check: true,
                    selected: Framework::Jax,
                    input: "32x32x3".into(),
                },
                source: source.into(),
            }
            .encode(),
        );
        let Some(Reply::Model { markup, pieces, .. }) = Reply::decode(&text) else {
            panic!()
        };
        let markup = assembled(&markup, &pieces);
        assert_eq!(markup.matches("padlab self-check passed").count(), 4);
        assert!(markup.contains(r#"id="tab-model-jax" data-testid="model-tab-jax" aria-controls="panel-model-jax" aria-selected="true""#));
        // Without the input shape the table lists the layers and says what is missing.
        let text = answer(
            &Request::Model {
                id: 4,
                ask: ModelAsk {
                    check: false,
                    selected: Framework::Torch,
                    input: String::new(),
                },
                source: source.into(),
            }
            .encode(),
        );
        let Some(Reply::Model { markup, .. }) = Reply::decode(&text) else {
            panic!()
        };
        assert!(markup.contains("model-notice"));
    }

    #[test]
    fn an_example_comes_back_as_its_text_and_input() {
        let reply = Reply::decode(&answer(
            &Request::Preset {
                id: 5,
                preset: "seed-002".into(),
            }
            .encode(),
        ));
        let Some(Reply::Unpack {
            id: 5,
            result: Ok((input, source)),
        }) = reply
        else {
            panic!("{reply:?}")
        };
        assert_eq!(input, "32x32x3");
        assert!(source.contains("Sequential"), "{source}");
        let reply = Reply::decode(&answer(
            &Request::Preset {
                id: 6,
                preset: "<none>".into(),
            }
            .encode(),
        ));
        assert!(
            matches!(reply, Some(Reply::Unpack { result: Err(_), .. })),
            "{reply:?}"
        );
    }

    #[test]
    fn a_pasted_layer_call_fills_the_form() {
        let query = paste_layer(
            "nn.Conv2d(32, 32, (4, 1), padding=(1, 0))",
            "op=conv&fw=keras&in=100x20&k=3",
        );
        assert_eq!(
            query.as_deref(),
            Ok("op=conv&fw=torch&in=100x20&k=4x1&p=1x0")
        );
        let query = paste_layer(
            "Conv2D(32, (4, 1), padding=\"same\")",
            "op=conv&fw=torch&in=7&k=3",
        );
        assert_eq!(
            query.as_deref(),
            Ok("op=conv&fw=keras&in=32x32&k=4x1&p=same")
        );
        assert!(paste_layer("nn.ReLU()", "").is_err());
        assert!(
            paste_layer("nn.Conv2d(3, 8, 3", "")
                .unwrap_err()
                .contains("never closed")
        );
    }
}

#[cfg(test)]
mod file_and_notice_tests {
    use super::*;

    fn model_markup(request: &Request, bytes: Option<&[u8]>) -> (String, String) {
        let text = match bytes {
            Some(b) => answer_with_bytes(&request.encode(), b),
            None => answer(&request.encode()),
        };
        match Reply::decode(&text) {
            Some(Reply::Model {
                markup,
                pieces,
                fragment,
                ..
            }) => (super::tests::assembled(&markup, &pieces), fragment),
            other => panic!("a model reply, not {other:?}"),
        }
    }

    fn file_request(name: &str, size: usize, input: &str) -> Request {
        Request::File {
            id: 1,
            ask: ModelAsk {
                check: false,
                selected: Framework::Torch,
                input: input.into(),
            },
            name: name.into(),
            size: size as u64,
        }
    }

    fn paste(source: &str, input: &str) -> String {
        model_markup(
            &Request::Model {
                id: 1,
                ask: ModelAsk {
                    check: false,
                    selected: Framework::Torch,
                    input: input.into(),
                },
                source: source.into(),
            },
            None,
        )
        .0
    }

    #[test]
    fn an_onnx_file_gets_its_table_flags_and_ports_and_no_link() {
        let bytes = include_bytes!("../../tests/files/onnx/conv2d_notset_asym.onnx");
        let (markup, fragment) = model_markup(
            &file_request("asym <pads>.onnx", bytes.len(), ""),
            Some(bytes),
        );
        assert_eq!(fragment, "", "a file never goes in the link");
        assert!(markup.contains("asym &lt;pads&gt;.onnx"), "{markup}");
        assert!(markup.contains(r#"data-testid="model-file-about""#));
        assert!(
            markup.contains(r#"<tr data-testid="model-row" data-flags="asymmetric">"#),
            "{markup}"
        );
        assert!(
            markup.contains(r#"<li data-flag="asymmetric">"#),
            "{markup}"
        );
        assert!(!markup.contains("line 0"), "{markup}");
        assert_eq!(markup.matches("data-testid=\"model-code-").count(), 4);
        // A residual export: the add reads two rows.
        let bytes = include_bytes!("../../tests/files/onnx/torch_residual_ts.onnx");
        let (markup, _) = model_markup(&file_request("r.onnx", bytes.len(), ""), Some(bytes));
        assert!(markup.contains("← #3 /conv2/Conv, #4"), "{markup}");
        // Free sizes: the notice asks for the input, which then gives the shapes.
        let bytes = include_bytes!("../../tests/files/onnx/dim_param_input.onnx");
        let (markup, _) = model_markup(&file_request("d.onnx", bytes.len(), ""), Some(bytes));
        assert!(markup.contains("model-notice"), "{markup}");
        let (markup, _) =
            model_markup(&file_request("d.onnx", bytes.len(), "3x32x32"), Some(bytes));
        assert!(!markup.contains("model-notice"), "{markup}");
    }

    #[test]
    fn a_keras_file_gets_its_table_and_ports_and_with_check_its_scripts() {
        for (name, bytes, title) in [
            (
                "cnn.keras",
                &include_bytes!("../../tests/files/keras/sequential_cnn.keras")[..],
                "Keras (.keras) model",
            ),
            (
                "residual.h5",
                &include_bytes!("../../tests/files/keras/functional_residual.h5")[..],
                "Keras HDF5 (.h5) model",
            ),
        ] {
            let (markup, fragment) =
                model_markup(&file_request(name, bytes.len(), ""), Some(bytes));
            assert_eq!(fragment, "");
            assert!(!markup.contains("model-error"), "{name}: {markup}");
            assert!(markup.contains(title), "{name}: {markup}");
            assert!(
                markup.matches("data-testid=\"model-row\"").count() > 3,
                "{name}"
            );
            assert_eq!(markup.matches("data-testid=\"model-code-").count(), 4);
            assert!(!markup.contains("padlab self-check passed"), "{name}");
            let mut request = file_request(name, bytes.len(), "");
            if let Request::File { ask, .. } = &mut request {
                ask.check = true;
            }
            let (markup, _) = model_markup(&request, Some(bytes));
            assert!(!markup.contains("not written in the page"), "{markup}");
            // Each target's script loads the file by its name and checks the port.
            assert_eq!(
                markup.matches("padlab self-check passed").count(),
                4,
                "{name}: {markup}"
            );
            assert!(markup.contains(name), "{name}");
        }
        // A size that does not fit the file's input says so in the page's words.
        let bytes = include_bytes!("../../tests/files/keras/sequential_cnn.keras");
        let (markup, _) = model_markup(
            &file_request("cnn.keras", bytes.len(), "7x7x7x7"),
            Some(bytes),
        );
        assert!(markup.contains("model-error"), "{markup}");
        assert!(!markup.contains("--input"), "{markup}");
    }

    #[test]
    fn a_bad_file_is_one_notice_never_a_panic() {
        let good = include_bytes!("../../tests/files/onnx/torch_cnn_ts.onnx");
        let mut cases: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"PK\x03\x04 not really a zip".to_vec(),
            b"\x89HDF\r\n\x1a\n cut".to_vec(),
        ];
        for cut in [1, 7, 100, good.len() / 2, good.len() - 1] {
            cases.push(good[..cut].to_vec());
        }
        for bytes in &cases {
            let (markup, fragment) =
                model_markup(&file_request("bad.onnx", bytes.len(), ""), Some(bytes));
            assert!(markup.contains("model-error"), "{bytes:?}: {markup}");
            assert!(
                markup.contains("bad.onnx</strong> was not read"),
                "{markup}"
            );
            assert_eq!(fragment, "");
        }
        // Text is read as model code (a `.py` dropped on the view): its table, or the reader's
        // reason with its line.
        let code = b"import torch.nn as nn\nmodel = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2))\n";
        let (markup, fragment) =
            model_markup(&file_request("model.py", code.len(), "3x9x9"), Some(code));
        assert!(markup.contains("8 × 4 × 4"), "{markup}");
        assert_eq!(fragment, "", "a file never goes in the link");
        // Text that is neither Python nor a printed model stays a file that is not a model.
        let text = b"hello, this is not a model";
        let (markup, _) = model_markup(&file_request("notes.txt", text.len(), ""), Some(text));
        assert!(
            markup.contains("notes.txt</strong> was not read"),
            "{markup}"
        );
        // Python that reads but refuses names its line.
        let code =
            b"import torch.nn as nn\n\nmodel = nn.Sequential(\n    nn.LSTMCell(10, 20),\n)\n";
        let (markup, _) = model_markup(&file_request("rnn.py", code.len(), "5x10"), Some(code));
        assert!(markup.contains("line 4"), "{markup}");
        // Bytes that do not match the framed length, or none at all.
        let (markup, _) = model_markup(&file_request("x.onnx", 10, ""), Some(b"12345"));
        assert!(
            markup.contains("did not hand over the whole file (5 of 10 bytes)"),
            "{markup}"
        );
        let (markup, _) = model_markup(&file_request("x.onnx", 10, ""), None);
        assert!(markup.contains("x.onnx</strong> was not read"), "{markup}");
        assert!(
            markup.contains("did not hand over the whole file (0 of 10 bytes)"),
            "{markup}"
        );
    }

    #[test]
    fn a_residual_paste_shows_the_rows_each_add_reads() {
        let markup = paste(include_str!("../../tests/models/keras_toy_resnet.py"), "");
        assert_eq!(
            markup.matches("data-testid=\"model-row-reads\"").count(),
            2,
            "{markup}"
        );
        assert!(
            markup.contains("← #5 conv2d_3, #3 max_pooling2d"),
            "{markup}"
        );
        assert!(!markup.contains("model-printed"));
    }

    #[test]
    fn a_printed_model_says_so_and_what_was_assumed() {
        let markup = paste(
            include_str!("../../tests/models/printed_resnet18.txt"),
            "3x224x224",
        );
        assert!(
            markup.contains(r#"data-testid="model-printed""#),
            "{markup}"
        );
        assert!(markup.contains("print(model)"), "{markup}");
        assert!(markup.contains("Read from a printout"), "{markup}");
        assert!(
            markup.contains("data-testid=\"model-printed-rows\""),
            "{markup}"
        );
        let markup = paste(
            include_str!("../../tests/models/summary_toy_resnet.txt"),
            "",
        );
        assert!(
            markup.contains(r#"data-testid="model-printed""#),
            "{markup}"
        );
        assert!(markup.contains("model.summary()"), "{markup}");
        assert!(
            markup.contains("← #5 conv2d_3, #3 max_pooling2d"),
            "{markup}"
        );
    }

    #[test]
    fn a_read_error_shows_its_line_as_written() {
        // A recurrent cell stepped by a Python loop is refused where it is built.
        let markup = paste(
            "import torch.nn as nn\nmodel = nn.Sequential(\n    nn.Conv2d(3, 8, 3),\n    nn.LSTMCell(8, 8),\n)\n",
            "",
        );
        assert!(markup.contains("line 4"), "{markup}");
        assert!(
            markup.contains(
                r#"<span class="line-number">4</span> <code>    nn.LSTMCell(8, 8),</code>"#
            ),
            "{markup}"
        );
    }
}
