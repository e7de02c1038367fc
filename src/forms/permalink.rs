//! The URL query is the layer's serialized form: `?op=conv&fw=keras&in=100x20&k=4x1&p=same`.
//! Names follow the CLI fields; values use the compact text syntax. One parse, one format.

use crate::core::{Backend, Framework, Op, PaddingMode};
use crate::forms::compact::{CompactSpec, Field};

/// A layer read from a URL, with what could not be used (shown to the user).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub spec: CompactSpec,
    pub notices: Vec<String>,
}

/// The query string (without `?`) for a layer, in the canonical compact text (`in=100x20` for
/// a typed `torch.Size([64, 32, 100, 20])`); empty fields are left out.
pub fn format_query(spec: &CompactSpec) -> String {
    let spec = &spec.canonical();
    let mut parts: Vec<(&str, String)> = vec![
        ("op", spec.op.name().into()),
        ("fw", spec.framework.name().into()),
    ];
    let mut text = |key: &'static str, value: &str| {
        if !value.trim().is_empty() {
            parts.push((key, value.trim().to_string()));
        }
    };
    text("in", &spec.input);
    text("k", &spec.kernel);
    text("s", &spec.stride);
    text("d", &spec.dilation);
    text("p", &spec.padding);
    text("outpad", &spec.output_padding);
    text("out", &spec.output_size);
    if let Some(mode) = spec.padding_mode {
        parts.push(("mode", mode.name().into()));
    }
    if spec.ceil_mode {
        parts.push(("ceil", "1".into()));
    }
    if let Some(cip) = spec.count_include_pad {
        parts.push(("cip", if cip { "1" } else { "0" }.into()));
    }
    if let Some(backend) = spec.backend {
        parts.push(("be", backend.name().into()));
    }
    parts
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Reads a query string (with or without `?`). Anything unusable is reported in `notices`; if
/// the result is not a valid layer, `fallback` is used instead, with a notice saying why.
pub fn parse_query(query: &str, fallback: &CompactSpec) -> Loaded {
    let query = query.trim().trim_start_matches('?');
    if query.is_empty() {
        return Loaded {
            spec: fallback.clone(),
            notices: vec![],
        };
    }
    let mut spec = CompactSpec::new(fallback.op, fallback.framework, "", "");
    let mut notices = Vec::new();
    let mut saw_layer = false;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let value = decode(raw);
        let flag = |v: &str| matches!(v, "1" | "true" | "yes");
        match key {
            "op" => match value.parse::<Op>() {
                Ok(op) => spec.op = op,
                Err(e) => notices.push(format!("op: {e}")),
            },
            "fw" => match value.parse::<Framework>() {
                Ok(fw) => spec.framework = fw,
                Err(e) => notices.push(format!("fw: {e}")),
            },
            "mode" => match value.parse::<PaddingMode>() {
                Ok(mode) => spec.padding_mode = Some(mode),
                Err(e) => notices.push(format!("mode: {e}")),
            },
            "in" => spec.input = value,
            "k" => spec.kernel = value,
            "s" => spec.stride = value,
            "d" => spec.dilation = value,
            "p" => spec.padding = value,
            "outpad" => spec.output_padding = value,
            "out" => spec.output_size = value,
            "ceil" => spec.ceil_mode = flag(&value),
            "cip" => spec.count_include_pad = Some(flag(&value)),
            "be" => match value.parse::<Backend>() {
                Ok(b) => spec.backend = Some(b),
                Err(e) => notices.push(format!("be: {e}")),
            },
            other => {
                notices.push(format!("ignored the unknown link parameter {other:?}"));
                continue;
            }
        }
        saw_layer = true;
    }
    if !saw_layer {
        return Loaded {
            spec: fallback.clone(),
            notices,
        };
    }
    // A parameter that does not parse is dropped (the default's value, or none), the others
    // kept, and the notice says which.
    for _ in 0..Field::ALL.len() {
        let Err(e) = spec.to_spec() else {
            return Loaded { spec, notices };
        };
        let (key, text) = match e.field {
            Field::Input => (
                "in",
                std::mem::replace(&mut spec.input, fallback.input.clone()),
            ),
            Field::Kernel => (
                "k",
                std::mem::replace(&mut spec.kernel, fallback.kernel.clone()),
            ),
            Field::Stride => ("s", std::mem::take(&mut spec.stride)),
            Field::Dilation => ("d", std::mem::take(&mut spec.dilation)),
            Field::Padding => ("p", std::mem::take(&mut spec.padding)),
            Field::OutputPadding => ("outpad", std::mem::take(&mut spec.output_padding)),
            Field::OutputSize => ("out", std::mem::take(&mut spec.output_size)),
            Field::Wanted => break,
        };
        notices.push(format!("dropped {key}={text}: {}", e.message));
    }
    match spec.to_spec() {
        Ok(_) => Loaded { spec, notices },
        Err(e) => {
            notices.push(format!(
                "The link's layer is not valid ({}); showing the default layer instead.",
                e.message
            ));
            Loaded {
                spec: fallback.clone(),
                notices,
            }
        }
    }
}

