//! The web app (Leptos, client-side rendered, built by Trunk). Components are thin over pure
//! calls: the root owns the form (a [`CompactSpec`]); the spec and the answer are `Memo`s over
//! `compact` and `core`; the code and the plot come from a worker ([`generator`]).

mod answers;
mod below;
mod clipboard;
mod controls;
mod dom;
mod generator;
mod grid_view;
mod link;
pub mod model_page;
mod model_view;
mod paste_layer;
mod preset_bar;
mod summary;
mod tabs;
mod worker_link;

use leptos::prelude::*;

use crate::core::{Answer, LayerSpec, evaluate};
use crate::forms::compact::{CompactSpec, FieldError, LayerError};
use answers::Answers;
use below::Below;
use controls::Controls;
use generator::Generator;
use grid_view::GridView;
use link::{LinkBar, read_location, sync_url};
use model_view::ModelView;
use paste_layer::PasteLayer;
use preset_bar::PresetBar;
use summary::Summary;

/// The layer shown when the page opens (see [`crate::view::presets::default_layer`]).
pub fn default_form() -> CompactSpec {
    crate::view::presets::default_layer()
}

/// The whole page below the static header.
#[component]
pub fn App() -> impl IntoView {
    let loaded = read_location(&default_form());
    let form = RwSignal::new(loaded.spec);
    let notices = RwSignal::new(loaded.notices);
    sync_url(form, notices, default_form());
    let spec: Memo<Result<LayerSpec, FieldError>> =
        Memo::new(move |_| form.with(CompactSpec::to_spec));
    let answer: Memo<Result<Answer, LayerError>> = Memo::new(move |_| {
        spec.with(|s| match s {
            Ok(spec) => evaluate(spec).map_err(LayerError::Refused),
            Err(e) => Err(LayerError::Field(e.clone())),
        })
    });
    // The picture first: the panels below it, and the worker, start once it has been painted
    // (a frame, then a task), so a permalink's first grid does not wait for them.
    let typing = RwSignal::new(false);
    let painted = RwSignal::new(false);
    request_animation_frame(move || {
        set_timeout(move || painted.set(true), std::time::Duration::ZERO);
    });
    let generator = Generator::start(spec, painted);
    // A link to a model (`#view=model&model=...`) opens the Model view; the model is read back
    // by the view's module, loaded after the first picture when the link holds one.
    let hash = current_hash();
    let linked_model = !link::packed_model(&hash).is_empty();
    // The selected view: 0 one layer, 1 the whole model.
    let view = RwSignal::new(usize::from(link::opens_model_view(&hash)));
    let view_model = Signal::derive(move || view.get() == 1);
    // The fragment names the view; the model in it is the Model view's to write.
    Effect::new(move |_| {
        let shown = view_model.get();
        link::write_fragment(&link::fragment(shown, link::packed_model(&current_hash())));
    });
    let on_view_click = move |ev: leptos::ev::MouseEvent| {
        let tab = dom::closest(&ev, "[role=tab]");
        if let Some(i) = tab.as_ref().and_then(tabs::select) {
            view.set(i);
        }
    };
    let on_view_key = move |ev: leptos::ev::KeyboardEvent| {
        let tab = dom::target(&ev);
        if let Some(i) = tab.and_then(|t| tabs::key(&t, &ev.key())) {
            ev.prevent_default();
            view.set(i);
        }
    };
    view! {
        <nav class="views" aria-label="Views" on:click=on_view_click on:keydown=on_view_key inner_html=crate::view::panels::view_tabs(view.get_untracked() == 1).into_string()></nav>
        <div class="layer-view" id="view-layer-panel" role="tabpanel" aria-labelledby="view-tab-layer" hidden=view_model>
            <PresetBar form=form />
            <LinkBar notices=notices form=form />
            <div class="controls-column">
                <PasteLayer generator=generator form=form />
                <Controls form=form spec=spec typing=typing />
            </div>
            <div class="answer-first">
                <Summary answer=answer typing=typing />
                <Answers spec=spec />
            </div>
            <div class="results">
                <GridView spec=spec answer=answer />
                <Show when=move || painted.get()>
                    <Below generator=generator />
                </Show>
            </div>
        </div>
        <ModelView shown=view_model early=Signal::derive(move || linked_model && painted.get()) form=form view=view />
    }
}

/// The address's fragment, with its `#`.
fn current_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Replaces the static skeleton in `index.html` with the live app. A permalink's picture is
/// drawn into the skeleton first and painted before the app mounts (which takes tens of ms):
/// `index.html` carries the default layer's picture, a link's comes from the same function.
pub fn mount() {
    console_error_panic_hook::set_once();
    // The loader is an async module (Trunk.toml): it may run before the page has been parsed.
    if document().ready_state() == "loading" {
        let later = wasm_bindgen::closure::Closure::once_into_js(mount);
        let _ = document().add_event_listener_with_callback(
            "DOMContentLoaded",
            wasm_bindgen::JsCast::unchecked_ref(&later),
        );
        return;
    }
    let Some(root) = document().get_element_by_id("app") else {
        return;
    };
    if draw_linked_picture(&root) {
        request_animation_frame(move || {
            set_timeout(move || mount_app(root), std::time::Duration::ZERO);
        });
    } else {
        mount_app(root);
    }
}

/// Draws the picture of the layer the address names into the skeleton (in the place of the
/// default's, which `index.html` removed); false when there is no link or nothing to draw.
fn draw_linked_picture(root: &web_sys::Element) -> bool {
    // The head script of index.html marks a permalink (`<html data-link>`).
    let linked = document()
        .document_element()
        .is_some_and(|html| html.has_attribute("data-link"));
    if !linked {
        return false;
    }
    let Ok(spec) = read_location(&default_form()).spec.to_spec() else {
        return false;
    };
    let Ok(Some(results)) = root.query_selector(".results") else {
        return false;
    };
    // The app fits the picture to the column it sits in: the same width here.
    let width = i64::from(results.client_width()).max(160);
    let fit = crate::picture::Fit {
        width,
        max_height: crate::picture::player::MAX_HEIGHT,
        min_cell: crate::picture::player::MIN_CELL,
        view: crate::picture::View::Auto,
    };
    let Some(svg) =
        crate::picture::svg::prerendered_up_to(&spec, crate::picture::player::SVG_CELLS, &fit)
    else {
        return false;
    };
    results
        .insert_adjacent_html(
            "afterbegin",
            &format!(
                r#"<section class="grid skeleton" aria-label="Padding picture"><h2>The picture</h2>{svg}</section>"#
            ),
        )
        .is_ok()
}

fn mount_app(root: web_sys::Element) {
    root.set_inner_html("");
    // The skeleton marked the region busy for assistive technology until now.
    let _ = root.remove_attribute("aria-busy");
    if let Ok(root) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(root) {
        leptos::mount::mount_to(root, App).forget();
    }
}
