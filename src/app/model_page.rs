//! The Whole model view, once it is opened: its own wasm module (`padlab-model`, built from
//! `src/bin/model_view.rs`), loaded by the page when the view is first shown or a model link is
//! opened ([`super::model_view`]), so the page's first load carries none of it.
//!
//! Paste a model (Keras or PyTorch code, or what `print(model)` and `model.summary()` printed),
//! or choose or drop a model file, and get it in every target framework with its layer table.
//! The view is a static shell (`view::model::shell`) with delegated events, and a worker of its
//! own reads, ports and renders the output (`view::model::output`): this file only moves text
//! and bytes between the fields, the worker and the page. No Leptos: the page's signals do not
//! cross between wasm modules, and the view needs none. What it shares with the page is the
//! document: the section it fills, the address (the pasted model lives in its fragment, packed
//! by the worker, so it survives a reload and a shared link restores it), and a row's link,
//! which the page follows itself. A file never leaves the browser: the worker reads it from
//! the `File` handed to it, and it is not put in the link.

use std::cell::RefCell;

use wasm_bindgen::{JsCast, closure::Closure};
use web_sys::{Element, MessageEvent, Worker};

use super::clipboard::{copy, copy_tab};
use super::dom::{self, by_id, clear_timeout, next_frame, set_timeout};
use super::link::{fragment, packed_model, write_fragment};
use super::model_view::DROPPED;
use super::tabs;
use super::worker_link::{message_text, post, start_worker};
use crate::view::model::{TARGETS, shell};
use crate::worker::protocol::{ModelAsk, Piece, Reply, Request};

/// How long a model request waits for typing to pause (in ms).
const MODEL_DELAY: i32 = 250;

/// An output of more pieces than this is taken out a few a frame when the next replaces it.
const STALE_AT_ONCE: usize = 8;

/// How long a frame may spend taking the previous output's pieces out (in ms).
const STALE_MS: f64 = 3.0;

/// The view's state: one per page, on the page's thread.
#[derive(Default)]
struct State {
    worker: Option<Worker>,
    /// The worker said it is ready; until then requests wait in `waiting`.
    ready: bool,
    /// Requests made before the worker was ready: the text, and a model file.
    waiting: Vec<(String, Option<web_sys::File>)>,
    next: u64,
    /// The latest model (or file) request: an older reply is dropped.
    latest_model: u64,
    /// The latest request for the fields' text (a model link read back, an example).
    latest_fill: u64,
    /// The code tab shown (an index into TARGETS), kept across replies.
    selected: usize,
    /// The pieces of the latest model reply not yet in the page.
    queue: Vec<Piece>,
    /// The previous output's pieces still in the page (hidden), taken out a few a frame before
    /// `head` replaces it: taking out a big model's rows and code at once was the longest task
    /// of an edit (7 ms at 515 rows, 28 ms at 1,595).
    stale: Vec<Element>,
    /// The output waiting for `stale` to go.
    head: Option<String>,
    pumping: bool,
    /// A model request waiting for typing to pause.
    pending: Option<i32>,
    /// The model file chosen or dropped, while it is what the view shows (a paste replaces it).
    file: Option<web_sys::File>,
    /// Files dragged over the view (enter/leave pairs, children included).
    dragging: i32,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Runs `f` on the state. Never call the page or the worker from inside `f`: a borrow lasts
/// only as long as the read or the write it is for.
fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with(|s| f(&mut s.borrow_mut()))
}

fn section() -> Option<Element> {
    by_id("view-model-panel")
}

/// Fills the view's section, starts its worker and listens to its events; a model link in the
/// address is read back.
pub fn start() {
    let Some(section) = section() else {
        return;
    };
    section.set_inner_html(&shell().into_string());
    let _ = section.remove_attribute("aria-busy");
    let listener = Closure::<dyn Fn(web_sys::Event)>::new(on_event);
    for kind in [
        "input",
        "change",
        "click",
        "keydown",
        "dragenter",
        "dragover",
        "dragleave",
        "drop",
    ] {
        let _ = section.add_event_listener_with_callback(kind, listener.as_ref().unchecked_ref());
    }
    listener.forget();
    warm_faces();
    start_link();
    // A file dropped while this module was loading (`model_view::load` kept it).
    if let Ok(f) = dom::property(&section, DROPPED).dyn_into::<web_sys::File>() {
        dom::set_property(&section, DROPPED, &wasm_bindgen::JsValue::UNDEFINED);
        open_file(f);
        return;
    }
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    if !packed_model(&hash).is_empty() {
        send(|id| Request::Unpack { id, fragment: hash }, None);
    }
}

