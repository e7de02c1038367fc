# padlab-input: 1x96x96
# Network-in-Network as an interactive textbook writes it today: lazy layers (nn.LazyConv2d,
# nn.LazyBatchNorm2d, nn.LazyLinear) that take their input sizes from the first call, blocks
# made by a function, and a head of global average pooling. Architecture: NiN (Lin et al.).
import torch
from torch import nn


def nin_block(out_channels, kernel_size, strides, padding):
    return nn.Sequential(
        nn.LazyConv2d(out_channels, kernel_size, strides, padding), nn.ReLU(),
        nn.LazyConv2d(out_channels, kernel_size=1), nn.ReLU(),
        nn.LazyConv2d(out_channels, kernel_size=1), nn.ReLU())


class NiN(nn.Module):
    def __init__(self, lr=0.1, num_classes=10):
        super().__init__()
        self.lr = lr
        self.net = nn.Sequential(
            nin_block(24, kernel_size=11, strides=4, padding=0),
            nn.MaxPool2d(3, stride=2),
            nin_block(64, kernel_size=5, strides=1, padding=2),
            nn.LazyBatchNorm2d(),
            nn.MaxPool2d(3, stride=2),
            nin_block(96, kernel_size=3, strides=1, padding=1),
            nn.MaxPool2d(3, stride=2),
            nn.Dropout(0.5),
            nin_block(num_classes, kernel_size=3, strides=1, padding=1),
            nn.AdaptiveAvgPool2d((1, 1)),
            nn.Flatten(),
            nn.LazyLinear(num_classes))

    def forward(self, X):
        return self.net(X)


model = NiN()
