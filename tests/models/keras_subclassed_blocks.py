# padlab-input: 32x32x3
# padlab-model: SmallResNet(num_classes=10)
# A subclassed keras.Model built from custom layers: ConvBNReLU (Conv2D, BatchNormalization, ReLU
# held as attributes and called in `call`), a ResidualBlock layer whose shortcut is a strided 1x1
# ConvBNReLU when the stride or width changes and that adds with a layers.Add held as an
# attribute, and a LayerScale layer that only multiplies by a learned per-channel weight (a leaf).
# No input shape in the code: the model is built at 32x32x3.
# Style: the Keras guide "Making new layers and models via subclassing" and TF 2 repositories
# that write ResNets as Layer subclasses (`super().__init__(**kwargs)`, `training` passed on).
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


class ConvBNReLU(layers.Layer):
    def __init__(self, filters, kernel_size=3, strides=1, activation=True, **kwargs):
        super().__init__(**kwargs)
        self.conv = layers.Conv2D(filters, kernel_size, strides=strides, padding="same",
                                  use_bias=False)
        self.bn = layers.BatchNormalization()
        self.act = layers.ReLU() if activation else None

    def call(self, inputs, training=False):
        x = self.conv(inputs)
        x = self.bn(x, training=training)
        if self.act is not None:
            x = self.act(x)
        return x


class LayerScale(layers.Layer):
    """Multiplies its input by a learned per-channel scale."""

    def __init__(self, init_value=1e-2, **kwargs):
        super().__init__(**kwargs)
        self.init_value = init_value

    def build(self, input_shape):
        self.gamma = self.add_weight(
            shape=(input_shape[-1],),
            initializer=keras.initializers.Constant(self.init_value),
            trainable=True,
            name="gamma",
        )

    def call(self, inputs):
        return inputs * self.gamma


class ResidualBlock(layers.Layer):
    def __init__(self, filters, strides=1, **kwargs):
        super().__init__(**kwargs)
        self.filters = filters
        self.strides = strides
        self.conv1 = ConvBNReLU(filters, 3, strides=strides)
        self.conv2 = ConvBNReLU(filters, 3, activation=False)
        self.scale = LayerScale()
        self.add = layers.Add()
        self.relu = layers.ReLU()

    def build(self, input_shape):
        if self.strides != 1 or input_shape[-1] != self.filters:
            self.shortcut = ConvBNReLU(self.filters, 1, strides=self.strides, activation=False)
        else:
            self.shortcut = None

    def call(self, inputs, training=False):
        x = self.conv1(inputs, training=training)
        x = self.conv2(x, training=training)
        x = self.scale(x)
        shortcut = inputs if self.shortcut is None else self.shortcut(inputs, training=training)
        return self.relu(self.add([x, shortcut]))


class SmallResNet(keras.Model):
    def __init__(self, num_classes=10, widths=(32, 64, 128), **kwargs):
        super().__init__(**kwargs)
        self.stem = ConvBNReLU(widths[0], 3)
        self.blocks = []
        for i, w in enumerate(widths):
            self.blocks.append(ResidualBlock(w, strides=1 if i == 0 else 2))
            self.blocks.append(ResidualBlock(w))
        self.pool = layers.GlobalAveragePooling2D()
        self.classifier = layers.Dense(num_classes)

    def call(self, inputs, training=False):
        x = self.stem(inputs, training=training)
        for block in self.blocks:
            x = block(x, training=training)
        x = self.pool(x)
        return self.classifier(x)


if __name__ == "__main__":
    model = SmallResNet()
    model.build((None, 32, 32, 3))
    model.summary()
