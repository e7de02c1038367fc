//! The web app's entry point (Trunk builds it for wasm32; see index.html).

fn main() {
    padlab::app::mount();
}
