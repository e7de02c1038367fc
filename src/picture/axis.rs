//! The picture's geometry, per axis: which padded positions are input, padding or beyond the
//! padding, which no window reads (dead), which an output step taps, and which outputs read a
//! position. A 2-D cell is the product of its two axes. Coordinates are padded-input
//! coordinates: input element `0` is at `before`.
//!
//! Transposed convolution is drawn as the equivalent direct convolution: the input with
//! `stride - 1` zeros inserted between elements, padded by `d(k-1)` on both sides, a stride-1
//! window; its outputs are the full output, of which the crop is marked.

use crate::codegen::semantics::{Divisor, Kind};
use crate::core::{Answer, Geometry, LayerSpec, Op, PaddingMode};

/// What a padded-input position holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Input,
    PadBefore,
    PadAfter,
    /// Past the padding: ceil mode's last window reaches here, but nothing is read.
    Beyond,
    /// A zero inserted between input elements (transposed convolution).
    Inserted,
}

/// What the padding holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    Zeros,
    /// Max pooling: the padding never wins.
    NegInf,
    /// torch `padding_mode`s: the input mirrored, its edge repeated, or wrapped around.
    Reflect,
    Replicate,
    Circular,
}

impl Fill {
    /// The fill in words, as the legend and the step text say it.
    pub fn words(self) -> &'static str {
        match self {
            Fill::Zeros => "zeros",
            Fill::NegInf => "−∞ (a max never picks it)",
            Fill::Reflect => "the input mirrored (reflect)",
            Fill::Replicate => "the edge value repeated (replicate)",
            Fill::Circular => "the other edge's values (circular)",
        }
    }

    /// Whether the padding holds copies of the input (a torch `padding_mode`), not a constant.
    pub fn copies_input(self) -> bool {
        matches!(self, Fill::Reflect | Fill::Replicate | Fill::Circular)
    }

    /// The CSS class of the picture's cells for this fill (`fill-reflect`, ...).
    pub fn class(self) -> &'static str {
        match self {
            Fill::Zeros => "fill-zeros",
            Fill::NegInf => "fill-neg-inf",
            Fill::Reflect => "fill-reflect",
            Fill::Replicate => "fill-replicate",
            Fill::Circular => "fill-circular",
        }
    }
}

/// One spatial axis of the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    /// Input elements (for transposed: the stride-dilated input, zeros included).
    pub input: i64,
    pub before: i64,
    pub after: i64,
    /// Positions past `after` that windows reach (ceil mode).
    pub beyond: i64,
    pub kernel: i64,
    pub stride: i64,
    pub dilation: i64,
    pub output: i64,
    /// For transposed: the original stride (zeros sit between multiples of it).
    pub inserted_every: i64,
    /// For transposed: outputs cropped at the start and end of the full output.
    pub crop: (i64, i64),
}

