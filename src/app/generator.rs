//! The link to the worker (`padlab-codegen`) that writes the code, draws the plot and reads
//! pasted layer calls, so the page's first load carries none of them. Started after the first
//! picture; each request carries an id and a stale reply is dropped; requests made before the
//! worker is ready wait for it. (The Whole-model view has a worker of its own: `model_page`.)

use leptos::prelude::*;
use wasm_bindgen::{JsCast, closure::Closure};
use web_sys::{MessageEvent, Worker};

use super::worker_link::{message_text, post, start_worker};
use crate::codegen::Options;
use crate::core::Framework;
use crate::core::LayerSpec;
use crate::forms::compact::{CompactSpec, FieldError};
use crate::forms::permalink::format_query;
use crate::worker::protocol::{LayerAsk, Panels, Reply, Request};

/// The latest layer reply: the panels below the picture (code and plot included), as markup.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerReply {
    pub panels: Panels,
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
    /// The latest pasted layer call, as a permalink query, or why it is not one.
    pub pasted: RwSignal<Option<Result<String, String>>>,
    /// The worker said it is ready.
    pub ready: RwSignal<bool>,
    /// The worker could not be started.
    pub failed: RwSignal<bool>,
    /// The code tab shown (the worker renders it shown).
    selected: StoredValue<Framework>,
    next: StoredValue<u64>,
    /// The latest id sent per kind (layer, paste).
    latest: StoredValue<[u64; 2]>,
    /// Requests made before the worker was ready.
    queue: StoredValue<Vec<String>, LocalStorage>,
    worker: StoredValue<Option<Worker>, LocalStorage>,
}

/// How long a layer request waits for the edits to pause.
const REQUEST_DELAY: std::time::Duration = std::time::Duration::from_millis(60);

/// The kind a request's reply is kept by (the latest of each kind wins); the model requests are
/// the Whole-model view's, sent by its own link.
fn slot(request: &Request) -> usize {
    match request {
        Request::PasteLayer { .. } => 1,
        _ => 0,
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
            pasted: RwSignal::new(None),
            ready: RwSignal::new(false),
            failed: RwSignal::new(false),
            selected: StoredValue::new(Framework::Torch),
            next: StoredValue::new(0),
            latest: StoredValue::new([0; 2]),
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
                let Some(text) = message_text(&message.data()) else {
                    return;
                };
                if text == "ready" {
                    g.ready.set(true);
                    let queued = g.queue.try_update_value(std::mem::take).unwrap_or_default();
                    for request in queued {
                        g.post(&request);
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
                let ask = LayerAsk {
                    options,
                    sweep,
                    selected,
                    want,
                    query,
                };
                g.send(|id| Request::Layer { id, ask });
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
        let id = self.next.get_value() + 1;
        self.next.set_value(id);
        let request = make(id);
        self.latest.update_value(|l| l[slot(&request)] = id);
        let text = request.encode();
        if self.ready.get_untracked() {
            self.post(&text);
        } else {
            self.queue.update_value(|q| q.push(text));
        }
    }

    fn post(&self, text: &str) {
        self.worker.with_value(|w| {
            if let Some(w) = w {
                post(w, text, None);
            }
        });
    }

    fn receive(&self, reply: Reply) {
        let latest = self.latest.get_value();
        let current = |i: usize| reply.id() == latest[i];
        match reply {
            Reply::Layer { panels, .. } if current(0) => {
                self.reply.set(Some(LayerReply { panels }));
            }
            Reply::PasteLayer { result, .. } if current(1) => self.pasted.set(Some(result)),
            _ => {}
        }
    }
}
