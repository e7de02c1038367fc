# padlab-input: 32x32x3
# ImageNet's per-channel statistics given to Normalization (as keras.applications.ConvNeXt does), then a strided 'same' conv.
import keras
from keras import layers

inputs = keras.Input(shape=(32, 32, 3))
x = layers.Normalization(
    mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
    variance=[(0.229 * 255) ** 2, (0.224 * 255) ** 2, (0.225 * 255) ** 2],
)(inputs)
x = layers.Conv2D(8, 3, strides=2, padding="same")(x)
x = layers.ReLU()(x)
x = layers.GlobalAveragePooling2D()(x)
outputs = layers.Dense(4)(x)
model = keras.Model(inputs, outputs)
