//! The layer's settings. Only the controls that apply to the chosen op and framework are shown;
//! a field that does not parse says why beside it.

use leptos::prelude::*;

use crate::core::{Arg, Framework, LayerSpec, Op, PaddingMode, takes};
use crate::forms::compact::{CompactSpec, Field, FieldError};

/// A labelled text field bound to one `CompactSpec` field.
#[component]
fn TextField(
    /// The visible label.
    label: &'static str,
    /// The field (its name is the `data-testid`).
    field: Field,
    /// Shown when empty (the framework default).
    #[prop(optional)]
    placeholder: &'static str,
    /// Reads the field's text.
    get: fn(&CompactSpec) -> &String,
    /// Writes the field's text.
    set: fn(&mut CompactSpec, String),
    /// The form state owned by the root.
    form: RwSignal<CompactSpec>,
    /// The parsed spec (for this field's error).
    spec: Memo<Result<LayerSpec, FieldError>>,
) -> impl IntoView {
    let error = move || {
        spec.with(|s| {
            s.as_ref()
                .err()
                .filter(|e| e.field == field)
                .map(|e| e.message.clone())
        })
    };
    let name = field.name();
    let error_id = format!("{name}-error");
    view! {
        <label class="field">
            <span>{label}</span>
            <input
                type="text"
                spellcheck="false"
                autocomplete="off"
                data-testid=name
                placeholder=placeholder
                aria-invalid=move || error().is_some().to_string()
                aria-describedby=error_id.clone()
                prop:value=move || form.with(|f| get(f).clone())
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    form.update(|f| set(f, text));
                }
            />
            <small class="field-error" id=error_id role="status">{error}</small>
        </label>
    }
}

/// A labelled select over named values, bound to one `CompactSpec` field by name (one
/// component for every select: a generic one was compiled once per value type).
#[component]
fn Choice(
    /// The visible label.
    label: &'static str,
    /// `data-testid` of the select.
    testid: &'static str,
    /// `(name, text)` per option.
    options: Vec<(&'static str, String)>,
    /// The chosen option's name.
    get: fn(&CompactSpec) -> &'static str,
    /// Writes the option chosen by name.
    set: fn(&mut CompactSpec, &str),
    /// The form state owned by the root.
    form: RwSignal<CompactSpec>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{label}</span>
            <select
                data-testid=testid
                on:change=move |ev| {
                    let chosen = event_target_value(&ev);
                    form.update(|f| set(f, &chosen));
                }
            >
                {options
                    .into_iter()
                    .map(|(name, text)| {
                        view! { <option value=name selected=move || form.with(|f| get(f) == name)>{text}</option> }
                    })
                    .collect_view()}
            </select>
        </label>
    }
}

/// What 'padding' accepts in each framework (shown as the field's placeholder).
fn padding_hint(fw: Framework, op: Op) -> &'static str {
    match (fw, op) {
        (Framework::Torch, Op::Conv) => "0, 2, 1x0, same (stride 1), valid",
        (Framework::Torch, _) => "0, 1, 1x0",
        (Framework::Keras, Op::Conv) => "valid, same, causal (1-D)",
        (Framework::Keras, _) => "valid, same",
        (Framework::Tf, _) => "valid, same, 1,1x1,1 (2-D)",
        (Framework::Onnx, _) => "0, same, same_lower, 1,2x0,0",
        (Framework::Jax, _) => "valid, same, same_lower, 1,2x0,0",
    }
}

