//! The model's shapes, layer by layer: each convolution and pool through `core::evaluate` at
//! its real input size (so strided 'same' pads are the ones this size gets), the rest by their
//! own rules. A layer that refuses its input ends the chain there; the table still lists the
//! layers after it.

use crate::core::{Answer, Framework, LayerSpec, Op, Placement, evaluate};

use super::layers::{Layer, NormAxis};
use super::read::{SourceLayer, SourceModel};

/// One sample's shape: a feature map (channels and spatial sizes) or a vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    Map { channels: i64, spatial: Vec<i64> },
    Flat(i64),
}

impl Shape {
    /// The shape as `framework` writes it, without the batch: Keras `[H, W, C]`, torch
    /// `[C, H, W]`, a vector `[n]`.
    pub fn layout(&self, framework: Framework) -> Vec<i64> {
        match self {
            Shape::Flat(n) => vec![*n],
            Shape::Map { channels, spatial } => {
                let mut v = Vec::with_capacity(spatial.len() + 1);
                if channels_last(framework) {
                    v.extend(spatial);
                    v.push(*channels);
                } else {
                    v.push(*channels);
                    v.extend(spatial);
                }
                v
            }
        }
    }

    /// A shape from `framework`'s layout (`[H, W, C]` or `[C, H, W]`; one size is a vector).
    pub fn from_layout(framework: Framework, sizes: &[i64]) -> Option<Shape> {
        match sizes {
            [] => None,
            [n] => Some(Shape::Flat(*n)),
            _ if sizes.len() > 4 => None,
            _ if channels_last(framework) => Some(Shape::Map {
                channels: *sizes.last()?,
                spatial: sizes[..sizes.len() - 1].to_vec(),
            }),
            _ => Some(Shape::Map {
                channels: sizes[0],
                spatial: sizes[1..].to_vec(),
            }),
        }
    }

    /// The number of elements in one sample.
    pub fn elements(&self) -> Option<i64> {
        match self {
            Shape::Flat(n) => Some(*n),
            Shape::Map { channels, spatial } => spatial
                .iter()
                .try_fold(*channels, |acc, &s| acc.checked_mul(s)),
        }
    }
}

fn channels_last(framework: Framework) -> bool {
    matches!(framework, Framework::Keras | Framework::Tf)
}

/// Something about a layer a porter must know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flag {
    /// Strided 'same': the pads change with the input size.
    InputDependent,
    /// The pads (or crops) differ between the two sides: a symmetric port shifts or resizes.
    Asymmetric,
    /// A batch normalisation over a spatial axis (Keras `axis=1` on channels-last data).
    NormalisesSpatialAxis { axis: usize, features: i64 },
    /// The layer's declared size differs from what reaches it (torch `in_channels`,
    /// `in_features`, `num_features`).
    Declared { declared: i64, actual: i64 },
}

impl Flag {
    /// The flag in words.
    pub fn describe(&self, framework: Framework) -> String {
        match self {
            Flag::InputDependent => {
                "strided 'same': these pads are right for this input size only".into()
            }
            Flag::Asymmetric => "the two sides differ: a symmetric port shifts the output".into(),
            Flag::NormalisesSpatialAxis { axis, features } => {
                let name = ["height", "width", "depth"]
                    .get(*axis)
                    .copied()
                    .unwrap_or("a spatial axis");
                let _ = framework;
                format!("normalises the {name} axis ({features} features), not the channels")
            }
            Flag::Declared { declared, actual } => {
                format!("declares {declared} but gets {actual}")
            }
        }
    }
}

/// One row of the model's table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub input: Option<Shape>,
    pub output: Option<Shape>,
    /// A convolution's or pool's answer (pads or crops per side).
    pub answer: Option<Answer>,
    /// The layer as the visualizer opens it, at its real input size.
    pub spec: Option<LayerSpec>,
    /// The framework's refusal (or padlab's: a layer that cannot take this input).
    pub error: Option<String>,
    pub flags: Vec<Flag>,
}

/// The model's table: one row per layer, in order.
pub fn chain(model: &SourceModel, input: Option<Shape>) -> Vec<Row> {
    let mut current = input;
    let mut rows = Vec::with_capacity(model.layers.len());
    for layer in &model.layers {
        let row = match current.take() {
            Some(shape) => step(model.framework, layer, shape),
            None => Row {
                input: None,
                output: None,
                answer: None,
                spec: None,
                error: None,
                flags: vec![],
            },
        };
        current = row.output.clone();
        rows.push(row);
    }
    rows
}

