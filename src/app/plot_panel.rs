//! Output size and per-side padding against the input size (`crate::view::plot`), drawn by the
//! worker with plotters; this panel only places the markup of `panels::plot`.

use leptos::prelude::*;

use super::generator::Generator;
use crate::view::panels;

/// The plot panel.
#[component]
pub fn PlotPanel(
    /// The worker link (its reply carries the plot).
    generator: Generator,
) -> impl IntoView {
    let Generator {
        reply,
        ready,
        failed,
        ..
    } = generator;
    let body = move || {
        reply.with(|r| {
            panels::plot(r.as_ref().map(|r| &r.plot), ready.get(), failed.get()).into_string()
        })
    };
    view! {
        <section class="plot" aria-labelledby="plot-title" data-testid="plot">
            <h2 id="plot-title">"Against the input size"</h2>
            <div inner_html=body></div>
        </section>
    }
}
