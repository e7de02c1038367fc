//! The Whole model view as markup: the page's static shell (the app's, the fields the user
//! types in) and the worker's output (the model's code per target, its layer table, or why the
//! paste cannot be read). Pure, natively tested; the app sets it with `inner_html` and handles
//! its events by delegation, so the view adds almost nothing to the page's first load.

use maud::{Markup, html};

use crate::core::{Framework, Placement};
use crate::forms::compact::CompactSpec;
use crate::forms::permalink::format_query;
use crate::model::Model;
use crate::model::graph::Flag;
use crate::model::op::Op;
use crate::view::panels::TargetCode;
use crate::view::panels::{highlighted, times};

/// The one-click models: (id, title, input shape). The texts are the app's
/// (`tests/models/seed002_keras.py`, `tests/models/dcgan_generator.py`).
pub const PRESETS: [(&str, &str, &str); 2] = [
    ("seed-002", "Seed 002: Keras Sequential", "32x32x3"),
    ("dcgan", "DCGAN generator (PyTorch)", "100x1x1"),
];

/// An example model's (input, text) by [`PRESETS`] id: a corpus file without its
/// `# padlab-input:` line (the input field gets it). The worker's, not the first load's.
pub fn preset(id: &str) -> Option<(String, String)> {
    let text = match id {
        "seed-002" => include_str!("../../tests/models/seed002_keras.py"),
        "dcgan" => include_str!("../../tests/models/dcgan_generator.py"),
        _ => return None,
    };
    let (_, _, input) = PRESETS.iter().find(|p| p.0 == id)?;
    let source = text
        .lines()
        .filter(|l| !l.starts_with("# padlab-input:"))
        .collect::<Vec<_>>()
        .join("\n");
    Some((input.to_string(), source))
}

/// The targets a model is ported to, in tab order.
pub const TARGETS: [Framework; 4] = [
    Framework::Torch,
    Framework::Keras,
    Framework::Tf,
    Framework::Jax,
];

/// The view's fields and the place its output goes (`model-output`). Hooks: `model-source`,
/// `model-input`, `model-check`, `model-preset-<id>`, `model-copy-link`, `model-status`,
/// `model-file` (a real file input with its label; the whole view is also a drop zone, which
/// the help text under the input describes), `model-file-status` and `model-file-close`.
pub fn shell() -> Markup {
    html! {
        h2 { "Port a whole model" }
        p.muted { "Paste a Keras or PyTorch model as code (a Sequential, a functional model, an nn.Module class), what print(model) or model.summary() printed, or open an ONNX or Keras file. Every layer is translated exactly, at its real input size." }
        div.model-file data-testid="model-drop" {
            label.field for="model-file" { span { "Model file (.onnx, .keras, .h5)" } }
            input type="file" id="model-file" data-testid="model-file" accept=".onnx,.keras,.h5" aria-describedby="model-file-help";
            p.muted.drop-help id="model-file-help" { "Choose a file, or drop it anywhere on this view. It is read in this browser and never uploaded." }
            p.file-status id="model-file-status" data-testid="model-file-status" hidden {
                span id="model-file-name" {} " "
                button type="button" data-close-file data-testid="model-file-close" { "Close the file" }
            }
        }
        div.model-presets role="group" aria-label="Example models" {
            @for (id, title, _) in PRESETS {
                button type="button" data-preset=(id) data-testid={ "model-preset-" (id) } { (title) }
            }
        }
        label.field {
            span { "Model code" }
            textarea id="model-source" data-testid="model-source" rows="14" spellcheck="false" autocomplete="off"
                placeholder="model = nn.Sequential(\n    nn.Conv2d(3, 64, 3, padding=1),\n    nn.ReLU(),\n)" {}
        }
        div.model-options {
            label.field.inline {
                span { "Input shape (one sample)" }
                input type="text" id="model-input" data-testid="model-input" spellcheck="false" autocomplete="off" placeholder="32x32x3 or (3, 32, 32)";
            }
            label.check {
                input type="checkbox" id="model-check" data-testid="model-check";
                span { "self-check script" }
            }
            button type="button" data-testid="model-copy-link" data-copy-link { "Copy link to this model" }
        }
        p.status role="status" id="model-status" data-testid="model-status" {}
        div id="model-output" aria-live="polite" {
            p.muted { "Paste a model, or pick an example." }
        }
        (faces())
    }
}