/// All settings of the layer.
#[component]
pub fn Controls(
    /// The form state owned by the root.
    form: RwSignal<CompactSpec>,
    /// The parsed spec (for per-field errors).
    spec: Memo<Result<LayerSpec, FieldError>>,
) -> impl IntoView {
    let op = Signal::derive(move || form.with(|f| f.op));
    let fw = Signal::derive(move || form.with(|f| f.framework));
    let ops = Op::ALL
        .iter()
        .map(|&o| {
            let text = match o {
                Op::Conv => "Convolution",
                Op::ConvTranspose => "Transposed convolution",
                Op::MaxPool => "Max pooling",
                Op::AvgPool => "Average pooling",
            };
            (o.name(), text.to_string())
        })
        .collect();
    let frameworks = Framework::ALL
        .iter()
        .map(|&f| (f.name(), f.title().to_string()))
        .collect();
    let modes: Vec<_> = PaddingMode::ALL
        .iter()
        .map(|&m| (m.name(), m.name().to_string()))
        .collect();
    let cip = vec![
        ("default", "framework default".to_string()),
        ("true", "True".into()),
        ("false", "False".into()),
    ];
    view! {
        <form class="controls" aria-label="Layer settings" on:submit=|ev| ev.prevent_default()>
            <Choice
                label="Operation"
                testid="op"
                options=ops
                get=|f| f.op.name()
                set=|f, v| {
                    if let Ok(o) = v.parse() {
                        f.op = o;
                    }
                }
                form=form
            />
            <Choice
                label="Framework"
                testid="framework"
                options=frameworks
                get=|f| f.framework.name()
                set=|f, v| {
                    if let Ok(fw) = v.parse() {
                        f.framework = fw;
                    }
                }
                form=form
            />
            <TextField label="Input size" field=Field::Input placeholder="100x20" get=|f| &f.input set=|f, v| f.input = v form=form spec=spec />
            <TextField label="Kernel" field=Field::Kernel placeholder="3 or 4x1" get=|f| &f.kernel set=|f, v| f.kernel = v form=form spec=spec />
            <TextField label="Stride" field=Field::Stride placeholder="default" get=|f| &f.stride set=|f, v| f.stride = v form=form spec=spec />
            <TextField label="Dilation" field=Field::Dilation placeholder="1" get=|f| &f.dilation set=|f, v| f.dilation = v form=form spec=spec />
            <label class="field">
                <span>"Padding"</span>
                <input
                    type="text"
                    spellcheck="false"
                    autocomplete="off"
                    data-testid="padding"
                    placeholder=move || padding_hint(fw.get(), op.get())
                    aria-invalid=move || spec.with(|s| matches!(s, Err(e) if e.field == Field::Padding)).to_string()
                    aria-describedby="padding-error"
                    prop:value=move || form.with(|f| f.padding.clone())
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        form.update(|f| f.padding = text);
                    }
                />
                <small class="field-error" id="padding-error" role="status">
                    {move || spec.with(|s| s.as_ref().err().filter(|e| e.field == Field::Padding).map(|e| e.message.clone()))}
                </small>
            </label>
            <Show when=move || takes(fw.get(), op.get(), Arg::PaddingMode)>
                <Choice
                    label="padding_mode"
                    testid="padding-mode"
                    options=modes.clone()
                    get=|f| f.padding_mode.unwrap_or_default().name()
                    set=|f, v| {
                        if let Ok(m) = v.parse() {
                            f.padding_mode = Some(m);
                        }
                    }
                    form=form
                />
            </Show>
            <Show when=move || op.get() == Op::ConvTranspose>
                <TextField label="output_padding" field=Field::OutputPadding placeholder="none" get=|f| &f.output_padding set=|f, v| f.output_padding = v form=form spec=spec />
                <TextField label="Output size (requested)" field=Field::OutputSize placeholder="none" get=|f| &f.output_size set=|f, v| f.output_size = v form=form spec=spec />
            </Show>
            <Show when=move || takes(fw.get(), op.get(), Arg::CeilMode)>
                <label class="field check">
                    <input
                        type="checkbox"
                        data-testid="ceil-mode"
                        prop:checked=move || form.with(|f| f.ceil_mode)
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            form.update(|f| f.ceil_mode = on);
                        }
                    />
                    <span>"ceil_mode"</span>
                </label>
            </Show>
            <Show when=move || op.get() == Op::AvgPool>
                <Choice
                    label="count_include_pad"
                    testid="count-include-pad"
                    options=cip.clone()
                    get=|f| match f.count_include_pad {
                        None => "default",
                        Some(true) => "true",
                        Some(false) => "false",
                    }
                    set=|f, v| f.count_include_pad = match v {
                        "true" => Some(true),
                        "false" => Some(false),
                        _ => None,
                    }
                    form=form
                />
            </Show>
        </form>
    }
}