/// `a` clamped into `i64` (the picture's arithmetic runs in `i128`; nothing drawn is beyond
/// `i64`, so clamping only guards positions that are never shown).
fn clamp(a: i128) -> i64 {
    a.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// `(g, x)` with `g = gcd(a, m)` and `a·x ≡ g (mod m)`, for `a, m > 0`.
fn inverse_gcd(a: i128, m: i128) -> (i128, i128) {
    let (mut old_r, mut r) = (a, m);
    let (mut old_s, mut s) = (1i128, 0i128);
    while r != 0 {
        let q = old_r / r;
        (old_r, r) = (r, old_r - q * r);
        (old_s, s) = (s, old_s - q * s);
    }
    (old_r, old_s)
}

impl Axis {
    /// The axis a missing dimension stands for: one input element, one window, one output
    /// (the rows of a 1-D picture, the depth of a 2-D one).
    pub fn unit() -> Axis {
        Axis {
            input: 1,
            before: 0,
            after: 0,
            beyond: 0,
            kernel: 1,
            stride: 1,
            dilation: 1,
            output: 1,
            inserted_every: 1,
            crop: (0, 0),
        }
    }

    /// Number of drawn positions.
    pub fn len(&self) -> i64 {
        self.before
            .saturating_add(self.input)
            .saturating_add(self.after)
            .saturating_add(self.beyond)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The window's span: `dilation·(kernel − 1) + 1`.
    pub fn span(&self) -> i64 {
        clamp(i128::from(self.dilation) * (i128::from(self.kernel) - 1) + 1)
    }

    /// Where output `j`'s window starts.
    pub fn start(&self, j: i64) -> i64 {
        clamp(i128::from(j) * i128::from(self.stride))
    }

    /// What position `p` (0-based, padded coordinates) holds.
    pub fn cell(&self, p: i64) -> Cell {
        let x = i128::from(p) - i128::from(self.before);
        let input = i128::from(self.input);
        if x < 0 {
            Cell::PadBefore
        } else if x < input {
            if self.inserted_every > 1 && x % i128::from(self.inserted_every) != 0 {
                Cell::Inserted
            } else {
                Cell::Input
            }
        } else if x < input + i128::from(self.after) {
            Cell::PadAfter
        } else {
            Cell::Beyond
        }
    }

    /// The taps of output `j` (kernel indices `t`, positions `start + t·dilation`) that fall in
    /// positions `lo..hi`, in order: bounded by the range, not by the kernel.
    pub fn taps_in(&self, j: i64, lo: i64, hi: i64) -> impl Iterator<Item = i64> + '_ {
        let (start, d) = (i128::from(self.start(j)), i128::from(self.dilation.max(1)));
        let first = (i128::from(lo) - start).max(0);
        let t_lo = (first + d - 1) / d;
        let t_hi = ((i128::from(hi) - 1 - start).div_euclid(d)).min(i128::from(self.kernel) - 1);
        (t_lo..=t_hi).map(move |t| clamp(start + t * d))
    }

    /// Whether output `j` reads position `p`.
    pub fn is_tap(&self, j: i64, p: i64) -> bool {
        let off = i128::from(p) - i128::from(self.start(j));
        let d = i128::from(self.dilation.max(1));
        off >= 0 && off % d == 0 && off / d < i128::from(self.kernel)
    }

    /// The outputs among `lo..hi` whose window reads position `p`, in order.
    pub fn readers_in(&self, p: i64, lo: i64, hi: i64) -> impl Iterator<Item = i64> + '_ {
        (lo.max(0)..hi.min(self.output)).filter(move |&j| self.is_tap(j, p))
    }

    /// Whether some window reads position `p`: some output `j` and tap `t` with
    /// `j·stride + t·dilation = p`, solved as a congruence (no walk over the kernel).
    pub fn is_read(&self, p: i64) -> bool {
        let (p, s, d) = (
            i128::from(p),
            i128::from(self.stride.max(1)),
            i128::from(self.dilation.max(1)),
        );
        let (k, out) = (i128::from(self.kernel), i128::from(self.output));
        if p < 0 || out <= 0 || k <= 0 {
            return false;
        }
        // t in [t_lo, t_hi] (so that 0 <= j < out), with t·d ≡ p (mod s).
        let t_lo = (p - (out - 1) * s).max(0);
        let t_lo = (t_lo + d - 1) / d;
        let t_hi = (p / d).min(k - 1);
        if t_lo > t_hi {
            return false;
        }
        let (g, inv) = inverse_gcd(d % s, s);
        if g == 0 || p % g != 0 {
            // d ≡ 0 (mod s): every t works when s divides p.
            return s == 1 || (d % s == 0 && p % s == 0);
        }
        let m = s / g;
        let t0 = ((p / g) % m * inv.rem_euclid(m)) % m;
        let t = t_lo + (t0 - t_lo).rem_euclid(m);
        t <= t_hi
    }

    /// Whether position `p` holds data or padding that no window reads (dropped by the floor,
    /// or padding nothing touches).
    pub fn is_dead(&self, p: i64) -> bool {
        self.cell(p) != Cell::Beyond && !self.is_read(p)
    }

    /// For transposed: whether full-output element `j` is cropped away.
    pub fn is_cropped(&self, j: i64) -> bool {
        j < self.crop.0 || j >= self.output.saturating_sub(self.crop.1.max(0))
    }
}

/// The picture of one layer: one axis per drawn dimension (the last two of a 3-D layer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The drawn axes: (columns) or (rows, columns).
    pub axes: Vec<Axis>,
    /// A 3-D layer's first axis, shown one slice at a time.
    pub depth: Option<Axis>,
    pub transposed: bool,
    /// What the padding holds.
    pub fill: Fill,
    /// What a window computes.
    pub reduce: Reduce,
}

/// What a window computes from its taps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// A weighted sum (convolution; transposed as the direct convolution of the zero-inserted
    /// input).
    Sum,
    Max,
    /// An average; `counts_pad`: padding taps count in the divisor (never positions past the
    /// padding).
    Average {
        counts_pad: bool,
    },
}

impl Picture {
    /// Every axis in order: depth (if any), then the drawn ones.
    fn all_axes(&self) -> impl Iterator<Item = &Axis> {
        self.depth.iter().chain(&self.axes)
    }

    /// Number of window steps (outputs), row-major over every axis.
    pub fn steps(&self) -> i64 {
        self.all_axes()
            .fold(1i64, |n, a| n.saturating_mul(a.output))
    }

