//! The Whole model view as markup: the page's static shell (the app's, the fields the user
//! types in) and the worker's output (the model's code per target, its layer table, or why the
//! paste cannot be read). Pure, natively tested; the app sets it with `inner_html` and handles
//! its events by delegation, so the view adds almost nothing to the page's first load.

use maud::{Markup, html};

use crate::core::{Framework, Placement};
use crate::forms::compact::CompactSpec;
use crate::forms::permalink::format_query;
use crate::model::Model;
use crate::model::op::Op;
use crate::view::panels::TargetCode;
use crate::view::panels::{highlighted, times};

/// The one-click models: (id, title, input shape). The texts are the app's
/// (`tests/models/seed002_keras.py`, `tests/models/dcgan_generator.py`).
pub const PRESETS: [(&str, &str, &str); 2] = [
    ("seed-002", "Seed 002: Keras Sequential", "32x32x3"),
    ("dcgan", "DCGAN generator (PyTorch)", "100x1x1"),
];

/// The targets a model is ported to, in tab order.
pub const TARGETS: [Framework; 4] = [
    Framework::Torch,
    Framework::Keras,
    Framework::Tf,
    Framework::Jax,
];

/// The view's fields and the place its output goes (`model-output`). Hooks: `model-source`,
/// `model-input`, `model-check`, `model-preset-<id>`, `model-copy-link`, `model-status`.
pub fn shell() -> Markup {
    html! {
        h2 { "Port a whole model" }
        p.muted { "Paste a Keras or PyTorch model as code: a Sequential, a functional model, an nn.Module class. Every layer is translated exactly, at its real input size." }
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
    }
}

/// The worker's answer for a pasted model: the code per target (tabs; `selected` is shown;
/// every tab is highlighted, so switching is only a matter of attributes), then the layer
/// table; or why the paste cannot be read (`model-error`).
pub fn output(table: Result<Markup, String>, code: &[TargetCode], selected: Framework) -> Markup {
    let table = match table {
        Ok(t) => t,
        Err(why) => return html! { p.error role="alert" data-testid="model-error" { (why) } },
    };
    html! {
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
                                button.copy type="button" data-testid={ "model-copy-" (name) } data-copy=(name) { "Copy" }
                                pre data-testid={ "model-code-" (name) } tabindex="0" { code { (highlighted(text)) } }
                            }
                            Err(reason) => { p.error { (reason) } }
                        }
                    }
                }
            }
        }
        div.model-table { (table) }
    }
}

/// A shape as the table writes it (one sample: the batch left out): `30 × 30 × 64`, or a
/// dash when unknown.
fn shape_text(shape: Option<&Vec<i64>>) -> String {
    shape.map_or("—".into(), |s| times(s.get(1..).unwrap_or(&[])))
}

/// The model's table: one row per operation in the order the framework runs them (its call as
/// written and line, the rows it reads when not just the one before, input and output in the
/// source's layout, pads or crops, what a porter must know, the refusal), each conv and pool
/// row a link that opens the layer in the picture at its real input size (`fragment` keeps the
/// model in the address). `problem` says why there are no shapes (no input shape).
pub fn table(model: &Model, problem: Option<&str>, fragment: &str) -> Markup {
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
    let reads = |i: usize| -> Option<String> {
        let n = &g.nodes[i];
        let previous = i.checked_sub(1);
        let plain = n.inputs.len() == 1 && Some(n.inputs[0].node.0) == previous;
        (!plain).then(|| {
            n.inputs
                .iter()
                .map(|e| match number[e.node.0] {
                    0 => g.nodes[e.node.0].name.clone(),
                    r => format!("#{r}"),
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
    };
    html! {
        @if let Some(problem) = problem {
            p.notice role="status" data-testid="model-notice" { (problem) }
        }
        @if !model.others.is_empty() {
            p.note { "The paste holds " (model.others.join(", ")) " too; this is " code { (g.name) } "." }
        }
        @for note in &g.notes {
            p.note data-testid="model-note" { (note) }
        }
        table.model data-testid="model-table" {
            caption.visually-hidden { (f.title()) " model: each operation's shapes and padding" }
            thead { tr {
                th scope="col" { "#" }
                th scope="col" { "operation (as written)" }
                th scope="col" { "input" }
                th scope="col" { "output" }
                th scope="col" { "pads / crops (before, after)" }
                th scope="col" { "note" }
            } }
            tbody {
                @for (i, n) in g.nodes.iter().enumerate().filter(|(_, n)| !matches!(n.op, Op::Input)) {
                    @let row = &n.inferred;
                    tr data-testid="model-row" class=[row.error.as_ref().map(|_| "refused")] {
                        th scope="row" { (number[i]) }
                        td {
                            span.name { (n.name) } " "
                            code.source { (n.source.text) }
                            " " span.muted { "line " (n.source.call_line.unwrap_or(n.source.line)) }
                            @if let Some(r) = reads(i) {
                                " " span.reads data-testid="model-row-reads" { "← " (r) }
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
                                span.flag { (flag) }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        ] {
            assert!(shell.contains(hook), "{hook}");
        }
        let refused = output(Err("line 2: <b>".into()), &[], Framework::Torch).into_string();
        assert_eq!(
            refused,
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
        let html = output(Ok(html! { table {} }), &code, Framework::Keras).into_string();
        assert!(html.contains(r#"id="tab-model-keras" data-testid="model-tab-keras" aria-controls="panel-model-keras" aria-selected="true" tabindex="0""#));
        assert!(
            html.contains(r#"id="panel-model-torch" aria-labelledby="tab-model-torch" hidden>"#)
        );
        assert!(html.contains("no &lt;way&gt;"));
    }
}
