# padlab-input: 1x2048
# padlab-model: WaveNet(layers=10, stacks=2)
# A WaveNet-style stack of causal dilated 1-D convolutions, as compact PyTorch
# reimplementations write it: a CausalConv1d module that left-pads with
# F.pad(x, (self.pad, 0)) where pad = (kernel_size - 1) * dilation, residual blocks with a gated
# activation torch.tanh(f) * torch.sigmoid(g), a 1x1 residual conv added back to the input
# and a 1x1 skip conv, dilations 1, 2, 4, ... 512 repeated over 2 stacks in a list
# comprehension into nn.ModuleList, the skips summed with sum()-like accumulation, and a
# ReLU / 1x1 / ReLU / 1x1 head with 256 quantization classes.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalConv1d(nn.Module):
    """A Conv1d that sees only the past: all of its padding goes on the left."""

    def __init__(self, in_channels, out_channels, kernel_size, dilation=1):
        super().__init__()
        self.pad = (kernel_size - 1) * dilation
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, dilation=dilation)

    def forward(self, x):
        return self.conv(F.pad(x, (self.pad, 0)))


class ResidualBlock(nn.Module):
    def __init__(self, residual_channels, skip_channels, dilation, kernel_size=2):
        super().__init__()
        self.filter_conv = CausalConv1d(residual_channels, residual_channels, kernel_size, dilation)
        self.gate_conv = CausalConv1d(residual_channels, residual_channels, kernel_size, dilation)
        self.residual_conv = nn.Conv1d(residual_channels, residual_channels, 1)
        self.skip_conv = nn.Conv1d(residual_channels, skip_channels, 1)

    def forward(self, x):
        f = self.filter_conv(x)
        g = self.gate_conv(x)
        z = torch.tanh(f) * torch.sigmoid(g)
        skip = self.skip_conv(z)
        residual = self.residual_conv(z) + x
        return residual, skip


class WaveNet(nn.Module):
    def __init__(self, in_channels=1, residual_channels=32, skip_channels=64,
                 classes=256, layers=10, stacks=2, kernel_size=2):
        super().__init__()
        self.causal = CausalConv1d(in_channels, residual_channels, kernel_size=2)
        dilations = [2 ** i for i in range(layers)] * stacks
        self.blocks = nn.ModuleList(
            [ResidualBlock(residual_channels, skip_channels, d, kernel_size) for d in dilations]
        )
        self.end1 = nn.Conv1d(skip_channels, skip_channels, 1)
        self.end2 = nn.Conv1d(skip_channels, classes, 1)
        self.receptive_field = sum(dilations) * (kernel_size - 1) + 2

    def forward(self, x):
        x = self.causal(x)
        skips = 0
        for block in self.blocks:
            x, skip = block(x)
            skips = skips + skip
        out = F.relu(skips)
        out = F.relu(self.end1(out))
        return self.end2(out)


model = WaveNet(layers=10, stacks=2)
print("receptive field:", model.receptive_field)