/// A word in each font face the output is written in and the shell is not (the code, its
/// keywords and comments, a heading, the table's head, cells and code, a flag), each hidden.
/// The first layout of text in a new face waits for the browser process (on Linux, a
/// synchronous call per face: 14 to 103 ms measured under load), so the view shows them one a
/// frame after it opens (`model_page`), not in the first frames of a pasted model's output;
/// then it removes them. Never seen (no visibility) nor read (`aria-hidden`).
fn faces() -> Markup {
    html! {
        div.model-faces id="model-faces" aria-hidden="true" {
            h3 hidden { "a" }
            div.model-code {
                pre hidden { code { "a" } }
                pre hidden { code { span.kw { "a" } } }
                pre hidden { code { span.com { "a" } } }
            }
            table.model hidden { thead { tr { th { "a" } } } }
            table.model hidden { tbody { tr { td { "a" } } } }
            table.model hidden { tbody { tr { td { code.source { "a" } } } } }
            span.flag hidden { "a" }
        }
    }
}

/// The table rows one piece holds at most. The page appends one piece per animation frame, so
/// a ResNet's 500 rows never make one long task (issue 17: none over 50 ms). A frame of 8 rows
/// or 4 KB of code took a median 4.5 ms of the page's thread on the shared 2-core machine, one
/// of 16 rows or 8 KB 6.3 ms, and those still made a task of 50 ms or more in one paste in six
/// when the machine was busy (preempted; BENCHMARKS.md): the smaller pieces cost the last row
/// about 0.9 s.
pub const ROWS_PER_PIECE: usize = 8;

/// About how many bytes of highlighted code one piece holds (cut at a line's end outside any
/// token, so a docstring stays whole).
pub const CODE_PIECE_BYTES: usize = 4 * 1024;

/// The view's output in parts the page can insert a frame at a time: the `head` (the tabs and
/// their empty code blocks, the notices, the table without its rows, or the error), then the
/// `pieces`, each (the id of an element in the head, markup to append to it): groups of at
/// most [`ROWS_PER_PIECE`] rows (a `tbody` each) and each target's code in about
/// [`CODE_PIECE_BYTES`]. The page appends them in order, one per frame, a hidden tab's code when
/// the tab is shown.
#[derive(Clone, Debug)]
pub struct Output {
    pub head: Markup,
    pub pieces: Vec<(String, String)>,
}

impl Output {
    /// An output with no pieces (an error, a notice).
    pub fn whole(head: Markup) -> Output {
        Output {
            head,
            pieces: Vec::new(),
        }
    }
}

/// The model's table ([`table`]): everything but the rows, and each row.
#[derive(Clone, Debug)]
pub struct Table {
    pub head: Markup,
    pub rows: Vec<Markup>,
}

