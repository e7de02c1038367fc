# padlab's copy of the Keras Applications architectures (as of Keras 3.15), written in
# padlab's own words from the facts of Keras's code: the same builder signatures, the same
# layer names (`Conv1`, `block_1_expand`, `conv2_block1_1_conv`, `block1_conv1`) and model
# names (`mobilenetv2_1.00_224`, `resnet50`), the same layers in the same order, so that a
# paste's `base_model.get_layer(...)`, `base_model.trainable = False` and
# `base_model(inputs, training=False)` work as on the real models and the self-check copies
# weights by layer name. Images are channels-last (Keras's default). Nothing is ever
# downloaded: `weights="imagenet"` only changes what it changes in Keras (the classes must be
# 1000 with the top, the input must have 3 channels, EfficientNet scales its input once more).
#
# The self-check script builds the real `keras.applications` models (they come with Keras);
# this text is what padlab reads.
import math

import keras
from keras import layers


# ---- What every builder checks ----

def _check_weights(weights, include_top, classes):
    if not (weights in ("imagenet", None) or isinstance(weights, str)):
        raise ValueError(
            "The `weights` argument should be either `None` (random initialization), `imagenet` "
            f"(pre-training on ImageNet), or the path to the weights file to be loaded. Received: weights={weights}"
        )
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError(
            "If using `weights='imagenet'` with `include_top=True`, `classes` should be 1000. "
            f"Received: classes={classes}"
        )


def _check_activation(classifier_activation, weights):
    """Pretrained weights go with a softmax or no activation on the top layer."""
    if weights is None:
        return
    if classifier_activation not in ("softmax", None):
        raise ValueError(
            "Only `None` and `softmax` activations are allowed for the `classifier_activation` "
            "argument when using pretrained weights, with `include_top=True`; Received: "
            f"classifier_activation={classifier_activation}"
        )


def _image_shape(input_shape, default_size, min_size, include_top, weights):
    """The sample shape the model is built for, validated as Keras validates it: the
    pretrained size when the top is kept with ImageNet weights, else the given shape (sides
    of at least `min_size`), else open sides (the top needs them fixed)."""
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        default_shape = (default_size, default_size, input_shape[-1])
    else:
        default_shape = (default_size, default_size, 3)
    if weights == "imagenet" and include_top:
        if input_shape is not None and tuple(input_shape) != default_shape:
            raise ValueError(
                "When setting `include_top=True` and loading `imagenet` weights, `input_shape` "
                f"should be {default_shape}.  Received: input_shape={input_shape}"
            )
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError("`input_shape` must be a tuple of three integers.")
        if input_shape[-1] != 3 and weights == "imagenet":
            raise ValueError(f"The input must have 3 channels; Received `input_shape={input_shape}`")
        rows, cols = input_shape[0], input_shape[1]
        if (rows is not None and rows < min_size) or (cols is not None and cols < min_size):
            raise ValueError(
                f"Input size must be at least {min_size}x{min_size}; Received: input_shape={input_shape}"
            )
    elif include_top:
        input_shape = default_shape
    else:
        input_shape = (None, None, 3)
    if include_top and None in tuple(input_shape):
        raise ValueError(
            "If `include_top` is True, you should specify a static `input_shape`. "
            f"Received: input_shape={input_shape}"
        )
    return tuple(input_shape)


def _image_input(input_tensor, input_shape):
    """The model's input: a new Input, or the Keras tensor the paste passed (the model then
    starts at that tensor; Keras starts it at the Inputs that tensor came from, which the
    model's layers, rows and shapes do not depend on)."""
    if input_tensor is None:
        return layers.Input(shape=input_shape)
    return input_tensor


def _pooled(x, include_top, pooling, avg_name=None, max_name=None):
    """Without the top: the feature map, or its global average or maximum."""
    if include_top:
        return x
    if pooling == "avg":
        return layers.GlobalAveragePooling2D(name=avg_name)(x)
    if pooling == "max":
        return layers.GlobalMaxPooling2D(name=max_name)(x)
    return x


def _pad_for_stride(x, kernel_size):
    """The zero padding Keras puts before a stride-2 'valid' convolution: half the kernel on
    each side, one less before along an even side (Keras's `correct_pad`)."""
    rows, cols = x.shape[1], x.shape[2]
    if rows is None:
        less_rows, less_cols = 1, 1
    else:
        less_rows, less_cols = 1 - rows % 2, 1 - cols % 2
    half = kernel_size // 2
    return ((half - less_rows, half), (half - less_cols, half))


