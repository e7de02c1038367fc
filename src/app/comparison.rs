//! The same sizes under each framework's 'same' and torch's integer padding (markup from
//! `view::panels::comparison`, made by the worker).

use leptos::prelude::*;

use super::generator::Generator;

/// A table: output size and per-side pads per framework, the odd pixel's side marked.
#[component]
pub fn Comparison(
    /// The worker link (its layer reply carries the panel).
    generator: Generator,
) -> impl IntoView {
    let html = Memo::new(move |_| {
        generator
            .reply
            .with(|r| r.as_ref().map(|r| r.panels.comparison.clone()))
            .unwrap_or_default()
    });
    view! {
        <section
            class="comparison"
            aria-label="Framework comparison"
            hidden=move || html.with(String::is_empty)
            inner_html=move || html.get()
        ></section>
    }
}
