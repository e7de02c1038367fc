//! The link to the worker (`padlab-codegen`) that writes the code, draws the plot and reads and
//! ports pasted models, so the page's first load carries none of them. Started after the first
//! picture; each request carries an id and a stale reply is dropped; requests made before the
//! worker is ready wait for it.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue, closure::Closure};
use web_sys::{Blob, BlobPropertyBag, MessageEvent, Url, Worker};

use crate::codegen::Options;
use crate::core::Framework;
use crate::core::LayerSpec;
use crate::forms::compact::{CompactSpec, FieldError};
use crate::forms::permalink::format_query;
use crate::worker::protocol::{Panels, Piece, Reply, Request};

/// The latest layer reply: the panels below the picture (code and plot included), as markup.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerReply {
    pub panels: Panels,
}

/// The latest model reply: the view's output markup without its rows and code, the pieces that
/// hold them (appended a frame at a time), and the fragment that restores the model.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelReply {
    pub markup: String,
    pub pieces: Vec<Piece>,
    pub fragment: String,
}

/// What the panels read; `options` is written by the code panel's toggles.
#[derive(Clone, Copy)]
pub struct Generator {
    pub options: RwSignal<Options>,
    /// The wanted output size typed in the inverse panel.
    pub want: RwSignal<String>,
    /// The dimension the plot sweeps (`None`: the one that matters).
    pub sweep: RwSignal<Option<usize>>,
    /// The latest reply for the current layer; `None` while invalid or loading.
    pub reply: RwSignal<Option<LayerReply>>,
    /// The latest reply for the pasted model.
    pub model: RwSignal<Option<ModelReply>>,
    /// The latest pasted layer call, as a permalink query, or why it is not one.
    pub pasted: RwSignal<Option<Result<String, String>>>,
    /// A model link read back: (input, source).
    pub unpacked: RwSignal<Option<Result<(String, String), String>>>,
    /// The worker said it is ready.
    pub ready: RwSignal<bool>,
    /// The worker could not be started.
    pub failed: RwSignal<bool>,
    /// The code tab shown (the worker renders it shown).
    selected: StoredValue<Framework>,
    next: StoredValue<u64>,
    /// The latest id sent per kind (layer, model, paste, unpack).
    latest: StoredValue<[u64; 4]>,
    /// Requests made before the worker was ready: the text, and a file's bytes.
    queue: StoredValue<Vec<(String, Option<js_sys::ArrayBuffer>)>, LocalStorage>,
    worker: StoredValue<Option<Worker>, LocalStorage>,
}

/// Starts the worker script (`padlab-codegen.js` beside the page, under any sub-path).
///
/// Instantiating can fail for a while when many pages were opened in quick succession in one
/// tab: each wasm memory reserves address space that the engine returns only once the old
/// pages have been collected ("Out of memory: Cannot allocate Wasm memory"). The worker tries
/// again after a pause (four times, 0.2 to 1.6 s) and then says "failed" instead of throwing.
fn start_worker() -> Option<Worker> {
    let base = web_sys::window()?.document()?.base_uri().ok()??;
    let dir = Url::new_with_base(".", &base).ok()?.href();
    let script = format!(
        r#"importScripts("{dir}padlab-codegen.js");(function start(n){{wasm_bindgen("{dir}padlab-codegen_bg.wasm").catch(function(e){{if(n<4)setTimeout(start,200<<n,n+1);else postMessage("failed: "+e);}});}})(0);"#
    );
    let parts = js_sys::Array::of1(&JsValue::from_str(&script));
    let options = BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    Worker::new(&Url::create_object_url_with_blob(&blob).ok()?).ok()
}

/// How long a layer request waits for the edits to pause.
const REQUEST_DELAY: std::time::Duration = std::time::Duration::from_millis(60);

fn slot(request: &Request) -> usize {
    match request {
        Request::Layer { .. } => 0,
        // A file's reply replaces the view's output like a paste's: one slot.
        Request::Model { .. } | Request::File { .. } => 1,
        Request::PasteLayer { .. } => 2,
        // An example's text comes back like a model link's.
        Request::Unpack { .. } | Request::Preset { .. } => 3,
    }
}

