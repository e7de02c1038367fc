//! The read-only panels as markup: the answer, the arithmetic, the framework table, the code
//! tabs, the inverse and the plot. Pure (natively tested); the app sets them with `inner_html`.
//! One markup string per panel costs the page's wasm far less than a typed view per row and
//! cell (see BENCHMARKS.md, weight).
//!
//! Markup is `maud`'s [`Markup`]: text interpolated into it is escaped by construction, and only
//! markup made here (or the plot's SVG, drawn by plotters from numbers) enters unescaped.

use maud::{Markup, PreEscaped, html};

use crate::core::{Answer, Framework, LayerSpec, Placement, inverse as inverse_of};
use crate::forms::compact::{CompactSpec, LayerError, join};
use crate::forms::permalink::format_query;
use crate::picture::player::Control;
use crate::view::compare::{Row as CompareRow, Versus, odd_side};
use crate::view::explain::{Line, dimension_names};

/// `6x6` as the page writes it: `6 × 6`.
pub(crate) fn times(values: &[i64]) -> String {
    crate::core::join(values, " × ")
}

/// The answer: output size and per-side pads (or crops), or the framework's reason. Carries the
/// test hooks `output-size` (with `data-value`), `pad-before`, `pad-after` and `error`.
pub fn summary(answer: &Result<Answer, LayerError>) -> Markup {
    let a = match answer {
        Ok(a) => a,
        Err(reason) => {
            return html! { p.error role="alert" data-testid="error" { (reason) } };
        }
    };
    let (before, after) = match a.placement {
        Placement::Pad => ("pad before", "pad after"),
        Placement::Crop => ("crop before", "crop after"),
    };
    html! {
        p.output { "Output " strong data-testid="output-size" data-value=(join(&a.output())) { (times(&a.output())) } }
        table.pads {
            thead { tr { th scope="col" { "dimension" } th scope="col" { (before) } th scope="col" { (after) } } }
            tbody {
                @for (axis, name) in a.axes.iter().zip(dimension_names(a.ndim())) {
                    tr { th scope="row" { (name) } td data-testid="pad-before" { (axis.before) } td data-testid="pad-after" { (axis.after) } }
                }
            }
        }
        @if let Some(full) = a.full_output() {
            p.note { "Full transposed output " (times(&full)) ", then cropped (negative: zeros appended)." }
        }
        @if a.pads_depend_on_input {
            p.badge { "Input-dependent: strided 'same' pads change with the input size." }
        }
    }
}

/// The arithmetic, one entry per dimension (`formula-output` on each output formula).
pub fn formula(lines: &[Line]) -> Markup {
    if lines.is_empty() {
        return html! { p.muted { "No output to explain." } };
    }
    html! {
        dl {
            @for line in lines {
                dt { (line.dimension) }
                dd {
                    @for part in [&line.kernel, &line.padding].into_iter().flatten() {
                        div.math { (part) }
                    }
                    div.math data-testid="formula-output" { (line.output) }
                }
            }
        }
    }
}

/// The framework table: output and per-side pads under each framework, the odd pixel's side
/// marked, or the framework's refusal. Empty when there is nothing to compare.
pub fn comparison(rows: &[CompareRow]) -> Markup {
    if rows.is_empty() {
        return html! {};
    }
    html! {
        h2 { "Across frameworks" }
        table data-testid="comparison" {
            thead { tr { th scope="col" { "padding" } th scope="col" { "output" } th scope="col" { @if rows.iter().any(|r| r.answer.as_ref().is_ok_and(|a| a.placement == Placement::Crop)) { "crops (before, after)" } @else { "pads (before, after)" } } th scope="col" { "against this layer" } } }
            tbody {
                @for row in rows {
                    tr {
                        th scope="row" { (row.label) }
                        @match &row.answer {
                            Ok(a) => {
                                td { (times(&a.output())) }
                                td {
                                    @for (d, (axis, name)) in a.axes.iter().zip(dimension_names(a.ndim())).enumerate() {
                                        @match odd_side(a, d) {
                                            Some(side) => {
                                                span.pad.odd title={ "odd pixel " (side) } {
                                                    (name) ": (" (axis.before) ", " (axis.after) ") — odd pixel " (side)
                                                }
                                            }
                                            None => { span.pad { (name) ": (" (axis.before) ", " (axis.after) ")" } }
                                        }
                                    }
                                    @if a.pads_depend_on_input {
                                        span.badge.small { "input-dependent" }
                                    }
                                }
                            }
                            Err(reason) => { td.refused colspan="2" { (reason) } }
                        }
                        td.versus class=[(matches!(row.versus, Versus::Shifted(_)) || row.note.is_some()).then_some("shifted")] {
                            (row.versus.words())
                            @if let Some(note) = &row.note { @if !row.versus.words().is_empty() { "; " } (note) }
                        }
                    }
                }
            }
        }
    }
}

