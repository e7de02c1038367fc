//! The code generator as a web worker (Trunk builds it with `data-type="worker"`), so the page's
//! first load does not carry it: the code panel starts it after the first picture.
//! Protocol: `padlab::worker::protocol` (plain text in, plain text out); "ready" once loaded.

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::{JsCast, JsValue, closure::Closure};
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_to = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |message: MessageEvent| {
        if let Some(request) = message.data().as_string() {
            let reply = padlab::worker::serve::answer(&request);
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
