//! The Whole model view: paste a model (Keras or PyTorch code), get it in every target framework
//! with its layer table. A static shell (`view::model::shell`) with delegated events: the worker
//! reads, ports and renders the output (`view::model::output`), this file only moves text
//! between the fields, the worker and the page. The pasted model lives in the address's fragment
//! (packed by the worker), so it survives a reload and a shared link restores it.

use leptos::prelude::*;

use super::below::{copy, copy_tab};
use super::dom::{self, by_id};
use super::generator::Generator;
use super::tabs;
use crate::view::model::{PRESETS, TARGETS, shell};
use crate::worker::protocol::Request;

/// The preset models' texts, by `view::model::PRESETS` id.
fn preset_text(id: &str) -> Option<&'static str> {
    match id {
        "seed-002" => Some(include_str!("../../tests/models/seed002_keras.py")),
        "dcgan" => Some(include_str!("../../tests/models/dcgan_generator.py")),
        _ => None,
    }
}

/// A corpus file without its `# padlab-input:` line (the preset types the input instead).
fn without_header(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("# padlab-input:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// How long a model request waits for typing to pause.
const MODEL_DELAY: std::time::Duration = std::time::Duration::from_millis(250);

/// A form field's `value`, by id.
fn value(id: &str) -> String {
    by_id(id).map(|el| dom::value(&el)).unwrap_or_default()
}

fn set_value(id: &str, text: &str) {
    if let Some(el) = by_id(id) {
        dom::set_value(&el, text);
    }
}

fn checked(id: &str) -> bool {
    by_id(id).is_some_and(|el| dom::checked(&el))
}

/// The Model view (always mounted; hidden while the other view is shown, so nothing typed is
/// lost).
#[component]
pub fn ModelView(
    /// The worker link.
    generator: Generator,
    /// The model packed for the address (`model=...`), "" when nothing is pasted.
    packed: RwSignal<String>,
    /// Whether the view is shown.
    shown: Signal<bool>,
) -> impl IntoView {
    // The code tab shown (an index into TARGETS), kept across replies.
    let selected = StoredValue::new(0usize);
    let pending = StoredValue::new(None::<TimeoutHandle>);
    let send_now = move || {
        let source = value("model-source");
        if source.trim().is_empty() {
            packed.set(String::new());
            if let Some(out) = by_id("model-output") {
                out.set_inner_html(r#"<p class="muted">Paste a model, or pick an example.</p>"#);
            }
            return;
        }
        let check = checked("model-check");
        let target = TARGETS[selected.get_value().min(TARGETS.len() - 1)];
        generator.send(|id| Request::Model {
            id,
            check,
            selected: target,
            input: value("model-input"),
            source,
        });
    };
    let send_later = move || {
        if let Some(handle) = pending.get_value() {
            handle.clear();
        }
        let later = move || {
            pending.set_value(None);
            send_now();
        };
        pending.set_value(set_timeout_with_handle(later, MODEL_DELAY).ok());
    };
    // The worker's answer goes in as it is; the address follows.
    Effect::new(move |_| {
        generator.model.with(|m| {
            if let (Some(m), Some(out)) = (m, by_id("model-output")) {
                out.set_inner_html(&m.markup);
                packed.set(m.fragment.clone());
                // The reply was rendered with the tab selected when it was asked for.
                let name = TARGETS[selected.get_value().min(TARGETS.len() - 1)].name();
                if let Some(tab) = by_id(&format!("tab-model-{name}")) {
                    tabs::select(&tab);
                }
            }
        });
    });
    Effect::new(move |_| {
        if generator.failed.get()
            && let Some(out) = by_id("model-output")
        {
            out.set_inner_html(
                r#"<p class="error">The model reader could not start in this browser.</p>"#,
            );
        }
    });
    // A model link read back fills the fields.
    Effect::new(move |_| {
        generator.unpacked.with(|u| {
            if let Some(Ok((input, source))) = u {
                set_value("model-input", input);
                set_value("model-source", source);
                send_now();
            }
        });
    });
    let on_input = move |_: leptos::ev::Event| send_later();
    let on_change = move |ev: leptos::ev::Event| {
        let on_check = dom::target(&ev).is_some_and(|el| el.id() == "model-check");
        if on_check {
            send_now();
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(button) = dom::closest(&ev, "button") else {
            return;
        };
        if let Some(id) = button.get_attribute("data-preset") {
            if let (Some(text), Some((_, _, input))) =
                (preset_text(&id), PRESETS.iter().find(|p| p.0 == id))
            {
                set_value("model-input", input);
                set_value("model-source", &without_header(text));
                send_now();
            }
        } else if button.has_attribute("data-copy-link") {
            let href = web_sys::window()
                .and_then(|w| w.location().href().ok())
                .unwrap_or_default();
            copy(
                href,
                "model-status",
                "Link copied: it opens this model.".into(),
            );
        } else if button.has_attribute("data-copy") {
            copy_tab(&button, "model-status", "model");
        } else if let Some(index) = tabs::select(&button) {
            selected.set_value(index);
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let Some(tab) = dom::target(&ev) else {
            return;
        };
        if let Some(index) = tabs::key(&tab, &ev.key()) {
            ev.prevent_default();
            selected.set_value(index);
        }
    };
    view! {
        <section
            class="model-view"
            id="view-model-panel"
            role="tabpanel"
            aria-labelledby="view-tab-model"
            data-testid="model-view"
            hidden=move || !shown.get()
            on:input=on_input
            on:change=on_change
            on:click=on_click
            on:keydown=on_key
            inner_html=shell().into_string()
        ></section>
    }
}