/// Cuts markup into pieces of at least `size` bytes (the last may be shorter), each ending at a
/// line's end outside any element.
fn cut(markup: &str, size: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    let bytes = markup.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'<' if bytes.get(i + 1) == Some(&b'/') => depth = depth.saturating_sub(1),
            b'<' => depth += 1,
            b'\n' if depth == 0 && i + 1 - start >= size => {
                pieces.push(markup[start..=i].to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < markup.len() {
        pieces.push(markup[start..].to_string());
    }
    pieces
}

/// The worker's answer for a pasted model: the code per target (tabs; `selected` is shown;
/// every tab is highlighted, so switching is only a matter of attributes; each with copy and
/// download), then the layer table; or why the paste cannot be read (`model-error`). The code
/// and the rows come as [`Output::pieces`].
pub fn output(table: Result<Table, String>, code: &[TargetCode], selected: Framework) -> Output {
    let table = match table {
        Ok(t) => t,
        Err(why) => {
            return Output::whole(
                html! { p.error role="alert" data-testid="model-error" { (why) } },
            );
        }
    };
    let mut pieces = Vec::new();
    for TargetCode { target, code: text } in code {
        if let Ok(text) = text {
            let into = format!("model-code-text-{}", target.name());
            let markup = highlighted(text).into_string();
            // A block each: appending one does not lay out again the lines before it.
            for piece in cut(&markup, CODE_PIECE_BYTES) {
                pieces.push((into.clone(), format!("<code>{piece}</code>")));
            }
        }
    }
    for rows in table.rows.chunks(ROWS_PER_PIECE) {
        let group = html! { tbody { @for row in rows { (row) } } };
        pieces.push(("model-table".to_string(), group.into_string()));
    }
    let table = table.head;
    let head = html! {
        div.model-code {
            h3 { "The model in" }
            div.tabs role="tablist" aria-label="Target framework" {
                @for TargetCode { target, .. } in code {
                    @let name = target.name();
                    @let on = *target == selected;
                    button type="button" role="tab" id={ "tab-model-" (name) } data-testid={ "model-tab-" (name) }
                        aria-controls={ "panel-model-" (name) } aria-selected=(on) tabindex=(if on { "0" } else { "-1" }) {
                        (target.title())
                    }
                }
            }
            div.tabpanels data-testid="model-code" {
                @for TargetCode { target, code: text } in code {
                    @let name = target.name();
                    div.tabpanel role="tabpanel" id={ "panel-model-" (name) } aria-labelledby={ "tab-model-" (name) } hidden[*target != selected] {
                        @match text {
                            Ok(text) => {
                                @let script = text.contains("padlab self-check passed");
                                button.copy type="button" data-testid={ "model-copy-" (name) } data-copy=(name) { "Copy" }
                                @let file = format!("padlab_{}_{name}.py", if script { "check" } else { "model" });
                                button.copy.download type="button" data-testid={ "model-download-" (name) } data-download=(file)
                                    aria-label={ "Download " (file) } {
                                    "Download"
                                }
                                pre id={ "model-code-text-" (name) } data-testid={ "model-code-" (name) } tabindex="0" {}
                            }
                            Err(reason) => { p.error { (reason) } }
                        }
                    }
                }
            }
        }
        div.model-table { (table) }
    };
    Output { head, pieces }
}

/// What the table was read from, for the notice above it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum About {
    /// Python code.
    Code,
    /// A printed model, not code: `print(model)` of a torch module, or a Keras
    /// `model.summary()` table (`summary`), starting at its 1-based `line` in the paste.
    Printed { summary: bool, line: usize },
    /// A model file read in the browser: its name, length in bytes and format.
    File {
        name: String,
        size: usize,
        format: crate::model::file::Format,
    },
}

/// Why a model file was not read: one notice, named by the file.
pub fn file_error(name: &str, why: &str) -> Output {
    Output::whole(html! {
        div.error.file-error role="alert" data-testid="model-error" {
            p { strong { (name) } " was not read: " (why) "." }
            p.muted { "padlab reads ONNX (.onnx) and Keras (.keras, .h5) models. Nothing was sent anywhere: the file is read in this browser." }
        }
    })
}

/// Why a paste cannot be read, with the line it names as written (`line`: its number and
/// text, when the error names one).
pub fn read_error(why: &str, line: Option<(usize, &str)>) -> Output {
    Output::whole(html! {
        div.error role="alert" data-testid="model-error" {
            p { (why) }
            @if let Some((n, text)) = line {
                pre.error-line data-testid="model-error-line" {
                    span.line-number { (n) } " " code { (text) }
                }
            }
        }
    })
}

/// A flag's hook and its short name (the full sentence is the flag's `Display`).
fn flag_name(flag: &Flag) -> (&'static str, &'static str) {
    match flag {
        Flag::InputDependent => ("input-dependent", "input-dependent pads"),
        Flag::Asymmetric => ("asymmetric", "asymmetric pads"),
        Flag::SameLower => ("same-lower", "SAME_LOWER"),
        Flag::CeilMode => ("ceil-mode", "ceil_mode"),
        Flag::CountsPadding => ("counts-padding", "counted padding"),
        Flag::OutputPadding => ("output-padding", "output padding"),
        Flag::PadFolded { .. } => ("pad-folded", "pad folded in"),
        Flag::NormalisesSpatialAxis { .. } => ("spatial-axis", "spatial-axis norm"),
        Flag::Declared { .. } => ("declared", "declared size differs"),
        Flag::Assumed(_) => ("assumed", "assumed"),
        Flag::RuntimeDiffers(_) => ("runtime-differs", "ONNX Runtime differs"),
        Flag::BatchChanges { .. } => ("batch-changes", "the batch changes"),
    }
}

/// A shape as the table writes it (one sample: the batch left out): `30 × 30 × 64`, or a
/// dash when unknown.
fn shape_text(shape: Option<&Vec<i64>>) -> String {
    shape.map_or("—".into(), |s| times(s.get(1..).unwrap_or(&[])))
}

/// Row numbers as a list: `3, 7 and 12`.
fn row_list(rows: &[usize]) -> String {
    let text: Vec<String> = rows.iter().map(|r| format!("#{r}")).collect();
    match text.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => text.join(""),
    }
}

