# padlab-model: build_unet()
# The original U-Net's layout with 'valid' 3x3 convolutions: the decoder's maps are smaller than
# the encoder's, so each skip is cut with Cropping2D to the upsampled size before concatenation;
# the crop is computed from the tensors' static shapes (uneven when the difference is odd).
# Three levels, 32 base filters, a 2-class 1x1 softmax head, 142x142 grayscale tiles (65 -> 32
# by the pool, so the middle skip is cropped by 33: 16 before, 17 after).
# Style: Keras ports of Ronneberger et al. found in segmentation repositories (a crop helper
# reading `.shape`, conv blocks from a function, filters doubled in a loop).
import keras
from keras import layers


def conv_block(x, filters):
    x = layers.Conv2D(filters, 3, activation="relu")(x)
    x = layers.Conv2D(filters, 3, activation="relu")(x)
    return x


def crop_to(skip, x):
    """Centre-crop `skip` to the spatial size of `x`."""
    dh = skip.shape[1] - x.shape[1]
    dw = skip.shape[2] - x.shape[2]
    return layers.Cropping2D(cropping=((dh // 2, dh - dh // 2), (dw // 2, dw - dw // 2)))(skip)


def build_unet(input_shape=(142, 142, 1), n_classes=2, base_filters=32, depth=3):
    inputs = keras.Input(shape=input_shape)
    x = inputs
    skips = []
    filters = base_filters
    for level in range(depth):
        x = conv_block(x, filters)
        skips.append(x)
        x = layers.MaxPooling2D(pool_size=2)(x)
        filters *= 2

    x = conv_block(x, filters)  # bottleneck

    for skip in reversed(skips):
        filters //= 2
        x = layers.Conv2DTranspose(filters, 2, strides=2)(x)
        x = layers.Concatenate(axis=-1)([crop_to(skip, x), x])
        x = conv_block(x, filters)

    outputs = layers.Conv2D(n_classes, 1, activation="softmax")(x)
    return keras.Model(inputs, outputs, name="unet_valid")


if __name__ == "__main__":
    model = build_unet()
    model.summary()
