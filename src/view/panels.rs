//! The read-only panels as HTML strings: the answer, the arithmetic and the framework table.
//! Pure (natively tested); the app sets them with `inner_html`. One string per panel costs the
//! page's wasm far less than a typed view per row and cell (see BENCHMARKS.md, weight).
//! Everything that can carry user text goes through [`escape`].

use std::fmt::Write;

use crate::core::{Answer, Framework, Placement};
use crate::forms::compact::join;
use crate::view::compare::{Row, odd_side};
use crate::view::explain::{Line, dimension_names};

/// Text made safe for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// `6x6` as the page writes it: `6 × 6`.
fn times(values: &[i64]) -> String {
    join(values).replace('x', " × ")
}

/// The answer: output size and per-side pads (or crops), or the framework's reason. Carries the
/// test hooks `output-size` (with `data-value`), `pad-before`, `pad-after` and `error`.
pub fn summary(answer: &Result<Answer, String>) -> String {
    let a = match answer {
        Ok(a) => a,
        Err(reason) => {
            return format!(
                r#"<p class="error" role="alert" data-testid="error">{}</p>"#,
                escape(reason)
            );
        }
    };
    let (before, after) = match a.placement {
        Placement::Pad => ("pad before", "pad after"),
        Placement::Crop => ("crop before", "crop after"),
    };
    let mut out = format!(
        r#"<p class="output">Output <strong data-testid="output-size" data-value="{}">{}</strong></p><table class="pads"><thead><tr><th scope="col">dimension</th><th scope="col">{before}</th><th scope="col">{after}</th></tr></thead><tbody>"#,
        join(&a.output()),
        times(&a.output())
    );
    for (axis, name) in a.axes.iter().zip(dimension_names(a.ndim())) {
        let _ = write!(
            out,
            r#"<tr><th scope="row">{name}</th><td data-testid="pad-before">{}</td><td data-testid="pad-after">{}</td></tr>"#,
            axis.before, axis.after
        );
    }
    out.push_str("</tbody></table>");
    if let Some(full) = &a.full_output() {
        let _ = write!(
            out,
            r#"<p class="note">Full transposed output {}, then cropped (negative: zeros appended).</p>"#,
            times(full)
        );
    }
    if a.pads_depend_on_input {
        out.push_str(
            r#"<p class="badge">Input-dependent: strided 'same' pads change with the input size.</p>"#,
        );
    }
    out
}

