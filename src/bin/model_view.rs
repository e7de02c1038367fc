//! The Whole model view as a wasm module of its own (Trunk builds it with `data-type="worker"`,
//! `data-bindgen-target="web"` and a loader shim, and injects nothing: the page imports the
//! loader when the view is first shown). See `padlab::app::model_page`.

#[cfg(target_arch = "wasm32")]
fn main() {
    padlab::app::model_page::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
