//! The arithmetic behind the answer, with the numbers substituted.

use leptos::prelude::*;

use crate::compact::FieldError;
use crate::core::{Answer, LayerSpec};
use crate::explain::explain;

/// One line per dimension: effective kernel, how the padding came about, the output formula.
#[component]
pub fn FormulaPanel(
    /// The layer from the form.
    spec: Memo<Result<LayerSpec, FieldError>>,
    /// The core's answer.
    answer: Memo<Result<Answer, String>>,
) -> impl IntoView {
    let lines = Memo::new(move |_| match (spec.get(), answer.get()) {
        (Ok(spec), Ok(answer)) => explain(&spec, &answer),
        _ => vec![],
    });
    view! {
        <section class="formula" aria-label="Formula" data-testid="formula">
            <h2>"The arithmetic"</h2>
            <Show when=move || !lines.with(Vec::is_empty) fallback=|| view! { <p class="muted">"No output to explain."</p> }>
                <dl>
                    {move || lines.get().into_iter().map(|line| view! {
                        <dt>{line.dimension}</dt>
                        <dd>
                            {line.kernel.map(|k| view! { <div class="math">{k}</div> })}
                            {line.padding.map(|p| view! { <div class="math">{p}</div> })}
                            <div class="math" data-testid="formula-output">{line.output}</div>
                        </dd>
                    }).collect_view()}
                </dl>
            </Show>
        </section>
    }
}
