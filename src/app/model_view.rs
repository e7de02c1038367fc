//! The Model view: paste a model (Keras or PyTorch code), get it in every target framework with
//! its layer table. Reading and porting run in the worker (`generator`); the pasted model lives
//! in the address's fragment (compressed by the worker), so it survives a reload and a shared
//! link restores it.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::code_panel::{copy, target_tabs};
use super::generator::Generator;
use super::tabs::Tabs;
use crate::core::Framework;
use crate::view::panels;

/// One-click models: the seed the issue grew from, and a DCGAN generator.
const PRESETS: [(&str, &str, &str, &str); 2] = [
    (
        "seed-002",
        "Seed 002: Keras Sequential",
        "32x32x3",
        include_str!("../../tests/models/seed002_keras.py"),
    ),
    (
        "dcgan",
        "DCGAN generator (PyTorch)",
        "100x1x1",
        include_str!("../../tests/models/dcgan_generator.py"),
    ),
];

/// A corpus file without its `# padlab-input:` line (the preset types the input instead).
fn without_header(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("# padlab-input:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The targets a model is ported to (the worker's `MODEL_TARGETS`).
const TARGETS: [Framework; 4] = [
    Framework::Torch,
    Framework::Keras,
    Framework::Tf,
    Framework::Jax,
];

/// How long a model request waits for typing to pause.
const MODEL_DELAY: std::time::Duration = std::time::Duration::from_millis(250);

/// The Model view.
#[component]
pub fn ModelView(
    /// The worker link.
    generator: Generator,
    /// The pasted source (owned by the root, so the view keeps it while hidden).
    source: RwSignal<String>,
    /// One sample's input shape as typed.
    input: RwSignal<String>,
    /// The model packed for the address (`model=...`), "" when nothing is pasted.
    packed: RwSignal<String>,
) -> impl IntoView {
    let check = RwSignal::new(false);
    let selected = RwSignal::new(0);
    let status = RwSignal::new(String::new());
    // Ask the worker once typing pauses.
    let pending = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |_| {
        let (text, shape, check) = (source.get(), input.get(), check.get());
        if let Some(handle) = pending.get_value() {
            handle.clear();
        }
        if text.trim().is_empty() {
            generator.model.set(None);
            return;
        }
        let send = move || {
            pending.set_value(None);
            generator.send(|id| crate::worker::protocol::Request::Model {
                id,
                check,
                input: shape,
                source: text,
            });
        };
        pending.set_value(set_timeout_with_handle(send, MODEL_DELAY).ok());
    });
    // The address keeps the model (the fragment, written by the root).
    Effect::new(move |_| {
        if let Some(fragment) = generator
            .model
            .with(|m| m.as_ref().map(|m| m.fragment.clone()))
        {
            packed.set(fragment);
        } else if source.with(|s| s.trim().is_empty()) {
            packed.set(String::new());
        }
    });
    let code = move || {
        generator.model.with(|m| {
            m.as_ref().map(|m| {
                if check.get() && !m.checks.is_empty() {
                    m.checks.clone()
                } else {
                    m.code.clone()
                }
            })
        })
    };
    let copy_clicked = move |ev: leptos::ev::MouseEvent| {
        let button = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("[data-copy]").ok().flatten());
        let Some(target) = button
            .and_then(|b| b.get_attribute("data-copy"))
            .and_then(|name| name.parse::<Framework>().ok())
        else {
            return;
        };
        let text = code().and_then(|list| {
            list.into_iter()
                .find(|(t, _)| *t == target)
                .and_then(|(_, c)| c.ok())
        });
        if let Some(text) = text {
            copy(text, target, status);
        }
    };
    // The address holds the model (the root keeps its fragment current).
    let copy_link = move |_| {
        let Some(window) = web_sys::window() else {
            return;
        };
        let href = window.location().href().unwrap_or_default();
        let promise = window.navigator().clipboard().write_text(&href);
        leptos::task::spawn_local(async move {
            status.set(match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(_) => "Link copied: it opens this model.".into(),
                Err(_) => "The browser refused the clipboard: copy the address bar instead.".into(),
            });
        });
    };
    view! {
        <section class="model-view" id="view-model-panel" role="tabpanel" aria-labelledby="view-tab-model" data-testid="model-view">
            <h2>"Port a whole model"</h2>
            <p class="muted">"Paste a Keras or PyTorch model as code: a Sequential, a functional model, an nn.Module class. Every layer is translated exactly, at its real input size."</p>
            <div class="model-presets" role="group" aria-label="Example models">
                {PRESETS
                    .iter()
                    .map(|&(id, title, shape, text)| {
                        view! {
                            <button
                                type="button"
                                data-testid=format!("model-preset-{id}")
                                on:click=move |_| {
                                    input.set(shape.to_string());
                                    source.set(without_header(text));
                                }
                            >
                                {title}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <label class="field">
                <span>"Model code"</span>
                <textarea
                    data-testid="model-source"
                    rows="14"
                    spellcheck="false"
                    autocomplete="off"
                    placeholder="model = nn.Sequential(\n    nn.Conv2d(3, 64, 3, padding=1),\n    nn.ReLU(),\n)"
                    prop:value=move || source.get()
                    on:input=move |ev| source.set(event_target_value(&ev))
                ></textarea>
            </label>
            <div class="model-options">
                <label class="field inline">
                    <span>"Input shape (one sample)"</span>
                    <input
                        type="text"
                        data-testid="model-input"
                        spellcheck="false"
                        placeholder="32x32x3 or (3, 32, 32)"
                        prop:value=move || input.get()
                        on:input=move |ev| input.set(event_target_value(&ev))
                    />
                </label>
                <label class="check">
                    <input
                        type="checkbox"
                        data-testid="model-check"
                        prop:checked=move || check.get()
                        on:change=move |ev| check.set(event_target_checked(&ev))
                    />
                    <span>"self-check script"</span>
                </label>
                <button type="button" class="link-copy" data-testid="model-copy-link" on:click=copy_link>"Copy link to this model"</button>
            </div>
            <div aria-live="polite">
                {move || match generator.model.with(|m| m.as_ref().map(|m| m.table.clone())) {
                    None if source.with(|s| s.trim().is_empty()) => view! { <p class="muted">"Paste a model, or pick an example."</p> }.into_any(),
                    None if generator.failed.get() => view! { <p class="error">"The model reader could not start in this browser."</p> }.into_any(),
                    None => view! { <p class="muted" data-testid="model-loading">"Reading the model…"</p> }.into_any(),
                    Some(Err(why)) => view! { <p class="error" role="alert" data-testid="model-error">{why}</p> }.into_any(),
                    Some(Ok(_)) => ().into_any(),
                }}
            </div>
            <div class="model-code">
                <h3>"The model in"</h3>
                <Tabs label="Target framework" tabs=target_tabs(&TARGETS, "model-") selected=selected />
                <p class="status" role="status">{move || status.get()}</p>
                <div
                    class="tabpanels"
                    data-testid="model-code"
                    on:click=copy_clicked
                    inner_html=move || code().map(|list| panels::code_tabs(&list, TARGETS[selected.get()], "model-").into_string()).unwrap_or_default()
                ></div>
            </div>
            <div
                class="model-table"
                inner_html=move || generator.model.with(|m| m.as_ref().and_then(|m| m.table.clone().ok()).unwrap_or_default())
            ></div>
        </section>
    }
}
