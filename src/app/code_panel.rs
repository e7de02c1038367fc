//! Equivalent code in every framework: one tab per target, copy buttons, and toggles for the
//! self-check script, export-safe PyTorch and the functional form.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::generator::Generator;
use super::tabs::{Tab, Tabs};
use crate::codegen::Options;
use crate::core::Framework;
use crate::view::panels;

/// One checkbox bound to an `Options` flag.
#[component]
fn Toggle(
    /// The visible label.
    label: &'static str,
    /// `data-testid` of the checkbox.
    testid: &'static str,
    /// The options owned by the panel.
    options: RwSignal<Options>,
    /// Reads the flag.
    get: fn(&Options) -> bool,
    /// Writes the flag.
    set: fn(&mut Options, bool),
) -> impl IntoView {
    view! {
        <label class="check">
            <input
                type="checkbox"
                data-testid=testid
                prop:checked=move || options.with(get)
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    options.update(|o| set(o, on));
                }
            />
            <span>{label}</span>
        </label>
    }
}

/// Copies `text` to the clipboard and reports the outcome in `status`.
pub(super) fn copy(text: String, target: Framework, status: RwSignal<String>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        let message = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => format!("Copied the {} code.", target.title()),
            Err(_) => "The browser refused the clipboard: select the code and copy it by hand."
                .to_string(),
        };
        status.set(message);
    });
}

/// One tab per target framework; `prefix` tells the model's tabs from the layer's.
pub(super) fn target_tabs(targets: &[Framework], prefix: &str) -> Vec<Tab> {
    targets
        .iter()
        .map(|t| Tab {
            id: format!("tab-{prefix}{}", t.name()),
            testid: format!("{prefix}tab-{}", t.name()),
            controls: format!("panel-{prefix}{}", t.name()),
            title: t.title(),
        })
        .collect()
}

/// The code panel.
#[component]
pub fn CodePanel(
    /// The worker link (code, options).
    generator: Generator,
) -> impl IntoView {
    let Generator {
        options,
        reply,
        ready,
        failed,
        ..
    } = generator;
    let selected = RwSignal::new(0);
    let status = RwSignal::new(String::new());
    view! {
        <section class="code" aria-label="Equivalent code">
            <h2>"Equivalent code"</h2>
            <div class="code-options">
                <Toggle label="self-check script" testid="toggle-check" options=options get=|o| o.check set=|o, v| o.check = v />
                <Toggle label="export-safe PyTorch (no 'same')" testid="toggle-export-safe" options=options get=|o| o.export_safe set=|o, v| o.export_safe = v />
                <Toggle label="PyTorch functional form" testid="toggle-functional" options=options get=|o| o.functional set=|o, v| o.functional = v />
            </div>
            <Tabs label="Target framework" tabs=target_tabs(Framework::ALL, "") selected=selected />
            <p class="status" role="status" data-testid="copy-status">{move || status.get()}</p>
            {move || match reply.with(|r| r.as_ref().map(|r| r.snippets.clone())) {
                None if failed.get() => view! { <p class="error">"The code generator could not start in this browser."</p> }.into_any(),
                None if !ready.get() => view! { <p class="muted" data-testid="code-loading">"Loading the code generator…"</p> }.into_any(),
                None => view! { <p class="muted">"Code appears once the layer is valid."</p> }.into_any(),
                Some(list) => {
                    // One delegated handler for every copy button (`data-copy` names the target).
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
                        let text = reply.with_untracked(|r| {
                            r.as_ref()
                                .and_then(|r| r.snippets.iter().find(|(t, _)| *t == target))
                                .and_then(|(_, code)| code.clone().ok())
                        });
                        if let Some(text) = text {
                            copy(text, target, status);
                        }
                    };
                    view! {
                        <div
                            class="tabpanels"
                            on:click=copy_clicked
                            inner_html=move || panels::code_tabs(&list, Framework::ALL[selected.get()], "").into_string()
                        ></div>
                    }
                    .into_any()
                }
            }}
        </section>
    }
}