def _divisible(v, divisor, min_value=None):
    """`v` rounded to a multiple of `divisor`, never below `min_value` nor 10% below `v`."""
    if min_value is None:
        min_value = divisor
    rounded = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if rounded < 0.9 * v:
        rounded += divisor
    return rounded


# ---- preprocess_input, by mode ----

def preprocess_tf(x, data_format=None):
    """Pixels in [0, 255] to [-1, 1]."""
    x = x / 127.5
    return x - 1.0


def preprocess_torch(x, data_format=None):
    """Pixels to [0, 1], then each channel standardised with ImageNet's mean and deviation."""
    x = x / 255.0
    x = x + [-0.485, -0.456, -0.406]
    return x / [0.229, 0.224, 0.225]


def preprocess_caffe(x, data_format=None):
    """RGB to BGR, then ImageNet's mean pixel (BGR) subtracted; no scaling."""
    x = keras.ops.stack([x[..., 2], x[..., 1], x[..., 0]], axis=-1)
    return x + [-103.939, -116.779, -123.68]


def preprocess_identity(x, data_format=None):
    """The models that normalise their input themselves (EfficientNet) take pixels as they are."""
    return x


def preprocess_input(x, data_format=None, mode="caffe"):
    """`keras.applications.imagenet_utils.preprocess_input`."""
    if mode == "tf":
        return preprocess_tf(x)
    if mode == "torch":
        return preprocess_torch(x)
    if mode == "caffe":
        return preprocess_caffe(x)
    raise ValueError(f"Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode={mode}")


# ---- VGG ----

def _vgg(convs, include_top, weights, input_tensor, input_shape, pooling, classes,
         classifier_activation, name):
    _check_weights(weights, include_top, classes)
    input_shape = _image_shape(input_shape, 224, 32, include_top, weights)
    img_input = _image_input(input_tensor, input_shape)
    x = img_input
    widths = [64, 128, 256, 512, 512]
    for b in range(5):
        for c in range(convs[b]):
            x = layers.Conv2D(widths[b], (3, 3), activation="relu", padding="same",
                              name=f"block{b + 1}_conv{c + 1}")(x)
        x = layers.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{b + 1}_pool")(x)
    if include_top:
        x = layers.Flatten(name="flatten")(x)
        x = layers.Dense(4096, activation="relu", name="fc1")(x)
        x = layers.Dense(4096, activation="relu", name="fc2")(x)
        _check_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    x = _pooled(x, include_top, pooling)
    return keras.Model(img_input, x, name=name)


def VGG16(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
          pooling=None, classes=1000, classifier_activation="softmax", name="vgg16"):
    return _vgg([2, 2, 3, 3, 3], include_top, weights, input_tensor, input_shape, pooling,
                classes, classifier_activation, name)


def VGG19(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
          pooling=None, classes=1000, classifier_activation="softmax", name="vgg19"):
    return _vgg([2, 2, 4, 4, 4], include_top, weights, input_tensor, input_shape, pooling,
                classes, classifier_activation, name)


# ---- ResNet (v1: post-activation bottlenecks; v2: pre-activation) ----

def _bn(x, name):
    return layers.BatchNormalization(axis=3, epsilon=1.001e-5, name=name)(x)


def _bottleneck_v1(x, filters, stride=1, projection=True, name=None):
    if projection:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(x)
        shortcut = _bn(shortcut, f"{name}_0_bn")
    else:
        shortcut = x
    x = layers.Conv2D(filters, 1, strides=stride, name=f"{name}_1_conv")(x)
    x = _bn(x, f"{name}_1_bn")
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.Conv2D(filters, 3, padding="SAME", name=f"{name}_2_conv")(x)
    x = _bn(x, f"{name}_2_bn")
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    x = _bn(x, f"{name}_3_bn")
    x = layers.Add(name=f"{name}_add")([shortcut, x])
    return layers.Activation("relu", name=f"{name}_out")(x)


def _stage_v1(x, filters, blocks, stride=2, name=None):
    x = _bottleneck_v1(x, filters, stride=stride, name=f"{name}_block1")
    for i in range(2, blocks + 1):
        x = _bottleneck_v1(x, filters, projection=False, name=f"{name}_block{i}")
    return x


