# One small model per group of operations a whole-model port must carry exactly (not part of
# the corpus run: `verify.py --dir tests/models/ops`).
# Stacking branch outputs on a new axis (WaveNet-style skip sums, torch.stack(...).sum(0)), a
# squeeze-excitation gate broadcast with expand / expand_as, and Python's sum() of tensors.
# padlab-input: 8x6x6
import torch
import torch.nn as nn


class StackExpand(nn.Module):
    def __init__(self, c=8, r=4):
        super().__init__()
        self.a = nn.Conv2d(c, c, 3, padding=1)
        self.b = nn.Conv2d(c, c, 1)
        self.avg = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Sequential(nn.Linear(c, c // r), nn.ReLU(inplace=True), nn.Linear(c // r, c), nn.Sigmoid())

    def forward(self, x):
        skips = [self.a(x), self.b(x)]
        s = torch.stack(skips).sum(dim=0) + torch.stack(skips, dim=2).mean(2)
        b, c, _, _ = s.size()
        y = self.fc(self.avg(s).view(b, c)).view(b, c, 1, 1)
        gated = s * y.expand_as(s) + y.expand(-1, -1, s.size(2), s.size(3))
        return sum([gated, s])


model = StackExpand()
