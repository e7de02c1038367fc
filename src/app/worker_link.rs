//! Starting the worker (`padlab-codegen`) and reading its messages, for both of the page's wasm
//! modules: the app's link ([`super::generator`]: code, plot, pasted layers) and the Whole-model
//! view's (`model_page`: reading and porting models), each with a worker of its own, so a model
//! being ported never holds up the layer's code.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, Url, Worker};

/// The directory the page's files are served from (under any sub-path), with its final `/`.
pub fn site_dir() -> Option<String> {
    let base = web_sys::window()?.document()?.base_uri().ok()??;
    Some(Url::new_with_base(".", &base).ok()?.href())
}

/// Starts the worker script (`padlab-codegen.js` beside the page, under any sub-path).
///
/// Instantiating can fail for a while when many pages were opened in quick succession in one
/// tab: each wasm memory reserves address space that the engine returns only once the old
/// pages have been collected ("Out of memory: Cannot allocate Wasm memory"). The worker tries
/// again after a pause (four times, 0.2 to 1.6 s) and then says "failed" instead of throwing.
pub fn start_worker() -> Option<Worker> {
    let dir = site_dir()?;
    let script = format!(
        r#"importScripts("{dir}padlab-codegen.js");(function start(n){{wasm_bindgen("{dir}padlab-codegen_bg.wasm").catch(function(e){{if(n<4)setTimeout(start,200<<n,n+1);else postMessage("failed: "+e);}});}})(0);"#
    );
    let parts = js_sys::Array::of1(&JsValue::from_str(&script));
    let options = BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    Worker::new(&Url::create_object_url_with_blob(&blob).ok()?).ok()
}

/// A message's text: a model reply comes as UTF-8 bytes (a transferred buffer), the rest as
/// text.
pub fn message_text(data: &JsValue) -> Option<String> {
    data.as_string().or_else(|| {
        let bytes = js_sys::Uint8Array::new(data.dyn_ref::<js_sys::ArrayBuffer>()?);
        String::from_utf8(bytes.to_vec()).ok()
    })
}

/// Posts a request's text to the worker, with a model file beside it: the `File` itself (a
/// handle, not its bytes), which the worker reads a piece at a time, so the page's thread never
/// holds the bytes and the worker holds them once.
pub fn post(worker: &Worker, text: &str, file: Option<&web_sys::File>) {
    let _ = match file {
        None => worker.post_message(&JsValue::from_str(text)),
        Some(file) => worker.post_message(&js_sys::Array::of2(&JsValue::from_str(text), file)),
    };
}
