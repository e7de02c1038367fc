//! The app's DOM helpers, once, for both of the page's wasm modules (no Leptos here: the
//! Whole-model view's module, `model_page`, uses them too). Effects run again whenever what
//! they read changes, so every write here touches the page only when the value differs (an
//! unchanged attribute, text or `hidden` is left alone: no style recalculation, no lost
//! selection).

use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

/// The page's document (none outside a window: a worker).
pub fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// The element an event happened on.
pub fn target(ev: &web_sys::Event) -> Option<Element> {
    ev.target().and_then(|t| t.dyn_into::<Element>().ok())
}

/// The nearest element matching `selector` around where an event happened (the button a click
/// landed in, say): delegated handlers read their control from it.
pub fn closest(ev: &web_sys::Event, selector: &str) -> Option<Element> {
    target(ev).and_then(|el| el.closest(selector).ok().flatten())
}

/// The element with this `id`.
pub fn by_id(id: &str) -> Option<Element> {
    document()?.get_element_by_id(id)
}

/// A DOM property (`value`, `checked`, ...), undefined when there is none.
pub fn property(el: &Element, name: &str) -> JsValue {
    js_sys::Reflect::get(el, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

pub fn set_property(el: &Element, name: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(el, &JsValue::from_str(name), value);
}

/// A form control's `value`.
pub fn value(el: &Element) -> String {
    property(el, "value").as_string().unwrap_or_default()
}

pub fn set_value(el: &Element, value: &str) {
    set_property(el, "value", &JsValue::from_str(value));
}

/// A checkbox's `checked`.
pub fn checked(el: &Element) -> bool {
    property(el, "checked").is_truthy()
}

/// Sets an attribute unless it holds the value already.
pub fn set_attr(el: &Element, name: &str, value: &str) {
    if el.get_attribute(name).as_deref() != Some(value) {
        let _ = el.set_attribute(name, value);
    }
}

/// Sets an element's text unless it holds it already.
pub fn set_text(el: Option<&Element>, text: &str) {
    if let Some(el) = el
        && el.text_content().as_deref().unwrap_or("") != text
    {
        el.set_text_content(Some(text));
    }
}

/// Hides or shows an element unless it is so already.
pub fn set_hidden(el: Option<&Element>, hidden: bool) {
    if let Some(el) = el
        && el.has_attribute("hidden") != hidden
    {
        let _ = el.toggle_attribute_with_force("hidden", hidden);
    }
}

/// Replaces an element's markup unless it holds it already.
pub fn set_markup(el: Option<&Element>, markup: &str) {
    if let Some(el) = el
        && el.inner_html() != markup
    {
        el.set_inner_html(markup);
    }
}

/// Runs `f` at the next animation frame.
pub fn next_frame(f: impl FnOnce() + 'static) {
    let f = wasm_bindgen::closure::Closure::once_into_js(f);
    if let Some(w) = web_sys::window() {
        let _ = w.request_animation_frame(f.unchecked_ref());
    }
}

/// Runs `f` after `ms` milliseconds; the handle clears it ([`clear_timeout`]).
pub fn set_timeout(f: impl FnOnce() + 'static, ms: i32) -> Option<i32> {
    let f = wasm_bindgen::closure::Closure::once_into_js(f);
    web_sys::window()?
        .set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), ms)
        .ok()
}

pub fn clear_timeout(handle: i32) {
    if let Some(w) = web_sys::window() {
        w.clear_timeout_with_handle(handle);
    }
}
