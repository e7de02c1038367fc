//! The arithmetic behind an answer, one line per dimension, with the numbers substituted:
//! `⌊(6 + 2 + 2 − 5) / 2⌋ + 1 = 3`.

use crate::core::{Answer, Framework, Geometry, LayerSpec, Op, Padding};

/// One dimension's explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// `height`, `width`, ...
    pub dimension: &'static str,
    /// The effective kernel, when dilated: `k' = 2·(3 − 1) + 1 = 5`.
    pub kernel: Option<String>,
    /// How the padding came about, for the keyword forms.
    pub padding: Option<String>,
    /// The output formula with numbers.
    pub output: String,
}

/// Dimension names for `n` spatial dimensions.
pub fn dimension_names(n: usize) -> &'static [&'static str] {
    match n {
        1 => &["length"],
        2 => &["height", "width"],
        _ => &["depth", "height", "width"],
    }
}

/// `+ 3` or `− 3` (in `i128`: the negation of any `i64` fits).
fn signed(v: i128) -> String {
    if v < 0 {
        format!("− {}", -v)
    } else {
        format!("+ {v}")
    }
}

/// The explanation of `answer` for `spec` (both from the core). The arithmetic is in `i128`,
/// where sums and products of the core's `i64` values cannot overflow.
pub fn explain(spec: &LayerSpec, answer: &Answer) -> Vec<Line> {
    let Ok(g) = Geometry::of(spec) else {
        return vec![];
    };
    let n = g.ndim();
    let names = dimension_names(n);
    let keyword = spec.padding.as_ref().and_then(Padding::keyword);
    answer
        .axes
        .iter()
        .zip(names)
        .enumerate()
        .map(|(a, (axis, &dimension))| {
            let (i, k, s, d) = g.dim(a);
            let wide = |v: i64| i128::from(v);
            let (keff, b, af, o) = (
                wide(axis.effective_kernel),
                wide(axis.before),
                wide(axis.after),
                wide(axis.output),
            );
            let kernel = (d > 1).then(|| format!("k' = {d}·({k} − 1) + 1 = {keff}"));
            let padding = match (spec.op, keyword) {
                (Op::ConvTranspose, _) | (_, None | Some("valid")) => None,
                (_, Some("causal")) => Some(format!("causal: everything before, k' − 1 = {b}")),
                (Op::Conv, Some("same")) if spec.framework == Framework::Torch => {
                    Some(format!("torch 'same' (stride 1): total k' − 1 = {}, before ⌊{0}/2⌋ = {b}, after {af}", keff - 1))
                }
                (_, Some(kw)) => {
                    let total = b + af;
                    let lower = kw == "same_lower";
                    Some(format!(
                        "'{kw}': o = ⌈{i} / {s}⌉ = {}; total = max(({} − 1)·{s} + {keff} − {i}, 0) = {total}; {} {}, {} {}",
                        (i + s - 1) / s,
                        (i + s - 1) / s,
                        if lower { "after ⌊total/2⌋ =" } else { "before ⌊total/2⌋ =" },
                        if lower { af } else { b },
                        if lower { "before" } else { "after" },
                        if lower { b } else { af },
                    ))
                }
            };
            let output = match spec.op {
                Op::ConvTranspose => {
                    let full = o + b + af;
                    format!(
                        "full = ({i} − 1)·{s} + {keff} = {full}; output = {full} {} {} = {o}",
                        signed(-b),
                        signed(-af)
                    )
                }
                _ => {
                    let ceil = spec.ceil_mode == Some(true);
                    let (open, close) = if ceil { ("⌈", "⌉") } else { ("⌊", "⌋") };
                    let mut text = format!("{open}({i} {} {} − {keff}) / {s}{close} + 1 = {o}", signed(b), signed(af));
                    let raw = i + b + af - keff;
                    let floor = raw.div_euclid(s) + 1;
                    let ceiled = -((-raw).div_euclid(s)) + 1;
                    if ceil && o < ceiled {
                        text.push_str(&format!(
                            " (⌈⌉ gives {ceiled}; the last window would start at {} ≥ {i} + {b}, in the right padding, so it is dropped)",
                            (ceiled - 1) * s
                        ));
                    }
                    if spec.framework == Framework::Onnx && spec.op.is_pool() && !ceil && o != floor {
                        text.push_str(&format!(" (ONNX Runtime divides with truncation toward zero: {raw} / {s} → {})", raw / s));
                    }
                    text
                }
            };
            Line { dimension, kernel, padding, output }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::evaluate;
    use crate::forms::compact::{CompactSpec, test_layer};

    fn lines(layer: (Op, Framework), fields: [&str; 4], f: impl Fn(&mut CompactSpec)) -> Vec<Line> {
        let spec = test_layer(layer, fields, f);
        explain(&spec, &evaluate(&spec).unwrap())
    }

    #[test]
    fn seed_004_reads_like_the_textbook() {
        let l = lines((Op::Conv, Framework::Torch), ["6x6", "5", "2", "2"], |_| {});
        assert_eq!(l[0].output, "⌊(6 + 2 + 2 − 5) / 2⌋ + 1 = 3");
        assert_eq!(l[1].dimension, "width");
    }

    #[test]
    fn same_shows_the_split_and_ceil_mode_shows_the_dropped_window() {
        let layer = (Op::Conv, Framework::Keras);
        let l = lines(layer, ["224", "7", "2", "same"], |_| {});
        assert_eq!(
            l[0].padding.as_deref(),
            Some(
                "'same': o = ⌈224 / 2⌉ = 112; total = max((112 − 1)·2 + 7 − 224, 0) = 5; before ⌊total/2⌋ = 2, after 3"
            )
        );
        // torch MaxPool(2, 2, padding=1, ceil) on 5: ⌈(5+2-2)/2⌉+1 = 4, but the last window would
        // start at 6 = i + p, in the right padding: dropped, 3.
        let l = lines((Op::MaxPool, Framework::Torch), ["5", "2", "2", "1"], |c| {
            c.ceil_mode = true
        });
        assert!(
            l[0].output
                .starts_with("⌈(5 + 1 + 1 − 2) / 2⌉ + 1 = 3 (⌈⌉ gives 4"),
            "{}",
            l[0].output
        );
        let l = lines((Op::MaxPool, Framework::Torch), ["4", "2", "2", "1"], |c| {
            c.ceil_mode = true
        });
        assert_eq!(l[0].output, "⌈(4 + 1 + 1 − 2) / 2⌉ + 1 = 3");
    }

    #[test]
    fn transposed_and_dilated() {
        let l = lines(
            (Op::ConvTranspose, Framework::Torch),
            ["249", "7", "6", "9"],
            |c| c.output_padding = "4".into(),
        );
        assert_eq!(
            l[0].output,
            "full = (249 − 1)·6 + 7 = 1495; output = 1495 − 9 − 5 = 1481"
        );
        let l = lines((Op::Conv, Framework::Jax), ["9", "3", "1", "valid"], |c| {
            c.dilation = "2".into()
        });
        assert_eq!(l[0].kernel.as_deref(), Some("k' = 2·(3 − 1) + 1 = 5"));
    }
}
