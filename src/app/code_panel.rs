//! Equivalent code in every framework: one tab per target, copy buttons, and toggles for the
//! self-check script, export-safe PyTorch and the functional form.

use leptos::prelude::*;

use wasm_bindgen::{JsCast, JsValue, closure::Closure};
use web_sys::{Blob, BlobPropertyBag, MessageEvent, Url, Worker};

use crate::codegen::Options;
use crate::codegen::protocol::{Snippets, read_reply, request};
use crate::compact::{CompactSpec, FieldError};
use crate::core::{Framework, LayerSpec};
use crate::highlight::highlight;

/// Starts the code-generator worker (`padlab-codegen.js` beside the page, under any sub-path).
fn start_worker() -> Option<Worker> {
    let base = web_sys::window()?.document()?.base_uri().ok()??;
    let dir = Url::new_with_base(".", &base).ok()?.href();
    let script = format!(
        r#"importScripts("{dir}padlab-codegen.js");wasm_bindgen("{dir}padlab-codegen_bg.wasm");"#
    );
    let parts = js_sys::Array::of1(&JsValue::from_str(&script));
    let options = BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    Worker::new(&Url::create_object_url_with_blob(&blob).ok()?).ok()
}

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

/// Python with coloured tokens.
fn highlighted(code: &str) -> impl IntoView + use<> {
    highlight(code)
        .into_iter()
        .map(|(token, text)| {
            let text = text.to_string();
            match token.class() {
                Some(class) => view! { <span class=class>{text}</span> }.into_any(),
                None => text.into_any(),
            }
        })
        .collect_view()
}

/// Copies `text` to the clipboard and reports the outcome in `status`.
fn copy(text: String, target: Framework, status: RwSignal<String>) {
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

/// The code panel.
#[component]
pub fn CodePanel(
    /// The layer from the form.
    spec: Memo<Result<LayerSpec, FieldError>>,
) -> impl IntoView {
    let options = RwSignal::new(Options::default());
    let selected = RwSignal::new(Framework::Torch);
    let status = RwSignal::new(String::new());
    // The generator runs in a worker, started after the first picture; replies carry the id
    // of their request so a stale one is dropped.
    let snippets = RwSignal::new(None::<Snippets>);
    let latest = StoredValue::new(0u64);
    let ready = RwSignal::new(false);
    let worker = StoredValue::new_local(None::<Worker>);
    let failed = RwSignal::new(false);
    Effect::new(move |_| {
        if worker.with_value(Option::is_some) {
            return;
        }
        let Some(w) = start_worker() else {
            failed.set(true);
            return;
        };
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |message: MessageEvent| {
            let Some(text) = message.data().as_string() else {
                return;
            };
            if text == "ready" {
                ready.set(true);
            } else if let Some((id, entries)) = read_reply(&text)
                && id == latest.get_value()
            {
                snippets.set(Some(entries));
            }
        });
        w.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        worker.set_value(Some(w));
    });
    Effect::new(move |_| {
        let options = options.get();
        let layer = spec.with(|s| s.as_ref().ok().map(CompactSpec::from_spec));
        if !ready.get() {
            return;
        }
        let Some(layer) = layer else {
            snippets.set(None);
            return;
        };
        let id = latest.get_value() + 1;
        latest.set_value(id);
        worker.with_value(|w| {
            if let Some(w) = w {
                let _ = w.post_message(&JsValue::from_str(&request(id, &layer, &options)));
            }
        });
    });
    view! {
        <section class="code" aria-label="Equivalent code">
            <h2>"Equivalent code"</h2>
            <div class="code-options">
                <Toggle label="self-check script" testid="toggle-check" options=options get=|o| o.check set=|o, v| o.check = v />
                <Toggle label="export-safe PyTorch (no 'same')" testid="toggle-export-safe" options=options get=|o| o.export_safe set=|o, v| o.export_safe = v />
                <Toggle label="PyTorch functional form" testid="toggle-functional" options=options get=|o| o.functional set=|o, v| o.functional = v />
            </div>
            <div class="tabs" role="tablist" aria-label="Target framework">
                {Framework::ALL
                    .iter()
                    .map(|&t| {
                        view! {
                            <button
                                type="button"
                                role="tab"
                                id=format!("tab-{}", t.name())
                                data-testid=format!("tab-{}", t.name())
                                aria-controls=format!("panel-{}", t.name())
                                aria-selected=move || (selected.get() == t).to_string()
                                on:click=move |_| selected.set(t)
                            >
                                {t.title()}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <p class="status" role="status" data-testid="copy-status">{move || status.get()}</p>
            {move || match snippets.get() {
                None if failed.get() => view! { <p class="error">"The code generator could not start in this browser."</p> }.into_any(),
                None if !ready.get() => view! { <p class="muted" data-testid="code-loading">"Loading the code generator…"</p> }.into_any(),
                None => view! { <p class="muted">"Code appears once the layer is valid."</p> }.into_any(),
                Some(list) => list
                    .into_iter()
                    .map(|(t, code)| {
                        let copy_text = code.clone().unwrap_or_default();
                        view! {
                            <div
                                class="tabpanel"
                                role="tabpanel"
                                id=format!("panel-{}", t.name())
                                aria-labelledby=format!("tab-{}", t.name())
                                hidden=move || selected.get() != t
                            >
                                {match code {
                                    Ok(code) => view! {
                                        <button
                                            type="button"
                                            class="copy"
                                            data-testid=format!("copy-{}", t.name())
                                            on:click=move |_| copy(copy_text.clone(), t, status)
                                        >
                                            "Copy"
                                        </button>
                                        // Only the visible tab is coloured: one text node for the others
                                        // keeps every block in the DOM at a fraction of the cost.
                                        <pre data-testid=format!("code-{}", t.name()) tabindex="0">
                                            <code>
                                                {move || if selected.get() == t { highlighted(&code).into_any() } else { code.clone().into_any() }}
                                            </code>
                                        </pre>
                                    }
                                    .into_any(),
                                    Err(reason) => view! { <p class="error">{reason}</p> }.into_any(),
                                }}
                            </div>
                        }
                    })
                    .collect_view()
                    .into_any(),
            }}
        </section>
    }
}
