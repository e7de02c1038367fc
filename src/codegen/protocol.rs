//! Messages between the web app and the code-generator worker: plain text, so the app needs
//! neither the generator nor a JSON library. A request is `id`, option flags and the layer's
//! permalink query; a reply is `id` and, per target, the code or the reason there is none.

use super::{Options, generate};
use crate::compact::CompactSpec;
use crate::core::Framework;
use crate::permalink::{format_query, parse_query};

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
    let id = lines.next().unwrap_or("0");
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
    out
}

/// Each target's code, or why there is none.
pub type Snippets = Vec<(Framework, Result<String, String>)>;

/// The app's side: the id and each target's code (or reason) from a reply text.
pub fn read_reply(reply: &str) -> Option<(u64, Snippets)> {
    let (id, rest) = reply.split_once('\n')?;
    let id = id.parse().ok()?;
    let entries = rest
        .split(RECORD)
        .filter(|r| !r.is_empty())
        .filter_map(|record| {
            let mut parts = record.splitn(3, FIELD);
            let target: Framework = parts.next()?.parse().ok()?;
            let tag = parts.next()?;
            let text = parts.next()?.to_string();
            Some((target, if tag == "ok" { Ok(text) } else { Err(text) }))
        })
        .collect();
    Some((id, entries))
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
        let (id, entries) = read_reply(&answer(&request(7, &spec, &options))).unwrap();
        assert_eq!(id, 7);
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
        let (_, entries) = read_reply(&answer(&request(1, &spec, &Options::default()))).unwrap();
        assert!(
            entries
                .iter()
                .all(|(_, r)| r.as_ref().is_err_and(|e| e.contains("strided")))
        );
        for junk in ["", "x", "1\n", "1\nzz\nop=conv&in=abc"] {
            let _ = read_reply(&answer(junk));
        }
        assert!(read_reply("nonsense").is_none());
    }
}