/// The first refusal in the table, with its layer's index.
pub fn first_error(rows: &[Row]) -> Option<(usize, &str)> {
    rows.iter()
        .enumerate()
        .find_map(|(i, r)| r.error.as_deref().map(|e| (i, e)))
}

fn step(framework: Framework, layer: &SourceLayer, input: Shape) -> Row {
    let mut row = Row {
        input: Some(input.clone()),
        output: None,
        answer: None,
        spec: None,
        error: None,
        flags: vec![],
    };
    match apply(framework, layer, &input, &mut row) {
        Ok(out) => row.output = Some(out),
        Err(e) => row.error = Some(e),
    }
    row
}

/// The map's channels and spatial sizes, checked against the layer's rank.
fn map<'a>(layer: &SourceLayer, input: &'a Shape) -> Result<(i64, &'a [i64]), String> {
    match input {
        Shape::Map { channels, spatial } => {
            if let Some(rank) = layer.rank
                && rank != spatial.len()
            {
                return Err(format!(
                    "{} expects {rank} spatial axes, the input has {}",
                    layer.kind,
                    spatial.len()
                ));
            }
            Ok((*channels, spatial))
        }
        Shape::Flat(n) => Err(format!(
            "{} expects a feature map, the input is a vector of {n}",
            layer.kind
        )),
    }
}

fn apply(
    framework: Framework,
    layer: &SourceLayer,
    input: &Shape,
    row: &mut Row,
) -> Result<Shape, String> {
    match &layer.layer {
        Layer::Conv(conv) => {
            let (channels, spatial) = map(layer, input)?;
            if let Some(declared) = conv.in_channels
                && declared != channels
            {
                row.flags.push(Flag::Declared {
                    declared,
                    actual: channels,
                });
                return Err(format!(
                    "expected input to have {declared} channels, but got {channels} channels instead"
                ));
            }
            let mut spec = conv.spec.clone();
            spec.input = spatial.to_vec();
            evaluated(row, spec, |o| Shape::Map {
                channels: conv.out_channels,
                spatial: o,
            })
        }
        Layer::Pool(pool) => {
            let (channels, spatial) = map(layer, input)?;
            let mut spec = pool.clone();
            spec.input = spatial.to_vec();
            evaluated(row, spec, |o| Shape::Map {
                channels,
                spatial: o,
            })
        }
        Layer::GlobalPool { keepdims, .. } => {
            let (channels, spatial) = map(layer, input)?;
            Ok(if *keepdims {
                Shape::Map {
                    channels,
                    spatial: vec![1; spatial.len()],
                }
            } else {
                Shape::Flat(channels)
            })
        }
        Layer::BatchNorm { features, axis, .. } => {
            let actual = match (input, axis) {
                (Shape::Flat(n), _) => *n,
                (Shape::Map { channels, .. }, NormAxis::Channels) => *channels,
                (Shape::Map { channels, spatial }, NormAxis::Spatial(a)) => match spatial.get(*a) {
                    Some(&size) => {
                        row.flags.push(Flag::NormalisesSpatialAxis {
                            axis: *a,
                            features: size,
                        });
                        size
                    }
                    // The axis after the spatial ones: the channels.
                    None if *a == spatial.len() => *channels,
                    None => return Err(format!("axis {} is past the input's axes", a + 1)),
                },
            };
            if let Some(declared) = features
                && *declared != actual
            {
                row.flags.push(Flag::Declared {
                    declared: *declared,
                    actual,
                });
                return Err(format!(
                    "running_mean should contain {actual} elements not {declared}"
                ));
            }
            Ok(input.clone())
        }
        Layer::Activation(_) | Layer::Dropout { .. } | Layer::Identity => Ok(input.clone()),
        Layer::Flatten => {
            let n = input
                .elements()
                .ok_or_else(|| "the flattened size overflows 64 bits".to_string())?;
            if let Some(want) = layer.expect_features
                && want != n
            {
                row.flags.push(Flag::Declared {
                    declared: want,
                    actual: n,
                });
                return Err(format!(
                    "shape '[-1, {want}]' is invalid for input of size {n} per sample"
                ));
            }
            Ok(Shape::Flat(n))
        }
        Layer::Dense {
            in_features, units, ..
        } => match input {
            Shape::Flat(n) => {
                if let Some(declared) = in_features
                    && declared != n
                {
                    row.flags.push(Flag::Declared {
                        declared: *declared,
                        actual: *n,
                    });
                    return Err(format!(
                        "mat1 and mat2 shapes cannot be multiplied (1x{n} and {declared}x{units})"
                    ));
                }
                Ok(Shape::Flat(*units))
            }
            Shape::Map { .. } => Err(format!(
                "{} on a feature map: padlab translates {} after Flatten or global pooling",
                layer.kind, layer.kind
            )),
        },
        Layer::Pad { pairs, .. } => {
            let (channels, spatial) = map(layer, input)?;
            if pairs.len() != spatial.len() {
                return Err(format!(
                    "{} pads {} axes, the input has {}",
                    layer.kind,
                    pairs.len(),
                    spatial.len()
                ));
            }
            let out: Option<Vec<i64>> = spatial
                .iter()
                .zip(pairs)
                .map(|(&s, &(b, a))| s.checked_add(b)?.checked_add(a).filter(|&o| o >= 1))
                .collect();
            let out = out.ok_or_else(|| "the padding crops the input away".to_string())?;
            row.answer = Some(pad_answer(pairs, &out));
            if pairs.iter().any(|(b, a)| b != a) {
                row.flags.push(Flag::Asymmetric);
            }
            Ok(Shape::Map {
                channels,
                spatial: out,
            })
        }
        Layer::Upsample { scale } => {
            let (channels, spatial) = map(layer, input)?;
            let scale: Vec<i64> = match scale.as_slice() {
                [one] => vec![*one; spatial.len()],
                many if many.len() == spatial.len() => many.to_vec(),
                _ => {
                    return Err(format!(
                        "{} scales {} axes, the input has {}",
                        layer.kind,
                        scale.len(),
                        spatial.len()
                    ));
                }
            };
            let out: Option<Vec<i64>> = spatial
                .iter()
                .zip(&scale)
                .map(|(&s, &f)| s.checked_mul(f).filter(|&o| o >= 1))
                .collect();
            let _ = framework;
            Ok(Shape::Map {
                channels,
                spatial: out.ok_or_else(|| "the upsampled size overflows".to_string())?,
            })
        }
    }
}

