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
        /// Equivalent code in another framework. Reads one spec as JSON on stdin, or takes the
        /// layer as flags (then prints the output size, the pads and the code for every target).
        ///
        /// Examples:
        ///   echo '{"op":"conv","framework":"keras","input":[100,20],"kernel":[4,1],"padding":"same"}' | padlab code --to torch --check
        ///   padlab code --framework keras --input 100x20 --kernel 4x1 --padding same
        Code(Box<CodeArgs>),
        /// Read layer specs as JSON Lines; write each one's web app permalink query
        /// (`{"query": "op=...&fw=..."}`); append it to the site's address after `?`.
        ///
        /// Example: echo '{"op":"conv","framework":"keras","input":[100,20],"kernel":[4,1],"padding":"same"}' | padlab link
        Link,
        /// Read layer specs as JSON Lines; write each one's answer lines (the few lines a porter
        /// pastes, as at the top of the web app) per target:
        /// `{"torch": {"lines": [...], "native": true, "note": null}, "keras": ..., ...}`.
        ///
        /// Example: echo '{"op":"conv","framework":"keras","input":[100,20],"kernel":[4,1],"padding":"same"}' | padlab answer
        Answer,
        /// Port a whole model: Keras or PyTorch code on stdin, the equivalent model out.
        ///
        /// Examples:
        ///   padlab port --to torch --input 32x32x3 < keras_model.py
        ///   padlab port --json --input 3x64x64 < model.py      (the layer table as JSON)
        ///   padlab port --to keras --check < model.py > check.py   (a script that proves it)
        ///   padlab port model.onnx --json [--input 3x224x224]   (a model file)
        ///   padlab port model.keras --to torch --check > check.py   (python check.py [FILE])
        Port(PortArgs),
    }

    #[derive(clap::Args, Clone)]
    struct PortArgs {
        /// A model file (.onnx, .keras or .h5, told by its content), or a file of model code,
        /// instead of code on stdin.
        #[arg(value_name = "FILE")]
        file: Option<std::path::PathBuf>,
        /// Target framework: torch, keras, tf or jax.
        #[arg(long)]
        to: Option<String>,
        /// A complete script that builds both models, copies the weights and compares outputs.
        #[arg(long)]
        check: bool,
        /// One sample's input shape in the source's layout, batch left out (e.g. 32x32x3 for
        /// Keras, 3x32x32 for PyTorch), when the code does not state it.
        #[arg(long)]
        input: Option<String>,
        /// Print the layer table as JSON instead of code.
        #[arg(long)]
        json: bool,
        /// Which model, when the paste holds several (a variable or class name).
        #[arg(long)]
        model: Option<String>,
    }

    #[derive(clap::Args)]
    struct CodeArgs {
        /// Target framework (torch, keras, tf, onnx, jax); with layer flags and no --to, all of them.
        #[arg(long)]
        to: Option<String>,
        /// A complete script that runs the layer and asserts its shape (and, across frameworks,
        /// that it equals the source layer with the same weights).
        #[arg(long)]
        check: bool,
        /// PyTorch without padding='same' (for ONNX/CoreML exporters).
        #[arg(long)]
        export_safe: bool,
        /// PyTorch functions instead of an nn.Module.
        #[arg(long)]
        functional: bool,
        /// The source framework (layer given as flags instead of JSON on stdin).
        #[arg(long)]
        framework: Option<String>,
        /// conv, conv_transpose, max_pool or avg_pool.
        #[arg(long, default_value = "conv")]
        op: String,
        /// Spatial input size, e.g. 100x20.
        #[arg(long)]
        input: Option<String>,
        /// Kernel size, e.g. 3 or 4x1.
        #[arg(long)]
        kernel: Option<String>,
        /// Stride, e.g. 2 or 2x1.
        #[arg(long)]
        stride: Option<String>,
        /// Dilation, e.g. 2.
        #[arg(long)]
        dilation: Option<String>,
        /// valid, same, same_lower, causal, 2, 1x0, or per side 1,2x0,0.
        #[arg(long)]
        padding: Option<String>,
        /// torch padding_mode: zeros, reflect, replicate, circular.
        #[arg(long)]
        padding_mode: Option<String>,
        /// Transposed convolution output_padding, e.g. 1.
        #[arg(long)]
        output_padding: Option<String>,
        /// Transposed convolution output size, e.g. 8x8.
        #[arg(long)]
        output_size: Option<String>,
        /// Pooling ceil_mode.
        #[arg(long)]
        ceil_mode: bool,
        /// Average pooling count_include_pad (true or false).
        #[arg(long)]
        count_include_pad: Option<bool>,
        /// The Keras backend: tensorflow (default), torch, jax.
        #[arg(long)]
        backend: Option<String>,
    }

    pub fn main() -> ExitCode {
        let cli = Cli::parse();
        let answer: fn(&str) -> serde_json::Value = match cli.command {
            Command::Eval => padlab::forms::wire::eval_line,
            Command::Inverse => padlab::forms::wire::inverse_line,
            Command::Link => padlab::forms::wire::link_line,
            Command::Answer => answer_line,
            Command::Code(args) => return code(*args),
            Command::Port(args) => return port(&args),
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

    fn port(args: &PortArgs) -> ExitCode {
        // The reader evaluates arbitrary pastes: give it a deep stack (its own bounds keep
        // it far from this one in release builds; debug builds need more room).
        let args = args.clone();
        let worker = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || port_text(&args).map_err(|e| e.to_string()));
        let result = match worker.map(|h| h.join()) {
            Ok(Ok(r)) => r,
            _ => Err("the reader stopped unexpectedly".to_string()),
        };
        match result {
            Ok(text) => {
                // A closed pipe (`padlab port --json | head`) ends the output quietly.
                let mut out = io::stdout().lock();
                match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                    Err(e) => {
                        eprintln!("padlab port: {e}");
                        ExitCode::FAILURE
                    }
                }
            }
            Err(e) => {
                eprintln!("padlab port: {e}");
                ExitCode::FAILURE
            }
        }
    }

    fn port_text(args: &PortArgs) -> Result<String, Box<dyn std::error::Error>> {
        use padlab::model::{port, report};
        let input = args
            .input
            .as_deref()
            .map(|text| {
                padlab::forms::compact::parse_shape(text).map_err(|e| format!("--input: {e}"))
            })
            .transpose()?;
        let model = if let Some(path) = &args.file {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            match padlab::model::file::code_in(&bytes) {
                // Model code saved to a file (`padlab port model.py`) is read like a paste.
                Some(source) => read_paste(source, args, input)?,
                None if args.model.is_some() => {
                    return Err("--model picks a model in pasted code, not in a file".into());
                }
                None => {
                    padlab::model::file::open(&bytes, input.as_deref(), &path.to_string_lossy())
                        .map_err(|e| format!("{}: {e}", path.display()))?
                }
            }
        } else {
            let mut source = String::new();
            std::io::Read::read_to_string(&mut io::stdin(), &mut source)?;
            read_paste(&source, args, input)?
        };
        if args.json {
            let build = match &model.origin {
                padlab::model::Origin::Code { build, .. } => build.clone(),
                _ => model.graph.name.clone(),
            };
            return Ok(format!(
                "{}\n",
                report::graph_json(&model.graph, &build, model.input.as_deref())
            ));
        }
        let target: padlab::core::Framework = args
            .to
            .as_deref()
            .ok_or("--to is required (torch, keras, tf or jax), or --json for the table")?
            .parse()?;
        // A model file's refusals name it, as its reading errors do.
        let file = args
            .file
            .as_ref()
            .filter(|_| matches!(model.origin, padlab::model::Origin::File { .. }));
        let at = |e: &dyn std::fmt::Display| match file {
            Some(path) => format!("{}: {e}", path.display()),
            None => e.to_string(),
        };
        if let (true, Some(path), padlab::model::Origin::File { external, .. }) =
            (args.check, file, &model.origin)
        {
            let dir = path.parent().unwrap_or(std::path::Path::new(""));
            if let Some(missing) = external.iter().find(|data| !dir.join(data).exists()) {
                return Err(at(&format!(
                    "the self-check loads the model's weights from {missing} (ONNX external data), which is not beside the file: put it there to check the port"
                ))
                .into());
            }
        }
        let ported = port::port(&model, target, port::PortOptions { check: args.check })
            .map_err(|e| at(&e))?;
        Ok(ported.script.unwrap_or(ported.code))
    }

    /// Model code (stdin, or a file of code) read into a model.
    fn read_paste(
        source: &str,
        args: &PortArgs,
        input: Option<Vec<i64>>,
    ) -> Result<padlab::model::Model, Box<dyn std::error::Error>> {
        let options = padlab::model::Options {
            input,
            model: args.model.clone(),
        };
        let model = padlab::model::read(source, &options)?;
        if !model.others.is_empty() && args.model.is_none() {
            eprintln!(
                "padlab port: the paste holds {} and {}: porting {} (choose with --model)",
                model.others.join(", "),
                model.graph.name,
                model.graph.name
            );
        }
        Ok(model)
    }

    fn code(args: CodeArgs) -> ExitCode {
        match code_text(&args) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("padlab code: {e}");
                ExitCode::FAILURE
            }
        }
    }

    fn code_text(args: &CodeArgs) -> Result<String, Box<dyn std::error::Error>> {
        use padlab::codegen::{Options, generate};
        use padlab::core::{Framework, evaluate};
        let options = Options {
            check: args.check,
            export_safe: args.export_safe,
            functional: args.functional,
        };
        let targets: Vec<Framework> = match &args.to {
            Some(t) => vec![t.parse()?],
            None if args.framework.is_some() => Framework::ALL.to_vec(),
            None => return Err("--to is required when the spec comes on stdin".into()),
        };
        let human = args.framework.is_some();
        let spec = if human {
            flags_spec(args)?
        } else {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut io::stdin(), &mut text)?;
            let value: serde_json::Value =
                serde_json::from_str(&text).map_err(|e| format!("invalid JSON: {e}"))?;
            padlab::forms::wire::parse_spec(&value)?.spec
        };
        let mut out = String::new();
        if human {
            let answer = evaluate(&spec)?;
            out.push_str(&format!("{}\n", padlab::codegen::describe_layer(&spec)));
            out.push_str(&format!(
                "output: {}\n",
                padlab::forms::compact::join(&answer.output())
            ));
            let (b, a) = if answer.full_output().is_some() {
                ("crop before", "crop after")
            } else {
                ("pad before", "pad after")
            };
            out.push_str(&format!(
                "{b}: {:?}\n{a}: {:?}\n",
                answer.before(),
                answer.after()
            ));
            if answer.pads_depend_on_input {
                out.push_str("the pads depend on the input size (strided 'same')\n");
            }
        }
        for target in targets {
            let snippet = generate(&spec, target, &options)?;
            if human {
                out.push_str(&format!("\n# ---- {} ----\n", target.title()));
            }
            out.push_str(&snippet.code);
        }
        Ok(out)
    }

    /// The layer flags as a spec, through the same text syntax as the web form.
    fn flags_spec(args: &CodeArgs) -> Result<padlab::core::LayerSpec, Box<dyn std::error::Error>> {
        use padlab::forms::compact::CompactSpec;
        let framework = args.framework.as_deref().unwrap_or_default().parse()?;
        let input = args
            .input
            .as_deref()
            .ok_or("--input is required (e.g. --input 100x20)")?;
        let kernel = args
            .kernel
            .as_deref()
            .ok_or("--kernel is required (e.g. --kernel 3)")?;
        let mut compact = CompactSpec::new(args.op.parse()?, framework, input, kernel);
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        compact.stride = text(&args.stride);
        compact.dilation = text(&args.dilation);
        compact.padding = text(&args.padding);
        compact.output_padding = text(&args.output_padding);
        compact.output_size = text(&args.output_size);
        compact.padding_mode = args.padding_mode.as_deref().map(str::parse).transpose()?;
        compact.ceil_mode = args.ceil_mode;
        compact.count_include_pad = args.count_include_pad;
        compact.backend = args.backend.as_deref().map(str::parse).transpose()?;
        if compact.backend.is_some() && framework != padlab::core::Framework::Keras {
            return Err("--backend applies to --framework keras only".into());
        }
        Ok(compact
            .to_spec()
            .map_err(|e| format!("--{}: {}", e.field.name().replace('_', "-"), e.message))?)
    }

    /// `padlab answer`: one spec in, every target's answer lines out.
    fn answer_line(line: &str) -> serde_json::Value {
        use padlab::core::Framework;
        use padlab::forms::wire::{error_json, parse_spec, read_line};
        let spec = match read_line(line).map(|v| parse_spec(&v)) {
            Ok(Ok(parsed)) => parsed.spec,
            Ok(Err(e)) => return error_json(e),
            Err(e) => return e,
        };
        let mut out = serde_json::Map::new();
        for &target in Framework::ALL {
            let value = match padlab::codegen::answer::answer(&spec, target) {
                Ok(a) => {
                    let lines: Vec<&str> = a.lines.iter().map(|l| l.text()).collect();
                    serde_json::json!({"lines": lines, "native": a.native, "note": a.note})
                }
                Err(e) => error_json(e),
            };
            out.insert(target.name().to_string(), value);
        }
        serde_json::Value::Object(out)
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
