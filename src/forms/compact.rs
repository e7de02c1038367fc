//! The compact text form of a layer, shared by the CLI flags, the web form and permalinks:
//! sizes as `100x20`, padding as `same`, `2`, `1x0` (per dimension) or `1,2x0,0` (per side).
//! One parse, one format, round-trip tested.

use crate::core::{
    Answer, Dims, Framework, LayerSpec, Op, PadError, Padding, PaddingMode, evaluate,
};

/// A layer as text fields (what a user typed; nothing is lost when a field does not parse).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactSpec {
    pub op: Op,
    pub framework: Framework,
    pub input: String,
    pub kernel: String,
    /// Empty: the framework's default.
    pub stride: String,
    pub dilation: String,
    pub padding: String,
    pub padding_mode: Option<PaddingMode>,
    pub output_padding: String,
    pub output_size: String,
    pub ceil_mode: bool,
    pub count_include_pad: Option<bool>,
}

/// A text field of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Input,
    Kernel,
    Stride,
    Dilation,
    Padding,
    OutputPadding,
    OutputSize,
    /// A size typed outside the layer (the inverse panel's wanted output).
    Wanted,
}

impl Field {
    /// The field's name: the CLI flag (`--output-padding` from `output_padding`), the form
    /// control's `data-testid`, and the word in messages.
    pub fn name(self) -> &'static str {
        match self {
            Field::Input => "input",
            Field::Kernel => "kernel",
            Field::Stride => "stride",
            Field::Dilation => "dilation",
            Field::Padding => "padding",
            Field::OutputPadding => "output_padding",
            Field::OutputSize => "output_size",
            Field::Wanted => "output",
        }
    }
}

/// A field that does not parse, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: Field,
    pub message: String,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FieldError {}

fn field_error(field: Field, message: String) -> FieldError {
    FieldError { field, message }
}

/// Why the form has no answer: a field that does not parse, or the framework's refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayerError {
    Field(FieldError),
    Refused(PadError),
}