impl Generator {
    /// Starts the worker once the first picture is `painted`, and asks it again whenever the
    /// layer or the options change.
    pub fn start(spec: Memo<Result<LayerSpec, FieldError>>, painted: RwSignal<bool>) -> Self {
        let g = Generator {
            options: RwSignal::new(Options::default()),
            want: RwSignal::new(String::new()),
            sweep: RwSignal::new(None),
            reply: RwSignal::new(None),
            model: RwSignal::new(None),
            pasted: RwSignal::new(None),
            unpacked: RwSignal::new(None),
            ready: RwSignal::new(false),
            failed: RwSignal::new(false),
            selected: StoredValue::new(Framework::Torch),
            next: StoredValue::new(0),
            latest: StoredValue::new([0; 4]),
            queue: StoredValue::new_local(Vec::new()),
            worker: StoredValue::new_local(None),
        };
        Effect::new(move |_| {
            if !painted.get() || g.worker.with_value(Option::is_some) {
                return;
            }
            let Some(w) = start_worker() else {
                g.failed.set(true);
                return;
            };
            let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |message: MessageEvent| {
                // A model reply comes as UTF-8 bytes (a transferred buffer), the rest as text.
                let data = message.data();
                let Some(text) = data.as_string().or_else(|| {
                    let bytes = js_sys::Uint8Array::new(data.dyn_ref::<js_sys::ArrayBuffer>()?);
                    String::from_utf8(bytes.to_vec()).ok()
                }) else {
                    return;
                };
                if text == "ready" {
                    g.ready.set(true);
                    let queued = g.queue.try_update_value(std::mem::take).unwrap_or_default();
                    for (request, bytes) in queued {
                        g.post(&request, bytes);
                    }
                } else if text.starts_with("failed") {
                    g.failed.set(true);
                } else if let Some(reply) = Reply::decode(&text) {
                    g.receive(reply);
                }
            });
            w.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            on_message.forget();
            g.worker.set_value(Some(w));
        });
        // Layer requests wait for a burst of edits to pause, so typing never competes with
        // replies.
        let pending = StoredValue::new(None::<TimeoutHandle>);
        Effect::new(move |_| {
            let options = g.options.get();
            let want = g.want.get();
            let sweep = g.sweep.get();
            let layer = spec.with(|s| s.as_ref().ok().map(CompactSpec::from_spec));
            if let Some(handle) = pending.get_value() {
                handle.clear();
                pending.set_value(None);
            }
            let Some(layer) = layer else {
                g.reply.set(None);
                return;
            };
            let query = format_query(&layer);
            let send = move || {
                pending.set_value(None);
                let selected = g.selected.get_value();
                g.send(|id| Request::Layer {
                    id,
                    options,
                    sweep,
                    selected,
                    want,
                    query,
                });
            };
            pending.set_value(set_timeout_with_handle(send, REQUEST_DELAY).ok());
        });
        g
    }

    /// The code tab the user chose (the next replies render it shown).
    pub fn select(&self, target: Framework) {
        self.selected.set_value(target);
    }

    /// Sends a request (made with its id), or queues it until the worker is ready.
    pub fn send(&self, make: impl FnOnce(u64) -> Request) {
        self.send_with(make, None);
    }

    /// Sends a file request with the file's bytes beside it (`Request::File`): the buffer is
    /// transferred to the worker, not copied, so the page's thread never touches the bytes.
    pub fn send_file(&self, make: impl FnOnce(u64) -> Request, bytes: js_sys::ArrayBuffer) {
        self.send_with(make, Some(bytes));
    }

    fn send_with(&self, make: impl FnOnce(u64) -> Request, bytes: Option<js_sys::ArrayBuffer>) {
        let id = self.next.get_value() + 1;
        self.next.set_value(id);
        let request = make(id);
        self.latest.update_value(|l| l[slot(&request)] = id);
        let text = request.encode();
        if self.ready.get_untracked() {
            self.post(&text, bytes);
        } else {
            self.queue.update_value(|q| q.push((text, bytes)));
        }
    }

    fn post(&self, text: &str, bytes: Option<js_sys::ArrayBuffer>) {
        self.worker.with_value(|w| {
            let Some(w) = w else { return };
            let _ = match bytes {
                None => w.post_message(&JsValue::from_str(text)),
                Some(bytes) => w.post_message_with_transfer(
                    &js_sys::Array::of2(&JsValue::from_str(text), &bytes),
                    &js_sys::Array::of1(&bytes),
                ),
            };
        });
    }

    fn receive(&self, reply: Reply) {
        let latest = self.latest.get_value();
        let current = |i: usize| reply.id() == latest[i];
        match reply {
            Reply::Layer { panels, .. } if current(0) => {
                self.reply.set(Some(LayerReply { panels }));
            }
            Reply::Model {
                markup,
                pieces,
                fragment,
                ..
            } if current(1) => {
                self.model.set(Some(ModelReply {
                    markup,
                    pieces,
                    fragment,
                }));
            }
            Reply::PasteLayer { result, .. } if current(2) => self.pasted.set(Some(result)),
            Reply::Unpack { result, .. } if current(3) => self.unpacked.set(Some(result)),
            _ => {}
        }
    }
}