/// The notice above the table: what the model was read from, and for a printed model what
/// padlab assumed (the graph's notes, and the rows that state an assumption).
fn about_notice(model: &Model, about: &About, assumed_rows: &[usize]) -> Markup {
    let g = &model.graph;
    let operations = g
        .nodes
        .iter()
        .filter(|n| !matches!(n.op, Op::Input))
        .count();
    html! {
        @match about {
            About::Code => {}
            About::Printed { summary, line } => {
                div.model-about.printed role="note" data-testid="model-printed" {
                    p {
                        strong { "A printed model, not code. " }
                        @if *summary {
                            "From line " (line) " the paste is a Keras " code { "model.summary()" } " table: the shapes are the table's own, and the layers behind them were derived from its numbers."
                        } @else {
                            "From line " (line) " the paste is the output of " code { "print(model)" } " of a PyTorch module: its layers and their arguments, but not its " code { "forward" } "."
                        }
                    }
                    @for note in &g.notes {
                        p.note data-testid="model-note" { (note) }
                    }
                    @if !assumed_rows.is_empty() {
                        p data-testid="model-printed-rows" {
                            "Rows " (row_list(assumed_rows)) " state what padlab assumed (marked " span.flag data-flag="assumed" { "assumed" } ")."
                        }
                    }
                }
            }
            About::File { name, size, format } => {
                p.model-about role="note" data-testid="model-file-about" {
                    strong { (name) } ": " (format.title()) " model "
                    @if !g.name.is_empty() { code { (g.name) } " " }
                    "(" (operations) " operations, " (size_text(*size)) "), read in this browser: the file is never uploaded."
                }
                @for note in &g.notes {
                    p.note data-testid="model-note" { (note) }
                }
            }
        }
    }
}

/// A byte count for people: `812 bytes`, `14.2 KB`, `97.9 MB`.
pub fn size_text(size: usize) -> String {
    // Sizes below 2^53 are exact as f64; larger files are not read in the page.
    #[allow(clippy::cast_precision_loss)]
    let s = size as f64;
    if size < 1000 {
        format!("{size} bytes")
    } else if size < 1_000_000 {
        format!("{:.1} KB", s / 1e3)
    } else {
        format!("{:.1} MB", s / 1e6)
    }
}

