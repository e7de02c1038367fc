# padlab's copy of the torchvision.models classification architectures (as of torchvision
# 0.29), written in padlab's own words from the facts of torchvision's code: the same module
# attribute names (`conv1`, `layer1.0.conv1`, `features.0.0`, `classifier.1`), the same
# parameters and the same forward computation in inference, so that a paste's edits and the
# self-check's weight copy by name work as on the real models. Weight initialisation is left
# out (shapes do not depend on it) and nothing is ever downloaded: asking for pretrained
# weights only changes what it changes in torchvision (the classes must be 1000; GoogLeNet and
# Inception v3 then normalise their input themselves).
#
# The self-check script runs this same text with real torch where torchvision is not
# installed, so it is plain Python.
import math
from collections import OrderedDict
from functools import partial

import torch
from torch import nn
import torch.nn.functional as F


# ---- Pretrained weights: named, never loaded ----

class _Transforms:
    """The preprocessing a set of weights was trained with (not evaluated by padlab)."""

    def __init__(self, weights):
        self.weights = weights

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(
            f"{self.weights}.transforms(): the weights' preprocessing is not evaluated by padlab"
        )


class _Weights:
    """One set of pretrained weights of a model: its enum and its own name."""

    def __init__(self, family, name, classes=1000):
        self.family = family
        self.name = name
        self.classes = classes

    def __repr__(self):
        return self.family + "." + self.name

    def transforms(self, *args, **kwargs):
        return _Transforms(self)


class _WeightsEnum:
    """A model's weight sets, named as torchvision's `WeightsEnum` names them, DEFAULT too."""

    def __init__(self, name, sets, default):
        self.__name__ = name
        for n in sets:
            setattr(self, n, _Weights(name, n))
        self.DEFAULT = getattr(self, default)

    def __getitem__(self, name):
        return getattr(self, name)

    def verify(self, weights):
        if weights is None:
            return None
        if isinstance(weights, str):
            name = weights.replace(self.__name__ + ".", "")
            found = getattr(self, name, None)
            if not isinstance(found, _Weights):
                raise KeyError(name)
            return found
        if not isinstance(weights, _Weights) or weights.family != self.__name__:
            raise TypeError(
                f"Invalid Weight class provided; expected {self.__name__} but received {type(weights).__name__}."
            )
        return weights


def _enum(name, sets, default):
    return _WeightsEnum(name, sets, default)


def _weights(enum, legacy, args, kwargs):
    """The weights a builder is asked for: `weights=` (an enum member, its name or None), or
    the deprecated `pretrained=True` and positional forms, which mean `legacy`."""
    if len(args) > 2:
        raise TypeError(f"takes at most 2 positional arguments but {len(args)} were given")
    for name, value in zip(("weights", "progress"), args):
        kwargs[name] = value
    kwargs.pop("progress", None)
    if "weights" in kwargs:
        weights = kwargs.pop("weights")
        if isinstance(weights, bool):
            weights = getattr(enum, legacy) if weights else None
        elif isinstance(weights, str) and weights == "legacy":
            weights = getattr(enum, legacy) if kwargs.pop("pretrained", False) else None
    elif "pretrained" in kwargs:
        weights = getattr(enum, legacy) if kwargs.pop("pretrained") else None
    else:
        weights = None
    return enum.verify(weights)


def _must_be(kwargs, name, value):
    """A constructor argument the weights fix: the same value, or torchvision's error."""
    if name in kwargs:
        if kwargs[name] != value:
            raise ValueError(f"The parameter '{name}' expected value {value} but got {kwargs[name]} instead.")
    else:
        kwargs[name] = value


def _pretrained(weights, kwargs):
    if weights is not None:
        _must_be(kwargs, "num_classes", weights.classes)


def _make_divisible(v, divisor, min_value=None):
    """`v` rounded to a multiple of `divisor`, never below `min_value` nor 10% below `v`."""
    if min_value is None:
        min_value = divisor
    rounded = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if rounded < 0.9 * v:
        rounded += divisor
    return rounded


# ---- torchvision.ops ----

class Conv2dNormActivation(nn.Sequential):
    """A convolution (padded to keep the size at stride 1), a norm, an activation."""

    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, padding=None, groups=1,
                 norm_layer=nn.BatchNorm2d, activation_layer=nn.ReLU, dilation=1, inplace=True, bias=None):
        if padding is None:
            if isinstance(kernel_size, int) and isinstance(dilation, int):
                padding = (kernel_size - 1) // 2 * dilation
            else:
                ks = kernel_size if isinstance(kernel_size, (tuple, list)) else (kernel_size, kernel_size)
                ds = dilation if isinstance(dilation, (tuple, list)) else (dilation, dilation)
                padding = tuple((k - 1) // 2 * d for k, d in zip(ks, ds))
        if bias is None:
            bias = norm_layer is None
        parts = [nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding,
                           dilation=dilation, groups=groups, bias=bias)]
        if norm_layer is not None:
            parts.append(norm_layer(out_channels))
        if activation_layer is not None:
            parts.append(activation_layer() if inplace is None else activation_layer(inplace=inplace))
        super().__init__(*parts)
        self.out_channels = out_channels


