//! "I want output N": the padding (or output_padding / output_size) in each framework's own
//! vocabulary that gives it, or why none can (markup from `view::panels::inverse`, made by the
//! worker for the size typed here).

use leptos::prelude::*;

use super::generator::Generator;

/// The inverse: a wanted output size and, per framework, how to get it.
#[component]
pub fn InversePanel(
    /// The worker link (the wanted size goes with the layer's request).
    generator: Generator,
) -> impl IntoView {
    let want = generator.want;
    let html = move || {
        generator
            .reply
            .with(|r| r.as_ref().map(|r| r.panels.inverse.clone()))
            .unwrap_or_default()
    };
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
            <div inner_html=html></div>
        </section>
    }
}