/// Python with its tokens coloured (`highlight` classes).
pub(crate) fn highlighted(code: &str) -> Markup {
    html! {
        @for (token, text) in crate::view::highlight::highlight(code) {
            @match token.class() {
                Some(class) => { span class=(class) { (text) } }
                None => { (text) }
            }
        }
    }
}

/// One target's code, or why there is none: a tab of the code panels (the single layer's and
/// the Whole model view's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetCode {
    pub target: Framework,
    pub code: Result<String, String>,
}

/// The input-size plot as the worker draws it: a sentence and the SVG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotImage {
    pub summary: String,
    pub svg: String,
}

/// The plot, or why there is none.
pub type Plot = Result<PlotImage, String>;

/// The code panel's tab panels: per target, a copy button (`data-copy` names the target) and
/// the code (`code-<target>`, highlighted), or the reason there is none. Only the `selected`
/// tab is shown; switching tabs only changes attributes.
/// `prefix` keeps two such panels on one page apart (ids and test hooks: `model-code-torch`).
pub fn code_tabs(snippets: &[TargetCode], selected: Framework, prefix: &str) -> Markup {
    html! {
        @for TargetCode { target, code } in snippets {
            @let name = target.name();
            div.tabpanel role="tabpanel" id={ "panel-" (prefix) (name) } aria-labelledby={ "tab-" (prefix) (name) } hidden[*target != selected] {
                @match code {
                    Ok(code) => {
                        button.copy type="button" data-testid={ (prefix) "copy-" (name) } data-copy=(name) { "Copy" }
                        pre data-testid={ (prefix) "code-" (name) } tabindex="0" {
                            code {
                                (highlighted(code))
                            }
                        }
                    }
                    Err(reason) => { p.error { (reason) } }
                }
            }
        }
    }
}

/// The panels below the picture, empty: the arithmetic, the framework comparison, the plot,
/// the inverse (with its field, `want`) and the code (its toggles and target tabs, PyTorch
/// shown). The app sets this once; the worker's markup goes into the `slot-*` elements.
pub fn below_shell() -> Markup {
    let toggles = [
        ("check", "toggle-check", "self-check script"),
        (
            "export-safe",
            "toggle-export-safe",
            "export-safe PyTorch (no 'same')",
        ),
        ("functional", "toggle-functional", "PyTorch functional form"),
    ];
    html! {
        section.formula aria-label="Formula" data-testid="formula" {
            h2 { "The arithmetic" }
            div id="slot-formula" {}
        }
        section.comparison aria-label="Framework comparison" id="slot-comparison" hidden {}
        section.plot aria-labelledby="plot-title" data-testid="plot" {
            h2 id="plot-title" { "Against the input size" }
            div id="slot-plot" { p.muted { "Loading the plot…" } }
        }
        section.inverse aria-label="Padding for a wanted output" {
            h2 { "I want output…" }
            label.field.inline {
                span { "Wanted output size" }
                input type="text" name="want" data-testid="want" placeholder="e.g. 100x20" spellcheck="false" autocomplete="off";
            }
            div id="slot-inverse" {}
        }
        section.code aria-label="Equivalent code" {
            h2 { "Equivalent code" }
            div.code-options {
                @for (name, testid, text) in toggles {
                    label.check {
                        input type="checkbox" name=(name) data-testid=(testid);
                        span { (text) }
                    }
                }
            }
            div.tabs role="tablist" aria-label="Target framework" {
                @for target in Framework::ALL {
                    @let name = target.name();
                    @let on = *target == Framework::Torch;
                    button type="button" role="tab" id={ "tab-" (name) } data-testid={ "tab-" (name) }
                        aria-controls={ "panel-" (name) } aria-selected=(on) tabindex=(if on { "0" } else { "-1" }) {
                        (target.title())
                    }
                }
            }
            p.status role="status" id="copy-status" data-testid="copy-status" {}
            div.tabpanels id="slot-code" {
                p.muted data-testid="code-loading" { "Loading the code generator…" }
            }
        }
    }
}

