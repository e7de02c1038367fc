# padlab-model: build_wavenet()
# WaveNet-style causal stack on raw audio: a causal Conv1D, then residual blocks with a gated
# activation (tanh and sigmoid causal dilated convolutions multiplied), a 1x1 skip and a 1x1
# residual convolution added back; the skips of all blocks are summed with layers.add, ReLU,
# 1x1 convolutions and a per-step softmax over 256 mu-law levels. Dilations 1..32, two stacks.
# The last block's residual 1x1 convolution and add lead to no output, so Keras never runs them.
# Style: Keras WaveNet implementations from audio-generation repositories and blog posts.
from tensorflow import keras
from tensorflow.keras import layers


def residual_block(x, dilation_rate, filters=32, skip_channels=32):
    tanh_out = layers.Conv1D(filters, 2, dilation_rate=dilation_rate, padding="causal",
                             activation="tanh")(x)
    sigm_out = layers.Conv1D(filters, 2, dilation_rate=dilation_rate, padding="causal",
                             activation="sigmoid")(x)
    z = layers.Multiply()([tanh_out, sigm_out])
    skip = layers.Conv1D(skip_channels, 1)(z)
    res = layers.Conv1D(filters, 1)(z)
    return layers.add([x, res]), skip


def build_wavenet(seq_len=1024, n_stacks=2, dilations=(1, 2, 4, 8, 16, 32), filters=32,
                  quantization_channels=256):
    inputs = keras.Input(shape=(seq_len, 1))
    x = layers.Conv1D(filters, 2, padding="causal")(inputs)
    skips = []
    for _ in range(n_stacks):
        for d in dilations:
            x, skip = residual_block(x, d, filters=filters)
            skips.append(skip)
    out = layers.add(skips)
    out = layers.Activation("relu")(out)
    out = layers.Conv1D(filters, 1, activation="relu")(out)
    out = layers.Conv1D(quantization_channels, 1)(out)
    out = layers.Activation("softmax")(out)
    return keras.Model(inputs, out, name="wavenet")


model = build_wavenet()
print("receptive field:", 2 * sum((1, 2, 4, 8, 16, 32)) + 2)

if __name__ == "__main__":
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.summary()
