//! The layer's settings as markup: every control of `forms::controls`, those that do not apply
//! to the chosen op and framework `hidden`. The app sets it once and then only writes values,
//! `hidden`, placeholders and errors into it (one delegated handler reads the events), which
//! costs the page's wasm far less than a reactive view per control.

use maud::{Markup, html};

use crate::core::{Framework, Op, PaddingMode};
use crate::forms::compact::{CompactSpec, Field};
use crate::forms::controls::{Control, padding_hint};

/// The visible label of a control.
pub fn label(control: Control) -> &'static str {
    match control {
        Control::Op => "Operation",
        Control::Framework => "Framework",
        Control::Text(Field::Input) => "Input size",
        Control::Text(Field::Kernel) => "Kernel",
        Control::Text(Field::Stride) => "Stride",
        Control::Text(Field::Dilation) => "Dilation",
        Control::Text(Field::Padding) => "Padding",
        Control::Text(Field::OutputPadding) => "output_padding",
        Control::Text(Field::OutputSize) => "Output size (requested)",
        Control::Text(Field::Wanted) => "Wanted output",
        Control::PaddingMode => "padding_mode",
        Control::CeilMode => "ceil_mode",
        Control::CountIncludePad => "count_include_pad",
        Control::Backend => "Keras backend",
    }
}

/// A text field's placeholder (the padding's depends on the layer).
fn placeholder(field: Field, form: &CompactSpec) -> &'static str {
    match field {
        Field::Input => "100x20",
        Field::Kernel => "3 or 4x1",
        Field::Stride => "default",
        Field::Dilation => "1",
        Field::Padding => padding_hint(form.framework, form.op),
        Field::OutputPadding | Field::OutputSize | Field::Wanted => "none",
    }
}

/// A select's `(value, text)` options.
fn options(control: Control) -> Vec<(&'static str, &'static str)> {
    match control {
        Control::Op => Op::ALL
            .iter()
            .map(|&o| {
                let text = match o {
                    Op::Conv => "Convolution",
                    Op::ConvTranspose => "Transposed convolution",
                    Op::MaxPool => "Max pooling",
                    Op::AvgPool => "Average pooling",
                };
                (o.name(), text)
            })
            .collect(),
        Control::Framework => Framework::ALL
            .iter()
            .map(|&f| (f.name(), f.title()))
            .collect(),
        Control::PaddingMode => PaddingMode::ALL
            .iter()
            .map(|&m| (m.name(), m.name()))
            .collect(),
        Control::CountIncludePad => vec![
            ("default", "framework default"),
            ("true", "True"),
            ("false", "False"),
        ],
        Control::Backend => crate::core::Backend::ALL
            .iter()
            .map(|&b| (b.name(), b.title()))
            .collect(),
        Control::Text(_) | Control::CeilMode => vec![],
    }
}

/// The form for `form` (its values, and only the controls that apply shown). Hooks: each
/// control's `data-testid` and `name` are [`Control::name`]; a text field's reason is in
/// `<name>-error`.
pub fn markup(form: &CompactSpec) -> Markup {
    html! {
        @for control in Control::ALL {
            @let name = control.name();
            @let value = form.value(control);
            @let hidden = !control.applies(form.framework, form.op);
            @match control {
                Control::Text(field) => {
                    label.field data-control=(name) hidden[hidden] {
                        span { (label(control)) }
                        input type="text" name=(name) data-testid=(name) value=(value) spellcheck="false" autocomplete="off"
                            placeholder=(placeholder(field, form)) aria-invalid="false" aria-describedby={ (name) "-error " (name) "-note" };
                        small.field-error id={ (name) "-error" } role="status" {}
                        small.field-note id={ (name) "-note" } {}
                    }
                }
                Control::CeilMode => {
                    label.field.check data-control=(name) hidden[hidden] {
                        input type="checkbox" name=(name) data-testid=(name) checked[form.ceil_mode];
                        span { (label(control)) }
                    }
                }
                _ => {
                    label.field data-control=(name) hidden[hidden] {
                        span { (label(control)) }
                        select name=(name) data-testid=(name) {
                            @for (option, text) in options(control) {
                                option value=(option) selected[option == value] { (text) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The padding field's placeholder for `form` (the app rewrites it when the layer changes).
pub fn padding_placeholder(form: &CompactSpec) -> &'static str {
    placeholder(Field::Padding, form)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_shows_its_values_and_only_the_controls_that_apply() {
        let mut form = CompactSpec::new(Op::MaxPool, Framework::Torch, "7", "3");
        form.ceil_mode = true;
        form.padding = "1".into();
        let html = markup(&form).into_string();
        assert!(html.contains(r#"<option value="max_pool" selected>Max pooling</option>"#));
        assert!(html.contains(r#"name="input" data-testid="input" value="7""#));
        assert!(html.contains(r#"name="ceil-mode" data-testid="ceil-mode" checked>"#));
        assert!(html.contains(r#"<label class="field" data-control="output_padding" hidden>"#));
        assert!(html.contains(r#"<label class="field" data-control="count-include-pad" hidden>"#));
        assert!(html.contains(r#"aria-describedby="padding-error padding-note""#));
        // User text is escaped.
        form.input = "\"><script>".into();
        assert!(
            markup(&form)
                .into_string()
                .contains("value=\"&quot;&gt;&lt;script&gt;\"")
        );
    }
}