def _bottleneck_v2(x, filters, stride=1, projection=False, name=None):
    preact = _bn(x, f"{name}_preact_bn")
    preact = layers.Activation("relu", name=f"{name}_preact_relu")(preact)
    if projection:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(preact)
    elif stride > 1:
        shortcut = layers.MaxPooling2D(1, strides=stride)(x)
    else:
        shortcut = x
    x = layers.Conv2D(filters, 1, strides=1, use_bias=False, name=f"{name}_1_conv")(preact)
    x = _bn(x, f"{name}_1_bn")
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name=f"{name}_2_pad")(x)
    x = layers.Conv2D(filters, 3, strides=stride, use_bias=False, name=f"{name}_2_conv")(x)
    x = _bn(x, f"{name}_2_bn")
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return layers.Add(name=f"{name}_out")([shortcut, x])


def _stage_v2(x, filters, blocks, stride=2, name=None):
    """v2 stages downsample in their last block (its shortcut a 1x1 max pooling)."""
    x = _bottleneck_v2(x, filters, projection=True, name=f"{name}_block1")
    for i in range(2, blocks):
        x = _bottleneck_v2(x, filters, name=f"{name}_block{i}")
    return _bottleneck_v2(x, filters, stride=stride, name=f"{name}_block{blocks}")


def _resnet(depths, preact, include_top, weights, input_tensor, input_shape, pooling, classes,
            classifier_activation, name):
    _check_weights(weights, include_top, classes)
    input_shape = _image_shape(input_shape, 224, 32, include_top, weights)
    img_input = _image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=True, name="conv1_conv")(x)
    if not preact:
        x = _bn(x, "conv1_bn")
        x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    widths = [64, 128, 256, 512]
    for s in range(4):
        stage = f"conv{s + 2}"
        if preact:
            x = _stage_v2(x, widths[s], depths[s], stride=1 if s == 3 else 2, name=stage)
        else:
            x = _stage_v1(x, widths[s], depths[s], stride=1 if s == 0 else 2, name=stage)
    if preact:
        x = _bn(x, "post_bn")
        x = layers.Activation("relu", name="post_relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        _check_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    x = _pooled(x, include_top, pooling, "avg_pool", "max_pool")
    return keras.Model(img_input, x, name=name)


def ResNet50(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
             pooling=None, classes=1000, classifier_activation="softmax", name="resnet50"):
    return _resnet([3, 4, 6, 3], False, include_top, weights, input_tensor, input_shape,
                   pooling, classes, classifier_activation, name)


def ResNet101(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
              pooling=None, classes=1000, classifier_activation="softmax", name="resnet101"):
    return _resnet([3, 4, 23, 3], False, include_top, weights, input_tensor, input_shape,
                   pooling, classes, classifier_activation, name)


def ResNet152(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
              pooling=None, classes=1000, classifier_activation="softmax", name="resnet152"):
    return _resnet([3, 8, 36, 3], False, include_top, weights, input_tensor, input_shape,
                   pooling, classes, classifier_activation, name)


def ResNet50V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
               pooling=None, classes=1000, classifier_activation="softmax", name="resnet50v2"):
    return _resnet([3, 4, 6, 3], True, include_top, weights, input_tensor, input_shape,
                   pooling, classes, classifier_activation, name)


def ResNet101V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax", name="resnet101v2"):
    return _resnet([3, 4, 23, 3], True, include_top, weights, input_tensor, input_shape,
                   pooling, classes, classifier_activation, name)


def ResNet152V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax", name="resnet152v2"):
    return _resnet([3, 8, 36, 3], True, include_top, weights, input_tensor, input_shape,
                   pooling, classes, classifier_activation, name)


# ---- MobileNet (v1) ----

def _mobilenet_size(input_shape, sizes):
    """The side Keras names the model after: the given square side when it has weights at
    that size, else 224."""
    if input_shape is None:
        return 224
    rows, cols = input_shape[0], input_shape[1]
    if rows == cols and rows in sizes:
        return rows
    return 224


def _separable_block(x, filters, alpha, depth_multiplier, strides, block_id):
    filters = int(filters * alpha)
    if strides != (1, 1):
        x = layers.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(x)
    x = layers.DepthwiseConv2D((3, 3), padding="same" if strides == (1, 1) else "valid",
                               depth_multiplier=depth_multiplier, strides=strides,
                               use_bias=False, name=f"conv_dw_{block_id}")(x)
    x = layers.BatchNormalization(axis=-1, name=f"conv_dw_{block_id}_bn")(x)
    x = layers.ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = layers.Conv2D(filters, (1, 1), padding="same", use_bias=False, strides=(1, 1),
                      name=f"conv_pw_{block_id}")(x)
    x = layers.BatchNormalization(axis=-1, name=f"conv_pw_{block_id}_bn")(x)
    return layers.ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)