/// The arithmetic, one entry per dimension (`formula-output` on each output formula).
pub fn formula(lines: &[Line]) -> String {
    if lines.is_empty() {
        return r#"<p class="muted">No output to explain.</p>"#.into();
    }
    let mut out = String::from("<dl>");
    for line in lines {
        let _ = write!(out, "<dt>{}</dt><dd>", line.dimension);
        for part in [&line.kernel, &line.padding].into_iter().flatten() {
            let _ = write!(out, r#"<div class="math">{}</div>"#, escape(part));
        }
        let _ = write!(
            out,
            r#"<div class="math" data-testid="formula-output">{}</div></dd>"#,
            escape(&line.output)
        );
    }
    out.push_str("</dl>");
    out
}

/// The framework table: output and per-side pads under each framework, the odd pixel's side
/// marked, or the framework's refusal. Empty when there is nothing to compare.
pub fn comparison(rows: &[Row]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        r#"<h2>Across frameworks</h2><table data-testid="comparison"><thead><tr><th scope="col">padding</th><th scope="col">output</th><th scope="col">pads (before, after)</th></tr></thead><tbody>"#,
    );
    for row in rows {
        let _ = write!(out, r#"<tr><th scope="row">{}</th>"#, escape(&row.label));
        match &row.answer {
            Ok(a) => {
                let _ = write!(out, "<td>{}</td><td>", times(&a.output()));
                for (d, (axis, name)) in a.axes.iter().zip(dimension_names(a.ndim())).enumerate() {
                    let (b, af) = (axis.before, axis.after);
                    match odd_side(a, d) {
                        Some(side) => {
                            let _ = write!(
                                out,
                                r#"<span class="pad odd" title="odd pixel {side}">{name}: ({b}, {af}) — odd pixel {side}</span>"#
                            );
                        }
                        None => {
                            let _ = write!(out, r#"<span class="pad">{name}: ({b}, {af})</span>"#);
                        }
                    }
                }
                if a.pads_depend_on_input {
                    out.push_str(r#"<span class="badge small">input-dependent</span>"#);
                }
                out.push_str("</td>");
            }
            Err(reason) => {
                let _ = write!(
                    out,
                    r#"<td colspan="2" class="refused">{}</td>"#,
                    escape(reason)
                );
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

/// Python with its tokens coloured (`highlight` classes), escaped.
fn highlighted(code: &str) -> String {
    let mut out = String::with_capacity(code.len() * 2);
    for (token, text) in crate::view::highlight::highlight(code) {
        match token.class() {
            Some(class) => {
                let _ = write!(out, r#"<span class="{class}">{}</span>"#, escape(text));
            }
            None => out.push_str(&escape(text)),
        }
    }
    out
}

/// The code panel's tab panels: per target, a copy button (`data-copy` names the target) and
/// the code (`code-<target>`), or the reason there is none. Only the `selected` tab is coloured
/// and shown; the others stay in the page as plain text.
pub fn code_tabs(snippets: &crate::worker::protocol::Snippets, selected: Framework) -> String {
    let mut out = String::new();
    for (target, code) in snippets {
        let name = target.name();
        let _ = write!(
            out,
            r#"<div class="tabpanel" role="tabpanel" id="panel-{name}" aria-labelledby="tab-{name}"{}>"#,
            if *target == selected { "" } else { " hidden" }
        );
        match code {
            Ok(code) => {
                let _ = write!(
                    out,
                    r#"<button type="button" class="copy" data-testid="copy-{name}" data-copy="{name}">Copy</button><pre data-testid="code-{name}" tabindex="0"><code>{}</code></pre>"#,
                    if *target == selected {
                        highlighted(code)
                    } else {
                        escape(code)
                    }
                );
            }
            Err(reason) => {
                let _ = write!(out, r#"<p class="error">{}</p>"#, escape(reason));
            }
        }
        out.push_str("</div>");
    }
    out
}

/// A reason shown in place of a panel's answer.
pub fn refusal(reason: &str) -> String {
    format!(r#"<p class="error">{}</p>"#, escape(reason))
}

/// One framework's ways to reach the wanted output (at most four), or why none can.
fn ways(spec: &crate::core::LayerSpec, want: &[i64]) -> Result<Vec<String>, String> {
    let solutions = crate::core::inverse(spec, want).map_err(|e| e.to_string())?;
    Ok(solutions
        .iter()
        .take(4)
        .map(|sol| {
            let mut text = format!(
                "padding={}",
                sol.spec
                    .padding
                    .as_ref()
                    .map(crate::forms::compact::format_padding)
                    .unwrap_or_default()
            );
            if let Some(crate::core::Dims::Each(op)) = &sol.spec.output_padding {
                text.push_str(&format!(", output_padding={}", join(op)));
            }
            if let Some(o) = &sol.spec.output_size {
                text.push_str(&format!(", output_size={}", join(o)));
            }
            format!(
                "{text} → pads {:?} / {:?}",
                sol.answer.before(),
                sol.answer.after()
            )
        })
        .collect())
}

/// "I want output N": per framework, the padding (or output_padding / output_size) in its own
/// vocabulary that gives it, or why none can (`inverse` on the list).
pub fn inverse(spec: &crate::core::LayerSpec, want: &[i64]) -> String {
    let mut out = String::from(r#"<ul class="inverse-list" data-testid="inverse">"#);
    for &framework in Framework::ALL {
        let mut s = spec.clone();
        s.framework = framework;
        let _ = write!(out, "<li><strong>{}: </strong>", framework.title());
        match ways(&s, want) {
            Ok(found) => out.push_str(&escape(&found.join("; "))),
            Err(why) => {
                let _ = write!(out, r#"<span class="refused">{}</span>"#, escape(&why));
            }
        }
        out.push_str("</li>");
    }
    out.push_str("</ul>");
    out
}

/// The plot panel's body: the summary, the SVG drawn by the worker and a legend; or why there
/// is no plot. `reply` is the worker's plot for the current layer (`None` while there is none).
pub fn plot(reply: Option<&crate::worker::protocol::Plot>, ready: bool, failed: bool) -> String {
    match reply {
        Some(Ok((summary, svg))) => format!(
            r#"<p id="plot-summary" data-testid="plot-summary">{}</p><div class="plot-svg" role="img" aria-label="Plot: output size, and the padding before and after, for each input size" aria-describedby="plot-summary" data-testid="plot-svg">{svg}</div><ul class="legend" aria-label="Plot legend"><li><span class="swatch line-output"></span>output size</li><li><span class="swatch line-before"></span>before (circles)</li><li><span class="swatch line-after"></span>after (crosses)</li><li><span class="swatch line-mark"></span>this layer's input size</li></ul>"#,
            escape(summary)
        ),
        Some(Err(why)) => format!(r#"<p class="muted">{}</p>"#, escape(why)),
        None if failed => {
            r#"<p class="error">The plot could not start in this browser.</p>"#.into()
        }
        None if !ready => r#"<p class="muted">Loading the plot…</p>"#.into(),
        None => r#"<p class="muted">The plot appears once the layer is valid.</p>"#.into(),
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
        let html = summary(&Ok(answer));
        assert!(html.contains(r#"data-testid="output-size" data-value="3x3">3 × 3</strong>"#));
        assert_eq!(html.matches(r#"data-testid="pad-before">2<"#).count(), 2);
        let refused = summary(&Err("padding <b>'x'</b> & more".into()));
        assert_eq!(
            refused,
            r#"<p class="error" role="alert" data-testid="error">padding &lt;b&gt;&#39;x&#39;&lt;/b&gt; &amp; more</p>"#
        );
    }

    #[test]
    fn the_formula_has_one_output_line_per_dimension() {
        let (spec, answer) = seed_004();
        let html = formula(&crate::view::explain::explain(&spec, &answer));
        assert_eq!(html.matches(r#"data-testid="formula-output""#).count(), 2);
        assert!(html.contains("⌊(6 + 2 + 2 − 5) / 2⌋ + 1 = 3"), "{html}");
        assert_eq!(
            formula(&[]),
            r#"<p class="muted">No output to explain.</p>"#
        );
    }

    #[test]
    fn code_tabs_escape_the_code_and_colour_only_the_selected_one() {
        let snippets = vec![
            (Framework::Torch, Ok("x = a < b  # 'c'".to_string())),
            (Framework::Keras, Err("no <such> layer".to_string())),
            (Framework::Tf, Ok("import tensorflow as tf".to_string())),
        ];
        let html = code_tabs(&snippets, Framework::Torch);
        assert!(html.contains(r#"id="panel-torch" aria-labelledby="tab-torch">"#));
        assert!(html.contains(r#"data-copy="torch">Copy</button><pre data-testid="code-torch""#));
        assert!(html.contains("&lt;") && !html.contains("a < b"));
        assert!(html.contains(r#"<p class="error">no &lt;such&gt; layer</p>"#));
        // TF is hidden and plain; torch, selected, has coloured spans.
        assert!(html.contains(r#"id="panel-tf" aria-labelledby="tab-tf" hidden>"#));
        assert!(html.contains("<code>import tensorflow as tf</code>"));
        assert!(html.contains("<span class="));
    }

    #[test]
    fn the_inverse_lists_every_framework_with_its_ways_or_reason() {
        let (spec, _) = seed_004();
        let html = inverse(&spec, &[3, 3]);
        assert_eq!(html.matches("<li>").count(), Framework::ALL.len());
        assert!(
            html.contains("<strong>PyTorch: </strong>padding=2"),
            "{html}"
        );
        assert_eq!(refusal("a <b>"), r#"<p class="error">a &lt;b&gt;</p>"#);
    }

    #[test]
    fn the_plot_panel_says_why_when_there_is_no_plot() {
        let ok: crate::worker::protocol::Plot = Ok(("a < b".into(), "<svg></svg>".into()));
        let html = plot(Some(&ok), true, false);
        assert!(html.contains(r#"data-testid="plot-summary">a &lt; b</p>"#));
        assert!(html.contains(r#"data-testid="plot-svg"><svg></svg></div>"#));
        assert!(plot(None, false, false).contains("Loading the plot"));
        assert!(plot(None, true, true).contains("could not start"));
    }

    #[test]
    fn the_comparison_marks_the_odd_pixel_and_refusals() {
        let c = CompactSpec {
            stride: "2".into(),
            padding: "same".into(),
            ..CompactSpec::new(Op::Conv, Framework::Keras, "12x12", "3")
        };
        let html = comparison(&crate::view::compare::compare(&c.to_spec().unwrap()));
        assert!(html.contains("height: (0, 1) — odd pixel after"), "{html}");
        assert!(html.contains(r#"class="refused">padding=&#39;same&#39; is not supported"#));
        assert!(html.contains("input-dependent"));
        assert_eq!(comparison(&[]), "");
    }
}
