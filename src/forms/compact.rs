//! The compact text form of a layer, shared by the CLI flags, the web form and permalinks:
//! sizes as `100x20`, padding as `same`, `2`, `1x0` (per dimension) or `1,2x0,0` (per side).
//! One parse, one format, round-trip tested.

use crate::core::{
    Answer, Backend, Dims, Framework, LayerSpec, Op, PadError, Padding, PaddingMode, evaluate,
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
    /// Keras only: the backend (`None`: TensorFlow).
    pub backend: Option<Backend>,
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
    /// Every field of a layer (not [`Field::Wanted`], which is typed outside it).
    pub const ALL: [Field; 7] = [
        Field::Input,
        Field::Kernel,
        Field::Stride,
        Field::Dilation,
        Field::Padding,
        Field::OutputPadding,
        Field::OutputSize,
    ];

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

/// What a field's text says besides its value: how it was read (a whole tensor shape whose
/// batch and channels were left out, a Python tuple).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read<T> {
    pub value: T,
    pub note: Option<String>,
}

/// Strips what people paste around a value: an argument name (`padding=`), spaces.
fn unwrap_argument(text: &str) -> &str {
    let text = text.trim();
    match text.split_once('=') {
        Some((name, rest))
            if !name.is_empty()
                && name
                    .trim()
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
        {
            rest.trim().trim_end_matches(',').trim()
        }
        _ => text,
    }
}

/// The numbers of a size as people write them: `100x20`, `100×20`, `100, 20`, `(100, 20)`,
/// `[100, 20]`, `(5,)`. `None` reads as `None` (a batch of any size).
fn numbers(field: Field, text: &str) -> Result<Vec<Option<i64>>, FieldError> {
    let name = field.name();
    let inner = unwrap_argument(text);
    if inner.is_empty() {
        return Err(field_error(field, format!("{name} is empty")));
    }
    let inner = inner
        .trim_start_matches(['(', '['])
        .trim_end_matches([')', ']'])
        .trim()
        .trim_end_matches(',');
    inner
        .split(['x', 'X', '×', ','])
        .map(|part| match part.trim() {
            "None" => Ok(None),
            p => p.parse::<i64>().map(Some).map_err(|_| {
                field_error(
                    field,
                    format!(
                        "{name} takes whole numbers like 3, 100x20 or (100, 20), got {:?}",
                        text.trim()
                    ),
                )
            }),
        })
        .collect()
}

/// Sizes: `100x20`, `100, 20`, `(100, 20)`, `[100, 20]` -> `[100, 20]`.
pub fn parse_sizes(field: Field, text: &str) -> Result<Vec<i64>, FieldError> {
    numbers(field, text)?
        .into_iter()
        .map(|v| {
            v.ok_or_else(|| {
                field_error(
                    field,
                    format!("{} takes whole numbers, not None", field.name()),
                )
            })
        })
        .collect()
}

