//! The porter's answer at the top of the result: for the layer on screen, the lines to paste in
//! each target (`codegen::answer`, computed here so they do not wait for the worker), with copy.

use leptos::prelude::*;

use super::clipboard::copy_beside;
use crate::codegen::answer::answer;
use crate::core::{Framework, LayerSpec};
use crate::forms::compact::FieldError;
use crate::view::panels;

/// The answer lines.
#[component]
pub fn Answers(
    /// The layer from the form.
    spec: Memo<Result<LayerSpec, FieldError>>,
) -> impl IntoView {
    // The last valid layer's lines stay while a field is being fixed.
    let last = StoredValue::new(String::new());
    let markup = move || {
        spec.with(|s| match s {
            Ok(spec) => {
                let list: Vec<(Framework, Result<_, String>)> = Framework::ALL
                    .iter()
                    .map(|&t| (t, answer(spec, t).map_err(|e| e.to_string())))
                    .collect();
                let m = panels::answers(&list).into_string();
                last.set_value(m.clone());
                m
            }
            Err(_) => last.get_value(),
        })
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(button) = super::dom::closest(&ev, "[data-copy-answer]") else {
            return;
        };
        let source = ("data-copy-answer", "code");
        copy_beside(&button, source, "answer-status", |t| {
            format!("Copied the {} line.", t.title())
        });
    };
    view! {
        <section class="answers" aria-labelledby="answers-title" data-testid="answers" on:click=on_click>
            <h2 id="answers-title">"The line to paste"</h2>
            <div class="answer-list" inner_html=markup></div>
            <p class="status" role="status" id="answer-status"></p>
        </section>
    }
}
