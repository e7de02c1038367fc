//! Whole-model ports to TensorFlow and JAX, pinned: small corpus models (review changes with
//! `cargo insta review`), plus assertions on the facts that must never regress. That they
//! compute what the source computes is `tests/models/verify.py`'s proof, in the frameworks.

use padlab::core::Framework;
use padlab::model::port::PortOptions;

#[path = "common/corpus.rs"]
mod corpus;
use corpus::{corpus_text, port_paste};

#[macro_use]
#[path = "common/text.rs"]
mod text;

/// The port of a corpus model (its `# padlab-input:` and `# padlab-model:` headers honoured).
fn ported(file: &str, target: Framework) -> String {
    ported_text(corpus_text(file), target)
}

/// The port of a paste (its `# padlab-input:` and `# padlab-model:` headers honoured).
fn ported_text(text: String, target: Framework) -> String {
    port_paste(text, target, PortOptions::default())
        .unwrap()
        .code
}

#[test]
fn lenet_to_tf_flattens_channels_last_and_reorders_the_dense_weights_instead() {
    let tf = ported("torch_tutorial_nn_lenet.py", Framework::Tf);
    // No transpose back to NCHW before the flatten: the dense layer's columns are reordered.
    assert_lacks!(tf, "tf.transpose");
    assert_contains!(tf, "def model(x, params):");
    insta::assert_snapshot!(tf);
}

#[test]
fn lenet_to_jax_is_lax_over_nchw_with_torch_layout_weights() {
    let jax = ported("torch_tutorial_nn_lenet.py", Framework::Jax);
    assert_contains!(jax, "(\"NCHW\", \"OIHW\", \"NCHW\")");
    insta::assert_snapshot!(jax);
}

#[test]
fn padding_layers_to_tf_crop_by_slicing_and_pad_explicitly() {
    let tf = ported("keras_padding_layers.py", Framework::Tf);
    assert_contains!(tf, "x = x[:, 1:, 2:-1]");
    insta::assert_snapshot!(tf);
}

#[test]
fn padding_layers_to_jax_pad_and_crop_the_spatial_axes_of_nchw() {
    let jax = ported("keras_padding_layers.py", Framework::Jax);
    // The input arrives channels first: no transpose, the pads and crops move with the axes.
    assert_lacks!(jax, "jnp.transpose");
    assert_contains!(jax, "x = x[:, :, 1:, 2:-1]");
    insta::assert_snapshot!(jax);
}

#[test]
fn transposed_convolutions_to_tf_and_jax_follow_their_single_layer_plans() {
    let tf = ported("torch_transposed.py", Framework::Tf);
    let jax = ported("torch_transposed.py", Framework::Jax);
    assert_contains!(tf, "tf.nn.conv_transpose");
    assert_contains!(jax, "transpose_kernel=True");
    insta::assert_snapshot!("torch_transposed_tf", tf);
    insta::assert_snapshot!("torch_transposed_jax", jax);
}

#[test]
fn a_bias_after_a_zero_extension_is_added_apart_and_groups_are_kept() {
    let paste = "# padlab-input: 4x6x5
model = nn.Sequential(
    nn.ConvTranspose2d(4, 2, (1, 3), stride=(3, 2), padding=(0, 1), output_padding=(2, 1)),
    nn.Conv2d(2, 4, 3, groups=2),
    nn.Conv2d(4, 6, 1, groups=2),
    nn.Conv2d(6, 12, 3, groups=6, stride=2, dilation=2),
)
";
    let tf = ported_text(paste.into(), Framework::Tf);
    // The zero rows torch's output padding appends hold the bias: it is added after the pad.
    let pad = tf.find("x = tf.pad(").expect("a pad");
    let bias = tf
        .find("x = x + params[\"layer_0\"][\"b\"]")
        .expect("the bias apart");
    assert!(pad < bias, "{tf}");
    // One input channel per group: tf.nn.depthwise_conv2d, except strided and dilated (which
    // it gets wrong): one convolution per group from the [k..., in, mult] kernel, as for
    // other groups.
    assert_contains!(
        tf,
        "tf.nn.depthwise_conv2d(x, params[\"layer_1\"][\"w\"]",
        "tf.split(params[\"layer_2\"][\"w\"], 2, axis=-1)",
        "tf.split(params[\"layer_3\"][\"w\"], 6, axis=-2)"
    );
    let jax = ported_text(paste.into(), Framework::Jax);
    assert_contains!(jax, "feature_group_count=6");
    let bias = jax.find("x + params[\"layer_0\"][\"b\"][:, None, None]");
    assert!(
        bias.is_some() || jax.contains("transpose_kernel=True) + params[\"layer_0\"]"),
        "{jax}"
    );
}
