# padlab-input: 3x224x224
# padlab-model: MobileNetV2()
# MobileNetV2 in the style of today's torchvision: its conv-norm-ReLU6 units are
# Conv2dNormActivation (an nn.Sequential subclass), InvertedResidual adds its input when the stride
# is 1 and the channels stay, and the head pools with F.adaptive_avg_pool2d and flattens (the
# first torchvision version printed ConvBNReLU and averaged with x.mean([2, 3])). Written for
# padlab's corpus from the architecture's description (Sandler et al., 2018).
import torch
import torch.nn as nn
import torch.nn.functional as F


class Conv2dNormActivation(nn.Sequential):
    def __init__(self, i, o, k=3, s=1, groups=1):
        super().__init__(
            nn.Conv2d(i, o, k, s, (k - 1) // 2, groups=groups, bias=False),
            nn.BatchNorm2d(o),
            nn.ReLU6(inplace=True),
        )


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, t):
        super().__init__()
        hidden = inp * t
        self.use_res_connect = stride == 1 and inp == oup
        layers = []
        if t != 1:
            layers.append(Conv2dNormActivation(inp, hidden, 1))
        layers += [
            Conv2dNormActivation(hidden, hidden, 3, stride, hidden),
            nn.Conv2d(hidden, oup, 1, bias=False),
            nn.BatchNorm2d(oup),
        ]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


class MobileNetV2(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        setting = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2],
                   [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]]
        features = [Conv2dNormActivation(3, 32, s=2)]
        c_in = 32
        for t, c, n, s in setting:
            for i in range(n):
                features.append(InvertedResidual(c_in, c, s if i == 0 else 1, t))
                c_in = c
        features.append(Conv2dNormActivation(c_in, 1280, 1))
        self.features = nn.Sequential(*features)
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(1280, num_classes))

    def forward(self, x):
        x = self.features(x)
        x = F.adaptive_avg_pool2d(x, (1, 1))
        x = torch.flatten(x, 1)
        return self.classifier(x)
