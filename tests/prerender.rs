//! `index.html` carries the default layer's picture, so the first grid shows before the wasm
//! runs. This test keeps it equal to what `svg::prerendered` draws (the same markup the app
//! renders; `e2e/tests/prerender.spec.ts` compares the two in the browser). After a change to
//! the picture, `scripts/prerender.sh` rewrites it (`examples/prerender.rs`); this test only
//! reads, so it fails on a stale file whatever the environment says.

#[path = "common/prerendered.rs"]
mod prerendered;

#[test]
fn index_html_carries_the_default_picture() {
    let html = std::fs::read_to_string(prerendered::INDEX).expect("index.html");
    let (_, section, _) = prerendered::split(&html);
    assert!(
        section == prerendered::expected(),
        "index.html's pre-rendered picture is stale: run scripts/prerender.sh"
    );
}