/// Shows the shell's words in the output's font faces one a frame, then removes them: the
/// first layout in each face (a synchronous call to the browser process on Linux, which waits
/// while the machine is busy) then happens as the view opens, one face a frame, and not in the
/// frames that show a pasted model.
fn warm_faces() {
    next_frame(|| {
        let Some(faces) = by_id("model-faces") else {
            return;
        };
        match faces.query_selector("[hidden]").ok().flatten() {
            Some(word) => {
                let _ = word.remove_attribute("hidden");
                warm_faces();
            }
            None => faces.remove(),
        }
    });
}

fn start_link() {
    let Some(worker) = start_worker() else {
        failed();
        return;
    };
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(|message: MessageEvent| {
        let Some(text) = message_text(&message.data()) else {
            return;
        };
        if text == "ready" {
            let (worker, waiting) = with(|s| {
                s.ready = true;
                (s.worker.clone(), std::mem::take(&mut s.waiting))
            });
            if let Some(worker) = worker {
                for (text, file) in waiting {
                    post(&worker, &text, file.as_ref());
                }
            }
        } else if text.starts_with("failed") {
            failed();
        } else if let Some(reply) = Reply::decode(&text) {
            receive(reply);
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    with(|s| s.worker = Some(worker));
}

fn failed() {
    set_output(r#"<p class="error">The model reader could not start in this browser.</p>"#);
}

/// Sends a request (made with its id) with a model file beside it (the file itself: the worker
/// reads it, the page's thread never holds its bytes), or keeps it until the worker is ready.
fn send(make: impl FnOnce(u64) -> Request, file: Option<web_sys::File>) {
    let request = with(|s| {
        s.next += 1;
        let request = make(s.next);
        match request {
            Request::Model { .. } | Request::File { .. } => s.latest_model = s.next,
            _ => s.latest_fill = s.next,
        }
        request
    });
    let text = request.encode();
    let worker = with(|s| {
        if s.ready {
            s.worker.clone()
        } else {
            s.waiting.push((text.clone(), file.clone()));
            None
        }
    });
    if let Some(worker) = worker {
        post(&worker, &text, file.as_ref());
    }
}

fn receive(reply: Reply) {
    let (model, fill) = with(|s| (s.latest_model, s.latest_fill));
    match reply {
        Reply::Model {
            id,
            markup,
            mut pieces,
            fragment: packed,
        } if id == model => {
            // The address first (it makes the page's style current: before the head, that is
            // no work), then the head, the rows and code a frame at a time.
            write_packed(&packed);
            set_output(&markup);
            // First a piece for no element: the head is laid out in a frame of its own.
            pieces.insert(0, Piece::default());
            with(|s| s.queue = pieces);
            pump();
        }
        // A model link read back, or an example's text: it fills the fields.
        Reply::Unpack {
            id,
            result: Ok((input, source)),
        } if id == fill => {
            set_value("model-input", &input);
            set_value("model-source", &source);
            send_now();
        }
        _ => {}
    }
}

/// The model in the address (`model=...`, "" for none), with the view the page shows.
fn write_packed(packed: &str) {
    let shown = section().is_some_and(|s| !s.has_attribute("hidden"));
    write_fragment(&fragment(shown, packed));
}

/// Everything written to the output goes through here: what was still to come is dropped. A
/// small output is replaced at once; a big one is hidden at once (`data-stale`: the style skips
/// its content, and screen readers no longer find it) and taken out a few pieces a frame
/// ([`take_stale`]), then `html` takes its place.
fn set_output(html: &str) {
    let Some(out) = by_id("model-output") else {
        return;
    };
    let retiring = with(|s| {
        s.queue.clear();
        !s.stale.is_empty()
    });
    if !retiring {
        let pieces = pieces_in(&out);
        if pieces.len() > STALE_AT_ONCE {
            dom::set_attr(&out, "data-stale", "");
            with(|s| s.stale = pieces);
        }
    }
    if with(|s| s.stale.is_empty()) {
        show(&out, html);
    } else {
        with(|s| s.head = Some(html.to_string()));
        pump();
    }
}

/// The pieces appended to the output: each code block (in a `pre`) and each `tbody` of rows.
fn pieces_in(out: &Element) -> Vec<Element> {
    let all = |list: web_sys::HtmlCollection| (0..list.length()).filter_map(move |i| list.item(i));
    let mut pieces: Vec<Element> = all(out.get_elements_by_tag_name("pre"))
        .flat_map(|pre| all(pre.children()))
        .collect();
    pieces.extend(all(out.get_elements_by_tag_name("tbody")));
    pieces
}

/// Sets the output's head and selects the tab chosen (a reply was rendered with the tab selected
/// when it was asked for).
fn show(out: &Element, html: &str) {
    out.set_inner_html(html);
    let _ = out.remove_attribute("data-stale");
    let name = TARGETS[with(|s| s.selected).min(TARGETS.len() - 1)].name();
    if let Some(tab) = by_id(&format!("tab-model-{name}")) {
        tabs::select(&tab);
    }
}

/// `performance.now()`, in ms.
fn now() -> f64 {
    let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into());
    performance
        .and_then(|p| {
            let now = js_sys::Reflect::get(&p, &"now".into())?;
            now.unchecked_ref::<js_sys::Function>().call0(&p)
        })
        .ok()
        .and_then(|t| t.as_f64())
        .unwrap_or(0.0)
}

/// Takes the previous output's pieces out, the last first, for about [`STALE_MS`]; once all are
/// out, shows the head waiting. Whether there was any to take.
fn take_stale() -> bool {
    if with(|s| s.stale.is_empty() && s.head.is_none()) {
        return false;
    }
    let start = now();
    while let Some(piece) = with(|s| s.stale.pop()) {
        piece.remove();
        if now() - start >= STALE_MS {
            break;
        }
    }
    if with(|s| s.stale.is_empty())
        && let Some(head) = with(|s| s.head.take())
        && let Some(out) = by_id("model-output")
    {
        show(&out, &head);
    }
    true
}

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
/// rows never makes a long task (issue 17), after taking out the previous output's. Stops when
/// what is left belongs to hidden tabs; showing one calls this again.
fn pump() {
    if with(|s| std::mem::replace(&mut s.pumping, true)) {
        return;
    }
    next_frame(|| {
        with(|s| s.pumping = false);
        // The previous output goes first.
        if take_stale() {
            pump();
            return;
        }
        let mut queue = with(|s| std::mem::take(&mut s.queue));
        // A piece whose element is gone (a newer output) is dropped.
        let next = queue
            .iter()
            .position(|p| showable(p) != Some(false))
            .map(|at| queue.remove(at));
        with(|s| s.queue = queue);
        if let Some(piece) = next {
            append(&piece);
            pump();
        }
    });
}

/// Appends at once what is left of a code tab's pieces (before its code is copied or saved).
fn flush(panel: &Element) {
    let inside = |p: &Piece| {
        by_id(&p.into)
            .and_then(|el| el.closest(".tabpanel").ok().flatten())
            .is_some_and(|owner| &owner == panel)
    };
    let queue = with(|s| std::mem::take(&mut s.queue));
    let (mine, rest): (Vec<Piece>, Vec<Piece>) = queue.into_iter().partition(inside);
    with(|s| s.queue = rest);
    for piece in &mine {
        append(piece);
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
    if let Some(a) = dom::document().and_then(|d| d.create_element("a").ok()) {
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
        10_000,
    );
}

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

/// What the view's fields ask of a model: the self-check option, the code tab shown, the input.
fn asked() -> ModelAsk {
    ModelAsk {
        check: checked("model-check"),
        selected: TARGETS[with(|s| s.selected).min(TARGETS.len() - 1)],
        input: value("model-input"),
    }
}

/// Sends a model file. The worker reads it and refuses what it should not read (too large, or
/// not readable by the browser), so the page carries no file wording of its own.
fn send_file(f: web_sys::File) {
    let name = f.name();
    // File sizes are whole numbers below 2^53.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let size = f.size() as u64;
    let ask = asked();
    send(
        |id| Request::File {
            id,
            ask,
            name,
            size,
        },
        Some(f),
    );
}

/// Asks for the model in the fields (or the open file) now.
fn send_now() {
    if let Some(f) = with(|s| s.file.clone()) {
        send_file(f);
        return;
    }
    let source = value("model-source");
    if source.trim().is_empty() {
        write_packed("");
        set_output(r#"<p class="muted">Paste a model, or pick an example.</p>"#);
        return;
    }
    let ask = asked();
    send(|id| Request::Model { id, ask, source }, None);
}

fn send_later() {
    if let Some(handle) = with(|s| s.pending.take()) {
        clear_timeout(handle);
    }
    let handle = set_timeout(
        || {
            with(|s| s.pending = None);
            send_now();
        },
        MODEL_DELAY,
    );
    with(|s| s.pending = handle);
}

/// A file chosen or dropped: it replaces the paste in the output (the paste is kept in its
/// field), and the link holds no model.
fn open_file(f: web_sys::File) {
    let status = format!("{}: read in this browser, never uploaded.", f.name());
    dom::set_text(by_id("model-file-name").as_ref(), &status);
    dom::set_hidden(by_id("model-file-status").as_ref(), false);
    set_output(r#"<p class="muted">Reading the file…</p>"#);
    with(|s| s.file = Some(f.clone()));
    write_packed("");
    send_file(f);
}

/// Back to the paste: the file is forgotten.
fn close_file() {
    let had = with(|s| s.file.take().is_some());
    if had {
        set_value("model-file", "");
        dom::set_hidden(by_id("model-file-status").as_ref(), true);
    }
}

fn on_event(ev: web_sys::Event) {
    match ev.type_().as_str() {
        "input" => on_input(&ev),
        "change" => on_change(&ev),
        "click" => {
            if let Some(ev) = ev.dyn_ref::<web_sys::MouseEvent>() {
                on_click(ev);
            }
        }
        "keydown" => {
            if let Some(ev) = ev.dyn_ref::<web_sys::KeyboardEvent>() {
                on_key(ev);
            }
        }
        _ => {
            if let Some(ev) = ev.dyn_ref::<web_sys::DragEvent>() {
                on_drag(ev);
            }
        }
    }
}

fn on_input(ev: &web_sys::Event) {
    match dom::target(ev).map(|el| el.id()).as_deref() {
        Some("model-file") => return,
        Some("model-source") => close_file(),
        _ => {}
    }
    send_later();
}

fn on_change(ev: &web_sys::Event) {
    let Some(el) = dom::target(ev) else { return };
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
}

/// Drag and drop: the whole view is a drop zone.
fn on_drag(ev: &web_sys::DragEvent) {
    ev.prevent_default();
    let Some(section) = section() else {
        return;
    };
    let count = match ev.type_().as_str() {
        "dragenter" => with(|s| s.dragging) + 1,
        "dragleave" => (with(|s| s.dragging) - 1).max(0),
        "drop" => 0,
        _ => return,
    };
    with(|s| s.dragging = count);
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
}

fn select_tab(index: usize) {
    with(|s| s.selected = index);
    pump();
}

/// The view's buttons (a row's link is the page's: it opens the layer in the other view).
fn on_click(ev: &web_sys::MouseEvent) {
    let Some(button) = dom::closest(ev, "button") else {
        return;
    };
    if let Some(preset) = button.get_attribute("data-preset") {
        // The worker holds the example's text; its reply fills the fields like a model link's.
        close_file();
        send(|id| Request::Preset { id, preset }, None);
    } else if button.has_attribute("data-close-file") {
        close_file();
        send_now();
    } else if button.has_attribute("data-copy-link") {
        if with(|s| s.file.is_some()) {
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
        let Some(panel) = button.parent_element() else {
            return;
        };
        flush(&panel);
        let text = panel
            .query_selector("pre")
            .ok()
            .flatten()
            .and_then(|pre| pre.text_content());
        if let Some(text) = text {
            download(&name, &text);
            dom::set_text(
                by_id("model-status").as_ref(),
                &format!("Saved {name}: run it with python3 where the frameworks are installed."),
            );
        }
    } else if button.has_attribute("data-copy") {
        if let Some(panel) = button.parent_element() {
            flush(&panel);
        }
        copy_tab(&button, "model-status", "model");
    } else if let Some(index) = tabs::select(&button) {
        select_tab(index);
    }
}

fn on_key(ev: &web_sys::KeyboardEvent) {
    let Some(tab) = dom::target(ev) else {
        return;
    };
    if let Some(index) = tabs::key(&tab, &ev.key()) {
        ev.prevent_default();
        select_tab(index);
    }
}