/// The model's table: one row per operation in the order the framework runs them (its call as
/// written and line, the rows it reads when not just the one before, input and output in the
/// source's layout, pads or crops, what a porter must know, the refusal), each conv and pool
/// row a link that opens the layer in the picture at its real input size (`fragment` keeps the
/// model in the address). `problem` says why there are no shapes (no input shape); `about`
/// what the model was read from (a printed model or a file gets a notice above the table).
/// Above the table, the porter's list: each flag with the rows that carry it.
pub fn table(model: &Model, problem: Option<&str>, fragment: &str, about: &About) -> Table {
    let g = &model.graph;
    let f = g.framework;
    // Row numbers of the operations (inputs are not rows).
    let mut number = vec![0usize; g.nodes.len()];
    let mut k = 0;
    for (i, n) in g.nodes.iter().enumerate() {
        if !matches!(n.op, Op::Input) {
            k += 1;
            number[i] = k;
        }
    }
    // Each flag kind with its rows, in the order first met.
    let mut flagged: Vec<(&'static str, &'static str, Vec<usize>)> = Vec::new();
    for (i, n) in g.nodes.iter().enumerate() {
        for flag in &n.inferred.flags {
            let (key, name) = flag_name(flag);
            match flagged.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, _, rows)) => {
                    if rows.last() != Some(&number[i]) {
                        rows.push(number[i]);
                    }
                }
                None => flagged.push((key, name, vec![number[i]])),
            }
        }
    }
    let assumed_rows: Vec<usize> = flagged
        .iter()
        .find(|(k, _, _)| *k == "assumed")
        .map(|(_, _, r)| r.clone())
        .unwrap_or_default();
    let reads = |i: usize| -> Option<Vec<String>> {
        let n = &g.nodes[i];
        let previous = i.checked_sub(1);
        let plain = n.inputs.len() == 1 && Some(n.inputs[0].node.0) == previous;
        (!plain).then(|| {
            n.inputs
                .iter()
                .map(|e| {
                    let from = &g.nodes[e.node.0];
                    match number[e.node.0] {
                        0 => from.name.clone(),
                        r => format!("#{r} {}", from.name),
                    }
                })
                .collect()
        })
    };
    let head = html! {
        (about_notice(model, about, &assumed_rows))
        @if let Some(problem) = problem {
            p.notice role="status" data-testid="model-notice" { (problem) }
        }
        @if !model.others.is_empty() {
            p.note { "The paste holds " (model.others.join(", ")) " too; this is " code { (g.name) } "." }
        }
        @if *about == About::Code {
            @for note in &g.notes {
                p.note data-testid="model-note" { (note) }
            }
        }
        @if !flagged.is_empty() {
            div.porter data-testid="model-flags" {
                h3 { "What a porter must know" }
                ul {
                    @for (key, name, rows) in &flagged {
                        li data-flag=(key) { span.flag data-flag=(key) { (name) } " " (if rows.len() == 1 { "row " } else { "rows " }) (row_list(rows)) }
                    }
                }
            }
        }
        // The row numbers' column fits the last one's digits (the style reads `--digits`).
        table.model id="model-table" data-testid="model-table" style={ "--digits: " (k.max(1).to_string().len()) } {
            caption.visually-hidden { (f.title()) " model: each operation's shapes and padding" }
            thead { tr {
                th scope="col" { "#" }
                th scope="col" { "operation (as written)" }
                th scope="col" { "input" }
                th scope="col" { "output" }
                th scope="col" { "pads / crops (before, after)" }
                th scope="col" { "note" }
            } }
        }
    };
    let rows = g
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| !matches!(n.op, Op::Input))
        .map(|(i, n)| {
            let row = &n.inferred;
            let keys = row
                .flags
                .iter()
                .map(|f| flag_name(f).0)
                .collect::<Vec<_>>()
                .join(" ");
            html! {
                tr data-testid="model-row" class=[row.error.as_ref().map(|_| "refused")] data-flags=[(!keys.is_empty()).then_some(&keys)] {
                    th scope="row" { (number[i]) }
                    td {
                        span.name { (n.name) } " "
                        code.source { (n.source.text) }
                        @let line = n.source.call_line.unwrap_or(n.source.line);
                        @if line > 0 {
                            " " span.muted { "line " (line) }
                        }
                        @if let Some(r) = reads(i) {
                            " " span.reads data-testid="model-row-reads" {
                                span.visually-hidden { "reads " } "← " (r.join(", "))
                            }
                        }
                    }
                    td data-label="input" { (shape_text(n.inputs.first().and_then(|e| g.shape_of(*e)))) }
                    td data-label="output" data-testid="model-output" { (shape_text(n.shape())) }
                    td data-label="pads" {
                        @if let Some(a) = &row.answer {
                            @let word = if a.placement == Placement::Crop { "crop " } else { "" };
                            (word)
                            (a.pairs().iter().map(|(b, e)| format!("({b}, {e})")).collect::<Vec<_>>().join(" "))
                        }
                        @if let Some(spec) = &row.spec {
                            " "
                            a data-testid="model-row-link" href={ "?" (format_query(&CompactSpec::from_spec(spec))) "#" (fragment) } {
                                "open" span.visually-hidden { " operation " (number[i]) " in the picture" }
                            }
                        }
                    }
                    td.note {
                        @if let Some(e) = &row.error {
                            span.refused data-testid="model-row-error" { (e) }
                        }
                        @for flag in &row.flags {
                            @let (key, name) = flag_name(flag);
                            span.flag-line data-testid="model-row-flag" {
                                span.flag data-flag=(key) { (name) } " " (flag)
                            }
                        }
                    }
                }
            }
        })
        .collect();
    Table { head, rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_has_its_text_and_input() {
        for (id, _, input) in PRESETS {
            let (given, source) = preset(id).expect(id);
            assert_eq!(given, input);
            assert!(
                !source.contains("# padlab-input:") && source.len() > 200,
                "{id}"
            );
        }
        assert_eq!(preset("nope"), None);
    }

    #[test]
    fn the_row_numbers_column_fits_the_last_number() {
        for (layers, digits) in [(3, 1), (40, 2), (515, 3)] {
            let source = format!(
                "import torch.nn as nn\nmodel = nn.Sequential({})\n",
                "nn.ReLU(), ".repeat(layers)
            );
            let model = crate::model::read(&source, &Default::default()).expect("a model");
            let head = table(&model, None, "", &About::Code).head.into_string();
            assert!(
                head.contains(&format!("style=\"--digits: {digits}\"")),
                "{layers}: {head}"
            );
        }
    }

    #[test]
    fn code_is_cut_at_line_ends_outside_tokens() {
        let code = "x = 1\n\"\"\"a docstring\nof <two> lines\"\"\"\ny = 2\n".repeat(50);
        let markup = highlighted(&code).into_string();
        let pieces = cut(&markup, 64);
        assert!(pieces.len() > 10, "{pieces:?}");
        assert_eq!(pieces.concat(), markup);
        for p in &pieces {
            // Every span opened in a piece closes in it.
            assert_eq!(
                p.matches("<span").count(),
                p.matches("</span>").count(),
                "{p}"
            );
        }
        for p in &pieces[..pieces.len() - 1] {
            assert!(p.ends_with('\n') && p.len() >= 64, "{p:?}");
        }
        assert_eq!(cut("", 64), Vec::<String>::new());
        assert_eq!(cut("one line", 1), vec!["one line".to_string()]);
    }

    #[test]
    fn the_shell_has_its_hooks_and_the_output_escapes() {
        let shell = shell().into_string();
        for hook in [
            "model-source",
            "model-input",
            "model-check",
            "model-preset-seed-002",
            "model-copy-link",
            "id=\"model-output\"",
            "<label class=\"field\" for=\"model-file\">",
            "type=\"file\" id=\"model-file\"",
            "aria-describedby=\"model-file-help\"",
        ] {
            assert!(shell.contains(hook), "{hook}");
        }
        // The faces to warm: hidden from sight and from screen readers, each shown a frame.
        let faces = &shell[shell.find("id=\"model-faces\"").expect("faces")..];
        assert!(faces.starts_with("id=\"model-faces\" aria-hidden=\"true\">"));
        assert_eq!(faces.matches(" hidden>").count(), 8, "{faces}");
        let refused = output(Err("line 2: <b>".into()), &[], Framework::Torch);
        assert!(refused.pieces.is_empty());
        assert_eq!(
            refused.head.into_string(),
            r#"<p class="error" role="alert" data-testid="model-error">line 2: &lt;b&gt;</p>"#
        );
        let code = vec![
            TargetCode {
                target: Framework::Torch,
                code: Ok("x = 1".to_string()),
            },
            TargetCode {
                target: Framework::Keras,
                code: Err("no <way>".to_string()),
            },
        ];
        let table = Table {
            head: html! { table id="model-table" {} },
            rows: vec![html! { tr { td { "<1>" } } }],
        };
        let out = output(Ok(table), &code, Framework::Keras);
        assert_eq!(
            out.pieces,
            [
                (
                    "model-code-text-torch".to_string(),
                    "<code>x = <span class=\"num\">1</span></code>".to_string()
                ),
                (
                    "model-table".to_string(),
                    "<tbody><tr><td>&lt;1&gt;</td></tr></tbody>".to_string()
                )
            ]
        );
        let html = out.head.into_string();
        assert!(html.contains(
            r#"<pre id="model-code-text-torch" data-testid="model-code-torch" tabindex="0"></pre>"#
        ));
        assert!(html.contains(r#"id="tab-model-keras" data-testid="model-tab-keras" aria-controls="panel-model-keras" aria-selected="true" tabindex="0""#));
        assert!(
            html.contains(r#"id="panel-model-torch" aria-labelledby="tab-model-torch" hidden>"#)
        );
        assert!(html.contains("no &lt;way&gt;"));
    }
}
