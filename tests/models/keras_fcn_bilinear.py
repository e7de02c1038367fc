# padlab-model: build_fcn(num_classes=5)
# FCN-style segmentation net: a strided 'same' backbone (100x132 -> 50x66 -> 25x33 -> 13x17), a
# 1x1 classifier, UpSampling2D(interpolation="bilinear") by 2 on the deepest map, cropped to the
# stride-4 skip scores and added to them, then bilinear upsampling by 4, Activation("softmax")
# over the classes and Permute((3, 1, 2)) to a channels-first output for a PyTorch-side loss.
# Style: Keras FCN-8s/16s-like repositories (skip scores added after upsampling, the crop sizes
# read from the tensors' static shapes, so the input size is a parameter with a default).
import keras
from keras import layers


def conv_bn(x, filters, kernel_size=3, strides=1):
    x = layers.Conv2D(filters, kernel_size, strides=strides, padding="same", use_bias=False)(x)
    x = layers.BatchNormalization()(x)
    return layers.Activation("relu")(x)


def build_fcn(num_classes=21, input_shape=(100, 132, 3)):
    inputs = keras.Input(shape=input_shape)
    x = conv_bn(inputs, 32, strides=2)   # /2
    x = conv_bn(x, 32)
    x = conv_bn(x, 64, strides=2)        # /4
    pool4 = conv_bn(x, 64)
    x = conv_bn(pool4, 128, strides=2)   # /8
    x = conv_bn(x, 128)

    score_deep = layers.Conv2D(num_classes, 1)(x)
    score_deep = layers.UpSampling2D(size=2, interpolation="bilinear")(score_deep)
    score_skip = layers.Conv2D(num_classes, 1)(pool4)
    # 13 -> 26 rows after upsampling against 25 in the skip: crop the extra row/column
    dh = score_deep.shape[1] - score_skip.shape[1]
    dw = score_deep.shape[2] - score_skip.shape[2]
    score_deep = layers.Cropping2D(((0, dh), (0, dw)))(score_deep)
    x = layers.add([score_deep, score_skip])

    x = layers.UpSampling2D(size=(4, 4), interpolation="bilinear")(x)
    x = layers.Activation("softmax")(x)
    outputs = layers.Permute((3, 1, 2))(x)
    return keras.Model(inputs, outputs, name="fcn")


if __name__ == "__main__":
    model = build_fcn(num_classes=5)
    model.summary()