/// The input size as people have it: the spatial sizes (`100x20`, `(100, 20)`), or a whole
/// tensor shape whose batch and channels are left out: a printed `torch.Size([64, 32, 100,
/// 20])` (channels first), Keras' `(None, 30, 30, 64)` or `TensorShape([...])` (channels last),
/// or four or five plain sizes in `framework`'s layout. The note says what was left out.
pub fn parse_input(text: &str, framework: Framework) -> Result<Read<Vec<i64>>, FieldError> {
    let trimmed = unwrap_argument(text);
    let (call, inner) = match trimmed.find('(') {
        Some(open)
            if open > 0
                && trimmed.ends_with(')')
                && trimmed[..open]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_') =>
        {
            (&trimmed[..open], &trimmed[open + 1..trimmed.len() - 1])
        }
        _ => ("", trimmed),
    };
    let values = numbers(Field::Input, inner)?;
    let batch_any = values.first() == Some(&None);
    let sizes: Vec<i64> = values.iter().flatten().copied().collect();
    if sizes.len() + usize::from(batch_any) != values.len() {
        return Err(field_error(
            Field::Input,
            "input: only the batch may be None".to_string(),
        ));
    }
    let channels_first = if call.ends_with("Size") {
        true
    } else if call.ends_with("TensorShape") || batch_any {
        false
    } else {
        matches!(framework, Framework::Torch | Framework::Onnx)
    };
    let whole = !call.is_empty() || batch_any || values.len() > 3;
    if !whole {
        return Ok(Read {
            value: sizes,
            note: None,
        });
    }
    if !(3..=5).contains(&values.len()) {
        return Err(field_error(
            Field::Input,
            format!(
                "input takes 1 to 3 sizes (100x20), or a whole shape with batch and channels like torch.Size([64, 32, 100, 20]); got {:?}",
                text.trim()
            ),
        ));
    }
    let batch = if batch_any {
        "None".to_string()
    } else {
        sizes[0].to_string()
    };
    let (spatial, channels, layout) = if channels_first {
        (&values[2..], values[1], "channels first")
    } else {
        (
            &values[1..values.len() - 1],
            values[values.len() - 1],
            "channels last",
        )
    };
    let spatial: Vec<i64> = spatial.iter().flatten().copied().collect();
    let channels = channels.map_or("None".into(), |c| c.to_string());
    Ok(Read {
        note: Some(format!(
            "read as a whole shape ({layout}): batch {batch} and {channels} channels left out, size {}",
            join(&spatial)
        )),
        value: spatial,
    })
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
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
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

/// Padding as each framework writes it: a keyword (`same`, `'same'`, `padding="valid"`), one
/// number, a Python tuple per dimension (`(1, 0)`, or `1,0` when the layer has that many
/// dimensions), `((1, 2), (0, 0))` pairs per dimension (or `tf.pad`'s, with batch and
/// channels), or padlab's compact `1x0` / `1,2x0,0` (before,after per dimension). `rank` is the
/// input's number of dimensions, when known; the note says how a tuple was read.
pub fn parse_padding_in(text: &str, rank: Option<usize>) -> Result<Read<Padding>, FieldError> {
    let text = unwrap_argument(text).trim_matches(['\'', '"']).trim();
    let bracketed = text.starts_with(['(', '[']);
    let depth = |open: &[char]| text.chars().filter(|c| open.contains(c)).count();
    if bracketed && (!text.ends_with([')', ']']) || depth(&['(', '[']) != depth(&[')', ']'])) {
        return Err(field_error(
            Field::Padding,
            format!("padding: unbalanced brackets in {text:?}"),
        ));
    }
    let mut note = None;
    let value = if bracketed && text[1..].trim_start().starts_with(['(', '[']) {
        // ((1, 2), (0, 0)) -> 1,2x0,0
        let compact: String = text[1..text.len() - 1]
            .replace([')', ']'], "x")
            .chars()
            .filter(|c| !matches!(c, '(' | '[' | ' ' | '\n'))
            .collect();
        match parse_padding(
            compact
                .trim_end_matches(['x', ','])
                .replace("x,", "x")
                .as_str(),
        )? {
            // tf.pad's pairs carry the batch and the channels.
            Padding::Explicit(pairs) if rank.is_some_and(|r| pairs.len() == r + 2) => {
                note = Some("read as tf.pad pairs: batch and channels left out");
                Padding::Explicit(pairs[1..pairs.len() - 1].to_vec())
            }
            padding => padding,
        }
    } else if bracketed
        || (text.contains(',') && !text.contains(['x', 'X', '×']) && rank != Some(1))
    {
        // A Python tuple: one symmetric amount per dimension.
        let values = parse_sizes(Field::Padding, text)?;
        if rank.is_some_and(|r| values.len() != 1 && values.len() != r) {
            return Err(field_error(
                Field::Padding,
                "padding: one number, one per dimension, or pairs like ((1, 2), (0, 0))".into(),
            ));
        }
        if !bracketed {
            note = Some(
                "read as a Python tuple: the same on both sides of each dimension (per side: 1,2x0,0)",
            );
        }
        match values.as_slice() {
            [one] => Padding::All(*one),
            _ => Padding::PerDim(values),
        }
    } else {
        parse_padding(text)?
    };
    Ok(Read {
        value,
        note: note.map(String::from),
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
            backend: None,
        }
    }

    /// The layer, or the first field that does not parse. Empty optional fields are absent.
    pub fn to_spec(&self) -> Result<LayerSpec, FieldError> {
        let input = parse_input(&self.input, self.framework)?.value;
        let rank = input.len();
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
            Some(parse_padding_in(&self.padding, Some(rank))?.value)
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
        if self.framework == Framework::Keras {
            spec.backend = self.backend;
        }
        Ok(spec)
    }

    /// How the fields were read, where that is worth saying (a whole shape's batch and
    /// channels left out, a padding tuple).
    pub fn notes(&self) -> Vec<(Field, String)> {
        let mut notes = Vec::new();
        let input = parse_input(&self.input, self.framework).ok();
        if let Some(Read { note: Some(n), .. }) = &input {
            notes.push((Field::Input, n.clone()));
        }
        let rank = input.map(|i| i.value.len());
        if !self.padding.trim().is_empty()
            && let Ok(Read { note: Some(n), .. }) = parse_padding_in(&self.padding, rank)
        {
            notes.push((Field::Padding, n));
        }
        notes
    }

    /// The same layer in padlab's canonical text (`100x20`, `1x0`), or the fields as typed when
    /// they do not parse: what links and the CLI write.
    pub fn canonical(&self) -> CompactSpec {
        self.to_spec()
            .map(|s| CompactSpec::from_spec(&s))
            .unwrap_or_else(|_| self.clone())
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
            backend: spec.backend,
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
    fn inputs_parse_in_python_notation_and_whole_shapes_lose_batch_and_channels() {
        let read = |t: &str, fw| parse_input(t, fw).map(|r| r.value);
        for text in [
            "6x6",
            "6,6",
            "(6, 6)",
            "[6, 6]",
            " 6 × 6 ",
            "input_shape=(6, 6)",
        ] {
            assert_eq!(read(text, Framework::Torch), Ok(vec![6, 6]), "{text}");
        }
        assert_eq!(read("(5,)", Framework::Keras), Ok(vec![5]));
        // A printed torch.Size is channels first whatever the framework chosen.
        let torch = parse_input("torch.Size([64, 32, 100, 20])", Framework::Keras).unwrap();
        assert_eq!(torch.value, vec![100, 20]);
        assert!(torch.note.unwrap().contains("batch 64 and 32 channels"));
        // Keras' shapes are channels last, with None for the batch.
        assert_eq!(
            read("(None, 30, 30, 64)", Framework::Torch),
            Ok(vec![30, 30])
        );
        assert_eq!(
            read("TensorShape([None, 249, 1])", Framework::Tf),
            Ok(vec![249])
        );
        // Four or five plain sizes are a whole shape in the framework's layout.
        assert_eq!(read("1, 3, 224, 224", Framework::Torch), Ok(vec![224, 224]));
        assert_eq!(
            read("(1, 224, 224, 3)", Framework::Keras),
            Ok(vec![224, 224])
        );
        assert_eq!(read("1x2x8x8x8", Framework::Onnx), Ok(vec![8, 8, 8]));
        assert!(read("1x2x3x4x5x6", Framework::Torch).is_err());
        assert!(read("(6, None)", Framework::Torch).is_err());
        assert!(read("(6, a)", Framework::Torch).is_err());
        assert_eq!(parse_input("6x6", Framework::Torch).unwrap().note, None);
    }

    #[test]
    fn padding_parses_in_each_framework_s_notation() {
        let pad = |t: &str, rank| parse_padding_in(t, Some(rank)).map(|r| r.value);
        assert_eq!(pad("'same'", 2), Ok(Padding::Same));
        assert_eq!(pad("padding=\"valid\"", 2), Ok(Padding::Valid));
        assert_eq!(pad("(1, 0)", 2), Ok(Padding::PerDim(vec![1, 0])));
        assert_eq!(pad("[2]", 2), Ok(Padding::All(2)));
        // `1,0` on a 2-D layer is the tuple; on a 1-D layer, before and after.
        let tuple = parse_padding_in("1,0", Some(2)).unwrap();
        assert_eq!(tuple.value, Padding::PerDim(vec![1, 0]));
        assert!(tuple.note.unwrap().contains("Python tuple"));
        assert_eq!(pad("1,0", 1), Ok(Padding::Explicit(vec![[1, 0]])));
        assert_eq!(
            pad("((1, 2), (0, 0))", 2),
            Ok(Padding::Explicit(vec![[1, 2], [0, 0]]))
        );
        assert_eq!(
            pad("[[1,2],[0,0]]", 2),
            Ok(Padding::Explicit(vec![[1, 2], [0, 0]]))
        );
        // tf.pad's pairs carry the batch and channels.
        let tf = parse_padding_in("[[0, 0], [1, 2], [0, 0], [0, 0]]", Some(2)).unwrap();
        assert_eq!(tf.value, Padding::Explicit(vec![[1, 2], [0, 0]]));
        assert!(tf.note.is_some());
        assert_eq!(
            pad("1,2x0,0", 2),
            Ok(Padding::Explicit(vec![[1, 2], [0, 0]]))
        );
        assert!(pad("(1, 2, 0, 0)", 2).is_err());
        assert!(pad("((1, 2, 3), (0, 0))", 2).is_err());
        assert!(pad("(1, a)", 2).is_err());
    }

    #[test]
    fn the_canonical_form_is_padlab_s_compact_text() {
        let mut c = CompactSpec::new(
            Op::Conv,
            Framework::Torch,
            "torch.Size([64, 32, 100, 20])",
            "(4, 1)",
        );
        c.padding = "(1, 0)".into();
        let canon = c.canonical();
        assert_eq!(
            (
                canon.input.as_str(),
                canon.kernel.as_str(),
                canon.padding.as_str()
            ),
            ("100x20", "4x1", "1x0")
        );
        assert_eq!(c.notes().len(), 1);
        c.padding = "1,0".into();
        assert_eq!(c.notes().len(), 2);
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
