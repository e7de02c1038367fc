//! What the core answers for one layer.

/// How `before`/`after` of an [`AxisAnswer`] are meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Padding added to the input of a convolution or pooling: `before` at the start of each
    /// dimension (top/left/front), `after` at the end.
    Pad,
    /// Elements dropped from the full transposed-convolution output `(i-1)s + d(k-1) + 1`:
    /// `before` from the start, `after` from the end. A negative value means that many elements
    /// are appended (zeros, or values of a longer output).
    Crop,
}

/// One spatial dimension of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AxisAnswer {
    pub output: i64,
    /// Pad (or crop, see [`Placement`]) at the start of the dimension.
    pub before: i64,
    /// Pad (or crop) at the end of the dimension.
    pub after: i64,
    /// `d(k-1)+1`.
    pub effective_kernel: i64,
}

impl AxisAnswer {
    /// For a transposed convolution: the full output `(i-1)s + d(k-1) + 1` before cropping.
    pub fn full_output(&self) -> i64 {
        self.output
            .saturating_add(self.before)
            .saturating_add(self.after)
    }
}

/// The answer for one layer: one [`AxisAnswer`] per spatial dimension, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub placement: Placement,
    pub axes: Vec<AxisAnswer>,
    /// True when a dimension uses same-type padding with stride > 1 and a window wider than 1:
    /// the pads then change with the input size (a static pad is right for one size only).
    pub pads_depend_on_input: bool,
}

impl Answer {
    /// The output size per dimension.
    pub fn output(&self) -> Vec<i64> {
        self.axes.iter().map(|a| a.output).collect()
    }

    /// The pad (or crop) at the start of each dimension.
    pub fn before(&self) -> Vec<i64> {
        self.axes.iter().map(|a| a.before).collect()
    }

    /// The pad (or crop) at the end of each dimension.
    pub fn after(&self) -> Vec<i64> {
        self.axes.iter().map(|a| a.after).collect()
    }

    /// `d(k-1)+1` per dimension.
    pub fn effective_kernel(&self) -> Vec<i64> {
        self.axes.iter().map(|a| a.effective_kernel).collect()
    }

    /// For a transposed convolution: the full output per dimension before cropping.
    pub fn full_output(&self) -> Option<Vec<i64>> {
        (self.placement == Placement::Crop)
            .then(|| self.axes.iter().map(AxisAnswer::full_output).collect())
    }

    /// `(before, after)` per dimension.
    pub fn pairs(&self) -> Vec<(i64, i64)> {
        self.axes.iter().map(|a| (a.before, a.after)).collect()
    }

    /// The number of spatial dimensions.
    pub fn ndim(&self) -> usize {
        self.axes.len()
    }
}

/// The per-dimension values an op computes, in the `i128` of the checked arithmetic.
pub(crate) struct Computed<'a> {
    pub placement: Placement,
    pub output: &'a [i128],
    pub before: &'a [i128],
    pub after: &'a [i128],
    pub effective_kernel: &'a [i128],
    pub pads_depend_on_input: bool,
}

impl Computed<'_> {
    /// The answer, every value narrowed to `i64` (an overflow is an error, not a wrap).
    pub fn answer(self) -> Result<Answer, super::PadError> {
        use super::geometry::narrow;
        let axes = (0..self.output.len())
            .map(|a| {
                let at = |v: &[i128]| {
                    v.get(a)
                        .copied()
                        .map_or(Err(super::PadError::Overflow), narrow)
                };
                Ok(AxisAnswer {
                    output: at(self.output)?,
                    before: at(self.before)?,
                    after: at(self.after)?,
                    effective_kernel: at(self.effective_kernel)?,
                })
            })
            .collect::<Result<Vec<_>, super::PadError>>()?;
        Ok(Answer {
            placement: self.placement,
            axes,
            pads_depend_on_input: self.pads_depend_on_input,
        })
    }
}
