//! The web app (Leptos, client-side rendered, built by Trunk). Components are thin over core
//! calls: the root owns the state, derived values are `Memo`s over [`crate::core::evaluate`].

mod controls;
pub mod form;
mod summary;

use leptos::prelude::*;

use crate::core::evaluate;
use controls::Controls;
use form::Form;
use summary::Summary;

/// The whole page below the static header.
#[component]
pub fn App() -> impl IntoView {
    let form = RwSignal::new(Form::default());
    let answer = Memo::new(move |_| {
        form.with(|f| f.spec())
            .map_err(|e| e.message)
            .and_then(|spec| evaluate(&spec).map_err(|e| e.to_string()))
    });
    view! {
        <Controls form=form />
        <Summary answer=answer />
    }
}

/// Replaces the static skeleton in `index.html` with the live app.
pub fn mount() {
    console_error_panic_hook::set_once();
    let Some(root) = document().get_element_by_id("app") else {
        return;
    };
    root.set_inner_html("");
    // The skeleton marked the region busy for assistive technology until now.
    let _ = root.remove_attribute("aria-busy");
    if let Ok(root) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(root) {
        leptos::mount::mount_to(root, App).forget();
    }
}
