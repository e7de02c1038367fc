# padlab-model: get_model(img_size, num_classes)
# U-Net-like segmentation network (Xception-style encoder): separable-conv blocks going down with
# strided 1x1 residual projections, Conv2DTranspose blocks going up with UpSampling2D and a
# 1x1-projected upsampled residual, per-pixel softmax over 3 classes.
# Style: the keras-io "Image segmentation with a U-Net-like architecture" (Oxford Pets) example.
import keras
from keras import layers

img_size = (160, 160)
num_classes = 3   # pet, background, outline


def get_model(img_size, num_classes):
    inputs = keras.Input(shape=img_size + (3,))

    # stem: 160 -> 80
    x = layers.Conv2D(32, 3, strides=2, padding="same")(inputs)
    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)
    block_input = x

    # encoder: each block halves the size; its input, projected, is added back
    for filters in [64, 128, 256]:
        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)
        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)
        x = layers.MaxPooling2D(3, strides=2, padding="same")(x)

        shortcut = layers.Conv2D(filters, 1, strides=2, padding="same")(block_input)
        x = layers.add([x, shortcut])
        block_input = x

    # decoder: each block doubles the size; the shortcut is upsampled then projected
    for filters in [256, 128, 64, 32]:
        x = layers.Activation("relu")(x)
        x = layers.Conv2DTranspose(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)
        x = layers.Activation("relu")(x)
        x = layers.Conv2DTranspose(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)
        x = layers.UpSampling2D(2)(x)

        shortcut = layers.UpSampling2D(2)(block_input)
        shortcut = layers.Conv2D(filters, 1, padding="same")(shortcut)
        x = layers.add([x, shortcut])
        block_input = x

    # class probabilities for every pixel
    outputs = layers.Conv2D(num_classes, 3, activation="softmax", padding="same")(x)
    return keras.Model(inputs, outputs)


model = get_model(img_size, num_classes)
model.summary()
