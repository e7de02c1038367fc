//! The app's DOM helpers, once. Effects run again whenever what they read changes, so every
//! write here touches the page only when the value differs (an unchanged attribute, text or
//! `hidden` is left alone: no style recalculation, no lost selection).

use leptos::prelude::document;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

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
    document().get_element_by_id(id)
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
