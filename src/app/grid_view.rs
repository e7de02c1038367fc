//! The picture: input with padding, the window at the current step, the output; hover links
//! them; play/step/scrub animate the window. The section is static markup
//! (`view::panels::grid_shell`); effects write the picture's pure parts into it: the static
//! cells (patched with `picture::patch`, or painted on a canvas), the overlay, the words. The
//! picture fits the measured width: the whole layer when its cells are readable, else its
//! edges and the current window, so the work per frame is bounded by what is drawn.

use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

use crate::core::{Answer, LayerSpec};
use crate::forms::compact::{FieldError, LayerError};
use crate::picture::canvas::{Paint, paint};
use crate::picture::patch::{Edit, diff};
use crate::picture::scene::block_cell;
use crate::picture::svg::{block_cells_svg, block_transform, overlay_svg, scene_svg};
use crate::picture::values::{sum_text, values_svg};
use crate::picture::words::{depth_text, fill_sentence, legend, step_text};
use crate::picture::{Fit, Hit, Layout, Panel, Picture, Scene, View, hit, layout, picture, scene};
use crate::view::panels::{grid_shell, legend_items};

/// Up to this many cells the static layer is SVG, one element per cell (with its test id);
/// above it, a canvas. Measured (BENCHMARKS.md): SVG holds 60 fps up to 128×128 (33k cells).
pub(super) const SVG_CELLS: i64 = 40_000;
/// Above this nothing is drawn (a canvas that large passes browser limits).
const MAX_CELLS: i64 = 2_500_000;
/// Nor a canvas wider or taller than this (browsers refuse far larger ones silently).
const MAX_SIDE: i64 = 16_384;
/// The tallest the picture may be, in CSS px.
pub(super) const MAX_HEIGHT: i64 = 520;
/// The smallest cell the picture draws unless the whole layer is asked for.
pub(super) const MIN_CELL: i64 = 12;
/// The smallest cell that holds a value.
const VALUES_CELL: i64 = 24;

/// How the static layer is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Renderer {
    Svg,
    Canvas,
    Nothing,
}

/// The cells a layout draws.
fn drawn_cells(at: &Layout) -> i64 {
    let grid =
        |r: &crate::picture::Strip, c: &crate::picture::Strip| r.slots().saturating_mul(c.slots());
    grid(&at.in_rows, &at.in_cols).saturating_add(grid(&at.out_rows, &at.out_cols))
}

