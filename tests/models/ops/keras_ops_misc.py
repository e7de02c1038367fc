# One small model per group of operations a whole-model port must carry exactly (not part of
# the corpus run: `verify.py --dir tests/models/ops`).
# Keras layers a Keras port writes as themselves: separable and depthwise convolutions (with
# multipliers), grouped, bilinear and bicubic upsampling, Resizing, batch norm over a spatial axis,
# layer norm over three axes, group norm, crops and pads, 'same' pools, Rescaling, a causal Conv1D,
# 1-D transposed, depthwise and separable convolutions.
import keras
from keras import layers

inputs = keras.Input(shape=(12, 10, 6))
a = layers.SeparableConv2D(8, 3, depth_multiplier=2, padding="same", strides=2, activation="relu")(inputs)
b = layers.DepthwiseConv2D(3, depth_multiplier=3, dilation_rate=2, padding="same", use_bias=True)(inputs)
c = layers.Conv2D(12, 3, groups=3, padding="same", activation="swish")(inputs)
d = layers.UpSampling2D(2, interpolation="bilinear")(inputs)
e = layers.UpSampling2D((2, 3), interpolation="bicubic")(inputs)
f = layers.Resizing(7, 15)(inputs)
g = layers.BatchNormalization(axis=1, center=False)(inputs)
h = layers.LayerNormalization(axis=[1, 2, 3])(inputs)
i = layers.GroupNormalization(groups=3)(inputs)
j = layers.Conv2DTranspose(4, 3, strides=2, padding="same")(inputs)
k = layers.Permute((3, 1, 2))(inputs)
l = layers.Flatten()(k)
m = layers.Dense(5, activation="leaky_relu")(l)
n = layers.Activation("hard_sigmoid")(m)
o = layers.Cropping2D(((1, 2), (0, 3)))(inputs)
p = layers.ZeroPadding2D(((1, 0), (2, 1)))(o)
q = layers.AveragePooling2D(3, strides=2, padding="same")(inputs)
r = layers.MaxPooling2D(2, padding="same")(inputs)
s = layers.Rescaling(1.0 / 255, offset=-1)(inputs)
t = layers.Softmax(axis=1)(inputs)
u = layers.Reshape((120, 6))(inputs)
v = layers.Conv1D(4, 5, padding="causal", dilation_rate=2)(u)
w = layers.Conv1DTranspose(3, 4, strides=2, padding="same")(v)
x = layers.DepthwiseConv1D(3, depth_multiplier=2, padding="same")(w)
y = layers.SeparableConv1D(5, 3, padding="valid")(x)
z = layers.GlobalMaxPooling1D()(y)
model = keras.Model(inputs, [a, b, c, d, e, f, g, h, i, j, n, p, q, r, s, t, z])
