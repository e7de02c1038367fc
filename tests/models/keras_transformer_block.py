# padlab-input: 16x32
# padlab-model: model
# A transformer encoder block for sequence classification: MultiHeadAttention(num_heads=4,
# key_dim=16) on the input as query and value, dropout, a residual and LayerNormalization, a
# feed-forward of Conv1D(kernel_size=1) layers, a second residual and norm, then
# GlobalAveragePooling1D and a softmax Dense. Style: the keras-io "Timeseries classification
# with a Transformer model" example, its block written as a function.
import keras
from keras import layers


def transformer_encoder(inputs, head_size, num_heads, ff_dim, dropout=0):
    x = layers.MultiHeadAttention(key_dim=head_size, num_heads=num_heads, dropout=dropout)(inputs, inputs)
    x = layers.Dropout(dropout)(x)
    x = layers.LayerNormalization(epsilon=1e-6)(x)
    res = x + inputs
    x = layers.Conv1D(filters=ff_dim, kernel_size=1, activation="relu")(res)
    x = layers.Dropout(dropout)(x)
    x = layers.Conv1D(filters=inputs.shape[-1], kernel_size=1)(x)
    x = layers.LayerNormalization(epsilon=1e-6)(x)
    return x + res


inputs = keras.Input(shape=(16, 32))
x = transformer_encoder(inputs, head_size=16, num_heads=4, ff_dim=64, dropout=0.1)
x = layers.GlobalAveragePooling1D(data_format="channels_last")(x)
x = layers.Dense(32, activation="relu")(x)
outputs = layers.Dense(3, activation="softmax")(x)
model = keras.Model(inputs, outputs)