/// The shell's elements, found once (the shell is static markup: they stay).
type Found = StoredValue<Vec<(&'static str, Element)>, LocalStorage>;

fn find_in(found: Found, root: &Element, selector: &'static str) -> Option<Element> {
    if let Some(el) = found.with_value(|f| {
        f.iter()
            .find(|(s, _)| *s == selector)
            .map(|(_, e)| e.clone())
    }) {
        return Some(el);
    }
    let el = root.query_selector(selector).ok().flatten()?;
    found.update_value(|f| f.push((selector, el.clone())));
    Some(el)
}

fn set_attr(el: &Element, name: &str, value: &str) {
    if el.get_attribute(name).as_deref() != Some(value) {
        let _ = el.set_attribute(name, value);
    }
}

fn set_text(el: Option<Element>, text: &str) {
    if let Some(el) = el
        && el.text_content().as_deref().unwrap_or("") != text
    {
        el.set_text_content(Some(text));
    }
}

fn set_hidden(el: Option<Element>, hidden: bool) {
    if let Some(el) = el
        && el.has_attribute("hidden") != hidden
    {
        let _ = el.toggle_attribute_with_force("hidden", hidden);
    }
}

fn set_value(el: &Element, value: &str) {
    let _ = js_sys::Reflect::set(el, &JsValue::from_str("value"), &JsValue::from_str(value));
}

fn value_of(el: &Element) -> String {
    js_sys::Reflect::get(el, &JsValue::from_str("value"))
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// The windows in one row of the picture (the last axis's outputs).
fn row_len(p: &Picture) -> i64 {
    p.axes.last().map_or(1, |a| a.output.max(1))
}

/// The grid with its animation controls.
#[component]
pub fn GridView(
    /// The layer from the form.
    spec: Memo<Result<LayerSpec, FieldError>>,
    /// The core's answer.
    answer: Memo<Result<Answer, LayerError>>,
) -> impl IntoView {
    // While a field is being fixed, the last valid picture stays on screen (dimmed).
    let last = StoredValue::new(None::<Picture>);
    let stale = Memo::new(move |_| answer.with(Result::is_err));
    let pic: Memo<Option<Picture>> = Memo::new(move |_| match (spec.get(), answer.get()) {
        (Ok(spec), Ok(answer)) => {
            let now = picture(&spec, &answer);
            last.set_value(now.clone());
            now
        }
        _ => last.get_value(),
    });
    let root = NodeRef::<leptos::html::Section>::new();
    let found: Found = StoredValue::new_local(Vec::new());
    let find = move |root: &Element, selector: &'static str| find_in(found, root, selector);
    let width = RwSignal::new(640i64);
    let view = RwSignal::new(View::Auto);
    // The values mode: numbers in the cells (larger cells), and the current output's sum.
    let values = RwSignal::new(false);
    let step = RwSignal::new(0i64);
    let playing = RwSignal::new(false);
    let speed_ms = RwSignal::new(400u64);
    let hover = RwSignal::new(None::<Hit>);
    // The depth slice shown for a 3-D layer (padded coordinates).
    let slice = RwSignal::new(0i64);
    let at = Memo::new(move |_| {
        let fit = Fit {
            width: width.get(),
            max_height: MAX_HEIGHT,
            min_cell: if values.get() { VALUES_CELL } else { MIN_CELL },
            view: view.get(),
        };
        pic.with(|p| p.as_ref().map(|p| layout(p, step.get(), &fit)))
    });
    let renderer = Memo::new(move |_| {
        at.with(|at| match at {
            Some(at) => {
                let n = drawn_cells(at);
                if n <= SVG_CELLS {
                    Renderer::Svg
                } else if n <= MAX_CELLS && at.width <= MAX_SIDE && at.height <= MAX_SIDE {
                    Renderer::Canvas
                } else {
                    Renderer::Nothing
                }
            }
            None => Renderer::Nothing,
        })
    });
    let base = Memo::new(move |_| match (pic.get(), at.get()) {
        (Some(p), Some(at)) if renderer.get() != Renderer::Nothing => {
            Some(scene(&p, &at, slice.get()))
        }
        _ => None,
    });
    // The width the picture has: measured on mount and when the window resizes.
    let measure = move || {
        if let Some(section) = root.get_untracked() {
            let w = i64::from(section.client_width());
            if w > 0 && w != width.get_untracked() {
                width.set(w);
            }
        }
    };
    Effect::new(move |_| {
        if root.get().is_some() {
            measure();
        }
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());
    // The static cells: SVG patched in place (only the cells whose state changed are
    // touched), or a canvas under the SVG, which then keeps only the labels.
    let shown = StoredValue::new(None::<Scene>);
    Effect::new(move |_| {
        let Some(root) = root.get() else {
            return;
        };
        let mode = renderer.get();
        let (Some(g), Some(svg), Some(overlay_svg_el), Some(canvas), Some(frame)) = (
            find(&root, "g.base"),
            find(&root, "[data-testid=grid-svg]"),
            find(&root, "svg.overlay-layer"),
            find(&root, "canvas"),
            find(&root, ".picture"),
        ) else {
            return;
        };
        let at_now = at.get();
        let fill = pic.with(|p| p.as_ref().map(|p| p.fill.class()));
        base.with(|new| {
            let drawn = match (mode, new, &at_now) {
                (Renderer::Canvas, Some(scene), Some(at)) => {
                    if let Ok(canvas) = canvas.clone().dyn_into::<web_sys::HtmlCanvasElement>() {
                        let copies = !matches!(fill, Some("fill-zeros" | "fill-neg-inf") | None);
                        paint_canvas(&canvas, scene, at, copies);
                    }
                    Some(Scene {
                        blocks: Vec::new(),
                        ..scene.clone()
                    })
                }
                (_, new, _) => new.clone(),
            };
            shown.with_value(|old| patch(&g, old.as_ref(), drawn.as_ref()));
            shown.set_value(drawn);
        });
        let _ = canvas.toggle_attribute_with_force("hidden", mode != Renderer::Canvas);
        let _ = frame.toggle_attribute_with_force("hidden", mode == Renderer::Nothing);
        set_attr(
            &svg,
            "data-renderer",
            if mode == Renderer::Canvas {
                "canvas"
            } else {
                "svg"
            },
        );
        set_attr(
            &g,
            "class",
            &format!("base {}", fill.unwrap_or("fill-zeros")),
        );
        if let Some(at) = &at_now {
            let view_box = format!("0 0 {} {}", at.width, at.height);
            for el in [&svg, &overlay_svg_el] {
                set_attr(el, "viewBox", &view_box);
                set_attr(el, "width", &at.width.to_string());
            }
            // Small cells lose their separating stroke, which would wash them out.
            set_attr(&svg, "class", if at.cell < 5 { "fine" } else { "" });
            set_attr(&frame, "data-cell-px", &at.cell.to_string());
            set_attr(&frame, "data-elided", &at.elided().to_string());
        }
        let note = match (pic.with(|p| p.is_some()), &at_now, mode) {
            (false, _, _) => "Nothing to draw for this layer.".to_string(),
            (_, Some(at), Renderer::Nothing) => format!(
                "{} cells: too many, or too wide, to draw whole here; show the edges instead.",
                drawn_cells(at)
            ),
            (_, Some(at), Renderer::Canvas) => format!(
                "{} cells: drawn on a canvas; hover and the window work as usual, cells are not separate elements.",
                drawn_cells(at)
            ),
            (_, Some(at), _) if at.elided() => {
                "The middle is elided: the edges, where the padding is, and the current window are drawn. Show the whole layer to see every cell.".to_string()
            }
            _ => String::new(),
        };
        set_text(find(&root, "#picture-note"), &note);
        if let Some(el) = find(&root, "#picture-note") {
            set_attr(
                &el,
                "data-testid",
                if mode == Renderer::Canvas {
                    "canvas-note"
                } else {
                    "picture-note"
                },
            );
        }
        let numbers = match (values.get(), pic.get(), &at_now, mode) {
            (true, Some(p), Some(at), Renderer::Svg) => values_svg(&p, at, slice.get()),
            _ => String::new(),
        };
        if let Some(g) = find(&root, "g.values")
            && g.inner_html() != numbers
        {
            g.set_inner_html(&numbers);
        }
        let items = match (pic.get(), &at_now) {
            (Some(p), Some(at)) => base.with(|s| s.as_ref().map(|s| legend(&p, s, at))),
            _ => None,
        };
        if let Some(ul) = find(&root, "#legend") {
            set_attr(
                &ul,
                "class",
                &format!("legend {}", fill.unwrap_or("fill-zeros")),
            );
            let markup = legend_items(&items.unwrap_or_default()).into_string();
            if ul.inner_html() != markup {
                ul.set_inner_html(&markup);
            }
        }
    });
    let steps = Memo::new(move |_| pic.with(|p| p.as_ref().map_or(1, |p| p.steps().max(1))));
    // A new layer starts at its first window, on the first input slice.
    Effect::new(move |_| {
        pic.track();
        step.set(0);
        slice.set(pic.with_untracked(|p| {
            p.as_ref()
                .and_then(|p| p.depth.as_ref())
                .map_or(0, |d| d.before)
        }));
    });
    // The moving overlay (rewritten only when it changes).
    let last_overlay = StoredValue::new(String::new());
    Effect::new(move |_| {
        let Some(root) = root.get() else {
            return;
        };
        let markup = pic.with(|p| match (p, at.get()) {
            (Some(p), Some(at)) if renderer.get() != Renderer::Nothing => {
                overlay_svg(p, &at, step.get(), slice.get(), hover.get())
            }
            _ => String::new(),
        });
        if let Some(g) = find(&root, "g.overlay")
            && last_overlay.with_value(|l| *l != markup)
        {
            g.set_inner_html(&markup);
            last_overlay.set_value(markup);
        }
    });
    // The words and the player.
    Effect::new(move |_| {
        let Some(root) = root.get() else {
            return;
        };
        let (n, on) = (step.get(), playing.get());
        let _ = root.toggle_attribute_with_force("data-stale", stale.get());
        set_hidden(
            find(&root, "[data-testid=stale-note]"),
            !(stale.get() && pic.with(Option::is_some)),
        );
        pic.with(|p| {
            let Some(p) = p else {
                return;
            };
            set_text(find(&root, "[data-testid=step-text]"), &step_text(p, n));
            let sum = if values.get() {
                sum_text(p, n).unwrap_or_default()
            } else {
                String::new()
            };
            set_text(find(&root, "#values-sum"), &sum);
            let padded = p
                .axes
                .iter()
                .chain(&p.depth)
                .any(|a| a.before > 0 || a.after > 0);
            set_text(
                find(&root, "#fill-text"),
                &if padded {
                    fill_sentence(p.fill)
                } else {
                    String::new()
                },
            );
            let depth = depth_text(p, n, slice.get());
            set_hidden(find(&root, "label.depth"), depth.is_none());
            if let (Some(text), Some(range), Some(d)) =
                (depth, find(&root, "[name=depth]"), &p.depth)
            {
                set_text(find(&root, "#depth-text"), &text);
                set_attr(&range, "max", &(d.len() - 1).to_string());
                set_value(&range, &slice.get().to_string());
            }
            if let Some(scrub) = find(&root, "[name=scrub]") {
                let per_row = row_len(p);
                set_attr(
                    &scrub,
                    "max",
                    &((p.steps().max(1) - 1) / per_row).to_string(),
                );
                set_value(&scrub, &(n / per_row).to_string());
            }
        });
        if let Some(el) = find(&root, "[data-testid=step-text]") {
            // Announced when stepping; silent while playing.
            set_attr(&el, "aria-live", if on { "off" } else { "polite" });
        }
        if let Some(play) = find(&root, "[data-play]") {
            set_attr(&play, "aria-pressed", &on.to_string());
            set_text(
                find(&root, "[data-play]"),
                if on { "Pause" } else { "Play" },
            );
        }
    });
    let ticker = StoredValue::new(None::<IntervalHandle>);
    Effect::new(move |_| {
        let (on, ms) = (playing.get(), speed_ms.get());
        if let Some(handle) = ticker.get_value() {
            handle.clear();
        }
        ticker.set_value(None);
        if on {
            let handle = set_interval_with_handle(
                move || step.update(|s| *s = (*s + 1) % steps.get_untracked()),
                Duration::from_millis(ms),
            );
            ticker.set_value(handle.ok());
        }
    });
    on_cleanup(move || {
        if let Some(handle) = ticker.get_value() {
            handle.clear();
        }
    });
    let move_by = move |delta: i64| {
        playing.set(false);
        step.update(|s| *s = s.saturating_add(delta).rem_euclid(steps.get_untracked()));
    };
    let row = move || pic.with_untracked(|p| p.as_ref().map_or(1, row_len));
    let zoom = move |dir: i64| {
        let cell = at.with_untracked(|a| a.as_ref().map_or(MIN_CELL, |a| a.cell));
        let next = if dir > 0 {
            (cell * 2).min(64)
        } else {
            (cell / 2).max(1)
        };
        view.set(View::Whole { cell: next });
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(button) = ev
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|el| el.closest("button").ok().flatten())
        else {
            return;
        };
        if let Some(delta) = button
            .get_attribute("data-step")
            .and_then(|d| d.parse().ok())
        {
            move_by(delta);
        } else if button.has_attribute("data-play") {
            playing.update(|p| *p = !*p);
        } else if let Some(dir) = button
            .get_attribute("data-zoom")
            .and_then(|d| d.parse().ok())
        {
            zoom(dir);
            if let Some(root) = root.get_untracked()
                && let Some(select) = find(&root, "[name=view]")
            {
                set_value(&select, "whole");
            }
        }
    };
    let on_input = move |ev: leptos::ev::Event| {
        let Some(el) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        let value = value_of(&el);
        match el.get_attribute("name").as_deref() {
            Some("scrub") => {
                if let Ok(v) = value.parse::<i64>() {
                    playing.set(false);
                    step.set(v.saturating_mul(row()).min(steps.get_untracked() - 1));
                }
            }
            Some("depth") => {
                if let Ok(v) = value.parse::<i64>() {
                    slice.set(v);
                }
            }
            Some("speed") => {
                if let Ok(v) = value.parse::<u64>() {
                    speed_ms.set(v);
                }
            }
            Some("values") => values.set(
                js_sys::Reflect::get(&el, &JsValue::from_str("checked"))
                    .is_ok_and(|v| v.is_truthy()),
            ),
            Some("view") => view.set(match value.as_str() {
                "edges" => View::Edges,
                "whole" => View::Whole { cell: 0 },
                _ => View::Auto,
            }),
            _ => {}
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        // Keys belong to the picture, not to its form controls.
        let in_control = ev
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "BUTTON"));
        let delta = match ev.key().as_str() {
            " " | "k" if !in_control => {
                ev.prevent_default();
                playing.update(|p| *p = !*p);
                return;
            }
            "ArrowRight" | "l" => 1,
            "ArrowLeft" | "j" => -1,
            "ArrowDown" => row(),
            "ArrowUp" => -row(),
            "Home" => -step.get_untracked(),
            _ => return,
        };
        if in_control {
            return;
        }
        ev.prevent_default();
        move_by(delta);
    };
    let on_pointer = move |ev: leptos::ev::MouseEvent| {
        let Some(target) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        let now = if renderer.get_untracked() == Renderer::Canvas {
            // On the canvas there are no cell elements: the pointer position picks the cell.
            let Some(svg) = root
                .get_untracked()
                .and_then(|r| find(&r, "[data-testid=grid-svg]"))
            else {
                return;
            };
            let rect = svg.get_bounding_client_rect();
            at.with_untracked(|at| {
                let at = at.as_ref()?;
                if rect.width() <= 0.0 {
                    return None;
                }
                let scale = at.width as f64 / rect.width();
                let x = ((f64::from(ev.client_x()) - rect.left()) * scale) as i64;
                let y = ((f64::from(ev.client_y()) - rect.top()) * scale) as i64;
                hit(at, x, y)
            })
        } else {
            // Cells sit at unit x/y in their block; the block says which coordinates they are.
            let read = |el: &Element, name: &str| {
                el.get_attribute(name).and_then(|v| v.parse::<i64>().ok())
            };
            (|| {
                let (r, c) = (read(&target, "y")?, read(&target, "x")?);
                let panel =
                    Panel::from_name(&target.parent_element()?.get_attribute("data-panel")?)?;
                pic.with_untracked(|p| {
                    at.with_untracked(|at| block_cell(p.as_ref()?, at.as_ref()?, panel, r, c))
                })
            })()
        };
        if hover.get_untracked() != now {
            hover.set(now);
        }
    };
    view! {
        <section
            class="grid"
            aria-label="Padding picture"
            tabindex="0"
            data-testid="grid"
            node_ref=root
            on:keydown=on_key
            on:click=on_click
            on:input=on_input
            on:change=on_input
            on:mousemove=on_pointer
            on:mouseleave=move |_| hover.set(None)
            inner_html=grid_shell().into_string()
        ></section>
    }
}

/// Brings the base `<g>` from the `old` scene to the `new` one by applying the pure diff
/// (`picture::patch`); when the drawn blocks are not what `old` says, it draws `new` anew.
fn patch(base: &Element, old: Option<&Scene>, new: Option<&Scene>) {
    let children = base.children();
    let drawn_as_old = old.is_some_and(|old| children.length() as usize == old.blocks.len() + 1);
    let edits = diff(old.filter(|_| drawn_as_old), new);
    let block = |i: usize| children.item(i as u32 + 1);
    for edit in edits {
        match edit {
            Edit::Redraw(Some(scene)) => base.set_inner_html(&scene_svg(scene)),
            Edit::Redraw(None) => base.set_inner_html(""),
            Edit::Labels(text) => {
                if let Some(labels) = children.item(0) {
                    labels.set_inner_html(text);
                }
            }
            Edit::Move { block: i } => {
                if let (Some(g), Some(new)) = (block(i), new)
                    && let Some(b) = new.blocks.get(i)
                {
                    let _ = g.set_attribute("transform", &block_transform(b, new.cell));
                }
            }
            Edit::Cells { block: i, cells } => {
                if let Some(g) = block(i) {
                    g.set_inner_html(&block_cells_svg(cells));
                }
            }
            Edit::Cell {
                block: i,
                index,
                x,
                y,
                kind,
            } => {
                let Some(rect) = block(i).and_then(|g| g.children().item(index as u32)) else {
                    continue;
                };
                if let Some(x) = x {
                    let _ = rect.set_attribute("x", &x.to_string());
                }
                if let Some(y) = y {
                    let _ = rect.set_attribute("y", &y.to_string());
                }
                if let Some(kind) = kind {
                    let _ = rect.set_attribute("class", kind.class());
                    let _ = rect.set_attribute("data-testid", kind.testid());
                }
            }
            Edit::Append { block: i, cells } => {
                if let Some(g) = block(i) {
                    let _ = g.insert_adjacent_html("beforeend", &block_cells_svg(cells));
                }
            }
            Edit::Truncate { block: i, count } => {
                if let Some(g) = block(i) {
                    for _ in 0..count {
                        if let Some(last) = g.last_element_child() {
                            last.remove();
                        }
                    }
                }
            }
        }
    }
}

/// Paints the static cells of `scene` on `canvas`, one `fillRect` per cell, colours from the
/// same CSS variables the SVG cells use (so dark mode follows); `copies`: the padding copies
/// the input (a torch `padding_mode`) and has its own colour.
fn paint_canvas(canvas: &web_sys::HtmlCanvasElement, scene: &Scene, at: &Layout, copies: bool) {
    let (Ok(width), Ok(height)) = (u32::try_from(at.width), u32::try_from(at.height)) else {
        return;
    };
    // Setting the size also clears the canvas.
    canvas.set_width(width);
    canvas.set_height(height);
    let Some(ctx) = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let style = web_sys::window().and_then(|w| w.get_computed_style(canvas).ok().flatten());
    let colour = |var: &str| {
        style
            .as_ref()
            .and_then(|s| s.get_property_value(var).ok())
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "#888".to_string())
    };
    let cell = scene.cell as f64;
    // A one-unit gap between cells while they are big enough to show it, like the SVG stroke.
    let gap = if scene.cell >= 4 { 1.0 } else { 0.0 };
    let mut current = None;
    let mut outline = false;
    for block in &scene.blocks {
        for c in &block.cells {
            if current != Some(c.kind) {
                let Paint {
                    var,
                    alpha,
                    outline: only_outline,
                } = paint(c.kind);
                let var = match c.kind {
                    crate::picture::CellKind::Pad { dead: false, .. } if copies => "--c-pad-copy",
                    _ => var,
                };
                let colour = colour(var);
                ctx.set_global_alpha(alpha);
                ctx.set_fill_style_str(&colour);
                ctx.set_stroke_style_str(&colour);
                current = Some(c.kind);
                outline = only_outline;
            }
            let x = (block.x + c.c * scene.cell) as f64;
            let y = (block.y + c.r * scene.cell) as f64;
            if outline {
                ctx.stroke_rect(x + 0.5, y + 0.5, cell - 1.0, cell - 1.0);
            } else {
                ctx.fill_rect(x, y, cell - gap, cell - gap);
            }
        }
    }
    ctx.set_global_alpha(1.0);
}
