//! The layer's settings: the markup of `view::controls`, set once; one delegated handler turns
//! each input or change into [`CompactSpec::set`], and an effect writes the form back into the
//! controls (values, which apply, the padding's placeholder, each field's reason) when it
//! changes from elsewhere: a preset, a link, back/forward, a pasted layer.

use leptos::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::Element;

use super::dom::{self, checked, set_attr, set_hidden, set_property, set_text};
use crate::core::LayerSpec;
use crate::forms::compact::{CompactSpec, FieldError};
use crate::forms::controls::Control;
use crate::view::controls::{markup, padding_placeholder};

/// What a control shows now (a checkbox: "true" or "false").
fn shown_value(el: &Element) -> String {
    if el.get_attribute("type").as_deref() == Some("checkbox") {
        checked(el).to_string()
    } else {
        dom::value(el)
    }
}

/// One control's elements, found once.
struct Part {
    control: Control,
    input: Element,
    label: Option<Element>,
    error: Option<Element>,
    note: Option<Element>,
}

/// The controls' elements under `root`.
fn parts(root: &Element) -> Vec<Part> {
    Control::ALL
        .into_iter()
        .filter_map(|control| {
            let name = control.name();
            let input = root
                .query_selector(&format!("[name=\"{name}\"]"))
                .ok()
                .flatten()?;
            let by_id = |suffix: &str| {
                root.query_selector(&format!("#{name}-{suffix}"))
                    .ok()
                    .flatten()
            };
            Some(Part {
                control,
                label: input.closest("label").ok().flatten(),
                error: by_id("error"),
                note: by_id("note"),
                input,
            })
        })
        .collect()
}

/// Writes the form into the controls, touching only what differs: values, which controls
/// apply, each field's reason (`error`, held back while the user is typing) and note.
fn show(parts: &[Part], form: &CompactSpec, error: Option<&FieldError>) {
    let notes = form.notes();
    for part in parts {
        let (control, el) = (part.control, &part.input);
        let value = form.value(control);
        if shown_value(el) != value {
            if control == Control::CeilMode {
                set_property(el, "checked", &JsValue::from_bool(form.ceil_mode));
            } else {
                set_property(el, "value", &JsValue::from_str(&value));
            }
        }
        set_hidden(
            part.label.as_ref(),
            !control.applies(form.framework, form.op),
        );
        if let Control::Text(field) = control {
            let message = error
                .filter(|e| e.field == field)
                .map(|e| e.message.as_str());
            set_attr(el, "aria-invalid", &message.is_some().to_string());
            set_text(part.error.as_ref(), message.unwrap_or(""));
            let note = notes
                .iter()
                .find(|(f, _)| *f == field)
                .map(|(_, n)| n.as_str());
            set_text(part.note.as_ref(), note.unwrap_or(""));
            if field == crate::forms::compact::Field::Padding {
                set_attr(el, "placeholder", padding_placeholder(form));
            }
        }
    }
}

/// How long typing must pause before a half-typed value is flagged.
pub const TYPING_PAUSE: std::time::Duration = std::time::Duration::from_millis(700);

/// All settings of the layer.
#[component]
pub fn Controls(
    /// The form state owned by the root.
    form: RwSignal<CompactSpec>,
    /// The parsed spec (for per-field errors).
    spec: Memo<Result<LayerSpec, FieldError>>,
    /// Whether the user is typing (set here): a half-typed value is not flagged until the
    /// typing pauses or the field is left.
    typing: RwSignal<bool>,
) -> impl IntoView {
    let root = NodeRef::<leptos::html::Form>::new();
    let found = StoredValue::new_local(Vec::<Part>::new());
    Effect::new(move |_| {
        let Some(root) = root.get() else {
            return;
        };
        if found.with_value(Vec::is_empty) {
            found.set_value(parts(&root));
        }
        let hold = typing.get();
        found.with_value(|parts| {
            form.with(|f| spec.with(|s| show(parts, f, s.as_ref().err().filter(|_| !hold))))
        });
    });
    let pause = StoredValue::new(None::<TimeoutHandle>);
    let typed = move || {
        if let Some(handle) = pause.get_value() {
            handle.clear();
        }
        if !typing.get_untracked() {
            typing.set(true);
        }
        pause.set_value(set_timeout_with_handle(move || typing.set(false), TYPING_PAUSE).ok());
    };
    let on_edit = move |ev: leptos::ev::Event| {
        let Some(el) = dom::target(&ev) else {
            return;
        };
        let Some(control) = el.get_attribute("name").and_then(|n| Control::named(&n)) else {
            return;
        };
        let value = shown_value(&el);
        if matches!(control, Control::Text(_)) && ev.type_() == "input" {
            typed();
        }
        if form.with_untracked(|f| f.value(control) != value) {
            form.update(|f| {
                f.set(control, &value);
            });
        }
    };
    let initial = form.with_untracked(|f| markup(f).into_string());
    view! {
        <form
            class="controls"
            aria-label="Layer settings"
            node_ref=root
            on:submit=|ev| ev.prevent_default()
            on:input=on_edit
            on:change=on_edit
            on:focusout=move |_| typing.set(false)
            inner_html=initial
        ></form>
    }
}
