//! The answer: output size and per-side padding (or crop), or the framework's reason.

use leptos::prelude::*;

use crate::core::{Answer, Placement};

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
                    let names: &[&str] = match a.output.len() {
                        1 => &["length"],
                        2 => &["height", "width"],
                        _ => &["depth", "height", "width"],
                    };
                    let (before, after) = match a.placement {
                        Placement::Pad => ("pad before", "pad after"),
                        Placement::Crop => ("crop before", "crop after"),
                    };
                    view! {
                        <p class="output">
                            "Output "
                            <strong data-testid="output-size" data-value=size.clone()>{size.replace('x', " × ")}</strong>
                        </p>
                        <table class="pads">
                            <thead><tr><th scope="col">"dimension"</th><th scope="col">{before}</th><th scope="col">{after}</th></tr></thead>
                            <tbody>
                                {names
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
                        {a.full_output.map(|full| view! {
                            <p class="note">"Full transposed output " {joined(&full).replace('x', " × ")} ", then cropped (negative: zeros appended)."</p>
                        })}
                        {a.pads_depend_on_input.then(|| view! {
                            <p class="badge">"Input-dependent: strided 'same' pads change with the input size."</p>
                        })}
                    }
                    .into_any()
                }
                Err(reason) => view! { <p class="error" role="alert" data-testid="error">{reason}</p> }.into_any(),
            }}
        </section>
    }
}
