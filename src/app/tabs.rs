//! Tabs in markup (WAI-ARIA tabs pattern): one tab in the Tab order (the selected one, a roving
//! `tabindex`); the arrow keys, Home and End move between them and select as they go.

use super::dom::by_id;

/// The tab a key moves to from `current` among `count`, if the key moves.
pub fn moved(key: &str, current: usize, count: usize) -> Option<usize> {
    if count == 0 {
        return None;
    }
    match key {
        "ArrowRight" | "ArrowDown" => Some((current + 1) % count),
        "ArrowLeft" | "ArrowUp" => Some((current + count - 1) % count),
        "Home" => Some(0),
        "End" => Some(count - 1),
        _ => None,
    }
}

/// Selects `tab` (a `role="tab"` element in markup, not a [`Tabs`] row): the attributes of its
/// row and the `hidden` of the panels they control. Its index, or `None` when it is no tab.
pub fn select(tab: &web_sys::Element) -> Option<usize> {
    if tab.get_attribute("role").as_deref() != Some("tab") {
        return None;
    }
    let row = tab.parent_element()?.children();
    let mut index = None;
    for i in 0..row.length() {
        let Some(other) = row.item(i) else { continue };
        let on = &other == tab;
        if on {
            index = Some(i as usize);
        }
        let _ = other.set_attribute("aria-selected", if on { "true" } else { "false" });
        let _ = other.set_attribute("tabindex", if on { "0" } else { "-1" });
        if let Some(panel) = other
            .get_attribute("aria-controls")
            .and_then(|id| by_id(&id))
        {
            let _ = panel.toggle_attribute_with_force("hidden", !on);
        }
    }
    index
}

/// The arrow keys, Home and End on a tab in markup: selects and focuses the tab they move to.
pub fn key(tab: &web_sys::Element, key: &str) -> Option<usize> {
    if tab.get_attribute("role").as_deref() != Some("tab") {
        return None;
    }
    let row = tab.parent_element()?.children();
    let count = row.length() as usize;
    let current = (0..row.length()).position(|i| row.item(i).as_ref() == Some(tab))?;
    let next = row.item(moved(key, current, count)? as u32)?;
    let index = select(&next);
    if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(next) {
        let _ = el.focus();
    }
    index
}

#[cfg(test)]
mod tests {
    use super::moved;

    #[test]
    fn arrows_wrap_and_home_end_jump() {
        assert_eq!(moved("ArrowRight", 2, 3), Some(0));
        assert_eq!(moved("ArrowLeft", 0, 3), Some(2));
        assert_eq!(moved("Home", 2, 3), Some(0));
        assert_eq!(moved("End", 0, 3), Some(2));
        assert_eq!(moved("a", 0, 3), None);
        assert_eq!(moved("ArrowRight", 0, 0), None);
    }
}
