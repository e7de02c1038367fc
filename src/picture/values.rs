//! The values mode: small integers in the input, what the padding holds (zeros, −∞, or the
//! input mirrored, repeated or wrapped), the kernel's weights, the outputs, and one output's
//! multiply-and-sum spelled out. Seed 004's question was "where are the zeros?": here they are
//! written in the cells. Bounded by the drawn cells and a capped sum.

use std::fmt::Write;

use super::axis::{Axis, Cell, Fill, Picture, Reduce};
use super::scene::{Layout, rows_cols};

/// The value an input element holds: 1 to 9, from its input coordinates (depth, row, column).
pub fn input_value(d: i64, r: i64, c: i64) -> i64 {
    (d.wrapping_mul(7)
        .wrapping_add(r.wrapping_mul(3))
        .wrapping_add(c.wrapping_mul(5)))
    .rem_euclid(9)
        + 1
}

/// A kernel weight: −1, 0 or 1, from its tap indices.
pub fn weight(t: &[i64]) -> i64 {
    t.iter()
        .enumerate()
        .fold(0i64, |acc, (i, &v)| {
            acc.wrapping_add(v.wrapping_mul(i as i64 + 1))
        })
        .rem_euclid(3)
        - 1
}

/// What a padded position reads from the input along one axis, for a padding that copies the
/// input (`None`: it holds the fill itself, or nothing is there).
fn source_index(axis: &Axis, p: i64, fill: Fill) -> Option<i64> {
    let n = axis.input.max(1);
    let x = p.saturating_sub(axis.before);
    match axis.cell(p) {
        Cell::Input => Some(x),
        Cell::PadBefore | Cell::PadAfter => match fill {
            Fill::Reflect if n > 1 => {
                let period = (n - 1).saturating_mul(2);
                let m = x.rem_euclid(period);
                Some(if m < n { m } else { period - m })
            }
            Fill::Reflect => Some(0),
            Fill::Replicate => Some(x.clamp(0, n - 1)),
            Fill::Circular => Some(x.rem_euclid(n)),
            Fill::Zeros | Fill::NegInf => None,
        },
        Cell::Inserted | Cell::Beyond => None,
    }
}

/// A cell's value: a number, or −∞ for a max pool's padding; `None` where nothing is read
/// (past the padding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Num(i64),
    NegInf,
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Num(v) if *v < 0 => write!(f, "−{}", v.unsigned_abs()),
            Value::Num(v) => write!(f, "{v}"),
            Value::NegInf => f.write_str("−∞"),
        }
    }
}

/// The value at padded position (depth slice, row, column).
pub fn value_at(p: &Picture, slice: i64, r: i64, c: i64) -> Option<Value> {
    let (rows, cols) = rows_cols(p);
    let unit_depth = p.depth.is_none();
    let cells = [
        p.depth.as_ref().map_or(Cell::Input, |d| d.cell(slice)),
        rows.cell(r),
        cols.cell(c),
    ];
    if cells.contains(&Cell::Beyond) {
        return None;
    }
    if cells.contains(&Cell::Inserted) {
        return Some(Value::Num(0));
    }
    let index = |axis: Option<&Axis>, pos: i64| match axis {
        Some(a) => source_index(a, pos, p.fill),
        None => Some(0),
    };
    let d = if unit_depth {
        Some(0)
    } else {
        index(p.depth.as_ref(), slice)
    };
    match (d, index(Some(&rows), r), index(Some(&cols), c)) {
        (Some(d), Some(r), Some(c)) => Some(Value::Num(input_value(d, r, c))),
        _ if p.fill == Fill::NegInf => Some(Value::NegInf),
        _ => Some(Value::Num(0)),
    }
}

/// The most terms a sum is spelled out with, and the most taps an output is computed from.
const TERMS: usize = 9;
const TAPS: i64 = 4096;

