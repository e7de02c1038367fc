//! The layer's settings: the markup of `view::controls`, set once; one delegated handler turns
//! each input or change into [`CompactSpec::set`], and an effect writes the form back into the
//! controls (values, which apply, the padding's placeholder, each field's reason) when it
//! changes from elsewhere: a preset, a link, back/forward, a pasted layer.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

use crate::core::LayerSpec;
use crate::forms::compact::{CompactSpec, FieldError};
use crate::forms::controls::Control;
use crate::view::controls::{markup, padding_placeholder};

fn property(el: &Element, name: &str) -> JsValue {
    js_sys::Reflect::get(el, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

fn set_property(el: &Element, name: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(el, &JsValue::from_str(name), value);
}

/// What a control shows now (a checkbox: "true" or "false").
fn shown_value(el: &Element) -> String {
    if el.get_attribute("type").as_deref() == Some("checkbox") {
        property(el, "checked").is_truthy().to_string()
    } else {
        property(el, "value").as_string().unwrap_or_default()
    }
}

/// Sets an element's text unless it holds it already.
fn set_text(root: &Element, selector: &str, text: &str) {
    if let Ok(Some(el)) = root.query_selector(selector)
        && el.text_content().as_deref().unwrap_or("") != text
    {
        el.set_text_content(Some(text));
    }
}

/// Writes the form into the controls under `root`, touching only what differs: values, which
/// controls apply, each field's reason (`error`, held back while the user is typing) and note.
fn show(root: &Element, form: &CompactSpec, error: Option<&FieldError>) {
    let notes = form.notes();
    for control in Control::ALL {
        let name = control.name();
        let Ok(Some(el)) = root.query_selector(&format!("[name=\"{name}\"]")) else {
            continue;
        };
        let value = form.value(control);
        if shown_value(&el) != value {
            if control == Control::CeilMode {
                set_property(&el, "checked", &JsValue::from_bool(form.ceil_mode));
            } else {
                set_property(&el, "value", &JsValue::from_str(&value));
            }
        }
        if let Some(label) = el.closest("label").ok().flatten() {
            let _ = label
                .toggle_attribute_with_force("hidden", !control.applies(form.framework, form.op));
        }
        if let Control::Text(field) = control {
            let message = error
                .filter(|e| e.field == field)
                .map(|e| e.message.as_str());
            let _ = el.set_attribute("aria-invalid", &message.is_some().to_string());
            set_text(root, &format!("#{name}-error"), message.unwrap_or(""));
            let note = notes
                .iter()
                .find(|(f, _)| *f == field)
                .map(|(_, n)| n.as_str());
            set_text(root, &format!("#{name}-note"), note.unwrap_or(""));
        }
    }
    if let Ok(Some(padding)) = root.query_selector("[name=\"padding\"]") {
        let _ = padding.set_attribute("placeholder", padding_placeholder(form));
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
    Effect::new(move |_| {
        let Some(root) = root.get() else {
            return;
        };
        let hold = typing.get();
        form.with(|f| spec.with(|s| show(&root, f, s.as_ref().err().filter(|_| !hold))));
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
        let Some(el) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
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
