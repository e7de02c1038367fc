//! Reads Python file paths on stdin and prints, per file, whether padlab's parser reads it
//! (`path<TAB>ok`) or its error (`path<TAB>line N: message`). `scripts/check-parser.sh`
//! compares this with CPython's own `ast.parse` over a folder of real code.

use std::io::BufRead;

fn main() {
    // Deeply nested files are refused, never overflow: give the parser a worker-sized stack.
    let worker = std::thread::Builder::new().stack_size(8 << 20).spawn(|| {
        for path in std::io::stdin().lock().lines().map_while(Result::ok) {
            let verdict = match std::fs::read(&path) {
                Ok(bytes) => {
                    match padlab::model::code::parser::parse(&String::from_utf8_lossy(&bytes)) {
                        Ok(_) => "ok".to_string(),
                        Err(e) => e.to_string(),
                    }
                }
                Err(e) => format!("unreadable: {e}"),
            };
            println!("{path}\t{verdict}");
        }
    });
    if let Ok(h) = worker {
        let _ = h.join();
    }
}
