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
    /// Whether the user is typing: the last answer stays until the typing pauses.
    typing: RwSignal<bool>,
) -> impl IntoView {
    let last = StoredValue::new(String::new());
    let markup = move || {
        let hold = typing.get();
        answer.with(|a| match a {
            Err(_) if hold && last.with_value(|l| !l.is_empty()) => last.get_value(),
            _ => {
                let m = panels::summary(a).into_string();
                if a.is_ok() {
                    last.set_value(m.clone());
                }
                m
            }
        })
    };
    view! {
        <section class="summary" aria-live="polite" aria-label="Result" inner_html=markup></section>
    }
}
