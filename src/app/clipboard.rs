//! Copying to the clipboard, with a word in a status line: the code tabs, the answer lines,
//! the links. Shared by both of the page's wasm modules (no Leptos here).

use web_sys::Element;

use super::dom;
use crate::core::Framework;

/// A code tab's copy button (`data-copy` names the target): copies the tab's `pre`, then says
/// so in the status line `status_id` ("Copied the PyTorch code.", `what` naming the thing).
pub fn copy_tab(button: &Element, status_id: &'static str, what: &str) {
    copy_beside(button, ("data-copy", "pre"), status_id, |target| {
        format!("Copied the {} {what}.", target.title())
    });
}

/// A copy button whose attribute `attr` names a target: copies the text of the `selector`
/// element beside it (in its parent), then says `done(target)` in the status line `status_id`.
pub fn copy_beside(
    button: &Element,
    (attr, selector): (&str, &str),
    status_id: &'static str,
    done: impl FnOnce(Framework) -> String,
) {
    let text = button
        .parent_element()
        .and_then(|parent| parent.query_selector(selector).ok().flatten())
        .and_then(|source| source.text_content());
    let target = button
        .get_attribute(attr)
        .and_then(|name| name.parse::<Framework>().ok());
    if let (Some(text), Some(target)) = (text, target) {
        copy(text, status_id, done(target));
    }
}

/// Copies `text`, then says so in the code panel's status line.
pub fn copy(text: String, status_id: &'static str, done: String) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(&text);
    wasm_bindgen_futures::spawn_local(async move {
        let message = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => done,
            Err(_) => "The browser refused the clipboard: select the text and copy it by hand."
                .to_string(),
        };
        dom::set_text(dom::by_id(status_id).as_ref(), &message);
    });
}
