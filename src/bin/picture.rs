//! The picture ahead of the app, for a permalink: a small module (the rules and the grid, no
//! Leptos) that draws the linked layer's static picture into the page skeleton while the app's
//! larger wasm is still on its way. Trunk builds it like the worker (`data-type="worker"`: a
//! plain script, not preloaded); `index.html` loads it only when the URL names a layer (the
//! default layer's picture is in the HTML already). The app replaces it when it mounts; an e2e
//! spec proves the two pictures are the same markup.

#[cfg(target_arch = "wasm32")]
fn main() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    // Too late (the app is up) or not needed (the default picture is there).
    let Some(app) = document.get_element_by_id("app") else {
        return;
    };
    if !app.has_attribute("aria-busy") || document.get_element_by_id("prerendered").is_some() {
        return;
    }
    let search = window.location().search().unwrap_or_default();
    let loaded = padlab::permalink::parse_query(&search, &padlab::presets::default_layer());
    let Ok(spec) = loaded.spec.to_spec() else {
        return;
    };
    let Some(section) = padlab::grid::skeleton_section(&spec, "early") else {
        return;
    };
    if let Ok(Some(summary)) = app.query_selector(".results .summary") {
        let _ = summary.insert_adjacent_html("afterend", &section);
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
