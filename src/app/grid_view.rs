//! The picture: input with padding, the window at the current step, the output; hover links
//! them; play/step/scrub animate the window. The section is static markup
//! (`view::panels::grid_shell`); effects write the picture's pure parts into it: the static
//! cells (patched with `picture::patch`, or painted on a canvas), the overlay, the words. The
//! picture fits the measured width: the whole layer when its cells are readable, else its
//! edges and the current window, so the work per frame is bounded by what is drawn.
//!
//! Every decision is pure (`picture::player`: the renderer, the note, keys, zoom, scrub; the
//! rest of `picture`); here is one function per effect and per handler, over [`Grid`]'s
//! signals.

use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

use super::dom::{self, checked, set_attr, set_hidden, set_markup, set_text, set_value};
use crate::core::{Answer, LayerSpec};
use crate::forms::compact::{FieldError, LayerError};
use crate::picture::patch::{Edit, diff};
use crate::picture::player::{self, Control, Key, MAX_HEIGHT, MIN_CELL, Renderer, VALUES_CELL};
use crate::picture::scene::block_cell;
use crate::picture::svg::{block_cells_svg, block_transform, labels_svg, overlay_svg, scene_svg};
use crate::picture::values::{sum_text, values_svg};
use crate::picture::words::{depth_text, fill_sentence, legend, step_text};
use crate::picture::{
    Fill, Fit, Hit, Layout, Panel, Picture, Scene, View, hit, layout, picture, scene,
};
use crate::view::panels::{grid_shell, legend_items};