impl std::fmt::Display for LayerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayerError::Field(e) => e.fmt(f),
            LayerError::Refused(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LayerError {}

/// `100x20` -> `[100, 20]` (spaces and `×` allowed).
pub fn parse_sizes(field: Field, text: &str) -> Result<Vec<i64>, FieldError> {
    let text = text.trim();
    let name = field.name();
    if text.is_empty() {
        return Err(field_error(field, format!("{name} is empty")));
    }
    text.split(['x', 'X', '×'])
        .map(|part| {
            part.trim().parse::<i64>().map_err(|_| {
                field_error(
                    field,
                    format!("{name} takes whole numbers like 3 or 100x20, got {text:?}"),
                )
            })
        })
        .collect()
}

/// A shape as people write it: `32x32x3`, `32,32,3`, `(32, 32, 3)`, `[32, 32, 3]`, a printed
/// `torch.Size([64, 32, 100, 20])` or `TensorShape([None, 30, 30, 64])`. A leading `None` (a
/// batch of any size) is dropped.
pub fn parse_shape(text: &str) -> Result<Vec<i64>, FieldError> {
    let mut inner = text.trim();
    // `torch.Size(...)`, `TensorShape(...)`: what is inside the call.
    if let Some(open) = inner.find('(')
        && open > 0
        && inner[..open]
            .chars()
            .all(|c| c.is_alphanumeric() || c == '.' || c == '_')
        && inner.ends_with(')')
    {
        inner = &inner[open + 1..inner.len() - 1];
    }
    let inner = inner
        .trim()
        .trim_start_matches(['(', '['])
        .trim_end_matches([')', ']'])
        .trim()
        .trim_end_matches(',');
    let mut parts: Vec<&str> = inner.split(['x', 'X', '×', ',']).map(str::trim).collect();
    if parts.first() == Some(&"None") {
        parts.remove(0);
    }
    let values: Result<Vec<i64>, _> = parts.iter().map(|p| p.parse::<i64>()).collect();
    match values {
        Ok(v) if !v.is_empty() => Ok(v),
        _ => Err(field_error(
            Field::Input,
            format!("a shape is whole sizes like 32x32x3 or (32, 32, 3), got {text:?}"),
        )),
    }
}

/// One number for every dimension, or one per dimension.
fn parse_dims(field: Field, text: &str) -> Result<Dims, FieldError> {
    let values = parse_sizes(field, text)?;
    Ok(match values.as_slice() {
        [one] => Dims::All(*one),
        _ => Dims::Each(values),
    })
}

/// `same`, `2`, `1x0`, or per side `1,2x0,0`.
pub fn parse_padding(text: &str) -> Result<Padding, FieldError> {
    let text = text.trim();
    if let Some(keyword) = Padding::from_keyword(text) {
        return Ok(keyword);
    }
    if text.contains(',') {
        return text
            .split(['x', 'X', '×'])
            .map(|pair| {
                let parts: Result<Vec<i64>, _> =
                    pair.split(',').map(|v| v.trim().parse::<i64>()).collect();
                match parts.as_deref() {
                    Ok([b, a]) => Ok([*b, *a]),
                    _ => Err(field_error(
                        Field::Padding,
                        format!(
                            "per-side padding is before,after per dimension (1,2x0,0), got {text:?}"
                        ),
                    )),
                }
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Padding::Explicit);
    }
    let values = parse_sizes(Field::Padding, text).map_err(|_| {
        field_error(
            Field::Padding,
            format!("padding is valid, same, same_lower, causal, 2, 1x0 or 1,2x0,0; got {text:?}"),
        )
    })?;
    Ok(match values.as_slice() {
        [one] => Padding::All(*one),
        _ => Padding::PerDim(values),
    })
}

/// The compact text of a padding value.
pub fn format_padding(padding: &Padding) -> String {
    match padding {
        Padding::All(p) => p.to_string(),
        Padding::PerDim(v) => join(v),
        Padding::Explicit(v) => v
            .iter()
            .map(|[b, a]| format!("{b},{a}"))
            .collect::<Vec<_>>()
            .join("x"),
        keyword => keyword.keyword().unwrap_or("valid").to_string(),
    }
}

/// `[100, 20]` -> `100x20`.
pub fn join(values: &[i64]) -> String {
    crate::core::join(values, "x")
}

fn format_dims(dims: &Dims) -> String {
    match dims {
        Dims::All(v) => v.to_string(),
        Dims::Each(v) => join(v),
    }
}

impl CompactSpec {
    /// A 2-D convolution with the framework's defaults.
    pub fn new(op: Op, framework: Framework, input: &str, kernel: &str) -> CompactSpec {
        CompactSpec {
            op,
            framework,
            input: input.into(),
            kernel: kernel.into(),
            stride: String::new(),
            dilation: String::new(),
            padding: String::new(),
            padding_mode: None,
            output_padding: String::new(),
            output_size: String::new(),
            ceil_mode: false,
            count_include_pad: None,
        }
    }

    /// The layer, or the first field that does not parse. Empty optional fields are absent.
    pub fn to_spec(&self) -> Result<LayerSpec, FieldError> {
        let input = parse_sizes(Field::Input, &self.input)?;
        let mut spec = LayerSpec::new(
            self.op,
            self.framework,
            input,
            parse_dims(Field::Kernel, &self.kernel)?,
        );
        let optional = |field: Field, text: &str| -> Result<Option<Dims>, FieldError> {
            if text.trim().is_empty() {
                Ok(None)
            } else {
                parse_dims(field, text).map(Some)
            }
        };
        spec.stride = optional(Field::Stride, &self.stride)?;
        spec.dilation = optional(Field::Dilation, &self.dilation)?;
        spec.padding = if self.padding.trim().is_empty() {
            None
        } else {
            Some(parse_padding(&self.padding)?)
        };
        spec.padding_mode = self.padding_mode;
        if self.op == Op::ConvTranspose {
            spec.output_padding = optional(Field::OutputPadding, &self.output_padding)?;
            if !self.output_size.trim().is_empty() {
                spec.output_size = Some(parse_sizes(Field::OutputSize, &self.output_size)?);
            }
        }
        if self.op.is_pool() {
            spec.ceil_mode = self.ceil_mode.then_some(true);
        }
        if self.op == Op::AvgPool {
            spec.count_include_pad = self.count_include_pad;
        }
        Ok(spec)
    }

    /// The layer and the core's answer for it, or why there is none.
    pub fn evaluate(&self) -> Result<(LayerSpec, Answer), LayerError> {
        let spec = self.to_spec().map_err(LayerError::Field)?;
        let answer = evaluate(&spec).map_err(LayerError::Refused)?;
        Ok((spec, answer))
    }

    /// The text fields of a spec.
    pub fn from_spec(spec: &LayerSpec) -> CompactSpec {
        CompactSpec {
            op: spec.op,
            framework: spec.framework,
            input: join(&spec.input),
            kernel: format_dims(&spec.kernel),
            stride: spec.stride.as_ref().map(format_dims).unwrap_or_default(),
            dilation: spec.dilation.as_ref().map(format_dims).unwrap_or_default(),
            padding: spec
                .padding
                .as_ref()
                .map(format_padding)
                .unwrap_or_default(),
            padding_mode: spec.padding_mode,
            output_padding: spec
                .output_padding
                .as_ref()
                .map(format_dims)
                .unwrap_or_default(),
            output_size: spec.output_size.as_deref().map(join).unwrap_or_default(),
            ceil_mode: spec.ceil_mode.unwrap_or(false),
            count_include_pad: spec.count_include_pad,
        }
    }
}

/// A layer from its text fields, for tests: `f` sets the rest.
#[cfg(test)]
pub(crate) fn test_layer(
    (op, fw): (Op, Framework),
    [input, k, s, p]: [&str; 4],
    f: impl Fn(&mut CompactSpec),
) -> LayerSpec {
    let mut c = CompactSpec::new(op, fw, input, k);
    c.stride = s.into();
    c.padding = p.into();
    f(&mut c);
    c.to_spec().expect("a valid test layer")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_padding_parse_in_every_form() {
        assert_eq!(parse_sizes(Field::Input, "100x20"), Ok(vec![100, 20]));
        assert_eq!(parse_sizes(Field::Input, " 7 × 7 "), Ok(vec![7, 7]));
        assert_eq!(parse_padding("SAME"), Ok(Padding::Same));
        assert_eq!(parse_padding("2"), Ok(Padding::All(2)));
        assert_eq!(parse_padding("1x0"), Ok(Padding::PerDim(vec![1, 0])));
        assert_eq!(
            parse_padding("1,2x0,0"),
            Ok(Padding::Explicit(vec![[1, 2], [0, 0]]))
        );
        assert_eq!(parse_padding("1,2,3").unwrap_err().field, Field::Padding);
        assert_eq!(
            parse_sizes(Field::Kernel, "3xa").unwrap_err().field,
            Field::Kernel
        );
        assert!(parse_sizes(Field::Input, "").is_err());
    }

    #[test]
    fn shapes_parse_as_python_prints_them() {
        for (text, want) in [
            ("32x32x3", vec![32, 32, 3]),
            ("(6, 6)", vec![6, 6]),
            ("[6, 6]", vec![6, 6]),
            ("6,6", vec![6, 6]),
            ("torch.Size([64, 32, 100, 20])", vec![64, 32, 100, 20]),
            ("(None, 30, 30, 64)", vec![30, 30, 64]),
            ("TensorShape([None, 7])", vec![7]),
            ("(5,)", vec![5]),
        ] {
            assert_eq!(parse_shape(text), Ok(want), "{text}");
        }
        assert!(parse_shape("(3, x)").is_err());
        assert!(parse_shape("").is_err());
    }

    #[test]
    fn a_spec_round_trips_through_its_text() {
        let mut spec = LayerSpec::new(
            Op::ConvTranspose,
            Framework::Onnx,
            vec![4, 5],
            Dims::Each(vec![3, 2]),
        );
        spec.stride = Some(Dims::All(2));
        spec.padding = Some(Padding::Explicit(vec![[1, 2], [0, 3]]));
        spec.output_padding = Some(Dims::Each(vec![1, 0]));
        spec.output_size = Some(vec![9, 10]);
        let text = CompactSpec::from_spec(&spec);
        assert_eq!(text.padding, "1,2x0,3");
        assert_eq!(text.to_spec(), Ok(spec));
        for padding in [Padding::Same, Padding::All(3), Padding::PerDim(vec![1, 0])] {
            assert_eq!(parse_padding(&format_padding(&padding)), Ok(padding));
        }
    }
}
