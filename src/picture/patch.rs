//! The edits that bring a drawn scene to the next one, so a control change touches only what
//! changed: the labels, a block's transform, the attributes of the cells whose state changed,
//! cells added or dropped at a block's end (a padding ring that grows keeps its inner cells),
//! and whole markup only where the blocks themselves differ.
//!
//! Pure: the app applies the edits to the DOM (`app::grid_view`); the tests here apply them to
//! a model of the drawn markup and check that it equals the new scene drawn fresh.

use super::scene::{BlockCell, CellKind, Labels, Scene};

/// One edit of the drawn base layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit<'a> {
    /// Draw the whole scene anew (or clear it, for `None`).
    Redraw(Option<&'a Scene>),
    /// Replace the labels (`svg::labels_svg`).
    Labels(&'a Labels),
    /// Set block `block`'s transform (its position, or the cell size, changed).
    Move { block: usize },
    /// Replace block `block`'s cells.
    Cells {
        block: usize,
        cells: &'a [BlockCell],
    },
    /// Change the attributes of cell `index` of block `block`.
    Cell {
        block: usize,
        index: usize,
        x: Option<i64>,
        y: Option<i64>,
        kind: Option<CellKind>,
    },
    /// Add these cells at the end of block `block`.
    Append {
        block: usize,
        cells: &'a [BlockCell],
    },
    /// Drop `count` cells from the end of block `block`.
    Truncate { block: usize, count: usize },
}

/// The edits from `old` (as drawn) to `new`.
pub fn diff<'a>(old: Option<&Scene>, new: Option<&'a Scene>) -> Vec<Edit<'a>> {
    let (Some(old), Some(new)) = (old, new) else {
        return vec![Edit::Redraw(new)];
    };
    if old.blocks.len() != new.blocks.len() {
        return vec![Edit::Redraw(Some(new))];
    }
    let mut edits = Vec::new();
    if old.labels != new.labels {
        edits.push(Edit::Labels(&new.labels));
    }
    for (block, (a, b)) in old.blocks.iter().zip(&new.blocks).enumerate() {
        if (a.x, a.y, old.cell) != (b.x, b.y, new.cell) {
            edits.push(Edit::Move { block });
        }
        if a.panel != b.panel {
            edits.push(Edit::Cells {
                block,
                cells: &b.cells,
            });
            continue;
        }
        // Reuse the existing cells in order, then add or drop the difference at the end.
        for (index, (ca, cb)) in a.cells.iter().zip(&b.cells).enumerate() {
            if ca != cb {
                edits.push(Edit::Cell {
                    block,
                    index,
                    x: (ca.c != cb.c).then_some(cb.c),
                    y: (ca.r != cb.r).then_some(cb.r),
                    kind: (ca.kind != cb.kind).then_some(cb.kind),
                });
            }
        }
        if b.cells.len() > a.cells.len() {
            edits.push(Edit::Append {
                block,
                cells: &b.cells[a.cells.len()..],
            });
        } else if a.cells.len() > b.cells.len() {
            edits.push(Edit::Truncate {
                block,
                count: a.cells.len() - b.cells.len(),
            });
        }
    }
    edits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Dims, Framework, LayerSpec, Op, Padding, evaluate};
    use crate::picture::{layout, picture, scene};
    use proptest::prelude::*;

    /// A drawn cell's attributes: `(x, y, class, test id)`.
    type DrawnCell = (i64, i64, &'static str, &'static str);

    /// The drawn markup, as a model: labels, and per block its transform and cells.
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Drawn {
        labels: Option<Labels>,
        blocks: Vec<(String, Vec<DrawnCell>)>,
    }

    fn cell(c: &BlockCell) -> DrawnCell {
        (c.c, c.r, c.kind.class(), c.kind.testid())
    }

    fn draw(scene: Option<&Scene>) -> Drawn {
        let Some(scene) = scene else {
            return Drawn {
                labels: None,
                blocks: vec![],
            };
        };
        Drawn {
            labels: Some(scene.labels.clone()),
            blocks: scene
                .blocks
                .iter()
                .map(|b| {
                    (
                        crate::picture::svg::block_transform(b, scene.cell),
                        b.cells.iter().map(cell).collect(),
                    )
                })
                .collect(),
        }
    }

    fn apply(drawn: &mut Drawn, new: Option<&Scene>, edits: &[Edit]) {
        for edit in edits {
            match edit {
                Edit::Redraw(scene) => *drawn = draw(*scene),
                Edit::Labels(labels) => drawn.labels = Some((*labels).clone()),
                Edit::Move { block } => {
                    let scene = new.expect("a move has a new scene");
                    drawn.blocks[*block].0 =
                        crate::picture::svg::block_transform(&scene.blocks[*block], scene.cell);
                }
                Edit::Cells { block, cells } => {
                    drawn.blocks[*block].1 = cells.iter().map(cell).collect();
                }
                Edit::Cell {
                    block,
                    index,
                    x,
                    y,
                    kind,
                } => {
                    let target = &mut drawn.blocks[*block].1[*index];
                    if let Some(x) = x {
                        target.0 = *x;
                    }
                    if let Some(y) = y {
                        target.1 = *y;
                    }
                    if let Some(kind) = kind {
                        target.2 = kind.class();
                        target.3 = kind.testid();
                    }
                }
                Edit::Append { block, cells } => {
                    drawn.blocks[*block].1.extend(cells.iter().map(cell));
                }
                Edit::Truncate { block, count } => {
                    let cells = &mut drawn.blocks[*block].1;
                    cells.truncate(cells.len() - count);
                }
            }
        }
    }

    fn layer() -> impl Strategy<Value = LayerSpec> {
        (
            prop::sample::select(Op::ALL.to_vec()),
            prop::sample::select(Framework::ALL.to_vec()),
            prop::collection::vec(1i64..14, 1..=3),
            1i64..5,
            1i64..4,
            1i64..3,
            prop_oneof![
                Just(Padding::Valid),
                Just(Padding::Same),
                (0i64..3).prop_map(Padding::All)
            ],
            any::<bool>(),
        )
            .prop_map(|(op, fw, input, k, s, d, padding, ceil)| {
                let mut spec = LayerSpec::new(op, fw, input, Dims::All(k));
                spec.stride = Some(Dims::All(s));
                spec.dilation = Some(Dims::All(d));
                spec.padding = Some(padding);
                spec.ceil_mode = (ceil && op.is_pool()).then_some(true);
                spec
            })
    }

    fn scene_of(spec: &LayerSpec, slice: i64) -> Option<Scene> {
        let answer = evaluate(spec).ok()?;
        let p = picture(spec, &answer)?;
        let fit = crate::picture::Fit {
            width: 2000,
            max_height: 2000,
            ..Default::default()
        };
        Some(scene(&p, &layout(&p, 0, &fit), slice))
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 600,
            max_global_rejects: 20_000,
            ..ProptestConfig::default()
        })]

        /// Whatever two layers follow each other, the patched drawing equals the new one drawn
        /// fresh; and only a change of blocks redraws everything.
        #[test]
        fn a_patched_scene_equals_the_new_scene_drawn_fresh(
            a in layer(), b in layer(), slice in 0i64..3, valid_a in any::<bool>(),
        ) {
            let old = if valid_a { scene_of(&a, slice) } else { None };
            let new = scene_of(&b, slice);
            prop_assume!(new.is_some());
            let edits = diff(old.as_ref(), new.as_ref());
            let mut drawn = draw(old.as_ref());
            apply(&mut drawn, new.as_ref(), &edits);
            prop_assert_eq!(drawn, draw(new.as_ref()));
            if old.is_some() {
                prop_assert!(!edits.iter().any(|e| matches!(e, Edit::Redraw(_))));
            }
        }
    }

    #[test]
    fn a_kernel_change_keeping_the_size_touches_only_the_padding_ring() {
        let mut spec = LayerSpec::new(Op::Conv, Framework::Keras, vec![32, 32], Dims::All(3));
        spec.padding = Some(Padding::Same);
        let k3 = scene_of(&spec, 0);
        spec.kernel = Dims::All(5);
        let k5 = scene_of(&spec, 0);
        let edits = diff(k3.as_ref(), k5.as_ref());
        // The input block moves by the new ring and the ring grows; no input or output cell
        // is touched.
        assert!(edits.contains(&Edit::Move { block: 1 }));
        assert!(
            edits
                .iter()
                .all(|e| !matches!(e, Edit::Cell { block: 1 | 2, .. } | Edit::Cells { .. })),
            "{edits:?}"
        );
        assert!(edits.iter().any(
            |e| matches!(e, Edit::Append { block: 0, cells } if cells.len() == 36 * 36 - 34 * 34)
        ));
    }
}
