//! The arithmetic behind the answer, with the numbers substituted (markup from
//! `panels::formula`).

use leptos::prelude::*;

use crate::core::{Answer, LayerSpec};
use crate::forms::compact::{FieldError, LayerError};
use crate::view::explain::explain;
use crate::view::panels;

/// One entry per dimension: effective kernel, how the padding came about, the output formula.
#[component]
pub fn FormulaPanel(
    /// The layer from the form.
    spec: Memo<Result<LayerSpec, FieldError>>,
    /// The core's answer.
    answer: Memo<Result<Answer, LayerError>>,
) -> impl IntoView {
    let html = Memo::new(move |_| {
        spec.with(|spec| {
            answer.with(|answer| match (spec, answer) {
                (Ok(spec), Ok(answer)) => panels::formula(&explain(spec, answer)).into_string(),
                _ => panels::formula(&[]).into_string(),
            })
        })
    });
    view! {
        <section class="formula" aria-label="Formula" data-testid="formula">
            <h2>"The arithmetic"</h2>
            <div inner_html=move || html.get()></div>
        </section>
    }
}
