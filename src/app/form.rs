//! The walking-skeleton form: plain data, no Leptos. It turns what the user typed into a
//! [`LayerSpec`] for a 2-D convolution; every text field is parsed here so the components only
//! forward strings.

use crate::core::{Dims, Framework, LayerSpec, Op, Padding};

/// What the user has typed, field by field (kept as text so nothing typed is lost).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    pub framework: Framework,
    pub height: String,
    pub width: String,
    pub kernel: String,
    pub stride: String,
    pub dilation: String,
    /// `valid`, `same`, `same_lower`, `causal`, or an integer.
    pub padding: String,
}

impl Default for Form {
    /// Seed 004: a 6x6 input, kernel 5, stride 2, padding 2 in PyTorch gives 3x3.
    fn default() -> Self {
        Form {
            framework: Framework::Torch,
            height: "6".into(),
            width: "6".into(),
            kernel: "5".into(),
            stride: "2".into(),
            dilation: "1".into(),
            padding: "2".into(),
        }
    }
}

/// A field that does not parse, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: &'static str,
    pub message: String,
}

impl Form {
    /// The layer the form describes, or the first field that does not parse.
    pub fn spec(&self) -> Result<LayerSpec, FieldError> {
        let int = |field: &'static str, text: &str| {
            text.trim().parse::<i64>().map_err(|_| FieldError {
                field,
                message: format!("{field} must be a whole number, got {text:?}"),
            })
        };
        let input = vec![int("height", &self.height)?, int("width", &self.width)?];
        let mut spec = LayerSpec::new(
            Op::Conv,
            self.framework,
            input,
            Dims::All(int("kernel", &self.kernel)?),
        );
        spec.stride = Some(Dims::All(int("stride", &self.stride)?));
        spec.dilation = Some(Dims::All(int("dilation", &self.dilation)?));
        spec.padding = Some(match Padding::from_keyword(self.padding.trim()) {
            Some(keyword) => keyword,
            None => Padding::All(int("padding", &self.padding)?),
        });
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::evaluate;

    #[test]
    fn the_default_form_is_seed_004() {
        let answer = evaluate(&Form::default().spec().unwrap()).unwrap();
        assert_eq!(answer.output, vec![3, 3]);
        assert_eq!(answer.before, vec![2, 2]);
    }

    #[test]
    fn padding_takes_keywords_or_integers_and_bad_text_names_the_field() {
        let mut form = Form {
            padding: "SAME".into(),
            framework: Framework::Keras,
            ..Form::default()
        };
        assert_eq!(form.spec().unwrap().padding, Some(Padding::Same));
        form.padding = "x".into();
        assert_eq!(form.spec().unwrap_err().field, "padding");
        form.padding = "1".into();
        form.kernel = "".into();
        assert_eq!(form.spec().unwrap_err().field, "kernel");
    }
}