/// The bar above the form: copy the link, its status, and the link's notices (`slot-notices`).
pub fn link_bar() -> Markup {
    html! {
        button type="button" data-testid="copy-link" data-copy-link { "Copy link" }
        span role="status" id="link-status" data-testid="link-status" {}
        div id="slot-notices" {}
    }
}

/// What a link held that could not be used, with a button that dismisses it (`data-dismiss`).
pub fn notices(notices: &[String]) -> Markup {
    html! {
        @if !notices.is_empty() {
            div.notice role="alert" data-testid="url-notice" {
                ul { @for n in notices { li { (n) } } }
                button type="button" aria-label="Dismiss" data-dismiss { "×" }
            }
        }
    }
}

/// The field a layer call is pasted into (its reason goes in `paste-layer-error`).
pub fn paste_field() -> Markup {
    html! {
        label.field.paste {
            span { "Paste a layer call" }
            input type="text" spellcheck="false" autocomplete="off" data-testid="paste-layer"
                placeholder="nn.Conv2d(32, 32, (4, 1), padding=(1, 0))" aria-describedby="paste-layer-error";
            small.field-error id="paste-layer-error" role="status" {}
        }
    }
}

/// The picture's section, empty: the view tools, the picture (`picture`: a canvas under two
/// stacked SVGs, the static cells and the moving overlay), its note, legend, depth slider,
/// step text and player. The app sets this once and writes into it.
pub fn grid_shell() -> Markup {
    html! {
        h2 { "The picture" }
        p.muted data-testid="stale-note" hidden { "Showing the last valid layer until the settings are fixed." }
        div.picture-tools role="group" aria-label="Picture view" {
            label.field.inline {
                span { "Show" }
                select name=(Control::View.name()) data-testid="view-mode" {
                    option value="auto" selected { "best fit" }
                    option value="edges" { "the edges (middle elided)" }
                    option value="whole" { "the whole layer" }
                }
            }
            button type="button" data-zoom="-1" data-testid="zoom-out" aria-label="Zoom out" { "−" }
            button type="button" data-zoom="1" data-testid="zoom-in" aria-label="Zoom in" { "+" }
            label.check {
                input type="checkbox" name=(Control::Values.name()) data-testid="values";
                span { "values" }
            }
        }
        div.picture data-testid="picture" {
            canvas data-testid="grid-canvas" aria-hidden="true" hidden {}
            svg role="img" aria-label=(crate::picture::svg::SVG_LABEL) data-testid="grid-svg" data-renderer="svg" {
                g.base {}
            }
            svg.overlay-layer aria-hidden="true" { g.overlay {} g.values {} }
        }
        p.muted id="picture-note" {}
        ul.legend id="legend" aria-label="Legend" {}
        label.field.depth hidden {
            span id="depth-text" {}
            input type="range" min="0" name=(Control::Depth.name()) data-testid="depth-slice";
        }
        p.step-text aria-live="polite" data-testid="step-text" {}
        p.values-sum id="values-sum" data-testid="values-sum" {}
        p.muted id="fill-text" {}
        div.player role="group" aria-label="Animation" {
            button type="button" data-step="-1" data-testid="step-back" aria-label="Previous window" { "◀" }
            button type="button" data-play data-testid="play" aria-pressed="false" { "Play" }
            button type="button" data-step="1" data-testid="step-forward" aria-label="Next window" { "▶" }
            label.scrub {
                span.visually-hidden { "Output row" }
                input type="range" min="0" value="0" name=(Control::Scrub.name()) data-testid="scrub";
            }
            label.speed {
                span { "Speed" }
                select name=(Control::Speed.name()) data-testid="speed" {
                    option value="800" { "slow" }
                    option value="400" selected { "normal" }
                    option value="120" { "fast" }
                    option value="16" { "60 fps" }
                }
            }
            span.keys { "Keys: space play/pause, ← → window, ↑ ↓ row" }
        }
    }
}