/// Output `(jd, jr, jc)`'s value and its sum in words, or `None` when its window has more than
/// 4,096 taps.
pub fn output(p: &Picture, jd: i64, jr: i64, jc: i64) -> Option<(Value, String)> {
    let (rows, cols) = rows_cols(p);
    let unit = Axis::unit();
    let depth = p.depth.clone().unwrap_or(unit);
    let taps = depth
        .kernel
        .saturating_mul(rows.kernel)
        .saturating_mul(cols.kernel);
    if taps > TAPS {
        return None;
    }
    let mut terms: Vec<String> = Vec::new();
    let note = |terms: &mut Vec<String>, unlisted: &mut i64, text: String| {
        if terms.len() < TERMS {
            terms.push(text);
        } else {
            *unlisted += 1;
        }
    };
    let (mut sum, mut max, mut count, mut all) = (0i64, None::<Value>, 0i64, 0i64);
    let (mut zeros, mut unlisted) = (0i64, 0i64);
    for td in 0..depth.kernel {
        for tr in 0..rows.kernel {
            for tc in 0..cols.kernel {
                let at = |a: &Axis, j: i64, t: i64| {
                    a.start(j).saturating_add(t.saturating_mul(a.dilation))
                };
                let (d, r, c) = (at(&depth, jd, td), at(&rows, jr, tr), at(&cols, jc, tc));
                let slice = if p.depth.is_some() { d } else { 0 };
                let Some(v) = value_at(p, slice, r, c) else {
                    continue;
                };
                let is_pad = [depth.cell(d), rows.cell(r), cols.cell(c)]
                    .iter()
                    .any(|k| matches!(k, Cell::PadBefore | Cell::PadAfter));
                match (p.reduce, v) {
                    // Zeros add nothing: counted, not listed.
                    (Reduce::Sum, Value::Num(0)) => zeros += 1,
                    (Reduce::Sum, Value::Num(x)) => {
                        let w = weight(&[td, tr, tc]);
                        sum = sum.saturating_add(x.saturating_mul(w));
                        note(
                            &mut terms,
                            &mut unlisted,
                            format!("{}·{}", Value::Num(x), Value::Num(w)),
                        );
                    }
                    (Reduce::Max, v) => {
                        max = Some(match (max, v) {
                            (Some(Value::Num(a)), Value::Num(b)) => Value::Num(a.max(b)),
                            (Some(Value::Num(a)), Value::NegInf)
                            | (Some(Value::NegInf), Value::Num(a)) => Value::Num(a),
                            (_, v) => v,
                        });
                        note(&mut terms, &mut unlisted, v.to_string());
                    }
                    (Reduce::Average { counts_pad }, Value::Num(x)) => {
                        sum = sum.saturating_add(x);
                        all += 1;
                        if !is_pad || counts_pad {
                            count += 1;
                        }
                        note(&mut terms, &mut unlisted, Value::Num(x).to_string());
                    }
                    _ => {}
                }
            }
        }
    }
    let listed = |sep: &str| {
        let mut t = terms.join(sep);
        if unlisted > 0 {
            let _ = write!(t, "{sep}… ({unlisted} more)");
        }
        if t.is_empty() {
            t.push('0');
        }
        t
    };
    Some(match p.reduce {
        Reduce::Sum => {
            let zeros = match zeros {
                0 => String::new(),
                1 => " (one tap reads a zero)".to_string(),
                n => format!(" ({n} taps read zeros)"),
            };
            (
                Value::Num(sum),
                format!("{} = {}{zeros}", listed(" + "), Value::Num(sum)),
            )
        }
        Reduce::Max => {
            let v = max.unwrap_or(Value::NegInf);
            (v, format!("max({}) = {v}", listed(", ")))
        }
        Reduce::Average { counts_pad } => {
            let divisor = count.max(1);
            let words = if counts_pad || all == count {
                ""
            } else {
                " (the padding is not counted)"
            };
            // Rounded to a whole number for the cell; the sentence has the fraction.
            (
                Value::Num((sum + divisor / 2).div_euclid(divisor)),
                format!("({}) / {divisor} = {sum}/{divisor}{words}", listed(" + ")),
            )
        }
    })
}

/// The values written into the drawn cells (input, padding, output) as SVG text, centred.
pub fn values_svg(p: &Picture, at: &Layout, slice: i64) -> String {
    let mut out = String::new();
    let size = (at.cell * 11 / 20).max(8);
    let text = |out: &mut String, x0: i64, y0: i64, v: &dyn std::fmt::Display| {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="{size}" text-anchor="middle">{v}</text>"#,
            x0 + at.cell / 2,
            y0 + at.cell * 7 / 10
        );
    };
    let cols: Vec<(i64, i64)> = at.in_cols.positions().collect();
    for (sr, r) in at.in_rows.positions() {
        for &(sc, c) in &cols {
            if let Some(v) = value_at(p, slice, r, c) {
                text(
                    &mut out,
                    at.input.0 + sc * at.cell,
                    at.input.1 + sr * at.cell,
                    &v,
                );
            }
        }
    }
    let jd = p.depth.as_ref().map_or(0, |d| {
        // The output slice whose windows start nearest the shown input slice.
        (slice / d.stride.max(1)).clamp(0, d.output - 1)
    });
    // Every drawn output's window is summed only while the windows are small (the current
    // output's sum is spelled out under the picture in any case).
    let (rows, cols) = rows_cols(p);
    let taps = p
        .depth
        .as_ref()
        .map_or(1, |d| d.kernel)
        .saturating_mul(rows.kernel)
        .saturating_mul(cols.kernel);
    if taps > 256 {
        return out;
    }
    let out_cols: Vec<(i64, i64)> = at.out_cols.positions().collect();
    for (sr, r) in at.out_rows.positions() {
        for &(sc, c) in &out_cols {
            let jr = if p.axes.len() == 1 { 0 } else { r };
            if let Some((v, _)) = output(p, jd, jr, c) {
                text(
                    &mut out,
                    at.output.0 + sc * at.cell,
                    at.output.1 + sr * at.cell,
                    &v,
                );
            }
        }
    }
    out
}

