//! Whole models ported to Keras, pinned: four small corpus models (review changes with
//! `cargo insta review`), the facts that must never regress, and every corpus model through
//! the Keras writer (no panic; every layer name once, as Keras requires).

use padlab::core::Framework;
use padlab::model::port::{PortOptions, Ported};

#[path = "common/corpus.rs"]
mod corpus;
use corpus::{corpus_text, is_model, models_dir, port_paste};

#[macro_use]
#[path = "common/text.rs"]
mod text;

/// A corpus model ported to Keras, its `# padlab-input:` header as the input.
fn keras_port(file: &str, check: bool) -> Result<Ported, String> {
    port_paste(corpus_text(file), Framework::Keras, PortOptions { check })
}

fn code(file: &str) -> String {
    keras_port(file, false).unwrap().code
}

fn script(file: &str) -> String {
    keras_port(file, true).unwrap().script.unwrap()
}

#[test]
fn torch_resnet_stem_is_a_sequential_with_its_pads_as_layers() {
    let keras = code("torch_resnet_stem.py");
    assert_contains!(keras, "model = keras.Sequential([");
    // A max pool's padding is -inf, not zeros; torch's average counts its zero padding.
    assert_contains!(
        keras,
        "constant_values=float(\"-inf\")",
        "layers.ZeroPadding2D(((1, 1), (1, 1)), name=\"layer_4_pad\")",
        "momentum=0.9, epsilon=1e-05"
    );
    insta::assert_snapshot!(keras);
}

#[test]
fn torch_transposed_crops_the_full_output() {
    let keras = code("torch_transposed.py");
    assert_contains!(keras, "layers.Cropping2D(((4, 2), (4, 2))");
    insta::assert_snapshot!(keras);
    // Transposed kernels are [k..., out, in] in Keras, [in, out, k...] in torch.
    let check = script("torch_transposed.py");
    assert_contains!(
        check,
        "model.get_layer(\"layer_0\").set_weights([np.transpose(w, (2, 3, 1, 0)), b])"
    );
}

#[test]
fn torch_reflect_pads_by_mode() {
    let keras = code("torch_reflect.py");
    assert_contains!(keras, "mode=\"reflect\"", "\"replicate\"", "\"circular\"");
    insta::assert_snapshot!(keras);
}

#[test]
fn keras_toy_resnet_is_functional_with_the_sources_names() {
    let keras = code("keras_toy_resnet.py");
    assert_contains!(
        keras,
        "inputs = keras.Input(shape=(32, 32, 3)",
        "layers.Add(name=\"add\")([x, max_pooling2d])",
        "model = keras.Model(inputs, "
    );
    insta::assert_snapshot!(keras);
}

/// Every `name="..."` a Keras port gives its layers (and its inputs), comments left out.
fn layer_names(code: &str) -> Vec<String> {
    code.lines()
        .map(|l| l.split("  # ").next().unwrap_or(l))
        .flat_map(|l| l.split("name=\"").skip(1))
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_corpus_model_ports_to_keras_with_unique_layer_names() {
    let mut files: Vec<String> = std::fs::read_dir(models_dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py") && is_model(p))
        .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
        .collect();
    files.sort();
    let mut ported = 0;
    for file in &files {
        // A refusal is a typed error naming its line; a port must name each layer once.
        let Ok(p) = keras_port(file, true) else {
            continue;
        };
        ported += 1;
        let names = layer_names(&p.code);
        let mut seen = std::collections::HashSet::new();
        for n in &names {
            assert!(seen.insert(n), "{file}: layer name {n} used twice");
        }
        let script = p.script.unwrap();
        for def in script.lines().filter(|l| l.starts_with("def ")) {
            let count = script.lines().filter(|l| *l == def).count();
            assert_eq!(count, 1, "{file}: `{def}` defined {count} times");
        }
    }
    assert!(ported > 80, "only {ported} corpus models port to Keras");
}