/// The answer of an explicit padding layer (for the table's pad columns).
fn pad_answer(pairs: &[(i64, i64)], out: &[i64]) -> Answer {
    Answer {
        placement: Placement::Pad,
        axes: pairs
            .iter()
            .zip(out)
            .map(|(&(b, a), &o)| crate::core::AxisAnswer {
                output: o,
                before: b,
                after: a,
                effective_kernel: 1,
            })
            .collect(),
        pads_depend_on_input: false,
    }
}

/// Runs a conv or pool spec through the core and fills the row.
fn evaluated(
    row: &mut Row,
    spec: LayerSpec,
    shape: impl Fn(Vec<i64>) -> Shape,
) -> Result<Shape, String> {
    let answer = evaluate(&spec);
    row.spec = Some(spec.clone());
    let answer = answer.map_err(|e| e.to_string())?;
    if answer.pads_depend_on_input {
        row.flags.push(Flag::InputDependent);
    }
    let odd = answer.axes.iter().any(|a| a.before != a.after);
    let transposed = spec.op == Op::ConvTranspose;
    if odd && (answer.placement == Placement::Pad || transposed) {
        row.flags.push(Flag::Asymmetric);
    }
    let out = shape(answer.output());
    row.answer = Some(answer);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::read::read_model;

    const SEED_002: &str = "    model = Sequential()
    model.add(Conv2D(64, (3, 3), input_shape=img_size))
    model.add(BatchNormalization(axis=1))
    model.add(Activation('relu'))
    model.add(Dropout(0.3))
    model.add(Conv2D(64, (3, 3), padding='same'))
    model.add(BatchNormalization(axis=1))
    model.add(Activation('relu'))
    model.add(MaxPooling2D(pool_size=(2,2), strides=(2,2), padding='same'))
";

    #[test]
    fn seed_002_chains_to_its_summary_and_flags_the_height_norm() {
        let m = read_model(SEED_002, None).unwrap();
        assert_eq!(m.framework, Framework::Keras);
        assert_eq!(m.layers.len(), 8);
        assert_eq!(m.input_name.as_deref(), Some("img_size"));
        let rows = chain(&m, Shape::from_layout(Framework::Keras, &[32, 32, 3]));
        let out: Vec<Vec<i64>> = rows
            .iter()
            .map(|r| r.output.as_ref().unwrap().layout(Framework::Keras))
            .collect();
        // The Keras summary in the seed: 30x30x64 up to the pool, 15x15x64 after it.
        assert_eq!(out[0], vec![30, 30, 64]);
        assert_eq!(out[4], vec![30, 30, 64]);
        assert_eq!(out[7], vec![15, 15, 64]);
        assert_eq!(
            rows[1].flags,
            vec![Flag::NormalisesSpatialAxis {
                axis: 0,
                features: 30
            }]
        );
        assert!(rows[7].flags.contains(&Flag::InputDependent));
    }
}
