# One small model per group of operations a whole-model port must carry exactly (not part of
# the corpus run: `verify.py --dir tests/models/ops`).
# 3-D Keras layers: grouped Conv3D, UpSampling3D, a 'same' AveragePooling3D, Conv3DTranspose,
# ZeroPadding3D, Cropping3D, a global pool keeping its axes.
import keras
from keras import layers

inputs = keras.Input(shape=(6, 7, 8, 4))
a = layers.Conv3D(8, 3, groups=2, padding="same", strides=2)(inputs)
b = layers.UpSampling3D((1, 2, 2))(inputs)
c = layers.AveragePooling3D(2, padding="same")(inputs)
d = layers.Conv3DTranspose(2, 3, strides=(1, 2, 2), padding="same")(inputs)
e = layers.ZeroPadding3D(1)(inputs)
f = layers.Cropping3D(((0, 1), (1, 1), (2, 0)))(inputs)
g = layers.GlobalAveragePooling3D(keepdims=True)(inputs)
model = keras.Model(inputs, [a, b, c, d, e, f, g])
