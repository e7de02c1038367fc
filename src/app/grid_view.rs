//! The picture: input with padding, the window at the current step, the output; hover links
//! them; play/step/scrub animate the window. The static cells are one SVG string from
//! `grid::base_svg`; only the small overlay is reactive.

use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::core::{Answer, LayerSpec};
use crate::forms::compact::{FieldError, LayerError};
use crate::picture::canvas::{Paint, hit, paint};
use crate::picture::patch::{Edit, diff};
use crate::picture::scene::block_cell;
use crate::picture::svg::{
    MAX_WIDTH, SVG_LABEL, block_cells_svg, block_transform, overlay_svg, scene_svg,
};
use crate::picture::{Hit, Layout, Panel, Picture, Scene, layout, picture, scene};

/// Up to this many cells the static layer is SVG, one element per cell (with its test id);
/// above it, a canvas. Measured (BENCHMARKS.md): SVG holds 60 fps up to 128×128 (33k cells)
/// and drops to 20–30 fps at 256×256, where its first draw also takes 2–3 s.
pub(super) const SVG_CELLS: i64 = 40_000;
/// Above this nothing is drawn (a canvas that large passes browser limits).
const MAX_CELLS: i64 = 2_500_000;
/// Nor a canvas wider or taller than this (browsers refuse far larger ones silently).
const MAX_SIDE: i64 = 16_384;

