//! The arithmetic behind the answer, with the numbers substituted (markup from
//! `view::panels::formula`, made by the worker).

use leptos::prelude::*;

use super::generator::Generator;

/// One entry per dimension: effective kernel, how the padding came about, the output formula.
#[component]
pub fn FormulaPanel(
    /// The worker link (its layer reply carries the panel).
    generator: Generator,
) -> impl IntoView {
    let html = move || {
        generator
            .reply
            .with(|r| r.as_ref().map(|r| r.panels.formula.clone()))
            .unwrap_or_default()
    };
    view! {
        <section class="formula" aria-label="Formula" data-testid="formula">
            <h2>"The arithmetic"</h2>
            <div inner_html=html></div>
        </section>
    }
}
