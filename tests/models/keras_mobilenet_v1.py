# padlab-model: MobileNet(input_shape=(128, 128, 3), alpha=0.25, classes=10)
# MobileNet v1: a strided 3x3 Conv2D, then depthwise-separable blocks (DepthwiseConv2D + BN +
# ReLU(6.) + 1x1 Conv2D + BN + ReLU(6.)); the strided blocks pad ((0, 1), (0, 1)) with
# ZeroPadding2D and run the depthwise convolution 'valid'. Width multiplier alpha, named layers,
# a head of GlobalAveragePooling2D(keepdims=True), Dropout, 1x1 Conv2D, Reshape, softmax.
# Style: keras.applications' mobilenet.py (block functions with block_id, int(filters * alpha)).
import keras
from keras import layers


def _conv_block(inputs, filters, alpha, kernel=(3, 3), strides=(1, 1)):
    filters = int(filters * alpha)
    x = layers.Conv2D(filters, kernel, padding="same", use_bias=False, strides=strides,
                      name="conv1")(inputs)
    x = layers.BatchNormalization(name="conv1_bn")(x)
    return layers.ReLU(6.0, name="conv1_relu")(x)


def _depthwise_conv_block(inputs, pointwise_conv_filters, alpha, depth_multiplier=1,
                          strides=(1, 1), block_id=1):
    pointwise_conv_filters = int(pointwise_conv_filters * alpha)

    if strides == (1, 1):
        x = inputs
    else:
        x = layers.ZeroPadding2D(((0, 1), (0, 1)), name="conv_pad_%d" % block_id)(inputs)
    x = layers.DepthwiseConv2D(
        (3, 3),
        padding="same" if strides == (1, 1) else "valid",
        depth_multiplier=depth_multiplier,
        strides=strides,
        use_bias=False,
        name="conv_dw_%d" % block_id,
    )(x)
    x = layers.BatchNormalization(name="conv_dw_%d_bn" % block_id)(x)
    x = layers.ReLU(6.0, name="conv_dw_%d_relu" % block_id)(x)

    x = layers.Conv2D(pointwise_conv_filters, (1, 1), padding="same", use_bias=False,
                      strides=(1, 1), name="conv_pw_%d" % block_id)(x)
    x = layers.BatchNormalization(name="conv_pw_%d_bn" % block_id)(x)
    return layers.ReLU(6.0, name="conv_pw_%d_relu" % block_id)(x)


def MobileNet(input_shape=(224, 224, 3), alpha=1.0, depth_multiplier=1, dropout=1e-3,
              classes=1000):
    img_input = layers.Input(shape=input_shape)

    x = _conv_block(img_input, 32, alpha, strides=(2, 2))
    x = _depthwise_conv_block(x, 64, alpha, depth_multiplier, block_id=1)

    x = _depthwise_conv_block(x, 128, alpha, depth_multiplier, strides=(2, 2), block_id=2)
    x = _depthwise_conv_block(x, 128, alpha, depth_multiplier, block_id=3)

    x = _depthwise_conv_block(x, 256, alpha, depth_multiplier, strides=(2, 2), block_id=4)
    x = _depthwise_conv_block(x, 256, alpha, depth_multiplier, block_id=5)

    x = _depthwise_conv_block(x, 512, alpha, depth_multiplier, strides=(2, 2), block_id=6)
    for block_id in range(7, 12):
        x = _depthwise_conv_block(x, 512, alpha, depth_multiplier, block_id=block_id)

    x = _depthwise_conv_block(x, 1024, alpha, depth_multiplier, strides=(2, 2), block_id=12)
    x = _depthwise_conv_block(x, 1024, alpha, depth_multiplier, block_id=13)

    x = layers.GlobalAveragePooling2D(keepdims=True)(x)
    x = layers.Dropout(dropout, name="dropout")(x)
    x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
    x = layers.Reshape((classes,), name="reshape_2")(x)
    x = layers.Activation(activation="softmax", name="predictions")(x)

    return keras.Model(img_input, x, name="mobilenet_%0.2f_%s" % (alpha, input_shape[0]))
