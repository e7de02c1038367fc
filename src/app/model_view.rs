//! The Whole model view: paste a model (Keras or PyTorch code, or what `print(model)` and
//! `model.summary()` printed), or choose or drop a model file, and get it in every target
//! framework with its layer table. A static shell (`view::model::shell`) with delegated events:
//! the worker reads, ports and renders the output (`view::model::output`), this file only moves
//! text and bytes between the fields, the worker and the page. The pasted model lives in the
//! address's fragment (packed by the worker), so it survives a reload and a shared link restores
//! it; a file never leaves the browser: its bytes go to the worker as a transferred buffer, and
//! it is not put in the link.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::below::{copy, copy_tab};
use super::dom::{self, by_id};
use super::generator::Generator;
use super::tabs;
use crate::forms::compact::CompactSpec;
use crate::forms::permalink::parse_query;
use crate::view::model::{TARGETS, shell};
use crate::worker::protocol::{Piece, Request};

/// The pieces of the latest model reply not yet in the page.
type Queue = StoredValue<Vec<Piece>, LocalStorage>;

/// Whether a piece's element is in the page and not in a hidden code tab (a hidden tab's code
/// waits until the tab is shown).
fn showable(piece: &Piece) -> Option<bool> {
    let el = by_id(&piece.into)?;
    Some(el.closest(".tabpanel[hidden]").ok().flatten().is_none())
}

fn append(piece: &Piece) {
    if let Some(el) = by_id(&piece.into) {
        let _ = el.insert_adjacent_html("beforeend", &piece.markup);
    }
}

/// Appends the reply's pieces one per animation frame (a `tbody` of at most
/// `view::model::ROWS_PER_PIECE` rows, or a part of the shown tab's code), so a model of 500
/// rows never makes a long task (issue 17). Stops when what is left belongs to hidden tabs;
/// showing one calls this again.
fn pump(queue: Queue, pumping: StoredValue<bool>) {
    if pumping.get_value() {
        return;
    }
    pumping.set_value(true);
    request_animation_frame(move || {
        pumping.set_value(false);
        let next = queue
            .try_update_value(|q| {
                // A piece whose element is gone (a newer output) is dropped.
                let at = q.iter().position(|p| showable(p) != Some(false))?;
                Some(q.remove(at))
            })
            .flatten();
        if let Some(piece) = next {
            append(&piece);
            pump(queue, pumping);
        }
    });
}

/// Appends at once what is left of a code tab's pieces (before its code is copied or saved).
fn flush(queue: Queue, panel: &web_sys::Element) {
    let inside = |p: &Piece| {
        by_id(&p.into)
            .and_then(|el| el.closest(".tabpanel").ok().flatten())
            .is_some_and(|owner| &owner == panel)
    };
    while let Some(piece) = queue
        .try_update_value(|q| q.iter().position(inside).map(|at| q.remove(at)))
        .flatten()
    {
        append(&piece);
    }
}

/// Saves `text` as a file named `name` (the self-check script), through a link to a blob.
fn download(name: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/x-python");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(a) = document().create_element("a") {
        let _ = a.set_attribute("href", &url);
        let _ = a.set_attribute("download", name);
        if let Ok(a) = a.dyn_into::<web_sys::HtmlElement>() {
            a.click();
        }
    }
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
}

/// How long a model request waits for typing to pause.
const MODEL_DELAY: std::time::Duration = std::time::Duration::from_millis(250);

/// A form field's `value`, by id.
fn value(id: &str) -> String {
    by_id(id).map(|el| dom::value(&el)).unwrap_or_default()
}

fn set_value(id: &str, text: &str) {
    if let Some(el) = by_id(id) {
        dom::set_value(&el, text);
    }
}

fn checked(id: &str) -> bool {
    by_id(id).is_some_and(|el| dom::checked(&el))
}

