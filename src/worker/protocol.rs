//! Messages between the web app and the code-generator worker: plain text, so the app needs
//! neither the generator, plotters nor a JSON library. A request is `id`, option flags and the
//! layer's permalink query; a reply is `id`, per target the code or the reason there is none,
//! and the input-size plot (`crate::view::plot`) with its one-sentence summary.

use crate::codegen::{Options, generate};
use crate::core::Framework;
use crate::forms::compact::CompactSpec;
use crate::forms::permalink::{format_query, parse_query};

const FIELD: char = '\u{1e}';
const RECORD: char = '\u{1f}';

/// The request text for `spec` with `options`.
pub fn request(id: u64, spec: &CompactSpec, options: &Options) -> String {
    let flags: String = [
        (options.check, 'c'),
        (options.export_safe, 'e'),
        (options.functional, 'f'),
    ]
    .iter()
    .filter_map(|&(on, c)| on.then_some(c))
    .collect();
    format!("{id}\n{flags}\n{}", format_query(spec))
}

/// The worker's side: the reply text for a request text.
pub fn answer(request: &str) -> String {
    let mut lines = request.splitn(3, '\n');
    // A request without a readable id still gets a readable reply (id 0).
    let id: u64 = lines.next().and_then(|id| id.parse().ok()).unwrap_or(0);
    let flags = lines.next().unwrap_or("");
    let query = lines.next().unwrap_or("");
    let options = Options {
        check: flags.contains('c'),
        export_safe: flags.contains('e'),
        functional: flags.contains('f'),
    };
    let fallback = CompactSpec::new(crate::core::Op::Conv, Framework::Torch, "", "");
    let loaded = parse_query(query, &fallback);
    let mut out = format!("{id}\n");
    for &target in Framework::ALL {
        let result = loaded
            .spec
            .to_spec()
            .map_err(|e| e.message)
            .and_then(|spec| {
                generate(&spec, target, &options)
                    .map(|s| s.code)
                    .map_err(|e| e.to_string())
            });
        let (tag, text) = match result {
            Ok(code) => ("ok", code),
            Err(why) => ("err", why),
        };
        out.push_str(&format!(
            "{}{FIELD}{tag}{FIELD}{text}{RECORD}",
            target.name()
        ));
    }
    let plot = loaded
        .spec
        .to_spec()
        .map_err(|e| e.message)
        // A refused layer gets its reason, not an empty plot.
        .and_then(|spec| match crate::core::evaluate(&spec) {
            Ok(_) => crate::view::plot::sweep(&spec).ok_or_else(|| "No dimension to sweep.".into()),
            Err(e) => Err(e.to_string()),
        })
        .and_then(|sweep| {
            let svg = crate::view::plot::svg(&sweep, PLOT_SIZE.0, PLOT_SIZE.1)?;
            Ok(format!(
                "{}{FIELD}{svg}",
                crate::view::plot::summary(&sweep)
            ))
        });
    let (tag, text) = match plot {
        Ok(text) => ("ok", text),
        Err(why) => ("err", why),
    };
    out.push_str(&format!("plot{FIELD}{tag}{FIELD}{text}{RECORD}"));
    out
}

/// The plot's size in SVG pixels (it scales to the page width).
pub const PLOT_SIZE: (u32, u32) = (640, 440);

/// Each target's code, or why there is none.
pub type Snippets = Vec<(Framework, Result<String, String>)>;

/// The input-size plot: `(summary, svg)`, or why there is none.
pub type Plot = Result<(String, String), String>;

/// A reply, read by the app.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The request's id (a stale reply is dropped).
    pub id: u64,
    pub snippets: Snippets,
    pub plot: Plot,
}

/// The app's side: a reply text read back.
pub fn read_reply(reply: &str) -> Option<Reply> {
    let (id, rest) = reply.split_once('\n')?;
    let id = id.parse().ok()?;
    let mut snippets = Vec::new();
    let mut plot = Err("No plot in the reply.".to_string());
    for record in rest.split(RECORD).filter(|r| !r.is_empty()) {
        let mut parts = record.splitn(3, FIELD);
        let (Some(name), Some(tag), Some(text)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let text = text.to_string();
        if name == "plot" {
            plot = match text.split_once(FIELD) {
                Some((summary, svg)) if tag == "ok" => Ok((summary.to_string(), svg.to_string())),
                _ => Err(text),
            };
        } else if let Ok(target) = name.parse::<Framework>() {
            snippets.push((target, if tag == "ok" { Ok(text) } else { Err(text) }));
        }
    }
    Some(Reply { id, snippets, plot })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Op;

    #[test]
    fn a_request_round_trips_into_code_for_every_target() {
        let spec = CompactSpec {
            padding: "same".into(),
            ..CompactSpec::new(Op::Conv, Framework::Keras, "100x20", "4x1")
        };
        let options = Options {
            check: true,
            ..Options::default()
        };
        let reply = read_reply(&answer(&request(7, &spec, &options))).unwrap();
        let (id, entries) = (reply.id, reply.snippets);
        assert_eq!(id, 7);
        let (summary, svg) = reply.plot.unwrap();
        assert!(
            summary.contains("the pads are the same for every size"),
            "{summary}"
        );
        assert!(
            svg.starts_with("<svg") && svg.ends_with("</svg>\n"),
            "{svg}"
        );
        assert_eq!(entries.len(), 5);
        let direct = generate(&spec.to_spec().unwrap(), Framework::Torch, &options)
            .unwrap()
            .code;
        assert_eq!(entries[0], (Framework::Torch, Ok(direct)));
    }

    #[test]
    fn a_refused_layer_and_garbage_answer_reasons_not_panics() {
        let spec = CompactSpec {
            stride: "2".into(),
            padding: "same".into(),
            ..CompactSpec::new(Op::Conv, Framework::Torch, "8", "3")
        };
        let reply = read_reply(&answer(&request(1, &spec, &Options::default()))).unwrap();
        assert!(reply.plot.is_err_and(|e| e.contains("strided")));
        let entries = reply.snippets;
        assert!(
            entries
                .iter()
                .all(|(_, r)| r.as_ref().is_err_and(|e| e.contains("strided")))
        );
        // Garbage requests still get a well-formed reply: every target and the plot say why.
        for junk in ["", "x", "1\n", "1\nzz\nop=conv&in=abc"] {
            let reply = read_reply(&answer(junk)).expect("a reply");
            assert_eq!(reply.snippets.len(), Framework::ALL.len(), "{junk:?}");
            assert!(reply.snippets.iter().all(|(_, r)| r.is_err()), "{junk:?}");
            assert!(reply.plot.is_err(), "{junk:?}");
        }
        assert!(read_reply("nonsense").is_none());
    }
}
