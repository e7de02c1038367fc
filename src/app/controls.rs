//! The inputs for one 2-D convolution.

use leptos::prelude::*;

use super::form::Form;
use crate::core::Framework;

/// One labelled text field bound to a `Form` field.
#[component]
fn Field(
    /// The visible label.
    label: &'static str,
    /// `data-testid` of the input.
    testid: &'static str,
    /// Reads the field's text from the form.
    get: fn(&Form) -> &String,
    /// Writes the field's text into the form.
    set: fn(&mut Form, String),
    /// The form state owned by the root.
    form: RwSignal<Form>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{label}</span>
            <input
                type="text"
                inputmode="numeric"
                data-testid=testid
                prop:value=move || form.with(|f| get(f).clone())
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    form.update(|f| set(f, text));
                }
            />
        </label>
    }
}

/// Framework picker and size fields.
#[component]
pub fn Controls(
    /// The form state owned by the root.
    form: RwSignal<Form>,
) -> impl IntoView {
    view! {
        <form class="controls" aria-label="Layer settings" on:submit=|ev| ev.prevent_default()>
            <label class="field">
                <span>"Framework"</span>
                <select
                    data-testid="framework"
                    on:change=move |ev| {
                        if let Ok(fw) = event_target_value(&ev).parse::<Framework>() {
                            form.update(|f| f.framework = fw);
                        }
                    }
                >
                    {Framework::ALL
                        .iter()
                        .map(|&fw| {
                            view! {
                                <option value=fw.name() selected=move || form.with(|f| f.framework == fw)>
                                    {fw.title()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <Field label="Input height" testid="input-height" get=|f| &f.height set=|f, v| f.height = v form=form />
            <Field label="Input width" testid="input-width" get=|f| &f.width set=|f, v| f.width = v form=form />
            <Field label="Kernel" testid="kernel" get=|f| &f.kernel set=|f, v| f.kernel = v form=form />
            <Field label="Stride" testid="stride" get=|f| &f.stride set=|f, v| f.stride = v form=form />
            <Field label="Dilation" testid="dilation" get=|f| &f.dilation set=|f, v| f.dilation = v form=form />
            <Field
                label="Padding (valid, same, or a number)"
                testid="padding"
                get=|f| &f.padding
                set=|f, v| f.padding = v
                form=form
            />
        </form>
    }
}