def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3, include_top=True,
              weights="imagenet", input_tensor=None, pooling=None, classes=1000,
              classifier_activation="softmax", name=None):
    _check_weights(weights, include_top, classes)
    default_size = _mobilenet_size(input_shape, [128, 160, 192, 224])
    input_shape = _image_shape(input_shape, default_size, 32, include_top, weights)
    rows, cols = input_shape[0], input_shape[1]
    if weights == "imagenet":
        if depth_multiplier != 1:
            raise ValueError(
                f"If imagenet weights are being loaded, depth multiplier must be 1. Received depth_multiplier={depth_multiplier}"
            )
        if alpha not in [0.25, 0.50, 0.75, 1.0]:
            raise ValueError(
                f"If imagenet weights are being loaded, alpha can be one of `0.25`, `0.50`, `0.75` or `1.0` only. Received alpha={alpha}"
            )
        if rows != cols or rows not in [128, 160, 192, 224]:
            rows = 224
    img_input = _image_input(input_tensor, input_shape)
    x = layers.Conv2D(int(32 * alpha), (3, 3), padding="same", use_bias=False, strides=(2, 2),
                      name="conv1")(img_input)
    x = layers.BatchNormalization(axis=-1, name="conv1_bn")(x)
    x = layers.ReLU(6.0, name="conv1_relu")(x)
    # (pointwise filters, stride) of blocks 1..13
    plan = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1),
            (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1)]
    for i in range(len(plan)):
        filters, stride = plan[i]
        x = _separable_block(x, filters, alpha, depth_multiplier, (stride, stride), i + 1)
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Dropout(dropout, name="dropout")(x)
        x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = layers.Reshape((classes,), name="reshape_2")(x)
        _check_activation(classifier_activation, weights)
        x = layers.Activation(activation=classifier_activation, name="predictions")(x)
    x = _pooled(x, include_top, pooling)
    if name is None:
        name = f"mobilenet_{alpha:0.2f}_{rows}"
    return keras.Model(img_input, x, name=name)


# ---- MobileNetV2 ----

def _inverted_residual(inputs, expansion, stride, alpha, filters, block_id):
    in_channels = inputs.shape[-1]
    out_channels = _divisible(int(filters * alpha), 8)
    x = inputs
    if block_id:
        prefix = f"block_{block_id}_"
        x = layers.Conv2D(expansion * in_channels, kernel_size=1, padding="same", use_bias=False,
                          activation=None, name=f"{prefix}expand")(x)
        x = layers.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999,
                                      name=f"{prefix}expand_BN")(x)
        x = layers.ReLU(6.0, name=f"{prefix}expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = layers.ZeroPadding2D(padding=_pad_for_stride(x, 3), name=f"{prefix}pad")(x)
    x = layers.DepthwiseConv2D(kernel_size=3, strides=stride, activation=None, use_bias=False,
                               padding="same" if stride == 1 else "valid",
                               name=f"{prefix}depthwise")(x)
    x = layers.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999,
                                  name=f"{prefix}depthwise_BN")(x)
    x = layers.ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = layers.Conv2D(out_channels, kernel_size=1, padding="same", use_bias=False,
                      activation=None, name=f"{prefix}project")(x)
    x = layers.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999,
                                  name=f"{prefix}project_BN")(x)
    if in_channels == out_channels and stride == 1:
        return layers.Add(name=f"{prefix}add")([inputs, x])
    return x


