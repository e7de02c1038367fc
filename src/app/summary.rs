//! The answer: output size and per-side padding, or the framework's reason for refusing.

use leptos::prelude::*;

use crate::core::Answer;

fn joined(values: &[i64]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

/// Output size and pads of the current layer.
#[component]
pub fn Summary(
    /// The core's answer for the form, or why there is none.
    answer: Memo<Result<Answer, String>>,
) -> impl IntoView {
    view! {
        <section class="summary" aria-live="polite" aria-label="Result">
            {move || match answer.get() {
                Ok(a) => {
                    let size = joined(&a.output);
                    view! {
                        <p class="output">
                            "Output "
                            <strong data-testid="output-size" data-value=size.clone()>{size.replace('x', " × ")}</strong>
                        </p>
                        <table class="pads">
                            <thead><tr><th>"dimension"</th><th>"pad before"</th><th>"pad after"</th></tr></thead>
                            <tbody>
                                {["height", "width"]
                                    .iter()
                                    .enumerate()
                                    .map(|(d, name)| {
                                        view! {
                                            <tr>
                                                <th scope="row">{*name}</th>
                                                <td data-testid="pad-before">{a.before.get(d).copied().unwrap_or(0)}</td>
                                                <td data-testid="pad-after">{a.after.get(d).copied().unwrap_or(0)}</td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                        {a.pads_depend_on_input.then(|| view! {
                            <p class="badge">"The padding depends on the input size (strided 'same')."</p>
                        })}
                    }
                    .into_any()
                }
                Err(reason) => view! { <p class="error" role="alert" data-testid="error">{reason}</p> }.into_any(),
            }}
        </section>
    }
}