/// Percent-encodes what a query value cannot hold as is (the compact syntax needs none of it).
fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b',' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Decodes `%XX` and `+`; invalid escapes stay as they are.
fn decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let hex = value
            .get(i + 1..i + 3)
            .filter(|h| h.bytes().all(|c| c.is_ascii_hexdigit()));
        match (b, hex) {
            (b'+', _) => out.push(b' '),
            (b'%', Some(h)) => {
                out.push(u8::from_str_radix(h, 16).unwrap_or(b'%'));
                i += 2;
            }
            _ => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The address's fragment: `view=model` while the Model view is open, then the pasted model
/// (`model=...`, packed by the worker; empty when nothing is pasted).
pub fn fragment(model_view: bool, packed: &str) -> String {
    let view = if model_view { "view=model" } else { "" };
    let sep = if view.is_empty() || packed.is_empty() {
        ""
    } else {
        "&"
    };
    format!("{view}{sep}{packed}")
}

/// Whether a fragment opens the Model view.
pub fn opens_model_view(hash: &str) -> bool {
    hash.trim_start_matches('#')
        .split('&')
        .any(|p| p == "view=model")
}

/// The packed model part of a fragment (`model=...`), or "".
pub fn packed_model(hash: &str) -> &str {
    hash.trim_start_matches('#')
        .split('&')
        .find(|p| p.starts_with("model="))
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::presets::presets;

    fn default() -> CompactSpec {
        CompactSpec::new(Op::Conv, Framework::Torch, "6x6", "5")
    }

    #[test]
    fn every_preset_round_trips_through_its_link() {
        for preset in presets() {
            let query = format_query(&preset.spec);
            let loaded = parse_query(&query, &default());
            assert_eq!(loaded.notices, Vec::<String>::new(), "{query}");
            assert_eq!(loaded.spec, preset.spec, "{query}");
        }
    }

    #[test]
    fn links_are_compact_and_readable() {
        let mut spec = CompactSpec::new(Op::ConvTranspose, Framework::Onnx, "4x5", "3");
        spec.padding = "1,2x0,0".into();
        spec.output_padding = "1".into();
        spec.padding_mode = None;
        assert_eq!(
            format_query(&spec),
            "op=conv_transpose&fw=onnx&in=4x5&k=3&p=1,2x0,0&outpad=1"
        );
        let mut pool = CompactSpec::new(Op::AvgPool, Framework::Torch, "7", "3");
        pool.ceil_mode = true;
        pool.count_include_pad = Some(false);
        assert_eq!(
            format_query(&pool),
            "op=avg_pool&fw=torch&in=7&k=3&ceil=1&cip=0"
        );
        assert_eq!(
            parse_query("?op=avg_pool&fw=torch&in=7&k=3&ceil=1&cip=0", &default()).spec,
            pool
        );
    }

    #[test]
    fn a_bad_parameter_is_dropped_and_the_good_ones_kept() {
        // The input does not parse: the default's input, the link's kernel and stride.
        let loaded = parse_query("op=conv&fw=keras&in=abc&k=3&s=2", &default());
        assert_eq!(
            (
                loaded.spec.framework,
                loaded.spec.input.as_str(),
                loaded.spec.kernel.as_str(),
                loaded.spec.stride.as_str()
            ),
            (Framework::Keras, "6x6", "3", "2")
        );
        assert!(
            loaded.notices[0].starts_with("dropped in=abc: "),
            "{:?}",
            loaded.notices
        );
        // Two bad ones: both said, both dropped.
        let loaded = parse_query("op=conv&fw=torch&in=8x8&k=3&d=zz&p=((1,", &default());
        assert_eq!(
            (loaded.spec.dilation.as_str(), loaded.spec.padding.as_str()),
            ("", "")
        );
        assert_eq!(loaded.notices.len(), 2, "{:?}", loaded.notices);
        assert!(loaded.spec.to_spec().is_ok());
        let loaded = parse_query("fw=caffe&in=8&k=3&zzz=1", &default());
        assert_eq!(loaded.spec.input, "8");
        assert_eq!(loaded.notices.len(), 2, "{:?}", loaded.notices);
        for junk in ["%", "%zz", "&&=&", "in=%E2%9C%93", "=", "in"] {
            let _ = parse_query(junk, &default());
        }
        assert_eq!(parse_query("", &default()).spec, default());
    }

    #[test]
    fn escapes_decode() {
        assert_eq!(decode("1%2C2x0%2C0"), "1,2x0,0");
        assert_eq!(decode("a+b%"), "a b%");
        assert_eq!(decode("%+1%zz"), "% 1%zz");
        assert_eq!(encode("1,2x0 0"), "1,2x0%200");
    }

    #[test]
    fn the_fragment_carries_the_view_and_the_model() {
        assert_eq!(fragment(true, "model=abc"), "view=model&model=abc");
        assert_eq!(fragment(false, "model=abc"), "model=abc");
        assert_eq!(fragment(true, ""), "view=model");
        assert_eq!(fragment(false, ""), "");
        assert!(opens_model_view("#view=model&model=abc"));
        assert!(!opens_model_view("#model=abc"));
        assert!(!opens_model_view("#view=modelx"));
        assert_eq!(packed_model("#view=model&model=abc"), "model=abc");
        assert_eq!(packed_model("#model=abc"), "model=abc");
        assert_eq!(packed_model("#view=model"), "");
    }
}