def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet",
                input_tensor=None, pooling=None, classes=1000,
                classifier_activation="softmax", name=None):
    _check_weights(weights, include_top, classes)
    sizes = [96, 128, 160, 192, 224]
    if input_shape is None and input_tensor is not None:
        side = input_tensor.shape[1]
        default_size = side if side == input_tensor.shape[2] and side in sizes else 224
    else:
        default_size = _mobilenet_size(input_shape, sizes)
    input_shape = _image_shape(input_shape, default_size, 32, include_top, weights)
    rows, cols = input_shape[0], input_shape[1]
    if weights == "imagenet":
        if alpha not in [0.35, 0.50, 0.75, 1.0, 1.3, 1.4]:
            raise ValueError(
                "If imagenet weights are being loaded, alpha must be one of `0.35`, `0.50`, "
                f"`0.75`, `1.0`, `1.3` or `1.4` only; Received `alpha={alpha}`"
            )
        if rows != cols or rows not in sizes:
            rows = 224
    img_input = _image_input(input_tensor, input_shape)
    x = layers.Conv2D(_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2), padding="same",
                      use_bias=False, name="Conv1")(img_input)
    x = layers.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name="bn_Conv1")(x)
    x = layers.ReLU(6.0, name="Conv1_relu")(x)
    # (filters, stride, expansion) of blocks 0..16
    plan = [(16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6),
            (64, 2, 6), (64, 1, 6), (64, 1, 6), (64, 1, 6), (96, 1, 6), (96, 1, 6),
            (96, 1, 6), (160, 2, 6), (160, 1, 6), (160, 1, 6), (320, 1, 6)]
    for i in range(len(plan)):
        filters, stride, expansion = plan[i]
        x = _inverted_residual(x, filters=filters, alpha=alpha, stride=stride,
                               expansion=expansion, block_id=i)
    last = _divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = layers.Conv2D(last, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = layers.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name="Conv_1_bn")(x)
    x = layers.ReLU(6.0, name="out_relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        _check_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    x = _pooled(x, include_top, pooling)
    if name is None:
        name = f"mobilenetv2_{alpha:0.2f}_{rows}"
    return keras.Model(img_input, x, name=name)


# ---- DenseNet ----

def _dense_layer(x, growth_rate, name):
    y = _bn(x, f"{name}_0_bn")
    y = layers.Activation("relu", name=f"{name}_0_relu")(y)
    y = layers.Conv2D(4 * growth_rate, 1, use_bias=False, name=f"{name}_1_conv")(y)
    y = _bn(y, f"{name}_1_bn")
    y = layers.Activation("relu", name=f"{name}_1_relu")(y)
    y = layers.Conv2D(growth_rate, 3, padding="same", use_bias=False, name=f"{name}_2_conv")(y)
    return layers.Concatenate(axis=3, name=f"{name}_concat")([x, y])


def _transition(x, reduction, name):
    x = _bn(x, f"{name}_bn")
    x = layers.Activation("relu", name=f"{name}_relu")(x)
    x = layers.Conv2D(int(x.shape[3] * reduction), 1, use_bias=False, name=f"{name}_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def _densenet(blocks, include_top, weights, input_tensor, input_shape, pooling, classes,
              classifier_activation, name):
    _check_weights(weights, include_top, classes)
    input_shape = _image_shape(input_shape, 224, 32, include_top, weights)
    img_input = _image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = _bn(x, "conv1_bn")
    x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for s in range(4):
        for i in range(blocks[s]):
            x = _dense_layer(x, 32, name=f"conv{s + 2}_block{i + 1}")
        if s < 3:
            x = _transition(x, 0.5, name=f"pool{s + 2}")
    x = _bn(x, "bn")
    x = layers.Activation("relu", name="relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        _check_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    x = _pooled(x, include_top, pooling, "avg_pool", "max_pool")
    return keras.Model(img_input, x, name=name)


def DenseNet121(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax", name="densenet121"):
    return _densenet([6, 12, 24, 16], include_top, weights, input_tensor, input_shape, pooling,
                     classes, classifier_activation, name)


def DenseNet169(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax", name="densenet169"):
    return _densenet([6, 12, 32, 32], include_top, weights, input_tensor, input_shape, pooling,
                     classes, classifier_activation, name)


def DenseNet201(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax", name="densenet201"):
    return _densenet([6, 12, 48, 32], include_top, weights, input_tensor, input_shape, pooling,
                     classes, classifier_activation, name)


# ---- Inception v3 ----

def _conv_bn(x, filters, rows, cols, padding="same", strides=(1, 1), name=None):
    """Convolution without bias, batch norm without scale, ReLU (named after `name` when
    given, else left to Keras's automatic names)."""
    x = layers.Conv2D(filters, (rows, cols), strides=strides, padding=padding, use_bias=False,
                      name=None if name is None else f"{name}_conv")(x)
    x = layers.BatchNormalization(axis=3, scale=False,
                                  name=None if name is None else f"{name}_bn")(x)
    return layers.Activation("relu", name=name)(x)


def _same_avg_pool(x):
    return layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x)


def _inception_a(x, pool_filters, name):
    one = _conv_bn(x, 64, 1, 1)
    five = _conv_bn(x, 48, 1, 1)
    five = _conv_bn(five, 64, 5, 5)
    three = _conv_bn(x, 64, 1, 1)
    three = _conv_bn(three, 96, 3, 3)
    three = _conv_bn(three, 96, 3, 3)
    pool = _conv_bn(_same_avg_pool(x), pool_filters, 1, 1)
    return layers.concatenate([one, five, three, pool], axis=3, name=name)


def _inception_c(x, width, name):
    """The 17x17 blocks: 7x7 convolutions factored into 1x7 and 7x1."""
    one = _conv_bn(x, 192, 1, 1)
    seven = _conv_bn(x, width, 1, 1)
    seven = _conv_bn(seven, width, 1, 7)
    seven = _conv_bn(seven, 192, 7, 1)
    double = _conv_bn(x, width, 1, 1)
    double = _conv_bn(double, width, 7, 1)
    double = _conv_bn(double, width, 1, 7)
    double = _conv_bn(double, width, 7, 1)
    double = _conv_bn(double, 192, 1, 7)
    pool = _conv_bn(_same_avg_pool(x), 192, 1, 1)
    return layers.concatenate([one, seven, double, pool], axis=3, name=name)


def InceptionV3(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                pooling=None, classes=1000, classifier_activation="softmax",
                name="inception_v3"):
    _check_weights(weights, include_top, classes)
    input_shape = _image_shape(input_shape, 299, 75, include_top, weights)
    img_input = _image_input(input_tensor, input_shape)
    x = _conv_bn(img_input, 32, 3, 3, strides=(2, 2), padding="valid")
    x = _conv_bn(x, 32, 3, 3, padding="valid")
    x = _conv_bn(x, 64, 3, 3)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = _conv_bn(x, 80, 1, 1, padding="valid")
    x = _conv_bn(x, 192, 3, 3, padding="valid")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)

    x = _inception_a(x, 32, "mixed0")
    x = _inception_a(x, 64, "mixed1")
    x = _inception_a(x, 64, "mixed2")

    # 35x35 -> 17x17
    three = _conv_bn(x, 384, 3, 3, strides=(2, 2), padding="valid")
    double = _conv_bn(x, 64, 1, 1)
    double = _conv_bn(double, 96, 3, 3)
    double = _conv_bn(double, 96, 3, 3, strides=(2, 2), padding="valid")
    pool = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = layers.concatenate([three, double, pool], axis=3, name="mixed3")

    x = _inception_c(x, 128, "mixed4")
    x = _inception_c(x, 160, "mixed5")
    x = _inception_c(x, 160, "mixed6")
    x = _inception_c(x, 192, "mixed7")

    # 17x17 -> 8x8
    three = _conv_bn(x, 192, 1, 1)
    three = _conv_bn(three, 320, 3, 3, strides=(2, 2), padding="valid")
    seven = _conv_bn(x, 192, 1, 1)
    seven = _conv_bn(seven, 192, 1, 7)
    seven = _conv_bn(seven, 192, 7, 1)
    seven = _conv_bn(seven, 192, 3, 3, strides=(2, 2), padding="valid")
    pool = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = layers.concatenate([three, seven, pool], axis=3, name="mixed8")

    for i in range(2):
        one = _conv_bn(x, 320, 1, 1)
        three = _conv_bn(x, 384, 1, 1)
        three_a = _conv_bn(three, 384, 1, 3)
        three_b = _conv_bn(three, 384, 3, 1)
        three = layers.concatenate([three_a, three_b], axis=3, name=f"mixed9_{i}")
        double = _conv_bn(x, 448, 1, 1)
        double = _conv_bn(double, 384, 3, 3)
        double_a = _conv_bn(double, 384, 1, 3)
        double_b = _conv_bn(double, 384, 3, 1)
        double = layers.concatenate([double_a, double_b], axis=3)
        pool = _conv_bn(_same_avg_pool(x), 192, 1, 1)
        x = layers.concatenate([one, three, double, pool], axis=3, name=f"mixed{9 + i}")
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        _check_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    x = _pooled(x, include_top, pooling)
    return keras.Model(img_input, x, name=name)


# ---- Xception ----

def _sep_bn(x, filters, name):
    x = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(x)
    return layers.BatchNormalization(axis=-1, name=f"{name}_bn")(x)


def _xception_down(x, filters, block, first_relu=True, first_filters=None):
    """An entry/exit block: two separable convolutions and a stride-2 max pooling, added to
    a stride-2 1x1 projection of the block's input (its layers named automatically)."""
    residual = layers.Conv2D(filters, (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    residual = layers.BatchNormalization(axis=-1)(residual)
    if first_relu:
        x = layers.Activation("relu", name=f"block{block}_sepconv1_act")(x)
    x = _sep_bn(x, first_filters or filters, f"block{block}_sepconv1")
    x = layers.Activation("relu", name=f"block{block}_sepconv2_act")(x)
    x = _sep_bn(x, filters, f"block{block}_sepconv2")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name=f"block{block}_pool")(x)
    return layers.add([x, residual])


def Xception(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
             pooling=None, classes=1000, classifier_activation="softmax", name="xception"):
    _check_weights(weights, include_top, classes)
    input_shape = _image_shape(input_shape, 299, 71, include_top, weights)
    img_input = _image_input(input_tensor, input_shape)
    x = layers.Conv2D(32, (3, 3), strides=(2, 2), use_bias=False, name="block1_conv1")(img_input)
    x = layers.BatchNormalization(axis=-1, name="block1_conv1_bn")(x)
    x = layers.Activation("relu", name="block1_conv1_act")(x)
    x = layers.Conv2D(64, (3, 3), use_bias=False, name="block1_conv2")(x)
    x = layers.BatchNormalization(axis=-1, name="block1_conv2_bn")(x)
    x = layers.Activation("relu", name="block1_conv2_act")(x)

    x = _xception_down(x, 128, 2, first_relu=False)
    x = _xception_down(x, 256, 3)
    x = _xception_down(x, 728, 4)

    for i in range(8):
        residual = x
        prefix = f"block{i + 5}"
        for c in range(1, 4):
            x = layers.Activation("relu", name=f"{prefix}_sepconv{c}_act")(x)
            x = _sep_bn(x, 728, f"{prefix}_sepconv{c}")
        x = layers.add([x, residual])

    x = _xception_down(x, 1024, 13, first_filters=728)

    x = _sep_bn(x, 1536, "block14_sepconv1")
    x = layers.Activation("relu", name="block14_sepconv1_act")(x)
    x = _sep_bn(x, 2048, "block14_sepconv2")
    x = layers.Activation("relu", name="block14_sepconv2_act")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        _check_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    x = _pooled(x, include_top, pooling)
    return keras.Model(img_input, x, name=name)


# ---- EfficientNet (B0-B7) ----

# The B0 stages: (kernel, repeats, filters in, filters out, expansion, stride); every block
# has a squeeze-and-excitation of a quarter of its input width and an identity skip when
# the shapes allow.
_EFFICIENTNET_STAGES = [
    (3, 1, 32, 16, 1, 1),
    (3, 2, 16, 24, 6, 2),
    (5, 2, 24, 40, 6, 2),
    (3, 3, 40, 80, 6, 2),
    (5, 3, 80, 112, 6, 1),
    (5, 4, 112, 192, 6, 2),
    (3, 1, 192, 320, 6, 1),
]

# ImageNet's per-channel standard deviations (RGB): with the ImageNet weights, the input is
# divided once more by their square roots after the Normalization layer.
_IMAGENET_STD = [0.229, 0.224, 0.225]


def _mb_conv(inputs, activation, drop_rate, name, filters_in, filters_out, kernel_size,
             strides, expand_ratio, se_ratio=0.25):
    filters = filters_in * expand_ratio
    if expand_ratio != 1:
        x = layers.Conv2D(filters, 1, padding="same", use_bias=False, name=f"{name}expand_conv")(inputs)
        x = layers.BatchNormalization(axis=3, name=f"{name}expand_bn")(x)
        x = layers.Activation(activation, name=f"{name}expand_activation")(x)
    else:
        x = inputs
    if strides == 2:
        x = layers.ZeroPadding2D(padding=_pad_for_stride(x, kernel_size), name=f"{name}dwconv_pad")(x)
        padding = "valid"
    else:
        padding = "same"
    x = layers.DepthwiseConv2D(kernel_size, strides=strides, padding=padding, use_bias=False,
                               name=f"{name}dwconv")(x)
    x = layers.BatchNormalization(axis=3, name=f"{name}bn")(x)
    x = layers.Activation(activation, name=f"{name}activation")(x)
    squeezed = max(1, int(filters_in * se_ratio))
    se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se = layers.Reshape((1, 1, filters), name=f"{name}se_reshape")(se)
    se = layers.Conv2D(squeezed, 1, padding="same", activation=activation, name=f"{name}se_reduce")(se)
    se = layers.Conv2D(filters, 1, padding="same", activation="sigmoid", name=f"{name}se_expand")(se)
    x = layers.multiply([x, se], name=f"{name}se_excite")
    x = layers.Conv2D(filters_out, 1, padding="same", use_bias=False, name=f"{name}project_conv")(x)
    x = layers.BatchNormalization(axis=3, name=f"{name}project_bn")(x)
    if strides == 1 and filters_in == filters_out:
        if drop_rate > 0:
            x = layers.Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = layers.add([x, inputs], name=f"{name}add")
    return x


def _efficientnet(width, depth, default_size, dropout_rate, name, include_top, weights,
                  input_tensor, input_shape, pooling, classes, classifier_activation):
    _check_weights(weights, include_top, classes)
    input_shape = _image_shape(input_shape, default_size, 32, include_top, weights)
    img_input = _image_input(input_tensor, input_shape)
    drop_connect_rate = 0.2
    activation = "swish"

    def widen(filters):
        return int(_divisible(filters * width, 8))

    def deepen(repeats):
        return int(math.ceil(depth * repeats))

    x = layers.Rescaling(1.0 / 255.0)(img_input)
    x = layers.Normalization(axis=3)(x)
    if weights == "imagenet":
        x = layers.Rescaling([1.0 / math.sqrt(s) for s in _IMAGENET_STD])(x)
    x = layers.ZeroPadding2D(padding=_pad_for_stride(x, 3), name="stem_conv_pad")(x)
    x = layers.Conv2D(widen(32), 3, strides=2, padding="valid", use_bias=False, name="stem_conv")(x)
    x = layers.BatchNormalization(axis=3, name="stem_bn")(x)
    x = layers.Activation(activation, name="stem_activation")(x)
    total = float(sum([deepen(stage[1]) for stage in _EFFICIENTNET_STAGES]))
    b = 0
    letters = "abcdefghijklmnopqrstuvwxyz"
    for i in range(len(_EFFICIENTNET_STAGES)):
        kernel, repeats, f_in, f_out, expand, stride = _EFFICIENTNET_STAGES[i]
        f_in = widen(f_in)
        f_out = widen(f_out)
        for j in range(deepen(repeats)):
            if j > 0:
                stride = 1
                f_in = f_out
            x = _mb_conv(x, activation, drop_connect_rate * b / total, f"block{i + 1}{letters[j]}_",
                         f_in, f_out, kernel, stride, expand)
            b += 1
    x = layers.Conv2D(widen(1280), 1, padding="same", use_bias=False, name="top_conv")(x)
    x = layers.BatchNormalization(axis=3, name="top_bn")(x)
    x = layers.Activation(activation, name="top_activation")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate, name="top_dropout")(x)
        _check_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    x = _pooled(x, include_top, pooling, "avg_pool", "max_pool")
    return keras.Model(img_input, x, name=name)


def EfficientNetB0(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000, classifier_activation="softmax",
                   name="efficientnetb0"):
    return _efficientnet(1.0, 1.0, 224, 0.2, name, include_top, weights, input_tensor,
                         input_shape, pooling, classes, classifier_activation)


def EfficientNetB1(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000, classifier_activation="softmax",
                   name="efficientnetb1"):
    return _efficientnet(1.0, 1.1, 240, 0.2, name, include_top, weights, input_tensor,
                         input_shape, pooling, classes, classifier_activation)


def EfficientNetB2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000, classifier_activation="softmax",
                   name="efficientnetb2"):
    return _efficientnet(1.1, 1.2, 260, 0.3, name, include_top, weights, input_tensor,
                         input_shape, pooling, classes, classifier_activation)


def EfficientNetB3(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000, classifier_activation="softmax",
                   name="efficientnetb3"):
    return _efficientnet(1.2, 1.4, 300, 0.3, name, include_top, weights, input_tensor,
                         input_shape, pooling, classes, classifier_activation)


def EfficientNetB4(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000, classifier_activation="softmax",
                   name="efficientnetb4"):
    return _efficientnet(1.4, 1.8, 380, 0.4, name, include_top, weights, input_tensor,
                         input_shape, pooling, classes, classifier_activation)


def EfficientNetB5(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000, classifier_activation="softmax",
                   name="efficientnetb5"):
    return _efficientnet(1.6, 2.2, 456, 0.4, name, include_top, weights, input_tensor,
                         input_shape, pooling, classes, classifier_activation)


def EfficientNetB6(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000, classifier_activation="softmax",
                   name="efficientnetb6"):
    return _efficientnet(1.8, 2.6, 528, 0.5, name, include_top, weights, input_tensor,
                         input_shape, pooling, classes, classifier_activation)


def EfficientNetB7(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000, classifier_activation="softmax",
                   name="efficientnetb7"):
    return _efficientnet(2.0, 3.1, 600, 0.5, name, include_top, weights, input_tensor,
                         input_shape, pooling, classes, classifier_activation)
