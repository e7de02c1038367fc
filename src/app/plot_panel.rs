//! Output size and per-side padding against the input size (`crate::plot`), drawn by the
//! worker with plotters; this panel only places the SVG string and its summary.

use leptos::prelude::*;

use super::generator::Generator;

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
    view! {
        <section class="plot" aria-labelledby="plot-title" data-testid="plot">
            <h2 id="plot-title">"Against the input size"</h2>
            {move || match reply.with(|r| r.as_ref().map(|r| r.plot.clone())) {
                Some(Ok((summary, svg))) => view! {
                    <p id="plot-summary" data-testid="plot-summary">{summary}</p>
                    <div
                        class="plot-svg"
                        role="img"
                        aria-label="Plot: output size, and the padding before and after, for each input size"
                        aria-describedby="plot-summary"
                        data-testid="plot-svg"
                        inner_html=svg
                    ></div>
                    <ul class="legend" aria-label="Plot legend">
                        <li><span class="swatch line-output"></span>"output size"</li>
                        <li><span class="swatch line-before"></span>"before (circles)"</li>
                        <li><span class="swatch line-after"></span>"after (crosses)"</li>
                        <li><span class="swatch line-mark"></span>"this layer's input size"</li>
                    </ul>
                }
                .into_any(),
                Some(Err(why)) => view! { <p class="muted">{why}</p> }.into_any(),
                None if failed.get() => view! { <p class="error">"The plot could not start in this browser."</p> }.into_any(),
                None if !ready.get() => view! { <p class="muted">"Loading the plot…"</p> }.into_any(),
                None => view! { <p class="muted">"The plot appears once the layer is valid."</p> }.into_any(),
            }}
        </section>
    }
}
