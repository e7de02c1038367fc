//! The page URL as the layer's permalink: read on load and on back/forward, written on change.

use leptos::prelude::*;

use crate::forms::compact::CompactSpec;
use crate::forms::permalink::{Loaded, format_query, parse_query};
pub use crate::forms::permalink::{fragment, opens_model_view, packed_model};

/// The layer in the current URL (or `fallback`), with notices about what could not be used.
pub fn read_location(fallback: &CompactSpec) -> Loaded {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    parse_query(&search, fallback)
}

/// Replaces the address's fragment, keeping the layer's query and the history.
pub fn write_fragment(fragment: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    if location.hash().unwrap_or_default().trim_start_matches('#') == fragment {
        return;
    }
    let hash = if fragment.is_empty() {
        String::new()
    } else {
        format!("#{fragment}")
    };
    let url = format!(
        "{}{}{hash}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    );
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Writes `query` to the address bar: a new history entry (`push`), or a replacement of the
/// current one.
fn write_url(query: &str, push: bool, last_push: StoredValue<f64>, first: StoredValue<bool>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    if location
        .search()
        .unwrap_or_default()
        .trim_start_matches('?')
        == query
    {
        first.set_value(false);
        return;
    }
    // The fragment (the pasted model) stays.
    let url = format!(
        "{}?{query}{}",
        location.pathname().unwrap_or_default(),
        location.hash().unwrap_or_default()
    );
    let Ok(history) = window.history() else {
        return;
    };
    let result = if push {
        history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
    } else {
        history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
    };
    if result.is_ok() {
        last_push.set_value(js_sys::Date::now());
    }
    first.set_value(false);
}

/// How long after the last history entry an edit opens a new one (in ms; a quicker edit is
/// merged into it). `e2e/tests/permalink.spec.ts` jumps the page's clock past it.
const NEW_ENTRY_AFTER: f64 = 1000.0;

/// How long the address bar waits for a burst of edits to pause: a history write costs about
/// 2 ms, too much to pay inside every keystroke's update.
const URL_DELAY: std::time::Duration = std::time::Duration::from_millis(120);

/// Keeps the URL in step with `form`, and `form` in step with back/forward. The first edit after
/// a pause opens a new history entry at once (so Back right after a click works); the rest of
/// its burst (typing "224" is one step back, not three) replaces it once the typing pauses.
pub fn sync_url(
    form: RwSignal<CompactSpec>,
    notices: RwSignal<Vec<String>>,
    fallback: CompactSpec,
) {
    let last_push = StoredValue::new(f64::NEG_INFINITY);
    let first = StoredValue::new(true);
    let pending = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |_| {
        let query = form.with(format_query);
        if let Some(handle) = pending.get_value() {
            handle.clear();
            pending.set_value(None);
        }
        let new_entry =
            !first.get_value() && js_sys::Date::now() - last_push.get_value() >= NEW_ENTRY_AFTER;
        if new_entry || first.get_value() {
            write_url(&query, new_entry, last_push, first);
            return;
        }
        let handle = set_timeout_with_handle(
            move || {
                pending.set_value(None);
                write_url(&query, false, last_push, first);
            },
            URL_DELAY,
        );
        pending.set_value(handle.ok());
    });
    let handle = window_event_listener(leptos::ev::popstate, move |_| {
        let loaded = read_location(&fallback);
        notices.set(loaded.notices);
        form.set(loaded.spec);
    });
    on_cleanup(move || handle.remove());
}

/// Notices about the link (shown until dismissed) and a button that copies the link: static
/// markup (`view::panels::link_bar`), one delegated click handler.
#[component]
pub fn LinkBar(
    /// What the URL contained that could not be used.
    notices: RwSignal<Vec<String>>,
    /// The layer (the link is made from it: the address bar lags the edits slightly).
    form: RwSignal<CompactSpec>,
) -> impl IntoView {
    Effect::new(move |_| {
        let markup = notices.with(|n| crate::view::panels::notices(n).into_string());
        if let Some(slot) = document().get_element_by_id("slot-notices") {
            slot.set_inner_html(&markup);
        }
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(button) = super::dom::closest(&ev, "button") else {
            return;
        };
        if button.has_attribute("data-dismiss") {
            notices.set(vec![]);
        } else if button.has_attribute("data-copy-link") {
            let Some(window) = web_sys::window() else {
                return;
            };
            let location = window.location();
            let href = format!(
                "{}{}?{}",
                location.origin().unwrap_or_default(),
                location.pathname().unwrap_or_default(),
                form.with_untracked(format_query)
            );
            super::clipboard::copy(href, "link-status", "Link copied.".into());
        }
    };
    view! {
        <div class="linkbar" on:click=on_click inner_html=crate::view::panels::link_bar().into_string()></div>
    }
}