/// The legend's items.
pub fn legend_items(items: &[(&str, String)]) -> Markup {
    html! {
        @for (swatch, text) in items {
            li { span class={ "swatch " (swatch) } {} (text) }
        }
    }
}

/// The porter's answer: per target, the lines to paste (`answer-<target>`, with a copy button
/// `data-copy-answer`), and what to know, or why there is none.
pub fn answers(list: &[(Framework, Result<crate::codegen::answer::Answer, String>)]) -> Markup {
    html! {
        @for (target, answer) in list {
            @let name = target.name();
            div.answer data-testid={ "answer-" (name) } {
                span.target { (target.title()) }
                @match answer {
                    Ok(a) => {
                        code.lines { @for (i, line) in a.lines.iter().enumerate() { @if i > 0 { "\n" } (line.text) } }
                        button.copy type="button" data-copy-answer=(name) aria-label={ "Copy the " (target.title()) " line" } { "Copy" }
                        @if let Some(note) = &a.note { small.note { (note) } }
                    }
                    Err(why) => { small.note { (why) } }
                }
            }
        }
    }
}

/// The preset row (`preset-<id>` buttons, `data-preset`) and the chosen preset's note, shown
/// as text (`preset-note`).
pub fn preset_bar() -> Markup {
    html! {
        ul {
            @for p in crate::view::presets::presets() {
                li { button type="button" data-preset=(p.id) data-testid={ "preset-" (p.id) } aria-pressed="false" { (p.title) } }
            }
        }
        p.preset-note id="preset-note" data-testid="preset-note" {}
    }
}

/// The view tabs: one layer, or a whole model (`view-layer`, `view-model`).
pub fn view_tabs(model: bool) -> Markup {
    html! {
        div.tabs role="tablist" aria-label="What to look at" {
            @for (i, (id, testid, controls, title)) in [
                ("view-tab-layer", "view-layer", "view-layer-panel", "One layer"),
                ("view-tab-model", "view-model", "view-model-panel", "Whole model"),
            ].into_iter().enumerate() {
                @let on = (i == 1) == model;
                button type="button" role="tab" id=(id) data-testid=(testid) aria-controls=(controls)
                    aria-selected=(on) tabindex=(if on { "0" } else { "-1" }) { (title) }
            }
        }
    }
}

/// The plot's choice of dimension (`sweep`): the one that matters, or each by name.
pub fn sweep_choice(dims: usize, chosen: Option<usize>) -> Markup {
    html! {
        label.field.inline.sweep {
            span { "Sweep the input's" }
            select name="sweep" data-testid="plot-sweep" {
                option value="" selected[chosen.is_none()] { "dimension that matters" }
                @for (d, name) in dimension_names(dims).iter().enumerate() {
                    option value=(d) selected[chosen == Some(d)] { (name) }
                }
            }
        }
    }
}

/// A reason shown in place of a panel's answer.
pub fn refusal(reason: &impl std::fmt::Display) -> Markup {
    html! { p.error { (reason.to_string()) } }
}

/// One way to get the wanted size: the link that opens it, the padding in the page's
/// notation, the pads it gives, and whether they differ from the layer on screen's.
struct Way {
    query: String,
    text: String,
    pads: String,
    other_pads: bool,
}

fn ways(spec: &LayerSpec, want: &[i64], layer: Option<&Answer>) -> Result<Vec<Way>, String> {
    let solutions = inverse_of(spec, want).map_err(|e| e.to_string())?;
    Ok(solutions
        .iter()
        .take(4)
        .map(|sol| {
            let compact = CompactSpec::from_spec(&sol.spec);
            let mut text = format!(
                "padding {}",
                if compact.padding.is_empty() {
                    "0"
                } else {
                    &compact.padding
                }
            );
            if !compact.output_padding.is_empty() {
                text.push_str(&format!(", output_padding {}", compact.output_padding));
            }
            if !compact.output_size.is_empty() {
                text.push_str(&format!(", output_size {}", compact.output_size));
            }
            let pairs = sol.answer.pairs();
            Way {
                query: format_query(&compact),
                text,
                pads: pairs
                    .iter()
                    .map(|(b, a)| format!("({b}, {a})"))
                    .collect::<Vec<_>>()
                    .join(" "),
                other_pads: layer.is_some_and(|l| l.output() == want && l.pairs() != pairs),
            }
        })
        .collect())
}

