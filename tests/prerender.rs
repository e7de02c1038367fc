//! `index.html` carries the default layer's picture, so the first grid shows before the wasm
//! runs. This test keeps it equal to what `grid::prerendered` draws (the same markup the app
//! renders; `e2e/tests/prerender.spec.ts` compares the two in the browser). After a change to
//! the picture, `scripts/prerender.sh` rewrites it (`PADLAB_BLESS=1`).

use padlab::picture::svg::prerendered;
use padlab::view::presets::default_layer;

const START: &str = "<!-- prerendered:";
const END: &str = "<!-- /prerendered -->";

fn expected() -> String {
    let spec = default_layer()
        .to_spec()
        .expect("the default layer is valid");
    let svg = prerendered(&spec).expect("the default layer has a picture");
    format!(
        "\n      <section class=\"grid skeleton\" id=\"prerendered\" aria-label=\"Padding picture\"><h2>The picture</h2>{svg}</section>\n      "
    )
}

#[test]
fn index_html_carries_the_default_picture() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/index.html");
    let html = std::fs::read_to_string(path).expect("index.html");
    let start = html.find(START).expect("the prerendered start marker");
    let body = start + html[start..].find("-->").expect("end of the start marker") + 3;
    let end = html.find(END).expect("the prerendered end marker");
    let want = expected();
    if html[body..end] == want {
        return;
    }
    if std::env::var_os("PADLAB_BLESS").is_some() {
        let updated = format!("{}{want}{}", &html[..body], &html[end..]);
        std::fs::write(path, updated).expect("write index.html");
        return;
    }
    panic!("index.html's pre-rendered picture is stale: run scripts/prerender.sh");
}
