//! The pre-rendered picture in `index.html`: what it should hold, and where it sits. Shared by
//! `tests/prerender.rs` (which only checks) and `examples/prerender.rs` (which rewrites it).

use padlab::picture::svg::prerendered;
use padlab::view::presets::default_layer;

const START: &str = "<!-- prerendered:";
const END: &str = "<!-- /prerendered -->";

pub const INDEX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/index.html");

/// The section the default layer's picture makes.
pub fn expected() -> String {
    let spec = default_layer()
        .to_spec()
        .expect("the default layer is valid");
    let svg = prerendered(&spec).expect("the default layer has a picture");
    format!(
        "\n      <section class=\"grid skeleton\" id=\"prerendered\" aria-label=\"Padding picture\"><h2>The picture</h2>{svg}</section>\n      "
    )
}

/// `html` split around its pre-rendered section: (before, section, after).
pub fn split(html: &str) -> (&str, &str, &str) {
    let start = html.find(START).expect("the prerendered start marker");
    let body = start + html[start..].find("-->").expect("end of the start marker") + 3;
    let end = html.find(END).expect("the prerendered end marker");
    (&html[..body], &html[body..end], &html[end..])
}