/// Every framework's ways to get the `want`ed output size for `spec`'s kernel, stride and
/// dilation: links in the page's notation, those whose pads differ from the layer on screen's
/// (when it has that size) marked.
pub fn inverse(spec: &LayerSpec, want: &[i64]) -> Markup {
    let layer = crate::core::evaluate(spec).ok();
    html! {
        ul.inverse-list data-testid="inverse" {
            @for &framework in Framework::ALL {
                @let s = LayerSpec { framework, ..spec.clone() };
                li {
                    strong { (framework.title()) ": " }
                    @match ways(&s, want, layer.as_ref()) {
                        Ok(found) => {
                            @for (i, way) in found.iter().enumerate() {
                                @if i > 0 { "; " }
                                a href={ "?" (way.query) } data-testid="inverse-way" { (way.text) }
                                " → pads " (way.pads)
                                @if way.other_pads { " " span.badge.small.shifted { "the size, not this layer's pads" } }
                            }
                        }
                        Err(why) => { span.refused { (why) } }
                    }
                }
            }
        }
    }
}

/// The plot panel's body: the summary, the SVG drawn by the worker and a legend; or why there
/// is no plot. `reply` is the worker's plot for the current layer (`None` while there is none).
pub fn plot(reply: Option<&Plot>, ready: bool, failed: bool) -> Markup {
    match reply {
        Some(Ok(PlotImage { summary, svg })) => html! {
            p id="plot-summary" data-testid="plot-summary" { (summary) }
            // Drawn by plotters in the worker from numbers alone: no user text in it.
            div.plot-svg role="img" aria-label="Plot: output size, and the padding before and after, for each input size" aria-describedby="plot-summary" data-testid="plot-svg" {
                (PreEscaped(svg))
            }
            ul.legend aria-label="Plot legend" {
                li { span.swatch.line-output {} "output size" }
                li { span.swatch.line-before {} "before (circles)" }
                li { span.swatch.line-after {} "after (crosses)" }
                li { span.swatch.line-mark {} "this layer's input size" }
            }
        },
        Some(Err(why)) => html! { p.muted { (why) } },
        None if failed => html! { p.error { "The plot could not start in this browser." } },
        None if !ready => html! { p.muted { "Loading the plot…" } },
        None => html! { p.muted { "The plot appears once the layer is valid." } },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Framework, Op, evaluate};
    use crate::forms::compact::CompactSpec;

    fn seed_004() -> (crate::core::LayerSpec, Answer) {
        let c = CompactSpec {
            stride: "2".into(),
            padding: "2".into(),
            ..CompactSpec::new(Op::Conv, Framework::Torch, "6x6", "5")
        };
        let spec = c.to_spec().unwrap();
        let answer = evaluate(&spec).unwrap();
        (spec, answer)
    }

    #[test]
    fn the_summary_carries_the_hooks_and_escapes_reasons() {
        let (_, answer) = seed_004();
        let html = summary(&Ok(answer)).into_string();
        assert!(html.contains(r#"data-testid="output-size" data-value="3x3">3 × 3</strong>"#));
        assert_eq!(html.matches(r#"data-testid="pad-before">2<"#).count(), 2);
        let field = crate::forms::compact::FieldError {
            field: crate::forms::compact::Field::Padding,
            message: "padding <b>\"x\"</b> & more".into(),
        };
        let refused = summary(&Err(LayerError::Field(field))).into_string();
        assert_eq!(
            refused,
            r#"<p class="error" role="alert" data-testid="error">padding &lt;b&gt;&quot;x&quot;&lt;/b&gt; &amp; more</p>"#
        );
    }

    #[test]
    fn the_formula_has_one_output_line_per_dimension() {
        let (spec, answer) = seed_004();
        let html = formula(&crate::view::explain::explain(&spec, &answer)).into_string();
        assert_eq!(html.matches(r#"data-testid="formula-output""#).count(), 2);
        assert!(html.contains("⌊(6 + 2 + 2 − 5) / 2⌋ + 1 = 3"), "{html}");
        assert_eq!(
            formula(&[]).into_string(),
            r#"<p class="muted">No output to explain.</p>"#
        );
    }

    #[test]
    fn notices_are_escaped_and_absent_when_there_are_none() {
        assert_eq!(notices(&[]).into_string(), "");
        let html = notices(&["k=<b>".to_string()]).into_string();
        assert!(html.contains("<li>k=&lt;b&gt;</li>"), "{html}");
        assert!(html.contains("data-dismiss"));
        assert!(link_bar().into_string().contains(r#"id="slot-notices""#));
        assert!(
            paste_field()
                .into_string()
                .contains(r#"data-testid="paste-layer""#)
        );
    }

    #[test]
    fn code_tabs_escape_the_code_and_show_only_the_selected_one() {
        let tab = |target, code| TargetCode { target, code };
        let snippets = vec![
            tab(Framework::Torch, Ok("x = a < b  # 'c'".to_string())),
            tab(Framework::Keras, Err("no <such> layer".to_string())),
            tab(Framework::Tf, Ok("import tensorflow as tf".to_string())),
        ];
        let html = code_tabs(&snippets, Framework::Torch, "").into_string();
        assert!(html.contains(r#"id="panel-torch" aria-labelledby="tab-torch">"#));
        assert!(html.contains(r#"data-copy="torch">Copy</button><pre data-testid="code-torch""#));
        assert!(html.contains("&lt;") && !html.contains("a < b"));
        assert!(html.contains(r#"<p class="error">no &lt;such&gt; layer</p>"#));
        // TF is hidden; every tab is coloured, so switching only changes attributes.
        assert!(html.contains(r#"id="panel-tf" aria-labelledby="tab-tf" hidden>"#));
        assert!(html.contains(r#"<code><span class="kw">import</span> tensorflow"#));
    }

    #[test]
    fn the_inverse_lists_every_framework_with_its_ways_or_reason() {
        let (spec, _) = seed_004();
        let html = inverse(&spec, &[3, 3]).into_string();
        assert_eq!(html.matches("<li>").count(), Framework::ALL.len());
        // Each way is a link to that layer, in the page's notation.
        assert!(
            html.contains(r#"<strong>PyTorch: </strong><a href="?op=conv&amp;fw=torch&amp;in=6x6&amp;k=5&amp;s=2&amp;p=2" data-testid="inverse-way">padding 2</a> → pads (2, 2) (2, 2)</li>"#),
            "{html}"
        );
        // Keras 'same' gives 3x3 too, with pads (1, 2): not this layer's (2, 2).
        assert!(
            html.contains(r#"padding same</a> → pads (1, 2) (1, 2) <span class="badge small shifted">the size, not this layer's pads</span>"#),
            "{html}"
        );
        assert_eq!(
            refusal(&"a <b>").into_string(),
            r#"<p class="error">a &lt;b&gt;</p>"#
        );
    }

    #[test]
    fn the_plot_panel_says_why_when_there_is_no_plot() {
        let ok: Plot = Ok(PlotImage {
            summary: "a < b".into(),
            svg: "<svg></svg>".into(),
        });
        let html = plot(Some(&ok), true, false).into_string();
        assert!(html.contains(r#"data-testid="plot-summary">a &lt; b</p>"#));
        assert!(html.contains(r#"data-testid="plot-svg"><svg></svg></div>"#));
        assert!(
            plot(None, false, false)
                .into_string()
                .contains("Loading the plot")
        );
        assert!(
            plot(None, true, true)
                .into_string()
                .contains("could not start")
        );
    }

    #[test]
    fn the_comparison_marks_the_odd_pixel_and_refusals() {
        let c = CompactSpec {
            stride: "2".into(),
            padding: "same".into(),
            ..CompactSpec::new(Op::Conv, Framework::Keras, "12x12", "3")
        };
        let html = comparison(&crate::view::compare::compare(&c.to_spec().unwrap())).into_string();
        assert!(html.contains("height: (0, 1) — odd pixel after"), "{html}");
        assert!(
            html.contains(r#"class="refused" colspan="2">padding='same' is not supported"#),
            "{html}"
        );
        assert!(html.contains("input-dependent"));
        assert_eq!(comparison(&[]).into_string(), "");
    }
}
