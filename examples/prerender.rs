//! Rewrites the default layer's pre-rendered picture in `index.html` (`scripts/prerender.sh`;
//! `tests/prerender.rs` checks it).

#[path = "../tests/common/prerendered.rs"]
mod prerendered;

fn main() {
    let html = std::fs::read_to_string(prerendered::INDEX).expect("index.html");
    let (before, section, after) = prerendered::split(&html);
    let want = prerendered::expected();
    if section == want {
        println!("index.html's pre-rendered picture is up to date");
        return;
    }
    std::fs::write(prerendered::INDEX, format!("{before}{want}{after}")).expect("write index.html");
    println!("index.html's pre-rendered picture rewritten");
}
