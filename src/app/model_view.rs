//! The Whole model view's place in the page: its section, and the loading of the view itself,
//! which is a wasm module of its own (`padlab-model`, [`super::model_page`]) fetched when the
//! view is first shown or a model link is opened, so the page's first load does not carry it.
//! The page keeps one thing of the view's: a table row's link opens its layer in the One layer
//! view, whose form is the page's.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, closure::Closure};

use super::dom::{self, by_id};
use super::tabs;
use super::worker_link::site_dir;
use crate::forms::compact::CompactSpec;
use crate::forms::permalink::parse_query;

/// The section's property that holds a file dropped while the view was loading: the view's
/// module opens it once it has started (`model_page::start`).
pub const DROPPED: &str = "padlabDropped";

/// Adds the view's module to the page: Trunk's loader for it (`data-loader-shim` in
/// index.html) imports its script and instantiates its wasm, whose `main` fills the section
/// and takes `aria-busy` off it. Until then a file dropped on the section is kept for it (the
/// browser would otherwise leave the page to show the file).
fn load() {
    let (Some(dir), Some(document), Some(section)) =
        (site_dir(), dom::document(), by_id("view-model-panel"))
    else {
        return;
    };
    let on_drop = Closure::<dyn Fn(web_sys::DragEvent)>::new(|ev: web_sys::DragEvent| {
        let Some(section) = by_id("view-model-panel") else {
            return;
        };
        if !section.has_attribute("aria-busy") {
            return;
        }
        ev.prevent_default();
        if let Some(f) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|list| list.get(0))
        {
            dom::set_property(&section, DROPPED, &f);
        }
    });
    for kind in ["dragover", "drop"] {
        let _ = section.add_event_listener_with_callback(kind, on_drop.as_ref().unchecked_ref());
    }
    on_drop.forget();
    let Ok(script) = document.create_element("script") else {
        return;
    };
    let _ = script.set_attribute("type", "module");
    let _ = script.set_attribute("src", &format!("{dir}padlab-model_loader.js"));
    let on_error = Closure::once_into_js(|| {
        dom::set_markup(
            by_id("view-model-panel").as_ref(),
            r#"<p class="error">The model view could not be loaded: check the connection and reload the page.</p>"#,
        );
    });
    let _ = script.add_event_listener_with_callback("error", on_error.unchecked_ref());
    if let Some(head) = document.head() {
        let _ = head.append_child(&script);
    }
}

/// The Model view's section (always in the page; hidden while the other view is shown, so
/// nothing typed is lost).
#[component]
pub fn ModelView(
    /// Whether the view is shown.
    shown: Signal<bool>,
    /// Whether to load the view without being shown (a model link opened on the other view).
    early: Signal<bool>,
    /// The layer form (a table row opens its layer in it).
    form: RwSignal<CompactSpec>,
    /// The selected view (0: one layer).
    view: RwSignal<usize>,
) -> impl IntoView {
    let loaded = StoredValue::new(false);
    Effect::new(move |_| {
        if (shown.get() || early.get()) && !loaded.get_value() {
            loaded.set_value(true);
            load();
        }
    });
    // A row opens its layer in the picture, in the page (the model, or the file, stays behind
    // the other tab); a click that asks for another tab or window is the browser's.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(link) = dom::closest(&ev, "a[data-testid=model-row-link]") else {
            return;
        };
        if ev.button() != 0 || ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key() {
            return;
        }
        let href = link.get_attribute("href").unwrap_or_default();
        let query = href
            .split('#')
            .next()
            .unwrap_or_default()
            .trim_start_matches('?');
        ev.prevent_default();
        form.set(parse_query(query, &form.get_untracked()).spec);
        if let Some(tab) = by_id("view-tab-layer") {
            tabs::select(&tab);
        }
        view.set(0);
    };
    view! {
        <section
            class="model-view"
            id="view-model-panel"
            role="tabpanel"
            aria-labelledby="view-tab-model"
            aria-busy="true"
            data-testid="model-view"
            hidden=move || !shown.get()
            on:click=on_click
        >
            <h2>"Port a whole model"</h2>
            <p class="muted">"Loading the model reader…"</p>
        </section>
    }
}
