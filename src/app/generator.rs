//! The link to the worker (`padlab-codegen`) that writes the code and draws the plot, so the
//! page's first load carries neither the generator nor plotters. Started after the first
//! picture; each request carries an id and a stale reply is dropped.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue, closure::Closure};
use web_sys::{Blob, BlobPropertyBag, MessageEvent, Url, Worker};

use crate::codegen::Options;
use crate::core::LayerSpec;
use crate::forms::compact::{CompactSpec, FieldError};
use crate::worker::protocol::{Reply, read_reply, request};

/// What the panels read; `options` is written by the code panel's toggles.
#[derive(Clone, Copy)]
pub struct Generator {
    pub options: RwSignal<Options>,
    /// The latest reply for the current layer; `None` while invalid or loading.
    pub reply: RwSignal<Option<Reply>>,
    /// The worker said it is ready.
    pub ready: RwSignal<bool>,
    /// The worker could not be started.
    pub failed: RwSignal<bool>,
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

/// How long a request waits for the edits to pause.
const REQUEST_DELAY: std::time::Duration = std::time::Duration::from_millis(60);

impl Generator {
    /// Starts the worker once the first picture is `painted`, and asks it again whenever the
    /// layer or the options change.
    pub fn start(spec: Memo<Result<LayerSpec, FieldError>>, painted: RwSignal<bool>) -> Self {
        let g = Generator {
            options: RwSignal::new(Options::default()),
            reply: RwSignal::new(None),
            ready: RwSignal::new(false),
            failed: RwSignal::new(false),
        };
        let latest = StoredValue::new(0u64);
        let worker = StoredValue::new_local(None::<Worker>);
        Effect::new(move |_| {
            if !painted.get() || worker.with_value(Option::is_some) {
                return;
            }
            let Some(w) = start_worker() else {
                g.failed.set(true);
                return;
            };
            let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |message: MessageEvent| {
                let Some(text) = message.data().as_string() else {
                    return;
                };
                if text == "ready" {
                    g.ready.set(true);
                } else if text.starts_with("failed") {
                    g.failed.set(true);
                } else if let Some(reply) = read_reply(&text)
                    && reply.id == latest.get_value()
                {
                    g.reply.set(Some(reply));
                }
            });
            w.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            on_message.forget();
            worker.set_value(Some(w));
        });
        // Requests wait for a burst of edits to pause, so typing never competes with replies.
        let pending = StoredValue::new(None::<TimeoutHandle>);
        Effect::new(move |_| {
            let options = g.options.get();
            let layer = spec.with(|s| s.as_ref().ok().map(CompactSpec::from_spec));
            if !g.ready.get() {
                return;
            }
            if let Some(handle) = pending.get_value() {
                handle.clear();
                pending.set_value(None);
            }
            let Some(layer) = layer else {
                g.reply.set(None);
                return;
            };
            let id = latest.get_value() + 1;
            latest.set_value(id);
            let send = move || {
                pending.set_value(None);
                worker.with_value(|w| {
                    if let Some(w) = w {
                        let _ = w.post_message(&JsValue::from_str(&request(id, &layer, &options)));
                    }
                });
            };
            pending.set_value(set_timeout_with_handle(send, REQUEST_DELAY).ok());
        });
        g
    }
}