class SqueezeExcitation(nn.Module):
    """Channel gates from the globally pooled input (fc1, activation, fc2, scale activation)."""

    def __init__(self, input_channels, squeeze_channels, activation=nn.ReLU, scale_activation=nn.Sigmoid):
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Conv2d(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2d(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def forward(self, input):
        s = self.avgpool(input)
        s = self.fc1(s)
        s = self.activation(s)
        s = self.fc2(s)
        s = self.scale_activation(s)
        return s * input


class StochasticDepth(nn.Module):
    """Drops whole residual branches while training; the identity in inference."""

    def __init__(self, p, mode):
        super().__init__()
        self.p = p
        self.mode = mode

    def forward(self, input):
        if not self.training or self.p == 0.0:
            return input
        keep = 1.0 - self.p
        shape = [input.shape[0]] + [1] * (input.ndim - 1) if self.mode == "row" else [1] * input.ndim
        noise = torch.empty(shape, dtype=input.dtype, device=input.device).bernoulli_(keep)
        if keep > 0.0:
            noise.div_(keep)
        return input * noise


class Permute(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.dims = dims

    def forward(self, x):
        return torch.permute(x, self.dims)


# ---- ResNet, ResNeXt, Wide ResNet ----

def conv3x3(in_planes, out_planes, stride=1, groups=1, dilation=1):
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=dilation,
                     groups=groups, bias=False, dilation=dilation)


def conv1x1(in_planes, out_planes, stride=1):
    return nn.Conv2d(in_planes, out_planes, kernel_size=1, stride=stride, bias=False)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64,
                 dilation=1, norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        if groups != 1 or base_width != 64:
            raise ValueError("BasicBlock only supports groups=1 and base_width=64")
        if dilation > 1:
            raise NotImplementedError("Dilation > 1 not supported in BasicBlock")
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        shortcut = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            shortcut = self.downsample(x)
        out += shortcut
        return self.relu(out)


class Bottleneck(nn.Module):
    # torchvision's "ResNet V1.5": the stride is on the 3x3 convolution.
    expansion = 4

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64,
                 dilation=1, norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        width = int(planes * (base_width / 64.0)) * groups
        self.conv1 = conv1x1(inplanes, width)
        self.bn1 = norm_layer(width)
        self.conv2 = conv3x3(width, width, stride, groups, dilation)
        self.bn2 = norm_layer(width)
        self.conv3 = conv1x1(width, planes * self.expansion)
        self.bn3 = norm_layer(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        shortcut = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            shortcut = self.downsample(x)
        out += shortcut
        return self.relu(out)


class ResNet(nn.Module):
    def __init__(self, block, layers, num_classes=1000, zero_init_residual=False, groups=1,
                 width_per_group=64, replace_stride_with_dilation=None, norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        self._norm_layer = norm_layer
        self.inplanes = 64
        self.dilation = 1
        if replace_stride_with_dilation is None:
            replace_stride_with_dilation = [False, False, False]
        if len(replace_stride_with_dilation) != 3:
            raise ValueError(
                "replace_stride_with_dilation should be None "
                f"or a 3-element tuple, got {replace_stride_with_dilation}"
            )
        self.groups = groups
        self.base_width = width_per_group
        self.conv1 = nn.Conv2d(3, self.inplanes, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = norm_layer(self.inplanes)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2, dilate=replace_stride_with_dilation[0])
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2, dilate=replace_stride_with_dilation[1])
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2, dilate=replace_stride_with_dilation[2])
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512 * block.expansion, num_classes)

    def _make_layer(self, block, planes, blocks, stride=1, dilate=False):
        norm_layer = self._norm_layer
        downsample = None
        previous_dilation = self.dilation
        if dilate:
            self.dilation *= stride
            stride = 1
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(
                conv1x1(self.inplanes, planes * block.expansion, stride),
                norm_layer(planes * block.expansion),
            )
        stage = [block(self.inplanes, planes, stride, downsample, self.groups, self.base_width,
                       previous_dilation, norm_layer)]
        self.inplanes = planes * block.expansion
        for _ in range(1, blocks):
            stage.append(block(self.inplanes, planes, groups=self.groups, base_width=self.base_width,
                               dilation=self.dilation, norm_layer=norm_layer))
        return nn.Sequential(*stage)

    def _forward_impl(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.layer3(x)
        x = self.layer4(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        return self.fc(x)

    def forward(self, x):
        return self._forward_impl(x)


ResNet18_Weights = _enum("ResNet18_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
ResNet34_Weights = _enum("ResNet34_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
ResNet50_Weights = _enum("ResNet50_Weights", ["IMAGENET1K_V1", "IMAGENET1K_V2"], "IMAGENET1K_V2")
ResNet101_Weights = _enum("ResNet101_Weights", ["IMAGENET1K_V1", "IMAGENET1K_V2"], "IMAGENET1K_V2")
ResNet152_Weights = _enum("ResNet152_Weights", ["IMAGENET1K_V1", "IMAGENET1K_V2"], "IMAGENET1K_V2")
ResNeXt50_32X4D_Weights = _enum("ResNeXt50_32X4D_Weights", ["IMAGENET1K_V1", "IMAGENET1K_V2"], "IMAGENET1K_V2")
ResNeXt101_32X8D_Weights = _enum("ResNeXt101_32X8D_Weights", ["IMAGENET1K_V1", "IMAGENET1K_V2"], "IMAGENET1K_V2")
ResNeXt101_64X4D_Weights = _enum("ResNeXt101_64X4D_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
Wide_ResNet50_2_Weights = _enum("Wide_ResNet50_2_Weights", ["IMAGENET1K_V1", "IMAGENET1K_V2"], "IMAGENET1K_V2")
Wide_ResNet101_2_Weights = _enum("Wide_ResNet101_2_Weights", ["IMAGENET1K_V1", "IMAGENET1K_V2"], "IMAGENET1K_V2")


def _resnet(block, layers, weights, **kwargs):
    _pretrained(weights, kwargs)
    return ResNet(block, layers, **kwargs)


def resnet18(*args, **kwargs):
    weights = _weights(ResNet18_Weights, "IMAGENET1K_V1", args, kwargs)
    return _resnet(BasicBlock, [2, 2, 2, 2], weights, **kwargs)


def resnet34(*args, **kwargs):
    weights = _weights(ResNet34_Weights, "IMAGENET1K_V1", args, kwargs)
    return _resnet(BasicBlock, [3, 4, 6, 3], weights, **kwargs)


def resnet50(*args, **kwargs):
    weights = _weights(ResNet50_Weights, "IMAGENET1K_V1", args, kwargs)
    return _resnet(Bottleneck, [3, 4, 6, 3], weights, **kwargs)


def resnet101(*args, **kwargs):
    weights = _weights(ResNet101_Weights, "IMAGENET1K_V1", args, kwargs)
    return _resnet(Bottleneck, [3, 4, 23, 3], weights, **kwargs)


def resnet152(*args, **kwargs):
    weights = _weights(ResNet152_Weights, "IMAGENET1K_V1", args, kwargs)
    return _resnet(Bottleneck, [3, 8, 36, 3], weights, **kwargs)


def resnext50_32x4d(*args, **kwargs):
    weights = _weights(ResNeXt50_32X4D_Weights, "IMAGENET1K_V1", args, kwargs)
    _must_be(kwargs, "groups", 32)
    _must_be(kwargs, "width_per_group", 4)
    return _resnet(Bottleneck, [3, 4, 6, 3], weights, **kwargs)


def resnext101_32x8d(*args, **kwargs):
    weights = _weights(ResNeXt101_32X8D_Weights, "IMAGENET1K_V1", args, kwargs)
    _must_be(kwargs, "groups", 32)
    _must_be(kwargs, "width_per_group", 8)
    return _resnet(Bottleneck, [3, 4, 23, 3], weights, **kwargs)


def resnext101_64x4d(*args, **kwargs):
    weights = _weights(ResNeXt101_64X4D_Weights, "IMAGENET1K_V1", args, kwargs)
    _must_be(kwargs, "groups", 64)
    _must_be(kwargs, "width_per_group", 4)
    return _resnet(Bottleneck, [3, 4, 23, 3], weights, **kwargs)


def wide_resnet50_2(*args, **kwargs):
    weights = _weights(Wide_ResNet50_2_Weights, "IMAGENET1K_V1", args, kwargs)
    _must_be(kwargs, "width_per_group", 128)
    return _resnet(Bottleneck, [3, 4, 6, 3], weights, **kwargs)


def wide_resnet101_2(*args, **kwargs):
    weights = _weights(Wide_ResNet101_2_Weights, "IMAGENET1K_V1", args, kwargs)
    _must_be(kwargs, "width_per_group", 128)
    return _resnet(Bottleneck, [3, 4, 23, 3], weights, **kwargs)


# ---- VGG ----

class VGG(nn.Module):
    def __init__(self, features, num_classes=1000, init_weights=True, dropout=0.5):
        super().__init__()
        self.features = features
        self.avgpool = nn.AdaptiveAvgPool2d((7, 7))
        self.classifier = nn.Sequential(
            nn.Linear(512 * 7 * 7, 4096),
            nn.ReLU(True),
            nn.Dropout(p=dropout),
            nn.Linear(4096, 4096),
            nn.ReLU(True),
            nn.Dropout(p=dropout),
            nn.Linear(4096, num_classes),
        )

    def forward(self, x):
        x = self.avgpool(self.features(x))
        x = torch.flatten(x, 1)
        return self.classifier(x)


def make_layers(cfg, batch_norm=False):
    """3x3 convolutions ('same' by padding 1) and 2x2 max pools ("M") as `cfg` lists them."""
    parts = []
    channels = 3
    for v in cfg:
        if v == "M":
            parts.append(nn.MaxPool2d(kernel_size=2, stride=2))
            continue
        parts.append(nn.Conv2d(channels, v, kernel_size=3, padding=1))
        if batch_norm:
            parts.append(nn.BatchNorm2d(v))
        parts.append(nn.ReLU(inplace=True))
        channels = v
    return nn.Sequential(*parts)


cfgs = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"],
}

VGG11_Weights = _enum("VGG11_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
VGG11_BN_Weights = _enum("VGG11_BN_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
VGG13_Weights = _enum("VGG13_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
VGG13_BN_Weights = _enum("VGG13_BN_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
VGG16_Weights = _enum("VGG16_Weights", ["IMAGENET1K_V1", "IMAGENET1K_FEATURES"], "IMAGENET1K_V1")
# The feature-extraction weights predict no classes: they do not fix `num_classes`.
VGG16_Weights.IMAGENET1K_FEATURES.classes = None
VGG16_BN_Weights = _enum("VGG16_BN_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
VGG19_Weights = _enum("VGG19_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
VGG19_BN_Weights = _enum("VGG19_BN_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")


def _vgg(cfg, batch_norm, weights, **kwargs):
    if weights is not None:
        kwargs["init_weights"] = False
        if weights.classes is not None:
            _must_be(kwargs, "num_classes", weights.classes)
    return VGG(make_layers(cfgs[cfg], batch_norm=batch_norm), **kwargs)


def vgg11(*args, **kwargs):
    return _vgg("A", False, _weights(VGG11_Weights, "IMAGENET1K_V1", args, kwargs), **kwargs)


def vgg11_bn(*args, **kwargs):
    return _vgg("A", True, _weights(VGG11_BN_Weights, "IMAGENET1K_V1", args, kwargs), **kwargs)


def vgg13(*args, **kwargs):
    return _vgg("B", False, _weights(VGG13_Weights, "IMAGENET1K_V1", args, kwargs), **kwargs)


def vgg13_bn(*args, **kwargs):
    return _vgg("B", True, _weights(VGG13_BN_Weights, "IMAGENET1K_V1", args, kwargs), **kwargs)


def vgg16(*args, **kwargs):
    return _vgg("D", False, _weights(VGG16_Weights, "IMAGENET1K_V1", args, kwargs), **kwargs)


def vgg16_bn(*args, **kwargs):
    return _vgg("D", True, _weights(VGG16_BN_Weights, "IMAGENET1K_V1", args, kwargs), **kwargs)


def vgg19(*args, **kwargs):
    return _vgg("E", False, _weights(VGG19_Weights, "IMAGENET1K_V1", args, kwargs), **kwargs)


def vgg19_bn(*args, **kwargs):
    return _vgg("E", True, _weights(VGG19_BN_Weights, "IMAGENET1K_V1", args, kwargs), **kwargs)


# ---- AlexNet ----

class AlexNet(nn.Module):
    def __init__(self, num_classes=1000, dropout=0.5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, kernel_size=11, stride=4, padding=2),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
            nn.Conv2d(64, 192, kernel_size=5, padding=2),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
            nn.Conv2d(192, 384, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(384, 256, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(256, 256, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
        )
        self.avgpool = nn.AdaptiveAvgPool2d((6, 6))
        self.classifier = nn.Sequential(
            nn.Dropout(p=dropout),
            nn.Linear(256 * 6 * 6, 4096),
            nn.ReLU(inplace=True),
            nn.Dropout(p=dropout),
            nn.Linear(4096, 4096),
            nn.ReLU(inplace=True),
            nn.Linear(4096, num_classes),
        )

    def forward(self, x):
        x = self.avgpool(self.features(x))
        x = torch.flatten(x, 1)
        return self.classifier(x)


AlexNet_Weights = _enum("AlexNet_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")


def alexnet(*args, **kwargs):
    weights = _weights(AlexNet_Weights, "IMAGENET1K_V1", args, kwargs)
    _pretrained(weights, kwargs)
    return AlexNet(**kwargs)


# ---- DenseNet ----

class _DenseLayer(nn.Module):
    def __init__(self, num_input_features, growth_rate, bn_size, drop_rate, memory_efficient=False):
        super().__init__()
        self.norm1 = nn.BatchNorm2d(num_input_features)
        self.relu1 = nn.ReLU(inplace=True)
        self.conv1 = nn.Conv2d(num_input_features, bn_size * growth_rate, kernel_size=1, stride=1, bias=False)
        self.norm2 = nn.BatchNorm2d(bn_size * growth_rate)
        self.relu2 = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(bn_size * growth_rate, growth_rate, kernel_size=3, stride=1, padding=1, bias=False)
        self.drop_rate = float(drop_rate)
        self.memory_efficient = memory_efficient

    def forward(self, input):
        # Every earlier feature map, joined on the channels (one map: the block's input).
        earlier = [input] if isinstance(input, torch.Tensor) else input
        joined = torch.cat(earlier, 1)
        bottleneck = self.conv1(self.relu1(self.norm1(joined)))
        new = self.conv2(self.relu2(self.norm2(bottleneck)))
        if self.drop_rate > 0:
            new = F.dropout(new, p=self.drop_rate, training=self.training)
        return new


class _DenseBlock(nn.ModuleDict):
    def __init__(self, num_layers, num_input_features, bn_size, growth_rate, drop_rate, memory_efficient=False):
        super().__init__()
        for i in range(num_layers):
            layer = _DenseLayer(num_input_features + i * growth_rate, growth_rate=growth_rate,
                                bn_size=bn_size, drop_rate=drop_rate, memory_efficient=memory_efficient)
            self.add_module("denselayer%d" % (i + 1), layer)

    def forward(self, init_features):
        features = [init_features]
        for name, layer in self.items():
            features.append(layer(features))
        return torch.cat(features, 1)


class _Transition(nn.Sequential):
    def __init__(self, num_input_features, num_output_features):
        super().__init__()
        self.norm = nn.BatchNorm2d(num_input_features)
        self.relu = nn.ReLU(inplace=True)
        self.conv = nn.Conv2d(num_input_features, num_output_features, kernel_size=1, stride=1, bias=False)
        self.pool = nn.AvgPool2d(kernel_size=2, stride=2)


class DenseNet(nn.Module):
    def __init__(self, growth_rate=32, block_config=(6, 12, 24, 16), num_init_features=64, bn_size=4,
                 drop_rate=0, num_classes=1000, memory_efficient=False):
        super().__init__()
        self.features = nn.Sequential(OrderedDict([
            ("conv0", nn.Conv2d(3, num_init_features, kernel_size=7, stride=2, padding=3, bias=False)),
            ("norm0", nn.BatchNorm2d(num_init_features)),
            ("relu0", nn.ReLU(inplace=True)),
            ("pool0", nn.MaxPool2d(kernel_size=3, stride=2, padding=1)),
        ]))
        num_features = num_init_features
        for i, num_layers in enumerate(block_config):
            block = _DenseBlock(num_layers=num_layers, num_input_features=num_features, bn_size=bn_size,
                                growth_rate=growth_rate, drop_rate=drop_rate, memory_efficient=memory_efficient)
            self.features.add_module("denseblock%d" % (i + 1), block)
            num_features = num_features + num_layers * growth_rate
            if i != len(block_config) - 1:
                transition = _Transition(num_input_features=num_features, num_output_features=num_features // 2)
                self.features.add_module("transition%d" % (i + 1), transition)
                num_features = num_features // 2
        self.features.add_module("norm5", nn.BatchNorm2d(num_features))
        self.classifier = nn.Linear(num_features, num_classes)

    def forward(self, x):
        out = F.relu(self.features(x), inplace=True)
        out = F.adaptive_avg_pool2d(out, (1, 1))
        out = torch.flatten(out, 1)
        return self.classifier(out)


DenseNet121_Weights = _enum("DenseNet121_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
DenseNet161_Weights = _enum("DenseNet161_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
DenseNet169_Weights = _enum("DenseNet169_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
DenseNet201_Weights = _enum("DenseNet201_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")


def _densenet(growth_rate, block_config, num_init_features, weights, **kwargs):
    _pretrained(weights, kwargs)
    return DenseNet(growth_rate, block_config, num_init_features, **kwargs)


def densenet121(*args, **kwargs):
    weights = _weights(DenseNet121_Weights, "IMAGENET1K_V1", args, kwargs)
    return _densenet(32, (6, 12, 24, 16), 64, weights, **kwargs)


def densenet161(*args, **kwargs):
    weights = _weights(DenseNet161_Weights, "IMAGENET1K_V1", args, kwargs)
    return _densenet(48, (6, 12, 36, 24), 96, weights, **kwargs)


def densenet169(*args, **kwargs):
    weights = _weights(DenseNet169_Weights, "IMAGENET1K_V1", args, kwargs)
    return _densenet(32, (6, 12, 32, 32), 64, weights, **kwargs)


def densenet201(*args, **kwargs):
    weights = _weights(DenseNet201_Weights, "IMAGENET1K_V1", args, kwargs)
    return _densenet(32, (6, 12, 48, 32), 64, weights, **kwargs)


# ---- MobileNetV2 ----

class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio, norm_layer=None):
        super().__init__()
        if stride not in [1, 2]:
            raise ValueError(f"stride should be 1 or 2 instead of {stride}")
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        self.stride = stride
        hidden = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        parts = []
        if expand_ratio != 1:
            parts.append(Conv2dNormActivation(inp, hidden, kernel_size=1, norm_layer=norm_layer,
                                              activation_layer=nn.ReLU6))
        parts.append(Conv2dNormActivation(hidden, hidden, stride=stride, groups=hidden, norm_layer=norm_layer,
                                          activation_layer=nn.ReLU6))
        parts.append(nn.Conv2d(hidden, oup, 1, 1, 0, bias=False))
        parts.append(norm_layer(oup))
        self.conv = nn.Sequential(*parts)
        self.out_channels = oup
        self._is_cn = stride > 1

    def forward(self, x):
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


class MobileNetV2(nn.Module):
    def __init__(self, num_classes=1000, width_mult=1.0, inverted_residual_setting=None, round_nearest=8,
                 block=None, norm_layer=None, dropout=0.2):
        super().__init__()
        if block is None:
            block = InvertedResidual
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        if inverted_residual_setting is None:
            # expansion t, channels c, repeats n, first stride s
            inverted_residual_setting = [
                [1, 16, 1, 1],
                [6, 24, 2, 2],
                [6, 32, 3, 2],
                [6, 64, 4, 2],
                [6, 96, 3, 1],
                [6, 160, 3, 2],
                [6, 320, 1, 1],
            ]
        if len(inverted_residual_setting) == 0 or len(inverted_residual_setting[0]) != 4:
            raise ValueError(
                f"inverted_residual_setting should be non-empty or a 4-element list, got {inverted_residual_setting}"
            )
        input_channel = _make_divisible(32 * width_mult, round_nearest)
        self.last_channel = _make_divisible(1280 * max(1.0, width_mult), round_nearest)
        features = [Conv2dNormActivation(3, input_channel, stride=2, norm_layer=norm_layer,
                                         activation_layer=nn.ReLU6)]
        for t, c, n, s in inverted_residual_setting:
            output_channel = _make_divisible(c * width_mult, round_nearest)
            for i in range(n):
                features.append(block(input_channel, output_channel, s if i == 0 else 1, expand_ratio=t,
                                      norm_layer=norm_layer))
                input_channel = output_channel
        features.append(Conv2dNormActivation(input_channel, self.last_channel, kernel_size=1,
                                             norm_layer=norm_layer, activation_layer=nn.ReLU6))
        self.features = nn.Sequential(*features)
        self.classifier = nn.Sequential(
            nn.Dropout(p=dropout),
            nn.Linear(self.last_channel, num_classes),
        )

    def _forward_impl(self, x):
        x = self.features(x)
        x = nn.functional.adaptive_avg_pool2d(x, (1, 1))
        x = torch.flatten(x, 1)
        return self.classifier(x)

    def forward(self, x):
        return self._forward_impl(x)


MobileNet_V2_Weights = _enum("MobileNet_V2_Weights", ["IMAGENET1K_V1", "IMAGENET1K_V2"], "IMAGENET1K_V2")


def mobilenet_v2(*args, **kwargs):
    weights = _weights(MobileNet_V2_Weights, "IMAGENET1K_V1", args, kwargs)
    _pretrained(weights, kwargs)
    return MobileNetV2(**kwargs)


# ---- MobileNetV3 ----

class InvertedResidualConfig:
    """One bottleneck row of the MobileNetV3 tables, its channels scaled by `width_mult`."""

    def __init__(self, input_channels, kernel, expanded_channels, out_channels, use_se, activation, stride,
                 dilation, width_mult):
        self.input_channels = self.adjust_channels(input_channels, width_mult)
        self.kernel = kernel
        self.expanded_channels = self.adjust_channels(expanded_channels, width_mult)
        self.out_channels = self.adjust_channels(out_channels, width_mult)
        self.use_se = use_se
        self.use_hs = activation == "HS"
        self.stride = stride
        self.dilation = dilation

    @staticmethod
    def adjust_channels(channels, width_mult):
        return _make_divisible(channels * width_mult, 8)


class InvertedResidualV3(nn.Module):
    def __init__(self, cnf, norm_layer, se_layer=partial(SqueezeExcitation, scale_activation=nn.Hardsigmoid)):
        super().__init__()
        if not (1 <= cnf.stride <= 2):
            raise ValueError("illegal stride value")
        self.use_res_connect = cnf.stride == 1 and cnf.input_channels == cnf.out_channels
        activation = nn.Hardswish if cnf.use_hs else nn.ReLU
        parts = []
        if cnf.expanded_channels != cnf.input_channels:
            parts.append(Conv2dNormActivation(cnf.input_channels, cnf.expanded_channels, kernel_size=1,
                                              norm_layer=norm_layer, activation_layer=activation))
        stride = 1 if cnf.dilation > 1 else cnf.stride
        parts.append(Conv2dNormActivation(cnf.expanded_channels, cnf.expanded_channels, kernel_size=cnf.kernel,
                                          stride=stride, dilation=cnf.dilation, groups=cnf.expanded_channels,
                                          norm_layer=norm_layer, activation_layer=activation))
        if cnf.use_se:
            parts.append(se_layer(cnf.expanded_channels, _make_divisible(cnf.expanded_channels // 4, 8)))
        parts.append(Conv2dNormActivation(cnf.expanded_channels, cnf.out_channels, kernel_size=1,
                                          norm_layer=norm_layer, activation_layer=None))
        self.block = nn.Sequential(*parts)
        self.out_channels = cnf.out_channels
        self._is_cn = cnf.stride > 1

    def forward(self, input):
        result = self.block(input)
        if self.use_res_connect:
            result += input
        return result


class MobileNetV3(nn.Module):
    def __init__(self, inverted_residual_setting, last_channel, num_classes=1000, block=None, norm_layer=None,
                 dropout=0.2, **kwargs):
        super().__init__()
        if not inverted_residual_setting:
            raise ValueError("The inverted_residual_setting should not be empty")
        if block is None:
            block = InvertedResidualV3
        if norm_layer is None:
            norm_layer = partial(nn.BatchNorm2d, eps=0.001, momentum=0.01)
        first = inverted_residual_setting[0].input_channels
        parts = [Conv2dNormActivation(3, first, kernel_size=3, stride=2, norm_layer=norm_layer,
                                      activation_layer=nn.Hardswish)]
        for cnf in inverted_residual_setting:
            parts.append(block(cnf, norm_layer))
        last_in = inverted_residual_setting[-1].out_channels
        last_out = 6 * last_in
        parts.append(Conv2dNormActivation(last_in, last_out, kernel_size=1, norm_layer=norm_layer,
                                          activation_layer=nn.Hardswish))
        self.features = nn.Sequential(*parts)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Sequential(
            nn.Linear(last_out, last_channel),
            nn.Hardswish(inplace=True),
            nn.Dropout(p=dropout, inplace=True),
            nn.Linear(last_channel, num_classes),
        )

    def _forward_impl(self, x):
        x = self.avgpool(self.features(x))
        x = torch.flatten(x, 1)
        return self.classifier(x)

    def forward(self, x):
        return self._forward_impl(x)


def _mobilenet_v3_conf(arch, width_mult=1.0, reduced_tail=False, dilated=False, **kwargs):
    divide = 2 if reduced_tail else 1
    dilation = 2 if dilated else 1
    row = partial(InvertedResidualConfig, width_mult=width_mult)
    if arch == "mobilenet_v3_large":
        setting = [
            row(16, 3, 16, 16, False, "RE", 1, 1),
            row(16, 3, 64, 24, False, "RE", 2, 1),
            row(24, 3, 72, 24, False, "RE", 1, 1),
            row(24, 5, 72, 40, True, "RE", 2, 1),
            row(40, 5, 120, 40, True, "RE", 1, 1),
            row(40, 5, 120, 40, True, "RE", 1, 1),
            row(40, 3, 240, 80, False, "HS", 2, 1),
            row(80, 3, 200, 80, False, "HS", 1, 1),
            row(80, 3, 184, 80, False, "HS", 1, 1),
            row(80, 3, 184, 80, False, "HS", 1, 1),
            row(80, 3, 480, 112, True, "HS", 1, 1),
            row(112, 3, 672, 112, True, "HS", 1, 1),
            row(112, 5, 672, 160 // divide, True, "HS", 2, dilation),
            row(160 // divide, 5, 960 // divide, 160 // divide, True, "HS", 1, dilation),
            row(160 // divide, 5, 960 // divide, 160 // divide, True, "HS", 1, dilation),
        ]
        last_channel = InvertedResidualConfig.adjust_channels(1280 // divide, width_mult)
    elif arch == "mobilenet_v3_small":
        setting = [
            row(16, 3, 16, 16, True, "RE", 2, 1),
            row(16, 3, 72, 24, False, "RE", 2, 1),
            row(24, 3, 88, 24, False, "RE", 1, 1),
            row(24, 5, 96, 40, True, "HS", 2, 1),
            row(40, 5, 240, 40, True, "HS", 1, 1),
            row(40, 5, 240, 40, True, "HS", 1, 1),
            row(40, 5, 120, 48, True, "HS", 1, 1),
            row(48, 5, 144, 48, True, "HS", 1, 1),
            row(48, 5, 288, 96 // divide, True, "HS", 2, dilation),
            row(96 // divide, 5, 576 // divide, 96 // divide, True, "HS", 1, dilation),
            row(96 // divide, 5, 576 // divide, 96 // divide, True, "HS", 1, dilation),
        ]
        last_channel = InvertedResidualConfig.adjust_channels(1024 // divide, width_mult)
    else:
        raise ValueError(f"Unsupported model type {arch}")
    return setting, last_channel


MobileNet_V3_Large_Weights = _enum("MobileNet_V3_Large_Weights", ["IMAGENET1K_V1", "IMAGENET1K_V2"],
                                   "IMAGENET1K_V2")
MobileNet_V3_Small_Weights = _enum("MobileNet_V3_Small_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")


def mobilenet_v3_large(*args, **kwargs):
    weights = _weights(MobileNet_V3_Large_Weights, "IMAGENET1K_V1", args, kwargs)
    setting, last_channel = _mobilenet_v3_conf("mobilenet_v3_large", **kwargs)
    _pretrained(weights, kwargs)
    return MobileNetV3(setting, last_channel, **kwargs)


def mobilenet_v3_small(*args, **kwargs):
    weights = _weights(MobileNet_V3_Small_Weights, "IMAGENET1K_V1", args, kwargs)
    setting, last_channel = _mobilenet_v3_conf("mobilenet_v3_small", **kwargs)
    _pretrained(weights, kwargs)
    return MobileNetV3(setting, last_channel, **kwargs)


# ---- EfficientNet (B0 to B7, V2) ----

class MBConvConfig:
    """One stage of the EfficientNet table: its channels scaled by `width_mult`, its depth by
    `depth_mult` (rounded up)."""

    def __init__(self, expand_ratio, kernel, stride, input_channels, out_channels, num_layers,
                 width_mult=1.0, depth_mult=1.0, block=None):
        self.expand_ratio = expand_ratio
        self.kernel = kernel
        self.stride = stride
        self.input_channels = self.adjust_channels(input_channels, width_mult)
        self.out_channels = self.adjust_channels(out_channels, width_mult)
        self.num_layers = int(math.ceil(num_layers * depth_mult))
        self.block = MBConv if block is None else block

    @staticmethod
    def adjust_channels(channels, width_mult, min_value=None):
        return _make_divisible(channels * width_mult, 8, min_value)


class FusedMBConvConfig(MBConvConfig):
    """A stage of fused blocks (EfficientNetV2): channels and depth as written."""

    def __init__(self, expand_ratio, kernel, stride, input_channels, out_channels, num_layers, block=None):
        self.expand_ratio = expand_ratio
        self.kernel = kernel
        self.stride = stride
        self.input_channels = input_channels
        self.out_channels = out_channels
        self.num_layers = num_layers
        self.block = FusedMBConv if block is None else block


class _StageBlock:
    """One block of a stage: the stage's first changes the channels and strides, the others
    keep them."""

    def __init__(self, cnf, first):
        self.expand_ratio = cnf.expand_ratio
        self.kernel = cnf.kernel
        self.out_channels = cnf.out_channels
        self.input_channels = cnf.input_channels if first else cnf.out_channels
        self.stride = cnf.stride if first else 1


class MBConv(nn.Module):
    def __init__(self, cnf, stochastic_depth_prob, norm_layer, se_layer=SqueezeExcitation):
        super().__init__()
        if not (1 <= cnf.stride <= 2):
            raise ValueError("illegal stride value")
        self.use_res_connect = cnf.stride == 1 and cnf.input_channels == cnf.out_channels
        expanded = MBConvConfig.adjust_channels(cnf.input_channels, cnf.expand_ratio)
        parts = []
        if expanded != cnf.input_channels:
            parts.append(Conv2dNormActivation(cnf.input_channels, expanded, kernel_size=1, norm_layer=norm_layer,
                                              activation_layer=nn.SiLU))
        parts.append(Conv2dNormActivation(expanded, expanded, kernel_size=cnf.kernel, stride=cnf.stride,
                                          groups=expanded, norm_layer=norm_layer, activation_layer=nn.SiLU))
        parts.append(se_layer(expanded, max(1, cnf.input_channels // 4), activation=partial(nn.SiLU, inplace=True)))
        parts.append(Conv2dNormActivation(expanded, cnf.out_channels, kernel_size=1, norm_layer=norm_layer,
                                          activation_layer=None))
        self.block = nn.Sequential(*parts)
        self.stochastic_depth = StochasticDepth(stochastic_depth_prob, "row")
        self.out_channels = cnf.out_channels

    def forward(self, input):
        result = self.block(input)
        if self.use_res_connect:
            result = self.stochastic_depth(result)
            result += input
        return result


class FusedMBConv(nn.Module):
    def __init__(self, cnf, stochastic_depth_prob, norm_layer):
        super().__init__()
        if not (1 <= cnf.stride <= 2):
            raise ValueError("illegal stride value")
        self.use_res_connect = cnf.stride == 1 and cnf.input_channels == cnf.out_channels
        expanded = MBConvConfig.adjust_channels(cnf.input_channels, cnf.expand_ratio)
        if expanded != cnf.input_channels:
            parts = [
                Conv2dNormActivation(cnf.input_channels, expanded, kernel_size=cnf.kernel, stride=cnf.stride,
                                     norm_layer=norm_layer, activation_layer=nn.SiLU),
                Conv2dNormActivation(expanded, cnf.out_channels, kernel_size=1, norm_layer=norm_layer,
                                     activation_layer=None),
            ]
        else:
            parts = [Conv2dNormActivation(cnf.input_channels, cnf.out_channels, kernel_size=cnf.kernel,
                                          stride=cnf.stride, norm_layer=norm_layer, activation_layer=nn.SiLU)]
        self.block = nn.Sequential(*parts)
        self.stochastic_depth = StochasticDepth(stochastic_depth_prob, "row")
        self.out_channels = cnf.out_channels

    def forward(self, input):
        result = self.block(input)
        if self.use_res_connect:
            result = self.stochastic_depth(result)
            result += input
        return result


class EfficientNet(nn.Module):
    def __init__(self, inverted_residual_setting, dropout, stochastic_depth_prob=0.2, num_classes=1000,
                 norm_layer=None, last_channel=None):
        super().__init__()
        if not inverted_residual_setting:
            raise ValueError("The inverted_residual_setting should not be empty")
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        parts = [Conv2dNormActivation(3, inverted_residual_setting[0].input_channels, kernel_size=3, stride=2,
                                      norm_layer=norm_layer, activation_layer=nn.SiLU)]
        total = sum(cnf.num_layers for cnf in inverted_residual_setting)
        block_id = 0
        for cnf in inverted_residual_setting:
            stage = []
            for k in range(cnf.num_layers):
                one = _StageBlock(cnf, k == 0)
                stage.append(cnf.block(one, stochastic_depth_prob * float(block_id) / total, norm_layer))
                block_id += 1
            parts.append(nn.Sequential(*stage))
        last_in = inverted_residual_setting[-1].out_channels
        last_out = last_channel if last_channel is not None else 4 * last_in
        parts.append(Conv2dNormActivation(last_in, last_out, kernel_size=1, norm_layer=norm_layer,
                                          activation_layer=nn.SiLU))
        self.features = nn.Sequential(*parts)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Sequential(
            nn.Dropout(p=dropout, inplace=True),
            nn.Linear(last_out, num_classes),
        )

    def _forward_impl(self, x):
        x = self.avgpool(self.features(x))
        x = torch.flatten(x, 1)
        return self.classifier(x)

    def forward(self, x):
        return self._forward_impl(x)


def _efficientnet_conf(arch, width_mult=1.0, depth_mult=1.0):
    if arch.startswith("efficientnet_b"):
        row = partial(MBConvConfig, width_mult=width_mult, depth_mult=depth_mult)
        return [
            row(1, 3, 1, 32, 16, 1),
            row(6, 3, 2, 16, 24, 2),
            row(6, 5, 2, 24, 40, 2),
            row(6, 3, 2, 40, 80, 3),
            row(6, 5, 1, 80, 112, 3),
            row(6, 5, 2, 112, 192, 4),
            row(6, 3, 1, 192, 320, 1),
        ], None
    if arch == "efficientnet_v2_s":
        return [
            FusedMBConvConfig(1, 3, 1, 24, 24, 2),
            FusedMBConvConfig(4, 3, 2, 24, 48, 4),
            FusedMBConvConfig(4, 3, 2, 48, 64, 4),
            MBConvConfig(4, 3, 2, 64, 128, 6),
            MBConvConfig(6, 3, 1, 128, 160, 9),
            MBConvConfig(6, 3, 2, 160, 256, 15),
        ], 1280
    if arch == "efficientnet_v2_m":
        return [
            FusedMBConvConfig(1, 3, 1, 24, 24, 3),
            FusedMBConvConfig(4, 3, 2, 24, 48, 5),
            FusedMBConvConfig(4, 3, 2, 48, 80, 5),
            MBConvConfig(4, 3, 2, 80, 160, 7),
            MBConvConfig(6, 3, 1, 160, 176, 14),
            MBConvConfig(6, 3, 2, 176, 304, 18),
            MBConvConfig(6, 3, 1, 304, 512, 5),
        ], 1280
    if arch == "efficientnet_v2_l":
        return [
            FusedMBConvConfig(1, 3, 1, 32, 32, 4),
            FusedMBConvConfig(4, 3, 2, 32, 64, 7),
            FusedMBConvConfig(4, 3, 2, 64, 96, 7),
            MBConvConfig(4, 3, 2, 96, 192, 10),
            MBConvConfig(6, 3, 1, 192, 224, 19),
            MBConvConfig(6, 3, 2, 224, 384, 25),
            MBConvConfig(6, 3, 1, 384, 640, 7),
        ], 1280
    raise ValueError(f"Unsupported model type {arch}")


EfficientNet_B0_Weights = _enum("EfficientNet_B0_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
EfficientNet_B1_Weights = _enum("EfficientNet_B1_Weights", ["IMAGENET1K_V1", "IMAGENET1K_V2"], "IMAGENET1K_V2")
EfficientNet_B2_Weights = _enum("EfficientNet_B2_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
EfficientNet_B3_Weights = _enum("EfficientNet_B3_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
EfficientNet_B4_Weights = _enum("EfficientNet_B4_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
EfficientNet_B5_Weights = _enum("EfficientNet_B5_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
EfficientNet_B6_Weights = _enum("EfficientNet_B6_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
EfficientNet_B7_Weights = _enum("EfficientNet_B7_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
EfficientNet_V2_S_Weights = _enum("EfficientNet_V2_S_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
EfficientNet_V2_M_Weights = _enum("EfficientNet_V2_M_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
EfficientNet_V2_L_Weights = _enum("EfficientNet_V2_L_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")


# name: (its weights' enum, width, depth, default dropout, BatchNorm's eps and momentum or None)
_EFFICIENTNETS = {
    "efficientnet_b0": (EfficientNet_B0_Weights, 1.0, 1.0, 0.2, None),
    "efficientnet_b1": (EfficientNet_B1_Weights, 1.0, 1.1, 0.2, None),
    "efficientnet_b2": (EfficientNet_B2_Weights, 1.1, 1.2, 0.3, None),
    "efficientnet_b3": (EfficientNet_B3_Weights, 1.2, 1.4, 0.3, None),
    "efficientnet_b4": (EfficientNet_B4_Weights, 1.4, 1.8, 0.4, None),
    "efficientnet_b5": (EfficientNet_B5_Weights, 1.6, 2.2, 0.4, (0.001, 0.01)),
    "efficientnet_b6": (EfficientNet_B6_Weights, 1.8, 2.6, 0.5, (0.001, 0.01)),
    "efficientnet_b7": (EfficientNet_B7_Weights, 2.0, 3.1, 0.5, (0.001, 0.01)),
    "efficientnet_v2_s": (EfficientNet_V2_S_Weights, 1.0, 1.0, 0.2, (0.001, 0.1)),
    "efficientnet_v2_m": (EfficientNet_V2_M_Weights, 1.0, 1.0, 0.3, (0.001, 0.1)),
    "efficientnet_v2_l": (EfficientNet_V2_L_Weights, 1.0, 1.0, 0.4, (0.001, 0.1)),
}

def _efficientnet(arch, args, kwargs):
    enum, width, depth, dropout, bn = _EFFICIENTNETS[arch]
    weights = _weights(enum, "IMAGENET1K_V1", args, kwargs)
    setting, last_channel = _efficientnet_conf(arch, width, depth)
    dropout = kwargs.pop("dropout", dropout)
    if bn is not None:
        kwargs["norm_layer"] = partial(nn.BatchNorm2d, eps=bn[0], momentum=bn[1])
    _pretrained(weights, kwargs)
    return EfficientNet(setting, dropout, last_channel=last_channel, **kwargs)


def efficientnet_b0(*args, **kwargs):
    return _efficientnet("efficientnet_b0", args, kwargs)


def efficientnet_b1(*args, **kwargs):
    return _efficientnet("efficientnet_b1", args, kwargs)


def efficientnet_b2(*args, **kwargs):
    return _efficientnet("efficientnet_b2", args, kwargs)


def efficientnet_b3(*args, **kwargs):
    return _efficientnet("efficientnet_b3", args, kwargs)


def efficientnet_b4(*args, **kwargs):
    return _efficientnet("efficientnet_b4", args, kwargs)


def efficientnet_b5(*args, **kwargs):
    return _efficientnet("efficientnet_b5", args, kwargs)


def efficientnet_b6(*args, **kwargs):
    return _efficientnet("efficientnet_b6", args, kwargs)


def efficientnet_b7(*args, **kwargs):
    return _efficientnet("efficientnet_b7", args, kwargs)


def efficientnet_v2_s(*args, **kwargs):
    return _efficientnet("efficientnet_v2_s", args, kwargs)


def efficientnet_v2_m(*args, **kwargs):
    return _efficientnet("efficientnet_v2_m", args, kwargs)


def efficientnet_v2_l(*args, **kwargs):
    return _efficientnet("efficientnet_v2_l", args, kwargs)


# ---- SqueezeNet ----

class Fire(nn.Module):
    def __init__(self, inplanes, squeeze_planes, expand1x1_planes, expand3x3_planes):
        super().__init__()
        self.inplanes = inplanes
        self.squeeze = nn.Conv2d(inplanes, squeeze_planes, kernel_size=1)
        self.squeeze_activation = nn.ReLU(inplace=True)
        self.expand1x1 = nn.Conv2d(squeeze_planes, expand1x1_planes, kernel_size=1)
        self.expand1x1_activation = nn.ReLU(inplace=True)
        self.expand3x3 = nn.Conv2d(squeeze_planes, expand3x3_planes, kernel_size=3, padding=1)
        self.expand3x3_activation = nn.ReLU(inplace=True)

    def forward(self, x):
        x = self.squeeze_activation(self.squeeze(x))
        one = self.expand1x1_activation(self.expand1x1(x))
        three = self.expand3x3_activation(self.expand3x3(x))
        return torch.cat([one, three], 1)


class SqueezeNet(nn.Module):
    def __init__(self, version="1_0", num_classes=1000, dropout=0.5):
        super().__init__()
        self.num_classes = num_classes
        pool = partial(nn.MaxPool2d, kernel_size=3, stride=2, ceil_mode=True)
        if version == "1_0":
            self.features = nn.Sequential(
                nn.Conv2d(3, 96, kernel_size=7, stride=2), nn.ReLU(inplace=True), pool(),
                Fire(96, 16, 64, 64), Fire(128, 16, 64, 64), Fire(128, 32, 128, 128), pool(),
                Fire(256, 32, 128, 128), Fire(256, 48, 192, 192), Fire(384, 48, 192, 192),
                Fire(384, 64, 256, 256), pool(),
                Fire(512, 64, 256, 256),
            )
        elif version == "1_1":
            self.features = nn.Sequential(
                nn.Conv2d(3, 64, kernel_size=3, stride=2), nn.ReLU(inplace=True), pool(),
                Fire(64, 16, 64, 64), Fire(128, 16, 64, 64), pool(),
                Fire(128, 32, 128, 128), Fire(256, 32, 128, 128), pool(),
                Fire(256, 48, 192, 192), Fire(384, 48, 192, 192), Fire(384, 64, 256, 256),
                Fire(512, 64, 256, 256),
            )
        else:
            raise ValueError(f"Unsupported SqueezeNet version {version}: 1_0 or 1_1 expected")
        final_conv = nn.Conv2d(512, self.num_classes, kernel_size=1)
        self.classifier = nn.Sequential(
            nn.Dropout(p=dropout), final_conv, nn.ReLU(inplace=True), nn.AdaptiveAvgPool2d((1, 1))
        )

    def forward(self, x):
        x = self.classifier(self.features(x))
        return torch.flatten(x, 1)


SqueezeNet1_0_Weights = _enum("SqueezeNet1_0_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
SqueezeNet1_1_Weights = _enum("SqueezeNet1_1_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")


def squeezenet1_0(*args, **kwargs):
    weights = _weights(SqueezeNet1_0_Weights, "IMAGENET1K_V1", args, kwargs)
    _pretrained(weights, kwargs)
    return SqueezeNet("1_0", **kwargs)


def squeezenet1_1(*args, **kwargs):
    weights = _weights(SqueezeNet1_1_Weights, "IMAGENET1K_V1", args, kwargs)
    _pretrained(weights, kwargs)
    return SqueezeNet("1_1", **kwargs)


# ---- GoogLeNet and Inception v3 ----

class BasicConv2d(nn.Module):
    def __init__(self, in_channels, out_channels, **kwargs):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, bias=False, **kwargs)
        self.bn = nn.BatchNorm2d(out_channels, eps=0.001)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)), inplace=True)


def _imagenet_to_half_range(x):
    """torchvision's `transform_input`: an input normalised with ImageNet's mean and std made
    into the (x - 0.5) / 0.5 the weights were trained on, channel by channel."""
    ch0 = torch.unsqueeze(x[:, 0], 1) * (0.229 / 0.5) + (0.485 - 0.5) / 0.5
    ch1 = torch.unsqueeze(x[:, 1], 1) * (0.224 / 0.5) + (0.456 - 0.5) / 0.5
    ch2 = torch.unsqueeze(x[:, 2], 1) * (0.225 / 0.5) + (0.406 - 0.5) / 0.5
    return torch.cat((ch0, ch1, ch2), 1)


class Inception(nn.Module):
    def __init__(self, in_channels, ch1x1, ch3x3red, ch3x3, ch5x5red, ch5x5, pool_proj, conv_block=None):
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.branch1 = conv_block(in_channels, ch1x1, kernel_size=1)
        self.branch2 = nn.Sequential(conv_block(in_channels, ch3x3red, kernel_size=1),
                                     conv_block(ch3x3red, ch3x3, kernel_size=3, padding=1))
        # (torchvision's "5x5" branch has a 3x3 kernel: a known quirk its weights keep.)
        self.branch3 = nn.Sequential(conv_block(in_channels, ch5x5red, kernel_size=1),
                                     conv_block(ch5x5red, ch5x5, kernel_size=3, padding=1))
        self.branch4 = nn.Sequential(nn.MaxPool2d(kernel_size=3, stride=1, padding=1, ceil_mode=True),
                                     conv_block(in_channels, pool_proj, kernel_size=1))

    def forward(self, x):
        outputs = [self.branch1(x), self.branch2(x), self.branch3(x), self.branch4(x)]
        return torch.cat(outputs, 1)


class InceptionAux(nn.Module):
    def __init__(self, in_channels, num_classes, conv_block=None, dropout=0.7):
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.conv = conv_block(in_channels, 128, kernel_size=1)
        self.fc1 = nn.Linear(2048, 1024)
        self.fc2 = nn.Linear(1024, num_classes)
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, x):
        x = self.conv(F.adaptive_avg_pool2d(x, (4, 4)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x), inplace=True)
        return self.fc2(self.dropout(x))


class GoogLeNet(nn.Module):
    def __init__(self, num_classes=1000, aux_logits=True, transform_input=False, init_weights=None, blocks=None,
                 dropout=0.2, dropout_aux=0.7):
        super().__init__()
        if blocks is None:
            blocks = [BasicConv2d, Inception, InceptionAux]
        if len(blocks) != 3:
            raise ValueError(f"blocks length should be 3 instead of {len(blocks)}")
        conv_block, inception_block, aux_block = blocks
        self.aux_logits = aux_logits
        self.transform_input = transform_input
        self.conv1 = conv_block(3, 64, kernel_size=7, stride=2, padding=3)
        self.maxpool1 = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.conv2 = conv_block(64, 64, kernel_size=1)
        self.conv3 = conv_block(64, 192, kernel_size=3, padding=1)
        self.maxpool2 = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.inception3a = inception_block(192, 64, 96, 128, 16, 32, 32)
        self.inception3b = inception_block(256, 128, 128, 192, 32, 96, 64)
        self.maxpool3 = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.inception4a = inception_block(480, 192, 96, 208, 16, 48, 64)
        self.inception4b = inception_block(512, 160, 112, 224, 24, 64, 64)
        self.inception4c = inception_block(512, 128, 128, 256, 24, 64, 64)
        self.inception4d = inception_block(512, 112, 144, 288, 32, 64, 64)
        self.inception4e = inception_block(528, 256, 160, 320, 32, 128, 128)
        self.maxpool4 = nn.MaxPool2d(2, stride=2, ceil_mode=True)
        self.inception5a = inception_block(832, 256, 160, 320, 32, 128, 128)
        self.inception5b = inception_block(832, 384, 192, 384, 48, 128, 128)
        if aux_logits:
            self.aux1 = aux_block(512, num_classes, dropout=dropout_aux)
            self.aux2 = aux_block(528, num_classes, dropout=dropout_aux)
        else:
            self.aux1 = None
            self.aux2 = None
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(p=dropout)
        self.fc = nn.Linear(1024, num_classes)

    def forward(self, x):
        if self.transform_input:
            x = _imagenet_to_half_range(x)
        x = self.maxpool1(self.conv1(x))
        x = self.maxpool2(self.conv3(self.conv2(x)))
        x = self.inception3b(self.inception3a(x))
        x = self.inception4a(self.maxpool3(x))
        aux1 = self.aux1(x) if self.aux1 is not None and self.training else None
        x = self.inception4d(self.inception4c(self.inception4b(x)))
        aux2 = self.aux2(x) if self.aux2 is not None and self.training else None
        x = self.maxpool4(self.inception4e(x))
        x = self.inception5b(self.inception5a(x))
        x = torch.flatten(self.avgpool(x), 1)
        x = self.fc(self.dropout(x))
        if self.training and self.aux_logits:
            return x, aux2, aux1
        return x


GoogLeNet_Weights = _enum("GoogLeNet_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")


def googlenet(*args, **kwargs):
    weights = _weights(GoogLeNet_Weights, "IMAGENET1K_V1", args, kwargs)
    keep_aux = kwargs.get("aux_logits", False)
    if weights is not None:
        # The weights come with the input normalisation and the auxiliary heads.
        if "transform_input" not in kwargs:
            kwargs["transform_input"] = True
        _must_be(kwargs, "aux_logits", True)
        _must_be(kwargs, "init_weights", False)
        _pretrained(weights, kwargs)
    model = GoogLeNet(**kwargs)
    if weights is not None and not keep_aux:
        model.aux_logits = False
        model.aux1 = None
        model.aux2 = None
    return model


class InceptionA(nn.Module):
    def __init__(self, in_channels, pool_features, conv_block=None):
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.branch1x1 = conv_block(in_channels, 64, kernel_size=1)
        self.branch5x5_1 = conv_block(in_channels, 48, kernel_size=1)
        self.branch5x5_2 = conv_block(48, 64, kernel_size=5, padding=2)
        self.branch3x3dbl_1 = conv_block(in_channels, 64, kernel_size=1)
        self.branch3x3dbl_2 = conv_block(64, 96, kernel_size=3, padding=1)
        self.branch3x3dbl_3 = conv_block(96, 96, kernel_size=3, padding=1)
        self.branch_pool = conv_block(in_channels, pool_features, kernel_size=1)

    def forward(self, x):
        a = self.branch1x1(x)
        b = self.branch5x5_2(self.branch5x5_1(x))
        c = self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x)))
        d = self.branch_pool(F.avg_pool2d(x, kernel_size=3, stride=1, padding=1))
        return torch.cat([a, b, c, d], 1)


class InceptionB(nn.Module):
    def __init__(self, in_channels, conv_block=None):
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.branch3x3 = conv_block(in_channels, 384, kernel_size=3, stride=2)
        self.branch3x3dbl_1 = conv_block(in_channels, 64, kernel_size=1)
        self.branch3x3dbl_2 = conv_block(64, 96, kernel_size=3, padding=1)
        self.branch3x3dbl_3 = conv_block(96, 96, kernel_size=3, stride=2)

    def forward(self, x):
        a = self.branch3x3(x)
        b = self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x)))
        c = F.max_pool2d(x, kernel_size=3, stride=2)
        return torch.cat([a, b, c], 1)


class InceptionC(nn.Module):
    def __init__(self, in_channels, channels_7x7, conv_block=None):
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        c7 = channels_7x7
        self.branch1x1 = conv_block(in_channels, 192, kernel_size=1)
        self.branch7x7_1 = conv_block(in_channels, c7, kernel_size=1)
        self.branch7x7_2 = conv_block(c7, c7, kernel_size=(1, 7), padding=(0, 3))
        self.branch7x7_3 = conv_block(c7, 192, kernel_size=(7, 1), padding=(3, 0))
        self.branch7x7dbl_1 = conv_block(in_channels, c7, kernel_size=1)
        self.branch7x7dbl_2 = conv_block(c7, c7, kernel_size=(7, 1), padding=(3, 0))
        self.branch7x7dbl_3 = conv_block(c7, c7, kernel_size=(1, 7), padding=(0, 3))
        self.branch7x7dbl_4 = conv_block(c7, c7, kernel_size=(7, 1), padding=(3, 0))
        self.branch7x7dbl_5 = conv_block(c7, 192, kernel_size=(1, 7), padding=(0, 3))
        self.branch_pool = conv_block(in_channels, 192, kernel_size=1)

    def forward(self, x):
        a = self.branch1x1(x)
        b = self.branch7x7_3(self.branch7x7_2(self.branch7x7_1(x)))
        c = self.branch7x7dbl_1(x)
        c = self.branch7x7dbl_3(self.branch7x7dbl_2(c))
        c = self.branch7x7dbl_5(self.branch7x7dbl_4(c))
        d = self.branch_pool(F.avg_pool2d(x, kernel_size=3, stride=1, padding=1))
        return torch.cat([a, b, c, d], 1)


class InceptionD(nn.Module):
    def __init__(self, in_channels, conv_block=None):
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.branch3x3_1 = conv_block(in_channels, 192, kernel_size=1)
        self.branch3x3_2 = conv_block(192, 320, kernel_size=3, stride=2)
        self.branch7x7x3_1 = conv_block(in_channels, 192, kernel_size=1)
        self.branch7x7x3_2 = conv_block(192, 192, kernel_size=(1, 7), padding=(0, 3))
        self.branch7x7x3_3 = conv_block(192, 192, kernel_size=(7, 1), padding=(3, 0))
        self.branch7x7x3_4 = conv_block(192, 192, kernel_size=3, stride=2)

    def forward(self, x):
        a = self.branch3x3_2(self.branch3x3_1(x))
        b = self.branch7x7x3_2(self.branch7x7x3_1(x))
        b = self.branch7x7x3_4(self.branch7x7x3_3(b))
        c = F.max_pool2d(x, kernel_size=3, stride=2)
        return torch.cat([a, b, c], 1)


class InceptionE(nn.Module):
    def __init__(self, in_channels, conv_block=None):
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.branch1x1 = conv_block(in_channels, 320, kernel_size=1)
        self.branch3x3_1 = conv_block(in_channels, 384, kernel_size=1)
        self.branch3x3_2a = conv_block(384, 384, kernel_size=(1, 3), padding=(0, 1))
        self.branch3x3_2b = conv_block(384, 384, kernel_size=(3, 1), padding=(1, 0))
        self.branch3x3dbl_1 = conv_block(in_channels, 448, kernel_size=1)
        self.branch3x3dbl_2 = conv_block(448, 384, kernel_size=3, padding=1)
        self.branch3x3dbl_3a = conv_block(384, 384, kernel_size=(1, 3), padding=(0, 1))
        self.branch3x3dbl_3b = conv_block(384, 384, kernel_size=(3, 1), padding=(1, 0))
        self.branch_pool = conv_block(in_channels, 192, kernel_size=1)

    def forward(self, x):
        a = self.branch1x1(x)
        b = self.branch3x3_1(x)
        b = torch.cat([self.branch3x3_2a(b), self.branch3x3_2b(b)], 1)
        c = self.branch3x3dbl_2(self.branch3x3dbl_1(x))
        c = torch.cat([self.branch3x3dbl_3a(c), self.branch3x3dbl_3b(c)], 1)
        d = self.branch_pool(F.avg_pool2d(x, kernel_size=3, stride=1, padding=1))
        return torch.cat([a, b, c, d], 1)


class InceptionAuxV3(nn.Module):
    def __init__(self, in_channels, num_classes, conv_block=None):
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.conv0 = conv_block(in_channels, 128, kernel_size=1)
        self.conv1 = conv_block(128, 768, kernel_size=5)
        self.fc = nn.Linear(768, num_classes)

    def forward(self, x):
        x = self.conv1(self.conv0(F.avg_pool2d(x, kernel_size=5, stride=3)))
        x = torch.flatten(F.adaptive_avg_pool2d(x, (1, 1)), 1)
        return self.fc(x)


class Inception3(nn.Module):
    def __init__(self, num_classes=1000, aux_logits=True, transform_input=False, inception_blocks=None,
                 init_weights=None, dropout=0.5):
        super().__init__()
        if inception_blocks is None:
            inception_blocks = [BasicConv2d, InceptionA, InceptionB, InceptionC, InceptionD, InceptionE,
                                InceptionAuxV3]
        if len(inception_blocks) != 7:
            raise ValueError(f"length of inception_blocks should be 7 instead of {len(inception_blocks)}")
        conv_block, block_a, block_b, block_c, block_d, block_e, block_aux = inception_blocks
        self.aux_logits = aux_logits
        self.transform_input = transform_input
        self.Conv2d_1a_3x3 = conv_block(3, 32, kernel_size=3, stride=2)
        self.Conv2d_2a_3x3 = conv_block(32, 32, kernel_size=3)
        self.Conv2d_2b_3x3 = conv_block(32, 64, kernel_size=3, padding=1)
        self.maxpool1 = nn.MaxPool2d(kernel_size=3, stride=2)
        self.Conv2d_3b_1x1 = conv_block(64, 80, kernel_size=1)
        self.Conv2d_4a_3x3 = conv_block(80, 192, kernel_size=3)
        self.maxpool2 = nn.MaxPool2d(kernel_size=3, stride=2)
        self.Mixed_5b = block_a(192, pool_features=32)
        self.Mixed_5c = block_a(256, pool_features=64)
        self.Mixed_5d = block_a(288, pool_features=64)
        self.Mixed_6a = block_b(288)
        self.Mixed_6b = block_c(768, channels_7x7=128)
        self.Mixed_6c = block_c(768, channels_7x7=160)
        self.Mixed_6d = block_c(768, channels_7x7=160)
        self.Mixed_6e = block_c(768, channels_7x7=192)
        # Registered here, after Mixed_6e, as torchvision registers it.
        self.AuxLogits = block_aux(768, num_classes) if aux_logits else None
        self.Mixed_7a = block_d(768)
        self.Mixed_7b = block_e(1280)
        self.Mixed_7c = block_e(2048)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(p=dropout)
        self.fc = nn.Linear(2048, num_classes)

    def forward(self, x):
        if self.transform_input:
            x = _imagenet_to_half_range(x)
        x = self.Conv2d_2b_3x3(self.Conv2d_2a_3x3(self.Conv2d_1a_3x3(x)))
        x = self.Conv2d_4a_3x3(self.Conv2d_3b_1x1(self.maxpool1(x)))
        x = self.maxpool2(x)
        x = self.Mixed_5d(self.Mixed_5c(self.Mixed_5b(x)))
        x = self.Mixed_6e(self.Mixed_6d(self.Mixed_6c(self.Mixed_6b(self.Mixed_6a(x)))))
        aux = self.AuxLogits(x) if self.AuxLogits is not None and self.training else None
        x = self.Mixed_7c(self.Mixed_7b(self.Mixed_7a(x)))
        x = self.dropout(self.avgpool(x))
        x = self.fc(torch.flatten(x, 1))
        if self.training and self.aux_logits:
            return x, aux
        return x


Inception_V3_Weights = _enum("Inception_V3_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")


def inception_v3(*args, **kwargs):
    weights = _weights(Inception_V3_Weights, "IMAGENET1K_V1", args, kwargs)
    keep_aux = kwargs.get("aux_logits", True)
    if weights is not None:
        if "transform_input" not in kwargs:
            kwargs["transform_input"] = True
        _must_be(kwargs, "aux_logits", True)
        _must_be(kwargs, "init_weights", False)
        _pretrained(weights, kwargs)
    model = Inception3(**kwargs)
    if weights is not None and not keep_aux:
        model.aux_logits = False
        model.AuxLogits = None
    return model


# ---- ShuffleNetV2 ----

def channel_shuffle(x, groups):
    batch, channels, height, width = x.size()
    x = x.view(batch, groups, channels // groups, height, width)
    x = torch.transpose(x, 1, 2).contiguous()
    return x.view(batch, channels, height, width)


class ShuffleUnit(nn.Module):
    def __init__(self, inp, oup, stride):
        super().__init__()
        if not (1 <= stride <= 3):
            raise ValueError("illegal stride value")
        self.stride = stride
        half = oup // 2
        if stride == 1 and inp != half << 1:
            raise ValueError(
                f"Invalid combination of stride {stride}, inp {inp} and oup {oup} values. If stride == 1 then inp should be equal to oup // 2 << 1."
            )
        if stride > 1:
            self.branch1 = nn.Sequential(
                nn.Conv2d(inp, inp, 3, stride, 1, bias=False, groups=inp),
                nn.BatchNorm2d(inp),
                nn.Conv2d(inp, half, kernel_size=1, stride=1, padding=0, bias=False),
                nn.BatchNorm2d(half),
                nn.ReLU(inplace=True),
            )
        else:
            self.branch1 = nn.Sequential()
        self.branch2 = nn.Sequential(
            nn.Conv2d(inp if stride > 1 else half, half, kernel_size=1, stride=1, padding=0, bias=False),
            nn.BatchNorm2d(half),
            nn.ReLU(inplace=True),
            nn.Conv2d(half, half, 3, stride, 1, bias=False, groups=half),
            nn.BatchNorm2d(half),
            nn.Conv2d(half, half, kernel_size=1, stride=1, padding=0, bias=False),
            nn.BatchNorm2d(half),
            nn.ReLU(inplace=True),
        )

    def forward(self, x):
        if self.stride == 1:
            x1, x2 = x.chunk(2, dim=1)
            out = torch.cat((x1, self.branch2(x2)), dim=1)
        else:
            out = torch.cat((self.branch1(x), self.branch2(x)), dim=1)
        return channel_shuffle(out, 2)


class ShuffleNetV2(nn.Module):
    def __init__(self, stages_repeats, stages_out_channels, num_classes=1000, inverted_residual=ShuffleUnit):
        super().__init__()
        if len(stages_repeats) != 3:
            raise ValueError("expected stages_repeats as list of 3 positive ints")
        if len(stages_out_channels) != 5:
            raise ValueError("expected stages_out_channels as list of 5 positive ints")
        self._stage_out_channels = stages_out_channels
        channels = stages_out_channels[0]
        self.conv1 = nn.Sequential(
            nn.Conv2d(3, channels, 3, 2, 1, bias=False),
            nn.BatchNorm2d(channels),
            nn.ReLU(inplace=True),
        )
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        for name, repeats, out in zip(["stage2", "stage3", "stage4"], stages_repeats, stages_out_channels[1:]):
            units = [inverted_residual(channels, out, 2)]
            for _ in range(repeats - 1):
                units.append(inverted_residual(out, out, 1))
            setattr(self, name, nn.Sequential(*units))
            channels = out
        last = stages_out_channels[-1]
        self.conv5 = nn.Sequential(
            nn.Conv2d(channels, last, 1, 1, 0, bias=False),
            nn.BatchNorm2d(last),
            nn.ReLU(inplace=True),
        )
        self.fc = nn.Linear(last, num_classes)

    def _forward_impl(self, x):
        x = self.maxpool(self.conv1(x))
        x = self.stage4(self.stage3(self.stage2(x)))
        x = self.conv5(x)
        x = x.mean([2, 3])
        return self.fc(x)

    def forward(self, x):
        return self._forward_impl(x)


ShuffleNet_V2_X0_5_Weights = _enum("ShuffleNet_V2_X0_5_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
ShuffleNet_V2_X1_0_Weights = _enum("ShuffleNet_V2_X1_0_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
ShuffleNet_V2_X1_5_Weights = _enum("ShuffleNet_V2_X1_5_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
ShuffleNet_V2_X2_0_Weights = _enum("ShuffleNet_V2_X2_0_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")


def _shufflenet(enum, channels, args, kwargs):
    weights = _weights(enum, "IMAGENET1K_V1", args, kwargs)
    _pretrained(weights, kwargs)
    return ShuffleNetV2([4, 8, 4], channels, **kwargs)


def shufflenet_v2_x0_5(*args, **kwargs):
    return _shufflenet(ShuffleNet_V2_X0_5_Weights, [24, 48, 96, 192, 1024], args, kwargs)


def shufflenet_v2_x1_0(*args, **kwargs):
    return _shufflenet(ShuffleNet_V2_X1_0_Weights, [24, 116, 232, 464, 1024], args, kwargs)


def shufflenet_v2_x1_5(*args, **kwargs):
    return _shufflenet(ShuffleNet_V2_X1_5_Weights, [24, 176, 352, 704, 1024], args, kwargs)


def shufflenet_v2_x2_0(*args, **kwargs):
    return _shufflenet(ShuffleNet_V2_X2_0_Weights, [24, 244, 488, 976, 2048], args, kwargs)


# ---- ConvNeXt ----

class LayerNorm2d(nn.LayerNorm):
    """LayerNorm over the channels of an NCHW map (moved last, normalised, moved back)."""

    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)


class CNBlock(nn.Module):
    def __init__(self, dim, layer_scale, stochastic_depth_prob, norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = partial(nn.LayerNorm, eps=1e-6)
        self.block = nn.Sequential(
            nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim, bias=True),
            Permute([0, 2, 3, 1]),
            norm_layer(dim),
            nn.Linear(in_features=dim, out_features=4 * dim, bias=True),
            nn.GELU(),
            nn.Linear(in_features=4 * dim, out_features=dim, bias=True),
            Permute([0, 3, 1, 2]),
        )
        self.layer_scale = nn.Parameter(torch.ones(dim, 1, 1) * layer_scale)
        self.stochastic_depth = StochasticDepth(stochastic_depth_prob, "row")

    def forward(self, input):
        result = self.layer_scale * self.block(input)
        result = self.stochastic_depth(result)
        result += input
        return result


class CNBlockConfig:
    def __init__(self, input_channels, out_channels, num_layers):
        self.input_channels = input_channels
        self.out_channels = out_channels
        self.num_layers = num_layers


class ConvNeXt(nn.Module):
    def __init__(self, block_setting, stochastic_depth_prob=0.0, layer_scale=1e-6, num_classes=1000, block=None,
                 norm_layer=None, **kwargs):
        super().__init__()
        if not block_setting:
            raise ValueError("The block_setting should not be empty")
        if block is None:
            block = CNBlock
        if norm_layer is None:
            norm_layer = partial(LayerNorm2d, eps=1e-6)
        parts = [Conv2dNormActivation(3, block_setting[0].input_channels, kernel_size=4, stride=4, padding=0,
                                      norm_layer=norm_layer, activation_layer=None, bias=True)]
        total = sum(cnf.num_layers for cnf in block_setting)
        block_id = 0
        for cnf in block_setting:
            stage = []
            for _ in range(cnf.num_layers):
                stage.append(block(cnf.input_channels, layer_scale,
                                   stochastic_depth_prob * block_id / (total - 1.0)))
                block_id += 1
            parts.append(nn.Sequential(*stage))
            if cnf.out_channels is not None:
                parts.append(nn.Sequential(
                    norm_layer(cnf.input_channels),
                    nn.Conv2d(cnf.input_channels, cnf.out_channels, kernel_size=2, stride=2),
                ))
        self.features = nn.Sequential(*parts)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        last = block_setting[-1]
        channels = last.out_channels if last.out_channels is not None else last.input_channels
        self.classifier = nn.Sequential(norm_layer(channels), nn.Flatten(1), nn.Linear(channels, num_classes))

    def _forward_impl(self, x):
        return self.classifier(self.avgpool(self.features(x)))

    def forward(self, x):
        return self._forward_impl(x)


ConvNeXt_Tiny_Weights = _enum("ConvNeXt_Tiny_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
ConvNeXt_Small_Weights = _enum("ConvNeXt_Small_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
ConvNeXt_Base_Weights = _enum("ConvNeXt_Base_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")
ConvNeXt_Large_Weights = _enum("ConvNeXt_Large_Weights", ["IMAGENET1K_V1"], "IMAGENET1K_V1")


def _convnext(enum, widths, depths, drop, args, kwargs):
    weights = _weights(enum, "IMAGENET1K_V1", args, kwargs)
    setting = [CNBlockConfig(widths[k], widths[k + 1] if k < 3 else None, depths[k]) for k in range(4)]
    stochastic_depth_prob = kwargs.pop("stochastic_depth_prob", drop)
    _pretrained(weights, kwargs)
    return ConvNeXt(setting, stochastic_depth_prob=stochastic_depth_prob, **kwargs)


def convnext_tiny(*args, **kwargs):
    return _convnext(ConvNeXt_Tiny_Weights, [96, 192, 384, 768], [3, 3, 9, 3], 0.1, args, kwargs)


def convnext_small(*args, **kwargs):
    return _convnext(ConvNeXt_Small_Weights, [96, 192, 384, 768], [3, 3, 27, 3], 0.4, args, kwargs)


def convnext_base(*args, **kwargs):
    return _convnext(ConvNeXt_Base_Weights, [128, 256, 512, 1024], [3, 3, 27, 3], 0.5, args, kwargs)


def convnext_large(*args, **kwargs):
    return _convnext(ConvNeXt_Large_Weights, [192, 384, 768, 1536], [3, 3, 27, 3], 0.5, args, kwargs)


# ---- torchvision.models' lookups by name ----

_BUILDERS = {
    "resnet18": resnet18, "resnet34": resnet34, "resnet50": resnet50, "resnet101": resnet101,
    "resnet152": resnet152, "resnext50_32x4d": resnext50_32x4d, "resnext101_32x8d": resnext101_32x8d,
    "resnext101_64x4d": resnext101_64x4d, "wide_resnet50_2": wide_resnet50_2,
    "wide_resnet101_2": wide_resnet101_2, "vgg11": vgg11, "vgg11_bn": vgg11_bn, "vgg13": vgg13,
    "vgg13_bn": vgg13_bn, "vgg16": vgg16, "vgg16_bn": vgg16_bn, "vgg19": vgg19, "vgg19_bn": vgg19_bn,
    "alexnet": alexnet, "densenet121": densenet121, "densenet161": densenet161, "densenet169": densenet169,
    "densenet201": densenet201, "mobilenet_v2": mobilenet_v2, "mobilenet_v3_small": mobilenet_v3_small,
    "mobilenet_v3_large": mobilenet_v3_large, "efficientnet_b0": efficientnet_b0,
    "efficientnet_b1": efficientnet_b1, "efficientnet_b2": efficientnet_b2, "efficientnet_b3": efficientnet_b3,
    "efficientnet_b4": efficientnet_b4, "efficientnet_b5": efficientnet_b5, "efficientnet_b6": efficientnet_b6,
    "efficientnet_b7": efficientnet_b7, "efficientnet_v2_s": efficientnet_v2_s,
    "efficientnet_v2_m": efficientnet_v2_m, "efficientnet_v2_l": efficientnet_v2_l,
    "squeezenet1_0": squeezenet1_0, "squeezenet1_1": squeezenet1_1, "googlenet": googlenet,
    "inception_v3": inception_v3, "shufflenet_v2_x0_5": shufflenet_v2_x0_5,
    "shufflenet_v2_x1_0": shufflenet_v2_x1_0, "shufflenet_v2_x1_5": shufflenet_v2_x1_5,
    "shufflenet_v2_x2_0": shufflenet_v2_x2_0, "convnext_tiny": convnext_tiny, "convnext_small": convnext_small,
    "convnext_base": convnext_base, "convnext_large": convnext_large,
}


def get_model_builder(name):
    if name.lower() not in _BUILDERS:
        raise ValueError(f"Unknown model {name}")
    return _BUILDERS[name.lower()]


def get_model(name, **config):
    return get_model_builder(name)(**config)


def list_models(module=None, include=None, exclude=None):
    return sorted(_BUILDERS)