    /// The output index of step `n` per axis, depth first (row-major).
    pub fn step_index(&self, n: i64) -> Vec<i64> {
        let axes: Vec<&Axis> = self.all_axes().collect();
        let mut rest = n.rem_euclid(self.steps().max(1));
        let mut index = vec![0; axes.len()];
        for (a, axis) in axes.iter().enumerate().rev() {
            index[a] = rest % axis.output.max(1);
            rest /= axis.output.max(1);
        }
        index
    }

    /// The drawn axes' part of a step index (without depth).
    pub fn drawn_index(&self, n: i64) -> Vec<i64> {
        let index = self.step_index(n);
        index[usize::from(self.depth.is_some())..].to_vec()
    }

    /// Whether the window of step `n` reads depth slice `slice` (always true in 1-D and 2-D).
    pub fn reads_slice(&self, n: i64, slice: i64) -> bool {
        match &self.depth {
            Some(depth) => depth.is_tap(self.step_index(n)[0], slice),
            None => true,
        }
    }

    /// Drawn cells in all: the budget check for the renderer.
    /// Saturates at `i64::MAX` (a layer can be far too big to draw).
    pub fn cell_count(&self) -> i64 {
        self.axes
            .iter()
            .fold(1i64, |n, a| n.saturating_mul(a.len()))
            .saturating_add(self.steps())
    }
}