/// The shell's elements, found once (the shell is static markup: they stay).
type Found = StoredValue<Vec<(&'static str, Element)>, LocalStorage>;

/// The picture's state: what every effect and handler reads.
#[derive(Clone, Copy)]
struct Grid {
    /// The picture of the layer (the last valid one while a field is being fixed).
    pic: Memo<Option<Picture>>,
    /// The form holds an error: the picture shown is the last valid one, dimmed.
    stale: Memo<bool>,
    root: NodeRef<leptos::html::Section>,
    found: Found,
    width: RwSignal<i64>,
    view: RwSignal<View>,
    /// The values mode: numbers in the cells (larger cells), and the current output's sum.
    values: RwSignal<bool>,
    step: RwSignal<i64>,
    playing: RwSignal<bool>,
    speed_ms: RwSignal<u64>,
    hover: RwSignal<Option<Hit>>,
    /// The depth slice shown for a 3-D layer (padded coordinates).
    slice: RwSignal<i64>,
    at: Memo<Option<Layout>>,
    renderer: Memo<Renderer>,
    /// The static cells drawn (`None`: nothing to draw).
    base: Memo<Option<Scene>>,
    steps: Memo<i64>,
}

impl Grid {
    fn new(
        spec: Memo<Result<LayerSpec, FieldError>>,
        answer: Memo<Result<Answer, LayerError>>,
    ) -> Grid {
        let last = StoredValue::new(None::<Picture>);
        let pic = Memo::new(move |_| match (spec.get(), answer.get()) {
            (Ok(spec), Ok(answer)) => {
                let now = picture(&spec, &answer);
                last.set_value(now.clone());
                now
            }
            _ => last.get_value(),
        });
        let width = RwSignal::new(640i64);
        let view = RwSignal::new(View::Auto);
        let values = RwSignal::new(false);
        let step = RwSignal::new(0i64);
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
        let renderer = Memo::new(move |_| at.with(|at| Renderer::of(at.as_ref())));
        let base = Memo::new(move |_| match (pic.get(), at.get()) {
            (Some(p), Some(at)) if renderer.get() != Renderer::Nothing => {
                Some(scene(&p, &at, slice.get()))
            }
            _ => None,
        });
        Grid {
            pic,
            stale: Memo::new(move |_| answer.with(Result::is_err)),
            root: NodeRef::new(),
            found: StoredValue::new_local(Vec::new()),
            width,
            view,
            values,
            step,
            playing: RwSignal::new(false),
            speed_ms: RwSignal::new(400),
            hover: RwSignal::new(None),
            slice,
            at,
            renderer,
            base,
            steps: Memo::new(move |_| pic.with(|p| p.as_ref().map_or(1, |p| p.steps().max(1)))),
        }
    }

    /// The shell's element for `selector` under `root`, found once.
    fn find(&self, root: &Element, selector: &'static str) -> Option<Element> {
        if let Some(el) = self.found.with_value(|f| {
            f.iter()
                .find(|(s, _)| *s == selector)
                .map(|(_, e)| e.clone())
        }) {
            return Some(el);
        }
        let el = root.query_selector(selector).ok().flatten()?;
        self.found.update_value(|f| f.push((selector, el.clone())));
        Some(el)
    }

    /// The windows in one row of the picture.
    fn row(&self) -> i64 {
        self.pic
            .with_untracked(|p| p.as_ref().map_or(1, player::row_len))
    }

    fn move_by(&self, delta: i64) {
        self.playing.set(false);
        let steps = self.steps.get_untracked();
        self.step.update(|s| *s = player::moved(*s, delta, steps));
    }
}

/// The grid with its animation controls.
#[component]
pub fn GridView(
    /// The layer from the form.
    spec: Memo<Result<LayerSpec, FieldError>>,
    /// The core's answer.
    answer: Memo<Result<Answer, LayerError>>,
) -> impl IntoView {
    // The app is mounted once and never unmounted (`app::mount_app` forgets its handle), so the
    // picture's state lives as long as the page: one allocation every effect and handler points
    // to (a copy of the whole state in each of their closures cost the page's wasm 0.55 KB gzip).
    let g: &'static Grid = Box::leak(Box::new(Grid::new(spec, answer)));
    measure_width(g);
    draw_static(g);
    restart_on_new_layer(g);
    draw_overlay(g);
    write_words(g);
    run_player(g);
    view! {
        <section
            class="grid"
            aria-label="Padding picture"
            tabindex="0"
            data-testid="grid"
            node_ref=g.root
            on:keydown=move |ev| on_key(g, &ev)
            on:click=move |ev| on_click(g, &ev)
            on:input=move |ev| on_input(g, &ev)
            on:change=move |ev| on_input(g, &ev)
            on:mousemove=move |ev| on_pointer(g, &ev)
            on:mouseleave=move |_| g.hover.set(None)
            inner_html=grid_shell().into_string()
        ></section>
    }
}

/// The width the picture has: measured on mount and when the window resizes.
fn measure_width(g: &'static Grid) {
    let measure = move || {
        if let Some(section) = g.root.get_untracked() {
            let w = i64::from(section.client_width());
            if w > 0 && w != g.width.get_untracked() {
                g.width.set(w);
            }
        }
    };
    Effect::new(move |_| {
        if g.root.get().is_some() {
            measure();
        }
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());
}

/// The static cells: SVG patched in place (only the cells whose state changed are touched), or
/// a canvas under the SVG, which then keeps only the labels; then the frame's attributes, the
/// note, the values and the legend.
fn draw_static(g: &'static Grid) {
    let shown = StoredValue::new(None::<Scene>);
    Effect::new(move |_| {
        let Some(root) = g.root.get() else {
            return;
        };
        let mode = g.renderer.get();
        let (Some(base_g), Some(svg), Some(overlay), Some(canvas), Some(frame)) = (
            g.find(&root, "g.base"),
            g.find(&root, "[data-testid=grid-svg]"),
            g.find(&root, "svg.overlay-layer"),
            g.find(&root, "canvas"),
            g.find(&root, ".picture"),
        ) else {
            return;
        };
        let at = g.at.get();
        let fill = g.pic.with(|p| p.as_ref().map(|p| p.fill));
        g.base.with(|new| {
            let drawn = match (mode, new, &at) {
                (Renderer::Canvas, Some(scene), Some(at)) => {
                    if let Ok(canvas) = canvas.clone().dyn_into::<web_sys::HtmlCanvasElement>() {
                        paint_canvas(&canvas, scene, at, fill.unwrap_or(Fill::Zeros));
                    }
                    // The canvas holds the cells: the SVG keeps only the labels.
                    Some(Scene {
                        labels: scene.labels.clone(),
                        cell: scene.cell,
                        blocks: Vec::new(),
                    })
                }
                (_, new, _) => new.clone(),
            };
            shown.with_value(|old| patch(&base_g, old.as_ref(), drawn.as_ref()));
            shown.set_value(drawn);
        });
        let fill_class = fill.unwrap_or(Fill::Zeros).class();
        set_hidden(Some(&canvas), mode != Renderer::Canvas);
        set_hidden(Some(&frame), mode == Renderer::Nothing);
        set_attr(&svg, "data-renderer", mode.name());
        set_attr(&base_g, "class", &format!("base {fill_class}"));
        if let Some(at) = &at {
            let view_box = format!("0 0 {} {}", at.width, at.height);
            for el in [&svg, &overlay] {
                set_attr(el, "viewBox", &view_box);
                set_attr(el, "width", &at.width.to_string());
            }
            // Small cells lose their separating stroke, which would wash them out.
            set_attr(&svg, "class", if at.cell < 5 { "fine" } else { "" });
            set_attr(&frame, "data-cell-px", &at.cell.to_string());
            set_attr(&frame, "data-elided", &at.elided().to_string());
        }
        let note = g.find(&root, "#picture-note");
        set_text(
            note.as_ref(),
            &player::note(g.pic.with(Option::is_some), at.as_ref(), mode),
        );
        if let Some(el) = &note {
            set_attr(el, "data-testid", mode.note_testid());
        }
        let numbers = match (g.values.get(), g.pic.get(), &at, mode) {
            (true, Some(p), Some(at), Renderer::Svg) => values_svg(&p, at, g.slice.get()),
            _ => String::new(),
        };
        set_markup(g.find(&root, "g.values").as_ref(), &numbers);
        let items = match (g.pic.get(), &at) {
            (Some(p), Some(at)) => g.base.with(|s| s.as_ref().map(|s| legend(&p, s, at))),
            _ => None,
        };
        if let Some(ul) = g.find(&root, "#legend") {
            set_attr(&ul, "class", &format!("legend {fill_class}"));
            set_markup(
                Some(&ul),
                &legend_items(&items.unwrap_or_default()).into_string(),
            );
        }
    });
}

/// A new layer starts at its first window, on the first input slice.
fn restart_on_new_layer(g: &'static Grid) {
    Effect::new(move |_| {
        g.pic.track();
        g.step.set(0);
        g.slice.set(g.pic.with_untracked(|p| {
            p.as_ref()
                .and_then(|p| p.depth.as_ref())
                .map_or(0, |d| d.before)
        }));
    });
}

/// The moving overlay (rewritten only when it changes).
fn draw_overlay(g: &'static Grid) {
    let last = StoredValue::new(String::new());
    Effect::new(move |_| {
        let Some(root) = g.root.get() else {
            return;
        };
        let markup = g.pic.with(|p| match (p, g.at.get()) {
            (Some(p), Some(at)) if g.renderer.get() != Renderer::Nothing => {
                overlay_svg(p, &at, g.step.get(), g.slice.get(), g.hover.get())
            }
            _ => String::new(),
        });
        if let Some(el) = g.find(&root, "g.overlay")
            && last.with_value(|l| *l != markup)
        {
            el.set_inner_html(&markup);
            last.set_value(markup);
        }
    });
}

/// The words and the player: the step, the sum, the fill, the depth slice, the scrub, and the
/// play button.
fn write_words(g: &'static Grid) {
    Effect::new(move |_| {
        let Some(root) = g.root.get() else {
            return;
        };
        let find = |selector| g.find(&root, selector);
        let (n, on, stale) = (g.step.get(), g.playing.get(), g.stale.get());
        let _ = root.toggle_attribute_with_force("data-stale", stale);
        set_hidden(
            find("[data-testid=stale-note]").as_ref(),
            !(stale && g.pic.with(Option::is_some)),
        );
        g.pic.with(|p| {
            let Some(p) = p else {
                return;
            };
            set_text(find("[data-testid=step-text]").as_ref(), &step_text(p, n));
            let sum = if g.values.get() {
                sum_text(p, n).unwrap_or_default()
            } else {
                String::new()
            };
            set_text(find("#values-sum").as_ref(), &sum);
            let fill = if player::padded(p) {
                fill_sentence(p.fill)
            } else {
                String::new()
            };
            set_text(find("#fill-text").as_ref(), &fill);
            let depth = depth_text(p, n, g.slice.get());
            set_hidden(find("label.depth").as_ref(), depth.is_none());
            if let (Some(text), Some(range), Some(d)) = (depth, find("[name=depth]"), &p.depth) {
                set_text(find("#depth-text").as_ref(), &text);
                set_attr(&range, "max", &(d.len() - 1).to_string());
                set_value(&range, &g.slice.get().to_string());
            }
            if let Some(scrub) = find("[name=scrub]") {
                let (max, at) = player::scrub(p, n);
                set_attr(&scrub, "max", &max.to_string());
                set_value(&scrub, &at.to_string());
            }
        });
        if let Some(el) = find("[data-testid=step-text]") {
            // Announced when stepping; silent while playing.
            set_attr(&el, "aria-live", if on { "off" } else { "polite" });
        }
        if let Some(play) = find("[data-play]") {
            set_attr(&play, "aria-pressed", &on.to_string());
            set_text(Some(&play), if on { "Pause" } else { "Play" });
        }
    });
}

/// Playing steps the window at the chosen speed.
fn run_player(g: &'static Grid) {
    let ticker = StoredValue::new(None::<IntervalHandle>);
    Effect::new(move |_| {
        let (on, ms) = (g.playing.get(), g.speed_ms.get());
        if let Some(handle) = ticker.get_value() {
            handle.clear();
        }
        ticker.set_value(None);
        if on {
            let handle = set_interval_with_handle(
                move || {
                    g.step
                        .update(|s| *s = player::moved(*s, 1, g.steps.get_untracked()))
                },
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
}

/// The player's buttons: step, play, zoom.
fn on_click(g: &Grid, ev: &web_sys::Event) {
    let Some(button) = dom::closest(ev, "button") else {
        return;
    };
    let number = |name| {
        button
            .get_attribute(name)
            .and_then(|d| d.parse::<i64>().ok())
    };
    if let Some(delta) = number("data-step") {
        g.move_by(delta);
    } else if button.has_attribute("data-play") {
        g.playing.update(|p| *p = !*p);
    } else if let Some(dir) = number("data-zoom") {
        let cell =
            g.at.with_untracked(|a| a.as_ref().map_or(MIN_CELL, |a| a.cell));
        g.view.set(View::Whole {
            cell: player::zoomed(cell, dir),
        });
        if let Some(root) = g.root.get_untracked()
            && let Some(select) = g.find(&root, "[name=view]")
        {
            set_value(&select, "whole");
        }
    }
}

/// The player's named controls ([`Control`]): scrub, depth, speed, values, view.
fn on_input(g: &Grid, ev: &web_sys::Event) {
    let Some(el) = dom::target(ev) else {
        return;
    };
    let Some(control) = el
        .get_attribute("name")
        .and_then(|n| Control::from_name(&n))
    else {
        return;
    };
    let value = dom::value(&el);
    match control {
        Control::Scrub => {
            if let Ok(row) = value.parse::<i64>() {
                g.playing.set(false);
                let step = g
                    .pic
                    .with_untracked(|p| p.as_ref().map_or(0, |p| player::scrubbed(p, row)));
                g.step.set(step);
            }
        }
        Control::Depth => {
            if let Ok(v) = value.parse::<i64>() {
                g.slice.set(v);
            }
        }
        Control::Speed => {
            if let Ok(v) = value.parse::<u64>() {
                g.speed_ms.set(v);
            }
        }
        Control::Values => g.values.set(checked(&el)),
        Control::View => g.view.set(player::view_of(&value)),
    }
}

/// Keys belong to the picture, not to its form controls (`picture::player::key`).
fn on_key(g: &Grid, ev: &web_sys::KeyboardEvent) {
    let in_control = dom::target(ev)
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "BUTTON"));
    let Some(action) = player::key(&ev.key(), in_control, g.row(), g.step.get_untracked()) else {
        return;
    };
    ev.prevent_default();
    match action {
        Key::TogglePlay => g.playing.update(|p| *p = !*p),
        Key::Move(delta) => g.move_by(delta),
    }
}

/// Hover: the cell under the pointer (from the cell element in SVG, from the position on the
/// canvas).
fn on_pointer(g: &Grid, ev: &web_sys::MouseEvent) {
    let Some(target) = dom::target(ev) else {
        return;
    };
    let now = if g.renderer.get_untracked() == Renderer::Canvas {
        // On the canvas there are no cell elements: the pointer position picks the cell.
        let Some(svg) = g
            .root
            .get_untracked()
            .and_then(|r| g.find(&r, "[data-testid=grid-svg]"))
        else {
            return;
        };
        let rect = svg.get_bounding_client_rect();
        g.at.with_untracked(|at| {
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
        let read =
            |el: &Element, name: &str| el.get_attribute(name).and_then(|v| v.parse::<i64>().ok());
        (|| {
            let (r, c) = (read(&target, "y")?, read(&target, "x")?);
            let panel = Panel::from_name(&target.parent_element()?.get_attribute("data-panel")?)?;
            g.pic.with_untracked(|p| {
                g.at.with_untracked(|at| block_cell(p.as_ref()?, at.as_ref()?, panel, r, c))
            })
        })()
    };
    if g.hover.get_untracked() != now {
        g.hover.set(now);
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
            Edit::Labels(labels) => {
                if let Some(g) = children.item(0) {
                    g.set_inner_html(&labels_svg(labels));
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
/// same CSS variables the SVG cells use (so dark mode follows), as the style table says for the
/// padding's `fill`.
fn paint_canvas(canvas: &web_sys::HtmlCanvasElement, scene: &Scene, at: &Layout, fill: Fill) {
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
                let look = c.kind.style_in(fill);
                let colour = colour(look.var);
                ctx.set_global_alpha(look.alpha);
                ctx.set_fill_style_str(&colour);
                ctx.set_stroke_style_str(&colour);
                current = Some(c.kind);
                outline = look.outline;
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
