//! "I want output N": the padding (or output_padding / output_size) in each framework's own
//! vocabulary that gives it, or why none can.

use leptos::prelude::*;

use crate::core::LayerSpec;
use crate::forms::compact::{Field, FieldError, parse_sizes};
use crate::view::panels;

/// The inverse: a wanted output size and, per framework, how to get it.
#[component]
pub fn InversePanel(
    /// The layer from the form (its padding is what gets replaced).
    spec: Memo<Result<LayerSpec, FieldError>>,
) -> impl IntoView {
    let want = RwSignal::new(String::new());
    let html = Memo::new(move |_| {
        let text = want.get();
        if text.trim().is_empty() {
            return String::new();
        }
        spec.with(|spec| match (spec, parse_sizes(Field::Wanted, &text)) {
            (Ok(spec), Ok(w)) => panels::inverse(spec, &w),
            (Err(e), _) => panels::refusal(e),
            (_, Err(e)) => panels::refusal(&e),
        })
        .into_string()
    });
    view! {
        <section class="inverse" aria-label="Padding for a wanted output">
            <h2>"I want output…"</h2>
            <label class="field inline">
                <span>"Wanted output size"</span>
                <input
                    type="text"
                    data-testid="want"
                    placeholder="e.g. 100x20"
                    prop:value=move || want.get()
                    on:input=move |ev| want.set(event_target_value(&ev))
                />
            </label>
            <div inner_html=move || html.get()></div>
        </section>
    }
}
