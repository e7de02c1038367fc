//! The answer: output size and per-side padding (or crop), or the framework's reason (markup
//! from `panels::summary`).

use leptos::prelude::*;

use crate::core::Answer;
use crate::forms::compact::LayerError;
use crate::view::panels;

/// Output size and pads of the current layer.
#[component]
pub fn Summary(
    /// The core's answer for the form, or why there is none.
    answer: Memo<Result<Answer, LayerError>>,
) -> impl IntoView {
    view! {
        <section
            class="summary"
            aria-live="polite"
            aria-label="Result"
            inner_html=move || answer.with(|a| panels::summary(a).into_string())
        ></section>
    }
}