/// How the static layer is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Renderer {
    Svg,
    Canvas,
    Nothing,
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
    let at = Memo::new(move |_| pic.with(|p| p.as_ref().map(|p| layout(p, MAX_WIDTH))));
    // The depth slice shown for a 3-D layer (padded coordinates).
    let slice = RwSignal::new(0i64);
    let renderer = Memo::new(move |_| {
        let fits = at.with(|at| at.is_some_and(|at| at.width <= MAX_SIDE && at.height <= MAX_SIDE));
        match pic.with(|p| p.as_ref().map(Picture::cell_count)) {
            Some(n) if n <= SVG_CELLS => Renderer::Svg,
            Some(n) if n <= MAX_CELLS && fits => Renderer::Canvas,
            _ => Renderer::Nothing,
        }
    });
    let drawn = Memo::new(move |_| renderer.get() != Renderer::Nothing);
    let base = Memo::new(move |_| match (pic.get(), at.get()) {
        (Some(p), Some(at)) if drawn.get() => Some(scene(&p, &at, slice.get())),
        _ => None,
    });
    // SVG: the static cells are patched in place, only the cells whose state changed are
    // touched. Canvas: the SVG keeps the labels and the canvas below it is repainted.
    let base_ref = NodeRef::<leptos::svg::G>::new();
    let canvas_ref = NodeRef::<leptos::html::Canvas>::new();
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    let shown = StoredValue::new(None::<Scene>);
    Effect::new(move |_| {
        let Some(g) = base_ref.get() else {
            return;
        };
        let mode = renderer.get();
        base.with(|new| {
            let new = match (mode, new) {
                (Renderer::Canvas, Some(scene)) => {
                    if let (Some(canvas), Some(at)) =
                        (canvas_ref.get_untracked(), at.get_untracked())
                    {
                        paint_canvas(&canvas, scene, &at);
                    }
                    Some(Scene {
                        blocks: Vec::new(),
                        ..scene.clone()
                    })
                }
                (_, new) => new.clone(),
            };
            shown.with_value(|old| patch(&g, old.as_ref(), new.as_ref()));
            shown.set_value(new);
        });
    });
    let steps = Memo::new(move |_| pic.with(|p| p.as_ref().map_or(1, |p| p.steps().max(1))));
    let step = RwSignal::new(0i64);
    let playing = RwSignal::new(false);
    let speed_ms = RwSignal::new(400u64);
    let hover = RwSignal::new(None::<Hit>);
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
        step.update(|s| *s = (*s + delta).rem_euclid(steps.get_untracked()));
    };
    let on_pointer = move |ev: leptos::ev::MouseEvent| {
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let read = |el: &web_sys::Element, name: &str| {
            el.get_attribute(name).and_then(|v| v.parse::<i64>().ok())
        };
        hover.set(target.and_then(|el| {
            // Cells sit at unit x/y in their block; the block says which coordinates they are.
            let (r, c) = (read(&el, "y")?, read(&el, "x")?);
            let panel = Panel::from_name(&el.parent_element()?.get_attribute("data-panel")?)?;
            pic.with_untracked(|p| p.as_ref().map(|p| block_cell(p, panel, r, c)))
        }));
    };
    // On the canvas there are no cell elements: the pointer position picks the cell.
    let on_move = move |ev: leptos::ev::MouseEvent| {
        if renderer.get_untracked() != Renderer::Canvas {
            return;
        }
        let (Some(svg), Some(at), Some(p)) = (
            svg_ref.get_untracked(),
            at.get_untracked(),
            pic.get_untracked(),
        ) else {
            return;
        };
        let rect = svg.get_bounding_client_rect();
        if rect.width() <= 0.0 {
            return;
        }
        let scale = at.width as f64 / rect.width();
        let x = ((f64::from(ev.client_x()) - rect.left()) * scale) as i64;
        let y = ((f64::from(ev.client_y()) - rect.top()) * scale) as i64;
        let now = hit(&p, &at, x, y);
        if hover.get_untracked() != now {
            hover.set(now);
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        " " | "k" => {
            ev.prevent_default();
            playing.update(|p| *p = !*p);
        }
        "ArrowRight" | "l" => {
            ev.prevent_default();
            move_by(1);
        }
        "ArrowLeft" | "j" => {
            ev.prevent_default();
            move_by(-1);
        }
        "Home" => {
            ev.prevent_default();
            move_by(-step.get_untracked());
        }
        _ => {}
    };
    let description = move || {
        pic.with(|p| {
            p.as_ref().map(|p| {
                let index = p.step_index(step.get());
                format!(
                    "Window {} of {} (output {}); padding is {}.",
                    step.get() + 1,
                    p.steps(),
                    index
                        .iter()
                        .map(|i| i.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    p.pad_value
                )
            })
        })
    };
    view! {
        <section class="grid" class:stale=move || stale.get() aria-label="Padding picture" tabindex="0" on:keydown=on_key data-testid="grid">
            <h2>"The picture"</h2>
            <Show when=move || stale.get() && pic.with(Option::is_some)>
                <p class="muted" data-testid="stale-note">"Showing the last valid layer until the settings are fixed."</p>
            </Show>
            // Two stacked SVGs: the static cells, and the window/highlights in their own
            // composited layer, so animating the window never repaints thousands of cells.
            <div class="picture" style:display=move || if drawn.get() { "block" } else { "none" }>
                <canvas
                    node_ref=canvas_ref
                    data-testid="grid-canvas"
                    aria-hidden="true"
                    style:display=move || if renderer.get() == Renderer::Canvas { "block" } else { "none" }
                ></canvas>
                <svg
                    node_ref=svg_ref
                    role="img"
                    aria-label=SVG_LABEL
                    data-testid="grid-svg"
                    data-renderer=move || if renderer.get() == Renderer::Canvas { "canvas" } else { "svg" }
                    // Small cells lose their separating stroke, which would wash them out.
                    class:fine=move || at.get().is_some_and(|at| at.cell < 5)
                    on:mousemove=on_move
                    viewBox=move || at.get().map(|at| format!("0 0 {} {}", at.width, at.height))
                    width=move || at.get().map(|at| at.width.to_string())
                    on:mouseover=on_pointer
                    on:mouseleave=move |_| hover.set(None)
                >
                    <g class="base" node_ref=base_ref></g>
                </svg>
                <svg
                    class="overlay-layer"
                    aria-hidden="true"
                    viewBox=move || at.get().map(|at| format!("0 0 {} {}", at.width, at.height))
                    width=move || at.get().map(|at| at.width.to_string())
                >
                    <g class="overlay" inner_html=move || {
                        let hover = hover.get();
                        pic.with(|p| match (p, at.get()) {
                            (Some(p), Some(at)) if drawn.get() => {
                                overlay_svg(p, &at, step.get(), slice.get(), hover)
                            }
                            _ => String::new(),
                        })
                    }></g>
                </svg>
            </div>
            {move || match pic.with(|p| p.as_ref().map(Picture::cell_count)) {
                Some(n) if n > SVG_CELLS && !drawn.get() => Some(view! {
                    <p class="muted">{format!("{n} cells: too many, or too wide, to draw here.")}</p>
                }.into_any()),
                Some(n) if n > SVG_CELLS => Some(view! {
                    <p class="muted" data-testid="canvas-note">{format!("{n} cells: drawn on a canvas; hover and the window work as usual, cells are not separate elements.")}</p>
                }.into_any()),
                Some(_) => None,
                None => Some(view! { <p class="muted">"Nothing to draw for this layer."</p> }.into_any()),
            }}
            <ul class="legend" aria-label="Legend">
                <li><span class="swatch input"></span>"input"</li>
                <li><span class="swatch pad"></span>{move || pic.with(|p| format!("padding before: top, left ({})", p.as_ref().map_or("0", |p| p.pad_value)))}</li>
                <li><span class="swatch pad-after"></span>"padding after: bottom, right"</li>
                <li><span class="swatch dead"></span>"dead: no window reads it"</li>
                <li><span class="swatch beyond"></span>"past the padding (ceil mode)"</li>
                <li><span class="swatch tap"></span>"window taps"</li>
                <li><span class="swatch next-window"></span>"next window, one stride on"</li>
                <li><span class="swatch out"></span>"output"</li>
                <li><span class="swatch hl"></span>"linked to the hovered cell"</li>
            </ul>
            {move || pic.with(|p| p.as_ref().and_then(|p| p.depth.clone())).map(|depth| {
                let len = depth.len();
                view! {
                <label class="field depth">
                    <span>{move || {
                        let s = slice.get();
                        let kind = match depth.cell(s) {
                            crate::picture::Cell::PadBefore | crate::picture::Cell::PadAfter => "padding",
                            crate::picture::Cell::Beyond => "past the padding",
                            _ if depth.is_dead(s) => "input, never read",
                            _ => "input",
                        };
                        let read = pic.with(|p| p.as_ref().is_some_and(|p| p.reads_slice(step.get(), s)));
                        format!("Depth slice {s} of {len} ({kind}{})", if read { "; the current window reads it" } else { "" })
                    }}</span>
                    <input
                        type="range"
                        min="0"
                        data-testid="depth-slice"
                        max=(len - 1).to_string()
                        prop:value=move || slice.get().to_string()
                        on:input=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<i64>() {
                                slice.set(v);
                            }
                        }
                    />
                </label>
            }})}
            // Announced when stepping; silent while playing (60 steps a second would flood a reader).
            <p class="step-text" aria-live=move || if playing.get() { "off" } else { "polite" } data-testid="step-text">{description}</p>
            <div class="player" role="group" aria-label="Animation">
                <button type="button" data-testid="step-back" aria-label="Previous window" on:click=move |_| move_by(-1)>"◀"</button>
                <button
                    type="button"
                    data-testid="play"
                    aria-pressed=move || playing.get().to_string()
                    on:click=move |_| playing.update(|p| *p = !*p)
                >
                    {move || if playing.get() { "Pause" } else { "Play" }}
                </button>
                <button type="button" data-testid="step-forward" aria-label="Next window" on:click=move |_| move_by(1)>"▶"</button>
                <label class="scrub">
                    <span class="visually-hidden">"Window"</span>
                    <input
                        type="range"
                        min="0"
                        data-testid="scrub"
                        max=move || (steps.get() - 1).to_string()
                        prop:value=move || step.get().to_string()
                        on:input=move |ev| {
                            playing.set(false);
                            if let Ok(v) = event_target_value(&ev).parse::<i64>() {
                                step.set(v);
                            }
                        }
                    />
                </label>
                <label class="speed">
                    <span>"Speed"</span>
                    <select data-testid="speed" on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<u64>() {
                            speed_ms.set(v);
                        }
                    }>
                        <option value="800">"slow"</option>
                        <option value="400" selected>"normal"</option>
                        <option value="120">"fast"</option>
                        <option value="16">"60 fps"</option>
                    </select>
                </label>
                <span class="keys">"Keys: space play/pause, ← → step"</span>
            </div>
        </section>
    }
}

/// Brings the base `<g>` from the `old` scene to the `new` one by applying the pure diff
/// (`picture::patch`); when the drawn blocks are not what `old` says, it draws `new` anew.
fn patch(base: &web_sys::Element, old: Option<&Scene>, new: Option<&Scene>) {
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
/// same CSS variables the SVG cells use (so dark mode follows).
fn paint_canvas(canvas: &web_sys::HtmlCanvasElement, scene: &Scene, at: &Layout) {
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