/// The current output's value spelled out: "output (0, 1) = 1·−1 + 3·0 + … = 7".
pub fn sum_text(p: &Picture, step: i64) -> Option<String> {
    let index = p.step_index(step);
    let (jd, jr, jc) = match index.as_slice() {
        [d, r, c] => (*d, *r, *c),
        [r, c] => (0, *r, *c),
        [c] => (0, 0, *c),
        _ => return None,
    };
    let weights = if p.reduce == Reduce::Sum {
        " (input value · weight)"
    } else {
        ""
    };
    output(p, jd, jr, jc).map(|(_, words)| {
        format!(
            "Output ({}){weights}: {words}",
            crate::core::join(&index, ", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Framework, Op};
    use crate::forms::compact::CompactSpec;

    /// A PyTorch layer's picture.
    fn pic(op: Op, fields: [&str; 4], f: impl Fn(&mut CompactSpec)) -> Picture {
        crate::picture::test_picture((op, Framework::Torch), fields, f)
    }

    #[test]
    fn zeros_minus_infinity_and_copied_edges_are_where_the_padding_is() {
        let zeros = pic(Op::Conv, ["4", "3", "1", "1"], |_| {});
        assert_eq!(value_at(&zeros, 0, 0, 0), Some(Value::Num(0)));
        assert_eq!(
            value_at(&zeros, 0, 0, 1),
            Some(Value::Num(input_value(0, 0, 0)))
        );
        let max = pic(Op::MaxPool, ["4", "3", "1", "1"], |_| {});
        assert_eq!(value_at(&max, 0, 0, 0), Some(Value::NegInf));
        // Reflect: the padding before position 0 mirrors element 1; replicate repeats element 0
        // (and, past the end, element 3); circular wraps around to element 3.
        // (mode, padding, position drawn, the input element it holds)
        let copies = [
            ("reflect", "1", 0, 1),
            ("replicate", "2", 0, 0),
            ("replicate", "2", 7, 3),
            ("circular", "1", 0, 3),
        ];
        for (mode, padding, at, element) in copies {
            let copied = pic(Op::Conv, ["4", "3", "1", padding], |c| {
                c.padding_mode = Some(mode.parse().unwrap())
            });
            let want = Some(Value::Num(input_value(0, 0, element)));
            assert_eq!(value_at(&copied, 0, 0, at), want, "{mode} at {at}");
        }
    }

    #[test]
    fn an_output_is_its_window_s_sum_max_or_average() {
        // 1-D, kernel 3, padding 1: output 0 reads the zero pad, x0 and x1.
        let conv = pic(Op::Conv, ["4", "3", "1", "1"], |_| {});
        let (x0, x1) = (input_value(0, 0, 0), input_value(0, 0, 1));
        let expected = x0 * weight(&[0, 0, 1]) + x1 * weight(&[0, 0, 2]);
        assert_eq!(
            output(&conv, 0, 0, 0).map(|o| o.0),
            Some(Value::Num(expected))
        );
        let text = sum_text(&conv, 0).unwrap();
        assert!(
            text.starts_with("Output (0) (input value · weight): "),
            "{text}"
        );
        assert!(text.ends_with("(one tap reads a zero)"), "{text}");
        let max = pic(Op::MaxPool, ["4", "3", "1", "1"], |_| {});
        assert_eq!(
            output(&max, 0, 0, 0).map(|o| o.0),
            Some(Value::Num(x0.max(x1)))
        );
        // torch's average counts the padding by default: (0 + x0 + x1) / 3.
        let avg = pic(Op::AvgPool, ["4", "3", "1", "1"], |_| {});
        assert!(
            sum_text(&avg, 0)
                .unwrap()
                .ends_with(&format!("/ 3 = {}/3", x0 + x1))
        );
        let uncounted = pic(Op::AvgPool, ["4", "3", "1", "1"], |c| {
            c.count_include_pad = Some(false)
        });
        assert!(sum_text(&uncounted, 0).unwrap().contains("/ 2"));
        // Huge windows are not summed.
        let huge = pic(Op::Conv, ["9000", "9000", "1", "0"], |_| {});
        assert_eq!(output(&huge, 0, 0, 0), None);
    }
}
