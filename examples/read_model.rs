//! Development aid: reads a pasted model file with the evaluator and prints its table as
//! JSON (`cargo run --example read_model -- FILE [--input 3x32x32] [--model EXPR]`).

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
    let header = |name: &str| {
        src.lines().find_map(|l| {
            l.strip_prefix(&format!("# padlab-{name}:"))
                .map(|v| v.trim().to_string())
        })
    };
    let input = flag("--input").or_else(|| header("input")).map(|s| {
        s.split('x')
            .filter_map(|v| v.trim().parse().ok())
            .collect::<Vec<i64>>()
    });
    let model = flag("--model").or_else(|| header("model"));
    let options = padlab::model::code::Options { input, model };
    let worker = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || match padlab::model::code::read(&src, &options) {
            Ok(r) => println!(
                "{}",
                padlab::model::report::graph_json(&r.graph, &r.build, r.input.as_deref())
            ),
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        });
    if let Ok(h) = worker {
        let _ = h.join();
    }
}
