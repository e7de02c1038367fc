//! The panels below the picture: the arithmetic, the framework comparison, the plot, the
//! inverse and the code. A static shell (`view::panels::below_shell`) whose slots take the
//! worker's markup as it comes; one delegated handler per event kind reads the wanted size, the
//! code options, the tabs and the copy buttons.

use leptos::prelude::*;
use web_sys::Element;

use super::dom;
use super::generator::Generator;
use super::tabs;
use crate::core::Framework;
use crate::view::panels::below_shell;

fn slot(name: &str) -> Option<Element> {
    dom::by_id(&format!("slot-{name}"))
}

/// Writes `markup` into a slot unless it holds it already.
fn fill(name: &str, markup: &str, last: StoredValue<Vec<(String, String)>>) {
    let same = last.with_value(|l| l.iter().any(|(n, m)| n == name && m == markup));
    if same {
        return;
    }
    if let Some(el) = slot(name) {
        el.set_inner_html(markup);
        if name == "comparison" {
            let _ = el.toggle_attribute_with_force("hidden", markup.is_empty());
        }
        // The reply was rendered with the tab selected when it was asked for: show the one
        // selected now.
        if name == "code"
            && let Ok(Some(tab)) = document().query_selector(".code [role=tab][aria-selected=true]")
        {
            tabs::select(&tab);
        }
    }
    last.update_value(|l| {
        l.retain(|(n, _)| n != name);
        l.push((name.to_string(), markup.to_string()));
    });
}

/// The panels below the picture.
#[component]
pub fn Below(
    /// The worker link (the replies, the options, the wanted size, the tab shown).
    generator: Generator,
) -> impl IntoView {
    let last = StoredValue::new(Vec::<(String, String)>::new());
    Effect::new(move |_| {
        let (ready, failed) = (generator.ready.get(), generator.failed.get());
        generator.reply.with(|reply| match reply {
            Some(reply) => {
                let p = &reply.panels;
                for (name, markup) in [
                    ("formula", &p.formula),
                    ("comparison", &p.comparison),
                    ("inverse", &p.inverse),
                    ("code", &p.code),
                    ("plot", &p.plot),
                ] {
                    fill(name, markup, last);
                }
            }
            None => {
                let (code, plot) = if failed {
                    (
                        r#"<p class="error">The code generator could not start in this browser.</p>"#,
                        r#"<p class="error">The plot could not start in this browser.</p>"#,
                    )
                } else if !ready {
                    (
                        r#"<p class="muted" data-testid="code-loading">Loading the code generator…</p>"#,
                        r#"<p class="muted">Loading the plot…</p>"#,
                    )
                } else {
                    (
                        r#"<p class="muted">Code appears once the layer is valid.</p>"#,
                        r#"<p class="muted">The plot appears once the layer is valid.</p>"#,
                    )
                };
                for (name, markup) in [
                    ("formula", ""),
                    ("comparison", ""),
                    ("inverse", ""),
                    ("code", code),
                    ("plot", plot),
                ] {
                    fill(name, markup, last);
                }
            }
        });
    });
    let on_input = move |ev: leptos::ev::Event| {
        let Some(el) = dom::target(&ev) else {
            return;
        };
        if el.get_attribute("name").as_deref() == Some("want") {
            generator.want.set(dom::value(&el));
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let Some(el) = dom::target(&ev) else {
            return;
        };
        let (on, value) = (dom::checked(&el), dom::value(&el));
        match el.get_attribute("name").as_deref() {
            Some("sweep") => generator.sweep.set(value.parse().ok()),
            Some("check") => generator.options.update(|o| o.check = on),
            Some("export-safe") => generator.options.update(|o| o.export_safe = on),
            Some("functional") => generator.options.update(|o| o.functional = on),
            _ => {}
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(el) = dom::closest(&ev, "[name], button") else {
            return;
        };
        if el.has_attribute("data-copy") {
            super::clipboard::copy_tab(&el, "copy-status", "code");
        } else if let Some(index) = tabs::select(&el) {
            generator.select(Framework::ALL[index.min(Framework::ALL.len() - 1)]);
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let Some(el) = dom::target(&ev) else {
            return;
        };
        if let Some(index) = tabs::key(&el, &ev.key()) {
            ev.prevent_default();
            generator.select(Framework::ALL[index.min(Framework::ALL.len() - 1)]);
        }
    };
    view! {
        <div
            class="panels"
            on:input=on_input
            on:change=on_change
            on:click=on_click
            on:keydown=on_key
            inner_html=below_shell().into_string()
        ></div>
    }
}
