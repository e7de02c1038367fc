# padlab-model: model
# A small GoogLeNet-style network assembled from nested Sequential blocks inside a functional
# model: an augmentation Sequential (identity at inference), a stem Sequential, inception modules
# whose four branches (1x1; 1x1 -> 3x3; 1x1 -> 5x5; 3x3 max pool stride 1 'same' -> 1x1) are each a
# keras.Sequential and are joined with Concatenate(axis=-1), strided max pools between them, and
# a classifier Sequential at the end.
# Style: Keras tutorials that compose named Sequential blocks in the functional API.
import keras
from keras import layers


def conv_bn(filters, kernel_size, strides=1, name=None):
    return keras.Sequential([
        layers.Conv2D(filters, kernel_size, strides=strides, padding="same", use_bias=False),
        layers.BatchNormalization(),
        layers.ReLU(),
    ], name=name)


def inception_module(x, f1, f3_reduce, f3, f5_reduce, f5, pool_proj, name):
    branch1 = conv_bn(f1, 1, name=f"{name}_1x1")(x)
    branch3 = keras.Sequential([conv_bn(f3_reduce, 1), conv_bn(f3, 3)], name=f"{name}_3x3")(x)
    branch5 = keras.Sequential([conv_bn(f5_reduce, 1), conv_bn(f5, 5)], name=f"{name}_5x5")(x)
    branch_pool = keras.Sequential([
        layers.MaxPooling2D(3, strides=1, padding="same"),
        conv_bn(pool_proj, 1),
    ], name=f"{name}_pool")(x)
    return layers.Concatenate(axis=-1, name=f"{name}_concat")([branch1, branch3, branch5, branch_pool])


augment = keras.Sequential([
    layers.RandomFlip("horizontal"),
    layers.RandomZoom(0.1),
], name="augment")

stem = keras.Sequential([
    layers.Conv2D(32, 5, strides=2, padding="same", activation="relu"),
    layers.MaxPooling2D(3, strides=2, padding="same"),
    layers.Conv2D(64, 1, activation="relu"),
    layers.Conv2D(96, 3, padding="same", activation="relu"),
], name="stem")

inputs = keras.Input(shape=(72, 72, 3))
x = augment(inputs)
x = stem(x)
x = inception_module(x, 32, 48, 64, 8, 16, 16, name="inc3a")
x = inception_module(x, 64, 64, 96, 16, 48, 32, name="inc3b")
x = layers.MaxPooling2D(3, strides=2, padding="same")(x)
x = inception_module(x, 96, 48, 104, 8, 24, 32, name="inc4a")

head = keras.Sequential([
    layers.GlobalAveragePooling2D(),
    layers.Dropout(0.4),
    layers.Dense(10, activation="softmax"),
], name="head")
outputs = head(x)

model = keras.Model(inputs, outputs, name="mini_googlenet")
model.summary(expand_nested=True)
