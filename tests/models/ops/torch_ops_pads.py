# One small model per group of operations a whole-model port must carry exactly (not part of
# the corpus run: `verify.py --dir tests/models/ops`).
# Padding modules and F.pad in every mode (replicate, circular, reflect, a constant), a pad of the
# channels, negative pads that crop, and convolutions with padding_mode.
# padlab-input: 3x7x9
import torch
import torch.nn as nn
import torch.nn.functional as F


class Pads(nn.Module):
    def __init__(self):
        super().__init__()
        self.rep = nn.ReplicationPad2d((1, 2, 3, 0))
        self.circ = nn.CircularPad2d(2)
        self.refl = nn.ReflectionPad2d((2, 1, 0, 1))
        self.const = nn.ConstantPad2d(1, 0.5)
        self.conv = nn.Conv2d(3, 4, 3, padding=2, padding_mode="circular")
        self.conv2 = nn.Conv2d(3, 4, 3, padding=1, padding_mode="replicate", stride=2)

    def forward(self, x):
        a = self.rep(x)
        b = self.circ(x)
        c = self.refl(x)
        d = self.const(x)
        e = F.pad(x, (1, 1, 0, 0, 2, 0))
        f = F.pad(x, (-1, 2, 1, -2))
        g = self.conv(x)
        h = self.conv2(x)
        i = F.pad(x, (1, 2, 0, 1), mode="replicate")
        return a, b, c, d, e, f, g, h, i


model = Pads()
