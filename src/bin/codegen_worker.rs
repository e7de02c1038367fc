//! The code generator as a web worker (Trunk builds it with `data-type="worker"`), so the page's
//! first load does not carry it: the code panel starts it after the first picture.
//! Protocol: `padlab::worker::protocol` (plain text in, plain text out; a model file comes as
//! `[text, File]`, the file itself, which this worker reads (the page's thread never holds its
//! bytes); a model reply goes back as its text's UTF-8 bytes, a transferred `ArrayBuffer`);
//! "ready" once loaded.

/// How much of a file is read from it at a time: the file's bytes are copied into this
/// module's memory a piece at a time, so reading a 100 MB file costs the file and one piece.
#[cfg(target_arch = "wasm32")]
const PIECE: f64 = 8.0 * 1024.0 * 1024.0;

/// A file's bytes, read piece by piece into one buffer of its size; empty when it is larger
/// than the page reads (the worker's reply says so) or the browser refuses to read it.
#[cfg(target_arch = "wasm32")]
fn read_file(file: &web_sys::Blob) -> Vec<u8> {
    let size = file.size();
    if size > padlab::worker::protocol::MAX_FILE_BYTES as f64 {
        return Vec::new();
    }
    let Ok(reader) = web_sys::FileReaderSync::new() else {
        return Vec::new();
    };
    // File sizes are whole numbers below 2^53, here at most MAX_FILE_BYTES.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let mut bytes = Vec::with_capacity(size as usize);
    let mut at = 0.0;
    while at < size {
        let end = (at + PIECE).min(size);
        let Ok(piece) = file
            .slice_with_f64_and_f64(at, end)
            .and_then(|part| reader.read_as_array_buffer(&part))
        else {
            return Vec::new();
        };
        let piece = js_sys::Uint8Array::new(&piece);
        let start = bytes.len();
        bytes.resize(start + piece.length() as usize, 0);
        piece.copy_to(&mut bytes[start..]);
        at = end;
    }
    bytes
}

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
            // A model file: [request text, the file].
            let parts: js_sys::Array = data.unchecked_into();
            let request = parts.get(0).as_string().unwrap_or_default();
            let file = parts.get(1);
            let bytes = match file.dyn_ref::<web_sys::Blob>() {
                Some(file) => read_file(file),
                None => Vec::new(),
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
