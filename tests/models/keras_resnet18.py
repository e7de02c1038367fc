# padlab-model: ResNet18(input_shape=(64, 64, 3), num_classes=200)
# ResNet-18 in the functional API: a 7x7 stride-2 'same' stem and a 3x3 stride-2 'same' max pool,
# four stages of two basic blocks (3x3 convs with BN and ReLU), the first block of stages 2-4
# strided with a 1x1 strided projection shortcut, layers.Add, global average pooling, Dense.
# Style: Keras ResNet ports in CIFAR / Tiny-ImageNet repositories (a block function with
# `downsample` flag, stages from a list of (filters, strides) in a for loop with enumerate).
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


def basic_block(x, filters, strides=1, downsample=False, name=None):
    identity = x
    out = layers.Conv2D(filters, 3, strides=strides, padding="same", use_bias=False,
                        name=f"{name}_conv1")(x)
    out = layers.BatchNormalization(name=f"{name}_bn1")(out)
    out = layers.ReLU(name=f"{name}_relu1")(out)
    out = layers.Conv2D(filters, 3, padding="same", use_bias=False, name=f"{name}_conv2")(out)
    out = layers.BatchNormalization(name=f"{name}_bn2")(out)
    if downsample:
        identity = layers.Conv2D(filters, 1, strides=strides, use_bias=False,
                                 name=f"{name}_down_conv")(x)
        identity = layers.BatchNormalization(name=f"{name}_down_bn")(identity)
    out = layers.Add(name=f"{name}_add")([out, identity])
    return layers.ReLU(name=f"{name}_out")(out)


def ResNet18(input_shape=(224, 224, 3), num_classes=1000):
    inputs = keras.Input(shape=input_shape)
    x = layers.Conv2D(64, 7, strides=2, padding="same", use_bias=False, name="conv1")(inputs)
    x = layers.BatchNormalization(name="bn1")(x)
    x = layers.ReLU(name="relu")(x)
    x = layers.MaxPooling2D(3, strides=2, padding="same", name="maxpool")(x)

    stages = [(64, 1), (128, 2), (256, 2), (512, 2)]
    for i, (filters, strides) in enumerate(stages):
        x = basic_block(x, filters, strides, downsample=(strides != 1), name=f"layer{i + 1}_0")
        x = basic_block(x, filters, name=f"layer{i + 1}_1")

    x = layers.GlobalAveragePooling2D(name="avgpool")(x)
    outputs = layers.Dense(num_classes, name="fc")(x)
    return keras.Model(inputs, outputs, name="resnet18")
