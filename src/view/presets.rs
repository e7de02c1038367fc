//! One-click layers: the five user questions padlab grew from, and common ones.

use crate::core::{Framework, Op};
use crate::forms::compact::CompactSpec;

/// A named layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preset {
    /// Stable id (used in tests and links).
    pub id: &'static str,
    pub title: &'static str,
    /// What it shows.
    pub note: &'static str,
    pub spec: CompactSpec,
}

fn spec(
    op: Op,
    fw: Framework,
    input: &str,
    kernel: &str,
    stride: &str,
    padding: &str,
) -> CompactSpec {
    let mut s = CompactSpec::new(op, fw, input, kernel);
    s.stride = stride.into();
    s.padding = padding.into();
    s
}

/// The layer shown when the page opens: seed 004 (6×6, kernel 5, stride 2, padding 2 -> 3×3).
pub fn default_layer() -> CompactSpec {
    presets()
        .into_iter()
        .find(|p| p.id == "seed-004")
        .map(|p| p.spec)
        .unwrap_or_else(|| {
            CompactSpec::new(
                crate::core::Op::Conv,
                crate::core::Framework::Torch,
                "6x6",
                "5",
            )
        })
}

/// Every preset, in display order.
pub fn presets() -> Vec<Preset> {
    use Framework::*;
    use Op::*;
    let mut seed_001 = spec(ConvTranspose, Torch, "249", "7", "6", "9");
    seed_001.output_padding = "4".into();
    vec![
        Preset {
            id: "seed-000",
            title: "Keras 'same', kernel 4×1",
            note: "Conv2D(32, (4, 1), padding='same') on 100×20: the odd extra row goes to the bottom (pads 1 and 2).",
            spec: spec(Conv, Keras, "100x20", "4x1", "", "same"),
        },
        Preset {
            id: "seed-001",
            title: "torch conv_transpose1d",
            note: "249 long, kernel 7, stride 6, padding 9, output_padding 4: 1481, cropping 9 before and 5 after.",
            spec: seed_001,
        },
        Preset {
            id: "seed-002",
            title: "Keras 3×3 'same'",
            note: "Conv2D(64, (3, 3), padding='same') on 30×30: torch padding=1 is the same.",
            spec: spec(Conv, Keras, "30x30", "3", "", "same"),
        },
        Preset {
            id: "seed-002-pool",
            title: "Keras max pool 2×2 'same'",
            note: "MaxPooling2D((2, 2), strides=(2, 2), padding='same') on 30×30: 15×15, and no padding at all.",
            spec: spec(MaxPool, Keras, "30x30", "2", "2", "same"),
        },
        Preset {
            id: "seed-003",
            title: "TF stride 2, padding (1, 1)",
            note: "TF and Keras have no padding=(1, 1): tf.nn.conv2d takes explicit pairs, Keras needs ZeroPadding2D. \
                   Both then match torch padding=1.",
            spec: spec(Conv, Tf, "224x224", "3", "2", "1,1x1,1"),
        },
        Preset {
            id: "seed-004",
            title: "torch 6×6, kernel 5, stride 2, padding 2",
            note: "The input is padded, not the output: ⌊(6 + 2 + 2 − 5) / 2⌋ + 1 = 3.",
            spec: spec(Conv, Torch, "6x6", "5", "2", "2"),
        },
        Preset {
            id: "resnet-stem",
            title: "ResNet stem 7×7/2 'same'",
            note: "Keras 'same' on 224 pads 2 before and 3 after: torch padding=3 shifts the output by one pixel.",
            spec: spec(Conv, Keras, "224x224", "7", "2", "same"),
        },
        Preset {
            id: "same-3x3",
            title: "3×3 stride 1 'same'",
            note: "Every framework agrees at stride 1 with an odd kernel: pad 1 on each side.",
            spec: spec(Conv, Torch, "56x56", "3", "1", "same"),
        },
        Preset {
            id: "max-pool-2x2",
            title: "Max pool 2×2 / 2",
            note: "torch MaxPool2d(2): an odd input drops its last row and column unless ceil_mode=True.",
            spec: spec(MaxPool, Torch, "7x7", "2", "2", "0"),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::evaluate;

    fn output(id: &str) -> Vec<i64> {
        let preset = presets().into_iter().find(|p| p.id == id).unwrap();
        evaluate(&preset.spec.to_spec().unwrap()).unwrap().output()
    }

    #[test]
    fn every_preset_is_a_valid_layer_with_the_seeds_answers() {
        for preset in presets() {
            assert!(
                evaluate(&preset.spec.to_spec().unwrap()).is_ok(),
                "{}",
                preset.id
            );
        }
        assert_eq!(output("seed-000"), vec![100, 20]);
        assert_eq!(output("seed-001"), vec![1481]);
        assert_eq!(output("seed-002"), vec![30, 30]);
        assert_eq!(output("seed-002-pool"), vec![15, 15]);
        assert_eq!(output("seed-003"), vec![112, 112]);
        assert_eq!(output("seed-004"), vec![3, 3]);
        assert_eq!(output("resnet-stem"), vec![112, 112]);
        assert_eq!(output("max-pool-2x2"), vec![3, 3]);
    }
}
