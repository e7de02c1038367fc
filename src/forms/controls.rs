//! The web form's controls over a [`CompactSpec`]: each control's name, its value as the page
//! shows it, what choosing or typing a value does, and which controls apply to the chosen op
//! and framework. The app's form is static markup (`view::controls`) whose events call
//! [`CompactSpec::set`]; a change from elsewhere (a preset, a link, a pasted layer) is shown by
//! writing [`CompactSpec::value`] back into each control.

use crate::core::{Arg, Backend, Framework, Op, PaddingMode, takes};

use super::compact::{CompactSpec, Field};

/// One control of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Op,
    Framework,
    /// A text field.
    Text(Field),
    PaddingMode,
    CeilMode,
    CountIncludePad,
    /// Keras's backend.
    Backend,
}

impl Control {
    /// Every control, in the form's order.
    pub const ALL: [Control; 13] = [
        Control::Op,
        Control::Framework,
        Control::Backend,
        Control::Text(Field::Input),
        Control::Text(Field::Kernel),
        Control::Text(Field::Stride),
        Control::Text(Field::Dilation),
        Control::Text(Field::Padding),
        Control::PaddingMode,
        Control::Text(Field::OutputPadding),
        Control::Text(Field::OutputSize),
        Control::CeilMode,
        Control::CountIncludePad,
    ];

    /// The control's `name` (and `data-testid`; kept stable for the e2e suite).
    pub fn name(self) -> &'static str {
        match self {
            Control::Op => "op",
            Control::Framework => "framework",
            Control::Text(field) => field.name(),
            Control::PaddingMode => "padding-mode",
            Control::CeilMode => "ceil-mode",
            Control::CountIncludePad => "count-include-pad",
            Control::Backend => "backend",
        }
    }

    /// The control named `name`.
    pub fn named(name: &str) -> Option<Control> {
        Control::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether the control applies to `op` in `framework` (the others are hidden).
    pub fn applies(self, framework: Framework, op: Op) -> bool {
        match self {
            Control::PaddingMode => takes(framework, op, Arg::PaddingMode),
            Control::CeilMode => takes(framework, op, Arg::CeilMode),
            Control::Text(Field::OutputPadding | Field::OutputSize) => op == Op::ConvTranspose,
            Control::CountIncludePad => op == Op::AvgPool,
            Control::Backend => framework == Framework::Keras,
            _ => true,
        }
    }
}

/// What 'padding' accepts in each framework (the field's placeholder).
pub fn padding_hint(fw: Framework, op: Op) -> &'static str {
    match (fw, op) {
        (Framework::Torch, Op::Conv) => "0, 2, 1x0, same (stride 1), valid",
        (Framework::Torch, _) => "0, 1, 1x0",
        (Framework::Keras, Op::Conv) => "valid, same, causal (1-D)",
        (Framework::Keras, _) => "valid, same",
        (Framework::Tf, _) => "valid, same, 1,1x1,1 (2-D)",
        (Framework::Onnx, _) => "0, same, same_lower, 1,2x0,0",
        (Framework::Jax, _) => "valid, same, same_lower, 1,2x0,0",
    }
}

impl CompactSpec {
    fn text(&mut self, field: Field) -> Option<&mut String> {
        Some(match field {
            Field::Input => &mut self.input,
            Field::Kernel => &mut self.kernel,
            Field::Stride => &mut self.stride,
            Field::Dilation => &mut self.dilation,
            Field::Padding => &mut self.padding,
            Field::OutputPadding => &mut self.output_padding,
            Field::OutputSize => &mut self.output_size,
            Field::Wanted => return None,
        })
    }

    /// The control's value as the page shows it (a checkbox: `"true"` or `"false"`).
    pub fn value(&self, control: Control) -> String {
        match control {
            Control::Op => self.op.name().into(),
            Control::Framework => self.framework.name().into(),
            Control::Text(field) => match field {
                Field::Input => &self.input,
                Field::Kernel => &self.kernel,
                Field::Stride => &self.stride,
                Field::Dilation => &self.dilation,
                Field::Padding => &self.padding,
                Field::OutputPadding => &self.output_padding,
                Field::OutputSize => &self.output_size,
                Field::Wanted => "",
            }
            .to_string(),
            Control::PaddingMode => self.padding_mode.unwrap_or_default().name().into(),
            Control::CeilMode => self.ceil_mode.to_string(),
            Control::CountIncludePad => match self.count_include_pad {
                None => "default".into(),
                Some(on) => on.to_string(),
            },
            Control::Backend => self.backend.unwrap_or_default().name().into(),
        }
    }

    /// The control set to `value` (what the page read from it); false when the value is not
    /// one the control offers (nothing changes then).
    pub fn set(&mut self, control: Control, value: &str) -> bool {
        match control {
            Control::Op => value.parse().map(|op| self.op = op).is_ok(),
            Control::Framework => value.parse().map(|fw| self.framework = fw).is_ok(),
            Control::Text(field) => match self.text(field) {
                Some(text) => {
                    *text = value.to_string();
                    true
                }
                None => false,
            },
            Control::PaddingMode => value
                .parse::<PaddingMode>()
                .map(|m| self.padding_mode = Some(m))
                .is_ok(),
            Control::CeilMode => value.parse().map(|on| self.ceil_mode = on).is_ok(),
            Control::Backend => value
                .parse::<Backend>()
                .map(|b| self.backend = (b != Backend::Tensorflow).then_some(b))
                .is_ok(),
            Control::CountIncludePad => {
                self.count_include_pad = match value {
                    "default" => None,
                    "true" => Some(true),
                    "false" => Some(false),
                    _ => return false,
                };
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_round_trips_its_value_and_refuses_what_it_does_not_offer() {
        let mut form = CompactSpec::new(Op::AvgPool, Framework::Torch, "6x6", "2");
        for (control, value) in [
            (Control::Op, "max_pool"),
            (Control::Framework, "onnx"),
            (Control::Text(Field::Padding), "1,2x0,0"),
            (Control::PaddingMode, "reflect"),
            (Control::CeilMode, "true"),
            (Control::CountIncludePad, "false"),
        ] {
            assert!(form.set(control, value), "{control:?}");
            assert_eq!(form.value(control), value);
            assert_eq!(Control::named(control.name()), Some(control));
        }
        assert!(!form.set(Control::Op, "dense"));
        assert!(!form.set(Control::CountIncludePad, "maybe"));
        assert!(!form.set(Control::Text(Field::Wanted), "3"));
        assert_eq!(form.value(Control::Op), "max_pool");
        assert_eq!(Control::named("nonsense"), None);
    }

    #[test]
    fn only_the_controls_that_apply_are_shown() {
        let shown = |fw, op| {
            Control::ALL
                .into_iter()
                .filter(|c| c.applies(fw, op))
                .map(Control::name)
                .collect::<Vec<_>>()
        };
        assert!(shown(Framework::Torch, Op::Conv).contains(&"padding-mode"));
        assert!(!shown(Framework::Keras, Op::Conv).contains(&"padding-mode"));
        assert!(shown(Framework::Keras, Op::ConvTranspose).contains(&"output_padding"));
        assert!(shown(Framework::Torch, Op::MaxPool).contains(&"ceil-mode"));
        assert!(!shown(Framework::Tf, Op::MaxPool).contains(&"ceil-mode"));
        assert_eq!(
            shown(Framework::Jax, Op::AvgPool).last(),
            Some(&"count-include-pad")
        );
    }
}
