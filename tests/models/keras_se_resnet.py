# padlab-model: model
# Small SE-ResNet for 64x64 images: a strided 'same' stem, residual blocks whose second
# convolution output is recalibrated by squeeze-and-excitation (GlobalAveragePooling2D ->
# Reshape((1, 1, C)) -> Dense(C // ratio, relu) -> Dense(C, sigmoid) -> multiply), a strided
# 1x1 projection shortcut when the shape changes, Add, global average pooling, softmax.
# Style: squeeze-and-excitation blocks as Keras repositories write them (functions taking a
# tensor, `from tensorflow.keras.layers import ...`, filters and strides read in a loop).
from tensorflow.keras.layers import (Input, Conv2D, BatchNormalization, Activation, Dense,
                                     GlobalAveragePooling2D, Reshape, multiply, Add,
                                     MaxPooling2D)
from tensorflow.keras.models import Model


def squeeze_excite_block(input_tensor, ratio=8):
    filters = input_tensor.shape[-1]
    se_shape = (1, 1, filters)

    se = GlobalAveragePooling2D()(input_tensor)
    se = Reshape(se_shape)(se)
    se = Dense(filters // ratio, activation='relu', kernel_initializer='he_normal', use_bias=False)(se)
    se = Dense(filters, activation='sigmoid', kernel_initializer='he_normal', use_bias=False)(se)

    x = multiply([input_tensor, se])
    return x


def se_residual_block(x, filters, strides=1):
    shortcut = x
    y = Conv2D(filters, 3, strides=strides, padding='same', use_bias=False)(x)
    y = BatchNormalization()(y)
    y = Activation('relu')(y)
    y = Conv2D(filters, 3, padding='same', use_bias=False)(y)
    y = BatchNormalization()(y)
    y = squeeze_excite_block(y)
    if strides != 1 or shortcut.shape[-1] != filters:
        shortcut = Conv2D(filters, 1, strides=strides, padding='same', use_bias=False)(shortcut)
        shortcut = BatchNormalization()(shortcut)
    y = Add()([y, shortcut])
    return Activation('relu')(y)


def SEResNet(input_shape=(64, 64, 3), classes=10, stages=((32, 1), (64, 2), (128, 2))):
    img_input = Input(shape=input_shape)
    x = Conv2D(32, 5, strides=2, padding='same', use_bias=False)(img_input)
    x = BatchNormalization()(x)
    x = Activation('relu')(x)
    x = MaxPooling2D(3, strides=2, padding='same')(x)
    for filters, strides in stages:
        x = se_residual_block(x, filters, strides)
        x = se_residual_block(x, filters)
    x = GlobalAveragePooling2D()(x)
    x = Dense(classes, activation='softmax')(x)
    return Model(img_input, x, name='se_resnet')


model = SEResNet()
