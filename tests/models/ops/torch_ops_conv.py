# One small model per group of operations a whole-model port must carry exactly (not part of
# the corpus run: `verify.py --dir tests/models/ops`).
# Convolutions a port must load right: depthwise (groups = channels), grouped and dilated,
# strided and dilated (a zero-inserted kernel), transposed with crops; batch-norm momentum;
# ceil-mode pools, an average that does not count its padding, a dilated max pool; a random op.
# padlab-input: 8x13x12
import torch
import torch.nn as nn
import torch.nn.functional as F


class Convs(nn.Module):
    def __init__(self):
        super().__init__()
        self.dw = nn.Conv2d(8, 16, 3, groups=8, padding=1, stride=2)
        self.gc = nn.Conv2d(8, 12, 3, groups=4, padding=(1, 2), dilation=(1, 2))
        self.sd = nn.Conv2d(8, 4, 3, stride=2, dilation=2, padding=2)
        self.tc = nn.ConvTranspose2d(8, 4, 4, stride=2, padding=1, output_padding=1, bias=True)
        self.tc2 = nn.ConvTranspose2d(8, 6, 3, stride=3, padding=2, dilation=2)
        self.bn = nn.BatchNorm2d(8, momentum=0.3, eps=1e-3)
        self.mp = nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True)
        self.ap = nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
        self.mpd = nn.MaxPool2d(2, stride=1, dilation=2)
        self.emb = nn.Embedding(20, 4)

    def forward(self, x):
        return self.dw(x), self.gc(x), self.sd(x), self.tc(x), self.tc2(x), self.bn(x), self.mp(x), self.ap(x), self.mpd(x), torch.randn_like(x) * 0 + x


model = Convs()
