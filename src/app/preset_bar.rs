//! One-click layers: a static row of buttons (`view::panels::preset_bar`); choosing one replaces
//! the form; the preset that matches the form is pressed and its note shown as text.

use leptos::prelude::*;

use crate::forms::compact::CompactSpec;
use crate::view::panels::preset_bar;
use crate::view::presets::presets;

/// The preset row.
#[component]
pub fn PresetBar(
    /// The form state owned by the root.
    form: RwSignal<CompactSpec>,
) -> impl IntoView {
    let root = NodeRef::<leptos::html::Nav>::new();
    Effect::new(move |_| {
        let Some(root) = root.get() else {
            return;
        };
        let chosen = form.with(|f| presets().into_iter().find(|p| p.spec == *f));
        if let Ok(Some(list)) = root.query_selector("ul") {
            let items = list.children();
            for i in 0..items.length() {
                if let Some(b) = items.item(i).and_then(|li| li.first_element_child()) {
                    let on = chosen
                        .as_ref()
                        .is_some_and(|p| b.get_attribute("data-preset").as_deref() == Some(p.id));
                    let pressed = if on { "true" } else { "false" };
                    if b.get_attribute("aria-pressed").as_deref() != Some(pressed) {
                        let _ = b.set_attribute("aria-pressed", pressed);
                    }
                }
            }
        }
        if let Ok(Some(note)) = root.query_selector("#preset-note") {
            note.set_text_content(Some(chosen.as_ref().map_or("", |p| p.note)));
        }
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let id =
            super::dom::closest(&ev, "[data-preset]").and_then(|b| b.get_attribute("data-preset"));
        if let Some(preset) = id.and_then(|id| presets().into_iter().find(|p| p.id == id)) {
            form.set(preset.spec);
        }
    };
    view! {
        <nav class="presets" aria-label="Presets" node_ref=root on:click=on_click inner_html=preset_bar().into_string()></nav>
    }
}