/// The Model view (always mounted; hidden while the other view is shown, so nothing typed is
/// lost).
#[component]
pub fn ModelView(
    /// The worker link.
    generator: Generator,
    /// The model packed for the address (`model=...`), "" when nothing is pasted.
    packed: RwSignal<String>,
    /// Whether the view is shown.
    shown: Signal<bool>,
    /// The layer form (a table row opens its layer in it).
    form: RwSignal<CompactSpec>,
    /// The selected view (0: one layer).
    view: RwSignal<usize>,
) -> impl IntoView {
    // The code tab shown (an index into TARGETS), kept across replies.
    let selected = StoredValue::new(0usize);
    let queue: Queue = StoredValue::new_local(Vec::new());
    let pumping = StoredValue::new(false);
    // Everything written to the output goes through here: what was still to come is dropped.
    let set_output = move |html: &str| {
        queue.update_value(Vec::clear);
        if let Some(out) = by_id("model-output") {
            out.set_inner_html(html);
        }
    };
    let pending = StoredValue::new(None::<TimeoutHandle>);
    // The model file chosen or dropped, while it is what the view shows (a paste replaces it).
    let file = StoredValue::new_local(None::<web_sys::File>);
    // Counts the files read: a slow read finishing after a newer one is dropped.
    let reads = StoredValue::new(0u64);
    // Files dragged over the view (enter/leave pairs, children included).
    let dragging = StoredValue::new(0i32);
    // The worker refuses what it should not read (too large, or not read by the browser: sent
    // with no bytes), so the page carries no file wording of its own.
    let send_file = move |f: web_sys::File| {
        let generation = reads.get_value() + 1;
        reads.set_value(generation);
        let name = f.name();
        // File sizes are whole numbers below 2^53.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let size = f.size() as u64;
        let promise = (size <= crate::worker::protocol::MAX_FILE_BYTES).then(|| f.array_buffer());
        leptos::task::spawn_local(async move {
            let bytes = match promise {
                Some(p) => wasm_bindgen_futures::JsFuture::from(p)
                    .await
                    .ok()
                    .and_then(|b| b.dyn_into::<js_sys::ArrayBuffer>().ok()),
                None => None,
            };
            if reads.get_value() != generation {
                return;
            }
            let check = checked("model-check");
            let target = TARGETS[selected.get_value().min(TARGETS.len() - 1)];
            generator.send_file(
                |id| Request::File {
                    id,
                    check,
                    selected: target,
                    input: value("model-input"),
                    name,
                    size,
                },
                bytes.unwrap_or_else(|| js_sys::ArrayBuffer::new(0)),
            );
        });
    };
    let send_now = move || {
        if let Some(f) = file.get_value() {
            send_file(f);
            return;
        }
        let source = value("model-source");
        if source.trim().is_empty() {
            packed.set(String::new());
            set_output(r#"<p class="muted">Paste a model, or pick an example.</p>"#);
            return;
        }
        let check = checked("model-check");
        let target = TARGETS[selected.get_value().min(TARGETS.len() - 1)];
        generator.send(|id| Request::Model {
            id,
            check,
            selected: target,
            input: value("model-input"),
            source,
        });
    };
    // A file chosen or dropped: it replaces the paste in the output (the paste is kept in its
    // field), and the link holds no model.
    let open_file = move |f: web_sys::File| {
        let status = format!("{}: read in this browser, never uploaded.", f.name());
        dom::set_text(by_id("model-file-name").as_ref(), &status);
        dom::set_hidden(by_id("model-file-status").as_ref(), false);
        set_output(r#"<p class="muted">Reading the file…</p>"#);
        file.set_value(Some(f.clone()));
        packed.set(String::new());
        send_file(f);
    };
    // Back to the paste: the file is forgotten.
    let close_file = move || {
        if file.get_value().is_none() {
            return;
        }
        file.set_value(None);
        reads.set_value(reads.get_value() + 1);
        set_value("model-file", "");
        dom::set_hidden(by_id("model-file-status").as_ref(), true);
    };
    let send_later = move || {
        if let Some(handle) = pending.get_value() {
            handle.clear();
        }
        let later = move || {
            pending.set_value(None);
            send_now();
        };
        pending.set_value(set_timeout_with_handle(later, MODEL_DELAY).ok());
    };
    // The worker's answer: its head at once, its rows and code a frame at a time; the address
    // follows.
    Effect::new(move |_| {
        let Some(fragment) = generator.model.with(|m| {
            m.as_ref().map(|m| {
                set_output(&m.markup);
                m.fragment.clone()
            })
        }) else {
            return;
        };
        // The pieces move to the queue (a megabyte for a ResNet: not copied).
        let mut pieces = generator
            .model
            .try_update_untracked(|m| m.as_mut().map(|m| std::mem::take(&mut m.pieces)))
            .flatten()
            .unwrap_or_default();
        // First a piece for no element: the head is laid out in a frame of its own.
        pieces.insert(0, Piece::default());
        queue.set_value(pieces);
        // The reply was rendered with the tab selected when it was asked for.
        let name = TARGETS[selected.get_value().min(TARGETS.len() - 1)].name();
        if let Some(tab) = by_id(&format!("tab-model-{name}")) {
            tabs::select(&tab);
        }
        pump(queue, pumping);
        packed.set(fragment);
    });
    Effect::new(move |_| {
        if generator.failed.get() {
            set_output(r#"<p class="error">The model reader could not start in this browser.</p>"#);
        }
    });
    // A model link read back fills the fields.
    Effect::new(move |_| {
        generator.unpacked.with(|u| {
            if let Some(Ok((input, source))) = u {
                set_value("model-input", input);
                set_value("model-source", source);
                send_now();
            }
        });
    });
    let on_input = move |ev: leptos::ev::Event| {
        match dom::target(&ev).map(|el| el.id()).as_deref() {
            Some("model-file") => return,
            Some("model-source") => close_file(),
            _ => {}
        }
        send_later();
    };
    let on_change = move |ev: leptos::ev::Event| {
        let Some(el) = dom::target(&ev) else { return };
        if el.id() == "model-check" {
            send_now();
        } else if el.id() == "model-file"
            && let Some(f) = el
                .dyn_ref::<web_sys::HtmlInputElement>()
                .and_then(web_sys::HtmlInputElement::files)
                .and_then(|list| list.get(0))
        {
            open_file(f);
        }
    };
    // Drag and drop: one listener for the four events (a Leptos handler each would cost the
    // first load a kilobyte), added once the section is in the page.
    let on_drag = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let Some(section) = by_id("view-model-panel") else {
            return;
        };
        let count = match ev.type_().as_str() {
            "dragenter" => dragging.get_value() + 1,
            "dragleave" => (dragging.get_value() - 1).max(0),
            "drop" => 0,
            _ => return,
        };
        dragging.set_value(count);
        if count > 0 {
            dom::set_attr(&section, "data-dragging", "true");
        } else {
            let _ = section.remove_attribute("data-dragging");
        }
        if ev.type_() == "drop"
            && let Some(f) = ev
                .data_transfer()
                .and_then(|d| d.files())
                .and_then(|list| list.get(0))
        {
            open_file(f);
        }
    };
    request_animation_frame(move || {
        let Some(section) = by_id("view-model-panel") else {
            return;
        };
        let listener = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::DragEvent)>::new(on_drag);
        for kind in ["dragenter", "dragover", "dragleave", "drop"] {
            let _ =
                section.add_event_listener_with_callback(kind, listener.as_ref().unchecked_ref());
        }
        listener.forget();
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        // A row opens its layer in the picture, in the page (the model, or the file, stays
        // behind the other tab); a click that asks for another tab or window is the browser's.
        if let Some(link) = dom::closest(&ev, "a[data-testid=model-row-link]") {
            if ev.button() != 0 || ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key()
            {
                return;
            }
            let href = link.get_attribute("href").unwrap_or_default();
            let query = href
                .split('#')
                .next()
                .unwrap_or_default()
                .trim_start_matches('?');
            ev.prevent_default();
            form.set(parse_query(query, &form.get_untracked()).spec);
            if let Some(tab) = by_id("view-tab-layer") {
                tabs::select(&tab);
            }
            view.set(0);
            return;
        }
        let Some(button) = dom::closest(&ev, "button") else {
            return;
        };
        if let Some(preset) = button.get_attribute("data-preset") {
            // The worker holds the example's text (not the first load); its reply fills the
            // fields like a model link's.
            close_file();
            generator.send(|id| Request::Preset { id, preset });
        } else if button.has_attribute("data-close-file") {
            close_file();
            send_now();
        } else if button.has_attribute("data-copy-link") {
            if file.get_value().is_some() {
                dom::set_text(
                    by_id("model-status").as_ref(),
                    "A file is not put in a link: it never leaves this browser. Share the file itself.",
                );
                return;
            }
            let href = web_sys::window()
                .and_then(|w| w.location().href().ok())
                .unwrap_or_default();
            copy(
                href,
                "model-status",
                "Link copied: it opens this model.".into(),
            );
        } else if let Some(name) = button.get_attribute("data-download") {
            if let Some(panel) = button.parent_element() {
                flush(queue, &panel);
            }
            let text = button
                .parent_element()
                .and_then(|panel| panel.query_selector("pre").ok().flatten())
                .and_then(|pre| pre.text_content());
            if let Some(text) = text {
                download(&name, &text);
                dom::set_text(
                    by_id("model-status").as_ref(),
                    &format!(
                        "Saved {name}: run it with python3 where the frameworks are installed."
                    ),
                );
            }
        } else if button.has_attribute("data-copy") {
            if let Some(panel) = button.parent_element() {
                flush(queue, &panel);
            }
            copy_tab(&button, "model-status", "model");
        } else if let Some(index) = tabs::select(&button) {
            selected.set_value(index);
            pump(queue, pumping);
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let Some(tab) = dom::target(&ev) else {
            return;
        };
        if let Some(index) = tabs::key(&tab, &ev.key()) {
            ev.prevent_default();
            selected.set_value(index);
            pump(queue, pumping);
        }
    };
    view! {
        <section
            class="model-view"
            id="view-model-panel"
            role="tabpanel"
            aria-labelledby="view-tab-model"
            data-testid="model-view"
            hidden=move || !shown.get()
            on:input=on_input
            on:change=on_change
            on:click=on_click
            on:keydown=on_key

            inner_html=shell().into_string()
        ></section>
    }
}
