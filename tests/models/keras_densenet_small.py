# padlab-model: DenseNet(blocks=(4, 4, 4), growth_rate=12)
# DenseNet-BC for 32x32 images: dense blocks where each conv_block (BN, ReLU, 1x1 Conv2D(4k),
# BN, ReLU, 3x3 Conv2D(k)) is concatenated onto its input, transition blocks (BN, ReLU, 1x1
# compression by 0.5, AveragePooling2D(2, strides=2)), a final BN + ReLU, global average pooling.
# Style: keras.applications-like densenet.py functions (dense_block / transition_block /
# conv_block with name prefixes, `x.shape[-1]` read to size the transition).
from keras import layers
from keras import Model, Input


def conv_block(x, growth_rate, name):
    x1 = layers.BatchNormalization(epsilon=1.001e-5, name=name + "_0_bn")(x)
    x1 = layers.Activation("relu", name=name + "_0_relu")(x1)
    x1 = layers.Conv2D(4 * growth_rate, 1, use_bias=False, name=name + "_1_conv")(x1)
    x1 = layers.BatchNormalization(epsilon=1.001e-5, name=name + "_1_bn")(x1)
    x1 = layers.Activation("relu", name=name + "_1_relu")(x1)
    x1 = layers.Conv2D(growth_rate, 3, padding="same", use_bias=False, name=name + "_2_conv")(x1)
    x = layers.Concatenate(axis=-1, name=name + "_concat")([x, x1])
    return x


def dense_block(x, blocks, growth_rate, name):
    for i in range(blocks):
        x = conv_block(x, growth_rate, name=name + "_block" + str(i + 1))
    return x


def transition_block(x, reduction, name):
    x = layers.BatchNormalization(epsilon=1.001e-5, name=name + "_bn")(x)
    x = layers.Activation("relu", name=name + "_relu")(x)
    x = layers.Conv2D(int(x.shape[-1] * reduction), 1, use_bias=False, name=name + "_conv")(x)
    x = layers.AveragePooling2D(2, strides=2, name=name + "_pool")(x)
    return x


def DenseNet(blocks=(6, 12, 24), growth_rate=12, input_shape=(32, 32, 3), classes=10):
    img_input = Input(shape=input_shape)
    x = layers.Conv2D(2 * growth_rate, 3, padding="same", use_bias=False, name="conv1_conv")(img_input)

    for i, n in enumerate(blocks):
        x = dense_block(x, n, growth_rate, name="conv%d" % (i + 2))
        if i != len(blocks) - 1:
            x = transition_block(x, 0.5, name="pool%d" % (i + 2))

    x = layers.BatchNormalization(epsilon=1.001e-5, name="bn")(x)
    x = layers.Activation("relu", name="relu")(x)
    x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    x = layers.Dense(classes, activation="softmax", name="predictions")(x)
    return Model(img_input, x, name="densenet_bc")
