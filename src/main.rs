//! `padlab`: the calculation core on the command line.
//!
//! `padlab eval` reads JSON Lines (one layer spec per line) on stdin and writes one JSON line
//! per input line, in order; a bad line gets `{"error": ...}` and the stream goes on.

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use std::io::{self, BufRead, BufWriter, Write};
    use std::process::ExitCode;

    use clap::{Parser, Subcommand};

    /// How convolution and pooling padding works in each deep-learning framework.
    #[derive(Parser)]
    #[command(name = "padlab", version, about)]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Subcommand)]
    enum Command {
        /// Read layer specs as JSON Lines on stdin; write one JSON answer per line to stdout.
        ///
        /// Example: echo '{"op":"conv","framework":"keras","input":[100,20],"kernel":[4,1],"padding":"same"}' | padlab eval
        Eval,
        /// Read layer specs plus `"want": [sizes]` as JSON Lines; write every padding (or
        /// output_padding / output_size) that gives that output, or why none does.
        ///
        /// Example: echo '{"op":"conv","framework":"torch","input":[100,20],"kernel":[4,1],"want":[100,20]}' | padlab inverse
        Inverse,
    }

    pub fn main() -> ExitCode {
        let cli = Cli::parse();
        let answer: fn(&str) -> serde_json::Value = match cli.command {
            Command::Eval => padlab::wire::eval_line,
            Command::Inverse => padlab::wire::inverse_line,
        };
        match lines(io::stdin().lock(), io::stdout().lock(), answer) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("padlab: {e}");
                ExitCode::FAILURE
            }
        }
    }

    /// One answer line per input line; flushes after each so it works interactively and in pipes.
    fn lines(
        input: impl BufRead,
        output: impl Write,
        answer: fn(&str) -> serde_json::Value,
    ) -> io::Result<()> {
        let mut out = BufWriter::new(output);
        for line in input.split(b'\n') {
            let line = line?;
            let text = String::from_utf8_lossy(&line);
            let text = text.strip_suffix('\r').unwrap_or(&text);
            writeln!(out, "{}", answer(text))?;
            out.flush()?;
        }
        Ok(())
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
