//! "Paste a layer call": a layer written as code (`nn.Conv2d(32, 32, (4, 1), padding=(1, 0))`,
//! `Conv2D(32, (4, 1), padding="same")`) fills the form. The worker reads it.

use leptos::prelude::*;

use super::generator::Generator;
use crate::forms::compact::CompactSpec;
use crate::forms::permalink::{format_query, parse_query};
use crate::worker::protocol::Request;

/// How long a pasted call waits for typing to pause.
const PASTE_DELAY: std::time::Duration = std::time::Duration::from_millis(300);

/// The paste field above the form.
#[component]
pub fn PasteLayer(
    /// The worker link.
    generator: Generator,
    /// The form state owned by the root (the pasted layer replaces it).
    form: RwSignal<CompactSpec>,
) -> impl IntoView {
    let pending = StoredValue::new(None::<TimeoutHandle>);
    let asked = StoredValue::new(false);
    let on_input = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        if let Some(handle) = pending.get_value() {
            handle.clear();
        }
        if value.trim().is_empty() {
            generator.pasted.set(None);
            return;
        }
        let send = move || {
            pending.set_value(None);
            asked.set_value(true);
            let current = form.with_untracked(format_query);
            generator.send(|id| Request::PasteLayer {
                id,
                text: value,
                current,
            });
        };
        pending.set_value(set_timeout_with_handle(send, PASTE_DELAY).ok());
    };
    Effect::new(move |_| {
        if let Some(Ok(query)) = generator.pasted.get()
            && asked.get_value()
        {
            asked.set_value(false);
            let fallback = form.get_untracked();
            form.set(parse_query(&query, &fallback).spec);
        }
    });
    Effect::new(move |_| {
        let error = generator
            .pasted
            .with(|p| p.as_ref().and_then(|p| p.as_ref().err().cloned()))
            .unwrap_or_default();
        super::dom::set_text(super::dom::by_id("paste-layer-error").as_ref(), &error);
    });
    view! {
        <div class="paste-layer" on:input=on_input inner_html=crate::view::panels::paste_field().into_string()></div>
    }
}
