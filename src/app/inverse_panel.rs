//! "I want output N": the padding (or output_padding / output_size) in each framework's own
//! vocabulary that gives it, or why none can.

use leptos::prelude::*;

use crate::compact::{FieldError, format_padding, join, parse_sizes};
use crate::core::{Framework, LayerSpec, inverse};

/// One framework's ways to reach the wanted output.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Found {
    framework: Framework,
    ways: Result<Vec<String>, String>,
}

fn solve(spec: &LayerSpec, want: &[i64]) -> Vec<Found> {
    Framework::ALL
        .iter()
        .map(|&framework| {
            let mut s = spec.clone();
            s.framework = framework;
            let ways = inverse(&s, want)
                .map_err(|e| e.to_string())
                .map(|solutions| {
                    solutions
                        .iter()
                        .take(4)
                        .map(|sol| {
                            let mut text = format!(
                                "padding={}",
                                sol.spec
                                    .padding
                                    .as_ref()
                                    .map(format_padding)
                                    .unwrap_or_default()
                            );
                            if let Some(crate::core::Dims::Each(op)) = &sol.spec.output_padding {
                                text.push_str(&format!(", output_padding={}", join(op)));
                            }
                            if let Some(o) = &sol.spec.output_size {
                                text.push_str(&format!(", output_size={}", join(o)));
                            }
                            format!(
                                "{text} → pads {:?} / {:?}",
                                sol.answer.before, sol.answer.after
                            )
                        })
                        .collect()
                });
            Found { framework, ways }
        })
        .collect()
}

/// The inverse: a wanted output size and, per framework, how to get it.
#[component]
pub fn InversePanel(
    /// The layer from the form (its padding is what gets replaced).
    spec: Memo<Result<LayerSpec, FieldError>>,
) -> impl IntoView {
    let want = RwSignal::new(String::new());
    let results = Memo::new(move |_| {
        let text = want.get();
        if text.trim().is_empty() {
            return None;
        }
        Some(match (spec.get(), parse_sizes("output", &text)) {
            (Ok(spec), Ok(w)) => Ok(solve(&spec, &w)),
            (Err(e), _) => Err(e.message),
            (_, Err(e)) => Err(e.message),
        })
    });
    view! {
        <section class="inverse" aria-label="Padding for a wanted output">
            <h2>"I want output…"</h2>
            <label class="field inline">
                <span>"Wanted output size"</span>
                <input
                    type="text"
                    data-testid="want"
                    placeholder="e.g. 100x20"
                    prop:value=move || want.get()
                    on:input=move |ev| want.set(event_target_value(&ev))
                />
            </label>
            {move || results.get().map(|r| match r {
                Err(reason) => view! { <p class="error">{reason}</p> }.into_any(),
                Ok(list) => view! {
                    <ul class="inverse-list" data-testid="inverse">
                        {list.into_iter().map(|f| view! {
                            <li>
                                <strong>{f.framework.title()}": "</strong>
                                {match f.ways {
                                    Ok(ways) => ways.join("; ").into_any(),
                                    Err(why) => view! { <span class="refused">{why}</span> }.into_any(),
                                }}
                            </li>
                        }).collect_view()}
                    </ul>
                }.into_any(),
            })}
        </section>
    }
}
