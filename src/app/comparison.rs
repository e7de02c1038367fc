//! The same sizes under each framework's 'same' and torch's integer padding
//! (markup from `panels::comparison`).

use leptos::prelude::*;

use crate::core::LayerSpec;
use crate::forms::compact::FieldError;
use crate::view::compare::compare;
use crate::view::panels;

/// A table: output size and per-side pads per framework, the odd pixel's side marked.
#[component]
pub fn Comparison(
    /// The layer from the form.
    spec: Memo<Result<LayerSpec, FieldError>>,
) -> impl IntoView {
    let html = Memo::new(move |_| {
        spec.with(|s| {
            s.as_ref()
                .map(|s| panels::comparison(&compare(s)).into_string())
                .unwrap_or_default()
        })
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
