//! What the core answers for one layer.

/// How `before`/`after` of an [`Answer`] are meant.
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

/// The answer for one layer, one entry per spatial dimension in every list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub output: Vec<i64>,
    pub placement: Placement,
    pub before: Vec<i64>,
    pub after: Vec<i64>,
    /// True when a dimension uses same-type padding with stride > 1 and a window wider than 1:
    /// the pads then change with the input size (a static pad is right for one size only).
    pub pads_depend_on_input: bool,
    /// `d(k-1)+1` per dimension.
    pub effective_kernel: Vec<i64>,
    /// For transposed convolution: the full output `(i-1)s + d(k-1) + 1` before cropping.
    pub full_output: Option<Vec<i64>>,
}