/// The picture for `spec` and its answer, or `None` when it cannot be drawn.
pub fn picture(spec: &LayerSpec, answer: &Answer) -> Option<Picture> {
    let g = Geometry::of(spec).ok()?;
    let n = g.ndim();
    let transposed = spec.op == Op::ConvTranspose;
    let mut axes = (0..n)
        .map(|a| {
            let (i, k, s, d) = (g.input[a], g.kernel[a], g.stride[a], g.dilation[a]);
            // The core accepted the layer, so these fit; saturation only guards the picture.
            let keff = d.saturating_mul(k - 1).saturating_add(1);
            if transposed {
                let axis = answer.axes.get(a)?;
                let full = axis.full_output();
                Some(Axis {
                    input: (i - 1).saturating_mul(s).saturating_add(1),
                    before: keff - 1,
                    after: keff - 1,
                    beyond: 0,
                    kernel: k,
                    stride: 1,
                    dilation: d,
                    output: full,
                    inserted_every: s,
                    crop: (axis.before, axis.after),
                })
            } else {
                let axis = answer.axes.get(a)?;
                let (b, af, o) = (axis.before, axis.after, axis.output);
                let reach = (o - 1).saturating_mul(s).saturating_add(keff);
                Some(Axis {
                    input: i,
                    before: b.max(0),
                    after: af.max(0),
                    beyond: reach
                        .saturating_sub(i.saturating_add(b.max(0)).saturating_add(af.max(0)))
                        .max(0),
                    kernel: k,
                    stride: s,
                    dilation: d,
                    output: o,
                    inserted_every: 1,
                    crop: (0, 0),
                })
            }
        })
        .collect::<Option<Vec<_>>>()?;
    let depth = (n == 3).then(|| axes.remove(0));
    // An average's divisor, and whether its padding repeats the edges.
    let pool = match crate::codegen::semantics::semantics(spec).map(|(s, _)| s.kind) {
        Ok(Kind::Pool {
            divisor, replicate, ..
        }) => Some((divisor, replicate)),
        _ => None,
    };
    Some(Picture {
        axes,
        depth,
        transposed,
        reduce: match spec.op {
            Op::MaxPool => Reduce::Max,
            Op::AvgPool => Reduce::Average {
                counts_pad: matches!(pool, Some((Divisor::RealAndPad, _))),
            },
            Op::Conv | Op::ConvTranspose => Reduce::Sum,
        },
        fill: match (spec.op, spec.padding_mode.unwrap_or_default()) {
            (Op::MaxPool, _) => Fill::NegInf,
            // Keras's 'same' average on the torch backend repeats the edges into the padding.
            (Op::AvgPool, _) if matches!(pool, Some((_, true))) => Fill::Replicate,
            (Op::Conv, PaddingMode::Reflect) => Fill::Reflect,
            (Op::Conv, PaddingMode::Replicate) => Fill::Replicate,
            (Op::Conv, PaddingMode::Circular) => Fill::Circular,
            _ => Fill::Zeros,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Framework;
    use crate::picture::test_picture as pic;

    fn kinds(axis: &Axis) -> String {
        (0..axis.len())
            .map(|p| match (axis.cell(p), axis.is_dead(p)) {
                (Cell::PadBefore | Cell::PadAfter, false) => 'p',
                (Cell::PadBefore | Cell::PadAfter, true) => 'P',
                (Cell::Input, false) => 'i',
                (Cell::Input, true) => 'I',
                (Cell::Beyond, _) => 'b',
                (Cell::Inserted, _) => 'z',
            })
            .collect()
    }

    #[test]
    fn seed_004_never_reads_its_last_padding_column_and_steps_row_major() {
        // 6 + 2 + 2 = 10 positions, windows of 5 start at 0, 2, 4: position 9 is never read.
        let p = pic((Op::Conv, Framework::Torch), ["6x6", "5", "2", "2"], |_| {});
        assert_eq!(kinds(&p.axes[0]), "ppiiiiiipP");
        assert_eq!(p.steps(), 9);
        assert_eq!(p.step_index(4), vec![1, 1]);
        assert_eq!(p.drawn_index(4), vec![1, 1]);
        assert_eq!(
            p.axes[0].taps_in(1, 0, 10).collect::<Vec<_>>(),
            vec![2, 3, 4, 5, 6]
        );
    }

    #[test]
    fn the_floor_drops_the_last_row_and_reports_it_dead() {
        // 7 with kernel 2, stride 2, no padding: windows 0-1, 2-3, 4-5; element 6 is never read.
        let layer = (Op::MaxPool, Framework::Torch);
        let p = pic(layer, ["7", "2", "2", "0"], |_| {});
        assert_eq!(kinds(&p.axes[0]), "iiiiiiI");
        // With ceil mode the last window reaches past the input instead.
        let p = pic((Op::MaxPool, Framework::Torch), ["7", "2", "2", "0"], |c| {
            c.ceil_mode = true
        });
        assert_eq!(kinds(&p.axes[0]), "iiiiiiib");
        assert_eq!(p.fill, Fill::NegInf);
    }

    #[test]
    fn untouched_padding_is_dead_and_readers_invert_taps() {
        // Keras 'same' on 30 with pool 2 stride 2: no padding at all; torch p=1 k=2 s=2 on 5:
        // windows -1..0, 1..2, 3..4: all read.
        let p = pic((Op::Conv, Framework::Torch), ["5", "1", "3", "1"], |_| {});
        // Kernel 1, stride 3 from the left pad: reads -1, 2, 5 -> pad, input 2 and the right pad.
        assert_eq!(kinds(&p.axes[0]), "pIIiIIp");
        let axis = &p.axes[0];
        for j in 0..axis.output {
            for t in axis.taps_in(j, 0, axis.len()) {
                assert!(axis.readers_in(t, 0, axis.output).any(|r| r == j));
            }
        }
    }

    /// The walk over every tap that `is_read` replaces.
    fn read_by_walking(axis: &Axis, p: i64) -> bool {
        (0..axis.output).any(|j| (0..axis.kernel).any(|t| j * axis.stride + t * axis.dilation == p))
    }

    #[test]
    fn is_read_agrees_with_walking_every_tap() {
        for stride in 1..7 {
            for dilation in 1..7 {
                for kernel in 1..6 {
                    for output in 1..6 {
                        let axis = Axis {
                            input: 40,
                            before: 0,
                            after: 0,
                            beyond: 0,
                            kernel,
                            stride,
                            dilation,
                            output,
                            inserted_every: 1,
                            crop: (0, 0),
                        };
                        for p in -2..45 {
                            assert_eq!(
                                axis.is_read(p),
                                read_by_walking(&axis, p),
                                "s{stride} d{dilation} k{kernel} o{output} p{p}"
                            );
                        }
                        let taps: Vec<i64> = axis.taps_in(1, 3, 20).collect();
                        let walked: Vec<i64> = (0..kernel)
                            .map(|t| stride + t * dilation)
                            .filter(|p| (3..20).contains(p))
                            .collect();
                        assert_eq!(taps, walked);
                    }
                }
            }
        }
    }

    #[test]
    fn huge_kernels_and_strides_cost_nothing() {
        let axis = Axis {
            input: i64::MAX / 2,
            before: 1_000_000_000_000,
            after: 0,
            beyond: 0,
            kernel: 2_000_000_000_001,
            stride: 3_074_457_345_618_258_602,
            dilation: 1,
            output: 3,
            inserted_every: 1,
            crop: (0, 0),
        };
        assert!(axis.is_read(5));
        assert_eq!(axis.taps_in(2, 0, 10).count(), 0);
        assert_eq!(axis.taps_in(0, 0, 10).count(), 10);
        assert!(axis.is_tap(0, 1_999_999_999_999));
        let _ = (
            axis.span(),
            axis.start(i64::MAX),
            axis.cell(i64::MAX),
            axis.is_dead(i64::MIN),
        );
    }

    #[test]
    fn transposed_is_drawn_as_zero_inserted_input_with_the_crop_marked() {
        let layer = (Op::ConvTranspose, Framework::Keras);
        let p = pic(layer, ["4", "3", "2", "same"], |_| {});
        let axis = &p.axes[0];
        assert_eq!(kinds(axis), "ppizizizipp");
        assert_eq!(axis.output, 9);
        assert_eq!(axis.crop, (0, 1));
    }
}
