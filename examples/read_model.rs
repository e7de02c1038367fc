//! Development aid: reads a pasted model file with the evaluator and prints its table as
//! JSON (`cargo run --example read_model -- FILE [--input 3x32x32] [--model EXPR]`); the flags
//! stand for the file's `# padlab-input:` and `# padlab-model:` lines, which it honours too.

// The corpus tests' reading of those lines (and the reader's deep stack).
#[path = "../tests/common/corpus.rs"]
mod corpus;
use corpus::{header, shape};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: read_model FILE [--input SHAPE] [--model EXPR]");
        std::process::exit(2);
    };
    let src = std::fs::read_to_string(path).unwrap_or_default();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let input = flag("--input").or_else(|| header(&src, "input"));
    let model = flag("--model").or_else(|| header(&src, "model"));
    let options = padlab::model::code::Options {
        input: input.as_deref().map(shape),
        model,
    };
    corpus::stack::on_deep_stack(move || match padlab::model::code::read(&src, &options) {
        Ok(r) => println!(
            "{}",
            padlab::model::report::graph_json(&r.graph, &r.build, r.input.as_deref())
        ),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    });
}
