# padlab-input: 3x32x32
# padlab-model: MobileNet()
# MobileNet v1 for CIFAR-10, in the style of the widely copied CIFAR repositories: a Block of a
# depthwise 3x3 conv (groups=in_planes) and a pointwise 1x1 conv, each with BatchNorm2d and
# F.relu; a class-level cfg list mixing ints and (out_planes, stride) tuples read with
# isinstance(x, int) in _make_layers; F.avg_pool2d(out, 2), view and Linear(1024, 10).
'''MobileNet v1 (Howard et al., 2017) for CIFAR-10.'''
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    '''One depthwise-separable unit: 3x3 per channel, then 1x1 across channels.'''
    def __init__(self, in_planes, out_planes, stride=1):
        super(Block, self).__init__()
        self.conv1 = nn.Conv2d(in_planes, in_planes, kernel_size=3, stride=stride, padding=1, groups=in_planes, bias=False)
        self.bn1 = nn.BatchNorm2d(in_planes)
        self.conv2 = nn.Conv2d(in_planes, out_planes, kernel_size=1, stride=1, padding=0, bias=False)
        self.bn2 = nn.BatchNorm2d(out_planes)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = F.relu(self.bn2(self.conv2(out)))
        return out


class MobileNet(nn.Module):
    # an int is the output channels at stride 1; a tuple is (channels, stride)
    cfg = [64, (128,2), 128, (256,2), 256, (512,2), 512, 512, 512, 512, 512, (1024,2), 1024]

    def __init__(self, num_classes=10):
        super(MobileNet, self).__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(32)
        self.layers = self._make_layers(in_planes=32)
        self.linear = nn.Linear(1024, num_classes)

    def _make_layers(self, in_planes):
        layers = []
        for x in self.cfg:
            out_planes = x if isinstance(x, int) else x[0]
            stride = 1 if isinstance(x, int) else x[1]
            layers.append(Block(in_planes, out_planes, stride))
            in_planes = out_planes
        return nn.Sequential(*layers)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layers(out)
        out = F.avg_pool2d(out, 2)
        out = out.view(out.size(0), -1)
        out = self.linear(out)
        return out
