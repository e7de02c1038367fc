//! The code generator as a web worker (Trunk builds it with `data-type="worker"`), so the page's
//! first load does not carry it: the code panel starts it after the first picture.
//! Protocol: `padlab::worker::protocol` (plain text in, plain text out; a model file comes as
//! `[text, ArrayBuffer]`, the buffer transferred; a model reply goes back as its text's UTF-8
//! bytes, a transferred `ArrayBuffer`); "ready" once loaded.

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::{JsCast, JsValue, closure::Closure};
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_to = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |message: MessageEvent| {
        let data = message.data();
        let reply = if let Some(request) = data.as_string() {
            padlab::worker::serve::answer(&request)
        } else if js_sys::Array::is_array(&data) {
            // A model file: [request text, the file's bytes as a transferred ArrayBuffer].
            let parts: js_sys::Array = data.unchecked_into();
            let request = parts.get(0).as_string().unwrap_or_default();
            let bytes = parts.get(1);
            let bytes = if bytes.is_instance_of::<js_sys::ArrayBuffer>() {
                js_sys::Uint8Array::new(&bytes).to_vec()
            } else {
                Vec::new()
            };
            padlab::worker::serve::answer_with_bytes(&request, &bytes)
        } else {
            return;
        };
        if reply.starts_with('M') {
            // A model reply (a megabyte for a ResNet) goes as UTF-8 bytes in a transferred
            // buffer: the page copies them into its wasm at once, where a string would be
            // re-encoded there by a JavaScript loop for tens of milliseconds.
            let buffer = js_sys::Uint8Array::from(reply.as_bytes()).buffer();
            let _ = reply_to.post_message_with_transfer(&buffer, &js_sys::Array::of1(&buffer));
        } else {
            let _ = reply_to.post_message(&JsValue::from_str(&reply));
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // Messages sent before the wasm ran were dropped: say when to start.
    let _ = scope.post_message(&JsValue::from_str("ready"));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
