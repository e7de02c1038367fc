//! One-click layers.

use leptos::prelude::*;

use crate::forms::compact::CompactSpec;
use crate::view::presets::presets;

/// A row of preset buttons; choosing one replaces the form.
#[component]
pub fn PresetBar(
    /// The form state owned by the root.
    form: RwSignal<CompactSpec>,
) -> impl IntoView {
    view! {
        <nav class="presets" aria-label="Presets">
            <ul>
                {presets()
                    .into_iter()
                    .map(|preset| {
                        let spec = preset.spec.clone();
                        let current = preset.spec.clone();
                        view! {
                            <li>
                                <button
                                    type="button"
                                    data-testid=format!("preset-{}", preset.id)
                                    title=preset.note
                                    aria-pressed=move || form.with(|f| (*f == current).to_string())
                                    on:click=move |_| form.set(spec.clone())
                                >
                                    {preset.title}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </nav>
    }
}
