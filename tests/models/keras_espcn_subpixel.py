# padlab-input: 32x32x1
# padlab-model: get_model(upscale_factor=3, channels=1)
# Efficient sub-pixel super-resolution as the Keras examples write it: a custom DepthToSpace
# layer that reshapes with the run-time batch size (`b, h, w, c = ops.shape(x)`), transposes
# and reshapes back, convolutions built from a shared **conv_args dict, an inputs of (None,
# None, channels); and TensorFlow's own tf.nn.depth_to_space in a Lambda for the second head.
import keras
import tensorflow as tf
from keras import layers
from keras import ops


class DepthToSpace(layers.Layer):
    def __init__(self, block_size):
        super().__init__()
        self.block_size = block_size

    def call(self, input):
        batch, height, width, depth = ops.shape(input)
        depth = depth // (self.block_size**2)

        x = ops.reshape(
            input, [batch, height, width, self.block_size, self.block_size, depth]
        )
        x = ops.transpose(x, [0, 1, 3, 2, 4, 5])
        x = ops.reshape(
            x, [batch, height * self.block_size, width * self.block_size, depth]
        )
        return x


def get_model(upscale_factor=3, channels=1):
    conv_args = {
        "activation": "relu",
        "kernel_initializer": "orthogonal",
        "padding": "same",
    }
    inputs = keras.Input(shape=(None, None, channels))
    x = layers.Conv2D(64, 5, **conv_args)(inputs)
    x = layers.Conv2D(64, 3, **conv_args)(x)
    x = layers.Conv2D(32, 3, **conv_args)(x)
    x = layers.Conv2D(channels * (upscale_factor**2), 3, **conv_args)(x)
    outputs = DepthToSpace(upscale_factor)(x)
    tf_outputs = layers.Lambda(lambda t: tf.nn.depth_to_space(t, upscale_factor))(x)
    return keras.Model(inputs, [outputs, tf_outputs])


if __name__ == "__main__":
    model = get_model(upscale_factor=3, channels=1)
    model.summary()
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.001), loss=keras.losses.MeanSquaredError())
