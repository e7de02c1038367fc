//! The same sizes under each framework's 'same' and torch's integer padding.

use leptos::prelude::*;

use crate::compact::FieldError;
use crate::compare::{compare, odd_side};
use crate::core::LayerSpec;
use crate::explain::dimension_names;

/// A table: output size and per-side pads per framework, the odd pixel's side marked.
#[component]
pub fn Comparison(
    /// The layer from the form.
    spec: Memo<Result<LayerSpec, FieldError>>,
) -> impl IntoView {
    let rows = Memo::new(move |_| spec.with(|s| s.as_ref().map(compare).unwrap_or_default()));
    view! {
        <Show when=move || !rows.with(Vec::is_empty)>
            <section class="comparison" aria-label="Framework comparison">
                <h2>"Across frameworks"</h2>
                <table data-testid="comparison">
                    <thead>
                        <tr><th scope="col">"padding"</th><th scope="col">"output"</th><th scope="col">"pads (before, after)"</th></tr>
                    </thead>
                    <tbody>
                        {move || rows.get().into_iter().map(|row| {
                            let cells = match &row.answer {
                                Ok(a) => {
                                    let names = dimension_names(a.output.len());
                                    let pads = (0..a.output.len())
                                        .map(|d| {
                                            let odd = odd_side(a, d);
                                            let text = format!("{}: ({}, {})", names[d], a.before[d], a.after[d]);
                                            view! {
                                                <span class="pad" class:odd=odd.is_some() title=odd.map(|s| format!("odd pixel {s}"))>
                                                    {text}{odd.map(|s| format!(" — odd pixel {s}"))}
                                                </span>
                                            }
                                        })
                                        .collect_view();
                                    view! {
                                        <td>{crate::compact::join(&a.output).replace('x', " × ")}</td>
                                        <td>{pads}{a.pads_depend_on_input.then(|| view! { <span class="badge small">"input-dependent"</span> })}</td>
                                    }.into_any()
                                }
                                Err(reason) => view! { <td colspan="2" class="refused">{reason.clone()}</td> }.into_any(),
                            };
                            view! { <tr><th scope="row">{row.label}</th>{cells}</tr> }
                        }).collect_view()}
                    </tbody>
                </table>
            </section>
        </Show>
    }
}
